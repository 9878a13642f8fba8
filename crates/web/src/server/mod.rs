//! The server of `qi serve`: the page (its own, with the games on the
//! server, or an exported static site with the games in the browser), a
//! JSON API over sessions (one game each), and the engine's live output as
//! server-sent events.
//!
//! * `routes`: the API's handlers, each leaving the session unchanged
//!   when it answers an error.
//! * `sessions`: sessions and their searches, the limits on both.
//! * `clock`: a session's clock, pressed by each move.
//! * `review`: game review, each position of a record searched.
//! * [`errors`]: error answers, `{"error": ..., "code": ...}`.
//! * [`security`]: the `Host` and `Origin` checks that keep other web
//!   pages away from the API.
//! * `site`: the page's files, embedded or from a directory.
//!
//! On shutdown every search is stopped and the event streams end, so the
//! server exits promptly. The API is described in `docs/web.md`.

mod clock;
pub mod errors;
mod review;
mod routes;
pub mod security;
mod sessions;
mod site;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;

pub use errors::ApiError;
pub use security::Guard;
pub use sessions::SearchEvent;
use sessions::{AppState, Shared};

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
    /// How long an analysis goes on with no page listening to its
    /// session's events (its tab was closed) before it stops; a reload
    /// reconnects well within it.
    pub orphan_grace: Duration,
}

impl Default for Config {
    /// 64 sessions, 4 searches, 60 s per engine move, 10 minutes per
    /// analysis, 3 s for a closed tab's analysis.
    fn default() -> Config {
        Config {
            max_sessions: 64,
            max_searches: 4,
            max_movetime: Duration::from_secs(60),
            max_analysis: Duration::from_secs(600),
            orphan_grace: Duration::from_secs(3),
        }
    }
}

/// The largest request body accepted (a game record fits easily).
pub const MAX_BODY: usize = 1 << 20;

/// The server: its routes and the state behind them.
pub struct Server {
    state: Shared,
    site: Option<PathBuf>,
    api: bool,
    guard: Guard,
}

impl Server {
    /// A server of its own page and the session API, with `config`'s
    /// limits.
    pub fn new(config: Config) -> Server {
        Server {
            state: Arc::new(AppState::new(config)),
            site: None,
            api: true,
            guard: Guard::default(),
        }
    }

    /// Serves the static site in `dir` (as `scripts/export-site.sh`
    /// writes it: the games and the engine in the page) instead of its own
    /// page, and no session API unless [`Server::api`] asks for it.
    pub fn site(mut self, dir: impl Into<PathBuf>) -> Server {
        self.site = Some(dir.into());
        self.api = false;
        self
    }

    /// Whether the session API (games and the native engine on the
    /// server) is served.
    pub fn api(mut self, api: bool) -> Server {
        self.api = api;
        self
    }

    /// The hosts the API answers to (see [`security`]).
    pub fn guard(mut self, guard: Guard) -> Server {
        self.guard = guard;
        self
    }

    /// The routes (see `docs/web.md`).
    pub fn router(&self) -> Router {
        let pages = match &self.site {
            Some(dir) => site::directory(dir),
            None => site::embedded(),
        };
        let mut router = pages;
        if self.api {
            router = router.merge(api_routes(Arc::clone(&self.state))).layer(
                axum::middleware::from_fn_with_state(Arc::new(self.guard.clone()), security::check),
            );
        }
        router
            .layer(axum::middleware::from_fn(security::unambiguous))
            .layer(axum::middleware::map_response(errors::json_errors))
            .layer(DefaultBodyLimit::max(MAX_BODY))
    }

    /// Stops every search and ends every event stream (the server then
    /// finishes the requests in flight).
    pub fn close(&self) {
        self.state.close();
    }

    /// How many sessions are open.
    pub fn session_count(&self) -> usize {
        self.state.session_count()
    }

    /// The bytes the sessions' searchers hold for their transposition
    /// tables: a table of [`qi_play::game::HASH_MIB`] MiB is built for a
    /// search and freed when it ends, so at most
    /// [`Config::max_searches`] tables are held at once.
    pub fn search_memory(&self) -> usize {
        self.state.search_memory()
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

fn api_routes(state: Shared) -> Router {
    use routes::*;
    Router::new()
        .route("/api/games", get(games))
        .route("/api/sessions", post(create_session))
        .route("/api/sessions/{id}", get(show).delete(delete_session))
        .route("/api/sessions/{id}/new", post(new_game_in))
        .route("/api/sessions/{id}/play", post(play))
        .route("/api/sessions/{id}/undo", post(undo))
        .route("/api/sessions/{id}/goto", post(goto))
        .route("/api/sessions/{id}/line", post(goto_line))
        .route("/api/sessions/{id}/promote", post(promote))
        .route("/api/sessions/{id}/preview", post(preview))
        .route("/api/sessions/{id}/flip", post(flip))
        .route(
            "/api/sessions/{id}/record",
            get(get_record).post(put_record),
        )
        .route("/api/sessions/{id}/engine", post(engine_move))
        .route("/api/sessions/{id}/analysis/start", post(analysis_start))
        .route("/api/sessions/{id}/analysis/stop", post(analysis_stop))
        .route("/api/sessions/{id}/events", get(events))
        .route(
            "/api/sessions/{id}/clock",
            post(clock::set_clock).delete(clock::delete_clock),
        )
        .route("/api/sessions/{id}/clock/pause", post(clock::pause_clock))
        .route("/api/sessions/{id}/clock/resume", post(clock::resume_clock))
        .route("/api/review", post(review::review))
        .with_state(state)
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
/// port is chosen by the system when `addr`'s is 0), and serves `server`
/// until Ctrl-C or SIGTERM.
pub fn run(
    addr: SocketAddr,
    server: Server,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        ready(listener.local_addr()?);
        server.serve(listener, shutdown_signal()).await
    })?;
    // Searches were stopped; wait briefly for their threads to return.
    runtime.shutdown_timeout(Duration::from_secs(5));
    Ok(())
}
