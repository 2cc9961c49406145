//! Syzygy tablebases (the 3- and 4-piece tables in ../shared/syzygy): what
//! the probe says, what the search makes of it, and the UCI options.

mod common;

use std::sync::Arc;
use std::time::Duration;

use kestrel::position::Position;
use kestrel::search::{History, Limits, SearchOptions, TB_WIN_BOUND, search_position};
use kestrel::tablebase::{Outcome, TablebaseError, Tablebases};
use kestrel::tt::TranspositionTable;
use shakmaty::Position as _;

fn tables() -> Tablebases {
    let dir = common::shared_dir().join("syzygy");
    Tablebases::open(dir.to_str().unwrap()).expect("the shared tables open")
}

fn board(fen: &str) -> shakmaty::Chess {
    Position::from_fen(fen).unwrap().board().clone()
}

fn search(fen: &str, depth: u32, tablebases: Option<Arc<Tablebases>>) -> (i32, String) {
    let pos = Position::from_fen(fen).unwrap();
    let tt = TranspositionTable::new(16).unwrap();
    let mut history = History::default();
    let options = SearchOptions {
        tablebases,
        ..SearchOptions::default()
    };
    let r = search_position(
        &pos,
        &Limits::depth(depth),
        &options,
        &tt,
        &mut history,
        &mut |_| {},
    );
    (r.score, r.best.map(|m| m.to_string()).unwrap_or_default())
}

#[test]
fn opens_the_shared_tables_and_refuses_bad_paths() {
    let tb = tables();
    assert_eq!(tb.max_pieces(), 4);
    assert!(tb.files() >= 70, "{} files", tb.files());
    assert!(matches!(
        Tablebases::open("/no/such/directory"),
        Err(TablebaseError::Directory { .. })
    ));
    let empty = std::env::temp_dir().join(format!("kestrel-no-tables-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    assert!(matches!(
        Tablebases::open(empty.to_str().unwrap()),
        Err(TablebaseError::Empty(_))
    ));
    let _ = std::fs::remove_dir(&empty);
}

#[test]
fn probes_known_endings() {
    let tb = tables();
    // Rook pawn, bishop of the wrong colour, defending king in the corner.
    let wrong_bishop = board("7k/8/8/7P/4K3/8/B7/8 w - - 0 1");
    assert_eq!(tb.outcome_after_zeroing(&wrong_bishop), Some(Outcome::Draw));
    let kqk = board("8/8/8/3k4/8/8/8/KQ6 w - - 0 1");
    assert_eq!(tb.outcome_after_zeroing(&kqk), Some(Outcome::Win));
    let kqk_defending = board("8/8/8/3k4/8/8/8/KQ6 b - - 0 1");
    assert_eq!(
        tb.outcome_after_zeroing(&kqk_defending),
        Some(Outcome::Loss)
    );
    // Five pieces, or castling rights: not covered.
    assert_eq!(
        tb.outcome_after_zeroing(&board("8/8/8/3k4/8/8/1P6/KQ5r w - - 0 1")),
        None
    );
    assert_eq!(
        tb.outcome_after_zeroing(&board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")),
        None
    );
}

#[test]
fn root_keeps_only_moves_that_keep_the_outcome() {
    let tb = tables();
    // KRK: one move, which keeps the win.
    let krk = board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
    let kept = tb.root_moves(&krk).expect("covered");
    assert_eq!(kept.len(), 1);
    let mut after = krk.clone();
    after.play_unchecked(kept[0]);
    assert_eq!(tb.outcome_after_zeroing(&after), Some(Outcome::Loss));
    // KBPK with the wrong bishop, the defending king on its way to the
    // corner: only the king moves that reach it keep the draw.
    let drawn = board("B7/4k3/8/8/4K2P/8/8/8 b - - 0 1");
    let kept = tb.root_moves(&drawn).expect("covered");
    let all = drawn.legal_moves().len();
    assert!(!kept.is_empty() && kept.len() < all, "{kept:?} of {all}");
    for m in kept {
        let mut after = drawn.clone();
        after.play_unchecked(m);
        assert_eq!(tb.outcome_after_zeroing(&after), Some(Outcome::Draw), "{m}");
    }
}

#[test]
fn search_scores_tablebase_draws_and_wins() {
    let tb = Some(Arc::new(tables()));
    // The wrong-bishop draw from a game against Stockfish, where the
    // evaluation alone saw a won ending.
    let (score, _) = search("B7/4k3/8/8/4K2P/8/8/8 b - - 0 75", 16, tb.clone());
    assert!(score.abs() <= 1, "score {score}");
    // Five pieces, not covered; taking the knight reaches a won KRPK,
    // which the search scores as a tablebase win (the evaluation alone
    // would say about a rook and a pawn up).
    let (score, best) = search("7k/8/8/8/1n6/8/P7/1R4K1 w - - 0 1", 8, tb.clone());
    assert!(score >= TB_WIN_BOUND, "score {score}, best {best}");
    assert_eq!(best, "Rb1xb4");
    let (score, _) = search("7k/8/8/8/1n6/8/P7/1R4K1 w - - 0 1", 8, None);
    assert!(score < TB_WIN_BOUND, "score {score}");
}

#[test]
fn uci_options_load_tables_and_report_hits() {
    let dir = common::shared_dir().join("syzygy");
    let mut e = common::EngineProcess::start();
    e.send("uci");
    let handshake = e.lines_until("uciok", common::DEFAULT_WAIT);
    assert!(
        handshake
            .iter()
            .any(|l| l == "option name SyzygyPath type string default <empty>"),
        "{handshake:?}"
    );
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    let loaded = e.expect("info string");
    assert!(loaded.contains("up to 4 pieces"), "{loaded}");
    e.send("position fen 8/8/8/8/4k3/8/4PK2/8 w - - 0 1");
    e.send("go depth 8");
    let lines = e.lines_until("bestmove", Duration::from_secs(20));
    assert!(lines.iter().any(|l| l.contains(" tbhits ")), "{lines:?}");
    e.send("setoption name SyzygyPath value /no/such/directory");
    let refused = e.expect("info string");
    assert!(refused.contains("error"), "{refused}");
    e.send("quit");
}
