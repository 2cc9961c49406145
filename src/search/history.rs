//! History heuristics: butterfly history, continuation history for the
//! moves `CONTINUATION_PLIES` back, killers and countermoves, and the
//! evaluation's correction history. They live across the searches of a
//! game and are cleared by `ucinewgame`.

use shakmaty::{Bitboard, Chess, Color, Move, Position as _, Role, Square};

use super::correction::Correction;
use super::params::{
    CONTINUATION_PLIES, COUNTERMOVE_HISTORY_WEIGHT, HISTORY_MAX, PAWN_HISTORY_ENTRIES,
    history_bonus_max, history_bonus_per_depth,
};
use crate::position::{attacked_by, pawn_hash};

/// Piece (colour and role) and destination of a move: the key of
/// continuation history and countermoves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo {
    pub piece: usize,
    pub to: usize,
}

impl PieceTo {
    pub fn new(color: Color, m: Move) -> Self {
        let role = m.role() as usize - 1;
        let piece = color as usize * 6 + role;
        PieceTo {
            piece,
            to: destination(m) as usize,
        }
    }

    fn index(self) -> usize {
        self.piece * 64 + self.to
    }
}

/// The square the moving piece ends on (the king's square for castling).
fn destination(m: Move) -> Square {
    match m {
        Move::Castle { king, rook } => {
            let file = if rook > king {
                shakmaty::File::G
            } else {
                shakmaty::File::C
            };
            Square::from_coords(file, king.rank())
        }
        _ => m.to(),
    }
}

const PIECE_TO: usize = 12 * 64;

/// The moves played `CONTINUATION_PLIES` plies before a node, most recent
/// first; `None` before the root or after a null move.
pub type PrevMoves = [Option<PieceTo>; CONTINUATION_PLIES.len()];

/// What quiet-move history is keyed by besides the move: the pawn
/// structure's row of pawn history and the squares the opponent attacks.
#[derive(Clone, Copy, Debug, Default)]
pub struct QuietKeys {
    pub pawns: usize,
    pub threats: Bitboard,
}

impl QuietKeys {
    pub fn of(pos: &Chess) -> Self {
        QuietKeys {
            pawns: pawn_slot(pos),
            threats: attacked_by(pos.board(), !pos.turn()),
        }
    }
}

pub struct History {
    butterfly: Vec<i16>,
    continuation: Vec<i16>,
    countermoves: Vec<Option<Move>>,
    capture: Vec<i16>,
    /// Quiet moves by pawn structure: which plans fit these pawns.
    pawn: Vec<i16>,
    pub correction: Correction,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: vec![0; 2 * 4 * 64 * 64],
            continuation: vec![0; PIECE_TO * PIECE_TO],
            countermoves: vec![None; PIECE_TO],
            capture: vec![0; PIECE_TO * 6],
            pawn: vec![0; PAWN_HISTORY_ENTRIES * PIECE_TO],
            correction: Correction::default(),
        }
    }
}

pub fn bonus(depth: i32) -> i32 {
    (history_bonus_per_depth() * depth - history_bonus_per_depth() / 2).min(history_bonus_max())
}

