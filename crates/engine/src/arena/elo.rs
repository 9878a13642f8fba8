//! Match statistics: score, pentanomial pair counts, Elo difference and
//! its 95% error bar.

/// Wins, draws and losses from one engine's point of view, and the
/// results of its colour-swapped pairs of games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Pentanomial counts: `pairs[k]` is the number of finished pairs
    /// (the two games of one opening, colours swapped) in which the engine
    /// scored `k / 2` points, so 0, ½, 1, 1½ and 2 points.
    pub pairs: [u32; 5],
}

impl Tally {
    /// Games played (at most `u32::MAX`: a tally built by hand with more
    /// saturates rather than overflow).
    pub fn games(&self) -> u32 {
        self.wins
            .saturating_add(self.draws)
            .saturating_add(self.losses)
    }

    /// The points scored (win 1, draw ½).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Finished colour-swapped pairs.
    pub fn pair_count(&self) -> u32 {
        self.pairs.iter().fold(0, |sum, &n| sum.saturating_add(n))
    }

    /// Whether every game belongs to a finished pair, so that the
    /// pentanomial counts describe the whole match.
    pub fn pairs_complete(&self) -> bool {
        let pairs = self.pair_count();
        pairs > 0 && 2 * u64::from(pairs) == u64::from(self.games())
    }

    /// The game results as `(score of one game, count)`: the trinomial
    /// model.
    pub fn trinomial(&self) -> [(f64, f64); 3] {
        [
            (0.0, self.losses as f64),
            (0.5, self.draws as f64),
            (1.0, self.wins as f64),
        ]
    }

    /// The pair results as `(score per game of the pair, count)`: the
    /// pentanomial model (a pair scoring 1½ points is 0.75 a game).
    pub fn pentanomial(&self) -> [(f64, f64); 5] {
        let mut model = [(0.0, 0.0); 5];
        for (k, slot) in model.iter_mut().enumerate() {
            *slot = (k as f64 / 4.0, self.pairs[k] as f64);
        }
        model
    }

    /// The Elo difference and the half-width of its 95% confidence
    /// interval, or `None` before any game; both are always finite.
    ///
    /// The interval is the normal one of the mean score, mapped to Elo. Its
    /// variance comes from the pentanomial counts when every game belongs
    /// to a finished colour-swapped pair (the two games of a pair are not
    /// independent: an opening that favours one side shows in both, and
    /// the pair's total cancels it), otherwise from the games' own wins,
    /// draws and losses. When every game (or pair) ended alike the results
    /// show no spread at all: a score of 0% or 100% would give an infinite
    /// estimate with no error bar, all draws an error bar of zero. Such a
    /// tally is then taken with one more result at each extreme (a win and
    /// a loss, or a pair of 2 points and one of 0: a prior of an even
    /// score), the usual way to keep the estimate and its spread finite.
    /// For the same reason no bound of the score is taken closer to 0 or 1
    /// than half a game in one more game.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let games = self.games() as f64;
        if games == 0.0 {
            return None;
        }
        let (score, var_of_mean) = if self.pairs_complete() {
            mean_and_variance(&with_prior(self.pentanomial()))
        } else {
            mean_and_variance(&with_prior(self.trinomial()))
        };
        let margin = 1.959_964 * var_of_mean.sqrt();
        let edge = 0.5 / (games + 1.0);
        let elo = elo_of(score);
        let low = elo_of((score - margin).max(edge));
        let high = elo_of((score + margin).min(1.0 - edge));
        Some((elo, (high - low) / 2.0))
    }
}

/// `model` with one more result at each extreme when only one kind of
/// result occurred (see [`Tally::elo`]).
pub(crate) fn with_prior<const N: usize>(mut model: [(f64, f64); N]) -> [(f64, f64); N] {
    if model.iter().filter(|(_, count)| *count > 0.0).count() == 1 {
        model[0].1 += 1.0;
        model[N - 1].1 += 1.0;
    }
    model
}

/// The mean score of `model`'s results (`(score, count)`) and the variance
/// of that mean (the results' variance over their number); `(0.5, 0.0)`
/// for no results.
pub(crate) fn mean_and_variance(model: &[(f64, f64)]) -> (f64, f64) {
    let n: f64 = model.iter().map(|(_, count)| count).sum();
    if n == 0.0 {
        return (0.5, 0.0);
    }
    let mean = model
        .iter()
        .map(|(score, count)| score * count)
        .sum::<f64>()
        / n;
    let var = model
        .iter()
        .map(|(score, count)| count * (score - mean).powi(2))
        .sum::<f64>()
        / n;
    (mean, var / n)
}

