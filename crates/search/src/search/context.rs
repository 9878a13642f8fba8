//! What one search thread knows of the whole search: when to stop (the
//! stop flag, the deadline, the node limit), its counters, and how its node
//! and table-hit counts reach the `info` lines.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use web_time::Instant;

use super::params::CHECK_EVERY;

/// The counters Lazy SMP helpers add to as they poll.
#[derive(Debug, Default)]
pub(super) struct SharedCounts {
    pub(super) nodes: AtomicU64,
    pub(super) tbhits: AtomicU64,
}

/// How a search thread shares its node and table-hit counts with the
/// others, so that the main thread's `info` lines count every thread's.
/// (Where the target has one thread, only `Alone` is ever made.)
#[derive(Clone, Copy)]
#[cfg_attr(
    all(target_family = "wasm", not(target_feature = "atomics")),
    allow(dead_code)
)]
pub(super) enum NodeSharing<'a> {
    /// A single-threaded search.
    Alone,
    /// A Lazy SMP helper: adds its counts to the shared ones as it polls.
    Helper(&'a SharedCounts),
    /// The Lazy SMP main thread: reports its counts plus the shared ones.
    Main(&'a SharedCounts),
}

/// Per-search state: limits, counters and the evaluator.
pub(super) struct Ctx<'a, E> {
    pub(super) eval: &'a E,
    stop: &'a AtomicBool,
    sharing: NodeSharing<'a>,
    /// The part of `nodes` a helper has already added to the shared counter.
    published: u64,
    /// The part of `tbhits` a helper has already added.
    published_tbhits: u64,
    deadline: Option<Instant>,
    node_limit: u64,
    pub(super) nodes: u64,
    /// Nodes answered by an endgame table.
    pub(super) tbhits: u64,
    pub(super) seldepth: usize,
    pub(super) stopped: bool,
    /// Whether the iteration met an unfinished node at its horizon (or
    /// trusted a stored result); if not, the tree is solved.
    pub(super) horizon: bool,
    /// The running iteration's depth (bounds extensions).
    pub(super) root_depth: i32,
}

impl<'a, E> Ctx<'a, E> {
    /// The context of one thread's search: it stops when `stop` is raised,
    /// at `deadline` or after `node_limit` nodes.
    pub(super) fn new(
        eval: &'a E,
        stop: &'a AtomicBool,
        sharing: NodeSharing<'a>,
        deadline: Option<Instant>,
        node_limit: u64,
    ) -> Ctx<'a, E> {
        Ctx {
            eval,
            stop,
            sharing,
            published: 0,
            published_tbhits: 0,
            deadline,
            node_limit,
            nodes: 0,
            tbhits: 0,
            seldepth: 0,
            stopped: false,
            horizon: false,
            root_depth: 0,
        }
    }

    /// Changes the node limit (a weakened search lifts it for its first
    /// iterations).
    pub(super) fn set_node_limit(&mut self, node_limit: u64) {
        self.node_limit = node_limit;
    }

    /// Says whether the search must stop now; if not, counts the node.
    #[inline]
    pub(super) fn enter(&mut self, ply: usize) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
            return true;
        }
        self.nodes += 1;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.nodes & (CHECK_EVERY - 1) == 0 {
            self.poll();
        }
        self.stopped
    }

    /// Reads the stop flag and the clock (and publishes a helper's nodes).
    pub(super) fn poll(&mut self) {
        if let NodeSharing::Helper(counts) = self.sharing {
            counts
                .nodes
                .fetch_add(self.nodes - self.published, Ordering::Relaxed);
            self.published = self.nodes;
            counts
                .tbhits
                .fetch_add(self.tbhits - self.published_tbhits, Ordering::Relaxed);
            self.published_tbhits = self.tbhits;
        }
        if self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = true;
        }
    }

    /// The nodes for the `info` lines: the main thread of a Lazy SMP
    /// search adds what its helpers have published so far.
    pub(super) fn reported_nodes(&self) -> u64 {
        match self.sharing {
            NodeSharing::Main(helpers) => self.nodes + helpers.nodes.load(Ordering::Relaxed),
            _ => self.nodes,
        }
    }

    /// The table hits for the `info` lines, every thread's as for nodes.
    pub(super) fn reported_tbhits(&self) -> u64 {
        match self.sharing {
            NodeSharing::Main(helpers) => self.tbhits + helpers.tbhits.load(Ordering::Relaxed),
            _ => self.tbhits,
        }
    }
}