/// Moves an entry towards +-HISTORY_MAX, slower the closer it is.
fn apply(entry: &mut i16, delta: i32) {
    let current = i32::from(*entry);
    let next = current + delta - current * delta.abs() / HISTORY_MAX;
    *entry = next.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

/// Butterfly history is split by whether the move leaves an attacked
/// square and whether it lands on one: escaping a threat and stepping
/// into one are different moves even between the same squares.
fn butterfly_index(color: Color, m: Move, threats: Bitboard) -> usize {
    let from = m.from().unwrap_or(Square::A1);
    let to = destination(m);
    let from_attacked = usize::from(threats.contains(from));
    let to_attacked = usize::from(threats.contains(to));
    ((color as usize * 2 + from_attacked) * 2 + to_attacked) * 4096
        + from as usize * 64
        + to as usize
}

fn capture_index(pt: PieceTo, captured: Role) -> usize {
    pt.index() * 6 + captured as usize - 1
}

impl History {
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// Ordering score of a quiet move given the moves before it and the
    /// position's keys.
    pub fn quiet_score(&self, color: Color, m: Move, prev: PrevMoves, keys: QuietKeys) -> i32 {
        let pt = PieceTo::new(color, m);
        let mut score = i32::from(self.butterfly[butterfly_index(color, m, keys.threats)]);
        score += i32::from(self.pawn[keys.pawns * PIECE_TO + pt.index()]);
        for (back, p) in prev.into_iter().enumerate() {
            if let Some(p) = p {
                // The reply to the previous move is the pairing that most
                // often decides a quiet move's worth.
                let weight = if back == 0 {
                    COUNTERMOVE_HISTORY_WEIGHT
                } else {
                    1
                };
                score += weight * i32::from(self.continuation[p.index() * PIECE_TO + pt.index()]);
            }
        }
        score
    }

    pub fn update_quiet(
        &mut self,
        color: Color,
        m: Move,
        prev: PrevMoves,
        keys: QuietKeys,
        delta: i32,
    ) {
        self.update_butterfly(color, m, keys.threats, delta);
        let pt = PieceTo::new(color, m);
        apply(&mut self.pawn[keys.pawns * PIECE_TO + pt.index()], delta);
        for p in prev.into_iter().flatten() {
            apply(
                &mut self.continuation[p.index() * PIECE_TO + pt.index()],
                delta,
            );
        }
    }

    pub fn update_butterfly(&mut self, color: Color, m: Move, threats: Bitboard, delta: i32) {
        apply(
            &mut self.butterfly[butterfly_index(color, m, threats)],
            delta,
        );
    }

    pub fn capture_score(&self, color: Color, m: Move, captured: Role) -> i32 {
        i32::from(self.capture[capture_index(PieceTo::new(color, m), captured)])
    }

    pub fn update_capture(&mut self, color: Color, m: Move, captured: Role, delta: i32) {
        apply(
            &mut self.capture[capture_index(PieceTo::new(color, m), captured)],
            delta,
        );
    }

    pub fn countermove(&self, prev: Option<PieceTo>) -> Option<Move> {
        prev.and_then(|p| self.countermoves[p.index()])
    }

    pub fn set_countermove(&mut self, prev: Option<PieceTo>, m: Move) {
        if let Some(p) = prev {
            self.countermoves[p.index()] = Some(m);
        }
    }
}

/// Pawn-history row of a position.
fn pawn_slot(pos: &Chess) -> usize {
    (pawn_hash(pos.board()) >> 40) as usize % PAWN_HISTORY_ENTRIES
}

/// The captured role of a move, counting en passant.
pub fn captured_role(m: Move) -> Option<Role> {
    match m {
        Move::EnPassant { .. } => Some(Role::Pawn),
        _ => m.capture(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, uci::UciMove};

    fn chess(fen: &str) -> Chess {
        let fen: Fen = fen.parse().unwrap();
        fen.into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn pawn_history_is_kept_per_pawn_structure() {
        let closed = chess("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let open = chess("r1bqkbnr/pppp1ppp/2n5/8/8/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3");
        let keys = |pawns| QuietKeys {
            pawns,
            threats: Bitboard::EMPTY,
        };
        let (a, b) = (pawn_slot(&closed), pawn_slot(&open));
        assert_ne!(a, b);
        let bc4: UciMove = "f1c4".parse().unwrap();
        let m = bc4.to_move(&closed).unwrap();
        let none = [None; CONTINUATION_PLIES.len()];
        let mut history = History::default();
        history.update_quiet(Color::White, m, none, keys(a), 2000);
        let here = history.quiet_score(Color::White, m, none, keys(a));
        let elsewhere = history.quiet_score(Color::White, m, none, keys(b));
        // Butterfly history is shared; the pawn-structure part is not.
        assert!(here > elsewhere, "{here} vs {elsewhere}");
        assert!(elsewhere > 0);
        // The same pawns give the same row, whatever the pieces do.
        let later = chess("r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4");
        assert_eq!(pawn_slot(&later), a);
    }

    #[test]
    fn butterfly_history_tells_an_escape_from_a_step_into_danger() {
        // Black's knight on e5 is attacked by the pawn on d4; Nc6 escapes.
        let pos = chess("4k3/8/8/4n3/3P4/8/8/4K3 b - - 0 1");
        let keys = QuietKeys::of(&pos);
        assert!(keys.threats.contains(Square::E5));
        let escape: UciMove = "e5c6".parse().unwrap();
        let m = escape.to_move(&pos).unwrap();
        let none = [None; CONTINUATION_PLIES.len()];
        let calm = QuietKeys {
            threats: Bitboard::EMPTY,
            ..keys
        };
        let mut history = History::default();
        history.update_quiet(Color::Black, m, none, keys, 2000);
        let threatened = history.quiet_score(Color::Black, m, none, keys);
        let unthreatened = history.quiet_score(Color::Black, m, none, calm);
        // Pawn history is shared between the two; butterfly history is not.
        assert!(threatened > unthreatened, "{threatened} vs {unthreatened}");
    }
}
