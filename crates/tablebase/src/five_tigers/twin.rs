//! The table of `b v a` from its *twin*, the table of `a v b`: the
//! movement phase treats the two sides alike (the same steps, formations
//! and removals, and a side's ban is its own step back), so a state and
//! the state with the colours swapped (the boards exchanged, the other
//! side to move, the bans exchanged) have the same value and distance for
//! the side to move. Writing a table from its twin costs an index
//! computation a cell where solving it costs the rounds: `4v5` under the
//! ban took 3 529 s out of core (docs/tablebases.md).

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
use crate::format::FormatError;
use crate::value::{code_at, set_code, Distances, UNUSED};
use crate::TableGame;

/// The material with the sides' pieces exchanged.
pub(crate) fn twin(m: Material) -> Material {
    Material {
        first: m.second,
        second: m.first,
    }
}

/// The twin's values and distances, read by slot.
struct Source<'a> {
    values: &'a [u8],
    distances: &'a Distances,
}

impl Source<'_> {
    /// Copies the twin's slot `from` into slot `to` of a block's `values`
    /// and `distances`, or fails if no state uses it (a state's twin is a
    /// state: it would be a broken index).
    #[inline]
    fn copy(
        &self,
        from: u64,
        to: usize,
        values: &mut [u8],
        distances: &mut [u8],
    ) -> Result<(), GenerateError> {
        let i = from as usize;
        let code = code_at(self.values, i);
        if code == UNUSED {
            return Err(internal(format!(
                "the twin's slot {from} holds no state, but its twin (slot {to} of the block \
                 being written) does"
            )));
        }
        set_code(values, to, code);
        match self.distances {
            Distances::U8(d) => distances[to] = d[i],
            Distances::U16(d) => distances[2 * to..2 * to + 2].copy_from_slice(&d[i].to_le_bytes()),
        }
        Ok(())
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
    let from = Source {
        values: &source.values,
        distances: &source.distances,
    };
    let rules_text = source.rules().to_string();
    let material_text = material.to_string();
    let width = usize::from(source.distances.width());
    let path = Tablebase::file_path(dir, material);
    // The file of `count` slots of format `version`, each block filled by
    // `fill`.
    let write_file = |version, count, fill: &blocked::FillBlock<'_, GenerateError>| {
        let header = Header {
            game: FiveTigers::NAME,
            version,
            rules: &rules_text,
            material: &material_text,
            count,
            width: source.distances.width(),
        };
        write(&path, &header, threads, fill).map_err(|source| FormatError::Io {
            path: path.display().to_string(),
            source,
        })
    };
    let (src, target, version) = indices(source, material)?;
    let written = write_file(version, target.len(), &|first, values, distances| {
        fill(&src, &target, &from, first, values, distances, width)
    })?;
    written.map_err(Into::into)
}

/// The table of `twin(source.material())` made in memory from `source`
/// on `threads` threads: the bytes [`write_twin`] writes, for a cluster's
/// processes, which hold every table (`Holding::Gathered`). Only the
/// dense tables have twins this way; a keyed table is refused.
#[cfg(any(feature = "distributed", test))]
pub(crate) fn twin_table(source: &Table, threads: usize) -> Result<Table, GenerateError> {
    let material = twin(source.material());
    let from = Source {
        values: &source.values,
        distances: &source.distances,
    };
    let width = usize::from(source.distances.width());
    // The slots in `threads · 8` parts of a multiple of 4 slots (whole
    // bytes of values), each filled by `fill(first, values, distances)`,
    // on `threads` threads that each take the next part when done.
    let filled = |len: u64, fill: &blocked::FillBlock<'_, GenerateError>| {
        let n = usize::try_from(len).map_err(|_| GenerateError::TooLarge(material.to_string()))?;
        let mut values = vec![0u8; n.div_ceil(4)];
        let mut distances = vec![0u8; n * width];
        let per = n.div_ceil(threads.max(1) * 8).next_multiple_of(4).max(4);
        let parts = values
            .chunks_mut(per / 4)
            .zip(distances.chunks_mut(per * width))
            .enumerate();
        crate::threads::as_made(
            parts,
            threads,
            |(i, (v, d))| fill((i * per) as u64, v, d),
            |()| {},
        )?;
        let distances = match source.distances {
            Distances::U8(_) => Distances::U8(distances),
            Distances::U16(_) => Distances::U16(
                distances
                    .chunks_exact(2)
                    .map(|b| u16::from_le_bytes([b[0], b[1]]))
                    .collect(),
            ),
        };
        Ok::<_, GenerateError>((values, distances))
    };
    let (src, target, _) = indices(source, material)?;
    let (values, distances) = filled(target.len(), &|first, values, distances| {
        fill(&src, &target, &from, first, values, distances, width)
    })?;
    let rules = source.rules();
    super::retro::table_of(material, rules, Arc::new(target), values, distances)
}

/// Writes the blocked file at `path` block by block, through a temporary
/// file renamed into place.
fn write(
    path: &Path,
    header: &Header<'_>,
    threads: usize,
    fill: &blocked::FillBlock<'_, GenerateError>,
) -> std::io::Result<Result<(), GenerateError>> {
    let mut outcome = Ok(());
    crate::format::write::write_atomically_with(path, &mut |w| {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, w);
        outcome = blocked::write_filled(&mut w, header, threads, fill)?;
        if outcome.is_err() {
            // Abandon the temporary file: nothing half-filled is renamed.
            return Err(std::io::Error::other("abandoned"));
        }
        std::io::Write::flush(&mut w)
    })
    .or_else(|e| if outcome.is_err() { Ok(()) } else { Err(e) })?;
    Ok(outcome)
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
/// twin's cells (`src`, of an index of the same kind).
fn fill(
    src: &BanIndex,
    target: &BanIndex,
    from: &Source<'_>,
    first: u64,
    values: &mut [u8],
    distances: &mut [u8],
    width: usize,
) -> Result<(), GenerateError> {
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
            from.copy(block.cell([ban_o, ban_x]), to, values, distances)?;
        }
        cell = hi;
    }
    Ok(())
}
