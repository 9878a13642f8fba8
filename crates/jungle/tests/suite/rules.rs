//! One test per rule statement of the rules contract (sections 3, 4, 5, 6, 7),
//! on positions built from JFEN.

use crate::common;

use common::*;
use qi_core::{Outcome, Position, Side, WinReason};
use qi_jungle::{
    Animal, JfenError, JumpBlock, JumpBlockArea, Jumps, Jungle, Move, ParseMoveError,
    ParseRulesError, Piece, RankOrder, Repetition, Rules, SetupError, Square, TrappedAttacks,
    UnknownPreset, START_JFEN,
};
use qi_search::perft;

fn std() -> Rules {
    Rules::standard()
}

fn moves_from(pos: &Jungle, from: &str) -> Vec<String> {
    move_texts(pos)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect()
}

// ---------- section 1 and 2: board and start position ----------

#[test]
fn board_has_dens_traps_and_two_rivers() {
    let sq = |t: &str| t.parse::<Square>().unwrap();
    assert_eq!(sq("d1").den_owner(), Some(Side::First));
    assert_eq!(sq("d9").den_owner(), Some(Side::Second));
    for t in ["c1", "e1", "d2"] {
        assert_eq!(sq(t).trap_owner(), Some(Side::First), "{t}");
    }
    for t in ["c9", "e9", "d8"] {
        assert_eq!(sq(t).trap_owner(), Some(Side::Second), "{t}");
    }
    let water: Vec<String> = Square::all()
        .filter(|s| s.is_water())
        .map(|s| s.to_string())
        .collect();
    assert_eq!(
        water,
        ["b4", "c4", "e4", "f4", "b5", "c5", "e5", "f5", "b6", "c6", "e6", "f6"]
    );
    assert_eq!(sq("a1").index(), 0);
    assert_eq!(sq("g9").index(), 62);
}

#[test]
fn start_position_matches_the_table() {
    let pos = Jungle::default();
    let expect = [
        ("g1", 'L'),
        ("a1", 'T'),
        ("f2", 'D'),
        ("b2", 'C'),
        ("g3", 'R'),
        ("e3", 'P'),
        ("c3", 'W'),
        ("a3", 'E'),
        ("a9", 'l'),
        ("g9", 't'),
        ("b8", 'd'),
        ("f8", 'c'),
        ("a7", 'r'),
        ("c7", 'p'),
        ("e7", 'w'),
        ("g7", 'e'),
    ];
    for (s, letter) in expect {
        assert_eq!(
            pos.piece_at(s.parse().unwrap()).map(|p| p.letter()),
            Some(letter),
            "{s}"
        );
    }
    assert_eq!(pos.occupied().count(), 16);
    assert_eq!(pos.side_to_move(), Side::First);
}

// ---------- section 3: moves ----------

#[test]
fn every_animal_steps_one_square_orthogonally() {
    let pos = board("Dd3 ra9", 'w', std());
    assert_eq!(moves_from(&pos, "d3"), ["d3c3", "d3d2", "d3d4", "d3e3"]);
}

#[test]
fn no_animal_enters_its_own_den() {
    let pos = board("Dd2 ra9", 'w', std());
    assert_eq!(moves_from(&pos, "d2"), ["d2c2", "d2d3", "d2e2"]);
    let pos = board("Rc1 ra9", 'w', std());
    assert_eq!(moves_from(&pos, "c1"), ["c1b1", "c1c2"]);
    let pos = board("dd8 Ra1", 'b', std());
    assert!(!legal(&pos, "d8d9"));
}

#[test]
fn animal_may_enter_the_enemy_den() {
    let pos = board("Dd8 ra9", 'w', std());
    assert!(legal(&pos, "d8d9"));
    let pos = board("ce1 Ra9", 'b', std());
    assert!(legal(&pos, "e1d1"));
}

#[test]
fn only_rat_enters_water() {
    for (_, rules) in presets() {
        let pos = board("Ra4 ea9", 'w', rules);
        assert!(legal(&pos, "a4b4"));
        for animal in &Animal::ALL[1..] {
            let text = format!("{}a5 ra9", animal.letter());
            let pos = board(&text, 'w', rules);
            assert!(!legal(&pos, "a5b5"), "{animal} entered water");
        }
    }
}

#[test]
fn rat_swims_square_by_square() {
    let pos = board("Rb5 ea9", 'w', std());
    assert_eq!(moves_from(&pos, "b5"), ["b5a5", "b5b4", "b5b6", "b5c5"]);
    let pos = board("Rc4 ea9", 'w', std());
    assert_eq!(moves_from(&pos, "c4"), ["c4b4", "c4c3", "c4c5", "c4d4"]);
}

#[test]
fn lion_jumps_vertically_over_river() {
    for (_, rules) in presets() {
        let pos = board("Lb3 ea9", 'w', rules);
        assert_eq!(moves_from(&pos, "b3"), ["b3a3", "b3b2", "b3b7", "b3c3"]);
        let pos = board("Lf7 ea9", 'w', rules);
        assert!(legal(&pos, "f7f3"));
    }
}

