#!/usr/bin/env python3
"""Which evaluation terms explain the games lost to Stockfish.

From PGNs of matches against Stockfish 15.1 (moves carrying
`{score/depth time}` comments), two sets of positions, each taken right
after one of Kestrel's moves (the opponent to move):

  * turning points: in a lost game, the first such position that the
    opponent scores +1.00 or more for itself while Kestrel's score for
    the move was still above -0.30;
  * controls: a sample of positions where both searches agreed within
    0.30 (and neither saw more than 1.50).

Only middlegames (40 or more points of non-pawn material, minor 3,
rook 5, queen 9, from move 12) with nothing hanging for the side to move
are kept, since a static evaluation in the middle of an exchange says
little. Each position is then given to Stockfish's `eval` (its
classical terms and its NNUE static evaluation) and to Kestrel's `eval`
(its hand-crafted terms and final static evaluation), all from the side
to move's point of view.

It prints the mean of every term in both sets, and a least-squares fit
of the gap (Stockfish's NNUE static evaluation, divided by the scale
between the two engines' units, minus Kestrel's) on Stockfish's
classical terms: a large positive coefficient names a term Stockfish's
net values and Kestrel's evaluation does not.

Usage: python3 uci-scripts/eval_gap.py --kestrel BIN --stockfish BIN
           GAMES.pgn [GAMES.pgn ...] [--engine kestrel] [--seed 1]
Needs python-chess and numpy.
"""

import argparse
import random
import re
import statistics
import subprocess
import sys

import chess
import chess.pgn
import numpy as np

# The PGN comments are read as the match report reads them.
from pgn_report import SCORE, parse_score

SF_TERM = re.compile(
    r"\|\s*([A-Za-z ]+?)\s*\|.*\|\s*(?:[-\d.]+|----)\s+(?:[-\d.]+|----)\s*\|"
    r"\s*([-\d.]+)\s+([-\d.]+)\s*\|$"
)
SF_EVAL = re.compile(r"(Classical|NNUE) evaluation\s+([-+\d.]+)")
K_TERM = re.compile(r"([a-z+ ]+?)\s+(-?\d+)\s+(-?\d+)$")
K_EVAL = re.compile(r"(Hand-crafted|Final evaluation): (-?\d+)")
VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}
FIT_TERMS = [
    "King safety", "Mobility", "Space", "Threats", "Pawns", "Passed",
    "Material", "Imbalance", "Knights", "Bishops", "Rooks", "Queens",
]


def comment_score(comment):
    m = SCORE.match(comment or "")
    return parse_score(m.group(1)) if m else None


def non_pawn_points(board):
    return sum(
        len(board.pieces(role, color)) * VALUE[role]
        for role in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
        for color in chess.COLORS
    )


def nothing_hanging(board):
    """No check, and no capture of an undefended piece or of a more
    valuable one for the side to move."""
    if board.is_check():
        return False
    for m in board.legal_moves:
        if board.is_capture(m) and not board.is_en_passant(m):
            victim = VALUE[board.piece_type_at(m.to_square)]
            attacker = VALUE[board.piece_type_at(m.from_square)]
            if victim > attacker or not board.is_attacked_by(not board.turn, m.to_square):
                return False
    return True


def usable(board):
    return non_pawn_points(board) >= 40 and board.fullmove_number >= 12 and nothing_hanging(board)


def positions(paths, engine, rng, control_share):
    turning, controls = [], []
    for path in paths:
        with open(path) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                ours_white = engine in game.headers.get("White", "").lower()
                result = game.headers.get("Result")
                lost = (result == "0-1" and ours_white) or (result == "1-0" and not ours_white)
                board = game.board()
                ours_last = None
                found = False
                for node in game.mainline():
                    ours = (board.turn == chess.WHITE) == ours_white
                    board.push(node.move)
                    score = comment_score(node.comment)
                    if score is None:
                        continue
                    if ours:
                        ours_last = (score, board.copy(stack=False))
                        continue
                    if ours_last is None:
                        continue
                    own, after_ours = ours_last
                    if not usable(after_ours):
                        continue
                    if lost and not found and score >= 1.0 and own >= -0.3:
                        turning.append(after_ours.fen())
                        found = True
                    elif abs(score + own) <= 0.3 and abs(score) <= 1.5 and rng.random() < control_share:
                        controls.append(after_ours.fen())
    return turning, controls


