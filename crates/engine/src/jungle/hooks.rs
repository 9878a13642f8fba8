//! The search hooks: move ordering, quiescence moves, null moves, "check"
//! and endgame tables.

#[cfg(feature = "tablebase")]
use std::sync::Arc;

use qi_core::Position;
use qi_jungle::tables::DENS;
use qi_jungle::{Game, Jungle, Move, Square};
#[cfg(feature = "tablebase")]
use qi_search::TableValue;
use qi_search::{SearchHooks, SearchOptions, SearchParams};
#[cfg(feature = "tablebase")]
use qi_tablebase::jungle::LazyTablebase;

use super::eval::DEN_ADJACENT;
use super::weights::{material_values, JungleWeights};

#[cfg(feature = "tablebase")]
mod tables;

/// Search hooks for Jungle: captures ordered most valuable victim first
/// (least valuable attacker first among equals), and quiescence on
/// captures, den entries and moves onto a square next to the enemy den (den
/// threats); null moves by [`Game::play_null`]; "check" when an enemy
/// animal stands next to the den of the side to move; and, with the
/// `tablebase` feature, when given endgame tables (`with_tablebase`), their
/// values in the tree where the game's history rules cannot change them
/// (docs/tablebases.md).
#[derive(Clone, Debug)]
pub struct JungleHooks {
    /// Material values used for ordering (standard rank order; Wolf and Dog
    /// swap under Dog over Wolf).
    pub material: [i32; 8],
    /// The endgame tables probed in the tree, shared by the search threads.
    #[cfg(feature = "tablebase")]
    tables: Option<Arc<LazyTablebase>>,
    /// The search's margins for the evaluation these hooks go with.
    params: SearchParams,
}

impl Default for JungleHooks {
    fn default() -> JungleHooks {
        JungleHooks::new(&JungleWeights::default())
    }
}

/// Equal material values and search parameters, and the same tables (the
/// same shared set, or none).
impl PartialEq for JungleHooks {
    fn eq(&self, other: &JungleHooks) -> bool {
        #[cfg(feature = "tablebase")]
        let same_tables = match (&self.tables, &other.tables) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        #[cfg(not(feature = "tablebase"))]
        let same_tables = true;
        self.material == other.material && self.params == other.params && same_tables
    }
}

impl Eq for JungleHooks {}

impl JungleHooks {
    /// Hooks ordering captures by the material values of `weights`, with no
    /// endgame tables and the default search parameters.
    pub fn new(weights: &JungleWeights) -> JungleHooks {
        JungleHooks {
            material: weights.material,
            #[cfg(feature = "tablebase")]
            tables: None,
            params: SearchParams::default(),
        }
    }

    /// These hooks giving the search `params`
    /// ([`SearchHooks::search_params`]): the margins of another
    /// evaluation's scale.
    ///
    /// ```
    /// use qi_engine::jungle::JungleHooks;
    /// use qi_jungle::Game;
    /// use qi_search::{SearchHooks, SearchParams};
    ///
    /// let params = SearchParams { futility_margin: 300, ..SearchParams::default() };
    /// let hooks = JungleHooks::default().with_search_params(params);
    /// assert_eq!(SearchHooks::<Game>::search_params(&hooks), params);
    /// assert_ne!(hooks, JungleHooks::default());
    /// ```
    pub fn with_search_params(self, params: SearchParams) -> JungleHooks {
        JungleHooks { params, ..self }
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

    /// [`JungleHooks::table_value`]: nothing, at the cost of one test,
    /// without tables.
    #[cfg(feature = "tablebase")]
    #[inline]
    fn probe(&self, game: &Game) -> Option<TableValue> {
        self.tables.as_ref()?;
        self.table_value(game)
    }

    /// The margins given by [`with_search_params`](JungleHooks::with_search_params)
    /// (by default [`SearchParams::default`]).
    fn search_params(&self) -> SearchParams {
        self.params
    }

    /// Every switch written out: these are the values `qi match` chose for
    /// Jungle (docs/engine.md), and they must stay Jungle's whatever
    /// [`SearchOptions::default`] becomes.
    fn tuned_options(&self) -> SearchOptions {
        SearchOptions::default()
            .with_hash_mib(16)
            .with_threads(1)
            // Off: 200-game `qi match` runs showed no gain (null move
            // +2 ± 26 Elo) or a loss (check extension −26 ± 28 and
            // −24 ± 29, reverse futility −37 ± 30) in Jungle; see
            // docs/engine.md.
            .with_null_move(false)
            .with_lmr(true)
            .with_futility(true)
            .with_aspiration(true)
            .with_quiescence(true)
            .with_reverse_futility(false)
            .with_late_move_pruning(true)
            .with_check_extension(false)
            .with_mate_distance(true)
            // Internal iterative reduction lost at 20 ms a move (−35 ± 21
            // over 400 games) but not at 100 ms (+10 ± 22 over 200), and
            // it is what reaches depth 19 within a second.
            .with_iir(true)
            .with_multi_pv(1)
    }
}
