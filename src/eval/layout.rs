//! Where each weight sits in `params::WEIGHTS`. The layout is fixed by hand;
//! the values in `params.rs` are written by `kestrel tune`.

/// Piece values, indexed by `Role as usize - 1` (pawn … king).
pub const MATERIAL: usize = 0;
/// Piece-square tables: `PSQT + 64 * (role - 1) + 8 * relative_rank + file`,
/// with the board mirrored left-right when the piece's own king stands on
/// files a–d, so the tables read "king's wing" and "other wing" rather than
/// kingside and queenside (and the evaluation stays left-right symmetric).
pub const PSQT: usize = MATERIAL + 6;
/// Mobility by number of safe squares reached (not own pieces, not attacked
/// by enemy pawns).
pub const MOB_KNIGHT: usize = PSQT + 6 * 64;
pub const MOB_BISHOP: usize = MOB_KNIGHT + 9;
pub const MOB_ROOK: usize = MOB_BISHOP + 14;
pub const MOB_QUEEN: usize = MOB_ROOK + 15;
/// Passed pawns by relative rank.
pub const PASSED: usize = MOB_QUEEN + 28;
/// Extra for a passer whose path to promotion is empty, by relative rank.
pub const PASSED_FREE: usize = PASSED + 8;
/// Extra for a passer whose stop square holds an enemy piece, by relative rank.
pub const PASSED_BLOCKED: usize = PASSED_FREE + 8;
/// Extra for a passer whose stop square is empty and not attacked by the
/// enemy, by relative rank.
pub const PASSED_SAFE_STOP: usize = PASSED_BLOCKED + 8;
/// Per square of king distance to the passer's stop square, times
/// `relative_rank - 2` (at least 0).
pub const PASSED_OWN_KING: usize = PASSED_SAFE_STOP + 8;
pub const PASSED_THEIR_KING: usize = PASSED_OWN_KING + 1;
pub const ISOLATED: usize = PASSED_THEIR_KING + 1;
pub const DOUBLED: usize = ISOLATED + 1;
pub const BACKWARD: usize = DOUBLED + 1;
/// Pawn defended by a pawn, by relative rank.
pub const SUPPORTED: usize = BACKWARD + 1;
/// Pawn with a pawn beside it, by relative rank.
pub const PHALANX: usize = SUPPORTED + 8;
pub const BISHOP_PAIR: usize = PHALANX + 8;
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
pub const ROOK_HALF_OPEN: usize = ROOK_OPEN + 1;
pub const QUEEN_OPEN: usize = ROOK_HALF_OPEN + 1;
pub const QUEEN_HALF_OPEN: usize = QUEEN_OPEN + 1;
/// Rook on the seventh rank with the enemy king on the eighth or enemy
/// pawns on the seventh.
pub const ROOK_SEVENTH: usize = QUEEN_HALF_OPEN + 1;
pub const KNIGHT_OUTPOST: usize = ROOK_SEVENTH + 1;
pub const BISHOP_OUTPOST: usize = KNIGHT_OUTPOST + 1;
/// Per own pawn on the squares of a bishop's colour, per bishop.
pub const BISHOP_PAWNS: usize = BISHOP_OUTPOST + 1;
/// A knight or bishop with a pawn of either colour right in front of it.
pub const MINOR_BEHIND_PAWN: usize = BISHOP_PAWNS + 1;
/// King danger as a curve over attack units (fixed per-piece weights of
/// attacks on the enemy king zone, see `params::KING_ATTACK_UNITS`): the
/// value at `KING_DANGER_STEP * i` units is weight `i`, linear in between,
/// flat past the last knot. The tuner fits the shape, and the evaluation
/// stays linear in the weights.
pub const KING_DANGER: usize = MINOR_BEHIND_PAWN + 1;
pub const KING_DANGER_KNOTS: usize = 16;
pub const KING_DANGER_STEP: i32 = 4;
/// Safe checks available to a knight, bishop, rook, queen (count of squares).
pub const SAFE_CHECK: usize = KING_DANGER + KING_DANGER_KNOTS;
/// Own pawns in front of the king on its file and the adjacent ones: one
/// rank ahead, two ranks ahead.
pub const SHIELD: usize = SAFE_CHECK + 4;
/// Enemy pawns on the king's file and the adjacent ones, 1 to 4 ranks ahead.
pub const STORM: usize = SHIELD + 2;
/// Files at or beside the king with no pawns at all / only enemy pawns.
pub const KING_OPEN_FILE: usize = STORM + 4;
pub const KING_HALF_OPEN_FILE: usize = KING_OPEN_FILE + 1;
/// A pawn attacking a piece.
pub const THREAT_BY_PAWN: usize = KING_HALF_OPEN_FILE + 1;
/// A knight or bishop, or a rook, attacking an enemy piece or a pawn that
/// no enemy pawn defends, by the victim's role (pawn … queen).
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1;
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 5;
/// The king attacking an undefended enemy piece or pawn.
pub const THREAT_BY_KING: usize = THREAT_BY_ROOK + 5;
/// An undefended piece or pawn that is attacked.
pub const HANGING: usize = THREAT_BY_KING + 1;
/// A pawn push to a square no enemy pawn attacks (and that the enemy does
/// not attack more safely than we defend) that would attack an enemy piece.
pub const PAWN_PUSH_THREAT: usize = HANGING + 1;
/// Distance of each own knight and bishop to its own king (Chebyshev).
pub const KING_PROTECTOR: usize = PAWN_PUSH_THREAT + 1;
/// Safe central squares on our side of the board (files c–f, ranks 2–4,
/// not attacked by enemy pawns), counted twice behind our own pawns.
pub const SPACE: usize = KING_PROTECTOR + 2;
/// Own pawns, counted once per own knight and once per own rook (knights
/// gain from a closed board, rooks from an open one).
pub const KNIGHT_PAWNS: usize = SPACE + 1;
pub const ROOK_PAWNS: usize = KNIGHT_PAWNS + 1;
/// A bishop that sees both central squares of a long diagonal through
/// anything but pawns.
pub const LONG_DIAGONAL: usize = ROOK_PAWNS + 1;
/// An isolated or backward pawn with no enemy pawn in front of it on its
/// file, where enemy rooks and queens can attack it.
pub const WEAK_UNOPPOSED: usize = LONG_DIAGONAL + 1;
/// An own rook behind a passed pawn on its file.
pub const ROOK_BEHIND_PASSER: usize = WEAK_UNOPPOSED + 1;
pub const TEMPO: usize = ROOK_BEHIND_PASSER + 1;
/// How winnable the position is, added for the side ahead in the endgame
/// part (so it pulls towards or away from a draw rather than towards a
/// colour): a constant, pawns on the board, passed pawns, king
/// outflanking (file distance minus rank distance), pawns on both wings,
/// and a pure pawn ending. See `COMPLEXITY_FEATURES`.
pub const COMPLEXITY: usize = TEMPO + 1;
pub const COMPLEXITY_FEATURES: usize = 6;
/// An enemy piece pinned to its king by one of ours, by the pinned role
/// (pawn … queen).
pub const PIN: usize = COMPLEXITY + COMPLEXITY_FEATURES;
/// Squares of the enemy king zone we attack that the enemy defends only
/// with its king or queen, or not at all.
pub const KING_ZONE_WEAK: usize = PIN + 5;
/// Squares both sides attack where the enemy has no pawn defence.
pub const RESTRICTED: usize = KING_ZONE_WEAK + 1;
/// Safe squares from which a knight, or a bishop or rook, of ours could
/// attack the enemy's only queen next move.
pub const KNIGHT_ON_QUEEN: usize = RESTRICTED + 1;
pub const SLIDER_ON_QUEEN: usize = KNIGHT_ON_QUEEN + 1;
/// Our king on a wing (its file and the adjacent ones) without any pawns.
pub const PAWNLESS_FLANK: usize = SLIDER_ON_QUEEN + 1;
/// A pawn on the fifth or sixth rank with an enemy pawn right in front.
pub const BLOCKED_PAWN: usize = PAWNLESS_FLANK + 1;
/// A knight one move away from an outpost square.
pub const REACHABLE_OUTPOST: usize = BLOCKED_PAWN + 2;
pub const N_WEIGHTS: usize = REACHABLE_OUTPOST + 1;

