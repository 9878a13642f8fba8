//! `qi match`: two JCEI engines play each other from an opening suite, with
//! every move and the result adjudicated by the rules library (the match
//! loop is [`qi_engine::arena`]).

use std::time::Duration;

use clap::Args;
use qi_core::Position;
use qi_engine::arena::{self, GameResult, MatchConfig, Player};
use qi_engine::{GameFn, GameKit, Games, Registry, RulesOf};

use super::process::ProcessPlayer;
use super::progress::{self, Progress};
use crate::error::CliError;
use crate::out::outln;

/// `qi match` options.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Engine A's command line (run by the shell).
    #[arg(long, value_name = "CMD")]
    engine_a: String,
    /// Engine B's command line.
    #[arg(long, value_name = "CMD")]
    engine_b: String,
    /// Games to play (each opening twice, colours swapped).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Thinking time per move, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    movetime: u64,
    /// Opening suite: one position text a line (`#` starts a comment).
    #[arg(long, value_name = "FILE")]
    openings: Option<String>,
    /// The game and its rules (sent to both engines as `Variant`).
    #[arg(long, value_name = "G", help = crate::games_help())]
    game: Option<String>,
    /// Plies after which a game is adjudicated a draw.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    max_plies: usize,
}

/// `qi match`
pub fn run(args: MatchArgs) -> Result<(), CliError> {
    let openings = match &args.openings {
        Some(path) => Some(
            std::fs::read_to_string(path)
                .map_err(|e| CliError::Usage(format!("cannot read --openings '{path}': {e}")))?,
        ),
        None => None,
    };
    let spec = args.game.clone().unwrap_or_else(Games::default_spec);
    let tally = Games::dispatch(
        &spec,
        Run {
            args: &args,
            openings: openings.as_deref(),
        },
    )??;
    outln!(
        "score: A {}-{}-{} (wins-draws-losses), {:.1}/{} = {:.1}%",
        tally.wins,
        tally.draws,
        tally.losses,
        tally.points(),
        tally.games(),
        100.0 * tally.points() / tally.games().max(1) as f64
    );
    if let Some((elo, margin)) = tally.elo() {
        outln!("elo: A - B = {elo:+.1} +/- {margin:.1} (95%)");
    }
    Ok(())
}

struct Run<'a> {
    args: &'a MatchArgs,
    openings: Option<&'a str>,
}

impl GameFn for Run<'_> {
    type Output = Result<arena::Tally, CliError>;

    fn call<K: GameKit>(self, rules: RulesOf<K>) -> Result<arena::Tally, CliError> {
        let args = self.args;
        let start = K::Position::new(rules);
        let openings = arena::read_openings(&start, self.openings)
            .map_err(|e| CliError::Usage(format!("--openings {e}")))?;
        let config = MatchConfig {
            games: args.games as usize,
            movetime: Duration::from_millis(args.movetime),
            max_plies: args.max_plies,
        };
        let mut a = ProcessPlayer::new(args.engine_a.clone(), args.game.clone());
        let mut b = ProcessPlayer::new(args.engine_b.clone(), args.game.clone());
        for (name, player) in [("A", &mut a), ("B", &mut b)] {
            player
                .start()
                .map_err(|e| CliError::Engine(format!("engine {name}: {e}")))?;
        }
        let players: [&mut dyn Player; 2] = [&mut a, &mut b];
        let mut progress = Progress::new();
        progress.show(&progress::line(config.games, &arena::Tally::default()));
        Ok(arena::play_match::<K::Game>(
            &config,
            &start,
            &openings,
            players,
            |report| {
                let mark = match report.result {
                    GameResult::Win => "A wins",
                    GameResult::Draw => "draw",
                    GameResult::Loss => "B wins",
                };
                let t = report.tally;
                progress.clear();
                outln!(
                    "game {}/{}: A plays {}: {mark} ({}); running score A {}-{}-{} ({:.1}%)",
                    report.index + 1,
                    config.games,
                    report.a_side,
                    report.reason,
                    t.wins,
                    t.draws,
                    t.losses,
                    100.0 * t.points() / t.games() as f64
                );
                progress.show(&progress::line(config.games, &t));
            },
        ))
    }
}
