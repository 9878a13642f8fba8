//! The retrograde generator of one Five Tigers material under `shuttle =
//! allowed`: the material's positions in a dense index ([`DenseIndex`]),
//! one state byte and a two-byte distance each, and values spread from the
//! decided positions to their predecessors by un-moves, with no move graph
//! stored.
//!
//! * Initialisation, one forward pass over the slots (cut among the
//!   threads): a position with no step is lost at 0; a step that forms a
//!   formation leads into owed removals, which only ever lead into smaller
//!   materials or the end of the game, so its value is known at once (the
//!   removal sequence is solved forward, memoised, from the smaller
//!   tables: a conversion); every other step leads to a position of the
//!   material, and the state byte counts the distinct ones.
//! * Propagation, distance by distance: each position decided at `d` is
//!   un-moved (the side that did not move at it un-steps a piece onto an
//!   adjacent empty point, unless that step would have formed a
//!   formation, which leads to an owed state instead), and each distinct
//!   predecessor is won at `d + 1` if the position is lost for its side to
//!   move, else its counter drops and at 0 (with no drawn or winning
//!   conversion) it is lost at `1 + max(d, its longest losing
//!   conversion)`. Positions are taken in order of distance, so a win
//!   gets its shortest distance and a loss its longest.
//! * What is left undecided is drawn.
//!
//! The table handed on has the same canonical keys, values and distances
//! as the graph generator's (`solve`), so files are byte-identical.

use std::collections::HashMap;

use qi_core::{Bitboard32, Position, Side};
use qi_five_tigers::{quiet_unsteps, FiveTigers, Move, Point, Rules, Shuttle, NEIGHBOURS, THROUGH};

use super::dense::DenseIndex;
use super::key::{Ban, State};
use super::removals::through_removals;
use super::{Dense, Material, Slots, Table, Tablebase};
use crate::driver::{join_workers, GenerateError};
use crate::round::{self, Exits};
use crate::value::{fits_one_byte, pack_codes, Distances, Wdl, UNUSED};

/// Undecided states are `0..=127`: the count of undecided distinct
/// successors in the material (bits 0–5) and [`NON_LOSING`].
pub(super) const COUNT: u8 = 63;
/// Some conversion draws or wins for the side to move: never lost.
pub(super) const NON_LOSING: u8 = 64;
/// Decided, not yet un-moved.
pub(super) const WIN_NEW: u8 = 128;
pub(super) const LOSS_NEW: u8 = 129;
/// Decided and un-moved.
pub(super) const WIN: u8 = 130;
pub(super) const LOSS: u8 = 131;
/// The state of a slot no position uses (its value code is
/// [`UNUSED`]).
pub(super) const UNUSED_STATE: u8 = 255;

/// Working bytes per slot: the state byte and the distance (a win's or
/// loss's, before that the longest losing conversion), plus about 8 bytes
/// of queue per decided position, and for the table handed on 2 bits of
/// value and a distance byte (rounded up).
pub(crate) const BYTES_PER_SLOT: u64 = 3 + 8 + 2;

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

/// The memoised values of owed-removal positions, by boards, side to
/// move, taker and count.
pub(super) type Memo = HashMap<(u32, u32, u8, u8, u8), (Wdl, u32)>;

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

