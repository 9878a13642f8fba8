//! State shared between Python threads.
//!
//! The classes are `frozen` and keep their state behind a mutex instead of
//! PyO3's borrow flag: a method that releases the GIL while it works (a
//! batch step, a search) would otherwise make any other thread's call on
//! the same object fail with "Already borrowed". With the mutex the other
//! call waits its turn.
//!
//! The turns are first come, first served (a ticket lock): a bare mutex
//! let a thread that calls again as soon as its call returns (a loop of
//! searches) take the lock back before a waiting thread had reacquired the
//! GIL, and kept that thread waiting for seconds.

use std::ops::{Deref, DerefMut};
use std::sync::{Condvar, Mutex, MutexGuard};

use pyo3::Python;

/// A value behind a mutex that is waited for with the GIL released, in
/// the order the calls came.
pub(crate) struct Shared<T> {
    value: Mutex<T>,
    turns: Mutex<Turns>,
    turn_changed: Condvar,
}

/// The tickets handed out and the one being served.
#[derive(Default)]
struct Turns {
    next: u64,
    serving: u64,
}

/// The value while its turn lasts. The fields drop in order: the value's
/// lock first, then the turn, which serves the next ticket.
pub(crate) struct SharedGuard<'a, T> {
    value: MutexGuard<'a, T>,
    _turn: Turn<'a>,
}

/// A turn being served: dropping it serves the next ticket.
struct Turn<'a> {
    turns: &'a Mutex<Turns>,
    turn_changed: &'a Condvar,
}

impl<T: Send> Shared<T> {
    pub(crate) fn new(value: T) -> Shared<T> {
        Shared {
            value: Mutex::new(value),
            turns: Mutex::new(Turns::default()),
            turn_changed: Condvar::new(),
        }
    }

    /// Locks the value once the calls that came before this one are done.
    /// While it waits the GIL is released, so that the holder (which may
    /// need the GIL to finish) is never blocked by this wait. A lock
    /// poisoned by a panic still gives the value: every change is made
    /// whole or not at all.
    pub(crate) fn lock(&self, py: Python<'_>) -> SharedGuard<'_, T> {
        let mut turns = self.turns();
        let ticket = turns.next;
        turns.next += 1;
        if turns.serving != ticket {
            drop(turns);
            py.detach(|| {
                let turns = self.turns();
                drop(
                    self.turn_changed
                        .wait_while(turns, |t| t.serving != ticket)
                        .unwrap_or_else(|e| e.into_inner()),
                );
            });
        } else {
            drop(turns);
        }
        // Only the ticket being served locks the value, and the previous
        // one unlocked it before serving this one, so this never waits.
        let value = self.value.lock().unwrap_or_else(|e| e.into_inner());
        SharedGuard {
            value,
            _turn: Turn {
                turns: &self.turns,
                turn_changed: &self.turn_changed,
            },
        }
    }

    /// The value, when this is the only reference (no lock needed).
    pub(crate) fn get_mut(&mut self) -> &mut T {
        self.value.get_mut().unwrap_or_else(|e| e.into_inner())
    }

    fn turns(&self) -> MutexGuard<'_, Turns> {
        self.turns.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut turns = self.turns.lock().unwrap_or_else(|e| e.into_inner());
        turns.serving += 1;
        drop(turns);
        self.turn_changed.notify_all();
    }
}

impl<T> Deref for SharedGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> DerefMut for SharedGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.value
    }
}
