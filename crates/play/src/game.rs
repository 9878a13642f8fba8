//! One game as the web page sees it: a start position, the line of moves
//! played from it with a cursor (the ply shown, for navigating the move
//! list), and a searcher, all behind an object-safe interface
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
//! ```

use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use qi_core::{ExternalResult, Game, Outcome, Position, Side};
use qi_engine::options::set_search_option;
use qi_engine::record::{reason_in, Record, RecordResult};
use qi_engine::strength::StrengthOptions;
use qi_engine::{spec_of, EvalProfile, GameFn, GameKit, Games, Registry, RulesOf, SpecError};
use qi_five_tigers::{held_formations, FiveTigers, Phase, Point};
use qi_search::{Limits, MoveOf, PvLine, SearchInfo, SearchOptions, Searcher, Strength};
use serde::Serialize;

use crate::poll::Polled;
use crate::svg::{
    move_squares, read_record, render_position, start_position, Marks, RenderError, RenderOptions,
};

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
    Position(String),
    /// A move that cannot be read or is not legal now.
    #[error("move '{text}': {reason}")]
    Move {
        /// The move as given (control characters escaped).
        text: String,
        /// What is wrong with it.
        reason: String,
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
    Record(String),
    /// A search option that is unknown or has a bad value.
    #[error("{0}")]
    Option(String),
    /// A board that cannot be drawn with the marks asked for.
    #[error("{0}")]
    Render(#[from] RenderError),
}

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
    /// The whole line of moves; the shown position is after `ply` of them.
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
    /// The board as SVG, with the last move highlighted.
    pub svg: String,
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
    /// the line replaces the rest of the line.
    fn play(&mut self, text: &str) -> Result<(), GameError>;
    /// Takes back the move that led to the shown position (and drops the
    /// rest of the line).
    fn undo(&mut self) -> Result<(), GameError>;
    /// Shows the position after `ply` moves of the line.
    fn goto(&mut self, ply: usize) -> Result<(), GameError>;
    /// The whole line as a game record (`docs/records.md`), its `Event`
    /// tag `qi serve`.
    fn record(&self) -> String {
        self.record_of("qi serve")
    }
    /// The whole line as a game record whose `Event` tag is `event` (the
    /// page of a static site is no `qi serve`).
    fn record_of(&self, event: &str) -> String {
        self.record_tagged(event, &[])
    }
    /// The whole line as a game record whose `Event` tag is `event`, with
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

/// The game of a record (`docs/records.md`), replayed under its rules and
/// shown at its end.
pub fn load_record(text: &str) -> Result<Box<dyn WebGame>, GameError> {
    let (record, spec) = read_record(text).map_err(GameError::Record)?;
    struct Replay(Record);
    impl GameFn for Replay {
        type Output = Result<Box<dyn WebGame>, GameError>;
        fn call<K: GameKit>(self, _: RulesOf<K>) -> Self::Output {
            let game = self
                .0
                .replay::<K>()
                .map_err(|e| GameError::Record(e.to_string()))?;
            Ok(Box::new(KitGame::<K>::new(game)))
        }
    }
    Games::dispatch(&spec, Replay(record))
        .map_err(|e| GameError::Record(format!("Game tag: {e}")))?
}

/// A kit's searcher, shared with the thread that searches.
type SharedSearcher<K> = Arc<Mutex<Searcher<<K as GameKit>::Game, <K as GameKit>::Hooks>>>;

/// The [`WebGame`] of kit `K`.
struct KitGame<K: GameKit> {
    /// The game at the shown ply.
    game: K::Game,
    /// The whole line.
    line: Vec<MoveOf<K::Game>>,
    /// A result decided outside the rules at the end of the line.
    external: Option<ExternalResult>,
    /// Built on the first search.
    searcher: Option<SharedSearcher<K>>,
    /// The searcher's options (kept here until it is built).
    options: SearchOptions,
    /// The level and its seed, as the options set them.
    strength_options: StrengthOptions,
    /// The level with its random sequence.
    strength: Strength,
    /// The evaluation profile (`EvalProfile` option) of `eval` and of the
    /// searcher's hooks.
    profile: EvalProfile,
    eval: Arc<K::Eval>,
}

impl<K: GameKit> KitGame<K> {
    /// A game shown at the end of `game`'s moves.
    fn new(game: K::Game) -> KitGame<K> {
        KitGame {
            line: game.moves().to_vec(),
            external: game.external_result(),
            game,
            searcher: None,
            options: SearchOptions {
                hash_mib: HASH_MIB,
                threads: 1,
                ..K::tuned_options()
            },
            strength_options: StrengthOptions::default(),
            strength: Strength::full(),
            profile: EvalProfile::Default,
            eval: Arc::new(K::eval(EvalProfile::Default)),
        }
    }

    /// The searcher, built on first use.
    fn shared_searcher(&mut self) -> SharedSearcher<K> {
        let (options, profile) = (self.options, self.profile);
        Arc::clone(self.searcher.get_or_insert_with(|| {
            let hooks = K::hooks(profile);
            Arc::new(Mutex::new(Searcher::with_hooks(options, hooks)))
        }))
    }

    /// The game after `ply` moves of the line (`ply <= line.len()`).
    fn game_at(&self, ply: usize) -> K::Game {
        let mut game = K::Game::new(self.game.start().clone());
        for mv in &self.line[..ply] {
            game.play_unchecked(*mv);
        }
        if ply == self.line.len() {
            if let Some(result) = self.external {
                game.record(result);
            }
        }
        game
    }

    fn side_names() -> [&'static str; 2] {
        if K::NAME == "five-tigers" {
            ["X", "O"]
        } else if K::NAME == "jungle" {
            ["Red", "Blue"]
        } else {
            ["First", "Second"]
        }
    }

    /// Who played each move of the line.
    fn movers(&self) -> Vec<String> {
        let mut game = K::Game::new(self.game.start().clone());
        self.line
            .iter()
            .map(|mv| {
                let side = side_word(game.position().side_to_move());
                game.play_unchecked(*mv);
                side.to_string()
            })
            .collect()
    }

    /// Five Tigers: the points of the formations that the last move
    /// before the shown position's removals formed (see
    /// [`GameView::formed`]).
    fn formed(&self, movers: &[String]) -> Vec<String> {
        let ply = self.game.moves().len();
        let texts: Vec<String> = self.line[..ply].iter().map(|m| m.to_string()).collect();
        let Some(k) = texts.iter().rposition(|t| !t.starts_with('x')) else {
            return Vec::new();
        };
        let after = self.game_at(k + 1);
        let Some(tigers) = (after.position() as &dyn Any).downcast_ref::<FiveTigers>() else {
            return Vec::new();
        };
        let Some(point) = move_squares(&texts[k])
            .last()
            .and_then(|sq| sq.parse::<Point>().ok())
        else {
            return Vec::new();
        };
        let mover = if movers[k] == "first" {
            Side::First
        } else {
            Side::Second
        };
        let mut points: Vec<Point> = held_formations(tigers.pieces(mover))
            .filter(|f| f.points().any(|p| p == point))
            .flat_map(|f| f.points())
            .collect();
        points.sort_by_key(|p| p.index());
        points.dedup();
        points.iter().map(ToString::to_string).collect()
    }

    fn name_of(side: Side) -> &'static str {
        Self::side_names()[side.index()]
    }

    fn result_view(&self, outcome: Outcome) -> ResultView {
        // The words of the record's Termination tag too.
        let reason = reason_in(self.game.position(), outcome);
        let winner = outcome.winner().map(|side| Self::name_of(side).to_string());
        let text = match &winner {
            Some(name) => format!("{name} wins: {reason}."),
            None => format!("Draw: {reason}."),
        };
        ResultView {
            token: RecordResult::of(Some(outcome)).text().to_string(),
            winner,
            reason,
            text,
        }
    }
}

