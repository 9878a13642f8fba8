//! One search thread: its own tables and the way to build it.

use qi_core::Game;

use super::context::NodeSharing;
use super::params::{lmr_table, SearchParams};
use crate::hooks::{MoveOf, SearchHooks};
use crate::limits::SearchOptions;
use crate::ordering::{History, Killers};
use crate::pv::PvTable;

/// Per-thread search tables: history, killers, the PV table.
pub(super) struct ThreadState<M> {
    pub(super) history: History,
    pub(super) killers: Killers<M>,
    pub(super) pv: PvTable<M>,
    /// The best root move of the running iteration.
    pub(super) root_move: Option<M>,
    /// Root moves the running search skips: the lines already found in
    /// this iteration of a MultiPV search (empty in a single-line one).
    pub(super) excluded: Vec<M>,
    /// Late-move reductions by depth and moves searched.
    pub(super) lmr: Vec<[u8; 64]>,
}

impl<M: Copy + Eq> ThreadState<M> {
    /// The tables of a thread searching a game with `move_indices` move
    /// indices.
    pub(super) fn new(move_indices: usize) -> ThreadState<M> {
        ThreadState {
            history: History::new(move_indices),
            killers: Killers::new(),
            pv: PvTable::new(),
            root_move: None,
            excluded: Vec::new(),
            lmr: lmr_table(),
        }
    }

    /// The late-move reduction after `searched` moves at `depth`.
    #[inline]
    pub(super) fn lmr(&self, depth: i32, searched: usize) -> i32 {
        i32::from(self.lmr[(depth as usize).min(63)][searched.min(63)])
    }

    pub(super) fn clear(&mut self) {
        self.history.clear();
        self.killers.clear();
        self.root_move = None;
    }

    /// Before a search: fade the history, forget killers and the root move.
    pub(super) fn prepare(&mut self) {
        self.history.age();
        self.killers.clear();
        self.root_move = None;
    }
}

/// One search thread: its tables, the shared or local transposition table,
/// and the options.
pub(super) struct Worker<'a, G: Game, H, T> {
    pub(super) options: SearchOptions,
    /// The hooks' margins ([`SearchHooks::search_params`]), read once.
    pub(super) params: SearchParams,
    pub(super) hooks: &'a H,
    pub(super) tt: T,
    pub(super) st: &'a mut ThreadState<MoveOf<G>>,
    /// Added to every iteration's depth (helper threads search deeper).
    pub(super) depth_offset: u32,
    /// How this thread's node count reaches the `info` lines.
    pub(super) sharing: NodeSharing<'a>,
    /// Iterations up to this depth complete whatever the node limit (a
    /// weakened search keeps at least a sound one-ply look with its
    /// quiescence).
    pub(super) floor_depth: u32,
    /// The root moves searched (UCI's `searchmoves`); empty: every legal
    /// move.
    pub(super) root_only: &'a [MoveOf<G>],
}

impl<'a, G: Game, H: SearchHooks<G>, T> Worker<'a, G, H, T> {
    /// A worker searching with `options`, `hooks` and the table `tt`, in
    /// its tables `st`; it starts every iteration `depth_offset` plies
    /// deeper and shares its node count as `sharing` says.
    pub(super) fn new(
        options: SearchOptions,
        hooks: &'a H,
        tt: T,
        st: &'a mut ThreadState<MoveOf<G>>,
        depth_offset: u32,
        sharing: NodeSharing<'a>,
    ) -> Worker<'a, G, H, T> {
        Worker {
            options,
            params: hooks.search_params(),
            hooks,
            tt,
            st,
            depth_offset,
            sharing,
            floor_depth: 0,
            root_only: &[],
        }
    }
}
