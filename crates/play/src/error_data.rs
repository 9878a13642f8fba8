//! Errors as data: a stable kind, the fields the message is made of, and
//! the message, so that a page translates an error by its kind and fields
//! rather than by reading the English message back (the JavaScript
//! package throws these, `qi serve` answers with them).
//!
//! ```
//! use qi_play::error_data::{ErrorData, Field};
//! use qi_play::game::new_game;
//!
//! let mut game = new_game("jungle", None).unwrap();
//! let e = ErrorData::from(&game.goto(5).unwrap_err());
//! assert_eq!(e.kind, "ply");
//! assert_eq!(e.fields["ply"], Field::Number(5));
//! assert_eq!(e.message, "ply 5 is outside the game (0 to 0)");
//! ```

use std::collections::BTreeMap;

use qi_engine::SpecError;
use serde::Serialize;

use crate::clock::ClockError;
use crate::game::GameError;
use crate::reason::Reason;
use crate::review::{Budget, ReviewError, MAX_DEPTH, MAX_NODES};
use crate::svg::RenderError;

/// One field of an error: a number, or text (which may be a message of
/// its own, such as the reason a move is refused).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Field {
    /// A count, a ply, a limit.
    Number(u64),
    /// Input quoted back, a name, or a reason in words.
    Text(String),
    /// The library's own error as data: `{"code": …, "fields": …}`.
    Cause(serde_json::Value),
}

impl From<u64> for Field {
    fn from(n: u64) -> Field {
        Field::Number(n)
    }
}

impl From<usize> for Field {
    fn from(n: usize) -> Field {
        Field::Number(n as u64)
    }
}

impl From<String> for Field {
    fn from(s: String) -> Field {
        Field::Text(s)
    }
}

impl From<&str> for Field {
    fn from(s: &str) -> Field {
        Field::Text(s.to_string())
    }
}

/// An error as a page reads it: `{ kind, fields, message }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ErrorData {
    /// What went wrong, as a stable name (`ply`, `move`, `argument.range`).
    pub kind: &'static str,
    /// The values the message is made of, by name.
    pub fields: BTreeMap<&'static str, Field>,
    /// The message in English, as `Display` gives it.
    pub message: String,
}

