//! The server of `qi serve`: the page and its assets, a JSON API over
//! sessions (one game each), and the engine's live output as server-sent
//! events.
//!
//! * A session is one game ([`WebGame`]) with its searcher. Sessions are
//!   isolated (two tabs, two games) and their number is bounded: a new
//!   session beyond [`Config::max_sessions`] replaces the idle session
//!   unused the longest, or is refused when every session is searching.
//! * A session runs at most one search at a time (an engine move or an
//!   analysis), on a blocking thread with a stop flag; the searches of all
//!   sessions together are bounded by [`Config::max_searches`].
//! * Every error is a 4xx (or 503 when a limit is reached) with a JSON body
//!   `{"error": "..."}`; no request can make the server panic.
//! * On shutdown every search is stopped and the event streams end, so the
//!   server exits promptly.
//!
//! The API is described in `docs/web.md`.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::convert::Infallible;
use std::hash::{BuildHasher, Hasher};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::Stream;
use qi_engine::{Games, Registry};
use qi_search::Limits;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, watch, OwnedSemaphorePermit, Semaphore};

use crate::game::{load_record, new_game, GameError, GameView, InfoView, WebGame};

/// The server's limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Sessions kept at once.
    pub max_sessions: usize,
    /// Searches running at once, over all sessions.
    pub max_searches: usize,
    /// The longest time per move an engine move may take.
    pub max_movetime: Duration,
    /// How long an analysis runs at most before it stops by itself.
    pub max_analysis: Duration,
}

impl Default for Config {
    /// 64 sessions, 4 searches, 60 s per engine move, 10 minutes per
    /// analysis.
    fn default() -> Config {
        Config {
            max_sessions: 64,
            max_searches: 4,
            max_movetime: Duration::from_secs(60),
            max_analysis: Duration::from_secs(600),
        }
    }
}

/// The largest request body accepted (a game record fits easily).
pub const MAX_BODY: usize = 1 << 20;

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const APP_CSS: &str = include_str!("../assets/app.css");

/// An error answer: a status and a message, sent as `{"error": message}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    /// An error answer; control characters of the message (which may
    /// repeat the request) are escaped.
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        let message: String = message.into();
        ApiError {
            status,
            message: message
                .chars()
                .flat_map(|c| {
                    let escaped: Vec<char> = if c.is_control() {
                        c.escape_default().collect()
                    } else {
                        vec![c]
                    };
                    escaped
                })
                .collect(),
        }
    }

    fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    fn busy(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        let status = match e {
            GameError::Move { .. } | GameError::NothingToUndo => StatusCode::UNPROCESSABLE_ENTITY,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError::new(status, e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(ErrorBody {
                error: self.message,
            }),
        )
            .into_response()
    }
}

#[derive(Serialize)]
struct ErrorBody {
    error: String,
}

/// What a session's event stream carries.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SearchEvent {
    /// A search started.
    Start {
        /// `analysis` or `engine`.
        search: &'static str,
    },
    /// One finished iteration.
    Info {
        /// `analysis` or `engine`.
        search: &'static str,
        /// The iteration.
        #[serde(flatten)]
        info: InfoView,
    },
    /// The search ended with this best move.
    Done {
        /// `analysis` or `engine`.
        search: &'static str,
        /// The best move, none when there is none.
        best: Option<String>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Analysis,
    Engine,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Analysis => "analysis",
            Kind::Engine => "engine",
        }
    }
}

struct Running {
    id: u64,
    kind: Kind,
    stop: Arc<AtomicBool>,
    finished: watch::Receiver<bool>,
}

struct Inner {
    game: Box<dyn WebGame>,
    flip: bool,
    search: Option<Running>,
    last_used: Instant,
}

struct Session {
    inner: Mutex<Inner>,
    events: broadcast::Sender<SearchEvent>,
}

impl Session {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        // No invariant of a session can be broken half-way: a poisoned
        // lock is still usable.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

struct AppState {
    config: Config,
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    searches: Arc<Semaphore>,
    closing: AtomicBool,
    shutdown: watch::Sender<bool>,
    counter: AtomicU64,
    keys: RandomState,
}

type Shared = Arc<AppState>;

impl AppState {
    fn sessions(&self) -> MutexGuard<'_, HashMap<String, Arc<Session>>> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn session(&self, id: &str) -> Result<Arc<Session>, ApiError> {
        let session = self.sessions().get(id).cloned().ok_or_else(|| {
            let shown: String = id.chars().take(32).flat_map(char::escape_debug).collect();
            ApiError::new(StatusCode::NOT_FOUND, format!("no session '{shown}'"))
        })?;
        session.lock().last_used = Instant::now();
        Ok(session)
    }

