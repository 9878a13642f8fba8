//! The one list of games: parses game specs (`jungle:datou`,
//! `five-tigers:ten`), lists games and presets, and runs a generic function
//! for the selected game.
//!
//! The list is a type: [`Games`] is a chain of kits `(K1, (K2, ()))`, so
//! dispatch is static (a generic function is monomorphised per game) and a
//! game joins by one entry in the chain. A program with a game of its own
//! extends the chain the same way: `type MyGames = (MyKit, qi_engine::Games);`.

use thiserror::Error;

use crate::kit::{spec_of, GameKit, RulesOf};

/// The games this library ships, in the order they are listed (the first
/// is the default).
pub type Games = (crate::games::JungleKit, (crate::games::FiveTigersKit, ()));

/// A function generic over the game, run by [`Registry::dispatch`] for the
/// game a spec names.
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
    /// The specs of every preset: `name:preset`.
    pub fn preset_specs(&self) -> impl Iterator<Item = String> + '_ {
        self.presets.iter().map(|p| format!("{}:{p}", self.name))
    }
}

/// Why a game spec could not be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    /// The game name is not in the registry.
    #[error("unknown game '{name}' (expected {known}, optionally with ':PRESET')")]
    UnknownGame {
        /// The name given.
        name: String,
        /// The known names, for the message.
        known: String,
    },
    /// The game is known but its rules text is not.
    #[error("{0}")]
    BadRules(String),
}

/// A list of games (a chain of [`GameKit`]s ending in `()`).
pub trait Registry {
    /// Appends the games of the chain to `out`, in order.
    fn collect(out: &mut Vec<GameInfo>);

    /// Runs `f` for the game named by `spec` if it is in this chain;
    /// gives `f` back otherwise.
    fn try_dispatch<F: GameFn>(
        name: &str,
        spec: &str,
        f: F,
    ) -> Result<Result<F::Output, SpecError>, F>;

    /// The games, in order.
    fn games() -> Vec<GameInfo> {
        let mut out = Vec::new();
        Self::collect(&mut out);
        out
    }

    /// Every preset spec of every game (`jungle:standard`, ...), the
    /// registry's default first.
    fn preset_specs() -> Vec<String> {
        Self::games()
            .iter()
            .flat_map(|g| g.preset_specs().collect::<Vec<_>>())
            .collect()
    }

    /// The default spec: the first game's first preset.
    fn default_spec() -> String {
        Self::preset_specs().into_iter().next().unwrap_or_default()
    }

    /// Reads `spec` (`GAME`, `GAME:PRESET`, then optional `,option=value`
    /// items) and runs `f` for that game under those rules.
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
            .map_err(SpecError::BadRules))
    }
}
