//! The Python `Engine` and `SearchResult` classes.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use pyo3::prelude::*;
use qi_engine::{EvalProfile, Games, Registry};
use qi_search::{Level, Limits, Strength};

use crate::args::Int;
use crate::py_game::Game;
use crate::search::{self, AnySearcher, Found};
use crate::shared::Shared;
use crate::{interrupt, value_error};

/// What a search found.
#[pyclass(module = "qi_games", frozen, get_all, eq)]
#[derive(Clone, PartialEq)]
pub(crate) struct SearchResult {
    /// The best move (text), or None when the game is over.
    best_move: Option<String>,
    /// The score for the side to move: centi-units, or ±(30000 − plies) for
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
    /// The best root moves' lines, best first: as many as `multipv` asked
    /// (one by default; below level 10, `best_move` is the line the level
    /// chose).
    lines: Vec<Line>,
}

impl SearchResult {
    pub(crate) fn of(found: Found) -> SearchResult {
        SearchResult {
            best_move: found.best_move,
            score: found.score,
            score_text: found.score_text,
            depth: found.depth,
            nodes: found.nodes,
            pv: found.pv,
            seconds: found.seconds,
            lines: found
                .lines
                .into_iter()
                .map(|l| Line {
                    score: l.score,
                    score_text: l.score_text,
                    depth: l.depth,
                    pv: l.pv,
                })
                .collect(),
        }
    }
}

/// One root move's line of a search (MultiPV).
#[pyclass(module = "qi_games", frozen, get_all, eq, from_py_object)]
#[derive(Clone, PartialEq)]
pub(crate) struct Line {
    /// The line's score for the side to move, as `SearchResult.score`.
    score: i32,
    /// The score as the engine protocol writes it (`cp 35`, `mate 3`).
    score_text: String,
    /// The iteration that found it.
    depth: u32,
    /// The line, starting with its root move.
    pv: Vec<String>,
}

#[pymethods]
impl Line {
    /// A line from its fields (what pickling stores).
    #[new]
    fn new(score: Int, score_text: String, depth: Int, pv: Vec<String>) -> PyResult<Line> {
        Ok(Line {
            score: score_of(&score)?,
            score_text,
            depth: depth.within("depth", 0, i128::from(u32::MAX))?,
            pv,
        })
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, PyAny>, (i32, String, u32, Vec<String>)) {
        let l = slf.get().clone();
        (
            slf.get_type().into_any(),
            (l.score, l.score_text, l.depth, l.pv),
        )
    }

    fn __repr__(&self) -> String {
        let pv: Vec<String> = self.pv.iter().map(|m| format!("'{m}'")).collect();
        format!(
            "Line(score_text='{}', depth={}, pv=[{}])",
            self.score_text,
            self.depth,
            pv.join(", ")
        )
    }
}

/// A score given from Python, checked.
fn score_of(score: &Int) -> PyResult<i32> {
    score.within("score", i128::from(i32::MIN), i128::from(i32::MAX))
}

/// The fields of a `SearchResult`, in the constructor's order.
type SearchResultArgs = (
    Option<String>,
    i32,
    String,
    u32,
    u64,
    Vec<String>,
    f64,
    Vec<Line>,
);

#[pymethods]
impl SearchResult {
    /// A result from its fields (what pickling stores).
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (best_move, score, score_text, depth, nodes, pv, seconds, lines = Vec::new()))]
    fn new(
        best_move: Option<String>,
        score: Int,
        score_text: String,
        depth: Int,
        nodes: Int,
        pv: Vec<String>,
        seconds: f64,
        lines: Vec<Line>,
    ) -> PyResult<SearchResult> {
        Ok(SearchResult {
            best_move,
            score: score_of(&score)?,
            score_text,
            depth: depth.within("depth", 0, i128::from(u32::MAX))?,
            nodes: nodes.within("nodes", 0, i128::from(u64::MAX))?,
            pv,
            seconds,
            lines,
        })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyAny>, SearchResultArgs) {
        let r = slf.get().clone();
        (
            slf.get_type().into_any(),
            (
                r.best_move,
                r.score,
                r.score_text,
                r.depth,
                r.nodes,
                r.pv,
                r.seconds,
                r.lines,
            ),
        )
    }

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

