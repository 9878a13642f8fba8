//! The file of one table, for every game (`docs/tablebases.md`, "File
//! format"). The version in a file's header names its format in the one
//! table of formats (`versions`): the keyed layout below, or the blocked
//! one (`blocked`, read a block at a time by a probe) for a table whose
//! slots are a formula's. The keyed layout, all numbers little-endian:
//!
//! | field | bytes |
//! |---|---|
//! | magic `QITB\r\n\x1a\n` | 8 |
//! | format version (`versions`: Jungle 2, Five Tigers 1) | 2 |
//! | game name length, game name (`jungle`, `five-tigers`) | 1 + n |
//! | rules text length, rules text (the rules' display) | 2 + n |
//! | material text length, material text (`LCvE`, `3v2`) | 1 + n |
//! | slot count | 8 |
//! | distance width (1 or 2 bytes) | 1 |
//! | checksum: FNV-1a 64 of every other byte of the file | 8 |
//! | the index: the format's key bytes a slot (none for Jungle, the 8-byte canonical keys for Five Tigers) | count × k |
//! | values, 2 bits a slot, 4 a byte, lowest bits first | ⌈count / 4⌉ |
//! | distances, `width` bytes each | count × width |
//!
//! The header and payload are `container`'s; what the index bytes are is
//! the game's ([`TableGame::index_bytes`], [`TableGame::read_index`]).
//! Partition files of a cluster run are `partition`'s; writing a file
//! whole or not at all is `write`'s.

pub(crate) mod blocked;
pub(crate) mod container;
pub mod partition;
pub(crate) mod versions;
pub(crate) mod write;

use std::io;
use std::path::{Path, PathBuf};

pub use crate::error::{FileError, FormatError, Source};
use crate::game::table::Table;
use crate::game::TableGame;
use blocked::BlockedHeader;
use container::{Header, ReadFileError};
use versions::{Format, Layout, SlotIndex};

impl FormatError {
    /// `source` in a file of game `G`.
    pub(crate) fn file<G: TableGame>(source: FileError) -> FormatError {
        FormatError::File {
            game: G::NAME,
            version: versions::newest_version(G::NAME),
            source,
        }
    }
}

