//! Picks Five Tigers endgame positions for the tablebase measurements of
//! docs/tablebases.md ("Five Tigers … in play"), reproducibly (a fixed
//! pseudo-random sequence), and measures what the big tables cost the
//! engine:
//!
//! * `suite PRESET DIR N`: N movement positions with nothing owed that the
//!   side to move wins by the tables of `DIR` (`qi tb generate --game
//!   five-tigers:PRESET`), a share each in bands of distance. Under
//!   `shandong-shuttle` of 4 and 5 pieces a side (`4v4`, `5v4`, `4v5`,
//!   `5v5`; bands 10–29, 30–49, 50–69 and 70 plies or more), under a
//!   shuttle-forbidding preset of 3 a side (`3v3`, `3v2`, `2v3`; bands 5–14,
//!   15–24, 25 or more, with the previous steps a game could have left);
//!   of these materials, those with a file in `DIR`. `suite PRESET DIR N
//!   5` under a shuttle-forbidding preset takes 4 and 5 pieces a side
//!   instead (`4v4`, `5v3`, `3v5`, `5v4`, `4v5`, `5v5`; the shuttle-allowed
//!   suite's bands).
//!   Each line the position and a comment with its value.
//! * `openings DIR NWIN NBAL [PRESET]` (`shandong-shuttle` by default):
//!   an opening file for
//!   `qi match`: NWIN positions of 4 or 5 pieces a side won by the side to
//!   move in 15 plies or more (each opening is played with both colours),
//!   then NBAL positions of 6 pieces against 6 (more than any table: the
//!   tables answer only after removals) where neither side has a step that
//!   forms a formation and a 5-ply search without tables is within 150 of
//!   equality. Every position is one the strict reader takes, as the
//!   engines of a match read them.
//! * `load PRESET DIR`: the time and memory of the first probe of each
//!   material's file (read whole when first needed), largest first, then a
//!   search of a won position of the largest material at 20 000 nodes with
//!   and without the tables (table hits, time).
//! * `read-ahead PRESET DIR`: the time until
//!   [`FiveTigersHooks::with_tablebase_read_ahead`] has read every file,
//!   and the memory then.
//!
//! ```text
//! cargo run --release -p qi-engine --example ft_tb_positions -- suite shandong-shuttle /tmp/ft-tb-shuttle 40
//! ```

use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use qi_core::{Position, Side};
use qi_engine::five_tigers::{FiveTigersEval, FiveTigersHooks};
use qi_engine::{FiveTigersKit, GameKit};
use qi_five_tigers::{FiveTigers, Game, LastStep, Phase, Point, Rules, Setup, NEIGHBOURS};
use qi_search::{Limits, Searcher};
use qi_tablebase::five_tigers::{LazyTablebase, Material};
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

/// `n` distinct points of `free` (a set of point indices), at random.
fn pick_points(rng: &mut Rng, mut free: u32, n: u32) -> u32 {
    let mut chosen = 0;
    for _ in 0..n {
        let k = rng.below(u64::from(free.count_ones())) as u32;
        let mut bits = free;
        for _ in 0..k {
            bits &= bits - 1;
        }
        let p = bits & bits.wrapping_neg();
        chosen |= p;
        free &= !p;
    }
    chosen
}

/// A random previous step of `side` that a game could have left: one of
/// its pieces that has an empty neighbour it came from. `None` if no
/// piece has one.
fn random_last_step(rng: &mut Rng, setup: &Setup, side: Side) -> Option<LastStep> {
    let empty: u32 = (0..25)
        .filter(|&i| setup.board[i].is_none())
        .fold(0, |m, i| m | 1 << i);
    let steps: Vec<LastStep> = (0..25u8)
        .filter(|&i| setup.board[i as usize] == Some(side))
        .flat_map(|to| {
            Point::points_of(NEIGHBOURS[to as usize] & qi_core::Bitboard32(empty))
                .map(move |from| (from, to))
        })
        .filter_map(|(from, to)| {
            Some(LastStep {
                from,
                to: Point::new(to)?,
            })
        })
        .collect();
    (!steps.is_empty()).then(|| steps[rng.below(steps.len() as u64) as usize])
}