#[test]
fn lion_jumps_horizontally_over_river() {
    for (_, rules) in presets() {
        let pos = board("Ld5 ea9", 'w', rules);
        assert_eq!(moves_from(&pos, "d5"), ["d5a5", "d5d4", "d5d6", "d5g5"]);
        let pos = board("La4 ea9", 'w', rules);
        assert!(legal(&pos, "a4d4"));
        let pos = board("Lg6 ea9", 'w', rules);
        assert!(legal(&pos, "g6d6"));
    }
}

#[test]
fn tiger_jumps_both_ways_in_standard_yeshou_traditional() {
    for rules in [Rules::standard(), Rules::yeshou(), Rules::traditional()] {
        assert!(legal(&board("Tc3 ea9", 'w', rules), "c3c7"));
        assert!(legal(&board("Te7 ea9", 'w', rules), "e7e3"));
        assert!(legal(&board("Tg4 ea9", 'w', rules), "g4d4"));
    }
}

#[test]
fn tiger_jumps_horizontal_only_in_datou() {
    let rules = Rules::datou();
    assert!(!legal(&board("Tc3 ea9", 'w', rules), "c3c7"));
    assert!(!legal(&board("Te7 ea9", 'w', rules), "e7e3"));
    assert!(legal(&board("Tg4 ea9", 'w', rules), "g4d4"));
    assert!(legal(&board("Td6 ea9", 'w', rules), "d6a6"));
    // the Lion still jumps both ways in datou
    assert!(legal(&board("Lc3 ea9", 'w', rules), "c3c7"));
}

#[test]
fn jump_directions_are_options() {
    let mut rules = Rules::standard();
    rules.lion_jumps = Jumps::VerticalOnly;
    rules.tiger_jumps = Jumps::None;
    let pos = board("Ld6 Ta5 ea9", 'w', rules);
    assert!(!legal(&board("Ld6 ea9", 'w', rules), "d6a6"));
    assert!(legal(&board("Lb3 ea9", 'w', rules), "b3b7"));
    assert!(!legal(&board("Ta5 ea9", 'w', rules), "a5d5"));
    assert!(pos.legal_moves().iter().all(|m| !m.is_jump()));
}

#[test]
fn other_animals_never_jump() {
    for animal in [Animal::Elephant, Animal::Leopard, Animal::Dog, Animal::Rat] {
        let pos = board(&format!("{}b3 ea9", animal.letter()), 'w', std());
        assert!(!legal(&pos, "b3b7"), "{animal}");
        let pos = board(&format!("{}a5 ea9", animal.letter()), 'w', std());
        assert!(!legal(&pos, "a5d5"), "{animal}");
    }
}

#[test]
fn jump_blocked_by_own_rat_in_standard() {
    for rules in [Rules::standard(), Rules::datou(), Rules::traditional()] {
        for rat in ["b4", "b5", "b6"] {
            let pos = board(&format!("Lb3 R{rat} ea9"), 'w', rules);
            assert!(!legal(&pos, "b3b7"), "rat {rat} under {rules}");
        }
        let pos = board("Ld5 Re5 ea9", 'w', rules);
        assert!(!legal(&pos, "d5g5"));
        assert!(legal(&pos, "d5a5"));
    }
}

#[test]
fn jump_not_blocked_by_own_rat_in_yeshou() {
    let rules = Rules::yeshou();
    for rat in ["b4", "b5", "b6"] {
        let pos = board(&format!("Lb3 R{rat} ea9"), 'w', rules);
        assert!(legal(&pos, "b3b7"), "rat {rat}");
    }
    assert!(legal(&board("Ld5 Rf5 ea9", 'w', rules), "d5g5"));
}

#[test]
fn jump_blocked_by_enemy_rat_in_every_preset() {
    for (_, rules) in presets() {
        for rat in ["c4", "c5", "c6"] {
            let pos = board(&format!("Tc3 r{rat} ea9"), 'w', rules);
            assert!(!legal(&pos, "c3c7"), "rat {rat} under {rules}");
        }
        let pos = board("Ta6 rb6 ea9", 'w', rules);
        assert!(!legal(&pos, "a6d6"));
        // A Rat on another rank of the river blocks only where a Rat
        // anywhere in the river crossed blocks (datou); one in the other
        // river never does.
        let pos = board("Ta6 rb5 ea9", 'w', rules);
        assert_eq!(
            legal(&pos, "a6d6"),
            rules.jump_block_area == JumpBlockArea::Path,
            "{rules}"
        );
        assert!(legal(&board("Ta6 rf5 ea9", 'w', rules), "a6d6"), "{rules}");
    }
}

