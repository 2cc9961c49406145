"""Kestrel driven the way lichess-bot drives it: through python-chess.

Every test starts the real release binary (KESTREL_BIN, default
<repo>/target/release/kestrel) and talks UCI to it, either through
chess.engine.SimpleEngine or, where python-chess would hide what the engine
does (isready during a search, `info string error` after a setoption), over a
raw pipe.

Setup and run (from the repository root):

    cargo build --release
    python3 -m venv /tmp/pyenv
    /tmp/pyenv/bin/pip install -r tests/python/requirements.txt
    /tmp/pyenv/bin/python -m pytest -q tests/python

Notes on python-chess (the library lichess-bot uses):
  * MultiPV, Ponder and UCI_Chess960 are "managed" options: configure()
    refuses them with EngineError. MultiPV is set per search through
    analyse(..., multipv=N), Ponder through play(..., ponder=True), and
    UCI_Chess960 from board.chess960 before every `position`. So these must
    never appear in lichess-bot's uci_options either (the yml test checks it).
  * engine.ping() while an analysis runs does not send `isready` into the
    search: python-chess first stops the analysis (`stop`, waits for
    `bestmove`) and then pings. The raw test checks the engine itself
    answers `isready` mid-search.
"""

import logging
import os
import queue
import subprocess
import threading
import time
from pathlib import Path

import chess
import chess.engine
import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
KESTREL_BIN = os.environ.get("KESTREL_BIN", str(REPO / "target" / "release" / "kestrel"))
LICHESS_YML = REPO / "uci-scripts" / "lichess-bot-engine.yml"

# A hard ceiling per test (pytest-timeout), so a hung engine fails a test
# instead of stalling the whole run.
pytestmark = pytest.mark.timeout(90)

# The option table the README documents: name -> (type, default, min, max).
EXPECTED_OPTIONS = {
    "Hash": ("spin", 16, 1, 65536),
    "Threads": ("spin", 1, 1, 256),
    "MultiPV": ("spin", 1, 1, 256),
    "Ponder": ("check", False, None, None),
    "UCI_Chess960": ("check", False, None, None),
    "Move Overhead": ("spin", 10, 0, 5000),
    "Clear Hash": ("button", None, None, None),
}

# Morphy's problem: 1.Ra6! bxa6 2.b7#. No mate in one.
MATE_IN_2_FEN = "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1"

# Chess960 positions where castling is the one and only mate in one, and in
# none of them can the rook reach the mating square without castling:
#   king g1 / rook h1: the king stays on g1, the rook jumps to f1 (g1h1);
#   king f1 / rook g1: king and rook swap squares (f1g1);
#   king d1 / rook c1: queenside, king to c1 and rook to d1 (d1c1).
CASTLE_MATES_960 = [
    ("4rkr1/4p1p1/8/8/8/8/8/6KR w H - 0 1", "g1h1"),
    ("4rkr1/4p1p1/8/8/8/8/8/5KR1 w G - 0 1", "f1g1"),
    ("2rkr3/2p1p3/8/8/8/8/8/2RK4 w C - 0 1", "d1c1"),
]

# Chess960 start positions (Scharnagl numbers); all but 518 (the standard
# array) have the king right beside a rook, so castling is near at hand.
CHESS960_STARTS = [0, 959, 420, 360, 660, 518]


# --------------------------------------------------------------------------
# fixtures and helpers


@pytest.fixture(scope="session")
def kestrel_bin():
    path = Path(KESTREL_BIN)
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(
            f"Kestrel binary not found at {path}: run `cargo build --release` "
            "or set KESTREL_BIN"
        )
    return str(path)


def _open(kestrel_bin):
    return chess.engine.SimpleEngine.popen_uci(kestrel_bin, timeout=10)


@pytest.fixture
def engine(kestrel_bin):
    eng = _open(kestrel_bin)
    try:
        yield eng
    finally:
        eng.quit()


