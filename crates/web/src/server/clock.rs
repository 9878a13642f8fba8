//! The session's clock: set with a time control, paused and resumed by
//! the page, pressed by each move played (the player's and the engine's),
//! handed to the side to move after a takeback, stopped when the game
//! ends. A side out of time can move no more (409 `clock.flagged`).

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use qi_core::Side;
use qi_play::clock::{Clock, TimeControl};
use serde::Deserialize;

use super::errors::{engine_thinking, ApiError};
use super::routes::body;
use super::sessions::{now_ms, Inner, SessionView, Shared};

/// The side to move of the shown position.
fn side_to_move(inner: &Inner) -> Side {
    if inner.game.view(false).to_move == "first" {
        Side::First
    } else {
        Side::Second
    }
}

/// Before a move: the time runs for the side to move (it is handed over
/// after a takeback); refused when a side is out of time or the clock is
/// paused.
pub(crate) fn before_move(inner: &mut Inner) -> Result<(), ApiError> {
    let side = side_to_move(inner);
    match inner.clock.as_mut() {
        Some(clock) => Ok(clock.start(side, now_ms())?),
        None => Ok(()),
    }
}

/// After a move: the mover's clock is pressed; the clock stops when the
/// game is over.
pub(crate) fn after_move(inner: &mut Inner) {
    let over = inner.game.view(false).result.is_some();
    if let Some(clock) = inner.clock.as_mut() {
        let now = now_ms();
        // `before_move` made it run for the mover, and time goes forward.
        let _ = clock.press(now);
        if over {
            let _ = clock.stop(now);
        }
    }
}

/// Whether a side is out of time now (its flag is then recorded).
pub(crate) fn out_of_time(inner: &mut Inner) -> bool {
    inner
        .clock
        .as_mut()
        .is_some_and(|clock| clock.check(now_ms()).is_some())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetClock {
    time_control: String,
}

/// The answer to a clock request on a session without one.
fn no_clock() -> ApiError {
    ApiError::new(StatusCode::CONFLICT, "the session has no clock").kinded("clock.none", [])
}

/// Runs `change` on the session's clock (refused while the engine
/// thinks, whose move presses it) and answers with the view.
async fn with_clock(
    state: &Shared,
    id: &str,
    change: impl FnOnce(&mut Inner) -> Result<(), ApiError>,
) -> Result<Json<SessionView>, ApiError> {
    let session = state.session(id)?;
    let mut inner = session.lock();
    if inner.engine_thinking() {
        return Err(engine_thinking());
    }
    change(&mut inner)?;
    Ok(Json(SessionView::of(id, &inner)))
}

/// `POST /api/sessions/ID/clock {time_control}`: a new clock, the side
/// to move's time running at once (unless the game is over).
pub(crate) async fn set_clock(
    State(state): State<Shared>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Json<SessionView>, ApiError> {
    let request: SetClock = body(&bytes)?;
    let control: TimeControl = request.time_control.parse()?;
    with_clock(&state, &id, |inner| {
        let mut clock = Clock::new(control);
        if inner.game.view(false).result.is_none() {
            clock.start(side_to_move(inner), now_ms())?;
        }
        inner.clock = Some(clock);
        Ok(())
    })
    .await
}

/// `DELETE /api/sessions/ID/clock`: no clock any more.
pub(crate) async fn delete_clock(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<SessionView>, ApiError> {
    with_clock(&state, &id, |inner| {
        inner.clock.take().map(|_| ()).ok_or_else(no_clock)
    })
    .await
}

/// `POST /api/sessions/ID/clock/pause`.
pub(crate) async fn pause_clock(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<SessionView>, ApiError> {
    with_clock(&state, &id, |inner| {
        Ok(inner.clock.as_mut().ok_or_else(no_clock)?.pause(now_ms())?)
    })
    .await
}

/// `POST /api/sessions/ID/clock/resume`.
pub(crate) async fn resume_clock(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<SessionView>, ApiError> {
    with_clock(&state, &id, |inner| {
        Ok(inner
            .clock
            .as_mut()
            .ok_or_else(no_clock)?
            .resume(now_ms())?)
    })
    .await
}