/// The longest search time taken, a year: the search's deadline (start +
/// time) must be a representable instant.
const MAX_MOVETIME_MS: i128 = 365 * 24 * 3600 * 1000;

/// The limits of one search, checked: at least one of depth, nodes and
/// movetime, each in range.
pub(crate) fn limits(
    depth: Option<&Int>,
    nodes: Option<&Int>,
    movetime_ms: Option<&Int>,
) -> PyResult<Limits> {
    if depth.is_none() && nodes.is_none() && movetime_ms.is_none() {
        return Err(value_error("give depth, nodes or movetime_ms"));
    }
    let max_depth = i128::from(qi_search::MAX_DEPTH);
    let max = i128::from(u64::MAX);
    let mut limits = Limits::default();
    limits.depth = depth.map(|d| d.within("depth", 1, max_depth)).transpose()?;
    limits.nodes = nodes.map(|n| n.within("nodes", 1, max)).transpose()?;
    limits.movetime = movetime_ms
        .map(|t| {
            t.within("movetime_ms", 0, MAX_MOVETIME_MS)
                .map(Duration::from_millis)
        })
        .transpose()?;
    Ok(limits)
}

/// The game name of a spec (`jungle`, `five-tigers`), checked.
pub(crate) fn game_name(spec: &str) -> PyResult<String> {
    let canonical = Games::canonical(spec).map_err(|e| value_error(e.to_string()))?;
    Ok(canonical.split(':').next().unwrap_or_default().to_string())
}

/// A hash table size in MiB, checked.
pub(crate) fn hash_size(hash_mib: &Int) -> PyResult<usize> {
    hash_mib.within("hash_mib", 1, qi_engine::options::MAX_HASH_MIB as i128)
}

/// A seed of the weaker levels' random choices, checked.
pub(crate) fn seed_of(seed: &Int) -> PyResult<u64> {
    seed.within("seed", 0, i128::from(u64::MAX))
}

/// A strength level given from Python (1 to 10), checked.
pub(crate) fn level_of(level: Option<&Int>) -> PyResult<Option<Level>> {
    level
        .map(|n| {
            let n = n.within("level", 1, Level::COUNT as i128)?;
            Level::new(n).map_err(|e| value_error(e.to_string()))
        })
        .transpose()
}

/// The qi search for one game kind, its hash table kept between searches.
#[pyclass(module = "qi_games", frozen)]
pub(crate) struct Engine {
    game: String,
    profile: EvalProfile,
    hash_mib: usize,
    seed: u64,
    searcher: Shared<Box<dyn AnySearcher>>,
    /// The level of the last search at a level, with its random sequence
    /// (which goes on from search to search, as in the engine protocol).
    strength: Shared<Option<Strength>>,
}

impl Engine {
    /// An engine from checked settings.
    fn build(spec: &str, hash_mib: usize, seed: u64, eval_profile: &str) -> PyResult<Engine> {
        let name = game_name(spec)?;
        let profile: EvalProfile = eval_profile
            .parse()
            .map_err(|e: qi_engine::UnknownProfile| value_error(e.to_string()))?;
        let searcher = search::new_searcher(&name, hash_mib, profile).map_err(value_error)?;
        Ok(Engine {
            game: name,
            profile,
            hash_mib,
            seed,
            searcher: Shared::new(searcher),
            strength: Shared::new(None),
        })
    }
}

