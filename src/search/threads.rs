//! Lazy SMP: helper threads search the same root through the shared
//! transposition table, each with its own history, while the main thread
//! reports and decides. The helpers' entries in the table deepen and
//! reorder the main thread's search; nothing else passes between them.

use std::thread;

use super::{History, Limits, SearchControl, SearchEvent, SearchOptions, SearchResult, Searcher};
use crate::position::Position;
use crate::tt::TranspositionTable;

/// Stack for a search thread: the recursion goes `MAX_PLY` deep with
/// sizeable frames.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// Searches `root` with one thread per entry of `histories` (the first is
/// the calling thread's, the main one) and returns the main thread's
/// result. Only the main thread reports, keeps time and obeys `ctl`; the
/// helpers stop when it does. A helper that cannot be started is left out.
pub fn search_with_threads(
    root: &Position,
    limits: &Limits,
    options: &SearchOptions,
    tt: &TranspositionTable,
    ctl: &SearchControl,
    histories: &mut [History],
    report: &mut dyn FnMut(SearchEvent),
) -> SearchResult {
    tt.new_search();
    let Some((main_history, helper_histories)) = histories.split_first_mut() else {
        let mut history = History::default();
        return Searcher::new(root, limits, options, tt, ctl, &mut history)
            .run(root, options, report);
    };
    let helper_ctl = SearchControl::new(false);
    let helper_limits = helper_limits(limits);
    let helper_options = SearchOptions {
        multipv: 1,
        ..options.clone()
    };
    thread::scope(|scope| {
        // Every handle is kept and joined. Dropping one detaches its thread,
        // and glibc 2.36 (Debian 12) can read a helper's freed descriptor
        // when the detach races with the helper's exit (a search stopped
        // at once): `pthread_detach` crashed a search thread so in CI.
        let mut helpers = Vec::with_capacity(helper_histories.len());
        for (index, history) in helper_histories.iter_mut().enumerate() {
            let (limits, options, ctl) = (&helper_limits, &helper_options, &helper_ctl);
            let spawned = thread::Builder::new()
                .name(format!("helper {}", index + 1))
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut searcher = Searcher::new(root, limits, options, tt, ctl, history);
                    searcher.run(root, options, &mut |_| {});
                });
            match spawned {
                Ok(handle) => helpers.push(handle),
                Err(e) => {
                    log::warn!("cannot start search helper {}: {e}", index + 1);
                    break;
                }
            }
        }
        let mut main =
            Searcher::new(root, limits, options, tt, ctl, main_history).with_helpers(&helper_ctl);
        let result = main.run(root, options, report);
        helper_ctl.stop();
        for (index, handle) in helpers.into_iter().enumerate() {
            if handle.join().is_err() {
                log::error!("search helper {} panicked", index + 1);
            }
        }
        result
    })
}

/// A helper searches the same moves to the same depth, but with no clock,
/// node budget or pondering of its own: the main thread stops it.
fn helper_limits(limits: &Limits) -> Limits {
    Limits {
        depth: limits.depth,
        searchmoves: limits.searchmoves.clone(),
        ..Limits::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{MATE_BOUND, SearchEvent};
    use shakmaty::Position as _;

    fn histories(n: usize) -> Vec<History> {
        (0..n).map(|_| History::default()).collect()
    }

    fn search(fen: &str, limits: &Limits, threads: usize) -> (SearchResult, u64) {
        let pos = Position::from_fen(fen).unwrap();
        let tt = TranspositionTable::new(8).unwrap();
        let ctl = SearchControl::new(false);
        let mut last_reported = 0;
        let result = search_with_threads(
            &pos,
            limits,
            &SearchOptions::default(),
            &tt,
            &ctl,
            &mut histories(threads),
            &mut |e| {
                if let SearchEvent::Iteration(r) = e {
                    last_reported = r.nodes;
                }
            },
        );
        (result, last_reported)
    }

    #[test]
    fn helpers_leave_the_main_thread_its_mate() {
        // A back-rank mate (Rd8): with any number of threads the main
        // thread reports the mate and a legal move at the depth asked for.
        let fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
        for threads in [1, 2, 4] {
            let (result, _) = search(fen, &Limits::depth(6), threads);
            assert!(
                result.score >= MATE_BOUND,
                "{threads} threads: {}",
                result.score
            );
            assert_eq!(result.depth, 6, "{threads} threads");
            let pos = Position::from_fen(fen).unwrap();
            let best = result.best.expect("a best move");
            assert!(pos.board().is_legal(best), "{threads} threads: {best:?}");
        }
    }

    #[test]
    fn a_node_budget_counts_the_helpers_nodes() {
        let limits = Limits {
            nodes: Some(300_000),
            ..Limits::default()
        };
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let (result, reported) = search(fen, &limits, 3);
        assert!(result.nodes >= 300_000, "{}", result.nodes);
        // The main thread stops at the budget; the helpers run on only
        // until it has unwound and told them to stop.
        assert!(result.nodes < 400_000, "{}", result.nodes);
        assert!(reported <= result.nodes);
    }

    #[test]
    fn published_helper_nodes_stop_a_budgeted_main_thread_early() {
        let pos = Position::startpos();
        let tt = TranspositionTable::new(1).unwrap();
        let (ctl, helpers) = (SearchControl::new(false), SearchControl::new(false));
        helpers.add_nodes(50_000);
        let limits = Limits {
            nodes: Some(60_000),
            ..Limits::default()
        };
        let options = SearchOptions::default();
        let mut history = History::default();
        let result = Searcher::new(&pos, &limits, &options, &tt, &ctl, &mut history)
            .with_helpers(&helpers)
            .run(&pos, &options, &mut |_| {});
        assert_eq!(result.nodes, 60_000);
    }
}
