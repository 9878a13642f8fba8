//! Moves and their text form (`a3a4`).

use std::fmt;
use std::str::FromStr;

use qi_core::{Escaped, ParseCoordError};
use thiserror::Error;

use crate::board::Square;

/// A move: an animal goes from `from` to `to` (a step or a jump; a capture
/// when an enemy animal stands on `to`). Written `a3a4`.
///
/// ```
/// use qi_jungle::Move;
///
/// let mv: Move = "a3a4".parse().unwrap();
/// assert_eq!((mv.from.to_string(), mv.to.to_string()), ("a3".to_string(), "a4".to_string()));
/// assert_eq!(mv.to_string(), "a3a4");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The square the animal leaves.
    pub from: Square,
    /// The square the animal enters.
    pub to: Square,
}

impl Move {
    /// A move from `from` to `to`.
    ///
    /// ```
    /// use qi_jungle::{Move, Square};
    ///
    /// let sq = |t: &str| t.parse::<Square>().unwrap();
    /// assert_eq!(Move::new(sq("g3"), sq("g4")), "g3g4".parse().unwrap());
    /// ```
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// Whether the move is a river jump (more than one square away).
    ///
    /// ```
    /// use qi_jungle::Move;
    ///
    /// assert!("a4d4".parse::<Move>().unwrap().is_jump()); // across the left river
    /// assert!("b3b7".parse::<Move>().unwrap().is_jump());
    /// assert!(!"a3a4".parse::<Move>().unwrap().is_jump());
    /// ```
    pub const fn is_jump(self) -> bool {
        let (a, b) = (self.from.index() as i32, self.to.index() as i32);
        let d = if a > b { a - b } else { b - a };
        d != 1 && d != 7
    }
}

/// Why move text could not be read.
///
/// ```
/// use qi_jungle::{Move, ParseMoveError};
///
/// assert!(matches!("a3".parse::<Move>(), Err(ParseMoveError::BadLength(_))));
/// assert!(matches!("a3h4".parse::<Move>(), Err(ParseMoveError::BadTo { .. })));
/// assert!(matches!("a3a3".parse::<Move>(), Err(ParseMoveError::SameSquare(_))));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "code", content = "fields")
)]
pub enum ParseMoveError {
    /// The text is not four ASCII characters (two squares).
    #[error("bad move '{}' (expected two squares like 'a3a4')", Escaped(.0))]
    #[cfg_attr(feature = "serde", serde(rename = "jungle-move.bad-length"))]
    BadLength(String),
    /// The origin square is malformed.
    #[error("bad origin square in move '{}': {error}", Escaped(.text))]
    #[cfg_attr(feature = "serde", serde(rename = "jungle-move.bad-from"))]
    BadFrom {
        /// The whole move text.
        text: String,
        /// What is wrong with the square.
        error: ParseCoordError,
    },
    /// The destination square is malformed.
    #[error("bad destination square in move '{}': {error}", Escaped(.text))]
    #[cfg_attr(feature = "serde", serde(rename = "jungle-move.bad-to"))]
    BadTo {
        /// The whole move text.
        text: String,
        /// What is wrong with the square.
        error: ParseCoordError,
    },
    /// Origin and destination are the same square.
    #[error("bad move '{}' (it does not leave its square)", Escaped(.0))]
    #[cfg_attr(feature = "serde", serde(rename = "jungle-move.same-square"))]
    SameSquare(String),
}

/// `Move(a3a4)`: the move's text.
///
/// ```
/// let mv: qi_jungle::Move = "a3a4".parse().unwrap();
/// assert_eq!(format!("{mv:?}"), "Move(a3a4)");
/// ```
impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let text = s.trim();
        if text.len() != 4 || !text.is_ascii() {
            return Err(ParseMoveError::BadLength(s.to_string()));
        }
        let from = text[..2].parse().map_err(|error| ParseMoveError::BadFrom {
            text: s.to_string(),
            error,
        })?;
        let to = text[2..].parse().map_err(|error| ParseMoveError::BadTo {
            text: s.to_string(),
            error,
        })?;
        if from == to {
            return Err(ParseMoveError::SameSquare(s.to_string()));
        }
        Ok(Move { from, to })
    }
}

// Serialized as text (`"a3a4"`, `"a1"`): the form game records and the
// engine protocol already use.
#[cfg(feature = "serde")]
qi_core::serde_via_text!(Move, Square);
