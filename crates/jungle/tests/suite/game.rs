//! The game layer: no-capture draw, repetition, anti-chase rules, recorded
//! results, play/undo (spec section 5, rules 4–7), played as move sequences.

use crate::common;

use common::*;
use qi_core::testkit::Rng;
use qi_core::{
    DrawReason, ExternalResult, Game as _, MoveList, Outcome, Position, Side, WinReason,
};
use qi_jungle::{AntiChaseRule, Game, Jungle, Move, Repetition, Rules};

fn play_all(game: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        game.play(mv(m))
            .unwrap_or_else(|e| panic!("{m} refused at {}: {e}", game.position()));
    }
}

fn game_texts(game: &Game) -> Vec<String> {
    let mut v: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn no_repetition(mut rules: Rules) -> Rules {
    rules.repetition = Repetition::Off;
    rules
}

// ---------- rule 4: no-capture draw ----------

#[test]
fn no_capture_draw_after_200_plies() {
    let rules = no_repetition(Rules::standard());
    let mut game = Game::new(Jungle::new(rules));
    for i in 0..50 {
        play_all(&mut game, "g1g2 a9a8 g2g1");
        assert_eq!(game.outcome(), None, "cycle {i}");
        if i == 49 {
            assert_eq!(game.position().no_capture_plies(), 199);
        }
        play_all(&mut game, "a8a9");
    }
    assert_eq!(game.ply(), 200);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::NoCapture)));
    assert!(game.legal_moves().is_empty());
    assert!(game.play(mv("g1g2")).is_err());
    // the board alone says nothing: this is a game-record rule
    assert_eq!(game.position().outcome(), None);
    // undo reopens the game
    assert_eq!(game.undo(), Some(mv("a8a9")));
    assert_eq!(game.outcome(), None);
}

#[test]
fn having_no_move_comes_before_the_no_capture_draw() {
    // Red's Rat on a1 is walled in by a Blue Cat and Dog it cannot take,
    // with the no-capture counter at the limit: Red loses, no draw.
    let game = Game::new(pos("7/7/7/7/7/7/7/c6/Rd5 w 200 101", Rules::standard()));
    let lost = Some(Outcome::win(Side::Second, WinReason::NoLegalMove));
    assert_eq!(game.outcome(), lost);
    let mut moves = MoveList::new();
    assert_eq!(game.outcome_and_moves(&mut moves), lost);
    assert!(moves.is_empty());
    // With a way out, the draw.
    let game = Game::new(pos("7/7/7/7/7/7/7/c6/R1d4 w 200 101", Rules::standard()));
    let drawn = Some(Outcome::Draw(DrawReason::NoCapture));
    assert_eq!(game.outcome(), drawn);
    assert_eq!(game.outcome_and_moves(&mut moves), drawn);
    assert!(moves.is_empty());
}

#[test]
fn no_capture_draw_counts_from_the_jfen_counter() {
    let start = pos(
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 199 101",
        Rules::standard(),
    );
    let mut game = Game::new(start);
    assert_eq!(game.outcome(), None);
    play_all(&mut game, "a3a4");
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::NoCapture)));
}

#[test]
fn capture_resets_the_no_capture_count() {
    let start = board("Da2 ca3 eg9", 'w', Rules::standard());
    let start = start
        .with_text(&start.to_string().replace(" w 0 1", " w 199 101"))
        .unwrap();
    let mut game = Game::new(start);
    play_all(&mut game, "a2a3");
    assert_eq!(game.position().no_capture_plies(), 0);
    assert_eq!(game.outcome(), None);
}

#[test]
fn no_capture_limit_is_an_option() {
    let mut rules = no_repetition(Rules::standard());
    rules.no_capture_draw = 6;
    let mut game = Game::new(Jungle::new(rules));
    play_all(&mut game, "g1g2 a9a8 g2g1 a8a9 g1g2");
    assert_eq!(game.outcome(), None);
    play_all(&mut game, "a9a8");
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::NoCapture)));

    rules.no_capture_draw = 0; // never
    let mut game = Game::new(Jungle::new(rules));
    for _ in 0..150 {
        play_all(&mut game, "g1g2 a9a8 g2g1 a8a9");
    }
    assert_eq!(game.outcome(), None);
}

// ---------- rule 5: repetition ----------

