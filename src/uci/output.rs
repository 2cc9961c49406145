//! Engine facts to UCI text. The only place that knows the protocol's words.

use shakmaty::{CastlingMode, Move, Position as _};

use super::options::{DECLARATIONS, OptionKind};
use crate::eval::Breakdown;
use crate::position::{Position, move_to_uci};
use crate::search::params::TUNABLES;
use crate::search::{Report, mate_in};
use crate::tt::Bound;
use crate::{ENGINE_AUTHOR, ENGINE_NAME};

pub fn handshake() -> Vec<String> {
    let mut lines = vec![
        format!("id name {ENGINE_NAME}"),
        format!("id author {ENGINE_AUTHOR}"),
    ];
    let tunables = TUNABLES.iter().map(|t| {
        let kind = OptionKind::Spin {
            default: t.default,
            min: t.min,
            max: t.max,
        };
        (t.name, kind)
    });
    for (name, kind) in DECLARATIONS.into_iter().chain(tunables) {
        lines.push(option_line(name, kind));
    }
    lines.push("uciok".to_string());
    lines
}

fn option_line(name: &str, kind: OptionKind) -> String {
    match kind {
        OptionKind::Spin { default, min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        OptionKind::Check { default } => format!("option name {name} type check default {default}"),
        OptionKind::Button => format!("option name {name} type button"),
        OptionKind::Text { default } => format!("option name {name} type string default {default}"),
    }
}

pub fn readyok() -> &'static str {
    "readyok"
}

/// Longest message an `info string` carries; longer ones are cut.
const MAX_INFO_STRING_CHARS: usize = 200;

pub fn info_string(text: &str) -> String {
    // One short line, whatever the message holds (it may quote input).
    let mut flat: String = text
        .chars()
        .take(MAX_INFO_STRING_CHARS)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().count() > MAX_INFO_STRING_CHARS {
        flat.push_str("...");
    }
    format!("info string {flat}")
}

pub fn score(score: i32) -> String {
    match mate_in(score) {
        Some(n) => format!("mate {n}"),
        None => format!("cp {score}"),
    }
}

pub fn info(r: &Report, mode: CastlingMode) -> String {
    let ms = r.elapsed.as_millis() as u64;
    let nps = r.nodes * 1000 / ms.max(1);
    let bound = match r.bound {
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
        _ => "",
    };
    let pv: Vec<String> = r.pv.iter().map(|m| move_to_uci(*m, mode)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {}{} time {} pv {}",
        r.depth,
        r.seldepth,
        r.multipv,
        score(r.score),
        bound,
        r.nodes,
        nps,
        r.hashfull,
        tb_hits(r.tb_hits),
        ms,
        pv.join(" ")
    )
}

/// ` tbhits N` once a tablebase has answered, else nothing.
fn tb_hits(hits: u64) -> String {
    if hits > 0 {
        format!(" tbhits {hits}")
    } else {
        String::new()
    }
}

/// What the tables found under a new `SyzygyPath` amount to.
pub fn tablebases_loaded(files: usize, max_pieces: usize) -> String {
    info_string(&format!(
        "found {files} Syzygy table files, up to {max_pieces} pieces"
    ))
}

pub fn bestmove(best: Option<Move>, ponder: Option<Move>, mode: CastlingMode) -> String {
    match (best, ponder) {
        (Some(b), Some(p)) => format!(
            "bestmove {} ponder {}",
            move_to_uci(b, mode),
            move_to_uci(p, mode)
        ),
        (Some(b), None) => format!("bestmove {}", move_to_uci(b, mode)),
        _ => "bestmove 0000".to_string(),
    }
}

pub fn perft(divide: &[(Move, u64)], total: u64, mode: CastlingMode) -> Vec<String> {
    let mut lines: Vec<String> = divide
        .iter()
        .map(|(m, n)| format!("{}: {n}", move_to_uci(*m, mode)))
        .collect();
    lines.push(String::new());
    lines.push(format!("Nodes searched: {total}"));
    lines
}

pub fn board(pos: &Position) -> Vec<String> {
    let b = pos.board().board();
    let mut lines = vec![" +---+---+---+---+---+---+---+---+".to_string()];
    for rank in (0..8).rev() {
        let mut row = String::from(" |");
        for file in 0..8 {
            let sq =
                shakmaty::Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank));
            let c = b.piece_at(sq).map_or(' ', |p| p.char());
            row.push_str(&format!(" {c} |"));
        }
        row.push_str(&format!(" {}", rank + 1));
        lines.push(row);
        lines.push(" +---+---+---+---+---+---+---+---+".to_string());
    }
    lines.push("   a   b   c   d   e   f   g   h".to_string());
    lines.push(String::new());
    lines.push(format!("Fen: {}", pos.fen()));
    lines.push(format!("Key: {:016X}", pos.key()));
    let checkers: Vec<String> = pos
        .board()
        .checkers()
        .into_iter()
        .map(|s| s.to_string())
        .collect();
    lines.push(format!("Checkers: {}", checkers.join(" ")));
    lines
}

pub fn eval(b: &Breakdown, white_to_move: bool) -> Vec<String> {
    let mut lines = vec![format!("{:<16} {:>6} {:>6}", "term (white)", "mg", "eg")];
    for (name, s) in &b.terms {
        lines.push(format!("{name:<16} {:>6} {:>6}", s.mg(), s.eg()));
    }
    lines.push(format!(
        "phase {} of 24, endgame scale {}/64",
        b.phase, b.scale
    ));
    lines.push(format!("Hand-crafted: {} cp (white side)", b.white_score));
    lines.push(format!(
        "Net correction: {} cp (white side)",
        b.final_white - b.white_score
    ));
    lines.push(format!(
        "Final evaluation: {} cp (white side)",
        b.final_white
    ));
    let stm = if white_to_move {
        b.final_white
    } else {
        -b.final_white
    };
    lines.push(format!("Side to move: {stm} cp"));
    lines
}

pub fn is_white_to_move(pos: &Position) -> bool {
    pos.board().turn() == shakmaty::Color::White
}
