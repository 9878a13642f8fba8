//! Squares, animals, pieces and the fixed features of the board.

use std::fmt;
use std::str::FromStr;

use qi_core::{Coord, Geometry, ParseCoordError, ParseNameError, Side};

/// The Jungle board: 7 files × 9 ranks, `a1` = 0.
///
/// ```
/// use qi_jungle::GEOMETRY;
///
/// assert_eq!((GEOMETRY.width(), GEOMETRY.height()), (7, 9));
/// assert_eq!(GEOMETRY.squares(), 63);
/// ```
pub const GEOMETRY: Geometry = Geometry::new(7, 9);

// The raw masks below are what the move generator and the game layer read;
// `crate::tables` publishes them as `Bitboard`s.

/// Every square of the board (bit 63 is never set).
pub(crate) const ALL: u64 = GEOMETRY.all();

/// Sentinel square index meaning "no square" inside packed tables.
pub(crate) const NONE: u8 = 63;

const fn bit(file: u8, rank: u8) -> u64 {
    1u64 << (rank * 7 + file)
}

/// The twelve water squares (b4–c6 and e4–f6).
pub(crate) const WATER: u64 = bit(1, 3)
    | bit(2, 3)
    | bit(1, 4)
    | bit(2, 4)
    | bit(1, 5)
    | bit(2, 5)
    | bit(4, 3)
    | bit(5, 3)
    | bit(4, 4)
    | bit(5, 4)
    | bit(4, 5)
    | bit(5, 5);

/// Every land square.
pub(crate) const LAND: u64 = ALL & !WATER;

/// The den of each side, indexed by [`Side::index`] (Red d1, Blue d9).
pub(crate) const DENS: [u64; 2] = [bit(3, 0), bit(3, 8)];

/// The den square index of each side.
pub(crate) const DEN_SQUARES: [u8; 2] = [3, 59];

/// The traps owned by each side, indexed by [`Side::index`]
/// (Red c1 e1 d2, Blue c9 e9 d8). An enemy animal standing on them loses its
/// power against the owner's animals.
pub(crate) const TRAPS: [u64; 2] = [
    bit(2, 0) | bit(4, 0) | bit(3, 1),
    bit(2, 8) | bit(4, 8) | bit(3, 7),
];

/// All six trap squares.
pub(crate) const ALL_TRAPS: u64 = TRAPS[0] | TRAPS[1];

/// A square of the board, `a1` (0) to `g9` (62): index = `rank * 7 + file`.
///
/// ```
/// use qi_jungle::Square;
///
/// let sq: Square = "d9".parse().unwrap();
/// assert_eq!((sq.index(), sq.to_string()), (59, "d9".to_string()));
/// assert!("h1".parse::<Square>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// `Square(d9)`: the square's name.
impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({self})")
    }
}

impl Square {
    /// The square with this index, if it is on the board (< 63).
    ///
    /// ```
    /// use qi_jungle::Square;
    ///
    /// assert_eq!(Square::new(0).unwrap().to_string(), "a1");
    /// assert_eq!(Square::new(62).unwrap().to_string(), "g9");
    /// assert_eq!(Square::new(63), None);
    /// ```
    pub const fn new(index: u8) -> Option<Square> {
        if index < 63 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square on 0-based `file` and `rank`, if on the board.
    ///
    /// ```
    /// use qi_jungle::Square;
    ///
    /// assert_eq!(Square::from_file_rank(3, 8).unwrap().to_string(), "d9");
    /// assert_eq!(Square::from_file_rank(7, 0), None);
    /// ```
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Square> {
        match GEOMETRY.index(file, rank) {
            Some(i) => Some(Square(i)),
            None => None,
        }
    }

    /// Every square, `a1` first.
    ///
    /// ```
    /// use qi_jungle::Square;
    ///
    /// assert_eq!(Square::all().count(), 63);
    /// assert_eq!(Square::all().filter(|sq| sq.is_water()).count(), 12);
    /// ```
    pub fn all() -> impl Iterator<Item = Square> {
        (0..63).map(Square)
    }

    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        Square(index)
    }

