//! `--game` values: a game and its preset, e.g. `jungle:datou`.

use qi_core::Position;

use crate::args::Args;
use crate::error::CliError;

/// A game with its rule set, as chosen by `--game`.
#[derive(Clone, Debug)]
pub enum GameSpec {
    /// Jungle under these rules.
    Jungle(qi_jungle::Rules),
    /// Five Tigers under these rules.
    FiveTigers(qi_five_tigers::Rules),
}

impl GameSpec {
    /// Parses `jungle`, `jungle:PRESET`, `five-tigers` or `five-tigers:PRESET`.
    pub fn parse(text: &str) -> Result<GameSpec, CliError> {
        let game = text.split(':').next().unwrap_or_default();
        match game {
            "jungle" => text
                .parse()
                .map(GameSpec::Jungle)
                .map_err(|e| CliError::Game(format!("{e}"))),
            "five-tigers" => text
                .parse()
                .map(GameSpec::FiveTigers)
                .map_err(|e| CliError::Game(format!("{e}"))),
            _ => Err(CliError::Game(format!(
                "unknown game '{game}' (expected 'jungle' or 'five-tigers', optionally with ':PRESET')"
            ))),
        }
    }

    /// The game named by `--game`, Jungle (standard) when absent.
    pub fn from_args(args: &Args) -> Result<GameSpec, CliError> {
        match args.value("game") {
            Some(text) => GameSpec::parse(text),
            None => Ok(GameSpec::Jungle(qi_jungle::Rules::default())),
        }
    }
}

/// The position given by `--fen` (or the start position) after the moves
/// of `--moves`, each checked for legality.
pub fn setup<P: Position>(start: P, args: &Args) -> Result<P, CliError> {
    let mut pos = match args.value("fen") {
        Some(text) => start
            .with_text(text)
            .map_err(|e| CliError::Fen(e.to_string()))?,
        None => start,
    };
    if let Some(list) = args.value("moves") {
        for (i, text) in list.split_whitespace().enumerate() {
            let bad = |reason: String| CliError::Move {
                index: i + 1,
                text: text.to_string(),
                reason,
            };
            let mv: P::Move = text.parse().map_err(|e| bad(format!("{e}")))?;
            pos.play(mv).map_err(|e| bad(e.reason))?;
        }
    }
    Ok(pos)
}
