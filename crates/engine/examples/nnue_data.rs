//! Writes training data for the Jungle network (docs/nnue.md): qi plays
//! itself at a fixed node count from the built-in openings and the start
//! position, each followed by a few random plies, and every position after
//! them is stored with the search score and the game's result. With
//! `--tables DIR` (`qi tb generate DIR`) the search probes the tables, and
//! a game ends at its first position the tables decide, that position
//! stored with its exact value and the game scored by it.
//!
//! ```text
//! cargo run --release -p qi-engine --example nnue_data -- OUT.bin \
//!     [--positions N] [--nodes N] [--threads N] [--seed N] [--random-plies N] \
//!     [--minutes M] [--tables DIR] [--profile NAME]
//! ```
//!
//! `--profile` names the evaluation that plays and labels the games
//! (`hand`, the hand-written one, by default; `hybrid` is the network mixed
//! with it, try 6 of docs/nnue.md).

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use qi_core::{Game as _, Position, Side};
use qi_engine::arena::builtin_openings;
use qi_engine::jungle::nnue::data::{
    DataWriter, GameResult, Sample, FLAG_MATE, FLAG_TABLE, FLAG_TACTICAL, MATE_SCORE,
};
use qi_engine::jungle::{JungleEval, JungleHooks};
use qi_engine::{EvalProfile, GameKit, JungleKit};
use qi_jungle::{Game, Jungle, Rules};
use qi_search::{Limits, Searcher, TableValue};
use qi_tablebase::LazyTablebase;

const USAGE: &str = "usage: nnue_data OUT.bin [--positions N] [--nodes N] [--threads N] \
[--seed N] [--random-plies N] [--minutes M] [--tables DIR] [--profile NAME]";

/// Games longer than this are stopped and counted drawn.
const MAX_PLIES: usize = 400;

struct Config {
    out: PathBuf,
    positions: u64,
    nodes: u64,
    threads: usize,
    seed: u64,
    random_plies: u64,
    time: Duration,
    tables: Option<PathBuf>,
    profile: EvalProfile,
}

/// xorshift64*: a fixed sequence per thread, so that a run can be made
/// again (with one thread; several interleave their games by speed).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
}

fn parse(args: &[String]) -> Result<Config, String> {
    let mut it = args.iter();
    // An option first is a mistake (or a request for help), never the
    // name of the file to write: `--help` once made a file of that name.
    let out = match it.next() {
        None => return Err(format!("missing OUT\n{USAGE}")),
        Some(flag) if flag.starts_with('-') => {
            return Err(format!(
                "the first argument is OUT, got the option {flag}\n{USAGE}"
            ))
        }
        Some(out) => out.into(),
    };
    let mut c = Config {
        out,
        positions: 1_000_000,
        nodes: 2_000,
        threads: 1,
        seed: 1,
        random_plies: 8,
        time: Duration::from_secs(3600),
        tables: None,
        profile: EvalProfile::Hand,
    };
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<u64>()
                .map_err(|e| format!("{flag} {value}: {e}"))
        };
        match flag.as_str() {
            "--positions" => c.positions = number()?,
            "--nodes" => c.nodes = number()?,
            "--threads" => c.threads = number()?.max(1) as usize,
            "--seed" => c.seed = number()?,
            "--random-plies" => c.random_plies = number()?,
            "--minutes" => c.time = Duration::from_secs(60 * number()?),
            "--tables" => c.tables = Some(value.into()),
            "--profile" => c.profile = value.parse().map_err(|e| format!("--profile: {e}"))?,
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(c)
}

fn result_for(winner: Option<Side>, side: Side) -> GameResult {
    match winner {
        None => GameResult::Draw,
        Some(w) if w == side => GameResult::Win,
        Some(_) => GameResult::Loss,
    }
}