/// `n piece(s)`.
fn pieces(n: u8) -> String {
    if n == 1 {
        "1 piece".to_string()
    } else {
        format!("{n} pieces")
    }
}

impl<K: GameKit> WebGame for KitGame<K> {
    fn spec(&self) -> String {
        spec_of::<K>(self.game.start().rules())
    }

    fn view(&self, flip: bool) -> GameView {
        let position = self.game.position();
        let ply = self.game.moves().len();
        let last = ply.checked_sub(1).map(|i| self.line[i].to_string());
        let outcome = self.game.outcome();
        let to_move = position.side_to_move();
        let result = outcome.map(|o| self.result_view(o));
        let mut status = format!("{} to move", Self::name_of(to_move));
        let (mut removal, mut phase, mut hands) = (None, None, None);
        if let Some(tigers) = (position as &dyn Any).downcast_ref::<FiveTigers>() {
            hands = Some([tigers.hand(Side::First), tigers.hand(Side::Second)]);
            let placing = tigers.phase() == Phase::Placement;
            phase = Some(if placing { "place" } else { "move" }.to_string());
            status = format!(
                "{} to {}",
                Self::name_of(to_move),
                if placing { "place" } else { "step" }
            );
            if let Some((side, count)) = tigers.owed().first() {
                let (taker, victim) = (Self::name_of(side), Self::name_of(side.opponent()));
                status = if to_move == side {
                    format!("{taker} must remove {count} of {victim}'s pieces (loose ones first)")
                } else {
                    format!(
                        "{victim} has no loose piece: {victim} gives up one of its own ({taker} is owed {})",
                        pieces(count)
                    )
                };
                removal = Some(RemovalView {
                    side: taker.to_string(),
                    count,
                    chooser: Self::name_of(to_move).to_string(),
                });
            }
        }
        if let Some(result) = &result {
            status = result.text.clone();
        }
        let legal = if outcome.is_some() {
            Vec::new()
        } else {
            self.game
                .legal_moves()
                .iter()
                .map(|m| m.to_string())
                .collect()
        };
        let options = RenderOptions {
            marks: Marks {
                last: last.as_deref().map(move_squares).unwrap_or_default(),
                ..Marks::default()
            },
            flip,
            caption: false,
        };
        let svg = render_position::<K>(position, &options).unwrap_or_else(|e| {
            format!("<svg xmlns=\"http://www.w3.org/2000/svg\"><text x=\"10\" y=\"20\">{e}</text></svg>")
        });
        let names = Self::side_names();
        let movers = self.movers();
        let formed = self.formed(&movers);
        GameView {
            spec: self.spec(),
            game: K::NAME.to_string(),
            text: position.to_string(),
            start: self.game.start().to_string(),
            moves: self.line.iter().map(|m| m.to_string()).collect(),
            ply,
            to_move: side_word(to_move).to_string(),
            to_move_name: Self::name_of(to_move).to_string(),
            side_names: [names[0].to_string(), names[1].to_string()],
            legal,
            last,
            result,
            status,
            removal,
            phase,
            hands,
            movers,
            formed,
            svg,
        }
    }