/// Where a conversion ends: the value and distance of a position with
/// nothing owed in the table of its (smaller) material. The generators
/// look it up in the tables they hold ([`Targets`] by dense slot, a
/// [`Tablebase`] by key under the shuttle ban); a slice of a cluster
/// reads it from the worker that owns it (`slice::Reading`).
pub(super) trait Lookup {
    /// The value and distance of `pos` (nothing owed), for its side to
    /// move, reached from a position of `material`.
    fn value(&self, pos: &FiveTigers, material: Material) -> Result<(Wdl, u32), GenerateError>;
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

/// The value and distance, for its side to move, of a position reached by
/// a step that formed a formation (or of the removals after it): solved
/// forward through the removals into the smaller tables, memoised by
/// boards, side to move, taker and count.
fn conversion<L: Lookup + ?Sized>(
    pos: &FiveTigers,
    smaller: &L,
    material: Material,
    memo: &mut Memo,
) -> Result<(Wdl, u32), GenerateError> {
    let key = |pos: &FiveTigers| {
        Ok(pos.owed().first().map(|(taker, count)| {
            (
                pos.pieces(Side::First).0,
                pos.pieces(Side::Second).0,
                pos.side_to_move().index() as u8,
                taker.index() as u8,
                count,
            )
        }))
    };
    through_removals(pos, &key, memo, &mut |p| {
        smaller.value(p, material).map(Some)
    })?
    .ok_or_else(|| internal(format!("the owed position {pos} has no move")))
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

/// The state byte of a value code of `retrograde` (0 loss, 1 draw, 2
/// win, 3 unused), for [`table_of`].
pub(super) fn state_of_code(code: u8) -> u8 {
    match code {
        0 => LOSS,
        2 => WIN,
        UNUSED => UNUSED_STATE,
        _ => 0,
    }
}

/// A decision waiting for its distance: slot `<< 1`, 1 for a win.
pub(super) type Event = u64;

/// What the initial pass found in one range of slots.
struct Init {
    events: Vec<(u32, Event)>,
}

/// The initial pass over `slots` (starting at slot `base`): state bytes,
/// the longest losing conversion in `dist`, and the decisions known at
/// once with their distances.
#[allow(clippy::too_many_arguments)]
fn init_range(
    index: &DenseIndex,
    base: u64,
    states: &mut [u8],
    dist: &mut [u16],
    rules: &Rules,
    material: Material,
    smaller: &Targets,
) -> Result<Init, GenerateError> {
    let mut memo = Memo::new();
    let mut events = Vec::new();
    let mut children: Vec<u64> = Vec::with_capacity(20);
    let slots = index.range(base, base + states.len() as u64);
    for ((state, far), (slot, x, o, stm)) in states.iter_mut().zip(dist.iter_mut()).zip(slots) {
        if !index.is_canonical(slot) {
            *state = UNUSED_STATE;
            continue;
        }
        children.clear();
        let start = start_slot(
            index,
            [x, o],
            stm,
            rules,
            material,
            smaller,
            &mut memo,
            &mut children,
        )?;
        record_start(start, children.len(), slot, state, far, &mut events)?;
    }
    Ok(Init { events })
}

/// The state byte and distance of `slot` from how it starts (with
/// `children` distinct successors in the material), and its decision if
/// known at once.
pub(super) fn record_start(
    start: SlotStart,
    children: usize,
    slot: u64,
    state: &mut u8,
    far: &mut u16,
    events: &mut Vec<(u32, Event)>,
) -> Result<(), GenerateError> {
    match start {
        SlotStart::NoStep => {
            *state = 0;
            *far = 0;
            events.push((0, slot << 1));
        }
        SlotStart::Moves(exits) => {
            let non_losing = exits.never_lost();
            *state = children as u8 | if non_losing { NON_LOSING } else { 0 };
            *far = exits.longest_won.unwrap_or(0);
            if let Some(w) = exits.win_at()? {
                events.push((u32::from(w), slot << 1 | 1));
            } else if children == 0 && !non_losing {
                events.push((u32::from(exits.loss_floor()?), slot << 1));
            }
        }
    }
    Ok(())
}

/// Positions decided per block of the propagation: enough to share among
/// the threads, few enough that the updates of one block stay small.
const BLOCK: usize = 1 << 16;

/// The distinct predecessors of each of `decided` (slot, won for its side
/// to move), as `q << 1 | won`, generated on `threads` threads (one list
/// per thread, in order).
pub(super) fn predecessors(
    decided: &[(u64, bool)],
    unmove: &Unmove<'_>,
    threads: usize,
) -> Result<Vec<Vec<u64>>, GenerateError> {
    let one = |part: &[(u64, bool)]| {
        let mut out = Vec::with_capacity(part.len() * 8);
        let mut preds: Vec<u64> = Vec::with_capacity(20);
        for &(slot, won) in part {
            // Un-move: the side not to move here stepped last.
            preds.clear();
            unmove(slot, &mut preds);
            preds.sort_unstable();
            preds.dedup();
            out.extend(preds.iter().map(|&q| q << 1 | u64::from(won)));
        }
        out
    };
    if threads <= 1 || decided.len() < 4096 {
        return Ok(vec![one(decided)]);
    }
    let per = decided.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let workers: Vec<_> = decided
            .chunks(per)
            .map(|part| scope.spawn(move || Ok(one(part))))
            .collect();
        join_workers(workers).into_iter().collect()
    })
}

