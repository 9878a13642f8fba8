//! Time controls: what each side's clock starts with and gains.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use qi_core::Escaped;
use thiserror::Error;

/// Why a time control text was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TimeControlError {
    /// The moves before `/` are not a whole number above 0.
    #[error("moves '{}' is not a whole number above 0", Escaped(.0))]
    BadMoves(String),
    /// A base or increment is not a number.
    #[error("{what} '{}' is not a number of seconds", Escaped(.text))]
    NotANumber {
        /// `base` or `increment`.
        what: &'static str,
        /// The text given.
        text: String,
    },
    /// A base or increment is negative or not finite.
    #[error("{what} '{}' is not a time (seconds, 0 or more)", Escaped(.text))]
    NotATime {
        /// `base` or `increment`.
        what: &'static str,
        /// The text given.
        text: String,
    },
    /// A base or increment is longer than the protocol's clocks hold.
    #[error("{what} '{}' is longer than a clock can be ({} ms at most)", Escaped(.text), u64::MAX)]
    TooLong {
        /// `base` or `increment`.
        what: &'static str,
        /// The text given.
        text: String,
    },
    /// The base is zero.
    #[error("'{0}' starts the clock at zero (the form is [MOVES/]BASE[+INC], in seconds)")]
    ZeroBase(String),
}

/// A time control as cutechess-cli and fastchess write it: `[MOVES/]BASE[+INC]`,
/// in seconds (`10+0.1`, `60`, `40/60+0.5`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period: after each `moves` moves a side gets `base`
    /// again (`None`: one period for the whole game).
    pub moves: Option<u32>,
    /// Each side's time at the start (and of each new period).
    pub base: Duration,
    /// Time each side gains after each of its moves.
    pub inc: Duration,
}

impl TimeControl {
    /// The moves to go in the current period after `made` moves of a
    /// side, for `go movestogo` (`None` without periods, as for periods
    /// of 0 moves, which text never gives).
    pub fn moves_to_go(&self, made: u32) -> Option<u32> {
        self.moves
            .filter(|&moves| moves > 0)
            .map(|moves| moves - made % moves)
    }
}

/// Reads seconds (`10`, `0.5`) as a duration.
fn seconds(text: &str, what: &'static str) -> Result<Duration, TimeControlError> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| TimeControlError::NotANumber {
            what,
            text: text.to_string(),
        })?;
    let time = Duration::try_from_secs_f64(value).map_err(|_| TimeControlError::NotATime {
        what,
        text: text.to_string(),
    })?;
    // The protocol sends clocks as whole milliseconds that engines read as
    // 64-bit numbers: a longer one would be refused by the engine, and the
    // arena would wait for its answer as long as the clock says.
    if u64::try_from(time.as_millis()).is_err() {
        return Err(TimeControlError::TooLong {
            what,
            text: text.to_string(),
        });
    }
    Ok(time)
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => {
                let moves: u32 = moves
                    .trim()
                    .parse()
                    .ok()
                    .filter(|&m| m > 0)
                    .ok_or_else(|| TimeControlError::BadMoves(moves.to_string()))?;
                (Some(moves), rest)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((base, inc)) => (seconds(base, "base")?, seconds(inc, "increment")?),
            None => (seconds(rest, "base")?, Duration::ZERO),
        };
        if base.is_zero() {
            return Err(TimeControlError::ZeroBase(text.to_string()));
        }
        Ok(TimeControl { moves, base, inc })
    }
}

impl fmt::Display for TimeControl {
    /// The form [`FromStr`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write!(f, "{}", self.base.as_secs_f64())?;
        if !self.inc.is_zero() {
            write!(f, "+{}", self.inc.as_secs_f64())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn time_controls_are_read() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(
            tc,
            TimeControl {
                moves: None,
                base: ms(10_000),
                inc: ms(100)
            }
        );
        let tc: TimeControl = "60".parse().unwrap();
        assert_eq!(
            tc,
            TimeControl {
                moves: None,
                base: ms(60_000),
                inc: ms(0)
            }
        );
        let tc: TimeControl = "40/60+0.5".parse().unwrap();
        assert_eq!(
            tc,
            TimeControl {
                moves: Some(40),
                base: ms(60_000),
                inc: ms(500)
            }
        );
        assert_eq!(tc.moves_to_go(0), Some(40));
        assert_eq!(tc.moves_to_go(39), Some(1));
        assert_eq!(tc.moves_to_go(40), Some(40));
        for text in ["10+0.1", "60", "40/60+0.5", "0.5"] {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!(tc.to_string(), text);
        }
    }

    #[test]
    fn bad_time_controls_are_errors() {
        for bad in [
            "", "x", "10+", "+1", "-1", "10+-1", "0", "0+1", "0/10", "a/10", "10+inf", "1e400",
            "1e17", "1+2e16", "40/1e17",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        // 10^19 ms still fits the protocol's 64-bit milliseconds.
        let tc: TimeControl = "1e16+1e16".parse().unwrap();
        assert_eq!(tc.base, Duration::from_secs(10_000_000_000_000_000));
        let e = "1e17".parse::<TimeControl>().unwrap_err();
        assert!(
            matches!(e, TimeControlError::TooLong { what: "base", .. }),
            "{e}"
        );
        assert!(e.to_string().contains("longer than a clock can be"), "{e}");
    }
}