class Wire(logging.Handler):
    """Records every UCI line python-chess sends (<<) and receives (>>)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.guard = threading.Lock()
        self.lines = []

    def emit(self, record):
        if record.msg in ("%s: << %s", "%s: >> %s") and len(record.args) == 2:
            direction = "<<" if "<<" in record.msg else ">>"
            with self.guard:
                self.lines.append((direction, str(record.args[1])))

    def sent(self):
        with self.guard:
            return [l for d, l in self.lines if d == "<<"]

    def received(self):
        with self.guard:
            return [l for d, l in self.lines if d == ">>"]

    def clear(self):
        with self.guard:
            self.lines.clear()


@pytest.fixture
def wire():
    logger = logging.getLogger("chess.engine")
    handler = Wire()
    old_level = logger.level
    logger.setLevel(logging.DEBUG)
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)


def _errors(lines):
    return [l for l in lines if l.startswith("info string error")]


class RawUci:
    """A bare UCI session over pipes, with timeouts on every read."""

    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix, timeout=5.0):
        """Lines up to and including the first one starting with prefix."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(
                    f"no line starting with {prefix!r} within {timeout}s; "
                    f"got {seen[-10:]!r}"
                )
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise AssertionError(
                    f"engine exited (code {self.proc.poll()}) while waiting "
                    f"for {prefix!r}; got {seen[-10:]!r}"
                )
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def drain(self, wait=0.0):
        time.sleep(wait)
        out = []
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return out
            if line is not None:
                out.append(line)

    def handshake(self):
        self.send("uci")
        lines = self.read_until("uciok")
        self.send("isready")
        self.read_until("readyok")
        return lines

    def close(self):
        try:
            self.send("quit")
        except (BrokenPipeError, OSError):
            pass
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError("engine did not exit within 5 s of `quit`")
        return code


@pytest.fixture
def raw(kestrel_bin):
    session = RawUci(kestrel_bin)
    try:
        yield session
    finally:
        if session.proc.poll() is None:
            session.close()


def _check_pv(board, pv):
    """Every move of a PV is legal in turn; returns the board at its end."""
    b = board.copy()
    for move in pv:
        assert b.is_legal(move), f"illegal PV move {move} in {b.fen()} (pv {pv})"
        b.push(move)
    return b


def _play_move(eng, board, limit, **kwargs):
    result = eng.play(board, limit, **kwargs)
    assert result.move is not None, f"no move in {board.fen()}"
    assert board.is_legal(result.move), (
        f"illegal move {result.move.uci()} in {board.fen()} "
        f"(chess960={board.chess960})"
    )
    return result


def _game_over(board):
    return board.is_game_over(claim_draw=True)


# --------------------------------------------------------------------------
# 1. whole games on a clock


# Move Overhead for the clock games, as in uci-scripts/lichess-bot-engine.yml.
# The clock below is wall time seen by python-chess, so it also pays for
# pipe round trips and OS scheduling; on a loaded 2-core machine that alone
# has measured up to ~0.1 s on a single move. FLAG_SLACK allows that much
# beyond zero: a time-management bug (ignoring the clock, overrunning by a
# search iteration) still shows as a loss far past it.
MOVE_OVERHEAD_MS = 100
FLAG_SLACK = 0.1


def _clock_game(white, black, base, inc, max_plies, ponder=False, slack=FLAG_SLACK):
    """Plays a game on a real clock; returns (board, lowest clock seen)."""
    board = chess.Board()
    clocks = {chess.WHITE: base, chess.BLACK: base}
    engines = {chess.WHITE: white, chess.BLACK: black}
    for eng in {id(white): white, id(black): black}.values():
        eng.configure({"Move Overhead": MOVE_OVERHEAD_MS})
    lowest = base
    game = object()
    while not _game_over(board) and board.ply() < max_plies:
        side = board.turn
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE],
            black_clock=clocks[chess.BLACK],
            white_inc=inc,
            black_inc=inc,
        )
        start = time.perf_counter()
        result = _play_move(engines[side], board, limit, game=game, ponder=ponder)
        clocks[side] -= time.perf_counter() - start
        lowest = min(lowest, clocks[side])
        assert clocks[side] > -slack, (
            f"{'white' if side else 'black'} lost on time at ply {board.ply()} "
            f"({clocks[side]:.3f} s) in {board.fen()}"
        )
        clocks[side] += inc
        board.push(result.move)
    return board, lowest