#[test]
fn repetition_draw() {
    let mut game = Game::new(Jungle::new(Rules::standard()));
    play_all(&mut game, "g1g2 a9a8 g2g1 a8a9");
    assert_eq!(game.occurrences(), 2);
    assert_eq!(game.outcome(), None);
    play_all(&mut game, "g1g2 a9a8 g2g1");
    assert_eq!(game.outcome(), None);
    play_all(&mut game, "a8a9");
    assert_eq!(game.occurrences(), 3);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
    assert!(game.legal_moves().is_empty());
}

/// The position: the Red Lion on b9 chases the lone Blue Cat on
/// a8 (the Red Elephant on g1 only gives Red other moves).
const CHASE: &str = "1L5/c6/7/7/7/7/7/7/6E w 0 1";
#[test]
fn repetition_initiator_loses_on_the_chase() {
    let start = pos(CHASE, Rules::traditional());
    let mut game = Game::new(start);
    play_all(&mut game, "b9b8 a8a9 b8b9 a9a8 b9b8 a8a9 b8b9");
    // The chased Cat's only move completes the third occurrence: legal,
    // and not a loss (the old rule made Blue lose here).
    assert_eq!(game_texts(&game), ["a9a8"]);
    play_all(&mut game, "a9a8");
    assert_eq!(game.occurrences(), 3);
    assert_eq!(game.outcome(), None);
    let replies = game_texts(&game);
    assert!(replies.contains(&"b9b8".to_string()), "{replies:?}");
    // Red began the cycle: repeating it loses, varying is fine.
    for reply in &replies {
        game.play(mv(reply)).unwrap();
        let expected = (reply == "b9b8").then(|| Outcome::win(Side::Second, WinReason::Repetition));
        assert_eq!(game.outcome(), expected, "after {reply}");
        game.undo();
    }
}

#[test]
fn repetition_initiator_loses_from_the_start_position() {
    // The contract's worked example on the start position: Blue's 8th ply
    // brings the start back a third time and is fine; Red's g1g2 repeats.
    let mut game = Game::new(Jungle::new(Rules::traditional()));
    play_all(&mut game, "g1g2 a9a8 g2g1 a8a9 g1g2 a9a8 g2g1 a8a9");
    assert_eq!(game.occurrences(), 3);
    assert_eq!(game.outcome(), None);
    play_all(&mut game, "a3a4");
    assert_eq!(game.outcome(), None);
    game.undo();
    play_all(&mut game, "g1g2");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Side::Second, WinReason::Repetition))
    );
    assert!(game.legal_moves().is_empty());
}

/// The repetition rule read literally from the record: the number of
/// times each position (board and side to move) stood up to then.
fn naive_initiator_lost(game: &Game) -> bool {
    let keys: Vec<String> = game
        .positions()
        .map(|p| {
            let text = p.to_string();
            let mut fields = text.split(' ');
            format!("{} {}", fields.next().unwrap(), fields.next().unwrap())
        })
        .collect();
    let occurrences = |i: usize| keys[..=i].iter().filter(|k| **k == keys[i]).count();
    let now = keys.len() - 1;
    now >= 1 && occurrences(now) >= 3 && occurrences(now - 1) >= 3
}

#[test]
fn repetition_initiator_loses_matches_a_naive_count() {
    // Random games in small positions, where cycles are frequent.
    let mut rng = Rng::new(10);
    let mut losses = 0;
    for (k, jfen) in [
        CHASE,
        "1L5/c6/7/7/7/7/7/7/4t1E w 0 1",
        "7/7/7/3l3/7/3L3/7/7/7 w 0 1",
    ]
    .into_iter()
    .cycle()
    .take(60)
    .enumerate()
    {
        let mut rules = Rules::traditional();
        rules.anti_chase = k % 2 == 0;
        let mut game = Game::new(pos(jfen, rules));
        for _ in 0..150 {
            let naive = naive_initiator_lost(&game);
            let board_decides =
                game.position().outcome().is_some() || game.position().legal_moves().is_empty();
            let repetition_loss = Some(Outcome::win(
                game.position().side_to_move(),
                WinReason::Repetition,
            ));
            assert_eq!(
                game.outcome() == repetition_loss,
                naive && !board_decides,
                "at {} after {:?}",
                game.position(),
                game.moves()
            );
            losses += usize::from(naive && !board_decides);
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer moving back and forth, so positions recur.
            let pick = if rng.below(3) > 0 {
                moves.len() - 1
            } else {
                rng.below(moves.len())
            };
            game.play(moves[pick]).unwrap();
        }
    }
    assert!(losses > 5, "too few repetition losses seen: {losses}");
}

