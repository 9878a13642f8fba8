//! Parsers never panic, JFEN of reachable positions round-trips.

use crate::common;

use common::*;
use proptest::prelude::*;
use qi_core::testkit::{random_playout, Rng};
use qi_jungle::{Jungle, Move, Rules, Square};

fn reachable(seed: u64, plies: usize, rules: Rules) -> Jungle {
    random_playout(&Jungle::new(rules), plies, &mut Rng::new(seed))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn jfen_parser_never_panics(text in "\\PC*") {
        let _ = text.parse::<Jungle>();
        let _ = Jungle::from_text(&text, Rules::yeshou());
    }

    #[test]
    fn jfen_parser_never_panics_on_jfen_like_text(text in "[eltpwdcrELTPWDCR0-9/ wbrq-]{0,80}") {
        if let Ok(pos) = text.parse::<Jungle>() {
            // whatever parses prints and re-parses to itself
            let again: Jungle = pos.to_string().parse().unwrap();
            prop_assert_eq!(again, pos);
        }
    }

    #[test]
    fn mutated_jfen_never_panics(seed in any::<u64>(), plies in 0usize..200, edits in proptest::collection::vec((any::<usize>(), any::<char>()), 1..4)) {
        let text = reachable(seed, plies, Rules::standard()).to_string();
        let mut chars: Vec<char> = text.chars().collect();
        for (at, c) in edits {
            let i = at % chars.len();
            chars[i] = c;
        }
        let mutated: String = chars.into_iter().collect();
        let _ = mutated.parse::<Jungle>();
    }

    #[test]
    fn move_parser_never_panics(text in "\\PC*") {
        if let Ok(m) = text.parse::<Move>() {
            prop_assert_eq!(m.to_string(), text.trim());
        }
    }

    #[test]
    fn move_like_text_round_trips(text in "[a-h][0-9][a-h][0-9]") {
        if let Ok(m) = text.parse::<Move>() {
            prop_assert_eq!(m.to_string(), text.clone());
        }
    }

    #[test]
    fn square_parser_never_panics(text in "\\PC*") {
        if let Ok(s) = text.parse::<Square>() {
            prop_assert_eq!(s.to_string(), text.clone());
        }
    }

    #[test]
    fn rules_parser_never_panics(text in "\\PC*") {
        let _ = text.parse::<Rules>();
        let _ = Rules::preset(&text);
    }

    #[test]
    fn rules_like_text_never_panics(text in "(jungle:)?(standard|yeshou|datou|traditional|x)(,[a-z_]{0,18}=?[a-z_0-9]{0,12}){0,3}") {
        if let Ok(rules) = text.parse::<Rules>() {
            prop_assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules));
        }
    }

    #[test]
    fn jfen_of_reachable_positions_round_trips(seed in any::<u64>(), plies in 0usize..300, preset in 0usize..4) {
        let rules = presets()[preset].1;
        let pos = reachable(seed, plies, rules);
        let text = pos.to_string();
        let back = Jungle::from_text(&text, rules).unwrap();
        prop_assert_eq!(back, pos);
        prop_assert_eq!(back.to_string(), text.clone());
        // without the counters: the same board and side
        let short: Vec<&str> = text.split(' ').take(2).collect();
        let short = Jungle::from_text(&short.join(" "), rules).unwrap();
        prop_assert!(short.same_board(&pos));
    }
}
