//! Move ordering: every legal move gets a score once, and the picker hands
//! them out best first (selection sort, since cut-offs usually come early).

use shakmaty::{Chess, Move, MoveList, Position, Role};

use super::history::{History, PieceTo, captured_role};
use super::see::{see_ge, value};
use crate::tt::PackedMove;

const TT_MOVE: i32 = 1_000_000_000;
const GOOD_CAPTURE: i32 = 500_000_000;
const KILLER: i32 = 400_000_000;
const COUNTERMOVE: i32 = 399_000_000;
const BAD_CAPTURE: i32 = -500_000_000;
const UNDERPROMOTION: i32 = -600_000_000;

/// Scores at or above this are captures or promotions that won't lose material.
pub fn is_bad_noisy(score: i32) -> bool {
    score < -100_000_000
}

/// Scored moves in a buffer the caller lends, so that no node allocates.
pub struct MovePicker {
    scored: Vec<(Move, i32)>,
    next: usize,
}

impl MovePicker {
    fn with_scores(
        moves: MoveList,
        mut buffer: Vec<(Move, i32)>,
        mut score: impl FnMut(Move) -> i32,
    ) -> Self {
        buffer.clear();
        buffer.extend(moves.into_iter().map(|m| (m, score(m))));
        MovePicker {
            scored: buffer,
            next: 0,
        }
    }

    /// Gives the buffer back for the next node.
    pub fn into_buffer(self) -> Vec<(Move, i32)> {
        self.scored
    }

    pub fn len(&self) -> usize {
        self.scored.len()
    }

    pub fn is_empty(&self) -> bool {
        self.scored.is_empty()
    }

    /// Ordering for the main search.
    pub fn main(
        pos: &Chess,
        moves: MoveList,
        tt_move: PackedMove,
        killers: [Option<Move>; 2],
        prev: [Option<PieceTo>; 2],
        history: &History,
        buffer: Vec<(Move, i32)>,
    ) -> Self {
        let counter = history.countermove(prev[0]);
        let color = pos.turn();
        Self::with_scores(moves, buffer, |m| {
            if tt_move.matches(m) {
                TT_MOVE
            } else if m.is_capture() || m.is_promotion() {
                noisy_score(pos, m, history)
            } else if Some(m) == killers[0] {
                KILLER
            } else if Some(m) == killers[1] {
                KILLER - 1
            } else if Some(m) == counter {
                COUNTERMOVE
            } else {
                history.quiet_score(color, m, prev)
            }
        })
    }

    /// Ordering for quiescence: most valuable victim, least valuable attacker.
    pub fn noisy(moves: MoveList, tt_move: PackedMove, buffer: Vec<(Move, i32)>) -> Self {
        Self::with_scores(moves, buffer, |m| {
            if tt_move.matches(m) {
                TT_MOVE
            } else {
                mvv_lva(m)
            }
        })
    }

    pub fn pick(&mut self) -> Option<(Move, i32)> {
        let start = self.next;
        let first = *self.scored.get(start)?;
        // The first of equal scores wins, so ties keep generation order.
        let mut best = start;
        let mut best_score = first.1;
        for (i, &(_, s)) in self.scored.iter().enumerate().skip(start + 1) {
            if s > best_score {
                best = i;
                best_score = s;
            }
        }
        self.scored.swap(start, best);
        self.next += 1;
        Some(self.scored[start])
    }
}

fn mvv_lva(m: Move) -> i32 {
    let victim = captured_role(m).map_or(0, value);
    let promo = m.promotion().map_or(0, value);
    victim * 16 + promo - m.role() as i32
}

fn noisy_score(pos: &Chess, m: Move, history: &History) -> i32 {
    if matches!(m.promotion(), Some(r) if r != Role::Queen) {
        return UNDERPROMOTION;
    }
    let hist = captured_role(m).map_or(0, |c| history.capture_score(pos.turn(), m, c) / 16);
    let base = if see_ge(pos, m, 0) {
        GOOD_CAPTURE
    } else {
        BAD_CAPTURE
    };
    base + mvv_lva(m) * 4 + hist
}
