//! The position: boards, hands, phase, removal obligations, and the whole
//! state machine of sections 3–7.

use qi_core::zobrist::{splitmix64, table};
use qi_core::{Bitboard32, IllegalMove, MoveList, MoveSpace, Outcome, Position, Side, WinReason};

use crate::formation::{count_held_at, held_mask, loose_pieces, score, THROUGH};
use crate::point::{step_count, step_targets, Move, Point, ALL_POINTS};
use crate::rules::{PlacementCapture, Rules, RulesError, Shuttle};
use crate::setup::{LastStep, Owed, Phase, Setup, SetupError};
use crate::text::{PositionTextError, RulesFrom};

/// How much of a setup is checked when it becomes a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Check {
    /// The fields agree with each other (the lenient readers).
    Consistent,
    /// The fields agree and some game can reach the position.
    Reachable,
}

const BOARD_KEYS: [u64; 50] = table(0x5F1E_7164_E25A_0001);

/// [`BOARD_KEYS`] as one row of 32 per side (same keys, zero padding), so
/// that a masked index needs no bounds check.
const KEYS: [[u64; 32]; 2] = {
    let mut t = [[0u64; 32]; 2];
    let mut i = 0;
    while i < 50 {
        t[i / 25][i % 25] = BOARD_KEYS[i];
        i += 1;
    }
    t
};
const STATE_SALT: u64 = 0xA076_1D64_78BD_642F;

/// A Five Tigers position: the eight fields of the position text (section
/// 9) plus the rules and the incremental hash.
///
/// Small and `Copy` (48 bytes): play by copy-make. The `Display` form is
/// the position text (with the rules when they are not the default ones);
/// `FromStr` reads it back and [`FiveTigers::from_text`] reads the text
/// under rules given apart. `Debug` is the text too: `FiveTigers(5/5/…)`.
///
/// ```
/// use qi_games::prelude::*;
///
/// let pos = FiveTigers::default();
/// assert_eq!(format!("{pos:?}"), "FiveTigers(5/5/5/5/5 x place X:13,O:13 - x -,- 0)");
/// assert_eq!(pos.to_string().parse::<FiveTigers>()?, pos);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FiveTigers {
    boards: [Bitboard32; 2],
    hands: [u8; 2],
    phase: Phase,
    to_move: Side,
    next: Side,
    owed: Owed,
    last: [Option<LastStep>; 2],
    quiet: u16,
    key: u64,
    rules: Rules,
}

impl std::fmt::Debug for FiveTigers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FiveTigers({self})")
    }
}

impl Default for FiveTigers {
    fn default() -> FiveTigers {
        FiveTigers::new(Rules::default())
    }
}

impl FiveTigers {
    /// The empty board at the start of placement, First to move, both hands
    /// full. The rules are taken as given (never panics); use
    /// [`FiveTigers::try_new`] to have them validated.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let pos = FiveTigers::new(Rules::shandong());
    /// assert_eq!(pos.hand(Side::First), 13);
    /// assert_eq!(pos.legal_moves().len(), 25);
    /// ```
    pub fn new(rules: Rules) -> FiveTigers {
        let mut pos = FiveTigers {
            boards: [Bitboard32::EMPTY; 2],
            hands: [rules.pieces_per_side; 2],
            phase: Phase::Placement,
            to_move: Side::First,
            next: Side::First,
            owed: Owed::NONE,
            last: [None; 2],
            quiet: 0,
            key: 0,
            rules,
        };
        if rules.pieces_per_side == 0 {
            // Nothing to place: the placement ends at once.
            pos.end_placement();
            pos.settle();
        }
        pos
    }

    /// The start position under validated rules.
    ///
    /// ```
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// assert!(FiveTigers::try_new(Rules::ten()).is_ok());
    /// let mut rules = Rules::shandong();
    /// rules.pieces_per_side = 0;
    /// assert!(FiveTigers::try_new(rules).is_err());
    /// ```
    pub fn try_new(rules: Rules) -> Result<FiveTigers, RulesError> {
        rules.validate()?;
        Ok(FiveTigers::new(rules))
    }

