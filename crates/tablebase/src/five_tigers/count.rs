//! How many states a Five Tigers material has: counted exactly, or
//! sampled where counting the bans would visit too many placements (the
//! figure a memory or disk estimate starts from).

use qi_five_tigers::{Rules, Shuttle};

use super::dense::BINOM;
use super::dense_ban::ban_pairs;
use super::key::{subsets, ALL};
use super::Material;

/// The raw states of a material with nothing owed, before the symmetry
/// reduction: every placement on distinct points, each side to move, and
/// under `shuttle = forbidden` every pair of bans that can still matter.
/// With `convention`, only the placements times the side to move (the
/// counting convention of `docs/tablebases.md`). Exact, so under the ban
/// it visits every placement (823 M for `5v5`);
/// [`estimated_state_count`] is the quick figure for a memory check.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{raw_state_count, Material};
///
/// let m: Material = "1v1".parse()?;
/// // 25 × 24 placements, either side to move.
/// assert_eq!(raw_state_count(m, &Rules::shandong_shuttle(), false), 25 * 24 * 2);
/// assert_eq!(raw_state_count(m, &Rules::shandong(), true), 25 * 24 * 2);
/// // Under the ban, the states with the steps back a side may not play too.
/// assert!(raw_state_count(m, &Rules::shandong(), false) > 25 * 24 * 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn raw_state_count(material: Material, rules: &Rules, convention: bool) -> u64 {
    let forbidden = rules.shuttle == Shuttle::Forbidden && !convention;
    if !forbidden {
        return placements(material) * 2;
    }
    let mut n = 0u64;
    for x in subsets(material.first, ALL) {
        for o in subsets(material.second, ALL & !x) {
            n += 2 * ban_pairs(x, o);
        }
    }
    n
}

/// [`raw_state_count`] (with nothing left out), sampled where counting
/// the bans exactly would visit more than [`EXACT_PLACEMENTS`]
/// placements: the mean number of ban pairs of 2²⁰ placements drawn
/// uniformly (from a fixed seed, so the figure does not change from run
/// to run) times the number of placements. Within a few tenths of a
/// per cent of the exact count (tested on `3v3` and `4v2`), in
/// milliseconds.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{estimated_state_count, raw_state_count, Material};
///
/// let ban = Rules::shandong();
/// // Few placements: counted exactly.
/// let m: Material = "2v2".parse()?;
/// assert_eq!(estimated_state_count(m, &ban), raw_state_count(m, &ban, false));
/// // `5v5`'s 823 M placements: sampled, the same figure every run.
/// let m: Material = "5v5".parse()?;
/// assert_eq!(estimated_state_count(m, &ban), estimated_state_count(m, &ban));
/// assert!(estimated_state_count(m, &ban) > raw_state_count(m, &ban, true));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn estimated_state_count(material: Material, rules: &Rules) -> u64 {
    if rules.shuttle != Shuttle::Forbidden || placements(material) <= EXACT_PLACEMENTS {
        return raw_state_count(material, rules, false);
    }
    sampled_state_count(material, 1 << 20)
}

/// Placements up to which [`estimated_state_count`] counts exactly.
pub const EXACT_PLACEMENTS: u64 = 4_000_000;

/// The sampled count of [`estimated_state_count`] from `samples`
/// placements.
pub(crate) fn sampled_state_count(material: Material, samples: u64) -> u64 {
    let mut seed = 0x5eed_0ff1_7e71_6400_u64;
    let mut total = 0u64;
    for _ in 0..samples {
        // A uniform placement: the first points of a shuffled board go to
        // the first side, the next to the second (Fisher–Yates, only as
        // far as the pieces go).
        let mut points: [u8; 25] = std::array::from_fn(|i| i as u8);
        let pieces = (material.first + material.second) as usize;
        for i in 0..pieces {
            let j = i + (splitmix64(&mut seed) % (25 - i) as u64) as usize;
            points.swap(i, j);
        }
        let board =
            |range: std::ops::Range<usize>| points[range].iter().fold(0u32, |b, &p| b | 1 << p);
        let x = board(0..material.first as usize);
        let o = board(material.first as usize..pieces);
        total += ban_pairs(x, o);
    }
    // The mean over the samples, times both sides to move and the
    // placements, rounded up.
    (u128::from(total) * 2 * u128::from(placements(material))).div_ceil(u128::from(samples)) as u64
}

/// The placements of `material` on distinct points.
fn placements(material: Material) -> u64 {
    let (a, b) = (material.first as usize, material.second as usize);
    BINOM[25][a] * BINOM[25 - a][b]
}

/// The next number of the SplitMix64 sequence of `state` (the core's
/// generator, which the Zobrist keys use).
fn splitmix64(state: &mut u64) -> u64 {
    let (next, value) = qi_core::zobrist::splitmix64(*state);
    *state = next;
    value
}

#[cfg(test)]
mod tests;