impl ErrorData {
    /// An error of `kind` with `fields` and `message`.
    pub fn new<const N: usize>(
        kind: &'static str,
        fields: [(&'static str, Field); N],
        message: impl Into<String>,
    ) -> ErrorData {
        ErrorData {
            kind,
            fields: fields.into_iter().collect(),
            message: message.into(),
        }
    }

    /// This error with `reason`'s words as its `reason` field and, when
    /// the library gives it as data, its code and fields as `cause`.
    fn with_reason(mut self, reason: &Reason) -> ErrorData {
        self.fields.insert("reason", reason.message.as_str().into());
        if let Some(cause) = &reason.cause {
            self.fields.insert("cause", Field::Cause(cause.clone()));
        }
        self
    }
}

/// The kind and fields of a spec error.
fn spec(e: &SpecError) -> ErrorData {
    let message = e.to_string();
    match e {
        SpecError::UnknownGame { name, .. } => ErrorData::new(
            "spec.unknown-game",
            [("name", name.as_str().into())],
            message,
        ),
        SpecError::BadRules { error, .. } => {
            let reason = Reason {
                message: error.to_string(),
                cause: Reason::of_spec(e).cause,
            };
            ErrorData::new("spec.rules", [], message).with_reason(&reason)
        }
        SpecError::Profile { game, profile } => ErrorData::new(
            "spec.profile",
            [
                ("game", (*game).into()),
                ("profile", profile.to_string().into()),
            ],
            message,
        ),
        // A kind of spec error added later: its message alone.
        _ => ErrorData::new("spec", [], message),
    }
}

impl From<&GameError> for ErrorData {
    fn from(e: &GameError) -> ErrorData {
        let message = e.to_string();
        match e {
            GameError::Spec(e) => spec(e),
            GameError::Position(reason) => {
                ErrorData::new("position", [], message).with_reason(reason)
            }
            GameError::Move { text, reason } => {
                ErrorData::new("move", [("text", text.as_str().into())], message)
                    .with_reason(reason)
            }
            GameError::Ply { ply, len } => ErrorData::new(
                "ply",
                [("ply", (*ply).into()), ("len", (*len).into())],
                message,
            ),
            GameError::NothingToUndo => ErrorData::new("nothing-to-undo", [], message),
            GameError::Record(reason) => ErrorData::new("record", [], message).with_reason(reason),
            GameError::Option(reason) => {
                ErrorData::new("option", [("reason", reason.as_str().into())], message)
            }
            GameError::Render(e) => ErrorData::from(e),
        }
    }
}

impl From<&RenderError> for ErrorData {
    fn from(e: &RenderError) -> ErrorData {
        let message = e.to_string();
        match e {
            RenderError::Spec(e) => spec(e),
            RenderError::Position(reason) => {
                ErrorData::new("position", [], message).with_reason(reason)
            }
            RenderError::Square(square) => {
                ErrorData::new("square", [("square", square.as_str().into())], message)
            }
            RenderError::Move {
                number,
                text,
                reason,
            } => ErrorData::new(
                "record.bad-move",
                [("number", (*number).into()), ("text", text.as_str().into())],
                message,
            )
            .with_reason(reason),
            RenderError::Record(reason) => {
                ErrorData::new("record", [], message).with_reason(reason)
            }
            RenderError::Ply { ply, len } => ErrorData::new(
                "record.ply",
                [("ply", (*ply).into()), ("len", (*len).into())],
                message,
            ),
            RenderError::NoDrawing(game) => {
                ErrorData::new("no-drawing", [("game", game.as_str().into())], message)
            }
        }
    }
}

impl From<&ClockError> for ErrorData {
    fn from(e: &ClockError) -> ErrorData {
        let message = e.to_string();
        match e {
            ClockError::TimeControl { text, reason } => ErrorData::new(
                "clock.time-control",
                [("text", text.as_str().into()), ("reason", (*reason).into())],
                message,
            ),
            ClockError::NotRunning => ErrorData::new("clock.not-running", [], message),
            ClockError::Paused { paused: true } => ErrorData::new("clock.paused", [], message),
            ClockError::Paused { paused: false } => ErrorData::new("clock.not-paused", [], message),
            ClockError::Flagged { side } => ErrorData::new(
                "clock.flagged",
                [("side", crate::game::side_word(*side).into())],
                message,
            ),
            ClockError::TimeWentBack { now, last } => ErrorData::new(
                "clock.time-went-back",
                [("now", (*now).into()), ("last", (*last).into())],
                message,
            ),
        }
    }
}

impl From<&ReviewError> for ErrorData {
    fn from(e: &ReviewError) -> ErrorData {
        match e {
            ReviewError::Game(e) => ErrorData::from(e),
            ReviewError::Budget(budget) => {
                let (name, value, max) = match *budget {
                    Budget::Nodes(n) => ("nodes", n, MAX_NODES),
                    Budget::Depth(d) => ("depth", d.into(), MAX_DEPTH.into()),
                };
                ErrorData::new(
                    "review.budget",
                    [
                        ("name", name.into()),
                        ("value", value.into()),
                        ("max", max.into()),
                    ],
                    e.to_string(),
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{load_record, new_game};

    #[test]
    fn each_error_has_its_kind_and_the_fields_of_its_message() {
        let e = ErrorData::from(&new_game("chess", None).err().unwrap());
        assert_eq!(e.kind, "spec.unknown-game");
        assert_eq!(e.fields["name"], Field::Text("chess".into()));
        assert!(e.message.starts_with("unknown game 'chess'"));

        let e = ErrorData::from(&new_game("jungle", Some("x")).err().unwrap());
        assert_eq!(e.kind, "position");
        assert!(e.message.ends_with(&*match &e.fields["reason"] {
            Field::Text(t) => t.clone(),
            other => panic!("{other:?}"),
        }));

        let mut game = new_game("jungle", None).unwrap();
        let e = ErrorData::from(&game.play("a9a1").unwrap_err());
        assert_eq!(e.kind, "move");
        assert_eq!(e.fields["text"], Field::Text("a9a1".into()));
        assert_eq!(
            ErrorData::from(&game.undo().unwrap_err()).kind,
            "nothing-to-undo"
        );
        let e = ErrorData::from(&game.set_option("Bogus", "1").unwrap_err());
        assert_eq!(e.kind, "option");
        let e = ErrorData::from(&load_record("[Game \"jungle\"]\n1. a9a1 *").err().unwrap());
        assert_eq!(e.kind, "record");
    }

    #[test]
    fn a_refused_move_or_position_carries_its_cause_as_a_code() {
        let cause = |e: &GameError| match &ErrorData::from(e).fields["cause"] {
            Field::Cause(cause) => cause.clone(),
            other => panic!("{other:?}"),
        };
        let mut game = new_game("jungle", None).unwrap();
        let e = game.play("a9a1").unwrap_err();
        assert_eq!(cause(&e), serde_json::json!({"code": "refusal.not-legal"}));
        let e = game.play("z3a4").unwrap_err();
        assert_eq!(
            cause(&e),
            serde_json::json!({"code": "jungle-move.bad-from", "fields": {
                "text": "z3a4", "error": {"code": "coord.file-off-board", "fields": "z"}}})
        );
        let e = new_game("jungle", Some("x6/7/7/7/7/7/7/7/7 w 0 1"))
            .err()
            .unwrap();
        assert_eq!(
            cause(&e),
            serde_json::json!({"code": "jfen.unknown-piece", "fields": {"letter": "x", "rank": 9}})
        );
        let e = new_game("jungle:standard,bogus=1", None).err().unwrap();
        assert_eq!(
            cause(&e),
            serde_json::json!({"code": "jungle-rules.unknown-option", "fields": "bogus"})
        );
        let e = new_game("five-tigers:nosuch", None).err().unwrap();
        assert_eq!(
            cause(&e),
            serde_json::json!({"code": "ft-rules.unknown-preset", "fields": {"name": "nosuch"}})
        );
        let e = load_record("[Game \"jungle\"]\n\n1. a3a4 a3a9 *\n")
            .err()
            .unwrap();
        assert_eq!(
            cause(&e),
            serde_json::json!({"code": "record.illegal-move", "fields": {
                "number": 2, "text": "a3a9", "reason": {"code": "refusal.not-legal"}}})
        );
        let e = load_record(
            "[Game \"five-tigers\"]\n[Start \"5/5/5/5/5 q place X:13,O:13 - x -,- 0\"]\n\n*\n",
        )
        .err()
        .unwrap();
        assert_eq!(
            cause(&e),
            serde_json::json!({"code": "record.start-tag", "fields": {
                "code": "ft-text.bad-char", "fields": {"field": "to-move", "ch": "q"}}})
        );
        let mut game = new_game("five-tigers", None).unwrap();
        game.play("c3").unwrap();
        let e = ErrorData::from(&game.play("c3").unwrap_err());
        assert_eq!(
            e.fields["reason"],
            Field::Text("the point is not empty".into())
        );
        assert_eq!(
            e.fields["cause"],
            Field::Cause(serde_json::json!({"code": "refusal.occupied"}))
        );
        let e = new_game("five-tigers", Some("5/5/5/5/5 q place X:13,O:13 - x -,- 0"))
            .err()
            .unwrap();
        assert_eq!(
            cause(&e),
            serde_json::json!({"code": "ft-text.bad-char", "fields": {"field": "to-move", "ch": "q"}})
        );
    }

    #[test]
    fn clock_and_review_errors_have_their_kinds_and_fields() {
        use crate::clock::{Clock, TimeControl};
        use crate::review::{review_record, Budget};
        use qi_core::Side;

        let e = ErrorData::from(&"5+x".parse::<TimeControl>().unwrap_err());
        assert_eq!(e.kind, "clock.time-control");
        assert_eq!(e.fields["text"], Field::Text("5+x".into()));
        let mut clock = Clock::new("1+0".parse().unwrap());
        assert_eq!(
            ErrorData::from(&clock.press(0).unwrap_err()).kind,
            "clock.not-running"
        );
        assert_eq!(
            ErrorData::from(&clock.resume(0).unwrap_err()).kind,
            "clock.not-paused"
        );
        clock.start(Side::Second, 10).unwrap();
        let e = ErrorData::from(&clock.press(5).unwrap_err());
        assert_eq!(e.kind, "clock.time-went-back");
        assert_eq!(e.fields["now"], Field::Number(5));
        assert_eq!(e.fields["last"], Field::Number(10));
        clock.pause(20).unwrap();
        assert_eq!(
            ErrorData::from(&clock.press(30).unwrap_err()).kind,
            "clock.paused"
        );
        clock.resume(30).unwrap();
        let e = ErrorData::from(&clock.press(2_000).unwrap_err());
        assert_eq!(e.kind, "clock.flagged");
        assert_eq!(e.fields["side"], Field::Text("second".into()));
        assert_eq!(e.message, "second is out of time");

        let e = review_record("", Budget::Nodes(0), &mut || false, &mut |_, _| false).unwrap_err();
        let e = ErrorData::from(&e);
        assert_eq!(e.kind, "review.budget");
        assert_eq!(e.fields["name"], Field::Text("nodes".into()));
        assert_eq!(e.fields["value"], Field::Number(0));
        let e = review_record("x", Budget::Depth(1), &mut || false, &mut |_, _| false).unwrap_err();
        assert_eq!(ErrorData::from(&e).kind, "record");
    }
}
