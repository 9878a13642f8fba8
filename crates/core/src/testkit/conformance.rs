//! A conformance test harness that every game implementation must pass.
//!
//! Call [`check_position`] on hand-built positions and [`random_walks`] from
//! a start position: each visits many positions and panics (with the
//! position text in the message) on the first broken invariant:
//!
//! * generated moves are unique, and each is accepted by the checked `play`;
//! * [`Position::count_moves`](crate::Position::count_moves) equals the number of generated moves;
//! * a move of the move space that was not generated is refused by `play`,
//!   which leaves the position unchanged;
//! * the incremental Zobrist key equals the key computed from scratch, and
//!   the copy a move was played on is left untouched (copy-make);
//! * position text and move text round-trip;
//! * a finished position has no moves.

use std::collections::HashSet;
use std::fmt::Debug;

use super::walk;
use crate::position::MoveSpace;

/// Checks every invariant listed in the module documentation on `pos`.
///
/// # Panics
/// On the first broken invariant, naming the position and the move.
pub fn check_position<P>(pos: &P)
where
    P: MoveSpace,
    <P::Move as std::str::FromStr>::Err: Debug,
{
    let text = pos.to_string();
    assert_eq!(
        pos.zobrist(),
        pos.zobrist_from_scratch(),
        "incremental hash differs from scratch hash at {text}"
    );

    let reparsed = pos
        .with_text(&text)
        .unwrap_or_else(|e| panic!("position text {text:?} does not parse back: {e}"));
    assert_eq!(&reparsed, pos, "position text {text:?} does not round-trip");
    assert_eq!(
        reparsed.zobrist(),
        pos.zobrist(),
        "reparsed hash differs at {text}"
    );

    let moves = pos.legal_moves();
    assert_eq!(
        pos.count_moves(),
        moves.len(),
        "count_moves disagrees at {text}"
    );
    let unique: HashSet<P::Move> = moves.iter().copied().collect();
    assert_eq!(
        unique.len(),
        moves.len(),
        "duplicate moves at {text}: {moves:?}"
    );

    if pos.outcome().is_some() {
        assert!(
            moves.is_empty(),
            "finished position {text} has moves {moves:?}"
        );
    }

    for &mv in &moves {
        let mv_text = mv.to_string();
        let parsed: P::Move = mv_text
            .parse()
            .unwrap_or_else(|e| panic!("move text {mv_text:?} does not parse: {e:?}"));
        assert_eq!(parsed, mv, "move text {mv_text:?} does not round-trip");
        assert!(
            pos.is_legal(mv),
            "generated move {mv} is not legal at {text}"
        );

        let mut child = pos.clone();
        child
            .play(mv)
            .unwrap_or_else(|e| panic!("generated move {mv} refused at {text}: {e}"));
        assert_eq!(
            child.zobrist(),
            child.zobrist_from_scratch(),
            "hash drifts after {mv} at {text}"
        );
        let mut unchecked = pos.clone();
        unchecked.play_unchecked(mv);
        assert_eq!(
            unchecked, child,
            "play and play_unchecked differ for {mv} at {text}"
        );
        assert_ne!(
            child.zobrist(),
            pos.zobrist(),
            "{mv} at {text} leaves the hash unchanged"
        );
    }

    for mv in pos.move_space() {
        if unique.contains(&mv) {
            continue;
        }
        assert!(
            !pos.is_legal(mv),
            "{mv} is legal at {text} but was not generated"
        );
        let mut copy = pos.clone();
        assert!(
            copy.play(mv).is_err(),
            "{mv} was accepted at {text} but not generated"
        );
        assert_eq!(&copy, pos, "refused move {mv} changed the position {text}");
    }
}

/// Plays `games` random games of at most `max_plies` plies from `start`,
/// calling [`check_position`] on every position reached. Returns the number
/// of positions checked.
pub fn random_walks<P>(start: &P, games: usize, max_plies: usize, seed: u64) -> usize
where
    P: MoveSpace,
    <P::Move as std::str::FromStr>::Err: Debug,
{
    walk(start, games, max_plies, seed, check_position)
}
