//! The engine plays a whole game against itself and prints every move, the
//! board and the result.
//!
//! ```sh
//! cargo run --release --example selfplay                       # Jungle, standard, 50 ms a move
//! cargo run --release --example selfplay -- five-tigers 100    # game[:preset] and ms per move
//! ```

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use qi::core::{Evaluator, Game, Position};
use qi::engine::five_tigers::{FiveTigersEval, FiveTigersHooks};
use qi::engine::jungle::{JungleEval, JungleHooks};
use qi::search::{Limits, SearchHooks, Searcher};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game = args.first().map(String::as_str).unwrap_or("jungle");
    let movetime = match args.get(1).map(|t| t.parse::<u64>()) {
        None => 50,
        Some(Ok(ms)) => ms,
        Some(Err(_)) => {
            eprintln!("selfplay: the second argument is milliseconds per move");
            std::process::exit(2);
        }
    };
    let limits = Limits::movetime(Duration::from_millis(movetime));
    if game.starts_with("five-tigers") {
        match game.parse::<qi::five_tigers::Rules>() {
            Ok(rules) => selfplay(
                qi::five_tigers::Game::new(qi::five_tigers::FiveTigers::new(rules)),
                FiveTigersEval::default(),
                FiveTigersHooks,
                limits,
            ),
            Err(e) => fail(e),
        }
    } else {
        match game.parse::<qi::jungle::Rules>() {
            Ok(rules) => selfplay(
                qi::jungle::Game::new(qi::jungle::Jungle::new(rules)),
                JungleEval::default(),
                JungleHooks::default(),
                limits,
            ),
            Err(e) => fail(e),
        }
    }
}

fn fail(e: impl std::fmt::Display) -> ! {
    eprintln!("selfplay: {e}");
    std::process::exit(2);
}

fn selfplay<G, E, H>(mut game: G, eval: E, hooks: H, limits: Limits)
where
    G: Game,
    E: Evaluator<G::Position>,
    H: SearchHooks<G>,
{
    let mut searcher = Searcher::with_hooks(hooks.tuned_options(), hooks);
    let stop = AtomicBool::new(false);
    println!("{}", game.position());
    while game.outcome().is_none() {
        let side = game.position().side_to_move();
        let result = searcher.search(&mut game, &eval, limits, &stop, |_| {});
        let Some(mv) = result.best_move else { break };
        game.play(mv).expect("the search returns legal moves");
        println!(
            "{:>3}. {side:<6} {mv:<6} score {:<10} depth {:>2}  {}",
            game.ply(),
            result.score.to_string(),
            result.depth,
            game.position()
        );
    }
    match game.outcome() {
        Some(outcome) => println!("result: {outcome} after {} plies", game.ply()),
        None => println!("no result after {} plies", game.ply()),
    }
}
