//! The transcript model: the input text kept exactly as read, one [`Message`] view per
//! message pointing at its raw JSON, and the tool groups and boundaries computed once.

mod format;
mod groups;
mod message;

use std::io::Read;
use std::ops::Range;
use std::path::Path;

use rayon::prelude::*;
use serde_json::Value;

use crate::error::{LoadError, Position};

pub use format::{Container, Dialect, Format, FormatOverride};
pub use groups::{Orphan, OrphanKind, ToolGroup, ToolGroups};
pub use message::{Message, ToolCall};

const BOM: &str = "\u{feff}";

/// A loaded transcript.
#[derive(Debug, Clone)]
pub struct Transcript {
    /// The file as the user named it (`<stdin>` for `-`), for messages.
    pub source: String,
    /// The whole input, exactly as read (a BOM included).
    pub text: String,
    /// The detected or forced format.
    pub format: Format,
    /// The messages, in order.
    pub messages: Vec<Message>,
    /// Text of an Anthropic top-level `system` (shown, never counted).
    pub system: Option<String>,
    /// Tool groups and orphans.
    pub groups: ToolGroups,
    /// Indices of the §7F boundaries (human turns), ascending.
    pub boundaries: Vec<usize>,
}

impl Transcript {
    /// Reads a file, or standard input for `-`, and loads it.
    pub fn read(path: &Path, format: Option<FormatOverride>) -> Result<Transcript, LoadError> {
        let (source, bytes) = if path.as_os_str() == "-" {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| LoadError::whole("<stdin>", format!("cannot read standard input: {e}")))?;
            ("<stdin>".to_owned(), bytes)
        } else {
            let source = path.display().to_string();
            let bytes = std::fs::read(path).map_err(|e| LoadError::whole(&source, format!("cannot read: {e}")))?;
            (source, bytes)
        };
        Transcript::parse(&source, bytes, format)
    }

    /// Loads a transcript from bytes; `source` names it in errors.
    pub fn parse(source: &str, bytes: Vec<u8>, forced: Option<FormatOverride>) -> Result<Transcript, LoadError> {
        let text = String::from_utf8(bytes).map_err(|e| {
            let valid = e.utf8_error().valid_up_to();
            let prefix = std::str::from_utf8(&e.as_bytes()[..valid]).unwrap_or_default();
            let byte = e.as_bytes()[valid];
            LoadError::at(
                source,
                Position::of_offset(prefix, valid),
                format!("invalid UTF-8 (byte 0x{byte:02X}): transcripts must be UTF-8 text"),
            )
        })?;
        let start = if text.starts_with(BOM) { BOM.len() } else { 0 };
        let split = format::split(source, &text, start, forced)?;
        let messages = parse_messages(source, &text, &split.spans)?;
        let dialect = split
            .dialect_hint
            .unwrap_or(if messages.iter().any(|m| m.anthropic_blocks) {
                Dialect::Anthropic
            } else {
                Dialect::OpenAi
            });
        let system = split.system.map(|span| system_text(&text[span]));
        let groups = ToolGroups::compute(&messages);
        let boundaries = messages
            .iter()
            .enumerate()
            .filter(|(_, m)| m.boundary)
            .map(|(i, _)| i)
            .collect();
        Ok(Transcript {
            source: source.to_owned(),
            format: Format {
                dialect,
                container: split.container,
            },
            text,
            messages,
            system,
            groups,
            boundaries,
        })
    }

    /// The raw JSON text of a message, exactly as read.
    pub fn raw(&self, message: &Message) -> &str {
        &self.text[message.span.clone()]
    }

    /// The text between two consecutive messages (`",\n  "` in a pretty array, `"\n"` in
    /// JSONL); new messages are joined with it so they match the file's layout.
    pub fn separator(&self) -> &str {
        match self.messages.as_slice() {
            [a, b, ..] => &self.text[a.span.end..b.span.start],
            _ if self.format.container == Container::Jsonl => "\n",
            _ => ",",
        }
    }

    /// The text before the first message and after the last one.
    pub fn surroundings(&self) -> (&str, &str) {
        match (self.messages.first(), self.messages.last()) {
            (Some(first), Some(last)) => (&self.text[..first.span.start], &self.text[last.span.end..]),
            _ => (&self.text, ""),
        }
    }

    /// The text of messages `range` with the separators between them, exactly as read.
    pub fn raw_run(&self, range: Range<usize>) -> &str {
        if range.is_empty() {
            return "";
        }
        &self.text[self.messages[range.start].span.start..self.messages[range.end - 1].span.end]
    }
}

/// Parses every message's raw JSON (in parallel) into its view.
fn parse_messages(source: &str, text: &str, spans: &[Range<usize>]) -> Result<Vec<Message>, LoadError> {
    spans
        .par_iter()
        .enumerate()
        .map(|(index, span)| {
            let raw = &text[span.clone()];
            let value: Value = serde_json::from_str(raw).map_err(|e| {
                let at = span.start + crate::error::Position::offset_of_serde(raw, e.line(), e.column());
                LoadError::at(
                    source,
                    Position::of_offset(text, at),
                    format!("message {index}: {}", format::serde_reason(&e)),
                )
            })?;
            match value {
                Value::Object(object) => Ok(Message::from_object(&object, span.clone(), index)),
                other => Err(LoadError::at(
                    source,
                    Position::of_offset(text, span.start),
                    format!("message {index} is not a JSON object (found {})", json_kind(&other)),
                )),
            }
        })
        .collect()
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The readable text of an Anthropic `system`: a string, or its text blocks joined.
fn system_text(raw: &str) -> String {
    match serde_json::from_str::<Value>(raw) {
        Ok(Value::String(s)) => s,
        Ok(Value::Array(blocks)) => blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => raw.to_owned(),
    }
}
