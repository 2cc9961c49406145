//! The search: iterative deepening with aspiration windows over a
//! principal variation search (`pvs.rs`). It reports what it finds as
//! events and never prints.

mod correction;
mod eval_cache;
pub mod history;
pub mod limits;
pub mod ordering;
pub mod params;
mod pvs;
pub mod see;
pub mod threads;
pub mod time;

use std::time::Duration;

use shakmaty::{Chess, Color, Move, Position as _};

use crate::eval::nnue::AccumulatorStack;
use crate::position::Position;
use crate::tt::{Bound, TranspositionTable};
use eval_cache::EvalCache;
pub use history::History;
use history::QuietKeys;
pub use limits::{Limits, SearchControl, SearchOptions};
use params::*;
use time::{RootNodes, TimeManager};

pub const MAX_PLY: usize = 128;
pub const MATE: i32 = 32000;
pub const INFINITY: i32 = 32100;
/// Scores beyond this are mates found within the search horizon.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// A tablebase win at the root; one found `ply` plies deep scores
/// `TB_WIN - ply`, above every evaluation and below every mate.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores beyond this are tablebase wins or mates.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
pub const DRAW: i32 = 0;
const EVAL_NONE: i32 = -32768;
pub const MAX_DEPTH: u32 = (MAX_PLY - 8) as u32;

/// One finished (or bounded) line of one iteration.
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of the line.
    pub multipv: usize,
    /// From the side to move; see `mate_in` for mate scores.
    pub score: i32,
    pub bound: Bound,
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    /// Tablebase probes that answered.
    pub tb_hits: u64,
    pub pv: Vec<Move>,
}

/// Moves to mate (positive: we mate) for a mate score, else `None`.
pub fn mate_in(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

pub enum SearchEvent<'a> {
    Iteration(&'a Report),
    BestMove {
        best: Option<Move>,
        ponder: Option<Move>,
    },
}

/// What a finished search found, for tools (bench, epd) that call in directly.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Per-ply scratch state.
#[derive(Clone, Copy)]
struct Frame {
    static_eval: i32,
    /// The move played from this ply and its mover (None: a null move or
    /// none yet).
    played: Option<(Color, Move)>,
    null_move: bool,
    excluded: Option<Move>,
    killers: [Option<Move>; 2],
    /// Set once the node starts its move loop.
    quiet_keys: QuietKeys,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            static_eval: EVAL_NONE,
            played: None,
            null_move: false,
            excluded: None,
            killers: [None; 2],
            quiet_keys: QuietKeys::default(),
        }
    }
}

struct PvTable {
    moves: Vec<[Option<Move>; MAX_PLY + 1]>,
    len: [usize; MAX_PLY + 1],
}

impl PvTable {
    fn new() -> Self {
        PvTable {
            moves: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            len: [0; MAX_PLY + 1],
        }
    }

    fn clear(&mut self, ply: usize) {
        self.len[ply] = 0;
    }

    fn update(&mut self, ply: usize, m: Move) {
        let child_len = if ply < MAX_PLY { self.len[ply + 1] } else { 0 };
        self.moves[ply][0] = Some(m);
        for i in 0..child_len {
            self.moves[ply][i + 1] = self.moves[ply + 1][i];
        }
        self.len[ply] = child_len + 1;
    }

    fn line(&self, ply: usize) -> Vec<Move> {
        self.moves[ply][..self.len[ply]]
            .iter()
            .flatten()
            .copied()
            .collect()
    }
}

/// The late-move reduction before adjustments: it grows with the log of
/// the depth and of the move's number (none at depth or move 0).
fn lmr_formula(depth: usize, move_number: usize) -> i32 {
    if depth == 0 || move_number == 0 {
        return 0;
    }
    let base = f64::from(lmr_base_pct()) / 100.0;
    let divisor = f64::from(lmr_divisor_pct()) / 100.0;
    (base + (depth as f64).ln() * (move_number as f64).ln() / divisor) as i32
}

fn base_reduction(depth: i32, move_number: usize) -> i32 {
    let (d, m) = ((depth.max(0) as usize).min(63), move_number.min(63));
    // Tuned values may change between searches, so a tune build computes.
    #[cfg(feature = "tune")]
    return lmr_formula(d, m);
    #[cfg(not(feature = "tune"))]
    lmr_table()[d][m]
}

