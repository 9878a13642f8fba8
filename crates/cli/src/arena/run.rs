//! `qi match`: two JCEI engines play each other from an opening suite, with
//! every move and the result adjudicated by the rules library (the match
//! loop is [`qi_engine::arena`]).

use std::fs::File;
use std::io::Write;
use std::time::Duration;

use clap::Args;
use qi_core::{Position, Side};
use qi_engine::arena::{self, GameReport, GameResult, MatchConfig, Player};
use qi_engine::record::{termination_of, Record, RecordResult};
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
    /// Writes every game to FILE as a game record as soon as it ends
    /// (the format of docs/records.md).
    #[arg(long, value_name = "FILE")]
    pgn: Option<String>,
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
        // Created before the first game, so that a path that cannot be
        // written is an error before the engines start.
        let mut pgn = match &args.pgn {
            Some(path) => Some((
                path.as_str(),
                File::create(path)
                    .map_err(|e| CliError::Usage(format!("cannot write --pgn '{path}': {e}")))?,
            )),
            None => None,
        };
        let mut pgn_error = None;
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
        let tally = arena::play_match::<K::Game>(&config, &start, &openings, players, |report| {
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
            if let Some((path, file)) = &mut pgn {
                let opening = &openings[report.opening];
                let text = record_of::<K>(args, opening, report).to_string();
                let written = writeln!(file, "{text}").and_then(|()| file.flush());
                if let Err(e) = written {
                    pgn_error.get_or_insert(format!("cannot write --pgn '{path}': {e}"));
                }
            }
        });
        match pgn_error {
            Some(e) => Err(CliError::Usage(e)),
            None => Ok(tally),
        }
    }
}

/// The record of one finished game of the match: the players are the
/// engines' command lines and the termination the arena's reason.
fn record_of<K: GameKit>(args: &MatchArgs, opening: &K::Position, report: &GameReport) -> Record {
    let mut record = Record::for_start::<K>(opening);
    let (first, second) = match report.a_side {
        Side::First => (&args.engine_a, &args.engine_b),
        Side::Second => (&args.engine_b, &args.engine_a),
    };
    record.set_tag("First", first);
    record.set_tag("Second", second);
    for mv in &report.moves {
        record.push_move(mv, None);
    }
    let a_won = match report.result {
        GameResult::Win => Some(true),
        GameResult::Loss => Some(false),
        GameResult::Draw => None,
    };
    let result = match a_won.map(|won| won == (report.a_side == Side::First)) {
        None => RecordResult::Draw,
        Some(true) => RecordResult::FirstWins,
        Some(false) => RecordResult::SecondWins,
    };
    record.set_result(result);
    // An end by the rules is named as the rules name it; others (forfeits,
    // adjudications) only the arena can say.
    let termination = match report.outcome {
        Some(outcome) => termination_of(outcome),
        None => report.reason.clone(),
    };
    record.set_tag("Termination", &termination);
    record
}
