//! How a Five Tigers table finds a position's slot ([`Slots`], the
//! table's [`TableGame::Index`](crate::TableGame::Index)): the sorted
//! canonical keys of version-1 files, or the generated tables' dense
//! indices (blocked files: no key
//! stored; version 2 for the shuttle allowed, version 3 for the cells of
//! [`BanIndex`] under `shuttle = forbidden`), and the conversion of a
//! dense table to a keyed one for comparing the two.

use std::sync::Arc;

use qi_core::Side;
use qi_five_tigers::{FiveTigers, NEIGHBOURS};

use super::dense::DenseIndex;
use super::dense_ban::BanIndex;
use super::key::{map_board, plain_canonical_key, side_of, Ban, State, ALL};
use super::{Material, Stats, Table};
use crate::format::versions::{version_of, SlotIndex};
use crate::value::Wdl;

/// The blocked file version over the dense index (`shuttle = allowed`).
pub(crate) const DENSE_VERSION: u16 = version_of(SlotIndex::FiveTigersDense);

/// The blocked file version over the cells of the ban index (`shuttle =
/// forbidden`): a version of its own, so that the header names the
/// formula and neither reader takes the other's slots.
pub(crate) const DENSE_BAN_VERSION: u16 = version_of(SlotIndex::FiveTigersDenseBan);

/// The slots of a Five Tigers table.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{Material, Slots, Tablebase};
///
/// let m: Material = "2v1".parse()?;
/// let allowed = Rules::shandong_shuttle();
/// let tb = Tablebase::generate(&allowed, &[m], 1)?;
/// assert!(matches!(tb.table(m).unwrap().index(), Slots::Dense(_)));
/// let ban = Rules::shandong();
/// let tb = Tablebase::generate(&ban, &[m], 1)?;
/// assert!(matches!(tb.table(m).unwrap().index(), Slots::DenseBan(_)));
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
    /// The dense index of the material (First's pieces modulo the 8
    /// symmetries, then Second's, then the side to move), with the slots
    /// no position uses marked in the values: the generated tables under
    /// `shuttle = allowed`, written as blocked files.
    Dense(Dense),
    /// The cells of the material's ban index (each board slot of the
    /// dense index followed by a cell per pair of bans), with the cells no
    /// state uses marked in the values: the generated tables under
    /// `shuttle = forbidden`, written as blocked files of version 3.
    DenseBan(DenseBan),
}

/// The cell index of one material under `shuttle = forbidden` (see
/// [`Slots::DenseBan`]), shared by the tables and pages of that material.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{Dense, Material, Slots, Tablebase};
///
/// let m: Material = "2v1".parse()?;
/// let tb = Tablebase::generate(&Rules::shandong(), &[m], 1)?;
/// let Slots::DenseBan(cells) = tb.table(m).unwrap().index() else { unreachable!() };
/// // A cell per board slot, and more for the steps back each side may not play.
/// assert!(cells.len() > Dense::new(m).len());
/// assert_eq!(cells.len(), tb.table(m).unwrap().len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct DenseBan {
    material: Material,
    pub(super) index: Arc<BanIndex>,
}

impl DenseBan {
    /// The cell index of `material`.
    pub(crate) fn new(material: Material) -> DenseBan {
        DenseBan::of(
            material,
            Arc::new(BanIndex::new(material.first, material.second)),
        )
    }

    /// The table index over a cell index already built (the generator's).
    pub(crate) fn of(material: Material, index: Arc<BanIndex>) -> DenseBan {
        DenseBan { material, index }
    }