    /// Reads position text (`docs/five-tigers.md`, "Notation") under
    /// `rules`: the fields must agree with each other and some game from
    /// the start position must be able to reach the position (see
    /// [`SetupError`]).
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let pos = FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", Rules::shandong()).unwrap();
    /// assert_eq!(pos.side_to_move(), Side::Second);
    /// // A full board in the movement phase owes the opening removals.
    /// let full = "XXXXX/XXXXX/XXOOO/OOOOO/OOOOO x move X:0,O:0 - x -,- 0";
    /// assert!(FiveTigers::from_text(full, Rules::shandong()).is_err());
    /// ```
    pub fn from_text(text: &str, rules: Rules) -> Result<FiveTigers, PositionTextError> {
        crate::text::parse(text, RulesFrom::Given(&rules), Check::Reachable)
    }

    /// Reads position text under `rules` as [`FiveTigers::from_text`] does,
    /// but accepts positions no game can reach, as long as the fields
    /// agree with each other as the rules need them to (the
    /// [`SetupError`] variants up to `WrongSideToMove`): for puzzles and
    /// the analysis of hypothetical positions. The text is read just as
    /// strictly.
    ///
    /// ```
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// // A full board in the movement phase with nothing owed: the opening
    /// // removals would have followed placement.
    /// let text = "XXXXX/XXXXX/XXOOO/OOOOO/OOOOO o move X:0,O:0 - o -,- 0";
    /// assert!(FiveTigers::from_text(text, Rules::shandong()).is_err());
    /// let pos = FiveTigers::from_text_lenient(text, Rules::shandong()).unwrap();
    /// assert_eq!(pos.to_string(), text);
    /// ```
    pub fn from_text_lenient(text: &str, rules: Rules) -> Result<FiveTigers, PositionTextError> {
        crate::text::parse(text, RulesFrom::Given(&rules), Check::Consistent)
    }

    /// The position a setup describes under `rules`, if the setup is valid
    /// and some game can reach it (see [`SetupError`] for what is
    /// checked). The rules are taken as given, as by [`FiveTigers::new`];
    /// [`Rules::validate`] checks them.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Phase, Rules, Setup};
    ///
    /// let pt = |t: &str| -> qi_five_tigers::Point { t.parse().unwrap() };
    /// let setup = Setup::empty()
    ///     .phase(Phase::Movement)
    ///     .place(pt("a1"), Side::First)
    ///     .place(pt("c3"), Side::Second)
    ///     .side_to_move(Side::Second)
    ///     .next(Side::Second);
    /// let pos = FiveTigers::from_setup(setup, Rules::shandong()).unwrap();
    /// assert_eq!(pos.legal_moves().len(), 4); // the piece on c3 steps
    /// ```
    pub fn from_setup(setup: Setup, rules: Rules) -> Result<FiveTigers, SetupError> {
        setup.validate(&rules)?;
        Ok(FiveTigers::from_setup_unchecked(&setup, rules))
    }

