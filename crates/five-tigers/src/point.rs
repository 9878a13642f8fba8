//! Points of the 5 × 5 board and moves, with their text forms.

use std::fmt;
use std::str::FromStr;

use qi_core::{Bitboard32, Coord, Direction, Geometry, ParseCoordError};
use thiserror::Error;

/// The geometry of the board: 5 files × 5 ranks, index `rank * 5 + file`.
pub const GEOMETRY: Geometry = Geometry::new(5, 5);

/// The mask of all 25 points.
pub const ALL_POINTS: Bitboard32 = Bitboard32((1 << 25) - 1);

const fn build_neighbours() -> [Bitboard32; 25] {
    let mut out = [Bitboard32::EMPTY; 25];
    let mut p = 0;
    while p < 25 {
        out[p] = Bitboard32::from_square(p as u8).neighbours(&GEOMETRY);
        p += 1;
    }
    out
}

/// The orthogonal neighbours of each point, by [`Point::index`]: the
/// points a piece there can step to on an empty board.
pub const NEIGHBOURS: [Bitboard32; 25] = build_neighbours();

/// The orthogonal neighbours of `point` (see [`NEIGHBOURS`]).
#[inline(always)]
pub const fn neighbours(point: Point) -> Bitboard32 {
    NEIGHBOURS[point.index() as usize]
}

/// The empty points the pieces `own` can step to, by direction (north,
/// south, east, west: the order of [`Direction::ALL`]); a target's piece
/// stands one point the opposite way. Ignores the shuttle rule.
#[inline(always)]
pub fn step_targets(own: Bitboard32, empty: Bitboard32) -> [Bitboard32; 4] {
    [
        own.shift(Direction::North, &GEOMETRY) & empty,
        own.shift(Direction::South, &GEOMETRY) & empty,
        own.shift(Direction::East, &GEOMETRY) & empty,
        own.shift(Direction::West, &GEOMETRY) & empty,
    ]
}

/// The number of steps (piece, target) of the pieces `own` into the empty
/// points `empty`: the sum of [`step_targets`]' counts, so the number of
/// legal steps of the movement phase before the shuttle rule.
#[inline(always)]
pub fn step_count(own: Bitboard32, empty: Bitboard32) -> u32 {
    let t = step_targets(own, empty);
    t[0].count() + t[1].count() + t[2].count() + t[3].count()
}

/// One of the 25 points (intersections), index `rank * 5 + file`
/// (`a1` = 0, `e5` = 24). Written `a1`..`e5`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

impl Point {
    /// The point of index `index`, or `None` when `index` ≥ 25.
    pub const fn new(index: u8) -> Option<Point> {
        if index < 25 {
            Some(Point(index))
        } else {
            None
        }
    }

    /// A point from an index known to be below 25 (crate-internal).
    #[inline(always)]
    pub(crate) const fn from_index(index: u8) -> Point {
        Point(index)
    }

    /// The point on 0-based `file` (`a` = 0) and `rank` (`1` = 0), if on the
    /// board.
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Point> {
        if file < 5 && rank < 5 {
            Some(Point(rank * 5 + file))
        } else {
            None
        }
    }

    /// The index `rank * 5 + file`, 0..25.
    #[inline(always)]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The 0-based file (`a` = 0).
    pub const fn file(self) -> u8 {
        self.0 % 5
    }

    /// The 0-based rank (`1` = 0).
    pub const fn rank(self) -> u8 {
        self.0 / 5
    }

    /// The one-point set of this point.
    #[inline(always)]
    pub const fn bit(self) -> Bitboard32 {
        Bitboard32(1 << self.0)
    }

    /// The file and rank as a [`Coord`].
    pub const fn coord(self) -> Coord {
        Coord::new(self.file(), self.rank())
    }

    /// Whether `other` is one step away horizontally or vertically.
    pub const fn is_adjacent(self, other: Point) -> bool {
        let (f1, r1, f2, r2) = (self.file(), self.rank(), other.file(), other.rank());
        (f1 == f2 && r1.abs_diff(r2) == 1) || (r1 == r2 && f1.abs_diff(f2) == 1)
    }

    /// All 25 points, `a1` first.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..25).map(Point)
    }

    /// The points of a set, lowest index first (indices ≥ 25 are skipped).
    pub fn points_of(set: Bitboard32) -> impl Iterator<Item = Point> {
        (set & ALL_POINTS).iter().map(Point)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Point({self})")
    }
}

impl FromStr for Point {
    type Err = ParseCoordError;
    fn from_str(s: &str) -> Result<Point, ParseCoordError> {
        let c = Coord::parse(s, &GEOMETRY)?;
        Ok(Point(c.rank * 5 + c.file))
    }
}

/// A move: a placement `c3`, a step `c3-c4` or a removal `xb2`.
///
/// A removal is written the same whether the side owed the removal takes an
/// enemy piece or the enemy gives up one of its own (section 4 of the rules).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Move {
    /// Place a piece from hand on an empty point.
    Place(Point),
    /// Step a piece to an adjacent empty point.
    Step {
        /// The point left.
        from: Point,
        /// The point entered.
        to: Point,
    },
    /// Remove the piece on a point.
    Remove(Point),
}

