//! The game layer: a position plus its history, where the rules that depend
//! on the record live (spec section 5, rules 4–7).

use std::fmt;

use qi_core::{
    DrawReason, ExternalResult, History, IllegalMove, MoveList, Outcome, Position, Refusal, Side,
    WinReason,
};

mod anti_chase;

pub use anti_chase::AntiChaseRule;
use anti_chase::Ply;

use crate::board::NONE;
use crate::moves::Move;
use crate::position::Jungle;
use crate::rules::{Repetition, Rules};
use crate::tables::{LAND_STEPS, RAT_STEPS};

/// What the game keeps for each position of its history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    /// How many times this position (board and side to move) has occurred
    /// in the game so far, this time included (1 when repetition is off):
    /// counted once when the position is pushed.
    occurrences: u8,
    /// The move that led here as the anti-chase rules see it.
    ply: Ply,
}

impl Entry {
    /// The start's entry, and a pass's: a first occurrence (no repetition
    /// is counted across a pass) that records no move.
    const FRESH: Entry = Entry {
        occurrences: 1,
        ply: Ply::NONE,
    };
}

/// A Jungle game: the position stack (copy-make, so [`undo`](qi_core::Game::undo)
/// is O(1)), the move record and a recorded external result, in a
/// [`History`]. Implements [`qi_core::Game`]: the no-capture draw, the
/// repetition rule and the 7-3 / 17-5 anti-chase rules of the position's
/// [`Rules`](crate::Rules).
///
/// Two games are equal when they have the same start, moves and recorded
/// result; `Debug` shows those: `Game { start: Jungle(…), moves: [Move(a3a4)] }`.
///
/// ```
/// use qi_games::jungle::{Game, Jungle, Rules};
///
/// let mut game = Game::new(Jungle::new(Rules::datou()));
/// game.play("a3a4".parse()?)?;
/// assert_eq!(game, Game::from_moves(Jungle::new(Rules::datou()), &["a3a4".parse()?])?);
/// assert_eq!(game.rules(), &Rules::datou());
/// assert_eq!(
///     format!("{game:?}"),
///     format!("Game {{ start: Jungle({} datou), moves: [Move(a3a4)] }}", qi_games::jungle::START_JFEN)
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Game {
    history: History<Jungle, Entry>,
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.history.debug_record("Game"), f)
    }
}

impl Default for Game {
    /// A game from the start position under the standard rules.
    ///
    /// ```
    /// use qi_jungle::{Game, Jungle};
    ///
    /// assert_eq!(Game::default().position(), &Jungle::default());
    /// assert_eq!(Game::default().legal_moves().len(), 24);
    /// ```
    fn default() -> Game {
        Game::new(Jungle::default())
    }
}

impl Game {
    /// A game starting at `position` (with no history before it).
    ///
    /// ```
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let game = Game::new(Jungle::default());
    /// assert_eq!(game.position(), &Jungle::default());
    /// assert!(game.moves().is_empty());
    /// assert_eq!(game.outcome(), None);
    /// ```
    pub fn new(position: Jungle) -> Game {
        Game {
            history: History::new(position, Entry::FRESH),
        }
    }

    /// A game starting at `position` after the checked moves `moves`.
    ///
    /// ```
    /// use qi_jungle::{Game, Jungle, Move};
    ///
    /// let moves: Vec<Move> = ["a3a4", "g7g6"].iter().map(|m| m.parse().unwrap()).collect();
    /// let game = Game::from_moves(Jungle::default(), &moves).unwrap();
    /// assert_eq!(game.moves(), &moves[..]);
    /// // A3a5 is no step: the whole record is refused.
    /// assert!(Game::from_moves(Jungle::default(), &["a3a5".parse().unwrap()]).is_err());
    /// ```
    pub fn from_moves(position: Jungle, moves: &[Move]) -> Result<Game, IllegalMove> {
        qi_core::Game::from_moves(position, moves)
    }

    /// The rules the game is played under (its position's).
    ///
    /// ```
    /// use qi_games::jungle::{Game, Jungle, Rules};
    ///
    /// let game = Game::new(Jungle::new(Rules::yeshou()));
    /// assert_eq!(game.rules(), &Rules::yeshou());
    /// ```
    pub fn rules(&self) -> &Rules {
        self.history.position().rules()
    }

