//! What the distributed rounds cost by themselves, on a slice whose
//! moves cost nothing to find: `games` independent piles of up to
//! `stones` stones (a move takes 1, 2 or 3; a player with no stone to
//! take has lost), slot `pile × (stones + 1) + n` for `n` stones left in
//! pile `pile`, its predecessors `n + 1 ..= n + 3` of the same pile.
//!
//! ```text
//! cargo run --release -p qi-tablebase --features distributed --example dataflow_rounds -- \
//!     GAMES STONES [one|threads N|processes N THREADS]
//! ```
//!
//! `one` is `retrograde::solve` on this thread; `threads N` one process
//! of N timely workers; `processes N THREADS` N processes of this
//! program's threads on 127.0.0.1 (free ports), each of THREADS
//! workers, joined over TCP. Prints the wall time (the rounds, and for
//! the workers the gathering of every value to each process), slots per
//! second and the tidings sent (and between processes).

use std::sync::Arc;
use std::time::Instant;

use qi_tablebase::dataflow::{solve_everywhere, Cluster, WorkerStats};

#[path = "../tests/suite/common/loopback.rs"]
mod loopback;
use qi_tablebase::retrograde::{self, Open, RetroError, RetroSlice, Start};
use qi_tablebase::Wdl;

struct Piles {
    games: u64,
    stones: u64,
}

impl RetroSlice for Piles {
    fn slots(&self) -> u64 {
        self.games * (self.stones + 1)
    }
    fn start(&self, slot: u64) -> Result<Start, RetroError> {
        let n = slot % (self.stones + 1);
        Ok(if n == 0 {
            Start::Decided(Wdl::Loss, 0)
        } else {
            Start::Open(Open {
                successors: n.min(3) as u32,
                ..Open::default()
            })
        })
    }
    fn predecessors(&self, slot: u64, out: &mut Vec<u64>) {
        let n = slot % (self.stones + 1);
        for k in 1..=3 {
            if n + k <= self.stones {
                out.push(slot + k);
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| -> usize {
        args.get(i).and_then(|a| a.parse().ok()).unwrap_or_else(|| {
            eprintln!("argument {} must be a number: {args:?}", i + 1);
            std::process::exit(2)
        })
    };
    let slice = Arc::new(Piles {
        games: number(0) as u64,
        stones: number(1) as u64,
    });
    let mode = args.get(2).map(String::as_str).unwrap_or("one");
    let start = Instant::now();
    let (values, stats) = match mode {
        "one" => (retrograde::solve(&*slice).expect("solves"), None),
        "threads" => {
            let cluster = Cluster::Local { threads: number(3) };
            let (values, workers) = solve_everywhere(slice.clone(), &cluster).expect("solves");
            (values, Some(WorkerStats::total(&workers)))
        }
        "processes" => {
            let (n, threads) = (number(3), number(4));
            let (values, workers) = loopback::joined(loopback::over_tcp(&slice, n, threads));
            (values, Some(WorkerStats::total(&workers)))
        }
        other => {
            eprintln!("unknown mode {other}: one, threads N or processes N THREADS");
            std::process::exit(2)
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    // Every fourth pile size is lost for the side to move.
    let lost = (0..slice.slots())
        .filter(|&s| values.get(s).is_some_and(|(w, _)| w == Wdl::Loss))
        .count() as u64;
    assert_eq!(lost, slice.games * (slice.stones / 4 + 1));
    print!(
        "{mode}: {} slots in {seconds:.3} s, {:.2} M slots/s",
        slice.slots(),
        slice.slots() as f64 / seconds / 1e6
    );
    match stats {
        Some(all) => println!(", {} tidings, {} between processes", all.sent, all.remote),
        None => println!(),
    }
}
