//! Sets of squares as bit masks: [`Bitboard`] over `u64` (up to 64 squares,
//! Jungle's 63) and [`Bitboard32`] over `u32` (up to 32, Five Tigers' 25).

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use crate::geometry::{Direction, Geometry};

macro_rules! bitboard {
    ($(#[$doc:meta])* $name:ident, $iter:ident, $int:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[repr(transparent)]
        pub struct $name(pub $int);

        impl $name {
            /// The empty set.
            pub const EMPTY: $name = $name(0);

            /// The set of the single square `index`.
            #[inline(always)]
            pub const fn from_square(index: u8) -> $name {
                $name(1 << index)
            }

            /// The set of the given squares.
            pub const fn from_squares(indices: &[u8]) -> $name {
                let mut bits: $int = 0;
                let mut i = 0;
                while i < indices.len() {
                    bits |= 1 << indices[i];
                    i += 1;
                }
                $name(bits)
            }

            /// The raw bits.
            #[inline(always)]
            pub const fn bits(self) -> $int {
                self.0
            }

            /// Whether square `index` is in the set.
            #[inline(always)]
            pub const fn contains(self, index: u8) -> bool {
                self.0 >> index & 1 != 0
            }

            /// The set with square `index` added.
            #[inline(always)]
            pub const fn with(self, index: u8) -> $name {
                $name(self.0 | 1 << index)
            }

            /// The set with square `index` removed.
            #[inline(always)]
            pub const fn without(self, index: u8) -> $name {
                $name(self.0 & !(1 << index))
            }

            /// Adds square `index`.
            #[inline(always)]
            pub fn insert(&mut self, index: u8) {
                self.0 |= 1 << index;
            }

            /// Removes square `index`.
            #[inline(always)]
            pub fn remove(&mut self, index: u8) {
                self.0 &= !(1 << index);
            }

            /// Whether the set is empty.
            #[inline(always)]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            /// Whether the set has at least one square.
            #[inline(always)]
            pub const fn any(self) -> bool {
                self.0 != 0
            }

            /// The number of squares in the set.
            #[inline(always)]
            pub const fn count(self) -> u32 {
                self.0.count_ones()
            }

            /// Whether the two sets share a square.
            #[inline(always)]
            pub const fn intersects(self, other: $name) -> bool {
                self.0 & other.0 != 0
            }

            /// Whether every square of `self` is in `other`.
            #[inline(always)]
            pub const fn is_subset(self, other: $name) -> bool {
                self.0 & !other.0 == 0
            }

            /// The lowest square, if any.
            #[inline(always)]
            pub const fn first(self) -> Option<u8> {
                if self.0 == 0 {
                    None
                } else {
                    Some(self.0.trailing_zeros() as u8)
                }
            }

            /// Removes and returns the lowest square, if any.
            #[inline(always)]
            pub fn pop_first(&mut self) -> Option<u8> {
                let first = self.first();
                self.0 &= self.0.wrapping_sub(1);
                first
            }

            /// Moves every square one step in `dir` on `geometry`; squares
            /// leaving the board vanish (no wrapping between edges).
            #[inline(always)]
            pub const fn shift(self, dir: Direction, geometry: &Geometry) -> $name {
                $name(geometry.shift(self.0 as u64, dir) as $int)
            }

            /// The orthogonal neighbours of every square of the set.
            #[inline(always)]
            pub const fn neighbours(self, geometry: &Geometry) -> $name {
                $name(geometry.neighbours(self.0 as u64) as $int)
            }

            /// The squares of the set, lowest first.
            #[inline(always)]
            pub const fn iter(self) -> $iter {
                $iter(self.0)
            }

            /// A value that draws the set as a grid on `geometry` (top rank
            /// first, `x` for a member, `.` otherwise).
            pub fn display(self, geometry: Geometry) -> impl fmt::Display {
                Grid { bits: self.0 as u64, geometry }
            }
        }

        /// Iterator over the squares of a set, lowest first.
        #[derive(Clone, Debug)]
        pub struct $iter($int);

        impl Iterator for $iter {
            type Item = u8;
            #[inline(always)]
            fn next(&mut self) -> Option<u8> {
                if self.0 == 0 {
                    None
                } else {
                    let sq = self.0.trailing_zeros() as u8;
                    self.0 &= self.0 - 1;
                    Some(sq)
                }
            }
            fn size_hint(&self) -> (usize, Option<usize>) {
                let n = self.0.count_ones() as usize;
                (n, Some(n))
            }
        }

        impl ExactSizeIterator for $iter {}

        impl IntoIterator for $name {
            type Item = u8;
            type IntoIter = $iter;
            fn into_iter(self) -> $iter {
                self.iter()
            }
        }

        impl FromIterator<u8> for $name {
            fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> $name {
                let mut set = $name::EMPTY;
                for sq in iter {
                    set.insert(sq);
                }
                set
            }
        }

        impl BitAnd for $name {
            type Output = $name;
            #[inline(always)]
            fn bitand(self, rhs: $name) -> $name {
                $name(self.0 & rhs.0)
            }
        }
        impl BitOr for $name {
            type Output = $name;
            #[inline(always)]
            fn bitor(self, rhs: $name) -> $name {
                $name(self.0 | rhs.0)
            }
        }
        impl BitXor for $name {
            type Output = $name;
            #[inline(always)]
            fn bitxor(self, rhs: $name) -> $name {
                $name(self.0 ^ rhs.0)
            }
        }
        /// Set difference: the squares of `self` not in `rhs`.
        impl Sub for $name {
            type Output = $name;
            #[inline(always)]
            fn sub(self, rhs: $name) -> $name {
                $name(self.0 & !rhs.0)
            }
        }
        /// Complement within the integer (callers mask with their board).
        impl Not for $name {
            type Output = $name;
            #[inline(always)]
            fn not(self) -> $name {
                $name(!self.0)
            }
        }
        impl BitAndAssign for $name {
            #[inline(always)]
            fn bitand_assign(&mut self, rhs: $name) {
                self.0 &= rhs.0;
            }
        }
        impl BitOrAssign for $name {
            #[inline(always)]
            fn bitor_assign(&mut self, rhs: $name) {
                self.0 |= rhs.0;
            }
        }
        impl BitXorAssign for $name {
            #[inline(always)]
            fn bitxor_assign(&mut self, rhs: $name) {
                self.0 ^= rhs.0;
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({:#x})", stringify!($name), self.0)
            }
        }

        /// The square indices of the set, lowest first: `{0, 24}`. A set
        /// knows no board; [`display`]($name::display) draws it on one.
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("{")?;
                for (i, sq) in self.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{sq}")?;
                }
                f.write_str("}")
            }
        }
    };
}

