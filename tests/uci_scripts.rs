//! Replays every session in uci-scripts/*.uci against the real binary.
//!
//! Lines are sent as they are; lines starting with `# ` are directives:
//! `wait P` (a line starting with P arrives), `within MS P` (and in time),
//! `expect S` / `absent S` (S appears / does not appear in the output so far),
//! `count P N` (exactly N lines start with P so far), `sleep MS`,
//! `expect` and `absent` look only at the output since the first line sent
//! after the previous directive, so each block of a script is checked alone.
//! `send-bytes HEX..`, `send-long N` (a junk line of N characters),
//! `quit-within MS` (quit ends the process in time). Other `#` lines are comments.

mod common;

use std::time::{Duration, Instant};

use common::{DEFAULT_WAIT, EngineProcess, repo_root};

fn run_directive(engine: &mut EngineProcess, directive: &str, script: &str, window: usize) {
    let (word, rest) = directive.split_once(' ').unwrap_or((directive, ""));
    let fail = |engine: &EngineProcess, what: String| -> ! {
        panic!(
            "{script}: {what}\ntranscript:\n{}",
            engine.transcript.join("\n")
        )
    };
    match word {
        "wait" if engine.wait_for(rest, DEFAULT_WAIT).is_none() => {
            fail(engine, format!("no line starting with '{rest}'"));
        }
        "within" => {
            let (ms, prefix) = rest.split_once(' ').expect("within MS PREFIX");
            let limit = Duration::from_millis(ms.parse().expect("milliseconds"));
            let start = Instant::now();
            if engine.wait_for(prefix, limit).is_none() {
                fail(engine, format!("no '{prefix}' within {limit:?}"));
            }
            eprintln!("{script}: '{prefix}' after {:?}", start.elapsed());
        }
        "expect" => {
            engine.drain(Duration::from_millis(20));
            if !engine.transcript[window..].iter().any(|l| l.contains(rest)) {
                fail(engine, format!("expected '{rest}'"));
            }
        }
        "absent" => {
            engine.drain(Duration::from_millis(20));
            if let Some(l) = engine.transcript[window..]
                .iter()
                .find(|l| l.contains(rest))
            {
                fail(engine, format!("unexpected '{l}'"));
            }
        }
        "count" => {
            let (prefix, n) = rest.rsplit_once(' ').expect("count PREFIX N");
            engine.drain(Duration::from_millis(20));
            let want: usize = n.parse().expect("a count");
            let got = engine.count(prefix);
            if got != want {
                fail(
                    engine,
                    format!("{got} lines start with '{prefix}', expected {want}"),
                );
            }
        }
        "sleep" => std::thread::sleep(Duration::from_millis(rest.parse().expect("milliseconds"))),
        "send-bytes" => {
            let bytes: Vec<u8> = rest
                .split_whitespace()
                .map(|h| u8::from_str_radix(h, 16).expect("hex byte"))
                .collect();
            engine.send_bytes(&bytes);
        }
        "send-long" => {
            let n: usize = rest.parse().expect("a length");
            let line: String = "go ".chars().chain(std::iter::repeat_n('x', n)).collect();
            engine.send(&line);
        }
        "quit-within" => {
            let limit = Duration::from_millis(rest.parse().expect("milliseconds"));
            let took = engine.quit_within(limit);
            eprintln!("{script}: quit took {took:?}");
        }
        _ => {}
    }
}

fn run_script(name: &str) {
    let path = repo_root().join("uci-scripts").join(name);
    let text = std::fs::read_to_string(&path).expect("script readable");
    let mut engine = EngineProcess::start();
    let mut window = 0;
    let mut after_directive = true;
    for line in text.lines() {
        if let Some(directive) = line.strip_prefix("# ") {
            run_directive(&mut engine, directive, name, window);
            after_directive = true;
        } else if !line.starts_with('#') && !line.trim().is_empty() {
            if after_directive {
                engine.drain(Duration::from_millis(5));
                window = engine.transcript.len();
                after_directive = false;
            }
            engine.send(line);
        }
    }
    if engine.is_running() {
        engine.quit_within(Duration::from_secs(2));
    }
}

#[test]
fn every_script_is_run() {
    let dir = repo_root().join("uci-scripts");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("uci-scripts exists")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".uci"))
        .collect();
    names.sort();
    let tested = [
        "bad_input.uci",
        "chess960.uci",
        "game.uci",
        "handshake.uci",
        "multipv.uci",
        "perft.uci",
        "ponder.uci",
        "stop_quit.uci",
        "terminal_positions.uci",
    ];
    assert_eq!(names, tested, "each script needs its own test below");
}

#[test]
fn handshake() {
    run_script("handshake.uci");
}

#[test]
fn whole_game_in_one_position_command() {
    run_script("game.uci");
}

#[test]
fn chess960_castling() {
    run_script("chess960.uci");
}

#[test]
fn bad_input_is_survived() {
    run_script("bad_input.uci");
}

#[test]
fn stop_and_quit_during_search() {
    run_script("stop_quit.uci");
}

#[test]
fn mated_stalemated_and_mating_positions() {
    run_script("terminal_positions.uci");
}

#[test]
fn go_perft() {
    run_script("perft.uci");
}

#[test]
fn pondering() {
    run_script("ponder.uci");
}

#[test]
fn multipv() {
    run_script("multipv.uci");
}
