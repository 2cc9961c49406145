use super::*;
use crate::position::Position;

/// The same position with colours swapped and the board mirrored top to bottom.
pub fn flip_fen(fen: &str) -> String {
    let parts: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let board: Vec<String> = parts[0].split('/').rev().map(swap).collect();
    let turn = if parts[1] == "w" { "b" } else { "w" };
    let castling = if parts[2] == "-" {
        "-".to_string()
    } else {
        swap(parts[2])
    };
    let ep = if parts[3] == "-" {
        "-".to_string()
    } else {
        let b = parts[3].as_bytes();
        format!("{}{}", b[0] as char, if b[1] == b'3' { '6' } else { '3' })
    };
    format!(
        "{} {} {} {} {} {}",
        board.join("/"),
        turn,
        castling,
        ep,
        parts.get(4).unwrap_or(&"0"),
        parts.get(5).unwrap_or(&"1")
    )
}

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
        assert_eq!(eval_fen(fen), eval_fen(&flip_fen(fen)), "{fen}");
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
