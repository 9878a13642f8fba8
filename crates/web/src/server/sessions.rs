//! Sessions (one game each, with its searcher) and the searches they run.
//!
//! * A session's id is this server run's tag followed by a random part, so
//!   that an id the server does not know can be told apart: made by an
//!   earlier run (the server restarted: its games are gone) or by this one
//!   (the session was deleted, or replaced when the server kept too many).
//! * A session runs at most one search at a time, on a blocking thread
//!   with a stop flag; the searches of all sessions together take permits
//!   of one semaphore.
//! * An analysis with nobody listening to its session's events (the tab
//!   that started it was closed) stops after [`Config::orphan_grace`]: a
//!   closed tab must not hold a search slot for ten minutes.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use qi_search::Limits;
use serde::Serialize;
use tokio::sync::{broadcast, oneshot, watch, OwnedSemaphorePermit, Semaphore};

use super::errors::ApiError;
use super::Config;
use crate::game::{GameView, InfoView, WebGame};
use qi_play::clock::{Clock, ClockView};

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
pub(crate) enum Kind {
    Analysis,
    Engine,
}

impl Kind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Analysis => "analysis",
            Kind::Engine => "engine",
        }
    }
}

pub(crate) struct Running {
    id: u64,
    pub(crate) kind: Kind,
    stop: Arc<AtomicBool>,
    finished: watch::Receiver<bool>,
}

impl Running {
    /// Asks the search to stop; the receiver says when it has.
    fn stop(&self) -> watch::Receiver<bool> {
        self.stop.store(true, Ordering::SeqCst);
        self.finished.clone()
    }
}

pub(crate) struct Inner {
    pub(crate) game: Box<dyn WebGame>,
    pub(crate) flip: bool,
    pub(crate) search: Option<Running>,
    /// The game's clock, if one was set.
    pub(crate) clock: Option<Clock>,
    last_used: Instant,
}

/// The server's time for clocks: milliseconds since its first reading (a
/// monotonic clock, so a change of the system's time moves no clock).
pub(crate) fn now_ms() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    let epoch = *EPOCH.get_or_init(Instant::now);
    u64::try_from(epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
}

impl Inner {
    /// Whether the engine is choosing a move, so the game must not change
    /// under it.
    pub(crate) fn engine_thinking(&self) -> bool {
        self.search.as_ref().is_some_and(|r| r.kind == Kind::Engine)
    }

    pub(crate) fn new(game: Box<dyn WebGame>, flip: bool) -> Inner {
        Inner {
            game,
            flip,
            search: None,
            clock: None,
            last_used: Instant::now(),
        }
    }
}

/// The session's view as the API sends it.
#[derive(Serialize)]
pub(crate) struct SessionView {
    pub(crate) id: String,
    #[serde(flatten)]
    view: GameView,
    searching: Option<&'static str>,
    flip: bool,
    /// The clock now, none without one.
    clock: Option<ClockView>,
}

impl SessionView {
    pub(crate) fn of(id: &str, inner: &Inner) -> SessionView {
        SessionView {
            id: id.to_string(),
            view: inner.game.view(inner.flip),
            searching: inner.search.as_ref().map(|r| r.kind.name()),
            flip: inner.flip,
            clock: inner.clock.as_ref().map(|c| c.view(now_ms())),
        }
    }
}

pub(crate) struct Session {
    inner: Mutex<Inner>,
    pub(crate) events: broadcast::Sender<SearchEvent>,
}