#[cfg(not(feature = "tune"))]
fn lmr_table() -> &'static [[i32; 64]; 64] {
    use std::sync::OnceLock;
    static TABLE: OnceLock<[[i32; 64]; 64]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[0; 64]; 64];
        for (d, row) in t.iter_mut().enumerate() {
            for (m, r) in row.iter_mut().enumerate() {
                *r = lmr_formula(d, m);
            }
        }
        t
    })
}

pub struct Searcher<'a> {
    tt: &'a TranspositionTable,
    ctl: &'a SearchControl,
    /// The helper threads' control, read for their node count.
    helpers: Option<&'a SearchControl>,
    history: &'a mut History,
    limits: &'a Limits,
    time: TimeManager,
    nodes: u64,
    seldepth: usize,
    /// The depth of the iteration under way.
    root_depth: usize,
    stopped: bool,
    /// Keys of the game so far, then of the search path.
    keys: Vec<u64>,
    root_index: usize,
    frames: Vec<Frame>,
    pv: PvTable,
    root_excluded: Vec<Move>,
    /// Score and line of the best root move whose search finished at the
    /// current depth (in any aspiration pass), so a stopped iteration can
    /// still offer it.
    root_best: Option<(i32, Vec<Move>)>,
    root_nodes: RootNodes,
    /// One move-ordering buffer per ply, reused from node to node.
    move_buffers: Vec<Vec<(Move, i32)>>,
    /// The evaluation net's first layer for the position at each ply.
    accumulators: AccumulatorStack,
    eval_cache: EvalCache,
    tablebases: Option<std::sync::Arc<crate::tablebase::Tablebases>>,
    syzygy_probe_depth: i32,
    syzygy_50_move_rule: bool,
    tb_hits: u64,
}

impl<'a> Searcher<'a> {
    pub fn new(
        root: &Position,
        limits: &'a Limits,
        options: &SearchOptions,
        tt: &'a TranspositionTable,
        ctl: &'a SearchControl,
        history: &'a mut History,
    ) -> Self {
        let mut keys = root.history().to_vec();
        let root_index = keys.len();
        keys.push(root.key());
        Searcher {
            tt,
            ctl,
            helpers: None,
            history,
            limits,
            time: TimeManager::new(limits, root.board().turn(), options.move_overhead_ms),
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            stopped: false,
            keys,
            root_index,
            frames: vec![Frame::default(); MAX_PLY + 4],
            accumulators: AccumulatorStack::new(root.board().board(), MAX_PLY + 4),
            pv: PvTable::new(),
            root_excluded: Vec::new(),
            root_best: None,
            root_nodes: RootNodes::default(),
            move_buffers: (0..MAX_PLY + 4).map(|_| Vec::with_capacity(64)).collect(),
            eval_cache: EvalCache::default(),
            tablebases: options.tablebases.clone(),
            syzygy_probe_depth: options.syzygy_probe_depth,
            syzygy_50_move_rule: options.syzygy_50_move_rule,
            tb_hits: 0,
        }
    }

    /// Counts the nodes of helper threads under `helpers` as this search's
    /// own in reports and in a `go nodes` budget.
    pub fn with_helpers(mut self, helpers: &'a SearchControl) -> Self {
        self.helpers = Some(helpers);
        self
    }

    /// Nodes searched by this thread and its helpers.
    fn total_nodes(&self) -> u64 {
        self.nodes + self.helpers.map_or(0, SearchControl::nodes)
    }

