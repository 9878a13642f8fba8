//! A Jungle material as a [`RetroSlice`]: the slots of its index, each
//! started by its moves (a capture leaves the material: an exit, read in
//! the smaller tables), and un-moved by taking back a move that captured
//! nothing. This is what the in-core solver (Jungle's
//! [`Solver::solve`](crate::Solver::solve), `retrograde::solve`) and the
//! rounds of `dataflow::solve_everywhere` on many workers and processes
//! need of Jungle: the same starts and un-moves, so the same values,
//! distances and bytes.
//!
//! The un-moves are Jungle's own ([`Jungle::quiet_unmoves`]: each
//! animal of the side that just moved put back on a square a move can
//! come from, kept when the move generator has that move in the position
//! before), so they follow every preset's move rules (jumps, their
//! blocking, the Rat's swimming, traps) with no second copy of those
//! rules; this module adds only what the index's mirror pairs need.

use qi_core::Position;
use qi_jungle::{Jungle, Rules};
use smallvec::SmallVec;

use super::material::{Indexer, Material};
use super::{Table, Tablebase};
use crate::driver::{GenerateError, Generator, Solver};
use crate::in_core;
use crate::retrograde::{
    Open, Reader, ReadingSlice, RetroError, RetroSlice, SliceValues, Source, Start,
};
use crate::round::Exits;
use crate::value::Wdl;

/// One Jungle material with the tables its captures lead to.
///
/// `LRvE` solved by the rounds, reading the tables of `LvE` and `RvE`:
///
/// ```
/// use qi_games::jungle::Rules;
/// use qi_tablebase::jungle::{JungleSlice, Material, Tablebase};
/// use qi_tablebase::retrograde;
///
/// let rules = Rules::standard();
/// let m: Material = "LRvE".parse()?;
/// let smaller = Tablebase::generate(&rules, &m.after_captures(), 2)?;
/// let slice = JungleSlice::new(m, &rules, smaller);
/// let table = slice.table(&retrograde::solve(&slice)?);
/// assert_eq!(Some(&table), Tablebase::generate(&rules, &[m], 2)?.table(m));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct JungleSlice {
    rules: Rules,
    index: Indexer,
    /// The tables of the materials its captures reach (read into the
    /// slice: the workers of the rounds need it for as long as they run);
    /// `None` in a reading slice, whose captures read [`Self::sources`].
    smaller: Option<Tablebase>,
    /// A reading slice's sources: the materials a capture leaves and
    /// their indexers, in the order of [`ReadingSlice::sources`].
    sources: Vec<Indexer>,
}

impl JungleSlice {
    /// The slice of `material` under `rules`; `smaller` holds the tables
    /// of the materials its captures lead to (more do no harm).
    ///
    /// ```
    /// use qi_games::jungle::Rules;
    /// use qi_tablebase::jungle::{JungleSlice, Material, Tablebase};
    /// use qi_tablebase::retrograde;
    ///
    /// let rules = Rules::standard();
    /// let m: Material = "LvC".parse().unwrap();
    /// let smaller = Tablebase::new(&rules); // a capture here ends the game
    /// let slice = JungleSlice::new(m, &rules, smaller);
    /// let table = slice.table(&retrograde::solve(&slice).unwrap());
    /// let direct = Tablebase::generate(&rules, &[m], 1).unwrap();
    /// assert_eq!(Some(&table), direct.table(m));
    /// ```
    pub fn new(material: Material, rules: &Rules, smaller: Tablebase) -> JungleSlice {
        JungleSlice {
            rules: *rules,
            index: Indexer::new(material),
            smaller: Some(smaller),
            sources: Vec::new(),
        }
    }

    /// The slice of `material` under `rules` as a [`ReadingSlice`]: it
    /// holds no table; a capture reads the slot of the position it leads
    /// to in the material it leaves ([`ReadingSlice::sources`]: every
    /// material one capture leaves).
    ///
    /// ```
    /// use qi_games::jungle::Rules;
    /// use qi_tablebase::jungle::{JungleSlice, Material};
    /// use qi_tablebase::retrograde::ReadingSlice;
    ///
    /// let m: Material = "LRvE".parse().unwrap();
    /// let slice = JungleSlice::reading(m, &Rules::standard());
    /// let names: Vec<String> = slice.sources().into_iter().map(|s| s.name).collect();
    /// // Capturing the Elephant ends the game: no table to read.
    /// assert_eq!(names, ["LvE", "RvE"]);
    /// ```
    pub fn reading(material: Material, rules: &Rules) -> JungleSlice {
        JungleSlice {
            rules: *rules,
            index: Indexer::new(material),
            smaller: None,
            sources: material
                .after_captures()
                .into_iter()
                .map(Indexer::new)
                .collect(),
        }
    }

