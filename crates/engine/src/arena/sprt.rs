//! The sequential probability ratio test of a match: does engine A gain
//! at least `elo1` over B (H1) or at most `elo0` (H0)?
//!
//! The test is the generalized SPRT under the logistic Elo model, in the
//! normal approximation that fastchess's `logistic` bounds used (and that
//! Stockfish's fishtest approximates too; cutechess-cli's own SPRT uses the
//! BayesElo model instead): with `s0` and `s1` the
//! expected scores of Elo differences `elo0` and `elo1`
//! (`s = 1 / (1 + 10^(-elo / 400))`), `x̄` the mean score of the `N`
//! results so far and `σ²` their variance,
//!
//! ```text
//! LLR = (s1 - s0) · (2·x̄ - s0 - s1) / (2 · σ² / N)
//! ```
//!
//! The results are the colour-swapped pairs of games (pentanomial: a pair
//! scores 0, ½, 1, 1½ or 2 points, `x̄` and `σ²` per game of the pair) once
//! a pair is finished, single games (trinomial) before. The match stops
//! when the LLR leaves `[ln(β / (1 - α)), ln((1 - β) / α)]`: below, H0 is
//! accepted; above, H1. When every result so far is alike there is no
//! variance to divide by: one more result at each extreme is added (the
//! prior [`Tally::elo`] uses too).

use std::fmt;
use std::str::FromStr;

use qi_core::Escaped;
use thiserror::Error;

use super::elo::{mean_and_variance, with_prior};
use super::Tally;

/// Why SPRT settings were refused ([`Sprt::new`], or read from text).
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum SprtError {
    /// `elo0` or `elo1` is infinite or not a number.
    #[error("elo0 and elo1 must be finite numbers")]
    NotFinite,
    /// `elo0` is not below `elo1`.
    #[error("elo0 ({elo0}) must be below elo1 ({elo1})")]
    Order {
        /// The given `elo0`.
        elo0: f64,
        /// The given `elo1`.
        elo1: f64,
    },
    /// `alpha` or `beta` is not strictly between 0 and 1.
    #[error("{name} ({value}) must lie strictly between 0 and 1")]
    Probability {
        /// `alpha` or `beta`.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// `alpha + beta` is 1 or more.
    #[error("alpha + beta ({0}) must be below 1")]
    ProbabilitySum(f64),
    /// An item of the text is not `NAME=VALUE`.
    #[error("'{}' is not NAME=VALUE", Escaped(.0))]
    NotNameValue(String),
    /// An item names no setting.
    #[error("unknown item '{}' (expected elo0, elo1, alpha, beta)", Escaped(.0))]
    UnknownItem(String),
    /// A value is not a number.
    #[error("{name}: '{}' is not a number", Escaped(.value))]
    NotANumber {
        /// The setting, as given.
        name: String,
        /// The value, as given.
        value: String,
    },
    /// A setting is given twice.
    #[error("{0} is given twice")]
    Twice(String),
    /// `elo0` or `elo1` is not given.
    #[error("{0} is missing")]
    Missing(&'static str),
}

/// The settings of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of the null hypothesis H0.
    pub elo0: f64,
    /// The Elo difference of the alternative H1 (above `elo0`).
    pub elo1: f64,
    /// The probability of accepting H1 when H0 holds (false positive).
    pub alpha: f64,
    /// The probability of accepting H0 when H1 holds (false negative).
    pub beta: f64,
}

/// Which hypothesis a finished test accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hypothesis {
    /// The gain is at most `elo0`.
    H0,
    /// The gain is at least `elo1`.
    H1,
}

impl fmt::Display for Hypothesis {
    /// `H0 accepted` or `H1 accepted`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Hypothesis::H0 => "H0 accepted",
            Hypothesis::H1 => "H1 accepted",
        })
    }
}

/// Where a test stands after some games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The lower bound, `ln(β / (1 - α))`.
    pub lower: f64,
    /// The upper bound, `ln((1 - β) / α)`.
    pub upper: f64,
    /// The accepted hypothesis once the LLR crossed a bound.
    pub decision: Option<Hypothesis>,
}

