//! A chess clock for a game of two sides: a time control with a Fischer
//! increment (`300+2`: five minutes each, two seconds added after each
//! move), the side whose time runs, pause and resume, and the flag when a
//! side's time is out. Pure logic: every call takes the time now, in
//! milliseconds from any fixed origin the caller chooses (a page's
//! `performance.now()`, a server's monotonic clock), so there is no
//! system clock inside and tests replay any timing exactly.
//!
//! ```
//! use qi_core::Side;
//! use qi_play::clock::{Clock, TimeControl};
//!
//! let control: TimeControl = "300+2".parse().unwrap();
//! let mut clock = Clock::new(control);
//! clock.start(Side::First, 0).unwrap();
//! clock.press(10_000).unwrap(); // the first side moved after 10 s
//! assert_eq!(clock.remaining(Side::First, 10_000), 292_000);
//! assert_eq!(clock.running(), Some(Side::Second));
//! assert_eq!(clock.check(400_000), Some(Side::Second)); // out of time
//! ```

use std::fmt;
use std::str::FromStr;

use qi_core::Side;
use serde::Serialize;

use crate::game::side_word;

/// The longest base time or increment taken, in seconds (a day: more is
/// no game on a clock).
pub const MAX_SECONDS: u64 = 86_400;

/// A time control: each side's time at the start and the increment
/// (Fischer: added to a side's time after each of its moves). Written as
/// PGN's `TimeControl` tag writes it, in seconds: `300+2`, or `600` with
/// no increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// Each side's time at the start, in milliseconds.
    pub base_ms: u64,
    /// Added after each move, in milliseconds.
    pub increment_ms: u64,
}

impl TimeControl {
    /// `base` seconds each and `increment` seconds a move, or why not (a
    /// base of 0 with no increment, or more than [`MAX_SECONDS`]).
    pub fn seconds(base: u64, increment: u64) -> Result<TimeControl, ClockError> {
        let text = || format!("{base}+{increment}");
        if base == 0 && increment == 0 {
            return Err(ClockError::TimeControl {
                text: text(),
                reason: "no time at all",
            });
        }
        if base > MAX_SECONDS || increment > MAX_SECONDS {
            return Err(ClockError::TimeControl {
                text: text(),
                reason: "more than a day",
            });
        }
        Ok(TimeControl {
            base_ms: base * 1000,
            increment_ms: increment * 1000,
        })
    }
}

impl fmt::Display for TimeControl {
    /// `300+2` (seconds), as PGN's `TimeControl` tag; whole seconds as
    /// [`TimeControl::seconds`] makes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (base, inc) = (self.base_ms / 1000, self.increment_ms / 1000);
        if inc == 0 {
            write!(f, "{base}")
        } else {
            write!(f, "{base}+{inc}")
        }
    }
}

impl FromStr for TimeControl {
    type Err = ClockError;

    /// `300+2` or `600`: whole seconds, as PGN's `TimeControl` tag.
    fn from_str(text: &str) -> Result<TimeControl, ClockError> {
        let quoted: String = text.chars().take(40).flat_map(char::escape_debug).collect();
        let bad = |reason| ClockError::TimeControl {
            text: quoted.clone(),
            reason,
        };
        let number = |part: &str| {
            if part.is_empty() || part.len() > 6 || !part.bytes().all(|b| b.is_ascii_digit()) {
                Err(bad(
                    "expected whole seconds as `base+increment`, like 300+2",
                ))
            } else {
                part.parse::<u64>()
                    .map_err(|_| bad("expected whole seconds as `base+increment`, like 300+2"))
            }
        };
        let (base, increment) = match text.split_once('+') {
            Some((base, inc)) => (number(base)?, number(inc)?),
            None => (number(text)?, 0),
        };
        TimeControl::seconds(base, increment).map_err(|e| match e {
            ClockError::TimeControl { reason, .. } => bad(reason),
            other => other,
        })
    }
}

