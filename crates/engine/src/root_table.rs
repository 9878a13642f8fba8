//! The root move from the endgame tables: a `go` whose every reply the
//! tables (or the game's own end) value is answered without a search.
//!
//! The tables know the board only, so each root move is played in the
//! game first: a move that ends the game (a threefold repetition among
//! them, or an anti-chase loss) is valued by that end, and the position it
//! leads to is valued by the same hook the search trusts in its tree
//! ([`SearchHooks::probe`]), which gives nothing where the game's history
//! rules could change the table's value (a position seen before, the
//! anti-chase rules, a value that does not end before the no-capture
//! draw). Without that, the fastest table win could be a move that
//! repeats a position for the third time, a draw.

use qi_core::{Game, Outcome, Position};
use qi_search::{SearchHooks, TableValue};

/// The move the tables choose at the root and its value for the side to
/// move there, counted in plies from the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootTableMove {
    /// The move, in the game's notation.
    pub mv: String,
    /// Its value for the side to move at the root.
    pub value: TableValue,
}

impl RootTableMove {
    /// The plies to the end of the game (0 for a draw).
    pub fn distance(&self) -> u32 {
        match self.value {
            TableValue::Win(d) | TableValue::Loss(d) => d,
            TableValue::Draw => 0,
        }
    }

    /// The protocol's report of it: an `info` line with `score mate N`
    /// (moves, negative when lost) or `score cp 0`, then `info string
    /// tablebase win|draw|loss in D plies`.
    pub fn info_lines(&self) -> [String; 2] {
        let d = self.distance();
        let (score, word) = match self.value {
            TableValue::Win(_) => (format!("mate {}", d.div_ceil(2)), "win"),
            TableValue::Loss(_) => (format!("mate -{}", d / 2), "loss"),
            TableValue::Draw => ("cp 0".to_string(), "draw"),
        };
        [
            format!(
                "info depth {d} seldepth {d} score {score} nodes 0 nps 0 time 0 pv {}",
                self.mv
            ),
            format!("info string tablebase {word} in {d} plies"),
        ]
    }
}

/// The best root move of `game` by the tables `hooks` probes: the fastest
/// win, else a draw, else the longest loss. `None` (search instead) when
/// the game is over, when the tables give no sure value for the root
/// itself (its material has no table, it was seen before in the game, the
/// anti-chase rules, the no-capture draw comes first), when no reply is
/// valued by a table, or when some
/// reply has no sure value and the best sure one is not a win (the unsure
/// one might be better).
pub fn root_table_move<G, H>(game: &G, hooks: &H) -> Option<RootTableMove>
where
    G: Game,
    H: SearchHooks<G>,
{
    // Only where the tables value the root itself (under the same rules):
    // a root one capture above the tables is the search's, which probes
    // them below it.
    if game.outcome().is_some() || hooks.probe(game).is_none() {
        return None;
    }
    let mover = game.position().side_to_move();
    let mut best: Option<RootTableMove> = None;
    let mut unsure = false;
    let mut from_table = false;
    for mv in game.legal_moves().iter().copied() {
        let mut child = game.clone();
        child.play_unchecked(mv);
        let value = match child.outcome() {
            Some(outcome) => Some(ended(outcome, mover)),
            None => hooks.probe(&child).map(|v| {
                from_table = true;
                from_child(v)
            }),
        };
        let Some(value) = value else {
            unsure = true;
            continue;
        };
        let candidate = RootTableMove {
            mv: mv.to_string(),
            value,
        };
        if best
            .as_ref()
            .is_none_or(|b| better(candidate.value, b.value))
        {
            best = Some(candidate);
        }
    }
    let best = best.filter(|_| from_table)?;
    if unsure && !matches!(best.value, TableValue::Win(_)) {
        return None;
    }
    Some(best)
}

/// The value for `mover` of a game its move has just ended.
fn ended(outcome: Outcome, mover: qi_core::Side) -> TableValue {
    match outcome.winner() {
        Some(winner) if winner == mover => TableValue::Win(1),
        Some(_) => TableValue::Loss(1),
        None => TableValue::Draw,
    }
}

/// The value for the side that moved into a position the tables value
/// for its side to move.
fn from_child(value: TableValue) -> TableValue {
    match value {
        TableValue::Win(d) => TableValue::Loss(d + 1),
        TableValue::Loss(d) => TableValue::Win(d + 1),
        TableValue::Draw => TableValue::Draw,
    }
}

/// Whether `a` is a better choice than `b`: a win over a draw over a loss,
/// the fastest win, the longest loss.
fn better(a: TableValue, b: TableValue) -> bool {
    let rank = |v: TableValue| match v {
        TableValue::Loss(_) => 0,
        TableValue::Draw => 1,
        TableValue::Win(_) => 2,
    };
    match (a, b) {
        (TableValue::Win(x), TableValue::Win(y)) => x < y,
        (TableValue::Loss(x), TableValue::Loss(y)) => x > y,
        _ => rank(a) > rank(b),
    }
}
