//! What bounds a search (depth, nodes, time) and how it searches (hash
//! size, threads, pruning switches).

use std::time::Duration;

use crate::time::Clock;

/// When a search must stop. Unset fields do not limit it; with nothing set
/// the search deepens until [`MAX_DEPTH`](crate::MAX_DEPTH), until the tree
/// is solved, or until the stop flag is raised.
///
/// Fields may be added, so outside this crate limits are built from a
/// constructor and the `with_` methods rather than a struct literal:
///
/// ```
/// use std::time::Duration;
///
/// use qi_games::base::Side;
/// use qi_games::search::{Clock, Limits};
///
/// let limits = Limits::depth(12).with_nodes(50_000);
/// assert_eq!((limits.depth, limits.nodes), (Some(12), Some(50_000)));
///
/// // `go wtime 60000 btime 30000`, searched to depth 20 at most.
/// let clock = Clock::default()
///     .with_time(Side::First, Duration::from_secs(60))
///     .with_time(Side::Second, Duration::from_secs(30));
/// let limits = Limits::default().with_clock(clock).with_depth(20);
/// assert_eq!(limits.clock.time(Side::Second), Some(Duration::from_secs(30)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Deepest iteration, in plies (`Some(0)` is treated as 1).
    pub depth: Option<u32>,
    /// Nodes to visit at most (checked at every node; with
    /// [`Searcher::search_smp`](crate::Searcher::search_smp), the calling
    /// thread's nodes).
    pub nodes: Option<u64>,
    /// Wall-clock time to search at most. When given, the clock is not
    /// used.
    pub movetime: Option<Duration>,
    /// Search until the stop flag is raised: `movetime` and the clock are
    /// ignored, and once the depth or node limit (if any) is reached the
    /// search waits for the stop flag before returning (UCI `go infinite`).
    pub infinite: bool,
    /// The game clock: without `movetime`, the search spends the budget
    /// [`TimeManager`](crate::TimeManager) takes from the side to move's
    /// time, so a front end only copies `go wtime btime winc binc
    /// movestogo` here.
    pub clock: Clock,
}

impl Limits {
    /// Limits to a fixed depth.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    ///
    /// use qi_five_tigers::{Game, MaterialEvaluator};
    /// use qi_search::{Limits, SearchOptions, Searcher};
    ///
    /// let mut searcher: Searcher<Game> = Searcher::new(SearchOptions::default());
    /// let stop = AtomicBool::new(false);
    /// let result = searcher.search(&mut Game::default(), &MaterialEvaluator, Limits::depth(3), &stop, |_| {});
    /// assert_eq!(result.depth, 3);
    /// ```
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Limits to a node count.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    ///
    /// use qi_five_tigers::{Game, MaterialEvaluator};
    /// use qi_search::{Limits, SearchOptions, Searcher};
    ///
    /// let mut searcher: Searcher<Game> = Searcher::new(SearchOptions::default());
    /// let stop = AtomicBool::new(false);
    /// let result = searcher.search(&mut Game::default(), &MaterialEvaluator, Limits::nodes(2_000), &stop, |_| {});
    /// assert!(result.nodes <= 2_000);
    /// assert!(result.best_move.is_some());
    /// ```
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Limits to a search time.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use std::time::Duration;
    ///
    /// use qi_five_tigers::{Game, MaterialEvaluator};
    /// use qi_search::{Limits, SearchOptions, Searcher};
    ///
    /// let mut searcher: Searcher<Game> = Searcher::new(SearchOptions::default());
    /// let limits = Limits::movetime(Duration::from_millis(20));
    /// let result = searcher.search(&mut Game::default(), &MaterialEvaluator, limits, &AtomicBool::new(false), |_| {});
    /// assert!(result.best_move.is_some());
    /// assert!(result.elapsed < Duration::from_secs(5));
    /// ```
    pub fn movetime(movetime: Duration) -> Limits {
        Limits {
            movetime: Some(movetime),
            ..Limits::default()
        }
    }