/// The Elo difference that gives an expected score `score`.
pub fn elo_of(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        // `+ 0.0` turns the -0.0 of an even score into 0.0, which prints
        // without a sign.
        -400.0 * (1.0 / score - 1.0).log10() + 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_score_is_zero_elo() {
        let t = tally(10, 0, 10);
        let (elo, margin) = t.elo().unwrap();
        assert!(elo.abs() < 1e-9);
        assert!(margin > 100.0 && margin < 200.0, "margin {margin}");
    }

    #[test]
    fn seventy_six_percent_is_about_two_hundred() {
        assert!((elo_of(0.76) - 200.2).abs() < 0.5);
        let t = tally(76, 0, 24);
        let (elo, margin) = t.elo().unwrap();
        assert!((elo - 200.2).abs() < 0.5);
        assert!(margin > 50.0 && margin < 100.0);
        assert_eq!(Tally::default().elo(), None);
    }

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
            pairs: [0; 5],
        }
    }

    #[test]
    fn a_perfect_score_has_a_finite_estimate_and_error_bar() {
        for n in [1, 2, 10, 100, 1000] {
            let (elo, margin) = tally(n, 0, 0).elo().unwrap();
            assert!(elo.is_finite() && elo > 0.0, "{n}: {elo}");
            assert!(margin.is_finite() && margin > 0.0, "{n}: {margin}");
            let (low, low_margin) = tally(0, 0, n).elo().unwrap();
            assert!((low + elo).abs() < 1e-9, "0% mirrors 100%");
            assert!((low_margin - margin).abs() < 1e-9);
        }
        // 10 wins and the prior's win and loss: 11/12, about +417.
        let (elo, margin) = tally(10, 0, 0).elo().unwrap();
        assert!((elo - 416.6).abs() < 0.5, "{elo}");
        assert!(margin > 100.0 && margin < 600.0, "{margin}");
        // More games of the same perfect score: a larger estimate.
        assert!(tally(100, 0, 0).elo().unwrap().0 > elo);
        // All draws but one win is not a perfect score: no prior.
        let (elo, margin) = tally(1, 9, 0).elo().unwrap();
        assert!((elo - elo_of(0.55)).abs() < 1e-9);
        assert!(margin.is_finite());
    }

    #[test]
    fn all_draws_is_zero_with_an_error_bar_above_zero() {
        let (elo, margin) = tally(0, 10, 0).elo().unwrap();
        assert!(elo.abs() < 1e-9);
        assert_eq!(format!("{elo:+.1}"), "+0.0");
        // Ten draws are no proof of equality: the error bar is not zero.
        assert!(margin.is_finite() && margin > 50.0, "{margin}");
        assert!(tally(0, 100, 0).elo().unwrap().1 < margin);
    }

    #[test]
    fn complete_pairs_give_the_pentanomial_error_bar() {
        // 10 pairs, each a win and a loss (1 point): the trinomial model
        // sees 10 wins and 10 losses with a wide spread, the pentanomial
        // one ten identical pairs, taken with the prior's two extremes.
        let mut t = tally(10, 0, 10);
        let trinomial = t.elo().unwrap();
        t.pairs = [0, 0, 10, 0, 0];
        assert!(t.pairs_complete());
        let (elo, margin) = t.elo().unwrap();
        assert!(elo.abs() < 1e-9);
        assert!(margin < trinomial.1, "{margin} vs {:?}", trinomial);
        // By hand: pair scores 0 (once), 0.5 (10 times), 1 (once);
        // variance of one pair 2 * 0.25 / 12, of the mean that over 12.
        let var = 2.0 * 0.25 / 12.0 / 12.0;
        let m = 1.959_964 * f64::sqrt(var);
        let expected = (elo_of(0.5 + m) - elo_of(0.5 - m)) / 2.0;
        assert!((margin - expected).abs() < 1e-9, "{margin} {expected}");
        // An unfinished pair: back to the trinomial model.
        let odd = Tally { wins: 11, ..t };
        assert!(!odd.pairs_complete());
    }
}
