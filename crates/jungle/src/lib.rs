//! # qi-jungle: the rules of Jungle (斗兽棋, Dou Shou Qi)
//!
//! A fast, bitboard-based implementation of the Jungle rules contract
//! (`docs/jungle.md` describes the rules as implemented, every option and
//! preset, and each reading of the sources this crate had to choose).
//!
//! * [`Jungle`] is a position: a small `Copy` value (72 bytes) implementing
//!   [`qi_core::Position`] and [`qi_core::MoveSpace`], played by copy-make.
//!   Its move generator works on 63-bit bitboards with compile-time step and
//!   jump tables; [`Position::count_moves`](qi_core::Position::count_moves)
//!   counts with popcounts and builds no list.
//! * [`Game`] is the history layer implementing [`qi_core::Game`]: the
//!   no-capture draw, the repetition rule, the 7-3 and 17-5 anti-chase rules
//!   and results recorded from outside (resignation, time, agreed draw).
//! * [`Rules`] holds every rule option; [`Rules::standard`],
//!   [`Rules::yeshou`], [`Rules::datou`] and [`Rules::traditional`] are the
//!   presets, also selectable by name (`"jungle:yeshou".parse()`).
//! * [`Move`] (`a3a4`), [`Square`] (`a1`), [`Animal`], [`Piece`], and JFEN
//!   position text ([`Jungle::from_text`], `Display`).
//! * [`Setup`] is the plain contents of a position (animals on squares, side
//!   to move, counters) with a builder API, to set up custom positions;
//!   [`Jungle::from_setup`] validates one (errors: [`SetupError`]) and
//!   [`Jungle::to_setup`] takes one apart. JFEN is read through it.
//!   Positions no game reaches are refused with the reason
//!   ([`ImpossiblePosition`]); [`Jungle::from_text_lenient`],
//!   [`Jungle::from_setup_lenient`] and [`Setup::into_position_lenient`]
//!   read them for puzzles and analysis.
//! * [`tables`]: the board's features as [`Bitboard`](qi_core::Bitboard)s
//!   ([`WATER`], [`LAND`], [`DENS`], [`TRAPS`], [`ALL_TRAPS`], [`ALL`], also
//!   re-exported here, and [`den_square`]) and the move tables behind the
//!   generator, as `const fn` lookups by [`Square`]:
//!   [`steps`](tables::steps), [`land_steps`](tables::land_steps),
//!   [`rat_steps`](tables::rat_steps), [`jump`](tables::jump) (a
//!   [`Jump`](tables::Jump)) and [`jump_targets`](tables::jump_targets).
//!   [`Jungle::destination_masks`] gives every animal's destinations in a
//!   position.
//! * Un-moves for retrograde analysis: [`Jungle::quiet_unmoves`] (the
//!   moves that captured nothing and can have led to a position) and
//!   [`Jungle::unplay_quiet`] (the position before one).
//!
//! Every function that takes a rule set takes it by value, as
//! [`Position::new`](qi_core::Position::new) does and as in the other game's
//! crate ([`Rules`] is `Copy`): `Jungle::new(rules)`, `Jungle::from_text(text, rules)`.
//!
//! ```
//! use qi_core::Position;
//! use qi_jungle::{Jungle, Move, Rules};
//!
//! let mut pos = Jungle::new(Rules::standard());
//! assert_eq!(pos.count_moves(), 24);
//! pos.play("a3a4".parse::<Move>().unwrap()).unwrap();
//! assert_eq!(pos.to_string(), "l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 1 1");
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod board;
mod game;
mod jfen;
mod moves;
mod position;
mod rules;
mod setup;
pub mod tables;

pub use board::{side_name, Animal, Piece, RankOrder, Square, GEOMETRY};
pub use game::{AntiChaseRule, Game};
pub use jfen::JfenError;
pub use moves::{Move, ParseMoveError};
pub use position::{Jungle, DEN_ENTERED, START_JFEN};
pub use rules::{
    JumpBlock, JumpBlockArea, Jumps, ParseRulesError, Repetition, Rules, TrappedAttacks,
    UnknownPreset,
};
pub use setup::{ImpossiblePosition, Setup, SetupError};
pub use tables::{den_square, ALL, ALL_TRAPS, DENS, LAND, TRAPS, WATER};

// Serialized as its rules and its JFEN: the text alone does not say which
// rules it is read under.
#[cfg(feature = "serde")]
qi_core::serde_via_text!(rules_and_text: Jungle);

// Serialized as its record (start, moves, recorded result) and read back
// by replaying it, so the history rules are rebuilt, not trusted.
#[cfg(feature = "serde")]
qi_core::serde_via_text!(game_record: Game);
