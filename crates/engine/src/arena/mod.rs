//! Engine-against-engine games, adjudicated by the rules library: the match
//! loop behind `qi match`, generic over the game and over how a player is
//! reached (a child process speaking the protocol, or an engine in this
//! process).

mod clock;
mod elo;
mod sprt;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use qi_core::{Game, Outcome, Position, Side};
use qi_search::{Clock, Limits};

pub use clock::{TimeControl, TimeControlError};
pub use elo::{elo_of, Tally};
pub use sprt::{score_of, Hypothesis, Sprt, SprtError, SprtStatus};

use crate::dynamic::DynEngine;
use crate::kit::GameKit;
use crate::record::reason_in;

/// Why a player could not play: it loses the game (a forfeit).
///
/// ```
/// use qi_games::engine::arena::{InProcessPlayer, Player, PlayerError};
/// use qi_games::engine::{engine_for, options::Overrides, EvalProfile, Games};
/// use qi_games::prelude::*;
///
/// let engine = engine_for::<Games>("jungle", EvalProfile::Default, &Overrides::default())?;
/// let mut player = InProcessPlayer::new(engine);
/// // A move that is not legal there: the player cannot play.
/// let PlayerError(why) = player.best_move(None, &["a3a9".into()], &Limits::depth(1)).unwrap_err();
/// assert!(!why.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PlayerError(pub String);

/// What a player said about its move: the search's score and depth, when
/// it reported them.
///
/// ```
/// use qi_games::engine::arena::Verdict;
///
/// let verdict = Verdict { score: Some("cp 35".into()), depth: Some(9) };
/// assert_eq!(verdict.comment().as_deref(), Some("score cp 35 depth 9"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// The score in the protocol's words, from the mover's point of view:
    /// `cp 35` or `mate 3`.
    pub score: Option<String>,
    /// The depth of the search that chose the move.
    pub depth: Option<u32>,
}

impl Verdict {
    /// The comment of a game record (docs/records.md): `score cp 35 depth
    /// 9`, either part alone, or `None` when there is neither.
    ///
    /// ```
    /// use qi_games::engine::arena::Verdict;
    ///
    /// let depth_only = Verdict { score: None, depth: Some(4) };
    /// assert_eq!(depth_only.comment().as_deref(), Some("depth 4"));
    /// assert_eq!(Verdict::default().comment(), None);
    /// ```
    pub fn comment(&self) -> Option<String> {
        let mut parts = Vec::new();
        if let Some(score) = &self.score {
            parts.push(format!("score {score}"));
        }
        if let Some(depth) = self.depth {
            parts.push(format!("depth {depth}"));
        }
        (!parts.is_empty()).then(|| parts.join(" "))
    }
}

/// A player's answer: its move (in the game's notation) and what it said
/// about it.
///
/// ```
/// use qi_games::engine::arena::{Reply, Verdict};
///
/// let reply = Reply { mv: "a3a4".into(), verdict: Verdict { score: Some("cp 12".into()), depth: Some(6) } };
/// assert_eq!(reply.verdict.comment().as_deref(), Some("score cp 12 depth 6"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The move.
    pub mv: String,
    /// Its score and depth, when known.
    pub verdict: Verdict,
}

