//! Syzygy endgame tablebases (through `shakmaty-syzygy`): the exact
//! win/draw/loss value of positions with few pieces for the search, and
//! the moves that keep the best outcome at the root.

use std::fmt;
use std::path::Path;

use shakmaty::{Chess, Move, Position as _};
use shakmaty_syzygy::{Tablebase, Wdl};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum TablebaseError {
    #[error("cannot read tablebase directory '{path}': {source}")]
    Directory {
        path: String,
        source: std::io::Error,
    },
    #[error("no Syzygy tables found in '{0}'")]
    Empty(String),
}

/// The outcome a tablebase promises the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    /// A win the 50-move rule turns into a draw.
    CursedWin,
    Draw,
    /// A loss the 50-move rule turns into a draw.
    BlessedLoss,
    Loss,
}

impl From<Wdl> for Outcome {
    fn from(wdl: Wdl) -> Self {
        match wdl {
            Wdl::Win => Outcome::Win,
            Wdl::CursedWin => Outcome::CursedWin,
            Wdl::Draw => Outcome::Draw,
            Wdl::BlessedLoss => Outcome::BlessedLoss,
            Wdl::Loss => Outcome::Loss,
        }
    }
}

/// The tables found under one `SyzygyPath`.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    files: usize,
}

impl fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebases")
            .field("files", &self.files)
            .field("max_pieces", &self.max_pieces())
            .finish()
    }
}

/// Directories in a `SyzygyPath` are separated as in `PATH`: by ';' on
/// Windows and ':' elsewhere.
const SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

impl Tablebases {
    /// Opens every table in the directories of `path`.
    pub fn open(path: &str) -> Result<Tablebases, TablebaseError> {
        let mut tables = Tablebase::new();
        let mut files = 0;
        for dir in path
            .split(SEPARATOR)
            .map(str::trim)
            .filter(|d| !d.is_empty())
        {
            files += tables.add_directory(Path::new(dir)).map_err(|source| {
                TablebaseError::Directory {
                    path: dir.to_string(),
                    source,
                }
            })?;
        }
        if files == 0 {
            return Err(TablebaseError::Empty(path.to_string()));
        }
        Ok(Tablebases { tables, files })
    }

    /// Number of table files found (WDL and DTZ).
    pub fn files(&self) -> usize {
        self.files
    }

    /// The most pieces (kings included) of any table found.
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// Whether `pos` is one the tables can answer: few enough pieces and
    /// no castling rights.
    pub fn covers(&self, pos: &Chess) -> bool {
        pos.board().occupied().count() <= self.max_pieces() && pos.castles().is_empty()
    }

    /// The outcome of `pos` for the side to move, exact when `pos` was just
    /// reached by a capture or pawn move (its halfmove clock is 0); None
    /// when no table answers.
    pub fn outcome_after_zeroing(&self, pos: &Chess) -> Option<Outcome> {
        if !self.covers(pos) {
            return None;
        }
        self.tables
            .probe_wdl_after_zeroing(pos)
            .ok()
            .map(Outcome::from)
    }

    /// The root moves worth searching in `pos`: the one that wins (or
    /// resists) fastest by distance to zeroing when the position is won
    /// (or lost), every move that keeps the draw when it is drawn. None
    /// when the tables do not cover `pos` or a table is missing.
    pub fn root_moves(&self, pos: &Chess) -> Option<Vec<Move>> {
        if !self.covers(pos) {
            return None;
        }
        let mut scored = Vec::new();
        for m in pos.legal_moves() {
            let mut after = pos.clone();
            after.play_unchecked(m);
            // From the opponent's side: lower is better for us.
            let theirs = self.tables.probe_wdl_after_zeroing(&after).ok()?;
            scored.push((m, theirs));
        }
        let best = scored.iter().map(|&(_, w)| w).min()?;
        match best {
            Wdl::Loss | Wdl::Win | Wdl::CursedWin => {
                let (m, _) = self.tables.best_move(pos).ok()??;
                Some(vec![m])
            }
            Wdl::BlessedLoss | Wdl::Draw => Some(
                scored
                    .into_iter()
                    .filter(|&(_, w)| w == best)
                    .map(|(m, _)| m)
                    .collect(),
            ),
        }
    }
}
