//! The alpha-beta searcher: [`Searcher`], the public face of the search.
//!
//! Iterative deepening with aspiration windows (`iterate`) drives a
//! fail-soft principal variation search (`node`) that ends in quiescence
//! (`qsearch`); `threads` adds Lazy SMP helpers. Each thread is a
//! `worker` with its own history, killers and principal variation; every
//! tuning constant is in `params`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use web_time::Instant;

use qi_core::{Evaluator, Game};

use crate::hooks::{DefaultHooks, MoveOf, SearchHooks};
use crate::limits::{Limits, SearchOptions};
use crate::report::{SearchInfo, SearchResult};
#[cfg(any(not(target_family = "wasm"), target_feature = "atomics"))]
use crate::tt::SharedTable;
use crate::tt::{TableAllocError, TranspositionTable};

mod context;
mod iterate;
mod node;
mod params;
mod qsearch;
#[cfg(any(not(target_family = "wasm"), target_feature = "atomics"))]
mod threads;
mod worker;

pub use params::SearchParams;

use context::NodeSharing;
#[cfg(any(not(target_family = "wasm"), target_feature = "atomics"))]
use threads::LazySmp;
use worker::{ThreadState, Worker};

/// The deepest iteration the search starts.
pub const MAX_DEPTH: u32 = 100;

/// The transposition table: local to one thread, or shared by several.
/// WebAssembly without the atomics feature (what browsers run the
/// package as) has one thread, so there the search has no shared table:
/// every search is compiled once, for the local one, instead of twice.
enum Table<M> {
    Local(TranspositionTable<M>),
    #[cfg(any(not(target_family = "wasm"), target_feature = "atomics"))]
    Shared(SharedTable<M>),
}

impl<M: Copy> Table<M> {
    fn new(options: &SearchOptions) -> Result<Table<M>, TableAllocError> {
        #[cfg(any(not(target_family = "wasm"), target_feature = "atomics"))]
        if options.threads > 1 {
            return Ok(Table::Shared(SharedTable::try_new(options.hash_mib)?));
        }
        Ok(Table::Local(TranspositionTable::try_new(options.hash_mib)?))
    }

    fn clear(&mut self) {
        match self {
            Table::Local(t) => t.clear(),
            #[cfg(any(not(target_family = "wasm"), target_feature = "atomics"))]
            Table::Shared(t) => t.clear(),
        }
    }

    fn new_search(&mut self) {
        match self {
            Table::Local(t) => t.new_search(),
            #[cfg(any(not(target_family = "wasm"), target_feature = "atomics"))]
            Table::Shared(t) => t.new_search(),
        }
    }
}

/// A reusable searcher: owns the transposition table, history and killer
/// tables, so consecutive searches of one game profit from each other.
/// Call [`clear`](Searcher::clear) for a new game.
///
/// `H` supplies game knowledge (capture order, quiescence moves, null
/// moves); [`DefaultHooks`] works for every game.
///
/// Building one allocates its table (`hash_mib`, 16 MiB by default), which
/// costs more than a shallow search: keep one for a whole game, as below,
/// rather than a new one per move (what qi-engine's `GameKit::think`
/// does, for a one-off answer).
///
/// ```
/// use std::sync::atomic::AtomicBool;
///
/// use qi_games::jungle::Game;
/// use qi_games::prelude::*;
///
/// let eval = JungleKit::eval(Default::default());
/// let mut searcher: Searcher<Game> = Searcher::new(SearchOptions::default());
/// let stop = AtomicBool::new(false);
/// let mut game = Game::default();
/// for _ in 0..6 {
///     let result = searcher.search(&mut game, &eval, Limits::depth(4), &stop, |_| {});
///     game.play(result.best_move.expect("the game goes on"))?;
/// }
/// assert_eq!(game.moves().len(), 6);
/// searcher.clear(); // a new game
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Searcher<G: Game, H: SearchHooks<G> = DefaultHooks> {
    options: SearchOptions,
    hooks: H,
    table: Table<MoveOf<G>>,
    state: ThreadState<MoveOf<G>>,
    /// The root moves searched ([`set_root_moves`](Searcher::set_root_moves)).
    root_only: Vec<MoveOf<G>>,
}

impl<G: Game> Searcher<G, DefaultHooks> {
    /// A searcher with `options` and the default hooks.
    ///
    /// ```
    /// use qi_five_tigers::Game;
    /// use qi_search::{SearchOptions, Searcher};
    ///
    /// let searcher: Searcher<Game> = Searcher::new(SearchOptions::default());
    /// assert_eq!(searcher.options(), &SearchOptions::default());
    /// ```
    ///
    /// # Panics
    ///
    /// If the transposition table of `options.hash_mib` MiB cannot be
    /// allocated; [`try_new`](Searcher::try_new) says so instead.
    pub fn new(options: SearchOptions) -> Searcher<G, DefaultHooks> {
        Searcher::with_hooks(options, DefaultHooks)
    }