impl<G: TableGame> Table<G> {
    /// The table as file bytes, in the format of its index
    /// ([`TableGame::slot_index`], `format::versions`): blocked or keyed.
    ///
    /// ```
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::{Table, Tablebase};
    ///
    /// let rules = Rules::standard();
    /// let tb = Tablebase::<Jungle>::generate(&rules, &["LvC".parse()?], 1)?;
    /// let bytes = tb.table("LvC".parse()?).unwrap().to_bytes();
    /// let back = Table::<Jungle>::from_bytes(&bytes, Some(&rules))?;
    /// assert_eq!(back.to_bytes(), bytes);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        // Writing into memory cannot fail.
        if self.write_to(&mut out).is_err() {
            out.clear();
        }
        out
    }

    /// Writes the table's file to `w` (a blocked file block by block).
    fn write_to(&self, w: &mut dyn io::Write) -> io::Result<()> {
        let format = versions::format_for(G::slot_index(&self.index));
        let (rules, material) = (self.rules.to_string(), self.material.to_string());
        let header = Header {
            game: G::NAME,
            version: format.version,
            rules: &rules,
            material: &material,
            count: self.len,
            width: self.distances.width(),
        };
        if format.layout == Layout::Blocked {
            return blocked::write(w, &header, &self.values, &self.distances);
        }
        let index = G::index_bytes(&self.index);
        let mut distances = vec![0; self.distances.len() * usize::from(header.width)];
        self.distances.write_bytes(0, &mut distances);
        w.write_all(&container::write(
            &header,
            &[&index, &self.values, &distances],
        ))
    }

    /// Reads a table from file bytes, refusing anything not exactly as
    /// written by [`Table::to_bytes`] (see [`FormatError`]), keyed or
    /// blocked. With `expected` rules, a table of other board rules is
    /// refused too.
    ///
    /// ```
    /// use qi_games::jungle::{Jungle, Rules};
    /// use qi_tablebase::jungle::{Material, Table, Tablebase};
    ///
    /// let rules = Rules::standard();
    /// let m: Material = "LvC".parse()?;
    /// let tb = Tablebase::generate(&rules, &[m], 1)?;
    /// let bytes = tb.table(m).unwrap().to_bytes();
    /// assert_eq!(Table::from_bytes(&bytes, None)?, *tb.table(m).unwrap());
    /// assert!(Table::from_bytes(&bytes, Some(&Rules::datou())).is_err(), "other board rules");
    /// assert!(Table::from_bytes(&bytes[..bytes.len() - 1], None).is_err(), "cut short");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_bytes(bytes: &[u8], expected: Option<&G::Rules>) -> Result<Table<G>, FormatError> {
        let file = FormatError::file::<G>;
        let format = container::version_in(bytes).and_then(|v| versions::format_of(G::NAME, v));
        if let Some(format) = format.filter(|f| f.layout == Layout::Blocked) {
            let header = blocked::parse_header(bytes, G::NAME, format.version).map_err(file)?;
            let size = header
                .layout
                .file_size()
                .ok_or(file(FileError::Truncated))?;
            let len = bytes.len() as u64;
            if len < size {
                return Err(file(FileError::Truncated));
            }
            if len > size {
                return Err(file(FileError::TrailingBytes((len - size) as usize)));
            }
            let mut rest = &bytes[header.layout.header_len as usize..];
            let (values, distances) =
                blocked::read_blocks(&mut rest, &header.layout).map_err(|e| match e {
                    ReadFileError::File(e) => file(e),
                    ReadFileError::Io(_) => file(FileError::Truncated),
                })?;
            let (rules, material, index) = blocked_parts::<G>(&header, format.index, expected)?;
            return Ok(Table {
                material,
                rules,
                index,
                values,
                distances,
                len: header.layout.count,
            });
        }
        let (format, key_bytes) = keyed::<G>(format)?;
        let (header, mut r) = container::read(bytes, G::NAME, format.version).map_err(file)?;
        let (rules, material) = rules_and_material::<G>(header.rules, header.material, expected)?;
        let n = usize::try_from(header.count).map_err(|_| file(FileError::Truncated))?;
        let key_bytes = n
            .checked_mul(key_bytes as usize)
            .ok_or(file(FileError::Truncated))?;
        let keys = r.take(key_bytes).map_err(file)?;
        let index = G::read_index(material, &rules, format.index, header.count, keys)?;
        let values = r.values(n).map_err(file)?;
        let distances = r.distances(n, header.width).map_err(file)?;
        r.finish().map_err(file)?;
        Ok(Table {
            material,
            rules,
            index,
            values,
            distances,
            len: header.count,
        })
    }
}

/// The rules and material of a header's texts, refusing rules whose board
/// rules are not `expected`'s.
pub(crate) fn rules_and_material<G: TableGame>(
    rules: &str,
    material: &str,
    expected: Option<&G::Rules>,
) -> Result<(G::Rules, G::Material), FormatError> {
    let parsed: G::Rules = rules.parse().map_err(|source| FormatError::BadRules {
        text: rules.to_string(),
        source: Box::new(source),
    })?;
    if let Some(expected) = expected {
        if !G::same_board_rules(expected, &parsed) {
            return Err(FormatError::RulesMismatch {
                expected: expected.to_string(),
                found: parsed.to_string(),
                differs: G::RULES_DIFFER,
            });
        }
    }
    let material: G::Material = material
        .parse()
        .map_err(|e| FormatError::BadMaterial(Box::new(e)))?;
    Ok((parsed, material))
}

/// The keyed format a file of `G` found as `format` is read as, with its
/// bytes of index a slot: `format` if it is keyed, else the game's keyed
/// format (whose reader names what is wrong: another game, another
/// version).
fn keyed<G: TableGame>(format: Option<Format>) -> Result<(Format, u64), FormatError> {
    match format.or_else(|| versions::keyed_format(G::NAME)) {
        Some(
            f @ Format {
                layout: Layout::Keyed { key_bytes },
                ..
            },
        ) => Ok((f, key_bytes)),
        _ => Err(FormatError::file::<G>(FileError::UnsupportedVersion(
            format.map_or(0, |f| f.version),
        ))),
    }
}

/// A table's rules, material and index.
type Parts<G> = (
    <G as TableGame>::Rules,
    <G as TableGame>::Material,
    <G as TableGame>::Index,
);

