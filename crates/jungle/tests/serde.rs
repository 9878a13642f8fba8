//! serde round-trips (run with `--features serde`).
#![cfg(feature = "serde")]

mod common;

use common::*;
use qi_core::Position;
use qi_jungle::{Animal, Jumps, Move, Piece, Rules, Square};

#[test]
fn rules_round_trip() {
    let mut custom = Rules::traditional();
    custom.tiger_jumps = Jumps::VerticalOnly;
    custom.no_capture_draw = 0;
    for rules in presets().into_iter().map(|(_, r)| r).chain([custom]) {
        let json = serde_json::to_string(&rules).unwrap();
        let back: Rules = serde_json::from_str(&json).unwrap();
        assert_eq!(back, rules, "{json}");
    }
    let json = serde_json::to_value(Rules::traditional()).unwrap();
    assert_eq!(json["rank_order"], "dog_over_wolf");
    assert_eq!(json["repetition"], "initiator_loses");
    assert_eq!(json["jump_block"], "any_rat");
    assert_eq!(json["anti_chase"], true);
}

#[test]
fn the_old_repetition_name_is_refused_naming_the_new_one() {
    let json = serde_json::to_string(&Rules::traditional()).unwrap();
    for old in ["mover_loses", "mover-loses", "MoverLoses"] {
        let bad = json.replace("initiator_loses", old);
        let err = serde_json::from_str::<Rules>(&bad).unwrap_err().to_string();
        assert!(err.contains("initiator_loses"), "{err}");
    }
}

#[test]
fn move_round_trip() {
    for m in qi_jungle::Jungle::default().legal_moves() {
        let json = serde_json::to_string(&m).unwrap();
        assert_eq!(json, format!("\"{m}\""));
        let back: Move = serde_json::from_str(&json).unwrap();
        assert_eq!(back, m);
    }
    assert!(serde_json::from_str::<Move>("\"a3a3\"").is_err());
    assert!(serde_json::from_str::<Move>("\"z9a1\"").is_err());
    assert!(serde_json::from_str::<Move>("42").is_err());
}

#[test]
fn square_and_piece_round_trip() {
    for s in Square::all() {
        let back: Square = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        assert_eq!(back, s);
    }
    let p = Piece::new(qi_core::Side::Second, Animal::Leopard);
    let back: Piece = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
    assert_eq!(back, p);
}
