//! The position: bitboard board representation, move generation, playing
//! moves and the outcome the board decides.

use std::fmt;

use qi_core::{Bitboard, MoveList, MoveSpace, Outcome, Position, RuleName, Side, WinReason};

use crate::board::{Animal, Piece, RankOrder, Square, ALL, DENS, LAND, NONE, TRAPS, WATER};
use crate::jfen::JfenError;
use crate::moves::Move;
use crate::rules::{JumpBlock, Rules, TrappedAttacks};

mod movegen;
mod setup;
mod unmoves;

#[cfg(doc)]
use crate::setup::ImpossiblePosition;
use crate::setup::{Setup, SetupError};
use crate::tables::{
    piece_key, JumpPair, JUMPS, JUMP_PAIRS, LANDINGS, LAND_STEPS, RAT_STEPS, SIDE_KEY, STEPS,
};
use movegen::{find, find_lane, ONES};

const RAT: usize = Animal::Rat as usize;
const CAT: usize = Animal::Cat as usize;
const DOG: usize = Animal::Dog as usize;
const WOLF: usize = Animal::Wolf as usize;
const LEOPARD: usize = Animal::Leopard as usize;
const TIGER: usize = Animal::Tiger as usize;
const LION: usize = Animal::Lion as usize;
const ELEPHANT: usize = Animal::Elephant as usize;

/// A Jungle position: where every animal stands, the side to move, the two
/// counters of JFEN and the rule set it is played under.
///
/// Small and `Copy` (72 bytes): play by copy-make. The board is kept as one
/// square per animal per side (63 = captured) plus one occupancy bitboard
/// per side; the Zobrist key is updated incrementally. The `Display` form
/// is JFEN (with the rules when they are not the standard ones); `FromStr`
/// reads it back and [`Jungle::from_text`] reads JFEN under rules given
/// apart. `Debug` is the text too: `Jungle(l5t/…)`.
///
/// ```
/// use qi_games::prelude::*;
/// use qi_games::jungle::START_JFEN;
///
/// let pos = Jungle::default();
/// assert_eq!(format!("{pos:?}"), format!("Jungle({START_JFEN})"));
/// assert_eq!(pos.to_string().parse::<Jungle>()?, pos);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Jungle {
    /// Square of each animal of each side, `NONE` when captured.
    squares: [[u8; 8]; 2],
    /// Occupied squares of each side.
    occ: [u64; 2],
    hash: u64,
    no_capture: u32,
    fullmove: u32,
    rules: Rules,
    side: Side,
}

/// The win of an animal entering the enemy den: Jungle's own winning rule,
/// as its outcomes name it.
pub const DEN_ENTERED: WinReason = WinReason::Rule(RuleName::new("den entered"));

/// The start position (spec section 2), Red to move.
pub const START_JFEN: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1";

/// The start squares, Rat first: Red g3 b2 f2 c3 e3 a1 g1 a3, Blue a7 f8
/// b8 e7 c7 g9 a9 g7.
const START_SQUARES: [[u8; 8]; 2] = [
    [20, 8, 12, 16, 18, 0, 6, 14],
    [42, 54, 50, 46, 44, 62, 56, 48],
];

impl Jungle {
    /// The start position under `rules`.
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let pos = Jungle::new(Rules::yeshou());
    /// assert_eq!(pos.count_moves(), 24);
    /// assert_eq!(pos.to_string(), format!("{} yeshou", qi_jungle::START_JFEN));
    /// ```
    pub fn new(rules: Rules) -> Jungle {
        Jungle::from_parts(START_SQUARES, Side::First, 0, 1, rules)
    }

