//! Phase 1: tool-output compaction, by size band and content type (llm4s constants).
//!
//! | band | size (UTF-8 bytes) | action |
//! |---|---|---|
//! | keep | ≤ 2048 | unchanged |
//! | inline | ≤ threshold (8192) | compressed by content type |
//! | externalize | > threshold, or binary | stored; replaced by a pointer |
//!
//! Every rule only applies when it makes the text shorter.

use serde_json::{Map, Value};

use super::artifacts::ArtifactStore;
use super::Rule;

/// Outputs up to this size are kept as they are.
pub const KEEP_BYTES: usize = 2048;
/// Default size above which outputs are externalized.
pub const DEFAULT_EXTERNALIZE_OVER: usize = 8192;
const ARRAY_KEEP_HEAD: usize = 10;
const ARRAY_KEEP_TAIL: usize = 10;
const LOG_MAX_LINES: usize = 120;
const LOG_HEAD: usize = 80;
const LOG_TAIL: usize = 40;
const ERROR_HEADER_LINES: usize = 3;
const ERROR_MAX_FRAMES: usize = 10;
const TEXT_MAX_CHARS: usize = 1000;
const TEXT_HEAD_WORDS: usize = 50;
const TEXT_TAIL_WORDS: usize = 20;

/// What a tool output holds (first match wins, on the trimmed text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContentType {
    /// A JSON object or array that parses.
    Json,
    /// Contains `---`.
    Yaml,
    /// `ERROR:`, `Exception` or `Traceback`.
    Error,
    /// `INFO `, `DEBUG ` or `WARN `.
    Log,
    /// Starts with `data:` or contains `base64`.
    Binary,
    /// Anything else.
    Text,
}

impl ContentType {
    /// The type of `text`.
    pub fn of(text: &str) -> ContentType {
        let t = text.trim();
        let bracketed = (t.starts_with('{') && t.ends_with('}')) || (t.starts_with('[') && t.ends_with(']'));
        if bracketed && serde_json::from_str::<serde::de::IgnoredAny>(t).is_ok() {
            ContentType::Json
        } else if t.contains("---") {
            ContentType::Yaml
        } else if t.contains("ERROR:") || t.contains("Exception") || t.contains("Traceback") {
            ContentType::Error
        } else if t.contains("INFO ") || t.contains("DEBUG ") || t.contains("WARN ") {
            ContentType::Log
        } else if t.starts_with("data:") || t.contains("base64") {
            ContentType::Binary
        } else {
            ContentType::Text
        }
    }

    /// The name in a pointer (`JSON`, `LOG`, …).
    pub fn tag(self) -> &'static str {
        match self {
            ContentType::Json => "JSON",
            ContentType::Yaml => "YAML",
            ContentType::Error => "ERROR",
            ContentType::Log => "LOG",
            ContentType::Binary => "BINARY",
            ContentType::Text => "TEXT",
        }
    }
}

/// Compacts one tool output; `None` when it stays as it is.
pub fn compact_tool_output(
    text: &str,
    externalize_over: usize,
    store: &mut dyn ArtifactStore,
) -> crate::Result<Option<(String, Rule)>> {
    let size = text.len();
    if size <= KEEP_BYTES {
        return Ok(None);
    }
    let kind = ContentType::of(text);
    if size > externalize_over || kind == ContentType::Binary {
        let name = store.put(text)?;
        let pointer = format!(
            "[EXTERNALIZED: {name} | {} | {}]",
            kind.tag(),
            externalized_summary(text, kind)
        );
        return Ok(Some((pointer, Rule::Externalize)));
    }
    let compacted = match kind {
        ContentType::Json => compact_json(text).map(|t| (t, Rule::ToolJson)),
        ContentType::Log => compact_log(text).map(|t| (t, Rule::ToolLog)),
        ContentType::Error => compact_error(text).map(|t| (t, Rule::ToolError)),
        ContentType::Text => compact_text(text).map(|t| (t, Rule::ToolText)),
        // No inline rule for YAML; binary was stored above.
        ContentType::Yaml | ContentType::Binary => None,
    };
    Ok(compacted.filter(|(t, _)| t.len() < size))
}

/// The summary in a pointer.
pub fn externalized_summary(text: &str, kind: ContentType) -> String {
    let size = text.len();
    match kind {
        ContentType::Json => match serde_json::from_str::<Value>(text.trim()) {
            Ok(Value::Object(map)) => format!("JSON object with {} fields, {size} bytes", map.len()),
            _ => format!("JSON content, {size} bytes"),
        },
        ContentType::Log => format!("Log output with {} lines, {size} bytes", text.lines().count()),
        ContentType::Error => {
            let first: String = text
                .trim()
                .lines()
                .next()
                .unwrap_or_default()
                .chars()
                .take(100)
                .collect();
            format!("Error: {first}, {size} bytes")
        }
        ContentType::Yaml => format!("YAML content, {size} bytes"),
        ContentType::Binary => format!("Binary content, {size} bytes"),
        ContentType::Text => format!("Text content, {size} bytes"),
    }
}

