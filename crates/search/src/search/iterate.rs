//! Iterative deepening: one search per depth, each in an aspiration window
//! around the previous score, until a limit or a solved tree.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use web_time::Instant;

use qi_core::{Evaluator, Game, MoveList, Position};

use super::context::Ctx;
use super::worker::Worker;
use super::MAX_DEPTH;
use crate::hooks::{MoveOf, SearchHooks};
use crate::limits::Limits;
use crate::report::{nps, PvLine, SearchInfo, SearchResult};
use crate::score::{terminal_value, Score, INFINITY, MATE_BOUND};
use crate::time::TimeManager;
use crate::tt::TableAccess;

impl<G: Game, H: SearchHooks<G>, T: TableAccess<MoveOf<G>>> Worker<'_, G, H, T> {
    /// Iterative deepening from depth 1 until a limit, the stop flag, or a
    /// solved tree; `info` after each completed iteration. Leaves `elapsed`
    /// for the caller and never waits for the stop flag.
    pub(super) fn iterate<E, F>(
        &mut self,
        game: &mut G,
        eval: &E,
        limits: Limits,
        stop: &AtomicBool,
        start: Instant,
        mut info: F,
    ) -> SearchResult<MoveOf<G>>
    where
        E: Evaluator<G::Position>,
        F: FnMut(&SearchInfo<MoveOf<G>>),
    {
        let stm = game.position().side_to_move();
        let mut timer = TimeManager::new(&limits, stm);
        let node_limit = limits.nodes.unwrap_or(u64::MAX);
        let mut ctx = Ctx::new(eval, stop, self.sharing, timer.deadline(start), node_limit);
        let mut result = SearchResult {
            best_move: None,
            score: Score::from_value(eval.evaluate(game.position())),
            depth: 0,
            seldepth: 0,
            nodes: 0,
            tbhits: 0,
            pv: Vec::new(),
            lines: Vec::new(),
            elapsed: Duration::ZERO,
        };
        let mut root_moves = MoveList::new();
        if let Some(outcome) = game.outcome_and_moves(&mut root_moves) {
            result.score = Score::from_value(terminal_value(outcome, stm, 0));
        }
        // Root moves outside `root_only` are left out as MultiPV leaves out
        // the lines already found; a set naming no legal move restricts
        // nothing.
        let mut barred: Vec<MoveOf<G>> = root_moves
            .iter()
            .filter(|m| !self.root_only.is_empty() && !self.root_only.contains(m))
            .copied()
            .collect();
        if barred.len() < root_moves.len() {
            root_moves.retain(|m| !barred.contains(m));
        } else {
            barred.clear();
        }

        if !root_moves.is_empty() {
            ctx.poll();
            let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
            let wanted = self.options.multi_pv.clamp(1, root_moves.len());
            // Each line's score in the last completed iteration, to centre
            // its next aspiration window on.
            let mut previous: Vec<i32> = Vec::with_capacity(wanted);
            // The node limit waits until the floor iterations are done.
            if self.floor_depth > 0 {
                ctx.set_node_limit(u64::MAX);
            }
            for iteration in 1..=max_depth {
                let depth = (iteration + self.depth_offset).min(MAX_DEPTH);
                ctx.horizon = false;
                ctx.seldepth = 0;
                ctx.root_depth = depth as i32;
                let mut lines: Vec<PvLine<MoveOf<G>>> = Vec::with_capacity(wanted);
                self.st.excluded.clone_from(&barred);
                for k in 0..wanted {
                    let value =
                        self.aspiration(game, &mut ctx, depth as i32, previous.get(k).copied());
                    if ctx.stopped {
                        break;
                    }
                    let pv = self.st.pv.root_line();
                    let Some(first) = pv.first().copied().or(self.st.root_move) else {
                        break;
                    };
                    self.st.excluded.push(first);
                    lines.push(PvLine {
                        score: Score::from_value(value),
                        depth,
                        pv: if pv.is_empty() { vec![first] } else { pv },
                    });
                }
                self.st.excluded.clear();
                let complete = lines.len() == wanted;
                if !lines.is_empty() {
                    // A stopped iteration's finished lines (the best first)
                    // replace those of the iteration before; the rest are
                    // kept from it.
                    for old in std::mem::take(&mut result.lines) {
                        if lines.len() < wanted && lines.iter().all(|l| l.pv[0] != old.pv[0]) {
                            lines.push(old);
                        }
                    }
                    if complete {
                        // Stable: equal scores keep the order they were found in.
                        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
                    }
                    result.lines = lines;
                    let best = &result.lines[0];
                    result.best_move = Some(best.pv[0]);
                    result.score = best.score;
                    result.depth = best.depth;
                    result.seldepth = ctx.seldepth as u32;
                    result.pv = best.pv.clone();
                }
                if !complete {
                    break;
                }
                previous.clear();
                previous.extend(result.lines.iter().map(|l| l.score.value()));
                let time = start.elapsed();
                let all_nodes = ctx.reported_nodes();
                let several = wanted > 1;
                for (k, line) in result.lines.iter().enumerate() {
                    info(&SearchInfo {
                        depth,
                        seldepth: ctx.seldepth as u32,
                        multipv: several.then_some(k as u32 + 1),
                        score: line.score,
                        nodes: all_nodes,
                        nps: nps(all_nodes, time),
                        time,
                        pv: line.pv.clone(),
                        hashfull: self.tt.hashfull(),
                        tbhits: ctx.reported_tbhits(),
                    });
                }
                if iteration == self.floor_depth {
                    ctx.set_node_limit(node_limit);
                }
                if !ctx.horizon {
                    break; // every line reached the end of the game
                }
                if result.lines.iter().all(|l| proven_within(l.score, depth)) {
                    // Deeper iterations would repeat the same lines: a
                    // forced result this near is within the full-width
                    // part of the search.
                    break;
                }
                if !timer.next_iteration_fits(time, ctx.nodes) {
                    break;
                }
            }
            if result.best_move.is_none() {
                result.best_move = self
                    .st
                    .root_move
                    .filter(|m| root_moves.contains(m))
                    .or(root_moves.first().copied());
                result.pv = result.best_move.into_iter().collect();
            }
        }
        result.nodes = ctx.nodes;
        result.tbhits = ctx.tbhits;
        result.seldepth = result.seldepth.max(ctx.seldepth as u32);
        result
    }

    /// One iteration at `depth`, in a window around `previous` that widens
    /// until the value falls inside it.
    fn aspiration<E: Evaluator<G::Position>>(
        &mut self,
        game: &mut G,
        ctx: &mut Ctx<'_, E>,
        depth: i32,
        previous: Option<i32>,
    ) -> i32 {
        let first = self.params.aspiration_delta;
        let mut delta = first;
        let (mut alpha, mut beta) = match previous {
            Some(p) if self.options.aspiration && depth >= 2 && p.abs() < MATE_BOUND => {
                (p - delta, p + delta)
            }
            _ => (-INFINITY, INFINITY),
        };
        loop {
            let value = self.negamax(game, ctx, alpha, beta, depth, 0, false);
            if ctx.stopped {
                return value;
            }
            if value <= alpha && alpha > -INFINITY {
                alpha = value - delta;
                if alpha <= -MATE_BOUND || delta > 16 * first {
                    alpha = -INFINITY;
                }
            } else if value >= beta && beta < INFINITY {
                beta = value + delta;
                if beta >= MATE_BOUND || delta > 16 * first {
                    beta = INFINITY;
                }
            } else {
                return value;
            }
            delta *= 2;
        }
    }
}

/// Whether `score` is a win or loss whose end lies within `depth` plies.
fn proven_within(score: Score, depth: u32) -> bool {
    score
        .mate_plies()
        .is_some_and(|plies| plies.unsigned_abs() <= depth)
}