    /// The material.
    ///
    /// ```
    /// use qi_games::jungle::Rules;
    /// use qi_tablebase::jungle::JungleSlice;
    ///
    /// let slice = JungleSlice::reading("LRvE".parse()?, &Rules::standard());
    /// assert_eq!(slice.material().to_string(), "LRvE");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn material(&self) -> Material {
        self.index.material
    }

    /// The table of the solved slice's values: the same bytes as the
    /// table [`Tablebase::generate`] makes.
    ///
    /// ```
    /// use qi_games::jungle::Rules;
    /// use qi_tablebase::jungle::{JungleSlice, Material, Tablebase};
    /// use qi_tablebase::retrograde;
    ///
    /// let rules = Rules::standard();
    /// let m: Material = "LvC".parse()?;
    /// let slice = JungleSlice::new(m, &rules, Tablebase::new(&rules));
    /// let table = slice.table(&retrograde::solve(&slice)?);
    /// let direct = Tablebase::generate(&rules, &[m], 1)?;
    /// assert_eq!(table.to_bytes(), direct.table(m).unwrap().to_bytes());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn table(&self, values: &SliceValues) -> Table {
        let wdl: Vec<Wdl> = values
            .codes
            .iter()
            .map(|&c| Wdl::from_code(c).unwrap_or(Wdl::Draw))
            .collect();
        Table::new(
            self.index.material,
            self.rules,
            self.index.clone(),
            &wdl,
            values.distances.clone(),
        )
    }

    /// Appends the slots from which a move that captures nothing leads
    /// to a position of `slot`: `pos`, the position that stands for it,
    /// or its mirror image when that shares the slot (unless the index's
    /// first animal stands on the middle file; then the mirror image has
    /// a slot of its own).
    ///
    /// A slot's moves are those of the position that stands for it (the
    /// generator's and the table's): an un-move's position `before` or
    /// its mirror image, whose move is the mirrored one (legal as the
    /// un-move is: every preset's board is symmetric) and leads to
    /// `pos`'s mirror image. So each un-move of `pos` counts when the
    /// mirror image shares the slot, else only when `before` stands for
    /// its own slot. The un-moves of the mirror image are the mirror
    /// images of these, in the same slots but where `before`'s first
    /// animal stands on the middle file: those are counted from `before`
    /// without building the mirror positions.
    fn unmoves(&self, slot: u64, pos: &Jungle, out: &mut Vec<u64>) {
        // Off the middle file the mirror image is stored by this slot;
        // on it, only a position that is its own mirror image shares it.
        let mirror_shares =
            !self.index.first_on_middle_file(pos) || self.index.index_of_mirror(pos) == Some(slot);
        pos.each_quiet_unmove(|_, before| {
            if !mirror_shares && self.index.stores_mirror(before) {
                return;
            }
            out.extend(self.index.index_of(before));
            if mirror_shares && self.index.first_on_middle_file(before) {
                out.extend(self.index.index_of_mirror(before));
            }
        });
    }
}

impl RetroSlice for JungleSlice {
    fn slots(&self) -> u64 {
        self.index.count
    }

    /// From the tables the slice holds (a reading slice holds none: its
    /// starts go through [`ReadingSlice::start_reading`]).
    fn start(&self, slot: u64) -> Result<Start, RetroError> {
        let Some(smaller) = &self.smaller else {
            return Err(RetroError::Slice {
                slot,
                message: format!(
                    "{}: a reading slice holds no table, its starts read their values",
                    self.index.material
                ),
            });
        };
        self.start_with(slot, |child, needed, mv| {
            smaller
                .table(needed)
                .and_then(|t| t.get(child))
                .ok_or_else(|| RetroError::Slice {
                    slot,
                    message: format!(
                        "{} needs the table of {needed} (the move {mv})",
                        self.index.material
                    ),
                })
        })
    }

    /// The un-moves of the slot's position and of its mirror image: a
    /// move can lead to either (they share the slot unless the index's
    /// first animal stands on the middle file; then the mirror image has a
    /// slot of its own).
    fn predecessors(&self, slot: u64, out: &mut Vec<u64>) {
        let first = out.len();
        if let Some(pos) = self.index.position(slot, &self.rules) {
            self.unmoves(slot, &pos, out);
        }
        crate::retrograde::sort_and_dedup_from(out, first);
    }

    /// The two slots of a placement (each side to move) go together: a
    /// position's predecessors all have the other side to move.
    fn run_shift(&self) -> u32 {
        1
    }
}

impl ReadingSlice for JungleSlice {
    fn sources(&self) -> Vec<Source> {
        self.sources
            .iter()
            .map(|ix| Source {
                name: ix.material.to_string(),
                slots: ix.count,
                shift: 1,
            })
            .collect()
    }

