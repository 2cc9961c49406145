//! Every tuned evaluation weight, as (middlegame, endgame) centipawns,
//! indexed by the constants of `layout.rs`. Written by `kestrel tune`
//! (hand-set starting values until the first run); edit by hand only
//! between runs. Everything after the "fixed" marker is kept as it is.
//!
//! Last run: 3158150 positions from data.txt, K = 0.006296, lambda 0.5, loss 0.026255 -> 0.025795.

use super::layout::N_WEIGHTS;
use super::score::S;

#[rustfmt::skip]
pub const WEIGHTS: [S; N_WEIGHTS] = [
    // MATERIAL
    S(46, 113), S(288, 382), S(329, 426), S(355, 711), S(829, 1371), S(0, 0),
    // PSQT pawn
    S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(-10, 16), S(1, 13), S(5, 28), S(-12, 34),
    S(-8, 11), S(-1, 6), S(1, 13), S(-5, 22),
    S(-6, 15), S(-3, 11), S(12, 3), S(17, -3),
    S(8, 21), S(-2, 10), S(5, -3), S(9, -7),
    S(30, 15), S(11, 12), S(21, 15), S(13, 11),
    S(155, -42), S(63, 46), S(58, 56), S(89, 42),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // PSQT knight
    S(-42, -13), S(-15, -3), S(-15, -5), S(-5, -3),
    S(-10, 7), S(-6, -5), S(-4, 3), S(-1, 8),
    S(-6, -1), S(6, -2), S(1, 12), S(10, 23),
    S(4, 4), S(23, 15), S(24, 22), S(20, 36),
    S(16, 15), S(9, 17), S(10, 33), S(25, 35),
    S(-35, 25), S(2, 14), S(11, 30), S(18, 38),
    S(-40, 14), S(-10, 23), S(26, 16), S(11, 28),
    S(-93, -82), S(-165, 24), S(-118, 23), S(-22, 25),
    // PSQT bishop
    S(-8, -17), S(6, -13), S(-8, 4), S(-9, -3),
    S(8, -10), S(6, -16), S(8, 5), S(6, -2),
    S(11, 1), S(12, 15), S(8, 4), S(4, 23),
    S(4, -11), S(5, 16), S(9, 28), S(16, 30),
    S(-5, 11), S(6, 21), S(3, 35), S(10, 40),
    S(-2, 12), S(-10, 21), S(5, 15), S(20, 26),
    S(-27, 16), S(-34, 18), S(-11, 33), S(-19, 39),
    S(-45, 9), S(-19, 30), S(-78, 40), S(-74, 43),
    // PSQT rook
    S(-10, -3), S(-7, 3), S(1, 7), S(9, -4),
    S(-28, -3), S(-3, -6), S(-9, 4), S(-3, -6),
    S(-28, 14), S(-11, 8), S(-22, 21), S(-12, 8),
    S(-27, 31), S(-9, 31), S(-6, 29), S(-12, 26),
    S(-24, 39), S(-3, 32), S(17, 25), S(14, 23),
    S(13, 34), S(29, 29), S(39, 17), S(28, 25),
    S(47, 19), S(48, 18), S(67, 10), S(55, 16),
    S(9, 40), S(40, 33), S(21, 35), S(25, 38),
    // PSQT queen
    S(8, -51), S(8, -85), S(4, -42), S(7, -40),
    S(3, -38), S(4, -25), S(9, -28), S(13, -17),
    S(-9, 9), S(1, 11), S(-1, 41), S(-4, 39),
    S(-9, 42), S(-9, 77), S(-5, 72), S(-5, 81),
    S(-2, 27), S(-15, 68), S(-11, 100), S(-16, 109),
    S(-7, 19), S(0, 67), S(0, 70), S(1, 94),
    S(-17, 43), S(-34, 68), S(1, 68), S(-16, 106),
    S(16, 11), S(-4, 46), S(-4, 75), S(10, 60),
    // PSQT king
    S(24, -59), S(20, -22), S(-17, -8), S(-16, -22),
    S(21, -37), S(12, -5), S(-13, 10), S(-38, 17),
    S(-28, -20), S(3, 9), S(-21, 22), S(-22, 23),
    S(-43, -12), S(22, 12), S(22, 19), S(-11, 31),
    S(10, -14), S(83, 4), S(38, 27), S(37, 30),
    S(15, -19), S(81, 18), S(23, 34), S(-2, 43),
    S(-243, -32), S(-19, 50), S(-20, 38), S(29, 33),
    S(-300, -173), S(84, -37), S(137, -50), S(129, -61),
    // MOB_KNIGHT
    S(-36, -54), S(-25, -17), S(-18, 2), S(-11, 19), S(-6, 27), S(-1, 35), S(5, 38), S(5, 34),
    S(14, 24),
    // MOB_BISHOP
    S(-29, -47), S(-20, -15), S(-15, 1), S(-12, 15), S(-10, 22), S(-9, 28), S(-4, 28), S(-4, 32),
    S(1, 31), S(0, 30), S(2, 21), S(6, 24), S(33, 10), S(17, 22),
    // MOB_ROOK
    S(-31, -65), S(-19, -22), S(-15, -7), S(-13, 0), S(-13, 10), S(-11, 16), S(-12, 24), S(-7, 22),
    S(-12, 34), S(-8, 35), S(-4, 34), S(-5, 40), S(-8, 42), S(3, 37), S(19, 31),
    // MOB_QUEEN
    S(-23, -121), S(-19, -66), S(-21, -103), S(-22, -16), S(-20, -9), S(-21, 21), S(-18, 23), S(-19, 45),
    S(-13, 38), S(-14, 53), S(-12, 71), S(-10, 58), S(-10, 64), S(-4, 59), S(-10, 73), S(-7, 70),
    S(-4, 58), S(0, 46), S(7, 36), S(37, 10), S(10, 25), S(67, -28), S(109, -66), S(87, -78),
    S(87, -84), S(12, -23), S(25, -2), S(59, 65),
    // PASSED
    S(0, 0), S(-3, 20), S(-3, 20), S(29, 6), S(98, -1), S(143, -2), S(144, 34), S(0, 0),
    // PASSED_FREE
    S(0, 0), S(-10, 5), S(-9, 1), S(-4, 13), S(-12, 30), S(9, 57), S(132, 18), S(0, 0),
    // PASSED_BLOCKED
    S(0, 0), S(-14, 4), S(20, -16), S(0, -1), S(-4, 10), S(-9, 27), S(3, -28), S(0, 0),
    // PASSED_SAFE_STOP
    S(0, 0), S(9, -1), S(-5, 11), S(-12, 14), S(-16, 22), S(13, 42), S(41, 93), S(0, 0),
    // PASSED_OWN_KING
    S(-4, -6),
    // PASSED_THEIR_KING
    S(-5, 18),
    // ISOLATED
    S(-6, -9),
    // DOUBLED
    S(-4, -10),
    // BACKWARD
    S(-5, -10),
    // SUPPORTED
    S(0, 0), S(6, 6), S(13, 12), S(8, 8), S(17, 15), S(42, 69), S(83, 150), S(0, 0),
    // PHALANX
    S(0, 0), S(5, 0), S(2, 5), S(5, 10), S(14, 40), S(32, 116), S(91, 292), S(0, 0),
    // BISHOP_PAIR
    S(5, 60),
    // ROOK_OPEN
    S(36, -4),
    // ROOK_HALF_OPEN
    S(16, 10),
    // QUEEN_OPEN
    S(-15, 30),
    // QUEEN_HALF_OPEN
    S(4, 10),
    // ROOK_SEVENTH
    S(-39, 28),
    // KNIGHT_OUTPOST
    S(15, 16),
    // BISHOP_OUTPOST
    S(19, 16),
    // BISHOP_PAWNS
    S(-2, -4),
    // MINOR_BEHIND_PAWN
    S(5, 16),
    // KING_DANGER
    S(-3, -7), S(6, -4), S(22, 20), S(30, 56), S(61, 39), S(73, 63), S(144, -18), S(137, 53),
    S(226, 23), S(272, 135), S(225, 76), S(382, 124), S(431, 144), S(450, 150), S(450, 150), S(450, 150),
    // SAFE_CHECK
    S(62, -5), S(14, 25), S(62, 0), S(22, 36),
    // SHIELD
    S(19, -15), S(13, -15),
    // STORM
    S(-14, -2), S(-20, -9), S(-1, -3), S(4, -4),
    // KING_OPEN_FILE
    S(-20, -21),
    // KING_HALF_OPEN_FILE
    S(-11, -1),
    // THREAT_BY_PAWN
    S(59, 40),
    // THREAT_BY_MINOR
    S(1, 16), S(18, 21), S(28, 26), S(58, 23), S(39, 35),
    // THREAT_BY_ROOK
    S(2, 12), S(5, 20), S(9, 23), S(12, 9), S(64, 17),
    // THREAT_BY_KING
    S(41, 11),
    // HANGING
    S(14, 23),
    // PAWN_PUSH_THREAT
    S(16, 12),
    // KING_PROTECTOR
    S(-2, -1), S(-2, -2),
    // SPACE
    S(0, 3),
    // KNIGHT_PAWNS
    S(2, 5),
    // ROOK_PAWNS
    S(5, 2),
    // LONG_DIAGONAL
    S(14, 17),
    // WEAK_UNOPPOSED
    S(-1, -10),
    // ROOK_BEHIND_PASSER
    S(9, 15),
    // TEMPO
    S(27, 14),
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
