//! opencode sessions, read as `opencode export` prints one: `{info, messages: [{info,
//! parts}]}`, the session's `Session.Info` and every message with its parts in ID order
//! (anomalyco/opencode `packages/opencode/src/cli/cmd/export.ts` at v1.1.65, 34ebe814).
//! The storage tree and the SQLite database hold the same JSON; [`super::opencode_store`]
//! assembles this document from either, so one reader serves all three.
//!
//! The conversation is rebuilt as Anthropic messages, as opencode's `toModelMessages`
//! (`session/message-v2.ts`) sends it:
//! - a user message: its text parts (the synthetic ones opencode adds included, `ignored`
//!   ones left out) and its images and PDFs;
//! - an assistant message: its text and its tool calls (`tool_use`), then one user turn
//!   of the calls' results (`tool_result`; a call never finished reads as interrupted). An
//!   assistant message with an error is not sent, but for an abort that holds content. Its
//!   `tokens` is the usage of its call (`input` excludes the cache; `reasoning` is billed
//!   as output);
//! - reasoning, step marks, patches, snapshots, retries, agents and sub-tasks are notes.
//!
//! A compaction is a user message holding a `compaction` part (`auto` or not) answered by
//! an assistant message with `summary: true`. The model is then sent only what follows
//! (`filterCompacted`): the request as the question `What did we do so far?`, the summary,
//! the kept tail from the part's `tail_start_id` (v1.18 on), then everything newer; tool
//! outputs `prune` marked (`state.time.compacted`) are sent as
//! `[Old tool result content cleared]`. That is the live view; the whole session keeps
//! every message, each summary marked as one.

use std::collections::BTreeMap;
use std::ops::Range;

use serde_json::value::RawValue;
use serde_json::{json, Value};

use super::{one_line, pair_synthetic, synthetic_message, Conversation, Loaded, LogRecord, Note, PastCompaction};
use crate::error::{LoadError, Position};
use crate::transcript::dialect::Dialect;
use crate::transcript::format::{json_error, span_of};
use crate::transcript::message::Recorded;

/// What opencode sends in place of a tool output `prune` cleared (`toModelMessages`).
const CLEARED_OUTPUT: &str = "[Old tool result content cleared]";

/// What opencode sends in place of a compaction request.
const COMPACTION_QUESTION: &str = "What did we do so far?";

/// What opencode sends for a call that never finished.
const INTERRUPTED: &str = "[Tool execution was interrupted]";

/// One message of the session: its record's bytes, its `info` and its parts.
struct Stored {
    range: Range<usize>,
    line: usize,
    info: Value,
    parts: Vec<Value>,
}

impl Stored {
    fn role(&self) -> &str {
        self.info.get("role").and_then(Value::as_str).unwrap_or_default()
    }

    fn id(&self) -> &str {
        self.info.get("id").and_then(Value::as_str).unwrap_or_default()
    }

    fn parts_of<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
        self.parts
            .iter()
            .filter(move |p| p.get("type").and_then(Value::as_str) == Some(kind))
    }

    /// The compaction part of a compaction request.
    fn compaction_part(&self) -> Option<&Value> {
        self.parts_of("compaction").next()
    }

    fn is_summary(&self) -> bool {
        self.role() == "assistant" && self.info.get("summary").and_then(Value::as_bool) == Some(true)
    }

    fn text(&self) -> String {
        self.parts_of("text")
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// A compaction the session records: its request, its summary, and where the tail it
/// kept starts (v1.18 on).
struct Compaction {
    request: usize,
    summary: usize,
    tail_start: Option<usize>,
}

/// What a message is to a compaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum InCompaction {
    /// The user message holding the `compaction` part.
    Request,
    /// The assistant message answering it with the summary.
    Summary,
}

