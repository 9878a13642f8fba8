//! Why position text could not be read.

use qi_core::{Escaped, EscapedChar, ParseCoordError, Side};
use thiserror::Error;

use crate::point::{not_adjacent, Point};
use crate::rules::{Rules, RulesError};
use crate::setup::{hand_too_large, Field, SetupError};

/// Why position text could not be read. Every message names the field
/// (but for a wrong field count or bad rules), and the user's text it
/// repeats is shown through [`qi_core::Escaped`] / [`qi_core::EscapedChar`]
/// (control characters escaped).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "code", content = "fields")
)]
pub enum PositionTextError {
    /// The text does not have eight space-separated fields, or nine of
    /// which the last is rules text.
    #[error("expected 8 space-separated fields, found {0}")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-text.field-count"))]
    FieldCount(usize),
    /// The text names rules other than those it is read under (by
    /// [`FiveTigers::from_text`](crate::FiveTigers::from_text) and [`FiveTigers::from_text_lenient`](crate::FiveTigers::from_text_lenient)).
    #[error(
        "the position text is under the rules {text}, not the rules it is read under ({given})"
    )]
    #[cfg_attr(feature = "serde", serde(rename = "ft-text.rules-mismatch"))]
    RulesMismatch {
        /// The rules the text names.
        #[cfg_attr(
            feature = "serde",
            serde(serialize_with = "qi_core::serde_text::serialize_text")
        )]
        text: Rules,
        /// The rules it was read under.
        #[cfg_attr(
            feature = "serde",
            serde(serialize_with = "qi_core::serde_text::serialize_text")
        )]
        given: Rules,
    },
    /// A character that has no place in the field.
    #[error("{field}: unexpected character '{}'", EscapedChar(*.ch))]
    #[cfg_attr(feature = "serde", serde(rename = "ft-text.bad-char"))]
    BadChar {
        /// The field.
        #[cfg_attr(
            feature = "serde",
            serde(serialize_with = "qi_core::serde_text::serialize_text")
        )]
        field: Field,
        /// The character.
        ch: char,
    },
    /// The field cannot be read, or its value is impossible on its own
    /// (a rank of more than five points, a count beyond its type, a step
    /// between points that are not adjacent).
    #[error("{field}: {reason}")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-text.invalid"))]
    Invalid {
        /// The field.
        #[cfg_attr(
            feature = "serde",
            serde(serialize_with = "qi_core::serde_text::serialize_text")
        )]
        field: Field,
        /// What is wrong.
        reason: FieldError,
    },
    /// The rules given are not valid.
    #[error("rules: {0}")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-text.rules"))]
    Rules(#[from] RulesError),
    /// The fields were read, but they disagree with each other or describe
    /// a position no game can reach: the [`SetupError`] says why, and
    /// [`SetupError::field`] on which field it is reported.
    #[error("{field}: {error}", field = .0.field(), error = .0)]
    #[cfg_attr(
        feature = "serde",
        serde(rename = "ft-text.setup", serialize_with = "setup_fields")
    )]
    Setup(#[from] SetupError),
}

