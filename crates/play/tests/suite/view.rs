//! The view fields the page reads besides the board: who played each
//! move and the formation just formed.

use qi_play::game::new_game;

#[test]
fn jungle_movers_alternate() {
    let mut game = new_game("jungle", None).unwrap();
    for mv in ["a3a4", "g7g6", "c3d3"] {
        game.play(mv).unwrap();
    }
    let view = game.view(false);
    assert_eq!(view.movers, ["first", "second", "first"]);
    assert!(view.formed.is_empty());
    // The whole line's movers, even when an earlier position is shown.
    game.goto(1).unwrap();
    assert_eq!(game.view(false).movers.len(), 3);
}

#[test]
fn five_tigers_square_is_outlined_through_its_removal() {
    let mut game = new_game("five-tigers:shandong", None).unwrap();
    for mv in ["b2", "a5", "b3", "c4", "c2", "e5", "c3"] {
        game.play(mv).unwrap();
    }
    let view = game.view(false);
    assert_eq!(view.formed, ["b2", "c2", "b3", "c3"]);
    assert!(view.removal.is_some(), "{}", view.status);
    game.play("xc4").unwrap();
    let view = game.view(false);
    // X placed, O placed, ..., then X placed again and removed.
    assert_eq!(
        view.movers,
        ["first", "second", "first", "second", "first", "second", "first", "first"]
    );
    assert_eq!(
        view.formed,
        ["b2", "c2", "b3", "c3"],
        "still shown while the removals follow it"
    );
    let next = view.legal[0].clone();
    game.play(&next).unwrap();
    assert!(
        game.view(false).formed.is_empty(),
        "O's placement formed nothing"
    );
    // Back at the ply of the square: outlined again.
    game.goto(7).unwrap();
    assert_eq!(game.view(false).formed, ["b2", "c2", "b3", "c3"]);
}
