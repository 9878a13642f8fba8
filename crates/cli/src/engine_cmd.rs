//! `qi engine`: the JCEI protocol (`../shared/rules/jungle.md` section 8)
//! on stdin/stdout, for both games.
//!
//! The main thread reads commands; `go` runs the search on a worker thread,
//! so `stop`, `isready` and `quit` are answered while it thinks. Bad input
//! is answered with `info string error: ...` and never ends the process.

use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use qi_core::{Evaluator, Game, Position, Side};
use qi_search::{Limits, MoveOf, SearchHooks, SearchOptions, Searcher};

use crate::args::Args;
use crate::error::CliError;
use crate::game_spec::GameSpec;
use crate::jcei::{self, Command, GoLimits};
use crate::render;

const ENGINE_NAME: &str = concat!("qi ", env!("CARGO_PKG_VERSION"));
const MAX_HASH_MIB: usize = 4096;
const MAX_THREADS: usize = 64;

/// `qi engine [--game G]`
pub fn run(argv: &[String]) -> Result<(), CliError> {
    let args = Args::parse(argv, &["game"], &[])?;
    if let Some(extra) = args.positionals.first() {
        return Err(CliError::Usage(format!(
            "engine takes no argument '{extra}'"
        )));
    }
    let spec = GameSpec::from_args(&args)?;
    let mut session = Session::new(spec);
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if !session.handle(&line) {
            break;
        }
    }
    session.stop_search();
    Ok(())
}

/// One game's engine state, behind an object-safe interface so a
/// `setoption name Variant` can switch games.
trait Variant: Send {
    fn new_game(&mut self);
    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), String>;
    fn board(&self) -> String;
    fn perft(&self, depth: u32) -> u64;
    fn moves(&self) -> Vec<String>;
    fn eval(&self) -> i32;
    fn configure(&mut self, options: SearchOptions);
    fn side_to_move(&self) -> Side;
    fn go(&mut self, limits: Limits, stop: Arc<AtomicBool>) -> JoinHandle<()>;
}

struct VariantState<G: Game, E, H: SearchHooks<G>> {
    start: G::Position,
    game: G,
    make_game: fn(G::Position) -> G,
    eval: Arc<E>,
    searcher: Arc<Mutex<Searcher<G, H>>>,
    draw: fn(&G::Position, bool) -> String,
}

impl<G, E, H> VariantState<G, E, H>
where
    G: Game,
    H: SearchHooks<G>,
{
    fn new(
        start: G::Position,
        make_game: fn(G::Position) -> G,
        eval: E,
        hooks: H,
        options: SearchOptions,
        draw: fn(&G::Position, bool) -> String,
    ) -> Self {
        VariantState {
            game: make_game(start.clone()),
            start,
            make_game,
            eval: Arc::new(eval),
            searcher: Arc::new(Mutex::new(Searcher::with_hooks(options, hooks))),
            draw,
        }
    }
}

