//! Command-line tools around the engine: perft, bench, EPD suites.

pub mod bench;
pub mod datagen;
pub mod epd;
pub mod nnue_train;
pub mod perft;
pub mod tune;

/// Runs `f` on `items` split into one chunk per thread, each chunk in its
/// own scoped thread, and returns the results in chunk order. A worker's
/// panic is passed on to the caller rather than hidden.
pub(crate) fn map_chunks<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&[T]) -> R + Sync,
) -> Vec<R> {
    let chunk = items.len().div_ceil(threads.max(1)).max(1);
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = items.chunks(chunk).map(|c| s.spawn(move || f(c))).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}