/// A random movement position of `first` against `second` pieces with
/// nothing owed. With
/// `steps`, the side that moved last (not the side to move) has a previous
/// step, and so does the side to move half the time: positions a game
/// reaches, which the strict reader takes and in which a shuttle ban
/// applies.
fn random_position(
    rng: &mut Rng,
    (first, second): (u32, u32),
    rules: &Rules,
    steps: bool,
) -> Option<FiveTigers> {
    let x = pick_points(rng, (1 << 25) - 1, first);
    let o = pick_points(rng, ((1 << 25) - 1) & !x, second);
    let mut setup = Setup::empty();
    for i in 0..25 {
        setup.board[i] = if x >> i & 1 == 1 {
            Some(Side::First)
        } else if o >> i & 1 == 1 {
            Some(Side::Second)
        } else {
            None
        };
    }
    setup.phase = Phase::Movement;
    let mover = if rng.below(2) == 0 {
        Side::First
    } else {
        Side::Second
    };
    setup.side_to_move = mover;
    setup.next = mover;
    if steps {
        let other = mover.opponent();
        setup.last_steps[other.index()] = random_last_step(rng, &setup, other);
        if rng.below(2) == 0 {
            setup.last_steps[mover.index()] = random_last_step(rng, &setup, mover);
        }
    }
    let pos = setup.into_position_lenient(*rules).ok()?;
    (pos.outcome().is_none()).then_some(pos)
}

/// `n` won positions of `materials`, a share in each band of distances
/// from `bands`, never the same position twice.
fn wins(
    tables: &LazyTablebase,
    rng: &mut Rng,
    materials: &[Material],
    n: usize,
    bands: &[(u32, u32)],
    strict: bool,
) -> Vec<(FiveTigers, u32)> {
    let rules = *tables.rules();
    let steps = strict || rules.shuttle != qi_five_tigers::Shuttle::Allowed;
    let mut picked: Vec<(FiveTigers, u32)> = Vec::new();
    for (b, &(lo, hi)) in bands.iter().enumerate() {
        let want = n / bands.len() + usize::from(b < n % bands.len());
        let mut found = 0;
        for _ in 0..2_000_000u64 {
            if found == want {
                break;
            }
            let m = materials[rng.below(materials.len() as u64) as usize];
            let Some(pos) = random_position(rng, (m.first, m.second), &rules, steps) else {
                continue;
            };
            let Ok(Some((Wdl::Win, d))) = tables.probe(&pos) else {
                continue;
            };
            if d < lo || d > hi || picked.iter().any(|(p, _)| *p == pos) {
                continue;
            }
            if strict && FiveTigers::from_text(&pos.to_string(), rules).is_err() {
                continue;
            }
            picked.push((pos, d));
            found += 1;
        }
    }
    picked
}

/// Whether the side to move of `pos` has a step forming a formation.
fn can_form(pos: &FiveTigers) -> bool {
    pos.legal_moves()
        .into_iter()
        .any(|mv| FiveTigersHooks::forms_formation(pos, mv))
}

