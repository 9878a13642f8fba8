//! The JCEI engine protocol's commands, read from text lines
//! (UCI-like; docs/protocol.md).

use std::time::Duration;

use thiserror::Error;

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `jcei` or `uci`: identify and list options.
    Jcei,
    /// `isready`.
    IsReady,
    /// `newgame` (also `ucinewgame`).
    NewGame,
    /// `position startpos|fen TEXT [moves m1 m2 ...]`.
    Position {
        /// The position text, or `None` for the start position.
        fen: Option<String>,
        /// Moves to play from it, as text.
        moves: Vec<String>,
    },
    /// `go ...`.
    Go(GoLimits),
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
    /// `setoption name NAME [value VALUE]`.
    SetOption {
        /// The option name (may contain spaces).
        name: String,
        /// The value, if given.
        value: Option<String>,
    },
    /// `d`: show the board.
    Display,
    /// `perft N`.
    Perft(u32),
    /// `moves`: list the legal moves.
    Moves,
    /// `eval`: show the static evaluation.
    Eval,
}

/// The limits of a `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
    /// `depth N`.
    pub depth: Option<u32>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `movetime MS`.
    pub movetime: Option<Duration>,
    /// `wtime MS` (Red's / first player's clock).
    pub wtime: Option<Duration>,
    /// `btime MS` (Blue's / second player's clock).
    pub btime: Option<Duration>,
    /// `winc MS`.
    pub winc: Option<Duration>,
    /// `binc MS`.
    pub binc: Option<Duration>,
    /// `movestogo N`.
    pub movestogo: Option<u32>,
    /// `infinite`.
    pub infinite: bool,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    /// The line was blank.
    #[error("empty line")]
    Empty,
    /// The first word is no command.
    #[error("unknown command '{}'", qi_core::Escaped(.0))]
    Unknown(String),
    /// A command's arguments are malformed.
    #[error("{command}: {reason}")]
    Malformed {
        /// The command word.
        command: &'static str,
        /// What was wrong.
        reason: String,
    },
}

fn malformed(command: &'static str, reason: impl Into<String>) -> ParseError {
    ParseError::Malformed {
        command,
        reason: reason.into(),
    }
}

/// Reads one protocol line.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = words.split_first() else {
        return Err(ParseError::Empty);
    };
    match head {
        "jcei" | "uci" => Ok(Command::Jcei),
        "isready" => Ok(Command::IsReady),
        "newgame" | "ucinewgame" => Ok(Command::NewGame),
        "stop" => Ok(Command::Stop),
        "quit" => Ok(Command::Quit),
        "d" => Ok(Command::Display),
        "moves" => Ok(Command::Moves),
        "eval" => Ok(Command::Eval),
        "perft" => match rest {
            [n] => n
                .parse()
                .map(Command::Perft)
                .map_err(|_| malformed("perft", format!("bad depth '{}'", qi_core::Escaped(n)))),
            _ => Err(malformed("perft", "expected 'perft N'")),
        },
        "position" => parse_position(rest),
        "go" => parse_go(rest).map(Command::Go),
        "setoption" => parse_setoption(rest),
        other => Err(ParseError::Unknown(other.to_string())),
    }
}

fn parse_position(words: &[&str]) -> Result<Command, ParseError> {
    let moves_at = words.iter().position(|&w| w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let fen = match setup {
        ["startpos"] => None,
        ["fen", fields @ ..] if !fields.is_empty() => Some(fields.join(" ")),
        ["fen"] => return Err(malformed("position", "missing text after 'fen'")),
        _ => {
            return Err(malformed(
                "position",
                "expected 'position startpos|fen TEXT [moves ...]'",
            ))
        }
    };
    Ok(Command::Position {
        fen,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

fn parse_go(words: &[&str]) -> Result<GoLimits, ParseError> {
    let mut limits = GoLimits::default();
    let mut iter = words.iter();
    while let Some(&word) = iter.next() {
        if word == "infinite" {
            limits.infinite = true;
            continue;
        }
        let value = iter.next().ok_or_else(|| {
            malformed("go", format!("'{}' needs a value", qi_core::Escaped(word)))
        })?;
        let number: u64 = value.parse().map_err(|_| {
            malformed(
                "go",
                format!(
                    "'{}' takes a whole number, not '{}'",
                    qi_core::Escaped(word),
                    qi_core::Escaped(value)
                ),
            )
        })?;
        let ms = Duration::from_millis(number);
        match word {
            "depth" => limits.depth = Some(number.min(u32::MAX as u64) as u32),
            "nodes" => limits.nodes = Some(number),
            "movetime" => limits.movetime = Some(ms),
            "wtime" => limits.wtime = Some(ms),
            "btime" => limits.btime = Some(ms),
            "winc" => limits.winc = Some(ms),
            "binc" => limits.binc = Some(ms),
            "movestogo" => limits.movestogo = Some(number.min(u32::MAX as u64) as u32),
            _ => {
                return Err(malformed(
                    "go",
                    format!("unknown limit '{}'", qi_core::Escaped(word)),
                ))
            }
        }
    }
    Ok(limits)
}

fn parse_setoption(words: &[&str]) -> Result<Command, ParseError> {
    let ["name", rest @ ..] = words else {
        return Err(malformed(
            "setoption",
            "expected 'setoption name NAME [value V]'",
        ));
    };
    let value_at = rest.iter().position(|&w| w == "value");
    let (name, value) = match value_at {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(malformed("setoption", "missing option name"));
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_gui_commands() {
        assert_eq!(parse("jcei"), Ok(Command::Jcei));
        assert_eq!(parse("uci"), Ok(Command::Jcei));
        assert_eq!(parse("  isready "), Ok(Command::IsReady));
        assert_eq!(
            parse("position startpos moves a3a4 a7a6"),
            Ok(Command::Position {
                fen: None,
                moves: vec!["a3a4".into(), "a7a6".into()]
            })
        );
        assert_eq!(
            parse("position fen l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1"),
            Ok(Command::Position {
                fen: Some("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1".into()),
                moves: vec![]
            })
        );
        let Ok(Command::Go(go)) = parse("go wtime 1000 btime 2000 winc 10 binc 20") else {
            panic!("go not parsed")
        };
        assert_eq!(go.btime, Some(Duration::from_millis(2000)));
        assert_eq!(go.winc, Some(Duration::from_millis(10)));
        assert_eq!(
            parse("go depth 7").map(|c| matches!(c, Command::Go(GoLimits { depth: Some(7), .. }))),
            Ok(true)
        );
        assert_eq!(
            parse("setoption name Variant value five-tigers:ten"),
            Ok(Command::SetOption {
                name: "Variant".into(),
                value: Some("five-tigers:ten".into())
            })
        );
        assert_eq!(parse("perft 3"), Ok(Command::Perft(3)));
    }

    #[test]
    fn explains_bad_lines() {
        assert_eq!(parse(""), Err(ParseError::Empty));
        assert!(matches!(parse("fly"), Err(ParseError::Unknown(w)) if w == "fly"));
        // The word is the user's: its control characters are escaped, as in
        // every other error, never sent raw to a terminal.
        let e = parse("fo\x1b[2J\0o").unwrap_err().to_string();
        assert_eq!(e, "unknown command 'fo\\u{1b}[2J\\u{0}o'");
        assert!(parse("go depth").is_err());
        assert!(parse("go depth x").is_err());
        assert!(parse("go sideways 3").is_err());
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("perft x").is_err());
        assert!(parse("setoption Hash 3").is_err());
    }
}
