//! Game review, as lichess does it: every position of a game searched at
//! one budget, each move's loss in winning chances from its mover's side,
//! the moves that lose the most marked (inaccuracy, mistake, blunder) with
//! the better move, and each side's accuracy.
//!
//! Winning chances are lichess's: `win% = 50 + 50·(2/(1 + exp(−0.00368208·cp))
//! − 1)` of an evaluation in centi-units, 100 for a forced win and 0 for
//! a forced loss. A move's loss is its mover's win% before it less after
//! it (never below 0); 10 or more is an inaccuracy, 20 a mistake, 30 a
//! blunder, unless the move played is the search's best. A move's
//! accuracy is `103.1668·exp(−0.04354·loss) − 3.1669` (0 to 100), and a
//! side's accuracy the mean of the arithmetic and harmonic means of its
//! moves' (lichess weighs the first by the game's volatility as well).
//!
//! ```
//! use qi_play::review::{review_record, Budget};
//!
//! let record = "[Game \"jungle\"]\n\na3a4 g7g6 *\n";
//! let review = review_record(record, Budget::Depth(2), &mut || false, &mut |_, _| false)
//!     .unwrap();
//! assert_eq!(review.moves.len(), 2);
//! assert_eq!(review.positions.len(), 3);
//! assert!(review.complete);
//! ```

use qi_search::Limits;
use qi_search::MATE_BOUND;
use serde::{Deserialize, Serialize};

use crate::game::{load_record, GameError, WebGame};

/// The budget of each position's search when none is given: enough for a
/// sound verdict on a move, and a 100-ply game in seconds (`docs/web.md`).
pub const DEFAULT_NODES: u64 = 200_000;

/// The largest node budget taken for one position.
pub const MAX_NODES: u64 = 100_000_000;

/// The deepest search taken for one position.
pub const MAX_DEPTH: u32 = 30;

/// How much each position is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Budget {
    /// At most this many nodes (the same verdicts on every machine).
    Nodes(u64),
    /// Iterations to this depth.
    Depth(u32),
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::Nodes(DEFAULT_NODES)
    }
}

impl Budget {
    /// This budget, or why not (0, or above [`MAX_NODES`] or
    /// [`MAX_DEPTH`]).
    pub fn checked(self) -> Result<Budget, ReviewError> {
        let ok = match self {
            Budget::Nodes(n) => (1..=MAX_NODES).contains(&n),
            Budget::Depth(d) => (1..=MAX_DEPTH).contains(&d),
        };
        if ok {
            Ok(self)
        } else {
            Err(ReviewError::Budget(self))
        }
    }

    fn limits(self) -> Limits {
        match self {
            Budget::Nodes(n) => Limits::nodes(n),
            Budget::Depth(d) => Limits::depth(d),
        }
    }
}

/// Why a game cannot be reviewed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    /// The record could not be read or replayed.
    #[error("{0}")]
    Game(#[from] GameError),
    /// A budget of nothing, or beyond the limits.
    #[error(
        "bad review budget {0:?}: nodes must be from 1 to {MAX_NODES}, depth from 1 to {MAX_DEPTH}"
    )]
    Budget(Budget),
}

/// How bad a move is, by its loss in winning chances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    /// A loss of 10 to 20.
    Inaccuracy,
    /// A loss of 20 to 30.
    Mistake,
    /// A loss of 30 or more.
    Blunder,
}

impl Judgement {
    /// The judgement of a loss of `loss` win%, if it is one.
    pub fn of(loss: f64) -> Option<Judgement> {
        if loss >= 30.0 {
            Some(Judgement::Blunder)
        } else if loss >= 20.0 {
            Some(Judgement::Mistake)
        } else if loss >= 10.0 {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }
}

/// The first side's winning chances, 0 to 100, of a score in the first
/// side's centi-units (a mate score: 100 or 0).
pub fn win_percent(score_first: i32) -> f64 {
    if score_first >= MATE_BOUND {
        100.0
    } else if score_first <= -MATE_BOUND {
        0.0
    } else {
        50.0 + 50.0 * (2.0 / (1.0 + (-0.003_682_08 * f64::from(score_first)).exp()) - 1.0)
    }
}

/// A move's accuracy, 0 to 100, from its loss in win%.
pub fn move_accuracy(loss: f64) -> f64 {
    (103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * loss).exp() - 3.166_924_740_191_411)
        .clamp(0.0, 100.0)
}

/// One position of the game, as searched.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionReview {
    /// Plies played to reach it (0: the first position).
    pub ply: usize,
    /// The score for the side to move (`cp 35`, `mate 3`), or the result
    /// (`1-0`) of a finished game.
    pub score: String,
    /// The score from the first side's point of view, in centi-units
    /// (mate scores are large).
    pub score_first: i32,
    /// The first side's winning chances, 0 to 100 (the graph over the game).
    pub win_first: f64,
    /// The search's best move, none once the game is over.
    pub best: Option<String>,
    /// The best line.
    pub pv: Vec<String>,
}

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveReview {
    /// The move's number in the line, from 1 (it leads to position `ply`).
    pub ply: usize,
    /// Who played it: `first` or `second`.
    pub side: &'static str,
    /// The move played.
    pub played: String,
    /// The search's best move in the position before it.
    pub best: Option<String>,
    /// The mover's winning chances before the move and after it.
    pub win_before: f64,
    /// The mover's winning chances after the move.
    pub win_after: f64,
    /// `win_before − win_after`, at least 0.
    pub loss: f64,
    /// The move's accuracy, 0 to 100.
    pub accuracy: f64,
    /// Inaccuracy, mistake or blunder; none for a good move or the best.
    pub judgement: Option<Judgement>,
}