#[test]
fn search_scores_the_initiator_rule_like_the_game() {
    use qi_search::{Limits, SearchOptions, Searcher};
    use std::sync::atomic::AtomicBool;
    struct Zero;
    impl qi_core::Evaluator<Jungle> for Zero {
        fn evaluate(&self, _: &Jungle) -> i32 {
            0
        }
    }
    let search = |game: &mut Game, depth: u32| {
        let mut searcher = Searcher::new(SearchOptions::default());
        let stop = AtomicBool::new(false);
        searcher.search(game, &Zero, Limits::depth(depth), &stop, |_| {})
    };
    let mut game = Game::new(pos(CHASE, Rules::traditional()));
    play_all(&mut game, "b9b8 a8a9 b8b9 a9a8 b9b8 a8a9 b8b9");
    // Blue's forced a9a8 does not lose (it did under the old rule).
    for depth in 1..=4 {
        let r = search(&mut game, depth);
        assert_eq!(r.best_move, Some(mv("a9a8")));
        // (Red's Lion reaches the den in 3 more plies: a mate in 4 is
        // right, a loss in 1 was the old rule.)
        assert_ne!(r.score, qi_search::Score::loss_in(1), "Blue depth {depth}");
        assert!(
            depth == 4 || !r.score.is_mate(),
            "Blue depth {depth}: {:?}",
            r.score
        );
    }
    play_all(&mut game, "a9a8");
    // Red must vary: b9b8 would lose at once.
    for depth in 1..=6 {
        let r = search(&mut game, depth);
        assert_ne!(r.best_move, Some(mv("b9b8")), "Red depth {depth}");
        assert!(
            !r.score.is_mate() || r.score > qi_search::Score::DRAW,
            "Red depth {depth}: {:?}",
            r.score
        );
        assert_eq!(game.ply(), 8);
    }
    // After b9b8 the search sees the game over, won by Blue.
    play_all(&mut game, "b9b8");
    let r = search(&mut game, 3);
    assert_eq!(r.best_move, None);
    assert_eq!(r.score, qi_search::Score::win_in(0));
}

#[test]
fn repetition_off() {
    let mut game = Game::new(Jungle::new(Rules::datou()));
    play_all(&mut game, "g1g2 a9a8 g2g1 a8a9 g1g2 a9a8 g2g1 a8a9");
    assert_eq!(game.outcome(), None);
    assert!(!game.legal_moves().is_empty());
    let rules = no_repetition(Rules::standard());
    let mut game = Game::new(Jungle::new(rules));
    for _ in 0..10 {
        play_all(&mut game, "g1g2 a9a8 g2g1 a8a9");
    }
    assert_eq!(game.outcome(), None);
}

#[test]
fn repetition_needs_the_same_side_to_move() {
    // The Red Lion goes a3 b3 b7 (jump) a7 a6 a5 a4 a3: back in 7 moves,
    // while Blue's Rat goes g9 g8 g9 … in 6: the start board comes back
    // with Blue to move, which is not an occurrence of the start position.
    let start = board("La3 rg9 Eg1", 'w', Rules::standard());
    let lion = ["a3b3", "b3b7", "b7a7", "a7a6", "a6a5", "a5a4", "a4a3"];
    let rat = ["g9g8", "g8g9"];
    let mut game = Game::new(start);
    for (k, m) in lion.iter().enumerate() {
        play_all(&mut game, m);
        if k < 6 {
            play_all(&mut game, rat[k % 2]);
        }
    }
    let board_field = |p: &Jungle| p.to_string().split(' ').next().unwrap().to_string();
    assert_eq!(board_field(game.position()), board_field(&start));
    assert_eq!(game.position().side_to_move(), Side::Second);
    assert_eq!(game.occurrences(), 1);
    play_all(&mut game, "g9g8 g1g2 g8g9 g2g1");
    // the same board a third time, but only twice with Blue to move
    assert_eq!(game.occurrences(), 2);
    assert_eq!(game.outcome(), None);
    play_all(&mut game, "g9g8 g1g2 g8g9 g2g1");
    assert_eq!(game.occurrences(), 3);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}

