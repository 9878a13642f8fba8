//! The static evaluation, and the worth of each piece to its side.

use qi_core::{Bitboard32, Evaluator, Position, Side};
use qi_five_tigers::{
    step_count, FiveTigers, Phase, PlacementCapture, Shuttle, ALL_POINTS, FORMATIONS, NEIGHBOURS,
};
use qi_search::EVAL_LIMIT;

use super::weights::FiveTigersWeights;

/// The Five Tigers evaluation: see the [module documentation](super) for
/// its terms. Scores are from the side to move's view and stay within
/// ±19 000.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FiveTigersEval {
    /// The weights in use.
    pub weights: FiveTigersWeights,
}

impl FiveTigersEval {
    /// An evaluation with `weights`.
    pub fn new(weights: FiveTigersWeights) -> FiveTigersEval {
        FiveTigersEval { weights }
    }

    /// The evaluation from First's point of view (positive: good for
    /// First), before clamping.
    pub fn score_for_first(&self, pos: &FiveTigers) -> i32 {
        let w = &self.weights;
        let rules = pos.rules();
        let values = rules.values();
        let boards = [pos.pieces(Side::First).0, pos.pieces(Side::Second).0];
        let empty = ALL_POINTS.0 & !(boards[0] | boards[1]);
        let placement = pos.phase() == Phase::Placement;
        let deferred = rules.placement_capture == PlacementCapture::Deferred;
        let mover = pos.next().index();
        let hands = [
            u32::from(pos.hand(Side::First)),
            u32::from(pos.hand(Side::Second)),
        ];
        let mut s = [0i32; 2];

        // Material.
        for i in 0..2 {
            s[i] += w.piece * (boards[i].count_ones() + hands[i]) as i32;
        }
        // Removals owed, capped by what the victim has on the board.
        let mut left = [boards[0].count_ones(), boards[1].count_ones()];
        for (side, n) in pos.owed().iter() {
            let taker = side.index();
            let take = u32::from(n).min(left[1 - taker]);
            left[1 - taker] -= take;
            s[taker] += w.owed_removal * take as i32;
        }

        // Formations: held, one move from forming, open. A formation with
        // pieces of both sides is dead; an empty one counts alike for both.
        let mut held_w = [0i32; 5];
        let mut gain = [0u8; 5];
        let mut near_w = [0i32; 5];
        for k in 0..5 {
            let v = i32::from(values[k]);
            held_w[k] = if !placement {
                w.held_movement * v
            } else if deferred {
                w.owed_removal * v
            } else {
                w.held_placement
            };
            gain[k] = if placement && !deferred { 1 } else { values[k] };
            near_w[k] = w.near_unreachable * v;
        }
        // The step each side may not play now (shuttle rule): (to, from).
        let mut no_back = [(32u32, 0u32); 2];
        if !placement && rules.shuttle == Shuttle::Forbidden {
            for side in Side::BOTH {
                if let Some(l) = pos.last_step(side) {
                    no_back[side.index()] = (u32::from(l.from.index()), 1 << l.to.index());
                }
            }
        }
        let mut threat = [[0u8; 25]; 2];
        let mut touched = [0u32; 2];
        let mut held_union = [0u32; 2];
        for f in &FORMATIONS {
            let mask = f.mask.0;
            let x = boards[0] & mask;
            let o = boards[1] & mask;
            let (i, own) = match (x != 0, o != 0) {
                (true, false) => (0, x),
                (false, true) => (1, o),
                _ => continue,
            };
            let kind = f.kind as usize;
            match f.kind.size() - own.count_ones() {
                0 => {
                    held_union[i] |= mask;
                    s[i] += held_w[kind];
                }
                1 => {
                    let missing = mask & !own;
                    let p = missing.trailing_zeros();
                    let threat_now = if placement {
                        hands[i] > 0
                    } else {
                        let mut steppers = NEIGHBOURS[p as usize].0 & boards[i] & !mask;
                        if no_back[i].0 == p {
                            steppers &= !no_back[i].1;
                        }
                        steppers != 0
                    };
                    if threat_now {
                        touched[i] |= missing;
                        let t = &mut threat[i][p as usize];
                        *t = t.saturating_add(gain[kind]);
                    } else if !placement {
                        s[i] += near_w[kind];
                    }
                }
                2 => s[i] += w.open_two,
                3 => s[i] += w.open_three,
                _ => {}
            }
        }

        // Threats: the side with the next turn cashes its best one.
        for i in 0..2 {
            let (mut best, mut second, mut total) = (0i32, 0i32, 0i32);
            let mut bits = touched[i];
            while bits != 0 {
                let p = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let t = i32::from(threat[i][p]);
                total += t;
                if t > best {
                    second = best;
                    best = t;
                } else if t > second {
                    second = t;
                }
            }
            if i == mover {
                s[i] += w.threat_to_move * best + w.threat_extra * (total - best);
            } else {
                s[i] += w.threat_waiting * best
                    + w.threat_double * second
                    + w.threat_extra * (total - best - second);
            }
        }

        // Loose pieces.
        for i in 0..2 {
            s[i] -= w.loose * (boards[i] & !held_union[i]).count_ones() as i32;
        }

        // Mobility.
        if !placement {
            let settled = pos.owed().is_empty();
            for i in 0..2 {
                let steps = step_count(Bitboard32(boards[i]), Bitboard32(empty)) as i32;
                s[i] += w.mobility * steps.min(w.mobility_cap);
                if settled && boards[i] != 0 {
                    if steps == 0 {
                        s[i] -= w.no_step;
                    } else if steps == 1 {
                        s[i] -= w.one_step;
                    }
                }
            }
        }

        s[0] - s[1]
    }
}

impl Evaluator<FiveTigers> for FiveTigersEval {
    fn evaluate(&self, pos: &FiveTigers) -> i32 {
        let first = self.score_for_first(pos).clamp(-EVAL_LIMIT, EVAL_LIMIT);
        match pos.side_to_move() {
            Side::First => first,
            Side::Second => -first,
        }
    }
}

/// How much each piece of `side` is worth to it beyond material: its share
/// of open, near and held formations (weighted by value in the movement
/// phase) and its role as the piece that can step into a formation's
/// missing point. Indexed by point; 0 where `side` has no piece.
pub fn piece_worth(pos: &FiveTigers, side: Side) -> [i32; 25] {
    let own_all = pos.pieces(side).0;
    let enemy = pos.pieces(side.opponent()).0;
    let empty = ALL_POINTS.0 & !(own_all | enemy);
    let movement = pos.phase() == Phase::Movement;
    let values = pos.rules().values();
    let mut worth = [0i32; 25];
    for f in &FORMATIONS {
        let mask = f.mask.0;
        if enemy & mask != 0 {
            continue;
        }
        let own = own_all & mask;
        if own == 0 {
            continue;
        }
        let missing = f.kind.size() - own.count_ones();
        let scale = if movement {
            i32::from(values[f.kind as usize])
        } else {
            1
        };
        let base = match missing {
            0 => 6,
            1 => 40,
            2 => 10,
            _ => 3,
        } * scale;
        let mut bits = own;
        while bits != 0 {
            let p = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            worth[p] += base;
        }
        if movement && missing == 1 {
            let hole = (mask & !own).trailing_zeros() as usize;
            if empty & (1 << hole) != 0 {
                let mut steppers = NEIGHBOURS[hole].0 & own_all & !mask;
                while steppers != 0 {
                    let p = steppers.trailing_zeros() as usize;
                    steppers &= steppers - 1;
                    worth[p] += 30 * scale;
                }
            }
        }
    }
    worth
}