    /// The position a setup describes under `rules`, if its fields agree
    /// with each other, whether or not a game can reach it (see
    /// [`FiveTigers::from_text_lenient`]).
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Phase, Rules, Setup};
    ///
    /// let pt = |t: &str| -> qi_five_tigers::Point { t.parse().unwrap() };
    /// // First to move in the movement phase, though Second steps first.
    /// let setup = Setup::empty()
    ///     .phase(Phase::Movement)
    ///     .place(pt("a1"), Side::First)
    ///     .place(pt("c3"), Side::Second);
    /// assert!(FiveTigers::from_setup(setup, Rules::shandong()).is_err());
    /// assert!(FiveTigers::from_setup_lenient(setup, Rules::shandong()).is_ok());
    /// ```
    pub fn from_setup_lenient(setup: Setup, rules: Rules) -> Result<FiveTigers, SetupError> {
        setup.validate_consistent(&rules)?;
        Ok(FiveTigers::from_setup_unchecked(&setup, rules))
    }

    /// The position a setup describes under `rules`, checked as `check`
    /// says.
    pub(crate) fn from_setup_checked(
        setup: Setup,
        rules: &Rules,
        check: Check,
    ) -> Result<FiveTigers, SetupError> {
        match check {
            Check::Reachable => FiveTigers::from_setup(setup, *rules),
            Check::Consistent => FiveTigers::from_setup_lenient(setup, *rules),
        }
    }

    /// The position a setup describes, taken as valid: for setups made from
    /// valid positions by a change that keeps them valid (a symmetry).
    pub(crate) fn from_setup_unchecked(setup: &Setup, rules: Rules) -> FiveTigers {
        let boards = [setup.pieces(Side::First), setup.pieces(Side::Second)];
        FiveTigers {
            boards,
            hands: setup.hands,
            phase: setup.phase,
            to_move: setup.side_to_move,
            next: setup.next,
            owed: setup.owed,
            last: setup.last_steps,
            quiet: setup.no_capture_plies,
            key: FiveTigers::board_key_from_scratch(&boards),
            rules,
        }
    }

    /// The plain contents of the position (everything but the rules).
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// pos.play("c3".parse().unwrap()).unwrap();
    /// let setup = pos.to_setup();
    /// assert_eq!(setup.hands, [12, 13]);
    /// assert_eq!(setup.into_position(Rules::shandong()).unwrap(), pos);
    /// ```
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; 25];
        for side in Side::BOTH {
            for p in self.boards[side.index()] {
                board[usize::from(p)] = Some(side);
            }
        }
        Setup {
            board,
            hands: self.hands,
            phase: self.phase,
            side_to_move: self.to_move,
            next: self.next,
            owed: self.owed,
            last_steps: self.last,
            no_capture_plies: self.quiet,
        }
    }

    /// The rules.
    ///
    /// ```
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// assert_eq!(FiveTigers::new(Rules::ten()).rules().pieces_per_side, 10);
    /// ```
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The points `side`'s pieces stand on.
    #[inline(always)]
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// pos.play("c3".parse().unwrap()).unwrap();
    /// assert_eq!(pos.pieces(Side::First).count(), 1);
    /// assert!(pos.pieces(Side::First).contains(12)); // c3 = rank 2 * 5 + file 2
    /// ```
    pub fn pieces(&self, side: Side) -> Bitboard32 {
        self.boards[side.index()]
    }

    /// The empty points.
    #[inline(always)]
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// assert_eq!(pos.empty().count(), 25);
    /// pos.play("c3".parse().unwrap()).unwrap();
    /// assert_eq!(pos.empty().count(), 24);
    /// ```
    pub fn empty(&self) -> Bitboard32 {
        ALL_POINTS - (self.boards[0] | self.boards[1])
    }

    /// The side whose piece stands on `point`, if any.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let pt = |t: &str| -> qi_five_tigers::Point { t.parse().unwrap() };
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// pos.play("c3".parse().unwrap()).unwrap();
    /// assert_eq!(pos.piece_at(pt("c3")), Some(Side::First));
    /// assert_eq!(pos.piece_at(pt("c4")), None);
    /// ```
    pub fn piece_at(&self, point: Point) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|s| self.boards[s.index()].contains(point.index()))
    }

    /// The pieces `side` still has in hand.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::ten());
    /// pos.play("c3".parse().unwrap()).unwrap();
    /// assert_eq!((pos.hand(Side::First), pos.hand(Side::Second)), (9, 10));
    /// ```
    pub fn hand(&self, side: Side) -> u8 {
        self.hands[side.index()]
    }

    /// The pieces `side` has in all (board and hand).
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// pos.play("c3".parse().unwrap()).unwrap();
    /// assert_eq!(pos.material(Side::First), 13); // 1 on the board, 12 in hand
    /// ```
    pub fn material(&self, side: Side) -> u32 {
        self.boards[side.index()].count() + self.hands[side.index()] as u32
    }

    /// The phase.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Phase, Rules};
    ///
    /// assert_eq!(FiveTigers::new(Rules::shandong()).phase(), Phase::Placement);
    /// let pos = FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", Rules::shandong()).unwrap();
    /// assert_eq!(pos.phase(), Phase::Movement);
    /// ```
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The removal obligations still owed.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// for mv in ["a1", "e5", "b1", "e4", "a2", "d5", "b2"] {
    ///     pos.play(mv.parse().unwrap()).unwrap();
    /// }
    /// // b2 completed First's small square a1-b1-a2-b2: one removal owed.
    /// assert_eq!(pos.owed().iter().collect::<Vec<_>>(), [(Side::First, 1)]);
    /// assert_eq!(pos.side_to_move(), Side::First);
    /// assert!(pos.legal_moves().iter().all(|mv| mv.is_removal()));
    /// ```
    pub fn owed(&self) -> Owed {
        self.owed
    }

    /// The side with the regular turn once nothing is owed.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// for mv in ["a1", "e5", "b1", "e4", "a2", "d5", "b2"] {
    ///     pos.play(mv.parse().unwrap()).unwrap();
    /// }
    /// // First removes now; then Second has its regular turn.
    /// assert_eq!(pos.side_to_move(), Side::First);
    /// assert_eq!(pos.next(), Side::Second);
    /// ```
    pub fn next(&self) -> Side {
        self.next
    }

    /// `side`'s previous step (movement phase), for the shuttle rule.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, LastStep, Rules};
    ///
    /// let mut pos = FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", Rules::shandong()).unwrap();
    /// assert_eq!(pos.last_step(Side::Second), None);
    /// pos.play("c3-c4".parse().unwrap()).unwrap();
    /// let step = LastStep { from: "c3".parse().unwrap(), to: "c4".parse().unwrap() };
    /// assert_eq!(pos.last_step(Side::Second), Some(step));
    /// ```
    pub fn last_step(&self, side: Side) -> Option<LastStep> {
        self.last[side.index()]
    }

    /// Plies of the movement phase since the last removal (the position
    /// text's quiet count).
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::from_text("5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0", Rules::shandong()).unwrap();
    /// pos.play("c3-c4".parse().unwrap()).unwrap();
    /// assert_eq!(pos.no_capture_plies(), 1);
    /// ```
    pub fn no_capture_plies(&self) -> u32 {
        u32::from(self.quiet)
    }

    /// The loose pieces (散子) of `side`.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// for mv in ["a1", "e5", "b1", "e4", "a2", "d5", "b2"] {
    ///     pos.play(mv.parse().unwrap()).unwrap();
    /// }
    /// assert_eq!(pos.loose(Side::First).count(), 0); // all four in the square
    /// assert_eq!(pos.loose(Side::Second).count(), 3);
    /// ```
    pub fn loose(&self, side: Side) -> Bitboard32 {
        loose_pieces(self.boards[side.index()])
    }

    /// The points of `side`'s pieces that belong to a formation it holds.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// for mv in ["a1", "e5", "b1", "e4", "a2", "d5", "b2"] {
    ///     pos.play(mv.parse().unwrap()).unwrap();
    /// }
    /// assert_eq!(pos.held(Side::First).count(), 4);
    /// assert!(pos.held(Side::Second).is_empty());
    /// ```
    pub fn held(&self, side: Side) -> Bitboard32 {
        held_mask(self.boards[side.index()])
    }

    /// The step `side` may not play next under the shuttle rule, if any.
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let text = "5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0";
    /// // Shuttling is forbidden by default: a step may not be undone at once.
    /// let mut pos = FiveTigers::from_text(text, Rules::shandong()).unwrap();
    /// pos.play("c3-c4".parse().unwrap()).unwrap();
    /// assert_eq!(pos.forbidden_step(Side::Second), Some("c4-c3".parse().unwrap()));
    /// let mut pos = FiveTigers::from_text(text, Rules::shandong_shuttle()).unwrap();
    /// pos.play("c3-c4".parse().unwrap()).unwrap();
    /// assert_eq!(pos.forbidden_step(Side::Second), None);
    /// ```
    pub fn forbidden_step(&self, side: Side) -> Option<Move> {
        if self.rules.shuttle == Shuttle::Allowed {
            return None;
        }
        self.last[side.index()].map(|l| Move::Step {
            from: l.to,
            to: l.from,
        })
    }

    /// Whether the state of the game forbids any move because a side has
    /// no piece left.
    #[inline(always)]
    fn someone_out(&self) -> bool {
        (self.boards[0].0 == 0 && self.hands[0] == 0)
            || (self.boards[1].0 == 0 && self.hands[1] == 0)
    }

    /// The pieces the side to move may remove now (owed removals only).
    #[inline(always)]
    fn removable(&self, taker: Side) -> Bitboard32 {
        let victim = self.boards[taker.opponent().index()];
        let loose = loose_pieces(victim);
        if loose.any() {
            loose
        } else {
            victim
        }
    }

    /// Whether the forbidden shuttle step of the side to move would
    /// otherwise be a legal step.
    #[inline(always)]
    fn forbidden_is_playable(&self, own: Bitboard32, empty: Bitboard32) -> Option<LastStep> {
        if self.rules.shuttle == Shuttle::Forbidden {
            if let Some(l) = self.last[self.to_move.index()] {
                if own.contains(l.to.index())
                    && empty.contains(l.from.index())
                    && l.from.is_adjacent(l.to)
                {
                    return Some(l);
                }
            }
        }
        None
    }

    fn count_steps(&self) -> usize {
        let own = self.boards[self.to_move.index()];
        let empty = self.empty();
        let n = step_count(own, empty);
        (n as usize).saturating_sub(self.forbidden_is_playable(own, empty).is_some() as usize)
    }

    /// The board hash (incremental) mixed with the small state fields.
    #[inline]
    fn state_key(&self) -> u64 {
        let pack_last = |l: Option<LastStep>| match l {
            None => 0u64,
            Some(l) => 1 | (l.from.index() as u64) << 1 | (l.to.index() as u64) << 6,
        };
        let packed = self.hands[0] as u64
            | (self.hands[1] as u64) << 8
            | (self.phase as u64) << 16
            | (self.to_move as u64) << 17
            | (self.next as u64) << 18
            | self.owed.pack() << 19
            | pack_last(self.last[0]) << 37
            | pack_last(self.last[1]) << 48;
        splitmix64(packed ^ STATE_SALT).1
    }

    #[inline(always)]
    fn toggle(&mut self, side: Side, p: u8) {
        self.boards[side.index()].0 ^= 1 << p;
        self.key ^= KEYS[side.index() & 1][(p & 31) as usize];
    }

    fn board_key_from_scratch(boards: &[Bitboard32; 2]) -> u64 {
        let mut k = 0;
        for side in Side::BOTH {
            for p in boards[side.index()] {
                k ^= BOARD_KEYS[side.index() * 25 + p as usize];
            }
        }
        k
    }

    /// Ends the placement phase (section 3): unplaced pieces leave, deferred
    /// scores and the opening removals of section 5 become owed, and the
    /// movement phase begins with Second to move.
    fn end_placement(&mut self) {
        self.hands = [0, 0];
        self.phase = Phase::Movement;
        self.next = Side::Second;
        if self.rules.placement_capture == PlacementCapture::Deferred {
            let sx = score(self.boards[0], &self.rules);
            let so = score(self.boards[1], &self.rules);
            self.owed.push(Side::First, sx);
            self.owed.push(Side::Second, so);
        }
        if self.owed.is_empty() && self.empty().is_empty() {
            self.owed.push(Side::Second, 1);
            self.owed.push(Side::First, 1);
        }
    }

    /// Brings the derived fields up to date after a move: drops removals
    /// that cannot be taken, and decides who decides next.
    #[inline]
    fn settle(&mut self) {
        if !self.owed.is_empty() && self.someone_out() {
            // A side has lost: whatever is still owed is dropped.
            self.owed = Owed::NONE;
        }
        while let Some((taker, _)) = self.owed.first() {
            let victim = taker.opponent().index();
            if self.boards[victim].0 != 0 {
                break;
            }
            // Nothing on the board to take (placement, the enemy still has
            // pieces in hand): this obligation is dropped.
            self.owed.pop();
        }
        self.to_move = match self.owed.first() {
            None => self.next,
            Some((taker, _)) => {
                if loose_pieces(self.boards[taker.opponent().index()]).any() {
                    taker
                } else {
                    taker.opponent()
                }
            }
        };
    }

    /// Whether `mv` is legal here (fast, without generating a list).
    ///
    /// ```
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// let pos = FiveTigers::new(Rules::shandong());
    /// assert!(pos.is_legal_move("c3".parse().unwrap()));
    /// assert!(!pos.is_legal_move("xc3".parse().unwrap())); // nothing is owed
    /// ```
    pub fn is_legal_move(&self, mv: Move) -> bool {
        if self.someone_out() {
            return false;
        }
        match (mv, self.owed.first()) {
            (Move::Remove(p), Some((taker, _))) => self.removable(taker).contains(p.index()),
            (Move::Remove(_), None) | (_, Some(_)) => false,
            (Move::Place(p), None) => {
                self.phase == Phase::Placement && self.empty().contains(p.index())
            }
            (Move::Step { from, to }, None) => {
                self.phase == Phase::Movement
                    && from.is_adjacent(to)
                    && self.boards[self.to_move.index()].contains(from.index())
                    && self.empty().contains(to.index())
                    && self.forbidden_step(self.to_move) != Some(mv)
            }
        }
    }

    /// The 8 symmetric images of this position (see [`crate::Symmetry`]).
    ///
    /// ```
    /// use qi_core::{Position as _, Side};
    /// use qi_five_tigers::{FiveTigers, Rules, Symmetry};
    ///
    /// let pt = |t: &str| -> qi_five_tigers::Point { t.parse().unwrap() };
    /// let mut pos = FiveTigers::new(Rules::shandong());
    /// pos.play("a1".parse().unwrap()).unwrap();
    /// let turned = pos.transformed(Symmetry::Rotate180);
    /// assert_eq!(turned.piece_at(pt("e5")), Some(Side::First));
    /// assert_eq!(turned.transformed(Symmetry::Rotate180), pos);
    /// ```
    pub fn transformed(&self, symmetry: crate::Symmetry) -> FiveTigers {
        symmetry.position(self)
    }
}

