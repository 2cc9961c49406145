//! `kestrel nnue-train`: fits the net of `eval::nnue` to the
//! `FEN;score;result` lines of `kestrel datagen`.
//!
//! Loss: mean squared error between `sigmoid(net)` and a blend of the game
//! result and `sigmoid(score / SCALE)`, both from the side to move's point
//! of view. Adam over all weights with a cosine-decayed learning rate, the
//! batch split across threads; weights are clipped so that they quantise
//! into the integer net. A share of the file's last lines (whole games, as
//! datagen writes a game at a time) is held out and its loss reported after
//! every epoch. The net is written quantised to `--out`.

use std::io::Write;
use std::time::Instant;

use shakmaty::fen::Fen;
use shakmaty::{Board, Chess, Color, Position as _, Setup};

use crate::eval::nnue::{
    self, HIDDEN, INPUTS, KING_BUCKETS, PIECE_FEATURES, QA, QB, SCALE, WEIGHT_CLIP,
};
use crate::tools::datagen::Rng;
use crate::tools::map_chunks;

#[derive(Clone, Debug)]
pub struct Config {
    pub data: String,
    pub out: String,
    pub epochs: usize,
    pub lr: f32,
    /// Weight of the game result in the target; the rest is the search score.
    pub lambda: f32,
    pub threads: usize,
    pub batch: usize,
    pub seed: u64,
    /// Share of the data held out for validation.
    pub holdout: f64,
    /// Train the net as a correction added to the hand-crafted evaluation.
    pub residual: bool,
    /// A net file to start from instead of random weights; it may have
    /// fewer hidden units than this build, the new ones starting silent, and
    /// one king bucket where the build has several, copied to each.
    pub init: Option<String>,
    /// With `init`: each step pulls every weight back towards the starting
    /// net by `lr * anchor` of its distance, so weights the new data says
    /// little about keep what the starting net learnt.
    pub anchor: f32,
    /// Train a first layer shared by all king buckets beside each bucket's
    /// own, folded into the buckets when the net is written: every position
    /// teaches the shared part, so a bucket few positions reach still
    /// learns what the pieces are worth.
    pub factorise: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            data: "data.txt".into(),
            out: "src/eval/kestrel.nnue".into(),
            epochs: 30,
            lr: 0.002,
            lambda: 0.5,
            threads: 2,
            batch: 16384,
            seed: 1,
            holdout: 0.02,
            residual: true,
            init: None,
            anchor: 0.0,
            factorise: false,
        }
    }
}

/// One position: feature indices from the side to move's and the other
/// side's view, and the training target.
struct Sample {
    us: [u16; 32],
    them: [u16; 32],
    len: u8,
    target: f32,
    /// What the net's output is added to, in units of SCALE centipawns:
    /// the hand-crafted evaluation in residual training, else 0.
    base: f32,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A data line's FEN text, search score and game result (White's view).
fn split_line(line: &str) -> Option<(&str, f32, f32)> {
    let mut parts = line.split(';');
    let fen_text = parts.next()?;
    let score: f32 = parts.next()?.trim().parse().ok()?;
    let result: f32 = parts.next()?.trim().parse().ok()?;
    // Mate scores and near-mates teach nothing about evaluation.
    (score.abs() <= 3000.0).then_some((fen_text, score, result))
}

fn parse_sample(line: &str, lambda: f32, residual: bool) -> Option<Sample> {
    let (fen_text, score, result) = split_line(line)?;
    if residual {
        // The hand-crafted base needs a legal position; parse into one once.
        let pos = crate::position::Position::from_fen(fen_text).ok()?;
        sample_of_position(pos.board(), score, result, lambda, residual)
    } else {
        // Pure training needs only the pieces, so any readable FEN will do.
        let setup: Setup = fen_text.parse::<Fen>().ok()?.into_setup();
        sample_from(&setup.board, setup.turn, score, result, lambda, 0.0)
    }
}

