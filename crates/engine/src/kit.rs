//! What the library needs to know of a game to offer everything generic
//! over it (registry, type-erased engine, arena): one [`GameKit`] per game.

use std::fmt::Display;
use std::path::Path;
use std::str::FromStr;

use std::sync::atomic::AtomicBool;

use qi_core::{Evaluator, Game, Position};

use crate::rules_spec::RulesSpec;
use qi_search::{
    Limits, MoveOf, SearchHooks, SearchOptions, SearchResult, Searcher, Strength, StrengthScale,
};

/// The rules type of a kit's game.
pub type RulesOf<K> = <<K as GameKit>::Position as Position>::Rules;

/// Why a kit's rules text was refused ([`GameKit::parse_rules`]).
pub type RulesErrorOf<K> = <RulesOf<K> as RulesSpec>::Error;

/// Which evaluation a kit builds: the game's strongest (`default`), the
/// hand-written one, material alone (a yardstick for matches), or one
/// with the learned network.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EvalProfile {
    /// The game's strongest evaluation, as measured by matches: Jungle's
    /// [`Hybrid`](EvalProfile::Hybrid), Five Tigers'
    /// [`Hand`](EvalProfile::Hand) (docs/nnue.md).
    #[default]
    Default,
    /// Every term of the hand-written evaluation, with its tuned weights
    /// (the default profile of qi 0.1).
    Hand,
    /// Material only.
    Material,
    /// The learned evaluation (NNUE) embedded in the binary: Jungle only
    /// ([`GameKit::PROFILES`]; docs/nnue.md).
    Nnue,
    /// The learned evaluation and the hand-written one mixed half and
    /// half, the hand-written decided den races first: Jungle only
    /// (docs/nnue.md, "The hybrid profile").
    Hybrid,
}

impl EvalProfile {
    /// Every profile, in the order front ends list them.
    pub const ALL: [EvalProfile; 5] = [
        EvalProfile::Default,
        EvalProfile::Hand,
        EvalProfile::Material,
        EvalProfile::Nnue,
        EvalProfile::Hybrid,
    ];

    /// The profile's name (`default`, `hand`, `material`, `nnue`,
    /// `hybrid`).
    ///
    /// ```
    /// use qi_engine::EvalProfile;
    ///
    /// assert_eq!(EvalProfile::Material.name(), "material");
    /// // The name reads back.
    /// assert_eq!("material".parse::<EvalProfile>(), Ok(EvalProfile::Material));
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            EvalProfile::Default => "default",
            EvalProfile::Hand => "hand",
            EvalProfile::Material => "material",
            EvalProfile::Nnue => "nnue",
            EvalProfile::Hybrid => "hybrid",
        }
    }
}

impl Display for EvalProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An evaluation profile name that is not known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown evaluation profile '{0}' (known: default, hand, material, nnue, hybrid)")]
pub struct UnknownProfile(pub String);

impl FromStr for EvalProfile {
    type Err = UnknownProfile;
    fn from_str(s: &str) -> Result<EvalProfile, UnknownProfile> {
        EvalProfile::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| UnknownProfile(s.to_string()))
    }
}

/// Why endgame tables could not be given to a game's search
/// ([`GameKit::attach_tablebase`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TablebaseError {
    /// The game has no endgame tables.
    #[error("{game} has no endgame tables")]
    Unsupported {
        /// The game's name.
        game: &'static str,
    },
    /// The directory cannot be read (whatever the game: the tables of
    /// every game share one file format and one error).
    #[cfg(feature = "tablebase")]
    #[error("tablebase directory: {0}")]
    Open(#[from] qi_tablebase::FormatError),
    /// The game has endgame tables but this build leaves them out
    /// (qi-engine's `tablebase` feature is off).
    #[error("endgame tables are not in this build (the `tablebase` feature of qi-engine is off)")]
    NotBuilt,
}

/// [`GameKit::attach_tablebase`] of a game with tables, in a build without
/// them: no tables is fine, a directory is [`TablebaseError::NotBuilt`].
#[cfg(not(feature = "tablebase"))]
pub(crate) fn tables_not_built(dir: Option<&Path>) -> Result<usize, TablebaseError> {
    match dir {
        None => Ok(0),
        Some(_) => Err(TablebaseError::NotBuilt),
    }
}

