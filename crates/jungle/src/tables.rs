//! The board's fixed features and the compile-time move tables, typed for
//! evaluations and tools.
//!
//! Everything here is a table lookup or a few bit operations on tables
//! built at compile time, and every function is a `const fn`, so callers
//! can build tables of their own from them at compile time (the engine's
//! den-distance tables are breadth-first searches over [`land_steps`],
//! [`rat_steps`] and [`jump_targets`]). Squares are [`Square`]s and sets
//! are [`Bitboard`]s; the move generator reads the raw `u64` tables behind
//! them directly.
//!
//! ```
//! use qi_core::{Bitboard, Direction, Side};
//! use qi_jungle::tables::{den_square, jump, jump_targets, steps};
//! use qi_jungle::{Jumps, Square};
//!
//! let sq = |s: &str| s.parse::<Square>().unwrap();
//! assert_eq!(steps(sq("a1")).count(), 2);
//! // b3 jumps north over b4 b5 b6 to b7.
//! let j = jump(sq("b3"), Direction::North).unwrap();
//! assert_eq!((j.to, j.path.count()), (sq("b7"), 3));
//! let b7 = Bitboard::from_square(sq("b7").index());
//! assert_eq!(jump_targets(sq("b3"), Jumps::Both, Bitboard::EMPTY), b7);
//! assert!(jump_targets(sq("b3"), Jumps::HorizontalOnly, Bitboard::EMPTY).is_empty());
//! // A Rat in the water blocks the jump.
//! let rat = Bitboard::from_square(sq("b5").index());
//! assert!(jump_targets(sq("b3"), Jumps::Both, rat).is_empty());
//! assert_eq!(den_square(Side::Second), sq("d9"));
//! ```

use qi_core::{Bitboard, Direction, Side};

use crate::board::{self, Square, GEOMETRY, NONE};
use crate::rules::Jumps;

// The raw masks are `crate::board`'s; these are their public, typed forms.

/// Every square of the board (bit 63 is never set).
pub const ALL: Bitboard = Bitboard(board::ALL);

/// The twelve water squares (b4–c6 and e4–f6).
pub const WATER: Bitboard = Bitboard(board::WATER);

/// Every land square.
pub const LAND: Bitboard = Bitboard(board::LAND);

/// The den of each side, indexed by [`Side::index`] (Red d1, Blue d9).
pub const DENS: [Bitboard; 2] = [Bitboard(board::DENS[0]), Bitboard(board::DENS[1])];

/// The traps owned by each side, indexed by [`Side::index`]
/// (Red c1 e1 d2, Blue c9 e9 d8). An enemy animal standing on them loses its
/// power against the owner's animals. They are the squares next to the
/// owner's den.
pub const TRAPS: [Bitboard; 2] = [Bitboard(board::TRAPS[0]), Bitboard(board::TRAPS[1])];

/// All six trap squares.
pub const ALL_TRAPS: Bitboard = Bitboard(board::ALL_TRAPS);

/// The den square of a side (Red d1, Blue d9).
///
/// ```
/// use qi_games::base::Side;
/// use qi_games::jungle::{den_square, Square};
///
/// assert_eq!(den_square(Side::First), "d1".parse::<Square>()?);
/// assert_eq!(den_square(Side::Second).to_string(), "d9");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const fn den_square(side: Side) -> Square {
    Square::from_index_unchecked(board::DEN_SQUARES[side.index()])
}

/// The orthogonal neighbours of `sq`.
///
/// ```
/// use qi_games::jungle::{tables::steps, Square};
///
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// assert_eq!(steps(sq("a1")).count(), 2); // a corner
/// assert_eq!(steps(sq("d5")).count(), 4);
/// assert!(steps(sq("d5")).contains(sq("c5").index()));
/// ```
#[inline(always)]
pub const fn steps(sq: Square) -> Bitboard {
    Bitboard(STEPS[sq.index() as usize])
}