/// One side of a match.
///
/// A player of one's own: here, one that plays the first legal move,
/// against the engine.
///
/// ```
/// use qi_games::engine::arena::{
///     play_match, BoxedPlayer, InProcessPlayer, MatchConfig, Player, PlayerError, Reply, Verdict,
/// };
/// use qi_games::engine::{engine_for, options::Overrides, EvalProfile, Games};
/// use qi_games::five_tigers::Game;
/// use qi_games::prelude::*;
///
/// struct FirstMove;
///
/// impl Player for FirstMove {
///     fn new_game(&mut self) -> Result<(), PlayerError> {
///         Ok(())
///     }
///
///     fn best_move(&mut self, start: Option<&str>, moves: &[String], _: &Limits) -> Result<Reply, PlayerError> {
///         let error = |e: &dyn std::fmt::Display| PlayerError(e.to_string());
///         let start = match start {
///             Some(text) => text.parse::<FiveTigers>().map_err(|e| error(&e))?,
///             None => FiveTigers::default(),
///         };
///         let mut game = Game::new(start);
///         for mv in moves {
///             game.play(mv.parse().map_err(|e| error(&e))?).map_err(|e| error(&e))?;
///         }
///         let mv = game.legal_moves().first().ok_or(PlayerError("no move".into()))?.to_string();
///         Ok(Reply { mv, verdict: Verdict::default() })
///     }
/// }
///
/// let engine = engine_for::<Games>("five-tigers", EvalProfile::Default, &Overrides::default())?;
/// let config = MatchConfig::new(2).with_movetime(None).with_nodes(200);
/// let slots: Vec<[BoxedPlayer; 2]> = vec![[Box::new(FirstMove), Box::new(InProcessPlayer::new(engine))]];
/// let tally = play_match::<Game>(&config, &FiveTigers::default(), &[], slots, |_| {});
/// assert_eq!(tally.games(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Player {
    /// Gets ready for a new game (starting or restarting what it needs).
    ///
    /// ```
    /// use qi_games::engine::arena::{InProcessPlayer, Player};
    /// use qi_games::engine::{engine_for, options::Overrides, EvalProfile, Games};
    ///
    /// let engine = engine_for::<Games>("five-tigers", EvalProfile::Default, &Overrides::default())?;
    /// let mut player = InProcessPlayer::new(engine);
    /// player.new_game()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn new_game(&mut self) -> Result<(), PlayerError>;

    /// The move to play in the position reached from `start` (position
    /// text, or `None` for the start position) after `moves`, searched
    /// within `limits`: its `movetime` and `nodes` when set, and its
    /// `clock` (both sides' time left, increments, moves to go) under a
    /// time control.
    ///
    /// ```
    /// use qi_games::engine::arena::{InProcessPlayer, Player};
    /// use qi_games::engine::{engine_for, options::Overrides, EvalProfile, Games};
    /// use qi_games::prelude::*;
    ///
    /// let engine = engine_for::<Games>("jungle", EvalProfile::Default, &Overrides::default())?;
    /// let mut player = InProcessPlayer::new(engine);
    /// // Red's Lion next to the Blue den, Red to move: it enters.
    /// let start = "2L4/7/7/7/7/7/7/7/6r w 0 1";
    /// let reply = player.best_move(Some(start), &[], &Limits::depth(3))?;
    /// assert_eq!(reply.mv, "c9d9");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn best_move(
        &mut self,
        start: Option<&str>,
        moves: &[String],
        limits: &Limits,
    ) -> Result<Reply, PlayerError>;
}

/// A player that a match can hand to a thread of its own.
pub type BoxedPlayer = Box<dyn Player + Send>;

/// An engine of this process as a player.
///
/// ```
/// use qi_games::engine::arena::{InProcessPlayer, Player};
/// use qi_games::engine::{engine_for, options::Overrides, EvalProfile, Games};
/// use qi_games::prelude::*;
///
/// let engine = engine_for::<Games>("jungle", EvalProfile::Default, &Overrides::default())?;
/// let mut player = InProcessPlayer::new(engine);
/// player.new_game()?;
/// let reply = player.best_move(None, &["a3a4".into()], &Limits::depth(2))?;
/// assert!(reply.mv.parse::<qi_games::jungle::Move>().is_ok());
/// assert_eq!(reply.verdict.depth, Some(2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct InProcessPlayer {
    engine: Box<dyn DynEngine>,
}

impl InProcessPlayer {
    /// A player that asks `engine`.
    ///
    /// ```
    /// use qi_games::engine::arena::{InProcessPlayer, Player};
    /// use qi_games::engine::{engine_for, options::Overrides, EvalProfile, Games};
    /// use qi_games::prelude::*;
    ///
    /// let engine = engine_for::<Games>("five-tigers:ten", EvalProfile::Default, &Overrides::default())?;
    /// let mut player = InProcessPlayer::new(engine);
    /// // A move the engine cannot play is the player's error (a forfeit).
    /// assert!(player.best_move(None, &["z9".into()], &Limits::depth(1)).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(engine: Box<dyn DynEngine>) -> InProcessPlayer {
        InProcessPlayer { engine }
    }
}

impl Player for InProcessPlayer {
    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.engine.new_game();
        Ok(())
    }

    fn best_move(
        &mut self,
        start: Option<&str>,
        moves: &[String],
        limits: &Limits,
    ) -> Result<Reply, PlayerError> {
        self.engine
            .set_position(start, moves)
            .map_err(|e| PlayerError(e.to_string()))?;
        let best = self
            .engine
            .best_move(*limits)
            .ok_or_else(|| PlayerError("no move".to_string()))?;
        Ok(Reply {
            mv: best.mv,
            verdict: Verdict {
                score: Some(best.score.to_string()),
                depth: Some(best.depth),
            },
        })
    }
}

