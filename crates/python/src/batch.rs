//! Many games stepped in one call, for training loops: actions in;
//! observations, masks, rewards, terminations and truncations out, all
//! NumPy arrays, with Python's other threads running while the games step.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArray};
use pyo3::prelude::*;
use qi_core::Side;

use crate::args::{self, Int};
use crate::game::{self, AnyGame};
use crate::observations::{self, Dtype, View};
use crate::py_engine::seed_of;
use crate::py_game::Game;
use crate::rng::SplitMix64;
use crate::shared::Shared;
use crate::{parse_side, render, value_error};

/// What `step` returns: rewards, terminations and truncations, one each
/// per game.
type StepArrays<'py> = (
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
);

/// The reward of `outcome` for `side`: 1 for a win, -1 for a loss, 0 for a
/// draw or a game still going on.
pub(crate) fn reward(outcome: Option<qi_core::Outcome>, side: Side) -> f32 {
    match outcome.and_then(|o| o.winner()) {
        Some(winner) if winner == side => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    }
}

/// The games and what steps them.
struct Batch {
    games: Vec<Box<dyn AnyGame>>,
    /// The starts a game restarts from (one drawn at random when there are
    /// several).
    starts: Vec<Box<dyn AnyGame>>,
    /// One random generator per game, so that a game's openings and
    /// sampled actions depend on its own seed alone.
    rngs: Vec<SplitMix64>,
    random_plies: u32,
    max_plies: Option<usize>,
    /// The games that ended at the last step, as they ended (None for the
    /// others): kept whole, so that their final observations (from either
    /// side) and records are made only when asked for.
    finals: Vec<Option<Box<dyn AnyGame>>>,
}

impl Batch {
    /// Game `i` back to the start, then its random opening: `random_plies`
    /// uniformly random legal plies, fewer if the game would end (the
    /// opening stops before its last move would finish the game).
    fn restart(&mut self, i: usize) {
        let game = &mut self.games[i];
        let rng = &mut self.rngs[i];
        let start = match self.starts.len() {
            1 => 0,
            n => rng.below(n),
        };
        *game = self.starts[start].clone_box();
        for _ in 0..self.random_plies {
            let Some(action) = game.random_action(rng) else {
                break;
            };
            if game.play_action(action).is_err() {
                break;
            }
            if game.outcome().is_some() {
                game.undo();
                break;
            }
        }
    }

    /// Seeds every game's generator from one seed: game `i`'s from the
    /// `i`-th output of a SplitMix64 seeded with `seed`.
    fn seed_all(&mut self, seed: u64) {
        let mut root = SplitMix64::new(seed);
        for rng in &mut self.rngs {
            *rng = SplitMix64::new(root.next_u64());
        }
    }

    /// Seeds game `i`'s generator from `seeds[i]`, as `seed_all` seeds a
    /// single game's: game `i` then goes as the one game of a batch made
    /// with seed `seeds[i]`.
    fn seed_each(&mut self, seeds: &[u64]) {
        for (rng, &seed) in self.rngs.iter_mut().zip(seeds) {
            *rng = SplitMix64::new(SplitMix64::new(seed).next_u64());
        }
    }

    fn restart_all(&mut self) {
        for i in 0..self.games.len() {
            self.restart(i);
        }
    }
}

/// `n` games of one spec played side by side, for training loops. A game
/// that ends (or reaches `max_plies`) starts again at once; `step` reports
/// the end and keeps the final observation and record.
#[pyclass(module = "qi_games", frozen)]
pub(crate) struct VecGame {
    batch: Shared<Batch>,
    spec: String,
    position: Option<String>,
    seed: Option<u64>,
    random_plies: u32,
    max_plies: Option<usize>,
    /// Whether the games start from an opening suite.
    openings: bool,
    actions: usize,
    shape: [usize; 3],
}

impl VecGame {
    /// Copies of the games as they are now.
    pub(crate) fn snapshots(&self, py: Python<'_>) -> Vec<Box<dyn AnyGame>> {
        self.batch
            .lock(py)
            .games
            .iter()
            .map(|g| g.clone_box())
            .collect()
    }

