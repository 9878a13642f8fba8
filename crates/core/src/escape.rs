//! Echoing user input in error messages without letting it act on the
//! terminal: a control character (an escape sequence, a carriage return, a
//! NUL) in a bad move or position text would otherwise be written raw to the
//! user's screen or log.

use core::fmt::{self, Display, Write};

/// User text made safe to echo: control characters are written as Rust
/// escapes (`\u{1b}`, `\n`, `\t`), everything else as it is.
///
/// Every error of the qi crates that repeats the user's input shows it
/// through this wrapper.
///
/// ```
/// use qi_core::Escaped;
///
/// assert_eq!(Escaped("a3\u{1b}[2J").to_string(), "a3\\u{1b}[2J");
/// assert_eq!(Escaped("象 a3").to_string(), "象 a3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Escaped<'a>(pub &'a str);

impl Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
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
}
