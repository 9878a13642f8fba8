//! The type-erased engine: one game's state (rules, game record,
//! evaluation, searcher) behind an object-safe interface, so a protocol
//! session can switch games at run time (`setoption name Variant`).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use qi_core::{Evaluator, Game, Outcome, Position, Side};
use qi_search::{
    Level, Limits, MoveOf, Score, SearchHooks, SearchOptions, SearchResult, Searcher, Strength,
    StrengthScale, TableAllocError,
};

use crate::kit::{spec_of, EvalFileError, EvalProfile, GameKit, RulesOf, TablebaseError};
use crate::options::Overrides;
use crate::registry::{GameFn, Registry, SpecError};
use crate::root_table::root_table_move;

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
    /// The best root moves, best first (one unless
    /// [`SearchOptions::multi_pv`] asks for more). Below
    /// [`Level::FULL`], `mv` is the line the level chose, which need not
    /// be the first.
    pub lines: Vec<EngineLine>,
}

/// One root move's line (MultiPV), in the game's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineLine {
    /// The line's score, for the side to move.
    pub score: Score,
    /// The iteration that found it.
    pub depth: u32,
    /// The principal variation, starting with the root move.
    pub pv: Vec<String>,
}

/// A perft to run on another thread (see [`DynEngine::perft_task`]).
pub type PerftTask = Box<dyn FnOnce(u32, &AtomicBool) -> u64 + Send>;

