//! Evaluation cost per call over the bench positions. Timing is noisy on a
//! shared machine, so this only reports: `cargo test --release --test
//! eval_speed -- --ignored --nocapture`.

use std::hint::black_box;
use std::time::Instant;

use kestrel::eval::evaluate;
use kestrel::position::Position;
use kestrel::tools::bench::POSITIONS;

#[test]
#[ignore]
fn evaluation_ns_per_call() {
    let boards: Vec<_> = POSITIONS
        .iter()
        .map(|f| Position::from_fen(f).unwrap().board().clone())
        .collect();
    let rounds = 20_000;
    let mut best = f64::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        let mut sum = 0i64;
        for _ in 0..rounds {
            for b in &boards {
                sum += evaluate(black_box(b)) as i64;
            }
        }
        black_box(sum);
        let ns = start.elapsed().as_nanos() as f64 / (rounds * boards.len()) as f64;
        best = best.min(ns);
    }
    println!("evaluate: {best:.1} ns/call (best of 5)");
}
