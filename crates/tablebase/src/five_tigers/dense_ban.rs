//! A dense index of one material's states with nothing owed under
//! `shuttle = forbidden`, modulo the 8 board symmetries: the board slots of
//! [`DenseIndex`] (boards and side to move), each followed by a block of
//! cells, one per pair of bans the two sides can be under there.
//!
//! A side's ban coordinate is 0 for none, else `1 +` the rank of the step
//! back among the side's steps onto an empty point (its pieces in
//! increasing order, each piece's empty neighbours in increasing order),
//! so a block has `(1 + n_First) · (1 + n_Second)` cells for the sides'
//! `n` steps back, and cell = `start(board slot) + ban_First · (1 +
//! n_Second) + ban_Second`. There are no holes: these are exactly the
//! states `State::from_position` keeps (a ban is kept only while its way
//! back is empty; a way back blocked by the enemy is either void or a
//! blocked-ban state, which no position of play has, and neither is a
//! cell). When symmetries fix a board slot's boards, a state is put in the
//! smallest of its images' cells and the others are unused
//! ([`BanIndex::is_canonical`]).
//!
//! Under `shuttle = allowed` there are no bans: the index without bans
//! ([`BanIndex::without_bans`]) has a cell per board slot, the slots no
//! position uses included (unused), so its cells are the board slots of
//! [`DenseIndex`] (the slot order of a version-2 file).

use std::sync::atomic::{AtomicU64, Ordering};

use qi_core::Bitboard32;
use qi_five_tigers::{Rules, Shuttle, NEIGHBOURS};

use super::dense::DenseIndex;
use super::key::{map_ban, map_board, Ban, ALL};
use super::Material;

/// The ban coordinates of the side on `own` with `empty` points free:
/// none, and each of its steps back.
#[inline]
pub(super) fn ban_coordinates(own: u32, empty: u32) -> u64 {
    1 + Bitboard32(own)
        .iter()
        .map(|p| u64::from((NEIGHBOURS[usize::from(p)].0 & empty).count_ones()))
        .sum::<u64>()
}

/// The cells of the board slot of boards `x` and `o`: a pair of ban
/// coordinates each.
#[inline]
pub(super) fn ban_pairs(x: u32, o: u32) -> u64 {
    let empty = ALL & !(x | o);
    ban_coordinates(x, empty) * ban_coordinates(o, empty)
}

/// The coordinate of `ban` (one of `own`'s steps back onto `empty`).
#[inline]
fn ban_number(own: u32, empty: u32, ban: Option<Ban>) -> u64 {
    let Some(b) = ban else { return 0 };
    let below = own & ((1u32 << b.at) - 1);
    ban_coordinates(below, empty)
        + u64::from((NEIGHBOURS[b.at as usize].0 & empty & ((1u32 << b.back) - 1)).count_ones())
}

/// The ban of coordinate `n` (see [`ban_number`]).
#[inline]
fn ban_of_number(own: u32, empty: u32, n: u64) -> Option<Ban> {
    if n == 0 {
        return None;
    }
    let mut left = n - 1;
    for at in Bitboard32(own) {
        let mut backs = NEIGHBOURS[usize::from(at)].0 & empty;
        let k = u64::from(backs.count_ones());
        if left < k {
            for _ in 0..left {
                backs &= backs - 1;
            }
            let back = backs.trailing_zeros() as u8;
            return Some(Ban { at, back });
        }
        left -= k;
    }
    None
}

/// One material's cells (see the module docs).
pub(crate) struct BanIndex {
    /// The board slots.
    pub boards: DenseIndex,
    /// Per board slot its first cell, and the number of cells at the end
    /// (a slot no position uses has no cells); empty without bans (each
    /// board slot its own cell).
    starts: Vec<u64>,
    /// Whether the cells hold bans (`shuttle = forbidden`).
    bans: bool,
    /// A number no other index of this process has (from 1), which a
    /// [`Near`] names its index by: an address could be a dropped
    /// index's, reused by the next.
    id: u64,
}

/// The next [`BanIndex`]'s id.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A decoded cell: the boards, the side to move (0 First) and the bans.
pub(crate) type Cell = ([u32; 2], usize, [Option<Ban>; 2]);

/// The board slot a thread decoded last ([`BanIndex::decode_near`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Near {
    /// The id of the index it is of (0: none).
    index: u64,
    slot: u64,
    /// Its cells, `lo..hi`.
    lo: u64,
    hi: u64,
    boards: [u32; 2],
    stm: usize,
}

/// The block of cells of one position's board slot, seen from that
/// position: what the cells of its states with any bans need, found once
/// (the predecessors of a state share their boards and differ in bans).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Block {
    start: u64,
    rep: [u32; 2],
    empty: u32,
    width: u64,
    /// The symmetries mapping the position's boards onto `rep` (none in
    /// an index without bans: the block is its one cell).
    syms: u8,
}

impl Block {
    /// The block's first cell.
    #[inline]
    pub fn start(&self) -> u64 {
        self.start
    }