/// Why one field of position text cannot be read (the reason of
/// [`PositionTextError::Invalid`], which names the field). The text it
/// repeats is shown through [`qi_core::Escaped`].
///
/// ```
/// use qi_five_tigers::{Field, FieldError, FiveTigers, PositionTextError};
///
/// let err = "5/5/5/5 x place X:13,O:13 - x -,- 0".parse::<FiveTigers>().unwrap_err();
/// assert_eq!(err, PositionTextError::Invalid { field: Field::Board, reason: FieldError::RankCount(4) });
/// assert_eq!(err.to_string(), "board: expected 5 ranks separated by '/', found 4");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "code", content = "fields")
)]
pub enum FieldError {
    /// The board has other than five ranks.
    #[error("expected 5 ranks separated by '/', found {0}")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.rank-count"))]
    RankCount(usize),
    /// A rank writes a run of empty points as two digits (`23`, `11`).
    #[error("rank {rank} has two digits in a row")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.digits-in-a-row"))]
    DigitsInARow {
        /// The rank, from 1.
        rank: u8,
    },
    /// A rank of more than five points.
    #[error("rank {rank} has more than 5 points")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.rank-too-long"))]
    RankTooLong {
        /// The rank, from 1.
        rank: u8,
    },
    /// A rank of fewer than five points.
    #[error("rank {rank} has {points} points, not 5")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.rank-width"))]
    RankWidth {
        /// The rank, from 1.
        rank: u8,
        /// Its points.
        points: u8,
    },
    /// A side field with nothing in it.
    #[error("empty")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.empty"))]
    Empty,
    /// A count with no digit.
    #[error("missing number")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.missing-number"))]
    MissingNumber,
    /// A count written with a leading zero (`01`).
    #[error("leading zero in {}", Escaped(.0))]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.leading-zero"))]
    LeadingZero(String),
    /// A count beyond what the field holds.
    #[error("{} exceeds {max}", Escaped(.text))]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.too-large"))]
    TooLarge {
        /// The count as written.
        text: String,
        /// The largest the field holds.
        max: u32,
    },
    /// The hands are not two entries separated by a comma.
    #[error("expected X:<n>,O:<n>")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.hands-form"))]
    HandsForm,
    /// The first hand is not `X:<n>`.
    #[error("expected X:<n> first")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.hands-first"))]
    HandsFirst,
    /// The second hand is not `O:<n>`.
    #[error("expected O:<n> second")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.hands-second"))]
    HandsSecond,
    /// A hand beyond any the rules give (beyond 255), in the words of
    /// [`SetupError::HandTooLarge`].
    #[error("{}", hand_too_large(*.side, Escaped(.hand), *.max))]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.hand-too-large"))]
    HandTooLarge {
        /// The side.
        side: Side,
        /// The hand as written.
        hand: String,
        /// The pieces per side of the rules.
        max: u8,
    },
    /// An owed entry with nothing in it.
    #[error("empty entry")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.empty-entry"))]
    EmptyEntry,
    /// An owed entry of no removal.
    #[error("an entry owes 0 removals")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.zero-entry"))]
    ZeroEntry,
    /// More than two owed entries.
    #[error("more than two entries")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.too-many-entries"))]
    TooManyEntries,
    /// Two owed entries in a row for one side (they would be one entry).
    #[error("two entries in a row for one side")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.entries-in-a-row"))]
    EntriesInARow,
    /// Owed entries that make no debt.
    #[error("bad entries")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.bad-entries"))]
    BadEntries,
    /// The previous steps are not two entries separated by a comma.
    #[error("expected <last-X>,<last-O>")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.steps-form"))]
    StepsForm,
    /// A previous step that is neither `<from>-<to>` nor `-`.
    #[error("'{}' is not a step or '-'", Escaped(.0))]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.not-a-step"))]
    NotAStep(String),
    /// A step whose point cannot be read.
    #[error("'{}': {error}", Escaped(.text))]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.bad-point"))]
    BadPoint {
        /// The point as written.
        text: String,
        /// Why it is no point.
        error: ParseCoordError,
    },
    /// A step between points that are not adjacent.
    #[error("{}", not_adjacent(*.from, *.to))]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.not-adjacent"))]
    NotAdjacent {
        /// The point left.
        from: Point,
        /// The point entered.
        to: Point,
    },
    /// `-` read as a step (it means none).
    #[error("'-' is no step")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.no-step"))]
    NoStep,
    /// A phase other than `place` and `move`.
    #[error("'{}' is not 'place' or 'move'", Escaped(.0))]
    #[cfg_attr(feature = "serde", serde(rename = "ft-field.bad-phase"))]
    BadPhase(String),
}

/// A setup error's fields: the field of the text it is reported on, and
/// the error.
#[cfg(feature = "serde")]
fn setup_fields<S: serde::Serializer>(error: &SetupError, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    let mut fields = s.serialize_struct("Setup", 2)?;
    fields.serialize_field("field", error.field().name())?;
    fields.serialize_field("error", error)?;
    fields.end()
}

impl PositionTextError {
    /// The field the error is about (`None` for a wrong field count or bad
    /// rules).
    pub fn field(&self) -> Option<Field> {
        match self {
            PositionTextError::BadChar { field, .. } | PositionTextError::Invalid { field, .. } => {
                Some(*field)
            }
            PositionTextError::Setup(e) => Some(e.field()),
            PositionTextError::FieldCount(_)
            | PositionTextError::Rules(_)
            | PositionTextError::RulesMismatch { .. } => None,
        }
    }
}
