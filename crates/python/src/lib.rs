//! The native module `qi_games._qi`: Python classes over the qi crates.
//! The Python package `qi_games` re-exports them and adds the PettingZoo
//! environment (`qi_games.env`). Documented in `docs/python.md`.
#![forbid(unsafe_code)]

mod batch;
mod encode;
mod game;
mod search;

use std::sync::Mutex;
use std::time::Duration;

use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use qi_core::{Outcome as CoreOutcome, Side};
use qi_engine::{Games, Registry};
use qi_search::Limits;

use crate::game::AnyGame;
use crate::search::AnySearcher;

fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

fn parse_side(text: &str) -> PyResult<Side> {
    text.parse()
        .map_err(|e: qi_core::ParseSideError| value_error(e.to_string()))
}

/// How a game ended.
#[pyclass(module = "qi_games", frozen, get_all)]
#[derive(Clone)]
struct Outcome {
    /// `"1-0"`, `"0-1"` or `"1/2-1/2"`.
    result: String,
    /// `"first"`, `"second"`, or `None` for a draw.
    winner: Option<String>,
    /// Why, in words (`den entered`, `no legal move`, `threefold repetition`, ...).
    reason: String,
}

impl Outcome {
    fn of(outcome: CoreOutcome) -> Outcome {
        let reason = match outcome {
            CoreOutcome::Win { reason, .. } => reason.to_string(),
            CoreOutcome::Draw(reason) => reason.to_string(),
        };
        Outcome {
            result: outcome.score_text().to_string(),
            winner: outcome.winner().map(|s| side_name(s).to_string()),
            reason,
        }
    }
}

#[pymethods]
impl Outcome {
    fn __repr__(&self) -> String {
        let winner = self
            .winner
            .as_ref()
            .map_or_else(|| "None".to_string(), |w| format!("'{w}'"));
        format!(
            "Outcome(result='{}', winner={winner}, reason='{}')",
            self.result, self.reason
        )
    }
}

/// A game of Jungle or Five Tigers under any preset or rule string: the
/// position, the record of moves, and every rule (history rules too).
#[pyclass(module = "qi_games")]
struct Game {
    inner: Box<dyn AnyGame>,
}

#[pymethods]
impl Game {
    /// A game of `spec` (`"jungle"`, `"jungle:datou"`, `"five-tigers:ten"`,
    /// `"jungle:standard,rank_order=..."`) from `position` text or the start.
    #[new]
    #[pyo3(signature = (spec = "jungle", position = None))]
    fn new(spec: &str, position: Option<&str>) -> PyResult<Game> {
        game::new_game(spec, position)
            .map(|inner| Game { inner })
            .map_err(value_error)
    }

    /// The game a record (the library's PGN-like text) holds, every move
    /// checked.
    #[staticmethod]
    fn from_record(text: &str) -> PyResult<Game> {
        game::from_record(text)
            .map(|inner| Game { inner })
            .map_err(value_error)
    }

    /// The rules as a canonical spec (`jungle:datou`).
    #[getter]
    fn spec(&self) -> String {
        self.inner.spec()
    }

    /// The current position's text (Jungle JFEN or Five Tigers text).
    #[getter]
    fn position(&self) -> String {
        self.inner.position_text()
    }

    /// The start position's text.
    #[getter]
    fn start(&self) -> String {
        self.inner.start_text()
    }