    /// The position a setup describes, if it is valid and a game can reach
    /// it (see [`SetupError`] for what is checked).
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Animal, Jungle, Piece, Rules, Setup};
    ///
    /// let sq = |t: &str| t.parse().unwrap();
    /// let setup = Setup::empty()
    ///     .place(sq("d8"), Piece::new(Side::First, Animal::Dog))
    ///     .place(sq("g1"), Piece::new(Side::Second, Animal::Cat));
    /// assert!(Jungle::from_setup(setup, Rules::standard()).is_ok());
    /// assert!(Jungle::from_setup(Setup::empty(), Rules::standard()).is_err()); // an empty board
    /// ```
    pub fn from_setup(setup: Setup, rules: Rules) -> Result<Jungle, SetupError> {
        Jungle::checked_setup(setup, rules, true)
    }

    /// The position a setup describes, if it is valid, reachable in a game
    /// or not (see [`Setup::into_position_lenient`]).
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Animal, Jungle, Piece, Rules, Setup};
    ///
    /// let sq = |t: &str| t.parse().unwrap();
    /// // Red to move with its Dog already in the Blue den: no game gets here.
    /// let setup = Setup::empty()
    ///     .place(sq("d9"), Piece::new(Side::First, Animal::Dog))
    ///     .place(sq("g1"), Piece::new(Side::Second, Animal::Cat));
    /// assert!(Jungle::from_setup(setup, Rules::standard()).is_err());
    /// assert!(Jungle::from_setup_lenient(setup, Rules::standard()).is_ok());
    /// ```
    pub fn from_setup_lenient(setup: Setup, rules: Rules) -> Result<Jungle, SetupError> {
        Jungle::checked_setup(setup, rules, false)
    }

    /// The position with each animal of each side on its square of
    /// `squares` (indexed as [`Animal::index`], `None` for an animal not
    /// on the board), `side` to move, counters 0 and 1, if the board can
    /// hold it (the board checks of [`Jungle::from_setup_lenient`], and
    /// no two animals on one square); `None` if not. The way in of a
    /// caller that has squares, not a board (a tablebase's index): no
    /// [`Setup`] is built and scanned.
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Animal, Jungle, Rules, Square};
    ///
    /// let sq = |t: &str| Some(t.parse::<Square>().unwrap());
    /// let mut squares = [[None; 8]; 2];
    /// squares[0][Animal::Lion.index()] = sq("a1");
    /// squares[1][Animal::Rat.index()] = sq("g9");
    /// let pos = Jungle::from_squares(squares, Side::Second, Rules::standard()).unwrap();
    /// assert_eq!(pos, Jungle::from_text("6r/7/7/7/7/7/7/7/L6 b 0 1", Rules::standard()).unwrap());
    /// squares[1][Animal::Cat.index()] = sq("a1"); // on the Lion's square
    /// assert_eq!(Jungle::from_squares(squares, Side::First, Rules::standard()), None);
    /// squares[1][Animal::Cat.index()] = sq("b4"); // in water
    /// assert_eq!(Jungle::from_squares(squares, Side::First, Rules::standard()), None);
    /// ```
    pub fn from_squares(
        squares: [[Option<Square>; 8]; 2],
        side: Side,
        rules: Rules,
    ) -> Option<Jungle> {
        // One pass, the occupancy and the key built as the squares are
        // checked (what `from_parts` computes in two more): a generator
        // builds a position per index.
        let mut pos = Jungle {
            squares: [[NONE; 8]; 2],
            occ: [0; 2],
            hash: if side == Side::Second { SIDE_KEY } else { 0 },
            no_capture: 0,
            fullmove: 1,
            rules,
            side,
        };
        for (s, side_squares) in squares.iter().enumerate() {
            for (a, square) in side_squares.iter().enumerate() {
                let Some(square) = *square else { continue };
                let piece = Piece::new(Side::BOTH[s], Animal::ALL[a]);
                if (pos.occ[0] | pos.occ[1]) & square.bit() != 0
                    || crate::setup::may_stand(piece, square).is_err()
                {
                    return None;
                }
                pos.occ[s] |= square.bit();
                pos.squares[s][a] = square.index();
                pos.hash ^= piece_key(s * 8 + a, square.index());
            }
        }
        Some(pos)
    }

    fn checked_setup(setup: Setup, rules: Rules, reachable: bool) -> Result<Jungle, SetupError> {
        let squares = setup.validate(reachable)?;
        Ok(Jungle::from_parts(
            squares,
            setup.side_to_move,
            setup.no_capture_plies,
            setup.fullmove,
            rules,
        ))
    }

    /// The plain contents of the position (everything but the rules).
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Animal, Jungle, Piece, Rules};
    ///
    /// let sq = |t: &str| t.parse().unwrap();
    /// let setup = Jungle::default().to_setup();
    /// assert_eq!(setup.piece_at(sq("a1")), Some(Piece::new(Side::First, Animal::Tiger)));
    /// assert_eq!(setup.into_position(Rules::standard()).unwrap(), Jungle::default());
    /// ```
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty()
            .side_to_move(self.side)
            .no_capture_plies(self.no_capture)
            .fullmove(self.fullmove);
        for side in Side::BOTH {
            for (animal, sq) in self.pieces(side) {
                setup = setup.place(sq, Piece::new(side, animal));
            }
        }
        setup
    }

    /// The same board and counters with the other side to move: a null
    /// move for the search.
    pub(crate) fn passed(&self) -> Jungle {
        Jungle {
            side: self.side.opponent(),
            hash: self.hash ^ SIDE_KEY,
            ..*self
        }
    }

    /// Builds a position from checked parts, computing the derived fields.
    fn from_parts(
        squares: [[u8; 8]; 2],
        side: Side,
        no_capture: u32,
        fullmove: u32,
        rules: Rules,
    ) -> Jungle {
        let mut occ = [0u64; 2];
        for s in 0..2 {
            for &sq in &squares[s] {
                if sq != NONE {
                    occ[s] |= 1u64 << sq;
                }
            }
        }
        let mut pos = Jungle {
            squares,
            occ,
            hash: 0,
            no_capture,
            fullmove,
            rules,
            side,
        };
        pos.hash = pos.zobrist_from_scratch();
        pos
    }

    /// The rule set.
    ///
    /// ```
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// assert_eq!(Jungle::new(Rules::traditional()).rules(), &Rules::traditional());
    /// ```
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Plies since the last capture (JFEN's fourth field).
    ///
    /// ```
    /// use qi_core::Position as _;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let mut pos = Jungle::default();
    /// pos.play("a3a4".parse().unwrap()).unwrap();
    /// assert_eq!(pos.no_capture_plies(), 1);
    /// ```
    pub fn no_capture_plies(&self) -> u32 {
        self.no_capture
    }

    /// The full-move number (starts at 1, grows after each Blue move).
    ///
    /// ```
    /// use qi_core::Position as _;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let mut pos = Jungle::default();
    /// pos.play("a3a4".parse().unwrap()).unwrap();
    /// assert_eq!(pos.fullmove(), 1);
    /// pos.play("g7g6".parse().unwrap()).unwrap(); // Blue's move ends the full move
    /// assert_eq!(pos.fullmove(), 2);
    /// ```
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// The animal on `sq`, if any.
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Animal, Jungle, Piece, Rules};
    ///
    /// let sq = |t: &str| t.parse().unwrap();
    /// let pos = Jungle::default();
    /// assert_eq!(pos.piece_at(sq("g1")), Some(Piece::new(Side::First, Animal::Lion)));
    /// assert_eq!(pos.piece_at(sq("d5")), None);
    /// ```
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let bit = sq.bit();
        for side in Side::BOTH {
            if self.occ[side.index()] & bit != 0 {
                let a = find(&self.squares[side.index()], sq.index());
                return Some(Piece::new(side, Animal::ALL[a]));
            }
        }
        None
    }

    /// The square of an animal, `None` once it has been captured.
    #[inline(always)]
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Animal, Jungle, Piece, Rules};
    ///
    /// let pos = Jungle::default();
    /// let lion = Piece::new(Side::Second, Animal::Lion);
    /// assert_eq!(pos.square_of(lion), Some("a9".parse().unwrap()));
    /// ```
    pub fn square_of(&self, piece: Piece) -> Option<Square> {
        Square::new(self.squares[piece.side.index()][piece.animal.index()])
    }

    /// The square index (0..63) of each animal of `side`, Rat first;
    /// 63 for a captured animal.
    #[inline(always)]
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Animal, Jungle, Piece, Rules};
    ///
    /// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/6l w 0 1", Rules::standard()).unwrap();
    /// let squares = pos.animal_squares(Side::First);
    /// assert_eq!(squares[Animal::Lion.index()], 7 * 7 + 3); // d8
    /// assert_eq!(squares[Animal::Rat.index()], 63); // no Rat
    /// ```
    pub fn animal_squares(&self, side: Side) -> [u8; 8] {
        self.squares[side.index()]
    }

    /// The squares held by `side`.
    #[inline(always)]
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let red = Jungle::default().occupancy(Side::First);
    /// assert_eq!(red.count(), 8);
    /// assert!(red.contains(0)); // a1, the Tiger
    /// ```
    pub fn occupancy(&self, side: Side) -> Bitboard {
        Bitboard(self.occ[side.index()])
    }

    /// The squares held by either side.
    #[inline(always)]
    ///
    /// ```
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// assert_eq!(Jungle::default().occupied().count(), 16);
    /// ```
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.occ[0] | self.occ[1])
    }

    /// The animals of `side` still on the board with their squares, Rat first.
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Animal, Jungle, Piece, Rules};
    ///
    /// let pos = Jungle::default();
    /// let first = pos.pieces(Side::First).next();
    /// assert_eq!(first, Some((Animal::Rat, "g3".parse().unwrap())));
    /// assert_eq!(pos.pieces(Side::Second).count(), 8);
    /// ```
    pub fn pieces(&self, side: Side) -> impl Iterator<Item = (Animal, Square)> + '_ {
        self.squares[side.index()]
            .iter()
            .enumerate()
            .filter_map(|(a, &sq)| Some((Animal::ALL[a], Square::new(sq)?)))
    }

    /// The number of animals `side` has left.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let mut pos = Jungle::from_text("7/7/7/7/7/7/7/l6/L5E w 0 1", Rules::standard()).unwrap();
    /// assert_eq!(pos.animal_count(Side::Second), 1);
    /// pos.play("a1a2".parse().unwrap()).unwrap(); // Lion takes Lion
    /// assert_eq!(pos.animal_count(Side::Second), 0);
    /// ```
    pub fn animal_count(&self, side: Side) -> u32 {
        self.occ[side.index()].count_ones()
    }

    /// Whether the board alone has ended the game by a den entry or a side
    /// without animals (cheap; the no-legal-move loss is not checked).
    #[inline(always)]
    ///
    /// ```
    /// use qi_core::Position as _;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let mut pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/6l w 0 1", Rules::standard()).unwrap();
    /// assert!(!pos.is_terminal_cheap());
    /// pos.play("d8d9".parse().unwrap()).unwrap(); // the den
    /// assert!(pos.is_terminal_cheap());
    /// ```
    pub fn is_terminal_cheap(&self) -> bool {
        (self.occ[0] & DENS[1]) | (self.occ[1] & DENS[0]) != 0
            || self.occ[0] == 0
            || self.occ[1] == 0
    }

    /// Same animals on the same squares and same side to move (counters and
    /// rules ignored): the repetition rule's notion of "the same position".
    #[inline(always)]
    ///
    /// ```
    /// use qi_core::Position as _;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let mut pos = Jungle::default();
    /// for mv in ["a1b1", "a9b9", "b1a1", "b9a9"] {
    ///     pos.play(mv.parse().unwrap()).unwrap();
    /// }
    /// assert!(pos.same_board(&Jungle::default()));
    /// assert_ne!(pos, Jungle::default()); // the counters differ
    /// ```
    pub fn same_board(&self, other: &Jungle) -> bool {
        self.hash == other.hash && self.squares == other.squares && self.side == other.side
    }

    #[inline(always)]
    fn side_index(&self) -> usize {
        self.side.index()
    }
}

