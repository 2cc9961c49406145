//! The evaluation's neural part: (768 x KING_BUCKETS -> HIDDEN) x 2 -> 1, trained by
//! `kestrel nnue-train` on Kestrel's own self-play data. A net is either
//! residual (its output is a correction added to the hand-crafted
//! evaluation; the one in the tree) or the whole score.
//!
//! Inputs are the 768 (colour, role, square) features seen from each side:
//! the side's own pieces first, squares flipped vertically for Black, and
//! flipped horizontally when that side's king stands on files a-d, so that
//! a position and its mirror image share weights (the net learns one wing
//! and sees twice the data for it). Each side's features also take one of
//! `KING_BUCKETS` sets of weights by where its king stands, so a piece can
//! count differently beside a castled king, a king in the centre and a king
//! that has come out for the endgame. One accumulator per side, with weights
//! shared between the two; the hidden layer is the side to move's
//! accumulator followed by the other's, activated by the squared clipped
//! ReLU. Integer inference: first layer scaled by `QA`, output weights by
//! `QB`.
//!
//! The search keeps an `Accumulator` per ply and updates it from the move
//! played (two to four rows of the first layer instead of about thirty);
//! `evaluate` rebuilds both from scratch for callers outside the search.

use std::sync::OnceLock;

use shakmaty::{Bitboard, Board, CastlingSide, Chess, Color, File, Move, Position, Role, Square};

/// Features per king bucket: (colour, role, square).
pub const PIECE_FEATURES: usize = 768;
/// Sets of first-layer weights, chosen by where the viewing side's king
/// stands (see `KING_BUCKET`).
pub const KING_BUCKETS: usize = 4;
pub const INPUTS: usize = PIECE_FEATURES * KING_BUCKETS;
pub const HIDDEN: usize = 128;
/// First-layer quantisation: 1.0 is `QA`.
pub const QA: i32 = 255;
/// Output-layer quantisation: 1.0 is `QB`.
pub const QB: i32 = 64;
/// Centipawns per unit of the net's output; the logistic scale of the
/// training target, chosen so that the net speaks the same centipawns as the
/// search's margins (the hand-crafted evaluation's fitted K was 1 / 150).
pub const SCALE: i32 = 150;
/// Largest weight magnitude the trainer allows: 1.98 * QB still fits an i8,
/// and 32 features of 1.98 * QA fit the i16 accumulator.
pub const WEIGHT_CLIP: f32 = 1.98;

const MAGIC: &[u8; 8] = b"KSTRNN02";

/// The net built into the binary.
static EMBEDDED: &[u8] = include_bytes!("kestrel.nnue");

/// The king bucket of each square of the viewing side's king, seen from
/// that side with the king on files e-h: a castled king in the corner, a
/// king on its first rank in the centre, a king on its second rank, and a
/// king further up (mostly endgames). King safety and the endgame each get
/// weights of their own.
const KING_BUCKET: [u8; 64] = {
    let mut table = [3u8; 64];
    let mut file = 4;
    while file < 8 {
        table[file] = if file >= 6 { 0 } else { 1 };
        table[8 + file] = 2;
        file += 1;
    }
    table
};

/// How `view` sees the board: whether its features are mirrored left-right
/// (its king on files a-d), and which king bucket its weights come from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ViewKey {
    mirror: bool,
    bucket: u8,
}

impl ViewKey {
    /// The key for `view`'s king on `king`.
    #[inline]
    pub fn of_king(view: Color, king: Square) -> ViewKey {
        let mirror = king.file() <= File::D;
        ViewKey {
            mirror,
            bucket: KING_BUCKET[oriented(view, mirror, king)],
        }
    }

    /// The key for `view` on `board` (a board without that king, which only
    /// the trainer's odd inputs could give, uses the corner bucket).
    #[inline]
    pub fn of(board: &Board, view: Color) -> ViewKey {
        board.king_of(view).map_or(
            ViewKey {
                mirror: false,
                bucket: 0,
            },
            |k| ViewKey::of_king(view, k),
        )
    }
}

/// `sq` as `view` sees it: flipped vertically for Black, and left-right
/// when `mirror`.
#[inline]
fn oriented(view: Color, mirror: bool, sq: Square) -> usize {
    let mut s = sq as usize;
    if view == Color::Black {
        s ^= 56;
    }
    if mirror {
        s ^= 7;
    }
    s
}

