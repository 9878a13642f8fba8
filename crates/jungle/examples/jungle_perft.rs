//! `cargo run --release -p qi-jungle --example jungle_perft -- DEPTH [RULES] [JFEN...]`:
//! bulk perft with timing (single thread).

use std::time::Instant;

use qi_jungle::{Jungle, Rules};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|d| d.parse().ok()).unwrap_or(5);
    let rules: Rules = match args.get(1) {
        Some(r) => match r.parse() {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        },
        None => Rules::standard(),
    };
    let pos = if args.len() > 2 {
        match Jungle::from_text(&args[2..].join(" "), rules) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        }
    } else {
        Jungle::new(rules)
    };
    for d in 1..=depth {
        let t = Instant::now();
        let n = qi_search::perft(&pos, d);
        let s = t.elapsed().as_secs_f64();
        println!(
            "perft {d} = {n} in {s:.3} s ({:.0} Mleaves/s)",
            n as f64 / s.max(1e-9) / 1e6
        );
    }
}
