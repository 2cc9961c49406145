//! What a `go` asks of the search, and the switches a running search obeys.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use shakmaty::Move;

use crate::tablebase::Tablebases;

#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all legal moves).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    pub fn depth(depth: u32) -> Self {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    pub fn has_clock(&self) -> bool {
        self.wtime.is_some() || self.btime.is_some() || self.movetime.is_some()
    }
}

/// Options that shape a search but are not part of `go`.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub tablebases: Option<Arc<Tablebases>>,
    /// Tables are probed only at nodes this deep or deeper.
    pub syzygy_probe_depth: i32,
    /// Wins and losses the 50-move rule turns into draws count as draws.
    pub syzygy_50_move_rule: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multipv: 1,
            move_overhead_ms: 10,
            tablebases: None,
            syzygy_probe_depth: 1,
            syzygy_50_move_rule: true,
        }
    }
}

const NO_PONDERHIT: u64 = u64::MAX;

/// Shared between the UCI thread and one search: stop, and ponder state.
/// Helper threads share one of their own, stopped by the main thread, whose
/// node counter tells the main thread how much they have searched.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// Nodes published by the searchers under this control.
    nodes: AtomicU64,
    /// Milliseconds after `started` at which `ponderhit` arrived.
    ponderhit_ms: AtomicU64,
    started: Instant,
}

impl SearchControl {
    pub fn new(pondering: bool) -> Self {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            nodes: AtomicU64::new(0),
            ponderhit_ms: AtomicU64::new(NO_PONDERHIT),
            started: Instant::now(),
        }
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    pub fn add_nodes(&self, n: u64) {
        self.nodes.fetch_add(n, Ordering::Relaxed);
    }

    /// Nodes published so far (in steps, not every node).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: our clock starts now.
    pub fn ponderhit(&self) {
        let elapsed = self.started.elapsed().as_millis() as u64;
        self.ponderhit_ms.store(elapsed, Ordering::Release);
        self.pondering.store(false, Ordering::Release);
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    pub fn started(&self) -> Instant {
        self.started
    }

    /// Milliseconds of our own clock used so far: time spent pondering
    /// before `ponderhit` is the opponent's.
    pub fn clock_elapsed_ms(&self) -> u64 {
        let total = self.total_elapsed_ms();
        match self.ponderhit_ms.load(Ordering::Acquire) {
            NO_PONDERHIT => total,
            hit => total.saturating_sub(hit),
        }
    }

    /// Milliseconds since `go`, pondering included.
    pub fn total_elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// How long the search has been thinking about this move when judging
    /// whether it has thought enough: after a `ponderhit` the time spent
    /// pondering counts, since that search is already as deep as a normal
    /// one would be (only the hard limit runs on our own clock).
    pub fn thinking_ms(&self) -> u64 {
        if self.ponderhit_ms.load(Ordering::Acquire) == NO_PONDERHIT {
            self.clock_elapsed_ms()
        } else {
            self.total_elapsed_ms()
        }
    }

    /// True once a ponder search has been converted by `ponderhit`.
    pub fn was_ponderhit(&self) -> bool {
        self.ponderhit_ms.load(Ordering::Acquire) != NO_PONDERHIT
    }
}
