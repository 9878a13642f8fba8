//! [`Material`]: which animals each side has, and the bijection between a
//! material's positions and the indices `0..position_count()`.

use std::fmt;
use std::str::FromStr;

use qi_core::{Position, Side};
use qi_jungle::{Animal, Jungle, Piece, Rules, Square};
use smallvec::SmallVec;
use thiserror::Error;

/// Sentinel of the rank tables: the square is not allowed.
const NOT_ALLOWED: u8 = u8::MAX;

/// The square of a captured animal in [`Jungle::animal_squares`].
const NONE: u8 = 63;

/// Both dens: no animal stands on one in a table.
const DENS: u64 = qi_jungle::DENS[0].0 | qi_jungle::DENS[1].0;

/// The rank tables of the squares of files `0..files`: `t[rat][sq]` is
/// the rank of `sq` among those squares allowed to a Rat (`rat` = 1: any
/// but the dens) or to any other animal (0: nor water), `NOT_ALLOWED` when
/// not allowed or beyond.
const fn rank_table(files: u8) -> [[u8; 63]; 2] {
    let mut t = [[NOT_ALLOWED; 63]; 2];
    let barred = [DENS | qi_jungle::WATER.0, DENS];
    let mut r = 0;
    while r < 2 {
        let mut n = 0u8;
        let mut sq = 0u8;
        while sq < 63 {
            if barred[r] & (1 << sq) == 0 && sq % 7 < files {
                t[r][sq as usize] = n;
                n += 1;
            }
            sq += 1;
        }
        r += 1;
    }
    t
}

/// The inverse of a rank table: `t[rat][rank]` is the square.
const fn square_table<const N: usize>(ranks: &[[u8; 63]; 2]) -> [[u8; N]; 2] {
    let mut t = [[0u8; N]; 2];
    let mut r = 0;
    while r < 2 {
        let mut sq = 0;
        while sq < 63 {
            let k = ranks[r][sq];
            if k != NOT_ALLOWED {
                t[r][k as usize] = sq as u8;
            }
            sq += 1;
        }
        r += 1;
    }
    t
}

/// `RANKS[rat][sq]`: the rank of `sq` among the squares allowed to a Rat
/// (`rat` = 1) or to any other animal (0), `NOT_ALLOWED` when not allowed.
const RANKS: [[u8; 63]; 2] = rank_table(7);

/// How many squares each kind may stand on: 49 land squares that are not a
/// den for the others, and 61 (land and water, no den) for the Rat.
const ALLOWED_COUNT: [u8; 2] = [49, 61];

/// `SQUARES[rat][rank]`: the inverse of [`RANKS`].
const SQUARES: [[u8; 61]; 2] = square_table(&RANKS);

/// The files a table stores its first piece on: a to d. Every board rule
/// of every preset is the same seen in a mirror (water, traps and dens are
/// symmetric about file d; jumps, blocking and captures depend on the
/// squares crossed, not on the side of the board), so a position and its
/// left-right mirror image have the same value and one of them is stored.
const HALF_FILES: u8 = 4;

/// `HALF_RANKS[rat][sq]`: the rank of `sq` among the squares of files a to
/// d allowed to a Rat (1) or to any other animal (0), `NOT_ALLOWED` when
/// not allowed or on files e to g.
const HALF_RANKS: [[u8; 63]; 2] = rank_table(HALF_FILES);

/// How many squares of files a to d each kind may stand on: 28 for the
/// others, 34 for the Rat.
const HALF_COUNT: [u8; 2] = [28, 34];

/// `HALF_SQUARES[rat][rank]`: the inverse of [`HALF_RANKS`].
const HALF_SQUARES: [[u8; 34]; 2] = square_table(&HALF_RANKS);

/// `MIRROR[sq]` is the square `sq` seen in the mirror (file a ↔ g; 63,
/// captured, stays), `FILE[sq]` the file of `sq` (0 for a; 7 for 63):
/// looked up by the index of every successor and predecessor a generator
/// meets, where `% 7` was a division each.
const MIRROR: [u8; 64] = {
    let mut t = [63u8; 64];
    let mut sq = 0;
    while sq < 63 {
        t[sq] = (sq - sq % 7 + (6 - sq % 7)) as u8;
        sq += 1;
    }
    t
};
const FILE: [u8; 64] = {
    let mut t = [7u8; 64];
    let mut sq = 0;
    while sq < 63 {
        t[sq] = (sq % 7) as u8;
        sq += 1;
    }
    t
};

