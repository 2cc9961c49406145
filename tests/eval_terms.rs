//! Evaluation checks: colour and mirror symmetry over the opening book,
//! known draws, the sign of each term on small hand-made positions, and
//! basic mates (KQK, KRK, KBNK) won by the engine's own search.

mod common;

use common::shared_dir;
use kestrel::eval::layout::*;
use kestrel::eval::{Trace, breakdown, evaluate, trace};
use kestrel::position::Position;
use kestrel::search::{History, Limits, SearchOptions, search_position};
use kestrel::tt::TranspositionTable;
use shakmaty::{Color, Position as _};

fn book() -> Vec<String> {
    let path = shared_dir().join("books/8mvs_+90_+99.epd");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().take(4).collect();
            (f.len() == 4).then(|| format!("{} 0 1", f.join(" ")))
        })
        .collect()
}

/// Files a..h reversed; castling rights dropped.
fn mirror_fen(fen: &str) -> String {
    let p: Vec<&str> = fen.split_whitespace().collect();
    let board: Vec<String> = p[0]
        .split('/')
        .map(|rank| rank.chars().rev().collect())
        .collect();
    let ep = if p[3] == "-" {
        "-".to_string()
    } else {
        let b = p[3].as_bytes();
        format!("{}{}", (b'h' - (b[0] - b'a')) as char, b[1] as char)
    };
    format!("{} {} - {ep} 0 1", board.join("/"), p[1])
}

fn eval_fen(fen: &str) -> i32 {
    evaluate(Position::from_fen(fen).unwrap().board())
}

fn white_eval(fen: &str) -> i32 {
    breakdown(Position::from_fen(fen).unwrap().board()).white_score
}

fn term(fen: &str, name: &str) -> (i32, i32) {
    let b = breakdown(Position::from_fen(fen).unwrap().board());
    let s = b
        .terms
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no term {name}"))
        .1;
    (s.mg(), s.eg())
}

/// White-minus-black use count of weight `index`.
fn coef(fen: &str, index: usize) -> f32 {
    let mut t = Trace::default();
    trace(Position::from_fen(fen).unwrap().board(), &mut t);
    t.coefs[index]
}

#[test]
fn colour_symmetry_on_the_book() {
    let fens = book();
    assert!(fens.len() > 1000);
    for fen in &fens {
        let f = Position::from_fen(fen).unwrap().colour_flipped().unwrap();
        assert_eq!(eval_fen(fen), evaluate(f.board()), "{fen} vs {}", f.fen());
    }
}

#[test]
fn mirror_symmetry_without_castling_rights() {
    let fens = book();
    let mut checked = 0;
    for fen in &fens {
        let plain: Vec<&str> = fen.split_whitespace().collect();
        let no_castle = format!("{} {} - {} 0 1", plain[0], plain[1], plain[3]);
        let m = mirror_fen(&no_castle);
        assert_eq!(eval_fen(&no_castle), eval_fen(&m), "{no_castle} vs {m}");
        checked += 1;
    }
    assert!(checked > 1000);
}

#[test]
fn trace_reproduces_the_evaluation() {
    for fen in book().iter().take(300) {
        let pos = Position::from_fen(fen).unwrap();
        let mut t = Trace::default();
        let info = trace(pos.board(), &mut t);
        let w = kestrel::eval::params::WEIGHTS;
        let (mut mg, mut eg) = (0.0f64, 0.0f64);
        for (i, c) in t.coefs.iter().enumerate() {
            mg += w[i].mg() as f64 * *c as f64;
            eg += w[i].eg() as f64 * *c as f64;
        }
        assert!(!info.special);
        let rho = info.phase as f64 / 24.0;
        let model = (mg * rho + eg * (1.0 - rho)) * info.scale as f64 / 64.0;
        assert!(
            (model - info.white_score as f64).abs() <= 3.0,
            "{fen}: model {model} eval {}",
            info.white_score
        );
    }
}

