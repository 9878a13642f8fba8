//! Un-moves against the move generator: every quiet un-move's step,
//! played in the position before, leads back, and every quiet step's
//! position finds that step among its un-moves.

use crate::common;

use common::{presets, random_line};
use proptest::prelude::*;
use qi_core::{MoveList, Position};
use qi_five_tigers::{quiet_unsteps, FiveTigers, Move, Phase};

/// The quiet steps of `pos` (those after which no removal is owed), with
/// the position each leads to.
fn quiet_steps(pos: &FiveTigers) -> Vec<(Move, FiveTigers)> {
    if pos.phase() != Phase::Movement || !pos.owed().is_empty() {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .filter_map(|mv| {
            let mut child = *pos;
            child.play(mv).unwrap();
            child.owed().is_empty().then_some((mv, child))
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn un_moves_and_quiet_steps_are_each_others_reverse(
        seed in any::<u64>(),
        plies in 0usize..200,
        preset in 0usize..4,
    ) {
        let rules = presets()[preset % presets().len()].1;
        let (pos, _) = random_line(rules, seed, plies);
        let mut unmoves = MoveList::new();
        pos.quiet_unmoves(&mut unmoves);
        for &mv in &unmoves {
            let before = pos.unplay_quiet(mv);
            prop_assert!(before.is_some(), "{pos}: the un-move {mv} has no position before");
            let before = before.unwrap();
            prop_assert!(before.legal_moves().contains(&mv), "{before}: {mv} is not generated");
            let mut after = before;
            after.play(mv).unwrap();
            prop_assert!(after.owed().is_empty(), "{before}: {mv} forms a formation");
            prop_assert_eq!(after.side_to_move(), pos.side_to_move());
            for side in qi_core::Side::BOTH {
                prop_assert_eq!(after.pieces(side), pos.pieces(side));
            }
        }
        // Forward: each quiet step is found back from the position it
        // leads to, by the position's un-moves and by the board rule.
        for (mv, child) in quiet_steps(&pos) {
            let mut back = MoveList::new();
            child.quiet_unmoves(&mut back);
            prop_assert!(back.contains(&mv), "{pos}: the step {mv} is not an un-move of {child}");
            let Move::Step { from, to } = mv else { unreachable!("a step") };
            let mover = pos.side_to_move();
            let mut found = false;
            quiet_unsteps(child.pieces(mover), child.empty(), &rules.values(), None, |f, t| {
                found |= (f, t) == (from.index(), to.index());
            });
            prop_assert!(found, "{pos}: the board rule misses {mv}");
        }
    }
}

#[test]
fn no_un_move_in_placement_or_with_removals_owed() {
    for (_, rules) in presets() {
        let pos = FiveTigers::new(rules);
        let mut unmoves = MoveList::new();
        pos.quiet_unmoves(&mut unmoves);
        assert!(unmoves.is_empty());
        assert_eq!(pos.unplay_quiet("a1-a2".parse().unwrap()), None);
    }
}
