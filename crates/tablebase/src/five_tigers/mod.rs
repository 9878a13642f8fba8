//! Five Tigers (五虎棋) movement-phase endings: every position of the
//! movement phase with 1 to 5 pieces a side on the board (to 4 under
//! `shuttle = forbidden`) and nothing owed, solved by retrograde analysis
//! under a rule set's board rules.
//!
//! This module is what the table core needs of Five Tigers
//! ([`TableGame`] for [`FiveTigers`]) and what is Five Tigers' own:
//!
//! * [`Material`] is a pair of piece counts (`3v2`: First has 3, Second 2);
//!   pieces of a side are identical.
//! * A [`Table`] stores one canonical state per class of the board's 8
//!   symmetries ([`Slots`], its [`TableGame::Index`]): a version-1 file's
//!   as a sorted array of 64-bit keys searched by bisection (written in
//!   the file before the values; [`Table::keyed`] gives a table in that
//!   form), a generated table's in the slots of a dense index computed
//!   from a position: version-2 blocked files over the boards (shuttle
//!   allowed), version-3 over the cells of the boards and bans (shuttle
//!   forbidden), no key stored, probed a block at a time.
//! * The generator: [`solve_material`], by un-moves over a dense index
//!   (`retro`; `retro_ban` with `dense_ban` under `shuttle = forbidden`,
//!   a cell per pair of bans). The tests check it against the forward
//!   move graph of a material, the owed-removal states nodes of their
//!   own, labelled backwards.
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

mod bounded;
mod count;
mod dense;
mod dense_ban;
mod file_stats;
mod key;
mod layout;
mod removals;
mod resume;
mod retro;
mod retro_ban;
mod retro_disk;
mod slice;
mod swap;

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use qi_core::{Position, Side};
use qi_five_tigers::{FiveTigers, Phase, Rules, RulesError, Shuttle};
use thiserror::Error;

pub use bounded::{generate_bounded, plan_bounded, Solved};
pub use count::{estimated_state_count, raw_state_count, EXACT_PLACEMENTS};
pub use file_stats::file_stats;
pub use layout::{Dense, DenseBan, Slots};
#[cfg(feature = "distributed")]
pub use resume::{generate_distributed, generate_partitioned};
pub use resume::{generate_resumable, join_partitions};
pub use retro_disk::{solve_out_of_core, OutOfCoreReport};
pub use slice::FiveTigersSlice;

use crate::driver::GenerateError;
use crate::driver::Solver;
use crate::format::versions::{version_of, SlotIndex};
use crate::format::FormatError;
use crate::game::{Settled, TableGame};
use crate::probe::ProbeError;
use crate::value::Wdl;
use key::State;

/// The Five Tigers tables in memory.
pub type Tablebase = crate::Tablebase<FiveTigers>;
/// The Five Tigers tables of a directory, read on first use.
pub type LazyTablebase = crate::LazyTablebase<FiveTigers>;
/// One Five Tigers table.
pub type Table = crate::Table<FiveTigers>;

/// The most pieces a side may have in a material, under either shuttle
/// option.
pub const MAX_PIECES: u32 = 5;

/// The most pieces a side may have in a material under `shuttle =
/// forbidden`: as many as with the shuttle allowed. The previous steps
/// multiply a table by up to 74 at 3 a side and about 100 at 4; the
/// solve takes about 5 bytes a state, so `4v4`'s 1.9 · 10⁹ states take
/// about 10 GB, `5v3`'s 1.5 · 10⁹ about 7 GB, and `5v4`'s 7.2 · 10⁹ (36
/// GB) and `5v5`'s 2.5 · 10¹⁰ (125 GB) more than one machine of ours: `qi
/// tb generate` refuses a material whose estimate
/// ([`TableGame::generation_memory`]) is more than the machine's memory.
pub const MAX_PIECES_FORBIDDEN: u32 = MAX_PIECES;

/// The blocked file version over the dense index (`shuttle = allowed`).
const DENSE_VERSION: u16 = version_of(SlotIndex::FiveTigersDense);

/// The blocked file version over the cells of the ban index (`shuttle =
/// forbidden`): a version of its own, so that the header names the
/// formula and neither reader takes the other's slots.
pub(crate) const DENSE_BAN_VERSION: u16 = version_of(SlotIndex::FiveTigersDenseBan);

