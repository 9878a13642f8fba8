//! Game records: a PGN-like text for every game of a registry (tag pairs,
//! then the moves in the game's own notation with optional comments, then
//! the result). The format is described in `docs/records.md`.
//!
//! ```
//! use qi_core::{Game, Position};
//! use qi_engine::{GameKit, JungleKit, record::Record};
//!
//! let text = "[Game \"jungle:datou\"]\n[Result \"*\"]\n\na3a4 {score cp 12} *\n";
//! let record: Record = text.parse().unwrap();
//! assert_eq!(record.to_string().parse::<Record>().unwrap(), record);
//! let game = record.replay::<JungleKit>().unwrap();
//! assert_eq!(game.moves().len(), 1);
//! ```

mod file;
mod parse;
mod reason;

use std::fmt;
use std::str::FromStr;

use qi_core::{ExternalResult, Game, Outcome, Position, Side, WinReason};
use thiserror::Error;

use crate::kit::{spec_of, GameKit, RulesOf};
use crate::registry::{GameFn, Registry, SpecError};

pub use file::{pick, replay_all, summary, PickError};
pub use parse::{ParseError, ParseErrorKind, TagError};
pub use reason::reason_in;

/// The result tokens, in the order of [`RecordResult`]'s variants.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The `Start` value that names the rules' start position.
pub const STARTPOS: &str = "startpos";

/// The tags a writer puts first, in this order; other tags follow them in
/// the order they were added.
const TAG_ORDER: [&str; 8] = [
    "Event",
    "Date",
    "Game",
    "Start",
    "First",
    "Second",
    "Result",
    "Termination",
];

/// One move of a record: its text in the game's notation, an optional
/// comment (the text between the braces, trimmed) and the variations
/// that were tried instead of it.
///
/// ```
/// use qi_games::engine::record::{Record, RecordMove};
///
/// let record: Record = "[Game \"jungle\"]\n\na3a4 { score cp 12 } g7g6 *\n".parse()?;
/// let first = RecordMove {
///     text: "a3a4".into(),
///     comment: Some("score cp 12".into()),
///     ..RecordMove::default()
/// };
/// assert_eq!(record.moves[0], first);
/// assert_eq!(record.moves[1].comment, None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordMove {
    /// The move as the game writes it (`a3a4`, `c3-c4`, `xb2`).
    pub text: String,
    /// The comment after the move, e.g. `score cp 12 depth 9`.
    pub comment: Option<String>,
    /// Lines played instead of this move, from the position before it
    /// (PGN's `( ... )` after the move), each a line of moves that can have
    /// variations of its own. A writer leaves out an empty one.
    pub variations: Vec<Vec<RecordMove>>,
}

/// How deep variations may nest in a record that is read: a variation
/// inside a variation ... this many levels (deeper text is refused, not
/// read into a structure too deep to write or drop).
pub const MAX_VARIATION_DEPTH: usize = 64;

/// A game record: tag pairs and moves. `Display` writes the text format and
/// `FromStr` reads it; [`Record::replay`] checks the moves against the rules.
///
/// ```
/// use qi_games::engine::record::Record;
/// use qi_games::jungle::Game;
/// use qi_games::prelude::*;
///
/// let mut game = Game::default();
/// game.play("a3a4".parse()?)?;
/// let record = Record::from_game::<JungleKit>(&game);
/// assert_eq!(record.tag("Game"), Some("jungle:standard"));
/// // The text reads back, and replays to the same game.
/// let back: Record = record.to_string().parse()?;
/// assert_eq!(back, record);
/// assert_eq!(back.replay::<JungleKit>()?, game);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    tags: Vec<(String, String)>,
    /// The moves, in the order played.
    pub moves: Vec<RecordMove>,
}

