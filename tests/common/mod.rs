//! Drives the real `kestrel` binary over pipes, as a GUI would.
#![allow(dead_code)]

pub mod rng;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

pub const DEFAULT_WAIT: Duration = Duration::from_secs(20);

pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything read so far, in order.
    pub transcript: Vec<String>,
}

impl EngineProcess {
    pub fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kestrel"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("kestrel binary starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        EngineProcess {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("engine accepts input");
        stdin.flush().expect("flush");
    }

    /// Reads lines until one starts with `prefix`; returns it, or None on timeout.
    pub fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Option<String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    if line.starts_with(prefix) {
                        return Some(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                    return None;
                }
            }
        }
    }

    pub fn expect(&mut self, prefix: &str) -> String {
        self.wait_for(prefix, DEFAULT_WAIT).unwrap_or_else(|| {
            panic!(
                "no line starting with '{prefix}'; transcript:\n{}",
                self.transcript.join("\n")
            )
        })
    }

    /// Sends `isready` and collects everything up to `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        let start = self.transcript.len();
        self.send("isready");
        self.expect("readyok");
        self.transcript[start..].to_vec()
    }

    /// Closes stdin or sends quit, and waits for the process to exit.
    pub fn quit_within(&mut self, limit: Duration) -> Duration {
        let start = Instant::now();
        self.send("quit");
        loop {
            if let Ok(Some(_)) = self.child.try_wait() {
                return start.elapsed();
            }
            if start.elapsed() > limit {
                let _ = self.child.kill();
                panic!("engine did not exit within {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Lines from now up to and including the first that starts with
    /// `prefix`; panics with the recent output if none comes in time.
    pub fn lines_until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let start = self.transcript.len();
        if self.wait_for(prefix, timeout).is_none() {
            let running = self.is_running();
            let t = &self.transcript;
            panic!(
                "no '{prefix}' within {timeout:?} (running: {running}); last output:\n{}",
                t[t.len().saturating_sub(10)..].join("\n")
            );
        }
        self.transcript[start..].to_vec()
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Drains whatever arrives within `d`.
    pub fn drain(&mut self, d: Duration) {
        let deadline = Instant::now() + d;
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.transcript.push(line);
        }
    }

    pub fn count(&self, prefix: &str) -> usize {
        self.transcript
            .iter()
            .filter(|l| l.starts_with(prefix))
            .count()
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The project's shared data folder (perft suites, books, WAC), beside the repo
/// unless KESTREL_SHARED says otherwise.
pub fn shared_dir() -> PathBuf {
    let dir = std::env::var_os("KESTREL_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("../shared"));
    assert!(
        dir.join("perft").is_dir(),
        "shared data not found at {}; set KESTREL_SHARED",
        dir.display()
    );
    dir
}
