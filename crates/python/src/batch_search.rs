//! A batched engine opponent: the search run on every game of a `VecGame`
//! at once, one searcher per core.
//!
//! The threads are `std::thread::scope` threads rather than a rayon pool:
//! each needs its own searcher (hash table, move-ordering history) that
//! lives across calls, which a fixed set of scoped threads, one per
//! searcher, gives directly, and an atomic counter handing out the games
//! balances searches of uneven length as well as work stealing would here,
//! without another dependency.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use qi_engine::options::{MAX_HASH_MIB, MAX_THREADS};
use qi_search::Strength;

use crate::args::Int;
use crate::batch::VecGame;
use crate::game::AnyGame;
use crate::py_engine::{game_name, hash_size, level_of, limits, seed_of};
use crate::rng::SplitMix64;
use crate::search::{self, AnySearcher, Found};
use crate::shared::Shared;
use crate::{args, interrupt, value_error};

/// What `BatchEngine.search` returns: each game's best action and score.
type Answers<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i32>>);

/// What `BatchEngine.targets` returns: policy, value, best action, score.
type Targets<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i32>>,
);

/// Searches many positions at once, one thread (and one hash table of
/// `hash_mib` MiB) per core. Each position is searched from a cleared
/// table, so that an answer does not depend on which thread searched which
/// positions before it: the batch gives what a new `Engine` with the same
/// table size gives, run after run (a small table keeps the clearing cheap).
#[pyclass(module = "qi_games", frozen)]
pub(crate) struct BatchEngine {
    game: String,
    hash_mib: usize,
    seed: u64,
    /// Searches made at a level so far: each call's random choices differ.
    calls: AtomicU64,
    searchers: Shared<Vec<Mutex<Box<dyn AnySearcher>>>>,
}

impl BatchEngine {
    /// Runs `work` on every game of `games` that `active` marks, the games
    /// handed out to the searcher threads by an atomic counter, with the
    /// GIL released and Ctrl-C honoured. Returns the number of games and
    /// each searched game's index with its answer; the first game whose
    /// work failed is a `ValueError` naming it.
    fn each_game<T, F>(
        &self,
        py: Python<'_>,
        games: &VecGame,
        active: Option<&Bound<'_, PyAny>>,
        work: F,
    ) -> PyResult<(usize, Vec<(usize, T)>)>
    where
        T: Send,
        F: Fn(&mut dyn AnySearcher, usize, &dyn AnyGame, &AtomicBool) -> Result<T, String> + Sync,
    {
        let positions = games.snapshots(py);
        let active = args::game_mask(active, positions.len())?;
        let wanted: Vec<usize> = (0..positions.len()).filter(|&i| active[i]).collect();
        let searchers = self.searchers.lock(py);
        let searchers = &*searchers;
        let stop = AtomicBool::new(false);
        let answers = interrupt::run(py, &stop, || {
            let next = AtomicUsize::new(0);
            let results: Vec<Mutex<Option<Result<T, String>>>> =
                wanted.iter().map(|_| Mutex::new(None)).collect();
            thread::scope(|scope| {
                for searcher in searchers {
                    scope.spawn(|| {
                        let mut searcher = searcher.lock().unwrap_or_else(|e| e.into_inner());
                        loop {
                            let k = next.fetch_add(1, Ordering::Relaxed);
                            if k >= wanted.len() || stop.load(Ordering::Relaxed) {
                                break;
                            }
                            let i = wanted[k];
                            let answer = work(&mut **searcher, i, &*positions[i], &stop);
                            *results[k].lock().unwrap_or_else(|e| e.into_inner()) = Some(answer);
                        }
                    });
                }
            });
            results
                .into_iter()
                .map(|r| r.into_inner().unwrap_or_else(|e| e.into_inner()))
                .collect::<Vec<_>>()
        })?;
        let mut out = Vec::with_capacity(wanted.len());
        for (&i, answer) in wanted.iter().zip(answers) {
            let answer = answer
                .unwrap_or_else(|| Err("not searched".to_string()))
                .map_err(|e| value_error(format!("game {i}: {e}")))?;
            out.push((i, answer));
        }
        Ok((positions.len(), out))
    }

