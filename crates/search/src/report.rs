//! What a search reports: a line per finished iteration and its answer.

use std::fmt;
use std::time::Duration;

use crate::score::Score;

/// What one finished iteration of the search found, for UCI-style `info`
/// lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo<M> {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The deepest ply reached in this iteration (quiescence included).
    pub seldepth: u32,
    /// Which line this is, from 1 (the best), in a search of several
    /// lines ([`SearchOptions::multi_pv`](crate::SearchOptions::multi_pv)
    /// above 1); `None` in a single-line search.
    pub multipv: Option<u32>,
    /// The root score from the side to move's point of view.
    pub score: Score,
    /// Nodes visited since the search started, by every thread (helper
    /// threads' counts lag by at most a few thousand nodes each).
    pub nodes: u64,
    /// Nodes per second since the search started, over every thread.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, starting with the best move.
    pub pv: Vec<M>,
    /// Permille of the transposition table filled by this search.
    pub hashfull: u32,
    /// Nodes answered by an endgame table since the search started, by
    /// every thread ([`SearchHooks::probe`](crate::SearchHooks::probe)).
    pub tbhits: u64,
}

impl<M: fmt::Display> fmt::Display for SearchInfo<M> {
    /// The protocol's `info` line: `info depth D seldepth S [multipv K]
    /// score SCORE nodes N nps N time MS hashfull H [tbhits T] pv m1 m2
    /// ...` (`multipv` in a search of several lines, where UCI engines put
    /// it; `score`
    /// as [`Score`] shows it, `time` in whole milliseconds; `tbhits` only
    /// when a table answered, so a search without tables prints what it
    /// always has). An empty line still ends in `pv ` (with the space), as
    /// front ends have printed it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "info depth {} seldepth {} ", self.depth, self.seldepth)?;
        if let Some(k) = self.multipv {
            write!(f, "multipv {k} ")?;
        }
        write!(
            f,
            "score {} nodes {} nps {} time {} hashfull {} ",
            self.score,
            self.nodes,
            self.nps,
            self.time.as_millis(),
            self.hashfull
        )?;
        if self.tbhits > 0 {
            write!(f, "tbhits {} ", self.tbhits)?;
        }
        f.write_str("pv ")?;
        for (i, mv) in self.pv.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{mv}")?;
        }
        Ok(())
    }
}

/// One root move's line in a search of several lines (MultiPV).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine<M> {
    /// The line's score from the side to move's point of view.
    pub score: Score,
    /// The iteration that found it (a stopped search's later lines may
    /// come from the iteration before).
    pub depth: u32,
    /// The principal variation, starting with the root move it is about.
    pub pv: Vec<M>,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play: `None` only when the game is over or the side to
    /// move has no legal move. Always legal in the searched position.
    pub best_move: Option<M>,
    /// The score of the deepest completed iteration (the static evaluation
    /// when none completed, the game's value when it is over).
    pub score: Score,
    /// The deepest completed iteration (0 when none completed).
    pub depth: u32,
    /// The deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Nodes answered by an endgame table
    /// ([`SearchHooks::probe`](crate::SearchHooks::probe)).
    pub tbhits: u64,
    /// The principal variation of the deepest completed iteration,
    /// starting with `best_move`.
    pub pv: Vec<M>,
    /// The best root moves, best first, each with its own score, depth
    /// and principal variation: as many as
    /// [`SearchOptions::multi_pv`](crate::SearchOptions::multi_pv) asks
    /// (at most one per legal move), and one in a single-line search. The
    /// first is `best_move`'s line (with `score`, `depth` and `pv`).
    /// Empty when no iteration completed or there is no move.
    pub lines: Vec<PvLine<M>>,
    /// Time the search took.
    pub elapsed: Duration,
}

/// Nodes per second; a time under a nanosecond counts as one, so there is
/// no division by zero.
pub(crate) fn nps(nodes: u64, time: Duration) -> u64 {
    let nanos = time.as_nanos().max(1);
    (u128::from(nodes) * 1_000_000_000 / nanos).min(u128::from(u64::MAX)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(pv: Vec<&'static str>) -> SearchInfo<&'static str> {
        SearchInfo {
            depth: 14,
            seldepth: 18,
            multipv: None,
            score: Score::cp(7),
            nodes: 539_748,
            nps: 4_097_549,
            time: Duration::from_micros(131_900),
            pv,
            hashfull: 125,
            tbhits: 0,
        }
    }

    #[test]
    fn info_line_is_the_protocols() {
        assert_eq!(
            info(vec!["g3g4", "a7a6", "a3b3"]).to_string(),
            "info depth 14 seldepth 18 score cp 7 nodes 539748 nps 4097549 time 131 \
             hashfull 125 pv g3g4 a7a6 a3b3"
        );
        let mut mate = info(vec!["c1"]);
        mate.score = Score::win_in(3);
        assert_eq!(
            mate.to_string(),
            "info depth 14 seldepth 18 score mate 2 nodes 539748 nps 4097549 time 131 \
             hashfull 125 pv c1"
        );
        assert_eq!(
            info(Vec::new()).to_string(),
            "info depth 14 seldepth 18 score cp 7 nodes 539748 nps 4097549 time 131 \
             hashfull 125 pv "
        );
    }

    #[test]
    fn table_hits_are_shown_when_there_are_some() {
        let mut i = info(vec!["c1"]);
        i.tbhits = 42;
        assert_eq!(
            i.to_string(),
            "info depth 14 seldepth 18 score cp 7 nodes 539748 nps 4097549 time 131 \
             hashfull 125 tbhits 42 pv c1"
        );
    }

    #[test]
    fn a_line_of_several_says_which_where_uci_engines_do() {
        let mut i = info(vec!["c1"]);
        i.multipv = Some(3);
        assert_eq!(
            i.to_string(),
            "info depth 14 seldepth 18 multipv 3 score cp 7 nodes 539748 nps 4097549 time 131 \
             hashfull 125 pv c1"
        );
    }

    #[test]
    fn info_line_matches_the_engine_commands_format() {
        for pv in [vec![], vec!["c1"], vec!["g3g4", "a7a6"]] {
            let i = info(pv);
            let cli = format!(
                "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {} pv {}",
                i.depth,
                i.seldepth,
                i.score,
                i.nodes,
                i.nps,
                i.time.as_millis(),
                i.hashfull,
                i.pv.join(" ")
            );
            assert_eq!(i.to_string(), cli);
        }
    }

    #[test]
    fn nps_survives_a_zero_time() {
        assert_eq!(nps(1_000, Duration::from_millis(500)), 2_000);
        assert_eq!(nps(5, Duration::ZERO), 5_000_000_000);
    }
}
