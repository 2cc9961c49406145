//! Concurrency soak against the real binary: hundreds of `go`/`stop` pairs
//! with tiny random delays, `quit` during a search, `ucinewgame`, `position`
//! and `setoption` while a search runs, and Hash resizes between searches.
//!
//! The invariant everywhere: every `go` is answered by exactly one
//! `bestmove` (counted), the move is legal in the position the search was
//! started from (`0000` only when there is no legal move), `isready` is
//! answered within a few seconds, and `quit` ends the process within 200 ms
//! whatever runs.
//!
//! Delays come from a xorshift PRNG with fixed seeds; the timing of the
//! engine's threads still varies from run to run, which is the point.

mod common;

use std::time::{Duration, Instant};

use common::EngineProcess;
use common::rng::Rng;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position as _};

const READY_WITHIN: Duration = Duration::from_secs(5);
const QUIT_WITHIN: Duration = Duration::from_millis(200);

fn pause(d: Duration) {
    if !d.is_zero() {
        std::thread::sleep(d);
    }
}

/// Positions the soak plays in; the last two have no legal move.
const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/8/8/8/8/8/K1k5 w - - 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
];

fn chess(fen: &str) -> Chess {
    let fen: Fen = fen.parse().expect("test FEN parses");
    fen.into_position(CastlingMode::Standard)
        .expect("test FEN is legal")
}

/// A position command and the position it sets: a FEN, or the start
/// position and a few random legal moves.
fn random_position(rng: &mut Rng) -> (String, Chess) {
    if rng.chance(60) {
        let fen = *rng.pick(FENS);
        return (format!("position fen {fen}"), chess(fen));
    }
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    for _ in 0..rng.below(20) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        moves.push(UciMove::from_move(m, CastlingMode::Standard).to_string());
        pos.play_unchecked(m);
    }
    if moves.is_empty() {
        ("position startpos".to_string(), pos)
    } else {
        (format!("position startpos moves {}", moves.join(" ")), pos)
    }
}

/// `bestmove X [ponder Y]` is legal in `pos`: X is a legal move (or `0000`
/// when there is none) and Y, if given, is legal after X.
fn check_bestmove(line: &str, pos: &Chess, context: &str) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let best = words.get(1).copied().unwrap_or("");
    if pos.legal_moves().is_empty() {
        assert_eq!(best, "0000", "{context}: '{line}' without legal moves");
        return;
    }
    let uci: UciMove = best
        .parse()
        .unwrap_or_else(|_| panic!("{context}: '{line}' is not a move"));
    let m = uci
        .to_move(pos)
        .unwrap_or_else(|_| panic!("{context}: '{line}' is illegal in {}", fen_of(pos)));
    if let (Some(&"ponder"), Some(p)) = (words.get(2), words.get(3)) {
        let mut after = pos.clone();
        after.play_unchecked(m);
        let ponder: UciMove = p
            .parse()
            .unwrap_or_else(|_| panic!("{context}: ponder move in '{line}' is not a move"));
        assert!(
            ponder.to_move(&after).is_ok(),
            "{context}: ponder move in '{line}' is illegal after {best} in {}",
            fen_of(pos)
        );
    }
}

fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

fn bestmoves(engine: &EngineProcess, from: usize) -> Vec<String> {
    engine.transcript[from..]
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .cloned()
        .collect()
}

fn tail(engine: &EngineProcess, n: usize) -> String {
    let t = &engine.transcript;
    t[t.len().saturating_sub(n)..].join("\n")
}

/// `isready` answered within READY_WITHIN; panics with the recent output
/// otherwise.
fn sync(engine: &mut EngineProcess, context: &str) {
    let start = Instant::now();
    engine.send("isready");
    if engine.wait_for("readyok", READY_WITHIN).is_none() {
        panic!(
            "{context}: no readyok within {READY_WITHIN:?} (running: {}); last output:\n{}",
            engine.is_running(),
            tail(engine, 15)
        );
    }
    let took = start.elapsed();
    assert!(took < READY_WITHIN, "{context}: readyok after {took:?}");
}

/// Tracks the `go` commands sent and the positions they searched.
struct Ledger {
    mark: usize,
    positions: Vec<Chess>,
}

impl Ledger {
    fn new(engine: &EngineProcess) -> Self {
        Ledger {
            mark: engine.transcript.len(),
            positions: Vec::new(),
        }
    }

    fn go(&mut self, engine: &mut EngineProcess, command: &str, pos: &Chess) {
        engine.send(command);
        self.positions.push(pos.clone());
    }