/// The rules, material and index of a blocked file of `G` whose header
/// is `header` (its format's index `slots`), refusing rules whose board
/// rules are not `expected`'s.
fn blocked_parts<G: TableGame>(
    header: &BlockedHeader,
    slots: SlotIndex,
    expected: Option<&G::Rules>,
) -> Result<Parts<G>, FormatError> {
    let (rules, material) = rules_and_material::<G>(&header.rules, &header.material, expected)?;
    let index = G::read_index(material, &rules, slots, header.layout.count, &[])?;
    Ok((rules, material, index))
}

/// A blocked table file of `G` opened ([`open_blocked`]), positioned at
/// its first block.
pub(crate) struct OpenBlocked<G: TableGame> {
    pub(crate) file: std::fs::File,
    pub(crate) layout: blocked::Layout,
    pub(crate) rules: G::Rules,
    pub(crate) material: G::Material,
    pub(crate) index: G::Index,
}

/// Opens the file at `path` if it is one of `G`'s blocked ones (`None`,
/// nothing read, if not), checked as [`load_table`] checks it: its header
/// and size, its board rules against `rules`, its material against its
/// name. Its blocks are the caller's to read.
pub(crate) fn open_blocked<G: TableGame>(
    path: &Path,
    rules: &G::Rules,
) -> Result<Option<OpenBlocked<G>>, FormatError> {
    let Some(format) = blocked_format::<G>(path) else {
        return Ok(None);
    };
    let (file, header) =
        blocked::open(path, G::NAME, format.version).map_err(|e| read_error::<G>(path, e))?;
    let (rules, material, index) = blocked_parts::<G>(&header, format.index, Some(rules))?;
    check_name::<G>(path, material)?;
    Ok(Some(OpenBlocked {
        file,
        layout: header.layout,
        rules,
        material,
        index,
    }))
}

/// The format of the file at `path` if its version names one of `G`'s
/// blocked formats (nothing past the version read, nothing checked).
pub(crate) fn blocked_format<G: TableGame>(path: &Path) -> Option<Format> {
    let format = blocked::peek_version(path).and_then(|v| versions::format_of(G::NAME, v));
    format.filter(|f| f.layout == Layout::Blocked)
}

/// The path of the file of `material` in `dir`: `dir/LCvE.qtb`,
/// `dir/3v2.qft` ([`Tablebase::file_path`](crate::Tablebase::file_path)).
pub(crate) fn file_path<G: TableGame>(dir: &Path, material: G::Material) -> PathBuf {
    dir.join(format!("{material}.{}", G::EXTENSION))
}

/// Writes `table` to its file in `dir` (through a temporary file renamed
/// into place, so that a file present is complete).
///
/// ```
/// use qi_games::jungle::{Jungle, Rules};
/// use qi_tablebase::{check_table_file, load_table, save_table, Tablebase};
///
/// let rules = Rules::standard();
/// let m = "LvC".parse()?;
/// let tb = Tablebase::<Jungle>::generate(&rules, &[m], 1)?;
/// let dir = tempfile::tempdir()?;
/// save_table(dir.path(), tb.table(m).unwrap())?;
/// let path = Tablebase::<Jungle>::file_path(dir.path(), m);
/// assert_eq!(check_table_file::<Jungle>(&path, &rules)?, m);
/// let table = load_table::<Jungle>(&path, &rules)?;
/// assert_eq!(table.to_bytes(), tb.table(m).unwrap().to_bytes());
/// // Tables of other board rules are refused.
/// assert!(load_table::<Jungle>(&path, &Rules::datou()).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn save_table<G: TableGame>(dir: &Path, table: &Table<G>) -> Result<(), FormatError> {
    let path = file_path::<G>(dir, table.material);
    write::write_atomically_with(&path, &mut |w| table.write_to(w))
        .map_err(|source| FormatError::io(&path, source))
}

/// The error of reading the file at `path`.
pub(crate) fn read_error<G: TableGame>(path: &Path, e: ReadFileError) -> FormatError {
    match e {
        ReadFileError::Io(source) => FormatError::io(path, source),
        ReadFileError::File(e) => FormatError::file::<G>(e),
    }
}

