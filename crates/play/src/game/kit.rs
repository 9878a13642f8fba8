//! [`WebGame`] for the game of any kit of the registry: the tree of moves
//! with the node shown, the views, and the searcher shared with the
//! thread that searches.

use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use qi_core::{ExternalResult, Game, Outcome, Position, Side};
use qi_engine::options::set_search_option;
use qi_engine::record::{reason_in, Record, RecordMove, RecordResult};
use qi_engine::strength::StrengthOptions;
use qi_engine::{spec_of, EvalProfile, GameKit, RulesOf};
use qi_five_tigers::{held_formations, FiveTigers, Phase, Point};
use qi_search::{Limits, MoveOf, SearchInfo, SearchOptions, Searcher, Strength};

use crate::poll::Polled;
use crate::reason::{Reason, TreeRefusal};
use crate::svg::{game_over, move_squares, render_position, Marks, RenderOptions};

use super::tree::{MoveTree, MAX_NESTING, ROOT};
use super::view::{info_view, line_view};
use super::{
    side_word, GameError, GameView, InfoView, NodeView, RemovalView, ResultView, SearchDone,
    SearchTask, WebGame, HASH_MIB, MAX_HASH_MIB,
};

/// A kit's searcher, shared with the thread that searches.
type SharedSearcher<K> = Arc<Mutex<Searcher<<K as GameKit>::Game, <K as GameKit>::Hooks>>>;