    fn play(&mut self, text: &str) -> Result<(), GameError> {
        let bad = |reason: String| GameError::Move {
            text: text.chars().take(40).flat_map(char::escape_debug).collect(),
            reason,
        };
        let mv: MoveOf<K::Game> = text.trim().parse().map_err(|e| bad(format!("{e}")))?;
        if let Some(outcome) = self.game.outcome() {
            return Err(bad(format!("the game is over ({outcome})")));
        }
        self.game.play(mv).map_err(|e| bad(e.reason))?;
        let ply = self.game.moves().len();
        self.line.truncate(ply - 1);
        self.line.push(mv);
        self.external = None;
        Ok(())
    }

    fn undo(&mut self) -> Result<(), GameError> {
        let ply = self.game.moves().len();
        if ply == 0 {
            return Err(GameError::NothingToUndo);
        }
        self.line.truncate(ply - 1);
        self.external = None;
        self.game = self.game_at(ply - 1);
        Ok(())
    }

    fn goto(&mut self, ply: usize) -> Result<(), GameError> {
        if ply > self.line.len() {
            return Err(GameError::Ply {
                ply,
                len: self.line.len(),
            });
        }
        self.game = self.game_at(ply);
        Ok(())
    }

    fn record_tagged(&self, event: &str, tags: &[(&str, &str)]) -> String {
        let game = self.game_at(self.line.len());
        let mut record = Record::from_game::<K>(&game);
        let names = Self::side_names();
        record.set_tag("Event", event);
        record.set_tag("First", names[0]);
        record.set_tag("Second", names[1]);
        for (name, value) in tags {
            record.set_tag(name, value);
        }
        record.to_string()
    }

    fn search_task(&mut self) -> SearchTask {
        let searcher = self.shared_searcher();
        let eval = Arc::clone(&self.eval);
        let mut game = self.game.clone();
        let first = game.position().side_to_move() == Side::First;
        // The task searches at the level set, and the game's own sequence
        // moves on for the next search.
        let mut strength = self.strength.split();
        Box::new(move |limits, stop, report| {
            let mut searcher = searcher.lock().unwrap_or_else(|e| e.into_inner());
            let scale = K::STRENGTH;
            let result = searcher.search_at(
                &mut game,
                &*eval,
                limits,
                &mut strength,
                &scale,
                stop,
                |info| report(info_view(info, first)),
            );
            result.best_move.map(|mv| mv.to_string())
        })
    }