/// The sample of a legal position, with the hand-crafted evaluation (side
/// to move's view, SCALE units) as its base in residual training.
fn sample_of_position(
    chess: &Chess,
    score: f32,
    result: f32,
    lambda: f32,
    residual: bool,
) -> Option<Sample> {
    // The correction is learnt unscaled; the search scales it by the
    // hand-crafted endgame scale, which is 1 in all but drawish material.
    let base = if residual {
        crate::eval::hand_crafted(chess) as f32 / SCALE as f32
    } else {
        0.0
    };
    sample_from(chess.board(), chess.turn(), score, result, lambda, base)
}

/// The features and target of one position; `base` is what the net's
/// output is added to, in units of SCALE centipawns.
fn sample_from(
    board: &Board,
    turn: Color,
    score: f32,
    result: f32,
    lambda: f32,
    base: f32,
) -> Option<Sample> {
    if crate::eval::has_bare_king(board) {
        // Against a bare king the search uses the hand-crafted mop-up alone.
        return None;
    }
    let (score, result) = match turn {
        Color::White => (score, result),
        Color::Black => (-score, 1.0 - result),
    };
    let mut sample = Sample {
        us: [0; 32],
        them: [0; 32],
        len: 0,
        target: lambda * result + (1.0 - lambda) * sigmoid(score / SCALE as f32),
        base,
    };
    let mut n = 0;
    nnue::for_each_feature(board, turn, |f| {
        if n < 32 {
            sample.us[n] = f as u16;
        }
        n += 1;
    });
    if n > 32 {
        return None;
    }
    let mut m = 0;
    nnue::for_each_feature(board, !turn, |f| {
        sample.them[m] = f as u16;
        m += 1;
    });
    sample.len = n as u8;
    Some(sample)
}

/// Lines at the end of the data file kept as text for the quantisation check.
const CHECK_LINES: usize = 2000;

/// The usable samples, and the file's last `CHECK_LINES` lines.
fn load(cfg: &Config) -> Result<(Vec<Sample>, Vec<String>), String> {
    let text =
        std::fs::read_to_string(&cfg.data).map_err(|e| format!("cannot read {}: {e}", cfg.data))?;
    let lines: Vec<&str> = text.lines().collect();
    let parts = map_chunks(&lines, cfg.threads, |c| {
        c.iter()
            .filter_map(|l| parse_sample(l, cfg.lambda, cfg.residual))
            .collect::<Vec<_>>()
    });
    let samples: Vec<Sample> = parts.into_iter().flatten().collect();
    eprintln!(
        "nnue-train: {} positions from {} lines",
        samples.len(),
        lines.len()
    );
    if samples.len() < 100 {
        return Err("too few usable positions".into());
    }
    let tail = lines[lines.len().saturating_sub(CHECK_LINES)..]
        .iter()
        .map(|l| l.to_string())
        .collect();
    Ok((samples, tail))
}

/// Offsets of the parameter groups in the flat parameter vector.
const W1: usize = 0;
const B1: usize = W1 + INPUTS * HIDDEN;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + 2 * HIDDEN;
/// The factoriser: one first-layer row per piece feature, shared by every
/// king bucket (zero unless `Config::factorise`).
const FACT: usize = B2 + 1;
const N_PARAMS: usize = FACT + PIECE_FEATURES * HIDDEN;

/// The first-layer rows feature `f` reads: its bucket's own and, when
/// factorised, the shared one.
fn rows_of(f: u16, factorise: bool) -> impl Iterator<Item = usize> {
    let f = f as usize;
    let own = W1 + f * HIDDEN;
    let shared = FACT + (f % PIECE_FEATURES) * HIDDEN;
    std::iter::once(own).chain(factorise.then_some(shared))
}

fn accumulate(p: &[f32], features: &[u16], factorise: bool) -> [f32; HIDDEN] {
    let mut acc = [0.0; HIDDEN];
    acc.copy_from_slice(&p[B1..B1 + HIDDEN]);
    for &f in features {
        for start in rows_of(f, factorise) {
            for (a, w) in acc.iter_mut().zip(&p[start..start + HIDDEN]) {
                *a += w;
            }
        }
    }
    acc
}

fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// The float net's output (in units of SCALE centipawns) and accumulators.
fn forward(p: &[f32], s: &Sample, factorise: bool) -> (f32, [f32; HIDDEN], [f32; HIDDEN]) {
    let n = s.len as usize;
    let us = accumulate(p, &s.us[..n], factorise);
    let them = accumulate(p, &s.them[..n], factorise);
    let mut z = s.base + p[B2];
    for j in 0..HIDDEN {
        z += p[W2 + j] * screlu(us[j]) + p[W2 + HIDDEN + j] * screlu(them[j]);
    }
    (z, us, them)
}

/// Adds the gradient of one sample's squared error (times `scale`) to `g`;
/// returns the squared error.
fn backward(p: &[f32], s: &Sample, g: &mut [f32], scale: f32, factorise: bool) -> f32 {
    let (z, us, them) = forward(p, s, factorise);
    let out = sigmoid(z);
    let err = out - s.target;
    let dz = 2.0 * err * out * (1.0 - out) * scale;
    g[B2] += dz;
    let mut d_us = [0.0; HIDDEN];
    let mut d_them = [0.0; HIDDEN];
    for j in 0..HIDDEN {
        g[W2 + j] += dz * screlu(us[j]);
        g[W2 + HIDDEN + j] += dz * screlu(them[j]);
        if us[j] > 0.0 && us[j] < 1.0 {
            d_us[j] = dz * p[W2 + j] * 2.0 * us[j];
        }
        if them[j] > 0.0 && them[j] < 1.0 {
            d_them[j] = dz * p[W2 + HIDDEN + j] * 2.0 * them[j];
        }
        g[B1 + j] += d_us[j] + d_them[j];
    }
    let n = s.len as usize;
    for (features, d) in [(&s.us[..n], &d_us), (&s.them[..n], &d_them)] {
        for &f in features {
            for start in rows_of(f, factorise) {
                for (gw, dj) in g[start..start + HIDDEN].iter_mut().zip(d) {
                    *gw += dj;
                }
            }
        }
    }
    err * err
}

/// Mean squared error on `set`, in parallel.
fn loss(p: &[f32], samples: &[Sample], set: &[u32], threads: usize, factorise: bool) -> f64 {
    let parts = map_chunks(set, threads, |c| {
        c.iter()
            .map(|&i| {
                let s = &samples[i as usize];
                let d = sigmoid(forward(p, s, factorise).0) - s.target;
                f64::from(d * d)
            })
            .sum::<f64>()
    });
    parts.iter().sum::<f64>() / set.len().max(1) as f64
}

/// Gradient of the mean loss over `batch`, summed over threads.
fn batch_gradient(
    p: &[f32],
    samples: &[Sample],
    batch: &[u32],
    threads: usize,
    factorise: bool,
) -> Vec<f32> {
    let scale = 1.0 / batch.len() as f32;
    let grads = map_chunks(batch, threads, |c| {
        let mut g = vec![0.0f32; N_PARAMS];
        for &i in c {
            backward(p, &samples[i as usize], &mut g, scale, factorise);
        }
        g
    });
    let mut total = vec![0.0f32; N_PARAMS];
    for g in grads {
        for (t, v) in total.iter_mut().zip(g) {
            *t += v;
        }
    }
    total
}

fn init_params(seed: u64) -> Vec<f32> {
    let mut rng = Rng::new(seed);
    let mut uniform = |a: f32| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 * a - a;
    let mut p = vec![0.0f32; N_PARAMS];
    let a1 = 1.0 / (INPUTS as f32).sqrt();
    p[W1..B1].iter_mut().for_each(|w| *w = uniform(a1));
    let a2 = 1.0 / ((2 * HIDDEN) as f32).sqrt();
    p[W2..B2].iter_mut().for_each(|w| *w = uniform(a2));
    p
}

