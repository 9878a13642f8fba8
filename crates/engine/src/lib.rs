//! The playing engine's game knowledge: a static evaluation and search
//! hooks (capture ordering, quiescence moves) for each game, with every
//! weight of a game in one place.
//!
//! * [`jungle`]: [`jungle::JungleEval`] and [`jungle::JungleHooks`];
//! * [`five_tigers`]: [`five_tigers::FiveTigersEval`] and
//!   [`five_tigers::FiveTigersHooks`].
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod five_tigers;
pub mod jungle;
