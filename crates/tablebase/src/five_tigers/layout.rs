//! How a Five Tigers table finds a position's slot ([`Slots`], the
//! table's [`TableGame::Index`](crate::TableGame::Index)): the sorted
//! canonical keys of version-1 files, or the generated tables' dense
//! indices (blocked files: no key
//! stored; version 2 for the shuttle allowed, version 3 for the cells of
//! [`BanIndex`] under `shuttle = forbidden`), and the conversion of a
//! dense table to a keyed one for comparing the two.

use std::ops::Range;
use std::sync::Arc;

use qi_core::Side;
use qi_five_tigers::{FiveTigers, Rules, NEIGHBOURS};

use super::dense_ban::BanIndex;
use super::key::{plain_canonical_key, Ban, State, ALL};
use super::{Material, Stats, Table};
use crate::value::Wdl;

/// The slots of a Five Tigers table.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{Material, Slots, Tablebase};
///
/// let m: Material = "2v1".parse()?;
/// let allowed = Rules::shandong_shuttle();
/// let tb = Tablebase::generate(&allowed, &[m], 1)?;
/// assert!(matches!(tb.table(m).unwrap().index(), Slots::Dense(d) if !d.has_bans()));
/// let ban = Rules::shandong();
/// let tb = Tablebase::generate(&ban, &[m], 1)?;
/// assert!(matches!(tb.table(m).unwrap().index(), Slots::Dense(d) if d.has_bans()));
/// let keyed = tb.table(m).unwrap().keyed();
/// assert!(matches!(keyed.index(), Slots::Keys(_)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slots {
    /// One slot per stored state, in the order of their canonical keys
    /// (strictly increasing): every version-1 file, and a generated
    /// table's keyed form ([`Table::keyed`]).
    Keys(Vec<u64>),
    /// The cells of the material's index, with the cells no state uses
    /// marked in the values: the generated tables, written as blocked
    /// files (version 2 with the shuttle allowed, where the index has no
    /// bans and a cell is a board slot: First's pieces modulo the 8
    /// symmetries, then Second's, then the side to move; version 3 under
    /// `shuttle = forbidden`, each board slot followed by a cell per pair
    /// of bans).
    Dense(Dense),
}

/// The cell index of one material (see [`Slots::Dense`]), shared by the
/// tables and pages of that material.
///
/// ```
/// use qi_games::base::Side;
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{Dense, Material, Slots, Tablebase};
///
/// let dense = Dense::new("1v1".parse::<Material>()?);
/// // The 1 200 positions of `1v1` in their slots: the images of a
/// // position under the 8 symmetries of the board share one.
/// let mut slots = std::collections::BTreeSet::new();
/// for x in 0..25 {
///     for o in (0..25).filter(|&o| o != x) {
///         for stm in [Side::First, Side::Second] {
///             slots.insert(dense.slot([1 << x, 1 << o], stm));
///         }
///     }
/// }
/// assert!(slots.len() >= 1_200 / 8 && slots.len() < 1_200);
/// assert!(slots.iter().all(|&s| s < dense.len()));
/// // Under the ban: a cell per board slot, and more for the steps back
/// // each side may not play.
/// let m: Material = "2v1".parse()?;
/// let tb = Tablebase::generate(&Rules::shandong(), &[m], 1)?;
/// let Slots::Dense(cells) = tb.table(m).unwrap().index() else { unreachable!() };
/// assert!(cells.has_bans() && cells.len() > Dense::new(m).len());
/// assert_eq!(cells.len(), tb.table(m).unwrap().len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Dense {
    pub(super) material: Material,
    pub(super) index: Arc<BanIndex>,
}