    /// Whether one symmetry maps the position onto the block's boards
    /// (most blocks), so that each side's ban has one coordinate there
    /// ([`Block::coordinate`]).
    #[inline]
    pub fn single(&self) -> bool {
        self.syms.count_ones() == 1
    }

    /// The coordinate in the block of side `side`'s ban `ban` (0 First),
    /// when the block is [`single`](Block::single).
    #[inline]
    pub fn coordinate(&self, side: usize, ban: Option<Ban>) -> u64 {
        let s = self.syms.trailing_zeros() as usize;
        ban_number(self.rep[side], self.empty, map_ban(s, ban))
    }

    /// The cell of the coordinates `first` and `second` of the sides' bans.
    #[inline]
    pub fn cell_at(&self, first: u64, second: u64) -> u64 {
        self.start + first * self.width + second
    }

    /// The cell of the position's state with `bans`.
    #[inline]
    pub fn cell(&self, bans: [Option<Ban>; 2]) -> u64 {
        if self.syms == 0 {
            return self.start;
        }
        let mut best = u64::MAX;
        for s in Bitboard32(u32::from(self.syms)) {
            let s = usize::from(s);
            let f = ban_number(self.rep[0], self.empty, map_ban(s, bans[0]));
            let o = ban_number(self.rep[1], self.empty, map_ban(s, bans[1]));
            best = best.min(f * self.width + o);
        }
        self.start + best
    }
}

