//! Work shared out over threads: the one pool of the generators, the
//! writers and the probes' shared state.
//!
//! Every parallel step of the crate is "these parts (or jobs) on `n`
//! threads, their results, or the first error": [`as_made`] runs it and
//! [`in_order`] gives the results in part order. Std's scoped threads
//! borrow the caller's slices as they are; the parts are coarse (a
//! material, a range of millions of slots, a batch of blocks), so a
//! thread spawned a call costs little beside its work, and a run's
//! `--threads` bounds its threads without a global pool to configure.
//! That is why the crate does not depend on rayon.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex, MutexGuard};

/// Runs `work` on each of `items` on up to `threads` threads, each
/// taking the next item as it finishes one (on this thread when one
/// suffices), and hands each result to `made` on this thread as soon as
/// it is made. The first error stops the threads from taking new items
/// and is returned once the items under way are done (their results
/// still go to `made`). A worker's panic is a bug: it goes on, as the
/// same panic, on this thread.
pub(crate) fn as_made<I, R, E>(
    items: I,
    threads: usize,
    work: impl Fn(I::Item) -> Result<R, E> + Sync,
    mut made: impl FnMut(R),
) -> Result<(), E>
where
    I: IntoIterator,
    I::IntoIter: ExactSizeIterator + Send,
    R: Send,
    E: Send,
{
    let items = items.into_iter();
    let workers = threads.clamp(1, items.len().max(1));
    if workers == 1 {
        for item in items {
            made(work(item)?);
        }
        return Ok(());
    }
    let queue = Mutex::new(items);
    let stop = AtomicBool::new(false);
    let (send, results) = mpsc::channel();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                let send = send.clone();
                let (queue, stop, work) = (&queue, &stop, &work);
                scope.spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        let Some(item) = lock(queue).next() else {
                            break;
                        };
                        let result = work(item);
                        if result.is_err() {
                            stop.store(true, Ordering::Relaxed);
                        }
                        if send.send(result).is_err() {
                            break;
                        }
                    }
                })
            })
            .collect();
        // Every worker holds a sender: the loop ends when the last one
        // is done.
        drop(send);
        let mut failed = None;
        for result in results {
            match result {
                Ok(r) => made(r),
                Err(e) => {
                    failed.get_or_insert(e);
                }
            }
        }
        for handle in handles {
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
        failed.map_or(Ok(()), Err)
    })
}

/// The results of `work` on each of `items`, in the items' order, made
/// on up to `threads` threads as [`as_made`] makes them; or the first
/// error.
pub(crate) fn in_order<I, R, E>(
    items: I,
    threads: usize,
    work: impl Fn(I::Item) -> Result<R, E> + Sync,
) -> Result<Vec<R>, E>
where
    I: IntoIterator,
    I::IntoIter: ExactSizeIterator + Send,
    R: Send,
    E: Send,
{
    let items = items.into_iter();
    let mut slots: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    as_made(
        items.enumerate(),
        threads,
        |(i, item)| work(item).map(|r| (i, r)),
        |(i, r)| slots[i] = Some(r),
    )?;
    Ok(slots.into_iter().flatten().collect())
}

/// Locks `m`, going on after a panic elsewhere: what the crate's mutexes
/// guard (a queue of jobs, a first error, a cache and a file's offset,
/// running totals) is left whole by a thread that panicked between two
/// statements.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests;
