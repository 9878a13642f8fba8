//! `qi play`: a game against the engine in the terminal.

use std::io::BufRead;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;
use qi_core::{ExternalResult, Game, Position, Side};
use qi_engine::record::{self, Record};
use qi_engine::{spec_of, EvalProfile, GameFn, GameKit, Games, Registry, RulesOf};
use qi_search::{Level, Limits, MoveOf, SearchHooks, Searcher, Strength};

use crate::error::CliError;
use crate::out::outln;

const HELP: &str = "enter a move (e.g. a3a4, or c3 / c3-c4 / xb2 in Five Tigers), or:
  undo     take back your last move (and the engine's reply)
  hint     ask the engine for a move
  moves    list the legal moves
  resign   give up
  save F   write the game to file F as a game record (docs/records.md)
  load F [N]  replay the game record in file F (of the game being played);
           N chooses a game of a file of several, numbered from 1
  games F  list the games of the record file F, numbered
  quit     leave";

/// `qi play` options.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game and its rules.
    #[arg(long, value_name = "G", default_value_t = Games::default_spec(), help = crate::games_help())]
    game: String,
    /// The engine's thinking time per move, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    movetime: u64,
    /// The side you play (`first` or `second`).
    #[arg(long, value_name = "SIDE", default_value = "first", value_parser = parse_side)]
    side: Side,
    /// The engine's strength, 1 (weakest) to 10 (the full engine; the
    /// default): docs/levels.md. Weaker levels answer at once.
    #[arg(long, value_name = "N", default_value_t = Level::FULL, value_parser = parse_level)]
    level: Level,
    /// The seed of a weaker level's random choices (a new one each game
    /// when not given).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
}

fn parse_level(text: &str) -> Result<Level, String> {
    text.parse::<Level>().map_err(|e| e.to_string())
}

fn parse_side(text: &str) -> Result<Side, String> {
    text.parse::<Side>().map_err(|e| e.to_string())
}

/// `qi play [--game G] [--movetime MS] [--side first|second]`
impl GameFn for &PlayArgs {
    type Output = ();
    fn call<K: GameKit>(self, rules: RulesOf<K>) {
        let input = std::io::stdin();
        let mut lines = input.lock().lines().map_while(Result::ok);
        let seed = self.seed.unwrap_or_else(qi_engine::strength::random_seed);
        play::<K>(
            K::Game::new(K::Position::new(rules)),
            self.side,
            Duration::from_millis(self.movetime),
            Strength::new(self.level, seed),
            &mut lines,
        );
    }
}

pub fn run(args: PlayArgs) -> Result<(), CliError> {
    Games::dispatch(&args.game, &args)?;
    Ok(())
}

