//! Times [`LazyTablebase::probe`](qi_tablebase::LazyTablebase::probe):
//! every stored position of one material, probed once to read the file,
//! then `ROUNDS` more times, timed. Run under `valgrind --tool=callgrind`
//! with two values of `ROUNDS`, the difference of the instruction counts
//! is the probes' own cost, whatever the machine's load.
//!
//! ```text
//! cargo run --release -p qi-tablebase --example probe -- GAME RULES DIR MATERIAL [ROUNDS]
//! ```
//!
//! `GAME` is `jungle` or `five-tigers`; `DIR` holds the tables of `RULES`
//! (`qi tb generate --game GAME:RULES DIR`). Figures: docs/PERFORMANCE.md.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use qi_tablebase::five_tigers as ft;
use qi_tablebase::jungle;

type Probe<'a, P> = Box<dyn Fn(&P) -> bool + 'a>;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Probes `positions` once, then `rounds` times timed, and reports.
fn time<P>(what: &str, positions: &[P], probe: Probe<'_, P>, rounds: usize) {
    let mut found = positions.iter().filter(|p| probe(p)).count();
    let start = Instant::now();
    for _ in 0..rounds {
        found += positions.iter().filter(|p| probe(p)).count();
    }
    let probes = positions.len() * rounds;
    println!(
        "LazyTablebase::probe: {:.1} ns a position of {what} ({probes} probes, {found} answered)",
        start.elapsed().as_nanos() as f64 / probes.max(1) as f64
    );
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [game, rules, dir, material, rest @ ..] = args.as_slice() else {
        return Err("usage: probe GAME RULES DIR MATERIAL [ROUNDS]".into());
    };
    let dir = PathBuf::from(dir);
    let rounds: usize = rest.first().map_or(Ok(5), |r| r.parse())?;
    match game.as_str() {
        "jungle" => {
            let rules: qi_jungle::Rules = rules.parse()?;
            let m: jungle::Material = material.parse()?;
            let positions: Vec<qi_jungle::Jungle> = (0..m.index_count())
                .filter_map(|i| m.position(i, &rules))
                .collect();
            let lazy = jungle::LazyTablebase::open(&dir, &rules)?;
            let probe = move |p: &qi_jungle::Jungle| matches!(lazy.probe(p), Ok(Some(_)));
            time(material, &positions, Box::new(probe), rounds);
        }
        "five-tigers" => {
            let rules: qi_five_tigers::Rules = rules.parse()?;
            let m: ft::Material = material.parse()?;
            let positions = five_tigers_positions(&dir, &rules, m)?;
            let lazy = ft::LazyTablebase::open(&dir, &rules)?;
            let probe = move |p: &qi_five_tigers::FiveTigers| matches!(lazy.probe(p), Ok(Some(_)));
            time(material, &positions, Box::new(probe), rounds);
        }
        _ => return Err(format!("unknown game {game:?}: jungle or five-tigers").into()),
    }
    Ok(())
}

/// The stored states of `m` as positions.
fn five_tigers_positions(
    dir: &Path,
    rules: &qi_five_tigers::Rules,
    m: ft::Material,
) -> Result<Vec<qi_five_tigers::FiveTigers>, Box<dyn std::error::Error>> {
    let tb = ft::Tablebase::load_present(dir, rules, &[m])?;
    let table = tb
        .table(m)
        .ok_or_else(|| format!("no table of {m} in {}", dir.display()))?;
    Ok(table.entries().map(|(p, _, _)| p).collect())
}
