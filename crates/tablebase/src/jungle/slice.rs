//! A Jungle material as a [`RetroSlice`]: the slots of its index, each
//! started by its moves (a capture leaves the material: an exit, read in
//! the smaller tables), and un-moved by taking back a move that captured
//! nothing. This is what the generic rounds (`retrograde::solve`, and
//! `dataflow::solve` on many workers and processes) need of Jungle; the
//! tables they give are those of [`generate_table`](super::generate_table)
//! (the same values and distances, so the same bytes).
//!
//! The un-moves are Jungle's own ([`Jungle::quiet_unmoves`]: each
//! animal of the side that just moved put back on a square a move can
//! come from, kept when the move generator has that move in the position
//! before), so they follow every preset's move rules (jumps, their
//! blocking, the Rat's swimming, traps) with no second copy of those
//! rules; this module adds only what the index's mirror pairs need.

use qi_core::{MoveList, Position};
use qi_jungle::{Jungle, Rules, Square};
use smallvec::SmallVec;

use super::material::{Indexer, Material};
use super::solve::terminal_value;
use super::{Table, Tablebase};
use crate::retrograde::{
    Open, Reader, ReadingSlice, RetroError, RetroSlice, SliceValues, Source, Start,
};
use crate::round::Exits;
use crate::value::Wdl;

/// Squares on a Jungle board: 7 files by 9 ranks.
const FILES: u8 = 7;
const RANKS: u8 = 9;

/// One Jungle material with the tables its captures lead to.
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
    /// use qi_jungle::Rules;
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
    /// use qi_jungle::Rules;
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
    pub fn material(&self) -> Material {
        self.index.material
    }

    /// The table of the solved slice's values.
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

    /// Appends the slots of the positions from which a move that captures
    /// nothing leads to `pos`, a position of `slot`, or to another
    /// position of `slot`.
    fn unmoves(&self, slot: u64, pos: &Jungle, out: &mut Vec<u64>) {
        let mut moves = MoveList::new();
        pos.quiet_unmoves(&mut moves);
        for mv in moves {
            let Some(before) = pos.unplay_quiet(mv) else {
                continue;
            };
            let Some(p) = self.index.index_of(&before) else {
                continue;
            };
            // The slot's moves are those of the position that stands for
            // it (the generator's and the table's): `before` or its mirror
            // image. The mirror image's move is the mirrored one (legal as
            // `mv` is: every preset's board is symmetric) and leads to
            // `pos`'s mirror image, which has a slot of its own where the
            // index's first animal stands on the middle file.
            if !self.index.stores_mirror(&before) || self.index.index_of_mirror(pos) == Some(slot) {
                out.push(p);
            }
        }
    }

    fn position(&self, slot: u64) -> Result<Jungle, RetroError> {
        self.index
            .position(slot, &self.rules)
            .ok_or_else(|| RetroError::Slice {
                slot,
                message: format!("no position of {} has this index", self.index.material),
            })
    }
}

/// The square across the board's middle file from `sq`.
fn across(sq: Square) -> Square {
    let i = sq.index();
    Square::new(i - i % FILES + (FILES - 1 - i % FILES)).unwrap_or(sq)
}

/// `pos` turned left to right (every preset's board is the same so), or
/// `None` when it is its own mirror image.
fn mirrored(pos: &Jungle, rules: &Rules) -> Option<Jungle> {
    let mut setup = pos.to_setup();
    for sq in (0..FILES * RANKS).filter_map(Square::new) {
        setup = setup.set(across(sq), pos.piece_at(sq));
    }
    let mirror = setup.into_position(*rules).ok()?;
    (mirror != *pos).then_some(mirror)
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
            let (wdl, d) = smaller
                .table(needed)
                .and_then(|t| t.get(child))
                .ok_or_else(|| RetroError::Slice {
                    slot,
                    message: format!(
                        "{} needs the table of {needed} (the move {mv})",
                        self.index.material
                    ),
                })?;
            Ok((wdl, d))
        })
    }

    /// The un-moves of the slot's position and of its mirror image: a
    /// move can lead to either (they share the slot unless the index's
    /// first animal stands on the middle file; then the mirror image has a
    /// slot of its own).
    fn predecessors(&self, slot: u64, out: &mut Vec<u64>) {
        let Ok(pos) = self.position(slot) else {
            return;
        };
        let first = out.len();
        self.unmoves(slot, &pos, out);
        if self.index.index_of_mirror(&pos) == Some(slot) {
            if let Some(mirror) = mirrored(&pos, &self.rules) {
                self.unmoves(slot, &mirror, out);
            }
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
    /// `exit(position, its material, the move)`.
    fn start_with(
        &self,
        slot: u64,
        mut exit: impl FnMut(&Jungle, Material, qi_jungle::Move) -> Result<(Wdl, u32), RetroError>,
    ) -> Result<Start, RetroError> {
        let pos = self.position(slot)?;
        if let Some(outcome) = pos.outcome() {
            return Ok(Start::Decided(terminal_value(&pos, outcome), 0));
        }
        let mut inside: SmallVec<[u64; 32]> = SmallVec::new();
        let mut exits = Exits::default();
        for mv in pos.legal_moves() {
            let mut child = pos;
            child.play_unchecked(mv);
            // A child in the material is a successor even when its game
            // is over (it is a decided slot and tells its predecessors);
            // one that left it (a capture, a den entry) is an exit.
            if let Some(c) = self.index.index_of(&child) {
                inside.push(c);
                continue;
            }
            let (wdl, d) = if let Some(outcome) = child.outcome() {
                (terminal_value(&child, outcome), 0)
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
        Ok(Start::Open(Open::of(inside.len() as u32, exits)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn across_is_the_mirror_file() {
        assert_eq!(across(Square::new(0).unwrap()).to_string(), "g1");
        assert_eq!(across("d5".parse().unwrap()).to_string(), "d5");
    }
}
