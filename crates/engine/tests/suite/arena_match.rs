//! The arena with engines of this process: games on several slots give
//! the tally of one slot, in game order; clocks are charged and a side
//! that oversteps its time forfeits; an SPRT stops the match at its bound.
//! Nothing here depends on the machine's speed: searches are bounded by
//! nodes, and the slow player sleeps far beyond its clock.

use std::thread;
use std::time::Duration;

use qi_engine::arena::{
    self, BoxedPlayer, GameReport, Hypothesis, InProcessPlayer, MatchConfig, Player, PlayerError,
    Reply, Sprt,
};
use qi_engine::options::Overrides;
use qi_engine::{EvalProfile, GameKit, JungleKit, KitEngine};
use qi_search::Limits;

fn engine(profile: EvalProfile) -> InProcessPlayer {
    let rules = JungleKit::parse_rules("jungle").unwrap();
    InProcessPlayer::new(Box::new(
        KitEngine::<JungleKit>::new(rules, profile, &Overrides::default()).unwrap(),
    ))
}

fn slots(n: usize, b: impl Fn() -> BoxedPlayer) -> Vec<[BoxedPlayer; 2]> {
    (0..n)
        .map(|_| [Box::new(engine(EvalProfile::Default)) as BoxedPlayer, b()])
        .collect()
}

fn run(config: &MatchConfig, slots: Vec<[BoxedPlayer; 2]>) -> (arena::Tally, Vec<GameReport>) {
    let start = <JungleKit as GameKit>::Position::new(JungleKit::parse_rules("jungle").unwrap());
    let openings = arena::builtin_openings::<JungleKit>(&start).unwrap();
    let mut reports = Vec::new();
    let tally =
        arena::play_match::<<JungleKit as GameKit>::Game>(config, &start, &openings, slots, |r| {
            reports.push(r.clone())
        });
    (tally, reports)
}

#[test]
fn three_slots_play_the_games_of_one() {
    let config = MatchConfig::new(6)
        .with_movetime(None)
        .with_nodes(150)
        .with_max_plies(40);
    let material = || Box::new(engine(EvalProfile::Material)) as BoxedPlayer;
    let (one, one_reports) = run(&config, slots(1, material));
    let (three, three_reports) = run(&config, slots(3, material));
    assert_eq!(one, three);
    assert_eq!(one_reports, three_reports);
    assert_eq!(one.games(), 6);
    assert_eq!(one.pair_count(), 3);
    let indices: Vec<usize> = three_reports.iter().map(|r| r.index).collect();
    assert_eq!(indices, [0, 1, 2, 3, 4, 5]);
    // Pair k is openings k, colours swapped.
    assert_eq!(three_reports[5].opening, 2);
    assert!(three_reports[0].verdicts.iter().all(|v| v.depth.is_some()));
}

/// A player that sleeps before it lets another answer.
struct Slow<P>(P, Duration);

impl<P: Player> Player for Slow<P> {
    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.0.new_game()
    }

    fn best_move(
        &mut self,
        start: Option<&str>,
        moves: &[String],
        limits: &Limits,
    ) -> Result<Reply, PlayerError> {
        thread::sleep(self.1);
        self.0.best_move(start, moves, limits)
    }
}

#[test]
fn a_side_past_its_clock_loses_on_time() {
    // A clock no search comes near: no forfeit.
    let config = MatchConfig::new(2)
        .with_movetime(None)
        .with_nodes(50)
        .with_tc("1000+0".parse().unwrap())
        .with_time_margin(Duration::ZERO)
        .with_max_plies(40);
    let slow = |ms| {
        move || {
            Box::new(Slow(
                engine(EvalProfile::Default),
                Duration::from_millis(ms),
            )) as BoxedPlayer
        }
    };
    let (tally, reports) = run(&config, slots(1, slow(0)));
    assert_eq!(tally.games(), 2);
    assert!(reports.iter().all(|r| !r.reason.contains("time forfeit")));
    // Half a second a side; B sleeps 2 s before each move (A's searches
    // of 50 nodes take far less than half a second).
    let config = config.with_tc("0.5".parse().unwrap());
    let (tally, reports) = run(&config, slots(1, slow(2000)));
    assert_eq!((tally.wins, tally.games()), (2, 2), "{reports:?}");
    for r in &reports {
        let b_side = r.a_side.opponent();
        let lost = format!("time forfeit: {b_side} took ");
        assert!(r.reason.starts_with(&lost), "{r:?}");
        assert!(r.reason.ends_with(" ms with 500 ms left"), "{r:?}");
    }
    // A player that fails after its time ran out lost on time too.
    let late_and_broken = || Box::new(Slow(Broken, Duration::from_millis(2000))) as BoxedPlayer;
    let (_, reports) = run(&config, slots(1, late_and_broken));
    for r in &reports {
        assert!(r.reason.starts_with("time forfeit: "), "{r:?}");
        assert!(r.reason.ends_with(" ms with 500 ms left (broken)"), "{r:?}");
    }
}

