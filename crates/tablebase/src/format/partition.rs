//! One worker's share of a solved slice on disk: what each process of a
//! cluster writes when no process gathers whole tables
//! (`dataflow::solve_reading`), and what the next slices' reads and
//! [`crate::join_partitions`] read back.
//!
//! A partition file holds the values of the slots the worker owns under
//! the slice's deal ([`Deal`]: runs of `2^shift` slots, run `k` to worker
//! `k mod workers`), a code byte (0 loss, 1 draw, 2 win, 3 unused) and a
//! little-endian 16-bit distance a slot, after a header that names the
//! game, the rules, the material and the deal, and a checksum of the
//! whole (FNV-1a, as the table files). It is named
//! `MATERIAL.EXT.part-OWNER-of-WORKERS` (`4v4.qft.part-3-of-8`), so the
//! table readers, which look for `MATERIAL.EXT`, never take it for a
//! table, and the partitions of runs with other numbers of workers never
//! mix. Written through a temporary file renamed into place, as the
//! tables are: a partition file present is whole.

use std::path::{Path, PathBuf};

use crate::format::container::{fnv1a, read_prefix, sum_around, write_prefix, FileError, Reader};
use crate::format::write::write_atomically_with;
use crate::format::{rules_and_material, FormatError};
use crate::game::TableGame;
use crate::retrograde::{join_parts, Deal, SliceValues, UNUSED};
use crate::value::decode_distances;

/// The first bytes of every partition file.
pub const PART_MAGIC: [u8; 8] = *b"QIPT\r\n\x1a\n";

/// The partition format's version.
const PART_VERSION: u16 = 1;

/// Which partition of which slice: what a partition file's header says.
///
/// A slice of 5 slots dealt in runs of 2 (`shift` 1) to 2 workers:
/// slots 0, 1 and 4 to worker 0, slots 2 and 3 to worker 1.
///
/// ```
/// use qi_games::five_tigers::{FiveTigers, Rules};
/// use qi_tablebase::partition::{PartInfo, Partition};
/// use qi_tablebase::retrograde::Deal;
///
/// let info = |owner| PartInfo::<FiveTigers> {
///     material: "1v1".parse().unwrap(),
///     rules: Rules::default(),
///     slots: 5,
///     shift: 1,
///     owner,
///     workers: 2,
/// };
/// let deal = Deal::new(2, 1);
/// assert_eq!((deal.count(5, 0), deal.count(5, 1)), (3, 2));
/// let part = Partition { info: info(1), codes: vec![2, 0], distances: vec![3, 2] };
/// let dir = tempfile::tempdir()?;
/// let path = part.save(dir.path())?;
/// assert_eq!(Partition::<FiveTigers>::header(&path, &Rules::default())?.info, info(1));
/// // Three slots are not worker 1's share.
/// let wrong = Partition { info: info(1), codes: vec![2, 0, 1], distances: vec![3, 2, 0] };
/// assert!(Partition::<FiveTigers>::from_bytes(&wrong.to_bytes(), &Rules::default()).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PartInfo<G: TableGame> {
    /// The slice's material.
    pub material: G::Material,
    /// The rules it was solved under.
    pub rules: G::Rules,
    /// The slice's slots (all partitions').
    pub slots: u64,
    /// The deal's run shift ([`crate::retrograde::RetroSlice::run_shift`]).
    pub shift: u32,
    /// The worker that owns these slots.
    pub owner: usize,
    /// Workers of the run.
    pub workers: usize,
}

/// One worker's values of one solved slice.
#[derive(Clone, Debug, PartialEq)]
///
/// ```
/// use qi_games::five_tigers::{FiveTigers, Rules};
/// use qi_tablebase::partition::{PartInfo, Partition};
///
/// // Worker 1 of 2 of a 3-slot slice owns slot 1 (a win in 5).
/// let info = PartInfo {
///     material: "1v1".parse().unwrap(),
///     rules: Rules::default(),
///     slots: 3,
///     shift: 0,
///     owner: 1,
///     workers: 2,
/// };
/// let part = Partition::<FiveTigers> { info, codes: vec![2], distances: vec![5] };
/// let dir = tempfile::tempdir()?;
/// let path = part.save(dir.path())?;
/// assert!(path.ends_with("1v1.qft.part-1-of-2"));
/// assert_eq!(Partition::<FiveTigers>::load(&path, &Rules::default())?, part);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Partition<G: TableGame> {
    /// Which partition of which slice.
    pub info: PartInfo<G>,
    /// Codes by local index (0 loss, 1 draw, 2 win, 3 unused).
    pub codes: Vec<u8>,
    /// Distances by local index.
    pub distances: Vec<u16>,
}

