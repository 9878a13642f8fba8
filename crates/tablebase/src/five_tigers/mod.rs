//! Five Tigers (五虎棋) movement-phase endings: every position of the
//! movement phase with 1 to 3 pieces a side on the board and nothing owed,
//! solved by retrograde analysis under a rule set's board rules.
//!
//! * [`Material`] is a pair of piece counts (`3v2`: First has 3, Second 2);
//!   pieces of a side are identical.
//! * [`Tablebase::generate`] solves materials (and the smaller ones their
//!   removals lead to) on several threads; [`Tablebase::extend`] resumes
//!   from the tables already loaded.
//! * A [`Table`] stores one canonical state per class of the board's 8
//!   symmetries, as a sorted array of 64-bit keys searched by bisection,
//!   with 2 bits a value and a separate distance table
//!   ([`Table::to_bytes`] / [`Table::from_bytes`]).
//! * [`Tablebase::probe`] answers for a position.
//!
//! What is in a state: the boards, the side to move and, under
//! `shuttle = forbidden`, each side's previous step while it can still ban
//! a step back (the shuttle rule is part of the moves, so a table without
//! it would be wrong). The quiet count and repetitions are game-record
//! rules and are not in the tables. A step that forms a formation makes
//! its side owed removals; the positions in between, where removals are
//! owed, are nodes of the graph of their own (each removal is a ply, and
//! the side that chooses a removal, the taker or the owner giving up a
//! piece of a formation, decides at that node), so the values are exact;
//! they are not stored in the files and not counted in the statistics.
//!
//! With at most 3 pieces a side the only formation that can be formed is
//! the three-diagonal (三斜, 3 points; value 2 in every preset), so the
//! tables depend only on the `shuttle` option: `shandong`, `ten` and
//! `deferred` share their tables ([`same_board_rules`]).
//!
//! ```
//! use qi_five_tigers::{FiveTigers, Rules};
//! use qi_tablebase::five_tigers::{Material, Tablebase};
//! use qi_tablebase::Wdl;
//!
//! let rules = Rules::shandong_shuttle();
//! let tb = Tablebase::generate(&rules, &["3v1".parse::<Material>().unwrap()], 2).unwrap();
//! // X steps b1-c1 to complete the three-diagonal a3-b2-c1 and takes the
//! // last O piece: two plies (the step and the removal).
//! let pos = FiveTigers::from_text_lenient("4O/5/X4/1X3/1X3 x move X:0,O:0 - x -,- 0", &rules).unwrap();
//! assert_eq!(tb.probe(&pos).unwrap(), Some((Wdl::Win, 2)));
//! ```

mod format;
mod generate;
mod key;
mod lazy;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use qi_core::{Position, Side};
use qi_five_tigers::{FiveTigers, FormationKind, Phase, Rules, Shuttle};
use thiserror::Error;

pub use format::{FormatError, EXTENSION, FORMAT_VERSION, GAME};
pub use generate::raw_state_count;
pub use lazy::LazyTablebase;

use crate::table::{Distances, Wdl};
use key::State;

/// The most pieces a side may have in a material.
pub const MAX_PIECES: u32 = 3;

/// Whether two rule sets give the same tables: with at most 3 pieces a
/// side only three-diagonals can be formed, whose value no option changes,
/// so only the `shuttle` option matters.
pub fn same_board_rules(a: &Rules, b: &Rules) -> bool {
    a.shuttle == b.shuttle
}

/// A material: how many pieces each side has on the board (1 to 3 each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// First's (X's) pieces.
    pub first: u32,
    /// Second's (O's) pieces.
    pub second: u32,
}

/// Why a material text or count was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MaterialError {
    /// Not of the form `<n>v<n>`.
    #[error("bad material {0:?}: expected <first>v<second>, e.g. 3v2")]
    Syntax(String),
    /// A count outside 1 to 3.
    #[error("bad material {0:?}: each side has 1 to 3 pieces")]
    Count(String),
}

impl Material {
    /// The material with these counts, if each is 1 to 3.
    pub fn new(first: u32, second: u32) -> Result<Material, MaterialError> {
        if (1..=MAX_PIECES).contains(&first) && (1..=MAX_PIECES).contains(&second) {
            Ok(Material { first, second })
        } else {
            Err(MaterialError::Count(format!("{first}v{second}")))
        }
    }

    /// The material of a position's boards, if covered.
    fn of_boards(boards: [u32; 2]) -> Option<Material> {
        Material::new(boards[0].count_ones(), boards[1].count_ones()).ok()
    }

    /// The material of a position, if each side has 1 to 3 pieces on the
    /// board.
    pub fn of(pos: &FiveTigers) -> Option<Material> {
        Material::of_boards([pos.pieces(Side::First).0, pos.pieces(Side::Second).0])
    }

