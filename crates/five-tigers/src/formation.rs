//! The 36 formations (阵型) of section 2 and the per-point lookup tables
//! that make "did this move form a formation?" a few mask tests.

use qi_core::Bitboard32;

use crate::point::Point;
use crate::rules::Rules;

/// The five kinds of formation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum FormationKind {
    /// 小斗: the 4 corners of one unit cell (16 on the board), value 1.
    SmallSquare = 0,
    /// 三斜: 3 points of a short diagonal from edge to edge (4), value 2.
    ThreeDiagonal = 1,
    /// 四斜: 4 points of a diagonal from edge to edge (4), value 3 or 4.
    FourDiagonal = 2,
    /// 五虎: a whole rank or file (10), value 4 or 5.
    FiveTigers = 3,
    /// 通天: a whole main diagonal (2), value 5.
    ThroughHeaven = 4,
}

impl FormationKind {
    /// All kinds, smallest value first.
    pub const ALL: [FormationKind; 5] = [
        FormationKind::SmallSquare,
        FormationKind::ThreeDiagonal,
        FormationKind::FourDiagonal,
        FormationKind::FiveTigers,
        FormationKind::ThroughHeaven,
    ];

    /// The removals this kind earns under `rules`.
    #[inline(always)]
    pub const fn value(self, rules: &Rules) -> u8 {
        rules.values()[self as usize]
    }

    /// The number of points of a formation of this kind.
    pub const fn size(self) -> u32 {
        match self {
            FormationKind::SmallSquare | FormationKind::FourDiagonal => 4,
            FormationKind::ThreeDiagonal => 3,
            FormationKind::FiveTigers | FormationKind::ThroughHeaven => 5,
        }
    }

    /// The English name.
    pub const fn name(self) -> &'static str {
        match self {
            FormationKind::SmallSquare => "small square",
            FormationKind::ThreeDiagonal => "three-diagonal",
            FormationKind::FourDiagonal => "four-diagonal",
            FormationKind::FiveTigers => "five tigers",
            FormationKind::ThroughHeaven => "through-heaven",
        }
    }
}

/// One formation: its kind and the set of its points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Formation {
    /// The kind.
    pub kind: FormationKind,
    /// The points.
    pub mask: Bitboard32,
}

impl Formation {
    /// The removals this formation earns under `rules`.
    pub const fn value(&self, rules: &Rules) -> u8 {
        self.kind.value(rules)
    }

    /// Whether `pieces` stand on all of this formation's points.
    #[inline(always)]
    pub const fn is_held_by(&self, pieces: Bitboard32) -> bool {
        self.mask.0 & !pieces.0 == 0
    }

    /// The points, lowest index first.
    pub fn points(&self) -> impl Iterator<Item = Point> {
        Point::points_of(self.mask)
    }
}

const fn pt(file: u8, rank: u8) -> u32 {
    1 << (rank * 5 + file)
}

const fn line(points: &[(u8, u8)]) -> u32 {
    let mut m = 0;
    let mut i = 0;
    while i < points.len() {
        m |= pt(points[i].0, points[i].1);
        i += 1;
    }
    m
}

