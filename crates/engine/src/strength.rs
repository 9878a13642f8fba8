//! The strength options as engine protocols set them (`setoption name
//! Level value 3`, UCI's `UCI_LimitStrength` and `UCI_Elo` as
//! `LimitStrength` and `Elo`, `Seed`), kept across changes of game.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

use qi_search::{Level, StrengthScale};

use crate::options::OptionError;

/// The strength a user asked for: a level, or (with `limit_strength`) a
/// rating that picks the level measured nearest to it, and the seed of
/// the level's random choices.
///
/// ```
/// use qi_engine::strength::StrengthOptions;
/// use qi_engine::{GameKit, JungleKit};
/// use qi_search::Level;
///
/// let mut options = StrengthOptions::default();
/// assert_eq!(options.level_for(&JungleKit::STRENGTH), Level::FULL);
/// options.set("Level", "3").unwrap();
/// assert_eq!(options.level_for(&JungleKit::STRENGTH).get(), 3);
/// // A rating wins over the level once LimitStrength is on.
/// options.set("Elo", "0").unwrap();
/// options.set("LimitStrength", "true").unwrap();
/// assert_eq!(options.level_for(&JungleKit::STRENGTH), Level::WEAKEST);
/// assert!(options.set("Level", "0").is_err());
/// assert_eq!(options.set("Hash", "4"), Ok(false));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StrengthOptions {
    /// `Level`: 1 to 10, 10 the full engine (the default).
    pub level: Level,
    /// `LimitStrength`: play at the level nearest to `elo` instead.
    pub limit_strength: bool,
    /// `Elo`: the rating asked for, on the scale of `docs/levels.md`
    /// (a uniformly random mover is 0).
    pub elo: i32,
    /// `Seed`: the random sequence of the level's choices, from the start
    /// of each game; `None` draws a new one for each engine.
    pub seed: Option<u64>,
}

impl Default for StrengthOptions {
    fn default() -> StrengthOptions {
        StrengthOptions {
            level: Level::FULL,
            limit_strength: false,
            elo: ELO_DEFAULT,
            seed: None,
        }
    }
}

/// The `Elo` option's default, range and step as the protocol lists them.
pub const ELO_DEFAULT: i32 = 1500;
/// The lowest `Elo` accepted.
pub const ELO_MIN: i32 = 0;
/// The highest `Elo` accepted.
pub const ELO_MAX: i32 = 4000;

impl StrengthOptions {
    /// Sets the strength option `name` (case ignored: `Level`,
    /// `LimitStrength`, `Elo`, `Seed`) to `value`; `Ok(false)` when `name`
    /// is no strength option, an error naming the accepted values when
    /// `value` is bad (then nothing changes).
    ///
    /// ```
    /// use qi_games::engine::strength::StrengthOptions;
    ///
    /// let mut options = StrengthOptions::default();
    /// assert_eq!(options.set("seed", "42"), Ok(true));
    /// assert_eq!(options.seed, Some(42));
    /// assert_eq!(options.set("Seed", "random"), Ok(true));
    /// assert_eq!(options.seed, None);
    /// assert!(options.set("Elo", "5000").is_err());
    /// assert_eq!(options, StrengthOptions::default());
    /// ```
    pub fn set(&mut self, name: &str, value: &str) -> Result<bool, OptionError> {
        let bad = |accepted: &str| OptionError::bad_value(name, value, accepted);
        match name.to_ascii_lowercase().as_str() {
            "level" => {
                self.level = value
                    .parse()
                    .map_err(|_| bad(&format!("a number from 1 to {}", Level::COUNT)))?
            }
            "limitstrength" => {
                self.limit_strength = match value {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad("true or false")),
                }
            }
            "elo" => {
                self.elo = value
                    .parse::<i32>()
                    .ok()
                    .filter(|e| (ELO_MIN..=ELO_MAX).contains(e))
                    .ok_or_else(|| bad(&format!("a number from {ELO_MIN} to {ELO_MAX}")))?
            }
            "seed" => {
                self.seed = match value {
                    "" | "<empty>" | "random" => None,
                    _ => Some(
                        value
                            .parse::<u64>()
                            .map_err(|_| bad("a number from 0 to 2^64 - 1, or 'random'"))?,
                    ),
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The level to play at under the game's `scale`: `level`, or the one
    /// measured nearest to `elo` when `limit_strength` is on.
    ///
    /// ```
    /// use qi_games::engine::strength::StrengthOptions;
    /// use qi_games::prelude::*;
    /// use qi_games::search::Level;
    ///
    /// let mut options = StrengthOptions::default();
    /// options.set("LimitStrength", "true")?;
    /// options.set("Elo", "4000")?;
    /// assert_eq!(options.level_for(&FiveTigersKit::STRENGTH), Level::FULL);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn level_for(&self, scale: &StrengthScale) -> Level {
        if self.limit_strength {
            Level::for_elo(self.elo, scale)
        } else {
            self.level
        }
    }

    /// The seed, or a new random one when none is set.
    ///
    /// ```
    /// use qi_games::engine::strength::StrengthOptions;
    ///
    /// let mut options = StrengthOptions::default();
    /// options.set("Seed", "7")?;
    /// assert_eq!(options.seed_or_random(), 7);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn seed_or_random(&self) -> u64 {
        self.seed.unwrap_or_else(random_seed)
    }
}

/// A seed from the process's random hashing keys, which the standard
/// library draws from the operating system once per process, mixed with
/// a counter so that each engine of the process differs.
///
/// ```
/// use qi_games::engine::strength::random_seed;
///
/// // Each call differs, even within one process.
/// assert_ne!(random_seed(), random_seed());
/// ```
pub fn random_seed() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static DRAWN: AtomicU64 = AtomicU64::new(0);
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(DRAWN.fetch_add(1, Ordering::Relaxed));
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_values_change_nothing() {
        let mut options = StrengthOptions::default();
        for (name, value) in [
            ("Level", "11"),
            ("level", "-1"),
            ("LimitStrength", "yes"),
            ("Elo", "99999"),
            ("Elo", "x"),
            ("Seed", "-3"),
        ] {
            assert!(options.set(name, value).is_err(), "{name} {value}");
            assert_eq!(options, StrengthOptions::default());
        }
        assert_eq!(options.set("seed", "42"), Ok(true));
        assert_eq!(options.seed, Some(42));
        assert_eq!(options.seed_or_random(), 42);
        assert_eq!(options.set("Seed", "random"), Ok(true));
        assert_eq!(options.seed, None);
        assert_ne!(random_seed(), random_seed());
    }
}
