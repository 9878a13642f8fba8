//! The capture table (spec section 4) as property tests: an attacker is put
//! next to (or a river jump away from) a defender, and the engine must
//! generate the capture exactly when an independent reference reading of the
//! rules allows it. Both rank orders, traps of both sides (with trapped
//! animals capturing or not), water, bank and jump cases, and jump lanes
//! with own or enemy rats.

use crate::common;

use common::*;
use proptest::prelude::*;
use qi_core::{Position, Side};
use qi_jungle::{Animal, JumpBlock, Jumps, Jungle, Piece, RankOrder, Rules, TrappedAttacks};

const DIRS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

fn rules_strategy() -> impl Strategy<Value = Rules> {
    let jumps = prop_oneof![
        Just(Jumps::None),
        Just(Jumps::Both),
        Just(Jumps::HorizontalOnly),
        Just(Jumps::VerticalOnly)
    ];
    (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        jumps.clone(),
        jumps,
        any::<bool>(),
    )
        .prop_map(|(dog, bank, enemy_only, lion, tiger, disarmed)| Rules {
            rank_order: if dog {
                RankOrder::DogOverWolf
            } else {
                RankOrder::WolfOverDog
            },
            rat_bank_capture: bank,
            jump_block: if enemy_only {
                JumpBlock::EnemyRat
            } else {
                JumpBlock::AnyRat
            },
            lion_jumps: lion,
            tiger_jumps: tiger,
            trapped_attacks: if disarmed {
                TrappedAttacks::None
            } else {
                TrappedAttacks::Normal
            },
            ..Rules::standard()
        })
}

/// Squares near traps, dens and river banks, where the special rules bite.
const INTERESTING: [&str; 24] = [
    "c1", "e1", "d2", "c2", "e2", "d3", "b1", "f1", "c9", "e9", "d8", "c8", "e8", "d7", "b9", "f9",
    "a4", "d5", "g6", "b3", "c7", "b4", "e6", "f5",
];

fn square_strategy() -> impl Strategy<Value = Sq> {
    prop_oneof![
        (0i32..7, 0i32..9),
        proptest::sample::select(INTERESTING.to_vec()).prop_map(|t| sq_of(t.parse().unwrap())),
    ]
}

fn animal_strategy() -> impl Strategy<Value = Animal> {
    (0usize..8).prop_map(|i| Animal::ALL[i])
}

fn side_of(red: bool) -> Side {
    if red {
        Side::First
    } else {
        Side::Second
    }
}

fn token(p: Piece, s: Sq) -> String {
    format!("{}{}", p.letter(), square(s))
}

/// Whether a piece may stand on `s` in a position that is not over.
fn may_stand(p: Piece, s: Sq) -> bool {
    (p.animal == Animal::Rat || !is_water(s))
        && s != den_of(p.side)
        && s != den_of(p.side.opponent())
}

/// Every land square and direction from which a river jump starts.
fn jump_starts() -> Vec<(Sq, usize)> {
    let mut v = Vec::new();
    for f in 0..7 {
        for r in 0..9 {
            for (dir, (df, dr)) in DIRS.iter().enumerate() {
                let next = (f + df, r + dr);
                if !is_water((f, r)) && on_board(next) && is_water(next) {
                    v.push(((f, r), dir));
                }
            }
        }
    }
    assert_eq!(v.len(), 20);
    v
}

fn engine_has(pos: &Jungle, from: Sq, to: Sq) -> bool {
    let text = format!("{}{}", square(from), square(to));
    pos.legal_moves().iter().any(|m| m.to_string() == text)
}

