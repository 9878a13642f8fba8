//! Iterative deepening negamax alpha-beta with principal variation search,
//! aspiration windows, a transposition table, killer and history move
//! ordering, quiescence, null-move pruning, late-move reductions, futility,
//! reverse futility and late-move pruning, check extensions and
//! mate-distance pruning.
//!
//! Sides need not alternate: a child whose side to move is the parent's
//! is searched with the parent's window and its score taken as is; any
//! other child is searched with the negated, swapped window and its score
//! negated.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use qi_core::smallvec::SmallVec;
use qi_core::{Evaluator, Game, MoveList, Position, Side};

use crate::hooks::{DefaultHooks, MoveOf, SearchHooks};
use crate::limits::{Limits, SearchOptions};
use crate::ordering::{pick_next, History, Killers, CAPTURE, KILLER_1, KILLER_2, TT_MOVE};
use crate::pv::PvTable;
use crate::report::{nps, SearchInfo, SearchResult};
use crate::score::{from_tt, terminal_value, to_tt, Score, INFINITY, MATE, MATE_BOUND, MAX_PLY};
use crate::tt::{Bound, SharedTable, TableAccess, TranspositionTable};

mod params;

use params::{
    lmr_table, ASPIRATION_DELTA, CHECK_EVERY, FUTILITY_MARGIN, IIR_DEPTH, LMP_DEPTH, LMP_MOVES,
    RFP_DEPTH, RFP_MARGIN,
};

/// The deepest iteration the search starts.
pub const MAX_DEPTH: u32 = 100;

/// How a search thread shares its node count with the others, so that
/// the main thread's `info` lines count every thread's nodes.
#[derive(Clone, Copy)]
enum NodeSharing<'a> {
    /// A single-threaded search.
    Alone,
    /// A Lazy SMP helper: adds its nodes to the counter as it polls.
    Helper(&'a AtomicU64),
    /// The Lazy SMP main thread: reports its nodes plus the counter.
    Main(&'a AtomicU64),
}

/// Per-search state: limits, counters and the evaluator.
struct Ctx<'a, E> {
    eval: &'a E,
    stop: &'a AtomicBool,
    sharing: NodeSharing<'a>,
    /// The part of `nodes` a helper has already added to the shared counter.
    published: u64,
    deadline: Option<Instant>,
    node_limit: u64,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// Whether the iteration met an unfinished node at its horizon (or
    /// trusted a stored result); if not, the tree is solved.
    horizon: bool,
    /// The running iteration's depth (bounds extensions).
    root_depth: i32,
}

impl<E> Ctx<'_, E> {
    /// Says whether the search must stop now; if not, counts the node.
    #[inline]
    fn enter(&mut self, ply: usize) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
            return true;
        }
        self.nodes += 1;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.nodes & (CHECK_EVERY - 1) == 0 {
            self.poll();
        }
        self.stopped
    }

    /// Reads the stop flag and the clock (and publishes a helper's nodes).
    fn poll(&mut self) {
        if let NodeSharing::Helper(counter) = self.sharing {
            counter.fetch_add(self.nodes - self.published, Ordering::Relaxed);
            self.published = self.nodes;
        }
        if self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = true;
        }
    }
}

/// Per-thread search tables: history, killers, the PV table.
struct ThreadState<M> {
    history: History,
    killers: Killers<M>,
    pv: PvTable<M>,
    /// The best root move of the running iteration.
    root_move: Option<M>,
    /// Late-move reductions by depth and moves searched.
    lmr: Vec<[u8; 64]>,
}

impl<M: Copy + Eq> ThreadState<M> {
    fn new() -> ThreadState<M> {
        ThreadState {
            history: History::new(),
            killers: Killers::new(),
            pv: PvTable::new(),
            root_move: None,
            lmr: lmr_table(),
        }
    }

    /// The late-move reduction after `searched` moves at `depth`.
    #[inline]
    fn lmr(&self, depth: i32, searched: usize) -> i32 {
        i32::from(self.lmr[(depth as usize).min(63)][searched.min(63)])
    }

    fn clear(&mut self) {
        self.history.clear();
        self.killers.clear();
        self.root_move = None;
    }

