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
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let pos = Jungle::new(Rules::standard());
    /// assert_eq!(pos.count_moves(), 24);
    /// ```
    fn new(rules: Self::Rules) -> Self;

    /// Reads position text (the game's `Display` form) under `rules`.
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/6l w 4 9", Rules::standard())?;
    /// assert_eq!(pos.to_string(), "7/3L3/7/7/7/7/7/7/6l w 4 9");
    /// assert!(Jungle::from_text("7/3L3/7", Rules::standard()).is_err());
    /// # Ok::<(), qi_jungle::JfenError>(())
    /// ```
    fn from_text(text: &str, rules: Self::Rules) -> Result<Self, Self::ParseError>;

    /// The rule set of this position.
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let pos = Jungle::new(Rules::datou());
    /// assert_eq!(pos.rules(), &Rules::datou());
    /// ```
    fn rules(&self) -> &Self::Rules;

    /// A dense index of `mv` below [`MOVE_INDEX_COUNT`](Position::MOVE_INDEX_COUNT),
    /// distinct for distinct moves, so that tables keyed by move (history
    /// heuristics) are arrays rather than hash maps.
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let pos = Jungle::default();
    /// let mut seen = vec![false; Jungle::MOVE_INDEX_COUNT];
    /// for mv in pos.legal_moves() {
    ///     let i = Jungle::move_index(mv);
    ///     assert!(!seen[i], "distinct moves have distinct indices");
    ///     seen[i] = true;
    /// }
    /// ```
    fn move_index(mv: Self::Move) -> usize;

    /// Plies since the last capture or removal (the counter of the
    /// move-count draw; 0 in games without one).
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/6l w 12 30", Rules::standard()).unwrap();
    /// assert_eq!(Position::no_capture_plies(&pos), 12);
    /// ```
    fn no_capture_plies(&self) -> u32;

    /// The side that decides the next move.
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// use qi_core::Side;
    ///
    /// let mut pos = Jungle::default();
    /// assert_eq!(pos.side_to_move(), Side::First);
    /// pos.play("a3a4".parse().unwrap()).unwrap();
    /// assert_eq!(pos.side_to_move(), Side::Second);
    /// ```
    fn side_to_move(&self) -> Side;

    /// Appends every legal move to `moves`. Nothing is generated in a
    /// finished position.
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// use qi_core::MoveList;
    ///
    /// let mut moves = MoveList::new();
    /// Jungle::default().generate_moves(&mut moves);
    /// assert_eq!(moves.len(), 24);
    /// ```
    fn generate_moves(&self, moves: &mut MoveList<Self::Move>);

    /// The legal moves.
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let moves = Jungle::default().legal_moves();
    /// assert!(moves.contains(&"a3a4".parse().unwrap()));
    /// assert!(!moves.contains(&"a3a5".parse().unwrap()));
    /// ```
    fn legal_moves(&self) -> MoveList<Self::Move> {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves
    }

    /// The number of legal moves. Games override this with a count that
    /// builds no list (perft's bulk counting at the last ply).
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// assert_eq!(Jungle::default().count_moves(), 24);
    /// ```
    fn count_moves(&self) -> usize {
        self.legal_moves().len()
    }

    /// Whether `mv` is legal here.
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let pos = Jungle::default();
    /// assert!(pos.is_legal("a3a4".parse().unwrap()));
    /// assert!(!pos.is_legal("a9a8".parse().unwrap())); // a Blue animal
    /// ```
    fn is_legal(&self, mv: Self::Move) -> bool {
        self.legal_moves().contains(&mv)
    }

    /// Plays a move known to be legal. Playing an illegal move leaves the
    /// position in an unspecified (but memory-safe) state.
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let mut pos = Jungle::default();
    /// for mv in ["a3a4", "g7g6"] {
    ///     let mv = mv.parse().unwrap();
    ///     assert!(pos.is_legal(mv));
    ///     pos.play_unchecked(mv);
    /// }
    /// assert_eq!(pos.to_string(), "l5t/1d3c1/r1p1w2/6e/7/E6/2W1P1R/1C3D1/T5L w 2 2");
    /// ```
    fn play_unchecked(&mut self, mv: Self::Move);

    /// Plays `mv` if it is legal; otherwise returns why not and leaves the
    /// position unchanged.
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let mut pos = Jungle::default();
    /// assert!(pos.play("a3a5".parse().unwrap()).is_err());
    /// assert_eq!(pos, Jungle::default()); // unchanged
    /// pos.play("a3a4".parse().unwrap()).unwrap();
    /// ```
    fn play(&mut self, mv: Self::Move) -> Result<(), IllegalMove> {
        if self.is_legal(mv) {
            self.play_unchecked(mv);
            Ok(())
        } else {
            Err(IllegalMove::new(mv, crate::Refusal::NotLegal))
        }
    }

    /// The outcome that the board alone decides, or `None` while the game
    /// goes on.
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// use qi_core::{Outcome, Side};
    ///
    /// let mut pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/6l w 0 1", Rules::standard()).unwrap();
    /// assert_eq!(pos.outcome(), None);
    /// pos.play("d8d9".parse().unwrap()).unwrap();
    /// assert_eq!(pos.outcome(), Some(Outcome::win(Side::First, qi_jungle::DEN_ENTERED)));
    /// ```
    fn outcome(&self) -> Option<Outcome>;

    /// Whether the board alone has ended the game.
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let mut pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/6l w 0 1", Rules::standard()).unwrap();
    /// pos.play("d8d9".parse().unwrap()).unwrap();
    /// assert!(pos.is_game_over());
    /// assert_eq!(pos.count_moves(), 0);
    /// ```
    fn is_game_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Whether `mv` changes the material balance (a capture or removal):
    /// search orders such moves first and extends quiescence with them.
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let pos = Jungle::from_text("7/7/7/7/7/7/7/l6/L5E w 0 1", Rules::standard()).unwrap();
    /// assert!(pos.is_capture("a1a2".parse().unwrap())); // Lion takes Lion
    /// assert!(!pos.is_capture("a1b1".parse().unwrap()));
    /// ```
    fn is_capture(&self, mv: Self::Move) -> bool;

    /// The incrementally updated Zobrist key.
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// // The same position reached by two move orders has the same key.
    /// let after = |moves: [&str; 4]| {
    ///     let mut pos = Jungle::default();
    ///     for mv in moves {
    ///         pos.play(mv.parse().unwrap()).unwrap();
    ///     }
    ///     pos
    /// };
    /// let a = after(["a3a4", "g7g6", "g3g4", "a7a6"]);
    /// let b = after(["g3g4", "a7a6", "a3a4", "g7g6"]);
    /// assert_eq!(a.zobrist(), b.zobrist());
    /// assert_ne!(a.zobrist(), Jungle::default().zobrist());
    /// ```
    fn zobrist(&self) -> u64;

    /// The Zobrist key computed from scratch; always equal to
    /// [`zobrist`](Position::zobrist) (checked by the conformance harness).
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let mut pos = Jungle::default();
    /// pos.play("a3a4".parse().unwrap()).unwrap();
    /// assert_eq!(pos.zobrist(), pos.zobrist_from_scratch());
    /// ```
    fn zobrist_from_scratch(&self) -> u64;

    /// Reads position text under the same rule set as `self`.
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let datou = Jungle::new(Rules::datou());
    /// let pos = datou.with_text("7/3L3/7/7/7/7/7/7/6l w 0 1").unwrap();
    /// assert_eq!(pos.rules(), &Rules::datou());
    /// ```
    fn with_text(&self, text: &str) -> Result<Self, Self::ParseError> {
        Self::from_text(text, self.rules().clone())
    }
}

/// Enumerates every move that could be written in this game, legal or not,
/// so that tests can check that moves not generated are refused.
pub trait MoveSpace: Position {
    /// Every syntactically possible move (the whole move space).
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// use qi_core::MoveSpace;
    ///
    /// let pos = Jungle::default();
    /// let space = pos.move_space();
    /// assert!(space.len() > pos.count_moves());
    /// assert!(pos.legal_moves().iter().all(|mv| space.contains(mv)));
    /// ```
    fn move_space(&self) -> Vec<Self::Move>;
}
