//! One game of either kind behind an object-safe trait, so that the Python
//! classes hold a `Box<dyn AnyGame>` whatever the spec names.

use std::any::Any;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use qi_core::{Game, Outcome, Position, Side};
use qi_engine::record::Record;
use qi_engine::{spec_of, FiveTigersKit, GameKit, JungleKit, RulesOf};
use qi_play::svg::{self, RenderOptions};
use qi_search::MoveOf;

use crate::encode::Encoding;
use crate::rng::SplitMix64;

/// A game kit with its reinforcement-learning encoding.
pub(crate) trait Kit: Encoding {}
impl<K: Encoding> Kit for K {}

/// What the bindings need of a game, for either kind.
pub(crate) trait AnyGame: Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn clone_box(&self) -> Box<dyn AnyGame>;
    fn spec(&self) -> String;
    fn legal_moves(&self) -> Vec<String>;
    fn play(&mut self, text: &str) -> Result<(), String>;
    fn undo(&mut self) -> Option<String>;
    fn outcome(&self) -> Option<Outcome>;
    fn position_text(&self) -> String;
    fn start_text(&self) -> String;
    /// Games from each position of the kit's built-in opening suite under
    /// these rules (None: no suite, or it does not fit the rules).
    fn builtin_openings(&self) -> Option<Vec<Box<dyn AnyGame>>>;
    fn side_to_move(&self) -> Side;
    /// The side that made the last move (None at the start).
    fn last_mover(&self) -> Option<Side>;
    fn moves(&self) -> Vec<String>;
    fn ply(&self) -> usize;
    fn occurrences(&self) -> usize;
    fn record(&self) -> String;
    /// Perft that gives up (returning a partial count) when `stop` is raised.
    fn perft(&self, depth: u32, stop: &AtomicBool) -> u64;
    fn num_actions(&self) -> usize;
    fn observation_shape(&self) -> [usize; 3];
    /// Sets `mask[a]` for every legal action `a` (`mask` zeroed by the caller).
    fn action_mask(&self, mask: &mut [bool]);
    /// Fills `out` (zeroed by the caller) with the planes seen by `side`.
    fn observe(&self, side: Side, out: &mut [f32]);
    /// The board drawn as text (several lines, with ANSI colours).
    fn board(&self) -> String;
    /// The board drawn as SVG, the drawing of `qi render`, with the last
    /// move highlighted; `flip` draws it from the second side's point of
    /// view, `caption` writes the side to move and the position under it.
    fn svg(&self, flip: bool, caption: bool) -> Result<String, String>;
    /// A legal action chosen uniformly by `rng`, or None when there is none.
    fn random_action(&self, rng: &mut SplitMix64) -> Option<usize>;
    /// The legal move of action `action`, as text.
    fn move_of(&self, action: usize) -> Result<String, String>;
    fn action_of(&self, text: &str) -> Result<usize, String>;
    /// Plays action `action`; an illegal action changes nothing.
    fn play_action(&mut self, action: usize) -> Result<(), String>;
    /// Checks action `action` and keeps its move for
    /// [`commit_action`](AnyGame::commit_action) without playing it, so
    /// that a batch can check every game before changing any, generating
    /// each game's moves once; an illegal action keeps nothing.
    fn prepare_action(&mut self, action: usize) -> Result<(), String>;
    /// Plays the move kept by [`prepare_action`](AnyGame::prepare_action)
    /// (nothing if none is kept).
    fn commit_action(&mut self);
    /// Forgets a move kept by [`prepare_action`](AnyGame::prepare_action).
    fn cancel_action(&mut self);
}

/// The game of kit `K`.
pub(crate) struct Typed<K: Kit> {
    pub(crate) game: K::Game,
    /// The move of an action checked by `prepare_action`, not yet played.
    pending: Option<MoveOf<K::Game>>,
}

impl<K: Kit> Typed<K> {
    fn boxed(game: K::Game) -> Box<dyn AnyGame>
    where
        K::Game: Sync,
    {
        Box::new(Typed::<K> {
            game,
            pending: None,
        })
    }

    fn parse_move(text: &str) -> Result<MoveOf<K::Game>, String> {
        <MoveOf<K::Game> as FromStr>::from_str(text).map_err(|e| e.to_string())
    }

    fn legal_action(&self, action: usize) -> Option<MoveOf<K::Game>> {
        let pos = self.game.position();
        self.game
            .legal_moves()
            .into_iter()
            .find(|&mv| K::action_of(pos, mv) == action)
    }
}

