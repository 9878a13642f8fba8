//! Playing strengths a person can beat: [`Level`]s from 1 (a beginner's
//! opponent) to 10 (the full engine), game-neutral, each game supplying
//! only its [`StrengthScale`].
//!
//! A level below the full engine weakens the search in the two ways that
//! keep its play plausible (the reasons are in `docs/levels.md`):
//!
//! * a node budget that roughly doubles a level, so weak levels look only a few
//!   plies ahead and answer at once, yet always finish a one-ply search
//!   with its quiescence (they see a piece left hanging or a den entered
//!   next move);
//! * a choice among the best four root moves (MultiPV) with a random,
//!   level-scaled error, as Stockfish's Skill Level does: at level 1 any
//!   of them whose score is within the game's smallest piece of the best,
//!   at level 9 almost always the best. A line that loses more than that
//!   (a forced loss while the best is not, an animal given for nothing) is
//!   never chosen.
//!
//! With the same seed, the same searches choose the same moves.

use std::fmt;
use std::str::FromStr;

use qi_core::zobrist::splitmix64;

use crate::report::PvLine;

/// A playing strength: 1 is the weakest, 10 ([`Level::FULL`]) the full
/// engine with the limits it is given.
///
/// Ten steps rather than Stockfish's twenty: each step is meant to be one
/// a player feels (about a hundred Elo or more, see `docs/levels.md`),
/// and each was measured with enough games to say so.
///
/// ```
/// use qi_search::Level;
///
/// let level: Level = "3".parse()?;
/// assert_eq!(level.get(), 3);
/// assert!(!level.is_full());
/// assert!(Level::FULL.is_full());
/// assert!("11".parse::<Level>().is_err());
/// assert!("zero".parse::<Level>().is_err());
/// # Ok::<(), qi_search::LevelError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// A level outside `1..=10`, or text that is no number.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a level is a whole number from 1 to {}, not '{}'", Level::COUNT, qi_core::Escaped(.0))]
pub struct LevelError(pub String);

impl Level {
    /// The number of levels.
    pub const COUNT: usize = 10;
    /// The weakest level.
    pub const WEAKEST: Level = Level(1);
    /// The full engine: no weakening at all.
    pub const FULL: Level = Level(Level::COUNT as u8);

    /// The level `n` (1 to 10).
    ///
    /// ```
    /// use qi_search::Level;
    ///
    /// assert_eq!(Level::new(10), Ok(Level::FULL));
    /// assert!(Level::new(0).is_err());
    /// ```
    pub fn new(n: u8) -> Result<Level, LevelError> {
        if (1..=Level::COUNT as u8).contains(&n) {
            Ok(Level(n))
        } else {
            Err(LevelError(n.to_string()))
        }
    }

    /// Every level, weakest first.
    ///
    /// ```
    /// use qi_search::Level;
    ///
    /// assert_eq!(Level::all().count(), 10);
    /// assert_eq!(Level::all().last(), Some(Level::FULL));
    /// ```
    pub fn all() -> impl Iterator<Item = Level> {
        (1..=Level::COUNT as u8).map(Level)
    }

    /// The level's number.
    pub fn get(self) -> u8 {
        self.0
    }

    /// Whether this is the full engine.
    pub fn is_full(self) -> bool {
        self == Level::FULL
    }

    /// The level whose measured rating in `scale` is nearest to `elo` (the
    /// weaker one on a tie): what UCI's `UCI_Elo` asks for.
    ///
    /// ```
    /// use qi_search::{Level, StrengthScale};
    ///
    /// let scale = StrengthScale {
    ///     unit: 100,
    ///     nodes: [0, 0, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000],
    ///     ratings: [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000],
    /// };
    /// assert_eq!(Level::for_elo(340, &scale).get(), 3);
    /// assert_eq!(Level::for_elo(350, &scale).get(), 3);
    /// assert_eq!(Level::for_elo(-5000, &scale), Level::WEAKEST);
    /// assert_eq!(Level::for_elo(5000, &scale), Level::FULL);
    /// ```
    pub fn for_elo(elo: i32, scale: &StrengthScale) -> Level {
        let nearest = (0..Level::COUNT)
            .min_by_key(|&i| (i64::from(scale.ratings[i]) - i64::from(elo)).abs())
            .unwrap_or(0);
        Level(nearest as u8 + 1)
    }

