//! The table of `b v a` from its *twin*, the table of `a v b`: the
//! movement phase treats the two sides alike (the same steps, formations
//! and removals, and a side's ban is its own step back), so a state and
//! the state with the colours swapped (the boards exchanged, the other
//! side to move, the bans exchanged) have the same value and distance for
//! the side to move. Writing a table from its twin costs an index
//! computation a cell where solving it costs the rounds: `4v5` under the
//! ban took 3 529 s out of core (docs/tablebases.md).

use std::io;
use std::path::Path;
use std::sync::Arc;

use qi_five_tigers::FiveTigers;

use super::dense_ban::BanIndex;
use super::table::internal;
use super::{Material, Slots, Table, Tablebase};
use crate::driver::GenerateError;
use crate::exec::GenerateDirError;
use crate::format::blocked;
use crate::format::container::Header;
use crate::format::versions::version_of;
use crate::format::write::write_atomically_with;
use crate::format::FormatError;
use crate::value::{code_at, set_code, UNUSED};
use crate::TableGame;

/// The material with the sides' pieces exchanged.
pub(crate) fn twin(m: Material) -> Material {
    Material {
        first: m.second,
        second: m.first,
    }
}

/// Writes the table of `twin(source.material())` into `dir` from
/// `source`, on `threads` threads, as the retrograde generators would
/// have written it (the same bytes: a test solves both and compares).
/// Only the dense tables (`Slots::Dense`, with bans or without) have twins
/// this way; a keyed table is refused.
pub(crate) fn write_twin(
    source: &Table,
    dir: &Path,
    threads: usize,
) -> Result<(), GenerateDirError> {
    let material = twin(source.material());
    let (src, target, version) = indices(source, material)?;
    let path = Tablebase::file_path(dir, material);
    let header = Header {
        game: FiveTigers::NAME,
        version,
        rules: &source.rules().to_string(),
        material: &material.to_string(),
        count: target.len(),
        width: source.distances.width(),
    };
    // A block's error stops the writing as an `io::Error` (the temporary
    // file abandoned: nothing half-filled is renamed) and comes out as
    // itself.
    let block = |first, values: &mut [u8], distances: &mut [u8]| {
        fill(source, &src, &target, first, values, distances).map_err(io::Error::other)
    };
    let write = &mut |w: &mut dyn io::Write| blocked::write_filled(w, &header, threads, &block);
    write_atomically_with(&path, write).map_err(|e| match e.downcast::<GenerateError>() {
        Ok(e) => e.into(),
        Err(e) => FormatError::io(&path, e).into(),
    })
}

/// The table of `twin(source.material())` made in memory from `source`
/// on `threads` threads: the bytes [`write_twin`] writes, for a cluster's
/// processes, which hold every table (`Holding::Gathered`). Only the
/// dense tables have twins this way; a keyed table is refused.
#[cfg(any(feature = "distributed", test))]
pub(crate) fn twin_table(source: &Table, threads: usize) -> Result<Table, GenerateError> {
    let material = twin(source.material());
    let (src, target, _) = indices(source, material)?;
    let width = source.distances.width();
    let too_large = || GenerateError::TooLarge(material.to_string());
    let n = usize::try_from(target.len()).map_err(|_| too_large())?;
    let mut values = vec![0u8; n.div_ceil(4)];
    let mut bytes = vec![0u8; n * usize::from(width)];
    // The cells in `threads · 8` parts of a multiple of 4 cells (whole
    // bytes of values), on `threads` threads that each take the next
    // part when done.
    let per = n.div_ceil(threads.max(1) * 8).next_multiple_of(4).max(4);
    let parts = values
        .chunks_mut(per / 4)
        .zip(bytes.chunks_mut(per * usize::from(width)))
        .enumerate();
    crate::threads::as_made(
        parts,
        threads,
        |(i, (v, d))| fill(source, &src, &target, (i * per) as u64, v, d),
        |()| {},
    )?;
    // The file bytes as the table's distances, read as a file's are.
    use crate::value::Distances;
    let mut distances = Distances::with_capacity(width, n).map_err(|_| too_large())?;
    distances.extend_from_bytes(&bytes);
    super::cells::table_of(
        material,
        source.rules(),
        Arc::new(target),
        values,
        distances,
    )
}

/// The index of a dense table (`source`'s, with bans or without) and
/// that of its twin `material`, of the same kind, with the file version
/// of that kind. A keyed table is refused.
fn indices(
    source: &Table,
    material: Material,
) -> Result<(Arc<BanIndex>, BanIndex, u16), GenerateError> {
    let Slots::Dense(d) = source.index() else {
        return Err(internal(format!(
            "{material} from {}: a keyed table has no twin by index",
            source.material()
        )));
    };
    let version = version_of(FiveTigers::slot_index(source.index()));
    Ok((
        d.index.clone(),
        BanIndex::under(material, source.rules()),
        version,
    ))
}

/// Fills the block of cells from `first` of the index `target` from the
/// twin's table `source` (its cells `src`, of an index of the same kind).
fn fill(
    source: &Table,
    src: &BanIndex,
    target: &BanIndex,
    first: u64,
    values: &mut [u8],
    distances: &mut [u8],
) -> Result<(), GenerateError> {
    let width = usize::from(source.distances.width());
    let end = first + (distances.len() / width) as u64;
    let mut cell = first;
    let slots = target
        .boards
        .range(target.slot_of(first), target.board_slots());
    for (slot, x, o, stm) in slots {
        if cell >= end {
            break;
        }
        let cells = target.cells_of(slot);
        if cells.end <= cell {
            continue;
        }
        let hi = cells.end.min(end);
        let rep = [x, o];
        let stab = target.cells_stabiliser(rep);
        // The twin's block: the boards exchanged, the other side to move.
        let block = src.block([o, x], 1 - stm);
        for c in cell..hi {
            let off = c - cells.start;
            let to = (c - first) as usize;
            if !target.holds_state(slot, rep, stab, off) {
                // Its distance stays 0.
                set_code(values, to, UNUSED);
                continue;
            }
            let [ban_x, ban_o] = BanIndex::bans_at(rep, off);
            let i = block.cell([ban_o, ban_x]) as usize;
            let code = code_at(&source.values, i);
            if code == UNUSED {
                // A state's twin is a state: it would be a broken index.
                return Err(internal(format!(
                    "the twin's cell {i} holds no state, but its twin (cell {c}) does"
                )));
            }
            set_code(values, to, code);
            source
                .distances
                .write_bytes(i, &mut distances[to * width..(to + 1) * width]);
        }
        cell = hi;
    }
    Ok(())
}
