//! Rule options and the named presets of section 8.

use std::fmt;
use std::str::FromStr;

use qi_core::{Allowed, Escaped};

use thiserror::Error;

/// When formations made during placement earn removals (section 3).
///
/// ```
/// use qi_five_tigers::{PlacementCapture, Rules};
///
/// assert_eq!(Rules::deferred().placement_capture, PlacementCapture::Deferred);
/// assert_eq!("immediate".parse::<PlacementCapture>(), Ok(PlacementCapture::Immediate));
/// assert_eq!(PlacementCapture::Deferred.to_string(), "deferred");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlacementCapture {
    /// Each formation formed by a placement earns one removal at once.
    Immediate,
    /// Nothing is taken during placement; when it ends each side takes the
    /// sum of the values of the formations it holds, First then Second.
    Deferred,
}

/// Whether a side may step a piece straight back where it came from
/// (走花子, section 6).
///
/// ```
/// use qi_five_tigers::{Rules, Shuttle};
///
/// assert_eq!(Rules::shandong().shuttle, Shuttle::Forbidden);
/// assert_eq!("allowed".parse::<Shuttle>(), Ok(Shuttle::Allowed));
/// assert_eq!(Shuttle::Forbidden.to_string(), "forbidden");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shuttle {
    /// Stepping back is allowed.
    Allowed,
    /// A side may not reverse its own previous step.
    Forbidden,
}

// The one spelling of each value: rules text, `Display`/`FromStr` and serde.
qi_core::text_names!(PlacementCapture {
    Immediate => "immediate",
    Deferred => "deferred",
});
qi_core::text_names!(Shuttle {
    Allowed => "allowed",
    Forbidden => "forbidden",
});

#[cfg(feature = "serde")]
qi_core::serde_via_text!(PlacementCapture, Shuttle);

/// The rule options. Build one from a preset ([`Rules::shandong`] …,
/// [`Rules::preset`], `"ten".parse()`) and adjust fields with struct update
/// syntax; [`Rules::validate`] says whether the values are within the rules.
///
/// The engine never panics on any value, but only validated rules are
/// accepted by [`FiveTigers::from_text`](crate::FiveTigers::from_text),
/// [`FiveTigers::try_new`](crate::FiveTigers::try_new) and deserialization.
///
/// ```
/// use qi_five_tigers::Rules;
///
/// let rules = Rules { pieces_per_side: 12, ..Rules::shandong() };
/// assert!(rules.validate().is_ok());
/// assert_eq!(rules.to_string(), "five-tigers:shandong,pieces_per_side=12");
/// assert_eq!("ten".parse::<Rules>(), Ok(Rules::ten()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "RulesRepr"))]
pub struct Rules {
    /// Pieces each side starts with in hand: 13 or 10 in the source; any
    /// value from 1 to 13 is accepted.
    pub pieces_per_side: u8,
    /// When formations made during placement earn removals.
    pub placement_capture: PlacementCapture,
    /// Removals earned by a four-diagonal: 3 or 4.
    pub four_diagonal_value: u8,
    /// Removals earned by a five-tigers line: 4 or 5.
    pub five_tigers_value: u8,
    /// The shuttle (走花子) rule.
    pub shuttle: Shuttle,
    /// Plies of the movement phase without a removal after which the game
    /// layer declares a draw; 0 disables the rule. Default 100.
    pub no_capture_draw: u16,
}

/// The shadow of [`Rules`] that deserialization validates.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct RulesRepr {
    pieces_per_side: u8,
    placement_capture: PlacementCapture,
    four_diagonal_value: u8,
    five_tigers_value: u8,
    shuttle: Shuttle,
    no_capture_draw: u16,
}

#[cfg(feature = "serde")]
impl TryFrom<RulesRepr> for Rules {
    type Error = RulesError;
    fn try_from(r: RulesRepr) -> Result<Rules, RulesError> {
        let rules = Rules {
            pieces_per_side: r.pieces_per_side,
            placement_capture: r.placement_capture,
            four_diagonal_value: r.four_diagonal_value,
            five_tigers_value: r.five_tigers_value,
            shuttle: r.shuttle,
            no_capture_draw: r.no_capture_draw,
        };
        rules.validate()?;
        Ok(rules)
    }
}

