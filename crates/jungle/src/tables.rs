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

const fn jump_squares() -> u64 {
    let mut m = 0u64;
    let mut sq = 0;
    while sq < 63 {
        let mut d = 0;
        while d < 4 {
            if JUMPS[sq][d].to != NONE {
                m |= 1u64 << sq;
            }
            d += 1;
        }
        sq += 1;
    }
    m
}

/// Squares a jump can start from.
pub(crate) const JUMP_SQUARES: u64 = jump_squares();

/// Zobrist keys: 16 pieces × 64 squares, then the side-to-move key.
pub(crate) const ZOBRIST: [u64; 16 * 64 + 1] = qi_core::zobrist::table(0x4A55_4E47_4C45_0001);

/// The key of piece `piece` (0..16) on `sq`.
#[inline(always)]
pub(crate) const fn piece_key(piece: usize, sq: u8) -> u64 {
    ZOBRIST[piece * 64 + sq as usize]
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
        assert_eq!(JUMP_SQUARES.count_ones(), 17);
    }
}