/// The usage of an assistant message's call (`Session.getUsage`: `input` is what was
/// neither read from nor written to the cache; reasoning is billed as output).
pub(crate) fn usage_of(info: &Value) -> Option<Recorded> {
    let tokens = info.get("tokens").filter(|t| t.is_object())?;
    let n = |pointer: &str| tokens.pointer(pointer).and_then(Value::as_u64).unwrap_or(0);
    let reasoning = n("/reasoning");
    Some(Recorded {
        input_tokens: n("/input"),
        cache_write_5m_tokens: n("/cache/write"),
        cache_read_tokens: n("/cache/read"),
        output_tokens: n("/output").saturating_add(reasoning),
        reasoning_tokens: reasoning,
        ..Recorded::default()
    })
    .filter(|r| r.context_tokens() > 0 || r.output_tokens > 0)
}

/// Whether `record` is an opencode session as `opencode export` prints it: `info` is a
/// session (its `id` starts `ses_`) and `messages` is beside it.
pub(crate) fn is_export(record: &BTreeMap<String, &RawValue>) -> bool {
    record.contains_key("messages")
        && record
            .get("info")
            .and_then(|info| serde_json::from_str::<BTreeMap<String, &RawValue>>(info.get()).ok())
            .is_some_and(|info| info.get("id").is_some_and(|id| id.get().starts_with("\"ses_")))
}

/// Reads an opencode session document.
pub(crate) fn opencode(
    source: &str,
    text: &str,
    start: usize,
    conversation: Conversation,
) -> Result<Loaded, LoadError> {
    let stored = messages_of(source, text, start)?;
    let compactions = compactions_of(&stored);
    let sent = match (conversation, compactions.last()) {
        (Conversation::Live, Some(last)) => live_order(&stored, last),
        _ => (0..stored.len()).collect(),
    };
    // What each message is to a compaction, looked up in O(1) per message.
    let mut in_compaction: Vec<Option<InCompaction>> = vec![None; stored.len()];
    for c in &compactions {
        in_compaction[c.request] = Some(InCompaction::Request);
        in_compaction[c.summary] = Some(InCompaction::Summary);
    }
    let mut loaded = Loaded::empty();
    let mut owner_of: Vec<Option<usize>> = vec![None; stored.len()];
    let mut order_of: Vec<Option<usize>> = vec![None; stored.len()];
    let live_request = match conversation {
        Conversation::Live => compactions.last().map(|c| c.request),
        Conversation::Whole => None,
    };
    let mut last_prompt = None;
    for (order, &k) in sent.iter().enumerate() {
        order_of[k] = Some(order);
        let message = &stored[k];
        let before = loaded.messages.len();
        match in_compaction[k] {
            Some(InCompaction::Request) if live_request == Some(k) => {
                let question = ("user", Value::from(COMPACTION_QUESTION));
                push(source, text, &mut loaded, message, question, false)?;
            }
            Some(InCompaction::Request) => {
                let trigger = trigger_of(message);
                loaded.notes.push(Note {
                    before,
                    line: message.line,
                    kind: "past compaction".into(),
                    text: format!("compacted here ({trigger})"),
                });
                loaded.compactions.push(PastCompaction {
                    line: message.line,
                    at: before,
                    trigger: Some(trigger.to_owned()),
                    pre_tokens: last_prompt,
                    summary_message: None,
                    kept: Vec::new(),
                    post_tokens: None,
                    elsewhere: false,
                });
            }
            Some(InCompaction::Summary) => {
                let summary = ("assistant", Value::from(message.text()));
                push(source, text, &mut loaded, message, summary, true)?;
                if let Some(past) = loaded.compactions.last_mut().filter(|p| p.summary_message.is_none()) {
                    past.summary_message = Some(before);
                }
            }
            None if message.role() == "assistant" => {
                if let Some(model) = message.info.get("modelID").and_then(Value::as_str) {
                    loaded.model = Some(model.to_owned());
                }
                assistant(source, text, &mut loaded, message, conversation)?;
                if let Some(usage) = usage_of(&message.info) {
                    last_prompt = Some(usage.context_tokens());
                }
            }
            None => user(source, text, &mut loaded, message)?,
        }
        owner_of[k] = (before < loaded.messages.len()).then_some(before);
        notes(&mut loaded, message, before);
    }
    if let (Conversation::Live, Some(last)) = (conversation, compactions.last()) {
        note_live_compaction(&mut loaded, &stored, last, stored.len() - sent.len());
    }
    for (k, message) in stored.iter().enumerate() {
        loaded.records.push(LogRecord {
            range: message.range.clone(),
            message: owner_of[k],
            active: order_of[k].is_some(),
            order: order_of[k],
            earlier: None,
        });
    }
    pair_synthetic(Dialect::Anthropic, &mut loaded.messages);
    Ok(loaded)
}