/// The state and distance arrays of a slice of `n` slots, all undecided,
/// or why they cannot be made (`n` past what the index or the machine's
/// address space holds).
pub(crate) fn state_arrays<D: Clone + Default>(
    material: Material,
    n: u64,
) -> Result<(Vec<u8>, Vec<D>), GenerateError> {
    let too_large = || GenerateError::TooLarge(material.to_string());
    let n = usize::try_from(n).map_err(|_| too_large())?;
    if n as u64 >= 1 << 62 {
        return Err(too_large());
    }
    Ok((vec![0u8; n], vec![D::default(); n]))
}

/// Solves `material` (`shuttle = allowed`) given the tables of the
/// materials its removals lead to, on `threads` threads (the initial
/// pass, the un-moves and the keys of the table).
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
    let index = DenseIndex::new(material.first, material.second);
    let (mut states, mut dist) = state_arrays::<u16>(material, index.len())?;
    let n_usize = states.len();
    let targets = Targets::new(material, rules, smaller)?;

    let threads = threads.max(1);
    let per = n_usize.div_ceil(threads).max(1);
    let inits: Vec<Result<Init, GenerateError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = states
            .chunks_mut(per)
            .zip(dist.chunks_mut(per))
            .enumerate()
            .map(|(t, (s, d))| {
                let (index, targets) = (&index, &targets);
                scope.spawn(move || {
                    init_range(index, (t * per) as u64, s, d, rules, material, targets)
                })
            })
            .collect();
        join_workers(workers)
    });
    let mut events = Vec::new();
    for init in inits {
        events.extend(init?.events);
    }
    drop(targets);
    let values = rules.values();
    propagate(&mut states, &mut dist, events, threads, &|slot, preds| {
        unmoves(&index, slot, &values, preds)
    })?;
    table_of(material, rules, &index, &states, &dist, threads)
}

/// The un-moves of a slot (or cell), appended to the list given (not
/// deduplicated): the predecessors of a decided position.
pub(super) type Unmove<'a> = dyn Fn(u64, &mut Vec<u64>) + Sync + 'a;

