//! The Python `Game` class: one game, its record and every rule.

use std::sync::atomic::AtomicBool;

use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::prelude::*;

use crate::args::{self, Int};
use crate::game::{self, AnyGame};
use crate::outcome::Outcome;
use crate::shared::Shared;
use crate::{interrupt, parse_side, render, side_name, value_error};

/// A game of Jungle or Five Tigers under any preset or rule string: the
/// position, the record of moves, and every rule (history rules too).
#[pyclass(module = "qi_games", frozen)]
pub(crate) struct Game {
    inner: Shared<Box<dyn AnyGame>>,
}

impl Game {
    pub(crate) fn wrap(inner: Box<dyn AnyGame>) -> Game {
        Game {
            inner: Shared::new(inner),
        }
    }

    /// A copy of the game as it is now.
    pub(crate) fn snapshot(&self, py: Python<'_>) -> Box<dyn AnyGame> {
        self.inner.lock(py).clone_box()
    }
}

/// The deepest perft the bindings run (as the engine protocol allows).
const MAX_PERFT_DEPTH: i128 = 64;

/// Perft of `game` to `depth` (checked) on a worker thread, which Ctrl-C
/// stops.
pub(crate) fn perft_of(py: Python<'_>, game: &dyn AnyGame, depth: &Int) -> PyResult<u64> {
    let depth = depth.within("depth", 0, MAX_PERFT_DEPTH)?;
    let stop = AtomicBool::new(false);
    interrupt::run(py, &stop, || game.perft(depth, &stop))
}

#[pymethods]
impl Game {
    /// A game of `spec` (`"jungle"`, `"jungle:datou"`, `"five-tigers:ten"`,
    /// `"jungle:standard,rank_order=..."`) from `position` text or the start,
    /// then the moves `moves` (text), each checked.
    #[new]
    #[pyo3(signature = (spec = "jungle", position = None, moves = None))]
    fn new(spec: &str, position: Option<&str>, moves: Option<Vec<String>>) -> PyResult<Game> {
        let mut inner = game::new_game(spec, position).map_err(value_error)?;
        for (i, mv) in moves.iter().flatten().enumerate() {
            inner
                .play(mv)
                .map_err(|e| value_error(format!("move {} ({mv}): {e}", i + 1)))?;
        }
        Ok(Game::wrap(inner))
    }

    /// The game a record (the library's PGN-like text) holds, every move
    /// checked.
    #[staticmethod]
    fn from_record(text: &str) -> PyResult<Game> {
        game::from_record(text).map(Game::wrap).map_err(value_error)
    }

