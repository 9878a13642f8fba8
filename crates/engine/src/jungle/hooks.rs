//! The search hooks: move ordering, quiescence moves, null moves and
//! "check".

use qi_core::Position;
use qi_jungle::tables::DENS;
use qi_jungle::{Game, Jungle, Move, Square};
use qi_search::{SearchHooks, SearchOptions};

use super::eval::DEN_ADJACENT;
use super::weights::{material_values, JungleWeights};

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

    /// Every switch written out: these are the values `qi match` chose for
    /// Jungle (docs/engine.md), and they must stay Jungle's whatever
    /// [`SearchOptions::default`] becomes.
    fn tuned_options(&self) -> SearchOptions {
        SearchOptions {
            hash_mib: 16,
            threads: 1,
            // Off: 200-game `qi match` runs showed no gain (null move
            // +2 ± 26 Elo) or a loss (check extension −26 ± 28 and
            // −24 ± 29, reverse futility −37 ± 30) in Jungle; see
            // docs/engine.md.
            null_move: false,
            lmr: true,
            futility: true,
            aspiration: true,
            quiescence: true,
            reverse_futility: false,
            late_move_pruning: true,
            check_extension: false,
            mate_distance: true,
            // Internal iterative reduction lost at 20 ms a move (−35 ± 21
            // over 400 games) but not at 100 ms (+10 ± 22 over 200), and
            // it is what reaches depth 19 within a second.
            iir: true,
        }
    }
}
