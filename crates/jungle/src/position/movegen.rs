//! Move generation: where each animal may go (steps, river jumps and
//! their blocking, captures the rules allow), as destination masks per
//! animal, from which the position's `generate_moves` and `count_moves`
//! read the moves.

use super::*;

pub(super) const ONES: u64 = 0x0101_0101_0101_0101;

/// The index of the first of the eight packed squares equal to `sq`, and
/// the mask `0xFF` of that byte (found with one SWAR scan); when none is
/// equal, garbage index in 0..8 and mask 0.
#[inline(always)]
pub(super) fn find_lane(squares: &[u8; 8], sq: u8) -> (usize, u64) {
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
pub(super) fn find(squares: &[u8; 8], sq: u8) -> usize {
    find_lane(squares, sq).0
}

/// The square of animal `a` in a side's `squares`, masked to 0..64
/// (63: captured) so that the compiler drops the bounds checks on the
/// 64-entry tables.
#[inline(always)]
fn sq_of(squares: &[u8; 8], a: usize) -> usize {
    squares[a] as usize & 63
}

/// The landing squares of the river jumps from `from` (a square index, or
/// 63 for a captured animal) in the directions `dirs` allows, each kept
/// only when no square where a Rat blocks it (in `pairs`: its path or its
/// river) is in `blockers`. Branchless: every
/// square has at most two jumps (see [`JUMP_PAIRS`] and [`LANDINGS`]).
#[inline(always)]
pub(super) fn jump_targets(pairs: &[JumpPair; 64], from: usize, dirs: u8, blockers: u64) -> u64 {
    let j = &pairs[from & 63];
    let open = |k: usize| j.to[k] & ((j.path[k] & blockers == 0) as u64).wrapping_neg();
    (open(0) | open(1)) & LANDINGS[(dirs & 15) as usize]
}

impl Jungle {
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
    pub(super) fn has_disarmed(&self, side: Side) -> bool {
        self.rules.trapped_attacks == TrappedAttacks::None
            && self.occ[side.index()] & TRAPS[side.index() ^ 1] != 0
    }

    /// The destinations of `side`'s animals with every capture the capture
    /// table allows, trapped attackers included.
    #[inline(always)]
    pub(super) fn board_destination_bits(&self, side: Side) -> [u64; 8] {
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
        let from = sq_of(&self.squares[s], RAT);
        let cap_rat = if WATER >> from & 1 != 0 {
            rat & (WATER | bank)
        } else {
            (rat & (LAND | bank)) | elephant | trapped
        };
        let reach = |a: usize| self.reach(s, a);
        [
            reach(RAT) & (empty | cap_rat),
            reach(CAT) & (empty | cap_cat),
            reach(DOG) & (empty | cap_dog),
            reach(WOLF) & (empty | cap_wolf),
            reach(LEOPARD) & (empty | cap_leopard),
            reach(TIGER) & (empty | cap_tiger),
            reach(LION) & (empty | cap_lion),
            reach(ELEPHANT) & (empty | cap_elephant),
        ]
    }

    /// Where the animal `a` of side `s` could move if the squares it
    /// reaches were empty: its steps (the Rat's into the water too, none
    /// into its own den) and, for the Tiger and the Lion, the river jumps
    /// the rules give it that no Rat blocks; empty for a captured animal.
    /// Which of these squares are open to it (empty, or an enemy it may
    /// capture) is the caller's to say: a move onto an empty square needs
    /// only this, which [`Position::is_legal`] tests alone for such a move
    /// (un-moves test one each).
    #[inline(always)]
    pub(super) fn reach(&self, s: usize, a: usize) -> u64 {
        let rules = &self.rules;
        let from = sq_of(&self.squares[s], a);
        let jumps = |dirs: u8| {
            let blockers = match rules.jump_block {
                JumpBlock::AnyRat => self.occ[0] | self.occ[1],
                JumpBlock::EnemyRat => self.occ[s ^ 1],
            };
            jump_targets(
                &JUMP_PAIRS[rules.jump_block_area as usize & 1],
                from,
                dirs,
                blockers,
            )
        };
        match a {
            RAT => RAT_STEPS[s][from],
            TIGER => LAND_STEPS[s][from] | jumps(rules.tiger_jumps.direction_mask()),
            LION => LAND_STEPS[s][from] | jumps(rules.lion_jumps.direction_mask()),
            _ => LAND_STEPS[s][from],
        }
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
    pub(super) fn count_disarmed(
        squares: [[u8; 8]; 2],
        occ: [u64; 2],
        rules: Rules,
        side: Side,
    ) -> usize {
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
    pub(super) fn disarmed_destination_bits(
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
    /// let standard = Jungle::from_text(text, Rules::standard()).unwrap();
    /// assert!(standard.destinations("a4".parse().unwrap()).contains(d4));
    /// // Under `datou` a Rat anywhere in the river crossed blocks it.
    /// let datou = Jungle::from_text(text, Rules::datou()).unwrap();
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
    /// let pos = Jungle::from_text("7/7/7/7/7/7/7/l6/L5E w 0 1", Rules::standard()).unwrap();
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
