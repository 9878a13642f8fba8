//! Unit tests of `five_tigers::dense_ban`.

use super::super::key::State;
use super::*;
use qi_core::{Bitboard32, Side};

/// The bans `board`'s side could be under with `empty` points free: none,
/// and one per step back onto a free point (what the ban coordinates and
/// the counts are listed against).
fn possible_bans(board: u32, empty: u32) -> Vec<Option<Ban>> {
    let mut out = vec![None];
    for at in Bitboard32(board).iter() {
        for back in Bitboard32(NEIGHBOURS[at as usize].0 & empty).iter() {
            out.push(Some(Ban { at, back }));
        }
    }
    out
}

#[test]
fn ban_coordinates_number_the_possible_bans_in_order() {
    for (own, other) in [(0b1_0110_0001u32, 1 << 12 | 1 << 7), (0x1f0_0000, 0x1f)] {
        let empty = ALL & !(own | other);
        let all = possible_bans(own, empty);
        assert_eq!(all.len() as u64, ban_coordinates(own, empty));
        for (n, &b) in all.iter().enumerate() {
            assert_eq!(ban_number(own, empty, b), n as u64);
            assert_eq!(ban_of_number(own, empty, n as u64), b);
        }
    }
}

#[test]
fn ban_pairs_counts_the_possible_bans_of_each_side() {
    let mut seed = 1;
    let mut random = || {
        let (next, value) = qi_core::zobrist::splitmix64(seed);
        seed = next;
        value as u32
    };
    for _ in 0..2_000 {
        let x = random() & ALL;
        let o = random() & ALL & !x;
        let empty = ALL & !x & !o;
        let listed = possible_bans(x, empty).len() * possible_bans(o, empty).len();
        assert_eq!(ban_pairs(x, o), listed as u64, "{x:#x} {o:#x}");
    }
}

/// Decoding from the last slot decoded gives what decoding alone
/// gives: cells in order (near, far and past every slot), cells back
/// again, and a cell of another index in between.
#[test]
fn decoding_near_the_last_slot_equals_decoding_alone() {
    let (big, small) = (BanIndex::new(3, 2), BanIndex::new(2, 2));
    let mut near = Near::default();
    let n = big.len();
    let mut cells: Vec<u64> = (0..n).step_by(7).collect();
    cells.extend((0..n).step_by(40_009));
    cells.extend((0..n).rev().step_by(997));
    cells.extend([0, n - 1, 5, 6, n / 2, n / 2 + 1, n - 1, 0]);
    for (i, &cell) in cells.iter().enumerate() {
        assert_eq!(big.decode_near(cell, &mut near), big.decode(cell), "{cell}");
        if i % 1000 == 0 {
            let other = (cell * 31) % small.len();
            assert_eq!(small.decode_near(other, &mut near), small.decode(other));
        }
    }
    // An index made after another is dropped (perhaps at its address)
    // is not taken for it.
    let (mut near, cell) = (Near::default(), 1000);
    for (a, b) in [(3, 2), (2, 3), (3, 2)] {
        let index = BanIndex::new(a, b);
        assert_eq!(
            index.decode_near(cell, &mut near),
            index.decode(cell),
            "{a}v{b}"
        );
    }
}

/// Every cell of `2v2` decodes to a state whose images all have that
/// cell, and the canonical cells are as many as the canonical keys.
#[test]
fn cells_are_the_symmetry_classes_of_the_states() {
    let idx = BanIndex::new(2, 2);
    let mut keys = Vec::new();
    for slot in 0..idx.board_slots() {
        let cells = idx.cells_of(slot);
        if cells.is_empty() {
            continue;
        }
        let (x, o, stm) = idx.boards.decode(slot);
        let stab = BanIndex::stabiliser([x, o]);
        for cell in cells.clone() {
            let (boards, s, bans) = idx.decode(cell);
            assert_eq!((boards, s), ([x, o], stm));
            if !BanIndex::is_canonical([x, o], stab, cell - cells.start) {
                continue;
            }
            let state = State {
                boards,
                stm: if s == 0 { Side::First } else { Side::Second },
                bans,
                owed: 0,
                taker: Side::First,
            };
            for sym in 0..8 {
                let m = state.mapped(sym);
                assert_eq!(idx.cell(m.boards, s, m.bans), cell);
            }
            keys.push(state.canonical().unwrap().0);
        }
    }
    let n = keys.len();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), n, "two cells hold one class");
}
