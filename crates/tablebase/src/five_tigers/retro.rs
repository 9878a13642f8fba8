//! The retrograde generator of one Five Tigers material under `shuttle =
//! allowed`: the material's positions in a dense index ([`DenseIndex`])
//! as the cells of the in-core solver ([`crate::in_core`]), with no move
//! graph stored. It is the ban generator (`retro_ban`) with no bans: the
//! same solver, starts and rounds, over board slots instead of cells.
//!
//! * The starts, cut among the threads: a position with no step is lost
//!   at 0; a step that forms a formation leads into owed removals, which
//!   only ever lead into smaller materials or the end of the game, so its
//!   value is known at once (the removal sequence is solved forward,
//!   memoised, from the smaller tables: a conversion); every other step
//!   leads to a position of the material, and the state byte counts the
//!   distinct ones.
//! * The un-moves: the side that did not move at a position un-steps a
//!   piece onto an adjacent empty point, unless that step would have
//!   formed a formation, which leads to an owed state instead
//!   ([`qi_five_tigers::quiet_unsteps`]).
//!
//! The tests check the table handed on against the forward move graph of
//! the material, labelled backwards, state by state.

use std::collections::HashMap;

use qi_core::{Bitboard32, Position, Side};
use qi_five_tigers::{quiet_unsteps, FiveTigers, Move, Point, Rules, Shuttle, NEIGHBOURS, THROUGH};

use super::dense::DenseIndex;
use super::key::{Ban, State};
use super::removals::{conversion, Lookup, Memo};
use super::{Dense, Material, Slots, Table, Tablebase};
use crate::driver::GenerateError;
use crate::in_core;
use crate::retrograde::{Open, Start};
use crate::round::Exits;
use crate::value::{Distances, Wdl};

const ALL: u32 = (1 << 25) - 1;

pub(super) fn internal(message: String) -> GenerateError {
    GenerateError::Internal(message)
}

/// That solving `material` needs the table of `needed`, which is missing.
pub(super) fn missing(material: Material, needed: Material) -> GenerateError {
    GenerateError::MissingSubtable {
        material: material.to_string(),
        needed: needed.to_string(),
    }
}

/// The table of `needed` in `smaller`, which solving `material` reads.
pub(super) fn needed_table(
    smaller: &Tablebase,
    material: Material,
    needed: Material,
) -> Result<&Table, GenerateError> {
    smaller
        .table(needed)
        .ok_or_else(|| missing(material, needed))
}

/// The side of an index (0 First, 1 Second).
pub(super) fn side(index: usize) -> Side {
    if index == 0 {
        Side::First
    } else {
        Side::Second
    }
}

/// The position of boards `[x, o]` with `stm` to move and nothing owed.
fn position(boards: [u32; 2], stm: Side, rules: &Rules) -> Result<FiveTigers, GenerateError> {
    let state = State {
        boards,
        stm,
        bans: [None, None],
        owed: 0,
        taker: Side::First,
    };
    state
        .to_position(rules)
        .ok_or_else(|| internal(format!("no position for {state:?}")))
}

/// The tables removals lead into, by dense slot: a conversion ends in a
/// lookup, which a sorted key list answers by bisection over up to tens of
/// millions of keys (a cache miss a step) and this by one read.
pub(super) struct Targets {
    tables: HashMap<Material, (DenseIndex, Vec<u32>)>,
}

/// A slot of [`Targets`] no position fills.
const EMPTY: u32 = u32::MAX;

impl Targets {
    /// The tables of `smaller` that a removal from `material` leads to.
    pub(super) fn new(
        material: Material,
        rules: &Rules,
        smaller: &Tablebase,
    ) -> Result<Targets, GenerateError> {
        let mut tables = HashMap::new();
        for m in material.after_removals(rules) {
            let table = needed_table(smaller, material, m)?;
            let index = DenseIndex::new(m.first, m.second);
            let len =
                usize::try_from(index.len()).map_err(|_| GenerateError::TooLarge(m.to_string()))?;
            let mut cells = vec![EMPTY; len];
            let cell = |(v, d): (Wdl, u32)| u32::from(v.code()) | d << 2;
            match table.index() {
                // The same index: slot for slot, no key to decode.
                Slots::Dense(_) => {
                    for (slot, c) in cells.iter_mut().enumerate() {
                        if let Some(vd) = table.at(slot as u64) {
                            *c = cell(vd);
                        }
                    }
                }
                Slots::DenseBan(_) => {
                    return Err(internal(format!(
                        "table {m} holds bans, which shuttle = allowed has not"
                    )))
                }
                Slots::Keys(keys) => {
                    for (i, &key) in keys.iter().enumerate() {
                        let state = State::from_key(key)
                            .ok_or_else(|| internal(format!("table {m} holds a bad key {key}")))?;
                        let vd = table
                            .at(i as u64)
                            .ok_or_else(|| internal(format!("table {m} has no slot {i}")))?;
                        let slot = index.slot(state.boards[0], state.boards[1], state.stm.index());
                        cells[slot as usize] = cell(vd);
                    }
                }
            }
            tables.insert(m, (index, cells));
        }
        Ok(Targets { tables })
    }
}