impl Default for Jungle {
    /// The standard start position.
    fn default() -> Jungle {
        Jungle::new(Rules::standard())
    }
}

impl Position for Jungle {
    type Rules = Rules;
    type Move = Move;
    type ParseError = JfenError;

    /// `from * 63 + to`.
    const MOVE_INDEX_COUNT: usize = 63 * 63;

    fn new(rules: Rules) -> Jungle {
        Jungle::new(rules)
    }

    fn from_text(text: &str, rules: Rules) -> Result<Jungle, JfenError> {
        Jungle::from_text(text, rules)
    }

    fn rules(&self) -> &Rules {
        &self.rules
    }

    #[inline(always)]
    fn move_index(mv: Move) -> usize {
        usize::from(mv.from.index()) * 63 + usize::from(mv.to.index())
    }

    fn no_capture_plies(&self) -> u32 {
        self.no_capture
    }

    #[inline(always)]
    fn side_to_move(&self) -> Side {
        self.side
    }

    #[inline(always)]
    fn generate_moves(&self, moves: &mut MoveList<Move>) {
        if self.is_terminal_cheap() {
            return;
        }
        let dests = self.destination_bits(self.side);
        let sq = &self.squares[self.side_index()];
        // Each animal has at most 4 destinations (one per direction: a step
        // or, where the neighbour is water, a jump), so 32 moves at most.
        // Filling a local array and appending it in one copy is cheaper than
        // pushing one by one.
        let mut buf = [Move::new(
            Square::from_index_unchecked(0),
            Square::from_index_unchecked(0),
        ); 32];
        let mut n = 0;
        for (a, &d) in dests.iter().enumerate() {
            let mut d = d;
            let from = Square::from_index_unchecked(sq[a]);
            while d != 0 {
                let to = d.trailing_zeros() as u8;
                d &= d - 1;
                buf[n] = Move::new(from, Square::from_index_unchecked(to));
                n += 1;
            }
        }
        moves.extend_from_slice(&buf[..n]);
    }

