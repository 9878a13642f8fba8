//! Errors shared by every game.

use thiserror::Error;

use crate::{Escaped, EscapedChar};

/// Why a coordinate text such as `a1` could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseCoordError {
    /// The text was empty.
    #[error("empty coordinate")]
    Empty,
    /// The first character is not a lower-case file letter.
    #[error("'{}' is not a file letter (expected a lower-case letter)", EscapedChar(*.0))]
    BadFile(char),
    /// The file letter lies beyond the board's last file.
    #[error("file '{}' is off the board", EscapedChar(*.0))]
    FileOffBoard(char),
    /// Only a file letter was given.
    #[error("missing rank after the file letter")]
    MissingRank,
    /// A character of the rank is not a digit.
    #[error("'{}' is not a rank digit", EscapedChar(*.0))]
    BadRank(char),
    /// The rank number lies outside the board.
    #[error("rank {} is off the board", Escaped(.0))]
    RankOffBoard(String),
}

/// A move refused by a checked `play`: the position was left unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("illegal move {}: {reason}", Escaped(.mv))]
pub struct IllegalMove {
    /// The move as text.
    pub mv: String,
    /// Why the move is not legal here.
    pub reason: String,
}

impl IllegalMove {
    /// An error for move text `mv` refused for `reason`.
    pub fn new(mv: impl ToString, reason: impl Into<String>) -> IllegalMove {
        IllegalMove {
            mv: mv.to_string(),
            reason: reason.into(),
        }
    }
}

/// A text that is none of the names of an enum's values (see
/// [`text_names!`](crate::text_names)).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown value '{}' (expected {expected}){}", Escaped(.text), renamed_note(.renamed_to))]
pub struct ParseNameError {
    /// The text given.
    pub text: String,
    /// The names accepted, as a list.
    pub expected: &'static str,
    /// When the text is a former name that is no longer read, the name
    /// that replaced it: the reader learns what to write instead.
    pub renamed_to: Option<&'static str>,
}

fn renamed_note(renamed_to: &Option<&'static str>) -> String {
    renamed_to.map_or_else(String::new, |name| format!("; it is now called '{name}'"))
}

impl ParseNameError {
    /// An error for `text`, which is none of `expected`.
    pub fn new(text: &str, expected: &'static str) -> ParseNameError {
        ParseNameError {
            text: text.to_string(),
            expected,
            renamed_to: None,
        }
    }

    /// An error for `text`, a former name of the value now called
    /// `renamed_to`.
    pub fn renamed(text: &str, expected: &'static str, renamed_to: &'static str) -> ParseNameError {
        ParseNameError {
            renamed_to: Some(renamed_to),
            ..ParseNameError::new(text, expected)
        }
    }
}
