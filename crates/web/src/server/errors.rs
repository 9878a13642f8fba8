//! Error answers: a status, a stable code and a message, sent as
//! `{"error": message, "code": code, "kind": kind, "fields": {...}}`, with
//! any input they repeat bounded and escaped. The kind and fields of a
//! game's errors are those the JavaScript package throws
//! ([`ErrorData`]), so a page translates both backends' errors alike.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

use std::collections::BTreeMap;

use qi_play::clock::ClockError;
use qi_play::error_data::{ErrorData, Field};
use qi_play::review::ReviewError;

use crate::game::GameError;

/// The longest error message sent, in characters: messages repeat input
/// (the libraries bound what they quote, but serde's messages quote a
/// whole JSON string), and an answer must not grow with the request.
pub const MAX_MESSAGE: usize = 300;

/// An error answer: a status, a code and a message, sent as
/// `{"error": message, "code": code}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    kind: &'static str,
    fields: BTreeMap<&'static str, Field>,
    message: String,
}

impl ApiError {
    /// An error answer with the code of its status. Control characters
    /// of the message (which may repeat the request) are escaped, and a
    /// message longer than [`MAX_MESSAGE`] characters is cut with an
    /// ellipsis.
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError::with_code(status, code_of(status), message)
    }

    /// An error answer with its own code.
    pub(crate) fn with_code(
        status: StatusCode,
        code: &'static str,
        message: impl Into<String>,
    ) -> ApiError {
        let message: String = message.into();
        let mut shown = String::new();
        for (i, c) in message.chars().enumerate() {
            if i == MAX_MESSAGE {
                shown.push('…');
                break;
            }
            if c.is_control() {
                shown.extend(c.escape_default());
            } else {
                shown.push(c);
            }
        }
        ApiError {
            status,
            code,
            kind: code,
            fields: BTreeMap::new(),
            message: shown,
        }
    }

    /// This error with its own kind and fields (bounded as the message
    /// is), instead of the code as its kind.
    pub(crate) fn kinded<const N: usize>(
        mut self,
        kind: &'static str,
        fields: [(&'static str, Field); N],
    ) -> ApiError {
        self.kind = kind;
        self.fields = fields.into_iter().map(bounded).collect();
        self
    }

    /// The answer's fields.
    pub fn fields(&self) -> &BTreeMap<&'static str, Field> {
        &self.fields
    }

    pub(crate) fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub(crate) fn busy(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    pub(crate) fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    /// The answer's status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The answer's code (see `docs/web.md`).
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The answer's message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The error's kind: a game's error's own (`move`, `ply`, see
    /// `docs/wasm.md`), else the code.
    pub fn kind(&self) -> &'static str {
        self.kind
    }
}

/// The code of an error answer that has no more precise one.
fn code_of(status: StatusCode) -> &'static str {
    match status {
        StatusCode::BAD_REQUEST => "bad_request",
        StatusCode::FORBIDDEN => "forbidden",
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::CONFLICT => "busy",
        StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        StatusCode::UNPROCESSABLE_ENTITY => "illegal",
        StatusCode::SERVICE_UNAVAILABLE => "unavailable",
        s if s.is_server_error() => "server_error",
        _ => "error",
    }
}

impl ApiError {
    /// An error answer of `status` for a library's error as data.
    fn of_data(status: StatusCode, data: ErrorData) -> ApiError {
        let mut error = ApiError::new(status, data.message);
        error.kind = data.kind;
        error.fields = data.fields.into_iter().map(bounded).collect();
        error
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        let status = match e {
            GameError::Move { .. } | GameError::NothingToUndo => StatusCode::UNPROCESSABLE_ENTITY,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError::of_data(status, ErrorData::from(&e))
    }
}

impl From<ClockError> for ApiError {
    /// A bad time control is a 400; a clock that cannot do it now (out of
    /// time, paused, not running) a 409.
    fn from(e: ClockError) -> ApiError {
        let status = match e {
            ClockError::TimeControl { .. } => StatusCode::BAD_REQUEST,
            _ => StatusCode::CONFLICT,
        };
        ApiError::of_data(status, ErrorData::from(&e))
    }
}

impl From<ReviewError> for ApiError {
    fn from(e: ReviewError) -> ApiError {
        match e {
            ReviewError::Game(e) => e.into(),
            ReviewError::Budget(_) => {
                ApiError::of_data(StatusCode::BAD_REQUEST, ErrorData::from(&e))
            }
        }
    }
}

/// A field whose quoted input is bounded as the message is.
fn bounded((name, field): (&'static str, Field)) -> (&'static str, Field) {
    match field {
        Field::Text(t) => (name, Field::Text(bounded_text(t, MAX_MESSAGE))),
        Field::Cause(mut cause) => {
            bound_strings(&mut cause);
            (name, Field::Cause(cause))
        }
        other => (name, other),
    }
}

/// The characters of quoted input a cause keeps: the message and the
/// reason quote it too, and the whole answer stays short.
const MAX_QUOTED: usize = 40;

/// `text`, cut to `max` characters and an ellipsis if longer.
fn bounded_text(text: String, max: usize) -> String {
    if text.chars().count() > max {
        text.chars().take(max).chain(['…']).collect()
    } else {
        text
    }
}

/// Bounds every string of `value` (the input a cause quotes).
fn bound_strings(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::String(s) => *s = bounded_text(std::mem::take(s), MAX_QUOTED),
        serde_json::Value::Array(items) => items.iter_mut().for_each(bound_strings),
        serde_json::Value::Object(map) => map.values_mut().for_each(bound_strings),
        _ => {}
    }
}

impl ApiError {
    /// The answer's body (a line of a streamed answer that failed late).
    pub(crate) fn body(&self) -> serde_json::Value {
        serde_json::json!(ErrorBody {
            error: self.message.clone(),
            code: self.code,
            kind: self.kind,
            fields: self.fields.clone(),
        })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(ErrorBody {
                error: self.message,
                code: self.code,
                kind: self.kind,
                fields: self.fields,
            }),
        )
            .into_response()
    }
}