// ---------- rule 6: anti-chase ----------

const CHASE_7_3: &str = "g1g2 a9a8 g2g1 a8a7 g1g2 a7a6 g2g1 a6a5 g1g2 a5a4 g2g1 a4a3";

#[test]
fn anti_chase_7_3() {
    // The Red Lion has entered g2 three times in its side's last 6 moves.
    let mut game = Game::new(board("Lg1 ea9", 'w', Rules::yeshou()));
    play_all(&mut game, CHASE_7_3);
    assert_eq!(game_texts(&game), ["g1f1"]);
    assert_eq!(
        game.anti_chase_violation(mv("g1g2")),
        Some(AntiChaseRule::SevenThree)
    );
    let err = game.play(mv("g1g2")).unwrap_err();
    assert!(err.to_string().contains("7-3"), "{err}");
    // the board allows it, and without anti-chase the game does too
    assert!(game.position().legal_moves().contains(&mv("g1g2")));
    let mut plain = Game::new(board("Lg1 ea9", 'w', Rules::standard()));
    play_all(&mut plain, CHASE_7_3);
    assert!(plain.legal_moves().contains(&mv("g1g2")));
    // two entries are not enough: one move earlier g2g1 was allowed
    game.undo();
    game.undo();
    assert!(game.legal_moves().contains(&mv("g2g1")));
}

#[test]
fn anti_chase_7_3_in_datou_and_traditional() {
    for rules in [Rules::datou(), Rules::traditional()] {
        let mut game = Game::new(board("Lg1 ea9", 'w', rules));
        play_all(&mut game, CHASE_7_3);
        assert_eq!(game_texts(&game), ["g1f1"]);
    }
}

#[test]
fn anti_chase_7_3_exempt_when_attacked() {
    // Same Lion shuffle, but Blue's Elephant walks to f1 and attacks it:
    // the chased animal is exempt.
    let mut game = Game::new(board("Lg1 ea2", 'w', Rules::yeshou()));
    play_all(
        &mut game,
        "g1g2 a2b2 g2g1 b2c2 g1g2 c2d2 g2g1 d2e2 g1g2 e2f2 g2g1 f2f1",
    );
    assert_eq!(game_texts(&game), ["g1g2"]);
    assert_eq!(game.anti_chase_violation(mv("g1g2")), None);
}

/// The game: the Blue Dog shuttles on a1 b1 b2 a2 until the 17-5
/// rule locks those squares, while the Red Cat enters b3 three times.
const LOCKED_DOG: &str = "7/7/7/7/7/7/C6/7/d5E w 0 1";
const LOCKED_DOG_MOVES: &str = "g1g2 a1b1 g2f2 b1b2 f2f1 b2a2 f1g1 a2a1 g1g2 a1b1 g2f2 b1b2 \
    f2f1 b2a2 f1g1 a2a1 g1g2 a1b1 g2f2 b1b2 a3b3 b2a2 b3a3 a2a1 a3b3 a1b1 b3a3 b1b2 \
    a3b3 b2a2 b3b2 a2a1 f2f1 a1b1";

#[test]
fn anti_chase_7_3_exemption_counts_only_playable_captures() {
    let mut game = Game::new(pos(LOCKED_DOG, Rules::yeshou()));
    play_all(&mut game, LOCKED_DOG_MOVES);
    // The Dog on b1 attacks the Cat on b2 on the board, but 17-5 forbids
    // it b2: the Cat is not chased, so 7-3 keeps it off b3.
    let b2: qi_jungle::Square = "b2".parse().unwrap();
    assert!(game
        .position()
        .attacked_by(Side::Second)
        .contains(b2.index()));
    let mut blue_to_move = game.clone();
    blue_to_move.play_null();
    assert_eq!(
        blue_to_move.anti_chase_violation(mv("b1b2")),
        Some(AntiChaseRule::SeventeenFive)
    );
    let moves = game_texts(&game);
    assert!(!moves.contains(&"b2b3".to_string()), "{moves:?}");
    assert_eq!(moves, naive_game_moves(&game));
    assert_eq!(
        game.anti_chase_violation(mv("b2b3")),
        Some(AntiChaseRule::SevenThree)
    );
    assert!(game.play(mv("b2b3")).is_err());
}

