//! Principal variation search and quiescence search.

use shakmaty::{Chess, Move, Position as _, Role};

use super::history::{PieceTo, PrevMoves, QuietKeys, bonus, captured_role};
use super::ordering::{MovePicker, is_bad_noisy, is_refutation};
use super::params::*;
use super::see::{see_ge, value};
use super::{
    DRAW, EVAL_NONE, INFINITY, MATE, MAX_PLY, Searcher, TB_WIN, TB_WIN_BOUND, base_reduction,
};
use crate::eval::evaluate_with;
use crate::movegen::{has_legal_move, noisy_moves};
use crate::position::{full_key, gives_check, key_after};
use crate::tablebase::Outcome as TbOutcome;
use crate::tt::{Bound, PackedMove, TtEntry};

/// Mate and tablebase scores are stored relative to the node, not the root.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Does a stored bound settle the question asked by this window?
fn bound_allows(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
        Bound::None => false,
    }
}

/// What ProbCut needs to know of the node it is tried at.
struct ProbCut {
    depth: i32,
    beta: i32,
    static_eval: i32,
    raw_eval: i32,
    cut_node: bool,
}

/// History bonus for a quiet move from the static evaluations before it
/// (mover's view) and after it (opponent's view): positive when the move
/// raised the mover's evaluation.
fn eval_diff_bonus(before: i32, after: i32) -> i32 {
    // Both evaluations include the side to move's tempo bonus.
    let gain = eval_diff_tempo_cp() - (before + after);
    (eval_diff_history_scale() * gain).clamp(-eval_diff_history_max(), eval_diff_history_max())
}

fn has_non_pawn_material(pos: &Chess) -> bool {
    let b = pos.board();
    let ours = b.by_color(pos.turn());
    (ours & !b.pawns() & !b.kings()).any()
}

/// Whether a capture may leave the opponent too little to win (no pawns and
/// at most two pieces: after it, a lone bishop or knight). The evaluation
/// then falls by far more than the piece's value, so delta pruning, which
/// assumes it cannot, would miss the drawing capture.
fn capture_may_leave_too_little(pos: &Chess) -> bool {
    let b = pos.board();
    (pos.them() & b.pawns()).is_empty() && (pos.them() & !b.pawns() & !b.kings()).count() <= 2
}

fn is_quiet(m: Move) -> bool {
    !m.is_capture() && !m.is_promotion()
}

/// What a node's move loop needs to know of the node itself.
struct Node {
    root: bool,
    pv_node: bool,
    cut_node: bool,
    in_check: bool,
    improving: bool,
    /// The opponent's last move lowered their own static evaluation.
    opponent_worsening: bool,
    /// The static evaluation, or the hash score where its bound is tighter.
    eval: i32,
    /// How far correction history moved the raw evaluation: large where
    /// the evaluation is known to misjudge this kind of position.
    correction: i32,
    tt_move_noisy: bool,
}

/// A node's position, key and ply, for the helpers of `negamax`.
#[derive(Clone, Copy)]
struct NodeAt<'p> {
    pos: &'p Chess,
    key: u64,
    ply: usize,
}

/// A move after the first, as the move loop sees it.
struct LateMove {
    m: Move,
    quiet: bool,
    /// The move's number in the loop, counting this one.
    move_count: usize,
    order_score: i32,
    /// Capture history of a capture (0 for other moves): how often this
    /// piece taking this kind of piece on this square has cut nodes off.
    capture_history: i32,
}

/// The moves a node has searched without a cut-off, for the history
/// malus when a later one cuts (as many as fit).
struct Tried {
    quiets: [Option<Move>; 64],
    quiet_count: usize,
    noisy: [Option<Move>; 32],
    noisy_count: usize,
}

impl Tried {
    fn new() -> Self {
        Tried {
            quiets: [None; 64],
            quiet_count: 0,
            noisy: [None; 32],
            noisy_count: 0,
        }
    }

    fn push(&mut self, m: Move, quiet: bool) {
        if quiet {
            if let Some(slot) = self.quiets.get_mut(self.quiet_count) {
                *slot = Some(m);
                self.quiet_count += 1;
            }
        } else if let Some(slot) = self.noisy.get_mut(self.noisy_count) {
            *slot = Some(m);
            self.noisy_count += 1;
        }
    }

    fn quiets(&self) -> impl Iterator<Item = &Move> {
        self.quiets[..self.quiet_count].iter().flatten()
    }

    fn noisy(&self) -> impl Iterator<Item = &Move> {
        self.noisy[..self.noisy_count].iter().flatten()
    }
}

/// How a move after the first is to be searched.
#[derive(Clone, Copy)]
struct LateSearch {
    new_depth: i32,
    reduction: i32,
    alpha: i32,
    beta: i32,
    /// The best score among the moves before it.
    best_score: i32,
}

/// What a node stores once its moves are searched.
#[derive(Clone, Copy)]
struct Outcome {
    best_move: Option<Move>,
    best_score: i32,
    bound: Bound,
    depth: i32,
    raw_eval: i32,
    static_eval: i32,
}

