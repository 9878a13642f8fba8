//! The 8 symmetries of the square board (the dihedral group), which map
//! the set of formations onto itself and so preserve the rules.

use qi_core::{Bitboard32, Position, Side};

use crate::point::{Move, Point};
use crate::position::FiveTigers;
use crate::setup::{LastStep, Setup};

/// One of the 8 transforms of the square board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symmetry {
    /// No change.
    Identity = 0,
    /// A quarter turn anticlockwise (`a1` → `e1`).
    Rotate90 = 1,
    /// A half turn (`a1` → `e5`).
    Rotate180 = 2,
    /// A quarter turn clockwise (`a1` → `a5`).
    Rotate270 = 3,
    /// Files mirrored (`a1` ↔ `e1`).
    FlipFiles = 4,
    /// Ranks mirrored (`a1` ↔ `a5`).
    FlipRanks = 5,
    /// Mirrored in the a1–e5 diagonal (`a2` ↔ `b1`).
    Transpose = 6,
    /// Mirrored in the a5–e1 diagonal (`a1` ↔ `e5`, `a2` ↔ `d5`).
    AntiTranspose = 7,
}

const fn map(sym: u8, f: u8, r: u8) -> (u8, u8) {
    match sym {
        0 => (f, r),
        1 => (4 - r, f),
        2 => (4 - f, 4 - r),
        3 => (r, 4 - f),
        4 => (4 - f, r),
        5 => (f, 4 - r),
        6 => (r, f),
        _ => (4 - r, 4 - f),
    }
}

const fn build() -> [[u8; 25]; 8] {
    let mut t = [[0u8; 25]; 8];
    let mut s = 0;
    while s < 8 {
        let mut p = 0;
        while p < 25 {
            let (f, r) = map(s as u8, p as u8 % 5, p as u8 / 5);
            t[s][p] = r * 5 + f;
            p += 1;
        }
        s += 1;
    }
    t
}

const TABLE: [[u8; 25]; 8] = build();

impl Symmetry {
    /// All 8 transforms, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipFiles,
        Symmetry::FlipRanks,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The transform that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// The image of a point.
    #[inline(always)]
    pub const fn point(self, p: Point) -> Point {
        Point::from_index(TABLE[self as usize][p.index() as usize])
    }

    /// The image of a set of points (bits above 24 are dropped).
    pub fn bitboard(self, b: Bitboard32) -> Bitboard32 {
        Point::points_of(b).map(|p| self.point(p).index()).collect()
    }

    /// The image of a move.
    pub const fn apply_move(self, mv: Move) -> Move {
        match mv {
            Move::Place(p) => Move::Place(self.point(p)),
            Move::Remove(p) => Move::Remove(self.point(p)),
            Move::Step { from, to } => Move::Step {
                from: self.point(from),
                to: self.point(to),
            },
        }
    }

    /// The image of a setup (board and previous steps transformed;
    /// everything else kept).
    pub fn setup(self, setup: &Setup) -> Setup {
        let mut image = *setup;
        for p in Point::all() {
            image.board[usize::from(self.point(p).index())] = setup.piece_at(p);
        }
        image.last_steps = setup.last_steps.map(|l| {
            l.map(|l| LastStep {
                from: self.point(l.from),
                to: self.point(l.to),
            })
        });
        image
    }

    /// The image of a position (boards and previous steps transformed;
    /// everything else kept).
    pub fn position(self, pos: &FiveTigers) -> FiveTigers {
        // A symmetry maps formations onto formations and steps onto steps,
        // so the image of a position is as consistent as the position.
        FiveTigers::from_setup_unchecked(&self.setup(&pos.to_setup()), *pos.rules())
    }
}

impl FiveTigers {
    /// The 8 symmetric images of this position (see [`crate::Symmetry`]).
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules, Symmetry};
    ///
    /// let pt = |t: &str| -> qi_five_tigers::Point { t.parse().unwrap() };
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// pos.play("a1".parse().unwrap()).unwrap();
    /// let turned = pos.transformed(Symmetry::Rotate180);
    /// assert_eq!(turned.piece_at(pt("e5")), Some(Side::First));
    /// assert_eq!(turned.transformed(Symmetry::Rotate180), pos);
    /// ```
    pub fn transformed(&self, symmetry: crate::Symmetry) -> FiveTigers {
        symmetry.position(self)
    }

    /// The canonical representative of this position's symmetry class (the
    /// image with the smallest boards and previous steps), and the
    /// transform that produces it from `self`.
    pub fn canonical(&self) -> (FiveTigers, Symmetry) {
        let key = |p: &FiveTigers| {
            (
                p.pieces(Side::First).0,
                p.pieces(Side::Second).0,
                [p.last_step(Side::First), p.last_step(Side::Second)],
            )
        };
        Symmetry::ALL
            .into_iter()
            .map(|s| (s.position(self), s))
            .min_by(|a, b| key(&a.0).cmp(&key(&b.0)).then(a.1.cmp(&b.1)))
            .unwrap_or((*self, Symmetry::Identity))
    }

    /// The Zobrist key of the canonical form: equal for all 8 images of a
    /// position.
    pub fn canonical_hash(&self) -> u64 {
        self.canonical().0.zobrist()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formation::FORMATIONS;

    #[test]
    fn transforms_are_bijections_and_inverses() {
        for s in Symmetry::ALL {
            let image: Bitboard32 = Point::all().map(|p| s.point(p).index()).collect();
            assert_eq!(image.count(), 25);
            for p in Point::all() {
                assert_eq!(s.inverse().point(s.point(p)), p);
                for q in Point::all() {
                    assert_eq!(p.is_adjacent(q), s.point(p).is_adjacent(s.point(q)));
                }
            }
        }
        let p = |t: &str| t.parse::<Point>().unwrap();
        assert_eq!(Symmetry::Rotate90.point(p("a1")), p("e1"));
        assert_eq!(Symmetry::Rotate270.point(p("a1")), p("a5"));
        assert_eq!(Symmetry::Transpose.point(p("a2")), p("b1"));
        assert_eq!(Symmetry::AntiTranspose.point(p("a2")), p("d5"));
    }

    #[test]
    fn formations_map_onto_formations_of_the_same_kind() {
        for s in Symmetry::ALL {
            for f in &FORMATIONS {
                let image = s.bitboard(f.mask);
                assert!(
                    FORMATIONS
                        .iter()
                        .any(|g| g.mask == image && g.kind == f.kind),
                    "{s:?} maps a {:?} outside the table",
                    f.kind
                );
            }
        }
    }
}