/// Why a network file could not be given to a game's evaluation
/// ([`GameKit::eval_with_file`], `setoption name EvalFile`). Each error
/// names the file, so a front end can report it as it is.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EvalFileError {
    /// The game's evaluation has no network.
    #[error("{game} has no network file")]
    Unsupported {
        /// The game's name.
        game: &'static str,
    },
    /// The file cannot be read.
    #[error("{path}: {source}")]
    Read {
        /// The file, as given.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file is not a network this build can use.
    #[error("{path}: {source}")]
    Network {
        /// The file, as given.
        path: String,
        /// What is wrong with it.
        source: crate::jungle::nnue::NetworkError,
    },
}

/// Everything about one game that generic front ends need: its types, its
/// name and presets, and how to build its evaluation and search hooks.
///
/// A kit is a type-level description (no value is ever built); a game joins
/// the [`Registry`](crate::Registry) by one entry in the
/// [`Games`](crate::Games) list.
pub trait GameKit: 'static {
    /// The game's position.
    /// Its rules read and write game specs ([`RulesSpec`]; `()` for a
    /// game with one rule set).
    type Position: Position<Rules: RulesSpec + Send + Sync, Move: Send + Sync>
        + Send
        + Sync
        + 'static;
    /// The game layer (history rules) over [`Position`](GameKit::Position).
    type Game: Game<Position = Self::Position> + Send + 'static;
    /// The static evaluation.
    type Eval: Evaluator<Self::Position> + Send + Sync + 'static;
    /// The search hooks (move ordering, null moves, tuned options).
    type Hooks: SearchHooks<Self::Game> + Send + Sync + 'static;

    /// The game's name in game specs (`jungle` in `jungle:datou`).
    const NAME: &'static str;
    /// The names of the presets, the default first: none for a game with
    /// one rule set (`type Rules = ()`), whose one spec is its name.
    const PRESETS: &'static [&'static str];
    /// The game's built-in opening suite, in the form
    /// [`arena::read_openings`](crate::arena::read_openings) reads (`None`:
    /// the game has none). `qi match` plays it unless told otherwise.
    const OPENINGS: Option<&'static str> = None;

    /// What the strength levels need of the game: its smallest piece's
    /// value, level 1's node budget and each level's measured rating
    /// (`docs/levels.md`).
    const STRENGTH: StrengthScale;

    /// Reads a rules spec: the game's name, optionally `:PRESET`, then
    /// optional `,option=value` items (`jungle:datou,jumps=none`).
    ///
    /// ```
    /// use qi_engine::{GameKit, JungleKit};
    /// use qi_jungle::Rules;
    ///
    /// assert_eq!(JungleKit::parse_rules("jungle:datou"), Ok(Rules::datou()));
    /// let rules = JungleKit::parse_rules("jungle:datou,anti_chase=off").unwrap();
    /// assert!(!rules.anti_chase);
    /// assert!(JungleKit::parse_rules("jungle:chess").is_err());
    /// ```
    fn parse_rules(spec: &str) -> Result<RulesOf<Self>, RulesErrorOf<Self>> {
        RulesSpec::from_spec(Self::NAME, spec)
    }

    /// The evaluation profiles the game has ([`engine_for`](crate::engine_for)
    /// refuses the others).
    const PROFILES: &'static [EvalProfile] = &[
        EvalProfile::Default,
        EvalProfile::Hand,
        EvalProfile::Material,
    ];

    /// The evaluation of `profile` (a profile not in
    /// [`PROFILES`](GameKit::PROFILES) gives the default evaluation).
    ///
    /// ```
    /// use qi_core::Evaluator;
    /// use qi_engine::{EvalProfile, GameKit, JungleKit};
    /// use qi_jungle::{Jungle, Rules};
    ///
    /// let eval = JungleKit::eval(EvalProfile::Material);
    /// // Red's Lion against Blue's Rat, Red to move: Red is ahead.
    /// let pos = Jungle::from_text("6r/7/7/7/7/7/7/7/L6 w 0 1", Rules::standard()).unwrap();
    /// assert!(eval.evaluate(&pos) > 0);
    /// ```
    fn eval(profile: EvalProfile) -> Self::Eval;

    /// The evaluation of `profile` with the network read from `file` in
    /// place of the one the binary carries (`None`: [`eval`](GameKit::eval)).
    /// The file is read and checked whatever the profile, so that a bad
    /// one is refused when it is given, not when a profile that uses it is
    /// chosen later. The default has no network: `None` is accepted, a
    /// file is [`EvalFileError::Unsupported`].
    ///
    /// ```
    /// use qi_engine::{EvalFileError, EvalProfile, FiveTigersKit, GameKit, JungleKit};
    ///
    /// let missing = std::env::temp_dir().join("qi-no-such-network.nnue");
    /// let refused = JungleKit::eval_with_file(EvalProfile::Nnue, Some(&missing));
    /// assert!(matches!(refused, Err(EvalFileError::Read { .. })));
    /// let refused = FiveTigersKit::eval_with_file(EvalProfile::Default, Some(&missing));
    /// assert!(matches!(refused, Err(EvalFileError::Unsupported { game: "five-tigers" })));
    /// assert!(FiveTigersKit::eval_with_file(EvalProfile::Default, None).is_ok());
    /// ```
    fn eval_with_file(
        profile: EvalProfile,
        file: Option<&Path>,
    ) -> Result<Self::Eval, EvalFileError> {
        match file {
            None => Ok(Self::eval(profile)),
            Some(_) => Err(EvalFileError::Unsupported { game: Self::NAME }),
        }
    }

    /// The search hooks that go with the evaluation of `profile`.
    ///
    /// ```
    /// use qi_engine::{EvalProfile, GameKit, JungleKit};
    /// use qi_jungle::{Game, Jungle};
    /// use qi_search::SearchHooks;
    ///
    /// let hooks = JungleKit::hooks(EvalProfile::Default);
    /// let mut game = Game::new(Jungle::default());
    /// // Jungle's hooks can pass, for null-move pruning.
    /// assert!(hooks.make_null(&mut game));
    /// assert!(game.is_null());
    /// ```
    fn hooks(profile: EvalProfile) -> Self::Hooks;

    /// Makes `hooks` probe the endgame tables of the directory `dir` in the
    /// search tree, for positions under `rules` (`None`: no tables). The
    /// files are read as the search needs them (Five Tigers: when a file
    /// is over 64 MiB, every file is read ahead by a thread instead, and
    /// the tables are probed once all are in). Returns the number of table
    /// files found in the directory (0 without one). The default has no
    /// tables: `None` is accepted, a directory is
    /// [`TablebaseError::Unsupported`]. Jungle and Five Tigers have tables
    /// with qi-engine's `tablebase` feature; without it they refuse a
    /// directory with [`TablebaseError::NotBuilt`].
    ///
    /// ```
    /// # #[cfg(feature = "tablebase")] {
    /// use qi_engine::{EvalProfile, FiveTigersKit, GameKit, JungleKit, TablebaseError};
    /// use qi_jungle::Rules;
    ///
    /// let dir = std::env::temp_dir();
    /// let mut hooks = JungleKit::hooks(EvalProfile::Default);
    /// JungleKit::attach_tablebase(&mut hooks, &Rules::standard(), Some(&dir)).unwrap();
    /// assert!(hooks.tablebase().is_some());
    /// assert_eq!(JungleKit::attach_tablebase(&mut hooks, &Rules::standard(), None).unwrap(), 0);
    /// assert!(hooks.tablebase().is_none());
    ///
    /// let mut hooks = FiveTigersKit::hooks(EvalProfile::Default);
    /// let rules = qi_five_tigers::Rules::default();
    /// FiveTigersKit::attach_tablebase(&mut hooks, &rules, Some(&dir)).unwrap();
    /// assert!(hooks.tablebase().is_some());
    /// let missing = dir.join("qi-no-such-directory");
    /// let refused = FiveTigersKit::attach_tablebase(&mut hooks, &rules, Some(&missing));
    /// assert!(matches!(refused, Err(TablebaseError::Open(_))));
    /// # }
    /// ```
    fn attach_tablebase(
        hooks: &mut Self::Hooks,
        rules: &RulesOf<Self>,
        dir: Option<&Path>,
    ) -> Result<usize, TablebaseError> {
        let _ = (hooks, rules);
        match dir {
            None => Ok(0),
            Some(_) => Err(TablebaseError::Unsupported { game: Self::NAME }),
        }
    }

    /// Whether the tables attached to `hooks` by
    /// [`attach_tablebase`](GameKit::attach_tablebase) are probed yet: a
    /// kit that reads big tables ahead, on a thread of their own, probes
    /// none until all are read (Five Tigers); the others, always.
    fn tables_ready(hooks: &Self::Hooks) -> bool {
        let _ = hooks;
        true
    }

    /// The search options that play this game best (from its hooks).
    ///
    /// ```
    /// use qi_engine::{EvalProfile, FiveTigersKit, GameKit};
    /// use qi_search::{SearchHooks, SearchOptions};
    ///
    /// let options = FiveTigersKit::tuned_options();
    /// assert_eq!(options, FiveTigersKit::hooks(EvalProfile::Default).tuned_options());
    /// assert_ne!(options, SearchOptions::default());
    /// ```
    fn tuned_options() -> SearchOptions {
        Self::hooks(EvalProfile::Default).tuned_options()
    }

    /// The board drawn for a terminal, styled with ANSI sequences (print it
    /// through `anstream`, which drops them where colour is unwanted).
    ///
    /// ```
    /// use qi_engine::{FiveTigersKit, GameKit};
    /// use qi_five_tigers::FiveTigers;
    ///
    /// let board = FiveTigersKit::draw(&FiveTigers::default());
    /// assert!(board.starts_with("5 ┼───┼"));
    /// assert!(board.contains("5/5/5/5/5 x place X:13,O:13 - x -,- 0"));
    /// ```
    fn draw(position: &Self::Position) -> String;

    /// A [`Searcher`] with this game's hooks for `profile` and its tuned
    /// options: the one to keep for a whole game, so that its
    /// transposition table (the tuned `hash_mib`, 16 MiB) is allocated
    /// once and what one search learned serves the next.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    ///
    /// use qi_engine::{EvalProfile, GameKit, JungleKit};
    /// use qi_jungle::Game;
    /// use qi_search::Limits;
    ///
    /// let mut searcher = JungleKit::searcher(EvalProfile::Default);
    /// let eval = JungleKit::eval(EvalProfile::Default);
    /// let never = AtomicBool::new(false);
    /// let mut game = Game::default();
    /// for _ in 0..4 {
    ///     let result = searcher.search(&mut game, &eval, Limits::depth(3), &never, |_| {});
    ///     game.play(result.best_move.expect("the game goes on")).unwrap();
    /// }
    /// assert_eq!(game.moves().len(), 4);
    /// ```
    fn searcher(profile: EvalProfile) -> Searcher<Self::Game, Self::Hooks> {
        let hooks = Self::hooks(profile);
        Searcher::with_hooks(hooks.tuned_options(), hooks)
    }

    /// Searches `game`'s current position within `limits` with this game's
    /// evaluation and tuned options, and returns the best move, its score,
    /// the depth and the principal variation: the one-call entry point,
    /// with no stop flag or callback. ([`Searcher`] is the full API: a
    /// table kept between moves, progress reports, stopping from another
    /// thread.)
    ///
    /// Each call makes a new [`searcher`](GameKit::searcher), so allocates
    /// and clears a 16 MiB transposition table, which costs more than a
    /// shallow search itself: a program that searches move after move
    /// keeps one `searcher` instead (its example shows how).
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// use qi_engine::{GameKit, JungleKit};
    /// use qi_jungle::{Game, Jungle};
    /// use qi_search::Limits;
    ///
    /// let game = Game::new(Jungle::default());
    /// let result = JungleKit::think(&game, Limits::movetime(Duration::from_millis(50)));
    /// let best = result.best_move.expect("the start has moves");
    /// assert!(game.legal_moves().contains(&best));
    /// assert_eq!(result.pv.first(), Some(&best));
    /// ```
    fn think(game: &Self::Game, limits: Limits) -> SearchResult<MoveOf<Self::Game>> {
        let mut searcher = Self::searcher(EvalProfile::Default);
        let mut game = game.clone();
        let never = AtomicBool::new(false);
        let eval = Self::eval(EvalProfile::Default);
        searcher.search(&mut game, &eval, limits, &never, |_| {})
    }

    /// [`think`](GameKit::think) for the best `lines` root moves
    /// (MultiPV): the result's [`lines`](SearchResult::lines), best first,
    /// each with its score, depth and principal variation.
    ///
    /// ```
    /// use qi_engine::{GameKit, FiveTigersKit};
    /// use qi_five_tigers::Game;
    /// use qi_search::Limits;
    ///
    /// let game = Game::default();
    /// let result = FiveTigersKit::think_lines(&game, Limits::depth(4), 3);
    /// assert_eq!(result.lines.len(), 3);
    /// assert_eq!(result.best_move, Some(result.lines[0].pv[0]));
    /// assert!(result.lines.windows(2).all(|w| w[0].score >= w[1].score));
    /// ```
    fn think_lines(
        game: &Self::Game,
        limits: Limits,
        lines: usize,
    ) -> SearchResult<MoveOf<Self::Game>> {
        let hooks = Self::hooks(EvalProfile::Default);
        let options = hooks.tuned_options().with_multi_pv(lines);
        let mut searcher = Searcher::with_hooks(options, hooks);
        let mut game = game.clone();
        let eval = Self::eval(EvalProfile::Default);
        searcher.search(&mut game, &eval, limits, &AtomicBool::new(false), |_| {})
    }

    /// [`think`](GameKit::think) at `strength`'s level (the same as
    /// `think` at [`Level::FULL`](qi_search::Level::FULL)); `strength`'s
    /// random sequence moves on, so a game's moves can be replayed from
    /// its seed.
    ///
    /// ```
    /// use qi_engine::{GameKit, JungleKit};
    /// use qi_jungle::{Game, Jungle};
    /// use qi_search::{Level, Limits, Strength};
    ///
    /// let game = Game::new(Jungle::default());
    /// let mut strength = Strength::new(Level::WEAKEST, 7);
    /// let weak = JungleKit::think_at(&game, Limits::depth(20), &mut strength);
    /// assert!(game.legal_moves().contains(&weak.best_move.unwrap()));
    /// assert!(weak.nodes < 10_000);
    /// ```
    fn think_at(
        game: &Self::Game,
        limits: Limits,
        strength: &mut Strength,
    ) -> SearchResult<MoveOf<Self::Game>> {
        let mut searcher = Self::searcher(EvalProfile::Default);
        let mut game = game.clone();
        let eval = Self::eval(EvalProfile::Default);
        let never = AtomicBool::new(false);
        searcher.search_at(
            &mut game,
            &eval,
            limits,
            strength,
            &Self::STRENGTH,
            &never,
            |_| {},
        )
    }
}

