//! Rule options and the named presets (spec section 6).

use std::fmt;
use std::str::FromStr;

use qi_core::{Allowed, Escaped};
use thiserror::Error;

use crate::board::{Animal, Piece, RankOrder, Square};

/// In which directions an animal (Lion or Tiger) may jump across a river.
///
/// ```
/// use qi_jungle::Jumps;
///
/// assert_eq!(Jumps::default(), Jumps::Both);
/// assert_eq!("horizontal".parse::<Jumps>(), Ok(Jumps::HorizontalOnly));
/// assert_eq!(Jumps::VerticalOnly.to_string(), "vertical");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Jumps {
    /// No jumps at all.
    None,
    /// Along files (3 ↔ 7) and along ranks (a ↔ d ↔ g).
    #[default]
    Both,
    /// Along ranks only (a4..a6 ↔ d4..d6 ↔ g4..g6).
    HorizontalOnly,
    /// Along files only (b3 ↔ b7, c3 ↔ c7, e3 ↔ e7, f3 ↔ f7).
    VerticalOnly,
}

impl Jumps {
    /// Bit mask of allowed directions: bit 0 north, 1 south, 2 east, 3 west.
    #[inline(always)]
    pub(crate) const fn direction_mask(self) -> u8 {
        match self {
            Jumps::None => 0,
            Jumps::Both => 0b1111,
            Jumps::HorizontalOnly => 0b1100,
            Jumps::VerticalOnly => 0b0011,
        }
    }
}

/// Which Rats in the water block a jump.
///
/// ```
/// use qi_jungle::{JumpBlock, Rules};
///
/// assert_eq!(Rules::standard().jump_block, JumpBlock::AnyRat);
/// assert_eq!("enemy_rat".parse::<JumpBlock>(), Ok(JumpBlock::EnemyRat));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum JumpBlock {
    /// Any Rat, own or enemy, on a water square of the path blocks.
    #[default]
    AnyRat,
    /// Only an enemy Rat blocks; the jumper's own Rat does not.
    EnemyRat,
}

/// Where a Rat must stand to block a jump (the Rats that block are
/// [`JumpBlock`]'s choice).
///
/// ```
/// use qi_jungle::{JumpBlockArea, Rules};
///
/// assert_eq!(Rules::datou().jump_block_area, JumpBlockArea::River);
/// assert_eq!(JumpBlockArea::Path.to_string(), "path");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum JumpBlockArea {
    /// On a water square the jump passes over.
    #[default]
    Path = 0,
    /// On any of the six squares of the river being crossed (source 000,
    /// 大头).
    River = 1,
}

/// Whether an animal standing on one of its enemy's traps may capture
/// (spec section 4, rule 1).
///
/// ```
/// use qi_jungle::{Rules, TrappedAttacks};
///
/// assert_eq!(Rules::yeshou().trapped_attacks, TrappedAttacks::None);
/// assert_eq!("normal".parse::<TrappedAttacks>(), Ok(TrappedAttacks::Normal));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TrappedAttacks {
    /// It captures at its own rank, as anywhere else (the open-source
    /// engines).
    #[default]
    Normal,
    /// It has lost its fighting power: it captures nothing while it stands
    /// there, though it may still step off onto an empty square (source
    /// 000, 野兽争霸).
    None,
}

/// What a threefold repetition does.
///
/// ```
/// use qi_jungle::Repetition;
///
/// assert_eq!("initiator_loses".parse::<Repetition>(), Ok(Repetition::InitiatorLoses));
/// assert_eq!(Repetition::default().to_string(), "draw");
/// // The old name of a rule that changed meaning is refused.
/// assert!("mover_loses".parse::<Repetition>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Repetition {
    /// Repetition has no effect.
    Off,
    /// The third occurrence of a position is a draw.
    #[default]
    Draw,
    /// The side that began a cycle loses if it does not vary: a move made
    /// from a position that has occurred three times loses when the
    /// position it creates has then occurred three times too.
    InitiatorLoses,
}

// The one spelling of each value: rules text, `Display`/`FromStr` and serde.
// Serde used to write `horizontal_only`/`vertical_only`; those spellings are
// still read.
qi_core::text_names!(Jumps {
    None => "none",
    Both => "both",
    HorizontalOnly => "horizontal" | "horizontal_only",
    VerticalOnly => "vertical" | "vertical_only",
});
qi_core::text_names!(JumpBlock {
    AnyRat => "any_rat",
    EnemyRat => "enemy_rat",
});
qi_core::text_names!(JumpBlockArea {
    Path => "path",
    River => "river",
});
qi_core::text_names!(TrappedAttacks {
    Normal => "normal",
    None => "none",
});
qi_core::text_names!(Repetition {
    Off => "off",
    Draw => "draw",
    InitiatorLoses => "initiator_loses",
} renamed {
    // The rule changed meaning (it used to punish the other side), so the
    // old name is refused rather than read as the new rule.
    "mover_loses" | "mover-loses" | "MoverLoses" | "moverloses" => InitiatorLoses,
});

