//! `qi match`: two JCEI engines play each other from an opening suite, with
//! every move and the result adjudicated by the rules library.

use std::time::Duration;

use qi_core::{Game, Position, Side};

use crate::args::Args;
use crate::elo::Tally;
use crate::engine_process::{EngineError, EngineProcess};
use crate::error::CliError;
use crate::game_spec::GameSpec;

/// How long an engine may take to start or answer `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Grace time past `movetime` before a silent engine loses on time.
const MOVE_GRACE: Duration = Duration::from_secs(5);

/// The settings of one match.
struct MatchConfig {
    engines: [String; 2],
    games: usize,
    movetime: Duration,
    max_plies: usize,
    variant: Option<String>,
}

/// `qi match --engine-a CMD --engine-b CMD [--games N] [--movetime MS]
/// [--openings FILE] [--game G] [--max-plies N]`
pub fn run(argv: &[String]) -> Result<(), CliError> {
    let args = Args::parse(
        argv,
        &[
            "engine-a",
            "engine-b",
            "games",
            "movetime",
            "openings",
            "game",
            "max-plies",
        ],
        &[],
    )?;
    if let Some(extra) = args.positionals.first() {
        return Err(CliError::Usage(format!(
            "match takes no argument '{extra}'"
        )));
    }
    let engine = |name: &str| {
        args.value(name)
            .map(str::to_string)
            .ok_or_else(|| CliError::Usage(format!("match needs --{name} CMD")))
    };
    let config = MatchConfig {
        engines: [engine("engine-a")?, engine("engine-b")?],
        games: args.number::<usize>("games")?.unwrap_or(2),
        movetime: Duration::from_millis(args.number::<u64>("movetime")?.unwrap_or(100)),
        max_plies: args.number::<usize>("max-plies")?.unwrap_or(1000),
        variant: args.value("game").map(str::to_string),
    };
    if config.games == 0 {
        return Err(CliError::Usage("--games must be at least 1".into()));
    }
    let openings_text = match args.value("openings") {
        Some(path) => Some(
            std::fs::read_to_string(path)
                .map_err(|e| CliError::Usage(format!("cannot read --openings '{path}': {e}")))?,
        ),
        None => None,
    };
    let tally = match GameSpec::from_args(&args)? {
        GameSpec::Jungle(rules) => {
            let start = qi_jungle::Jungle::new(rules);
            let openings = read_openings(&start, openings_text.as_deref())?;
            play_match(&config, &start, &openings, qi_jungle::Game::new)
        }
        GameSpec::FiveTigers(rules) => {
            let start = qi_five_tigers::FiveTigers::new(rules);
            let openings = read_openings(&start, openings_text.as_deref())?;
            play_match(&config, &start, &openings, qi_five_tigers::Game::new)
        }
    };
    println!(
        "score: A {}-{}-{} (wins-draws-losses), {:.1}/{} = {:.1}%",
        tally.wins,
        tally.draws,
        tally.losses,
        tally.points(),
        tally.games(),
        100.0 * tally.points() / tally.games().max(1) as f64
    );
    match tally.elo() {
        Some((elo, margin)) if elo.is_finite() => {
            println!("elo: A - B = {elo:+.1} +/- {margin:.1} (95%)")
        }
        _ => println!("elo: not estimable from a score of 0% or 100%"),
    }
    Ok(())
}

/// Reads an opening suite: one position text a line; blank lines and lines
/// starting with `#` are skipped. Without a file: the start position only.
fn read_openings<P: Position>(start: &P, text: Option<&str>) -> Result<Vec<P>, CliError> {
    let Some(text) = text else {
        return Ok(vec![start.clone()]);
    };
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = start
            .with_text(line)
            .map_err(|e| CliError::Usage(format!("--openings line {}: {e}", i + 1)))?;
        if pos.is_game_over() {
            return Err(CliError::Usage(format!(
                "--openings line {}: the position is already decided",
                i + 1
            )));
        }
        openings.push(pos);
    }
    if openings.is_empty() {
        return Err(CliError::Usage("--openings holds no position".into()));
    }
    Ok(openings)
}

/// How one game ended, from engine A's point of view.
enum GameResult {
    Win,
    Draw,
    Loss,
}