impl<G, E, H> Variant for VariantState<G, E, H>
where
    G: Game + Send + 'static,
    G::Position: Send + Sync,
    MoveOf<G>: Send + Sync,
    E: Evaluator<G::Position> + Send + Sync + 'static,
    H: SearchHooks<G> + Send + Sync + 'static,
{
    fn new_game(&mut self) {
        self.game = (self.make_game)(self.start.clone());
        self.searcher.lock().expect("searcher lock").clear();
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), String> {
        let root = match fen {
            Some(text) => self
                .start
                .with_text(text)
                .map_err(|e| format!("bad position: {e}"))?,
            None => self.start.clone(),
        };
        let mut game = (self.make_game)(root);
        for (i, text) in moves.iter().enumerate() {
            let mv: MoveOf<G> = text
                .parse()
                .map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
            game.play(mv)
                .map_err(|e| format!("move {} '{text}': {}", i + 1, e.reason))?;
        }
        self.game = game;
        Ok(())
    }

    fn board(&self) -> String {
        let mut text = (self.draw)(self.game.position(), false);
        if let Some(outcome) = self.game.outcome() {
            text.push_str(&format!("result: {outcome}\n"));
        }
        text
    }

    fn perft(&self, depth: u32) -> u64 {
        qi_search::perft(self.game.position(), depth)
    }

    fn moves(&self) -> Vec<String> {
        self.game
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    fn eval(&self) -> i32 {
        self.eval.evaluate(self.game.position())
    }

    fn configure(&mut self, options: SearchOptions) {
        self.searcher
            .lock()
            .expect("searcher lock")
            .set_options(options);
    }

    fn side_to_move(&self) -> Side {
        self.game.position().side_to_move()
    }

    fn go(&mut self, limits: Limits, stop: Arc<AtomicBool>) -> JoinHandle<()> {
        let mut game = self.game.clone();
        let eval = Arc::clone(&self.eval);
        let searcher = Arc::clone(&self.searcher);
        thread::spawn(move || {
            let mut searcher = searcher.lock().expect("searcher lock");
            let result = searcher.search_smp(&mut game, &*eval, limits, &stop, |info| {
                let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
                println!(
                    "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {} pv {}",
                    info.depth,
                    info.seldepth,
                    info.score,
                    info.nodes,
                    info.nps,
                    info.time.as_millis(),
                    info.hashfull,
                    pv.join(" ")
                );
            });
            match result.best_move {
                Some(mv) => println!("bestmove {mv}"),
                None => println!("bestmove (none)"),
            }
        })
    }
}

/// The evaluation profiles `setoption name EvalProfile` accepts.
const EVAL_PROFILES: [&str; 2] = ["default", "material"];

/// Builds the engine state of a game with the evaluation `profile` (one of
/// [`EVAL_PROFILES`]).
fn variant_for(spec: GameSpec, options: SearchOptions, profile: &str) -> Box<dyn Variant> {
    use qi_engine::five_tigers::{FiveTigersEval, FiveTigersHooks, FiveTigersWeights};
    use qi_engine::jungle::{JungleEval, JungleHooks, JungleWeights};
    let material = profile == "material";
    match spec {
        GameSpec::Jungle(rules) => {
            let weights = if material {
                JungleWeights::material_only()
            } else {
                JungleWeights::default()
            };
            Box::new(VariantState::new(
                qi_jungle::Jungle::new(rules),
                qi_jungle::Game::new,
                JungleEval::new(weights),
                JungleHooks::new(&weights),
                options,
                render::jungle,
            ))
        }
        GameSpec::FiveTigers(rules) => {
            let weights = if material {
                FiveTigersWeights::material_only()
            } else {
                FiveTigersWeights::default()
            };
            Box::new(VariantState::new(
                qi_five_tigers::FiveTigers::new(rules),
                qi_five_tigers::Game::from_position,
                FiveTigersEval::new(weights),
                FiveTigersHooks,
                options,
                render::five_tigers,
            ))
        }
    }
}

/// The protocol state: the variant, the options and the running search.
struct Session {
    spec: GameSpec,
    eval_profile: String,
    variant: Box<dyn Variant>,
    options: SearchOptions,
    /// The running search: its thread, its stop flag, whether it is infinite.
    search: Option<(JoinHandle<()>, Arc<AtomicBool>, bool)>,
}

fn error(message: impl std::fmt::Display) {
    println!("info string error: {message}");
}

impl Session {
    fn new(spec: GameSpec) -> Session {
        let options = SearchOptions::default();
        Session {
            variant: variant_for(spec.clone(), options, EVAL_PROFILES[0]),
            spec,
            eval_profile: EVAL_PROFILES[0].to_string(),
            options,
            search: None,
        }
    }

    /// Stops a running search (it prints its `bestmove`) and waits for it.
    fn stop_search(&mut self) {
        if let Some((handle, stop, _)) = self.search.take() {
            stop.store(true, Ordering::Relaxed);
            let _ = handle.join();
        }
    }

    /// Waits for a running search to end by its own limits, so commands
    /// piped after a `go` see its `bestmove` first; an infinite search is
    /// stopped instead.
    fn finish_search(&mut self) {
        if let Some((handle, stop, infinite)) = self.search.take() {
            if infinite {
                stop.store(true, Ordering::Relaxed);
            }
            let _ = handle.join();
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
            Command::Stop => self.stop_search(),
            Command::IsReady => println!("readyok"),
            Command::Jcei => self.identify(),
            other => {
                self.finish_search();
                self.handle_idle(other);
            }
        }
        true
    }

    fn identify(&self) {
        println!("id name {ENGINE_NAME}");
        println!("id author the qi developers");
        let d = SearchOptions::default();
        println!(
            "option name Hash type spin default {} min 0 max {MAX_HASH_MIB}",
            d.hash_mib
        );
        println!(
            "option name Threads type spin default {} min 1 max {MAX_THREADS}",
            d.threads
        );
        println!(
            "option name Variant type combo default jungle:standard var jungle:standard var jungle:yeshou var jungle:datou var jungle:traditional var five-tigers:shandong var five-tigers:shandong-shuttle var five-tigers:ten var five-tigers:deferred"
        );
        println!("option name EvalProfile type combo default default var default var material");
        for (name, on) in [
            ("NullMove", d.null_move),
            ("LMR", d.lmr),
            ("Futility", d.futility),
            ("Aspiration", d.aspiration),
            ("Quiescence", d.quiescence),
            ("ReverseFutility", d.reverse_futility),
            ("LateMovePruning", d.late_move_pruning),
            ("CheckExtension", d.check_extension),
            ("MateDistance", d.mate_distance),
            ("IIR", d.iir),
        ] {
            println!("option name {name} type check default {on}");
        }
        println!("jceiok");
    }

    fn handle_idle(&mut self, command: Command) {
        match command {
            Command::NewGame => self.variant.new_game(),
            Command::Position { fen, moves } => {
                if let Err(e) = self.variant.set_position(fen.as_deref(), &moves) {
                    error(e);
                }
            }
            Command::Go(go) => {
                let limits = self.limits(&go);
                let stop = Arc::new(AtomicBool::new(false));
                let handle = self.variant.go(limits, Arc::clone(&stop));
                self.search = Some((handle, stop, go.infinite));
            }
            Command::SetOption { name, value } => {
                if let Err(e) = self.set_option(&name, value.as_deref()) {
                    error(e);
                }
            }
            Command::Display => print!("{}", self.variant.board()),
            Command::Perft(depth) => {
                let start = std::time::Instant::now();
                let nodes = self.variant.perft(depth);
                let ms = start.elapsed().as_millis();
                println!("info string perft {depth} nodes {nodes} time {ms}");
                println!("total: {nodes}");
            }
            Command::Moves => {
                // The form the existing JCEI GUI parses: it takes what
                // follows the colon.
                let list = self.variant.moves();
                println!("Legal moves ({}): {}", list.len(), list.join(" "));
            }
            Command::Eval => println!("info string eval cp {}", self.variant.eval()),
            Command::Jcei | Command::IsReady | Command::Stop | Command::Quit => {}
        }
    }

    /// Turns a `go` command into search limits; clock times become a time
    /// budget for the side to move.
    fn limits(&self, go: &GoLimits) -> Limits {
        let mut limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime: go.movetime,
            infinite: go.infinite,
        };
        let (time, inc) = match self.variant.side_to_move() {
            Side::First => (go.wtime, go.winc),
            Side::Second => (go.btime, go.binc),
        };
        if limits.movetime.is_none() {
            if let Some(time) = time {
                limits.movetime = Some(time_budget(time, inc.unwrap_or_default(), go.movestogo));
            }
        }
        limits
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let value = value.ok_or_else(|| format!("option '{name}' needs a value"))?;
        let number = |max: usize| -> Result<usize, String> {
            value
                .parse::<usize>()
                .ok()
                .filter(|&n| n <= max)
                .ok_or_else(|| {
                    format!("option '{name}' takes a number from 0 to {max}, not '{value}'")
                })
        };
        let check = || -> Result<bool, String> {
            match value {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(format!(
                    "option '{name}' takes true or false, not '{value}'"
                )),
            }
        };
        let mut options = self.options;
        match name.to_ascii_lowercase().as_str() {
            "hash" => options.hash_mib = number(MAX_HASH_MIB)?,
            "threads" => options.threads = number(MAX_THREADS)?.max(1),
            "nullmove" => options.null_move = check()?,
            "lmr" => options.lmr = check()?,
            "futility" => options.futility = check()?,
            "aspiration" => options.aspiration = check()?,
            "quiescence" => options.quiescence = check()?,
            "reversefutility" => options.reverse_futility = check()?,
            "latemovepruning" => options.late_move_pruning = check()?,
            "checkextension" => options.check_extension = check()?,
            "matedistance" => options.mate_distance = check()?,
            "iir" => options.iir = check()?,
            "variant" => {
                let spec = GameSpec::parse(value).map_err(|e| e.to_string())?;
                self.variant = variant_for(spec.clone(), options, &self.eval_profile);
                self.spec = spec;
                return Ok(());
            }
            "evalprofile" => {
                if !EVAL_PROFILES.contains(&value) {
                    return Err(format!(
                        "unknown EvalProfile '{value}' (known: {})",
                        EVAL_PROFILES.join(", ")
                    ));
                }
                self.variant = variant_for(self.spec.clone(), options, value);
                self.eval_profile = value.to_string();
                return Ok(());
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
        self.options = options;
        self.variant.configure(options);
        Ok(())
    }
}

/// The time to spend on one move with `time` left on the clock.
fn time_budget(time: Duration, inc: Duration, movestogo: Option<u32>) -> Duration {
    let moves = movestogo.unwrap_or(30).clamp(1, 60);
    let margin = Duration::from_millis(30);
    let budget = time / moves + inc * 3 / 4;
    let cap = (time / 2).saturating_sub(margin);
    budget.min(cap).max(Duration::from_millis(5))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_budget_stays_within_the_clock() {
        let b = time_budget(Duration::from_secs(60), Duration::ZERO, None);
        assert_eq!(b, Duration::from_secs(2));
        let b = time_budget(Duration::from_millis(100), Duration::from_secs(1), None);
        assert!(b <= Duration::from_millis(50));
        let b = time_budget(Duration::from_millis(1), Duration::ZERO, None);
        assert_eq!(b, Duration::from_millis(5));
    }
}