/// Name, first index and length of every block, in order.
pub const BLOCKS: &[(&str, usize, usize)] = &[
    ("MATERIAL", MATERIAL, 6),
    ("PSQT pawn", PSQT, 64),
    ("PSQT knight", PSQT + 64, 64),
    ("PSQT bishop", PSQT + 128, 64),
    ("PSQT rook", PSQT + 192, 64),
    ("PSQT queen", PSQT + 256, 64),
    ("PSQT king", PSQT + 320, 64),
    ("MOB_KNIGHT", MOB_KNIGHT, 9),
    ("MOB_BISHOP", MOB_BISHOP, 14),
    ("MOB_ROOK", MOB_ROOK, 15),
    ("MOB_QUEEN", MOB_QUEEN, 28),
    ("PASSED", PASSED, 8),
    ("PASSED_FREE", PASSED_FREE, 8),
    ("PASSED_BLOCKED", PASSED_BLOCKED, 8),
    ("PASSED_SAFE_STOP", PASSED_SAFE_STOP, 8),
    ("PASSED_OWN_KING", PASSED_OWN_KING, 1),
    ("PASSED_THEIR_KING", PASSED_THEIR_KING, 1),
    ("ISOLATED", ISOLATED, 1),
    ("DOUBLED", DOUBLED, 1),
    ("BACKWARD", BACKWARD, 1),
    ("SUPPORTED", SUPPORTED, 8),
    ("PHALANX", PHALANX, 8),
    ("BISHOP_PAIR", BISHOP_PAIR, 1),
    ("ROOK_OPEN", ROOK_OPEN, 1),
    ("ROOK_HALF_OPEN", ROOK_HALF_OPEN, 1),
    ("QUEEN_OPEN", QUEEN_OPEN, 1),
    ("QUEEN_HALF_OPEN", QUEEN_HALF_OPEN, 1),
    ("ROOK_SEVENTH", ROOK_SEVENTH, 1),
    ("KNIGHT_OUTPOST", KNIGHT_OUTPOST, 1),
    ("BISHOP_OUTPOST", BISHOP_OUTPOST, 1),
    ("BISHOP_PAWNS", BISHOP_PAWNS, 1),
    ("MINOR_BEHIND_PAWN", MINOR_BEHIND_PAWN, 1),
    ("KING_DANGER", KING_DANGER, KING_DANGER_KNOTS),
    ("SAFE_CHECK", SAFE_CHECK, 4),
    ("SHIELD", SHIELD, 2),
    ("STORM", STORM, 4),
    ("KING_OPEN_FILE", KING_OPEN_FILE, 1),
    ("KING_HALF_OPEN_FILE", KING_HALF_OPEN_FILE, 1),
    ("THREAT_BY_PAWN", THREAT_BY_PAWN, 1),
    ("THREAT_BY_MINOR", THREAT_BY_MINOR, 5),
    ("THREAT_BY_ROOK", THREAT_BY_ROOK, 5),
    ("THREAT_BY_KING", THREAT_BY_KING, 1),
    ("HANGING", HANGING, 1),
    ("PAWN_PUSH_THREAT", PAWN_PUSH_THREAT, 1),
    ("KING_PROTECTOR", KING_PROTECTOR, 2),
    ("SPACE", SPACE, 1),
    ("KNIGHT_PAWNS", KNIGHT_PAWNS, 1),
    ("ROOK_PAWNS", ROOK_PAWNS, 1),
    ("LONG_DIAGONAL", LONG_DIAGONAL, 1),
    ("WEAK_UNOPPOSED", WEAK_UNOPPOSED, 1),
    ("ROOK_BEHIND_PASSER", ROOK_BEHIND_PASSER, 1),
    ("TEMPO", TEMPO, 1),
    ("COMPLEXITY", COMPLEXITY, COMPLEXITY_FEATURES),
    ("PIN", PIN, 5),
    ("KING_ZONE_WEAK", KING_ZONE_WEAK, 1),
    ("RESTRICTED", RESTRICTED, 1),
    ("KNIGHT_ON_QUEEN", KNIGHT_ON_QUEEN, 1),
    ("SLIDER_ON_QUEEN", SLIDER_ON_QUEEN, 1),
    ("PAWNLESS_FLANK", PAWNLESS_FLANK, 1),
    ("BLOCKED_PAWN", BLOCKED_PAWN, 2),
    ("REACHABLE_OUTPOST", REACHABLE_OUTPOST, 1),
];

/// Weights the tuner leaves alone: the king has no material value, and its
/// piece-square table is only read on files e–h (a king on a–d is mirrored).
pub fn is_frozen(index: usize) -> bool {
    let king_psqt = PSQT + 5 * 64;
    let on_queen_side = (king_psqt..king_psqt + 64).contains(&index) && (index - king_psqt) % 8 < 4;
    index == MATERIAL + 5 || on_queen_side
}
