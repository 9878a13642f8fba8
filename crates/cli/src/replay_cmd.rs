//! `qi replay FILE`: every game of a record file (`qi match --pgn`, `qi
//! play`'s `save`) replayed under its rules, each reported, the first
//! illegal move of a game named by its number.

use std::path::PathBuf;

use clap::Args;
use qi_engine::record::replay_all;
use qi_engine::Games;

use crate::error::CliError;
use crate::out::outln;

/// `qi replay` options.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The record file (docs/records.md), of one game or several.
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

/// `qi replay FILE`: one line a game (`game N: ok, FINAL POSITION` or
/// `game N: WHY`), then the count; exit code 2 when a game does not replay.
pub fn run(args: ReplayArgs) -> Result<(), CliError> {
    let shown = args.file.display();
    let text = qi_engine::files::read_text(&args.file, qi_engine::files::TEXT_LIMIT)
        .map_err(|e| CliError::Usage(format!("cannot read {shown}: {e}")))?;
    let games = replay_all::<Games>(&text).map_err(|e| CliError::Usage(format!("{shown}: {e}")))?;
    let mut failed = 0;
    for (i, game) in games.iter().enumerate() {
        match game {
            Ok(position) => outln!("game {}: ok, final position {position}", i + 1),
            Err(e) => {
                failed += 1;
                outln!("game {}: {e}", i + 1);
            }
        }
    }
    outln!(
        "{} games, {} replayed, {failed} failed",
        games.len(),
        games.len() - failed
    );
    match failed {
        0 => Ok(()),
        _ => Err(CliError::Usage(format!(
            "{failed} of the {} games of {shown} do not replay",
            games.len()
        ))),
    }
}
