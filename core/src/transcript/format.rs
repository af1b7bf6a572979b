//! Transcript formats: detection, the `--format` override, and splitting a document into
//! the raw JSON text of each message (a JSON array, a request body or trajectory object
//! holding the list under `messages`/`history`, or JSONL with one message per line).
//!
//! Only byte ranges are produced here; everything outside them is kept verbatim so
//! export can write the rest of the document back unchanged.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use serde_json::value::RawValue;

use super::dialect::Dialect;
use super::structure::{array_elements, Scan};
use crate::error::{LoadError, Position};

/// How the message list sits in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Container {
    /// The file is a JSON array of messages.
    Array,
    /// The file is a JSON object (request body, trajectory) with the list under `key`.
    Object {
        /// `messages` or `history`.
        key: String,
    },
    /// One message per line.
    Jsonl,
    /// A Claude Code session log (records with `uuid`/`parentUuid`/`message`).
    ClaudeCode,
    /// A Codex rollout (records `{timestamp, type, payload}`).
    Codex,
    /// A Gemini CLI chat recording (`sessionId` and `projectHash`, then message records;
    /// one JSON object, or JSONL).
    GeminiCli,
    /// A GitHub Copilot CLI `events.jsonl` (`{type, data, id, timestamp, parentId}` with
    /// dotted event names).
    CopilotCli,
    /// An opencode session as `opencode export` prints it (`{info, messages: [{info,
    /// parts}]}`), or assembled so from its storage tree or database.
    Opencode,
}

impl Container {
    /// Logs whose messages are backed by whole JSONL records.
    pub fn is_log(&self) -> bool {
        matches!(
            self,
            Container::ClaudeCode
                | Container::Codex
                | Container::GeminiCli
                | Container::CopilotCli
                | Container::Opencode
        )
    }
}

/// A detected (or forced) transcript format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Format {
    /// The message dialect.
    pub dialect: Dialect,
    /// Where the messages are.
    pub container: Container,
}

impl Format {
    /// The short name used in `stats --json` and `--format`.
    pub fn name(&self) -> &'static str {
        let rules = self.dialect.rules();
        match &self.container {
            Container::ClaudeCode => "claude-code",
            Container::Codex => "codex",
            Container::GeminiCli => "gemini-cli",
            Container::CopilotCli => "copilot-cli",
            Container::Opencode => "opencode",
            Container::Jsonl => rules.jsonl_name(),
            Container::Array | Container::Object { .. } => rules.name(),
        }
    }

    /// The `--format` that reads a document of this format back (for re-loading output).
    pub fn as_override(&self) -> FormatOverride {
        self.name().parse().expect("every format's name is a `--format` value")
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.container {
            Container::Array => write!(f, "{} (JSON array of messages)", self.name()),
            Container::Object { key } => write!(f, "{} (object, messages under `{key}`)", self.name()),
            Container::Jsonl => write!(f, "{} (one message per line)", self.name()),
            Container::ClaudeCode => f.write_str("claude-code (session log, active branch)"),
            Container::Codex => f.write_str("codex (rollout log, response items)"),
            Container::GeminiCli => f.write_str("gemini-cli (chat recording, its messages as Gemini contents)"),
            Container::CopilotCli => f.write_str("copilot-cli (session events, its messages as OpenAI chat)"),
            Container::Opencode => f.write_str("opencode (session, its messages as Anthropic messages)"),
        }
    }
}

/// What `--format` can force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatOverride {
    /// OpenAI chat, JSON array or object.
    OpenAi,
    /// Anthropic Messages, JSON array or object.
    Anthropic,
    /// OpenAI chat, one message per line.
    OpenAiJsonl,
    /// Anthropic Messages, one message per line.
    AnthropicJsonl,
    /// Gemini `contents`.
    Gemini,
    /// OpenAI Responses items.
    Responses,
    /// OpenHands events.
    OpenHands,
    /// A Claude Code session log.
    ClaudeCode,
    /// A Codex rollout.
    Codex,
    /// A Gemini CLI chat recording.
    GeminiCli,
    /// A GitHub Copilot CLI session log.
    CopilotCli,
    /// An opencode session.
    Opencode,
}

impl FormatOverride {
    /// Every accepted `--format` value.
    pub const NAMES: [&'static str; 12] = [
        "openai",
        "anthropic",
        "openai-jsonl",
        "anthropic-jsonl",
        "gemini",
        "responses",
        "openhands",
        "claude-code",
        "codex",
        "gemini-cli",
        "copilot-cli",
        "opencode",
    ];

