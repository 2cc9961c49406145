//! Static evaluation: a tapered hand-crafted evaluation over shakmaty
//! bitboards. It knows nothing of search: one board in, one score out.

pub mod params;
pub mod score;

use params::*;
use score::S;
use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Chess, Color, Position, Role, Square};

/// Score from the side to move's point of view, in centipawns.
pub fn evaluate(board: &Chess) -> i32 {
    let white = Evaluation::new(board.board()).total();
    let tempo = TEMPO;
    match board.turn() {
        Color::White => white + tempo,
        Color::Black => -white + tempo,
    }
}

/// The named parts of an evaluation, for people reading `eval` output.
#[derive(Debug, Clone)]
pub struct Breakdown {
    /// (name, white-minus-black value) per term group.
    pub terms: Vec<(&'static str, S)>,
    pub phase: i32,
    /// Endgame scale in 1/64ths.
    pub scale: i32,
    /// Final score from White's side.
    pub white_score: i32,
}

pub fn breakdown(board: &Chess) -> Breakdown {
    let eval = Evaluation::new(board.board());
    Breakdown {
        terms: eval.terms.to_vec(),
        phase: eval.phase,
        scale: eval.scale,
        white_score: eval.total(),
    }
}

struct Evaluation {
    terms: [(&'static str, S); 7],
    phase: i32,
    scale: i32,
    mopup: i32,
}

/// Attack maps one side builds while its pieces are scored.
#[derive(Default)]
struct Attacks {
    all: Bitboard,
    pawns: Bitboard,
    king_zone_units: i32,
    king_zone_attackers: i32,
}

impl Evaluation {
    fn new(board: &Board) -> Self {
        let phase = game_phase(board);
        let mut att = [Attacks::default(), Attacks::default()];
        for color in Color::ALL {
            att[color as usize].pawns = pawn_attacks(board, color);
        }
        let material = side(board, Color::White, psqt) - side(board, Color::Black, psqt);
        let mut mobility = S::ZERO;
        for color in Color::ALL {
            let m = pieces_and_attacks(board, color, &mut att);
            mobility += if color == Color::White { m } else { -m };
        }
        let pawns =
            side(board, Color::White, pawn_structure) - side(board, Color::Black, pawn_structure);
        let passed =
            side(board, Color::White, passed_pawns) - side(board, Color::Black, passed_pawns);
        let placement =
            side(board, Color::White, piece_placement) - side(board, Color::Black, piece_placement);
        let king =
            king_safety(board, Color::White, &att[1]) - king_safety(board, Color::Black, &att[0]);
        let threats = threats(board, Color::White, &att) - threats(board, Color::Black, &att);
        let terms = [
            ("material+psqt", material),
            ("mobility", mobility),
            ("pawn structure", pawns),
            ("passed pawns", passed),
            ("pieces", placement),
            ("king safety", king),
            ("threats", threats),
        ];
        let sum = terms.iter().fold(S::ZERO, |acc, (_, s)| acc + *s);
        let scale = endgame_scale(board, sum.eg());
        let mopup = mop_up(board, sum.eg());
        Self {
            terms,
            phase,
            scale,
            mopup,
        }
    }

    fn total(&self) -> i32 {
        let sum = self.terms.iter().fold(S::ZERO, |acc, (_, s)| acc + *s);
        let tapered = (sum.mg() * self.phase + sum.eg() * (PHASE_TOTAL - self.phase)) / PHASE_TOTAL;
        (tapered + self.mopup) * self.scale / 64
    }
}

fn side(board: &Board, color: Color, term: fn(&Board, Color) -> S) -> S {
    term(board, color)
}

fn game_phase(board: &Board) -> i32 {
    let phase: i32 = Role::ALL
        .iter()
        .map(|&r| PHASE_WEIGHT[r as usize - 1] * board.by_role(r).count() as i32)
        .sum();
    phase.min(PHASE_TOTAL)
}

/// Square index seen from `color`'s side of the board.
fn relative(color: Color, sq: Square) -> Square {
    match color {
        Color::White => sq,
        Color::Black => sq.flip_vertical(),
    }
}

/// 0 on the rim up to 6 in the four centre squares.
fn centrality(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let fd = (2 * f - 7).abs() / 2;
    let rd = (2 * r - 7).abs() / 2;
    6 - fd - rd
}

fn square_value(role: Role, sq: Square) -> S {
    let c = centrality(sq) - 3;
    let rank = sq.rank() as usize;
    let file = sq.file() as i32;
    match role {
        Role::Pawn => {
            let centre = if (3..=4).contains(&file) && rank >= 3 {
                PAWN_CENTER_FILE
            } else {
                S::ZERO
            };
            PAWN_ADVANCE[rank] + centre
        }
        Role::Knight => KNIGHT_CENTRALITY * c,
        Role::Bishop => BISHOP_CENTRALITY * c,
        Role::Rook => {
            if rank == 6 {
                ROOK_SEVENTH
            } else {
                CENTRALITY * (if (2..=5).contains(&file) { 1 } else { 0 })
            }
        }
        Role::Queen => QUEEN_CENTRALITY * c,
        Role::King => {
            let back = if rank == 0 {
                KING_BACK_RANK
            } else {
                -KING_BACK_RANK * rank as i32
            };
            let corner = if (3..=4).contains(&file) {
                0
            } else {
                KING_CORNER
            };
            S(back + corner, KING_CENTRALITY_EG * c)
        }
    }
}

fn psqt(board: &Board, color: Color) -> S {
    let mut s = S::ZERO;
    for role in Role::ALL {
        for sq in board.by_role(role) & board.by_color(color) {
            s += MATERIAL[role as usize - 1] + square_value(role, relative(color, sq));
        }
    }
    s
}

fn pawn_attacks(board: &Board, color: Color) -> Bitboard {
    let pawns = board.pawns() & board.by_color(color);
    let mut att = Bitboard::EMPTY;
    for sq in pawns {
        att |= attacks::pawn_attacks(color, sq);
    }
    att
}

fn king_zone(board: &Board, color: Color) -> Bitboard {
    board
        .king_of(color)
        .map(|k| attacks::king_attacks(k).with(k))
        .unwrap_or(Bitboard::EMPTY)
}

/// Scores mobility for `color` and fills in its attack maps, including its
/// pressure on the enemy king zone.
fn pieces_and_attacks(board: &Board, color: Color, att: &mut [Attacks; 2]) -> S {
    let occ = board.occupied();
    let us = board.by_color(color);
    let safe = !us & !att[!color as usize].pawns;
    let enemy_zone = king_zone(board, !color);
    let mine = &mut att[color as usize];
    mine.all = mine.pawns;
    if let Some(k) = board.king_of(color) {
        mine.all |= attacks::king_attacks(k);
    }
    let mut s = S::ZERO;
    for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .enumerate()
    {
        for sq in board.by_role(role) & us {
            let a = match role {
                Role::Knight => attacks::knight_attacks(sq),
                Role::Bishop => attacks::bishop_attacks(sq, occ),
                Role::Rook => attacks::rook_attacks(sq, occ),
                _ => attacks::queen_attacks(sq, occ),
            };
            mine.all |= a;
            let (per_square, typical) = MOBILITY[i];
            s += per_square * ((a & safe).count() as i32 - typical);
            let zone_hits = (a & enemy_zone).count() as i32;
            if zone_hits > 0 {
                mine.king_zone_attackers += 1;
                mine.king_zone_units += KING_ATTACK_WEIGHT[i] * zone_hits;
            }
        }
    }
    s
}

fn forward_ranks(color: Color, sq: Square) -> Bitboard {
    let rank = sq.rank() as u32;
    match color {
        Color::White if rank < 7 => Bitboard(!0u64 << (8 * (rank + 1))),
        Color::Black if rank > 0 => Bitboard((1u64 << (8 * rank)) - 1),
        _ => Bitboard::EMPTY,
    }
}

fn file_bb(file: i32) -> Bitboard {
    if (0..8).contains(&file) {
        Bitboard(0x0101_0101_0101_0101u64 << file)
    } else {
        Bitboard::EMPTY
    }
}

fn adjacent_files(sq: Square) -> Bitboard {
    let f = sq.file() as i32;
    file_bb(f - 1) | file_bb(f + 1)
}

fn is_passed(board: &Board, color: Color, sq: Square) -> bool {
    let their_pawns = board.pawns() & board.by_color(!color);
    let span = forward_ranks(color, sq) & (adjacent_files(sq) | file_bb(sq.file() as i32));
    (their_pawns & span).is_empty()
}

fn pawn_structure(board: &Board, color: Color) -> S {
    let ours = board.pawns() & board.by_color(color);
    let mut s = S::ZERO;
    for sq in ours {
        let file = file_bb(sq.file() as i32);
        if (ours & file & forward_ranks(color, sq)).any() {
            s += DOUBLED_PAWN;
        }
        if (ours & adjacent_files(sq)).is_empty() {
            s += ISOLATED_PAWN;
        }
        let defenders = attacks::pawn_attacks(!color, sq) & ours;
        let phalanx = ours & adjacent_files(sq) & Bitboard::from_rank(sq.rank());
        if defenders.any() || phalanx.any() {
            s += CONNECTED_PAWN;
        }
    }
    s
}

fn passed_pawns(board: &Board, color: Color) -> S {
    let ours = board.pawns() & board.by_color(color);
    let (Some(our_king), Some(their_king)) = (board.king_of(color), board.king_of(!color)) else {
        return S::ZERO;
    };
    let mut s = S::ZERO;
    for sq in ours {
        if !is_passed(board, color, sq) {
            continue;
        }
        let rel_rank = relative(color, sq).rank() as usize;
        s += PASSED[rel_rank];
        let step = if color == Color::White { 8 } else { -8 };
        let Some(stop) = sq.offset(step) else {
            continue;
        };
        let weight = rel_rank.saturating_sub(2) as i32;
        let (theirs, own) = PASSED_KING_DISTANCE;
        let dist = theirs * their_king.distance(stop) as i32 - own * our_king.distance(stop) as i32;
        s += S(0, dist * weight);
        if !board.occupied().contains(stop) {
            s += PASSED_FREE_PATH * weight;
        }
    }
    s
}

fn piece_placement(board: &Board, color: Color) -> S {
    let us = board.by_color(color);
    let mut s = S::ZERO;
    if (board.bishops() & us).count() >= 2 {
        s += BISHOP_PAIR;
    }
    let our_pawns = board.pawns() & us;
    let their_pawns = board.pawns() & !us;
    for sq in board.rooks() & us {
        let file = file_bb(sq.file() as i32);
        if (file & our_pawns).is_empty() {
            s += if (file & their_pawns).is_empty() {
                ROOK_OPEN_FILE
            } else {
                ROOK_HALF_OPEN_FILE
            };
        }
    }
    s
}

/// King safety of `color`, given the attack maps of its opponent.
fn king_safety(board: &Board, color: Color, enemy: &Attacks) -> S {
    let Some(king) = board.king_of(color) else {
        return S::ZERO;
    };
    let mut units = enemy.king_zone_units;
    let queenless = (board.queens() & board.by_color(!color)).is_empty();
    if enemy.king_zone_attackers < 2 || queenless {
        units /= 2;
    }
    let mut mg = -(units * units / 4).min(600);
    let rel = relative(color, king);
    if rel.rank() as u32 <= 1 {
        let our_pawns = board.pawns() & board.by_color(color);
        let f = king.file() as i32;
        let shield_ranks = forward_ranks(color, king)
            & !forward_ranks(
                color,
                king.offset(if color == Color::White { 16 } else { -16 })
                    .unwrap_or(king),
            );
        let files = file_bb(f - 1) | file_bb(f) | file_bb(f + 1);
        let present = (our_pawns & files & shield_ranks).count() as i32;
        mg -= KING_SHIELD_MISSING * (3 - present).max(0);
        if (our_pawns & file_bb(f)).is_empty() {
            mg -= KING_OPEN_FILE;
        }
    }
    S(mg, 0)
}

fn threats(board: &Board, color: Color, att: &[Attacks; 2]) -> S {
    let us = board.by_color(color);
    let pieces = us & !board.pawns() & !board.kings();
    let mine = &att[color as usize];
    let theirs = &att[!color as usize];
    let by_pawns = (pieces & theirs.pawns).count() as i32;
    let hanging = (us & !board.kings() & theirs.all & !mine.all).count() as i32;
    -(PAWN_THREAT * by_pawns + HANGING * hanging)
}

fn non_pawn_material(board: &Board, color: Color) -> i32 {
    [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .iter()
        .map(|&r| {
            MATERIAL[r as usize - 1].eg()
                * (board.by_role(r) & board.by_color(color)).count() as i32
        })
        .sum()
}

/// Endgame scale in 1/64ths for material that is hard or impossible to win.
fn endgame_scale(board: &Board, eg: i32) -> i32 {
    let strong = if eg >= 0 { Color::White } else { Color::Black };
    let weak = !strong;
    let strong_pawns = (board.pawns() & board.by_color(strong)).count();
    let strong_npm = non_pawn_material(board, strong);
    let weak_npm = non_pawn_material(board, weak);
    let rook = MATERIAL[Role::Rook as usize - 1].eg();
    if strong_pawns == 0 {
        let only_knights = (board.by_color(strong) & !board.kings() & !board.knights()).is_empty();
        if strong_npm < rook || only_knights {
            return 0;
        }
        if strong_npm - weak_npm < rook - 100 {
            return 8;
        }
    }
    let bishops_only = (board.knights() | board.rooks() | board.queens()).is_empty();
    let wb = board.bishops() & board.white();
    let bb = board.bishops() & board.black();
    if bishops_only && wb.count() == 1 && bb.count() == 1 {
        let light = Bitboard::LIGHT_SQUARES;
        if (wb & light).any() != (bb & light).any() {
            return 32;
        }
    }
    64
}

/// Against a bare king: push it to the edge (for KBNK, to a corner of the
/// bishop's colour) and bring our king close, so simple mates are found.
fn mop_up(board: &Board, eg: i32) -> i32 {
    let strong = if eg >= 0 { Color::White } else { Color::Black };
    let weak = !strong;
    if (board.by_color(weak) & !board.kings()).any() || board.pawns().any() {
        return 0;
    }
    if non_pawn_material(board, strong) < MATERIAL[Role::Rook as usize - 1].eg() {
        return 0;
    }
    let (Some(sk), Some(wk)) = (board.king_of(strong), board.king_of(weak)) else {
        return 0;
    };
    let bishops = board.bishops() & board.by_color(strong);
    let edge = if bishops.count() == 1 && (board.by_color(strong) & !board.kings()).count() == 2 {
        let light = (bishops & Bitboard::LIGHT_SQUARES).any();
        let corners: [Square; 2] = if light {
            [Square::H1, Square::A8]
        } else {
            [Square::A1, Square::H8]
        };
        14 - corners
            .iter()
            .map(|c| wk.distance(*c) as i32)
            .min()
            .unwrap_or(7)
            * 2
    } else {
        6 - centrality(wk)
    };
    let close = 14 - (sk.file().distance(wk.file()) + sk.rank().distance(wk.rank())) as i32;
    let bonus = MOPUP_EDGE * edge + MOPUP_KINGS_CLOSE * close;
    if strong == Color::White {
        bonus
    } else {
        -bonus
    }
}

#[cfg(test)]
mod tests;
