//! Writing a cut: the compacted document, in the input's format.
//!
//! The kept head and the tail are the exact bytes read (the tail as one contiguous
//! stretch, its separators included); only the summary and reminder messages are newly
//! serialized, joined with the file's own separator. A session log keeps whole records.

use serde_json::json;

use super::document::Document;
use super::plan::Cut;
use crate::tokens::Counts;
use crate::transcript::{Container, Dialect, Transcript};

/// The prefix of the summary message's content (§7F 9.2).
pub const SUMMARY_PREFIX: &str = "[Summary of earlier conversation]\n";

/// The memory-tool reminder added with `flush_to_memory` (§7F 9.3; the dash is U+2014).
pub const FLUSH_REMINDER: &str = "Before continuing: if anything from earlier is worth keeping, save it with the memory tool now \u{2014} the earlier transcript is about to be summarized.";

/// The JSON of the messages a firing writes: the summary, then (with `flush_to_memory`)
/// the reminder.
pub fn inserted_messages(flush_to_memory: bool, summary: &str) -> Vec<String> {
    let mut inserted = vec![system_message(&format!("{SUMMARY_PREFIX}{summary}"))];
    if flush_to_memory {
        inserted.push(system_message(FLUSH_REMINDER));
    }
    inserted
}

/// One message a firing inserts: the message the model sees (counted) and the text
/// written into the output (a whole record, for log formats).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inserted {
    /// The model-visible message JSON.
    pub counted: String,
    /// What is written to the output.
    pub written: String,
}

/// The messages a firing inserts, in the transcript's own shape. OpenAI and Anthropic
/// get §7F's `role:"system"` messages exactly; Gemini a `user` content; Responses and
/// Codex a `system` message item; OpenHands a user message event; Claude Code a `user`
/// record marked `isCompactSummary` whose `uuid` is the parent the first kept tail
/// record points at, so the `parentUuid` chain stays linked.
pub fn inserted_for(transcript: &Transcript, cut: &Cut, flush_to_memory: bool, summary: &str) -> Vec<Inserted> {
    let specs = inserted_messages(flush_to_memory, summary);
    let count = specs.len();
    specs
        .into_iter()
        .enumerate()
        .map(|(k, spec)| {
            let content = serde_json::from_str::<serde_json::Value>(&spec)
                .ok()
                .and_then(|v| v.get("content").and_then(|c| c.as_str().map(str::to_owned)))
                .unwrap_or_default();
            shape(transcript, cut, (k, count), spec, &content)
        })
        .collect()
}

fn shape(transcript: &Transcript, cut: &Cut, (k, count): (usize, usize), spec: String, content: &str) -> Inserted {
    let same = |json: String| Inserted {
        counted: json.clone(),
        written: json,
    };
    match (&transcript.format.container, transcript.format.dialect) {
        (Container::ClaudeCode, _) => {
            // The inserted records form a chain whose last link takes the uuid the first
            // kept tail record's parentUuid names.
            let name = |i: usize| format!("ctxlens-inserted-{i}");
            let uuid = if k + 1 == count {
                claude_link(transcript, cut).unwrap_or_else(|| name(k))
            } else {
                name(k)
            };
            let parent = if k == 0 {
                serde_json::Value::Null
            } else {
                name(k - 1).into()
            };
            let message = serde_json::from_str::<serde_json::Value>(&spec).unwrap_or_default();
            let record = json!({"parentUuid": parent, "isSidechain": false, "type": "user", "isCompactSummary": true, "uuid": uuid, "message": message});
            Inserted {
                counted: spec,
                written: record.to_string(),
            }
        }
        (Container::Codex, _) => {
            let item =
                json!({"type": "message", "role": "system", "content": [{"type": "input_text", "text": content}]});
            Inserted {
                counted: item.to_string(),
                written: json!({"timestamp": "", "type": "response_item", "payload": item}).to_string(),
            }
        }
        (_, Dialect::Gemini) => same(json!({"role": "user", "parts": [{"text": content}]}).to_string()),
        (_, Dialect::Responses) => same(
            json!({"type": "message", "role": "system", "content": [{"type": "input_text", "text": content}]})
                .to_string(),
        ),
        (_, Dialect::OpenHands) => same(
            json!({"source": "user", "action": "message", "message": content, "args": {"content": content}})
                .to_string(),
        ),
        (_, Dialect::OpenAi | Dialect::Anthropic) => same(spec),
    }
}

