//! How a network's evaluation compares with the hand-written one, measured
//! on positions of short self-play from the built-in openings: the
//! evaluations' spread, their side-to-move bias, how much they swing from
//! one ply to the next, and the nodes a search needs to a fixed depth with
//! each (a badly scaled or noisy evaluation defeats the search's margins
//! and move ordering, so the same depth costs more nodes; node counts do
//! not depend on the machine's load).
//!
//! ```text
//! cargo run --release -p qi-engine --example nnue_compare -- \
//!     [--depth D] [--openings N] [--plies P] [--play-nodes N] \
//!     [--variant SPEC]... [--off FEATURE]... [--grain G]
//! ```
//!
//! The positions: from each of the first `--openings` built-in openings,
//! `--plies` plies of the hand-written evaluation playing itself at
//! `--play-nodes` nodes a move; each position is kept with that search's
//! score (the reference of the spread). The searches to `--depth` start
//! from the openings themselves.
//!
//! Evaluations compared: `hand` (the hand-written one), `net` (the
//! embedded network alone) and `profile` (the `nnue` profile: its
//! evaluation and its search parameters), then each `--variant`: a
//! comma-separated list of `net=FILE` (another network), `hand` (the
//! hand-written evaluation instead of a network), `den` (the
//! decided den races of the hand-written evaluation before the network),
//! `tempo=T` (the network's
//! side-to-move term replaced by the constant T, `Network::with_tempo`),
//! `mul=P` (the network's output times P %), `shift=C` (C centi-units
//! taken from the side to move), `blend=P` (P % of the network's value
//! and 100 − P % of the hand-written one's, as the `hybrid` profile
//! mixes them, `JungleEval::with_network_share`; after `net=` and
//! `tempo=`, which replace the evaluation), `params=nnue` (the `nnue` profile's
//! search parameters instead of the hand-written evaluation's),
//! `futility=M`, `lmp=SCALE%`, `aspiration=W` (one search parameter).
//!
//! `--off` turns one of the search's pruning features off for every
//! evaluation (`futility`, `lmp`, `lmr`, `aspiration`, `iir`, `quiescence`); `--grain G`
//! rounds every evaluation to multiples of `G` centi-units in the searches.

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use qi_core::{Evaluator, Position};
use qi_engine::arena::builtin_openings;
use qi_engine::jungle::nnue::{embedded, Network};
use qi_engine::jungle::{JungleEval, JungleHooks, EVAL_LIMIT};
use qi_engine::{EvalProfile, GameKit, JungleKit};
use qi_jungle::{Game, Jungle, Rules};
use qi_search::{Limits, SearchHooks, SearchOptions, SearchParams, Searcher};

struct Config {
    depth: u32,
    openings: usize,
    plies: usize,
    play_nodes: u64,
    variants: Vec<String>,
    options: SearchOptions,
    grain: i32,
}

/// One evaluation under test, with the search parameters it is searched
/// with.
struct Variant {
    name: String,
    eval: JungleEval,
    den: bool,
    mul: i32,
    shift: i32,
    grain: i32,
    params: SearchParams,
}

