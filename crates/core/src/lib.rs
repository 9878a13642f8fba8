//! Shared foundations of the qi game engines: board geometry, bitboards,
//! coordinates, sides and outcomes, the [`Position`] trait every game
//! implements, the [`History`] stack every game layer ([`Game`]) is built
//! on, and Zobrist key generation.
//!
//! The crate knows nothing about any particular game. A game crate
//! (`qi-jungle`, `qi-five-tigers`) describes its board with a [`Geometry`],
//! stores sets of squares in a [`Bitboard`] or [`Bitboard32`], and implements
//! [`Position`]; the generic search in `qi-search` works with any such game.
//!
//! With the `testkit` feature, `testkit` holds what the games' tests share:
//! the conformance harness every game must pass, repeatable random
//! positions, and the runner of perft suites kept as data files.
//!
//! A game of your own needs a position type implementing [`Position`] and,
//! when its rules never look at the history, nothing more: [`SimpleGame`]
//! is its game layer. The facade `qi-games` walks through a whole third
//! game (tic-tac-toe) in its `third_game` module.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod allowed;
mod bitboard;
mod coord;
mod error;
mod escape;
mod game;
mod geometry;
mod history;
mod names;
mod outcome;
mod position;
#[cfg(feature = "serde")]
pub mod serde_text;
mod side;
mod simple_game;
#[cfg(feature = "testkit")]
pub mod testkit;
pub mod zobrist;

pub use allowed::Allowed;
pub use bitboard::{Bitboard, Bitboard32, Bits, Bits32};
pub use coord::Coord;
pub use error::{IllegalMove, ParseCoordError, ParseNameError, Refusal};
pub use escape::{Escaped, EscapedChar, MAX_ECHO};
pub use game::{Evaluator, Game};
pub use geometry::{Direction, Geometry};
pub use history::{Frame, History};
pub use outcome::{DrawReason, ExternalResult, Outcome, RuleName, WinReason};
pub use position::{MoveList, MoveSpace, Position, MOVE_LIST_CAPACITY};
pub use side::{ParseSideError, Side};
pub use simple_game::SimpleGame;

pub use smallvec;