#[test]
fn datou_blocks_jumps_with_a_rat_anywhere_in_the_river() {
    // The issue's position: the Blue Rat on b6 is off the Lion's path a4-d4.
    let text = "6l/7/7/1r5/7/L6/7/7/6E w 0 1";
    assert!(legal(&pos(text, Rules::standard()), "a4d4"));
    assert!(!legal(&pos(text, Rules::datou()), "a4d4"));
    let mut rules = Rules::standard();
    rules.jump_block_area = JumpBlockArea::River;
    assert!(!legal(&pos(text, rules), "a4d4"));
    // Which Rats block still follows jump_block: the own Rat anywhere in
    // the river does not block under enemy_rat.
    rules.jump_block = JumpBlock::EnemyRat;
    assert!(legal(&board("La4 Rc6 eg9", 'w', rules), "a4d4"));
    assert!(!legal(&board("La4 rc6 eg9", 'w', rules), "a4d4"));
    // Vertical jumps too: a Rat on c5 blocks b3-b7 in datou only.
    let pos3 = |rules| board("Lb3 rc5 eg9", 'w', rules);
    assert!(legal(&pos3(Rules::standard()), "b3b7"));
    assert!(!legal(&pos3(Rules::datou()), "b3b7"));
    // The other river never blocks.
    assert!(legal(&board("Lb3 re5 eg9", 'w', Rules::datou()), "b3b7"));
}

#[test]
fn jump_block_is_an_option() {
    let mut rules = Rules::standard();
    rules.jump_block = JumpBlock::EnemyRat;
    assert!(legal(&board("Lb3 Rb5 ea9", 'w', rules), "b3b7"));
    assert!(!legal(&board("Lb3 rb5 ea9", 'w', rules), "b3b7"));
}

#[test]
fn jump_may_capture_on_landing() {
    for (_, rules) in presets() {
        let pos = board("Lb3 tb7 ea9", 'w', rules);
        let jump = mv("b3b7");
        assert!(pos.legal_moves().contains(&jump));
        assert!(pos.is_capture(jump));
        let mut after = pos;
        after.play(jump).unwrap();
        assert_eq!(
            after.piece_at("b7".parse().unwrap()),
            Some(Piece::new(Side::First, Animal::Lion))
        );
        assert_eq!(after.occupancy(Side::Second).count(), 1);
        assert_eq!(after.no_capture_plies(), 0);
    }
}

#[test]
fn jump_captures_exactly_as_a_step_would() {
    // a Tiger jumping onto an Elephant or Lion is refused, onto a Leopard allowed
    assert!(!legal(&board("Ta4 ed4", 'w', std()), "a4d4"));
    assert!(!legal(&board("Ta4 ld4 ea9", 'w', std()), "a4d4"));
    assert!(legal(&board("Ta4 pd4 ea9", 'w', std()), "a4d4"));
    assert!(legal(&board("Ta4 td4 ea9", 'w', std()), "a4d4"));
}

#[test]
fn jump_may_not_land_on_own_piece() {
    for (_, rules) in presets() {
        assert!(!legal(&board("Lb3 Db7 ea9", 'w', rules), "b3b7"));
        assert!(!legal(&board("Ld4 Cg4 ea9", 'w', rules), "d4g4"));
    }
}

#[test]
fn step_onto_own_piece_is_not_a_move() {
    let pos = board("Da2 Ca3 ea9", 'w', std());
    assert!(!legal(&pos, "a2a3"));
    assert!(!legal(&pos, "a3a2"));
}

#[test]
fn step_onto_enemy_is_a_capture_only_if_allowed() {
    assert!(!legal(&board("Ca2 da3", 'w', std()), "a2a3"));
    let pos = board("Da2 ca3", 'w', std());
    assert!(legal(&pos, "a2a3"));
    assert!(pos.is_capture(mv("a2a3")));
    assert!(!pos.is_capture(mv("a2b2")));
}

// ---------- section 4: capture ----------

/// The table of source 000 ("X can capture …") as letters.
const TABLE_000: [(char, &str); 8] = [
    ('R', "RE"),
    ('C', "CR"),
    ('D', "DCR"),
    ('W', "WDCR"),
    ('P', "PWDCR"),
    ('T', "TPWDCR"),
    ('L', "LTPWDCR"),
    ('E', "ELTPWDC"),
];

fn check_table(rules: Rules, table: &[(char, &str)]) {
    for &(attacker, victims) in table {
        for defender in "ELTPWDCR".chars() {
            // a2 and a3 are plain land squares
            let pos = board(
                &format!("{attacker}a2 {}a3", defender.to_ascii_lowercase()),
                'w',
                rules,
            );
            assert_eq!(
                legal(&pos, "a2a3"),
                victims.contains(defender),
                "{attacker} takes {defender} under {rules}"
            );
            // and the same from the other side
            let pos = board(
                &format!("{}a2 {defender}a3", attacker.to_ascii_lowercase()),
                'b',
                rules,
            );
            assert_eq!(legal(&pos, "a2a3"), victims.contains(defender));
        }
    }
}

#[test]
fn capture_table_default_order() {
    check_table(Rules::standard(), &TABLE_000);
    check_table(Rules::yeshou(), &TABLE_000);
    check_table(Rules::datou(), &TABLE_000);
}

