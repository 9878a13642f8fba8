//! The one list of games: parses game specs (`jungle:datou`,
//! `five-tigers:ten`), lists games and presets, and runs a generic function
//! for the selected game.
//!
//! The list is a type: [`Games`] is a chain of kits `(K1, (K2, ()))`, so
//! dispatch is static (a generic function is monomorphised per game) and a
//! game joins by one entry in the chain. A program with a game of its own
//! extends the chain the same way: `type MyGames = (MyKit, qi_engine::Games);`.

use std::error::Error as StdError;
use std::sync::Arc;

use thiserror::Error;

use crate::kit::{spec_of, GameKit, RulesErrorOf, RulesOf};

/// The games this library ships, in the order they are listed (the first
/// is the default).
pub type Games = (crate::games::JungleKit, (crate::games::FiveTigersKit, ()));

/// A function generic over the game, run by [`Registry::dispatch`] for the
/// game a spec names.
///
/// ```
/// use qi_core::Position;
/// use qi_engine::{GameFn, GameKit, Games, Registry, RulesOf};
///
/// /// The number of moves at the start.
/// struct StartMoves;
/// impl GameFn for StartMoves {
///     type Output = usize;
///     fn call<K: GameKit>(self, rules: RulesOf<K>) -> usize {
///         K::Position::new(rules).count_moves()
///     }
/// }
///
/// assert_eq!(Games::dispatch("jungle", StartMoves), Ok(24));
/// assert_eq!(Games::dispatch("five-tigers:ten", StartMoves), Ok(25));
/// ```
pub trait GameFn {
    /// What the function returns.
    type Output;
    /// Runs the function for game `K` under `rules`.
    fn call<K: GameKit>(self, rules: RulesOf<K>) -> Self::Output;
}

/// A game of a registry, as front ends list it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// The game's name (`jungle`).
    pub name: &'static str,
    /// Its presets, the default first.
    pub presets: &'static [&'static str],
}

impl GameInfo {
    /// The specs of every preset: `name:preset`; the name alone for a
    /// game without presets (one rule set: `type Rules = ()`).
    ///
    /// ```
    /// use qi_engine::{GameInfo, Games, Registry};
    ///
    /// let jungle = &Games::games()[0];
    /// let specs: Vec<String> = jungle.preset_specs().collect();
    /// assert_eq!(specs, ["jungle:standard", "jungle:yeshou", "jungle:datou", "jungle:traditional"]);
    /// let one_rule_set = GameInfo { name: "tic-tac-toe", presets: &[] };
    /// assert_eq!(one_rule_set.preset_specs().collect::<Vec<_>>(), ["tic-tac-toe"]);
    /// ```
    pub fn preset_specs(&self) -> impl Iterator<Item = String> + '_ {
        let presets = self.presets.iter().map(|p| format!("{}:{p}", self.name));
        let alone = self.presets.is_empty().then(|| self.name.to_string());
        presets.chain(alone)
    }
}

/// Why a game spec could not be used.
///
/// Two errors are equal when they say the same (a rules error compares by
/// game and message, as the game's own error type need not be comparable).
#[derive(Clone, Debug, Error)]
#[non_exhaustive]
pub enum SpecError {
    /// The game name is not in the registry.
    #[error("unknown game '{}' (expected {known}, optionally with ':PRESET')", qi_core::Escaped(.name))]
    UnknownGame {
        /// The name given.
        name: String,
        /// The known names, for the message.
        known: String,
    },
    /// The game is known but its rules text is not: the game's own rules
    /// error, kept typed (`downcast_ref` it to, e.g.,
    /// `qi_jungle::ParseRulesError`).
    ///
    /// ```
    /// use qi_engine::{engine_for, options::Overrides, EvalProfile, Games, SpecError};
    ///
    /// let error = engine_for::<Games>("jungle:chess", EvalProfile::Default, &Overrides::default());
    /// let Some(SpecError::BadRules { game, error }) = error.err() else { panic!() };
    /// assert_eq!(game, "jungle");
    /// assert!(error.downcast_ref::<qi_jungle::ParseRulesError>().is_some());
    /// ```
    #[error("{error}")]
    BadRules {
        /// The game's name.
        game: &'static str,
        /// The game's rules error (shown by this error's message, so not
        /// also its `source`).
        error: Arc<dyn StdError + Send + Sync>,
    },
    /// The game has no such evaluation profile.
    #[error("{game} has no evaluation profile '{profile}'")]
    Profile {
        /// The game's name.
        game: &'static str,
        /// The profile asked for.
        profile: crate::EvalProfile,
    },
    /// The engine's transposition table (`Hash`) cannot be allocated.
    ///
    /// ```
    /// use qi_games::engine::SpecError;
    /// use qi_games::search::TableAllocError;
    ///
    /// let error = SpecError::from(TableAllocError { mib: 4096 });
    /// assert!(error.to_string().contains("4096"));
    /// ```
    #[error(transparent)]
    TableAlloc(#[from] qi_search::TableAllocError),
}

impl SpecError {
    /// `error`, from reading a rules text of game `game`.
    ///
    /// ```
    /// use qi_engine::SpecError;
    ///
    /// let error = "jungle:chess".parse::<qi_jungle::Rules>().unwrap_err();
    /// let spec = SpecError::bad_rules("jungle", error.clone());
    /// assert_eq!(spec.to_string(), error.to_string());
    /// ```
    pub fn bad_rules(
        game: &'static str,
        error: impl StdError + Send + Sync + 'static,
    ) -> SpecError {
        SpecError::BadRules {
            game,
            error: Arc::new(error),
        }
    }