/// One side's figures over the game.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SideReview {
    /// Its accuracy, 0 to 100 (none without a move reviewed).
    pub accuracy: Option<f64>,
    /// Its inaccuracies.
    pub inaccuracies: usize,
    /// Its mistakes.
    pub mistakes: usize,
    /// Its blunders.
    pub blunders: usize,
}

/// A game reviewed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Review {
    /// The game spec.
    pub spec: String,
    /// The budget of each search.
    pub budget: Budget,
    /// Each position searched, from the first (fewer when stopped).
    pub positions: Vec<PositionReview>,
    /// Each move whose positions before and after were both searched.
    pub moves: Vec<MoveReview>,
    /// The first side's figures and the second's.
    pub sides: [SideReview; 2],
    /// Nodes searched in all.
    pub nodes: u64,
    /// Whether every position was searched (false when stopped).
    pub complete: bool,
}

/// Reviews the game of `record` (`docs/records.md`) at `budget`.
/// `poll` is asked during each search whether to stop (a stop flag);
/// `progress(done, total)` is told after each position searched and
/// stops the review by returning `true`. A stopped review holds the
/// positions and moves done so far.
pub fn review_record(
    record: &str,
    budget: Budget,
    poll: &mut dyn FnMut() -> bool,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Review, ReviewError> {
    let budget = budget.checked()?;
    let mut game = load_record(record)?;
    Ok(review_game(game.as_mut(), budget, poll, progress))
}

/// Reviews the whole line of `game` (full strength, one line); the game
/// is left at the end of its line.
fn review_game(
    game: &mut dyn WebGame,
    budget: Budget,
    poll: &mut dyn FnMut() -> bool,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Review {
    // The game is shown at the end of its line: the moves, their movers
    // and the result (only the last position can be over).
    let end = game.view(false);
    let (moves, movers) = (end.moves, end.movers);
    let total = moves.len() + 1;
    let mut positions = Vec::with_capacity(total);
    let mut nodes = 0;
    let mut complete = true;
    for ply in 0..total {
        // The line is the game's own: every ply of it exists.
        if game.goto(ply).is_err() {
            complete = false;
            break;
        }
        let over = end.result.as_ref().filter(|_| ply == moves.len());
        let position = match over {
            Some(result) => {
                let score_first = match result.token.as_str() {
                    "1-0" => MATE_BOUND + 1,
                    "0-1" => -MATE_BOUND - 1,
                    _ => 0,
                };
                PositionReview {
                    ply,
                    score: result.token.clone(),
                    score_first,
                    win_first: win_percent(score_first),
                    best: None,
                    pv: Vec::new(),
                }
            }
            None => {
                let done = game.search_here(budget.limits(), poll, &mut |_| false);
                nodes += done.nodes;
                if done.stopped {
                    complete = false;
                    break;
                }
                let Some(line) = done.lines.into_iter().next() else {
                    complete = false;
                    break;
                };
                PositionReview {
                    ply,
                    score: line.score,
                    score_first: line.score_first,
                    win_first: win_percent(line.score_first),
                    best: done.best,
                    pv: line.pv,
                }
            }
        };
        positions.push(position);
        if progress(ply + 1, total) && ply + 1 < total {
            complete = false;
            break;
        }
    }
    let _ = game.goto(moves.len());
    let mut sides = [SideReview::default(), SideReview::default()];
    let mut accuracies: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let reviewed: Vec<MoveReview> = positions
        .windows(2)
        .zip(&moves)
        .zip(&movers)
        .map(|((pair, played), mover)| {
            let first = mover == "first";
            let mine = |p: &PositionReview| {
                if first {
                    p.win_first
                } else {
                    100.0 - p.win_first
                }
            };
            let (before, after) = (mine(&pair[0]), mine(&pair[1]));
            let loss = (before - after).max(0.0);
            let best = pair[0].best.clone();
            let judgement = if best.as_deref() == Some(played.as_str()) {
                None
            } else {
                Judgement::of(loss)
            };
            let side = &mut sides[usize::from(!first)];
            match judgement {
                Some(Judgement::Inaccuracy) => side.inaccuracies += 1,
                Some(Judgement::Mistake) => side.mistakes += 1,
                Some(Judgement::Blunder) => side.blunders += 1,
                None => {}
            }
            let accuracy = move_accuracy(loss);
            accuracies[usize::from(!first)].push(accuracy);
            MoveReview {
                ply: pair[1].ply,
                side: if first { "first" } else { "second" },
                played: played.clone(),
                best,
                win_before: before,
                win_after: after,
                loss,
                accuracy,
                judgement,
            }
        })
        .collect();
    for (side, list) in sides.iter_mut().zip(&accuracies) {
        side.accuracy = side_accuracy(list);
    }
    Review {
        spec: game.spec(),
        budget,
        positions,
        moves: reviewed,
        sides,
        nodes,
        complete,
    }
}

/// The mean of the arithmetic and the harmonic mean of `list` (a move of
/// accuracy 0 makes the harmonic mean 0).
fn side_accuracy(list: &[f64]) -> Option<f64> {
    if list.is_empty() {
        return None;
    }
    let n = list.len() as f64;
    let mean = list.iter().sum::<f64>() / n;
    let harmonic = if list.iter().any(|&a| a <= 0.0) {
        0.0
    } else {
        n / list.iter().map(|a| 1.0 / a).sum::<f64>()
    };
    Some((mean + harmonic) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Red (to move) can take the Blue Wolf standing in Red's trap beside
    /// Red's den with its Cat; any other move lets the Wolf into the den.
    const BLUNDER: &str =
        "[Game \"jungle\"]\n[Start \"l6/7/7/7/7/7/6E/7/1Cw4 w 0 1\"]\n\ng3g4 c1d1 0-1\n";

    #[test]
    fn the_move_that_lets_the_wolf_into_the_den_is_a_blunder_with_the_capture_better() {
        let mut seen = Vec::new();
        let review = review_record(
            BLUNDER,
            Budget::Depth(4),
            &mut || false,
            &mut |done, total| {
                seen.push((done, total));
                false
            },
        )
        .unwrap();
        assert!(review.complete);
        assert_eq!(seen, [(1, 3), (2, 3), (3, 3)]);
        assert_eq!(review.positions.len(), 3);
        assert_eq!(review.positions[2].score, "0-1");
        assert_eq!(review.positions[2].win_first, 0.0);
        let blunder = &review.moves[0];
        assert_eq!((blunder.side, blunder.played.as_str()), ("first", "g3g4"));
        assert_eq!(blunder.best.as_deref(), Some("b1c1"));
        assert_eq!(blunder.judgement, Some(Judgement::Blunder));
        assert_eq!(blunder.win_after, 0.0);
        assert!(blunder.loss >= 30.0, "{blunder:?}");
        // The Wolf's entry is the best move: no mark.
        let entry = &review.moves[1];
        assert_eq!(entry.best.as_deref(), Some("c1d1"));
        assert_eq!(entry.judgement, None);
        assert_eq!(entry.loss, 0.0);
        assert_eq!(review.sides[0].blunders, 1);
        assert_eq!(review.sides[1].blunders, 0);
        assert!(review.sides[0].accuracy.unwrap() < review.sides[1].accuracy.unwrap());
    }

    #[test]
    fn a_stop_ends_the_review_with_what_was_done() {
        let review = review_record(BLUNDER, Budget::Depth(3), &mut || false, &mut |done, _| {
            done == 1
        })
        .unwrap();
        assert!(!review.complete);
        assert_eq!(review.positions.len(), 1);
        assert!(review.moves.is_empty());
        // A stop flag raised during the search ends it too.
        let review = review_record(
            BLUNDER,
            Budget::Nodes(MAX_NODES),
            &mut || true,
            &mut |_, _| false,
        )
        .unwrap();
        assert!(!review.complete);
        assert!(review.positions.is_empty());
    }

    #[test]
    fn bad_budgets_and_records_are_refused() {
        for budget in [Budget::Nodes(0), Budget::Depth(0), Budget::Depth(31)] {
            let e = review_record(BLUNDER, budget, &mut || false, &mut |_, _| false).unwrap_err();
            assert_eq!(e, ReviewError::Budget(budget));
        }
        let e = review_record("1. a3a4 *", Budget::Depth(1), &mut || false, &mut |_, _| {
            false
        })
        .unwrap_err();
        assert!(matches!(e, ReviewError::Game(GameError::Record(_))), "{e}");
    }

    #[test]
    fn winning_chances_and_accuracy_follow_lichess() {
        assert_eq!(win_percent(0), 50.0);
        assert!((win_percent(100) - 59.1).abs() < 0.1);
        assert!((win_percent(-100) - 40.9).abs() < 0.1);
        assert_eq!(win_percent(MATE_BOUND), 100.0);
        assert_eq!(win_percent(-MATE_BOUND), 0.0);
        assert!((move_accuracy(0.0) - 100.0).abs() < 1e-3);
        assert_eq!(move_accuracy(100.0), 0.0);
        assert_eq!(Judgement::of(9.99), None);
        assert_eq!(Judgement::of(10.0), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of(20.0), Some(Judgement::Mistake));
        assert_eq!(Judgement::of(30.0), Some(Judgement::Blunder));
        assert_eq!(side_accuracy(&[]), None);
        assert_eq!(side_accuracy(&[100.0, 100.0]), Some(100.0));
        assert_eq!(side_accuracy(&[100.0, 0.0]), Some(25.0));
    }
}