    fn new_id(&self) -> String {
        let mut hasher = self.keys.build_hasher();
        hasher.write_u64(self.counter.fetch_add(1, Ordering::Relaxed));
        hasher.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or_default(),
        );
        format!("{:016x}", hasher.finish())
    }

    /// Stops every search and ends every event stream.
    fn close(&self) {
        self.closing.store(true, Ordering::SeqCst);
        let _ = self.shutdown.send(true);
        for session in self.sessions().values() {
            if let Some(running) = &session.lock().search {
                running.stop.store(true, Ordering::SeqCst);
            }
        }
    }
}

/// The server: its routes and the state behind them.
pub struct Server {
    state: Shared,
}

impl Server {
    /// A server with `config`'s limits.
    pub fn new(config: Config) -> Server {
        Server {
            state: Arc::new(AppState {
                config,
                sessions: Mutex::new(HashMap::new()),
                searches: Arc::new(Semaphore::new(config.max_searches)),
                closing: AtomicBool::new(false),
                shutdown: watch::channel(false).0,
                counter: AtomicU64::new(0),
                keys: RandomState::new(),
            }),
        }
    }

    /// The routes (see `docs/web.md`).
    pub fn router(&self) -> Router {
        Router::new()
            .route("/", get(index))
            .route("/app.js", get(app_js))
            .route("/app.css", get(app_css))
            .route("/api/games", get(games))
            .route("/api/sessions", post(create_session))
            .route("/api/sessions/{id}", get(show).delete(delete_session))
            .route("/api/sessions/{id}/new", post(new_game_in))
            .route("/api/sessions/{id}/play", post(play))
            .route("/api/sessions/{id}/undo", post(undo))
            .route("/api/sessions/{id}/goto", post(goto))
            .route("/api/sessions/{id}/flip", post(flip))
            .route(
                "/api/sessions/{id}/record",
                get(get_record).post(put_record),
            )
            .route("/api/sessions/{id}/engine", post(engine_move))
            .route("/api/sessions/{id}/analysis/start", post(analysis_start))
            .route("/api/sessions/{id}/analysis/stop", post(analysis_stop))
            .route("/api/sessions/{id}/events", get(events))
            .fallback(not_found)
            .layer(axum::middleware::map_response(json_errors))
            .layer(DefaultBodyLimit::max(MAX_BODY))
            .with_state(Arc::clone(&self.state))
    }

    /// Stops every search and ends every event stream (the server then
    /// finishes the requests in flight).
    pub fn close(&self) {
        self.state.close();
    }

    /// How many sessions are open.
    pub fn session_count(&self) -> usize {
        self.state.sessions().len()
    }

    /// Serves on `listener` until `shutdown` completes, then stops every
    /// search and finishes the requests in flight.
    pub async fn serve(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let state = Arc::clone(&self.state);
        axum::serve(listener, self.router())
            .with_graceful_shutdown(async move {
                shutdown.await;
                state.close();
            })
            .await
    }
}

/// Completes on Ctrl-C (or SIGTERM on Unix).
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    {
        let term = async {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut signal) => {
                    signal.recv().await;
                }
                Err(_) => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term => {}
        }
    }
    #[cfg(not(unix))]
    ctrl_c.await;
}

/// Runs `qi serve`: binds `addr`, calls `ready` with the address bound (the
/// port is chosen by the system when `addr`'s is 0), and serves until
/// Ctrl-C or SIGTERM.
pub fn run(
    addr: SocketAddr,
    config: Config,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        ready(listener.local_addr()?);
        Server::new(config).serve(listener, shutdown_signal()).await
    })?;
    // Searches were stopped; wait briefly for their threads to return.
    runtime.shutdown_timeout(Duration::from_secs(5));
    Ok(())
}

/// Any error answer without a JSON body (an unknown method, a body too
/// large, ...) gets one.
async fn json_errors(response: Response) -> Response {
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

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such page or API")
}

fn asset(text: &'static str, kind: &'static str) -> Response {
    let mut response = Response::new(Body::from(text));
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

async fn index() -> Response {
    asset(INDEX_HTML, "text/html; charset=utf-8")
}

async fn app_js() -> Response {
    asset(APP_JS, "text/javascript; charset=utf-8")
}

async fn app_css() -> Response {
    asset(APP_CSS, "text/css; charset=utf-8")
}

/// Reads a JSON body; an empty body is `{}`.
fn body<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, ApiError> {
    let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        bytes
    };
    serde_json::from_slice(bytes).map_err(|e| ApiError::bad(format!("bad JSON body: {e}")))
}

#[derive(Serialize)]
struct GameList {
    games: Vec<GameEntry>,
    default: String,
}

#[derive(Serialize)]
struct GameEntry {
    name: &'static str,
    presets: Vec<String>,
}