#[test]
fn dog_over_wolf_in_traditional() {
    let mut table = TABLE_000;
    table[2] = ('D', "DWCR");
    table[3] = ('W', "WCR");
    table[4] = ('P', "PDWCR");
    check_table(Rules::traditional(), &table);
    assert!(legal(&board("Da2 wa3", 'w', Rules::traditional()), "a2a3"));
    assert!(!legal(&board("Da2 wa3", 'w', Rules::standard()), "a2a3"));
    assert_eq!(Animal::Dog.strength(RankOrder::DogOverWolf), 4);
    assert_eq!(Animal::Wolf.strength(RankOrder::DogOverWolf), 3);
}

#[test]
fn same_animals_capture_each_other() {
    for a in Animal::ALL {
        let l = a.letter();
        let pos = board(&format!("{l}a2 {}a3", l.to_ascii_lowercase()), 'w', std());
        assert!(legal(&pos, "a2a3"), "{a}");
    }
}

#[test]
fn rat_captures_elephant() {
    assert!(legal(&board("Ra2 ea3", 'w', std()), "a2a3"));
}

#[test]
fn elephant_never_captures_rat() {
    for (_, rules) in presets() {
        assert!(!legal(&board("Ea2 ra3", 'w', rules), "a2a3"));
        // not even on the Rat's own trap or with the Elephant on a trap
        assert!(!legal(&board("Ec8 rd8 ea9", 'w', rules), "c8d8"));
        assert!(!legal(&board("Ed2 rd3", 'w', rules), "d2d3"));
    }
}

#[test]
fn elephant_captures_rat_on_the_elephants_own_trap() {
    assert!(legal(&board("Eb1 rc1", 'w', std()), "b1c1"));
}

#[test]
fn enemy_trap_removes_power() {
    for (_, rules) in presets() {
        // a Blue Elephant on Red's trap d2 falls to a Red Rat, Cat, Dog…
        for attacker in ["Rd3", "Cc2", "De2"] {
            let pos = board(&format!("{attacker} ed2"), 'w', rules);
            let from = &attacker[1..];
            assert!(
                legal(&pos, &format!("{from}d2")),
                "{attacker} under {rules}"
            );
        }
        // a Red Lion on Blue's trap c9 falls to a Blue Cat
        assert!(legal(&board("Lc9 cb9", 'b', rules), "b9c9"));
    }
}

#[test]
fn own_trap_changes_nothing() {
    for (_, rules) in presets() {
        // Red Wolf on Red's own trap e1: a Blue Cat still cannot take it,
        // a Blue Lion still can.
        assert!(!legal(&board("We1 ce2", 'b', rules), "e2e1"));
        assert!(legal(&board("We1 lf1", 'b', rules), "f1e1"));
        // and an animal on its own trap attacks normally
        assert!(legal(&board("Le1 te2", 'w', rules), "e1e2"));
        assert!(!legal(&board("Ce1 te2", 'w', rules), "e1e2"));
    }
}

#[test]
fn trapped_animal_still_attacks() {
    for (name, rules) in presets() {
        if rules.trapped_attacks != TrappedAttacks::Normal {
            continue;
        }
        // a Blue Lion on Red's trap c1 still takes a Red Tiger
        let pos = board("Tc2 lc1", 'b', rules);
        assert!(legal(&pos, "c1c2"), "{name}");
        // a Blue Cat on Red's trap still cannot take a Red Dog
        assert!(!legal(&board("Dc2 cc1", 'b', rules), "c1c2"), "{name}");
    }
}

#[test]
fn trapped_animal_captures_nothing_in_yeshou() {
    let sq = |t: &str| t.parse::<Square>().unwrap();
    // The Red Lion stands on Blue's trap c9 next to the Blue Tiger on b9.
    let text = "1tL4/7/7/7/7/7/7/7/6E w 0 1";
    assert!(legal(&pos(text, Rules::standard()), "c9b9"));
    let yeshou = pos(text, Rules::yeshou());
    assert!(!legal(&yeshou, "c9b9"));
    // It may still step off, onto an empty square or into the den.
    assert_eq!(moves_from(&yeshou, "c9"), ["c9c8", "c9d9"]);
    // The option alone does it, whatever the rest of the rule set.
    let mut rules = Rules::standard();
    rules.trapped_attacks = TrappedAttacks::None;
    assert!(!legal(&pos(text, rules), "c9b9"));
    assert!(!rules.capture_allowed(
        Piece::new(Side::First, Animal::Lion),
        sq("c9"),
        Piece::new(Side::Second, Animal::Tiger),
        sq("b9"),
    ));
    // Once off the trap, the Lion captures again.
    assert!(legal(&board("Lc8 tb8 Eg1", 'w', Rules::yeshou()), "c8b8"));
    // Every animal: a trapped Rat does not take an Elephant, a trapped
    // Elephant not a Cat; Blue animals on Red's traps alike.
    for (pieces, side, mv) in [
        ("Rd8 ed7 Eg1", 'w', "d8d7"),
        ("Ee9 cf9", 'w', "e9f9"),
        ("lc1 Tc2 ea9", 'b', "c1c2"),
        ("rd2 Ed3 ea9", 'b', "d2d3"),
    ] {
        let std_pos = board(pieces, side, Rules::standard());
        let yeshou_pos = board(pieces, side, Rules::yeshou());
        assert!(legal(&std_pos, mv), "{pieces}");
        assert!(!legal(&yeshou_pos, mv), "{pieces}");
        // and the enemy the trapped animal faces is not under attack
        let to = sq(&mv[2..]);
        let mover = yeshou_pos.side_to_move();
        assert!(std_pos.attacked_by(mover).contains(to.index()), "{pieces}");
        assert!(
            !yeshou_pos.attacked_by(mover).contains(to.index()),
            "{pieces}"
        );
    }
    // The trapped animal is still captured by any animal of the trap's
    // owner, and an animal on its own trap captures as usual.
    assert!(legal(&board("Lc9 cb9", 'b', Rules::yeshou()), "b9c9"));
    assert!(legal(&board("Le1 te2", 'w', Rules::yeshou()), "e1e2"));
}

