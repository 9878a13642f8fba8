//! The type-erased engine: one game's state (rules, game record,
//! evaluation, searcher) behind an object-safe interface, so a protocol
//! session can switch games at run time (`setoption name Variant`).

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use qi_core::{Evaluator, Game, Outcome, Position, Side};
use qi_search::{Limits, MoveOf, Score, SearchHooks, SearchOptions, Searcher};

use crate::kit::{spec_of, EvalProfile, GameKit, RulesOf};
use crate::options::Overrides;
use crate::registry::{GameFn, Registry, SpecError};

/// What a running search reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineEvent {
    /// One finished iteration, as the protocol's `info` line.
    Info(String),
    /// The search ended: the move to play, `None` when there is none.
    BestMove(Option<String>),
}

/// The result of [`DynEngine::best_move`]: the move and what the search
/// thought of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// The move, in the game's notation.
    pub mv: String,
    /// The score of the deepest completed iteration, for the side to move.
    pub score: Score,
    /// The deepest completed iteration (0 when none completed).
    pub depth: u32,
}

/// A perft to run on another thread (see [`DynEngine::perft_task`]).
pub type PerftTask = Box<dyn FnOnce(u32, &AtomicBool) -> u64 + Send>;

/// Why a position could not be set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The position text could not be read.
    #[error("bad position: {0}")]
    Text(String),
    /// A move could not be read or is not legal.
    #[error("move {index} '{text}': {reason}")]
    Move {
        /// 1-based position in the list.
        index: usize,
        /// The move as given.
        text: String,
        /// What was wrong.
        reason: String,
    },
}

/// One game's engine behind an object-safe interface. Moves and positions
/// are text, in the game's own notation.
pub trait DynEngine: Send {
    /// The game spec (`jungle:datou`, canonical form).
    fn spec(&self) -> String;
    /// Starts a new game from the start position and forgets what the
    /// search learned.
    fn new_game(&mut self);
    /// Sets the game: from `text` (or the start position) after `moves`.
    /// On error the game is unchanged.
    fn set_position(&mut self, text: Option<&str>, moves: &[String]) -> Result<(), PositionError>;
    /// The current position's text.
    fn position_text(&self) -> String;
    /// The board drawn for a terminal (ANSI-styled), then the result if the
    /// game is over.
    fn board(&self) -> String;
    /// The perft count of the current position (board moves).
    fn perft(&self, depth: u32) -> u64;
    /// The perft of the current position as a task for another thread:
    /// `task(depth, stop)` counts until done or until `stop` is raised,
    /// and returns the leaves counted so far.
    fn perft_task(&self) -> PerftTask;
    /// The moves legal now under every rule of the game (history included).
    fn moves(&self) -> Vec<String>;
    /// The static evaluation of the current position for the side to move.
    fn eval(&self) -> i32;
    /// The side to move.
    fn side_to_move(&self) -> Side;
    /// The game's outcome so far.
    fn outcome(&self) -> Option<Outcome>;
    /// The game's tuned search options.
    fn tuned_options(&self) -> SearchOptions;
    /// The search options in use.
    fn options(&self) -> SearchOptions;
    /// Replaces the search options.
    fn configure(&mut self, options: SearchOptions);
    /// Searches the current position on a thread of its own, reporting
    /// through `report`; raising `stop` ends it (its best move follows).
    fn go(
        &mut self,
        limits: Limits,
        stop: Arc<AtomicBool>,
        report: Box<dyn FnMut(EngineEvent) + Send>,
    ) -> JoinHandle<()>;
    /// Searches the current position on this thread and returns the best
    /// move with its score and depth (`None` when there is no move).
    fn best_move(&mut self, limits: Limits) -> Option<BestMove>;
}

/// The engine of game `K`: its start position, game record, evaluation and
/// searcher.
pub struct KitEngine<K: GameKit> {
    start: K::Position,
    game: K::Game,
    eval: Arc<K::Eval>,
    searcher: Arc<Mutex<Searcher<K::Game, K::Hooks>>>,
}

impl<K: GameKit> KitEngine<K> {
    /// An engine for `K` under `rules`, with the evaluation of `profile` and
    /// the game's tuned search options changed by `overrides`.
    pub fn new(rules: RulesOf<K>, profile: EvalProfile, overrides: &Overrides) -> KitEngine<K> {
        let start = K::Position::new(rules);
        let hooks = K::hooks(profile);
        let options = overrides.applied_to(hooks.tuned_options());
        KitEngine {
            game: K::Game::new(start.clone()),
            start,
            eval: Arc::new(K::eval(profile)),
            searcher: Arc::new(Mutex::new(Searcher::with_hooks(options, hooks))),
        }
    }

