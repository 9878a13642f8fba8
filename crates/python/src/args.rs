//! Actions as Python passes them: one integer, or an array-like of them.
//!
//! Integers of any kind are taken (Python `int`, NumPy integer scalars and
//! arrays of any integer dtype, lists, strided views); floats, bools and
//! strings are refused with a `TypeError` that names what was given, as
//! they are almost always a bug in the caller (a policy's raw output, a
//! mask passed for actions).

use std::fmt;

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

/// An integer argument as Python gave it: an `int` or a NumPy integer of
/// any size. A `bool` is refused (`depth=True` is nearly always a slip),
/// as is anything else, with a `TypeError` that PyO3 prefixes with the
/// argument's name; the range is checked by [`Int::within`], which names
/// the argument too (PyO3's own conversion to an unsigned type would raise
/// an `OverflowError` that does not).
#[derive(Clone, Debug)]
pub(crate) struct Int {
    /// The value, or None when it does not fit an `i128` (out of every
    /// range this crate checks).
    value: Option<i128>,
    /// The value as Python writes it, for messages.
    text: String,
}

impl Int {
    /// A default value given in a signature.
    pub(crate) fn of(value: i128) -> Int {
        Int {
            value: Some(value),
            text: value.to_string(),
        }
    }

    /// The value if it is in `min..=max`, else a `ValueError` naming the
    /// argument `name`.
    pub(crate) fn within<T: TryFrom<i128>>(&self, name: &str, min: i128, max: i128) -> PyResult<T> {
        self.value
            .filter(|v| (min..=max).contains(v))
            .and_then(|v| T::try_from(v).ok())
            .ok_or_else(|| {
                PyValueError::new_err(format!("{name} must be {min} to {max}, not {}", self.text))
            })
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Int> {
        let index = integer(&obj)?;
        Ok(Int {
            value: index.extract().ok(),
            text: index.str()?.to_string(),
        })
    }
}

/// `value` as a Python `int` if it is an integer (`int` or a NumPy
/// integer) and not a `bool`; else a `TypeError` saying what it is.
fn integer<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let is_integer = !value.is_instance_of::<PyBool>()
        && (value.is_instance_of::<PyInt>() || is_numpy_integer(value)?);
    if !is_integer {
        return Err(PyTypeError::new_err(format!(
            "expected an integer, not {} ({})",
            value.get_type().name()?,
            value.repr()?
        )));
    }
    value.call_method0("__index__")
}

/// One action: any integer (`int` or a NumPy integer); a negative one is a
/// ValueError like any other action outside the space.
pub(crate) fn action(value: &Bound<'_, PyAny>, actions: usize) -> PyResult<usize> {
    let index = integer(value).map_err(|e| {
        PyTypeError::new_err(format!("an action is an integer: {}", e.value(value.py())))
    })?;
    let text = index.str()?.to_string();
    index
        .extract::<i128>()
        .ok()
        .and_then(|n| usize::try_from(n).ok())
        .filter(|&a| a < actions)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "action {text} is outside the action space (0..{actions})"
            ))
        })
}

fn is_numpy_integer(value: &Bound<'_, PyAny>) -> PyResult<bool> {
    let numpy = value.py().import("numpy")?;
    value.is_instance(&numpy.getattr("integer")?)
}

/// A 1-D array of actions: any integer array-like, converted to `int64`
/// (a copy only when it is not already contiguous `int64`). An unsigned
/// action too large for `int64` is refused here, by its value, rather than
/// wrapped to a negative one; `actions` is the size of the action space,
/// for that message.
pub(crate) fn actions<'py>(
    value: &Bound<'py, PyAny>,
    actions: usize,
) -> PyResult<PyReadonlyArray1<'py, i64>> {
    if let Ok(array) = value.cast::<PyArray1<i64>>() {
        if array.is_contiguous() {
            return Ok(array.readonly());
        }
    }
    let py = value.py();
    let numpy = py.import("numpy")?;
    let array = numpy.call_method1("asarray", (value,))?;
    let dtype = array.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        return Err(PyTypeError::new_err(format!(
            "actions must be integers, not dtype {}",
            dtype.str()?
        )));
    }
    let ndim: usize = array.getattr("ndim")?.extract()?;
    if ndim != 1 {
        return Err(PyValueError::new_err(format!(
            "actions must be a 1-D array, not {ndim}-D"
        )));
    }
    if kind == "u" {
        let above = numpy.call_method1("greater", (&array, i64::MAX))?;
        let too_large = numpy.call_method1("flatnonzero", (above,))?;
        if too_large.len()? > 0 {
            let game: usize = too_large.get_item(0)?.extract()?;
            let action = array.get_item(game)?;
            return Err(PyValueError::new_err(format!(
                "game {game}: action {action} is outside the action space (0..{actions})"
            )));
        }
    }
    let converted = numpy.call_method1("ascontiguousarray", (array, "int64"))?;
    Ok(converted.cast_into::<PyArray1<i64>>()?.readonly())
}

/// A 1-D boolean mask of `n` games (None: every game).
pub(crate) fn game_mask(value: Option<&Bound<'_, PyAny>>, n: usize) -> PyResult<Vec<bool>> {
    let Some(value) = value else {
        return Ok(vec![true; n]);
    };
    let numpy = value.py().import("numpy")?;
    let array = numpy.call_method1("asarray", (value,))?;
    let dtype = array.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    if kind != "b" {
        return Err(PyTypeError::new_err(format!(
            "active, a mask of games, is boolean, not dtype {}",
            dtype.str()?
        )));
    }
    let mask: Vec<bool> = array.call_method0("tolist")?.extract().map_err(|_| {
        PyValueError::new_err("active, a mask of games, must be a 1-D boolean array")
    })?;
    if mask.len() != n {
        return Err(PyValueError::new_err(format!(
            "active is a mask of {} games for {n} games",
            mask.len()
        )));
    }
    Ok(mask)
}
