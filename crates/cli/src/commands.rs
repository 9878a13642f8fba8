//! The subcommands.

use std::time::Instant;

use qi_core::Position;
use qi_five_tigers::FiveTigers;
use qi_jungle::Jungle;

use crate::args::Args;
use crate::error::CliError;
use crate::game_spec::{setup, GameSpec};

/// The deepest perft the command accepts.
const MAX_PERFT_DEPTH: u32 = 30;

/// Calls `$body` with `$pos` bound to the position chosen by the arguments,
/// whatever its game (each game is its own type).
macro_rules! with_position {
    ($args:expr, |$pos:ident| $body:expr) => {
        match GameSpec::from_args($args)? {
            GameSpec::Jungle(rules) => {
                let $pos = setup(Jungle::new(rules), $args)?;
                $body
            }
            GameSpec::FiveTigers(rules) => {
                let $pos = setup(FiveTigers::new(rules), $args)?;
                $body
            }
        }
    };
}

/// `qi perft [--game G] [--fen F] [--moves M] [--divide] [--threads N] DEPTH`
pub fn perft(argv: &[String]) -> Result<(), CliError> {
    let args = Args::parse(argv, &["game", "fen", "moves", "threads"], &["divide"])?;
    let depth = match args.positionals.as_slice() {
        [d] => d
            .parse::<u32>()
            .ok()
            .filter(|&d| d <= MAX_PERFT_DEPTH)
            .ok_or_else(|| {
                CliError::Usage(format!(
                    "bad depth '{d}' (expected a whole number from 0 to {MAX_PERFT_DEPTH})"
                ))
            })?,
        [] => return Err(CliError::Usage("perft needs a DEPTH".into())),
        more => {
            return Err(CliError::Usage(format!(
                "perft takes one DEPTH, got {} arguments",
                more.len()
            )))
        }
    };
    let threads = args.number::<usize>("threads")?.unwrap_or(1);
    if threads == 0 {
        return Err(CliError::Usage("--threads must be at least 1".into()));
    }
    let divide = args.switch("divide");
    with_position!(&args, |pos| run_perft(&pos, depth, threads, divide));
    Ok(())
}

fn run_perft<P>(pos: &P, depth: u32, threads: usize, divide: bool)
where
    P: Position + Send + Sync,
    P::Move: Send + Sync,
{
    let start = Instant::now();
    let total = if divide && depth > 0 {
        let counts = qi_search::perft::divide_parallel(pos, depth, threads);
        for (mv, count) in &counts {
            println!("{mv}: {count}");
        }
        counts.iter().map(|(_, n)| n).sum()
    } else {
        qi_search::perft_parallel(pos, depth, threads)
    };
    let elapsed = start.elapsed();
    println!("total: {total}");
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { total as f64 / secs } else { 0.0 };
    eprintln!(
        "time: {:.3} s, nodes/s: {:.0}, threads: {threads}",
        secs, rate
    );
}

/// `qi moves [--game G] [--fen F] [--moves M]`
pub fn moves(argv: &[String]) -> Result<(), CliError> {
    let args = Args::parse(argv, &["game", "fen", "moves"], &[])?;
    if let Some(extra) = args.positionals.first() {
        return Err(CliError::Usage(format!(
            "moves takes no argument '{extra}'"
        )));
    }
    with_position!(&args, |pos| print_moves(&pos));
    Ok(())
}

fn print_moves<P: Position>(pos: &P) {
    let list: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    println!("{}", list.join(" "));
}
