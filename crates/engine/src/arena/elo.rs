//! Match statistics: score, Elo difference and its 95% error bar.

/// Wins, draws and losses from one engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The points scored (win 1, draw ½).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The Elo difference and the half-width of its 95% confidence
    /// interval, or `None` before any game; both are always finite.
    ///
    /// The interval is the normal one of the mean score (its variance from
    /// the games' own wins, draws and losses), mapped to Elo. When every
    /// game ended alike (all won, all lost, all drawn) the games show no
    /// spread at all: a score of 0% or 100% would give an infinite estimate
    /// with no error bar, all draws an error bar of zero. Such a tally is
    /// then taken with one more win and one more loss (a prior of an even
    /// score), the usual way to keep the estimate and its spread finite.
    /// For the same reason no bound of the score is taken closer to 0 or 1
    /// than half a game in one more game.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let n = self.games() as f64;
        if n == 0.0 {
            return None;
        }
        let kinds = [self.wins, self.draws, self.losses];
        let t = if kinds.iter().filter(|&&count| count > 0).count() == 1 {
            Tally {
                wins: self.wins + 1,
                losses: self.losses + 1,
                ..*self
            }
        } else {
            *self
        };
        let n = t.games() as f64;
        let score = t.points() / n;
        let var = (t.wins as f64 * (1.0 - score).powi(2)
            + t.draws as f64 * (0.5 - score).powi(2)
            + t.losses as f64 * (0.0 - score).powi(2))
            / n;
        let margin = 1.959_964 * (var / n).sqrt();
        let edge = 0.5 / (n + 1.0);
        let elo = elo_of(score);
        let low = elo_of((score - margin).max(edge));
        let high = elo_of((score + margin).min(1.0 - edge));
        Some((elo, (high - low) / 2.0))
    }
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
        let t = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        let (elo, margin) = t.elo().unwrap();
        assert!(elo.abs() < 1e-9);
        assert!(margin > 100.0 && margin < 200.0, "margin {margin}");
    }

    #[test]
    fn seventy_six_percent_is_about_two_hundred() {
        assert!((elo_of(0.76) - 200.2).abs() < 0.5);
        let t = Tally {
            wins: 76,
            draws: 0,
            losses: 24,
        };
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
}