    /// An engine from checked settings.
    fn build(spec: &str, threads: usize, hash_mib: usize, seed: u64) -> PyResult<BatchEngine> {
        if threads * hash_mib > MAX_HASH_MIB {
            return Err(value_error(format!(
                "threads × hash_mib is {threads} × {hash_mib} MiB, more than the {MAX_HASH_MIB} MiB of tables one engine may have"
            )));
        }
        let game = game_name(spec)?;
        let searchers = (0..threads)
            .map(|_| {
                search::new_searcher(&game, hash_mib, qi_engine::EvalProfile::Default)
                    .map(Mutex::new)
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(value_error)?;
        Ok(BatchEngine {
            game,
            hash_mib,
            seed,
            calls: AtomicU64::new(0),
            searchers: Shared::new(searchers),
        })
    }
}

#[pymethods]
impl BatchEngine {
    /// An engine for the game of `spec`, with `threads` searchers (default:
    /// the machine's cores), each with a `hash_mib` MiB table; `seed`
    /// starts the weaker levels' random choices.
    #[new]
    #[pyo3(
        signature = (spec = "jungle", threads = None, hash_mib = Int::of(1), seed = Int::of(0)),
        text_signature = "(spec='jungle', threads=None, hash_mib=1, seed=0)"
    )]
    fn new(spec: &str, threads: Option<Int>, hash_mib: Int, seed: Int) -> PyResult<BatchEngine> {
        let hash_mib = hash_size(&hash_mib)?;
        let threads = match threads {
            Some(n) => n.within("threads", 1, MAX_THREADS as i128)?,
            None => thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS)),
        };
        BatchEngine::build(spec, threads, hash_mib, seed_of(&seed)?)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyAny>, (String, usize, usize, u64)) {
        let py = slf.py();
        let me = slf.get();
        let threads = me.searchers.lock(py).len();
        (
            slf.get_type().into_any(),
            (me.game.clone(), threads, me.hash_mib, me.seed),
        )
    }

    /// The game it plays.
    #[getter]
    fn game(&self) -> &str {
        &self.game
    }

    /// The number of searcher threads.
    #[getter]
    fn threads(&self, py: Python<'_>) -> usize {
        self.searchers.lock(py).len()
    }

    /// Searches every game of `games` within the limits (each search gets
    /// them whole) and returns `(actions, scores)`: each game's best action
    /// (int64) and score for its side to move (int32). The GIL is released
    /// and Ctrl-C stops it (KeyboardInterrupt). With `active` (bool, one
    /// per game) only the games it marks are searched; the others get
    /// action -1 and score 0. At `level` (1 to 10; None: the full engine)
    /// each game's random choice comes from the seed, the call's number and
    /// the game's index, so a run of calls replays exactly.
    #[pyo3(signature = (games, depth = None, nodes = None, movetime_ms = None, active = None, level = None))]
    #[allow(clippy::too_many_arguments)]
    fn search<'py>(
        &self,
        py: Python<'py>,
        games: &VecGame,
        depth: Option<Int>,
        nodes: Option<Int>,
        movetime_ms: Option<Int>,
        active: Option<&Bound<'py, PyAny>>,
        level: Option<Int>,
    ) -> PyResult<Answers<'py>> {
        let limits = limits(depth.as_ref(), nodes.as_ref(), movetime_ms.as_ref())?;
        let level = level_of(level.as_ref())?;
        let call = match level {
            Some(_) => self.calls.fetch_add(1, Ordering::Relaxed),
            None => 0,
        };
        let seed = self.seed;
        let (n, answers) = self.each_game(py, games, active, |searcher, i, game, stop| {
            let mut strength = level.map(|level| {
                let mix = (call << 32) ^ i as u64;
                Strength::new(level, SplitMix64::new(seed ^ mix).next_u64())
            });
            searcher.clear();
            let found = searcher.search(game, limits, strength.as_mut(), 1, stop)?;
            best_of(game, &found)
        })?;
        let mut actions = vec![-1i64; n];
        let mut scores = vec![0i32; n];
        for (i, (action, score)) in answers {
            actions[i] = action as i64;
            scores[i] = score;
        }
        Ok((
            PyArray1::from_vec(py, actions),
            PyArray1::from_vec(py, scores),
        ))
    }

    /// AlphaZero-style training targets from the search of every game of
    /// `games` at full strength within the limits: `(policy, value,
    /// actions, scores)`. `policy` (float32, `(n, num_actions)`) is the
    /// softmax of the root moves' MultiPV scores (every legal move searched
    /// as a line of its own) at `temperature` centi-units: an alpha-beta
    /// engine has no visit counts, so the scores stand for them, and a
    /// move that wins by force takes the whole policy; illegal actions get
    /// 0. `value` (float32) is `tanh(score / value_scale)` for the side to
    /// move, in [-1, 1] (±1 for a forced result). `actions` and `scores`
    /// are the best move's, as `search` gives them. Games not `active`
    /// get zeros, action -1 and score 0.
    #[pyo3(signature = (games, depth = None, nodes = None, movetime_ms = None, active = None, temperature = 100.0, value_scale = 400.0))]
    #[allow(clippy::too_many_arguments)]
    fn targets<'py>(
        &self,
        py: Python<'py>,
        games: &VecGame,
        depth: Option<Int>,
        nodes: Option<Int>,
        movetime_ms: Option<Int>,
        active: Option<&Bound<'py, PyAny>>,
        temperature: f64,
        value_scale: f64,
    ) -> PyResult<Targets<'py>> {
        let limits = limits(depth.as_ref(), nodes.as_ref(), movetime_ms.as_ref())?;
        for (name, value) in [("temperature", temperature), ("value_scale", value_scale)] {
            if !(value.is_finite() && value > 0.0) {
                return Err(value_error(format!(
                    "{name} must be a positive number of centi-units, not {value}"
                )));
            }
        }
        let multi_pv = qi_engine::options::MAX_MULTI_PV;
        let num_actions = games.num_actions();
        let (n, answers) = self.each_game(py, games, active, |searcher, _, game, stop| {
            searcher.clear();
            let found = searcher.search(game, limits, None, multi_pv, stop)?;
            let best = best_of(game, &found)?;
            let mut lines = Vec::with_capacity(found.lines.len());
            for line in &found.lines {
                let first = line.pv.first().ok_or("a line without a move")?;
                lines.push((game.action_of(first)?, line.score));
            }
            Ok((best, lines))
        })?;
        let mut policy = vec![0.0f32; n * num_actions];
        let mut value = vec![0.0f32; n];
        let mut actions = vec![-1i64; n];
        let mut scores = vec![0i32; n];
        for (i, ((action, score), lines)) in answers {
            let row = &mut policy[i * num_actions..(i + 1) * num_actions];
            softmax(&lines, temperature, row);
            value[i] = (f64::from(score) / value_scale).tanh() as f32;
            actions[i] = action as i64;
            scores[i] = score;
        }
        let policy = PyArray1::from_vec(py, policy)
            .reshape([n, num_actions])
            .map_err(|e| value_error(e.to_string()))?;
        Ok((
            policy,
            PyArray1::from_vec(py, value),
            PyArray1::from_vec(py, actions),
            PyArray1::from_vec(py, scores),
        ))
    }

    /// Forgets what earlier searches learned.
    fn clear(&self, py: Python<'_>) {
        for searcher in self.searchers.lock(py).iter() {
            searcher.lock().unwrap_or_else(|e| e.into_inner()).clear();
        }
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "BatchEngine('{}', threads={}, hash_mib={})",
            self.game,
            self.threads(py),
            self.hash_mib
        )
    }
}

/// The best action of a search of `game` and its score.
fn best_of(game: &dyn AnyGame, found: &Found) -> Result<(usize, i32), String> {
    let best = found
        .best_move
        .as_ref()
        .ok_or_else(|| "the game is over: there is no move to search".to_string())?;
    Ok((game.action_of(best)?, found.score))
}

/// Writes into `row` the softmax of the root moves' scores at
/// `temperature` (centi-units) over their actions; the other actions stay 0.
fn softmax(lines: &[(usize, i32)], temperature: f64, row: &mut [f32]) {
    let Some(top) = lines.iter().map(|&(_, score)| score).max() else {
        return;
    };
    let weights: Vec<f64> = lines
        .iter()
        .map(|&(_, score)| ((f64::from(score) - f64::from(top)) / temperature).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    for (&(action, _), weight) in lines.iter().zip(weights) {
        row[action] = (weight / total) as f32;
    }
}