    /// How this level searches and chooses under `scale`; `None` for the
    /// full engine, which is not weakened.
    ///
    /// ```
    /// use qi_search::{Level, StrengthScale};
    ///
    /// let nodes = [0, 0, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000];
    /// let scale = StrengthScale { unit: 100, nodes, ratings: [0; 10] };
    /// let weakest = Level::WEAKEST.plan(&scale).unwrap();
    /// // A one-ply search, then any of the best lines within a piece.
    /// assert_eq!(weakest.nodes, 0);
    /// assert_eq!(weakest.max_loss, 100);
    /// let nine = Level::new(9).unwrap().plan(&scale).unwrap();
    /// assert_eq!(nine.nodes, 32_000);
    /// assert!(nine.weakness < weakest.weakness);
    /// assert_eq!(Level::FULL.plan(&scale), None);
    /// ```
    pub fn plan(self, scale: &StrengthScale) -> Option<LevelPlan> {
        let i = usize::from(self.0 - 1);
        let step = CHOICES.get(i)?;
        Some(LevelPlan {
            nodes: scale.nodes[i],
            lines: LINES,
            weakness: step.weakness,
            // Widened: a unit of any size gives a loss, not an overflow (the
            // percentage is at most 100, so the result fits again).
            max_loss: (i64::from(scale.unit) * i64::from(step.max_loss_pct) / 100) as i32,
        })
    }
}

/// One level's choice of line, game-neutral.
struct Choice {
    /// [`LevelPlan::weakness`].
    weakness: i32,
    /// [`LevelPlan::max_loss`] in percent of [`StrengthScale::unit`].
    max_loss_pct: i32,
}

/// Levels 1 to 9: the error shrinks level by level while each game's node
/// budget grows ([`StrengthScale::nodes`]). At the lowest levels, held at
/// one ply, the error does the work; at the highest, where it would cost
/// most, it is smallest. Tuned to even steps by matches (`docs/levels.md`).
const CHOICES: [Choice; Level::COUNT - 1] = [
    // weakness (128ths), max loss (% of the smallest piece)
    choice(128, 100),
    choice(92, 70),
    choice(76, 55),
    choice(64, 48),
    choice(54, 40),
    choice(40, 28),
    choice(32, 23),
    choice(22, 16),
    choice(8, 6),
];

const fn choice(weakness: i32, max_loss_pct: i32) -> Choice {
    Choice {
        weakness,
        max_loss_pct,
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Level {
    type Err = LevelError;

    fn from_str(text: &str) -> Result<Level, LevelError> {
        text.trim()
            .parse::<u8>()
            .ok()
            .and_then(|n| Level::new(n).ok())
            .ok_or_else(|| LevelError(text.to_string()))
    }
}

/// Root lines a weakened search chooses among.
const LINES: usize = 4;

/// What a game says about itself for the levels: the size of its
/// evaluation's units, the node budget of level 1, and the ratings its
/// levels measured (`docs/levels.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrengthScale {
    /// The value of the game's least valuable piece in evaluation units:
    /// the most a weak level may give away by its choice of line.
    pub unit: i32,
    /// The node budget of levels 1 to 9 (0: the one-ply search alone).
    /// The same nodes buy different depths in different games, so each
    /// game sets its own, tuned with the game's matches.
    pub nodes: [u64; Level::COUNT - 1],
    /// The measured rating of each level, level 1 first (a uniformly
    /// random mover is 0), for [`Level::for_elo`].
    pub ratings: [i32; Level::COUNT],
}

/// How a level below the full engine searches and picks its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelPlan {
    /// Nodes searched at most (after a one-ply search, which always
    /// completes).
    pub nodes: u64,
    /// Root lines searched (MultiPV) to choose among.
    pub lines: usize,
    /// How much a line's deficit is forgiven and how large the random
    /// push is, in 128ths: 128 chooses uniformly among the eligible lines,
    /// 0 always takes the best.
    pub weakness: i32,
    /// Lines scored more than this below the best are never chosen.
    pub max_loss: i32,
}