/// Why a position could not be set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PositionError {
    /// The position text could not be read.
    #[error("bad position: {0}")]
    Text(String),
    /// A move could not be read or is not legal.
    #[error("move {index} '{}': {reason}", qi_core::Escaped(.text))]
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
    ///
    /// ```
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, Games};
    ///
    /// let engine = engine_for::<Games>("jungle:datou,anti_chase=on", EvalProfile::Default, &Overrides::default()).unwrap();
    /// // Canonical: datou has the anti-chase rules already.
    /// assert_eq!(engine.spec(), "jungle:datou");
    /// ```
    fn spec(&self) -> String;
    /// Starts a new game from the start position and forgets what the
    /// search learned.
    ///
    /// ```
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, Games};
    ///
    /// let mut engine = engine_for::<Games>("jungle", EvalProfile::Default, &Overrides::default()).unwrap();
    /// engine.set_position(None, &["a3a4".to_string()]).unwrap();
    /// engine.new_game();
    /// assert_eq!(engine.position_text(), qi_jungle::START_JFEN);
    /// ```
    fn new_game(&mut self);
    /// Sets the game: from `text` (or the start position) after `moves`.
    /// On error the game is unchanged.
    ///
    /// ```
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, Games, PositionError};
    ///
    /// let mut engine = engine_for::<Games>("jungle", EvalProfile::Default, &Overrides::default()).unwrap();
    /// let moves = ["a3a4".to_string(), "g7g6".to_string()];
    /// engine.set_position(Some("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1"), &moves).unwrap();
    /// // After the Rat's g3g4, g3 is empty: move 2 is refused, the game is kept.
    /// let bad = ["g3g4".to_string(), "g3g4".to_string()];
    /// assert!(matches!(engine.set_position(None, &bad), Err(PositionError::Move { index: 2, .. })));
    /// assert_eq!(engine.position_text(), "l5t/1d3c1/r1p1w2/6e/7/E6/2W1P1R/1C3D1/T5L w 2 2");
    /// ```
    fn set_position(&mut self, text: Option<&str>, moves: &[String]) -> Result<(), PositionError>;
    /// The current position's text.
    ///
    /// ```
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, Games};
    ///
    /// let mut engine = engine_for::<Games>("five-tigers", EvalProfile::Default, &Overrides::default()).unwrap();
    /// engine.set_position(None, &["c3".to_string()]).unwrap();
    /// assert_eq!(engine.position_text(), "5/5/2X2/5/5 o place X:12,O:13 - o -,- 0");
    /// ```
    fn position_text(&self) -> String;
    /// The board drawn for a terminal (ANSI-styled), then the result if the
    /// game is over.
    ///
    /// ```
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, Games};
    ///
    /// let mut engine = engine_for::<Games>("jungle", EvalProfile::Default, &Overrides::default()).unwrap();
    /// engine.set_position(Some("7/3L3/7/7/7/7/7/7/6l w 0 1"), &["d8d9".to_string()]).unwrap();
    /// let board = engine.board();
    /// assert!(board.contains("to move   3L3/7/7/7/7/7/7/7/6l b 1 1\n"));
    /// assert!(board.ends_with("result: 1-0 (first wins: den entered)\n"));
    /// ```
    fn board(&self) -> String;
    /// The perft count of the current position (board moves).
    ///
    /// ```
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, Games};
    ///
    /// let engine = engine_for::<Games>("jungle", EvalProfile::Default, &Overrides::default()).unwrap();
    /// assert_eq!(engine.perft(2), 576);
    /// ```
    fn perft(&self, depth: u32) -> u64;
    /// The perft of the current position as a task for another thread:
    /// `task(depth, stop)` counts until done or until `stop` is raised,
    /// and returns the leaves counted so far.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicBool, Ordering};
    /// use std::thread;
    ///
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, Games};
    ///
    /// let engine = engine_for::<Games>("five-tigers", EvalProfile::Default, &Overrides::default()).unwrap();
    /// let task = engine.perft_task();
    /// let count = thread::spawn(move || task(3, &AtomicBool::new(false))).join().unwrap();
    /// assert_eq!(count, 13_800);
    /// ```
    fn perft_task(&self) -> PerftTask;
    /// The moves legal now under every rule of the game (history included).
    ///
    /// ```
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, Games};
    ///
    /// let engine = engine_for::<Games>("five-tigers", EvalProfile::Default, &Overrides::default()).unwrap();
    /// let moves = engine.moves();
    /// assert_eq!(moves.len(), 25);
    /// assert!(moves.contains(&"c3".to_string()));
    /// ```
    fn moves(&self) -> Vec<String>;
    /// The static evaluation of the current position for the side to move.
    ///
    /// ```
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, Games};
    ///
    /// let mut engine = engine_for::<Games>("jungle", EvalProfile::Default, &Overrides::default()).unwrap();
    /// // Red's Lion against Blue's Rat.
    /// engine.set_position(Some("6r/7/7/7/7/7/7/7/L6 w 0 1"), &[]).unwrap();
    /// assert!(engine.eval() > 0);
    /// engine.set_position(Some("6r/7/7/7/7/7/7/7/L6 b 0 1"), &[]).unwrap();
    /// assert!(engine.eval() < 0);
    /// ```
    fn eval(&self) -> i32;
    /// The side to move.
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, Games};
    ///
    /// let mut engine = engine_for::<Games>("five-tigers", EvalProfile::Default, &Overrides::default()).unwrap();
    /// assert_eq!(engine.side_to_move(), Side::First);
    /// engine.set_position(None, &["c3".to_string()]).unwrap();
    /// assert_eq!(engine.side_to_move(), Side::Second);
    /// ```
    fn side_to_move(&self) -> Side;
    /// The game's outcome so far.
    ///
    /// ```
    /// use qi_core::{Outcome, Side};
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, Games};
    ///
    /// let mut engine = engine_for::<Games>("jungle", EvalProfile::Default, &Overrides::default()).unwrap();
    /// engine.set_position(Some("7/3L3/7/7/7/7/7/7/6l w 0 1"), &[]).unwrap();
    /// assert_eq!(engine.outcome(), None);
    /// engine.set_position(Some("7/3L3/7/7/7/7/7/7/6l w 0 1"), &["d8d9".to_string()]).unwrap();
    /// assert_eq!(engine.outcome(), Some(Outcome::win(Side::First, qi_jungle::DEN_ENTERED)));
    /// ```
    fn outcome(&self) -> Option<Outcome>;
    /// The game's tuned search options.
    ///
    /// ```
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, FiveTigersKit, GameKit, Games};
    ///
    /// let engine = engine_for::<Games>("five-tigers", EvalProfile::Default, &Overrides::default()).unwrap();
    /// assert_eq!(engine.tuned_options(), FiveTigersKit::tuned_options());
    /// ```
    fn tuned_options(&self) -> SearchOptions;
    /// The search options in use.
    ///
    /// ```
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, Games};
    ///
    /// let mut overrides = Overrides::default();
    /// overrides.set("Hash", "1").unwrap();
    /// let engine = engine_for::<Games>("jungle", EvalProfile::Default, &overrides).unwrap();
    /// assert_eq!(engine.options().hash_mib, 1);
    /// assert_eq!(engine.options().lmr, engine.tuned_options().lmr);
    /// ```
    fn options(&self) -> SearchOptions;
    /// Replaces the search options, or says that the transposition table
    /// they ask for cannot be allocated (then the options stay as they
    /// were, the table emptied).
    ///
    /// ```
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, Games};
    /// use qi_search::SearchOptions;
    ///
    /// let mut engine = engine_for::<Games>("jungle", EvalProfile::Default, &Overrides::default()).unwrap();
    /// engine.configure(SearchOptions::exact(1)).unwrap();
    /// assert_eq!(engine.options(), SearchOptions::exact(1));
    /// let huge = SearchOptions::exact(1).with_hash_mib(usize::MAX);
    /// assert!(engine.configure(huge).is_err());
    /// assert_eq!(engine.options(), SearchOptions::exact(1));
    /// ```
    fn configure(&mut self, options: SearchOptions) -> Result<(), TableAllocError>;
    /// Probes the endgame tables of the directory `dir` in the search tree
    /// from the next search on (`None`: no tables), for games that have
    /// tables (Jungle: `.qtb` files; Five Tigers: `.qft` files);
    /// [`TablebaseError::Unsupported`] for the others, and
    /// [`TablebaseError::NotBuilt`] for all without qi-engine's `tablebase`
    /// feature. The files are read as the search needs them; the number of
    /// table files found in `dir` is returned.
    ///
    /// ```
    /// # #[cfg(feature = "tablebase")] {
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, Games, TablebaseError};
    /// use qi_search::Limits;
    /// use qi_tablebase::jungle::{Material, Tablebase};
    ///
    /// let rules = qi_jungle::Rules::standard();
    /// let dir = std::env::temp_dir().join(format!("qi-dyn-doc-{}", std::process::id()));
    /// Tablebase::generate(&rules, &["LvC".parse::<Material>().unwrap()], 1)
    ///     .unwrap()
    ///     .save_dir(&dir)
    ///     .unwrap();
    /// let mut engine = engine_for::<Games>("jungle", EvalProfile::Default, &Overrides::default()).unwrap();
    /// assert_eq!(engine.set_tablebase(Some(&dir)).unwrap(), 1);
    /// engine.set_position(Some("6c/7/7/7/7/7/7/7/L6 w 0 1"), &[]).unwrap();
    /// // Every reply is in the tables: two plies give the exact value.
    /// let best = engine.best_move(Limits::depth(2)).unwrap();
    /// assert!(best.score.is_mate());
    ///
    /// // Five Tigers reads `.qft` files, so a directory of Jungle tables
    /// // gives it none; a missing directory is refused.
    /// let mut five_tigers = engine_for::<Games>("five-tigers", EvalProfile::Default, &Overrides::default()).unwrap();
    /// five_tigers.set_tablebase(Some(&dir)).unwrap();
    /// let refused = five_tigers.set_tablebase(Some(&dir.join("missing")));
    /// assert!(matches!(refused, Err(TablebaseError::Open(_))));
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// # }
    /// ```
    fn set_tablebase(&mut self, dir: Option<&Path>) -> Result<usize, TablebaseError>;
    /// Whether the tables of [`set_tablebase`](DynEngine::set_tablebase)
    /// are probed yet: a Five Tigers directory with a file over 64 MiB is
    /// read ahead on a thread of its own, and until every file is in the
    /// search probes none (`true` without tables). What `isready` waits
    /// for in `qi engine`.
    fn tables_ready(&self) -> bool {
        true
    }
    /// Evaluates with the network of `file` from the next search on, in
    /// place of the one the binary carries (`None`: that one again), for
    /// games whose evaluation has a network (Jungle; only its `nnue`
    /// profile uses it, the others check the file and go on without);
    /// [`EvalFileError::Unsupported`] for the others. On error nothing
    /// changes; on success the transposition table is cleared, its scores
    /// being the old evaluation's.
    ///
    /// ```
    /// use qi_engine::{engine_for, options::Overrides, EvalFileError, EvalProfile, Games};
    ///
    /// let mut engine = engine_for::<Games>("jungle", EvalProfile::Nnue, &Overrides::default()).unwrap();
    /// let embedded = engine.eval();
    /// let file = std::env::temp_dir().join(format!("qi-dyn-net-{}.nnue", std::process::id()));
    /// let mut bytes = qi_engine::jungle::nnue::EMBEDDED_BYTES.to_vec();
    /// bytes[100] ^= 1;
    /// std::fs::write(&file, &bytes).unwrap();
    /// // A damaged file is refused, and the network in use stays.
    /// let refused = engine.set_eval_file(Some(&file));
    /// assert!(matches!(refused, Err(EvalFileError::Network { .. })));
    /// assert_eq!(engine.eval(), embedded);
    /// std::fs::remove_file(&file).unwrap();
    /// ```
    fn set_eval_file(&mut self, file: Option<&Path>) -> Result<(), EvalFileError>;
    /// Plays at `level` from the next search on, its random choices
    /// following `seed` from the start of each game ([`new_game`](DynEngine::new_game)
    /// starts the sequence again). [`Level::FULL`] is the full engine.
    ///
    /// ```
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, Games};
    /// use qi_search::{Level, Limits};
    ///
    /// let mut engine = engine_for::<Games>("jungle", EvalProfile::Default, &Overrides::default()).unwrap();
    /// engine.set_strength(Level::WEAKEST, 42);
    /// assert_eq!(engine.level(), Level::WEAKEST);
    /// // Level 1 searches a few hundred nodes, whatever the depth asked.
    /// let first = engine.best_move(Limits::depth(30)).unwrap();
    /// engine.new_game();
    /// // The same seed from the start of a game: the same choice.
    /// assert_eq!(engine.best_move(Limits::depth(30)).unwrap().mv, first.mv);
    /// ```
    fn set_strength(&mut self, level: Level, seed: u64);
    /// The level in use.
    fn level(&self) -> Level;
    /// What the game's levels are made of (node budgets, measured
    /// ratings).
    ///
    /// ```
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, GameKit, Games, JungleKit};
    ///
    /// let engine = engine_for::<Games>("jungle:datou", EvalProfile::Default, &Overrides::default()).unwrap();
    /// assert_eq!(engine.strength_scale(), JungleKit::STRENGTH);
    /// ```
    fn strength_scale(&self) -> StrengthScale;
    /// Searches the current position on a thread of its own, reporting
    /// through `report`; raising `stop` ends it (its best move follows).
    /// With endgame tables ([`set_tablebase`](DynEngine::set_tablebase))
    /// whose values settle every root move under the game's history rules,
    /// the move is the tables' ([`root_table_move`](crate::root_table_move)),
    /// without a search.
    ///
    /// ```
    /// use std::sync::{atomic::AtomicBool, mpsc, Arc};
    ///
    /// use qi_engine::{engine_for, options::Overrides, EngineEvent, EvalProfile, Games};
    /// use qi_search::Limits;
    ///
    /// let mut engine = engine_for::<Games>("jungle", EvalProfile::Default, &Overrides::default()).unwrap();
    /// let (tx, rx) = mpsc::channel();
    /// let stop = Arc::new(AtomicBool::new(false));
    /// let search = engine.go(Limits::depth(3), stop, Box::new(move |event| tx.send(event).unwrap()));
    /// search.join().unwrap();
    /// let events: Vec<EngineEvent> = rx.iter().collect();
    /// assert!(matches!(&events[0], EngineEvent::Info(line) if line.starts_with("info depth 1 ")));
    /// assert!(matches!(events.last(), Some(EngineEvent::BestMove(Some(_)))));
    /// ```
    fn go(
        &mut self,
        limits: Limits,
        stop: Arc<AtomicBool>,
        report: Box<dyn FnMut(EngineEvent) + Send>,
    ) -> JoinHandle<()>;
    /// Searches the current position on this thread and returns the best
    /// move with its score and depth (`None` when there is no move).
    ///
    /// ```
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, Games};
    /// use qi_search::Limits;
    ///
    /// let mut engine = engine_for::<Games>("jungle", EvalProfile::Default, &Overrides::default()).unwrap();
    /// engine.set_position(Some("7/3L3/7/7/7/7/7/7/6l w 0 1"), &[]).unwrap();
    /// let best = engine.best_move(Limits::depth(3)).unwrap();
    /// assert_eq!(best.mv, "d8d9");
    /// assert!(best.score.is_mate());
    /// ```
    fn best_move(&mut self, limits: Limits) -> Option<BestMove>;
}

