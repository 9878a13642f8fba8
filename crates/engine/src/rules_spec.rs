//! How a game's rules read and write game specs (`jungle:datou`): the one
//! thing the registry needs of a game's rules type.

use std::error::Error as StdError;
use std::fmt::Display;

/// The text of a game's rules in game specs: `GAME`, `GAME:PRESET`, then
/// optional `,option=value` items (`jungle:datou,jumps=none`).
///
/// A [`GameKit`](crate::GameKit)'s rules implement it; Jungle's and Five
/// Tigers' rules do, and so does `()`, the rules of a game with one rule
/// set, whose only spec is the game's name.
///
/// ```
/// use qi_games::engine::RulesSpec;
/// use qi_games::jungle::Rules;
///
/// let rules = Rules::from_spec("jungle", "jungle:datou")?;
/// assert_eq!(rules, Rules::datou());
/// assert_eq!(rules.to_spec("jungle"), "jungle:datou");
///
/// // A game with one rule set: its name alone.
/// assert_eq!(<()>::from_spec("tic-tac-toe", "tic-tac-toe"), Ok(()));
/// assert!(<()>::from_spec("tic-tac-toe", "tic-tac-toe:misere").is_err());
/// assert_eq!(().to_spec("tic-tac-toe"), "tic-tac-toe");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait RulesSpec: Sized {
    /// Why a spec's rules were refused.
    type Error: StdError + Send + Sync + 'static;

    /// Reads the rules of `spec`, a spec of the game named `game` (the
    /// whole spec, the game's name included: the registry picks the game
    /// by the text before the first `:` or `,`).
    fn from_spec(game: &'static str, spec: &str) -> Result<Self, Self::Error>;

    /// The spec of these rules for the game named `game`, in canonical
    /// form (equal rules, equal text), which
    /// [`from_spec`](RulesSpec::from_spec) reads back.
    fn to_spec(&self, game: &'static str) -> String;
}

/// A spec of a game with one rule set (`type Rules = ()`) that is not the
/// game's name alone.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{}': {game} has one rule set (write '{game}')", qi_core::Escaped(.spec))]
pub struct OneRuleSet {
    /// The game's name.
    pub game: &'static str,
    /// The spec given.
    pub spec: String,
}

impl RulesSpec for () {
    type Error = OneRuleSet;

    fn from_spec(game: &'static str, spec: &str) -> Result<(), OneRuleSet> {
        match spec.trim() == game {
            true => Ok(()),
            false => Err(OneRuleSet {
                game,
                spec: spec.to_string(),
            }),
        }
    }

    fn to_spec(&self, game: &'static str) -> String {
        game.to_string()
    }
}

/// The canonical spec of rules whose `Display` writes their own text, with
/// or without the `GAME:` prefix: `GAME:` and that text.
fn spec_of_text(game: &str, rules: &impl Display) -> String {
    let text = rules.to_string();
    match text.strip_prefix(game).and_then(|t| t.strip_prefix(':')) {
        Some(_) => text,
        None => format!("{game}:{text}"),
    }
}

/// `jungle`, `jungle:PRESET` and `,option=value` items
/// ([`Rules`](qi_jungle::Rules)'s `FromStr`); written as `jungle:` and
/// the rules' `Display` (`jungle:datou`).
impl RulesSpec for qi_jungle::Rules {
    type Error = qi_jungle::ParseRulesError;

    fn from_spec(_: &'static str, spec: &str) -> Result<Self, Self::Error> {
        spec.parse()
    }

    fn to_spec(&self, game: &'static str) -> String {
        spec_of_text(game, self)
    }
}

/// `five-tigers`, `five-tigers:PRESET` and `,option=value` items
/// ([`Rules`](qi_five_tigers::Rules)'s `FromStr`), written as its
/// `Display` does (`five-tigers:ten`).
impl RulesSpec for qi_five_tigers::Rules {
    type Error = qi_five_tigers::RulesError;

    fn from_spec(_: &'static str, spec: &str) -> Result<Self, Self::Error> {
        spec.parse()
    }

    fn to_spec(&self, game: &'static str) -> String {
        spec_of_text(game, self)
    }
}