#[test]
fn anti_chase_matches_a_naive_reading_of_the_record() {
    let mut rng = Rng::new(17);
    let (mut filtered, mut checked) = (0, 0);
    let starts = [
        LOCKED_DOG,
        "7/7/7/7/7/7/C6/7/d5E b 0 1",
        "1L5/c6/7/7/7/7/7/7/6E w 0 1",
        "7/7/3l3/7/7/7/3Dc2/3W3/7 w 0 1",
        "7/3t3/7/7/7/7/7/1C1p3/6E w 0 1",
    ];
    for k in 0..150 {
        let rules = if k % 3 == 2 {
            let mut r = Rules::traditional();
            r.repetition = Repetition::Off;
            r
        } else {
            Rules::yeshou()
        };
        let mut game = Game::new(pos(starts[k % starts.len()], rules));
        if k % 10 == 0 {
            // Go on from the game, where the exemption matters.
            play_all(&mut game, LOCKED_DOG_MOVES);
        }
        for _ in 0..120 {
            let board = move_texts(game.position());
            let naive = naive_game_moves(&game);
            let moves = game_texts(&game);
            if game.outcome().is_none() {
                assert_eq!(
                    moves,
                    naive,
                    "at {} after {:?}",
                    game.position(),
                    game.moves()
                );
            } else {
                assert!(moves.is_empty());
                if game.outcome()
                    == Some(Outcome::win(
                        game.position().side_to_move().opponent(),
                        WinReason::NoLegalMove,
                    ))
                {
                    assert!(naive.is_empty(), "{naive:?} at {}", game.position());
                }
                break;
            }
            checked += 1;
            filtered += usize::from(naive.len() < board.len());
            let list = game.legal_moves();
            // Mostly the first move found: animals shuttle, so the rules bite.
            let pick = if rng.below(4) > 0 {
                0
            } else {
                rng.below(list.len())
            };
            game.play(list[pick]).unwrap();
        }
    }
    assert!(checked > 5_000, "{checked}");
    assert!(
        filtered > 200,
        "too few positions where the rules bite: {filtered}"
    );
}

#[test]
fn anti_chase_7_3_exempt_after_trap() {
    // The Lion shuffles between f1 and Red's trap e1: it entered a trap
    // within the window, so the rule does not apply.
    let mut game = Game::new(board("Lf1 ea9", 'w', Rules::yeshou()));
    play_all(
        &mut game,
        "f1e1 a9a8 e1f1 a8a7 f1e1 a7a6 e1f1 a6a5 f1e1 a5a4 e1f1 a4a3",
    );
    assert!(game.legal_moves().contains(&mv("f1e1")));
    play_all(&mut game, "f1e1");
}

#[test]
fn anti_chase_7_3_forbids_captures_too() {
    // A Blue Cat walks onto g2; the Lion has entered g2 three times in its
    // last 6 moves, so even capturing the Cat there is forbidden (the Cat
    // does not attack the Lion, so there is no exemption).
    let mut game = Game::new(board("Lg1 cg8", 'w', Rules::yeshou()));
    play_all(
        &mut game,
        "g1g2 g8g7 g2g1 g7g6 g1g2 g6g5 g2g1 g5g4 g1g2 g4g3 g2g1 g3g2",
    );
    assert!(game.position().is_capture(mv("g1g2")));
    assert!(game.position().legal_moves().contains(&mv("g1g2")));
    assert_eq!(game_texts(&game), ["g1f1"]);
}

#[test]
fn anti_chase_trap_entry_of_another_animal_does_not_exempt() {
    // Red's Cat enters Red's trap e1 inside the window; the Lion is still
    // bound by the 7-3 rule.
    let mut game = Game::new(board("Lg1 Cf1 ea9", 'w', Rules::yeshou()));
    play_all(
        &mut game,
        "g1g2 a9a8 g2g1 a8a7 g1g2 a7a6 f1e1 a6a5 g2g1 a5a4 g1g2 a4a3 g2g1 a3a2",
    );
    assert!(!game.legal_moves().contains(&mv("g1g2")));
    assert_eq!(
        game.anti_chase_violation(mv("g1g2")),
        Some(AntiChaseRule::SevenThree)
    );
}

