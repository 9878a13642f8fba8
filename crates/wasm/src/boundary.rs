//! The boundary with JavaScript: each argument is checked for its type,
//! for being an integer and for its range before it reaches the library
//! (wasm-bindgen's own conversions wrap numbers silently, `-1` to
//! 4294967295, and pass any value as a string), and each error is thrown
//! as an `Error` that carries its kind and fields (`e.kind`, `e.fields`)
//! beside its message, so that a page translates it by kind.

use js_sys::{Array, Function, Reflect};
use qi_play::error_data::{ErrorData, Field};
use serde::Serialize;
use wasm_bindgen::{JsCast, JsValue};

/// Why an argument is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArgError {
    /// A value of another type than the argument takes.
    #[error("{name} must be {expected}, not {found}")]
    Type {
        /// The argument's name.
        name: &'static str,
        /// What it takes (`a string`, `an integer`).
        expected: &'static str,
        /// What it was given (`null`, `an array`, `a number`).
        found: &'static str,
    },
    /// A number that is not an integer in the argument's range.
    #[error("{name} must be an integer from {min} to {max}, not {value}")]
    Range {
        /// The argument's name.
        name: &'static str,
        /// The least value taken.
        min: u64,
        /// The greatest value taken.
        max: u64,
        /// The number given, as JavaScript writes it.
        value: String,
    },
}

impl From<&ArgError> for ErrorData {
    fn from(e: &ArgError) -> ErrorData {
        let message = e.to_string();
        match e {
            ArgError::Type {
                name,
                expected,
                found,
            } => ErrorData::new(
                "argument.type",
                [
                    ("name", (*name).into()),
                    ("expected", (*expected).into()),
                    ("found", (*found).into()),
                ],
                message,
            ),
            ArgError::Range {
                name,
                min,
                max,
                value,
            } => ErrorData::new(
                "argument.range",
                [
                    ("name", (*name).into()),
                    ("min", (*min).into()),
                    ("max", (*max).into()),
                    ("value", value.as_str().into()),
                ],
                message,
            ),
        }
    }
}

/// A number as JavaScript writes it (`-1`, `NaN`, `Infinity`, `1e+300`,
/// `0.5`), for messages.
pub fn js_number(x: f64) -> String {
    if x.is_nan() {
        "NaN".to_string()
    } else if x.is_infinite() {
        if x > 0.0 { "Infinity" } else { "-Infinity" }.to_string()
    } else if x.abs() >= 1e21 {
        let text = format!("{x:e}");
        match text.split_once('e') {
            Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e}"),
            _ => text,
        }
    } else {
        format!("{x}")
    }
}

/// `x` as an integer from `min` to `max`, or why not: no rounding, no
/// wrapping.
pub fn integer(name: &'static str, x: f64, min: u64, max: u64) -> Result<u64, ArgError> {
    // `min` and `max` are far below 2^53, so the comparisons are exact.
    if x.is_finite() && x.fract() == 0.0 && x >= min as f64 && x <= max as f64 {
        Ok(x as u64)
    } else {
        Err(ArgError::Range {
            name,
            min,
            max,
            value: js_number(x),
        })
    }
}

/// What a JavaScript value is, in words, for messages.
fn found(value: &JsValue) -> &'static str {
    if value.is_undefined() {
        "undefined"
    } else if value.is_null() {
        "null"
    } else if Array::is_array(value) {
        "an array"
    } else if value.is_string() {
        "a string"
    } else if value.as_f64().is_some() {
        "a number"
    } else if value.as_bool().is_some() {
        "a boolean"
    } else if value.is_function() {
        "a function"
    } else if value.is_bigint() {
        "a bigint"
    } else if value.is_symbol() {
        "a symbol"
    } else {
        "an object"
    }
}

/// An integer argument from `min` to `max`.
pub fn integer_arg(
    value: &JsValue,
    name: &'static str,
    min: u64,
    max: u64,
) -> Result<u64, ArgError> {
    match value.as_f64() {
        Some(x) => integer(name, x, min, max),
        None => Err(ArgError::Type {
            name,
            expected: "an integer",
            found: found(value),
        }),
    }
}

/// An optional integer argument (`undefined` or `null`: none).
pub fn optional_integer_arg(
    value: &JsValue,
    name: &'static str,
    min: u64,
    max: u64,
) -> Result<Option<u64>, ArgError> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    integer_arg(value, name, min, max).map(Some)
}

/// A string argument.
pub fn string_arg(value: &JsValue, name: &'static str) -> Result<String, ArgError> {
    value.as_string().ok_or_else(|| ArgError::Type {
        name,
        expected: "a string",
        found: found(value),
    })
}