    /// [`new`](Searcher::new), or an error if the transposition table of
    /// `options.hash_mib` MiB cannot be allocated (for a size a user chose).
    ///
    /// ```
    /// use qi_five_tigers::Game;
    /// use qi_search::{tt::TableAllocError, SearchOptions, Searcher};
    ///
    /// let huge = SearchOptions::default().with_hash_mib(usize::MAX);
    /// let error = Searcher::<Game>::try_new(huge).err();
    /// assert_eq!(error, Some(TableAllocError { mib: usize::MAX }));
    /// assert!(Searcher::<Game>::try_new(SearchOptions::default()).is_ok());
    /// ```
    pub fn try_new(options: SearchOptions) -> Result<Searcher<G, DefaultHooks>, TableAllocError> {
        Searcher::try_with_hooks(options, DefaultHooks)
    }
}

impl<G: Game, H: SearchHooks<G>> Searcher<G, H> {
    /// A searcher with `options` and game knowledge `hooks`.
    ///
    /// ```
    /// use qi_five_tigers::Game;
    /// use qi_search::{SearchHooks, SearchOptions, Searcher};
    ///
    /// /// Five Tigers searched full width.
    /// struct Exact;
    /// impl SearchHooks<Game> for Exact {
    ///     fn tuned_options(&self) -> SearchOptions {
    ///         SearchOptions::exact(1)
    ///     }
    /// }
    ///
    /// let searcher = Searcher::with_hooks(Exact.tuned_options(), Exact);
    /// assert_eq!(searcher.options(), &SearchOptions::exact(1));
    /// ```
    ///
    /// # Panics
    ///
    /// If the transposition table of `options.hash_mib` MiB cannot be
    /// allocated; [`try_with_hooks`](Searcher::try_with_hooks) says so
    /// instead.
    pub fn with_hooks(options: SearchOptions, hooks: H) -> Searcher<G, H> {
        Searcher::try_with_hooks(options, hooks).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`with_hooks`](Searcher::with_hooks), or an error if the
    /// transposition table of `options.hash_mib` MiB cannot be allocated.
    ///
    /// ```
    /// use qi_five_tigers::Game;
    /// use qi_search::{DefaultHooks, SearchOptions, Searcher};
    ///
    /// let huge = SearchOptions::default().with_hash_mib(usize::MAX).with_threads(4);
    /// assert!(Searcher::<Game>::try_with_hooks(huge, DefaultHooks).is_err());
    /// ```
    pub fn try_with_hooks(
        options: SearchOptions,
        hooks: H,
    ) -> Result<Searcher<G, H>, TableAllocError> {
        Ok(Searcher {
            options,
            hooks,
            table: Table::new(&options)?,
            state: ThreadState::new(<G::Position as qi_core::Position>::MOVE_INDEX_COUNT),
            root_only: Vec::new(),
        })
    }

    /// The options in force.
    ///
    /// ```
    /// use qi_five_tigers::Game;
    /// use qi_search::{SearchOptions, Searcher};
    ///
    /// let searcher: Searcher<Game> = Searcher::new(SearchOptions::exact(4));
    /// assert_eq!(searcher.options().hash_mib, 4);
    /// assert!(!searcher.options().lmr);
    /// ```
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Changes the options. A new hash size, or a change between one and
    /// several threads, reallocates (and so clears) the transposition
    /// table.
    ///
    /// ```
    /// use qi_five_tigers::Game;
    /// use qi_search::{SearchOptions, Searcher};
    ///
    /// let mut searcher: Searcher<Game> = Searcher::new(SearchOptions::default());
    /// searcher.set_options(SearchOptions::default().with_hash_mib(1).with_threads(2));
    /// assert_eq!(searcher.options().hash_mib, 1);
    /// assert_eq!(searcher.options().threads, 2);
    /// ```
    ///
    /// # Panics
    ///
    /// If the new transposition table cannot be allocated;
    /// [`try_set_options`](Searcher::try_set_options) says so instead.
    pub fn set_options(&mut self, options: SearchOptions) {
        self.try_set_options(options)
            .unwrap_or_else(|e| panic!("{e}"));
    }

