//! What a search reports: a line per finished iteration and its answer.

use std::time::Duration;

use crate::score::Score;

/// What one finished iteration of the search found, for UCI-style `info`
/// lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo<M> {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The deepest ply reached in this iteration (quiescence included).
    pub seldepth: u32,
    /// The root score from the side to move's point of view.
    pub score: Score,
    /// Nodes visited since the search started, by every thread (helper
    /// threads' counts lag by at most a few thousand nodes each).
    pub nodes: u64,
    /// Nodes per second since the search started, over every thread.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, starting with the best move.
    pub pv: Vec<M>,
    /// Permille of the transposition table filled by this search.
    pub hashfull: u32,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play: `None` only when the game is over or the side to
    /// move has no legal move. Always legal in the searched position.
    pub best_move: Option<M>,
    /// The score of the deepest completed iteration (the static evaluation
    /// when none completed, the game's value when it is over).
    pub score: Score,
    /// The deepest completed iteration (0 when none completed).
    pub depth: u32,
    /// The deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The principal variation of the deepest completed iteration,
    /// starting with `best_move`.
    pub pv: Vec<M>,
    /// Time the search took.
    pub elapsed: Duration,
}

/// Nodes per second; a time under a nanosecond counts as one, so there is
/// no division by zero.
pub(crate) fn nps(nodes: u64, time: Duration) -> u64 {
    let nanos = time.as_nanos().max(1);
    (u128::from(nodes) * 1_000_000_000 / nanos).min(u128::from(u64::MAX)) as u64
}