/// A player that cannot play.
struct Broken;

impl Player for Broken {
    fn new_game(&mut self) -> Result<(), PlayerError> {
        Ok(())
    }

    fn best_move(
        &mut self,
        _: Option<&str>,
        _: &[String],
        _: &Limits,
    ) -> Result<Reply, PlayerError> {
        Err(PlayerError("broken".into()))
    }
}

#[test]
fn the_sprt_stops_at_its_bound_whatever_the_slots() {
    let config = MatchConfig::new(100)
        .with_movetime(None)
        .with_nodes(50)
        .with_sprt(Sprt::new(-400.0, 400.0, 0.05, 0.05).unwrap());
    for n in [1, 2, 4] {
        let (tally, reports) = run(&config, slots(n, || Box::new(Broken) as BoxedPlayer));
        assert_eq!(tally.wins, 4, "{n} slots");
        assert_eq!(reports.len(), 4);
        let last = reports.last().unwrap().sprt.unwrap();
        assert_eq!(last.decision, Some(Hypothesis::H1));
        assert!(reports[..3]
            .iter()
            .all(|r| r.sprt.unwrap().decision.is_none()));
    }
}

#[test]
fn a_game_the_rules_end_is_named_in_the_game_s_own_words() {
    // Red's dog takes Blue's last animal: the rules' reason is "no pieces"
    // (the outcome's generic words); Jungle calls it "no animals left",
    // as the web page and a game's record do.
    let start = <JungleKit as GameKit>::Position::new(JungleKit::parse_rules("jungle").unwrap());
    let opening: <JungleKit as GameKit>::Position = "7/7/7/7/7/7/7/c6/D6 w 0 1".parse().unwrap();
    let config = MatchConfig::new(2)
        .with_movetime(None)
        .with_nodes(200)
        .with_max_plies(10);
    let mut reports = Vec::new();
    arena::play_match::<<JungleKit as GameKit>::Game>(
        &config,
        &start,
        std::slice::from_ref(&opening),
        slots(1, || Box::new(engine(EvalProfile::Default))),
        |r| reports.push(r.clone()),
    );
    assert_eq!(reports.len(), 2);
    for r in &reports {
        assert_eq!(r.moves, ["a1a2"], "{r:?}");
        assert!(r.outcome.is_some(), "{r:?}");
        assert_eq!(r.termination, "no animals left", "{r:?}");
    }
}

/// A match given no openings plays every game from the start position,
/// as a match given the start position alone does; a match given no slot
/// plays nothing. Neither panics.
#[test]
fn no_openings_play_from_the_start_and_no_slots_play_nothing() {
    let config = MatchConfig::new(2)
        .with_movetime(None)
        .with_nodes(100)
        .with_max_plies(12);
    let start = <JungleKit as GameKit>::Position::new(JungleKit::parse_rules("jungle").unwrap());
    let material = || Box::new(engine(EvalProfile::Material)) as BoxedPlayer;
    let play = |openings: &[<JungleKit as GameKit>::Position], slots| {
        let mut reports = Vec::new();
        let tally = arena::play_match::<<JungleKit as GameKit>::Game>(
            &config,
            &start,
            openings,
            slots,
            |r| reports.push(r.clone()),
        );
        (tally, reports)
    };
    let (none, none_reports) = play(&[], slots(1, material));
    let (one, one_reports) = play(std::slice::from_ref(&start), slots(1, material));
    assert_eq!(none.games(), 2);
    assert_eq!((none, none_reports), (one, one_reports));
    let (idle, idle_reports) = play(&[], Vec::new());
    assert_eq!((idle.games(), idle_reports.len()), (0, 0));
}