/// The squares an animal of `side` other than the Rat may step to from
/// `sq` on an empty board: the neighbours, less water and `side`'s own den.
///
/// ```
/// use qi_games::base::Side;
/// use qi_games::jungle::{tables::land_steps, Square};
///
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// // From a4 the water of b4 is closed to all but the Rat.
/// assert_eq!(land_steps(Side::First, sq("a4")).count(), 2);
/// // Red may not step into its own den d1, Blue may.
/// assert!(!land_steps(Side::First, sq("d2")).contains(sq("d1").index()));
/// assert!(land_steps(Side::Second, sq("d2")).contains(sq("d1").index()));
/// ```
#[inline(always)]
pub const fn land_steps(side: Side, sq: Square) -> Bitboard {
    Bitboard(LAND_STEPS[side.index()][sq.index() as usize])
}

/// The squares a Rat of `side` may step to from `sq` on an empty board:
/// the neighbours, water included, less `side`'s own den.
///
/// ```
/// use qi_games::base::Side;
/// use qi_games::jungle::{tables::rat_steps, Square};
///
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// // The Rat swims: from a4 to a3, a5 and into b4.
/// assert_eq!(rat_steps(Side::First, sq("a4")).count(), 3);
/// assert!(rat_steps(Side::First, sq("a4")).contains(sq("b4").index()));
/// ```
#[inline(always)]
pub const fn rat_steps(side: Side, sq: Square) -> Bitboard {
    Bitboard(RAT_STEPS[side.index()][sq.index() as usize])
}

/// A river jump: where it lands, the water squares it passes over (a
/// Rat on any of them blocks it) and the whole river it crosses (where a
/// Rat blocks it under [`JumpBlockArea::River`](crate::JumpBlockArea)).
///
/// ```
/// use qi_games::base::Direction;
/// use qi_games::jungle::{tables::jump, Square};
///
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// // a5 jumps east over b5 and c5 to d5; the river is b4..c6.
/// let j = jump(sq("a5"), Direction::East).unwrap();
/// assert_eq!(j.to, sq("d5"));
/// assert_eq!(j.path.count(), 2);
/// assert_eq!(j.river.count(), 6);
/// assert!(j.river.contains(sq("b4").index()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Jump {
    /// The landing square, on the far bank.
    pub to: Square,
    /// The water squares passed over.
    pub path: Bitboard,
    /// The six water squares of the river crossed.
    pub river: Bitboard,
}

/// The river jump from `sq` in direction `dir`, if the water starts next to
/// `sq` that way (whatever the rules allow; see [`jump_targets`]).
///
/// ```
/// use qi_games::base::Direction;
/// use qi_games::jungle::{tables::jump, Square};
///
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// assert_eq!(jump(sq("c3"), Direction::North).map(|j| j.to), Some(sq("c7")));
/// assert!(jump(sq("c3"), Direction::South).is_none()); // no water that way
/// ```
pub const fn jump(sq: Square, dir: Direction) -> Option<Jump> {
    let j = JUMPS[sq.index() as usize][direction_index(dir)];
    if j.to == NONE {
        None
    } else {
        Some(Jump {
            to: Square::from_index_unchecked(j.to),
            path: Bitboard(j.path),
            river: Bitboard(river_of(j.path)),
        })
    }
}

/// The landing squares of the river jumps from `sq` in the directions
/// `jumps` allows whose path holds no square of `blockers` (pass the
/// squares of the Rats that block under the rules in force, or
/// [`Bitboard::EMPTY`] for an empty river).
///
/// ```
/// use qi_games::base::Bitboard;
/// use qi_games::jungle::{tables::jump_targets, Jumps, Square};
///
/// let sq = |s: &str| s.parse::<Square>().unwrap();
/// // From d5 over both rivers, to a5 and g5.
/// let targets = jump_targets(sq("d5"), Jumps::Both, Bitboard::EMPTY);
/// assert_eq!(targets.count(), 2);
/// assert!(jump_targets(sq("d5"), Jumps::VerticalOnly, Bitboard::EMPTY).is_empty());
/// // A Rat on e5 blocks the jump to g5.
/// let rat = Bitboard::from_square(sq("e5").index());
/// assert_eq!(jump_targets(sq("d5"), Jumps::Both, rat).count(), 1);
/// ```
pub const fn jump_targets(sq: Square, jumps: Jumps, blockers: Bitboard) -> Bitboard {
    let dirs = jumps.direction_mask();
    let from = sq.index() as usize;
    let mut targets = 0u64;
    let mut d = 0;
    while d < 4 {
        let j = JUMPS[from][d];
        if dirs >> d & 1 != 0 && j.to != NONE && j.path & blockers.0 == 0 {
            targets |= 1u64 << j.to;
        }
        d += 1;
    }
    Bitboard(targets)
}

