//! Best move, score and principal variation of a position, iteration by
//! iteration.
//!
//! ```sh
//! cargo run --release --example analyze                                    # Jungle start, 1 s
//! cargo run --release --example analyze -- jungle "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w" 2000
//! cargo run --release --example analyze -- five-tigers "5/5/2X2/5/5 o place X:12,O:13 - o -,- 0"
//! ```

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use qi_games::base::{Evaluator, Game, Position};
use qi_games::engine::{EvalProfile, GameFn, GameKit, Games, Registry, RulesOf};
use qi_games::search::{Limits, SearchHooks, Searcher};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let spec = args.first().cloned().unwrap_or_else(Games::default_spec);
    let text = args.get(1).cloned();
    let ms: u64 = match args.get(2).map(|t| t.parse()) {
        None => 1000,
        Some(Ok(ms)) => ms,
        Some(Err(_)) => fail("the third argument is milliseconds"),
    };
    let limits = Limits::movetime(Duration::from_millis(ms));
    match Games::dispatch(&spec, Analyze { text, limits }) {
        Ok(Ok(())) => {}
        Ok(Err(e)) => fail(e),
        Err(e) => fail(e),
    }
}

fn fail(e: impl std::fmt::Display) -> ! {
    eprintln!("analyze: {e}");
    std::process::exit(2);
}

/// Analyses the position `text` (or the start) of whichever game was chosen.
struct Analyze {
    text: Option<String>,
    limits: Limits,
}

impl GameFn for Analyze {
    type Output = Result<(), String>;

    fn call<K: GameKit>(self, rules: RulesOf<K>) -> Result<(), String> {
        let start = K::Position::new(rules);
        let pos = match &self.text {
            Some(text) => start.with_text(text).map_err(|e| e.to_string())?,
            None => start,
        };
        let mut game = K::Game::new(pos);
        let eval = K::eval(EvalProfile::Default);
        println!("position: {}", game.position());
        println!("static eval: {}", eval.evaluate(game.position()));
        let hooks = K::hooks(EvalProfile::Default);
        let mut searcher = Searcher::with_hooks(hooks.tuned_options(), hooks);
        let stop = AtomicBool::new(false);
        let result = searcher.search(&mut game, &eval, self.limits, &stop, |info| {
            println!("{info}");
        });
        match result.best_move {
            Some(mv) => println!(
                "best move: {mv}  score {}  depth {}",
                result.score, result.depth
            ),
            None => println!("no move: {:?}", game.outcome()),
        }
        Ok(())
    }
}
