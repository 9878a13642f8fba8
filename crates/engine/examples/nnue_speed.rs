//! The cost of one evaluation, hand-written against the network, over the
//! positions of a depth-3 tree walk from each built-in opening, in the
//! order a search visits them (siblings one after another, so the
//! network's accumulator is updated by a move or two, as in a search).
//!
//! ```text
//! cargo run --release -p qi-engine --example nnue_speed
//! ```

use std::hint::black_box;
use std::time::Instant;

use qi_core::{Evaluator, Position};
use qi_engine::arena::builtin_openings;
use qi_engine::jungle::nnue::{embedded, evaluate_fresh};
use qi_engine::jungle::JungleEval;
use qi_engine::JungleKit;
use qi_jungle::{Jungle, Rules};

fn walk(pos: &Jungle, depth: u32, out: &mut Vec<Jungle>) {
    out.push(*pos);
    if depth == 0 || pos.outcome().is_some() {
        return;
    }
    for mv in pos.legal_moves() {
        let mut next = *pos;
        next.play_unchecked(mv);
        walk(&next, depth - 1, out);
    }
}

fn time(name: &str, positions: &[Jungle], f: impl Fn(&Jungle) -> i32) {
    let mut best = f64::MAX;
    let mut sum = 0i64;
    for _ in 0..5 {
        let start = Instant::now();
        for p in positions {
            sum += i64::from(f(black_box(p)));
        }
        best = best.min(start.elapsed().as_nanos() as f64 / positions.len() as f64);
    }
    println!("{name}: {best:.1} ns per evaluation (best of 5; checksum {sum})");
}

fn main() {
    let start = Jungle::new(Rules::standard());
    let openings = builtin_openings::<JungleKit>(&start).expect("the built-in suite");
    let mut positions = Vec::new();
    for o in &openings {
        walk(o, 3, &mut positions);
    }
    println!("{} positions", positions.len());
    let hand = JungleEval::default();
    let net = embedded().expect("the embedded network");
    let nnue = JungleEval::default().with_network(net.clone());
    time("hand-written", &positions, |p| hand.evaluate(p));
    time("nnue, incremental", &positions, |p| nnue.evaluate(p));
    time("nnue, refreshed each time", &positions, |p| {
        evaluate_fresh(&net, p)
    });
}
