//! The Five Tigers forms of the crate's tables, and reading a state's
//! position back from its key.

use qi_five_tigers::{FiveTigers, Rules};

use super::key::State;
use crate::driver::GenerateError;

/// The Five Tigers tables in memory.
pub type Tablebase = crate::Tablebase<FiveTigers>;
/// The Five Tigers tables of a directory, read on first use.
pub type LazyTablebase = crate::LazyTablebase<FiveTigers>;
/// One Five Tigers table.
pub type Table = crate::Table<FiveTigers>;

/// The position of a stored state's canonical key (see
/// [`Stats::longest_win_key`](super::Stats::longest_win_key)) under `rules`, if it is one.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{position_of_key, Material, Tablebase};
///
/// let rules = Rules::shandong_shuttle();
/// let m: Material = "3v1".parse().unwrap();
/// let tb = Tablebase::generate(&rules, &[m], 2).unwrap();
/// let s = tb.table(m).unwrap().stats();
/// let pos = position_of_key(s.longest_win_key.unwrap(), &rules).unwrap();
/// assert_eq!(Material::of(&pos), Some(m));
/// ```
pub fn position_of_key(key: u64, rules: &Rules) -> Option<FiveTigers> {
    State::from_key(key)?.to_position(rules)
}

impl crate::Table<FiveTigers> {
    /// The position of a stored key (see [`Stats::longest_win_key`](super::Stats::longest_win_key)).
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::{Material, Tablebase};
    /// use qi_tablebase::Wdl;
    ///
    /// let rules = Rules::shandong_shuttle();
    /// let m: Material = "3v1".parse()?;
    /// let tb = Tablebase::generate(&rules, &[m], 1)?;
    /// let table = tb.table(m).unwrap();
    /// let stats = table.stats();
    /// let longest = table.position_of_key(stats.longest_win_key.unwrap()).unwrap();
    /// assert_eq!(tb.probe(&longest)?, Some((Wdl::Win, stats.longest_win)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn position_of_key(&self, key: u64) -> Option<FiveTigers> {
        position_of_key(key, self.rules())
    }
}

/// A generator's own fault (a state it cannot place, a walk that stopped):
/// no input makes it.
pub(super) fn internal(message: String) -> GenerateError {
    GenerateError::Internal(message)
}