impl<G: TableGame> Partition<G> {
    /// The file of partition `owner` of `workers` of `material` in `dir`.
    ///
    /// ```
    /// use std::path::Path;
    /// use qi_games::five_tigers::FiveTigers;
    /// use qi_tablebase::partition::Partition;
    ///
    /// let path = Partition::<FiveTigers>::path(Path::new("t"), "4v4".parse().unwrap(), 3, 8);
    /// assert_eq!(path, Path::new("t/4v4.qft.part-3-of-8"));
    /// ```
    pub fn path(dir: &Path, material: G::Material, owner: usize, workers: usize) -> PathBuf {
        dir.join(format!(
            "{material}.{}.part-{owner}-of-{workers}",
            G::EXTENSION
        ))
    }

    /// Writes the partition into `dir` (through a temporary file renamed
    /// into place) and returns its path.
    ///
    /// ```
    /// # use qi_games::five_tigers::{FiveTigers, Rules};
    /// # use qi_tablebase::partition::{PartInfo, Partition};
    /// # fn part(owner: usize, codes: Vec<u8>, distances: Vec<u16>) -> Partition<FiveTigers> {
    /// #     let info = PartInfo { material: "1v1".parse().unwrap(), rules: Rules::default(),
    /// #                           slots: 3, shift: 0, owner, workers: 2 };
    /// #     Partition { info, codes, distances }
    /// # }
    /// let dir = tempfile::tempdir()?;
    /// let path = part(0, vec![0, 1], vec![4, 0]).save(dir.path())?;
    /// assert_eq!(path, dir.path().join("1v1.qft.part-0-of-2"));
    /// assert_eq!(std::fs::read(&path)?, part(0, vec![0, 1], vec![4, 0]).to_bytes());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn save(&self, dir: &Path) -> Result<PathBuf, FormatError> {
        let info = &self.info;
        let path = Self::path(dir, info.material, info.owner, info.workers);
        let bytes = self.to_bytes();
        write_atomically_with(&path, &mut |w| w.write_all(&bytes))
            .map_err(|source| FormatError::io(&path, source))?;
        Ok(path)
    }

    /// The file's bytes: [`PART_MAGIC`], the header, the codes and the
    /// distances.
    ///
    /// ```
    /// # use qi_games::five_tigers::{FiveTigers, Rules};
    /// # use qi_tablebase::partition::{PartInfo, Partition};
    /// # fn part(owner: usize, codes: Vec<u8>, distances: Vec<u16>) -> Partition<FiveTigers> {
    /// #     let info = PartInfo { material: "1v1".parse().unwrap(), rules: Rules::default(),
    /// #                           slots: 3, shift: 0, owner, workers: 2 };
    /// #     Partition { info, codes, distances }
    /// # }
    /// use qi_tablebase::partition::PART_MAGIC;
    ///
    /// let bytes = part(1, vec![2], vec![5]).to_bytes();
    /// assert!(bytes.starts_with(&PART_MAGIC));
    /// assert!(bytes.ends_with(&[2, 5, 0])); // code 2 (win), distance 5
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let info = &self.info;
        let (rules, material) = (info.rules.to_string(), info.material.to_string());
        let mut out = Vec::with_capacity(96 + 3 * self.codes.len());
        write_prefix(
            &mut out,
            &PART_MAGIC,
            PART_VERSION,
            G::NAME,
            &rules,
            &material,
        );
        out.extend_from_slice(&info.slots.to_le_bytes());
        for field in [info.workers as u32, info.shift, info.owner as u32] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        out.extend_from_slice(&(self.codes.len() as u64).to_le_bytes());
        let checksum_at = out.len();
        out.extend_from_slice(&[0; 8]);
        out.extend_from_slice(&self.codes);
        out.extend(self.distances.iter().flat_map(|d| d.to_le_bytes()));
        let sum = sum_around(&out, checksum_at);
        out[checksum_at..checksum_at + 8].copy_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads the partition file `path`, refusing one of another game,
    /// board rules other than `rules`'s, a checksum that does not match,
    /// a count that is not the deal's, or a code that is not a value.
    ///
    /// ```
    /// # use qi_games::five_tigers::{FiveTigers, Rules};
    /// # use qi_tablebase::partition::{PartInfo, Partition};
    /// # fn part(owner: usize, codes: Vec<u8>, distances: Vec<u16>) -> Partition<FiveTigers> {
    /// #     let info = PartInfo { material: "1v1".parse().unwrap(), rules: Rules::default(),
    /// #                           slots: 3, shift: 0, owner, workers: 2 };
    /// #     Partition { info, codes, distances }
    /// # }
    /// use qi_tablebase::FormatError;
    ///
    /// let dir = tempfile::tempdir()?;
    /// let path = part(1, vec![2], vec![5]).save(dir.path())?;
    /// assert_eq!(Partition::<FiveTigers>::load(&path, &Rules::default())?, part(1, vec![2], vec![5]));
    /// // Solved with the shuttle forbidden: no use under the shuttle allowed.
    /// let other = Partition::<FiveTigers>::load(&path, &Rules::shandong_shuttle());
    /// assert!(matches!(other, Err(FormatError::RulesMismatch { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load(path: &Path, rules: &G::Rules) -> Result<Partition<G>, FormatError> {
        let bytes = std::fs::read(path).map_err(|e| FormatError::io(path, e))?;
        Self::from_bytes(&bytes, rules).map_err(|e| at_path(e, path))
    }

    /// The partition of a file's `bytes` (see [`Partition::load`]).
    ///
    /// ```
    /// # use qi_games::five_tigers::{FiveTigers, Rules};
    /// # use qi_tablebase::partition::{PartInfo, Partition};
    /// # fn part(owner: usize, codes: Vec<u8>, distances: Vec<u16>) -> Partition<FiveTigers> {
    /// #     let info = PartInfo { material: "1v1".parse().unwrap(), rules: Rules::default(),
    /// #                           slots: 3, shift: 0, owner, workers: 2 };
    /// #     Partition { info, codes, distances }
    /// # }
    /// let bytes = part(1, vec![2], vec![5]).to_bytes();
    /// let back = Partition::<FiveTigers>::from_bytes(&bytes, &Rules::default()).unwrap();
    /// assert_eq!(back, part(1, vec![2], vec![5]));
    /// let mut broken = bytes.clone();
    /// *broken.last_mut().unwrap() ^= 1;
    /// assert!(Partition::<FiveTigers>::from_bytes(&broken, &Rules::default()).is_err());
    /// ```
    pub fn from_bytes(bytes: &[u8], rules: &G::Rules) -> Result<Partition<G>, FormatError> {
        let head = PartHeader::<G>::parse(bytes, rules, bytes.len() as u64)?;
        let data = &bytes[head.data_at as usize..];
        head.verify(data, Path::new(""), 1 << 20)?;
        let count = head.count as usize;
        let mut distances = vec![0; count];
        decode_distances(&data[count..], &mut distances);
        Ok(Partition {
            info: head.info,
            codes: data[..count].to_vec(),
            distances,
        })
    }

    /// Checks the partition file `path` as [`Partition::load`] does,
    /// reading it a megabyte at a time (nothing of its size is held), and
    /// returns its header.
    ///
    /// ```
    /// # use qi_games::five_tigers::{FiveTigers, Rules};
    /// # use qi_tablebase::partition::{PartInfo, Partition};
    /// # fn part(owner: usize, codes: Vec<u8>, distances: Vec<u16>) -> Partition<FiveTigers> {
    /// #     let info = PartInfo { material: "1v1".parse().unwrap(), rules: Rules::default(),
    /// #                           slots: 3, shift: 0, owner, workers: 2 };
    /// #     Partition { info, codes, distances }
    /// # }
    /// let dir = tempfile::tempdir()?;
    /// let path = part(0, vec![0, 1], vec![4, 0]).save(dir.path())?;
    /// let rules = Rules::default();
    /// assert_eq!(Partition::<FiveTigers>::check(&path, &rules)?.count, 2);
    /// // A damaged value: the header alone still reads, the check refuses.
    /// let mut bytes = std::fs::read(&path)?;
    /// let at = bytes.len() - 6;
    /// bytes[at] = 2;
    /// std::fs::write(&path, bytes)?;
    /// assert!(Partition::<FiveTigers>::header(&path, &rules).is_ok());
    /// assert!(Partition::<FiveTigers>::check(&path, &rules).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check(path: &Path, rules: &G::Rules) -> Result<PartHeader<G>, FormatError> {
        use std::io::{Seek, SeekFrom};
        let head = Self::header(path, rules)?;
        let io = |e| FormatError::io(path, e);
        let mut file = std::fs::File::open(path).map_err(io)?;
        file.seek(SeekFrom::Start(head.data_at)).map_err(io)?;
        head.verify(file, path, 1 << 20)?;
        Ok(head)
    }

    /// The header of the partition file `path`, its size checked against
    /// it (not its contents: see [`Partition::check`]).
    ///
    /// ```
    /// # use qi_games::five_tigers::{FiveTigers, Rules};
    /// # use qi_tablebase::partition::{PartInfo, Partition};
    /// # fn part(owner: usize, codes: Vec<u8>, distances: Vec<u16>) -> Partition<FiveTigers> {
    /// #     let info = PartInfo { material: "1v1".parse().unwrap(), rules: Rules::default(),
    /// #                           slots: 3, shift: 0, owner, workers: 2 };
    /// #     Partition { info, codes, distances }
    /// # }
    /// let dir = tempfile::tempdir()?;
    /// let path = part(0, vec![0, 1], vec![4, 0]).save(dir.path())?;
    /// let head = Partition::<FiveTigers>::header(&path, &Rules::default())?;
    /// assert_eq!((head.info.owner, head.info.workers, head.count), (0, 2, 2));
    /// // A file cut short is refused from its size.
    /// let bytes = std::fs::read(&path)?;
    /// std::fs::write(&path, &bytes[..bytes.len() - 1])?;
    /// assert!(Partition::<FiveTigers>::header(&path, &Rules::default()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn header(path: &Path, rules: &G::Rules) -> Result<PartHeader<G>, FormatError> {
        use std::io::Read;
        let io = |e| FormatError::io(path, e);
        let file = std::fs::File::open(path).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        // The header is at most 8 + 2 + 256 + 2 + 65535 + 256 + 36 bytes.
        let mut prefix = Vec::new();
        file.take(1 << 17).read_to_end(&mut prefix).map_err(io)?;
        PartHeader::parse(&prefix, rules, size).map_err(|e| at_path(e, path))
    }
}

