//! A Jungle material as a [`RetroSlice`]: the slots of its index, each
//! started by its moves (a capture leaves the material: an exit, read in
//! the smaller tables), and un-moved by taking back a move that captured
//! nothing. This is what the generic rounds (`retrograde::solve`, and
//! `dataflow::solve` on many workers and processes) need of Jungle; the
//! tables they give are those of [`generate_table`](super::generate_table)
//! (the same values and distances, so the same bytes).
//!
//! The un-moves are found by trial: the animal of the side that just
//! moved is put back on each square of its rank and file (every move it
//! can have made, a step or a river jump, is along one of them), and the
//! position so made is kept when one of its legal moves leads back. So the
//! un-moves follow every preset's move rules (jumps, their blocking, the
//! Rat's swimming, traps) from the move generator, with no second copy of
//! those rules to keep in step.

use qi_core::Position;
use qi_jungle::{Jungle, Move, Rules, Square};
use smallvec::SmallVec;

use super::material::{Indexer, Material};
use super::solve::terminal_value;
use super::{Table, Tablebase};
use crate::retrograde::{Open, RetroError, RetroSlice, SliceValues, Start};
use crate::table::Wdl;

/// Squares on a Jungle board: 7 files by 9 ranks.
const FILES: u8 = 7;
const RANKS: u8 = 9;

/// One Jungle material with the tables its captures lead to.
pub struct JungleSlice {
    rules: Rules,
    index: Indexer,
    /// The tables of the materials its captures reach (read into the
    /// slice: the workers of the rounds need it for as long as they run).
    smaller: Tablebase,
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
            smaller,
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
        let mover = pos.side_to_move().opponent();
        let setup = pos.to_setup().side_to_move(mover);
        for &at in &pos.animal_squares(mover) {
            let Some(to) = Square::new(at) else {
                continue; // captured
            };
            let Some(piece) = pos.piece_at(to) else {
                continue;
            };
            for from in origins(at).filter_map(Square::new) {
                if pos.piece_at(from).is_some() {
                    continue;
                }
                let before = setup.set(to, None).set(from, Some(piece));
                let Ok(before) = before.into_position(&self.rules) else {
                    continue;
                };
                let Some(p) = self.index.index_of(&before) else {
                    continue;
                };
                // The slot's moves are those of the position that stands
                // for it (the generator's and the table's): `before` or its
                // mirror image. The two lead to the same slots but where a
                // move puts the index's first animal on the middle file,
                // whose two sides have slots of their own.
                let Ok(stands) = self.position(p) else {
                    continue;
                };
                let leads_here = if stands == before {
                    stands.is_legal(Move::new(from, to))
                } else {
                    // The mirror image, by the mirrored move.
                    let mv = Move::new(across(from), across(to));
                    stands.is_legal(mv) && {
                        let mut after = stands;
                        after.play_unchecked(mv);
                        self.index.index_of(&after) == Some(slot)
                    }
                };
                if leads_here {
                    out.push(p);
                }
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
    let mirror = setup.into_position(rules).ok()?;
    (mirror != *pos).then_some(mirror)
}

/// The squares from which an animal can have moved to `sq`: its four
/// neighbours, and along its rank and file the squares beyond one or more
/// squares of water (a river jump; every jump of every preset crosses
/// only water). Which animal may make which of those moves is the move
/// generator's to say.
fn origins(sq: u8) -> impl Iterator<Item = u8> {
    let (file, rank) = (i32::from(sq % FILES), i32::from(sq / FILES));
    [(1, 0), (-1, 0), (0, 1), (0, -1)]
        .into_iter()
        .flat_map(move |(df, dr)| {
            let at = move |k: i32| {
                let (f, r) = (file + df * k, rank + dr * k);
                ((0..i32::from(FILES)).contains(&f) && (0..i32::from(RANKS)).contains(&r))
                    .then(|| (r * i32::from(FILES) + f) as u8)
            };
            let wet = |s: u8| Square::new(s).is_some_and(Square::is_water);
            // The neighbour, then (if it is water and `sq` is dry: a jump
            // lands on land) the first dry square past the water.
            let far = (1..i32::from(RANKS))
                .map_while(at)
                .find(move |&s| !wet(s))
                .filter(move |_| at(1).is_some_and(wet) && !wet(sq));
            at(1).into_iter().chain(far)
        })
}

impl RetroSlice for JungleSlice {
    fn slots(&self) -> u64 {
        self.index.count
    }

    fn start(&self, slot: u64) -> Result<Start, RetroError> {
        let pos = self.position(slot)?;
        if let Some(outcome) = pos.outcome() {
            return Ok(Start::Decided(terminal_value(&pos, outcome), 0));
        }
        let mut inside: SmallVec<[u64; 32]> = SmallVec::new();
        let mut open = Open::default();
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
                let (wdl, d) = self
                    .smaller
                    .table(needed)
                    .and_then(|t| t.get(&child))
                    .ok_or_else(|| RetroError::Slice {
                        slot,
                        message: format!(
                            "{} needs the table of {needed} (the move {mv})",
                            self.index.material
                        ),
                    })?;
                (wdl, u16::try_from(d).unwrap_or(u16::MAX - 2))
            };
            match wdl {
                Wdl::Loss => open.exit_win = Some(open.exit_win.map_or(d, |w| w.min(d))),
                Wdl::Win => open.exit_loss = Some(open.exit_loss.map_or(d, |l| l.max(d))),
                Wdl::Draw => open.exit_draw = true,
            }
        }
        inside.sort_unstable();
        inside.dedup();
        open.successors = inside.len() as u32;
        Ok(Start::Open(open))
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
        if let Some(mirror) = mirrored(&pos, &self.rules) {
            if self.index.index_of(&mirror) == Some(slot) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn named(sq: u8) -> String {
        Square::new(sq).unwrap().to_string()
    }

    fn origins_of(name: &str) -> Vec<String> {
        let sq: Square = name.parse().unwrap();
        let mut all: Vec<String> = origins(sq.index()).map(named).collect();
        all.sort();
        all
    }

    #[test]
    fn origins_are_the_neighbours_and_the_far_banks() {
        assert_eq!(origins_of("a1"), ["a2", "b1"]);
        // Beside the left river: across it to d4 (the rank) and to b7
        // (the file) lie the far banks.
        assert_eq!(origins_of("b3"), ["a3", "b2", "b4", "b7", "c3"]);
        assert_eq!(origins_of("a4"), ["a3", "a5", "b4", "d4"]);
        // In the water: neighbours only (the far squares are water).
        assert_eq!(origins_of("b5"), ["a5", "b4", "b6", "c5"]);
        // Between the rivers: a Lion jumps to d5 from a5 and from g5.
        assert_eq!(origins_of("d5"), ["a5", "c5", "d4", "d6", "e5", "g5"]);
        assert_eq!(origins_of("d3"), ["c3", "d2", "d4", "e3"]);
        assert_eq!(across(Square::new(0).unwrap()).to_string(), "g1");
        assert_eq!(across("d5".parse().unwrap()).to_string(), "d5");
    }
}