    /// Runs iterative deepening to the limits and reports every line and
    /// then exactly one best move. The caller starts the table's new search
    /// (once for all threads).
    pub fn run(
        &mut self,
        root: &Position,
        options: &SearchOptions,
        report: &mut dyn FnMut(SearchEvent),
    ) -> SearchResult {
        let board = root.board().clone();
        let key = root.key();
        let legal: Vec<Move> = board.legal_moves().into_iter().collect();
        let mut allowed: Vec<Move> = if self.limits.searchmoves.is_empty() {
            legal.clone()
        } else {
            legal
                .iter()
                .copied()
                .filter(|m| self.limits.searchmoves.contains(m))
                .collect()
        };
        self.keep_tablebase_moves(&board, &mut allowed);
        let mut result = SearchResult {
            best: allowed.first().copied(),
            ..SearchResult::default()
        };
        let mut best_line: Vec<Move> = result.best.into_iter().collect();
        if !allowed.is_empty() {
            self.iterate(
                &board,
                key,
                &allowed,
                options,
                report,
                &mut result,
                &mut best_line,
            );
        }
        self.wait_while_infinite_or_pondering();
        result.ponder = best_line.get(1).copied().or_else(|| {
            result
                .best
                .and_then(|m| self.ponder_move_from_tt(&board, key, m))
        });
        result.nodes = self.total_nodes();
        result.elapsed = self.ctl.started().elapsed();
        report(SearchEvent::BestMove {
            best: result.best,
            ponder: result.ponder,
        });
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn iterate(
        &mut self,
        board: &Chess,
        key: u64,
        allowed: &[Move],
        options: &SearchOptions,
        report: &mut dyn FnMut(SearchEvent),
        result: &mut SearchResult,
        best_line: &mut Vec<Move>,
    ) {
        let max_depth = self
            .limits
            .depth
            .map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH));
        let lines = options.multipv.clamp(1, allowed.len());
        let mut prev_scores = vec![0; lines];
        let mut stability = 0u64;
        let mut last_score: Option<i32> = None;
        for depth in 1..=max_depth {
            self.root_excluded = legal_complement(board, allowed);
            let base_excluded = self.root_excluded.len();
            // Each line is searched without the first moves of the lines
            // before it; the finished set is reported best first.
            let mut found: Vec<(i32, Vec<Move>)> = Vec::with_capacity(lines);
            let mut partial = false;
            for (line, &prev) in prev_scores.iter().enumerate() {
                self.seldepth = 0;
                let Some((score, pv)) =
                    self.aspiration(board, key, depth as i32, prev, line, report)
                else {
                    break;
                };
                let Some(&first) = pv.first() else { break };
                self.root_excluded.push(first);
                found.push((score, pv));
                // A line handed back by a stopped pass past depth 1 (only
                // ever the first) only knows its move scores at least this.
                partial = self.stopped && depth > 1;
            }
            found.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
            let bound = if partial { Bound::Lower } else { Bound::Exact };
            for (line, (score, pv)) in found.iter().enumerate() {
                prev_scores[line] = *score;
                self.emit(depth, line, *score, bound, pv.clone(), report);
            }
            if let Some((score, pv)) = found.first() {
                if result.best == pv.first().copied() {
                    stability += 1;
                } else {
                    stability = 0;
                }
                result.best = pv.first().copied();
                result.score = *score;
                if !partial {
                    result.depth = depth;
                }
                *best_line = pv.clone();
            }
            self.root_excluded.truncate(base_excluded);
            if self.stopped {
                break;
            }
            if self.mate_limit_reached(result.score) {
                break;
            }
            let mut scale = self.time_scale(stability, last_score, result.score);
            // With several lines the best move shares the nodes by design.
            if let Some(best) = result.best.filter(|_| lines == 1) {
                scale = scale * self.root_nodes.time_percent(best, depth) / 100;
            }
            last_score = Some(result.score);
            if self.time.soft_expired(self.ctl, scale) {
                break;
            }
        }
    }

    /// Percent of the soft limit to allow: more when the best move keeps
    /// changing or the score falls.
    fn time_scale(&self, stability: u64, last: Option<i32>, score: i32) -> u64 {
        let last_index = TM_STABILITY_PERCENT.len() - 1;
        let by_stability = TM_STABILITY_PERCENT[(stability as usize).min(last_index)];
        let drop = last.map_or(0, |l| l - score);
        let by_score = if drop > TM_SCORE_DROP_BIG.0 {
            TM_SCORE_DROP_BIG.1
        } else if drop > TM_SCORE_DROP_SMALL.0 {
            TM_SCORE_DROP_SMALL.1
        } else {
            100
        };
        by_stability * by_score / 100
    }

    fn mate_limit_reached(&self, score: i32) -> bool {
        match (self.limits.mate, mate_in(score)) {
            (Some(limit), Some(n)) => n > 0 && n <= limit as i32,
            _ => false,
        }
    }

    fn aspiration(
        &mut self,
        board: &Chess,
        key: u64,
        depth: i32,
        prev: i32,
        line: usize,
        report: &mut dyn FnMut(SearchEvent),
    ) -> Option<(i32, Vec<Move>)> {
        let mut delta = aspiration_delta();
        let (mut alpha, mut beta) = if depth >= aspiration_min_depth() {
            ((prev - delta).max(-INFINITY), (prev + delta).min(INFINITY))
        } else {
            (-INFINITY, INFINITY)
        };
        self.root_best = None;
        self.root_depth = depth as usize;
        loop {
            let score = self.negamax(board, key, depth, alpha, beta, 0, false);
            if self.stopped {
                return self.stopped_line(depth, line);
            }
            if score <= alpha {
                self.emit(
                    depth as u32,
                    line,
                    alpha,
                    Bound::Upper,
                    self.pv.line(0),
                    report,
                );
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                self.emit(
                    depth as u32,
                    line,
                    beta,
                    Bound::Lower,
                    self.pv.line(0),
                    report,
                );
                beta = (score + delta).min(INFINITY);
            } else {
                return Some((score, self.pv.line(0)));
            }
            delta += delta / 2;
        }
    }

    /// What a stopped iteration can still offer: any move at depth 1
    /// (better than none), and later the first line's best fully searched
    /// move. The previous best is searched first, so a different move here
    /// has beaten it at this depth; a fail-high move beat the window.
    fn stopped_line(&self, depth: i32, line: usize) -> Option<(i32, Vec<Move>)> {
        let best = self.root_best.clone()?;
        (depth == 1 || line == 0).then_some(best)
    }

    fn emit(
        &self,
        depth: u32,
        line: usize,
        score: i32,
        bound: Bound,
        pv: Vec<Move>,
        report: &mut dyn FnMut(SearchEvent),
    ) {
        if pv.is_empty() {
            return;
        }
        let r = Report {
            depth,
            seldepth: (self.seldepth as u32).max(depth),
            multipv: line + 1,
            score,
            bound,
            nodes: self.total_nodes(),
            elapsed: self.ctl.started().elapsed(),
            hashfull: self.tt.hashfull(),
            tb_hits: self.tb_hits,
            pv,
        };
        report(SearchEvent::Iteration(&r));
    }

    /// Narrows the root moves to those the tablebases say keep the best
    /// outcome, when they cover the root: the search then only chooses
    /// among drawing moves, and plays the fastest win the tables know
    /// rather than wander until the 50-move rule.
    fn keep_tablebase_moves(&mut self, board: &Chess, allowed: &mut Vec<Move>) {
        let Some(keep) = self.tablebases.as_ref().and_then(|tb| tb.root_moves(board)) else {
            return;
        };
        self.tb_hits += 1;
        let narrowed: Vec<Move> = allowed
            .iter()
            .copied()
            .filter(|m| keep.contains(m))
            .collect();
        // `searchmoves` may have left out every move the tables keep; then
        // the user's choice stands.
        if !narrowed.is_empty() {
            *allowed = narrowed;
        }
    }

    /// `go infinite` and `go ponder` must not answer before `stop` (or
    /// `ponderhit`), even when the search has nothing left to do.
    fn wait_while_infinite_or_pondering(&self) {
        while (self.limits.infinite || self.ctl.is_pondering()) && !self.ctl.is_stopped() {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    fn ponder_move_from_tt(&self, board: &Chess, key: u64, best: Move) -> Option<Move> {
        let mut child = board.clone();
        child.play_unchecked(best);
        let child_key = crate::position::key_after(board, key, best, &child);
        let entry = self.tt.probe(child_key)?;
        child
            .legal_moves()
            .into_iter()
            .find(|m| entry.mv.matches(*m))
    }

    /// Counts a node unless the search has already stopped; false means the
    /// caller must return at once. Checking before counting keeps a `go
    /// nodes N` search at N nodes even when several calls (ProbCut,
    /// singular verification) are entered after the limit was reached.
    fn enter_node(&mut self) -> bool {
        if self.stopped {
            return false;
        }
        self.nodes += 1;
        self.check_limits();
        !self.stopped
    }

    fn check_limits(&mut self) {
        if let Some(limit) = self.limits.nodes
            && self.total_nodes() >= limit
        {
            self.stopped = true;
        }
        if self.nodes & 1023 == 0 {
            self.ctl.add_nodes(1024);
            if self.ctl.is_stopped() || self.time.hard_expired(self.ctl) {
                self.stopped = true;
            }
        }
    }
}

/// Legal root moves not in `allowed` (those `searchmoves` left out).
fn legal_complement(board: &Chess, allowed: &[Move]) -> Vec<Move> {
    board
        .legal_moves()
        .into_iter()
        .filter(|m| !allowed.contains(m))
        .collect()
}

/// Searches `root` to `limits` on the calling thread and returns the result;
/// for tools that do not need the UCI machinery.
pub fn search_position(
    root: &Position,
    limits: &Limits,
    options: &SearchOptions,
    tt: &TranspositionTable,
    history: &mut History,
    report: &mut dyn FnMut(SearchEvent),
) -> SearchResult {
    let ctl = SearchControl::new(false);
    let histories = std::slice::from_mut(history);
    threads::search_with_threads(root, limits, options, tt, &ctl, histories, report)
}

#[cfg(test)]
mod tests;
