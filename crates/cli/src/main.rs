//! `qi`: the command-line tool of the qi engines.
//!
//! Subcommands: `perft` (count the move tree), `moves` (list the legal
//! moves), `engine` (the JCEI protocol), `play` (a game against the
//! engine), `match` (engine against engine). Bad input is reported on one
//! stderr line with exit code 2; output that cannot be written ends the
//! program quietly with exit code 0 on a closed pipe, with one stderr line
//! and exit code 3 otherwise ([`out`]). Every command is generic over the game:
//! the game named by `--game` is found in the library's registry
//! ([`qi_engine::Games`]), which runs the command's generic code for it.

mod arena;
mod commands;
mod error;
mod jcei;
mod out;
mod play_cmd;
mod replay_cmd;
mod serve_cmd;

mod tb;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use qi_engine::{Games, Registry};

use error::CliError;

/// Game engines for Jungle (斗兽棋) and Five Tigers (五虎棋): perft, move
/// lists, the JCEI engine protocol, play in the terminal and engine matches.
#[derive(Parser, Debug)]
#[command(
    name = "qi",
    version,
    override_usage = "qi <command> [options]\n       qi              (no command: the same as 'qi engine')"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the legal move tree DEPTH plies deep (board
    /// moves: the history rules of the game layer do not apply).
    Perft(commands::PerftArgs),
    /// Print the moves the side to move may play, on one line (the game's
    /// moves: with --moves, the history rules such as repetition and
    /// Jungle's anti-chase rules apply).
    Moves(commands::MovesArgs),
    /// Speak the JCEI engine protocol on stdin/stdout.
    Engine(jcei::EngineArgs),
    /// Play a game against the engine in the terminal.
    Play(play_cmd::PlayArgs),
    /// Play two JCEI engines against each other and report the Elo
    /// difference.
    Match(Box<arena::MatchArgs>),
    /// Serve the web app: play and analyse both games in a browser.
    Serve(serve_cmd::ServeArgs),
    /// Draw a position (text, or a game record at a ply) as an SVG picture.
    Render(serve_cmd::RenderArgs),
    /// Replay every game of a record file, reporting the first illegal
    /// move of each game that does not replay.
    Replay(replay_cmd::ReplayArgs),
    /// Jungle endgame tablebases: generate, probe a position, statistics.
    Tb(tb::TbArgs),
}

/// The games and presets `--game` accepts, from the registry.
pub(crate) fn games_help() -> String {
    let games: Vec<String> = Games::games()
        .iter()
        .map(|g| format!("{}[:{}]", g.name, g.presets.join("|")))
        .collect();
    format!(
        "a game and preset: {}; options may follow as ,name=value",
        games.join(", ")
    )
}

fn main() -> ExitCode {
    out::install_panic_hook();
    let command = Cli::command().after_help(format!(
        "games (--game): {} (default {})",
        games_help(),
        Games::default_spec()
    ));
    let parsed = command
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return clap_error(e),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("qi: error: {e}");
            match e {
                CliError::Interrupted { signal, .. } => {
                    ExitCode::from(u8::try_from(128 + signal).unwrap_or(255))
                }
                _ => ExitCode::from(2),
            }
        }
    }
}

/// Help and version go to stdout with success; a usage error is one line
/// on stderr with exit code 2, like every other bad input.
fn clap_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        _ => {
            // clap's message runs to the first blank line (a list of the
            // missing arguments goes on the lines after the first): joined
            // into one line, without the usage and help hint after it.
            let text = e.render().to_string();
            let message: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            eprintln!(
                "qi: error: {}",
                message.join(" ").trim_start_matches("error: ")
            );
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        None => {
            // Like other engines, `qi` alone speaks the engine protocol, so
            // a GUI that starts its engine without arguments can start `qi`.
            if std::io::stdin().is_terminal() {
                eprintln!(
                    "qi: speaking JCEI on stdin ('quit' leaves, 'qi help' lists the commands)"
                );
            }
            jcei::run(jcei::EngineArgs::default())
        }
        Some(Command::Perft(args)) => commands::perft(args),
        Some(Command::Moves(args)) => commands::moves(args),
        Some(Command::Engine(args)) => jcei::run(args),
        Some(Command::Play(args)) => play_cmd::run(args),
        Some(Command::Match(args)) => arena::run(*args),
        Some(Command::Serve(args)) => serve_cmd::serve(args),
        Some(Command::Render(args)) => serve_cmd::render(args),
        Some(Command::Replay(args)) => replay_cmd::run(args),
        Some(Command::Tb(args)) => tb::run(args),
    }
}