/// The `parentUuid` of the first kept Claude Code record after the summary.
fn claude_link(transcript: &Transcript, cut: &Cut) -> Option<String> {
    let first = transcript.messages.get(cut.split)?.records.first()?;
    let record: serde_json::Value = serde_json::from_str(&transcript.text[first.clone()]).ok()?;
    record.get("parentUuid")?.as_str().map(str::to_owned)
}

/// Tokens of the compacted message list, without building the document: the kept head
/// and tail come from the counts, only the inserted messages are counted.
pub fn tokens_after(cut: &Cut, counts: &Counts, inserted: &[String]) -> u64 {
    let counter = counts.tokenizer.counter();
    cut.head_tokens + inserted.iter().map(|m| counter.count_message(m)).sum::<u64>() + cut.tail_tokens
}

/// A cut written out: the document and what the newly written messages are.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The output document.
    pub document: Document,
    /// The model-visible JSON of each inserted message (summary, then reminder).
    pub inserted: Vec<String>,
    /// Tokens of the resulting message list, by the tokenizer of the counts.
    pub tokens_after: u64,
}

/// The compacted document for a cut at `cut` with the summary text `summary`.
pub fn render(transcript: &Transcript, counts: &Counts, cut: &Cut, flush_to_memory: bool, summary: &str) -> Rendered {
    let shaped = inserted_for(transcript, cut, flush_to_memory, summary);
    let counted: Vec<String> = shaped.iter().map(|i| i.counted.clone()).collect();
    let tokens_after = tokens_after(cut, counts, &counted);
    let written: Vec<String> = shaped.into_iter().map(|i| i.written).collect();
    let document = if transcript.format.container.is_log() {
        render_log(transcript, cut, written)
    } else {
        render_list(transcript, cut, written)
    };
    Rendered {
        document,
        inserted: counted,
        tokens_after,
    }
}

/// A message list: what surrounds the list, the head, the inserted messages, the tail,
/// joined by the file's own separator.
fn render_list(transcript: &Transcript, cut: &Cut, inserted: Vec<String>) -> Document {
    let (prefix, suffix) = transcript.surroundings();
    let separator = transcript.separator().to_owned();
    let len = transcript.messages.len();
    let mut doc = Document::new(transcript);
    doc.push_input(transcript, 0..prefix.len());
    let mut pieces: Vec<Option<std::ops::Range<usize>>> = Vec::new();
    if cut.head_end > 0 {
        pieces.push(Some(transcript.run_bytes(0..cut.head_end)));
    }
    let inserted_count = inserted.len();
    pieces.extend(std::iter::repeat_n(None, inserted_count));
    if cut.split < len {
        pieces.push(Some(transcript.run_bytes(cut.split..len)));
    }
    let mut inserted = inserted.into_iter();
    for (k, piece) in pieces.into_iter().enumerate() {
        if k > 0 {
            doc.push_str(&separator);
        }
        match piece {
            Some(range) => doc.push_input(transcript, range),
            None => doc.push_new(inserted.next().unwrap_or_default()),
        }
    }
    let end = transcript.text.len();
    doc.push_input(transcript, end - suffix.len()..end);
    doc
}

/// A compacted log: the records before the first message (session metadata), the head
/// messages' records, the inserted records, then every record of the active
/// conversation from the first kept tail message on, all byte for byte as read.
fn render_log(transcript: &Transcript, cut: &Cut, inserted: Vec<String>) -> Document {
    let records = &transcript.log_records;
    let first_message_at = transcript
        .messages
        .first()
        .and_then(|m| m.records.first())
        .map_or(usize::MAX, |r| r.start);
    let tail_at = transcript
        .messages
        .get(cut.split)
        .and_then(|m| m.records.first())
        .map(|r| r.start);
    let mut lines: Vec<std::ops::Range<usize>> = records
        .iter()
        .filter(|r| r.active && r.message.is_none() && r.range.start < first_message_at)
        .map(|r| r.range.clone())
        .collect();
    for m in &transcript.messages[..cut.head_end] {
        lines.extend(m.records.iter().cloned());
    }
    let mut doc = Document::new(transcript);
    for range in lines {
        doc.push_input(transcript, range);
        doc.push_str("\n");
    }
    for record in inserted {
        doc.push_new(record);
        doc.push_str("\n");
    }
    if let Some(tail_at) = tail_at {
        for r in records.iter().filter(|r| r.active && r.range.start >= tail_at) {
            doc.push_input(transcript, r.range.clone());
            doc.push_str("\n");
        }
    }
    doc
}

/// A newly written `{"role":"system","content":…}` message, compact, key order fixed.
fn system_message(content: &str) -> String {
    json!({"role": "system", "content": content}).to_string()
}
