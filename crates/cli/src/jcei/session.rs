//! The JCEI session: the protocol state (the engine of the current game,
//! the options, the running search or perft) answering one command line at
//! a time.
//!
//! A thread of its own reads the input ([`input`]), so `isready`, `stop`,
//! `jcei` and `quit` are answered while a search or a perft runs; other
//! commands wait for it to end, in order. Bad input is answered with
//! `info string error: ...` and never ends the process.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use clap::Args;
use qi_core::{Outcome, Side};
use qi_engine::options::{Overrides, MAX_HASH_MIB, MAX_MULTI_PV, MAX_THREADS, SWITCHES};
use qi_engine::strength::{StrengthOptions, ELO_DEFAULT, ELO_MAX, ELO_MIN};
use qi_engine::{
    engine_for, DynEngine, EngineEvent, EvalFileError, EvalProfile, Games, Registry, SpecError,
    TablebaseError,
};
use qi_search::{Clock, Limits, MAX_DEPTH, MAX_PERFT_DEPTH};

use super::input::{self, Input, MAX_LINE};
use super::parse::{self as jcei, Command, GoLimits};
use crate::error::CliError;
use crate::out::{self, outln};

const ENGINE_NAME: &str = concat!("qi ", env!("CARGO_PKG_VERSION"));

/// How often the session looks whether a running job has ended while no
/// input comes (commands waiting for it run then).
const POLL: Duration = Duration::from_millis(2);

/// How long the jobs asked for may still run once the input has ended;
/// then they are stopped (their answer is still printed).
const INPUT_END_GRACE: Duration = Duration::from_secs(5);

/// `qi engine` options.
#[derive(Args, Debug, Default)]
pub struct EngineArgs {
    /// The game and its rules at the start (`setoption name Variant`
    /// changes it).
    #[arg(long, value_name = "G", help = crate::games_help())]
    game: Option<String>,
    /// A directory of endgame tables (`qi tb generate`) of the game's rule
    /// set, probed at the root and in the search tree (Jungle `.qtb`, Five
    /// Tigers `.qft` files). The same as `setoption name
    /// TablebasePath value DIR` at start.
    #[arg(long, value_name = "DIR")]
    tablebase: Option<PathBuf>,
    /// Answer every `go` with a uniformly random legal move (a baseline
    /// for rating the levels: `docs/levels.md`); `setoption name Seed`
    /// makes the sequence reproducible.
    #[arg(long)]
    random: bool,
}

/// `qi engine [--game G] [--tablebase DIR]`
pub fn run(args: EngineArgs) -> Result<(), CliError> {
    let chosen = args.game.is_some();
    let spec = args.game.unwrap_or_else(Games::default_spec);
    let mut session = Session::new(&spec)?;
    session.random = args.random.then_some(session.seed);
    if !chosen {
        session.configure_from_environment();
    }
    if let Some(dir) = &args.tablebase {
        // Checked before the first command: a bad directory ends the
        // engine at once rather than leaving it to play without tables.
        session
            .set_tablebase(Some(dir))
            .map_err(|e| CliError::Tablebase(format!("bad --tablebase: {e}")))?;
    }
    session.serve(&input::spawn(std::io::stdin()));
    Ok(())
}

/// The environment variable naming the game at start.
const VARIANT_VARIABLE: &str = "QI_VARIANT";

/// The settings file looked for beside the binary.
const CONFIG_FILE: &str = "qi.conf";

/// The first `qi.conf` found beside the binary: beside the path it was
/// started by (a GUI's `engine/jungle` link), then beside the file that
/// path resolves to. Its path and bytes (read line by line, so that one
/// line that is not UTF-8 costs only that line).
fn config_file() -> Option<(PathBuf, Vec<u8>)> {
    let started_as = std::env::args_os().next().map(PathBuf::from);
    let resolved = std::env::current_exe().ok();
    [started_as, resolved]
        .into_iter()
        .flatten()
        .filter_map(|exe| {
            // `qi` found on the PATH has no directory of its own: its
            // parent is empty, and the working directory is not the place.
            let dir = exe.parent().filter(|dir| !dir.as_os_str().is_empty())?;
            Some(dir.join(CONFIG_FILE))
        })
        .find_map(|path| {
            let bytes = std::fs::read(&path).ok()?;
            Some((path, bytes))
        })
}

