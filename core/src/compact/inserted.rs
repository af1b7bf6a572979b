//! What a firing writes besides the kept messages: the summary (and with
//! `flush_to_memory` the reminder), in the transcript's own shape, so the provider or
//! the client that reads the file accepts it.
//!
//! - OpenAI and Anthropic message lists: §7F's `{"role":"system","content":…}` exactly
//!   (the default), or with `--summary-role user` a user message (for Anthropic as a text
//!   block, which its API accepts where it rejects a system role).
//! - Gemini: a `user` content; Responses: a `message` item; OpenHands: a user message event.
//! - Claude Code: `user` records as Claude Code writes a compaction summary
//!   (`isCompactSummary`, the envelope — `userType`, `cwd`, `sessionId`, `version`,
//!   `gitBranch`, `timestamp` — taken from the first kept record), linked into the
//!   `parentUuid` chain.
//! - Codex: a `compacted` record as Codex writes one, whose `replacement_history` is the
//!   new context's start: the kept head items, then the summary.

use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

use super::plan::Cut;
use crate::transcript::{Container, Dialect, Transcript};

/// The prefix of the summary message's content (§7F 9.2).
pub const SUMMARY_PREFIX: &str = "[Summary of earlier conversation]\n";

/// How Claude Code opens its summaries (the log reader knows it: [`crate::transcript`]).
/// Log viewers recognise a compaction summary by it (claude-code-log 1.7.0's
/// `COMPACTED_SUMMARY_PREFIX`), so a summary ctxlens writes into a Claude Code log opens
/// with it too, before §7F's own prefix.
pub use crate::transcript::CLAUDE_CODE_OPENING;

/// The memory-tool reminder added with `flush_to_memory` (§7F 9.3; the dash is U+2014).
pub const FLUSH_REMINDER: &str = "Before continuing: if anything from earlier is worth keeping, save it with the memory tool now \u{2014} the earlier transcript is about to be summarized.";

/// The role of the summary and reminder messages in a message list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SummaryRole {
    /// `role:"system"`, as §7F writes it (the default).
    #[default]
    System,
    /// `role:"user"`, which every provider accepts mid-conversation.
    User,
}

impl SummaryRole {
    /// The role's name.
    pub fn name(self) -> &'static str {
        match self {
            SummaryRole::System => "system",
            SummaryRole::User => "user",
        }
    }
}

impl crate::names::Named for SummaryRole {
    const KIND: &'static str = "summary role";
    const ALL: &'static [Self] = &[SummaryRole::System, SummaryRole::User];

    fn name(self) -> &'static str {
        SummaryRole::name(self)
    }
}

impl std::str::FromStr for SummaryRole {
    type Err = crate::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::names::parse(s)
    }
}

/// What a firing inserts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Insertion {
    /// The new model-visible messages (summary, then reminder), as counted.
    pub messages: Vec<String>,
    /// What is written: for message lists the messages themselves; for session logs
    /// whole records.
    pub records: Vec<String>,
}

/// The texts a firing inserts: the summary, then (with `flush_to_memory`) the reminder.
pub fn inserted_texts(flush_to_memory: bool, summary: &str) -> Vec<String> {
    let mut texts = vec![format!("{SUMMARY_PREFIX}{summary}")];
    if flush_to_memory {
        texts.push(FLUSH_REMINDER.to_owned());
    }
    texts
}

/// The JSON of the messages a §7F firing writes (the system role): the summary, then the
/// reminder.
pub fn inserted_messages(flush_to_memory: bool, summary: &str) -> Vec<String> {
    inserted_texts(flush_to_memory, summary)
        .iter()
        .map(|text| json!({"role": "system", "content": text}).to_string())
        .collect()
}

/// What a firing at `cut` inserts into `transcript`, in its own shape.
pub fn insertion(
    transcript: &Transcript,
    cut: &Cut,
    flush_to_memory: bool,
    role: SummaryRole,
    summary: &str,
) -> Insertion {
    let texts = inserted_texts(flush_to_memory, summary);
    match (&transcript.format.container, transcript.format.dialect) {
        (Container::ClaudeCode, _) => claude_code(transcript, cut, &claude_code_texts(texts)),
        (Container::Codex, _) => codex(transcript, cut, &texts),
        (_, dialect) => {
            let messages: Vec<String> = texts.iter().map(|t| list_message(dialect, role, t)).collect();
            Insertion {
                records: messages.clone(),
                messages,
            }
        }
    }
}