/// The live view's compaction (the last), before its first message: `hidden` earlier
/// messages are not sent, the summary is the view's second message.
fn note_live_compaction(loaded: &mut Loaded, stored: &[Stored], last: &Compaction, hidden: usize) {
    let request = &stored[last.request];
    loaded.notes.insert(
        0,
        Note {
            before: 0,
            line: request.line,
            kind: "past compaction".into(),
            text: format!("compacted here: {hidden} earlier messages are not sent"),
        },
    );
    loaded.compactions.push(PastCompaction {
        line: request.line,
        at: 0,
        trigger: Some(trigger_of(request).to_owned()),
        pre_tokens: stored[..last.request]
            .iter()
            .rev()
            .find_map(|m| usage_of(&m.info))
            .map(|u| u.context_tokens()),
        summary_message: Some(1),
        kept: last
            .tail_start
            .map(|t| {
                (t..last.request)
                    .map(|k| stored[k].text())
                    .filter(|t| !t.is_empty())
                    .collect()
            })
            .unwrap_or_default(),
        post_tokens: None,
        elsewhere: false,
    });
}

/// `auto` or `manual`, as the request's compaction part says.
fn trigger_of(request: &Stored) -> &'static str {
    let auto = request
        .compaction_part()
        .and_then(|p| p.get("auto"))
        .and_then(Value::as_bool);
    if auto == Some(true) {
        "auto"
    } else {
        "manual"
    }
}

/// Every message of the document, in the order it lists them (opencode's ID order).
fn messages_of(source: &str, text: &str, start: usize) -> Result<Vec<Stored>, LoadError> {
    let body = text[start..].trim_end();
    let map: BTreeMap<String, &RawValue> =
        serde_json::from_str(body).map_err(|e| json_error(source, text, start, &e))?;
    let Some(list) = map.get("messages") else {
        return Ok(Vec::new());
    };
    let at = |offset: usize| Position::of_offset(text, offset);
    let items: Vec<&RawValue> = serde_json::from_str(list.get()).map_err(|_| {
        LoadError::at(
            source,
            at(span_of(text, list.get()).start),
            "`messages` must be a JSON array of `{info, parts}` objects",
        )
    })?;
    let mut stored = Vec::with_capacity(items.len());
    for raw in items {
        let range = span_of(text, raw.get());
        let mut value: Value =
            serde_json::from_str(raw.get()).map_err(|e| json_error(source, text, range.start, &e))?;
        let info = value
            .get_mut("info")
            .map(Value::take)
            .filter(Value::is_object)
            .ok_or_else(|| {
                LoadError::at(
                    source,
                    at(range.start),
                    "an opencode message must have an `info` object",
                )
            })?;
        let parts = match value.get_mut("parts").map(Value::take) {
            Some(Value::Array(parts)) => parts,
            None | Some(Value::Null) => Vec::new(),
            Some(_) => return Err(LoadError::at(source, at(range.start), "`parts` must be an array")),
        };
        stored.push(Stored {
            line: at(range.start).line,
            range,
            info,
            parts,
        });
    }
    Ok(stored)
}

