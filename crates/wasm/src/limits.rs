//! A search's limits as JavaScript gives them, checked before the search.

use std::time::Duration;

use qi_search::{Clock, Limits, MAX_DEPTH};
use serde::Deserialize;

/// What bounds a search, in JavaScript's terms: `{ depth, nodes, movetime,
/// clock, searchmoves }`, every field optional; times in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchLimits {
    /// Deepest iteration, 1 to the search's deepest.
    #[serde(default)]
    pub depth: Option<u32>,
    /// Nodes to visit at most (at least 1).
    #[serde(default)]
    pub nodes: Option<u64>,
    /// Milliseconds to search at most.
    #[serde(default)]
    pub movetime: Option<u64>,
    /// The game clock, when there is no `movetime`.
    #[serde(default)]
    pub clock: Option<ClockLimits>,
    /// The root moves to search (UCI's `searchmoves`), each legal in the
    /// position searched; empty: every legal move.
    #[serde(default)]
    pub searchmoves: Vec<String>,
}

/// The game clock: each side's time left and increment in milliseconds
/// (first side, then second), and the moves to the next time control.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockLimits {
    /// Time left of the first and the second side.
    #[serde(default)]
    pub time: [Option<u64>; 2],
    /// Increment of the first and the second side.
    #[serde(default)]
    pub inc: [Option<u64>; 2],
    /// Moves to the next time control.
    #[serde(default)]
    pub movestogo: Option<u32>,
}

/// Why limits were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LimitsError {
    /// A depth outside 1 to the deepest search.
    #[error("search limits: depth must be from 1 to {MAX_DEPTH}, not {0}")]
    Depth(u32),
    /// A node limit of zero.
    #[error("search limits: nodes must be at least 1")]
    Nodes,
    /// A move time of zero.
    #[error("search limits: movetime must be at least 1 ms")]
    Movetime,
    /// No limit and no callback that could stop the search: it would
    /// never return.
    #[error("search limits: give depth, nodes, movetime or both clock times, or a callback that stops the search")]
    Unbounded,
}

impl LimitsError {
    /// The error as data for JavaScript: its kind and fields.
    pub fn data(&self) -> qi_play::error_data::ErrorData {
        use qi_play::error_data::ErrorData;
        let message = self.to_string();
        match self {
            LimitsError::Depth(depth) => ErrorData::new(
                "limits.depth",
                [
                    ("depth", u64::from(*depth).into()),
                    ("max", u64::from(MAX_DEPTH).into()),
                ],
                message,
            ),
            LimitsError::Nodes => ErrorData::new("limits.nodes", [], message),
            LimitsError::Movetime => ErrorData::new("limits.movetime", [], message),
            LimitsError::Unbounded => ErrorData::new("limits.unbounded", [], message),
        }
    }
}

impl SearchLimits {
    /// Whether the limits end a search by themselves: a depth, a node
    /// count, a move time, or both sides' clock times.
    pub fn is_bounded(&self) -> bool {
        self.depth.is_some()
            || self.nodes.is_some()
            || self.movetime.is_some()
            || self
                .clock
                .as_ref()
                .is_some_and(|c| c.time.iter().all(Option::is_some))
    }

    /// The search's [`Limits`], or why these are refused.
    ///
    /// ```
    /// use qi_wasm::SearchLimits;
    ///
    /// let limits = SearchLimits { depth: Some(4), ..SearchLimits::default() };
    /// assert_eq!(limits.to_limits().unwrap().depth, Some(4));
    /// let deep = SearchLimits { depth: Some(10_000), ..SearchLimits::default() };
    /// assert!(deep.to_limits().is_err());
    /// ```
    pub fn to_limits(&self) -> Result<Limits, LimitsError> {
        if let Some(depth) = self.depth {
            if !(1..=MAX_DEPTH).contains(&depth) {
                return Err(LimitsError::Depth(depth));
            }
        }
        if self.nodes == Some(0) {
            return Err(LimitsError::Nodes);
        }
        if self.movetime == Some(0) {
            return Err(LimitsError::Movetime);
        }
        let ms = |t: Option<u64>| t.map(Duration::from_millis);
        let clock = self.clock.clone().unwrap_or_default();
        let mut search_clock = Clock::default();
        search_clock.time = clock.time.map(ms);
        search_clock.inc = clock.inc.map(ms);
        search_clock.movestogo = clock.movestogo;
        // A search waiting for a stop would never return on the page's
        // only thread.
        let mut limits = Limits::default()
            .with_infinite(false)
            .with_clock(search_clock);
        limits.depth = self.depth;
        limits.nodes = self.nodes;
        limits.movetime = ms(self.movetime);
        Ok(limits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_limits_are_refused_and_good_ones_carried_over() {
        let none = SearchLimits::default().to_limits().unwrap();
        assert_eq!(none, Limits::default());
        assert!(!SearchLimits::default().is_bounded());
        let one_clock = SearchLimits {
            clock: Some(ClockLimits {
                time: [Some(1), None],
                ..ClockLimits::default()
            }),
            ..SearchLimits::default()
        };
        assert!(!one_clock.is_bounded());
        let both = SearchLimits {
            clock: Some(ClockLimits {
                time: [Some(1), Some(1)],
                ..ClockLimits::default()
            }),
            ..SearchLimits::default()
        };
        assert!(both.is_bounded());
        for bad in [
            SearchLimits {
                depth: Some(0),
                ..SearchLimits::default()
            },
            SearchLimits {
                depth: Some(MAX_DEPTH + 1),
                ..SearchLimits::default()
            },
            SearchLimits {
                nodes: Some(0),
                ..SearchLimits::default()
            },
            SearchLimits {
                movetime: Some(0),
                ..SearchLimits::default()
            },
        ] {
            assert!(bad.to_limits().is_err(), "{bad:?}");
        }
        let clocked = SearchLimits {
            nodes: Some(5),
            movetime: Some(250),
            clock: Some(ClockLimits {
                time: [Some(60_000), None],
                inc: [None, Some(2_000)],
                movestogo: Some(3),
            }),
            ..SearchLimits::default()
        }
        .to_limits()
        .unwrap();
        assert_eq!(clocked.nodes, Some(5));
        assert_eq!(clocked.movetime, Some(Duration::from_millis(250)));
        assert_eq!(clocked.clock.time, [Some(Duration::from_secs(60)), None]);
        assert_eq!(clocked.clock.inc, [None, Some(Duration::from_secs(2))]);
        assert_eq!(clocked.clock.movestogo, Some(3));
    }
}