    /// No limit but the stop flag.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicBool, Ordering};
    /// use std::{thread, time::Duration};
    ///
    /// use qi_five_tigers::{Game, MaterialEvaluator};
    /// use qi_search::{Limits, SearchOptions, Searcher};
    ///
    /// let mut searcher: Searcher<Game> = Searcher::new(SearchOptions::default());
    /// let stop = AtomicBool::new(false);
    /// // Depth 1 is done at once, then the search waits for the stop flag.
    /// let limits = Limits::infinite().with_depth(1);
    /// let result = thread::scope(|s| {
    ///     s.spawn(|| {
    ///         thread::sleep(Duration::from_millis(50));
    ///         stop.store(true, Ordering::Relaxed);
    ///     });
    ///     searcher.search(&mut Game::default(), &MaterialEvaluator, limits, &stop, |_| {})
    /// });
    /// assert!(stop.load(Ordering::Relaxed));
    /// assert_eq!(result.depth, 1);
    /// ```
    pub fn infinite() -> Limits {
        Limits {
            infinite: true,
            ..Limits::default()
        }
    }

    /// These limits with the deepest iteration set to `depth` plies.
    pub const fn with_depth(self, depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..self
        }
    }

    /// These limits with at most `nodes` nodes.
    pub const fn with_nodes(self, nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..self
        }
    }

    /// These limits with at most `movetime` of wall-clock time.
    pub const fn with_movetime(self, movetime: Duration) -> Limits {
        Limits {
            movetime: Some(movetime),
            ..self
        }
    }

    /// These limits searching until the stop flag (`true`) or not.
    pub const fn with_infinite(self, infinite: bool) -> Limits {
        Limits { infinite, ..self }
    }

    /// These limits with the game clock `clock`.
    pub const fn with_clock(self, clock: Clock) -> Limits {
        Limits { clock, ..self }
    }
}

/// How the search runs. [`Default`] is game-neutral: what a game gets
/// before anyone has measured it. Each game states the options that play
/// it best in [`SearchHooks::tuned_options`](crate::SearchHooks::tuned_options),
/// which front ends start from.
///
/// Fields may be added, so outside this crate options are built from
/// [`Default`], [`SearchOptions::exact`] or a game's tuned options and the
/// `with_` methods, or by assigning the fields of such a value:
///
/// ```
/// use qi_games::search::SearchOptions;
///
/// let options = SearchOptions::default().with_hash_mib(64).with_threads(2).with_multi_pv(3);
/// assert_eq!((options.hash_mib, options.threads, options.multi_pv), (64, 2, 3));
///
/// let mut plain = SearchOptions::default();
/// plain.lmr = false;
/// assert_eq!(plain, SearchOptions::default().with_lmr(false));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchOptions {
    /// Transposition table size in MiB (`0` disables the table).
    pub hash_mib: usize,
    /// Search threads for [`Searcher::search_smp`](crate::Searcher::search_smp)
    /// (Lazy SMP; [`Searcher::search`](crate::Searcher::search) always uses
    /// one). More than one puts the transposition table behind locks.
    pub threads: usize,
    /// Null-move pruning (needs [`SearchHooks::make_null`](crate::SearchHooks::make_null)).
    pub null_move: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Futility pruning of quiet moves near the horizon.
    pub futility: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Quiescence search on tactical moves at the horizon (otherwise the
    /// horizon is scored by the evaluator alone).
    pub quiescence: bool,
    /// Reverse futility pruning (static null move): a non-PV node near the
    /// horizon whose static evaluation beats beta by a depth margin returns
    /// it.
    pub reverse_futility: bool,
    /// Late-move pruning: near the horizon, quiet moves late in the order
    /// are skipped in non-PV nodes.
    pub late_move_pruning: bool,
    /// Searches one ply deeper below moves into positions where the side
    /// to move must answer a threat ([`SearchHooks::in_check`](crate::SearchHooks::in_check)).
    pub check_extension: bool,
    /// Mate-distance pruning: no search for a mate longer than one already
    /// found (never changes the root score).
    pub mate_distance: bool,
    /// Internal iterative reduction: a node with no transposition-table
    /// move (at 4 plies or more to go, not in check) is searched a ply
    /// shallower.
    pub iir: bool,
    /// Root moves searched as lines of their own (MultiPV): each
    /// iteration finds the best move, then the best of the others, and so
    /// on, each with its own score and principal variation
    /// ([`SearchResult::lines`](crate::SearchResult::lines)). `0` and `1`
    /// both mean a single line; more than the root's moves means one line
    /// per move.
    pub multi_pv: usize,
}