    /// The current position.
    ///
    /// ```
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// game.play("a3a4".parse().unwrap()).unwrap();
    /// assert_eq!(
    ///     game.position().to_string(),
    ///     "l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 1 1"
    /// );
    /// ```
    #[inline(always)]
    pub fn position(&self) -> &Jungle {
        self.history.position()
    }

    /// The position the game started from.
    ///
    /// ```
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// game.play("a3a4".parse().unwrap()).unwrap();
    /// assert_eq!(game.start(), &Jungle::default());
    /// assert_ne!(game.position(), game.start());
    /// ```
    pub fn start(&self) -> &Jungle {
        self.history.start()
    }

    /// The moves played, in order (the record).
    ///
    /// ```
    /// use qi_jungle::{Game, Jungle, Move};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// let (a, b): (Move, Move) = ("a3a4".parse().unwrap(), "g7g6".parse().unwrap());
    /// game.play(a).unwrap();
    /// game.play(b).unwrap();
    /// assert_eq!(game.moves(), &[a, b]);
    /// ```
    pub fn moves(&self) -> &[Move] {
        self.history.moves()
    }

    /// The positions of the game, start first, current last.
    ///
    /// ```
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// game.play("a3a4".parse().unwrap()).unwrap();
    /// let positions: Vec<&Jungle> = game.positions().collect();
    /// assert_eq!(positions, [game.start(), game.position()]);
    /// ```
    pub fn positions(&self) -> impl Iterator<Item = &Jungle> + '_ {
        self.history.positions()
    }

    /// The recorded external result, if any.
    ///
    /// ```
    /// use qi_core::{ExternalResult, Game as _, Side};
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// assert_eq!(game.external_result(), None);
    /// game.record(ExternalResult::Resignation(Side::Second));
    /// assert_eq!(game.external_result(), Some(ExternalResult::Resignation(Side::Second)));
    /// assert_eq!(game.outcome().unwrap().winner(), Some(Side::First));
    /// ```
    pub fn external_result(&self) -> Option<ExternalResult> {
        self.history.external_result()
    }

    /// How many times the current position (board and side to move) has
    /// occurred in this game, now included. Always 1 when the repetition
    /// rule is off.
    ///
    /// ```
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// assert_eq!(game.occurrences(), 1);
    /// for mv in ["a3a4", "g7g6", "a4a3", "g6g7"] {
    ///     game.play(mv.parse().unwrap()).unwrap();
    /// }
    /// // The start's board again, with Red to move: its second occurrence.
    /// assert!(game.position().same_board(game.start()));
    /// assert_eq!(game.occurrences(), 2);
    /// ```
    pub fn occurrences(&self) -> usize {
        usize::from(self.history.extra().occurrences)
    }

    /// Takes back the last move (see [`qi_core::Game::undo`]).
    ///
    /// ```
    /// use qi_jungle::{Game, Jungle, Move};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// let mv: Move = "a3a4".parse().unwrap();
    /// game.play(mv).unwrap();
    /// assert_eq!(game.undo(), Some(mv));
    /// assert_eq!(game.position(), &Jungle::default());
    /// assert_eq!(game.undo(), None);
    /// ```
    pub fn undo(&mut self) -> Option<Move> {
        qi_core::Game::undo(self)
    }

    /// Plays `mv` if it is legal now (see [`qi_core::Game::play`]).
    ///
    /// ```
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// assert!(game.play("a3a4".parse().unwrap()).is_ok());
    /// // Blue is to move: Red's Elephant may not move again.
    /// assert!(game.play("a4a5".parse().unwrap()).is_err());
    /// assert_eq!(game.moves().len(), 1);
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        qi_core::Game::play(self, mv)
    }

    /// The outcome so far (see [`qi_core::Game::outcome`]).
    ///
    /// ```
    /// use qi_core::{Outcome, Side};
    /// use qi_jungle::{Game, Jungle, Rules, DEN_ENTERED};
    ///
    /// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/6l w 0 1", Rules::standard()).unwrap();
    /// let mut game = Game::new(pos);
    /// assert_eq!(game.outcome(), None);
    /// game.play("d8d9".parse().unwrap()).unwrap();
    /// assert_eq!(game.outcome(), Some(Outcome::win(Side::First, DEN_ENTERED)));
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        qi_core::Game::outcome(self)
    }

    /// The legal moves now (see [`qi_core::Game::legal_moves`]).
    ///
    /// ```
    /// use qi_jungle::{Game, Jungle, Move};
    ///
    /// let game = Game::new(Jungle::default());
    /// let moves = game.legal_moves();
    /// assert_eq!(moves.len(), 24);
    /// assert!(moves.contains(&"a3a4".parse::<Move>().unwrap()));
    /// ```
    pub fn legal_moves(&self) -> MoveList<Move> {
        qi_core::Game::legal_moves(self)
    }

    /// The result of the history rules (repetition, no-capture draw).
    fn history_outcome(&self) -> Option<Outcome> {
        let pos = self.history.position();
        let rules = pos.rules();
        if self.history.extra().occurrences >= 3 {
            match rules.repetition {
                Repetition::Off => {}
                Repetition::Draw => return Some(Outcome::Draw(DrawReason::Repetition)),
                Repetition::InitiatorLoses => {
                    // Only the side that began the cycle must vary: it is
                    // the one that moved from a position standing for the
                    // third time. The other side's move that completed
                    // that third occurrence is no fault of its own.
                    if self.moved_from_third_occurrence() {
                        return Some(Outcome::win(pos.side_to_move(), WinReason::Repetition));
                    }
                }
            }
        }
        if rules.no_capture_draw > 0 && pos.no_capture_plies() >= rules.no_capture_draw {
            return Some(Outcome::Draw(DrawReason::NoCapture));
        }
        None
    }

    /// Whether the last move was played from a position that had then
    /// occurred three times or more (a pass, or the start, never was).
    fn moved_from_third_occurrence(&self) -> bool {
        let frames = self.history.frames();
        frames.len() >= 2
            && !self.history.is_pass()
            && frames[frames.len() - 2].extra().occurrences >= 3
    }

    /// The occurrences of the position just pushed: one more than those of
    /// the last equal position since the last capture and the last pass
    /// (whose own count covers everything before it).
    fn count_occurrences(&self) -> u8 {
        let now = self.history.position();
        if now.rules().repetition == Repetition::Off {
            return 1;
        }
        let window = now.no_capture_plies() as usize;
        self.history
            .earlier(window)
            .find(|frame| frame.position().same_board(now))
            .map_or(1, |frame| frame.extra().occurrences.saturating_add(1))
    }
}