/// Prints a search's reports as protocol lines.
fn print_event(event: EngineEvent) {
    match event {
        EngineEvent::Info(line) => outln!("{line}"),
        EngineEvent::BestMove(Some(mv)) => outln!("bestmove {mv}"),
        // UCI's null move, which GUIs read as "no move".
        EngineEvent::BestMove(None) => outln!("bestmove 0000"),
    }
}

/// The `info string result` line of a finished game.
fn print_result(outcome: Outcome) {
    let score = outcome.score_text();
    match outcome {
        Outcome::Win { reason, .. } => outln!("info string result {score} {reason}"),
        Outcome::Draw(reason) => outln!("info string result {score} {reason}"),
    }
}

/// Whether `command` starts a search or a perft.
fn starts_job(command: &Command) -> bool {
    matches!(command, Command::Go(_) | Command::Perft(_))
}

/// A search or perft running on its own thread.
struct Job {
    handle: JoinHandle<()>,
    stop: Arc<AtomicBool>,
    /// A search that only `stop` ends (`go infinite`, a `go` without a
    /// usable limit): stopped, not waited for, when the input ends.
    until_stop: bool,
}

/// The protocol state: the variant, the options and the running job.
struct Session {
    spec: String,
    eval_profile: EvalProfile,
    variant: Box<dyn DynEngine>,
    overrides: Overrides,
    job: Option<Job>,
    /// Commands that came during a job, run in order once it has ended.
    waiting: VecDeque<Command>,
    /// `TablebasePath`, given again to each new engine (`Variant`).
    tablebase_dir: Option<PathBuf>,
    /// `EvalFile`, given again to each new engine (`Variant`,
    /// `EvalProfile`).
    eval_file: Option<PathBuf>,
    /// `Level`, `LimitStrength`, `Elo`, `Seed`: given again to each new
    /// engine.
    strength: StrengthOptions,
    /// The seed in use (`Seed`, or one drawn at start).
    seed: u64,
    /// `--random`: the state of the random mover's sequence.
    random: Option<u64>,
}

fn error(message: impl std::fmt::Display) {
    outln!("info string error: {message}");
}

/// Gives `engine` the network of `file` (`EvalFile`); a game without a
/// network goes on without, as one without tables does (`TablebasePath`).
fn give_eval_file(
    engine: &mut dyn DynEngine,
    file: Option<&std::path::Path>,
) -> Result<(), String> {
    match engine.set_eval_file(file) {
        Ok(()) | Err(EvalFileError::Unsupported { .. }) => Ok(()),
        Err(e) => Err(format!("EvalFile: {e}")),
    }
}

impl Session {
    /// Waits until the engine's tables are read ahead, saying every
    /// second that it is reading them (a peer that waits for `readyok`
    /// hears that the engine is alive).
    fn wait_for_tables(&self) {
        let start = std::time::Instant::now();
        let mut said = 0;
        while !self.variant.tables_ready() {
            std::thread::sleep(std::time::Duration::from_millis(20));
            let seconds = start.elapsed().as_secs();
            if seconds > said {
                said = seconds;
                outln!("info string reading the tables ({seconds} s)");
            }
        }
    }

    fn new(spec: &str) -> Result<Session, CliError> {
        let overrides = Overrides::default();
        let eval_profile = EvalProfile::default();
        Ok(Session {
            variant: engine_for::<Games>(spec, eval_profile, &overrides)?,
            spec: spec.to_string(),
            eval_profile,
            overrides,
            job: None,
            waiting: VecDeque::new(),
            tablebase_dir: None,
            eval_file: None,
            strength: StrengthOptions::default(),
            seed: qi_engine::strength::random_seed(),
            random: None,
        })
    }