impl Session {
    pub(crate) fn new(inner: Inner) -> Session {
        Session {
            inner: Mutex::new(inner),
            events: broadcast::channel(256).0,
        }
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Inner> {
        // No invariant of a session can be broken half-way: a poisoned
        // lock is still usable.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a page listens to the session's events.
    fn listened(&self) -> bool {
        self.events.receiver_count() > 0
    }
}

/// Characters of the run's tag at the start of every session id.
const TAG_LEN: usize = 8;

pub(crate) struct AppState {
    pub(crate) config: Config,
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    searches: Arc<Semaphore>,
    closing: AtomicBool,
    pub(crate) shutdown: watch::Sender<bool>,
    counter: AtomicU64,
    keys: RandomState,
    /// This run's tag, the start of its session ids.
    tag: String,
}

pub(crate) type Shared = Arc<AppState>;

impl AppState {
    pub(crate) fn new(config: Config) -> AppState {
        let keys = RandomState::new();
        let mut hasher = keys.build_hasher();
        hasher.write_u128(now_nanos());
        let tag = format!("{:08x}", hasher.finish() as u32);
        AppState {
            config,
            sessions: Mutex::new(HashMap::new()),
            searches: Arc::new(Semaphore::new(config.max_searches)),
            closing: AtomicBool::new(false),
            shutdown: watch::channel(false).0,
            counter: AtomicU64::new(0),
            keys,
            tag,
        }
    }

    fn sessions(&self) -> MutexGuard<'_, HashMap<String, Arc<Session>>> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn session_count(&self) -> usize {
        self.sessions().len()
    }

    /// The bytes of the searchers' tables over all sessions.
    pub(crate) fn search_memory(&self) -> usize {
        let sessions: Vec<Arc<Session>> = self.sessions().values().cloned().collect();
        sessions.iter().map(|s| s.lock().game.search_memory()).sum()
    }

    /// The session `id`, marked as used; an unknown id is a 404 that says
    /// why the session is not there.
    pub(crate) fn session(&self, id: &str) -> Result<Arc<Session>, ApiError> {
        let session = self
            .sessions()
            .get(id)
            .cloned()
            .ok_or_else(|| self.unknown(id))?;
        session.lock().last_used = Instant::now();
        Ok(session)
    }

    fn unknown(&self, id: &str) -> ApiError {
        let shown: String = id.chars().take(32).flat_map(char::escape_debug).collect();
        let well_formed = id.len() == TAG_LEN + 16 && id.bytes().all(|b| b.is_ascii_hexdigit());
        if !well_formed {
            return ApiError::with_code(
                StatusCode::NOT_FOUND,
                "unknown_session",
                format!("no session '{shown}'"),
            )
            .kinded("no-session", [("id", shown.into())]);
        }
        if id.starts_with(&self.tag) {
            ApiError::with_code(
                StatusCode::NOT_FOUND,
                "session_ended",
                format!(
                    "session '{shown}' has ended: it was deleted, or replaced by newer sessions (the server keeps {}); its game is gone",
                    self.config.max_sessions
                ),
            )
            .kinded(
                "session-ended",
                [
                    ("id", shown.into()),
                    ("max", self.config.max_sessions.into()),
                ],
            )
        } else {
            ApiError::with_code(
                StatusCode::NOT_FOUND,
                "server_restarted",
                format!("session '{shown}' is from before the server restarted; its game is gone"),
            )
            .kinded("server-restarted", [("id", shown.into())])
        }
    }

    fn new_id(&self) -> String {
        let mut hasher = self.keys.build_hasher();
        hasher.write_u64(self.counter.fetch_add(1, Ordering::Relaxed));
        hasher.write_u128(now_nanos());
        format!("{}{:016x}", self.tag, hasher.finish())
    }

    /// Adds a session; beyond the limit it replaces the idle session
    /// unused the longest, preferring those no page listens to.
    pub(crate) fn insert(&self, session: Session) -> Result<String, ApiError> {
        let mut sessions = self.sessions();
        if sessions.len() >= self.config.max_sessions {
            let oldest = sessions
                .iter()
                .filter_map(|(id, s)| {
                    let inner = s.inner.try_lock().ok()?;
                    inner
                        .search
                        .is_none()
                        .then_some((s.listened(), inner.last_used, id.clone()))
                })
                .min();
            match oldest {
                Some((_, _, old)) => {
                    sessions.remove(&old);
                }
                None => {
                    return Err(ApiError::unavailable(format!(
                        "too many sessions ({}), all of them searching",
                        self.config.max_sessions
                    ))
                    .kinded(
                        "too-many-sessions",
                        [("max", self.config.max_sessions.into())],
                    ))
                }
            }
        }
        let id = self.new_id();
        sessions.insert(id.clone(), Arc::new(session));
        Ok(id)
    }

    /// Removes session `id` and stops its search.
    pub(crate) fn remove(&self, id: &str) -> Result<(), ApiError> {
        let session = self.sessions().remove(id).ok_or_else(|| self.unknown(id))?;
        if let Some(running) = &session.lock().search {
            running.stop();
        }
        Ok(())
    }

    /// Stops every search and ends every event stream.
    pub(crate) fn close(&self) {
        self.closing.store(true, Ordering::SeqCst);
        let _ = self.shutdown.send(true);
        for session in self.sessions().values() {
            if let Some(running) = &session.lock().search {
                running.stop();
            }
        }
    }

    /// A search slot, or why there is none.
    pub(crate) fn permit(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        if self.closing.load(Ordering::SeqCst) {
            return Err(ApiError::unavailable("the server is stopping").kinded("stopping", []));
        }
        Arc::clone(&self.searches).try_acquire_owned().map_err(|_| {
            ApiError::unavailable(format!(
                "too many searches at once ({}): try again later",
                self.config.max_searches
            ))
            .kinded(
                "too-many-searches",
                [("max", self.config.max_searches.into())],
            )
        })
    }
}

fn now_nanos() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default()
}