def test_self_play_game_on_short_clock(engine):
    board, _ = _clock_game(engine, engine, base=2.0, inc=0.02, max_plies=200)
    assert _game_over(board) or board.ply() == 200
    assert board.ply() >= 20, f"game ended suspiciously early: {board.fen()}"


def test_two_engines_pondering_game(kestrel_bin, wire):
    # lichess-bot's default is ponder: true; each side its own process,
    # pondering on the other's time; ponderhit or stop decides the next move.
    # test_ponderhit_keeps_the_normal_budget guards the budget after
    # ponderhit; this game checks the whole exchange end to end.
    white, black = _open(kestrel_bin), _open(kestrel_bin)
    try:
        board, _ = _clock_game(
            white, black, base=2.0, inc=0.02, max_plies=120, ponder=True
        )
    finally:
        white.quit()
        black.quit()
    assert _game_over(board) or board.ply() == 120
    sent = wire.sent()
    assert any(l.startswith("go ponder") for l in sent), "python-chess never pondered"
    # With both sides pondering over a whole game, some guesses come true.
    assert "ponderhit" in sent, "no ponder move was ever right"
    assert not _errors(wire.received())


def _time_to_bestmove(session, ponder_for=None):
    session.send("position startpos moves e2e4 e7e5 g1f3 b8c6")
    clock = "wtime 2000 btime 2000 winc 20 binc 20"
    if ponder_for is None:
        session.send(f"go {clock}")
    else:
        session.send(f"go ponder {clock}")
        time.sleep(ponder_for)
        assert not any(l.startswith("bestmove") for l in session.drain())
        session.send("ponderhit")
    start = time.perf_counter()
    session.read_until("bestmove", timeout=5)
    return time.perf_counter() - start


def test_ponderhit_keeps_the_normal_budget(raw):
    raw.handshake()
    raw.send("setoption name Ponder value true")
    plain, after_hit = [], []
    for _ in range(2):
        raw.send("ucinewgame")
        plain.append(_time_to_bestmove(raw))
        raw.send("ucinewgame")
        after_hit.append(_time_to_bestmove(raw, ponder_for=1.5))
    plain_ms = 1000 * sum(plain) / len(plain)
    hit_ms = 1000 * sum(after_hit) / len(after_hit)
    # Time already spent pondering is a gift; the move after ponderhit
    # should not cost more of our own clock than a move without it.
    assert hit_ms <= plain_ms + 50, f"{hit_ms:.0f} ms after ponderhit vs {plain_ms:.0f} ms plain"


def test_movetime_is_respected(engine):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    for budget in (0.05, 0.3):
        start = time.perf_counter()
        _play_move(engine, board, chess.engine.Limit(time=budget))
        took = time.perf_counter() - start
        assert took < budget + 0.25, f"movetime {budget} s took {took:.3f} s"


# --------------------------------------------------------------------------
# 2. Chess960


def test_chess960_games(engine, wire):
    castles = []
    for number in CHESS960_STARTS:
        board = chess.Board.from_chess960_pos(number)
        board.chess960 = True
        game = object()
        while not _game_over(board) and board.ply() < 200:
            limit = chess.engine.Limit(nodes=4000) if number % 2 == 0 else chess.engine.Limit(time=0.02)
            result = _play_move(engine, board, limit, game=game)
            if board.is_castling(result.move):
                castles.append((number, board.ply(), result.move.uci()))
            board.push(result.move)
        assert _game_over(board) or board.ply() == 200
    # python-chess announced Chess960 and sent Shredder-FEN start positions.
    sent = wire.sent()
    assert "setoption name UCI_Chess960 value true" in sent
    assert any(l.startswith("position fen") for l in sent)
    assert not _errors(wire.received())
    assert castles, "no side castled in any of the Chess960 games"


