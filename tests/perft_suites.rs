//! Perft against the shared suites: every position of standard.epd and all
//! 960 Chess960 starts of fischer.epd. The quick tests stop at a node budget
//! per position that keeps `cargo test` near a minute; the `#[ignore]`d ones
//! go to the deepest depth each line lists.

mod common;

use kestrel::position::Position;
use kestrel::tools::perft::{PerftCase, parse_suite, perft};

fn load(name: &str) -> Vec<PerftCase> {
    let path = common::shared_dir().join("perft").join(name);
    let text = std::fs::read_to_string(&path).expect("perft suite readable");
    let cases = parse_suite(&text);
    assert!(!cases.is_empty(), "no cases in {}", path.display());
    cases
}

/// Checks each case at every listed depth whose expected count is at most
/// `max_nodes`; returns how many (position, depth) pairs were checked.
fn check(cases: &[PerftCase], max_nodes: u64) -> usize {
    let mut checked = 0;
    for case in cases {
        let pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{e}"));
        for &(depth, expected) in &case.expected {
            if expected > max_nodes {
                continue;
            }
            assert_eq!(
                perft(pos.board(), depth),
                expected,
                "{} depth {depth}",
                case.fen
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn standard_suite_quick() {
    let cases = load("standard.epd");
    assert!(cases.len() >= 127, "{} cases", cases.len());
    let checked = check(&cases, 50_000_000);
    assert!(checked >= 127 * 3, "only {checked} checks");
}

#[test]
fn chess960_suite_quick() {
    let cases = load("fischer.epd");
    assert_eq!(cases.len(), 960);
    let checked = check(&cases, 10_000_000);
    assert!(checked >= 960 * 4, "only {checked} checks");
}

#[test]
#[ignore = "full depth: several minutes"]
fn standard_suite_full() {
    check(&load("standard.epd"), u64::MAX);
}

#[test]
#[ignore = "full depth: tens of minutes"]
fn chess960_suite_full() {
    check(&load("fischer.epd"), u64::MAX);
}
