//! Actions as Python passes them: one integer, or an array-like of them.
//!
//! Integers of any kind are taken (Python `int`, NumPy integer scalars and
//! arrays of any integer dtype, lists, strided views); floats, bools and
//! strings are refused with a `TypeError` that names what was given, as
//! they are almost always a bug in the caller (a policy's raw output, a
//! mask passed for actions).

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

/// One action: any integer (`int` or a NumPy integer); a negative one is a
/// ValueError like any other action outside the space.
pub(crate) fn action(value: &Bound<'_, PyAny>, actions: usize) -> PyResult<usize> {
    let is_integer = !value.is_instance_of::<PyBool>()
        && (value.is_instance_of::<PyInt>() || is_numpy_integer(value)?);
    if !is_integer {
        return Err(PyTypeError::new_err(format!(
            "an action is an integer, not {} ({})",
            value.get_type().name()?,
            value.repr()?
        )));
    }
    let number: i128 = value.call_method0("__index__")?.extract()?;
    usize::try_from(number)
        .ok()
        .filter(|&a| a < actions)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "action {number} is outside the action space (0..{actions})"
            ))
        })
}

fn is_numpy_integer(value: &Bound<'_, PyAny>) -> PyResult<bool> {
    let numpy = value.py().import("numpy")?;
    value.is_instance(&numpy.getattr("integer")?)
}

/// A 1-D array of actions: any integer array-like, converted to `int64`
/// (a copy only when it is not already contiguous `int64`).
pub(crate) fn actions<'py>(value: &Bound<'py, PyAny>) -> PyResult<PyReadonlyArray1<'py, i64>> {
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
            "a mask of games is boolean, not dtype {}",
            dtype.str()?
        )));
    }
    let mask: Vec<bool> = array
        .call_method0("tolist")?
        .extract()
        .map_err(|_| PyValueError::new_err("a mask of games must be a 1-D boolean array"))?;
    if mask.len() != n {
        return Err(PyValueError::new_err(format!(
            "a mask of {} games for {n} games",
            mask.len()
        )));
    }
    Ok(mask)
}
