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

pub struct MovePicker {
    moves: MoveList,
    scores: [i32; 256],
    next: usize,
}

impl MovePicker {
    fn with_scores(moves: MoveList, mut score: impl FnMut(Move) -> i32) -> Self {
        let mut scores = [0; 256];
        for (s, m) in scores.iter_mut().zip(moves.iter()) {
            *s = score(*m);
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Ordering for the main search.
    pub fn main(
        pos: &Chess,
        moves: MoveList,
        tt_move: PackedMove,
        killers: [Option<Move>; 2],
        prev: [Option<PieceTo>; 2],
        history: &History,
    ) -> Self {
        let counter = history.countermove(prev[0]);
        let color = pos.turn();
        Self::with_scores(moves, |m| {
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
    pub fn noisy(moves: MoveList, tt_move: PackedMove) -> Self {
        Self::with_scores(moves, |m| {
            if tt_move.matches(m) {
                TT_MOVE
            } else {
                mvv_lva(m)
            }
        })
    }

    pub fn pick(&mut self) -> Option<(Move, i32)> {
        if self.next >= self.moves.len() {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..self.moves.len() {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let picked = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(picked)
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