impl Lookup for Targets {
    #[inline]
    fn value(&self, pos: &FiveTigers, material: Material) -> Result<(Wdl, u32), GenerateError> {
        self.get(pos, material)
    }
}

impl Targets {
    /// The value and distance of `pos` (nothing owed) in its table.
    fn get(&self, pos: &FiveTigers, material: Material) -> Result<(Wdl, u32), GenerateError> {
        let m = Material::of(pos)
            .ok_or_else(|| internal(format!("the conversion {pos} has no material")))?;
        let (index, cells) = self.tables.get(&m).ok_or_else(|| missing(material, m))?;
        let slot = index.slot(
            pos.pieces(Side::First).0,
            pos.pieces(Side::Second).0,
            pos.side_to_move().index(),
        );
        let cell = cells[slot as usize];
        match Wdl::from_code((cell & 3) as u8) {
            Some(v) if cell != EMPTY => Ok((v, cell >> 2)),
            _ => Err(internal(format!(
                "the conversion {pos} is not in table {m}"
            ))),
        }
    }
}

/// Iterates over the points of a mask.
pub(super) fn points(mut set: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let p = set.trailing_zeros();
            set &= set - 1;
            Some(p)
        }
    })
}

/// Whether a step of the side on `own` (after the step) onto `to` forms a
/// formation.
#[inline]
pub(super) fn forms(own: u32, to: u32, values: &[u8; 5]) -> bool {
    THROUGH[to as usize].value_held(qi_core::Bitboard32(own), values) > 0
}

/// The boards with `side`'s replaced by `board`.
#[inline]
pub(super) fn with(boards: [u32; 2], side: usize, board: u32) -> [u32; 2] {
    let mut b = boards;
    b[side] = board;
    b
}

/// How a slot starts, from its steps.
#[derive(Debug, PartialEq)]
pub(super) enum SlotStart {
    /// The side to move has no step: lost at 0.
    NoStep,
    /// Its steps: those that stay in the material were appended to the
    /// caller's `children` (sorted, distinct); those that form a formation
    /// lead through the removals into smaller tables, and what they reach
    /// is folded into these exits.
    Moves(Exits),
}

impl SlotStart {
    /// The start of the solvers, with `children` distinct successors in
    /// the material: a position with no step is lost at 0.
    pub(super) fn into_start(self, children: usize) -> Start {
        match self {
            SlotStart::NoStep => Start::Decided(Wdl::Loss, 0),
            SlotStart::Moves(exits) => Start::Open(Open::of(children as u32, exits)),
        }
    }
}

/// A conversion of `v` at `d` plies for the side to move after it, which
/// is this position's side to move if `same_side` (a removal left to
/// take), into `exits` (which read the value for the side that moves
/// next).
#[inline]
fn note_conversion(
    exits: &mut Exits,
    v: Wdl,
    d: u32,
    same_side: bool,
) -> Result<(), GenerateError> {
    Ok(exits.note(if same_side { v.flip() } else { v }, d)?)
}

/// Whether the step `from → to` is the side's `banned` step back.
#[inline(always)]
pub(super) fn is_banned(banned: Option<Ban>, from: u32, to: u32) -> bool {
    banned
        == Some(Ban {
            at: from as u8,
            back: to as u8,
        })
}

/// The steps of the side to move (`stm`, on `boards`), in order: each
/// piece onto each adjacent empty point but `banned` (its step back, under
/// the shuttle ban), given to `step(from, to, after, forming)` with the
/// side's board `after` the step and whether the step forms a formation
/// (it then leads into the removals, out of the material), which says
/// whether to go on. The one walk of a position's steps: its start
/// ([`start_by_steps`]) and the out-of-core generator's check of a loss
/// take it. `Some(whether there was a step)`, or `None` as soon as `step`
/// says to stop.
#[inline]
pub(super) fn for_each_step(
    boards: [u32; 2],
    stm: usize,
    banned: Option<Ban>,
    values: &[u8; 5],
    mut step: impl FnMut(u32, u32, u32, bool) -> bool,
) -> Option<bool> {
    let own = boards[stm];
    let empty = ALL & !(boards[0] | boards[1]);
    let mut any = false;
    for from in points(own) {
        for to in points(NEIGHBOURS[from as usize].0 & empty) {
            if is_banned(banned, from, to) {
                continue;
            }
            any = true;
            let after = own ^ (1 << from) ^ (1 << to);
            if !step(from, to, after, forms(after, to, values)) {
                return None;
            }
        }
    }
    Some(any)
}