    /// A slice that holds its tables reads nothing (`reader` unused).
    fn start_reading(&self, slot: u64, reader: &dyn Reader) -> Result<Start, RetroError> {
        if self.smaller.is_some() {
            return self.start(slot);
        }
        self.start_with(slot, |child, needed, mv| {
            let found = self
                .sources
                .iter()
                .enumerate()
                .find(|(_, ix)| ix.material == needed)
                .and_then(|(i, ix)| Some((i, ix.index_of(child)?)));
            let Some((source, at)) = found else {
                return Err(RetroError::Slice {
                    slot,
                    message: format!(
                        "{}: the move {mv} leads to {needed}, which one capture does not leave",
                        self.index.material
                    ),
                });
            };
            let (wdl, d) = reader.read(source, at)?;
            Ok((wdl, u32::from(d)))
        })
    }
}

impl JungleSlice {
    /// How `slot` starts, each capture's position valued by
    /// `exit(position, its material, the move)`: the one start of a
    /// Jungle slot, from the tables the slice holds or from values read,
    /// and so the in-core generator's ([`Solver::solve`](crate::Solver::solve)).
    fn start_with(
        &self,
        slot: u64,
        mut exit: impl FnMut(&Jungle, Material, qi_jungle::Move) -> Result<(Wdl, u32), RetroError>,
    ) -> Result<Start, RetroError> {
        let index = &self.index;
        let pos = &index
            .position(slot, &self.rules)
            .ok_or_else(|| RetroError::Slice {
                slot,
                message: format!("no position of {} has this index", index.material),
            })?;
        let moves = pos.legal_moves();
        // Only a position without moves is over (a den entered, a side
        // without animals, or no legal move): its outcome says who won.
        if moves.is_empty() {
            if let Some(outcome) = pos.outcome() {
                return Ok(Start::Decided(
                    Wdl::of_outcome(outcome, pos.side_to_move()),
                    0,
                ));
            }
        }
        let mut inside: SmallVec<[u64; 32]> = SmallVec::new();
        // Counted, not indexed, where no two successors share a slot.
        let distinct = index.successors_distinct(pos);
        let mut counted = 0;
        let mut exits = Exits::default();
        for mv in moves {
            let mut child = *pos;
            child.play_unchecked(mv);
            // A child in the material is a successor even when its game is
            // over (it is a decided slot and tells its predecessors); one
            // that left it (a capture, a den entry) is an exit.
            if distinct {
                if index.holds_child(&child) {
                    counted += 1;
                    continue;
                }
            } else if let Some(c) = index.index_of(&child) {
                inside.push(c);
                continue;
            }
            let (wdl, d) = if let Some(outcome) = child.outcome() {
                (Wdl::of_outcome(outcome, child.side_to_move()), 0)
            } else {
                let needed = Material::of(&child).ok_or_else(|| RetroError::Slice {
                    slot,
                    message: format!("the move {mv} leaves no material"),
                })?;
                exit(&child, needed, mv)?
            };
            exits.note(wdl, d)?;
        }
        inside.sort_unstable();
        inside.dedup();
        Ok(Start::Open(Open {
            successors: counted + inside.len() as u32,
            exits,
        }))
    }
}

/// Retrograde analysis by the in-core solver over the slots of the
/// material's index ([`JungleSlice`]'s starts and un-moves, the tables
/// its captures read copied into the slice by [`Generator::slice`],
/// which refuses a missing one): each slot
/// started by its moves (a move that enters the den, captures the last
/// animal or captures into a solved smaller material, which must be in
/// `smaller`, has a known value), then values spread backwards by
/// un-moves in increasing order of distance: a position is won in `d`
/// once a successor is lost in `d - 1`, lost in `d` once all its
/// successors are won, the longest in `d - 1`. What is left is drawn.
///
/// ```
/// use qi_games::jungle::{Jungle, Rules};
/// use qi_tablebase::jungle::{Material, Tablebase};
/// use qi_tablebase::Solver;
///
/// let rules = Rules::standard();
/// let m: Material = "LRvE".parse()?;
/// let smaller = Tablebase::generate(&rules, &m.after_captures(), 2)?;
/// let table = Jungle::solve(&rules, m, &smaller, 2)?;
/// assert_eq!(Some(&table), Tablebase::generate(&rules, &[m], 2)?.table(m));
/// // Without the tables its captures lead to, no table.
/// assert!(Jungle::solve(&rules, m, &Tablebase::new(&rules), 2).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl Solver for Jungle {
    fn solve(
        rules: &Rules,
        material: Material,
        smaller: &Tablebase,
        threads: usize,
    ) -> Result<Table, GenerateError> {
        let slice = <Jungle as Generator>::slice(rules, material, Some(smaller))?;
        let (codes, distances) = in_core::solve(material, &slice, threads)?.into_values();
        Ok(slice.table(&SliceValues { codes, distances }))
    }
}
