//! Time per move of each strength level (docs/levels.md): every level
//! searches the positions of the game's built-in opening suite, and the
//! mean and largest time per move are printed.
//!
//! ```sh
//! cargo run --release --example level_times                 # both games, 100 000 nodes
//! cargo run --release --example level_times -- jungle 1000000
//! ```

use std::time::{Duration, Instant};

use qi_games::base::Position;
use qi_games::engine::arena::builtin_openings;
use qi_games::engine::options::Overrides;
use qi_games::engine::{engine_for, EvalProfile, GameFn, GameKit, Games, Registry, RulesOf};
use qi_games::search::{Level, Limits};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: Vec<String> = match args.first() {
        Some(game) => vec![game.clone()],
        None => vec!["jungle".into(), "five-tigers".into()],
    };
    let nodes: u64 = match args.get(1).map(|t| t.parse()) {
        None => 100_000,
        Some(Ok(n)) => n,
        Some(Err(_)) => fail("the second argument is a node count"),
    };
    println!("| game | level | mean ms a move | largest ms | positions |");
    println!("|---|---|---|---|---|");
    for spec in games {
        if let Err(e) = Games::dispatch(
            &spec,
            Times {
                spec: spec.clone(),
                nodes,
            },
        ) {
            fail(e);
        }
    }
}

fn fail(e: impl std::fmt::Display) -> ! {
    eprintln!("level_times: {e}");
    std::process::exit(2);
}

/// Times every level on the openings of whichever game was chosen.
struct Times {
    spec: String,
    nodes: u64,
}

impl GameFn for Times {
    type Output = ();

    fn call<K: GameKit>(self, rules: RulesOf<K>) {
        let start = K::Position::new(rules);
        let openings = builtin_openings::<K>(&start).unwrap_or_else(|| vec![start.clone()]);
        for level in Level::all() {
            let mut engine =
                engine_for::<Games>(&self.spec, EvalProfile::Default, &Overrides::default())
                    .unwrap_or_else(|e| fail(e));
            engine.set_strength(level, 1);
            let (mut total, mut largest) = (Duration::ZERO, Duration::ZERO);
            for opening in &openings {
                engine
                    .set_position(Some(&opening.to_string()), &[])
                    .unwrap_or_else(|e| fail(e));
                let t = Instant::now();
                engine.best_move(Limits::nodes(self.nodes));
                let took = t.elapsed();
                total += took;
                largest = largest.max(took);
            }
            println!(
                "| {} | {level} | {:.2} | {:.1} | {} |",
                self.spec,
                total.as_secs_f64() * 1000.0 / openings.len() as f64,
                largest.as_secs_f64() * 1000.0,
                openings.len()
            );
        }
    }
}