/// Index of a piece's feature as seen by `view`.
#[inline]
pub fn feature(view: Color, key: ViewKey, color: Color, role: Role, sq: Square) -> usize {
    let side = usize::from(color != view);
    usize::from(key.bucket) * PIECE_FEATURES
        + side * 384
        + (role as usize - 1) * 64
        + oriented(view, key.mirror, sq)
}

/// Calls `f` with the feature index of every piece as seen by `view`.
#[inline]
pub fn for_each_feature(board: &Board, view: Color, mut f: impl FnMut(usize)) {
    let key = ViewKey::of(board, view);
    for color in Color::ALL {
        for role in Role::ALL {
            let bb: Bitboard = board.by_piece(role.of(color));
            for sq in bb {
                f(feature(view, key, color, role, sq));
            }
        }
    }
}

/// A quantised net.
pub struct Network {
    /// The net's output is a correction added to the hand-crafted
    /// evaluation rather than the whole score.
    pub residual: bool,
    w1: Vec<i16>,
    b1: [i16; HIDDEN],
    w2: [i16; 2 * HIDDEN],
    b2: i32,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    #[error("not a Kestrel net (bad magic)")]
    Magic,
    #[error("net has hidden size {0}, this build expects {HIDDEN}")]
    Hidden(usize),
    #[error("net has {0} king buckets, this build expects {KING_BUCKETS}")]
    Buckets(usize),
    #[error("net file is {0} bytes, expected {1}")]
    Length(usize, usize),
}

/// Size in bytes of a net file with `hidden` units per side and `buckets`
/// king buckets.
pub const fn file_len(hidden: usize, buckets: usize) -> usize {
    8 + 4 + 4 + 2 * (PIECE_FEATURES * buckets * hidden + hidden + 2 * hidden) + 4
}

/// Size in bytes of a net file of this build.
pub const FILE_LEN: usize = file_len(HIDDEN, KING_BUCKETS);

/// The flags word of a net file: bit 0 residual, bits 8-15 the number of
/// king buckets (0 in files from before buckets, which had one).
fn flags(residual: bool, buckets: usize) -> u32 {
    u32::from(residual) | (buckets as u32) << 8
}

/// The quantised weights of a net file of any hidden size, as stored:
/// `w1` row-major by feature, `w2` the side to move's half first.
pub struct NetParts {
    pub hidden: usize,
    pub buckets: usize,
    pub residual: bool,
    pub w1: Vec<i16>,
    pub b1: Vec<i16>,
    pub w2: Vec<i16>,
    pub b2: i32,
}

impl NetParts {
    pub fn from_bytes(bytes: &[u8]) -> Result<NetParts, NetError> {
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err(NetError::Magic);
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let hidden = word(8) as usize;
        let buckets = ((word(12) >> 8) & 0xff).max(1) as usize;
        let len = file_len(hidden, buckets);
        if bytes.len() != len {
            return Err(NetError::Length(bytes.len(), len));
        }
        let residual = bytes[12] & 1 != 0;
        let mut words = bytes[16..len - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let w1 = words
            .by_ref()
            .take(PIECE_FEATURES * buckets * hidden)
            .collect();
        let b1 = words.by_ref().take(hidden).collect();
        let w2 = words.collect();
        Ok(NetParts {
            hidden,
            buckets,
            residual,
            w1,
            b1,
            w2,
            b2: word(len - 4) as i32,
        })
    }
}

impl Network {
    pub fn from_bytes(bytes: &[u8]) -> Result<Box<Network>, NetError> {
        let parts = NetParts::from_bytes(bytes)?;
        if parts.hidden != HIDDEN {
            return Err(NetError::Hidden(parts.hidden));
        }
        if parts.buckets != KING_BUCKETS {
            return Err(NetError::Buckets(parts.buckets));
        }
        let mut b1 = [0; HIDDEN];
        b1.copy_from_slice(&parts.b1);
        let mut w2 = [0; 2 * HIDDEN];
        w2.copy_from_slice(&parts.w2);
        Ok(Box::new(Network {
            residual: parts.residual,
            w1: parts.w1,
            b1,
            w2,
            b2: parts.b2,
        }))
    }

