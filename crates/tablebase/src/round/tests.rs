//! Unit tests of `round`.

use super::*;

#[test]
fn a_win_and_a_loss_are_one_ply_past_what_they_reach() {
    assert_eq!(ply_before(0), Ok(1));
    assert_eq!(ply_before(41), Ok(42));
}

#[test]
fn past_the_longest_distance_is_an_error_not_a_cut() {
    assert_eq!(ply_before(u32::from(LONGEST) - 1), Ok(LONGEST));
    assert_eq!(ply_before(u32::from(LONGEST)), Err(RetroError::TooDeep));
    assert_eq!(ply_before(u32::MAX), Err(RetroError::TooDeep));
    let mut exits = Exits::default();
    assert_eq!(
        exits.note(Wdl::Win, u32::from(LONGEST) + 1),
        Err(RetroError::TooDeep)
    );
    assert_eq!(exits, Exits::default(), "a refused move changes nothing");
    exits.note(Wdl::Loss, u32::from(LONGEST)).unwrap();
    assert_eq!(exits.win_at(), Err(RetroError::TooDeep));
    exits.note(Wdl::Win, u32::from(LONGEST)).unwrap();
    assert_eq!(exits.loss_floor(), Err(RetroError::TooDeep));
    // A generation's error says the same.
    let generate = crate::error::GenerateError::from(RetroError::TooDeep);
    assert_eq!(generate, crate::error::GenerateError::TooDeep);
    let retro = RetroError::TooDeep.to_string();
    assert!(
        retro.ends_with(&generate.to_string()["a position".len()..]),
        "{retro}"
    );
}

#[test]
fn a_lost_successor_wins_and_the_last_won_one_loses() {
    assert_eq!(hear(7, News::Lost, 5, 3, false, 0), Ok(Heard::Won(5)));
    assert_eq!(
        hear(7, News::Lost, 5, 3, false, 2),
        Ok(Heard::Won(5)),
        "a slot that can lose keeps its longest won exit, no win"
    );
    assert_eq!(
        hear(7, News::Lost, 5, 3, true, 4),
        Ok(Heard::Won(4)),
        "an exit that wins sooner holds"
    );
    assert_eq!(hear(7, News::Lost, 5, 3, true, 9), Ok(Heard::Won(5)));
    assert_eq!(hear(7, News::Won, 5, 3, false, 0), Ok(Heard::Left(2)));
    assert_eq!(
        hear(7, News::Won, 5, 1, false, 0),
        Ok(Heard::Lost(Loss::Now(5)))
    );
    assert_eq!(
        hear(7, News::Won, 5, 1, false, 11),
        Ok(Heard::Lost(Loss::Held(12))),
        "held back to one ply past its longest won exit"
    );
    assert_eq!(
        hear(7, News::Won, 3, 1, false, LONGEST),
        Err(RetroError::TooDeep)
    );
    assert_eq!(
        hear(7, News::Won, 5, 1, true, 0),
        Ok(Heard::Left(0)),
        "a slot with a drawing exit is never lost"
    );
    let overcounted = Err(RetroError::Inconsistent { slot: 7 });
    assert_eq!(hear(7, News::Won, 5, 0, false, 0), overcounted);
    assert_eq!(hear(7, News::Won, 5, 0, true, 2), overcounted);
}

#[test]
fn a_solver_counts_at_most_max_successors() {
    assert_eq!(counter(3, MAX_SUCCESSORS), Ok(MAX_SUCCESSORS as u8));
    let too_many = Err(RetroError::TooManySuccessors { slot: 3 });
    assert_eq!(counter(3, MAX_SUCCESSORS + 1), too_many);
    assert_eq!(counter(3, 256), too_many, "no byte wraps around");
}

