//! Jungle (斗兽棋) endgames: what the table core needs of Jungle
//! ([`TableGame`] for [`Jungle`]), and what is Jungle's own.
//!
//! * [`Material`] indexes its positions: a bijection between
//!   `0..index_count()` and the placements of its animals on distinct
//!   squares where each may stand (a Rat anywhere but the dens, the others
//!   on land but not the dens), times the side to move, taken one of each
//!   left-right mirror pair (every preset's board is the same in a
//!   mirror, so both have one value); `position_count()` counts them all.
//!   The index is a formula, so a table file stores no keys.
//! * [`Solver::solve`](crate::Solver::solve) solves one material given
//!   the tables of the materials its captures lead to.
//! * [`JungleSlice`] is a material as a slice of the generic retrograde
//!   rounds ([`crate::retrograde`]), which also run on many workers and
//!   processes (`dataflow`, with the `distributed` feature).
//!
//! Only the board rules are in the tables (the moves and
//! [`Position::outcome`]); the no-capture draw, repetition and anti-chase
//! rules of the game record are not.
//!
//! ```
//! use qi_games::jungle::{Jungle, Rules};
//! use qi_tablebase::jungle::{Material, Tablebase};
//! use qi_tablebase::Wdl;
//!
//! let rules = Rules::standard();
//! let tb = Tablebase::generate(&rules, &["LvC".parse::<Material>().unwrap()], 2).unwrap();
//! // Red Lion on d8, beside the Blue den: it enters at once.
//! let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", rules).unwrap();
//! assert_eq!(tb.probe(&pos).unwrap(), Some((Wdl::Win, 1)));
//! ```

mod material;
mod slice;
mod tables;

use qi_core::Position;
use qi_jungle::{Jungle, ParseRulesError, Rules};

pub use material::{Indexer, Material, MaterialError};
pub use slice::JungleSlice;
pub use tables::{LazyTablebase, Table, Tablebase};

use crate::driver::GenerateError;
use crate::format::versions::SlotIndex;
use crate::format::FormatError;
use crate::game::{Settled, TableGame};
use crate::value::Wdl;

/// Whether two rule sets have the same board rules (the ones a table
/// depends on): rank order, jumps, jump blocking, what an animal on an
/// enemy trap may capture, rat-bank captures.
///
/// ```
/// use qi_games::jungle::{Rules, TrappedAttacks};
/// use qi_tablebase::jungle::same_board_rules;
///
/// let standard = Rules::standard();
/// // The anti-chase rule looks at the history, not the board.
/// assert!(same_board_rules(&standard, &Rules { anti_chase: true, ..standard }));
/// let other = Rules { rat_bank_capture: !standard.rat_bank_capture, ..standard };
/// assert!(!same_board_rules(&standard, &other));
/// let trapped = Rules { trapped_attacks: TrappedAttacks::None, ..standard };
/// assert!(!same_board_rules(&standard, &trapped));
/// ```
pub fn same_board_rules(a: &Rules, b: &Rules) -> bool {
    // Every field named, none left to `..`: an option qi-jungle adds does
    // not compile here until it is sorted into the board rules (compared)
    // or the game-record rules (a table does not depend on them).
    let Rules {
        rank_order,
        lion_jumps,
        tiger_jumps,
        jump_block,
        jump_block_area,
        trapped_attacks,
        rat_bank_capture,
        no_capture_draw: _,
        repetition: _,
        anti_chase: _,
    } = *a;
    rank_order == b.rank_order
        && lion_jumps == b.lion_jumps
        && tiger_jumps == b.tiger_jumps
        && jump_block == b.jump_block
        && jump_block_area == b.jump_block_area
        && trapped_attacks == b.trapped_attacks
        && rat_bank_capture == b.rat_bank_capture
}

/// Counts of one table (the counting convention of `docs/tablebases.md`).
///
/// ```
/// use qi_games::jungle::Rules;
/// use qi_tablebase::jungle::{Material, Tablebase};
///
/// let m: Material = "LvC".parse()?;
/// let tb = Tablebase::generate(&Rules::standard(), &[m], 1)?;
/// let stats = tb.table(m).unwrap().stats();
/// assert_eq!(stats.positions, m.position_count());
/// assert_eq!(stats.wins + stats.draws + stats.losses, stats.positions);
/// assert!(stats.longest_win > 0 && stats.longest_win_index.is_some());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions.
    pub positions: u64,
    /// Positions won by the side to move.
    pub wins: u64,
    /// Positions drawn.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// The longest win, in plies.
    pub longest_win: u32,
    /// The index of a position with the longest win (the lowest), if any
    /// position is won.
    pub longest_win_index: Option<u64>,
}

impl TableGame for Jungle {
    type Rules = Rules;
    type RulesError = ParseRulesError;
    type Material = Material;
    type MaterialError = MaterialError;
    /// The index is [`Material::index_of`], a formula: nothing is stored,
    /// its arithmetic is kept with the table.
    type Index = Indexer;
    type Stats = Stats;

    const NAME: &'static str = "jungle";
    const EXTENSION: &'static str = "qtb";
    const RULES_DIFFER: &'static str =
        "other board rules: rank order, jumps, jump blocking or rat-bank captures";

    fn same_board_rules(a: &Rules, b: &Rules) -> bool {
        same_board_rules(a, b)
    }