const fn build() -> [Formation; 36] {
    let mut out = [Formation {
        kind: FormationKind::SmallSquare,
        mask: Bitboard32(0),
    }; 36];
    let mut n = 0;
    // 16 small squares, by lower-left corner a1, b1, .. d4.
    let mut rank = 0;
    while rank < 4 {
        let mut file = 0;
        while file < 4 {
            out[n] = Formation {
                kind: FormationKind::SmallSquare,
                mask: Bitboard32(
                    pt(file, rank)
                        | pt(file + 1, rank)
                        | pt(file, rank + 1)
                        | pt(file + 1, rank + 1),
                ),
            };
            n += 1;
            file += 1;
        }
        rank += 1;
    }
    // 4 three-diagonals: a3-b2-c1, c1-d2-e3, a3-b4-c5, c5-d4-e3.
    let threes = [
        line(&[(0, 2), (1, 1), (2, 0)]),
        line(&[(2, 0), (3, 1), (4, 2)]),
        line(&[(0, 2), (1, 3), (2, 4)]),
        line(&[(2, 4), (3, 3), (4, 2)]),
    ];
    let mut i = 0;
    while i < 4 {
        out[n] = Formation {
            kind: FormationKind::ThreeDiagonal,
            mask: Bitboard32(threes[i]),
        };
        n += 1;
        i += 1;
    }
    // 4 four-diagonals: a4-b3-c2-d1, b1-c2-d3-e4, a2-b3-c4-d5, b5-c4-d3-e2.
    let fours = [
        line(&[(0, 3), (1, 2), (2, 1), (3, 0)]),
        line(&[(1, 0), (2, 1), (3, 2), (4, 3)]),
        line(&[(0, 1), (1, 2), (2, 3), (3, 4)]),
        line(&[(1, 4), (2, 3), (3, 2), (4, 1)]),
    ];
    i = 0;
    while i < 4 {
        out[n] = Formation {
            kind: FormationKind::FourDiagonal,
            mask: Bitboard32(fours[i]),
        };
        n += 1;
        i += 1;
    }
    // 10 five-tigers: ranks 1..5, then files a..e.
    i = 0;
    while i < 5 {
        out[n] = Formation {
            kind: FormationKind::FiveTigers,
            mask: Bitboard32(0b11111 << (i * 5)),
        };
        n += 1;
        i += 1;
    }
    i = 0;
    while i < 5 {
        out[n] = Formation {
            kind: FormationKind::FiveTigers,
            mask: Bitboard32(0x0010_8421 << i),
        };
        n += 1;
        i += 1;
    }
    // 2 through-heavens: a1-e5, a5-e1.
    out[n] = Formation {
        kind: FormationKind::ThroughHeaven,
        mask: Bitboard32(line(&[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)])),
    };
    n += 1;
    out[n] = Formation {
        kind: FormationKind::ThroughHeaven,
        mask: Bitboard32(line(&[(0, 4), (1, 3), (2, 2), (3, 1), (4, 0)])),
    };
    n += 1;
    assert!(n == 36);
    out
}

/// All 36 formations: 16 small squares, 4 three-diagonals, 4
/// four-diagonals, 10 five-tigers (ranks 1–5, then files a–e) and 2
/// through-heavens (a1-e5, a5-e1).
pub const FORMATIONS: [Formation; 36] = build();

/// The most formations through one point.
pub const MAX_THROUGH: usize = 8;

/// The formations through one point, as masks and kinds (the first `len`
/// entries are used).
#[derive(Clone, Copy, Debug)]
pub struct Through {
    /// The formation masks.
    pub masks: [Bitboard32; MAX_THROUGH],
    /// Their kinds.
    pub kinds: [FormationKind; MAX_THROUGH],
    /// How many entries are used.
    pub len: u8,
}

impl Through {
    /// The masks of the formations through this point.
    pub fn masks(&self) -> &[Bitboard32] {
        &self.masks[..self.len as usize]
    }

    /// The number of formations through the point that `pieces` hold.
    #[inline(always)]
    pub fn count_held(&self, pieces: Bitboard32) -> u8 {
        let mut n = 0;
        let mut i = 0;
        while i < self.len as usize {
            n += (self.masks[i].0 & !pieces.0 == 0) as u8;
            i += 1;
        }
        n
    }

    /// The summed value (under `values`, see [`Rules::values`]) of the
    /// formations through the point that `pieces` hold.
    #[inline(always)]
    pub fn value_held(&self, pieces: Bitboard32, values: &[u8; 5]) -> u8 {
        let mut v: u8 = 0;
        let mut i = 0;
        while i < self.len as usize {
            if self.masks[i].0 & !pieces.0 == 0 {
                v = v.saturating_add(values[self.kinds[i] as usize]);
            }
            i += 1;
        }
        v
    }
}

const fn build_through() -> [Through; 25] {
    let mut out = [Through {
        masks: [Bitboard32(0); MAX_THROUGH],
        kinds: [FormationKind::SmallSquare; MAX_THROUGH],
        len: 0,
    }; 25];
    let mut p = 0;
    while p < 25 {
        let mut f = 0;
        while f < 36 {
            if FORMATIONS[f].mask.0 >> p & 1 != 0 {
                let len = out[p].len as usize;
                assert!(len < MAX_THROUGH);
                out[p].masks[len] = FORMATIONS[f].mask;
                out[p].kinds[len] = FORMATIONS[f].kind;
                out[p].len += 1;
            }
            f += 1;
        }
        p += 1;
    }
    out
}

