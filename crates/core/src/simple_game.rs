//! The game layer of a game without history rules, ready made for any
//! position.

use std::fmt;

use crate::error::{IllegalMove, Refusal};
use crate::game::Game;
use crate::history::History;
use crate::outcome::{ExternalResult, Outcome};
use crate::position::{MoveList, Position};

/// A [`Game`] over any [`Position`] whose rules never look at the history:
/// the outcome is the position's own (or a recorded external result), every
/// legal move of the position is legal in the game, and a position may
/// repeat any number of times ([`occurrences`](Game::occurrences) is
/// always 1).
///
/// A new game needs only its position type: `SimpleGame<MyPosition>` is
/// its game layer, with O(1) undo and passes for the search's null moves
/// ([`push_pass`](SimpleGame::push_pass)). A game with repetition or
/// move-count rules writes its own layer on [`History`], as Jungle's and
/// Five Tigers' do.
///
/// ```
/// use qi_games::base::SimpleGame;
/// use qi_games::prelude::*;
///
/// // Jungle's board rules without its history rules.
/// let mut game = SimpleGame::new(Jungle::default());
/// game.play("a3a4".parse()?)?;
/// assert_eq!(game.ply(), 1);
/// assert!(game.play("a4a5".parse()?).is_err()); // Blue is to move
/// assert_eq!(game.undo(), Some("a3a4".parse()?));
/// assert_eq!(game.position(), &Jungle::default());
/// assert_eq!(format!("{game:?}"), format!("SimpleGame {{ start: {:?}, moves: [] }}", Jungle::default()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct SimpleGame<P: Position> {
    history: History<P>,
}

impl<P: Position> SimpleGame<P> {
    /// A game starting at `position`, with no history before it.
    pub fn new(position: P) -> SimpleGame<P> {
        SimpleGame {
            history: History::new(position, ()),
        }
    }

    /// The stack of positions under the game, for rules written on top of
    /// it (a repetition rule reads its [`frames`](History::frames)).
    pub fn history(&self) -> &History<P> {
        &self.history
    }

    /// Replaces the position by `next` without a move (a pass: the search's
    /// null move). [`undo`](Game::undo) takes it back and returns `None`;
    /// the record ([`moves`](Game::moves)) never shows it.
    ///
    /// ```
    /// use qi_games::base::SimpleGame;
    /// use qi_games::prelude::*;
    ///
    /// let mut game = SimpleGame::new(Jungle::default());
    /// let after = Jungle::from_text("l5t/1d3c1/r1p1w1e/7/7/7/7/1C3D1/T5L b 0 1", jungle::Rules::standard())?;
    /// game.push_pass(after);
    /// assert_eq!(game.position(), &after);
    /// assert!(game.moves().is_empty());
    /// assert_eq!(game.undo(), None);
    /// assert_eq!(game.position(), &Jungle::default());
    /// # use qi_games::jungle;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn push_pass(&mut self, next: P) {
        self.history.push_pass(next, ());
    }
}

/// The start and the moves played: `SimpleGame { start: …, moves: […] }`.
impl<P: Position> fmt::Debug for SimpleGame<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.history.debug_record("SimpleGame"), f)
    }
}

impl<P: Position> Game for SimpleGame<P> {
    type Position = P;

    fn new(position: P) -> SimpleGame<P> {
        SimpleGame::new(position)
    }

    fn position(&self) -> &P {
        self.history.position()
    }

    fn start(&self) -> &P {
        self.history.start()
    }

    fn moves(&self) -> &[P::Move] {
        self.history.moves()
    }

    fn occurrences(&self) -> usize {
        1
    }

    fn external_result(&self) -> Option<ExternalResult> {
        self.history.external_result()
    }

    fn generate_moves(&self, moves: &mut MoveList<P::Move>) {
        // A finished position generates nothing (the trait's contract);
        // a recorded result ends the game too.
        if self.history.external_result().is_none() {
            self.position().generate_moves(moves);
        }
    }

    fn play_unchecked(&mut self, mv: P::Move) {
        self.history.play_unchecked(mv, ());
    }

    fn play(&mut self, mv: P::Move) -> Result<(), IllegalMove> {
        if let Some(outcome) = self.outcome() {
            return Err(IllegalMove::new(
                mv,
                Refusal::GameOver {
                    outcome: outcome.to_string(),
                },
            ));
        }
        if !self.position().is_legal(mv) {
            return Err(IllegalMove::new(mv, Refusal::NotLegal));
        }
        self.play_unchecked(mv);
        Ok(())
    }

    fn undo(&mut self) -> Option<P::Move> {
        self.history.pop()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.history
            .external_outcome()
            .or_else(|| self.position().outcome())
    }

    fn record(&mut self, result: ExternalResult) {
        self.history.record(result);
    }

    fn ply(&self) -> usize {
        self.history.ply()
    }
}
