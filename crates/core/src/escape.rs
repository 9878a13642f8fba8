//! Echoing user input in error messages without letting it act on the
//! terminal: a control character (an escape sequence, a carriage return, a
//! NUL) in a bad move or position text would otherwise be written raw to the
//! user's screen or log, and a long input (a megabyte of position text)
//! would make the message as long.

use core::fmt::{self, Display, Write};

/// User text made safe to echo: control characters are written as Rust
/// escapes (`\u{1b}`, `\n`, `\t`), everything else as it is, and only
/// the first [`MAX_ECHO`] characters, followed by `…` when there are more.
///
/// Every error of the qi crates that repeats the user's input shows it
/// through this wrapper.
///
/// ```
/// use qi_core::Escaped;
///
/// assert_eq!(Escaped("a3\u{1b}[2J").to_string(), "a3\\u{1b}[2J");
/// assert_eq!(Escaped("象 a3").to_string(), "象 a3");
/// let long = "x".repeat(10_000);
/// assert_eq!(Escaped(&long).to_string(), format!("{}…", &long[..qi_core::MAX_ECHO]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Escaped<'a>(pub &'a str);

/// The most characters of an input an error message repeats.
pub const MAX_ECHO: usize = 80;

impl Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.0.chars().enumerate() {
            if i == MAX_ECHO {
                return f.write_char('…');
            }
            write_char(f, c)?;
        }
        Ok(())
    }
}

/// One character of user input made safe to echo, as [`Escaped`] does for
/// a text.
///
/// ```
/// use qi_core::EscapedChar;
///
/// assert_eq!(EscapedChar('\r').to_string(), "\\r");
/// assert_eq!(EscapedChar('x').to_string(), "x");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EscapedChar(pub char);

impl Display for EscapedChar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_char(f, self.0)
    }
}

fn write_char(f: &mut fmt::Formatter<'_>, c: char) -> fmt::Result {
    if c.is_control() {
        write!(f, "{}", c.escape_default())
    } else {
        f.write_char(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_others_kept() {
        assert_eq!(
            Escaped("\0x\u{7f}\u{9b}").to_string(),
            "\\u{0}x\\u{7f}\\u{9b}"
        );
        assert_eq!(
            Escaped("\"quoted\" 'text'").to_string(),
            "\"quoted\" 'text'"
        );
        assert_eq!(EscapedChar('\u{1b}').to_string(), "\\u{1b}");
    }

    #[test]
    fn long_input_is_cut_with_an_ellipsis() {
        let exact = "é".repeat(MAX_ECHO);
        assert_eq!(Escaped(&exact).to_string(), exact);
        let longer = format!("{exact}z");
        assert_eq!(Escaped(&longer).to_string(), format!("{exact}…"));
        assert_eq!(
            Escaped(&"x".repeat(1 << 20)).to_string().chars().count(),
            MAX_ECHO + 1
        );
    }
}