/// A level with its random source: what a front end keeps for a game
/// against a weakened engine.
///
/// ```
/// use qi_search::{Level, Strength};
///
/// let a = Strength::new(Level::new(2).unwrap(), 7);
/// assert_eq!(a.level().get(), 2);
/// assert_eq!(a, Strength::new(Level::new(2).unwrap(), 7));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    level: Level,
    state: u64,
}

impl Strength {
    /// `level`, choosing with the random sequence of `seed`.
    pub fn new(level: Level, seed: u64) -> Strength {
        Strength { level, state: seed }
    }

    /// The full engine.
    pub fn full() -> Strength {
        Strength::new(Level::FULL, 0)
    }

    /// The level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// A copy of this strength for one search that runs elsewhere (on
    /// another thread, say), this one moving on to another sequence, so
    /// that the next search's choices do not repeat this one's.
    ///
    /// ```
    /// use qi_search::{Level, Strength};
    ///
    /// let mut strength = Strength::new(Level::WEAKEST, 7);
    /// let first = strength.split();
    /// assert_eq!(first, Strength::new(Level::WEAKEST, 7));
    /// assert_ne!(strength.split(), first);
    /// assert_eq!(strength.level(), Level::WEAKEST);
    /// ```
    pub fn split(&mut self) -> Strength {
        let copy = *self;
        self.state = self.next();
        copy
    }

    /// The next random number of the sequence.
    fn next(&mut self) -> u64 {
        let (state, value) = splitmix64(self.state);
        self.state = state;
        value
    }

    /// The index in `lines` (best first, as a search returns them) of the
    /// line this strength plays under `plan`: Stockfish's Skill Level
    /// choice, each line's score pushed up by part of its deficit to the
    /// best and by a random amount up to the spread of the eligible
    /// scores (at most `unit`), among the lines within `max_loss` of the
    /// best. `0` when `lines` is empty.
    ///
    /// ```
    /// use qi_search::{Level, PvLine, Score, Strength, StrengthScale};
    ///
    /// let line = |cp: i32, mv: &'static str| PvLine { score: Score::cp(cp), depth: 3, pv: vec![mv] };
    /// // The third line gives a piece away: level 1 never plays it.
    /// let lines = [line(50, "a"), line(20, "b"), line(-400, "c")];
    /// let nodes = [0, 0, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000];
    /// let scale = StrengthScale { unit: 250, nodes, ratings: [0; 10] };
    /// let plan = Level::WEAKEST.plan(&scale).unwrap();
    /// let mut strength = Strength::new(Level::WEAKEST, 1);
    /// let chosen: Vec<usize> = (0..200).map(|_| strength.choose(&lines, &plan)).collect();
    /// assert!(chosen.contains(&0) && chosen.contains(&1));
    /// assert!(!chosen.contains(&2));
    /// ```
    pub fn choose<M>(&mut self, lines: &[PvLine<M>], plan: &LevelPlan) -> usize {
        let Some(top) = lines.first().map(|l| l.score.value()) else {
            return 0;
        };
        let eligible =
            |l: &PvLine<M>| i64::from(top) - i64::from(l.score.value()) <= i64::from(plan.max_loss);
        let lowest = lines
            .iter()
            .filter(|l| eligible(l))
            .map(|l| l.score.value())
            .min()
            .unwrap_or(top);
        let spread = i64::from(top - lowest).min(i64::from(plan.max_loss));
        let weakness = i64::from(plan.weakness.max(1));
        let mut best = (i64::MIN, 0);
        for (i, line) in lines.iter().enumerate() {
            if !eligible(line) {
                continue;
            }
            let score = i64::from(line.score.value());
            let random = (self.next() % weakness as u64) as i64;
            let push = (weakness * (i64::from(top) - score) + spread * random) / 128;
            if score + push > best.0 {
                best = (score + push, i);
            }
        }
        best.1
    }
}
