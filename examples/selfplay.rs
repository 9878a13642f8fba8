//! The engine plays a whole game against itself and prints every move, the
//! board and the result.
//!
//! ```sh
//! cargo run --release --example selfplay                       # Jungle, standard, 50 ms a move
//! cargo run --release --example selfplay -- five-tigers 100    # game[:preset] and ms per move
//! ```

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use qi_games::base::{Game, Position};
use qi_games::engine::{EvalProfile, GameFn, GameKit, Games, Registry, RulesOf};
use qi_games::search::{Limits, SearchHooks, Searcher};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let spec = args.first().cloned().unwrap_or_else(Games::default_spec);
    let movetime = match args.get(1).map(|t| t.parse::<u64>()) {
        None => 50,
        Some(Ok(ms)) => ms,
        Some(Err(_)) => fail("the second argument is milliseconds per move"),
    };
    let limits = Limits::movetime(Duration::from_millis(movetime));
    if let Err(e) = Games::dispatch(&spec, SelfPlay(limits)) {
        fail(e);
    }
}

fn fail(e: impl std::fmt::Display) -> ! {
    eprintln!("selfplay: {e}");
    std::process::exit(2);
}

/// One game of the engine against itself, for whichever game was chosen.
struct SelfPlay(Limits);

impl GameFn for SelfPlay {
    type Output = ();

    fn call<K: GameKit>(self, rules: RulesOf<K>) {
        let mut game = K::Game::new(K::Position::new(rules));
        let eval = K::eval(EvalProfile::Default);
        let hooks = K::hooks(EvalProfile::Default);
        let mut searcher = Searcher::with_hooks(hooks.tuned_options(), hooks);
        let stop = AtomicBool::new(false);
        println!("{}", game.position());
        while game.outcome().is_none() {
            let side = game.position().side_to_move();
            let result = searcher.search(&mut game, &eval, self.0, &stop, |_| {});
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
}