    /// The index, 0..63.
    ///
    /// ```
    /// use qi_jungle::Square;
    ///
    /// assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
    /// assert_eq!("b2".parse::<Square>().unwrap().index(), 8);
    /// ```
    #[inline(always)]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The 0-based file (`a` = 0).
    ///
    /// ```
    /// use qi_jungle::Square;
    ///
    /// assert_eq!("c7".parse::<Square>().unwrap().file(), 2);
    /// ```
    pub const fn file(self) -> u8 {
        self.0 % 7
    }

    /// The 0-based rank (`1` = 0).
    ///
    /// ```
    /// use qi_jungle::Square;
    ///
    /// assert_eq!("c7".parse::<Square>().unwrap().rank(), 6);
    /// ```
    pub const fn rank(self) -> u8 {
        self.0 / 7
    }

    /// The one-square bit mask.
    ///
    /// ```
    /// use qi_jungle::Square;
    ///
    /// assert_eq!("b1".parse::<Square>().unwrap().bit(), 0b10);
    /// ```
    #[inline(always)]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Whether the square is water.
    ///
    /// ```
    /// use qi_jungle::Square;
    ///
    /// assert!("b4".parse::<Square>().unwrap().is_water());
    /// assert!(!"d5".parse::<Square>().unwrap().is_water());
    /// ```
    pub const fn is_water(self) -> bool {
        WATER >> self.0 & 1 != 0
    }

    /// Whether the square is one of the six traps.
    ///
    /// ```
    /// use qi_jungle::Square;
    ///
    /// assert!("d8".parse::<Square>().unwrap().is_trap());
    /// assert!(!"d9".parse::<Square>().unwrap().is_trap());
    /// ```
    pub const fn is_trap(self) -> bool {
        ALL_TRAPS >> self.0 & 1 != 0
    }

    /// The owner of the trap on this square, if it is a trap.
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::Square;
    ///
    /// assert_eq!("c1".parse::<Square>().unwrap().trap_owner(), Some(Side::First));
    /// assert_eq!("d8".parse::<Square>().unwrap().trap_owner(), Some(Side::Second));
    /// assert_eq!("d5".parse::<Square>().unwrap().trap_owner(), None);
    /// ```
    pub const fn trap_owner(self) -> Option<Side> {
        if TRAPS[0] >> self.0 & 1 != 0 {
            Some(Side::First)
        } else if TRAPS[1] >> self.0 & 1 != 0 {
            Some(Side::Second)
        } else {
            None
        }
    }