/// The squares of the middle file d, the mirror's axis.
const MIDDLE_FILE: u64 = qi_jungle::GEOMETRY.file_mask(HALF_FILES - 1);

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
/// use qi_games::jungle::Animal;
/// use qi_tablebase::jungle::Material;
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
///
/// ```
/// use qi_games::jungle::Animal;
/// use qi_tablebase::jungle::{Material, MaterialError};
///
/// assert!(matches!("LLvC".parse::<Material>(), Err(MaterialError::Duplicate { .. })));
/// assert_eq!("Lv".parse::<Material>(), Err(MaterialError::EmptySide("Blue")));
/// assert!(matches!("L-C".parse::<Material>(), Err(MaterialError::Syntax(_))));
/// assert_eq!("LvQ".parse::<Material>(), Err(MaterialError::UnknownLetter('Q')));
/// assert!(Material::new(&[Animal::Lion], &[]).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
    ///
    /// ```
    /// use qi_games::base::Side;
    /// use qi_games::jungle::Animal;
    /// use qi_tablebase::jungle::Material;
    ///
    /// let m = Material::new(&[Animal::Cat, Animal::Lion], &[Animal::Elephant])?;
    /// assert_eq!(m, "LCvE".parse()?);
    /// assert!(Material::new(&[Animal::Cat, Animal::Cat], &[Animal::Elephant]).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::jungle::Material;
    ///
    /// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/c6 w", Rules::standard())?;
    /// assert_eq!(Material::of(&pos), Some("LvC".parse()?));
    /// assert_eq!(Material::of(&Jungle::default()).map(|m| m.total()), Some(16));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of(pos: &Jungle) -> Option<Material> {
        let masks = Side::BOTH.map(|side| pos.pieces(side).fold(0, |m, (a, _)| m | 1 << a.index()));
        (masks[0] != 0 && masks[1] != 0).then_some(Material { masks })
    }

    /// The animals of `side`, weakest first (Rat first).
    ///
    /// ```
    /// use qi_games::base::Side;
    /// use qi_games::jungle::Animal;
    /// use qi_tablebase::jungle::Material;
    ///
    /// let m: Material = "LRvE".parse()?;
    /// assert_eq!(m.animals(Side::First).collect::<Vec<_>>(), [Animal::Rat, Animal::Lion]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn animals(self, side: Side) -> impl Iterator<Item = Animal> {
        let mask = self.masks[side.index()];
        Animal::ALL
            .into_iter()
            .filter(move |a| mask & (1 << a.index()) != 0)
    }

    /// How many animals `side` has.
    ///
    /// ```
    /// use qi_games::base::Side;
    /// use qi_games::jungle::Animal;
    /// use qi_tablebase::jungle::Material;
    ///
    /// let m: Material = "LRvE".parse()?;
    /// assert_eq!((m.count(Side::First), m.count(Side::Second)), (2, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn count(self, side: Side) -> u32 {
        self.masks[side.index()].count_ones()
    }

    /// How many animals are on the board.
    ///
    /// ```
    /// use qi_tablebase::jungle::Material;
    ///
    /// assert_eq!("LRvE".parse::<Material>()?.total(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn total(self) -> u32 {
        self.count(Side::First) + self.count(Side::Second)
    }

    /// Whether `side` has `animal`.
    ///
    /// ```
    /// use qi_games::base::Side;
    /// use qi_games::jungle::Animal;
    /// use qi_tablebase::jungle::Material;
    ///
    /// let m: Material = "LRvE".parse()?;
    /// assert!(m.has(Side::First, Animal::Rat) && !m.has(Side::Second, Animal::Rat));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn has(self, side: Side, animal: Animal) -> bool {
        self.masks[side.index()] & (1 << animal.index()) != 0
    }

    /// The materials left after one capture of an animal of either side
    /// (those where the capturing side's opponent still has an animal).
    ///
    /// ```
    /// use qi_tablebase::jungle::Material;
    ///
    /// let after: Vec<String> = "LRvE".parse::<Material>()?.after_captures().iter().map(|m| m.to_string()).collect();
    /// assert_eq!(after, ["LvE", "RvE"]); // taking the Elephant ends the game
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// use qi_tablebase::jungle::Material;
    ///
    /// assert_eq!(Material::all_with(1, 1).len(), 64); // 8 animals a side
    /// assert_eq!(Material::all_with(2, 1).len(), 28 * 8);
    /// assert!(Material::all_with(0, 1).is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn all_with(red: u32, blue: u32) -> Vec<Material> {
        // A side's masks of `n` animals, increasing: none for 0 or past 8.
        let masks_of = |n: u32| (1u16..256).filter(move |m| m.count_ones() == n);
        let mut out = Vec::new();
        // Red's mask first, as materials compare.
        for r in masks_of(red) {
            for b in masks_of(blue) {
                out.push(Material {
                    masks: [r as u8, b as u8],
                });
            }
        }
        out
    }

    /// Every material of 2 to `animals` animals in any split (each side at
    /// least one), fewest animals first.
    ///
    /// ```
    /// use qi_tablebase::jungle::Material;
    ///
    /// let all = Material::all_up_to(3);
    /// assert_eq!(all.len(), 64 + 2 * 28 * 8);
    /// assert!(all.windows(2).all(|w| w[0].total() <= w[1].total()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn all_up_to(animals: u32) -> Vec<Material> {
        let mut out = Vec::new();
        for total in 2..=animals.min(16) {
            // A side of more than 8 animals has no material.
            for red in 1..total {
                out.extend(Material::all_with(red, total - red));
            }
        }
        out
    }

    /// The pieces in index order: the non-Rats of Red then of Blue (weakest
    /// first), then the Red Rat, then the Blue Rat. A Rat may stand on every
    /// square another animal may, so each piece's squares include those of
    /// every piece before it, which makes the index a plain mixed-radix
    /// number (see [`Material::index_of`]).
    fn pieces(self) -> Pieces<Piece> {
        let mut out = Pieces::new();
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
    ///
    /// ```
    /// use qi_tablebase::jungle::Material;
    ///
    /// // Two animals that are not Rats: the 63 squares but the 12 of water
    /// // and the 2 dens, distinct, either side to move.
    /// assert_eq!("LvC".parse::<Material>()?.position_count(), 49 * 48 * 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn position_count(self) -> u64 {
        Indexer::new(self).full_count
    }

    /// The number of indices of the material's table, about 4/7 of
    /// [`position_count`](Material::position_count): a table stores one
    /// position of each left-right mirror pair, the one whose first piece
    /// in index order stands on files a to d (both when it stands on file
    /// d). Saturates at `u64::MAX`.
    ///
    /// ```
    /// use qi_tablebase::jungle::Material;
    ///
    /// // The Lion on one of the 28 squares of files a to d, the Elephant
    /// // on any of the 48 others.
    /// let m: Material = "LvE".parse().unwrap();
    /// assert_eq!(m.index_count(), 28 * 48 * 2);
    /// assert_eq!(m.position_count(), 49 * 48 * 2);
    /// ```
    pub fn index_count(self) -> u64 {
        Indexer::new(self).count
    }

    /// The index of `pos` in the material's table, if the position has
    /// this material and no animal on a den. A position and its left-right
    /// mirror image have the same index when the mirror is the one stored.
    ///
    /// ```
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::jungle::Material;
    ///
    /// let rules = Rules::standard();
    /// let m: Material = "LvE".parse().unwrap();
    /// let pos = Jungle::from_text("7/7/6e/7/7/7/7/L6/7 w", rules).unwrap();
    /// let mirror = Jungle::from_text("7/7/e6/7/7/7/7/6L/7 w", rules).unwrap();
    /// assert_eq!(m.index_of(&pos), m.index_of(&mirror));
    /// assert!(m.index_of(&pos).unwrap() < m.index_count());
    /// ```
    pub fn index_of(self, pos: &Jungle) -> Option<u64> {
        Indexer::new(self).index_of(pos)
    }

    /// The position with index `index` under `rules` (counters 0 and 1),
    /// if `index < index_count()`.
    ///
    /// ```
    /// use qi_games::jungle::Rules;
    /// use qi_tablebase::jungle::Material;
    ///
    /// let m: Material = "LvC".parse()?;
    /// let rules = Rules::standard();
    /// let pos = m.position(0, &rules).unwrap();
    /// assert_eq!(m.index_of(&pos), Some(0));
    /// assert!(m.position(m.index_count(), &rules).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn position(self, index: u64, rules: &Rules) -> Option<Jungle> {
        Indexer::new(self).position(index, rules)
    }
}