    /// [`set_options`](Searcher::set_options), or an error if the new
    /// transposition table cannot be allocated: then the options stay as
    /// they were, with their table emptied (the old table is freed before
    /// the new one is allocated, so that memory never holds both).
    ///
    /// ```
    /// use qi_five_tigers::Game;
    /// use qi_search::{SearchOptions, Searcher};
    ///
    /// let mut searcher: Searcher<Game> = Searcher::new(SearchOptions::default());
    /// let huge = SearchOptions::default().with_hash_mib(usize::MAX);
    /// assert!(searcher.try_set_options(huge).is_err());
    /// assert_eq!(searcher.options(), &SearchOptions::default());
    /// ```
    pub fn try_set_options(&mut self, options: SearchOptions) -> Result<(), TableAllocError> {
        if options.hash_mib != self.options.hash_mib
            || (options.threads > 1) != (self.options.threads > 1)
        {
            // The old table goes before the new one is allocated, so memory
            // never holds both (at `Hash` 4096 that is 4 GiB saved at peak).
            self.table = Table::Local(TranspositionTable::new(0));
            match Table::new(&options) {
                Ok(table) => self.table = table,
                Err(e) => {
                    // The old size was allocated before, with the old table
                    // gone it fits again.
                    self.table = Table::new(&self.options).unwrap_or_else(|e| panic!("{e}"));
                    return Err(e);
                }
            }
        }
        self.options = options;
        Ok(())
    }

    /// The game knowledge in use, to change (e.g. to give Jungle's hooks
    /// endgame tables): it takes effect from the next search.
    ///
    /// ```
    /// use qi_five_tigers::Game;
    /// use qi_search::{DefaultHooks, SearchOptions, Searcher};
    ///
    /// let mut searcher: Searcher<Game> = Searcher::new(SearchOptions::default());
    /// *searcher.hooks_mut() = DefaultHooks;
    /// assert_eq!(searcher.hooks(), &DefaultHooks);
    /// ```
    pub fn hooks_mut(&mut self) -> &mut H {
        &mut self.hooks
    }

    /// The game knowledge in use.
    ///
    /// ```
    /// use qi_five_tigers::Game;
    /// use qi_search::{DefaultHooks, SearchOptions, Searcher};
    ///
    /// let searcher: Searcher<Game> = Searcher::new(SearchOptions::default());
    /// assert_eq!(searcher.hooks(), &DefaultHooks);
    /// ```
    pub fn hooks(&self) -> &H {
        &self.hooks
    }

    /// Restricts the following searches to the root moves `moves` (UCI's
    /// `go searchmoves`; empty, as at first: every legal move). Moves not
    /// legal at a search's root are ignored, and a set with none legal
    /// restricts nothing. Several searchers given disjoint sets search a
    /// position between them (the page's threads, one per Web Worker).
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    ///
    /// use qi_five_tigers::{FiveTigers, Game, MaterialEvaluator, Rules};
    /// use qi_search::{Limits, SearchOptions, Searcher};
    ///
    /// let text = "4O/5/1X3/X4/XX3 x move X:0,O:0 - x -,d5-e5 1";
    /// let mut game = Game::new(FiveTigers::from_text(text, Rules::shandong()).unwrap());
    /// let mut searcher: Searcher<Game> = Searcher::new(SearchOptions::default());
    /// let only = "b3-c3".parse().unwrap();
    /// searcher.set_root_moves(&[only]);
    /// let result = searcher.search(&mut game, &MaterialEvaluator, Limits::depth(3), &AtomicBool::new(false), |_| {});
    /// assert_eq!(result.best_move, Some(only));
    /// ```
    pub fn set_root_moves(&mut self, moves: &[MoveOf<G>]) {
        self.root_only.clear();
        self.root_only.extend_from_slice(moves);
    }

    /// Forgets everything learned (transposition table, history, killers):
    /// for a new game.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    ///
    /// use qi_five_tigers::{Game, MaterialEvaluator};
    /// use qi_search::{Limits, SearchOptions, Searcher};
    ///
    /// let mut searcher: Searcher<Game> = Searcher::new(SearchOptions::default());
    /// let go = |searcher: &mut Searcher<Game>| {
    ///     let r = searcher.search(&mut Game::default(), &MaterialEvaluator, Limits::depth(4), &AtomicBool::new(false), |_| {});
    ///     (r.best_move, r.score, r.nodes)
    /// };
    /// let first = go(&mut searcher);
    /// searcher.clear();
    /// // Nothing learned is left: the same search again, node for node.
    /// assert_eq!(go(&mut searcher), first);
    /// ```
    pub fn clear(&mut self) {
        self.table.clear();
        self.state.clear();
    }