/// A partition file's header, checked against the rules, the deal and
/// the file's size.
///
/// ```
/// # use qi_games::five_tigers::{FiveTigers, Rules};
/// # use qi_tablebase::partition::{PartInfo, Partition};
/// # fn part(owner: usize, codes: Vec<u8>, distances: Vec<u16>) -> Partition<FiveTigers> {
/// #     let info = PartInfo { material: "1v1".parse().unwrap(), rules: Rules::default(),
/// #                           slots: 3, shift: 0, owner, workers: 2 };
/// #     Partition { info, codes, distances }
/// # }
/// use qi_tablebase::partition::PartHeader;
///
/// let dir = tempfile::tempdir()?;
/// let path = part(0, vec![0, 1], vec![4, 0]).save(dir.path())?;
/// let head: PartHeader<FiveTigers> = Partition::header(&path, &Rules::default())?;
/// assert_eq!(head.count, 2);
/// // The codes (a byte a slot), then the distances (two bytes a slot).
/// assert_eq!(std::fs::metadata(&path)?.len(), head.data_at + 3 * head.count);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct PartHeader<G: TableGame> {
    /// Which partition of which slice.
    pub info: PartInfo<G>,
    /// Slots in this partition.
    pub count: u64,
    /// Where the codes start (the distances follow them).
    pub data_at: u64,
    checksum: u64,
    /// The checksum of the header's bytes (its own 8 left out): where
    /// the data's checksum starts.
    header_sum: u64,
}

