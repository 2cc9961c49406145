//! `kestrel tune`: Texel-style fitting of every evaluation weight at once.
//!
//! Reads the `FEN;score;result` lines of `kestrel datagen`, traces the
//! evaluation of each position (how often each weight is used, White minus
//! Black, plus phase and endgame scale), fits the logistic constant K to the
//! current weights, then runs Adam on the mean squared error between
//! `sigmoid(K * eval)` and a blend of the game result and
//! `sigmoid(K * search score)`. The endgame scale is taken as fixed per
//! position (computed with the starting weights); bare-king positions, scored
//! by the untuned mop-up alone, are left out. The result is
//! written as Rust source over `src/eval/params.rs`, keeping everything after
//! its "fixed (not tuned)" marker.

use std::time::Instant;

use shakmaty::Position as _;

use crate::eval::layout::{BLOCKS, N_WEIGHTS, is_frozen};
use crate::eval::params::{PHASE_TOTAL, WEIGHTS};
use crate::eval::{Trace, trace};
use crate::position::Position;
use crate::tools::map_chunks;

#[derive(Clone, Debug)]
pub struct Config {
    pub data: String,
    pub out: String,
    pub epochs: usize,
    pub lr: f64,
    /// Weight of the game result in the target; the rest is the search score.
    pub lambda: f64,
    pub threads: usize,
    pub batch: usize,
    /// The logistic constant to use instead of fitting one, so that the
    /// losses of runs with different terms are on the same scale.
    pub k: Option<f64>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            data: "data.txt".into(),
            out: "src/eval/params.rs".into(),
            epochs: 100,
            lr: 0.5,
            lambda: 0.5,
            threads: 2,
            batch: 16384,
            k: None,
        }
    }
}

/// One traced position.
struct Entry {
    start: u32,
    len: u16,
    /// Phase share of the middlegame, 0..1.
    rho: f32,
    /// Endgame scale, 0..1.
    scale: f32,
    result: f32,
    score: f32,
}

struct Data {
    entries: Vec<Entry>,
    coefs: Vec<(u16, f32)>,
}

fn parse_line(line: &str) -> Option<(Position, f32, f32)> {
    let mut parts = line.split(';');
    let fen = parts.next()?;
    let score: f32 = parts.next()?.trim().parse().ok()?;
    let result: f32 = parts.next()?.trim().parse().ok()?;
    let pos = Position::from_fen(fen).ok()?;
    Some((pos, score, result))
}

fn trace_lines(lines: &[&str]) -> (Data, f64) {
    let mut data = Data {
        entries: Vec::with_capacity(lines.len()),
        coefs: Vec::with_capacity(lines.len() * 48),
    };
    let mut mismatch = 0.0;
    let w: Vec<[f64; 2]> = WEIGHTS
        .iter()
        .map(|s| [s.mg() as f64, s.eg() as f64])
        .collect();
    for line in lines {
        let Some((pos, score, result)) = parse_line(line) else {
            continue;
        };
        if score.abs() > 3000.0 || pos.board().is_check() {
            continue;
        }
        let mut t = Trace::default();
        let info = trace(pos.board(), &mut t);
        if info.special {
            continue;
        }
        let start = data.coefs.len() as u32;
        for (i, &c) in t.coefs.iter().enumerate() {
            if c != 0.0 {
                data.coefs.push((i as u16, c));
            }
        }
        let entry = Entry {
            start,
            len: (data.coefs.len() as u32 - start) as u16,
            rho: info.phase as f32 / PHASE_TOTAL as f32,
            scale: info.scale as f32 / 64.0,
            result,
            score,
        };
        mismatch += (model_eval(&data, &entry, &w) - info.white_score as f64).abs();
        data.entries.push(entry);
    }
    (data, mismatch)
}

fn load(cfg: &Config) -> Result<Data, String> {
    let text =
        std::fs::read_to_string(&cfg.data).map_err(|e| format!("cannot read {}: {e}", cfg.data))?;
    let lines: Vec<&str> = text.lines().collect();
    let parts = map_chunks(&lines, cfg.threads, trace_lines);
    let mut data = Data {
        entries: Vec::new(),
        coefs: Vec::new(),
    };
    let mut mismatch = 0.0;
    for (part, m) in parts {
        let offset = data.coefs.len() as u32;
        mismatch += m;
        data.coefs.extend(part.coefs);
        data.entries.extend(part.entries.into_iter().map(|mut e| {
            e.start += offset;
            e
        }));
    }
    eprintln!(
        "tune: {} positions from {} lines, {} coefficients, mean |trace - eval| {:.2} cp",
        data.entries.len(),
        lines.len(),
        data.coefs.len(),
        mismatch / data.entries.len().max(1) as f64
    );
    if data.entries.is_empty() {
        return Err("no usable positions".into());
    }
    Ok(data)
}