/// 6-against-6 positions in which neither side can form a formation at
/// once and a 5-ply search is near equality.
fn balanced(rng: &mut Rng, rules: &Rules, n: usize) -> Vec<FiveTigers> {
    let eval = FiveTigersEval::default();
    let mut picked = Vec::new();
    while picked.len() < n {
        let Some(pos) = random_position(rng, (6, 6), rules, true) else {
            continue;
        };
        if FiveTigers::from_text(&pos.to_string(), *rules).is_err()
            || can_form(&pos)
            || FiveTigersHooks::must_answer(&pos)
        {
            continue;
        }
        // The same board with the other side to move and no previous
        // steps: can it form a formation at once?
        let mut other = pos.to_setup();
        other.side_to_move = other.side_to_move.opponent();
        other.next = other.side_to_move;
        other.last_steps = [None; 2];
        match other.into_position_lenient(*rules) {
            Ok(o) if !can_form(&o) && !FiveTigersHooks::must_answer(&o) => {}
            _ => continue,
        }
        let mut searcher =
            Searcher::with_hooks(FiveTigersKit::tuned_options(), FiveTigersHooks::default());
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

/// The process's resident memory now and at its peak, in MB (Linux).
fn memory_mb() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// Prints the cost of the first probe of each material, and a search with
/// and without tables.
fn load(dir: &Path, rules: &Rules) -> Result<(), String> {
    let tables = Arc::new(LazyTablebase::open(dir, rules).map_err(|e| e.to_string())?);
    let max = tables.max_pieces();
    let mut materials: Vec<Material> = Material::all_up_to(max)
        .into_iter()
        .filter(|m| tables.dir().join(format!("{m}.qft")).exists())
        .collect();
    materials.sort_by_key(|m| std::cmp::Reverse((m.total(), m.first)));
    let mut rng = Rng(0x243f_6a88_85a3_08d3);
    let steps = rules.shuttle != qi_five_tigers::Shuttle::Allowed;
    let mut example = None;
    for &m in materials.iter().take(4) {
        let pos =
            std::iter::repeat_with(|| random_position(&mut rng, (m.first, m.second), rules, steps))
                .flatten()
                .find(|p| matches!(tables.probe(p), Ok(Some((Wdl::Win, 10..)))))
                .ok_or("no position")?;
        // The probe above read the file: time the read of a fresh set.
        let fresh = LazyTablebase::open(dir, rules).map_err(|e| e.to_string())?;
        let (rss0, _) = memory_mb();
        let start = Instant::now();
        let value = fresh.probe(&pos).map_err(|e| e.to_string())?;
        let first = start.elapsed();
        let (rss1, peak) = memory_mb();
        let start = Instant::now();
        let rounds = 100_000;
        for _ in 0..rounds {
            std::hint::black_box(fresh.probe(std::hint::black_box(&pos)).ok());
        }
        println!(
            "{m}: first probe {:.2} s (+{} MB resident, peak {peak} MB), then {:.0} ns a probe; {pos}: {value:?}",
            first.as_secs_f64(),
            rss1.saturating_sub(rss0),
            start.elapsed().as_nanos() as f64 / f64::from(rounds),
        );
        drop(fresh);
        example.get_or_insert(pos);
    }
    let pos = example.ok_or("no table in the directory")?;
    for with in [true, false] {
        let hooks = FiveTigersHooks::default().with_tablebase(with.then(|| Arc::clone(&tables)));
        let mut searcher = Searcher::with_hooks(FiveTigersKit::tuned_options(), hooks);
        let mut game = Game::new(pos);
        let start = Instant::now();
        let result = searcher.search(
            &mut game,
            &FiveTigersEval::default(),
            Limits::nodes(20_000),
            &AtomicBool::new(false),
            |_| {},
        );
        println!(
            "search of {pos}, 20000 nodes, tables {}: score {}, {} nodes, {} table hits, {:.3} s",
            if with { "on " } else { "off" },
            result.score,
            result.nodes,
            result.tbhits,
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// Prints how long reading every table ahead takes.
fn read_ahead(dir: &Path, rules: &Rules) -> Result<(), String> {
    let tables = Arc::new(LazyTablebase::open(dir, rules).map_err(|e| e.to_string())?);
    let start = Instant::now();
    let hooks = FiveTigersHooks::default().with_tablebase_read_ahead(Some(Arc::clone(&tables)));
    while !hooks.tables_ready() {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let (rss, peak) = memory_mb();
    println!(
        "read ahead: {} tables in {:.1} s, {rss} MB resident, peak {peak} MB",
        tables.loaded(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run(args: &[String]) -> Result<(), String> {
    let usage =
        "usage: ft_tb_positions suite PRESET DIR N [5] | openings DIR NWIN NBAL [PRESET] | load PRESET DIR | read-ahead PRESET DIR";
    let number = |i: usize| -> Result<usize, String> {
        args.get(i)
            .ok_or(usage)?
            .parse()
            .map_err(|e| format!("bad number '{}': {e}", args[i]))
    };
    let preset = |i: usize| -> Result<Rules, String> {
        Rules::preset(args.get(i).ok_or(usage)?).map_err(|e| e.to_string())
    };
    let open = |dir: &str, rules: &Rules| {
        LazyTablebase::open(Path::new(dir), rules).map_err(|e| e.to_string())
    };
    let m = |first, second| Material { first, second };
    match args.first().map(String::as_str) {
        Some("suite") => {
            let rules = preset(1)?;
            let name = &args[1];
            let tables = open(args.get(2).ok_or(usage)?, &rules)?;
            let n = number(3)?;
            let five = args.get(4).map(String::as_str) == Some("5");
            let long_bands = vec![(10, 29), (30, 49), (50, 69), (70, 500)];
            let (materials, bands): (Vec<Material>, Vec<(u32, u32)>) =
                if rules.shuttle == qi_five_tigers::Shuttle::Allowed {
                    (vec![m(4, 4), m(5, 4), m(4, 5), m(5, 5)], long_bands)
                } else if five {
                    (
                        vec![m(4, 4), m(5, 3), m(3, 5), m(5, 4), m(4, 5), m(5, 5)],
                        long_bands,
                    )
                } else {
                    (
                        vec![m(3, 3), m(3, 2), m(2, 3)],
                        vec![(5, 14), (15, 24), (25, 500)],
                    )
                };
            // Only the materials with a file: a directory to 3 a side
            // without `3v3` still gives a suite of 3 against 2.
            let materials: Vec<Material> = materials
                .into_iter()
                .filter(|m| tables.dir().join(format!("{m}.qft")).exists())
                .collect();
            if materials.is_empty() {
                return Err(format!("none of the suite's materials is in {}", args[2]));
            }
            let list: Vec<String> = materials.iter().map(ToString::to_string).collect();
            println!("# Five Tigers ({name}) movement positions won by the side to move,");
            println!(
                "# materials {}, by the tables of `qi tb generate`: the position, then its value.",
                list.join(", ")
            );
            let five_arg = if five { " 5" } else { "" };
            println!("# Made by: cargo run --release -p qi-engine --example ft_tb_positions -- suite {name} DIR {n}{five_arg}");
            let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
            for (pos, d) in wins(&tables, &mut rng, &materials, n, &bands, false) {
                println!(
                    "{pos} # {} win in {d} plies",
                    Material::of(&pos).ok_or("material")?
                );
            }
        }
        Some("openings") => {
            let name = args.get(4).map_or("shandong-shuttle", String::as_str);
            let rules = Rules::preset(name).map_err(|e| e.to_string())?;
            let tables = open(args.get(1).ok_or(usage)?, &rules)?;
            let (nwin, nbal) = (number(2)?, number(3)?);
            println!(
                "# Five Tigers ({name}) endgame openings for `qi match` with and without tables:"
            );
            println!("# {nwin} positions of 4 or 5 pieces a side won by the side to move in 15 plies or more,");
            println!("# then {nbal} quiet positions of 6 pieces against 6 (each played with both colours).");
            println!("# Made by: cargo run --release -p qi-engine --example ft_tb_positions -- openings DIR {nwin} {nbal} {name}");
            let materials = [m(4, 4), m(5, 4), m(4, 5), m(5, 5), m(5, 3), m(3, 5)];
            let mut rng = Rng(0xd1b5_4a32_d192_ed03);
            for (pos, d) in wins(&tables, &mut rng, &materials, nwin, &[(15, 500)], true) {
                println!(
                    "# {} win in {d} plies for the side to move",
                    Material::of(&pos).ok_or("material")?
                );
                println!("{pos}");
            }
            let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
            for pos in balanced(&mut rng, &rules, nbal) {
                println!("{pos}");
            }
        }
        Some("load") => {
            let rules = preset(1)?;
            load(Path::new(args.get(2).ok_or(usage)?), &rules)?;
        }
        Some("read-ahead") => {
            let rules = preset(1)?;
            read_ahead(Path::new(args.get(2).ok_or(usage)?), &rules)?;
        }
        _ => return Err(usage.to_string()),
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ft_tb_positions: {e}");
            ExitCode::from(2)
        }
    }
}