impl<G: TableGame> PartHeader<G> {
    /// The header at the start of `bytes` (at least the header's bytes)
    /// of a file of `size` bytes.
    fn parse(bytes: &[u8], rules: &G::Rules, size: u64) -> Result<PartHeader<G>, FormatError> {
        let file = part_file::<G>;
        let mut r = Reader::new(bytes);
        let (rules_text, material_text) =
            read_prefix(&mut r, &PART_MAGIC, G::NAME, PART_VERSION).map_err(file)?;
        let slots = u64::from_le_bytes(r.array().map_err(file)?);
        let workers = u32::from_le_bytes(r.array().map_err(file)?) as usize;
        let shift = u32::from_le_bytes(r.array().map_err(file)?);
        let owner = u32::from_le_bytes(r.array().map_err(file)?) as usize;
        let count = u64::from_le_bytes(r.array().map_err(file)?);
        let checksum_at = r.position();
        let checksum = u64::from_le_bytes(r.array().map_err(file)?);
        let data_at = r.position() as u64;
        let header_sum = sum_around(&bytes[..data_at as usize], checksum_at);
        let expected_size = count.checked_mul(3).and_then(|p| p.checked_add(data_at));
        if expected_size != Some(size) {
            return Err(file(FileError::SizeMismatch {
                expected: expected_size.unwrap_or(u64::MAX),
                found: size,
            }));
        }
        let (file_rules, material) =
            rules_and_material::<G>(rules_text, material_text, Some(rules))?;
        let deal_count = (workers > 0 && owner < workers && shift < 64)
            .then(|| Deal::new(workers, shift).count(slots, owner));
        if deal_count != Some(count) {
            let found = format!("{count} slots as partition {owner} of {workers}");
            let expected = format!(
                "{} for {slots} slots in runs of 2^{shift}",
                deal_count.map_or("no partition".to_string(), |c| format!("{c} slots"))
            );
            return Err(mismatch(Path::new(""), found, expected));
        }
        Ok(PartHeader {
            info: PartInfo {
                material,
                rules: file_rules,
                slots,
                shift,
                owner,
                workers,
            },
            count,
            data_at,
            checksum,
            header_sum,
        })
    }