#[test]
fn two_rats_in_water_capture_each_other() {
    for (_, rules) in presets() {
        assert!(legal(&board("Rb4 rb5", 'w', rules), "b4b5"));
        assert!(legal(&board("Rb4 rb5", 'b', rules), "b5b4"));
        assert!(legal(&board("Re5 rf5", 'w', rules), "e5f5"));
    }
}

#[test]
fn rat_in_water_never_captures_elephant() {
    for (_, rules) in presets() {
        assert!(!legal(&board("Rb4 ea4", 'w', rules), "b4a4"));
        assert!(!legal(&board("Rc6 ec7", 'w', rules), "c6c7"));
        // from land it can
        assert!(legal(&board("Ra3 ea4", 'w', rules), "a3a4"));
    }
}

#[test]
fn nothing_on_land_captures_a_rat_in_water() {
    for (_, rules) in presets() {
        for attacker in ["E", "L", "T", "C"] {
            let pos = board(&format!("{attacker}a4 rb4"), 'w', rules);
            assert!(!legal(&pos, "a4b4"), "{attacker}");
        }
    }
}

#[test]
fn rat_bank_capture_yeshou() {
    // Red Rat on land a4, Blue Rat in water b4: either may take the other in
    // yeshou, neither in the other presets.
    for (name, rules) in presets() {
        let expect = name == "yeshou";
        assert_eq!(
            legal(&board("Ra4 rb4", 'w', rules), "a4b4"),
            expect,
            "{name}"
        );
        assert_eq!(
            legal(&board("Ra4 rb4", 'b', rules), "b4a4"),
            expect,
            "{name}"
        );
        assert_eq!(
            legal(&board("Rd6 re6", 'w', rules), "d6e6"),
            expect,
            "{name}"
        );
    }
}

#[test]
fn rat_on_land_captures_rat_on_land() {
    for (_, rules) in presets() {
        assert!(legal(&board("Ra4 ra5", 'w', rules), "a4a5"));
    }
}

#[test]
fn capture_allowed_helper_agrees_with_generation() {
    let red = |a| Piece::new(Side::First, a);
    let blue = |a| Piece::new(Side::Second, a);
    let sq = |t: &str| t.parse::<Square>().unwrap();
    let r = Rules::standard();
    assert!(r.capture_allowed(red(Animal::Rat), sq("a2"), blue(Animal::Elephant), sq("a3")));
    assert!(!r.capture_allowed(red(Animal::Rat), sq("b4"), blue(Animal::Elephant), sq("a4")));
    assert!(r.capture_allowed(red(Animal::Elephant), sq("b1"), blue(Animal::Rat), sq("c1")));
    assert!(!r.capture_allowed(red(Animal::Rat), sq("a4"), blue(Animal::Rat), sq("b4")));
    assert!(Rules::yeshou().capture_allowed(
        red(Animal::Rat),
        sq("a4"),
        blue(Animal::Rat),
        sq("b4")
    ));
}

// ---------- section 5: end of the game (board) ----------

#[test]
fn den_entry_wins() {
    let mut pos = board("Dd8 ra9 eg9", 'w', std());
    pos.play(mv("d8d9")).unwrap();
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Side::First, qi_jungle::DEN_ENTERED))
    );
    assert_eq!(pos.count_moves(), 0);
    assert!(pos.legal_moves().is_empty());
    assert_eq!(perft(&pos, 3), 0);

    let mut pos = board("cd2 Ra1 Eg1", 'b', std());
    pos.play(mv("d2d1")).unwrap();
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Side::Second, qi_jungle::DEN_ENTERED))
    );
}

