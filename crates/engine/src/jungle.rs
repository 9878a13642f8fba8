//! Jungle (斗兽棋) evaluation and search hooks.
//!
//! * [`JungleWeights`]: every weight of the evaluation in one place;
//!   [`Default`] gives the tuned values, [`JungleWeights::material_only`] a
//!   plain material count (a yardstick for matches).
//! * [`JungleEval`]: the static evaluation, an
//!   [`Evaluator<Jungle>`](qi_core::Evaluator): material for the rank order
//!   in force, closeness to the enemy den measured with breadth-first
//!   distance tables per kind of mover (walkers, the swimming Rat, river
//!   jumpers under the jump rules in force), den threats, den defence, the
//!   Rat–Elephant relation, mobility, and pieces en prise.
//! * [`JungleHooks`]: the search hooks, a
//!   [`SearchHooks<Game>`](qi_search::SearchHooks): MVV-LVA capture order,
//!   and quiescence on captures, den entries and den threats.
//!
//! # The evaluation, term by term
//!
//! Scores are from the side to move's point of view, clamped to
//! ±[`EVAL_LIMIT`]; every term is computed for both sides and subtracted,
//! so a position and its colour-flipped mirror (board turned 180°, colours
//! and side to move swapped) score the same.
//!
//! 1. **Den races.** The side to move having an animal next to the enemy
//!    den (it enters next move) scores [`JungleWeights::den_win`]; the enemy
//!    having two animals next to our den, or one we cannot capture, scores
//!    `-den_win`. (The squares next to a den are its owner's traps.)
//! 2. **Material** ([`JungleWeights::material`]) for the rank order in
//!    force, plus [`JungleWeights::rat_vs_elephant`] for a Rat while the
//!    enemy Elephant lives.
//! 3. **Advancement**: [`JungleWeights::proximity`] by the number of moves
//!    the animal needs to reach the enemy den, from tables computed at
//!    compile time by breadth-first search per side and kind of mover
//!    (walker; Rat, which swims; Lion/Tiger jumping both ways, along ranks
//!    only or along files only), scaled per animal by
//!    [`JungleWeights::advance`]. Which table a Lion or Tiger uses follows
//!    the position's [`Rules`].
//! 4. **Den defence**: [`JungleWeights::den_defender`] per own animal within
//!    two steps of its den; [`JungleWeights::open_trap`] against the side
//!    to move for each trap next to its den that an enemy animal can step
//!    onto while no own animal guards it.
//! 5. **Rat and Elephant**: [`JungleWeights::rat_near_elephant`] when the
//!    enemy Rat is within three steps of one's Elephant.
//! 6. **Mobility**: [`JungleWeights::mobility`] per destination square
//!    (popcounts of the destination masks).
//! 7. **Pieces en prise**: for each capture the enemy could make, its gain
//!    (the victim's value, less the cheapest attacker's if the victim is
//!    defended); the side to move loses
//!    [`JungleWeights::hanging_first_pct`] of the best and
//!    [`JungleWeights::hanging_second_pct`] of the second best (it can save
//!    one), and gains [`JungleWeights::threat_pct`] of its own best capture.
//! 8. **Tempo**: [`JungleWeights::tempo`] for the side to move.
//!
//! Everything the evaluation needs per call is a few bitboard operations
//! and lookups in tables built at compile time: no allocation.
//!
//! ```
//! use qi_core::Evaluator;
//! use qi_jungle::{Jungle, Rules};
//! use qi_engine::jungle::JungleEval;
//!
//! let eval = JungleEval::default();
//! let start = Jungle::new(Rules::standard());
//! // The start position is symmetric: only the tempo bonus remains.
//! assert_eq!(eval.evaluate(&start), eval.weights().tempo);
//! ```

use qi_core::{Evaluator, Position, Side};
use qi_jungle::{Animal, Game, Jumps, Jungle, Move, Piece, RankOrder, Rules, Square, DENS, WATER};
use qi_search::SearchHooks;

/// Largest magnitude an evaluation ever takes (the search's mate scores
/// start far above it).
pub const EVAL_LIMIT: i32 = 19_000;

/// Entries of [`JungleWeights::proximity`]: den distances from 0 to
/// `PROXIMITY_LEN - 1` steps (larger distances use the last entry).
pub const PROXIMITY_LEN: usize = 16;