/// Why the clock refuses a call; the clock is unchanged then (but for a
/// flag that fell, which [`Clock::check`] would have recorded anyway).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// Text that is not a time control.
    #[error("bad time control '{text}': {reason}")]
    TimeControl {
        /// The text given (at most 40 characters, escaped).
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// `press`, `pause` or `stop` on a clock that does not run.
    #[error("the clock is not running")]
    NotRunning,
    /// `press` or `pause` while paused, `resume` while not.
    #[error("the clock is {}", if *.paused { "paused" } else { "not paused" })]
    Paused {
        /// Whether the clock was paused.
        paused: bool,
    },
    /// A side's time is out: the clock takes no more moves.
    #[error("{} is out of time", side_word(*.side))]
    Flagged {
        /// The side whose time ran out.
        side: Side,
    },
    /// A time earlier than the clock's last reading.
    #[error("time went back: {now} ms is before {last} ms")]
    TimeWentBack {
        /// The time given.
        now: u64,
        /// The last time the clock read.
        last: u64,
    },
}

/// The two sides' times, the side whose time runs, and a flag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    /// Each side's time left, as of `since` for the running side.
    remaining: [u64; 2],
    /// The side whose move it is on the clock.
    running: Option<Side>,
    /// Whether the running side's time stands still.
    paused: bool,
    /// When the running side's time last started counting (or the last
    /// reading, for a paused or stopped clock).
    since: u64,
    /// The side whose time ran out.
    flagged: Option<Side>,
    /// Moves made on the clock (presses).
    moves: u64,
}

/// What a page shows of a clock at one time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClockView {
    /// The time control (`300+2`).
    pub control: String,
    /// The time left of the first side and of the second, in
    /// milliseconds.
    pub remaining_ms: [u64; 2],
    /// Whose time runs (`first`, `second`), none before the start or
    /// after a flag.
    pub running: Option<&'static str>,
    /// Whether the clock is paused.
    pub paused: bool,
    /// The side out of time, if one is.
    pub flagged: Option<&'static str>,
}

fn index(side: Side) -> usize {
    match side {
        Side::First => 0,
        Side::Second => 1,
    }
}

