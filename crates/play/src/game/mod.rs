//! One game as the web page sees it: a start position, the tree of moves
//! played from it (the main line and its variations) with the node shown,
//! and a searcher, all behind an object-safe interface
//! ([`WebGame`]) so that a session can hold a game of any game of the
//! registry and change game at run time.
//!
//! ```
//! use qi_play::game::new_game;
//!
//! let mut game = new_game("jungle", None).unwrap();
//! game.play("a3a4").unwrap();
//! let view = game.view(false);
//! assert_eq!(view.moves, ["a3a4"]);
//! assert_eq!(view.to_move_name, "Blue");
//! assert!(game.play("a9a1").is_err());
//! // A move from an earlier position makes a variation.
//! game.goto(0).unwrap();
//! game.play("g3g4").unwrap();
//! assert_eq!(game.view(false).moves, ["g3g4"]);
//! game.goto_line(&["a3a4".to_string()]).unwrap();
//! assert_eq!(game.view(false).tree.len(), 2);
//! ```
use std::sync::atomic::AtomicBool;

use qi_core::{Game, Side};
use qi_engine::record::Record;
use qi_engine::{GameFn, GameKit, Games, Registry, RulesOf, SpecError};
use qi_search::{Limits, SearchOptions};

use crate::reason::Reason;
use crate::svg::{read_record, start_position, RenderError, RenderOptions};

mod kit;
mod tree;
mod view;

use kit::KitGame;
pub use view::{GameView, InfoView, LineView, NodeView, RemovalView, ResultView, SearchDone};

/// The transposition table of each session's searcher, in MiB.
pub const HASH_MIB: usize = 16;

/// The largest `Hash` (MiB) a game's searcher takes: a page's memory is
/// small (a WebAssembly module has at most 4 GiB, and a failed allocation
/// there aborts the page's engine).
pub const MAX_HASH_MIB: usize = 1024;