fn play<K: GameKit>(
    mut game: K::Game,
    human: Side,
    movetime: Duration,
    mut strength: Strength,
    lines: &mut impl Iterator<Item = String>,
) {
    let eval = K::eval(EvalProfile::Default);
    let hooks = K::hooks(EvalProfile::Default);
    let mut searcher = Searcher::with_hooks(hooks.tuned_options(), hooks);
    let stop = AtomicBool::new(false);
    let limits = Limits::movetime(movetime);
    if strength.level().is_full() {
        outln!("You play {human}. Type 'help' for commands.");
    } else {
        outln!(
            "You play {human} against level {} of {}. Type 'help' for commands.",
            strength.level(),
            Level::COUNT
        );
    }
    loop {
        crate::out::text(format_args!("\n{}\n", K::draw(game.position())));
        if let Some(outcome) = game.outcome() {
            let verdict = match outcome.winner() {
                Some(side) if side == human => "You win.",
                Some(_) => "The engine wins.",
                None => "Draw.",
            };
            outln!("Game over: {outcome}. {verdict}");
            return;
        }
        if game.position().side_to_move() != human {
            let result = searcher.search_at(
                &mut game,
                &eval,
                limits,
                &mut strength,
                &K::STRENGTH,
                &stop,
                |_| {},
            );
            let Some(mv) = result.best_move else {
                outln!("The engine has no move.");
                return;
            };
            outln!(
                "qi plays {mv} (score {}, depth {})",
                result.score,
                result.depth
            );
            game.play_unchecked(mv);
            continue;
        }
        crate::out::text(format_args!("your move> "));
        let Some(line) = lines.next() else {
            outln!("");
            return;
        };
        match line.trim() {
            "" => {}
            "help" => outln!("{HELP}"),
            "quit" | "exit" => return,
            "resign" => game.record(ExternalResult::Resignation(human)),
            "moves" => {
                let list: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
                outln!("legal moves: {}", list.join(" "));
            }
            "hint" => {
                let result = searcher.search(&mut game, &eval, limits, &stop, |_| {});
                match result.best_move {
                    Some(mv) => outln!("hint: {mv} (score {})", result.score),
                    None => outln!("no move to suggest"),
                }
            }
            "undo" => {
                // After undoing a move its mover is to move again: stop at
                // the first undone move that was the human's.
                let mut undone = 0;
                while game.undo().is_some() {
                    undone += 1;
                    if game.position().side_to_move() == human {
                        break;
                    }
                }
                if undone == 0 {
                    outln!("nothing to undo");
                }
            }
            text if text.starts_with("save ") => {
                let path = text["save ".len()..].trim();
                match save::<K>(&game, human, path) {
                    Ok(()) => outln!("saved the game to {path}"),
                    Err(e) => outln!("cannot save: {e}"),
                }
            }
            text if text.starts_with("games ") => {
                let path = text["games ".len()..].trim();
                match qi_engine::files::read_text(path.as_ref(), qi_engine::files::TEXT_LIMIT)
                    .map_err(|e| e.to_string())
                    .and_then(|t| Record::read_all(&t).map_err(|e| e.to_string()))
                {
                    Ok(records) => {
                        for (i, record) in records.iter().enumerate() {
                            outln!("{}: {}", i + 1, record::summary(record));
                        }
                    }
                    Err(e) => outln!("cannot read {path}: {e}"),
                }
            }
            text if text.starts_with("load ") => {
                let rest = text["load ".len()..].trim();
                // `load F N`: game N of a file of several.
                let (path, number) = match rest.rsplit_once(' ') {
                    Some((path, n)) if n.parse::<usize>().is_ok() && !path.trim().is_empty() => {
                        (path.trim(), n.parse().ok())
                    }
                    _ => (rest, None),
                };
                match load::<K>(&game, path, number) {
                    Ok(loaded) => {
                        outln!("loaded {} moves from {path}", loaded.ply());
                        game = loaded;
                    }
                    Err(e) => outln!("cannot load {path}: {e}"),
                }
            }
            text => match text.parse::<MoveOf<K::Game>>() {
                Err(e) => outln!("cannot read '{}': {e}", qi_core::Escaped(text)),
                Ok(mv) => {
                    if let Err(e) = game.play(mv) {
                        outln!("illegal move {text}: {}", e.reason);
                    }
                }
            },
        }
    }
}

/// Writes `game` as a game record to `path`, the players named by side.
fn save<K: GameKit>(game: &K::Game, human: Side, path: &str) -> Result<(), String> {
    let mut record = Record::from_game::<K>(game);
    let (first, second) = match human {
        Side::First => ("you", "qi"),
        Side::Second => ("qi", "you"),
    };
    record.set_tag("First", first);
    record.set_tag("Second", second);
    std::fs::write(path, record.to_string()).map_err(|e| e.to_string())
}

/// The game of the record in `path`, which must be of the same game and
/// rules as `current` (another would change the game under the player).
fn load<K: GameKit>(
    current: &K::Game,
    path: &str,
    number: Option<usize>,
) -> Result<K::Game, String> {
    let text = qi_engine::files::read_text(path.as_ref(), qi_engine::files::TEXT_LIMIT)
        .map_err(|e| e.to_string())?;
    let record = record::pick(&text, number).map_err(|e| e.to_string())?;
    let playing = spec_of::<K>(current.start().rules());
    let recorded = record.tag("Game").unwrap_or_default();
    let same = Games::canonical(recorded).is_ok_and(|spec| spec == playing);
    if !same {
        return Err(format!(
            "the record is of '{recorded}', the game being played is '{playing}'"
        ));
    }
    record.replay::<K>().map_err(|e| e.to_string())
}
