//! The position: bitboard board representation, move generation, playing
//! moves and the outcome the board decides.

use std::fmt;
use std::str::FromStr;

use qi_core::{Bitboard, MoveList, MoveSpace, Outcome, Position, RuleName, Side, WinReason};

use crate::board::{Animal, Piece, Square, ALL, DENS, LAND, NONE, TRAPS, WATER};
use crate::jfen::{self, JfenError, RulesFrom};
use crate::moves::Move;
use crate::rules::{JumpBlock, RankOrder, Rules, TrappedAttacks};
#[cfg(doc)]
use crate::setup::ImpossiblePosition;
use crate::setup::{Setup, SetupError};
use crate::tables::{
    piece_key, JumpPair, JUMPS, JUMP_PAIRS, LANDINGS, LAND_STEPS, RAT_STEPS, SIDE_KEY, STEPS,
};

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
/// per side; the Zobrist key is updated incrementally.
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

const ONES: u64 = 0x0101_0101_0101_0101;

/// The index of the first of the eight packed squares equal to `sq`, and
/// the mask `0xFF` of that byte (found with one SWAR scan); when none is
/// equal, garbage index in 0..8 and mask 0.
#[inline(always)]
fn find_lane(squares: &[u8; 8], sq: u8) -> (usize, u64) {
    let x = u64::from_le_bytes(*squares) ^ ONES.wrapping_mul(sq as u64);
    // 0x80 in each zero byte of x, plus possibly false ones above the
    // lowest (borrows): only the lowest set bit is exact.
    let zero = x.wrapping_sub(ONES) & !x & 0x8080_8080_8080_8080;
    let lowest = zero & zero.wrapping_neg();
    (
        (zero.trailing_zeros() as usize / 8) & 7,
        (lowest >> 7) * 0xFF,
    )
}

/// Index of the animal of a side standing on `sq` (found with one SWAR scan
/// of the eight packed squares); garbage (but in 0..8) when none stands there.
#[inline(always)]
fn find(squares: &[u8; 8], sq: u8) -> usize {
    find_lane(squares, sq).0
}

