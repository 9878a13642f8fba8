//! Five Tigers (五虎棋) knowledge for the search: a static evaluation
//! ([`FiveTigersEval`], every weight in [`FiveTigersWeights`]) and search
//! hooks ([`FiveTigersHooks`]: removal ordering, quiescence moves).
//!
//! The evaluation is a sum of terms per side, from the side to move's
//! view, computed in one pass over the 36 formation masks with no
//! allocation:
//!
//! * material: pieces on the board plus pieces in hand. With 13 pieces
//!   each Second's last piece is never placed when the board fills, but
//!   then Second takes the first opening removal and moves first; the
//!   evaluation counts the two as even (the start scores 0), leaving the
//!   search to see the end of placement;
//! * removals owed (a side about to remove is ahead by about a piece each),
//!   and under deferred scoring the formations held during placement (each
//!   worth its value in removals when placement ends);
//! * formations held (protection of their pieces, re-forming potential in
//!   the movement phase);
//! * formations one move from forming: in placement one empty point
//!   missing; in movement one empty point missing that an own piece outside
//!   the formation could step into. The side with the next regular turn
//!   cashes its best one, the other side is rewarded for double threats;
//! * open formations (no enemy piece, two or three points missing);
//! * loose pieces (散子), exposed to removal;
//! * mobility in the movement phase, with a large penalty for a side that
//!   has no step (it loses when it must move).
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//!
//! use qi_engine::five_tigers::{FiveTigersEval, FiveTigersHooks};
//! use qi_five_tigers::{FiveTigers, Game, Rules};
//! use qi_search::{Limits, SearchHooks, Searcher};
//!
//! let mut game = Game::new(FiveTigers::new(Rules::shandong()));
//! // Start from the switches that play Five Tigers best.
//! let hooks = FiveTigersHooks::default();
//! let mut searcher = Searcher::with_hooks(hooks.tuned_options(), hooks);
//! let stop = AtomicBool::new(false);
//! let eval = FiveTigersEval::default();
//! let result = searcher.search(&mut game, &eval, Limits::depth(3), &stop, |_| {});
//! assert!(result.best_move.is_some());
//! ```

mod eval;
mod hooks;
mod weights;

pub use eval::{piece_worth, FiveTigersEval};
pub use hooks::FiveTigersHooks;
pub use weights::FiveTigersWeights;
