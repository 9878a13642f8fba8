//! The generator under `shuttle = forbidden` out of core: a material whose
//! cells do not fit in memory with the state and distance bytes of
//! [`bans`](super::bans) (`5v5`: 2.49 · 10¹⁰ cells, 56 GB
//! there) is solved with 5 bits a cell in memory and its distances on
//! disk, in the table file being written. The same rules, the same table,
//! byte for byte.
//!
//! * **In memory**, per cell: a 2-bit value (open; open but never lost, as
//!   a conversion draws or wins; won; lost) and three bits of frontier
//!   (decided at the round being un-moved; decided at the next; checked
//!   this round). No successor counter: a predecessor of a won cell is
//!   lost when *every* successor is won, which the round checks by walking
//!   its steps as its start does (`bans::BlockStart`, the predecessors of
//!   a cell sharing it), stopping at the first that is not; a cell is
//!   checked at most once a round (a second check would see the same
//!   successors).
//! * **On disk**, the distances, one byte a cell, where the finished file
//!   keeps them (the table file is written in place: its blocks' distance
//!   bytes are the working array, its values and checksums come last);
//!   two bytes once one is past 255 plies (a conversion's: the cells are
//!   started again; a round's: the blocks are moved in place, last first),
//!   as the in-core generators write such a table; and
//!   a schedule of the cells decided at a distance known ahead: a
//!   conversion's win, a loss held back by a longer losing conversion, the
//!   cells with no step (lists of cell numbers by distance, delta-coded).
//! * **Starting the cells** takes the tables their conversions read: those
//!   of one side's formations at a time (First's formations lead only into
//!   materials where First keeps its pieces), so one pass per side to
//!   move, each with only its side's tables in memory (`5v5`: `5v4`,
//!   `5v3`, `5v2`, `5v1`, 11 GB, beside the values' 6.2 GB).
//! * **Each round** (one per distance) loads the scheduled cells, un-moves
//!   the frontier on the threads (a lost cell wins every open predecessor;
//!   a won one makes each open predecessor check its successors), then
//!   settles the next frontier against the distance bytes (a loss whose
//!   longest losing conversion is longer is scheduled there) and writes
//!   their distances.
//!
//! * **`a v a` by halves** ([`halves`]): the cells with Second to move
//!   are the twins of those with First to move, so only First's are
//!   started and un-moved (a predecessor read at its twin) and Second's
//!   written from them at the end.
//!
//! The rounds are exact whatever the threads' timing: a cell is decided
//! once (compare-and-swap of its value), a predecessor checked while a
//! successor is being won this very round sees that successor as not yet
//! won (its frontier bit is set before its value, and read after it), and
//! is checked again when that successor is un-moved next round.

mod cells;
mod file;
mod halves;
mod room;
mod schedule;

use std::cell::Cell;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use qi_core::{Bitboard, Side};
use qi_five_tigers::Rules;

use super::bans::{unmoves_from, BlockStart};
use super::cells::start_cells;
use super::dense_ban::BanIndex;
use super::layout::count_cells;
use super::table::internal;
use super::{forbids_shuttle, Material, Stats, Tablebase};
use crate::driver::GenerateError;
use crate::exec::GenerateDirError;
use crate::format::blocked::{block_sum, BLOCK_SLOTS};
use crate::format::{load_table, FormatError};
use crate::round::{self, Begin, Loss};
use crate::threads::in_order;
use crate::value::{set_code, value_at, Wdl, ONE_BYTE_LONGEST, UNUSED};
use cells::{Bits, Values, HOLDS, LOST, OPEN, WON};
use file::{block_in, encode, file_bytes, Output};
use halves::Half;
use room::Room;
use schedule::{ByDistance, Schedule};

/// Bits in memory per cell while the rounds run: 2 of value, and the
/// frontier's three (decided at this distance, at the next, checked this
/// round). The start passes hold the values only.
const ROUND_BITS_PER_CELL: u64 = 5;

