//! The UCI protocol: reads commands, drives the engine, writes answers.
//! The reader never waits on the search, so `isready`, `stop` and `quit`
//! are answered while it runs.

pub mod options;
pub mod output;
pub mod parse;

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

use crate::engine::{Engine, Reporter};
use crate::eval;
use crate::search::{Limits, SearchEvent};
use options::{OptionChange, parse_option};
use parse::{Command, GoParams, PositionSpec, parse};

/// Deeper perfts could not finish anyway and would only exhaust the stack.
pub const MAX_PERFT_DEPTH: u32 = 32;

/// Longest line we read; anything longer is refused whole.
pub const MAX_LINE_BYTES: usize = 1 << 20;

pub type Output = Arc<Mutex<Box<dyn Write + Send>>>;

pub fn stdout_output() -> Output {
    Arc::new(Mutex::new(Box::new(std::io::stdout())))
}

fn send(out: &Output, lines: &[String]) {
    // A poisoned lock only means another thread panicked mid-write; the
    // writer itself is still usable.
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    for l in lines {
        let _ = writeln!(w, "{l}");
    }
    let _ = w.flush();
}

fn send_one(out: &Output, line: impl Into<String>) {
    send(out, &[line.into()]);
}

/// Reports a problem with the input: one `info string` and a log line.
fn complain(out: &Output, message: &str) {
    log::warn!("{}", message.chars().take(1000).collect::<String>());
    send_one(out, output::info_string(&format!("error: {message}")));
}

enum Line {
    Text(Vec<u8>),
    TooLong,
    Eof,
}

fn read_line(input: &mut impl BufRead) -> std::io::Result<Line> {
    let mut buf = Vec::new();
    let mut too_long = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(if too_long {
                Line::TooLong
            } else if buf.is_empty() {
                Line::Eof
            } else {
                Line::Text(buf)
            });
        }
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        if !too_long {
            if buf.len() + part.len() > MAX_LINE_BYTES {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(part);
            }
        }
        let used = done.unwrap_or(chunk.len());
        input.consume(used);
        if done.is_some() {
            return Ok(if too_long {
                Line::TooLong
            } else {
                Line::Text(buf)
            });
        }
    }
}

pub struct UciSession {
    engine: Engine,
    out: Output,
}

impl UciSession {
    pub fn new(out: Output) -> Self {
        UciSession {
            engine: Engine::new(),
            out,
        }
    }

    /// Runs until `quit` or the end of input.
    pub fn run(&mut self, mut input: impl BufRead) {
        loop {
            let line = match read_line(&mut input) {
                Ok(Line::Text(bytes)) => bytes,
                Ok(Line::TooLong) => {
                    complain(
                        &self.out,
                        &format!("line longer than {MAX_LINE_BYTES} bytes ignored"),
                    );
                    continue;
                }
                Ok(Line::Eof) => break,
                Err(e) => {
                    log::error!("cannot read input: {e}");
                    break;
                }
            };
            let Ok(text) = String::from_utf8(line) else {
                complain(&self.out, "line is not valid UTF-8, ignored");
                continue;
            };
            if !self.handle_line(&text) {
                break;
            }
        }
        self.engine.stop();
    }

    /// Handles one line; false when the session should end.
    pub fn handle_line(&mut self, line: &str) -> bool {
        log::debug!("<< {line}");
        let (command, skipped) = parse(line);
        if let Some(s) = skipped {
            complain(&self.out, &format!("unknown command '{s}' ignored"));
        }
        match command {
            Ok(Command::Quit) => return false,
            Ok(c) => self.execute(c),
            Err(parse::ParseError::Empty) => {}
            Err(e) => complain(&self.out, &e.to_string()),
        }
        true
    }

