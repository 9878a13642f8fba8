//! The rules of Five Tigers (五虎棋, Wu Hu Qi) on bitboards: move
//! generation, notation and a game layer, for the qi engines.
//!
//! Two players place pieces on the 25 points of a 5 × 5 grid, then step them
//! one point at a time; completing a *formation* (a small square, a diagonal,
//! a whole line) earns removals of enemy pieces. The rules implemented are
//! those of `docs/five-tigers.md` (the project's rules contract, with every
//! reading of the folk source spelled out).
//!
//! * [`FiveTigers`] is the position; it implements [`qi_core::Position`]
//!   (copy-make, bulk `count_moves`, incremental Zobrist key) and
//!   [`qi_core::MoveSpace`]. Its `Display` is the position text, e.g. the
//!   start `5/5/5/5/5 x place X:13,O:13 - x -,- 0`. It is a small `Copy`
//!   value (48 bytes).
//! * [`Setup`] is the plain contents of a position (the fields of the
//!   position text) with a builder API, to set up custom positions;
//!   [`FiveTigers::from_setup`] validates one (errors: [`SetupError`]) and
//!   [`FiveTigers::to_setup`] takes one apart. Position text is read
//!   through it. Positions no game from the start can reach are refused;
//!   [`FiveTigers::from_text_lenient`] and [`FiveTigers::from_setup_lenient`]
//!   accept them for puzzles and analysis.
//! * [`Move`] is a placement `c3`, a step `c3-c4` or a removal `xb2`;
//!   [`Point`] a point `a1`..`e5`; [`ALL_POINTS`] the whole board.
//! * Board tables and step helpers, as [`Bitboard32`](qi_core::Bitboard32)s:
//!   [`neighbours`] of a point (the table [`NEIGHBOURS`] by point index),
//!   [`step_targets`] and [`step_count`] of a set of pieces.
//! * [`Rules`] holds the options; [`Rules::PRESETS`] names the presets.
//! * [`FORMATIONS`] is the table of the 36 formations (each a [`Formation`]:
//!   its [`FormationKind`], whose [`size`](FormationKind::size) and
//!   [`value`](FormationKind::value) it has, and its points), with per-point
//!   lookup tables ([`THROUGH`], [`formations_through`]).
//! * [`Symmetry`] maps points, moves and positions by the 8 symmetries of the
//!   board.
//! * Un-moves for retrograde analysis: [`FiveTigers::quiet_unmoves`] (the
//!   quiet steps that can have led to a position) and
//!   [`FiveTigers::unplay_quiet`], on the board rule [`quiet_unsteps`]
//!   that the tablebase generators call on their own indices.
//! * [`Game`] adds the history: repetition and no-removal draws, recorded
//!   results and O(1) undo.
//! * [`MaterialEvaluator`] is a simple static evaluation for search.
//!
//! Every function that takes a rule set takes it by value, as
//! [`Position::new`](qi_core::Position::new) does and as in the other game's
//! crate ([`Rules`] is `Copy`): `FiveTigers::new(rules)`, `FiveTigers::from_text(text, rules)`.
//!
//! ```
//! use qi_core::{Position, Side};
//! use qi_five_tigers::{FiveTigers, Move, Rules};
//!
//! let mut pos = FiveTigers::new(Rules::shandong());
//! assert_eq!(pos.count_moves(), 25);
//! pos.play("c3".parse::<Move>().unwrap()).unwrap();
//! assert_eq!(pos.side_to_move(), Side::Second);
//! assert_eq!(pos.to_string(), "5/5/2X2/5/5 o place X:12,O:13 - o -,- 0");
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod eval;
mod formation;
mod game;
mod point;
mod position;
mod rules;
mod setup;
mod symmetry;
mod text;
mod unmoves;

pub use eval::MaterialEvaluator;
pub use formation::{
    formations_through, held_formations, held_mask, loose_pieces, score, Formation, FormationKind,
    Through, FORMATIONS, MAX_THROUGH, THROUGH,
};
pub use game::Game;
pub use point::{
    neighbours, step_count, step_targets, Move, ParseMoveError, Point, ALL_POINTS, GEOMETRY,
    NEIGHBOURS,
};
pub use position::FiveTigers;
pub use rules::{PlacementCapture, Rules, RulesError, Shuttle};
pub use setup::{Field, LastStep, Owed, Phase, Setup, SetupError};
pub use symmetry::Symmetry;
pub use text::{FieldError, PositionTextError};
pub use unmoves::quiet_unsteps;

/// The error of [`Point`]'s `FromStr` (shared with the other games).
pub use qi_core::ParseCoordError as ParsePointError;

// Serialized as its rules and its position text: the text alone does not
// say which rules it is read under.
#[cfg(feature = "serde")]
qi_core::serde_via_text!(rules_and_text: FiveTigers);

// Serialized as its record (start, moves, recorded result) and read back
// by replaying it, so the history rules are rebuilt, not trusted.
#[cfg(feature = "serde")]
qi_core::serde_via_text!(game_record: Game);
