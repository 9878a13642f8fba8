//! Game-independent search for the qi engines: perft (bulk counting,
//! divide, multi-threaded) and an alpha-beta searcher, generic over any
//! [`qi_core::Game`] and [`qi_core::Evaluator`].
//!
//! * [`Searcher`]: iterative deepening negamax with principal variation
//!   search, aspiration windows, a transposition table, killer and history
//!   move ordering, quiescence, null-move pruning, late-move reductions and
//!   futility pruning (each switchable in [`SearchOptions`]), bounded by
//!   [`Limits`] and a stop flag.
//! * [`SearchHooks`]: optional game knowledge (capture order, quiescence
//!   moves, passing for null moves); [`DefaultHooks`] suits every game.
//! * [`reference`](mod@reference): plain minimax, the yardstick of the tests.
//! * [`perft`](mod@perft): move-generator node counts.
//!
//! Sides need not alternate (Five Tigers removals): a score is negated only
//! where the side to move changes.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod hooks;
mod limits;
mod ordering;
pub mod perft;
mod pv;
pub mod reference;
mod score;
mod searcher;
pub mod tt;

pub use hooks::{DefaultHooks, MoveOf, SearchHooks};
pub use limits::{Limits, SearchOptions};
pub use perft::{divide, divide_parallel, perft, perft_parallel, perft_plain};
pub use score::{Score, INFINITY, MATE, MATE_BOUND, MAX_PLY};
pub use searcher::{terminal_value, SearchInfo, SearchResult, Searcher, MAX_DEPTH};
