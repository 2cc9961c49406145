//! The engine: the current game position, the options, the transposition
//! table and the life of the search thread. It speaks no protocol; `uci/`
//! turns commands into calls here and events into text.

use std::sync::Arc;
use std::thread::JoinHandle;

use shakmaty::{CastlingMode, Move};

use crate::position::{Position, PositionError};
use crate::search::threads::{SEARCH_STACK_BYTES, search_with_threads};
use crate::search::{History, Limits, SearchControl, SearchEvent, SearchOptions};
use crate::tablebase::{TablebaseError, Tablebases};
use crate::tt::{DEFAULT_HASH_MB, TranspositionTable, TtError};

/// Receives a search's events on the search thread.
pub type Reporter = Box<dyn FnMut(SearchEvent) + Send>;

/// Receives perft's counts per root move, or None if it was stopped.
pub type PerftDone = Box<dyn FnOnce(Option<Vec<(Move, u64)>>) + Send>;

/// One history per search thread, the main thread's first; each thread
/// keeps its own from move to move.
type Histories = Vec<History>;

struct RunningSearch {
    ctl: Arc<SearchControl>,
    handle: JoinHandle<Histories>,
}

pub struct Engine {
    position: Position,
    chess960: bool,
    ponder: bool,
    threads: usize,
    search_options: SearchOptions,
    tt: Arc<TranspositionTable>,
    histories: Histories,
    running: Option<RunningSearch>,
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    pub fn new() -> Self {
        let tt = TranspositionTable::new(DEFAULT_HASH_MB)
            .or_else(|_| TranspositionTable::new(1))
            .expect("a 1 MB table always fits");
        Engine {
            position: Position::startpos(),
            chess960: false,
            ponder: false,
            threads: 1,
            search_options: SearchOptions::default(),
            tt: Arc::new(tt),
            histories: vec![History::default()],
            running: None,
        }
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn castling_mode(&self) -> CastlingMode {
        if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    pub fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished())
    }

    /// Sets the position from a FEN (None: the start position) and a move
    /// list. A bad FEN leaves the old position; an illegal move leaves the
    /// position reached before it.
    pub fn set_position(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
    ) -> Result<(), PositionError> {
        let mut pos = match fen {
            None => Position::startpos(),
            Some(f) => Position::from_fen(f)?,
        };
        let mode = self.castling_mode();
        let mut outcome = Ok(());
        for text in moves {
            match pos.parse_move(text, mode) {
                Ok(m) => pos.play(m),
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            }
        }
        self.position = pos;
        outcome
    }

    pub fn new_game(&mut self) {
        self.stop();
        self.clear_hash();
        for h in &mut self.histories {
            h.clear();
        }
    }

    fn table_mut(&mut self) -> &mut TranspositionTable {
        self.stop();
        if Arc::get_mut(&mut self.tt).is_none() {
            // Only a finished search could still hold a reference; a fresh
            // table of the same size keeps us correct either way.
            let mb = self.tt.size_mb();
            if let Ok(t) = TranspositionTable::new(mb) {
                self.tt = Arc::new(t);
            }
        }
        Arc::get_mut(&mut self.tt).expect("no search holds the table after stop")
    }

    pub fn clear_hash(&mut self) {
        self.table_mut().clear();
    }

    pub fn set_hash(&mut self, mb: usize) -> Result<(), TtError> {
        self.stop();
        // Free the old table first so that old and new never coexist.
        self.tt = Arc::new(TranspositionTable::new(1)?);
        match TranspositionTable::new(mb) {
            Ok(t) => {
                self.tt = Arc::new(t);
                Ok(())
            }
            Err(e) => {
                self.tt = Arc::new(TranspositionTable::new(crate::tt::DEFAULT_HASH_MB)?);
                Err(e)
            }
        }
    }

    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Sets the number of search threads (at least one); a running search
    /// keeps the number it started with.
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn set_multipv(&mut self, n: usize) {
        self.search_options.multipv = n;
    }

