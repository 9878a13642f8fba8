//! Picks Jungle endgame positions for the tablebase measurements of
//! docs/tablebases.md, reproducibly (a fixed pseudo-random sequence):
//!
//! * `suite DIR N`: N positions of 3 animals that the side to move wins,
//!   by the tables of `DIR` (`qi tb generate DIR`), a quarter each with
//!   distances 15–24, 25–34, 35–44 and 45 plies or more; each line the
//!   position and a comment with its value.
//! * `openings DIR N3 N4`: an opening file for `qi match`: N3 positions of
//!   3 animals won by the side to move in 15 plies or more (each opening
//!   is played with both colours), then N4 positions of 2 animals against
//!   2 with no capture to make, no animal next to a den, and a 5-ply
//!   search without tables far from a win for either side.
//! * `bench DIR`: the time of one probe of [`LazyTablebase`], over a
//!   million random positions of 3 animals (tables already read), and of
//!   the search hook that wraps it for a position of 4 animals (no table).
//!
//! ```text
//! cargo run --release -p qi-engine --example tb_positions -- suite /tmp/tb-standard 40
//! ```

use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use qi_core::Position;
use qi_engine::jungle::{JungleEval, JungleHooks};
use qi_engine::{GameKit, JungleKit};
use qi_jungle::{Game, Jungle, Rules};
use qi_search::{Limits, Searcher};
use qi_tablebase::jungle::{LazyTablebase, Material};
use qi_tablebase::Wdl;

/// xorshift64*: a fixed sequence, so that the files can be made again.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random position of `materials`.
fn random_position(rng: &mut Rng, materials: &[Material], rules: &Rules) -> Option<Jungle> {
    let m = materials[rng.below(materials.len() as u64) as usize];
    m.position(rng.below(m.index_count()), rules)
}

fn three_animals() -> Vec<Material> {
    let mut all = Material::all_with(2, 1);
    all.extend(Material::all_with(1, 2));
    all
}

/// `n` won positions of 3 animals, a quarter in each band of distances
/// from `bands`; never two of one material in a band.
fn wins(
    tables: &LazyTablebase,
    rng: &mut Rng,
    n: usize,
    bands: &[(u32, u32)],
) -> Vec<(Jungle, u32)> {
    let rules = *tables.rules();
    let materials = three_animals();
    let mut picked: Vec<(Jungle, u32)> = Vec::new();
    for (b, &(lo, hi)) in bands.iter().enumerate() {
        let want = n / bands.len() + usize::from(b < n % bands.len());
        let mut band: Vec<(Jungle, u32)> = Vec::new();
        for _ in 0..20_000_000u64 {
            if band.len() == want {
                break;
            }
            let Some(pos) = random_position(rng, &materials, &rules) else {
                continue;
            };
            let Ok(Some((Wdl::Win, d))) = tables.probe(&pos) else {
                continue;
            };
            if d < lo || d > hi || pos.outcome().is_some() {
                continue;
            }
            if band
                .iter()
                .any(|(p, _)| Material::of(p) == Material::of(&pos))
            {
                continue;
            }
            band.push((pos, d));
        }
        picked.extend(band);
    }
    picked
}

/// 2-against-2 positions the side to move cannot decide at once.
fn quiet_four(rng: &mut Rng, rules: &Rules, n: usize) -> Vec<Jungle> {
    let materials = Material::all_with(2, 2);
    let eval = JungleEval::default();
    let mut picked = Vec::new();
    while picked.len() < n {
        let Some(pos) = random_position(rng, &materials, rules) else {
            continue;
        };
        // The other side to move, to see whether the side to move stands
        // next to its enemy's den.
        let mut passed = Game::new(pos);
        passed.play_null();
        if pos.outcome().is_some()
            || pos.legal_moves().iter().any(|&m| pos.is_capture(m))
            || JungleHooks::den_attacked(&pos)
            || JungleHooks::den_attacked(passed.position())
        {
            continue;
        }
        let mut searcher = Searcher::with_hooks(JungleKit::tuned_options(), JungleHooks::default());
        let mut game = Game::new(pos);
        let result = searcher.search(
            &mut game,
            &eval,
            Limits::depth(5),
            &AtomicBool::new(false),
            |_| {},
        );
        if result.score.is_mate() || result.score.value().abs() > 150 {
            continue;
        }
        picked.push(pos);
    }
    picked
}

