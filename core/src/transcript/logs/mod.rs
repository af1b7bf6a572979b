//! Agent session logs, one JSON record per line: Claude Code sessions, Codex rollouts,
//! Gemini CLI chat recordings (whose older form is one JSON object), Copilot CLI
//! session events and opencode sessions (one JSON document, as `opencode export` prints
//! it).
//!
//! Only some records are what the model saw. Those become messages (backed by their
//! whole records, so export can write them back byte for byte); the rest (hooks,
//! attachments, metadata, titles, sub-agent lines, UI events) become [`Note`]s: shown,
//! never counted. Past compactions become notes too, and recorded usage is attached to
//! the message it measured.

mod claude_code;
pub(crate) mod codex;
pub use codex::{Measured, UsageReader};
mod copilot_cli;
mod gemini_cli;
mod message_head;
pub use claude_code::CLAUDE_CODE_OPENING;
pub(crate) use message_head::even_null;
mod opencode;

use std::collections::BTreeMap;
use std::ops::Range;

use serde_json::value::RawValue;
use serde_json::Value;

use super::dialect::Dialect;
use super::format::json_error;
use super::message::Message;
use crate::error::LoadError;

pub(crate) use claude_code::{claude_code, off_branch_count, off_branch_summary};
pub(crate) use claude_code::{usage as anthropic_usage, usage_of as anthropic_usage_of};
pub(crate) use codex::{answers_a_call, codex, usage_of as codex_usage};
pub(crate) use copilot_cli::copilot_cli;
pub(crate) use gemini_cli::{
    gemini_cli, is_notice_from_v0_33 as gemini_cli_notice_from_v0_33, usage_of as gemini_cli_usage,
};
pub(crate) use opencode::{is_export as is_opencode_export, opencode, usage_of as opencode_usage};

/// A record that is not part of the model-visible transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The message it comes before (`messages.len()` at the end).
    pub before: usize,
    /// 1-based line in the file.
    pub line: usize,
    /// What it is: `past compaction`, `hook`, `meta`, `title`, `sidechain`, …
    pub kind: String,
    /// One line about it.
    pub text: String,
}

impl Note {
    /// A past compaction (shown as a marker in the list).
    pub fn is_past_compaction(&self) -> bool {
        self.kind == "past compaction"
    }
}

/// Which conversation of a session log to load.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Conversation {
    /// What the model sees now: the branch after the last compaction (the default).
    #[default]
    Live,
    /// Every epoch joined: the conversations before each past compaction, the summaries
    /// the agent got, and the live branch.
    Whole,
}

/// A compaction the log records (Claude Code `compact_boundary`, Codex `compacted`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PastCompaction {
    /// 1-based line of its record.
    pub line: usize,
    /// The first message after it (the next epoch's start).
    pub at: usize,
    /// What fired it (`auto`, `manual`), when recorded.
    pub trigger: Option<String>,
    /// The context's size right before it, as the client recorded it (Claude Code's
    /// `preTokens`; for Codex the last recorded prompt before it).
    pub pre_tokens: Option<u64>,
    /// The message holding the summary the agent got, when it is in this view.
    pub summary_message: Option<usize>,
    /// The readable text of what the compaction kept besides the summary (Codex keeps
    /// the user's recent messages in its replacement history; Claude Code 2.1 the
    /// messages its boundary's `preservedMessages`/`preservedSegment` names; older Claude
    /// Code none).
    pub kept: Vec<String>,
    /// The context's size right after it, as the client recorded it (Claude Code's
    /// `postTokens`), when it did.
    pub post_tokens: Option<u64>,
    /// The conversation it compacted is logged in another file: a Claude Code session
    /// resumed into a new file compacted there, and the next resume copied the boundary
    /// back. The epoch before it in this file is not what it compacted (its `preTokens`
    /// exceed all this file could have sent), so it brackets a threshold only from above
    /// and nothing predicts it from this file.
    pub elsewhere: bool,
}

impl PastCompaction {
    /// The one threshold a bracket `(low, high]` stands for: its middle (`high` when it is
    /// empty), what a prediction takes from the brackets it narrowed.
    pub fn bracket_middle((low, high): (u64, u64)) -> u64 {
        if low < high {
            low + (high - low).div_ceil(2)
        } else {
            high
        }
    }