#[test]
fn known_draws_are_near_zero() {
    for fen in [
        "8/8/4k3/8/8/8/4K3/8 w - - 0 1",      // KK
        "8/8/4k3/8/8/2B5/4K3/8 w - - 0 1",    // KBK
        "8/8/4k3/8/8/2N5/4K3/8 b - - 0 1",    // KNK
        "8/8/4k3/8/2N5/8/3NK3/8 w - - 0 1",   // KNNK
        "8/8/4k3/3b4/8/2B5/4K3/8 w - - 0 1",  // KBKB
        "8/8/4k3/3n4/8/2B5/4K3/8 w - - 0 1",  // KBKN
        "8/3r4/4k3/8/8/2R5/4K3/8 w - - 0 1",  // KRKR
        "8/3r4/4k3/8/8/2RB4/4K3/8 w - - 0 1", // KRBKR
    ] {
        let s = eval_fen(fen);
        assert!(s.abs() <= 60, "{fen}: {s}");
    }
    // Opposite-coloured bishops with an extra pawn are scaled down (to half
    // with no other pieces), the same position with same-coloured bishops
    // is not, and the extra pawn still counts for something.
    let ocb_fen = "8/5k2/3b4/8/3P4/3B4/4K3/8 w - - 0 1";
    let same_fen = "8/5k2/3b4/8/3P4/2B5/4K3/8 w - - 0 1";
    let (ocb, same) = (white_eval(ocb_fen), white_eval(same_fen));
    assert!(ocb > 0 && ocb < same, "ocb {ocb} same colour {same}");
    let scale = |fen: &str| breakdown(Position::from_fen(fen).unwrap().board()).scale;
    assert_eq!(scale(ocb_fen), 32);
    assert_eq!(scale(same_fen), 64);
}

#[test]
fn wrong_bishop_with_rook_pawns_is_a_draw_once_the_king_holds_the_corner() {
    // h8 is dark: a light-squared bishop can never drive the king out.
    let wrong = "7k/8/7P/8/8/8/2B5/K7 w - - 0 1";
    let right = "7k/8/7P/8/8/8/3B4/K7 w - - 0 1";
    let far = "8/8/7P/8/8/2k5/2B5/K7 w - - 0 1";
    assert_eq!(eval_fen(wrong), 0);
    let (right, far) = (white_eval(right), white_eval(far));
    assert!(right > 150, "right bishop {right}");
    assert!(far > 150, "king away {far}");
    // The same for Black, and with two pawns on the rook file.
    assert_eq!(eval_fen("k7/1b6/8/8/p7/p7/8/1K6 b - - 0 1"), 0);
    // With no bishop at all (KPK with a rook pawn) the corner holds too,
    // and not while the king is still away from it.
    assert_eq!(eval_fen("6k1/8/5K2/8/7P/8/8/8 b - - 0 1"), 0);
    assert!(white_eval("8/8/4k3/8/7P/5K2/8/8 w - - 0 1") > 100);
}