    /// Probes the tables of `dir` at the root and in the tree (`None`:
    /// none). On error the tables in use are kept.
    /// Returns the number of table files found, as
    /// [`attach_tablebase`](Session::attach_tablebase) does.
    fn set_tablebase(&mut self, dir: Option<&std::path::Path>) -> Result<usize, String> {
        let found = self.attach_tablebase(dir)?;
        self.tablebase_dir = dir.map(|d| d.to_path_buf());
        Ok(found)
    }

    /// Gives the engine of the current game the tables of `dir` for its
    /// tree search (Jungle reads the `.qtb` files, Five Tigers the `.qft`
    /// files); a game without tables searches without. Returns the number
    /// of the game's table files in `dir` (0 for a game without tables).
    fn attach_tablebase(&mut self, dir: Option<&std::path::Path>) -> Result<usize, String> {
        match self.variant.set_tablebase(dir) {
            Ok(found) => Ok(found),
            Err(TablebaseError::Unsupported { .. }) => Ok(0),
            Err(e) => Err(format!("TablebasePath: {e}")),
        }
    }

    /// Applies the settings of a GUI that starts the engine without
    /// arguments (docs/protocol.md): the file `qi.conf` beside the binary,
    /// then `QI_VARIANT`. Errors are reported and the engine goes on.
    fn configure_from_environment(&mut self) {
        if let Some((path, bytes)) = config_file() {
            for (n, line) in bytes.split(|&b| b == b'\n').enumerate() {
                let Ok(line) = std::str::from_utf8(line) else {
                    error(format_args!(
                        "{}:{}: the line is not UTF-8 text; ignored",
                        path.display(),
                        n + 1
                    ));
                    continue;
                };
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                let result = match line.split_once('=') {
                    Some((name, value)) => self.set_option(name.trim(), Some(value.trim())),
                    None => Err("expected 'NAME = VALUE'".to_string()),
                };
                if let Err(e) = result {
                    error(format_args!("{}:{}: {e}", path.display(), n + 1));
                }
            }
        }
        if let Some(variant) = std::env::var_os(VARIANT_VARIABLE) {
            let variant = variant.to_string_lossy();
            if let Err(e) = self.set_option("Variant", Some(&variant)) {
                error(format_args!("{VARIANT_VARIABLE}: {e}"));
            }
        }
    }

    /// Answers the input until `quit` or its end.
    fn serve(&mut self, input: &Receiver<Input>) {
        loop {
            self.run_waiting();
            let next = if self.job.is_some() {
                match input.recv_timeout(POLL) {
                    Ok(next) => next,
                    Err(RecvTimeoutError::Timeout) => continue,
                    Err(RecvTimeoutError::Disconnected) => Input::End,
                }
            } else {
                input.recv().unwrap_or(Input::End)
            };
            match next {
                Input::Line(line) => {
                    if !self.handle(&line) {
                        // `quit`: a running job ends with the process.
                        return;
                    }
                }
                Input::NotUtf8 => error("the line is not UTF-8 text; ignored"),
                Input::TooLong => error(format_args!(
                    "the line is longer than {MAX_LINE} bytes; ignored"
                )),
                Input::End => break,
            }
        }
        // The input has ended: what was asked is still answered, but a
        // search that only `stop` ends is stopped, and no job runs longer
        // than INPUT_END_GRACE after the end (`go depth 100`, a huge
        // movetime): a GUI that died cannot stop its engine any more.
        let deadline = Instant::now() + INPUT_END_GRACE;
        loop {
            self.pass_on_stop();
            if let Some(job) = self.job.take() {
                if job.until_stop {
                    job.stop.store(true, Ordering::Relaxed);
                }
                while !job.handle.is_finished() && Instant::now() < deadline {
                    thread::sleep(POLL);
                }
                job.stop.store(true, Ordering::Relaxed);
                let _ = job.handle.join();
            }
            let Some(command) = self.waiting.pop_front() else {
                break;
            };
            self.handle_idle(command);
        }
    }

