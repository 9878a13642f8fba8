//! Why the library refuses a position or a move, as data: the error's
//! `{code, fields}` beside its English message, so that a page says it
//! in its own language by the code (`ErrorData`'s `cause` field) rather
//! than by reading the message back.
//!
//! ```
//! use qi_play::game::{new_game, GameError};
//!
//! let mut game = new_game("jungle", None).unwrap();
//! let Err(GameError::Move { reason, .. }) = game.play("a3a5") else { panic!() };
//! assert_eq!(reason.to_string(), "not a legal move in this position");
//! assert_eq!(reason.cause.unwrap()["code"], "refusal.not-legal");
//! ```

use std::any::Any;
use std::error::Error;
use std::fmt;

use qi_core::{ParseCoordError, Refusal};
use serde::Serialize;
use serde_json::Value;

/// Why something is refused: the message, and the error as data when the
/// library gives it so (every error of a position text or a move does).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    /// The message in English, as the error's `Display` gives it.
    pub message: String,
    /// The error as `{"code": …, "fields": …}`, or `None` for a reason
    /// that is only words.
    pub cause: Option<Value>,
}

impl Reason {
    /// A reason that is only words.
    pub fn text(message: impl Into<String>) -> Reason {
        Reason {
            message: message.into(),
            cause: None,
        }
    }

    /// The reason `e` gives, with its code.
    pub fn of<E: Serialize + fmt::Display + ?Sized>(e: &E) -> Reason {
        Reason {
            message: e.to_string(),
            // The library's errors serialise to maps of strings and
            // numbers: this cannot fail.
            cause: serde_json::to_value(e).ok(),
        }
    }

    /// The reason of an error of a game of the registry (a move or
    /// position text that cannot be read), with its code when it is one
    /// of the library's errors.
    pub fn of_error<E: Error + 'static>(e: &E) -> Reason {
        let any: &dyn Any = e;
        macro_rules! coded {
            ($($ty:ty),+) => {
                $(if let Some(e) = any.downcast_ref::<$ty>() {
                    return Reason::of(e);
                })+
            };
        }
        coded!(
            qi_jungle::ParseMoveError,
            qi_jungle::JfenError,
            qi_five_tigers::ParseMoveError,
            qi_five_tigers::PositionTextError,
            ParseCoordError,
            Refusal
        );
        Reason::text(e.to_string())
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<String> for Reason {
    fn from(message: String) -> Reason {
        Reason::text(message)
    }
}
