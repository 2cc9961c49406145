#!/usr/bin/env python3
"""Plays Kestrel against Stockfish from random tablebase positions and counts
how many of the tables' verdicts Kestrel achieves: wins converted (Kestrel
has the winning side) and draws held (Kestrel defends).

    python3 uci-scripts/tb_endgames.py target/release/kestrel \
        --tables ../shared/syzygy --syzygy --seed 7 --per-class 5

Each class is STRONG:WEAK:VERDICT, the pieces besides the kings of the
side with more material and of the other side, and 2 (a win for the strong
side, Kestrel strong) or 0 (a draw, Kestrel weak). The same seed gives the
same positions with and without --syzygy (Kestrel's tables), so the two
runs compare directly. Stockfish gets no tables.
"""
import argparse
import random

import chess
import chess.engine
import chess.syzygy

CLASSES = "Q::2,R::2,BN::2,P::2,Q:R:2,R:P:2,Q:P:2,R:B:0,R:N:0,BP::0,P::0,R:P:0"


def random_position(rng, tables, strong, weak, verdict):
    while True:
        board = chess.Board(None)
        pieces = strong + weak
        squares = rng.sample(range(64), 2 + len(pieces))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for i, symbol in enumerate(pieces):
            colour = chess.WHITE if i < len(strong) else chess.BLACK
            kind = chess.Piece.from_symbol(symbol).piece_type
            board.set_piece_at(squares[2 + i], chess.Piece(kind, colour))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if not board.is_valid() or board.is_game_over():
            continue
        wdl = tables.probe_wdl(board)
        if (wdl if board.turn == chess.WHITE else -wdl) == verdict:
            return board


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kestrel")
    ap.add_argument("--tables", required=True, help="Syzygy directory for the verdicts")
    ap.add_argument("--syzygy", action="store_true", help="give Kestrel the tables too")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--classes", default=CLASSES)
    ap.add_argument("--per-class", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--movetime", type=float, default=0.1)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    tables = chess.syzygy.open_tablebase(args.tables)
    kestrel = chess.engine.SimpleEngine.popen_uci(args.kestrel)
    if args.syzygy:
        kestrel.configure({"SyzygyPath": args.tables})
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    achieved = {2: [0, 0], 0: [0, 0]}
    try:
        for spec in args.classes.split(","):
            strong, weak, verdict = spec.split(":")
            verdict = int(verdict)
            kestrel_white = verdict == 2
            for _ in range(args.per_class):
                board = random_position(rng, tables, list(strong), list(weak), verdict)
                start = board.fen()
                while not board.is_game_over(claim_draw=True) and board.ply() < 300:
                    kestrel_to_move = (board.turn == chess.WHITE) == kestrel_white
                    engine = kestrel if kestrel_to_move else stockfish
                    board.push(engine.play(board, chess.engine.Limit(time=args.movetime)).move)
                result = board.result(claim_draw=True)
                ok = result == "1-0" if verdict == 2 else result != "1-0"
                achieved[verdict][0] += ok
                achieved[verdict][1] += 1
                print(f"K{strong}vK{weak} {start} {result} {'ok' if ok else 'MISSED'}", flush=True)
    finally:
        kestrel.quit()
        stockfish.quit()
    print(f"wins converted {achieved[2][0]}/{achieved[2][1]}, "
          f"draws held {achieved[0][0]}/{achieved[0][1]}")


if __name__ == "__main__":
    main()