/// Overwrites the fresh weights `p` with the net file at `path`, widened to
/// this build's HIDDEN: units the file lacks keep their random input
/// weights and get zero output weights, so the widened net starts out
/// scoring exactly as the file's.
fn load_net_into(p: &mut [f32], path: &str, residual: bool) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let net = nnue::NetParts::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
    if net.hidden > HIDDEN {
        return Err(format!(
            "{path} has {} hidden units, more than this build's {HIDDEN}",
            net.hidden
        ));
    }
    if net.residual != residual {
        return Err(format!("{path} is not the kind of net asked for (--pure)"));
    }
    if net.buckets != 1 && net.buckets != KING_BUCKETS {
        return Err(format!(
            "{path} has {} king buckets; this build reads 1 or {KING_BUCKETS}",
            net.buckets
        ));
    }
    let old = net.hidden;
    let file_inputs = PIECE_FEATURES * net.buckets;
    p[W2..B2].iter_mut().for_each(|w| *w = 0.0);
    // A file without king buckets gives every bucket its weights, so the
    // bucketed net starts out scoring exactly as the file's.
    for f in 0..INPUTS {
        for j in 0..old {
            p[W1 + f * HIDDEN + j] = f32::from(net.w1[(f % file_inputs) * old + j]) / QA as f32;
        }
    }
    for j in 0..old {
        p[B1 + j] = f32::from(net.b1[j]) / QA as f32;
        p[W2 + j] = f32::from(net.w2[j]) / QB as f32;
        p[W2 + HIDDEN + j] = f32::from(net.w2[old + j]) / QB as f32;
    }
    p[B2] = net.b2 as f32 / (QA * QB) as f32;
    Ok(())
}

/// A factorised net from scratch starts as one net for every bucket: the
/// random rows move to the shared part and each bucket's own start at zero.
fn start_shared(p: &mut [f32]) {
    let (first, rest) = p.split_at_mut(B1);
    rest[FACT - B1..].copy_from_slice(&first[W1..W1 + PIECE_FEATURES * HIDDEN]);
    first[W1..].iter_mut().for_each(|w| *w = 0.0);
}

/// Cosine decay from `lr` to a twentieth of it.
fn decayed_lr(lr: f32, progress: f32) -> f32 {
    let cosine = 0.5 * (1.0 + (std::f32::consts::PI * progress.clamp(0.0, 1.0)).cos());
    lr * (0.05 + 0.95 * cosine)
}

fn shuffle(v: &mut [u32], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        v.swap(i, j);
    }
}

/// The first layer as the engine reads it: each bucket's rows with the
/// shared rows folded in (zero unless factorised). The sum is clipped so
/// that it quantises; training clips each part alone, so a sum beyond the
/// clip shows up in the quantisation check at the end of a run.
fn folded_first_layer(p: &[f32]) -> Vec<f32> {
    p[W1..B1]
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            let shared = p[FACT + i % (PIECE_FEATURES * HIDDEN)];
            (w + shared).clamp(-WEIGHT_CLIP, WEIGHT_CLIP)
        })
        .collect()
}

fn quantise(p: &[f32], residual: bool) -> Vec<u8> {
    let q = |x: f32, s: i32| (x * s as f32).round() as i16;
    let w1: Vec<i16> = folded_first_layer(p).iter().map(|&x| q(x, QA)).collect();
    let b1: Vec<i16> = p[B1..W2].iter().map(|&x| q(x, QA)).collect();
    let w2: Vec<i16> = p[W2..B2].iter().map(|&x| q(x, QB)).collect();
    let b2 = (p[B2] * (QA * QB) as f32).round() as i32;
    nnue::to_bytes(residual, &w1, &b1, &w2, b2)
}

/// Adam's moment estimates.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
}

impl Adam {
    fn new() -> Self {
        Adam {
            m: vec![0.0; N_PARAMS],
            v: vec![0.0; N_PARAMS],
            step: 0,
        }
    }

