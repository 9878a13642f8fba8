//! Five Tigers (五虎棋) knowledge for the search: a static evaluation
//! ([`FiveTigersEval`], every weight in [`FiveTigersWeights`]) and search
//! hooks ([`FiveTigersHooks`]: removal ordering, quiescence moves).
//!
//! The evaluation is a sum of terms per side, from the side to move's
//! view, computed in one pass over the 36 formation masks with no
//! allocation:
//!
//! * material: pieces on the board plus pieces in hand. With 13 pieces
//!   each Second's last piece is never placed when the board fills, but
//!   then Second takes the first opening removal and moves first; the
//!   evaluation counts the two as even (the start scores 0), leaving the
//!   search to see the end of placement;
//! * removals owed (a side about to remove is ahead by about a piece each),
//!   and under deferred scoring the formations held during placement (each
//!   worth its value in removals when placement ends);
//! * formations held (protection of their pieces, re-forming potential in
//!   the movement phase);
//! * formations one move from forming: in placement one empty point
//!   missing; in movement one empty point missing that an own piece outside
//!   the formation could step into. The side with the next regular turn
//!   cashes its best one, the other side is rewarded for double threats;
//! * open formations (no enemy piece, two or three points missing);
//! * loose pieces (散子), exposed to removal;
//! * mobility in the movement phase, with a large penalty for a side that
//!   has no step (it loses when it must move).
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//!
//! use qi_engine::five_tigers::{FiveTigersEval, FiveTigersHooks};
//! use qi_five_tigers::{FiveTigers, Game, Rules};
//! use qi_search::{Limits, SearchHooks, Searcher};
//!
//! let mut game = Game::new(FiveTigers::new(Rules::shandong()));
//! // Start from the switches that play Five Tigers best.
//! let hooks = FiveTigersHooks::default();
//! let mut searcher = Searcher::with_hooks(hooks.tuned_options(), hooks);
//! let stop = AtomicBool::new(false);
//! let eval = FiveTigersEval::default();
//! let result = searcher.search(&mut game, &eval, Limits::depth(3), &stop, |_| {});
//! assert!(result.best_move.is_some());
//! ```

use qi_core::{Bitboard32, Evaluator, Game as _, Position, Side};
use qi_five_tigers::{
    step_count, FiveTigers, Game, Move, Phase, PlacementCapture, Point, Shuttle, ALL_POINTS,
    FORMATIONS, NEIGHBOURS, THROUGH,
};
use qi_search::{SearchHooks, SearchOptions};

/// The largest score the evaluation returns (in magnitude).
const EVAL_LIMIT: i32 = 19_000;

/// Every weight of the Five Tigers evaluation, in centi-units (a piece is
/// about 100). [`Default`] gives the values in use: set by hand, then
/// checked in engine-against-engine games at equal nodes, where none of
/// the single-weight changes tried (threat, open-formation, loose-piece,
/// held-formation and mobility weights up and down) scored measurably
/// better; against [`material_only`](FiveTigersWeights::material_only)
/// they score about 70%.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FiveTigersWeights {
    /// A piece on the board or in hand.
    pub piece: i32,
    /// One removal owed to a side (capped by the enemy's pieces on the
    /// board), and under deferred scoring one unit of the score a side
    /// holds during placement.
    pub owed_removal: i32,
    /// A formation held during placement (its pieces are safe from
    /// removal; under immediate capture it was already paid for).
    pub held_placement: i32,
    /// A formation held in the movement phase, per removal of its value
    /// (stepping out and back in re-forms it).
    pub held_movement: i32,
    /// The best formation-forming move of the side with the next regular
    /// turn, per removal it would earn.
    pub threat_to_move: i32,
    /// The best formation-forming move of the side waiting for its turn,
    /// per removal (the opponent may block it).
    pub threat_waiting: i32,
    /// The second-best formation-forming point of the waiting side, per
    /// removal (two threats cannot both be blocked).
    pub threat_double: i32,
    /// Every further formation-forming point, per removal.
    pub threat_extra: i32,
    /// A formation missing one point in the movement phase that no own
    /// piece can step into yet.
    pub near_unreachable: i32,
    /// A formation with no enemy piece and two points missing.
    pub open_two: i32,
    /// A formation with no enemy piece and three points missing.
    pub open_three: i32,
    /// A loose piece (subtracted: it can be removed).
    pub loose: i32,
    /// One available step in the movement phase.
    pub mobility: i32,
    /// At most this many steps count for mobility.
    pub mobility_cap: i32,
    /// A side with no step in the movement phase (subtracted).
    pub no_step: i32,
    /// A side with a single step in the movement phase (subtracted).
    pub one_step: i32,
}

impl Default for FiveTigersWeights {
    fn default() -> FiveTigersWeights {
        FiveTigersWeights {
            piece: 100,
            owed_removal: 100,
            held_placement: 8,
            held_movement: 10,
            threat_to_move: 75,
            threat_waiting: 20,
            threat_double: 50,
            threat_extra: 12,
            near_unreachable: 6,
            open_two: 6,
            open_three: 2,
            loose: 5,
            mobility: 5,
            mobility_cap: 12,
            no_step: 400,
            one_step: 60,
        }
    }
}

impl FiveTigersWeights {
    /// Only material and owed removals: the yardstick a full evaluation
    /// must beat.
    pub fn material_only() -> FiveTigersWeights {
        FiveTigersWeights {
            piece: 100,
            owed_removal: 100,
            held_placement: 0,
            held_movement: 0,
            threat_to_move: 0,
            threat_waiting: 0,
            threat_double: 0,
            threat_extra: 0,
            near_unreachable: 0,
            open_two: 0,
            open_three: 0,
            loose: 0,
            mobility: 0,
            mobility_cap: 0,
            no_step: 0,
            one_step: 0,
        }
    }
}

