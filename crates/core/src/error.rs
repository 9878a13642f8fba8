//! Errors shared by every game.

use thiserror::Error;

use crate::{Escaped, EscapedChar, Side};

/// Why a coordinate text such as `a1` could not be read. With the `serde`
/// feature it serialises as `{"code": "coord.bad-file", "fields": "Z"}`: a
/// stable code and the values of its message, so that a client says it in
/// its own language without reading the English message (as every error of
/// the qi crates that a page shows).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "code", content = "fields")
)]
pub enum ParseCoordError {
    /// The text was empty.
    #[error("empty coordinate")]
    #[cfg_attr(feature = "serde", serde(rename = "coord.empty"))]
    Empty,
    /// The first character is not a lower-case file letter.
    #[error("'{}' is not a file letter (expected a lower-case letter)", EscapedChar(*.0))]
    #[cfg_attr(feature = "serde", serde(rename = "coord.bad-file"))]
    BadFile(char),
    /// The file letter lies beyond the board's last file.
    #[error("file '{}' is off the board", EscapedChar(*.0))]
    #[cfg_attr(feature = "serde", serde(rename = "coord.file-off-board"))]
    FileOffBoard(char),
    /// Only a file letter was given.
    #[error("missing rank after the file letter")]
    #[cfg_attr(feature = "serde", serde(rename = "coord.missing-rank"))]
    MissingRank,
    /// A character of the rank is not a digit.
    #[error("'{}' is not a rank digit", EscapedChar(*.0))]
    #[cfg_attr(feature = "serde", serde(rename = "coord.bad-rank"))]
    BadRank(char),
    /// The rank number lies outside the board.
    #[error("rank {} is off the board", Escaped(.0))]
    #[cfg_attr(feature = "serde", serde(rename = "coord.rank-off-board"))]
    RankOffBoard(String),
}

/// A move refused by a checked `play`: the position was left unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[error("illegal move {}: {reason}", Escaped(.mv))]
pub struct IllegalMove {
    /// The move as text.
    pub mv: String,
    /// Why the move is not legal here.
    pub reason: Refusal,
}

impl IllegalMove {
    /// An error for move text `mv` refused for `reason`.
    pub fn new(mv: impl ToString, reason: Refusal) -> IllegalMove {
        IllegalMove {
            mv: mv.to_string(),
            reason,
        }
    }
}

/// Why the rules refuse a move: the reasons the games of qi give, each with
/// a stable code (`{"code": "refusal.owed", "fields": {"side": "first",
/// "count": 2}}` with the `serde` feature).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "code", content = "fields")
)]
pub enum Refusal {
    /// The game has ended.
    #[error("the game is over ({outcome})")]
    #[cfg_attr(feature = "serde", serde(rename = "refusal.game-over"))]
    GameOver {
        /// How it ended, in words.
        outcome: String,
    },
    /// Not one of the position's legal moves.
    #[error("not a legal move in this position")]
    #[cfg_attr(feature = "serde", serde(rename = "refusal.not-legal"))]
    NotLegal,
    /// It would repeat a chase the anti-chase rule forbids.
    #[error("forbidden by the {rule} anti-chase rule")]
    #[cfg_attr(feature = "serde", serde(rename = "refusal.anti-chase"))]
    AntiChase {
        /// The rule's name (`7-3`, `17-5`).
        rule: &'static str,
    },
    /// A removal of a piece that may not be removed: only a loose enemy
    /// piece may be (`own` false), or, when none is loose, one of the
    /// remover's own (`own` true).
    #[error("{side} may remove only {}", if *.own { "one of its own pieces" } else { "a loose enemy piece" })]
    #[cfg_attr(feature = "serde", serde(rename = "refusal.remove-only"))]
    RemoveOnly {
        /// The side removing.
        side: Side,
        /// Whether it must remove one of its own pieces.
        own: bool,
    },
    /// A side is owed removals, and any other move waits for them.
    #[error("{side} is owed {count} removal(s) first")]
    #[cfg_attr(feature = "serde", serde(rename = "refusal.owed"))]
    Owed {
        /// The side owed them.
        side: Side,
        /// How many.
        count: u8,
    },
    /// A removal when none is owed.
    #[error("no removal is owed")]
    #[cfg_attr(feature = "serde", serde(rename = "refusal.no-removal-owed"))]
    NoRemovalOwed,
    /// A placement on a point that holds a piece.
    #[error("the point is not empty")]
    #[cfg_attr(feature = "serde", serde(rename = "refusal.occupied"))]
    Occupied,
    /// A placement after the placement phase.
    #[error("placement is over")]
    #[cfg_attr(feature = "serde", serde(rename = "refusal.placement-over"))]
    PlacementOver,
    /// A step during the placement phase.
    #[error("pieces step only after placement")]
    #[cfg_attr(feature = "serde", serde(rename = "refusal.step-in-placement"))]
    StepInPlacement,
    /// A step straight back, which the shuttle rule forbids.
    #[error("the shuttle rule forbids stepping straight back")]
    #[cfg_attr(feature = "serde", serde(rename = "refusal.shuttle"))]
    Shuttle,
    /// A step that is not one of the side's pieces to an adjacent empty
    /// point.
    #[error("not a step of {side} to an adjacent empty point")]
    #[cfg_attr(feature = "serde", serde(rename = "refusal.not-a-step"))]
    NotAStep {
        /// The side to move.
        side: Side,
    },
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