    /// `"first"` or `"second"`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        side_name(self.inner.side_to_move())
    }

    /// The moves played, as text.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.inner.moves()
    }

    /// The number of moves played.
    #[getter]
    fn ply(&self) -> usize {
        self.inner.ply()
    }

    /// How many times the current position has occurred.
    #[getter]
    fn occurrences(&self) -> usize {
        self.inner.occurrences()
    }

    /// The moves the side to move may play now, every rule applied.
    fn legal_moves(&self) -> Vec<String> {
        self.inner.legal_moves()
    }

    /// Plays `move` (text); raises ValueError with the reason if it is not
    /// legal, and the game is unchanged.
    #[pyo3(name = "play", signature = (r#move))]
    fn play(&mut self, r#move: &str) -> PyResult<()> {
        self.inner.play(r#move).map_err(value_error)
    }

    /// Takes back the last move and returns it (None at the start).
    fn undo(&mut self) -> Option<String> {
        self.inner.undo()
    }

    /// The outcome, or None while the game goes on.
    fn outcome(&self) -> Option<Outcome> {
        self.inner.outcome().map(Outcome::of)
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.inner.outcome().is_some()
    }

    /// The game as a record (the library's PGN-like text).
    fn record(&self) -> String {
        self.inner.record()
    }

    /// The number of board move sequences of `depth` plies from the current
    /// position (the history rules do not apply, as in `qi perft`).
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        check_depth(depth)?;
        let game = self.inner.clone_box();
        Ok(py.detach(move || game.perft(depth)))
    }

    /// An independent copy.
    fn copy(&self) -> Game {
        Game {
            inner: self.inner.clone_box(),
        }
    }

    fn __copy__(&self) -> Game {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.copy()
    }

    /// The size of the fixed action space (Jungle 252, Five Tigers 150).
    #[getter]
    fn num_actions(&self) -> usize {
        self.inner.num_actions()
    }

    /// The observation's shape: (planes, ranks, files).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [c, h, w] = self.inner.observation_shape();
        (c, h, w)
    }

    /// A boolean array over the action space: True for every legal action.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; self.inner.num_actions()];
        self.inner.action_mask(&mut mask);
        PyArray1::from_vec(py, mask)
    }

    /// The observation planes (float32, shape `observation_shape`) seen by
    /// `side` (`"first"`/`"second"`; default: the side to move).
    #[pyo3(signature = (side = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        side: Option<&str>,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let side = match side {
            Some(text) => parse_side(text)?,
            None => self.inner.side_to_move(),
        };
        let [c, h, w] = self.inner.observation_shape();
        let mut planes = vec![0.0f32; c * h * w];
        self.inner.observe(side, &mut planes);
        PyArray1::from_vec(py, planes)
            .reshape([c, h, w])
            .map_err(|e| value_error(e.to_string()))
    }

    /// The legal move (text) of `action`; ValueError if it is not legal now.
    fn action_to_move(&self, action: usize) -> PyResult<String> {
        self.inner.move_of(action).map_err(value_error)
    }

    /// The action of legal move `move` (text).
    #[pyo3(signature = (r#move))]
    fn move_to_action(&self, r#move: &str) -> PyResult<usize> {
        self.inner.action_of(r#move).map_err(value_error)
    }

    /// Plays `action`; ValueError if it is not legal now.
    fn play_action(&mut self, action: usize) -> PyResult<()> {
        self.inner.play_action(action).map_err(value_error)
    }

    fn __str__(&self) -> String {
        self.inner.position_text()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game('{}', '{}')",
            self.inner.spec(),
            self.inner.position_text()
        )
    }
}

/// The deepest perft the bindings run (as the engine protocol allows).
const MAX_PERFT_DEPTH: u32 = 64;

fn check_depth(depth: u32) -> PyResult<()> {
    if depth > MAX_PERFT_DEPTH {
        return Err(value_error(format!(
            "perft depth {depth} is beyond the supported {MAX_PERFT_DEPTH}"
        )));
    }
    Ok(())
}

/// What a search found.
#[pyclass(module = "qi_games", frozen, get_all)]
#[derive(Clone)]
struct SearchResult {
    /// The best move (text), or None when the game is over.
    best_move: Option<String>,
    /// The score for the side to move: centi-units, or ±(1000000 − plies) for
    /// a win or loss found.
    score: i32,
    /// The score as the engine protocol writes it (`cp 35`, `mate 3`).
    score_text: String,
    /// The deepest completed iteration.
    depth: u32,
    /// Nodes searched.
    nodes: u64,
    /// The principal variation, starting with the best move.
    pv: Vec<String>,
    /// Seconds the search took.
    seconds: f64,
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self) -> String {
        let best = self
            .best_move
            .as_ref()
            .map_or_else(|| "None".to_string(), |m| format!("'{m}'"));
        let pv: Vec<String> = self.pv.iter().map(|m| format!("'{m}'")).collect();
        format!(
            "SearchResult(best_move={best}, score_text='{}', depth={}, nodes={}, pv=[{}])",
            self.score_text,
            self.depth,
            self.nodes,
            pv.join(", ")
        )
    }
}

