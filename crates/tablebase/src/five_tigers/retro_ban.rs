//! The retrograde generator of one Five Tigers material under `shuttle =
//! forbidden`: `retro`'s analysis (its state bytes, initial pass and
//! propagation) over the cells of a [`BanIndex`], a state per pair of
//! bans the two sides can be under.
//!
//! * A step of the side to move may not be its ban's step back; after a
//!   step `from → to` that forms nothing, its ban is `to → from` (the way
//!   back is the point just left, so it is empty) and the other side's
//!   ban is kept unless the step entered its way back (then the other
//!   side, to move, is blocked by the enemy until it steps: void).
//! * So the un-move of a state is forced by the ban of the side that just
//!   stepped (none: no predecessor in the material), and a predecessor's
//!   own earlier ban is any of its steps back but the one that bans this
//!   step. The other side's ban was the same, or, if it has none now, none
//!   or a step back onto the point entered; a ban whose way back is the
//!   point left would have been blocked by the stepping side's piece with
//!   the banned side not to move, a state no position of play has.
//! * A step that forms a formation is a conversion, solved forward
//!   through the removals (memoised by the owed state's canonical key,
//!   its bans included) into the smaller tables, looked up by the
//!   canonical key of the state the removals leave.
//!
//! The table handed on has the graph generator's canonical keys, values
//! and distances (`solve`), so files are byte-identical.

use std::collections::HashMap;

use qi_core::{Position, Side};
use qi_five_tigers::{FiveTigers, Move, Point, Rules, Shuttle, NEIGHBOURS};

use super::dense_ban::BanIndex;
use super::key::{Ban, State};
use super::retro::{
    best_removal, forms, internal, points, propagate, record_start, with, Event, Exits, SlotStart,
    LOSS, UNUSED, WIN,
};
use super::{Material, Table, Tablebase};
use crate::driver::{join_workers, GenerateError};
use crate::table::Wdl;

const ALL: u32 = (1 << 25) - 1;

/// Working bytes per state: the state byte and the distance, about 8
/// bytes of queue per decided state, and for the table handed on its key
/// (8), a value byte and the distance (2).
pub(crate) const BYTES_PER_STATE: u64 = 3 + 8 + 8 + 1 + 2;

/// The memoised values of owed-removal states, by canonical key.
type Memo = HashMap<u64, (Wdl, u32)>;

fn side(index: usize) -> Side {
    if index == 0 {
        Side::First
    } else {
        Side::Second
    }
}

/// The state with nothing owed of a cell.
fn state_of(boards: [u32; 2], stm: usize, bans: [Option<Ban>; 2]) -> State {
    State {
        boards,
        stm: side(stm),
        bans,
        owed: 0,
        taker: Side::First,
    }
}

/// The canonical key of the state of `pos`.
fn canonical_key(pos: &FiveTigers) -> Result<u64, GenerateError> {
    let state = State::from_position(pos)
        .map_err(|e| internal(format!("the position {pos} has no state ({e:?})")))?;
    Ok(state
        .canonical()
        .ok_or_else(|| internal(format!("the position {pos} has no key")))?
        .0)
}

/// The value and distance, for its side to move, of a position reached by
/// a step that formed a formation (or of the removals after it).
fn conversion(
    pos: &FiveTigers,
    smaller: &Tablebase,
    material: Material,
    memo: &mut Memo,
) -> Result<(Wdl, u32), GenerateError> {
    let me = pos.side_to_move();
    if let Some(o) = pos.outcome() {
        return Ok((Wdl::of_outcome(o, me), 0));
    }
    let key = canonical_key(pos)?;
    if pos.owed().is_empty() {
        let m = Material::of(pos)
            .ok_or_else(|| internal(format!("the conversion {pos} has no material")))?;
        let table = smaller
            .table(m)
            .ok_or_else(|| GenerateError::MissingSubtable {
                material: material.to_string(),
                needed: m.to_string(),
            })?;
        return table
            .get_key(key)
            .ok_or_else(|| internal(format!("the conversion {pos} is not in table {m}")));
    }
    if let Some(&v) = memo.get(&key) {
        return Ok(v);
    }
    let best = best_removal(pos, |child| conversion(child, smaller, material, memo))?;
    memo.insert(key, best);
    Ok(best)
}