/// Stops the session's analysis, if one runs, and waits for it to end.
pub(crate) async fn stop_analysis(session: &Session) {
    let finished = {
        let inner = session.lock();
        match &inner.search {
            Some(running) if running.kind == Kind::Analysis => running.stop(),
            _ => return,
        }
    };
    wait_finished(finished).await;
}

async fn wait_finished(mut finished: watch::Receiver<bool>) {
    let _ = finished.wait_for(|done| *done).await;
}

/// Starts a search of kind `kind` on the session's shown position with
/// `permit`'s slot; the returned receiver gets the best move when it ends.
/// The caller has checked that no search runs.
pub(crate) fn start_search(
    state: &Shared,
    session: &Arc<Session>,
    inner: &mut Inner,
    kind: Kind,
    limits: Limits,
    permit: OwnedSemaphorePermit,
) -> oneshot::Receiver<Option<String>> {
    let id = state.counter.fetch_add(1, Ordering::Relaxed);
    let stop = Arc::new(AtomicBool::new(false));
    let (finished_tx, finished) = watch::channel(false);
    inner.search = Some(Running {
        id,
        kind,
        stop: Arc::clone(&stop),
        finished: finished.clone(),
    });
    if kind == Kind::Analysis {
        tokio::spawn(stop_when_orphaned(
            Arc::clone(session),
            Arc::clone(&stop),
            finished,
            state.config.orphan_grace,
        ));
    }
    let task = inner.game.search_task();
    let events = session.events.clone();
    let session = Arc::clone(session);
    let (best_tx, best_rx) = oneshot::channel();
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
                        // A move after the engine's time ran out is not
                        // played: it lost on time.
                        if !super::clock::out_of_time(&mut inner) && inner.game.play(best).is_ok() {
                            super::clock::after_move(&mut inner);
                        }
                    }
                }
                inner.search = None;
            }
            // Each search's table is freed when it ends, so the sessions
            // hold at most `max_searches` tables together, not one each
            // (64 sessions held 1 GiB).
            if inner.search.is_none() {
                inner.game.release_search_memory();
            }
        }
        let _ = events.send(SearchEvent::Done {
            search: kind.name(),
            best: best.clone(),
        });
        let _ = finished_tx.send(true);
        let _ = best_tx.send(best);
    });
    best_rx
}

/// Stops an analysis once nobody has listened to its session's events for
/// `grace` (long enough for a reload to reconnect).
async fn stop_when_orphaned(
    session: Arc<Session>,
    stop: Arc<AtomicBool>,
    mut finished: watch::Receiver<bool>,
    grace: Duration,
) {
    let tick = (grace / 4).clamp(Duration::from_millis(10), Duration::from_millis(250));
    let mut alone_since: Option<Instant> = None;
    loop {
        tokio::select! {
            done = finished.wait_for(|done| *done) => {
                let _ = done;
                return;
            }
            _ = tokio::time::sleep(tick) => {}
        }
        if session.listened() {
            alone_since = None;
            continue;
        }
        let since = *alone_since.get_or_insert_with(Instant::now);
        if since.elapsed() >= grace {
            stop.store(true, Ordering::SeqCst);
            return;
        }
    }
}
