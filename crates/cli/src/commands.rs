//! `qi perft` and `qi moves`, and the position options they share.

use std::time::Instant;

use clap::Args;
use qi_core::{Game, Position};
use qi_engine::{GameFn, GameKit, Games, Registry, RulesOf};

use crate::error::CliError;

/// The deepest perft the command accepts.
const MAX_PERFT_DEPTH: u32 = 30;

/// `--game`, `--fen`, `--moves`: which game, and which position of it.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// The game and its rules.
    #[arg(long, value_name = "G", default_value_t = Games::default_spec(), help = crate::games_help())]
    pub game: String,
    /// Start from this position text instead of the start position.
    #[arg(long, value_name = "TEXT")]
    pub fen: Option<String>,
    /// Then play these moves (space-separated), each checked.
    #[arg(long, value_name = "\"m1 m2 ...\"")]
    pub moves: Option<String>,
}

impl PositionArgs {
    /// The position `--game` and `--fen` describe, before `--moves`.
    fn start<K: GameKit>(&self, rules: RulesOf<K>) -> Result<K::Position, CliError> {
        let start = K::Position::new(rules);
        match &self.fen {
            Some(text) => start
                .with_text(text)
                .map_err(|e| CliError::Fen(e.to_string())),
            None => Ok(start),
        }
    }

    /// Plays each move of `--moves` with `play`, naming the first one
    /// that cannot be read or is refused.
    fn play_moves<M: std::str::FromStr>(
        &self,
        mut play: impl FnMut(M) -> Result<(), qi_core::IllegalMove>,
    ) -> Result<(), CliError>
    where
        M::Err: std::fmt::Display,
    {
        for (i, text) in self
            .moves
            .iter()
            .flat_map(|l| l.split_whitespace())
            .enumerate()
        {
            let bad = |reason: String| CliError::Move {
                index: i + 1,
                text: text.to_string(),
                reason,
            };
            let mv: M = text.parse().map_err(|e| bad(format!("{e}")))?;
            play(mv).map_err(|e| bad(e.reason.to_string()))?;
        }
        Ok(())
    }

    /// The position of game `K` under `rules` that the options describe,
    /// the moves checked against the board rules only (perft counts board
    /// moves).
    pub fn position<K: GameKit>(&self, rules: RulesOf<K>) -> Result<K::Position, CliError> {
        let mut pos = self.start::<K>(rules)?;
        self.play_moves(|mv| pos.play(mv))?;
        Ok(pos)
    }

    /// The game of `K` under `rules` that the options describe: the moves
    /// are played in the game layer, so the history rules (repetition,
    /// move-count draws, Jungle's anti-chase rules) refuse and decide as
    /// in a game.
    pub fn game<K: GameKit>(&self, rules: RulesOf<K>) -> Result<K::Game, CliError> {
        let mut game = K::Game::new(self.start::<K>(rules)?);
        self.play_moves(|mv| game.play(mv))?;
        Ok(game)
    }
}

/// `qi perft` options.
#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Print the count below each root move first.
    #[arg(long)]
    divide: bool,
    /// Worker threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// Plies to count.
    #[arg(value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(0..=MAX_PERFT_DEPTH as i64))]
    depth: u32,
}

/// `qi perft`: the leaf count, with the time on stderr.
impl GameFn for &PerftArgs {
    type Output = Result<(), CliError>;
    fn call<K: GameKit>(self, rules: RulesOf<K>) -> Result<(), CliError> {
        let pos = self.position.position::<K>(rules)?;
        run_perft(&pos, self.depth, self.threads as usize, self.divide);
        Ok(())
    }
}

pub fn perft(args: PerftArgs) -> Result<(), CliError> {
    Games::dispatch(&args.position.game, &args)?
}

fn run_perft<P>(pos: &P, depth: u32, threads: usize, divide: bool)
where
    P: Position + Send + Sync,
    P::Move: Send + Sync,
{
    let start = Instant::now();
    let total = if divide && depth > 0 {
        let counts = qi_search::perft::divide_parallel(pos, depth, threads);
        for (mv, count) in &counts {
            println!("{mv}: {count}");
        }
        counts.iter().map(|(_, n)| n).sum()
    } else {
        qi_search::perft_parallel(pos, depth, threads)
    };
    let elapsed = start.elapsed();
    println!("total: {total}");
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { total as f64 / secs } else { 0.0 };
    eprintln!(
        "time: {:.3} s, nodes/s: {:.0}, threads: {threads}",
        secs, rate
    );
}

/// `qi moves` options.
#[derive(Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    position: PositionArgs,
}

/// `qi moves`: the moves a player may really play, on one line: the game
/// layer's, so with `--moves` the history rules apply (a move they forbid
/// is left out; a game they end has none, and its result goes to stderr).
impl GameFn for &MovesArgs {
    type Output = Result<(), CliError>;
    fn call<K: GameKit>(self, rules: RulesOf<K>) -> Result<(), CliError> {
        let game = self.position.game::<K>(rules)?;
        let list: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
        println!("{}", list.join(" "));
        if let Some(outcome) = game.outcome() {
            eprintln!("game over: {outcome}");
        }
        Ok(())
    }
}

pub fn moves(args: MovesArgs) -> Result<(), CliError> {
    Games::dispatch(&args.position.game, &args)?
}
