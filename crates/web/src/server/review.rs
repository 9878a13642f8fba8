//! `POST /api/review`: a game record reviewed (every position searched at
//! one budget, each move judged), on a blocking thread with a search slot
//! of its own. The review stops when the request is dropped (the page
//! went away), when the server stops, and after the longest analysis
//! time (`Config::max_analysis`), answering with what it had.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::State;
use axum::Json;
use qi_play::review::{review_record, Budget, Review};
use serde::Deserialize;

use super::errors::ApiError;
use super::routes::body;
use super::sessions::Shared;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewRequest {
    record: String,
    nodes: Option<u64>,
    depth: Option<u32>,
}

/// Sets its flag when dropped: the handler's future is dropped when the
/// client goes away, and the review on its thread then stops.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

pub(crate) async fn review(
    State(state): State<Shared>,
    bytes: Bytes,
) -> Result<Json<Review>, ApiError> {
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
    let _guard = StopOnDrop(Arc::clone(&stop));
    let shutdown = state.shutdown.subscribe();
    let deadline = Instant::now() + state.config.max_analysis;
    let review = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let stopped =
            || stop.load(Ordering::Relaxed) || *shutdown.borrow() || Instant::now() >= deadline;
        review_record(&request.record, budget, &mut || stopped(), &mut |_, _| {
            stopped()
        })
    })
    .await
    .map_err(|e| {
        let reason = e.to_string();
        ApiError::unavailable(format!("the review failed: {reason}"))
            .kinded("internal", [("reason", reason.into())])
    })??;
    Ok(Json(review))
}