    /// Reads the data after this header (of the file `path`) from
    /// `data`, `chunk` bytes at a time (nothing of its size is held),
    /// refusing data whose checksum is not the header's, or with a code
    /// that is not a value.
    fn verify(
        &self,
        mut data: impl std::io::Read,
        path: &Path,
        chunk: usize,
    ) -> Result<(), FormatError> {
        let (mut sum, mut at, mut bad) = (self.header_sum, 0u64, None);
        let mut buf = vec![0u8; chunk.max(1)];
        loop {
            let n = data.read(&mut buf).map_err(|e| FormatError::io(path, e))?;
            if n == 0 {
                break;
            }
            sum = fnv1a(sum, &buf[..n]);
            // The codes come first: the first `count` bytes.
            let codes = &buf[..self.count.saturating_sub(at).min(n as u64) as usize];
            if let (None, Some(k)) = (bad, codes.iter().position(|&c| c > UNUSED)) {
                bad = Some(at + k as u64);
            }
            at += n as u64;
        }
        let source = if sum != self.checksum {
            FileError::Checksum {
                expected: self.checksum,
                found: sum,
            }
        } else if let Some(at) = bad {
            FileError::BadValue(at)
        } else {
            return Ok(());
        };
        Err(part_file::<G>(source))
    }
}

/// `source` in a partition file of game `G`.
fn part_file<G: TableGame>(source: FileError) -> FormatError {
    FormatError::File {
        game: G::NAME,
        version: PART_VERSION,
        source,
    }
}

/// `e` with the file's path where it names none.
fn at_path(e: FormatError, path: &Path) -> FormatError {
    match e {
        FormatError::PartitionMismatch {
            found, expected, ..
        } => mismatch(path, found, expected),
        e => e,
    }
}

/// The partition file `path` (or where one was looked for) is not the
/// one expected: it holds what `found` says.
fn mismatch(path: &Path, found: String, expected: String) -> FormatError {
    FormatError::PartitionMismatch {
        path: path.display().to_string(),
        found,
        expected,
    }
}

impl<G: TableGame> PartInfo<G> {
    /// Refuses the partition of the file `path` unless it is partition
    /// `owner` of `workers` of `material`, of a slice of `slots` slots
    /// dealt in runs of `2^shift`.
    pub(crate) fn expect(
        &self,
        path: &Path,
        material: G::Material,
        owner: usize,
        workers: usize,
        (slots, shift): (u64, u32),
    ) -> Result<(), FormatError> {
        let found = (
            self.material,
            self.owner,
            self.workers,
            self.slots,
            self.shift,
        );
        let expected = (material, owner, workers, slots, shift);
        if found == expected {
            return Ok(());
        }
        let said = |(m, o, w, s, h): (G::Material, usize, usize, u64, u32)| {
            format!("partition {o} of {w} of {m}, {s} slots in runs of 2^{h}")
        };
        Err(mismatch(path, said(found), said(expected)))
    }
}

