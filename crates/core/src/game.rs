//! The game layer: a position plus its history, where the rules that depend
//! on the record of the game live (repetition, move-count draws,
//! anti-chase), and results decided outside the rules are recorded.

use crate::error::IllegalMove;
use crate::outcome::{ExternalResult, Outcome};
use crate::position::{MoveList, Position};

/// A game in progress: the current position and everything that happened
/// before it. Search runs on this trait (make with [`play_unchecked`],
/// unmake with [`undo`]), so every history rule of the game is respected
/// inside the search too.
///
/// [`play_unchecked`]: Game::play_unchecked
/// [`undo`]: Game::undo
pub trait Game: Clone {
    /// The position type of this game.
    type Position: Position;

    /// A game starting at `position`, with no history before it.
    fn new(position: Self::Position) -> Self;

    /// A game starting at `position` after `moves`, each checked for
    /// legality; the first illegal move is the error.
    fn from_moves(
        position: Self::Position,
        moves: &[<Self::Position as Position>::Move],
    ) -> Result<Self, IllegalMove> {
        let mut game = Self::new(position);
        for &mv in moves {
            game.play(mv)?;
        }
        Ok(game)
    }

    /// The current position.
    fn position(&self) -> &Self::Position;

    /// The position the game started from.
    fn start(&self) -> &Self::Position;

    /// The moves played, in order (the record).
    fn moves(&self) -> &[<Self::Position as Position>::Move];

    /// How many times the current position has occurred in this game, now
    /// included, as the game's repetition rule compares positions (1 where
    /// the rules do not count repetitions).
    fn occurrences(&self) -> usize;

    /// The result recorded from outside the rules, if any.
    fn external_result(&self) -> Option<ExternalResult>;

    /// The moves legal now: the position's legal moves less those the
    /// history rules forbid (e.g. Jungle's anti-chase rules). Nothing once
    /// [`outcome`](Game::outcome) is decided.
    fn generate_moves(&self, moves: &mut MoveList<<Self::Position as Position>::Move>);

    /// The legal moves now.
    fn legal_moves(&self) -> MoveList<<Self::Position as Position>::Move> {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves
    }

    /// Plays a move known to be legal now and records it.
    fn play_unchecked(&mut self, mv: <Self::Position as Position>::Move);

    /// Plays `mv` if it is legal now; otherwise explains why not and leaves
    /// the game unchanged.
    fn play(&mut self, mv: <Self::Position as Position>::Move) -> Result<(), IllegalMove>;

    /// Takes back the last move, returning it (`None` at the start of the
    /// record). Also clears a recorded external result.
    fn undo(&mut self) -> Option<<Self::Position as Position>::Move>;

    /// The outcome: a recorded external result, else the board's outcome,
    /// else a result of the history rules, else `None`.
    fn outcome(&self) -> Option<Outcome>;

    /// [`outcome`](Game::outcome) and, when there is none, the legal moves
    /// appended to `moves` (nothing is appended when there is an outcome).
    ///
    /// A search needs both at almost every node, and in most games the two
    /// share work (deciding that the side to move has no legal move is
    /// generating its moves; Jungle's anti-chase rules filter the moves
    /// either way): games override this so that the work is done once.
    fn outcome_and_moves(
        &self,
        moves: &mut MoveList<<Self::Position as Position>::Move>,
    ) -> Option<Outcome> {
        let outcome = self.outcome();
        if outcome.is_none() {
            self.generate_moves(moves);
        }
        outcome
    }

    /// Records a result decided outside the rules (resignation, time,
    /// agreed draw). Later moves are refused until it is undone.
    fn record(&mut self, result: ExternalResult);

    /// The number of moves played so far.
    fn ply(&self) -> usize;
}

/// A static evaluation of positions for search: a score in centi-units from
/// the point of view of the side to move (positive: good for it).
pub trait Evaluator<P: Position> {
    /// Scores `pos` for its side to move. Must be far below the search's
    /// mate scores in magnitude (|score| < 20 000). The search may ask
    /// about a finished position before it reads the outcome (and then
    /// discards the score), so any position must be scored without panic.
    fn evaluate(&self, pos: &P) -> i32;
}
