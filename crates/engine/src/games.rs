//! The kits of the games this library ships (see [`Games`](crate::Games)).

use std::path::Path;
use std::sync::Arc;

use qi_five_tigers::FiveTigers;
use qi_jungle::Jungle;
use qi_search::StrengthScale;

use crate::five_tigers::{FiveTigersEval, FiveTigersHooks, FiveTigersWeights};
use crate::jungle::{nnue, JungleEval, JungleHooks, JungleWeights};
use crate::kit::{EvalFileError, EvalProfile, GameKit, TablebaseError};
use crate::render;

/// Jungle (斗兽棋) with [`JungleEval`] and [`JungleHooks`].
#[derive(Clone, Copy, Debug)]
pub enum JungleKit {}

/// The profile Jungle's `default` stands for: the hybrid, which beat the
/// hand-written evaluation (docs/nnue.md, try 5). Every other profile is
/// itself.
fn jungle_profile(profile: EvalProfile) -> EvalProfile {
    match profile {
        EvalProfile::Default => EvalProfile::Hybrid,
        other => other,
    }
}

fn jungle_weights(profile: EvalProfile) -> JungleWeights {
    match profile {
        EvalProfile::Material => JungleWeights::material_only(),
        _ => JungleWeights::default(),
    }
}

/// The evaluation of a profile with a network (`nnue`, `hybrid`) scoring
/// with `network`.
fn with_profile_network(profile: EvalProfile, network: Arc<nnue::Network>) -> JungleEval {
    let eval = JungleEval::new(jungle_weights(profile)).with_network(network);
    match profile {
        EvalProfile::Hybrid => eval.with_network_share(nnue::HYBRID_NETWORK_SHARE),
        _ => eval,
    }
}

impl GameKit for JungleKit {
    type Position = Jungle;
    type Game = qi_jungle::Game;
    type Eval = JungleEval;
    type Hooks = JungleHooks;

    const NAME: &'static str = "jungle";
    const PRESETS: &'static [&'static str] = &qi_jungle::Rules::PRESETS;
    const OPENINGS: Option<&'static str> = Some(include_str!("../openings/jungle.txt"));
    /// The Cat (250) is the cheapest animal. Node budgets and ratings:
    /// `docs/levels.md`.
    const STRENGTH: StrengthScale = StrengthScale {
        unit: 250,
        nodes: [0, 0, 500, 900, 2_000, 3_500, 6_000, 14_000, 40_000],
        ratings: [802, 908, 1018, 1165, 1271, 1386, 1477, 1598, 1791, 1918],
    };

    const PROFILES: &'static [EvalProfile] = &EvalProfile::ALL;

    fn eval(profile: EvalProfile) -> JungleEval {
        match jungle_profile(profile) {
            // The committed file is read by the tests (`nnue` tests), so
            // this cannot fail in a released build.
            profile @ (EvalProfile::Nnue | EvalProfile::Hybrid) => with_profile_network(
                profile,
                nnue::profile_network().expect("the embedded network is valid (tested)"),
            ),
            profile => JungleEval::new(jungle_weights(profile)),
        }
    }

    /// The `nnue`, `hybrid` and `default` profiles score with the file's network
    /// corrected as the embedded one is ([`nnue::PROFILE_TEMPO`]), so that
    /// networks are compared as the profiles play them; the other profiles
    /// have no network and only check the file.
    ///
    /// ```
    /// use qi_core::Evaluator;
    /// use qi_engine::{EvalProfile, GameKit, JungleKit};
    /// use qi_jungle::Jungle;
    ///
    /// let file = std::env::temp_dir().join(format!("qi-kit-doc-{}.nnue", std::process::id()));
    /// std::fs::write(&file, qi_engine::jungle::nnue::EMBEDDED_BYTES).unwrap();
    /// let from_file = JungleKit::eval_with_file(EvalProfile::Nnue, Some(&file)).unwrap();
    /// let pos = Jungle::default();
    /// assert_eq!(from_file.evaluate(&pos), JungleKit::eval(EvalProfile::Nnue).evaluate(&pos));
    /// std::fs::remove_file(&file).unwrap();
    /// ```
    fn eval_with_file(
        profile: EvalProfile,
        file: Option<&Path>,
    ) -> Result<JungleEval, EvalFileError> {
        let Some(path) = file else {
            return Ok(Self::eval(profile));
        };
        let named = || path.display().to_string();
        let net = nnue::Network::from_file(path).map_err(|e| match e {
            nnue::NetworkError::Io { source, .. } => EvalFileError::Read {
                path: named(),
                source,
            },
            source => EvalFileError::Network {
                path: named(),
                source,
            },
        })?;
        Ok(match jungle_profile(profile) {
            profile @ (EvalProfile::Nnue | EvalProfile::Hybrid) => {
                with_profile_network(profile, Arc::new(net.with_tempo(nnue::PROFILE_TEMPO)))
            }
            _ => Self::eval(profile),
        })
    }

    fn hooks(profile: EvalProfile) -> JungleHooks {
        JungleHooks::new(&jungle_weights(profile))
    }

    fn draw(position: &Jungle) -> String {
        render::jungle(position)
    }

    #[cfg(feature = "tablebase")]
    fn attach_tablebase(
        hooks: &mut JungleHooks,
        rules: &qi_jungle::Rules,
        dir: Option<&Path>,
    ) -> Result<usize, TablebaseError> {
        let tables = match dir {
            Some(dir) => Some(Arc::new(qi_tablebase::jungle::LazyTablebase::open(
                dir, rules,
            )?)),
            None => None,
        };
        let found = tables.as_ref().map_or(0, |t| t.found());
        *hooks = hooks.clone().with_tablebase(tables);
        Ok(found)
    }

    #[cfg(not(feature = "tablebase"))]
    fn attach_tablebase(
        _: &mut JungleHooks,
        _: &qi_jungle::Rules,
        dir: Option<&Path>,
    ) -> Result<usize, TablebaseError> {
        crate::kit::tables_not_built(dir)
    }
}

