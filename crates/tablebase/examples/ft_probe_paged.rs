//! Times the probe of a large Five Tigers table read from disk a block at
//! a time ([`LazyTablebase`](qi_tablebase::LazyTablebase) with its default
//! [`Paging`](qi_tablebase::Paging)): the first probe (the file's header
//! and one block), then `N` probes of random positions of the material
//! (most of them a block not in the cache: a read and a checksum), then the
//! same positions again in a set small enough for the cache.
//!
//! ```text
//! cargo run --release -p qi-tablebase --example ft_probe_paged -- RULES DIR MATERIAL [N]
//! ```
//!
//! Figures: docs/PERFORMANCE.md.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use qi_five_tigers::{FiveTigers, Rules};
use qi_tablebase::five_tigers::{LazyTablebase, Material};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A small generator of random numbers (xorshift64*), seeded.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) % n
    }
}

/// A random movement position of `m`, its side to move random too.
fn random_position(rng: &mut Rng, m: Material, rules: &Rules) -> Option<FiveTigers> {
    let mut board = [b'.'; 25];
    for (piece, count) in [(b'X', m.first), (b'O', m.second)] {
        let mut placed = 0;
        while placed < count {
            let p = rng.below(25) as usize;
            if board[p] == b'.' {
                board[p] = piece;
                placed += 1;
            }
        }
    }
    let rows: Vec<String> = board
        .chunks(5)
        .map(|row| {
            let mut text = String::new();
            let mut empty = 0;
            for &c in row {
                if c == b'.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(c as char);
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    let side = if rng.below(2) == 0 { 'x' } else { 'o' };
    let text = format!("{} {side} move X:0,O:0 - {side} -,- 0", rows.join("/"));
    FiveTigers::from_text_lenient(&text, *rules).ok()
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [rules, dir, material, rest @ ..] = args.as_slice() else {
        return Err("usage: ft_probe_paged RULES DIR MATERIAL [N]".into());
    };
    let rules: Rules = Rules::preset(rules).or_else(|_| rules.parse())?;
    let m: Material = material.parse()?;
    let n: usize = rest.first().map_or(Ok(100_000), |s| s.parse())?;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let positions: Vec<FiveTigers> =
        std::iter::repeat_with(|| random_position(&mut rng, m, &rules))
            .take(n)
            .flatten()
            .collect();
    let first = positions.first().ok_or("no position")?;
    let start = Instant::now();
    let lazy = LazyTablebase::open(&PathBuf::from(dir), &rules)?;
    let answer = lazy.probe(first)?;
    let first_probe = start.elapsed();
    println!(
        "first probe of {m} (open, header, one block): {:.3} ms, {answer:?}, paged: {}",
        first_probe.as_secs_f64() * 1e3,
        lazy.paged()
    );
    let timed = |what: &str, set: &[FiveTigers]| -> Result<(), Box<dyn std::error::Error>> {
        let start = Instant::now();
        let mut answered = 0;
        for p in set {
            answered += usize::from(lazy.probe(p)?.is_some());
        }
        println!(
            "{what}: {:.2} µs a probe ({} probes, {answered} answered)",
            start.elapsed().as_secs_f64() * 1e6 / set.len().max(1) as f64,
            set.len()
        );
        Ok(())
    };
    timed("random positions (mostly uncached blocks)", &positions)?;
    let hot = &positions[..positions.len().min(1000)];
    timed("1000 positions, first pass", hot)?;
    timed("the same 1000 again (cached blocks)", hot)?;
    if let Some(e) = lazy.refused(m) {
        return Err(format!("refused: {e}").into());
    }
    Ok(())
}