impl Position for FiveTigers {
    type Rules = Rules;
    type Move = Move;
    type ParseError = PositionTextError;

    /// Placements `0..25`, removals `25..50`, steps `50 + from * 25 + to`.
    const MOVE_INDEX_COUNT: usize = 50 + 25 * 25;

    fn new(rules: Rules) -> FiveTigers {
        FiveTigers::new(rules)
    }

    fn from_text(text: &str, rules: &Rules) -> Result<FiveTigers, PositionTextError> {
        FiveTigers::from_text(text, *rules)
    }

    fn rules(&self) -> &Rules {
        &self.rules
    }

    #[inline(always)]
    fn move_index(mv: Move) -> usize {
        match mv {
            Move::Place(p) => usize::from(p.index()),
            Move::Remove(p) => 25 + usize::from(p.index()),
            Move::Step { from, to } => {
                50 + usize::from(from.index()) * 25 + usize::from(to.index())
            }
        }
    }

    fn no_capture_plies(&self) -> u32 {
        u32::from(self.quiet)
    }

    #[inline(always)]
    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn generate_moves(&self, moves: &mut MoveList<Move>) {
        if self.someone_out() {
            return;
        }
        if let Some((taker, _)) = self.owed.first() {
            for p in self.removable(taker) {
                moves.push(Move::Remove(Point::from_index(p)));
            }
            return;
        }
        match self.phase {
            Phase::Placement => {
                for p in self.empty() {
                    moves.push(Move::Place(Point::from_index(p)));
                }
            }
            Phase::Movement => {
                let own = self.boards[self.to_move.index()];
                let empty = self.empty();
                let forbidden = self.forbidden_is_playable(own, empty);
                let t = step_targets(own, empty);
                // North, South, East, West: the origin is 5 below, 5 above,
                // 1 left, 1 right of the target.
                const BACK: [i8; 4] = [-5, 5, -1, 1];
                for (targets, back) in t.into_iter().zip(BACK) {
                    for to in targets {
                        let from = Point::from_index((to as i8 + back) as u8);
                        let to = Point::from_index(to);
                        if let Some(l) = forbidden {
                            if l.to == from && l.from == to {
                                continue;
                            }
                        }
                        moves.push(Move::Step { from, to });
                    }
                }
            }
        }
    }