/// Five Tigers (五虎棋) with [`FiveTigersEval`] and [`FiveTigersHooks`].
#[derive(Clone, Copy, Debug)]
pub enum FiveTigersKit {}

impl GameKit for FiveTigersKit {
    type Position = FiveTigers;
    type Game = qi_five_tigers::Game;
    type Eval = FiveTigersEval;
    type Hooks = FiveTigersHooks;

    const NAME: &'static str = "five-tigers";
    const PRESETS: &'static [&'static str] = &qi_five_tigers::Rules::PRESETS;
    const OPENINGS: Option<&'static str> = Some(include_str!("../openings/five-tigers.txt"));
    /// Every piece is worth 100. Node budgets and ratings:
    /// `docs/levels.md`.
    const STRENGTH: StrengthScale = StrengthScale {
        unit: 100,
        nodes: [0, 0, 250, 1_200, 3_000, 6_000, 12_000, 30_000, 100_000],
        ratings: [802, 909, 1036, 1188, 1299, 1430, 1585, 1659, 1734, 1924],
    };

    fn eval(profile: EvalProfile) -> FiveTigersEval {
        // Five Tigers has no network: `default` is the hand-written
        // evaluation (and `engine_for` refuses `nnue` and `hybrid`).
        FiveTigersEval::new(match profile {
            EvalProfile::Material => FiveTigersWeights::material_only(),
            _ => FiveTigersWeights::default(),
        })
    }

    fn hooks(_: EvalProfile) -> FiveTigersHooks {
        FiveTigersHooks::default()
    }

    fn draw(position: &FiveTigers) -> String {
        render::five_tigers(position)
    }

    #[cfg(feature = "tablebase")]
    fn attach_tablebase(
        hooks: &mut FiveTigersHooks,
        rules: &qi_five_tigers::Rules,
        dir: Option<&Path>,
    ) -> Result<usize, TablebaseError> {
        let Some(dir) = dir else {
            *hooks = hooks.clone().with_tablebase(None);
            return Ok(0);
        };
        let tables = Arc::new(qi_tablebase::five_tigers::LazyTablebase::open(dir, rules)?);
        let found = tables.found();
        // A big file read in the search stalls it for seconds (the 5v5
        // file, 1.9 GB, for tens of them): past this size every file is
        // read ahead by a thread, and the tables probed once all are in.
        *hooks = if largest_table_file(dir) > READ_AHEAD_BYTES {
            hooks.clone().with_tablebase_read_ahead(Some(tables))
        } else {
            hooks.clone().with_tablebase(Some(tables))
        };
        Ok(found)
    }

    #[cfg(not(feature = "tablebase"))]
    fn attach_tablebase(
        _: &mut FiveTigersHooks,
        _: &qi_five_tigers::Rules,
        dir: Option<&Path>,
    ) -> Result<usize, TablebaseError> {
        crate::kit::tables_not_built(dir)
    }

    #[cfg(feature = "tablebase")]
    fn tables_ready(hooks: &FiveTigersHooks) -> bool {
        hooks.tables_ready()
    }
}

/// The size of Five Tigers table file past which
/// [`FiveTigersKit::attach_tablebase`] reads the tables ahead instead of
/// in the search: 64 MiB, read and checked in about a second (the `4v4`
/// file, 175 MB, took 2.8 s on a loaded machine; every file to 3 a side
/// with the shuttle allowed is under 9 MB).
#[cfg(feature = "tablebase")]
const READ_AHEAD_BYTES: u64 = 64 << 20;

/// The size in bytes of the largest Five Tigers table file (`.qft`) in
/// `dir` (0 if none can be read).
#[cfg(feature = "tablebase")]
fn largest_table_file(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().extension().and_then(|x| x.to_str()) == Some("qft"))
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len())
        .max()
        .unwrap_or(0)
}