#[test]
fn anti_chase_7_3_counts_only_the_last_7_moves() {
    // g2 entered at own moves 1, 3 and 9: only two of them fall in the last 7.
    let mut game = Game::new(board("Lg1 ea9", 'w', Rules::yeshou()));
    play_all(
        &mut game,
        "g1g2 a9a8 g2g1 a8a7 g1g2 a7a6 g2g3 a6a5 g3g4 a5a4 g4g5 a4a3 g5g4 a3a2 g4g3 a2b2 g3g2 b2c2 g2g1 c2c3",
    );
    assert!(game.legal_moves().contains(&mv("g1g2")));
}

#[test]
fn only_forbidden_moves_loses() {
    // Red's Rat and Dog are boxed in; its Lion may only go back to g2,
    // which the 7-3 rule forbids: Red has no legal move and loses.
    let start = board("Lg1 Rf1 De1 cf2 pe2 ea9", 'w', Rules::yeshou());
    let mut game = Game::new(start);
    play_all(&mut game, CHASE_7_3);
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.position().outcome(), None);
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Side::Second, WinReason::NoLegalMove))
    );
    let mut moves = MoveList::new();
    assert_eq!(game.outcome_and_moves(&mut moves), game.outcome());
    assert!(moves.is_empty());
    assert!(game.play(mv("g1g2")).is_err());
}

/// Red's Lion cycles g1 g2 f2 f1 (4 squares); Blue's Elephant cycles six
/// squares a8 a7 b7 c7 c8 b8, so only Red meets the 17-5 rule.
fn cycle_17_5(
    red_cycle: [&str; 4],
    red_start: &str,
    blue_piece: char,
    rules: Rules,
    extra: &str,
) -> Game {
    let blue_cycle = ["a7", "b7", "c7", "c8", "b8", "a8"];
    let start = board(&format!("L{red_start} {blue_piece}a8 {extra}"), 'w', rules);
    let mut game = Game::new(start);
    let mut red_at = red_start.to_string();
    let mut blue_at = "a8".to_string();
    for k in 0..17 {
        let r = red_cycle[k % 4];
        let b = blue_cycle[k % 6];
        play_all(&mut game, &format!("{red_at}{r} {blue_at}{b}"));
        red_at = r.to_string();
        blue_at = b.to_string();
    }
    game
}

#[test]
fn anti_chase_17_5() {
    let game = cycle_17_5(["g2", "f2", "f1", "g1"], "g1", 'e', Rules::yeshou(), "");
    assert_eq!(game.ply(), 34);
    // the Lion is on g2 and may not re-enter g1 or f2
    assert_eq!(game_texts(&game), ["g2g3"]);
    assert_eq!(
        game.anti_chase_violation(mv("g2f2")),
        Some(AntiChaseRule::SeventeenFive)
    );
    let mut g = game.clone();
    let err = g.play(mv("g2g1")).unwrap_err();
    assert!(err.to_string().contains("17-5"), "{err}");
    // not before the 17th move: one cycle earlier everything was allowed
    let mut earlier = game.clone();
    earlier.undo();
    earlier.undo();
    assert!(earlier.legal_moves().contains(&mv("g1g2")));
    // and not without anti-chase
    let plain = cycle_17_5(
        ["g2", "f2", "f1", "g1"],
        "g1",
        'e',
        no_repetition(Rules::standard()),
        "",
    );
    assert_eq!(game_texts(&plain), ["g2f2", "g2g1", "g2g3"]);
}

#[test]
fn anti_chase_17_5_needs_a_single_animal() {
    // Red's Cat moves once in the window: no 17-5 restriction.
    let mut game = Game::new(board("Lg1 Ca1 ea8", 'w', Rules::yeshou()));
    play_all(&mut game, "a1a2 a8a7");
    let blue_cycle = ["b7", "c7", "c8", "b8", "a8", "a7"];
    let red_cycle = ["g2", "f2", "f1", "g1"];
    let (mut r_at, mut b_at) = ("g1".to_string(), "a7".to_string());
    for k in 0..16 {
        let (r, b) = (red_cycle[k % 4], blue_cycle[k % 6]);
        play_all(&mut game, &format!("{r_at}{r} {b_at}{b}"));
        r_at = r.to_string();
        b_at = b.to_string();
    }
    assert_eq!(r_at, "g1");
    assert!(game.legal_moves().contains(&mv("g1g2")));
    assert!(game.legal_moves().contains(&mv("g1f1")));
}