    /// Searches the current position of `game` within `limits`, or until
    /// `stop` is raised (from any thread), calling `info` after every
    /// completed iteration. `game` is left as it was given. Runs on the
    /// calling thread only, whatever [`SearchOptions::threads`] says (see
    /// [`search_smp`](Searcher::search_smp)).
    ///
    /// The result's move is legal whenever the side to move has one, even
    /// when the search is stopped before its first iteration completes
    /// (then the best root move seen so far, or the first in search order).
    /// With one thread, a search bounded by depth or nodes alone is
    /// deterministic given the searcher's state (e.g. after
    /// [`clear`](Searcher::clear)).
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    ///
    /// use qi_five_tigers::{FiveTigers, Game, MaterialEvaluator, Rules};
    /// use qi_search::{Limits, Score, SearchOptions, Searcher};
    ///
    /// // X steps b3-b2 (a small square) and removes O's last piece.
    /// let text = "4O/5/1X3/X4/XX3 x move X:0,O:0 - x -,d5-e5 1";
    /// let mut game = Game::new(FiveTigers::from_text(text, Rules::shandong()).unwrap());
    /// let mut searcher: Searcher<Game> = Searcher::new(SearchOptions::default());
    /// let (stop, mut reported) = (AtomicBool::new(false), 0);
    /// let result = searcher.search(&mut game, &MaterialEvaluator, Limits::depth(3), &stop, |info| {
    ///     reported = info.depth;
    /// });
    /// assert_eq!(result.best_move, Some("b3-b2".parse().unwrap()));
    /// assert_eq!(result.pv, ["b3-b2".parse().unwrap(), "xe5".parse().unwrap()]);
    /// assert_eq!(result.score, Score::win_in(2));
    /// assert_eq!(reported, result.depth);
    /// ```
    pub fn search<E, F>(
        &mut self,
        game: &mut G,
        eval: &E,
        limits: Limits,
        stop: &AtomicBool,
        info: F,
    ) -> SearchResult<MoveOf<G>>
    where
        E: Evaluator<G::Position>,
        F: FnMut(&SearchInfo<MoveOf<G>>),
    {
        self.search_single(game, eval, limits, stop, info, self.options, 0)
    }

    /// [`search`](Searcher::search) weakened to `strength`'s level, whose
    /// node budget and move choice the game's `scale` sets (see
    /// [`Level::plan`](crate::Level::plan)). At [`Level::FULL`](crate::Level::FULL)
    /// this is exactly [`search`](Searcher::search). Below it, the search
    /// runs on this thread alone with at least the plan's lines (MultiPV)
    /// and at most its nodes (fewer if `limits` says so), always completes
    /// a one-ply iteration, and the result's `best_move`, `score`,
    /// `depth` and `pv` are those of the line the level chose; `lines`
    /// stay best first.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    ///
    /// use qi_five_tigers::{Game, MaterialEvaluator};
    /// use qi_search::{Level, Limits, SearchOptions, Searcher, Strength, StrengthScale};
    ///
    /// let nodes = [0, 0, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000];
    /// let scale = StrengthScale { unit: 100, nodes, ratings: [0; 10] };
    /// let mut searcher: Searcher<Game> = Searcher::new(SearchOptions::default());
    /// let stop = AtomicBool::new(false);
    /// let mut strength = Strength::new(Level::WEAKEST, 42);
    /// let mut game = Game::default();
    /// let weak = searcher.search_at(&mut game, &MaterialEvaluator, Limits::depth(8), &mut strength, &scale, &stop, |_| {});
    /// assert!(weak.nodes < 5_000);
    /// assert_eq!(weak.lines.len(), 4);
    /// assert!(weak.lines.iter().any(|l| Some(l.pv[0]) == weak.best_move));
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn search_at<E, F>(
        &mut self,
        game: &mut G,
        eval: &E,
        limits: Limits,
        strength: &mut crate::Strength,
        scale: &crate::StrengthScale,
        stop: &AtomicBool,
        info: F,
    ) -> SearchResult<MoveOf<G>>
    where
        E: Evaluator<G::Position>,
        F: FnMut(&SearchInfo<MoveOf<G>>),
    {
        let Some(plan) = strength.level().plan(scale) else {
            return self.search(game, eval, limits, stop, info);
        };
        let options = SearchOptions {
            multi_pv: self.options.multi_pv.max(plan.lines),
            ..self.options
        };
        let limits = Limits {
            nodes: Some(limits.nodes.map_or(plan.nodes, |n| n.min(plan.nodes))),
            ..limits
        };
        let mut result = self.search_single(game, eval, limits, stop, info, options, 1);
        let chosen = strength.choose(&result.lines, &plan);
        if let Some(line) = result.lines.get(chosen) {
            result.best_move = Some(line.pv[0]);
            result.score = line.score;
            result.depth = line.depth;
            result.pv = line.pv.clone();
        }
        result
    }