    fn dialect(self) -> Dialect {
        match self {
            FormatOverride::OpenAi | FormatOverride::OpenAiJsonl | FormatOverride::CopilotCli => Dialect::OpenAi,
            FormatOverride::Anthropic
            | FormatOverride::AnthropicJsonl
            | FormatOverride::ClaudeCode
            | FormatOverride::Opencode => Dialect::Anthropic,
            FormatOverride::Gemini | FormatOverride::GeminiCli => Dialect::Gemini,
            FormatOverride::Responses | FormatOverride::Codex => Dialect::Responses,
            FormatOverride::OpenHands => Dialect::OpenHands,
        }
    }

    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    fn is_jsonl(self) -> bool {
        matches!(
            self,
            FormatOverride::OpenAiJsonl
                | FormatOverride::AnthropicJsonl
                | FormatOverride::ClaudeCode
                | FormatOverride::Codex
        )
    }
}

impl crate::names::Named for FormatOverride {
    const KIND: &'static str = "format";
    const ALL: &'static [Self] = &[
        FormatOverride::OpenAi,
        FormatOverride::Anthropic,
        FormatOverride::OpenAiJsonl,
        FormatOverride::AnthropicJsonl,
        FormatOverride::Gemini,
        FormatOverride::Responses,
        FormatOverride::OpenHands,
        FormatOverride::ClaudeCode,
        FormatOverride::Codex,
        FormatOverride::GeminiCli,
        FormatOverride::CopilotCli,
        FormatOverride::Opencode,
    ];

    fn name(self) -> &'static str {
        FormatOverride::name(self)
    }
}

impl FromStr for FormatOverride {
    type Err = crate::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::names::parse(s)
    }
}

/// The message list of a document: each message's byte range, plus what surrounds it.
#[derive(Debug)]
pub(crate) struct Split {
    pub container: Container,
    pub spans: Vec<Range<usize>>,
    /// Raw JSON of an Anthropic top-level `system`, if present.
    pub system: Option<Range<usize>>,
    /// The dialect the container itself implies (a top-level `system` means Anthropic).
    pub dialect_hint: Option<Dialect>,
    /// Raw JSON of a request body's `model`, if present.
    pub model: Option<Range<usize>>,
    /// A Gemini request's `generationConfig.mediaResolution`, if set.
    pub media_resolution: Option<super::MediaResolution>,
    /// The structural scan already checked that no message nests too deep.
    pub depth_checked: bool,
    /// The spans were found by scanning two halves at once: a fault found later is
    /// named by loading again with one pass (`Scan::OnePass`), as it always was.
    pub in_halves: bool,
}

impl Split {
    /// `spans` in `container`, with nothing around them (no `system`, model or hint) and
    /// no check done yet: what each reader then fills in.
    fn of(container: Container, spans: Vec<Range<usize>>) -> Split {
        Split {
            container,
            spans,
            system: None,
            dialect_hint: None,
            model: None,
            media_resolution: None,
            depth_checked: false,
            in_halves: false,
        }
    }
}

