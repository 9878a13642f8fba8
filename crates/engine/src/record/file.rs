//! Files of several records (`qi match --pgn` writes one a game): the
//! games listed, one chosen by its number, every one replayed.

use thiserror::Error;

use super::{ParseError, Record, ReplayError};
use crate::registry::Registry;

/// Why no record could be chosen from a file's text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PickError {
    /// The text is not a sequence of records.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The text holds no record.
    #[error("the file holds no game record")]
    Empty,
    /// The number is not one of the file's games.
    #[error("there is no game {number}: the file holds {count} (numbered from 1)")]
    NoSuchGame {
        /// The number asked for.
        number: usize,
        /// How many games the file holds.
        count: usize,
    },
    /// No number was given and the file holds several games.
    #[error("the file holds {count} games: choose one by its number (from 1)")]
    Several {
        /// How many games the file holds.
        count: usize,
    },
}

/// Game `number` (from 1) of the records in `text`; without a number, the
/// one record the text holds.
///
/// ```
/// use qi_engine::record::{pick, PickError};
///
/// let text = "[Game \"jungle\"]\n\na3a4 *\n\n[Game \"jungle\"]\n\ng7g6 *\n";
/// assert_eq!(pick(text, Some(2)).unwrap().moves[0].text, "g7g6");
/// assert_eq!(pick(text, None), Err(PickError::Several { count: 2 }));
/// assert_eq!(pick(text, Some(3)), Err(PickError::NoSuchGame { number: 3, count: 2 }));
/// ```
pub fn pick(text: &str, number: Option<usize>) -> Result<Record, PickError> {
    let mut records = Record::read_all(text)?;
    let count = records.len();
    match (number, count) {
        (_, 0) => Err(PickError::Empty),
        (None, 1) => Ok(records.remove(0)),
        (None, count) => Err(PickError::Several { count }),
        (Some(n), count) if n == 0 || n > count => Err(PickError::NoSuchGame { number: n, count }),
        (Some(n), _) => Ok(records.swap_remove(n - 1)),
    }
}

/// One line about `record` for a list of a file's games: its players,
/// result, move count and termination.
///
/// ```
/// let record: qi_engine::record::Record =
///     "[Game \"jungle\"]\n[First \"a\"]\n[Second \"b\"]\n[Result \"1-0\"]\n\na3a4 1-0\n".parse().unwrap();
/// assert_eq!(qi_engine::record::summary(&record), "jungle: a - b, 1-0, 1 moves");
/// ```
pub fn summary(record: &Record) -> String {
    let tag = |name| record.tag(name).unwrap_or("?");
    let mut line = format!(
        "{}: {} - {}, {}, {} moves",
        tag("Game"),
        tag("First"),
        tag("Second"),
        record.result(),
        record.moves.len()
    );
    if let Some(why) = record.tag("Termination") {
        line += &format!(" ({why})");
    }
    line
}

/// Replays every record of `text` in the game of registry `R` its `Game`
/// tag names: per game (in order, from game 1) its final position's text,
/// or why it does not replay (the first illegal move, by its number).
pub fn replay_all<R: Registry>(text: &str) -> Result<Vec<Result<String, ReplayError>>, ParseError> {
    Ok(Record::read_all(text)?
        .iter()
        .map(|record| record.final_position::<R>())
        .collect())
}
