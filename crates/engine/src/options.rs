//! Search options by name, as engine protocols set them (`setoption name
//! LMR value false`), and the user's settings kept across changes of game.

use qi_core::Escaped;
use qi_search::SearchOptions;
use thiserror::Error;

/// Why an engine option (a search option, a strength option) was not set.
///
/// ```
/// use qi_games::engine::options::{OptionError, Overrides};
///
/// let mut overrides = Overrides::default();
/// assert_eq!(overrides.set("Ponder", "true"), Err(OptionError::Unknown("Ponder".into())));
/// let error = overrides.set("Threads", "0").unwrap_err();
/// assert_eq!(error.to_string(), "option 'Threads' takes a number from 1 to 64, not '0'");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum OptionError {
    /// No option has this name.
    #[error("unknown option '{}'", Escaped(.0))]
    Unknown(String),
    /// The option does not take this value.
    #[error("option '{}' takes {accepted}, not '{}'", Escaped(.name), Escaped(.value))]
    BadValue {
        /// The option, as given.
        name: String,
        /// The value, as given.
        value: String,
        /// What the option accepts (`true or false`, `a number from 1 to 64`).
        accepted: String,
    },
}

impl OptionError {
    /// `value` is not what option `name` accepts.
    ///
    /// ```
    /// use qi_games::engine::options::OptionError;
    ///
    /// let error = OptionError::bad_value("Level", "11", "a number from 1 to 10");
    /// assert_eq!(error.to_string(), "option 'Level' takes a number from 1 to 10, not '11'");
    /// ```
    pub fn bad_value(name: &str, value: &str, accepted: impl Into<String>) -> OptionError {
        OptionError::BadValue {
            name: name.to_string(),
            value: value.to_string(),
            accepted: accepted.into(),
        }
    }
}

/// The largest `Hash` (MiB) accepted.
pub const MAX_HASH_MIB: usize = 4096;
/// The largest `Threads` accepted.
pub const MAX_THREADS: usize = 64;
/// The largest `MultiPV` accepted (more than any position has moves).
pub const MAX_MULTI_PV: usize = 256;

/// Where a switch lives in [`SearchOptions`].
pub type SwitchField = fn(&mut SearchOptions) -> &mut bool;

/// The switches of [`SearchOptions`] as protocols name them, with their
/// fields.
pub const SWITCHES: [(&str, SwitchField); 10] = [
    ("NullMove", |o| &mut o.null_move),
    ("LMR", |o| &mut o.lmr),
    ("Futility", |o| &mut o.futility),
    ("Aspiration", |o| &mut o.aspiration),
    ("Quiescence", |o| &mut o.quiescence),
    ("ReverseFutility", |o| &mut o.reverse_futility),
    ("LateMovePruning", |o| &mut o.late_move_pruning),
    ("CheckExtension", |o| &mut o.check_extension),
    ("MateDistance", |o| &mut o.mate_distance),
    ("IIR", |o| &mut o.iir),
];

/// Sets the search option `name` (case ignored: `Hash`, `Threads`, `MultiPV` or one
/// of [`SWITCHES`]) of `options` to `value`; `Ok(false)` when `name` is no
/// search option, an error naming the accepted values when `value` is bad
/// (then `options` is unchanged).
///
/// ```
/// use qi_games::engine::options::set_search_option;
/// use qi_games::prelude::*;
///
/// let mut options = SearchOptions::default();
/// assert_eq!(set_search_option(&mut options, "hash", "64"), Ok(true));
/// assert_eq!(set_search_option(&mut options, "LMR", "false"), Ok(true));
/// assert_eq!((options.hash_mib, options.lmr), (64, false));
/// assert_eq!(set_search_option(&mut options, "Level", "3"), Ok(false)); // not a search option
/// assert!(set_search_option(&mut options, "LMR", "maybe").is_err());
/// assert!(!options.lmr);
/// ```
pub fn set_search_option(
    options: &mut SearchOptions,
    name: &str,
    value: &str,
) -> Result<bool, OptionError> {
    let number = |min: usize, max: usize| -> Result<usize, OptionError> {
        value
            .parse::<usize>()
            .ok()
            .filter(|&n| (min..=max).contains(&n))
            .ok_or_else(|| {
                OptionError::bad_value(name, value, format!("a number from {min} to {max}"))
            })
    };
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        "hash" => options.hash_mib = number(0, MAX_HASH_MIB)?,
        // No thread would search at all: an error, not a silent 1.
        "threads" => options.threads = number(1, MAX_THREADS)?,
        "multipv" => options.multi_pv = number(1, MAX_MULTI_PV)?,
        _ => {
            let Some((_, field)) = SWITCHES
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(&lower))
            else {
                return Ok(false);
            };
            *field(options) = match value {
                "true" => true,
                "false" => false,
                _ => return Err(OptionError::bad_value(name, value, "true or false")),
            };
        }
    }
    Ok(true)
}

