//! Property tests with hostile input ("Proven with hostile input").
//!
//! Random command lines built from UCI keywords and junk tokens, random
//! bytes (invalid UTF-8 included), very long lines, mutated FENs, move lists
//! mixing legal and illegal moves and `go` with wild parameters are fed to
//! an in-process `UciSession` and to the real binary. After every batch:
//! - nothing panicked and the process still runs;
//! - `isready` is answered with `readyok` within a few seconds;
//! - every `go` the parser accepts (other than `go perft`) was answered by
//!   exactly one `bestmove`, and no other `bestmove` appeared;
//! - the engine's state is sound: `position startpos moves e2e4` then `d`
//!   shows the right FEN, and `go depth 3` gives one legal `bestmove`.
//!
//! The generator is a xorshift PRNG with fixed seeds, so every run sends the
//! same input; a failure names the seed and batch, and the in-process test
//! writes the offending batch to a file.
//!
//! Some input is kept out of the random batches on purpose (see `sanitize`):
//! `setoption name Hash` above 64 MB (tests/memory.rs covers large tables);
//! `go perft` deeper than 3 (`binary_deep_perft_can_be_stopped` checks deep
//! perft on its own, so that a crash there fails one test and does not hide
//! what the random batches find, or abort the test binary in process); and
//! for the binary, `quit` (in process `handle_line` must return false for it
//! and only for it).

mod common;

use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::EngineProcess;
use common::rng::Rng;
use kestrel::uci::parse::{Command, parse};
use kestrel::uci::{MAX_LINE_BYTES, UciSession};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position as _};

const AFTER_E2E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
const READY_WITHIN: Duration = Duration::from_secs(5);
const SEARCH_WITHIN: Duration = Duration::from_secs(10);
const LONG_LINE: usize = 100_000;
const MAX_SAFE_HASH_MB: i64 = 64;

// ---------------------------------------------------------------------------
// Random input
// ---------------------------------------------------------------------------

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "4k3/8/8/8/8/8/8/1R3KR1 w GB - 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "8/8/8/8/8/8/8/K1k5 w - - 0 1",
    "8/P6k/8/8/8/8/6Kp/8 w - - 0 1",
    "QQQQQQQk/QQQQQQQQ/QQQQQQQQ/8/8/8/8/K7 w - - 0 1",
    "k7/8/8/8/8/8/8/7K w - - 99 200",
];

const KEYWORDS: &[&str] = &[
    "uci",
    "debug",
    "on",
    "off",
    "isready",
    "setoption",
    "name",
    "value",
    "register",
    "later",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "Hash",
    "MultiPV",
    "UCI_Chess960",
    "true",
    "false",
    "w",
    "b",
    "-",
    "KQkq",
];

/// Characters for junk tokens: ASCII, controls, non-ASCII, and Unicode
/// white space that `split_whitespace` splits on.
const JUNK_CHARS: &[char] = &[
    'a',
    'z',
    'Q',
    'k',
    '1',
    '8',
    '0',
    '-',
    '+',
    '/',
    '@',
    '=',
    '"',
    '\\',
    '\0',
    '\t',
    '\r',
    '\u{b}',
    '\u{c}',
    '\u{1b}',
    '\u{7f}',
    '\u{85}',
    '\u{a0}',
    'é',
    'ß',
    '€',
    '♔',
    '😀',
    '\u{200b}',
    '\u{2028}',
    '\u{3000}',
    '\u{feff}',
    '\u{fffd}',
    '\u{10ffff}',
];

fn number(rng: &mut Rng) -> String {
    match rng.below(20) {
        0 => "0".into(),
        1 => "1".into(),
        2 => "-1".into(),
        3 => "9223372036854775807".into(),
        4 => "-9223372036854775808".into(),
        5 => "18446744073709551616".into(),
        6 => "99999999999999999999999999999999999999".into(),
        7 => "999999999999999999999999999999999999999999999".into(),
        8 => "4294967296".into(),
        9 => rng
            .pick(&["1e9", "0x10", "+5", "-0", "3.5", "NaN", "١٢", "", "--1"])
            .to_string(),
        10 => (0..1 + rng.below(40))
            .map(|_| char::from(b'0' + rng.below(10) as u8))
            .collect(),
        11..=13 => rng.range(-100_000, -1).to_string(),
        _ => rng.range(0, 100_000).to_string(),
    }
}

fn small_number(rng: &mut Rng) -> String {
    rng.range(0, 5).to_string()
}

fn square(rng: &mut Rng) -> String {
    let file = char::from(b'a' + rng.below(8) as u8);
    let rank = char::from(b'1' + rng.below(8) as u8);
    format!("{file}{rank}")
}

