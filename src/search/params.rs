//! Every tunable number of the search in one place.

pub const ASPIRATION_MIN_DEPTH: i32 = 4;
pub const ASPIRATION_DELTA: i32 = 18;

pub const RFP_MAX_DEPTH: i32 = 8;
pub const RFP_MARGIN: i32 = 75;

pub const RAZOR_MAX_DEPTH: i32 = 3;
pub const RAZOR_MARGIN: i32 = 240;

pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE_REDUCTION: i32 = 3;
pub const NMP_DEPTH_DIVISOR: i32 = 3;
pub const NMP_EVAL_DIVISOR: i32 = 200;

pub const IIR_MIN_DEPTH: i32 = 4;

pub const LMP_BASE: i32 = 3;
pub const FUTILITY_MAX_DEPTH: i32 = 8;
pub const FUTILITY_BASE: i32 = 90;
pub const FUTILITY_PER_DEPTH: i32 = 95;
pub const SEE_QUIET_MARGIN: i32 = 60;
pub const SEE_CAPTURE_MARGIN: i32 = 25;
pub const SEE_PRUNE_MAX_DEPTH: i32 = 8;
pub const HISTORY_PRUNE_MAX_DEPTH: i32 = 4;
pub const HISTORY_PRUNE_MARGIN: i32 = 3000;

pub const SINGULAR_MIN_DEPTH: i32 = 8;
pub const SINGULAR_TT_DEPTH_SLACK: i32 = 3;
pub const SINGULAR_DOUBLE_MARGIN: i32 = 20;

pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;
pub const LMR_HISTORY_DIVISOR: i32 = 8192;
/// After a reduced search beats alpha, the full-depth re-search goes one
/// ply deeper when the score clears the best so far by this much (plus
/// 2 per ply), one ply shallower when it barely beats it.
pub const LMR_DEEPER_MARGIN: i32 = 40;
pub const LMR_SHALLOWER_MARGIN: i32 = 10;

pub const QS_DELTA_MARGIN: i32 = 180;
/// Quiet check evasions searched in quiescence once one line avoids mate.
pub const QS_QUIET_EVASIONS: i32 = 1;

/// History tables saturate at this magnitude (gravity).
pub const HISTORY_MAX: i32 = 16384;
pub const HISTORY_BONUS_PER_DEPTH: i32 = 300;
pub const HISTORY_BONUS_MAX: i32 = 2400;
/// Butterfly history of the opponent's quiet move moves by this many
/// units per centipawn the move changed the static evaluation, at most
/// by the cap.
pub const EVAL_DIFF_HISTORY_SCALE: i32 = 8;
pub const EVAL_DIFF_HISTORY_MAX: i32 = 1200;
/// What the two tempo bonuses add to a quiet move's apparent loss.
pub const EVAL_DIFF_TEMPO_CP: i32 = 40;
/// Rows of pawn history (one per pawn-structure hash bucket).
pub const PAWN_HISTORY_ENTRIES: usize = 512;
/// How many plies back the moves are that continuation history pairs with
/// the move being scored.
pub const CONTINUATION_PLIES: [usize; 3] = [1, 2, 4];
// The countermove table is keyed by the first of these, the previous move.
const _: () = assert!(CONTINUATION_PLIES[0] == 1);

/// Piece values used by SEE and move ordering (not evaluation).
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 950, 20000];

/// Correction history: entries per side, 1/GRAIN cp units, the largest
/// correction, and the weight (of 256) a deep search's error gets.
pub const CORRECTION_ENTRIES: usize = 16384;
pub const CORRECTION_GRAIN: i32 = 256;
pub const CORRECTION_MAX_CP: i32 = 64;
pub const CORRECTION_MAX_WEIGHT: i32 = 16;

/// Depths at which raising alpha cuts one ply from the later moves.
pub const ALPHA_RAISE_MIN_DEPTH: i32 = 3;
pub const ALPHA_RAISE_MAX_DEPTH: i32 = 11;

/// ProbCut: from this depth, a capture searched this much shallower must
/// beat beta by this margin.
pub const PROBCUT_MIN_DEPTH: i32 = 5;
pub const PROBCUT_REDUCTION: i32 = 4;
pub const PROBCUT_MARGIN: i32 = 200;

// ---- time management ----

/// Moves we plan for when the GUI gives no `movestogo`.
pub const DEFAULT_MOVES_TO_GO: u64 = 20;
/// Never plan to use more than this share of the clock on one move.
pub const HARD_SHARE_NUM: u64 = 1;
pub const HARD_SHARE_DEN: u64 = 4;
/// The hard limit is at most this many times the soft limit.
pub const HARD_PER_SOFT: u64 = 3;
/// The soft limit never takes more than this share of the clock, so on a
/// short clock the increment rebuilds a reserve instead of being spent.
pub const SOFT_SHARE_DEN: u64 = 10;
/// An iteration takes about as long as all before it together, so one
/// started past this share of the budget would mostly run into the hard
/// limit and be thrown away.
pub const START_NEXT_ITERATION_PERCENT: u64 = 60;

/// Percent of the soft limit allowed by how many iterations in a row the
/// best move has stayed the same (0, 1, 2, 3, more).
pub const TM_STABILITY_PERCENT: [u64; 5] = [140, 115, 100, 90, 75];
/// (centipawns, percent): the share of the soft limit allowed when the
/// score fell by more than that many centipawns since the last iteration.
pub const TM_SCORE_DROP_BIG: (i32, u64) = (40, 130);
pub const TM_SCORE_DROP_SMALL: (i32, u64) = (15, 112);
/// Soft-limit percent from the best move's share of root nodes:
/// (PIVOT - share%) * SLOPE / 100, from this depth on.
pub const TM_NODE_SHARE_MIN_DEPTH: u32 = 6;
pub const TM_NODE_SHARE_PIVOT: u64 = 150;
pub const TM_NODE_SHARE_SLOPE: u64 = 135;
