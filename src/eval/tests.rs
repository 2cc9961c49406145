use super::*;
use crate::position::Position;

fn eval_fen(fen: &str) -> i32 {
    evaluate(Position::from_fen(fen).unwrap().board())
}

const SAMPLES: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/8/4k3/8/8/2B5/3NK3/8 w - - 0 1",
];

#[test]
fn colour_flip_negates_nothing_but_the_side() {
    for fen in SAMPLES {
        let flipped = Position::from_fen(fen).unwrap().colour_flipped().unwrap();
        assert_eq!(eval_fen(fen), evaluate(flipped.board()), "{fen}");
    }
}

#[test]
fn start_position_is_about_equal() {
    let board = Position::from_fen(SAMPLES[0]).unwrap();
    assert!(hand_crafted(board.board()).abs() < 40);
    // The net learnt from search scores, which favour the side to move by
    // about a tempo: the combined score is a small plus for White, never a
    // real advantage for either side.
    let combined = eval_fen(SAMPLES[0]);
    assert!((0..100).contains(&combined), "{combined}");
}

#[test]
fn extra_queen_is_winning() {
    let score = eval_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(score > 700, "{score}");
}

#[test]
fn lone_minor_cannot_win() {
    assert!(eval_fen("8/8/4k3/8/8/2B5/4K3/8 w - - 0 1").abs() <= 20);
    assert!(eval_fen("8/8/4k3/8/2N5/8/3NK3/8 w - - 0 1").abs() <= 20);
}

#[test]
fn bare_king_prefers_the_centre() {
    let centre = eval_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
    let edge = eval_fen("7k/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert!(edge > centre, "edge {edge} centre {centre}");
}

/// The per-pawn definitions that the set-wise `pawn_structure` computes.
fn pawns_one_by_one(board: &Board, color: Color, acc: &mut Acc<Trace>) -> Bitboard {
    let ours = board.pawns() & board.by_color(color);
    let theirs = board.pawns() & board.by_color(!color);
    let their_attacks = pawn_attacks(board, !color);
    let step = if color == Color::White { 8 } else { -8 };
    let mut passed = Bitboard::EMPTY;
    for sq in ours {
        let rank = relative_rank(color, sq);
        let file = Bitboard::from_file(sq.file());
        let adj = adjacent_files(sq);
        let ahead = forward_ranks(color, sq);
        if (ours & file & ahead).any() {
            acc.one(color, DOUBLED);
        }
        let unopposed = (theirs & file & ahead).is_empty();
        if (ours & adj).is_empty() {
            acc.one(color, ISOLATED);
            if unopposed {
                acc.one(color, WEAK_UNOPPOSED);
            }
        } else if (ours & adj & !ahead).is_empty()
            && sq
                .offset(step)
                .is_some_and(|stop| their_attacks.contains(stop))
        {
            acc.one(color, BACKWARD);
            if unopposed {
                acc.one(color, WEAK_UNOPPOSED);
            }
        }
        if (attacks::pawn_attacks(!color, sq) & ours).any() {
            acc.one(color, SUPPORTED + rank);
        }
        if (ours & adj & Bitboard::from_rank(sq.rank())).any() {
            acc.one(color, PHALANX + rank);
        }
        let rammed = sq.offset(step).is_some_and(|stop| theirs.contains(stop));
        if rammed && (rank == 4 || rank == 5) {
            acc.one(color, BLOCKED_PAWN + rank - 4);
        }
        if (theirs & ahead & (adj | file)).is_empty() && (ours & ahead & file).is_empty() {
            passed.add(sq);
        }
    }
    passed
}

#[test]
fn pawn_structure_matches_the_per_pawn_definitions() {
    let extra = [
        "4k3/p1p3p1/1p1p1p2/P2P3P/1P6/2P1P1P1/5P2/4K3 w - - 0 1",
        "4k3/pp4pp/2p5/3pP3/3P1P2/P7/1P4PP/4K3 w - - 0 1",
        "6k1/5p1p/4p1p1/1P6/P1p5/2P5/5PPP/6K1 b - - 0 1",
        "4k3/2p1p3/2P1P3/8/1p6/1P1p4/3P4/4K3 w - - 0 1",
    ];
    for fen in SAMPLES.iter().chain(&extra) {
        let pos = Position::from_fen(fen).unwrap();
        let board = shakmaty::Position::board(pos.board());
        let mut att = [Attacks::default(); 2];
        for color in Color::ALL {
            att[color as usize].pawns = pawn_attacks(board, color);
        }
        let (mut sets, mut singles) = (Trace::default(), Trace::default());
        for color in Color::ALL {
            let mut acc = Acc {
                s: [S::ZERO; 2],
                t: &mut sets,
            };
            let passed = pawn_structure(board, color, &att, &mut acc);
            let set_score = acc.take();
            let mut acc = Acc {
                s: [S::ZERO; 2],
                t: &mut singles,
            };
            assert_eq!(passed, pawns_one_by_one(board, color, &mut acc), "{fen}");
            assert_eq!(set_score, acc.take(), "{fen}");
        }
        assert_eq!(sets.coefs, singles.coefs, "{fen}");
    }
}

#[test]
fn weight_blocks_tile_the_whole_layout() {
    let mut next = 0;
    for &(name, start, len) in layout::BLOCKS {
        assert_eq!(
            start, next,
            "{name} does not start where the last block ended"
        );
        next = start + len;
    }
    assert_eq!(next, layout::N_WEIGHTS);
}