/// The compactions that completed: a request answered by a summary that finished (its
/// first such answer after it; summaries are looked up by the request they answer, so a
/// session of many requests is read in one pass).
fn compactions_of(stored: &[Stored]) -> Vec<Compaction> {
    let mut summaries: std::collections::HashMap<&str, Vec<usize>> = std::collections::HashMap::new();
    for (k, m) in stored.iter().enumerate() {
        let finished = m.info.get("finish").is_some_and(|f| !f.is_null());
        if let Some(parent) = m
            .info
            .get("parentID")
            .and_then(Value::as_str)
            .filter(|_| m.is_summary() && finished)
        {
            summaries.entry(parent).or_default().push(k);
        }
    }
    let index_of: std::collections::HashMap<&str, usize> =
        stored.iter().enumerate().map(|(k, m)| (m.id(), k)).collect();
    let mut out = Vec::new();
    for (request, message) in stored.iter().enumerate() {
        let Some(part) = message.compaction_part().filter(|_| message.role() == "user") else {
            continue;
        };
        let summary = summaries
            .get(message.id())
            .and_then(|answers| answers.iter().copied().find(|&k| k > request));
        let Some(summary) = summary else { continue };
        let tail_start = part
            .get("tail_start_id")
            .and_then(Value::as_str)
            .and_then(|id| index_of.get(id).copied())
            .filter(|&k| k < request);
        out.push(Compaction {
            request,
            summary,
            tail_start,
        });
    }
    out
}

/// The messages the model is sent after compaction `last`, in the order it sees them.
fn live_order(stored: &[Stored], last: &Compaction) -> Vec<usize> {
    let mut order = vec![last.request, last.summary];
    if let Some(tail) = last.tail_start {
        order.extend(tail..last.request);
    }
    order.extend((last.request + 1..stored.len()).filter(|&k| k != last.summary));
    order
}

/// What an added message is made of: its role and its content (a string, or blocks).
type Said<'a> = (&'a str, Value);

/// Adds the message `(role, content)`, backed by `message`'s record.
fn push(
    source: &str,
    text: &str,
    loaded: &mut Loaded,
    message: &Stored,
    (role, content): Said,
    past_summary: bool,
) -> Result<(), LoadError> {
    let index = loaded.messages.len();
    let json = json!({ "role": role, "content": content }).to_string();
    let mut m = synthetic_message(source, text, Dialect::Anthropic, json, &message.range, index)?;
    if past_summary {
        m.past_summary = true;
        m.boundary = false;
    }
    loaded.messages.push(m);
    Ok(())
}

/// A user message's blocks: its text (not what opencode marks `ignored`), its images
/// and documents (a text file's content is sent as the synthetic text after it).
fn user(source: &str, text: &str, loaded: &mut Loaded, message: &Stored) -> Result<(), LoadError> {
    let mut blocks = Vec::new();
    for part in &message.parts {
        match part.get("type").and_then(Value::as_str) {
            Some("text") if part.get("ignored").and_then(Value::as_bool) != Some(true) => {
                let words = part.get("text").and_then(Value::as_str).unwrap_or_default();
                blocks.push(json!({ "type": "text", "text": words }));
            }
            Some("file") => blocks.extend(media_block(part)),
            _ => {}
        }
    }
    if blocks.is_empty() {
        return Ok(());
    }
    push(source, text, loaded, message, ("user", Value::from(blocks)), false)
}

/// An image or PDF a `file` part attaches as a data URL, as an Anthropic block.
fn media_block(part: &Value) -> Option<Value> {
    let mime = part.get("mime").and_then(Value::as_str)?;
    let data = part.get("url").and_then(Value::as_str)?.strip_prefix("data:")?;
    let (_, base64) = data.split_once(";base64,")?;
    let kind = if mime.starts_with("image/") {
        "image"
    } else if mime == "application/pdf" {
        "document"
    } else {
        return None;
    };
    Some(json!({ "type": kind, "source": { "type": "base64", "media_type": mime, "data": base64 } }))
}

