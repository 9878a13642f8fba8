//! What a generation is checked against before any work: the machine's
//! memory and the free room on disk.

use crate::error::CliError;

/// Refuses, before any work, a generation in one process whose largest
/// table to make, `material`, needs more working memory (`needed` bytes,
/// the plan's) than the machine has: it could only end, maybe hours in, in the
/// kernel's out-of-memory kill (`shandong`'s `4v4` in core needs tens of
/// gigabytes). The machine's memory is `MemTotal` of `/proc/meminfo`, or
/// `QI_TB_MEMORY` (bytes) when set; where neither can be read nothing is
/// checked.
pub(super) fn check_memory(material: impl std::fmt::Display, needed: u64) -> Result<(), CliError> {
    match machine_memory()? {
        Some(memory) if needed > memory => Err(CliError::Usage(format!(
            "the table {material} needs about {:.1} GB of working memory to generate, more than \
             the {:.1} GB of this machine (docs/tablebases.md): ask for fewer pieces (--pieces, \
             --material)",
            needed as f64 / 1e9,
            memory as f64 / 1e9
        ))),
        _ => Ok(()),
    }
}

/// Refuses, before any work, a generation whose new files (`needed`
/// bytes) do not fit in the free room of `dir`'s file system: a disk that
/// fills shows only when a write fails, maybe hours in. The free room is
/// the file system's (statvfs, as the out-of-core Five Tigers generator
/// asks), or `QI_TB_DISK` (bytes) when set; where neither can be read
/// nothing is checked.
pub(super) fn check_disk(dir: &std::path::Path, needed: u64) -> Result<(), CliError> {
    let free = match std::env::var("QI_TB_DISK") {
        Ok(text) => Some(text.trim().parse::<u64>().map_err(|_| {
            CliError::Usage(format!(
                "bad QI_TB_DISK '{text}': the free room on disk in bytes, e.g. 20000000000"
            ))
        })?),
        Err(_) => qi_tablebase::free_bytes(dir),
    };
    match free {
        Some(free) if free < needed => Err(CliError::Usage(format!(
            "the tables to generate need about {:.1} MB of disk for their files, {:.1} MB are \
             free in {}: free some room or ask for fewer pieces (--pieces, --material)",
            needed as f64 / 1e6,
            free as f64 / 1e6,
            dir.display()
        ))),
        _ => Ok(()),
    }
}

/// The machine's memory in bytes (see [`check_memory`]).
pub(super) fn machine_memory() -> Result<Option<u64>, CliError> {
    if let Ok(text) = std::env::var("QI_TB_MEMORY") {
        return text.trim().parse().map(Some).map_err(|_| {
            CliError::Usage(format!(
                "bad QI_TB_MEMORY '{text}': the machine's memory in bytes, e.g. 25000000000"
            ))
        });
    }
    let total = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        });
    Ok(total.map(|kib| kib * 1024))
}
