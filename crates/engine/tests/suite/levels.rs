//! Strength levels through the type-erased engine: a seed makes a level's
//! games repeat move for move, level 10 is the full engine, weaker levels
//! search less and lose to stronger ones, and a weak level still sees a
//! den entered or an animal taken next move. Searches are bounded by
//! nodes, so nothing here depends on the machine's speed.

use qi_engine::arena::{
    self, BoxedPlayer, InProcessPlayer, MatchConfig, Player, PlayerError, Reply,
};
use qi_engine::options::Overrides;
use qi_engine::{engine_for, DynEngine, EvalProfile, GameKit, Games, JungleKit};
use qi_search::{Level, Limits};

fn engine(spec: &str, level: Level, seed: u64) -> Box<dyn DynEngine> {
    let mut engine =
        engine_for::<Games>(spec, EvalProfile::Default, &Overrides::default()).unwrap();
    engine.set_strength(level, seed);
    engine
}

/// The moves of a game the engine plays against itself for `plies`.
fn self_play(engine: &mut dyn DynEngine, plies: usize, limits: Limits) -> Vec<String> {
    engine.new_game();
    let mut moves = Vec::new();
    for _ in 0..plies {
        engine.set_position(None, &moves).unwrap();
        if engine.outcome().is_some() {
            break;
        }
        moves.push(engine.best_move(limits).unwrap().mv);
    }
    moves
}

#[test]
fn a_seed_replays_a_levels_games_and_another_seed_plays_others() {
    for spec in ["jungle", "five-tigers"] {
        for level in [1, 4, 8] {
            let level = Level::new(level).unwrap();
            let limits = Limits::nodes(50_000);
            let first = self_play(&mut *engine(spec, level, 11), 30, limits);
            let again = self_play(&mut *engine(spec, level, 11), 30, limits);
            assert_eq!(first, again, "{spec} level {level}");
            // The same engine's next game, from the seed again.
            let mut one = engine(spec, level, 11);
            self_play(&mut *one, 10, limits);
            assert_eq!(
                self_play(&mut *one, 30, limits),
                first,
                "{spec} level {level}"
            );
            if level.get() <= 4 {
                let other =
                    (12..20).map(|seed| self_play(&mut *engine(spec, level, seed), 30, limits));
                assert!(
                    other.into_iter().any(|g| g != first),
                    "{spec} level {level}"
                );
            }
        }
    }
}

#[test]
fn level_ten_is_the_full_engine() {
    for (spec, position) in [
        ("jungle", None),
        (
            "jungle",
            Some("l5t/1d3c1/r1p1w2/6e/7/E6/2W1P1R/1C3D1/T5L w 2 2"),
        ),
        ("five-tigers", None),
        (
            "five-tigers",
            Some("5/5/2X2/5/5 o place X:12,O:13 - o -,- 0"),
        ),
    ] {
        let mut full =
            engine_for::<Games>(spec, EvalProfile::Default, &Overrides::default()).unwrap();
        let mut ten = engine(spec, Level::FULL, 99);
        for e in [&mut full, &mut ten] {
            e.set_position(position, &[]).unwrap();
        }
        for depth in [4, 7] {
            assert_eq!(
                full.best_move(Limits::depth(depth)),
                ten.best_move(Limits::depth(depth))
            );
        }
    }
}

/// A player that searches the engine's position at `level` within the
/// match's limits.
fn player(level: u8) -> BoxedPlayer {
    Box::new(InProcessPlayer::new(engine(
        "jungle",
        Level::new(level).unwrap(),
        u64::from(level),
    )))
}

/// Player A's score (0 to 1) over `games` games of the built-in openings.
fn score(a: BoxedPlayer, b: BoxedPlayer, games: usize, nodes: u64) -> f64 {
    let start = <JungleKit as GameKit>::Position::new(JungleKit::parse_rules("jungle").unwrap());
    let openings = arena::builtin_openings::<JungleKit>(&start).unwrap();
    let config = MatchConfig::new(games)
        .with_movetime(None)
        .with_nodes(nodes)
        .with_max_plies(300);
    let tally = arena::play_match::<<JungleKit as GameKit>::Game>(
        &config,
        &start,
        &openings,
        vec![[a, b]],
        |_| {},
    );
    tally.points() / f64::from(tally.games())
}

