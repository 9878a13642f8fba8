//! Move ordering: the transposition-table move, captures, killer moves and
//! the history heuristic.

use qi_core::smallvec::SmallVec;
use qi_core::{Game, Position, Side};

use crate::hooks::{MoveOf, SearchHooks};
use crate::score::MAX_PLY;

/// Ordering score of the transposition-table move.
pub(crate) const TT_MOVE: i32 = 1 << 30;
/// Base ordering score of captures (plus the game's capture order).
pub(crate) const CAPTURE: i32 = 1 << 28;
/// Ordering score of the first killer move.
pub(crate) const KILLER_1: i32 = 1 << 26;
/// Ordering score of the second killer move.
pub(crate) const KILLER_2: i32 = KILLER_1 - 1;
/// History scores stay below this.
const HISTORY_MAX: i32 = 1 << 20;

/// Quiet moves that caused cutoffs, per side and move, indexed by the
/// game's dense move index ([`Position::move_index`](qi_core::Position::move_index)):
/// no two moves share a slot.
#[derive(Clone, Debug)]
pub(crate) struct History {
    table: Vec<i32>,
    /// Slots per side: the game's `MOVE_INDEX_COUNT`.
    moves: usize,
}

impl History {
    /// A table for a game with `moves` move indices.
    pub(crate) fn new(moves: usize) -> History {
        History {
            table: vec![0; 2 * moves],
            moves,
        }
    }

    pub(crate) fn clear(&mut self) {
        self.table.fill(0);
    }

    /// Halves every score (between searches), so old knowledge fades.
    pub(crate) fn age(&mut self) {
        for v in &mut self.table {
            *v /= 2;
        }
    }

    #[inline]
    pub(crate) fn get(&self, side: Side, index: usize) -> i32 {
        self.table[side.index() * self.moves + index]
    }

    /// Rewards a quiet move that caused a cutoff at `depth` (gravity keeps
    /// scores bounded).
    #[inline]
    pub(crate) fn reward(&mut self, side: Side, index: usize, depth: u32) {
        self.update(side, index, (depth * depth) as i32);
    }

    /// Penalises a quiet move searched before the cutoff move.
    #[inline]
    pub(crate) fn punish(&mut self, side: Side, index: usize, depth: u32) {
        self.update(side, index, -((depth * depth) as i32));
    }

    #[inline]
    fn update(&mut self, side: Side, index: usize, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let v = &mut self.table[side.index() * self.moves + index];
        let decay = i64::from(*v) * i64::from(bonus.abs()) / i64::from(HISTORY_MAX);
        *v += bonus - decay as i32;
    }
}

/// Two killer moves (quiet moves that caused a cutoff) per ply.
#[derive(Clone, Debug)]
pub(crate) struct Killers<M> {
    slots: Vec<[Option<M>; 2]>,
}

impl<M: Copy + Eq> Killers<M> {
    pub(crate) fn new() -> Killers<M> {
        Killers {
            slots: vec![[None, None]; MAX_PLY + 1],
        }
    }

    pub(crate) fn clear(&mut self) {
        self.slots.fill([None, None]);
    }

    #[inline]
    pub(crate) fn get(&self, ply: usize) -> [Option<M>; 2] {
        self.slots[ply]
    }

    #[inline]
    pub(crate) fn add(&mut self, ply: usize, mv: M) {
        let s = &mut self.slots[ply];
        if s[0] != Some(mv) {
            s[1] = s[0];
            s[0] = Some(mv);
        }
    }
}

/// What orders the moves of one node of the main search: the game's
/// capture order, the node's killers and the history of the side to move.
pub(crate) struct NodeOrder<'a, G: Game, H> {
    pub(crate) game: &'a G,
    pub(crate) hooks: &'a H,
    pub(crate) killers: [Option<MoveOf<G>>; 2],
    pub(crate) history: &'a History,
    pub(crate) stm: Side,
}

impl<G: Game, H: SearchHooks<G>> NodeOrder<'_, G, H> {
    /// Ordering scores of `moves` into `scores`: `tt_move` first, then
    /// captures (by the game's order), killers, history.
    pub(crate) fn score(
        &self,
        moves: &[MoveOf<G>],
        tt_move: Option<MoveOf<G>>,
        scores: &mut SmallVec<[i32; 64]>,
    ) {
        let pos = self.game.position();
        scores.clear();
        for &mv in moves {
            let score = if Some(mv) == tt_move {
                TT_MOVE
            } else if pos.is_capture(mv) {
                CAPTURE + self.hooks.capture_order(self.game, mv)
            } else if Some(mv) == self.killers[0] {
                KILLER_1
            } else if Some(mv) == self.killers[1] {
                KILLER_2
            } else {
                self.history.get(self.stm, G::Position::move_index(mv))
            };
            scores.push(score);
        }
    }
}

/// The ordering score of a quiescence move: captures by the game's order,
/// then the other tactical moves.
#[inline]
pub(crate) fn tactical_score<G: Game, H: SearchHooks<G>>(
    game: &G,
    hooks: &H,
    mv: MoveOf<G>,
) -> i32 {
    if game.position().is_capture(mv) {
        CAPTURE + hooks.capture_order(game, mv)
    } else {
        0
    }
}

/// Moves the highest-scored remaining move to index `start` (selection
/// sort one step at a time: most nodes cut off after a move or two).
#[inline(always)]
pub(crate) fn pick_next<M>(moves: &mut [M], scores: &mut [i32], start: usize) {
    let mut best = start;
    let mut best_score = scores[start];
    for (i, &s) in scores.iter().enumerate().skip(start + 1) {
        if s > best_score {
            best_score = s;
            best = i;
        }
    }
    moves.swap(start, best);
    scores.swap(start, best);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_rewards_and_stays_bounded() {
        let mut h = History::new(10);
        assert_eq!(h.get(Side::First, 5), 0);
        h.reward(Side::First, 5, 4);
        assert!(h.get(Side::First, 5) > 0);
        assert_eq!(h.get(Side::Second, 5), 0, "sides apart");
        assert_eq!(h.get(Side::First, 4), 0, "moves apart");
        for _ in 0..10_000 {
            h.reward(Side::First, 5, 100);
        }
        assert!(h.get(Side::First, 5) <= HISTORY_MAX);
        h.punish(Side::Second, 9, 3);
        assert!(h.get(Side::Second, 9) < 0);
        h.clear();
        assert_eq!(h.get(Side::First, 5), 0);
    }

    #[test]
    fn killers_keep_two_distinct() {
        let mut k = Killers::new();
        k.add(3, 1u8);
        k.add(3, 1u8);
        assert_eq!(k.get(3), [Some(1), None]);
        k.add(3, 2u8);
        k.add(3, 4u8);
        assert_eq!(k.get(3), [Some(4), Some(2)]);
        assert_eq!(k.get(2), [None, None]);
    }

    #[test]
    fn pick_next_takes_the_best() {
        let mut moves = [10, 20, 30, 40];
        let mut scores = [1, 9, 3, 9];
        pick_next(&mut moves, &mut scores, 0);
        assert_eq!(moves[0], 20);
        pick_next(&mut moves, &mut scores, 1);
        assert_eq!(moves[1], 40);
        pick_next(&mut moves, &mut scores, 2);
        assert_eq!(moves[2], 30);
    }
}