    /// The number of cells.
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::{Slots, Tablebase};
    ///
    /// let tb = Tablebase::generate(&Rules::shandong(), &["1v1".parse()?], 1)?;
    /// let table = tb.table("1v1".parse()?).unwrap();
    /// let Slots::DenseBan(cells) = table.index() else { unreachable!() };
    /// assert_eq!(cells.len(), table.len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn len(&self) -> u64 {
        self.index.len()
    }

    /// Whether there is no cell (never).
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::{Slots, Tablebase};
    ///
    /// let tb = Tablebase::generate(&Rules::shandong(), &["1v1".parse()?], 1)?;
    /// let Slots::DenseBan(cells) = tb.table("1v1".parse()?).unwrap().index() else { unreachable!() };
    /// assert!(!cells.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cell of the state with nothing owed `state`, if it is one of the
    /// material's and its bans are steps back of their sides onto empty
    /// points (what a cell exists for).
    fn cell(&self, state: &State) -> Option<u64> {
        if state.owed != 0 || Material::of_boards(state.boards) != Some(self.material) {
            return None;
        }
        let empty = ALL & !(state.boards[0] | state.boards[1]);
        for (own, ban) in state.boards.iter().zip(state.bans) {
            if let Some(Ban { at, back }) = ban {
                let (at, back) = (u32::from(at), u32::from(back));
                if at >= 25 || back >= 25 {
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

impl std::fmt::Debug for DenseBan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DenseBan({}: {} cells)", self.material, self.index.len())
    }
}

/// Two cell indices of one material are the same formula.
impl PartialEq for DenseBan {
    fn eq(&self, other: &DenseBan) -> bool {
        self.material == other.material
    }
}

impl Eq for DenseBan {}

/// The dense index of one material (see [`Slots::Dense`]), shared by the
/// tables and pages of that material.
///
/// ```
/// use qi_games::base::Side;
/// use qi_tablebase::five_tigers::{Dense, Material};
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
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Dense {
    material: Material,
    pub(super) index: Arc<DenseIndex>,
}

impl Dense {
    /// The dense index of `material` (building it takes a few
    /// milliseconds: the symmetry classes of First's boards).
    ///
    /// ```
    /// use qi_tablebase::five_tigers::{Dense, Material};
    ///
    /// let m: Material = "3v2".parse()?;
    /// assert_eq!(Dense::new(m), Dense::new(m)); // the same formula
    /// assert_ne!(Dense::new(m), Dense::new("2v3".parse()?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(material: Material) -> Dense {
        Dense {
            material,
            index: Arc::new(DenseIndex::new(material.first, material.second)),
        }
    }

    /// The number of slots.
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

    /// The slot of the position with First on `boards[0]`, Second on
    /// `boards[1]` (as many pieces as the material has, on distinct
    /// points), `stm` to move, nothing owed: what a probe of a dense table
    /// reads, and what the retrograde generator computes for every step
    /// and un-step (public so that it can be benchmarked on its own).
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
        self.index.slot(boards[0], boards[1], stm.index())
    }

    /// Whether there is no slot (never).
    ///
    /// ```
    /// use qi_tablebase::five_tigers::Dense;
    ///
    /// assert!(!Dense::new("5v5".parse()?).is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl std::fmt::Debug for Dense {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Dense({}: {} slots)", self.material, self.index.len())
    }
}

/// Two dense indices of one material are the same formula.
impl PartialEq for Dense {
    fn eq(&self, other: &Dense) -> bool {
        self.material == other.material
    }
}

impl Eq for Dense {}

/// The keys of a keyed table (a version-1 file's).
impl From<Vec<u64>> for Slots {
    fn from(keys: Vec<u64>) -> Slots {
        Slots::Keys(keys)
    }
}

impl Slots {
    /// The slot of the position with `boards`, `stm` to move, nothing owed
    /// and no previous step (of the table's material).
    pub(crate) fn plain_slot(&self, boards: [u32; 2], stm: Side) -> Option<u64> {
        match self {
            Slots::Keys(keys) => {
                let key = plain_canonical_key(boards, stm);
                keys.binary_search(&key).ok().map(|i| i as u64)
            }
            Slots::Dense(d) => Some(d.index.slot(boards[0], boards[1], stm.index())),
            Slots::DenseBan(d) => d.cell(&State::at_rest(boards, stm.index(), [None, None])),
        }
    }

    /// The slot of `state` (its bans included), if stored.
    pub(crate) fn slot_of_state(&self, state: &State) -> Option<u64> {
        match self {
            Slots::DenseBan(d) => d.cell(state),
            _ => self.slot_of_key(state.canonical()?.0),
        }
    }

    /// The slot of the state of canonical key `key`, if stored.
    pub(crate) fn slot_of_key(&self, key: u64) -> Option<u64> {
        match self {
            Slots::Keys(keys) => keys.binary_search(&key).ok().map(|i| i as u64),
            Slots::Dense(d) => {
                let state = State::from_key(key)?;
                if state.owed != 0 || state.bans != [None, None] {
                    return None;
                }
                let [x, o] = state.boards;
                if Material::of_boards(state.boards) != Some(d.material) {
                    return None;
                }
                Some(d.index.slot(x, o, state.stm.index()))
            }
            Slots::DenseBan(d) => d.cell(&State::from_key(key)?),
        }
    }
}