#[test]
fn anti_chase_17_5_exempt_after_trap() {
    // The Lion's cycle e1 e2 f2 f1 includes Red's trap e1.
    let game = cycle_17_5(["e1", "e2", "f2", "f1"], "f1", 'e', Rules::yeshou(), "");
    assert_eq!(game_texts(&game), ["e1e2", "e1f1"]);
}

#[test]
fn anti_chase_17_5_applies_even_when_attacked() {
    // A Blue Elephant on g3 attacks the Lion on g2; the 17-5 rule has no
    // "chased animal" exemption, so only the Red Cat may move.
    let game = cycle_17_5(
        ["g2", "f2", "f1", "g1"],
        "g1",
        'r',
        Rules::yeshou(),
        "eg3 Ca1",
    );
    assert!(game
        .position()
        .attacked_by(Side::Second)
        .contains("g2".parse::<qi_jungle::Square>().unwrap().index()));
    assert_eq!(game_texts(&game), ["a1a2", "a1b1"]);
}

// ---------- rule 7 and the Game API ----------

#[test]
fn external_results_are_recorded() {
    let mut game = Game::new(Jungle::default());
    play_all(&mut game, "a3a4");
    game.record(ExternalResult::Resignation(Side::Second));
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Side::First, WinReason::Resignation))
    );
    assert!(game.legal_moves().is_empty());
    assert!(game.play(mv("g7g6")).is_err());
    game.record(ExternalResult::AgreedDraw);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Agreed)));
    // undo clears the result and takes back a move
    assert_eq!(game.undo(), Some(mv("a3a4")));
    assert_eq!(game.outcome(), None);
    assert_eq!(game.external_result(), None);
    game.record(ExternalResult::TimeLoss(Side::First));
    assert_eq!(game.undo(), None);
    assert_eq!(game.outcome(), None);
}

#[test]
fn from_moves_checks_every_move() {
    let game = Game::from_moves(Jungle::default(), &[mv("a3a4"), mv("g7g6")]).unwrap();
    assert_eq!(game.moves(), &[mv("a3a4"), mv("g7g6")]);
    assert_eq!(game.ply(), 2);
    assert_eq!(game.start(), &Jungle::default());
    let err = Game::from_moves(Jungle::default(), &[mv("a3a4"), mv("a4a5")]).unwrap_err();
    assert_eq!(err.mv, "a4a5");
}

#[test]
fn board_outcome_ends_the_game() {
    let mut game = Game::new(board("Dd8 ra9 eg9", 'w', Rules::traditional()));
    play_all(&mut game, "d8d9");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Side::First, qi_jungle::DEN_ENTERED))
    );
    assert!(game.legal_moves().is_empty());
}

#[test]
fn play_undo_restores_position_and_hash() {
    for (name, rules) in presets() {
        let mut rng = Rng::new(7);
        for _ in 0..10 {
            let mut game = Game::new(Jungle::new(rules));
            let mut history = vec![(*game.position(), game.occurrences())];
            for _ in 0..150 {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // try every move and take it back
                for &m in &moves {
                    let before = *game.position();
                    game.play_unchecked(m);
                    assert_eq!(game.undo(), Some(m));
                    assert_eq!(game.position(), &before, "{name}");
                    assert_eq!(game.position().zobrist(), before.zobrist());
                }
                game.play(moves[rng.below(moves.len())]).unwrap();
                assert_eq!(
                    game.position().zobrist(),
                    game.position().zobrist_from_scratch()
                );
                history.push((*game.position(), game.occurrences()));
            }
            while let Some((pos, occurrences)) = history.pop() {
                assert_eq!(game.position(), &pos);
                assert_eq!(game.occurrences(), occurrences);
                if history.is_empty() {
                    assert_eq!(game.undo(), None);
                } else {
                    assert!(game.undo().is_some());
                }
            }
        }
    }
}

