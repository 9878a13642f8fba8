//! The game layer: a position and its history, with the draws of section 7
//! rule 3 and externally recorded results.

use qi_core::{
    DrawReason, ExternalResult, Game as GameTrait, History, IllegalMove, MoveList, Outcome,
    Position, Refusal,
};

use crate::point::Move;
use crate::position::FiveTigers;
use crate::rules::Rules;
use crate::setup::Phase;

/// A game of Five Tigers: the positions played so far (a stack, so
/// [`undo`](GameTrait::undo) is O(1)) and an optional external result.
///
/// Besides the board's own outcomes it declares the draws of section 7
/// rule 3: `no_capture_draw` plies of the movement phase without a removal
/// (counted by the position's quiet field, once no removal is owed), and the
/// third occurrence of a position, comparing every field of the position
/// text but the quiet count.
///
/// Two games are equal when they have the same start, moves and recorded
/// result; `Debug` shows those: `Game { start: FiveTigers(…), moves: [Move(c3)] }`.
///
/// ```
/// use qi_games::five_tigers::{FiveTigers, Game, Rules};
///
/// let mut game = Game::new(FiveTigers::new(Rules::ten()));
/// game.play("c3".parse()?)?;
/// assert_eq!(game, Game::from_moves(FiveTigers::new(Rules::ten()), &["c3".parse()?])?);
/// assert_eq!(game.rules(), &Rules::ten());
/// assert_eq!(
///     format!("{game:?}"),
///     "Game { start: FiveTigers(5/5/5/5/5 x place X:10,O:10 - x -,- 0 five-tigers:ten), moves: [Move(c3)] }"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Game {
    /// Each frame keeps the draw the history rules declare there, decided
    /// once when it is pushed.
    history: History<FiveTigers, Option<DrawReason>>,
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.history.debug_record("Game"), f)
    }
}

impl Default for Game {
    /// A game from the start position under the default rules.
    ///
    /// ```
    /// use qi_core::Game as _;
    /// use qi_five_tigers::{FiveTigers, Game, Rules};
    ///
    /// let game = Game::default();
    /// assert_eq!(game, Game::new(FiveTigers::new(Rules::shandong())));
    /// assert_eq!(game.position().to_string(), "5/5/5/5/5 x place X:13,O:13 - x -,- 0");
    /// ```
    fn default() -> Game {
        Game::new(FiveTigers::default())
    }
}

impl Game {
    /// A game starting from `pos` (with no earlier history).
    ///
    /// ```
    /// use qi_core::Game as _;
    /// use qi_five_tigers::{FiveTigers, Game};
    ///
    /// let game = Game::new(FiveTigers::default());
    /// assert_eq!(game.position(), &FiveTigers::default());
    /// assert!(game.moves().is_empty());
    /// assert_eq!(game.legal_moves().len(), 25);
    /// ```
    pub fn new(pos: FiveTigers) -> Game {
        let mut game = Game {
            history: History::new(pos, None),
        };
        game.settle();
        game
    }

    /// A game starting at `pos` after the checked moves `moves`; the first
    /// illegal move is the error.
    ///
    /// ```
    /// use qi_games::five_tigers::{FiveTigers, Game, Move};
    ///
    /// let moves: Vec<Move> = ["c3", "b2"].iter().map(|m| m.parse().unwrap()).collect();
    /// let game = Game::from_moves(FiveTigers::default(), &moves).unwrap();
    /// assert_eq!(game.moves(), &moves[..]);
    /// // C3 twice: the point is taken, the whole record is refused.
    /// let twice: Vec<Move> = ["c3", "c3"].iter().map(|m| m.parse().unwrap()).collect();
    /// assert!(Game::from_moves(FiveTigers::default(), &twice).is_err());
    /// ```
    pub fn from_moves(pos: FiveTigers, moves: &[Move]) -> Result<Game, IllegalMove> {
        GameTrait::from_moves(pos, moves)
    }

    /// The position now (see [`qi_core::Game::position`]).
    ///
    /// ```
    /// use qi_five_tigers::{FiveTigers, Game};
    ///
    /// let mut game = Game::default();
    /// game.play("c3".parse().unwrap()).unwrap();
    /// assert_eq!(game.position().hand(qi_core::Side::First), 12);
    /// ```
    pub fn position(&self) -> &FiveTigers {
        self.history.position()
    }

