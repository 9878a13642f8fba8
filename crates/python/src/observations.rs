//! Batches of observations written into NumPy arrays of the dtype asked
//! for, new or given by the caller (`out=`).
//!
//! Writing into the caller's array matters for speed: a new array of a
//! thousand Jungle observations is 13 MB, and touching fresh pages costs
//! more than computing the planes. Planes other than float32 are computed
//! into a small scratch buffer that stays in the cache, then converted.

use numpy::{PyArray4, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use qi_core::Side;

use crate::game::AnyGame;
use crate::value_error;

/// The element types observations come in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Dtype {
    Float32,
    Uint8,
    Bool,
}

impl Dtype {
    /// The dtype named by `value` (anything `numpy.dtype` reads), float32
    /// when None.
    pub(crate) fn parse(value: Option<&Bound<'_, PyAny>>) -> PyResult<Dtype> {
        let Some(value) = value else {
            return Ok(Dtype::Float32);
        };
        let numpy = value.py().import("numpy")?;
        let name: String = numpy
            .call_method1("dtype", (value,))
            .map_err(|e| PyTypeError::new_err(format!("dtype: {}", e.value(value.py()))))?
            .getattr("name")?
            .extract()?;
        Dtype::named(&name).ok_or_else(|| {
            value_error(format!(
                "dtype: observations come as float32, uint8 or bool, not {name}"
            ))
        })
    }

    /// NumPy's name of the dtype.
    fn name(self) -> &'static str {
        match self {
            Dtype::Float32 => "float32",
            Dtype::Uint8 => "uint8",
            Dtype::Bool => "bool",
        }
    }

    fn named(name: &str) -> Option<Dtype> {
        match name {
            "float32" => Some(Dtype::Float32),
            "uint8" => Some(Dtype::Uint8),
            "bool" => Some(Dtype::Bool),
            _ => None,
        }
    }
}

/// One game's observation to write: the game and the side that sees it,
/// or None for zeros.
pub(crate) type View<'a> = Option<(&'a dyn AnyGame, Side)>;

/// Writes `views` into `out` (C order, `len` values per game): float32
/// planes as they are, uint8 as value × 255 rounded, bool as value > 0.
fn write<T: Copy + Default>(
    views: &[View<'_>],
    len: usize,
    out: &mut [T],
    convert: impl Fn(f32) -> T,
) {
    let mut scratch = vec![0.0f32; len];
    for (view, chunk) in views.iter().zip(out.chunks_mut(len)) {
        match view {
            Some((game, side)) => {
                scratch.fill(0.0);
                game.observe(*side, &mut scratch);
                for (o, &v) in chunk.iter_mut().zip(&scratch) {
                    *o = convert(v);
                }
            }
            None => chunk.fill(T::default()),
        }
    }
}

fn write_f32(views: &[View<'_>], len: usize, out: &mut [f32]) {
    for (view, chunk) in views.iter().zip(out.chunks_mut(len)) {
        chunk.fill(0.0);
        if let Some((game, side)) = view {
            game.observe(*side, chunk);
        }
    }
}

/// Fixed point: binary planes become 0 and 255, fractions keep 8 bits.
/// Values are in 0..=1, so `v × 255` is below 2^8: adding 2^23 leaves its
/// rounded value in the low bits of the mantissa. Only a float add and bit
/// operations, which the compiler vectorises (a float-to-integer `as` cast
/// saturates and was 6 times slower here).
fn to_u8(v: f32) -> u8 {
    (v * 255.0 + 8_388_608.0).to_bits() as u8
}

/// The observations of `views` as an array of `dtype` shaped `shape`:
/// written into `out` when given (which must match exactly), else into a
/// new array. The GIL is released while the planes are computed.
pub(crate) fn fill<'py>(
    py: Python<'py>,
    views: &[View<'_>],
    shape: [usize; 4],
    dtype: Dtype,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    let len = shape[1] * shape[2] * shape[3];
    let target = match out {
        Some(out) => checked_out(out, shape, dtype)?,
        // Through `numpy.empty` rather than rust-numpy's constructors, whose
        // failure to allocate is a panic, not NumPy's MemoryError. Every
        // value is written below.
        None => py
            .import("numpy")?
            .call_method1("empty", (shape, dtype.name()))?
            .cast_into::<PyUntypedArray>()?,
    };
    let views_len = views.len();
    debug_assert_eq!(views_len, shape[0]);
    match dtype {
        Dtype::Float32 => {
            let array = target.cast::<PyArray4<f32>>()?;
            let mut guard = writable(array)?;
            let slice = guard
                .as_slice_mut()
                .map_err(|e| value_error(e.to_string()))?;
            py.detach(|| write_f32(views, len, slice));
        }
        Dtype::Uint8 => {
            let array = target.cast::<PyArray4<u8>>()?;
            let mut guard = writable(array)?;
            let slice = guard
                .as_slice_mut()
                .map_err(|e| value_error(e.to_string()))?;
            py.detach(|| write(views, len, slice, to_u8));
        }
        Dtype::Bool => {
            let array = target.cast::<PyArray4<bool>>()?;
            let mut guard = writable(array)?;
            let slice = guard
                .as_slice_mut()
                .map_err(|e| value_error(e.to_string()))?;
            py.detach(|| write(views, len, slice, |v| v > 0.0));
        }
    }
    Ok(target)
}

/// A mutable view of `array`; a `ValueError` naming `out` when NumPy
/// refuses one (the array is read-only, or already borrowed by another
/// call).
fn writable<'py, T: numpy::Element>(
    array: &Bound<'py, PyArray4<T>>,
) -> PyResult<numpy::PyReadwriteArray4<'py, T>> {
    array
        .try_readwrite()
        .map_err(|e| PyValueError::new_err(format!("out cannot be written: {e}")))
}

/// `out` if it is a writable C-contiguous array of `dtype` shaped `shape`.
fn checked_out<'py>(
    out: &Bound<'py, PyAny>,
    shape: [usize; 4],
    dtype: Dtype,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    let array = out
        .cast::<PyUntypedArray>()
        .map_err(|_| PyTypeError::new_err("out must be a NumPy array"))?;
    let name: String = array.dtype().getattr("name")?.extract()?;
    if Dtype::named(&name) != Some(dtype) {
        return Err(PyTypeError::new_err(format!(
            "out has dtype {name}, but the observations asked for are {dtype:?}"
        )));
    }
    if array.shape() != shape {
        return Err(PyValueError::new_err(format!(
            "out has shape {:?}, but the observations are {shape:?}",
            array.shape()
        )));
    }
    if !array.is_c_contiguous() {
        return Err(PyValueError::new_err("out must be C-contiguous"));
    }
    let writeable: bool = array.getattr("flags")?.getattr("writeable")?.extract()?;
    if !writeable {
        return Err(PyValueError::new_err("out is read-only"));
    }
    Ok(array.clone())
}
