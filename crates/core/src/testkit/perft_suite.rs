//! Perft expectations as data: a text suite of positions and their node
//! counts, read by [`Suite::parse`] and checked by [`Suite::check`] for any
//! game whose rules can be read from text.
//!
//! The format is line-based. A case starts with `id`; blank lines and lines
//! starting with `#` are ignored:
//!
//! ```text
//! # The start position, standard rules.
//! id start-standard
//! rules standard
//! position start
//! perft 1 24
//! perft 2 576
//! ```
//!
//! * `id NAME`: the name of the case, unique within the suite;
//! * `rules SPEC`: the rule set, read with the rules' `FromStr`;
//! * `position TEXT`: the position text (read under those rules), or
//!   `start` for the start position;
//! * `perft DEPTH COUNT`: the number of leaf nodes at `DEPTH`.
//!
//! Every case needs `rules` (before `position`), `position` and at least
//! one `perft` line. Every error names the line it was found on.

use std::collections::HashSet;
use std::fmt::Display;
use std::str::FromStr;

use thiserror::Error;

use crate::position::{MoveList, Position};

/// A suite text that could not be read: what was wrong, and where.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {message}")]
pub struct SuiteError {
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong on that line.
    pub message: String,
}

/// One expected count: `perft depth` is `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expectation {
    /// The depth in plies.
    pub depth: u32,
    /// The number of leaf nodes.
    pub count: u64,
    /// The line of the suite it was read from.
    pub line: usize,
}

/// One case of a suite: a position and its expected counts.
#[derive(Clone, Debug)]
pub struct Case<P: Position> {
    /// The case's name.
    pub id: String,
    /// The line of its `id`.
    pub line: usize,
    /// The rule set.
    pub rules: P::Rules,
    /// The position text as written (`start` for the start position).
    pub text: String,
    /// The position counted from.
    pub position: P,
    /// The expected counts, in the order written.
    pub perft: Vec<Expectation>,
}

impl<P: Position> Case<P> {
    /// The expected count at `depth`, if the case has one.
    pub fn count(&self, depth: u32) -> Option<u64> {
        self.perft
            .iter()
            .find(|e| e.depth == depth)
            .map(|e| e.count)
    }
}

/// The cases of a suite, in the order written.
#[derive(Clone, Debug)]
pub struct Suite<P: Position> {
    /// The cases.
    pub cases: Vec<Case<P>>,
}

struct Partial<P: Position> {
    id: String,
    line: usize,
    rules: Option<P::Rules>,
    position: Option<(String, P)>,
    perft: Vec<Expectation>,
}

impl<P: Position> Partial<P> {
    fn finish(self) -> Result<Case<P>, SuiteError> {
        let Partial {
            id,
            line,
            rules,
            position,
            perft,
        } = self;
        let missing = |what: &str| SuiteError {
            line,
            message: format!("case '{id}' has no {what}"),
        };
        // `position` is refused before `rules`, so a case with a position
        // has rules too.
        let (Some(rules), Some((text, position))) = (rules, position) else {
            return Err(missing("position line"));
        };
        if perft.is_empty() {
            return Err(missing("perft line"));
        }
        Ok(Case {
            id,
            line,
            rules,
            text,
            position,
            perft,
        })
    }
}

