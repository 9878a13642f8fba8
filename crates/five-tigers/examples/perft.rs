//! Perft from a position: `cargo run --release -p qi-five-tigers --example perft -- [depth] [preset] [position text]`.
use std::time::Instant;

use qi_five_tigers::{FiveTigers, Rules};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(6);
    let rules: Rules = args
        .get(2)
        .map(|r| r.parse().expect("unknown preset"))
        .unwrap_or_default();
    let pos = match args.get(3) {
        Some(text) => FiveTigers::from_text(text, rules).expect("bad position text"),
        None => FiveTigers::new(rules),
    };
    for d in 1..=depth {
        let t = Instant::now();
        let n = qi_search::perft(&pos, d);
        println!("perft {d} = {n} ({:.3} s)", t.elapsed().as_secs_f64());
    }
}