    /// Whether a decision before message `before` knows of this compaction: a call was
    /// answered after it and before that point (its response recorded). The decision
    /// right after a compaction is the one that predicts it, so it must not read it (no
    /// look-ahead: its `preTokens` would be the answer).
    pub fn known_before(&self, messages: &[Message], before: usize) -> bool {
        let end = before.min(messages.len());
        self.at < end && messages[self.at..end].iter().any(|m| m.recorded().is_some())
    }

    /// For an automatic compaction: where the client's threshold lies, `(low, high]`.
    /// Agents decide before a request from the last response's usage (its prompt and its
    /// output): the response that set it off measured `high` (its `preTokens` where the
    /// log records them, else that usage); `low` is the largest of the epoch's responses
    /// before it, none of which did. `None` for a compaction the user asked for, or a log
    /// with no usage before it.
    pub fn threshold_bracket(&self, transcript: &crate::transcript::Transcript) -> Option<(u64, u64)> {
        if self.trigger.as_deref() != Some("auto") {
            return None;
        }
        let messages = transcript.messages();
        // The responses of the epoch it ended, newest first. One recording no prompt at
        // all (a provider that reports no usage, as some Anthropic-compatible ones do on a
        // stream's lines) measured nothing.
        let mut usages = (0..self.at.min(messages.len()))
            .rev()
            .take_while(|&i| !messages[i].past_summary)
            .filter_map(|i| {
                let context = messages[i].recorded()?.context_tokens();
                (context > 0).then(|| context.saturating_add(transcript.output_tokens_known(i).unwrap_or(0)))
            });
        // The last response is the one that set it off (its count is `preTokens`, where
        // recorded); none before it did: the agent counted at least each of them and went
        // on.
        let set_it_off = usages.next();
        let high = self.pre_tokens.or(set_it_off)?;
        // Compacted elsewhere: this file's requests are not the ones it followed.
        let low = if self.elsewhere { 0 } else { usages.max().unwrap_or(0) };
        Some((low.min(high), high))
    }
}

/// One line of a log, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogRecord {
    /// The line's bytes (without its newline).
    pub range: Range<usize>,
    /// The message it belongs to, when model-visible.
    pub message: Option<usize>,
    /// On the active conversation (always, for Codex).
    pub active: bool,
    /// Its place in the active conversation (the order the client reads it in, which a
    /// Claude Code file need not be written in); `None` off it.
    pub order: Option<usize>,
    /// Off the active conversation but on an earlier epoch of it (reached back through
    /// compaction boundaries): its place there, oldest first. A compacted Claude Code log
    /// keeps these, as Claude Code does.
    pub earlier: Option<usize>,
}

/// What loading a log produced.
#[derive(Debug)]
pub(crate) struct Loaded {
    pub messages: Vec<Message>,
    pub notes: Vec<Note>,
    pub records: Vec<LogRecord>,
    /// The model the session ran with (the last one a response names).
    pub model: Option<String>,
    /// The compactions the log records, in order (in the live view only the last).
    pub compactions: Vec<PastCompaction>,
    /// A Codex rollout's reader of usage, where the read ended.
    pub codex_usage: Option<codex::UsageReader>,
}

impl Loaded {
    /// Nothing read yet.
    fn empty() -> Loaded {
        Loaded {
            messages: Vec::new(),
            notes: Vec::new(),
            records: Vec::new(),
            model: None,
            compactions: Vec::new(),
            codex_usage: None,
        }
    }

    /// The record at `range`, next in file order and on the active conversation (a log
    /// with no branches), backing message `owner` when it is one.
    fn push_in_order(&mut self, range: &Range<usize>, owner: Option<usize>) {
        self.records.push(LogRecord {
            range: range.clone(),
            message: owner,
            active: true,
            order: Some(self.records.len()),
            earlier: None,
        });
    }
}

struct Line<'a> {
    number: usize,
    range: Range<usize>,
    fields: BTreeMap<FieldName<'a>, &'a RawValue>,
}

