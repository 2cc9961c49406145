#!/usr/bin/env python3
"""Where a match's points went, read from a fastchess or cutechess PGN
whose moves carry `{score/depth time, tl=...}` comments.

For one engine it prints:
  * results by the best and worst score the engine itself reported
    (did it convert the games it thought it was winning?);
  * median thinking time and clock left by move number, the engine
    against its opponents, and the median clock left at the end of a game;
  * the material of positions the engine scored at least --high while
    the opponent's last score (turned to the engine's view) was at most
    --low: where the two evaluations disagree most;
  * the first swing of each game: a move the engine scored at least
    --swing-from after which the opponent's reply scored the game at most
    --swing-to for the engine (a misjudgement that changed the game),
    counted by result and by the move number it came at.

With --positions FILE it also writes those positions as EPD (the first
disagreement and the first swing of each game, with the move the engine
played as `pm`), so they can be searched again at other settings.

Usage: python3 uci-scripts/pgn_report.py GAMES.pgn [--engine kestrel]
           [--positions FILE.epd]
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


def epd_line(board, move, kind, game_no, ours, theirs, result):
    return (
        f'{board.epd()} pm {board.san(move)}; id "{kind} game {game_no} move {board.fullmove_number}";'
        f' c0 "ours {ours:+.2f} theirs {theirs:+.2f}"; c1 "{result}";'
    )


def their_reply_score(node):
    """The opponent's score for its reply to `node`, turned to our view."""
    reply = node.next()
    m = reply and SCORE.match(reply.comment)
    return -parse_score(m.group(1)) if m else None


def scan(path, engine, args):
    high, low = args.high, args.low
    positions = []
    swings = collections.Counter()
    bands = collections.Counter()
    think = {True: collections.defaultdict(list), False: collections.defaultdict(list)}
    clocks = {True: collections.defaultdict(list), False: collections.defaultdict(list)}
    swing_moves = collections.Counter()
    clock_left = []
    disagreements = collections.Counter()
    game_no = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            game_no += 1
            ours_white = game.headers.get("White") == engine
            if not ours_white and game.headers.get("Black") != engine:
                continue
            result = outcome(game.headers.get("Result", "*"), ours_white)
            board = game.board()
            us = chess.WHITE if ours_white else chess.BLACK
            ours = []
            their_last = None
            flagged = False
            last_clock = None
            swing_seen = False
            for node in game.mainline():
                mover_is_us = board.turn == us
                # The move number of the move itself, the same for both sides.
                move_number = board.fullmove_number
                m = SCORE.match(node.comment)
                if m:
                    score, seconds = parse_score(m.group(1)), float(m.group(2))
                    think[mover_is_us][move_number].append(seconds)
                    clock = None
                    if c := CLOCK.search(node.comment):
                        clock = float(c.group(1))
                        clocks[mover_is_us][move_number].append(clock)
                    if not mover_is_us:
                        their_last = -score
                    else:
                        ours.append(score)
                        if clock is not None:
                            last_clock = clock
                        disagree = score >= high and their_last is not None and their_last <= low
                        if disagree and not flagged:
                            flagged = True
                            disagreements[f"{material(board, us)} v {material(board, not us)}"] += 1
                            positions.append(
                                epd_line(board, node.move, "overrated", game_no, score, their_last, result)
                            )
                        if not swing_seen and score >= args.swing_from:
                            reply = their_reply_score(node)
                            if reply is not None and reply <= args.swing_to:
                                swing_seen = True
                                swings[result] += 1
                                swing_moves[move_number // 10 * 10] += 1
                                positions.append(
                                    epd_line(board, node.move, "swing", game_no, score, reply, result)
                                )
                board.push(node.move)
            if ours:
                bands[(band(max(ours), min(ours)), result)] += 1
            if last_clock is not None:
                clock_left.append(last_clock)
    return bands, (think, clocks), clock_left, disagreements, (swings, swing_moves), positions


def median_or_nan(values):
    return statistics.median(values) if values else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn")
    ap.add_argument("--engine", default="kestrel")
    ap.add_argument("--high", type=float, default=2.5, help="our score at least (pawns)")
    ap.add_argument("--low", type=float, default=0.7, help="their score at most (pawns, our view)")
    ap.add_argument("--swing-to", type=float, default=-1.5, help="their reply at most (pawns, our view)")
    ap.add_argument("--swing-from", type=float, default=-0.5, help="our score at least (pawns)")
    ap.add_argument("--positions", help="write disagreements and swings to this EPD file")
    args = ap.parse_args()
    bands, (think, clocks), clock_left, disagreements, (swings, swing_moves), positions = scan(
        args.pgn, args.engine, args
    )
    if not bands:
        sys.exit(f"no scored games of {args.engine} in {args.pgn}")

    print(f"results of {args.engine} by its own best/worst score")
    for name in ("peak >= +2.00", "within +-2.00", "low <= -2.00"):
        wdl = [bands[(name, r)] for r in "WDL"]
        print(f"  {name:14} W{wdl[0]} D{wdl[1]} L{wdl[2]}")

    print("median thinking time (ms) and clock left (s) by move number: ours / theirs (games)")
    games = sum(bands.values())
    for move in sorted(think[True]):
        ours, theirs = think[True][move], think[False].get(move, [])
        if move % 5 == 0 and len(ours) >= MIN_SHARE_PER_ROW * games and theirs:
            print(
                f"  move {move:3}: {1000 * statistics.median(ours):6.0f} /"
                f" {1000 * statistics.median(theirs):6.0f}"
                f"   {median_or_nan(clocks[True][move]):5.2f} /"
                f" {median_or_nan(clocks[False][move]):5.2f} ({len(ours)})"
            )
    if clock_left:
        print(f"median clock left after our last move: {statistics.median(clock_left):.2f} s")

    print(f"first position per game scored >= +{args.high} by us, <= +{args.low} by them:")
    for sig, n in disagreements.most_common():
        print(f"  {n:3}  {sig}")

    wdl = " ".join(f"{r}{swings[r]}" for r in "WDL")
    print(
        f"games whose first swing (ours >= {args.swing_from:+.2f}, their reply"
        f" <= {args.swing_to:+.2f}) came in a: {wdl}"
    )
    for decade in sorted(swing_moves):
        print(f"  at moves {decade}-{decade + 9}: {swing_moves[decade]}")
    if args.positions:
        with open(args.positions, "w", encoding="utf-8") as out:
            out.writelines(line + "\n" for line in positions)
        print(f"wrote {len(positions)} positions to {args.positions}")


if __name__ == "__main__":
    main()
