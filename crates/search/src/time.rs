//! Time management: how long the side to move may think, given a fixed
//! move time or the game clock, and whether one more iteration of the
//! search fits in that time.

use std::time::Duration;

use web_time::Instant;

use qi_core::Side;

use crate::limits::Limits;

/// The game clock as `go wtime W btime B winc WI binc BI movestogo N`
/// gives it. Per-side fields are indexed by [`Side::index`]: the first
/// player (Red, `wtime`/`winc`) at 0, the second (Blue, `btime`/`binc`)
/// at 1.
///
/// Fields may be added, so outside this crate a clock is built from
/// [`Default`] (no clock given) and the `with_` methods:
///
/// ```
/// use std::time::Duration;
///
/// use qi_games::base::Side;
/// use qi_games::search::Clock;
///
/// // go wtime 60000 btime 60000 winc 1000 binc 1000 movestogo 20
/// let mut clock = Clock::default().with_movestogo(20);
/// for side in Side::BOTH {
///     clock = clock.with_time(side, Duration::from_secs(60)).with_inc(side, Duration::from_secs(1));
/// }
/// // 60 s over 20 moves, plus three quarters of the increment.
/// assert_eq!(clock.budget(Side::First), Some(Duration::from_millis(3_750)));
/// assert_eq!(Clock::default().budget(Side::First), None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Clock {
    /// Time left on each side's clock (`None`: not given).
    pub time: [Option<Duration>; 2],
    /// Time each side gains per move (`None`: no increment).
    pub inc: [Option<Duration>; 2],
    /// Moves to play before the next time control (`None`: the rest of
    /// the game).
    pub movestogo: Option<u32>,
}

impl Clock {
    /// This clock with `time` left on `side`'s clock.
    pub const fn with_time(mut self, side: Side, time: Duration) -> Clock {
        self.time[side.index()] = Some(time);
        self
    }

    /// This clock with `side` gaining `inc` per move.
    pub const fn with_inc(mut self, side: Side, inc: Duration) -> Clock {
        self.inc[side.index()] = Some(inc);
        self
    }

    /// This clock with `movestogo` moves before the next time control.
    pub const fn with_movestogo(mut self, movestogo: u32) -> Clock {
        self.movestogo = Some(movestogo);
        self
    }

    /// Time left on `side`'s clock.
    pub fn time(&self, side: Side) -> Option<Duration> {
        self.time[side.index()]
    }

    /// Time `side` gains per move (zero when not given).
    pub fn inc(&self, side: Side) -> Duration {
        self.inc[side.index()].unwrap_or_default()
    }

    /// The time `side` may spend on its move, or `None` when its clock is
    /// not given: its time left shared over the moves to go, plus three
    /// quarters of its increment, at most half its time left (less 30 ms)
    /// and at least 5 ms.
    pub fn budget(&self, side: Side) -> Option<Duration> {
        self.time(side)
            .map(|time| budget(time, self.inc(side), self.movestogo))
    }
}

/// The time to spend on one move with `time` left on the clock.
fn budget(time: Duration, inc: Duration, movestogo: Option<u32>) -> Duration {
    // With no time control ahead, plan as if 30 moves remained.
    let moves = movestogo.unwrap_or(30).clamp(1, 60);
    let margin = Duration::from_millis(30);
    // Saturating: a clock or increment of any size (`Duration::MAX`) gives
    // a budget, not an overflow.
    let budget = (time / moves).saturating_add(inc.saturating_mul(3) / 4);
    // Never stake more than half the clock on one move, and keep a margin
    // for the time the search takes to stop and answer.
    let cap = (time / 2).saturating_sub(margin);
    budget.min(cap).max(Duration::from_millis(5))
}

/// The time limit of one search: the budget of the side to move, when the
/// search must stop, and whether another iteration is predicted to finish
/// in time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeManager {
    budget: Option<Duration>,
    /// Time since the start when the last iteration ended.
    last_time: Duration,
    /// Nodes searched when the last iteration ended.
    last_nodes: u64,
    /// Nodes the last iteration took (0 before the first).
    previous_nodes: u64,
}

