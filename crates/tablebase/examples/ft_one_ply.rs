//! Checks a directory's Five Tigers tables against one ply of minimax on
//! random positions of a material (each side's previous step drawn too,
//! under the shuttle ban): the value and distance its table stores must be
//! what its moves' successors, probed in their own tables (through the
//! removals after a formation), give. The naive solver's step, for tables
//! too large for the tests (`5v5` under the ban), read from disk a block at
//! a time.
//!
//! ```text
//! cargo run --release -p qi-tablebase --example ft_one_ply -- RULES DIR MATERIAL [N [SEED [LONGEST]]]
//! ```
//!
//! With LONGEST, only positions whose table distance is LONGEST plies or
//! more are checked (the others drawn are passed over and counted): the
//! longest wins and losses, which random positions seldom are.
//!
//! Prints how many positions were checked, how many had a previous step
//! that bans one, and how many were won, drawn and lost; exits non-zero at
//! the first that disagrees.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use qi_core::{Position, Side};
use qi_five_tigers::Rules;
use qi_tablebase::five_tigers::{LazyTablebase, Material};
use qi_tablebase::Wdl;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

// The tests' naive check and dice.
#[path = "../tests/suite/common/one_ply.rs"]
mod one_ply;
use one_ply::{one_ply_by, random_position, Rng};

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (rules, dir, material) = match args.as_slice() {
        [r, d, m, ..] => (r, d, m),
        _ => return Err("usage: ft_one_ply RULES DIR MATERIAL [N [SEED [LONGEST]]]".into()),
    };
    let rules: Rules = Rules::preset(rules).or_else(|_| rules.parse())?;
    let m: Material = material.parse()?;
    let n: usize = args.get(3).map_or(Ok(1000), |s| s.parse())?;
    let seed: u64 = args
        .get(4)
        .map_or(Ok(0x5eed_0005_0005_0001), |s| s.parse())?;
    let longest: u32 = args.get(5).map_or(Ok(0), |s| s.parse())?;
    let tb = LazyTablebase::open(&PathBuf::from(dir), &rules)?;
    let mut rng = Rng(seed | 1);
    let start = Instant::now();
    let (mut checked, mut banned, mut values) = (0, 0, [0usize; 3]);
    let (mut passed_over, mut far) = (0u64, 0u32);
    while checked < n {
        let Some(pos) = random_position(&mut rng, m, &rules) else {
            continue;
        };
        if pos.outcome().is_some() {
            continue;
        }
        let stored = tb
            .probe(&pos)?
            .ok_or_else(|| format!("{pos} has no value in {m}"))?;
        if stored.1 < longest {
            passed_over += 1;
            continue;
        }
        far = far.max(stored.1);
        let mut failed = None;
        let searched = one_ply_by(&pos, |child| match tb.probe_through_removals(child) {
            Ok(v) => v,
            Err(e) => {
                failed = Some(e);
                None
            }
        });
        if let Some(e) = failed {
            return Err(e.into());
        }
        let searched = searched.ok_or_else(|| format!("a successor of {pos} has no value"))?;
        if stored != searched {
            return Err(
                format!("{pos}: the table says {stored:?}, one ply says {searched:?}").into(),
            );
        }
        checked += 1;
        banned += usize::from(
            pos.last_step(Side::First).is_some() || pos.last_step(Side::Second).is_some(),
        );
        values[match stored.0 {
            Wdl::Loss => 0,
            Wdl::Draw => 1,
            Wdl::Win => 2,
        }] += 1;
    }
    println!(
        "{m}: {checked} positions agree with one ply ({banned} with a previous step; \
         {} won, {} drawn, {} lost; the longest {far} plies) in {:.1} s",
        values[2],
        values[1],
        values[0],
        start.elapsed().as_secs_f64()
    );
    if longest > 0 {
        println!("{passed_over} positions drawn were nearer the end than {longest} plies");
    }
    Ok(())
}
