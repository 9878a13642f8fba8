//! The reader of the record text: a cursor over characters that knows its
//! line and column, so that every fault is reported where it is.

use std::collections::HashSet;
use std::iter::Peekable;
use std::str::Chars;

use thiserror::Error;

use super::{Record, RecordMove, RecordResult, MAX_VARIATION_DEPTH};

/// Where and why record text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct ParseError {
    /// The line of the fault, from 1.
    pub line: usize,
    /// The column of the fault (in characters), from 1.
    pub column: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// The error as `{code: "record.syntax", fields: {line, column, error}}`,
/// `error` being the [`ParseErrorKind`]'s `{code, fields}`.
#[cfg(feature = "serde")]
impl serde::Serialize for ParseError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Fields<'a> {
            line: usize,
            column: usize,
            error: &'a ParseErrorKind,
        }
        #[derive(serde::Serialize)]
        struct Coded<'a> {
            code: &'static str,
            fields: Fields<'a>,
        }
        let fields = Fields {
            line: self.line,
            column: self.column,
            error: &self.kind,
        };
        Coded {
            code: "record.syntax",
            fields,
        }
        .serialize(s)
    }
}

/// What is wrong in record text. With the feature `serde` each variant
/// serialises as `{code, fields}` (`record-text.unterminated-tag`, ...).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "code", content = "fields")
)]
pub enum ParseErrorKind {
    /// A tag pair does not end with `"]` on its line.
    #[error("unterminated tag")]
    #[cfg_attr(feature = "serde", serde(rename = "record-text.unterminated-tag"))]
    UnterminatedTag,
    /// A tag pair is not `[Name "value"]`.
    #[error("malformed tag: {0}")]
    #[cfg_attr(feature = "serde", serde(rename = "record-text.bad-tag"))]
    BadTag(TagError),
    /// A tag appears twice.
    #[error("tag {} appears twice", qi_core::Escaped(.0))]
    #[cfg_attr(feature = "serde", serde(rename = "record-text.duplicate-tag"))]
    DuplicateTag(String),
    /// A tag pair after the move text began.
    #[error("a tag after the moves")]
    #[cfg_attr(feature = "serde", serde(rename = "record-text.tag-after-moves"))]
    TagAfterMoves,
    /// The `Result` tag holds no result.
    #[error("Result '{}' is not 1-0, 0-1, 1/2-1/2 or *", qi_core::Escaped(.0))]
    #[cfg_attr(feature = "serde", serde(rename = "record-text.bad-result"))]
    BadResult(String),
    /// A `{` without its `}`.
    #[error("unterminated comment")]
    #[cfg_attr(feature = "serde", serde(rename = "record-text.unterminated-comment"))]
    UnterminatedComment,
    /// A `}` without its `{`, or a `{` inside a comment.
    #[error("unbalanced brace")]
    #[cfg_attr(feature = "serde", serde(rename = "record-text.unbalanced-brace"))]
    UnbalancedBrace,
    /// A comment with no move before it, or a second comment on a move.
    #[error("a comment must follow a move, at most one per move")]
    #[cfg_attr(feature = "serde", serde(rename = "record-text.misplaced-comment"))]
    MisplacedComment,
    /// A `(` with no move before it for the variation to replace.
    #[error("a variation must follow a move")]
    #[cfg_attr(feature = "serde", serde(rename = "record-text.misplaced-variation"))]
    MisplacedVariation,
    /// A `(` without its `)` (the text or the record ended inside it).
    #[error("unterminated variation")]
    #[cfg_attr(
        feature = "serde",
        serde(rename = "record-text.unterminated-variation")
    )]
    UnterminatedVariation,
    /// A `)` without its `(`.
    #[error("unbalanced parenthesis")]
    #[cfg_attr(
        feature = "serde",
        serde(rename = "record-text.unbalanced-parenthesis")
    )]
    UnbalancedParenthesis,
    /// `()`: a variation of no move.
    #[error("a variation needs at least one move")]
    #[cfg_attr(feature = "serde", serde(rename = "record-text.empty-variation"))]
    EmptyVariation,
    /// Variations nested deeper than [`MAX_VARIATION_DEPTH`].
    #[error("variations nested more than {MAX_VARIATION_DEPTH} deep")]
    #[cfg_attr(feature = "serde", serde(rename = "record-text.variation-too-deep"))]
    VariationTooDeep,
    /// A token that cannot be move text.
    #[error("'{}' is not a move", qi_core::Escaped(.0))]
    #[cfg_attr(feature = "serde", serde(rename = "record-text.bad-move"))]
    BadMove(String),
    /// The result token differs from the `Result` tag.
    #[error("result {token} differs from the Result tag {tag}")]
    #[cfg_attr(feature = "serde", serde(rename = "record-text.result-mismatch"))]
    ResultMismatch {
        /// The token at the end of the moves.
        token: String,
        /// The tag's value.
        tag: String,
    },
    /// Text after the record's result where one record was expected.
    #[error("text after the result")]
    #[cfg_attr(feature = "serde", serde(rename = "record-text.trailing-text"))]
    TrailingText,
    /// No record at all.
    #[error("no record")]
    #[cfg_attr(feature = "serde", serde(rename = "record-text.empty"))]
    Empty,
}