fn junk_move(rng: &mut Rng) -> String {
    match rng.below(8) {
        0 => format!("{}{}", square(rng), square(rng)),
        1 => format!(
            "{}{}{}",
            square(rng),
            square(rng),
            rng.pick(&['q', 'r', 'b', 'n', 'k', 'p', 'x', 'Q'])
        ),
        2 => rng
            .pick(&[
                "0000", "e2e4e5", "E2E4", "e9e4", "i2i4", "P@e4", "e2", "e1g1", "e1h1", "e8c8",
                "a7a8q", "O-O", "Nf3", "e2-e4", "e2e4+", "",
            ])
            .to_string(),
        _ => format!("{}{}", square(rng), square(rng)),
    }
}

fn junk_token(rng: &mut Rng) -> String {
    (0..1 + rng.below(12))
        .map(|_| *rng.pick(JUNK_CHARS))
        .collect()
}

fn token(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 | 1 => rng.pick(KEYWORDS).to_string(),
        2 => number(rng),
        3 => junk_move(rng),
        _ => junk_token(rng),
    }
}

fn mutate_fen(rng: &mut Rng, fen: &str) -> String {
    let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
    for _ in 0..1 + rng.below(3) {
        match rng.below(11) {
            0 => {
                let mut chars: Vec<char> = fields.join(" ").chars().collect();
                let (i, j) = (rng.below(chars.len()), rng.below(chars.len()));
                chars.swap(i, j);
                fields = chars
                    .iter()
                    .collect::<String>()
                    .split(' ')
                    .map(str::to_string)
                    .collect();
            }
            1 => {
                let mut chars: Vec<char> = fields.join(" ").chars().collect();
                if !chars.is_empty() {
                    chars.remove(rng.below(chars.len()));
                }
                fields = chars
                    .iter()
                    .collect::<String>()
                    .split(' ')
                    .map(str::to_string)
                    .collect();
            }
            2 => {
                let mut chars: Vec<char> = fields.join(" ").chars().collect();
                let c = *rng.pick(&[
                    'p', 'n', 'b', 'r', 'q', 'k', 'P', 'N', 'B', 'R', 'Q', 'K', '1', '8', '9', '0',
                    '/', ' ', '-', 'x', '~', 'é',
                ]);
                chars.insert(rng.below(chars.len() + 1), c);
                fields = chars
                    .iter()
                    .collect::<String>()
                    .split(' ')
                    .map(str::to_string)
                    .collect();
            }
            3 if !fields.is_empty() => {
                fields.remove(rng.below(fields.len()));
            }
            4 | 5 => {
                let i = 4 + rng.below(2);
                let n = number(rng);
                if i < fields.len() {
                    fields[i] = n;
                } else {
                    fields.push(n);
                }
            }
            6 => {
                let c = rng
                    .pick(&[
                        "-", "KQkq", "KQkqKQkq", "HAha", "AHah", "X", "kq", "Kk", "qQ", "ABCDEFGH",
                        "abcdefgh", "KQkq-", "K-", "1", "",
                    ])
                    .to_string();
                if fields.len() > 2 {
                    fields[2] = c;
                }
            }
            7 => {
                let ep = match rng.below(3) {
                    0 => square(rng),
                    1 => rng
                        .pick(&["-", "e9", "z3", "e3e6", "3e", "a0", ""])
                        .to_string(),
                    _ => format!("{}{}", rng.pick(&['a', 'd', 'h']), rng.pick(&['3', '6'])),
                };
                if fields.len() > 3 {
                    fields[3] = ep;
                }
            }
            8 => {
                let side = rng
                    .pick(&["w", "b", "W", "B", "x", "-", "white", ""])
                    .to_string();
                if fields.len() > 1 {
                    fields[1] = side;
                }
            }
            9 => {
                if let Some(board) = fields.first_mut() {
                    let mut ranks: Vec<String> = board.split('/').map(str::to_string).collect();
                    match rng.below(3) {
                        0 if !ranks.is_empty() => {
                            ranks.remove(rng.below(ranks.len()));
                        }
                        1 if !ranks.is_empty() => {
                            let r = ranks[rng.below(ranks.len())].clone();
                            ranks.push(r);
                        }
                        _ => {
                            let i = rng.below(ranks.len().max(1));
                            if i < ranks.len() {
                                ranks[i] = rng
                                    .pick(&["9", "44", "ppppppppp", "K7K", "", "8p"])
                                    .to_string();
                            }
                        }
                    }
                    *board = ranks.join("/");
                }
            }
            _ => fields.push(token(rng)),
        }
    }
    fields.join(" ")
}

/// A chess position for `fen`, read leniently (like the engine, but the
/// engine may still refuse it): only used to pick legal moves.
#[allow(clippy::result_large_err)]
fn chess_from_fen(fen: &str) -> Option<Chess> {
    let fen: Fen = fen.parse().ok()?;
    fen.into_position::<Chess>(CastlingMode::Chess960)
        .or_else(|e| e.ignore_invalid_castling_rights())
        .or_else(|e| e.ignore_invalid_ep_square())
        .or_else(|e| e.ignore_impossible_check())
        .ok()
}