    fn shape4(&self, n: usize) -> [usize; 4] {
        let [c, h, w] = self.shape;
        [n, c, h, w]
    }
}

/// Where games start besides the start position.
enum Openings {
    /// The game's built-in opening suite.
    Builtin,
    /// These position texts.
    Texts(Vec<String>),
}

/// Refuses a start whose game is already over.
fn check_not_decided(start: &dyn AnyGame) -> PyResult<()> {
    if let Some(outcome) = start.outcome() {
        return Err(value_error(format!(
            "the start position {} is already decided ({}, {}): its games would have no move to play",
            start.start_text(),
            outcome.score_text(),
            crate::outcome::reason_text(outcome)
        )));
    }
    Ok(())
}

impl VecGame {
    fn build(
        spec: &str,
        n: usize,
        position: Option<&str>,
        seed: Option<u64>,
        random_plies: u32,
        max_plies: Option<usize>,
        openings: Option<Openings>,
    ) -> PyResult<VecGame> {
        if !(1..=MAX_GAMES).contains(&n) {
            return Err(value_error(format!("n must be 1 to {MAX_GAMES}, not {n}")));
        }
        if random_plies > MAX_RANDOM_PLIES {
            return Err(value_error(format!(
                "random_plies must be 0 to {MAX_RANDOM_PLIES}, not {random_plies}"
            )));
        }
        if let Some(max) = max_plies {
            if max <= random_plies as usize {
                return Err(value_error(format!(
                    "max_plies ({max}) must be larger than random_plies ({random_plies})"
                )));
            }
        }
        let start = game::new_game(spec, position).map_err(value_error)?;
        check_not_decided(&*start)?;
        let with_openings = openings.is_some();
        let starts = match openings {
            None => vec![start],
            Some(Openings::Builtin) => start.builtin_openings().ok_or_else(|| {
                value_error(format!(
                    "the built-in opening suite does not fit the rules of '{}'",
                    start.spec()
                ))
            })?,
            Some(Openings::Texts(texts)) => {
                if texts.is_empty() {
                    return Err(value_error("openings is an empty list"));
                }
                let mut starts = Vec::with_capacity(texts.len());
                for (i, text) in texts.iter().enumerate() {
                    let opening = game::new_game(spec, Some(text))
                        .map_err(|e| value_error(format!("opening {i}: {e}")))?;
                    check_not_decided(&*opening)?;
                    starts.push(opening);
                }
                starts
            }
        };
        let actions = starts[0].num_actions();
        let shape = starts[0].observation_shape();
        let spec = starts[0].spec();
        let mut batch = Batch {
            games: (0..n).map(|_| starts[0].clone_box()).collect(),
            starts,
            rngs: vec![SplitMix64::new(0); n],
            random_plies,
            max_plies,
            finals: (0..n).map(|_| None).collect(),
        };
        batch.seed_all(seed.unwrap_or_else(fresh_seed));
        batch.restart_all();
        Ok(VecGame {
            spec,
            batch: Shared::new(batch),
            position: position.map(str::to_string),
            seed,
            random_plies,
            max_plies,
            openings: with_openings,
            actions,
            shape,
        })
    }
}

/// The most games one `VecGame` holds: their float32 observations are
/// then 3.3 GB for Jungle, far beyond a training batch, and a larger `n`
/// is refused before anything is allocated.
const MAX_GAMES: usize = 1 << 18;

/// The most random opening plies: each is kept in the game's history.
const MAX_RANDOM_PLIES: u32 = 1000;

/// How `reset` seeds the generators.
enum Seeds {
    /// Every game's from one seed.
    One(u64),
    /// Each game's from its own.
    Each(Vec<u64>),
}

/// A sequence of `n` seeds, one per game.
fn seed_list(value: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<u64>> {
    let seeds: Vec<Int> = value.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "seed is None, an integer or a sequence of one integer per game, not {}",
            value
                .repr()
                .map_or_else(|_| "?".to_string(), |r| r.to_string())
        ))
    })?;
    if seeds.len() != n {
        return Err(value_error(format!(
            "seed is a sequence of {} seeds for {n} games",
            seeds.len()
        )));
    }
    seeds.iter().map(seed_of).collect()
}