/// The settings of a match.
///
/// Fields may be added, so outside this crate a configuration is built
/// from [`MatchConfig::new`] (or [`Default`]) and the `with_` methods, or
/// by assigning the fields of such a value:
///
/// ```
/// use std::time::Duration;
///
/// use qi_games::engine::arena::MatchConfig;
///
/// // Ten games of 500 nodes a move, adjudicated a draw after 200 plies.
/// let config = MatchConfig::new(10).with_movetime(None).with_nodes(500).with_max_plies(200);
/// assert_eq!((config.games, config.movetime, config.nodes), (10, None, Some(500)));
/// assert_eq!(config.time_margin, Duration::from_millis(100));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct MatchConfig {
    /// Games to play (each opening twice, colours swapped).
    pub games: usize,
    /// Thinking time per move (`go movetime`).
    pub movetime: Option<Duration>,
    /// Nodes per move (`go nodes`).
    pub nodes: Option<u64>,
    /// The time control: clocks kept by the arena, sent with every move,
    /// and a side whose move takes longer than its time left (plus
    /// `time_margin`) loses on time.
    pub tc: Option<TimeControl>,
    /// How far a side may overstep its clock before it loses on time.
    pub time_margin: Duration,
    /// Plies after which a game is adjudicated a draw.
    pub max_plies: usize,
    /// A sequential probability ratio test: the match stops as soon as it
    /// accepts a hypothesis.
    pub sprt: Option<Sprt>,
}

impl Default for MatchConfig {
    /// Two games of 100 ms a move, a 100 ms time margin, a draw after
    /// 1000 plies, no time control, node limit or SPRT.
    fn default() -> MatchConfig {
        MatchConfig {
            games: 2,
            movetime: Some(Duration::from_millis(100)),
            nodes: None,
            tc: None,
            time_margin: Duration::from_millis(100),
            max_plies: 1000,
            sprt: None,
        }
    }
}

impl MatchConfig {
    /// `games` games with the [`Default`] settings otherwise.
    ///
    /// ```
    /// use qi_games::engine::arena::MatchConfig;
    ///
    /// assert_eq!(MatchConfig::new(2), MatchConfig::default());
    /// assert_eq!(MatchConfig::new(100).games, 100);
    /// ```
    pub fn new(games: usize) -> MatchConfig {
        MatchConfig {
            games,
            ..MatchConfig::default()
        }
    }

    /// This configuration with `games` games.
    ///
    /// ```
    /// use qi_games::engine::arena::MatchConfig;
    ///
    /// assert_eq!(MatchConfig::default().with_games(50), MatchConfig::new(50));
    /// ```
    pub fn with_games(self, games: usize) -> MatchConfig {
        MatchConfig { games, ..self }
    }

    /// This configuration with `movetime` per move (`None`: no time
    /// limit per move, as with a node limit or a time control alone).
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// use qi_games::engine::arena::MatchConfig;
    ///
    /// let config = MatchConfig::new(2).with_movetime(Some(Duration::from_millis(20)));
    /// assert_eq!(config.movetime, Some(Duration::from_millis(20)));
    /// ```
    pub fn with_movetime(self, movetime: Option<Duration>) -> MatchConfig {
        MatchConfig { movetime, ..self }
    }

    /// This configuration with `nodes` nodes per move.
    ///
    /// ```
    /// use qi_games::engine::arena::MatchConfig;
    ///
    /// assert_eq!(MatchConfig::new(2).with_nodes(1_000).nodes, Some(1_000));
    /// ```
    pub fn with_nodes(self, nodes: u64) -> MatchConfig {
        MatchConfig {
            nodes: Some(nodes),
            ..self
        }
    }

    /// This configuration with the time control `tc`.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// use qi_games::engine::arena::MatchConfig;
    ///
    /// // Ten seconds a game and a tenth a move, no fixed time per move.
    /// let config = MatchConfig::new(4).with_movetime(None).with_tc("10+0.1".parse()?);
    /// let tc = config.tc.unwrap();
    /// assert_eq!((tc.base, tc.inc), (Duration::from_secs(10), Duration::from_millis(100)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_tc(self, tc: TimeControl) -> MatchConfig {
        MatchConfig {
            tc: Some(tc),
            ..self
        }
    }

    /// This configuration letting a side overstep its clock by
    /// `time_margin`.
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// use qi_games::engine::arena::MatchConfig;
    ///
    /// let config = MatchConfig::new(2).with_time_margin(Duration::from_secs(1));
    /// assert_eq!(config.time_margin, Duration::from_secs(1));
    /// ```
    pub fn with_time_margin(self, time_margin: Duration) -> MatchConfig {
        MatchConfig {
            time_margin,
            ..self
        }
    }

    /// This configuration adjudicating a draw after `max_plies` plies.
    ///
    /// ```
    /// use qi_games::engine::arena::MatchConfig;
    ///
    /// assert_eq!(MatchConfig::new(2).with_max_plies(300).max_plies, 300);
    /// ```
    pub fn with_max_plies(self, max_plies: usize) -> MatchConfig {
        MatchConfig { max_plies, ..self }
    }

    /// This configuration stopping as soon as `sprt` accepts a
    /// hypothesis.
    ///
    /// ```
    /// use qi_games::engine::arena::{MatchConfig, Sprt};
    ///
    /// // Up to 1000 games: is B at least 10 Elo better than A, or no better?
    /// let config = MatchConfig::new(1000).with_sprt(Sprt::new(0.0, 10.0, 0.05, 0.05)?);
    /// assert_eq!(config.sprt.map(|s| s.elo1), Some(10.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_sprt(self, sprt: Sprt) -> MatchConfig {
        MatchConfig {
            sprt: Some(sprt),
            ..self
        }
    }
}

