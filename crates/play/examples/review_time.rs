//! The time of a game review at the default budget: a 100-ply Jungle
//! game of the engine against itself (depth 3 a move, the same game on
//! every machine) reviewed by `review_record`. Not a test (a speed is no
//! pass or fail); the figure is in `docs/web.md`:
//!
//! ```text
//! cargo run --release -p qi-play --example review_time
//! ```

use std::time::Instant;

use qi_play::game::new_game;
use qi_play::review::{review_record, Budget};
use qi_search::Limits;

fn main() {
    let mut game = new_game("jungle", None).expect("the standard game");
    for _ in 0..100 {
        let done = game.search_here(Limits::depth(3), &mut || false, &mut |_| false);
        match done.best {
            Some(best) => game.play(&best).expect("the engine's move is legal"),
            None => break,
        }
    }
    let record = game.record();
    let plies = game.view(false).moves.len();
    let budget = Budget::default();
    let start = Instant::now();
    let review = review_record(&record, budget, &mut || false, &mut |_, _| false)
        .expect("the game's own record");
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{plies} plies reviewed at {budget:?}: {seconds:.2} s, {} nodes, accuracy {:.1} / {:.1}",
        review.nodes,
        review.sides[0].accuracy.unwrap_or(0.0),
        review.sides[1].accuracy.unwrap_or(0.0)
    );
}
