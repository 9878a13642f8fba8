//! Everything that can go wrong on the command line.

use thiserror::Error;

/// A failure reported to the user on one line, with exit code 2.
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
    /// A tablebase could not be generated, read or probed.
    #[error("{0}")]
    Tablebase(String),
}
