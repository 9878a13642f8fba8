//! Points of the 5 × 5 board and moves, with their text forms.

use std::fmt;
use std::str::FromStr;

use qi_core::{Bitboard32, Coord, Direction, Geometry, ParseCoordError};
use thiserror::Error;

/// The geometry of the board: 5 files × 5 ranks, index `rank * 5 + file`.
///
/// ```
/// use qi_five_tigers::GEOMETRY;
///
/// assert_eq!((GEOMETRY.width(), GEOMETRY.height()), (5, 5));
/// assert_eq!(GEOMETRY.squares(), 25);
/// ```
pub const GEOMETRY: Geometry = Geometry::new(5, 5);

/// The mask of all 25 points.
///
/// ```
/// use qi_five_tigers::{Point, ALL_POINTS};
///
/// assert_eq!(ALL_POINTS.count(), 25);
/// assert!(Point::all().all(|p| ALL_POINTS.contains(p.index())));
/// ```
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
///
/// ```
/// use qi_five_tigers::NEIGHBOURS;
///
/// assert_eq!(NEIGHBOURS[0].count(), 2); // a1, a corner
/// assert_eq!(NEIGHBOURS[12].count(), 4); // c3, the centre
/// ```
pub const NEIGHBOURS: [Bitboard32; 25] = build_neighbours();

/// The orthogonal neighbours of `point` (see [`NEIGHBOURS`]).
///
/// ```
/// use qi_five_tigers::{neighbours, Point};
///
/// let names = |p: &str| -> Vec<String> {
///     Point::points_of(neighbours(p.parse().unwrap())).map(|q| q.to_string()).collect()
/// };
/// assert_eq!(names("a1"), ["b1", "a2"]);
/// assert_eq!(names("c3"), ["c2", "b3", "d3", "c4"]);
/// ```
#[inline(always)]
pub const fn neighbours(point: Point) -> Bitboard32 {
    NEIGHBOURS[point.index() as usize]
}

/// The empty points the pieces `own` can step to, by direction (north,
/// south, east, west: the order of [`Direction::ALL`]); a target's piece
/// stands one point the opposite way. Ignores the shuttle rule.
///
/// ```
/// use qi_core::Side;
/// use qi_five_tigers::{step_targets, FiveTigers, Point, Rules};
///
/// let pos = FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", Rules::shandong()).unwrap();
/// let targets = step_targets(pos.pieces(Side::Second), pos.empty());
/// let names: Vec<String> = targets.iter().flat_map(|t| Point::points_of(*t)).map(|p| p.to_string()).collect();
/// assert_eq!(names, ["c4", "c2", "d3", "b3"]); // north, south, east, west
/// ```
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
///
/// ```
/// use qi_core::{Position, Side};
/// use qi_five_tigers::{step_count, FiveTigers, Rules};
///
/// let pos = FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", Rules::shandong()).unwrap();
/// assert_eq!(step_count(pos.pieces(Side::Second), pos.empty()), 4);
/// assert_eq!(step_count(pos.pieces(Side::First), pos.empty()), 2);
/// assert_eq!(pos.count_moves(), 4);
/// ```
#[inline(always)]
pub fn step_count(own: Bitboard32, empty: Bitboard32) -> u32 {
    let t = step_targets(own, empty);
    t[0].count() + t[1].count() + t[2].count() + t[3].count()
}

/// One of the 25 points (intersections), index `rank * 5 + file`
/// (`a1` = 0, `e5` = 24). Written `a1`..`e5`.
///
/// ```
/// use qi_five_tigers::Point;
///
/// let p: Point = "c3".parse().unwrap();
/// assert_eq!((p.index(), p.to_string()), (12, "c3".to_string()));
/// assert!("f1".parse::<Point>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

impl Point {
    /// The point of index `index`, or `None` when `index` ≥ 25.
    ///
    /// ```
    /// use qi_five_tigers::Point;
    ///
    /// assert_eq!(Point::new(0).unwrap().to_string(), "a1");
    /// assert_eq!(Point::new(24).unwrap().to_string(), "e5");
    /// assert_eq!(Point::new(25), None);
    /// ```
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
    ///
    /// ```
    /// use qi_five_tigers::Point;
    ///
    /// assert_eq!(Point::from_file_rank(2, 3).unwrap().to_string(), "c4");
    /// assert_eq!(Point::from_file_rank(5, 0), None);
    /// ```
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Point> {
        if file < 5 && rank < 5 {
            Some(Point(rank * 5 + file))
        } else {
            None
        }
    }

    /// The index `rank * 5 + file`, 0..25.
    ///
    /// ```
    /// use qi_five_tigers::Point;
    ///
    /// assert_eq!("a1".parse::<Point>().unwrap().index(), 0);
    /// assert_eq!("b2".parse::<Point>().unwrap().index(), 6);
    /// ```
    #[inline(always)]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The 0-based file (`a` = 0).
    ///
    /// ```
    /// use qi_five_tigers::Point;
    ///
    /// assert_eq!("d2".parse::<Point>().unwrap().file(), 3);
    /// ```
    pub const fn file(self) -> u8 {
        self.0 % 5
    }