#[cfg(feature = "serde")]
qi_core::serde_via_text!(Jumps, JumpBlock, JumpBlockArea, TrappedAttacks, Repetition);

/// A complete rule set: every option of spec section 6.
///
/// Build one from a preset ([`Rules::standard`], [`Rules::preset`], parsing a
/// name) and change fields one by one for a custom set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rules {
    /// Wolf over Dog or Dog over Wolf.
    pub rank_order: RankOrder,
    /// Jump directions of the Lion.
    pub lion_jumps: Jumps,
    /// Jump directions of the Tiger.
    pub tiger_jumps: Jumps,
    /// Which Rats block a jump.
    pub jump_block: JumpBlock,
    /// Where a blocking Rat stands: on the path or anywhere in the river.
    pub jump_block_area: JumpBlockArea,
    /// Whether an animal on an enemy trap may capture.
    pub trapped_attacks: TrappedAttacks,
    /// Whether a Rat in water and a Rat on land may capture each other.
    pub rat_bank_capture: bool,
    /// Consecutive plies without a capture that draw the game (0: never).
    pub no_capture_draw: u32,
    /// The repetition rule.
    pub repetition: Repetition,
    /// Whether the 7-3 and 17-5 anti-chase rules apply.
    pub anti_chase: bool,
}

/// A preset name that is not one of [`Rules::PRESETS`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[error("unknown Jungle rule preset '{}' (known presets: standard, yeshou, datou, traditional; optionally prefixed 'jungle:')", Escaped(.name))]
pub struct UnknownPreset {
    /// The name that was asked for.
    pub name: String,
}

