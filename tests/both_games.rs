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
            &K::Position::from_text(&text, game.position().rules().clone())?,
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

/// The same code, written once, for each game crate's own types: it
/// compiles only while both crates have the same shape (the same inherent
/// methods on `Game`, no trait import needed; rules taken by value or by
/// reference alike; `Setup` text both ways), and checks that `Debug`
/// reads like the text form.
macro_rules! same_shape {
    ($game:ident, $position:ident, $preset:literal, [$($mv:literal),+]) => {
        mod $game {
            use std::error::Error;

            use qi_games::$game::{Game, Move, Rules, Setup, $position};

            fn moves() -> Vec<Move> {
                [$($mv),+].iter().map(|m| m.parse().unwrap()).collect()
            }

            #[test]
            fn the_game_has_its_methods_without_a_trait_import() -> Result<(), Box<dyn Error>> {
                let rules = Rules::preset($preset)?;
                let start = $position::new(rules);
                let mut game = Game::new(start);
                for mv in moves() {
                    assert!(game.legal_moves().contains(&mv));
                    game.play(mv)?;
                }
                assert_eq!(game.rules(), &rules);
                assert_eq!(game.start(), &start);
                assert_eq!(game.moves(), &moves()[..]);
                assert_eq!(game.outcome(), None);
                assert_eq!(game.positions().count(), moves().len() + 1);
                assert_eq!(game.occurrences(), 1);
                assert_eq!(game.external_result(), None);
                // Equal to the same record replayed, and `Debug` is the record.
                let replayed = Game::from_moves(start, &moves())?;
                assert_eq!(game, replayed);
                let record: Vec<String> = moves().iter().map(|m| format!("Move({m})")).collect();
                assert_eq!(
                    format!("{game:?}"),
                    format!("Game {{ start: {start:?}, moves: [{}] }}", record.join(", "))
                );
                let last = game.undo();
                assert_eq!(last, moves().last().copied());
                assert_ne!(game, replayed);
                assert_eq!(Game::default(), Game::new($position::default()));
                Ok(())
            }

            #[test]
            fn debug_reads_like_the_text() -> Result<(), Box<dyn Error>> {
                let pos = $position::new(Rules::preset($preset)?);
                assert_eq!(format!("{pos:?}"), format!("{}({pos})", stringify!($position)));
                let setup = pos.to_setup();
                assert_eq!(format!("{setup:?}"), format!("Setup(\"{setup}\")"));
                for mv in moves() {
                    assert_eq!(format!("{mv:?}"), format!("Move({mv})"));
                }
                Ok(())
            }

            #[test]
            fn rules_are_taken_by_value_by_the_type_and_the_trait() -> Result<(), Box<dyn Error>> {
                let rules = Rules::preset($preset)?;
                let pos = $position::new(rules);
                assert_eq!(<$position as qi_games::prelude::Position>::new(rules), pos);
                let text = pos.to_string();
                assert_eq!($position::from_text(&text, rules)?, pos);
                assert_eq!(<$position as qi_games::prelude::Position>::from_text(&text, rules)?, pos);
                assert_eq!($position::from_text_lenient(&text, rules)?, pos);
                assert_eq!($position::from_setup(pos.to_setup(), rules)?, pos);
                assert_eq!($position::from_setup_lenient(pos.to_setup(), rules)?, pos);
                assert_eq!(pos.to_setup().into_position(rules)?, pos);
                assert_eq!(pos.to_setup().into_position_lenient(rules)?, pos);
                Ok(())
            }

            #[test]
            fn setups_and_rules_read_what_they_write() -> Result<(), Box<dyn Error>> {
                let mut game = Game::default();
                for mv in moves() {
                    game.play(mv)?;
                    let setup = game.position().to_setup();
                    assert_eq!(setup.to_string().parse::<Setup>()?, setup);
                }
                for name in Rules::PRESETS {
                    let rules = Rules::preset(name)?;
                    assert_eq!(rules.to_string().parse::<Rules>()?, rules);
                    let pos = $position::new(rules);
                    assert_eq!(pos.to_string().parse::<$position>()?, pos);
                }
                Ok(())
            }
        }
    };
}

same_shape!(jungle, Jungle, "datou", ["a3a4", "g7g6"]);
same_shape!(five_tigers, FiveTigers, "ten", ["c3", "b2"]);