    /// One thread's search with `options`, whose first `floor_depth`
    /// iterations ignore the node limit.
    #[allow(clippy::too_many_arguments)]
    fn search_single<E, F>(
        &mut self,
        game: &mut G,
        eval: &E,
        limits: Limits,
        stop: &AtomicBool,
        info: F,
        options: SearchOptions,
        floor_depth: u32,
    ) -> SearchResult<MoveOf<G>>
    where
        E: Evaluator<G::Position>,
        F: FnMut(&SearchInfo<MoveOf<G>>),
    {
        let start = Instant::now();
        self.table.new_search();
        self.state.prepare();
        let mut result = match &mut self.table {
            Table::Local(t) => {
                let mut worker = Worker::new(
                    options,
                    &self.hooks,
                    t,
                    &mut self.state,
                    0,
                    NodeSharing::Alone,
                );
                worker.floor_depth = floor_depth;
                worker.root_only = &self.root_only;
                worker.iterate(game, eval, limits, stop, start, info)
            }
            #[cfg(any(not(target_family = "wasm"), target_feature = "atomics"))]
            Table::Shared(t) => {
                let mut worker = Worker::new(
                    options,
                    &self.hooks,
                    &*t,
                    &mut self.state,
                    0,
                    NodeSharing::Alone,
                );
                worker.floor_depth = floor_depth;
                worker.root_only = &self.root_only;
                worker.iterate(game, eval, limits, stop, start, info)
            }
        };
        if limits.infinite {
            wait_for(stop);
        }
        result.elapsed = start.elapsed();
        result
    }

    /// [`search`](Searcher::search) on [`SearchOptions::threads`] threads
    /// (Lazy SMP): helper threads search copies of the game with the same
    /// limits, sharing the transposition table, and the calling thread's
    /// iterations give the result and the `info` calls. The node limit
    /// bounds the calling thread's nodes; the result counts every thread's.
    /// With one thread this is exactly [`search`](Searcher::search).
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    ///
    /// use qi_five_tigers::{FiveTigers, Game, MaterialEvaluator, Rules};
    /// use qi_search::{Limits, Score, SearchOptions, Searcher};
    ///
    /// let text = "4O/5/1X3/X4/XX3 x move X:0,O:0 - x -,d5-e5 1";
    /// let mut game = Game::new(FiveTigers::from_text(text, Rules::shandong()).unwrap());
    /// let options = SearchOptions::default().with_threads(2);
    /// let mut searcher: Searcher<Game> = Searcher::new(options);
    /// let stop = AtomicBool::new(false);
    /// let result = searcher.search_smp(&mut game, &MaterialEvaluator, Limits::depth(3), &stop, |_| {});
    /// assert_eq!(result.best_move, Some("b3-b2".parse().unwrap()));
    /// assert_eq!(result.score, Score::win_in(2));
    /// ```
    pub fn search_smp<E, F>(
        &mut self,
        game: &mut G,
        eval: &E,
        limits: Limits,
        stop: &AtomicBool,
        info: F,
    ) -> SearchResult<MoveOf<G>>
    where
        G: Send,
        E: Evaluator<G::Position> + Sync,
        H: Sync,
        MoveOf<G>: Send + Sync,
        F: FnMut(&SearchInfo<MoveOf<G>>),
    {
        // One thread where the target has no others.
        #[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
        {
            self.search(game, eval, limits, stop, info)
        }
        #[cfg(any(not(target_family = "wasm"), target_feature = "atomics"))]
        {
            let helpers = self.options.threads.max(1) - 1;
            let Table::Shared(table) = &mut self.table else {
                return self.search(game, eval, limits, stop, info);
            };
            if helpers == 0 {
                return self.search(game, eval, limits, stop, info);
            }
            let start = Instant::now();
            table.new_search();
            self.state.prepare();
            let mut result = LazySmp {
                options: self.options,
                hooks: &self.hooks,
                table: &*table,
                state: &mut self.state,
                helpers,
                root_only: &self.root_only,
            }
            .search(game, eval, limits, stop, start, info);
            result.elapsed = start.elapsed();
            result
        }
    }
}

/// Sleeps until `stop` is raised.
fn wait_for(stop: &AtomicBool) {
    while !stop.load(Ordering::Relaxed) {
        thread::sleep(Duration::from_millis(1));
    }
}
