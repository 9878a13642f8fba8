//! State shared between Python threads.
//!
//! The classes are `frozen` and keep their state behind a mutex instead of
//! PyO3's borrow flag: a method that releases the GIL while it works (a
//! batch step, a search) would otherwise make any other thread's call on
//! the same object fail with "Already borrowed". With the mutex the other
//! call waits its turn.

use std::sync::{Mutex, MutexGuard, TryLockError};

use pyo3::Python;

/// A value behind a mutex that is waited for with the GIL released.
pub(crate) struct Shared<T>(Mutex<T>);

impl<T: Send> Shared<T> {
    pub(crate) fn new(value: T) -> Shared<T> {
        Shared(Mutex::new(value))
    }

    /// Locks the value. When another thread holds it, waits with the GIL
    /// released, so that the holder (which may need the GIL to finish) is
    /// never blocked by this wait. A lock poisoned by a panic still gives
    /// the value: every change is made whole or not at all.
    pub(crate) fn lock(&self, py: Python<'_>) -> MutexGuard<'_, T> {
        loop {
            match self.0.try_lock() {
                Ok(guard) => return guard,
                Err(TryLockError::Poisoned(poisoned)) => return poisoned.into_inner(),
                Err(TryLockError::WouldBlock) => py.detach(|| drop(self.0.lock())),
            }
        }
    }

    /// The value, when this is the only reference (no lock needed).
    pub(crate) fn get_mut(&mut self) -> &mut T {
        self.0.get_mut().unwrap_or_else(|e| e.into_inner())
    }
}
