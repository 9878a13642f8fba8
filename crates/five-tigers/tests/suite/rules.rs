//! One test per rule statement of the rules contract (sections 1–9).

use crate::common;

use common::{after, mv, pos, sketch};
use qi_core::{Bitboard32, Position, Side, WinReason};
use qi_five_tigers::{
    loose_pieces, FiveTigers, Move, Owed, Phase, PlacementCapture, Point, Rules, Shuttle,
};

fn pt(text: &str) -> Point {
    text.parse().unwrap()
}

fn set(points: &str) -> Bitboard32 {
    points.split_whitespace().map(|p| pt(p).index()).collect()
}

fn owed(entries: &[(Side, u8)]) -> Owed {
    Owed::from_entries(entries).unwrap()
}

/// A full board on which neither side holds any formation: First's 13
/// points and Second's 12, interleaved as placements.
const NO_FORMATION_PLACEMENTS: &str =
    "a5 c5 b5 d5 a4 e5 d4 b4 e4 c4 a3 d3 b3 e3 c3 a2 b2 c2 d2 b1 e2 c1 a1 e1 d1";

// ---- Section 1: board and pieces ----

#[test]
fn points_are_indexed_rank_times_five_plus_file() {
    assert_eq!(pt("a1").index(), 0);
    assert_eq!(pt("e1").index(), 4);
    assert_eq!(pt("a2").index(), 5);
    assert_eq!(pt("e5").index(), 24);
    assert_eq!(pt("c3").index(), 12);
}

#[test]
fn steps_go_to_orthogonally_adjacent_points_only() {
    let p = pos("5/5/2X2/5/O4 o move X:0,O:0 - o -,- 0", Rules::shandong());
    let mut moves: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    moves.sort();
    assert_eq!(moves, ["a1-a2", "a1-b1"]);
    let x = sketch("5/5/2X2/5/O4 x move X:0,O:0 - x -,- 0", Rules::shandong());
    assert_eq!(x.count_moves(), 4);
    let diagonal = Move::Step {
        from: pt("c3"),
        to: pt("d4"),
    };
    let mut copy = x;
    assert!(copy.play(diagonal).is_err());
    assert!("c3-d4".parse::<Move>().is_err());
}

#[test]
fn each_side_starts_with_pieces_per_side_in_hand_and_first_places_first() {
    for (rules, n) in [(Rules::shandong(), 13), (Rules::ten(), 10)] {
        let start = FiveTigers::new(rules);
        assert_eq!(start.hand(Side::First), n);
        assert_eq!(start.hand(Side::Second), n);
        assert_eq!(start.side_to_move(), Side::First);
        assert_eq!(start.phase(), Phase::Placement);
        assert!(start.pieces(Side::First).is_empty() && start.pieces(Side::Second).is_empty());
    }
}

// ---- Section 2: formations ----

#[test]
fn a_formation_is_formed_only_by_the_piece_that_completes_it() {
    // X already holds the square a1-b2; stepping another piece earns nothing.
    let p = sketch(
        "5/4X/5/XX3/XX2O x move X:0,O:0 - x -,- 0",
        Rules::shandong(),
    );
    let mut q = p;
    q.play(mv("e4-e3")).unwrap();
    assert!(q.owed().is_empty());
    assert_eq!(q.side_to_move(), Side::Second);
    // Stepping out of the square and back in (shuttle allowed) re-forms it.
    let p = sketch(
        "5/4O/5/XX3/XX3 x move X:0,O:0 - x -,- 0",
        Rules::shandong_shuttle(),
    );
    let q = {
        let mut q = p;
        q.play(mv("b2-c2")).unwrap();
        assert!(q.owed().is_empty());
        q.play(mv("e4-e3")).unwrap();
        q.play(mv("c2-b2")).unwrap();
        q
    };
    assert_eq!(q.owed(), owed(&[(Side::First, 1)]));
}

#[test]
fn a_piece_is_loose_when_in_no_formation_its_side_holds() {
    let x = set("a1 b1 a2 b2 e5 c3");
    assert_eq!(loose_pieces(x), set("e5 c3"));
    let p = sketch(
        "4X/5/2X2/XX3/XX2O x move X:0,O:0 - x -,- 0",
        Rules::shandong(),
    );
    assert_eq!(p.loose(Side::First), set("e5 c3"));
    assert_eq!(p.held(Side::First), set("a1 b1 a2 b2"));
}