/// Splits `text[start..]` (the document after any BOM) into message spans.
pub(crate) fn split(
    source: &str,
    text: &str,
    start: usize,
    forced: Option<FormatOverride>,
    scan: Scan,
) -> Result<Split, LoadError> {
    let body = &text[start..];
    let Some(first) = body.find(|c: char| !c.is_ascii_whitespace()) else {
        return Err(LoadError::at(
            source,
            Position { line: 1, column: 1 },
            "empty input: expected a JSON array of messages, an object with `messages`, or JSONL",
        ));
    };
    if let Some(f) = forced.filter(|f| f.is_jsonl()) {
        super::forced::check_lines(source, text, start + first, f)?;
    }
    let split = match (forced, body.as_bytes()[first]) {
        (Some(FormatOverride::ClaudeCode), _) => Ok(Split::of(Container::ClaudeCode, Vec::new())),
        (Some(FormatOverride::Codex), _) => Ok(Split::of(Container::Codex, Vec::new())),
        (Some(FormatOverride::Opencode), _) => {
            super::forced::check_recording(source, text, start + first, FormatOverride::Opencode)
                .map(|()| Split::of(Container::Opencode, Vec::new()))
        }
        (Some(f @ (FormatOverride::GeminiCli | FormatOverride::CopilotCli)), _) => {
            super::forced::check_recording(source, text, start + first, f).map(|()| {
                Split::of(
                    if f == FormatOverride::GeminiCli {
                        Container::GeminiCli
                    } else {
                        Container::CopilotCli
                    },
                    Vec::new(),
                )
            })
        }
        (Some(f), _) if f.is_jsonl() => split_jsonl(source, text, start),
        (_, b'[') => split_array(source, text, start, scan),
        (_, b'{') => split_object(source, text, start),
        _ => Err(LoadError::at(
            source,
            Position::of_offset(text, start + first),
            format!(
                "expected a JSON array of messages or an object with `messages`, found {}",
                describe_start(&body[first..])
            ),
        )),
    };
    let mut split = split?;
    if let Some(f) = forced {
        super::forced::check_container(source, text, start + first, f, &split.container)?;
        let messages: Vec<&str> = split.spans.iter().take(20).map(|s| &text[s.clone()]).collect();
        if let Err(e) = super::forced::check_list(source, text, start + first, f, &messages) {
            // A fault is always named as the one-pass scan finds it.
            return if split.in_halves {
                self::split(source, text, start, forced, Scan::OnePass)
            } else {
                Err(e)
            };
        }
        split.dialect_hint = Some(f.dialect());
    }
    Ok(split)
}

fn describe_start(rest: &str) -> &'static str {
    match rest.as_bytes()[0] {
        b'"' => "a string",
        b'-' | b'0'..=b'9' => "a number",
        b't' | b'f' => "a boolean",
        b'n' => "null",
        _ => "text that is not JSON",
    }
}

fn split_array(source: &str, text: &str, start: usize, scan: Scan) -> Result<Split, LoadError> {
    let body = &text[start..];
    // The fast scan finds the elements; each is parsed (validated) on its own later. A
    // text the scan does not take is parsed whole, for the exact error.
    let first = body.len() - body.trim_start_matches([' ', '\t', '\n', '\r']).len();
    let (spans, depth_checked, in_halves) = if let Some((spans, in_halves)) = array_elements(text, start + first, scan)
    {
        (spans, true, in_halves)
    } else {
        let items: Vec<&RawValue> = serde_json::from_str(body).map_err(|e| json_error(source, text, start, &e))?;
        (items.iter().map(|raw| span_of(text, raw.get())).collect(), false, false)
    };
    Ok(Split {
        depth_checked,
        in_halves,
        ..Split::of(Container::Array, spans)
    })
}

fn split_object(source: &str, text: &str, start: usize) -> Result<Split, LoadError> {
    let body = &text[start..];
    let map: BTreeMap<String, &RawValue> = match serde_json::from_str(body) {
        Ok(map) => map,
        Err(e) if e.to_string().starts_with("trailing characters") => return split_jsonl(source, text, start),
        Err(e) => return Err(json_error(source, text, start, &e)),
    };
    if is_gemini_cli_recording(&map) {
        return Ok(Split::of(Container::GeminiCli, Vec::new()));
    }
    if super::logs::is_opencode_export(&map) {
        return Ok(Split::of(Container::Opencode, Vec::new()));
    }
    if let Some(agent) = unread_agent_log(&map) {
        return Err(unread_log_error(
            source,
            Position::of_offset(text, start + body.find('{').unwrap_or(0)),
            agent,
        ));
    }
    let Some((key, list)) = ["messages", "history", "contents", "input"]
        .iter()
        .find_map(|k| map.get(*k).map(|v| (*k, *v)))
    else {
        if map.contains_key("role") {
            // A single message on its own: JSONL with one line.
            return split_jsonl(source, text, start);
        }
        if let Some(log) = log_container(&map) {
            return Ok(Split::of(log, Vec::new()));
        }
        let keys: Vec<&str> = map.keys().map(String::as_str).take(8).collect();
        return Err(LoadError::at(
            source,
            Position::of_offset(text, start + body.find('{').unwrap_or(0)),
            format!(
                "no message list: the object has no `messages`, `history`, `contents` or `input` key (its keys: {})",
                if keys.is_empty() {
                    "none".to_owned()
                } else {
                    keys.join(", ")
                }
            ),
        ));
    };
    let list_offset = span_of(text, list.get()).start;
    let items: Vec<&RawValue> = serde_json::from_str(list.get()).map_err(|_| {
        LoadError::at(
            source,
            Position::of_offset(text, list_offset),
            format!("`{key}` must be a JSON array of messages"),
        )
    })?;
    let system = map
        .get("system")
        .or_else(|| map.get("systemInstruction"))
        .map(|raw| span_of(text, raw.get()));
    let dialect_hint = Dialect::ALL
        .into_iter()
        .find(|d| d.rules().announced_by_body(key, &map));
    let model = map
        .get("model")
        .filter(|raw| raw.get().starts_with('"'))
        .map(|raw| span_of(text, raw.get()));
    let media_resolution = map
        .get("generationConfig")
        .or_else(|| map.get("generation_config"))
        .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
        .and_then(|config| {
            let level = config
                .get("mediaResolution")
                .or_else(|| config.get("media_resolution"))?;
            super::MediaResolution::parse(level)
        });
    Ok(Split {
        system,
        dialect_hint,
        model,
        media_resolution,
        ..Split::of(
            Container::Object { key: key.to_owned() },
            items.iter().map(|raw| span_of(text, raw.get())).collect(),
        )
    })
}

