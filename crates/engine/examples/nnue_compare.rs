//! How a network's evaluation compares with the hand-written one: its
//! spread against the search scores of a data file, and the nodes a
//! search needs to a fixed depth with it (a noisy or badly scaled
//! evaluation defeats the search's pruning margins and move ordering, so
//! the same depth costs more nodes).
//!
//! ```text
//! cargo run --release -p qi-engine --example nnue_compare -- DATA.bin \
//!     [--net FILE]... [--positions N] [--depth D] [--openings N] [--off FEATURE]... [--grain G]
//! ```
//!
//! `--off` turns one of the search's pruning features off for every
//! evaluator (`futility`, `lmp`, `lmr`, `aspiration`, `iir`), to see which
//! of them the evaluation's scale interacts with; `--grain G` rounds every
//! evaluation to multiples of `G` centi-units in the searches (a finer
//! evaluation has fewer equal scores, so fewer cut-offs).
//!
//! The embedded network is always compared; each `--net` adds one.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use qi_core::{Evaluator, Side};
use qi_engine::arena::builtin_openings;
use qi_engine::jungle::nnue::data::{read_samples, Sample, FLAG_MATE, FLAG_TABLE, FLAG_TACTICAL};
use qi_engine::jungle::nnue::{embedded, Network};
use qi_engine::jungle::{JungleEval, JungleHooks};
use qi_engine::{GameKit, JungleKit};
use qi_jungle::{Animal, Game, Jungle, Piece, Rules, Setup, Square};
use qi_search::{Limits, SearchOptions, Searcher};

struct Config {
    data: PathBuf,
    nets: Vec<PathBuf>,
    positions: usize,
    depth: u32,
    openings: usize,
    options: SearchOptions,
    grain: i32,
}

/// An evaluation rounded to multiples of a grain, to see how much of a
/// search's size comes from scores differing by less than the grain.
struct Grained<'a>(&'a JungleEval, i32);

impl Evaluator<Jungle> for Grained<'_> {
    fn evaluate(&self, pos: &Jungle) -> i32 {
        let (v, g) = (self.0.evaluate(pos), self.1);
        (v + g / 2).div_euclid(g) * g
    }
}

fn parse(args: &[String]) -> Result<Config, String> {
    let mut it = args.iter();
    let data = it.next().ok_or(
        "usage: nnue_compare DATA.bin [--net FILE]... [--positions N] [--depth D] [--openings N] [--off FEATURE]... [--grain G]",
    )?;
    let mut c = Config {
        data: PathBuf::from(data),
        nets: Vec::new(),
        positions: 100_000,
        depth: 10,
        openings: 12,
        options: JungleKit::tuned_options(),
        grain: 1,
    };
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<usize>()
                .map_err(|e| format!("{flag} {value}: {e}"))
        };
        match flag.as_str() {
            "--net" => c.nets.push(PathBuf::from(value)),
            "--positions" => c.positions = number()?,
            "--depth" => c.depth = number()? as u32,
            "--openings" => c.openings = number()?,
            "--grain" => c.grain = number()?.max(1) as i32,
            "--off" => match value.as_str() {
                "futility" => c.options.futility = false,
                "lmp" => c.options.late_move_pruning = false,
                "lmr" => c.options.lmr = false,
                "aspiration" => c.options.aspiration = false,
                "iir" => c.options.iir = false,
                _ => {
                    return Err(format!(
                        "--off {value}: not a feature this example turns off"
                    ))
                }
            },
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(c)
}

fn position(s: &Sample) -> Result<Jungle, String> {
    let mut setup = Setup::empty();
    for (owner, squares) in [Side::First, Side::Second].into_iter().zip(s.squares) {
        for (i, sq) in squares.into_iter().enumerate() {
            if let (Some(square), Some(animal)) = (Square::new(sq), Animal::from_index(i)) {
                setup.board[square.index() as usize] = Some(Piece::new(owner, animal));
            }
        }
    }
    setup.side_to_move = if s.side == 0 {
        Side::First
    } else {
        Side::Second
    };
    Jungle::from_setup_lenient(setup, &Rules::standard()).map_err(|e| e.to_string())
}