impl fmt::Display for SprtStatus {
    /// `LLR 1.23 (-2.94, 2.94)`, then `: H1 accepted` once decided.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "LLR {:.2} ({:.2}, {:.2})",
            self.llr, self.lower, self.upper
        )?;
        match self.decision {
            Some(h) => write!(f, ": {h}"),
            None => Ok(()),
        }
    }
}

/// The expected score of an Elo difference (logistic model).
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Sprt {
    /// A test of `elo0` against `elo1`, checked: `elo0 < elo1`, `alpha`
    /// and `beta` in (0, 1) with `alpha + beta < 1`, all finite.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite()) {
            return Err(SprtError::NotFinite);
        }
        if elo0 >= elo1 {
            return Err(SprtError::Order { elo0, elo1 });
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(SprtError::Probability { name, value });
            }
        }
        if alpha + beta >= 1.0 {
            return Err(SprtError::ProbabilitySum(alpha + beta));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The bounds `(ln(β / (1 - α)), ln((1 - β) / α))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The LLR of results given as `(score per game, count)`.
    pub fn llr_of(&self, model: &[(f64, f64)]) -> f64 {
        if model.iter().all(|(_, count)| *count == 0.0) {
            return 0.0;
        }
        let (mean, var_of_mean) = mean_and_variance(model);
        let (s0, s1) = (score_of(self.elo0), score_of(self.elo1));
        (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var_of_mean)
    }

    /// The LLR of `tally`: from its finished pairs (pentanomial) when it
    /// has any, else from its games (trinomial); each with the prior of
    /// the module's documentation when its results are all alike.
    pub fn llr(&self, tally: &Tally) -> f64 {
        if tally.pair_count() > 0 {
            self.llr_of(&with_prior(tally.pentanomial()))
        } else if tally.games() > 0 {
            self.llr_of(&with_prior(tally.trinomial()))
        } else {
            0.0
        }
    }

    /// The LLR of `tally`, the bounds and the decision, if any.
    pub fn status(&self, tally: &Tally) -> SprtStatus {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        let decision = if llr >= upper {
            Some(Hypothesis::H1)
        } else if llr <= lower {
            Some(Hypothesis::H0)
        } else {
            None
        };
        SprtStatus {
            llr,
            lower,
            upper,
            decision,
        }
    }
}

impl fmt::Display for Sprt {
    /// `elo0=0 elo1=10 alpha=0.05 beta=0.05`, the form [`FromStr`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

impl FromStr for Sprt {
    type Err = SprtError;

    /// Reads `elo0=E0 elo1=E1 [alpha=A] [beta=B]` (items separated by
    /// spaces or commas, in any order; `alpha` and `beta` default to 0.05).
    fn from_str(text: &str) -> Result<Sprt, SprtError> {
        let mut values: [Option<f64>; 4] = [None; 4];
        const NAMES: [&str; 4] = ["elo0", "elo1", "alpha", "beta"];
        for item in text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|item| !item.is_empty())
        {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| SprtError::NotNameValue(item.to_string()))?;
            let slot = NAMES
                .iter()
                .position(|n| n.eq_ignore_ascii_case(name.trim()))
                .ok_or_else(|| SprtError::UnknownItem(name.to_string()))?;
            let number: f64 = value.trim().parse().map_err(|_| SprtError::NotANumber {
                name: name.to_string(),
                value: value.to_string(),
            })?;
            if values[slot].replace(number).is_some() {
                return Err(SprtError::Twice(name.to_string()));
            }
        }
        let [elo0, elo1, alpha, beta] = values;
        let elo0 = elo0.ok_or(SprtError::Missing("elo0"))?;
        let elo1 = elo1.ok_or(SprtError::Missing("elo1"))?;
        Sprt::new(elo0, elo1, alpha.unwrap_or(0.05), beta.unwrap_or(0.05))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(elo0: f64, elo1: f64) -> Sprt {
        Sprt::new(elo0, elo1, 0.05, 0.05).unwrap()
    }

    fn tally(wins: u32, draws: u32, losses: u32, pairs: [u32; 5]) -> Tally {
        Tally {
            wins,
            draws,
            losses,
            pairs,
        }
    }

    #[test]
    fn bounds_are_the_usual_ones() {
        let (lower, upper) = sprt(0.0, 10.0).bounds();
        assert!((lower - (-2.944_438_979)).abs() < 1e-6, "{lower}");
        assert!((upper - 2.944_438_979).abs() < 1e-6, "{upper}");
        let (lower, upper) = Sprt::new(0.0, 5.0, 0.05, 0.1).unwrap().bounds();
        assert!((lower - (0.1f64 / 0.95).ln()).abs() < 1e-12);
        assert!((upper - 18f64.ln()).abs() < 1e-12);
    }

    /// The trinomial LLR against the formula written out by hand.
    #[test]
    fn trinomial_llr_matches_the_formula() {
        let (w, d, l) = (60.0, 20.0, 20.0);
        let n = w + d + l;
        let x = (w + 0.5 * d) / n;
        let var = (w * (1.0 - x) * (1.0 - x) + d * (0.5 - x) * (0.5 - x) + l * x * x) / n;
        let s0 = 0.5;
        let s1 = 1.0 / (1.0 + 10f64.powf(-10.0 / 400.0));
        let expected = (s1 - s0) * (2.0 * x - s0 - s1) / (2.0 * var / n);
        let got = sprt(0.0, 10.0).llr(&tally(60, 20, 20, [0; 5]));
        assert!((got - expected).abs() < 1e-9, "{got} {expected}");
        // Worked out separately: x = 0.7, var = 0.16, LLR 1.7337133.
        assert!((got - 1.733_713_31).abs() < 1e-6, "{got}");
    }

    /// The pentanomial LLR against figures worked out separately (in
    /// Python, from the formula): pairs 1, 11, 47, 25, 16 give a mean of
    /// 0.61 a game, a variance of 0.0529 a pair and an LLR of 2.7960203
    /// for [0, 10].
    #[test]
    fn pentanomial_llr_matches_the_formula() {
        let pairs = [1u32, 11, 47, 25, 16];
        let t = tally(67, 110, 23, pairs);
        let got = sprt(0.0, 10.0).llr(&t);
        assert!((got - 2.796_020_27).abs() < 1e-6, "{got}");
        // The same games without pairs: the trinomial model, 2.9464038.
        let trinomial = sprt(0.0, 10.0).llr(&tally(67, 110, 23, [0; 5]));
        assert!((trinomial - 2.946_403_83).abs() < 1e-6, "{trinomial}");
    }

    #[test]
    fn an_even_score_favours_h0_and_decisions_follow_the_bounds() {
        let s = sprt(0.0, 10.0);
        assert_eq!(s.llr(&Tally::default()), 0.0);
        let even = tally(500, 0, 500, [0, 0, 500, 0, 0]);
        let status = s.status(&even);
        assert!(status.llr < status.lower, "{status}");
        assert_eq!(status.decision, Some(Hypothesis::H0));
        assert!(status.to_string().ends_with(": H0 accepted"), "{status}");
        // Twenty won pairs: far above the bound.
        let won = tally(40, 0, 0, [0, 0, 0, 0, 20]);
        let status = s.status(&won);
        assert!(
            status.llr.is_finite() && status.llr > status.upper,
            "{status}"
        );
        assert_eq!(status.decision, Some(Hypothesis::H1));
        // One game: too little to decide anything.
        let one = s.status(&tally(1, 0, 0, [0; 5]));
        assert_eq!(one.decision, None, "{one}");
        assert!(one.to_string().starts_with("LLR "), "{one}");
    }

    #[test]
    fn settings_are_read_and_checked() {
        let s: Sprt = "elo0=0 elo1=10 alpha=0.05 beta=0.1".parse().unwrap();
        assert_eq!(s, Sprt::new(0.0, 10.0, 0.05, 0.1).unwrap());
        let s: Sprt = "elo1=5,elo0=-1".parse().unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-1.0, 5.0, 0.05, 0.05));
        assert_eq!(s.to_string().parse::<Sprt>().unwrap(), s);
        for bad in [
            "",
            "elo0=0",
            "elo0=10 elo1=0",
            "elo0=0 elo1=10 alpha=0",
            "elo0=0 elo1=10 beta=1.5",
            "elo0=0 elo1=10 alpha=0.6 beta=0.5",
            "elo0=x elo1=10",
            "elo0=0 elo1=10 gamma=1",
            "elo0 elo1",
            "elo0=0 elo0=1 elo1=10",
            "elo0=nan elo1=10",
        ] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }
}