    #[inline]
    fn count_moves(&self) -> usize {
        if self.someone_out() {
            return 0;
        }
        if let Some((taker, _)) = self.owed.first() {
            return self.removable(taker).count() as usize;
        }
        match self.phase {
            Phase::Placement => self.empty().count() as usize,
            Phase::Movement => self.count_steps(),
        }
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.is_legal_move(mv)
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_legal_move(mv) {
            self.play_unchecked(mv);
            return Ok(());
        }
        let reason = if let Some(outcome) = self.outcome() {
            format!("the game is over ({outcome})")
        } else if let Some((taker, n)) = self.owed.first() {
            if matches!(mv, Move::Remove(_)) {
                format!(
                    "{} may remove only {}",
                    self.to_move,
                    if self.loose(taker.opponent()).any() {
                        "a loose enemy piece"
                    } else {
                        "one of its own pieces"
                    }
                )
            } else {
                format!("{taker} is owed {n} removal(s) first")
            }
        } else {
            match (mv, self.phase) {
                (Move::Remove(_), _) => "no removal is owed".to_string(),
                (Move::Place(_), Phase::Placement) => "the point is not empty".to_string(),
                (Move::Place(_), Phase::Movement) => "placement is over".to_string(),
                (Move::Step { .. }, Phase::Placement) => {
                    "pieces step only after placement".to_string()
                }
                (Move::Step { .. }, Phase::Movement) => {
                    if self.forbidden_step(self.to_move) == Some(mv) {
                        "the shuttle rule forbids stepping straight back".to_string()
                    } else {
                        format!("not a step of {} to an adjacent empty point", self.to_move)
                    }
                }
            }
        };
        Err(IllegalMove::new(mv, reason))
    }

