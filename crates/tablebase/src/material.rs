//! [`Material`]: which animals each side has, and the bijection between a
//! material's positions and the indices `0..position_count()`.

use std::fmt;
use std::str::FromStr;

use qi_core::{Position, Side};
use qi_jungle::{Animal, Jungle, Piece, Rules, Setup, Square};
use thiserror::Error;

/// Sentinel of the rank tables: the square is not allowed.
const NOT_ALLOWED: u8 = u8::MAX;

/// Whether an animal (a Rat if `rat`) may stand on square `sq` in a table:
/// not on either den, and in water only if it is a Rat.
const fn allowed(rat: bool, sq: u8) -> bool {
    match Square::new(sq) {
        Some(s) => s.den_owner().is_none() && (rat || !s.is_water()),
        None => false,
    }
}

/// `RANKS[rat][sq]`: the rank of `sq` among the squares allowed to a Rat
/// (`rat` = 1) or to any other animal (0), `NOT_ALLOWED` when not allowed.
const RANKS: [[u8; 63]; 2] = {
    let mut t = [[NOT_ALLOWED; 63]; 2];
    let mut r = 0;
    while r < 2 {
        let mut n = 0u8;
        let mut sq = 0u8;
        while sq < 63 {
            if allowed(r == 1, sq) {
                t[r][sq as usize] = n;
                n += 1;
            }
            sq += 1;
        }
        r += 1;
    }
    t
};

/// How many squares each kind may stand on: 49 land squares that are not a
/// den for the others, and 61 (land and water, no den) for the Rat.
const ALLOWED_COUNT: [u8; 2] = [49, 61];

/// `SQUARES[rat][rank]`: the inverse of [`RANKS`].
const SQUARES: [[u8; 61]; 2] = {
    let mut t = [[0u8; 61]; 2];
    let mut r = 0;
    while r < 2 {
        let mut sq = 0;
        while sq < 63 {
            let k = RANKS[r][sq];
            if k != NOT_ALLOWED {
                t[r][k as usize] = sq as u8;
            }
            sq += 1;
        }
        r += 1;
    }
    t
};

/// The animals of each side in a tablebase: at most one of each animal per
/// side (as in the game), at least one animal per side (a side without
/// animals has already lost).
///
/// Its text is the Red animals' letters, `v`, the Blue animals' letters,
/// strongest first in the default order, all upper case: `LvR` is a Red
/// Lion against a Blue Rat, `LCvE` a Red Lion and Cat against a Blue
/// Elephant.
///
/// ```
/// use qi_jungle::Animal;
/// use qi_tablebase::Material;
///
/// let m: Material = "LCvE".parse().unwrap();
/// assert_eq!(m, Material::new(&[Animal::Cat, Animal::Lion], &[Animal::Elephant]).unwrap());
/// assert_eq!(m.to_string(), "LCvE");
/// assert_eq!(m.position_count(), 49 * 48 * 47 * 2);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Per side, bit `Animal::index()` set for each animal present.
    masks: [u8; 2],
}

/// Why a material could not be built or read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MaterialError {
    /// A side has the same animal twice.
    #[error("{side} has two {animal}s")]
    Duplicate {
        /// The side, `Red` or `Blue`.
        side: &'static str,
        /// The animal.
        animal: Animal,
    },
    /// A side has no animal: such positions are over, there is no table.
    #[error("{0} has no animal")]
    EmptySide(&'static str),
    /// The text is not `<letters>v<letters>`.
    #[error("material text {0:?} is not of the form LCvE (Red letters, v, Blue letters)")]
    Syntax(String),
    /// A letter that names no animal.
    #[error("unknown animal letter {0:?} in material text")]
    UnknownLetter(char),
}

impl Material {
    /// The material of `red` against `blue` (each in any order).
    pub fn new(red: &[Animal], blue: &[Animal]) -> Result<Material, MaterialError> {
        let mut masks = [0u8; 2];
        for (side, animals) in [(Side::First, red), (Side::Second, blue)] {
            for &a in animals {
                let bit = 1u8 << a.index();
                if masks[side.index()] & bit != 0 {
                    return Err(MaterialError::Duplicate {
                        side: qi_jungle::side_name(side),
                        animal: a,
                    });
                }
                masks[side.index()] |= bit;
            }
            if masks[side.index()] == 0 {
                return Err(MaterialError::EmptySide(qi_jungle::side_name(side)));
            }
        }
        Ok(Material { masks })
    }

    /// The material of a position, if both sides have an animal.
    pub fn of(pos: &Jungle) -> Option<Material> {
        let masks = Side::BOTH.map(|side| mask_of(&pos.animal_squares(side)));
        (masks[0] != 0 && masks[1] != 0).then_some(Material { masks })
    }

    /// The animals of `side`, weakest first (Rat first).
    pub fn animals(self, side: Side) -> impl Iterator<Item = Animal> {
        let mask = self.masks[side.index()];
        Animal::ALL
            .into_iter()
            .filter(move |a| mask & (1 << a.index()) != 0)
    }

