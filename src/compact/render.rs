//! Applying a plan: the compacted document, in the input's format.
//!
//! A no-op returns the input text itself (byte-identical). A compaction writes the kept
//! head and the tail as the exact bytes read (the tail as one contiguous slice, its
//! separators included); only the summary and reminder messages are newly serialized,
//! joined with the file's own separator.

use std::borrow::Cow;

use serde_json::json;

use super::plan::{plan, Cut, Decision, Options, Plan};
use crate::summarize::{older_messages, Summarizer};
use crate::tokens::Counts;
use crate::transcript::{Container, Dialect, Transcript};

/// The prefix of the summary message's content (§7F 9.2).
pub const SUMMARY_PREFIX: &str = "[Summary of earlier conversation]\n";

/// The memory-tool reminder added with `flush_to_memory` (§7F 9.3; the dash is U+2014).
pub const FLUSH_REMINDER: &str = "Before continuing: if anything from earlier is worth keeping, save it with the memory tool now \u{2014} the earlier transcript is about to be summarized.";

/// The result of one firing.
#[derive(Debug, Clone)]
pub struct Compaction<'a> {
    /// The plan that was applied.
    pub plan: Plan,
    /// The whole output document (the input itself for a no-op).
    pub output: Cow<'a, str>,
    /// The summary text, when compacted.
    pub summary: Option<String>,
    /// JSON of the newly written messages (summary, then reminder), when compacted.
    pub inserted: Vec<String>,
    /// Tokens of the resulting message list, by the tokenizer of the counts.
    pub tokens_after: u64,
}

impl Compaction<'_> {
    /// Problems a user should know about this result.
    pub fn warnings(&self, transcript: &Transcript) -> Vec<Warning> {
        warnings(&self.plan, self.tokens_after, transcript.format.dialect)
    }
}

/// Problems a user should know about a plan whose result costs `tokens_after`.
pub fn warnings(plan: &Plan, tokens_after: u64, dialect: Dialect) -> Vec<Warning> {
    let Some(cut) = plan.cut() else {
        return Vec::new();
    };
    let mut warnings = Vec::new();
    if tokens_after > plan.max_tokens {
        warnings.push(Warning::StillOverBudget {
            tokens_after,
            max_tokens: plan.max_tokens,
        });
    }
    if cut.tail_empty() {
        warnings.push(Warning::NoUserMessageLeft);
    }
    if dialect == Dialect::Anthropic {
        warnings.push(Warning::SystemInsideAnthropicMessages);
    }
    warnings
}

/// Something about a compaction's result that will bite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Warning {
    /// The result is still over `max_tokens`: the compactor fires again every turn.
    StillOverBudget {
        /// Tokens after compaction.
        tokens_after: u64,
        /// The budget.
        max_tokens: u64,
    },
    /// The tail is empty, so the result holds no user message.
    NoUserMessageLeft,
    /// The summary is a `role:"system"` message inside an Anthropic `messages` list,
    /// which the Anthropic API rejects.
    SystemInsideAnthropicMessages,
    /// The deterministic pass ended over its cap (it is best effort).
    CapNotMet {
        /// Tokens after the pass.
        tokens_after: u64,
        /// The cap.
        cap: u64,
    },
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Warning::StillOverBudget { tokens_after, max_tokens } => write!(
                f,
                "result is still over max_tokens ({tokens_after} > {max_tokens}): the compactor will fire again on every turn"
            ),
            Warning::NoUserMessageLeft => f.write_str("no user message left: the tail is empty and the whole body is summarized"),
            Warning::CapNotMet { tokens_after, cap } => {
                write!(f, "the deterministic pass cannot reach the cap ({tokens_after} > {cap}): rules only cut what they safely can")
            }
            Warning::SystemInsideAnthropicMessages => f.write_str(
                "Anthropic dialect: the summary is a role:\"system\" message inside `messages`, which the Anthropic API rejects",
            ),
        }
    }
}

/// Plans and applies one firing, calling `summarizer` once when the plan compacts.
pub fn compact<'a>(
    transcript: &'a Transcript,
    counts: &Counts,
    options: &Options,
    summarizer: &dyn Summarizer,
) -> anyhow::Result<Compaction<'a>> {
    let plan = plan(transcript, counts, options);
    match plan.decision {
        Decision::Compact(cut) => {
            let older = older_messages(transcript, cut.head_end..cut.split, summarizer.needs_text());
            let summary = summarizer.summarize(&older)?;
            Ok(render(transcript, counts, plan, &cut, summary))
        }
        Decision::UnderBudget | Decision::NothingToSummarize => Ok(Compaction {
            plan,
            output: Cow::Borrowed(&transcript.text),
            summary: None,
            inserted: Vec::new(),
            tokens_after: plan.tokens_before,
        }),
    }
}

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

/// The compacted document for a plan that cuts at `cut`, with a given summary text.
pub fn render<'a>(
    transcript: &'a Transcript,
    counts: &Counts,
    plan: Plan,
    cut: &Cut,
    summary: String,
) -> Compaction<'a> {
    let shaped = inserted_for(transcript, cut, plan.flush_to_memory, &summary);
    let counted: Vec<String> = shaped.iter().map(|i| i.counted.clone()).collect();
    let tokens_after = tokens_after(cut, counts, &counted);
    let inserted: Vec<String> = shaped.into_iter().map(|i| i.written).collect();
    if transcript.format.container.is_log() {
        return Compaction {
            plan,
            output: Cow::Owned(render_log(transcript, cut, &inserted)),
            summary: Some(summary),
            inserted,
            tokens_after,
        };
    }

    let (prefix, suffix) = transcript.surroundings();
    let separator = transcript.separator();
    let len = transcript.messages.len();
    let mut parts: Vec<&str> = Vec::with_capacity(4);
    if cut.head_end > 0 {
        parts.push(transcript.raw_run(0..cut.head_end));
    }
    parts.extend(inserted.iter().map(String::as_str));
    if cut.split < len {
        parts.push(transcript.raw_run(cut.split..len));
    }
    let body = parts.join(separator);
    let mut output = String::with_capacity(prefix.len() + body.len() + suffix.len());
    output.push_str(prefix);
    output.push_str(&body);
    output.push_str(suffix);

    Compaction {
        plan,
        output: Cow::Owned(output),
        summary: Some(summary),
        inserted,
        tokens_after,
    }
}

/// A compacted log: the records before the first message (session metadata), the head
/// messages' records, the inserted records, then every record of the active
/// conversation from the first kept tail message on, all byte for byte as read.
fn render_log(transcript: &Transcript, cut: &Cut, inserted: &[String]) -> String {
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
    let mut lines: Vec<&str> = Vec::new();
    lines.extend(
        records
            .iter()
            .filter(|r| r.active && r.message.is_none() && r.range.start < first_message_at)
            .map(|r| &transcript.text[r.range.clone()]),
    );
    for m in &transcript.messages[..cut.head_end] {
        lines.extend(m.records.iter().map(|r| &transcript.text[r.clone()]));
    }
    lines.extend(inserted.iter().map(String::as_str));
    if let Some(tail_at) = tail_at {
        lines.extend(
            records
                .iter()
                .filter(|r| r.active && r.range.start >= tail_at)
                .map(|r| &transcript.text[r.range.clone()]),
        );
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// A newly written `{"role":"system","content":…}` message, compact, key order fixed.
fn system_message(content: &str) -> String {
    json!({"role": "system", "content": content}).to_string()
}
