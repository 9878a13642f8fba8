//! Jungle's endgame tables in the search tree (the `tablebase` feature):
//! which tables the hooks probe and when their values are sure.

use std::sync::Arc;

use qi_core::Side;
use qi_jungle::{Game, Repetition};
use qi_search::TableValue;
use qi_tablebase::jungle::LazyTablebase;
use qi_tablebase::Wdl;

use super::JungleHooks;

impl JungleHooks {
    /// These hooks probing `tables` in the search tree (`None`: no tables).
    ///
    /// ```
    /// use std::sync::{atomic::AtomicBool, Arc};
    ///
    /// use qi_engine::jungle::{JungleEval, JungleHooks};
    /// use qi_engine::{GameKit, JungleKit};
    /// use qi_jungle::{Game, Jungle, Rules};
    /// use qi_search::{Limits, Score, Searcher};
    /// use qi_tablebase::jungle::{LazyTablebase, Material, Tablebase};
    ///
    /// let rules = Rules::standard();
    /// let dir = std::env::temp_dir().join(format!("qi-hooks-doc-{}", std::process::id()));
    /// Tablebase::generate(&rules, &["LvC".parse::<Material>().unwrap()], 1)
    ///     .unwrap()
    ///     .save_dir(&dir)
    ///     .unwrap();
    /// let tables = Arc::new(LazyTablebase::open(&dir, &rules).unwrap());
    /// let hooks = JungleHooks::default().with_tablebase(Some(tables));
    /// let mut searcher = Searcher::with_hooks(JungleKit::tuned_options(), hooks);
    /// // Red's Lion against Blue's Cat: the tables know the value of every
    /// // move, so two plies give the exact result.
    /// let mut game = Game::new(Jungle::from_text("6c/7/7/7/7/7/7/7/L6 w", rules).unwrap());
    /// let result = searcher.search(&mut game, &JungleEval::default(), Limits::depth(2), &AtomicBool::new(false), |_| {});
    /// assert!(result.score.is_mate());
    /// assert!(result.tbhits > 0);
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn with_tablebase(self, tables: Option<Arc<LazyTablebase>>) -> JungleHooks {
        JungleHooks { tables, ..self }
    }

    /// The endgame tables probed in the tree, if any.
    pub fn tablebase(&self) -> Option<&Arc<LazyTablebase>> {
        self.tables.as_ref()
    }

    /// The value of the tables for the position of `game`, when it is sure
    /// under the game's history rules (docs/tablebases.md, "What the tables
    /// hold"):
    ///
    /// * no value under the anti-chase rules, which may forbid the moves a
    ///   table line needs (a win or a defence) whatever is pending now;
    /// * no value for a position already seen in this game (the
    ///   repetition rule is the game's to apply there);
    /// * a win or a loss only when it ends before the no-capture draw:
    ///   its distance below `no_capture_draw − no_capture_plies`;
    /// * a draw only when repetitions draw or are allowed: under
    ///   `initiator_loses` holding a draw may need a cycle that loses.
    pub fn table_value(&self, game: &Game) -> Option<TableValue> {
        let tables = self.tables.as_deref()?;
        let pos = game.position();
        let rules = pos.rules();
        if rules.anti_chase
            || pos.animal_count(Side::First) + pos.animal_count(Side::Second) > tables.max_animals()
            || game.occurrences() > 1
        {
            return None;
        }
        // Only a table's answer: a finished game is the game's to score, and
        // is not a table hit.
        let (wdl, distance) = tables.probe_table(pos).ok()??;
        let left = match rules.no_capture_draw {
            0 => u32::MAX,
            limit => limit.saturating_sub(pos.no_capture_plies()),
        };
        match wdl {
            Wdl::Draw if rules.repetition == Repetition::InitiatorLoses => None,
            Wdl::Draw => Some(TableValue::Draw),
            _ if distance >= left => None,
            Wdl::Win => Some(TableValue::Win(distance)),
            Wdl::Loss => Some(TableValue::Loss(distance)),
        }
    }
}