/// Whether the side to move in `pos` has a legal move, by a quick look
/// first (an own animal next to an empty square it may enter) and the
/// full count only when that finds none. Assumes the board is not
/// decided (no den entered, both sides have animals).
#[inline]
fn has_move(pos: &Jungle) -> bool {
    let side = pos.side_to_move();
    let s = side.index();
    let empty = !pos.occupied().0;
    let squares = pos.animal_squares(side);
    if squares[0] != NONE && RAT_STEPS[s][squares[0] as usize] & empty != 0 {
        return true;
    }
    for &sq in &squares[1..] {
        if LAND_STEPS[s][sq as usize] & empty != 0 {
            return true;
        }
    }
    pos.count_moves() != 0
}

/// Null moves for the search (null-move pruning): a pass that hands the
/// move to the opponent without changing the board.
impl Game {
    /// Makes the side to move pass: pushes a copy of the position with the
    /// other side to move (Zobrist side key toggled, counters kept). The
    /// move record and the anti-chase history are left alone, and
    /// repetitions are not counted across the pass. Undo it with
    /// [`undo_null`](Game::undo_null) before any other undo.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// game.play_null();
    /// assert_eq!(game.position().side_to_move(), Side::Second);
    /// assert!(game.moves().is_empty());
    /// game.undo_null();
    /// assert_eq!(game.position(), &Jungle::default());
    /// ```
    pub fn play_null(&mut self) {
        let next = self.history.position().passed();
        self.history.push_pass(next, Entry::FRESH);
    }