/// The start of the state with `boards`, `stm` to move and `bans`: its
/// successors in the material (into `children`, sorted and distinct) and
/// its conversions' values.
#[allow(clippy::too_many_arguments)]
pub(super) fn start_cell(
    index: &BanIndex,
    boards: [u32; 2],
    stm: usize,
    bans: [Option<Ban>; 2],
    rules: &Rules,
    material: Material,
    smaller: &Tablebase,
    memo: &mut Memo,
    children: &mut Vec<u64>,
) -> Result<SlotStart, GenerateError> {
    let values = rules.values();
    let own = boards[stm];
    let empty = ALL & !(boards[0] | boards[1]);
    let mut any = false;
    let mut exits = Exits::default();
    let mut here: Option<FiveTigers> = None;
    for from in points(own) {
        for to in points(NEIGHBOURS[from as usize].0 & empty) {
            let step = Ban {
                at: from as u8,
                back: to as u8,
            };
            if bans[stm] == Some(step) {
                continue;
            }
            any = true;
            let after = own ^ (1 << from) ^ (1 << to);
            if forms(after, to, &values) {
                let mut child = match here {
                    Some(p) => p,
                    None => *here.insert(
                        state_of(boards, stm, bans)
                            .to_position(rules)
                            .ok_or_else(|| internal(format!("no position for {boards:?}")))?,
                    ),
                };
                let mv = Move::Step {
                    from: Point::new(from as u8).ok_or_else(|| internal("point".into()))?,
                    to: Point::new(to as u8).ok_or_else(|| internal("point".into()))?,
                };
                child.play_unchecked(mv);
                let (v, d) = conversion(&child, smaller, material, memo)?;
                exits.add(v, d, child.side_to_move() == side(stm));
            } else {
                let mut next = [None, None];
                next[stm] = Some(Ban {
                    at: to as u8,
                    back: from as u8,
                });
                next[1 - stm] = bans[1 - stm].filter(|b| u32::from(b.back) != to);
                children.push(index.cell(with(boards, stm, after), 1 - stm, next));
            }
        }
    }
    if !any {
        return Ok(SlotStart::NoStep);
    }
    children.sort_unstable();
    children.dedup();
    exits.start()
}

/// The un-moves of `cell`: the cells from which a step of the side not to
/// move there, forming nothing, leads to it, appended to `preds` (not
/// deduplicated; see the module docs).
pub(super) fn unmoves(index: &BanIndex, cell: u64, values: &[u8; 5], preds: &mut Vec<u64>) {
    let (boards, stm, bans) = index.decode(cell);
    let mover = 1 - stm;
    // The step was `from → to`, its reverse the mover's ban.
    let Some(Ban { at: to, back: from }) = bans[mover] else {
        return;
    };
    let theirs = boards[mover];
    if forms(theirs, u32::from(to), values) {
        return;
    }
    let before = with(boards, mover, theirs ^ (1 << to) ^ (1 << from));
    let mut others: [Option<Ban>; 5] = [None; 5];
    let mut n_others = 1;
    match bans[stm] {
        Some(b) if b.back == from => return,
        Some(b) => others[0] = Some(b),
        None => {
            for at in points(boards[stm] & NEIGHBOURS[usize::from(to)].0) {
                others[n_others] = Some(Ban {
                    at: at as u8,
                    back: to,
                });
                n_others += 1;
            }
        }
    }
    let empty = ALL & !(before[0] | before[1]);
    let banned = Ban { at: from, back: to };
    let block = index.block(before, mover);
    let mut push = |own: Option<Ban>| {
        for &other in &others[..n_others] {
            let mut b = [None, None];
            b[mover] = own;
            b[stm] = other;
            preds.push(block.cell(b));
        }
    };
    push(None);
    for at in points(before[mover]) {
        for back in points(NEIGHBOURS[at as usize].0 & empty) {
            let own = Ban {
                at: at as u8,
                back: back as u8,
            };
            if own != banned {
                push(Some(own));
            }
        }
    }
}

/// The initial pass over the board slots `lo..hi`, whose cells start at
/// `base` (`states` and `dist` hold exactly their cells).
#[allow(clippy::too_many_arguments)]
fn init_range(
    index: &BanIndex,
    lo: u64,
    hi: u64,
    states: &mut [u8],
    dist: &mut [u16],
    rules: &Rules,
    material: Material,
    smaller: &Tablebase,
) -> Result<Vec<(u32, Event)>, GenerateError> {
    let mut memo = Memo::new();
    let mut events = Vec::new();
    let mut children: Vec<u64> = Vec::with_capacity(20);
    let base = index.start(lo);
    for (slot, x, o, stm) in index.boards.range(lo, hi) {
        let cells = index.cells_of(slot);
        let stab = BanIndex::stabiliser([x, o]);
        for cell in cells.clone() {
            let i = (cell - base) as usize;
            let off = cell - cells.start;
            if !BanIndex::is_canonical([x, o], stab, off) {
                states[i] = UNUSED;
                continue;
            }
            let bans = BanIndex::bans_at([x, o], off);
            children.clear();
            let start = start_cell(
                index,
                [x, o],
                stm,
                bans,
                rules,
                material,
                smaller,
                &mut memo,
                &mut children,
            )?;
            record_start(
                start,
                children.len(),
                cell,
                &mut states[i],
                &mut dist[i],
                &mut events,
            );
        }
    }
    Ok(events)
}