#[derive(Serialize)]
struct ErrorBody {
    error: String,
    code: &'static str,
    kind: &'static str,
    fields: BTreeMap<&'static str, Field>,
}

/// Any error answer without a JSON body (an unknown method, a body too
/// large, a missing file of the site, ...) gets one.
pub(crate) async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if (status.is_client_error() || status.is_server_error()) && !is_json {
        let message = status.canonical_reason().unwrap_or("error").to_lowercase();
        return ApiError::new(status, message).into_response();
    }
    response
}

pub(crate) async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such page or API")
}

/// A search is running in the session (`engine` or `analysis`): 409.
pub(crate) fn searching(search: &'static str) -> ApiError {
    ApiError::busy(format!("a search is running ({search})"))
        .kinded("searching", [("search", search.into())])
}

/// The engine is choosing a move, so the game must not change: 409.
pub(crate) fn engine_thinking() -> ApiError {
    ApiError::busy("the engine is thinking: wait for its move").kinded("engine-thinking", [])
}

/// The game is over, so there is nothing to search: 409.
pub(crate) fn game_over() -> ApiError {
    ApiError::busy("the game is over").kinded("game-over", [])
}

/// A number of the request outside `min..=max`, with the kind and fields
/// of the JavaScript package's (`argument.range`).
pub(crate) fn out_of_range(name: &'static str, min: u64, max: u64, value: u64) -> ApiError {
    ApiError::bad(format!("{name} must be from {min} to {max}, not {value}")).kinded(
        "argument.range",
        [
            ("name", name.into()),
            ("min", min.into()),
            ("max", max.into()),
            ("value", value.to_string().into()),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_are_cut_and_control_characters_escaped() {
        let e = ApiError::bad(format!("bad '{}'", "x".repeat(10_000)));
        assert_eq!(e.message().chars().count(), MAX_MESSAGE + 1);
        assert!(e.message().ends_with('…'));
        let e = ApiError::bad("a\u{1b}[2Jb");
        assert_eq!(e.message(), "a\\u{1b}[2Jb");
        assert_eq!(e.code(), "bad_request");
        assert_eq!(e.kind(), "bad_request");
    }

    #[test]
    fn the_servers_own_errors_have_their_kinds_and_fields() {
        let e = searching("engine");
        assert_eq!((e.kind(), e.code()), ("searching", "busy"));
        assert_eq!(e.fields()["search"], Field::Text("engine".into()));
        assert_eq!(e.message(), "a search is running (engine)");
        let e = engine_thinking();
        assert_eq!((e.kind(), e.fields().len()), ("engine-thinking", 0));
        assert_eq!(game_over().kind(), "game-over");
        let e = out_of_range("count", 1, 1000, 0);
        assert_eq!((e.kind(), e.code()), ("argument.range", "bad_request"));
        assert_eq!(e.fields()["name"], Field::Text("count".into()));
        assert_eq!(e.fields()["min"], Field::Number(1));
        assert_eq!(e.fields()["max"], Field::Number(1000));
        assert_eq!(e.fields()["value"], Field::Text("0".into()));
        assert_eq!(e.message(), "count must be from 1 to 1000, not 0");
        // Quoted input in a field is bounded as the message is.
        let e = ApiError::bad("x").kinded("bad-json", [("reason", "y".repeat(5000).into())]);
        match &e.fields()["reason"] {
            Field::Text(t) => assert_eq!(t.chars().count(), MAX_MESSAGE + 1),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_games_error_keeps_its_kind_and_fields() {
        let mut game = crate::game::new_game("jungle", None).unwrap();
        let e = ApiError::from(game.goto(3).unwrap_err());
        assert_eq!(e.kind(), "ply");
        assert_eq!(e.fields["len"], Field::Number(0));
        let e = ApiError::from(game.play(&"x".repeat(1000)).unwrap_err());
        assert_eq!(e.kind(), "move");
        assert_eq!(e.code(), "illegal");
        match &e.fields["text"] {
            Field::Text(t) => assert!(t.chars().count() <= MAX_MESSAGE + 1),
            other => panic!("{other:?}"),
        }
        // The input a cause quotes is bounded too.
        let text = format!("6l/7/3R3/7/7/7/7/7/6L w 0 1 {}", "z".repeat(1000));
        let e = ApiError::from(crate::game::new_game("jungle", Some(&text)).err().unwrap());
        assert_eq!(e.kind(), "position");
        match &e.fields["cause"] {
            Field::Cause(cause) => {
                assert_eq!(cause["code"], "jfen.extra-field");
                let quoted = cause["fields"].as_str().unwrap();
                assert_eq!(quoted.chars().count(), MAX_QUOTED + 1);
            }
            other => panic!("{other:?}"),
        }
    }
}