/// Why a record does not replay.
///
/// ```
/// use qi_games::engine::record::{Record, ReplayError};
/// use qi_games::prelude::*;
///
/// let record: Record = "[Game \"jungle\"]\n\na3a5 *\n".parse()?;
/// let error = record.replay::<JungleKit>().unwrap_err();
/// assert!(matches!(error, ReplayError::IllegalMove { number: 1, .. }));
/// let record: Record = "[Game \"five-tigers\"]\n\n*\n".parse()?;
/// assert!(matches!(record.replay::<JungleKit>(), Err(ReplayError::Game(_))));
/// assert_eq!(Record::new().replay::<JungleKit>().unwrap_err(), ReplayError::MissingGame);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// The record has no `Game` tag.
    #[error("the record has no Game tag")]
    MissingGame,
    /// The `Game` tag names another game, or rules that cannot be read.
    #[error("Game tag: {0}")]
    Game(#[from] SpecError),
    /// The `Start` tag is not a position of the game.
    #[error("Start tag: {0}")]
    Start(String),
    /// A move's text is not a move of the game.
    #[error("move {number} '{}': {reason}", qi_core::Escaped(.text))]
    BadMove {
        /// The move's number, counted from 1.
        number: usize,
        /// Its text.
        text: String,
        /// Why it could not be read.
        reason: String,
    },
    /// A move is not legal where it is played.
    #[error("move {number} '{}' is illegal: {reason}", qi_core::Escaped(.text))]
    IllegalMove {
        /// The move's number, counted from 1.
        number: usize,
        /// Its text.
        text: String,
        /// Why the rules refuse it.
        reason: String,
    },
    /// The rules end the game with another result than the record's.
    #[error("the rules give {rules}, the record {record}")]
    ResultMismatch {
        /// The result the rules decide.
        rules: String,
        /// The record's `Result`.
        record: String,
    },
}

/// A record's result.
///
/// ```
/// use qi_games::engine::record::{Record, RecordResult};
///
/// let record: Record = "[Game \"jungle\"]\n[Result \"0-1\"]\n\n0-1\n".parse()?;
/// assert_eq!(record.result(), RecordResult::SecondWins);
/// assert_eq!(RecordResult::SecondWins.to_string(), "0-1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordResult {
    /// `1-0`: the first side won.
    FirstWins,
    /// `0-1`: the second side won.
    SecondWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished or unknown.
    Unfinished,
}

impl RecordResult {
    /// The result's token.
    ///
    /// ```
    /// use qi_games::engine::record::RecordResult;
    ///
    /// assert_eq!(RecordResult::Draw.text(), "1/2-1/2");
    /// assert_eq!(RecordResult::Unfinished.text(), "*");
    /// ```
    pub const fn text(self) -> &'static str {
        RESULTS[self as usize]
    }

    /// The result of a token, if it is one.
    ///
    /// ```
    /// use qi_games::engine::record::RecordResult;
    ///
    /// assert_eq!(RecordResult::from_token("1-0"), Some(RecordResult::FirstWins));
    /// assert_eq!(RecordResult::from_token("2-0"), None);
    /// ```
    pub fn from_token(token: &str) -> Option<RecordResult> {
        [
            RecordResult::FirstWins,
            RecordResult::SecondWins,
            RecordResult::Draw,
            RecordResult::Unfinished,
        ]
        .into_iter()
        .find(|r| r.text() == token)
    }

    /// The result of an outcome (`Unfinished` for none).
    ///
    /// ```
    /// use qi_games::engine::record::RecordResult;
    /// use qi_games::prelude::*;
    ///
    /// assert_eq!(RecordResult::of(None), RecordResult::Unfinished);
    /// let lost_on_time = Outcome::win(Side::Second, WinReason::Time);
    /// assert_eq!(RecordResult::of(Some(lost_on_time)), RecordResult::SecondWins);
    /// ```
    pub fn of(outcome: Option<Outcome>) -> RecordResult {
        match outcome.map(Outcome::winner) {
            None => RecordResult::Unfinished,
            Some(None) => RecordResult::Draw,
            Some(Some(Side::First)) => RecordResult::FirstWins,
            Some(Some(Side::Second)) => RecordResult::SecondWins,
        }
    }
}

impl fmt::Display for RecordResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

impl Record {
    /// An empty record (no tags, no moves).
    ///
    /// ```
    /// use qi_games::engine::record::Record;
    ///
    /// let record = Record::new();
    /// assert!(record.tags().is_empty() && record.moves.is_empty());
    /// assert_eq!(record.to_string().parse::<Record>(), Ok(record));
    /// ```
    pub fn new() -> Record {
        Record::default()
    }

