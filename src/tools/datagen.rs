//! `kestrel datagen`: self-play games at a fixed node count per move, for
//! tuning the evaluation (`kestrel tune`).
//!
//! Each game starts from a random line of an EPD opening book plus a few
//! random legal plies. Every quiet position of the game (side to move not in
//! check, best move neither a capture nor a promotion, no mate score) is
//! written as one text line
//!
//! ```text
//! FEN;score;result
//! ```
//!
//! with `score` the search score in centipawns and `result` 1, 0.5 or 0, both
//! from White's point of view. Game `i` depends only on the seed and `i` (a
//! fresh hash table and history per game), so a run is reproducible from its
//! seed whatever the thread count; only the order of the games in the file
//! differs.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use shakmaty::{Chess, Color, Move, Position as _};

use crate::position::Position;
use crate::search::{History, Limits, MATE_BOUND, SearchOptions, search_position};
use crate::tt::TranspositionTable;

#[derive(Clone, Debug)]
pub struct Config {
    pub out: String,
    pub book: String,
    /// Stop after this many games (if set).
    pub games: Option<u64>,
    /// Stop after this many positions (if set).
    pub positions: Option<u64>,
    pub nodes: u64,
    pub threads: usize,
    pub seed: u64,
    /// Random legal plies after the book line.
    pub random_plies: u32,
    pub hash_mb: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            out: "data.txt".into(),
            book: "../shared/books/8mvs_+90_+99.epd".into(),
            games: None,
            positions: None,
            nodes: 5000,
            threads: 2,
            seed: 1,
            random_plies: 4,
            hash_mb: 8,
        }
    }
}

/// SplitMix64: small, fast and good enough to pick openings.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next_u64() % n }
    }
}

/// Reads the FENs of an EPD book (the first four fields of each line).
pub fn read_book(path: &str) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let fens: Vec<String> = text
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().take(4).collect();
            (f.len() == 4).then(|| format!("{} 0 1", f.join(" ")))
        })
        .filter(|f| Position::from_fen(f).is_ok())
        .collect();
    if fens.is_empty() {
        return Err(format!("no positions in {path}"));
    }
    Ok(fens)
}

/// One finished game: its quiet positions (FEN, White-relative score) and
/// its result for White.
pub struct Game {
    pub positions: Vec<(String, i32)>,
    pub result: f32,
}

fn is_quiet_move(board: &Chess, m: Move) -> bool {
    !m.is_capture() && !m.is_promotion() && !board.is_check()
}

fn repetitions(pos: &Position) -> usize {
    let key = pos.key();
    let halfmoves = pos.board().halfmoves() as usize;
    pos.history()
        .iter()
        .rev()
        .take(halfmoves)
        .filter(|&&k| k == key)
        .count()
}

/// Plays game number `index` of a run seeded with `seed`.
pub fn play_game(
    cfg: &Config,
    book: &[String],
    index: u64,
    tt: &mut TranspositionTable,
) -> Option<Game> {
    let mut rng = Rng::new(cfg.seed ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93));
    let fen = &book[rng.below(book.len() as u64) as usize];
    let mut pos = Position::from_fen(fen).ok()?;
    for _ in 0..cfg.random_plies {
        let moves = pos.board().legal_moves();
        if moves.is_empty() {
            return None;
        }
        let m = moves[rng.below(moves.len() as u64) as usize];
        pos.play(m);
    }
    if pos.board().legal_moves().is_empty() {
        return None;
    }
    tt.clear();
    let mut history = History::default();
    let limits = Limits {
        nodes: Some(cfg.nodes),
        ..Limits::default()
    };
    let options = SearchOptions::default();
    let mut positions = Vec::new();
    let mut win_streak = 0; // plies with White's score above the resign bound (negative: below)
    let mut draw_streak = 0;
    let mut ply = 0u32;
    let result = loop {
        let board = pos.board();
        if board.legal_moves().is_empty() {
            break if board.is_check() {
                if board.turn() == Color::White {
                    0.0
                } else {
                    1.0
                }
            } else {
                0.5
            };
        }
        if board.is_insufficient_material() || board.halfmoves() >= 100 || repetitions(&pos) >= 2 {
            break 0.5;
        }
        if ply >= 400 {
            break 0.5;
        }
        let r = search_position(&pos, &limits, &options, tt, &mut history, &mut |_| {});
        let best = r.best?;
        let white_score = if board.turn() == Color::White {
            r.score
        } else {
            -r.score
        };
        if r.score.abs() < MATE_BOUND && is_quiet_move(board, best) {
            positions.push((pos.fen(), white_score));
        }
        // Adjudication.
        if white_score > 1500 {
            win_streak = win_streak.max(0) + 1;
        } else if white_score < -1500 {
            win_streak = win_streak.min(0) - 1;
        } else {
            win_streak = 0;
        }
        if win_streak >= 6 {
            break 1.0;
        }
        if win_streak <= -6 {
            break 0.0;
        }
        if ply >= 60 && white_score.abs() <= 8 {
            draw_streak += 1;
        } else {
            draw_streak = 0;
        }
        if draw_streak >= 16 {
            break 0.5;
        }
        pos.play(best);
        ply += 1;
    };
    Some(Game { positions, result })
}