    fn accumulate(&self, board: &Board, view: Color) -> [i16; HIDDEN] {
        let mut features = [0usize; 32];
        let mut n = 0;
        for_each_feature(board, view, |f| {
            if n < 32 {
                features[n] = f;
            }
            n += 1;
        });
        let mut acc = [0; HIDDEN];
        apply_rows(&mut acc, &self.b1, &self.w1, &features[..n.min(32)], &[]);
        acc
    }

    /// Score from the side to move's point of view, in centipawns, from
    /// scratch.
    pub fn evaluate(&self, board: &Chess) -> i32 {
        let us = board.turn();
        let mine = self.accumulate(board.board(), us);
        let theirs = self.accumulate(board.board(), !us);
        self.output(&mine, &theirs)
    }

    fn output(&self, mine: &[i16; HIDDEN], theirs: &[i16; HIDDEN]) -> i32 {
        let sum = output_sum(mine, theirs, &self.w2);
        let out = sum / i64::from(QA) + i64::from(self.b2);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

/// `out = parent + the rows of adds - the rows of subs`, in one pass, a
/// chunk of the accumulator at a time so the partial sums stay in
/// registers.
#[inline(always)]
fn rows_generic(
    out: &mut [i16; HIDDEN],
    parent: &[i16; HIDDEN],
    w1: &[i16],
    adds: &[usize],
    subs: &[usize],
) {
    for c in (0..HIDDEN).step_by(CHUNK) {
        let mut sum = [0i16; CHUNK];
        sum.copy_from_slice(&parent[c..c + CHUNK]);
        fold_rows(&mut sum, w1, adds, c, i16::wrapping_add);
        fold_rows(&mut sum, w1, subs, c, i16::wrapping_sub);
        out[c..c + CHUNK].copy_from_slice(&sum);
    }
}

const CHUNK: usize = 32;

/// Folds the chunk at `c` of each feature's first-layer row into `sum`.
#[inline(always)]
fn fold_rows(
    sum: &mut [i16; CHUNK],
    w1: &[i16],
    features: &[usize],
    c: usize,
    op: impl Fn(i16, i16) -> i16,
) {
    for &f in features {
        let row: &[i16; CHUNK] = w1[f * HIDDEN + c..][..CHUNK]
            .try_into()
            .unwrap_or(&[0; CHUNK]);
        for (s, &w) in sum.iter_mut().zip(row) {
            *s = op(*s, w);
        }
    }
}

/// The output layer's sum, scaled by QA * QA * QB.
#[inline(always)]
fn output_generic(mine: &[i16; HIDDEN], theirs: &[i16; HIDDEN], w2: &[i16; 2 * HIDDEN]) -> i64 {
    let half = |acc: &[i16; HIDDEN], w: &[i16]| -> i32 {
        acc.iter()
            .zip(w)
            .map(|(&a, &w)| {
                let v = i32::from(a).clamp(0, QA);
                v * i32::from(w) * v
            })
            .sum()
    };
    i64::from(half(mine, &w2[..HIDDEN])) + i64::from(half(theirs, &w2[HIDDEN..]))
}

// The build targets x86-64-v2 (128-bit vectors); where the CPU has AVX2 the
// two hot loops are compiled a second time for 256-bit vectors and chosen
// at run time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn rows_avx2(
    out: &mut [i16; HIDDEN],
    parent: &[i16; HIDDEN],
    w1: &[i16],
    adds: &[usize],
    subs: &[usize],
) {
    rows_generic(out, parent, w1, adds, subs)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn output_avx2(mine: &[i16; HIDDEN], theirs: &[i16; HIDDEN], w2: &[i16; 2 * HIDDEN]) -> i64 {
    output_generic(mine, theirs, w2)
}

fn apply_rows(
    out: &mut [i16; HIDDEN],
    parent: &[i16; HIDDEN],
    w1: &[i16],
    adds: &[usize],
    subs: &[usize],
) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2, checked just above.
        return unsafe { rows_avx2(out, parent, w1, adds, subs) };
    }
    rows_generic(out, parent, w1, adds, subs)
}

fn output_sum(mine: &[i16; HIDDEN], theirs: &[i16; HIDDEN], w2: &[i16; 2 * HIDDEN]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2, checked just above.
        return unsafe { output_avx2(mine, theirs, w2) };
    }
    output_generic(mine, theirs, w2)
}