/// Why a tag pair is not `[Name "value"]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(tag = "code", content = "fields")
)]
pub enum TagError {
    /// `[` is not followed by a name.
    #[error("a tag needs a name")]
    #[cfg_attr(feature = "serde", serde(rename = "record-tag.no-name"))]
    NoName,
    /// The value does not open with `"`.
    #[error("the value must be in double quotes")]
    #[cfg_attr(feature = "serde", serde(rename = "record-tag.unquoted"))]
    Unquoted,
    /// A backslash in the value before another character than `"` or `\`.
    #[error("only \\\" and \\\\ are escapes")]
    #[cfg_attr(feature = "serde", serde(rename = "record-tag.bad-escape"))]
    BadEscape,
    /// Something other than `]` after the value.
    #[error("expected ']' after the value")]
    #[cfg_attr(feature = "serde", serde(rename = "record-tag.unclosed"))]
    Unclosed,
}

struct Cursor<'a> {
    chars: Peekable<Chars<'a>>,
    line: usize,
    column: usize,
}

impl Cursor<'_> {
    fn new(text: &str) -> Cursor<'_> {
        // A byte-order mark some editors put at the start of a file is no
        // text: skipped, as PGN readers do.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Cursor {
            chars: text.chars().peekable(),
            line: 1,
            column: 1,
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.next();
        }
    }

    fn here(&self) -> (usize, usize) {
        (self.line, self.column)
    }

    fn error(&self, kind: ParseErrorKind) -> ParseError {
        error_at(self.here(), kind)
    }
}

fn error_at((line, column): (usize, usize), kind: ParseErrorKind) -> ParseError {
    ParseError { line, column, kind }
}

/// Reads exactly one record.
pub(super) fn read_one(text: &str) -> Result<Record, ParseError> {
    let mut cursor = Cursor::new(text);
    let record = read_record(&mut cursor)?.ok_or_else(|| cursor.error(ParseErrorKind::Empty))?;
    cursor.skip_space();
    if cursor.peek().is_some() {
        return Err(cursor.error(ParseErrorKind::TrailingText));
    }
    Ok(record)
}

/// Reads records until the text ends.
pub(super) fn read_all(text: &str) -> Result<Vec<Record>, ParseError> {
    let mut cursor = Cursor::new(text);
    let mut records = Vec::new();
    while let Some(record) = read_record(&mut cursor)? {
        records.push(record);
    }
    Ok(records)
}

/// Reads the next record, or `None` at the end of the text.
fn read_record(cursor: &mut Cursor<'_>) -> Result<Option<Record>, ParseError> {
    let mut record = Record::new();
    cursor.skip_space();
    if cursor.peek().is_none() {
        return Ok(None);
    }
    // The names seen, for the duplicate check: a search of the tags read
    // so far made a record of n tags take n² steps.
    let mut names = HashSet::new();
    while cursor.peek() == Some('[') {
        let at = cursor.here();
        let (name, value) = read_tag(cursor)?;
        if !names.insert(name.clone()) {
            return Err(error_at(at, ParseErrorKind::DuplicateTag(name)));
        }
        if name == "Result" && RecordResult::from_token(&value).is_none() {
            return Err(error_at(at, ParseErrorKind::BadResult(value)));
        }
        record.tags.push((name, value));
        cursor.skip_space();
    }
    // The lines being read: the main line, then each variation opened
    // and not yet closed inside the one before it.
    let mut lines: Vec<Vec<RecordMove>> = vec![Vec::new()];
    loop {
        cursor.skip_space();
        let at = cursor.here();
        let open = lines.len() > 1;
        match cursor.peek() {
            None if open => return Err(cursor.error(ParseErrorKind::UnterminatedVariation)),
            // Moves that end with the text and no result token are an
            // unfinished game (`*`), or the `Result` tag's result, as PGN
            // readers take them: a record copied without its last token
            // still loads.
            None => {
                record.moves = lines.pop().unwrap_or_default();
                return Ok(Some(record));
            }
            Some('[') => return Err(cursor.error(ParseErrorKind::TagAfterMoves)),
            Some('}') => return Err(cursor.error(ParseErrorKind::UnbalancedBrace)),
            Some('{') => {
                let comment = read_comment(cursor)?;
                match lines.last_mut().and_then(|line| line.last_mut()) {
                    Some(mv) if mv.comment.is_none() => mv.comment = Some(comment),
                    _ => return Err(error_at(at, ParseErrorKind::MisplacedComment)),
                }
            }
            Some('(') => {
                // A variation replaces the move before it.
                if lines.last().is_none_or(Vec::is_empty) {
                    return Err(cursor.error(ParseErrorKind::MisplacedVariation));
                }
                if lines.len() > MAX_VARIATION_DEPTH {
                    return Err(cursor.error(ParseErrorKind::VariationTooDeep));
                }
                cursor.next();
                lines.push(Vec::new());
            }
            Some(')') => {
                let variation = match lines.pop() {
                    Some(variation) if open && !variation.is_empty() => variation,
                    Some(_) if open => {
                        return Err(cursor.error(ParseErrorKind::EmptyVariation));
                    }
                    _ => return Err(cursor.error(ParseErrorKind::UnbalancedParenthesis)),
                };
                cursor.next();
                if let Some(mv) = lines.last_mut().and_then(|line| line.last_mut()) {
                    mv.variations.push(variation);
                }
            }
            Some(_) => {
                let token = read_token(cursor);
                if let Some(result) = RecordResult::from_token(&token) {
                    if open {
                        return Err(error_at(at, ParseErrorKind::UnterminatedVariation));
                    }
                    match record.tag("Result") {
                        Some(tag) if tag != token => {
                            let tag = tag.to_string();
                            return Err(error_at(
                                at,
                                ParseErrorKind::ResultMismatch { token, tag },
                            ));
                        }
                        Some(_) => {}
                        // Without a tag the result is `*` already; adding
                        // the tag then would change the text written back.
                        None if result == RecordResult::Unfinished => {}
                        None => record.set_result(result),
                    }
                    record.moves = lines.pop().unwrap_or_default();
                    return Ok(Some(record));
                }
                if is_move_number(&token) {
                    continue;
                }
                if !token
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-x@=+#".contains(c))
                {
                    return Err(error_at(at, ParseErrorKind::BadMove(token)));
                }
                if let Some(line) = lines.last_mut() {
                    line.push(RecordMove {
                        text: token,
                        ..RecordMove::default()
                    });
                }
            }
        }
    }
}