/// The size of the symmetry class of the position with `boards` (8 over
/// the symmetries that fix both boards).
fn class_size(boards: [u32; 2]) -> u64 {
    let fixed = (0..8)
        .filter(|&s| map_board(s, boards[0]) == boards[0] && map_board(s, boards[1]) == boards[1])
        .count() as u64;
    8 / fixed
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
        let mut keyed: Vec<(u64, u64)> = match self.index() {
            Slots::Keys(_) => return self.clone(),
            Slots::Dense(d) => d
                .index
                .range(0, d.len())
                .filter(|&(slot, ..)| self.at(slot).is_some())
                .map(|(slot, x, o, stm)| (plain_canonical_key([x, o], side_of(stm as u64)), slot))
                .collect(),
            Slots::DenseBan(_) => self
                .stored_cells()
                .filter_map(|c| Some((self.cell_state(c)?.canonical()?.0, c)))
                .collect(),
        };
        keyed.sort_unstable();
        let (mut keys, mut values, mut dists) = (Vec::new(), Vec::new(), Vec::new());
        for (key, slot) in keyed {
            let (v, dist) = self.at(slot).unwrap_or((Wdl::Draw, 0));
            keys.push(key);
            values.push(v);
            dists.push(dist as u16);
        }
        Table::new(self.material(), *self.rules(), keys, &values, dists)
    }

    /// The stored states with their values, each as `(state, canonical
    /// key, class size, value, distance)`.
    pub(crate) fn states(&self) -> Box<dyn Iterator<Item = (State, u64, u64, Wdl, u32)> + '_> {
        match self.index() {
            Slots::Keys(keys) => Box::new(keys.iter().enumerate().filter_map(move |(i, &k)| {
                let state = State::from_key(k)?;
                let (_, class) = state.canonical()?;
                let (v, d) = self.at(i as u64)?;
                Some((state, k, u64::from(class), v, d))
            })),
            Slots::Dense(dense) => Box::new(dense.index.range(0, dense.len()).filter_map(
                move |(slot, x, o, stm)| {
                    let (v, d) = self.at(slot)?;
                    let state = State::at_rest([x, o], stm, [None, None]);
                    let key = plain_canonical_key([x, o], state.stm);
                    Some((state, key, class_size([x, o]), v, d))
                },
            )),
            Slots::DenseBan(_) => Box::new(self.stored_cells().filter_map(move |cell| {
                let (v, d) = self.at(cell)?;
                let state = self.cell_state(cell)?;
                let (key, class) = state.canonical()?;
                Some((state, key, u64::from(class), v, d))
            })),
        }
    }

    /// The cells of a [`Slots::DenseBan`] table that hold a state, in
    /// order (none for another index).
    fn stored_cells(&self) -> impl Iterator<Item = u64> + '_ {
        let n = match self.index() {
            Slots::DenseBan(_) => self.len(),
            _ => 0,
        };
        (0..n).filter(move |&c| self.at(c).is_some())
    }

    /// The state of cell `cell` of a [`Slots::DenseBan`] table.
    fn cell_state(&self, cell: u64) -> Option<State> {
        let Slots::DenseBan(d) = self.index() else {
            return None;
        };
        let (boards, stm, bans) = d.index.decode(cell);
        Some(State::at_rest(boards, stm, bans))
    }

    /// The statistics by the counting convention (see [`Stats`]).
    pub(crate) fn count(&self) -> Stats {
        let mut s = Stats::default();
        let ban_cells = matches!(self.index(), Slots::DenseBan(_));
        let states = match self.index() {
            // Only the states without bans are counted beyond `stored`:
            // the first cell of each board slot's block, the only ones
            // keyed here (a key is 8 images of a state; keying every cell
            // took more time than solving).
            Slots::DenseBan(d) => {
                s.stored = self.stored_cells().count() as u64;
                let index = &d.index;
                Box::new((0..index.board_slots()).filter_map(move |slot| {
                    let cell = index.cells_of(slot).next()?;
                    let (v, dist) = self.at(cell)?;
                    let state = self.cell_state(cell)?;
                    let (key, class) = state.canonical()?;
                    Some((state, key, u64::from(class), v, dist))
                }))
            }
            _ => self.states(),
        };
        for (state, key, class, v, d) in states {
            if !ban_cells {
                s.stored += 1;
            }
            if state.bans != [None, None] {
                continue;
            }
            s.add_position(key, class, v, d);
        }
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