    /// All materials of up to `per_side` pieces a side (at most 3), fewest
    /// pieces first.
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
    /// still on: a side with 3 pieces forms a three-diagonal and takes its
    /// value in pieces from the other side, which keeps some.
    pub fn after_removals(self, rules: &Rules) -> Vec<Material> {
        let v = u32::from(FormationKind::ThreeDiagonal.value(rules));
        let mut out = Vec::new();
        if self.first >= 3 && self.second > v {
            out.push(Material {
                first: self.first,
                second: self.second - v,
            });
        }
        if self.second >= 3 && self.first > v {
            out.push(Material {
                first: self.first - v,
                second: self.second,
            });
        }
        out
    }

    /// Total pieces.
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

/// The materials needed to solve `materials`: themselves and what their
/// removals lead to, fewest pieces first.
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

/// Why a generation failed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GenerateError {
    /// A material needs more pieces than the rules give a side.
    #[error("{material} needs {needed} pieces a side, the rules give {allowed}")]
    TooManyPieces {
        /// The material.
        material: Material,
        /// Its larger count.
        needed: u32,
        /// The rules' pieces per side.
        allowed: u8,
    },
    /// A table a removal leads to is missing (not in the closure).
    #[error("the table of {0} is needed but missing")]
    MissingTable(Material),
    /// The rules crate produced something this module does not expect (a
    /// bug, reported instead of a panic).
    #[error("internal error: {0}")]
    Internal(String),
}

/// Why a position could not be probed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProbeError {
    /// The position is played under other board rules than the tables.
    #[error("the position's rules {position} are not the tables' rules {tables}")]
    RulesMismatch {
        /// The tables' rules.
        tables: Rules,
        /// The position's rules.
        position: Rules,
    },
}

/// Counts of one table by the counting convention: every placement of the
/// material on distinct points, each side to move counted separately, no
/// previous step (each stored state weighed by the size of its symmetry
/// class).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions by the convention.
    pub positions: u64,
    /// Stored canonical states among them.
    pub canonical: u64,
    /// Every stored state (under `shuttle = forbidden` also those with a
    /// banned step back).
    pub stored: u64,
    /// Positions won by the side to move.
    pub wins: u64,
    /// Positions drawn.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// The longest win, in plies.
    pub longest_win: u32,
    /// The key of a stored state with the longest win (the lowest), if any
    /// position is won.
    pub longest_win_key: Option<u64>,
}

/// The solved states of one material: sorted canonical keys, the value for
/// the side to move and the distance in plies to the end of the game (0
/// for a game already over; every step and every removal is a ply; a
/// draw has distance 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    material: Material,
    rules: Rules,
    keys: Vec<u64>,
    /// Two bits per state, four a byte, lowest bits first.
    values: Vec<u8>,
    distances: Distances,
}

impl Table {
    fn from_parts(
        material: Material,
        rules: Rules,
        keys: Vec<u64>,
        values: &[Wdl],
        distances: Vec<u16>,
    ) -> Table {
        Table {
            material,
            rules,
            keys,
            values: crate::container::pack_values(values),
            distances: Distances::from_u16(distances),
        }
    }

    /// The material.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The rules the table was generated under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The number of stored states.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the table stores no state (never, for a real material).
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    fn at(&self, i: usize) -> (Wdl, u32) {
        let code = self.values[i / 4] >> (2 * (i % 4)) & 3;
        // Codes are checked when a table is read, so 3 never occurs.
        (
            Wdl::from_code(code).unwrap_or(Wdl::Draw),
            self.distances.get(i),
        )
    }

    /// The value and distance of the state with canonical key `key`.
    fn get_key(&self, key: u64) -> Option<(Wdl, u32)> {
        self.keys.binary_search(&key).ok().map(|i| self.at(i))
    }

    /// The value and distance of `pos` for its side to move, if it is a
    /// state of this table.
    pub fn get(&self, pos: &FiveTigers) -> Option<(Wdl, u32)> {
        let state = State::from_position(pos).ok()?;
        if state.owed != 0 || Material::of_boards(state.boards) != Some(self.material) {
            return None;
        }
        self.get_key(state.canonical()?.0)
    }