    /// A record of no moves yet for game `K` from `start`: the `Game` tag,
    /// the `Start` tag unless `start` is the rules' start position, and
    /// `Result` `*`.
    ///
    /// ```
    /// use qi_games::engine::record::{Record, RecordResult};
    /// use qi_games::jungle::Rules;
    /// use qi_games::prelude::*;
    ///
    /// let record = Record::for_start::<JungleKit>(&Jungle::new(Rules::datou()));
    /// assert_eq!(record.tag("Game"), Some("jungle:datou"));
    /// assert_eq!((record.tag("Start"), record.result()), (None, RecordResult::Unfinished));
    /// let lions = Jungle::from_text("6r/7/7/7/7/7/7/7/L6 w 0 1", Rules::standard())?;
    /// let record = Record::for_start::<JungleKit>(&lions);
    /// assert_eq!(record.tag("Start"), Some("6r/7/7/7/7/7/7/7/L6 w 0 1"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn for_start<K: GameKit>(start: &K::Position) -> Record {
        let mut record = Record::new();
        record.set_tag("Game", &spec_of::<K>(start.rules()));
        if *start != K::Position::new(start.rules().clone()) {
            record.set_tag("Start", &start.to_string());
        }
        record.set_result(RecordResult::Unfinished);
        record
    }

    /// The record of `game` (of kit `K`): its start, its moves, and its
    /// outcome as `Result` and `Termination` when it has one.
    ///
    /// ```
    /// use qi_games::engine::record::Record;
    /// use qi_games::five_tigers::Game;
    /// use qi_games::prelude::*;
    ///
    /// let mut game = Game::default();
    /// game.play("c3".parse()?)?;
    /// let record = Record::from_game::<FiveTigersKit>(&game);
    /// assert_eq!(record.tag("Game"), Some("five-tigers:shandong"));
    /// assert_eq!(record.moves[0].text, "c3");
    /// assert_eq!(record.tag("Termination"), None); // not over
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_game<K: GameKit>(game: &K::Game) -> Record {
        let mut record = Record::for_start::<K>(game.start());
        record.moves = game
            .moves()
            .iter()
            .map(|mv| RecordMove {
                text: mv.to_string(),
                ..RecordMove::default()
            })
            .collect();
        if let Some(outcome) = game.outcome() {
            record.set_result(RecordResult::of(Some(outcome)));
            record.set_tag("Termination", &reason_in(game.position(), outcome));
        }
        record
    }

    /// The tags, in the order they are written.
    ///
    /// ```
    /// use qi_games::engine::record::Record;
    ///
    /// let mut record = Record::new();
    /// record.set_tag("Round", "3");
    /// record.set_tag("Result", "*");
    /// record.set_tag("Game", "jungle");
    /// // The usual tags first, in their order; others after them.
    /// let names: Vec<&str> = record.tags().iter().map(|(n, _)| n.as_str()).collect();
    /// assert_eq!(names, ["Game", "Result", "Round"]);
    /// ```
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The value of tag `name`.
    ///
    /// ```
    /// use qi_games::engine::record::Record;
    ///
    /// let record: Record = "[Game \"jungle:datou\"]\n\n*\n".parse()?;
    /// assert_eq!(record.tag("Game"), Some("jungle:datou"));
    /// assert_eq!(record.tag("Date"), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` to `value`: in place if the record has it, otherwise
    /// at its place among the usual tags (after them for another name).
    /// A name keeps only its letters, digits and `_`, and line breaks in
    /// `value` become spaces, so that the tag is still one readable line.
    ///
    /// ```
    /// use qi_games::engine::record::Record;
    ///
    /// let mut record = Record::new();
    /// record.set_tag("My Event!", "club\nnight");
    /// assert_eq!(record.tag("MyEvent"), Some("club night"));
    /// record.set_tag("MyEvent", "final");
    /// assert_eq!(record.tags().len(), 1);
    /// ```
    pub fn set_tag(&mut self, name: &str, value: &str) {
        let name: String = name
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let name = name.as_str();
        let value = value.replace(['\n', '\r'], " ");
        if let Some(slot) = self.tags.iter_mut().find(|(n, _)| n == name) {
            slot.1 = value;
            return;
        }
        let rank = |n: &str| TAG_ORDER.iter().position(|t| *t == n);
        let at = match rank(name) {
            Some(r) => self
                .tags
                .iter()
                .position(|(n, _)| rank(n).is_none_or(|other| other > r))
                .unwrap_or(self.tags.len()),
            None => self.tags.len(),
        };
        self.tags.insert(at, (name.to_string(), value));
    }

    /// The record's result: its `Result` tag (`*` without one).
    ///
    /// ```
    /// use qi_games::engine::record::{Record, RecordResult};
    ///
    /// assert_eq!(Record::new().result(), RecordResult::Unfinished);
    /// ```
    pub fn result(&self) -> RecordResult {
        self.tag("Result")
            .and_then(RecordResult::from_token)
            .unwrap_or(RecordResult::Unfinished)
    }

    /// Sets the `Result` tag.
    ///
    /// ```
    /// use qi_games::engine::record::{Record, RecordResult};
    ///
    /// let mut record = Record::new();
    /// record.set_result(RecordResult::Draw);
    /// assert_eq!(record.tag("Result"), Some("1/2-1/2"));
    /// assert_eq!(record.result(), RecordResult::Draw);
    /// ```
    pub fn set_result(&mut self, result: RecordResult) {
        self.set_tag("Result", result.text());
    }

    /// Appends a move with an optional comment.
    ///
    /// ```
    /// use qi_games::engine::record::Record;
    ///
    /// let mut record = Record::new();
    /// record.set_tag("Game", "jungle");
    /// record.push_move("a3a4", Some("score cp 12"));
    /// record.push_move("g7g6", None);
    /// assert!(record.to_string().contains("a3a4 {score cp 12} g7g6"));
    /// ```
    pub fn push_move(&mut self, text: &str, comment: Option<&str>) {
        self.moves.push(RecordMove {
            text: text.to_string(),
            comment: comment.map(str::to_string),
            variations: Vec::new(),
        });
    }

    /// Reads every record of `text` (a file of records, one after another,
    /// as `qi match --pgn` writes them).
    ///
    /// ```
    /// use qi_games::engine::record::Record;
    ///
    /// let file = "[Game \"jungle\"]\n\na3a4 *\n\n[Game \"five-tigers\"]\n\nc3 *\n";
    /// let records = Record::read_all(file)?;
    /// assert_eq!(records.len(), 2);
    /// assert_eq!(records[1].moves[0].text, "c3");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read_all(text: &str) -> Result<Vec<Record>, ParseError> {
        parse::read_all(text)
    }

    /// Rebuilds the game of kit `K`: the rules from the `Game` tag (which
    /// must name `K`'s game), the start from `Start`, then every move of
    /// the main line, checked (variations are not played). A decided `Result` that the rules did not reach is recorded
    /// as decided outside them (a resignation, a loss on time or an agreed
    /// draw, after `Termination`).
    ///
    /// ```
    /// use qi_games::base::ExternalResult;
    /// use qi_games::engine::record::Record;
    /// use qi_games::prelude::*;
    ///
    /// // Blue resigned after Red's first move.
    /// let record: Record = "[Game \"jungle\"]\n[Result \"1-0\"]\n\na3a4 1-0\n".parse()?;
    /// let game = record.replay::<JungleKit>()?;
    /// assert_eq!(game.moves().len(), 1);
    /// assert_eq!(game.external_result(), Some(ExternalResult::Resignation(Side::Second)));
    /// assert_eq!(game.outcome().and_then(|o| o.winner()), Some(Side::First));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn replay<K: GameKit>(&self) -> Result<K::Game, ReplayError> {
        let spec = self.tag("Game").ok_or(ReplayError::MissingGame)?.trim();
        let name = spec.split([':', ',']).next().unwrap_or_default();
        if name != K::NAME {
            return Err(ReplayError::Game(SpecError::UnknownGame {
                name: name.to_string(),
                known: format!("'{}'", K::NAME),
            }));
        }
        let rules = K::parse_rules(spec).map_err(SpecError::rules_of::<K>)?;
        self.replay_under::<K>(rules)
    }

    /// [`replay`](Record::replay) under rules already read.
    fn replay_under<K: GameKit>(&self, rules: RulesOf<K>) -> Result<K::Game, ReplayError> {
        let start = match self.tag("Start").map(str::trim) {
            None | Some(STARTPOS) | Some("") => K::Position::new(rules),
            Some(text) => K::Position::from_text(text, rules)
                .map_err(|e| ReplayError::Start(e.to_string()))?,
        };
        let mut game = K::Game::new(start);
        for (i, mv) in self.moves.iter().enumerate() {
            let number = i + 1;
            let bad = |reason: String| ReplayError::BadMove {
                number,
                text: mv.text.clone(),
                reason,
            };
            let parsed = mv
                .text
                .parse::<<K::Position as Position>::Move>()
                .map_err(|e| bad(e.to_string()))?;
            let illegal = |reason: String| ReplayError::IllegalMove {
                number,
                text: mv.text.clone(),
                reason,
            };
            if let Some(outcome) = game.outcome() {
                return Err(illegal(format!("the game is over ({outcome})")));
            }
            game.play(parsed)
                .map_err(|e| illegal(e.reason.to_string()))?;
        }
        self.settle::<K>(&mut game)?;
        Ok(game)
    }

    /// Checks the record's result against the rules' and records a result
    /// decided outside them.
    fn settle<K: GameKit>(&self, game: &mut K::Game) -> Result<(), ReplayError> {
        let recorded = self.result();
        let mismatch = |rules: RecordResult| ReplayError::ResultMismatch {
            rules: rules.text().to_string(),
            record: recorded.text().to_string(),
        };
        if let Some(outcome) = game.outcome() {
            let rules = RecordResult::of(Some(outcome));
            if recorded != RecordResult::Unfinished && recorded != rules {
                return Err(mismatch(rules));
            }
            return Ok(());
        }
        let on_time = self.tag("Termination") == Some(&WinReason::Time.to_string());
        let external = match recorded {
            RecordResult::Unfinished => return Ok(()),
            RecordResult::Draw => ExternalResult::AgreedDraw,
            RecordResult::FirstWins if on_time => ExternalResult::TimeLoss(Side::Second),
            RecordResult::SecondWins if on_time => ExternalResult::TimeLoss(Side::First),
            RecordResult::FirstWins => ExternalResult::Resignation(Side::Second),
            RecordResult::SecondWins => ExternalResult::Resignation(Side::First),
        };
        game.record(external);
        Ok(())
    }

    /// Replays the record in whichever game of registry `R` its `Game` tag
    /// names, and returns the final position's text.
    ///
    /// ```
    /// use qi_games::engine::{record::Record, Games};
    /// use qi_games::prelude::*;
    ///
    /// let record: Record = "[Game \"jungle\"]\n\na3a4 *\n".parse()?;
    /// let mut pos = Jungle::default();
    /// pos.play("a3a4".parse()?)?;
    /// assert_eq!(record.final_position::<Games>()?, pos.to_string());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn final_position<R: Registry>(&self) -> Result<String, ReplayError> {
        struct Final<'a>(&'a Record);
        impl GameFn for Final<'_> {
            type Output = Result<String, ReplayError>;
            fn call<K: GameKit>(self, rules: RulesOf<K>) -> Self::Output {
                Ok(self.0.replay_under::<K>(rules)?.position().to_string())
            }
        }
        let spec = self.tag("Game").ok_or(ReplayError::MissingGame)?;
        R::dispatch(spec, Final(self))?
    }
}

