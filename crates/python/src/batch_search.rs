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

use numpy::PyArray1;
use pyo3::prelude::*;
use qi_engine::options::{MAX_HASH_MIB, MAX_THREADS};
use qi_search::Strength;

use crate::args::Int;
use crate::batch::VecGame;
use crate::game::AnyGame;
use crate::py_engine::{game_name, hash_size, level_of, limits, seed_of};
use crate::rng::SplitMix64;
use crate::search::{self, AnySearcher};
use crate::shared::Shared;
use crate::{args, interrupt, value_error};

/// What `BatchEngine.search` returns: each game's best action and score.
type Answers<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i32>>);

/// One game's best action and score, or why it has none.
type Answer = Result<(usize, i32), String>;

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
        let positions = games.snapshots(py);
        let active = args::game_mask(active, positions.len())?;
        let wanted: Vec<usize> = (0..positions.len()).filter(|&i| active[i]).collect();
        let searchers = self.searchers.lock(py);
        let searchers = &*searchers;
        let stop = AtomicBool::new(false);
        let answers = interrupt::run(py, &stop, || {
            let next = AtomicUsize::new(0);
            let results: Vec<Mutex<Option<Answer>>> =
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
                            let game = &*positions[i];
                            let mut strength = level.map(|level| {
                                let mix = (call << 32) ^ i as u64;
                                Strength::new(level, SplitMix64::new(self.seed ^ mix).next_u64())
                            });
                            let answer = best_action(
                                &mut **searcher,
                                game,
                                limits,
                                strength.as_mut(),
                                &stop,
                            );
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
        let mut actions = vec![-1i64; positions.len()];
        let mut scores = vec![0i32; positions.len()];
        for (&i, answer) in wanted.iter().zip(answers) {
            let (action, score) = answer
                .unwrap_or_else(|| Err("not searched".to_string()))
                .map_err(|e| value_error(format!("game {i}: {e}")))?;
            actions[i] = action as i64;
            scores[i] = score;
        }
        Ok((
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

/// The best action of `game` and its score.
fn best_action(
    searcher: &mut dyn AnySearcher,
    game: &dyn AnyGame,
    limits: qi_search::Limits,
    strength: Option<&mut Strength>,
    stop: &AtomicBool,
) -> Answer {
    searcher.clear();
    let found = searcher.search(game, limits, strength, 1, stop)?;
    let best = found
        .best_move
        .ok_or_else(|| "the game is over: there is no move to search".to_string())?;
    Ok((game.action_of(&best)?, found.score))
}
