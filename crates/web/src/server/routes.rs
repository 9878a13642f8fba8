//! The API's handlers. Each checks everything it can before it changes
//! anything, so that an error answer leaves the session as it was.

use std::convert::Infallible;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures_util::Stream;
use qi_engine::{Games, Registry};
use qi_search::Limits;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use super::clock::{after_move, before_move};
use super::errors::{engine_thinking, game_over, out_of_range, searching, ApiError};
use super::sessions::{start_search, stop_analysis, Inner, Kind, Session, SessionView, Shared};
use crate::game::{load_record, new_game, GameError, WebGame};

/// How often an idle event stream sends a comment: a closed tab's stream
/// is noticed at the next write, so this bounds how long its analysis
/// runs on (with [`super::Config::orphan_grace`]).
const EVENT_KEEP_ALIVE: Duration = Duration::from_secs(1);

/// A duration in whole milliseconds.
fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Reads a JSON body; an empty body is `{}`.
pub(crate) fn body<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, ApiError> {
    let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        bytes
    };
    serde_json::from_slice(bytes).map_err(|e| {
        let reason = e.to_string();
        ApiError::bad(format!("bad JSON body: {reason}"))
            .kinded("bad-json", [("reason", reason.into())])
    })
}

#[derive(Serialize)]
pub(crate) struct GameList {
    games: Vec<GameEntry>,
    default: String,
}

#[derive(Serialize)]
struct GameEntry {
    name: &'static str,
    presets: Vec<String>,
}

pub(crate) async fn games() -> Json<GameList> {
    Json(GameList {
        games: Games::games()
            .iter()
            .map(|g| GameEntry {
                name: g.name,
                presets: g.preset_specs().collect(),
            })
            .collect(),
        default: Games::default_spec(),
    })
}

/// A new game: its spec (the default game when omitted) and optional
/// position text.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct NewGame {
    spec: Option<String>,
    text: Option<String>,
    flip: Option<bool>,
}

impl NewGame {
    fn build(&self) -> Result<Box<dyn WebGame>, ApiError> {
        let spec = self.spec.clone().unwrap_or_else(Games::default_spec);
        Ok(new_game(&spec, self.text.as_deref())?)
    }
}

