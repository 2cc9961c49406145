//! `kestrel bench`: a fixed search over a fixed set of positions. The node
//! count is a signature of the search: it changes only when search does.

use std::time::{Duration, Instant};

use crate::position::Position;
use crate::search::{History, Limits, SearchOptions, search_position};
use crate::tt::TranspositionTable;

pub const DEFAULT_DEPTH: u32 = 12;

/// Openings, middlegames, endgames and Chess960 starts, with and without
/// castling rights, checks and promotions about to happen.
pub const POSITIONS: [&str; 36] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bq1rk1/pp1nppbp/3p1np1/8/2PNP3/2N5/PP2BPPP/R1BQ1RK1 w - - 4 9",
    "r2qk2r/pppn1ppp/3bpn2/7b/2BP4/2N1PN1P/PP3PP1/R1BQ1RK1 w kq - 1 9",
    "rnbqkb1r/pp3ppp/4pn2/2pp4/3P4/2P1PN2/PP3PPP/RNBQKB1R w KQkq - 0 5",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
    "2rq1rk1/pp1bppbp/2np1np1/8/3NP3/1BN1BP2/PPPQ2PP/2KR3R b - - 0 11",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pp2bppp/4pn2/q7/3P4/P1N2P2/1P2Q1PP/2R3K1 w - - 0 21",
    "r2q1rk1/1b1nbppp/pp1ppn2/8/2PNP3/1PN1B3/P2QBPPP/R4RK1 w - - 0 12",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/8/4k3/8/8/3QK3/8 w - - 0 1",
    "8/8/8/8/4k3/8/8/R3K3 w - - 0 1",
    "8/5k2/8/8/8/2B5/8/3NK3 w - - 0 1",
    "8/8/1p1k4/p1p5/P1P5/1P1K4/8/8 w - - 0 1",
    "8/pp3k2/2p5/2P5/1P6/P4K2/8/8 w - - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    "6k1/6p1/6K1/8/8/8/8/8 b - - 0 1",
    "8/8/3k4/8/8/3K4/3R4/3r4 w - - 0 1",
    "5rk1/5ppp/8/8/8/8/5PPP/1Q4K1 w - - 0 1",
    "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQ - 0 6",
    "3r2k1/p4ppp/1p6/8/8/1P6/P4PPP/3R2K1 w - - 0 1",
    "2kr3r/pp1q1ppp/2n1bn2/3p4/3P4/2NBBN2/PPQ2PPP/R4RK1 w - - 0 13",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "r5k1/ppp2ppp/8/3N4/8/8/PPP2PPP/4R1K1 w - - 0 1",
    "8/3P3k/8/8/8/8/6K1/8 w - - 0 1",
    "8/1P6/8/8/8/8/6pk/K7 w - - 0 1",
    // Chess960
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
    "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w KQkq - 0 1",
];

pub struct BenchResult {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchResult {
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1000 / self.elapsed.as_millis().max(1)) as u64
    }
}

/// Searches every bench position to `depth` with a fresh table and history,
/// calling `each` with the position index and its node count.
pub fn run(depth: u32, hash_mb: usize, mut each: impl FnMut(usize, &str, u64)) -> BenchResult {
    let options = SearchOptions::default();
    let limits = Limits::depth(depth);
    let mut nodes = 0;
    let start = Instant::now();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let Ok(pos) = Position::from_fen(fen) else {
            log::error!("bench position {i} does not parse: {fen}");
            continue;
        };
        let Ok(tt) = TranspositionTable::new(hash_mb) else {
            log::error!("cannot allocate the bench hash table");
            break;
        };
        let mut history = History::default();
        let result = search_position(&pos, &limits, &options, &tt, &mut history, &mut |_| {});
        each(i, fen, result.nodes);
        nodes += result.nodes;
    }
    BenchResult {
        nodes,
        elapsed: start.elapsed(),
    }
}