fn split_jsonl(source: &str, text: &str, start: usize) -> Result<Split, LoadError> {
    let mut spans = Vec::new();
    let mut line_start = start;
    for (line_index, line) in text[start..].split_inclusive('\n').enumerate() {
        let trimmed = line.trim();
        if !trimmed.is_empty() {
            let offset = line_start + (line.len() - line.trim_start().len());
            let record: BTreeMap<String, &RawValue> = serde_json::from_str(trimmed).map_err(|e| {
                let at = offset + Position::offset_of_serde(trimmed, e.line(), e.column());
                let what = if trimmed.starts_with('{') {
                    "bad JSONL line"
                } else {
                    "bad JSONL line (expected an object)"
                };
                LoadError::at(
                    source,
                    Position::of_offset(text, at),
                    format!("{what}: {}", serde_reason(&e)),
                )
            })?;
            // A log is recognised by any of its first records, not only the first: a log
            // copied from the middle may open with a record that says nothing.
            if spans.len() < LOG_MARKER_RECORDS {
                if let Some(agent) = unread_agent_log(&record) {
                    return Err(unread_log_error(
                        source,
                        Position {
                            line: line_index + 1,
                            column: 1,
                        },
                        agent,
                    ));
                }
                if let Some(log) = log_container(&record) {
                    return Ok(Split::of(log, Vec::new()));
                }
            }
            check_jsonl_record(source, line_index + 1, &record)?;
            spans.push(offset..offset + trimmed.len());
        }
        line_start += line.len();
    }
    Ok(Split::of(Container::Jsonl, spans))
}

/// How many leading records may announce a log format.
const LOG_MARKER_RECORDS: usize = 8;

/// The record types of a Codex rollout (`{timestamp, type, payload}`).
const CODEX_RECORD_TYPES: [&str; 5] = [
    "session_meta",
    "response_item",
    "event_msg",
    "compacted",
    "turn_context",
];

/// A Gemini CLI chat recording (`~/.gemini/tmp/…/chats/session-*.json[l]`): the
/// conversation record, or the JSONL form's first line, holds `sessionId` and
/// `projectHash` (gemini-cli `chatRecordingService.ts`). Asked before Claude Code's
/// records, which have a `sessionId` too.
fn is_gemini_cli_recording(record: &BTreeMap<String, &RawValue>) -> bool {
    record.contains_key("projectHash") && record.contains_key("sessionId")
}

/// A GitHub Copilot CLI `events.jsonl` record: `{type: "session.start" | "user.message" |
/// …, data}` (dotted event names, github/copilot-sdk `session-events.ts`). Asked before
/// Claude Code's records (a Copilot event's `data` may hold a `sessionId`).
pub(crate) fn is_copilot_cli_event(record: &BTreeMap<String, &RawValue>) -> bool {
    let dotted_event = record.get("type").is_some_and(|t| {
        let t = t.get().trim_matches('"');
        t.contains('.') && !t.contains(' ') && t.split('.').all(|part| !part.is_empty())
    });
    dotted_event && record.contains_key("data")
}