fn model_eval(data: &Data, e: &Entry, w: &[[f64; 2]]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &data.coefs[e.start as usize..e.start as usize + e.len as usize] {
        mg += w[i as usize][0] * c as f64;
        eg += w[i as usize][1] * c as f64;
    }
    (mg * e.rho as f64 + eg * (1.0 - e.rho as f64)) * e.scale as f64
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn target(e: &Entry, k: f64, lambda: f64) -> f64 {
    lambda * e.result as f64 + (1.0 - lambda) * sigmoid(k * e.score as f64)
}

/// Mean squared error over all entries, in parallel.
fn loss(data: &Data, w: &[[f64; 2]], k: f64, lambda: f64, threads: usize) -> f64 {
    let all: Vec<u32> = (0..data.entries.len() as u32).collect();
    loss_on(data, &all, w, k, lambda, threads)
}

/// Mean squared error over the entries `set`, in parallel.
fn loss_on(data: &Data, set: &[u32], w: &[[f64; 2]], k: f64, lambda: f64, threads: usize) -> f64 {
    let parts = map_chunks(set, threads, |c| {
        c.iter()
            .map(|&i| {
                let e = &data.entries[i as usize];
                let d = sigmoid(k * model_eval(data, e, w)) - target(e, k, lambda);
                d * d
            })
            .sum::<f64>()
    });
    parts.iter().sum::<f64>() / set.len().max(1) as f64
}

/// K minimising the error against game results alone with the given weights.
fn fit_k(data: &Data, w: &[[f64; 2]], threads: usize) -> f64 {
    let (mut lo, mut hi) = (0.0005f64, 0.03f64);
    for _ in 0..40 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if loss(data, w, a, 1.0, threads) < loss(data, w, b, 1.0, threads) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Gradient of the mean squared error over `batch` (indices into entries).
fn gradient(
    data: &Data,
    batch: &[u32],
    w: &[[f64; 2]],
    k: f64,
    lambda: f64,
    threads: usize,
) -> Vec<[f64; 2]> {
    let parts = map_chunks(batch, threads, |c| {
        let mut g = vec![[0.0f64; 2]; N_WEIGHTS];
        for &idx in c {
            let e = &data.entries[idx as usize];
            let p = sigmoid(k * model_eval(data, e, w));
            let d = 2.0 * (p - target(e, k, lambda)) * p * (1.0 - p) * k;
            let gm = d * e.rho as f64 * e.scale as f64;
            let ge = d * (1.0 - e.rho as f64) * e.scale as f64;
            let s = e.start as usize;
            for &(i, c) in &data.coefs[s..s + e.len as usize] {
                g[i as usize][0] += gm * c as f64;
                g[i as usize][1] += ge * c as f64;
            }
        }
        g
    });
    let mut g = vec![[0.0f64; 2]; N_WEIGHTS];
    for p in parts {
        for (a, b) in g.iter_mut().zip(p) {
            a[0] += b[0];
            a[1] += b[1];
        }
    }
    let n = batch.len().max(1) as f64;
    for a in &mut g {
        a[0] /= n;
        a[1] /= n;
    }
    g
}

/// Rust source of `params.rs` for weights `w`, keeping `tail` (the fixed
/// part of the current file) as it is.
pub fn params_source(w: &[[f64; 2]], tail: &str, note: &str) -> String {
    let mut out = String::new();
    out.push_str(
        "//! Every tuned evaluation weight, as (middlegame, endgame) centipawns,\n\
         //! indexed by the constants of `layout.rs`. Written by `kestrel tune`\n\
         //! (hand-set starting values until the first run); edit by hand only\n\
         //! between runs. Everything after the \"fixed\" marker is kept as it is.\n",
    );
    if !note.is_empty() {
        out.push_str(&format!("//!\n//! {note}\n"));
    }
    out.push_str(
        "\nuse super::layout::N_WEIGHTS;\nuse super::score::S;\n\n#[rustfmt::skip]\n\
         pub const WEIGHTS: [S; N_WEIGHTS] = [\n",
    );
    for &(name, start, len) in BLOCKS {
        out.push_str(&format!("    // {name}\n"));
        for row in (start..start + len).collect::<Vec<_>>().chunks(8) {
            let cells: Vec<String> = row
                .iter()
                .map(|&i| format!("S({}, {}),", w[i][0].round() as i32, w[i][1].round() as i32))
                .collect();
            out.push_str(&format!("    {}\n", cells.join(" ")));
        }
    }
    out.push_str("];\n\n");
    out.push_str(tail);
    out
}

const FIXED_MARKER: &str = "// ---- fixed (not tuned) ----";

/// Cosine decay from `lr` to a tenth of it over the run: big steps while
/// far from the optimum, small ones at the end so the last epoch does not
/// land on a random point of the noise around it.
fn decayed_lr(lr: f64, progress: f64) -> f64 {
    let cosine = 0.5 * (1.0 + (std::f64::consts::PI * progress.clamp(0.0, 1.0)).cos());
    lr * (0.1 + 0.9 * cosine)
}

pub fn run(cfg: &Config) -> Result<(), String> {
    let start = Instant::now();
    // Read the hand-kept tail first, so a wrong --out fails before the fit.
    let current = std::fs::read_to_string(&cfg.out).unwrap_or_default();
    let tail = current
        .find(FIXED_MARKER)
        .map(|i| current[i..].to_string())
        .ok_or_else(|| format!("{} has no '{FIXED_MARKER}' line", cfg.out))?;
    let data = load(cfg)?;
    let threads = cfg.threads.max(1);
    let mut w: Vec<[f64; 2]> = WEIGHTS
        .iter()
        .map(|s| [s.mg() as f64, s.eg() as f64])
        .collect();
    let k = cfg.k.unwrap_or_else(|| fit_k(&data, &w, threads));
    let base = loss(&data, &w, k, cfg.lambda, threads);
    eprintln!(
        "tune: K = {k:.6} (result-only loss {:.6}), starting loss {base:.6} (lambda {}), {:.1}s",
        loss(&data, &w, k, 1.0, threads),
        cfg.lambda,
        start.elapsed().as_secs_f64()
    );
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut m = vec![[0.0f64; 2]; N_WEIGHTS];
    let mut v = vec![[0.0f64; 2]; N_WEIGHTS];
    let mut step = 0i32;
    // Every tenth position is held out to watch for overfitting.
    let (mut order, held): (Vec<u32>, Vec<u32>) =
        (0..data.entries.len() as u32).partition(|i| i % 10 != 9);
    let held_base = loss_on(&data, &held, &w, k, cfg.lambda, threads);
    let mut rng = super::datagen::Rng::new(0x7E57);
    let batches_per_epoch = order.len().div_ceil(cfg.batch.max(1));
    let total_steps = (batches_per_epoch * cfg.epochs).max(1) as f64;
    for epoch in 1..=cfg.epochs {
        for i in (1..order.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            order.swap(i, j);
        }
        for batch in order.chunks(cfg.batch.max(1)) {
            let g = gradient(&data, batch, &w, k, cfg.lambda, threads);
            step += 1;
            let lr = decayed_lr(cfg.lr, f64::from(step) / total_steps);
            for i in 0..N_WEIGHTS {
                if is_frozen(i) {
                    continue;
                }
                for p in 0..2 {
                    m[i][p] = b1 * m[i][p] + (1.0 - b1) * g[i][p];
                    v[i][p] = b2 * v[i][p] + (1.0 - b2) * g[i][p] * g[i][p];
                    let mh = m[i][p] / (1.0 - b1.powi(step));
                    let vh = v[i][p] / (1.0 - b2.powi(step));
                    w[i][p] -= lr * mh / (vh.sqrt() + eps);
                }
            }
        }
        let l = loss_on(&data, &order, &w, k, cfg.lambda, threads);
        let h = loss_on(&data, &held, &w, k, cfg.lambda, threads);
        eprintln!(
            "epoch {epoch:>4} train {l:.6} held-out {h:.6} ({:+.6} from start) {:.1}s",
            h - held_base,
            start.elapsed().as_secs_f64()
        );
    }
    let final_loss = loss(&data, &w, k, cfg.lambda, threads);
    let note = format!(
        "Last run: {} positions from {}, K = {k:.6}, lambda {}, loss {base:.6} -> {final_loss:.6}.",
        data.entries.len(),
        cfg.data,
        cfg.lambda
    );
    std::fs::write(&cfg.out, params_source(&w, &tail, &note))
        .map_err(|e| format!("cannot write {}: {e}", cfg.out))?;
    eprintln!("tune: wrote {}", cfg.out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::decayed_lr;

    #[test]
    fn learning_rate_decays_from_full_to_a_tenth() {
        assert!((decayed_lr(0.5, 0.0) - 0.5).abs() < 1e-12);
        assert!((decayed_lr(0.5, 1.0) - 0.05).abs() < 1e-12);
        let steps: Vec<f64> = (0..=10)
            .map(|i| decayed_lr(1.0, f64::from(i) / 10.0))
            .collect();
        assert!(steps.windows(2).all(|p| p[1] < p[0]), "{steps:?}");
    }
}