    /// The owner of the den on this square, if it is a den.
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::Square;
    ///
    /// assert_eq!("d1".parse::<Square>().unwrap().den_owner(), Some(Side::First));
    /// assert_eq!("d9".parse::<Square>().unwrap().den_owner(), Some(Side::Second));
    /// assert_eq!("d8".parse::<Square>().unwrap().den_owner(), None);
    /// ```
    pub const fn den_owner(self) -> Option<Side> {
        if self.0 == DEN_SQUARES[0] {
            Some(Side::First)
        } else if self.0 == DEN_SQUARES[1] {
            Some(Side::Second)
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl FromStr for Square {
    type Err = ParseCoordError;
    fn from_str(s: &str) -> Result<Square, ParseCoordError> {
        let c: Coord = Coord::parse(s, &GEOMETRY)?;
        // Coord::parse checked the file and rank against the geometry.
        Ok(Square(c.rank * 7 + c.file))
    }
}

impl From<Square> for u8 {
    fn from(sq: Square) -> u8 {
        sq.0
    }
}

/// One of the eight animals, weakest (Rat) first in the default order.
///
/// ```
/// use qi_jungle::{Animal, RankOrder};
///
/// assert!(Animal::Rat < Animal::Elephant);
/// assert_eq!(Animal::Lion.to_string(), "Lion");
/// assert_eq!(Animal::Wolf.strength(RankOrder::WolfOverDog), 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Animal {
    /// Rat (`R`): swims, captures the Elephant.
    Rat = 0,
    /// Cat (`C`).
    Cat = 1,
    /// Dog (`D`).
    Dog = 2,
    /// Wolf (`W`), called Fox in some sources.
    Wolf = 3,
    /// Leopard (`P`).
    Leopard = 4,
    /// Tiger (`T`): jumps rivers.
    Tiger = 5,
    /// Lion (`L`): jumps rivers.
    Lion = 6,
    /// Elephant (`E`): never captures the Rat.
    Elephant = 7,
}

impl Animal {
    /// All eight animals, Rat first.
    ///
    /// ```
    /// use qi_jungle::Animal;
    ///
    /// let letters: String = Animal::ALL.iter().map(|a| a.letter()).collect();
    /// assert_eq!(letters, "RCDWPTLE");
    /// ```
    pub const ALL: [Animal; 8] = [
        Animal::Rat,
        Animal::Cat,
        Animal::Dog,
        Animal::Wolf,
        Animal::Leopard,
        Animal::Tiger,
        Animal::Lion,
        Animal::Elephant,
    ];

    /// 0 (Rat) to 7 (Elephant): an index into per-animal arrays.
    ///
    /// ```
    /// use qi_jungle::Animal;
    ///
    /// assert_eq!(Animal::Rat.index(), 0);
    /// assert_eq!(Animal::Elephant.index(), 7);
    /// ```
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The animal of an index 0..8 (`None` otherwise).
    ///
    /// ```
    /// use qi_jungle::Animal;
    ///
    /// assert_eq!(Animal::from_index(6), Some(Animal::Lion));
    /// assert_eq!(Animal::from_index(8), None);
    /// ```
    pub const fn from_index(index: usize) -> Option<Animal> {
        if index < 8 {
            Some(Animal::ALL[index])
        } else {
            None
        }
    }

    /// The upper-case letter (`E L T P W D C R`).
    ///
    /// ```
    /// use qi_jungle::Animal;
    ///
    /// assert_eq!(Animal::Leopard.letter(), 'P');
    /// assert_eq!(Animal::Wolf.letter(), 'W');
    /// ```
    pub const fn letter(self) -> char {
        match self {
            Animal::Rat => 'R',
            Animal::Cat => 'C',
            Animal::Dog => 'D',
            Animal::Wolf => 'W',
            Animal::Leopard => 'P',
            Animal::Tiger => 'T',
            Animal::Lion => 'L',
            Animal::Elephant => 'E',
        }
    }

    /// The animal of a letter, either case.
    ///
    /// ```
    /// use qi_jungle::Animal;
    ///
    /// assert_eq!(Animal::from_letter('e'), Some(Animal::Elephant));
    /// assert_eq!(Animal::from_letter('T'), Some(Animal::Tiger));
    /// assert_eq!(Animal::from_letter('x'), None);
    /// ```
    pub const fn from_letter(letter: char) -> Option<Animal> {
        match letter.to_ascii_uppercase() {
            'R' => Some(Animal::Rat),
            'C' => Some(Animal::Cat),
            'D' => Some(Animal::Dog),
            'W' => Some(Animal::Wolf),
            'P' => Some(Animal::Leopard),
            'T' => Some(Animal::Tiger),
            'L' => Some(Animal::Lion),
            'E' => Some(Animal::Elephant),
            _ => None,
        }
    }

    /// The English name.
    ///
    /// ```
    /// use qi_jungle::Animal;
    ///
    /// assert_eq!(Animal::Leopard.name(), "Leopard");
    /// ```
    pub const fn name(self) -> &'static str {
        self.as_str()
    }

    /// The strength 1 (weakest) to 8 under a rank order: Elephant 8, Lion 7,
    /// Tiger 6, Leopard 5, then Wolf 4 / Dog 3 (or Dog 4 / Wolf 3), Cat 2,
    /// Rat 1.
    ///
    /// ```
    /// use qi_jungle::{Animal, RankOrder};
    ///
    /// assert_eq!(Animal::Elephant.strength(RankOrder::WolfOverDog), 8);
    /// assert_eq!(Animal::Dog.strength(RankOrder::WolfOverDog), 3);
    /// assert_eq!(Animal::Dog.strength(RankOrder::DogOverWolf), 4);
    /// assert_eq!(Animal::Rat.strength(RankOrder::DogOverWolf), 1);
    /// ```
    pub const fn strength(self, order: RankOrder) -> u8 {
        match (self, order) {
            (Animal::Wolf, RankOrder::DogOverWolf) => 3,
            (Animal::Dog, RankOrder::DogOverWolf) => 4,
            _ => self as u8 + 1,
        }
    }
}

// `Display` writes the name and `FromStr` reads it back:
// `"Leopard".parse::<Animal>()`.
qi_core::text_names!(Animal {
    Rat => "Rat",
    Cat => "Cat",
    Dog => "Dog",
    Wolf => "Wolf",
    Leopard => "Leopard",
    Tiger => "Tiger",
    Lion => "Lion",
    Elephant => "Elephant",
});

/// The colour name of a side in Jungle: `Red` (first) or `Blue` (second).
///
/// ```
/// use qi_core::Side;
/// use qi_jungle::side_name;
///
/// assert_eq!(side_name(Side::First), "Red");
/// assert_eq!(side_name(Side::Second), "Blue");
/// ```
pub const fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "Red",
        Side::Second => "Blue",
    }
}