impl Evaluator<Jungle> for Variant {
    fn evaluate(&self, pos: &Jungle) -> i32 {
        if self.den {
            if let Some(v) = self.eval.den_race(pos) {
                return v;
            }
        }
        let v = self.eval.evaluate(pos) * self.mul / 100 - self.shift;
        let g = self.grain;
        ((v + g / 2).div_euclid(g) * g).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

const USAGE: &str = "usage: nnue_compare [--depth D] [--openings N] [--plies P] [--play-nodes N] [--variant SPEC]... [--off FEATURE]... [--grain G]";

fn parse(args: &[String]) -> Result<Config, String> {
    let mut it = args.iter();
    let mut c = Config {
        depth: 12,
        openings: 12,
        plies: 40,
        play_nodes: 2_000,
        variants: Vec::new(),
        options: JungleKit::tuned_options(),
        grain: 1,
    };
    while let Some(flag) = it.next() {
        let value = it
            .next()
            .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
        let number = || {
            value
                .parse::<usize>()
                .map_err(|e| format!("{flag} {value}: {e}"))
        };
        match flag.as_str() {
            "--depth" => c.depth = number()? as u32,
            "--openings" => c.openings = number()?,
            "--plies" => c.plies = number()?,
            "--play-nodes" => c.play_nodes = number()? as u64,
            "--variant" => c.variants.push(value.clone()),
            "--grain" => c.grain = number()?.max(1) as i32,
            "--off" => match value.as_str() {
                "futility" => c.options.futility = false,
                "lmp" => c.options.late_move_pruning = false,
                "lmr" => c.options.lmr = false,
                "aspiration" => c.options.aspiration = false,
                "iir" => c.options.iir = false,
                "quiescence" => c.options.quiescence = false,
                _ => {
                    return Err(format!(
                        "--off {value}: not a feature this example turns off"
                    ))
                }
            },
            _ => return Err(format!("unknown option {flag}\n{USAGE}")),
        }
    }
    Ok(c)
}

fn variant(spec: &str, grain: i32) -> Result<Variant, String> {
    let net = embedded().map_err(|e| e.to_string())?;
    let mut v = Variant {
        name: spec.to_string(),
        eval: JungleEval::default().with_network(net),
        den: false,
        mul: 100,
        shift: 0,
        grain,
        params: SearchParams::default(),
    };
    for part in spec.split(',').filter(|p| !p.is_empty()) {
        let (key, value) = part.split_once('=').unwrap_or((part, ""));
        let int = || {
            value
                .parse::<i32>()
                .map_err(|e| format!("--variant {part}: {e}"))
        };
        match key {
            "net" => {
                let net =
                    Network::from_file(std::path::Path::new(value)).map_err(|e| e.to_string())?;
                v.eval = JungleEval::default().with_network(Arc::new(net));
            }
            "hand" => v.eval = JungleEval::default(),
            "tempo" => {
                let net = v.eval.network().ok_or("tempo= needs a network")?;
                v.eval = JungleEval::default().with_network(Arc::new(net.with_tempo(int()?)));
            }
            "den" => v.den = true,
            "mul" => v.mul = int()?,
            "shift" => v.shift = int()?,
            "blend" => {
                let share = u8::try_from(int()?.clamp(0, 100)).unwrap_or(100);
                v.eval = v.eval.clone().with_network_share(share);
            }
            "params" if value == "nnue" => {
                v.params = JungleKit::hooks(EvalProfile::Nnue).search_params()
            }
            "futility" => v.params.futility_margin = int()?,
            "lmp" => {
                let pct = int()?;
                for m in v.params.lmp_moves.iter_mut() {
                    *m = *m * pct.max(0) as usize / 100;
                }
            }
            "aspiration" => v.params.aspiration_delta = int()?.max(1),
            _ => return Err(format!("--variant {part}: not a variant key")),
        }
    }
    Ok(v)
}

/// Positions of the hand-written evaluation playing itself from each
/// opening, each with its search's score.
fn self_play(c: &Config, openings: &[Jungle], stop: &AtomicBool) -> Vec<(Jungle, f64)> {
    let eval = JungleEval::default();
    let mut out = Vec::new();
    for o in openings {
        let mut searcher = Searcher::with_hooks(c.options, JungleHooks::default());
        let mut game = Game::new(*o);
        for _ in 0..c.plies {
            let r = searcher.search(&mut game, &eval, Limits::nodes(c.play_nodes), stop, |_| {});
            let Some(mv) = r.best_move else { break };
            out.push((*game.position(), f64::from(r.score.value())));
            if game.play(mv).is_err() || qi_core::Game::outcome(&game).is_some() {
                break;
            }
        }
    }
    out
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len().max(1) as f64
}

fn sd(x: &[f64]) -> f64 {
    let m = mean(x);
    (x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / x.len().max(1) as f64).sqrt()
}

/// The spread of `values` against the search `scores` (quiet positions:
/// scores short of a decided game).
fn spread(values: &[f64], scores: &[f64]) -> String {
    let (mv, ms) = (mean(values), mean(scores));
    let cov = values
        .iter()
        .zip(scores)
        .map(|(v, s)| (v - mv) * (s - ms))
        .sum::<f64>()
        / values.len().max(1) as f64;
    let abs: Vec<f64> = values.iter().map(|v| v.abs()).collect();
    format!(
        "sd {:.0}, mean |e| {:.0}, corr with the search score {:.3}",
        sd(values),
        mean(&abs),
        cov / (sd(values) * sd(scores))
    )
}

/// The side-to-move bias (a board's value plus that of the same board
/// with the other side to move: twice a tempo) and the swing from one
/// ply to the next (a position's value plus its successor's, over every
/// legal move).
fn swings(eval: &Variant, positions: &[Jungle]) -> String {
    let mut bias = Vec::new();
    let mut swing = Vec::new();
    for p in positions {
        let mut setup = p.to_setup();
        setup.side_to_move = setup.side_to_move.opponent();
        if let Ok(other) = Jungle::from_setup_lenient(setup, *p.rules()) {
            if eval.eval.den_race(p).is_none() && eval.eval.den_race(&other).is_none() {
                bias.push(f64::from(eval.evaluate(p) + eval.evaluate(&other)));
            }
        }
        let e = eval.evaluate(p);
        for mv in p.legal_moves() {
            if p.is_capture(mv) {
                continue;
            }
            let mut child = *p;
            child.play_unchecked(mv);
            if child.side_to_move() != p.side_to_move() {
                swing.push(f64::from(e + eval.evaluate(&child)));
            }
        }
    }
    let abs: Vec<f64> = swing.iter().map(|v| v.abs()).collect();
    format!(
        "side-to-move bias {:.1} (sd {:.0}); quiet-move swing {:.1}, mean |swing| {:.1}, sd {:.0}",
        mean(&bias),
        sd(&bias),
        mean(&swing),
        mean(&abs),
        sd(&swing)
    )
}

fn run(c: Config) -> Result<(), String> {
    let start = Jungle::new(Rules::standard());
    let mut openings = builtin_openings::<JungleKit>(&start).ok_or("no built-in openings")?;
    openings.truncate(c.openings);
    let stop = AtomicBool::new(false);
    let played = self_play(&c, &openings, &stop);
    let quiet: Vec<&(Jungle, f64)> = played.iter().filter(|(_, s)| s.abs() < 5_000.0).collect();
    let positions: Vec<Jungle> = quiet.iter().map(|(p, _)| *p).collect();
    let scores: Vec<f64> = quiet.iter().map(|(_, s)| *s).collect();
    println!(
        "{} positions of self-play ({} plies from {} openings at {} nodes), {} with a score short of a decided game",
        played.len(),
        c.plies,
        openings.len(),
        c.play_nodes,
        positions.len()
    );

    let hand = Variant {
        name: "hand".into(),
        eval: JungleEval::default(),
        den: false,
        mul: 100,
        shift: 0,
        grain: c.grain,
        params: JungleKit::hooks(EvalProfile::Default).search_params(),
    };
    let mut variants = vec![hand, variant("", c.grain)?];
    variants[1].name = "net".into();
    let profile = JungleKit::eval(EvalProfile::Nnue);
    variants.push(Variant {
        name: "profile".into(),
        eval: profile,
        den: false,
        mul: 100,
        shift: 0,
        grain: c.grain,
        params: JungleKit::hooks(EvalProfile::Nnue).search_params(),
    });
    for spec in &c.variants {
        variants.push(variant(spec, c.grain)?);
    }
    for v in &variants {
        let values: Vec<f64> = positions.iter().map(|p| f64::from(v.evaluate(p))).collect();
        println!(
            "{}: {}; {}",
            v.name,
            spread(&values, &scores),
            swings(v, &positions)
        );
    }
    let mut first: Vec<f64> = Vec::new();
    for v in &variants {
        let began = Instant::now();
        let counts: Vec<u64> = openings
            .iter()
            .map(|o| {
                let hooks = JungleHooks::default().with_search_params(v.params);
                let mut searcher = Searcher::with_hooks(c.options, hooks);
                let mut game = Game::new(*o);
                searcher
                    .search(&mut game, v, Limits::depth(c.depth), &stop, |_| {})
                    .nodes
            })
            .collect();
        let secs = began.elapsed().as_secs_f64();
        let nodes: u64 = counts.iter().sum();
        let logs: Vec<f64> = counts.iter().map(|&n| (n.max(1) as f64).ln()).collect();
        if first.is_empty() {
            first = logs.clone();
        }
        // Totals are dominated by the few openings whose tree explodes;
        // the geometric mean of the per-opening ratios is not.
        let ratio = mean(
            &logs
                .iter()
                .zip(&first)
                .map(|(a, b)| a - b)
                .collect::<Vec<_>>(),
        )
        .exp();
        let mut sorted = counts.clone();
        sorted.sort_unstable();
        println!(
            "{}: depth {} from {} openings: {nodes} nodes (median {}, geometric mean {:.0}, {ratio:.2} times hand's per opening), {secs:.1} s, {:.0} nodes/s",
            v.name,
            c.depth,
            openings.len(),
            sorted[sorted.len() / 2],
            mean(&logs).exp(),
            nodes as f64 / secs
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse(&args).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nnue_compare: {e}");
            ExitCode::FAILURE
        }
    }
}