    fn play_unchecked(&mut self, mv: Move) {
        let s = self.to_move;
        match mv {
            Move::Place(p) => {
                let pi = p.index();
                self.toggle(s, pi);
                self.hands[s.index()] = self.hands[s.index()].saturating_sub(1);
                if self.rules.placement_capture == PlacementCapture::Immediate {
                    let n = count_held_at(pi as usize, self.boards[s.index()]);
                    self.owed.push(s, n);
                }
                let o = s.opponent();
                if (self.hands[0] == 0 && self.hands[1] == 0) || self.empty().is_empty() {
                    self.end_placement();
                } else if self.hands[o.index()] > 0 {
                    self.next = o;
                } else {
                    self.next = s;
                }
            }
            Move::Step { from, to } => {
                self.toggle(s, from.index());
                self.toggle(s, to.index());
                let values = self.rules.values();
                let v = THROUGH[to.index() as usize].value_held(self.boards[s.index()], &values);
                self.owed.push(s, v);
                self.last[s.index()] = Some(LastStep { from, to });
                self.quiet = self.quiet.saturating_add(1);
                self.next = s.opponent();
            }
            Move::Remove(p) => {
                if let Some((taker, _)) = self.owed.first() {
                    let victim = taker.opponent();
                    if self.boards[victim.index()].contains(p.index()) {
                        self.toggle(victim, p.index());
                    }
                    self.owed.take_one();
                }
                self.quiet = 0;
            }
        }
        self.settle();
    }