/// Reads the table file at `path` (keyed or blocked), refusing it if it is
/// corrupt, holds another material than its name says or was made under
/// other board rules than `rules`.
///
/// ```
/// use qi_games::jungle::{Jungle, Rules};
/// use qi_tablebase::jungle::{Material, Table, Tablebase};
///
/// let rules = Rules::standard();
/// let m: Material = "LvC".parse()?;
/// let tb = Tablebase::generate(&rules, &[m], 1)?;
/// let dir = tempfile::tempdir()?;
/// tb.save_dir(dir.path())?;
/// let path = Tablebase::file_path(dir.path(), m);
/// let table: Table = qi_tablebase::load_table(&path, &rules)?;
/// assert_eq!(Some(&table), tb.table(m));
/// // A file named for another material is refused.
/// std::fs::rename(&path, Tablebase::file_path(dir.path(), "LvE".parse()?))?;
/// let renamed = qi_tablebase::load_table::<Jungle>(&Tablebase::file_path(dir.path(), "LvE".parse()?), &rules);
/// assert!(renamed.is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn load_table<G: TableGame>(path: &Path, rules: &G::Rules) -> Result<Table<G>, FormatError> {
    if let Some(mut b) = open_blocked::<G>(path, rules)? {
        let (values, distances) =
            blocked::read_blocks(&mut b.file, &b.layout).map_err(|e| read_error::<G>(path, e))?;
        return Ok(Table {
            material: b.material,
            rules: b.rules,
            index: b.index,
            values,
            distances,
            len: b.layout.count,
        });
    }
    let found = blocked::peek_version(path).and_then(|v| versions::format_of(G::NAME, v));
    let (format, key_bytes) = keyed::<G>(found)?;
    let bytes = container::read_file(path, G::NAME, format.version, key_bytes)
        .map_err(|e| read_error::<G>(path, e))?;
    let table = Table::<G>::from_bytes(&bytes, Some(rules))?;
    check_name::<G>(path, table.material)?;
    Ok(table)
}

/// Checks the table file at `path` as [`load_table`] would read it (every
/// block's checksum, its material, its board rules against `rules`)
/// without keeping it: a blocked file is read a block at a time, so a
/// file larger than memory is checked too. Its material.
///
/// ```
/// use qi_games::jungle::{Jungle, Rules};
/// use qi_tablebase::jungle::{Material, Table, Tablebase};
///
/// let rules = Rules::standard();
/// let m: Material = "LvC".parse()?;
/// let tb = Tablebase::generate(&rules, &[m], 1)?;
/// let dir = tempfile::tempdir()?;
/// tb.save_dir(dir.path())?;
/// let path = Tablebase::file_path(dir.path(), m);
/// assert_eq!(qi_tablebase::check_table_file::<Jungle>(&path, &rules)?, m);
/// let mut bytes = std::fs::read(&path)?;
/// let last = bytes.len() - 1;
/// bytes[last] ^= 1;
/// std::fs::write(&path, bytes)?;
/// assert!(qi_tablebase::check_table_file::<Jungle>(&path, &rules).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_table_file<G: TableGame>(
    path: &Path,
    rules: &G::Rules,
) -> Result<G::Material, FormatError> {
    match for_each_block::<G>(path, rules, |_, _, _, _, _| {})? {
        Some(material) => Ok(material),
        None => Ok(load_table::<G>(path, rules)?.material),
    }
}

/// Opens the blocked table file at `path` as [`load_table`] would (its
/// header, material, name and board rules against `rules`) and hands
/// `each` its index, layout and every block, checked, in order (number,
/// values, distance bytes), keeping none; its material, or `None` with
/// nothing read if the file is not a blocked one.
pub(crate) fn for_each_block<G: TableGame>(
    path: &Path,
    rules: &G::Rules,
    mut each: impl FnMut(&G::Index, &blocked::Layout, u64, &[u8], &[u8]),
) -> Result<Option<G::Material>, FormatError> {
    let Some(b) = open_blocked::<G>(path, rules)? else {
        return Ok(None);
    };
    let mut reader = std::io::BufReader::with_capacity(1 << 20, b.file);
    blocked::each_block(&mut reader, &b.layout, |k, v, d| {
        each(&b.index, &b.layout, k, v, d)
    })
    .map_err(|e| read_error::<G>(path, e))?;
    Ok(Some(b.material))
}

/// Refuses a file whose name is not its material's.
pub(crate) fn check_name<G: TableGame>(
    path: &Path,
    material: G::Material,
) -> Result<(), FormatError> {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if stem.parse::<G::Material>().ok() != Some(material) {
        return Err(FormatError::MaterialMismatch {
            path: path.display().to_string(),
            found: material.to_string(),
        });
    }
    Ok(())
}