/// Why a rule set could not be made. Every message that repeats the text
/// given shows it through [`qi_core::Escaped`] (control characters
/// escaped), and every option value outside the rules, whether it came as
/// text or as a field of [`Rules`], reads the same way
/// ([`RulesError::BadValue`]).
///
/// ```
/// use qi_five_tigers::{Rules, RulesError};
///
/// assert!(matches!("chess".parse::<Rules>(), Err(RulesError::UnknownPreset { .. })));
/// assert!(matches!("shandong,shuttle".parse::<Rules>(), Err(RulesError::BadSyntax { .. })));
/// assert!(matches!("shandong,speed=3".parse::<Rules>(), Err(RulesError::UnknownOption { .. })));
/// assert!(matches!("shandong,pieces_per_side=14".parse::<Rules>(), Err(RulesError::BadValue { .. })));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "code", content = "fields")
)]
pub enum RulesError {
    /// The name is not a known preset.
    #[error("unknown Five Tigers preset '{}' (known: {})", Escaped(.name), Rules::PRESETS.join(", "))]
    #[cfg_attr(feature = "serde", serde(rename = "ft-rules.unknown-preset"))]
    UnknownPreset {
        /// The name asked for.
        name: String,
    },
    /// An override is not of the form `option=value`.
    #[error("'{}' is not of the form option=value", Escaped(.text))]
    #[cfg_attr(feature = "serde", serde(rename = "ft-rules.bad-syntax"))]
    BadSyntax {
        /// The text of the override.
        text: String,
    },
    /// An override names no option.
    #[error(
        "unknown option '{}' (known: pieces_per_side, placement_capture, \
         four_diagonal_value, five_tigers_value, shuttle, no_capture_draw)",
        Escaped(.option)
    )]
    #[cfg_attr(feature = "serde", serde(rename = "ft-rules.unknown-option"))]
    UnknownOption {
        /// The name given.
        option: String,
    },
    /// An option's value cannot be read or is outside the rules, given as
    /// text (`pieces_per_side=14`) or as a field of [`Rules`]
    /// (`pieces_per_side: 0`, refused by [`Rules::validate`]).
    #[error("option {} = '{}' is not allowed (allowed: {allowed})", Escaped(.option), Escaped(.value))]
    #[cfg_attr(feature = "serde", serde(rename = "ft-rules.bad-value"))]
    BadValue {
        /// The option.
        option: String,
        /// The value, as text.
        value: String,
        /// The values allowed.
        allowed: Allowed,
    },
}

/// The values each numeric option allows (messages name them from these).
const PIECES_PER_SIDE: Allowed = Allowed::Range { min: 1, max: 13 };
const FOUR_DIAGONAL_VALUE: Allowed = Allowed::Range { min: 3, max: 4 };
const FIVE_TIGERS_VALUE: Allowed = Allowed::Range { min: 4, max: 5 };
const NO_CAPTURE_DRAW: Allowed = Allowed::Range {
    min: 0,
    max: u16::MAX as u32,
};

/// Whether `value` is one of the numbers `allowed` names.
fn allows(allowed: Allowed, value: u32) -> bool {
    matches!(allowed, Allowed::Range { min, max } if (min..=max).contains(&value))
}

