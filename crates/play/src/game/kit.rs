//! [`WebGame`] for the game of any kit of the registry: the line of moves
//! with its cursor, the views, and the searcher shared with the thread
//! that searches.

use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use qi_core::{ExternalResult, Game, Outcome, Position, Side};
use qi_engine::options::set_search_option;
use qi_engine::record::{reason_in, Record, RecordResult};
use qi_engine::strength::StrengthOptions;
use qi_engine::{spec_of, EvalProfile, GameKit};
use qi_five_tigers::{held_formations, FiveTigers, Phase, Point};
use qi_search::{Limits, MoveOf, SearchInfo, SearchOptions, Searcher, Strength};

use crate::poll::Polled;
use crate::svg::{move_squares, render_position, Marks, RenderOptions};

use super::view::{info_view, line_view};
use super::{
    side_word, GameError, GameView, InfoView, RemovalView, ResultView, SearchDone, SearchTask,
    WebGame, HASH_MIB, MAX_HASH_MIB,
};

/// A kit's searcher, shared with the thread that searches.
type SharedSearcher<K> = Arc<Mutex<Searcher<<K as GameKit>::Game, <K as GameKit>::Hooks>>>;

/// The [`WebGame`] of kit `K`.
pub(super) struct KitGame<K: GameKit> {
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
    pub(super) fn new(game: K::Game) -> KitGame<K> {
        KitGame {
            line: game.moves().to_vec(),
            external: game.external_result(),
            game,
            searcher: None,
            options: K::tuned_options().with_hash_mib(HASH_MIB).with_threads(1),
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