/// The model-visible messages a firing inserts into `transcript`, without the records
/// around them: what a later compaction of the result would see (replay's working
/// context). [`insertion`] writes the same messages.
pub fn visible_messages(
    transcript: &Transcript,
    flush_to_memory: bool,
    role: SummaryRole,
    summary: &str,
) -> Vec<String> {
    let mut texts = inserted_texts(flush_to_memory, summary);
    if transcript.format.container == Container::ClaudeCode {
        texts = claude_code_texts(texts);
    }
    texts
        .iter()
        .map(|text| match &transcript.format.container {
            Container::ClaudeCode => claude_code_message(text).to_string(),
            Container::Codex => codex_item(text).to_string(),
            _ => list_message(transcript.format.dialect, role, text),
        })
        .collect()
}

/// The texts a firing writes into a Claude Code log: the summary opening as Claude
/// Code's does ([`CLAUDE_CODE_OPENING`]), then the reminder as it is.
fn claude_code_texts(mut texts: Vec<String>) -> Vec<String> {
    if let Some(summary) = texts.first_mut() {
        summary.insert_str(0, CLAUDE_CODE_OPENING);
    }
    texts
}

/// Claude Code's summary message (a user message; the record marks it as a summary).
fn claude_code_message(text: &str) -> Value {
    json!({"role": "user", "content": text})
}

/// Codex's summary item in a replacement history.
fn codex_item(text: &str) -> Value {
    json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]})
}

/// One inserted message of a plain message list, in its dialect's shape.
fn list_message(dialect: Dialect, role: SummaryRole, text: &str) -> String {
    dialect.rules().text_message(role.name(), text).to_string()
}

