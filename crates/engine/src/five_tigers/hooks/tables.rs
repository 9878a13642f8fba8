//! Five Tigers' endgame tables in the search tree (the `tablebase`
//! feature): which tables the hooks probe and when their values are sure.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

use qi_core::Side;
use qi_five_tigers::{Game, Phase};
use qi_search::TableValue;
use qi_tablebase::five_tigers::{LazyTablebase, Material};
use qi_tablebase::Wdl;

use super::FiveTigersHooks;

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
}
