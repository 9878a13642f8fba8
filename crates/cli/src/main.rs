//! `qi`: the command-line tool of the qi engines.
//!
//! Subcommands: `perft` (count the move tree), `moves` (list the legal
//! moves), `engine` (the JCEI protocol), `play` (a game against the
//! engine), `match` (engine against engine). Bad input is reported on one stderr line with exit code 2.

mod args;
mod commands;
mod elo;
mod engine_cmd;
mod engine_process;
mod error;
mod game_spec;
mod jcei;
mod match_cmd;
mod play_cmd;
mod render;

use std::io::IsTerminal;
use std::process::ExitCode;

use error::CliError;

const USAGE: &str = "\
usage: qi <command> [options]
       qi              (no command: the same as 'qi engine')

commands:
  perft [--game G] [--fen TEXT] [--moves \"m1 m2 ...\"] [--divide] [--threads N] DEPTH
        count the leaves of the legal move tree DEPTH plies deep
  moves [--game G] [--fen TEXT] [--moves \"m1 m2 ...\"]
        print the legal moves on one line
  engine [--game G]
        speak the JCEI engine protocol on stdin/stdout
  play [--game G] [--movetime MS] [--side first|second]
        play a game against the engine in the terminal
  match --engine-a CMD --engine-b CMD [--games N] [--movetime MS]
        [--openings FILE] [--game G] [--max-plies N]
        play two JCEI engines against each other and report the Elo difference
  help  print this text

games (--game): jungle[:standard|yeshou|datou|traditional] (default jungle),
                five-tigers[:shandong|shandong-shuttle|ten|deferred]";

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match run(&argv) {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Help) => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("qi: error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(argv: &[String]) -> Result<(), CliError> {
    let Some((command, rest)) = argv.split_first() else {
        // Like other engines, `qi` alone speaks the engine protocol, so a
        // GUI that starts its engine without arguments can start `qi`.
        if std::io::stdin().is_terminal() {
            eprintln!("qi: speaking JCEI on stdin ('quit' leaves, 'qi help' lists the commands)");
        }
        return engine_cmd::run(&[]);
    };
    match command.as_str() {
        "perft" => commands::perft(rest),
        "moves" => commands::moves(rest),
        "engine" => engine_cmd::run(rest),
        "play" => play_cmd::run(rest),
        "match" => match_cmd::run(rest),
        "help" | "--help" | "-h" => Err(CliError::Help),
        other => Err(CliError::Usage(format!(
            "unknown command '{other}' (try 'qi help')"
        ))),
    }
}