    /// After a `sync`: exactly one bestmove per go so far, each legal.
    fn check(&self, engine: &EngineProcess, context: &str) {
        let got = bestmoves(engine, self.mark);
        assert_eq!(
            got.len(),
            self.positions.len(),
            "{context}: {} bestmoves for {} gos; last output:\n{}",
            got.len(),
            self.positions.len(),
            tail(engine, 15)
        );
        for (i, (line, pos)) in got.iter().zip(&self.positions).enumerate() {
            check_bestmove(line, pos, &format!("{context}, go #{i}"));
        }
    }
}

const GOS: &[&str] = &[
    "go infinite",
    "go infinite",
    "go depth 30",
    "go depth 1",
    "go movetime 20",
    "go movetime 0",
    "go nodes 1",
    "go nodes 200000",
    "go wtime 1000 btime 1000 winc 10 binc 10",
    "go wtime 100 btime 100 movestogo 1",
    "go wtime -100 btime -100",
    "go wtime 0 btime 0 winc 0 binc 0",
    "go mate 3",
    "go",
    "go ponder wtime 300 btime 300",
    "go ponder infinite",
    "go searchmoves e2e4 d2d4 infinite",
];

#[test]
fn hundreds_of_go_stop_pairs() {
    go_stop_pairs(0x50A4, 1000, &[1]);
}

/// The same with helper threads, their number changed every 40 pairs.
#[test]
fn go_stop_pairs_with_helper_threads() {
    go_stop_pairs(0x7E4D, 400, &[2, 3, 4, 1]);
}

fn go_stop_pairs(seed: u64, count: usize, thread_counts: &[usize]) {
    let start = Instant::now();
    let mut engine = EngineProcess::start();
    engine.send("uci");
    engine.expect("uciok");
    let mut rng = Rng::new(seed);
    let mut ledger = Ledger::new(&engine);
    let (mut command, mut pos) = random_position(&mut rng);
    engine.send(&command);
    let mut pairs = 0;
    for i in 0..count {
        if i % 40 == 0 {
            let threads = thread_counts[i / 40 % thread_counts.len()];
            engine.send(&format!("setoption name Threads value {threads}"));
        }
        if rng.chance(15) {
            (command, pos) = random_position(&mut rng);
            engine.send(&command);
        }
        // Now and then several gos in a row: each one stops the last.
        for _ in 0..if rng.chance(10) { 2 + rng.below(3) } else { 1 } {
            let go = *rng.pick(GOS);
            ledger.go(&mut engine, go, &pos);
            pause(rng.delay());
            if go.contains("ponder") && rng.chance(50) {
                engine.send("ponderhit");
                pause(rng.delay());
            }
        }
        engine.send("stop");
        pairs += 1;
        if rng.chance(10) {
            // A stray stop or ponderhit with no search must stay unanswered.
            let stray: &[&str] = &["stop", "ponderhit", "stop\nstop"];
            engine.send(stray[rng.below(stray.len())]);
        }
        if i % 40 == 39 {
            sync(&mut engine, &format!("after {pairs} go/stop pairs"));
            ledger.check(&engine, &format!("after {pairs} go/stop pairs"));
        }
    }
    sync(&mut engine, "at the end");
    ledger.check(&engine, "at the end");
    assert!(ledger.positions.len() >= count);
    engine.quit_within(QUIT_WITHIN);
    eprintln!(
        "{} gos, {pairs} go/stop pairs in {:?}",
        ledger.positions.len(),
        start.elapsed()
    );
}

#[test]
fn quit_during_a_search_exits_quickly() {
    let mut rng = Rng::new(0x9017);
    let cases: &[(&str, &str)] = &[
        ("", "go infinite"),
        ("", "go infinite"),
        ("", "go ponder wtime 1000 btime 1000"),
        ("", "go depth 100"),
        ("setoption name Hash value 256", "go infinite"),
        ("setoption name MultiPV value 8", "go infinite"),
        ("setoption name Threads value 4", "go infinite"),
        (
            "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "go infinite",
        ),
        ("", "go perft 7"),
        ("", "go infinite"),
    ];
    let mut times = Vec::new();
    for (setup, go) in cases {
        let mut engine = EngineProcess::start();
        engine.send("uci");
        engine.expect("uciok");
        if !setup.is_empty() {
            engine.send(setup);
        }
        sync(&mut engine, &format!("{setup} / {go}"));
        engine.send(go);
        if go.starts_with("go perft") {
            pause(Duration::from_millis(50 + rng.below(200) as u64));
        } else {
            // Quit while it is deep in the search, or right after it began.
            engine.expect("info depth");
            pause(Duration::from_millis(rng.below(300) as u64));
        }
        let took = engine.quit_within(QUIT_WITHIN);
        times.push(took);
        eprintln!("quit after '{go}' ({setup}): {took:?}");
    }
    // And quit right after go, before the search thread has done anything.
    for _ in 0..5 {
        let mut engine = EngineProcess::start();
        sync(&mut engine, "fresh engine");
        engine.send("go infinite");
        times.push(engine.quit_within(QUIT_WITHIN));
    }
    eprintln!("quit times: {times:?}");
}