impl Rules {
    /// The names of the presets, in the order of section 8.
    ///
    /// ```
    /// use qi_five_tigers::Rules;
    ///
    /// for name in Rules::PRESETS {
    ///     assert_eq!(Rules::preset(name).unwrap().preset_name(), Some(name));
    /// }
    /// ```
    pub const PRESETS: [&'static str; 4] = ["shandong", "shandong-shuttle", "ten", "deferred"];

    /// `shandong` (default): 13 pieces, immediate capture, values 3 and 4,
    /// shuttle forbidden.
    ///
    /// ```
    /// use qi_five_tigers::{PlacementCapture, Rules, Shuttle};
    ///
    /// let rules = Rules::shandong();
    /// assert_eq!(rules, Rules::default());
    /// assert_eq!((rules.pieces_per_side, rules.placement_capture), (13, PlacementCapture::Immediate));
    /// assert_eq!((rules.four_diagonal_value, rules.five_tigers_value), (3, 4));
    /// assert_eq!(rules.shuttle, Shuttle::Forbidden);
    /// ```
    pub const fn shandong() -> Rules {
        Rules {
            pieces_per_side: 13,
            placement_capture: PlacementCapture::Immediate,
            four_diagonal_value: 3,
            five_tigers_value: 4,
            shuttle: Shuttle::Forbidden,
            no_capture_draw: 100,
        }
    }

    /// `shandong-shuttle`: `shandong` with the shuttle allowed.
    ///
    /// ```
    /// use qi_five_tigers::{Rules, Shuttle};
    ///
    /// let rules = Rules::shandong_shuttle();
    /// assert_eq!(rules.shuttle, Shuttle::Allowed);
    /// assert_eq!(Rules { shuttle: Shuttle::Forbidden, ..rules }, Rules::shandong());
    /// ```
    pub const fn shandong_shuttle() -> Rules {
        Rules {
            shuttle: Shuttle::Allowed,
            ..Rules::shandong()
        }
    }

    /// `ten`: `shandong` with 10 pieces per side.
    ///
    /// ```
    /// use qi_core::Side;
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// assert_eq!(Rules::ten().pieces_per_side, 10);
    /// assert_eq!(FiveTigers::new(Rules::ten()).hand(Side::First), 10);
    /// ```
    pub const fn ten() -> Rules {
        Rules {
            pieces_per_side: 10,
            ..Rules::shandong()
        }
    }

    /// `deferred`: 13 pieces, deferred capture, values 4 and 5, shuttle
    /// forbidden.
    ///
    /// ```
    /// use qi_five_tigers::{PlacementCapture, Rules};
    ///
    /// let rules = Rules::deferred();
    /// assert_eq!(rules.placement_capture, PlacementCapture::Deferred);
    /// assert_eq!((rules.four_diagonal_value, rules.five_tigers_value), (4, 5));
    /// ```
    pub const fn deferred() -> Rules {
        Rules {
            placement_capture: PlacementCapture::Deferred,
            four_diagonal_value: 4,
            five_tigers_value: 5,
            ..Rules::shandong()
        }
    }

    /// The preset called `name` (one of [`Rules::PRESETS`]).
    ///
    /// ```
    /// use qi_five_tigers::Rules;
    ///
    /// assert_eq!(Rules::preset("shandong-shuttle"), Ok(Rules::shandong_shuttle()));
    /// assert!(Rules::preset("five-tigers:ten").is_err()); // the bare name only; `FromStr` reads the prefix
    /// assert!(Rules::preset("eleven").is_err());
    /// ```
    pub fn preset(name: &str) -> Result<Rules, RulesError> {
        match name {
            "shandong" => Ok(Rules::shandong()),
            "shandong-shuttle" => Ok(Rules::shandong_shuttle()),
            "ten" => Ok(Rules::ten()),
            "deferred" => Ok(Rules::deferred()),
            _ => Err(RulesError::UnknownPreset {
                name: name.to_string(),
            }),
        }
    }

    /// The name of the preset these rules equal, if any.
    ///
    /// ```
    /// use qi_five_tigers::Rules;
    ///
    /// assert_eq!(Rules::deferred().preset_name(), Some("deferred"));
    /// assert_eq!(Rules { no_capture_draw: 50, ..Rules::ten() }.preset_name(), None);
    /// ```
    pub fn preset_name(&self) -> Option<&'static str> {
        Rules::PRESETS
            .into_iter()
            .find(|name| Rules::preset(name).as_ref() == Ok(self))
    }

    /// Checks every option against the values the rules allow.
    ///
    /// ```
    /// use qi_five_tigers::{FiveTigers, Rules};
    ///
    /// assert!(Rules::ten().validate().is_ok());
    /// let rules = Rules { pieces_per_side: 14, ..Rules::shandong() };
    /// assert!(rules.validate().is_err());
    /// assert!(FiveTigers::try_new(rules).is_err());
    /// ```
    pub fn validate(&self) -> Result<(), RulesError> {
        let checks = [
            ("pieces_per_side", self.pieces_per_side, PIECES_PER_SIDE),
            (
                "four_diagonal_value",
                self.four_diagonal_value,
                FOUR_DIAGONAL_VALUE,
            ),
            (
                "five_tigers_value",
                self.five_tigers_value,
                FIVE_TIGERS_VALUE,
            ),
        ];
        for (option, value, allowed) in checks {
            if !allows(allowed, u32::from(value)) {
                return Err(RulesError::BadValue {
                    option: option.to_string(),
                    value: value.to_string(),
                    allowed,
                });
            }
        }
        Ok(())
    }

    /// The value of each formation kind in [`FormationKind`](crate::FormationKind)
    /// order: small square, three-diagonal, four-diagonal, five tigers,
    /// through-heaven.
    ///
    /// ```
    /// use qi_five_tigers::Rules;
    ///
    /// // Small square, three-diagonal, four-diagonal, five tigers, through-heaven.
    /// assert_eq!(Rules::shandong().values(), [1, 2, 3, 4, 5]);
    /// assert_eq!(Rules::deferred().values(), [1, 2, 4, 5, 5]);
    /// ```
    #[inline(always)]
    pub const fn values(&self) -> [u8; 5] {
        [1, 2, self.four_diagonal_value, self.five_tigers_value, 5]
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::shandong()
    }
}

