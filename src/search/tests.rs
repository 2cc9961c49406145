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

#[test]
fn mate_scores_convert_to_moves() {
    assert_eq!(mate_in(MATE - 1), Some(1));
    assert_eq!(mate_in(MATE - 3), Some(2));
    assert_eq!(mate_in(-MATE + 2), Some(-1));
    assert_eq!(mate_in(150), None);
}

#[test]
fn every_reported_pv_is_legal() {
    let pos =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let options = SearchOptions {
        multipv: 3,
        ..SearchOptions::default()
    };
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
    assert_eq!(result.score, DRAW);
    // Without the history the same move is an ordinary developing retreat.
    let fresh = Position::from_fen(&pos.fen()).unwrap();
    let limits = Limits {
        depth: Some(5),
        searchmoves: vec![back],
        ..Limits::default()
    };
    let (result, _) = run(&fresh, limits, &SearchOptions::default());
    assert_ne!(result.score, DRAW);
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
    assert_eq!(result.score, DRAW);
}
