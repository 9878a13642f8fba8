//! The clock and the game review for JavaScript: [`Clock`] (a chess
//! clock whose every call takes the time now, `performance.now()` in
//! whole milliseconds) and [`review`] (every position of a record
//! searched, each move judged), both thin wrappers of qi-play's.

use qi_core::Side;
use qi_play::clock::{self, TimeControl};
use qi_play::error_data::ErrorData;
use qi_play::review::{self, Budget};
use serde::Deserialize;
use wasm_bindgen::prelude::*;

use crate::boundary::{function_arg, integer_arg, js_error, string_arg, ArgError};
use crate::{from_js, thrown, to_js, JsResult};

/// The largest time taken, in milliseconds (JavaScript's safe integers).
const MAX_TIME: u64 = (1 << 53) - 1;

fn clock_error(e: &clock::ClockError) -> JsValue {
    js_error(&ErrorData::from(e))
}

/// A time argument: whole milliseconds from 0.
fn time_arg(value: &JsValue) -> JsResult<u64> {
    integer_arg(value, "now", 0, MAX_TIME).map_err(thrown)
}

/// A side argument: `"first"` or `"second"`.
fn side_arg(value: &JsValue) -> JsResult<Side> {
    match string_arg(value, "side").map_err(thrown)?.as_str() {
        "first" => Ok(Side::First),
        "second" => Ok(Side::Second),
        other => Err(js_error(&ErrorData::new(
            "argument.side",
            [("value", other.chars().take(40).collect::<String>().into())],
            format!(
                "side must be \"first\" or \"second\", not \"{}\"",
                other.chars().take(40).collect::<String>()
            ),
        ))),
    }
}

/// A chess clock: a time control with a Fischer increment (`300+2`), the
/// side whose time runs, pause and resume, and the flag. Every call takes
/// `now`, the time in whole milliseconds from any fixed origin
/// (`Math.round(performance.now())`): the clock reads no time itself.
#[wasm_bindgen]
pub struct Clock {
    inner: clock::Clock,
}

#[wasm_bindgen]
impl Clock {
    /// A clock of `timeControl` (`"300+2"`: 300 s each, 2 s added after
    /// each move; `"600"`: no increment), neither side's time running.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(js_name = timeControl, unchecked_param_type = "string")]
        time_control: JsValue,
    ) -> JsResult<Clock> {
        let text = string_arg(&time_control, "timeControl").map_err(thrown)?;
        let control: TimeControl = text.parse().map_err(|e| clock_error(&e))?;
        Ok(Clock {
            inner: clock::Clock::new(control),
        })
    }

    /// The time control as the record's `TimeControl` tag writes it.
    #[wasm_bindgen(getter, js_name = timeControl)]
    pub fn time_control(&self) -> String {
        self.inner.control().to_string()
    }

    /// Starts `side`'s time (`"first"`, `"second"`), or hands the
    /// running time to it without an increment (after a takeback).
    pub fn start(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] side: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    ) -> JsResult<()> {
        let side = side_arg(&side)?;
        let now = time_arg(&now)?;
        self.inner.start(side, now).map_err(|e| clock_error(&e))
    }

    /// The running side has moved: its time used is taken off, the
    /// increment added, the other side's time starts. Throws
    /// `clock.flagged` when its time had run out.
    pub fn press(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    ) -> JsResult<()> {
        let now = time_arg(&now)?;
        self.inner.press(now).map_err(|e| clock_error(&e))
    }

    /// Stops the running side's time until `resume`.
    pub fn pause(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    ) -> JsResult<()> {
        let now = time_arg(&now)?;
        self.inner.pause(now).map_err(|e| clock_error(&e))
    }

    /// Starts the paused side's time again.
    pub fn resume(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    ) -> JsResult<()> {
        let now = time_arg(&now)?;
        self.inner.resume(now).map_err(|e| clock_error(&e))
    }

    /// Stops the clock (the game is over); `start` runs it again.
    pub fn stop(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    ) -> JsResult<()> {
        let now = time_arg(&now)?;
        self.inner.stop(now).map_err(|e| clock_error(&e))
    }

    /// Records the running side's flag if its time is out at `now`, and
    /// gives the side out of time (`"first"`, `"second"`) or `null`.
    pub fn check(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    ) -> JsResult<JsValue> {
        let now = time_arg(&now)?;
        Ok(match self.inner.check(now) {
            Some(Side::First) => JsValue::from_str("first"),
            Some(Side::Second) => JsValue::from_str("second"),
            None => JsValue::NULL,
        })
    }

    /// The clock at `now`: `{ control: "300+2", remaining_ms: [first,
    /// second], running: "first" | "second" | null, paused, flagged:
    /// "first" | "second" | null }`.
    pub fn view(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    ) -> JsResult<JsValue> {
        let now = time_arg(&now)?;
        to_js(&self.inner.view(now))
    }
}

