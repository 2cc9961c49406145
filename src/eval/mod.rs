//! Static evaluation: a tapered hand-crafted evaluation over shakmaty
//! bitboards. It knows nothing of search: one board in, one score out.
//!
//! Every tuned weight is an (mg, eg) pair in `params::WEIGHTS`, addressed by
//! the indices of `layout.rs`. The evaluation is linear in those weights
//! except for two fixed, untuned parts, the endgame scale (a factor on the
//! whole score) and the mop-up of a bare king, and the bound on the
//! winnability term (it never takes away more than the endgame lead; the
//! tuner sees the term only where the bound does not apply). King danger is
//! a curve over attack units whose per-piece weights are fixed; the curve's
//! knots are tuned weights, interpolated linearly, so it stays linear in
//! them. A [`Tracer`] records how often each weight was used (white minus
//! black), which is what `kestrel tune` fits; [`NoTrace`] compiles to
//! nothing.

pub mod layout;
pub mod nnue;
pub mod params;
mod pawn_cache;
pub mod score;
pub mod simplified;

use crate::position::pawn_attacks;
use layout::*;
use params::*;
use pawn_cache::{PawnInfo, pawn_info};
use score::S;
use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Chess, Color, File, Position, Rank, Role, Square};

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

/// Score from the side to move's point of view, in centipawns: the
/// hand-crafted evaluation plus the net's correction (or the net alone, for
/// a net trained without the hand-crafted part), except against a bare
/// king, where the hand-crafted mop-up alone drives the king to the edge
/// (the net has seen few such positions).
pub fn evaluate(board: &Chess) -> i32 {
    evaluate_using(board, || nnue::evaluate(board))
}

/// `evaluate` with the net's first layer already computed for this
/// position (the search keeps it up to date move by move).
pub fn evaluate_with(board: &Chess, acc: &nnue::Accumulator) -> i32 {
    evaluate_using(board, || acc.evaluate(board.turn()))
}

/// The choice between the evaluations; `net_output` is asked for only when
/// the net is used.
fn evaluate_using(board: &Chess, net_output: impl FnOnce() -> i32) -> i32 {
    if cfg!(feature = "pst-eval") {
        return simplified::evaluate(board);
    }
    if cfg!(feature = "hce-eval") || has_bare_king(board.board()) {
        return hand_crafted(board);
    }
    let net_score = with_endgame_scale(board, net_output());
    if nnue::network().residual {
        hand_crafted(board) + net_score
    } else {
        net_score
    }
}

/// The net's score scaled down in drawish endings (no pawns and too little
/// to mate, opposite-coloured bishops, rook pawns with the wrong bishop):
/// rules the net, trained on few such positions, has not learnt reliably.
fn with_endgame_scale(board: &Chess, score: i32) -> i32 {
    let white = relative_to(board.turn(), score);
    score * endgame_scale(board.board(), white) / 64
}

/// A score from White's point of view seen from `side`'s, or back: the
/// change is its own inverse.
fn relative_to(side: Color, score: i32) -> i32 {
    match side {
        Color::White => score,
        Color::Black => -score,
    }
}

/// Whether either side has nothing but its king (the mop-up's positions).
pub fn has_bare_king(board: &Board) -> bool {
    let lone = |c: Color| (board.by_color(c) & !board.kings()).is_empty();
    lone(Color::White) || lone(Color::Black)
}

/// The hand-crafted evaluation, from the side to move's point of view.
pub fn hand_crafted(board: &Chess) -> i32 {
    relative_to(board.turn(), Evaluation::new(board, &mut NoTrace).total())
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
    /// The hand-crafted evaluation from White's side.
    pub white_score: i32,
    /// The final evaluation (`evaluate`) from White's side.
    pub final_white: i32,
}

pub fn breakdown(board: &Chess) -> Breakdown {
    let eval = Evaluation::new(board, &mut NoTrace);
    let mut terms: Vec<_> = GROUP_NAMES.into_iter().zip(eval.terms).collect();
    if eval.mopup != 0 {
        terms.push(("mop-up", S(eval.mopup, eval.mopup)));
    }
    Breakdown {
        terms,
        phase: eval.phase,
        scale: eval.scale,
        white_score: eval.total(),
        final_white: relative_to(board.turn(), evaluate(board)),
    }
}

/// Ranks 4 to 6 from White's side.
const OUTPOST_RANKS: Bitboard = Bitboard(0x0000_ffff_ff00_0000);

const GROUPS: usize = 9;

/// The names of [`Evaluation::terms`], in order.
const GROUP_NAMES: [&str; GROUPS] = [
    "material+psqt",
    "mobility",
    "pawn structure",
    "passed pawns",
    "pieces",
    "king safety",
    "threats",
    "tempo",
    "winnability",
];

struct Evaluation {
    /// White minus Black per term group.
    terms: [S; GROUPS],
    sum: S,
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