    fn searcher(&self) -> std::sync::MutexGuard<'_, Searcher<K::Game, K::Hooks>> {
        // A search thread that panicked leaves the searcher usable: its
        // tables hold no invariant a panic could break.
        self.searcher.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl<K: GameKit> DynEngine for KitEngine<K> {
    fn spec(&self) -> String {
        spec_of::<K>(self.start.rules())
    }

    fn new_game(&mut self) {
        self.game = K::Game::new(self.start.clone());
        self.searcher().clear();
    }

    fn set_position(&mut self, text: Option<&str>, moves: &[String]) -> Result<(), PositionError> {
        let root = match text {
            Some(text) => self
                .start
                .with_text(text)
                .map_err(|e| PositionError::Text(e.to_string()))?,
            None => self.start.clone(),
        };
        let mut game = K::Game::new(root);
        for (i, text) in moves.iter().enumerate() {
            let bad = |reason: String| PositionError::Move {
                index: i + 1,
                text: text.clone(),
                reason,
            };
            let mv: MoveOf<K::Game> = text.parse().map_err(|e| bad(format!("{e}")))?;
            game.play(mv).map_err(|e| bad(e.reason))?;
        }
        self.game = game;
        Ok(())
    }

    fn position_text(&self) -> String {
        self.game.position().to_string()
    }

    fn board(&self) -> String {
        let mut text = K::draw(self.game.position());
        if let Some(outcome) = self.game.outcome() {
            text.push_str(&format!("result: {outcome}\n"));
        }
        text
    }

    fn perft(&self, depth: u32) -> u64 {
        qi_search::perft(self.game.position(), depth)
    }

    fn perft_task(&self) -> PerftTask {
        let position = self.game.position().clone();
        Box::new(move |depth, stop| qi_search::perft_with_stop(&position, depth, stop))
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

    fn side_to_move(&self) -> Side {
        self.game.position().side_to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn tuned_options(&self) -> SearchOptions {
        K::tuned_options()
    }

    fn options(&self) -> SearchOptions {
        *self.searcher().options()
    }

    fn configure(&mut self, options: SearchOptions) {
        self.searcher().set_options(options);
    }

    fn go(
        &mut self,
        limits: Limits,
        stop: Arc<AtomicBool>,
        mut report: Box<dyn FnMut(EngineEvent) + Send>,
    ) -> JoinHandle<()> {
        let mut game = self.game.clone();
        let eval = Arc::clone(&self.eval);
        let searcher = Arc::clone(&self.searcher);
        thread::spawn(move || {
            let mut searcher = searcher.lock().unwrap_or_else(|e| e.into_inner());
            let result = searcher.search_smp(&mut game, &*eval, limits, &stop, |info| {
                report(EngineEvent::Info(info.to_string()));
            });
            report(EngineEvent::BestMove(
                result.best_move.map(|mv| mv.to_string()),
            ));
        })
    }

    fn best_move(&mut self, limits: Limits) -> Option<BestMove> {
        let mut game = self.game.clone();
        let stop = AtomicBool::new(false);
        let eval = Arc::clone(&self.eval);
        let result = self
            .searcher()
            .search_smp(&mut game, &*eval, limits, &stop, |_| {});
        result.best_move.map(|mv| BestMove {
            mv: mv.to_string(),
            score: result.score,
            depth: result.depth,
        })
    }
}

/// Builds the type-erased engine of the game `spec` names, from registry
/// `R` (usually [`Games`](crate::Games)).
pub fn engine_for<R: Registry>(
    spec: &str,
    profile: EvalProfile,
    overrides: &Overrides,
) -> Result<Box<dyn DynEngine>, SpecError> {
    struct Build<'a>(EvalProfile, &'a Overrides);
    impl GameFn for Build<'_> {
        type Output = Box<dyn DynEngine>;
        fn call<K: GameKit>(self, rules: RulesOf<K>) -> Box<dyn DynEngine> {
            Box::new(KitEngine::<K>::new(rules, self.0, self.1))
        }
    }
    R::dispatch(spec, Build(profile, overrides))
}