/// The workers of a run and the file of each partition found (by owner).
type Found = (usize, Vec<Option<PathBuf>>);

/// The partition files of `material` in `dirs`: those of the run with
/// the most workers found (`None` when there is none), by owner, each
/// the first found in the order of `dirs`.
fn find_partitions<G: TableGame>(
    dirs: &[PathBuf],
    material: G::Material,
) -> Result<Option<Found>, FormatError> {
    let prefix = format!("{material}.{}.part-", G::EXTENSION);
    let mut found: Vec<(usize, usize, PathBuf)> = Vec::new();
    for dir in dirs {
        let entries = std::fs::read_dir(dir).map_err(|source| FormatError::io(dir, source))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(rest) = name.strip_prefix(&prefix) else {
                continue;
            };
            let Some((owner, workers)) = rest.split_once("-of-") else {
                continue;
            };
            if let (Ok(owner), Ok(workers)) = (owner.parse(), workers.parse()) {
                found.push((workers, owner, entry.path()));
            }
        }
    }
    let Some(workers) = found.iter().map(|f| f.0).max() else {
        return Ok(None);
    };
    let mut by_owner = vec![None; workers];
    for (w, owner, path) in found {
        if w == workers && owner < workers && by_owner[owner].is_none() {
            by_owner[owner] = Some(path);
        }
    }
    Ok(Some((workers, by_owner)))
}

/// Joins the partition files of `material` found in `dirs` (each
/// process's directory of a cluster's run) into the slice's values.
/// Refuses a missing partition (naming it), partitions of other rules or
/// of different deals.
///
/// ```
/// # use qi_games::five_tigers::{FiveTigers, Rules};
/// # use qi_tablebase::partition::{PartInfo, Partition};
/// # fn part(owner: usize, codes: Vec<u8>, distances: Vec<u16>) -> Partition<FiveTigers> {
/// #     let info = PartInfo { material: "1v1".parse().unwrap(), rules: Rules::default(),
/// #                           slots: 3, shift: 0, owner, workers: 2 };
/// #     Partition { info, codes, distances }
/// # }
/// use qi_tablebase::partition::join_partitions;
/// use qi_tablebase::Wdl;
///
/// // Two workers' directories: slots 0 and 2 in one, slot 1 in the other.
/// let (a, b) = (tempfile::tempdir()?, tempfile::tempdir()?);
/// part(0, vec![0, 1], vec![4, 0]).save(a.path())?;
/// let dirs = [a.path().to_path_buf(), b.path().to_path_buf()];
/// let rules = Rules::default();
/// let m = "1v1".parse()?;
/// assert!(join_partitions::<FiveTigers>(&rules, m, &dirs).is_err()); // 1 missing
/// part(1, vec![2], vec![5]).save(b.path())?;
/// let values = join_partitions::<FiveTigers>(&rules, m, &dirs)?;
/// assert_eq!(values.get(0), Some((Wdl::Loss, 4)));
/// assert_eq!(values.get(1), Some((Wdl::Win, 5)));
/// assert_eq!(values.get(2), Some((Wdl::Draw, 0)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn join_partitions<G: TableGame>(
    rules: &G::Rules,
    material: G::Material,
    dirs: &[PathBuf],
) -> Result<SliceValues, FormatError> {
    let Some((workers, paths)) = find_partitions::<G>(dirs, material)? else {
        let dirs: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        let found = format!("no partition of {material}");
        let expected = "the partition files of a cluster's run".to_string();
        return Err(mismatch(Path::new(&dirs.join(", ")), found, expected));
    };
    let mut parts = Vec::with_capacity(workers);
    let mut deal = None;
    for (owner, path) in paths.into_iter().enumerate() {
        let Some(path) = path else {
            let path = Partition::<G>::path(Path::new(""), material, owner, workers);
            let found = "no such file in any directory given".to_string();
            let expected = format!("partition {owner} of {workers} of {material}");
            return Err(mismatch(&path, found, expected));
        };
        let part = Partition::<G>::load(&path, rules)?;
        let info = &part.info;
        // Every partition is of partition 0's deal.
        let first = *deal.get_or_insert((info.slots, info.shift));
        info.expect(&path, material, owner, workers, first)?;
        parts.push((part.codes, part.distances));
    }
    let (slots, shift) = deal.unwrap_or((0, 0));
    Ok(join_parts(slots, shift, parts))
}

#[cfg(test)]
mod tests;
