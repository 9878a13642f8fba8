//! `qi match`: two JCEI engines play each other from an opening suite, with
//! every move and the result adjudicated by the rules library (the match
//! loop is [`qi_engine::arena`]).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Duration;

use clap::Args;
use qi_core::{Position, Side};
use qi_engine::arena::{
    self, BoxedPlayer, FinishedGame, GameResult, MatchConfig, Sprt, TimeControl,
};
use qi_engine::record::{Record, RecordResult};
use qi_engine::{GameFn, GameKit, Games, Registry, RulesOf};

use super::interrupt::{self, STOP};
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
    /// An option for engine A, sent as `setoption name NAME value VALUE`
    /// after it starts (repeatable: `--option-a NullMove=false`).
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_option)]
    option_a: Vec<(String, String)>,
    /// An option for engine B (as --option-a).
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_option)]
    option_b: Vec<(String, String)>,
    /// Games to play (each opening twice, colours swapped).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Games played at the same time, each by its own pair of engine
    /// processes (results are still reported in game order).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    concurrency: u32,
    /// Time control [MOVES/]BASE[+INC] in seconds (10+0.1, 60, 40/60+0.5):
    /// each side's clock is kept by the match and sent with every `go` as
    /// wtime/btime/winc/binc (and movestogo); a side that oversteps it
    /// loses on time.
    #[arg(long, value_name = "TC", value_parser = parse_tc)]
    tc: Option<TimeControl>,
    /// How far, in milliseconds, a side may overstep its clock before it
    /// loses on time (with --tc).
    #[arg(long, value_name = "MS", default_value_t = 100)]
    timemargin: u64,
    /// Thinking time per move, in milliseconds (`go movetime`); 100 when
    /// neither --tc nor --nodes is given.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Nodes per move (`go nodes`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Sequential probability ratio test: `elo0=E0 elo1=E1 [alpha=A]
    /// [beta=B]` (alpha and beta 0.05 unless given); prints the
    /// log-likelihood ratio after every game and stops the match once it
    /// leaves [ln(beta/(1-alpha)), ln((1-beta)/alpha)].
    #[arg(long, value_name = "ITEM", num_args = 1..)]
    sprt: Option<Vec<String>>,
    /// Opening suite: one position text a line (`#` starts a comment).
    /// Without it the game's built-in suite is played (docs/arena.md).
    #[arg(long, value_name = "FILE")]
    openings: Option<String>,
    /// Every game starts from the start position (no opening suite).
    #[arg(long, conflicts_with = "openings")]
    no_openings: bool,
    /// The game and its rules (sent to both engines as `Variant`).
    #[arg(long, value_name = "G", help = crate::games_help())]
    game: Option<String>,
    /// Plies after which a game is adjudicated a draw.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    max_plies: usize,
    /// Writes every game to FILE as a game record as soon as it ends
    /// (the format of docs/records.md; with --concurrency above 1 in the
    /// order the games end, each with its number as `Round`), each move
    /// with the engine's score and depth as its comment. FILE is opened
    /// once the engines have started: replaced, or added to with
    /// --pgn-append. A write that fails stops the match.
    #[arg(long, value_name = "FILE")]
    pgn: Option<String>,
    /// Adds the games to the end of the --pgn file instead of replacing it.
    #[arg(long, requires = "pgn")]
    pgn_append: bool,
}

/// `--option-a` and `--option-b`: `NAME=VALUE`, neither empty.
fn parse_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() && !value.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("'{}' is not NAME=VALUE", qi_core::Escaped(text))),
    }
}

/// `--tc`, read by the library.
fn parse_tc(text: &str) -> Result<TimeControl, String> {
    text.parse()
        .map_err(|e: arena::TimeControlError| e.to_string())
}

/// Where the openings come from.
enum Openings {
    /// The text of a suite (`--openings FILE`).
    File(String),
    /// The game's built-in suite.
    BuiltIn,
    /// The start position alone (`--no-openings`).
    Start,
}

