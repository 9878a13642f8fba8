//! Plain minimax (negamax form) with no pruning at all: the slow, obviously
//! correct reference the alpha-beta search is tested against.
//!
//! Like the real search, it negates a child's value only when the side to
//! move changes, scores finished games with [`terminal_value`] (a win `n`
//! plies ahead is `MATE - n`), and scores positions without moves (but
//! with no outcome) and the horizon with the evaluator.

use qi_core::{Evaluator, Game, Position};

use crate::hooks::SearchHooks;
use crate::score::terminal_value;
use crate::score::Score;

/// The minimax value of `game`'s current position searched `depth` plies
/// deep, from the side to move's view. `game` is left as it was given.
///
/// ```
/// use std::sync::atomic::AtomicBool;
///
/// use qi_games::five_tigers::{Game, MaterialEvaluator};
/// use qi_games::prelude::*;
/// use qi_games::search::{reference::minimax, Score};
///
/// let mut game = Game::default();
/// // Depth 0 is the evaluation.
/// let eval = MaterialEvaluator.evaluate(game.position());
/// assert_eq!(minimax(&mut game, &MaterialEvaluator, 0), Score::from_value(eval));
/// // The search with every pruning off agrees at every depth.
/// let mut searcher: Searcher<Game> = Searcher::new(SearchOptions::exact(1));
/// let stop = AtomicBool::new(false);
/// let result = searcher.search(&mut game, &MaterialEvaluator, Limits::depth(2), &stop, |_| {});
/// assert_eq!(result.score, minimax(&mut game, &MaterialEvaluator, 2));
/// assert_eq!(game, Game::default());
/// ```
pub fn minimax<G, E>(game: &mut G, eval: &E, depth: u32) -> Score
where
    G: Game,
    E: Evaluator<G::Position>,
{
    Score::from_value(negamax(game, eval, None::<&crate::DefaultHooks>, depth, 0))
}

/// [`minimax`] whose horizon is a full-width quiescence search: the best of
/// standing pat (the evaluation) and every move `hooks` calls tactical,
/// searched the same way. This is the value the search with only
/// quiescence on returns.
///
/// ```
/// use qi_games::five_tigers::{Game, MaterialEvaluator};
/// use qi_games::prelude::*;
/// use qi_games::search::reference::{minimax, minimax_quiescence};
/// use qi_games::search::DefaultHooks;
///
/// // The default hooks call captures tactical, and no move from the start
/// // of Five Tigers makes one within two plies.
/// let mut game = Game::default();
/// let plain = minimax(&mut game, &MaterialEvaluator, 2);
/// assert_eq!(minimax_quiescence(&mut game, &MaterialEvaluator, &DefaultHooks, 2), plain);
/// ```
pub fn minimax_quiescence<G, E, H>(game: &mut G, eval: &E, hooks: &H, depth: u32) -> Score
where
    G: Game,
    E: Evaluator<G::Position>,
    H: SearchHooks<G>,
{
    Score::from_value(negamax(game, eval, Some(hooks), depth, 0))
}

fn negamax<G, E, H>(game: &mut G, eval: &E, hooks: Option<&H>, depth: u32, ply: usize) -> i32
where
    G: Game,
    E: Evaluator<G::Position>,
    H: SearchHooks<G>,
{
    let stm = game.position().side_to_move();
    if let Some(outcome) = game.outcome() {
        return terminal_value(outcome, stm, ply);
    }
    if depth == 0 {
        return match hooks {
            Some(h) => quiescence(game, eval, h, ply),
            None => eval.evaluate(game.position()),
        };
    }
    let moves = game.legal_moves();
    if moves.is_empty() {
        return eval.evaluate(game.position());
    }
    let mut best = i32::MIN;
    for mv in moves {
        game.play_unchecked(mv);
        let same = game.position().side_to_move() == stm;
        let value = negamax(game, eval, hooks, depth - 1, ply + 1);
        game.undo();
        best = best.max(if same { value } else { -value });
    }
    best
}

fn quiescence<G, E, H>(game: &mut G, eval: &E, hooks: &H, ply: usize) -> i32
where
    G: Game,
    E: Evaluator<G::Position>,
    H: SearchHooks<G>,
{
    let stm = game.position().side_to_move();
    if let Some(outcome) = game.outcome() {
        return terminal_value(outcome, stm, ply);
    }
    let mut best = eval.evaluate(game.position());
    for mv in game.legal_moves() {
        if !hooks.is_tactical(game, mv) {
            continue;
        }
        game.play_unchecked(mv);
        let same = game.position().side_to_move() == stm;
        let value = quiescence(game, eval, hooks, ply + 1);
        game.undo();
        best = best.max(if same { value } else { -value });
    }
    best
}