def eval_blocks(command, fens):
    script = "".join(f"position fen {fen}\neval\nisready\n" for fen in fens) + "quit\n"
    out = subprocess.run(command, input=script, capture_output=True, text=True, check=True).stdout
    return out.split("readyok")[: len(fens)]


def terms(stockfish, kestrel, fens):
    """Per position: every term (middlegame part) from the side to move's
    point of view, in pawns."""
    rows = []
    for fen, sf, k in zip(fens, eval_blocks([stockfish], fens), eval_blocks([kestrel], fens)):
        sign = 1 if fen.split()[1] == "w" else -1
        row = {}
        for line in sf.splitlines():
            if m := SF_TERM.match(line):
                row["sf " + m.group(1)] = sign * float(m.group(2))
            elif m := SF_EVAL.match(line):
                row["sf " + m.group(1) + " eval"] = sign * float(m.group(2))
        for line in k.splitlines():
            if m := K_TERM.match(line):
                row["k " + m.group(1)] = sign * int(m.group(2)) / 100
            elif m := K_EVAL.match(line):
                row["k " + m.group(1)] = sign * int(m.group(2)) / 100
        if "sf NNUE eval" in row and "k Final evaluation" in row:
            rows.append(row)
    return rows


def print_means(turning, controls):
    names = sorted({k for r in turning + controls for k in r})
    print(f"{'term (side to move)':28s} {'turning':>8s} {'control':>8s} {'diff':>7s} {'diff/sd':>8s}")
    for name in names:
        a = [r[name] for r in turning if name in r]
        b = [r[name] for r in controls if name in r]
        if len(a) < 2 or len(b) < 2:
            continue
        diff = statistics.mean(a) - statistics.mean(b)
        sd = statistics.pstdev(b) or 1.0
        print(f"{name:28s} {statistics.mean(a):8.2f} {statistics.mean(b):8.2f} {diff:7.2f} {diff / sd:8.2f}")


def print_fit(rows):
    k = np.array([r["k Final evaluation"] for r in rows])
    sf = np.array([r["sf NNUE eval"] for r in rows])
    ratio = sf.std() / k.std()
    print(f"\nunits: sd of Stockfish's NNUE eval / sd of Kestrel's = {ratio:.2f}")
    x = np.array([[r.get("sf " + t, 0.0) for t in FIT_TERMS] + [1.0] for r in rows])
    for scale in (1.0, ratio):
        gap = sf / scale - k
        coef, *_ = np.linalg.lstsq(x, gap, rcond=None)
        fitted = ", ".join(f"{t} {c:+.2f}" for t, c in zip(FIT_TERMS + ["const"], coef))
        print(f"gap (SF / {scale:.2f} - Kestrel) ~ {fitted}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--kestrel", required=True)
    ap.add_argument("--stockfish", required=True)
    ap.add_argument("--engine", default="kestrel", help="name of Kestrel in the PGN")
    ap.add_argument("--control-share", type=float, default=0.08)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    turning, controls = positions(args.pgn, args.engine.lower(), random.Random(args.seed), args.control_share)
    print(f"{len(turning)} turning points, {len(controls)} controls", file=sys.stderr)
    if not turning or not controls:
        sys.exit("not enough positions")
    t_rows = terms(args.stockfish, args.kestrel, turning)
    c_rows = terms(args.stockfish, args.kestrel, controls)
    print_means(t_rows, c_rows)
    print_fit(t_rows + c_rows)


if __name__ == "__main__":
    main()
