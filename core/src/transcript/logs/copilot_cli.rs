//! GitHub Copilot CLI session logs (`~/.copilot/session-state/<id>/events.jsonl`): one
//! event a line, `{type, data, id, timestamp, parentId}` with dotted event names, as
//! github/copilot-sdk describes them (`nodejs/src/generated/session-events.ts` at
//! cc0438d66e3e). The conversation is rebuilt as OpenAI chat messages, the shape the
//! Copilot API takes:
//! - `user.message`: the user's turn, their words (`content`; the `transformedContent`
//!   sent adds the CLI's own wrapping, left out so that it never reads as the user's);
//! - `assistant.message`: the model's answer, its `toolRequests` as `tool_calls`;
//! - `tool.execution_complete`: the call's result as a `tool` message (`result.content`,
//!   the text sent to the model, or the error's message);
//! - `session.compaction_complete` (successful): a past compaction, its `summaryContent`
//!   the summary, `preCompactionTokens`/`postCompactionTokens` the sizes around it and
//!   `trigger` what fired it (`threshold` is automatic). Copilot compacts in the
//!   background from `session.compaction_start`: what was written after that event is
//!   kept after the summary;
//! - `session.snapshot_rewind`: the event `upToEventId` and every later one are gone.
//!
//! Every other event (turn marks, hooks, the start of a tool call its request already
//! names, truncations, sub-agents' events) is a note. Copilot CLI persists no per-call
//! usage (`assistant.usage` is ephemeral), so nothing is recorded per message.

use std::collections::HashMap;

use serde_json::{json, Value};

use super::{
    lines, note_incomplete, one_line, pair_synthetic, synthetic_message, Conversation, Line, Loaded, Note,
    PastCompaction,
};
use crate::error::LoadError;
use crate::transcript::dialect::Dialect;
use crate::transcript::format::json_error;
use crate::transcript::message::{self, Message};

/// The chat message an event stands for, when it stands for one.
fn chat_message(kind: &str, data: &Value) -> Option<Value> {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or_default().to_owned();
    match kind {
        // The user's words. The `transformedContent` the CLI sent wraps them in blocks of
        // its own (the time, reminders) that would read as the user's instructions; the
        // few tokens it adds are not counted.
        "user.message" => Some(json!({ "role": "user", "content": text(data.get("content")) })),
        "assistant.message" => {
            let calls: Vec<Value> = data
                .get("toolRequests")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|request| {
                    let arguments = match request.get("arguments") {
                        Some(Value::String(s)) => s.clone(),
                        Some(other) => other.to_string(),
                        None => "{}".to_owned(),
                    };
                    json!({
                        "id": text(request.get("toolCallId")),
                        "type": "function",
                        "function": { "name": text(request.get("name")), "arguments": arguments },
                    })
                })
                .collect();
            let mut m = json!({ "role": "assistant", "content": text(data.get("content")) });
            if !calls.is_empty() {
                m["tool_calls"] = Value::Array(calls);
            }
            Some(m)
        }
        "tool.execution_complete" => {
            let content = data
                .pointer("/result/content")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .or_else(|| {
                    data.pointer("/error/message")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                })
                .unwrap_or_default();
            Some(json!({ "role": "tool", "tool_call_id": text(data.get("toolCallId")), "content": content }))
        }
        _ => None,
    }
}

/// A sub-agent's event: not the main conversation.
fn from_sub_agent(record: &Value, data: &Value) -> bool {
    record.get("agentId").is_some_and(|a| !a.is_null()) || data.get("parentToolCallId").is_some_and(|p| !p.is_null())
}

/// One event made into a message: its JSON synthesized, its record what backs it.
fn event_message(source: &str, text: &str, line: &Line, json: &Value, index: usize) -> Result<Message, LoadError> {
    synthetic_message(source, text, Dialect::OpenAi, json.to_string(), &line.range, index)
}

/// How Copilot names what fired a compaction, in the words the rest of ctxlens uses.
fn trigger_of(data: &Value) -> Option<String> {
    data.get("trigger").and_then(Value::as_str).map(|t| match t {
        "threshold" => "auto".to_owned(),
        other => other.to_owned(),
    })
}

