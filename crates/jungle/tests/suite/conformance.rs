//! The qi-core conformance harness on Jungle positions.

use crate::common;

use common::*;
use qi_core::testkit::{check_position, random_walks};
use qi_jungle::{JfenError, JumpBlock, Jumps, Jungle, RankOrder, Rules};

/// Hand-built positions: river rats (own and enemy) in jump lanes, rats on
/// the bank, animals on own and enemy traps, next to and inside dens, and
/// finished positions.
pub const HAND_BUILT: [&str; 10] = [
    // jump lanes with rats of both sides
    "Lb3 Tc3 Rb5 Ea1 ld5 rf4 pc7 eg7 wa7 Da6 ca5",
    // water rats facing each other and across the bank
    "Rc4 rc5 Ld4 tg4 lb7 Eb3 ea9",
    "Rd6 re6 Ee7 La5 lg5 Cg1 ca9",
    // traps and dens
    "Rd3 ed2 Cb1 lc1 We1 de2 Td8 cc8 Pa1 pg9",
    "Dd8 ra9 eg9 Cc9 Ld7",
    // finished: den entered, no Blue animals, no Blue move
    "Dd9 ra9",
    "La2",
    "ra9 Ca8 Db9",
    // lone lions next to the rivers
    "La4 lg6",
    "Td4 tg4 Rf4 re5",
];

fn rule_sets() -> Vec<Rules> {
    let mut all: Vec<Rules> = presets().into_iter().map(|(_, r)| r).collect();
    let mut custom = Rules::standard();
    custom.rank_order = RankOrder::DogOverWolf;
    custom.lion_jumps = Jumps::VerticalOnly;
    custom.tiger_jumps = Jumps::None;
    custom.jump_block = JumpBlock::EnemyRat;
    custom.rat_bank_capture = true;
    all.push(custom);
    all
}

#[test]
fn random_walks_from_the_start_under_every_preset() {
    for (i, rules) in rule_sets().into_iter().enumerate() {
        let checked = random_walks(&Jungle::new(rules), 12, 250, 100 + i as u64);
        assert!(checked > 1000, "{rules}: {checked}");
    }
}

#[test]
fn hand_built_positions_pass_the_harness() {
    let mut impossible = 0;
    for rules in rule_sets() {
        for pieces in HAND_BUILT {
            for side in ['w', 'b'] {
                // The harness reads the position back from its text, so
                // only positions a game reaches take part; the others
                // (the den entered with Red to move, Blue without animals
                // with Red to move) are refused as impossible.
                let pos = match Jungle::from_text(&jfen(pieces, side), rules) {
                    Ok(pos) => pos,
                    Err(JfenError::Impossible(_)) => {
                        impossible += 1;
                        continue;
                    }
                    Err(e) => panic!("{pieces} {side}: {e}"),
                };
                check_position(&pos);
                random_walks(&pos, 3, 60, 5);
            }
        }
    }
    assert_eq!(impossible, 2 * rule_sets().len());
}

#[test]
fn positions_with_counters_pass_the_harness() {
    let pos = pos(
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 37 19",
        Rules::yeshou(),
    );
    check_position(&pos);
}
