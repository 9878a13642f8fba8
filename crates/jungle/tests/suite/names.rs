//! Each value of a rule option has one name, declared once and used by the
//! rules text (`Display`, `set_option`, `FromStr`) and by serde; older
//! spellings are still read.

use std::fmt::{Debug, Display};
use std::str::FromStr;

use qi_jungle::{JumpBlock, JumpBlockArea, Jumps, RankOrder, Repetition, Rules, TrappedAttacks};

/// Checks one option: every value's name round-trips through the value's
/// `Display`/`FromStr`, through `set_option` and through the whole rules
/// text, and every accepted spelling sets the value.
fn check_option<T>(
    option: &'static str,
    names: &[(T, &'static str)],
    accepted: &[(T, &'static str)],
    get: impl Fn(&Rules) -> T,
) where
    T: Copy + PartialEq + Debug + Display + FromStr,
    T::Err: Debug,
{
    for &(value, name) in names {
        assert_eq!(value.to_string(), name);
        assert_eq!(name.parse::<T>().unwrap(), value);
        let mut rules = Rules::standard();
        rules.set_option(option, name).unwrap();
        assert_eq!(get(&rules), value, "{option}={name}");
        assert!(rules.options().contains(&(option, name.to_string())));
        let text = rules.to_string();
        if value != get(&Rules::standard()) {
            assert!(text.contains(&format!(",{option}={name}")), "{text}");
        }
        assert_eq!(text.parse::<Rules>(), Ok(rules), "{text}");
    }
    for &(value, spelling) in accepted {
        let mut rules = Rules::standard();
        rules.set_option(option, spelling).unwrap();
        assert_eq!(get(&rules), value, "{option}={spelling}");
        let text = format!("standard,{option}={spelling}");
        assert_eq!(text.parse::<Rules>(), Ok(rules), "{text}");
    }
    assert!(accepted.len() >= names.len());
}

#[test]
fn every_value_name_round_trips_through_the_rules_text() {
    check_option("rank_order", RankOrder::NAMES, RankOrder::ACCEPTED, |r| {
        r.rank_order
    });
    check_option("lion_jumps", Jumps::NAMES, Jumps::ACCEPTED, |r| {
        r.lion_jumps
    });
    check_option("tiger_jumps", Jumps::NAMES, Jumps::ACCEPTED, |r| {
        r.tiger_jumps
    });
    check_option("jump_block", JumpBlock::NAMES, JumpBlock::ACCEPTED, |r| {
        r.jump_block
    });
    check_option(
        "jump_block_area",
        JumpBlockArea::NAMES,
        JumpBlockArea::ACCEPTED,
        |r| r.jump_block_area,
    );
    check_option(
        "trapped_attacks",
        TrappedAttacks::NAMES,
        TrappedAttacks::ACCEPTED,
        |r| r.trapped_attacks,
    );
    check_option("repetition", Repetition::NAMES, Repetition::ACCEPTED, |r| {
        r.repetition
    });
}

#[test]
fn the_names_are_the_rules_text_spellings() {
    assert_eq!(
        Jumps::NAMES,
        [
            (Jumps::None, "none"),
            (Jumps::Both, "both"),
            (Jumps::HorizontalOnly, "horizontal"),
            (Jumps::VerticalOnly, "vertical"),
        ]
    );
    assert_eq!(Jumps::EXPECTED, "none, both, horizontal or vertical");
    assert_eq!(RankOrder::EXPECTED, "wolf_over_dog or dog_over_wolf");
    assert_eq!(JumpBlock::EXPECTED, "any_rat or enemy_rat");
    assert_eq!(TrappedAttacks::EXPECTED, "normal or none");
    assert_eq!(Repetition::EXPECTED, "off, draw or initiator_loses");
    // The rules text has always read these; they stay readable.
    assert_eq!("horizontal_only".parse(), Ok(Jumps::HorizontalOnly));
    assert_eq!("vertical_only".parse(), Ok(Jumps::VerticalOnly));
    // Rule options ignore case and blanks around the value, as before.
    let mut rules = Rules::standard();
    rules.set_option("tiger_jumps", " Horizontal ").unwrap();
    assert_eq!(rules.tiger_jumps, Jumps::HorizontalOnly);
    assert!(rules.set_option("tiger_jumps", "diagonal").is_err());
}

#[cfg(feature = "serde")]
mod through_serde {
    use super::*;

    fn check_serde<T>(names: &[(T, &'static str)])
    where
        T: Copy + PartialEq + Debug + ::serde::Serialize + ::serde::de::DeserializeOwned,
    {
        for &(value, name) in names {
            let json = serde_json::to_string(&value).unwrap();
            assert_eq!(json, format!("\"{name}\""));
            assert_eq!(serde_json::from_str::<T>(&json).unwrap(), value);
        }
    }

    #[test]
    fn every_value_name_round_trips_through_serde() {
        check_serde(RankOrder::NAMES);
        check_serde(Jumps::NAMES);
        check_serde(JumpBlock::NAMES);
        check_serde(Repetition::NAMES);
        assert!(serde_json::from_str::<Jumps>("\"diagonal\"").is_err());
        assert!(serde_json::from_str::<Jumps>("3").is_err());
    }

    #[test]
    fn the_old_serde_spellings_still_deserialize() {
        assert_eq!(
            serde_json::from_str::<Jumps>("\"horizontal_only\"").unwrap(),
            Jumps::HorizontalOnly
        );
        assert_eq!(
            serde_json::from_str::<Jumps>("\"vertical_only\"").unwrap(),
            Jumps::VerticalOnly
        );
        let mut json = serde_json::to_value(Rules::datou()).unwrap();
        assert_eq!(json["tiger_jumps"], "horizontal");
        json["tiger_jumps"] = "horizontal_only".into();
        json["lion_jumps"] = "vertical_only".into();
        let rules: Rules = serde_json::from_value(json).unwrap();
        assert_eq!(rules.tiger_jumps, Jumps::HorizontalOnly);
        assert_eq!(rules.lion_jumps, Jumps::VerticalOnly);
    }
}