impl Move {
    /// The point a piece arrives on or leaves the board from: the placement
    /// point, the step's destination or the removed point.
    pub const fn target(self) -> Point {
        match self {
            Move::Place(p) | Move::Remove(p) => p,
            Move::Step { to, .. } => to,
        }
    }

    /// Whether this is a removal.
    pub const fn is_removal(self) -> bool {
        matches!(self, Move::Remove(_))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(p) => write!(f, "{p}"),
            Move::Step { from, to } => write!(f, "{from}-{to}"),
            Move::Remove(p) => write!(f, "x{p}"),
        }
    }
}

/// Why a move text such as `c3`, `c3-c4` or `xb2` could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseMoveError {
    /// The text was empty.
    #[error("empty move")]
    Empty,
    /// A point of the move is malformed.
    #[error("bad point in move: {0}")]
    Point(#[from] ParseCoordError),
    /// A step between two points that are not adjacent.
    #[error("{}", not_adjacent(*.from, *.to))]
    NotAdjacent {
        /// The point left.
        from: Point,
        /// The point entered.
        to: Point,
    },
}

/// The one wording of a step between points that are not adjacent: in a
/// move, a previous step of the position text, a setup.
pub(crate) fn not_adjacent(from: Point, to: Point) -> String {
    format!("{from}-{to} is not a step to an adjacent point")
}

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        if s.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        if let Some(rest) = s.strip_prefix('x') {
            return Ok(Move::Remove(rest.parse()?));
        }
        if let Some((a, b)) = s.split_once('-') {
            let from: Point = a.parse()?;
            let to: Point = b.parse()?;
            if !from.is_adjacent(to) {
                return Err(ParseMoveError::NotAdjacent { from, to });
            }
            return Ok(Move::Step { from, to });
        }
        Ok(Move::Place(s.parse()?))
    }
}

// Serialized as text (`"c3"`, `"c3-c4"`, `"xb2"`): the form game records and
// the engine protocol already use.
#[cfg(feature = "serde")]
qi_core::serde_via_text!(Point, Move);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_text_round_trips() {
        for p in Point::all() {
            assert_eq!(p.to_string().parse::<Point>(), Ok(p));
            assert_eq!(Point::from_file_rank(p.file(), p.rank()), Some(p));
        }
        assert_eq!("a1".parse::<Point>().unwrap().index(), 0);
        assert_eq!("e5".parse::<Point>().unwrap().index(), 24);
        assert_eq!("c3".parse::<Point>().unwrap().index(), 12);
        assert!("f1".parse::<Point>().is_err());
        assert!("a6".parse::<Point>().is_err());
        assert_eq!(Point::new(25), None);
    }

    #[test]
    fn move_text_round_trips() {
        for text in ["c3", "c3-c4", "xb2", "a1-b1", "xe5"] {
            assert_eq!(text.parse::<Move>().unwrap().to_string(), text);
        }
        assert_eq!("".parse::<Move>(), Err(ParseMoveError::Empty));
        assert!(matches!(
            "a1-c1".parse::<Move>(),
            Err(ParseMoveError::NotAdjacent { .. })
        ));
        assert!(matches!(
            "a1-b2".parse::<Move>(),
            Err(ParseMoveError::NotAdjacent { .. })
        ));
        assert!(matches!("x".parse::<Move>(), Err(ParseMoveError::Point(_))));
        assert!(matches!(
            "c3-".parse::<Move>(),
            Err(ParseMoveError::Point(_))
        ));
        assert!(matches!(
            "X3".parse::<Move>(),
            Err(ParseMoveError::Point(_))
        ));
    }

    #[test]
    fn neighbours_are_the_adjacent_points() {
        for p in Point::all() {
            let expect: Bitboard32 = Point::all()
                .filter(|&q| p.is_adjacent(q))
                .map(|q| q.index())
                .collect();
            assert_eq!(neighbours(p), expect, "{p}");
            assert_eq!(step_count(p.bit(), ALL_POINTS - p.bit()), expect.count());
            assert_eq!(step_count(p.bit(), expect), expect.count());
            assert_eq!(step_count(p.bit(), ALL_POINTS - expect), 0);
        }
        let t = step_targets("c3".parse::<Point>().unwrap().bit(), ALL_POINTS);
        let names: Vec<String> = t
            .iter()
            .map(|b| Point::points_of(*b).map(|p| p.to_string()).collect())
            .collect();
        assert_eq!(names, ["c4", "c2", "d3", "b3"]);
    }

    #[test]
    fn adjacency() {
        let adj = |a: &str, b: &str| a.parse::<Point>().unwrap().is_adjacent(b.parse().unwrap());
        assert!(adj("a1", "a2"));
        assert!(adj("a1", "b1"));
        assert!(!adj("a1", "b2"));
        assert!(!adj("e1", "a2"));
        assert!(!adj("c3", "c3"));
    }
}
