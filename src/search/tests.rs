use super::*;
use shakmaty::CastlingMode;

fn run(pos: &Position, limits: Limits, options: &SearchOptions) -> (SearchResult, Vec<Report>) {
    let tt = TranspositionTable::new(8).unwrap();
    let mut history = History::default();
    let mut reports = Vec::new();
    let result = search_position(pos, &limits, options, &tt, &mut history, &mut |e| {
        if let SearchEvent::Iteration(r) = e {
            reports.push(r.clone());
        }
    });
    (result, reports)
}

fn play(pos: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = pos.parse_move(m, CastlingMode::Standard).unwrap();
        pos.play(mv);
    }
}

/// Kiwipete (many tactics, many legal moves) searched with MultiPV 3.
fn kiwipete_with_three_lines() -> (Position, SearchOptions) {
    let pos =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let options = SearchOptions {
        multipv: 3,
        ..SearchOptions::default()
    };
    (pos, options)
}

#[test]
fn mate_scores_convert_to_moves() {
    assert_eq!(mate_in(MATE - 1), Some(1));
    assert_eq!(mate_in(MATE - 3), Some(2));
    assert_eq!(mate_in(-MATE + 2), Some(-1));
    assert_eq!(mate_in(150), None);
}

#[test]
fn movetime_is_spent_in_full() {
    let limits = Limits {
        movetime: Some(300),
        ..Limits::default()
    };
    let options = SearchOptions {
        move_overhead_ms: 0,
        ..SearchOptions::default()
    };
    let start = std::time::Instant::now();
    let (result, _) = run(&Position::startpos(), limits, &options);
    let elapsed = start.elapsed().as_millis();
    assert!(result.best.is_some());
    // Iterations that would have been skipped by a soft stop are started;
    // the start position holds no mate to end the search early.
    assert!(elapsed >= 290, "stopped after {elapsed} ms of 300");
}

#[test]
fn every_reported_pv_is_legal() {
    let (pos, options) = kiwipete_with_three_lines();
    let (_, reports) = run(&pos, Limits::depth(7), &options);
    assert!(reports.len() >= 7 * 3);
    for r in &reports {
        let mut board = pos.board().clone();
        for m in &r.pv {
            assert!(
                board.is_legal(*m),
                "illegal {m:?} in pv of depth {}",
                r.depth
            );
            board.play_unchecked(*m);
        }
    }
    let last: Vec<&Report> = reports
        .iter()
        .filter(|r| r.depth == 7 && r.bound == Bound::Exact)
        .collect();
    assert_eq!(last.len(), 3);
    assert_ne!(last[0].pv[0], last[1].pv[0]);
    assert_ne!(last[1].pv[0], last[2].pv[0]);
    assert!(last[0].score >= last[1].score && last[1].score >= last[2].score);
}

#[test]
fn threefold_repetition_is_scored_as_a_draw() {
    let mut pos = Position::startpos();
    play(&mut pos, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    // f6g8 brings the start position about a third time.
    let back = pos.parse_move("f6g8", CastlingMode::Standard).unwrap();
    let limits = Limits {
        depth: Some(5),
        searchmoves: vec![back],
        ..Limits::default()
    };
    let (result, _) = run(&pos, limits, &SearchOptions::default());
    // Draws in the search are scored a centipawn either side of zero.
    assert!((result.score - DRAW).abs() <= 1, "{}", result.score);
    // Without the history the same move is an ordinary developing retreat.
    let fresh = Position::from_fen(&pos.fen()).unwrap();
    let limits = Limits {
        depth: Some(5),
        searchmoves: vec![back],
        ..Limits::default()
    };
    let (result, _) = run(&fresh, limits, &SearchOptions::default());
    assert!((result.score - DRAW).abs() > 1, "{}", result.score);
}

#[test]
fn searchmoves_restrict_the_root() {
    let pos = Position::startpos();
    let only = pos.parse_move("a2a3", CastlingMode::Standard).unwrap();
    let limits = Limits {
        depth: Some(5),
        searchmoves: vec![only],
        ..Limits::default()
    };
    let (result, reports) = run(&pos, limits, &SearchOptions::default());
    assert_eq!(result.best, Some(only));
    assert!(reports.iter().all(|r| r.pv[0] == only));
}

#[test]
fn draw_by_fifty_move_rule_is_seen() {
    // White is a rook up but the next capture-free move ends the game.
    let pos = Position::from_fen("8/8/4k3/8/8/3K4/3R4/8 w - - 99 120").unwrap();
    let (result, _) = run(&pos, Limits::depth(6), &SearchOptions::default());
    assert!((result.score - DRAW).abs() <= 1, "{}", result.score);
}

#[test]
fn stopped_search_plays_the_move_it_reported_last() {
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9",
        "2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - - 0 22",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];
    let mut partial = 0;
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        for nodes in [3_000u64, 7_000, 15_000, 31_000, 63_000, 127_000] {
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let (result, reports) = run(&pos, limits, &SearchOptions::default());
            let last = reports.last().expect("a line was reported");
            assert_eq!(result.best, last.pv.first().copied(), "{fen} {nodes}");
            assert_ne!(last.bound, Bound::Upper, "{fen} {nodes}");
            if last.bound == Bound::Lower {
                partial += 1;
            }
        }
    }
    // Some of these searches stop inside an iteration that had already
    // found its move, and play it.
    assert!(partial > 0);
}