fn play_match<G, F>(
    config: &MatchConfig,
    start: &G::Position,
    openings: &[G::Position],
    new_game: F,
) -> Tally
where
    G: Game,
    F: Fn(G::Position) -> G,
{
    let mut engines: [Option<EngineProcess>; 2] = [None, None];
    let mut tally = Tally::default();
    for index in 0..config.games {
        let opening = &openings[(index / 2) % openings.len()];
        // A plays First in even games, Second in odd ones: each opening is
        // played with colours swapped.
        let a_side = if index % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let (result, reason) = play_game(
            config,
            &mut engines,
            start,
            new_game(opening.clone()),
            a_side,
        );
        match result {
            GameResult::Win => tally.wins += 1,
            GameResult::Draw => tally.draws += 1,
            GameResult::Loss => tally.losses += 1,
        }
        let mark = match result {
            GameResult::Win => "A wins",
            GameResult::Draw => "draw",
            GameResult::Loss => "B wins",
        };
        println!(
            "game {}/{}: A plays {a_side}: {mark} ({reason}); running score A {}-{}-{} ({:.1}%)",
            index + 1,
            config.games,
            tally.wins,
            tally.draws,
            tally.losses,
            100.0 * tally.points() / tally.games() as f64
        );
    }
    tally
}

/// Starts (or restarts) the engine in `slot` and gets it ready.
fn ready<'a>(
    config: &MatchConfig,
    slot: &'a mut Option<EngineProcess>,
    which: usize,
) -> Result<&'a mut EngineProcess, EngineError> {
    if slot.is_none() {
        let mut engine = EngineProcess::start(&config.engines[which], HANDSHAKE_TIMEOUT)?;
        if let Some(variant) = &config.variant {
            engine.send(&format!("setoption name Variant value {variant}"))?;
        }
        *slot = Some(engine);
    }
    let engine = slot.as_mut().expect("just started");
    engine.send("newgame")?;
    engine.sync(HANDSHAKE_TIMEOUT)?;
    Ok(engine)
}

fn play_game<G: Game>(
    config: &MatchConfig,
    engines: &mut [Option<EngineProcess>; 2],
    start: &G::Position,
    mut game: G,
    a_side: Side,
) -> (GameResult, String) {
    let engine_of = |side: Side| if side == a_side { 0 } else { 1 };
    let result_for_loser = |loser: usize| {
        if loser == 0 {
            GameResult::Loss
        } else {
            GameResult::Win
        }
    };
    for (which, slot) in engines.iter_mut().enumerate() {
        if let Err(e) = ready(config, slot, which) {
            *slot = None;
            return (result_for_loser(which), e.to_string());
        }
    }
    let setup = if game.position() == start {
        "position startpos".to_string()
    } else {
        format!("position fen {}", game.position())
    };
    let mut moves: Vec<String> = Vec::new();
    loop {
        if let Some(outcome) = game.outcome() {
            let result = match outcome.winner() {
                None => GameResult::Draw,
                Some(side) if side == a_side => GameResult::Win,
                Some(_) => GameResult::Loss,
            };
            return (result, outcome.to_string());
        }
        if moves.len() >= config.max_plies {
            return (
                GameResult::Draw,
                format!("adjudicated draw after {} plies", moves.len()),
            );
        }
        let side = game.position().side_to_move();
        let which = engine_of(side);
        let engine = engines[which].as_mut().expect("engines are ready");
        let command = if moves.is_empty() {
            setup.clone()
        } else {
            format!("{setup} moves {}", moves.join(" "))
        };
        let answer = engine
            .send(&command)
            .and_then(|_| engine.send(&format!("go movetime {}", config.movetime.as_millis())))
            .and_then(|_| engine.wait_for("bestmove", config.movetime + MOVE_GRACE));
        let line = match answer {
            Ok(line) => line,
            Err(e) => {
                engines[which] = None;
                return (result_for_loser(which), format!("{side} forfeits: {e}"));
            }
        };
        let text = line.split_whitespace().nth(1).unwrap_or("").to_string();
        let played = text
            .parse::<<G::Position as Position>::Move>()
            .map_err(|e| e.to_string())
            .and_then(|mv| game.play(mv).map_err(|e| e.reason));
        if let Err(reason) = played {
            return (
                result_for_loser(which),
                format!("{side} forfeits: illegal move '{text}': {reason}"),
            );
        }
        moves.push(text);
    }
}