    /// How many animals `side` has.
    pub fn count(self, side: Side) -> u32 {
        self.masks[side.index()].count_ones()
    }

    /// How many animals are on the board.
    pub fn total(self) -> u32 {
        self.count(Side::First) + self.count(Side::Second)
    }

    /// Whether `side` has `animal`.
    pub fn has(self, side: Side, animal: Animal) -> bool {
        self.masks[side.index()] & (1 << animal.index()) != 0
    }

    /// The materials left after one capture of an animal of either side
    /// (those where the capturing side's opponent still has an animal).
    pub fn after_captures(self) -> Vec<Material> {
        let mut out = Vec::new();
        for side in Side::BOTH {
            for a in self.animals(side) {
                let mut masks = self.masks;
                masks[side.index()] &= !(1 << a.index());
                if masks[side.index()] != 0 {
                    out.push(Material { masks });
                }
            }
        }
        out
    }

    /// Every material with `red` Red animals and `blue` Blue animals
    /// (each at least 1), in increasing order.
    pub fn all_with(red: u32, blue: u32) -> Vec<Material> {
        let masks_of = |n: u32| (1u16..256).filter(move |m| m.count_ones() == n);
        let mut out = Vec::new();
        if red == 0 || blue == 0 {
            return out;
        }
        for r in masks_of(red) {
            for b in masks_of(blue) {
                out.push(Material {
                    masks: [r as u8, b as u8],
                });
            }
        }
        out.sort();
        out
    }

    /// Every material of 2 to `animals` animals in any split (each side at
    /// least one), fewest animals first.
    pub fn all_up_to(animals: u32) -> Vec<Material> {
        let mut out = Vec::new();
        for total in 2..=animals.min(16) {
            for red in 1..total {
                if red <= 8 && total - red <= 8 {
                    out.extend(Material::all_with(red, total - red));
                }
            }
        }
        out
    }

    /// The pieces in index order: the non-Rats of Red then of Blue (weakest
    /// first), then the Red Rat, then the Blue Rat. A Rat may stand on every
    /// square another animal may, so each piece's squares include those of
    /// every piece before it, which makes the index a plain mixed-radix
    /// number (see [`Material::index_of`]).
    fn pieces(self) -> Vec<Piece> {
        let mut out = Vec::with_capacity(self.total() as usize);
        for side in Side::BOTH {
            out.extend(
                self.animals(side)
                    .filter(|&a| a != Animal::Rat)
                    .map(|a| Piece::new(side, a)),
            );
        }
        for side in Side::BOTH {
            if self.has(side, Animal::Rat) {
                out.push(Piece::new(side, Animal::Rat));
            }
        }
        out
    }

    /// The number of positions of the material (the counting convention
    /// of `docs/tablebases.md`): every placement of its animals on distinct
    /// squares where each may stand (only a Rat in water, no animal on
    /// either den), times 2 for the side to move. Saturates at `u64::MAX`
    /// (materials of a dozen animals and more).
    pub fn position_count(self) -> u64 {
        Indexer::new(self).count
    }

    /// The index of `pos` in the material's table, if the position has
    /// this material and no animal on a den.
    pub fn index_of(self, pos: &Jungle) -> Option<u64> {
        Indexer::new(self).index_of(pos)
    }

    /// The position with index `index` under `rules` (counters 0 and 1),
    /// if `index < position_count()`.
    pub fn position(self, index: u64, rules: &Rules) -> Option<Jungle> {
        Indexer::new(self).position(index, rules)
    }
}

/// The animal mask of a side's squares (63 = captured).
fn mask_of(squares: &[u8; 8]) -> u8 {
    squares
        .iter()
        .enumerate()
        .filter(|&(_, &sq)| sq < 63)
        .fold(0, |m, (a, _)| m | 1 << a)
}

/// A material's index arithmetic, computed once: the pieces in index order
/// and each one's radix.
#[derive(Clone, Debug)]
pub(crate) struct Indexer {
    pub(crate) material: Material,
    pieces: Vec<Piece>,
    /// Per piece: 1 for a Rat (row of [`RANKS`]), 0 otherwise.
    kind: Vec<usize>,
    /// Per piece: how many squares are left for it once the pieces before
    /// it are placed.
    radix: Vec<u64>,
    pub(crate) count: u64,
}

impl Indexer {
    pub(crate) fn new(material: Material) -> Indexer {
        let pieces = material.pieces();
        let kind: Vec<usize> = pieces
            .iter()
            .map(|p| usize::from(p.animal == Animal::Rat))
            .collect();
        let radix: Vec<u64> = kind
            .iter()
            .enumerate()
            .map(|(i, &k)| u64::from(ALLOWED_COUNT[k]).saturating_sub(i as u64))
            .collect();
        let count = radix
            .iter()
            .try_fold(2u64, |n, &r| n.checked_mul(r))
            .unwrap_or(u64::MAX);
        Indexer {
            material,
            pieces,
            kind,
            radix,
            count,
        }
    }