    /// `index` counted once per square of `bb`. The test for an empty set
    /// comes first because most of these sets are empty and a popcount
    /// without the hardware instruction is a dozen operations.
    #[inline(always)]
    fn count(&mut self, color: Color, index: usize, bb: Bitboard) {
        if bb.any() {
            self.add(color, index, bb.count() as i32);
        }
    }

    /// Material and piece-square value of one piece: a single read of
    /// [`PIECE_SQUARE`] for the score, the two weights for the tracer.
    /// `mirror` comes from [`king_wing_mirror`].
    #[inline(always)]
    fn piece(&mut self, color: Color, role: Role, sq: Square, mirror: usize) {
        let r = role as usize - 1;
        let i = relative(color, sq) as usize ^ mirror;
        self.s[color as usize] += PIECE_SQUARE[r][i];
        self.t.add(MATERIAL + r, color, 1.0);
        self.t.add(PSQT + 64 * r + i, color, 1.0);
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
        both(|color| att[color as usize].pawns = pawn_attacks(board, color));
        both(|color| material_psqt(board, color, &mut acc));
        let material = acc.take();
        both(|color| mobility(board, color, &mut att, &mut acc));
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
        both(|color| {
            passed_pawns(
                board,
                color,
                pawn_terms.passed[color as usize],
                &att,
                &mut acc,
            )
        });
        let passed = acc.take();
        both(|color| pieces(board, color, &att, &mut acc));
        let placement = acc.take();
        both(|color| king_safety(board, color, &att, &mut acc));
        let king = acc.take();
        both(|color| threats(board, color, &att, &mut acc));
        let threats = acc.take();
        acc.one(pos.turn(), TEMPO);
        let tempo = acc.take();
        let before = material + mobility + pawns + passed + placement + king + threats + tempo;
        let winnable = winnability(board, &pawn_terms.passed, before.eg(), &mut acc);
        let terms = [
            material, mobility, pawns, passed, placement, king, threats, tempo, winnable,
        ];
        let sum = before + winnable;
        let scale = endgame_scale(board, sum.eg());
        let mopup = mop_up(board, sum.eg());
        Self {
            terms,
            sum,
            phase,
            scale,
            mopup,
        }
    }

    fn total(&self) -> i32 {
        let sum = self.sum;
        let tapered = (sum.mg() * self.phase + sum.eg() * (PHASE_TOTAL - self.phase)) / PHASE_TOTAL;
        if self.mopup != 0 {
            return self.mopup * self.scale / 64;
        }
        tapered * self.scale / 64
    }
}