/// The index of `dir` in [`DIRS`] (and in [`Jumps`]' direction masks).
const fn direction_index(dir: Direction) -> usize {
    match dir {
        Direction::North => 0,
        Direction::South => 1,
        Direction::East => 2,
        Direction::West => 3,
    }
}

const fn build_steps() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 63 {
        t[sq] = GEOMETRY.neighbours(1u64 << sq);
        sq += 1;
    }
    t
}

/// The orthogonal neighbours of each square (entry 63: none).
pub(crate) const STEPS: [u64; 64] = build_steps();

const fn build_land_steps(side: usize) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 63 {
        t[sq] = STEPS[sq] & board::LAND & !board::DENS[side];
        sq += 1;
    }
    t
}

const fn build_rat_steps(side: usize) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 63 {
        t[sq] = STEPS[sq] & !board::DENS[side];
        sq += 1;
    }
    t
}

/// Steps of a land animal of each side: neighbours minus water minus the
/// side's own den.
pub(crate) const LAND_STEPS: [[u64; 64]; 2] = [build_land_steps(0), build_land_steps(1)];

/// Steps of a Rat of each side: neighbours minus the side's own den.
pub(crate) const RAT_STEPS: [[u64; 64]; 2] = [build_rat_steps(0), build_rat_steps(1)];

const DIRS: [Direction; 4] = [
    Direction::North,
    Direction::South,
    Direction::East,
    Direction::West,
];

/// One river jump as the tables store it: landing square index and the
/// water squares passed over ([`Jump`] is its public form).
#[derive(Clone, Copy)]
pub(crate) struct JumpBits {
    pub to: u8,
    pub path: u64,
}

/// The files a to c: the left river lies in them, the right one beyond.
const LEFT_FILES: u64 = {
    let mut m = 0u64;
    let mut sq = 0;
    while sq < 63 {
        if sq % 7 < 3 {
            m |= 1u64 << sq;
        }
        sq += 1;
    }
    m
};

/// The left river (files b and c).
const LEFT_RIVER: u64 = board::WATER & LEFT_FILES;
/// The right river (files e and f).
const RIGHT_RIVER: u64 = board::WATER & !LEFT_FILES;

/// The whole river (six water squares) holding the water squares `path`.
const fn river_of(path: u64) -> u64 {
    if path & LEFT_FILES != 0 {
        LEFT_RIVER
    } else {
        RIGHT_RIVER
    }
}

const fn build_jumps() -> [[JumpBits; 4]; 64] {
    let none = JumpBits { to: NONE, path: 0 };
    let mut t = [[none; 4]; 64];
    let mut sq = 0;
    while sq < 63 {
        if board::LAND >> sq & 1 != 0 {
            let mut d = 0;
            while d < 4 {
                let mut cur = GEOMETRY.shift(1u64 << sq, DIRS[d]);
                let mut path = 0u64;
                while cur & board::WATER != 0 {
                    path |= cur;
                    cur = GEOMETRY.shift(cur, DIRS[d]);
                }
                if path != 0 && cur != 0 {
                    t[sq][d] = JumpBits {
                        to: cur.trailing_zeros() as u8,
                        path,
                    };
                }
                d += 1;
            }
        }
        sq += 1;
    }
    t
}

/// River jumps from each square, per direction (north, south, east, west);
/// `to == NONE` where there is none.
pub(crate) const JUMPS: [[JumpBits; 4]; 64] = build_jumps();

