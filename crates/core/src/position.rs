//! The trait every game position implements.

use std::error::Error;
use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

use smallvec::SmallVec;

use crate::error::IllegalMove;
use crate::outcome::Outcome;
use crate::side::Side;

/// Moves a list holds without touching the heap. No position of Jungle
/// (at most 32 moves) or Five Tigers (at most 52) exceeds it.
pub const MOVE_LIST_CAPACITY: usize = 64;

/// A stack-allocated list of moves.
pub type MoveList<M> = SmallVec<[M; MOVE_LIST_CAPACITY]>;

/// A game position: everything needed to generate the legal moves and to
/// decide the outcome that the board alone decides.
///
/// Positions are small `Copy`-cheap values and are played by copy-make:
/// clone, then [`play_unchecked`](Position::play_unchecked). Rules that
/// depend on the game's history (repetition, move-count draws, anti-chase)
/// live in each game's game layer, not here.
///
/// Never assume that sides alternate: in Five Tigers a side owed several
/// removals moves several times running. Ask [`side_to_move`](Position::side_to_move).
pub trait Position: Clone + Eq + Debug + Display + Sized {
    /// The rule set (options and preset) a position is played under.
    type Rules: Clone + Debug + PartialEq;
    /// A move of this game. Its text form is context-free.
    type Move: Copy + Eq + Hash + Debug + Display + FromStr<Err: Error>;
    /// Why position text could not be read.
    type ParseError: Error;

    /// How many distinct values [`move_index`](Position::move_index) takes:
    /// every index is below this.
    const MOVE_INDEX_COUNT: usize;

    /// The start position under `rules`.
    fn new(rules: Self::Rules) -> Self;

    /// Reads position text (the game's `Display` form) under `rules`.
    fn from_text(text: &str, rules: &Self::Rules) -> Result<Self, Self::ParseError>;

    /// The rule set of this position.
    fn rules(&self) -> &Self::Rules;

    /// A dense index of `mv` below [`MOVE_INDEX_COUNT`](Position::MOVE_INDEX_COUNT),
    /// distinct for distinct moves, so that tables keyed by move (history
    /// heuristics) are arrays rather than hash maps.
    fn move_index(mv: Self::Move) -> usize;

    /// Plies since the last capture or removal (the counter of the
    /// move-count draw; 0 in games without one).
    fn no_capture_plies(&self) -> u32;

    /// The side that decides the next move.
    fn side_to_move(&self) -> Side;

    /// Appends every legal move to `moves`. Nothing is generated in a
    /// finished position.
    fn generate_moves(&self, moves: &mut MoveList<Self::Move>);

    /// The legal moves.
    fn legal_moves(&self) -> MoveList<Self::Move> {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves
    }

    /// The number of legal moves. Games override this with a count that
    /// builds no list (perft's bulk counting at the last ply).
    fn count_moves(&self) -> usize {
        self.legal_moves().len()
    }

    /// Whether `mv` is legal here.
    fn is_legal(&self, mv: Self::Move) -> bool {
        self.legal_moves().contains(&mv)
    }

    /// Plays a move known to be legal. Playing an illegal move leaves the
    /// position in an unspecified (but memory-safe) state.
    fn play_unchecked(&mut self, mv: Self::Move);

    /// Plays `mv` if it is legal; otherwise returns why not and leaves the
    /// position unchanged.
    fn play(&mut self, mv: Self::Move) -> Result<(), IllegalMove> {
        if self.is_legal(mv) {
            self.play_unchecked(mv);
            Ok(())
        } else {
            Err(IllegalMove::new(mv, "not a legal move in this position"))
        }
    }

    /// The outcome that the board alone decides, or `None` while the game
    /// goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// Whether the board alone has ended the game.
    fn is_game_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Whether `mv` changes the material balance (a capture or removal):
    /// search orders such moves first and extends quiescence with them.
    fn is_capture(&self, mv: Self::Move) -> bool;

    /// The incrementally updated Zobrist key.
    fn zobrist(&self) -> u64;

    /// The Zobrist key computed from scratch; always equal to
    /// [`zobrist`](Position::zobrist) (checked by the conformance harness).
    fn zobrist_from_scratch(&self) -> u64;

    /// Reads position text under the same rule set as `self`.
    fn with_text(&self, text: &str) -> Result<Self, Self::ParseError> {
        Self::from_text(text, self.rules())
    }
}

/// Enumerates every move that could be written in this game, legal or not,
/// so that tests can check that moves not generated are refused.
pub trait MoveSpace: Position {
    /// Every syntactically possible move (the whole move space).
    fn move_space(&self) -> Vec<Self::Move>;
}