/// Runs `f` for White, then Black. Written out rather than looped so that
/// each call is compiled with its colour known, which removes the selects
/// between the two sides' data.
#[inline(always)]
fn both(mut f: impl FnMut(Color)) {
    f(Color::White);
    f(Color::Black);
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
const fn relative(color: Color, sq: Square) -> Square {
    match color {
        Color::White => sq,
        Color::Black => sq.flip_vertical(),
    }
}

#[inline(always)]
fn relative_rank(color: Color, sq: Square) -> usize {
    relative(color, sq).rank() as usize
}

/// Material plus piece-square weight of each role on each square, from
/// White's side, summed once at compile time so that the evaluation reads
/// one entry per piece.
const PIECE_SQUARE: [[S; 64]; 6] = {
    let mut table = [[S::ZERO; 64]; 6];
    let mut r = 0;
    while r < 6 {
        let mut sq = 0;
        while sq < 64 {
            let m = WEIGHTS[MATERIAL + r];
            let p = WEIGHTS[PSQT + 64 * r + sq];
            table[r][sq] = S(m.0 + p.0, m.1 + p.1);
            sq += 1;
        }
        r += 1;
    }
    table
};

/// 0 on the rim up to 6 in the four centre squares.
fn centrality(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let fd = (2 * f - 7).abs() / 2;
    let rd = (2 * r - 7).abs() / 2;
    6 - fd - rd
}

/// What to XOR into a square index so that `color`'s king stands on files
/// e–h: the piece-square tables are written for that side, which lets them
/// tell the king's wing from the other one and keeps the evaluation
/// left-right symmetric.
fn king_wing_mirror(board: &Board, color: Color) -> usize {
    match board.king_of(color) {
        Some(king) if king.file() < File::E => 7,
        _ => 0,
    }
}

fn material_psqt<T: Tracer>(board: &Board, color: Color, acc: &mut Acc<T>) {
    let us = board.by_color(color);
    let mirror = king_wing_mirror(board, color);
    for role in Role::ALL {
        for sq in board.by_role(role) & us {
            acc.piece(color, role, sq, mirror);
        }
    }
}

/// The king's square and the squares around it.
fn zone_around(king: Square) -> Bitboard {
    attacks::king_attacks(king).with(king)
}

fn king_zone(board: &Board, color: Color) -> Bitboard {
    board.king_of(color).map_or(Bitboard::EMPTY, zone_around)
}

/// Scores mobility for `color` and fills in its attack maps, including its
/// pressure on the enemy king zone.
fn mobility<T: Tracer>(board: &Board, color: Color, att: &mut [Attacks; 2], acc: &mut Acc<T>) {
    let occ = board.occupied();
    let us = board.by_color(color);
    // Squares our pieces stand on count, since defending a piece is also
    // activity, except the king's, the queen's, and those of pawns that are
    // blocked or not yet past the third rank.
    let our_pawns = board.pawns() & us;
    let blocked = if color == Color::White {
        our_pawns & Bitboard(occ.0 >> 8)
    } else {
        our_pawns & Bitboard(occ.0 << 8)
    };
    let low_ranks = relative_bb(color, Bitboard(0x0000_0000_00ff_ff00));
    let not_counted = (board.kings() | board.queens()) & us | blocked | our_pawns & low_ranks;
    let mut scan = Scan {
        color,
        safe: !not_counted & !att[!color as usize].pawns,
        zone: king_zone(board, !color),
        units: 0,
        attackers: 0,
    };
    // One call per role, so that each loop has its attack function and
    // weights fixed instead of choosing them piece by piece.
    let mine = &mut att[color as usize];
    mine.knights = scan.role(board.knights() & us, 0, MOB_KNIGHT, acc, |sq| {
        attacks::knight_attacks(sq)
    });
    mine.bishops = scan.role(board.bishops() & us, 1, MOB_BISHOP, acc, |sq| {
        attacks::bishop_attacks(sq, occ)
    });
    mine.rooks = scan.role(board.rooks() & us, 2, MOB_ROOK, acc, |sq| {
        attacks::rook_attacks(sq, occ)
    });
    mine.queens = scan.role(board.queens() & us, 3, MOB_QUEEN, acc, |sq| {
        attacks::queen_attacks(sq, occ)
    });
    if let Some(k) = board.king_of(color) {
        mine.king = attacks::king_attacks(k);
    }
    mine.king_units = scan.units;
    mine.king_attackers = scan.attackers;
    mine.all = mine.pawns | mine.knights | mine.bishops | mine.rooks | mine.queens | mine.king;
}

/// What the mobility pass of one side keeps while it goes over the pieces.
struct Scan {
    color: Color,
    /// Squares that count for mobility.
    safe: Bitboard,
    /// The enemy king and the squares around it.
    zone: Bitboard,
    units: i32,
    attackers: i32,
}

impl Scan {
    /// Scores the mobility of `pieces` (all of one role, `KING_ATTACK_UNITS`
    /// entry `unit`) and returns the squares they attack.
    #[inline(always)]
    fn role<T: Tracer>(
        &mut self,
        pieces: Bitboard,
        unit: usize,
        base: usize,
        acc: &mut Acc<T>,
        attacks: impl Fn(Square) -> Bitboard,
    ) -> Bitboard {
        let mut all = Bitboard::EMPTY;
        for sq in pieces {
            let a = attacks(sq);
            all |= a;
            acc.one(self.color, base + (a & self.safe).count());
            let zone_hits = a & self.zone;
            if zone_hits.any() {
                self.attackers += 1;
                self.units += KING_ATTACK_UNITS[unit] * zone_hits.count() as i32;
            }
        }
        all
    }
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

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// `bb` moved one file towards h; nothing wraps around.
#[inline(always)]
fn east(bb: Bitboard) -> Bitboard {
    Bitboard((bb.0 << 1) & !FILE_A)
}

/// `bb` moved one file towards a; nothing wraps around.
#[inline(always)]
fn west(bb: Bitboard) -> Bitboard {
    Bitboard((bb.0 >> 1) & !FILE_H)
}

/// Every square on or above a square of `x`.
#[inline(always)]
fn fill_north(mut x: u64) -> u64 {
    x |= x << 8;
    x |= x << 16;
    x | x << 32
}

/// Every square on or below a square of `x`.
#[inline(always)]
fn fill_south(mut x: u64) -> u64 {
    x |= x >> 8;
    x |= x >> 16;
    x | x >> 32
}

/// Squares attacked by white pawns on `pawns`.
#[inline(always)]
fn white_pawn_attacks(pawns: Bitboard) -> Bitboard {
    Bitboard(east(pawns).0 << 8 | west(pawns).0 << 8)
}

#[inline(always)]
fn adjacent_files(sq: Square) -> Bitboard {
    let file = Bitboard::from_file(sq.file());
    east(file) | west(file)
}

/// The file of `sq` and the files beside it.
#[inline(always)]
fn king_files(sq: Square) -> Bitboard {
    let file = Bitboard::from_file(sq.file());
    file | adjacent_files(sq)
}

/// Board seen from `color`'s side: rank 8 becomes rank 1 for Black.
#[inline(always)]
fn relative_bb(color: Color, bb: Bitboard) -> Bitboard {
    match color {
        Color::White => bb,
        Color::Black => bb.flip_vertical(),
    }
}

/// Number of squares of `bb` on each rank, rank 1 first. These are the
/// first steps of a software popcount, which give all eight counts for the
/// price of less than one full count.
#[inline(always)]
fn rank_counts(bb: Bitboard) -> [u8; 8] {
    let x = bb.0;
    let x = x - ((x >> 1) & 0x5555_5555_5555_5555);
    let x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
    ((x + (x >> 4)) & 0x0f0f_0f0f_0f0f_0f0f).to_le_bytes()
}

/// The files that hold a square of `bb`, one bit each from the a-file up.
#[inline(always)]
fn occupied_files(bb: Bitboard) -> u8 {
    let mut x = bb.0;
    x |= x >> 32;
    x |= x >> 16;
    x |= x >> 8;
    x as u8
}

/// Structure terms of `color`'s pawns; returns its passed pawns. The
/// terms are found for all pawns at once with set operations on the board
/// seen from `color`'s side, where "ahead" is always up the board.
fn pawn_structure<T: Tracer>(
    board: &Board,
    color: Color,
    att: &[Attacks; 2],
    acc: &mut Acc<T>,
) -> Bitboard {
    let ours = relative_bb(color, board.pawns() & board.by_color(color));
    let theirs = relative_bb(color, board.pawns() & board.by_color(!color));
    let their_attacks = relative_bb(color, att[!color as usize].pawns);
    // Squares beside an own pawn, and the files next to an own pawn.
    let beside = east(ours) | west(ours);
    let neighbour_files = Bitboard(u64::from(occupied_files(beside)) * FILE_A);
    // An own pawn somewhere ahead on the same file.
    let doubled = ours & Bitboard(fill_south(ours.0) >> 8);
    acc.count(color, DOUBLED, doubled);
    let isolated = ours & !neighbour_files;
    acc.count(color, ISOLATED, isolated);
    // No own pawn beside or behind on the next files, and the square in
    // front attacked by an enemy pawn.
    let unsupported = !Bitboard(fill_north(beside.0));
    let stop_attacked = Bitboard(their_attacks.0 >> 8);
    let backward = ours & neighbour_files & unsupported & stop_attacked;
    acc.count(color, BACKWARD, backward);
    let opposed = Bitboard(fill_south(theirs.0) >> 8);
    acc.count(color, WEAK_UNOPPOSED, (isolated | backward) & !opposed);
    per_rank(color, SUPPORTED, ours & white_pawn_attacks(ours), acc);
    per_rank(color, PHALANX, ours & beside, acc);
    let rammed = ours & Bitboard(theirs.0 >> 8);
    acc.count(
        color,
        BLOCKED_PAWN,
        rammed & Bitboard::from_rank(Rank::Fifth),
    );
    acc.count(
        color,
        BLOCKED_PAWN + 1,
        rammed & Bitboard::from_rank(Rank::Sixth),
    );
    // No enemy pawn ahead on the same or next files, no own pawn ahead.
    let enemy_fronts = theirs | east(theirs) | west(theirs);
    let blocked = Bitboard(fill_south(enemy_fronts.0) >> 8);
    relative_bb(color, ours & !doubled & !blocked)
}

/// Counts `index + rank` once for each square of `bb` on each rank, where
/// `bb` is seen from `color`'s side.
#[inline(always)]
fn per_rank<T: Tracer>(color: Color, index: usize, bb: Bitboard, acc: &mut Acc<T>) {
    if bb.any() {
        for (rank, n) in rank_counts(bb).into_iter().enumerate() {
            if n > 0 {
                acc.add(color, index + rank, n.into());
            }
        }
    }
}

/// Everything that depends on the pawns alone: structure terms and the
/// passed pawns of each side.
fn pawn_terms<T: Tracer>(board: &Board, att: &[Attacks; 2], acc: &mut Acc<T>) -> PawnInfo {
    let mut passed = [Bitboard::EMPTY; 2];
    both(|color| passed[color as usize] = pawn_structure(board, color, att, acc));
    PawnInfo {
        score: acc.take(),
        passed,
    }
}

fn passed_pawns<T: Tracer>(
    board: &Board,
    color: Color,
    passed: Bitboard,
    att: &[Attacks; 2],
    acc: &mut Acc<T>,
) {
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
        if !board.occupied().contains(stop) && !att[!color as usize].all.contains(stop) {
            acc.one(color, PASSED_SAFE_STOP + rank);
        }
        let file = Bitboard::from_file(sq.file());
        if (board.rooks() & board.by_color(color) & file & forward_ranks(!color, sq)).any() {
            acc.one(color, ROOK_BEHIND_PASSER);
        }
        let path = forward_ranks(color, sq) & file;
        if (path & board.occupied()).is_empty() {
            acc.one(color, PASSED_FREE + rank);
        } else if board.by_color(!color).contains(stop) {
            acc.one(color, PASSED_BLOCKED + rank);
        }
    }
}

fn pieces<T: Tracer>(board: &Board, color: Color, att: &[Attacks; 2], acc: &mut Acc<T>) {
    let us = board.by_color(color);
    if (board.bishops() & us).more_than_one() {
        acc.one(color, BISHOP_PAIR);
    }
    let our_pawns = board.pawns() & us;
    let their_pawns = board.pawns() & !us;
    let (own_files, enemy_files) = (occupied_files(our_pawns), occupied_files(their_pawns));
    let open = |sq: Square, open: usize, half: usize, acc: &mut Acc<T>| {
        let bit = 1 << sq.file() as u32;
        if own_files & bit == 0 {
            acc.one(color, if enemy_files & bit == 0 { open } else { half });
        }
    };
    for sq in board.rooks() & us {
        open(sq, ROOK_OPEN, ROOK_HALF_OPEN, acc);
    }
    for sq in board.queens() & us {
        open(sq, QUEEN_OPEN, QUEEN_HALF_OPEN, acc);
    }
    let seventh = relative_bb(color, Bitboard::from_rank(Rank::Seventh));
    let rooks_7th = board.rooks() & us & seventh;
    if rooks_7th.any() {
        let eighth = relative_bb(color, Bitboard::from_rank(Rank::Eighth));
        if (board.kings() & !us & eighth).any() || (their_pawns & seventh).any() {
            for _ in rooks_7th {
                acc.one(color, ROOK_SEVENTH);
            }
        }
    }
    let light = Bitboard::LIGHT_SQUARES;
    for sq in board.bishops() & us {
        let same_colour = if light.contains(sq) { light } else { !light };
        acc.count(color, BISHOP_PAWNS, our_pawns & same_colour);
    }
    let shielded = match color {
        Color::White => Bitboard(board.pawns().0 >> 8),
        Color::Black => Bitboard(board.pawns().0 << 8),
    };
    let minors = (board.knights() | board.bishops()) & us;
    acc.count(color, MINOR_BEHIND_PAWN, minors & shielded);
    let outposts = outpost_squares(color, att);
    acc.count(color, KNIGHT_OUTPOST, board.knights() & us & outposts);
    acc.count(color, BISHOP_OUTPOST, board.bishops() & us & outposts);
    reachable_outposts(board, color, outposts & !us, acc);
    king_protectors(board, color, acc);
    space(board, color, att, acc);
    pawns_per_piece(board, color, acc);
    long_diagonals(board, color, acc);
}

/// Outpost squares of `color`: ranks 4 to 6, defended by our pawns, out of
/// reach of every enemy pawn's advance.
fn outpost_squares(color: Color, att: &[Attacks; 2]) -> Bitboard {
    let their_reach = relative_bb(color, att[!color as usize].pawns);
    let their_span = relative_bb(color, Bitboard(fill_south(their_reach.0)));
    relative_bb(color, OUTPOST_RANKS) & att[color as usize].pawns & !their_span
}

/// Knights one jump from one of `outposts` (those not held by our pieces).
fn reachable_outposts<T: Tracer>(
    board: &Board,
    color: Color,
    outposts: Bitboard,
    acc: &mut Acc<T>,
) {
    if outposts.is_empty() {
        return;
    }
    for knight in board.knights() & board.by_color(color) {
        if (attacks::knight_attacks(knight) & outposts).any() {
            acc.one(color, REACHABLE_OUTPOST);
        }
    }
}

/// Own pawns once per own knight and once per own rook.
fn pawns_per_piece<T: Tracer>(board: &Board, color: Color, acc: &mut Acc<T>) {
    let us = board.by_color(color);
    let pawns = (board.pawns() & us).count() as i32;
    if pawns == 0 {
        return;
    }
    for (index, role) in [(KNIGHT_PAWNS, board.knights()), (ROOK_PAWNS, board.rooks())] {
        let n = (role & us).count() as i32;
        if n > 0 {
            acc.add(color, index, n * pawns);
        }
    }
}

/// Bishops that see two central squares through everything but pawns.
fn long_diagonals<T: Tracer>(board: &Board, color: Color, acc: &mut Acc<T>) {
    for sq in board.bishops() & board.by_color(color) {
        let seen = attacks::bishop_attacks(sq, board.pawns()) & CENTRE;
        if seen.more_than_one() {
            acc.one(color, LONG_DIAGONAL);
        }
    }
}

/// d4, e4, d5, e5.
const CENTRE: Bitboard = Bitboard(0x0000_0018_1800_0000);

/// How far each own knight and bishop stands from its own king.
fn king_protectors<T: Tracer>(board: &Board, color: Color, acc: &mut Acc<T>) {
    let Some(king) = board.king_of(color) else {
        return;
    };
    let us = board.by_color(color);
    for (i, minors) in [board.knights() & us, board.bishops() & us]
        .into_iter()
        .enumerate()
    {
        for sq in minors {
            acc.add(color, KING_PROTECTOR + i, king.distance(sq) as i32);
        }
    }
}

/// Files c to f, ranks 2 to 4, from White's side.
const SPACE_AREA: Bitboard = Bitboard(0x0000_0000_3c3c_3c00);

/// Room to manoeuvre behind the pawns: safe central squares on our side,
/// the ones sheltered behind our own pawns counted twice.
fn space<T: Tracer>(board: &Board, color: Color, att: &[Attacks; 2], acc: &mut Acc<T>) {
    let our_pawns = relative_bb(color, board.pawns() & board.by_color(color));
    let their_pawn_attacks = relative_bb(color, att[!color as usize].pawns);
    let safe = SPACE_AREA & !our_pawns & !their_pawn_attacks;
    // Up to three squares behind each own pawn.
    let behind = Bitboard(our_pawns.0 >> 8 | our_pawns.0 >> 16 | our_pawns.0 >> 24);
    let n = safe.count() + (safe & behind).count();
    if n > 0 {
        acc.add(color, SPACE, n as i32);
    }
}

/// The king-danger curve at `units`, interpolated between its two knots.
fn king_danger<T: Tracer>(color: Color, units: i32, acc: &mut Acc<T>) {
    let last = KING_DANGER_KNOTS - 1;
    let knot = ((units / KING_DANGER_STEP) as usize).min(last);
    let frac = if knot == last {
        0
    } else {
        units % KING_DANGER_STEP
    };
    let lo = WEIGHTS[KING_DANGER + knot];
    let hi = WEIGHTS[KING_DANGER + (knot + 1).min(last)];
    let blend = |a: i32, b: i32| (a * (KING_DANGER_STEP - frac) + b * frac) / KING_DANGER_STEP;
    acc.s[color as usize] += S(blend(lo.mg(), hi.mg()), blend(lo.eg(), hi.eg()));
    if T::RECORDS {
        let step = KING_DANGER_STEP as f32;
        let upper = frac as f32 / step;
        acc.t.add(KING_DANGER + knot, color, 1.0 - upper);
        if frac > 0 {
            acc.t.add(KING_DANGER + knot + 1, color, upper);
        }
    }
}

/// King attack by `color` on the enemy king, and the enemy king's shelter
/// scored for the enemy.
fn king_safety<T: Tracer>(board: &Board, color: Color, att: &[Attacks; 2], acc: &mut Acc<T>) {
    let Some(king) = board.king_of(!color) else {
        return;
    };
    king_attack(board, color, king, att, acc);
    shelter(board, !color, king, acc);
    pins(board, color, king, acc);
}

/// Enemy pieces that `color`'s sliders pin to the enemy king on `king`:
/// a pinned piece neither defends nor moves freely.
fn pins<T: Tracer>(board: &Board, color: Color, king: Square, acc: &mut Acc<T>) {
    let ours = board.by_color(color);
    let straight = board.rooks() | board.queens();
    let diagonal = board.bishops() | board.queens();
    let snipers = ours
        & ((attacks::rook_attacks(king, Bitboard::EMPTY) & straight)
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & diagonal));
    if snipers.is_empty() {
        return;
    }
    let theirs = board.by_color(!color);
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let between = attacks::between(king, sniper) & board.occupied();
        if between.single_square().is_some() && (between & theirs).any() {
            pinned |= between;
        }
    }
    by_victim(board, color, PIN, pinned, acc);
}