/// Whether two rule sets give the same tables: the same `shuttle` option
/// and the same formation values (with 4 pieces a side a four-diagonal or
/// a small square can be formed, whose values presets change; up to 3 a
/// side only the three-diagonal, worth 2 in every preset, could, so the
/// values did not matter before the 4-a-side tables).
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::same_board_rules;
///
/// assert!(same_board_rules(&Rules::shandong(), &Rules::ten()));
/// assert!(!same_board_rules(&Rules::shandong(), &Rules::shandong_shuttle()));
/// assert!(!same_board_rules(&Rules::shandong(), &Rules::preset("deferred")?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn same_board_rules(a: &Rules, b: &Rules) -> bool {
    a.shuttle == b.shuttle && a.values() == b.values()
}

/// A material: how many pieces each side has on the board (1 to 5 each).
///
/// ```
/// use qi_tablebase::five_tigers::Material;
///
/// let material: Material = "3v2".parse()?;
/// assert_eq!((material.first, material.second), (3, 2));
/// assert_eq!(material.to_string(), "3v2");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// First's (X's) pieces.
    pub first: u32,
    /// Second's (O's) pieces.
    pub second: u32,
}

/// Why a material text or count was refused.
///
/// ```
/// use qi_tablebase::five_tigers::{Material, MaterialError};
///
/// assert_eq!("3-2".parse::<Material>(), Err(MaterialError::Syntax("3-2".into())));
/// assert_eq!("6v1".parse::<Material>(), Err(MaterialError::Count("6v1".into())));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MaterialError {
    /// Not of the form `<n>v<n>`.
    #[error("bad material {0:?}: expected <first>v<second>, e.g. 3v2")]
    Syntax(String),
    /// A count outside 1 to 5.
    #[error("bad material {0:?}: each side has 1 to 5 pieces")]
    Count(String),
}

impl Material {
    /// The material with these counts, if each is 1 to 5.
    ///
    /// ```
    /// use qi_tablebase::five_tigers::Material;
    ///
    /// assert_eq!(Material::new(3, 2)?, "3v2".parse()?);
    /// assert!(Material::new(0, 2).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(first: u32, second: u32) -> Result<Material, MaterialError> {
        if (1..=MAX_PIECES).contains(&first) && (1..=MAX_PIECES).contains(&second) {
            Ok(Material { first, second })
        } else {
            Err(MaterialError::Count(format!("{first}v{second}")))
        }
    }

    /// The material of a position's boards, if covered.
    fn of_boards(boards: [u32; 2]) -> Option<Material> {
        Material::new(boards[0].count_ones(), boards[1].count_ones()).ok()
    }

    /// The material of a position, if each side has 1 to 5 pieces on the
    /// board.
    ///
    /// ```
    /// use qi_games::five_tigers::{FiveTigers, Rules};
    /// use qi_tablebase::five_tigers::Material;
    ///
    /// // The start has no piece on the board yet.
    /// assert_eq!(Material::of(&FiveTigers::default()), None);
    /// let text = "4O/5/X4/1X3/1X3 x move X:0,O:0 - x -,- 0";
    /// let pos = FiveTigers::from_text_lenient(text, Rules::shandong_shuttle())?;
    /// assert_eq!(Material::of(&pos), Some("3v1".parse()?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of(pos: &FiveTigers) -> Option<Material> {
        Material::of_boards([pos.pieces(Side::First).0, pos.pieces(Side::Second).0])
    }

    /// All materials of up to `per_side` pieces a side (at most 5), fewest
    /// pieces first.
    ///
    /// ```
    /// use qi_tablebase::five_tigers::Material;
    ///
    /// let all: Vec<String> = Material::all_up_to(2).iter().map(|m| m.to_string()).collect();
    /// assert_eq!(all, ["1v1", "2v1", "1v2", "2v2"]);
    /// assert_eq!(Material::all_up_to(9).len(), 25);
    /// ```
    pub fn all_up_to(per_side: u32) -> Vec<Material> {
        let mut all: Vec<Material> = (1..=per_side.min(MAX_PIECES))
            .flat_map(|a| {
                (1..=per_side.min(MAX_PIECES)).map(move |b| Material {
                    first: a,
                    second: b,
                })
            })
            .collect();
        all.sort_by_key(|m| (m.first + m.second, std::cmp::Reverse(m.first)));
        all
    }

    /// The materials a removal sequence of this one ends in with the game
    /// still on: a side forms formations with one step and takes their
    /// summed value in pieces from the other side, which keeps some.
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::Material;
    ///
    /// // Three pieces form a three-diagonal at most: two removals.
    /// let after = "3v3".parse::<Material>()?.after_removals(&Rules::shandong());
    /// assert_eq!(after, ["3v1".parse()?, "1v3".parse()?]);
    /// // Two pieces form nothing.
    /// assert!("2v2".parse::<Material>()?.after_removals(&Rules::shandong()).is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn after_removals(self, rules: &Rules) -> Vec<Material> {
        let mut out = Vec::new();
        for v in removal_values(self.first, rules) {
            if self.second > v {
                out.push(Material {
                    first: self.first,
                    second: self.second - v,
                });
            }
        }
        for v in removal_values(self.second, rules) {
            if self.first > v {
                out.push(Material {
                    first: self.first - v,
                    second: self.second,
                });
            }
        }
        out
    }

    /// Total pieces.
    ///
    /// ```
    /// use qi_tablebase::five_tigers::Material;
    ///
    /// assert_eq!("3v2".parse::<Material>()?.total(), 5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn total(self) -> u32 {
        self.first + self.second
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.first, self.second)
    }
}

