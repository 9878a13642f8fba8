//! The search hooks: removal ordering, quiescence moves, "check", endgame
//! tables and the tuned search options.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

use qi_core::{Position, Side};
use qi_five_tigers::{FiveTigers, Game, Move, Phase, PlacementCapture, Point, NEIGHBOURS, THROUGH};
use qi_search::{SearchHooks, SearchOptions, TableValue};
use qi_tablebase::five_tigers::{LazyTablebase, Material};
use qi_tablebase::Wdl;

use super::eval::piece_worth;

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
/// * when given endgame tables
///   ([`with_tablebase`](FiveTigersHooks::with_tablebase)), their values
///   in the tree where the game's history rules cannot change them
///   ([`table_value`](FiveTigersHooks::table_value), docs/tablebases.md).
#[derive(Clone, Debug, Default)]
pub struct FiveTigersHooks {
    /// The endgame tables probed in the tree, shared by the search threads.
    tables: Option<Arc<LazyTablebase>>,
    /// Set once a thread of their own has read every file of the tables
    /// ([`with_tablebase_read_ahead`](FiveTigersHooks::with_tablebase_read_ahead)),
    /// which are not probed before; `None` when each file is read by the
    /// first probe that needs it.
    ready: Option<Arc<AtomicBool>>,
}

