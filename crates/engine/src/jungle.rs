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

use qi_core::{Bitboard, Evaluator, Position, Side};
use qi_jungle::tables::{den_square, jump_targets, land_steps, rat_steps, steps, DENS};
use qi_jungle::{Animal, Game, Jumps, Jungle, Move, Piece, RankOrder, Rules, Square};
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
// Evaluation tables (compile time), built from the rules' own tables.

/// Distance value of squares an animal can never stand on or reach.
const FAR: u8 = (PROXIMITY_LEN - 1) as u8;

/// Movement kinds with a distance table of their own.
const KIND_WALK: usize = 0;
const KIND_RAT: usize = 1;
const KIND_JUMP_BOTH: usize = 2;
const KIND_JUMP_H: usize = 3;
const KIND_JUMP_V: usize = 4;
const KINDS: usize = 5;

/// The river jumps of each movement kind.
const KIND_JUMPS: [Jumps; KINDS] = [
    Jumps::None,
    Jumps::None,
    Jumps::Both,
    Jumps::HorizontalOnly,
    Jumps::VerticalOnly,
];

/// The square of index `index`, which the caller knows is on the board.
const fn square(index: usize) -> Square {
    match Square::new(index as u8) {
        Some(sq) => sq,
        None => panic!("off the board"),
    }
}

/// Breadth-first distances (in moves) from every square to the enemy den
/// of an animal of `side` moving like `kind` (its own den is never
/// entered). Unreachable squares get [`FAR`].
const fn distances(side: Side, kind: usize) -> [u8; 64] {
    let target = den_square(side.opponent());
    let mut dist = [u8::MAX; 64];
    let mut queue = [target; 63];
    let (mut head, mut tail) = (0, 1);
    dist[target.index() as usize] = 0;
    while head < tail {
        let sq = queue[head];
        head += 1;
        // Moves are symmetric, so searching outward from the den gives
        // distances to it.
        let walk = if kind == KIND_RAT {
            rat_steps(side, sq)
        } else {
            land_steps(side, sq)
        };
        let mut next = walk.0 | jump_targets(sq, KIND_JUMPS[kind], Bitboard::EMPTY).0;
        while next != 0 {
            let n = next.trailing_zeros() as usize;
            next &= next - 1;
            if dist[n] == u8::MAX {
                dist[n] = dist[sq.index() as usize] + 1;
                queue[tail] = square(n);
                tail += 1;
            }
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
        t[kind][0] = distances(Side::First, kind);
        t[kind][1] = distances(Side::Second, kind);
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
            let (sa, sb) = (square(a), square(b));
            t[a][b] = sa.file().abs_diff(sb.file()) + sa.rank().abs_diff(sb.rank());
            b += 1;
        }
        a += 1;
    }
    t
}

/// Manhattan distance between squares.
const MANHATTAN: [[u8; 64]; 64] = manhattan_table();

const fn den_zone(side: Side) -> Bitboard {
    let den = den_square(side).index() as usize;
    let mut m = 0u64;
    let mut sq = 0;
    while sq < 63 {
        if sq != den && MANHATTAN[sq][den] <= 2 {
            m |= 1u64 << sq;
        }
        sq += 1;
    }
    Bitboard(m)
}

/// Squares within two steps of each side's den (the den excluded).
const DEN_ZONE: [Bitboard; 2] = [den_zone(Side::First), den_zone(Side::Second)];

/// Squares next to each side's den (they are that side's three traps).
const DEN_ADJACENT: [Bitboard; 2] = [
    steps(den_square(Side::First)),
    steps(den_square(Side::Second)),
];

/// The squares of a set, lowest first.
#[inline(always)]
fn squares(set: Bitboard) -> impl Iterator<Item = Square> {
    set.iter().filter_map(Square::new)
}

