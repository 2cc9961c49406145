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
    assert!(eval_fen(SAMPLES[0]).abs() < 40);
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