/// JSON: drop `null`/`""`/`[]` fields, cut arrays over 20 items to 10 + marker + 10, at
/// any depth; written compact with key order and number text preserved.
pub fn compact_json(text: &str) -> Option<String> {
    let value: Value = serde_json::from_str(text.trim()).ok()?;
    let compacted = serde_json::to_string(&prune(value)).ok()?;
    (compacted.len() < text.len()).then_some(compacted)
}

fn prune(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(_, v)| !is_empty_value(v))
                .map(|(k, v)| (k, prune(v)))
                .collect::<Map<String, Value>>(),
        ),
        Value::Array(items) if items.len() > ARRAY_KEEP_HEAD + ARRAY_KEEP_TAIL => {
            let hidden = items.len() - ARRAY_KEEP_HEAD - ARRAY_KEEP_TAIL;
            let tail_start = items.len() - ARRAY_KEEP_TAIL;
            let mut kept: Vec<Value> = Vec::with_capacity(ARRAY_KEEP_HEAD + ARRAY_KEEP_TAIL + 1);
            let mut items = items.into_iter();
            kept.extend(items.by_ref().take(ARRAY_KEEP_HEAD).map(prune));
            kept.push(Value::String(format!("...[+{hidden} items]...")));
            kept.extend(items.skip(tail_start - ARRAY_KEEP_HEAD).map(prune));
            Value::Array(kept)
        }
        Value::Array(items) => Value::Array(items.into_iter().map(prune).collect()),
        other => other,
    }
}

fn is_empty_value(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

/// Logs: over 120 lines keep the first 80 and last 40 around a marker; then runs of
/// identical consecutive lines become `<line> ×N`.
pub fn compact_log(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut kept: Vec<String> = Vec::new();
    if lines.len() > LOG_MAX_LINES {
        kept.extend(lines[..LOG_HEAD].iter().map(|l| (*l).to_owned()));
        kept.push(format!(
            "... [collapsed {} repeated/verbose log lines] ...",
            lines.len() - LOG_HEAD - LOG_TAIL
        ));
        kept.extend(lines[lines.len() - LOG_TAIL..].iter().map(|l| (*l).to_owned()));
    } else {
        kept.extend(lines.iter().map(|l| (*l).to_owned()));
    }
    let mut out: Vec<String> = Vec::with_capacity(kept.len());
    let mut i = 0;
    while i < kept.len() {
        let run = kept[i..].iter().take_while(|l| **l == kept[i]).count();
        out.push(if run > 1 {
            format!("{} \u{d7}{run}", kept[i])
        } else {
            kept[i].clone()
        });
        i += run;
    }
    let result = out.join("\n");
    (result.len() < text.len()).then_some(result)
}

/// A stack frame: JVM (`at …`, `.java:`, `.scala:`) or Python (`File "…", line N`).
pub fn is_stack_frame(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("at ")
        || t.contains(".java:")
        || t.contains(".scala:")
        || (t.starts_with("File \"") && t.contains("\", line "))
}

/// Errors: the first 3 lines, then the first 10 stack frames and a marker for the rest.
/// Lines that are not frames (`Caused by: …`, Python's final exception line) are kept.
pub fn compact_error(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let frames = lines
        .iter()
        .skip(ERROR_HEADER_LINES)
        .filter(|l| is_stack_frame(l))
        .count();
    if frames <= ERROR_MAX_FRAMES {
        return None;
    }
    let mut out: Vec<String> = lines.iter().take(ERROR_HEADER_LINES).map(|l| (*l).to_owned()).collect();
    let mut seen = 0;
    for line in lines.iter().skip(ERROR_HEADER_LINES) {
        if is_stack_frame(line) {
            seen += 1;
            if seen == ERROR_MAX_FRAMES + 1 {
                out.push(format!(
                    "... [+{} additional stack frames] ...",
                    frames - ERROR_MAX_FRAMES
                ));
            }
            if seen > ERROR_MAX_FRAMES {
                continue;
            }
        }
        out.push((*line).to_owned());
    }
    let result = out.join("\n");
    (result.len() < text.len()).then_some(result)
}

/// Text over 1000 characters: the first 50 and last 20 words around a marker.
pub fn compact_text(text: &str) -> Option<String> {
    if text.chars().count() <= TEXT_MAX_CHARS {
        return None;
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() <= TEXT_HEAD_WORDS + TEXT_TAIL_WORDS {
        return None; // llm4s overlaps head and tail here ("[+-49 words]"); nothing to cut
    }
    let hidden = words.len() - TEXT_HEAD_WORDS - TEXT_TAIL_WORDS;
    let result = format!(
        "{} ... [+{hidden} words] ... {}",
        words[..TEXT_HEAD_WORDS].join(" "),
        words[words.len() - TEXT_TAIL_WORDS..].join(" ")
    );
    (result.len() < text.len()).then_some(result)
}