    #[inline(always)]
    fn count_moves(&self) -> usize {
        if self.is_terminal_cheap() {
            return 0;
        }
        if self.has_disarmed(self.side) {
            return Jungle::count_disarmed(self.squares, self.occ, self.rules, self.side);
        }
        self.board_destination_bits(self.side)
            .iter()
            .map(|m| m.count_ones() as usize)
            .sum()
    }

    fn is_legal(&self, mv: Move) -> bool {
        let s = self.side_index();
        if self.is_terminal_cheap() || self.occ[s] & mv.from.bit() == 0 {
            return false;
        }
        let a = find(&self.squares[s], mv.from.index());
        // Onto an empty square the animal's reach decides (every quiet
        // un-move of a tablebase generator asks this); a capture needs
        // the capture rules of the whole destination masks.
        if (self.occ[0] | self.occ[1]) & mv.to.bit() == 0 {
            return self.reach(s, a) & mv.to.bit() != 0;
        }
        self.destination_bits(self.side)[a] & mv.to.bit() != 0
    }

    #[inline(always)]
    fn play_unchecked(&mut self, mv: Move) {
        let s = self.side_index();
        let e = s ^ 1;
        let from = mv.from.index();
        let to = mv.to.index();
        // The squares of a side are updated as one 64-bit word: the byte
        // of the moving animal is found with the SWAR scan of `find` and
        // rewritten by XOR, with no store to a computed address (which the
        // move counting that follows would otherwise wait for).
        let (a, lane) = find_lane(&self.squares[s], from);
        let to_bit = 1u64 << to;
        if self.occ[e] & to_bit != 0 {
            let (d, lane_e) = find_lane(&self.squares[e], to);
            let word = u64::from_le_bytes(self.squares[e]) ^ (lane_e & (ONES * (to ^ NONE) as u64));
            self.squares[e] = word.to_le_bytes();
            self.occ[e] ^= to_bit;
            self.hash ^= piece_key(e * 8 + d, to);
            self.no_capture = 0;
        } else {
            self.no_capture = self.no_capture.saturating_add(1);
        }
        let word = u64::from_le_bytes(self.squares[s]) ^ (lane & (ONES * (from ^ to) as u64));
        self.squares[s] = word.to_le_bytes();
        self.occ[s] ^= (1u64 << from) | to_bit;
        self.hash ^= piece_key(s * 8 + a, from) ^ piece_key(s * 8 + a, to) ^ SIDE_KEY;
        if s == 1 {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.occ[0] & DENS[1] != 0 {
            return Some(Outcome::win(Side::First, DEN_ENTERED));
        }
        if self.occ[1] & DENS[0] != 0 {
            return Some(Outcome::win(Side::Second, DEN_ENTERED));
        }
        let s = self.side;
        if self.occ[s.index()] == 0 {
            return Some(Outcome::win(s.opponent(), WinReason::NoPieces));
        }
        if self.occ[s.opponent().index()] == 0 {
            return Some(Outcome::win(s, WinReason::NoPieces));
        }
        if self.count_moves() == 0 {
            return Some(Outcome::win(s.opponent(), WinReason::NoLegalMove));
        }
        None
    }

    #[inline]
    fn is_capture(&self, mv: Move) -> bool {
        self.occ[self.side_index() ^ 1] & mv.to.bit() != 0
    }

    #[inline(always)]
    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let mut h = if self.side == Side::Second {
            SIDE_KEY
        } else {
            0
        };
        for s in 0..2 {
            for (a, &sq) in self.squares[s].iter().enumerate() {
                if sq != NONE {
                    h ^= piece_key(s * 8 + a, sq);
                }
            }
        }
        h
    }
}

