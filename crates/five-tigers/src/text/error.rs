//! Why position text could not be read.

use qi_core::EscapedChar;
use thiserror::Error;

use crate::rules::{Rules, RulesError};
use crate::setup::{Field, SetupError};

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
        reason: String,
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
