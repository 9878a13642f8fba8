//! The playing engine: each game's knowledge (a static evaluation and
//! search hooks, every weight of a game in one place), the registry of
//! games, the type-erased engine that protocol front ends drive, and the
//! arena that plays engines against each other.
//!
//! * [`jungle`] and [`five_tigers`]: evaluations and hooks;
//! * [`GameKit`]: what generic front ends need of a game; [`JungleKit`] and
//!   [`FiveTigersKit`];
//! * [`Registry`] and [`Games`]: the one list of games; parses specs like
//!   `jungle:datou`, lists presets, runs a [`GameFn`] for the chosen game;
//! * [`DynEngine`]: one game's engine behind an object-safe interface;
//! * [`arena`]: matches between [`arena::Player`]s;
//! * [`render`]: boards drawn for a terminal;
//! * [`record`]: game records, read and written (`docs/records.md`);
//! * [`strength`]: the strength options (`Level`, `LimitStrength`,
//!   `Elo`, `Seed`) of [`qi_search::Level`]s.
//!
//! ```
//! use qi_engine::{GameFn, GameKit, Games, Registry, RulesOf};
//! use qi_core::Position;
//!
//! /// Counts the start position's moves, whatever the game.
//! struct StartMoves;
//! impl GameFn for StartMoves {
//!     type Output = usize;
//!     fn call<K: GameKit>(self, rules: RulesOf<K>) -> usize {
//!         K::Position::new(rules).count_moves()
//!     }
//! }
//! assert_eq!(Games::dispatch("jungle:datou", StartMoves), Ok(24));
//! assert_eq!(Games::dispatch("five-tigers:ten", StartMoves), Ok(25));
//! assert!(Games::dispatch("chess", StartMoves).is_err());
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod arena;
mod dynamic;
pub mod files;
pub mod five_tigers;
mod games;
pub mod jungle;
mod kit;
pub mod options;
pub mod record;
mod registry;
pub mod render;
mod root_table;
mod rules_spec;
pub mod strength;

pub use dynamic::{
    engine_for, BestMove, DynEngine, EngineEvent, EngineLine, KitEngine, PerftTask, PositionError,
};
pub use games::{FiveTigersKit, JungleKit};
pub use kit::{
    spec_of, EvalFileError, EvalProfile, GameKit, RulesErrorOf, RulesOf, TablebaseError,
    UnknownProfile,
};
pub use registry::{GameFn, GameInfo, Games, Registry, SpecError};
pub use root_table::{root_table_move, RootTableMove};
pub use rules_spec::{OneRuleSet, RulesSpec};
