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

use qi_core::{Evaluator, Game, Position};
use qi_search::{Clock, Limits, MoveOf, SearchHooks, SearchOptions, Searcher};

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
    /// The game's tuned search options ([`SearchHooks::tuned_options`]).
    fn tuned_options(&self) -> SearchOptions;
    fn go(&mut self, limits: Limits, stop: Arc<AtomicBool>) -> JoinHandle<()>;
}

struct VariantState<G: Game, E, H: SearchHooks<G>> {
    start: G::Position,
    game: G,
    make_game: fn(G::Position) -> G,
    eval: Arc<E>,
    searcher: Arc<Mutex<Searcher<G, H>>>,
    tuned: SearchOptions,
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
        overrides: &Overrides,
        draw: fn(&G::Position, bool) -> String,
    ) -> Self {
        let tuned = hooks.tuned_options();
        let options = overrides.applied_to(tuned);
        VariantState {
            game: make_game(start.clone()),
            start,
            make_game,
            eval: Arc::new(eval),
            searcher: Arc::new(Mutex::new(Searcher::with_hooks(options, hooks))),
            tuned,
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

    fn tuned_options(&self) -> SearchOptions {
        self.tuned
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
fn variant_for(spec: GameSpec, overrides: &Overrides, profile: &str) -> Box<dyn Variant> {
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
                overrides,
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
                overrides,
                render::five_tigers,
            ))
        }
    }
}

/// The search options a user set with `setoption`, in order: they apply on
/// top of each game's tuned options, and survive a change of `Variant`.
#[derive(Default)]
struct Overrides(Vec<(String, String)>);

impl Overrides {
    /// `options` with every override applied (each was checked when set).
    fn applied_to(&self, mut options: SearchOptions) -> SearchOptions {
        for (name, value) in &self.0 {
            let _ = set_search_option(&mut options, name, value);
        }
        options
    }

    /// Records `name = value`, replacing an earlier value of `name`.
    fn set(&mut self, name: &str, value: &str) {
        self.0.retain(|(n, _)| n != name);
        self.0.push((name.to_string(), value.to_string()));
    }
}

/// Where a switch lives in [`SearchOptions`].
type SwitchField = fn(&mut SearchOptions) -> &mut bool;

/// The switches of [`SearchOptions`] as `setoption` names them, with their
/// fields.
const SWITCHES: [(&str, SwitchField); 10] = [
    ("NullMove", |o| &mut o.null_move),
    ("LMR", |o| &mut o.lmr),
    ("Futility", |o| &mut o.futility),
    ("Aspiration", |o| &mut o.aspiration),
    ("Quiescence", |o| &mut o.quiescence),
    ("ReverseFutility", |o| &mut o.reverse_futility),
    ("LateMovePruning", |o| &mut o.late_move_pruning),
    ("CheckExtension", |o| &mut o.check_extension),
    ("MateDistance", |o| &mut o.mate_distance),
    ("IIR", |o| &mut o.iir),
];

/// Sets the search option `name` (case ignored) of `options` to `value`;
/// `Ok(false)` when `name` is no search option.
fn set_search_option(options: &mut SearchOptions, name: &str, value: &str) -> Result<bool, String> {
    let number = |max: usize| -> Result<usize, String> {
        value
            .parse::<usize>()
            .ok()
            .filter(|&n| n <= max)
            .ok_or_else(|| format!("option '{name}' takes a number from 0 to {max}, not '{value}'"))
    };
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        "hash" => options.hash_mib = number(MAX_HASH_MIB)?,
        "threads" => options.threads = number(MAX_THREADS)?.max(1),
        _ => {
            let Some((_, field)) = SWITCHES
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(&lower))
            else {
                return Ok(false);
            };
            *field(options) = match value {
                "true" => true,
                "false" => false,
                _ => {
                    return Err(format!(
                        "option '{name}' takes true or false, not '{value}'"
                    ))
                }
            };
        }
    }
    Ok(true)
}

/// The protocol state: the variant, the options and the running search.
struct Session {
    spec: GameSpec,
    eval_profile: String,
    variant: Box<dyn Variant>,
    overrides: Overrides,
    /// The running search: its thread, its stop flag, whether it is infinite.
    search: Option<(JoinHandle<()>, Arc<AtomicBool>, bool)>,
}

fn error(message: impl std::fmt::Display) {
    println!("info string error: {message}");
}

