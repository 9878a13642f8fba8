//! Perft on the toy games: bulk counting equals plain recursion, divide
//! sums to perft, the parallel versions equal the serial ones, and
//! tic-tac-toe gives its known counts.

use crate::toy;

use qi_core::Position;
use std::sync::atomic::AtomicBool;

use qi_search::{divide, divide_parallel, perft, perft_parallel, perft_plain, perft_with_stop};
use toy::{Nim, TreeConfig, TreeNode, Ttt};

fn check<P>(pos: &P, max_depth: u32)
where
    P: Position + Send + Sync,
    P::Move: Send + Sync,
{
    for depth in 0..=max_depth {
        let n = perft(pos, depth);
        assert_eq!(
            n,
            perft_plain(pos, depth),
            "perft vs plain at {depth}: {pos}"
        );
        assert_eq!(
            perft_with_stop(pos, depth, &AtomicBool::new(false)),
            n,
            "with an unraised stop flag at {depth}: {pos}"
        );
        if depth >= 3 && n > 0 {
            assert!(perft_with_stop(pos, depth, &AtomicBool::new(true)) < n);
        }
        assert_eq!(
            perft_parallel(pos, depth, 2),
            n,
            "parallel at {depth}: {pos}"
        );
        if depth >= 1 {
            let d = divide(pos, depth);
            assert_eq!(d.len(), pos.legal_moves().len());
            assert_eq!(d.iter().map(|(_, c)| c).sum::<u64>(), n);
            assert_eq!(divide_parallel(pos, depth, 2), d);
        }
    }
}

#[test]
fn random_trees_and_dags() {
    let mut nonzero = 0;
    for seed in 0..40 {
        for cfg in [TreeConfig::tree(seed, 9), TreeConfig::dag(seed, 9, 6)] {
            let root = TreeNode::root(cfg);
            check(&root, 6);
            if perft(&root, 6) > 0 {
                nonzero += 1;
            }
        }
    }
    assert!(nonzero > 40, "{nonzero}");
}

#[test]
fn tic_tac_toe_known_counts() {
    let expected = [
        1u64, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872, 0,
    ];
    let empty = Ttt::empty();
    for (depth, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&empty, depth as u32), n, "depth {depth}");
    }
    check(&empty, 6);
    assert_eq!(perft_parallel(&empty, 9, 2), 127872);
}

#[test]
fn nim_counts() {
    // Ways to take 1..=3 stones d times from 5: compositions.
    let pos = Nim {
        stones: 5,
        stm: qi_core::Side::First,
    };
    assert_eq!(perft(&pos, 1), 3);
    assert_eq!(perft(&pos, 2), 3 + 3 + 2); // 4→3, 3→3, 2→2
    check(&pos, 5);
}