/// A uniformly random mover with a fixed sequence.
struct RandomMover(u64);

impl Player for RandomMover {
    fn new_game(&mut self) -> Result<(), PlayerError> {
        Ok(())
    }

    fn best_move(
        &mut self,
        start: Option<&str>,
        moves: &[String],
        _: &Limits,
    ) -> Result<Reply, PlayerError> {
        let mut engine = engine("jungle", Level::FULL, 0);
        engine
            .set_position(start, moves)
            .map_err(|e| PlayerError(e.to_string()))?;
        let legal = engine.moves();
        let (next, value) = qi_core::zobrist::splitmix64(self.0);
        self.0 = next;
        Ok(Reply {
            mv: legal[(value % legal.len() as u64) as usize].clone(),
            verdict: Default::default(),
        })
    }
}

#[test]
fn weaker_levels_lose_to_stronger_ones_and_the_weakest_beats_random() {
    assert!(score(player(1), Box::new(RandomMover(5)), 20, 20_000) >= 0.9);
    assert!(score(player(8), player(2), 20, 20_000) >= 0.75);
    assert!(score(player(10), player(1), 20, 20_000) >= 0.9);
}

#[test]
fn weak_levels_answer_with_few_nodes_whatever_the_limits() {
    for spec in ["jungle", "five-tigers"] {
        for level in [1, 5, 9] {
            let scale = engine(spec, Level::FULL, 0).strength_scale();
            let plan = Level::new(level).unwrap().plan(&scale).unwrap();
            let mut e = engine(spec, Level::new(level).unwrap(), 3);
            // Asked for depth 40, a weak level still stops at its budget
            // (after its one-ply search): it never spends the time asked.
            let best = e.best_move(Limits::depth(40)).unwrap();
            assert!(
                best.depth < 40,
                "{spec} level {level}: depth {}",
                best.depth
            );
            assert_eq!(best.lines.len(), plan.lines);
        }
    }
}

#[test]
fn the_weakest_level_enters_the_den_and_guards_its_own() {
    for seed in 0..20 {
        // Red's Lion enters the den at d9.
        let mut e = engine("jungle", Level::WEAKEST, seed);
        e.set_position(Some("7/3L3/7/7/7/7/7/7/6l w 0 1"), &[])
            .unwrap();
        assert_eq!(
            e.best_move(Limits::nodes(100)).unwrap().mv,
            "d8d9",
            "seed {seed}"
        );
        // Blue's Lion at d2 would enter Red's den next move: Red's
        // Elephant at e2 takes it.
        e.set_position(Some("6R/7/7/7/7/7/7/3lE2/7 w 0 1"), &[])
            .unwrap();
        assert_eq!(
            e.best_move(Limits::nodes(100)).unwrap().mv,
            "e2d2",
            "seed {seed}"
        );
    }
}

#[test]
fn a_rating_picks_the_level_measured_nearest_to_it() {
    use qi_engine::strength::StrengthOptions;
    use qi_engine::FiveTigersKit;
    for scale in [JungleKit::STRENGTH, FiveTigersKit::STRENGTH] {
        // The measured ladder climbs.
        assert!(scale.ratings.windows(2).all(|w| w[0] < w[1]), "{scale:?}");
        for level in Level::all() {
            let rating = scale.ratings[usize::from(level.get()) - 1];
            let mut options = StrengthOptions::default();
            options.set("Level", "5").unwrap();
            options.set("Elo", &(rating + 10).to_string()).unwrap();
            assert_eq!(options.level_for(&scale).get(), 5, "LimitStrength is off");
            options.set("LimitStrength", "true").unwrap();
            assert_eq!(options.level_for(&scale), level);
        }
    }
}