    /// Plays `mv` if it is legal now (see [`qi_core::Game::play`]); an
    /// illegal move is an error and changes nothing.
    ///
    /// ```
    /// use qi_five_tigers::Game;
    ///
    /// let mut game = Game::default();
    /// assert!(game.play("c3".parse().unwrap()).is_ok());
    /// assert!(game.play("c3".parse().unwrap()).is_err()); // taken
    /// assert_eq!(game.moves().len(), 1);
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        GameTrait::play(self, mv)
    }

    /// Takes back the last move and returns it (`None` at the start).
    ///
    /// ```
    /// use qi_five_tigers::Game;
    ///
    /// let mut game = Game::default();
    /// let c3 = "c3".parse().unwrap();
    /// game.play(c3).unwrap();
    /// assert_eq!(game.undo(), Some(c3));
    /// assert_eq!(game, Game::default());
    /// assert_eq!(game.undo(), None);
    /// ```
    pub fn undo(&mut self) -> Option<Move> {
        GameTrait::undo(self)
    }

    /// The outcome so far, the history rules' draws included (see
    /// [`qi_core::Game::outcome`]).
    ///
    /// ```
    /// use qi_five_tigers::Game;
    ///
    /// assert_eq!(Game::default().outcome(), None);
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        GameTrait::outcome(self)
    }

    /// The legal moves now (none once the game is over).
    ///
    /// ```
    /// use qi_five_tigers::Game;
    ///
    /// assert_eq!(Game::default().legal_moves().len(), 25);
    /// ```
    pub fn legal_moves(&self) -> MoveList<Move> {
        GameTrait::legal_moves(self)
    }

    /// The rules.
    ///
    /// ```
    /// use qi_five_tigers::{FiveTigers, Game, Rules};
    ///
    /// let game = Game::new(FiveTigers::new(Rules::ten()));
    /// assert_eq!(game.rules(), &Rules::ten());
    /// assert_eq!(game.rules().pieces_per_side, 10);
    /// ```
    pub fn rules(&self) -> &Rules {
        self.history.position().rules()
    }

    /// The position the game started from.
    ///
    /// ```
    /// use qi_core::Game as _;
    /// use qi_five_tigers::{FiveTigers, Game};
    ///
    /// let mut game = Game::default();
    /// game.play("c3".parse().unwrap()).unwrap();
    /// assert_eq!(game.start(), &FiveTigers::default());
    /// assert_eq!(game.position().to_string(), "5/5/2X2/5/5 o place X:12,O:13 - o -,- 0");
    /// ```
    pub fn start(&self) -> &FiveTigers {
        self.history.start()
    }

    /// The moves played, in order (the record).
    ///
    /// ```
    /// use qi_core::Game as _;
    /// use qi_five_tigers::{Game, Move};
    ///
    /// let mut game = Game::default();
    /// let (a, b): (Move, Move) = ("c3".parse().unwrap(), "b2".parse().unwrap());
    /// game.play(a).unwrap();
    /// game.play(b).unwrap();
    /// assert_eq!(game.moves(), &[a, b]);
    /// ```
    pub fn moves(&self) -> &[Move] {
        self.history.moves()
    }

    /// The positions of the game, the start first and the current last.
    ///
    /// ```
    /// use qi_core::Game as _;
    /// use qi_five_tigers::{FiveTigers, Game};
    ///
    /// let mut game = Game::default();
    /// game.play("c3".parse().unwrap()).unwrap();
    /// let positions: Vec<&FiveTigers> = game.positions().collect();
    /// assert_eq!(positions, [game.start(), game.position()]);
    /// ```
    pub fn positions(&self) -> impl Iterator<Item = &FiveTigers> + '_ {
        self.history.positions()
    }

    /// The external result recorded, if any.
    ///
    /// ```
    /// use qi_core::{DrawReason, ExternalResult, Game as _, Outcome};
    /// use qi_five_tigers::Game;
    ///
    /// let mut game = Game::default();
    /// assert_eq!(game.external_result(), None);
    /// game.record(ExternalResult::AgreedDraw);
    /// assert_eq!(game.external_result(), Some(ExternalResult::AgreedDraw));
    /// assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Agreed)));
    /// ```
    pub fn external_result(&self) -> Option<ExternalResult> {
        self.history.external_result()
    }

    /// How many times the current position has occurred (1 the first time).
    ///
    /// ```
    /// use qi_core::{DrawReason, Game as _, Outcome};
    /// use qi_five_tigers::{FiveTigers, Game, Rules};
    ///
    /// let text = "5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0";
    /// let mut game = Game::new(FiveTigers::from_text(text, Rules::shandong_shuttle()).unwrap());
    /// let moves = ["c3-c4", "a1-a2", "c4-c3", "a2-a1"].repeat(3);
    /// for mv in &moves[..8] {
    ///     game.play(mv.parse().unwrap()).unwrap();
    /// }
    /// // As after the first cycle (the previous steps count: the start had none).
    /// assert_eq!(game.occurrences(), 2);
    /// for mv in &moves[8..10] {
    ///     game.play(mv.parse().unwrap()).unwrap();
    /// }
    /// assert_eq!(game.occurrences(), 3);
    /// assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
    /// ```
    #[inline]
    pub fn occurrences(&self) -> usize {
        // Only positions since the last removal can be equal (a removal
        // changes the material for good); steps alternate sides, so the same
        // side is to move every second ply.
        let window = self.history.position().no_capture_plies() as usize;
        self.history.occurrences(window, same_but_quiet)
    }

    /// Decides the draw of the frame just pushed.
    #[inline]
    fn settle(&mut self) {
        let pos = self.history.position();
        let limit = pos.rules().no_capture_draw;
        let draw = if pos.phase() == Phase::Movement && pos.owed().is_empty() {
            if self.occurrences() >= 3 {
                Some(DrawReason::Repetition)
            } else if limit > 0 && pos.no_capture_plies() >= u32::from(limit) {
                Some(DrawReason::NoCapture)
            } else {
                None
            }
        } else {
            None
        };
        *self.history.extra_mut() = draw;
    }
}