/// Whether `m` moves the mover's king to a square with another view key
/// (across the d/e-file line or into another king bucket), which changes
/// all of that side's features.
fn king_changes_key(mover: Color, m: Move) -> bool {
    let (from, to) = match m {
        Move::Normal {
            role: Role::King,
            from,
            to,
            ..
        } => (from, to),
        Move::Castle { king, rook } => (
            king,
            CastlingSide::from_king_side(king < rook).king_to(mover),
        ),
        _ => return false,
    };
    ViewKey::of_king(mover, from) != ViewKey::of_king(mover, to)
}

#[derive(Clone, Copy)]
enum Pending {
    /// The accumulator is up to date.
    Done,
    /// The move from the previous ply has not been applied yet.
    Move(Color, Move),
    /// A null move: the previous ply's accumulator, copied when needed.
    Null,
}

/// The accumulators of the line being searched, one per ply, brought up to
/// date only when a position is evaluated, so nodes left through the hash
/// table before their evaluation cost nothing here (0.4 % of the
/// instructions of `kestrel bench 8` against updating at every move).
pub struct AccumulatorStack {
    accumulators: Vec<Accumulator>,
    pending: Vec<Pending>,
}

impl AccumulatorStack {
    pub fn new(root: &Board, plies: usize) -> Self {
        AccumulatorStack {
            accumulators: vec![Accumulator::new(root); plies],
            pending: vec![Pending::Done; plies],
        }
    }

    /// `mover` played `m` from the position at `ply`, giving `after`.
    pub fn push_move(&mut self, ply: usize, mover: Color, m: Move, after: &Board) {
        if king_changes_key(mover, m) {
            // The rebuilt view needs this board, so apply the move now.
            self.bring_up_to_date(ply);
            let (done, rest) = self.accumulators.split_at_mut(ply + 1);
            rest[0].update_from(&done[ply], mover, m, after);
            self.pending[ply + 1] = Pending::Done;
        } else {
            self.pending[ply + 1] = Pending::Move(mover, m);
        }
    }

    /// A null move was made from the position at `ply`.
    pub fn push_null(&mut self, ply: usize) {
        self.pending[ply + 1] = Pending::Null;
    }

    /// The accumulator of the position at `ply`, brought up to date.
    pub fn current(&mut self, ply: usize) -> &Accumulator {
        self.bring_up_to_date(ply);
        &self.accumulators[ply]
    }

    fn bring_up_to_date(&mut self, ply: usize) {
        let mut base = ply;
        while !matches!(self.pending[base], Pending::Done) {
            base -= 1;
        }
        for p in base + 1..=ply {
            let (done, rest) = self.accumulators.split_at_mut(p);
            match self.pending[p] {
                Pending::Move(mover, m) => rest[0].apply(&done[p - 1], mover, m, None),
                Pending::Null => rest[0].clone_from(&done[p - 1]),
                Pending::Done => {}
            }
            self.pending[p] = Pending::Done;
        }
    }
}

type Change = Option<(Color, Role, Square)>;

/// The feature indices of `changes` as seen by `view`, and how many there are.
fn feature_indices(changes: &[Change; 2], view: Color, key: ViewKey) -> ([usize; 2], usize) {
    let mut indices = [0; 2];
    let mut n = 0;
    for &(color, role, sq) in changes.iter().flatten() {
        indices[n] = feature(view, key, color, role, sq);
        n += 1;
    }
    (indices, n)
}

/// The pieces a move takes off the board and puts on it (at most two each).
fn changes(mover: Color, m: Move) -> ([Change; 2], [Change; 2]) {
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => (
            [Some((mover, role, from)), capture.map(|c| (!mover, c, to))],
            [Some((mover, promotion.unwrap_or(role), to)), None],
        ),
        Move::EnPassant { from, to } => (
            [
                Some((mover, Role::Pawn, from)),
                Some((
                    !mover,
                    Role::Pawn,
                    Square::from_coords(to.file(), from.rank()),
                )),
            ],
            [Some((mover, Role::Pawn, to)), None],
        ),
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            (
                [
                    Some((mover, Role::King, king)),
                    Some((mover, Role::Rook, rook)),
                ],
                [
                    Some((mover, Role::King, side.king_to(mover))),
                    Some((mover, Role::Rook, side.rook_to(mover))),
                ],
            )
        }
        Move::Put { role, to } => ([None, None], [Some((mover, role, to)), None]),
    }
}