    /// One step over all parameters, clipped so that they quantise.
    fn step(&mut self, p: &mut [f32], g: &[f32], lr: f32, anchor: Option<(&[f32], f32)>) {
        let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        self.step += 1;
        let c1 = 1.0 - beta1.powi(self.step);
        let c2 = 1.0 - beta2.powi(self.step);
        for i in 0..N_PARAMS {
            self.m[i] = beta1 * self.m[i] + (1.0 - beta1) * g[i];
            self.v[i] = beta2 * self.v[i] + (1.0 - beta2) * g[i] * g[i];
            let mut update = lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + eps);
            if let Some((start, strength)) = anchor {
                update += lr * strength * (p[i] - start[i]);
            }
            p[i] = (p[i] - update).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }
}

/// Held-out losses before and after training.
#[derive(Clone, Copy, Debug)]
pub struct Summary {
    pub start_held_out: f64,
    pub final_held_out: f64,
}

pub fn run(cfg: &Config) -> Result<Summary, String> {
    if cfg.anchor.is_nan() || cfg.anchor < 0.0 || (cfg.anchor > 0.0 && cfg.init.is_none()) {
        return Err("--anchor takes a number >= 0 and needs --init".into());
    }
    let start = Instant::now();
    let (samples, tail) = load(cfg)?;
    let held = ((samples.len() as f64 * cfg.holdout) as usize).max(1);
    let split = samples.len() - held;
    let validation: Vec<u32> = (split as u32..samples.len() as u32).collect();
    let mut train: Vec<u32> = (0..split as u32).collect();
    let mut rng = Rng::new(cfg.seed);
    let mut p = init_params(cfg.seed ^ 0x5EED);
    if let Some(path) = &cfg.init {
        load_net_into(&mut p, path, cfg.residual)?;
    } else if cfg.factorise {
        start_shared(&mut p);
    }
    let start_params = (cfg.anchor > 0.0).then(|| p.clone());
    let anchor = start_params.as_deref().map(|s| (s, cfg.anchor));
    let mut adam = Adam::new();
    let batch = cfg.batch.max(1);
    let total_steps = (train.len().div_ceil(batch) * cfg.epochs) as f32;
    let fact = cfg.factorise;
    let start_held_out = loss(&p, &samples, &validation, cfg.threads, fact);
    eprintln!(
        "nnue-train: {} training, {} held out, {HIDDEN} hidden, held-out loss {start_held_out:.6}",
        train.len(),
        validation.len(),
    );
    let mut final_held_out = start_held_out;
    for epoch in 1..=cfg.epochs {
        shuffle(&mut train, &mut rng);
        for chunk in train.chunks(batch) {
            let g = batch_gradient(&p, &samples, chunk, cfg.threads, fact);
            let lr = decayed_lr(cfg.lr, (adam.step + 1) as f32 / total_steps);
            adam.step(&mut p, &g, lr, anchor);
        }
        let sample = &train[..train.len().min(200_000)];
        let train_loss = loss(&p, &samples, sample, cfg.threads, fact);
        final_held_out = loss(&p, &samples, &validation, cfg.threads, fact);
        eprintln!(
            "epoch {epoch:>3}/{} train {train_loss:.6} held-out {final_held_out:.6} {:.0}s",
            cfg.epochs,
            start.elapsed().as_secs_f32()
        );
        write_net(&cfg.out, &quantise(&p, cfg.residual))?;
    }
    if cfg.epochs == 0 {
        // No epoch ran: the start net (`--init`, re-quantised) is what the
        // held-out loss above measured, so that is the net to write.
        write_net(&cfg.out, &quantise(&p, cfg.residual))?;
    }
    report_quantisation_error(&p, &tail, cfg)?;
    eprintln!("nnue-train: wrote {}", cfg.out);
    Ok(Summary {
        start_held_out,
        final_held_out,
    })
}

fn write_net(path: &str, bytes: &[u8]) -> Result<(), String> {
    let tmp = format!("{path}.tmp");
    let mut f = std::fs::File::create(&tmp).map_err(|e| format!("cannot write {tmp}: {e}"))?;
    f.write_all(bytes)
        .map_err(|e| format!("cannot write {tmp}: {e}"))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {path}: {e}"))
}

