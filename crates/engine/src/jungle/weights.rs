//! Every weight of the Jungle evaluation, with the tuned values.

use qi_jungle::{Animal, RankOrder};

/// Entries of [`JungleWeights::proximity`]: den distances from 0 to
/// `PROXIMITY_LEN - 1` steps (larger distances use the last entry).
pub const PROXIMITY_LEN: usize = 16;

/// Every weight of the Jungle evaluation, in centi-units unless said
/// otherwise. Arrays indexed by animal use [`Animal::index`] (Rat 0 …
/// Elephant 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JungleWeights {
    /// Material value of each animal under the standard rank order (Wolf
    /// over Dog); under Dog over Wolf the Wolf and Dog values are swapped,
    /// so a value always follows the strength.
    pub material: [i32; 8],
    /// Extra value of a Rat while the enemy Elephant lives (it is the only
    /// animal that can take the Elephant).
    pub rat_vs_elephant: i32,
    /// Bonus by distance to the enemy den (in moves of the animal, water
    /// and river jumps counted as the animal can use them), index 0..16.
    /// Scaled per animal by [`advance`](JungleWeights::advance).
    pub proximity: [i32; PROXIMITY_LEN],
    /// Per-animal scale of [`proximity`](JungleWeights::proximity), in percent.
    pub advance: [i32; 8],
    /// Bonus per own animal within two steps (Manhattan) of its own den,
    /// counted up to [`den_defenders_max`](JungleWeights::den_defenders_max).
    pub den_defender: i32,
    /// Most defenders counted by [`den_defender`](JungleWeights::den_defender).
    pub den_defenders_max: u32,
    /// Penalty when the enemy Rat stands 1, 2 or 3 steps (Manhattan; index
    /// 1..=3, index 0 unused) from one's Elephant.
    pub rat_near_elephant: [i32; 4],
    /// Bonus per square an animal could move to (destination masks).
    pub mobility: i32,
    /// Of the side to move's pieces the enemy could win by a capture, the
    /// share (percent) of the value of the second best one that counts
    /// against it (it can save only one).
    pub hanging_second_pct: i32,
    /// The share (percent) of the best one that counts against it.
    pub hanging_first_pct: i32,
    /// Share (percent) of the best capture gain the side to move threatens
    /// that counts for it.
    pub threat_pct: i32,
    /// Bonus for being the side to move.
    pub tempo: i32,
    /// Penalty for the side to move per trap next to its den that an enemy
    /// animal can step onto while no animal of its own stands next to that
    /// trap (the enemy threatens to enter the den); index 1 for one such
    /// trap, 2 for two or more (index 0 unused).
    pub open_trap: [i32; 3],
    /// Score of a decided den race: the side to move has an animal next to
    /// the enemy den (it enters next move), or the enemy has one next to
    /// its den that it cannot remove. Below [`EVAL_LIMIT`](super::EVAL_LIMIT).
    pub den_win: i32,
}

impl Default for JungleWeights {
    /// The tuned weights. Checked by self-play at 20 000–30 000 nodes per
    /// move over the 100 games of `openings/jungle.txt` (each opening with
    /// both colours): against [`material_only`](JungleWeights::material_only)
    /// they score about 94%; halving or doubling the mobility, advancement,
    /// en-prise, den-defender and open-trap weights, or a Rat of 300/500
    /// without the Elephant bonus, stayed within the noise (±50 Elo), and
    /// the Rat at 300 + 200 while the enemy Elephant lives gained +36 Elo
    /// over 200 games.
    fn default() -> JungleWeights {
        JungleWeights {
            // Rat Cat Dog Wolf Leopard Tiger Lion Elephant
            material: [300, 250, 300, 350, 550, 850, 950, 1000],
            rat_vs_elephant: 200,
            proximity: [0, 180, 120, 80, 55, 40, 30, 22, 16, 11, 7, 4, 2, 1, 0, 0],
            advance: [70, 50, 60, 70, 85, 100, 100, 100],
            den_defender: 25,
            den_defenders_max: 2,
            rat_near_elephant: [0, 60, 30, 10],
            mobility: 3,
            hanging_second_pct: 50,
            hanging_first_pct: 10,
            threat_pct: 10,
            tempo: 10,
            open_trap: [0, 80, 400],
            den_win: 15_000,
        }
    }
}

impl JungleWeights {
    /// Material only: the material values and the den-race detection, every
    /// positional weight zero (a yardstick for matches).
    pub fn material_only() -> JungleWeights {
        JungleWeights {
            rat_vs_elephant: 0,
            proximity: [0; PROXIMITY_LEN],
            advance: [0; 8],
            den_defender: 0,
            den_defenders_max: 0,
            rat_near_elephant: [0; 4],
            mobility: 0,
            hanging_second_pct: 0,
            hanging_first_pct: 0,
            threat_pct: 0,
            tempo: 0,
            open_trap: [0; 3],
            ..JungleWeights::default()
        }
    }

    /// The weight set of a profile name: `default` (also `tuned`) or
    /// `material`. Case is ignored.
    pub fn named(name: &str) -> Option<JungleWeights> {
        match name.trim().to_ascii_lowercase().as_str() {
            "default" | "tuned" => Some(JungleWeights::default()),
            "material" | "material_only" => Some(JungleWeights::material_only()),
            _ => None,
        }
    }

    /// The profile names [`named`](JungleWeights::named) knows.
    pub const PROFILES: [&'static str; 2] = ["default", "material"];
}

/// Material values per animal index under `order` (Wolf and Dog swap
/// under Dog over Wolf).
#[inline(always)]
pub(super) fn material_values(material: &[i32; 8], order: RankOrder) -> [i32; 8] {
    let mut v = *material;
    if order == RankOrder::DogOverWolf {
        v.swap(Animal::Dog.index(), Animal::Wolf.index());
    }
    v
}