bitboard!(
    /// A set of up to 64 squares, one bit per square index.
    /// [`Bitboard::display`] draws it on a board.
    ///
    /// ```
    /// use qi_games::base::{Bitboard, Direction};
    /// use qi_games::jungle::{self, Square};
    ///
    /// let sq = |t: &str| t.parse::<Square>().unwrap().index();
    /// let mut set = Bitboard::from_squares(&[sq("a1"), sq("g9")]);
    /// assert_eq!((set.count(), set.first()), (2, Some(sq("a1"))));
    /// set.insert(sq("d5"));
    /// assert!(set.contains(sq("d5")) && !set.contains(sq("d4")));
    /// assert_eq!(set.iter().collect::<Vec<_>>(), [0, 31, 62]);
    /// // Set algebra, and the board's features are sets too.
    /// assert!((set & jungle::WATER).is_empty());
    /// assert_eq!((set | Bitboard::from_square(1)) - set, Bitboard::from_square(1));
    /// // A step north of a1 is a2, on Jungle's 7 × 9 board.
    /// let north = Bitboard::from_square(sq("a1")).shift(Direction::North, &jungle::GEOMETRY);
    /// assert_eq!(north, Bitboard::from_square(sq("a2")));
    /// assert_eq!(set.pop_first(), Some(sq("a1")));
    /// assert_eq!(set.to_string(), "{31, 62}");
    /// ```
    Bitboard, Bits, u64
);

bitboard!(
    /// A set of up to 32 points, one bit per point index.
    /// [`Bitboard32::display`] draws it on a board.
    ///
    /// ```
    /// use qi_games::base::Bitboard32;
    /// use qi_games::five_tigers::{self, Point};
    ///
    /// let c3: Point = "c3".parse().unwrap();
    /// let around = five_tigers::neighbours(c3);
    /// assert_eq!(around.count(), 4);
    /// assert!(around.contains("b3".parse::<Point>().unwrap().index()));
    /// let drawn = Bitboard32::from_square(c3.index()).display(five_tigers::GEOMETRY).to_string();
    /// assert_eq!(drawn.lines().nth(2), Some(" 3 . . x . ."));
    /// ```
    Bitboard32, Bits32, u32
);

struct Grid {
    bits: u64,
    geometry: Geometry,
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.geometry;
        for rank in (0..g.height()).rev() {
            write!(f, "{:>2} ", rank + 1)?;
            for file in 0..g.width() {
                let sq = rank * g.width() + file;
                let mark = if self.bits >> sq & 1 != 0 { 'x' } else { '.' };
                if file > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{mark}")?;
            }
            writeln!(f)?;
        }
        f.write_str("   ")?;
        for file in 0..g.width() {
            if file > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}", (b'a' + file) as char)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn display_draws_the_grid() {
        let set = Bitboard32::from_squares(&[0, 24]);
        let text = set.display(Geometry::new(5, 5)).to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], " 5 . . . . x");
        assert_eq!(lines[4], " 1 x . . . .");
        assert_eq!(lines[5], "   a b c d e");
        let far = Bitboard::from_square(62).display(Geometry::new(7, 9));
        assert_eq!(far.to_string().lines().count(), 10);
        assert_eq!(set.to_string(), "{0, 24}");
        assert_eq!(Bitboard::EMPTY.to_string(), "{}");
    }

    proptest! {
        #[test]
        fn iteration_matches_bits(bits in any::<u64>()) {
            let bb = Bitboard(bits);
            let squares: Vec<u8> = bb.iter().collect();
            prop_assert_eq!(squares.len() as u32, bb.count());
            prop_assert_eq!(squares.iter().copied().collect::<Bitboard>(), bb);
            prop_assert!(squares.windows(2).all(|w| w[0] < w[1]));
            for sq in 0..64u8 {
                prop_assert_eq!(bb.contains(sq), squares.contains(&sq));
            }
        }

        #[test]
        fn set_algebra(a in any::<u32>(), b in any::<u32>()) {
            let (x, y) = (Bitboard32(a), Bitboard32(b));
            prop_assert_eq!((x - y) | (x & y), x);
            prop_assert_eq!((x ^ y).count(), (x | y).count() - (x & y).count());
            prop_assert_eq!(x.intersects(y), (x & y).any());
            prop_assert!((x & y).is_subset(x));
            let mut z = x;
            while let Some(sq) = z.pop_first() {
                prop_assert!(x.contains(sq));
                prop_assert!(!z.contains(sq));
            }
        }
    }
}