/// How one game ended, from player A's point of view.
///
/// ```
/// use qi_games::engine::arena::GameResult;
///
/// let results = [GameResult::Win, GameResult::Draw, GameResult::Loss, GameResult::Win];
/// let points: u32 = results.iter().map(|r| r.half_points()).sum();
/// assert_eq!(points, 5); // 2.5 of 4
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// A won.
    Win,
    /// Drawn.
    Draw,
    /// A lost.
    Loss,
}

impl GameResult {
    /// A's points in half points: 2 for a win, 1 for a draw, 0 for a loss.
    ///
    /// ```
    /// use qi_games::engine::arena::GameResult;
    ///
    /// assert_eq!(GameResult::Draw.half_points(), 1);
    /// ```
    pub fn half_points(self) -> u32 {
        match self {
            GameResult::Win => 2,
            GameResult::Draw => 1,
            GameResult::Loss => 0,
        }
    }
}

/// One finished game of a match.
///
/// ```
/// use qi_games::engine::arena::{play_match, BoxedPlayer, InProcessPlayer, MatchConfig};
/// use qi_games::engine::{engine_for, options::Overrides, EvalProfile, Games};
/// use qi_games::five_tigers::Game;
/// use qi_games::prelude::*;
///
/// let player = || -> BoxedPlayer {
///     let engine = engine_for::<Games>("five-tigers", EvalProfile::Default, &Overrides::default());
///     Box::new(InProcessPlayer::new(engine.unwrap()))
/// };
/// // Ten plies, then a draw by adjudication.
/// let config = MatchConfig::new(2).with_movetime(None).with_nodes(100).with_max_plies(10);
/// let mut reports = Vec::new();
/// play_match::<Game>(&config, &FiveTigers::default(), &[], vec![[player(), player()]], |r| {
///     reports.push(r.clone())
/// });
/// assert_eq!(reports[1].a_side, Side::Second); // colours swapped
/// assert!(reports.iter().all(|r| r.moves.len() == r.verdicts.len()));
/// assert!(reports.iter().all(|r| r.outcome.is_none() && r.moves.len() == 10));
/// assert_eq!(reports[1].tally.games(), 2);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct GameReport {
    /// 0-based index of the game.
    pub index: usize,
    /// The side player A played.
    pub a_side: Side,
    /// The result for A.
    pub result: GameResult,
    /// Why the game ended (the outcome, a forfeit, an adjudication).
    pub reason: String,
    /// The outcome when the rules ended the game (`None` for a forfeit or
    /// an adjudication).
    pub outcome: Option<Outcome>,
    /// Why the game ended in a record's words (its `Termination` tag): the
    /// rules' reason as the game names it in the final position (`den
    /// entered`, `no step left`, `no capture for 100 plies`, see
    /// [`reason_in`]), else `reason`.
    pub termination: String,
    /// Which of the match's openings the game started from (0 when the
    /// match has none and the game started from the start position).
    pub opening: usize,
    /// The moves played.
    pub moves: Vec<String>,
    /// What the player said about each move of `moves`.
    pub verdicts: Vec<Verdict>,
    /// The running score after this game (and its pair, when this game
    /// finished one).
    pub tally: Tally,
    /// The SPRT after this game, when the match runs one.
    pub sprt: Option<SprtStatus>,
}

