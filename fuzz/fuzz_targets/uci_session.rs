//! Feeds arbitrary bytes to an in-process `UciSession`, one line at a time,
//! as a GUI (or an attacker) would.
//!
//! The bytes are split at `\n` and each line is decoded lossily. Lines that
//! could make one input run for long are rewritten into bounded ones that
//! keep what they exercise:
//! - every `go` keeps its clock, mate, `infinite`, `ponder` and
//!   `searchmoves` parts but gets at most depth 2 and a budget of 2000
//!   nodes; `go perft N` becomes `go perft min(N, 2)`;
//! - `setoption name Hash` may ask for 1 or 2 MB only (other values,
//!   including refused ones, are passed on as they are).
//!
//! Every input ends with `stop`, so no search outlives it. The session is
//! kept between inputs (creating one allocates the default 16 MB table) and
//! put back in its initial state before each input: options reset,
//! `ucinewgame` (clears the table and the history), `position startpos`.

#![no_main]

use std::sync::{Arc, Mutex};

use kestrel::uci::UciSession;
use kestrel::uci::parse::{Command, GoParams, parse};
use libfuzzer_sys::fuzz_target;

const MAX_DEPTH: u32 = 2;
const MAX_NODES: u64 = 2000;
const MAX_PERFT: u32 = 2;
const MAX_HASH_MB: i64 = 2;

const RESET: [&str; 9] = [
    "stop",
    "setoption name Hash value 1",
    "setoption name Threads value 1",
    "setoption name MultiPV value 1",
    "setoption name Ponder value false",
    "setoption name UCI_Chess960 value false",
    "setoption name Move Overhead value 10",
    "ucinewgame",
    "position startpos",
];

fn session() -> &'static Mutex<UciSession> {
    static SESSION: std::sync::OnceLock<Mutex<UciSession>> = std::sync::OnceLock::new();
    SESSION.get_or_init(|| {
        let sink: Box<dyn std::io::Write + Send> = Box::new(std::io::sink());
        Mutex::new(UciSession::new(Arc::new(Mutex::new(sink))))
    })
}

fn bounded_go(go: &GoParams) -> String {
    if let Some(p) = go.perft {
        return format!("go perft {}", p.min(MAX_PERFT));
    }
    let mut parts = vec!["go".to_string()];
    let mut num = |key: &str, v: Option<String>| {
        if let Some(v) = v {
            parts.push(format!("{key} {v}"));
        }
    };
    num("wtime", go.wtime.map(|v| v.to_string()));
    num("btime", go.btime.map(|v| v.to_string()));
    num("winc", go.winc.map(|v| v.to_string()));
    num("binc", go.binc.map(|v| v.to_string()));
    num("movestogo", go.movestogo.map(|v| v.to_string()));
    num("movetime", go.movetime.map(|v| v.to_string()));
    num("mate", go.mate.map(|v| v.to_string()));
    num(
        "depth",
        Some(go.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH).to_string()),
    );
    num(
        "nodes",
        Some(go.nodes.unwrap_or(MAX_NODES).min(MAX_NODES).to_string()),
    );
    if go.infinite {
        parts.push("infinite".into());
    }
    if go.ponder {
        parts.push("ponder".into());
    }
    if !go.searchmoves.is_empty() {
        parts.push("searchmoves".into());
        parts.extend(go.searchmoves.iter().cloned());
    }
    parts.join(" ")
}

/// The line to hand to the session: `line` itself unless it could run long.
fn bounded(line: &str) -> String {
    match parse(line).0 {
        Ok(Command::Go(go)) => bounded_go(&go),
        Ok(Command::SetOption {
            name,
            value: Some(v),
        }) if name.trim().eq_ignore_ascii_case("hash")
            && v.trim().parse::<i64>().is_ok_and(|mb| mb > MAX_HASH_MB) =>
        {
            format!("setoption name Hash value {MAX_HASH_MB}")
        }
        _ => line.to_string(),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut session = session().lock().unwrap_or_else(|e| e.into_inner());
    for line in RESET {
        session.handle_line(line);
    }
    for raw in data.split(|&b| b == b'\n') {
        let text = String::from_utf8_lossy(raw);
        let quit = matches!(parse(&text).0, Ok(Command::Quit));
        let more = session.handle_line(&bounded(&text));
        assert_eq!(more, !quit, "handle_line must return false exactly on quit");
    }
    session.handle_line("stop");
});
