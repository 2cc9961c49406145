//! xorshift64*: a small, fast generator that gives the same sequence on
//! every machine, so a failing random test can be replayed from its seed.

use std::time::Duration;

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A tiny delay: mostly none or a few hundred microseconds, now and then
    /// a few milliseconds, rarely tens.
    pub fn delay(&mut self) -> Duration {
        match self.below(10) {
            0..=2 => Duration::ZERO,
            3..=6 => Duration::from_micros(self.below(500) as u64),
            7 | 8 => Duration::from_millis(1 + self.below(5) as u64),
            _ => Duration::from_millis(10 + self.below(30) as u64),
        }
    }
}
