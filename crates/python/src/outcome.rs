//! The Python `Outcome` class: how a game ended.

use pyo3::prelude::*;
use qi_core::Outcome as CoreOutcome;

use crate::side_name;

/// How a game ended.
#[pyclass(module = "qi_games", frozen, get_all, eq)]
#[derive(Clone, PartialEq)]
pub(crate) struct Outcome {
    /// `"1-0"`, `"0-1"` or `"1/2-1/2"`.
    result: String,
    /// `"first"`, `"second"`, or `None` for a draw.
    winner: Option<String>,
    /// Why, in words (`den entered`, `no legal move`, `threefold repetition`, ...).
    reason: String,
}

impl Outcome {
    pub(crate) fn of(outcome: CoreOutcome) -> Outcome {
        let reason = reason_text(outcome);
        Outcome {
            result: outcome.score_text().to_string(),
            winner: outcome.winner().map(|s| side_name(s).to_string()),
            reason,
        }
    }
}

/// The fields of an `Outcome`, in the constructor's order.
type OutcomeArgs = (String, Option<String>, String);

#[pymethods]
impl Outcome {
    /// An outcome from its fields (what pickling stores).
    #[new]
    #[pyo3(signature = (result, winner, reason))]
    fn new(result: String, winner: Option<String>, reason: String) -> Outcome {
        Outcome {
            result,
            winner,
            reason,
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, OutcomeArgs)> {
        let me = slf.get();
        Ok((
            slf.get_type().into_any(),
            (me.result.clone(), me.winner.clone(), me.reason.clone()),
        ))
    }

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

/// Why `outcome` ended the game, in words.
pub(crate) fn reason_text(outcome: CoreOutcome) -> String {
    match outcome {
        CoreOutcome::Win { reason, .. } => reason.to_string(),
        CoreOutcome::Draw(reason) => reason.to_string(),
    }
}