impl Session {
    fn new(spec: GameSpec) -> Session {
        let overrides = Overrides::default();
        Session {
            variant: variant_for(spec.clone(), &overrides, EVAL_PROFILES[0]),
            spec,
            eval_profile: EVAL_PROFILES[0].to_string(),
            overrides,
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
        // The defaults a GUI sees are the current game's tuned options.
        let d = self.variant.tuned_options();
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
        for (name, field) in SWITCHES {
            let mut options = d;
            println!(
                "option name {name} type check default {}",
                field(&mut options)
            );
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

    /// Turns a `go` command into search limits (the search budgets the
    /// clock itself).
    fn limits(&self, go: &GoLimits) -> Limits {
        Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime: go.movetime,
            infinite: go.infinite,
            clock: Clock {
                time: [go.wtime, go.btime],
                inc: [go.winc, go.binc],
                movestogo: go.movestogo,
            },
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let value = value.ok_or_else(|| format!("option '{name}' needs a value"))?;
        match name.to_ascii_lowercase().as_str() {
            "variant" => {
                let spec = GameSpec::parse(value).map_err(|e| e.to_string())?;
                self.variant = variant_for(spec.clone(), &self.overrides, &self.eval_profile);
                self.spec = spec;
            }
            "evalprofile" => {
                if !EVAL_PROFILES.contains(&value) {
                    return Err(format!(
                        "unknown EvalProfile '{value}' (known: {})",
                        EVAL_PROFILES.join(", ")
                    ));
                }
                self.variant = variant_for(self.spec.clone(), &self.overrides, value);
                self.eval_profile = value.to_string();
            }
            _ => {
                // Checked on the current options before it is recorded.
                let mut options = self.overrides.applied_to(self.variant.tuned_options());
                if !set_search_option(&mut options, name, value)? {
                    return Err(format!("unknown option '{name}'"));
                }
                self.overrides.set(&name.to_ascii_lowercase(), value);
                self.variant.configure(options);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_switch_is_set_by_its_name_in_any_case() {
        for (name, field) in SWITCHES {
            for value in [true, false] {
                let mut options = SearchOptions::default();
                *field(&mut options) = !value;
                let text = value.to_string();
                assert_eq!(
                    set_search_option(&mut options, &name.to_uppercase(), &text),
                    Ok(true)
                );
                assert_eq!(*field(&mut options), value, "{name}");
            }
        }
        let mut options = SearchOptions::default();
        assert_eq!(set_search_option(&mut options, "Hash", "4"), Ok(true));
        assert_eq!(set_search_option(&mut options, "threads", "0"), Ok(true));
        assert_eq!((options.hash_mib, options.threads), (4, 1));
        assert_eq!(set_search_option(&mut options, "Bogus", "1"), Ok(false));
        assert!(set_search_option(&mut options, "LMR", "yes").is_err());
        assert!(set_search_option(&mut options, "Hash", "-1").is_err());
        assert_eq!(options.hash_mib, 4);
    }

    #[test]
    fn overrides_apply_on_each_games_tuned_options() {
        use qi_engine::five_tigers::FiveTigersHooks;
        use qi_engine::jungle::JungleHooks;
        let jungle: SearchOptions =
            SearchHooks::<qi_jungle::Game>::tuned_options(&JungleHooks::default());
        let five_tigers: SearchOptions =
            SearchHooks::<qi_five_tigers::Game>::tuned_options(&FiveTigersHooks);
        let mut overrides = Overrides::default();
        assert_eq!(overrides.applied_to(jungle), jungle);
        overrides.set("lmr", "false");
        overrides.set("hash", "2");
        overrides.set("lmr", "true");
        overrides.set("nullmove", "true");
        for tuned in [jungle, five_tigers] {
            let options = overrides.applied_to(tuned);
            assert!(options.lmr && options.null_move);
            assert_eq!(options.hash_mib, 2);
            assert_eq!(
                SearchOptions {
                    lmr: tuned.lmr,
                    null_move: tuned.null_move,
                    hash_mib: tuned.hash_mib,
                    ..options
                },
                tuned
            );
        }
    }

    #[test]
    fn a_session_starts_each_game_from_its_tuned_options() {
        let mut session = Session::new(GameSpec::parse("jungle").unwrap());
        let jungle = session.variant.tuned_options();
        session
            .set_option("Variant", Some("five-tigers:ten"))
            .unwrap();
        let five_tigers = session.variant.tuned_options();
        assert_eq!(
            five_tigers,
            SearchHooks::<qi_five_tigers::Game>::tuned_options(
                &qi_engine::five_tigers::FiveTigersHooks
            )
        );
        assert_eq!(jungle, SearchOptions::default());
        assert_ne!(five_tigers, jungle, "Five Tigers has its own switches");
        assert!(session.set_option("IIR", Some("sometimes")).is_err());
        assert!(session.overrides.0.is_empty());
        session.set_option("iir", Some("true")).unwrap();
        assert_eq!(
            session.overrides.0,
            vec![("iir".to_string(), "true".to_string())]
        );
    }
}
