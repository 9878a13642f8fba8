//! Everything that can go wrong on the command line.

use thiserror::Error;

/// A failure reported to the user on one line, with exit code 2 (an
/// interrupted match: 128 + the signal's number).
#[derive(Debug, Error)]
pub enum CliError {
    /// Malformed command line.
    #[error("{0}")]
    Usage(String),
    /// `--game` names no known game or preset.
    #[error("bad --game: {0}")]
    Game(#[from] qi_engine::SpecError),
    /// `--fen` could not be read.
    #[error("bad --fen: {0}")]
    Fen(String),
    /// A move of `--moves` could not be read or is illegal.
    #[error("bad move {index} '{}' in --moves: {reason}", qi_core::Escaped(.text))]
    Move {
        /// 1-based position in the list.
        index: usize,
        /// The move text.
        text: String,
        /// What was wrong.
        reason: String,
    },
    /// An engine of `qi match` could not be started.
    #[error("{0}")]
    Engine(String),
    /// `qi match` was stopped by a signal (exit code 128 + its number).
    #[error("the match was interrupted by {name} after {games} games")]
    Interrupted {
        /// The signal's number.
        signal: i32,
        /// Its name (`SIGINT`).
        name: String,
        /// The games that counted.
        games: u32,
    },
    /// A tablebase could not be generated, read or probed.
    #[error("{0}")]
    Tablebase(String),
}