impl TimeManager {
    /// The time limit of a search within `limits` by `side` (the side to
    /// move): `limits.movetime` when given, else a budget from `side`'s
    /// [`Clock`] time; none at all for an infinite search.
    pub fn new(limits: &Limits, side: Side) -> TimeManager {
        let budget = if limits.infinite {
            None
        } else {
            limits.movetime.or_else(|| limits.clock.budget(side))
        };
        TimeManager {
            budget,
            last_time: Duration::ZERO,
            last_nodes: 0,
            previous_nodes: 0,
        }
    }

    /// The time the search may take (`None`: no time limit).
    pub fn budget(&self) -> Option<Duration> {
        self.budget
    }

    /// The time left `elapsed` after the search started (`None`: no time
    /// limit; zero once the budget is spent).
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// use qi_games::base::Side;
    /// use qi_games::search::{Limits, TimeManager};
    ///
    /// let timer = TimeManager::new(&Limits::movetime(Duration::from_millis(300)), Side::First);
    /// assert_eq!(timer.time_left(Duration::from_millis(100)), Some(Duration::from_millis(200)));
    /// assert_eq!(timer.time_left(Duration::from_secs(1)), Some(Duration::ZERO));
    /// assert_eq!(TimeManager::new(&Limits::depth(3), Side::First).time_left(Duration::ZERO), None);
    /// ```
    pub fn time_left(&self, elapsed: Duration) -> Option<Duration> {
        self.budget.map(|t| t.saturating_sub(elapsed))
    }

    /// When a search that started at `start` must stop (`None` also when
    /// the budget reaches past any time the clock can name). Internal: the
    /// clock type is the browser's in WebAssembly.
    pub(crate) fn deadline(&self, start: Instant) -> Option<Instant> {
        self.budget.and_then(|t| start.checked_add(t))
    }