/// The same tables (the same shared set, or none): the hooks have no other
/// state.
impl PartialEq for FiveTigersHooks {
    fn eq(&self, other: &FiveTigersHooks) -> bool {
        match (&self.tables, &other.tables) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl Eq for FiveTigersHooks {}

/// Per point of a removal in the movement phase: own pieces next to the
/// hole minus enemy pieces next to it (who can step into it).
const REMOVAL_HOLE: i32 = 12;

impl FiveTigersHooks {
    /// These hooks probing `tables` in the search tree (`None`: no tables).
    ///
    /// ```
    /// use std::sync::{atomic::AtomicBool, Arc};
    ///
    /// use qi_engine::five_tigers::{FiveTigersEval, FiveTigersHooks};
    /// use qi_engine::{FiveTigersKit, GameKit};
    /// use qi_five_tigers::{FiveTigers, Game, Rules};
    /// use qi_search::{Limits, Score, Searcher};
    /// use qi_tablebase::five_tigers::{LazyTablebase, Material, Tablebase};
    ///
    /// let rules = Rules::shandong_shuttle();
    /// let dir = std::env::temp_dir().join(format!("qi-ft-hooks-doc-{}", std::process::id()));
    /// Tablebase::generate(&rules, &["3v1".parse::<Material>().unwrap()], 1)
    ///     .unwrap()
    ///     .save_dir(&dir)
    ///     .unwrap();
    /// let tables = Arc::new(LazyTablebase::open(&dir, &rules).unwrap());
    /// let hooks = FiveTigersHooks::default().with_tablebase(Some(tables));
    /// let mut searcher = Searcher::with_hooks(FiveTigersKit::tuned_options(), hooks);
    /// // The longest win of 3v1 (16 plies): within four plies every line
    /// // reaches a table, so four plies give the exact value.
    /// let pos = FiveTigers::from_text_lenient("X4/4X/5/5/OX3 x move X:0,O:0 - x -,- 0", rules).unwrap();
    /// let mut game = Game::new(pos);
    /// let result = searcher.search(&mut game, &FiveTigersEval::default(), Limits::depth(4), &AtomicBool::new(false), |_| {});
    /// assert_eq!(result.score, Score::win_in(16));
    /// assert!(result.tbhits > 0);
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn with_tablebase(self, tables: Option<Arc<LazyTablebase>>) -> FiveTigersHooks {
        FiveTigersHooks {
            tables,
            ready: None,
        }
    }

    /// These hooks probing `tables` once a thread started here has read
    /// every file of their directory, smallest materials first; until
    /// then they probe nothing ([`tables_ready`](FiveTigersHooks::tables_ready)).
    ///
    /// A file is read whole, under the tables' lock, when first needed:
    /// the 1.9 GB `5v5` file takes tens of seconds, during which every
    /// probe of every search thread waits. Read in the search, that is a
    /// move that overruns any clock (docs/tablebases.md, "What the tables hold"); read
    /// ahead, the engine plays on without tables meanwhile. The thread
    /// holds the tables weakly: dropping every hook that shares them stops
    /// it after the file it is reading. Where no thread can be started,
    /// the tables are probed as [`with_tablebase`](FiveTigersHooks::with_tablebase)
    /// probes them.
    ///
    /// ```
    /// use std::sync::Arc;
    ///
    /// use qi_engine::five_tigers::FiveTigersHooks;
    /// use qi_five_tigers::Rules;
    /// use qi_tablebase::five_tigers::{LazyTablebase, Material, Tablebase};
    ///
    /// let rules = Rules::shandong_shuttle();
    /// let dir = std::env::temp_dir().join(format!("qi-ft-read-ahead-doc-{}", std::process::id()));
    /// Tablebase::generate(&rules, &["3v1".parse::<Material>().unwrap()], 1)
    ///     .unwrap()
    ///     .save_dir(&dir)
    ///     .unwrap();
    /// let tables = Arc::new(LazyTablebase::open(&dir, &rules).unwrap());
    /// let hooks = FiveTigersHooks::default().with_tablebase_read_ahead(Some(Arc::clone(&tables)));
    /// while !hooks.tables_ready() {
    ///     std::thread::sleep(std::time::Duration::from_millis(5));
    /// }
    /// // Every file was read without a probe.
    /// assert_eq!(tables.loaded(), 1);
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn with_tablebase_read_ahead(self, tables: Option<Arc<LazyTablebase>>) -> FiveTigersHooks {
        let Some(tables) = tables else {
            return self.with_tablebase(None);
        };
        let ready = Arc::new(AtomicBool::new(false));
        let materials = Material::all_up_to(tables.max_pieces());
        let weak: Weak<LazyTablebase> = Arc::downgrade(&tables);
        let done = Arc::clone(&ready);
        let started = std::thread::Builder::new()
            .name("qi-ft-tables".to_string())
            .spawn(move || {
                for m in materials {
                    // A missing file is only looked for; a bad one is
                    // remembered as absent, as a probe would.
                    match weak.upgrade() {
                        Some(tables) => drop(tables.table(m)),
                        None => return,
                    }
                }
                done.store(true, Ordering::Release);
            });
        if started.is_err() {
            ready.store(true, Ordering::Release);
        }
        FiveTigersHooks {
            tables: Some(tables),
            ready: Some(ready),
        }
    }

    /// Whether the tables, if any, are probed now: always, but while
    /// [`with_tablebase_read_ahead`](FiveTigersHooks::with_tablebase_read_ahead)'s
    /// thread is still reading them.
    pub fn tables_ready(&self) -> bool {
        self.ready
            .as_ref()
            .is_none_or(|r| r.load(Ordering::Acquire))
    }

    /// The endgame tables probed in the tree, if any.
    pub fn tablebase(&self) -> Option<&Arc<LazyTablebase>> {
        self.tables.as_ref()
    }

    /// The value of the tables for the position of `game`, when it is sure
    /// under the game's history rules (docs/tablebases.md, "What the tables
    /// hold"):
    ///
    /// * only in the movement phase with nothing owed (the tables hold
    ///   nothing else) and at most as many pieces a side as the largest
    ///   material in the directory (3 with the shuttle forbidden, up to 5
    ///   with it allowed);
    /// * no value for a position already seen in this game: whether it
    ///   is drawn by repetition now is the game's to say;
    /// * a win or a loss only when it ends before the quiet-move draw: its
    ///   distance below `no_capture_draw − no_capture_plies` (along the
    ///   line the count only grows, one a ply, until a removal resets it);
    /// * a draw always: the game's own rules (threefold repetition, the
    ///   quiet-move count) only add draws, and Five Tigers has no rule
    ///   that makes a repetition lost.
    ///
    /// The shuttle ban, the one rule about earlier moves, is in the
    /// position (each side's previous step) and in the tables' states, so
    /// it needs no check here.
    pub fn table_value(&self, game: &Game) -> Option<TableValue> {
        let tables = self.tables.as_deref()?;
        if !self.tables_ready() {
            return None;
        }
        let pos = game.position();
        let most = pos
            .pieces(Side::First)
            .0
            .count_ones()
            .max(pos.pieces(Side::Second).0.count_ones());
        if pos.phase() != Phase::Movement
            || !pos.owed().is_empty()
            || most > tables.max_pieces()
            || game.occurrences() > 1
        {
            return None;
        }
        // Only a table's answer: a finished game is the game's to score, and
        // is not a table hit.
        let (wdl, distance) = tables.probe_table(pos).ok()??;
        let left = match pos.rules().no_capture_draw {
            0 => u32::MAX,
            limit => u32::from(limit).saturating_sub(pos.no_capture_plies()),
        };
        match wdl {
            Wdl::Draw => Some(TableValue::Draw),
            _ if distance >= left => None,
            Wdl::Win => Some(TableValue::Win(distance)),
            Wdl::Loss => Some(TableValue::Loss(distance)),
        }
    }

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