/// The engine of game `K`: its start position, game record, evaluation and
/// searcher.
pub struct KitEngine<K: GameKit> {
    start: K::Position,
    /// The evaluation profile, kept to build the evaluation again with
    /// another network file.
    profile: EvalProfile,
    game: K::Game,
    eval: Arc<K::Eval>,
    searcher: Arc<Mutex<Searcher<K::Game, K::Hooks>>>,
    /// The level and where its random sequence stands (moved on by each
    /// weakened search, on whatever thread it runs).
    strength: Arc<Mutex<Strength>>,
    /// The seed the sequence starts from at each new game.
    seed: u64,
}

impl<K: GameKit> KitEngine<K> {
    /// An engine for `K` under `rules`, with the evaluation of `profile` and
    /// the game's tuned search options changed by `overrides`, or an error
    /// if its transposition table (`Hash`) cannot be allocated.
    ///
    /// ```
    /// use qi_games::engine::{options::Overrides, DynEngine, EvalProfile, FiveTigersKit, KitEngine};
    /// use qi_games::five_tigers::Rules;
    ///
    /// let mut overrides = Overrides::default();
    /// overrides.set("Threads", "2")?;
    /// let engine = KitEngine::<FiveTigersKit>::new(Rules::ten(), EvalProfile::Material, &overrides)?;
    /// assert_eq!(engine.spec(), "five-tigers:ten");
    /// assert_eq!(engine.options().threads, 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(
        rules: RulesOf<K>,
        profile: EvalProfile,
        overrides: &Overrides,
    ) -> Result<KitEngine<K>, TableAllocError> {
        let options = overrides.applied_to(K::hooks(profile).tuned_options());
        KitEngine::with_options(rules, profile, options)
    }

    /// An engine for `K` under `rules`, with the evaluation of `profile`
    /// and the search options `options` as they are, or an error if the
    /// transposition table of `options.hash_mib` MiB cannot be allocated.
    ///
    /// ```
    /// use qi_games::engine::{DynEngine, EvalProfile, JungleKit, KitEngine};
    /// use qi_games::jungle::Rules;
    /// use qi_games::search::{SearchOptions, TableAllocError};
    ///
    /// let engine = KitEngine::<JungleKit>::with_options(Rules::standard(), EvalProfile::Default, SearchOptions::exact(1))?;
    /// assert_eq!(engine.options(), SearchOptions::exact(1));
    /// let huge = SearchOptions::exact(usize::MAX);
    /// let error = KitEngine::<JungleKit>::with_options(Rules::standard(), EvalProfile::Default, huge).err();
    /// assert_eq!(error, Some(TableAllocError { mib: usize::MAX }));
    /// # Ok::<(), TableAllocError>(())
    /// ```
    pub fn with_options(
        rules: RulesOf<K>,
        profile: EvalProfile,
        options: SearchOptions,
    ) -> Result<KitEngine<K>, TableAllocError> {
        let start = K::Position::new(rules);
        let searcher = Searcher::try_with_hooks(options, K::hooks(profile))?;
        Ok(KitEngine {
            game: K::Game::new(start.clone()),
            start,
            profile,
            eval: Arc::new(K::eval(profile)),
            searcher: Arc::new(Mutex::new(searcher)),
            strength: Arc::new(Mutex::new(Strength::full())),
            seed: 0,
        })
    }

    fn searcher(&self) -> std::sync::MutexGuard<'_, Searcher<K::Game, K::Hooks>> {
        // A search thread that panicked leaves the searcher usable: its
        // tables hold no invariant a panic could break.
        self.searcher.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn strength(&self) -> std::sync::MutexGuard<'_, Strength> {
        self.strength.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Searches `game` with `searcher` at `strength`: the full engine on
