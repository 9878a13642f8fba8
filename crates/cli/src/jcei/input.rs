//! Protocol input, read on a thread of its own so the session can answer
//! `isready`, `stop` and `quit` while it searches, in lines of bounded
//! length so no input can grow memory without bound.

use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc::{self, Receiver};
use std::thread;

/// The longest line read; the rest of a longer line is skipped unread
/// into memory. No command needs more than a few kilobytes (a
/// `position ... moves` line of a 10 000-ply game is 50 KiB).
pub const MAX_LINE: usize = 1 << 20;

/// One line of input, or why it is not one.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    /// A line of text, without its line ending.
    Line(String),
    /// A line that is not UTF-8.
    NotUtf8,
    /// A line longer than [`MAX_LINE`] bytes.
    TooLong,
    /// The input ended (or could not be read).
    End,
}

/// Reads `source` on a new thread, line by line, until it ends or the
/// receiver is dropped.
pub fn spawn(source: impl Read + Send + 'static) -> Receiver<Input> {
    let (send, receive) = mpsc::channel();
    thread::spawn(move || {
        let mut reader = BufReader::new(source);
        loop {
            let input = read_line(&mut reader).unwrap_or(Input::End);
            let end = input == Input::End;
            if send.send(input).is_err() || end {
                break;
            }
        }
    });
    receive
}

/// Reads one line, keeping at most [`MAX_LINE`] bytes of it.
pub fn read_line(reader: &mut impl BufRead) -> std::io::Result<Input> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            if line.is_empty() && !too_long {
                return Ok(Input::End);
            }
            break;
        }
        let newline = available.iter().position(|&b| b == b'\n');
        let part = &available[..newline.unwrap_or(available.len())];
        if line.len() + part.len() > MAX_LINE {
            too_long = true;
            line = Vec::new();
        } else if !too_long {
            line.extend_from_slice(part);
        }
        let used = newline.map_or(available.len(), |at| at + 1);
        reader.consume(used);
        if newline.is_some() {
            break;
        }
    }
    if too_long {
        return Ok(Input::TooLong);
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(String::from_utf8(line).map_or(Input::NotUtf8, Input::Line))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<Input> {
        let mut reader = BufReader::with_capacity(64, bytes);
        let mut out = Vec::new();
        loop {
            let input = read_line(&mut reader).unwrap();
            if input == Input::End {
                return out;
            }
            out.push(input);
        }
    }

    #[test]
    fn splits_lines_and_flags_bad_ones() {
        let mut bytes = b"isready\r\ngo\n\xff\xfe\n".to_vec();
        bytes.extend(std::iter::repeat_n(b'x', MAX_LINE + 1));
        bytes.extend_from_slice(b"\nquit");
        assert_eq!(
            lines(&bytes),
            [
                Input::Line("isready".into()),
                Input::Line("go".into()),
                Input::NotUtf8,
                Input::TooLong,
                Input::Line("quit".into()),
            ]
        );
        let exact = vec![b'y'; MAX_LINE];
        assert_eq!(lines(&exact), [Input::Line("y".repeat(MAX_LINE))]);
    }
}