impl Dense {
    /// The index of `material` with no bans, a cell per board slot (the
    /// shuttle allowed; building it takes a few milliseconds: the
    /// symmetry classes of First's boards).
    ///
    /// ```
    /// use qi_tablebase::five_tigers::{Dense, Material};
    ///
    /// let m: Material = "3v2".parse()?;
    /// assert_eq!(Dense::new(m), Dense::new(m)); // the same formula
    /// assert_ne!(Dense::new(m), Dense::new("2v3".parse()?));
    /// assert!(!Dense::new(m).is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(material: Material) -> Dense {
        let index = Arc::new(BanIndex::without_bans(material.first, material.second));
        Dense { material, index }
    }

    /// The index of `material`'s cells under `rules` (with bans under
    /// `shuttle = forbidden`).
    pub(crate) fn under(material: Material, rules: &Rules) -> Dense {
        let index = Arc::new(BanIndex::under(material, rules));
        Dense { material, index }
    }

    /// Whether the cells hold bans (`shuttle = forbidden`; else each
    /// board slot is a cell).
    pub fn has_bans(&self) -> bool {
        self.index.has_bans()
    }

    /// The number of cells.
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::{Dense, Tablebase};
    ///
    /// let tb = Tablebase::generate(&Rules::shandong_shuttle(), &["2v1".parse()?], 1)?;
    /// assert_eq!(Dense::new("2v1".parse()?).len(), tb.table("2v1".parse()?).unwrap().len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn len(&self) -> u64 {
        self.index.len()
    }

    /// Whether there is no cell (never).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cell of the position with First on `boards[0]`, Second on
    /// `boards[1]` (as many pieces as the material has, on distinct
    /// points), `stm` to move, nothing owed and no ban: what a probe of a
    /// dense table reads, and what the retrograde generator computes for
    /// every step and un-step (public so that it can be benchmarked on
    /// its own).
    ///
    /// ```
    /// use qi_games::base::Side;
    /// use qi_tablebase::five_tigers::{Dense, Material};
    ///
    /// let dense = Dense::new("1v1".parse::<Material>()?);
    /// // X on a corner, O in the centre: the four corners are one class.
    /// let a1 = dense.slot([1 << 0, 1 << 12], Side::First);
    /// assert_eq!(dense.slot([1 << 24, 1 << 12], Side::First), a1);
    /// assert_ne!(dense.slot([1 << 0, 1 << 12], Side::Second), a1);
    /// assert!(a1 < dense.len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn slot(&self, boards: [u32; 2], stm: Side) -> u64 {
        self.index.cell(boards, stm.index(), [None, None])
    }

    /// The cell of the state with nothing owed `state`, if it is one of the
    /// material's and its bans are steps back of their sides onto empty
    /// points (what a cell exists for; none without bans).
    pub(super) fn cell(&self, state: &State) -> Option<u64> {
        if state.owed != 0 || Material::of_boards(state.boards) != Some(self.material) {
            return None;
        }
        let empty = ALL & !(state.boards[0] | state.boards[1]);
        for (own, ban) in state.boards.iter().zip(state.bans) {
            if let Some(Ban { at, back }) = ban {
                let (at, back) = (u32::from(at), u32::from(back));
                if !self.has_bans() || at >= 25 || back >= 25 {
                    return None;
                }
                let steps_back = NEIGHBOURS[at as usize].0 & empty;
                if own & (1 << at) == 0 || steps_back & (1 << back) == 0 {
                    return None;
                }
            }
        }
        Some(self.index.cell(state.boards, state.stm.index(), state.bans))
    }
}

impl std::fmt::Debug for Dense {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bans = if self.has_bans() { ", bans" } else { "" };
        write!(f, "Dense({}: {} cells{bans})", self.material, self.len())
    }
}

/// Two indices of one material, both with bans or both without, are the
/// same formula.
impl PartialEq for Dense {
    fn eq(&self, other: &Dense) -> bool {
        (self.material, self.has_bans()) == (other.material, other.has_bans())
    }
}

impl Eq for Dense {}

/// The keys of a keyed table (a version-1 file's).
impl From<Vec<u64>> for Slots {
    fn from(keys: Vec<u64>) -> Slots {
        Slots::Keys(keys)
    }
}

/// Counts the cells `cells` of a table over `index`, their values and
/// distances as `at` gives them (`None`: no state): every cell that holds
/// a state, and the board slots whose first cell lies in `cells`, their
/// states without bans, keyed straight from the boards (a key is 8
/// images of a state; keying every cell took more time than solving).
/// The first board slot's first cell with no value, if any (under the
/// ban none: the state without bans of a board slot with cells is one;
/// without bans, a board slot no position uses).
pub(super) fn count_cells(
    index: &BanIndex,
    cells: Range<u64>,
    at: impl Fn(u64) -> Option<(Wdl, u32)>,
    stats: &mut Stats,
) -> Option<u64> {
    stats.stored += cells.clone().filter(|&c| at(c).is_some()).count() as u64;
    let s = index.slot_of(cells.start);
    let first = s + u64::from(index.start(s) < cells.start);
    let mut unvalued = None;
    for (slot, x, o, stm) in index.boards.range(first, index.board_slots()) {
        let own = index.cells_of(slot);
        if own.start >= cells.end {
            break;
        }
        if own.is_empty() {
            continue;
        }
        let Some((v, d)) = at(own.start) else {
            unvalued.get_or_insert(own.start);
            continue;
        };
        let key = plain_canonical_key([x, o], Side::BOTH[stm]);
        // The size of its symmetry class: 8 over the symmetries fixing it.
        let class = 8 / u64::from((BanIndex::stabiliser([x, o]) | 1).count_ones());
        stats.add_position(key, class, v, d);
    }
    unvalued
}

