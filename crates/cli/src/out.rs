//! Checked output. `println!` panics when stdout is a closed pipe or a
//! full disk; a command-line tool should instead stop: quietly when the
//! reader has gone (`qi perft --divide 5 | head -1`), with one line on
//! stderr and exit code [`EXIT_OUTPUT`] when the output cannot be written.

use std::fmt;
use std::io::{self, Write};

/// The exit code when the output could not be written (a full disk, a
/// closed terminal); a closed pipe ends the program with success instead.
pub const EXIT_OUTPUT: i32 = 3;

/// Writes one line to stdout and flushes it (a GUI reads the protocol
/// line by line); ends the process if that fails.
pub fn line(args: fmt::Arguments<'_>) {
    let mut stdout = io::stdout().lock();
    let written = stdout
        .write_fmt(args)
        .and_then(|()| stdout.write_all(b"\n"))
        .and_then(|()| stdout.flush());
    if let Err(e) = written {
        fail(&e);
    }
}

/// Writes text without a newline (a prompt, a styled board) and flushes.
pub fn text(args: fmt::Arguments<'_>) {
    let mut stdout = anstream::stdout().lock();
    let written = stdout.write_fmt(args).and_then(|()| stdout.flush());
    if let Err(e) = written {
        fail(&e);
    }
}

/// Ends the process after a failed write.
pub fn fail(e: &io::Error) -> ! {
    if e.kind() != io::ErrorKind::BrokenPipe {
        // Nothing but stderr is left to tell the user; if it fails too,
        // the exit code still does.
        let _ = writeln!(io::stderr(), "qi: error: cannot write the output: {e}");
        std::process::exit(EXIT_OUTPUT);
    }
    std::process::exit(0);
}

/// Catches the panic of a `println!` that could not write (code that
/// does not write through this module yet) and ends the process as
/// [`fail`] does, instead of a panic message and an abort.
pub fn install_panic_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = panic_message(info);
        if let Some(reason) = message.strip_prefix("failed printing to stdout: ") {
            if reason.starts_with("Broken pipe") {
                std::process::exit(0);
            }
            let _ = writeln!(io::stderr(), "qi: error: cannot write the output: {reason}");
            std::process::exit(EXIT_OUTPUT);
        }
        if message.starts_with("failed printing to stderr") {
            // The error has nowhere to go; the exit code still tells.
            std::process::exit(EXIT_OUTPUT);
        }
        default(info);
    }));
}

/// The text a panic was given (empty for a payload of another type).
pub fn panic_message<'a>(info: &'a std::panic::PanicHookInfo<'_>) -> &'a str {
    info.payload()
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| info.payload().downcast_ref::<&str>().copied())
        .unwrap_or_default()
}

/// `println!` through [`line()`].
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::out::line(format_args!($($arg)*))
    };
}
pub(crate) use outln;
