//! Materials (a pair of piece counts) and which of them a table needs,
//! and the rules a table depends on.

use std::fmt;
use std::str::FromStr;

use qi_core::Side;
use qi_five_tigers::{FiveTigers, Rules, Shuttle};
use thiserror::Error;

use crate::driver::GenerateError;

/// The most pieces a side may have in a material, under either shuttle
/// option.
pub const MAX_PIECES: u32 = 5;

/// The most pieces a side may have in a material under `shuttle =
/// forbidden`: as many as with the shuttle allowed. The previous steps
/// multiply a table by up to 74 at 3 a side and about 100 at 4; the
/// solve takes about 5 bytes a state, so `4v4`'s 1.9 · 10⁹ states take
/// about 10 GB, `5v3`'s 1.5 · 10⁹ about 7 GB, and `5v4`'s 7.2 · 10⁹ (36
/// GB) and `5v5`'s 2.5 · 10¹⁰ (125 GB) more than one machine of ours: `qi
/// tb generate` refuses a material whose estimate
/// ([`TableGame::generation_memory`](crate::TableGame::generation_memory)) is more than the machine's memory.
pub const MAX_PIECES_FORBIDDEN: u32 = MAX_PIECES;

/// Whether two rule sets give the same tables: the same `shuttle` option
/// and the same formation values (with 4 pieces a side a four-diagonal or
/// a small square can be formed, whose values presets change; up to 3 a
/// side only the three-diagonal, worth 2 in every preset, could, so the
/// values did not matter before the 4-a-side tables).
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::same_board_rules;
///
/// assert!(same_board_rules(&Rules::shandong(), &Rules::ten()));
/// assert!(!same_board_rules(&Rules::shandong(), &Rules::shandong_shuttle()));
/// assert!(!same_board_rules(&Rules::shandong(), &Rules::preset("deferred")?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn same_board_rules(a: &Rules, b: &Rules) -> bool {
    a.shuttle == b.shuttle && a.values() == b.values()
}

/// A material: how many pieces each side has on the board (1 to 5 each).
///
/// ```
/// use qi_tablebase::five_tigers::Material;
///
/// let material: Material = "3v2".parse()?;
/// assert_eq!((material.first, material.second), (3, 2));
/// assert_eq!(material.to_string(), "3v2");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// First's (X's) pieces.
    pub first: u32,
    /// Second's (O's) pieces.
    pub second: u32,
}

/// Why a material text or count was refused.
///
/// ```
/// use qi_tablebase::five_tigers::{Material, MaterialError};
///
/// assert_eq!("3-2".parse::<Material>(), Err(MaterialError::Syntax("3-2".into())));
/// assert_eq!("6v1".parse::<Material>(), Err(MaterialError::Count("6v1".into())));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MaterialError {
    /// Not of the form `<n>v<n>`.
    #[error("bad material {0:?}: expected <first>v<second>, e.g. 3v2")]
    Syntax(String),
    /// A count outside 1 to 5.
    #[error("bad material {0:?}: each side has 1 to 5 pieces")]
    Count(String),
}

impl Material {
    /// The material with these counts, if each is 1 to 5.
    ///
    /// ```
    /// use qi_tablebase::five_tigers::Material;
    ///
    /// assert_eq!(Material::new(3, 2)?, "3v2".parse()?);
    /// assert!(Material::new(0, 2).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(first: u32, second: u32) -> Result<Material, MaterialError> {
        if (1..=MAX_PIECES).contains(&first) && (1..=MAX_PIECES).contains(&second) {
            Ok(Material { first, second })
        } else {
            Err(MaterialError::Count(format!("{first}v{second}")))
        }
    }

    /// The material of a position's boards, if covered.
    pub(crate) fn of_boards(boards: [u32; 2]) -> Option<Material> {
        Material::new(boards[0].count_ones(), boards[1].count_ones()).ok()
    }

    /// The material of a position, if each side has 1 to 5 pieces on the
    /// board.
    ///
    /// ```
    /// use qi_games::five_tigers::{FiveTigers, Rules};
    /// use qi_tablebase::five_tigers::Material;
    ///
    /// // The start has no piece on the board yet.
    /// assert_eq!(Material::of(&FiveTigers::default()), None);
    /// let text = "4O/5/X4/1X3/1X3 x move X:0,O:0 - x -,- 0";
    /// let pos = FiveTigers::from_text_lenient(text, Rules::shandong_shuttle())?;
    /// assert_eq!(Material::of(&pos), Some("3v1".parse()?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of(pos: &FiveTigers) -> Option<Material> {
        Material::of_boards([pos.pieces(Side::First).0, pos.pieces(Side::Second).0])
    }

    /// All materials of up to `per_side` pieces a side (at most 5), fewest
    /// pieces first.
    ///
    /// ```
    /// use qi_tablebase::five_tigers::Material;
    ///
    /// let all: Vec<String> = Material::all_up_to(2).iter().map(|m| m.to_string()).collect();
    /// assert_eq!(all, ["1v1", "2v1", "1v2", "2v2"]);
    /// assert_eq!(Material::all_up_to(9).len(), 25);
    /// ```
    pub fn all_up_to(per_side: u32) -> Vec<Material> {
        let mut all: Vec<Material> = (1..=per_side.min(MAX_PIECES))
            .flat_map(|a| {
                (1..=per_side.min(MAX_PIECES)).map(move |b| Material {
                    first: a,
                    second: b,
                })
            })
            .collect();
        all.sort_by_key(|m| (m.first + m.second, std::cmp::Reverse(m.first)));
        all
    }

    /// The materials a removal sequence of this one ends in with the game
    /// still on: a side forms formations with one step and takes their
    /// summed value in pieces from the other side, which keeps some.
    ///
    /// ```
    /// use qi_games::five_tigers::Rules;
    /// use qi_tablebase::five_tigers::Material;
    ///
    /// // Three pieces form a three-diagonal at most: two removals.
    /// let after = "3v3".parse::<Material>()?.after_removals(&Rules::shandong());
    /// assert_eq!(after, ["3v1".parse()?, "1v3".parse()?]);
    /// // Two pieces form nothing.
    /// assert!("2v2".parse::<Material>()?.after_removals(&Rules::shandong()).is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn after_removals(self, rules: &Rules) -> Vec<Material> {
        let mut out = Vec::new();
        for v in removal_values(self.first, rules) {
            if self.second > v {
                out.push(Material {
                    first: self.first,
                    second: self.second - v,
                });
            }
        }
        for v in removal_values(self.second, rules) {
            if self.first > v {
                out.push(Material {
                    first: self.first - v,
                    second: self.second,
                });
            }
        }
        out
    }

    /// Total pieces.
    ///
    /// ```
    /// use qi_tablebase::five_tigers::Material;
    ///
    /// assert_eq!("3v2".parse::<Material>()?.total(), 5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn total(self) -> u32 {
        self.first + self.second
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.first, self.second)
    }
}