@pytest.mark.parametrize("fen,castle", CASTLE_MATES_960)
def test_chess960_castling_mate(engine, fen, castle):
    board = chess.Board(fen, chess960=True)
    expected = chess.Move.from_uci(castle)
    assert board.is_castling(expected) and board.is_legal(expected)
    result = _play_move(engine, board, chess.engine.Limit(depth=4))
    assert result.move == expected, f"played {result.move.uci()}, mate was {castle}"
    board.push(result.move)
    assert board.is_checkmate()


def test_castling_notation_follows_uci_chess960(engine, wire):
    # Same castle, forced with searchmoves: e1g1 in standard mode, king
    # takes rook (e1h1) once UCI_Chess960 is on, and back again.
    fen = "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1"
    for chess960, wire_move in ((False, "e1g1"), (True, "e1h1"), (False, "e1g1")):
        board = chess.Board(fen, chess960=chess960)
        castle = board.parse_uci(wire_move)
        assert board.is_castling(castle)
        wire.clear()
        result = _play_move(
            engine, board, chess.engine.Limit(depth=3), root_moves=[castle], game=object()
        )
        assert result.move == castle
        bestmoves = [l for l in wire.received() if l.startswith("bestmove")]
        assert bestmoves and bestmoves[-1].split()[1] == wire_move, bestmoves


# --------------------------------------------------------------------------
# 3. analysis


def test_analyse_multipv_3(engine):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3")
    infos = engine.analyse(board, chess.engine.Limit(depth=8), multipv=3)
    assert len(infos) == 3
    firsts = []
    for rank, info in enumerate(infos, start=1):
        assert info.get("multipv") == rank
        assert "score" in info, info
        assert info.get("pv"), info
        _check_pv(board, info["pv"])
        firsts.append(info["pv"][0])
    assert len(set(firsts)) == 3, f"pv[0] repeats across lines: {firsts}"


MIDDLEGAMES = [
    chess.STARTING_FEN,
    "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7",
    "rnbqk2r/ppp1bppp/4pn2/3p4/2PP4/2N2N2/PP2PPPP/R1BQKB1R w KQkq - 4 5",
    "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1",
]


def test_analyse_multipv_lines_best_first(engine):
    misordered = []
    for fen in MIDDLEGAMES:
        board = chess.Board(fen)
        infos = engine.analyse(board, chess.engine.Limit(depth=8), multipv=3, game=object())
        assert [info.get("depth") for info in infos] == [8, 8, 8]
        scores = [info["score"].relative.score(mate_score=100000) for info in infos]
        if scores != sorted(scores, reverse=True):
            misordered.append((fen, scores))
    assert not misordered, f"lines not best first: {misordered}"


def test_analyse_multipv_more_than_legal_moves(engine):
    board = chess.Board("k7/8/2Q5/8/8/8/8/7K b - - 0 1")
    assert board.legal_moves.count() == 2
    infos = engine.analyse(board, chess.engine.Limit(depth=5), multipv=3)
    assert len(infos) == 2
    assert {info["pv"][0] for info in infos} == set(board.legal_moves)


def test_analyse_node_limit(engine):
    board = chess.Board()
    info = engine.analyse(board, chess.engine.Limit(nodes=5000))
    assert info.get("pv") and board.is_legal(info["pv"][0])
    assert "score" in info and info.get("depth", 0) >= 1
    assert 0 < info.get("nodes", 0) <= 5000 * 1.25, info.get("nodes")


def test_analyse_depth_limit(engine):
    board = chess.Board()
    info = engine.analyse(board, chess.engine.Limit(depth=6))
    assert info.get("depth") == 6
    _check_pv(board, info["pv"])