/// How a position starts, from its steps ([`for_each_step`]): the walk
/// both generators share. A step that forms a formation leads into the
/// removals: `conversion(step)` values the position after it (for that
/// position's side to move, and whether that is still this side, with a
/// removal left to take: [`convert_step`] makes it). Any other step is a
/// successor in the material, whose slot `successor(from, to, after)`
/// gives (`after`: the side's board after the step), collected into
/// `children` (sorted and distinct).
pub(super) fn start_by_steps(
    boards: [u32; 2],
    stm: usize,
    banned: Option<Ban>,
    values: &[u8; 5],
    mut conversion: impl FnMut(Move) -> Result<Converted, GenerateError>,
    mut successor: impl FnMut(u32, u32, u32) -> u64,
    children: &mut Vec<u64>,
) -> Result<SlotStart, GenerateError> {
    let mut exits = Exits::default();
    let mut failed = None;
    let walked = for_each_step(boards, stm, banned, values, |from, to, after, forming| {
        if !forming {
            children.push(successor(from, to, after));
            return true;
        }
        let converted = match (Point::new(from as u8), Point::new(to as u8)) {
            (Some(from), Some(to)) => conversion(Move::Step { from, to }),
            _ => Err(internal("point".into())),
        };
        match converted {
            Ok((v, d, same_side)) => {
                if let Err(e) = note_conversion(&mut exits, v, d, same_side) {
                    failed = Some(e);
                }
            }
            Err(e) => failed = Some(e),
        }
        failed.is_none()
    });
    match walked {
        None => Err(failed.unwrap_or_else(|| internal("a step walk stopped".into()))),
        Some(false) => Ok(SlotStart::NoStep),
        Some(true) => {
            children.sort_unstable();
            children.dedup();
            Ok(SlotStart::Moves(exits))
        }
    }
}

/// A conversion's value and distance for the side to move after it, and
/// whether that is still the side that stepped (a removal left to take).
pub(super) type Converted = (Wdl, u32, bool);

/// The conversion of the step `mv` that forms a formation in the position
/// `here` makes (made into `position` at the first such step, then
/// reused): the position after the step valued by `value`, and whether
/// its side to move is still `side` (a removal left to take), as
/// [`start_by_steps`] wants it.
pub(super) fn convert_step(
    position: &mut Option<FiveTigers>,
    here: impl FnOnce() -> Result<FiveTigers, GenerateError>,
    mv: Move,
    side: Side,
    value: impl FnOnce(&FiveTigers) -> Result<(Wdl, u32), GenerateError>,
) -> Result<Converted, GenerateError> {
    let mut child = match position {
        Some(p) => *p,
        None => *position.insert(here()?),
    };
    child.play_unchecked(mv);
    let (v, d) = value(&child)?;
    Ok((v, d, child.side_to_move() == side))
}

/// The start of the position with First on `boards[0]`, Second on
/// `boards[1]` and `stm` to move: its successors in the material (into
/// `children`, sorted and distinct) and its conversions' values.
#[allow(clippy::too_many_arguments)]
pub(super) fn start_slot<L: Lookup + ?Sized>(
    index: &DenseIndex,
    boards: [u32; 2],
    stm: usize,
    rules: &Rules,
    material: Material,
    smaller: &L,
    memo: &mut Memo,
    children: &mut Vec<u64>,
) -> Result<SlotStart, GenerateError> {
    let side = side(stm);
    // Second's steps leave First's board as it is: its class is found once.
    let frame = (stm == 1).then(|| index.step_frame(index.first(boards[0]), boards[1]));
    let mut here = None;
    start_by_steps(
        boards,
        stm,
        None,
        &rules.values(),
        |mv| {
            convert_step(
                &mut here,
                || position(boards, side, rules),
                mv,
                side,
                |child| conversion(child, smaller, material, memo),
            )
        },
        |from, to, after| match &frame {
            Some(frame) => index.slot_after_step(frame, from, to, 0),
            None => index.slot(after, boards[1], 1),
        },
        children,
    )
}