/// Another agent's file that ctxlens does not read as it is, recognised by its top-level
/// object so that it is refused by name rather than misread: GitHub Copilot CLI's older
/// single-file session, with `chatMessages` and `timeline` (it has a `sessionId` as Claude
/// Code's records do); a file of opencode's storage tree read on its own (a message or
/// part file, or a session file outside its tree or from standard input), as
/// `tests/data/other-agents/opencode/FORMAT.md` describes them: ctxlens reads a session by
/// its session file in its tree ([`super::opencode_store`]).
fn unread_agent_log(record: &BTreeMap<String, &RawValue>) -> Option<&'static str> {
    if record.contains_key("sessionId") && (record.contains_key("chatMessages") || record.contains_key("timeline")) {
        return Some("a GitHub Copilot CLI session (its older single-file form)");
    }
    let id_starts = |record: &BTreeMap<String, &RawValue>, prefix: &str| {
        record
            .get("id")
            .is_some_and(|id| id.get().trim_matches('"').starts_with(prefix))
    };
    let stored = (id_starts(record, "ses_") && record.contains_key("projectID"))
        || (id_starts(record, "msg_") && record.contains_key("sessionID"))
        || (id_starts(record, "prt_") && record.contains_key("messageID"));
    if stored {
        return Some(
            "a file of an opencode session's storage tree, not a session: open the session's own file, storage/session/<project>/ses_….json, in its tree (ctxlens reads its messages and parts beside it)",
        );
    }
    None
}

/// The refusal of an agent's log ctxlens does not read.
fn unread_log_error(source: &str, at: Position, agent: &str) -> LoadError {
    LoadError::at(
        source,
        at,
        format!(
            "{agent}{}",
            if agent.contains("opencode") {
                ""
            } else {
                ": ctxlens does not read this agent's logs yet (it reads Claude Code, Codex, Gemini CLI, Copilot CLI events.jsonl and opencode session logs and the providers' request shapes; see docs/formats.md)"
            }
        ),
    )
}

/// The log format a leading JSONL record announces, if any.
fn log_container(record: &BTreeMap<String, &RawValue>) -> Option<Container> {
    if is_gemini_cli_recording(record) {
        return Some(Container::GeminiCli);
    }
    if is_copilot_cli_event(record) {
        return Some(Container::CopilotCli);
    }
    let claude_type = record.get("type").is_some_and(|t| {
        matches!(
            t.get().trim_matches('"'),
            "file-history-snapshot" | "summary" | "permission-mode" | "queue-operation"
        )
    });
    if claude_type
        || record.contains_key("parentUuid")
        || record.contains_key("sessionId")
        || record.contains_key("leafUuid")
    {
        Some(Container::ClaudeCode)
    } else if record.contains_key("payload")
        && (record.contains_key("timestamp")
            || record
                .get("type")
                .is_some_and(|t| CODEX_RECORD_TYPES.contains(&t.get().trim_matches('"'))))
    {
        Some(Container::Codex)
    } else {
        None
    }
}

/// Rejects JSONL records that are not messages: a chat message has `role`, an OpenHands
/// event `source` with `action` or `observation`, a Responses item `type`.
fn check_jsonl_record(source: &str, line: usize, record: &BTreeMap<String, &RawValue>) -> Result<(), LoadError> {
    let event = record.contains_key("source") && (record.contains_key("action") || record.contains_key("observation"));
    if record.contains_key("role") || event || record.contains_key("type") {
        return Ok(());
    }
    Err(LoadError::at(
        source,
        Position { line, column: 1 },
        "JSONL record has no `role`: expected one chat message (or event, or item) per line",
    ))
}

/// The byte range of `inner`, a sub-slice of `text`.
pub(crate) fn span_of(text: &str, inner: &str) -> Range<usize> {
    let start = inner.as_ptr() as usize - text.as_ptr() as usize;
    start..start + inner.len()
}

/// A `serde_json` error at its place in the file.
pub(crate) fn json_error(source: &str, text: &str, start: usize, e: &serde_json::Error) -> LoadError {
    let offset = start + Position::offset_of_serde(&text[start..], e.line(), e.column());
    let kind = match e.classify() {
        serde_json::error::Category::Eof => "truncated JSON",
        _ => "invalid JSON",
    };
    LoadError::at(
        source,
        Position::of_offset(text, offset),
        format!("{kind}: {}", serde_reason(e)),
    )
}

/// `serde_json`'s message without its trailing " at line L column C".
pub(crate) fn serde_reason(e: &serde_json::Error) -> String {
    let full = e.to_string();
    match full.rfind(" at line ") {
        Some(i) => full[..i].to_owned(),
        None => full,
    }
}
