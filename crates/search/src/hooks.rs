//! What a game may tell the search beyond the [`Game`] trait: how to order
//! captures, which moves quiescence searches, how to pass (null move), when
//! the side to move must answer a threat (check extensions), and which
//! search features play the game best; and the exact values of endgame
//! tables, where a game has them.

use qi_core::{Game, Position};

use crate::{SearchOptions, SearchParams};

/// The move type of a game.
pub type MoveOf<G> = <<G as Game>::Position as Position>::Move;

/// Game-specific knowledge the search can use. Every method has a default,
/// so `impl SearchHooks<MyGame> for MyHooks {}` is a valid start, and
/// [`DefaultHooks`] works for every game.
pub trait SearchHooks<G: Game> {
    /// An ordering score for a capture `mv` (legal in `game`): captures are
    /// tried in descending order of this value, e.g. `10 * victim -
    /// attacker` (MVV-LVA). The default gives every capture 0 (generation
    /// order).
    fn capture_order(&self, game: &G, mv: MoveOf<G>) -> i32 {
        let _ = (game, mv);
        0
    }

    /// Whether quiescence search plays `mv` at the horizon. The default is
    /// [`Position::is_capture`].
    fn is_tactical(&self, game: &G, mv: MoveOf<G>) -> bool {
        game.position().is_capture(mv)
    }

    /// Makes the side to move pass, if that makes sense here, and returns
    /// whether it did. Return `false` where a pass is meaningless (e.g. the
    /// side to move owes further moves of its own this turn). After a pass
    /// the opponent must be to move; the search undoes it with
    /// [`undo_null`](SearchHooks::undo_null). The default never passes, so
    /// null-move pruning is off.
    fn make_null(&self, game: &mut G) -> bool {
        let _ = game;
        false
    }

    /// Takes back a pass made by [`make_null`](SearchHooks::make_null).
    fn undo_null(&self, game: &mut G) {
        let _ = game;
    }

    /// Whether the side to move in `game` must answer an immediate threat
    /// to end the game (the "check" of the game: e.g. in Jungle, an enemy
    /// animal next to its den). Such positions are searched one ply deeper
    /// when [`SearchOptions::check_extension`](crate::SearchOptions::check_extension)
    /// is on, and are never pruned by null moves or futility. The default
    /// says no.
    fn in_check(&self, game: &G) -> bool {
        let _ = game;
        false
    }

    /// The exact value of the position of `game` from an endgame table,
    /// if the game has tables, one covers this position, and its value is
    /// sure under every rule of `game` (its history rules included: a win
    /// the no-capture draw could cut short is no win). The search asks at
    /// every node below the root before generating moves, and takes a
    /// value given here as the end of the line, so anything unsure must be
    /// `None`. Every value given counts as a table hit (`tbhits`), so a
    /// finished game the tables did not answer is better left to the
    /// game's outcome (`None`). The default has no tables and costs
    /// nothing.
    fn probe(&self, game: &G) -> Option<TableValue> {
        let _ = game;
        None
    }

    /// The search options that play this game best, as matches measured
    /// them: what front ends start from (before a user's own settings).
    /// The default is [`SearchOptions::default`].
    fn tuned_options(&self) -> SearchOptions {
        SearchOptions::default()
    }

    /// The search's margins for the evaluation these hooks go with (an
    /// evaluation of another scale or smoothness prunes better with its
    /// own). Read once per search. The default is
    /// [`SearchParams::default`], the margins tuned with the hand-written
    /// evaluations.
    fn search_params(&self) -> SearchParams {
        SearchParams::default()
    }
}

/// The exact value of a position from an endgame table, for the side to
/// move ([`SearchHooks::probe`]): the search scores it as the end of the
/// game that many plies ahead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableValue {
    /// The side to move wins, the game ending this many plies ahead with
    /// best play (0: it is over now).
    Win(u32),
    /// Neither side can win.
    Draw,
    /// The side to move loses, the game ending this many plies ahead with
    /// best play (0: it is over now).
    Loss(u32),
}

/// Hooks with every default: captures in generation order, quiescence on
/// captures, no null moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DefaultHooks;

impl<G: Game> SearchHooks<G> for DefaultHooks {}