/// One game as soon as it ends, before the games dealt before it may have
/// ended ([`play_match_with`]): what a record of it needs.
///
/// ```
/// use std::sync::atomic::AtomicBool;
///
/// use qi_games::engine::arena::{play_match_with, BoxedPlayer, InProcessPlayer, MatchConfig};
/// use qi_games::engine::{engine_for, options::Overrides, EvalProfile, Games};
/// use qi_games::five_tigers::Game;
/// use qi_games::prelude::*;
///
/// let player = || -> BoxedPlayer {
///     let engine = engine_for::<Games>("five-tigers", EvalProfile::Default, &Overrides::default());
///     Box::new(InProcessPlayer::new(engine.unwrap()))
/// };
/// let config = MatchConfig::new(2).with_movetime(None).with_nodes(100).with_max_plies(6);
/// let mut finished = Vec::new();
/// let stop = AtomicBool::new(false);
/// let slots = vec![[player(), player()]];
/// play_match_with::<Game>(&config, &FiveTigers::default(), &[], slots, &stop, |g| finished.push(g.clone()), |_| {});
/// finished.sort_by_key(|g| g.index);
/// assert_eq!(finished.iter().map(|g| g.moves.len()).collect::<Vec<_>>(), [6, 6]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame {
    /// 0-based index of the game.
    pub index: usize,
    /// The side player A played.
    pub a_side: Side,
    /// Which of the match's openings the game started from (0 when the
    /// match has none and the game started from the start position).
    pub opening: usize,
    /// The result for A.
    pub result: GameResult,
    /// Why the game ended (the outcome, a forfeit, an adjudication).
    pub reason: String,
    /// The outcome when the rules ended the game.
    pub outcome: Option<Outcome>,
    /// Why the game ended in a record's words (see
    /// [`GameReport::termination`]).
    pub termination: String,
    /// The moves played.
    pub moves: Vec<String>,
    /// What the player said about each move of `moves`.
    pub verdicts: Vec<Verdict>,
}

/// Why an opening suite was refused ([`read_openings`]); `E` is the
/// game's position text error.
///
/// ```
/// use qi_games::engine::arena::{read_openings, OpeningsError};
/// use qi_games::prelude::*;
///
/// let start = Jungle::default();
/// let refused = read_openings(&start, Some("# header\n\n7/3L3/7\n"));
/// assert!(matches!(refused, Err(OpeningsError::Position { line: 3, .. })));
/// assert_eq!(read_openings(&start, Some("# nothing\n")), Err(OpeningsError::Empty));
/// // Red's Lion already in the Blue den: decided.
/// let decided = read_openings(&start, Some("3L3/7/7/7/7/7/7/7/6r b 0 1"));
/// assert_eq!(decided, Err(OpeningsError::Decided { line: 1 }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OpeningsError<E> {
    /// A line is no position text of the game under the suite's rules.
    #[error("line {line}: {error}")]
    Position {
        /// The line (1-based).
        line: usize,
        /// Why its text was refused.
        error: E,
    },
    /// A line's position is already decided (no game can be played from it).
    #[error("line {line}: the position is already decided")]
    Decided {
        /// The line (1-based).
        line: usize,
    },
    /// The suite has no position.
    #[error("no position")]
    Empty,
}

/// Reads an opening suite: one position text a line (read like `start`'s);
/// blank lines and lines starting with `#` are skipped, and so is a
/// byte-order mark at the start. Without text: the start position alone.
///
/// ```
/// use qi_games::engine::arena::read_openings;
/// use qi_games::jungle::Rules;
/// use qi_games::prelude::*;
///
/// let start = Jungle::new(Rules::datou());
/// let suite = "# two openings\n7/3L3/7/7/7/7/7/7/6l w 0 1\n\n7/3L3/7/7/7/7/7/7/6l b 0 1\n";
/// let openings = read_openings(&start, Some(suite))?;
/// assert_eq!(openings.len(), 2);
/// // Read under the start's rules.
/// assert!(openings.iter().all(|pos| pos.rules() == &Rules::datou()));
/// assert_eq!(read_openings(&start, None)?, [start]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_openings<P: Position>(
    start: &P,
    text: Option<&str>,
) -> Result<Vec<P>, OpeningsError<P::ParseError>> {
    let Some(text) = text else {
        return Ok(vec![start.clone()]);
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = start
            .with_text(line)
            .map_err(|error| OpeningsError::Position { line: i + 1, error })?;
        if pos.is_game_over() {
            return Err(OpeningsError::Decided { line: i + 1 });
        }
        openings.push(pos);
    }
    if openings.is_empty() {
        return Err(OpeningsError::Empty);
    }
    Ok(openings)
}