impl<K: Kit> AnyGame for Typed<K>
where
    K::Game: Sync,
{
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn clone_box(&self) -> Box<dyn AnyGame> {
        Typed::<K>::boxed(self.game.clone())
    }

    fn spec(&self) -> String {
        spec_of::<K>(self.game.position().rules())
    }

    fn legal_moves(&self) -> Vec<String> {
        self.game
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn play(&mut self, text: &str) -> Result<(), String> {
        let mv = Self::parse_move(text)?;
        self.game.play(mv).map_err(|e| e.to_string())
    }

    fn undo(&mut self) -> Option<String> {
        self.game.undo().map(|mv| mv.to_string())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn position_text(&self) -> String {
        self.game.position().to_string()
    }

    fn start_text(&self) -> String {
        self.game.start().to_string()
    }

    fn builtin_openings(&self) -> Option<Vec<Box<dyn AnyGame>>> {
        let openings = qi_engine::arena::builtin_openings::<K>(self.game.start())?;
        Some(
            openings
                .into_iter()
                .map(|pos| Typed::<K>::boxed(K::Game::new(pos)))
                .collect(),
        )
    }

    fn side_to_move(&self) -> Side {
        self.game.position().side_to_move()
    }

    fn last_mover(&self) -> Option<Side> {
        let mut before = self.game.clone();
        before.undo()?;
        Some(before.position().side_to_move())
    }

    fn moves(&self) -> Vec<String> {
        self.game.moves().iter().map(ToString::to_string).collect()
    }

    fn ply(&self) -> usize {
        self.game.ply()
    }

    fn occurrences(&self) -> usize {
        self.game.occurrences()
    }

    fn record(&self) -> String {
        Record::from_game::<K>(&self.game).to_string()
    }

    fn perft(&self, depth: u32, stop: &AtomicBool) -> u64 {
        qi_search::perft_with_stop(self.game.position(), depth, stop)
    }

    fn num_actions(&self) -> usize {
        K::ACTIONS
    }

    fn observation_shape(&self) -> [usize; 3] {
        K::SHAPE
    }

    fn action_mask(&self, mask: &mut [bool]) {
        let pos = self.game.position();
        for mv in self.game.legal_moves() {
            mask[K::action_of(pos, mv)] = true;
        }
    }

    fn observe(&self, side: Side, out: &mut [f32]) {
        K::observe(&self.game, side, out);
    }

    fn board(&self) -> String {
        K::board(self.game.position())
    }

    fn svg(&self, flip: bool, caption: bool) -> Result<String, String> {
        let mut options = RenderOptions {
            flip,
            caption,
            ..RenderOptions::default()
        };
        if let Some(last) = self.game.moves().last() {
            options.marks.last = svg::move_squares(&last.to_string());
        }
        svg::render_position::<K>(self.game.position(), &options).map_err(|e| e.to_string())
    }

    fn random_action(&self, rng: &mut SplitMix64) -> Option<usize> {
        let moves = self.game.legal_moves();
        if moves.is_empty() || self.game.outcome().is_some() {
            return None;
        }
        let mv = moves[rng.below(moves.len())];
        Some(K::action_of(self.game.position(), mv))
    }

    fn move_of(&self, action: usize) -> Result<String, String> {
        self.legal_action(action)
            .map(|mv| mv.to_string())
            .ok_or_else(|| not_legal(action, K::ACTIONS))
    }

    fn action_of(&self, text: &str) -> Result<usize, String> {
        let mv = Self::parse_move(text)?;
        if !self.game.legal_moves().contains(&mv) {
            return Err(format!("{mv} is not a legal move now"));
        }
        Ok(K::action_of(self.game.position(), mv))
    }

    fn play_action(&mut self, action: usize) -> Result<(), String> {
        self.prepare_action(action)?;
        self.commit_action();
        Ok(())
    }

    fn prepare_action(&mut self, action: usize) -> Result<(), String> {
        self.pending = None;
        let mv = self
            .legal_action(action)
            .ok_or_else(|| not_legal(action, K::ACTIONS))?;
        self.pending = Some(mv);
        Ok(())
    }

    fn commit_action(&mut self) {
        if let Some(mv) = self.pending.take() {
            self.game.play_unchecked(mv);
        }
    }

    fn cancel_action(&mut self) {
        self.pending = None;
    }
}

fn not_legal(action: usize, actions: usize) -> String {
    if action >= actions {
        format!("action {action} is outside the action space (0..{actions})")
    } else {
        format!("action {action} is not a legal move now")
    }
}

/// The game a spec names: its name before `:` or `,`.
fn game_name(spec: &str) -> &str {
    spec.split([':', ',']).next().unwrap_or_default().trim()
}

fn new_typed<K: Kit>(spec: &str, position: Option<&str>) -> Result<Box<dyn AnyGame>, String>
where
    K::Game: Sync,
{
    let rules: RulesOf<K> = K::parse_rules(spec).map_err(|e| e.to_string())?;
    let start = match position {
        None => K::Position::new(rules),
        Some(text) => K::Position::from_text(text, rules).map_err(|e| e.to_string())?,
    };
    Ok(Typed::<K>::boxed(K::Game::new(start)))
}

fn unknown_game(name: &str) -> String {
    format!(
        "unknown game '{}' (expected '{}' or '{}', optionally with ':PRESET')",
        qi_core::Escaped(name),
        JungleKit::NAME,
        FiveTigersKit::NAME
    )
}

/// A new game for `spec` (`jungle:datou`, `five-tigers`), from `position`
/// text or the start.
pub(crate) fn new_game(spec: &str, position: Option<&str>) -> Result<Box<dyn AnyGame>, String> {
    match game_name(spec) {
        JungleKit::NAME => new_typed::<JungleKit>(spec, position),
        FiveTigersKit::NAME => new_typed::<FiveTigersKit>(spec, position),
        other => Err(unknown_game(other)),
    }
}

/// The game a record holds, replayed with every move checked.
pub(crate) fn from_record(text: &str) -> Result<Box<dyn AnyGame>, String> {
    let record: Record = text
        .parse()
        .map_err(|e: qi_engine::record::ParseError| e.to_string())?;
    let spec = record.tag("Game").ok_or("the record has no Game tag")?;
    match game_name(spec) {
        JungleKit::NAME => Ok(Typed::<JungleKit>::boxed(
            record.replay::<JungleKit>().map_err(|e| e.to_string())?,
        )),
        FiveTigersKit::NAME => Ok(Typed::<FiveTigersKit>::boxed(
            record
                .replay::<FiveTigersKit>()
                .map_err(|e| e.to_string())?,
        )),
        other => Err(unknown_game(other)),
    }
}
