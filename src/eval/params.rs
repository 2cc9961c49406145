//! Every tuned evaluation weight, as (middlegame, endgame) centipawns,
//! indexed by the constants of `layout.rs`. Written by `kestrel tune`
//! (hand-set starting values until the first run); edit by hand only
//! between runs. Everything after the "fixed" marker is kept as it is.
//!
//! Last run: 3155032 positions from /tmp/data/d2.txt, K = 0.006289, lambda 0.5, loss 0.026057 -> 0.025716.

use super::layout::N_WEIGHTS;
use super::score::S;

#[rustfmt::skip]
pub const WEIGHTS: [S; N_WEIGHTS] = [
    // MATERIAL
    S(59, 113), S(294, 387), S(322, 420), S(380, 705), S(859, 1296), S(0, 0),
    // PSQT pawn
    S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(-6, 9), S(9, 8), S(7, 21), S(-7, 30),
    S(-7, 6), S(2, 2), S(-6, 14), S(-3, 17),
    S(-5, 9), S(1, 7), S(13, 8), S(14, 1),
    S(5, 18), S(-4, 6), S(4, 6), S(11, 0),
    S(24, 14), S(4, 25), S(30, 27), S(12, 26),
    S(123, -19), S(45, 39), S(62, 51), S(78, 48),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // PSQT knight
    S(-54, -4), S(-11, -7), S(1, 1), S(-2, 0),
    S(3, -13), S(-7, 8), S(3, 4), S(7, 14),
    S(-12, -8), S(4, 6), S(2, 10), S(16, 19),
    S(-2, 15), S(23, 18), S(12, 30), S(14, 42),
    S(11, 14), S(3, 24), S(16, 36), S(21, 37),
    S(-13, 4), S(5, 10), S(22, 16), S(27, 29),
    S(-32, 19), S(-30, 22), S(9, 7), S(-8, 20),
    S(-107, -43), S(-103, 35), S(-128, 25), S(-22, 6),
    // PSQT bishop
    S(-6, 1), S(-1, 9), S(-6, 1), S(-5, -8),
    S(1, -6), S(13, -7), S(14, 0), S(7, -3),
    S(7, -14), S(12, 1), S(11, 14), S(6, 15),
    S(-4, -6), S(-4, 6), S(3, 30), S(11, 23),
    S(1, 4), S(4, 11), S(3, 28), S(8, 31),
    S(-12, 9), S(1, 25), S(-4, 26), S(16, 23),
    S(-65, 24), S(-34, 32), S(-8, 21), S(-28, 31),
    S(-36, 27), S(-82, 36), S(-98, 38), S(-87, 38),
    // PSQT rook
    S(-9, -7), S(-6, 2), S(3, -2), S(8, -6),
    S(-18, -14), S(-3, -6), S(0, -12), S(11, -15),
    S(-27, 14), S(-3, 13), S(-14, 16), S(-3, 7),
    S(-27, 22), S(-34, 35), S(-17, 28), S(-10, 22),
    S(-18, 35), S(3, 38), S(-5, 35), S(22, 22),
    S(-5, 40), S(23, 34), S(33, 28), S(42, 23),
    S(42, 23), S(33, 33), S(53, 18), S(70, 14),
    S(8, 47), S(37, 39), S(57, 29), S(29, 37),
    // PSQT queen
    S(0, -34), S(17, -102), S(10, -39), S(8, -42),
    S(13, -63), S(12, -42), S(7, -20), S(17, -26),
    S(-3, 6), S(-3, 13), S(-1, 20), S(-3, 28),
    S(-9, 35), S(-19, 74), S(-7, 43), S(1, 54),
    S(-10, 61), S(-20, 78), S(-14, 73), S(-8, 81),
    S(8, 2), S(11, 32), S(-25, 97), S(7, 66),
    S(-13, 52), S(-35, 85), S(-9, 95), S(-10, 99),
    S(18, 22), S(-18, 41), S(-14, 44), S(-27, 93),
    // PSQT king
    S(19, -58), S(22, -29), S(-11, -9), S(-8, -27),
    S(9, -30), S(6, -10), S(-11, 5), S(-22, 13),
    S(-24, -20), S(1, 4), S(-34, 21), S(-35, 26),
    S(-57, -22), S(25, 2), S(-31, 31), S(-18, 34),
    S(-32, -10), S(47, 12), S(53, 36), S(-30, 45),
    S(-52, -2), S(50, 25), S(48, 43), S(36, 32),
    S(-227, -26), S(-10, 53), S(-7, 46), S(59, 27),
    S(-256, -216), S(184, -21), S(97, -27), S(123, -63),
    // MOB_KNIGHT
    S(-35, -49), S(-24, -3), S(-16, 8), S(-10, 17), S(-4, 25), S(1, 39), S(5, 42), S(10, 32),
    S(12, 24),
    // MOB_BISHOP
    S(-33, -40), S(-23, -19), S(-19, -6), S(-15, 10), S(-11, 18), S(-7, 26), S(-3, 30), S(-2, 31),
    S(0, 33), S(-1, 29), S(-3, 26), S(16, 24), S(22, 11), S(40, 13),
    // MOB_ROOK
    S(-31, -36), S(-19, -14), S(-16, -14), S(-11, -2), S(-11, 8), S(-8, 13), S(-9, 22), S(-5, 22),
    S(-6, 30), S(-2, 31), S(1, 35), S(-6, 42), S(-1, 43), S(-1, 35), S(10, 34),
    // MOB_QUEEN
    S(-27, -106), S(-16, -73), S(-22, -88), S(-24, -26), S(-19, -21), S(-17, -11), S(-16, -2), S(-16, 15),
    S(-16, 33), S(-13, 41), S(-10, 49), S(-10, 56), S(-11, 64), S(-14, 70), S(-7, 59), S(-8, 59),
    S(-8, 59), S(8, 45), S(17, 37), S(17, 28), S(46, 2), S(67, -18), S(71, -23), S(119, -39),
    S(137, -62), S(32, 32), S(7, -32), S(27, 23),
    // PASSED
    S(0, 0), S(5, 11), S(5, 22), S(36, 10), S(90, 9), S(117, 6), S(116, 45), S(0, 0),
    // PASSED_FREE
    S(0, 0), S(-12, 12), S(-22, 15), S(-18, 22), S(-10, 34), S(14, 78), S(110, 68), S(0, 0),
    // PASSED_BLOCKED
    S(0, 0), S(-26, 17), S(-4, -4), S(-21, -1), S(-5, 8), S(-8, 16), S(10, -26), S(0, 0),
    // PASSED_OWN_KING
    S(-3, -6),
    // PASSED_THEIR_KING
    S(-4, 18),
    // ISOLATED
    S(-7, -13),
    // DOUBLED
    S(-2, -9),
    // BACKWARD
    S(-5, -17),
    // SUPPORTED
    S(0, 0), S(6, 6), S(13, 15), S(10, 11), S(18, 21), S(41, 76), S(280, 78), S(0, 0),
    // PHALANX
    S(0, 0), S(3, 2), S(5, 4), S(7, 11), S(17, 43), S(56, 89), S(89, 294), S(0, 0),
    // BISHOP_PAIR
    S(9, 76),
    // ROOK_OPEN
    S(39, -5),
    // ROOK_HALF_OPEN
    S(17, 12),
    // QUEEN_OPEN
    S(-13, 23),
    // QUEEN_HALF_OPEN
    S(4, 13),
    // ROOK_SEVENTH
    S(-33, 28),
    // KNIGHT_OUTPOST
    S(21, 12),
    // BISHOP_OUTPOST
    S(26, 6),
    // BISHOP_PAWNS
    S(-1, -4),
    // MINOR_BEHIND_PAWN
    S(4, 11),
    // KING_DANGER
    S(-4, 1), S(5, -1), S(19, 27), S(31, 54), S(53, 36), S(59, 70), S(99, 35), S(145, 63),
    S(206, 11), S(295, 161), S(210, 71), S(387, 126), S(431, 144), S(450, 150), S(450, 150), S(450, 150),
    // SAFE_CHECK
    S(65, -3), S(20, 22), S(58, 3), S(24, 31),
    // SHIELD
    S(16, -13), S(10, -14),
    // STORM
    S(4, -6), S(-18, -4), S(0, -3), S(5, -4),
    // KING_OPEN_FILE
    S(-15, -22),
    // KING_HALF_OPEN_FILE
    S(-15, 2),
    // THREAT_BY_PAWN
    S(59, 32),
    // THREAT_BY_MINOR
    S(50, 24),
    // THREAT_BY_ROOK
    S(64, -1),
    // HANGING
    S(15, 37),
    // TEMPO
    S(25, 12),
];

// ---- fixed (not tuned) ----

/// Phase weight of each piece (pawn … king); a full board has `PHASE_TOTAL`.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const PHASE_TOTAL: i32 = 24;
/// King-zone attack units per attacked zone square: knight, bishop, rook, queen.
pub const KING_ATTACK_UNITS: [i32; 4] = [2, 2, 3, 5];
/// Mop-up of a lone king: drive it to the edge, bring our king close.
pub const MOPUP_EDGE: i32 = 10;
pub const MOPUP_KINGS_CLOSE: i32 = 4;
/// In KBNK, weight of the lone king's nearness to a corner of the bishop's
/// colour, in units of the edge term.
pub const MOPUP_KBNK_CORNER: i32 = 3;