/// An assistant message: its text and tool calls, then the calls' results as a user turn.
fn assistant(
    source: &str,
    text: &str,
    loaded: &mut Loaded,
    message: &Stored,
    conversation: Conversation,
) -> Result<(), LoadError> {
    let mut content = Vec::new();
    let mut results = Vec::new();
    for part in &message.parts {
        match part.get("type").and_then(Value::as_str) {
            Some("text") => {
                let words = part.get("text").and_then(Value::as_str).unwrap_or_default();
                if !words.is_empty() {
                    content.push(json!({ "type": "text", "text": words }));
                }
            }
            Some("tool") => {
                let id = part.get("callID").and_then(Value::as_str).unwrap_or_default();
                let state = part.get("state").cloned().unwrap_or(Value::Null);
                content.push(json!({
                    "type": "tool_use",
                    "id": id,
                    "name": part.get("tool").and_then(Value::as_str).unwrap_or_default(),
                    "input": state.get("input").cloned().unwrap_or_else(|| json!({})),
                }));
                results.push(tool_result(id, &state, conversation));
            }
            _ => {}
        }
    }
    // opencode skips a message that failed, unless an abort left content in it.
    let error = message.info.get("error").filter(|e| !e.is_null());
    let aborted = error
        .and_then(|e| e.get("name"))
        .and_then(Value::as_str)
        .is_some_and(|n| n == "MessageAbortedError");
    if content.is_empty() || (error.is_some() && !aborted) {
        return Ok(());
    }
    push(
        source,
        text,
        loaded,
        message,
        ("assistant", Value::from(content)),
        false,
    )?;
    let usage = usage_of(&message.info);
    if let Some(m) = loaded.messages.last_mut() {
        m.set_recorded(usage);
    }
    if !results.is_empty() {
        push(source, text, loaded, message, ("user", Value::from(results)), false)?;
    }
    Ok(())
}

/// The result block of the call `id` in `state`, as it is sent.
fn tool_result(id: &str, state: &Value, conversation: Conversation) -> Value {
    let field = |k: &str| state.get(k).and_then(Value::as_str).unwrap_or_default().to_owned();
    let cleared = state.pointer("/time/compacted").is_some_and(|t| !t.is_null());
    let (output, is_error) = match state.get("status").and_then(Value::as_str) {
        // The whole session shows what the tool returned; the live view what is sent.
        Some("completed") if cleared && conversation == Conversation::Live => (CLEARED_OUTPUT.to_owned(), false),
        Some("completed") => (field("output"), false),
        Some("error") => (field("error"), true),
        _ => (INTERRUPTED.to_owned(), true),
    };
    let mut block = json!({ "type": "tool_result", "tool_use_id": id, "content": output });
    if is_error {
        block["is_error"] = Value::Bool(true);
    }
    block
}

/// The parts that are not sent, as notes before the message after them.
fn notes(loaded: &mut Loaded, message: &Stored, before: usize) {
    let after = loaded.messages.len();
    for part in &message.parts {
        let kind = part.get("type").and_then(Value::as_str).unwrap_or_default();
        let text = match kind {
            "reasoning" => one_line(part.get("text").and_then(Value::as_str).unwrap_or_default(), 80),
            "patch" => format!(
                "{} files changed",
                part.get("files").and_then(Value::as_array).map_or(0, Vec::len)
            ),
            "retry" => format!(
                "attempt {}",
                part.get("attempt").and_then(Value::as_u64).unwrap_or_default()
            ),
            "subtask" | "agent" => one_line(
                part.get("description")
                    .or_else(|| part.get("name"))
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
                80,
            ),
            _ => continue,
        };
        loaded.notes.push(Note {
            // Reasoning comes before the answer it led to; the rest after the message.
            before: if kind == "reasoning" { before } else { after },
            line: message.line,
            kind: kind.to_owned(),
            text,
        });
    }
    if after == before && message.compaction_part().is_none() && !message.is_summary() {
        let what = message
            .info
            .get("error")
            .and_then(|e| e.get("name"))
            .and_then(Value::as_str)
            .map_or_else(|| "nothing sent".to_owned(), |e| format!("not sent: {e}"));
        loaded.notes.push(Note {
            before,
            line: message.line,
            kind: format!("{} message", message.role()),
            text: what,
        });
    }
}
