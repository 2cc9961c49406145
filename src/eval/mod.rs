//! Static evaluation: a tapered hand-crafted evaluation over shakmaty
//! bitboards. It knows nothing of search: one board in, one score out.
//!
//! Every tuned weight is an (mg, eg) pair in `params::WEIGHTS`, addressed by
//! the indices of `layout.rs`. The evaluation is linear in those weights
//! except for two fixed, untuned parts: the endgame scale (a factor on the
//! whole score) and the mop-up of a bare king. King danger is quadratic in
//! attack units whose per-piece weights are fixed; only its overall scale
//! is a tuned weight, and the evaluation is linear in it. A [`Tracer`]
//! records how often each weight was used (white minus black), which is
//! what `kestrel tune` fits; [`NoTrace`] compiles to nothing.

pub mod layout;
pub mod params;
mod pawn_cache;
pub mod score;
pub mod simplified;

use layout::*;
use params::*;
use pawn_cache::{PawnInfo, pawn_info};
use score::S;
use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Chess, Color, Position, Role, Square};

/// Receives the coefficient of every weight the evaluation uses.
pub trait Tracer {
    /// False for a tracer that records nothing, which lets the evaluation
    /// take terms from caches instead of computing them.
    const RECORDS: bool = true;

    fn add(&mut self, index: usize, color: Color, coef: f32);
}

/// The tracer of the normal evaluation: does nothing.
pub struct NoTrace;

impl Tracer for NoTrace {
    const RECORDS: bool = false;

    #[inline(always)]
    fn add(&mut self, _: usize, _: Color, _: f32) {}
}

/// Dense coefficients, White minus Black, for tuning.
pub struct Trace {
    pub coefs: Vec<f32>,
}

impl Default for Trace {
    fn default() -> Self {
        Trace {
            coefs: vec![0.0; N_WEIGHTS],
        }
    }
}

impl Tracer for Trace {
    fn add(&mut self, index: usize, color: Color, coef: f32) {
        self.coefs[index] += if color == Color::White { coef } else { -coef };
    }
}