/// The first layer's output for both views of one position, kept per ply by
/// the search and updated move by move: a move changes two to four
/// features, far fewer than the thirty a rebuild adds up.
#[derive(Clone)]
#[repr(C, align(64))]
pub struct Accumulator {
    views: [[i16; HIDDEN]; 2],
    keys: [ViewKey; 2],
}

fn view_index(view: Color) -> usize {
    match view {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Accumulator {
    /// Both views built from scratch.
    pub fn new(board: &Board) -> Self {
        let net = network();
        let mut acc = Accumulator {
            views: [[0; HIDDEN]; 2],
            keys: [
                ViewKey::of(board, Color::White),
                ViewKey::of(board, Color::Black),
            ],
        };
        for view in Color::ALL {
            acc.views[view_index(view)] = net.accumulate(board, view);
        }
        acc
    }

    /// Sets `self` to `parent` after `mover` played `m`, giving `after`.
    /// A view whose king moved to a square of another view key is rebuilt.
    pub fn update_from(&mut self, parent: &Accumulator, mover: Color, m: Move, after: &Board) {
        self.apply(parent, mover, m, Some(after));
    }

    /// `update_from` for a move that leaves both view keys as they were, so
    /// that no view is rebuilt and the board is not needed.
    fn apply(&mut self, parent: &Accumulator, mover: Color, m: Move, after: Option<&Board>) {
        let net = network();
        let (removed, added) = changes(mover, m);
        for view in Color::ALL {
            let v = view_index(view);
            let key = after.map_or(parent.keys[v], |b| ViewKey::of(b, view));
            self.keys[v] = key;
            if let Some(board) = after.filter(|_| key != parent.keys[v]) {
                self.views[v] = net.accumulate(board, view);
                continue;
            }
            let (subs, n_subs) = feature_indices(&removed, view, key);
            let (adds, n_adds) = feature_indices(&added, view, key);
            apply_rows(
                &mut self.views[v],
                &parent.views[v],
                &net.w1,
                &adds[..n_adds],
                &subs[..n_subs],
            );
        }
    }

    /// Score from the side to move's point of view, in centipawns.
    pub fn evaluate(&self, turn: Color) -> i32 {
        let us = view_index(turn);
        network().output(&self.views[us], &self.views[1 - us])
    }
}

/// The embedded net, parsed on first use.
pub fn network() -> &'static Network {
    static NET: OnceLock<Box<Network>> = OnceLock::new();
    NET.get_or_init(|| match Network::from_bytes(EMBEDDED) {
        Ok(net) => net,
        // The file is part of the source tree; a mismatch is a build error
        // that tests catch, not something a user can cause.
        Err(e) => panic!("embedded net: {e}"),
    })
}

/// Score from the side to move's point of view, in centipawns.
#[inline]
pub fn evaluate(board: &Chess) -> i32 {
    network().evaluate(board)
}

/// Writes a net file from quantised parts (used by the trainer); the
/// hidden size is `b1`'s length and the number of king buckets follows
/// from `w1`'s.
pub fn to_bytes(residual: bool, w1: &[i16], b1: &[i16], w2: &[i16], b2: i32) -> Vec<u8> {
    let buckets = w1.len() / (PIECE_FEATURES * b1.len());
    let mut out = Vec::with_capacity(file_len(b1.len(), buckets));
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(b1.len() as u32).to_le_bytes());
    out.extend_from_slice(&flags(residual, buckets).to_le_bytes());
    for v in w1.iter().chain(b1).chain(w2) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&b2.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position as KPosition;
    use crate::tools::datagen::Rng;

    /// Along random games from positions with castling, en passant and
    /// promotions, the accumulator updated move by move equals a fresh one.
    #[test]
    fn incremental_update_matches_rebuild() {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ];
        let mut rng = Rng::new(11);
        for fen in starts {
            for _ in 0..20 {
                let mut board = KPosition::from_fen(fen).unwrap().board().clone();
                let mut acc = Accumulator::new(board.board());
                for _ in 0..60 {
                    let moves = board.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.below(moves.len() as u64) as usize];
                    let mut child = board.clone();
                    child.play_unchecked(m);
                    let mut next = acc.clone();
                    next.update_from(&acc, board.turn(), m, child.board());
                    let fresh = Accumulator::new(child.board());
                    assert!(next.views == fresh.views, "after {m:?} from {}", fen);
                    assert_eq!(next.evaluate(child.turn()), network().evaluate(&child));
                    board = child;
                    acc = next;
                }
            }
        }
    }

    /// A depth-first walk over random lines, evaluating some nodes: the lazily
    /// updated stack always agrees with a fresh evaluation.
    #[test]
    fn lazy_stack_matches_rebuild() {
        let mut rng = Rng::new(23);
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
        ] {
            let root = KPosition::from_fen(fen).unwrap().board().clone();
            let mut stack = AccumulatorStack::new(root.board(), 40);
            let mut line = vec![root];
            for _ in 0..3000 {
                let ply = line.len() - 1;
                let board = line[ply].clone();
                let moves = board.legal_moves();
                if rng.below(3) == 0 {
                    let acc = stack.current(ply);
                    assert_eq!(acc.evaluate(board.turn()), network().evaluate(&board));
                }
                if moves.is_empty() || ply >= 30 || rng.below(4) == 0 {
                    if ply > 0 {
                        line.pop();
                    }
                    continue;
                }
                if rng.below(10) == 0
                    && !board.is_check()
                    && let Ok(null) = board.clone().swap_turn()
                {
                    stack.push_null(ply);
                    line.push(null);
                    continue;
                }
                let m = moves[rng.below(moves.len() as u64) as usize];
                let mut child = board.clone();
                child.play_unchecked(m);
                stack.push_move(ply, board.turn(), m, child.board());
                line.push(child);
            }
        }
    }

    /// The net scores a position and its colour-flipped twin alike, and a
    /// position and its left-right mirror image alike.
    #[test]
    fn colour_and_mirror_symmetry() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let pos = KPosition::from_fen(fen).unwrap();
        let flipped = pos.colour_flipped().unwrap();
        assert_eq!(evaluate(pos.board()), evaluate(flipped.board()));
        let a = KPosition::from_fen("4k3/pp3ppp/2n5/8/3P4/5N2/PP3PPP/2K5 w - - 0 1").unwrap();
        let b = KPosition::from_fen("3k4/ppp3pp/5n2/8/4P3/2N5/PPP3PP/5K2 w - - 0 1").unwrap();
        assert_eq!(evaluate(a.board()), evaluate(b.board()));
    }

    /// Each side's king picks its bucket from its own side of the board,
    /// wings mirrored: the castled corner, the first rank's centre, the
    /// second rank, and the rest.
    #[test]
    fn king_buckets_follow_the_own_side_and_wing() {
        let bucket = |view, sq| ViewKey::of_king(view, sq).bucket;
        for (sq, b) in [
            (Square::G1, 0),
            (Square::H1, 0),
            (Square::B1, 0),
            (Square::E1, 1),
            (Square::D1, 1),
            (Square::F2, 2),
            (Square::A2, 2),
            (Square::E3, 3),
            (Square::H8, 3),
        ] {
            assert_eq!(bucket(Color::White, sq), b, "{sq:?}");
            assert_eq!(bucket(Color::Black, sq.flip_vertical()), b, "{sq:?}");
        }
        let king_move = |from, to| Move::Normal {
            role: Role::King,
            from,
            capture: None,
            to,
            promotion: None,
        };
        assert!(king_changes_key(
            Color::White,
            king_move(Square::G1, Square::G2)
        ));
        assert!(king_changes_key(
            Color::Black,
            king_move(Square::E5, Square::D4)
        ));
        assert!(!king_changes_key(
            Color::Black,
            king_move(Square::E5, Square::F6)
        ));
        assert!(!king_changes_key(
            Color::White,
            king_move(Square::G1, Square::H1)
        ));
    }

    #[test]
    fn embedded_net_round_trips() {
        let net = Network::from_bytes(EMBEDDED).expect("embedded net");
        let bytes = to_bytes(net.residual, &net.w1, &net.b1, &net.w2, net.b2);
        assert!(bytes == EMBEDDED);
        assert_eq!(
            Network::from_bytes(&bytes[..bytes.len() - 1]).err(),
            Some(NetError::Length(FILE_LEN - 1, FILE_LEN))
        );
        assert_eq!(
            Network::from_bytes(b"nonsense").err(),
            Some(NetError::Magic)
        );
    }
}