def test_analyse_mate_in_2(engine):
    board = chess.Board(MATE_IN_2_FEN)
    info = engine.analyse(board, chess.engine.Limit(mate=2))
    score = info["score"].white()
    assert score.is_mate() and score.mate() == 2, score
    assert info["pv"][0] == chess.Move.from_uci("a1a6")
    end = _check_pv(board, info["pv"])
    assert len(info["pv"]) == 3 and end.is_checkmate()


def test_analyse_searchmoves(engine):
    board = chess.Board()
    roots = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h4")]
    info = engine.analyse(board, chess.engine.Limit(depth=5), root_moves=roots)
    assert info["pv"][0] in roots


# --------------------------------------------------------------------------
# 4. isready / stop during a search


def test_ping_during_infinite_analysis(engine, wire):
    board = chess.Board("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5")
    with engine.analysis(board) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 4:
                break
        # python-chess stops the analysis, waits for bestmove, then isready.
        engine.ping()
        best = analysis.wait()
    assert best.move is not None and board.is_legal(best.move)
    sent = wire.sent()
    assert "go infinite" in sent and "stop" in sent and "isready" in sent
    assert sent.index("stop") > sent.index("go infinite")
    # Still alive and useful afterwards.
    engine.ping()
    _play_move(engine, board, chess.engine.Limit(depth=3))


def test_stop_infinite_analysis(engine):
    board = chess.Board()
    with engine.analysis(board) as analysis:
        time.sleep(0.3)
        analysis.stop()
        best = analysis.wait()
    assert best.move is not None and board.is_legal(best.move)


def test_raw_isready_answered_mid_search(raw):
    raw.handshake()
    raw.send("position startpos moves e2e4 e7e5")
    raw.send("go infinite")
    raw.read_until("info", timeout=5)
    raw.send("isready")
    lines = raw.read_until("readyok", timeout=1.0)
    assert not any(l.startswith("bestmove") for l in lines), lines
    # go infinite never ends by itself.
    later = raw.drain(wait=0.5)
    assert not any(l.startswith("bestmove") for l in later), later
    raw.send("stop")
    lines = raw.read_until("bestmove", timeout=2)
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert board.is_legal(chess.Move.from_uci(lines[-1].split()[1])), lines[-1]
    raw.send("isready")
    raw.read_until("readyok", timeout=2)
    assert raw.close() == 0


def test_raw_infinite_waits_for_stop_even_with_mate(raw):
    raw.handshake()
    raw.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    raw.send("go infinite")
    early = raw.drain(wait=1.0)
    assert any(l.startswith("info") for l in early), early
    assert not any(l.startswith("bestmove") for l in early), early
    raw.send("stop")
    lines = raw.read_until("bestmove", timeout=2)
    assert lines[-1].split()[1] == "d1d8", lines[-1]


# --------------------------------------------------------------------------
# 5. new games


def test_new_game_restarts_cleanly(engine, wire):
    limit = chess.engine.Limit(nodes=3000)
    games = [
        chess.Board(),
        chess.Board("r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10"),
        chess.Board.from_chess960_pos(959),
        chess.Board(),
    ]
    games[2].chess960 = True
    for board in games:
        game = object()
        for _ in range(8):
            if _game_over(board):
                break
            result = _play_move(engine, board, limit, game=game)
            board.push(result.move)
        assert board.move_stack, "no move played"
    sent = wire.sent()
    assert sent.count("ucinewgame") == len(games), sent.count("ucinewgame")
    assert not _errors(wire.received())


# --------------------------------------------------------------------------
# 6. options


def test_declared_options(engine):
    options = engine.options
    for name, (kind, default, lo, hi) in EXPECTED_OPTIONS.items():
        assert name in options, f"option {name} missing"
        opt = options[name]
        assert opt.type == kind, (name, opt.type)
        assert opt.default == default, (name, opt.default)
        if kind == "spin":
            assert (opt.min, opt.max) == (lo, hi), (name, opt.min, opt.max)
    assert engine.id.get("name", "").startswith("Kestrel")