fn same_but_quiet(a: &FiveTigers, b: &FiveTigers) -> bool {
    a.pieces(qi_core::Side::First) == b.pieces(qi_core::Side::First)
        && a.pieces(qi_core::Side::Second) == b.pieces(qi_core::Side::Second)
        && a.side_to_move() == b.side_to_move()
        && a.phase() == b.phase()
        && a.hand(qi_core::Side::First) == b.hand(qi_core::Side::First)
        && a.hand(qi_core::Side::Second) == b.hand(qi_core::Side::Second)
        && a.owed() == b.owed()
        && a.next() == b.next()
        && a.last_step(qi_core::Side::First) == b.last_step(qi_core::Side::First)
        && a.last_step(qi_core::Side::Second) == b.last_step(qi_core::Side::Second)
}

impl GameTrait for Game {
    type Position = FiveTigers;

    fn new(position: FiveTigers) -> Game {
        Game::new(position)
    }

    fn start(&self) -> &FiveTigers {
        Game::start(self)
    }

    fn moves(&self) -> &[Move] {
        Game::moves(self)
    }

    fn occurrences(&self) -> usize {
        Game::occurrences(self)
    }

    fn external_result(&self) -> Option<ExternalResult> {
        Game::external_result(self)
    }

    fn position(&self) -> &FiveTigers {
        Game::position(self)
    }

    fn generate_moves(&self, moves: &mut MoveList<Move>) {
        let _ = self.outcome_and_moves(moves);
    }

    fn play_unchecked(&mut self, mv: Move) {
        self.history.play_unchecked(mv, None);
        self.settle();
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if let Some(outcome) = self.outcome() {
            return Err(IllegalMove::new(
                mv,
                Refusal::GameOver {
                    outcome: outcome.to_string(),
                },
            ));
        }
        let mut pos = *self.history.position();
        pos.play(mv)?;
        self.history.push(mv, pos, None);
        self.settle();
        Ok(())
    }

    #[inline]
    fn undo(&mut self) -> Option<Move> {
        self.history.pop()
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.history.external_outcome() {
            return Some(outcome);
        }
        let frame = self.history.top();
        if let Some(outcome) = frame.position().outcome() {
            return Some(outcome);
        }
        frame.extra().map(Outcome::Draw)
    }

    /// As [`outcome`](GameTrait::outcome), with the board's outcome read
    /// from the moves generated: the board generates none exactly when a
    /// side is out of pieces, and in the movement phase with no removal
    /// owed when the side to move has no step, the board's two outcomes.
    fn outcome_and_moves(&self, moves: &mut MoveList<Move>) -> Option<Outcome> {
        if let Some(outcome) = self.history.external_outcome() {
            return Some(outcome);
        }
        let frame = self.history.top();
        let pos = frame.position();
        if let Some(draw) = *frame.extra() {
            return Some(pos.outcome().unwrap_or(Outcome::Draw(draw)));
        }
        let start = moves.len();
        pos.generate_moves(moves);
        if moves.len() == start {
            return pos.outcome();
        }
        None
    }

    fn record(&mut self, result: ExternalResult) {
        self.history.record(result);
    }

    fn ply(&self) -> usize {
        self.history.ply()
    }
}
