//! The horizon: quiescence search on tactical moves, or the evaluation.

use qi_core::smallvec::SmallVec;
use qi_core::{Evaluator, Game, MoveList, Position};

use super::context::Ctx;
use super::worker::Worker;
use crate::hooks::{MoveOf, SearchHooks};
use crate::ordering::{pick_next, tactical_score};
use crate::score::{terminal_value, MAX_PLY};
use crate::tt::TableAccess;

impl<G: Game, H: SearchHooks<G>, T: TableAccess<MoveOf<G>>> Worker<'_, G, H, T> {
    /// The value at the horizon: quiescence search, or the evaluation.
    pub(super) fn horizon<E: Evaluator<G::Position>>(
        &mut self,
        game: &mut G,
        ctx: &mut Ctx<'_, E>,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.options.quiescence {
            return self.quiescence(game, ctx, alpha, beta, ply);
        }
        if ctx.enter(ply) {
            return 0;
        }
        let stm = game.position().side_to_move();
        if let Some(outcome) = game.outcome() {
            return terminal_value(outcome, stm, ply);
        }
        ctx.horizon = true;
        ctx.eval.evaluate(game.position())
    }

    /// Fail-soft quiescence: the better of standing pat and the tactical
    /// moves (searched to quiet positions).
    fn quiescence<E: Evaluator<G::Position>>(
        &mut self,
        game: &mut G,
        ctx: &mut Ctx<'_, E>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.st.pv.clear(ply);
        if ctx.enter(ply) {
            return 0;
        }
        let stm = game.position().side_to_move();
        // Standing pat is scored before the outcome is read (a finished
        // game's value ignores it), so that the outcome comes with the
        // moves exactly when they are searched.
        let stand_pat = ctx.eval.evaluate(game.position());
        let stands = stand_pat >= beta || ply >= MAX_PLY;
        let mut moves = MoveList::new();
        let outcome = if stands {
            game.outcome()
        } else {
            game.outcome_and_moves(&mut moves)
        };
        if let Some(outcome) = outcome {
            return terminal_value(outcome, stm, ply);
        }
        ctx.horizon = true;
        if stands {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;

        let hooks = self.hooks;
        moves.retain(|mv| hooks.is_tactical(game, *mv));
        let mut scores: SmallVec<[i32; 64]> = moves
            .iter()
            .map(|&mv| tactical_score(game, hooks, mv))
            .collect();

        for i in 0..moves.len() {
            pick_next(&mut moves, &mut scores, i);
            let mv = moves[i];
            game.play_unchecked(mv);
            let value = if game.position().side_to_move() == stm {
                self.quiescence(game, ctx, alpha, beta, ply + 1)
            } else {
                -self.quiescence(game, ctx, -beta, -alpha, ply + 1)
            };
            game.undo();
            if ctx.stopped {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    self.st.pv.update(ply, mv);
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