impl FromStr for Material {
    type Err = MaterialError;

    fn from_str(text: &str) -> Result<Material, MaterialError> {
        let syntax = || MaterialError::Syntax(qi_core::Escaped(text).to_string());
        let (a, b) = text.split_once('v').ok_or_else(syntax)?;
        let digit = |s: &str| {
            if s.len() == 1 && s.as_bytes()[0].is_ascii_digit() {
                Ok(u32::from(s.as_bytes()[0] - b'0'))
            } else {
                Err(syntax())
            }
        };
        let (a, b) = (digit(a)?, digit(b)?);
        Material::new(a, b).map_err(|_| MaterialError::Count(qi_core::Escaped(text).to_string()))
    }
}

/// The removals one step of a side with `pieces` pieces may earn: the
/// summed values of the formations through the point stepped onto that
/// fit on `pieces` points together (a superset of what can happen: a few
/// sums may need a formation held beside them, so a closure may hold a
/// material no removal reaches, never miss one). With 3 pieces only the
/// three-diagonal fits.
fn removal_values(pieces: u32, rules: &Rules) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for through in qi_five_tigers::THROUGH.iter() {
        let n = through.len as usize;
        for subset in 1u32..(1 << n) {
            let mut union = 0u32;
            let mut value = 0u32;
            for i in 0..n {
                if subset & (1 << i) != 0 {
                    union |= through.masks[i].0;
                    value += u32::from(through.kinds[i].value(rules));
                }
            }
            if union.count_ones() <= pieces && !out.contains(&value) {
                out.push(value);
            }
        }
    }
    out.sort_unstable();
    out
}

/// The materials needed to solve `materials`: themselves and what their
/// removals lead to, fewest pieces first.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{closure, Material};
///
/// let needed = closure(&["3v3".parse()?], &Rules::shandong());
/// let needed: Vec<String> = needed.iter().map(Material::to_string).collect();
/// assert_eq!(needed, ["3v1", "1v3", "3v3"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn closure(materials: &[Material], rules: &Rules) -> Vec<Material> {
    let mut all: Vec<Material> = Vec::new();
    let mut stack: Vec<Material> = materials.to_vec();
    while let Some(m) = stack.pop() {
        if !all.contains(&m) {
            all.push(m);
            stack.extend(m.after_removals(rules));
        }
    }
    all.sort_by_key(|m| (m.total(), std::cmp::Reverse(m.first)));
    all
}

/// The larger side of `material`, refused when the rules give fewer
/// pieces a side.
pub(crate) fn within_rules(material: Material, rules: &Rules) -> Result<u32, GenerateError> {
    let needed = material.first.max(material.second);
    if needed > u32::from(rules.pieces_per_side) {
        return Err(GenerateError::TooManyPieces {
            material: material.to_string(),
            needed,
            allowed: rules.pieces_per_side,
        });
    }
    Ok(needed)
}

/// Whether the shuttle rule is on (states then carry bans).
pub(crate) fn forbids_shuttle(rules: &Rules) -> bool {
    rules.shuttle == Shuttle::Forbidden
}