async fn games() -> Json<GameList> {
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

#[derive(Serialize)]
struct SessionView {
    id: String,
    #[serde(flatten)]
    view: GameView,
    searching: Option<&'static str>,
    flip: bool,
}

fn view_of(id: &str, inner: &Inner) -> Json<SessionView> {
    Json(SessionView {
        id: id.to_string(),
        view: inner.game.view(inner.flip),
        searching: inner.search.as_ref().map(|r| r.kind.name()),
        flip: inner.flip,
    })
}

async fn create_session(State(state): State<Shared>, bytes: Bytes) -> Result<Response, ApiError> {
    let request: NewGame = body(&bytes)?;
    let game = request.build()?;
    let id = state.new_id();
    let inner = Inner {
        game,
        flip: request.flip.unwrap_or(false),
        search: None,
        last_used: Instant::now(),
    };
    let view = view_of(&id, &inner);
    let session = Arc::new(Session {
        inner: Mutex::new(inner),
        events: broadcast::channel(256).0,
    });
    let mut sessions = state.sessions();
    if sessions.len() >= state.config.max_sessions {
        // Replace the idle session unused the longest.
        let oldest = sessions
            .iter()
            .filter_map(|(id, s)| {
                let inner = s.inner.try_lock().ok()?;
                inner
                    .search
                    .is_none()
                    .then_some((inner.last_used, id.clone()))
            })
            .min();
        match oldest {
            Some((_, old)) => {
                sessions.remove(&old);
            }
            None => {
                return Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!(
                        "too many sessions ({}), all of them searching",
                        state.config.max_sessions
                    ),
                ))
            }
        }
    }
    sessions.insert(id, session);
    Ok((StatusCode::CREATED, view).into_response())
}

