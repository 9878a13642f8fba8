//! Compile-time move tables.

use qi_core::Direction;

use crate::board::{DENS, GEOMETRY, LAND, NONE, WATER};

const fn steps() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 63 {
        t[sq] = GEOMETRY.neighbours(1u64 << sq);
        sq += 1;
    }
    t
}

/// The orthogonal neighbours of each square (entry 63: none).
pub(crate) const STEPS: [u64; 64] = steps();

const fn land_steps(side: usize) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 63 {
        t[sq] = STEPS[sq] & LAND & !DENS[side];
        sq += 1;
    }
    t
}

const fn rat_steps(side: usize) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 63 {
        t[sq] = STEPS[sq] & !DENS[side];
        sq += 1;
    }
    t
}

/// Steps of a land animal of each side: neighbours minus water minus the
/// side's own den.
pub(crate) const LAND_STEPS: [[u64; 64]; 2] = [land_steps(0), land_steps(1)];

/// Steps of a Rat of each side: neighbours minus the side's own den.
pub(crate) const RAT_STEPS: [[u64; 64]; 2] = [rat_steps(0), rat_steps(1)];

const DIRS: [Direction; 4] = [
    Direction::North,
    Direction::South,
    Direction::East,
    Direction::West,
];

/// One river jump: landing square and the water squares passed over.
#[derive(Clone, Copy)]
pub(crate) struct Jump {
    pub to: u8,
    pub path: u64,
}

const fn jumps() -> [[Jump; 4]; 64] {
    let none = Jump { to: NONE, path: 0 };
    let mut t = [[none; 4]; 64];
    let mut sq = 0;
    while sq < 63 {
        if LAND >> sq & 1 != 0 {
            let mut d = 0;
            while d < 4 {
                let mut cur = GEOMETRY.shift(1u64 << sq, DIRS[d]);
                let mut path = 0u64;
                while cur & WATER != 0 {
                    path |= cur;
                    cur = GEOMETRY.shift(cur, DIRS[d]);
                }
                if path != 0 && cur != 0 {
                    t[sq][d] = Jump {
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
pub(crate) const JUMPS: [[Jump; 4]; 64] = jumps();

/// The (at most two) river jumps from a square, packed for branchless
/// generation: the landing square's bit and the water squares passed over.
/// Unused entries have `to == 0`, so they never add a target.
#[derive(Clone, Copy)]
pub(crate) struct JumpPair {
    pub to: [u64; 2],
    pub path: [u64; 2],
}

const fn jump_pairs() -> [JumpPair; 64] {
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
                t[sq].path[k] = JUMPS[sq][d].path;
                k += 1;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// The jumps of each square (entry 63, the captured sentinel: none).
pub(crate) const JUMP_PAIRS: [JumpPair; 64] = jump_pairs();

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
        let starts = (0..63).filter(|&sq| JUMP_PAIRS[sq].to[0] != 0).count();
        assert_eq!(starts, 17);
    }
}