/// An optional string argument (`undefined` or `null`: none).
pub fn optional_string_arg(
    value: &JsValue,
    name: &'static str,
) -> Result<Option<String>, ArgError> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    string_arg(value, name).map(Some)
}

/// An option's value: a string, or a number or boolean written as
/// JavaScript writes it (`setOption("MultiPV", 3)`).
pub fn option_value_arg(value: &JsValue, name: &'static str) -> Result<String, ArgError> {
    if let Some(s) = value.as_string() {
        Ok(s)
    } else if let Some(x) = value.as_f64() {
        Ok(js_number(x))
    } else if let Some(b) = value.as_bool() {
        Ok(b.to_string())
    } else {
        Err(ArgError::Type {
            name,
            expected: "a string, a number or a boolean",
            found: found(value),
        })
    }
}

/// A boolean argument; `undefined` gives `false`.
pub fn bool_arg(value: &JsValue, name: &'static str) -> Result<bool, ArgError> {
    if value.is_undefined() {
        return Ok(false);
    }
    value.as_bool().ok_or_else(|| ArgError::Type {
        name,
        expected: "a boolean",
        found: found(value),
    })
}

/// An optional function argument (`undefined` or `null`: none).
pub fn function_arg(value: &JsValue, name: &'static str) -> Result<Option<Function>, ArgError> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .dyn_ref::<Function>()
        .cloned()
        .map(Some)
        .ok_or_else(|| ArgError::Type {
            name,
            expected: "a function",
            found: found(value),
        })
}

/// An optional array of strings (`undefined` or `null`: none).
pub fn string_list_arg(
    value: &JsValue,
    name: &'static str,
) -> Result<Option<Vec<String>>, ArgError> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    let not_list = || ArgError::Type {
        name,
        expected: "an array of strings",
        found: found(value),
    };
    if !Array::is_array(value) {
        return Err(not_list());
    }
    Array::from(value)
        .iter()
        .map(|item| item.as_string().ok_or_else(not_list))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// An options object: `undefined`, `null` or a plain object (not an
/// array, a function or a primitive, which serde would read as something
/// else or as no options at all).
pub fn options_arg(value: &JsValue, name: &'static str) -> Result<(), ArgError> {
    if value.is_undefined()
        || value.is_null()
        || (value.is_object() && !Array::is_array(value) && !value.is_function())
    {
        Ok(())
    } else {
        Err(ArgError::Type {
            name,
            expected: "an object",
            found: found(value),
        })
    }
}

/// The JavaScript `Error` for `data`: its message, and `kind` and
/// `fields` as properties.
pub fn js_error(data: &ErrorData) -> JsValue {
    let error = js_sys::Error::new(&data.message);
    let fields = js_sys::Object::new();
    for (name, field) in &data.fields {
        let value = match field {
            // Exact: fields are counts and plies, far below 2^53.
            Field::Number(n) => JsValue::from_f64(*n as f64),
            Field::Text(t) => JsValue::from_str(t),
            // Maps of strings and numbers: as a plain object, or left out.
            Field::Cause(cause) => {
                match cause.serialize(&serde_wasm_bindgen::Serializer::json_compatible()) {
                    Ok(value) => value,
                    Err(_) => continue,
                }
            }
        };
        // Setting a property of a fresh plain object cannot fail.
        let _ = Reflect::set(&fields, &JsValue::from_str(name), &value);
    }
    let _ = Reflect::set(
        &error,
        &JsValue::from_str("kind"),
        &JsValue::from_str(data.kind),
    );
    let _ = Reflect::set(&error, &JsValue::from_str("fields"), &fields);
    error.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_taken_exactly_or_refused_never_wrapped() {
        assert_eq!(integer("ply", 0.0, 0, 10), Ok(0));
        assert_eq!(integer("ply", 10.0, 0, 10), Ok(10));
        for (x, shown) in [
            (-1.0, "-1"),
            (31.0, "31"),
            (0.5, "0.5"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (1e300, "1e+300"),
            (4294967297.0, "4294967297"),
            (-0.25, "-0.25"),
        ] {
            let e = integer("depth", x, 0, 30).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("depth must be an integer from 0 to 30, not {shown}")
            );
            let data = ErrorData::from(&e);
            assert_eq!(data.kind, "argument.range");
            assert_eq!(data.fields["value"], Field::Text(shown.into()));
            assert_eq!(data.fields["max"], Field::Number(30));
        }
    }
}