    /// The stored states as positions (the canonical representatives),
    /// with their values, in key order.
    pub fn entries(&self) -> impl Iterator<Item = (FiveTigers, Wdl, u32)> + '_ {
        self.keys.iter().enumerate().filter_map(move |(i, &k)| {
            let pos = State::from_key(k)?.to_position(&self.rules)?;
            let (v, d) = self.at(i);
            Some((pos, v, d))
        })
    }

    /// The position of a stored key (see [`Stats::longest_win_key`]).
    pub fn position_of_key(&self, key: u64) -> Option<FiveTigers> {
        State::from_key(key)?.to_position(&self.rules)
    }

    /// The statistics by the counting convention (see [`Stats`]).
    pub fn stats(&self) -> Stats {
        let mut s = Stats {
            stored: self.keys.len() as u64,
            ..Stats::default()
        };
        for (i, &k) in self.keys.iter().enumerate() {
            let Some(state) = State::from_key(k) else {
                continue;
            };
            if state.bans != [None, None] {
                continue;
            }
            let Some((_, class)) = state.canonical() else {
                continue;
            };
            let w = u64::from(class);
            s.canonical += 1;
            s.positions += w;
            let (v, d) = self.at(i);
            match v {
                Wdl::Win => {
                    s.wins += w;
                    if s.longest_win_key.is_none() || d > s.longest_win {
                        s.longest_win = d;
                        s.longest_win_key = Some(k);
                    }
                }
                Wdl::Draw => s.draws += w,
                Wdl::Loss => s.losses += w,
            }
        }
        s
    }
}

/// What a generation has to do ([`Tablebase::plan`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The materials to solve, fewest pieces first.
    pub todo: Vec<Material>,
    /// How many materials of the closure are loaded already.
    pub present: usize,
    /// An estimate of the working memory of the largest table to solve, in
    /// bytes: its raw states over 8 (the symmetry classes; a few states
    /// fixed by a symmetry make the true count slightly larger), each with
    /// up to 12 edges.
    pub working_memory_per_table: u64,
}

/// A set of Five Tigers tables under one rule set.
#[derive(Clone, Debug)]
pub struct Tablebase {
    rules: Rules,
    tables: BTreeMap<Material, Table>,
}