/// The landing squares of the river jumps from `from` (a square index, or
/// 63 for a captured animal) in the directions `dirs` allows, each kept
/// only when no square where a Rat blocks it (in `pairs`: its path or its
/// river) is in `blockers`. Branchless: every
/// square has at most two jumps (see [`JUMP_PAIRS`] and [`LANDINGS`]).
#[inline(always)]
fn jump_targets(pairs: &[JumpPair; 64], from: usize, dirs: u8, blockers: u64) -> u64 {
    let j = &pairs[from & 63];
    let open = |k: usize| j.to[k] & ((j.path[k] & blockers == 0) as u64).wrapping_neg();
    (open(0) | open(1)) & LANDINGS[(dirs & 15) as usize]
}

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

    /// The start position under `rules` (same as [`Jungle::new`]).
    ///
    /// ```
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// assert_eq!(Jungle::start(Rules::datou()), Jungle::new(Rules::datou()));
    /// ```
    pub fn start(rules: Rules) -> Jungle {
        Jungle::new(rules)
    }

    /// Reads JFEN text (`docs/jungle.md`, "Notation") under `rules`.
    /// Text that names its rules after the counters (as `Display` writes
    /// them when they are not the standard rules) must name these
    /// ([`JfenError::RulesMismatch`]). A position no game can reach is
    /// refused ([`JfenError::Impossible`]); [`Jungle::from_text_lenient`]
    /// reads it.
    ///
    /// ```
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/6l w 0 1", &Rules::standard()).unwrap();
    /// assert_eq!(pos.animal_count(qi_core::Side::First), 1);
    /// let err = Jungle::from_text("7/3L3/7/7/7/7/7/7/6x w 0 1", &Rules::standard()).unwrap_err();
    /// assert!(err.to_string().contains("'x'"));
    /// ```
    pub fn from_text(text: &str, rules: &Rules) -> Result<Jungle, JfenError> {
        jfen::parse(text, RulesFrom::Given(rules), true)
    }

    /// Reads JFEN text like [`Jungle::from_text`], but also accepts
    /// positions no game can reach (see [`ImpossiblePosition`]), for
    /// puzzles and analysis; the text must still be well formed and the
    /// board one the generator handles (see
    /// [`Setup::into_position_lenient`]).
    ///
    /// ```
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// // Red to move, but a Red Dog already stands in the Blue den.
    /// let text = "3D3/7/7/7/7/7/7/7/6c w 0 1";
    /// assert!(Jungle::from_text(text, &Rules::standard()).is_err());
    /// assert!(Jungle::from_text_lenient(text, &Rules::standard()).is_ok());
    /// ```
    pub fn from_text_lenient(text: &str, rules: &Rules) -> Result<Jungle, JfenError> {
        jfen::parse(text, RulesFrom::Given(rules), false)
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
    /// assert!(Jungle::from_setup(setup, &Rules::standard()).is_ok());
    /// assert!(Jungle::from_setup(Setup::empty(), &Rules::standard()).is_err()); // an empty board
    /// ```
    pub fn from_setup(setup: Setup, rules: &Rules) -> Result<Jungle, SetupError> {
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
    /// assert!(Jungle::from_setup(setup, &Rules::standard()).is_err());
    /// assert!(Jungle::from_setup_lenient(setup, &Rules::standard()).is_ok());
    /// ```
    pub fn from_setup_lenient(setup: Setup, rules: &Rules) -> Result<Jungle, SetupError> {
        Jungle::checked_setup(setup, rules, false)
    }

    fn checked_setup(setup: Setup, rules: &Rules, reachable: bool) -> Result<Jungle, SetupError> {
        let squares = setup.validate(reachable)?;
        Ok(Jungle::from_parts(
            squares,
            setup.side_to_move,
            setup.no_capture_plies,
            setup.fullmove,
            *rules,
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
    /// assert_eq!(setup.into_position(&Rules::standard()).unwrap(), Jungle::default());
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

    /// The position with another rule set (board, side and counters kept).
    ///
    /// ```
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let pos = Jungle::default().with_rules(Rules::datou());
    /// assert_eq!(pos.rules(), &Rules::datou());
    /// assert_eq!(pos.to_setup(), Jungle::default().to_setup());
    /// ```
    pub fn with_rules(&self, rules: Rules) -> Jungle {
        Jungle { rules, ..*self }
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
    /// let pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/6l w 0 1", &Rules::standard()).unwrap();
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
    /// let mut pos = Jungle::from_text("7/7/7/7/7/7/7/l6/L5E w 0 1", &Rules::standard()).unwrap();
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
    /// let mut pos = Jungle::from_text("7/3L3/7/7/7/7/7/7/6l w 0 1", &Rules::standard()).unwrap();
    /// assert!(!pos.is_terminal_cheap());
    /// pos.play("d8d9".parse().unwrap()).unwrap(); // the den
    /// assert!(pos.is_terminal_cheap());
    /// ```
    pub fn is_terminal_cheap(&self) -> bool {
        (self.occ[0] & DENS[1]) | (self.occ[1] & DENS[0]) != 0
            || self.occ[0] == 0
            || self.occ[1] == 0
    }

    /// Where each animal of `side` could move if `side` were to move now
    /// (ignoring whether the game is over), Rat first; empty for a captured
    /// animal. Captures are included exactly when the rules allow them.
    #[inline(always)]
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Animal, Jungle, Piece, Rules};
    ///
    /// let pos = Jungle::default();
    /// let masks = pos.destination_masks(Side::First);
    /// // The Elephant on a3 may go to a2, a4 or b3.
    /// assert_eq!(masks[Animal::Elephant.index()], pos.destinations("a3".parse().unwrap()));
    /// assert_eq!(masks[Animal::Elephant.index()].count(), 3);
    /// // Leaf counting: the moves are the sum of the masks' sizes.
    /// let total: u32 = masks.iter().map(|m| m.count()).sum();
    /// assert_eq!(total, 24);
    /// ```
    pub fn destination_masks(&self, side: Side) -> [Bitboard; 8] {
        self.destination_bits(side).map(Bitboard)
    }

    /// [`destination_masks`](Jungle::destination_masks) as raw bits, for
    /// the move generator's loops.
    #[inline(always)]
    pub(crate) fn destination_bits(&self, side: Side) -> [u64; 8] {
        // Under `trapped_attacks = none`, `side`'s animals on the enemy's
        // traps capture nothing: one test per call (see `count_disarmed`).
        if self.has_disarmed(side) {
            return Jungle::disarmed_destination_bits(self.squares, self.occ, self.rules, side);
        }
        self.board_destination_bits(side)
    }

    /// Whether the rules are `trapped_attacks = none` and some animal of
    /// `side` stands on an enemy trap.
    #[inline(always)]
    fn has_disarmed(&self, side: Side) -> bool {
        self.rules.trapped_attacks == TrappedAttacks::None
            && self.occ[side.index()] & TRAPS[side.index() ^ 1] != 0
    }

    /// The destinations of `side`'s animals with every capture the capture
    /// table allows, trapped attackers included.
    #[inline(always)]
    fn board_destination_bits(&self, side: Side) -> [u64; 8] {
        let s = side.index();
        let e = s ^ 1;
        let own = self.occ[s];
        let enemy = self.occ[e];
        let empty = !(own | enemy);
        let esq = &self.squares[e];
        let rules = &self.rules;
        // Enemy animals on this side's traps can be taken by any animal.
        let trapped = enemy & TRAPS[s];
        // A captured animal maps to bit 63, which is off the board and in no
        // destination table, so it never matters.
        let bit = |a: usize| 1u64 << (esq[a] & 63);
        let (rat, cat, dog, wolf) = (bit(RAT), bit(CAT), bit(DOG), bit(WOLF));
        // cap_x: the enemy animals an attacker x may capture on land.
        let cap_cat = trapped | rat | cat;
        let (cap_dog, cap_wolf) = match rules.rank_order {
            RankOrder::WolfOverDog => (cap_cat | dog, cap_cat | dog | wolf),
            RankOrder::DogOverWolf => (cap_cat | dog | wolf, cap_cat | wolf),
        };
        let cap_leopard = cap_cat | dog | wolf | bit(LEOPARD);
        let cap_tiger = cap_leopard | bit(TIGER);
        let cap_lion = cap_tiger | bit(LION);
        let elephant = bit(ELEPHANT);
        let cap_elephant = ((cap_lion | elephant) & !rat) | trapped;
        let bank = if rules.rat_bank_capture { ALL } else { 0 };
        let blockers = match rules.jump_block {
            JumpBlock::AnyRat => own | enemy,
            JumpBlock::EnemyRat => enemy,
        };
        let pairs = &JUMP_PAIRS[rules.jump_block_area as usize & 1];
        let sq = &self.squares[s];
        let land = &LAND_STEPS[s];

        // Square indices are 0..=63 (63: captured); `& 63` lets the compiler
        // drop the bounds checks on the 64-entry tables.
        let at = |a: usize| sq[a] as usize & 63;
        let from = at(RAT);
        let cap_rat = if WATER >> from & 1 != 0 {
            rat & (WATER | bank)
        } else {
            (rat & (LAND | bank)) | elephant | trapped
        };
        let from_tiger = at(TIGER);
        let from_lion = at(LION);
        let tiger_reach = land[from_tiger]
            | jump_targets(
                pairs,
                from_tiger,
                rules.tiger_jumps.direction_mask(),
                blockers,
            );
        let lion_reach = land[from_lion]
            | jump_targets(
                pairs,
                from_lion,
                rules.lion_jumps.direction_mask(),
                blockers,
            );
        [
            RAT_STEPS[s][from] & (empty | cap_rat),
            land[at(CAT)] & (empty | cap_cat),
            land[at(DOG)] & (empty | cap_dog),
            land[at(WOLF)] & (empty | cap_wolf),
            land[at(LEOPARD)] & (empty | cap_leopard),
            tiger_reach & (empty | cap_tiger),
            lion_reach & (empty | cap_lion),
            land[at(ELEPHANT)] & (empty | cap_elephant),
        ]
    }

    /// `count_moves` when [`has_disarmed`](Jungle::has_disarmed). Out of
    /// line and returning a count, and given the board by value rather
    /// than the position: perft's hot loop (copy, play, count) then keeps
    /// its masks in registers and never builds the whole child position
    /// for this rare case (fixing the masks up in line, or handing them to
    /// an out-of-line fix-up, made them spill to memory: +14 to +23 %
    /// perft instructions when measured).
    #[cold]
    #[inline(never)]
    fn count_disarmed(squares: [[u8; 8]; 2], occ: [u64; 2], rules: Rules, side: Side) -> usize {
        Jungle::disarmed_destination_bits(squares, occ, rules, side)
            .iter()
            .map(|m| m.count_ones() as usize)
            .sum()
    }

    /// [`board_destination_bits`](Jungle::board_destination_bits) with
    /// the captures of `side`'s animals on enemy traps removed (the
    /// `trapped_attacks = none` case), out of line because it is rare.
    #[cold]
    #[inline(never)]
    fn disarmed_destination_bits(
        squares: [[u8; 8]; 2],
        occ: [u64; 2],
        rules: Rules,
        side: Side,
    ) -> [u64; 8] {
        let board = Jungle {
            squares,
            occ,
            hash: 0,
            no_capture: 0,
            fullmove: 1,
            rules,
            side,
        };
        let disarmed = occ[side.index()] & TRAPS[side.index() ^ 1];
        let empty = !(occ[0] | occ[1]);
        let mut masks = board.board_destination_bits(side);
        for (mask, &sq) in masks.iter_mut().zip(&squares[side.index()]) {
            if disarmed >> (sq & 63) & 1 != 0 {
                *mask &= empty;
            }
        }
        masks
    }

    /// Where the animal on `from` could move if its side were to move now
    /// (empty when the square is empty).
    ///
    /// ```
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// // The Lion on a4 jumps the river to d4 unless a Rat blocks the way.
    /// let text = "6l/7/7/1r5/7/L6/7/7/6E w 0 1";
    /// let d4 = 3 * 7 + 3;
    /// let standard = Jungle::from_text(text, &Rules::standard()).unwrap();
    /// assert!(standard.destinations("a4".parse().unwrap()).contains(d4));
    /// // Under `datou` a Rat anywhere in the river crossed blocks it.
    /// let datou = Jungle::from_text(text, &Rules::datou()).unwrap();
    /// assert!(!datou.destinations("a4".parse().unwrap()).contains(d4));
    /// ```
    pub fn destinations(&self, from: Square) -> Bitboard {
        match self.piece_at(from) {
            Some(p) => self.destination_masks(p.side)[p.animal.index()],
            None => Bitboard::EMPTY,
        }
    }

    /// The animals of `side`'s opponent that `side` could capture if it
    /// were to move now: the opponent's animals "under attack".
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let pos = Jungle::from_text("7/7/7/7/7/7/7/l6/L5E w 0 1", &Rules::standard()).unwrap();
    /// assert_eq!(pos.attacked_by(Side::First).count(), 1); // the Blue Lion on a2
    /// assert!(pos.attacked_by(Side::First).contains(7));
    /// ```
    pub fn attacked_by(&self, side: Side) -> Bitboard {
        let all = self
            .destination_masks(side)
            .iter()
            .fold(Bitboard::EMPTY, |acc, &m| acc | m);
        all & self.occupancy(side.opponent())
    }

    /// Whether the animal of `attacker` on `from` may capture `defender` on
    /// `to` under these rules (see [`Rules::capture_allowed`]).
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Animal, Jungle, Piece, Rules};
    ///
    /// let sq = |t: &str| t.parse().unwrap();
    /// let pos = Jungle::default();
    /// let rat = Piece::new(Side::First, Animal::Rat);
    /// let elephant = Piece::new(Side::Second, Animal::Elephant);
    /// assert!(pos.capture_allowed(rat, sq("a4"), elephant, sq("a5")));
    /// let red_elephant = Piece::new(Side::First, Animal::Elephant);
    /// let blue_rat = Piece::new(Side::Second, Animal::Rat);
    /// assert!(!pos.capture_allowed(red_elephant, sq("a4"), blue_rat, sq("a5")));
    /// ```
    pub fn capture_allowed(
        &self,
        attacker: Piece,
        from: Square,
        defender: Piece,
        to: Square,
    ) -> bool {
        self.rules.capture_allowed(attacker, from, defender, to)
    }

    /// The index (0..8) of `side`'s animal on square `sq` (meaningless when
    /// none of its animals stands there).
    #[inline(always)]
    pub(crate) fn animal_index_on(&self, side: Side, sq: u8) -> usize {
        find(&self.squares[side.index()], sq)
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

    /// The position before `mv`, a move that captured nothing and led
    /// here: the animal on `mv.to` back on `mv.from`, the side that made
    /// the move to move again, the counters one ply back (the no-capture
    /// count stops at 0, as in a position read without its history).
    /// `None` unless `mv` is one of
    /// [`quiet_unmoves`](Jungle::quiet_unmoves): an animal of the side
    /// that just moved stands on `mv.to`, `mv.from` is empty and a square
    /// that animal may stand on, and `mv` is legal in the position before
    /// (which is not over).
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jungle, Move};
    ///
    /// let start = Jungle::default();
    /// let mv: Move = "a3a4".parse().unwrap();
    /// let mut pos = start;
    /// pos.play(mv).unwrap();
    /// assert_eq!(pos.unplay_quiet(mv), Some(start));
    /// // The Elephant cannot have come out of the water, nor has Blue
    /// // just moved.
    /// assert_eq!(pos.unplay_quiet("b4a4".parse().unwrap()), None);
    /// assert_eq!(pos.unplay_quiet("a6a7".parse().unwrap()), None);
    /// ```
    pub fn unplay_quiet(&self, mv: Move) -> Option<Jungle> {
        let mover = self.side.opponent();
        let s = mover.index();
        let (from, to) = (mv.from.index(), mv.to.index());
        let (from_bit, to_bit) = (mv.from.bit(), mv.to.bit());
        if self.occ[s] & to_bit == 0 || (self.occ[0] | self.occ[1]) & from_bit != 0 {
            return None;
        }
        let (a, lane) = find_lane(&self.squares[s], to);
        // Where the animal may stand (the setup's rules): never on its own
        // den, in the water only the Rat.
        if DENS[s] & from_bit != 0 || (a != RAT && WATER & from_bit != 0) {
            return None;
        }
        let mut before = *self;
        let word = u64::from_le_bytes(self.squares[s]) ^ (lane & (ONES * u64::from(from ^ to)));
        before.squares[s] = word.to_le_bytes();
        before.occ[s] ^= from_bit | to_bit;
        before.hash ^= piece_key(s * 8 + a, from) ^ piece_key(s * 8 + a, to) ^ SIDE_KEY;
        before.side = mover;
        before.no_capture = self.no_capture.saturating_sub(1);
        if mover == Side::Second {
            before.fullmove = self.fullmove.saturating_sub(1).max(1);
        }
        // The move generator decides: the rules of steps, jumps and their
        // blocking, the Rat's swimming and the game being over are its.
        before.is_legal(mv).then_some(before)
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

    fn from_text(text: &str, rules: &Rules) -> Result<Jungle, JfenError> {
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

/// JFEN under the rules it names after the counters, or the standard rules
/// if it names none (the text `Display` writes).
///
/// ```
/// use qi_jungle::{Jungle, Rules};
///
/// let text = "7/3L3/7/7/7/7/7/7/6l w 0 1";
/// assert_eq!(text.parse::<Jungle>()?, Jungle::from_text(text, &Rules::standard())?);
/// let yeshou: Jungle = format!("{text} yeshou").parse()?;
/// assert_eq!(yeshou, Jungle::from_text(text, &Rules::yeshou())?);
/// assert_eq!(yeshou.to_string(), format!("{text} yeshou"));
/// # Ok::<(), qi_jungle::JfenError>(())
/// ```
impl FromStr for Jungle {
    type Err = JfenError;
    fn from_str(s: &str) -> Result<Jungle, JfenError> {
        jfen::parse(s, RulesFrom::Text, true)
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

    /// The jump targets of the old per-direction loop.
    fn jump_targets_reference(from: usize, dirs: u8, blockers: u64) -> u64 {
        let mut targets = 0;
        for (d, jump) in JUMPS[from].iter().enumerate() {
            if dirs >> d & 1 != 0 && jump.to != NONE && jump.path & blockers == 0 {
                targets |= 1u64 << jump.to;
            }
        }
        targets
    }

    #[test]
    fn branchless_jumps_match_per_direction_jumps() {
        use crate::rules::Jumps;
        let variants = [
            Jumps::None,
            Jumps::Both,
            Jumps::HorizontalOnly,
            Jumps::VerticalOnly,
        ];
        // Every subset of the 12 water squares as blockers.
        let water: Vec<u64> = (0..63)
            .filter(|&s| WATER >> s & 1 != 0)
            .map(|s| 1u64 << s)
            .collect();
        for mask in 0u32..1 << water.len() {
            let blockers = water
                .iter()
                .enumerate()
                .filter(|(i, _)| mask >> i & 1 != 0)
                .fold(0, |acc, (_, &b)| acc | b);
            for from in 0..64 {
                for v in variants {
                    let dirs = v.direction_mask();
                    assert_eq!(
                        jump_targets(&JUMP_PAIRS[0], from, dirs, blockers),
                        jump_targets_reference(from, dirs, blockers),
                        "from {from} dirs {dirs:04b} blockers {blockers:x}"
                    );
                }
            }
        }
    }

    #[test]
    fn find_locates_each_animal() {
        let squares = [20, 8, 12, 16, 18, 0, 6, NONE];
        for (a, &sq) in squares.iter().enumerate().take(7) {
            assert_eq!(find(&squares, sq), a);
        }
        // a square no animal holds gives some index in range
        assert!(find(&squares, 40) < 8);
        assert_eq!(find_lane(&squares, 40).1, 0);
        for (a, &sq) in squares.iter().enumerate() {
            let (i, lane) = find_lane(&squares, sq);
            assert_eq!(i, a);
            assert_eq!(lane, 0xFF << (8 * a));
        }
    }

    #[test]
    fn start_squares_match_start_jfen() {
        assert_eq!(
            Jungle::new(Rules::standard()),
            Jungle::from_text(START_JFEN, &Rules::standard()).unwrap()
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