/// Cells of the board slots one job of the start pass takes (about), and
/// of the final pass.
const JOB_CELLS: u64 = 1 << 22;

/// How the out-of-core generator cuts its work, which the tests make small
/// so that every boundary is crossed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Grain {
    /// Cells a job of the start pass takes, about (whole board slots).
    pub start_cells: u64,
    /// Frontier words (64 cells) a task of a round takes.
    pub round_words: usize,
    /// Table blocks a task of a settling or of the final pass takes.
    pub blocks: u64,
    /// Slots per block of the file (a multiple of 4; the files this build
    /// writes have [`BLOCK_SLOTS`]).
    pub block_slots: u32,
    /// The longest distance a file of one byte a distance is given (255,
    /// what a byte holds and what the in-core generators write so; the
    /// tests make it small, so that small materials outgrow it).
    pub narrow: u32,
    /// The disk a test gives the solve instead of the file system's free
    /// room ([`room::Room`]), so that a step outgrows it.
    pub disk: Option<u64>,
}

impl Grain {
    /// The longest distance one byte a distance holds: `narrow`, at
    /// most 255.
    fn one_byte(&self) -> u32 {
        self.narrow.min(ONE_BYTE_LONGEST)
    }
}

impl Default for Grain {
    fn default() -> Grain {
        Grain {
            start_cells: JOB_CELLS,
            round_words: 1 << 10,
            blocks: 64,
            block_slots: BLOCK_SLOTS,
            narrow: ONE_BYTE_LONGEST,
            disk: None,
        }
    }
}

/// What an out-of-core solve did.
#[derive(Clone, Debug)]
pub struct OutOfCoreReport {
    /// The material.
    pub material: Material,
    /// Its cells (the slots of its file).
    pub cells: u64,
    /// The table's statistics, as [`Table::stats`](crate::Table::stats)
    /// gives them.
    pub stats: Stats,
    /// Rounds (distances) played.
    pub rounds: u32,
    /// Predecessors told, and of them checked for a loss.
    pub tidings: u64,
    /// Checks of a loss (a predecessor's successors walked).
    pub checks: u64,
    /// Losses held back by a longer losing conversion.
    pub held: u64,
    /// Seconds of the start passes, the rounds and the final pass.
    pub seconds: [f64; 3],
    /// Bytes of the file written.
    pub file_bytes: u64,
}

/// The materials whose tables the formations of side `stm` (0 First) in
/// `material` lead into: that side keeps its pieces.
fn conversion_targets(material: Material, rules: &Rules, stm: usize) -> Vec<Material> {
    material
        .after_removals(rules)
        .into_iter()
        .filter(|m| {
            if stm == 0 {
                m.first == material.first
            } else {
                m.second == material.second
            }
        })
        .collect()
}

/// Whether `material` is solved by halves ([`halves`]): `a v a`.
fn by_halves(material: Material) -> bool {
    material.first == material.second
}

/// The sides to move whose cells are started and un-moved: First's only
/// when solved by halves.
fn sides_started(material: Material) -> usize {
    2 - usize::from(by_halves(material))
}

/// The memory an out-of-core solve of `material` takes, about, in bytes,
/// the tables its conversions read being those of `table_bytes`: the
/// larger of the start passes (the values, 2 bits a cell, and one side's
/// tables) and the rounds (5 bits a cell), and the index's 8 bytes a
/// board slot (memos, buffers and the program come on top, as they do on
/// the in-core generators' estimates).
pub(crate) fn memory_needed(
    material: Material,
    rules: &Rules,
    table_bytes: impl Fn(Material) -> u64,
) -> u64 {
    let cells = super::count::estimated_state_count(material, rules).div_ceil(8);
    let board_slots = super::dense::DenseIndex::new(material.first, material.second).len();
    let tables = (0..sides_started(material))
        .map(|stm| {
            conversion_targets(material, rules, stm)
                .into_iter()
                .map(&table_bytes)
                .sum::<u64>()
        })
        .max()
        .unwrap_or(0);
    let start = cells.div_ceil(4) + tables;
    let rounds = (cells * ROUND_BITS_PER_CELL).div_ceil(8);
    // By halves, the end holds First's half: a distance byte and two bits
    // a cell, and 8 bytes a board slot of First.
    let end = if by_halves(material) {
        cells / 2 + cells.div_ceil(8) + board_slots * 4
    } else {
        0
    };
    start.max(rounds).max(end) + board_slots * 8
}