/// Prints the time a probe takes.
fn bench(tables: &LazyTablebase, rng: &mut Rng, rules: &Rules) {
    let materials = three_animals();
    let positions: Vec<Jungle> =
        std::iter::from_fn(|| Some(random_position(rng, &materials, rules)))
            .flatten()
            .take(1_000_000)
            .collect();
    for pos in &positions {
        let _ = tables.probe(pos);
    }
    let start = std::time::Instant::now();
    let found = positions
        .iter()
        .filter(|p| matches!(tables.probe(p), Ok(Some(_))))
        .count();
    let elapsed = start.elapsed();
    println!(
        "LazyTablebase::probe: {:.0} ns a position of 3 animals ({found} of {} answered)",
        elapsed.as_nanos() as f64 / positions.len() as f64,
        positions.len()
    );
    // The parts of a probe: the game's end, the index, the table's read.
    let start = std::time::Instant::now();
    let over = positions.iter().filter(|p| p.outcome().is_some()).count();
    println!(
        "  of which Position::outcome: {:.0} ns ({over} over)",
        start.elapsed().as_nanos() as f64 / positions.len() as f64
    );
    let start = std::time::Instant::now();
    let indexed: u64 = positions
        .iter()
        .filter_map(|p| Material::of(p)?.index_of(p))
        .fold(0, u64::wrapping_add);
    println!(
        "  of which Material::of and index_of: {:.0} ns ({indexed})",
        start.elapsed().as_nanos() as f64 / positions.len() as f64
    );
    let start = std::time::Instant::now();
    let looked_up = positions
        .iter()
        .filter(|p| tables.table(Material::of(p).unwrap()).is_some())
        .count();
    println!(
        "  of which the table's look-up: {:.0} ns ({looked_up})",
        start.elapsed().as_nanos() as f64 / positions.len() as f64
    );
    let hooks = JungleHooks::default().with_tablebase(Some(std::sync::Arc::new(
        LazyTablebase::open(tables.dir(), rules).expect("the directory opened once"),
    )));
    let game = Game::new(quiet_four(rng, rules, 1)[0]);
    let rounds = 10_000_000;
    let start = std::time::Instant::now();
    let answered = (0..rounds)
        .filter(|_| qi_search::SearchHooks::probe(&hooks, std::hint::black_box(&game)).is_some())
        .count();
    println!(
        "JungleHooks::probe: {:.1} ns a position of 4 animals ({answered} answered)",
        start.elapsed().as_nanos() as f64 / f64::from(rounds)
    );
}

fn run(args: &[String]) -> Result<(), String> {
    let usage = "usage: tb_positions suite DIR N | openings DIR N3 N4 | bench DIR";
    let number = |i: usize| -> Result<usize, String> {
        args.get(i)
            .ok_or(usage)?
            .parse()
            .map_err(|e| format!("bad number '{}': {e}", args[i]))
    };
    let rules = Rules::standard();
    let dir = args.get(1).ok_or(usage)?;
    let tables = LazyTablebase::open(Path::new(dir), &rules).map_err(|e| e.to_string())?;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    match args.first().map(String::as_str) {
        Some("suite") => {
            let n = number(2)?;
            println!("# Jungle (standard) positions of 3 animals won by the side to move,");
            println!("# by the tables of `qi tb generate`: the position, then its value.");
            println!("# Made by: cargo run --release -p qi-engine --example tb_positions -- suite DIR {n}");
            let bands = [(15, 24), (25, 34), (35, 44), (45, 200)];
            for (pos, d) in wins(&tables, &mut rng, n, &bands) {
                println!("{pos} # win in {d} plies");
            }
        }
        Some("openings") => {
            let (n3, n4) = (number(2)?, number(3)?);
            println!(
                "# Jungle (standard) endgame openings for `qi match` with and without tables:"
            );
            println!("# {n3} positions of 3 animals won by the side to move in 15 plies or more,");
            println!("# then {n4} quiet positions of 2 animals against 2 (each played with both colours).");
            println!("# Made by: cargo run --release -p qi-engine --example tb_positions -- openings DIR {n3} {n4}");
            let mut rng3 = Rng(0xd1b5_4a32_d192_ed03);
            for (pos, d) in wins(&tables, &mut rng3, n3, &[(15, 200)]) {
                println!("# win in {d} plies for the side to move");
                println!("{pos}");
            }
            for pos in quiet_four(&mut rng, &rules, n4) {
                println!("{pos}");
            }
        }
        Some("bench") => bench(&tables, &mut rng, &rules),
        _ => return Err(usage.to_string()),
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tb_positions: {e}");
            ExitCode::from(2)
        }
    }
}
