//! Correction history: how far static evaluation has been from what the
//! search then found, remembered per side to move and pawn structure, and
//! added to later static evaluations of positions with the same pawns.
//! Evaluation errors cluster by pawn structure (a blocked centre, a passer
//! the weights undervalue), so this learns, within a game, what the
//! hand-crafted terms miss.

use shakmaty::{Chess, Position as _};

use crate::position::pawn_hash;

use super::params::{
    CORRECTION_ENTRIES, CORRECTION_GRAIN, correction_max_cp, correction_max_weight,
};

pub struct Correction {
    /// Corrections in 1/CORRECTION_GRAIN centipawns, White's table first.
    table: Vec<i32>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction {
            table: vec![0; 2 * CORRECTION_ENTRIES],
        }
    }
}

fn slot(pos: &Chess) -> usize {
    let index = (pawn_hash(pos.board()) >> 32) as usize % CORRECTION_ENTRIES;
    pos.turn() as usize * CORRECTION_ENTRIES + index
}

impl Correction {
    /// `raw` (side to move's view) with what this pawn structure has taught.
    pub fn corrected(&self, pos: &Chess, raw: i32) -> i32 {
        // An evaluation of exactly 0 is mostly an ending the evaluation
        // knows to be drawn (scaled to nothing); a correction learnt from
        // won positions with the same pawns would undo that knowledge.
        if raw == 0 {
            return 0;
        }
        raw + self.table[slot(pos)] / CORRECTION_GRAIN
    }

    /// The search of `pos` to `depth` scored `found` where the corrected
    /// static evaluation said `predicted`: move the entry towards the error,
    /// faster for deeper searches.
    pub fn learn(&mut self, pos: &Chess, depth: i32, predicted: i32, found: i32) {
        let weight = (depth + 1).min(correction_max_weight());
        let error = (found - predicted) * CORRECTION_GRAIN;
        let limit = correction_max_cp() * CORRECTION_GRAIN;
        let entry = &mut self.table[slot(pos)];
        let blended = (*entry * (256 - weight) + error * weight) / 256;
        *entry = blended.clamp(-limit, limit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn board(fen: &str) -> Chess {
        Position::from_fen(fen).expect("test FEN").board().clone()
    }

    #[test]
    fn learns_towards_the_search_and_stays_bounded() {
        let mut c = Correction::default();
        let pos = board("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
        assert_eq!(c.corrected(&pos, 10), 10);
        for _ in 0..200 {
            c.learn(&pos, 12, c.corrected(&pos, 10), 5000);
        }
        assert_eq!(c.corrected(&pos, 10), 10 + correction_max_cp());
        // Same pawns, other pieces: same correction; other side to move: none.
        let moved = board("3k4/pp6/8/8/8/8/PP6/3K4 w - - 0 1");
        assert_eq!(c.corrected(&moved, 5), 5 + correction_max_cp());
        let other_side = board("4k3/pp6/8/8/8/8/PP6/4K3 b - - 0 1");
        assert_eq!(c.corrected(&other_side, 5), 5);
        // A drawn ending's 0 stays 0 whatever the pawns have taught.
        assert_eq!(c.corrected(&pos, 0), 0);
    }
}