/// Up to `n` moves from `board` (if known): mostly legal ones, in either
/// castling notation, and now and then a broken or illegal one.
fn move_list(rng: &mut Rng, board: Option<Chess>, n: usize) -> Vec<String> {
    let mut board = board;
    let mut moves = Vec::new();
    for _ in 0..n {
        let legal: Vec<_> = board
            .as_ref()
            .map(|b| b.legal_moves().into_iter().collect())
            .unwrap_or_default();
        if !legal.is_empty() && rng.chance(88) {
            let m = *rng.pick(&legal);
            let mode = if rng.chance(50) {
                CastlingMode::Standard
            } else {
                CastlingMode::Chess960
            };
            moves.push(UciMove::from_move(m, mode).to_string());
            if let Some(b) = board.as_mut() {
                b.play_unchecked(m);
            }
        } else {
            moves.push(junk_move(rng));
        }
    }
    moves
}

fn position_line(rng: &mut Rng) -> String {
    let (setup, board) = match rng.below(10) {
        0..=2 => ("position startpos".to_string(), Some(Chess::default())),
        3..=5 => {
            let fen = *rng.pick(FENS);
            (format!("position fen {fen}"), chess_from_fen(fen))
        }
        6..=8 => {
            let original = rng_fen(rng);
            let fen = mutate_fen(rng, original);
            let board = chess_from_fen(&fen);
            (format!("position fen {fen}"), board)
        }
        _ => {
            let broken = rng.pick(&[
                "position",
                "position fen",
                "position startpos junk",
                "position moves e2e4",
                "position fen moves e2e4",
                "position startpos fen 8/8/8/8/8/8/8/8 w - - 0 1",
                "position fen startpos",
                "position startpos moves",
                "position startpos moves moves e2e4",
                "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
                "position fen k7/8/8/8/8/8/8/K7 w - - 0 1 moves a1a2 a8a7 a2a1",
            ]);
            (broken.to_string(), None)
        }
    };
    if rng.chance(40) {
        return setup;
    }
    let n = rng.below(40);
    format!("{setup} moves {}", move_list(rng, board, n).join(" "))
}

fn rng_fen(rng: &mut Rng) -> &'static str {
    FENS[rng.below(FENS.len())]
}

fn go_line(rng: &mut Rng) -> String {
    let mut parts = vec!["go".to_string()];
    for _ in 0..rng.below(5) {
        match rng.below(16) {
            0 => parts.push("infinite".into()),
            1 => parts.push("ponder".into()),
            2 => {
                parts.push("searchmoves".into());
                let n = rng.below(5);
                let from = rng.chance(50).then(Chess::default);
                parts.extend(move_list(rng, from, n));
            }
            3 => {
                parts.push("perft".into());
                parts.push(if rng.chance(70) {
                    rng.range(0, 3).to_string()
                } else {
                    number(rng)
                });
            }
            4 => parts.push(token(rng)),
            5 => parts.push(rng.pick(&["depth", "nodes", "wtime", "mate"]).to_string()),
            _ => {
                let key = rng.pick(&[
                    "wtime",
                    "btime",
                    "winc",
                    "binc",
                    "movestogo",
                    "movetime",
                    "depth",
                    "nodes",
                    "mate",
                ]);
                parts.push(key.to_string());
                parts.push(if rng.chance(30) {
                    small_number(rng)
                } else {
                    number(rng)
                });
            }
        }
    }
    parts.join(" ")
}

fn setoption_line(rng: &mut Rng) -> String {
    let name = rng
        .pick(&[
            "Hash",
            "hash",
            "HASH",
            "Threads",
            "MultiPV",
            "multipv",
            "Ponder",
            "UCI_Chess960",
            "Move Overhead",
            "move  overhead",
            "Clear Hash",
            "Contempt",
            "",
            "value",
            "Hash Hash",
        ])
        .to_string();
    let name = if rng.chance(10) {
        junk_token(rng)
    } else {
        name
    };
    let value = match rng.below(8) {
        0 => String::new(),
        1 => " value".to_string(),
        2 => format!(
            " value {}",
            rng.pick(&["true", "false", "TRUE", "yes", "1"])
        ),
        3 => format!(" value {}", token(rng)),
        4 => format!(" value {}", rng.range(1, 64)),
        _ => format!(" value {}", number(rng)),
    };
    let head = if rng.chance(5) {
        "setoption"
    } else {
        "setoption name "
    };
    format!("{head}{name}{value}")
}