    /// Takes back a pass made by [`play_null`](Game::play_null) (does
    /// nothing if the last entry is not a pass).
    ///
    /// ```
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// game.play("a3a4".parse().unwrap()).unwrap();
    /// game.undo_null(); // not a pass: nothing happens
    /// assert_eq!(game.moves().len(), 1);
    /// game.play_null();
    /// game.undo_null();
    /// assert_eq!(game.position().to_string(), "l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 1 1");
    /// ```
    pub fn undo_null(&mut self) {
        self.history.pop_pass();
    }

    /// Whether the current position was reached by a pass.
    ///
    /// ```
    /// use qi_jungle::{Game, Jungle};
    ///
    /// let mut game = Game::new(Jungle::default());
    /// assert!(!game.is_null());
    /// game.play_null();
    /// assert!(game.is_null());
    /// ```
    pub fn is_null(&self) -> bool {
        self.history.is_pass()
    }
}

impl qi_core::Game for Game {
    type Position = Jungle;

    fn new(position: Jungle) -> Game {
        Game::new(position)
    }

    fn start(&self) -> &Jungle {
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

    #[inline(always)]
    fn position(&self) -> &Jungle {
        self.history.position()
    }

    fn generate_moves(&self, moves: &mut MoveList<Move>) {
        // The moves are generated only when nothing but the moves could
        // end the game, so this is the generator too.
        let _ = qi_core::Game::outcome_and_moves(self, moves);
    }

    fn play_unchecked(&mut self, mv: Move) {
        let pos = self.history.position();
        let animal = pos.animal_index_on(pos.side_to_move(), mv.from.index()) as u8;
        let ply = Ply {
            animal,
            to: mv.to.index(),
        };
        self.history.play_unchecked(
            mv,
            Entry {
                occurrences: 1,
                ply,
            },
        );
        let occurrences = self.count_occurrences();
        self.history.extra_mut().occurrences = occurrences;
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if let Some(outcome) = qi_core::Game::outcome(self) {
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
        match self.anti_chase_violation(mv) {
            Some(AntiChaseRule::SevenThree) => {
                Err(IllegalMove::new(mv, Refusal::AntiChase { rule: "7-3" }))
            }
            Some(AntiChaseRule::SeventeenFive) => {
                Err(IllegalMove::new(mv, Refusal::AntiChase { rule: "17-5" }))
            }
            None => {
                qi_core::Game::play_unchecked(self, mv);
                Ok(())
            }
        }
    }

    #[inline]
    fn undo(&mut self) -> Option<Move> {
        self.history.pop()
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.history.external_outcome() {
            return Some(outcome);
        }
        let pos = self.position();
        if pos.is_terminal_cheap() {
            return pos.outcome();
        }
        let side: Side = pos.side_to_move();
        if !has_move(pos) {
            return Some(Outcome::win(side.opponent(), WinReason::NoLegalMove));
        }
        if let Some(outcome) = self.history_outcome() {
            return Some(outcome);
        }
        if let Some(forbidden) = self.anti_chase() {
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            forbidden.retain(pos, &mut moves, 0);
            if moves.is_empty() {
                return Some(Outcome::win(side.opponent(), WinReason::NoLegalMove));
            }
        }
        None
    }

    /// As [`outcome`](qi_core::Game::outcome), with the moves generated
    /// and filtered by the anti-chase rules once: no move left, before or
    /// after the filter, is the loss `outcome` finds by counting.
    fn outcome_and_moves(&self, moves: &mut MoveList<Move>) -> Option<Outcome> {
        let pos = self.position();
        if self.history.external_result().is_some() || pos.is_terminal_cheap() {
            // Decided before any move counts.
            return qi_core::Game::outcome(self);
        }
        let no_move = || Outcome::win(pos.side_to_move().opponent(), WinReason::NoLegalMove);
        if let Some(outcome) = self.history_outcome() {
            // Having no move at all decides first (as in `outcome`).
            return Some(if has_move(pos) { outcome } else { no_move() });
        }
        let start = moves.len();
        pos.generate_moves(moves);
        if moves.len() > start {
            // Moves left and nothing forbidden: the game goes on.
            let forbidden = self.anti_chase()?;
            forbidden.retain(pos, moves, start);
            if moves.len() > start {
                return None;
            }
        }
        Some(no_move())
    }

    fn record(&mut self, result: ExternalResult) {
        self.history.record(result);
    }

    #[inline(always)]
    fn ply(&self) -> usize {
        self.history.ply()
    }
}