/// Compares the quantised net with the float one on held-out `lines`.
fn report_quantisation_error(p: &[f32], lines: &[String], cfg: &Config) -> Result<(), String> {
    let net = nnue::Network::from_bytes(&quantise(p, cfg.residual)).map_err(|e| e.to_string())?;
    let mut diffs = Vec::new();
    for line in lines {
        let Some((fen_text, score, result)) = split_line(line) else {
            continue;
        };
        let Ok(pos) = crate::position::Position::from_fen(fen_text) else {
            continue;
        };
        let Some(s) = sample_of_position(pos.board(), score, result, cfg.lambda, cfg.residual)
        else {
            continue;
        };
        let float = (forward(p, &s, cfg.factorise).0 - s.base) * SCALE as f32;
        let int = net.evaluate(pos.board()) as f32;
        diffs.push((float - int).abs());
    }
    diffs.sort_by(f32::total_cmp);
    if let Some(&median) = diffs.get(diffs.len() / 2) {
        eprintln!(
            "nnue-train: quantised vs float on {} held-out positions: median |diff| {median:.1} cp, max {:.1} cp",
            diffs.len(),
            diffs.last().copied().unwrap_or(0.0)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions from random play labelled with a material count: a net
    /// trained on them, factorised or not, predicts held-out positions
    /// better than the zero net it starts from, and the file it writes loads.
    #[test]
    fn training_learns_material() {
        let dir = std::env::temp_dir().join(format!("kestrel-nnue-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data.txt");
        let mut text = String::new();
        let mut rng = Rng::new(5);
        // Enough games for each king bucket to see material in many places.
        for _ in 0..1200 {
            let mut pos = crate::position::Position::startpos();
            for _ in 0..40 {
                let moves = pos.board().legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[rng.below(moves.len() as u64) as usize]);
                let b = pos.board().board();
                let count = |c: Color| {
                    (b.by_color(c) & b.pawns()).count() as i32
                        + 3 * (b.by_color(c) & (b.knights() | b.bishops())).count() as i32
                        + 5 * (b.by_color(c) & b.rooks()).count() as i32
                        + 9 * (b.by_color(c) & b.queens()).count() as i32
                };
                let score = 60 * (count(Color::White) - count(Color::Black));
                text.push_str(&format!("{};{score};0.5\n", pos.fen()));
            }
        }
        std::fs::write(&data, text).unwrap();
        for factorise in [false, true] {
            let out = dir.join(format!("net-{factorise}.nnue"));
            let cfg = Config {
                data: data.to_string_lossy().into_owned(),
                out: out.to_string_lossy().into_owned(),
                epochs: 4,
                lr: 0.01,
                lambda: 0.0,
                threads: 2,
                batch: 256,
                seed: 3,
                holdout: 0.1,
                residual: false,
                init: None,
                anchor: 0.0,
                factorise,
            };
            let summary = run(&cfg).expect("training runs");
            assert!(
                summary.final_held_out < 0.5 * summary.start_held_out,
                "factorise {factorise}: {summary:?}"
            );
            let bytes = std::fs::read(&out).unwrap();
            let net = nnue::Network::from_bytes(&bytes).expect("net loads");
            assert!(!net.residual);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A net read back for further training is the net written: same size
    /// round-trips exactly; a narrower net's units land in place and the
    /// units it lacks do not change the output.
    #[test]
    fn init_from_net_keeps_the_net() {
        let dir = std::env::temp_dir().join(format!("kestrel-init-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut p = init_params(11);
        p[B1..W2].iter_mut().for_each(|b| *b = 0.2);
        let same = dir.join("same.nnue");
        std::fs::write(&same, quantise(&p, true)).unwrap();
        let mut back = init_params(12);
        load_net_into(&mut back, same.to_str().unwrap(), true).expect("reads");
        assert_eq!(quantise(&back, true), quantise(&p, true));

        let old = HIDDEN / 2;
        let q = |x: f32, s: i32| (x * s as f32).round() as i16;
        let w1: Vec<i16> = (0..INPUTS)
            .flat_map(|f| (0..old).map(move |j| (f, j)))
            .map(|(f, j)| q(p[W1 + f * HIDDEN + j], QA))
            .collect();
        let b1: Vec<i16> = (0..old).map(|j| q(p[B1 + j], QA)).collect();
        let w2: Vec<i16> = (0..old)
            .chain(HIDDEN..HIDDEN + old)
            .map(|j| q(p[W2 + j], QB))
            .collect();
        let narrow = dir.join("narrow.nnue");
        std::fs::write(&narrow, nnue::to_bytes(true, &w1, &b1, &w2, 1000)).unwrap();
        let mut wide = init_params(12);
        load_net_into(&mut wide, narrow.to_str().unwrap(), true).expect("widens");
        assert_eq!(
            wide[W1 + 5 * HIDDEN + 3],
            f32::from(w1[5 * old + 3]) / QA as f32
        );
        assert_eq!(wide[W2 + HIDDEN + 2], f32::from(w2[old + 2]) / QB as f32);
        let line = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3;35;1";
        let s = parse_sample(line, 0.0, true).expect("sample");
        let mut shaken = wide.clone();
        for j in old..HIDDEN {
            shaken[B1 + j] = 0.5;
            for f in 0..INPUTS {
                shaken[W1 + f * HIDDEN + j] += 0.3;
            }
        }
        assert_eq!(forward(&wide, &s, false).0, forward(&shaken, &s, false).0);
        assert_ne!(forward(&wide, &s, false).0, s.base + wide[B2]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A net file from before king buckets gives each bucket its first
    /// layer, so the bucketed net scores every position as the file does.
    #[test]
    fn init_from_a_net_without_buckets_copies_it_to_each_bucket() {
        let dir = std::env::temp_dir().join(format!("kestrel-buckets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut p = init_params(21);
        p[B1..W2].iter_mut().for_each(|b| *b = 0.1);
        for f in PIECE_FEATURES..INPUTS {
            for j in 0..HIDDEN {
                p[W1 + f * HIDDEN + j] = p[W1 + (f % PIECE_FEATURES) * HIDDEN + j];
            }
        }
        let bucketed = quantise(&p, true);
        let parts = nnue::NetParts::from_bytes(&bucketed).expect("parts");
        assert_eq!(parts.buckets, KING_BUCKETS);
        let single = nnue::to_bytes(
            true,
            &parts.w1[..PIECE_FEATURES * HIDDEN],
            &parts.b1,
            &parts.w2,
            parts.b2,
        );
        assert_eq!(
            nnue::NetParts::from_bytes(&single).expect("parts").buckets,
            1
        );
        let path = dir.join("single.nnue");
        std::fs::write(&path, &single).unwrap();
        let mut back = init_params(22);
        load_net_into(&mut back, path.to_str().unwrap(), true).expect("reads");
        assert!(quantise(&back, true) == bucketed);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// `--epochs 0` measures the start net's held-out loss and writes that
    /// net, so the file it names afterwards is the net it measured.
    #[test]
    fn zero_epochs_write_the_start_net() {
        let dir = std::env::temp_dir().join(format!("kestrel-zero-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut p = init_params(41);
        p[B1..W2].iter_mut().for_each(|b| *b = 0.1);
        let start = dir.join("start.nnue");
        std::fs::write(&start, quantise(&p, true)).unwrap();
        let data = dir.join("data.txt");
        let line = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3;35;1\n";
        std::fs::write(&data, line.repeat(120)).unwrap();
        let out = dir.join("out.nnue");
        let cfg = Config {
            data: data.to_string_lossy().into_owned(),
            out: out.to_string_lossy().into_owned(),
            epochs: 0,
            init: Some(start.to_string_lossy().into_owned()),
            threads: 1,
            ..Config::default()
        };
        let summary = run(&cfg).expect("runs");
        assert_eq!(summary.start_held_out, summary.final_held_out);
        let written = std::fs::read(&out).expect("--epochs 0 writes the net");
        assert_eq!(written, std::fs::read(&start).unwrap());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// With no gradient, an anchored step moves a weight part of the way
    /// back to where training started, and an unanchored one leaves it.
    #[test]
    fn anchor_pulls_weights_back_to_the_start() {
        let start = vec![0.0f32; N_PARAMS];
        let mut moved = start.clone();
        moved[W2 + 1] = 0.5;
        let zero = vec![0.0f32; N_PARAMS];
        let mut free = moved.clone();
        Adam::new().step(&mut free, &zero, 0.01, None);
        assert_eq!(free[W2 + 1], 0.5);
        let mut anchored = moved.clone();
        Adam::new().step(&mut anchored, &zero, 0.01, Some((&start, 10.0)));
        assert!(
            (anchored[W2 + 1] - 0.45).abs() < 1e-6,
            "{}",
            anchored[W2 + 1]
        );
        assert_eq!(anchored[W2 + 2], 0.0);
        let unanchored = Config {
            anchor: 100.0,
            ..Config::default()
        };
        let refused = run(&unanchored).expect_err("an anchor with nothing to hold");
        assert!(refused.contains("--anchor"), "{refused}");
    }

    /// A factorised net is written with its shared rows folded into every
    /// bucket: the same file, and the same scores, as the unfactorised net
    /// whose buckets each hold those rows.
    #[test]
    fn factorised_net_is_written_folded() {
        let mut p = init_params(31);
        start_shared(&mut p);
        assert!(p[W1..B1].iter().all(|&w| w == 0.0));
        let mut folded = p.clone();
        for f in 0..INPUTS {
            for j in 0..HIDDEN {
                folded[W1 + f * HIDDEN + j] = p[FACT + (f % PIECE_FEATURES) * HIDDEN + j];
            }
        }
        folded[FACT..].iter_mut().for_each(|w| *w = 0.0);
        assert!(quantise(&p, true) == quantise(&folded, true));
        // A king off its first rank: a bucket other than the first.
        let line = "8/5k2/8/3p4/3P4/4K3/8/8 w - - 0 40;20;0.5";
        let s = parse_sample(line, 0.0, true).expect("sample");
        let (a, b) = (forward(&p, &s, true).0, forward(&folded, &s, false).0);
        assert!((a - b).abs() < 1e-5, "{a} {b}");
    }

    /// The analytic gradient matches a finite difference for a few weights,
    /// the shared first-layer rows of a factorised net among them.
    #[test]
    fn gradient_matches_finite_difference() {
        let line = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3;35;1";
        let s = parse_sample(line, 0.5, true).expect("sample");
        let mut p = init_params(7);
        p[B1..W2].iter_mut().for_each(|b| *b = 0.3);
        let mut shared = init_params(8);
        start_shared(&mut shared);
        p[FACT..].copy_from_slice(&shared[FACT..]);
        let mut g = vec![0.0; N_PARAMS];
        backward(&p, &s, &mut g, 1.0, true);
        let f = s.us[3] as usize;
        let f_shared = FACT + (f % PIECE_FEATURES) * HIDDEN + 5;
        for idx in [
            W1 + f * HIDDEN + 5,
            f_shared,
            B1 + 17,
            W2 + 3,
            W2 + HIDDEN + 9,
            B2,
        ] {
            let h = 1e-3;
            let mut plus = p.clone();
            plus[idx] += h;
            let mut minus = p.clone();
            minus[idx] -= h;
            let e = |q: &[f32]| {
                let d = sigmoid(forward(q, &s, true).0) - s.target;
                d * d
            };
            let numeric = (e(&plus) - e(&minus)) / (2.0 * h);
            assert!(
                (numeric - g[idx]).abs() < 1e-4 + 0.05 * numeric.abs(),
                "param {idx}: analytic {} numeric {numeric}",
                g[idx]
            );
        }
    }
}