fn long_line(rng: &mut Rng) -> String {
    match rng.below(8) {
        0 => "x".repeat(LONG_LINE),
        1 => " ".repeat(LONG_LINE),
        2 => {
            let mut s = "go".to_string();
            while s.len() < LONG_LINE {
                s.push_str(" searchmoves e2e4");
            }
            s
        }
        3 => {
            // 20,000 legal moves: knights out and back.
            let mut s = "position startpos moves".to_string();
            while s.len() < LONG_LINE {
                s.push_str(" g1f3 g8f6 f3g1 f6g8");
            }
            s
        }
        4 => {
            let mut s = "setoption name ".to_string();
            while s.len() < LONG_LINE {
                s.push_str("Hash ");
            }
            s.push_str("value 16");
            s
        }
        5 => {
            let mut s = format!("position fen {}", FENS[0]);
            while s.len() < LONG_LINE {
                s.push_str(" 8/8/8");
            }
            s
        }
        6 => {
            let mut s = String::new();
            while s.len() < LONG_LINE {
                s.push_str(&token(rng));
                s.push(' ');
            }
            s
        }
        _ => {
            let mut s = "isready ".to_string();
            while s.len() < LONG_LINE {
                s.push_str(&junk_token(rng));
            }
            s
        }
    }
}