pub(crate) async fn create_session(
    State(state): State<Shared>,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let request: NewGame = body(&bytes)?;
    let game = request.build()?;
    let session = Session::new(Inner::new(game, request.flip.unwrap_or(false)));
    let mut view = SessionView::of("", &session.lock());
    view.id = state.insert(session)?;
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

pub(crate) async fn show(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<SessionView>, ApiError> {
    let session = state.session(&id)?;
    let inner = session.lock();
    Ok(Json(SessionView::of(&id, &inner)))
}

pub(crate) async fn delete_session(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.remove(&id)?;
    Ok(StatusCode::NO_CONTENT)
}

/// Runs `change` on the session's game and answers with the new view.
/// While the engine chooses a move the game must not change under it
/// (409). An analysis goes on while `change` runs (it searches a copy),
/// and is stopped only once `change` succeeded: a refused change leaves
/// the session as it was, analysis included.
async fn change(
    state: &Shared,
    id: &str,
    change: impl FnOnce(&mut Inner) -> Result<(), ApiError>,
) -> Result<Json<SessionView>, ApiError> {
    let session = state.session(id)?;
    {
        let mut inner = session.lock();
        if inner.engine_thinking() {
            return Err(engine_thinking());
        }
        change(&mut inner)?;
    }
    stop_analysis(&session).await;
    let inner = session.lock();
    Ok(Json(SessionView::of(id, &inner)))
}

pub(crate) async fn new_game_in(
    State(state): State<Shared>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Json<SessionView>, ApiError> {
    let request: NewGame = body(&bytes)?;
    let game = request.build()?;
    change(&state, &id, move |inner| {
        inner.game = game;
        // A new game starts without a clock, until the page sets one.
        inner.clock = None;
        if let Some(flip) = request.flip {
            inner.flip = flip;
        }
        Ok(())
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayRequest {
    #[serde(rename = "move")]
    mv: String,
}

pub(crate) async fn play(
    State(state): State<Shared>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Json<SessionView>, ApiError> {
    let request: PlayRequest = body(&bytes)?;
    change(&state, &id, |inner| {
        // A refused move leaves the clock running for the side to move.
        before_move(inner)?;
        inner.game.play(&request.mv)?;
        after_move(inner);
        Ok(())
    })
    .await
}

pub(crate) async fn undo(
    State(state): State<Shared>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Json<SessionView>, ApiError> {
    #[derive(Deserialize, Default)]
    #[serde(deny_unknown_fields)]
    struct Undo {
        count: Option<usize>,
    }
    let request: Undo = body(&bytes)?;
    let count = request.count.unwrap_or(1);
    if !(1..=1000).contains(&count) {
        return Err(out_of_range("count", 1, 1000, count as u64));
    }
    change(&state, &id, |inner| {
        // Each undo takes back the move before the shown position: all
        // `count` must exist before the first is taken back.
        let shown = inner.game.view(false).ply;
        if count > shown {
            if shown == 0 {
                return Err(GameError::NothingToUndo.into());
            }
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("cannot take back {count} moves: the shown position is after {shown}"),
            )
            .kinded(
                "undo-count",
                [("count", count.into()), ("ply", shown.into())],
            ));
        }
        for _ in 0..count {
            inner.game.undo()?;
        }
        // The side to move's time runs again (no time is given back),
        // and a clock stopped at the game's end restarts.
        let _ = before_move(inner);
        Ok(())
    })
    .await
}

pub(crate) async fn goto(
    State(state): State<Shared>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Json<SessionView>, ApiError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Goto {
        ply: usize,
    }
    let request: Goto = body(&bytes)?;
    change(&state, &id, |inner| Ok(inner.game.goto(request.ply)?)).await
}

/// A line of moves: the way to a node of the game's tree, or a line to
/// preview.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MovesRequest {
    moves: Vec<String>,
}

/// `POST /api/sessions/ID/line {moves}`: the position after `moves` of
/// the game's tree (a way to any variation).
pub(crate) async fn goto_line(
    State(state): State<Shared>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Json<SessionView>, ApiError> {
    let request: MovesRequest = body(&bytes)?;
    change(&state, &id, |inner| {
        Ok(inner.game.goto_line(&request.moves)?)
    })
    .await
}

/// `POST /api/sessions/ID/promote`: the line to the shown position
/// becomes the main line.
pub(crate) async fn promote(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<SessionView>, ApiError> {
    change(&state, &id, |inner| {
        inner.game.promote();
        Ok(())
    })
    .await
}

/// The board after a line from the shown position, drawn as the session
/// draws its board.
#[derive(Serialize)]
pub(crate) struct Preview {
    svg: String,
}

/// `POST /api/sessions/ID/preview {moves}`: the board after `moves` from
/// the shown position (a line of analysis previewed); the game does not
/// change.
pub(crate) async fn preview(
    State(state): State<Shared>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Json<Preview>, ApiError> {
    let request: MovesRequest = body(&bytes)?;
    let session = state.session(&id)?;
    let inner = session.lock();
    let svg = inner.game.preview(&request.moves, inner.flip)?;
    Ok(Json(Preview { svg }))
}

pub(crate) async fn flip(
    State(state): State<Shared>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Json<SessionView>, ApiError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Flip {
        flip: bool,
    }
    let request: Flip = body(&bytes)?;
    let session = state.session(&id)?;
    let mut inner = session.lock();
    inner.flip = request.flip;
    Ok(Json(SessionView::of(&id, &inner)))
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RecordBody {
    record: String,
}

pub(crate) async fn get_record(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<RecordBody>, ApiError> {
    let session = state.session(&id)?;
    let inner = session.lock();
    // A game on a clock says its time control, as PGN does.
    let record = match &inner.clock {
        Some(clock) => inner
            .game
            .record_tagged("qi serve", &[("TimeControl", &clock.control().to_string())]),
        None => inner.game.record(),
    };
    Ok(Json(RecordBody { record }))
}

pub(crate) async fn put_record(
    State(state): State<Shared>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Json<SessionView>, ApiError> {
    // Reading and replaying a record of up to 1 MiB is CPU work: on a
    // blocking thread, so that the server's async threads go on answering
    // every other request meanwhile.
    let game = tokio::task::spawn_blocking(move || -> Result<_, ApiError> {
        let request: RecordBody = body(&bytes)?;
        Ok(load_record(&request.record)?)
    })
    .await
    .map_err(|e| {
        let reason = e.to_string();
        ApiError::unavailable(format!("the record could not be read: {reason}"))
            .kinded("internal", [("reason", reason.into())])
    })??;
    change(&state, &id, move |inner| {
        inner.game = game;
        inner.clock = None;
        Ok(())
    })
    .await
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SearchRequest {
    movetime_ms: Option<u64>,
    /// Lines of analysis (MultiPV), 1 when not given.
    multipv: Option<u64>,
    /// The engine's level for its moves (1 to 10, `docs/levels.md`); full
    /// strength when not given. Analysis is always at full strength.
    level: Option<u8>,
}

/// The `Level` option a search request asks for, checked before anything
/// changes (a refused request leaves the session as it was).
fn level_of(request: &SearchRequest) -> Result<String, ApiError> {
    match request.level {
        None => Ok("10".to_string()),
        Some(level @ 1..=10) => Ok(level.to_string()),
        Some(level) => Err(out_of_range("level", 1, 10, level.into())),
    }
}

pub(crate) async fn engine_move(
    State(state): State<Shared>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Json<SessionView>, ApiError> {
    let request: SearchRequest = body(&bytes)?;
    let level = level_of(&request)?;
    let movetime = Duration::from_millis(request.movetime_ms.unwrap_or(1000));
    if movetime.is_zero() || movetime > state.config.max_movetime {
        return Err(out_of_range(
            "movetime_ms",
            1,
            millis(state.config.max_movetime),
            millis(movetime),
        ));
    }
    let session = state.session(&id)?;
    {
        let mut inner = session.lock();
        if inner.engine_thinking() {
            return Err(searching(Kind::Engine.name()));
        }
        if inner.game.view(false).result.is_some() {
            return Err(game_over());
        }
        // The engine's time runs while it thinks; none is left to it
        // when it is out of time or the clock is paused.
        before_move(&mut inner)?;
    }
    // The engine's move replaces the analysis (which frees its slot).
    stop_analysis(&session).await;
    let done = {
        let mut inner = session.lock();
        if let Some(running) = &inner.search {
            return Err(searching(running.kind.name()));
        }
        let permit = state.permit()?;
        // The engine's move needs one line, whatever the analysis asked.
        inner.game.set_option("MultiPV", "1")?;
        inner.game.set_option("Level", &level)?;
        start_search(
            &state,
            &session,
            &mut inner,
            Kind::Engine,
            Limits::movetime(movetime),
            permit,
        )
    };
    let _ = done.await;
    let inner = session.lock();
    Ok(Json(SessionView::of(&id, &inner)))
}

pub(crate) async fn analysis_start(
    State(state): State<Shared>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let request: SearchRequest = body(&bytes)?;
    if request.level.is_some() {
        return Err(
            ApiError::bad("level is for the engine's moves; analysis is at full strength")
                .kinded("analysis-level", []),
        );
    }
    let limit = match request.movetime_ms {
        Some(ms) => Duration::from_millis(ms),
        None => state.config.max_analysis,
    };
    if limit.is_zero() || limit > state.config.max_analysis {
        return Err(out_of_range(
            "movetime_ms",
            1,
            millis(state.config.max_analysis),
            millis(limit),
        ));
    }
    let session = state.session(&id)?;
    let mut inner = session.lock();
    if let Some(running) = &inner.search {
        return Err(searching(running.kind.name()));
    }
    if inner.game.view(false).result.is_some() {
        return Err(game_over());
    }
    let permit = state.permit()?;
    let lines = request.multipv.unwrap_or(1).to_string();
    inner.game.set_option("MultiPV", &lines)?;
    // An engine move at a weak level may have come before.
    inner.game.set_option("Level", "10")?;
    start_search(
        &state,
        &session,
        &mut inner,
        Kind::Analysis,
        Limits::movetime(limit),
        permit,
    );
    Ok((StatusCode::ACCEPTED, Json(SessionView::of(&id, &inner))).into_response())
}

pub(crate) async fn analysis_stop(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<SessionView>, ApiError> {
    let session = state.session(&id)?;
    if session.lock().engine_thinking() {
        return Err(engine_thinking());
    }
    stop_analysis(&session).await;
    let inner = session.lock();
    Ok(Json(SessionView::of(&id, &inner)))
}

pub(crate) async fn events(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let session = state.session(&id)?;
    let receiver = session.events.subscribe();
    let shutdown = state.shutdown.subscribe();
    drop(session);
    let stream = futures_util::stream::unfold(
        (receiver, shutdown),
        |(mut receiver, mut shutdown)| async move {
            loop {
                if *shutdown.borrow() {
                    return None;
                }
                tokio::select! {
                    event = receiver.recv() => match event {
                        Ok(event) => {
                            let data = serde_json::to_string(&event).unwrap_or_default();
                            let sse = Event::default().event("search").data(data);
                            return Some((Ok(sse), (receiver, shutdown)));
                        }
                        Err(broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(broadcast::error::RecvError::Closed) => return None,
                    },
                    changed = shutdown.changed() => {
                        if changed.is_err() {
                            return None;
                        }
                    }
                }
            }
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(EVENT_KEEP_ALIVE)))
}