/// One entry per piece of a material (at most 16), kept inline: an index
/// is computed at every probe of the search, which must not allocate.
type Pieces<T> = SmallVec<[T; 16]>;

/// A material's index arithmetic, computed once: the pieces in index order
/// and each one's radix. A table keeps its own (its
/// [`TableGame::Index`](crate::TableGame::Index)), so that a probe does not
/// compute it again: that was 40 % of a probe's instructions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Indexer {
    pub(crate) material: Material,
    pieces: Pieces<Piece>,
    /// Per piece: 1 for a Rat (row of [`RANKS`]), 0 otherwise.
    kind: Pieces<usize>,
    /// Per piece: how many squares are left for it once the pieces before
    /// it are placed (for the first piece, its squares on files a to d).
    radix: Pieces<u64>,
    /// The product of the radices after the first: what one step of the
    /// first piece's digit is worth in the index (divided by 2).
    tail: u64,
    /// The number of indices (stored positions).
    pub(crate) count: u64,
    /// The number of positions by the counting convention.
    pub(crate) full_count: u64,
}

impl Indexer {
    pub(crate) fn new(material: Material) -> Indexer {
        let pieces = material.pieces();
        let kind: Pieces<usize> = pieces
            .iter()
            .map(|p| usize::from(p.animal == Animal::Rat))
            .collect();
        let full: Pieces<u64> = kind
            .iter()
            .enumerate()
            .map(|(i, &k)| u64::from(ALLOWED_COUNT[k]).saturating_sub(i as u64))
            .collect();
        let mut radix = full.clone();
        radix[0] = u64::from(HALF_COUNT[kind[0]]);
        let product = |r: &[u64], start: u64| {
            r.iter()
                .try_fold(start, |n, &r| n.checked_mul(r))
                .unwrap_or(u64::MAX)
        };
        Indexer {
            material,
            tail: product(&radix[1..], 1),
            count: product(&radix, 2),
            full_count: product(&full, 2),
            pieces,
            kind,
            radix,
        }
    }