/// One self-play game from `start`: its positions, labelled.
fn play_game(
    start: Jungle,
    rng: &mut Rng,
    random_plies: u64,
    nodes: u64,
    searcher: &mut Searcher<Game, JungleHooks>,
    eval: &JungleEval,
) -> Vec<Sample> {
    let mut game = Game::new(start);
    for _ in 0..rng.below(random_plies + 1) {
        let moves = game.legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        game.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
    }
    searcher.clear();
    let never = AtomicBool::new(false);
    // (sample, side to move) until the result is known.
    let mut stored: Vec<(Sample, Side)> = Vec::new();
    let winner = loop {
        if let Some(outcome) = game.outcome() {
            break outcome.winner();
        }
        if game.ply() >= MAX_PLIES {
            break None;
        }
        let pos = *game.position();
        let side = pos.side_to_move();
        let squares = [
            pos.animal_squares(Side::First),
            pos.animal_squares(Side::Second),
        ];
        let mut sample = Sample {
            squares,
            side: u8::from(side == Side::Second),
            result: GameResult::Draw,
            flags: 0,
            score: 0,
            ply: game.ply().min(usize::from(u16::MAX)) as u16,
        };
        if let Some(value) = searcher.hooks().table_value(&game) {
            sample.flags = FLAG_TABLE;
            let winner = match value {
                TableValue::Win(_) => Some(side),
                TableValue::Loss(_) => Some(side.opponent()),
                TableValue::Draw => None,
            };
            sample.score = match value {
                TableValue::Win(_) => MATE_SCORE,
                TableValue::Loss(_) => -MATE_SCORE,
                TableValue::Draw => 0,
            };
            stored.push((sample, side));
            break winner;
        }
        let result = searcher.search(&mut game, eval, Limits::nodes(nodes), &never, |_| {});
        let Some(best) = result.best_move else {
            break game.outcome().and_then(|o| o.winner());
        };
        if result.score.is_mate() {
            sample.flags |= FLAG_MATE;
            sample.score = if result.score.value() > 0 {
                MATE_SCORE
            } else {
                -MATE_SCORE
            };
        } else {
            sample.score = result
                .score
                .value()
                .clamp(-i32::from(MATE_SCORE) + 1, i32::from(MATE_SCORE) - 1)
                as i16;
        }
        if pos.is_capture(best)
            || JungleHooks::is_den_move(&pos, best)
            || JungleHooks::den_attacked(&pos)
        {
            sample.flags |= FLAG_TACTICAL;
        }
        stored.push((sample, side));
        game.play_unchecked(best);
    };
    stored
        .into_iter()
        .map(|(mut s, side)| {
            s.result = result_for(winner, side);
            s
        })
        .collect()
}

fn run(c: Config) -> Result<(), String> {
    let rules = Rules::standard();
    let start = Jungle::new(rules);
    let mut openings = builtin_openings::<JungleKit>(&start).ok_or("no built-in openings")?;
    openings.push(start);
    let openings = Arc::new(openings);
    let tables = match &c.tables {
        Some(dir) => Some(Arc::new(
            LazyTablebase::open(dir, &rules).map_err(|e| e.to_string())?,
        )),
        None => None,
    };
    let file = File::create(&c.out).map_err(|e| format!("{}: {e}", c.out.display()))?;
    let mut writer = DataWriter::new(BufWriter::new(file)).map_err(|e| e.to_string())?;
    let stop = Arc::new(AtomicBool::new(false));
    let (send, receive) = mpsc::sync_channel::<Vec<Sample>>(64);
    let began = Instant::now();
    let workers: Vec<_> = (0..c.threads)
        .map(|t| {
            let (openings, tables, stop, send) =
                (openings.clone(), tables.clone(), stop.clone(), send.clone());
            let (nodes, random_plies, profile) = (c.nodes, c.random_plies, c.profile);
            let mut rng = Rng(c.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (t as u64 + 1));
            std::thread::spawn(move || {
                let hooks = JungleKit::hooks(profile).with_tablebase(tables);
                let mut searcher = Searcher::with_hooks(JungleKit::tuned_options(), hooks);
                let eval = JungleKit::eval(profile);
                while !stop.load(Ordering::Relaxed) {
                    let start = openings[rng.below(openings.len() as u64) as usize];
                    let samples =
                        play_game(start, &mut rng, random_plies, nodes, &mut searcher, &eval);
                    if send.send(samples).is_err() {
                        break;
                    }
                }
            })
        })
        .collect();
    drop(send);
    let (mut games, mut table_labels, mut last_report) = (0u64, 0u64, Instant::now());
    for samples in receive.iter() {
        games += 1;
        for s in &samples {
            table_labels += u64::from(s.flags & FLAG_TABLE != 0);
            writer.push(s).map_err(|e| e.to_string())?;
        }
        let done = writer.count() >= c.positions || began.elapsed() >= c.time;
        if done || last_report.elapsed() >= Duration::from_secs(30) {
            last_report = Instant::now();
            let secs = began.elapsed().as_secs_f64();
            eprintln!(
                "{:.0} s: {} positions ({:.0}/s), {games} games, {table_labels} labelled by tables",
                secs,
                writer.count(),
                writer.count() as f64 / secs
            );
        }
        if done {
            stop.store(true, Ordering::Relaxed);
            break;
        }
    }
    drop(receive);
    for w in workers {
        let _ = w.join();
    }
    let count = writer.count();
    writer.finish().map_err(|e| e.to_string())?;
    println!(
        "wrote {count} positions of {games} games to {} in {:.1} s",
        c.out.display(),
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    match parse(&args).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nnue_data: {e}");
            ExitCode::FAILURE
        }
    }
}