#[pymethods]
impl Engine {
    /// An engine for the game of `spec` (`"jungle"`, `"five-tigers:ten"`:
    /// the rules come from each game searched) with a `hash_mib` MiB table;
    /// `seed` starts the random choices of the weaker levels;
    /// `eval_profile` is the evaluation (`"default"`, the game's
    /// strongest: Jungle's `"hybrid"`, Five Tigers' `"hand"`; `"hand"`,
    /// the hand-written one; `"material"`; `"nnue"`, the learned Jungle
    /// evaluation of docs/nnue.md; or `"hybrid"`, that and the
    /// hand-written one mixed).
    #[new]
    #[pyo3(
        signature = (spec = "jungle", hash_mib = Int::of(16), seed = Int::of(0), eval_profile = "default"),
        text_signature = "(spec='jungle', hash_mib=16, seed=0, eval_profile='default')"
    )]
    fn new(spec: &str, hash_mib: Int, seed: Int, eval_profile: &str) -> PyResult<Engine> {
        Engine::build(spec, hash_size(&hash_mib)?, seed_of(&seed)?, eval_profile)
    }

    /// Pickles as its game, table size and seed; the copy starts with an
    /// empty table and its level's random sequence from the seed (what
    /// searches learned is not carried over).
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, PyAny>, (String, usize, u64, &'static str)) {
        let me = slf.get();
        (
            slf.get_type().into_any(),
            (me.game.clone(), me.hash_mib, me.seed, me.profile.name()),
        )
    }

    fn __copy__(&self) -> PyResult<Engine> {
        Engine::build(&self.game, self.hash_mib, self.seed, self.profile.name())
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<Engine> {
        self.__copy__()
    }

    /// The evaluation profile (`default`, `hand`, `material`, `nnue`,
    /// `hybrid`).
    #[getter]
    fn eval_profile(&self) -> &'static str {
        self.profile.name()
    }

    /// The game this engine plays (`jungle`, `five-tigers`).
    #[getter]
    fn game(&self) -> &str {
        &self.game
    }

    /// The size of its hash table in MiB.
    #[getter]
    fn hash_mib(&self) -> usize {
        self.hash_mib
    }

    /// The seed of the weaker levels' random choices.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// Searches `game`'s current position within the limits given (at least
    /// one of `depth`, `nodes`, `movetime_ms`), at strength `level` (1 the
    /// weakest to 10 the full engine; None: full), the best `multipv`
    /// root moves as lines of their own (`SearchResult.lines`). Python's
    /// other threads run meanwhile; Ctrl-C stops it (KeyboardInterrupt).
    #[pyo3(
        signature = (game, depth = None, nodes = None, movetime_ms = None, level = None, multipv = Int::of(1)),
        text_signature = "($self, /, game, depth=None, nodes=None, movetime_ms=None, level=None, multipv=1)"
    )]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments
    fn search(
        &self,
        py: Python<'_>,
        game: &Game,
        depth: Option<Int>,
        nodes: Option<Int>,
        movetime_ms: Option<Int>,
        level: Option<Int>,
        multipv: Int,
    ) -> PyResult<SearchResult> {
        let limits = limits(depth.as_ref(), nodes.as_ref(), movetime_ms.as_ref())?;
        let max = qi_engine::options::MAX_MULTI_PV as i128;
        let multipv = multipv.within("multipv", 1, max)?;
        let level = level_of(level.as_ref())?;
        let position = game.snapshot(py);
        let mut searcher = self.searcher.lock(py);
        let searcher = &mut **searcher;
        let mut strength = self.strength.lock(py);
        let strength = match level {
            Some(level) => {
                if strength.is_none_or(|s| s.level() != level) {
                    *strength = Some(Strength::new(level, self.seed));
                }
                strength.as_mut()
            }
            None => None,
        };
        let stop = AtomicBool::new(false);
        let found = interrupt::run(py, &stop, || {
            searcher.search(&*position, limits, strength, multipv, &stop)
        })?;
        found.map(SearchResult::of).map_err(value_error)
    }

    /// Forgets what earlier searches learned (a new game); the levels'
    /// random choices start again from the seed.
    fn clear(&self, py: Python<'_>) {
        self.searcher.lock(py).clear();
        *self.strength.lock(py) = None;
    }

    fn __repr__(&self) -> String {
        format!("Engine('{}', hash_mib={})", self.game, self.hash_mib)
    }
}
