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
    /// interval, or `None` before any game. A score of 0% or 100% gives an
    /// infinite difference.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let n = self.games() as f64;
        if n == 0.0 {
            return None;
        }
        let score = self.points() / n;
        let var = (self.wins as f64 * (1.0 - score).powi(2)
            + self.draws as f64 * (0.5 - score).powi(2)
            + self.losses as f64 * (0.0 - score).powi(2))
            / n;
        let margin = 1.959_964 * (var / n).sqrt();
        let elo = elo_of(score);
        let low = elo_of((score - margin).max(0.0));
        let high = elo_of((score + margin).min(1.0));
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
        -400.0 * (1.0 / score - 1.0).log10()
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
}
