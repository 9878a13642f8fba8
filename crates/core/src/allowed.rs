//! What a rule option's value may be, as data.

use core::fmt;

/// What a rule option accepts, carried by the errors that refuse a value:
/// a reader in another language says it from these fields, and the English
/// messages from `Display` (`1 to 13`, `3 or 4`, `a number of plies (0:
/// never)`, `on or off`). With the `serde` feature it serialises as
/// `{kind: "range", min, max}`, `{kind: "plies"}` or
/// `{kind: "names", names: [...]}`.
///
/// ```
/// use qi_core::Allowed;
///
/// assert_eq!(Allowed::Range { min: 1, max: 13 }.to_string(), "1 to 13");
/// assert_eq!(Allowed::Range { min: 3, max: 4 }.to_string(), "3 or 4");
/// assert_eq!(Allowed::Names { names: &["a", "b", "c"] }.to_string(), "a, b or c");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "kind", rename_all = "kebab-case")
)]
pub enum Allowed {
    /// A whole number from `min` to `max`, both included.
    Range {
        /// The smallest value.
        min: u32,
        /// The largest value.
        max: u32,
    },
    /// A number of plies, 0 meaning never.
    Plies,
    /// One of these names, in this order.
    Names {
        /// The names.
        names: &'static [&'static str],
    },
}

impl fmt::Display for Allowed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            // Two values read as a choice, more as a range.
            Allowed::Range { min, max } if max == min + 1 => write!(f, "{min} or {max}"),
            Allowed::Range { min, max } => write!(f, "{min} to {max}"),
            Allowed::Plies => f.write_str("a number of plies (0: never)"),
            Allowed::Names { names } => {
                for (i, name) in names.iter().enumerate() {
                    if i > 0 {
                        f.write_str(if i + 1 == names.len() { " or " } else { ", " })?;
                    }
                    f.write_str(name)?;
                }
                Ok(())
            }
        }
    }
}
