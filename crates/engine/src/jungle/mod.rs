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
//!   quiescence on captures, den entries and den threats, and the search
//!   switches matches chose for Jungle
//!   ([`tuned_options`](qi_search::SearchHooks::tuned_options)).
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
//!    the position's [`Rules`](qi_jungle::Rules).
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

mod eval;
mod hooks;
pub mod nnue;
mod weights;

pub use eval::{den_distance, JungleEval, EVAL_LIMIT};
pub use hooks::JungleHooks;
pub use weights::{JungleWeights, PROXIMITY_LEN};