/// The [`WebGame`] of kit `K`.
pub(super) struct KitGame<K: GameKit> {
    /// The game at the shown node.
    game: K::Game,
    /// Every move played or loaded: the main line and its variations.
    tree: MoveTree<MoveOf<K::Game>>,
    /// The node shown.
    at: usize,
    /// A result decided outside the rules, and the node it ended (the
    /// main line's end when the game was loaded).
    external: Option<(usize, ExternalResult)>,
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

/// The refusal of the move `text` (its first 40 characters, control
/// characters escaped) for `reason`.
fn move_error(text: &str, reason: Reason) -> GameError {
    GameError::Move {
        text: text.chars().take(40).flat_map(char::escape_debug).collect(),
        reason,
    }
}

impl<K: GameKit> KitGame<K> {
    /// A game shown at the end of `game`'s moves.
    pub(super) fn new(game: K::Game) -> KitGame<K> {
        let tree = MoveTree::of_line(game.moves());
        let at = tree.main_end();
        KitGame {
            external: game.external_result().map(|result| (at, result)),
            tree,
            at,
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

    /// The game of a record (its main line replayed, `docs/records.md`),
    /// with the record's variations, each move checked against the rules.
    pub(super) fn of_record(record: &Record, rules: RulesOf<K>) -> Result<KitGame<K>, GameError> {
        let game = record
            .replay::<K>()
            .map_err(|e| GameError::Record(Reason::of_replay::<K>(record, rules, &e)))?;
        let mut kit = KitGame::new(game);
        kit.add_line(ROOT, &record.moves)?;
        Ok(kit)
    }

    /// Adds `line` and its variations to the tree from `from`, checking
    /// each move; the moves there already are followed.
    fn add_line(&mut self, from: usize, line: &[RecordMove]) -> Result<(), GameError> {
        let mut game = self.game_of(from);
        let mut node = from;
        for mv in line {
            let bad =
                |reason: Reason| GameError::Record(Reason::of_variation_move(&mv.text, reason));
            let parsed: MoveOf<K::Game> = mv.text.parse().map_err(|e| bad(Reason::of_error(&e)))?;
            if let Some(outcome) = game.outcome() {
                return Err(bad(game_over(outcome)));
            }
            game.play(parsed).map_err(|e| bad(Reason::of(&e.reason)))?;
            let next = self.tree.add(node, parsed);
            // The variations replace this move: they start where it does.
            for variation in &mv.variations {
                self.add_line(node, variation)?;
            }
            node = next;
        }
        Ok(())
    }

    /// The game at `node` of the tree (with the result decided outside
    /// the rules there, if any).
    fn game_of(&self, node: usize) -> K::Game {
        let mut game = K::Game::new(self.game.start().clone());
        for mv in self.tree.path(node) {
            game.play_unchecked(mv);
        }
        if let Some((end, result)) = self.external {
            if end == node {
                game.record(result);
            }
        }
        game
    }

    /// `text` read as a move of the shown position, which must not be a
    /// finished game (the move may still be illegal there).
    fn read_move(&self, text: &str) -> Result<MoveOf<K::Game>, GameError> {
        let mv: MoveOf<K::Game> = text
            .trim()
            .parse()
            .map_err(|e| move_error(text, Reason::of_error(&e)))?;
        if let Some(outcome) = self.game.outcome() {
            return Err(move_error(text, game_over(outcome)));
        }
        Ok(mv)
    }

    /// `text` as a move legal in the shown position.
    fn legal_move(&self, text: &str) -> Result<MoveOf<K::Game>, GameError> {
        let mv = self.read_move(text)?;
        self.game
            .clone()
            .play(mv)
            .map_err(|e| move_error(text, Reason::of(&e.reason)))?;
        Ok(mv)
    }

    /// Searches the shown position on this thread among the root moves
    /// `only` (empty: all).
    fn search_root(
        &mut self,
        limits: Limits,
        only: &[MoveOf<K::Game>],
        poll: &mut dyn FnMut() -> bool,
        report: &mut dyn FnMut(&InfoView) -> bool,
    ) -> SearchDone {
        let searcher = self.shared_searcher();
        let mut searcher = searcher.lock().unwrap_or_else(|e| e.into_inner());
        // Set for every search: the searcher is shared with the next one.
        searcher.set_root_moves(only);
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

    /// Shows `node`.
    fn show(&mut self, node: usize) {
        self.game = self.game_of(node);
        self.at = node;
    }

    /// The moves of the record from `start` on: its line (each node's
    /// first child) with, on each move, the variations played instead of
    /// it.
    fn record_line(&self, start: usize) -> Vec<RecordMove> {
        let mut moves = Vec::new();
        let mut at = Some(start);
        while let Some(node) = at {
            let Some(mv) = self.tree.mv(node) else { break };
            let mut record_move = RecordMove {
                text: mv.to_string(),
                ..RecordMove::default()
            };
            let siblings = self
                .tree
                .parent(node)
                .map_or(&[][..], |p| self.tree.children(p));
            // A line's first move may itself be a variation: its
            // siblings are written with the move they replace.
            if siblings.first() == Some(&node) {
                record_move.variations =
                    siblings[1..].iter().map(|&v| self.record_line(v)).collect();
            }
            moves.push(record_move);
            at = self.tree.children(node).first().copied();
        }
        moves
    }

    /// The tree as the move list shows it: every node in reading order,
    /// each with its parent's place in that order, its move and mover.
    fn tree_view(&self) -> (Vec<NodeView>, Option<usize>) {
        let order = self.tree.preorder();
        let mut place = vec![usize::MAX; order.iter().max().map_or(0, |&n| n + 1)];
        for (i, &node) in order.iter().enumerate() {
            place[node] = i;
        }
        // Who moves at each node: the side to move at its parent, found by
        // playing the tree once (a node's game is handed to its first
        // child and cloned for the variations).
        let mut movers = vec![Side::First; place.len()];
        let start = K::Game::new(self.game.start().clone());
        let mut stack: Vec<(usize, K::Game)> = self
            .tree
            .children(ROOT)
            .iter()
            .map(|&c| (c, start.clone()))
            .collect();
        while let Some((node, mut game)) = stack.pop() {
            movers[node] = game.position().side_to_move();
            if let Some(mv) = self.tree.mv(node) {
                game.play_unchecked(mv);
            }
            if let Some((&first, rest)) = self.tree.children(node).split_first() {
                stack.extend(rest.iter().map(|&c| (c, game.clone())));
                stack.push((first, game));
            }
        }
        let nodes = order
            .iter()
            .map(|&node| NodeView {
                parent: self
                    .tree
                    .parent(node)
                    .filter(|&p| p != ROOT)
                    .map(|p| place[p]),
                mv: self
                    .tree
                    .mv(node)
                    .map(|m| m.to_string())
                    .unwrap_or_default(),
                mover: side_word(movers[node]).to_string(),
            })
            .collect();
        let shown = (self.at != ROOT).then(|| place[self.at]);
        (nodes, shown)
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

    /// Who played each move of `line`.
    fn movers(&self, line: &[MoveOf<K::Game>]) -> Vec<String> {
        let mut game = K::Game::new(self.game.start().clone());
        line.iter()
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
        let texts: Vec<String> = self.game.moves().iter().map(|m| m.to_string()).collect();
        let Some(k) = texts.iter().rposition(|t| !t.starts_with('x')) else {
            return Vec::new();
        };
        let Some(node) = self.tree.on_line(self.at, k + 1) else {
            return Vec::new();
        };
        let after = self.game_of(node);
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
        let line = self.tree.line(self.at);
        let last = self.game.moves().last().map(|m| m.to_string());
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
        let movers = self.movers(&line);
        let formed = self.formed(&movers);
        let (tree, node) = self.tree_view();
        GameView {
            spec: self.spec(),
            game: K::NAME.to_string(),
            text: position.to_string(),
            start: self.game.start().to_string(),
            moves: line.iter().map(|m| m.to_string()).collect(),
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
            tree,
            node,
            svg,
        }
    }

    fn play(&mut self, text: &str) -> Result<(), GameError> {
        let bad = |reason: Reason| move_error(text, reason);
        let mv = self.read_move(text)?;
        let known = self.tree.child(self.at, mv).is_some();
        if !known
            && self.tree.nesting(self.at) + usize::from(!self.tree.children(self.at).is_empty())
                > MAX_NESTING
        {
            return Err(bad(Reason::of(&TreeRefusal::TooDeep { max: MAX_NESTING })));
        }
        self.game.play(mv).map_err(|e| bad(Reason::of(&e.reason)))?;
        self.at = self.tree.add(self.at, mv);
        Ok(())
    }

    fn undo(&mut self) -> Result<(), GameError> {
        let Some(parent) = self.tree.parent(self.at) else {
            return Err(GameError::NothingToUndo);
        };
        self.tree.remove(self.at);
        // A result decided outside the rules goes with its node.
        if self
            .external
            .is_some_and(|(end, _)| !self.tree.contains(end))
        {
            self.external = None;
        }
        self.show(parent);
        Ok(())
    }

    fn goto(&mut self, ply: usize) -> Result<(), GameError> {
        let node = self
            .tree
            .on_line(self.at, ply)
            .ok_or_else(|| GameError::Ply {
                ply,
                len: self.tree.line(self.at).len(),
            })?;
        self.show(node);
        Ok(())
    }

    fn goto_line(&mut self, moves: &[String]) -> Result<(), GameError> {
        let mut node = ROOT;
        for text in moves {
            let missing = || GameError::Move {
                text: text.chars().take(40).flat_map(char::escape_debug).collect(),
                reason: Reason::of(&TreeRefusal::NoSuchMove),
            };
            let mv: MoveOf<K::Game> = text.trim().parse().map_err(|_| missing())?;
            node = self.tree.child(node, mv).ok_or_else(missing)?;
        }
        self.show(node);
        Ok(())
    }

    fn promote(&mut self) {
        self.tree.promote(self.at);
    }

    fn preview(&self, moves: &[String], flip: bool) -> Result<String, GameError> {
        let mut game = self.game.clone();
        for text in moves {
            let bad = |reason: Reason| GameError::Move {
                text: text.chars().take(40).flat_map(char::escape_debug).collect(),
                reason,
            };
            let mv: MoveOf<K::Game> = text.trim().parse().map_err(|e| bad(Reason::of_error(&e)))?;
            if let Some(outcome) = game.outcome() {
                return Err(bad(game_over(outcome)));
            }
            game.play(mv).map_err(|e| bad(Reason::of(&e.reason)))?;
        }
        let options = RenderOptions {
            marks: Marks {
                last: game
                    .moves()
                    .last()
                    .map(|m| move_squares(&m.to_string()))
                    .unwrap_or_default(),
                ..Marks::default()
            },
            flip,
            caption: false,
        };
        Ok(render_position::<K>(game.position(), &options)?)
    }

    fn record_tagged(&self, event: &str, tags: &[(&str, &str)]) -> String {
        let game = self.game_of(self.tree.main_end());
        let mut record = Record::from_game::<K>(&game);
        record.moves = self
            .tree
            .children(ROOT)
            .first()
            .map_or_else(Vec::new, |&first| self.record_line(first));
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
            searcher.set_root_moves(&[]);
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
        self.search_root(limits, &[], poll, report)
    }

    fn search_among(
        &mut self,
        limits: Limits,
        moves: &[String],
        poll: &mut dyn FnMut() -> bool,
        report: &mut dyn FnMut(&InfoView) -> bool,
    ) -> Result<SearchDone, GameError> {
        let only = moves
            .iter()
            .map(|text| self.legal_move(text))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(self.search_root(limits, &only, poll, report))
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
