//! Lazy SMP: helper threads search copies of the game on the shared
//! transposition table and leave their results there for the calling
//! thread, whose iterations alone make the result and the `info` calls.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use web_time::Instant;

use qi_core::{Evaluator, Game};

use super::context::{NodeSharing, SharedCounts};
use super::wait_for;
use super::worker::{ThreadState, Worker};
use crate::hooks::{MoveOf, SearchHooks};
use crate::limits::{Limits, SearchOptions};
use crate::report::{SearchInfo, SearchResult};
use crate::tt::SharedTable;

/// One Lazy SMP search: the calling thread's tables, and what every thread
/// shares.
pub(super) struct LazySmp<'a, G: Game, H> {
    pub(super) options: SearchOptions,
    pub(super) hooks: &'a H,
    pub(super) table: &'a SharedTable<MoveOf<G>>,
    /// The calling thread's tables (helpers start from empty ones).
    pub(super) state: &'a mut ThreadState<MoveOf<G>>,
    /// Threads besides the calling one.
    pub(super) helpers: usize,
    /// The root moves every thread searches (empty: all).
    pub(super) root_only: &'a [MoveOf<G>],
}

impl<G, H> LazySmp<'_, G, H>
where
    G: Game + Send,
    H: SearchHooks<G> + Sync,
    MoveOf<G>: Send + Sync,
{
    /// Searches on the calling thread while the helpers run, then stops
    /// and joins them, adding their nodes and table hits to the result. Leaves `elapsed`
    /// for the caller.
    pub(super) fn search<E, F>(
        self,
        game: &mut G,
        eval: &E,
        limits: Limits,
        stop: &AtomicBool,
        start: Instant,
        info: F,
    ) -> SearchResult<MoveOf<G>>
    where
        E: Evaluator<G::Position> + Sync,
        F: FnMut(&SearchInfo<MoveOf<G>>),
    {
        let LazySmp {
            options,
            hooks,
            table,
            state,
            helpers,
            root_only,
        } = self;
        let helpers_stop = AtomicBool::new(false);
        let helper_counts = SharedCounts::default();
        // The calling thread's limits end the search: helpers have no node
        // limit or clock of their own and run until told to stop.
        let helper_limits = Limits {
            nodes: None,
            infinite: true,
            ..limits
        };
        thread::scope(|scope| {
            let handles: Vec<_> = (0..helpers)
                .map(|i| {
                    let mut copy = game.clone();
                    let helpers_stop = &helpers_stop;
                    let sharing = NodeSharing::Helper(&helper_counts);
                    // Helpers start alternately one and two plies deeper
                    // than the calling thread, so that their trees differ
                    // from its tree and from each other's.
                    let depth_offset = (i % 2) as u32 + 1;
                    scope.spawn(move || {
                        let mut st =
                            ThreadState::new(<G::Position as qi_core::Position>::MOVE_INDEX_COUNT);
                        // Helpers fill the table for the main thread's
                        // lines; searching lines of their own would only
                        // slow them.
                        let options = SearchOptions {
                            multi_pv: 1,
                            ..options
                        };
                        let mut worker =
                            Worker::new(options, hooks, table, &mut st, depth_offset, sharing);
                        worker.root_only = root_only;
                        worker.iterate(&mut copy, eval, helper_limits, helpers_stop, start, |_| {})
                    })
                })
                .collect();
            let sharing = NodeSharing::Main(&helper_counts);
            let mut main = Worker::new(options, hooks, table, state, 0, sharing);
            main.root_only = root_only;
            let mut result = main.iterate(game, eval, limits, stop, start, info);
            if limits.infinite {
                wait_for(stop);
            }
            helpers_stop.store(true, Ordering::Relaxed);
            for handle in handles {
                if let Ok(helper) = handle.join() {
                    result.nodes += helper.nodes;
                    result.tbhits += helper.tbhits;
                }
            }
            result
        })
    }
}