/// The built-in opening suite of game `K` ([`GameKit::OPENINGS`]) read for
/// `start`'s rules: `None` when the game has none, or when a position of
/// it does not load under these rules (a suite written for one preset
/// need not fit another's board or piece count), so that the caller can
/// fall back to the start position.
///
/// ```
/// use qi_games::engine::arena::builtin_openings;
/// use qi_games::five_tigers::Rules;
/// use qi_games::prelude::*;
///
/// assert_eq!(builtin_openings::<JungleKit>(&Jungle::default()).map(|o| o.len()), Some(50));
/// // Five Tigers' suite has more than the ten pieces a side of `ten`.
/// assert!(builtin_openings::<FiveTigersKit>(&FiveTigers::new(Rules::ten())).is_none());
/// ```
pub fn builtin_openings<K: GameKit>(start: &K::Position) -> Option<Vec<K::Position>> {
    read_openings(start, Some(K::OPENINGS?)).ok()
}

/// Plays a match of `config.games` games between player A and player B
/// from `openings` (each played twice, A first with the first side; with
/// no openings, every game from `start`), one
/// game on each of `slots` at a time: each slot is a pair of players (A,
/// B) with a thread of its own, so `slots.len()` games run in parallel.
/// Games are dealt to the slots in order and reported to `on_game` in
/// order of their index, so the running tally (and an SPRT's decision) is
/// the same whatever the slots' number and speed. With an SPRT the match
/// ends at the first game whose tally crosses a bound; games still running
/// then are abandoned. Returns A's score.
///
/// ```
/// use qi_games::engine::arena::{play_match, BoxedPlayer, InProcessPlayer, MatchConfig};
/// use qi_games::engine::{engine_for, options::Overrides, EvalProfile, Games};
/// use qi_games::five_tigers::{FiveTigers, Game};
///
/// let player = || -> BoxedPlayer {
///     let engine = engine_for::<Games>("five-tigers", EvalProfile::Default, &Overrides::default());
///     Box::new(InProcessPlayer::new(engine.unwrap()))
/// };
/// // Two games (colours swapped) of 200 nodes a move on one slot.
/// let config = MatchConfig::new(2).with_movetime(None).with_nodes(200);
/// let mut reports = Vec::new();
/// let tally = play_match::<Game>(&config, &FiveTigers::default(), &[], vec![[player(), player()]], |report| {
///     reports.push((report.index, report.result));
/// });
/// assert_eq!(tally.games(), 2);
/// assert_eq!(reports.iter().map(|r| r.0).collect::<Vec<_>>(), [0, 1]);
/// ```
pub fn play_match<G: Game>(
    config: &MatchConfig,
    start: &G::Position,
    openings: &[G::Position],
    slots: Vec<[BoxedPlayer; 2]>,
    on_game: impl FnMut(&GameReport),
) -> Tally
where
    G::Position: Send + Sync + 'static,
{
    let stop = AtomicBool::new(false);
    play_match_with::<G>(config, start, openings, slots, &stop, |_| {}, on_game)
}