/// `12.` or `12...`: numbers are allowed and skipped, since a game whose
/// sides do not alternate cannot rely on them.
fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    digits.len() < token.len() && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

/// A run of characters up to whitespace, a brace, a parenthesis or `[` (at least one
/// character, since the caller has seen none of those).
fn read_token(cursor: &mut Cursor<'_>) -> String {
    let mut token = String::new();
    while let Some(c) = cursor.peek() {
        if c.is_whitespace() || "{}[()".contains(c) {
            break;
        }
        token.push(c);
        cursor.next();
    }
    token
}

/// `{…}`, with its whitespace runs made single spaces.
fn read_comment(cursor: &mut Cursor<'_>) -> Result<String, ParseError> {
    let open = cursor.here();
    cursor.next();
    let mut text = String::new();
    loop {
        match cursor.peek() {
            None => return Err(error_at(open, ParseErrorKind::UnterminatedComment)),
            Some('{') => return Err(cursor.error(ParseErrorKind::UnbalancedBrace)),
            Some('}') => {
                cursor.next();
                return Ok(text.split_whitespace().collect::<Vec<_>>().join(" "));
            }
            Some(c) => {
                text.push(c);
                cursor.next();
            }
        }
    }
}

/// `[Name "value"]` on one line.
fn read_tag(cursor: &mut Cursor<'_>) -> Result<(String, String), ParseError> {
    let open = cursor.here();
    let unterminated = || error_at(open, ParseErrorKind::UnterminatedTag);
    cursor.next();
    let mut name = String::new();
    while let Some(c) = cursor
        .peek()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
    {
        name.push(c);
        cursor.next();
    }
    if name.is_empty() {
        return Err(cursor.error(ParseErrorKind::BadTag(TagError::NoName)));
    }
    while cursor.peek().is_some_and(|c| c == ' ' || c == '\t') {
        cursor.next();
    }
    match cursor.peek() {
        Some('"') => {
            cursor.next();
        }
        None | Some('\n') => return Err(unterminated()),
        Some(_) => {
            let kind = ParseErrorKind::BadTag(TagError::Unquoted);
            return Err(cursor.error(kind));
        }
    }
    let mut value = String::new();
    loop {
        match cursor.peek() {
            None | Some('\n') | Some('\r') => return Err(unterminated()),
            Some('"') => {
                cursor.next();
                break;
            }
            Some('\\') => {
                cursor.next();
                match cursor.peek() {
                    Some(c @ ('"' | '\\')) => {
                        value.push(c);
                        cursor.next();
                    }
                    None | Some('\n') => return Err(unterminated()),
                    Some(_) => {
                        let kind = ParseErrorKind::BadTag(TagError::BadEscape);
                        return Err(cursor.error(kind));
                    }
                }
            }
            Some(c) => {
                value.push(c);
                cursor.next();
            }
        }
    }
    while cursor.peek().is_some_and(|c| c == ' ' || c == '\t') {
        cursor.next();
    }
    match cursor.peek() {
        Some(']') => {
            cursor.next();
            Ok((name, value))
        }
        None | Some('\n') | Some('\r') => Err(unterminated()),
        Some(_) => Err(cursor.error(ParseErrorKind::BadTag(TagError::Unclosed))),
    }
}
