//! A per-thread cache of the pawn-only part of the evaluation. Inside one
//! search tree the pawn structure changes only on pawn moves and captures of
//! pawns, so most evaluations find their pawn terms here.
//!
//! Entries are keyed by the exact pawn bitboards rather than a hash, so a hit
//! is never wrong and the evaluation stays a pure function of the position.
//! The cache lives in a thread-local: every search thread gets its own with
//! no locking, and callers of `evaluate` need not know it exists.

use std::cell::RefCell;

use shakmaty::{Bitboard, Board, Color};

use super::score::S;
use crate::position::pawn_hash;

/// What the evaluation keeps of a pawn structure: its score (White minus
/// Black) and each side's passed pawns, which the king-dependent passer
/// terms read.
#[derive(Clone, Copy, Default)]
pub struct PawnInfo {
    pub score: S,
    pub passed: [Bitboard; 2],
}

#[derive(Clone, Copy, Default)]
struct Entry {
    pawns: [Bitboard; 2],
    info: PawnInfo,
}

/// 2^14 entries of 40 bytes: 640 KB a thread, a small fraction of what a
/// search touches, and enough for the few thousand pawn structures one
/// search sees.
const ENTRIES: usize = 1 << 14;

thread_local! {
    static CACHE: RefCell<Vec<Entry>> = RefCell::new(vec![Entry::default(); ENTRIES]);
}

fn slot(board: &Board) -> usize {
    (pawn_hash(board) >> (64 - ENTRIES.trailing_zeros())) as usize
}

/// The pawn terms of `board`, from the cache or from `compute` (which then
/// fills the cache). An empty entry stands for "no pawns at all", whose
/// terms are zero, so a zeroed table is already correct.
pub fn pawn_info(board: &Board, compute: impl FnOnce() -> PawnInfo) -> PawnInfo {
    let pawns = [
        board.pawns() & board.by_color(Color::White),
        board.pawns() & board.by_color(Color::Black),
    ];
    let index = slot(board);
    let cached = CACHE.with_borrow(|c| {
        let e = &c[index];
        (e.pawns == pawns).then_some(e.info)
    });
    if let Some(info) = cached {
        return info;
    }
    let info = compute();
    CACHE.with_borrow_mut(|c| c[index] = Entry { pawns, info });
    info
}
