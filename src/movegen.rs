//! Legal noisy moves (captures, en passant, queen promotions) without
//! generating the quiet ones. Quiescence visits more nodes than the main
//! search and wants only these; shakmaty's `capture_moves` filters the full
//! legal move list, so most of its work would be thrown away.

use shakmaty::{Bitboard, Chess, Color, Move, MoveList, Position as _, Role, Square, attacks};

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// The legal captures, en passant captures and queen promotions of a
/// position that is not in check, in the order in which shakmaty's
/// `legal_moves` lists them, so that ordering ties break the same way.
pub fn noisy_moves(pos: &Chess) -> MoveList {
    debug_assert!(!pos.is_check());
    let mut moves = pos.en_passant_moves();
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return moves;
    };
    let them = pos.them();
    let pawns = pos.our(Role::Pawn);

    for (targets, offset) in pawn_capture_targets(us, pawns.0) {
        let targets = Bitboard(targets) & them;
        (targets & !Bitboard::BACKRANKS).for_each(|to| {
            push_capture(&mut moves, pos, Role::Pawn, from_offset(to, offset), to);
        });
        (targets & Bitboard::BACKRANKS).for_each(|to| {
            let from = from_offset(to, offset);
            for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                moves.push(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture: board.role_at(to),
                    to,
                    promotion: Some(promotion),
                });
            }
        });
    }
    let push = us.fold_wb(8, -8);
    let pushes = pawns.shift(push) & !board.occupied() & Bitboard::BACKRANKS;
    pushes.for_each(|to| {
        moves.push(Move::Normal {
            role: Role::Pawn,
            from: from_offset(to, push),
            capture: None,
            to,
            promotion: Some(Role::Queen),
        });
    });

    let occupied = board.occupied();
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        pos.our(role).for_each(|from| {
            let piece_attacks = attacks::attacks(from, role.of(us), occupied);
            (piece_attacks & them).for_each(|to| push_capture(&mut moves, pos, role, from, to));
        });
    }
    (attacks::king_attacks(king) & them).for_each(|to| {
        if board.attacks_to(to, !us, occupied).is_empty() {
            push_capture(&mut moves, pos, Role::King, king, to);
        }
    });

    let pinned = pinned_pieces(pos, king);
    if pinned.any() {
        moves.retain(|m| match *m {
            Move::Normal { from, to, .. } => {
                !pinned.contains(from) || attacks::aligned(from, to, king)
            }
            _ => true,
        });
    }
    moves
}

/// Does the side to move have any legal move at all? Cheap in the usual
/// case, where some piece that is not pinned can step somewhere.
pub fn has_legal_move(pos: &Chess) -> bool {
    if !pos.is_check()
        && let Some(king) = pos.board().king_of(pos.turn())
    {
        let board = pos.board();
        let free = !pos.us();
        let pinned = pinned_pieces(pos, king);
        let movable = pos.us() & !board.pawns() & !board.kings() & !pinned;
        let occupied = board.occupied();
        for from in movable {
            let Some(piece) = board.piece_at(from) else {
                continue;
            };
            if (attacks::attacks(from, piece, occupied) & free).any() {
                return true;
            }
        }
    }
    !pos.legal_moves().is_empty()
}

/// Our pieces that shield our king from an enemy slider.
fn pinned_pieces(pos: &Chess, king: Square) -> Bitboard {
    let board = pos.board();
    let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens());
    let mut pinned = Bitboard::EMPTY;
    (snipers & pos.them()).for_each(|sniper| {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            pinned |= between;
        }
    });
    pinned & pos.us()
}

/// The squares our pawns capture on, west captures first as shakmaty
/// lists them, each with the square offset of the capture.
fn pawn_capture_targets(us: Color, pawns: u64) -> [(u64, i32); 2] {
    match us {
        Color::White => [((pawns & !FILE_A) << 7, 7), ((pawns << 9) & !FILE_A, 9)],
        Color::Black => [((pawns & !FILE_A) >> 9, -9), ((pawns >> 7) & !FILE_A, -7)],
    }
}

fn from_offset(to: Square, offset: i32) -> Square {
    Square::new((to as i32 - offset) as u32)
}

fn push_capture(moves: &mut MoveList, pos: &Chess, role: Role, from: Square, to: Square) {
    moves.push(Move::Normal {
        role,
        from,
        capture: pos.board().role_at(to),
        to,
        promotion: None,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, perft};

    fn position(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("test FEN");
        fen.into_position(CastlingMode::Chess960)
            .expect("legal test position")
    }

    fn reference(pos: &Chess) -> Vec<Move> {
        let mut moves = pos.legal_moves();
        moves.retain(|m| m.is_capture() || m.promotion() == Some(Role::Queen));
        moves.to_vec()
    }

    /// Walks every position a few plies deep and compares with the
    /// filtered legal move list, order included.
    fn check_tree(pos: &Chess, depth: u32, checked: &mut usize) {
        if !pos.is_check() {
            assert_eq!(noisy_moves(pos).to_vec(), reference(pos), "{pos:?}");
            assert_eq!(has_legal_move(pos), !pos.legal_moves().is_empty());
            *checked += 1;
        }
        if depth == 0 {
            return;
        }
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            check_tree(&child, depth - 1, checked);
        }
    }

    #[test]
    fn noisy_moves_match_filtered_legal_moves() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/2k5/3Pp3/8/8/4K2Q b - d3 0 1",
            "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1",
            "k7/8/8/8/8/8/5q2/7K w - - 0 1",
        ];
        let mut checked = 0;
        for fen in fens {
            let pos = position(fen);
            check_tree(&pos, 2, &mut checked);
        }
        assert!(checked > 1000, "{checked}");
        // The trees above are real: perft agrees with the known counts.
        assert_eq!(perft(&position(fens[0]), 2), 2039);
    }

    #[test]
    fn stalemate_has_no_legal_move() {
        assert!(!has_legal_move(&position("k7/8/1Q6/8/8/8/8/7K b - - 0 1")));
        assert!(has_legal_move(&position("k7/8/8/8/8/8/8/7K b - - 0 1")));
    }
}
