//! A stop for searches on hosts without threads: nothing can raise the
//! stop flag while the search runs on the only thread, so the search's own
//! calls to the evaluation ask the host now and then.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//!
//! use qi_core::Game;
//! use qi_engine::{EvalProfile, GameKit, JungleKit};
//! use qi_play::poll::Polled;
//! use qi_search::{Limits, SearchOptions, Searcher};
//!
//! let mut game = qi_jungle::Game::new(qi_jungle::Jungle::default());
//! let material = JungleKit::eval(EvalProfile::Default);
//! let mut searcher: Searcher<qi_jungle::Game> = Searcher::new(SearchOptions::default());
//! let stop = AtomicBool::new(false);
//! let mut asked = 0;
//! let mut poll = || {
//!     asked += 1;
//!     true
//! };
//! let eval = Polled::new(&material, &mut poll, &stop);
//! let result = searcher.search(&mut game, &eval, Limits::depth(30), &stop, |_| {});
//! drop(eval);
//! // The first poll stopped the search long before depth 30.
//! assert_eq!(asked, 1);
//! assert!(result.depth < 30);
//! ```

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};

use qi_core::{Evaluator, Position};

/// How many evaluations pass between two polls: a few milliseconds of
/// search, so a stop is quick and the host's poll costs nothing
/// measurable.
pub const POLL_EVERY: u32 = 4096;

/// An evaluator that asks `poll` every [`POLL_EVERY`] evaluations whether
/// to stop, and raises `stop` (the flag the search was given) when it says
/// yes; the scores are the inner evaluator's.
pub struct Polled<'a, E> {
    inner: &'a E,
    poll: RefCell<&'a mut dyn FnMut() -> bool>,
    count: Cell<u32>,
    stop: &'a AtomicBool,
}

impl<'a, E> Polled<'a, E> {
    /// `inner`, polling `poll` and raising `stop`.
    pub fn new(inner: &'a E, poll: &'a mut dyn FnMut() -> bool, stop: &'a AtomicBool) -> Self {
        Polled {
            inner,
            poll: RefCell::new(poll),
            count: Cell::new(0),
            stop,
        }
    }
}

impl<P: Position, E: Evaluator<P>> Evaluator<P> for Polled<'_, E> {
    fn evaluate(&self, pos: &P) -> i32 {
        let count = self.count.get() + 1;
        if count >= POLL_EVERY {
            self.count.set(0);
            if !self.stop.load(Ordering::Relaxed) && (self.poll.borrow_mut())() {
                self.stop.store(true, Ordering::Relaxed);
            }
        } else {
            self.count.set(count);
        }
        self.inner.evaluate(pos)
    }
}