/// Spread of `values` against the search `scores`: standard deviation,
/// mean absolute value, correlation, root mean square difference, and the
/// mean absolute value within bands of the score.
fn spread(name: &str, values: &[f64], scores: &[f64]) {
    let n = values.len() as f64;
    let mean = |x: &[f64]| x.iter().sum::<f64>() / n;
    let (mv, ms) = (mean(values), mean(scores));
    let cov = values
        .iter()
        .zip(scores)
        .map(|(v, s)| (v - mv) * (s - ms))
        .sum::<f64>()
        / n;
    let sd = |x: &[f64], m: f64| (x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / n).sqrt();
    let (sv, ss) = (sd(values, mv), sd(scores, ms));
    let rms = (values
        .iter()
        .zip(scores)
        .map(|(v, s)| (v - s) * (v - s))
        .sum::<f64>()
        / n)
        .sqrt();
    let abs = values.iter().map(|v| v.abs()).sum::<f64>() / n;
    print!("{name}: sd {sv:.0}, mean |e| {abs:.0}, corr {:.3}, rms to score {rms:.0}; mean |e| by |score|:", cov / (sv * ss));
    for (lo, hi) in [
        (0.0, 100.0),
        (100.0, 300.0),
        (300.0, 800.0),
        (800.0, 20_000.0),
    ] {
        let band: Vec<f64> = values
            .iter()
            .zip(scores)
            .filter(|(_, s)| s.abs() >= lo && s.abs() < hi)
            .map(|(v, _)| v.abs())
            .collect();
        print!(
            " {lo}-{hi}: {:.0}",
            band.iter().sum::<f64>() / band.len().max(1) as f64
        );
    }
    println!();
}

fn run(c: Config) -> Result<(), String> {
    let file = std::fs::File::open(&c.data).map_err(|e| format!("{}: {e}", c.data.display()))?;
    let samples = read_samples(std::io::BufReader::new(file)).map_err(|e| e.to_string())?;
    let quiet: Vec<&Sample> = samples
        .iter()
        .filter(|s| s.flags & (FLAG_TACTICAL | FLAG_MATE | FLAG_TABLE) == 0)
        .collect();
    let step = (quiet.len() / c.positions.max(1)).max(1);
    let picked: Vec<Jungle> = quiet
        .iter()
        .step_by(step)
        .map(|s| position(s))
        .collect::<Result<_, _>>()?;
    let scores: Vec<f64> = quiet
        .iter()
        .step_by(step)
        .map(|s| f64::from(s.score))
        .collect();
    let mut evals = vec![("hand-written".to_string(), JungleEval::default())];
    let net = embedded().map_err(|e| e.to_string())?;
    evals.push((
        "embedded network".to_string(),
        JungleEval::default().with_network(net),
    ));
    for path in &c.nets {
        let net = Network::from_file(path).map_err(|e| e.to_string())?;
        evals.push((
            path.display().to_string(),
            JungleEval::default().with_network(Arc::new(net)),
        ));
    }
    println!(
        "{} quiet positions of {} ({})",
        picked.len(),
        samples.len(),
        c.data.display()
    );
    for (name, eval) in &evals {
        let values: Vec<f64> = picked.iter().map(|p| f64::from(eval.evaluate(p))).collect();
        spread(name, &values, &scores);
    }
    let start = Jungle::new(Rules::standard());
    let mut openings = builtin_openings::<JungleKit>(&start).ok_or("no built-in openings")?;
    openings.truncate(c.openings);
    let stop = AtomicBool::new(false);
    for (name, eval) in &evals {
        let (mut nodes, began) = (0u64, Instant::now());
        for o in &openings {
            let mut searcher = Searcher::with_hooks(c.options, JungleHooks::default());
            let mut game = Game::new(*o);
            nodes += searcher
                .search(
                    &mut game,
                    &Grained(eval, c.grain),
                    Limits::depth(c.depth),
                    &stop,
                    |_| {},
                )
                .nodes;
        }
        let secs = began.elapsed().as_secs_f64();
        println!(
            "{name}: depth {} from {} openings: {nodes} nodes, {secs:.1} s, {:.0} nodes/s",
            c.depth,
            openings.len(),
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
