//! The search hooks: removal ordering, quiescence moves, "check", endgame
//! tables and the tuned search options.

#[cfg(feature = "tablebase")]
use std::sync::atomic::AtomicBool;
#[cfg(feature = "tablebase")]
use std::sync::Arc;

use qi_core::{Position, Side};
use qi_five_tigers::{FiveTigers, Game, Move, Phase, PlacementCapture, Point, NEIGHBOURS, THROUGH};
#[cfg(feature = "tablebase")]
use qi_search::TableValue;
use qi_search::{SearchHooks, SearchOptions};
#[cfg(feature = "tablebase")]
use qi_tablebase::five_tigers::LazyTablebase;

use super::eval::piece_worth;

#[cfg(feature = "tablebase")]
mod tables;

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
///   several times running;
/// * with the `tablebase` feature, when given endgame tables
///   (`with_tablebase`), their values in the tree where the game's history
///   rules cannot change them (`table_value`, docs/tablebases.md).
#[derive(Clone, Debug, Default)]
pub struct FiveTigersHooks {
    /// The endgame tables probed in the tree, shared by the search threads.
    #[cfg(feature = "tablebase")]
    tables: Option<Arc<LazyTablebase>>,
    /// Set once a thread of their own has read every file of the tables
    /// ([`with_tablebase_read_ahead`](FiveTigersHooks::with_tablebase_read_ahead)),
    /// which are not probed before; `None` when each file is read by the
    /// first probe that needs it.
    #[cfg(feature = "tablebase")]
    ready: Option<Arc<AtomicBool>>,
}

/// The same tables (the same shared set, or none): the hooks have no other
/// state.
impl PartialEq for FiveTigersHooks {
    #[cfg(feature = "tablebase")]
    fn eq(&self, other: &FiveTigersHooks) -> bool {
        match (&self.tables, &other.tables) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }

    #[cfg(not(feature = "tablebase"))]
    fn eq(&self, _: &FiveTigersHooks) -> bool {
        true
    }
}

impl Eq for FiveTigersHooks {}

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

    /// [`FiveTigersHooks::table_value`]: nothing, at the cost of one test,
    /// without tables.
    #[cfg(feature = "tablebase")]
    #[inline]
    fn probe(&self, game: &Game) -> Option<TableValue> {
        self.tables.as_ref()?;
        self.table_value(game)
    }

    /// Every pruning feature but null moves and the check extension.
    /// Two 200-game matches at 20 ms a move scored the search without
    /// reverse futility and internal iterative reduction 38% against it
    /// with both (−89 ± 50 and −85 ± 50 Elo), while each alone made no
    /// measurable difference; see docs/engine.md.
    fn tuned_options(&self) -> SearchOptions {
        SearchOptions::default()
            .with_hash_mib(16)
            .with_threads(1)
            .with_null_move(false)
            .with_lmr(true)
            .with_futility(true)
            .with_aspiration(true)
            .with_quiescence(true)
            .with_reverse_futility(true)
            .with_late_move_pruning(true)
            .with_check_extension(false)
            .with_mate_distance(true)
            .with_iir(true)
            .with_multi_pv(1)
    }
}