/// Why a request on a game failed; the message is meant for the user.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game spec names no game or rules of the registry.
    #[error("{0}")]
    Spec(#[from] SpecError),
    /// The position text is not a position of the game.
    #[error("bad position: {0}")]
    Position(Reason),
    /// A move that cannot be read or is not legal now.
    #[error("move '{text}': {reason}")]
    Move {
        /// The move as given (control characters escaped).
        text: String,
        /// What is wrong with it.
        reason: Reason,
    },
    /// A ply outside the move list.
    #[error("ply {ply} is outside the game (0 to {len})")]
    Ply {
        /// The ply asked for.
        ply: usize,
        /// The number of moves in the line.
        len: usize,
    },
    /// There is no move to take back.
    #[error("no move to take back")]
    NothingToUndo,
    /// A game record that cannot be read or replayed.
    #[error("bad record: {0}")]
    Record(Reason),
    /// A search option that is unknown or has a bad value.
    #[error("{0}")]
    Option(String),
    /// A board that cannot be drawn with the marks asked for.
    #[error("{0}")]
    Render(#[from] RenderError),
}

/// A search ready to run on another thread: `task(limits, stop, report)`
/// searches the position it was taken from, calls `report` after each
/// iteration and returns the best move (`None` when there is none).
pub type SearchTask =
    Box<dyn FnOnce(Limits, &AtomicBool, &mut dyn FnMut(InfoView)) -> Option<String> + Send>;

/// A game of any game of the registry, as the page drives it. Moves and
/// positions are text in the game's own notation.
pub trait WebGame: Send {
    /// The canonical game spec.
    fn spec(&self) -> String;
    /// What the page shows; `flip` draws the board from the second side.
    fn view(&self, flip: bool) -> GameView;
    /// Plays `text` in the shown position. A move played before the end of
    /// the line is followed if the tree has it there, else it starts a
    /// variation (the line played so far stays in the tree).
    fn play(&mut self, text: &str) -> Result<(), GameError>;
    /// Takes back the move that led to the shown position: it leaves the
    /// tree with every move after it.
    fn undo(&mut self) -> Result<(), GameError>;
    /// Shows the position after `ply` moves of the line shown (the moves
    /// to the shown position, then its main continuation).
    fn goto(&mut self, ply: usize) -> Result<(), GameError>;
    /// Shows the position after `moves` from the first position, moves of
    /// the tree (a way to any variation); on error nothing changes.
    fn goto_line(&mut self, moves: &[String]) -> Result<(), GameError>;
    /// Makes the line to the shown position the main line: at each of its
    /// moves, that move becomes the main continuation.
    fn promote(&mut self);
    /// The board after `moves` from the shown position (a line of
    /// analysis previewed, not played), drawn from the second side when
    /// `flip`, its last move highlighted; the game does not change.
    fn preview(&self, moves: &[String], flip: bool) -> Result<String, GameError>;
    /// The main line as a game record (`docs/records.md`), with its
    /// variations in parentheses, its `Event` tag `qi serve`.
    fn record(&self) -> String {
        self.record_of("qi serve")
    }
    /// The game record whose `Event` tag is `event` (the
    /// page of a static site is no `qi serve`).
    fn record_of(&self, event: &str) -> String {
        self.record_tagged(event, &[])
    }
    /// The game record whose `Event` tag is `event`, with
    /// the further `tags` (name, value) after the standard ones (a clock's
    /// `TimeControl`). A tag of the standard ones is set to its value.
    fn record_tagged(&self, event: &str, tags: &[(&str, &str)]) -> String;
    /// A search of the shown position, to run on another thread.
    fn search_task(&mut self) -> SearchTask;
    /// Searches the shown position on this thread, for hosts without
    /// threads (a browser's worker). `report` gets each completed
    /// iteration and ends the search by returning `true`; `poll` is asked
    /// every [`POLL_EVERY`](crate::poll::POLL_EVERY) evaluations whether to
    /// stop (a host's message queue, a shared flag, a clock), so a stop
    /// needs no thread. A stopped search still gives the best move of its
    /// last completed iteration.
    fn search_here(
        &mut self,
        limits: Limits,
        poll: &mut dyn FnMut() -> bool,
        report: &mut dyn FnMut(&InfoView) -> bool,
    ) -> SearchDone;
    /// [`search_here`](WebGame::search_here) among the root moves `moves`
    /// only (UCI's `go searchmoves`; empty: every legal move): several
    /// searches given disjoint sets split the position between them, as
    /// the page's threads (one Web Worker each) do. Refused, before any
    /// search, when a move cannot be read or is not legal in the shown
    /// position.
    fn search_among(
        &mut self,
        limits: Limits,
        moves: &[String],
        poll: &mut dyn FnMut() -> bool,
        report: &mut dyn FnMut(&InfoView) -> bool,
    ) -> Result<SearchDone, GameError>;
    /// Sets the engine option `name` to `value` through the engine's
    /// option names, from the next search on: the search options of
    /// [`qi_engine::options`] (`Hash`, `MultiPV`, `LMR`, ...) and the
    /// strength options of [`qi_engine::strength`] (`Level`,
    /// `LimitStrength`, `Elo`, `Seed`). The search of a game runs on one
    /// thread, so `Threads` takes only 1; `Hash` at most [`MAX_HASH_MIB`].
    /// On error the options are unchanged.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), GameError>;
    /// The search options in use.
    fn options(&self) -> SearchOptions;
    /// The perft count of the shown position: the leaves of the tree of
    /// board moves `depth` plies deep, as `qi perft` counts them.
    fn perft(&self, depth: u32) -> u64;
    /// The bytes the game's searcher holds for its transposition table
    /// (`Hash` MiB once a search has built it, 0 before).
    fn search_memory(&self) -> usize;
    /// Frees the searcher's table (the next search builds a new one): a
    /// server of many games holds tables only while they search.
    fn release_search_memory(&mut self);
    /// The shown position drawn with `options` (its marks, flip and
    /// caption); the last move is highlighted unless `options` marks
    /// squares as last.
    fn render(&self, options: &RenderOptions) -> Result<String, GameError>;
}

/// A new game of `spec` from `text` (position text of the game; the start
/// position when `None` or empty).
pub fn new_game(spec: &str, text: Option<&str>) -> Result<Box<dyn WebGame>, GameError> {
    struct Build<'a>(Option<&'a str>);
    impl GameFn for Build<'_> {
        type Output = Result<Box<dyn WebGame>, GameError>;
        fn call<K: GameKit>(self, rules: RulesOf<K>) -> Self::Output {
            let start = start_position::<K>(rules, self.0).map_err(GameError::Position)?;
            Ok(Box::new(KitGame::<K>::new(K::Game::new(start))))
        }
    }
    Games::dispatch(spec, Build(text))?
}

/// The game of a record (`docs/records.md`), replayed under its rules
/// with its variations and shown at the end of its main line.
pub fn load_record(text: &str) -> Result<Box<dyn WebGame>, GameError> {
    let (record, spec) = read_record(text).map_err(GameError::Record)?;
    struct Replay(Record);
    impl GameFn for Replay {
        type Output = Result<Box<dyn WebGame>, GameError>;
        fn call<K: GameKit>(self, rules: RulesOf<K>) -> Self::Output {
            Ok(Box::new(KitGame::<K>::of_record(&self.0, rules)?))
        }
    }
    Games::dispatch(&spec, Replay(record))
        .map_err(|e| GameError::Record(Reason::of_game_tag(&e)))?
}

/// `first` or `second`, as the view names sides.
pub(crate) fn side_word(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}