    fn rules_of(pos: &Jungle) -> &Rules {
        pos.rules()
    }

    fn settle(pos: &Jungle) -> Settled<Material> {
        if let Some(outcome) = pos.outcome() {
            return Settled::Answer(Some((Wdl::of_outcome(outcome, pos.side_to_move()), 0)));
        }
        match Material::of(pos) {
            Some(m) => Settled::Table(m),
            None => Settled::Answer(None),
        }
    }

    fn slot(_material: Material, index: &Indexer, pos: &Jungle) -> Option<u64> {
        index.index_of(pos)
    }

    fn size(material: Material) -> u32 {
        material.total()
    }

    /// Fewest animals first, then in material order.
    fn closure(materials: &[Material], _rules: &Rules) -> Vec<Material> {
        let mut all = std::collections::BTreeSet::new();
        let mut todo: Vec<Material> = materials.to_vec();
        while let Some(m) = todo.pop() {
            if all.insert(m) {
                todo.extend(m.after_captures());
            }
        }
        let mut out: Vec<Material> = all.into_iter().collect();
        out.sort_by_key(|m| (m.total(), *m));
        out
    }

    fn level(material: Material) -> u32 {
        material.total()
    }

    fn dependencies(material: Material, _rules: &Rules) -> Vec<Material> {
        material.after_captures()
    }

    /// A bound (the tables it reads not counted): per index a state byte
    /// and a distance of one byte while solving (two, solved again, past
    /// 254 plies: 3), then a value byte and a two-byte distance handed to
    /// the table, whose packed values and distances take 1.25 more: 8
    /// bytes, and the predecessors of a block of decided positions.
    fn generation_memory(material: Material, _rules: &Rules) -> u64 {
        material
            .index_count()
            .saturating_mul(8)
            .saturating_add((1 << 16) * 8 * 16)
    }

    /// 2 bits and a one-byte distance an index (every table up to 4
    /// animals measured has distances below 256).
    fn table_bytes(material: Material, _rules: &Rules) -> u64 {
        material.index_count().saturating_mul(5) / 4
    }

    /// One position of each left-right mirror pair, ranked.
    fn slot_index(_index: &Indexer) -> SlotIndex {
        SlotIndex::JungleRank
    }

    fn index_bytes(_index: &Indexer) -> Vec<u8> {
        Vec::new()
    }

    fn read_index(
        material: Material,
        _rules: &Rules,
        _slots: SlotIndex,
        count: u64,
        _bytes: &[u8],
    ) -> Result<Indexer, FormatError> {
        let ix = Indexer::new(material);
        if count != ix.count {
            return Err(FormatError::CountMismatch {
                material: material.to_string(),
                expected: ix.count,
                found: count,
            });
        }
        Ok(ix)
    }

    /// Wins, draws and losses for the side to move and the longest win,
    /// by the counting convention: an index stands for a position and its
    /// mirror image unless it is its own (see [`Material::index_count`]).
    fn stats(table: &Table) -> Stats {
        let ix = table.index();
        let mut s = Stats::default();
        for i in 0..table.len() {
            let Some((wdl, d)) = table.at(i) else { break };
            let weight = ix.weight(i);
            s.positions += weight;
            match wdl {
                Wdl::Win => {
                    s.wins += weight;
                    if s.longest_win_index.is_none() || d > s.longest_win {
                        s.longest_win = d;
                        s.longest_win_index = Some(i);
                    }
                }
                Wdl::Draw => s.draws += weight,
                Wdl::Loss => s.losses += weight,
            }
        }
        s
    }
}

/// Every Jungle table is solved in core, the tables it reads held, or
/// on a cluster as a [`JungleSlice`].
impl crate::Generator for Jungle {
    type Slice = JungleSlice;

    /// The slice reads the tables its captures lead to, copied so that
    /// the workers own them.
    fn slice(
        rules: &Rules,
        material: Material,
        smaller: Option<&Tablebase>,
    ) -> Result<JungleSlice, GenerateError> {
        let Some(smaller) = smaller else {
            return Ok(JungleSlice::reading(material, rules));
        };
        let mut read = Tablebase::new(rules);
        for m in material.after_captures() {
            read.insert_table(smaller.needed(material, m)?.clone());
        }
        Ok(JungleSlice::new(material, rules, read))
    }

    fn slice_table(
        slice: &JungleSlice,
        values: &crate::retrograde::SliceValues,
        _threads: usize,
    ) -> Result<Table, GenerateError> {
        Ok(slice.table(values))
    }
}

impl crate::LazyTablebase<Jungle> {
    /// The most animals of any material whose file was in the directory
    /// when it was opened ([`max_size`](crate::LazyTablebase::max_size)):
    /// a position with more has no table.
    ///
    /// ```
    /// use qi_games::jungle::Rules;
    /// use qi_tablebase::jungle::{LazyTablebase, Tablebase};
    ///
    /// let rules = Rules::standard();
    /// let dir = tempfile::tempdir()?;
    /// Tablebase::generate(&rules, &["LRvE".parse()?], 2)?.save_dir(dir.path())?;
    /// assert_eq!(LazyTablebase::open(dir.path(), &rules)?.max_animals(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_animals(&self) -> u32 {
        self.max_size()
    }
}