// ---- Section 3: placement ----

#[test]
fn sides_alternate_placing_first_beginning() {
    let mut p = FiveTigers::new(Rules::shandong());
    for (i, m) in ["c3", "a1", "e5", "b1"].into_iter().enumerate() {
        let expected = if i % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        assert_eq!(p.side_to_move(), expected);
        p.play(mv(m)).unwrap();
    }
    assert_eq!(p.pieces(Side::First), set("c3 e5"));
    assert_eq!(p.pieces(Side::Second), set("a1 b1"));
    assert_eq!(p.hand(Side::First), 11);
}

#[test]
fn placement_is_on_an_empty_point_only() {
    let mut p = after(Rules::shandong(), "c3");
    let before = p;
    assert!(p.play(mv("c3")).is_err());
    assert_eq!(p, before);
    assert_eq!(p.count_moves(), 24);
}

#[test]
fn a_side_whose_hand_is_empty_is_skipped() {
    let rules = Rules::shandong();
    let mut p = sketch("5/5/5/5/XO3 o place X:0,O:3 - o -,- 0", rules);
    p.play(mv("c1")).unwrap();
    assert_eq!(p.side_to_move(), Side::Second);
    assert_eq!(p.next(), Side::Second);
    p.play(mv("e5")).unwrap();
    assert_eq!(p.side_to_move(), Side::Second);
    p.play(mv("a5")).unwrap();
    // Both hands empty: placement is over, movement begins with Second.
    assert_eq!(p.phase(), Phase::Movement);
    assert_eq!(p.side_to_move(), Side::Second);
}

#[test]
fn placement_ends_when_both_hands_are_empty() {
    let rules = Rules::ten();
    let p = after(
        rules,
        "a5 c5 b5 d5 a4 e5 d4 b4 e4 c4 a3 d3 b3 e3 c3 a2 b2 c2 d2 b1",
    );
    assert_eq!(p.phase(), Phase::Movement);
    assert_eq!((p.hand(Side::First), p.hand(Side::Second)), (0, 0));
    assert_eq!(p.empty().count(), 5);
    // The board is not full: no opening removals.
    assert!(p.owed().is_empty());
    assert_eq!(p.side_to_move(), Side::Second);
}

#[test]
fn with_13_pieces_seconds_last_piece_is_never_placed() {
    let p = after(Rules::shandong(), NO_FORMATION_PLACEMENTS);
    assert_eq!(p.pieces(Side::First).count(), 13);
    assert_eq!(p.pieces(Side::Second).count(), 12);
    assert!(p.empty().is_empty());
    // Placement ended; the unplaced piece left the game.
    assert_eq!(p.phase(), Phase::Movement);
    assert_eq!((p.hand(Side::First), p.hand(Side::Second)), (0, 0));
    assert!(p.legal_moves().iter().all(|m| matches!(m, Move::Remove(_))));
}

#[test]
fn immediate_a_placement_forming_a_formation_earns_one_removal() {
    // X completes the five-tigers rank 1 (value 4): still only one removal.
    let p = after(Rules::shandong(), "a1 a5 b1 b5 c1 c5 d1 d5 e1");
    assert_eq!(p.owed(), owed(&[(Side::First, 1)]));
    assert_eq!(p.side_to_move(), Side::First);
    assert_eq!(p.next(), Side::Second);
    assert_eq!(
        p.to_string(),
        "OOOO1/5/5/5/XXXXX x place X:8,O:9 x1 o -,- 0"
    );
}

#[test]
fn immediate_a_placement_forming_two_formations_earns_two_removals() {
    // b2 completes the squares a1-b2 and b1-c2 at once.
    let mut p = after(Rules::shandong(), "a1 e5 b1 e3 a2 c5 c1 a4 c2 a5 b2");
    assert_eq!(p.owed(), owed(&[(Side::First, 2)]));
    p.play(mv("xe5")).unwrap();
    assert_eq!(p.side_to_move(), Side::First);
    assert_eq!(p.owed(), owed(&[(Side::First, 1)]));
    p.play(mv("xa5")).unwrap();
    assert!(p.owed().is_empty());
    assert_eq!(p.side_to_move(), Side::Second);
    assert_eq!(p.pieces(Side::Second), set("e3 c5 a4"));
}

