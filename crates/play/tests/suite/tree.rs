//! The game's tree of moves: a move from an earlier position starts a
//! variation, any node can be shown, a variation promoted or taken out,
//! and records keep the tree.

use qi_play::game::{load_record, new_game, GameError, WebGame};

fn play_all(game: &mut dyn WebGame, moves: &[&str]) {
    for mv in moves {
        game.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
}

fn line(moves: &[&str]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

/// The tree as (parent, move) pairs, in the view's order.
fn shape(game: &dyn WebGame) -> Vec<(Option<usize>, String)> {
    game.view(false)
        .tree
        .into_iter()
        .map(|n| (n.parent, n.mv))
        .collect()
}

#[test]
fn a_move_from_an_earlier_position_keeps_the_line() {
    let mut game = new_game("jungle", None).unwrap();
    play_all(&mut *game, &["a3a4", "g7g6", "c3d3"]);
    game.goto(1).unwrap();
    // The move the tree has is followed: nothing new.
    game.play("g7g6").unwrap();
    assert_eq!(shape(&*game).len(), 3);
    game.goto(1).unwrap();
    game.play("a7a6").unwrap();
    let view = game.view(false);
    assert_eq!(view.moves, ["a3a4", "a7a6"]);
    assert_eq!(view.ply, 2);
    assert_eq!(
        shape(&*game),
        [
            (None, "a3a4".to_string()),
            (Some(0), "g7g6".to_string()),
            (Some(1), "c3d3".to_string()),
            (Some(0), "a7a6".to_string()),
        ]
    );
    assert_eq!(view.node, Some(3));
    assert_eq!(
        view.tree
            .iter()
            .map(|n| n.mover.as_str())
            .collect::<Vec<_>>(),
        ["first", "second", "first", "second"]
    );
    // The main line is where it was.
    game.goto_line(&line(&["a3a4", "g7g6", "c3d3"])).unwrap();
    assert_eq!(game.view(false).ply, 3);
    game.goto(0).unwrap();
    assert_eq!(game.view(false).moves, ["a3a4", "g7g6", "c3d3"]);
    assert_eq!(game.view(false).node, None);
    // A line the tree does not have is refused, and nothing changes.
    let before = game.view(false);
    assert!(matches!(
        game.goto_line(&line(&["a3a4", "b7b6"])),
        Err(GameError::Move { .. })
    ));
    assert!(game.goto_line(&line(&["nonsense"])).is_err());
    assert_eq!(game.view(false), before);
}

#[test]
fn promote_and_take_out_a_variation() {
    let mut game = new_game("jungle", None).unwrap();
    play_all(&mut *game, &["a3a4", "g7g6", "c3d3"]);
    game.goto(1).unwrap();
    play_all(&mut *game, &["a7a6", "a4a5"]);
    game.promote();
    game.goto(0).unwrap();
    assert_eq!(game.view(false).moves, ["a3a4", "a7a6", "a4a5"]);
    // The old main line is a variation now; taking back its first move
    // takes it out with all after it.
    game.goto_line(&line(&["a3a4", "g7g6"])).unwrap();
    game.undo().unwrap();
    let view = game.view(false);
    assert_eq!(view.ply, 1);
    assert_eq!(view.moves, ["a3a4", "a7a6", "a4a5"]);
    assert_eq!(view.tree.len(), 3);
    assert!(game.goto_line(&line(&["a3a4", "g7g6"])).is_err());
}

#[test]
fn records_keep_the_tree() {
    let mut game = new_game("five-tigers:ten", None).unwrap();
    play_all(&mut *game, &["c3", "b2", "c4"]);
    game.goto(1).unwrap();
    play_all(&mut *game, &["d4", "a1"]);
    game.goto(0).unwrap();
    game.play("a5").unwrap();
    let record = game.record();
    assert!(record.contains("c3 (a5) b2 (d4 a1) c4 *"), "{record}");
    let loaded = load_record(&record).unwrap();
    assert_eq!(shape(&*loaded), shape(&*game));
    let view = loaded.view(false);
    assert_eq!(view.moves, ["c3", "b2", "c4"]);
    assert_eq!(view.ply, 3);
    assert_eq!(loaded.record(), record);
    // A variation's move is checked against the rules.
    let bad = record.replace("(d4 a1)", "(d4 d4)");
    let err = load_record(&bad).err().unwrap();
    assert!(
        matches!(&err, GameError::Record(m) if m.message.contains("'d4'")),
        "{err}"
    );
    // A record without variations loads as before.
    let plain = load_record("[Game \"jungle\"]\n\na3a4 g7g6 *\n").unwrap();
    assert_eq!(plain.view(false).tree.len(), 2);
    assert_eq!(plain.view(false).moves, ["a3a4", "g7g6"]);
}

#[test]
fn a_result_decided_outside_the_rules_stays_with_the_main_line() {
    let record = "[Game \"jungle\"]\n[Result \"0-1\"]\n\na3a4 (c3d3) g7g6 0-1\n";
    let mut game = load_record(record).unwrap();
    assert!(game.view(false).result.is_some());
    game.goto_line(&line(&["c3d3"])).unwrap();
    assert!(game.view(false).result.is_none());
    // A variation played on leaves the main line's result where it is.
    game.play("g7g6").unwrap();
    assert!(game.record().contains("0-1"));
    game.goto_line(&line(&["a3a4", "g7g6"])).unwrap();
    assert!(game.view(false).result.is_some());
    // Taken back, the move that ended it takes the result with it.
    game.undo().unwrap();
    assert!(game.view(false).result.is_none());
    game.play("g7g6").unwrap();
    assert!(game.view(false).result.is_none());
    game.goto_line(&line(&["c3d3"])).unwrap();
    assert_eq!(game.record(), game.record_of("qi serve"));
    assert!(game.record().contains("a3a4 (c3d3 g7g6) g7g6 *"));
}

#[test]
fn variations_nest_no_deeper_than_a_record_holds() {
    let mut game = new_game("jungle", None).unwrap();
    // At each position a main move, then another move there: a variation
    // one level deeper than the last, until the tree refuses one.
    let mut refused = None;
    for depth in 0..200usize {
        let view = game.view(false);
        assert!(view.result.is_none(), "the game ended at depth {depth}");
        let legal = view.legal;
        game.play(&legal[depth * 7 % legal.len()]).unwrap();
        game.goto(view.ply).unwrap();
        if let Err(e) = game.play(&legal[(depth * 7 + 1) % legal.len()]) {
            refused = Some((depth, e));
            break;
        }
    }
    let (depth, e) = refused.expect("a limit");
    assert_eq!(depth, 64);
    assert!(
        e.to_string().contains("variations nest at most 64 deep"),
        "{e}"
    );
    // As deep as the tree allows, the record reads back.
    let loaded = load_record(&game.record()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(shape(&*loaded), shape(&*game));
}

#[test]
fn a_preview_draws_a_line_without_playing_it() {
    let mut game = new_game("jungle", None).unwrap();
    game.play("a3a4").unwrap();
    let before = game.view(false);
    let svg = game.preview(&line(&["g7g6", "a4a5"]), false).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    assert_ne!(svg, before.svg);
    assert_eq!(game.view(false), before);
    assert!(game
        .preview(&line(&["g7g6", "g6g5", "a9a1"]), false)
        .is_err());
    assert_eq!(game.preview(&[], false).unwrap(), before.svg);
}
