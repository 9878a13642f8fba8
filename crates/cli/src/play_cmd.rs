//! `qi play`: a game against the engine in the terminal.

use std::io::{BufRead, IsTerminal, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use qi_core::{Evaluator, ExternalResult, Game, Position, Side};
use qi_search::{Limits, MoveOf, SearchHooks, Searcher};

use crate::args::Args;
use crate::error::CliError;
use crate::game_spec::GameSpec;
use crate::render;

const HELP: &str = "enter a move (e.g. a3a4, or c3 / c3-c4 / xb2 in Five Tigers), or:
  undo     take back your last move (and the engine's reply)
  hint     ask the engine for a move
  moves    list the legal moves
  resign   give up
  quit     leave";

/// `qi play [--game G] [--movetime MS] [--side first|second]`
pub fn run(argv: &[String]) -> Result<(), CliError> {
    let args = Args::parse(argv, &["game", "movetime", "side"], &[])?;
    if let Some(extra) = args.positionals.first() {
        return Err(CliError::Usage(format!("play takes no argument '{extra}'")));
    }
    let movetime = Duration::from_millis(args.number::<u64>("movetime")?.unwrap_or(1000));
    let human = match args.value("side") {
        None => Side::First,
        Some(text) => text
            .parse::<Side>()
            .map_err(|e| CliError::Usage(format!("bad --side: {e}")))?,
    };
    let colour = std::io::stdout().is_terminal();
    let input = std::io::stdin();
    let mut lines = input.lock().lines().map_while(Result::ok);
    match GameSpec::from_args(&args)? {
        GameSpec::Jungle(rules) => play(
            qi_jungle::Game::new(qi_jungle::Jungle::new(rules)),
            qi_engine::jungle::JungleEval::default(),
            qi_engine::jungle::JungleHooks::default(),
            |pos| render::jungle(pos, colour),
            human,
            movetime,
            &mut lines,
        ),
        GameSpec::FiveTigers(rules) => play(
            qi_five_tigers::Game::new(qi_five_tigers::FiveTigers::new(rules)),
            qi_engine::five_tigers::FiveTigersEval::default(),
            qi_engine::five_tigers::FiveTigersHooks,
            |pos| render::five_tigers(pos, colour),
            human,
            movetime,
            &mut lines,
        ),
    }
    Ok(())
}

fn play<G, E, H>(
    mut game: G,
    eval: E,
    hooks: H,
    draw: impl Fn(&G::Position) -> String,
    human: Side,
    movetime: Duration,
    lines: &mut impl Iterator<Item = String>,
) where
    G: Game,
    E: Evaluator<G::Position>,
    H: SearchHooks<G>,
{
    let mut searcher = Searcher::with_hooks(hooks.tuned_options(), hooks);
    let stop = AtomicBool::new(false);
    let limits = Limits::movetime(movetime);
    println!("You play {human}. Type 'help' for commands.");
    loop {
        println!("\n{}", draw(game.position()));
        if let Some(outcome) = game.outcome() {
            let verdict = match outcome.winner() {
                Some(side) if side == human => "You win.",
                Some(_) => "The engine wins.",
                None => "Draw.",
            };
            println!("Game over: {outcome}. {verdict}");
            return;
        }
        if game.position().side_to_move() != human {
            let result = searcher.search(&mut game, &eval, limits, &stop, |_| {});
            let Some(mv) = result.best_move else {
                println!("The engine has no move.");
                return;
            };
            println!(
                "qi plays {mv} (score {}, depth {})",
                result.score, result.depth
            );
            game.play_unchecked(mv);
            continue;
        }
        print!("your move> ");
        let _ = std::io::stdout().flush();
        let Some(line) = lines.next() else {
            println!();
            return;
        };
        match line.trim() {
            "" => {}
            "help" => println!("{HELP}"),
            "quit" | "exit" => return,
            "resign" => game.record(ExternalResult::Resignation(human)),
            "moves" => {
                let list: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
                println!("legal moves: {}", list.join(" "));
            }
            "hint" => {
                let result = searcher.search(&mut game, &eval, limits, &stop, |_| {});
                match result.best_move {
                    Some(mv) => println!("hint: {mv} (score {})", result.score),
                    None => println!("no move to suggest"),
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
                    println!("nothing to undo");
                }
            }
            text => match text.parse::<MoveOf<G>>() {
                Err(e) => println!("cannot read '{text}': {e}"),
                Ok(mv) => {
                    if let Err(e) = game.play(mv) {
                        println!("illegal move {text}: {}", e.reason);
                    }
                }
            },
        }
    }
}