/// Score from the side to move's point of view, in centipawns.
pub fn evaluate(board: &Chess) -> i32 {
    if cfg!(feature = "pst-eval") {
        return simplified::evaluate(board);
    }
    let white = Evaluation::new(board, &mut NoTrace).total();
    match board.turn() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// The parts of an evaluation the tuner needs besides the coefficients.
pub struct TraceInfo {
    pub phase: i32,
    pub scale: i32,
    /// The weights do not apply: a bare king is being mated, and the score
    /// is material plus the fixed mop-up terms.
    pub special: bool,
    pub white_score: i32,
}

/// Evaluates `board` and records the coefficients of every weight.
pub fn trace(board: &Chess, tracer: &mut impl Tracer) -> TraceInfo {
    let e = Evaluation::new(board, tracer);
    TraceInfo {
        phase: e.phase,
        scale: e.scale,
        special: e.mopup != 0,
        white_score: e.total(),
    }
}

/// The named parts of an evaluation, for people reading `eval` output.
#[derive(Debug, Clone)]
pub struct Breakdown {
    /// (name, white-minus-black value) per term group.
    pub terms: Vec<(&'static str, S)>,
    pub phase: i32,
    /// Endgame scale in 1/64ths.
    pub scale: i32,
    /// Final score from White's side.
    pub white_score: i32,
}

pub fn breakdown(board: &Chess) -> Breakdown {
    let eval = Evaluation::new(board, &mut NoTrace);
    let mut terms = eval.terms[..GROUPS - 1].to_vec();
    if eval.mopup != 0 {
        terms.push(("mop-up", S(eval.mopup, eval.mopup)));
    }
    Breakdown {
        terms,
        phase: eval.phase,
        scale: eval.scale,
        white_score: eval.total(),
    }
}

const GROUPS: usize = 9;

struct Evaluation {
    terms: [(&'static str, S); GROUPS],
    phase: i32,
    scale: i32,
    mopup: i32,
}

/// Sums weights per colour and tells the tracer.
struct Acc<'t, T: Tracer> {
    s: [S; 2],
    t: &'t mut T,
}

impl<T: Tracer> Acc<'_, T> {
    #[inline(always)]
    fn add(&mut self, color: Color, index: usize, n: i32) {
        self.s[color as usize] += WEIGHTS[index] * n;
        self.t.add(index, color, n as f32);
    }

    #[inline(always)]
    fn one(&mut self, color: Color, index: usize) {
        self.s[color as usize] += WEIGHTS[index];
        self.t.add(index, color, 1.0);
    }

    /// White minus Black since the last call.
    fn take(&mut self) -> S {
        let d = self.s[Color::White as usize] - self.s[Color::Black as usize];
        self.s = [S::ZERO; 2];
        d
    }
}

/// Attack maps of one side.
#[derive(Default, Clone, Copy)]
struct Attacks {
    pawns: Bitboard,
    knights: Bitboard,
    bishops: Bitboard,
    rooks: Bitboard,
    queens: Bitboard,
    king: Bitboard,
    all: Bitboard,
    king_units: i32,
    king_attackers: i32,
}

impl Evaluation {
    fn new<T: Tracer>(pos: &Chess, t: &mut T) -> Self {
        let board = pos.board();
        let phase = game_phase(board);
        let mut acc = Acc { s: [S::ZERO; 2], t };
        let mut att = [Attacks::default(); 2];
        for color in Color::ALL {
            att[color as usize].pawns = pawn_attacks(board, color);
        }
        for color in Color::ALL {
            material_psqt(board, color, &mut acc);
        }
        let material = acc.take();
        for color in Color::ALL {
            mobility(board, color, &mut att, &mut acc);
        }
        let mobility = acc.take();
        let pawn_terms = if T::RECORDS {
            pawn_terms(board, &att, &mut acc)
        } else {
            pawn_info(board, || {
                pawn_terms(
                    board,
                    &att,
                    &mut Acc {
                        s: [S::ZERO; 2],
                        t: &mut NoTrace,
                    },
                )
            })
        };
        let pawns = pawn_terms.score;
        for color in Color::ALL {
            passed_pawns(board, color, pawn_terms.passed[color as usize], &mut acc);
        }
        let passed = acc.take();
        for color in Color::ALL {
            pieces(board, color, &att, &mut acc);
        }
        let placement = acc.take();
        for color in Color::ALL {
            king_safety(board, color, &att, &mut acc);
        }
        let king = acc.take();
        for color in Color::ALL {
            threats(board, color, &att, &mut acc);
        }
        let threats = acc.take();
        acc.one(pos.turn(), TEMPO);
        let tempo = acc.take();
        let terms = [
            ("material+psqt", material),
            ("mobility", mobility),
            ("pawn structure", pawns),
            ("passed pawns", passed),
            ("pieces", placement),
            ("king safety", king),
            ("threats", threats),
            ("tempo", tempo),
            ("(sum)", S::ZERO),
        ];
        let sum = terms.iter().fold(S::ZERO, |a, (_, s)| a + *s);
        let mut terms = terms;
        terms[GROUPS - 1].1 = sum;
        let scale = endgame_scale(board, sum.eg());
        let mopup = mop_up(board, sum.eg());
        Self {
            terms,
            phase,
            scale,
            mopup,
        }
    }

    fn total(&self) -> i32 {
        let sum = self.terms[GROUPS - 1].1;
        let tapered = (sum.mg() * self.phase + sum.eg() * (PHASE_TOTAL - self.phase)) / PHASE_TOTAL;
        if self.mopup != 0 {
            return self.mopup * self.scale / 64;
        }
        tapered * self.scale / 64
    }
}

fn game_phase(board: &Board) -> i32 {
    let phase: i32 = Role::ALL
        .iter()
        .map(|&r| PHASE_WEIGHT[r as usize - 1] * board.by_role(r).count() as i32)
        .sum();
    phase.min(PHASE_TOTAL)
}

/// Square seen from `color`'s side of the board.
#[inline(always)]
fn relative(color: Color, sq: Square) -> Square {
    match color {
        Color::White => sq,
        Color::Black => sq.flip_vertical(),
    }
}

#[inline(always)]
fn relative_rank(color: Color, sq: Square) -> usize {
    relative(color, sq).rank() as usize
}

/// Index of a square in a left-right symmetric 32-entry table.
#[inline(always)]
fn psqt_index(color: Color, sq: Square) -> usize {
    let rel = relative(color, sq);
    let f = rel.file() as usize;
    rel.rank() as usize * 4 + f.min(7 - f)
}

/// 0 on the rim up to 6 in the four centre squares.
fn centrality(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let fd = (2 * f - 7).abs() / 2;
    let rd = (2 * r - 7).abs() / 2;
    6 - fd - rd
}

fn material_psqt<T: Tracer>(board: &Board, color: Color, acc: &mut Acc<T>) {
    let us = board.by_color(color);
    for role in Role::ALL {
        let r = role as usize - 1;
        for sq in board.by_role(role) & us {
            acc.one(color, MATERIAL + r);
            acc.one(color, PSQT + 32 * r + psqt_index(color, sq));
        }
    }
}

fn pawn_attacks(board: &Board, color: Color) -> Bitboard {
    let pawns = (board.pawns() & board.by_color(color)).0;
    let not_a = !0x0101_0101_0101_0101u64;
    let not_h = !0x8080_8080_8080_8080u64;
    Bitboard(match color {
        Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
        Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
    })
}

fn king_zone(board: &Board, color: Color) -> Bitboard {
    board
        .king_of(color)
        .map(|k| attacks::king_attacks(k).with(k))
        .unwrap_or(Bitboard::EMPTY)
}

/// Scores mobility for `color` and fills in its attack maps, including its
/// pressure on the enemy king zone.
fn mobility<T: Tracer>(board: &Board, color: Color, att: &mut [Attacks; 2], acc: &mut Acc<T>) {
    let occ = board.occupied();
    let us = board.by_color(color);
    let safe = !us & !att[!color as usize].pawns;
    let enemy_zone = king_zone(board, !color);
    let mine = &mut att[color as usize];
    if let Some(k) = board.king_of(color) {
        mine.king = attacks::king_attacks(k);
    }
    for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .enumerate()
    {
        let base = [MOB_KNIGHT, MOB_BISHOP, MOB_ROOK, MOB_QUEEN][i];
        for sq in board.by_role(role) & us {
            let a = match role {
                Role::Knight => attacks::knight_attacks(sq),
                Role::Bishop => attacks::bishop_attacks(sq, occ),
                Role::Rook => attacks::rook_attacks(sq, occ),
                _ => attacks::queen_attacks(sq, occ),
            };
            match role {
                Role::Knight => mine.knights |= a,
                Role::Bishop => mine.bishops |= a,
                Role::Rook => mine.rooks |= a,
                _ => mine.queens |= a,
            }
            acc.one(color, base + (a & safe).count());
            let zone_hits = (a & enemy_zone).count() as i32;
            if zone_hits > 0 {
                mine.king_attackers += 1;
                mine.king_units += KING_ATTACK_UNITS[i] * zone_hits;
            }
        }
    }
    mine.all = mine.pawns | mine.knights | mine.bishops | mine.rooks | mine.queens | mine.king;
}

/// All squares strictly ahead of `sq` from `color`'s side.
#[inline(always)]
fn forward_ranks(color: Color, sq: Square) -> Bitboard {
    let rank = sq.rank() as u32;
    match color {
        Color::White if rank < 7 => Bitboard(!0u64 << (8 * (rank + 1))),
        Color::Black if rank > 0 => Bitboard((1u64 << (8 * rank)) - 1),
        _ => Bitboard::EMPTY,
    }
}

#[inline(always)]
fn file_bb(file: i32) -> Bitboard {
    if (0..8).contains(&file) {
        Bitboard(0x0101_0101_0101_0101u64 << file)
    } else {
        Bitboard::EMPTY
    }
}

#[inline(always)]
fn adjacent_files(sq: Square) -> Bitboard {
    let f = sq.file() as i32;
    file_bb(f - 1) | file_bb(f + 1)
}

fn is_passed(board: &Board, color: Color, sq: Square) -> bool {
    let ours = board.pawns() & board.by_color(color);
    let theirs = board.pawns() & board.by_color(!color);
    let ahead = forward_ranks(color, sq);
    let file = file_bb(sq.file() as i32);
    (theirs & ahead & (adjacent_files(sq) | file)).is_empty() && (ours & ahead & file).is_empty()
}

fn pawn_structure<T: Tracer>(board: &Board, color: Color, att: &[Attacks; 2], acc: &mut Acc<T>) {
    let ours = board.pawns() & board.by_color(color);
    let their_attacks = att[!color as usize].pawns;
    for sq in ours {
        let rank = relative_rank(color, sq);
        let file = file_bb(sq.file() as i32);
        let adj = adjacent_files(sq);
        let ahead = forward_ranks(color, sq);
        if (ours & file & ahead).any() {
            acc.one(color, DOUBLED);
        }
        if (ours & adj).is_empty() {
            acc.one(color, ISOLATED);
        } else if (ours & adj & !ahead).is_empty() {
            let step = if color == Color::White { 8 } else { -8 };
            if let Some(stop) = sq.offset(step)
                && their_attacks.contains(stop)
            {
                acc.one(color, BACKWARD);
            }
        }
        if (attacks::pawn_attacks(!color, sq) & ours).any() {
            acc.one(color, SUPPORTED + rank);
        }
        if (ours & adj & Bitboard::from_rank(sq.rank())).any() {
            acc.one(color, PHALANX + rank);
        }
    }
}

/// Everything that depends on the pawns alone: structure terms and the
/// passed pawns of each side.
fn pawn_terms<T: Tracer>(board: &Board, att: &[Attacks; 2], acc: &mut Acc<T>) -> PawnInfo {
    let mut passed = [Bitboard::EMPTY; 2];
    for color in Color::ALL {
        pawn_structure(board, color, att, acc);
        let ours = board.pawns() & board.by_color(color);
        passed[color as usize] = ours
            .into_iter()
            .filter(|&sq| is_passed(board, color, sq))
            .collect();
    }
    PawnInfo {
        score: acc.take(),
        passed,
    }
}

fn passed_pawns<T: Tracer>(board: &Board, color: Color, passed: Bitboard, acc: &mut Acc<T>) {
    let (Some(our_king), Some(their_king)) = (board.king_of(color), board.king_of(!color)) else {
        return;
    };
    for sq in passed {
        let rank = relative_rank(color, sq);
        acc.one(color, PASSED + rank);
        let step = if color == Color::White { 8 } else { -8 };
        let Some(stop) = sq.offset(step) else {
            continue;
        };
        let weight = rank.saturating_sub(2) as i32;
        if weight > 0 {
            acc.add(
                color,
                PASSED_OWN_KING,
                our_king.distance(stop) as i32 * weight,
            );
            acc.add(
                color,
                PASSED_THEIR_KING,
                their_king.distance(stop) as i32 * weight,
            );
        }
        let path = forward_ranks(color, sq) & file_bb(sq.file() as i32);
        if (path & board.occupied()).is_empty() {
            acc.one(color, PASSED_FREE + rank);
        } else if board.by_color(!color).contains(stop) {
            acc.one(color, PASSED_BLOCKED + rank);
        }
    }
}

fn pieces<T: Tracer>(board: &Board, color: Color, att: &[Attacks; 2], acc: &mut Acc<T>) {
    let us = board.by_color(color);
    if (board.bishops() & us).count() >= 2 {
        acc.one(color, BISHOP_PAIR);
    }
    let our_pawns = board.pawns() & us;
    let their_pawns = board.pawns() & !us;
    let open = |sq: Square, open: usize, half: usize, acc: &mut Acc<T>| {
        let file = file_bb(sq.file() as i32);
        if (file & our_pawns).is_empty() {
            acc.one(
                color,
                if (file & their_pawns).is_empty() {
                    open
                } else {
                    half
                },
            );
        }
    };
    for sq in board.rooks() & us {
        open(sq, ROOK_OPEN, ROOK_HALF_OPEN, acc);
        if relative_rank(color, sq) == 6 {
            let king_back = board
                .king_of(!color)
                .is_some_and(|k| relative_rank(color, k) == 7);
            let pawns_7th = (their_pawns & Bitboard::from_rank(sq.rank())).any();
            if king_back || pawns_7th {
                acc.one(color, ROOK_SEVENTH);
            }
        }
    }
    for sq in board.queens() & us {
        open(sq, QUEEN_OPEN, QUEEN_HALF_OPEN, acc);
    }
    let defended = att[color as usize].pawns;
    for sq in (board.knights() | board.bishops()) & us {
        let rank = relative_rank(color, sq);
        if !(3..=5).contains(&rank) || !defended.contains(sq) {
            continue;
        }
        if (their_pawns & adjacent_files(sq) & forward_ranks(color, sq)).is_empty() {
            acc.one(
                color,
                if board.knights().contains(sq) {
                    KNIGHT_OUTPOST
                } else {
                    BISHOP_OUTPOST
                },
            );
        }
    }
}

/// King attack by `color` on the enemy king, and the enemy king's shelter
/// scored for the enemy.
fn king_safety<T: Tracer>(board: &Board, color: Color, att: &[Attacks; 2], acc: &mut Acc<T>) {
    let Some(king) = board.king_of(!color) else {
        return;
    };
    let mine = &att[color as usize];
    let theirs = &att[!color as usize];
    // Attack on the enemy king.
    let mut units = mine.king_units;
    let queenless = (board.queens() & board.by_color(color)).is_empty();
    if mine.king_attackers < 2 || queenless {
        units /= 2;
    }
    let sq_units = (units * units).min(KING_DANGER_CAP);
    if sq_units > 0 {
        let w = WEIGHTS[KING_DANGER];
        acc.s[color as usize] += S(w.mg() * sq_units / 32, w.eg() * sq_units / 32);
        acc.t.add(KING_DANGER, color, sq_units as f32 / 32.0);
    }
    let occ = board.occupied();
    let safe = !board.by_color(color) & !theirs.all;
    let checks = [
        attacks::knight_attacks(king) & mine.knights,
        attacks::bishop_attacks(king, occ) & mine.bishops,
        attacks::rook_attacks(king, occ) & mine.rooks,
        attacks::queen_attacks(king, occ) & mine.queens,
    ];
    for (i, c) in checks.into_iter().enumerate() {
        let n = (c & safe).count() as i32;
        if n > 0 {
            acc.add(color, SAFE_CHECK + i, n);
        }
    }
    // Shelter of the enemy king, scored for the enemy.
    let them = !color;
    let their_pawns = board.pawns() & board.by_color(them);
    let our_pawns = board.pawns() & board.by_color(color);
    let f = king.file() as i32;
    let files = file_bb(f - 1) | file_bb(f) | file_bb(f + 1);
    let kr = relative_rank(them, king) as i32;
    let rank_ahead = |d: i32| -> Bitboard {
        let r = kr + d;
        if (0..8).contains(&r) {
            let abs = if them == Color::White { r } else { 7 - r };
            Bitboard::from_rank(shakmaty::Rank::new(abs as u32))
        } else {
            Bitboard::EMPTY
        }
    };
    for d in 1..=2 {
        let n = (their_pawns & files & rank_ahead(d)).count() as i32;
        if n > 0 {
            acc.add(them, SHIELD + d as usize - 1, n);
        }
    }
    for d in 1..=4 {
        let n = (our_pawns & files & rank_ahead(d)).count() as i32;
        if n > 0 {
            acc.add(them, STORM + d as usize - 1, n);
        }
    }
    for file in (f - 1).max(0)..=(f + 1).min(7) {
        let fb = file_bb(file);
        if (fb & their_pawns).is_empty() {
            acc.one(
                them,
                if (fb & our_pawns).is_empty() {
                    KING_OPEN_FILE
                } else {
                    KING_HALF_OPEN_FILE
                },
            );
        }
    }
}

/// Threats made by `color`.
fn threats<T: Tracer>(board: &Board, color: Color, att: &[Attacks; 2], acc: &mut Acc<T>) {
    let them = board.by_color(!color);
    let mine = &att[color as usize];
    let theirs = &att[!color as usize];
    let pieces = them & !board.pawns() & !board.kings();
    let n = (pieces & mine.pawns).count() as i32;
    if n > 0 {
        acc.add(color, THREAT_BY_PAWN, n);
    }
    let majors = them & (board.rooks() | board.queens());
    let n = (majors & (mine.knights | mine.bishops)).count() as i32;
    if n > 0 {
        acc.add(color, THREAT_BY_MINOR, n);
    }
    let n = (them & board.queens() & mine.rooks).count() as i32;
    if n > 0 {
        acc.add(color, THREAT_BY_ROOK, n);
    }
    let n = (them & !board.kings() & mine.all & !theirs.all).count() as i32;
    if n > 0 {
        acc.add(color, HANGING, n);
    }
}

fn non_pawn_material(board: &Board, color: Color) -> i32 {
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .iter()
        .map(|&r| {
            WEIGHTS[MATERIAL + r as usize - 1].eg()
                * (board.by_role(r) & board.by_color(color)).count() as i32
        })
        .sum()
}

/// Endgame scale in 1/64ths for material that is hard or impossible to win.
fn endgame_scale(board: &Board, eg: i32) -> i32 {
    let strong = if eg >= 0 { Color::White } else { Color::Black };
    let weak = !strong;
    let strong_pawns = (board.pawns() & board.by_color(strong)).count();
    let strong_npm = non_pawn_material(board, strong);
    let weak_npm = non_pawn_material(board, weak);
    let rook = WEIGHTS[MATERIAL + Role::Rook as usize - 1].eg();
    if strong_pawns == 0 {
        let only_knights = (board.by_color(strong) & !board.kings() & !board.knights()).is_empty();
        if strong_npm < rook || only_knights {
            return 0;
        }
        if strong_npm - weak_npm < rook - 100 {
            return 8;
        }
    }
    let wb = board.bishops() & board.white();
    let bb = board.bishops() & board.black();
    if wb.count() == 1 && bb.count() == 1 {
        let light = Bitboard::LIGHT_SQUARES;
        if (wb & light).any() != (bb & light).any() {
            let others = (board.knights() | board.rooks() | board.queens()).is_empty();
            return if others { 32 } else { 48 };
        }
    }
    64
}

/// Against a bare king, the whole score (0 if not such a position): our
/// endgame material plus pushing the king to the edge (for KBNK, to a corner
/// of the bishop's colour) and bringing our king close, so simple mates are
/// found. The tuned terms are left out here so that nothing they learnt
/// pulls the other way.
fn mop_up(board: &Board, eg: i32) -> i32 {
    let strong = if eg >= 0 { Color::White } else { Color::Black };
    let weak = !strong;
    if (board.by_color(weak) & !board.kings()).any() || board.pawns().any() {
        return 0;
    }
    if non_pawn_material(board, strong) < WEIGHTS[MATERIAL + Role::Rook as usize - 1].eg() {
        return 0;
    }
    let (Some(sk), Some(wk)) = (board.king_of(strong), board.king_of(weak)) else {
        return 0;
    };
    let bishops = board.bishops() & board.by_color(strong);
    let edge = if bishops.count() == 1 && (board.by_color(strong) & !board.kings()).count() == 2 {
        let light = (bishops & Bitboard::LIGHT_SQUARES).any();
        let corners: [Square; 2] = if light {
            [Square::H1, Square::A8]
        } else {
            [Square::A1, Square::H8]
        };
        14 - corners
            .iter()
            .map(|c| wk.distance(*c) as i32)
            .min()
            .unwrap_or(7)
            * 2
    } else {
        6 - centrality(wk)
    };
    let close = 14 - (sk.file().distance(wk.file()) + sk.rank().distance(wk.rank())) as i32;
    let bonus = non_pawn_material(board, strong) + MOPUP_EDGE * edge + MOPUP_KINGS_CLOSE * close;
    if strong == Color::White {
        bonus
    } else {
        -bonus
    }
}

#[cfg(test)]
mod tests;