impl Table {
    /// The table with its slots in canonical-key order, as version-1
    /// files have it (a copy of a keyed table): what two tables of
    /// different layouts are compared by.
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::{Material, Slots, Tablebase};
    ///
    /// let rules = Rules::shandong_shuttle();
    /// let m: Material = "2v1".parse()?;
    /// let dense = Tablebase::generate(&rules, &[m], 1)?.table(m).unwrap().clone();
    /// let keyed = dense.keyed();
    /// assert!(matches!(keyed.index(), Slots::Keys(_)));
    /// assert_eq!(keyed.stats(), dense.stats());
    /// assert!(keyed.keyed() == keyed);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn keyed(&self) -> Table {
        if let Slots::Keys(_) = self.index() {
            return self.clone();
        }
        let mut keyed: Vec<(u64, Wdl, u32)> =
            self.states().map(|(_, key, _, v, d)| (key, v, d)).collect();
        keyed.sort_unstable_by_key(|&(key, ..)| key);
        let keys: Vec<u64> = keyed.iter().map(|&(key, ..)| key).collect();
        let values: Vec<Wdl> = keyed.iter().map(|&(_, v, _)| v).collect();
        let dists = keyed.iter().map(|&(.., d)| d as u16).collect();
        Table::new(self.material(), *self.rules(), keys, &values, dists)
    }

    /// The stored states with their values, each as `(state, canonical
    /// key, class size, value, distance)`: in key order for a keyed table,
    /// cell order for a dense one.
    pub(crate) fn states(&self) -> Box<dyn Iterator<Item = (State, u64, u64, Wdl, u32)> + '_> {
        let keyed = |state: State, (v, d): (Wdl, u32)| {
            let (key, class) = state.canonical()?;
            Some((state, key, u64::from(class), v, d))
        };
        match self.index() {
            Slots::Keys(keys) => Box::new(
                keys.iter()
                    .enumerate()
                    .filter_map(move |(i, &k)| keyed(State::from_key(k)?, self.at(i as u64)?)),
            ),
            // Board slot by board slot, each cell's bans from its offset.
            Slots::Dense(d) => Box::new(d.index.boards.range(0, d.index.board_slots()).flat_map(
                move |(slot, x, o, stm)| {
                    let cells = d.index.cells_of(slot);
                    cells.clone().filter_map(move |cell| {
                        let bans = BanIndex::bans_at([x, o], cell - cells.start);
                        keyed(State::at_rest([x, o], stm, bans), self.at(cell)?)
                    })
                },
            )),
        }
    }

    /// The statistics by the counting convention (see [`Stats`]).
    pub(crate) fn count(&self) -> Stats {
        let mut s = Stats::default();
        let Slots::Dense(d) = self.index() else {
            for (state, key, class, v, dist) in self.states() {
                s.stored += 1;
                if state.bans == [None, None] {
                    s.add_position(key, class, v, dist);
                }
            }
            return s;
        };
        count_cells(&d.index, 0..self.len(), |c| self.at(c), &mut s);
        s
    }

    /// The stored states as positions (a representative of each class),
    /// with their values: in key order for a keyed table, slot order for a
    /// dense one.
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::{Material, Tablebase};
    ///
    /// let rules = Rules::shandong_shuttle();
    /// let m: Material = "2v1".parse()?;
    /// let tb = Tablebase::generate(&rules, &[m], 1)?;
    /// let table = tb.table(m).unwrap();
    /// for (pos, value, distance) in table.entries() {
    ///     assert_eq!(Material::of(&pos), Some(m));
    ///     assert_eq!(tb.probe(&pos)?, Some((value, distance)));
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn entries(&self) -> impl Iterator<Item = (FiveTigers, Wdl, u32)> + '_ {
        self.states()
            .filter_map(move |(state, _, _, v, d)| Some((state.to_position(self.rules())?, v, d)))
    }
}