    /// Before a search: fade the history, forget killers and the root move.
    fn prepare(&mut self) {
        self.history.age();
        self.killers.clear();
        self.root_move = None;
    }
}

/// The transposition table: local to one thread, or shared by several.
enum Table<M> {
    Local(TranspositionTable<M>),
    Shared(SharedTable<M>),
}

impl<M: Copy> Table<M> {
    fn new(options: &SearchOptions) -> Table<M> {
        if options.threads > 1 {
            Table::Shared(SharedTable::new(options.hash_mib))
        } else {
            Table::Local(TranspositionTable::new(options.hash_mib))
        }
    }

    fn clear(&mut self) {
        match self {
            Table::Local(t) => t.clear(),
            Table::Shared(t) => t.clear(),
        }
    }

    fn new_search(&mut self) {
        match self {
            Table::Local(t) => t.new_search(),
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
pub struct Searcher<G: Game, H: SearchHooks<G> = DefaultHooks> {
    options: SearchOptions,
    hooks: H,
    table: Table<MoveOf<G>>,
    state: ThreadState<MoveOf<G>>,
}

impl<G: Game> Searcher<G, DefaultHooks> {
    /// A searcher with `options` and the default hooks.
    pub fn new(options: SearchOptions) -> Searcher<G, DefaultHooks> {
        Searcher::with_hooks(options, DefaultHooks)
    }
}

impl<G: Game, H: SearchHooks<G>> Searcher<G, H> {
    /// A searcher with `options` and game knowledge `hooks`.
    pub fn with_hooks(options: SearchOptions, hooks: H) -> Searcher<G, H> {
        Searcher {
            options,
            hooks,
            table: Table::new(&options),
            state: ThreadState::new(),
        }
    }

    /// The options in force.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Changes the options. A new hash size, or a change between one and
    /// several threads, reallocates (and so clears) the transposition
    /// table.
    pub fn set_options(&mut self, options: SearchOptions) {
        if options.hash_mib != self.options.hash_mib
            || (options.threads > 1) != (self.options.threads > 1)
        {
            self.table = Table::new(&options);
        }
        self.options = options;
    }

    /// The game knowledge in use.
    pub fn hooks(&self) -> &H {
        &self.hooks
    }

    /// Forgets everything learned (transposition table, history, killers):
    /// for a new game.
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
        let start = Instant::now();
        self.table.new_search();
        self.state.prepare();
        let mut result = match &mut self.table {
            Table::Local(t) => Worker {
                options: self.options,
                hooks: &self.hooks,
                tt: t,
                st: &mut self.state,
                depth_offset: 0,
                sharing: NodeSharing::Alone,
            }
            .iterate(game, eval, limits, stop, start, info),
            Table::Shared(t) => Worker {
                options: self.options,
                hooks: &self.hooks,
                tt: &*t,
                st: &mut self.state,
                depth_offset: 0,
                sharing: NodeSharing::Alone,
            }
            .iterate(game, eval, limits, stop, start, info),
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
        let table = &*table;
        let options = self.options;
        let hooks = &self.hooks;
        let state = &mut self.state;
        let helpers_stop = AtomicBool::new(false);
        let helper_nodes = AtomicU64::new(0);
        let helper_limits = Limits {
            nodes: None,
            infinite: true,
            ..limits
        };
        let mut result = thread::scope(|scope| {
            let handles: Vec<_> = (0..helpers)
                .map(|i| {
                    let mut copy = game.clone();
                    let helpers_stop = &helpers_stop;
                    let sharing = NodeSharing::Helper(&helper_nodes);
                    scope.spawn(move || {
                        let mut st = ThreadState::new();
                        Worker {
                            options,
                            hooks,
                            tt: table,
                            st: &mut st,
                            depth_offset: (i % 2) as u32 + 1,
                            sharing,
                        }
                        .iterate(&mut copy, eval, helper_limits, helpers_stop, start, |_| {})
                        .nodes
                    })
                })
                .collect();
            let mut result = Worker {
                options,
                hooks,
                tt: table,
                st: state,
                depth_offset: 0,
                sharing: NodeSharing::Main(&helper_nodes),
            }
            .iterate(game, eval, limits, stop, start, info);
            if limits.infinite {
                wait_for(stop);
            }
            helpers_stop.store(true, Ordering::Relaxed);
            for handle in handles {
                result.nodes += handle.join().unwrap_or(0);
            }
            result
        });
        result.elapsed = start.elapsed();
        result
    }
}

/// Sleeps until `stop` is raised.
fn wait_for(stop: &AtomicBool) {
    while !stop.load(Ordering::Relaxed) {
        thread::sleep(Duration::from_millis(1));
    }
}

/// One search thread: its tables, the shared or local transposition table,
/// and the options.
struct Worker<'a, G: Game, H, T> {
    options: SearchOptions,
    hooks: &'a H,
    tt: T,
    st: &'a mut ThreadState<MoveOf<G>>,
    /// Added to every iteration's depth (helper threads search deeper).
    depth_offset: u32,
    /// How this thread's node count reaches the `info` lines.
    sharing: NodeSharing<'a>,
}

impl<G: Game, H: SearchHooks<G>, T: TableAccess<MoveOf<G>>> Worker<'_, G, H, T> {
    /// Iterative deepening from depth 1 until a limit, the stop flag, or a
    /// solved tree; `info` after each completed iteration. Leaves `elapsed`
    /// for the caller and never waits for the stop flag.
    fn iterate<E, F>(
        &mut self,
        game: &mut G,
        eval: &E,
        limits: Limits,
        stop: &AtomicBool,
        start: Instant,
        mut info: F,
    ) -> SearchResult<MoveOf<G>>
    where
        E: Evaluator<G::Position>,
        F: FnMut(&SearchInfo<MoveOf<G>>),
    {
        let mut ctx = Ctx {
            eval,
            stop,
            sharing: self.sharing,
            published: 0,
            deadline: if limits.infinite {
                None
            } else {
                limits.movetime.map(|t| start + t)
            },
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            horizon: false,
            root_depth: 0,
        };
        let stm = game.position().side_to_move();
        let mut result = SearchResult {
            best_move: None,
            score: Score::from_value(eval.evaluate(game.position())),
            depth: 0,
            seldepth: 0,
            nodes: 0,
            pv: Vec::new(),
            elapsed: Duration::ZERO,
        };
        let mut root_moves = MoveList::new();
        if let Some(outcome) = game.outcome() {
            result.score = Score::from_value(terminal_value(outcome, stm, 0));
        } else {
            game.generate_moves(&mut root_moves);
        }

        if !root_moves.is_empty() {
            ctx.poll();
            let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
            let mut previous: Option<i32> = None;
            let mut last_time = Duration::ZERO;
            let mut last_nodes = 0u64;
            let mut previous_nodes = 0u64;
            for iteration in 1..=max_depth {
                let depth = (iteration + self.depth_offset).min(MAX_DEPTH);
                ctx.horizon = false;
                ctx.seldepth = 0;
                ctx.root_depth = depth as i32;
                let value = self.aspiration(game, &mut ctx, depth as i32, previous);
                if ctx.stopped {
                    break;
                }
                previous = Some(value);
                let pv = self.st.pv.root_line();
                result.best_move = pv.first().copied().or(self.st.root_move);
                result.score = Score::from_value(value);
                result.depth = depth;
                result.seldepth = ctx.seldepth as u32;
                result.pv = pv;
                let time = start.elapsed();
                let all_nodes = match ctx.sharing {
                    NodeSharing::Main(helpers) => ctx.nodes + helpers.load(Ordering::Relaxed),
                    _ => ctx.nodes,
                };
                info(&SearchInfo {
                    depth,
                    seldepth: ctx.seldepth as u32,
                    score: result.score,
                    nodes: all_nodes,
                    nps: nps(all_nodes, time),
                    time,
                    pv: result.pv.clone(),
                    hashfull: self.tt.hashfull(),
                });
                if !ctx.horizon {
                    break; // every line reached the end of the game
                }
                if let Some(movetime) = limits.movetime.filter(|_| !limits.infinite) {
                    // The next iteration would not finish in time: predict
                    // its length from this one's, grown as the node count
                    // grew last (node counts, unlike times, do not depend
                    // on the machine's load).
                    let this = time.saturating_sub(last_time);
                    let this_nodes = ctx.nodes - last_nodes;
                    let growth = if previous_nodes == 0 {
                        2.0
                    } else {
                        (this_nodes as f64 / previous_nodes as f64).clamp(1.2, 4.0)
                    };
                    let next = this.mul_f64(growth);
                    if time + next >= movetime {
                        break;
                    }
                    previous_nodes = this_nodes;
                    last_nodes = ctx.nodes;
                    last_time = time;
                }
            }
            if result.best_move.is_none() {
                result.best_move = self
                    .st
                    .root_move
                    .filter(|m| root_moves.contains(m))
                    .or(root_moves.first().copied());
                result.pv = result.best_move.into_iter().collect();
            }
        }
        result.nodes = ctx.nodes;
        result.seldepth = result.seldepth.max(ctx.seldepth as u32);
        result
    }

    /// One iteration at `depth`, in a window around `previous` that widens
    /// until the value falls inside it.
    fn aspiration<E: Evaluator<G::Position>>(
        &mut self,
        game: &mut G,
        ctx: &mut Ctx<'_, E>,
        depth: i32,
        previous: Option<i32>,
    ) -> i32 {
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) = match previous {
            Some(p) if self.options.aspiration && depth >= 2 && p.abs() < MATE_BOUND => {
                (p - delta, p + delta)
            }
            _ => (-INFINITY, INFINITY),
        };
        loop {
            let value = self.negamax(game, ctx, alpha, beta, depth, 0, false);
            if ctx.stopped {
                return value;
            }
            if value <= alpha && alpha > -INFINITY {
                alpha = value - delta;
                if alpha <= -MATE_BOUND || delta > 16 * ASPIRATION_DELTA {
                    alpha = -INFINITY;
                }
            } else if value >= beta && beta < INFINITY {
                beta = value + delta;
                if beta >= MATE_BOUND || delta > 16 * ASPIRATION_DELTA {
                    beta = INFINITY;
                }
            } else {
                return value;
            }
            delta *= 2;
        }
    }

