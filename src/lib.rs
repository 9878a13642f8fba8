//! `qi`: game engines for two Chinese folk board games, Jungle (斗兽棋,
//! Dou Shou Qi) and Five Tigers (五虎棋, Wu Hu Qi).
//!
//! This facade re-exports the workspace crates:
//!
//! * [`core`]: bitboards, geometry, sides, outcomes and the [`core::Position`] trait;
//! * [`jungle`]: the Jungle rules, notation and game layer;
//! * [`five_tigers`]: the Five Tigers rules, notation and game layer;
//! * [`search`]: perft and the negamax search, generic over any game;
//! * [`engine`]: evaluation and search knowledge for each game.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub use qi_core as core;
pub use qi_engine as engine;
pub use qi_five_tigers as five_tigers;
pub use qi_jungle as jungle;
pub use qi_search as search;