/// Propagation, distance by distance, from the decisions the initial pass
/// found (`events`, by distance) to a fixed point, on `states` and `dist`
/// as the initial pass left them (see the module docs), with the
/// predecessors `unmove` gives.
pub(super) fn propagate(
    states: &mut [u8],
    dist: &mut [u16],
    events: Vec<(u32, Event)>,
    threads: usize,
    unmove: &Unmove<'_>,
) -> Result<(), GenerateError> {
    let mut buckets: Vec<Vec<Event>> = Vec::new();
    let push = |buckets: &mut Vec<Vec<Event>>, d: u32, e: Event| {
        let d = d as usize;
        if buckets.len() <= d {
            buckets.resize_with(d + 1, Vec::new);
        }
        buckets[d].push(e);
    };
    for (d, e) in events {
        push(&mut buckets, d, e);
    }
    let mut d = 0usize;
    let mut todo: Vec<(u64, bool)> = Vec::new();
    while d < buckets.len() {
        let bucket = std::mem::take(&mut buckets[d]);
        let here = d as u16;
        // A block at a time: its positions are decided here (one pass,
        // in order), their predecessors generated on the threads (the
        // costly part, which only reads), then applied in order.
        for block in bucket.chunks(BLOCK) {
            todo.clear();
            for &e in block {
                let slot = (e >> 1) as usize;
                let won = match states[slot] {
                    WIN | LOSS => continue,
                    // Decided at a greater distance by an earlier
                    // position of this distance, while a conversion wins
                    // sooner: the conversion's distance holds (its later
                    // entry then finds the slot done).
                    WIN_NEW if dist[slot] > here && e & 1 == 1 => true,
                    WIN_NEW | LOSS_NEW if dist[slot] != here => continue,
                    WIN_NEW => true,
                    LOSS_NEW => false,
                    UNUSED_STATE => return Err(internal(format!("slot {slot} is unused"))),
                    _ => e & 1 == 1,
                };
                states[slot] = if won { WIN } else { LOSS };
                dist[slot] = here;
                todo.push((slot as u64, won));
            }
            let updates = predecessors(&todo, unmove, threads)?;
            for part in updates {
                for u in part {
                    let q = (u >> 1) as usize;
                    let won = u & 1 == 1;
                    let s = states[q];
                    if s >= WIN_NEW {
                        continue;
                    }
                    if !won {
                        let at = round::ply_before(u32::from(here))?;
                        states[q] = WIN_NEW;
                        dist[q] = at;
                        push(&mut buckets, u32::from(at), (q as u64) << 1 | 1);
                        continue;
                    }
                    if s & COUNT == 0 {
                        return Err(internal(format!(
                            "slot {q} has more decided successors than it counted"
                        )));
                    }
                    let s = s - 1;
                    states[q] = s;
                    if s == 0 {
                        let at = round::loss_after(here, dist[q])?;
                        if at == here + 1 {
                            states[q] = LOSS_NEW;
                            dist[q] = at;
                        }
                        push(&mut buckets, u32::from(at), (q as u64) << 1);
                    }
                }
            }
        }
        d += 1;
    }
    Ok(())
}

/// Whether a state byte is a decided position's.
pub(super) fn decided(s: u8) -> bool {
    s == WIN || s == LOSS
}

/// The table's distances from the solved states and their distances:
/// each decided position's, 0 for the others, in one byte each where the
/// longest fits, else two.
pub(super) fn table_distances(states: &[u8], dist: &[u16]) -> Distances {
    let distance = |(&s, &d): (&u8, &u16)| if decided(s) { d } else { 0 };
    let longest = states.iter().zip(dist).map(distance).max().unwrap_or(0);
    if fits_one_byte(u32::from(longest)) {
        Distances::U8(states.iter().zip(dist).map(|x| distance(x) as u8).collect())
    } else {
        Distances::U16(states.iter().zip(dist).map(distance).collect())
    }
}

/// The table's 2-bit values (4 a byte) of the solved states, packed on
/// `threads` threads: a state no position uses gets the code [`UNUSED`].
pub(super) fn pack_states(states: &[u8], threads: usize) -> Vec<u8> {
    pack_codes(states.len(), threads, |i| match states[i] {
        WIN => Wdl::Win.code(),
        LOSS => Wdl::Loss.code(),
        UNUSED_STATE => UNUSED,
        _ => Wdl::Draw.code(),
    })
}

/// The table of the solved slots, in the slots of the dense index (no
/// key, no sort: what a blocked file holds), its values and distances
/// packed on `threads` threads; a slot no position uses gets the value
/// code 3, a draw distance 0.
pub(super) fn table_of(
    material: Material,
    rules: &Rules,
    index: &DenseIndex,
    states: &[u8],
    dist: &[u16],
    threads: usize,
) -> Result<Table, GenerateError> {
    let n = states.len();
    if index.len() != n as u64 || dist.len() != n {
        return Err(internal(format!(
            "{material}: {n} states for {} slots",
            index.len()
        )));
    }
    let values = pack_states(states, threads);
    let distances = table_distances(states, dist);
    Ok(Table {
        material,
        rules: *rules,
        index: Slots::Dense(Dense::new(material)),
        values,
        distances,
        len: n as u64,
    })
}
