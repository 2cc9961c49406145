//! Search behaviour through the library and the tools: mates, tactics,
//! the bench signature.

mod common;

use std::process::Command;

use kestrel::position::Position;
use kestrel::search::{History, Limits, SearchOptions, mate_in, search_position};
use kestrel::tools::epd;
use kestrel::tt::TranspositionTable;

fn search(fen: &str, limits: Limits) -> kestrel::search::SearchResult {
    let pos = Position::from_fen(fen).unwrap();
    let tt = TranspositionTable::new(16).unwrap();
    let mut history = History::default();
    search_position(
        &pos,
        &limits,
        &SearchOptions::default(),
        &tt,
        &mut history,
        &mut |_| {},
    )
}

#[test]
fn finds_mate_in_three() {
    // 1. Qxh7+ Kxh7 2. Rh3+ Kg8 3. Rh8# (a classic Greek-gift pattern).
    let r = search(
        "r1bq1rk1/pppn1ppp/4p3/3pP3/1b1P3Q/2NB1R2/PPP2PPP/R1B1K1N1 w Q - 0 1",
        Limits::depth(8),
    );
    assert_eq!(r.best.map(|m| m.to().to_string()), Some("h7".to_string()));
    assert!(
        mate_in(r.score).is_some_and(|n| n > 0 && n <= 4),
        "score {}",
        r.score
    );
}

#[test]
fn sees_its_own_mate_coming() {
    let r = search("8/8/8/8/8/1k6/2q4P/K7 w - - 0 1", Limits::depth(6));
    assert_eq!(mate_in(r.score), Some(-1));
}

#[test]
fn avoids_stalemating_when_winning() {
    // Qg6 would stalemate; any sensible move keeps the win.
    let r = search("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1", Limits::depth(8));
    assert!(r.score > 500, "score {}", r.score);
    let pos = Position::from_fen("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1").unwrap();
    let mut after = pos.clone();
    after.play(r.best.unwrap());
    use shakmaty::Position as _;
    assert!(!after.board().is_stalemate());
}

#[test]
fn node_limit_is_obeyed() {
    let r = search(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        Limits {
            nodes: Some(10_000),
            ..Limits::default()
        },
    );
    assert!(r.nodes <= 10_000 + 1, "{} nodes", r.nodes);
    assert!(r.best.is_some());
}

#[test]
fn win_at_chess_slice() {
    let text = std::fs::read_to_string(common::shared_dir().join("suites/wac.epd")).unwrap();
    let (cases, errors) = epd::parse_suite(&text);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(cases.len(), 300);
    let mut tt = TranspositionTable::new(16).unwrap();
    let slice = &cases[..30];
    let mut solved = 0;
    for case in slice {
        tt.clear();
        let limits = Limits {
            nodes: Some(300_000),
            ..Limits::default()
        };
        let (ok, _) = epd::solve_with(case, &limits, &tt, &mut [History::default()]);
        solved += usize::from(ok);
    }
    assert!(solved >= 25, "solved {solved}/30 at 300k nodes");
}

/// The mistakes set (`uci-scripts/blunder_scan.py`) must stay readable by
/// `kestrel epd`, and every case must name a move to find and the one to
/// avoid, both legal.
#[test]
fn sf2850_mistakes_set_parses() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/sf2850-mistakes.epd"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let (cases, errors) = epd::parse_suite(&text);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(cases.len(), 112);
    for case in &cases {
        assert!(!case.best.is_empty() && case.avoid.len() == 1);
        assert!(case.best.iter().all(|m| !case.avoid.contains(m)));
    }
}

fn bench_signature(depth: &str) -> (u64, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kestrel"))
        .args(["bench", depth])
        .output()
        .expect("bench runs");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let last = text.lines().last().unwrap().to_string();
    let fields: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(fields.len(), 4, "{last}");
    assert_eq!((fields[1], fields[3]), ("nodes", "nps"), "{last}");
    (fields[0].parse().unwrap(), last)
}

/// Wrong-coloured bishop and rook pawn: the defending king reaches or holds
/// the corner, so the search, without tablebases, must score a draw. Before
/// the fixes these searches scored -268 and -1194: delta pruning in
/// quiescence skipped the king's capture of a promoted piece (which leaves
/// too little to win), late-move pruning dropped the king's corner moves,
/// and correction history moved the evaluation's draw.
#[test]
fn wrong_bishop_fortress_is_a_draw_in_the_search() {
    for (fen, depth) in [
        ("B7/4k3/8/8/4K2P/8/8/8 b - - 0 75", 18),
        ("6k1/8/7P/8/4B3/4K3/8/8 b - - 0 80", 14),
        ("8/4kp2/8/2K5/8/3B3P/8/8 b - - 0 58", 18),
    ] {
        let r = search(fen, Limits::depth(depth));
        assert!(r.score.abs() <= 1, "{fen}: score {}", r.score);
    }
}

#[test]
fn bench_is_deterministic() {
    let (a, _) = bench_signature("7");
    let (b, _) = bench_signature("7");
    assert!(a > 10_000);
    assert_eq!(a, b);
}