impl Clock {
    /// A clock at the start of `control`, neither side's time running.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            remaining: [control.base_ms; 2],
            running: None,
            paused: false,
            since: 0,
            flagged: None,
            moves: 0,
        }
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Whose time runs (paused or not).
    pub fn running(&self) -> Option<Side> {
        self.running
    }

    /// Whether the clock is paused.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// The side whose time ran out, once [`Clock::check`] or a press saw it.
    pub fn flagged(&self) -> Option<Side> {
        self.flagged
    }

    /// The moves made on the clock (presses).
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// `side`'s time left at `now`, in milliseconds (0 once out).
    pub fn remaining(&self, side: Side, now: u64) -> u64 {
        let left = self.remaining[index(side)];
        if self.running == Some(side) && !self.paused {
            left.saturating_sub(now.saturating_sub(self.since))
        } else {
            left
        }
    }

    fn no_flag(&self) -> Result<(), ClockError> {
        match self.flagged {
            Some(side) => Err(ClockError::Flagged { side }),
            None => Ok(()),
        }
    }

    fn not_before(&self, now: u64) -> Result<(), ClockError> {
        if now < self.since {
            Err(ClockError::TimeWentBack {
                now,
                last: self.since,
            })
        } else {
            Ok(())
        }
    }

    /// Starts `side`'s time at `now`, or hands the running time to it
    /// (no increment: after a takeback, the side to move's time runs).
    /// Refused when the side whose time ran is out of time.
    pub fn start(&mut self, side: Side, now: u64) -> Result<(), ClockError> {
        self.no_flag()?;
        if self.paused {
            return Err(ClockError::Paused { paused: true });
        }
        self.not_before(now)?;
        if let Some(flagged) = self.check(now) {
            return Err(ClockError::Flagged { side: flagged });
        }
        if let Some(running) = self.running {
            self.remaining[index(running)] = self.remaining(running, now);
        }
        self.running = Some(side);
        self.since = now;
        Ok(())
    }

    /// Stops the running side's time at `now` (the game is over); the
    /// clock runs again with [`Clock::start`].
    pub fn stop(&mut self, now: u64) -> Result<(), ClockError> {
        self.no_flag()?;
        let side = self.running.ok_or(ClockError::NotRunning)?;
        self.not_before(now)?;
        if let Some(side) = self.check(now) {
            return Err(ClockError::Flagged { side });
        }
        self.remaining[index(side)] = self.remaining(side, now);
        self.running = None;
        self.paused = false;
        self.since = now;
        Ok(())
    }

    /// Records the flag of the running side if its time is out at `now`,
    /// and gives the side out of time (this one or an earlier).
    pub fn check(&mut self, now: u64) -> Option<Side> {
        if self.flagged.is_none() {
            if let Some(side) = self.running {
                if !self.paused && now >= self.since && self.remaining(side, now) == 0 {
                    self.remaining[index(side)] = 0;
                    self.flagged = Some(side);
                    self.running = None;
                    self.since = now;
                }
            }
        }
        self.flagged
    }

    /// The running side has moved at `now`: its time used is taken off,
    /// the increment added, and the other side's time starts. A side
    /// whose time ran out before it moved has lost on time: the press is
    /// refused with [`ClockError::Flagged`] (and the flag recorded).
    pub fn press(&mut self, now: u64) -> Result<(), ClockError> {
        self.no_flag()?;
        let side = self.running.ok_or(ClockError::NotRunning)?;
        if self.paused {
            return Err(ClockError::Paused { paused: true });
        }
        self.not_before(now)?;
        if let Some(side) = self.check(now) {
            return Err(ClockError::Flagged { side });
        }
        let i = index(side);
        self.remaining[i] = self.remaining(side, now) + self.control.increment_ms;
        self.running = Some(!side);
        self.since = now;
        self.moves += 1;
        Ok(())
    }

    /// Stops the running side's time at `now` until [`Clock::resume`].
    pub fn pause(&mut self, now: u64) -> Result<(), ClockError> {
        self.no_flag()?;
        let side = self.running.ok_or(ClockError::NotRunning)?;
        if self.paused {
            return Err(ClockError::Paused { paused: true });
        }
        self.not_before(now)?;
        if let Some(side) = self.check(now) {
            return Err(ClockError::Flagged { side });
        }
        self.remaining[index(side)] = self.remaining(side, now);
        self.paused = true;
        self.since = now;
        Ok(())
    }

    /// Starts the paused side's time again at `now`.
    pub fn resume(&mut self, now: u64) -> Result<(), ClockError> {
        self.no_flag()?;
        if !self.paused {
            return Err(ClockError::Paused { paused: false });
        }
        self.not_before(now)?;
        self.paused = false;
        self.since = now;
        Ok(())
    }

    /// The clock as a page shows it at `now` (a flag not yet checked
    /// shows as 0 left).
    pub fn view(&self, now: u64) -> ClockView {
        ClockView {
            control: self.control.to_string(),
            remaining_ms: [
                self.remaining(Side::First, now),
                self.remaining(Side::Second, now),
            ],
            running: self.running.map(side_word),
            paused: self.paused,
            flagged: self.flagged.map(side_word),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn time_controls_read_and_write_as_pgn_tags() {
        let tc: TimeControl = "300+2".parse().unwrap();
        assert_eq!((tc.base_ms, tc.increment_ms), (300_000, 2_000));
        assert_eq!(tc.to_string(), "300+2");
        assert_eq!("600".parse::<TimeControl>().unwrap().to_string(), "600");
        assert_eq!("0+1".parse::<TimeControl>().unwrap().base_ms, 0);
        for bad in [
            "", "+", "5+", "-5", "1.5+2", "300+2+1", "0", "0+0", "86401", "x",
        ] {
            let e = bad.parse::<TimeControl>().unwrap_err();
            assert!(matches!(e, ClockError::TimeControl { .. }), "{bad}: {e}");
        }
        assert_eq!(
            "0+0".parse::<TimeControl>().unwrap_err().to_string(),
            "bad time control '0+0': no time at all"
        );
    }

    #[test]
    fn a_side_that_moves_in_time_gains_its_increment_and_one_too_late_flags() {
        let mut clock = Clock::new("60+5".parse().unwrap());
        assert_eq!(clock.press(0), Err(ClockError::NotRunning));
        clock.start(Side::First, 1_000).unwrap();
        clock.start(Side::First, 1_000).unwrap();
        clock.press(11_000).unwrap();
        assert_eq!(clock.remaining(Side::First, 99_999), 55_000);
        assert_eq!(clock.remaining(Side::Second, 31_000), 40_000);
        // Paused time does not count.
        clock.pause(31_000).unwrap();
        assert_eq!(
            clock.press(32_000),
            Err(ClockError::Paused { paused: true })
        );
        assert_eq!(clock.remaining(Side::Second, 500_000), 40_000);
        clock.resume(500_000).unwrap();
        assert_eq!(
            clock.press(499_000),
            Err(ClockError::TimeWentBack {
                now: 499_000,
                last: 500_000
            })
        );
        // The second side moves too late: it has lost on time.
        assert_eq!(clock.check(539_999), None);
        assert_eq!(
            clock.press(540_000),
            Err(ClockError::Flagged { side: Side::Second })
        );
        assert_eq!(clock.flagged(), Some(Side::Second));
        let view = clock.view(600_000);
        assert_eq!(view.remaining_ms, [55_000, 0]);
        assert_eq!((view.running, view.flagged), (None, Some("second")));
        assert_eq!(clock.moves(), 1);
        assert_eq!(
            clock.start(Side::First, 600_000),
            Err(ClockError::Flagged { side: Side::Second })
        );
    }

    #[test]
    fn a_takeback_hands_the_time_over_without_increment_and_stop_keeps_it() {
        let mut clock = Clock::new("10+3".parse().unwrap());
        clock.start(Side::First, 0).unwrap();
        clock.start(Side::Second, 4_000).unwrap();
        assert_eq!(clock.remaining(Side::First, 9_000), 6_000);
        assert_eq!(clock.remaining(Side::Second, 9_000), 5_000);
        clock.stop(9_000).unwrap();
        assert_eq!(clock.running(), None);
        assert_eq!(clock.remaining(Side::Second, 100_000), 5_000);
        assert_eq!(clock.check(100_000), None);
        assert_eq!(clock.stop(100_000), Err(ClockError::NotRunning));
    }

    proptest! {
        /// Without a flag each side's time is its base, plus an increment
        /// per move, less the time it used; a side flags exactly when the
        /// time it used passes what it had.
        #[test]
        fn times_add_up(
            base in 1u64..100,
            inc in 0u64..10,
            thinks in proptest::collection::vec((0u64..30_000, 0u64..5_000), 1..40),
        ) {
            let control = TimeControl::seconds(base, inc).unwrap();
            let mut clock = Clock::new(control);
            let mut now = 7;
            clock.start(Side::First, now).unwrap();
            let mut left = [control.base_ms; 2];
            let mut side = 0;
            for (think, pause) in thinks {
                // A pause in the middle of the move costs nothing.
                let flagged = if side == 0 { Side::First } else { Side::Second };
                now += think / 2;
                let paused = clock.pause(now);
                if think / 2 >= left[side] {
                    prop_assert_eq!(paused, Err(ClockError::Flagged { side: flagged }));
                    prop_assert_eq!(clock.flagged(), Some(flagged));
                    break;
                }
                prop_assert_eq!(paused, Ok(()));
                now += pause;
                clock.resume(now).unwrap();
                now += think - think / 2;
                let result = clock.press(now);
                if think >= left[side] {
                    prop_assert_eq!(clock.flagged(), Some(flagged));
                    prop_assert!(result.is_err());
                    prop_assert_eq!(clock.remaining(flagged, now + 1_000), 0);
                    break;
                }
                prop_assert_eq!(result, Ok(()));
                left[side] = left[side] - think + control.increment_ms;
                side = 1 - side;
                prop_assert_eq!(clock.remaining(Side::First, now), left[0]);
                prop_assert_eq!(clock.remaining(Side::Second, now), left[1]);
            }
        }
    }
}