#[test]
fn term_signs_on_small_positions() {
    // Material and a passed pawn, seen from both sides.
    assert!(white_eval("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1") > 50);
    assert!(white_eval("4k3/4p3/8/8/8/8/8/4K3 w - - 0 1") < -50);
    let passer = "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1";
    assert_eq!(coef(passer, PASSED + 4), 1.0);
    assert!(term(passer, "passed pawns").1 > 0);
    // A passer further up is worth more, with both kings far away (next
    // to the enemy king, one that has come closer is rightly worth less).
    let near = "7k/8/8/3P4/8/8/8/7K w - - 0 1";
    let far = "7k/8/3P4/8/8/8/8/7K w - - 0 1";
    assert!(term(far, "passed pawns").1 > term(near, "passed pawns").1);
    // Doubled and isolated pawns hurt.
    let bad = "4k3/pp6/8/8/8/2P5/2P5/4K3 w - - 0 1";
    assert_eq!(coef(bad, DOUBLED), 1.0);
    assert_eq!(coef(bad, ISOLATED), 2.0);
    let (mg, eg) = term(bad, "pawn structure");
    assert!(mg < 0 && eg < 0, "{mg} {eg}");
    // Backward pawn: d2 behind c3/e3, d3 attacked by a black pawn on c4... (e4).
    let back = "4k3/8/8/8/4p3/2P5/3P4/4K3 w - - 0 1";
    assert_eq!(coef(back, BACKWARD), 1.0);
    // Supported and phalanx pawns.
    assert_eq!(coef("4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1", PHALANX + 3), 2.0);
    assert_eq!(
        coef("4k3/8/8/8/4P3/3P4/8/4K3 w - - 0 1", SUPPORTED + 3),
        1.0
    );
    // Bishop pair.
    let pair = "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1";
    assert_eq!(coef(pair, BISHOP_PAIR), 1.0);
    // Rook on an open file and on the seventh.
    let rook = "4k3/pp3ppp/8/8/8/8/PP3PPP/3RK3 w - - 0 1";
    assert_eq!(coef(rook, ROOK_OPEN), 1.0);
    assert!(term(rook, "pieces").0 > 0);
    let seventh = "6k1/R4ppp/8/8/8/8/5PPP/6K1 w - - 0 1";
    assert_eq!(coef(seventh, ROOK_SEVENTH), 1.0);
    // Knight outpost on d5, defended by e4, no black c/e pawns to chase it.
    let outpost = "4k3/pp4pp/8/3N4/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(coef(outpost, KNIGHT_OUTPOST), 1.0);
    // A light-squared bishop with two of its own pawns on light squares
    // (c4 and e2) and one on a dark square (d4).
    let bad_bishop = "4k3/8/8/8/2PP4/8/4P3/4KB2 w - - 0 1";
    assert_eq!(coef(bad_bishop, BISHOP_PAWNS), 2.0);
    // A knight on e3 behind the e4 pawn, and Black's bishop on d6 behind
    // the d5 pawn, against a knight with nothing in front.
    let behind = "4k3/8/3b4/3p4/4P3/4N3/8/4K1N1 w - - 0 1";
    assert_eq!(coef(behind, MINOR_BEHIND_PAWN), 0.0);
    let behind_white = "4k3/8/8/8/4P3/4N3/8/4K1N1 w - - 0 1";
    assert_eq!(coef(behind_white, MINOR_BEHIND_PAWN), 1.0);
    // Threats: a pawn attacking a knight.
    let threat = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(coef(threat, THREAT_BY_PAWN), 1.0);
    assert!(term(threat, "threats").0 > 0);
    // A knight attacking a rook, a rook attacking an undefended pawn.
    let minor = "4k3/8/8/3r4/8/4N3/8/4K3 w - - 0 1";
    assert_eq!(coef(minor, THREAT_BY_MINOR + 3), 1.0);
    let rook_on_pawn = "4k3/8/8/8/p7/8/8/R3K3 w - - 0 1";
    assert_eq!(coef(rook_on_pawn, THREAT_BY_ROOK), 1.0);
    assert_eq!(coef(rook_on_pawn, HANGING), 1.0);
    // A pawn defended by a pawn is no target for a rook.
    let defended = "4k3/8/8/1p6/p7/8/8/R3K3 w - - 0 1";
    assert_eq!(coef(defended, THREAT_BY_ROOK), 0.0);
    // The king next to an undefended knight.
    let king = "4k3/8/8/8/8/8/3n4/4K3 w - - 0 1";
    assert_eq!(coef(king, THREAT_BY_KING), 1.0);
    // d4-d5 would attack the knight on c6 (and e6 holds nothing).
    let push = "4k3/8/2n5/8/3P4/8/8/4K3 w - - 0 1";
    assert_eq!(coef(push, PAWN_PUSH_THREAT), 1.0);
    // ...but not when an enemy pawn guards d5.
    let guarded = "4k3/8/2n1p3/8/3P4/8/8/4K3 w - - 0 1";
    assert_eq!(coef(guarded, PAWN_PUSH_THREAT), 0.0);
    // A passer on d5 whose stop square no black piece attacks.
    assert_eq!(coef(passer, PASSED_SAFE_STOP + 4), 1.0);
    let watched = "4k3/8/8/1n1P4/8/8/8/4K3 w - - 0 1";
    assert_eq!(coef(watched, PASSED_SAFE_STOP + 4), 0.0);
    // A knight four files from its king, a bishop two away.
    let protectors = "4k3/8/8/8/8/8/2B5/N3K3 w - - 0 1";
    assert_eq!(coef(protectors, KING_PROTECTOR), 4.0);
    assert_eq!(coef(protectors, KING_PROTECTOR + 1), 2.0);
    // Space: the start position is even. With pawns on d4 and e4 White
    // has 10 safe squares plus 4 behind them; Black has 12 less the 4 that
    // those pawns attack.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(coef(start, SPACE), 0.0);
    let space = "4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1";
    assert_eq!(coef(space, SPACE), 14.0 - 8.0);
    // Own pawns counted per knight and per rook.
    let imbalance = "4k3/8/8/8/8/8/PPP5/RN2K3 w - - 0 1";
    assert_eq!(coef(imbalance, KNIGHT_PAWNS), 3.0);
    assert_eq!(coef(imbalance, ROOK_PAWNS), 3.0);
    // A bishop on b2 sees d4 and e5 through the empty board, not one
    // behind a pawn on c3.
    assert_eq!(coef("4k3/8/8/8/8/8/1B6/4K3 w - - 0 1", LONG_DIAGONAL), 1.0);
    assert_eq!(
        coef("4k3/8/8/8/8/2P5/1B6/4K3 w - - 0 1", LONG_DIAGONAL),
        0.0
    );
    // The isolated pawn on the half-open c-file is weak; the isolated
    // pawn on the h-file facing a black pawn is not.
    let unopposed = "4k3/7p/8/8/8/2P5/7P/4K3 w - - 0 1";
    assert_eq!(coef(unopposed, WEAK_UNOPPOSED), 1.0);
    // A rook behind its passed pawn.
    assert_eq!(
        coef("4k3/8/8/3P4/8/8/8/3RK3 w - - 0 1", ROOK_BEHIND_PASSER),
        1.0
    );
    // Mobility: a free rook beats a buried one.
    let free = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    let buried = "4k3/8/8/8/8/8/PP6/RN2K3 w - - 0 1";
    assert!(term(free, "mobility").0 > term(buried, "mobility").0);
    // King safety: an open, attacked king is worse off than a sheltered one.
    let sheltered = "r5k1/5ppp/8/8/8/8/5PPP/3Q2K1 b - - 0 1";
    let exposed = "r5k1/8/8/8/8/8/5PPP/3Q2K1 b - - 0 1";
    // Only White keeps a shield in `exposed`.
    assert!(coef(exposed, SHIELD) > coef(sheltered, SHIELD));
    assert!(term(exposed, "king safety").0 > term(sheltered, "king safety").0);
    let attack = "6k1/5ppp/8/6N1/8/8/5PPP/3Q1RK1 w - - 0 1";
    let danger: f32 = (0..KING_DANGER_KNOTS)
        .map(|k| coef(attack, KING_DANGER + k))
        .sum();
    let attack = danger + coef(attack, SAFE_CHECK + 3);
    assert!(attack > 0.0, "{attack}");
    // Tempo: the side to move gets it.
    assert_eq!(coef("4k3/8/8/8/8/8/8/4K3 w - - 0 1", TEMPO), 1.0);
    assert_eq!(coef("4k3/8/8/8/8/8/8/4K3 b - - 0 1", TEMPO), -1.0);
    // Winnability goes to the side ahead: a pawn up with pawns on both
    // wings is easier to convert than a pawn up on one wing only.
    let both_wings = "6k1/pp3ppp/8/8/8/8/PP2PPPP/6K1 w - - 0 1";
    let one_wing = "6k1/5ppp/8/8/8/8/4PPPP/6K1 w - - 0 1";
    assert_eq!(coef(both_wings, COMPLEXITY + 4), 1.0);
    assert_eq!(coef(one_wing, COMPLEXITY + 4), 0.0);
    assert!(term(both_wings, "winnability").1 > term(one_wing, "winnability").1);
    // For Black ahead the same features count for Black.
    assert_eq!(
        coef("6k1/pp2pppp/8/8/8/8/PP3PPP/6K1 w - - 0 1", COMPLEXITY + 4),
        -1.0
    );
    // A knight pinned to its king by a rook counts for the pinning side,
    // and only while the king stands behind it.
    assert_eq!(coef("4k3/8/8/8/4n3/8/8/4R1K1 w - - 0 1", PIN + 1), 1.0);
    assert_eq!(coef("3k4/8/8/8/4n3/8/8/4R1K1 w - - 0 1", PIN + 1), 0.0);
    // The queen on h5 hits f7 and h7, which only Black's king defends.
    assert!(coef("6k1/5pp1/8/7Q/8/8/8/6K1 w - - 0 1", KING_ZONE_WEAK) >= 2.0);
    // e5 is stopped by e6 on White's fifth rank; e6 is on Black's third.
    assert_eq!(coef("4k3/8/4p3/4P3/8/8/8/4K3 w - - 0 1", BLOCKED_PAWN), 1.0);
    // White's king on g1 has no pawns on files f to h; Black's on b8 has.
    assert_eq!(
        coef("1k6/8/8/8/8/8/PPP5/6K1 w - - 0 1", PAWNLESS_FLANK),
        1.0
    );
    // Nc3 can jump to d5, which e4 defends and no black pawn can attack.
    assert_eq!(
        coef("4k3/8/8/8/4P3/2N5/8/4K3 w - - 0 1", REACHABLE_OUTPOST),
        1.0
    );
    // Nb1 and Bf1 each reach a safe square from which they hit the queen.
    let queen = "4k3/8/8/3q4/8/8/8/1N2KB2 w - - 0 1";
    assert!(coef(queen, KNIGHT_ON_QUEEN) >= 1.0);
    assert!(coef(queen, SLIDER_ON_QUEEN) >= 1.0);
}