/// Solves `material` (`shuttle = forbidden`) out of core into its file in
/// `dir`, the tables its conversions read taken from `dir` (one side's at
/// a time), on `threads` threads, telling `progress` what it does. The
/// file is written in place under a temporary name and renamed into place
/// when whole, so a killed run leaves no table (a later writer of `dir`
/// removes its temporary files) and is started again from the beginning.
///
/// ```
/// use qi_games::five_tigers::Rules;
/// use qi_tablebase::five_tigers::{solve_out_of_core, Material, Tablebase};
///
/// let dir = std::env::temp_dir().join(format!("qi-doc-out-of-core-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let rules = Rules::shandong();
/// // Under these rules no formation of 2 pieces removes one: 2v2 reads
/// // no other table.
/// let m: Material = "2v2".parse().unwrap();
/// let report = solve_out_of_core(m, &rules, &dir, 2, &|_| {}).unwrap();
/// let in_core = Tablebase::generate(&rules, &[m], 2).unwrap();
/// let table = in_core.table(m).unwrap();
/// assert_eq!(report.stats, table.stats());
/// assert!(std::fs::read(Tablebase::file_path(&dir, m)).unwrap() == table.to_bytes());
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn solve_out_of_core(
    material: Material,
    rules: &Rules,
    dir: &Path,
    threads: usize,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<OutOfCoreReport, GenerateDirError> {
    solve_with(material, rules, dir, threads, Grain::default(), progress)
}

/// [`solve_out_of_core`] with the work cut by `grain`.
pub(crate) fn solve_with(
    material: Material,
    rules: &Rules,
    dir: &Path,
    threads: usize,
    grain: Grain,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<OutOfCoreReport, GenerateDirError> {
    if !forbids_shuttle(rules) {
        return Err(internal("the out-of-core generator needs shuttle = forbidden".into()).into());
    }
    let threads = threads.max(1);
    let started = Instant::now();
    let index = Arc::new(BanIndex::new(material.first, material.second));
    let cells = index.len();
    progress(&format!(
        "{material}: {cells} cells, {} board slots (index in {:.1} s)",
        index.board_slots(),
        started.elapsed().as_secs_f64()
    ));
    let path = Tablebase::file_path(dir, material);
    let room = Room::new(dir, grain.disk);
    let bytes = |width| file_bytes(rules, material, cells, grain.block_slots, width);
    let gb = |b: u64| b as f64 / 1e9;
    progress(&format!(
        "{material}: its file takes {:.1} GB of disk, {:.1} GB if a distance passes one \
         byte; {}",
        gb(bytes(1)),
        gb(bytes(2)),
        room.free(0)
            .map_or("the free room unknown".into(), |f| format!(
                "{:.1} GB free",
                gb(f)
            ))
    ));
    let t0 = Instant::now();
    // One byte a distance, until one is longer (`grain.narrow`): at the
    // start (a conversion's), the cells are started again with two; in
    // the rounds, the distances are copied into a file with two.
    let mut width = 1;
    let mut solver = loop {
        let what = if width == 1 { "one byte" } else { "two bytes" };
        room.check(
            material,
            bytes(width),
            0,
            &format!("its file at {what} a distance"),
        )?;
        let solver = Solver {
            material,
            rules,
            index: &index,
            values: Values::new(cells, material)?,
            output: Output::create(&path, rules, material, cells, grain.block_slots, width)?,
            schedule: Schedule::create(&path)?,
            threads,
            grain,
            past_one_byte: AtomicBool::new(false),
            room: &room,
        };
        match solver.start_passes(dir, progress) {
            Ok(()) => break solver,
            Err(_) if width == 1 && solver.past_one_byte.load(Ordering::Relaxed) => {
                progress(&format!(
                    "{material}: a conversion's distance is past one byte: \
                     the cells started again with two bytes a distance"
                ));
                width = 2;
            }
            Err(e) => return Err(e),
        }
    };
    let mut report = OutOfCoreReport {
        material,
        cells,
        stats: Stats::default(),
        rounds: 0,
        tidings: 0,
        checks: 0,
        held: 0,
        seconds: [t0.elapsed().as_secs_f64(), 0.0, 0.0],
        file_bytes: 0,
    };

    let t1 = Instant::now();
    let past = solver.rounds(&mut report, progress)?;
    report.seconds[1] = t1.elapsed().as_secs_f64();

    let t2 = Instant::now();
    report.stats = if by_halves(material) {
        let jobs = solver.jobs();
        // A byte's values, or as many as one byte a distance is given.
        let base = grain.one_byte() as u16 + 1;
        let mut half = Half::from_values(&index, &solver.values, &jobs, threads, material, base)?;
        // The values' room is the distances'.
        solver.values = Values::new(0, material)?;
        half.read_distances(&index, &solver.output, &jobs, threads, material, past)?;
        progress(&format!(
            "{material}: cells with Second to move from their twins (colours swapped), \
             First's half read in {:.1} s",
            t2.elapsed().as_secs_f64()
        ));
        solver.finish(Some(&half))?
    } else {
        solver.finish(None)?
    };
    crate::format::write::persist_durably(solver.output.file.file, &path)
        .map_err(|source| FormatError::io(&path, source))?;
    report.file_bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
    report.seconds[2] = t2.elapsed().as_secs_f64();
    progress(&format!(
        "{material}: written ({} bytes) in {:.1} s",
        report.file_bytes, report.seconds[2]
    ));
    Ok(report)
}

/// The parts of one solve.
struct Solver<'a> {
    material: Material,
    rules: &'a Rules,
    index: &'a BanIndex,
    values: Values,
    output: Output,
    schedule: Schedule,
    threads: usize,
    grain: Grain,
    /// Whether a start pass met a distance past one byte's.
    past_one_byte: AtomicBool,
    /// The disk's free room, asked before the file is widened.
    room: &'a Room,
}

impl Solver<'_> {
    /// The longest distance the output holds: one byte's, or two bytes'
    /// as every table's ([`round::LONGEST`]).
    fn longest(&self) -> u32 {
        if self.output.width() == 1 {
            self.grain.one_byte()
        } else {
            u32::from(round::LONGEST)
        }
    }

    /// `d` as the output keeps it, or why it cannot.
    fn distance(&self, d: u32) -> Result<u16, GenerateError> {
        if d > self.longest() {
            return Err(GenerateError::Unsupported {
                material: self.material.to_string(),
                reason: format!(
                    "a distance of {d} plies; the out-of-core generator keeps {} bytes a distance",
                    self.output.width()
                ),
            });
        }
        Ok(d as u16)
    }

    /// A distance `d` the start pass writes, of a cell decided at
    /// `latest` at the latest (a loss's longest losing conversion `d` may
    /// hold it back to `d + 1` in a round): that must fit the output,
    /// else the cells are started again wider
    /// ([`Solver::past_one_byte`]).
    fn start_distance(&self, d: u32, latest: u32) -> Result<u16, GenerateError> {
        if latest > self.longest() {
            self.past_one_byte.store(true, Ordering::Relaxed);
            self.distance(latest)?;
        }
        self.distance(d)
    }

    /// The start passes: each side to move's cells started, its
    /// conversions' tables read from `dir`.
    fn start_passes(
        &self,
        dir: &Path,
        progress: &(dyn Fn(&str) + Sync),
    ) -> Result<(), GenerateDirError> {
        let (material, rules) = (self.material, self.rules);
        for stm in 0..sides_started(material) {
            let mut tables = Tablebase::new(rules);
            for m in conversion_targets(material, rules, stm) {
                let t = load_table(&Tablebase::file_path(dir, m), rules)?;
                tables.insert_table(t);
            }
            let t = Instant::now();
            self.start_pass(stm, &tables)?;
            progress(&format!(
                "{material}: cells with {} to move started in {:.1} s",
                Side::BOTH[stm],
                t.elapsed().as_secs_f64()
            ));
        }
        Ok(())
    }

    /// The output given two bytes a distance, in place, the longest
    /// distance being `d` (if the disk has room for it).
    fn widen(&mut self, d: u32, progress: &(dyn Fn(&str) + Sync)) -> Result<(), GenerateDirError> {
        let t = Instant::now();
        self.output
            .widen(self.rules, self.material, self.grain.blocks, self.room)?;
        progress(&format!(
            "{}: a distance of {d} plies, past one byte: the distances moved into \
             two bytes a cell in {:.1} s",
            self.material,
            t.elapsed().as_secs_f64()
        ));
        Ok(())
    }

    /// Board slots cut into jobs of about `grain.start_cells` cells.
    fn jobs(&self) -> Vec<(u64, u64)> {
        let (slots, cells) = (self.index.board_slots(), self.index.len());
        let per = self.grain.start_cells.max(1);
        let mut bounds = vec![0u64];
        let mut at = per;
        while at < cells {
            let s = self.index.slot_of(at);
            if s > *bounds.last().unwrap_or(&0) {
                bounds.push(s);
            }
            at += per;
        }
        bounds.push(slots);
        bounds.windows(2).map(|w| (w[0], w[1])).collect()
    }

    /// Starts the cells of the board slots with `stm` to move, their
    /// conversions read in `tables`: each cell's value, its distance byte
    /// (a winning conversion's, or the longest losing one's) and, if its
    /// distance is known now, its place in the schedule.
    fn start_pass(&self, stm: usize, tables: &Tablebase) -> Result<(), GenerateDirError> {
        let jobs = self.jobs();
        let m = self.material;
        in_order(0..jobs.len(), self.threads, |j| {
            let (lo, hi) = jobs[j];
            let (first, end) = (self.index.start(lo), self.index.start(hi));
            let mut dist = vec![0u16; (end - first) as usize];
            // The other pass's bytes (or the file's zeros) stay.
            self.output.distances(first, &mut dist, false)?;
            let mut scheduled = ByDistance::default();
            start_cells(
                self.index,
                lo,
                hi,
                Some(stm),
                self.rules,
                m,
                tables,
                |cell, start| {
                    let i = (cell - first) as usize;
                    dist[i] = 0;
                    let Some((start, children)) = start else {
                        return Ok(());
                    };
                    // Lost with nothing left to hear of, or never lost
                    // (won at `at`, if a conversion wins).
                    let (value, at) = match start.into_start(children).begin()? {
                        Begin::Unused => return Ok(()),
                        Begin::Decided(Wdl::Loss, d) => (LOST, Some(d)),
                        Begin::Decided(Wdl::Draw, _) => (HOLDS, None),
                        Begin::Decided(Wdl::Win, w) => (HOLDS, Some(w)),
                        Begin::NeverLost { win, .. } => (HOLDS, win),
                        Begin::Losing {
                            longest_won, floor, ..
                        } => {
                            let l = u32::from(longest_won.unwrap_or(0));
                            dist[i] = self.start_distance(l, u32::from(floor))?;
                            return Ok(());
                        }
                    };
                    self.values.start(cell, value);
                    if let Some(d) = at.map(u32::from) {
                        dist[i] = self.start_distance(d, d)?;
                        scheduled.push(d, cell);
                    }
                    Ok(())
                },
            )?;
            self.output.distances(first, &mut dist, true)?;
            scheduled.flush(&self.schedule)
        })?;
        Ok(())
    }

    /// The rounds, distance after distance, until nothing is left to
    /// decide, counted into `report`; the first distance no cell has
    /// (every one is shorter).
    fn rounds(
        &mut self,
        report: &mut OutOfCoreReport,
        progress: &(dyn Fn(&str) + Sync),
    ) -> Result<u32, GenerateDirError> {
        let cells = self.index.len();
        let (mut now, mut next) = (
            Bits::new(cells, self.material)?,
            Bits::new(cells, self.material)?,
        );
        let seen = Bits::new(cells, self.material)?;
        let mut here = 0u32;
        loop {
            let t = Instant::now();
            let listed = self.load_scheduled(here, &now)?;
            let decided = now
                .0
                .iter()
                .map(|w| u64::from(w.load(Ordering::Relaxed).count_ones()))
                .sum::<u64>();
            if decided == 0 {
                match self.schedule.last() {
                    Some(d) if d > here => {
                        here += 1;
                        continue;
                    }
                    _ => break,
                }
            }
            report.rounds += 1;
            let (told, checked) = self.unmove(&now, &next, &seen)?;
            (report.tidings, report.checks) = (report.tidings + told, report.checks + checked);
            seen.clear();
            let decided_next = next.0.iter().any(|w| w.load(Ordering::Relaxed) != 0);
            if decided_next {
                let at = u32::from(round::ply_before(here).map_err(GenerateError::from)?);
                if at > self.longest() && self.output.width() == 1 {
                    // No loss is held back past one byte's distances (the
                    // start pass saw to it): these are decided at `here + 1`.
                    self.widen(at, progress)?;
                }
                report.held += self.settle(&next, here)?;
            }
            progress(&format!(
                "{}: round {here}: {decided} cells decided ({listed} scheduled), {:.1} s",
                self.material,
                t.elapsed().as_secs_f64()
            ));
            now.clear();
            std::mem::swap(&mut now, &mut next);
            here += 1;
        }
        Ok(here)
    }

    /// The cells scheduled at `here` into the frontier `now` (a
    /// conversion's win decides its cell unless it was won sooner); how
    /// many were listed.
    fn load_scheduled(&self, here: u32, now: &Bits) -> Result<u64, GenerateDirError> {
        let runs = self.schedule.take(here);
        let listed = in_order(0..runs.len(), self.threads, |r| {
            let mut n = 0;
            self.schedule.cells(runs[r], |c| {
                n += 1;
                match self.values.get(c) {
                    LOST => now.set(c),
                    HOLDS if self.values.decide(c, WON) => now.set(c),
                    _ => {}
                }
            })?;
            Ok::<_, GenerateDirError>(n)
        })?;
        Ok(listed.iter().sum())
    }

    /// Un-moves the cells of `now` on the threads: each open predecessor
    /// of a lost cell is won at the next distance, each open one of a won
    /// cell lost there if all its successors were won before (both into
    /// `next`); how many tidings were told and successors checked.
    fn unmove(&self, now: &Bits, next: &Bits, seen: &Bits) -> Result<(u64, u64), GenerateDirError> {
        let words = now.0.len();
        let per = self.grain.round_words.max(1);
        let values = self.rules.values();
        let counts = in_order(0..words.div_ceil(per), self.threads, |task| {
            let (mut told, mut checked) = (0u64, 0u64);
            let mut block = BlockStart::default();
            for w in task * per..((task + 1) * per).min(words) {
                for b in Bitboard(now.word(w)) {
                    let c = w as u64 * 64 + u64::from(b);
                    let lost_here = self.values.get(c) == LOST;
                    let before = Cell::new(None);
                    unmoves_from(
                        self.index,
                        c,
                        &values,
                        by_halves(self.material),
                        |b| before.set(Some(b)),
                        |p, own, other| {
                            told += 1;
                            let v = self.values.get(p);
                            if v >= WON {
                                return;
                            }
                            if lost_here {
                                next.set(p);
                                self.values.decide(p, WON);
                                return;
                            }
                            if v == OPEN && !seen.test_and_set(p) {
                                checked += 1;
                                // The predecessors share their boards: the
                                // block's steps are found at the first check.
                                if let Some((boards, stm)) = before.take() {
                                    block.reset(self.index, boards, stm, &values);
                                }
                                // Lost if every successor was won before
                                // this round (not in `next`).
                                let won = |s| self.values.get(s) == WON && !next.get(s);
                                if block.all_successors(self.index, own, other, won) {
                                    next.set(p);
                                    self.values.decide(p, LOST);
                                }
                            }
                        },
                    );
                }
            }
            Ok::<_, GenerateDirError>((told, checked))
        })?;
        Ok(counts
            .iter()
            .fold((0, 0), |(t, c), (told, checked)| (t + told, c + checked)))
    }

    /// `task` run on the threads over the blocks of the file cut into
    /// runs of `grain.blocks`; its results in order.
    fn on_blocks<T: Send>(
        &self,
        task: impl Fn(std::ops::Range<u64>) -> Result<T, GenerateDirError> + Sync,
    ) -> Result<Vec<T>, GenerateDirError> {
        let (blocks, per) = (self.output.layout.blocks(), self.grain.blocks.max(1));
        let runs = (0..blocks.div_ceil(per) as usize).map(|t| t as u64 * per..(t as u64 + 1) * per);
        in_order(runs, self.threads, |run| {
            task(run.start..run.end.min(blocks))
        })
    }

    /// Writes the distances of the cells decided at `here + 1` (in
    /// `next`): a loss whose longest losing conversion is longer is held
    /// back and scheduled at its distance instead (how many were).
    fn settle(&self, next: &Bits, here: u32) -> Result<u64, GenerateDirError> {
        // The tidings of cells decided at `here` decide at the next round.
        let round = round::ply_before(here).map_err(GenerateError::from)?;
        let at = self.distance(u32::from(round::won_at(round, None)))?;
        let held_back = self.on_blocks(|blocks| {
            let mut held = ByDistance::default();
            let mut n = 0;
            let mut dist = Vec::new();
            for k in blocks {
                let (cells, _) = block_in(&self.output.layout, k);
                let (w0, w1) = ((cells.start / 64) as usize, cells.end.div_ceil(64) as usize);
                if (w0..w1).all(|w| next.word(w) == 0) {
                    continue;
                }
                dist.resize((cells.end - cells.start) as usize, 0u16);
                self.output.distances(cells.start, &mut dist, false)?;
                for w in w0..w1 {
                    for b in Bitboard(next.word(w)) {
                        let c = w as u64 * 64 + u64::from(b);
                        if !cells.contains(&c) {
                            continue;
                        }
                        let i = (c - cells.start) as usize;
                        // Its distance byte is its longest losing
                        // conversion's, if it is lost.
                        let loss = if self.values.get(c) == LOST {
                            round::lost_at(round, dist[i]).map_err(GenerateError::from)?
                        } else {
                            Loss::Now(round)
                        };
                        match loss {
                            Loss::Now(_) => dist[i] = at,
                            Loss::Held(l) => {
                                let l = u32::from(l);
                                next.unset(c);
                                dist[i] = self.distance(l)?;
                                held.push(l, c);
                                n += 1;
                            }
                        }
                    }
                }
                self.output.distances(cells.start, &mut dist, true)?;
            }
            held.flush(&self.schedule)?;
            Ok(n)
        })?;
        Ok(held_back.iter().sum())
    }

    /// The values and checksums of every block, the distances of the cells
    /// left open zeroed (drawn), a cell no state uses given the code 3,
    /// and the header: the file is whole. The table's statistics, counted
    /// as [`file_stats`](super::file_stats) counts a file's.
    fn finish(&self, half: Option<&Half>) -> Result<Stats, GenerateDirError> {
        let layout = self.output.layout;
        let parts = self.on_blocks(|blocks| {
            let mut stats = Stats::default();
            let (mut bytes, mut dist) = (Vec::new(), Vec::new());
            for k in blocks {
                let (cells, _) = block_in(&self.output.layout, k);
                let m = (cells.end - cells.start) as usize;
                let vlen = m.div_ceil(4);
                bytes.clear();
                bytes.resize(vlen + m * usize::from(layout.width), 0);
                dist.clear();
                dist.resize(m, 0u16);
                let (vals, dist_bytes) = bytes.split_at_mut(vlen);
                self.fill_block(half, &cells, vals, &mut dist)?;
                encode(&dist, dist_bytes)?;
                let at =
                    |c: u64| value_at(vals, dist_bytes, layout.width, (c - cells.start) as usize);
                if let Some(c) = count_cells(self.index, cells.clone(), at, &mut stats) {
                    return Err(internal(format!("cell {c} has no value")).into());
                }
                let sum = block_sum(k, &bytes);
                bytes.extend_from_slice(&sum.to_le_bytes());
                self.output.file.write(&bytes, layout.block_offset(k))?;
            }
            Ok(stats)
        })?;
        self.output.file.write(&self.output.header, 0)?;
        Ok(parts.into_iter().fold(Stats::default(), Stats::merge))
    }

    /// The values and distances of the block of `cells`: from the
    /// solve's values and the file's distances, or by halves from
    /// First's `half` (a cell with Second to move from its twin); a cell
    /// no state uses gets the code 3 and distance 0.
    fn fill_block(
        &self,
        half: Option<&Half>,
        cells: &std::ops::Range<u64>,
        vals: &mut [u8],
        dist: &mut [u16],
    ) -> Result<(), GenerateDirError> {
        if half.is_none() {
            self.output.distances(cells.start, dist, false)?;
        }
        let index = self.index;
        let slots = (index.slot_of(cells.start)..index.board_slots())
            .take_while(|&slot| index.start(slot) < cells.end);
        for slot in slots {
            let own = index.cells_of(slot);
            if own.is_empty() {
                continue;
            }
            let (x, o, _) = index.boards.decode(slot);
            let stab = BanIndex::stabiliser([x, o]);
            // Second to move: its twin's block, the boards exchanged,
            // First to move.
            let twin = (half.is_some() && slot % 2 == 1).then(|| index.slot_and_block([o, x], 0));
            for c in own.start.max(cells.start)..own.end.min(cells.end) {
                let (i, off) = ((c - cells.start) as usize, c - own.start);
                if !BanIndex::is_canonical([x, o], stab, off) {
                    set_code(vals, i, UNUSED);
                    dist[i] = 0;
                    continue;
                }
                let (v, d) = match (half, &twin) {
                    (None, _) => (self.values.get(c), dist[i]),
                    (Some(half), None) => half.at(slot, off),
                    (Some(half), Some((twin_slot, twin))) => {
                        let [ban_x, ban_o] = BanIndex::bans_at([x, o], off);
                        half.at(*twin_slot, twin.cell([ban_o, ban_x]) - twin.start())
                    }
                };
                // An open cell is drawn, at 0.
                let (code, d) = match v {
                    WON => (Wdl::Win.code(), d),
                    LOST => (Wdl::Loss.code(), d),
                    _ => (Wdl::Draw.code(), 0),
                };
                set_code(vals, i, code);
                dist[i] = d;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
