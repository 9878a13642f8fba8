//! The game layer: a position and its history, with the draws of section 7
//! rule 3 and externally recorded results.

use qi_core::{
    DrawReason, ExternalResult, Game as GameTrait, IllegalMove, MoveList, Outcome, Position,
};

use crate::point::Move;
use crate::position::FiveTigers;
use crate::rules::Rules;
use crate::setup::Phase;

#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    pos: FiveTigers,
    key: u64,
    /// The draw the history rules declare here, if any.
    draw: Option<DrawReason>,
}

/// A game of Five Tigers: the positions played so far (a stack, so
/// [`undo`](GameTrait::undo) is O(1)) and an optional external result.
///
/// Besides the board's own outcomes it declares the draws of section 7
/// rule 3: `no_capture_draw` plies of the movement phase without a removal
/// (counted by the position's quiet field, once no removal is owed), and the
/// third occurrence of a position, comparing every field of the position
/// text but the quiet count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    stack: Vec<Entry>,
    moves: Vec<Move>,
    result: Option<ExternalResult>,
}

impl Default for Game {
    /// A game from the start position under the default rules.
    fn default() -> Game {
        Game::new(FiveTigers::default())
    }
}

impl Game {
    /// A game starting from `pos` (with no earlier history).
    pub fn new(pos: FiveTigers) -> Game {
        let mut game = Game {
            stack: Vec::with_capacity(256),
            moves: Vec::with_capacity(256),
            result: None,
        };
        game.push(pos);
        game
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        self.current().pos.rules()
    }

    /// The position the game started from.
    pub fn start(&self) -> &FiveTigers {
        &self.stack[0].pos
    }

    /// The moves played, in order (the record).
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The positions of the game, the start first and the current last.
    pub fn positions(&self) -> impl Iterator<Item = &FiveTigers> + '_ {
        self.stack.iter().map(|e| &e.pos)
    }

    /// The external result recorded, if any.
    pub fn external_result(&self) -> Option<ExternalResult> {
        self.result
    }

    /// How many times the current position has occurred (1 the first time).
    pub fn occurrences(&self) -> usize {
        self.count_occurrences(self.stack.len() - 1)
    }

    #[inline]
    fn current(&self) -> &Entry {
        // The stack is never empty: it always holds the start position.
        &self.stack[self.stack.len() - 1]
    }

    fn count_occurrences(&self, at: usize) -> usize {
        let entry = &self.stack[at];
        let pos = &entry.pos;
        let window = (pos.no_capture_plies() as usize).min(at);
        let mut count = 1;
        // Only positions since the last removal can be equal (a removal
        // changes the material for good); steps alternate sides, so the same
        // side is to move every second ply.
        let mut i = at;
        while i >= 2 && at - (i - 2) <= window {
            i -= 2;
            let other = &self.stack[i];
            if other.key == entry.key && same_but_quiet(&other.pos, pos) {
                count += 1;
            }
        }
        count
    }

    fn push(&mut self, pos: FiveTigers) {
        let key = pos.zobrist();
        self.stack.push(Entry {
            pos,
            key,
            draw: None,
        });
        let at = self.stack.len() - 1;
        let pos = &self.stack[at].pos;
        let limit = pos.rules().no_capture_draw;
        let draw = if pos.phase() == Phase::Movement && pos.owed().is_empty() {
            if self.count_occurrences(at) >= 3 {
                Some(DrawReason::Repetition)
            } else if limit > 0 && pos.no_capture_plies() >= u32::from(limit) {
                Some(DrawReason::NoCapture)
            } else {
                None
            }
        } else {
            None
        };
        self.stack[at].draw = draw;
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
        &self.moves
    }

    fn occurrences(&self) -> usize {
        Game::occurrences(self)
    }

    fn external_result(&self) -> Option<ExternalResult> {
        self.result
    }

    fn position(&self) -> &FiveTigers {
        &self.current().pos
    }

    fn generate_moves(&self, moves: &mut MoveList<Move>) {
        if self.outcome().is_none() {
            self.current().pos.generate_moves(moves);
        }
    }

    fn play_unchecked(&mut self, mv: Move) {
        let mut pos = self.current().pos;
        pos.play_unchecked(mv);
        self.push(pos);
        self.moves.push(mv);
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if let Some(outcome) = self.outcome() {
            return Err(IllegalMove::new(
                mv,
                format!("the game is over ({outcome})"),
            ));
        }
        let mut pos = self.current().pos;
        pos.play(mv)?;
        self.push(pos);
        self.moves.push(mv);
        Ok(())
    }

    fn undo(&mut self) -> Option<Move> {
        self.result = None;
        if self.stack.len() > 1 {
            self.stack.pop();
            self.moves.pop()
        } else {
            None
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(result) = self.result {
            return Some(result.outcome());
        }
        let entry = self.current();
        if let Some(outcome) = entry.pos.outcome() {
            return Some(outcome);
        }
        entry.draw.map(Outcome::Draw)
    }

    fn record(&mut self, result: ExternalResult) {
        self.result = Some(result);
    }

    fn ply(&self) -> usize {
        self.stack.len() - 1
    }
}
