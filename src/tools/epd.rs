//! `kestrel epd FILE`: solves a test suite such as Win At Chess, where each
//! line names the best moves (`bm`) or moves to avoid (`am`) in SAN.

use std::time::Duration;

use shakmaty::san::San;
use shakmaty::{Chess, Move};
use thiserror::Error;

use crate::position::Position;
use crate::search::threads::search_with_threads;
use crate::search::{History, Limits, SearchControl, SearchOptions};
use crate::tt::TranspositionTable;

#[derive(Debug, Error)]
pub enum EpdError {
    #[error("line {line}: {reason}")]
    BadLine { line: usize, reason: String },
}

#[derive(Debug, Clone)]
pub struct EpdCase {
    pub id: String,
    pub position: Position,
    pub best: Vec<Move>,
    pub avoid: Vec<Move>,
}

impl EpdCase {
    pub fn is_solved_by(&self, m: Move) -> bool {
        (self.best.is_empty() || self.best.contains(&m)) && !self.avoid.contains(&m)
    }
}

fn san_moves(board: &Chess, list: &str) -> Result<Vec<Move>, String> {
    list.split_whitespace()
        .map(|s| {
            let san: San = s.parse().map_err(|_| format!("bad SAN '{s}'"))?;
            san.to_move(board).map_err(|_| format!("illegal SAN '{s}'"))
        })
        .collect()
}

pub fn parse_line(line: &str, number: usize) -> Result<EpdCase, EpdError> {
    let bad = |reason: String| EpdError::BadLine {
        line: number,
        reason,
    };
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(bad("fewer than four FEN fields".into()));
    }
    let fen = format!("{} 0 1", fields[..4].join(" "));
    let position = Position::from_fen(&fen).map_err(|e| bad(e.to_string()))?;
    let ops = fields[4..].join(" ");
    let mut case = EpdCase {
        id: format!("line {number}"),
        position,
        best: Vec::new(),
        avoid: Vec::new(),
    };
    for op in ops.split(';').map(str::trim).filter(|o| !o.is_empty()) {
        let (code, arg) = op.split_once(' ').unwrap_or((op, ""));
        match code {
            "bm" => case.best = san_moves(case.position.board(), arg).map_err(bad)?,
            "am" => case.avoid = san_moves(case.position.board(), arg).map_err(bad)?,
            "id" => case.id = arg.trim_matches('"').to_string(),
            _ => {}
        }
    }
    if case.best.is_empty() && case.avoid.is_empty() {
        return Err(bad("no bm or am operation".into()));
    }
    Ok(case)
}

pub fn parse_suite(text: &str) -> (Vec<EpdCase>, Vec<EpdError>) {
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match parse_line(line, i + 1) {
            Ok(c) => cases.push(c),
            Err(e) => errors.push(e),
        }
    }
    (cases, errors)
}

/// Searches one case for `movetime` and says whether it found the move.
pub fn solve(
    case: &EpdCase,
    movetime: Duration,
    tt: &TranspositionTable,
    histories: &mut [History],
) -> (bool, Option<Move>) {
    let limits = Limits {
        movetime: Some(movetime.as_millis() as u64),
        ..Limits::default()
    };
    solve_with(case, &limits, tt, histories)
}

/// Searches one case to any limits, with one thread per history, and says
/// whether it found the move.
pub fn solve_with(
    case: &EpdCase,
    limits: &Limits,
    tt: &TranspositionTable,
    histories: &mut [History],
) -> (bool, Option<Move>) {
    let options = SearchOptions {
        move_overhead_ms: 0,
        ..SearchOptions::default()
    };
    let ctl = SearchControl::new(false);
    let result = search_with_threads(
        &case.position,
        limits,
        &options,
        tt,
        &ctl,
        histories,
        &mut |_| {},
    );
    let solved = result.best.is_some_and(|m| case.is_solved_by(m));
    (solved, result.best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_wac_style_lines() {
        let case = parse_line(
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";",
            1,
        )
        .unwrap();
        assert_eq!(case.id, "WAC.001");
        assert_eq!(case.best.len(), 1);
        assert!(parse_line("8/8/8/8 w", 2).is_err());
    }
}