impl FromStr for Material {
    type Err = MaterialError;

    fn from_str(text: &str) -> Result<Material, MaterialError> {
        let syntax = || MaterialError::Syntax(qi_core::Escaped(text).to_string());
        let (a, b) = text.split_once('v').ok_or_else(syntax)?;
        let digit = |s: &str| {
            if s.len() == 1 && s.as_bytes()[0].is_ascii_digit() {
                Ok(u32::from(s.as_bytes()[0] - b'0'))
            } else {
                Err(syntax())
            }
        };
        let (a, b) = (digit(a)?, digit(b)?);
        Material::new(a, b).map_err(|_| MaterialError::Count(qi_core::Escaped(text).to_string()))
    }
}

/// The removals one step of a side with `pieces` pieces may earn: the
/// summed values of the formations through the point stepped onto that
/// fit on `pieces` points together (a superset of what can happen: a few
/// sums may need a formation held beside them, so a closure may hold a
/// material no removal reaches, never miss one). With 3 pieces only the
/// three-diagonal fits.
fn removal_values(pieces: u32, rules: &Rules) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for through in qi_five_tigers::THROUGH.iter() {
        let n = through.len as usize;
        for subset in 1u32..(1 << n) {
            let mut union = 0u32;
            let mut value = 0u32;
            for i in 0..n {
                if subset & (1 << i) != 0 {
                    union |= through.masks[i].0;
                    value += u32::from(through.kinds[i].value(rules));
                }
            }
            if union.count_ones() <= pieces && !out.contains(&value) {
                out.push(value);
            }
        }
    }
    out.sort_unstable();
    out
}

/// The materials needed to solve `materials`: themselves and what their
/// removals lead to, fewest pieces first.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{closure, Material};
///
/// let needed = closure(&["3v3".parse()?], &Rules::shandong());
/// let needed: Vec<String> = needed.iter().map(Material::to_string).collect();
/// assert_eq!(needed, ["3v1", "1v3", "3v3"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn closure(materials: &[Material], rules: &Rules) -> Vec<Material> {
    let mut all: Vec<Material> = Vec::new();
    let mut stack: Vec<Material> = materials.to_vec();
    while let Some(m) = stack.pop() {
        if !all.contains(&m) {
            all.push(m);
            stack.extend(m.after_removals(rules));
        }
    }
    all.sort_by_key(|m| (m.total(), std::cmp::Reverse(m.first)));
    all
}

/// Solves `material` under `rules` by retrograde analysis over its dense
/// index (under `shuttle = forbidden` over the cells of the ban index),
/// given the tables of the materials its removals lead to (in `smaller`),
/// on `threads` threads.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{solve_material, Tablebase};
///
/// // 1v1 leads to no smaller material: no tables are needed.
/// let rules = Rules::shandong();
/// let none = Tablebase::generate(&rules, &[], 1)?;
/// let table = solve_material(&rules, "1v1".parse()?, &none, 1)?;
/// assert!(table.stats().positions > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve_material(
    rules: &Rules,
    material: Material,
    smaller: &Tablebase,
    threads: usize,
) -> Result<Table, GenerateError> {
    within_rules(material, rules)?;
    if forbids_shuttle(rules) {
        retro_ban::solve(material, rules, smaller, threads)
    } else {
        retro::solve(material, rules, smaller, threads)
    }
}

