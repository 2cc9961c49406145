//! Perft: counts the leaf nodes of the legal move tree, for checking move
//! generation. Copy-make, with the last ply counted in bulk.

use shakmaty::{Chess, Move, Position};

pub fn perft(pos: &Chess, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_moves().len() as u64,
        _ => pos
            .legal_moves()
            .iter()
            .map(|m| {
                let mut child = pos.clone();
                child.play_unchecked(*m);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// Node counts below each root move, in move generation order.
pub fn divide(pos: &Chess, depth: u32) -> Vec<(Move, u64)> {
    divide_until(pos, depth, &|| false).unwrap_or_default()
}

/// Leaf nodes of a divide at `depth`: the sum over root moves, and 1 for
/// depth 0, where the root itself is the only leaf.
pub fn total(divide: &[(Move, u64)], depth: u32) -> u64 {
    if depth == 0 {
        1
    } else {
        divide.iter().map(|(_, n)| n).sum()
    }
}

/// Like `divide`, but gives up (None) once `stopped` says so; it is asked
/// every few thousand nodes, so a deep perft can be interrupted.
pub fn divide_until(
    pos: &Chess,
    depth: u32,
    stopped: &dyn Fn() -> bool,
) -> Option<Vec<(Move, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(*m);
            perft_until(&child, depth - 1, stopped).map(|n| (*m, n))
        })
        .collect()
}

fn perft_until(pos: &Chess, depth: u32, stopped: &dyn Fn() -> bool) -> Option<u64> {
    // Below this depth a subtree takes well under a millisecond.
    const CHECK_ABOVE: u32 = 3;
    if depth <= CHECK_ABOVE {
        return Some(perft(pos, depth));
    }
    if stopped() {
        return None;
    }
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(*m);
            perft_until(&child, depth - 1, stopped)
        })
        .sum()
}

/// One line of a perft EPD suite: a FEN and the expected count per depth.
#[derive(Debug, Clone)]
pub struct PerftCase {
    pub fen: String,
    pub expected: Vec<(u32, u64)>,
}

/// Parses lines like `<fen> ;D1 20 ;D2 400`. Lines that do not parse are
/// skipped with a log message.
pub fn parse_suite(text: &str) -> Vec<PerftCase> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next()?.trim().to_string();
            let expected: Option<Vec<(u32, u64)>> = parts
                .map(|p| {
                    let mut it = p.split_whitespace();
                    let d = it.next()?.strip_prefix('D')?.parse().ok()?;
                    let n = it.next()?.parse().ok()?;
                    Some((d, n))
                })
                .collect();
            match expected {
                Some(expected) => Some(PerftCase { fen, expected }),
                None => {
                    log::warn!("skipping unreadable perft line: {line}");
                    None
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_to_depth_four() {
        assert_eq!(perft(&Chess::default(), 4), 197_281);
        assert_eq!(divide(&Chess::default(), 2).len(), 20);
        assert_eq!(total(&divide(&Chess::default(), 3), 3), 8_902);
        assert_eq!(total(&divide(&Chess::default(), 0), 0), 1);
    }

    #[test]
    fn suite_lines_parse() {
        let cases = parse_suite(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n\n",
        );
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].expected, vec![(1, 20), (2, 400)]);
    }
}