/// `qi match`
pub fn run(args: MatchArgs) -> Result<(), CliError> {
    if let (Some(pgn), Some(openings)) = (&args.pgn, &args.openings) {
        if same_file(Path::new(pgn), Path::new(openings)) {
            return Err(CliError::Usage(format!(
                "--pgn '{pgn}' is the --openings file: the records would overwrite the suite"
            )));
        }
    }
    let openings = match (&args.openings, args.no_openings) {
        (Some(path), _) => Openings::File(
            qi_engine::files::read_text(path.as_ref(), qi_engine::files::TEXT_LIMIT)
                .map_err(|e| CliError::Usage(format!("cannot read --openings '{path}': {e}")))?,
        ),
        (None, true) => Openings::Start,
        (None, false) => Openings::BuiltIn,
    };
    let sprt = match &args.sprt {
        Some(items) => Some(
            items
                .join(" ")
                .parse::<Sprt>()
                .map_err(|e| CliError::Usage(format!("bad --sprt: {e}")))?,
        ),
        None => None,
    };
    let movetime = match (args.movetime, args.tc, args.nodes) {
        (None, None, None) => Some(100),
        (movetime, _, _) => movetime,
    };
    let mut config = MatchConfig::new(args.games as usize)
        .with_movetime(movetime.map(Duration::from_millis))
        .with_time_margin(Duration::from_millis(args.timemargin))
        .with_max_plies(args.max_plies);
    config.nodes = args.nodes;
    config.tc = args.tc;
    config.sprt = sprt;
    let spec = args.game.clone().unwrap_or_else(Games::default_spec);
    // Before any engine starts: from then on a signal kills them all.
    interrupt::install()
        .map_err(|e| CliError::Usage(format!("cannot catch SIGINT/SIGTERM: {e}")))?;
    let (tally, stopped) = Games::dispatch(
        &spec,
        Run {
            args: &args,
            config: &config,
            openings: &openings,
        },
    )??;
    print_summary(&config, &tally);
    if let Some(signal) = interrupt::signal() {
        return Err(CliError::Interrupted {
            signal,
            name: interrupt::signal_name(signal),
            games: tally.games(),
        });
    }
    match stopped {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Whether `a` and `b` name one file (both exist and are the same inode).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        #[cfg(unix)]
        (Ok(a), Ok(b)) => {
            use std::os::unix::fs::MetadataExt;
            (a.dev(), a.ino()) == (b.dev(), b.ino())
        }
        #[cfg(not(unix))]
        (Ok(_), Ok(_)) => std::fs::canonicalize(a).ok() == std::fs::canonicalize(b).ok(),
        _ => false,
    }
}

/// The score, pairs, Elo and SPRT lines of the games played.
fn print_summary(config: &MatchConfig, tally: &arena::Tally) {
    outln!(
        "score: A {}-{}-{} (wins-draws-losses), {:.1}/{} = {:.1}%",
        tally.wins,
        tally.draws,
        tally.losses,
        tally.points(),
        tally.games(),
        100.0 * tally.points() / tally.games().max(1) as f64
    );
    if tally.pair_count() > 0 {
        let [p0, p1, p2, p3, p4] = tally.pairs;
        outln!(
            "pairs: A scored 0: {p0}, 0.5: {p1}, 1: {p2}, 1.5: {p3}, 2: {p4} (pentanomial, {} colour-swapped pairs)",
            tally.pair_count()
        );
    }
    if let Some((elo, margin)) = tally.elo() {
        let model = if tally.pairs_complete() {
            "pentanomial"
        } else {
            "trinomial"
        };
        outln!("elo: A - B = {elo:+.1} +/- {margin:.1} (95%, {model})");
    }
    if let Some(sprt) = &config.sprt {
        let status = sprt.status(tally);
        let verdict = match status.decision {
            Some(h) => h.to_string(),
            None => "no bound reached".to_string(),
        };
        outln!(
            "sprt: elo0 {} elo1 {} alpha {} beta {}: LLR {:.2} ({:.2}, {:.2}) after {} games: {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            status.llr,
            status.lower,
            status.upper,
            tally.games()
        );
    }
}

struct Run<'a> {
    args: &'a MatchArgs,
    config: &'a MatchConfig,
    openings: &'a Openings,
}

/// The tally of the games played and, when something other than the end
/// of the games stopped the match (a record that could not be written),
/// why.
type Played = (arena::Tally, Option<CliError>);