#[test]
fn a_loss_is_one_ply_past_its_last_successor_or_its_longest_exit() {
    assert_eq!(lost_at(5, 0), Ok(Loss::Now(5)));
    assert_eq!(lost_at(5, 4), Ok(Loss::Now(5)));
    assert_eq!(lost_at(5, 5), Ok(Loss::Held(6)));
    assert_eq!(lost_at(5, 11), Ok(Loss::Held(12)));
    assert_eq!(lost_at(LONGEST, LONGEST - 1), Ok(Loss::Now(LONGEST)));
    assert_eq!(
        lost_at(3, LONGEST),
        Err(RetroError::TooDeep),
        "never cut short"
    );
}

#[test]
fn exits_keep_the_shortest_win_and_the_longest_loss() {
    let mut exits = Exits::default();
    assert_eq!(exits.win_at(), Ok(None));
    assert_eq!(exits.loss_floor(), Ok(0));
    assert!(!exits.never_lost());
    for (value, d) in [(Wdl::Win, 4), (Wdl::Win, 9), (Wdl::Win, 2)] {
        exits.note(value, d).unwrap();
    }
    assert_eq!(exits.loss_floor(), Ok(10), "lost one ply past the longest");
    assert!(!exits.never_lost(), "every move so far reaches a win");
    exits.note(Wdl::Draw, 0).unwrap();
    assert!(exits.never_lost());
    assert_eq!(exits.win_at(), Ok(None));
    for (value, d) in [(Wdl::Loss, 6), (Wdl::Loss, 3), (Wdl::Loss, 8)] {
        exits.note(value, d).unwrap();
    }
    assert_eq!(exits.win_at(), Ok(Some(4)), "won one ply past the shortest");
    assert_eq!(
        exits,
        Exits {
            shortest_lost: Some(3),
            longest_won: Some(9),
            draw: true
        }
    );
}

#[test]
fn a_start_begins_as_its_exits_say() {
    let open = |successors, exits: &[(Wdl, u32)]| {
        let mut e = Exits::default();
        for &(v, d) in exits {
            e.note(v, d).unwrap();
        }
        Start::Open(Open {
            successors,
            exits: e,
        })
        .begin()
    };
    assert_eq!(Start::Unused.begin(), Ok(Begin::Unused));
    assert_eq!(
        Start::Decided(Wdl::Loss, 0).begin(),
        Ok(Begin::Decided(Wdl::Loss, 0))
    );
    assert_eq!(
        open(3, &[(Wdl::Win, 4), (Wdl::Loss, 6), (Wdl::Loss, 2)]),
        Ok(Begin::NeverLost {
            successors: 3,
            win: Some(3)
        }),
        "won one ply past the shortest lost exit"
    );
    assert_eq!(
        open(2, &[(Wdl::Draw, 0), (Wdl::Win, 9)]),
        Ok(Begin::NeverLost {
            successors: 2,
            win: None
        })
    );
    assert_eq!(
        open(0, &[(Wdl::Win, 4), (Wdl::Win, 7)]),
        Ok(Begin::Decided(Wdl::Loss, 8)),
        "no successor: lost one ply past the longest won exit"
    );
    assert_eq!(
        open(0, &[(Wdl::Loss, 4), (Wdl::Win, 7)]),
        Ok(Begin::Decided(Wdl::Win, 5)),
        "no successor: won one ply past the shortest lost exit"
    );
    assert_eq!(
        open(0, &[(Wdl::Draw, 0), (Wdl::Win, 7)]),
        Ok(Begin::Decided(Wdl::Draw, 0)),
        "no successor: drawn by a drawing exit"
    );
    assert_eq!(
        open(3, &[(Wdl::Win, 4), (Wdl::Win, 7)]),
        Ok(Begin::Losing {
            successors: 3,
            longest_won: Some(7),
            floor: 8
        }),
        "lost one ply past the longest won exit"
    );
    assert_eq!(
        open(5, &[]),
        Ok(Begin::Losing {
            successors: 5,
            longest_won: None,
            floor: 0
        })
    );
    assert_eq!(
        open(1, &[(Wdl::Win, u32::from(LONGEST))]),
        Err(RetroError::TooDeep),
        "a loss past the longest distance is refused"
    );
    assert_eq!(
        open(1, &[(Wdl::Loss, u32::from(LONGEST))]),
        Err(RetroError::TooDeep)
    );
}
