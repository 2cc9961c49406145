//! Every tuned evaluation weight, as (middlegame, endgame) centipawns,
//! indexed by the constants of `layout.rs`. Written by `kestrel tune`
//! (hand-set starting values until the first run); edit by hand only
//! between runs. Everything after the "fixed" marker is kept as it is.
//!
//! Last run: 2564833 positions from /tmp/kdata2/data.txt, K = 0.006081, lambda 0.5, loss 0.025991 -> 0.024904.

use super::layout::N_WEIGHTS;
use super::score::S;

#[rustfmt::skip]
pub const WEIGHTS: [S; N_WEIGHTS] = [
    // MATERIAL
    S(63, 113), S(307, 376), S(325, 404), S(393, 677), S(956, 1194), S(0, 0),
    // PSQT pawn
    S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    S(-7, 11), S(13, 9), S(11, 18), S(-5, 12),
    S(-9, 6), S(2, 1), S(-5, 15), S(1, 10),
    S(-3, 7), S(-3, 10), S(9, 5), S(14, -1),
    S(3, 19), S(-1, 4), S(5, 11), S(7, 1),
    S(28, 21), S(8, 30), S(41, 31), S(-2, 25),
    S(55, 11), S(67, 36), S(37, 54), S(115, 46),
    S(0, 0), S(0, 0), S(0, 0), S(0, 0),
    // PSQT knight
    S(-15, -10), S(-11, 1), S(-10, 18), S(-1, -10),
    S(-6, 9), S(8, -4), S(-8, 10), S(6, 8),
    S(-17, -6), S(5, 12), S(5, 9), S(21, 19),
    S(-1, 15), S(13, 19), S(16, 21), S(15, 40),
    S(22, -10), S(7, 18), S(5, 39), S(25, 29),
    S(-20, -1), S(14, -17), S(11, 29), S(23, 27),
    S(-32, 24), S(-30, 12), S(21, 5), S(10, 21),
    S(-105, -2), S(-3, 10), S(-94, 14), S(-9, 13),
    // PSQT bishop
    S(8, -16), S(3, -7), S(-2, 6), S(-2, -2),
    S(3, 10), S(14, -16), S(11, -8), S(10, -5),
    S(-4, 2), S(2, 4), S(9, 12), S(7, 12),
    S(-4, -4), S(-2, 6), S(0, 22), S(5, 23),
    S(-3, -5), S(3, 7), S(4, 19), S(-5, 36),
    S(-1, 9), S(4, 20), S(-22, 41), S(17, 8),
    S(-53, 31), S(-39, 29), S(-22, 13), S(-12, 26),
    S(-27, 34), S(-79, 26), S(-73, 20), S(-55, 20),
    // PSQT rook
    S(-11, -3), S(-8, 1), S(-3, 6), S(8, -6),
    S(-32, -2), S(7, -17), S(3, -4), S(22, -16),
    S(-20, 6), S(-12, 14), S(-13, 18), S(1, 15),
    S(-22, 14), S(-6, 23), S(-25, 35), S(6, 15),
    S(-18, 40), S(-14, 34), S(3, 29), S(19, 18),
    S(14, 22), S(17, 28), S(60, 14), S(44, 21),
    S(36, 17), S(14, 32), S(52, 24), S(67, 12),
    S(15, 31), S(48, 24), S(60, 21), S(42, 24),
    // PSQT queen
    S(-3, -71), S(8, -96), S(5, -20), S(6, -22),
    S(15, -75), S(18, -65), S(9, -33), S(11, -19),
    S(3, -12), S(3, -1), S(2, 15), S(-2, 1),
    S(-6, 35), S(-1, 36), S(-15, 53), S(-8, 58),
    S(-6, 52), S(-7, 51), S(-12, 56), S(-8, 71),
    S(-3, 31), S(16, 48), S(-8, 92), S(-3, 81),
    S(-8, 37), S(-34, 66), S(-11, 86), S(-9, 89),
    S(30, 13), S(31, 35), S(4, 45), S(15, 36),
    // PSQT king
    S(25, -66), S(26, -33), S(-7, -11), S(-1, -21),
    S(12, -28), S(13, -15), S(-12, 2), S(-26, 10),
    S(-5, -29), S(3, -2), S(-30, 16), S(-29, 22),
    S(-87, -12), S(16, 7), S(-60, 34), S(-15, 30),
    S(-47, 2), S(18, 18), S(-17, 36), S(-43, 32),
    S(-107, 6), S(32, 26), S(-17, 44), S(30, 26),
    S(-163, -4), S(-87, 28), S(41, 31), S(-30, 30),
    S(-178, -173), S(4, -11), S(-12, 23), S(-34, 27),
    // MOB_KNIGHT
    S(-30, -102), S(-20, -14), S(-12, 5), S(-9, 17), S(-4, 30), S(1, 39), S(8, 34), S(13, 30),
    S(16, 24),
    // MOB_BISHOP
    S(-31, -55), S(-26, -20), S(-21, -8), S(-15, 6), S(-10, 11), S(-7, 18), S(-4, 26), S(-2, 30),
    S(6, 26), S(2, 27), S(23, 20), S(38, 22), S(17, 30), S(31, 33),
    // MOB_ROOK
    S(-26, -58), S(-19, -23), S(-15, -22), S(-10, -12), S(-13, 8), S(-7, 15), S(-7, 19), S(-5, 21),
    S(-4, 30), S(-1, 32), S(1, 34), S(-5, 38), S(-2, 41), S(-9, 40), S(19, 28),
    // MOB_QUEEN
    S(-28, -120), S(-16, -168), S(-23, -93), S(-22, -39), S(-19, -14), S(-15, -28), S(-16, -1), S(-16, 17),
    S(-10, 8), S(-14, 33), S(-12, 41), S(-10, 45), S(-8, 59), S(3, 42), S(7, 37), S(-4, 57),
    S(11, 40), S(21, 34), S(27, 27), S(26, 20), S(67, -18), S(44, 15), S(61, -3), S(54, -2),
    S(56, -6), S(46, 37), S(21, 21), S(26, 30),
    // PASSED
    S(0, 0), S(3, 12), S(1, 27), S(41, 21), S(79, 19), S(99, 20), S(98, 62), S(0, 0),
    // PASSED_FREE
    S(0, 0), S(-6, 8), S(-15, 8), S(-20, 17), S(-8, 36), S(0, 78), S(85, 76), S(0, 0),
    // PASSED_BLOCKED
    S(0, 0), S(-15, -11), S(-9, 2), S(-21, -12), S(-13, -1), S(-15, 6), S(10, -21), S(0, 0),
    // PASSED_OWN_KING
    S(-1, -7),
    // PASSED_THEIR_KING
    S(-4, 17),
    // ISOLATED
    S(-7, -13),
    // DOUBLED
    S(-7, -13),
    // BACKWARD
    S(-3, -18),
    // SUPPORTED
    S(0, 0), S(6, 6), S(11, 8), S(12, 13), S(26, 14), S(49, 69), S(226, 41), S(0, 0),
    // PHALANX
    S(0, 0), S(1, 2), S(7, 6), S(10, 10), S(11, 43), S(88, 66), S(163, 173), S(0, 0),
    // BISHOP_PAIR
    S(22, 57),
    // ROOK_OPEN
    S(32, -2),
    // ROOK_HALF_OPEN
    S(16, 12),
    // QUEEN_OPEN
    S(-14, 24),
    // QUEEN_HALF_OPEN
    S(5, 23),
    // ROOK_SEVENTH
    S(-20, 17),
    // KNIGHT_OUTPOST
    S(22, 7),
    // BISHOP_OUTPOST
    S(30, 13),
    // KING_DANGER
    S(6, 2),
    // SAFE_CHECK
    S(57, -7), S(14, 23), S(50, 5), S(29, 19),
    // SHIELD
    S(14, -13), S(8, -11),
    // STORM
    S(24, -18), S(-16, -6), S(1, -7), S(4, -5),
    // KING_OPEN_FILE
    S(-12, -19),
    // KING_HALF_OPEN_FILE
    S(-10, 0),
    // THREAT_BY_PAWN
    S(57, 35),
    // THREAT_BY_MINOR
    S(50, 18),
    // THREAT_BY_ROOK
    S(59, -12),
    // HANGING
    S(14, 38),
    // TEMPO
    S(25, 11),
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