/// The (at most two) river jumps from a square, packed for branchless
/// generation: the landing square's bit and the water squares passed over.
/// Unused entries have `to == 0`, so they never add a target.
#[derive(Clone, Copy)]
pub(crate) struct JumpPair {
    pub to: [u64; 2],
    pub path: [u64; 2],
}

/// `river`: whether the whole river crossed blocks (else the path).
const fn jump_pairs(river: bool) -> [JumpPair; 64] {
    let mut t = [JumpPair {
        to: [0; 2],
        path: [0; 2],
    }; 64];
    let mut sq = 0;
    while sq < 63 {
        let mut k = 0;
        let mut d = 0;
        while d < 4 {
            if JUMPS[sq][d].to != NONE {
                // No square has more than two jumps (d-file squares jump
                // east and west; the others at most one way).
                assert!(k < 2);
                t[sq].to[k] = 1u64 << JUMPS[sq][d].to;
                t[sq].path[k] = if river {
                    river_of(JUMPS[sq][d].path)
                } else {
                    JUMPS[sq][d].path
                };
                k += 1;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// The jumps of each square (entry 63, the captured sentinel: none), per
/// [`JumpBlockArea`](crate::JumpBlockArea) value (as index): the squares
/// where a Rat blocks each jump are its path, or its whole river. Picking
/// the table once per node costs less than widening the blockers.
pub(crate) const JUMP_PAIRS: [[JumpPair; 64]; 2] = [jump_pairs(false), jump_pairs(true)];

const fn landings() -> [u64; 16] {
    let mut t = [0u64; 16];
    let mut dirs = 0;
    while dirs < 16 {
        let mut sq = 0;
        while sq < 63 {
            let mut d = 0;
            while d < 4 {
                if dirs >> d & 1 != 0 && JUMPS[sq][d].to != NONE {
                    t[dirs] |= 1u64 << JUMPS[sq][d].to;
                }
                d += 1;
            }
            sq += 1;
        }
        dirs += 1;
    }
    t
}

/// For each direction mask (bit 0 north, 1 south, 2 east, 3 west), the
/// squares some jump in an allowed direction lands on. Filtering a
/// square's jump targets by this set is the same as filtering its jumps by
/// direction for every mask whose north and south bits agree and whose
/// east and west bits agree (every [`crate::rules::Jumps`] value): north
/// landings are on rank 7, south on rank 3, and east and west landings
/// differ only on the d file, which both reach.
pub(crate) const LANDINGS: [u64; 16] = landings();

const fn build_origins() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 63 {
        t[sq] = STEPS[sq];
        let mut d = 0;
        while d < 4 {
            if JUMPS[sq][d].to != NONE {
                t[sq] |= 1u64 << JUMPS[sq][d].to;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// For each square, the squares some move can reach it from: its
/// neighbours and, for a land square, the far banks of its river jumps (a
/// jump's way back is a jump over the same water). Which animal may make
/// which of these moves, in which position, is the move generator's to
/// say; the un-moves start from this superset.
pub(crate) const ORIGINS: [u64; 64] = build_origins();

/// Zobrist keys: 16 pieces × 64 squares, then the side-to-move key.
pub(crate) const ZOBRIST: [u64; 16 * 64 + 1] = qi_core::zobrist::table(0x4A55_4E47_4C45_0001);

/// The key of piece `piece` (0..16) on `sq`.
#[inline(always)]
pub(crate) const fn piece_key(piece: usize, sq: u8) -> u64 {
    // The masks keep the index in range without a bounds check.
    ZOBRIST[(piece & 15) * 64 + (sq & 63) as usize]
}

/// The key XORed in when Blue is to move.
pub(crate) const SIDE_KEY: u64 = ZOBRIST[16 * 64];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jump_table() {
        // b3 (index 15) jumps north to b7 (43) over b4 b5 b6.
        assert_eq!(JUMPS[15][0].to, 43);
        assert_eq!(JUMPS[15][0].path.count_ones(), 3);
        // d5 (31) jumps east to g5 (34) and west to a5 (28).
        assert_eq!(JUMPS[31][2].to, 34);
        assert_eq!(JUMPS[31][3].to, 28);
        assert_eq!(JUMPS[31][2].path.count_ones(), 2);
        // 8 vertical starts (b3 c3 e3 f3 b7 c7 e7 f7) + 9 horizontal (a/d/g 4-6).
        let starts = (0..63).filter(|&sq| JUMP_PAIRS[0][sq].to[0] != 0).count();
        assert_eq!(starts, 17);
        // The river table blocks on the whole river crossed: b3-b7 on any
        // of b4..c6, d5-g5 on any of e4..f6.
        let b3 = &JUMP_PAIRS[1][15];
        assert_eq!(b3.path[0].count_ones(), 6);
        assert_eq!(b3.path[0] & JUMPS[15][0].path, JUMPS[15][0].path);
        let d5 = &JUMP_PAIRS[1][31];
        assert_eq!(d5.path[0] & d5.path[1], 0);
        assert_eq!((d5.path[0] | d5.path[1]).count_ones(), 12);
    }

    #[test]
    fn origins_are_the_neighbours_and_the_far_banks() {
        let names = |sq: &str| {
            let sq: Square = sq.parse().unwrap();
            let mut all: Vec<String> = (0..63)
                .filter(|&f| ORIGINS[usize::from(sq.index())] >> f & 1 != 0)
                .map(|f| Square::new(f).unwrap().to_string())
                .collect();
            all.sort();
            all
        };
        assert_eq!(names("a1"), ["a2", "b1"]);
        // Beside the left river: across it to d4 (the rank) and to b7
        // (the file) lie the far banks.
        assert_eq!(names("b3"), ["a3", "b2", "b4", "b7", "c3"]);
        assert_eq!(names("a4"), ["a3", "a5", "b4", "d4"]);
        // In the water: neighbours only.
        assert_eq!(names("b5"), ["a5", "b4", "b6", "c5"]);
        // Between the rivers: a Lion jumps to d5 from a5 and from g5.
        assert_eq!(names("d5"), ["a5", "c5", "d4", "d6", "e5", "g5"]);
        assert_eq!(names("d3"), ["c3", "d2", "d4", "e3"]);
        // Every move of every square's reach comes back in its origins.
        for from in 0..63u8 {
            let mut reach = STEPS[usize::from(from)];
            for j in &JUMPS[usize::from(from)] {
                if j.to != NONE {
                    reach |= 1 << j.to;
                }
            }
            for to in (0..63u8).filter(|&to| reach >> to & 1 != 0) {
                assert!(ORIGINS[usize::from(to)] >> from & 1 != 0, "{from} -> {to}");
            }
        }
    }

    #[test]
    fn typed_lookups_agree_with_the_board() {
        let variants = [
            Jumps::None,
            Jumps::Both,
            Jumps::HorizontalOnly,
            Jumps::VerticalOnly,
        ];
        for sq in Square::all() {
            let around = Bitboard(GEOMETRY.neighbours(sq.bit()));
            assert_eq!(steps(sq), around);
            for side in Side::BOTH {
                assert_eq!(land_steps(side, sq), (around & LAND) - DENS[side.index()]);
                assert_eq!(rat_steps(side, sq), around - DENS[side.index()]);
            }
            for jumps in variants {
                let mut expect = Bitboard::EMPTY;
                for (d, dir) in Direction::ALL.into_iter().enumerate() {
                    if let Some(j) = jump(sq, dir) {
                        assert!(!sq.is_water() && !j.to.is_water());
                        assert!(j.path.is_subset(WATER) && j.path.any());
                        if jumps.direction_mask() >> d & 1 != 0 {
                            expect.insert(j.to.index());
                        }
                    }
                }
                assert_eq!(jump_targets(sq, jumps, Bitboard::EMPTY), expect);
                assert!(jump_targets(sq, jumps, WATER).is_empty());
            }
        }
        assert_eq!(den_square(Side::First).to_string(), "d1");
        assert_eq!(steps(den_square(Side::Second)), TRAPS[1]);
    }
}