impl MoveSpace for Jungle {
    /// Every orthogonal step between two squares and every river jump (any
    /// other pair of squares is never a move in any position).
    fn move_space(&self) -> Vec<Move> {
        let mut all = Vec::with_capacity(300);
        for from in 0..63u8 {
            let f = Square::from_index_unchecked(from);
            let mut steps = STEPS[from as usize];
            while steps != 0 {
                let to = steps.trailing_zeros() as u8;
                steps &= steps - 1;
                all.push(Move::new(f, Square::from_index_unchecked(to)));
            }
            for jump in &JUMPS[from as usize] {
                if jump.to != NONE {
                    all.push(Move::new(f, Square::from_index_unchecked(jump.to)));
                }
            }
        }
        all
    }
}

impl fmt::Debug for Jungle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Jungle({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_is_small() {
        // Board 32 bytes, key 8, counters 8, rules 16, side 1 (+ padding).
        assert!(std::mem::size_of::<Jungle>() <= 72);
    }

    #[test]
    fn start_squares_match_start_jfen() {
        assert_eq!(
            Jungle::new(Rules::standard()),
            Jungle::from_text(START_JFEN, Rules::standard()).unwrap()
        );
    }

    #[test]
    fn play_unchecked_on_garbage_does_not_panic() {
        let mut pos = Jungle::default();
        let a = Square::new(30).unwrap();
        let b = Square::new(31).unwrap();
        pos.play_unchecked(Move::new(a, b));
        let _ = pos.to_string();
        let _ = pos.legal_moves();
    }
}
