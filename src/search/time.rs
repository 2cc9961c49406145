//! Time management: a soft limit for starting another iteration, scaled by
//! how settled the search is, and a hard limit it never passes.

use shakmaty::{Color, Move};

use super::limits::{Limits, SearchControl};
use super::params::{
    HARD_SHARE_DEN, HARD_SHARE_NUM, default_moves_to_go, hard_per_soft, soft_share_den,
    start_next_iteration_percent, tm_node_share_min_depth, tm_node_share_pivot,
    tm_node_share_slope,
};

#[derive(Clone, Debug)]
pub struct TimeManager {
    soft_ms: Option<u64>,
    hard_ms: Option<u64>,
}

impl TimeManager {
    pub fn new(limits: &Limits, side: Color, overhead_ms: u64) -> Self {
        if let Some(mt) = limits.movetime {
            // A fixed time per move is the user's choice of how long to
            // think, not a budget to save from: no soft stop, so every
            // iteration that fits is tried and the last is cut off.
            let t = mt.saturating_sub(overhead_ms).max(1);
            return TimeManager {
                soft_ms: None,
                hard_ms: Some(t),
            };
        }
        let (time, inc) = match side {
            Color::White => (limits.wtime.or(limits.btime), limits.winc),
            Color::Black => (limits.btime.or(limits.wtime), limits.binc),
        };
        let Some(time) = time else {
            return TimeManager {
                soft_ms: None,
                hard_ms: None,
            };
        };
        let inc = inc.unwrap_or(0);
        let available = time.saturating_sub(overhead_ms).max(1);
        let mtg = limits
            .movestogo
            .map_or(default_moves_to_go(), |m| u64::from(m).clamp(1, 50));
        let (soft, hard) = if mtg == 1 {
            let hard = available / 5 * 4;
            (hard / 2, hard)
        } else {
            let soft = (available / mtg)
                .saturating_add(inc / 4 * 3)
                .min(available / soft_share_den());
            let hard = soft
                .saturating_mul(hard_per_soft())
                .min(available / HARD_SHARE_DEN * HARD_SHARE_NUM);
            (soft.min(hard), hard)
        };
        TimeManager {
            soft_ms: Some(soft.max(1)),
            hard_ms: Some(hard.max(1)),
        }
    }

    /// True when the search must stop now: the hard limit has passed on
    /// our clock, or after a `ponderhit` the pondering alone already took
    /// the soft limit. Never while still pondering.
    pub fn hard_expired(&self, ctl: &SearchControl) -> bool {
        if ctl.is_pondering() {
            return false;
        }
        let past_hard = self
            .hard_ms
            .is_some_and(|hard| ctl.clock_elapsed_ms() >= hard);
        let pondered_enough = ctl.was_ponderhit()
            && self
                .soft_ms
                .is_some_and(|soft| ctl.total_elapsed_ms() >= soft);
        past_hard || pondered_enough
    }

    /// True when another iteration is not worth starting; `scale` (in
    /// percent) grows with instability of the best move and score drops.
    pub fn soft_expired(&self, ctl: &SearchControl, scale_percent: u64) -> bool {
        match self.soft_ms {
            Some(soft) if !ctl.is_pondering() => {
                let budget = u128::from(soft)
                    * u128::from(scale_percent)
                    * u128::from(start_next_iteration_percent())
                    / 10_000;
                u128::from(ctl.thinking_ms()) >= budget
            }
            _ => false,
        }
    }

    pub fn soft_ms(&self) -> Option<u64> {
        self.soft_ms
    }

    pub fn hard_ms(&self) -> Option<u64> {
        self.hard_ms
    }
}

/// Nodes spent below each root move since the search began. A best move
/// that takes most of the effort has seen off its rivals; one that takes
/// little is either new or barely ahead, and deserves more time.
#[derive(Clone, Debug, Default)]
pub struct RootNodes {
    spent: Vec<(Move, u64)>,
}