/// A record's field name, borrowed from the line (copied only when it holds an escape): a
/// log of a million records would otherwise allocate a string per field of every one.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct FieldName<'a>(std::borrow::Cow<'a, str>);

impl std::borrow::Borrow<str> for FieldName<'_> {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl<'de> serde::Deserialize<'de> for FieldName<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<FieldName<'de>, D::Error> {
        struct Name;
        impl<'de> serde::de::Visitor<'de> for Name {
            type Value = FieldName<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a field name")
            }
            fn visit_borrowed_str<E>(self, name: &'de str) -> Result<FieldName<'de>, E> {
                Ok(FieldName(std::borrow::Cow::Borrowed(name)))
            }
            fn visit_str<E>(self, name: &str) -> Result<FieldName<'de>, E> {
                Ok(FieldName(std::borrow::Cow::Owned(name.to_owned())))
            }
        }
        deserializer.deserialize_str(Name)
    }
}

/// A log's records, one a line; a last line still being written (no newline yet, and
/// its JSON cut short) is left out and named in `incomplete`, so a live log opens.
fn lines<'a>(source: &str, text: &'a str, start: usize) -> Result<(Vec<Line<'a>>, Option<Note>), LoadError> {
    let mut out = Vec::new();
    let mut incomplete = None;
    let mut at = start;
    for (i, line) in text[start..].split_inclusive('\n').enumerate() {
        let trimmed = line.trim();
        if !trimmed.is_empty() {
            let offset = at + (line.len() - line.trim_start().len());
            let parsed: Result<BTreeMap<FieldName, &RawValue>, _> =
                serde_json::from_str(&text[offset..offset + trimmed.len()]);
            let fields = match parsed {
                Ok(fields) => fields,
                Err(e) if e.is_eof() && !line.ends_with('\n') && at + line.len() == text.len() => {
                    incomplete = Some(Note {
                        before: usize::MAX,
                        line: i + 1,
                        kind: "incomplete".into(),
                        text: "the last line is still being written: not read yet".to_owned(),
                    });
                    break;
                }
                Err(e) => return Err(json_error(source, text, offset, &e)),
            };
            out.push(Line {
                number: i + 1,
                range: offset..offset + trimmed.len(),
                fields,
            });
        }
        at += line.len();
    }
    Ok((out, incomplete))
}

/// Adds the note of an incomplete last line, after every message.
fn note_incomplete(loaded: &mut Loaded, incomplete: Option<Note>) {
    if let Some(mut note) = incomplete {
        note.before = loaded.messages.len();
        loaded.notes.push(note);
    }
}

/// A message whose JSON is written for a record that is not itself one (an event, a
/// compaction, another agent's message record): `json` in `dialect` is what is counted
/// and shown, the record at `record` what backs it.
fn synthetic_message(
    source: &str,
    text: &str,
    dialect: Dialect,
    json: String,
    record: &Range<usize>,
    index: usize,
) -> Result<Message, LoadError> {
    let (mut m, _) = dialect
        .rules()
        .view(&json, record.clone(), index, super::message::PREVIEW_CHARS)
        .map_err(|e| json_error(source, text, record.start, &e))?;
    m.extra_mut().records = vec![record.clone()];
    m.set_synthetic(json);
    Ok(m)
}

/// Pairs the calls and results of messages whose JSON is all synthesized, as `dialect`
/// pairs a list it reads.
fn pair_synthetic(dialect: Dialect, messages: &mut [Message]) {
    let raws: Vec<String> = messages
        .iter()
        .map(|m| m.synthetic().unwrap_or_default().to_owned())
        .collect();
    let raws: Vec<&str> = raws.iter().map(String::as_str).collect();
    dialect.rules().pair(messages, &raws);
}

fn value(raw: Option<&&RawValue>) -> Value {
    raw.and_then(|r| serde_json::from_str(r.get()).ok())
        .unwrap_or(Value::Null)
}

fn text_of(raw: Option<&&RawValue>) -> String {
    match value(raw) {
        Value::String(s) => s,
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn one_line(text: &str, max: usize) -> String {
    crate::text::one_line(text, max)
}
