//! Rectangular board geometry: how squares are numbered and which bits wrap.

use crate::coord::Coord;

/// One of the four orthogonal directions, seen from the first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards higher ranks.
    North,
    /// Towards lower ranks.
    South,
    /// Towards higher files.
    East,
    /// Towards lower files.
    West,
}

impl Direction {
    /// All four directions, in a fixed order.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::South,
        Direction::East,
        Direction::West,
    ];

    /// The opposite direction.
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::North => Direction::South,
            Direction::South => Direction::North,
            Direction::East => Direction::West,
            Direction::West => Direction::East,
        }
    }
}

/// A board of `width` files × `height` ranks whose square index is
/// `rank * width + file` (`a1` = 0). At most 64 squares.
///
/// All masks are computed by `const fn`, so a game can keep its geometry in a
/// `const` and every shift compiles down to a shift and an AND.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    width: u8,
    height: u8,
    all: u64,
    not_first_file: u64,
    not_last_file: u64,
}

impl Geometry {
    /// A geometry of `width` × `height` squares.
    ///
    /// # Panics
    /// At compile time (in a `const`) or run time if either side is 0, a side
    /// exceeds 26 files / 99 ranks, or the board has more than 64 squares.
    pub const fn new(width: u8, height: u8) -> Geometry {
        assert!(width > 0 && height > 0, "empty geometry");
        assert!(width <= 26 && height <= 99, "board too wide or too tall");
        let squares = width as u32 * height as u32;
        assert!(squares <= 64, "more than 64 squares");
        let all = if squares == 64 {
            u64::MAX
        } else {
            (1u64 << squares) - 1
        };
        let mut first_file = 0u64;
        let mut last_file = 0u64;
        let mut rank = 0;
        while rank < height as u32 {
            first_file |= 1u64 << (rank * width as u32);
            last_file |= 1u64 << (rank * width as u32 + width as u32 - 1);
            rank += 1;
        }
        Geometry {
            width,
            height,
            all,
            not_first_file: all & !first_file,
            not_last_file: all & !last_file,
        }
    }

    /// Number of files.
    pub const fn width(&self) -> u8 {
        self.width
    }

    /// Number of ranks.
    pub const fn height(&self) -> u8 {
        self.height
    }

    /// Number of squares.
    pub const fn squares(&self) -> u8 {
        self.width * self.height
    }

    /// The mask of every square of the board.
    pub const fn all(&self) -> u64 {
        self.all
    }

    /// The index of the square on `file`, `rank` (both 0-based), or `None`
    /// off the board.
    pub const fn index(&self, file: u8, rank: u8) -> Option<u8> {
        if file < self.width && rank < self.height {
            Some(rank * self.width + file)
        } else {
            None
        }
    }

    /// The file and rank of a square index.
    pub const fn coord(&self, index: u8) -> Coord {
        Coord::new(index % self.width, index / self.width)
    }

    /// The mask of one whole file (0-based).
    pub const fn file_mask(&self, file: u8) -> u64 {
        let mut mask = 0u64;
        let mut rank = 0;
        while rank < self.height {
            mask |= 1u64 << (rank * self.width + file);
            rank += 1;
        }
        mask
    }

    /// The mask of one whole rank (0-based).
    pub const fn rank_mask(&self, rank: u8) -> u64 {
        let row = (1u64 << self.width) - 1;
        row << (rank as u32 * self.width as u32)
    }

    /// Moves every square of `bits` one step in `dir`; squares that would
    /// leave the board (or wrap to the other edge) vanish.
    #[inline(always)]
    pub const fn shift(&self, bits: u64, dir: Direction) -> u64 {
        match dir {
            Direction::North => (bits << self.width) & self.all,
            Direction::South => bits >> self.width,
            Direction::East => (bits & self.not_last_file) << 1,
            Direction::West => (bits & self.not_first_file) >> 1,
        }
    }

    /// The union of the four orthogonal neighbours of every square of `bits`.
    #[inline(always)]
    pub const fn neighbours(&self, bits: u64) -> u64 {
        self.shift(bits, Direction::North)
            | self.shift(bits, Direction::South)
            | self.shift(bits, Direction::East)
            | self.shift(bits, Direction::West)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const JUNGLE: Geometry = Geometry::new(7, 9);
    const FIVE: Geometry = Geometry::new(5, 5);

    #[test]
    fn masks_cover_the_board() {
        assert_eq!(JUNGLE.all().count_ones(), 63);
        assert_eq!(FIVE.all().count_ones(), 25);
        assert_eq!(Geometry::new(8, 8).all(), u64::MAX);
    }

    #[test]
    fn shifts_never_wrap() {
        for geo in [JUNGLE, FIVE, Geometry::new(8, 8), Geometry::new(3, 2)] {
            for sq in 0..geo.squares() {
                let c = geo.coord(sq);
                let bit = 1u64 << sq;
                let expect = |df: i8, dr: i8| -> u64 {
                    let f = c.file as i8 + df;
                    let r = c.rank as i8 + dr;
                    if f < 0 || r < 0 {
                        return 0;
                    }
                    geo.index(f as u8, r as u8).map_or(0, |i| 1u64 << i)
                };
                assert_eq!(geo.shift(bit, Direction::North), expect(0, 1));
                assert_eq!(geo.shift(bit, Direction::South), expect(0, -1));
                assert_eq!(geo.shift(bit, Direction::East), expect(1, 0));
                assert_eq!(geo.shift(bit, Direction::West), expect(-1, 0));
            }
        }
    }

    #[test]
    fn file_and_rank_masks() {
        assert_eq!(JUNGLE.file_mask(0).count_ones(), 9);
        assert_eq!(JUNGLE.rank_mask(8).count_ones(), 7);
        assert_eq!(JUNGLE.rank_mask(0), 0b111_1111);
        assert_eq!(FIVE.file_mask(4) & 1, 0);
    }
}
