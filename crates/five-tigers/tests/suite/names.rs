//! Each value of a rule option has one name, declared once and used by the
//! rules text (`Display`, `FromStr`) and by serde.

use std::fmt::{Debug, Display};
use std::str::FromStr;

use qi_five_tigers::{PlacementCapture, Rules, Shuttle};

/// Checks one option: every value's name round-trips through the value's
/// `Display`/`FromStr` and through the whole rules text.
fn check_option<T>(option: &str, names: &[(T, &'static str)], set: impl Fn(&mut Rules, T))
where
    T: Copy + PartialEq + Debug + Display + FromStr,
    T::Err: Debug,
{
    for &(value, name) in names {
        assert_eq!(value.to_string(), name);
        assert_eq!(name.parse::<T>().unwrap(), value);
        // Not a preset, so that the text lists the options that differ.
        let mut rules = Rules {
            pieces_per_side: 12,
            ..Rules::shandong()
        };
        set(&mut rules, value);
        let text = rules.to_string();
        let mut shandong = Rules::shandong();
        set(&mut shandong, value);
        if shandong != Rules::shandong() {
            assert!(text.contains(&format!(",{option}={name}")), "{text}");
        }
        assert_eq!(text.parse::<Rules>(), Ok(rules), "{text}");
        let written = format!("five-tigers:shandong,pieces_per_side=12,{option}={name}");
        assert_eq!(written.parse::<Rules>(), Ok(rules), "{written}");
    }
}

#[test]
fn every_value_name_round_trips_through_the_rules_text() {
    check_option("placement_capture", PlacementCapture::NAMES, |r, v| {
        r.placement_capture = v
    });
    check_option("shuttle", Shuttle::NAMES, |r, v| r.shuttle = v);
    assert_eq!(PlacementCapture::ACCEPTED, PlacementCapture::NAMES);
    assert_eq!(Shuttle::ACCEPTED, Shuttle::NAMES);
}

#[test]
fn the_names_are_the_rules_text_spellings() {
    assert_eq!(
        PlacementCapture::NAMES,
        [
            (PlacementCapture::Immediate, "immediate"),
            (PlacementCapture::Deferred, "deferred"),
        ]
    );
    assert_eq!(
        Shuttle::NAMES,
        [
            (Shuttle::Allowed, "allowed"),
            (Shuttle::Forbidden, "forbidden")
        ]
    );
    assert_eq!(PlacementCapture::EXPECTED, "immediate or deferred");
    assert_eq!(Shuttle::EXPECTED, "allowed or forbidden");
    assert!("shandong,shuttle=sometimes".parse::<Rules>().is_err());
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
        check_serde(PlacementCapture::NAMES);
        check_serde(Shuttle::NAMES);
        assert!(serde_json::from_str::<Shuttle>("\"sometimes\"").is_err());
    }

    // The serde spelling (snake_case of the variant) was already the rules
    // text's for these options; rules serialized before still read back.
    #[test]
    fn the_old_serde_spellings_still_deserialize() {
        let old = r#"{"pieces_per_side":13,"placement_capture":"deferred","four_diagonal_value":4,"five_tigers_value":5,"shuttle":"forbidden","no_capture_draw":100}"#;
        assert_eq!(
            serde_json::from_str::<Rules>(old).unwrap(),
            Rules::deferred()
        );
        assert_eq!(serde_json::to_string(&Rules::deferred()).unwrap(), old);
    }
}
