#!/usr/bin/env python3
"""Where a match's points went, read from a fastchess or cutechess PGN
whose moves carry `{score/depth time, tl=...}` comments.

For one engine it prints:
  * results by the best and worst score the engine itself reported
    (did it convert the games it thought it was winning?);
  * median thinking time per move, the engine against its opponents,
    and the median clock left at the end of a game;
  * the material of positions the engine scored at least --high while
    the opponent's last score (turned to the engine's view) was at most
    --low: where the two evaluations disagree most.

Usage: python3 uci-scripts/pgn_report.py GAMES.pgn [--engine kestrel]
Needs python-chess (`pip install chess`).
"""

import argparse
import collections
import re
import statistics
import sys

import chess
import chess.pgn

SCORE = re.compile(r"\s*([+-]?\d+\.\d+|[+-]?M\d+)/\d+\s+([\d.]+)s")
CLOCK = re.compile(r"tl=([\d.]+)s")
MATE_AS_PAWNS = 100.0
# Rows of the clock table need this share of the games reaching the move.
MIN_SHARE_PER_ROW = 0.25


def parse_score(text):
    if "M" in text:
        return -MATE_AS_PAWNS if text.startswith("-") else MATE_AS_PAWNS
    return float(text)


def material(board, colour):
    pieces = [
        p.symbol().upper()
        for p in board.piece_map().values()
        if p.color == colour and p.piece_type != chess.KING
    ]
    return "K" + "".join(sorted(pieces, key="QRBNP".index))


def outcome(result, ours_white):
    if result == "1/2-1/2":
        return "D"
    return "W" if (result == "1-0") == ours_white else "L"


def band(peak, trough):
    if peak >= 2.0:
        return "peak >= +2.00"
    if trough <= -2.0:
        return "low <= -2.00"
    return "within +-2.00"


def scan(path, engine, high, low):
    bands = collections.Counter()
    think = {True: collections.defaultdict(list), False: collections.defaultdict(list)}
    clock_left = []
    disagreements = collections.Counter()
    with open(path, encoding="utf-8", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            ours_white = game.headers.get("White") == engine
            if not ours_white and game.headers.get("Black") != engine:
                continue
            board = game.board()
            us = chess.WHITE if ours_white else chess.BLACK
            ours = []
            their_last = None
            flagged = False
            last_clock = None
            for node in game.mainline():
                mover_is_us = board.turn == us
                # The move number of the move itself, the same for both sides.
                move_number = board.fullmove_number
                m = SCORE.match(node.comment)
                if m:
                    score, seconds = parse_score(m.group(1)), float(m.group(2))
                    think[mover_is_us][move_number].append(seconds)
                    if not mover_is_us:
                        their_last = -score
                    else:
                        ours.append(score)
                        if c := CLOCK.search(node.comment):
                            last_clock = float(c.group(1))
                        disagree = score >= high and their_last is not None and their_last <= low
                        if disagree and not flagged:
                            flagged = True
                            disagreements[f"{material(board, us)} v {material(board, not us)}"] += 1
                board.push(node.move)
            if ours:
                result = outcome(game.headers.get("Result", "*"), ours_white)
                bands[(band(max(ours), min(ours)), result)] += 1
            if last_clock is not None:
                clock_left.append(last_clock)
    return bands, think, clock_left, disagreements


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn")
    ap.add_argument("--engine", default="kestrel")
    ap.add_argument("--high", type=float, default=2.5, help="our score at least (pawns)")
    ap.add_argument("--low", type=float, default=0.7, help="their score at most (pawns, our view)")
    args = ap.parse_args()
    bands, think, clock_left, disagreements = scan(args.pgn, args.engine, args.high, args.low)
    if not bands:
        sys.exit(f"no scored games of {args.engine} in {args.pgn}")

    print(f"results of {args.engine} by its own best/worst score")
    for name in ("peak >= +2.00", "within +-2.00", "low <= -2.00"):
        wdl = [bands[(name, r)] for r in "WDL"]
        print(f"  {name:14} W{wdl[0]} D{wdl[1]} L{wdl[2]}")

    print("median thinking time by move number (ms): ours / theirs (games)")
    games = sum(bands.values())
    for move in sorted(think[True]):
        ours, theirs = think[True][move], think[False].get(move, [])
        if move % 5 == 0 and len(ours) >= MIN_SHARE_PER_ROW * games and theirs:
            print(
                f"  move {move:3}: {1000 * statistics.median(ours):6.0f} /"
                f" {1000 * statistics.median(theirs):6.0f} ({len(ours)})"
            )
    if clock_left:
        print(f"median clock left after our last move: {statistics.median(clock_left):.2f} s")

    print(f"first position per game scored >= +{args.high} by us, <= +{args.low} by them:")
    for sig, n in disagreements.most_common():
        print(f"  {n:3}  {sig}")


if __name__ == "__main__":
    main()