/// [`play_match`], stopped from outside too, and telling each game as
/// soon as it ends: raising `stop` (a signal, a record that cannot be
/// written) abandons the games in progress (a player that fails once it is
/// raised does not lose: its game is not counted), starts no new one, and
/// returns the tally of the games reported. `on_finished` gets each game
/// the moment it ends, in the order they end (so a record of it is never
/// held back behind a longer game dealt before it), on the caller's
/// thread; `on_game` then gets it in order of index, with the tally.
///
/// ```
/// use std::sync::atomic::AtomicBool;
///
/// use qi_games::engine::arena::{play_match_with, BoxedPlayer, InProcessPlayer, MatchConfig};
/// use qi_games::engine::{engine_for, options::Overrides, EvalProfile, Games};
/// use qi_games::five_tigers::Game;
/// use qi_games::prelude::*;
///
/// let player = || -> BoxedPlayer {
///     let engine = engine_for::<Games>("five-tigers", EvalProfile::Default, &Overrides::default());
///     Box::new(InProcessPlayer::new(engine.unwrap()))
/// };
/// let config = MatchConfig::new(4).with_movetime(None).with_nodes(100);
/// let stop = AtomicBool::new(false);
/// let (mut finished, mut reported) = (0, 0);
/// let slots = vec![[player(), player()], [player(), player()]];
/// let tally = play_match_with::<Game>(
///     &config, &FiveTigers::default(), &[], slots, &stop,
///     |_| finished += 1,
///     |_| reported += 1,
/// );
/// assert_eq!((tally.games(), finished, reported), (4, 4, 4));
/// ```
pub fn play_match_with<G: Game>(
    config: &MatchConfig,
    start: &G::Position,
    openings: &[G::Position],
    slots: Vec<[BoxedPlayer; 2]>,
    stop: &AtomicBool,
    mut on_finished: impl FnMut(&FinishedGame),
    mut on_game: impl FnMut(&GameReport),
) -> Tally
where
    G::Position: Send + Sync + 'static,
{
    let next = &AtomicUsize::new(0);
    let mut tally = Tally::default();
    thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, Ended)>();
        for mut players in slots {
            let tx = tx.clone();
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::SeqCst);
                if index >= config.games || stop.load(Ordering::SeqCst) {
                    return;
                }
                let (opening, a_side) = deal(index, openings.len());
                let game = G::new(openings.get(opening).unwrap_or(start).clone());
                let Some(ended) = play_game(config, &mut players, start, game, a_side, stop) else {
                    return;
                };
                if tx.send((index, ended)).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        let mut waiting = BTreeMap::new();
        let mut reported = 0;
        let mut counter = Counter::default();
        let mut decided = false;
        for (index, ended) in rx {
            let (opening, a_side) = deal(index, openings.len());
            let finished = FinishedGame {
                index,
                a_side,
                opening,
                result: ended.result,
                reason: ended.reason,
                outcome: ended.outcome,
                termination: ended.termination,
                moves: ended.moves,
                verdicts: ended.verdicts,
            };
            on_finished(&finished);
            if decided {
                continue;
            }
            waiting.insert(index, finished);
            while let Some(finished) = waiting.remove(&reported) {
                reported += 1;
                let report = counter.count(config, finished);
                on_game(&report);
                if report.sprt.is_some_and(|s| s.decision.is_some()) {
                    // The decision is this game's: those still running, or
                    // ended after a gap, do not count.
                    decided = true;
                    waiting.clear();
                    stop.store(true, Ordering::SeqCst);
                    break;
                }
            }
        }
        // Stopped from outside: the games that ended after one that did
        // not count too (every game that ended is reported).
        for finished in std::mem::take(&mut waiting).into_values() {
            on_game(&counter.count(config, finished));
        }
        tally = counter.tally;
    });
    tally
}

/// The running tally of the games reported.
#[derive(Default)]
struct Counter {
    tally: Tally,
    /// The index and half points of the last game that opened a pair.
    first_of_pair: Option<(usize, u32)>,
}

impl Counter {
    /// Counts `game` (the games reported so far come before it) and makes
    /// its report; a pair is counted only when both its games are.
    fn count(&mut self, config: &MatchConfig, game: FinishedGame) -> GameReport {
        let tally = &mut self.tally;
        match game.result {
            GameResult::Win => tally.wins += 1,
            GameResult::Draw => tally.draws += 1,
            GameResult::Loss => tally.losses += 1,
        }
        let half = game.result.half_points();
        if game.index.is_multiple_of(2) {
            self.first_of_pair = Some((game.index, half));
        } else if let Some((first, first_half)) = self.first_of_pair.take() {
            if first + 1 == game.index {
                tally.pairs[(first_half + half) as usize] += 1;
            }
        }
        GameReport {
            index: game.index,
            a_side: game.a_side,
            result: game.result,
            reason: game.reason,
            outcome: game.outcome,
            termination: game.termination,
            opening: game.opening,
            moves: game.moves,
            verdicts: game.verdicts,
            tally: *tally,
            sprt: config.sprt.map(|sprt| sprt.status(tally)),
        }
    }
}

/// The opening and A's side of game `index`: each opening twice, A first
/// with the first side, then with the second. Without openings, every
/// game is dealt opening 0, which the caller reads as the start.
fn deal(index: usize, openings: usize) -> (usize, Side) {
    let a_side = if index.is_multiple_of(2) {
        Side::First
    } else {
        Side::Second
    };
    ((index / 2) % openings.max(1), a_side)
}

/// How one game ended.
struct Ended {
    /// The result for A.
    result: GameResult,
    /// Why.
    reason: String,
    /// The rules' outcome, when the rules ended it.
    outcome: Option<Outcome>,
    /// Why, in a record's words.
    termination: String,
    /// The moves played.
    moves: Vec<String>,
    /// What the players said about them.
    verdicts: Vec<Verdict>,
}

/// Both sides' clocks in one game under a time control.
struct Clocks {
    tc: TimeControl,
    /// Time left, by side index.
    left: [Duration; 2],
    /// Moves made, by side index.
    made: [u32; 2],
}

impl Clocks {
    fn new(tc: TimeControl) -> Clocks {
        Clocks {
            tc,
            left: [tc.base; 2],
            made: [0; 2],
        }
    }

    /// The clock part of the limits for `side`'s move.
    fn clock(&self, side: Side) -> Clock {
        let mut clock = Clock::default();
        clock.time = self.left.map(Some);
        clock.inc = [Some(self.tc.inc); 2];
        clock.movestogo = self.tc.moves_to_go(self.made[side.index()]);
        clock
    }