    /// Searches a child just played: with the same window when the side to
    /// move did not change, else negamax-style.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child<E: Evaluator<G::Position>>(
        &mut self,
        game: &mut G,
        ctx: &mut Ctx<'_, E>,
        same_side: bool,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
    ) -> i32 {
        if same_side {
            self.negamax(game, ctx, alpha, beta, depth, ply + 1, false)
        } else {
            -self.negamax(game, ctx, -beta, -alpha, depth, ply + 1, false)
        }
    }

    /// Fail-soft alpha-beta: the value of the current position of `game`
    /// searched `depth` plies deep, from the side to move's view.
    #[allow(clippy::too_many_arguments)]
    fn negamax<E: Evaluator<G::Position>>(
        &mut self,
        game: &mut G,
        ctx: &mut Ctx<'_, E>,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        after_null: bool,
    ) -> i32 {
        self.st.pv.clear(ply);
        if depth <= 0 {
            return self.horizon(game, ctx, alpha, beta, ply);
        }
        if ctx.enter(ply) {
            return 0;
        }
        let stm = game.position().side_to_move();
        if let Some(outcome) = game.outcome() {
            return terminal_value(outcome, stm, ply);
        }
        if ply >= MAX_PLY {
            ctx.horizon = true;
            return ctx.eval.evaluate(game.position());
        }
        let opts = self.options;
        let pv_node = beta - alpha > 1;

        // Mate distance: the game is not over here, so no value beats a win
        // (or loses worse than a loss) one ply below.
        if opts.mate_distance && ply > 0 {
            let best_possible = MATE - ply as i32 - 1;
            alpha = alpha.max(-best_possible);
            beta = beta.min(best_possible);
            if alpha >= beta {
                return alpha;
            }
        }
        let original_alpha = alpha;

        let key = game.position().zobrist();
        let mut tt_move = None;
        if let Some(entry) = self.tt.probe(key) {
            tt_move = entry.mv;
            if !pv_node && ply > 0 && i32::from(entry.depth) >= depth {
                let value = from_tt(entry.value, ply);
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                    Bound::Empty => false,
                };
                if cut {
                    ctx.horizon = true;
                    return value;
                }
            }
        }

        let mut moves = MoveList::new();
        game.generate_moves(&mut moves);
        if moves.is_empty() {
            ctx.horizon = true;
            return ctx.eval.evaluate(game.position());
        }

        let in_check = self.hooks.in_check(game);
        let prunable = !pv_node && ply > 0 && !in_check;
        // Internal iterative reduction: with no stored move to try first,
        // ordering is poor; search a ply shallower (the next iteration
        // stores a move here).
        let depth = if opts.iir && tt_move.is_none() && depth >= IIR_DEPTH && !in_check {
            depth - 1
        } else {
            depth
        };
        let static_eval = if prunable
            && (opts.null_move || opts.futility || opts.reverse_futility || opts.late_move_pruning)
        {
            ctx.eval.evaluate(game.position())
        } else {
            0
        };

        // Reverse futility: far enough above beta near the horizon that no
        // quiet continuation is expected to bring it back.
        if opts.reverse_futility
            && prunable
            && depth <= RFP_DEPTH
            && beta.abs() < MATE_BOUND
            && static_eval - RFP_MARGIN * depth >= beta
        {
            ctx.horizon = true;
            return static_eval;
        }

        // Null move: if passing still fails high, so will a real move.
        if opts.null_move
            && prunable
            && !after_null
            && depth >= 3
            && beta.abs() < MATE_BOUND
            && static_eval >= beta
            && self.hooks.make_null(game)
        {
            if game.position().side_to_move() != stm {
                let r = 2 + depth / 6;
                let value =
                    -self.negamax(game, ctx, -beta, -beta + 1, depth - 1 - r, ply + 1, true);
                self.hooks.undo_null(game);
                if ctx.stopped {
                    return 0;
                }
                if value >= beta {
                    ctx.horizon = true; // a pass is no proof
                    return if value >= MATE_BOUND { beta } else { value };
                }
            } else {
                self.hooks.undo_null(game);
            }
        }

        let futile = opts.futility
            && prunable
            && depth <= 2
            && alpha.abs() < MATE_BOUND
            && static_eval + FUTILITY_MARGIN * depth <= alpha;
        let lmp_limit =
            if opts.late_move_pruning && prunable && depth <= LMP_DEPTH && alpha.abs() < MATE_BOUND
            {
                LMP_MOVES[depth as usize]
            } else {
                usize::MAX
            };

        // Order: TT move first (searched before the others are scored: it
        // often cuts off alone), then captures (by the game's order),
        // killers, history.
        let mut scores: SmallVec<[i32; 64]> = SmallVec::new();
        let mut scored = false;
        if let Some(i) = tt_move.and_then(|t| moves.iter().position(|&m| m == t)) {
            moves.swap(0, i);
        } else {
            self.score_moves(game, &moves, &mut scores, None, ply, stm);
            scored = true;
        }

        let mut best = -INFINITY;
        let mut best_move = None;
        let mut quiets_tried: SmallVec<[MoveOf<G>; 64]> = SmallVec::new();
        let mut searched = 0usize;
        for i in 0..moves.len() {
            if !scored {
                // Past the TT move (index 0): score the rest now.
                self.score_moves(game, &moves, &mut scores, tt_move, ply, stm);
                scored = true;
            }
            if i > 0 || tt_move.is_none() {
                pick_next(&mut moves, &mut scores, i);
            }
            let mv = moves[i];
            let capture = game.position().is_capture(mv);
            let quiet = !capture
                && (scores.is_empty() || scores[i] < KILLER_2)
                && !self.hooks.is_tactical(game, mv);
            if searched > 0 && quiet {
                if futile {
                    ctx.horizon = true; // an unsearched move: not solved
                    continue;
                }
                if quiets_tried.len() >= lmp_limit {
                    ctx.horizon = true;
                    continue;
                }
            }

            game.play_unchecked(mv);
            let same = game.position().side_to_move() == stm;
            let gives_check = opts.check_extension
                && (ply as i32) < 2 * ctx.root_depth
                && self.hooks.in_check(game);
            let new_depth = depth - 1 + i32::from(gives_check);
            let value = if searched == 0 {
                self.child(game, ctx, same, alpha, beta, new_depth, ply)
            } else {
                let reduction = if opts.lmr && depth >= 3 && searched >= 3 && quiet && !gives_check
                {
                    let r = self.st.lmr(depth, searched) - i32::from(pv_node);
                    r.clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut v = self.child(
                    game,
                    ctx,
                    same,
                    alpha,
                    alpha + 1,
                    new_depth - reduction,
                    ply,
                );
                if reduction > 0 && v > alpha && !ctx.stopped {
                    v = self.child(game, ctx, same, alpha, alpha + 1, new_depth, ply);
                }
                if v > alpha && v < beta && !ctx.stopped {
                    v = self.child(game, ctx, same, alpha, beta, new_depth, ply);
                }
                v
            };
            game.undo();
            if ctx.stopped {
                return 0;
            }
            searched += 1;

            if value > best {
                best = value;
                if value > alpha {
                    best_move = Some(mv);
                    alpha = value;
                    self.st.pv.update(ply, mv);
                    if ply == 0 {
                        self.st.root_move = Some(mv);
                    }
                    if value >= beta {
                        if !capture {
                            self.st.killers.add(ply, mv);
                            self.st.history.reward(stm, &mv, depth as u32);
                            for q in &quiets_tried {
                                self.st.history.punish(stm, q, depth as u32);
                            }
                        }
                        break;
                    }
                }
            }
            if !capture {
                quiets_tried.push(mv);
            }
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, to_tt(best, ply), depth as u32, bound);
        best
    }

    /// Ordering scores of `moves` into `scores`: the TT move first, then
    /// captures (by the game's order), killers, history.
    fn score_moves(
        &self,
        game: &G,
        moves: &[MoveOf<G>],
        scores: &mut SmallVec<[i32; 64]>,
        tt_move: Option<MoveOf<G>>,
        ply: usize,
        stm: Side,
    ) {
        let killers = self.st.killers.get(ply);
        let pos = game.position();
        scores.clear();
        for &mv in moves {
            let score = if Some(mv) == tt_move {
                TT_MOVE
            } else if pos.is_capture(mv) {
                CAPTURE + self.hooks.capture_order(game, mv)
            } else if Some(mv) == killers[0] {
                KILLER_1
            } else if Some(mv) == killers[1] {
                KILLER_2
            } else {
                self.st.history.get(stm, &mv)
            };
            scores.push(score);
        }
    }

    /// The value at the horizon: quiescence search, or the evaluation.
    fn horizon<E: Evaluator<G::Position>>(
        &mut self,
        game: &mut G,
        ctx: &mut Ctx<'_, E>,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.options.quiescence {
            return self.quiescence(game, ctx, alpha, beta, ply);
        }
        if ctx.enter(ply) {
            return 0;
        }
        let stm = game.position().side_to_move();
        if let Some(outcome) = game.outcome() {
            return terminal_value(outcome, stm, ply);
        }
        ctx.horizon = true;
        ctx.eval.evaluate(game.position())
    }

    /// Fail-soft quiescence: the better of standing pat and the tactical
    /// moves (searched to quiet positions).
    fn quiescence<E: Evaluator<G::Position>>(
        &mut self,
        game: &mut G,
        ctx: &mut Ctx<'_, E>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.st.pv.clear(ply);
        if ctx.enter(ply) {
            return 0;
        }
        let stm = game.position().side_to_move();
        if let Some(outcome) = game.outcome() {
            return terminal_value(outcome, stm, ply);
        }
        ctx.horizon = true;
        let stand_pat = ctx.eval.evaluate(game.position());
        if stand_pat >= beta || ply >= MAX_PLY {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;

        let mut moves = MoveList::new();
        game.generate_moves(&mut moves);
        let hooks = &self.hooks;
        moves.retain(|mv| hooks.is_tactical(game, *mv));
        let mut scores: SmallVec<[i32; 64]> = moves
            .iter()
            .map(|&mv| {
                if game.position().is_capture(mv) {
                    CAPTURE + hooks.capture_order(game, mv)
                } else {
                    0
                }
            })
            .collect();

        for i in 0..moves.len() {
            pick_next(&mut moves, &mut scores, i);
            let mv = moves[i];
            game.play_unchecked(mv);
            let value = if game.position().side_to_move() == stm {
                self.quiescence(game, ctx, alpha, beta, ply + 1)
            } else {
                -self.quiescence(game, ctx, -beta, -alpha, ply + 1)
            };
            game.undo();
            if ctx.stopped {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    self.st.pv.update(ply, mv);
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
