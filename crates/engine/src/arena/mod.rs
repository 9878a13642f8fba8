//! Engine-against-engine games, adjudicated by the rules library: the match
//! loop behind `qi match`, generic over the game and over how a player is
//! reached (a child process speaking the protocol, or an engine in this
//! process).

mod elo;

use std::time::Duration;

use qi_core::{Game, Outcome, Position, Side};
use qi_search::Limits;

pub use elo::Tally;

use crate::dynamic::DynEngine;

/// Why a player could not play: it loses the game (a forfeit).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PlayerError(pub String);

/// One side of a match.
pub trait Player {
    /// Gets ready for a new game (starting or restarting what it needs).
    fn new_game(&mut self) -> Result<(), PlayerError>;

    /// The move to play (in the game's notation) in the position reached
    /// from `start` (position text, or `None` for the start position) after
    /// `moves`, thinking for `movetime`.
    fn best_move(
        &mut self,
        start: Option<&str>,
        moves: &[String],
        movetime: Duration,
    ) -> Result<String, PlayerError>;
}

/// An engine of this process as a player.
pub struct InProcessPlayer {
    engine: Box<dyn DynEngine>,
}

impl InProcessPlayer {
    /// A player that asks `engine`.
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
        movetime: Duration,
    ) -> Result<String, PlayerError> {
        self.engine
            .set_position(start, moves)
            .map_err(|e| PlayerError(e.to_string()))?;
        self.engine
            .best_move(Limits::movetime(movetime))
            .ok_or_else(|| PlayerError("no move".to_string()))
    }
}

/// The settings of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchConfig {
    /// Games to play (each opening twice, colours swapped).
    pub games: usize,
    /// Thinking time per move.
    pub movetime: Duration,
    /// Plies after which a game is adjudicated a draw.
    pub max_plies: usize,
}

/// How one game ended, from player A's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// A won.
    Win,
    /// Drawn.
    Draw,
    /// A lost.
    Loss,
}

/// One finished game of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// Which of the match's openings the game started from.
    pub opening: usize,
    /// The moves played.
    pub moves: Vec<String>,
    /// The running score after this game.
    pub tally: Tally,
}

/// Reads an opening suite: one position text a line (read like `start`'s);
/// blank lines and lines starting with `#` are skipped. Without text: the
/// start position alone.
pub fn read_openings<P: Position>(start: &P, text: Option<&str>) -> Result<Vec<P>, String> {
    let Some(text) = text else {
        return Ok(vec![start.clone()]);
    };
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = start
            .with_text(line)
            .map_err(|e| format!("line {}: {e}", i + 1))?;
        if pos.is_game_over() {
            return Err(format!("line {}: the position is already decided", i + 1));
        }
        openings.push(pos);
    }
    if openings.is_empty() {
        return Err("no position".into());
    }
    Ok(openings)
}

/// Plays a match of `config.games` games between `players[0]` (A) and
/// `players[1]` (B) from `openings` (each played twice, A first with the
/// first side), calling `on_game` after each game; returns A's score.
pub fn play_match<G: Game>(
    config: &MatchConfig,
    start: &G::Position,
    openings: &[G::Position],
    players: [&mut dyn Player; 2],
    mut on_game: impl FnMut(&GameReport),
) -> Tally {
    let mut players = players;
    let mut tally = Tally::default();
    for index in 0..config.games {
        let opening = (index / 2) % openings.len();
        let a_side = if index % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let Ended {
            result,
            reason,
            outcome,
            moves,
        } = play_game(
            config,
            &mut players,
            start,
            G::new(openings[opening].clone()),
            a_side,
        );
        match result {
            GameResult::Win => tally.wins += 1,
            GameResult::Draw => tally.draws += 1,
            GameResult::Loss => tally.losses += 1,
        }
        on_game(&GameReport {
            index,
            a_side,
            result,
            reason,
            outcome,
            opening,
            moves,
            tally,
        });
    }
    tally
}

/// How one game ended.
struct Ended {
    /// The result for A.
    result: GameResult,
    /// Why.
    reason: String,
    /// The rules' outcome, when the rules ended it.
    outcome: Option<Outcome>,
    /// The moves played.
    moves: Vec<String>,
}

/// Plays one game.
fn play_game<G: Game>(
    config: &MatchConfig,
    players: &mut [&mut dyn Player; 2],
    start: &G::Position,
    mut game: G,
    a_side: Side,
) -> Ended {
    let ended = |result, reason, outcome, moves| Ended {
        result,
        reason,
        outcome,
        moves,
    };
    let player_of = |side: Side| if side == a_side { 0 } else { 1 };
    let result_for_loser = |loser: usize| {
        if loser == 0 {
            GameResult::Loss
        } else {
            GameResult::Win
        }
    };
    let mut moves: Vec<String> = Vec::new();
    for (which, player) in players.iter_mut().enumerate() {
        if let Err(e) = player.new_game() {
            return ended(result_for_loser(which), e.to_string(), None, moves);
        }
    }
    let setup = (game.position() != start).then(|| game.position().to_string());
    loop {
        if let Some(outcome) = game.outcome() {
            let result = match outcome.winner() {
                None => GameResult::Draw,
                Some(side) if side == a_side => GameResult::Win,
                Some(_) => GameResult::Loss,
            };
            return ended(result, outcome.to_string(), Some(outcome), moves);
        }
        if moves.len() >= config.max_plies {
            let reason = format!("adjudicated draw after {} plies", moves.len());
            return ended(GameResult::Draw, reason, None, moves);
        }
        let side = game.position().side_to_move();
        let which = player_of(side);
        let text = match players[which].best_move(setup.as_deref(), &moves, config.movetime) {
            Ok(text) => text,
            Err(e) => {
                let reason = format!("{side} forfeits: {e}");
                return ended(result_for_loser(which), reason, None, moves);
            }
        };
        let played = text
            .parse::<<G::Position as Position>::Move>()
            .map_err(|e| e.to_string())
            .and_then(|mv| game.play(mv).map_err(|e| e.reason));
        if let Err(reason) = played {
            let reason = format!("{side} forfeits: illegal move '{text}': {reason}");
            return ended(result_for_loser(which), reason, None, moves);
        }
        moves.push(text);
    }
}