/// Every weight of the Jungle evaluation, in centi-units unless said
/// otherwise. Arrays indexed by animal use [`Animal::index`] (Rat 0 …
/// Elephant 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JungleWeights {
    /// Material value of each animal under the standard rank order (Wolf
    /// over Dog); under Dog over Wolf the Wolf and Dog values are swapped,
    /// so a value always follows the strength.
    pub material: [i32; 8],
    /// Extra value of a Rat while the enemy Elephant lives (it is the only
    /// animal that can take the Elephant).
    pub rat_vs_elephant: i32,
    /// Bonus by distance to the enemy den (in moves of the animal, water
    /// and river jumps counted as the animal can use them), index 0..16.
    /// Scaled per animal by [`advance`](JungleWeights::advance).
    pub proximity: [i32; PROXIMITY_LEN],
    /// Per-animal scale of [`proximity`](JungleWeights::proximity), in percent.
    pub advance: [i32; 8],
    /// Bonus per own animal within two steps (Manhattan) of its own den,
    /// counted up to [`den_defenders_max`](JungleWeights::den_defenders_max).
    pub den_defender: i32,
    /// Most defenders counted by [`den_defender`](JungleWeights::den_defender).
    pub den_defenders_max: u32,
    /// Penalty when the enemy Rat stands 1, 2 or 3 steps (Manhattan; index
    /// 1..=3, index 0 unused) from one's Elephant.
    pub rat_near_elephant: [i32; 4],
    /// Bonus per square an animal could move to (destination masks).
    pub mobility: i32,
    /// Of the side to move's pieces the enemy could win by a capture, the
    /// share (percent) of the value of the second best one that counts
    /// against it (it can save only one).
    pub hanging_second_pct: i32,
    /// The share (percent) of the best one that counts against it.
    pub hanging_first_pct: i32,
    /// Share (percent) of the best capture gain the side to move threatens
    /// that counts for it.
    pub threat_pct: i32,
    /// Bonus for being the side to move.
    pub tempo: i32,
    /// Penalty for the side to move per trap next to its den that an enemy
    /// animal can step onto while no animal of its own stands next to that
    /// trap (the enemy threatens to enter the den); index 1 for one such
    /// trap, 2 for two or more (index 0 unused).
    pub open_trap: [i32; 3],
    /// Score of a decided den race: the side to move has an animal next to
    /// the enemy den (it enters next move), or the enemy has one next to
    /// its den that it cannot remove. Below [`EVAL_LIMIT`].
    pub den_win: i32,
}

impl Default for JungleWeights {
    /// The tuned weights. Checked by self-play at 20 000–30 000 nodes per
    /// move over the 100 games of `openings/jungle.txt` (each opening with
    /// both colours): against [`material_only`](JungleWeights::material_only)
    /// they score about 94%; halving or doubling the mobility, advancement,
    /// en-prise, den-defender and open-trap weights, or a Rat of 300/500
    /// without the Elephant bonus, stayed within the noise (±50 Elo), and
    /// the Rat at 300 + 200 while the enemy Elephant lives gained +36 Elo
    /// over 200 games.
    fn default() -> JungleWeights {
        JungleWeights {
            // Rat Cat Dog Wolf Leopard Tiger Lion Elephant
            material: [300, 250, 300, 350, 550, 850, 950, 1000],
            rat_vs_elephant: 200,
            proximity: [0, 180, 120, 80, 55, 40, 30, 22, 16, 11, 7, 4, 2, 1, 0, 0],
            advance: [70, 50, 60, 70, 85, 100, 100, 100],
            den_defender: 25,
            den_defenders_max: 2,
            rat_near_elephant: [0, 60, 30, 10],
            mobility: 3,
            hanging_second_pct: 50,
            hanging_first_pct: 10,
            threat_pct: 10,
            tempo: 10,
            open_trap: [0, 80, 400],
            den_win: 15_000,
        }
    }
}

impl JungleWeights {
    /// Material only: the material values and the den-race detection, every
    /// positional weight zero (a yardstick for matches).
    pub fn material_only() -> JungleWeights {
        JungleWeights {
            rat_vs_elephant: 0,
            proximity: [0; PROXIMITY_LEN],
            advance: [0; 8],
            den_defender: 0,
            den_defenders_max: 0,
            rat_near_elephant: [0; 4],
            mobility: 0,
            hanging_second_pct: 0,
            hanging_first_pct: 0,
            threat_pct: 0,
            tempo: 0,
            open_trap: [0; 3],
            ..JungleWeights::default()
        }
    }