#[test]
fn stopped_multipv_search_keeps_its_finished_first_line() {
    let (pos, options) = kiwipete_with_three_lines();
    let mut stopped_after_first_line = 0;
    for nodes in (1..=40u64).map(|i| i * 2_500) {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let (result, reports) = run(&pos, limits, &options);
        let Some(depth) = reports
            .iter()
            .filter(|r| r.multipv >= 2)
            .map(|r| r.depth)
            .max()
        else {
            continue;
        };
        // A second line is only searched once the first has finished, so
        // that depth counts as done and its first line is exact.
        assert!(result.depth >= depth, "{nodes}: {} < {depth}", result.depth);
        let first = reports
            .iter()
            .rev()
            .find(|r| r.multipv == 1 && r.depth == depth)
            .expect("first line of that depth");
        assert_eq!(first.bound, Bound::Exact, "{nodes}");
        let exact_lines = reports
            .iter()
            .filter(|r| r.depth == depth && r.bound == Bound::Exact)
            .count();
        if depth == reports.last().unwrap().depth && exact_lines < 3 {
            stopped_after_first_line += 1;
        }
    }
    // Some of these searches stop after the first line of their last depth.
    assert!(stopped_after_first_line > 0);
}

/// The nodes a search of at most `limit` nodes spent before `key` became
/// its best move for good, or `None` if `key` is not the move it plays.
fn nodes_to_find(fen: &str, key: &str, limit: u64) -> Option<u64> {
    let pos = Position::from_fen(fen).unwrap();
    let limits = Limits {
        nodes: Some(limit),
        ..Limits::default()
    };
    let (result, reports) = run(&pos, limits, &SearchOptions::default());
    let is_key = |m: &Move| m.to_uci(CastlingMode::Standard).to_string() == key;
    if !result.best.as_ref().is_some_and(is_key) {
        return None;
    }
    let settled = reports
        .iter()
        .rposition(|r| !r.pv.first().is_some_and(is_key))
        .map_or(0, |i| i + 1);
    // Played without a report naming it: the search took all it had.
    Some(reports.get(settled).map_or(limit, |r| r.nodes))
}

#[test]
fn sacrifices_at_the_root_are_found() {
    // Win At Chess 145 (Re8, the rook offered to deflect the queen) and 222
    // (Bf6, the bishop offered to open the king) are quiet moves that put a
    // piece en prise; 055 (the queen sacrifice Qxg7+, mate in 4) and 218
    // (Bh6) are checks. Reduced at the root like any late move, Re8 was not
    // found in 5 M nodes and Qxg7+ took 4.4 M (a6e67ea with the root's
    // exemption switched off); searched in full, the four took 0.84 M in
    // all (68 k, 224 k, 512 k and 34 k).
    //
    // The budget is shared because one position's count swings two- to
    // fourfold with any change to the tree (a search change that found
    // Qxg7+ four times sooner found Bf6 twice as late), while losing the
    // exemption costs several times the budget.
    let cases = [
        (
            "r1bq4/1p4kp/3p1n2/p4pB1/2pQ4/8/1P4PP/4RRK1 w - - 0 1",
            "e1e8",
        ),
        (
            "2r1r2k/1q3ppp/p2Rp3/2p1P3/6QB/p3P3/bP3PPP/3R2K1 w - - 0 1",
            "h4f6",
        ),
        (
            "r3r1k1/pp1q1pp1/4b1p1/3p2B1/3Q1R2/8/PPP3PP/4R1K1 w - - 0 1",
            "d4g7",
        ),
        ("6k1/pp5p/2p3q1/6BP/2nPr1Q1/8/PP3R1K/8 w - - 0 1", "g5h6"),
    ];
    let found: Vec<_> = cases
        .iter()
        .map(|&(fen, key)| (key, nodes_to_find(fen, key, 1_500_000)))
        .collect();
    let total: Option<u64> = found.iter().map(|&(_, n)| n).sum();
    assert!(
        total.is_some_and(|t| t <= 2_500_000),
        "nodes to find each sacrifice: {found:?}"
    );
}

#[test]
fn a_hanging_piece_is_not_given_up_for_want_of_searching_its_escape() {
    // Rook against bishop, a draw: Rd7 attacks the loose bishop, which has
    // seven squares to go to. Late-move pruning once tried only the king's
    // moves at shallow nodes and scored the bishop as lost (about +8.7
    // from depth 2, and again from depth 14).
    let pos = Position::from_fen("3r4/B7/8/8/8/5k2/7K/8 b - - 11 106").unwrap();
    let (_, reports) = run(&pos, Limits::depth(16), &SearchOptions::default());
    for r in reports.iter().filter(|r| r.bound == Bound::Exact) {
        assert!(r.score < 200, "depth {}: {}", r.depth, r.score);
    }
}