/// every thread the options give, a weaker level on one.
fn search_with<K: GameKit>(
    searcher: &mut Searcher<K::Game, K::Hooks>,
    strength: &mut Strength,
    game: &mut K::Game,
    eval: &K::Eval,
    limits: Limits,
    stop: &AtomicBool,
    info: impl FnMut(&qi_search::SearchInfo<MoveOf<K::Game>>),
) -> SearchResult<MoveOf<K::Game>> {
    if strength.level().is_full() {
        searcher.search_smp(game, eval, limits, stop, info)
    } else {
        searcher.search_at(game, eval, limits, strength, &K::STRENGTH, stop, info)
    }
}

impl<K: GameKit> DynEngine for KitEngine<K> {
    fn spec(&self) -> String {
        spec_of::<K>(self.start.rules())
    }

    fn new_game(&mut self) {
        self.game = K::Game::new(self.start.clone());
        self.searcher().clear();
        let level = self.strength().level();
        *self.strength() = Strength::new(level, self.seed);
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
            game.play(mv).map_err(|e| bad(e.reason.to_string()))?;
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

    fn configure(&mut self, options: SearchOptions) -> Result<(), TableAllocError> {
        self.searcher().try_set_options(options)
    }

    fn set_tablebase(&mut self, dir: Option<&Path>) -> Result<usize, TablebaseError> {
        let mut searcher = self.searcher();
        K::attach_tablebase(searcher.hooks_mut(), self.start.rules(), dir)
    }

    fn tables_ready(&self) -> bool {
        K::tables_ready(self.searcher().hooks())
    }

    fn set_eval_file(&mut self, file: Option<&Path>) -> Result<(), EvalFileError> {
        self.eval = Arc::new(K::eval_with_file(self.profile, file)?);
        self.searcher().clear();
        Ok(())
    }

    fn set_strength(&mut self, level: Level, seed: u64) {
        self.seed = seed;
        *self.strength() = Strength::new(level, seed);
    }

    fn level(&self) -> Level {
        self.strength().level()
    }

    fn strength_scale(&self) -> StrengthScale {
        K::STRENGTH
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
        let strength = Arc::clone(&self.strength);
        thread::spawn(move || {
            let mut searcher = searcher.lock().unwrap_or_else(|e| e.into_inner());
            let mut strength = strength.lock().unwrap_or_else(|e| e.into_inner());
            // On this thread, not the caller's: the first probe of a
            // material reads its file, and the protocol must still answer.
            // A weakened level plays its own moves, tables or not.
            let table_move = if strength.level().is_full() {
                root_table_move(&game, searcher.hooks())
            } else {
                None
            };
            if let Some(found) = table_move {
                drop(searcher);
                drop(strength);
                for line in found.info_lines() {
                    report(EngineEvent::Info(line));
                }
                // `go infinite` answers only once stopped (as UCI asks).
                while limits.infinite && !stop.load(Ordering::Relaxed) {
                    thread::sleep(std::time::Duration::from_millis(1));
                }
                report(EngineEvent::BestMove(Some(found.mv)));
                return;
            }
            let result = search_with::<K>(
                &mut searcher,
                &mut strength,
                &mut game,
                &eval,
                limits,
                &stop,
                |info| report(EngineEvent::Info(info.to_string())),
            );
            report(EngineEvent::BestMove(
                result.best_move.map(|mv| mv.to_string()),
            ));
        })
    }

    fn best_move(&mut self, limits: Limits) -> Option<BestMove> {
        let mut game = self.game.clone();
        let stop = AtomicBool::new(false);
        let eval = Arc::clone(&self.eval);
        let result = search_with::<K>(
            &mut self.searcher(),
            &mut self.strength(),
            &mut game,
            &eval,
            limits,
            &stop,
            |_| {},
        );
        let lines = result
            .lines
            .iter()
            .map(|line| EngineLine {
                score: line.score,
                depth: line.depth,
                pv: line.pv.iter().map(|m| m.to_string()).collect(),
            })
            .collect();
        result.best_move.map(|mv| BestMove {
            mv: mv.to_string(),
            score: result.score,
            depth: result.depth,
            lines,
        })
    }
}

/// Builds the type-erased engine of the game `spec` names, from registry
/// `R` (usually [`Games`](crate::Games)).
///
/// ```
/// use qi_engine::{engine_for, options::Overrides, EvalProfile, Games, SpecError};
///
/// let engine = engine_for::<Games>("five-tigers:ten", EvalProfile::Default, &Overrides::default()).unwrap();
/// assert_eq!(engine.spec(), "five-tigers:ten");
/// assert_eq!(engine.moves().len(), 25);
/// let error = engine_for::<Games>("chess", EvalProfile::Default, &Overrides::default()).err();
/// assert!(matches!(error, Some(SpecError::UnknownGame { .. })));
/// // Five Tigers has no network.
/// let error = engine_for::<Games>("five-tigers", EvalProfile::Nnue, &Overrides::default()).err();
/// assert!(matches!(error, Some(SpecError::Profile { game: "five-tigers", .. })));
/// assert!(engine_for::<Games>("jungle", EvalProfile::Nnue, &Overrides::default()).is_ok());
/// ```
pub fn engine_for<R: Registry>(
    spec: &str,
    profile: EvalProfile,
    overrides: &Overrides,
) -> Result<Box<dyn DynEngine>, SpecError> {
    struct Build<'a>(EvalProfile, &'a Overrides);
    impl GameFn for Build<'_> {
        type Output = Result<Box<dyn DynEngine>, SpecError>;
        fn call<K: GameKit>(self, rules: RulesOf<K>) -> Self::Output {
            if !K::PROFILES.contains(&self.0) {
                return Err(SpecError::Profile {
                    game: K::NAME,
                    profile: self.0,
                });
            }
            Ok(Box::new(KitEngine::<K>::new(rules, self.0, self.1)?))
        }
    }
    R::dispatch(spec, Build(profile, overrides))?
}