#[test]
fn deferred_nothing_is_taken_during_placement() {
    let p = after(Rules::deferred(), "a1 a5 b1 b5 c1 c5 d1 d5 e1");
    assert!(p.owed().is_empty());
    assert_eq!(p.side_to_move(), Side::Second);
    assert_eq!(p.phase(), Phase::Placement);
}

#[test]
fn deferred_scores_are_taken_first_by_first_then_by_second_counted_before_any_removal() {
    let moves = "b5 a2 d3 e2 c5 d1 e4 b3 b4 b1 a1 b2 a4 e3 c3 d2 a3 d5 d4 e5 c4 c1 a5 c2 e1";
    let mut p = after(Rules::deferred(), moves);
    // X: rank 4 (5) + three-diagonal a3-b4-c5 (2) + 3 squares = 10.
    // O: rank 2 (5) + three-diagonal c1-d2-e3 (2) + 2 squares = 9.
    assert_eq!(
        p.to_string(),
        "XXXOO/XXXXX/XOXXO/OOOOO/XOOOX x move X:0,O:0 x10,o9 o -,- 0 five-tigers:deferred"
    );
    assert_eq!(p.side_to_move(), Side::First);
    // X removes O's pieces, breaking O's formations: O's score stays 9.
    for _ in 0..10 {
        let m = p.legal_moves()[0];
        p.play(m).unwrap();
    }
    assert_eq!(p.owed(), owed(&[(Side::Second, 9)]));
    assert_eq!(p.pieces(Side::Second).count(), 2);
    // O now removes 9 of X's pieces, then O moves first.
    for _ in 0..9 {
        assert!(p.owed().first().is_some());
        let m = p.legal_moves()[0];
        p.play(m).unwrap();
    }
    assert!(p.owed().is_empty());
    assert_eq!(p.pieces(Side::First).count(), 4);
    assert_eq!(p.side_to_move(), Side::Second);
    assert_eq!(p.phase(), Phase::Movement);
}

#[test]
fn deferred_both_scores_zero_on_a_full_board_gives_the_opening_removals() {
    let p = after(Rules::deferred(), NO_FORMATION_PLACEMENTS);
    assert_eq!(p.owed(), owed(&[(Side::Second, 1), (Side::First, 1)]));
    assert_eq!(p.side_to_move(), Side::Second);
}

#[test]
fn deferred_both_scores_zero_on_a_board_not_full_goes_straight_to_movement() {
    let rules = Rules {
        pieces_per_side: 10,
        ..Rules::deferred()
    };
    let p = after(
        rules,
        "a5 c5 b5 d5 a4 e5 d4 b4 e4 c4 a3 d3 b3 e3 c3 a2 b2 c2 d2 b1",
    );
    assert_eq!(p.phase(), Phase::Movement);
    assert!(p.owed().is_empty());
    assert_eq!(p.side_to_move(), Side::Second);
}

// ---- Section 4: removals ----

#[test]
fn removals_are_taken_one_at_a_time_before_the_turn_passes() {
    // X steps d1-e1 completing rank 1 (4) and nothing else: owed x4.
    let mut p = sketch(
        "OOO2/O4/5/4X/XXXX1 x move X:0,O:0 - x -,- 0",
        Rules::shandong(),
    );
    p.play(mv("e2-e1")).unwrap();
    assert_eq!(p.owed(), owed(&[(Side::First, 4)]));
    for left in (0..4).rev() {
        assert_eq!(p.side_to_move(), Side::First);
        let m = p.legal_moves()[0];
        assert!(p.is_capture(m));
        p.play(m).unwrap();
        if left > 0 {
            assert_eq!(p.owed(), owed(&[(Side::First, left)]));
        }
    }
    assert!(p.outcome().is_some(), "O has lost all four pieces");
}

#[test]
fn a_removal_must_take_a_loose_enemy_piece() {
    // O holds the square d1-e2 and a loose piece at a5.
    let mut p = pos(
        "O4/5/5/3OO/XXXOO x move X:0,O:0 x1 o -,- 0",
        Rules::shandong(),
    );
    assert_eq!(p.legal_moves().to_vec(), vec![mv("xa5")]);
    let before = p;
    assert!(p.play(mv("xd1")).is_err());
    assert_eq!(p, before);
    p.play(mv("xa5")).unwrap();
    assert_eq!(p.side_to_move(), Side::Second);
}