/// The verdict of a singular-extension search.
enum Singular {
    /// Search the hash move this many plies deeper (negative: shallower).
    Extend(i32),
    /// The node is done: return this score.
    Return(i32),
}

/// What the move loop does with a late move before searching it.
#[derive(Debug, PartialEq, Eq)]
enum Prune {
    Search,
    Skip,
    /// Skip this and every later quiet move (late-move pruning).
    SkipQuiets,
}

/// Forward pruning of a late move: late-move pruning of quiets, futility
/// and history pruning of quiets, and SEE pruning of both.
/// `best_score` is the best of the moves before this one.
fn prune_late_move(
    pos: &Chess,
    late: &LateMove,
    depth: i32,
    alpha: i32,
    best_score: i32,
    node: &Node,
) -> Prune {
    let m = late.m;
    if !late.quiet {
        // A capture that has often cut elsewhere may lose a little more
        // material on SEE before it is pruned, one that rarely has less.
        let history_leeway = (late.capture_history / see_capture_history_divisor())
            .clamp(-see_capture_history_cap(), see_capture_history_cap());
        let losing = depth <= see_prune_max_depth()
            && !see_ge(
                pos,
                m,
                -see_capture_margin() * depth * depth - history_leeway,
            );
        return if losing && !gives_check(pos, m) {
            Prune::Skip
        } else {
            Prune::Search
        };
    }
    // Every move so far fell well short of the static evaluation: a threat
    // the evaluation does not see (a piece en prise), which some later move
    // may still parry, so the move count does not end the search yet.
    let behind = best_score < node.eval.saturating_sub(lmp_rescue_margin());
    let lmp_limit = (lmp_base() + depth * depth) / (2 - i32::from(node.improving));
    if late.move_count as i32 > lmp_limit && !behind {
        return Prune::SkipQuiets;
    }
    // Judge a late quiet move by the depth it would be searched to after
    // its reduction.
    let lmr_depth = (depth - 1 - base_reduction(depth, late.move_count)).max(0);
    let futile = !node.in_check
        && lmr_depth <= futility_max_depth()
        && node.eval + futility_base() + futility_per_depth() * lmr_depth <= alpha;
    let bad_history = depth <= history_prune_max_depth()
        && late.order_score < -history_prune_margin() * depth
        && late.order_score > -100_000_000;
    let losing =
        || lmr_depth <= see_prune_max_depth() && !see_ge(pos, m, -see_quiet_margin() * lmr_depth);
    // A quiet check may be the start of an attack the static eval cannot
    // see, so only LMP drops it.
    if (futile || bad_history || losing()) && !gives_check(pos, m) {
        Prune::Skip
    } else {
        Prune::Search
    }
}

/// Checks, captures and moves that put a piece where it can be taken for
/// less: at the root these are searched to full depth. A sacrifice that
/// starts a mating attack or wins material later looks hopeless to a
/// shallow search, and the root has few such moves to pay for.
fn is_forcing_or_sacrifice(pos: &Chess, late: &LateMove, gives_check: bool) -> bool {
    gives_check || !late.quiet || !see_ge(pos, late.m, 0)
}

/// Late-move reduction of a move after the first, in plies; 0 for moves
/// that are not reduced.
fn late_move_reduction(
    pos: &Chess,
    late: &LateMove,
    depth: i32,
    new_depth: i32,
    gives_check: bool,
    node: &Node,
) -> i32 {
    if depth < lmr_min_depth() || node.root && is_forcing_or_sacrifice(pos, late, gives_check) {
        return 0;
    }
    let good_noisy = !late.quiet && !is_bad_noisy(late.order_score);
    let mut reduction = base_reduction(depth, late.move_count);
    reduction += i32::from(!node.pv_node);
    reduction += i32::from(node.cut_node);
    reduction -= i32::from(node.improving);
    reduction -= i32::from(gives_check);
    // A noisy hash move is where this node's play is; quiet alternatives
    // are less likely to matter.
    reduction += i32::from(late.quiet && node.tt_move_noisy);
    reduction -= i32::from(node.correction.abs() >= lmr_correction_threshold());
    if !late.quiet {
        reduction -= late.capture_history / lmr_capture_history_divisor();
    }
    if good_noisy {
        // A capture that (nearly) holds its material is searched a ply
        // deeper than a quiet move of the same number would be.
        reduction -= 1;
    } else if late.quiet && is_refutation(late.order_score) {
        // Killers and the countermove have cut elsewhere, not here: one
        // ply, not the two the best history earns.
        reduction -= 1;
    } else if late.quiet {
        let cap = 2 * lmr_history_divisor();
        reduction -= late.order_score.clamp(-cap, cap) / lmr_history_divisor();
    }
    reduction.clamp(0, (new_depth - 1).max(0))
}

