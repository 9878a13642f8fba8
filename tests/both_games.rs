//! Both games played by the same generic code, with nothing imported but
//! `qi_games::prelude::*`: rules by name, a search per move, moves played
//! and taken back, the position's text read back, perft; every error goes
//! through `?` into `Box<dyn Error>`.

use std::error::Error;

use qi_games::prelude::*;

/// Plays `plies` moves of `K`'s default rules, each the engine's choice at
/// depth 2, checking what the traits promise along the way; returns the
/// moves played.
fn play<K: GameKit>(plies: usize) -> Result<Vec<String>, Box<dyn Error>> {
    let rules = K::parse_rules(K::NAME)?;
    let mut game = K::Game::new(K::Position::new(rules));
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let best = K::think(&game, Limits::depth(2))
            .best_move
            .ok_or("no move in a game that is not over")?;
        assert!(game.legal_moves().contains(&best));
        let before = game.position().clone();
        game.play(best)?;
        // Taken back and played again: the same positions.
        assert_eq!(game.undo(), Some(best));
        assert_eq!(game.position(), &before);
        game.play(best)?;
        // The text names the position whole, under the rules it states.
        let text = game.position().to_string();
        assert_eq!(
            &K::Position::from_text(&text, game.position().rules())?,
            game.position()
        );
    }
    // Perft counts from where the game stands.
    let moves: Vec<String> = game.moves().iter().map(ToString::to_string).collect();
    let legal = game.legal_moves().len() as u64;
    assert_eq!(perft(game.position(), 1), legal);
    Ok(moves)
}

#[test]
fn the_same_code_plays_both_games() -> Result<(), Box<dyn Error>> {
    let jungle = play::<JungleKit>(8)?;
    let tigers = play::<FiveTigersKit>(8)?;
    assert_eq!((jungle.len(), tigers.len()), (8, 8));
    // Deterministic: the same search plays the same moves again.
    assert_eq!(play::<JungleKit>(8)?, jungle);
    Ok(())
}

#[test]
fn the_prelude_names_both_positions_and_sides() {
    assert_eq!(Jungle::default().side_to_move(), Side::First);
    assert_eq!(FiveTigers::default().side_to_move(), Side::First);
    assert_eq!(perft(&Jungle::default(), 2), 576);
    assert_eq!(perft(&FiveTigers::default(), 2), 600);
}
