//! Null moves (passes) of the Jungle game layer under qi-search: the pass
//! and its undo, and null-move pruning agreeing with the full search on den
//! races and den threats.

use std::sync::atomic::AtomicBool;

use qi_core::{Bitboard, Evaluator, Game as _, Outcome, Position, Side, WinReason};
use qi_jungle::tables::{den_square, steps, DENS};
use qi_jungle::{Game, Jungle, Move, Rules};
use qi_search::{Limits, SearchHooks, Searcher};

fn game(jfen: &str) -> Game {
    Game::new(Jungle::from_text(jfen, Rules::standard()).unwrap())
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// Material (100 per animal) and closeness to the enemy den (10 per
/// step nearer), for the side to move: a crude stand-in for the
/// engine's evaluation. (Without the den-race terms, null-move pruning
/// misses the 7-ply den race below at depth 8: the defender's pass
/// looks safe at the reduced depth.)
struct Count;

fn side_score(pos: &Jungle, side: Side) -> i32 {
    let den = den_square(side.opponent());
    let (df, dr) = (i32::from(den.file()), i32::from(den.rank()));
    let mut score = 0;
    for (_, sq) in pos.pieces(side) {
        let (f, r) = (i32::from(sq.file()), i32::from(sq.rank()));
        score += 100 + 10 * (14 - (f - df).abs() - (r - dr).abs());
    }
    score
}

/// The squares next to `side`'s den.
fn den_zone(side: Side) -> Bitboard {
    steps(den_square(side))
}

impl Evaluator<Jungle> for Count {
    fn evaluate(&self, pos: &Jungle) -> i32 {
        let us = pos.side_to_move();
        let them = us.opponent();
        // Decided den races: we enter next move; they do unless we
        // take the intruder (quiescence tries that).
        if pos.occupancy(us).intersects(den_zone(them)) {
            return 5_000;
        }
        if pos.occupancy(them).intersects(den_zone(us)) {
            return -5_000;
        }
        side_score(pos, us) - side_score(pos, them)
    }
}

/// The null-move and "check" hooks the engine is meant to use.
struct PassHooks;

impl SearchHooks<Game> for PassHooks {
    fn is_tactical(&self, game: &Game, mv: Move) -> bool {
        let pos = game.position();
        let them = pos.side_to_move().opponent();
        pos.is_capture(mv) || (den_zone(them) | DENS[them.index()]).contains(mv.to.index())
    }

    fn make_null(&self, game: &mut Game) -> bool {
        let pos = game.position();
        if pos.animal_count(pos.side_to_move()) <= 2 {
            return false;
        }
        game.play_null();
        true
    }

    fn undo_null(&self, game: &mut Game) {
        game.undo_null();
    }

    fn in_check(&self, game: &Game) -> bool {
        let pos = game.position();
        let us = pos.side_to_move();
        pos.occupancy(us.opponent()).intersects(den_zone(us))
    }
}

#[test]
fn pass_flips_the_side_and_undo_restores_everything() {
    let mut g = Game::new(Jungle::default());
    for text in ["g3g4", "a7a6", "c3d3"] {
        g.play(mv(text)).unwrap();
    }
    let before = *g.position();
    let record = g.moves().to_vec();
    g.play_null();
    assert!(g.is_null());
    let passed = *g.position();
    assert_eq!(passed.side_to_move(), before.side_to_move().opponent());
    assert_ne!(passed.zobrist(), before.zobrist());
    assert_eq!(passed.zobrist(), passed.zobrist_from_scratch());
    assert_eq!(passed.occupied(), before.occupied());
    assert_eq!(passed.no_capture_plies(), before.no_capture_plies());
    assert_eq!(g.occurrences(), 1);
    assert_eq!(g.moves(), &record[..]);
    assert_eq!(g.outcome(), None);
    // The opponent moves from the passed position, and that undoes too.
    let reply = g.legal_moves()[0];
    g.play_unchecked(reply);
    assert_eq!(g.position().side_to_move(), before.side_to_move());
    qi_core::Game::undo(&mut g);
    g.undo_null();
    assert!(!g.is_null());
    assert_eq!(*g.position(), before);
    assert_eq!(g.position().zobrist(), before.zobrist());
    assert_eq!(g.moves(), &record[..]);
    // undo_null without a pass on top changes nothing.
    g.undo_null();
    assert_eq!(*g.position(), before);
    assert_eq!(g.ply(), 3);
}

#[test]
fn repetitions_are_still_counted_without_a_pass() {
    let mut g = Game::new(Jungle::default());
    for text in ["g3g4", "a7a6", "g4g3", "a6a7"] {
        g.play(mv(text)).unwrap();
    }
    assert_eq!(g.occurrences(), 2);
    g.play_null();
    assert_eq!(g.occurrences(), 1);
    g.undo_null();
    assert_eq!(g.occurrences(), 2);
}

#[test]
fn cheap_outcome_matches_the_position_outcome() {
    // No legal move for Red: its only animal, a Rat on a1, is walled in
    // by a Blue Cat and Dog it cannot take.
    let g = game("7/7/7/7/7/7/7/c6/Rd5 w 0 1");
    assert_eq!(g.outcome(), g.position().outcome());
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::Second, WinReason::NoLegalMove))
    );
    let g = Game::new(Jungle::default());
    assert_eq!(g.outcome(), None);
}

fn best(g: &mut Game, depth: u32, null_move: bool) -> (Option<Move>, qi_search::Score) {
    let options =
        <qi_engine::JungleKit as qi_engine::GameKit>::tuned_options().with_null_move(null_move);
    let mut searcher = Searcher::with_hooks(options, PassHooks);
    let r = searcher.search(
        g,
        &Count,
        Limits::depth(depth),
        &AtomicBool::new(false),
        |_| {},
    );
    (r.best_move, r.score)
}

#[test]
fn null_move_on_and_off_agree_on_den_races() {
    // Red's Lion walks into the den: d7-d8-d9 (3 plies), d5.. (7 plies).
    for (jfen, first, plies) in [
        ("7/7/3L3/7/d6/6c/6r/7/ED5 w 0 1", "d7d8", 3),
        ("7/7/7/7/d2L3/6c/6r/7/ED5 w 0 1", "d5d6", 7),
    ] {
        for null_move in [false, true] {
            let mut g = game(jfen);
            let (mv_found, score) = best(&mut g, plies + 1, null_move);
            assert_eq!(
                (mv_found, score),
                (Some(mv(first)), qi_search::Score::win_in(plies)),
                "{jfen} null {null_move}"
            );
            assert_eq!(score, qi_search::Score::win_in(plies), "{jfen}");
            assert_eq!(g.ply(), 0);
        }
    }
}

#[test]
fn a_den_threat_is_answered_with_null_moves_on() {
    // Blue's Lion on c1 enters the den next move unless the Dog takes it.
    let jfen = "r5c/7/7/7/7/6C/7/7/EDl4 w 0 1";
    assert!(PassHooks.in_check(&game(jfen)));
    assert!(!PassHooks.in_check(&Game::new(Jungle::default())));
    for null_move in [false, true] {
        for depth in [2, 4, 6] {
            let mut g = game(jfen);
            let (mv_found, score) = best(&mut g, depth, null_move);
            assert_eq!(mv_found, Some(mv("b1c1")), "depth {depth}");
            assert!(!score.is_mate() || score > qi_search::Score::DRAW);
        }
    }
}
