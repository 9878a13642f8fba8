//! A game's search on the calling thread (`WebGame::search_here`), its
//! options, perft and board: what the browser build relies on.

use qi_play::game::{new_game, GameError};
use qi_play::svg::{render_game, Marks, RenderOptions};
use qi_search::Limits;

#[test]
fn a_search_here_reports_each_iteration_and_returns_a_legal_move() {
    for spec in ["jungle", "five-tigers:ten"] {
        let mut game = new_game(spec, None).unwrap();
        let mut depths = Vec::new();
        let done = game.search_here(Limits::depth(4), &mut || false, &mut |info| {
            depths.push(info.depth);
            false
        });
        assert_eq!(depths, [1, 2, 3, 4], "{spec}");
        let best = done.best.unwrap();
        assert!(game.view(false).legal.contains(&best), "{spec}: {best}");
        assert_eq!(done.info.unwrap().pv[0], best);
        assert!(!done.stopped);
    }
}

#[test]
fn a_search_here_stops_when_report_or_poll_says_so() {
    let mut game = new_game("jungle", None).unwrap();
    let done = game.search_here(Limits::depth(60), &mut || false, &mut |info| {
        info.depth >= 2
    });
    assert!(done.stopped);
    let depth = done.info.unwrap().depth;
    assert!((2..10).contains(&depth), "{depth}");
    assert!(done.best.is_some());

    let mut polls = 0;
    let done = game.search_here(
        Limits::depth(60),
        &mut || {
            polls += 1;
            polls == 2
        },
        &mut |_| false,
    );
    assert!(done.stopped);
    assert_eq!(polls, 2, "no poll once stopped");
    assert!(done.info.map_or(0, |i| i.depth) < 60);
}

#[test]
fn options_are_set_by_the_engine_names_and_bad_ones_change_nothing() {
    let mut game = new_game("five-tigers", None).unwrap();
    let before = game.options();
    assert_eq!(
        (before.threads, before.hash_mib),
        (1, qi_play::game::HASH_MIB)
    );
    for (name, value) in [
        ("Bogus", "1"),
        ("LMR", "maybe"),
        ("Threads", "2"),
        ("Hash", "2048"),
    ] {
        assert!(
            matches!(game.set_option(name, value), Err(GameError::Option(_))),
            "{name}={value}"
        );
        assert_eq!(game.options(), before, "{name}={value}");
    }
    game.set_option("lmr", "false").unwrap();
    game.set_option("Hash", "1").unwrap();
    let after = game.options();
    assert!(!after.lmr);
    assert_eq!(after.hash_mib, 1);
    // A search after the change uses them (its tree differs from the
    // tuned one's).
    let mut tuned = new_game("five-tigers", None).unwrap();
    let a = tuned.search_here(Limits::depth(6), &mut || false, &mut |_| false);
    let b = game.search_here(Limits::depth(6), &mut || false, &mut |_| false);
    assert_ne!(a.nodes, b.nodes);
}

#[test]
fn perft_and_board_of_the_shown_position() {
    let mut game = new_game("jungle", None).unwrap();
    assert_eq!(game.perft(3), 12_240);
    game.play("a3a4").unwrap();
    game.play("g7g6").unwrap();
    game.goto(1).unwrap();
    assert_eq!(game.perft(1), 24);
    let options = RenderOptions {
        flip: true,
        ..RenderOptions::default()
    };
    let drawn = game.render(&options).unwrap();
    assert_eq!(
        drawn,
        render_game("jungle", None, &["a3a4"], &options).unwrap()
    );
    let bad = RenderOptions {
        marks: Marks {
            selected: Some("z9".to_string()),
            ..Marks::default()
        },
        ..RenderOptions::default()
    };
    assert!(matches!(game.render(&bad), Err(GameError::Render(_))));
}

#[test]
fn multipv_gives_several_lines_and_a_level_chooses_among_them() {
    let mut game = new_game("jungle", None).unwrap();
    game.set_option("MultiPV", "3").unwrap();
    let mut reported = Vec::new();
    let done = game.search_here(Limits::depth(4), &mut || false, &mut |info| {
        reported.push((info.depth, info.multipv));
        false
    });
    assert_eq!(done.lines.len(), 3);
    assert_eq!(done.lines[0].pv[0], done.best.clone().unwrap());
    let roots: std::collections::HashSet<_> = done.lines.iter().map(|l| &l.pv[0]).collect();
    assert_eq!(roots.len(), 3, "three different root moves");
    assert!(reported.contains(&(4, Some(3))));
    // The iteration's report is the best line's.
    assert_eq!(done.info.unwrap().multipv, Some(1));

    // The weakest level, with a fixed seed, plays a legal move and the
    // same one each time.
    let choose = || {
        let mut game = new_game("jungle", None).unwrap();
        game.set_option("Level", "1").unwrap();
        game.set_option("Seed", "7").unwrap();
        game.search_here(Limits::depth(6), &mut || false, &mut |_| false)
    };
    let (a, b) = (choose(), choose());
    assert_eq!(a.best, b.best);
    let legal = new_game("jungle", None).unwrap().view(false).legal;
    assert!(legal.contains(&a.best.unwrap()));
    assert!(a.lines.len() > 1, "a weaker level searches several lines");
    assert!(matches!(
        game.set_option("Level", "11"),
        Err(GameError::Option(_))
    ));
}

#[test]
fn the_eval_profile_option_switches_to_the_network_where_the_game_has_one() {
    let mut hand = new_game("jungle", None).unwrap();
    let mut nnue = new_game("jungle", None).unwrap();
    nnue.set_option("EvalProfile", "nnue").unwrap();
    let a = hand.search_here(Limits::depth(5), &mut || false, &mut |_| false);
    let b = nnue.search_here(Limits::depth(5), &mut || false, &mut |_| false);
    // Another evaluation, another tree.
    assert_ne!(a.nodes, b.nodes);
    // Back to the default: the hand-written evaluation's tree again.
    nnue.set_option("evalprofile", "default").unwrap();
    let c = nnue.search_here(Limits::depth(5), &mut || false, &mut |_| false);
    assert_eq!(a.nodes, c.nodes);
    let mut tigers = new_game("five-tigers", None).unwrap();
    let refused = tigers.set_option("EvalProfile", "nnue");
    assert!(
        matches!(&refused, Err(GameError::Option(m)) if m.contains("five-tigers has no evaluation profile 'nnue'")),
        "{refused:?}"
    );
    assert!(matches!(
        hand.set_option("EvalProfile", "clever"),
        Err(GameError::Option(_))
    ));
}