#[test]
fn no_animals_loses() {
    let mut pos = board("La2 ca3", 'w', std());
    pos.play(mv("a2a3")).unwrap();
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Side::First, WinReason::NoPieces))
    );
    assert_eq!(pos.count_moves(), 0);
    // a side to move without animals has lost
    let pos = board("ra9", 'w', std());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Side::Second, WinReason::NoPieces))
    );
    // the side not to move without animals has lost too (no game reaches
    // that position: it is read leniently)
    let pos = board_lenient("ra9", 'b', std());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Side::Second, WinReason::NoPieces))
    );
    assert!(pos.legal_moves().is_empty());
}

#[test]
fn no_legal_move_loses() {
    // the Blue Rat in the corner cannot take the Cat or the Dog
    let pos = board("ra9 Ca8 Db9", 'b', std());
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Side::First, WinReason::NoLegalMove))
    );
    // with a Blue Rat that can take the Cat… there is none; give it an Elephant to take
    let pos = board("ra9 Ea8 Db9", 'b', std());
    assert_eq!(move_texts(&pos), ["a9a8"]);
    assert_eq!(pos.outcome(), None);
}

#[test]
fn game_goes_on_otherwise() {
    assert_eq!(Jungle::default().outcome(), None);
}

// ---------- section 6: options and presets ----------

#[test]
fn presets_match_the_table() {
    let s = Rules::standard();
    assert_eq!(
        (s.rank_order, s.lion_jumps, s.tiger_jumps, s.jump_block),
        (
            RankOrder::WolfOverDog,
            Jumps::Both,
            Jumps::Both,
            JumpBlock::AnyRat
        )
    );
    assert_eq!(
        (
            s.rat_bank_capture,
            s.no_capture_draw,
            s.repetition,
            s.anti_chase
        ),
        (false, 200, Repetition::Draw, false)
    );
    let y = Rules::yeshou();
    assert_eq!(
        (y.rank_order, y.lion_jumps, y.tiger_jumps, y.jump_block),
        (
            RankOrder::WolfOverDog,
            Jumps::Both,
            Jumps::Both,
            JumpBlock::EnemyRat
        )
    );
    assert_eq!(
        (
            y.rat_bank_capture,
            y.no_capture_draw,
            y.repetition,
            y.anti_chase
        ),
        (true, 200, Repetition::Off, true)
    );
    let d = Rules::datou();
    assert_eq!(
        (d.rank_order, d.lion_jumps, d.tiger_jumps, d.jump_block),
        (
            RankOrder::WolfOverDog,
            Jumps::Both,
            Jumps::HorizontalOnly,
            JumpBlock::AnyRat
        )
    );
    assert_eq!(
        (
            d.rat_bank_capture,
            d.no_capture_draw,
            d.repetition,
            d.anti_chase
        ),
        (false, 200, Repetition::Off, true)
    );
    let t = Rules::traditional();
    assert_eq!(
        (t.rank_order, t.lion_jumps, t.tiger_jumps, t.jump_block),
        (
            RankOrder::DogOverWolf,
            Jumps::Both,
            Jumps::Both,
            JumpBlock::AnyRat
        )
    );
    assert_eq!(
        (
            t.rat_bank_capture,
            t.no_capture_draw,
            t.repetition,
            t.anti_chase
        ),
        (false, 200, Repetition::InitiatorLoses, true)
    );
    let areas_and_traps = presets().map(|(_, r)| (r.jump_block_area, r.trapped_attacks));
    assert_eq!(
        areas_and_traps,
        [
            (JumpBlockArea::Path, TrappedAttacks::Normal),
            (JumpBlockArea::Path, TrappedAttacks::None),
            (JumpBlockArea::River, TrappedAttacks::Normal),
            (JumpBlockArea::Path, TrappedAttacks::Normal),
        ]
    );
    assert_eq!(Rules::default(), Rules::standard());
}

#[test]
fn presets_are_selectable_by_name() {
    assert_eq!(
        Rules::PRESETS,
        ["standard", "yeshou", "datou", "traditional"]
    );
    for (name, rules) in presets() {
        assert_eq!(Rules::preset(name), Ok(rules));
        assert_eq!(format!("jungle:{name}").parse::<Rules>(), Ok(rules));
        assert_eq!(name.parse::<Rules>(), Ok(rules));
        assert_eq!(rules.to_string(), name);
        assert_eq!(rules.preset_name(), Some(name));
    }
    assert_eq!("jungle".parse::<Rules>(), Ok(Rules::standard()));
    assert_eq!(" Jungle:Yeshou ".parse::<Rules>(), Ok(Rules::yeshou()));
}

#[test]
fn unknown_preset_names_the_known_ones() {
    let err = Rules::preset("chess").unwrap_err();
    assert_eq!(
        err,
        UnknownPreset {
            name: "chess".into()
        }
    );
    let text = err.to_string();
    for name in Rules::PRESETS {
        assert!(text.contains(name), "{text}");
    }
    assert!(matches!(
        "jungle:nope".parse::<Rules>(),
        Err(ParseRulesError::UnknownPreset(_))
    ));
    assert!(matches!(
        "five-tigers".parse::<Rules>(),
        Err(ParseRulesError::UnknownPreset(_))
    ));
}