    fn search_here(
        &mut self,
        limits: Limits,
        poll: &mut dyn FnMut() -> bool,
        report: &mut dyn FnMut(&InfoView) -> bool,
    ) -> SearchDone {
        let searcher = self.shared_searcher();
        let mut searcher = searcher.lock().unwrap_or_else(|e| e.into_inner());
        let mut game = self.game.clone();
        let first = game.position().side_to_move() == Side::First;
        let stop = AtomicBool::new(false);
        let eval = Polled::new(&*self.eval, poll, &stop);
        let mut last = None;
        let on_info = |info: &SearchInfo<MoveOf<K::Game>>| {
            let view = info_view(info, first);
            if report(&view) {
                stop.store(true, Ordering::Relaxed);
            }
            // The best line's report stands for the iteration.
            if view.multipv.unwrap_or(1) == 1 {
                last = Some(view);
            }
        };
        // At full strength `search_at` is the plain search.
        let scale = K::STRENGTH;
        let result = searcher.search_at(
            &mut game,
            &eval,
            limits,
            &mut self.strength,
            &scale,
            &stop,
            on_info,
        );
        SearchDone {
            best: result.best_move.map(|mv| mv.to_string()),
            lines: result.lines.iter().map(|l| line_view(l, first)).collect(),
            info: last,
            nodes: result.nodes,
            stopped: stop.load(Ordering::Relaxed),
        }
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), GameError> {
        if name.eq_ignore_ascii_case("EvalProfile") {
            let profile: EvalProfile = value
                .parse()
                .map_err(|e: qi_engine::UnknownProfile| GameError::Option(e.to_string()))?;
            if !K::PROFILES.contains(&profile) {
                return Err(GameError::Option(format!(
                    "{} has no evaluation profile '{profile}'",
                    K::NAME
                )));
            }
            // The hooks go with the profile: the next search builds a
            // searcher with them.
            self.profile = profile;
            self.eval = Arc::new(K::eval(profile));
            self.searcher = None;
            return Ok(());
        }
        let mut options = self.options;
        match set_search_option(&mut options, name, value) {
            Ok(true) => {}
            Ok(false) => {
                let mut strength = self.strength_options;
                if !strength
                    .set(name, value)
                    .map_err(|e| GameError::Option(e.to_string()))?
                {
                    return Err(GameError::Option(format!(
                        "unknown option '{}'",
                        qi_core::Escaped(name)
                    )));
                }
                self.strength_options = strength;
                self.strength =
                    Strength::new(strength.level_for(&K::STRENGTH), strength.seed_or_random());
                return Ok(());
            }
            Err(e) => return Err(GameError::Option(e.to_string())),
        }
        if options.threads != 1 {
            return Err(GameError::Option(format!(
                "option 'Threads' takes only 1 here (the search runs on one thread), not '{}'",
                qi_core::Escaped(value)
            )));
        }
        if options.hash_mib > MAX_HASH_MIB {
            return Err(GameError::Option(format!(
                "option 'Hash' takes a number from 0 to {MAX_HASH_MIB} here, not '{}'",
                qi_core::Escaped(value)
            )));
        }
        if let Some(searcher) = &self.searcher {
            searcher
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .try_set_options(options)
                .map_err(|e| GameError::Option(e.to_string()))?;
        }
        self.options = options;
        Ok(())
    }

    fn options(&self) -> SearchOptions {
        self.options
    }

    fn search_memory(&self) -> usize {
        match &self.searcher {
            Some(_) => self.options.hash_mib << 20,
            None => 0,
        }
    }

    fn release_search_memory(&mut self) {
        self.searcher = None;
    }

    fn perft(&self, depth: u32) -> u64 {
        qi_search::perft(self.game.position(), depth)
    }

    fn render(&self, options: &RenderOptions) -> Result<String, GameError> {
        let mut options = options.clone();
        if options.marks.last.is_empty() {
            if let Some(last) = self.game.moves().last() {
                options.marks.last = move_squares(&last.to_string());
            }
        }
        Ok(render_position::<K>(self.game.position(), &options)?)
    }
}

/// `first` or `second`, as the view names sides.
pub(crate) fn side_word(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

fn line_view<M: ToString>(line: &PvLine<M>, first: bool) -> LineView {
    let value = line.score.value();
    LineView {
        score: line.score.to_string(),
        score_first: if first { value } else { -value },
        depth: line.depth,
        pv: line.pv.iter().map(ToString::to_string).collect(),
    }
}

fn info_view<M: ToString>(info: &SearchInfo<M>, first: bool) -> InfoView {
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
