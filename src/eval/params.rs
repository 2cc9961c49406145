//! Every tuned evaluation weight, as (middlegame, endgame) centipawns,
//! indexed by the constants of `layout.rs`. Written by `kestrel tune`
//! (hand-set starting values until the first run); edit by hand only
//! between runs. Everything after the "fixed" marker is kept as it is.
//!
//! Last run: 165700 positions from /tmp/kdata/data.txt, K = 0.006948, lambda 0.5, loss 0.022967 -> 0.020385.

use super::layout::N_WEIGHTS;
use super::score::S;

#[rustfmt::skip]
pub const WEIGHTS: [S; N_WEIGHTS] = [
    // MATERIAL
    S(69, 115), S(335, 338), S(354, 365), S(433, 609), S(1071, 1031), S(0, 0),
    // PSQT pawn
    S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(-5, 7), S(16, 11), S(11, 22), S(-6, -6),
    S(-7, 10), S(8, -6), S(-7, 16), S(6, -1),
    S(-5, 7), S(-10, 16), S(7, 7), S(13, 2),
    S(4, 20), S(1, 10), S(10, 30), S(6, 5),
    S(32, -6), S(-20, 17), S(46, 31), S(-20, 1),
    S(-14, 23), S(121, 56), S(72, 52), S(75, 70),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // PSQT knight
    S(14, -59), S(-14, -4), S(-14, 56), S(-23, -2),
    S(13, 41), S(23, 8), S(-12, -7), S(10, -1),
    S(-20, 8), S(1, 30), S(6, 8), S(8, 10),
    S(-7, 22), S(46, 25), S(22, -6), S(16, 33),
    S(44, -40), S(2, 27), S(6, 22), S(35, 11),
    S(11, -34), S(-16, -37), S(14, 10), S(18, -13),
    S(-36, -12), S(-23, -22), S(17, -13), S(35, 8),
    S(-99, -8), S(-17, -12), S(-15, -24), S(-14, -5),
    // PSQT bishop
    S(31, -9), S(24, -19), S(4, -17), S(-40, 38),
    S(3, 1), S(11, -36), S(10, -18), S(14, -11),
    S(-5, 14), S(-12, 3), S(-1, 17), S(8, 7),
    S(5, 3), S(1, -26), S(9, 22), S(17, -1),
    S(5, 3), S(5, -11), S(-2, 0), S(-10, 23),
    S(-16, 1), S(9, 51), S(-64, 74), S(48, -33),
    S(-77, 9), S(-15, -10), S(-35, 9), S(31, 19),
    S(-21, -18), S(-40, 29), S(-49, -20), S(-69, 25),
    // PSQT rook
    S(1, -9), S(-2, -11), S(-7, -6), S(3, -9),
    S(-33, 8), S(30, -31), S(-1, -16), S(35, -18),
    S(4, 0), S(12, 1), S(-14, 11), S(5, 32),
    S(4, 6), S(11, 13), S(-38, 41), S(57, -11),
    S(-42, 48), S(-1, 22), S(-22, 18), S(20, 16),
    S(4, 10), S(15, 9), S(60, 18), S(24, 23),
    S(2, 23), S(-16, 35), S(20, 27), S(-5, 27),
    S(-53, 8), S(15, 18), S(33, 9), S(-10, 14),
    // PSQT queen
    S(-17, -64), S(-24, -62), S(-6, -28), S(-1, -22),
    S(27, -62), S(16, -63), S(-2, -7), S(2, -29),
    S(8, -2), S(1, -31), S(-11, 19), S(-2, -18),
    S(4, 39), S(-5, 48), S(-1, 57), S(-4, 32),
    S(13, 10), S(12, 47), S(7, 35), S(22, 45),
    S(-9, 36), S(13, -9), S(30, 42), S(44, 28),
    S(20, 38), S(-39, 35), S(-28, 5), S(43, 63),
    S(29, 5), S(23, 16), S(7, -3), S(11, 28),
    // PSQT king
    S(31, -58), S(31, -36), S(1, -13), S(4, -11),
    S(-12, -28), S(23, -27), S(-21, 3), S(-28, 3),
    S(26, -21), S(-32, 1), S(-42, 22), S(-33, 25),
    S(-72, -15), S(-28, 7), S(0, 10), S(-38, 29),
    S(-24, -11), S(-34, 20), S(-71, 40), S(-18, 29),
    S(-87, 3), S(-43, 46), S(-45, 48), S(-15, 15),
    S(-95, -10), S(-80, 58), S(-96, 25), S(-124, -21),
    S(-114, -49), S(-74, -10), S(-89, 2), S(-140, -5),
    // MOB_KNIGHT
    S(-30, -100), S(-9, -37), S(-9, -12), S(-6, 7), S(-2, 12), S(4, 31), S(22, 20), S(13, 40),
    S(-2, 36),
    // MOB_BISHOP
    S(-23, -48), S(-25, -7), S(-17, -21), S(-14, 4), S(-11, 2), S(-3, 1), S(2, 8), S(8, 4),
    S(4, 20), S(16, 23), S(33, 19), S(38, 20), S(22, 36), S(65, 65),
    // MOB_ROOK
    S(-15, -30), S(-17, -58), S(-20, -39), S(-10, -14), S(-7, -13), S(-4, 8), S(-7, 7), S(-5, 15),
    S(0, 13), S(-1, 32), S(-6, 23), S(-3, 34), S(7, 47), S(-25, 47), S(29, 28),
    // MOB_QUEEN
    S(-5, -107), S(-21, -48), S(-7, -19), S(-20, -45), S(-11, 15), S(-9, -86), S(-12, -20), S(-13, -14),
    S(-9, -28), S(-10, -4), S(-9, -24), S(-1, -12), S(-21, 51), S(-6, 39), S(8, 38), S(-1, 45),
    S(-1, 23), S(16, 27), S(13, 11), S(41, -18), S(20, 12), S(16, -4), S(57, 42), S(5, 0),
    S(38, 22), S(5, -1), S(36, 57), S(17, 23),
    // PASSED
    S(0, 0), S(18, 5), S(-4, 39), S(31, 30), S(47, 29), S(44, 77), S(87, 90), S(0, 0),
    // PASSED_FREE
    S(0, 0), S(-26, 1), S(-3, -12), S(-19, 9), S(2, 34), S(6, 60), S(85, 58), S(0, 0),
    // PASSED_BLOCKED
    S(0, 0), S(6, -75), S(-39, 14), S(-20, -21), S(-15, -3), S(5, -34), S(-34, -44), S(0, 0),
    // PASSED_OWN_KING
    S(2, -6),
    // PASSED_THEIR_KING
    S(-2, 12),
    // ISOLATED
    S(-11, -11),
    // DOUBLED
    S(2, -29),
    // BACKWARD
    S(4, -14),
    // SUPPORTED
    S(0, 0), S(6, 6), S(11, -2), S(12, 12), S(34, -4), S(56, 77), S(100, 38), S(0, 0),
    // PHALANX
    S(0, 0), S(2, 3), S(6, 9), S(13, 2), S(-3, 44), S(88, 30), S(40, 39), S(0, 0),
    // BISHOP_PAIR
    S(31, 51),
    // ROOK_OPEN
    S(31, 3),
    // ROOK_HALF_OPEN
    S(21, 8),
    // QUEEN_OPEN
    S(-9, -6),
    // QUEEN_HALF_OPEN
    S(14, 5),
    // ROOK_SEVENTH
    S(-21, 10),
    // KNIGHT_OUTPOST
    S(1, 2),
    // BISHOP_OUTPOST
    S(2, 37),
    // KING_DANGER
    S(4, -1),
    // SAFE_CHECK
    S(15, 2), S(0, 19), S(29, 8), S(31, -12),
    // SHIELD
    S(17, -14), S(8, -9),
    // STORM
    S(13, -5), S(-14, -6), S(-4, 1), S(6, -2),
    // KING_OPEN_FILE
    S(-9, -7),
    // KING_HALF_OPEN_FILE
    S(-7, -3),
    // THREAT_BY_PAWN
    S(49, 24),
    // THREAT_BY_MINOR
    S(57, -14),
    // THREAT_BY_ROOK
    S(25, 22),
    // HANGING
    S(15, 32),
    // TEMPO
    S(17, 10),
];

// ---- fixed (not tuned) ----

/// Phase weight of each piece (pawn … king); a full board has `PHASE_TOTAL`.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const PHASE_TOTAL: i32 = 24;
/// King-zone attack units per attacked zone square: knight, bishop, rook, queen.
pub const KING_ATTACK_UNITS: [i32; 4] = [2, 2, 3, 5];
/// Cap on units² in the king-danger coefficient.
pub const KING_DANGER_CAP: i32 = 2400;
/// Mop-up of a lone king: drive it to the edge, bring our king close.
pub const MOPUP_EDGE: i32 = 10;
pub const MOPUP_KINGS_CLOSE: i32 = 4;