async fn show(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<SessionView>, ApiError> {
    let session = state.session(&id)?;
    let inner = session.lock();
    Ok(view_of(&id, &inner))
}

async fn delete_session(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let session = state.session(&id)?;
    state.sessions().remove(&id);
    if let Some(running) = &session.lock().search {
        running.stop.store(true, Ordering::SeqCst);
    }
    Ok(StatusCode::NO_CONTENT)
}

/// Stops the session's analysis, if one runs, and waits for it to end; an
/// engine move in progress is an error (the game must not change under
/// it).
async fn stop_analysis(session: &Session) -> Result<(), ApiError> {
    let finished = {
        let inner = session.lock();
        match &inner.search {
            None => return Ok(()),
            Some(running) if running.kind == Kind::Engine => {
                return Err(ApiError::busy("the engine is thinking: wait for its move"))
            }
            Some(running) => {
                running.stop.store(true, Ordering::SeqCst);
                running.finished.clone()
            }
        }
    };
    wait_finished(finished).await;
    Ok(())
}

async fn wait_finished(mut finished: watch::Receiver<bool>) {
    let _ = finished.wait_for(|done| *done).await;
}

/// Runs `change` on the session's game once no analysis runs, and answers
/// with the new view.
async fn change(
    state: &Shared,
    id: &str,
    change: impl FnOnce(&mut Inner) -> Result<(), ApiError>,
) -> Result<Json<SessionView>, ApiError> {
    let session = state.session(id)?;
    stop_analysis(&session).await?;
    let mut inner = session.lock();
    if inner.search.is_some() {
        return Err(ApiError::busy("a search is running"));
    }
    change(&mut inner)?;
    Ok(view_of(id, &inner))
}

async fn new_game_in(
    State(state): State<Shared>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Json<SessionView>, ApiError> {
    let request: NewGame = body(&bytes)?;
    let game = request.build()?;
    change(&state, &id, move |inner| {
        inner.game = game;
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

async fn play(
    State(state): State<Shared>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Json<SessionView>, ApiError> {
    let request: PlayRequest = body(&bytes)?;
    change(&state, &id, |inner| Ok(inner.game.play(&request.mv)?)).await
}

async fn undo(
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
        return Err(ApiError::bad("count must be from 1 to 1000"));
    }
    change(&state, &id, |inner| {
        for _ in 0..count {
            inner.game.undo()?;
        }
        Ok(())
    })
    .await
}

async fn goto(
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

async fn flip(
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
    Ok(view_of(&id, &inner))
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordBody {
    record: String,
}

async fn get_record(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<RecordBody>, ApiError> {
    let session = state.session(&id)?;
    let record = session.lock().game.record();
    Ok(Json(RecordBody { record }))
}

async fn put_record(
    State(state): State<Shared>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Json<SessionView>, ApiError> {
    let request: RecordBody = body(&bytes)?;
    let game = load_record(&request.record)?;
    change(&state, &id, move |inner| {
        inner.game = game;
        Ok(())
    })
    .await
}

/// Starts a search of kind `kind` on the session's shown position; the
/// returned receiver gets the best move when it ends. The caller has
/// checked that no search runs.
fn start_search(
    state: &Shared,
    session: &Arc<Session>,
    inner: &mut Inner,
    kind: Kind,
    limits: Limits,
) -> Result<tokio::sync::oneshot::Receiver<Option<String>>, ApiError> {
    if state.closing.load(Ordering::SeqCst) {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is stopping",
        ));
    }
    let permit: OwnedSemaphorePermit =
        Arc::clone(&state.searches)
            .try_acquire_owned()
            .map_err(|_| {
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!(
                        "too many searches at once ({}): try again later",
                        state.config.max_searches
                    ),
                )
            })?;
    let id = state.counter.fetch_add(1, Ordering::Relaxed);
    let stop = Arc::new(AtomicBool::new(false));
    let (finished_tx, finished) = watch::channel(false);
    inner.search = Some(Running {
        id,
        kind,
        stop: Arc::clone(&stop),
        finished,
    });
    let task = inner.game.search_task();
    let events = session.events.clone();
    let session = Arc::clone(session);
    let (best_tx, best_rx) = tokio::sync::oneshot::channel();
    let _ = events.send(SearchEvent::Start {
        search: kind.name(),
    });
    tokio::spawn(async move {
        let reporter = events.clone();
        let best = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            task(limits, &stop, &mut |info| {
                let _ = reporter.send(SearchEvent::Info {
                    search: kind.name(),
                    info,
                });
            })
        })
        .await
        .unwrap_or(None);
        {
            let mut inner = session.lock();
            if inner.search.as_ref().is_some_and(|r| r.id == id) {
                if kind == Kind::Engine {
                    if let Some(best) = &best {
                        // The game could not change while the engine
                        // thought: its move is legal.
                        let _ = inner.game.play(best);
                    }
                }
                inner.search = None;
            }
        }
        let _ = events.send(SearchEvent::Done {
            search: kind.name(),
            best: best.clone(),
        });
        let _ = finished_tx.send(true);
        let _ = best_tx.send(best);
    });
    Ok(best_rx)
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SearchRequest {
    movetime_ms: Option<u64>,
    /// Lines of analysis (MultiPV), 1 when not given.
    multipv: Option<u64>,
}

async fn engine_move(
    State(state): State<Shared>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Json<SessionView>, ApiError> {
    let request: SearchRequest = body(&bytes)?;
    let movetime = Duration::from_millis(request.movetime_ms.unwrap_or(1000));
    if movetime.is_zero() || movetime > state.config.max_movetime {
        return Err(ApiError::bad(format!(
            "movetime_ms must be from 1 to {}",
            state.config.max_movetime.as_millis()
        )));
    }
    let session = state.session(&id)?;
    stop_analysis(&session).await?;
    let done = {
        let mut inner = session.lock();
        if inner.search.is_some() {
            return Err(ApiError::busy("a search is running"));
        }
        if inner.game.view(false).result.is_some() {
            return Err(ApiError::busy("the game is over"));
        }
        // The engine's move needs one line, whatever the analysis asked.
        inner
            .game
            .set_option("MultiPV", "1")
            .map_err(|e| ApiError::bad(e.to_string()))?;
        start_search(
            &state,
            &session,
            &mut inner,
            Kind::Engine,
            Limits::movetime(movetime),
        )?
    };
    let _ = done.await;
    let inner = session.lock();
    Ok(view_of(&id, &inner))
}

async fn analysis_start(
    State(state): State<Shared>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let request: SearchRequest = body(&bytes)?;
    let limit = match request.movetime_ms {
        Some(ms) => Duration::from_millis(ms),
        None => state.config.max_analysis,
    };
    if limit.is_zero() || limit > state.config.max_analysis {
        return Err(ApiError::bad(format!(
            "movetime_ms must be from 1 to {}",
            state.config.max_analysis.as_millis()
        )));
    }
    let session = state.session(&id)?;
    let mut inner = session.lock();
    if let Some(running) = &inner.search {
        return Err(ApiError::busy(format!(
            "a search is running ({})",
            running.kind.name()
        )));
    }
    if inner.game.view(false).result.is_some() {
        return Err(ApiError::busy("the game is over"));
    }
    let lines = request.multipv.unwrap_or(1).to_string();
    inner
        .game
        .set_option("MultiPV", &lines)
        .map_err(|e| ApiError::bad(e.to_string()))?;
    start_search(
        &state,
        &session,
        &mut inner,
        Kind::Analysis,
        Limits::movetime(limit),
    )?;
    Ok((StatusCode::ACCEPTED, view_of(&id, &inner)).into_response())
}

async fn analysis_stop(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<SessionView>, ApiError> {
    let session = state.session(&id)?;
    stop_analysis(&session).await?;
    let inner = session.lock();
    Ok(view_of(&id, &inner))
}

async fn events(
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
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