/// The larger side of `material`, refused when the rules give fewer
/// pieces a side.
pub(crate) fn within_rules(material: Material, rules: &Rules) -> Result<u32, GenerateError> {
    let needed = material.first.max(material.second);
    if needed > u32::from(rules.pieces_per_side) {
        return Err(GenerateError::TooManyPieces {
            material: material.to_string(),
            needed,
            allowed: rules.pieces_per_side,
        });
    }
    Ok(needed)
}

/// Counts of one table by the counting convention: every placement of the
/// material on distinct points, each side to move counted separately, no
/// previous step (each stored state weighed by the size of its symmetry
/// class).
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{Material, Tablebase};
///
/// let one: Material = "1v1".parse()?;
/// let tb = Tablebase::generate(&Rules::shandong(), &[one], 1)?;
/// let stats = tb.table(one).expect("generated").stats();
/// assert_eq!(stats.positions, stats.wins + stats.draws + stats.losses);
/// assert!(stats.canonical <= stats.positions);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions by the convention.
    pub positions: u64,
    /// Stored canonical states among them.
    pub canonical: u64,
    /// Every stored state (under `shuttle = forbidden` also those with a
    /// banned step back).
    pub stored: u64,
    /// Positions won by the side to move.
    pub wins: u64,
    /// Positions drawn.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// The longest win, in plies.
    pub longest_win: u32,
    /// The key of a stored state with the longest win (the lowest), if any
    /// position is won.
    pub longest_win_key: Option<u64>,
}

impl Stats {
    /// Counts a stored state without bans: its canonical `key`, the size
    /// of its symmetry class (`class` positions), its value and distance.
    pub(crate) fn add_position(&mut self, key: u64, class: u64, v: Wdl, d: u32) {
        self.canonical += 1;
        self.positions += class;
        match v {
            Wdl::Win => {
                self.wins += class;
                self.note_win(d, key);
            }
            Wdl::Draw => self.draws += class,
            Wdl::Loss => self.losses += class,
        }
    }

    /// A win of `d` plies at `key`: the longest so far, the lowest key
    /// among equals.
    fn note_win(&mut self, d: u32, key: u64) {
        let longer = d > self.longest_win
            || (d == self.longest_win && self.longest_win_key.is_some_and(|k| key < k));
        if self.longest_win_key.is_none() || longer {
            self.longest_win = d;
            self.longest_win_key = Some(key);
        }
    }

    /// The counts of two tables, or of two parts of one, together (the
    /// longest win the longer one's; between two tables its key is of the
    /// table it came from).
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::{Material, Stats, Tablebase};
    ///
    /// let rules = Rules::shandong_shuttle();
    /// let ms: Vec<Material> = ["2v1".parse().unwrap(), "1v2".parse().unwrap()].to_vec();
    /// let tb = Tablebase::generate(&rules, &ms, 2).unwrap();
    /// let (a, b) = (tb.table(ms[0]).unwrap().stats(), tb.table(ms[1]).unwrap().stats());
    /// let both = a.merge(b);
    /// assert_eq!(both.positions, a.positions + b.positions);
    /// assert_eq!(both.longest_win, a.longest_win.max(b.longest_win));
    /// assert_eq!(Stats::default().merge(a), a);
    /// ```
    pub fn merge(mut self, other: Stats) -> Stats {
        self.positions += other.positions;
        self.canonical += other.canonical;
        self.stored += other.stored;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        if let Some(key) = other.longest_win_key {
            self.note_win(other.longest_win, key);
        }
        self
    }
}

impl TableGame for FiveTigers {
    type Rules = Rules;
    type RulesError = RulesError;
    type Material = Material;
    type MaterialError = MaterialError;
    /// The canonical keys of the stored states, or the dense index.
    type Index = Slots;
    type Stats = Stats;

    const NAME: &'static str = "five-tigers";
    /// Not the Jungle `qtb`, so that a directory may hold both games'
    /// tables.
    const EXTENSION: &'static str = "qft";
    const RULES_DIFFER: &'static str = "another shuttle rule or other formation values";

    fn same_board_rules(a: &Rules, b: &Rules) -> bool {
        same_board_rules(a, b)
    }

