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

use qi::core::{Evaluator, Game, Position};
use qi::engine::five_tigers::{FiveTigersEval, FiveTigersHooks};
use qi::engine::jungle::{JungleEval, JungleHooks};
use qi::search::{Limits, SearchHooks, Searcher};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game = args.first().map(String::as_str).unwrap_or("jungle");
    let text = args.get(1).map(String::as_str);
    let ms: u64 = match args.get(2).map(|t| t.parse()) {
        None => 1000,
        Some(Ok(ms)) => ms,
        Some(Err(_)) => fail("the third argument is milliseconds"),
    };
    let limits = Limits::movetime(Duration::from_millis(ms));
    if game.starts_with("five-tigers") {
        let rules: qi::five_tigers::Rules = game.parse().unwrap_or_else(|e| fail(e));
        let start = qi::five_tigers::FiveTigers::new(rules);
        let pos = text.map_or(Ok(start), |t| start.with_text(t));
        let pos = pos.unwrap_or_else(|e| fail(e));
        analyze(
            qi::five_tigers::Game::new(pos),
            FiveTigersEval::default(),
            FiveTigersHooks,
            limits,
        );
    } else {
        let rules: qi::jungle::Rules = game.parse().unwrap_or_else(|e| fail(e));
        let start = qi::jungle::Jungle::new(rules);
        let pos = text.map_or(Ok(start), |t| start.with_text(t));
        let pos = pos.unwrap_or_else(|e| fail(e));
        analyze(
            qi::jungle::Game::new(pos),
            JungleEval::default(),
            JungleHooks::default(),
            limits,
        );
    }
}

fn fail(e: impl std::fmt::Display) -> ! {
    eprintln!("analyze: {e}");
    std::process::exit(2);
}

fn analyze<G, E, H>(mut game: G, eval: E, hooks: H, limits: Limits)
where
    G: Game,
    E: Evaluator<G::Position>,
    H: SearchHooks<G>,
{
    println!("position: {}", game.position());
    println!("static eval: {}", eval.evaluate(game.position()));
    let mut searcher = Searcher::with_hooks(hooks.tuned_options(), hooks);
    let stop = AtomicBool::new(false);
    let result = searcher.search(&mut game, &eval, limits, &stop, |info| {
        let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
        println!(
            "depth {:>2}  score {:<10} nodes {:>10}  nps {:>9}  pv {}",
            info.depth,
            info.score.to_string(),
            info.nodes,
            info.nps,
            pv.join(" ")
        );
    });
    match result.best_move {
        Some(mv) => println!(
            "best move: {mv}  score {}  depth {}",
            result.score, result.depth
        ),
        None => println!("no move: {:?}", game.outcome()),
    }
}
