//! The triangular principal-variation table, allocated once.

use crate::score::MAX_PLY;

const WIDTH: usize = MAX_PLY + 1;

/// Line `ply` holds the best line found from the node at `ply` (moves
/// `ply..len[ply]` of its row). Preallocated: updating it never allocates.
#[derive(Clone, Debug)]
pub(crate) struct PvTable<M> {
    moves: Vec<Option<M>>,
    len: Vec<usize>,
}

impl<M: Copy> PvTable<M> {
    pub(crate) fn new() -> PvTable<M> {
        PvTable {
            moves: vec![None; WIDTH * WIDTH],
            len: (0..WIDTH).collect(),
        }
    }

    /// Empties the line of `ply` (on entering a node).
    #[inline]
    pub(crate) fn clear(&mut self, ply: usize) {
        self.len[ply] = ply;
    }

    /// The line of `ply` becomes `mv` followed by the line of `ply + 1`.
    #[inline]
    pub(crate) fn update(&mut self, ply: usize, mv: M) {
        let row = ply * WIDTH;
        self.moves[row + ply] = Some(mv);
        if ply + 1 < WIDTH {
            let child_len = self.len[ply + 1].max(ply + 1);
            let child_row = (ply + 1) * WIDTH;
            for i in ply + 1..child_len {
                self.moves[row + i] = self.moves[child_row + i];
            }
            self.len[ply] = child_len;
        } else {
            self.len[ply] = ply + 1;
        }
    }

    /// The line from the root.
    pub(crate) fn root_line(&self) -> Vec<M> {
        self.moves[..self.len[0]]
            .iter()
            .flatten()
            .copied()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_built_from_the_leaves_up() {
        let mut pv = PvTable::new();
        pv.clear(0);
        pv.clear(1);
        pv.clear(2);
        pv.update(2, 30u8);
        pv.update(1, 20);
        pv.update(0, 10);
        assert_eq!(pv.root_line(), vec![10, 20, 30]);
        pv.clear(1);
        pv.update(0, 11);
        assert_eq!(pv.root_line(), vec![11]);
    }
}
