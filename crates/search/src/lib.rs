//! Game-independent search for the qi engines: perft (bulk counting,
//! divide, multi-threaded) and an alpha-beta searcher, generic over any
//! [`qi_core::Game`] and [`qi_core::Evaluator`].
//!
//! * [`Searcher`]: iterative deepening negamax with principal variation
//!   search, aspiration windows, a transposition table, killer and history
//!   move ordering, quiescence, null-move pruning, late-move reductions,
//!   futility, reverse futility and late-move pruning, check extensions and
//!   mate-distance pruning (each switchable in [`SearchOptions`]), bounded
//!   by [`Limits`] and a stop flag.
//! * [`TimeManager`]: the time a search may take, from a move time or the
//!   game's [`Clock`], and whether another iteration fits in it.
//! * [`SearchHooks`]: optional game knowledge (capture order, quiescence
//!   moves, passing for null moves, "check" for extensions, endgame table
//!   values probed in the tree as [`TableValue`]s);
//!   [`DefaultHooks`] suits every game.
//! * [`reference`](mod@reference): plain minimax, the yardstick of the tests.
//! * [`perft`](mod@perft): move-generator node counts.
//!
//! Sides need not alternate (Five Tigers removals): a score is negated only
//! where the side to move changes.
//!
//! # Example
//!
//! An engine's `go` for any game, printing UCI-style `info` lines:
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//!
//! use qi_core::{Evaluator, Game};
//! use qi_search::{Limits, SearchOptions, Searcher};
//!
//! fn go<G: Game, E: Evaluator<G::Position>>(game: &mut G, eval: &E, stop: &AtomicBool) {
//!     let mut searcher: Searcher<G> = Searcher::new(SearchOptions::default());
//!     let result = searcher.search(game, eval, Limits::depth(6), stop, |info| {
//!         println!("{info}");
//!     });
//!     match result.best_move {
//!         Some(mv) => println!("bestmove {mv}"),
//!         None => println!("bestmove (none)"),
//!     }
//! }
//! ```
//!
//! Game knowledge goes in a [`SearchHooks`] implementation:
//!
//! ```
//! use qi_core::Game;
//! use qi_search::{MoveOf, SearchHooks, SearchOptions, Searcher};
//!
//! /// Orders captures by a game-specific victim value.
//! struct MyHooks;
//!
//! impl<G: Game> SearchHooks<G> for MyHooks {
//!     fn capture_order(&self, game: &G, mv: MoveOf<G>) -> i32 {
//!         // e.g. 10 * value(victim) - value(attacker)
//!         let _ = (game, mv);
//!         0
//!     }
//! }
//!
//! fn searcher<G: Game>() -> Searcher<G, MyHooks> {
//!     Searcher::with_hooks(SearchOptions::default(), MyHooks)
//! }
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod hooks;
mod limits;
mod ordering;
pub mod perft;
mod pv;
pub mod reference;
mod report;
mod score;
mod search;
mod strength;
mod time;
pub mod tt;

pub use hooks::{DefaultHooks, MoveOf, SearchHooks, TableValue};
pub use limits::{Limits, SearchOptions};
pub use perft::{
    divide, divide_parallel, perft, perft_parallel, perft_plain, perft_with_stop, MAX_PERFT_DEPTH,
};
pub use report::{PvLine, SearchInfo, SearchResult};
pub use score::{terminal_value, Score, EVAL_LIMIT, INFINITY, MATE, MATE_BOUND, MAX_PLY};
pub use search::{SearchParams, Searcher, MAX_DEPTH};
pub use strength::{Level, LevelError, LevelPlan, Strength, StrengthScale};
pub use time::{Clock, TimeManager};
pub use tt::TableAllocError;