fn ref_has(pos: &Jungle, from: Sq, to: Sq) -> bool {
    let text = format!("{}{}", square(from), square(to));
    RefBoard::from_jungle(pos).legal_moves().contains(&text)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 6000,
        max_global_rejects: 1_000_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Steps: the attacker next to the defender.
    #[test]
    fn step_captures_match_the_reference(
        rules in rules_strategy(),
        red in any::<bool>(),
        att in animal_strategy(),
        def in animal_strategy(),
        from in square_strategy(),
        dir in 0usize..4,
    ) {
        let side = side_of(red);
        let a = Piece::new(side, att);
        let d = Piece::new(side.opponent(), def);
        let to = (from.0 + DIRS[dir].0, from.1 + DIRS[dir].1);
        prop_assume!(on_board(to));
        prop_assume!(may_stand(a, from) && may_stand(d, to));
        let pos = board(&format!("{} {}", token(a, from), token(d, to)), if red { 'w' } else { 'b' }, rules);

        // what the spec says, read independently
        let may_enter = to != den_of(side) && (!is_water(to) || att == Animal::Rat);
        let expected = may_enter && can_capture(&rules, a, from, d, to);
        prop_assert_eq!(engine_has(&pos, from, to), expected, "{} under {}", pos, rules);
        prop_assert_eq!(ref_has(&pos, from, to), expected);
        prop_assert_eq!(pos.is_capture(format!("{}{}", square(from), square(to)).parse().unwrap()), true);
        // the helper on Rules agrees on the capture decision
        prop_assert_eq!(
            rules.capture_allowed(a, square(from), d, square(to)),
            can_capture(&rules, a, from, d, to)
        );
    }

    /// Jumps: Lion or Tiger a river away from the defender, with a rat of
    /// either side (or none) in the lane.
    #[test]
    fn jump_captures_match_the_reference(
        rules in rules_strategy(),
        red in any::<bool>(),
        lion in any::<bool>(),
        def in animal_strategy(),
        (start, dir) in proptest::sample::select(jump_starts()),
        rat in 0usize..3,
        rat_at in 0usize..3,
        empty_landing in any::<bool>(),
    ) {
        let side = side_of(red);
        let att = if lion { Animal::Lion } else { Animal::Tiger };
        let a = Piece::new(side, att);
        // walk over the river
        let (df, dr) = DIRS[dir];
        let mut path = Vec::new();
        let mut cur = (start.0 + df, start.1 + dr);
        while on_board(cur) && is_water(cur) {
            path.push(cur);
            cur = (cur.0 + df, cur.1 + dr);
        }
        prop_assume!(!is_water(start) && !path.is_empty() && on_board(cur));
        let to = cur;
        prop_assume!(may_stand(a, start));
        let d = Piece::new(side.opponent(), def);
        let mut tokens = vec![token(a, start)];
        // the rat in the lane, if any
        let lane_rat = match rat {
            1 => Some(Piece::new(side, Animal::Rat)),
            2 => Some(Piece::new(side.opponent(), Animal::Rat)),
            _ => None,
        };
        if let Some(r) = lane_rat {
            prop_assume!(r != d || empty_landing);
            tokens.push(token(r, path[rat_at % path.len()]));
        }
        if empty_landing {
            // keep an enemy animal somewhere harmless so the game is not over
            let keeper = Piece::new(side.opponent(), Animal::Cat);
            let spot = if side == Side::First { (0, 8) } else { (6, 0) };
            prop_assume!(spot != start && spot != to);
            tokens.push(token(keeper, spot));
        } else {
            prop_assume!(may_stand(d, to));
            tokens.push(token(d, to));
        }
        let pos = board(&tokens.join(" "), if red { 'w' } else { 'b' }, rules);

        let vertical = df == 0;
        let allowed_dir = match if lion { rules.lion_jumps } else { rules.tiger_jumps } {
            Jumps::None => false,
            Jumps::Both => true,
            Jumps::HorizontalOnly => !vertical,
            Jumps::VerticalOnly => vertical,
        };
        let blocked = match lane_rat {
            None => false,
            Some(r) => rules.jump_block == JumpBlock::AnyRat || r.side != side,
        };
        let capture_ok = empty_landing || can_capture(&rules, a, start, d, to);
        let expected = allowed_dir && !blocked && capture_ok;
        prop_assert_eq!(engine_has(&pos, start, to), expected, "{} under {}", pos, rules);
        prop_assert_eq!(ref_has(&pos, start, to), expected);
    }

    /// Whole move lists of random sparse positions agree with the reference.
    #[test]
    fn random_sparse_positions_match_the_reference(
        rules in rules_strategy(),
        red in any::<bool>(),
        picks in proptest::collection::vec((0usize..16, (0i32..7, 0i32..9)), 2..10),
    ) {
        let mut used = std::collections::HashSet::new();
        let mut pieces = std::collections::HashSet::new();
        let mut tokens = Vec::new();
        for (p, s) in picks {
            let piece = Piece::new(if p < 8 { Side::First } else { Side::Second }, Animal::ALL[p % 8]);
            if !may_stand(piece, s) || !used.insert(s) || !pieces.insert(p) {
                continue;
            }
            tokens.push(token(piece, s));
        }
        // Any board, reachable in a game or not: the generator must agree
        // with the reference on all of them.
        let pos = board_lenient(&tokens.join(" "), if red { 'w' } else { 'b' }, rules);
        prop_assert_eq!(move_texts(&pos), RefBoard::from_jungle(&pos).legal_moves(), "{}", pos);
    }
}