#[test]
fn an_enemy_without_loose_pieces_removes_one_of_its_own() {
    // O holds only the square d1-e2: O itself gives up a piece.
    let mut p = sketch(
        "5/5/5/3OO/XXXOO o move X:0,O:0 x2 o -,- 0",
        Rules::shandong(),
    );
    assert_eq!(p.side_to_move(), Side::Second);
    assert_eq!(p.legal_moves().len(), 4);
    p.play(mv("xd1")).unwrap();
    // Looseness is judged again: the square is broken, the other three
    // pieces are loose, and X takes the second removal itself.
    assert_eq!(p.side_to_move(), Side::First);
    assert_eq!(p.owed(), owed(&[(Side::First, 1)]));
    assert_eq!(p.count_moves(), 3);
    p.play(mv("xe2")).unwrap();
    assert!(p.owed().is_empty());
    assert_eq!(p.side_to_move(), Side::Second);
    assert_eq!(p.pieces(Side::Second), set("e1 d2"));
}

#[test]
fn the_text_to_move_of_a_self_removal_is_the_side_losing_the_piece() {
    let p = sketch(
        "5/5/5/3OO/XXXOO o move X:0,O:0 x2 o -,- 0",
        Rules::shandong(),
    );
    assert!(FiveTigers::from_text(
        "5/5/5/3OO/XXXOO x move X:0,O:0 x2 o -,- 0",
        Rules::shandong()
    )
    .is_err());
    assert_eq!(p.to_string(), "5/5/5/3OO/XXXOO o move X:0,O:0 x2 o -,- 0");
}

#[test]
fn removals_owed_beyond_the_enemys_last_piece_are_dropped() {
    let mut p = sketch(
        "O4/5/5/4X/XXXX1 x move X:0,O:0 - x -,- 0",
        Rules::shandong(),
    );
    p.play(mv("e2-e1")).unwrap();
    assert_eq!(p.owed(), owed(&[(Side::First, 4)]));
    p.play(mv("xa5")).unwrap();
    assert!(p.owed().is_empty(), "the other 3 removals are dropped");
    assert_eq!(p.outcome().map(|o| o.winner()), Some(Some(Side::First)));
    assert_eq!(p.count_moves(), 0);
}

#[test]
fn removals_owed_during_placement_from_an_enemy_with_nothing_on_the_board_are_dropped() {
    // O has no piece on the board but still has pieces in hand.
    // X's placement on c1 completes the three-diagonal a3-b2-c1.
    let mut p = sketch(
        "5/5/X4/1X3/5 x place X:11,O:13 - x -,- 0",
        Rules::shandong(),
    );
    p.play(mv("c1")).unwrap();
    assert!(p.owed().is_empty());
    assert_eq!(p.side_to_move(), Side::Second);
    assert_eq!(p.hand(Side::Second), 13);
}

// ---- Section 5: opening removals ----

#[test]
fn full_board_opening_removals_second_then_first_then_second_moves() {
    let mut p = after(Rules::shandong(), NO_FORMATION_PLACEMENTS);
    assert_eq!(p.owed(), owed(&[(Side::Second, 1), (Side::First, 1)]));
    assert_eq!(p.side_to_move(), Side::Second);
    // Second removes one of First's pieces (all loose here).
    assert_eq!(p.count_moves(), 13);
    p.play(mv("xc3")).unwrap();
    assert_eq!(p.side_to_move(), Side::First);
    assert_eq!(p.count_moves(), 12);
    p.play(mv("xc2")).unwrap();
    assert!(p.owed().is_empty());
    assert_eq!(p.side_to_move(), Side::Second);
    assert_eq!(p.phase(), Phase::Movement);
    assert!(p
        .legal_moves()
        .iter()
        .all(|m| matches!(m, Move::Step { .. })));
}

#[test]
fn opening_removals_follow_the_looseness_rule() {
    // Every piece of both sides is in a formation: each side gives up one
    // of its own. (No game reaches this: the board would have earned
    // removals as it filled. The rule still holds on the sketch.)
    let p = sketch(
        "XOXOX/OXOXO/XOXOX/OXOXO/XOXOX x move X:0,O:0 o1,x1 o -,- 0",
        Rules::shandong(),
    );
    assert_eq!(p.side_to_move(), Side::First);
    assert_eq!(p.count_moves(), 13);
}