/// A seed from the operating system's randomness (the standard library's
/// hasher keys), for a `VecGame` made without one.
fn fresh_seed() -> u64 {
    RandomState::new().hash_one(0u64)
}

#[pymethods]
impl VecGame {
    /// `n` games of `spec`, each from `position` text or the start (or, with
    /// `openings`, from a position drawn from the built-in suite,
    /// `"builtin"`, or from a list of position texts), then `random_plies`
    /// random legal plies (drawn from `seed`); a game is truncated once
    /// `max_plies` plies have been played from its start.
    #[new]
    #[pyo3(
        signature = (spec, n, position = None, *, seed = None, random_plies = Int::of(0), max_plies = None, openings = None),
        text_signature = "(spec, n, position=None, *, seed=None, random_plies=0, max_plies=None, openings=None)"
    )]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments
    fn new(
        spec: &str,
        n: Int,
        position: Option<&str>,
        seed: Option<Int>,
        random_plies: Int,
        max_plies: Option<Int>,
        openings: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<VecGame> {
        let n = n.within("n", 1, MAX_GAMES as i128)?;
        let seed = seed.as_ref().map(seed_of).transpose()?;
        let random_plies = random_plies.within("random_plies", 0, i128::from(MAX_RANDOM_PLIES))?;
        let max_plies = max_plies
            .map(|m| m.within("max_plies", 1, i128::from(u32::MAX)))
            .transpose()?;
        let openings = match openings {
            None => None,
            Some(value) => match value.extract::<String>() {
                Ok(name) if name == "builtin" => Some(Openings::Builtin),
                Ok(other) => {
                    return Err(value_error(format!(
                        "openings is \"builtin\" or a list of position texts, not '{other}'"
                    )))
                }
                Err(_) => Some(Openings::Texts(value.extract::<Vec<String>>()?)),
            },
        };
        VecGame::build(spec, n, position, seed, random_plies, max_plies, openings)
    }

    /// Pickles as its settings, its random generator's state and every
    /// game's start and moves (each game's whole history).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let me = slf.get();
        let batch = me.batch.lock(py);
        let n = batch.games.len();
        let openings: Option<Vec<String>> = me
            .openings
            .then(|| batch.starts.iter().map(|g| g.start_text()).collect());
        let args = (
            me.spec.clone(),
            n,
            me.position.clone(),
            me.max_plies,
            openings,
        );
        let games: Vec<(String, Vec<String>)> = batch
            .games
            .iter()
            .map(|g| (g.start_text(), g.moves()))
            .collect();
        let rngs: Vec<u64> = batch.rngs.iter().map(|r| r.state).collect();
        let state = (rngs, games, me.random_plies, me.seed);
        drop(batch);
        let restore = slf.get_type().getattr("_restore")?;
        Ok((restore, (args, state)).into_pyobject(py)?.into_any())
    }

    /// Rebuilds a pickled `VecGame` (see `__reduce__`).
    #[staticmethod]
    #[allow(clippy::type_complexity)]
    fn _restore(
        args: (
            String,
            usize,
            Option<String>,
            Option<usize>,
            Option<Vec<String>>,
        ),
        state: (Vec<u64>, Vec<(String, Vec<String>)>, u32, Option<u64>),
    ) -> PyResult<VecGame> {
        let (spec, n, position, max_plies, openings) = args;
        let (rng_states, games, random_plies, seed) = state;
        if rng_states.len() != n || games.len() != n {
            return Err(value_error(format!(
                "a pickled VecGame of {n} games holds {} generators and {} games",
                rng_states.len(),
                games.len()
            )));
        }
        let openings = openings.map(Openings::Texts);
        let mut vec = VecGame::build(
            &spec,
            n,
            position.as_deref(),
            Some(0),
            0,
            max_plies,
            openings,
        )?;
        vec.seed = seed;
        vec.random_plies = random_plies;
        let batch = vec.batch.get_mut();
        batch.rngs = rng_states.into_iter().map(SplitMix64::new).collect();
        batch.random_plies = random_plies;
        for (game, (start, moves)) in batch.games.iter_mut().zip(games) {
            let mut restored = game::new_game(&spec, Some(&start)).map_err(value_error)?;
            for mv in moves {
                restored.play(&mv).map_err(value_error)?;
            }
            *game = restored;
        }
        Ok(vec)
    }

    fn __copy__(&self, py: Python<'_>) -> VecGame {
        let batch = self.batch.lock(py);
        let copy = Batch {
            games: batch.games.iter().map(|g| g.clone_box()).collect(),
            starts: batch.starts.iter().map(|g| g.clone_box()).collect(),
            rngs: batch.rngs.clone(),
            random_plies: batch.random_plies,
            max_plies: batch.max_plies,
            finals: batch
                .finals
                .iter()
                .map(|g| g.as_ref().map(|g| g.clone_box()))
                .collect(),
        };
        VecGame {
            batch: Shared::new(copy),
            spec: self.spec.clone(),
            position: self.position.clone(),
            seed: self.seed,
            random_plies: self.random_plies,
            max_plies: self.max_plies,
            openings: self.openings,
            actions: self.actions,
            shape: self.shape,
        }
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> VecGame {
        self.__copy__(py)
    }

    /// The number of games.
    fn __len__(&self, py: Python<'_>) -> usize {
        self.batch.lock(py).games.len()
    }

    /// The number of games (Gymnasium's name).
    #[getter]
    fn num_envs(&self, py: Python<'_>) -> usize {
        self.__len__(py)
    }

    /// The canonical spec of the games.
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    /// The size of the action space.
    #[getter]
    pub(crate) fn num_actions(&self) -> usize {
        self.actions
    }

    /// One observation's shape: (planes, ranks, files).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [c, h, w] = self.shape;
        (c, h, w)
    }

    /// The plies after which a game is truncated (None: never).
    #[getter]
    fn max_plies(&self) -> Option<usize> {
        self.max_plies
    }

    /// The random plies each game opens with.
    #[getter]
    fn random_plies(&self) -> u32 {
        self.random_plies
    }

    /// Every game back to its start (and its random opening); with `seed`,
    /// the random generators are seeded again first: from one integer as
    /// the constructor seeds them, or from a sequence of one integer per
    /// game, game `i` going on as the one game of a `VecGame` made with
    /// seed `seed[i]`.
    #[pyo3(signature = (seed = None))]
    fn reset(&self, py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let n = self.__len__(py);
        let seeds = match seed {
            None => None,
            Some(value) => Some(match value.extract::<Int>() {
                Ok(one) => Seeds::One(seed_of(&one)?),
                Err(_) => Seeds::Each(seed_list(value, n)?),
            }),
        };
        let mut batch = self.batch.lock(py);
        match seeds {
            Some(Seeds::One(seed)) => batch.seed_all(seed),
            Some(Seeds::Each(seeds)) => batch.seed_each(&seeds),
            None => {}
        }
        let batch = &mut *batch;
        py.detach(|| {
            batch.restart_all();
            batch.finals.iter_mut().for_each(|g| *g = None);
        });
        Ok(())
    }

    /// The side to move in each game: 0 for first, 1 for second (int8).
    fn to_move<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let sides = self
            .batch
            .lock(py)
            .games
            .iter()
            .map(|g| g.side_to_move().index() as i8)
            .collect();
        PyArray1::from_vec(py, sides)
    }

    /// The plies each game has played from the start (int64).
    fn plies<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let plies = self
            .batch
            .lock(py)
            .games
            .iter()
            .map(|g| g.ply() as i64)
            .collect();
        PyArray1::from_vec(py, plies)
    }

    /// Each game's observation seen by its side to move, shaped
    /// `(n, planes, ranks, files)`: float32 by default, or `dtype="uint8"`
    /// (each value × 255, rounded) or `dtype="bool"` (value > 0). With
    /// `out`, a C-contiguous array of that dtype and shape, the planes are
    /// written there (and `out` is returned), which saves allocating.
    #[pyo3(signature = (dtype = None, out = None))]
    fn observations<'py>(
        &self,
        py: Python<'py>,
        dtype: Option<&Bound<'py, PyAny>>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyUntypedArray>> {
        let dtype = Dtype::parse(dtype)?;
        let batch = self.batch.lock(py);
        let views: Vec<View<'_>> = batch
            .games
            .iter()
            .map(|g| Some((&**g, g.side_to_move())))
            .collect();
        observations::fill(py, &views, self.shape4(views.len()), dtype, out)
    }

    /// The final observations of the games that ended at the last `step`,
    /// zeros for the others; each seen by `side` (`"first"`, `"second"`,
    /// `"mover"` for the side that made the last move, or None for the
    /// final position's side to move, as `observations` sees a game);
    /// `dtype` and `out` as for `observations`.
    #[pyo3(signature = (dtype = None, side = None, out = None))]
    fn final_observations<'py>(
        &self,
        py: Python<'py>,
        dtype: Option<&Bound<'py, PyAny>>,
        side: Option<&str>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyUntypedArray>> {
        let dtype = Dtype::parse(dtype)?;
        let fixed = match side {
            None | Some("mover") => None,
            Some(text) => Some(parse_side(text)?),
        };
        let mover = side == Some("mover");
        let batch = self.batch.lock(py);
        let views: Vec<View<'_>> = batch
            .finals
            .iter()
            .map(|game| {
                game.as_ref().map(|game| {
                    let to_move = game.side_to_move();
                    let seen = match fixed {
                        Some(side) => side,
                        None if mover => game.last_mover().unwrap_or(to_move),
                        None => to_move,
                    };
                    (&**game, seen)
                })
            })
            .collect();
        observations::fill(py, &views, self.shape4(views.len()), dtype, out)
    }

    /// The records of the games that ended at the last `step` (None for the
    /// others).
    fn final_records(&self, py: Python<'_>) -> Vec<Option<String>> {
        let batch = self.batch.lock(py);
        batch
            .finals
            .iter()
            .map(|g| g.as_ref().map(|g| g.record()))
            .collect()
    }

    /// Whether each game ended at the last `step` (bool).
    fn final_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let ended = self
            .batch
            .lock(py)
            .finals
            .iter()
            .map(Option::is_some)
            .collect();
        PyArray1::from_vec(py, ended)
    }

    /// Each game's legal actions: bool `(n, num_actions)`.
    fn action_masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let actions = self.actions;
        let batch = self.batch.lock(py);
        let n = batch.games.len();
        let games = &batch.games;
        let out = py.detach(|| {
            let mut out = vec![false; n * actions];
            for (game, chunk) in games.iter().zip(out.chunks_mut(actions)) {
                game.action_mask(chunk);
            }
            out
        });
        drop(batch);
        PyArray1::from_vec(py, out)
            .reshape([n, actions])
            .map_err(|e| value_error(e.to_string()))
    }

    /// A uniformly random legal action for each game (int64), drawn in Rust
    /// from the batch's random generator.
    fn sample_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut batch = self.batch.lock(py);
        let batch = &mut *batch;
        let out = py.detach(|| {
            batch
                .games
                .iter()
                .zip(batch.rngs.iter_mut())
                .map(|(g, rng)| g.random_action(rng).map_or(-1, |a| a as i64))
                .collect::<Vec<i64>>()
        });
        PyArray1::from_vec(py, out)
    }

    /// Every game's board as an RGB picture, as `Game.rgb_array` draws
    /// one: uint8 `(n, height, width, 3)`, rasterised with the GIL
    /// released.
    #[pyo3(signature = (scale = 1.0))]
    fn rgb_arrays<'py>(&self, py: Python<'py>, scale: f32) -> PyResult<Bound<'py, PyAny>> {
        let svgs = {
            let batch = self.batch.lock(py);
            batch
                .games
                .iter()
                .map(|g| g.svg(false, false))
                .collect::<Result<Vec<_>, _>>()
                .map_err(value_error)?
        };
        let pictures = py
            .detach(|| {
                svgs.iter()
                    .map(|svg| render::rasterise(svg, scale))
                    .collect::<Result<Vec<_>, _>>()
            })
            .map_err(value_error)?;
        render::stack(py, pictures)
    }

    /// Each game's current position text.
    fn positions(&self, py: Python<'_>) -> Vec<String> {
        let batch = self.batch.lock(py);
        batch.games.iter().map(|g| g.position_text()).collect()
    }

    /// Each game's record (the library's PGN-like text).
    fn records(&self, py: Python<'_>) -> Vec<String> {
        let batch = self.batch.lock(py);
        batch.games.iter().map(|g| g.record()).collect()
    }

    /// A copy of game `index`, its whole history included.
    fn game(&self, py: Python<'_>, index: Int) -> PyResult<Game> {
        let batch = self.batch.lock(py);
        let n = batch.games.len();
        let game = index
            .within::<usize>("index", 0, n as i128 - 1)
            .ok()
            .and_then(|i| batch.games.get(i))
            .ok_or_else(|| {
                pyo3::exceptions::PyIndexError::new_err(format!(
                    "game index {index} is out of range (0..{n})"
                ))
            })?;
        Ok(Game::wrap(game.clone_box()))
    }

    /// Plays `actions[i]` (any integer array-like) in game `i` and returns
    /// `(rewards, terminated, truncated)`: the reward (float32) of the side
    /// that played, 1 for a win, -1 for a loss, 0 otherwise (the other
    /// side's is its negation); whether the game ended by its rules; whether
    /// it reached `max_plies`. Ended games start again at once, their final
    /// observations and records kept for `final_observations` and
    /// `final_records`. With `active` (bool, one per game) only the games
    /// it marks play; the others' actions are ignored. If any action is
    /// illegal, ValueError names the first such game and no game is
    /// changed.
    #[pyo3(signature = (actions, active = None))]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        active: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<StepArrays<'py>> {
        let actions = args::actions(actions, self.actions)?;
        let actions = actions.as_slice().map_err(|e| value_error(e.to_string()))?;
        let mut batch = self.batch.lock(py);
        let n = batch.games.len();
        if actions.len() != n {
            return Err(value_error(format!(
                "{} actions for {n} games",
                actions.len()
            )));
        }
        let active = args::game_mask(active, n)?;
        let batch = &mut *batch;
        let result = py.detach(move || {
            // Every action is checked (and its move kept) before any game
            // changes, so an illegal one leaves the batch as it was.
            for i in (0..n).filter(|&i| active[i]) {
                let checked = usize::try_from(actions[i])
                    .map_err(|_| {
                        format!(
                            "action {} is outside the action space (0..{})",
                            actions[i], self.actions
                        )
                    })
                    .and_then(|a| batch.games[i].prepare_action(a));
                if let Err(reason) = checked {
                    for game in batch.games.iter_mut() {
                        game.cancel_action();
                    }
                    return Err(format!("game {i}: {reason}"));
                }
            }
            let mut rewards = vec![0.0f32; n];
            let mut terminated = vec![false; n];
            let mut truncated = vec![false; n];
            batch.finals.iter_mut().for_each(|g| *g = None);
            for i in (0..n).filter(|&i| active[i]) {
                let game = &mut batch.games[i];
                let mover = game.side_to_move();
                game.commit_action();
                let outcome = game.outcome();
                if outcome.is_some() {
                    rewards[i] = reward(outcome, mover);
                    terminated[i] = true;
                } else if batch.max_plies.is_some_and(|max| game.ply() >= max) {
                    truncated[i] = true;
                } else {
                    continue;
                }
                batch.finals[i] = Some(game.clone_box());
                batch.restart(i);
            }
            Ok((rewards, terminated, truncated))
        });
        let (rewards, terminated, truncated) = result.map_err(value_error)?;
        Ok((
            PyArray1::from_vec(py, rewards),
            PyArray1::from_vec(py, terminated),
            PyArray1::from_vec(py, truncated),
        ))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("VecGame('{}', {})", self.spec, self.__len__(py))
    }
}