/// `five-tigers:<preset>` for a preset; otherwise `five-tigers:shandong`
/// followed by the options that differ from it, e.g.
/// `five-tigers:shandong,pieces_per_side=12,no_capture_draw=50`. The
/// `FromStr` implementation reads both back.
///
/// ```
/// use qi_five_tigers::Rules;
///
/// assert_eq!(Rules::ten().to_string(), "five-tigers:ten");
/// let rules = Rules { no_capture_draw: 50, ..Rules::shandong() };
/// assert_eq!(rules.to_string(), "five-tigers:shandong,no_capture_draw=50");
/// ```
impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(name) = self.preset_name() {
            return write!(f, "five-tigers:{name}");
        }
        let base = Rules::shandong();
        f.write_str("five-tigers:shandong")?;
        if self.pieces_per_side != base.pieces_per_side {
            write!(f, ",pieces_per_side={}", self.pieces_per_side)?;
        }
        if self.placement_capture != base.placement_capture {
            write!(f, ",placement_capture={}", self.placement_capture)?;
        }
        if self.four_diagonal_value != base.four_diagonal_value {
            write!(f, ",four_diagonal_value={}", self.four_diagonal_value)?;
        }
        if self.five_tigers_value != base.five_tigers_value {
            write!(f, ",five_tigers_value={}", self.five_tigers_value)?;
        }
        if self.shuttle != base.shuttle {
            write!(f, ",shuttle={}", self.shuttle)?;
        }
        if self.no_capture_draw != base.no_capture_draw {
            write!(f, ",no_capture_draw={}", self.no_capture_draw)?;
        }
        Ok(())
    }
}