/// Which of Wolf and Dog is stronger.
///
/// ```
/// use qi_jungle::{Animal, RankOrder};
///
/// let order: RankOrder = "dog_over_wolf".parse().unwrap();
/// assert_eq!(order, RankOrder::DogOverWolf);
/// assert_eq!(order.to_string(), "dog_over_wolf");
/// assert!(Animal::Dog.strength(order) > Animal::Wolf.strength(order));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RankOrder {
    /// Elephant > Lion > Tiger > Leopard > Wolf > Dog > Cat > Rat (source 000).
    #[default]
    WolfOverDog,
    /// Elephant > Lion > Tiger > Leopard > Dog > Wolf > Cat > Rat (sources 001/003).
    DogOverWolf,
}

// The order's text, as rules text and serde write it.
qi_core::text_names!(RankOrder {
    WolfOverDog => "wolf_over_dog",
    DogOverWolf => "dog_over_wolf",
});

#[cfg(feature = "serde")]
qi_core::serde_via_text!(RankOrder);

/// An animal of one side. `Debug` reads as `Display`: `Piece(Red Lion)`.
///
/// ```
/// use qi_games::prelude::*;
/// use qi_games::jungle::{Animal, Piece};
///
/// let piece = Piece::new(Side::First, Animal::Lion);
/// assert_eq!(format!("{piece:?}"), "Piece(Red Lion)");
/// assert_eq!(piece.to_string().parse(), Ok(piece));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Piece {
    /// The owner (`First` = Red).
    pub side: Side,
    /// The animal.
    pub animal: Animal,
}

