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
    ///
    /// ```
    /// use qi_core::{Game as _, Position as _};
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let game = Game::new(Jungle::default());
    /// assert_eq!(game.ply(), 0);
    /// assert_eq!(game.position(), &Jungle::default());
    /// ```
    fn new(position: Self::Position) -> Self;

    /// A game starting at `position` after `moves`, each checked for
    /// legality; the first illegal move is the error.
    ///
    /// ```
    /// use qi_core::{Game as _, Position as _};
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let moves = ["a3a4".parse().unwrap(), "g7g6".parse().unwrap()];
    /// let game = Game::from_moves(Jungle::default(), &moves).unwrap();
    /// assert_eq!(game.moves(), &moves);
    /// let illegal = ["a3a4".parse().unwrap(), "a4a5".parse().unwrap()]; // Blue is to move
    /// assert!(Game::from_moves(Jungle::default(), &illegal).is_err());
    /// ```
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
    ///
    /// ```
    /// use qi_core::{Game as _, Position as _};
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// game.play("a3a4".parse().unwrap()).unwrap();
    /// assert_eq!(game.position().to_string(), "l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 1 1");
    /// ```
    fn position(&self) -> &Self::Position;

    /// The position the game started from.
    ///
    /// ```
    /// use qi_core::{Game as _, Position as _};
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// game.play("a3a4".parse().unwrap()).unwrap();
    /// assert_eq!(game.start(), &Jungle::default());
    /// ```
    fn start(&self) -> &Self::Position;

    /// The moves played, in order (the record).
    ///
    /// ```
    /// use qi_core::{Game as _, Position as _};
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// game.play("a3a4".parse().unwrap()).unwrap();
    /// assert_eq!(game.moves(), &["a3a4".parse().unwrap()]);
    /// ```
    fn moves(&self) -> &[<Self::Position as Position>::Move];

    /// How many times the current position has occurred in this game, now
    /// included, as the game's repetition rule compares positions (1 where
    /// the rules do not count repetitions).
    ///
    /// ```
    /// use qi_core::{Game as _, Position as _};
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// for mv in ["a1b1", "a9b9", "b1a1", "b9a9"] {
    ///     game.play(mv.parse().unwrap()).unwrap();
    /// }
    /// assert_eq!(game.occurrences(), 2); // the start, for the second time
    /// ```
    fn occurrences(&self) -> usize;

    /// The result recorded from outside the rules, if any.
    ///
    /// ```
    /// use qi_core::{Game as _, Position as _};
    /// use qi_jungle::{Game, Jungle};
    ///
    /// use qi_core::{ExternalResult, Side};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// assert_eq!(game.external_result(), None);
    /// game.record(ExternalResult::Resignation(Side::First));
    /// assert_eq!(game.external_result(), Some(ExternalResult::Resignation(Side::First)));
    /// ```
    fn external_result(&self) -> Option<ExternalResult>;

    /// The moves legal now: the position's legal moves less those the
    /// history rules forbid (e.g. Jungle's anti-chase rules). Nothing once
    /// [`outcome`](Game::outcome) is decided.
    ///
    /// ```
    /// use qi_core::{Game as _, Position as _};
    /// use qi_jungle::{Game, Jungle};
    ///
    /// use qi_core::MoveList;
    ///
    /// let game = Game::new(Jungle::default());
    /// let mut moves = MoveList::new();
    /// game.generate_moves(&mut moves);
    /// assert_eq!(moves.len(), 24);
    /// ```
    fn generate_moves(&self, moves: &mut MoveList<<Self::Position as Position>::Move>);

    /// The legal moves now.
    ///
    /// ```
    /// use qi_core::{Game as _, Position as _};
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let game = Game::new(Jungle::default());
    /// assert_eq!(game.legal_moves(), game.position().legal_moves()); // no history yet
    /// ```
    fn legal_moves(&self) -> MoveList<<Self::Position as Position>::Move> {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves
    }

    /// Plays a move known to be legal now and records it.
    ///
    /// ```
    /// use qi_core::{Game as _, Position as _};
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// let mv = game.legal_moves()[0];
    /// game.play_unchecked(mv);
    /// assert_eq!(game.undo(), Some(mv));
    /// assert_eq!(game.position(), &Jungle::default());
    /// ```
    fn play_unchecked(&mut self, mv: <Self::Position as Position>::Move);

    /// Plays `mv` if it is legal now; otherwise explains why not and leaves
    /// the game unchanged.
    ///
    /// ```
    /// use qi_core::{Game as _, Position as _};
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// game.play("a3a4".parse().unwrap()).unwrap();
    /// let err = game.play("a4a5".parse().unwrap()).unwrap_err();
    /// assert!(err.to_string().starts_with("illegal move a4a5"));
    /// assert_eq!(game.ply(), 1);
    /// ```
    fn play(&mut self, mv: <Self::Position as Position>::Move) -> Result<(), IllegalMove>;

    /// Takes back the last move, returning it (`None` at the start of the
    /// record). Also clears a recorded external result.
    ///
    /// ```
    /// use qi_core::{Game as _, Position as _};
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// assert_eq!(game.undo(), None);
    /// game.play("a3a4".parse().unwrap()).unwrap();
    /// assert_eq!(game.undo(), Some("a3a4".parse().unwrap()));
    /// assert_eq!(game.ply(), 0);
    /// ```
    fn undo(&mut self) -> Option<<Self::Position as Position>::Move>;

    /// The outcome: a recorded external result, else the board's outcome,
    /// else a result of the history rules, else `None`.
    ///
    /// ```
    /// use qi_core::{Game as _, Position as _};
    /// use qi_jungle::{Game, Jungle};
    ///
    /// use qi_core::{ExternalResult, Outcome, Side, WinReason};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// assert_eq!(game.outcome(), None);
    /// game.record(ExternalResult::Resignation(Side::Second));
    /// assert_eq!(game.outcome(), Some(Outcome::win(Side::First, WinReason::Resignation)));
    /// ```
    fn outcome(&self) -> Option<Outcome>;

    /// [`outcome`](Game::outcome) and, when there is none, the legal moves
    /// appended to `moves` (nothing is appended when there is an outcome).
    ///
    /// A search needs both at almost every node, and in most games the two
    /// share work (deciding that the side to move has no legal move is
    /// generating its moves; Jungle's anti-chase rules filter the moves
    /// either way): games override this so that the work is done once.
    ///
    /// ```
    /// use qi_core::{Game as _, Position as _};
    /// use qi_jungle::{Game, Jungle};
    ///
    /// use qi_core::MoveList;
    ///
    /// let game = Game::new(Jungle::default());
    /// let mut moves = MoveList::new();
    /// assert_eq!(game.outcome_and_moves(&mut moves), None);
    /// assert_eq!(moves.len(), 24);
    /// ```
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
    ///
    /// ```
    /// use qi_core::{Game as _, Position as _};
    /// use qi_jungle::{Game, Jungle};
    ///
    /// use qi_core::ExternalResult;
    ///
    /// let mut game = Game::new(Jungle::default());
    /// game.record(ExternalResult::AgreedDraw);
    /// assert!(game.play("a3a4".parse().unwrap()).is_err());
    /// game.undo(); // clears the recorded result
    /// assert!(game.play("a3a4".parse().unwrap()).is_ok());
    /// ```
    fn record(&mut self, result: ExternalResult);

    /// The number of moves played so far.
    ///
    /// ```
    /// use qi_core::{Game as _, Position as _};
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// game.play("a3a4".parse().unwrap()).unwrap();
    /// assert_eq!(game.ply(), 1);
    /// ```
    fn ply(&self) -> usize;
}

/// A static evaluation of positions for search: a score in centi-units from
/// the point of view of the side to move (positive: good for it).
pub trait Evaluator<P: Position> {
    /// Scores `pos` for its side to move. Must be far below the search's
    /// mate scores in magnitude (|score| < 20 000). The search may ask
    /// about a finished position before it reads the outcome (and then
    /// discards the score), so any position must be scored without panic.
    ///
    /// ```
    /// use qi_core::{Evaluator, Position};
    /// use qi_jungle::Jungle;
    ///
    /// /// Mobility: the number of moves the side to move has.
    /// struct Mobility;
    /// impl Evaluator<Jungle> for Mobility {
    ///     fn evaluate(&self, pos: &Jungle) -> i32 {
    ///         pos.count_moves() as i32
    ///     }
    /// }
    /// assert_eq!(Mobility.evaluate(&Jungle::default()), 24);
    /// ```
    fn evaluate(&self, pos: &P) -> i32;
}