impl RootNodes {
    pub fn add(&mut self, m: Move, nodes: u64) {
        match self.spent.iter_mut().find(|(seen, _)| *seen == m) {
            Some((_, total)) => *total += nodes,
            None => self.spent.push((m, nodes)),
        }
    }

    fn share_percent(&self, best: Move) -> u64 {
        let total: u64 = self.spent.iter().map(|(_, n)| n).sum();
        let mine = self
            .spent
            .iter()
            .find(|(seen, _)| *seen == best)
            .map_or(0, |(_, n)| *n);
        (mine * 100).checked_div(total).unwrap_or(100)
    }

    /// Percent of the soft limit to allow at `depth` given `best`'s share
    /// of the effort; 100 while the depth is too shallow to tell.
    pub fn time_percent(&self, best: Move, depth: u32) -> u64 {
        if depth < tm_node_share_min_depth() {
            return 100;
        }
        tm_node_share_pivot().saturating_sub(self.share_percent(best)) * tm_node_share_slope() / 100
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(time: u64, inc: u64) -> Limits {
        Limits {
            wtime: Some(time),
            btime: Some(time),
            winc: Some(inc),
            binc: Some(inc),
            ..Limits::default()
        }
    }

    #[test]
    fn bullet_clock_leaves_a_reserve() {
        let tm = TimeManager::new(&clock(1000, 10), Color::White, 10);
        let hard = tm.hard_ms().unwrap();
        assert!(hard <= 250, "{hard}");
        assert!(tm.soft_ms().unwrap() <= hard);
    }

    #[test]
    fn low_clock_spends_less_than_the_increment() {
        let tm = TimeManager::new(&clock(40, 10), Color::White, 10);
        assert!(tm.hard_ms().unwrap() < 10, "{:?}", tm.hard_ms());
    }

    #[test]
    fn nearly_flagged_clock_still_gets_a_positive_budget() {
        let tm = TimeManager::new(&clock(5, 0), Color::Black, 10);
        assert!(tm.hard_ms().unwrap() >= 1);
        assert!(tm.hard_ms().unwrap() <= 5);
    }

    #[test]
    fn movetime_is_respected() {
        let limits = Limits {
            movetime: Some(500),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Color::White, 20);
        assert_eq!(tm.hard_ms(), Some(480));
        assert_eq!(tm.soft_ms(), None, "movetime is spent in full");
    }

    #[test]
    fn missing_own_clock_falls_back_to_the_other() {
        let limits = Limits {
            wtime: Some(3000),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Color::Black, 10);
        assert!(tm.hard_ms().is_some_and(|h| h <= 1000));
    }

    #[test]
    fn huge_clocks_do_not_overflow() {
        let mut limits = clock(u64::MAX / 2, u64::MAX / 2);
        limits.movestogo = Some(1);
        let tm = TimeManager::new(&limits, Color::White, 10);
        assert!(tm.hard_ms().unwrap() > 1_000_000_000);
        let tm = TimeManager::new(&clock(u64::MAX / 2, u64::MAX / 2), Color::White, 10);
        assert!(tm.soft_ms().unwrap() > 1_000_000_000);
    }

    #[test]
    fn a_contested_best_move_gets_more_time_than_a_settled_one() {
        use shakmaty::{Role, Square};
        let a = Move::Normal {
            role: Role::Knight,
            from: Square::G1,
            capture: None,
            to: Square::F3,
            promotion: None,
        };
        let b = Move::Normal {
            role: Role::Pawn,
            from: Square::E2,
            capture: None,
            to: Square::E4,
            promotion: None,
        };
        let mut nodes = RootNodes::default();
        nodes.add(a, 900);
        nodes.add(b, 50);
        nodes.add(b, 50);
        assert_eq!(nodes.time_percent(a, 1), 100);
        let settled = nodes.time_percent(a, 12);
        let contested = nodes.time_percent(b, 12);
        assert!(settled < 100 && contested > 100, "{settled} {contested}");
    }

    #[test]
    fn no_clock_means_no_limit() {
        let tm = TimeManager::new(&Limits::depth(5), Color::White, 10);
        assert_eq!(tm.hard_ms(), None);
    }
}
