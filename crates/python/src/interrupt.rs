//! Long computations that Ctrl-C interrupts.
//!
//! Python runs its signal handlers only on the main thread, between
//! bytecodes, so a computation that holds the thread in Rust ignores
//! SIGINT until it ends. The work therefore runs on a worker thread while
//! the calling thread, with the GIL released, waits for it in short slices
//! and checks the signals between them; on an exception it raises the
//! work's stop flag and waits for the worker to notice.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Mutex;
use std::thread;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How long the waiting thread waits between two checks of the signals.
const POLL: Duration = Duration::from_millis(20);

/// Runs `work` on a worker thread, returning its result, or the exception
/// a signal handler raised (KeyboardInterrupt for Ctrl-C) once `stop` has
/// been raised and the worker has finished.
pub(crate) fn run<T, F>(py: Python<'_>, stop: &AtomicBool, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    let (sender, receiver) = mpsc::sync_channel(1);
    // Only this thread receives; the mutex is there because a `Receiver`
    // may not be shared with the GIL-free closure otherwise.
    let receiver = Mutex::new(receiver);
    let receive = |wait: Option<Duration>| {
        let receiver = receiver.lock().unwrap_or_else(|e| e.into_inner());
        match wait {
            Some(wait) => receiver.recv_timeout(wait),
            None => receiver.recv().map_err(|_| RecvTimeoutError::Disconnected),
        }
    };
    thread::scope(|scope| {
        scope.spawn(move || {
            // The receiver is gone only when the caller has given up.
            let _ = sender.send(work());
        });
        loop {
            match py.detach(|| receive(Some(POLL))) {
                Ok(value) => return Ok(value),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(error) = py.check_signals() {
                        stop.store(true, Ordering::Relaxed);
                        // The worker ends soon after the flag; wait for it
                        // without the GIL so other threads keep running.
                        let _ = py.detach(|| receive(None));
                        return Err(error);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err(
                        "the worker thread ended without a result (it panicked)",
                    ))
                }
            }
        }
    })
}