#[test]
fn no_opening_removals_when_the_last_placement_earned_a_removal() {
    // The 25th placement (b2) completes the square b2-c3: its removal is
    // taken, and movement starts without the opening removals.
    let mut p = after(
        Rules::shandong(),
        "e1 a1 a2 b1 c2 c1 d2 d1 b3 e2 c3 a3 a4 d3 e4 e3 a5 b4 b5 c4 c5 d4 e5 d5 b2",
    );
    assert_eq!(p.phase(), Phase::Movement);
    assert_eq!(p.owed(), owed(&[(Side::First, 1)]));
    assert_eq!((p.hand(Side::First), p.hand(Side::Second)), (0, 0));
    let m = p.legal_moves()[0];
    p.play(m).unwrap();
    assert!(p.owed().is_empty());
    assert_eq!(p.side_to_move(), Side::Second);
    assert_eq!(p.empty().count(), 1);
    assert!(p
        .legal_moves()
        .iter()
        .all(|m| matches!(m, Move::Step { .. })));
}

// ---- Section 6: movement ----

#[test]
fn second_moves_first_in_movement() {
    for rules in [Rules::ten(), Rules::shandong()] {
        let mut p = after(
            rules,
            NO_FORMATION_PLACEMENTS.rsplitn(6, ' ').last().unwrap(),
        );
        while p.phase() == Phase::Placement || !p.owed().is_empty() {
            let m = p.legal_moves()[0];
            p.play(m).unwrap();
        }
        assert_eq!(p.side_to_move(), Side::Second, "{p}");
        assert_eq!(p.next(), Side::Second);
    }
}

#[test]
fn a_step_forming_several_formations_earns_the_sum_of_their_values() {
    // d3-d2 completes rank 2 (4), the squares c1-d2 and d1-e2 (1 + 1)
    // and the three-diagonal c1-d2-e3 (2): 8 removals.
    let mut p = sketch(
        "OOOOO/OOO2/3XX/XXX1X/XXXXX x move X:0,O:0 - x -,- 0",
        Rules::shandong(),
    );
    p.play(mv("d3-d2")).unwrap();
    assert_eq!(p.owed(), owed(&[(Side::First, 8)]));
    let mut d = sketch(
        "OOOOO/OOO2/3XX/XXX1X/XXXXX x move X:0,O:0 - x -,- 0",
        Rules::deferred(),
    );
    d.play(mv("d3-d2")).unwrap();
    assert_eq!(
        d.owed(),
        owed(&[(Side::First, 9)]),
        "rank worth 5 under deferred"
    );
}

#[test]
fn shuttle_forbidden_a_side_may_not_step_straight_back() {
    let mut p = sketch("5/O4/5/5/XX3 x move X:0,O:0 - x -,- 0", Rules::shandong());
    p.play(mv("b1-c1")).unwrap();
    p.play(mv("a4-a3")).unwrap();
    let before = p;
    assert!(!p.legal_moves().contains(&mv("c1-b1")));
    assert!(p.play(mv("c1-b1")).is_err());
    assert_eq!(p, before);
    assert_eq!(p.forbidden_step(Side::First), Some(mv("c1-b1")));
    // Another piece may go to b1, and after another step the way back is open.
    p.play(mv("a1-b1")).unwrap();
    // The rule binds each side by its own previous step (O's a4-a3).
    assert!(p.play(mv("a3-a4")).is_err());
    p.play(mv("a3-b3")).unwrap();
    p.play(mv("b1-a1")).unwrap_err();
    p.play(mv("c1-d1")).unwrap();
    p.play(mv("b3-b4")).unwrap();
    assert!(p.legal_moves().contains(&mv("b1-a1")));
}

#[test]
fn shuttle_allowed_a_side_may_step_straight_back() {
    let mut p = sketch(
        "5/O4/5/5/XX3 x move X:0,O:0 - x -,- 0",
        Rules::shandong_shuttle(),
    );
    p.play(mv("b1-c1")).unwrap();
    p.play(mv("a4-a3")).unwrap();
    assert_eq!(p.forbidden_step(Side::First), None);
    p.play(mv("c1-b1")).unwrap();
    assert_eq!(p.rules().shuttle, Shuttle::Allowed);
}

