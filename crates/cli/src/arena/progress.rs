//! The one-line progress display of `qi match`: redrawn in place on stderr
//! after every game, and only when stderr is a terminal, so logs and pipes
//! get the per-game lines of stdout alone.

use std::io::{self, IsTerminal, Write};

use qi_engine::arena::{SprtStatus, Tally};

/// Erases the current terminal line and returns to its start.
const ERASE: &str = "\r\x1b[2K";

/// The progress line, when there is a terminal to draw it on.
pub struct Progress {
    on: bool,
    shown: bool,
}

impl Progress {
    /// A display that is drawn only if stderr is a terminal.
    pub fn new() -> Progress {
        Progress {
            on: io::stderr().is_terminal(),
            shown: false,
        }
    }

    /// Replaces the line with `text`.
    pub fn show(&mut self, text: &str) {
        if self.on {
            // A terminal that cannot be written to must not end a match
            // whose results go to stdout.
            let _ = write!(io::stderr(), "{ERASE}{text}").and_then(|()| io::stderr().flush());
            self.shown = true;
        }
    }

    /// Erases the line, so that stdout's next line starts on a clean one.
    pub fn clear(&mut self) {
        if self.shown {
            let _ = write!(io::stderr(), "{ERASE}").and_then(|()| io::stderr().flush());
            self.shown = false;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}

/// The text of the display after `tally.games()` of `total` games, with
/// the SPRT's standing when the match runs one.
pub fn line(total: usize, tally: &Tally, sprt: Option<&SprtStatus>) -> String {
    let played = tally.games();
    let mut text = format!(
        "match: {played}/{total} games, A {}-{}-{}",
        tally.wins, tally.draws, tally.losses
    );
    if played > 0 {
        text += &format!(" ({:.1}%)", 100.0 * tally.points() / played as f64);
    }
    if let Some((elo, margin)) = tally.elo() {
        text += &format!(", elo {elo:+.1} +/- {margin:.1}");
    }
    if let Some(sprt) = sprt {
        text += &format!(", {sprt}");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_shows_games_score_and_elo() {
        assert_eq!(
            line(10, &Tally::default(), None),
            "match: 0/10 games, A 0-0-0"
        );
        let t = Tally {
            wins: 2,
            draws: 1,
            losses: 1,
            pairs: [0, 0, 1, 1, 0],
        };
        let text = line(10, &t, None);
        assert!(
            text.starts_with("match: 4/10 games, A 2-1-1 (62.5%), elo +"),
            "{text}"
        );
        assert!(text.contains(" +/- "), "{text}");
        assert!(!text.contains('\n'));
        let sprt = qi_engine::arena::Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let text = line(10, &t, Some(&sprt.status(&t)));
        assert!(text.contains(", LLR "), "{text}");
        assert!(text.ends_with("(-2.94, 2.94)"), "{text}");
    }
}