impl GameFn for Run<'_> {
    type Output = Result<Played, CliError>;

    fn call<K: GameKit>(self, rules: RulesOf<K>) -> Result<Played, CliError> {
        let (args, config) = (self.args, self.config);
        let start = K::Position::new(rules);
        let openings = match self.openings {
            Openings::File(text) => arena::read_openings(&start, Some(text))
                .map_err(|e| CliError::Usage(format!("--openings {e}")))?,
            // A suite that does not fit these rules: the start position.
            Openings::BuiltIn => {
                arena::builtin_openings::<K>(&start).unwrap_or_else(|| vec![start.clone()])
            }
            Openings::Start => vec![start.clone()],
        };
        let mut slots = Vec::new();
        for _ in 0..args.concurrency.min(args.games) {
            let new_player = |command: &String, options: &Vec<(String, String)>| {
                ProcessPlayer::new(command.clone(), args.game.clone(), options.clone())
            };
            let mut a = new_player(&args.engine_a, &args.option_a);
            let mut b = new_player(&args.engine_b, &args.option_b);
            for (name, player) in [("A", &mut a), ("B", &mut b)] {
                player
                    .start()
                    .map_err(|e| CliError::Engine(format!("engine {name}: {e}")))?;
            }
            slots.push([Box::new(a) as BoxedPlayer, Box::new(b) as BoxedPlayer]);
        }
        // Opened only now that the engines run: a match that cannot start
        // leaves the file as it was.
        let mut pgn = match &args.pgn {
            Some(path) => Some((path.as_str(), open_pgn(path, args.pgn_append)?)),
            None => None,
        };
        let mut pgn_error = None;
        let mut progress = Progress::new();
        progress.show(&progress::line(
            config.games,
            &arena::Tally::default(),
            None,
        ));
        let on_finished = |game: &FinishedGame| {
            let Some((path, file)) = &mut pgn else {
                return;
            };
            if pgn_error.is_some() {
                return;
            }
            let opening = &openings[game.opening];
            let text = record_of::<K>(args, opening, game).to_string();
            let written = writeln!(file, "{text}").and_then(|()| file.flush());
            if let Err(e) = written {
                pgn_error = Some(CliError::Usage(format!(
                    "cannot write --pgn '{path}': {e}; the match stopped after game {}",
                    game.index + 1
                )));
                STOP.store(true, Ordering::SeqCst);
            }
        };
        let tally = arena::play_match_with::<K::Game>(
            config,
            &start,
            &openings,
            slots,
            &STOP,
            on_finished,
            |report| {
                let mark = match report.result {
                    GameResult::Win => "A wins",
                    GameResult::Draw => "draw",
                    GameResult::Loss => "B wins",
                };
                let t = report.tally;
                progress.clear();
                let sprt = report.sprt.map(|s| format!("; {s}")).unwrap_or_default();
                outln!(
                    "game {}/{}: A plays {}: {mark} ({}); running score A {}-{}-{} ({:.1}%){sprt}",
                    report.index + 1,
                    config.games,
                    report.a_side,
                    report.reason,
                    t.wins,
                    t.draws,
                    t.losses,
                    100.0 * t.points() / t.games() as f64
                );
                progress.show(&progress::line(config.games, &t, report.sprt.as_ref()));
            },
        );
        progress.clear();
        Ok((tally, pgn_error))
    }
}

/// The `--pgn` file, replaced or appended to.
fn open_pgn(path: &str, append: bool) -> Result<File, CliError> {
    let mut options = OpenOptions::new();
    if append {
        options.append(true).create(true);
    } else {
        options.write(true).create(true).truncate(true);
    }
    options
        .open(path)
        .map_err(|e| CliError::Usage(format!("cannot write --pgn '{path}': {e}")))
}

/// A player's name in the records: its command line, then its options
/// (`qi engine (NullMove=false)`), so that two settings of one engine are
/// told apart.
fn player_name(command: &str, options: &[(String, String)]) -> String {
    if options.is_empty() {
        return command.to_string();
    }
    let options: Vec<String> = options.iter().map(|(n, v)| format!("{n}={v}")).collect();
    format!("{command} ({})", options.join(", "))
}

/// The record of one finished game of the match: the players are the
/// engines' command lines (and options) and the termination the game's
/// own words for its end (or the arena's, for a forfeit or adjudication).
fn record_of<K: GameKit>(args: &MatchArgs, opening: &K::Position, report: &FinishedGame) -> Record {
    let mut record = Record::for_start::<K>(opening);
    record.set_tag("Round", &(report.index + 1).to_string());
    let a = player_name(&args.engine_a, &args.option_a);
    let b = player_name(&args.engine_b, &args.option_b);
    let (first, second) = match report.a_side {
        Side::First => (&a, &b),
        Side::Second => (&b, &a),
    };
    record.set_tag("First", first);
    record.set_tag("Second", second);
    for (mv, verdict) in report.moves.iter().zip(&report.verdicts) {
        record.push_move(mv, verdict.comment().as_deref());
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
    record.set_tag("Termination", &report.termination);
    record
}