/// Reads a Copilot CLI `events.jsonl`.
pub(crate) fn copilot_cli(
    source: &str,
    text: &str,
    start: usize,
    conversation: Conversation,
) -> Result<Loaded, LoadError> {
    let (lines, incomplete) = lines(source, text, start)?;
    let mut loaded = Loaded::empty();
    // Where each event's messages began (a rewind cuts there), and where the running
    // compaction started (what came after it survives the compaction).
    let mut event_at: HashMap<String, (usize, usize)> = HashMap::new();
    let mut compaction_started: Option<usize> = None;
    for line in &lines {
        let record: Value = serde_json::from_str(&text[line.range.clone()])
            .map_err(|e| json_error(source, text, line.range.start, &e))?;
        let kind = record.get("type").and_then(Value::as_str).unwrap_or_default();
        let data = record.get("data").cloned().unwrap_or(Value::Null);
        if let Some(id) = record.get("id").and_then(Value::as_str) {
            event_at.insert(id.to_owned(), (loaded.messages.len(), loaded.records.len()));
        }
        let mut owner = None;
        match kind {
            _ if from_sub_agent(&record, &data) => note(&mut loaded, line, kind, &data),
            "session.start" => {
                if let Some(model) = data.get("selectedModel").and_then(Value::as_str) {
                    loaded.model = Some(model.to_owned());
                }
                note(&mut loaded, line, kind, &data);
            }
            "session.compaction_start" => {
                compaction_started = Some(loaded.messages.len());
                note(&mut loaded, line, kind, &data);
            }
            "session.compaction_complete" if data.get("success").and_then(Value::as_bool) == Some(true) => {
                let since = compaction_started.take().unwrap_or(loaded.messages.len());
                owner = compaction(source, text, line, &data, since, conversation, &mut loaded)?;
            }
            "session.snapshot_rewind" => {
                if let Some(&(messages, records)) = data
                    .get("upToEventId")
                    .and_then(Value::as_str)
                    .and_then(|id| event_at.get(id))
                {
                    loaded.messages.truncate(messages);
                    for record in &mut loaded.records[records..] {
                        record.message = None;
                        record.active = false;
                        record.order = None;
                    }
                    loaded.notes.retain(|n| n.before <= messages);
                    loaded.compactions.retain(|c| c.at <= messages);
                }
                note(&mut loaded, line, kind, &data);
            }
            _ => match chat_message(kind, &data) {
                Some(json) => {
                    if let Some(model) = data.get("model").and_then(Value::as_str) {
                        loaded.model = Some(model.to_owned());
                    }
                    let index = loaded.messages.len();
                    let m = event_message(source, text, line, &json, index)?;
                    loaded.messages.push(m);
                    owner = Some(index);
                }
                None => note(&mut loaded, line, kind, &data),
            },
        }
        loaded.push_in_order(&line.range, owner);
    }
    pair_synthetic(Dialect::OpenAi, &mut loaded.messages);
    note_incomplete(&mut loaded, incomplete);
    Ok(loaded)
}

/// A successful compaction: in the whole session its summary comes after everything
/// before it; in the live view the summary replaces what came before `since` (the
/// compaction's start), and what was written after that stays. Returns the summary's
/// message, when there is a summary.
fn compaction(
    source: &str,
    text: &str,
    line: &Line,
    data: &Value,
    since: usize,
    conversation: Conversation,
    loaded: &mut Loaded,
) -> Result<Option<usize>, LoadError> {
    let summary = data.get("summaryContent").and_then(Value::as_str).unwrap_or_default();
    let number = |k: &str| data.get(k).and_then(Value::as_u64);
    let (at, kept) = match conversation {
        Conversation::Whole => (loaded.messages.len(), Vec::new()),
        Conversation::Live => {
            let kept: Vec<Message> = loaded.messages.drain(since.min(loaded.messages.len())..).collect();
            for record in &mut loaded.records {
                if record.message.is_some() {
                    record.message = None;
                    record.active = false;
                }
            }
            loaded.messages.clear();
            // The notes among the kept messages stay with them, after the summary.
            let shift = usize::from(!summary.is_empty());
            loaded.notes.retain(|n| n.before >= since);
            for n in &mut loaded.notes {
                n.before = n.before - since + shift;
            }
            loaded.compactions.clear();
            (0, kept)
        }
    };
    let kept_texts = kept
        .iter()
        .filter_map(|m| m.synthetic())
        .map(message::readable_text)
        .filter(|t| !t.trim().is_empty())
        .collect();
    let mut owner = None;
    if !summary.is_empty() {
        let json = json!({ "role": "user", "content": summary });
        let mut m = event_message(source, text, line, &json, at)?;
        m.past_summary = true;
        m.boundary = false;
        loaded.messages.push(m);
        owner = Some(at);
    }
    // The kept messages' own records are active again, at their new places.
    let kept_from = loaded.messages.len();
    for (k, m) in kept.iter().enumerate() {
        let Some(range) = m.records().first() else { continue };
        if let Some(record) = loaded.records.iter_mut().rev().find(|r| r.range == *range) {
            record.message = Some(kept_from + k);
            record.active = true;
        }
    }
    loaded.messages.extend(kept);
    loaded.compactions.push(PastCompaction {
        line: line.number,
        at,
        trigger: trigger_of(data),
        pre_tokens: number("preCompactionTokens"),
        summary_message: owner,
        kept: kept_texts,
        post_tokens: number("postCompactionTokens"),
        elsewhere: false,
    });
    loaded.notes.push(Note {
        before: at,
        line: line.number,
        kind: "past compaction".into(),
        text: format!(
            "compacted here ({}): {} messages removed",
            trigger_of(data).unwrap_or_else(|| "trigger not recorded".to_owned()),
            number("messagesRemoved").map_or_else(|| "?".to_owned(), |n| n.to_string())
        ),
    });
    Ok(owner)
}

/// An event that is not a message, shown as a note.
fn note(loaded: &mut Loaded, line: &Line, kind: &str, data: &Value) {
    let what = data
        .get("content")
        .or_else(|| data.get("message"))
        .and_then(Value::as_str)
        .map_or_else(
            || one_line(&message::readable_text(&data.to_string()), 80),
            |t| one_line(t, 80),
        );
    loaded.notes.push(Note {
        before: loaded.messages.len(),
        line: line.number,
        kind: kind.to_owned(),
        text: what,
    });
}