    fn outcome(&self) -> Option<Outcome> {
        for side in Side::BOTH {
            if self.boards[side.index()].0 == 0 && self.hands[side.index()] == 0 {
                return Some(Outcome::win(side.opponent(), WinReason::NoPieces));
            }
        }
        if self.phase == Phase::Movement && self.owed.is_empty() && self.count_steps() == 0 {
            return Some(Outcome::win(
                self.to_move.opponent(),
                WinReason::NoLegalMove,
            ));
        }
        None
    }

    fn is_capture(&self, mv: Move) -> bool {
        mv.is_removal()
    }

    #[inline]
    fn zobrist(&self) -> u64 {
        self.key ^ self.state_key()
    }

    fn zobrist_from_scratch(&self) -> u64 {
        Self::board_key_from_scratch(&self.boards) ^ self.state_key()
    }
}

impl MoveSpace for FiveTigers {
    fn move_space(&self) -> Vec<Move> {
        let mut all = Vec::with_capacity(130);
        for p in Point::all() {
            all.push(Move::Place(p));
            all.push(Move::Remove(p));
            for q in Point::all() {
                if p.is_adjacent(q) {
                    all.push(Move::Step { from: p, to: q });
                }
            }
        }
        all
    }
}

/// Position text under the rules it names after the quiet-ply count, or
/// the Shandong rules if it names none (the text `Display` writes).
///
/// ```
/// use qi_five_tigers::{FiveTigers, Rules};
///
/// let text = "5/5/2O2/5/X4 o move X:0,O:0 - o -,- 0";
/// assert_eq!(text.parse::<FiveTigers>()?, FiveTigers::from_text(text, Rules::shandong())?);
/// let shuttle: FiveTigers = format!("{text} five-tigers:shandong-shuttle").parse()?;
/// assert_eq!(shuttle, FiveTigers::from_text(text, Rules::shandong_shuttle())?);
/// # Ok::<(), qi_five_tigers::PositionTextError>(())
/// ```
impl std::str::FromStr for FiveTigers {
    type Err = PositionTextError;
    fn from_str(s: &str) -> Result<FiveTigers, PositionTextError> {
        crate::text::parse(s, RulesFrom::Text, Check::Reachable)
    }
}

#[cfg(test)]
mod size_tests {
    #[test]
    fn position_is_small() {
        let size = std::mem::size_of::<super::FiveTigers>();
        assert!(size <= 48, "{size} bytes");
    }
}
