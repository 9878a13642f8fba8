//! The JCEI session: the protocol state (the engine of the current game,
//! the options, the running search) answering one command line at a time.
//!
//! The main thread reads commands; `go` runs the search on a worker thread,
//! so `stop`, `isready` and `quit` are answered while it thinks. Bad input
//! is answered with `info string error: ...` and never ends the process.

use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use clap::Args;
use qi_engine::options::{Overrides, MAX_HASH_MIB, MAX_THREADS, SWITCHES};
use qi_engine::{engine_for, DynEngine, EngineEvent, EvalProfile, Games, Registry};
use qi_search::{Clock, Limits};

use super::parse::{self as jcei, Command, GoLimits};
use crate::error::CliError;

const ENGINE_NAME: &str = concat!("qi ", env!("CARGO_PKG_VERSION"));

/// `qi engine` options.
#[derive(Args, Debug, Default)]
pub struct EngineArgs {
    /// The game and its rules at the start (`setoption name Variant`
    /// changes it).
    #[arg(long, value_name = "G", help = crate::games_help())]
    game: Option<String>,
}

/// `qi engine [--game G]`
pub fn run(args: EngineArgs) -> Result<(), CliError> {
    let spec = args.game.unwrap_or_else(Games::default_spec);
    let mut session = Session::new(&spec)?;
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

/// Prints a search's reports as protocol lines.
fn print_event(event: EngineEvent) {
    match event {
        EngineEvent::Info(line) => println!("{line}"),
        EngineEvent::BestMove(Some(mv)) => println!("bestmove {mv}"),
        EngineEvent::BestMove(None) => println!("bestmove (none)"),
    }
}

/// The protocol state: the variant, the options and the running search.
struct Session {
    spec: String,
    eval_profile: EvalProfile,
    variant: Box<dyn DynEngine>,
    overrides: Overrides,
    /// The running search: its thread, its stop flag, whether it is infinite.
    search: Option<(JoinHandle<()>, Arc<AtomicBool>, bool)>,
}

fn error(message: impl std::fmt::Display) {
    println!("info string error: {message}");
}

impl Session {
    fn new(spec: &str) -> Result<Session, CliError> {
        let overrides = Overrides::default();
        let eval_profile = EvalProfile::default();
        Ok(Session {
            variant: engine_for::<Games>(spec, eval_profile, &overrides)?,
            spec: spec.to_string(),
            eval_profile,
            overrides,
            search: None,
        })
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
        let specs = Games::preset_specs();
        println!(
            "option name Variant type combo default {} var {}",
            Games::default_spec(),
            specs.join(" var ")
        );
        let profiles: Vec<&str> = EvalProfile::ALL.iter().map(|p| p.name()).collect();
        println!(
            "option name EvalProfile type combo default {} var {}",
            EvalProfile::default(),
            profiles.join(" var ")
        );
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
                let handle = self
                    .variant
                    .go(limits, Arc::clone(&stop), Box::new(print_event));
                self.search = Some((handle, stop, go.infinite));
            }
            Command::SetOption { name, value } => {
                if let Err(e) = self.set_option(&name, value.as_deref()) {
                    error(e);
                }
            }
            Command::Display => anstream::print!("{}", self.variant.board()),
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

    /// Turns a `go` command into search limits; the search turns the
    /// clock into a time budget for the side to move.
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
                self.variant = engine_for::<Games>(value, self.eval_profile, &self.overrides)
                    .map_err(|e| e.to_string())?;
                self.spec = value.to_string();
            }
            "evalprofile" => {
                let profile: EvalProfile = value.parse().map_err(|_| {
                    let known: Vec<&str> = EvalProfile::ALL.iter().map(|p| p.name()).collect();
                    format!(
                        "unknown EvalProfile '{value}' (known: {})",
                        known.join(", ")
                    )
                })?;
                self.variant = engine_for::<Games>(&self.spec, profile, &self.overrides)
                    .map_err(|e| e.to_string())?;
                self.eval_profile = profile;
            }
            _ => {
                self.overrides.set(name, value)?;
                let options = self.overrides.applied_to(self.variant.tuned_options());
                self.variant.configure(options);
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