/// Accepts a preset name, optionally prefixed by `five-tigers:`, or
/// `five-tigers` alone (= `shandong`), followed by any number of
/// `,option=value` overrides (`pieces_per_side`, `placement_capture`
/// = `immediate`|`deferred`, `four_diagonal_value`, `five_tigers_value`,
/// `shuttle` = `allowed`|`forbidden`, `no_capture_draw`). The result is
/// validated.
///
/// ```
/// use qi_five_tigers::{Rules, Shuttle};
///
/// let rules: Rules = "five-tigers:ten,shuttle=allowed".parse().unwrap();
/// assert_eq!((rules.pieces_per_side, rules.shuttle), (10, Shuttle::Allowed));
/// assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules));
/// assert_eq!("five-tigers".parse::<Rules>(), Ok(Rules::shandong()));
/// ```
impl FromStr for Rules {
    type Err = RulesError;
    fn from_str(s: &str) -> Result<Rules, RulesError> {
        let mut parts = s.trim().split(',');
        let name = parts.next().unwrap_or("").trim();
        let mut rules = if name == "five-tigers" {
            Rules::shandong()
        } else {
            Rules::preset(name.strip_prefix("five-tigers:").unwrap_or(name))?
        };
        for part in parts {
            let (key, value) = part.split_once('=').ok_or_else(|| RulesError::BadSyntax {
                text: part.trim().to_string(),
            })?;
            let (key, value) = (key.trim(), value.trim());
            let bad_value = |allowed: Allowed| RulesError::BadValue {
                option: key.to_string(),
                value: value.to_string(),
                allowed,
            };
            // A number out of range is refused here, with the same error
            // `validate` gives for the field.
            let number = |allowed: Allowed| {
                value
                    .parse::<u32>()
                    .ok()
                    .filter(|&n| allows(allowed, n))
                    .ok_or_else(|| bad_value(allowed))
            };
            match key {
                "pieces_per_side" => rules.pieces_per_side = number(PIECES_PER_SIDE)? as u8,
                "four_diagonal_value" => {
                    rules.four_diagonal_value = number(FOUR_DIAGONAL_VALUE)? as u8
                }
                "five_tigers_value" => rules.five_tigers_value = number(FIVE_TIGERS_VALUE)? as u8,
                "no_capture_draw" => rules.no_capture_draw = number(NO_CAPTURE_DRAW)? as u16,
                "placement_capture" => {
                    rules.placement_capture = value
                        .parse()
                        .map_err(|_| bad_value(PlacementCapture::ALLOWED_NAMES))?
                }
                "shuttle" => {
                    rules.shuttle = value
                        .parse()
                        .map_err(|_| bad_value(Shuttle::ALLOWED_NAMES))?
                }
                _ => {
                    return Err(RulesError::UnknownOption {
                        option: key.to_string(),
                    })
                }
            }
        }
        rules.validate()?;
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_match_section_8() {
        let s = Rules::shandong();
        assert_eq!(
            (
                s.pieces_per_side,
                s.four_diagonal_value,
                s.five_tigers_value
            ),
            (13, 3, 4)
        );
        assert_eq!(s.placement_capture, PlacementCapture::Immediate);
        assert_eq!(s.shuttle, Shuttle::Forbidden);
        assert_eq!(s.no_capture_draw, 100);
        assert_eq!(Rules::shandong_shuttle().shuttle, Shuttle::Allowed);
        assert_eq!(Rules::ten().pieces_per_side, 10);
        let d = Rules::deferred();
        assert_eq!(d.placement_capture, PlacementCapture::Deferred);
        assert_eq!((d.four_diagonal_value, d.five_tigers_value), (4, 5));
        assert_eq!(Rules::default(), s);
        for name in Rules::PRESETS {
            let rules = Rules::preset(name).unwrap();
            rules.validate().unwrap();
            assert_eq!(rules.preset_name(), Some(name));
            assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules));
            assert_eq!(name.parse::<Rules>(), Ok(rules));
        }
    }

    #[test]
    fn rules_text_forms() {
        assert_eq!("five-tigers".parse::<Rules>(), Ok(Rules::shandong()));
        assert_eq!("five-tigers:ten".parse::<Rules>(), Ok(Rules::ten()));
        assert_eq!("shandong".parse::<Rules>(), Ok(Rules::shandong()));
        let err = "five-tigers:chess".parse::<Rules>().unwrap_err();
        assert_eq!(
            err,
            RulesError::UnknownPreset {
                name: "chess".into()
            }
        );
        let text = err.to_string();
        for name in Rules::PRESETS {
            assert!(text.contains(name), "{text}");
        }
    }

    #[test]
    fn overrides_are_read_and_written() {
        let r: Rules = "ten,shuttle=allowed, no_capture_draw=50".parse().unwrap();
        assert_eq!(r.pieces_per_side, 10);
        assert_eq!(r.shuttle, Shuttle::Allowed);
        assert_eq!(r.no_capture_draw, 50);
        assert_eq!(r.to_string().parse::<Rules>(), Ok(r));
        assert_eq!(
            "five-tigers:shandong,shuttle=allowed".parse::<Rules>(),
            Ok(Rules::shandong_shuttle())
        );
        let custom = Rules {
            pieces_per_side: 12,
            placement_capture: PlacementCapture::Deferred,
            ..Rules::shandong_shuttle()
        };
        assert_eq!(
            custom.to_string(),
            "five-tigers:shandong,pieces_per_side=12,placement_capture=deferred,shuttle=allowed"
        );
        assert_eq!(custom.to_string().parse::<Rules>(), Ok(custom));
        assert!(matches!(
            "shandong,colour=red".parse::<Rules>(),
            Err(RulesError::UnknownOption { .. })
        ));
        assert!(matches!(
            "shandong,shuttle".parse::<Rules>(),
            Err(RulesError::BadSyntax { .. })
        ));
        assert!(matches!(
            "shandong,pieces_per_side=0".parse::<Rules>(),
            Err(RulesError::BadValue { .. })
        ));
        assert!(matches!(
            "shandong,five_tigers_value=x".parse::<Rules>(),
            Err(RulesError::BadValue { .. })
        ));
        assert!(matches!(
            "chess,shuttle=allowed".parse::<Rules>(),
            Err(RulesError::UnknownPreset { .. })
        ));
    }

    #[test]
    fn validation_rejects_out_of_range_options() {
        let bad = |r: Rules| r.validate().is_err();
        assert!(bad(Rules {
            pieces_per_side: 0,
            ..Rules::shandong()
        }));
        assert!(bad(Rules {
            pieces_per_side: 14,
            ..Rules::shandong()
        }));
        assert!(bad(Rules {
            four_diagonal_value: 5,
            ..Rules::shandong()
        }));
        assert!(bad(Rules {
            five_tigers_value: 3,
            ..Rules::shandong()
        }));
        assert!(!bad(Rules {
            pieces_per_side: 12,
            ..Rules::shandong()
        }));
    }
}