/// The Five Tigers evaluation: see the [module documentation](self) for
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

/// Search hooks for Five Tigers:
///
/// * removals ordered by the value of the victim's piece to its owner
///   (pieces of near formations first; when a side must remove one of its
///   own pieces, its least valuable first) and, in the movement phase, by
///   who can step into the hole left;
/// * quiescence on formation-forming moves (which earn removals now) and
///   on the best-ordered removal only, so the quiescence tree stays narrow
///   (each forming move costs the enemy a piece, so it is finite);
/// * "check" ([`SearchHooks::in_check`]) when the side to move has a single
///   step left ([`FiveTigersHooks::must_answer`]);
/// * no null move: the game has no pass, and a side owed removals moves
///   several times running.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FiveTigersHooks;

/// Per point of a removal in the movement phase: own pieces next to the
/// hole minus enemy pieces next to it (who can step into it).
const REMOVAL_HOLE: i32 = 12;

impl FiveTigersHooks {
    /// The ordering scores of removing each piece of the side losing the
    /// removal, from the side to move's view: the piece's worth to its
    /// owner (negated when the owner removes it itself), plus in the
    /// movement phase how much the hole left helps the side to move.
    fn removal_scores(pos: &FiveTigers, victim: Side) -> [i32; 25] {
        let mover = pos.side_to_move();
        let mut scores = piece_worth(pos, victim);
        if victim == mover {
            for v in &mut scores {
                *v = -*v;
            }
        }
        if pos.phase() == Phase::Movement {
            let own = pos.pieces(mover).0;
            let other = pos.pieces(mover.opponent()).0;
            let mut bits = pos.pieces(victim).0;
            while bits != 0 {
                let p = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let n = NEIGHBOURS[p].0;
                scores[p] += REMOVAL_HOLE
                    * ((n & own).count_ones() as i32 - (n & other).count_ones() as i32);
            }
        }
        scores
    }

    /// The ordering score of the removal of the piece on point index `p`.
    fn removal_score(pos: &FiveTigers, p: u8) -> i32 {
        let victim = match pos.owed().first() {
            Some((taker, _)) => taker.opponent(),
            None => return 0,
        };
        FiveTigersHooks::removal_scores(pos, victim)[p as usize]
    }

    /// The removal the quiescence search tries: the best-ordered legal
    /// removal (lowest point on ties), if a removal is owed.
    pub fn best_removal(pos: &FiveTigers) -> Option<Move> {
        let (taker, _) = pos.owed().first()?;
        let victim = taker.opponent();
        let loose = pos.loose(victim).0;
        let candidates = if loose != 0 {
            loose
        } else {
            pos.pieces(victim).0
        };
        let scores = FiveTigersHooks::removal_scores(pos, victim);
        let mut best: Option<(i32, u8)> = None;
        let mut bits = candidates;
        while bits != 0 {
            let p = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let score = scores[p as usize];
            if !matches!(best, Some((b, _)) if score <= b) {
                best = Some((score, p));
            }
        }
        best.and_then(|(_, p)| Point::new(p).map(Move::Remove))
    }

    /// Whether the side to move must answer a threat to end the game: in
    /// the movement phase with nothing owed it has a single step (one more
    /// blocked point and it loses). Counting enemy formation threats too
    /// made no measurable difference at equal nodes, so they are left out.
    pub fn must_answer(pos: &FiveTigers) -> bool {
        pos.phase() == Phase::Movement && pos.owed().is_empty() && pos.count_moves() == 1
    }

    /// Whether `mv` (legal in `pos`) forms at least one formation that
    /// earns removals now (a placement under deferred scoring earns none
    /// at once).
    pub fn forms_formation(pos: &FiveTigers, mv: Move) -> bool {
        let own = pos.pieces(pos.side_to_move());
        match mv {
            Move::Place(p) => {
                pos.rules().placement_capture == PlacementCapture::Immediate
                    && THROUGH[p.index() as usize].count_held(own.with(p.index())) > 0
            }
            Move::Step { from, to } => {
                THROUGH[to.index() as usize].count_held(own.without(from.index()).with(to.index()))
                    > 0
            }
            Move::Remove(_) => false,
        }
    }
}

impl SearchHooks<Game> for FiveTigersHooks {
    fn capture_order(&self, game: &Game, mv: Move) -> i32 {
        match mv {
            Move::Remove(p) => FiveTigersHooks::removal_score(game.position(), p.index()),
            _ => 0,
        }
    }

    fn is_tactical(&self, game: &Game, mv: Move) -> bool {
        let pos = game.position();
        match mv {
            Move::Remove(_) => FiveTigersHooks::best_removal(pos) == Some(mv),
            _ => FiveTigersHooks::forms_formation(pos, mv),
        }
    }

    fn in_check(&self, game: &Game) -> bool {
        FiveTigersHooks::must_answer(game.position())
    }

    /// [`SearchOptions::default`] with reverse futility pruning on. Two
    /// 200-game matches at 20 ms a move scored the search without reverse
    /// futility and internal iterative reduction 38% against it with both
    /// (−89 ± 50 and −85 ± 50 Elo), while each alone made no measurable
    /// difference; see docs/engine.md.
    fn tuned_options(&self) -> SearchOptions {
        SearchOptions {
            reverse_futility: true,
            ..SearchOptions::default()
        }
    }
}