#[test]
fn the_old_repetition_name_is_refused_with_the_new_one() {
    for old in ["mover_loses", "mover-loses", "MoverLoses", "Mover_Loses"] {
        let err = format!("traditional,repetition={old}")
            .parse::<Rules>()
            .unwrap_err();
        assert_eq!(
            err,
            ParseRulesError::Renamed {
                option: "repetition",
                value: old.to_string(),
                new_name: "initiator_loses",
            }
        );
        assert!(err.to_string().contains("initiator_loses"), "{err}");
    }
    for old in ["mover_loses", "mover-loses", "MoverLoses"] {
        let err = old.parse::<Repetition>().unwrap_err();
        assert_eq!(err.renamed_to, Some("initiator_loses"));
        assert!(err.to_string().contains("initiator_loses"), "{err}");
    }
}

#[test]
fn every_option_is_settable_one_by_one() {
    let cases = [
        ("rank_order", "dog_over_wolf"),
        ("lion_jumps", "vertical"),
        ("tiger_jumps", "none"),
        ("jump_block", "enemy_rat"),
        ("jump_block_area", "river"),
        ("trapped_attacks", "none"),
        ("rat_bank_capture", "on"),
        ("no_capture_draw", "100"),
        ("repetition", "initiator_loses"),
        ("anti_chase", "on"),
    ];
    for (option, value) in cases {
        let mut rules = Rules::standard();
        rules.set_option(option, value).unwrap();
        assert_ne!(rules, Rules::standard(), "{option}");
        assert_eq!(rules.preset_name(), None);
        let text = rules.to_string();
        assert_eq!(text, format!("standard,{option}={value}"));
        assert_eq!(text.parse::<Rules>(), Ok(rules));
    }
    let all = "jungle:standard,rank_order=dog_over_wolf,tiger_jumps=horizontal,anti_chase=on,repetition=initiator_loses"
        .parse::<Rules>()
        .unwrap();
    assert_eq!(all, Rules::traditional().with_tiger(Jumps::HorizontalOnly));
    assert!(matches!(
        "standard,colour=red".parse::<Rules>(),
        Err(ParseRulesError::UnknownOption(_))
    ));
    assert!(matches!(
        "standard,anti_chase=maybe".parse::<Rules>(),
        Err(ParseRulesError::BadValue {
            option: "anti_chase",
            ..
        })
    ));
    assert!(matches!(
        "standard,anti_chase".parse::<Rules>(),
        Err(ParseRulesError::MissingValue(_))
    ));
}

trait WithTiger {
    fn with_tiger(self, j: Jumps) -> Rules;
}

impl WithTiger for Rules {
    fn with_tiger(mut self, j: Jumps) -> Rules {
        self.tiger_jumps = j;
        self
    }
}

// ---------- section 7: notation ----------

#[test]
fn start_position_jfen() {
    assert_eq!(
        START_JFEN,
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1"
    );
    assert_eq!(Jungle::default().to_string(), START_JFEN);
    assert_eq!(START_JFEN.parse::<Jungle>().unwrap(), Jungle::default());
}

#[test]
fn jfen_side_field_accepts_w_b_and_r() {
    let board_text = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L";
    let w: Jungle = format!("{board_text} w").parse().unwrap();
    let r: Jungle = format!("{board_text} r").parse().unwrap();
    let b: Jungle = format!("{board_text} b").parse().unwrap();
    assert_eq!(w, r);
    assert_eq!(w.side_to_move(), Side::First);
    assert_eq!(b.side_to_move(), Side::Second);
    assert!(r.to_string().contains(" w "));
    assert!(b.to_string().contains(" b "));
}

#[test]
fn jfen_counters_are_optional() {
    let pos: Jungle = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w"
        .parse()
        .unwrap();
    assert_eq!((pos.no_capture_plies(), pos.fullmove()), (0, 1));
    assert!(pos.to_string().ends_with(" w 0 1"));
    let pos: Jungle = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 1"
        .parse()
        .unwrap();
    assert_eq!((pos.no_capture_plies(), pos.fullmove()), (1, 1));
    let pos: Jungle = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 17 42"
        .parse()
        .unwrap();
    assert_eq!((pos.no_capture_plies(), pos.fullmove()), (17, 42));
    assert!(pos.to_string().ends_with(" b 17 42"));
}

#[test]
fn counters_advance() {
    let mut pos = Jungle::default();
    pos.play(mv("a3a4")).unwrap();
    assert_eq!((pos.no_capture_plies(), pos.fullmove()), (1, 1));
    pos.play(mv("g7g6")).unwrap();
    assert_eq!((pos.no_capture_plies(), pos.fullmove()), (2, 2));
}

