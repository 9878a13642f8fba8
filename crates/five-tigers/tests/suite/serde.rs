//! serde round-trips (run with `--features serde`).
#![cfg(feature = "serde")]

use crate::common;

use common::{presets, random_line};
use qi_five_tigers::{
    FiveTigers, FormationKind, Move, Phase, PlacementCapture, Point, Rules, Shuttle,
};

#[test]
fn points_and_moves_serialize_as_their_text() {
    let p: Point = "c3".parse().unwrap();
    assert_eq!(serde_json::to_string(&p).unwrap(), "\"c3\"");
    assert_eq!(serde_json::from_str::<Point>("\"c3\"").unwrap(), p);
    assert!(serde_json::from_str::<Point>("\"z9\"").is_err());
    for text in ["c3", "c3-c4", "xb2"] {
        let m: Move = text.parse().unwrap();
        let json = serde_json::to_string(&m).unwrap();
        assert_eq!(json, format!("\"{text}\""));
        assert_eq!(serde_json::from_str::<Move>(&json).unwrap(), m);
    }
    assert!(serde_json::from_str::<Move>("\"a1-c1\"").is_err());
}

#[test]
fn rules_round_trip_and_are_validated() {
    for (_, rules) in presets() {
        let json = serde_json::to_string(&rules).unwrap();
        assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), rules);
    }
    let json = serde_json::to_string(&Rules::deferred()).unwrap();
    assert!(
        json.contains("\"placement_capture\":\"deferred\""),
        "{json}"
    );
    let bad = json.replace("\"five_tigers_value\":5", "\"five_tigers_value\":9");
    assert!(serde_json::from_str::<Rules>(&bad).is_err());
    assert_eq!(
        serde_json::to_string(&Shuttle::Allowed).unwrap(),
        "\"allowed\""
    );
    assert_eq!(
        serde_json::from_str::<PlacementCapture>("\"immediate\"").unwrap(),
        PlacementCapture::Immediate
    );
    assert_eq!(
        serde_json::to_string(&FormationKind::ThroughHeaven).unwrap(),
        "\"through_heaven\""
    );
    assert_eq!(
        serde_json::to_string(&Phase::Movement).unwrap(),
        "\"movement\""
    );
}

#[test]
fn positions_round_trip() {
    for (_, rules) in presets() {
        for seed in 0..10 {
            let (pos, _) = random_line(rules, seed, 40);
            let json = serde_json::to_string(&pos).unwrap();
            assert_eq!(serde_json::from_str::<FiveTigers>(&json).unwrap(), pos);
        }
    }
    let bad = r#"{"rules":{"pieces_per_side":13,"placement_capture":"immediate","four_diagonal_value":3,"five_tigers_value":4,"shuttle":"forbidden","no_capture_draw":100},"position":"5/5/5/5/5 q place X:13,O:13 - x -,- 0"}"#;
    let err = serde_json::from_str::<FiveTigers>(bad).unwrap_err();
    assert!(err.to_string().contains("to-move"), "{err}");
}

#[test]
fn games_round_trip_as_their_record() {
    use qi_five_tigers::{FiveTigers, Game, Rules};
    let mut game = Game::new(FiveTigers::new(Rules::ten()));
    for text in ["c3", "a1", "c4", "b1"] {
        game.play(text.parse().unwrap()).unwrap();
    }
    let json = serde_json::to_value(&game).unwrap();
    assert_eq!(json["moves"], serde_json::json!(["c3", "a1", "c4", "b1"]));
    let back: Game = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back.moves(), game.moves());
    assert_eq!(back.position(), game.position());
    assert_eq!(back.start().rules(), &Rules::ten());
    let mut bad = json;
    bad["moves"] = serde_json::json!(["c3", "c3"]);
    let err = serde_json::from_value::<Game>(bad).unwrap_err().to_string();
    assert!(err.contains("c3"), "{err}");
}
