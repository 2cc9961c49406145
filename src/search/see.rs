//! Static exchange evaluation: does a capture sequence on one square win at
//! least `threshold` centipawns for the side making the first move?

use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role};

use super::params::SEE_VALUES;

pub fn value(role: Role) -> i32 {
    SEE_VALUES[role as usize - 1]
}

fn all_attackers(board: &Board, sq: shakmaty::Square, occ: Bitboard) -> Bitboard {
    (board.attacks_to(sq, Color::White, occ) | board.attacks_to(sq, Color::Black, occ)) & occ
}

pub fn see_ge(pos: &Chess, m: Move, threshold: i32) -> bool {
    let (from, to) = match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
        _ => return threshold <= 0,
    };
    let board = pos.board();
    let captured = match m {
        Move::EnPassant { .. } => value(Role::Pawn),
        _ => m.capture().map_or(0, value),
    };
    let promo_gain = m.promotion().map_or(0, |r| value(r) - value(Role::Pawn));
    let mut swap = captured + promo_gain - threshold;
    if swap < 0 {
        return false;
    }
    let mover = m.promotion().unwrap_or(m.role());
    swap = value(mover) - swap;
    if swap <= 0 {
        return true;
    }

    let mut occ = board.occupied() ^ Bitboard::from(from) ^ Bitboard::from(to);
    if let Move::EnPassant { from, to } = m {
        occ ^= Bitboard::from(shakmaty::Square::from_coords(to.file(), from.rank()));
    }
    let diagonal = board.bishops() | board.queens();
    let straight = board.rooks() | board.queens();
    let mut attackers = all_attackers(board, to, occ);
    let mut side = !pos.turn();
    // `won` flips each time a side recaptures: it says whether the first
    // mover is still ahead if the exchange stopped here.
    let mut won = true;
    loop {
        attackers &= occ;
        let ours = attackers & board.by_color(side);
        if ours.is_empty() {
            break;
        }
        won = !won;
        let (role, sq) = least_valuable(board, ours);
        if role == Role::King {
            // The king may only take last, when nothing defends the square.
            if (attackers & board.by_color(!side)).any() {
                won = !won;
            }
            break;
        }
        swap = value(role) - swap;
        if swap < i32::from(won) {
            break;
        }
        occ ^= Bitboard::from(sq);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop_attacks(to, occ) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook_attacks(to, occ) & straight;
        }
        side = !side;
    }
    won
}

fn least_valuable(board: &Board, set: Bitboard) -> (Role, shakmaty::Square) {
    for role in Role::ALL {
        if let Some(sq) = (set & board.by_role(role)).first() {
            return (role, sq);
        }
    }
    unreachable!("least_valuable is only called with a non-empty attacker set")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position as Pos;
    use shakmaty::CastlingMode;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let pos = Pos::from_fen(fen).unwrap();
        let m = pos.parse_move(mv, CastlingMode::Standard).unwrap();
        see_ge(pos.board(), m, threshold)
    }

    #[test]
    fn undefended_pawn_is_won() {
        let fen = "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1";
        assert!(see(fen, "e1e5", 100));
        assert!(!see(fen, "e1e5", 101));
    }

    #[test]
    fn defended_pawn_costs_the_knight() {
        let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert!(!see(fen, "d3e5", 0));
        assert!(see(fen, "d3e5", -220));
    }

    #[test]
    fn quiet_move_to_attacked_square_loses_the_piece() {
        let fen = "4k3/3p4/8/8/3N4/8/8/4K3 w - - 0 1";
        assert!(see(fen, "d4f5", 0));
        assert!(!see(fen, "d4e6", -100));
        assert!(see(fen, "d4e6", -320));
    }
}