impl Searcher<'_> {
    fn previous_moves(&self, ply: usize) -> PrevMoves {
        CONTINUATION_PLIES.map(|back| {
            let (color, m) = self.frames[ply.checked_sub(back)?].played?;
            Some(PieceTo::new(color, m))
        })
    }

    fn is_draw(&self, pos: &Chess) -> bool {
        if pos.halfmoves() >= 100 && !(pos.is_check() && pos.legal_moves().is_empty()) {
            return true;
        }
        if pos.board().occupied().count() <= 4 && pos.is_insufficient_material() {
            return true;
        }
        self.is_repetition(pos.halfmoves() as usize)
    }

    /// A draw found in the search, one centipawn either side of zero by
    /// the node count: the search then does not settle on the first drawn
    /// line it meets when another equal line may still hold chances.
    fn draw_score(&self) -> i32 {
        DRAW - 1 + 2 * (self.nodes & 1) as i32
    }

    /// A repetition inside the search is a draw at once; one that reaches
    /// back before the root needs two earlier occurrences.
    fn is_repetition(&self, halfmoves: usize) -> bool {
        let current = self.keys.len() - 1;
        let key = self.keys[current];
        let oldest = current.saturating_sub(halfmoves);
        let mut seen_before_root = 0;
        let mut i = current;
        while i >= oldest + 2 {
            i -= 2;
            if self.keys[i] == key {
                if i > self.root_index {
                    return true;
                }
                seen_before_root += 1;
                if seen_before_root >= 2 {
                    return true;
                }
            }
        }
        false
    }

    fn make(&mut self, pos: &Chess, key: u64, m: Move, ply: usize) -> (Chess, u64) {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let child_key = key_after(pos, key, m, &child);
        self.tt.prefetch(child_key);
        self.update_accumulator(pos, m, &child, ply);
        self.frames[ply].played = Some((pos.turn(), m));
        self.frames[ply].null_move = false;
        self.keys.push(child_key);
        (child, child_key)
    }

    fn update_accumulator(&mut self, pos: &Chess, m: Move, child: &Chess, ply: usize) {
        self.accumulators
            .push_move(ply, pos.turn(), m, child.board());
    }

    fn evaluate(&mut self, pos: &Chess, key: u64, ply: usize) -> i32 {
        if let Some(eval) = self.eval_cache.get(key) {
            return eval;
        }
        let eval = evaluate_with(pos, self.accumulators.current(ply));
        self.eval_cache.put(key, eval);
        eval
    }

    fn unmake(&mut self) {
        self.keys.pop();
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        pos: &Chess,
        key: u64,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv.clear(ply);
        if depth <= 0 {
            return self.quiescence(pos, key, alpha, beta, ply);
        }
        if !self.enter_node() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply + 1);
        let in_check = pos.is_check();

        if !root {
            if self.is_draw(pos) {
                return self.draw_score();
            }
            if ply >= MAX_PLY - 1 {
                return if in_check {
                    DRAW
                } else {
                    self.evaluate(pos, key, ply)
                };
            }
            // Mate distance pruning: no line here can beat a shorter mate.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        let excluded = self.frames[ply].excluded;
        let tt_entry = if excluded.is_none() {
            self.tt.probe(key)
        } else {
            None
        };
        let tt_move = tt_entry.map_or(PackedMove::NONE, |e| e.mv);
        let tt_score = tt_entry.map(|e| score_from_tt(e.score, ply));
        if let (Some(e), Some(s)) = (tt_entry, tt_score)
            && !pv_node
            && e.depth >= depth
            && bound_allows(e.bound, s, alpha, beta)
        {
            return s;
        }

        // A tablebase answer ends the node when its bound settles the
        // window; otherwise it bounds what the moves below can return.
        let mut tb_range = (-INFINITY, INFINITY);
        if !root
            && excluded.is_none()
            && let Some((score, bound)) = self.probe_tablebase(pos, depth, ply)
        {
            if bound_allows(bound, score, alpha, beta) {
                let entry = TtEntry {
                    mv: PackedMove::NONE,
                    score: score_to_tt(score, ply),
                    eval: EVAL_NONE,
                    depth: (depth + TB_STORE_DEPTH_BONUS).min(MAX_PLY as i32 - 1),
                    bound,
                };
                self.tt.store(key, entry);
                return score;
            }
            tb_range = match bound {
                Bound::Lower => (score, INFINITY),
                _ => (-INFINITY, score),
            };
        }

        let (raw_eval, static_eval, eval) = if in_check {
            (EVAL_NONE, EVAL_NONE, EVAL_NONE)
        } else {
            self.node_evals(&NodeAt { pos, key, ply }, tt_entry, tt_score)
        };
        self.frames[ply].static_eval = static_eval;
        if tt_entry.is_none() && excluded.is_none() {
            self.judge_previous_move_by_eval(static_eval, ply);
        }
        let improving = self.is_improving(static_eval, ply);
        let opponent_worsening = self.is_opponent_worsening(static_eval, ply);
        if ply + 2 < self.frames.len() {
            self.frames[ply + 2].killers = [None; 2];
        }

        // En passant counts as quiet here: rare, and not worth a lookup.
        let tt_move_noisy = !tt_move.is_none()
            && (tt_move.promotion().is_some() || pos.them().contains(tt_move.to()));
        let node = Node {
            root,
            pv_node,
            cut_node,
            in_check,
            improving,
            opponent_worsening,
            eval,
            correction: if in_check { 0 } else { static_eval - raw_eval },
            tt_move_noisy,
        };
        if !pv_node && !in_check && excluded.is_none() {
            let at = NodeAt { pos, key, ply };
            let evals = (static_eval, raw_eval);
            if let Some(score) = self.prune_node(&at, depth, alpha, beta, &node, evals, tt_entry) {
                return score;
            }
        }

        // Internal iterative reduction: without a hash move the ordering
        // here is poor, so spend less.
        if depth >= iir_min_depth() && tt_move.is_none() && (pv_node || cut_node) {
            depth -= 1;
        }
        let prev = self.previous_moves(ply);
        let killers = self.frames[ply].killers;
        let quiet_keys = QuietKeys::of(pos);
        self.frames[ply].quiet_keys = quiet_keys;
        let buffer = std::mem::take(&mut self.move_buffers[ply]);
        let moves = pos.legal_moves();
        let mut picker = MovePicker::main(&moves, tt_move, killers, prev, quiet_keys, buffer);
        let mut best_score = -INFINITY;
        let mut best_move: Option<Move> = None;
        let mut move_count = 0usize;
        let mut skip_quiets = false;
        // A bare king has a handful of moves, and the one that reaches a
        // fortress (the corner against a wrong-coloured bishop) is often
        // ordered late: pruning it makes a drawn ending look won.
        let lone_king = (pos.us() & !pos.board().kings()).is_empty();
        let mut tried = Tried::new();

        while let Some((m, order_score)) = picker.pick_main(pos, self.history) {
            if Some(m) == excluded || (root && self.root_excluded.contains(&m)) {
                continue;
            }
            let quiet = is_quiet(m);
            if quiet && skip_quiets {
                continue;
            }
            move_count += 1;
            let capture_history =
                captured_role(m).map_or(0, |c| self.history.capture_score(pos.turn(), m, c));

            if !root && best_score > -TB_WIN_BOUND && !lone_king {
                let late = LateMove {
                    m,
                    quiet,
                    move_count,
                    order_score,
                    capture_history,
                };
                match prune_late_move(pos, &late, depth, alpha, best_score, &node) {
                    Prune::Search => {}
                    Prune::Skip => continue,
                    Prune::SkipQuiets => {
                        skip_quiets = true;
                        continue;
                    }
                }
            }

            let mut extension = 0;
            if let (Some(e), Some(s)) = (tt_entry, tt_score)
                && !root
                && depth >= singular_min_depth()
                && ply < SINGULAR_MAX_PLY_PER_DEPTH * self.root_depth
                && tt_move.matches(m)
                && e.depth >= depth - singular_tt_depth_slack()
                && matches!(e.bound, Bound::Lower | Bound::Exact)
                && s.abs() < TB_WIN_BOUND
            {
                let at = NodeAt { pos, key, ply };
                match self.singular_extension(&at, m, s, depth, beta, &node) {
                    Singular::Extend(by) => extension = by,
                    Singular::Return(score) => return score,
                }
            }

            let nodes_before = self.nodes;
            let (child, child_key) = self.make(pos, key, m, ply);
            let gives_check = child.is_check();
            if extension == 0 && gives_check {
                extension = 1;
            }
            // Never extend past the ply budget.
            if ply + depth as usize + 8 >= MAX_PLY {
                extension = extension.min(0);
            }
            let new_depth = depth - 1 + extension;

            let score = if move_count == 1 {
                -self.negamax(
                    &child,
                    child_key,
                    new_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    !pv_node && !cut_node,
                )
            } else {
                let late = LateMove {
                    m,
                    quiet,
                    move_count,
                    order_score,
                    capture_history,
                };
                let reduction =
                    late_move_reduction(pos, &late, depth, new_depth, gives_check, &node);
                let at = NodeAt {
                    pos: &child,
                    key: child_key,
                    ply: ply + 1,
                };
                let plan = LateSearch {
                    new_depth,
                    reduction,
                    alpha,
                    beta,
                    best_score,
                };
                self.search_late_move(&at, &plan, &node)
            };
            self.unmake();
            if root {
                self.root_nodes.add(m, self.nodes - nodes_before);
            }
            if self.stopped {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.pv.update(ply, m);
                    }
                    if root {
                        self.root_best = Some((score, self.pv.line(0)));
                    }
                    if score >= beta {
                        self.reward_cutoff(pos, m, depth, ply, &tried);
                        break;
                    }
                    alpha = score;
                    // With a good line in hand, the remaining moves only
                    // have to show they are not better: search them less.
                    if !root
                        && (alpha_raise_min_depth()..=alpha_raise_max_depth()).contains(&depth)
                        && score.abs() < TB_WIN_BOUND
                    {
                        depth -= 1;
                    }
                }
            }
            tried.push(m, quiet);
        }

        let no_legal_moves = picker.is_empty();
        self.move_buffers[ply] = picker.into_buffer();
        if move_count == 0 {
            return if excluded.is_some() {
                alpha
            } else if in_check {
                -MATE + ply as i32
            } else if no_legal_moves {
                DRAW
            } else {
                // Every legal move was excluded at the root by searchmoves
                // or MultiPV: nothing left to say about this line.
                -INFINITY
            };
        }

        best_score = best_score.clamp(tb_range.0, tb_range.1);
        if excluded.is_none() && (!root || self.root_excluded.is_empty()) {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if pv_node && best_move.is_some() {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let outcome = Outcome {
                best_move,
                best_score,
                bound,
                depth,
                raw_eval,
                static_eval,
            };
            self.record(&NodeAt { pos, key, ply }, &outcome);
        }
        best_score
    }

    /// The raw static evaluation (from the hash table when it has one),
    /// the same corrected by correction history, and the node's working
    /// evaluation: the corrected one, or the hash score where its bound says
    /// the truth lies beyond it. Not for positions in check.
    fn node_evals(
        &mut self,
        at: &NodeAt,
        tt_entry: Option<TtEntry>,
        tt_score: Option<i32>,
    ) -> (i32, i32, i32) {
        let raw_eval = self.raw_eval(at, tt_entry);
        let static_eval = self.history.correction.corrected(at.pos, raw_eval);
        let eval = match (tt_entry, tt_score) {
            (Some(e), Some(s))
                if e.bound == Bound::Exact
                    || (e.bound == Bound::Lower && s > static_eval)
                    || (e.bound == Bound::Upper && s < static_eval) =>
            {
                s
            }
            _ => static_eval,
        };
        (raw_eval, static_eval, eval)
    }

    /// The uncorrected static evaluation: the one stored with the hash
    /// entry when it has one, else computed.
    fn raw_eval(&mut self, at: &NodeAt, tt_entry: Option<TtEntry>) -> i32 {
        match tt_entry {
            Some(e) if e.eval != EVAL_NONE => e.eval,
            _ => self.evaluate(at.pos, at.key, at.ply),
        }
    }

    /// Whether the side to move stands better than at its previous turn.
    fn is_improving(&self, static_eval: i32, ply: usize) -> bool {
        static_eval != EVAL_NONE
            && ply >= 2
            && self.frames[ply - 2].static_eval != EVAL_NONE
            && static_eval > self.frames[ply - 2].static_eval
    }

    /// Whether the opponent's last move left them worse off by their own
    /// static evaluation than before it.
    fn is_opponent_worsening(&self, static_eval: i32, ply: usize) -> bool {
        static_eval != EVAL_NONE
            && ply >= 1
            && self.frames[ply - 1].static_eval != EVAL_NONE
            && static_eval > -self.frames[ply - 1].static_eval
    }

    /// Whole-node pruning before any move is searched, at non-PV nodes
    /// out of check: reverse futility, razoring, null move and ProbCut.
    /// `evals` is the corrected and the raw static evaluation.
    #[allow(clippy::too_many_arguments)]
    fn prune_node(
        &mut self,
        at: &NodeAt,
        depth: i32,
        alpha: i32,
        beta: i32,
        node: &Node,
        evals: (i32, i32),
        tt_entry: Option<TtEntry>,
    ) -> Option<i32> {
        let NodeAt { pos, key, ply } = *at;
        let eval = node.eval;
        // Reverse futility: far above beta, a quiet move will not fall below it.
        let mut margin = rfp_margin() * (depth - i32::from(node.improving));
        if node.opponent_worsening {
            margin -= margin / rfp_worsening_divisor();
        }
        if depth <= rfp_max_depth() && eval - margin >= beta && eval < TB_WIN_BOUND {
            return Some(eval);
        }
        // Razoring: hopeless positions only get a quiescence look.
        if depth <= razor_max_depth()
            && eval + razor_base() + razor_margin() * depth * depth < alpha
        {
            let q = self.quiescence(pos, key, alpha, alpha + 1, ply);
            if q <= alpha {
                return Some(q);
            }
        }
        if let Some(score) = self.try_null_move(pos, depth, eval, beta, ply, node.cut_node) {
            return Some(score);
        }
        let (static_eval, raw_eval) = evals;
        let probe = ProbCut {
            depth,
            beta,
            static_eval,
            raw_eval,
            cut_node: node.cut_node,
        };
        self.try_probcut(pos, key, ply, &probe, tt_entry)
    }

    /// A move after the first: a null-window search at reduced depth,
    /// re-searched at full depth (a ply more or less by how clearly it
    /// beat the best so far) when it beats alpha, and with the full window
    /// at PV nodes when it lands inside it. The score is the mover's.
    fn search_late_move(&mut self, child: &NodeAt, plan: &LateSearch, node: &Node) -> i32 {
        let NodeAt { pos, key, ply } = *child;
        let LateSearch {
            new_depth,
            reduction,
            alpha,
            beta,
            best_score,
        } = *plan;
        let mut s = -self.negamax(
            pos,
            key,
            new_depth - reduction,
            -alpha - 1,
            -alpha,
            ply,
            true,
        );
        let deeper = s > best_score + lmr_deeper_margin() + 2 * new_depth;
        let shallower = s < best_score + lmr_shallower_margin();
        let research_depth = new_depth + i32::from(deeper) - i32::from(shallower);
        if s > alpha && reduction > 0 && research_depth > new_depth - reduction {
            s = -self.negamax(
                pos,
                key,
                research_depth,
                -alpha - 1,
                -alpha,
                ply,
                !node.cut_node,
            );
        }
        if s > alpha && s < beta && node.pv_node {
            s = -self.negamax(pos, key, new_depth, -beta, -alpha, ply, false);
        }
        s
    }

    /// Stores a finished node in the hash table and lets its score correct
    /// the static evaluation where the two can be compared.
    fn record(&mut self, at: &NodeAt, o: &Outcome) {
        self.tt.store(
            at.key,
            TtEntry {
                mv: o.best_move.map_or(PackedMove::NONE, PackedMove::new),
                score: score_to_tt(o.best_score, at.ply),
                eval: o.raw_eval,
                depth: o.depth,
                bound: o.bound,
            },
        );
        if o.static_eval != EVAL_NONE
            && o.best_move.is_none_or(is_quiet)
            && o.best_score.abs() < TB_WIN_BOUND
            && !(o.bound == Bound::Lower && o.best_score <= o.static_eval)
            && !(o.bound == Bound::Upper && o.best_score >= o.static_eval)
        {
            self.history
                .correction
                .learn(at.pos, o.depth, o.static_eval, o.best_score);
        }
    }

    /// The tablebases' score and bound for `pos` when they cover it and it
    /// was just reached by a capture or pawn move (so that their verdict
    /// under the 50-move rule is exact).
    fn probe_tablebase(&mut self, pos: &Chess, depth: i32, ply: usize) -> Option<(i32, Bound)> {
        if depth < self.syzygy_probe_depth || pos.halfmoves() != 0 {
            return None;
        }
        let outcome = self.tablebases.as_ref()?.outcome_after_zeroing(pos)?;
        self.tb_hits += 1;
        let win = TB_WIN - ply as i32;
        let rule50 = self.syzygy_50_move_rule;
        Some(match outcome {
            TbOutcome::Win => (win, Bound::Lower),
            TbOutcome::Loss => (-win, Bound::Upper),
            TbOutcome::CursedWin if !rule50 => (win, Bound::Lower),
            TbOutcome::BlessedLoss if !rule50 => (-win, Bound::Upper),
            // Drawn by the rule, but only just: prefer it to a dead draw.
            TbOutcome::CursedWin => (DRAW + 1, Bound::Exact),
            TbOutcome::BlessedLoss => (DRAW - 1, Bound::Exact),
            TbOutcome::Draw => (DRAW, Bound::Exact),
        })
    }

    /// Singular extension: a search of the node without the hash move, at
    /// half depth and below the hash score, tells whether that move is the
    /// only good one (extend it), one of several (extend nothing, or even
    /// reduce it), or whether the node fails high without it (multi-cut).
    fn singular_extension(
        &mut self,
        at: &NodeAt,
        m: Move,
        tt_score: i32,
        depth: i32,
        beta: i32,
        node: &Node,
    ) -> Singular {
        let singular_beta = tt_score - 2 * depth;
        self.frames[at.ply].excluded = Some(m);
        let v = self.negamax(
            at.pos,
            at.key,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            at.ply,
            node.cut_node,
        );
        self.frames[at.ply].excluded = None;
        if self.stopped {
            return Singular::Return(0);
        }
        if v < singular_beta {
            let double = !node.pv_node && v < singular_beta - singular_double_margin();
            Singular::Extend(if double { 2 } else { 1 })
        } else if singular_beta >= beta {
            // Multi-cut: even without the hash move this node fails high.
            Singular::Return(singular_beta)
        } else if tt_score >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    fn try_null_move(
        &mut self,
        pos: &Chess,
        depth: i32,
        eval: i32,
        beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> Option<i32> {
        let after_null = ply > 0 && self.frames[ply - 1].null_move;
        if depth < nmp_min_depth()
            || eval < beta
            || after_null
            || !has_non_pawn_material(pos)
            || beta <= -TB_WIN_BOUND
        {
            return None;
        }
        let reduction = nmp_base_reduction()
            + depth / nmp_depth_divisor()
            + ((eval - beta) / nmp_eval_divisor()).min(3);
        let null = pos.clone().swap_turn().ok()?;
        let null_key = full_key(&null);
        self.frames[ply].played = None;
        self.frames[ply].null_move = true;
        self.keys.push(null_key);
        self.accumulators.push_null(ply);
        let score = -self.negamax(
            &null,
            null_key,
            depth - reduction,
            -beta,
            -beta + 1,
            ply + 1,
            !cut_node,
        );
        self.keys.pop();
        self.frames[ply].null_move = false;
        if self.stopped {
            return None;
        }
        (score >= beta).then_some(if score >= TB_WIN_BOUND { beta } else { score })
    }

    /// ProbCut: a good capture whose shallow search clears beta by a
    /// margin would almost surely clear beta at full depth too.
    fn try_probcut(
        &mut self,
        pos: &Chess,
        key: u64,
        ply: usize,
        probe: &ProbCut,
        tt_entry: Option<TtEntry>,
    ) -> Option<i32> {
        let probcut_beta = probe.beta + probcut_margin();
        if probe.depth < probcut_min_depth() || probe.beta.abs() >= TB_WIN_BOUND {
            return None;
        }
        // A search nearly as deep already found nothing this good.
        if let Some(e) = tt_entry
            && e.depth > probe.depth - probcut_reduction()
            && score_from_tt(e.score, ply) < probcut_beta
        {
            return None;
        }
        let mut moves = pos.legal_moves();
        moves.retain(|m| m.is_capture() || m.promotion() == Some(Role::Queen));
        let tt_move = tt_entry.map_or(PackedMove::NONE, |e| e.mv);
        let buffer = std::mem::take(&mut self.move_buffers[ply]);
        let mut picker = MovePicker::noisy(&moves, tt_move, buffer);
        let mut found = None;
        while let Some((m, _)) = picker.pick() {
            if !see_ge(pos, m, probcut_beta - probe.static_eval) {
                continue;
            }
            let (child, child_key) = self.make(pos, key, m, ply);
            let window = (-probcut_beta, -probcut_beta + 1);
            let mut score = -self.quiescence(&child, child_key, window.0, window.1, ply + 1);
            if score >= probcut_beta {
                score = -self.negamax(
                    &child,
                    child_key,
                    probe.depth - probcut_reduction(),
                    window.0,
                    window.1,
                    ply + 1,
                    !probe.cut_node,
                );
            }
            self.unmake();
            if self.stopped {
                break;
            }
            if score >= probcut_beta {
                self.tt.store(
                    key,
                    TtEntry {
                        mv: PackedMove::new(m),
                        score: score_to_tt(score, ply),
                        eval: probe.raw_eval,
                        depth: probe.depth - probcut_reduction() + 1,
                        bound: Bound::Lower,
                    },
                );
                found = Some(score);
                break;
            }
        }
        self.move_buffers[ply] = picker.into_buffer();
        found
    }

    /// How much the opponent's quiet move changed the static evaluation
    /// is a cheap early verdict on it, available before any search.
    fn judge_previous_move_by_eval(&mut self, static_eval: i32, ply: usize) {
        let Some(parent) = ply.checked_sub(1) else {
            return;
        };
        let before = self.frames[parent].static_eval;
        if static_eval == EVAL_NONE || before == EVAL_NONE {
            return;
        }
        if let Some((mover, m)) = self.frames[parent].played
            && is_quiet(m)
        {
            let delta = eval_diff_bonus(before, static_eval);
            let threats = self.frames[parent].quiet_keys.threats;
            self.history.update_butterfly(mover, m, threats, delta);
        }
    }

    fn reward_cutoff(&mut self, pos: &Chess, m: Move, depth: i32, ply: usize, tried: &Tried) {
        let b = bonus(depth);
        let color = pos.turn();
        let prev = self.previous_moves(ply);
        let keys = self.frames[ply].quiet_keys;
        if is_quiet(m) {
            let frame = &mut self.frames[ply];
            if frame.killers[0] != Some(m) {
                frame.killers[1] = frame.killers[0];
                frame.killers[0] = Some(m);
            }
            self.history.set_countermove(prev[0], m);
            self.history.update_quiet(color, m, prev, keys, b);
        } else if let Some(c) = captured_role(m) {
            self.history.update_capture(color, m, c, b);
        }
        // The quiet moves searched before the cut-off failed to cut here,
        // whether the move that did was quiet or noisy.
        for q in tried.quiets() {
            self.history.update_quiet(color, *q, prev, keys, -b);
        }
        for n in tried.noisy() {
            if let Some(c) = captured_role(*n) {
                self.history.update_capture(color, *n, c, -b);
            }
        }
    }

    pub(super) fn quiescence(
        &mut self,
        pos: &Chess,
        key: u64,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv.clear(ply);
        if !self.enter_node() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply + 1);
        let in_check = pos.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check {
                DRAW
            } else {
                self.evaluate(pos, key, ply)
            };
        }
        if pos.halfmoves() >= 100 && !in_check {
            return DRAW;
        }

        let tt_entry = self.tt.probe(key);
        if let Some(e) = tt_entry {
            let s = score_from_tt(e.score, ply);
            if bound_allows(e.bound, s, alpha, beta) && beta - alpha == 1 {
                return s;
            }
        }

        let raw_eval;
        let stand_pat;
        let mut best_score;
        if in_check {
            raw_eval = EVAL_NONE;
            stand_pat = EVAL_NONE;
            best_score = -INFINITY;
        } else {
            raw_eval = self.raw_eval(&NodeAt { pos, key, ply }, tt_entry);
            stand_pat = self.history.correction.corrected(pos, raw_eval);
            best_score = stand_pat;
            if let Some(e) = tt_entry {
                let s = score_from_tt(e.score, ply);
                if (e.bound == Bound::Lower && s > best_score)
                    || (e.bound == Bound::Upper && s < best_score)
                {
                    best_score = s;
                }
            }
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
        }

        let moves = if in_check {
            pos.legal_moves()
        } else {
            noisy_moves(pos)
        };
        if moves.is_empty() && (in_check || !has_legal_move(pos)) {
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }
        let tt_move = tt_entry.map_or(PackedMove::NONE, |e| e.mv);
        let buffer = std::mem::take(&mut self.move_buffers[ply]);
        let mut picker = MovePicker::noisy(&moves, tt_move, buffer);
        let mut best_move = None;
        let mut quiet_evasions = 0;
        while let Some((m, _)) = picker.pick() {
            // Once one evasion has shown we are not mated, a second quiet
            // way out of check rarely changes the verdict. Skipped rather
            // than stopping the loop, so no capture is lost whatever order
            // the picker hands the moves out in.
            if in_check && is_quiet(m) && best_score > -TB_WIN_BOUND {
                quiet_evasions += 1;
                if quiet_evasions > qs_quiet_evasions() {
                    continue;
                }
            }
            if !in_check && best_score > -TB_WIN_BOUND {
                let gain = captured_role(m).map_or(0, value);
                if m.promotion().is_none()
                    && stand_pat + gain + qs_delta_margin() <= alpha
                    && !capture_may_leave_too_little(pos)
                {
                    best_score = best_score.max(stand_pat + gain + qs_delta_margin());
                    continue;
                }
                if !see_ge(pos, m, 0) {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_key = key_after(pos, key, m, &child);
            self.update_accumulator(pos, m, &child, ply);
            let score = -self.quiescence(&child, child_key, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }

        self.move_buffers[ply] = picker.into_buffer();
        let bound = if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            TtEntry {
                mv: best_move.map_or(PackedMove::NONE, PackedMove::new),
                score: score_to_tt(best_score, ply),
                eval: raw_eval,
                depth: 0,
                bound,
            },
        );
        best_score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use shakmaty::CastlingMode;

    #[test]
    fn eval_diff_bonus_rewards_moves_that_raise_the_movers_eval() {
        // Before: +20 for the mover; after: -20 for the opponent, i.e. the
        // same +20 for the mover, plus the two tempo bonuses: neutral.
        let neutral = eval_diff_bonus(20, -20 + eval_diff_tempo_cp());
        assert_eq!(neutral, 0);
        assert!(eval_diff_bonus(20, -60) > 0);
        assert!(eval_diff_bonus(20, 40) < 0);
        assert!(eval_diff_bonus(20, -60) > eval_diff_bonus(20, -30));
        assert_eq!(eval_diff_bonus(0, -5000), eval_diff_history_max());
        assert_eq!(eval_diff_bonus(0, 5000), -eval_diff_history_max());
    }

    fn quiet_node() -> Node {
        Node {
            root: false,
            pv_node: false,
            cut_node: false,
            in_check: false,
            improving: false,
            opponent_worsening: false,
            eval: 0,
            correction: 0,
            tt_move_noisy: false,
        }
    }

    fn capture(pos: &Position, uci: &str, capture_history: i32) -> LateMove {
        LateMove {
            m: pos.parse_move(uci, CastlingMode::Standard).unwrap(),
            quiet: false,
            move_count: 12,
            order_score: 0,
            capture_history,
        }
    }

    #[test]
    fn capture_history_decides_whether_a_small_loss_on_see_is_pruned() {
        // Bxe5 gives a bishop for a pawn when dxe5 answers.
        let pos = Position::from_fen("4k3/8/3p4/4p3/8/2B5/8/4K3 w - - 0 1").unwrap();
        let node = quiet_node();
        let plain = capture(&pos, "c3e5", 0);
        let trusted = capture(&pos, "c3e5", 16_000);
        assert!(matches!(
            prune_late_move(pos.board(), &plain, 2, 0, 0, &node),
            Prune::Skip
        ));
        assert!(matches!(
            prune_late_move(pos.board(), &trusted, 2, 0, 0, &node),
            Prune::Search
        ));
    }

    #[test]
    fn a_capture_that_has_often_cut_is_reduced_less() {
        let pos = Position::from_fen("4k3/8/3p4/4p3/8/2B5/8/4K3 w - - 0 1").unwrap();
        let node = quiet_node();
        let depth = 12;
        let r = |h| {
            late_move_reduction(
                pos.board(),
                &capture(&pos, "c3e5", h),
                depth,
                depth - 1,
                false,
                &node,
            )
        };
        assert!(r(12_000) < r(0));
        assert!(r(-12_000) > r(0));
    }
}