#[test]
fn bare_king_is_driven_to_the_edge() {
    let centre = white_eval("8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
    let edge = white_eval("7k/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert!(edge > centre, "edge {edge} centre {centre}");
    // KBNK: the right corner (dark bishop: a1/h8) is better than the wrong one.
    let right = white_eval("7k/8/8/8/8/8/8/2B1KN2 w - - 0 1");
    let wrong = white_eval("k7/8/8/8/8/8/8/2B1KN2 w - - 0 1");
    assert!(right > wrong, "right {right} wrong {wrong}");
}

/// Plays from `fen` with the engine on both sides and returns the number
/// of moves (by the strong side) it took to mate, if it did within 50.
fn play_out(fen: &str, strong_nodes: u64, weak_nodes: u64) -> Option<u32> {
    let mut pos = Position::from_fen(fen).unwrap();
    let strong = pos.board().turn();
    let tt = TranspositionTable::new(16).unwrap();
    let mut history = History::default();
    let options = SearchOptions::default();
    for ply in 0..100u32 {
        let board = pos.board();
        if board.is_checkmate() {
            assert_ne!(board.turn(), strong, "{fen}: the strong side got mated");
            return Some(ply.div_ceil(2));
        }
        if board.is_stalemate() || board.is_insufficient_material() {
            return None;
        }
        let nodes = if board.turn() == strong {
            strong_nodes
        } else {
            weak_nodes
        };
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let r = search_position(&pos, &limits, &options, &tt, &mut history, &mut |_| {});
        pos.play(r.best?);
    }
    pos.board().is_checkmate().then_some(50)
}

#[test]
fn basic_mates_are_won_within_fifty_moves() {
    let cases = [
        ("KQK", "8/8/8/4k3/8/8/8/3QK3 w - - 0 1"),
        ("KQK", "8/8/2k5/8/8/5K2/8/7Q w - - 0 1"),
        ("KRK", "8/8/8/3k4/8/8/8/R3K3 w - - 0 1"),
        ("KRK", "8/8/8/8/4k3/8/8/5K1R w - - 0 1"),
        ("KRK", "8/2k5/8/8/8/8/8/R5K1 b - - 0 1"),
        ("KBNK", "8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1"),
        ("KBNK", "8/8/3k4/8/8/8/8/1N2KB2 w - - 0 1"),
        ("KBNK", "7k/8/8/8/8/8/8/4KBN1 w - - 0 1"),
        ("KBNK", "k7/8/8/8/8/8/8/2B1KN2 w - - 0 1"),
        ("KBNK", "8/8/8/8/3k4/8/8/KBN5 w - - 0 1"),
        ("KBNK", "4k3/8/8/8/8/8/8/B3K1N1 w - - 0 1"),
        ("KBNK", "8/8/8/2k5/8/8/8/4KNB1 b - - 0 1"),
        ("KBNK", "8/7k/8/8/8/8/N7/B3K3 w - - 0 1"),
    ];
    for (name, fen) in cases {
        let pos = Position::from_fen(fen).unwrap();
        // With Black to move, Black plays first and White is the strong side.
        let fen_for_strong = if pos.board().turn() == Color::Black {
            let mut p = pos.clone();
            let m = pos.board().legal_moves()[0];
            p.play(m);
            p.fen()
        } else {
            fen.to_string()
        };
        let moves = play_out(&fen_for_strong, 40_000, 5_000);
        assert!(moves.is_some(), "{name} {fen}: not mated within 50 moves");
    }
}