    /// Once the job has ended, runs the commands that waited for it (until
    /// one of them starts a job again).
    fn run_waiting(&mut self) {
        loop {
            self.pass_on_stop();
            if self
                .job
                .as_ref()
                .is_some_and(|job| !job.handle.is_finished())
            {
                break;
            }
            if let Some(job) = self.job.take() {
                let _ = job.handle.join();
            }
            let Some(command) = self.waiting.pop_front() else {
                break;
            };
            self.handle_idle(command);
        }
    }

    /// Whether a waiting command starts a job.
    fn job_waits(&self) -> bool {
        self.waiting.iter().any(starts_job)
    }

    /// A waiting `stop` with no `go` or `perft` ahead of it is meant for
    /// the running job (the one that came before it): it stops it now,
    /// even with other commands (`d`) still ahead of it in the queue,
    /// which would otherwise wait for that job forever.
    fn pass_on_stop(&mut self) {
        let Some(at) = self.waiting.iter().position(|c| *c == Command::Stop) else {
            return;
        };
        if self.waiting.iter().take(at).any(starts_job) {
            return;
        }
        self.waiting.remove(at);
        self.stop_job();
    }

    /// Raises the running job's stop flag; its answer follows.
    fn stop_job(&self) {
        if let Some(job) = &self.job {
            job.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Handles one line; returns `false` on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let command = match jcei::parse(line) {
            Ok(command) => command,
            Err(jcei::ParseError::Empty) => return true,
            Err(e) => {
                error(e);
                return true;
            }
        };
        match command {
            Command::Quit => return false,
            // Behind a waiting `go` or `perft`, `stop` is meant for the job
            // that starts: it waits its turn (a piped script's order).
            Command::Stop if self.job_waits() => self.waiting.push_back(Command::Stop),
            Command::Stop => self.stop_job(),
            Command::IsReady => {
                // Idle, `isready` is the sync after the options: it waits
                // for the tables being read ahead (a search would probe
                // none yet). During a job it answers at once.
                if self.job.is_none() && self.waiting.is_empty() {
                    self.wait_for_tables();
                }
                outln!("readyok")
            }
            Command::Jcei => self.identify(),
            other if self.job.is_some() || !self.waiting.is_empty() => {
                self.waiting.push_back(other);
            }
            other => self.handle_idle(other),
        }
        true
    }

    fn identify(&self) {
        outln!("id name {ENGINE_NAME}");
        outln!("id author the qi developers");
        // The defaults a GUI sees are the current game's tuned options.
        let d = self.variant.tuned_options();
        outln!(
            "option name Hash type spin default {} min 0 max {MAX_HASH_MIB}",
            d.hash_mib
        );
        outln!(
            "option name Threads type spin default {} min 1 max {MAX_THREADS}",
            d.threads
        );
        let specs = Games::preset_specs();
        outln!(
            "option name Variant type combo default {} var {}",
            Games::default_spec(),
            specs.join(" var ")
        );
        let profiles: Vec<&str> = EvalProfile::ALL.iter().map(|p| p.name()).collect();
        outln!("option name TablebasePath type string default <empty>");
        outln!("option name EvalFile type string default <empty>");
        outln!(
            "option name MultiPV type spin default {} min 1 max {MAX_MULTI_PV}",
            d.multi_pv
        );
        outln!(
            "option name Level type spin default {} min 1 max {}",
            qi_search::Level::FULL,
            qi_search::Level::COUNT
        );
        outln!("option name LimitStrength type check default false");
        outln!("option name Elo type spin default {ELO_DEFAULT} min {ELO_MIN} max {ELO_MAX}");
        outln!("option name Seed type string default random");
        outln!(
            "option name EvalProfile type combo default {} var {}",
            EvalProfile::default(),
            profiles.join(" var ")
        );
        for (name, field) in SWITCHES {
            let mut options = d;
            outln!(
                "option name {name} type check default {}",
                field(&mut options)
            );
        }
        outln!("jceiok");
    }

    fn handle_idle(&mut self, command: Command) {
        match command {
            Command::NewGame => {
                self.variant.new_game();
                // Each game replays the set seed's choices, or makes new
                // ones when none is set.
                if self.strength.seed.is_none() {
                    self.seed = qi_engine::strength::random_seed();
                }
                self.apply_strength();
                if self.random.is_some() {
                    self.random = Some(self.seed);
                }
            }
            Command::Position { fen, moves } => {
                if let Err(e) = self.variant.set_position(fen.as_deref(), &moves) {
                    error(e);
                }
            }
            Command::Go(go) => self.go(&go),
            Command::SetOption { name, value } => {
                if let Err(e) = self.set_option(&name, value.as_deref()) {
                    error(e);
                }
            }
            Command::Display => out::text(format_args!("{}", self.variant.board())),
            Command::Perft(depth) => self.perft(depth),
            Command::Moves => {
                // The form the existing JCEI GUI parses: it takes what
                // follows the colon.
                let list = self.variant.moves();
                outln!("Legal moves ({}): {}", list.len(), list.join(" "));
            }
            Command::Eval => outln!("info string eval cp {}", self.variant.eval()),
            Command::Jcei | Command::IsReady | Command::Stop | Command::Quit => {}
        }
    }

    fn go(&mut self, go: &GoLimits) {
        if let Some(depth) = go.depth.filter(|&d| d > MAX_DEPTH) {
            return error(format_args!(
                "go: depth {depth} is beyond the supported maximum {MAX_DEPTH}"
            ));
        }
        if let Some(outcome) = self.variant.outcome() {
            // A finished game has no move to search; the GUI learns why.
            print_result(outcome);
            outln!("bestmove 0000");
            return;
        }
        if let Some(state) = &mut self.random {
            let moves = self.variant.moves();
            let (next, value) = qi_core::zobrist::splitmix64(*state);
            *state = next;
            // `value % len` leans to the first moves by under 2^-58.
            let mv = &moves[(value % moves.len() as u64) as usize];
            outln!("info depth 0 score cp 0 nodes 0 pv {mv}");
            outln!("bestmove {mv}");
            return;
        }
        let limits = self.limits(go);
        let stop = Arc::new(AtomicBool::new(false));
        let handle = self
            .variant
            .go(limits, Arc::clone(&stop), Box::new(print_event));
        self.job = Some(Job {
            handle,
            stop,
            until_stop: limits.infinite,
        });
    }

    fn perft(&mut self, depth: u32) {
        if depth > MAX_PERFT_DEPTH {
            return error(format_args!(
                "perft: depth {depth} is beyond the supported maximum {MAX_PERFT_DEPTH}"
            ));
        }
        let task = self.variant.perft_task();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let handle = thread::spawn(move || {
            let start = Instant::now();
            let nodes = task(depth, &flag);
            let ms = start.elapsed().as_millis();
            let stopped = if flag.load(Ordering::Relaxed) {
                " stopped"
            } else {
                ""
            };
            outln!("info string perft {depth} nodes {nodes} time {ms}{stopped}");
            outln!("total: {nodes}");
        });
        self.job = Some(Job {
            handle,
            stop,
            until_stop: false,
        });
    }

    /// Turns a `go` command into search limits; the search turns the
    /// clock into a time budget for the side to move. Without a limit it
    /// can use (a bare `go`, only the other side's clock, only
    /// increments) the search runs until `stop`, as with `go infinite`.
    fn limits(&self, go: &GoLimits) -> Limits {
        let mut clock = Clock::default();
        clock.time = [go.wtime, go.btime];
        clock.inc = [go.winc, go.binc];
        clock.movestogo = go.movestogo;
        let own_time = match self.variant.side_to_move() {
            Side::First => go.wtime,
            Side::Second => go.btime,
        };
        let limited =
            go.depth.is_some() || go.nodes.is_some() || go.movetime.is_some() || own_time.is_some();
        let mut limits = Limits::default()
            .with_infinite(go.infinite || !limited)
            .with_clock(clock);
        limits.depth = go.depth;
        limits.nodes = go.nodes;
        limits.movetime = go.movetime;
        limits
    }

    /// Gives the engine the level the strength options ask for under its
    /// game's ratings, its choices following the seed.
    fn apply_strength(&mut self) {
        let level = self.strength.level_for(&self.variant.strength_scale());
        self.variant.set_strength(level, self.seed);
    }

    /// Frees the transposition table before a new engine allocates its
    /// own, so memory never holds both.
    fn release_table(&mut self) {
        let mut options = self.variant.options();
        options.hash_mib = 0;
        // A table of 0 MiB allocates nothing, so cannot fail.
        let _ = self.variant.configure(options);
    }

    /// A new engine for `spec` and `profile` in place of the current one,
    /// with the tables of `TablebasePath`; on error the current one is
    /// kept, with its options (its transposition table made again, empty).
    /// The old table is freed before the new engine allocates its own, so
    /// memory never holds both.
    fn replace_engine(&mut self, spec: &str, profile: EvalProfile) -> Result<(), String> {
        let kept = self.variant.options();
        self.release_table();
        let made = engine_for::<Games>(spec, profile, &self.overrides)
            .map_err(|e| match e {
                SpecError::Profile { .. } => format!("EvalProfile: {e}"),
                SpecError::TableAlloc(_) => format!("Hash: {e}"),
                _ => format!("Variant: {e}"),
            })
            .and_then(
                |mut engine| match engine.set_tablebase(self.tablebase_dir.as_deref()) {
                    Ok(_) | Err(TablebaseError::Unsupported { .. }) => Ok(engine),
                    Err(e) => Err(format!("TablebasePath: {e}")),
                },
            )
            .and_then(|mut engine| {
                give_eval_file(engine.as_mut(), self.eval_file.as_deref()).map(|()| engine)
            });
        match made {
            Ok(engine) => {
                self.variant = engine;
                self.apply_strength();
                Ok(())
            }
            Err(e) => {
                // The new engine, and its table, are gone by now.
                match self.variant.configure(kept) {
                    Ok(()) => Err(e),
                    Err(table) => Err(format!("{e} ({table})")),
                }
            }
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let value =
            value.ok_or_else(|| format!("option '{}' needs a value", qi_core::Escaped(name)))?;
        match name.to_ascii_lowercase().as_str() {
            "variant" => {
                let spec = Games::canonical(value).map_err(|e| format!("Variant: {e}"))?;
                self.replace_engine(&spec, self.eval_profile)?;
                self.spec = spec;
            }
            "tablebasepath" => match value {
                "" | "<empty>" => {
                    self.set_tablebase(None)?;
                }
                dir => {
                    // As Stockfish tells of a SyzygyPath: the user sees at
                    // once whether the directory holds the tables meant.
                    let found = self.set_tablebase(Some(std::path::Path::new(dir)))?;
                    outln!("info string Found {found} tablebases");
                }
            },
            "evalfile" => {
                let file = match value {
                    "" | "<empty>" => None,
                    file => Some(PathBuf::from(file)),
                };
                give_eval_file(self.variant.as_mut(), file.as_deref())?;
                self.eval_file = file;
            }
            "evalprofile" => {
                let profile: EvalProfile = value.parse().map_err(|_| {
                    let known: Vec<&str> = EvalProfile::ALL.iter().map(|p| p.name()).collect();
                    format!(
                        "unknown EvalProfile '{}' (known: {})",
                        qi_core::Escaped(value),
                        known.join(", ")
                    )
                })?;
                let spec = self.spec.clone();
                self.replace_engine(&spec, profile)?;
                self.eval_profile = profile;
            }
            _ if self.strength.set(name, value).map_err(|e| e.to_string())? => {
                if name.eq_ignore_ascii_case("seed") {
                    self.seed = self.strength.seed_or_random();
                    if self.random.is_some() {
                        self.random = Some(self.seed);
                    }
                }
                self.apply_strength();
            }
            _ => {
                let mut overrides = self.overrides.clone();
                overrides.set(name, value).map_err(|e| e.to_string())?;
                let options = overrides.applied_to(self.variant.tuned_options());
                self.variant
                    .configure(options)
                    .map_err(|e| format!("{name}: {e}"))?;
                self.overrides = overrides;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_engine::{FiveTigersKit, GameKit, JungleKit};

    #[test]
    fn an_option_that_fails_changes_nothing() {
        let dir = std::env::temp_dir().join(format!("qi-session-gone-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut session = Session::new("jungle").unwrap();
        session.set_option("Hash", Some("1")).unwrap();
        session
            .set_option("TablebasePath", Some(dir.to_str().unwrap()))
            .unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        // The directory has gone: the new game cannot have its tables.
        let e = session
            .set_option("Variant", Some("five-tigers:ten"))
            .unwrap_err();
        assert!(e.starts_with("TablebasePath: "), "{e}");
        assert_eq!(session.spec, "jungle");
        assert_eq!(session.variant.spec(), "jungle:standard");
        assert_eq!(session.variant.options().hash_mib, 1, "the table is kept");
        let e = session
            .set_option("EvalProfile", Some("material"))
            .unwrap_err();
        assert!(e.starts_with("TablebasePath: "), "{e}");
        assert_eq!(session.eval_profile, EvalProfile::default());
        // Without tables the change applies, with the options set.
        session.set_option("TablebasePath", Some("")).unwrap();
        session
            .set_option("Variant", Some("five-tigers:ten"))
            .unwrap();
        assert_eq!(session.variant.spec(), "five-tigers:ten");
        assert_eq!(session.variant.options().hash_mib, 1);
    }

    #[test]
    fn a_refused_eval_file_keeps_the_file_and_network_in_use() {
        let dir = std::env::temp_dir().join(format!("qi-session-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.nnue");
        std::fs::write(&good, qi_engine::jungle::nnue::EMBEDDED_BYTES).unwrap();
        let cut = dir.join("cut.nnue");
        std::fs::write(&cut, &qi_engine::jungle::nnue::EMBEDDED_BYTES[..1000]).unwrap();
        let mut session = Session::new("jungle").unwrap();
        session.set_option("EvalProfile", Some("nnue")).unwrap();
        session
            .set_option("EvalFile", Some(good.to_str().unwrap()))
            .unwrap();
        let value = session.variant.eval();
        let e = session
            .set_option("EvalFile", Some(cut.to_str().unwrap()))
            .unwrap_err();
        assert!(
            e.starts_with(&format!("EvalFile: {}: ", cut.display())),
            "{e}"
        );
        assert!(e.contains("1000 bytes"), "{e}");
        assert_eq!(session.eval_file.as_deref(), Some(good.as_path()));
        assert_eq!(session.variant.eval(), value);
        // A new profile re-reads the kept file: gone, it is refused and
        // the profile stays.
        std::fs::remove_dir_all(&dir).unwrap();
        let e = session
            .set_option("EvalProfile", Some("default"))
            .unwrap_err();
        assert!(e.starts_with("EvalFile: "), "{e}");
        assert_eq!(session.eval_profile, EvalProfile::Nnue);
        assert_eq!(session.variant.eval(), value);
    }

    #[test]
    fn a_session_starts_each_game_from_its_tuned_options() {
        let mut session = Session::new("jungle").unwrap();
        let jungle = session.variant.tuned_options();
        session
            .set_option("Variant", Some("five-tigers:ten"))
            .unwrap();
        let five_tigers = session.variant.tuned_options();
        assert_eq!(five_tigers, FiveTigersKit::tuned_options());
        assert_eq!(jungle, JungleKit::tuned_options());
        assert_ne!(five_tigers, jungle, "Five Tigers has its own switches");
        assert!(session.set_option("IIR", Some("sometimes")).is_err());
        assert!(session.overrides.entries().is_empty());
        session.set_option("iir", Some("true")).unwrap();
        assert_eq!(
            session.overrides.entries(),
            &[("iir".to_string(), "true".to_string())]
        );
        session.set_option("LMR", Some("false")).unwrap();
        session.set_option("Variant", Some("jungle:datou")).unwrap();
        let options = session.variant.options();
        assert!(
            options.iir && !options.lmr,
            "overrides survive a change of game"
        );
    }
}