#[test]
fn ucinewgame_position_and_options_during_a_search() {
    let start = Instant::now();
    let mut engine = EngineProcess::start();
    engine.send("uci");
    engine.expect("uciok");
    let mut rng = Rng::new(0xD0D0);
    let mut ledger = Ledger::new(&engine);
    for round in 0..100 {
        let (command, pos) = random_position(&mut rng);
        engine.send(&command);
        let gos: &[&str] = &["go infinite", "go depth 40", "go movetime 300", "go ponder"];
        ledger.go(&mut engine, gos[rng.below(gos.len())], &pos);
        pause(rng.delay());
        // Interrupt with one of these; those that stop the search first
        // answer it with its best move, the others leave it running.
        let interruption = *rng.pick(&[
            "ucinewgame",
            "ucinewgame",
            "setoption name Clear Hash",
            "setoption name Hash value 8",
            "setoption name Hash value 32",
            "position startpos moves e2e4",
            "setoption name MultiPV value 3",
            "setoption name Move Overhead value 100",
            "setoption name Threads value 3",
            "setoption name Threads value 1",
            "isready",
        ]);
        engine.send(interruption);
        if interruption == "isready" && engine.wait_for("readyok", READY_WITHIN).is_none() {
            panic!("round {round}: isready not answered during a search");
        }
        pause(rng.delay());
        engine.send("stop");
        sync(
            &mut engine,
            &format!("round {round}: after '{interruption}'"),
        );
        engine.send("setoption name MultiPV value 1");
        // A normal search afterwards, from a known position.
        let (command, pos) = random_position(&mut rng);
        engine.send(&command);
        let mark = engine.transcript.len();
        ledger.go(&mut engine, "go depth 4", &pos);
        if engine.wait_for("bestmove", READY_WITHIN).is_none() {
            panic!(
                "round {round}: no bestmove for go depth 4 after '{interruption}'; output:\n{}",
                engine.transcript[mark..].join("\n")
            );
        }
        sync(&mut engine, &format!("round {round}: after go depth 4"));
        ledger.check(&engine, &format!("round {round} ('{interruption}')"));
    }
    engine.quit_within(QUIT_WITHIN);
    eprintln!("100 interrupted searches in {:?}", start.elapsed());
}

#[test]
fn hash_resizes_between_searches() {
    let start = Instant::now();
    let mut engine = EngineProcess::start();
    engine.send("uci");
    engine.expect("uciok");
    let mut rng = Rng::new(0x4A54);
    let mut ledger = Ledger::new(&engine);
    for round in 0..40 {
        let mb = *rng.pick(&[1, 1, 2, 4, 8, 16, 32, 64, 128, 256]);
        let mark = engine.transcript.len();
        engine.send(&format!("setoption name Hash value {mb}"));
        sync(&mut engine, &format!("round {round}: Hash {mb}"));
        assert!(
            !engine.transcript[mark..]
                .iter()
                .any(|l| l.starts_with("info string")),
            "round {round}: Hash {mb} refused: {:?}",
            &engine.transcript[mark..]
        );
        let (command, pos) = random_position(&mut rng);
        engine.send(&command);
        let go = *rng.pick(&["go depth 6", "go movetime 30", "go nodes 20000"]);
        ledger.go(&mut engine, go, &pos);
        if rng.chance(30) {
            // Resize while it searches: the search is stopped and answers.
            pause(rng.delay());
            engine.send(&format!(
                "setoption name Hash value {}",
                rng.pick(&[1, 16, 64])
            ));
        } else {
            engine.expect("bestmove");
        }
        sync(&mut engine, &format!("round {round}: after {go}"));
        ledger.check(&engine, &format!("round {round} (Hash {mb}, {go})"));
    }
    engine.quit_within(QUIT_WITHIN);
    eprintln!("40 Hash resizes in {:?}", start.elapsed());
}

#[test]
fn bursts_of_go_without_stop() {
    let mut engine = EngineProcess::start();
    let mut rng = Rng::new(0xB0B0);
    let mut ledger = Ledger::new(&engine);
    let pos = Chess::default();
    for burst in 0..10 {
        let n = 20 + rng.below(30);
        let mut text = String::new();
        for _ in 0..n {
            let go = *rng.pick(&["go infinite", "go depth 50", "go ponder", "go nodes 1"]);
            text.push_str(go);
            text.push('\n');
            ledger.positions.push(pos.clone());
        }
        text.push_str("stop");
        // All at once: the reader must stop each search before the next.
        engine.send(&text);
        sync(&mut engine, &format!("burst {burst} of {n} gos"));
        ledger.check(&engine, &format!("burst {burst} of {n} gos"));
    }
    engine.quit_within(QUIT_WITHIN);
}
