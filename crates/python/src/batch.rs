//! Many games stepped in one call, for self-play data generation: actions
//! in, observations, masks, rewards and ends out, all NumPy arrays, with
//! Python's other threads running while the games step.

use numpy::{PyArray1, PyArray2, PyArray4, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use qi_core::Side;

use crate::game::{self, AnyGame};
use crate::value_error;

/// What `step` returns: rewards and ends, one per game.
type StepArrays<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<bool>>);

/// `n` games of one spec played side by side. A game that ends is started
/// again at once; `step` reports the end.
#[pyclass(module = "qi_games")]
pub(crate) struct VecGame {
    games: Vec<Box<dyn AnyGame>>,
    actions: usize,
    shape: [usize; 3],
}

impl VecGame {
    fn observation_len(&self) -> usize {
        self.shape.iter().product()
    }
}

/// The reward of `outcome` for `side`: 1 for a win, -1 for a loss, 0 for a
/// draw or a game still going on.
pub(crate) fn reward(outcome: Option<qi_core::Outcome>, side: Side) -> f32 {
    match outcome.and_then(|o| o.winner()) {
        Some(winner) if winner == side => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    }
}

#[pymethods]
impl VecGame {
    /// `n` games of `spec`, each from `position` text or the start.
    #[new]
    #[pyo3(signature = (spec, n, position = None))]
    fn new(spec: &str, n: usize, position: Option<&str>) -> PyResult<VecGame> {
        if n == 0 {
            return Err(value_error("n must be at least 1"));
        }
        let first = game::new_game(spec, position).map_err(value_error)?;
        let actions = first.num_actions();
        let shape = first.observation_shape();
        let games = (0..n).map(|_| first.clone_box()).collect();
        Ok(VecGame {
            games,
            actions,
            shape,
        })
    }

    /// The number of games.
    fn __len__(&self) -> usize {
        self.games.len()
    }

    /// The size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.actions
    }

    /// Every game back to its start.
    fn reset(&mut self) {
        for game in &mut self.games {
            game.restart();
        }
    }

    /// The side to move in each game: 0 for first, 1 for second (int8).
    fn to_move<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let sides = self
            .games
            .iter()
            .map(|g| g.side_to_move().index() as i8)
            .collect();
        PyArray1::from_vec(py, sides)
    }

    /// Each game's observation seen by its side to move: float32
    /// `(n, planes, ranks, files)`.
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray4<f32>>> {
        let len = self.observation_len();
        let mut out = vec![0.0f32; self.games.len() * len];
        py.detach(|| {
            for (game, chunk) in self.games.iter().zip(out.chunks_mut(len)) {
                game.observe(game.side_to_move(), chunk);
            }
        });
        let [c, h, w] = self.shape;
        PyArray1::from_vec(py, out)
            .reshape([self.games.len(), c, h, w])
            .map_err(|e| value_error(e.to_string()))
    }

    /// Each game's legal actions: bool `(n, num_actions)`.
    fn action_masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let mut out = vec![false; self.games.len() * self.actions];
        py.detach(|| {
            for (game, chunk) in self.games.iter().zip(out.chunks_mut(self.actions)) {
                game.action_mask(chunk);
            }
        });
        PyArray1::from_vec(py, out)
            .reshape([self.games.len(), self.actions])
            .map_err(|e| value_error(e.to_string()))
    }

    /// Plays `actions[i]` in game `i` and returns `(rewards, dones)`: the
    /// reward (float32) of the side that played, 1 for a win, -1 for a loss,
    /// 0 otherwise, and whether the game ended (bool); ended games start
    /// again. If any action is illegal, ValueError names the first such game
    /// and no game is changed.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<StepArrays<'py>> {
        let actions = actions.as_slice().map_err(|e| value_error(e.to_string()))?;
        if actions.len() != self.games.len() {
            return Err(value_error(format!(
                "{} actions for {} games",
                actions.len(),
                self.games.len()
            )));
        }
        let n = self.games.len();
        let games = &mut self.games;
        let result = py.detach(move || {
            // Every action is checked (and its move kept) before any game
            // changes, so an illegal one leaves the batch as it was.
            for i in 0..games.len() {
                let checked = usize::try_from(actions[i])
                    .map_err(|_| String::new())
                    .and_then(|a| games[i].prepare_action(a));
                if checked.is_err() {
                    for game in games.iter_mut() {
                        game.cancel_action();
                    }
                    return Err(format!("game {i}: action {} is not legal now", actions[i]));
                }
            }
            let mut rewards = vec![0.0f32; n];
            let mut dones = vec![false; n];
            for (i, game) in games.iter_mut().enumerate() {
                let mover = game.side_to_move();
                game.commit_action();
                let outcome = game.outcome();
                if outcome.is_some() {
                    rewards[i] = reward(outcome, mover);
                    dones[i] = true;
                    game.restart();
                }
            }
            Ok((rewards, dones))
        });
        let (rewards, dones) = result.map_err(value_error)?;
        Ok((
            PyArray1::from_vec(py, rewards),
            PyArray1::from_vec(py, dones),
        ))
    }
}
