#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

/// What both games share (the crate `qi-core`): the [`Position`](base::Position),
/// [`Game`](base::Game) and [`Evaluator`](base::Evaluator) traits, sides,
/// outcomes, bitboards and board geometry. Named `base` rather than after
/// its crate so that `use qi_games::*` does not shadow Rust's own `core`.
pub use qi_core as base;
pub use qi_engine as engine;
pub use qi_five_tigers as five_tigers;
pub use qi_jungle as jungle;
pub use qi_search as search;
/// The endgame tables (the crate `qi-tablebase`, feature `tablebase`):
/// generation by retrograde analysis, the table files and probing. With
/// the feature the engine also probes them in the search
/// ([`GameKit::attach_tablebase`](engine::GameKit::attach_tablebase)).
#[cfg(feature = "tablebase")]
pub use qi_tablebase as tablebase;

pub mod third_game;

/// The traits and types most programs need, in one import:
/// `use qi_games::prelude::*;`.
///
/// It holds the traits whose methods programs call (`Position`, `Game`,
/// `MoveSpace`, `Evaluator`, `GameKit`), sides and outcomes, both
/// positions (`Jungle`, `FiveTigers`) and the search's entry points. Each
/// game's own `Game`, `Move`, `Rules` and `Setup` share their names across
/// the games and stay in [`jungle`] and [`five_tigers`].
///
/// ```
/// use qi_games::prelude::*;
///
/// // One function for either game.
/// fn first_moves<P: Position>(pos: &P) -> Vec<String> {
///     pos.legal_moves().iter().map(|m| m.to_string()).collect()
/// }
/// assert_eq!(first_moves(&Jungle::default()).len(), 24);
/// assert_eq!(first_moves(&FiveTigers::default()).len(), 25);
/// assert_eq!(perft(&Jungle::default(), 2), 576);
/// assert_eq!(Jungle::default().side_to_move(), Side::First);
/// ```
pub mod prelude {
    pub use qi_core::{
        DrawReason, Evaluator, Game, MoveSpace, Outcome, Position, RuleName, Side, WinReason,
    };
    pub use qi_engine::{FiveTigersKit, GameKit, JungleKit};
    pub use qi_five_tigers::FiveTigers;
    pub use qi_jungle::Jungle;
    pub use qi_search::{perft, Limits, SearchOptions, SearchResult, Searcher};
}