    /// Charges `side` for a move that took `used`: `Err` with the time it
    /// had when that oversteps it by more than `margin`; otherwise its
    /// time left less `used` (at least zero), plus the increment, plus a
    /// new period's time when one begins.
    fn charge(&mut self, side: Side, used: Duration, margin: Duration) -> Result<(), Duration> {
        let i = side.index();
        let left = self.left[i];
        if used > left + margin {
            return Err(left);
        }
        self.made[i] += 1;
        self.left[i] = left.saturating_sub(used) + self.tc.inc;
        if self
            .tc
            .moves
            .is_some_and(|moves| self.made[i].is_multiple_of(moves))
        {
            self.left[i] += self.tc.base;
        }
        Ok(())
    }
}

/// Plays one game; `None` when `stop` was raised before it ended.
fn play_game<G: Game<Position: 'static>>(
    config: &MatchConfig,
    players: &mut [BoxedPlayer; 2],
    start: &G::Position,
    mut game: G,
    a_side: Side,
    stop: &AtomicBool,
) -> Option<Ended> {
    let mut moves: Vec<String> = Vec::new();
    let mut verdicts: Vec<Verdict> = Vec::new();
    let player_of = |side: Side| if side == a_side { 0 } else { 1 };
    let result_for_loser = |loser: usize| {
        if loser == 0 {
            GameResult::Loss
        } else {
            GameResult::Win
        }
    };
    let mut clocks = config.tc.map(Clocks::new);
    let setup = (game.position() != start).then(|| game.position().to_string());
    let (result, reason, outcome) = 'game: {
        for (which, player) in players.iter_mut().enumerate() {
            if let Err(e) = player.new_game() {
                if stop.load(Ordering::SeqCst) {
                    return None;
                }
                break 'game (result_for_loser(which), e.to_string(), None);
            }
        }
        loop {
            if stop.load(Ordering::SeqCst) {
                return None;
            }
            if let Some(outcome) = game.outcome() {
                let result = match outcome.winner() {
                    None => GameResult::Draw,
                    Some(side) if side == a_side => GameResult::Win,
                    Some(_) => GameResult::Loss,
                };
                break 'game (result, outcome.to_string(), Some(outcome));
            }
            if moves.len() >= config.max_plies {
                let reason = format!("adjudicated draw after {} plies", moves.len());
                break 'game (GameResult::Draw, reason, None);
            }
            let side = game.position().side_to_move();
            let which = player_of(side);
            let mut limits = Limits::default();
            limits.movetime = config.movetime;
            limits.nodes = config.nodes;
            limits.clock = clocks.as_ref().map(|c| c.clock(side)).unwrap_or_default();
            let began = Instant::now();
            let answer = players[which].best_move(setup.as_deref(), &moves, &limits);
            let used = began.elapsed();
            // Stopped while it thought (its engine may have been killed
            // for it): the game is abandoned, no one forfeits.
            if stop.load(Ordering::SeqCst) {
                return None;
            }
            // The clock first: a player that failed after its time ran out
            // (an engine that never answered) lost on time.
            if let Some(clocks) = &mut clocks {
                if let Err(left) = clocks.charge(side, used, config.time_margin) {
                    let mut reason = format!(
                        "time forfeit: {side} took {} ms with {} ms left",
                        used.as_millis(),
                        left.as_millis()
                    );
                    if let Err(e) = &answer {
                        reason += &format!(" ({e})");
                    }
                    break 'game (result_for_loser(which), reason, None);
                }
            }
            let reply = match answer {
                Ok(reply) => reply,
                Err(e) => {
                    let reason = format!("{side} forfeits: {e}");
                    break 'game (result_for_loser(which), reason, None);
                }
            };
            let text = reply.mv;
            let played = text
                .parse::<<G::Position as Position>::Move>()
                .map_err(|e| e.to_string())
                .and_then(|mv| game.play(mv).map_err(|e| e.reason.to_string()));
            if let Err(reason) = played {
                let reason = format!(
                    "{side} forfeits: illegal move '{}': {reason}",
                    qi_core::Escaped(&text)
                );
                break 'game (result_for_loser(which), reason, None);
            }
            moves.push(text);
            verdicts.push(reply.verdict);
        }
    };
    let termination = match outcome {
        Some(outcome) => reason_in(game.position(), outcome),
        None => reason.clone(),
    };
    Some(Ended {
        result,
        reason,
        outcome,
        termination,
        moves,
        verdicts,
    })
}