/// The qi search for one game kind, its hash table kept between searches.
#[pyclass(module = "qi_games")]
struct Engine {
    game: String,
    searcher: Mutex<Box<dyn AnySearcher>>,
}

#[pymethods]
impl Engine {
    /// An engine for the game of `spec` (`"jungle"`, `"five-tigers:ten"`:
    /// the rules come from each game searched) with a `hash_mib` MiB table.
    #[new]
    #[pyo3(signature = (spec = "jungle", hash_mib = 16))]
    fn new(spec: &str, hash_mib: usize) -> PyResult<Engine> {
        if !(1..=qi_engine::options::MAX_HASH_MIB).contains(&hash_mib) {
            return Err(value_error(format!(
                "hash_mib {hash_mib} is out of range (1 to {})",
                qi_engine::options::MAX_HASH_MIB
            )));
        }
        let canonical = Games::canonical(spec).map_err(|e| value_error(e.to_string()))?;
        let name = canonical.split(':').next().unwrap_or_default().to_string();
        let searcher = search::new_searcher(&name, hash_mib).map_err(value_error)?;
        Ok(Engine {
            game: name,
            searcher: Mutex::new(searcher),
        })
    }

    /// The game this engine plays (`jungle`, `five-tigers`).
    #[getter]
    fn game(&self) -> &str {
        &self.game
    }

    /// Searches `game`'s current position within the limits given (at least
    /// one of `depth`, `nodes`, `movetime_ms`); Python's other threads run
    /// meanwhile.
    #[pyo3(signature = (game, depth = None, nodes = None, movetime_ms = None))]
    fn search(
        &self,
        py: Python<'_>,
        game: &Game,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime_ms: Option<u64>,
    ) -> PyResult<SearchResult> {
        let mut limits = Limits::default();
        if depth.is_none() && nodes.is_none() && movetime_ms.is_none() {
            return Err(value_error("give depth, nodes or movetime_ms"));
        }
        if let Some(depth) = depth {
            if depth == 0 || depth > qi_search::MAX_DEPTH {
                return Err(value_error(format!(
                    "depth {depth} is out of range (1 to {})",
                    qi_search::MAX_DEPTH
                )));
            }
            limits.depth = Some(depth);
        }
        limits.nodes = nodes;
        limits.movetime = movetime_ms.map(Duration::from_millis);
        let position = game.inner.clone_box();
        let found = py.detach(|| {
            let mut searcher = self.searcher.lock().unwrap_or_else(|e| e.into_inner());
            searcher.search(&*position, limits)
        });
        let found = found.map_err(value_error)?;
        Ok(SearchResult {
            best_move: found.best_move,
            score: found.score,
            score_text: found.score_text,
            depth: found.depth,
            nodes: found.nodes,
            pv: found.pv,
            seconds: found.seconds,
        })
    }

    /// Forgets what earlier searches learned (a new game).
    fn clear(&self) {
        self.searcher
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }
}

/// Board move sequences of `depth` plies from `position` (or the start)
/// under `spec`.
#[pyfunction]
#[pyo3(signature = (spec, depth, position = None))]
fn perft(py: Python<'_>, spec: &str, depth: u32, position: Option<&str>) -> PyResult<u64> {
    check_depth(depth)?;
    let game = game::new_game(spec, position).map_err(value_error)?;
    Ok(py.detach(move || game.perft(depth)))
}

/// Every game spec with a preset: `jungle:standard`, ..., `five-tigers:deferred`.
#[pyfunction]
fn presets() -> Vec<String> {
    Games::preset_specs()
}

#[pymodule]
fn _qi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<Outcome>()?;
    m.add_class::<Engine>()?;
    m.add_class::<SearchResult>()?;
    m.add_class::<batch::VecGame>()?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    Ok(())
}