#[test]
fn jfen_errors_name_the_field() {
    use JfenError::*;
    let p = |t: &str| t.parse::<Jungle>().unwrap_err();
    assert_eq!(p(""), Empty);
    assert_eq!(p("7/7/7 w"), RankCount(3));
    assert_eq!(
        p("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R1/1C3D1/T5L w"),
        RankWidth {
            rank: 3,
            squares: 8
        }
    );
    assert_eq!(
        p("l5t/1d3c1/r1p1w1e/7/6/7/E1W1P1R/1C3D1/T5L w"),
        RankWidth {
            rank: 5,
            squares: 6
        }
    );
    assert_eq!(
        p("l5t/1d3c1/r1p1w1e/7/x6/7/E1W1P1R/1C3D1/T5L w"),
        UnknownPiece {
            letter: 'x',
            rank: 5
        }
    );
    assert_eq!(
        p("l5t/1d3c1/r1p1w1e/7/08/7/E1W1P1R/1C3D1/T5L w"),
        BadDigit {
            digit: '0',
            rank: 5
        }
    );
    assert_eq!(
        p("l5t/1d3c1/r1p1w1e/7/L6/7/E1W1P1R/1C3D1/T5L w"),
        DuplicatePiece(Piece::new(Side::First, Animal::Lion))
    );
    assert_eq!(
        p("l5t/1d3c1/r1p1w1e/7/1E5/7/2W1P1R/1C3D1/T5L w"),
        Setup(SetupError::AnimalInWater {
            piece: Piece::new(Side::First, Animal::Elephant),
            square: "b5".parse().unwrap()
        })
    );
    assert_eq!(
        p("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T2C2L w"),
        DuplicatePiece(Piece::new(Side::First, Animal::Cat))
    );
    assert_eq!(
        p("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/5D1/T2C2L w"),
        Setup(SetupError::OwnDen {
            piece: Piece::new(Side::First, Animal::Cat),
            square: "d1".parse().unwrap()
        })
    );
    assert_eq!(
        p("3L3/7/7/7/7/7/7/7/3l3 w"),
        Setup(SetupError::BothDensEntered)
    );
    let start = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L";
    assert_eq!(p(start), MissingSide);
    assert_eq!(p(&format!("{start} q")), BadSide("q".into()));
    assert_eq!(
        p(&format!("{start} w x")),
        BadCounter {
            field: "no-capture",
            text: "x".into()
        }
    );
    assert_eq!(
        p(&format!("{start} w -1")),
        BadCounter {
            field: "no-capture",
            text: "-1".into()
        }
    );
    assert_eq!(
        p(&format!("{start} w 0 0")),
        BadCounter {
            field: "full-move",
            text: "0".into()
        }
    );
    assert_eq!(
        p(&format!("{start} w 0 99999999999")),
        BadCounter {
            field: "full-move",
            text: "99999999999".into()
        }
    );
    assert_eq!(p(&format!("{start} w 0 1 z")), ExtraField("z".into()));
    // messages say what is wrong
    assert_eq!(
        p("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R1/1C3D1/T5L w").to_string(),
        "rank 3 has 8 squares, expected 7"
    );
    assert_eq!(
        p("l5t/1d3c1/r1p1w1e/7/L6/7/E1W1P1R/1C3D1/T5L w").to_string(),
        "two Red Lions on the board"
    );
}

#[test]
fn letters_always_name_the_animal() {
    let pos = Jungle::new(Rules::traditional());
    assert_eq!(
        pos.piece_at("c3".parse().unwrap()),
        Some(Piece::new(Side::First, Animal::Wolf))
    );
    assert_eq!(pos.to_string(), format!("{START_JFEN} traditional"));
}

#[test]
fn move_notation_is_origin_then_destination() {
    let m: Move = "a3a4".parse().unwrap();
    assert_eq!(m.from, "a3".parse().unwrap());
    assert_eq!(m.to, "a4".parse().unwrap());
    assert_eq!(m.to_string(), "a3a4");
    let jump: Move = "b3b7".parse().unwrap();
    assert!(jump.is_jump());
    assert!(!m.is_jump());
    // captures are not marked
    let pos = board("Da2 ca3", 'w', std());
    assert!(pos.legal_moves().iter().any(|m| m.to_string() == "a2a3"));
}

#[test]
fn move_parse_errors_say_what_is_wrong() {
    assert!(matches!(
        "a3".parse::<Move>(),
        Err(ParseMoveError::BadLength(_))
    ));
    assert!(matches!(
        "a3a4a5".parse::<Move>(),
        Err(ParseMoveError::BadLength(_))
    ));
    assert!(matches!(
        "h3a4".parse::<Move>(),
        Err(ParseMoveError::BadFrom { .. })
    ));
    assert!(matches!(
        "a3a0".parse::<Move>(),
        Err(ParseMoveError::BadTo { .. })
    ));
    assert!(matches!(
        "a3a3".parse::<Move>(),
        Err(ParseMoveError::SameSquare(_))
    ));
    assert!(matches!(
        "ä3a4".parse::<Move>(),
        Err(ParseMoveError::BadLength(_))
    ));
}
