//! `qi`: the command-line tool of the qi engines.
//!
//! Subcommands: `perft` (count the move tree), `moves` (list the legal
//! moves). Bad input is reported on one stderr line with exit code 2.

mod args;
mod commands;
mod error;
mod game_spec;

use std::process::ExitCode;

use error::CliError;

const USAGE: &str = "\
usage: qi <command> [options]

commands:
  perft [--game G] [--fen TEXT] [--moves \"m1 m2 ...\"] [--divide] [--threads N] DEPTH
        count the leaves of the legal move tree DEPTH plies deep
  moves [--game G] [--fen TEXT] [--moves \"m1 m2 ...\"]
        print the legal moves on one line
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
        return Err(CliError::Usage("missing command (try 'qi help')".into()));
    };
    match command.as_str() {
        "perft" => commands::perft(rest),
        "moves" => commands::moves(rest),
        "help" | "--help" | "-h" => Err(CliError::Help),
        other => Err(CliError::Usage(format!(
            "unknown command '{other}' (try 'qi help')"
        ))),
    }
}