#[test]
fn shuttle_forbidden_lets_the_square_be_reformed_only_by_another_route() {
    let rules = Rules::shandong();
    let mut p = sketch("5/4O/5/XX3/XX3 x move X:0,O:0 - x -,- 0", rules);
    p.play(mv("b2-c2")).unwrap();
    p.play(mv("e4-e3")).unwrap();
    assert!(p.play(mv("c2-b2")).is_err());
}

// ---- Section 7: end of the game ----

#[test]
fn a_side_with_no_pieces_loses() {
    let p = pos("5/5/5/5/X4 o move X:0,O:0 - o -,- 0", Rules::shandong());
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.winner(), Some(Side::First));
    assert!(matches!(
        outcome,
        qi_core::Outcome::Win {
            reason: WinReason::NoPieces,
            ..
        }
    ));
    assert_eq!(p.count_moves(), 0);
    // Pieces in hand count: no loss during placement with pieces in hand.
    let q = sketch("5/5/5/5/X4 o place X:5,O:3 - o -,- 0", Rules::shandong());
    assert_eq!(q.outcome(), None);
}

#[test]
fn a_side_to_move_with_no_step_loses() {
    // O's only piece is boxed in at a1.
    let p = pos("5/5/5/X4/OX3 o move X:0,O:0 - o -,- 0", Rules::shandong());
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.winner(), Some(Side::First));
    assert!(matches!(
        outcome,
        qi_core::Outcome::Win {
            reason: WinReason::NoLegalMove,
            ..
        }
    ));
    assert!(p.legal_moves().is_empty());
    // Only the shuttle rule blocks the step: still a loss.
    let q = sketch(
        "5/5/5/X4/O1X2 o move X:0,O:0 - o -,b1-a1 3",
        Rules::shandong(),
    );
    assert_eq!(q.outcome().unwrap().winner(), Some(Side::First));
    let r = sketch(
        "5/5/5/X4/O1X2 o move X:0,O:0 - o -,b1-a1 3",
        Rules::shandong_shuttle(),
    );
    assert_eq!(r.outcome(), None);
}

#[test]
fn perft_ignores_the_draw_rules() {
    let p = sketch(
        "5/5/5/X4/O1X2 o move X:0,O:0 - o -,- 500",
        Rules::shandong(),
    );
    assert_eq!(p.outcome(), None);
    assert_eq!(p.count_moves(), 1);
}

// ---- Section 8: presets ----

#[test]
fn presets_fix_every_option() {
    let d = Rules::deferred();
    assert_eq!(d.placement_capture, PlacementCapture::Deferred);
    assert_eq!(d.values(), [1, 2, 4, 5, 5]);
    assert_eq!(Rules::shandong().values(), [1, 2, 3, 4, 5]);
    assert_eq!(Rules::ten().pieces_per_side, 10);
    assert_eq!(Rules::shandong_shuttle().shuttle, Shuttle::Allowed);
}

// ---- Section 9: notation ----

#[test]
fn the_start_position_text() {
    assert_eq!(
        FiveTigers::default().to_string(),
        "5/5/5/5/5 x place X:13,O:13 - x -,- 0"
    );
    assert_eq!(
        FiveTigers::new(Rules::ten()).to_string(),
        "5/5/5/5/5 x place X:10,O:10 - x -,- 0 five-tigers:ten"
    );
}

#[test]
fn quiet_counts_movement_plies_since_the_last_removal() {
    let mut p = sketch("O4/5/5/4X/XXX2 x move X:0,O:0 - x -,- 7", Rules::shandong());
    p.play(mv("e2-e3")).unwrap();
    assert_eq!(p.no_capture_plies(), 8);
    let mut q = sketch(
        "O4/5/5/4X/XXXX1 x move X:0,O:0 - x -,- 7",
        Rules::shandong(),
    );
    q.play(mv("e2-e1")).unwrap();
    assert_eq!(q.no_capture_plies(), 8);
    q.play(mv("xa5")).unwrap();
    assert_eq!(q.no_capture_plies(), 0);
    assert_eq!(
        after(Rules::shandong(), "a1 b1 c1").no_capture_plies(),
        0,
        "placement plies are not counted"
    );
}
