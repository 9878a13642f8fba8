//! How a game ended.

use std::fmt;

use crate::side::Side;

/// The name of a winning rule of one game (Jungle's `den entered`), as an
/// outcome carries it: at most [`RuleName::CAPACITY`] bytes of text, kept
/// inline so that outcomes stay small `Copy` values.
///
/// ```
/// use qi_games::prelude::*;
///
/// const BOARD_FULL: RuleName = RuleName::new("board full");
/// assert_eq!(BOARD_FULL.as_str(), "board full");
/// assert_eq!(RuleName::try_new("a name of more than twenty-three bytes"), None);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RuleName {
    len: u8,
    bytes: [u8; RuleName::CAPACITY],
}

impl RuleName {
    /// The longest name, in bytes.
    pub const CAPACITY: usize = 23;

    /// The rule called `name`.
    ///
    /// # Panics
    /// If `name` is longer than [`CAPACITY`](RuleName::CAPACITY) bytes (in a
    /// `const`, that is a compile error).
    pub const fn new(name: &str) -> RuleName {
        match RuleName::try_new(name) {
            Some(rule) => rule,
            None => panic!("a rule name has at most 23 bytes"),
        }
    }

    /// The rule called `name`, or `None` if the name is too long.
    pub const fn try_new(name: &str) -> Option<RuleName> {
        let text = name.as_bytes();
        if text.len() > RuleName::CAPACITY {
            return None;
        }
        let mut bytes = [0u8; RuleName::CAPACITY];
        let mut i = 0;
        while i < text.len() {
            bytes[i] = text[i];
            i += 1;
        }
        Some(RuleName {
            len: text.len() as u8,
            bytes,
        })
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        // The bytes are a prefix of a `str` cut at its end, so always UTF-8.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl fmt::Debug for RuleName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for RuleName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for RuleName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for RuleName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RuleName, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        RuleName::try_new(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "rule name '{text}' is longer than {} bytes",
                RuleName::CAPACITY
            ))
        })
    }
}

/// Why a side won. The reasons every game can have are variants; a game's
/// own winning rule is a [`Rule`](WinReason::Rule) that the game names.
///
/// ```
/// use qi_games::prelude::*;
/// use qi_games::jungle::DEN_ENTERED;
///
/// assert_eq!(DEN_ENTERED, WinReason::Rule(RuleName::new("den entered")));
/// assert_eq!(DEN_ENTERED.to_string(), "den entered");
/// assert_eq!(WinReason::NoLegalMove.to_string(), "no legal move");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum WinReason {
    /// A winning rule of the game's own, by its name (e.g. Jungle's
    /// `den entered`).
    Rule(RuleName),
    /// The loser has no pieces left.
    NoPieces,
    /// The loser is to move and has no legal move.
    NoLegalMove,
    /// The game's repetition rule decided against the loser.
    Repetition,
    /// The loser resigned (recorded by the caller).
    Resignation,
    /// The loser ran out of time (recorded by the caller).
    Time,
}

/// Why a game was drawn. As with [`WinReason`], the reasons every game
/// can have are variants and a game's own drawing rule is a
/// [`Rule`](DrawReason::Rule) that the game names.
///
/// ```
/// use qi_games::prelude::*;
///
/// // Tic-tac-toe's full board, a rule of that game alone.
/// let full = DrawReason::Rule(RuleName::new("board full"));
/// assert_eq!(Outcome::Draw(full).to_string(), "1/2-1/2 (draw: board full)");
/// assert_eq!(DrawReason::Repetition.to_string(), "threefold repetition");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum DrawReason {
    /// Too many plies without a capture or removal.
    NoCapture,
    /// A position occurred for the third time.
    Repetition,
    /// The players agreed to a draw (recorded by the caller).
    Agreed,
    /// A drawing rule of the game's own, by its name (e.g. a full board).
    Rule(RuleName),
}

/// The result of a finished game.
///
/// ```
/// use qi_games::prelude::*;
/// use qi_games::jungle::{self, DEN_ENTERED};
///
/// // Red's Lion one step from Blue's den.
/// let mut pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/6l w 0 1", jungle::Rules::standard())?;
/// assert_eq!(pos.outcome(), None);
/// pos.play("d8d9".parse()?)?;
/// let outcome = pos.outcome().ok_or("the game is over")?;
/// assert_eq!(outcome, Outcome::win(Side::First, DEN_ENTERED));
/// assert_eq!(outcome.winner(), Some(Side::First));
/// assert_eq!(outcome.score_text(), "1-0");
/// assert_eq!(outcome.to_string(), "1-0 (first wins: den entered)");
/// assert_eq!(Outcome::Draw(DrawReason::Agreed).winner(), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
            WinReason::Rule(name) => return f.write_str(name.as_str()),
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
            DrawReason::Rule(name) => return f.write_str(name.as_str()),
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
///
/// ```
/// use qi_games::prelude::*;
/// use qi_games::base::ExternalResult;
///
/// let resigned = ExternalResult::Resignation(Side::Second);
/// assert_eq!(resigned.outcome(), Outcome::win(Side::First, WinReason::Resignation));
/// let mut game = qi_games::jungle::Game::default();
/// game.record(resigned);
/// assert_eq!(game.outcome(), Some(resigned.outcome()));
/// assert!(game.play("a3a4".parse()?).is_err()); // the game is over
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
            Outcome::win(Side::First, WinReason::Rule(RuleName::new("den entered"))).to_string(),
            "1-0 (first wins: den entered)"
        );
    }

    #[test]
    fn rule_names_keep_their_text_up_to_the_capacity() {
        let longest = "a".repeat(RuleName::CAPACITY);
        assert_eq!(RuleName::try_new(&longest).unwrap().as_str(), longest);
        assert_eq!(RuleName::try_new(&format!("{longest}a")), None);
        assert_eq!(RuleName::new("").as_str(), "");
        assert_eq!(RuleName::new("größe").to_string(), "größe");
    }
}
