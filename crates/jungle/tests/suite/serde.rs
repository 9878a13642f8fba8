//! serde round-trips (run with `--features serde`).
#![cfg(feature = "serde")]

use crate::common;

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

#[test]
fn positions_round_trip_with_their_rules() {
    for (name, rules) in presets() {
        let mut pos = qi_jungle::Jungle::new(rules);
        for text in ["a3a4", "g7g6", "a4a5"] {
            pos.play(text.parse().unwrap()).unwrap();
        }
        let json = serde_json::to_value(pos).unwrap();
        assert_eq!(json["position"], pos.to_string(), "{name}");
        let back: qi_jungle::Jungle = serde_json::from_value(json).unwrap();
        assert_eq!(back, pos, "{name}");
        assert_eq!(back.rules(), pos.rules(), "{name}");
    }
    let bad = serde_json::json!({"rules": Rules::standard(), "position": "not a position"});
    assert!(serde_json::from_value::<qi_jungle::Jungle>(bad).is_err());
}

#[test]
fn games_round_trip_as_their_record() {
    use qi_core::{ExternalResult, Game as _, Side};
    use qi_jungle::Game;
    let mut game = Game::new(qi_jungle::Jungle::new(Rules::traditional()));
    for text in ["a3a4", "g7g6", "a4a5", "g6g5"] {
        game.play(text.parse().unwrap()).unwrap();
    }
    game.record(ExternalResult::Resignation(Side::First));
    let json = serde_json::to_value(&game).unwrap();
    assert_eq!(
        json["moves"],
        serde_json::json!(["a3a4", "g7g6", "a4a5", "g6g5"])
    );
    let back: Game = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back.moves(), game.moves());
    assert_eq!(back.position(), game.position());
    assert_eq!(back.outcome(), game.outcome());
    assert_eq!(back.start().rules(), &Rules::traditional());
    // A record that breaks the rules is refused, naming the move.
    let mut bad = json;
    bad["moves"] = serde_json::json!(["a3a4", "a4a5"]);
    let err = serde_json::from_value::<Game>(bad).unwrap_err().to_string();
    assert!(err.contains("a4a5"), "{err}");
}