/// Danger from `color`'s pieces around the enemy king on `king`, and the
/// safe checks they have.
fn king_attack<T: Tracer>(
    board: &Board,
    color: Color,
    king: Square,
    att: &[Attacks; 2],
    acc: &mut Acc<T>,
) {
    let mine = &att[color as usize];
    let theirs = &att[!color as usize];
    let mut units = mine.king_units;
    let queenless = (board.queens() & board.by_color(color)).is_empty();
    if mine.king_attackers < 2 || queenless {
        units /= 2;
    }
    if units > 0 {
        king_danger(color, units, acc);
    }
    let defenders = theirs.pawns | theirs.knights | theirs.bishops | theirs.rooks;
    acc.count(
        color,
        KING_ZONE_WEAK,
        zone_around(king) & mine.all & !defenders,
    );
    let occ = board.occupied();
    let safe = !board.by_color(color) & !theirs.all;
    // The queen's rays are the union of these two, so look them up once.
    let diagonal = attacks::bishop_attacks(king, occ);
    let straight = attacks::rook_attacks(king, occ);
    let checks = [
        attacks::knight_attacks(king) & mine.knights,
        diagonal & mine.bishops,
        straight & mine.rooks,
        (diagonal | straight) & mine.queens,
    ];
    for (i, c) in checks.into_iter().enumerate() {
        acc.count(color, SAFE_CHECK + i, c & safe);
    }
}

