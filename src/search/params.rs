//! Every tunable number of the search in one place.
//!
//! The numbers a tuner may move are read through functions (`rfp_margin()`
//! and so on). In a normal build each is a constant function the compiler
//! folds away; built with `--features tune`, each reads a value that a UCI
//! option of the same name sets, so a tuner such as
//! `uci-scripts/spsa.py` can play matches between two settings without
//! rebuilding. The numbers that shape tables stay plain constants.

/// One tunable number: its UCI option name, default and allowed range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunable {
    pub name: &'static str,
    pub default: i64,
    pub min: i64,
    pub max: i64,
}

#[cfg(not(feature = "tune"))]
macro_rules! tunables {
    ($($(#[$doc:meta])* $name:ident: $ty:ty = $default:expr, $min:literal..=$max:literal;)*) => {
        $(
            $(#[$doc])*
            #[inline(always)]
            pub const fn $name() -> $ty {
                $default
            }
        )*

        /// A normal build has nothing to tune at run time.
        pub const TUNABLES: &[Tunable] = &[];

        /// Sets a tunable by name; a normal build has none.
        pub fn set_tunable(_name: &str, _value: i64) -> bool {
            false
        }
    };
}

#[cfg(feature = "tune")]
macro_rules! tunables {
    ($($(#[$doc:meta])* $name:ident: $ty:ty = $default:expr, $min:literal..=$max:literal;)*) => {
        #[allow(non_upper_case_globals)]
        mod cells {
            use std::sync::atomic::AtomicI64;
            $(pub static $name: AtomicI64 = AtomicI64::new($default);)*
        }

        $(
            $(#[$doc])*
            #[inline(always)]
            pub fn $name() -> $ty {
                cells::$name.load(std::sync::atomic::Ordering::Relaxed) as $ty
            }
        )*

        /// Every tunable, in declaration order, offered as a UCI option.
        pub const TUNABLES: &[Tunable] = &[$(Tunable {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
        }),*];

        /// Sets a tunable by name (clamped to its range); false if there is
        /// no such tunable.
        pub fn set_tunable(name: &str, value: i64) -> bool {
            match name {
                $(stringify!($name) => cells::$name
                    .store(value.clamp($min, $max), std::sync::atomic::Ordering::Relaxed),)*
                _ => return false,
            }
            true
        }
    };
}

tunables! {
    aspiration_min_depth: i32 = 4, 1..=10;
    aspiration_delta: i32 = 18, 5..=60;

    rfp_max_depth: i32 = 8, 3..=14;
    rfp_margin: i32 = 75, 30..=160;
    /// The margin loses 1/N of itself when the opponent's last move
    /// worsened their own static evaluation.
    rfp_worsening_divisor: i32 = 3, 2..=8;

    razor_max_depth: i32 = 3, 1..=6;
    /// Razoring margin: base plus this times depth squared, so that it
    /// grows fast enough for a depth-3 node to need a lost position, not
    /// merely a bad one, before it is left to quiescence.
    razor_margin: i32 = 250, 100..=500;
    razor_base: i32 = 300, 0..=600;

    nmp_min_depth: i32 = 3, 2..=6;
    nmp_base_reduction: i32 = 3, 1..=6;
    nmp_depth_divisor: i32 = 3, 2..=8;
    nmp_eval_divisor: i32 = 200, 80..=400;

    iir_min_depth: i32 = 4, 2..=8;

    lmp_base: i32 = 3, 0..=10;
    /// Late-move pruning waits while every move so far has scored this far
    /// below the static evaluation (the moves that save a hanging piece are
    /// often ordered late).
    lmp_rescue_margin: i32 = 250, 100..=1000;
    futility_max_depth: i32 = 8, 3..=14;
    futility_base: i32 = 90, 20..=200;
    futility_per_depth: i32 = 95, 40..=200;
    see_quiet_margin: i32 = 60, 20..=150;
    see_capture_margin: i32 = 25, 5..=80;
    see_prune_max_depth: i32 = 8, 3..=14;
    /// A capture's SEE pruning threshold moves a centipawn per this much
    /// capture history, by at most the cap.
    see_capture_history_divisor: i32 = 64, 16..=256;
    see_capture_history_cap: i32 = 256, 0..=600;
    /// A capture is ordered with the good ones (before the quiet moves)
    /// when SEE loses at most this share (%) of the captured piece, and a
    /// centipawn more per this much capture history (less for a negative one).
    good_capture_victim_pct: i32 = 39, 0..=100;
    good_capture_history_divisor: i32 = 64, 16..=256;
    history_prune_max_depth: i32 = 4, 1..=8;
    history_prune_margin: i32 = 3000, 500..=8000;

    singular_min_depth: i32 = 8, 4..=12;
    singular_tt_depth_slack: i32 = 3, 1..=6;
    singular_double_margin: i32 = 20, 0..=80;

    lmr_min_depth: i32 = 3, 2..=5;
    /// The base reduction is (BASE + ln depth · ln move number / DIVISOR),
    /// both given in hundredths.
    lmr_base_pct: i32 = 75, 0..=200;
    lmr_divisor_pct: i32 = 225, 120..=400;
    lmr_history_divisor: i32 = 8192, 2000..=20000;
    /// A capture is reduced a ply less per this much capture history.
    lmr_capture_history_divisor: i32 = 6144, 2000..=20000;
    /// After a reduced search beats alpha, the full-depth re-search goes one
    /// ply deeper when the score clears the best so far by this much (plus
    /// 2 per ply), one ply shallower when it barely beats it.
    lmr_deeper_margin: i32 = 40, 0..=120;
    lmr_shallower_margin: i32 = 10, 0..=40;
    /// One ply less reduction where correction history moved the static
    /// evaluation by at least this many centipawns.
    lmr_correction_threshold: i32 = 32, 4..=128;

    qs_delta_margin: i32 = 180, 50..=400;
    /// Quiet check evasions searched in quiescence once one line avoids mate.
    qs_quiet_evasions: i32 = 1, 0..=4;

    history_bonus_per_depth: i32 = 300, 100..=600;
    history_bonus_max: i32 = 2400, 800..=5000;
    /// Butterfly history of the opponent's quiet move moves by this many
    /// units per centipawn the move changed the static evaluation, at most
    /// by the cap.
    eval_diff_history_scale: i32 = 8, 0..=30;
    eval_diff_history_max: i32 = 1200, 0..=4000;
    /// What the two tempo bonuses add to a quiet move's apparent loss.
    eval_diff_tempo_cp: i32 = 40, 0..=100;

    /// Correction history: the largest correction, and the weight (of 256)
    /// a deep search's error gets.
    correction_max_cp: i32 = 64, 16..=200;
    correction_max_weight: i32 = 16, 4..=64;

    /// Depths at which raising alpha cuts one ply from the later moves.
    alpha_raise_min_depth: i32 = 3, 1..=8;
    alpha_raise_max_depth: i32 = 11, 6..=20;

    /// ProbCut: from this depth, a capture searched this much shallower must
    /// beat beta by this margin.
    probcut_min_depth: i32 = 5, 3..=10;
    probcut_reduction: i32 = 4, 2..=6;
    probcut_margin: i32 = 200, 80..=400;

    // ---- time management ----

    /// Moves we plan for when the GUI gives no `movestogo`.
    default_moves_to_go: u64 = 20, 8..=40;
    /// The hard limit is at most this many times the soft limit.
    hard_per_soft: u64 = 3, 2..=6;
    /// The soft limit never takes more than this share of the clock, so on a
    /// short clock the increment rebuilds a reserve instead of being spent.
    soft_share_den: u64 = 10, 4..=20;
    /// An iteration takes about as long as all before it together, so one
    /// started past this share of the budget would mostly run into the hard
    /// limit and be thrown away.
    start_next_iteration_percent: u64 = 60, 30..=90;
    /// Soft-limit percent from the best move's share of root nodes:
    /// (PIVOT - share%) * SLOPE / 100, from this depth on.
    tm_node_share_min_depth: u32 = 6, 3..=12;
    tm_node_share_pivot: u64 = 150, 100..=250;
    tm_node_share_slope: u64 = 135, 50..=250;
}

/// History tables saturate at this magnitude (gravity).
pub const HISTORY_MAX: i32 = 16384;
/// Rows of pawn history (one per pawn-structure hash bucket).
pub const PAWN_HISTORY_ENTRIES: usize = 512;
/// How many plies back the moves are that continuation history pairs with
/// the move being scored.
pub const CONTINUATION_PLIES: [usize; 3] = [1, 2, 4];
/// The continuation history of the reply to the previous move counts this
/// many times in a quiet move's ordering score; the older pairings once.
pub const COUNTERMOVE_HISTORY_WEIGHT: i32 = 2;
/// Singular extensions are tried only at plies below this many times the
/// iteration depth: far below the root, extensions only feed each other.
pub const SINGULAR_MAX_PLY_PER_DEPTH: usize = 2;
// The countermove table is keyed by the first of these, the previous move.
const _: () = assert!(CONTINUATION_PLIES[0] == 1);

/// Piece values used by SEE and move ordering (not evaluation).
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 950, 20000];

/// Static evaluations the search remembers by position key (8 bytes
/// each: 128 kB, well inside a core's L2 cache; 256 kB did no better and
/// 1 MB worse).
pub const EVAL_CACHE_ENTRIES: usize = 1 << 14;

/// A tablebase verdict is exact whatever the depth: stored this many plies
/// deeper than the node so that searches of any depth take it.
pub const TB_STORE_DEPTH_BONUS: i32 = 6;

/// Correction history: entries per side and 1/GRAIN cp units.
pub const CORRECTION_ENTRIES: usize = 16384;
pub const CORRECTION_GRAIN: i32 = 256;

/// Never plan to use more than this share of the clock on one move.
pub const HARD_SHARE_NUM: u64 = 1;
pub const HARD_SHARE_DEN: u64 = 4;

/// Percent of the soft limit allowed by how many iterations in a row the
/// best move has stayed the same (0, 1, 2, 3, more).
pub const TM_STABILITY_PERCENT: [u64; 5] = [140, 115, 100, 90, 75];
/// (centipawns, percent): the share of the soft limit allowed when the
/// score fell by more than that many centipawns since the last iteration.
pub const TM_SCORE_DROP_BIG: (i32, u64) = (40, 130);
pub const TM_SCORE_DROP_SMALL: (i32, u64) = (15, 112);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tunables_have_sane_ranges() {
        for t in TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{t:?}");
        }
        #[cfg(feature = "tune")]
        {
            assert!(TUNABLES.len() > 40);
            assert!(set_tunable("rfp_margin", 10_000));
            assert_eq!(rfp_margin(), 160);
            assert!(set_tunable("rfp_margin", 75));
            assert!(!set_tunable("no_such_number", 1));
        }
        #[cfg(not(feature = "tune"))]
        assert!(!set_tunable("rfp_margin", 80));
    }
}
