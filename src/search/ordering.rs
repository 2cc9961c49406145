//! Move ordering: every legal move gets a score once, and the picker hands
//! them out best first (selection sort, since cut-offs usually come early).

use shakmaty::{Chess, Move, MoveList, Position, Role};

use super::history::{History, PrevMoves, QuietKeys, captured_role};
use super::params::{CONTINUATION_PLIES, good_capture_history_divisor, good_capture_victim_pct};
use super::see::{see_ge, value};
use crate::tt::PackedMove;

const TT_MOVE: i32 = 1_000_000_000;
const GOOD_CAPTURE: i32 = 500_000_000;
const KILLER: i32 = 400_000_000;
const COUNTERMOVE: i32 = 399_000_000;
const BAD_CAPTURE: i32 = -500_000_000;
const UNDERPROMOTION: i32 = -600_000_000;

/// Whether a noisy move's ordering score marks it bad: a capture or
/// promotion that loses more on SEE than the good-capture threshold
/// allows, or an underpromotion (see `noisy_score`).
pub fn is_bad_noisy(score: i32) -> bool {
    score < -100_000_000
}

/// Whether an ordering score is a killer's or the countermove's.
pub fn is_refutation(score: i32) -> bool {
    (COUNTERMOVE..GOOD_CAPTURE).contains(&score)
}

/// Where a main-search picker is: the hash move is handed out before any
/// other move is scored, since it often cuts the node off on its own.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    HashMove,
    ScoreRest,
    Pick,
}

/// What the main-search ordering needs to score quiet moves.
#[derive(Clone, Copy)]
struct QuietContext {
    killers: [Option<Move>; 2],
    prev: PrevMoves,
    keys: QuietKeys,
}

/// Scored moves in a buffer the caller lends, so that no node allocates.
pub struct MovePicker {
    scored: Vec<(Move, i32)>,
    next: usize,
    stage: Stage,
    tt_move: PackedMove,
    quiet: QuietContext,
}

impl QuietContext {
    /// For pickers that never score quiet moves (quiescence).
    const NONE: QuietContext = QuietContext {
        killers: [None; 2],
        prev: [None; CONTINUATION_PLIES.len()],
        keys: QuietKeys {
            pawns: 0,
            threats: shakmaty::Bitboard::EMPTY,
        },
    };
}

/// The moves in the lent buffer, not yet scored. The list is borrowed:
/// at over a kilobyte, moving it by value costs a copy per node.
fn unscored(moves: &MoveList, mut buffer: Vec<(Move, i32)>) -> Vec<(Move, i32)> {
    buffer.clear();
    buffer.extend(moves.iter().map(|&m| (m, 0)));
    buffer
}

impl MovePicker {
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

    /// Ordering for the main search; moves are scored lazily by `pick_main`.
    pub fn main(
        moves: &MoveList,
        tt_move: PackedMove,
        killers: [Option<Move>; 2],
        prev: PrevMoves,
        keys: QuietKeys,
        buffer: Vec<(Move, i32)>,
    ) -> Self {
        MovePicker {
            scored: unscored(moves, buffer),
            next: 0,
            stage: Stage::HashMove,
            tt_move,
            quiet: QuietContext {
                killers,
                prev,
                keys,
            },
        }
    }

    /// Ordering for quiescence: most valuable victim, least valuable attacker.
    pub fn noisy(moves: &MoveList, tt_move: PackedMove, buffer: Vec<(Move, i32)>) -> Self {
        let mut scored = unscored(moves, buffer);
        for entry in &mut scored {
            entry.1 = if tt_move.matches(entry.0) {
                TT_MOVE
            } else {
                mvv_lva(entry.0)
            };
        }
        MovePicker {
            scored,
            next: 0,
            stage: Stage::Pick,
            tt_move,
            quiet: QuietContext::NONE,
        }
    }

    /// The next move of a main-search picker with its ordering score. The
    /// position and history are lent per call, because the search updates
    /// the history between picks.
    pub fn pick_main(&mut self, pos: &Chess, history: &History) -> Option<(Move, i32)> {
        if self.stage == Stage::HashMove {
            self.stage = Stage::ScoreRest;
            if let Some(i) = self
                .scored
                .iter()
                .position(|&(m, _)| self.tt_move.matches(m))
            {
                self.scored.swap(0, i);
                self.scored[0].1 = TT_MOVE;
                self.next = 1;
                return Some(self.scored[0]);
            }
        }
        if self.stage == Stage::ScoreRest {
            self.stage = Stage::Pick;
            self.score_rest(pos, history);
        }
        self.pick()
    }

    fn score_rest(&mut self, pos: &Chess, history: &History) {
        let QuietContext {
            killers,
            prev,
            keys,
        } = self.quiet;
        let counter = history.countermove(prev[0]);
        let color = pos.turn();
        for entry in &mut self.scored[self.next..] {
            let m = entry.0;
            entry.1 = if m.is_capture() || m.is_promotion() {
                noisy_score(pos, m, history)
            } else if Some(m) == killers[0] {
                KILLER
            } else if Some(m) == killers[1] {
                KILLER - 1
            } else if Some(m) == counter {
                COUNTERMOVE
            } else {
                history.quiet_score(color, m, prev, keys)
            };
        }
    }

    /// The best-scored move not yet handed out.
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
    let victim = captured_role(m);
    let raw_hist = victim.map_or(0, |c| history.capture_score(pos.turn(), m, c));
    // Giving up a little of what is taken (a bishop for a defended knight)
    // is often sound, and more so for a capture that has often cut.
    let leeway = victim.map_or(0, value) * good_capture_victim_pct() / 100
        + raw_hist / good_capture_history_divisor();
    let base = if see_ge(pos, m, -leeway) {
        GOOD_CAPTURE
    } else {
        BAD_CAPTURE
    };
    base + mvv_lva(m) * 4 + raw_hist / 16
}

#[cfg(test)]
mod tests {
    use shakmaty::CastlingMode;

    use super::*;
    use crate::position::Position as Game;

    #[test]
    fn a_bishop_for_a_defended_knight_is_a_good_capture_a_queen_is_not() {
        let game = Game::from_fen("4k3/8/4p3/3n4/2B5/8/8/4K2Q w - - 0 1").unwrap();
        let history = History::default();
        let score = |uci: &str| {
            let m = game.parse_move(uci, CastlingMode::Standard).unwrap();
            noisy_score(game.board(), m, &history)
        };
        let bishop = score("c4d5");
        let queen = score("h1d5");
        // Bxd5 exd5 gives up ten centipawns on SEE; Qxd5 exd5 a queen for a knight.
        assert!(!is_bad_noisy(bishop), "{bishop}");
        assert!(is_bad_noisy(queen), "{queen}");
    }
}
