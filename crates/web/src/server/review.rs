//! `POST /api/review`: a game record reviewed (every position searched at
//! one budget, each move judged), on a blocking thread with a search slot
//! of its own. The review stops when the request is dropped (the page
//! went away or cancelled), when the server stops, and after the longest
//! analysis time (`Config::max_analysis`), answering with what it had.
//!
//! A request that accepts `application/x-ndjson` gets the review's
//! progress as it goes: one JSON object a line, `{"progress": {"done": n,
//! "total": t}}` after each position searched, then `{"review": {...}}`
//! (or an error answer's body, when the review failed late). Refusals
//! found before the first position (a bad body, budget or record, no
//! search slot) are plain error answers with their status, as without
//! streaming.

use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use qi_play::review::{review_record, Budget, Review, ReviewError};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::mpsc;

use super::errors::ApiError;
use super::routes::body;
use super::sessions::Shared;

/// The content type of a review with its progress: newline-delimited JSON.
pub const NDJSON: &str = "application/x-ndjson";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewRequest {
    record: String,
    nodes: Option<u64>,
    depth: Option<u32>,
}

/// Sets its flag when dropped: the handler's future (or the streamed
/// body) is dropped when the client goes away, and the review on its
/// thread then stops.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// What the review's thread tells the handler.
enum Note {
    /// Positions searched, of all.
    Progress(usize, usize),
    /// The review, or why there is none.
    Done(Result<Review, ReviewError>),
}

/// Whether the request asks for the review's progress (`Accept` names
/// [`NDJSON`]).
fn wants_progress(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').any(|t| t.trim().starts_with(NDJSON)))
}

/// The error answer when the review's thread ended without an answer
/// (it panicked).
fn failed() -> ApiError {
    let reason = "the review's thread ended without an answer";
    ApiError::unavailable(format!("the review failed: {reason}"))
        .kinded("internal", [("reason", reason.into())])
}

pub(crate) async fn review(
    State(state): State<Shared>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let request: ReviewRequest = body(&bytes)?;
    let budget = match (request.nodes, request.depth) {
        (Some(_), Some(_)) => {
            return Err(
                ApiError::bad("give nodes or depth, not both").kinded("review.two-budgets", [])
            )
        }
        (Some(nodes), None) => Budget::Nodes(nodes),
        (None, Some(depth)) => Budget::Depth(depth),
        (None, None) => Budget::default(),
    }
    .checked()?;
    let permit = state.permit()?;
    let stop = Arc::new(AtomicBool::new(false));
    let guard = StopOnDrop(Arc::clone(&stop));
    let shutdown = state.shutdown.subscribe();
    let deadline = Instant::now() + state.config.max_analysis;
    let progress = wants_progress(&headers);
    let (notes, mut heard) = mpsc::unbounded_channel();
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let stopped =
            || stop.load(Ordering::Relaxed) || *shutdown.borrow() || Instant::now() >= deadline;
        let result = review_record(
            &request.record,
            budget,
            &mut || stopped(),
            &mut |done, total| {
                if progress {
                    // The receiver is gone only when the request is: the
                    // guard has set the stop flag then.
                    let _ = notes.send(Note::Progress(done, total));
                }
                stopped()
            },
        );
        let _ = notes.send(Note::Done(result));
    });
    let first = match heard.recv().await.ok_or_else(failed)? {
        Note::Done(result) => {
            let review = result?;
            if !progress {
                return Ok(Json(review).into_response());
            }
            Note::Done(Ok(review))
        }
        note => note,
    };
    // Each note a line; the stream ends after the review. The guard lives
    // as long as the stream: a client that goes away stops the review.
    let lines = futures_util::stream::unfold(
        (Some(first), heard, Some(guard)),
        |(next, mut heard, guard)| async move {
            guard.as_ref()?;
            let note = match next {
                Some(note) => Some(note),
                None => heard.recv().await,
            };
            let (line, guard) = match note {
                Some(Note::Progress(done, total)) => {
                    (json!({"progress": {"done": done, "total": total}}), guard)
                }
                Some(Note::Done(Ok(review))) => (json!({ "review": review }), None),
                Some(Note::Done(Err(e))) => (ApiError::from(e).body(), None),
                None => (failed().body(), None),
            };
            let mut bytes = line.to_string().into_bytes();
            bytes.push(b'\n');
            Some((
                Ok::<_, Infallible>(Bytes::from(bytes)),
                (None, heard, guard),
            ))
        },
    );
    Ok((
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, NDJSON),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(lines),
    )
        .into_response())
}