impl Piece {
    /// A piece.
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Animal, Piece};
    ///
    /// let piece = Piece::new(Side::Second, Animal::Tiger);
    /// assert_eq!((piece.side, piece.animal), (Side::Second, Animal::Tiger));
    /// assert_eq!(piece.to_string(), "Blue Tiger");
    /// ```
    pub const fn new(side: Side, animal: Animal) -> Piece {
        Piece { side, animal }
    }

    /// The JFEN letter: upper case for Red, lower case for Blue.
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Animal, Piece};
    ///
    /// assert_eq!(Piece::new(Side::First, Animal::Lion).letter(), 'L');
    /// assert_eq!(Piece::new(Side::Second, Animal::Lion).letter(), 'l');
    /// ```
    pub const fn letter(self) -> char {
        let c = self.animal.letter();
        match self.side {
            Side::First => c,
            Side::Second => c.to_ascii_lowercase(),
        }
    }

    /// The piece of a JFEN letter (upper case Red, lower case Blue).
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Animal, Piece};
    ///
    /// assert_eq!(Piece::from_letter('r'), Some(Piece::new(Side::Second, Animal::Rat)));
    /// assert_eq!(Piece::from_letter('E'), Some(Piece::new(Side::First, Animal::Elephant)));
    /// assert_eq!(Piece::from_letter('?'), None);
    /// ```
    pub const fn from_letter(letter: char) -> Option<Piece> {
        match Animal::from_letter(letter) {
            Some(animal) => Some(Piece {
                side: if letter.is_ascii_uppercase() {
                    Side::First
                } else {
                    Side::Second
                },
                animal,
            }),
            None => None,
        }
    }

    /// 0..16: `side * 8 + animal`.
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Animal, Piece};
    ///
    /// assert_eq!(Piece::new(Side::First, Animal::Cat).index(), 1);
    /// assert_eq!(Piece::new(Side::Second, Animal::Cat).index(), 9);
    /// ```
    pub const fn index(self) -> usize {
        self.side.index() * 8 + self.animal.index()
    }
}

/// `Red Lion`, `Blue Rat`, …
///
/// ```
/// use qi_core::Side;
/// use qi_jungle::{Animal, Piece};
///
/// assert_eq!(Piece::new(Side::First, Animal::Rat).to_string(), "Red Rat");
/// ```
impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", side_name(self.side), self.animal)
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Piece({self})")
    }
}

/// Reads what `Display` writes: the side's colour and the animal's name.
///
/// ```
/// use qi_core::Side;
/// use qi_jungle::{Animal, Piece};
///
/// assert_eq!("Blue Tiger".parse(), Ok(Piece::new(Side::Second, Animal::Tiger)));
/// assert!("Green Tiger".parse::<Piece>().is_err());
/// ```
impl FromStr for Piece {
    type Err = ParseNameError;
    fn from_str(text: &str) -> Result<Piece, ParseNameError> {
        const EXPECTED: &str = "a colour (Red, Blue) and an animal, e.g. Red Rat";
        let bad = || ParseNameError::new(text, EXPECTED);
        let (colour, animal) = text.split_once(' ').ok_or_else(bad)?;
        let side = Side::BOTH
            .into_iter()
            .find(|&s| side_name(s) == colour)
            .ok_or_else(bad)?;
        let animal = animal.parse().map_err(|_| bad())?;
        Ok(Piece::new(side, animal))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_features() {
        assert_eq!(WATER.count_ones(), 12);
        assert_eq!(TRAPS[0].count_ones(), 3);
        for (text, water) in [("b4", true), ("c6", true), ("d5", false), ("f4", true)] {
            assert_eq!(text.parse::<Square>().unwrap().is_water(), water);
        }
        assert_eq!(
            "d1".parse::<Square>().unwrap().den_owner(),
            Some(Side::First)
        );
        assert_eq!("d9".parse::<Square>().unwrap().index(), 59);
        assert_eq!(
            "d8".parse::<Square>().unwrap().trap_owner(),
            Some(Side::Second)
        );
        assert_eq!("g9".parse::<Square>().unwrap().index(), 62);
        assert!("h1".parse::<Square>().is_err());
        assert!("a0".parse::<Square>().is_err());
    }

    #[test]
    fn letters_round_trip() {
        for a in Animal::ALL {
            assert_eq!(Animal::from_letter(a.letter()), Some(a));
            for side in Side::BOTH {
                let p = Piece::new(side, a);
                assert_eq!(Piece::from_letter(p.letter()), Some(p));
            }
        }
        assert_eq!(Animal::from_letter('x'), None);
    }
}
