//! Un-moves (`Jungle::quiet_unmoves`, `Jungle::unplay_quiet`) against
//! playing forwards and against the reference implementation in
//! `common`: on every position of random games, under every preset and
//! random custom rule sets, from the start and from sparse endings,
//!
//! - every quiet legal move is found again as an un-move of the position
//!   it leads to, and taking it back restores the board and its hash;
//! - every un-move is exactly a move that the reference board allows in
//!   the position taken back, found by putting each animal of the side
//!   that just moved on every empty square of the board (no table of
//!   where moves come from).

use crate::common;

use common::*;
use qi_core::testkit::{walk, Rng};
use qi_core::{MoveList, Position};
use qi_jungle::{Jungle, Move, Rules, Square};

/// The un-moves as sorted text.
fn unmove_texts(pos: &Jungle) -> Vec<String> {
    let mut out = MoveList::new();
    pos.quiet_unmoves(&mut out);
    let mut text: Vec<String> = out.iter().map(Move::to_string).collect();
    text.sort();
    text
}

/// The un-moves found by brute force: each animal of the side that just
/// moved put on each empty square, the position so made kept when the
/// reference board has the move back (it has none in a finished game).
fn brute_force_unmoves(pos: &Jungle) -> Vec<String> {
    let mover = pos.side_to_move().opponent();
    let setup = pos.to_setup().side_to_move(mover);
    let mut found = Vec::new();
    for (animal, to) in pos.pieces(mover) {
        let piece = pos.piece_at(to).unwrap();
        assert_eq!(piece.animal, animal);
        for from in Square::all().filter(|&s| pos.piece_at(s).is_none()) {
            let before = setup.set(to, None).set(from, Some(piece));
            let Ok(before) = before.into_position_lenient(*pos.rules()) else {
                continue; // an animal where it may not stand
            };
            let text = format!("{from}{to}");
            if RefBoard::from_jungle(&before).legal_moves().contains(&text) {
                found.push(text);
            }
        }
    }
    found.sort();
    found
}

/// Checks `pos` both ways; returns how many un-moves it has.
fn check(pos: &Jungle) -> usize {
    // Forwards: each quiet move comes back.
    for mv in pos.legal_moves() {
        if pos.is_capture(mv) {
            continue;
        }
        let mut child = *pos;
        child.play_unchecked(mv);
        assert!(
            unmove_texts(&child).contains(&mv.to_string()),
            "{mv} from {pos} is not an un-move of {child} under {}",
            pos.rules()
        );
        let back = child.unplay_quiet(mv).expect("taken back");
        assert!(back.same_board(pos), "{mv} taken back from {child}: {back}");
        assert_eq!(back.zobrist(), back.zobrist_from_scratch());
        assert_eq!(back.zobrist(), pos.zobrist());
    }
    // Backwards: exactly the moves that lead here.
    let unmoves = unmove_texts(pos);
    assert_eq!(
        unmoves,
        brute_force_unmoves(pos),
        "un-moves of {pos} under {}",
        pos.rules()
    );
    for text in &unmoves {
        let mv: Move = text.parse().unwrap();
        let mut before = pos.unplay_quiet(mv).unwrap();
        assert!(!before.is_capture(mv));
        assert_eq!(before.zobrist(), before.zobrist_from_scratch());
        before.play(mv).unwrap();
        assert!(before.same_board(pos));
    }
    unmoves.len()
}

/// Sparse endings: few animals, Rats in and beside the water, Lions and
/// Tigers by the rivers, animals on traps and next to a den.
const ENDINGS: [&str; 5] = [
    "6l/7/7/1r5/7/L6/7/7/6E w 0 1",
    "2t4/7/7/2R4/3l3/4r2/T6/3E3/7 b 0 1",
    "2l4/3E3/7/7/r5L/7/1T5/2t4/7 w 0 1",
    "7/7/7/1R3r1/7/3T3/7/3e3/2C1w2 b 0 1",
    "4e2/2P4/7/7/l6/5R1/7/2D1t2/7 w 0 1",
];

#[test]
fn unmoves_match_forward_play_and_the_reference_under_every_preset() {
    for (i, (_, rules)) in presets().into_iter().enumerate() {
        let mut total = 0;
        let visited = walk(&Jungle::new(rules), 8, 150, 71 + i as u64, |pos| {
            total += check(pos);
        });
        for (k, text) in ENDINGS.into_iter().enumerate() {
            let start = pos(text, rules);
            walk(&start, 6, 60, 300 + k as u64, |pos| {
                total += check(pos);
            });
        }
        assert!(visited > 600, "too few positions: {visited}");
        assert!(total > 3_000, "too few un-moves: {total}");
    }
}

#[test]
fn unmoves_match_the_reference_under_random_rules() {
    let mut rng = Rng::new(2026);
    for i in 0..24 {
        let rules: Rules = random_rules(&mut rng);
        for (k, text) in ENDINGS.into_iter().enumerate() {
            let start = pos_lenient(text, rules);
            walk(&start, 2, 60, 900 + 10 * i + k as u64, |pos| {
                check(pos);
            });
        }
    }
}

#[test]
fn unplay_quiet_refuses_what_cannot_have_been_played() {
    let rules = Rules::standard();
    // Red: Lion d5, Elephant d2. Blue: Lion g9, Rat b4. Blue to move.
    let after = pos("6l/7/7/7/3L3/1r5/7/3E3/7 b 0 1", rules);
    let refused = |m: &str| after.unplay_quiet(m.parse().unwrap()).is_none();
    assert!(!refused("d4d5"));
    assert!(!refused("a5d5")); // a jump over b5 and c5
    assert!(!refused("c2d2"));
    assert!(refused("c5d5")); // the Lion out of the water
    assert!(refused("d1d2")); // out of Red's own den
    assert!(refused("b5b4")); // Blue did not just move
    assert!(refused("d3d5")); // no such move
    assert!(refused("d2d5")); // d2 is not empty
    assert!(refused("c1d1")); // nothing on d1

    // With Blue's Rat on c5 the jump is blocked.
    let blocked = pos("6l/7/7/7/2rL3/7/7/3E3/7 b 0 1", rules);
    assert!(blocked.unplay_quiet("a5d5".parse().unwrap()).is_none());
    assert!(blocked.unplay_quiet("g5d5".parse().unwrap()).is_some());
}

#[test]
fn nothing_comes_back_from_a_finished_game() {
    // Red's Elephant stands in Blue's den (d9): only its own entry can
    // have been the last move; the Lion's moves would follow a game
    // already over.
    let over = pos_lenient("3E3/7/7/7/7/7/3L3/7/6l b 0 1", Rules::standard());
    assert_eq!(unmove_texts(&over), ["c9d9", "d8d9", "e9d9"]);
}
