//! Five Tigers (五虎棋) movement-phase endings: every position of the
//! movement phase with 1 to 5 pieces a side on the board (to 4 under
//! `shuttle = forbidden`) and nothing owed, solved by retrograde analysis
//! under a rule set's board rules.
//!
//! This module is what the table core needs of Five Tigers
//! ([`TableGame`](crate::TableGame) for [`FiveTigers`]) and what is Five Tigers' own:
//!
//! * [`Material`] is a pair of piece counts (`3v2`: First has 3, Second 2);
//!   pieces of a side are identical.
//! * A [`Table`] stores one canonical state per class of the board's 8
//!   symmetries ([`Slots`], its [`TableGame::Index`](crate::TableGame::Index)): a version-1 file's
//!   as a sorted array of 64-bit keys searched by bisection (written in
//!   the file before the values; [`Table::keyed`] gives a table in that
//!   form), a generated table's in the slots of a dense index computed
//!   from a position: version-2 blocked files over the boards (shuttle
//!   allowed), version-3 over the cells of the boards and bans (shuttle
//!   forbidden), no key stored, probed a block at a time.
//! * The generator: [`solve_material`], one solver by un-moves over one
//!   index for both shuttle options (`cells` over `dense_ban`'s cells):
//!   under `shuttle = forbidden` a board slot of `dense` is followed by a
//!   cell per pair of bans (`bans` adds what the bans do), with the
//!   shuttle allowed it is the index with no bans, a cell per board slot.
//!   The tests check it against the forward move graph of a material, the
//!   owed-removal states nodes of their own, labelled backwards.
//!
//! What is in a state: the boards, the side to move and, under
//! `shuttle = forbidden`, each side's previous step while it can still ban
//! a step back (the shuttle rule is part of the moves, so a table without
//! it would be wrong). The quiet count and repetitions are game-record
//! rules and are not in the tables. A step that forms a formation makes
//! its side owed removals; the positions in between, where removals are
//! owed, are nodes of the graph of their own (each removal is a ply, and
//! the side that chooses a removal, the taker or the owner giving up a
//! piece of a formation, decides at that node), so the values are exact;
//! they are not stored in the files and not counted in the statistics.
//!
//! The tables depend on the `shuttle` option and the formations' values
//! ([`same_board_rules`]): `shandong` and `ten` share their tables,
//! `deferred` (a four-diagonal worth 4) has its own.
//!
//! The modules (none imports this one, which only lists and re-exports
//! them, and probes through owed removals):
//!
//! | role | modules |
//! |---|---|
//! | materials, the rules tables depend on, counts | `material`, `stats`, `count` |
//! | states and their keys; the index (board slots, their cells) and slots | `key`, `dense`, `dense_ban`, `layout`, `table` |
//! | the table core's trait | `game` |
//! | a position's steps and start, shared by the generators | `steps` |
//! | solving in core (the generator's entry point, `cells`) | `removals`, `cells`, `bans`, `slice` |
//! | solving out of core | `out_of_core` (its cells, file, schedule, disk room, halves, threads) |
//! | a table from its twin (colours swapped) | `twin` |
//! | planning a directory's run, the game's ways of the executor | `within_memory` (one material's memory at a time, the twin, out of core, the cluster's slice), `file_stats` |
//!
//! ```
//! use qi_games::five_tigers::{FiveTigers, Rules};
//! use qi_tablebase::five_tigers::{Material, Tablebase};
//! use qi_tablebase::Wdl;
//!
//! let rules = Rules::shandong_shuttle();
//! let tb = Tablebase::generate(&rules, &["3v1".parse::<Material>().unwrap()], 2).unwrap();
//! // X steps b1-c1 to complete the three-diagonal a3-b2-c1 and takes the
//! // last O piece: two plies (the step and the removal).
//! let pos = FiveTigers::from_text_lenient("4O/5/X4/1X3/1X3 x move X:0,O:0 - x -,- 0", rules).unwrap();
//! assert_eq!(tb.probe(&pos).unwrap(), Some((Wdl::Win, 2)));
//! ```

mod bans;
mod cells;
mod count;
mod dense;
mod dense_ban;
mod file_stats;
mod game;
mod key;
mod layout;
mod material;
mod out_of_core;
mod removals;
mod slice;
mod stats;
mod steps;
mod table;
mod twin;
mod within_memory;

use qi_core::Position;
use qi_five_tigers::{FiveTigers, Phase, Rules};

pub use cells::solve_material;
pub use count::{estimated_state_count, raw_state_count, EXACT_PLACEMENTS};
pub use file_stats::file_stats;
pub use layout::{Dense, Slots};
pub use material::{
    closure, same_board_rules, Material, MaterialError, MAX_PIECES, MAX_PIECES_FORBIDDEN,
};
pub(crate) use material::{forbids_shuttle, within_rules};
pub use out_of_core::{solve_out_of_core, OutOfCoreReport};
pub use slice::FiveTigersSlice;
pub use stats::Stats;
pub use table::{position_of_key, LazyTablebase, Table, Tablebase};
pub use within_memory::plan_bounded;

use crate::probe::ProbeError;
use crate::value::Wdl;

impl crate::LazyTablebase<FiveTigers> {
    /// The most pieces of one side in any material whose file was in the
    /// directory when it was opened (0 for none, at most [`MAX_PIECES`];
    /// [`max_size`](crate::LazyTablebase::max_size)): a position with more
    /// on a side has no table.
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::{LazyTablebase, Tablebase};
    ///
    /// let rules = Rules::shandong_shuttle();
    /// let dir = tempfile::tempdir()?;
    /// Tablebase::generate(&rules, &["3v1".parse()?], 1)?.save_dir(dir.path())?;
    /// assert_eq!(LazyTablebase::open(dir.path(), &rules)?.max_pieces(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_pieces(&self) -> u32 {
        self.max_size()
    }

    /// [`probe`](crate::LazyTablebase::probe), and for a movement position
    /// with removals owed (which no file stores: the nodes between a
    /// forming step and the next step) the best, for the side that decides
    /// there, of its removals' values, each removal a ply, down to
    /// positions with nothing owed (one ply a removal the step earned), reading the
    /// tables they lead to as needed. `None` when a position reached is
    /// not covered (a table missing, or too many pieces a side).
    pub fn probe_through_removals(&self, pos: &FiveTigers) -> Probed {
        probe_through_removals(self.rules(), pos, &|p| self.probe(p))
    }
}

impl crate::Tablebase<FiveTigers> {
    /// [`probe`](crate::Tablebase::probe), and for a movement position with
    /// removals owed the value through them, as
    /// [`LazyTablebase::probe_through_removals`](crate::LazyTablebase::probe_through_removals)
    /// gives it.
    pub fn probe_through_removals(&self, pos: &FiveTigers) -> Probed {
        probe_through_removals(self.rules(), pos, &|p| self.probe(p))
    }
}

/// What a probe answers.
type Probed = Result<Option<(Wdl, u32)>, ProbeError>;

/// The value and distance of `pos` as `probe` (of tables made under
/// `rules`) gives them, through the removals owed if any (see
/// `LazyTablebase::probe_through_removals`).
fn probe_through_removals(
    rules: &Rules,
    pos: &FiveTigers,
    probe: &dyn Fn(&FiveTigers) -> Probed,
) -> Probed {
    if pos.phase() != Phase::Movement || pos.owed().is_empty() || pos.outcome().is_some() {
        return probe(pos);
    }
    // The rules are checked before any removal is expanded.
    crate::probe::settle(rules, pos)?;
    removals::best_removal(pos, &mut removals::Memo::new(), &mut |p| probe(p))
}
