//! The counts of one table by the counting convention.

use crate::value::Wdl;

/// Counts of one table by the counting convention: every placement of the
/// material on distinct points, each side to move counted separately, no
/// previous step (each stored state weighed by the size of its symmetry
/// class).
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{Material, Tablebase};
///
/// let one: Material = "1v1".parse()?;
/// let tb = Tablebase::generate(&Rules::shandong(), &[one], 1)?;
/// let stats = tb.table(one).expect("generated").stats();
/// assert_eq!(stats.positions, stats.wins + stats.draws + stats.losses);
/// assert!(stats.canonical <= stats.positions);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions by the convention.
    pub positions: u64,
    /// Stored canonical states among them.
    pub canonical: u64,
    /// Every stored state (under `shuttle = forbidden` also those with a
    /// banned step back).
    pub stored: u64,
    /// Positions won by the side to move.
    pub wins: u64,
    /// Positions drawn.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// The longest win, in plies.
    pub longest_win: u32,
    /// The key of a stored state with the longest win (the lowest), if any
    /// position is won.
    pub longest_win_key: Option<u64>,
}

impl Stats {
    /// Counts a stored state without bans: its canonical `key`, the size
    /// of its symmetry class (`class` positions), its value and distance.
    pub(crate) fn add_position(&mut self, key: u64, class: u64, v: Wdl, d: u32) {
        self.canonical += 1;
        self.positions += class;
        match v {
            Wdl::Win => {
                self.wins += class;
                self.note_win(d, key);
            }
            Wdl::Draw => self.draws += class,
            Wdl::Loss => self.losses += class,
        }
    }

    /// A win of `d` plies at `key`: the longest so far, the lowest key
    /// among equals.
    fn note_win(&mut self, d: u32, key: u64) {
        let longer = d > self.longest_win
            || (d == self.longest_win && self.longest_win_key.is_some_and(|k| key < k));
        if self.longest_win_key.is_none() || longer {
            self.longest_win = d;
            self.longest_win_key = Some(key);
        }
    }

    /// The counts of two tables, or of two parts of one, together (the
    /// longest win the longer one's; between two tables its key is of the
    /// table it came from).
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::{Material, Stats, Tablebase};
    ///
    /// let rules = Rules::shandong_shuttle();
    /// let ms: Vec<Material> = ["2v1".parse().unwrap(), "1v2".parse().unwrap()].to_vec();
    /// let tb = Tablebase::generate(&rules, &ms, 2).unwrap();
    /// let (a, b) = (tb.table(ms[0]).unwrap().stats(), tb.table(ms[1]).unwrap().stats());
    /// let both = a.merge(b);
    /// assert_eq!(both.positions, a.positions + b.positions);
    /// assert_eq!(both.longest_win, a.longest_win.max(b.longest_win));
    /// assert_eq!(Stats::default().merge(a), a);
    /// ```
    pub fn merge(mut self, other: Stats) -> Stats {
        self.positions += other.positions;
        self.canonical += other.canonical;
        self.stored += other.stored;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        if let Some(key) = other.longest_win_key {
            self.note_win(other.longest_win, key);
        }
        self
    }
}