    /// How many positions of the counting convention the index `index`
    /// stands for: 2 (itself and its mirror image) when its first piece
    /// stands on files a to c, 1 on file d, where the mirror image has an
    /// index of its own (or is the position itself).
    pub(crate) fn weight(&self, index: u64) -> u64 {
        let first = (index / 2 / self.tail) as usize;
        let sq = HALF_SQUARES[self.kind[0]][first.min(33)];
        if sq % 7 == HALF_FILES - 1 {
            1
        } else {
            2
        }
    }

    /// The index of `pos`, if it has this material and no animal on a den.
    pub(crate) fn index_of(&self, pos: &Jungle) -> Option<u64> {
        self.index_from(pos, false)
    }

    /// The index of `pos`'s left-right mirror image (the same side to
    /// move), if it has this material and no animal on a den.
    pub(crate) fn index_of_mirror(&self, pos: &Jungle) -> Option<u64> {
        self.index_from(pos, true)
    }

    /// Whether the index stands for `pos`, a position of this material,
    /// by its mirror image: its first piece stands right of the middle
    /// file.
    pub(crate) fn stores_mirror(&self, pos: &Jungle) -> bool {
        self.first_file(pos) >= HALF_FILES
    }

    /// Whether the index's first animal stands on the middle file in
    /// `pos`, a position of this material: then `pos` and its mirror
    /// image have a slot each (unless it is its own mirror image).
    pub(crate) fn first_on_middle_file(&self, pos: &Jungle) -> bool {
        self.first_file(pos) == HALF_FILES - 1
    }

    /// Whether no two positions one move from `pos` (a position of this
    /// material) share a slot. Two such positions are each other's
    /// mirror images only when the same animal moved in both (no move
    /// ends on the mirror image of its square, so an animal that moved in
    /// one board and not in the other stands on mirrored squares in
    /// neither) and every other animal stands on the middle file: so not
    /// when two or more animals stand off it. A generator counts such a
    /// position's successors without indexing them.
    pub(crate) fn successors_distinct(&self, pos: &Jungle) -> bool {
        (pos.occupied().0 & !MIDDLE_FILE).count_ones() >= 2
    }

    /// Whether `child`, one move from a position of this material, has a
    /// slot: no capture (each side keeps its count of animals) and no
    /// animal on a den; what [`Indexer::index_of`] finds of such a
    /// position, without its arithmetic.
    pub(crate) fn holds_child(&self, child: &Jungle) -> bool {
        child.occupied().0 & DENS == 0
            && Side::BOTH
                .iter()
                .all(|&s| child.occupancy(s).0.count_ones() == self.material.count(s))
    }

    /// The file of the index's first animal in `pos` (7 if captured).
    fn first_file(&self, pos: &Jungle) -> u8 {
        let first = self.pieces[0];
        FILE[usize::from(pos.animal_squares(first.side)[first.animal.index()])]
    }

