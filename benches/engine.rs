//! Criterion benches: perft (against shakmaty's own perft as the yardstick),
//! evaluation cost per call, and search speed.

use criterion::{Criterion, criterion_group, criterion_main};
use kestrel::eval::nnue::Accumulator;
use kestrel::eval::{evaluate, evaluate_with, hand_crafted};
use kestrel::position::Position;
use kestrel::search::{History, Limits, SearchOptions, search_position};
use kestrel::tools::{bench, perft};
use kestrel::tt::TranspositionTable;
use shakmaty::Position as _;
use std::hint::black_box;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn perft_benches(c: &mut Criterion) {
    let pos = Position::from_fen(KIWIPETE).unwrap();
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.bench_function("kestrel kiwipete d4", |b| {
        b.iter(|| perft::perft(black_box(pos.board()), 4))
    });
    g.bench_function("shakmaty kiwipete d4", |b| {
        b.iter(|| shakmaty::perft(black_box(pos.board()), 4))
    });
    g.finish();
}

fn eval_benches(c: &mut Criterion) {
    let boards: Vec<_> = bench::POSITIONS
        .iter()
        .map(|f| Position::from_fen(f).unwrap().board().clone())
        .collect();
    c.bench_function("evaluate (per call, bench positions)", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % boards.len();
            evaluate(black_box(&boards[i]))
        })
    });
    c.bench_function("hand-crafted evaluation (per call)", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % boards.len();
            hand_crafted(black_box(&boards[i]))
        })
    });
    // What the search pays per evaluated node: the net's first layer is
    // kept up to date move by move, so only the output layer (and the
    // hand-crafted part) is computed here.
    let accumulators: Vec<_> = boards.iter().map(|b| Accumulator::new(b.board())).collect();
    c.bench_function("evaluate with an up-to-date accumulator", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % boards.len();
            evaluate_with(black_box(&boards[i]), black_box(&accumulators[i]))
        })
    });
}

fn search_benches(c: &mut Criterion) {
    let pos = Position::from_fen(KIWIPETE).unwrap();
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    g.bench_function("kiwipete depth 9", |b| {
        b.iter(|| {
            let tt = TranspositionTable::new(16).unwrap();
            let mut history = History::default();
            search_position(
                &pos,
                &Limits::depth(9),
                &SearchOptions::default(),
                &tt,
                &mut history,
                &mut |_| {},
            )
            .nodes
        })
    });
    g.finish();
}

criterion_group!(benches, perft_benches, eval_benches, search_benches);
criterion_main!(benches);
