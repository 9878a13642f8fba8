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

use qi_core::{Game, Position, Refusal};
use qi_engine::record::{Record, ReplayError};
use qi_engine::{GameKit, SpecError};
use serde::Serialize;
use serde_json::{json, Value};
use thiserror::Error;

use crate::svg::start_position;

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
            qi_core::ParseCoordError,
            Refusal
        );
        Reason::text(e.to_string())
    }

    /// Why a game spec is refused: an unknown game, or the game's rules
    /// error with its code.
    pub fn of_spec(e: &SpecError) -> Reason {
        let cause = match e {
            SpecError::UnknownGame { name, .. } => {
                Some(json!({"code": "spec.unknown-game", "fields": {"name": name}}))
            }
            SpecError::BadRules { error, .. } => {
                let error: &(dyn Error + 'static) = &**error;
                if let Some(e) = error.downcast_ref::<qi_jungle::ParseRulesError>() {
                    Reason::of(e).cause
                } else if let Some(e) = error.downcast_ref::<qi_five_tigers::RulesError>() {
                    Reason::of(e).cause
                } else {
                    None
                }
            }
            _ => None,
        };
        Reason {
            message: e.to_string(),
            cause,
        }
    }

    /// Why a record without a `Game` tag is refused.
    pub fn no_game_tag() -> Reason {
        Reason {
            message: ReplayError::MissingGame.to_string(),
            cause: Some(json!({"code": "record.no-game-tag"})),
        }
    }

    /// Why a move of a record's variation (`text`) is refused: it cannot
    /// be read or played where the variation has it (`reason`).
    pub fn of_variation_move(text: &str, reason: Reason) -> Reason {
        Reason {
            message: format!("move '{}': {reason}", qi_core::Escaped(text)),
            cause: reason.cause.map(|reason| {
                json!({"code": "record.variation-move", "fields": {"text": text, "reason": reason}})
            }),
        }
    }

    /// Why a record's `Game` tag is refused.
    pub fn of_game_tag(e: &SpecError) -> Reason {
        Reason {
            message: format!("Game tag: {e}"),
            cause: Reason::of_spec(e)
                .cause
                .map(|cause| json!({"code": "record.game-tag", "fields": cause})),
        }
    }

    /// Why `record` of game `K` does not replay (`e`), with the reason of
    /// the tag or move it names as data: the start position's, or the
    /// move's read or played again here to give its typed error.
    pub fn of_replay<K: GameKit>(
        record: &Record,
        rules: qi_engine::RulesOf<K>,
        e: &ReplayError,
    ) -> Reason {
        let cause = match e {
            ReplayError::MissingGame => return Reason::no_game_tag(),
            ReplayError::Game(spec) => return Reason::of_game_tag(spec),
            ReplayError::Start(_) => start_position::<K>(rules, record.tag("Start"))
                .err()
                .and_then(|reason| reason.cause)
                .map(|cause| json!({"code": "record.start-tag", "fields": cause})),
            ReplayError::BadMove { number, text, .. } => text
                .parse::<<K::Position as Position>::Move>()
                .err()
                .and_then(|e| Reason::of_error(&e).cause)
                .map(|error| {
                    json!({"code": "record.unread-move", "fields": {
                        "number": number, "text": text, "error": error}})
                }),
            ReplayError::IllegalMove { number, text, .. } => {
                refusal_at::<K>(record, rules, *number).map(|reason| {
                    json!({"code": "record.illegal-move", "fields": {
                        "number": number, "text": text, "reason": reason}})
                })
            }
            ReplayError::ResultMismatch { rules, record } => Some(
                json!({"code": "record.rules-result", "fields": {"rules": rules, "record": record}}),
            ),
            _ => None,
        };
        Reason {
            message: e.to_string(),
            cause,
        }
    }
}

/// Why the game's tree of moves refuses a move the rules allow, or has
/// no move asked for; serialised as `{code, fields}` like the library's
/// errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error, Serialize)]
#[serde(tag = "code", content = "fields")]
pub enum TreeRefusal {
    /// A new variation would nest deeper than a record holds them.
    #[error("variations nest at most {max} deep")]
    #[serde(rename = "tree.too-deep")]
    TooDeep {
        /// The deepest nesting.
        max: usize,
    },
    /// The tree has no such move at the position asked for.
    #[error("no such move in the game's tree here")]
    #[serde(rename = "tree.no-such-move")]
    NoSuchMove,
}

/// Why the rules refuse move `number` (from 1) of `record`, its moves
/// before it played, as data.
fn refusal_at<K: GameKit>(
    record: &Record,
    rules: qi_engine::RulesOf<K>,
    number: usize,
) -> Option<Value> {
    let mut game = K::Game::new(start_position::<K>(rules, record.tag("Start")).ok()?);
    let mut moves = record.moves.iter().map(|mv| mv.text.parse().ok());
    for mv in moves.by_ref().take(number - 1) {
        game.play(mv?).ok()?;
    }
    let mv = moves.next()??;
    let refusal = match game.outcome() {
        Some(outcome) => Refusal::GameOver {
            outcome: outcome.to_string(),
        },
        None => game.play(mv).err()?.reason,
    };
    Reason::of(&refusal).cause
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
