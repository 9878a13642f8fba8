//! SIGINT and SIGTERM during `qi match`: every engine runs in a process
//! group of its own (so that a hung engine's children die with it), which
//! also means the terminal's Ctrl-C does not reach them and nothing kills
//! them when `qi match` dies. So `qi match` catches both signals: the
//! match is told to stop, every engine's group is killed at once (a game
//! waiting for a hung engine then ends at once too), the games already
//! finished are kept and the summary printed, and the exit status is
//! 128 + the signal's number, as a shell reports a process the signal
//! ended.
//!
//! The engines register their group here when they start and leave when
//! they are gone; an engine that starts after the signal is killed at once.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Mutex;

/// Raised by a signal (or by the match itself, on a write failure): the
/// games in progress are abandoned and no new one starts.
pub static STOP: AtomicBool = AtomicBool::new(false);

/// The signal that came, 0 while none did.
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The process groups of the engines running now.
static GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Catches SIGINT and SIGTERM from now on (once per process: later calls
/// do nothing).
#[cfg(unix)]
pub fn install() -> std::io::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return Ok(());
    }
    let mut signals = Signals::new([SIGINT, SIGTERM])?;
    std::thread::spawn(move || {
        for signal in signals.forever() {
            // The first signal is the one reported; a second one (an
            // impatient Ctrl-C) only kills again what started since.
            let _ = SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
            STOP.store(true, Ordering::SeqCst);
            for &group in groups().iter() {
                kill_group(group);
            }
        }
    });
    Ok(())
}

/// Without Unix signals there is nothing to catch.
#[cfg(not(unix))]
pub fn install() -> std::io::Result<()> {
    Ok(())
}

/// The signal that interrupted the match, if one did.
pub fn signal() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// The signal's name as the shell writes it.
pub fn signal_name(signal: i32) -> String {
    #[cfg(unix)]
    if let Ok(known) = nix::sys::signal::Signal::try_from(signal) {
        return known.as_str().to_string();
    }
    format!("signal {signal}")
}

/// Records the process group `group` of an engine that has just started;
/// `false` (and the group killed) when the match was interrupted already.
pub fn register(group: u32) -> bool {
    let mut groups = groups();
    if signal().is_some() {
        drop(groups);
        kill_group(group);
        return false;
    }
    groups.push(group);
    true
}

/// Forgets the group of an engine that is gone.
pub fn unregister(group: u32) {
    groups().retain(|&g| g != group);
}

fn groups() -> std::sync::MutexGuard<'static, Vec<u32>> {
    // A list of numbers: a panic while it was held leaves it sound.
    GROUPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills every process of the process group `group`.
#[cfg(unix)]
pub fn kill_group(group: u32) {
    use nix::sys::signal::{killpg, Signal};
    use nix::unistd::Pid;
    let Ok(pgid) = i32::try_from(group) else {
        return;
    };
    // An empty group (all gone already) is the normal case, not an error.
    let _ = killpg(Pid::from_raw(pgid), Signal::SIGKILL);
}

/// Without process groups there is no group to kill.
#[cfg(not(unix))]
pub fn kill_group(_group: u32) {}