impl<P> Suite<P>
where
    P: Position,
    P::Rules: FromStr,
    <P::Rules as FromStr>::Err: Display,
{
    /// Reads a suite text (see the module documentation for the format).
    pub fn parse(text: &str) -> Result<Suite<P>, SuiteError> {
        let mut cases = Vec::new();
        let mut ids = HashSet::new();
        let mut current: Option<Partial<P>> = None;
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let err = |message: String| SuiteError { line, message };
            let (keyword, rest) = trimmed
                .split_once(char::is_whitespace)
                .map_or((trimmed, ""), |(k, r)| (k, r.trim()));
            if keyword == "id" {
                if rest.is_empty() {
                    return Err(err("'id' needs a name".into()));
                }
                if !ids.insert(rest.to_string()) {
                    return Err(err(format!("duplicate id '{rest}'")));
                }
                if let Some(done) = current.take() {
                    cases.push(done.finish()?);
                }
                current = Some(Partial {
                    id: rest.to_string(),
                    line,
                    rules: None,
                    position: None,
                    perft: Vec::new(),
                });
                continue;
            }
            let case = current
                .as_mut()
                .ok_or_else(|| err(format!("'{keyword}' before the first 'id'")))?;
            match keyword {
                "rules" => {
                    if case.rules.is_some() {
                        return Err(err("a second 'rules' line in one case".into()));
                    }
                    let rules = rest
                        .parse()
                        .map_err(|e| err(format!("bad rules '{rest}': {e}")))?;
                    case.rules = Some(rules);
                }
                "position" => {
                    if case.position.is_some() {
                        return Err(err("a second 'position' line in one case".into()));
                    }
                    let rules = case
                        .rules
                        .as_ref()
                        .ok_or_else(|| err("'position' before 'rules'".into()))?;
                    let position = match rest {
                        "start" => P::new(rules.clone()),
                        _ => P::from_text(rest, rules.clone())
                            .map_err(|e| err(format!("bad position '{rest}': {e}")))?,
                    };
                    case.position = Some((rest.to_string(), position));
                }
                "perft" => {
                    let mut fields = rest.split_whitespace();
                    let (Some(depth), Some(count), None) =
                        (fields.next(), fields.next(), fields.next())
                    else {
                        return Err(err(format!("'perft {rest}' is not 'perft DEPTH COUNT'")));
                    };
                    let depth = depth
                        .parse()
                        .map_err(|e| err(format!("bad depth '{depth}': {e}")))?;
                    let count = count
                        .parse()
                        .map_err(|e| err(format!("bad count '{count}': {e}")))?;
                    if case.perft.iter().any(|e| e.depth == depth) {
                        return Err(err(format!("a second 'perft {depth}' in one case")));
                    }
                    case.perft.push(Expectation { depth, count, line });
                }
                _ => {
                    return Err(err(format!(
                        "unknown keyword '{keyword}' (expected id, rules, position or perft)"
                    )))
                }
            }
        }
        if let Some(done) = current {
            cases.push(done.finish()?);
        }
        Ok(Suite { cases })
    }

    /// Reads a suite that is known to be well formed (one included in a
    /// test).
    ///
    /// # Panics
    /// On the first error, naming `name` and the line.
    pub fn parse_or_panic(name: &str, text: &str) -> Suite<P> {
        Suite::parse(text).unwrap_or_else(|e| panic!("perft suite {name}, {e}"))
    }

    /// Reads every suite of `files`, `(file name, text)` pairs as a test
    /// includes them, in order.
    ///
    /// # Panics
    /// On the first error, naming the file and the line.
    pub fn parse_files(files: &[(&str, &str)]) -> Vec<Suite<P>> {
        files
            .iter()
            .map(|(name, text)| Suite::parse_or_panic(name, text))
            .collect()
    }

    /// Reads the suite called `name` among `files` (see
    /// [`parse_files`](Suite::parse_files)).
    ///
    /// # Panics
    /// If there is no such file, or on the first error in it.
    pub fn parse_file(files: &[(&str, &str)], name: &str) -> Suite<P> {
        let (name, text) = files
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("no perft suite file {name}"));
        Suite::parse_or_panic(name, text)
    }
}

impl<P: Position> Suite<P> {
    /// The case called `id`.
    ///
    /// # Panics
    /// If there is none: a test asking for a case relies on it.
    pub fn case(&self, id: &str) -> &Case<P> {
        self.cases
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("no perft suite case '{id}'"))
    }

    /// The number of expected counts in the suite.
    pub fn len(&self) -> usize {
        self.cases.iter().map(|c| c.perft.len()).sum()
    }

    /// Whether the suite expects no count at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The same suite with only the expectations `keep` accepts (cases
    /// left with none are dropped), so that a slower counter can check the
    /// cheap part.
    pub fn filtered(&self, keep: impl Fn(&Case<P>, &Expectation) -> bool) -> Suite<P> {
        let cases = self
            .cases
            .iter()
            .map(|c| Case {
                perft: c.perft.iter().copied().filter(|e| keep(c, e)).collect(),
                ..c.clone()
            })
            .filter(|c| !c.perft.is_empty())
            .collect();
        Suite { cases }
    }

    /// Checks every expectation with `count` (a perft function: position
    /// and depth to leaf nodes). Returns the number of counts checked.
    ///
    /// # Panics
    /// On the first count that differs, naming the case, its line, the
    /// position and the depth.
    pub fn check(&self, count: impl Fn(&P, u32) -> u64) -> usize {
        let mut checked = 0;
        for case in &self.cases {
            for e in &case.perft {
                let got = count(&case.position, e.depth);
                assert_eq!(
                    got, e.count,
                    "perft suite case '{}' (line {}): perft {} of {} is {got}, expected {}",
                    case.id, e.line, e.depth, case.position, e.count
                );
                checked += 1;
            }
        }
        checked
    }
}

/// Perft over the [`Position`] trait alone: the leaf nodes `depth` plies
/// below `pos`, with [`Position::count_moves`] at the last ply (bulk
/// counting). Written independently of `qi-search` so that the two can
/// check each other.
pub fn perft<P: Position>(pos: &P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves() as u64,
        _ => {
            let mut moves = MoveList::new();
            pos.generate_moves(&mut moves);
            moves
                .into_iter()
                .map(|mv| {
                    let mut child = pos.clone();
                    child.play_unchecked(mv);
                    perft(&child, depth - 1)
                })
                .sum()
        }
    }
}