/// Writes `value` as a tag value: between quotes, with `\` and `"` escaped.
fn write_tag_value(f: &mut fmt::Formatter<'_>, value: &str) -> fmt::Result {
    f.write_str("\"")?;
    for c in value.chars() {
        if matches!(c, '"' | '\\') {
            f.write_str("\\")?;
        }
        write!(f, "{c}")?;
    }
    f.write_str("\"")
}

/// The tokens of `line`: each move, its comment, then its variations in
/// parentheses (the `(` joined to the first token inside, the `)` to the
/// last, as PGN writes them); an empty variation is left out.
fn line_tokens(line: &[RecordMove], tokens: &mut Vec<String>) {
    for mv in line {
        tokens.push(mv.text.clone());
        if let Some(comment) = &mv.comment {
            // A brace inside would end or nest the comment.
            let clean: String = comment
                .replace('{', "(")
                .replace('}', ")")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            tokens.push(format!("{{{clean}}}"));
        }
        for variation in &mv.variations {
            let first = tokens.len();
            line_tokens(variation, tokens);
            if tokens.len() > first {
                tokens[first].insert(0, '(');
                if let Some(last) = tokens.last_mut() {
                    last.push(')');
                }
            }
        }
    }
}

/// The longest line of move text a writer makes before breaking it.
const LINE_WIDTH: usize = 79;

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            write!(f, "[{name} ")?;
            write_tag_value(f, value)?;
            f.write_str("]\n")?;
        }
        f.write_str("\n")?;
        let mut tokens: Vec<String> = Vec::new();
        line_tokens(&self.moves, &mut tokens);
        tokens.push(self.result().text().to_string());
        let mut width = 0;
        for token in tokens {
            if width > 0 && width + 1 + token.len() > LINE_WIDTH {
                f.write_str("\n")?;
                width = 0;
            } else if width > 0 {
                f.write_str(" ")?;
                width += 1;
            }
            f.write_str(&token)?;
            width += token.len();
        }
        f.write_str("\n")
    }
}

impl FromStr for Record {
    type Err = ParseError;
    fn from_str(text: &str) -> Result<Record, ParseError> {
        parse::read_one(text)
    }
}