def test_configure_options(engine, wire):
    engine.configure({"Hash": 32, "Threads": 2, "Move Overhead": 50})
    engine.configure({"Clear Hash": None})
    engine.ping()
    sent = wire.sent()
    for line in (
        "setoption name Hash value 32",
        "setoption name Threads value 2",
        "setoption name Move Overhead value 50",
        "setoption name Clear Hash",
    ):
        assert line in sent, line
    assert not _errors(wire.received())
    _play_move(engine, chess.Board(), chess.engine.Limit(depth=4))


def test_managed_options_are_refused_by_python_chess(engine):
    # python-chess owns these; the real ways to set them are analyse(multipv=),
    # play(ponder=) and board.chess960. lichess-bot's uci_options must not
    # list them.
    for name, value in (("MultiPV", 3), ("UCI_Chess960", True), ("Ponder", True)):
        with pytest.raises(chess.engine.EngineError):
            engine.configure({name: value})
    engine.ping()


def test_out_of_range_values_are_refused_client_side(engine):
    with pytest.raises(chess.engine.EngineError):
        engine.configure({"Hash": 0})
    with pytest.raises(chess.engine.EngineError):
        engine.configure({"Move Overhead": 5001})
    engine.ping()


def test_raw_bad_option_value_reports_error(raw):
    # Control for the yml test below: the error check does see errors.
    raw.handshake()
    raw.send("setoption name Hash value 0")
    raw.send("isready")
    lines = raw.read_until("readyok")
    assert _errors(lines), lines
    raw.send("setoption name No Such Option value 1")
    raw.send("isready")
    lines = raw.read_until("readyok")
    assert _errors(lines), lines


# --------------------------------------------------------------------------
# 7. the lichess-bot snippet


def _lichess_engine_section():
    data = yaml.safe_load(LICHESS_YML.read_text())
    assert isinstance(data, dict) and "engine" in data, "no engine: section"
    return data["engine"]


def _uci_options(section):
    options = dict(section.get("uci_options") or {})
    # lichess-bot nests go_commands under uci_options and sends them with go.
    options.pop("go_commands", None)
    return options


def test_lichess_bot_snippet_shape():
    section = _lichess_engine_section()
    assert section["protocol"] == "uci"
    assert section["name"] == "kestrel"
    assert str(section["dir"]).rstrip("/").endswith("target/release")
    options = _uci_options(section)
    for name in ("Hash", "Threads", "Move Overhead"):
        assert name in options, f"uci_options lacks {name}"
    managed = [n for n in options if n.lower() in chess.engine.MANAGED_OPTIONS]
    assert not managed, f"python-chess refuses managed options in uci_options: {managed}"


def test_lichess_bot_options_accepted_by_python_chess(engine, wire):
    options = _uci_options(_lichess_engine_section())
    engine.configure(options)  # what lichess-bot does with uci_options
    engine.ping()
    assert not _errors(wire.received())
    _play_move(engine, chess.Board(), chess.engine.Limit(white_clock=5, black_clock=5))


def test_lichess_bot_options_accepted_raw(raw):
    options = _uci_options(_lichess_engine_section())
    declared = {
        l.split(" name ", 1)[1].split(" type ", 1)[0]
        for l in raw.handshake()
        if l.startswith("option name ")
    }
    for name, value in options.items():
        assert name in declared, f"Kestrel declares no option {name!r}"
        if isinstance(value, bool):
            value = "true" if value else "false"
        raw.send(f"setoption name {name} value {value}")
        raw.send("isready")
        lines = raw.read_until("readyok")
        assert not _errors(lines), (name, value, lines)
    raw.send("position startpos")
    raw.send("go wtime 5000 btime 5000")
    lines = raw.read_until("bestmove", timeout=10)
    assert chess.Board().is_legal(chess.Move.from_uci(lines[-1].split()[1]))