/// Why a rule-set text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "code", content = "fields")
)]
pub enum ParseRulesError {
    /// The base preset name is unknown.
    #[error(transparent)]
    #[cfg_attr(feature = "serde", serde(rename = "jungle-rules.unknown-preset"))]
    UnknownPreset(#[from] UnknownPreset),
    /// An `option=value` item names no option.
    #[error("unknown Jungle rule option '{}' (known options: rank_order, lion_jumps, tiger_jumps, jump_block, jump_block_area, trapped_attacks, rat_bank_capture, no_capture_draw, repetition, anti_chase)", Escaped(.0))]
    #[cfg_attr(feature = "serde", serde(rename = "jungle-rules.unknown-option"))]
    UnknownOption(String),
    /// An item has no `=`.
    #[error("bad rule option item '{}' (expected option=value)", Escaped(.0))]
    #[cfg_attr(feature = "serde", serde(rename = "jungle-rules.missing-value"))]
    MissingValue(String),
    /// The value does not fit the option.
    #[error("bad value '{}' for rule option {option} (expected {expected})", Escaped(.value))]
    #[cfg_attr(feature = "serde", serde(rename = "jungle-rules.bad-value"))]
    BadValue {
        /// The option.
        option: &'static str,
        /// The value given.
        value: String,
        /// What the option accepts.
        expected: Allowed,
    },
    /// The value is a former name of a value, no longer read.
    #[error("renamed value '{}' for rule option {option}: use '{new_name}' (the rule it names changed)", Escaped(.value))]
    #[cfg_attr(feature = "serde", serde(rename = "jungle-rules.renamed"))]
    Renamed {
        /// The option.
        option: &'static str,
        /// The old name given.
        value: String,
        /// The name to write instead.
        new_name: &'static str,
    },
}

impl Rules {
    /// The names of the presets, in this order: `standard`, `yeshou`,
    /// `datou`, `traditional`.
    ///
    /// ```
    /// use qi_jungle::Rules;
    ///
    /// for name in Rules::PRESETS {
    ///     assert_eq!(Rules::preset(name).unwrap().preset_name(), Some(name));
    /// }
    /// ```
    pub const PRESETS: [&'static str; 4] = ["standard", "yeshou", "datou", "traditional"];

    /// `standard`: the rules shared by today's open-source engines (default).
    ///
    /// ```
    /// use qi_jungle::{RankOrder, Rules};
    ///
    /// let rules = Rules::standard();
    /// assert_eq!(rules, Rules::default());
    /// assert_eq!(rules.rank_order, RankOrder::WolfOverDog);
    /// assert_eq!(rules.no_capture_draw, 200);
    /// assert_eq!(rules.to_string(), "standard");
    /// ```
    pub const fn standard() -> Rules {
        Rules {
            rank_order: RankOrder::WolfOverDog,
            lion_jumps: Jumps::Both,
            tiger_jumps: Jumps::Both,
            jump_block: JumpBlock::AnyRat,
            jump_block_area: JumpBlockArea::Path,
            trapped_attacks: TrappedAttacks::Normal,
            rat_bank_capture: false,
            no_capture_draw: 200,
            repetition: Repetition::Draw,
            anti_chase: false,
        }
    }

    /// `yeshou`: the PC game 野兽争霸 (only an enemy Rat blocks a jump, an
    /// animal on an enemy trap captures nothing, Rats capture across the
    /// bank).
    ///
    /// ```
    /// use qi_jungle::{JumpBlock, Rules, TrappedAttacks};
    ///
    /// let rules = Rules::yeshou();
    /// assert_eq!(rules.jump_block, JumpBlock::EnemyRat);
    /// assert_eq!(rules.trapped_attacks, TrappedAttacks::None);
    /// assert!(rules.rat_bank_capture && rules.anti_chase);
    /// assert_eq!("jungle:yeshou".parse::<Rules>(), Ok(rules));
    /// ```
    pub const fn yeshou() -> Rules {
        Rules {
            jump_block: JumpBlock::EnemyRat,
            trapped_attacks: TrappedAttacks::None,
            rat_bank_capture: true,
            repetition: Repetition::Off,
            anti_chase: true,
            ..Rules::standard()
        }
    }

    /// `datou`: the mobile game 大头斗兽棋 (the Tiger jumps along ranks
    /// only; a Rat anywhere in the river blocks a jump).
    ///
    /// ```
    /// use qi_core::Position;
    /// use qi_jungle::{Jumps, Jungle, Rules};
    ///
    /// assert_eq!(Rules::datou().tiger_jumps, Jumps::HorizontalOnly);
    /// // A Tiger on b3 jumps the river along its file only under `standard`.
    /// let text = "6l/7/7/7/7/7/1T5/7/7 w 0 1";
    /// let jump = "b3b7".parse().unwrap();
    /// assert!(Jungle::from_text(text, Rules::standard()).unwrap().is_legal(jump));
    /// assert!(!Jungle::from_text(text, Rules::datou()).unwrap().is_legal(jump));
    /// ```
    pub const fn datou() -> Rules {
        Rules {
            tiger_jumps: Jumps::HorizontalOnly,
            jump_block_area: JumpBlockArea::River,
            repetition: Repetition::Off,
            anti_chase: true,
            ..Rules::standard()
        }
    }

    /// `traditional`: sources 001/003 (Dog over Wolf, the side that began a
    /// repetition cycle loses if it does not vary).
    ///
    /// ```
    /// use qi_jungle::{Animal, RankOrder, Repetition, Rules};
    ///
    /// let rules = Rules::traditional();
    /// assert_eq!(rules.rank_order, RankOrder::DogOverWolf);
    /// assert_eq!(rules.repetition, Repetition::InitiatorLoses);
    /// assert!(Animal::Dog.strength(rules.rank_order) > Animal::Wolf.strength(rules.rank_order));
    /// ```
    pub const fn traditional() -> Rules {
        Rules {
            rank_order: RankOrder::DogOverWolf,
            repetition: Repetition::InitiatorLoses,
            anti_chase: true,
            ..Rules::standard()
        }
    }

    /// The preset of a name: `standard`, `yeshou`, `datou`, `traditional`,
    /// each optionally prefixed `jungle:`; `jungle` alone is `standard`.
    /// Case and surrounding blanks are ignored.
    ///
    /// ```
    /// use qi_jungle::Rules;
    ///
    /// assert_eq!(Rules::preset("jungle:datou"), Ok(Rules::datou()));
    /// assert_eq!(Rules::preset(" Jungle "), Ok(Rules::standard()));
    /// assert!(Rules::preset("chess").is_err());
    /// ```
    pub fn preset(name: &str) -> Result<Rules, UnknownPreset> {
        let lower = name.trim().to_ascii_lowercase();
        let bare = lower.strip_prefix("jungle:").unwrap_or(&lower);
        match bare {
            "standard" | "jungle" => Ok(Rules::standard()),
            "yeshou" => Ok(Rules::yeshou()),
            "datou" => Ok(Rules::datou()),
            "traditional" => Ok(Rules::traditional()),
            _ => Err(UnknownPreset {
                name: name.to_string(),
            }),
        }
    }

    /// The preset name if `self` equals a preset.
    ///
    /// ```
    /// use qi_jungle::Rules;
    ///
    /// assert_eq!(Rules::yeshou().preset_name(), Some("yeshou"));
    /// let custom = Rules { anti_chase: true, ..Rules::standard() };
    /// assert_eq!(custom.preset_name(), None);
    /// ```
    pub fn preset_name(&self) -> Option<&'static str> {
        Rules::PRESETS
            .into_iter()
            .find(|name| Rules::preset(name).as_ref() == Ok(self))
    }

