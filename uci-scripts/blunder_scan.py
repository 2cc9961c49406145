#!/usr/bin/env python3
"""Find the first real mistake of each game Kestrel did not win, as judged
by a stronger engine, and write those positions as an EPD test set.

`pgn_report.py` finds where Kestrel *noticed* a game turning; a full-strength
analyser often shows the game had turned earlier. For every game of the PGN
that the engine lost or drew, the analyser scores the position before each
of the engine's moves, from the book exit to --last-move. Where that score
drops by --drop centipawns or more from one of our moves to the next, the
move is checked on its own: the analyser's MultiPV-3 best moves against the
played move alone (both at twice the nodes). If the played move is --drop
worse and at least one other move is within --tie of the best, the position
is written with `bm` (those moves), `am` (the move played) and the scores,
and the scan moves on to the next game.

Run the result with `kestrel epd FILE --movetime 1000`: `solved` counts
positions where Kestrel now finds one of the analyser's moves.

Usage: python3 uci-scripts/blunder_scan.py GAMES.pgn OUT.epd
           [--engine kestrel] [--analyser /usr/games/stockfish]
           [--nodes 600000] [--shard I --shards N]
Needs python-chess (`pip install chess`) and a UCI analyser (Debian's
`stockfish` package). Two shards in parallel use both cores.
"""

import argparse

import chess
import chess.engine
import chess.pgn

from pgn_report import outcome

MATE_AS_CP = 3000
MULTIPV = 3


def centipawns(score, colour):
    return score.pov(colour).score(mate_score=MATE_AS_CP)


class Judge:
    """The analyser, and how it rates one move against the best ones."""

    def __init__(self, path, nodes):
        self.engine = chess.engine.SimpleEngine.popen_uci(path)
        self.engine.configure({"Hash": 64, "Threads": 1})
        self.nodes = nodes

    def score(self, board):
        """The analyser's score for the side to move."""
        info = self.engine.analyse(board, chess.engine.Limit(nodes=self.nodes))
        return centipawns(info["score"], board.turn)

    def compare(self, board, played, tie):
        """Best score, the played move's score, and the moves within `tie`
        of the best other than the one played."""
        limit = chess.engine.Limit(nodes=2 * self.nodes)
        lines = self.engine.analyse(board, limit, multipv=MULTIPV)
        best = centipawns(lines[0]["score"], board.turn)
        alone = self.engine.analyse(board, limit, root_moves=[played])
        played_score = centipawns(alone["score"], board.turn)
        good = [
            line["pv"][0]
            for line in lines
            if best - centipawns(line["score"], board.turn) <= tie
            and line["pv"][0] != played
        ]
        return best, played_score, good

    def new_game(self):
        self.engine.protocol.send_line("ucinewgame")

    def close(self):
        self.engine.quit()


def first_mistake(game, ours, judge, args):
    """The position before the engine's first mistake, its best moves, the
    move played and the two scores; None if no move qualifies."""
    judge.new_game()
    board = game.board()
    previous = None  # (board before our move, our move, score there)
    for node in game.mainline():
        if board.fullmove_number > args.last_move:
            break
        if board.turn == ours and "book" not in node.comment:
            score = judge.score(board)
            if previous and previous[2] > -args.hopeless:
                before, played, then = previous
                if then - score >= args.drop:
                    best, played_score, good = judge.compare(before, played, args.tie)
                    if best - played_score >= args.drop and good:
                        return before, good, played, best, played_score
            previous = (board.copy(), node.move, score)
        board.push(node.move)
    return None


def scan(args):
    judge = Judge(args.analyser, args.nodes)
    found = 0
    with open(args.pgn) as pgn, open(args.out, "w") as out:
        number = 0
        while (game := chess.pgn.read_game(pgn)) is not None:
            number += 1
            if number % args.shards != args.shard:
                continue
            ours_white = game.headers.get("White") == args.engine
            if not ours_white and game.headers.get("Black") != args.engine:
                continue
            result = game.headers.get("Result", "*")
            if outcome(result, ours_white) == "W":
                continue
            ours = chess.WHITE if ours_white else chess.BLACK
            mistake = first_mistake(game, ours, judge, args)
            if mistake is None:
                continue
            board, good, played, best, played_score = mistake
            line = board.epd(
                bm=good,
                am=[played],
                id=f"{args.tag} game {number} move {board.fullmove_number}",
                c0=f"analyser best {best} played {played_score}",
                c1=result,
            )
            out.write(line + "\n")
            out.flush()
            found += 1
            print(
                f"game {number} move {board.fullmove_number}: {board.san(played)} "
                f"({played_score}) instead of {', '.join(board.san(m) for m in good)} ({best})",
                flush=True,
            )
    judge.close()
    print(f"{found} positions written to {args.out}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn")
    parser.add_argument("out")
    parser.add_argument("--engine", default="kestrel")
    parser.add_argument("--analyser", default="/usr/games/stockfish")
    parser.add_argument("--nodes", type=int, default=600_000)
    parser.add_argument("--drop", type=int, default=80, help="centipawns that make a mistake")
    parser.add_argument("--tie", type=int, default=25, help="centipawns within the best move")
    parser.add_argument(
        "--hopeless", type=int, default=300, help="skip positions already this bad for us"
    )
    parser.add_argument("--last-move", type=int, default=45)
    parser.add_argument("--shard", type=int, default=0)
    parser.add_argument("--shards", type=int, default=1)
    parser.add_argument("--tag", default="game")
    scan(parser.parse_args())


if __name__ == "__main__":
    main()
