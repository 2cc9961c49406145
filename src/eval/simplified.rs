//! The floor Kestrel's evaluation is measured against: material plus
//! piece-square tables with the values of Tomasz Michniewski's "Simplified
//! Evaluation Function" (P 100, N 320, B 330, R 500, Q 900), its king table
//! blended from middlegame to endgame by game phase.
//!
//! Built into the engine only with `--features pst-eval`, which makes
//! [`super::evaluate`] use it; that binary is the opponent of the
//! tuned-versus-plain match in README.

use shakmaty::{Board, Chess, Color, Position, Role, Square};

const VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

// Tables are written as a board is drawn, rank 8 first, from White's side.
#[rustfmt::skip]
const PAWN: [i32; 64] = [
      0,  0,  0,  0,  0,  0,  0,  0,
     50, 50, 50, 50, 50, 50, 50, 50,
     10, 10, 20, 30, 30, 20, 10, 10,
      5,  5, 10, 25, 25, 10,  5,  5,
      0,  0,  0, 20, 20,  0,  0,  0,
      5, -5,-10,  0,  0,-10, -5,  5,
      5, 10, 10,-20,-20, 10, 10,  5,
      0,  0,  0,  0,  0,  0,  0,  0,
];

#[rustfmt::skip]
const KNIGHT: [i32; 64] = [
    -50,-40,-30,-30,-30,-30,-40,-50,
    -40,-20,  0,  0,  0,  0,-20,-40,
    -30,  0, 10, 15, 15, 10,  0,-30,
    -30,  5, 15, 20, 20, 15,  5,-30,
    -30,  0, 15, 20, 20, 15,  0,-30,
    -30,  5, 10, 15, 15, 10,  5,-30,
    -40,-20,  0,  5,  5,  0,-20,-40,
    -50,-40,-30,-30,-30,-30,-40,-50,
];

#[rustfmt::skip]
const BISHOP: [i32; 64] = [
    -20,-10,-10,-10,-10,-10,-10,-20,
    -10,  0,  0,  0,  0,  0,  0,-10,
    -10,  0,  5, 10, 10,  5,  0,-10,
    -10,  5,  5, 10, 10,  5,  5,-10,
    -10,  0, 10, 10, 10, 10,  0,-10,
    -10, 10, 10, 10, 10, 10, 10,-10,
    -10,  5,  0,  0,  0,  0,  5,-10,
    -20,-10,-10,-10,-10,-10,-10,-20,
];

#[rustfmt::skip]
const ROOK: [i32; 64] = [
      0,  0,  0,  0,  0,  0,  0,  0,
      5, 10, 10, 10, 10, 10, 10,  5,
     -5,  0,  0,  0,  0,  0,  0, -5,
     -5,  0,  0,  0,  0,  0,  0, -5,
     -5,  0,  0,  0,  0,  0,  0, -5,
     -5,  0,  0,  0,  0,  0,  0, -5,
     -5,  0,  0,  0,  0,  0,  0, -5,
      0,  0,  0,  5,  5,  0,  0,  0,
];

#[rustfmt::skip]
const QUEEN: [i32; 64] = [
    -20,-10,-10, -5, -5,-10,-10,-20,
    -10,  0,  0,  0,  0,  0,  0,-10,
    -10,  0,  5,  5,  5,  5,  0,-10,
     -5,  0,  5,  5,  5,  5,  0, -5,
      0,  0,  5,  5,  5,  5,  0, -5,
    -10,  5,  5,  5,  5,  5,  0,-10,
    -10,  0,  5,  0,  0,  0,  0,-10,
    -20,-10,-10, -5, -5,-10,-10,-20,
];

#[rustfmt::skip]
const KING_MG: [i32; 64] = [
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -30,-40,-40,-50,-50,-40,-40,-30,
    -20,-30,-30,-40,-40,-30,-30,-20,
    -10,-20,-20,-20,-20,-20,-20,-10,
     20, 20,  0,  0,  0,  0, 20, 20,
     20, 30, 10,  0,  0, 10, 30, 20,
];

