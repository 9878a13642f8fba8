//! The one table of every table file this build reads and writes: a
//! (game, version) pair in a file's header names its layout and what
//! numbers its slots. A version means one thing per game (Five Tigers'
//! `2` is a blocked file over the dense index, Jungle's `2` a keyed file
//! over the mirror-halved ranking), so every reader asks [`format_of`],
//! and every writer [`version_of`], never a number of its own.

/// What numbers a file's slots: how a reader finds a position's slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotIndex {
    /// Jungle: the mirror-halved ranking of placements (a formula, no key
    /// stored).
    JungleRank,
    /// Five Tigers: the sorted canonical keys of the stored states, 8 bytes
    /// each in the file.
    FiveTigersKeys,
    /// Five Tigers under `shuttle = allowed`: the dense index (a formula).
    FiveTigersDense,
    /// Five Tigers under `shuttle = forbidden`: the cells of the ban index
    /// (a formula).
    FiveTigersDenseBan,
}

/// How a file's bytes after the header are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// One checksum over the whole file; then `key_bytes` a slot of index,
    /// the packed values, the distances (`format`).
    Keyed {
        /// Bytes of index a slot (0 for a formula).
        key_bytes: u64,
    },
    /// Values and distances in blocks with a checksum each, read a block at
    /// a time (`blocked`).
    Blocked,
}

/// One file format: a game's version, its layout and its slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Format {
    /// The game name in the header.
    pub(crate) game: &'static str,
    /// The version in the header.
    pub(crate) version: u16,
    /// What numbers the slots.
    pub(crate) index: SlotIndex,
    /// How the bytes are laid out.
    pub(crate) layout: Layout,
}

/// Every format this build reads and writes. Jungle's version 1 (both
/// mirror images stored) is no longer read.
const FORMATS: [Format; 4] = [
    Format {
        game: "jungle",
        version: 2,
        index: SlotIndex::JungleRank,
        layout: Layout::Keyed { key_bytes: 0 },
    },
    Format {
        game: "five-tigers",
        version: 1,
        index: SlotIndex::FiveTigersKeys,
        layout: Layout::Keyed { key_bytes: 8 },
    },
    Format {
        game: "five-tigers",
        version: 2,
        index: SlotIndex::FiveTigersDense,
        layout: Layout::Blocked,
    },
    Format {
        game: "five-tigers",
        version: 3,
        index: SlotIndex::FiveTigersDenseBan,
        layout: Layout::Blocked,
    },
];

/// The format of a file of `game` whose header says `version`, `None` if
/// this build has none.
pub(crate) fn format_of(game: &str, version: u16) -> Option<Format> {
    FORMATS
        .into_iter()
        .find(|f| f.game == game && f.version == version)
}

/// The format a table whose slots `index` numbers is written in.
pub(crate) const fn format_for(index: SlotIndex) -> Format {
    let mut i = 0;
    while i < FORMATS.len() {
        if FORMATS[i].index as u8 == index as u8 {
            return FORMATS[i];
        }
        i += 1;
    }
    panic!("every slot index has a format in FORMATS")
}

/// The version a table whose slots `index` numbers is written as.
pub const fn version_of(index: SlotIndex) -> u16 {
    format_for(index).version
}

/// The keyed format of `game`: what a file whose version names no format
/// of the game is read as (so that its error says what is wrong: another
/// game, another version), `None` for a game with none.
pub(crate) fn keyed_format(game: &str) -> Option<Format> {
    FORMATS
        .into_iter()
        .find(|f| f.game == game && matches!(f.layout, Layout::Keyed { .. }))
}

/// The newest version of `game` (what an error in one of its files
/// names).
pub(crate) fn newest_version(game: &str) -> u16 {
    FORMATS
        .iter()
        .filter(|f| f.game == game)
        .map(|f| f.version)
        .max()
        .unwrap_or(0)
}

/// The formats of `game` as one line: `five-tigers 1 (blocked [2, 3])`,
/// what the processes of a cluster compare before they start.
///
/// ```
/// assert_eq!(qi_tablebase::format_line("five-tigers"), "five-tigers 1 (blocked [2, 3])");
/// assert_eq!(qi_tablebase::format_line("jungle"), "jungle 2 (blocked [])");
/// ```
pub fn format_line(game: &str) -> String {
    let keyed = keyed_format(game).map_or(0, |f| f.version);
    let blocked: Vec<u16> = FORMATS
        .iter()
        .filter(|f| f.game == game && f.layout == Layout::Blocked)
        .map(|f| f.version)
        .collect();
    format!("{game} {keyed} (blocked {blocked:?})")
}

#[cfg(test)]
mod tests;