#[test]
fn game_moves_are_a_subset_of_board_moves() {
    for (name, rules) in presets() {
        let mut rng = Rng::new(3);
        for _ in 0..20 {
            let mut game = Game::new(Jungle::new(rules));
            for _ in 0..300 {
                let moves = game.legal_moves();
                let board_moves = game.position().legal_moves();
                for m in &moves {
                    assert!(board_moves.contains(m), "{name}");
                }
                // every refused board move is refused by play too
                for m in &board_moves {
                    if !moves.contains(m) {
                        let mut g = game.clone();
                        assert!(g.play(*m).is_err());
                        assert_eq!(g.position(), game.position());
                    }
                }
                if moves.is_empty() {
                    assert!(game.outcome().is_some(), "{name}: no moves and no outcome");
                    break;
                }
                assert_eq!(game.outcome(), None);
                game.play(moves[rng.below(moves.len())]).unwrap();
            }
        }
    }
}

fn game_perft(game: &mut Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for m in game.legal_moves() {
        game.play_unchecked(m);
        nodes += game_perft(game, depth - 1);
        assert_eq!(game.undo(), Some(m));
    }
    nodes
}

#[test]
fn game_perft_equals_board_perft_while_history_cannot_bite() {
    // Within 4 plies of the start no history rule can apply (a repetition
    // needs 8 plies, the 7-3 rule 5 own moves), so the game layer's tree is
    // the board's tree; playing and undoing through it leaves no trace.
    for (name, rules) in presets() {
        let mut game = Game::new(Jungle::new(rules));
        assert_eq!(game_perft(&mut game, 4), 260099, "{name}");
        assert_eq!(game.ply(), 0);
        assert_eq!(game.position(), &Jungle::new(rules));
    }
}

#[test]
fn game_perft_sees_the_anti_chase_rules() {
    // After the 7-3 shuffle, Red's g1g2 is gone from the game tree but not
    // from the board tree.
    let mut game = Game::new(board("Lg1 ea9", 'w', Rules::yeshou()));
    play_all(&mut game, CHASE_7_3);
    let board_count = qi_search::perft(game.position(), 1);
    assert_eq!(board_count, 2);
    assert_eq!(game_perft(&mut game, 1), 1);
}

/// The move that takes back the side to move's own last move, when it has
/// one: playouts that favour it shuffle, and so meet the repetition and
/// anti-chase rules.
fn own_move_back(game: &Game) -> Option<Move> {
    let moves = game.moves();
    let last = moves.len().checked_sub(2).map(|i| moves[i])?;
    let text = last.to_string();
    Some(mv(&format!("{}{}", &text[2..], &text[..2])))
}

#[test]
fn outcome_and_moves_agrees_with_outcome_and_legal_moves() {
    // A move already in the list must be left alone: the call appends.
    let sentinel = mv("a1a2");
    for (name, rules) in presets() {
        let mut rng = Rng::new(11);
        let (mut positions, mut filtered, mut ended) = (0, 0, 0);
        for _ in 0..60 {
            let mut game = Game::new(Jungle::new(rules));
            for _ in 0..400 {
                let outcome = game.outcome();
                let mut list = MoveList::new();
                list.push(sentinel);
                assert_eq!(game.outcome_and_moves(&mut list), outcome, "{name}");
                assert_eq!(list[0], sentinel);
                let moves = &list[1..];
                assert_eq!(moves, &game.legal_moves()[..], "{name}");
                // The same moves found another way: the board's, less those
                // the anti-chase rules refuse.
                let expected: Vec<Move> = if outcome.is_some() {
                    Vec::new()
                } else {
                    let board = game.position().legal_moves();
                    if board
                        .iter()
                        .any(|&m| game.anti_chase_violation(m).is_some())
                    {
                        filtered += 1;
                    }
                    board
                        .into_iter()
                        .filter(|&m| game.anti_chase_violation(m).is_none())
                        .collect()
                };
                assert_eq!(moves, &expected[..], "{name} at {}", game.position());
                positions += 1;
                if outcome.is_some() {
                    ended += 1;
                    break;
                }
                let back = own_move_back(&game).filter(|m| moves.contains(m));
                let pick = match back {
                    Some(m) if rng.below(3) == 0 => m,
                    _ => moves[rng.below(moves.len())],
                };
                game.play(pick).unwrap();
            }
        }
        assert!(
            positions > 3000 && ended > 20,
            "{name}: {positions} {ended}"
        );
        if rules.anti_chase {
            assert!(filtered > 20, "{name}: {filtered} positions filtered");
        }
    }
}