    /// The 0-based rank (`1` = 0).
    ///
    /// ```
    /// use qi_five_tigers::Point;
    ///
    /// assert_eq!("d2".parse::<Point>().unwrap().rank(), 1);
    /// ```
    pub const fn rank(self) -> u8 {
        self.0 / 5
    }

    /// The one-point set of this point.
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_five_tigers::{FiveTigers, Point, Rules};
    ///
    /// let a1: Point = "a1".parse().unwrap();
    /// assert_eq!(a1.bit().count(), 1);
    /// let pos = FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", Rules::shandong()).unwrap();
    /// assert_eq!(pos.pieces(Side::First), a1.bit());
    /// ```
    #[inline(always)]
    pub const fn bit(self) -> Bitboard32 {
        Bitboard32(1 << self.0)
    }

    /// The file and rank as a [`Coord`].
    ///
    /// ```
    /// use qi_five_tigers::Point;
    ///
    /// let c = "d2".parse::<Point>().unwrap().coord();
    /// assert_eq!((c.file, c.rank), (3, 1));
    /// ```
    pub const fn coord(self) -> Coord {
        Coord::new(self.file(), self.rank())
    }

    /// Whether `other` is one step away horizontally or vertically.
    ///
    /// ```
    /// use qi_five_tigers::Point;
    ///
    /// let pt = |t: &str| t.parse::<Point>().unwrap();
    /// assert!(pt("c3").is_adjacent(pt("c4")));
    /// assert!(!pt("c3").is_adjacent(pt("d4"))); // diagonal
    /// assert!(!pt("e1").is_adjacent(pt("a2")));
    /// ```
    pub const fn is_adjacent(self, other: Point) -> bool {
        let (f1, r1, f2, r2) = (self.file(), self.rank(), other.file(), other.rank());
        (f1 == f2 && r1.abs_diff(r2) == 1) || (r1 == r2 && f1.abs_diff(f2) == 1)
    }

    /// All 25 points, `a1` first.
    ///
    /// ```
    /// use qi_five_tigers::Point;
    ///
    /// assert_eq!(Point::all().count(), 25);
    /// assert_eq!(Point::all().last().unwrap().to_string(), "e5");
    /// ```
    pub fn all() -> impl Iterator<Item = Point> {
        (0..25).map(Point)
    }

    /// The points of a set, lowest index first (indices ≥ 25 are skipped).
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_five_tigers::{FiveTigers, Point, Rules};
    ///
    /// let pos = FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", Rules::shandong()).unwrap();
    /// let empty: Vec<Point> = Point::points_of(pos.empty()).collect();
    /// assert_eq!(empty.len(), 23);
    /// assert_eq!(Point::points_of(pos.pieces(Side::Second)).next(), "c3".parse().ok());
    /// ```
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
///
/// ```
/// use qi_five_tigers::{Move, Point};
///
/// let pt = |t: &str| t.parse::<Point>().unwrap();
/// assert_eq!("c3".parse::<Move>(), Ok(Move::Place(pt("c3"))));
/// assert_eq!("c3-c4".parse::<Move>(), Ok(Move::Step { from: pt("c3"), to: pt("c4") }));
/// assert_eq!(Move::Remove(pt("b2")).to_string(), "xb2");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
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
    ///
    /// ```
    /// use qi_five_tigers::Move;
    ///
    /// let target = |m: &str| m.parse::<Move>().unwrap().target().to_string();
    /// assert_eq!(target("c3"), "c3");
    /// assert_eq!(target("c3-c4"), "c4");
    /// assert_eq!(target("xb2"), "b2");
    /// ```
    pub const fn target(self) -> Point {
        match self {
            Move::Place(p) | Move::Remove(p) => p,
            Move::Step { to, .. } => to,
        }
    }

    /// Whether this is a removal.
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// for mv in ["a1", "e5", "b1", "e4", "a2", "d5", "b2"] {
    ///     pos.play(mv.parse().unwrap()).unwrap();
    /// }
    /// // First's small square is made: it must remove before anything else.
    /// assert!(pos.legal_moves().iter().all(|m| m.is_removal()));
    /// ```
    pub const fn is_removal(self) -> bool {
        matches!(self, Move::Remove(_))
    }
}

/// `Move(c3-c4)`: the move's text.
///
/// ```
/// let mv: qi_five_tigers::Move = "c3-c4".parse().unwrap();
/// assert_eq!(format!("{mv:?}"), "Move(c3-c4)");
/// ```
impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
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
///
/// ```
/// use qi_five_tigers::{Move, ParseMoveError};
///
/// assert_eq!("".parse::<Move>(), Err(ParseMoveError::Empty));
/// assert!(matches!("a1-b2".parse::<Move>(), Err(ParseMoveError::NotAdjacent { .. })));
/// assert!(matches!("f1".parse::<Move>(), Err(ParseMoveError::Point(_))));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "code", content = "fields")
)]
pub enum ParseMoveError {
    /// The text was empty.
    #[error("empty move")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-move.empty"))]
    Empty,
    /// A point of the move is malformed.
    #[error("bad point in move: {0}")]
    #[cfg_attr(feature = "serde", serde(rename = "ft-move.point"))]
    Point(#[from] ParseCoordError),
    /// A step between two points that are not adjacent.
    #[error("{}", not_adjacent(*.from, *.to))]
    #[cfg_attr(feature = "serde", serde(rename = "ft-move.not-adjacent"))]
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