    fn rules_of(pos: &FiveTigers) -> &Rules {
        pos.rules()
    }

    /// The placement phase and positions with removals owed are not
    /// covered; a finished game (a side without pieces, or no legal step)
    /// answers at distance 0.
    fn settle(pos: &FiveTigers) -> Settled<Material> {
        if pos.phase() != Phase::Movement || !pos.owed().is_empty() {
            return Settled::Answer(None);
        }
        if let Some(outcome) = pos.outcome() {
            let value = Wdl::of_outcome(outcome, pos.side_to_move());
            return Settled::Answer(Some((value, 0)));
        }
        match Material::of(pos) {
            Some(material) => Settled::Table(material),
            None => Settled::Answer(None),
        }
    }

    /// `None` as well for a previous step whose way back the side to move
    /// blocks (no position of play has it).
    fn slot(material: Material, index: &Slots, pos: &FiveTigers) -> Option<u64> {
        if let Slots::Dense(_) = index {
            // Shuttle allowed (the rules were checked): no previous step
            // is part of the state.
            let boards = [pos.pieces(Side::First).0, pos.pieces(Side::Second).0];
            if !pos.owed().is_empty() || Material::of_boards(boards) != Some(material) {
                return None;
            }
            return index.plain_slot(boards, pos.side_to_move());
        }
        let state = State::from_position(pos).ok()?;
        if state.owed != 0 || Material::of_boards(state.boards) != Some(material) {
            return None;
        }
        index.slot_of_state(&state)
    }

    /// The pieces of the larger side.
    fn size(material: Material) -> u32 {
        material.first.max(material.second)
    }

    fn closure(materials: &[Material], rules: &Rules) -> Vec<Material> {
        closure(materials, rules)
    }

    fn level(material: Material) -> u32 {
        material.total()
    }

    fn dependencies(material: Material, rules: &Rules) -> Vec<Material> {
        material.after_removals(rules)
    }

    /// An estimate: the raw states ([`estimated_state_count`], sampled
    /// for the large materials under the ban) over 8 (the symmetry
    /// classes; a few states fixed by a symmetry make the true count
    /// slightly larger), at the in-core solver's bytes a cell.
    fn generation_memory(material: Material, rules: &Rules) -> u64 {
        let states = estimated_state_count(material, rules).div_ceil(8);
        (states * crate::in_core::BYTES_PER_4_CELLS).div_ceil(4)
    }

    /// An estimate, from the same count of states: a one-byte distance
    /// and 2 bits a state (a dense table stores no key).
    fn table_bytes(material: Material, rules: &Rules) -> u64 {
        let states = estimated_state_count(material, rules).div_ceil(8);
        states + states.div_ceil(4)
    }

    fn index_bytes(index: &Slots) -> Vec<u8> {
        match index {
            Slots::Keys(keys) => keys.iter().flat_map(|k| k.to_le_bytes()).collect(),
            Slots::Dense(_) | Slots::DenseBan(_) => Vec::new(),
        }
    }

    fn slot_index(index: &Slots) -> SlotIndex {
        match index {
            Slots::Keys(_) => SlotIndex::FiveTigersKeys,
            Slots::Dense(_) => SlotIndex::FiveTigersDense,
            Slots::DenseBan(_) => SlotIndex::FiveTigersDenseBan,
        }
    }

    /// The sorted keys of a keyed file, or the dense index of `material`
    /// (refused under `shuttle = forbidden`: its states hold previous
    /// steps, which the dense index has not) or its ban index (refused
    /// under `shuttle = allowed`).
    fn read_index(
        material: Material,
        rules: &Rules,
        slots: SlotIndex,
        count: u64,
        bytes: &[u8],
    ) -> Result<Slots, FormatError> {
        let wrong = |needs: &str| {
            let version = version_of(slots);
            Err(FormatError::BadRules {
                text: rules.to_string(),
                source: format!("a dense table of version {version} needs {needs}").into(),
            })
        };
        let index = match slots {
            SlotIndex::FiveTigersKeys => return read_keys(material, rules, bytes),
            SlotIndex::FiveTigersDense if forbids_shuttle(rules) => {
                return wrong("shuttle = allowed")
            }
            SlotIndex::FiveTigersDense => Slots::Dense(Dense::new(material)),
            SlotIndex::FiveTigersDenseBan if !forbids_shuttle(rules) => {
                return wrong("shuttle = forbidden")
            }
            SlotIndex::FiveTigersDenseBan => Slots::DenseBan(DenseBan::new(material)),
            SlotIndex::JungleRank => {
                return Err(FormatError::file::<FiveTigers>(
                    crate::format::container::FileError::WrongGame("jungle".into()),
                ))
            }
        };
        let expected = match &index {
            Slots::Dense(d) => d.len(),
            Slots::DenseBan(d) => d.len(),
            Slots::Keys(_) => 0,
        };
        if expected != count {
            return Err(FormatError::CountMismatch {
                material: material.to_string(),
                expected,
                found: count,
            });
        }
        Ok(index)
    }

