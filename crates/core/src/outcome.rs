//! How a game ended.

use std::fmt;

use crate::side::Side;

/// Why a side won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum WinReason {
    /// An animal entered the enemy den (Jungle).
    DenEntered,
    /// The loser has no pieces left.
    NoPieces,
    /// The loser is to move and has no legal move.
    NoLegalMove,
    /// The loser's move created the third occurrence of a position
    /// (Jungle's `MoverLoses` repetition rule).
    Repetition,
    /// The loser resigned (recorded by the caller).
    Resignation,
    /// The loser ran out of time (recorded by the caller).
    Time,
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DrawReason {
    /// Too many plies without a capture or removal.
    NoCapture,
    /// A position occurred for the third time.
    Repetition,
    /// The players agreed to a draw (recorded by the caller).
    Agreed,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Outcome {
    /// `winner` won for `reason`.
    Win {
        /// The side that won.
        winner: Side,
        /// Why.
        reason: WinReason,
    },
    /// The game was drawn.
    Draw(DrawReason),
}

impl Outcome {
    /// The winner, or `None` for a draw.
    pub const fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw(_) => None,
        }
    }

    /// A win for `winner`.
    pub const fn win(winner: Side, reason: WinReason) -> Outcome {
        Outcome::Win { winner, reason }
    }

    /// The result in the usual score form: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn score_text(self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Side::First,
                ..
            } => "1-0",
            Outcome::Win {
                winner: Side::Second,
                ..
            } => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        }
    }
}

impl fmt::Display for WinReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WinReason::DenEntered => "den entered",
            WinReason::NoPieces => "no pieces left",
            WinReason::NoLegalMove => "no legal move",
            WinReason::Repetition => "threefold repetition by the loser",
            WinReason::Resignation => "resignation",
            WinReason::Time => "loss on time",
        })
    }
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::NoCapture => "no-capture limit",
            DrawReason::Repetition => "threefold repetition",
            DrawReason::Agreed => "agreed draw",
        })
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => {
                write!(f, "{} ({winner} wins: {reason})", self.score_text())
            }
            Outcome::Draw(reason) => write!(f, "{} (draw: {reason})", self.score_text()),
        }
    }
}

/// A result decided outside the rules, recorded by whoever runs the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ExternalResult {
    /// This side resigned.
    Resignation(Side),
    /// This side lost on time.
    TimeLoss(Side),
    /// The players agreed to a draw.
    AgreedDraw,
}

impl ExternalResult {
    /// The outcome this result gives the game.
    pub const fn outcome(self) -> Outcome {
        match self {
            ExternalResult::Resignation(loser) => {
                Outcome::win(loser.opponent(), WinReason::Resignation)
            }
            ExternalResult::TimeLoss(loser) => Outcome::win(loser.opponent(), WinReason::Time),
            ExternalResult::AgreedDraw => Outcome::Draw(DrawReason::Agreed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn external_results_name_the_right_winner() {
        assert_eq!(
            ExternalResult::Resignation(Side::First).outcome().winner(),
            Some(Side::Second)
        );
        assert_eq!(
            ExternalResult::TimeLoss(Side::Second).outcome().winner(),
            Some(Side::First)
        );
        assert_eq!(ExternalResult::AgreedDraw.outcome().winner(), None);
        assert_eq!(
            Outcome::win(Side::First, WinReason::DenEntered).to_string(),
            "1-0 (first wins: den entered)"
        );
    }
}