/// Pawn shield, pawn storm and open files around `color`'s king on `king`.
fn shelter<T: Tracer>(board: &Board, color: Color, king: Square, acc: &mut Acc<T>) {
    let own = board.pawns() & board.by_color(color);
    let enemy = board.pawns() & board.by_color(!color);
    let files = king_files(king);
    if ((own | enemy) & files).is_empty() {
        acc.one(color, PAWNLESS_FLANK);
    }
    // Pawns counted by rank as seen from `color`, so that "d ranks ahead of
    // the king" is one index for both colours.
    let shield = rank_counts(relative_bb(color, own & files));
    let storm = rank_counts(relative_bb(color, enemy & files));
    let kr = relative_rank(color, king);
    for d in 1..=2 {
        if let Some(&n) = shield.get(kr + d)
            && n > 0
        {
            acc.add(color, SHIELD + d - 1, n.into());
        }
    }
    for d in 1..=4 {
        if let Some(&n) = storm.get(kr + d)
            && n > 0
        {
            acc.add(color, STORM + d - 1, n.into());
        }
    }
    let (own_files, enemy_files) = (occupied_files(own), occupied_files(enemy));
    let f = king.file() as u32;
    for file in f.saturating_sub(1)..=(f + 1).min(7) {
        let bit = 1 << file;
        if own_files & bit == 0 {
            let open = enemy_files & bit == 0;
            acc.one(
                color,
                if open {
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
    acc.count(color, THREAT_BY_PAWN, pieces & mine.pawns);
    // Pawns that an enemy pawn defends are not worth attacking with a piece.
    let targets = pieces | (them & board.pawns() & !theirs.pawns);
    by_victim(
        board,
        color,
        THREAT_BY_MINOR,
        targets & (mine.knights | mine.bishops),
        acc,
    );
    by_victim(board, color, THREAT_BY_ROOK, targets & mine.rooks, acc);
    let undefended = them & !board.kings() & !theirs.all;
    acc.count(color, THREAT_BY_KING, undefended & mine.king);
    acc.count(color, HANGING, undefended & mine.all);
    acc.count(
        color,
        PAWN_PUSH_THREAT,
        pieces & push_threats(board, color, att),
    );
    acc.count(color, RESTRICTED, mine.all & theirs.all & !theirs.pawns);
    if let Some(queen) = (board.queens() & them).single_square() {
        let safe = !board.by_color(color) & !theirs.pawns & (mine.all | !theirs.all);
        let occ = board.occupied();
        acc.count(
            color,
            KNIGHT_ON_QUEEN,
            attacks::knight_attacks(queen) & mine.knights & safe,
        );
        let sliders = (attacks::bishop_attacks(queen, occ) & mine.bishops)
            | (attacks::rook_attacks(queen, occ) & mine.rooks);
        acc.count(color, SLIDER_ON_QUEEN, sliders & safe);
    }
}

/// Counts `base + role - 1` for each piece of `victims`, pawn … queen.
#[inline(always)]
fn by_victim<T: Tracer>(
    board: &Board,
    color: Color,
    base: usize,
    victims: Bitboard,
    acc: &mut Acc<T>,
) {
    if victims.is_empty() {
        return;
    }
    for (i, &role) in Role::ALL[..5].iter().enumerate() {
        acc.count(color, base + i, victims & board.by_role(role));
    }
}

/// Squares our pawns would attack after one safe push (single, or double
/// from the second rank): the square they go to is empty, no enemy pawn
/// attacks it, and we defend it or the enemy does not attack it.
fn push_threats(board: &Board, color: Color, att: &[Attacks; 2]) -> Bitboard {
    let empty = relative_bb(color, !board.occupied());
    let ours = relative_bb(color, board.pawns() & board.by_color(color));
    let single = Bitboard(ours.0 << 8) & empty;
    let third = Bitboard::from_rank(Rank::Third);
    let double = Bitboard((single & third).0 << 8) & empty;
    let mine = relative_bb(color, att[color as usize].all);
    let theirs = relative_bb(color, att[!color as usize].all);
    let their_pawns = relative_bb(color, att[!color as usize].pawns);
    let safe = !their_pawns & (mine | !theirs);
    let pushed = (single | double) & safe;
    relative_bb(color, white_pawn_attacks(pushed))
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
    if (board.pawns() & board.by_color(strong)).is_empty() {
        let strong_npm = non_pawn_material(board, strong);
        let weak_npm = non_pawn_material(board, weak);
        let rook = WEIGHTS[MATERIAL + Role::Rook as usize - 1].eg();
        let only_knights = (board.by_color(strong) & !board.kings() & !board.knights()).is_empty();
        if strong_npm < rook || only_knights {
            return 0;
        }
        if strong_npm - weak_npm < rook - 100 {
            return 6;
        }
    }
    if wrong_bishop_rook_pawns(board, strong) {
        return 0;
    }
    let wb = board.bishops() & board.white();
    let bb = board.bishops() & board.black();
    if wb.single_square().is_some() && bb.single_square().is_some() {
        let light = Bitboard::LIGHT_SQUARES;
        if (wb & light).any() != (bb & light).any() {
            let others = (board.knights() | board.rooks() | board.queens()).is_empty();
            return if others { 32 } else { 48 };
        }
    }
    64
}

/// Rook pawns only, with at most bishops that cannot cover the pawns'
/// promotion square, and the defending king (with at most pawns beside
/// it) already next to that square: it can never be driven out.
fn wrong_bishop_rook_pawns(board: &Board, strong: Color) -> bool {
    let weak = !strong;
    let ours = board.by_color(strong);
    let pawns = board.pawns() & ours;
    let rook_file = if pawns.is_subset(Bitboard::from_file(File::A)) {
        File::A
    } else if pawns.is_subset(Bitboard::from_file(File::H)) {
        File::H
    } else {
        return false;
    };
    let bishops = board.bishops() & ours;
    if pawns.is_empty() || (ours & !pawns & !bishops & !board.kings()).any() {
        return false;
    }
    if (board.by_color(weak) & !board.pawns() & !board.kings()).any() {
        return false;
    }
    let corner = Square::from_coords(rook_file, strong.fold_wb(Rank::Eighth, Rank::First));
    let corner_colour = if Bitboard::LIGHT_SQUARES.contains(corner) {
        Bitboard::LIGHT_SQUARES
    } else {
        !Bitboard::LIGHT_SQUARES
    };
    let covers_corner = (bishops & corner_colour).any();
    board
        .king_of(weak)
        .is_some_and(|k| !covers_corner && k.distance(corner) <= 1)
}

/// The complexity features of `layout::COMPLEXITY`, in its order.
fn complexity_features(board: &Board, passed: &[Bitboard; 2]) -> [i32; COMPLEXITY_FEATURES] {
    let (Some(wk), Some(bk)) = (board.king_of(Color::White), board.king_of(Color::Black)) else {
        return [0; COMPLEXITY_FEATURES];
    };
    let pawns = board.pawns();
    let outflanking = wk.file().distance(bk.file()) as i32 - wk.rank().distance(bk.rank()) as i32;
    let queen_wing = Bitboard(0x0f0f_0f0f_0f0f_0f0f);
    let both_wings = (pawns & queen_wing).any() && (pawns & !queen_wing).any();
    let pawn_ending = board.occupied() == pawns | board.kings();
    [
        1,
        pawns.count() as i32,
        (passed[0] | passed[1]).count() as i32,
        outflanking,
        i32::from(both_wings),
        i32::from(pawn_ending),
    ]
}

/// The complexity term for the side ahead in the endgame part `eg`: more
/// pawns, passers and play on both wings make a lead easier to convert.
/// Its endgame part never takes more than the whole lead away; when that
/// bound applies the term is not linear in its weights and is not traced.
fn winnability<T: Tracer>(board: &Board, passed: &[Bitboard; 2], eg: i32, acc: &mut Acc<T>) -> S {
    if eg == 0 {
        return S::ZERO;
    }
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let features = complexity_features(board, passed);
    let value = features
        .iter()
        .enumerate()
        .fold(S::ZERO, |sum, (i, &f)| sum + WEIGHTS[COMPLEXITY + i] * f);
    if value.eg() >= -eg.abs() {
        for (i, &f) in features.iter().enumerate() {
            if f != 0 {
                acc.add(strong, COMPLEXITY + i, f);
            }
        }
        return acc.take();
    }
    let clamped = S(value.mg(), -eg.abs());
    if strong == Color::White {
        clamped
    } else {
        -clamped
    }
}

/// Files plus ranks between two squares (0 to 14).
fn manhattan(a: Square, b: Square) -> i32 {
    (a.file().distance(b.file()) + a.rank().distance(b.rank())) as i32
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
    let edge = 6 - centrality(wk) + MOPUP_KBNK_CORNER * kbnk_corner_nearness(board, strong, wk);
    let close = 14 - manhattan(sk, wk);
    let bonus = non_pawn_material(board, strong) + MOPUP_EDGE * edge + MOPUP_KINGS_CLOSE * close;
    if strong == Color::White {
        bonus
    } else {
        -bonus
    }
}

/// In KBNK, 14 minus the lone king's Manhattan distance to the nearer corner
/// of the bishop's colour (0 in other endings). Manhattan, so that every
/// step along the edge towards the right corner gains.
fn kbnk_corner_nearness(board: &Board, strong: Color, weak_king: Square) -> i32 {
    let bishops = board.bishops() & board.by_color(strong);
    if bishops.count() != 1 || (board.by_color(strong) & !board.kings()).count() != 2 {
        return 0;
    }
    let corners = if (bishops & Bitboard::LIGHT_SQUARES).any() {
        [Square::H1, Square::A8]
    } else {
        [Square::A1, Square::H8]
    };
    let to_corner = corners.iter().map(|c| manhattan(weak_king, *c)).min();
    14 - to_corner.unwrap_or(14)
}

#[cfg(test)]
mod tests;