impl BanIndex {
    /// The index of the material with `first` and `second` pieces.
    pub fn new(first: u32, second: u32) -> BanIndex {
        let boards = DenseIndex::new(first, second);
        let mut starts = Vec::with_capacity(boards.len() as usize + 1);
        let mut at = 0u64;
        for (slot, x, o, _) in boards.range(0, boards.len()) {
            starts.push(at);
            if boards.is_canonical(slot) {
                at += ban_pairs(x, o);
            }
        }
        starts.push(at);
        BanIndex {
            boards,
            starts,
            bans: true,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// The index of the material with `first` and `second` pieces with no
    /// bans (`shuttle = allowed`): a cell per board slot.
    pub fn without_bans(first: u32, second: u32) -> BanIndex {
        BanIndex {
            boards: DenseIndex::new(first, second),
            starts: Vec::new(),
            bans: false,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// The index of `material`'s cells under `rules`: with bans under
    /// `shuttle = forbidden`, else a cell per board slot.
    pub fn under(material: Material, rules: &Rules) -> BanIndex {
        match rules.shuttle {
            Shuttle::Forbidden => BanIndex::new(material.first, material.second),
            Shuttle::Allowed => BanIndex::without_bans(material.first, material.second),
        }
    }

    /// Whether the cells hold bans (else each board slot is a cell).
    #[inline]
    pub fn has_bans(&self) -> bool {
        self.bans
    }

    /// The number of cells.
    pub fn len(&self) -> u64 {
        self.start(self.board_slots())
    }

    /// The number of board slots.
    pub fn board_slots(&self) -> u64 {
        self.boards.len()
    }

    /// The first cell of board slot `slot` (the number of cells for the
    /// slot after the last).
    pub fn start(&self, slot: u64) -> u64 {
        if !self.bans {
            return slot;
        }
        self.starts[slot as usize]
    }

    /// The cells of board slot `slot`.
    pub fn cells_of(&self, slot: u64) -> std::ops::Range<u64> {
        self.start(slot)..self.start(slot + 1)
    }

    /// The symmetries (as a bit set) mapping the boards `[x, o]` onto
    /// `[rx, ro]`.
    #[inline]
    fn onto(x: u32, o: u32, rx: u32, ro: u32) -> u8 {
        let mut set = 0u8;
        for s in 0..8 {
            if map_board(s, x) == rx && map_board(s, o) == ro {
                set |= 1 << s;
            }
        }
        set
    }

    /// The cell of the state with boards `boards`, `stm` to move and
    /// `bans` (each a step back of its side onto an empty point).
    #[inline]
    pub fn cell(&self, boards: [u32; 2], stm: usize, bans: [Option<Ban>; 2]) -> u64 {
        self.block(boards, stm).cell(bans)
    }

    /// The block of the position with `boards` and `stm` to move.
    #[inline]
    pub fn block(&self, boards: [u32; 2], stm: usize) -> Block {
        self.slot_and_block(boards, stm).1
    }

    /// The board slot of the position with `boards` and `stm` to move,
    /// and its [`block`](BanIndex::block).
    #[inline]
    pub fn slot_and_block(&self, boards: [u32; 2], stm: usize) -> (u64, Block) {
        let (slot, rx, ro) = self.boards.slot_and_boards(boards[0], boards[1], stm);
        let empty = ALL & !(rx | ro);
        if !self.bans {
            let block = Block {
                start: slot,
                rep: [rx, ro],
                empty,
                width: 1,
                syms: 0,
            };
            return (slot, block);
        }
        let block = Block {
            start: self.starts[slot as usize],
            rep: [rx, ro],
            empty,
            width: ban_coordinates(ro, empty),
            syms: Self::onto(boards[0], boards[1], rx, ro),
        };
        (slot, block)
    }

    /// The board slot of a cell.
    #[inline]
    pub fn slot_of(&self, cell: u64) -> u64 {
        if !self.bans {
            return cell;
        }
        (self.starts.partition_point(|&s| s <= cell) - 1) as u64
    }

    /// The state of a cell, its board slot looked for from `near` (the
    /// last one this thread decoded with this index): the cells the
    /// rounds un-move come in increasing order, so the slot is mostly the
    /// same or a little further, where a binary search of the starts (8
    /// bytes a board slot, 0.5 GB at `5v4`) would miss the cache at each
    /// step.
    #[inline]
    pub fn decode_near(&self, cell: u64, near: &mut Near) -> Cell {
        if cell >= self.len() || !self.bans {
            return self.decode(cell);
        }
        if near.index != self.id || cell < near.lo {
            self.settle(near, self.slot_of(cell));
        } else if cell >= near.hi {
            // Gallop forward from the last slot (the starts past the last
            // cell are all `len`, beyond `cell`), then search the gap.
            let (mut lo, mut step) = (near.slot + 1, 1u64);
            let last = self.board_slots();
            let slot = loop {
                let probe = (near.slot + step).min(last);
                if self.starts[probe as usize] > cell {
                    let gap = &self.starts[lo as usize..=probe as usize];
                    break lo + gap.partition_point(|&s| s <= cell) as u64 - 1;
                }
                lo = probe;
                step *= 2;
            };
            self.settle(near, slot);
        }
        let off = cell.saturating_sub(near.lo);
        (near.boards, near.stm, Self::bans_at(near.boards, off))
    }

    /// Makes `near` board slot `slot` of this index.
    fn settle(&self, near: &mut Near, slot: u64) {
        let (x, o, stm) = self.boards.decode(slot);
        *near = Near {
            index: self.id,
            slot,
            lo: self.starts[slot as usize],
            hi: self.starts[slot as usize + 1],
            boards: [x, o],
            stm,
        };
    }

    /// The state of a cell (without bans a board slot's one cell, at
    /// offset 0: no bans).
    #[inline]
    pub fn decode(&self, cell: u64) -> Cell {
        let slot = self.slot_of(cell);
        let (x, o, stm) = self.boards.decode(slot);
        ([x, o], stm, Self::bans_at([x, o], cell - self.start(slot)))
    }

    /// The bans at offset `off` of the block of boards `rep`.
    #[inline]
    pub fn bans_at(rep: [u32; 2], off: u64) -> [Option<Ban>; 2] {
        let empty = ALL & !(rep[0] | rep[1]);
        let width = ban_coordinates(rep[1], empty);
        [
            ban_of_number(rep[0], empty, off / width),
            ban_of_number(rep[1], empty, off % width),
        ]
    }

    /// The symmetries other than the identity fixing the boards `rep`
    /// (as a bit set): 0 for most board slots, whose cells are then all
    /// canonical.
    #[inline]
    pub fn stabiliser(rep: [u32; 2]) -> u8 {
        Self::onto(rep[0], rep[1], rep[0], rep[1]) & !1
    }

    /// The bans of the side on `own` with `empty` points free, in the order
    /// of their coordinates (none first; see [`ban_number`]), into `out`:
    /// none alone in an index without bans.
    pub fn bans_in_order(&self, own: u32, empty: u32, out: &mut Vec<Option<Ban>>) {
        out.clear();
        out.push(None);
        if !self.bans {
            return;
        }
        for at in Bitboard32(own) {
            for back in NEIGHBOURS[usize::from(at)] & Bitboard32(empty) {
                out.push(Some(Ban { at, back }));
            }
        }
    }

    /// [`BanIndex::stabiliser`] of boards `rep` as [`BanIndex::holds_state`]
    /// wants it: 0 without bans (a board slot's one cell holds a state or
    /// not as a whole).
    #[inline]
    pub fn cells_stabiliser(&self, rep: [u32; 2]) -> u8 {
        if self.bans {
            Self::stabiliser(rep)
        } else {
            0
        }
    }

    /// Whether the cell at offset `off` of board slot `slot` (of boards
    /// `rep`, whose [`cells_stabiliser`](BanIndex::cells_stabiliser) is
    /// `stab`) holds a state: without bans whether some position is in
    /// the board slot, with bans whether the cell is the smallest of its
    /// images.
    #[inline]
    pub fn holds_state(&self, slot: u64, rep: [u32; 2], stab: u8, off: u64) -> bool {
        if self.bans {
            Self::is_canonical(rep, stab, off)
        } else {
            self.boards.is_canonical(slot)
        }
    }

    /// Whether the cell at offset `off` of the block of boards `rep`, whose
    /// stabiliser is `stab`, holds a state (is the smallest of its
    /// images).
    #[inline]
    pub fn is_canonical(rep: [u32; 2], stab: u8, off: u64) -> bool {
        if stab == 0 {
            return true;
        }
        let empty = ALL & !(rep[0] | rep[1]);
        let block = Block {
            start: 0,
            rep,
            empty,
            width: ban_coordinates(rep[1], empty),
            syms: stab | 1,
        };
        block.cell(Self::bans_at(rep, off)) == off
    }
}

#[cfg(test)]
mod tests;