    /// Pickles as its record: the spec, the start, the moves (the whole
    /// history, so that the history rules judge the copy as they judge the
    /// original) and a recorded result such as a resignation, read back by
    /// `from_record`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let py = slf.py();
        let record = slf.get().inner.lock(py).record();
        Ok((slf.get_type().getattr("from_record")?, (record,)))
    }

    /// The rules as a canonical spec (`jungle:datou`).
    #[getter]
    fn spec(&self, py: Python<'_>) -> String {
        self.inner.lock(py).spec()
    }

    /// The current position's text (Jungle JFEN or Five Tigers text).
    #[getter]
    fn position(&self, py: Python<'_>) -> String {
        self.inner.lock(py).position_text()
    }

    /// The start position's text.
    #[getter]
    fn start(&self, py: Python<'_>) -> String {
        self.inner.lock(py).start_text()
    }

    /// `"first"` or `"second"`.
    #[getter]
    fn side_to_move(&self, py: Python<'_>) -> &'static str {
        side_name(self.inner.lock(py).side_to_move())
    }

    /// The moves played, as text.
    #[getter]
    fn moves(&self, py: Python<'_>) -> Vec<String> {
        self.inner.lock(py).moves()
    }

    /// The number of moves played.
    #[getter]
    fn ply(&self, py: Python<'_>) -> usize {
        self.inner.lock(py).ply()
    }

    /// How many times the current position has occurred.
    #[getter]
    fn occurrences(&self, py: Python<'_>) -> usize {
        self.inner.lock(py).occurrences()
    }

    /// The moves the side to move may play now, every rule applied.
    fn legal_moves(&self, py: Python<'_>) -> Vec<String> {
        self.inner.lock(py).legal_moves()
    }

    /// Plays `move` (text); raises ValueError with the reason if it is not
    /// legal, and the game is unchanged.
    #[pyo3(name = "play", signature = (r#move))]
    fn play(&self, py: Python<'_>, r#move: &str) -> PyResult<()> {
        self.inner.lock(py).play(r#move).map_err(value_error)
    }

    /// Takes back the last move and returns it (None at the start).
    fn undo(&self, py: Python<'_>) -> Option<String> {
        self.inner.lock(py).undo()
    }

    /// The outcome, or None while the game goes on.
    fn outcome(&self, py: Python<'_>) -> Option<Outcome> {
        self.inner.lock(py).outcome().map(Outcome::of)
    }

    /// Whether the game is over.
    fn is_over(&self, py: Python<'_>) -> bool {
        self.inner.lock(py).outcome().is_some()
    }

    /// The game as a record (the library's PGN-like text).
    fn record(&self, py: Python<'_>) -> String {
        self.inner.lock(py).record()
    }

    /// The board drawn as text: several lines, with ANSI colours.
    fn board(&self, py: Python<'_>) -> String {
        self.inner.lock(py).board()
    }

    /// The board drawn as SVG text: the drawing of `qi render` and the web
    /// page, the last move highlighted; `flip` draws it from the second
    /// side's point of view, `caption` adds the side to move and the
    /// position text under the board.
    #[pyo3(signature = (flip = false, caption = false))]
    fn svg(&self, py: Python<'_>, flip: bool, caption: bool) -> PyResult<String> {
        self.inner.lock(py).svg(flip, caption).map_err(value_error)
    }

    /// That drawing as an RGB picture: uint8 `(height, width, 3)`, `scale`
    /// times the SVG's size in pixels (Gymnasium's `rgb_array`).
    #[pyo3(signature = (scale = 1.0, flip = false))]
    fn rgb_array<'py>(
        &self,
        py: Python<'py>,
        scale: f32,
        flip: bool,
    ) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let svg = self.inner.lock(py).svg(flip, false).map_err(value_error)?;
        let picture = py
            .detach(|| render::rasterise(&svg, scale))
            .map_err(value_error)?;
        render::to_array(py, picture)
    }

    /// The number of board move sequences of `depth` plies from the current
    /// position (the history rules do not apply, as in `qi perft`).
    /// Ctrl-C interrupts it (KeyboardInterrupt).
    fn perft(&self, py: Python<'_>, depth: Int) -> PyResult<u64> {
        let game = self.snapshot(py);
        perft_of(py, &*game, &depth)
    }

    /// An independent copy.
    fn copy(&self, py: Python<'_>) -> Game {
        Game::wrap(self.snapshot(py))
    }

    fn __copy__(&self, py: Python<'_>) -> Game {
        self.copy(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> Game {
        self.copy(py)
    }

    /// The size of the fixed action space (Jungle 252, Five Tigers 150).
    #[getter]
    fn num_actions(&self, py: Python<'_>) -> usize {
        self.inner.lock(py).num_actions()
    }

    /// The observation's shape: (planes, ranks, files).
    #[getter]
    fn observation_shape(&self, py: Python<'_>) -> (usize, usize, usize) {
        let [c, h, w] = self.inner.lock(py).observation_shape();
        (c, h, w)
    }

    /// A boolean array over the action space: True for every legal action.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let game = self.inner.lock(py);
        let mut mask = vec![false; game.num_actions()];
        game.action_mask(&mut mask);
        drop(game);
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
        let game = self.inner.lock(py);
        let side = match side {
            Some(text) => parse_side(text)?,
            None => game.side_to_move(),
        };
        let [c, h, w] = game.observation_shape();
        let mut planes = vec![0.0f32; c * h * w];
        game.observe(side, &mut planes);
        drop(game);
        PyArray1::from_vec(py, planes)
            .reshape([c, h, w])
            .map_err(|e| value_error(e.to_string()))
    }

    /// The legal move (text) of `action`; ValueError if it is not legal now.
    fn action_to_move(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let game = self.inner.lock(py);
        let action = args::action(action, game.num_actions())?;
        game.move_of(action).map_err(value_error)
    }

    /// The action of legal move `move` (text).
    #[pyo3(signature = (r#move))]
    fn move_to_action(&self, py: Python<'_>, r#move: &str) -> PyResult<usize> {
        self.inner.lock(py).action_of(r#move).map_err(value_error)
    }

    /// Plays `action`; ValueError if it is not legal now (or negative),
    /// TypeError if it is not an integer.
    fn play_action(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut game = self.inner.lock(py);
        let action = args::action(action, game.num_actions())?;
        game.play_action(action).map_err(value_error)
    }

    fn __str__(&self, py: Python<'_>) -> String {
        self.position(py)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let game = self.inner.lock(py);
        format!("Game('{}', '{}')", game.spec(), game.position_text())
    }
}
