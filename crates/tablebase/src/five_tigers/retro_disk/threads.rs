//! The out-of-core generator's pool of threads: each takes the next job
//! as it finishes one.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::driver::join_workers;
use crate::exec::GenerateDirError;

/// Runs `task(i)` for `i` in `0..n` on `threads` threads, each taking the
/// next `i` as it finishes one.
pub(super) fn on_threads(
    n: usize,
    threads: usize,
    task: impl Fn(usize) -> Result<(), GenerateDirError> + Sync,
) -> Result<(), GenerateDirError> {
    let next = AtomicUsize::new(0);
    let failed: Mutex<Option<GenerateDirError>> = Mutex::new(None);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.clamp(1, n.max(1)))
            .map(|_| {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n || crate::exec::lock(&failed).is_some() {
                            break;
                        }
                        if let Err(e) = task(i) {
                            crate::exec::lock(&failed).get_or_insert(e);
                            break;
                        }
                    }
                    Ok(())
                })
            })
            .collect();
        for r in join_workers(workers) {
            if let Err(e) = r {
                crate::exec::lock(&failed).get_or_insert(e.into());
            }
        }
    });
    match failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