    /// The index of `pos`, or of its mirror image if `mirrored`. The
    /// material is checked by the square of each of the material's
    /// animals: every one is on the board, and together they are every
    /// occupied square (no other animal stands there).
    #[inline]
    fn index_from(&self, pos: &Jungle, mirrored: bool) -> Option<u64> {
        let squares = [
            pos.animal_squares(Side::First),
            pos.animal_squares(Side::Second),
        ];
        // Slices taken once: each look into a `SmallVec` tests where it
        // is kept.
        let (pieces, kind, radix) = (&self.pieces[..], &self.kind[..], &self.radix[..]);
        let mut placed = [0u8; 16];
        let mut on_board = 0u64;
        for (sq, piece) in placed.iter_mut().zip(pieces) {
            *sq = squares[piece.side.index()][piece.animal.index()];
            if *sq == NONE {
                return None;
            }
            on_board |= 1 << *sq;
        }
        if on_board != pos.occupied().0 {
            return None;
        }
        // The stored one of the mirror pair has its first piece on files
        // a to d: the mirror image's first piece stands on file 6 − f.
        let flip = FILE[usize::from(placed[0])] + u8::from(mirrored) >= HALF_FILES;
        let mut index = 0u64;
        // The squares of the pieces before: a piece's digit is its rank
        // less the number of them below it.
        let mut earlier = 0u64;
        for (i, &sq) in placed[..pieces.len()].iter().enumerate() {
            let sq = if flip { MIRROR[usize::from(sq)] } else { sq };
            let rank = if i == 0 {
                HALF_RANKS[kind[0]][usize::from(sq)]
            } else {
                RANKS[kind[i]][usize::from(sq)]
            };
            if rank == NOT_ALLOWED {
                return None;
            }
            let below = (earlier & ((1 << sq) - 1)).count_ones();
            earlier |= 1 << sq;
            index = index * radix[i] + (u64::from(rank) - u64::from(below));
        }
        Some(index * 2 + pos.side_to_move().index() as u64)
    }

    /// The position with index `index` under `rules` (counters 0 and 1),
    /// if in range: the squares of each animal (as
    /// [`Jungle::from_squares`] takes them) decoded from its digits.
    pub(crate) fn position(&self, index: u64, rules: &Rules) -> Option<Jungle> {
        if index >= self.count {
            return None;
        }
        let side = if index.is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        };
        let (pieces, kinds, radix) = (&self.pieces[..], &self.kind[..], &self.radix[..]);
        let mut digits = [0u64; 16];
        let n = pieces.len();
        match u32::try_from(index / 2) {
            // Most tables' placements fit in 32 bits, whose division is
            // the cheaper (a generator decodes every index twice).
            Ok(mut rest) => {
                for i in (0..n).rev() {
                    let r = radix[i] as u32;
                    digits[i] = u64::from(rest % r);
                    rest /= r;
                }
            }
            Err(_) => {
                let mut rest = index / 2;
                for i in (0..n).rev() {
                    digits[i] = rest % radix[i];
                    rest /= radix[i];
                }
            }
        }
        let mut squares = [[None; 8]; 2];
        let mut placed = [0u8; 16];
        for (i, piece) in pieces.iter().enumerate() {
            let kind = kinds[i];
            let sq = if i == 0 {
                HALF_SQUARES[kind][digits[0] as usize]
            } else {
                // The digit counts the squares left: step over the ranks
                // of the pieces placed before, lowest first (kept sorted
                // as they are inserted).
                let mut earlier = [0u8; 16];
                for (k, &sq) in placed[..i].iter().enumerate() {
                    let r = RANKS[kind][usize::from(sq)];
                    let mut j = k;
                    while j > 0 && earlier[j - 1] > r {
                        earlier[j] = earlier[j - 1];
                        j -= 1;
                    }
                    earlier[j] = r;
                }
                let mut rank = digits[i] as u8;
                for &e in &earlier[..i] {
                    if e <= rank {
                        rank += 1;
                    }
                }
                SQUARES[kind][usize::from(rank)]
            };
            placed[i] = sq;
            squares[piece.side.index()][piece.animal.index()] = Some(Square::new(sq)?);
        }
        Jungle::from_squares(squares, side, *rules)
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, side) in Side::BOTH.into_iter().enumerate() {
            if k == 1 {
                f.write_str("v")?;
            }
            // Strongest first: the animals in the reverse of their order.
            for a in Animal::ALL.into_iter().rev().filter(|&a| self.has(side, a)) {
                write!(f, "{}", a.letter())?;
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
mod tests;
