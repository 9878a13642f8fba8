//! The native module `qi_games._qi`: Python classes over the qi crates.
//! The Python package `qi_games` re-exports them and adds the PettingZoo
//! and Gymnasium environments (`qi_games.env`, `qi_games.gym`). Documented
//! in `docs/python.md`.
#![forbid(unsafe_code)]

mod args;
mod batch;
mod batch_search;
mod encode;
mod game;
mod interrupt;
mod observations;
mod outcome;
mod py_engine;
mod py_game;
mod render;
mod rng;
mod search;
mod shared;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use qi_core::Side;
use qi_engine::{Games, Registry};

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

/// Board move sequences of `depth` plies from `position` (or the start)
/// under `spec`. Ctrl-C interrupts it (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (spec, depth, position = None))]
fn perft(py: Python<'_>, spec: &str, depth: args::Int, position: Option<&str>) -> PyResult<u64> {
    let game = game::new_game(spec, position).map_err(value_error)?;
    py_game::perft_of(py, &*game, &depth)
}

/// Every game spec with a preset: `jungle:standard`, ..., `five-tigers:deferred`.
#[pyfunction]
fn presets() -> Vec<String> {
    Games::preset_specs()
}

#[pymodule]
fn _qi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<py_game::Game>()?;
    m.add_class::<outcome::Outcome>()?;
    m.add_class::<py_engine::Engine>()?;
    m.add_class::<py_engine::SearchResult>()?;
    m.add_class::<py_engine::Line>()?;
    m.add_class::<batch::VecGame>()?;
    m.add_class::<batch_search::BatchEngine>()?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
