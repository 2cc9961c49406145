//! A game position: shakmaty's board plus the Zobrist key and the keys of
//! every earlier position of the game, which repetition detection needs.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{
    Bitboard, CastlingMode, Chess, EnPassantMode, FromSetup, Move, Piece, Position as _,
    PositionErrorKinds, attacks,
};
use thiserror::Error;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum PositionError {
    #[error("invalid FEN '{fen}': {reason}")]
    BadFen { fen: String, reason: String },
    #[error("illegal position '{fen}': {reason}")]
    IllegalPosition { fen: String, reason: String },
    #[error("malformed move '{0}'")]
    MalformedMove(String),
    #[error("illegal move '{0}'")]
    IllegalMove(String),
}

/// Zobrist key of a board, computed from scratch.
pub fn full_key(board: &Chess) -> u64 {
    board.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// A hash of the pawns alone (both colours), for tables keyed by pawn
/// structure.
pub fn pawn_hash(board: &shakmaty::Board) -> u64 {
    let white = (board.pawns() & board.white()).0;
    let black = (board.pawns() & board.black()).0;
    white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
}

/// Squares the pawns of `color` attack.
pub fn pawn_attacks(board: &shakmaty::Board, color: shakmaty::Color) -> Bitboard {
    let pawns = (board.pawns() & board.by_color(color)).0;
    let not_a = !0x0101_0101_0101_0101u64;
    let not_h = !0x8080_8080_8080_8080u64;
    Bitboard(match color {
        shakmaty::Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
        shakmaty::Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
    })
}

/// Every square a piece of `color` attacks.
pub fn attacked_by(board: &shakmaty::Board, color: shakmaty::Color) -> Bitboard {
    let pieces = board.by_color(color) & !board.pawns();
    pieces
        .into_iter()
        .fold(pawn_attacks(board, color), |acc, sq| {
            acc | board.attacks_from(sq)
        })
}

/// Key of `child`, the position reached from `parent` (key `key`) by `m`.
/// Uses shakmaty's incremental update where it has one.
pub fn key_after(parent: &Chess, key: u64, m: Move, child: &Chess) -> u64 {
    match parent.update_zobrist_hash(Zobrist64(key), m, EnPassantMode::Legal) {
        Some(k) => k.0,
        None => full_key(child),
    }
}

/// Does `m` give check? Answered from attack tables for ordinary moves;
/// castling and en passant, which move two pieces, are played out.
pub fn gives_check(pos: &Chess, m: Move) -> bool {
    let Move::Normal {
        role,
        from,
        to,
        promotion,
        ..
    } = m
    else {
        let mut child = pos.clone();
        child.play_unchecked(m);
        return child.is_check();
    };
    let us = pos.turn();
    let board = pos.board();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    let occupied = (board.occupied() & !Bitboard::from_square(from)) | Bitboard::from_square(to);
    let piece = Piece {
        color: us,
        role: promotion.unwrap_or(role),
    };
    if attacks::attacks(to, piece, occupied).contains(king) {
        return true;
    }
    // Discovered check: a slider of ours that `from` was blocking.
    let ours = board.by_color(us) & !Bitboard::from_square(from);
    let diagonal = ours & (board.bishops() | board.queens());
    let straight = ours & (board.rooks() | board.queens());
    (attacks::bishop_attacks(king, occupied) & diagonal).any()
        || (attacks::rook_attacks(king, occupied) & straight).any()
}

#[derive(Clone, Debug)]
pub struct Position {
    board: Chess,
    key: u64,
    /// Keys of the positions before the current one, oldest first.
    history: Vec<u64>,
}

impl Default for Position {
    fn default() -> Self {
        Self::startpos()
    }
}

impl Position {
    pub fn startpos() -> Self {
        Self::from_board(Chess::default())
    }

    pub fn from_board(board: Chess) -> Self {
        let key = full_key(&board);
        Self {
            board,
            key,
            history: Vec::new(),
        }
    }

    /// Parses standard FEN, X-FEN and Shredder-FEN. Castling rights are always
    /// read in Chess960 mode, which is a superset of the standard one.
    #[allow(clippy::result_large_err)]
    pub fn from_fen(text: &str) -> Result<Self, PositionError> {
        let fen: Fen = text.trim().parse().map_err(|e| PositionError::BadFen {
            fen: text.to_string(),
            reason: format!("{e}"),
        })?;
        let board = fen
            .into_position::<Chess>(CastlingMode::Chess960)
            // Harmless oddities: castling rights or an en passant square
            // that cannot be used. Too much material stays an error: move
            // lists are sized for what a real game can reach.
            .or_else(|e| e.ignore_invalid_castling_rights())
            .or_else(|e| e.ignore_invalid_ep_square())
            .or_else(|e| e.ignore_impossible_check())
            .map_err(|e| e.kinds())
            .map_err(|kinds| PositionError::IllegalPosition {
                fen: text.to_string(),
                reason: describe_errors(kinds),
            })?;
        Ok(Self::from_board(board))
    }

    pub fn board(&self) -> &Chess {
        &self.board
    }

    pub fn key(&self) -> u64 {
        self.key
    }

    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Plays a move known to be legal.
    pub fn play(&mut self, m: Move) {
        let mut child = self.board.clone();
        child.play_unchecked(m);
        let key = key_after(&self.board, self.key, m, &child);
        self.history.push(self.key);
        self.key = key;
        self.board = child;
    }

    /// Finds the legal move written `text` in UCI notation. The notation of
    /// `mode` wins; the other castling notation is accepted as a fallback.
    pub fn parse_move(&self, text: &str, mode: CastlingMode) -> Result<Move, PositionError> {
        let uci: UciMove = text
            .parse()
            .map_err(|_| PositionError::MalformedMove(text.to_string()))?;
        let legal = self.board.legal_moves();
        let other = match mode {
            CastlingMode::Standard => CastlingMode::Chess960,
            CastlingMode::Chess960 => CastlingMode::Standard,
        };
        [mode, other]
            .into_iter()
            .find_map(|mode| {
                legal
                    .iter()
                    .find(|m| UciMove::from_move(**m, mode) == uci)
                    .copied()
            })
            .ok_or_else(|| PositionError::IllegalMove(text.to_string()))
    }

    /// The same position with colours swapped and the board turned upside
    /// down, as the other side sees it; the history is not carried over.
    pub fn colour_flipped(&self) -> Result<Self, PositionError> {
        let mut setup = self.board.to_setup(EnPassantMode::Legal);
        setup.mirror();
        let board = Chess::from_setup(setup, CastlingMode::Chess960).map_err(|e| {
            PositionError::IllegalPosition {
                fen: self.fen(),
                reason: describe_errors(e.kinds()),
            }
        })?;
        Ok(Self::from_board(board))
    }

    pub fn fen(&self) -> String {
        Fen::from_position(&self.board, EnPassantMode::Legal).to_string()
    }
}

/// Writes a move in UCI notation for the given castling mode.
pub fn move_to_uci(m: Move, mode: CastlingMode) -> String {
    UciMove::from_move(m, mode).to_string()
}

fn describe_errors(kinds: PositionErrorKinds) -> String {
    let names = [
        (PositionErrorKinds::EMPTY_BOARD, "the board is empty"),
        (PositionErrorKinds::MISSING_KING, "a king is missing"),
        (PositionErrorKinds::TOO_MANY_KINGS, "too many kings"),
        (
            PositionErrorKinds::PAWNS_ON_BACKRANK,
            "pawns on a back rank",
        ),
        (
            PositionErrorKinds::INVALID_CASTLING_RIGHTS,
            "invalid castling rights",
        ),
        (
            PositionErrorKinds::INVALID_EP_SQUARE,
            "invalid en passant square",
        ),
        (
            PositionErrorKinds::OPPOSITE_CHECK,
            "the side not to move is in check",
        ),
        (PositionErrorKinds::IMPOSSIBLE_CHECK, "impossible check"),
        (PositionErrorKinds::TOO_MUCH_MATERIAL, "too much material"),
    ];
    let found: Vec<&str> = names
        .iter()
        .filter(|(k, _)| kinds.contains(*k))
        .map(|(_, n)| *n)
        .collect();
    if found.is_empty() {
        "not a legal chess position".to_string()
    } else {
        found.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_key_matches_full_key_through_a_game() {
        let mut pos = Position::startpos();
        for text in [
            "e2e4", "d7d5", "e4d5", "g8f6", "f1b5", "c7c6", "d5c6", "d8d2", "b1d2", "e8d8", "c6b7",
            "c8d7", "b7a8q", "d8c7", "g1f3", "c7b6", "e1g1",
        ] {
            let m = pos.parse_move(text, CastlingMode::Standard).unwrap();
            pos.play(m);
            assert_eq!(pos.key(), full_key(pos.board()), "after {text}");
        }
        assert_eq!(pos.history().len(), 17);
    }

    #[test]
    fn castling_is_read_in_both_notations() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let a = pos.parse_move("e1g1", CastlingMode::Standard).unwrap();
        let b = pos.parse_move("e1h1", CastlingMode::Standard).unwrap();
        assert_eq!(a, b);
        assert_eq!(move_to_uci(a, CastlingMode::Chess960), "e1h1");
        assert_eq!(move_to_uci(a, CastlingMode::Standard), "e1g1");
    }

    #[test]
    fn shredder_fen_is_accepted() {
        let shredder = Position::from_fen("4k3/8/8/8/8/8/8/1R3KR1 w GB - 0 1").unwrap();
        let xfen = Position::from_fen("4k3/8/8/8/8/8/8/1R3KR1 w KQ - 0 1").unwrap();
        let m = shredder.parse_move("f1g1", CastlingMode::Chess960).unwrap();
        assert!(matches!(m, shakmaty::Move::Castle { .. }));
        assert_eq!(xfen.parse_move("f1g1", CastlingMode::Chess960).unwrap(), m);
        assert_eq!(shredder.key(), xfen.key());
    }

    #[test]
    fn colour_flip_swaps_sides_and_undoes_itself() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        let flipped = pos.colour_flipped().unwrap();
        assert_eq!(
            flipped.fen(),
            "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1"
        );
        assert_eq!(flipped.colour_flipped().unwrap().fen(), fen);
    }

    #[test]
    fn broken_fens_are_refused() {
        assert!(Position::from_fen("not a fen").is_err());
        assert!(Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").is_err());
        assert!(Position::from_fen("4k3/8/8/8/8/8/8/4K2R b - - 0 1").is_ok());
        assert!(Position::from_fen("4k2R/8/8/8/8/8/8/4K3 w - - 0 1").is_err());
    }

    /// Walks every move two plies deep from positions rich in discovered
    /// checks, pins, promotions, en passant and castling.
    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 1",
            "3k4/8/8/8/B7/8/2R5/3KQ3 w - - 0 1",
        ];
        let mut checked = 0;
        for fen in fens {
            let root = Position::from_fen(fen).unwrap();
            for m in root.board().legal_moves() {
                let mut child = root.board().clone();
                child.play_unchecked(m);
                assert_eq!(gives_check(root.board(), m), child.is_check(), "{fen} {m}");
                for reply in child.legal_moves() {
                    let mut grandchild = child.clone();
                    grandchild.play_unchecked(reply);
                    assert_eq!(gives_check(&child, reply), grandchild.is_check());
                    checked += 1;
                }
            }
        }
        assert!(checked > 4000, "only {checked} moves");
    }
}
