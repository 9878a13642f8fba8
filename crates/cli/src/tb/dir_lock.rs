//! A `qi tb generate` or `qi tb join` whose directory another writer
//! holds waits for it:
//! the library refuses the run ([`GenerateDirError::Locked`]), and the
//! run is tried again once that writer is done.

use std::path::Path;

use qi_tablebase::{GenerateDirError, WriteLock};

use super::tb_error;
use crate::error::CliError;

/// `run` into `dir`, run again after waiting for the writer that holds
/// `dir` whenever it was refused for that (once said on stderr).
pub(super) fn waiting<T>(
    dir: &Path,
    mut run: impl FnMut() -> Result<T, GenerateDirError>,
) -> Result<T, CliError> {
    let mut said = false;
    loop {
        match run() {
            Err(GenerateDirError::Locked { .. }) => {
                if !said {
                    eprintln!(
                        "waiting for another qi tb generate or join to finish writing {}",
                        dir.display()
                    );
                    said = true;
                }
                // Taken once the other writer is done, and let go at
                // once: the run takes it again.
                drop(WriteLock::acquire(dir).map_err(tb_error)?);
            }
            done => return done.map_err(tb_error),
        }
    }
}
