//! Static evaluations remembered by position key. The hash table keeps an
//! evaluation only while its entry survives; with a small `Hash` most
//! entries are overwritten within a move, and the same positions come back
//! through transpositions and re-searches. The evaluation depends on the
//! position alone, so a remembered one is exact and the search is
//! unchanged; only the work of the hand-crafted terms and the net's output
//! (and the net's pending first-layer updates) is saved.

use super::params::EVAL_CACHE_ENTRIES;

/// One entry: the key's upper 48 bits above a 16-bit evaluation; the lower
/// bits of the key pick the slot. 0 is an empty slot.
pub struct EvalCache {
    slots: Vec<u64>,
}

const _: () = assert!(EVAL_CACHE_ENTRIES.is_power_of_two());
const EVAL_BITS: u32 = 16;

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache {
            slots: vec![0; EVAL_CACHE_ENTRIES],
        }
    }
}

impl EvalCache {
    fn slot(key: u64) -> usize {
        key as usize & (EVAL_CACHE_ENTRIES - 1)
    }

    fn tag(key: u64) -> u64 {
        key >> EVAL_BITS << EVAL_BITS
    }

    pub fn get(&self, key: u64) -> Option<i32> {
        let entry = self.slots[Self::slot(key)];
        (entry != 0 && Self::tag(entry) == Self::tag(key)).then_some(i32::from(entry as u16 as i16))
    }

    /// Remembers `eval`, which must fit in an `i16` (as the hash table's
    /// evaluations do); anything else is not stored.
    pub fn put(&mut self, key: u64, eval: i32) {
        if let Ok(e) = i16::try_from(eval) {
            self.slots[Self::slot(key)] = Self::tag(key) | u64::from(e as u16);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_what_it_was_given_and_nothing_else() {
        let mut cache = EvalCache::default();
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(cache.get(key), None);
        cache.put(key, -321);
        assert_eq!(cache.get(key), Some(-321));
        // The same slot, a different position: a miss, then a replacement.
        let other = key ^ (1 << 40);
        assert_eq!(cache.get(other), None);
        cache.put(other, 17);
        assert_eq!(cache.get(other), Some(17));
        assert_eq!(cache.get(key), None);
        cache.put(key, 40_000);
        assert_eq!(cache.get(key), None, "out of i16 range is not stored");
    }
}