/// Solves `material` (`shuttle = forbidden`) given the tables of the
/// materials its removals lead to, on `threads` threads (the initial
/// pass, the un-moves and the keys of the table).
pub(crate) fn solve(
    material: Material,
    rules: &Rules,
    smaller: &Tablebase,
    threads: usize,
) -> Result<Table, GenerateError> {
    if rules.shuttle != Shuttle::Forbidden {
        return Err(internal(
            "the generator with bans needs shuttle = forbidden".into(),
        ));
    }
    let index = BanIndex::new(material.first, material.second);
    let n = index.len();
    let n_usize = usize::try_from(n).map_err(|_| GenerateError::TooLarge(material.to_string()))?;
    if n >= 1 << 62 {
        return Err(GenerateError::TooLarge(material.to_string()));
    }
    let mut states = vec![0u8; n_usize];
    let mut dist = vec![0u16; n_usize];

    // Board slots cut into a few ranges per thread (their cells are
    // contiguous), so a thread's share splits off the state arrays.
    let threads = threads.max(1);
    let slots = index.board_slots();
    let parts = (threads as u64 * 4).min(slots.max(1));
    let bounds: Vec<u64> = (0..=parts).map(|i| slots * i / parts).collect();
    let mut events = Vec::new();
    {
        let mut jobs = Vec::new();
        let (mut s_rest, mut d_rest) = (&mut states[..], &mut dist[..]);
        for w in bounds.windows(2) {
            let len = (index.start(w[1]) - index.start(w[0])) as usize;
            let (s, sr) = s_rest.split_at_mut(len);
            let (d, dr) = d_rest.split_at_mut(len);
            (s_rest, d_rest) = (sr, dr);
            jobs.push((w[0], w[1], s, d));
        }
        let next = std::sync::Mutex::new(jobs);
        let results: Vec<Result<Vec<(u32, Event)>, GenerateError>> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    let (index, next) = (&index, &next);
                    scope.spawn(move || {
                        let mut out = Vec::new();
                        loop {
                            let job = crate::driver::lock(next).pop();
                            let Some((lo, hi, s, d)) = job else { break };
                            out.extend(init_range(index, lo, hi, s, d, rules, material, smaller)?);
                        }
                        Ok(out)
                    })
                })
                .collect();
            join_workers(workers)
        });
        for r in results {
            events.extend(r?);
        }
    }
    let values = rules.values();
    propagate(&mut states, &mut dist, events, threads, &|cell, preds| {
        unmoves(&index, cell, &values, preds)
    })?;
    table_of(material, rules, &index, &states, &dist, threads)
}

/// The table of the solved cells: their canonical keys sorted, each
/// key's value read from the cell it names again (no key-to-cell pairs
/// are held, which would double the memory of the keys). The keys are
/// sorted as a whole: a key's high bits are its bans, so the keys of one
/// board slot's cells are not together in key order.
fn table_of(
    material: Material,
    rules: &Rules,
    index: &BanIndex,
    states: &[u8],
    dist: &[u16],
    threads: usize,
) -> Result<Table, GenerateError> {
    let slots = index.board_slots();
    let threads = threads.max(1);
    let per = slots.div_ceil(threads as u64).max(1);
    let parts: Vec<Result<Vec<u64>, GenerateError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads as u64)
            .map(|t| {
                scope.spawn(move || {
                    let (lo, hi) = ((t * per).min(slots), ((t + 1) * per).min(slots));
                    let mut out = Vec::new();
                    for (slot, x, o, stm) in index.boards.range(lo, hi) {
                        let cells = index.cells_of(slot);
                        for cell in cells.clone() {
                            if states[cell as usize] == UNUSED {
                                continue;
                            }
                            let bans = BanIndex::bans_at([x, o], cell - cells.start);
                            let key = state_of([x, o], stm, bans)
                                .canonical()
                                .ok_or_else(|| internal(format!("cell {cell} has no key")))?
                                .0;
                            out.push(key);
                        }
                    }
                    out.sort_unstable();
                    Ok(out)
                })
            })
            .collect();
        join_workers(workers)
    });
    let mut keys: Vec<u64> = Vec::new();
    for part in parts {
        let part = part?;
        if keys.is_empty() {
            keys = part;
        } else {
            keys.extend(part);
        }
    }
    // Each part is sorted: the standard sort merges such runs quickly.
    keys.sort();
    let n = keys.len();
    let mut values = vec![Wdl::Draw; n];
    let mut dists = vec![0u16; n];
    let per = n.div_ceil(threads).max(1);
    let done: Vec<Result<(), GenerateError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = keys
            .chunks(per)
            .zip(values.chunks_mut(per).zip(dists.chunks_mut(per)))
            .map(|(chunk, (v, d))| {
                scope.spawn(move || {
                    for (i, &key) in chunk.iter().enumerate() {
                        let s = State::from_key(key)
                            .ok_or_else(|| internal(format!("bad key {key}")))?;
                        let cell = index.cell(s.boards, s.stm.index(), s.bans) as usize;
                        (v[i], d[i]) = match states[cell] {
                            WIN => (Wdl::Win, dist[cell]),
                            LOSS => (Wdl::Loss, dist[cell]),
                            _ => (Wdl::Draw, 0),
                        };
                    }
                    Ok(())
                })
            })
            .collect();
        join_workers(workers)
    });
    for r in done {
        r?;
    }
    Ok(Table::new(material, *rules, keys, &values, dists))
}
