//! Shared foundations of the qi game engines: board geometry, bitboards,
//! coordinates, sides and outcomes, the [`Position`] trait every game
//! implements, Zobrist key generation, and a conformance test harness.
//!
//! The crate knows nothing about any particular game. A game crate
//! (`qi-jungle`, `qi-five-tigers`) describes its board with a [`Geometry`],
//! stores sets of squares in a [`Bitboard`] or [`Bitboard32`], and implements
//! [`Position`]; the generic search in `qi-search` and the
//! [`conformance`] harness work with any such game.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod bitboard;
pub mod conformance;
mod coord;
mod error;
mod game;
mod geometry;
mod outcome;
mod position;
mod side;
pub mod zobrist;

pub use bitboard::{Bitboard, Bitboard32, Bits, Bits32};
pub use coord::Coord;
pub use error::{IllegalMove, ParseCoordError};
pub use game::{Evaluator, Game};
pub use geometry::{Direction, Geometry};
pub use outcome::{DrawReason, ExternalResult, Outcome, RuleName, WinReason};
pub use position::{MoveList, MoveSpace, Position, MOVE_LIST_CAPACITY};
pub use side::{ParseSideError, Side};

pub use smallvec;