fn format_result(r: f32) -> &'static str {
    if r > 0.75 {
        "1"
    } else if r < 0.25 {
        "0"
    } else {
        "0.5"
    }
}

/// Runs the self-play loop on `cfg.threads` threads, appending to `cfg.out`.
pub fn run(cfg: &Config) -> Result<(), String> {
    if cfg.games.is_none() && cfg.positions.is_none() {
        return Err("datagen needs --games N or --positions N".into());
    }
    let book = read_book(&cfg.book)?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&cfg.out)
        .map_err(|e| format!("cannot open {}: {e}", cfg.out))?;
    let out = Mutex::new(std::io::BufWriter::new(file));
    let next_game = AtomicU64::new(0);
    let games_done = AtomicU64::new(0);
    let positions_done = AtomicU64::new(0);
    let wins = [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)];
    let running = AtomicU64::new(cfg.threads.max(1) as u64);
    let start = Instant::now();
    let done = |games: u64, positions: u64| {
        cfg.games.is_some_and(|g| games >= g) || cfg.positions.is_some_and(|p| positions >= p)
    };
    eprintln!(
        "datagen: {} book lines, {} nodes/move, {} threads, seed {}, out {}",
        book.len(),
        cfg.nodes,
        cfg.threads,
        cfg.seed,
        cfg.out
    );
    std::thread::scope(|s| {
        // Handles are joined, never dropped: see search::threads on glibc's
        // detach race.
        let mut workers = Vec::new();
        for _ in 0..cfg.threads.max(1) {
            workers.push(s.spawn(|| {
                struct Leave<'a>(&'a AtomicU64);
                impl Drop for Leave<'_> {
                    fn drop(&mut self) {
                        self.0.fetch_sub(1, Ordering::Relaxed);
                    }
                }
                let _leave = Leave(&running);
                let Ok(mut tt) = TranspositionTable::new(cfg.hash_mb) else {
                    eprintln!("datagen: cannot allocate the hash table");
                    return;
                };
                loop {
                    if done(
                        games_done.load(Ordering::Relaxed),
                        positions_done.load(Ordering::Relaxed),
                    ) {
                        break;
                    }
                    let index = next_game.fetch_add(1, Ordering::Relaxed);
                    if cfg.games.is_some_and(|g| index >= g) {
                        break;
                    }
                    let Some(game) = play_game(cfg, &book, index, &mut tt) else {
                        continue;
                    };
                    let res = format_result(game.result);
                    let mut text = String::with_capacity(game.positions.len() * 80);
                    for (fen, score) in &game.positions {
                        text.push_str(&format!("{fen};{score};{res}\n"));
                    }
                    {
                        let mut w = out.lock().unwrap();
                        if w.write_all(text.as_bytes())
                            .and_then(|_| w.flush())
                            .is_err()
                        {
                            eprintln!("datagen: write failed");
                            return;
                        }
                    }
                    let slot = match res {
                        "1" => 0,
                        "0.5" => 1,
                        _ => 2,
                    };
                    wins[slot].fetch_add(1, Ordering::Relaxed);
                    positions_done.fetch_add(game.positions.len() as u64, Ordering::Relaxed);
                    games_done.fetch_add(1, Ordering::Relaxed);
                }
            }));
        }
        // Progress reporter on the calling thread.
        let mut last = Instant::now();
        loop {
            std::thread::sleep(Duration::from_millis(200));
            let g = games_done.load(Ordering::Relaxed);
            let p = positions_done.load(Ordering::Relaxed);
            let finished = running.load(Ordering::Relaxed) == 0;
            if last.elapsed() >= Duration::from_secs(10) || finished {
                last = Instant::now();
                let secs = start.elapsed().as_secs_f64().max(1e-3);
                let frac = match (cfg.games, cfg.positions) {
                    (Some(n), _) => g as f64 / n as f64,
                    (_, Some(n)) => p as f64 / n as f64,
                    _ => 0.0,
                };
                let eta = if frac > 0.0 {
                    secs * (1.0 - frac).max(0.0) / frac
                } else {
                    f64::NAN
                };
                eprintln!(
                    "games {g} (+{} ={} -{}) positions {p} {:.0} pos/s {:.2} games/s elapsed {:.0}s ETA {:.0}s",
                    wins[0].load(Ordering::Relaxed),
                    wins[1].load(Ordering::Relaxed),
                    wins[2].load(Ordering::Relaxed),
                    p as f64 / secs,
                    g as f64 / secs,
                    secs,
                    eta
                );
            }
            if finished {
                break;
            }
        }
        for worker in workers {
            if let Err(panic) = worker.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
    Ok(())
}
