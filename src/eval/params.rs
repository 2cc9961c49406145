//! Every evaluation weight in one place, in centipawns as (middlegame, endgame).
//!
//! These are hand-set starting values; the tuner of the evaluation issue
//! regenerates this file from Kestrel's own games.

use super::score::S;

/// Indexed by `Role as usize - 1`: pawn, knight, bishop, rook, queen, king.
pub const MATERIAL: [S; 6] = [
    S(90, 120),
    S(330, 310),
    S(345, 330),
    S(470, 540),
    S(1000, 980),
    S(0, 0),
];

/// Phase weight of each piece; a full board has `PHASE_TOTAL`.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const PHASE_TOTAL: i32 = 24;

/// Piece-square shapes (from White's side, a1 = index 0), scaled per piece.
pub const CENTRALITY: S = S(4, 3);
pub const KNIGHT_CENTRALITY: S = S(7, 5);
pub const BISHOP_CENTRALITY: S = S(3, 3);
pub const QUEEN_CENTRALITY: S = S(1, 4);
pub const KING_CENTRALITY_EG: i32 = 9;
pub const PAWN_ADVANCE: [S; 8] = [
    S(0, 0),
    S(0, 0),
    S(2, 2),
    S(6, 8),
    S(14, 18),
    S(24, 34),
    S(40, 60),
    S(0, 0),
];
pub const PAWN_CENTER_FILE: S = S(8, 0);
pub const ROOK_SEVENTH: S = S(15, 20);
/// King safety in the middlegame: back rank, towards a corner.
pub const KING_BACK_RANK: i32 = 20;
pub const KING_CORNER: i32 = 8;

/// Mobility: bonus per safe square above the typical count.
pub const MOBILITY: [(S, i32); 4] = [
    (S(5, 5), 4),  // knight
    (S(5, 6), 6),  // bishop
    (S(3, 5), 7),  // rook
    (S(2, 4), 13), // queen
];

pub const BISHOP_PAIR: S = S(30, 55);
pub const ROOK_OPEN_FILE: S = S(28, 10);
pub const ROOK_HALF_OPEN_FILE: S = S(12, 8);

/// Passed pawn by relative rank.
pub const PASSED: [S; 8] = [
    S(0, 0),
    S(2, 10),
    S(5, 14),
    S(10, 25),
    S(22, 45),
    S(40, 80),
    S(70, 125),
    S(0, 0),
];
/// Endgame bonus per square of distance from the enemy king to the
/// passer's stop square, and malus for our own king's distance.
pub const PASSED_KING_DISTANCE: (i32, i32) = (5, 3);
pub const PASSED_FREE_PATH: S = S(5, 20);
pub const DOUBLED_PAWN: S = S(-10, -20);
pub const ISOLATED_PAWN: S = S(-10, -12);
pub const CONNECTED_PAWN: S = S(6, 6);

/// King safety: attack weight per attacking piece type on the king zone.
pub const KING_ATTACK_WEIGHT: [i32; 4] = [2, 2, 3, 5];
/// Middlegame penalty for each missing shield pawn in front of the king.
pub const KING_SHIELD_MISSING: i32 = 12;
pub const KING_OPEN_FILE: i32 = 15;

/// Threats: a pawn attacking a piece, a piece left undefended and attacked.
pub const PAWN_THREAT: S = S(45, 35);
pub const HANGING: S = S(20, 15);

pub const TEMPO: i32 = 15;

/// Mop-up of a lone king: drive it to the edge, bring our king close.
pub const MOPUP_EDGE: i32 = 10;
pub const MOPUP_KINGS_CLOSE: i32 = 4;