/// A uuid-shaped id derived from `seed` (stable: the same export writes the same ids).
fn derived_uuid(seed: &str) -> String {
    let d = Sha256::digest(seed.as_bytes());
    let hex = d.iter().take(16).fold(String::with_capacity(32), |mut hex, b| {
        use std::fmt::Write;
        let _ = write!(hex, "{b:02x}");
        hex
    });
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// The record of message `index` as a JSON object, when it has one.
fn record_of(transcript: &Transcript, index: usize) -> Option<Map<String, Value>> {
    let range = transcript.messages.get(index)?.records().first()?.clone();
    serde_json::from_str::<Value>(&transcript.text[range])
        .ok()?
        .as_object()
        .cloned()
}

/// Claude Code: the summary as the client writes one (a `user` record marked
/// `isCompactSummary`), then the reminder as a user record, chained: the first after the
/// last kept head record (or at the root), the last under the uuid the first kept tail
/// record names as its parent, so the `parentUuid` chain stays linked.
fn claude_code(transcript: &Transcript, cut: &Cut, texts: &[String]) -> Insertion {
    // The envelope comes from the first kept record; with an empty tail, from the last
    // record of the conversation.
    let first_kept = record_of(transcript, cut.split)
        .or_else(|| cut.split.checked_sub(1).and_then(|last| record_of(transcript, last)))
        .unwrap_or_default();
    let tail_parent =
        record_of(transcript, cut.split).and_then(|r| r.get("parentUuid").and_then(Value::as_str).map(str::to_owned));
    let head_uuid = cut
        .head_end
        .checked_sub(1)
        .and_then(|h| record_of(transcript, h))
        .and_then(|r| r.get("uuid").and_then(Value::as_str).map(str::to_owned));
    let seed = transcript.text.len().to_string() + &texts.concat();
    let uuids: Vec<String> = (0..texts.len())
        .map(|k| match (&tail_parent, k + 1 == texts.len()) {
            (Some(parent), true) => parent.clone(),
            _ => derived_uuid(&format!("{seed}#{k}")),
        })
        .collect();
    // The boundary record Claude Code writes before its summary: a new chain starts at it
    // (no parent), `logicalParentUuid` names the last record before the compaction that
    // the output keeps (the summarized ones are gone: an earlier compaction's summary or
    // boundary, or an earlier epoch's last record), so `history` walks back through every
    // compaction; `compactMetadata` says how and at what size (ctxlens' count).
    let boundary_uuid = derived_uuid(&format!("{seed}#boundary"));
    let before_uuid = super::render::kept_before(transcript, cut)
        .into_iter()
        .rev()
        .find_map(|r| {
            serde_json::from_str::<Value>(&transcript.text[r.range.clone()])
                .ok()?
                .get("uuid")?
                .as_str()
                .map(str::to_owned)
        });
    let mut boundary = Map::new();
    boundary.insert(
        "parentUuid".into(),
        head_uuid.clone().map_or(Value::Null, Value::String),
    );
    boundary.insert(
        "logicalParentUuid".into(),
        before_uuid.map_or(Value::Null, Value::String),
    );
    boundary.insert(
        "isSidechain".into(),
        first_kept.get("isSidechain").cloned().unwrap_or(Value::Bool(false)),
    );
    for key in ["userType", "cwd", "sessionId", "version", "gitBranch", "agentId"] {
        if let Some(v) = first_kept.get(key) {
            boundary.insert(key.into(), v.clone());
        }
    }
    boundary.insert("type".into(), "system".into());
    boundary.insert("subtype".into(), "compact_boundary".into());
    boundary.insert("content".into(), "Conversation compacted".into());
    boundary.insert("isMeta".into(), Value::Bool(false));
    if let Some(ts) = first_kept.get("timestamp") {
        boundary.insert("timestamp".into(), ts.clone());
    }
    boundary.insert("uuid".into(), boundary_uuid.clone().into());
    boundary.insert("level".into(), "info".into());
    boundary.insert(
        "compactMetadata".into(),
        // Claude Code's own fields, which viewers read, and one they ignore that tells
        // ctxlens' readers this compaction is not the agent's (`WRITTEN_BY`).
        json!({"trigger": "manual", "preTokens": cut.head_tokens + cut.summarized_tokens + cut.tail_tokens,
            "writtenBy": crate::transcript::WRITTEN_BY}),
    );
    let mut messages = Vec::new();
    let mut records = vec![Value::Object(boundary).to_string()];
    for (k, text) in texts.iter().enumerate() {
        let message = claude_code_message(text);
        let mut record = Map::new();
        let parent = if k == 0 {
            Value::String(boundary_uuid.clone())
        } else {
            Value::String(uuids[k - 1].clone())
        };
        record.insert("parentUuid".into(), parent);
        let sidechain = first_kept.get("isSidechain").cloned().unwrap_or(Value::Bool(false));
        record.insert("isSidechain".into(), sidechain);
        for key in ["userType", "cwd", "sessionId", "version", "gitBranch", "agentId"] {
            if let Some(v) = first_kept.get(key) {
                record.insert(key.into(), v.clone());
            }
        }
        record.insert("type".into(), "user".into());
        record.insert("message".into(), message.clone());
        // Both are what the compaction wrote (neither is a human turn).
        record.insert("isVisibleInTranscriptOnly".into(), Value::Bool(true));
        record.insert("isCompactSummary".into(), Value::Bool(true));
        record.insert("uuid".into(), uuids[k].clone().into());
        if let Some(ts) = first_kept.get("timestamp") {
            record.insert("timestamp".into(), ts.clone());
        }
        messages.push(message.to_string());
        records.push(Value::Object(record).to_string());
    }
    Insertion { messages, records }
}

/// True for a Codex message that lives in an earlier `compacted` record's replacement
/// history (it has no record of its own). A prompt rebuilt from an `event_msg` is
/// synthetic too, but its event is its own record.
pub(crate) fn from_replacement(transcript: &Transcript, index: usize) -> bool {
    let m = &transcript.messages[index];
    transcript.format.container == Container::Codex && m.synthetic().is_some() && !m.from_event
}

/// Codex: one `compacted` record whose replacement history is the kept head's items and
/// the summary (and reminder) as user messages, as Codex rebuilds history after a
/// compaction, then any kept tail items that lived in an earlier replacement history;
/// the tail's own records follow it unchanged.
fn codex(transcript: &Transcript, cut: &Cut, texts: &[String]) -> Insertion {
    let new_items: Vec<Value> = texts.iter().map(|t| codex_item(t)).collect();
    let mut history: Vec<Value> = (0..cut.head_end)
        .filter_map(|i| serde_json::from_str(transcript.raw(i)).ok())
        .collect();
    history.extend(new_items.iter().cloned());
    history.extend(
        (cut.split..transcript.messages.len())
            .take_while(|&i| from_replacement(transcript, i))
            .filter_map(|i| serde_json::from_str::<Value>(transcript.raw(i)).ok()),
    );
    let timestamp = record_of(transcript, cut.split)
        .or_else(|| record_of(transcript, cut.split.saturating_sub(1)))
        .and_then(|r| r.get("timestamp").cloned())
        .unwrap_or(Value::String(String::new()));
    let record = json!({
        "timestamp": timestamp,
        "type": "compacted",
        "payload": {"message": texts.first().cloned().unwrap_or_default(), "replacement_history": history}
    });
    Insertion {
        messages: new_items.iter().map(Value::to_string).collect(),
        records: vec![record.to_string()],
    }
}