    /// The rules error of kit `K`'s game.
    pub(crate) fn rules_of<K: GameKit>(error: RulesErrorOf<K>) -> SpecError {
        SpecError::bad_rules(K::NAME, error)
    }
}

impl PartialEq for SpecError {
    fn eq(&self, other: &SpecError) -> bool {
        match (self, other) {
            (
                SpecError::UnknownGame { name, known },
                SpecError::UnknownGame {
                    name: other_name,
                    known: other_known,
                },
            ) => name == other_name && known == other_known,
            (
                SpecError::BadRules { game, error },
                SpecError::BadRules {
                    game: other_game,
                    error: other_error,
                },
            ) => game == other_game && error.to_string() == other_error.to_string(),
            (
                SpecError::Profile { game, profile },
                SpecError::Profile {
                    game: other_game,
                    profile: other_profile,
                },
            ) => game == other_game && profile == other_profile,
            (SpecError::TableAlloc(a), SpecError::TableAlloc(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for SpecError {}

/// A list of games (a chain of [`GameKit`]s ending in `()`).
pub trait Registry {
    /// Appends the games of the chain to `out`, in order.
    ///
    /// ```
    /// use qi_engine::{Games, Registry};
    ///
    /// let mut out = Vec::new();
    /// Games::collect(&mut out);
    /// assert_eq!(out, Games::games());
    /// ```
    fn collect(out: &mut Vec<GameInfo>);

    /// Runs `f` for the game named by `spec` if it is in this chain;
    /// gives `f` back otherwise.
    ///
    /// ```
    /// use qi_engine::{GameFn, GameKit, Games, Registry, RulesOf};
    ///
    /// struct Name;
    /// impl GameFn for Name {
    ///     type Output = &'static str;
    ///     fn call<K: GameKit>(self, _: RulesOf<K>) -> &'static str {
    ///         K::NAME
    ///     }
    /// }
    ///
    /// assert!(matches!(Games::try_dispatch("five-tigers", "five-tigers:ten", Name), Ok(Ok("five-tigers"))));
    /// // Not a game of the chain: `Name` comes back.
    /// assert!(matches!(Games::try_dispatch("chess", "chess", Name), Err(Name)));
    /// ```
    fn try_dispatch<F: GameFn>(
        name: &str,
        spec: &str,
        f: F,
    ) -> Result<Result<F::Output, SpecError>, F>;

    /// The games, in order.
    ///
    /// ```
    /// use qi_engine::{Games, Registry};
    ///
    /// let names: Vec<&str> = Games::games().iter().map(|g| g.name).collect();
    /// assert_eq!(names, ["jungle", "five-tigers"]);
    /// assert_eq!(Games::games()[1].presets[0], "shandong");
    /// ```
    fn games() -> Vec<GameInfo> {
        let mut out = Vec::new();
        Self::collect(&mut out);
        out
    }

    /// Every preset spec of every game (`jungle:standard`, ...), the
    /// registry's default first.
    ///
    /// ```
    /// use qi_engine::{Games, Registry};
    ///
    /// let specs = Games::preset_specs();
    /// assert_eq!(specs[0], "jungle:standard");
    /// assert!(specs.iter().any(|s| s == "five-tigers:ten"));
    /// assert_eq!(specs.len(), 8);
    /// ```
    fn preset_specs() -> Vec<String> {
        Self::games()
            .iter()
            .flat_map(|g| g.preset_specs().collect::<Vec<_>>())
            .collect()
    }

    /// The default spec: the first game's first preset.
    ///
    /// ```
    /// use qi_engine::{FiveTigersKit, Games, Registry};
    ///
    /// assert_eq!(Games::default_spec(), "jungle:standard");
    /// assert_eq!(<(FiveTigersKit, ())>::default_spec(), "five-tigers:shandong");
    /// ```
    fn default_spec() -> String {
        Self::preset_specs().into_iter().next().unwrap_or_default()
    }

    /// Reads `spec` (`GAME`, `GAME:PRESET`, then optional `,option=value`
    /// items) and runs `f` for that game under those rules.
    ///
    /// ```
    /// use qi_engine::{GameFn, GameKit, Games, Registry, RulesOf, RulesSpec, SpecError};
    ///
    /// /// The rules' spec.
    /// struct Spec;
    /// impl GameFn for Spec {
    ///     type Output = String;
    ///     fn call<K: GameKit>(self, rules: RulesOf<K>) -> String {
    ///         rules.to_spec(K::NAME)
    ///     }
    /// }
    ///
    /// assert_eq!(Games::dispatch("jungle:datou", Spec).unwrap(), "jungle:datou");
    /// assert!(matches!(Games::dispatch("chess", Spec), Err(SpecError::UnknownGame { .. })));
    /// assert!(matches!(Games::dispatch("jungle:chess", Spec), Err(SpecError::BadRules { .. })));
    /// ```
    fn dispatch<F: GameFn>(spec: &str, f: F) -> Result<F::Output, SpecError> {
        let spec = spec.trim();
        let name = spec.split([':', ',']).next().unwrap_or_default();
        match Self::try_dispatch(name, spec, f) {
            Ok(result) => result,
            Err(_) => Err(SpecError::UnknownGame {
                name: name.to_string(),
                known: Self::games()
                    .iter()
                    .map(|g| format!("'{}'", g.name))
                    .collect::<Vec<_>>()
                    .join(" or "),
            }),
        }
    }

    /// Checks `spec` and returns it in canonical form (`GAME:` followed by
    /// the rules' own text), so that equal rule sets compare equal.
    ///
    /// ```
    /// use qi_engine::{Games, Registry};
    ///
    /// assert_eq!(Games::canonical(" jungle ").unwrap(), "jungle:standard");
    /// assert_eq!(Games::canonical("five-tigers:shandong,pieces_per_side=10").unwrap(), "five-tigers:ten");
    /// assert!(Games::canonical("jungle:chess").is_err());
    /// ```
    fn canonical(spec: &str) -> Result<String, SpecError> {
        struct Canonical;
        impl GameFn for Canonical {
            type Output = String;
            fn call<K: GameKit>(self, rules: RulesOf<K>) -> String {
                spec_of::<K>(&rules)
            }
        }
        Self::dispatch(spec, Canonical)
    }
}

impl Registry for () {
    fn collect(_: &mut Vec<GameInfo>) {}

    fn try_dispatch<F: GameFn>(_: &str, _: &str, f: F) -> Result<Result<F::Output, SpecError>, F> {
        Err(f)
    }
}

impl<K: GameKit, Rest: Registry> Registry for (K, Rest) {
    fn collect(out: &mut Vec<GameInfo>) {
        out.push(GameInfo {
            name: K::NAME,
            presets: K::PRESETS,
        });
        Rest::collect(out);
    }

    fn try_dispatch<F: GameFn>(
        name: &str,
        spec: &str,
        f: F,
    ) -> Result<Result<F::Output, SpecError>, F> {
        if name != K::NAME {
            return Rest::try_dispatch(name, spec, f);
        }
        Ok(K::parse_rules(spec)
            .map(|rules| f.call::<K>(rules))
            .map_err(SpecError::rules_of::<K>))
    }
}