impl Default for SearchOptions {
    /// A 16 MiB table and one thread, with the enhancements that need no
    /// game knowledge beyond the [`Game`](qi_core::Game) trait and keep the
    /// search's result sound: aspiration windows, quiescence on captures,
    /// mate-distance pruning, late-move reductions and pruning, futility
    /// pruning and internal iterative reduction. Off: what needs the game's
    /// hooks to mean anything (null moves need a pass, the check extension
    /// a notion of check) and reverse futility pruning, whose margins
    /// assume an evaluation scale.
    fn default() -> SearchOptions {
        SearchOptions {
            hash_mib: 16,
            threads: 1,
            null_move: false,
            lmr: true,
            futility: true,
            aspiration: true,
            quiescence: true,
            reverse_futility: false,
            late_move_pruning: true,
            check_extension: false,
            mate_distance: true,
            iir: true,
            multi_pv: 1,
        }
    }
}

impl SearchOptions {
    /// Every pruning and window feature off, quiescence off, with a table
    /// of `hash_mib` MiB: a full-width alpha-beta whose scores equal plain
    /// minimax at the same depth.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    ///
    /// use qi_five_tigers::{FiveTigers, Game, MaterialEvaluator, Rules};
    /// use qi_search::{reference::minimax, Limits, SearchOptions, Searcher};
    ///
    /// let text = "OO3/5/1X3/X4/XX3 x move X:0,O:0 - x -,c5-b5 1";
    /// let mut game = Game::new(FiveTigers::from_text(text, Rules::shandong()).unwrap());
    /// let mut searcher: Searcher<Game> = Searcher::new(SearchOptions::exact(1));
    /// let stop = AtomicBool::new(false);
    /// let result = searcher.search(&mut game, &MaterialEvaluator, Limits::depth(4), &stop, |_| {});
    /// assert_eq!(result.score, minimax(&mut game, &MaterialEvaluator, 4));
    /// ```
    pub fn exact(hash_mib: usize) -> SearchOptions {
        SearchOptions {
            hash_mib,
            threads: 1,
            null_move: false,
            lmr: false,
            futility: false,
            aspiration: false,
            quiescence: false,
            reverse_futility: false,
            late_move_pruning: false,
            check_extension: false,
            mate_distance: false,
            iir: false,
            multi_pv: 1,
        }
    }

    /// These options with the transposition table's size set to `hash_mib` MiB (`0`: no table).
    pub const fn with_hash_mib(self, hash_mib: usize) -> SearchOptions {
        SearchOptions { hash_mib, ..self }
    }

    /// These options with `threads` search threads.
    pub const fn with_threads(self, threads: usize) -> SearchOptions {
        SearchOptions { threads, ..self }
    }

    /// These options with null-move pruning on (`true`) or off.
    pub const fn with_null_move(self, null_move: bool) -> SearchOptions {
        SearchOptions { null_move, ..self }
    }

    /// These options with late-move reductions on (`true`) or off.
    pub const fn with_lmr(self, lmr: bool) -> SearchOptions {
        SearchOptions { lmr, ..self }
    }

    /// These options with futility pruning on (`true`) or off.
    pub const fn with_futility(self, futility: bool) -> SearchOptions {
        SearchOptions { futility, ..self }
    }

    /// These options with aspiration windows on (`true`) or off.
    pub const fn with_aspiration(self, aspiration: bool) -> SearchOptions {
        SearchOptions { aspiration, ..self }
    }

    /// These options with quiescence search on (`true`) or off.
    pub const fn with_quiescence(self, quiescence: bool) -> SearchOptions {
        SearchOptions { quiescence, ..self }
    }

    /// These options with reverse futility pruning on (`true`) or off.
    pub const fn with_reverse_futility(self, reverse_futility: bool) -> SearchOptions {
        SearchOptions {
            reverse_futility,
            ..self
        }
    }

    /// These options with late-move pruning on (`true`) or off.
    pub const fn with_late_move_pruning(self, late_move_pruning: bool) -> SearchOptions {
        SearchOptions {
            late_move_pruning,
            ..self
        }
    }

    /// These options with the check extension on (`true`) or off.
    pub const fn with_check_extension(self, check_extension: bool) -> SearchOptions {
        SearchOptions {
            check_extension,
            ..self
        }
    }

    /// These options with mate-distance pruning on (`true`) or off.
    pub const fn with_mate_distance(self, mate_distance: bool) -> SearchOptions {
        SearchOptions {
            mate_distance,
            ..self
        }
    }

    /// These options with internal iterative reduction on (`true`) or off.
    pub const fn with_iir(self, iir: bool) -> SearchOptions {
        SearchOptions { iir, ..self }
    }

    /// These options with `multi_pv` root lines (MultiPV).
    pub const fn with_multi_pv(self, multi_pv: usize) -> SearchOptions {
        SearchOptions { multi_pv, ..self }
    }
}