/// The un-moves of `slot`: the slots from which a step of the side that
/// is not to move there leads to it (a step that formed a formation leads
/// to owed removals instead, so it is not one), appended to `preds` (not
/// deduplicated).
pub(super) fn unmoves(index: &DenseIndex, slot: u64, values: &[u8; 5], preds: &mut Vec<u64>) {
    let (x, o, stm) = index.decode(slot);
    let boards = [x, o];
    let mover = 1 - stm;
    let theirs = boards[mover];
    let empty = ALL & !(x | o);
    // Second's un-steps leave First's board as it is: its class is found
    // once.
    let frame = (mover == 1).then(|| index.step_frame(index.first(x), o));
    let (theirs_bb, empty_bb) = (Bitboard32(theirs), Bitboard32(empty));
    quiet_unsteps(theirs_bb, empty_bb, values, None, |back, at| {
        let (at, back) = (u32::from(at), u32::from(back));
        preds.push(match &frame {
            Some(frame) => index.slot_after_step(frame, at, back, 1),
            None => index.slot(theirs ^ (1 << at) ^ (1 << back), o, 0),
        });
    });
}

/// The dense index's slots as the in-core solver's cells.
struct DenseCells<'a> {
    index: DenseIndex,
    material: Material,
    rules: &'a Rules,
    targets: Targets,
}

impl in_core::Cells for DenseCells<'_> {
    fn cells(&self) -> u64 {
        self.index.len()
    }

    fn start_part(
        &self,
        part: std::ops::Range<u64>,
        record: &mut dyn FnMut(u64, Start) -> Result<(), GenerateError>,
    ) -> Result<(), GenerateError> {
        let mut memo = Memo::new();
        let mut children: Vec<u64> = Vec::with_capacity(20);
        for (slot, x, o, stm) in self.index.range(part.start, part.end) {
            if !self.index.is_canonical(slot) {
                record(slot, Start::Unused)?;
                continue;
            }
            children.clear();
            let start = start_slot(
                &self.index,
                [x, o],
                stm,
                self.rules,
                self.material,
                &self.targets,
                &mut memo,
                &mut children,
            )?;
            record(slot, start.into_start(children.len()))?;
        }
        Ok(())
    }

    fn unmoves(&self, slot: u64, out: &mut Vec<u64>) {
        unmoves(&self.index, slot, &self.rules.values(), out);
    }
}

/// Solves `material` (`shuttle = allowed`) given the tables of the
/// materials its removals lead to, on `threads` threads (the starts, the
/// un-moves and the packing of the table): the in-core solver over the
/// slots of the dense index.
pub(crate) fn solve(
    material: Material,
    rules: &Rules,
    smaller: &Tablebase,
    threads: usize,
) -> Result<Table, GenerateError> {
    if rules.shuttle != Shuttle::Allowed {
        return Err(internal(
            "the retrograde generator keeps no previous steps: shuttle must be allowed".into(),
        ));
    }
    let cells = DenseCells {
        index: DenseIndex::new(material.first, material.second),
        material,
        rules,
        targets: Targets::new(material, rules, smaller)?,
    };
    let solved = in_core::solve(material, &cells, threads)?;
    let DenseCells { index, .. } = cells;
    let (values, distances) = solved.pack(threads.max(1));
    table_of(material, rules, &index, values, distances)
}

/// The table of the solved slots, in the slots of the dense index (no
/// key, no sort: what a blocked file holds), from their packed values
/// and distances ([`in_core::Solved::pack`]).
pub(super) fn table_of(
    material: Material,
    rules: &Rules,
    index: &DenseIndex,
    values: Vec<u8>,
    distances: Distances,
) -> Result<Table, GenerateError> {
    dense_table(
        material,
        rules,
        Slots::Dense(Dense::new(material)),
        index.len(),
        values,
        distances,
    )
}

/// The table of `n` solved slots or cells in `slots` (a dense layout),
/// from their packed values and distances.
pub(super) fn dense_table(
    material: Material,
    rules: &Rules,
    slots: Slots,
    n: u64,
    values: Vec<u8>,
    distances: Distances,
) -> Result<Table, GenerateError> {
    if distances.len() as u64 != n || (values.len() as u64) < n.div_ceil(4) {
        return Err(internal(format!(
            "{material}: {} distances for {n} slots",
            distances.len()
        )));
    }
    Ok(Table {
        material,
        rules: *rules,
        index: slots,
        values,
        distances,
        len: n,
    })
}