    /// The index of `pos`, if it has this material and no animal on a den.
    pub(crate) fn index_of(&self, pos: &Jungle) -> Option<u64> {
        let squares = [
            pos.animal_squares(Side::First),
            pos.animal_squares(Side::Second),
        ];
        if Side::BOTH.map(|s| mask_of(&squares[s.index()])) != self.material.masks {
            return None;
        }
        let mut index = 0u64;
        let mut placed = [0u8; 16];
        for (i, piece) in self.pieces.iter().enumerate() {
            let sq = squares[piece.side.index()][piece.animal.index()];
            let rank = RANKS[self.kind[i]][usize::from(sq)];
            if rank == NOT_ALLOWED {
                return None;
            }
            let below = placed[..i].iter().filter(|&&e| e < sq).count() as u64;
            index = index * self.radix[i] + (u64::from(rank) - below);
            placed[i] = sq;
        }
        Some(index * 2 + pos.side_to_move().index() as u64)
    }

    /// The setup with index `index`, if in range.
    pub(crate) fn setup(&self, index: u64) -> Option<Setup> {
        if index >= self.count {
            return None;
        }
        let side = if index.is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        };
        let mut rest = index / 2;
        let mut digits = [0u64; 16];
        for i in (0..self.pieces.len()).rev() {
            digits[i] = rest % self.radix[i];
            rest /= self.radix[i];
        }
        let mut setup = Setup::empty().side_to_move(side);
        let mut placed = [0u8; 16];
        for (i, piece) in self.pieces.iter().enumerate() {
            let kind = self.kind[i];
            let mut earlier: Vec<u8> = placed[..i]
                .iter()
                .map(|&sq| RANKS[kind][usize::from(sq)])
                .collect();
            earlier.sort_unstable();
            let mut rank = digits[i] as u8;
            for e in earlier {
                if e <= rank {
                    rank += 1;
                }
            }
            let sq = SQUARES[kind][usize::from(rank)];
            placed[i] = sq;
            setup = setup.place(Square::new(sq)?, *piece);
        }
        Some(setup)
    }

    /// The position with index `index` under `rules`, if in range.
    pub(crate) fn position(&self, index: u64, rules: &Rules) -> Option<Jungle> {
        self.setup(index)?.into_position(rules).ok()
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, side) in Side::BOTH.into_iter().enumerate() {
            if k == 1 {
                f.write_str("v")?;
            }
            let letters: Vec<char> = self.animals(side).map(|a| a.letter()).collect();
            for c in letters.into_iter().rev() {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Material({self})")
    }
}

impl FromStr for Material {
    type Err = MaterialError;

    fn from_str(text: &str) -> Result<Material, MaterialError> {
        let text = text.trim();
        let (red, blue) = text
            .split_once(['v', 'V'])
            .ok_or_else(|| MaterialError::Syntax(text.to_string()))?;
        let animals = |s: &str| -> Result<Vec<Animal>, MaterialError> {
            s.chars()
                .map(|c| {
                    Animal::from_letter(c.to_ascii_uppercase())
                        .ok_or(MaterialError::UnknownLetter(c))
                })
                .collect()
        };
        Material::new(&animals(red)?, &animals(blue)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_is_a_bijection_on_small_materials() {
        let rules = Rules::standard();
        for text in ["RvR", "LvR", "EvC", "RCvr"] {
            let m: Material = text.parse().unwrap();
            let ix = Indexer::new(m);
            for i in 0..ix.count {
                let pos = ix.position(i, &rules).unwrap();
                assert_eq!(ix.index_of(&pos), Some(i), "{m} {i} {pos}");
            }
            assert!(ix.position(ix.count, &rules).is_none());
        }
    }

    #[test]
    fn counts_follow_the_convention() {
        let count = |t: &str| t.parse::<Material>().unwrap().position_count();
        assert_eq!(count("LvE"), 49 * 48 * 2);
        assert_eq!(count("LvR"), 49 * 60 * 2);
        assert_eq!(count("RvR"), 61 * 60 * 2);
        assert_eq!(count("RCvE"), 49 * 48 * 59 * 2);
        assert_eq!(Material::all_up_to(3).len(), 64 + 2 * 28 * 8);
        assert_eq!(count("ELTPWDCRvELTPWDCR"), u64::MAX);
    }

    #[test]
    fn bad_material_text_is_refused() {
        assert!(matches!(
            "LL".parse::<Material>(),
            Err(MaterialError::Syntax(_))
        ));
        assert!(matches!(
            "LLvE".parse::<Material>(),
            Err(MaterialError::Duplicate { .. })
        ));
        assert!(matches!(
            "vE".parse::<Material>(),
            Err(MaterialError::EmptySide(_))
        ));
        assert!(matches!(
            "XvE".parse::<Material>(),
            Err(MaterialError::UnknownLetter('X'))
        ));
    }
}