/// The union of destination masks.
#[inline(always)]
fn union(masks: &[Bitboard; 8]) -> Bitboard {
    masks.iter().fold(Bitboard::EMPTY, |acc, &m| acc | m)
}

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
    k[Animal::Rat.index()] = KIND_RAT;
    k[Animal::Tiger.index()] = jump_kind(rules.tiger_jumps);
    k[Animal::Lion.index()] = jump_kind(rules.lion_jumps);
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
        masks: &[Bitboard; 8],
        values: &[i32; 8],
    ) -> (i32, i32) {
        let victim = attacker.opponent();
        let victim_occ = pos.occupancy(victim);
        let all = union(masks) & victim_occ;
        if all.is_empty() {
            return (0, 0);
        }
        let vsq = pos.animal_squares(victim);
        let (mut best, mut second) = (0, 0);
        for (v, &sq) in vsq.iter().enumerate() {
            // A captured animal's square is off the board.
            let Some(to) = Square::new(sq) else {
                continue;
            };
            if !all.contains(sq) {
                continue;
            }
            // The cheapest attacker of this square.
            let mut cheapest = usize::MAX;
            for (a, &m) in masks.iter().enumerate() {
                if m.contains(sq) && (cheapest == usize::MAX || values[a] < values[cheapest]) {
                    cheapest = a;
                }
            }
            let attacker_piece = Piece::new(attacker, Animal::ALL[cheapest]);
            // Defended: another animal of the victim's next to the square
            // could take the attacker there.
            let mut defended = false;
            for from in squares(steps(to) & victim_occ) {
                let d = vsq.iter().position(|&s| s == from.index()).unwrap_or(0);
                if pos.capture_allowed(Piece::new(victim, Animal::ALL[d]), from, attacker_piece, to)
                {
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
        masks: &[Bitboard; 8],
        values: &[i32; 8],
        kinds: &[usize; 8],
    ) -> i32 {
        let w = &self.weights;
        let s = side.index();
        let own = pos.animal_squares(side);
        let enemy = pos.animal_squares(side.opponent());
        // A captured animal's square is off the board.
        let alive = |sq: u8| Square::new(sq).is_some();
        let mut score = 0;
        for a in 0..8 {
            let sq = own[a];
            if !alive(sq) {
                continue;
            }
            score += values[a];
            let d = DISTANCE[kinds[a]][s][sq as usize] as usize;
            score += self.advance[a][d];
            score += w.mobility * masks[a].count() as i32;
        }
        let (rat, elephant) = (Animal::Rat.index(), Animal::Elephant.index());
        if alive(own[rat]) && alive(enemy[elephant]) {
            score += w.rat_vs_elephant;
        }
        if alive(own[elephant]) && alive(enemy[rat]) {
            let m = MANHATTAN[own[elephant] as usize][enemy[rat] as usize] as usize;
            if m < 4 {
                score -= w.rat_near_elephant[m];
            }
        }
        let defenders = (pos.occupancy(side) & DEN_ZONE[s]).count();
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
        let occ_us = pos.occupancy(us);
        let occ_them = pos.occupancy(them);
        // Decided den races.
        if occ_us.intersects(DEN_ADJACENT[them.index()]) {
            return w.den_win.min(EVAL_LIMIT);
        }
        let masks_us = pos.destination_masks(us);
        let intruders = occ_them & DEN_ADJACENT[us.index()];
        if intruders.any() && (intruders.count() >= 2 || (intruders - union(&masks_us)).any()) {
            return -w.den_win.min(EVAL_LIMIT);
        }
        let masks_them = pos.destination_masks(them);
        let rules = pos.rules();
        let values = self.values(rules.rank_order);
        let kinds = kinds(rules);
        let mut score = w.tempo;
        score += self.side_terms(pos, us, &masks_us, &values, &kinds);
        score -= self.side_terms(pos, them, &masks_them, &values, &kinds);
        let open = DEN_ADJACENT[us.index()] & union(&masks_them);
        let open_traps = squares(open)
            .filter(|&t| !steps(t).intersects(occ_us))
            .count();
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
        pos.occupancy(us.opponent())
            .intersects(DEN_ADJACENT[us.index()])
    }

    /// Whether `mv` (a move of the side to move in `pos`) enters the enemy
    /// den or a square next to it.
    #[inline]
    pub fn is_den_move(pos: &Jungle, mv: Move) -> bool {
        let enemy = pos.side_to_move().opponent().index();
        (DEN_ADJACENT[enemy] | DENS[enemy]).contains(mv.to.index())
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