    /// The options as `(name, value)` text pairs, in a fixed order.
    ///
    /// ```
    /// use qi_jungle::Rules;
    ///
    /// let options = Rules::standard().options();
    /// assert_eq!(options[0], ("rank_order", "wolf_over_dog".to_string()));
    /// assert_eq!(options[7], ("no_capture_draw", "200".to_string()));
    /// assert_eq!(options[9], ("anti_chase", "off".to_string()));
    /// ```
    pub fn options(&self) -> [(&'static str, String); 10] {
        [
            ("rank_order", self.rank_order.to_string()),
            ("lion_jumps", self.lion_jumps.to_string()),
            ("tiger_jumps", self.tiger_jumps.to_string()),
            ("jump_block", self.jump_block.to_string()),
            ("jump_block_area", self.jump_block_area.to_string()),
            ("trapped_attacks", self.trapped_attacks.to_string()),
            (
                "rat_bank_capture",
                on_off(self.rat_bank_capture).to_string(),
            ),
            ("no_capture_draw", self.no_capture_draw.to_string()),
            ("repetition", self.repetition.to_string()),
            ("anti_chase", on_off(self.anti_chase).to_string()),
        ]
    }

    /// Sets one option from text (`option`, `value` as in [`Rules::options`]).
    ///
    /// ```
    /// use qi_jungle::{RankOrder, Rules};
    ///
    /// let mut rules = Rules::standard();
    /// rules.set_option("rank_order", "dog_over_wolf").unwrap();
    /// rules.set_option("no_capture_draw", "100").unwrap();
    /// assert_eq!(rules.rank_order, RankOrder::DogOverWolf);
    /// assert_eq!(rules.to_string(), "standard,rank_order=dog_over_wolf,no_capture_draw=100");
    /// assert!(rules.set_option("anti_chase", "maybe").is_err());
    /// ```
    pub fn set_option(&mut self, option: &str, value: &str) -> Result<(), ParseRulesError> {
        let v = value.trim().to_ascii_lowercase();
        let bad = |option: &'static str, expected: Allowed| ParseRulesError::BadValue {
            option,
            value: value.to_string(),
            expected,
        };
        match option.trim().to_ascii_lowercase().as_str() {
            "rank_order" => {
                self.rank_order = v
                    .parse()
                    .map_err(|_| bad("rank_order", RankOrder::ALLOWED_NAMES))?
            }
            name @ ("lion_jumps" | "tiger_jumps") => {
                let option = if name == "lion_jumps" {
                    "lion_jumps"
                } else {
                    "tiger_jumps"
                };
                let jumps = v.parse().map_err(|_| bad(option, Jumps::ALLOWED_NAMES))?;
                if name == "lion_jumps" {
                    self.lion_jumps = jumps;
                } else {
                    self.tiger_jumps = jumps;
                }
            }
            "jump_block" => {
                self.jump_block = v
                    .parse()
                    .map_err(|_| bad("jump_block", JumpBlock::ALLOWED_NAMES))?
            }
            "jump_block_area" => {
                self.jump_block_area = v
                    .parse()
                    .map_err(|_| bad("jump_block_area", JumpBlockArea::ALLOWED_NAMES))?
            }
            "trapped_attacks" => {
                self.trapped_attacks = v
                    .parse()
                    .map_err(|_| bad("trapped_attacks", TrappedAttacks::ALLOWED_NAMES))?
            }
            "rat_bank_capture" => {
                self.rat_bank_capture =
                    parse_bool(&v).ok_or_else(|| bad("rat_bank_capture", ON_OFF))?
            }
            "no_capture_draw" => {
                self.no_capture_draw = v
                    .parse()
                    .map_err(|_| bad("no_capture_draw", Allowed::Plies))?
            }
            "repetition" => {
                self.repetition =
                    v.parse()
                        .map_err(|e: qi_core::ParseNameError| match e.renamed_to {
                            Some(new_name) => ParseRulesError::Renamed {
                                option: "repetition",
                                value: value.to_string(),
                                new_name,
                            },
                            None => bad("repetition", Repetition::ALLOWED_NAMES),
                        })?
            }
            "anti_chase" => {
                self.anti_chase = parse_bool(&v).ok_or_else(|| bad("anti_chase", ON_OFF))?
            }
            _ => return Err(ParseRulesError::UnknownOption(option.to_string())),
        }
        Ok(())
    }
}

/// What a switch option accepts (besides true/false, yes/no and 1/0).
const ON_OFF: Allowed = Allowed::Names {
    names: &["on", "off"],
};

fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "on" | "true" | "yes" | "1" => Some(true),
        "off" | "false" | "no" | "0" => Some(false),
        _ => None,
    }
}

fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::standard()
    }
}

/// The preset name (`standard`, …) when the rules equal a preset; otherwise
/// `standard` followed by `,option=value` for every option that differs
/// from it (text that [`FromStr`] reads back).
///
/// ```
/// use qi_jungle::Rules;
///
/// assert_eq!(Rules::datou().to_string(), "datou");
/// let rules = Rules { anti_chase: true, ..Rules::standard() };
/// assert_eq!(rules.to_string(), "standard,anti_chase=on");
/// ```
impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(name) = self.preset_name() {
            return f.write_str(name);
        }
        f.write_str("standard")?;
        let base = Rules::standard().options();
        for ((name, value), (_, base_value)) in self.options().iter().zip(base.iter()) {
            if value != base_value {
                write!(f, ",{name}={value}")?;
            }
        }
        Ok(())
    }
}

/// Reads a preset name (see [`Rules::preset`]), optionally followed by
/// comma-separated `option=value` items that change single options, e.g.
/// `jungle:standard,anti_chase=on,rank_order=dog_over_wolf`.
///
/// ```
/// use qi_jungle::{RankOrder, Rules};
///
/// let rules: Rules = "jungle:standard,anti_chase=on,rank_order=dog_over_wolf".parse().unwrap();
/// assert_eq!(rules.rank_order, RankOrder::DogOverWolf);
/// assert!(rules.anti_chase);
/// assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules));
/// assert!("standard,anti_chase".parse::<Rules>().is_err()); // no value
/// ```
impl FromStr for Rules {
    type Err = ParseRulesError;
    fn from_str(s: &str) -> Result<Rules, ParseRulesError> {
        let mut items = s.split(',');
        let base = items.next().unwrap_or("");
        let mut rules = Rules::preset(base)?;
        for item in items {
            let (option, value) = item
                .split_once('=')
                .ok_or_else(|| ParseRulesError::MissingValue(item.to_string()))?;
            rules.set_option(option, value)?;
        }
        Ok(rules)
    }
}

impl Rules {
    /// Whether `attacker` moving from `from` may capture `defender` on `to`
    /// (spec section 4; the squares are assumed adjacent or a jump apart).
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_jungle::{Animal, Piece, Rules};
    ///
    /// let sq = |t: &str| t.parse().unwrap();
    /// let rat = Piece::new(Side::First, Animal::Rat);
    /// let elephant = Piece::new(Side::Second, Animal::Elephant);
    /// let rules = Rules::standard();
    /// assert!(rules.capture_allowed(rat, sq("d5"), elephant, sq("d6")));
    /// assert!(!rules.capture_allowed(elephant, sq("d6"), rat, sq("d5")));
    /// assert!(!rules.capture_allowed(rat, sq("c5"), elephant, sq("d5"))); // not from the water
    /// ```
    pub fn capture_allowed(
        &self,
        attacker: Piece,
        from: Square,
        defender: Piece,
        to: Square,
    ) -> bool {
        if attacker.side == defender.side {
            return false;
        }
        if self.trapped_attacks == TrappedAttacks::None && from.trap_owner() == Some(defender.side)
        {
            return false;
        }
        let (a, d) = (attacker.animal, defender.animal);
        match (from.is_water(), to.is_water()) {
            (true, true) => a == Animal::Rat && d == Animal::Rat,
            (true, false) | (false, true) => {
                a == Animal::Rat && d == Animal::Rat && self.rat_bank_capture
            }
            (false, false) => {
                if to.trap_owner() == Some(attacker.side) {
                    return true;
                }
                match (a, d) {
                    (Animal::Rat, Animal::Elephant) => true,
                    (Animal::Elephant, Animal::Rat) => false,
                    _ => a.strength(self.rank_order) >= d.strength(self.rank_order),
                }
            }
        }
    }
}
