//! Serde through text: types whose text form is their natural serialized
//! form (moves, points, squares, option values) get both impls from one
//! macro, [`serde_via_text!`](crate::serde_via_text), instead of a
//! hand-written pair each.
//!
//! ```
//! use std::fmt;
//! use std::str::FromStr;
//!
//! #[derive(Debug, PartialEq)]
//! struct Celsius(i32);
//!
//! impl fmt::Display for Celsius {
//!     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
//!         write!(f, "{}C", self.0)
//!     }
//! }
//!
//! impl FromStr for Celsius {
//!     type Err = std::num::ParseIntError;
//!     fn from_str(s: &str) -> Result<Celsius, Self::Err> {
//!         s.trim_end_matches('C').parse().map(Celsius)
//!     }
//! }
//!
//! qi_core::serde_via_text!(Celsius);
//! ```

use std::fmt::{self, Display};
use std::marker::PhantomData;
use std::str::FromStr;

use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::outcome::ExternalResult;
use crate::position::Position;

// The macros expand in other crates, which may not depend on serde under
// that name.
#[doc(hidden)]
pub use serde as __serde;

/// Implements `Serialize` through `Display` and `Deserialize` through
/// `FromStr` for each type named, so that the serialized form is the text
/// form: `serde_via_text!(Move, Square)`.
///
/// `serde_via_text!(rules_and_text: Pos)` does the same for a position
/// type: a map of its rules (serialized as they are) and its position text,
/// read back with [`Position::from_text`] under those rules.
///
/// `serde_via_text!(game_record: G)` serializes a game layer as its record:
/// the start position (as above), the moves as text and the external
/// result; reading it back replays the moves, each checked, so a record
/// that breaks the rules is refused.
#[macro_export]
macro_rules! serde_via_text {
    (rules_and_text: $ty:ty) => {
        impl $crate::serde_text::__serde::Serialize for $ty {
            fn serialize<S>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error>
            where
                S: $crate::serde_text::__serde::Serializer,
            {
                $crate::serde_text::serialize_position(self, serializer)
            }
        }
        impl<'de> $crate::serde_text::__serde::Deserialize<'de> for $ty {
            fn deserialize<D>(deserializer: D) -> ::core::result::Result<Self, D::Error>
            where
                D: $crate::serde_text::__serde::Deserializer<'de>,
            {
                $crate::serde_text::deserialize_position(deserializer)
            }
        }
    };
    (game_record: $ty:ty) => {
        impl $crate::serde_text::__serde::Serialize for $ty {
            fn serialize<S>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error>
            where
                S: $crate::serde_text::__serde::Serializer,
            {
                $crate::serde_text::serialize_game(self, serializer)
            }
        }
        impl<'de> $crate::serde_text::__serde::Deserialize<'de> for $ty {
            fn deserialize<D>(deserializer: D) -> ::core::result::Result<Self, D::Error>
            where
                D: $crate::serde_text::__serde::Deserializer<'de>,
            {
                $crate::serde_text::deserialize_game(deserializer)
            }
        }
    };
    ($($ty:ty),+ $(,)?) => {
        $(
            impl $crate::serde_text::__serde::Serialize for $ty {
                fn serialize<S>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error>
                where
                    S: $crate::serde_text::__serde::Serializer,
                {
                    $crate::serde_text::serialize_text(self, serializer)
                }
            }
            impl<'de> $crate::serde_text::__serde::Deserialize<'de> for $ty {
                fn deserialize<D>(deserializer: D) -> ::core::result::Result<Self, D::Error>
                where
                    D: $crate::serde_text::__serde::Deserializer<'de>,
                {
                    $crate::serde_text::deserialize_text(deserializer)
                }
            }
        )+
    };
}

/// Serializes `value` as its `Display` text.
pub fn serialize_text<T: Display + ?Sized, S: Serializer>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

/// Deserializes a string and reads it with `FromStr`; the parse error
/// becomes the deserializer's error.
pub fn deserialize_text<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: FromStr,
    T::Err: Display,
    D: Deserializer<'de>,
{
    deserializer.deserialize_str(TextVisitor(PhantomData))
}

// A visitor rather than `String::deserialize`, so that borrowed strings are
// parsed without a copy.
struct TextVisitor<T>(PhantomData<T>);

impl<T> Visitor<'_> for TextVisitor<T>
where
    T: FromStr,
    T::Err: Display,
{
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
        text.parse().map_err(E::custom)
    }
}

#[derive(Serialize)]
struct PositionRef<'a, R> {
    rules: &'a R,
    position: String,
}

#[derive(Deserialize)]
struct PositionOwned<R> {
    rules: R,
    position: String,
}

/// Serializes a position as `{ rules, position }`: its rules as they
/// serialize and its position text.
pub fn serialize_position<P, S>(pos: &P, serializer: S) -> Result<S::Ok, S::Error>
where
    P: Position,
    P::Rules: Serialize,
    S: Serializer,
{
    PositionRef {
        rules: pos.rules(),
        position: pos.to_string(),
    }
    .serialize(serializer)
}

/// Reads what [`serialize_position`] writes: the position text under the
/// rules given.
pub fn deserialize_position<'de, P, D>(deserializer: D) -> Result<P, D::Error>
where
    P: Position,
    P::Rules: Deserialize<'de>,
    D: Deserializer<'de>,
{
    let repr = PositionOwned::<P::Rules>::deserialize(deserializer)?;
    P::from_text(&repr.position, repr.rules).map_err(de::Error::custom)
}

#[derive(Serialize)]
struct GameRef<'a, P, M> {
    start: &'a P,
    moves: &'a [M],
    external_result: Option<ExternalResult>,
}

#[derive(Deserialize)]
struct GameOwned<P, M> {
    start: P,
    moves: Vec<M>,
    external_result: Option<ExternalResult>,
}

/// Serializes a game as `{ start, moves, external_result }`: its first
/// position, its move record and a result recorded from outside the rules.
pub fn serialize_game<G, S>(game: &G, serializer: S) -> Result<S::Ok, S::Error>
where
    G: Game,
    G::Position: Serialize,
    <G::Position as Position>::Move: Serialize,
    S: Serializer,
{
    GameRef {
        start: game.start(),
        moves: game.moves(),
        external_result: game.external_result(),
    }
    .serialize(serializer)
}

/// Reads what [`serialize_game`] writes by replaying the moves from the
/// start, each checked; the first illegal move is the error.
pub fn deserialize_game<'de, G, D>(deserializer: D) -> Result<G, D::Error>
where
    G: Game,
    G::Position: Deserialize<'de>,
    <G::Position as Position>::Move: Deserialize<'de>,
    D: Deserializer<'de>,
{
    let repr =
        GameOwned::<G::Position, <G::Position as Position>::Move>::deserialize(deserializer)?;
    let mut game = G::from_moves(repr.start, &repr.moves)
        .map_err(|e| de::Error::custom(format!("move '{}': {}", e.mv, e.reason)))?;
    if let Some(result) = repr.external_result {
        game.record(result);
    }
    Ok(game)
}