/// For each point (by index), the formations through it.
pub const THROUGH: [Through; 25] = build_through();

/// A mask no set of points holds: bit 31 is off the 25-point board.
const NEVER_HELD: u32 = 1 << 31;

const fn build_padded() -> [[u32; MAX_THROUGH]; 25] {
    let mut out = [[NEVER_HELD; MAX_THROUGH]; 25];
    let mut p = 0;
    while p < 25 {
        let mut i = 0;
        while i < THROUGH[p].len as usize {
            out[p][i] = THROUGH[p].masks[i].0;
            i += 1;
        }
        p += 1;
    }
    out
}

/// [`THROUGH`]'s masks padded to [`MAX_THROUGH`] entries with a mask that is
/// never held, so the hot loops run a fixed count with no branch.
const THROUGH_PADDED: [[u32; MAX_THROUGH]; 25] = build_padded();

/// The number of formations through point index `p` (0..25) that `pieces`
/// hold: [`Through::count_held`] of `THROUGH[p]`, branch-free.
#[inline(always)]
pub(crate) fn count_held_at(p: usize, pieces: Bitboard32) -> u8 {
    let masks = &THROUGH_PADDED[p % 25];
    let mut n = 0;
    for &m in masks {
        n += (m & !pieces.0 == 0) as u8;
    }
    n
}

/// The formations through `point`.
#[inline(always)]
pub fn formations_through(point: Point) -> &'static Through {
    &THROUGH[point.index() as usize]
}

/// The formations `pieces` hold.
pub fn held_formations(pieces: Bitboard32) -> impl Iterator<Item = &'static Formation> {
    FORMATIONS.iter().filter(move |f| f.is_held_by(pieces))
}

/// The union of the formations `pieces` hold.
#[inline]
pub fn held_mask(pieces: Bitboard32) -> Bitboard32 {
    let mut m = 0;
    for f in &FORMATIONS {
        if f.mask.0 & !pieces.0 == 0 {
            m |= f.mask.0;
        }
    }
    Bitboard32(m)
}

/// The loose pieces (散子) of a side standing on `pieces`: those in no
/// formation it holds.
#[inline]
pub fn loose_pieces(pieces: Bitboard32) -> Bitboard32 {
    pieces - held_mask(pieces)
}

/// The sum of the values of every formation `pieces` hold (deferred
/// scoring), saturating at 255.
pub fn score(pieces: Bitboard32, rules: &Rules) -> u8 {
    held_formations(pieces).fold(0u8, |s, f| s.saturating_add(f.value(rules)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_masks() {
        for f in &FORMATIONS {
            assert_eq!(f.mask.count(), f.kind.size(), "{:?}", f);
        }
    }

    #[test]
    fn masks_are_distinct() {
        for (i, a) in FORMATIONS.iter().enumerate() {
            for b in &FORMATIONS[i + 1..] {
                assert_ne!(a.mask, b.mask);
            }
        }
    }

    #[test]
    fn padded_counts_match_through() {
        // Every set of pieces on the points of the formations through a
        // point would be 2^(up to 17); sample the subsets of each point's
        // neighbourhood by a fixed pseudo-random walk instead.
        let mut x = 0x9E37_79B9u32;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let pieces = Bitboard32(x & 0x01FF_FFFF);
            for (p, through) in THROUGH.iter().enumerate() {
                assert_eq!(count_held_at(p, pieces), through.count_held(pieces));
            }
        }
    }

    #[test]
    fn through_tables_match_formations() {
        for p in Point::all() {
            let expect: Vec<Bitboard32> = FORMATIONS
                .iter()
                .filter(|f| f.mask.contains(p.index()))
                .map(|f| f.mask)
                .collect();
            assert_eq!(formations_through(p).masks(), &expect[..]);
        }
        // Centre: 4 squares, rank, file and both main diagonals.
        assert_eq!(formations_through("c3".parse().unwrap()).len, 8);
        assert_eq!(formations_through("a1".parse().unwrap()).len, 4);
    }
}