impl Tablebase {
    /// An empty tablebase for `rules`.
    pub fn new(rules: &Rules) -> Tablebase {
        Tablebase {
            rules: *rules,
            tables: BTreeMap::new(),
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The table of `material`, if loaded.
    pub fn table(&self, material: Material) -> Option<&Table> {
        self.tables.get(&material)
    }

    /// The loaded tables, in material order.
    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.tables.values()
    }

    /// Adds a table (replacing one of the same material), if it was made
    /// under the same board rules; otherwise gives it back.
    pub fn insert(&mut self, table: Table) -> Result<(), Box<Table>> {
        if same_board_rules(&self.rules, &table.rules) {
            self.tables.insert(table.material, table);
            Ok(())
        } else {
            Err(Box::new(table))
        }
    }

    /// Solves `materials` and what their removals lead to under `rules`,
    /// on `threads` threads.
    pub fn generate(
        rules: &Rules,
        materials: &[Material],
        threads: usize,
    ) -> Result<Tablebase, GenerateError> {
        let mut tb = Tablebase::new(rules);
        tb.extend(materials, threads, &|_| {})?;
        Ok(tb)
    }

    /// What generating `materials` on top of the loaded tables takes.
    pub fn plan(&self, materials: &[Material]) -> Plan {
        let all = closure(materials, &self.rules);
        let todo: Vec<Material> = all
            .iter()
            .copied()
            .filter(|m| self.table(*m).is_none())
            .collect();
        let memory = todo
            .iter()
            .map(|&m| {
                let states = raw_state_count(m, &self.rules, false).div_ceil(8);
                states * (generate::BYTES_PER_STATE + 12 * generate::BYTES_PER_EDGE)
            })
            .max()
            .unwrap_or(0);
        Plan {
            present: all.len() - todo.len(),
            working_memory_per_table: memory,
            todo,
        }
    }

    /// Solves those of `materials` (and of what their removals lead to)
    /// that are not loaded, one material at a time with `threads` threads
    /// each, calling `done` with each new table.
    pub fn extend(
        &mut self,
        materials: &[Material],
        threads: usize,
        done: &dyn Fn(&Table),
    ) -> Result<(), GenerateError> {
        for m in self.plan(materials).todo {
            let needed = m.first.max(m.second);
            if needed > u32::from(self.rules.pieces_per_side) {
                return Err(GenerateError::TooManyPieces {
                    material: m,
                    needed,
                    allowed: self.rules.pieces_per_side,
                });
            }
            let table = generate::solve(m, &self.rules, self, threads)?;
            done(&table);
            self.tables.insert(m, table);
        }
        Ok(())
    }

    /// The path of the file of `material` in `dir`: `dir/3v2.qft`.
    pub fn file_path(dir: &Path, material: Material) -> PathBuf {
        dir.join(format!("{material}.{EXTENSION}"))
    }

    /// Writes every table to `dir` (created if missing).
    pub fn save_dir(&self, dir: &Path) -> Result<(), FormatError> {
        std::fs::create_dir_all(dir).map_err(|source| FormatError::Io {
            path: dir.display().to_string(),
            source,
        })?;
        for table in self.tables.values() {
            save_table(dir, table)?;
        }
        Ok(())
    }

    /// Loads every `*.qft` file of `dir`, refusing the whole directory if
    /// a file is corrupt, holds another material than its name says or was
    /// made under other board rules.
    pub fn load_dir(dir: &Path, rules: &Rules) -> Result<Tablebase, FormatError> {
        let io = |source| FormatError::Io {
            path: dir.display().to_string(),
            source,
        };
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(io)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .map_err(io)?;
        paths.sort();
        let mut tb = Tablebase::new(rules);
        for path in paths {
            if path.extension().and_then(|e| e.to_str()) == Some(EXTENSION) {
                let table = load_table(&path, rules)?;
                tb.tables.insert(table.material, table);
            }
        }
        Ok(tb)
    }

    /// Loads the files of `materials` present in `dir` (a missing file is
    /// skipped, a bad one refused): what an interrupted generation resumes
    /// from.
    pub fn load_present(
        dir: &Path,
        rules: &Rules,
        materials: &[Material],
    ) -> Result<Tablebase, FormatError> {
        let mut tb = Tablebase::new(rules);
        for &m in materials {
            let path = Tablebase::file_path(dir, m);
            if path.exists() {
                let table = load_table(&path, rules)?;
                tb.tables.insert(m, table);
            }
        }
        Ok(tb)
    }

    /// The value and distance of `pos` for its side to move. `None` when
    /// the position is not a covered ending (placement phase, removals
    /// owed, no side or more than 3 pieces of a side on the board, a
    /// previous step whose way back the side to move blocks) or its table
    /// is not loaded. A finished game (a side without pieces, or no legal
    /// step) is answered with distance 0. The quiet count plays no part.
    pub fn probe(&self, pos: &FiveTigers) -> Result<Option<(Wdl, u32)>, ProbeError> {
        Ok(match probe_without_table(&self.rules, pos)? {
            Settled::Answer(answer) => answer,
            Settled::Table(material) => self.tables.get(&material).and_then(|t| t.get(pos)),
        })
    }

    /// Per loaded material, its statistics.
    pub fn stats(&self) -> Vec<(Material, Stats)> {
        self.tables
            .values()
            .map(|t| (t.material, t.stats()))
            .collect()
    }
}

/// What a probe settles before reading a table.
pub(crate) enum Settled {
    /// The answer: `None` for a position that is not a covered ending
    /// (placement phase, something owed, no material), a finished game's
    /// value at distance 0.
    Answer(Option<(Wdl, u32)>),
    /// The table of this material answers.
    Table(Material),
}

/// What every probe settles before reading a table: a position under
/// another shuttle rule than the tables' is an error; see [`Settled`].
pub(crate) fn probe_without_table(tables: &Rules, pos: &FiveTigers) -> Result<Settled, ProbeError> {
    if !same_board_rules(tables, pos.rules()) {
        return Err(ProbeError::RulesMismatch {
            tables: *tables,
            position: *pos.rules(),
        });
    }
    if pos.phase() != Phase::Movement || !pos.owed().is_empty() {
        return Ok(Settled::Answer(None));
    }
    if let Some(outcome) = pos.outcome() {
        let value = Wdl::of_outcome(outcome, pos.side_to_move());
        return Ok(Settled::Answer(Some((value, 0))));
    }
    Ok(match Material::of(pos) {
        Some(material) => Settled::Table(material),
        None => Settled::Answer(None),
    })
}

/// Writes `table` to its file in `dir` (through a temporary file renamed
/// into place, so that a file present is complete).
pub fn save_table(dir: &Path, table: &Table) -> Result<(), FormatError> {
    let path = Tablebase::file_path(dir, table.material);
    crate::write::write_atomically(&path, &table.to_bytes()).map_err(|source| FormatError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// Reads the table file at `path`, refusing it if it is corrupt, holds
/// another material than its name says or was made under other board
/// rules than `rules`.
pub fn load_table(path: &Path, rules: &Rules) -> Result<Table, FormatError> {
    // Each state's 8-byte key precedes the values.
    let bytes = crate::container::read_file(path, format::GAME, format::FORMAT_VERSION, 8)
        .map_err(|e| match e {
            crate::container::ReadFileError::Io(source) => FormatError::Io {
                path: path.display().to_string(),
                source,
            },
            crate::container::ReadFileError::File(e) => FormatError::File(e),
        })?;
    let table = Table::from_bytes(&bytes, Some(rules))?;
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if stem.parse::<Material>().ok() != Some(table.material) {
        return Err(FormatError::MaterialMismatch {
            path: path.display().to_string(),
            found: table.material,
        });
    }
    Ok(table)
}

/// Whether the shuttle rule is on (states then carry bans).
fn forbids_shuttle(rules: &Rules) -> bool {
    rules.shuttle == Shuttle::Forbidden
}