/// The game spec of `rules` in canonical form: `GAME:` and the rules' own
/// text (`jungle:datou`, `five-tigers:shandong,pieces_per_side=12`).
///
/// ```
/// use qi_engine::{spec_of, FiveTigersKit, JungleKit};
///
/// assert_eq!(spec_of::<JungleKit>(&qi_jungle::Rules::datou()), "jungle:datou");
/// // Rules that are no preset: the default preset and what differs from it.
/// let mut rules = qi_five_tigers::Rules::ten();
/// rules.pieces_per_side = 12;
/// assert_eq!(spec_of::<FiveTigersKit>(&rules), "five-tigers:shandong,pieces_per_side=12");
/// ```
pub fn spec_of<K: GameKit>(rules: &RulesOf<K>) -> String {
    rules.to_spec(K::NAME)
}

/// Run by CI with `cargo test -p qi-engine --no-default-features --lib
/// without_tables` (the workspace's tests build every feature).
#[cfg(all(test, not(feature = "tablebase")))]
mod without_tables {
    use super::{EvalProfile, TablebaseError};
    use crate::options::Overrides;
    use crate::{engine_for, Games, Registry};

    #[test]
    fn a_table_directory_is_refused_and_none_is_fine() {
        let dir = std::env::temp_dir();
        for spec in Games::preset_specs() {
            let mut engine =
                engine_for::<Games>(&spec, EvalProfile::Default, &Overrides::default()).unwrap();
            let refused = engine.set_tablebase(Some(&dir));
            assert!(
                matches!(refused, Err(TablebaseError::NotBuilt)),
                "{spec}: {refused:?}"
            );
            assert_eq!(engine.set_tablebase(None).unwrap(), 0, "{spec}");
        }
    }
}
