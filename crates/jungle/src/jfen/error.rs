//! The errors of JFEN text: a leaf the position names as its parse error
//! without importing the text module.

use qi_core::{Escaped, EscapedChar};
use thiserror::Error;

use crate::board::Piece;
use crate::rules::Rules;
use crate::setup::{ImpossiblePosition, SetupError};

/// Why JFEN text could not be read. Ranks are named as on the board
/// (`rank 9` is the first `/`-separated field).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "code", content = "fields")
)]
pub enum JfenError {
    /// The text is empty or blank.
    #[error("empty JFEN")]
    #[cfg_attr(feature = "serde", serde(rename = "jfen.empty"))]
    Empty,
    /// The board field does not have 9 ranks.
    #[error("the board has {0} ranks separated by '/', expected 9")]
    #[cfg_attr(feature = "serde", serde(rename = "jfen.rank-count"))]
    RankCount(usize),
    /// A rank does not describe exactly 7 squares.
    #[error("rank {rank} has {squares} squares, expected 7")]
    #[cfg_attr(feature = "serde", serde(rename = "jfen.rank-width"))]
    RankWidth {
        /// The rank (1..9).
        rank: u8,
        /// How many squares it describes (counted up to the first excess).
        squares: usize,
    },
    /// A character of the board is neither a piece letter nor a digit 1-7.
    #[error("unknown piece letter '{}' at rank {rank}", EscapedChar(*.letter))]
    #[cfg_attr(feature = "serde", serde(rename = "jfen.unknown-piece"))]
    UnknownPiece {
        /// The character.
        letter: char,
        /// The rank (1..9).
        rank: u8,
    },
    /// A digit that is not 1–7 (empty runs are 1 to 7 squares).
    #[error("bad empty-square count '{}' at rank {rank} (expected 1-7)", EscapedChar(*.digit))]
    #[cfg_attr(feature = "serde", serde(rename = "jfen.bad-digit"))]
    BadDigit {
        /// The digit.
        digit: char,
        /// The rank (1..9).
        rank: u8,
    },
    /// The same animal of the same side appears twice.
    #[error("two {0}s on the board")]
    #[cfg_attr(feature = "serde", serde(rename = "jfen.duplicate-piece"))]
    DuplicatePiece(Piece),
    /// The side-to-move field is missing.
    #[error("missing side to move after the board (expected 'w' or 'r' for Red, 'b' for Blue)")]
    #[cfg_attr(feature = "serde", serde(rename = "jfen.missing-side"))]
    MissingSide,
    /// The side-to-move field is not `w`, `b` or `r`.
    #[error("bad side to move '{}' (expected 'w' or 'r' for Red, 'b' for Blue)", Escaped(.0))]
    #[cfg_attr(feature = "serde", serde(rename = "jfen.bad-side"))]
    BadSide(String),
    /// A counter is not a number in range.
    #[error("bad {field} counter '{}' (expected {})", Escaped(.text), counter_range(.field))]
    #[cfg_attr(feature = "serde", serde(rename = "jfen.bad-counter"))]
    BadCounter {
        /// `no-capture` or `full-move`.
        field: &'static str,
        /// The text given.
        text: String,
    },
    /// A field after the full-move number that is not rules text, or a
    /// field after the rules.
    #[error("unexpected extra field '{}' after the full-move number", Escaped(.0))]
    #[cfg_attr(feature = "serde", serde(rename = "jfen.extra-field"))]
    ExtraField(String),
    /// The text names rules other than those it is read under (by
    /// [`Jungle::from_text`](crate::Jungle::from_text) and [`Jungle::from_text_lenient`](crate::Jungle::from_text_lenient)).
    #[error(
        "the position text is under the rules {text}, not the rules it is read under ({given})"
    )]
    #[cfg_attr(feature = "serde", serde(rename = "jfen.rules-mismatch"))]
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
    /// The board breaks a rule every setup keeps (an animal other than the
    /// Rat in water, an animal on its own den, both dens entered): the
    /// setup's own error and words. Only [`SetupError::AnimalInWater`],
    /// [`SetupError::OwnDen`] and [`SetupError::BothDensEntered`] come
    /// here; a setup's other errors have JFEN variants of their own
    /// ([`DuplicatePiece`](JfenError::DuplicatePiece),
    /// [`BadCounter`](JfenError::BadCounter),
    /// [`Impossible`](JfenError::Impossible)).
    ///
    /// ```
    /// use qi_games::jungle::{JfenError, Jungle, Rules, Setup, SetupError};
    ///
    /// let text = "7/7/7/7/1E5/7/7/7/7 w 0 1"; // an Elephant in the river
    /// let error = Jungle::from_text(text, Rules::standard()).unwrap_err();
    /// let setup = text.parse::<Setup>()?.into_position(Rules::standard()).unwrap_err();
    /// assert!(matches!(setup, SetupError::AnimalInWater { .. }));
    /// assert_eq!(error, JfenError::Setup(setup.clone()));
    /// assert_eq!(error.to_string(), setup.to_string());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[error(transparent)]
    #[cfg_attr(feature = "serde", serde(untagged))]
    Setup(SetupError),
    /// The text is well formed but no game reaches the position (only
    /// [`Jungle::from_text_lenient`](crate::Jungle::from_text_lenient) reads it).
    #[error(transparent)]
    #[cfg_attr(feature = "serde", serde(untagged))]
    Impossible(#[from] ImpossiblePosition),
}

/// What a counter field accepts, for its error message.
fn counter_range(field: &str) -> &'static str {
    if field == "full-move" {
        "a number from 1 to 4294967295"
    } else {
        "a number from 0 to 4294967295"
    }
}
