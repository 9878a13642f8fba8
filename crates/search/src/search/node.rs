//! The node search: fail-soft principal variation search with mate-distance
//! pruning, transposition-table cutoffs, internal iterative reduction,
//! reverse futility, null-move, futility and late-move pruning, late-move
//! reductions, check extensions and endgame-table cut-offs.
//!
//! Sides need not alternate: a child whose side to move is the parent's
//! is searched with the parent's window and its score taken as is; any
//! other child is searched with the negated, swapped window and its score
//! negated.

use qi_core::smallvec::SmallVec;
use qi_core::{Evaluator, Game, MoveList, Position, Side};

use super::context::Ctx;
use super::params::{IIR_DEPTH, LMP_DEPTH, RFP_DEPTH};
use super::worker::Worker;
use crate::hooks::{MoveOf, SearchHooks, TableValue};
use crate::ordering::{pick_next, NodeOrder, KILLER_2};
use crate::score::{from_tt, terminal_value, to_tt, INFINITY, MATE, MATE_BOUND, MAX_PLY};
use crate::tt::{Bound, TableAccess};

impl<G: Game, H: SearchHooks<G>, T: TableAccess<MoveOf<G>>> Worker<'_, G, H, T> {
    /// Searches a child just played: with the same window when the side to
    /// move did not change, else negamax-style.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn child<E: Evaluator<G::Position>>(
        &mut self,
        game: &mut G,
        ctx: &mut Ctx<'_, E>,
        same_side: bool,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
    ) -> i32 {
        if same_side {
            self.negamax(game, ctx, alpha, beta, depth, ply + 1, false)
        } else {
            -self.negamax(game, ctx, -beta, -alpha, depth, ply + 1, false)
        }
    }

    /// Fail-soft alpha-beta: the value of the current position of `game`
    /// searched `depth` plies deep, from the side to move's view.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax<E: Evaluator<G::Position>>(
        &mut self,
        game: &mut G,
        ctx: &mut Ctx<'_, E>,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        after_null: bool,
    ) -> i32 {
        self.st.pv.clear(ply);
        if depth <= 0 {
            return self.horizon(game, ctx, alpha, beta, ply);
        }
        if ctx.enter(ply) {
            return 0;
        }
        let stm = game.position().side_to_move();
        let opts = self.options;
        let pv_node = beta - alpha > 1;

        // The cut-offs that come before the moves (ply limit, mate
        // distance, table) are found before the outcome is read: reading
        // the table changes nothing and a finished game's value needs no
        // bound. So the outcome comes with the moves exactly when the node
        // goes on to search them, and the game decides both at once.

        // Mate distance: if the game is not over here, no value beats a win
        // (or loses worse than a loss) one ply below.
        let mut mate_cut = false;
        if opts.mate_distance && ply > 0 {
            let best_possible = MATE - ply as i32 - 1;
            alpha = alpha.max(-best_possible);
            beta = beta.min(best_possible);
            mate_cut = alpha >= beta;
        }
        let key = game.position().zobrist();
        let mut tt_move = None;
        let mut tt_cut = None;
        if ply < MAX_PLY && !mate_cut {
            if let Some(entry) = self.tt.probe(key) {
                tt_move = entry.mv;
                if !pv_node && ply > 0 && i32::from(entry.depth) >= depth {
                    let value = from_tt(entry.value, ply);
                    let cut = match entry.bound {
                        Bound::Exact => true,
                        Bound::Lower => value >= beta,
                        Bound::Upper => value <= alpha,
                        Bound::Empty => false,
                    };
                    tt_cut = cut.then_some(value);
                }
            }
        }

        // Endgame tables, below the root (which must give a move): an exact
        // value ends the line before any move is generated. The hooks give
        // only values that hold under the game's history rules (a finished
        // game, if they answer one, as a value at distance 0), so this may
        // come before the outcome is read. Stored as exact: the value does not depend
        // on the depth, only on the history the position is reached with,
        // which the table shares with every stored score (the key does not
        // hold the no-capture count).
        if ply > 0 && ply < MAX_PLY && !mate_cut && tt_cut.is_none() {
            if let Some(value) = self.hooks.probe(game).and_then(|v| table_score(v, ply)) {
                ctx.tbhits += 1;
                self.tt
                    .store(key, None, to_tt(value, ply), depth as u32, Bound::Exact);
                return value;
            }
        }

        let mut moves = MoveList::new();
        let outcome = if ply < MAX_PLY && !mate_cut && tt_cut.is_none() {
            game.outcome_and_moves(&mut moves)
        } else {
            game.outcome()
        };
        if let Some(outcome) = outcome {
            return terminal_value(outcome, stm, ply);
        }
        if ply >= MAX_PLY {
            ctx.horizon = true;
            return ctx.eval.evaluate(game.position());
        }
        if mate_cut {
            return alpha;
        }
        let original_alpha = alpha;
        if let Some(value) = tt_cut {
            ctx.horizon = true;
            return value;
        }

        if moves.is_empty() {
            ctx.horizon = true;
            return ctx.eval.evaluate(game.position());
        }

        // MultiPV: the root leaves out the lines already found, before the
        // move loop, so that a single-line search pays one test a node.
        let excluding = ply == 0 && !self.st.excluded.is_empty();
        if excluding {
            let excluded = &self.st.excluded;
            moves.retain(|mv| !excluded.contains(mv));
        }

        let in_check = self.hooks.in_check(game);
        let prunable = !pv_node && ply > 0 && !in_check;
        // Internal iterative reduction: with no stored move to try first,
        // ordering is poor; search a ply shallower (the next iteration
        // stores a move here).
        let depth = if opts.iir && tt_move.is_none() && depth >= IIR_DEPTH && !in_check {
            depth - 1
        } else {
            depth
        };
        let static_eval = if prunable
            && (opts.null_move || opts.futility || opts.reverse_futility || opts.late_move_pruning)
        {
            ctx.eval.evaluate(game.position())
        } else {
            0
        };

        // Reverse futility: far enough above beta near the horizon that no
        // quiet continuation is expected to bring it back.
        if opts.reverse_futility
            && prunable
            && depth <= RFP_DEPTH
            && beta.abs() < MATE_BOUND
            && static_eval - self.params.rfp_margin * depth >= beta
        {
            ctx.horizon = true;
            return static_eval;
        }

        // Null move: if passing still fails high, so will a real move.
        if opts.null_move
            && prunable
            && !after_null
            && depth >= 3
            && beta.abs() < MATE_BOUND
            && static_eval >= beta
            && self.hooks.make_null(game)
        {
            if game.position().side_to_move() != stm {
                let r = 2 + depth / 6;
                let value =
                    -self.negamax(game, ctx, -beta, -beta + 1, depth - 1 - r, ply + 1, true);
                self.hooks.undo_null(game);
                if ctx.stopped {
                    return 0;
                }
                if value >= beta {
                    ctx.horizon = true; // a pass is no proof
                    return if value >= MATE_BOUND { beta } else { value };
                }
            } else {
                self.hooks.undo_null(game);
            }
        }

        let futile = opts.futility
            && prunable
            && depth <= 2
            && alpha.abs() < MATE_BOUND
            && static_eval + self.params.futility_margin * depth <= alpha;
        let lmp_limit =
            if opts.late_move_pruning && prunable && depth <= LMP_DEPTH && alpha.abs() < MATE_BOUND
            {
                self.params.lmp_moves[depth as usize]
            } else {
                usize::MAX
            };

        // Order: TT move first (searched before the others are scored: it
        // often cuts off alone), then captures (by the game's order),
        // killers, history.
        let mut scores: SmallVec<[i32; 64]> = SmallVec::new();
        let mut scored = false;
        if let Some(i) = tt_move.and_then(|t| moves.iter().position(|&m| m == t)) {
            moves.swap(0, i);
        } else {
            self.score_moves(game, &moves, &mut scores, None, ply, stm);
            scored = true;
        }

        let mut best = -INFINITY;
        let mut best_move = None;
        let mut quiets_tried: SmallVec<[MoveOf<G>; 64]> = SmallVec::new();
        let mut searched = 0usize;
        for i in 0..moves.len() {
            if !scored {
                // Past the TT move (index 0): score the rest now.
                self.score_moves(game, &moves, &mut scores, tt_move, ply, stm);
                scored = true;
            }
            if i > 0 || tt_move.is_none() {
                pick_next(&mut moves, &mut scores, i);
            }
            let mv = moves[i];
            let capture = game.position().is_capture(mv);
            let quiet = !capture
                && (scores.is_empty() || scores[i] < KILLER_2)
                && !self.hooks.is_tactical(game, mv);
            if searched > 0 && quiet {
                if futile {
                    ctx.horizon = true; // an unsearched move: not solved
                    continue;
                }
                if quiets_tried.len() >= lmp_limit {
                    ctx.horizon = true;
                    continue;
                }
            }

            game.play_unchecked(mv);
            let same = game.position().side_to_move() == stm;
            let gives_check = opts.check_extension
                && (ply as i32) < 2 * ctx.root_depth
                && self.hooks.in_check(game);
            let new_depth = depth - 1 + i32::from(gives_check);
            let value = if searched == 0 {
                self.child(game, ctx, same, alpha, beta, new_depth, ply)
            } else {
                let reduction = if opts.lmr && depth >= 3 && searched >= 3 && quiet && !gives_check
                {
                    let r = self.st.lmr(depth, searched) - i32::from(pv_node);
                    r.clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut v = self.child(
                    game,
                    ctx,
                    same,
                    alpha,
                    alpha + 1,
                    new_depth - reduction,
                    ply,
                );
                if reduction > 0 && v > alpha && !ctx.stopped {
                    v = self.child(game, ctx, same, alpha, alpha + 1, new_depth, ply);
                }
                if v > alpha && v < beta && !ctx.stopped {
                    v = self.child(game, ctx, same, alpha, beta, new_depth, ply);
                }
                v
            };
            game.undo();
            if ctx.stopped {
                return 0;
            }
            searched += 1;

            if value > best {
                best = value;
                if value > alpha {
                    best_move = Some(mv);
                    alpha = value;
                    self.st.pv.update(ply, mv);
                    if ply == 0 {
                        self.st.root_move = Some(mv);
                    }
                    if value >= beta {
                        if !capture {
                            self.st.killers.add(ply, mv);
                            self.st
                                .history
                                .reward(stm, G::Position::move_index(mv), depth as u32);
                            for q in &quiets_tried {
                                self.st.history.punish(
                                    stm,
                                    G::Position::move_index(*q),
                                    depth as u32,
                                );
                            }
                        }
                        break;
                    }
                }
            }
            if !capture {
                quiets_tried.push(mv);
            }
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A root searched without its best lines would leave a lesser
        // move as the root's stored move and value.
        if !excluding {
            self.tt
                .store(key, best_move, to_tt(best, ply), depth as u32, bound);
        }
        best
    }

    /// Ordering scores of `moves` into `scores` (see [`NodeOrder`]).
    fn score_moves(
        &self,
        game: &G,
        moves: &[MoveOf<G>],
        scores: &mut SmallVec<[i32; 64]>,
        tt_move: Option<MoveOf<G>>,
        ply: usize,
        stm: Side,
    ) {
        NodeOrder {
            game,
            hooks: self.hooks,
            killers: self.st.killers.get(ply),
            history: &self.st.history,
            stm,
        }
        .score(moves, tt_move, scores);
    }
}

/// The score of a table value `ply` plies below the root: a win or loss as
/// the end of the game `distance` plies further on, as [`terminal_value`]
/// scores it there. `None` when that end lies beyond the plies mate scores
/// can tell apart (the line is then searched).
#[inline]
pub(super) fn table_score(value: TableValue, ply: usize) -> Option<i32> {
    let end = |distance: u32| {
        let end = ply.checked_add(usize::try_from(distance).ok()?)?;
        (end <= MAX_PLY).then_some(MATE - end as i32)
    };
    match value {
        TableValue::Win(d) => end(d),
        TableValue::Loss(d) => end(d).map(|v| -v),
        TableValue::Draw => Some(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::Score;

    #[test]
    fn table_values_score_as_the_end_of_the_game() {
        // A win in 5 plies seen 3 plies below the root ends 8 plies ahead.
        assert_eq!(
            table_score(TableValue::Win(5), 3),
            Some(Score::win_in(8).value())
        );
        assert_eq!(
            table_score(TableValue::Loss(4), 2),
            Some(Score::loss_in(6).value())
        );
        assert_eq!(table_score(TableValue::Loss(0), 7), Some(-(MATE - 7)));
        assert_eq!(table_score(TableValue::Draw, 40), Some(0));
        assert_eq!(
            table_score(TableValue::Win(30), MAX_PLY - 30),
            Some(MATE - MAX_PLY as i32)
        );
        assert_eq!(table_score(TableValue::Win(31), MAX_PLY - 30), None);
        assert_eq!(table_score(TableValue::Loss(u32::MAX), 1), None);
    }
}