    /// After an iteration that ended `elapsed` after the start with `nodes`
    /// nodes searched since the start: whether the next iteration is
    /// predicted to end within the budget (always, without one).
    pub fn next_iteration_fits(&mut self, elapsed: Duration, nodes: u64) -> bool {
        let Some(budget) = self.budget else {
            return true;
        };
        // Predict the next iteration's length from this one's, grown as the
        // node count grew last (node counts, unlike times, do not depend on
        // the machine's load).
        let this = elapsed.saturating_sub(self.last_time);
        let this_nodes = nodes.saturating_sub(self.last_nodes);
        let growth = if self.previous_nodes == 0 {
            2.0
        } else {
            (this_nodes as f64 / self.previous_nodes as f64).clamp(1.2, 4.0)
        };
        let next =
            Duration::try_from_secs_f64(this.as_secs_f64() * growth).unwrap_or(Duration::MAX);
        if elapsed.saturating_add(next) >= budget {
            return false;
        }
        self.previous_nodes = this_nodes;
        self.last_nodes = nodes;
        self.last_time = elapsed;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    /// Limits with Red (first) and Blue (second) clocks and increments.
    fn clock(red: u64, blue: u64, red_inc: u64, blue_inc: u64) -> Limits {
        Limits {
            clock: Clock {
                time: [Some(ms(red)), Some(ms(blue))],
                inc: [Some(ms(red_inc)), Some(ms(blue_inc))],
                movestogo: None,
            },
            ..Limits::default()
        }
    }

    #[test]
    fn time_budget_stays_within_the_clock() {
        let b = budget(Duration::from_secs(60), Duration::ZERO, None);
        assert_eq!(b, Duration::from_secs(2));
        let b = budget(Duration::from_millis(100), Duration::from_secs(1), None);
        assert!(b <= Duration::from_millis(50));
        let b = budget(Duration::from_millis(1), Duration::ZERO, None);
        assert_eq!(b, Duration::from_millis(5));
    }

    #[test]
    fn moves_to_go_share_the_time() {
        assert_eq!(budget(ms(10_000), ms(0), Some(4)), ms(2_500));
        // Clamped to 1..=60 moves, and to half the clock less the margin.
        assert_eq!(budget(ms(10_000), ms(0), Some(0)), ms(4_970));
        assert_eq!(budget(ms(60_000), ms(0), Some(100)), ms(1_000));
    }

    #[test]
    fn each_side_uses_its_own_clock() {
        let limits = clock(60_000, 30_000, 400, 800);
        // Red (wtime, winc): 60 s / 30 + 3/4 of 400 ms.
        let red = TimeManager::new(&limits, Side::First);
        assert_eq!(red.budget(), Some(ms(2_300)));
        // Blue (btime, binc): 30 s / 30 + 3/4 of 800 ms.
        let blue = TimeManager::new(&limits, Side::Second);
        assert_eq!(blue.budget(), Some(ms(1_600)));
        assert_eq!(limits.clock.budget(Side::First), Some(ms(2_300)));
        assert_eq!(limits.clock.budget(Side::Second), Some(ms(1_600)));
    }

    #[test]
    fn a_side_without_a_clock_has_no_budget() {
        let mut limits = clock(60_000, 30_000, 0, 0);
        limits.clock.time[Side::Second.index()] = None;
        limits.clock.inc = [None, None];
        assert_eq!(
            TimeManager::new(&limits, Side::First).budget(),
            Some(ms(2_000))
        );
        assert_eq!(TimeManager::new(&limits, Side::Second).budget(), None);
        assert_eq!(
            TimeManager::new(&Limits::default(), Side::First).budget(),
            None
        );
        assert_eq!(
            TimeManager::new(&Limits::depth(5), Side::Second).budget(),
            None
        );
    }

    #[test]
    fn movetime_takes_precedence_over_the_clock() {
        let mut limits = clock(60_000, 30_000, 400, 800);
        limits.movetime = Some(ms(250));
        for side in Side::BOTH {
            assert_eq!(TimeManager::new(&limits, side).budget(), Some(ms(250)));
        }
        assert_eq!(
            TimeManager::new(&Limits::movetime(ms(70)), Side::Second).budget(),
            Some(ms(70))
        );
    }

    #[test]
    fn an_infinite_search_has_no_time_limit() {
        let mut limits = clock(60_000, 30_000, 0, 0);
        limits.movetime = Some(ms(250));
        limits.infinite = true;
        let mut tm = TimeManager::new(&limits, Side::First);
        assert_eq!(tm.budget(), None);
        assert_eq!(tm.deadline(Instant::now()), None);
        assert!(tm.next_iteration_fits(Duration::from_secs(3_600), u64::MAX));
    }

    #[test]
    fn the_deadline_is_the_budget_after_the_start() {
        let start = Instant::now();
        let tm = TimeManager::new(&Limits::movetime(ms(300)), Side::First);
        assert_eq!(tm.deadline(start), Some(start + ms(300)));
    }

    #[test]
    fn the_next_iteration_is_predicted_from_the_node_growth() {
        let mut tm = TimeManager::new(&Limits::movetime(ms(1_000)), Side::First);
        // First iteration: 100 ms; with no growth known yet, the next is
        // taken to last twice as long.
        assert!(tm.next_iteration_fits(ms(100), 1_000));
        // 300 ms for 4 times the nodes: the next would take 4 × 300 ms.
        assert!(!tm.next_iteration_fits(ms(400), 5_000));

        let mut tm = TimeManager::new(&Limits::movetime(ms(1_000)), Side::First);
        assert!(tm.next_iteration_fits(ms(100), 1_000));
        // 150 ms for 1.1 times the nodes: growth is at least 1.2, so 180 ms.
        assert!(tm.next_iteration_fits(ms(250), 2_100));
        // 500 ms for about as many nodes: 750 + 1.2 × 500 ms is past the
        // budget.
        assert!(!tm.next_iteration_fits(ms(750), 3_300));
        // An iteration predicted to end exactly at the budget does not fit.
        let mut tm = TimeManager::new(&Limits::movetime(ms(300)), Side::First);
        assert!(!tm.next_iteration_fits(ms(100), 1_000));
    }
}
