//! The two players.

use std::fmt;
use std::ops::Not;
use std::str::FromStr;

use thiserror::Error;

/// One of the two players. `First` moves first in Jungle (Red) and places
/// first in Five Tigers (`X`).
///
/// ```
/// use qi_games::prelude::*;
///
/// let side = Jungle::default().side_to_move();
/// assert_eq!(side, Side::First);
/// assert_eq!((side.opponent(), !side), (Side::Second, Side::Second));
/// // Per-side arrays are indexed by `index`, scores signed by `sign`.
/// let material = [8, 7];
/// assert_eq!(material[Side::Second.index()], 7);
/// assert_eq!(Side::BOTH.map(|s| s.sign() * material[s.index()]).iter().sum::<i32>(), 1);
/// assert_eq!(Side::First.to_string(), "first");
/// assert_eq!("second".parse(), Ok(Side::Second));
/// assert!("red".parse::<Side>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Side {
    /// The first player.
    First = 0,
    /// The second player.
    Second = 1,
}

impl Side {
    /// Both sides, `First` then `Second`.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    /// The other side.
    #[inline(always)]
    pub const fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: an index into per-side arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// +1 for `First`, -1 for `Second`.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        match self {
            Side::First => 1,
            Side::Second => -1,
        }
    }
}

impl Not for Side {
    type Output = Side;
    fn not(self) -> Side {
        self.opponent()
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::First => "first",
            Side::Second => "second",
        })
    }
}

/// A side name that is neither `first` nor `second`.
///
/// ```
/// use qi_games::prelude::*;
///
/// let err = "blue".parse::<Side>().unwrap_err();
/// assert_eq!(err.to_string(), "unknown side 'blue' (expected 'first' or 'second')");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown side '{}' (expected 'first' or 'second')", crate::Escaped(.0))]
pub struct ParseSideError(pub String);

impl FromStr for Side {
    type Err = ParseSideError;
    fn from_str(s: &str) -> Result<Side, ParseSideError> {
        match s {
            "first" => Ok(Side::First),
            "second" => Ok(Side::Second),
            _ => Err(ParseSideError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_and_text() {
        assert_eq!(!Side::First, Side::Second);
        assert_eq!(Side::Second.opponent(), Side::First);
        for side in Side::BOTH {
            assert_eq!(side.to_string().parse::<Side>(), Ok(side));
        }
        assert!("red".parse::<Side>().is_err());
    }
}
