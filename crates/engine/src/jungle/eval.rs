//! The static evaluation and the compile-time tables it reads.

use qi_core::{Bitboard, Evaluator, Position, Side};
use qi_jungle::tables::{den_square, jump_targets, land_steps, rat_steps, steps};
use qi_jungle::{Animal, Jumps, Jungle, Piece, RankOrder, Rules, Square, GEOMETRY};

use std::sync::Arc;

use super::nnue::{self, Network};
use super::weights::{material_values, JungleWeights, PROXIMITY_LEN};

pub use qi_search::EVAL_LIMIT;

// ---------------------------------------------------------------------------
// Evaluation tables (compile time), built from the rules' own tables.

/// The squares of the board.
const SQUARES: usize = GEOMETRY.squares() as usize;

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
    let mut queue = [target; SQUARES];
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
    while a < SQUARES {
        let mut b = 0;
        while b < SQUARES {
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
    while sq < SQUARES {
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
pub(super) const DEN_ADJACENT: [Bitboard; 2] = [
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

/// The Jungle static evaluation (see the [module docs](super)). Build it
/// from [`JungleWeights`]; [`Default`] uses the tuned weights.
#[derive(Clone, Debug)]
pub struct JungleEval {
    weights: JungleWeights,
    /// `advance[animal][distance]`: proximity scaled per animal.
    advance: [[i32; PROXIMITY_LEN]; 8],
    /// The learned evaluation that replaces the hand-written one, if any.
    network: Option<Arc<Network>>,
    /// The network's share of the score in per cent (100: the network
    /// alone); the hand-written evaluation has the rest.
    network_share: u8,
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
        JungleEval {
            weights,
            advance,
            network: None,
            network_share: 100,
        }
    }

    /// This evaluation scoring by `network` instead of its weights (which
    /// stay for the search hooks' capture order).
    pub fn with_network(self, network: Arc<Network>) -> JungleEval {
        JungleEval {
            network: Some(network),
            ..self
        }
    }

    /// This evaluation scoring, when it has a network, by `percent` % of
    /// the network's value and the rest of the hand-written evaluation's
    /// (at most 100, the network alone, the default). A den race the
    /// hand-written evaluation finds decided keeps its value (`den_win`):
    /// a share of it would make a won race look undecided.
    ///
    /// ```
    /// use qi_core::Evaluator;
    /// use qi_engine::jungle::nnue::profile_network;
    /// use qi_engine::jungle::JungleEval;
    /// use qi_jungle::Jungle;
    ///
    /// let pos = Jungle::default();
    /// let hand = JungleEval::default().evaluate(&pos);
    /// let net = JungleEval::default().with_network(profile_network().unwrap());
    /// let alone = net.evaluate(&pos);
    /// let half = net.with_network_share(50).evaluate(&pos);
    /// assert_eq!(half, (alone * 50 + hand * 50) / 100);
    /// ```
    pub fn with_network_share(self, percent: u8) -> JungleEval {
        JungleEval {
            network_share: percent.min(100),
            ..self
        }
    }

    /// The network's share of the score in per cent (100 without a
    /// network, or with the network alone).
    ///
    /// ```
    /// use qi_engine::{EvalProfile, GameKit, JungleKit};
    ///
    /// assert_eq!(JungleKit::eval(EvalProfile::Nnue).network_share(), 100);
    /// assert_eq!(JungleKit::eval(EvalProfile::Hybrid).network_share(), 50);
    /// ```
    pub fn network_share(&self) -> u8 {
        self.network_share
    }

    /// The network that scores, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// The weights in use.
    pub fn weights(&self) -> &JungleWeights {
        &self.weights
    }

    /// The value of a den race already decided in `pos` (the first term of
    /// the hand-written evaluation, see the [module docs](super)):
    /// `den_win` when the side to move has an animal next to the enemy
    /// den, `-den_win` when the enemy has two next to ours or one we cannot
    /// capture, `None` otherwise. With a network, this is all the
    /// hand-written evaluation still says.
    pub fn den_race(&self, pos: &Jungle) -> Option<i32> {
        let us = pos.side_to_move();
        let them = us.opponent();
        let win = self.weights.den_win.min(EVAL_LIMIT);
        if pos.occupancy(us).intersects(DEN_ADJACENT[them.index()]) {
            return Some(win);
        }
        let intruders = pos.occupancy(them) & DEN_ADJACENT[us.index()];
        if intruders.any()
            && (intruders.count() >= 2 || (intruders - union(&pos.destination_masks(us))).any())
        {
            return Some(-win);
        }
        None
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

impl Evaluator<Jungle> for JungleEval {
    fn evaluate(&self, pos: &Jungle) -> i32 {
        let hand = match &self.network {
            Some(net) if self.network_share >= 100 => return nnue::evaluate(net, pos),
            _ => self.hand_written(pos),
        };
        match (&self.network, hand) {
            (None, HandValue::Decided(v) | HandValue::Score(v)) => v,
            // A decided den race keeps its whole value in a mix.
            (Some(_), HandValue::Decided(v)) => v,
            (Some(net), HandValue::Score(h)) => {
                let share = i32::from(self.network_share);
                (nnue::evaluate(net, pos) * share + h * (100 - share)) / 100
            }
        }
    }
}

/// What the hand-written evaluation says of a position: a den race
/// already decided (`±den_win`), or the sum of its terms.
enum HandValue {
    Decided(i32),
    Score(i32),
}

impl JungleEval {
    /// The hand-written evaluation (see the [module docs](super)).
    fn hand_written(&self, pos: &Jungle) -> HandValue {
        let w = &self.weights;
        let us = pos.side_to_move();
        let them = us.opponent();
        let occ_us = pos.occupancy(us);
        let occ_them = pos.occupancy(them);
        // Decided den races.
        if occ_us.intersects(DEN_ADJACENT[them.index()]) {
            return HandValue::Decided(w.den_win.min(EVAL_LIMIT));
        }
        let masks_us = pos.destination_masks(us);
        let intruders = occ_them & DEN_ADJACENT[us.index()];
        if intruders.any() && (intruders.count() >= 2 || (intruders - union(&masks_us)).any()) {
            return HandValue::Decided(-w.den_win.min(EVAL_LIMIT));
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
        HandValue::Score(score.clamp(-EVAL_LIMIT, EVAL_LIMIT))
    }
}