    /// The weight set of a profile name: `default` (also `tuned`) or
    /// `material`. Case is ignored.
    pub fn named(name: &str) -> Option<JungleWeights> {
        match name.trim().to_ascii_lowercase().as_str() {
            "default" | "tuned" => Some(JungleWeights::default()),
            "material" | "material_only" => Some(JungleWeights::material_only()),
            _ => None,
        }
    }

    /// The profile names [`named`](JungleWeights::named) knows.
    pub const PROFILES: [&'static str; 2] = ["default", "material"];
}

// ---------------------------------------------------------------------------
// Board tables (compile time).

const RAT: usize = Animal::Rat as usize;
const TIGER: usize = Animal::Tiger as usize;
const LION: usize = Animal::Lion as usize;
const ELEPHANT: usize = Animal::Elephant as usize;
const NO_SQUARE: u8 = 63;

/// Distance value of squares an animal can never stand on or reach.
const FAR: u8 = (PROXIMITY_LEN - 1) as u8;

/// Movement kinds with a distance table of their own.
const KIND_WALK: usize = 0;
const KIND_RAT: usize = 1;
const KIND_JUMP_BOTH: usize = 2;
const KIND_JUMP_H: usize = 3;
const KIND_JUMP_V: usize = 4;
const KINDS: usize = 5;

const fn is_water(sq: usize) -> bool {
    WATER >> sq & 1 != 0
}

/// The square one step from `sq` in direction `d` (0 north, 1 south,
/// 2 east, 3 west), or 63 off the board.
const fn step(sq: usize, d: usize) -> usize {
    let (f, r) = (sq % 7, sq / 7);
    match d {
        0 if r < 8 => sq + 7,
        1 if r > 0 => sq - 7,
        2 if f < 6 => sq + 1,
        3 if f > 0 => sq - 1,
        _ => 63,
    }
}

const fn steps_table() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 63 {
        let mut d = 0;
        while d < 4 {
            let n = step(sq, d);
            if n < 63 {
                t[sq] |= 1u64 << n;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// Orthogonal neighbours of each square (entry 63: none).
const STEPS: [u64; 64] = steps_table();

/// The landing square of a river jump from `sq` in direction `d`, or 63.
const fn jump(sq: usize, d: usize) -> usize {
    if is_water(sq) {
        return 63;
    }
    let mut cur = step(sq, d);
    let mut crossed = false;
    while cur < 63 && is_water(cur) {
        crossed = true;
        cur = step(cur, d);
    }
    if crossed {
        cur
    } else {
        63
    }
}

/// Breadth-first distances (in moves) from every square to the den of
/// `target_side`'s enemy, for an animal of `side` moving like `kind`; the
/// mover's own den is never entered. Unreachable squares get [`FAR`].
const fn distances(side: usize, kind: usize) -> [u8; 64] {
    let target = if side == 0 { 59 } else { 3 };
    let own_den = if side == 0 { 3 } else { 59 };
    let mut dist = [u8::MAX; 64];
    let mut queue = [0usize; 64];
    let (mut head, mut tail) = (0, 1);
    dist[target] = 0;
    queue[0] = target;
    while head < tail {
        let sq = queue[head];
        head += 1;
        let mut d = 0;
        while d < 8 {
            // Directions 0..4 are steps, 4..8 jumps (moves are symmetric,
            // so searching outward from the den gives distances to it).
            let n = if d < 4 {
                let n = step(sq, d);
                if n < 63 && is_water(n) && kind != KIND_RAT {
                    63
                } else {
                    n
                }
            } else {
                let dir = d - 4;
                let allowed = match kind {
                    KIND_JUMP_BOTH => true,
                    KIND_JUMP_H => dir >= 2,
                    KIND_JUMP_V => dir < 2,
                    _ => false,
                };
                if allowed {
                    jump(sq, dir)
                } else {
                    63
                }
            };
            if n < 63 && n != own_den && dist[n] == u8::MAX {
                dist[n] = dist[sq] + 1;
                queue[tail] = n;
                tail += 1;
            }
            d += 1;
        }
    }
    let mut sq = 0;
    while sq < 64 {
        if dist[sq] > FAR {
            dist[sq] = FAR;
        }
        sq += 1;
    }
    dist
}

const fn all_distances() -> [[[u8; 64]; 2]; KINDS] {
    let mut t = [[[0u8; 64]; 2]; KINDS];
    let mut kind = 0;
    while kind < KINDS {
        t[kind][0] = distances(0, kind);
        t[kind][1] = distances(1, kind);
        kind += 1;
    }
    t
}

/// `DISTANCE[kind][side][square]`: moves from `square` to the enemy den of
/// `side` for a mover of `kind` (capped at [`FAR`]).
const DISTANCE: [[[u8; 64]; 2]; KINDS] = all_distances();

const fn manhattan_table() -> [[u8; 64]; 64] {
    let mut t = [[0u8; 64]; 64];
    let mut a = 0;
    while a < 63 {
        let mut b = 0;
        while b < 63 {
            let (fa, ra, fb, rb): (usize, usize, usize, usize) = (a % 7, a / 7, b % 7, b / 7);
            let df = fa.abs_diff(fb);
            let dr = ra.abs_diff(rb);
            t[a][b] = (df + dr) as u8;
            b += 1;
        }
        a += 1;
    }
    t
}

/// Manhattan distance between squares.
const MANHATTAN: [[u8; 64]; 64] = manhattan_table();

const fn den_zone(den: usize) -> u64 {
    let mut m = 0u64;
    let mut sq = 0;
    while sq < 63 {
        if sq != den && MANHATTAN[sq][den] <= 2 {
            m |= 1u64 << sq;
        }
        sq += 1;
    }
    m
}

/// Squares within two steps of each side's den (the den excluded).
const DEN_ZONE: [u64; 2] = [den_zone(3), den_zone(59)];

/// Squares next to each side's den (they are that side's three traps).
const DEN_ADJACENT: [u64; 2] = [STEPS[3], STEPS[59]];

/// The distance-table kind of a Lion or Tiger jumping like `jumps`.
const fn jump_kind(jumps: Jumps) -> usize {
    match jumps {
        Jumps::None => KIND_WALK,
        Jumps::Both => KIND_JUMP_BOTH,
        Jumps::HorizontalOnly => KIND_JUMP_H,
        Jumps::VerticalOnly => KIND_JUMP_V,
    }
}

/// The distance-table kind of each animal under `rules`.
fn kinds(rules: &Rules) -> [usize; 8] {
    let mut k = [KIND_WALK; 8];
    k[RAT] = KIND_RAT;
    k[TIGER] = jump_kind(rules.tiger_jumps);
    k[LION] = jump_kind(rules.lion_jumps);
    k
}

/// Moves from `square` to the enemy den for `animal` of `side` under
/// `rules`, counting water and river jumps as the animal may use them
/// (other animals ignored); at most 15, also for squares that cannot reach
/// it. Exposed for tests and tools.
pub fn den_distance(rules: &Rules, side: Side, animal: Animal, square: Square) -> u32 {
    let kind = kinds(rules)[animal.index()];
    u32::from(DISTANCE[kind][side.index()][square.index() as usize])
}

// ---------------------------------------------------------------------------
// Evaluation.

/// The Jungle static evaluation (see the [module docs](self)). Build it
/// from [`JungleWeights`]; [`Default`] uses the tuned weights.
#[derive(Clone, Debug)]
pub struct JungleEval {
    weights: JungleWeights,
    /// `advance[animal][distance]`: proximity scaled per animal.
    advance: [[i32; PROXIMITY_LEN]; 8],
}

impl Default for JungleEval {
    fn default() -> JungleEval {
        JungleEval::new(JungleWeights::default())
    }
}

impl JungleEval {
    /// An evaluation with these weights.
    pub fn new(weights: JungleWeights) -> JungleEval {
        let mut advance = [[0; PROXIMITY_LEN]; 8];
        for (a, row) in advance.iter_mut().enumerate() {
            for (d, v) in row.iter_mut().enumerate() {
                *v = weights.proximity[d] * weights.advance[a] / 100;
            }
        }
        JungleEval { weights, advance }
    }

    /// The weights in use.
    pub fn weights(&self) -> &JungleWeights {
        &self.weights
    }

    /// Material values per animal index under `order`.
    #[inline(always)]
    fn values(&self, order: RankOrder) -> [i32; 8] {
        material_values(&self.weights.material, order)
    }

    /// The gain of the best and second-best capture `attacker` can make on
    /// `victim`'s pieces (capture value less the attacker's when the victim
    /// is defended), given `attacker`'s destination masks.
    #[inline]
    fn capture_gains(
        &self,
        pos: &Jungle,
        attacker: Side,
        masks: &[u64; 8],
        values: &[i32; 8],
    ) -> (i32, i32) {
        let victim = attacker.opponent();
        let victim_occ = pos.occupancy(victim).0;
        let all = masks.iter().fold(0, |acc, &m| acc | m) & victim_occ;
        if all == 0 {
            return (0, 0);
        }
        let vsq = pos.animal_squares(victim);
        let (mut best, mut second) = (0, 0);
        for v in 0..8 {
            let sq = vsq[v];
            if sq == NO_SQUARE || all >> sq & 1 == 0 {
                continue;
            }
            // The cheapest attacker of this square.
            let mut cheapest = usize::MAX;
            for (a, &m) in masks.iter().enumerate() {
                if m >> sq & 1 != 0 && (cheapest == usize::MAX || values[a] < values[cheapest]) {
                    cheapest = a;
                }
            }
            let to = Square::new(sq).expect("on the board");
            let attacker_piece = Piece::new(attacker, Animal::ALL[cheapest]);
            // Defended: another animal of the victim's next to the square
            // could take the attacker there.
            let mut near = STEPS[sq as usize] & pos.occupancy(victim).0;
            let mut defended = false;
            while near != 0 {
                let from = near.trailing_zeros() as u8;
                near &= near - 1;
                let d = vsq.iter().position(|&s| s == from).unwrap_or(0);
                let from_sq = Square::new(from).expect("on the board");
                if pos.capture_allowed(
                    Piece::new(victim, Animal::ALL[d]),
                    from_sq,
                    attacker_piece,
                    to,
                ) {
                    defended = true;
                    break;
                }
            }
            let gain = if defended {
                (values[v] - values[cheapest]).max(0)
            } else {
                values[v]
            };
            if gain > best {
                second = best;
                best = gain;
            } else if gain > second {
                second = gain;
            }
        }
        (best, second)
    }

    /// The side-independent part of the score of `side`: material,
    /// advancement, den defenders, Rat–Elephant, mobility.
    #[inline]
    fn side_terms(
        &self,
        pos: &Jungle,
        side: Side,
        masks: &[u64; 8],
        values: &[i32; 8],
        kinds: &[usize; 8],
    ) -> i32 {
        let w = &self.weights;
        let s = side.index();
        let own = pos.animal_squares(side);
        let enemy = pos.animal_squares(side.opponent());
        let mut score = 0;
        for a in 0..8 {
            let sq = own[a];
            if sq == NO_SQUARE {
                continue;
            }
            score += values[a];
            let d = DISTANCE[kinds[a]][s][sq as usize] as usize;
            score += self.advance[a][d];
            score += w.mobility * masks[a].count_ones() as i32;
        }
        if own[RAT] != NO_SQUARE && enemy[ELEPHANT] != NO_SQUARE {
            score += w.rat_vs_elephant;
        }
        if own[ELEPHANT] != NO_SQUARE && enemy[RAT] != NO_SQUARE {
            let m = MANHATTAN[own[ELEPHANT] as usize][enemy[RAT] as usize] as usize;
            if m < 4 {
                score -= w.rat_near_elephant[m];
            }
        }
        let defenders = (pos.occupancy(side).0 & DEN_ZONE[s]).count_ones();
        score += w.den_defender * defenders.min(w.den_defenders_max) as i32;
        score
    }
}

/// Material values per animal index under `order` (Wolf and Dog swap
/// under Dog over Wolf).
#[inline(always)]
fn material_values(material: &[i32; 8], order: RankOrder) -> [i32; 8] {
    let mut v = *material;
    if order == RankOrder::DogOverWolf {
        v.swap(Animal::Dog.index(), Animal::Wolf.index());
    }
    v
}

impl Evaluator<Jungle> for JungleEval {
    fn evaluate(&self, pos: &Jungle) -> i32 {
        let w = &self.weights;
        let us = pos.side_to_move();
        let them = us.opponent();
        let occ_us = pos.occupancy(us).0;
        let occ_them = pos.occupancy(them).0;
        // Decided den races.
        if occ_us & DEN_ADJACENT[them.index()] != 0 {
            return w.den_win.min(EVAL_LIMIT);
        }
        let masks_us = pos.destination_masks(us);
        let intruders = occ_them & DEN_ADJACENT[us.index()];
        if intruders != 0 {
            let reach = masks_us.iter().fold(0, |acc, &m| acc | m);
            if intruders.count_ones() >= 2 || intruders & !reach != 0 {
                return -w.den_win.min(EVAL_LIMIT);
            }
        }
        let masks_them = pos.destination_masks(them);
        let rules = pos.rules();
        let values = self.values(rules.rank_order);
        let kinds = kinds(rules);
        let mut score = w.tempo;
        score += self.side_terms(pos, us, &masks_us, &values, &kinds);
        score -= self.side_terms(pos, them, &masks_them, &values, &kinds);
        let reach_them = masks_them.iter().fold(0, |acc, &m| acc | m);
        let mut open = DEN_ADJACENT[us.index()] & reach_them;
        let mut open_traps = 0;
        while open != 0 {
            let t = open.trailing_zeros() as usize;
            open &= open - 1;
            if STEPS[t] & occ_us == 0 {
                open_traps += 1;
            }
        }
        score -= w.open_trap[open_traps.min(2)];
        if w.hanging_first_pct != 0 || w.hanging_second_pct != 0 {
            let (best, second) = self.capture_gains(pos, them, &masks_them, &values);
            score -= (best * w.hanging_first_pct + second * w.hanging_second_pct) / 100;
        }
        if w.threat_pct != 0 {
            let (best, _) = self.capture_gains(pos, us, &masks_us, &values);
            score += best * w.threat_pct / 100;
        }
        score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

// ---------------------------------------------------------------------------
// Search hooks.

/// Search hooks for Jungle: captures ordered most valuable victim first
/// (least valuable attacker first among equals), and quiescence on
/// captures, den entries and moves onto a square next to the enemy den (den
/// threats); null moves by [`Game::play_null`]; "check" when an enemy
/// animal stands next to the den of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JungleHooks {
    /// Material values used for ordering (standard rank order; Wolf and Dog
    /// swap under Dog over Wolf).
    pub material: [i32; 8],
}

impl Default for JungleHooks {
    fn default() -> JungleHooks {
        JungleHooks {
            material: JungleWeights::default().material,
        }
    }
}

impl JungleHooks {
    /// Hooks ordering captures by the material values of `weights`.
    pub fn new(weights: &JungleWeights) -> JungleHooks {
        JungleHooks {
            material: weights.material,
        }
    }

    /// Whether an enemy animal stands next to the den of the side to move
    /// in `pos` (the Jungle "check": it enters next move unless captured).
    #[inline]
    pub fn den_attacked(pos: &Jungle) -> bool {
        let us = pos.side_to_move();
        pos.occupancy(us.opponent()).0 & DEN_ADJACENT[us.index()] != 0
    }

    /// Whether `mv` (a move of the side to move in `pos`) enters the enemy
    /// den or a square next to it.
    #[inline]
    pub fn is_den_move(pos: &Jungle, mv: Move) -> bool {
        let enemy = pos.side_to_move().opponent().index();
        (DEN_ADJACENT[enemy] | DENS[enemy]) & mv.to.bit() != 0
    }
}

impl SearchHooks<Game> for JungleHooks {
    fn capture_order(&self, game: &Game, mv: Move) -> i32 {
        let pos = game.position();
        let values = material_values(&self.material, pos.rules().rank_order);
        let value = |sq: Square| match pos.piece_at(sq) {
            Some(p) => values[p.animal.index()],
            None => 0,
        };
        16 * value(mv.to) - value(mv.from)
    }

    fn is_tactical(&self, game: &Game, mv: Move) -> bool {
        let pos = game.position();
        pos.is_capture(mv) || JungleHooks::is_den_move(pos, mv)
    }

    /// Passes ([`Game::play_null`]) unless the side to move must answer an
    /// enemy animal next to its den, or is down to two animals or fewer
    /// (where having to move can hurt).
    fn make_null(&self, game: &mut Game) -> bool {
        let pos = game.position();
        let us = pos.side_to_move();
        if JungleHooks::den_attacked(pos) || pos.animal_count(us) <= 2 {
            return false;
        }
        game.play_null();
        true
    }

    fn undo_null(&self, game: &mut Game) {
        game.undo_null();
    }

    /// An enemy animal stands next to the side to move's den (it enters
    /// next move unless captured).
    fn in_check(&self, game: &Game) -> bool {
        JungleHooks::den_attacked(game.position())
    }
}