/// The search options a user set, in order: they apply on top of each
/// game's tuned options, and so survive a change of game.
///
/// ```
/// use qi_games::engine::options::Overrides;
/// use qi_games::engine::{engine_for, EvalProfile, Games};
/// use qi_games::prelude::*;
///
/// let mut overrides = Overrides::default();
/// overrides.set("Hash", "1")?;
/// // Each game's tuned options, with the user's on top.
/// assert_eq!(overrides.applied_to(JungleKit::tuned_options()).hash_mib, 1);
/// assert_eq!(overrides.applied_to(FiveTigersKit::tuned_options()).hash_mib, 1);
/// let engine = engine_for::<Games>("five-tigers", EvalProfile::Default, &overrides)?;
/// assert_eq!(engine.spec(), "five-tigers:shandong");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overrides(Vec<(String, String)>);

impl Overrides {
    /// `options` with every override applied.
    ///
    /// ```
    /// use qi_games::engine::options::Overrides;
    /// use qi_games::prelude::*;
    ///
    /// let mut overrides = Overrides::default();
    /// overrides.set("MultiPV", "3")?;
    /// let options = overrides.applied_to(SearchOptions::default());
    /// assert_eq!(options, SearchOptions::default().with_multi_pv(3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn applied_to(&self, mut options: SearchOptions) -> SearchOptions {
        for (name, value) in &self.0 {
            // Each was checked by `set`.
            let _ = set_search_option(&mut options, name, value);
        }
        options
    }

    /// Records `name = value` (replacing an earlier value of `name`) if it
    /// is a valid search option; otherwise says why and records nothing.
    ///
    /// ```
    /// use qi_games::engine::options::Overrides;
    ///
    /// let mut overrides = Overrides::default();
    /// overrides.set("Hash", "32")?;
    /// overrides.set("hash", "64")?;
    /// assert!(overrides.set("Hash", "lots").is_err());
    /// assert_eq!(overrides.entries(), [("hash".to_string(), "64".to_string())]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let mut probe = SearchOptions::default();
        if !set_search_option(&mut probe, name, value)? {
            return Err(OptionError::Unknown(name.to_string()));
        }
        let name = name.to_ascii_lowercase();
        self.0.retain(|(n, _)| *n != name);
        self.0.push((name, value.to_string()));
        Ok(())
    }

    /// The recorded `(name, value)` pairs, names in lower case.
    ///
    /// ```
    /// use qi_games::engine::options::Overrides;
    ///
    /// let mut overrides = Overrides::default();
    /// overrides.set("NullMove", "false")?;
    /// overrides.set("Threads", "2")?;
    /// let names: Vec<&str> = overrides.entries().iter().map(|(n, _)| n.as_str()).collect();
    /// assert_eq!(names, ["nullmove", "threads"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn entries(&self) -> &[(String, String)] {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_switch_is_set_by_its_name_in_any_case() {
        for (name, field) in SWITCHES {
            for value in [true, false] {
                let mut options = SearchOptions::default();
                *field(&mut options) = !value;
                let text = value.to_string();
                assert_eq!(
                    set_search_option(&mut options, &name.to_uppercase(), &text),
                    Ok(true)
                );
                assert_eq!(*field(&mut options), value, "{name}");
            }
        }
        let mut options = SearchOptions::default();
        assert_eq!(set_search_option(&mut options, "Hash", "4"), Ok(true));
        assert!(set_search_option(&mut options, "threads", "0").is_err());
        assert_eq!(set_search_option(&mut options, "threads", "2"), Ok(true));
        assert_eq!((options.hash_mib, options.threads), (4, 2));
        assert_eq!(set_search_option(&mut options, "Bogus", "1"), Ok(false));
        assert!(set_search_option(&mut options, "LMR", "yes").is_err());
        assert!(set_search_option(&mut options, "Hash", "-1").is_err());
        assert_eq!(options.hash_mib, 4);
    }

    #[test]
    fn overrides_apply_in_order_and_refuse_bad_values() {
        let tuned = SearchOptions::exact(16);
        let mut overrides = Overrides::default();
        assert_eq!(overrides.applied_to(tuned), tuned);
        overrides.set("LMR", "false").unwrap();
        overrides.set("hash", "2").unwrap();
        overrides.set("lmr", "true").unwrap();
        overrides.set("NullMove", "true").unwrap();
        assert!(overrides.set("IIR", "sometimes").is_err());
        assert!(overrides.set("Bogus", "1").is_err());
        assert_eq!(overrides.entries().len(), 3);
        let options = overrides.applied_to(tuned);
        assert!(options.lmr && options.null_move);
        assert_eq!(options.hash_mib, 2);
        assert_eq!(
            options
                .with_lmr(false)
                .with_null_move(false)
                .with_hash_mib(16),
            tuned
        );
    }
}
