//! Typed errors of the library. [`LoadError`]: every way an input can be unreadable,
//! naming the file and, where one exists, the line and column, so the binary can print
//! `error: FILE:LINE:COLUMN: what is wrong` and exit 2. [`Error`]: everything else a
//! library call can fail with (a summarizer, an artifact store, a write, a cancellation).

use std::fmt;
use std::path::PathBuf;

/// A 1-based line and column in an input file (the column counts characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl Position {
    /// The position of byte `offset` in `text`.
    pub fn of_offset(text: &str, offset: usize) -> Position {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let before = &text[..offset];
        let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        Position { line, column }
    }

    /// The byte offset in `text` of a 1-based (line, byte column) pair as `serde_json`
    /// reports it, clamped to the text.
    pub fn offset_of_serde(text: &str, line: usize, column: usize) -> usize {
        let mut start = 0;
        for _ in 1..line {
            match text[start..].find('\n') {
                Some(i) => start += i + 1,
                None => return text.len(),
            }
        }
        floor_char_boundary(text, (start + column.saturating_sub(1)).min(text.len()))
    }
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Why a transcript could not be loaded. Made by the core only ([`LoadError::at`],
/// [`LoadError::whole`]); read through its fields.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadError {
    /// The file as the user named it (`<stdin>` for `-`).
    pub source: String,
    /// Where in the file, when the problem has a place.
    pub position: Option<Position>,
    /// What is wrong, and where useful what to do about it.
    pub message: String,
}

impl LoadError {
    /// An error at a known position.
    pub fn at(source: &str, position: Position, message: impl Into<String>) -> Self {
        LoadError {
            source: source.to_owned(),
            position: Some(position),
            message: message.into(),
        }
    }

    /// An error about the file as a whole.
    pub fn whole(source: &str, message: impl Into<String>) -> Self {
        LoadError {
            source: source.to_owned(),
            position: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some(p) => write!(f, "{}:{}: {}", self.source, p, self.message),
            None => write!(f, "{}: {}", self.source, self.message),
        }
    }
}

// `source` here is the file's name, not an underlying error (hence no derive).
impl std::error::Error for LoadError {}

/// What a library call can fail with, besides an unreadable input. New kinds may come:
/// match with a wildcard arm.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input could not be loaded.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A summarizer failed (the message names the summarizer).
    #[error("{0}")]
    Summary(String),
    /// Externalized tool output could not be stored (the message says where and why).
    #[error("{0}")]
    Artifact(String),
    /// An output file was refused or could not be written.
    #[error("{path}: {message}")]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong, and what to do about it.
        message: String,
        /// The operating system's kind of error, when it was one (a full disk, a
        /// refused permission, a closed pipe): to act on, where the message is to read.
        kind: Option<std::io::ErrorKind>,
    },
    /// A setting is out of range (the message says which and why).
    #[error("{0}")]
    Invalid(String),
    /// A policy's setting cannot be used (`--set KEY=VALUE`): an unknown key, a value
    /// of the wrong kind. The message names the key and what it takes.
    #[error("{0}")]
    Setting(String),
    /// A name that is none of the known ones (a policy, a format, a tokenizer…).
    #[error("unknown {kind} `{name}` (one of: {})", known.join(", "))]
    UnknownName {
        /// What was being named (`policy`, `format`…).
        kind: &'static str,
        /// The name as given.
        name: String,
        /// The names that exist.
        known: Vec<&'static str>,
    },
    /// The work was cancelled (a newer request, Esc, quit).
    #[error("cancelled")]
    Cancelled,
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_map_to_lines_and_character_columns() {
        let text = "ab\ncé\nxyz";
        assert_eq!(Position::of_offset(text, 0), Position { line: 1, column: 1 });
        assert_eq!(Position::of_offset(text, 3), Position { line: 2, column: 1 });
        // 'é' is two bytes: the byte after it is the third character of line 2.
        assert_eq!(Position::of_offset(text, 6), Position { line: 2, column: 3 });
        assert_eq!(Position::offset_of_serde(text, 3, 2), 8);
    }

    #[test]
    fn display_names_file_and_position() {
        let e = LoadError::at("t.json", Position { line: 4, column: 2 }, "bad");
        assert_eq!(e.to_string(), "t.json:4:2: bad");
        assert_eq!(LoadError::whole("t.json", "empty").to_string(), "t.json: empty");
    }
}