    fn execute(&mut self, command: Command) {
        match command {
            Command::Uci => send(&self.out, &output::handshake()),
            Command::Debug(_) | Command::Register | Command::Quit => {}
            Command::IsReady => send_one(&self.out, output::readyok()),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => self.engine.new_game(),
            Command::Position { spec, moves } => {
                let fen = match &spec {
                    PositionSpec::StartPos => None,
                    PositionSpec::Fen(f) => Some(f.as_str()),
                };
                if let Err(e) = self.engine.set_position(fen, &moves) {
                    complain(&self.out, &e.to_string());
                }
            }
            Command::Go(go) => self.go(go),
            Command::Stop => self.engine.stop(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Display => send(&self.out, &output::board(self.engine.position())),
            Command::Eval => {
                let pos = self.engine.position();
                let b = eval::breakdown(pos.board());
                send(&self.out, &output::eval(&b, output::is_white_to_move(pos)));
            }
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let change = match parse_option(name, value) {
            Ok(c) => c,
            Err(e) => return complain(&self.out, &e.to_string()),
        };
        match change {
            OptionChange::Hash(mb) => {
                if let Err(e) = self.engine.set_hash(mb) {
                    complain(
                        &self.out,
                        &format!("{e}; using {} MB", self.engine.hash_mb()),
                    );
                }
            }
            OptionChange::Threads(n) => self.engine.set_threads(n),
            OptionChange::MultiPv(n) => self.engine.set_multipv(n),
            OptionChange::Ponder(on) => self.engine.set_ponder(on),
            OptionChange::Chess960(on) => self.engine.set_chess960(on),
            OptionChange::MoveOverhead(ms) => self.engine.set_move_overhead(ms),
            OptionChange::ClearHash => self.engine.clear_hash(),
            OptionChange::SyzygyPath(path) => match self.engine.set_syzygy_path(path.as_deref()) {
                Ok(Some((files, pieces))) => {
                    send_one(&self.out, output::tablebases_loaded(files, pieces))
                }
                Ok(None) => {}
                Err(e) => complain(&self.out, &e.to_string()),
            },
            OptionChange::SyzygyProbeDepth(d) => self.engine.set_syzygy_probe_depth(d),
            OptionChange::Syzygy50MoveRule(on) => self.engine.set_syzygy_50_move_rule(on),
            OptionChange::Tunable(name, v) => {
                crate::search::params::set_tunable(name, v);
            }
        }
    }

    fn go(&mut self, go: GoParams) {
        if let Some(depth) = go.perft {
            if depth > MAX_PERFT_DEPTH {
                complain(
                    &self.out,
                    &format!("perft depth {depth} limited to {MAX_PERFT_DEPTH}"),
                );
            }
            let depth = depth.min(MAX_PERFT_DEPTH);
            let out = Arc::clone(&self.out);
            let mode = self.engine.castling_mode();
            self.engine.perft(
                depth,
                Box::new(move |counts| match counts {
                    Some(divide) => {
                        let total = crate::tools::perft::total(&divide, depth);
                        send(&out, &output::perft(&divide, total, mode));
                    }
                    None => send_one(&out, output::info_string("perft stopped")),
                }),
            );
            return;
        }
        // Stop first: searchmoves are read in the current position, which
        // an earlier search must not still be answering for.
        self.engine.stop();
        let (searchmoves, errors) = self.engine.resolve_moves(&go.searchmoves);
        for e in errors {
            complain(&self.out, &format!("searchmoves: {e}"));
        }
        let ms = |v: Option<i64>| v.map(|t| t.max(0) as u64);
        let limits = Limits {
            wtime: ms(go.wtime),
            btime: ms(go.btime),
            winc: ms(go.winc),
            binc: ms(go.binc),
            movestogo: go.movestogo.filter(|&m| m > 0),
            depth: go.depth,
            nodes: go.nodes,
            movetime: ms(go.movetime),
            mate: go.mate,
            infinite: go.infinite,
            ponder: go.ponder,
            searchmoves,
        };
        let reporter = self.reporter();
        self.engine.go(limits, reporter);
    }

    fn reporter(&self) -> Reporter {
        let out = Arc::clone(&self.out);
        let mode = self.engine.castling_mode();
        Box::new(move |event| match event {
            SearchEvent::Iteration(r) => send_one(&out, output::info(r, mode)),
            SearchEvent::BestMove { best, ponder } => {
                send_one(&out, output::bestmove(best, ponder, mode))
            }
        })
    }
}

/// Runs a UCI session on stdin and stdout.
pub fn run_stdio() {
    let mut session = UciSession::new(stdout_output());
    let stdin = std::io::stdin();
    session.run(stdin.lock());
}