#[rustfmt::skip]
const KING_EG: [i32; 64] = [
    -50,-40,-30,-20,-20,-30,-40,-50,
    -30,-20,-10,  0,  0,-10,-20,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 30, 40, 40, 30,-10,-30,
    -30,-10, 20, 30, 30, 20,-10,-30,
    -30,-30,  0,  0,  0,  0,-30,-30,
    -50,-30,-30,-30,-30,-30,-30,-50,
];

/// Knights and bishops count 1, rooks 2, queens 4: 24 with all pieces on.
const PHASE_WEIGHTS: [i32; 6] = [0, 1, 1, 2, 4, 0];
const PHASE_TOTAL: i32 = 24;

fn table_index(square: Square, color: Color) -> usize {
    let (file, rank) = (square.file() as usize, square.rank() as usize);
    match color {
        Color::White => (7 - rank) * 8 + file,
        Color::Black => rank * 8 + file,
    }
}

fn phase(board: &Board) -> i32 {
    Role::ALL
        .iter()
        .map(|&r| PHASE_WEIGHTS[r as usize - 1] * board.by_role(r).count() as i32)
        .sum::<i32>()
        .min(PHASE_TOTAL)
}

fn side_score(board: &Board, color: Color, phase: i32) -> i32 {
    let mut score = 0;
    for square in board.by_color(color) {
        let Some(role) = board.role_at(square) else {
            continue;
        };
        let i = table_index(square, color);
        score += VALUES[role as usize - 1];
        score += match role {
            Role::Pawn => PAWN[i],
            Role::Knight => KNIGHT[i],
            Role::Bishop => BISHOP[i],
            Role::Rook => ROOK[i],
            Role::Queen => QUEEN[i],
            Role::King => (KING_MG[i] * phase + KING_EG[i] * (PHASE_TOTAL - phase)) / PHASE_TOTAL,
        };
    }
    score
}

/// Score from the side to move's point of view, in centipawns.
pub fn evaluate(pos: &Chess) -> i32 {
    let board = pos.board();
    let phase = phase(board);
    let white = side_score(board, Color::White, phase) - side_score(board, Color::Black, phase);
    match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    }
}

#[cfg(test)]
mod tests {
    use super::evaluate;
    use crate::position::Position;

    fn eval(fen: &str) -> i32 {
        evaluate(Position::from_fen(fen).expect("test FEN").board())
    }

    #[test]
    fn start_position_is_level() {
        assert_eq!(
            eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            0
        );
    }

    #[test]
    fn colours_see_the_same_board() {
        let white = eval("4k3/8/8/3N4/8/8/5P2/4K3 w - - 0 1");
        let black = eval("4k3/5p2/8/8/3n4/8/8/4K3 b - - 0 1");
        assert_eq!(white, black);
        assert!(white > 300, "a knight and a pawn up scores {white}");
    }

    #[test]
    fn centre_knight_beats_rim_knight() {
        let centre = eval("4k3/8/8/3N4/8/8/8/4K3 w - - 0 1");
        let rim = eval("4k3/8/8/N7/8/8/8/4K3 w - - 0 1");
        assert_eq!(centre - rim, 20 - (-30));
    }

    #[test]
    fn king_seeks_the_centre_only_in_the_endgame() {
        let corner = eval("4k3/8/8/8/8/8/8/6K1 w - - 0 1");
        let centre = eval("4k3/8/8/8/3K4/8/8/8 w - - 0 1");
        assert!(centre > corner);
        let corner_mg = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1RK1 w kq - 0 1");
        let centre_mg = eval("rnbqkbnr/pppppppp/8/8/3K4/8/PPPPPPPP/RNBQ1R2 w kq - 0 1");
        assert!(corner_mg > centre_mg);
    }
}