    pub fn set_ponder(&mut self, on: bool) {
        self.ponder = on;
    }

    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    pub fn set_move_overhead(&mut self, ms: u64) {
        self.search_options.move_overhead_ms = ms;
    }

    /// Opens the Syzygy tables under `path` (None: no tablebases) and
    /// returns how many files were found and their most pieces. On an
    /// error the tablebases are off.
    pub fn set_syzygy_path(
        &mut self,
        path: Option<&str>,
    ) -> Result<Option<(usize, usize)>, TablebaseError> {
        self.search_options.tablebases = None;
        let Some(path) = path else {
            return Ok(None);
        };
        let tables = Tablebases::open(path)?;
        let found = (tables.files(), tables.max_pieces());
        self.search_options.tablebases = Some(Arc::new(tables));
        Ok(Some(found))
    }

    pub fn set_syzygy_probe_depth(&mut self, depth: i32) {
        self.search_options.syzygy_probe_depth = depth;
    }

    pub fn set_syzygy_50_move_rule(&mut self, on: bool) {
        self.search_options.syzygy_50_move_rule = on;
    }

    /// Resolves `searchmoves` text against the current position; unknown or
    /// illegal ones are returned as errors and left out.
    pub fn resolve_moves(&self, texts: &[String]) -> (Vec<Move>, Vec<PositionError>) {
        let mode = self.castling_mode();
        let mut moves = Vec::new();
        let mut errors = Vec::new();
        for t in texts {
            match self.position.parse_move(t, mode) {
                Ok(m) => moves.push(m),
                Err(e) => errors.push(e),
            }
        }
        (moves, errors)
    }

    /// Starts a search on its own thread. A search already running is
    /// stopped first (and answers with its own best move).
    pub fn go(&mut self, limits: Limits, mut report: Reporter) {
        self.stop();
        let ctl = Arc::new(SearchControl::new(limits.ponder));
        let tt = Arc::clone(&self.tt);
        let mut histories = std::mem::take(&mut self.histories);
        histories.resize_with(self.threads, History::default);
        let position = self.position.clone();
        let options = self.search_options.clone();
        let thread_ctl = Arc::clone(&ctl);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                search_with_threads(
                    &position,
                    &limits,
                    &options,
                    &tt,
                    &thread_ctl,
                    &mut histories,
                    &mut *report,
                );
                histories
            });
        match spawned {
            Ok(handle) => self.running = Some(RunningSearch { ctl, handle }),
            Err(e) => {
                log::error!("cannot start the search thread: {e}");
                self.histories = vec![History::default()];
            }
        }
    }

    /// Runs perft on the search thread so that `isready` and `stop` are
    /// still answered; `done` gets the counts, or None if it was stopped.
    pub fn perft(&mut self, depth: u32, done: PerftDone) {
        self.stop();
        let ctl = Arc::new(SearchControl::new(false));
        let thread_ctl = Arc::clone(&ctl);
        let histories = std::mem::take(&mut self.histories);
        let board = self.position.board().clone();
        let spawned = std::thread::Builder::new()
            .name("perft".into())
            .spawn(move || {
                let stopped = || thread_ctl.is_stopped();
                done(crate::tools::perft::divide_until(&board, depth, &stopped));
                histories
            });
        match spawned {
            Ok(handle) => self.running = Some(RunningSearch { ctl, handle }),
            Err(e) => {
                log::error!("cannot start the perft thread: {e}");
                self.histories = vec![History::default()];
            }
        }
    }

    /// Stops the running search (if any) and waits for its best move.
    pub fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.ctl.stop();
        }
        self.wait();
    }

    /// Waits for the running search to finish by itself.
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            match r.handle.join() {
                Ok(histories) => self.histories = histories,
                Err(_) => {
                    log::error!("the search thread panicked");
                    self.histories = vec![History::default()];
                }
            }
        }
    }

    pub fn ponderhit(&self) {
        if let Some(r) = &self.running {
            r.ctl.ponderhit();
        }
    }

    /// Tells the running search to stop without waiting for it.
    pub fn signal_stop(&self) {
        if let Some(r) = &self.running {
            r.ctl.stop();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}
