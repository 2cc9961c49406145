//! The transposition table: clusters of four 16-byte entries, one cache
//! line each. Entries are two atomic words, the key stored xor-ed with the
//! data, so several search threads can share the table without locks; a
//! torn write simply fails the key check.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use shakmaty::{Move, Role, Square};
use thiserror::Error;

use crate::large_pages::{LargePageArray, Zeroable};

pub const MIN_HASH_MB: usize = 1;
pub const MAX_HASH_MB: usize = 65536;
pub const DEFAULT_HASH_MB: usize = 16;

const ENTRIES_PER_CLUSTER: usize = 4;
const AGE_BITS: u64 = 6;
const AGE_MASK: u8 = (1 << AGE_BITS) - 1;

#[derive(Debug, Error)]
pub enum TtError {
    #[error("cannot allocate {0} MB for the hash table")]
    Allocation(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    None = 0,
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

impl Bound {
    fn from_bits(bits: u64) -> Bound {
        match bits & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// A move in 16 bits: from, to and promotion. Castling is stored as
/// king-takes-rook, which no other move can share.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PackedMove(pub u16);

impl PackedMove {
    pub const NONE: PackedMove = PackedMove(0);

    pub fn new(m: Move) -> Self {
        let from = m.from().map_or(0, |s| s as u16);
        let to = m.to() as u16;
        let promo = m.promotion().map_or(0, |r| r as u16);
        PackedMove(from | (to << 6) | (promo << 12))
    }

    pub fn matches(self, m: Move) -> bool {
        self.0 != 0 && PackedMove::new(m) == self
    }

    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    pub fn to(self) -> Square {
        Square::new(u32::from((self.0 >> 6) & 63))
    }

    pub fn promotion(self) -> Option<Role> {
        Role::try_from(u32::from(self.0 >> 12)).ok()
    }
}

#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    pub mv: PackedMove,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
#[repr(align(64))]
struct Cluster {
    slots: [[AtomicU64; 2]; ENTRIES_PER_CLUSTER],
}

// SAFETY: a cluster is atomic integers only; all zero is four empty slots.
unsafe impl Zeroable for Cluster {}

fn pack(e: &TtEntry, age: u8) -> u64 {
    u64::from(e.mv.0)
        | (u64::from(e.score as i16 as u16) << 16)
        | (u64::from(e.eval as i16 as u16) << 32)
        | (u64::from(e.depth.clamp(0, 255) as u8) << 48)
        | ((e.bound as u64) << 56)
        | (u64::from(age & AGE_MASK) << 58)
}

fn unpack(data: u64) -> TtEntry {
    TtEntry {
        mv: PackedMove(data as u16),
        score: i32::from((data >> 16) as u16 as i16),
        eval: i32::from((data >> 32) as u16 as i16),
        depth: i32::from((data >> 48) as u8),
        bound: Bound::from_bits(data >> 56),
    }
}

fn age_of(data: u64) -> u8 {
    (data >> 58) as u8 & AGE_MASK
}

pub struct TranspositionTable {
    clusters: LargePageArray<Cluster>,
    age: AtomicU8,
}

impl TranspositionTable {
    pub fn new(mb: usize) -> Result<Self, TtError> {
        let count = (mb.clamp(MIN_HASH_MB, MAX_HASH_MB) << 20) / size_of::<Cluster>();
        let clusters = LargePageArray::zeroed(count).ok_or(TtError::Allocation(mb))?;
        Ok(Self {
            clusters,
            age: AtomicU8::new(0),
        })
    }

    pub fn size_mb(&self) -> usize {
        (self.clusters.len() * size_of::<Cluster>()) >> 20
    }

    pub fn clear(&mut self) {
        for c in self.clusters.iter_mut() {
            *c = Cluster::default();
        }
        self.age.store(0, Relaxed);
    }

    /// Marks entries written from now on as belonging to a new search.
    pub fn new_search(&self) {
        let next = (self.age.load(Relaxed) + 1) & AGE_MASK;
        self.age.store(next, Relaxed);
    }

    fn cluster(&self, key: u64) -> &Cluster {
        let index = ((u128::from(key) * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[index]
    }

    /// Asks the CPU to start loading the cluster of `key`, so that a probe
    /// made a little later finds it in cache.
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let ptr = self.cluster(key) as *const Cluster as *const i8;
            // SAFETY: a prefetch is only a hint and never faults; SSE is part
            // of the x86_64 baseline, so the instruction always exists.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        self.cluster(key).slots.iter().find_map(|[k, d]| {
            let data = d.load(Relaxed);
            (data != 0 && k.load(Relaxed) ^ data == key).then(|| unpack(data))
        })
    }

    pub fn store(&self, key: u64, mut entry: TtEntry) {
        let age = self.age.load(Relaxed);
        let cluster = self.cluster(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, [k, d]) in cluster.slots.iter().enumerate() {
            let data = d.load(Relaxed);
            if data == 0 || k.load(Relaxed) ^ data == key {
                if data != 0 {
                    let old = unpack(data);
                    if entry.mv.is_none() {
                        entry.mv = old.mv;
                    }
                    let keep_old = entry.bound != Bound::Exact
                        && old.depth > entry.depth + 3
                        && age_of(data) == age;
                    if keep_old {
                        return;
                    }
                }
                victim = i;
                break;
            }
            let stale = i32::from(age.wrapping_sub(age_of(data)) & AGE_MASK);
            let worth = unpack(data).depth - 8 * stale;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let data = pack(&entry, age);
        let [k, d] = &cluster.slots[victim];
        k.store(key ^ data, Relaxed);
        d.store(data, Relaxed);
    }

    /// Permille of sampled entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed);
        let sample = self.clusters.iter().take(250);
        let mut total: u32 = 0;
        let mut used: u32 = 0;
        for c in sample {
            for [_, d] in &c.slots {
                total += 1;
                let data = d.load(Relaxed);
                if data != 0 && age_of(data) == age {
                    used += 1;
                }
            }
        }
        (used * 1000).checked_div(total).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_an_entry() {
        let tt = TranspositionTable::new(1).unwrap();
        let e = TtEntry {
            mv: PackedMove(1234),
            score: -31000,
            eval: 55,
            depth: 12,
            bound: Bound::Lower,
        };
        tt.store(0xdead_beef, e);
        let got = tt.probe(0xdead_beef).unwrap();
        assert_eq!(got.mv, e.mv);
        assert_eq!(got.score, -31000);
        assert_eq!(got.eval, 55);
        assert_eq!(got.depth, 12);
        assert_eq!(got.bound, Bound::Lower);
        assert!(tt.probe(0xdead_bee0).is_none());
    }

    #[test]
    fn size_follows_the_request() {
        assert_eq!(TranspositionTable::new(8).unwrap().size_mb(), 8);
    }
}