    /// The statistics by the counting convention (see [`Stats`]).
    fn stats(table: &Table) -> Stats {
        table.count()
    }
}

/// The sorted canonical keys of a keyed file (8 bytes each), refusing
/// keys out of order or not of `material` under `rules`.
fn read_keys(material: Material, rules: &Rules, bytes: &[u8]) -> Result<Slots, FormatError> {
    let mut keys: Vec<u64> = Vec::with_capacity(bytes.len() / 8);
    for (i, c) in bytes.chunks_exact(8).enumerate() {
        let mut a = [0u8; 8];
        a.copy_from_slice(c);
        let k = u64::from_le_bytes(a);
        if keys.last().is_some_and(|&last| last >= k) || !valid_key(k, material, rules) {
            return Err(FormatError::BadKey(i as u64));
        }
        keys.push(k);
    }
    Ok(Slots::Keys(keys))
}

impl Solver for FiveTigers {
    /// By [`solve_material`].
    fn solve(
        rules: &Rules,
        material: Material,
        smaller: &Tablebase,
        threads: usize,
    ) -> Result<Table, GenerateError> {
        solve_material(rules, material, smaller, threads)
    }
}

/// The position of a stored state's canonical key (see
/// [`Stats::longest_win_key`]) under `rules`, if it is one.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{position_of_key, Material, Tablebase};
///
/// let rules = Rules::shandong_shuttle();
/// let m: Material = "3v1".parse().unwrap();
/// let tb = Tablebase::generate(&rules, &[m], 2).unwrap();
/// let s = tb.table(m).unwrap().stats();
/// let pos = position_of_key(s.longest_win_key.unwrap(), &rules).unwrap();
/// assert_eq!(Material::of(&pos), Some(m));
/// ```
pub fn position_of_key(key: u64, rules: &Rules) -> Option<FiveTigers> {
    State::from_key(key)?.to_position(rules)
}

/// Whether `key` is a state a table of `material` under `rules` stores.
fn valid_key(key: u64, material: Material, rules: &Rules) -> bool {
    let Some(state) = State::from_key(key) else {
        return false;
    };
    state.owed == 0
        && Material::of_boards(state.boards) == Some(material)
        && (forbids_shuttle(rules) || state.bans == [None, None])
        && state.key() == Some(key)
        && state.canonical().map(|c| c.0) == Some(key)
}

impl crate::Table<FiveTigers> {
    /// The value and distance of the state with canonical key `key`.
    pub(crate) fn get_key(&self, key: u64) -> Option<(Wdl, u32)> {
        self.index().slot_of_key(key).and_then(|i| self.at(i))
    }

    /// The position of a stored key (see [`Stats::longest_win_key`]).
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::{Material, Tablebase};
    /// use qi_tablebase::Wdl;
    ///
    /// let rules = Rules::shandong_shuttle();
    /// let m: Material = "3v1".parse()?;
    /// let tb = Tablebase::generate(&rules, &[m], 1)?;
    /// let table = tb.table(m).unwrap();
    /// let stats = table.stats();
    /// let longest = table.position_of_key(stats.longest_win_key.unwrap()).unwrap();
    /// assert_eq!(tb.probe(&longest)?, Some((Wdl::Win, stats.longest_win)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn position_of_key(&self, key: u64) -> Option<FiveTigers> {
        position_of_key(key, self.rules())
    }
}

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
    let unkept = |_: &FiveTigers| Ok(None::<()>);
    removals::through_removals(pos, &unkept, &mut HashMap::new(), &mut |p| probe(p))
}

/// Whether the shuttle rule is on (states then carry bans).
fn forbids_shuttle(rules: &Rules) -> bool {
    rules.shuttle == Shuttle::Forbidden
}