fn random_line(rng: &mut Rng) -> String {
    match rng.below(100) {
        0 => long_line(rng),
        1..=16 => position_line(rng),
        17..=34 => go_line(rng),
        35..=44 => setoption_line(rng),
        45..=64 => rng
            .pick(&[
                "isready",
                "uci",
                "ucinewgame",
                "stop",
                "stop",
                "ponderhit",
                "d",
                "eval",
                "debug on",
                "debug off",
                "register later",
                "quit",
                "",
                "   ",
                "\t",
            ])
            .to_string(),
        65..=74 => {
            // Junk before a real command (the command is to be obeyed).
            format!("{} {}", junk_token(rng), go_or_simple(rng))
        }
        75..=89 => {
            let head = rng.pick(KEYWORDS).to_string();
            let n = rng.below(8);
            let mut parts = vec![head];
            parts.extend((0..n).map(|_| token(rng)));
            parts.join(" ")
        }
        _ => (0..1 + rng.below(6))
            .map(|_| token(rng))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

fn go_or_simple(rng: &mut Rng) -> String {
    if rng.chance(50) {
        go_line(rng)
    } else {
        rng.pick(&["isready", "stop", "d", "ucinewgame"])
            .to_string()
    }
}

/// Random bytes for one line (no `\n`), often not UTF-8.
fn random_bytes_line(rng: &mut Rng) -> Vec<u8> {
    const BAD: &[&[u8]] = &[
        b"\xff",
        b"\xfe\xff",
        b"\xc0\xaf",
        b"\xed\xa0\x80",
        b"\xf4\x90\x80\x80",
        b"\xe2\x82",
        b"\x80",
        b"\xef\xbb\xbf",
        b"\0",
        b"\r",
        b"\x1b[2J",
    ];
    match rng.below(6) {
        0 => (0..rng.below(200))
            .map(|_| {
                loop {
                    let b = rng.next() as u8;
                    if b != b'\n' {
                        break b;
                    }
                }
            })
            .collect(),
        1 => {
            // A real command with a broken byte in it: the whole line must
            // be ignored.
            let mut line = go_or_simple(rng).into_bytes();
            let at = rng.below(line.len() + 1);
            let bad: &[u8] = BAD[rng.below(BAD.len())];
            line.splice(at..at, bad.iter().copied());
            line
        }
        2 => {
            let mut line = Vec::new();
            for _ in 0..1 + rng.below(6) {
                let bad: &[u8] = BAD[rng.below(BAD.len())];
                line.extend_from_slice(bad);
                line.extend_from_slice(token(rng).as_bytes());
            }
            line
        }
        3 => {
            let mut line = random_line(rng).into_bytes();
            line.push(b'\r');
            line
        }
        _ => random_line(rng).into_bytes(),
    }
}

// ---------------------------------------------------------------------------
// What the engine must do with a line
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    InProcess,
    Binary,
}

/// Deepest `go perft` in the random batches.
const MAX_RANDOM_PERFT: u32 = 3;

/// Keeps out of the input what must not reach `target` (see the top).
fn sanitize(line: String, target: Target) -> String {
    match parse(&line).0 {
        Ok(Command::Go(go)) if go.perft.is_some_and(|d| d > MAX_RANDOM_PERFT) => String::new(),
        Ok(Command::SetOption {
            name,
            value: Some(v),
        }) if name.trim().eq_ignore_ascii_case("hash")
            && v.trim()
                .parse::<i64>()
                .is_ok_and(|mb| mb > MAX_SAFE_HASH_MB) =>
        {
            String::new()
        }
        Ok(Command::Quit) if target == Target::Binary => String::new(),
        _ => line,
    }
}

#[derive(Default, Debug, PartialEq, Eq)]
struct Expect {
    /// `go` commands that must each get one `bestmove`.
    gos: usize,
    /// `isready` commands, each answered by one `readyok`.
    readies: usize,
}

impl Expect {
    fn add(&mut self, line: &str) {
        match parse(line).0 {
            Ok(Command::Go(go)) if go.perft.is_none() => self.gos += 1,
            Ok(Command::IsReady) => self.readies += 1,
            _ => {}
        }
    }

    /// A line as the binary reads it: too long or not UTF-8, it is ignored.
    fn add_bytes(&mut self, line: &[u8]) {
        if line.len() > MAX_LINE_BYTES {
            return;
        }
        if let Ok(text) = std::str::from_utf8(line) {
            self.add(text);
        }
    }
}

fn shorten(line: &str) -> String {
    if line.len() <= 200 {
        format!("{line:?}")
    } else {
        let cut: String = line.chars().take(120).collect();
        format!("{cut:?}... ({} bytes)", line.len())
    }
}

/// The bestmove is legal after `position startpos moves e2e4`.
fn assert_legal_reply(bestmove: &str, context: &str) {
    let text = bestmove
        .split_whitespace()
        .nth(1)
        .unwrap_or_else(|| panic!("{context}: bare '{bestmove}'"));
    let pos: Chess = chess_from_fen(AFTER_E2E4).expect("valid FEN");
    let uci: UciMove = text
        .parse()
        .unwrap_or_else(|_| panic!("{context}: '{bestmove}' is not a UCI move"));
    assert!(
        uci.to_move(&pos).is_ok(),
        "{context}: '{bestmove}' is not legal after 1.e4"
    );
}

// ---------------------------------------------------------------------------
// In process
// ---------------------------------------------------------------------------

#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Capture {
    fn output(&self) -> kestrel::uci::Output {
        Arc::new(Mutex::new(Box::new(self.clone())))
    }

    /// Everything written since the last call, as lines.
    fn take(&self) -> Vec<String> {
        let bytes = std::mem::take(&mut *self.0.lock().unwrap());
        let text = String::from_utf8(bytes).expect("the engine writes UTF-8");
        text.lines().map(str::to_string).collect()
    }

    /// Waits until a line starting with `prefix` has been written; returns
    /// every line written meanwhile.
    fn wait_for(&self, prefix: &str, timeout: Duration) -> Option<Vec<String>> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            seen.extend(self.take());
            if seen.iter().any(|l| l.starts_with(prefix)) {
                return Some(seen);
            }
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

fn count(lines: &[String], prefix: &str) -> usize {
    lines.iter().filter(|l| l.starts_with(prefix)).count()
}

/// Removes a batch saved in the temporary folder once it passed, unless
/// KESTREL_PROPERTY_KEEP is set (to replay batches by hand).
fn forget_saved(file: &str) {
    if std::env::var_os("KESTREL_PROPERTY_KEEP").is_none() {
        let _ = std::fs::remove_file(std::env::temp_dir().join(file));
    }
}

/// Saves a failing batch where it can be replayed from, and says where.
fn save_batch(seed: u64, batch: usize, lines: &[String]) -> String {
    let path = std::env::temp_dir().join(format!("kestrel-property-{seed}-{batch}.uci"));
    let mut text = lines.join("\n");
    text.push('\n');
    match std::fs::write(&path, text) {
        Ok(()) => path.display().to_string(),
        Err(e) => format!("(could not save the batch: {e})"),
    }
}

fn in_process_seed(seed: u64, batches: usize, lines_per_batch: usize) {
    let capture = Capture::default();
    let mut session = UciSession::new(capture.output());
    let mut rng = Rng::new(seed);
    for batch in 0..batches {
        let mut sent = Vec::new();
        let mut expect = Expect::default();
        for _ in 0..lines_per_batch {
            let line = sanitize(random_line(&mut rng), Target::InProcess);
            expect.add(&line);
            let quit = matches!(parse(&line).0, Ok(Command::Quit));
            sent.push(line.clone());
            let more = catch_unwind(AssertUnwindSafe(|| session.handle_line(&line)));
            match more {
                Ok(more) => assert_eq!(
                    more,
                    !quit,
                    "seed {seed} batch {batch}: handle_line({}) returned {more}",
                    shorten(&line)
                ),
                Err(_) => panic!(
                    "seed {seed} batch {batch}: handle_line panicked on {}; batch saved to {}",
                    shorten(&line),
                    save_batch(seed, batch, &sent)
                ),
            }
        }
        // `stop` waits for the search, so every best move is written now.
        session.handle_line("stop");
        session.handle_line("isready");
        let out = capture.take();
        let context = format!(
            "seed {seed} batch {batch} (saved to {})",
            save_batch(seed, batch, &sent)
        );
        assert_eq!(
            count(&out, "bestmove"),
            expect.gos,
            "{context}: bestmoves vs accepted gos"
        );
        assert_eq!(
            count(&out, "readyok"),
            expect.readies + 1,
            "{context}: readyoks vs isreadys"
        );
        assert_eq!(out.last().map(String::as_str), Some("readyok"), "{context}");
        check_session_state(&mut session, &capture, &context);
        let _ = std::fs::remove_file(
            std::env::temp_dir().join(format!("kestrel-property-{seed}-{batch}.uci")),
        );
    }
}

fn check_session_state(session: &mut UciSession, capture: &Capture, context: &str) {
    assert!(session.handle_line("position startpos moves e2e4"));
    assert!(session.handle_line("d"));
    let out = capture.take();
    let fen = out.iter().find_map(|l| l.strip_prefix("Fen: "));
    assert_eq!(
        fen,
        Some(AFTER_E2E4),
        "{context}: board after 1.e4: {out:?}"
    );
    assert!(session.handle_line("go depth 3"));
    let out = capture
        .wait_for("bestmove", SEARCH_WITHIN)
        .unwrap_or_else(|| panic!("{context}: no bestmove for go depth 3"));
    // The search has ended: `stop` must add nothing.
    session.handle_line("stop");
    let mut out = out;
    out.extend(capture.take());
    assert_eq!(count(&out, "bestmove"), 1, "{context}: {out:?}");
    let best = out.iter().find(|l| l.starts_with("bestmove")).unwrap();
    assert_legal_reply(best, context);
}

#[test]
fn in_process_session_survives_random_commands() {
    let start = Instant::now();
    for seed in 1..=6 {
        in_process_seed(seed, 12, 150);
    }
    eprintln!("in-process random commands: {:?}", start.elapsed());
}

#[test]
fn in_process_long_lines() {
    let capture = Capture::default();
    let mut session = UciSession::new(capture.output());
    let mut rng = Rng::new(77);
    let mut echoed = Vec::new();
    for i in 0..16 {
        let line = sanitize(long_line(&mut rng), Target::InProcess);
        let mut expect = Expect::default();
        expect.add(&line);
        assert!(session.handle_line(&line));
        session.handle_line("stop");
        let out = capture.take();
        let context = format!("long line #{i}: {}", shorten(&line));
        assert_eq!(count(&out, "bestmove"), expect.gos, "{context}");
        // Complaints stay short: a 100k line is not echoed back whole.
        if let Some(l) = out.iter().find(|l| l.len() >= 1000) {
            echoed.push(format!(
                "{context}: answer of {} bytes: {}",
                l.len(),
                shorten(l)
            ));
        }
        check_session_state(&mut session, &capture, &context);
    }
    assert!(
        echoed.is_empty(),
        "answers echoing long input:\n{}",
        echoed.join("\n")
    );
}

// ---------------------------------------------------------------------------
// The real binary
// ---------------------------------------------------------------------------

/// Waits until the transcript since `mark` holds `n` lines starting with
/// `prefix`.
fn wait_count(
    engine: &mut EngineProcess,
    mark: usize,
    prefix: &str,
    n: usize,
    timeout: Duration,
) -> bool {
    let deadline = Instant::now() + timeout;
    loop {
        let have = engine.transcript[mark..]
            .iter()
            .filter(|l| l.starts_with(prefix))
            .count();
        if have >= n {
            return true;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || engine.wait_for(prefix, left).is_none() {
            return false;
        }
    }
}

fn tail(engine: &EngineProcess, n: usize) -> String {
    let t = &engine.transcript;
    t[t.len().saturating_sub(n)..]
        .iter()
        .map(|l| shorten(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Writes raw bytes, reporting a dead engine (a broken pipe) as such.
fn send_raw(engine: &mut EngineProcess, bytes: &[u8], context: &str) {
    assert!(
        engine.is_running(),
        "{context}: the engine died; last output:\n{}",
        tail(engine, 20)
    );
    let sent = catch_unwind(AssertUnwindSafe(|| engine.send_bytes(bytes)));
    if sent.is_err() {
        std::thread::sleep(Duration::from_millis(100));
        panic!(
            "{context}: the engine died (running: {}); last output:\n{}",
            engine.is_running(),
            tail(engine, 20)
        );
    }
}

/// Saves the bytes of a failing batch and says where.
fn save_bytes(name: &str, bytes: &[u8]) -> String {
    let path = std::env::temp_dir().join(format!("kestrel-property-{name}.uci"));
    match std::fs::write(&path, bytes) {
        Ok(()) => path.display().to_string(),
        Err(e) => format!("(could not save the batch: {e})"),
    }
}

/// Sends one batch of raw lines, then `stop` and `isready`, and checks the
/// answers and the state.
fn binary_batch(engine: &mut EngineProcess, lines: &[Vec<u8>], context: &str) {
    let mark = engine.transcript.len();
    let mut expect = Expect::default();
    let mut bytes = Vec::new();
    for l in lines {
        expect.add_bytes(l);
        bytes.extend_from_slice(l);
        bytes.push(b'\n');
    }
    bytes.extend_from_slice(b"stop\nisready\n");
    let name: String = context
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let context = &format!("{context} (batch saved to {})", save_bytes(&name, &bytes));
    send_raw(engine, &bytes, context);
    let ready = wait_count(engine, mark, "readyok", expect.readies + 1, READY_WITHIN);
    assert!(
        engine.is_running(),
        "{context}: the engine died; last output:\n{}",
        tail(engine, 20)
    );
    assert!(
        ready,
        "{context}: no readyok within {READY_WITHIN:?}; last output:\n{}",
        tail(engine, 20)
    );
    let got = engine.transcript[mark..]
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .count();
    assert_eq!(got, expect.gos, "{context}: bestmoves vs accepted gos");
    check_binary_state(engine, context);
    forget_saved(&format!("kestrel-property-{name}.uci"));
}

fn check_binary_state(engine: &mut EngineProcess, context: &str) {
    let mark = engine.transcript.len();
    send_raw(engine, b"position startpos moves e2e4\nd\n", context);
    let fen = engine
        .wait_for("Fen: ", READY_WITHIN)
        .unwrap_or_else(|| panic!("{context}: no board after d"));
    assert_eq!(fen, format!("Fen: {AFTER_E2E4}"), "{context}");
    send_raw(engine, b"go depth 3\n", context);
    let best = engine
        .wait_for("bestmove", SEARCH_WITHIN)
        .unwrap_or_else(|| panic!("{context}: no bestmove for go depth 3"));
    send_raw(engine, b"isready\n", context);
    assert!(
        engine.wait_for("readyok", READY_WITHIN).is_some(),
        "{context}: no readyok after the search"
    );
    let n = engine.transcript[mark..]
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .count();
    assert_eq!(n, 1, "{context}: bestmoves for one go depth 3");
    assert_legal_reply(&best, context);
}

#[test]
fn binary_survives_random_bytes_and_commands() {
    let start = Instant::now();
    for seed in 101..=104 {
        let mut engine = EngineProcess::start();
        let mut rng = Rng::new(seed);
        for batch in 0..10 {
            let lines: Vec<Vec<u8>> = (0..120)
                .map(|_| {
                    let bytes = random_bytes_line(&mut rng);
                    match String::from_utf8(bytes) {
                        Ok(text) => sanitize(text, Target::Binary).into_bytes(),
                        Err(e) => e.into_bytes(),
                    }
                })
                .collect();
            binary_batch(&mut engine, &lines, &format!("seed {seed} batch {batch}"));
        }
        engine.quit_within(Duration::from_secs(2));
    }
    eprintln!("binary random input: {:?}", start.elapsed());
}

#[test]
fn binary_long_lines_and_the_line_limit() {
    let mut engine = EngineProcess::start();
    let mut rng = Rng::new(202);
    for i in 0..8 {
        let line = sanitize(long_line(&mut rng), Target::Binary);
        binary_batch(
            &mut engine,
            &[line.into_bytes()],
            &format!("long line #{i}"),
        );
    }
    // A line of exactly MAX_LINE_BYTES is read; one byte more and the whole
    // line is refused (with one complaint), and the next line is read again.
    let mut exact = b"go depth 1".to_vec();
    exact.resize(MAX_LINE_BYTES, b' ');
    binary_batch(&mut engine, &[exact.clone()], "line of MAX_LINE_BYTES");
    let mut over = exact;
    over.push(b' ');
    let mark = engine.transcript.len();
    binary_batch(&mut engine, &[over], "line of MAX_LINE_BYTES + 1");
    assert!(
        engine.transcript[mark..]
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("longer")),
        "no complaint about the long line"
    );
    // Invalid UTF-8 at the very end of a long line, and a long line with no
    // newline until much later.
    let mut broken = "go depth 1 ".repeat(LONG_LINE / 11).into_bytes();
    broken.push(0xff);
    binary_batch(&mut engine, &[broken], "long line ending in 0xff");
    let mut lines = Vec::new();
    for _ in 0..4 {
        lines.push(junk_token(&mut rng).repeat(20_000).into_bytes());
    }
    binary_batch(&mut engine, &lines, "four long junk lines");
    engine.quit_within(Duration::from_secs(2));
}

#[test]
fn binary_fen_and_move_list_fuzz() {
    let mut engine = EngineProcess::start();
    let mut rng = Rng::new(303);
    for batch in 0..10 {
        let mut lines = Vec::new();
        for _ in 0..60 {
            let line = match rng.below(4) {
                0 => {
                    let original = rng_fen(&mut rng);
                    format!("position fen {}", mutate_fen(&mut rng, original))
                }
                1 => position_line(&mut rng),
                2 => go_line(&mut rng),
                _ => rng
                    .pick(&["d", "eval", "go depth 2", "go nodes 500", "stop"])
                    .to_string(),
            };
            lines.push(sanitize(line, Target::Binary).into_bytes());
        }
        binary_batch(&mut engine, &lines, &format!("fen batch {batch}"));
    }
    engine.quit_within(Duration::from_secs(2));
}

/// `go perft` runs on the search thread: `isready` is answered meanwhile and
/// `stop` ends it with one `info string`, however deep it was asked to go
/// and whatever the position (with bare kings no line of play ever ends).
/// Each case runs in its own process, with stderr kept for the report.
#[test]
fn binary_deep_perft_can_be_stopped() {
    let cases = [
        ("position startpos", "100000"),
        ("position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1", "100000"),
        ("position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1", "4294967295"),
        ("position startpos", "12"),
    ];
    let mut failures = Vec::new();
    for (setup, depth) in cases {
        if let Err(e) = deep_perft_case(setup, depth) {
            failures.push(format!("{setup} / go perft {depth}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn deep_perft_case(setup: &str, depth: &str) -> Result<(), String> {
    use std::io::{BufRead, BufReader, Read};
    use std::process::{Command as Process, Stdio};

    let mut child = Process::new(env!("CARGO_BIN_EXE_kestrel"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kestrel starts");
    let stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut stdin = child.stdin.take().expect("piped");
    let wait_for = |prefix: &str| -> bool {
        let deadline = Instant::now() + READY_WITHIN;
        while let Ok(line) = rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            if line.starts_with(prefix) {
                return true;
            }
        }
        false
    };
    let mut steps = || -> Result<(), String> {
        let mut send = |text: &str| {
            stdin
                .write_all(text.as_bytes())
                .and_then(|()| stdin.flush())
                .map_err(|e| format!("cannot send {text:?}: {e}"))
        };
        send(&format!("{setup}\ngo perft {depth}\n"))?;
        std::thread::sleep(Duration::from_millis(1500));
        send("isready\n")?;
        if !wait_for("readyok") {
            return Err("no readyok while perft runs".into());
        }
        send("stop\n")?;
        if !wait_for("info string") {
            return Err("no info string after stop".into());
        }
        send("position startpos moves e2e4\ngo depth 3\n")?;
        if !wait_for("bestmove") {
            return Err("no bestmove after perft was stopped".into());
        }
        send("quit\n")
    };
    let outcome = steps();
    let deadline = Instant::now() + Duration::from_secs(2);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            _ if Instant::now() > deadline => break None,
            _ => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    let mut err = String::new();
    let _ = stderr.read_to_string(&mut err);
    match (outcome, status) {
        (Ok(()), Some(s)) if s.success() => Ok(()),
        (outcome, status) => Err(format!(
            "{}; exit status {status:?}; stderr: {}",
            outcome
                .err()
                .unwrap_or_else(|| "did not quit cleanly".into()),
            err.trim()
        )),
    }
}

/// Absurdly large clocks (any i64 is accepted and clamped) must give an
/// absurdly large budget, not a tiny one through overflow, and never a
/// panic: the search must still be running after a while, and `stop`
/// answers with one legal move.
#[test]
fn binary_huge_clocks_give_huge_budgets() {
    let cases = [
        "go wtime 4611686018427387914 btime 4611686018427387914 movestogo 1",
        "go wtime 9223372036854775807 btime 9223372036854775807 movestogo 1",
        "go wtime 9223372036854775807 btime 9223372036854775807",
        "go wtime 9223372036854775807 btime 9223372036854775807 winc 9223372036854775807 binc 9223372036854775807",
        "go wtime 3000000000000000000 btime 3000000000000000000 winc 3000000000000000000 binc 3000000000000000000 movestogo 2",
        "go wtime 99999999999999999999999999 btime 99999999999999999999999999 movestogo 1",
        // 2^64 / (140 * 55) + overhead: soft * scale * 55 wraps to nearly 0.
        "go movetime 2395681048533719",
        "go movetime 9223372036854775807",
    ];
    let mut engine = EngineProcess::start();
    let mut failures = Vec::new();
    for go in cases {
        let context = format!("'{go}'");
        send_raw(&mut engine, b"position startpos moves e2e4\n", &context);
        let mark = engine.transcript.len();
        send_raw(&mut engine, format!("{go}\n").as_bytes(), &context);
        if let Some(early) = engine.wait_for("bestmove", Duration::from_millis(500)) {
            failures.push(format!("{context}: '{early}' within 500 ms"));
        }
        send_raw(&mut engine, b"stop\nisready\n", &context);
        assert!(
            engine.wait_for("readyok", READY_WITHIN).is_some() && engine.is_running(),
            "{context}: no readyok (running: {})",
            engine.is_running()
        );
        let best: Vec<&String> = engine.transcript[mark..]
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .collect();
        assert_eq!(best.len(), 1, "{context}: {best:?}");
        assert_legal_reply(best[0], &context);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
