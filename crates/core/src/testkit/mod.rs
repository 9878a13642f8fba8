//! Test support shared by every game crate, compiled only with the
//! `testkit` feature so that it is not part of the engines' API: the game
//! crates enable it for their tests through their dev-dependencies.
//!
//! * [`conformance`]: invariants every [`Position`](crate::Position)
//!   implementation must keep ([`check_position`], [`random_walks`]);
//! * [`Rng`] and [`random_playout`]: repeatable random positions;
//! * [`perft_suite`]: perft expectations kept as data files, checked by one
//!   generic runner.

pub mod conformance;
pub mod perft_suite;
mod rng;

pub use conformance::{check_position, random_walks};
pub use rng::{random_playout, walk, Rng};
