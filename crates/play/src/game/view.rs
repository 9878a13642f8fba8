//! What the page is sent: a game, a search's progress and its result,
//! as plain serializable data.

use qi_search::{PvLine, SearchInfo};
use serde::Serialize;

/// The result of a game, in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResultView {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub token: String,
    /// The winner's name (`Red`, `O`), none for a draw.
    pub winner: Option<String>,
    /// Why the game ended (`den entered`, `no step left`, ...).
    pub reason: String,
    /// A sentence: `Red wins: den entered.`
    pub text: String,
}

/// Removals owed in Five Tigers: who removes now and how many.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RemovalView {
    /// The side that takes the removals (`X` or `O`).
    pub side: String,
    /// How many it still takes.
    pub count: u8,
    /// The side choosing the piece now: the owner itself when it has no
    /// loose piece.
    pub chooser: String,
}

/// Everything the page shows of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameView {
    /// The canonical game spec (`jungle:standard`).
    pub spec: String,
    /// The game's name (`jungle`, `five-tigers`).
    pub game: String,
    /// The shown position's text.
    pub text: String,
    /// The first position's text.
    pub start: String,
    /// The line shown: the moves to the shown position, then its main
    /// continuation; the shown position is after `ply` of them.
    pub moves: Vec<String>,
    /// How many moves of the line lead to the shown position.
    pub ply: usize,
    /// The side to move: `first` or `second`.
    pub to_move: String,
    /// Its name: `Red`/`Blue` (Jungle), `X`/`O` (Five Tigers).
    pub to_move_name: String,
    /// The names of the first and the second side.
    pub side_names: [String; 2],
    /// The moves legal in the shown position (none once the game is over).
    pub legal: Vec<String>,
    /// The move that led to the shown position.
    pub last: Option<String>,
    /// The result, once the game is over.
    pub result: Option<ResultView>,
    /// What happens now, in words: `Blue to move`, `X must remove 2 of O's
    /// pieces`, the result.
    pub status: String,
    /// Five Tigers: removals owed now.
    pub removal: Option<RemovalView>,
    /// Five Tigers: the phase (`place`, `move`).
    pub phase: Option<String>,
    /// Five Tigers: pieces in hand of each side.
    pub hands: Option<[u8; 2]>,
    /// Who played each move of the line (`first`/`second`): a Five Tigers
    /// side moves several times running while it removes, so the page
    /// cannot tell by counting (takeback, the move list's numbering).
    pub movers: Vec<String>,
    /// Five Tigers: the points of the formations the last placement or
    /// step formed, while its removals follow it (empty otherwise).
    pub formed: Vec<String>,
    /// Every move of the game's tree (the main line and the variations),
    /// in the order a move list reads them: each node before its
    /// children, a node's main continuation before its variations.
    pub tree: Vec<NodeView>,
    /// The shown position's place in `tree` (none at the first position).
    pub node: Option<usize>,
    /// The board as SVG, with the last move highlighted.
    pub svg: String,
}

/// One move of the game's tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeView {
    /// The place in the tree's list of the move before it (none for a
    /// move from the first position); a move is its parent's main
    /// continuation when it is the first of the parent's children in the
    /// list.
    pub parent: Option<usize>,
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Who played it: `first` or `second`.
    pub mover: String,
}

/// One iteration of a search, as the analysis panel shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InfoView {
    /// The iteration's depth.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Which line this is (1 = the best) when the search gives several
    /// (`MultiPV`); none in a single-line search.
    pub multipv: Option<u32>,
    /// The score for the side to move: `cp 35` or `mate 3`.
    pub score: String,
    /// The score from the first side's point of view, in centi-units
    /// (mate scores are large).
    pub score_first: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// The principal variation.
    pub pv: Vec<String>,
}

/// One of the best root moves a search found, with its score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineView {
    /// The score for the side to move: `cp 35` or `mate 3`.
    pub score: String,
    /// The score from the first side's point of view, in centi-units.
    pub score_first: i32,
    /// The iteration that found it.
    pub depth: u32,
    /// The line, starting with its root move.
    pub pv: Vec<String>,
}

/// What a finished search found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SearchDone {
    /// The move to play, `None` when there is none (the game is over). At
    /// a level below the full engine, the level's choice among `lines`.
    pub best: Option<String>,
    /// The best root moves, best first, each with its score, depth and
    /// line: as many as `MultiPV` asks (one by default; a weaker level
    /// searches several to choose among).
    pub lines: Vec<LineView>,
    /// The last completed iteration (none when not even depth 1 finished).
    pub info: Option<InfoView>,
    /// Every node searched, the last unfinished iteration's included.
    pub nodes: u64,
    /// Whether a stop (rather than a limit) ended the search.
    pub stopped: bool,
}

pub(super) fn line_view<M: ToString>(line: &PvLine<M>, first: bool) -> LineView {
    let value = line.score.value();
    LineView {
        score: line.score.to_string(),
        score_first: if first { value } else { -value },
        depth: line.depth,
        pv: line.pv.iter().map(ToString::to_string).collect(),
    }
}

pub(super) fn info_view<M: ToString>(info: &SearchInfo<M>, first: bool) -> InfoView {
    let value = info.score.value();
    InfoView {
        depth: info.depth,
        seldepth: info.seldepth,
        multipv: info.multipv,
        score: info.score.to_string(),
        score_first: if first { value } else { -value },
        nodes: info.nodes,
        nps: info.nps,
        time_ms: u64::try_from(info.time.as_millis()).unwrap_or(u64::MAX),
        pv: info.pv.iter().map(ToString::to_string).collect(),
    }
}