/// A review's budget as JavaScript gives it: `{ nodes }` or `{ depth }`
/// (neither: the default node budget).
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct BudgetArg {
    nodes: Option<f64>,
    depth: Option<f64>,
}

/// The fields of a review's budget.
const BUDGET_FIELDS: &[(&str, &[&str])] = &[("", &["nodes", "depth"])];

impl BudgetArg {
    fn budget(self) -> Result<Budget, ArgError> {
        match (self.nodes, self.depth) {
            (Some(_), Some(_)) => Err(ArgError::Type {
                name: "budget",
                expected: "one of nodes and depth",
                found: "both",
            }),
            (Some(n), None) => Ok(Budget::Nodes(crate::boundary::integer(
                "nodes",
                n,
                1,
                review::MAX_NODES,
            )?)),
            (None, Some(d)) => {
                Ok(Budget::Depth(
                    crate::boundary::integer("depth", d, 1, review::MAX_DEPTH.into())? as u32,
                ))
            }
            (None, None) => Ok(Budget::default()),
        }
    }
}

/// Reviews the game of `record` (`docs/records.md`): every position
/// searched at `budget` (`{ nodes }` or `{ depth }`; the default
/// `{ nodes: 200000 }` when absent), each move's loss in winning chances
/// judged as lichess does. `onProgress(done, total)` is called after each
/// position and stops the review by returning `true`; `shouldStop()` is
/// asked during each search (a shared flag). Returns `{ spec, budget,
/// positions: [{ ply, score, score_first, win_first, best, pv }], moves:
/// [{ ply, side, played, best, win_before, win_after, loss, accuracy,
/// judgement }], sides: [{ accuracy, inaccuracies, mistakes, blunders },
/// ...], nodes, complete }` (`complete` false when stopped: what was done
/// so far). An exception from a callback stops the review and is thrown
/// again.
#[wasm_bindgen]
pub fn review(
    #[wasm_bindgen(unchecked_param_type = "string")] record: JsValue,
    budget: JsValue,
    #[wasm_bindgen(js_name = onProgress, unchecked_param_type = "((done: number, total: number) => any) | null | undefined")]
    on_progress: JsValue,
    #[wasm_bindgen(js_name = shouldStop, unchecked_param_type = "(() => any) | null | undefined")]
    should_stop: JsValue,
) -> JsResult<JsValue> {
    let record = string_arg(&record, "record").map_err(thrown)?;
    let on_progress = function_arg(&on_progress, "onProgress").map_err(thrown)?;
    let should_stop = function_arg(&should_stop, "shouldStop").map_err(thrown)?;
    let budget: BudgetArg = from_js(budget, BUDGET_FIELDS, "review budget")?;
    let budget = budget.budget().map_err(thrown)?;
    let mut exception: Option<JsValue> = None;
    let result = {
        let exception = std::cell::RefCell::new(&mut exception);
        let mut poll = || match &should_stop {
            None => false,
            Some(f) => match f.call0(&JsValue::NULL) {
                Ok(v) => v.is_truthy(),
                Err(e) => {
                    exception.borrow_mut().get_or_insert(e);
                    true
                }
            },
        };
        let mut progress = |done: usize, total: usize| match &on_progress {
            None => false,
            Some(f) => match f.call2(
                &JsValue::NULL,
                &JsValue::from_f64(done as f64),
                &JsValue::from_f64(total as f64),
            ) {
                Ok(v) => v.is_truthy(),
                Err(e) => {
                    exception.borrow_mut().get_or_insert(e);
                    true
                }
            },
        };
        review::review_record(&record, budget, &mut poll, &mut progress)
    };
    if let Some(e) = exception {
        return Err(e);
    }
    let review = result.map_err(|e| js_error(&ErrorData::from(&e)))?;
    to_js(&review)
}
