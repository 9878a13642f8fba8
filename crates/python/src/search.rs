//! The engine behind the Python `Engine` class: one searcher per game
//! kind, kept between searches (its hash table and history survive).

use std::sync::atomic::AtomicBool;

use qi_engine::{EvalProfile, FiveTigersKit, GameKit, JungleKit};
use qi_search::{Limits, SearchHooks, Searcher, Strength};

use crate::game::{AnyGame, Kit, Typed};

/// A search's answer, as text.
pub(crate) struct Found {
    pub(crate) best_move: Option<String>,
    pub(crate) score: i32,
    pub(crate) score_text: String,
    pub(crate) depth: u32,
    pub(crate) nodes: u64,
    pub(crate) pv: Vec<String>,
    pub(crate) seconds: f64,
    /// The root moves' lines (MultiPV), best first.
    pub(crate) lines: Vec<FoundLine>,
}

/// One root move's line, as text.
pub(crate) struct FoundLine {
    pub(crate) score: i32,
    pub(crate) score_text: String,
    pub(crate) depth: u32,
    pub(crate) pv: Vec<String>,
}

/// A searcher for either kind of game.
pub(crate) trait AnySearcher: Send {
    fn search(
        &mut self,
        game: &dyn AnyGame,
        limits: Limits,
        strength: Option<&mut Strength>,
        multi_pv: usize,
        stop: &AtomicBool,
    ) -> Result<Found, String>;
    fn clear(&mut self);
}

struct KitSearcher<K: Kit> {
    searcher: Searcher<K::Game, K::Hooks>,
    eval: K::Eval,
}

impl<K: Kit> AnySearcher for KitSearcher<K>
where
    Searcher<K::Game, K::Hooks>: Send,
{
    fn search(
        &mut self,
        game: &dyn AnyGame,
        limits: Limits,
        strength: Option<&mut Strength>,
        multi_pv: usize,
        stop: &AtomicBool,
    ) -> Result<Found, String> {
        let typed = game.as_any().downcast_ref::<Typed<K>>().ok_or_else(|| {
            format!(
                "this engine plays {}, not the game of spec '{}'",
                K::NAME,
                game.spec()
            )
        })?;
        let mut game = typed.game.clone();
        let options = self.searcher.options().with_multi_pv(multi_pv);
        // The same table size and threads: nothing is reallocated.
        self.searcher.set_options(options);
        let result = match strength {
            Some(strength) => self.searcher.search_at(
                &mut game,
                &self.eval,
                limits,
                strength,
                &K::STRENGTH,
                stop,
                |_| {},
            ),
            None => self
                .searcher
                .search(&mut game, &self.eval, limits, stop, |_| {}),
        };
        Ok(Found {
            best_move: result.best_move.map(|mv| mv.to_string()),
            score: result.score.value(),
            score_text: result.score.to_string(),
            depth: result.depth,
            nodes: result.nodes,
            pv: result.pv.iter().map(ToString::to_string).collect(),
            seconds: result.elapsed.as_secs_f64(),
            lines: result
                .lines
                .iter()
                .map(|line| FoundLine {
                    score: line.score.value(),
                    score_text: line.score.to_string(),
                    depth: line.depth,
                    pv: line.pv.iter().map(ToString::to_string).collect(),
                })
                .collect(),
        })
    }

    fn clear(&mut self) {
        self.searcher.clear();
    }
}

fn searcher_for<K: Kit>(
    hash_mib: usize,
    profile: EvalProfile,
) -> Result<Box<dyn AnySearcher>, String>
where
    Searcher<K::Game, K::Hooks>: Send,
{
    if !K::PROFILES.contains(&profile) {
        return Err(format!("{} has no evaluation profile '{profile}'", K::NAME));
    }
    let hooks = K::hooks(profile);
    let mut options = hooks.tuned_options();
    options.hash_mib = hash_mib;
    Ok(Box::new(KitSearcher::<K> {
        searcher: Searcher::with_hooks(options, hooks),
        eval: K::eval(profile),
    }))
}

/// The searcher for the game `name` (`jungle`, `five-tigers`) with the
/// evaluation of `profile`.
pub(crate) fn new_searcher(
    name: &str,
    hash_mib: usize,
    profile: EvalProfile,
) -> Result<Box<dyn AnySearcher>, String> {
    match name {
        JungleKit::NAME => searcher_for::<JungleKit>(hash_mib, profile),
        FiveTigersKit::NAME => searcher_for::<FiveTigersKit>(hash_mib, profile),
        other => Err(format!(
            "unknown game '{}' (expected 'jungle' or 'five-tigers')",
            qi_core::Escaped(other)
        )),
    }
}
