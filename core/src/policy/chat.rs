//! The transcript as the agents' frameworks see it: a list of chat messages with a role
//! (system, user, assistant, tool), text content, tool calls (id, name, arguments) and,
//! for a tool result, the id of the call it answers. Every policy reads this view, so a
//! policy is written once for every input format: OpenAI chat messages are read as they
//! are; Anthropic blocks become calls and results (one result message per
//! `tool_result`, as LangChain converts them); other formats by their roles and text.

use serde_json::Value;

use crate::tokens::{Counts, Tokenizer};
use crate::transcript::Transcript;

/// A message's role as the frameworks type it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// `system` or `developer`.
    System,
    /// A person's message (LangChain `human`).
    User,
    /// The model's message (LangChain `ai`).
    Assistant,
    /// A tool's result.
    Tool,
}

/// One tool call of an assistant message.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// Its id.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// Its arguments as the transcript holds them (a JSON string for OpenAI).
    pub arguments: String,
    /// The arguments parsed (`{}` when they are not JSON).
    pub args: Value,
}

/// One message of the view.
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::struct_excessive_bools)] // independent facts about one message, read by many
pub struct ChatMessage {
    /// Its position in the list a policy is given (what the plan's rows are numbered by).
    pub index: usize,
    /// For a message a replay wrote (a summary), the session message whose call it was
    /// written before: where a summarizer that summarizes it again says it came from.
    pub written_at: Option<usize>,
    /// The transcript message it is (`None`: a message a policy wrote, a summary).
    pub origin: Option<usize>,
    /// Its tokens as ctxlens counts them (the §7F estimate unless told otherwise): what a
    /// calibration to the provider's bill starts from.
    pub counted: u64,
    /// A summary of an earlier compaction (Claude Code `isCompactSummary`, Codex
    /// `compacted`).
    pub past_summary: bool,
    /// Its content was cleared by a policy (in a replay's working context).
    pub cleared: bool,
    /// Its content was rewritten shorter by a policy that edits messages in place (the
    /// deterministic compressor), which never edits it again.
    pub edited: bool,
    /// Its cost in the replayed policy's counter (set by a replay, so each message is
    /// costed once).
    pub policy_cost: u64,
    /// Its role.
    pub kind: Kind,
    /// The role's name as written (`user`, `developer`, `exit`…).
    pub role: String,
    /// Its text content (string content, or the text parts joined).
    pub text: String,
    /// The content was a list of parts (LangChain counts its `repr` then).
    pub content_parts: Option<Value>,
    /// Its images (each counted by the approximate counters at a fixed price).
    pub images: usize,
    /// The calls it makes.
    pub calls: Vec<Call>,
    /// The call it answers (tool results).
    pub call_id: Option<String>,
    /// `name`, when the message has one.
    pub name: Option<String>,
    /// The length, in UTF-16 units as JavaScript measures it, of the attachments a Claude
    /// Code log records right after this message (a file it saw edited, a reminder, a
    /// re-read file: `attachment` records, sent to the model with the next request and not
    /// logged as messages); 0 elsewhere.
    pub attached_chars: u64,
    /// It is one more item of the model response the message before it began (an item
    /// list — OpenAI Responses, Codex — writes one answer as a run of output items:
    /// reasoning, a message, calls): not a model call of its own.
    pub continues_response: bool,
    /// The bytes of an item of an item list (OpenAI Responses, a Codex rollout) as the
    /// agent sends it (its JSON); 0 for other messages and those a policy wrote. What an
    /// agent that sizes items by their serialisation (Codex) measures.
    pub json_bytes: u64,
    /// The bytes of an encrypted payload the provider reads back and no one else can (a
    /// Responses reasoning item's `encrypted_content`); 0 elsewhere.
    pub sealed_bytes: u64,
}

impl ChatMessage {
    /// Whether it makes tool calls.
    pub fn has_calls(&self) -> bool {
        !self.calls.is_empty()
    }

    /// LangChain's message type (`human`, `ai`, `system`, `tool`).
    pub fn langchain_type(&self) -> &'static str {
        match self.kind {
            Kind::System => "system",
            Kind::User => "human",
            Kind::Assistant => "ai",
            Kind::Tool => "tool",
        }
    }
}

/// The chat view of a transcript, one entry per transcript message, counted with the
/// §7F estimate.
pub fn chat_view(transcript: &Transcript) -> Vec<ChatMessage> {
    chat_view_counted(transcript, &Counts::compute(transcript, Tokenizer::Estimate))
}

/// The chat view with each message's count taken from `counts`.
pub fn chat_view_counted(transcript: &Transcript, counts: &Counts) -> Vec<ChatMessage> {
    use rayon::prelude::*;
    let item_list = transcript.format.dialect.rules().is_item_list();
    let mut view = (0..transcript.messages.len())
        .into_par_iter()
        .map(|index| {
            let json = transcript.request(index);
            let value: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
            let role = transcript.messages[index].role.as_str().to_owned();
            let mut message = if transcript.format.dialect.rules().is_chat() {
                from_chat_json(index, &role, &value, transcript, &json)
            } else {
                from_roles(index, &role, transcript)
            };
            message.origin = Some(index);
            message.counted = counts.message(index);
            message.past_summary = transcript.messages[index].past_summary;
            if item_list {
                message.json_bytes = sent_bytes(transcript, index);
            }
            message.sealed_bytes = value
                .get("encrypted_content")
                .and_then(Value::as_str)
                .map_or(0, |sealed| sealed.len() as u64);
            message
        })
        .collect::<Vec<_>>();
    add_attachments(&mut view, transcript);
    if item_list {
        mark_response_runs(&mut view);
    }
    view
}

/// The bytes of message `index`'s JSON as the agent sends it: a tool's output the agent
/// truncated in its history ([`crate::transcript::Message::kept_output_tokens`], four
/// bytes a token) at most that, with room for the item around it and the truncation's
/// marker.
fn sent_bytes(transcript: &Transcript, index: usize) -> u64 {
    /// The item's JSON around the output (`type`, `call_id`) and the marker.
    const AROUND_OUTPUT: u64 = 128;
    let whole = transcript.raw(index).len() as u64;
    match transcript.messages[index].kept_output_tokens() {
        Some(tokens) => whole.min(tokens.saturating_mul(4).saturating_add(AROUND_OUTPUT)),
        None => whole,
    }
}

/// In an item list, a model output item right after another (no tool output, no
/// prompt between them) is the same response's: the run is one model call.
fn mark_response_runs(view: &mut [ChatMessage]) {
    for k in 1..view.len() {
        let (before, item) = (&view[k - 1], &view[k]);
        view[k].continues_response = item.kind == Kind::Assistant
            && before.kind == Kind::Assistant
            && !item.past_summary
            && !before.past_summary;
    }
}

/// Adds to each message the attachments its log records after it
/// ([`ChatMessage::attached_chars`]): one pass over the log's records, parsing only those
/// that hold an attachment.
fn add_attachments(view: &mut [ChatMessage], transcript: &Transcript) {
    if transcript.format.container != crate::transcript::Container::ClaudeCode {
        return;
    }
    let text = transcript.text();
    let version = transcript.client_version();
    let mut last = None;
    for record in transcript.log_records() {
        if record.message.is_some() {
            last = record.message;
            continue;
        }
        let line = &text[record.range.clone()];
        if !line.contains("\"attachment\"") {
            continue;
        }
        let Some(message) = last.and_then(|i| view.get_mut(i)) else {
            continue;
        };
        let Ok(value) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let on_main = value.get("isSidechain").and_then(Value::as_bool) != Some(true);
        if let (Some("attachment"), Some(attachment), true) = (
            value.get("type").and_then(Value::as_str),
            value.get("attachment"),
            on_main,
        ) {
            message.attached_chars += super::claude_code::attachment_chars(attachment, version.as_deref());
        }
    }
}

/// A message a policy writes (a summary), as the view holds it.
pub fn written(kind: Kind, role: &str, text: String, counted: u64) -> ChatMessage {
    ChatMessage {
        index: 0,
        written_at: None,
        origin: None,
        counted,
        past_summary: true,
        cleared: false,
        edited: false,
        policy_cost: 0,
        kind,
        role: role.to_owned(),
        text,
        content_parts: None,
        images: 0,
        calls: Vec::new(),
        call_id: None,
        name: None,
        attached_chars: 0,
        continues_response: false,
        json_bytes: 0,
        sealed_bytes: 0,
    }
}

fn kind_of(role: &str) -> Kind {
    match role {
        "system" | "developer" => Kind::System,
        "assistant" | "model" | "ai" => Kind::Assistant,
        "tool" | "function" | "function_call_output" => Kind::Tool,
        _ => Kind::User,
    }
}

/// An OpenAI chat message, or an Anthropic one (blocks).
fn from_chat_json(index: usize, role: &str, value: &Value, transcript: &Transcript, json: &str) -> ChatMessage {
    let mut message = ChatMessage {
        index,
        written_at: None,
        origin: Some(index),
        counted: 0,
        past_summary: false,
        cleared: false,
        edited: false,
        policy_cost: 0,
        kind: kind_of(role),
        role: role.to_owned(),
        text: String::new(),
        content_parts: None,
        images: 0,
        calls: Vec::new(),
        call_id: value
            .get("tool_call_id")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| {
                value
                    .get("tool_call_ids")
                    .and_then(Value::as_array)
                    .and_then(|ids| ids.first())
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            }),
        name: value.get("name").and_then(Value::as_str).map(str::to_owned),
        attached_chars: 0,
        continues_response: false,
        json_bytes: 0,
        sealed_bytes: 0,
    };
    match value.get("content") {
        Some(Value::String(s)) => message.text.clone_from(s),
        Some(Value::Array(parts)) => read_parts(&mut message, parts),
        _ => {}
    }
    if let Some(calls) = value.get("tool_calls").and_then(Value::as_array) {
        for call in calls {
            let function = call.get("function").unwrap_or(&Value::Null);
            let arguments = match function.get("arguments") {
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
                None => String::new(),
            };
            let args = serde_json::from_str(&arguments).unwrap_or(Value::Object(serde_json::Map::new()));
            message.calls.push(Call {
                id: text_at(call, "id"),
                name: text_at(function, "name"),
                arguments,
                args,
            });
        }
    } else if let Some(function) = value.get("function_call") {
        let arguments = text_at(function, "arguments");
        message.calls.push(Call {
            id: crate::transcript::legacy_call_id(index),
            name: text_at(function, "name"),
            args: serde_json::from_str(&arguments).unwrap_or(Value::Object(serde_json::Map::new())),
            arguments,
        });
    }
    if message.kind == Kind::User && message.text.is_empty() && message.content_parts.is_none() {
        message.text = transcript.readable_text_of_json(json);
    }
    message
}

/// Content parts: text joined, images counted, Anthropic `tool_use` as calls and
/// `tool_result` as the result it carries (a message of results only is a tool message).
fn read_parts(message: &mut ChatMessage, parts: &[Value]) {
    let mut only_results = !parts.is_empty();
    for part in parts {
        match part.get("type").and_then(Value::as_str) {
            Some("text") => {
                if let Some(t) = part.get("text").and_then(Value::as_str) {
                    message.text.push_str(t);
                }
                only_results = false;
            }
            Some("image" | "image_url" | "input_image") => {
                message.images += 1;
                only_results = false;
            }
            Some("tool_use") => {
                let args = part
                    .get("input")
                    .cloned()
                    .unwrap_or(Value::Object(serde_json::Map::new()));
                message.calls.push(Call {
                    id: text_at(part, "id"),
                    name: text_at(part, "name"),
                    arguments: args.to_string(),
                    args,
                });
                only_results = false;
            }
            Some("tool_result") => {
                message.call_id = part.get("tool_use_id").and_then(Value::as_str).map(str::to_owned);
                message
                    .text
                    .push_str(&crate::transcript::readable_text_of(&part.to_string()));
            }
            _ => only_results = false,
        }
    }
    if only_results {
        message.kind = Kind::Tool;
    }
    let plain_text = parts
        .iter()
        .all(|p| p.get("type").and_then(Value::as_str) == Some("text"));
    if !plain_text {
        message.content_parts = Some(Value::Array(parts.to_vec()));
    }
}

/// Any other format: the role and the readable text, calls and results from the
/// transcript's own pairing.
fn from_roles(index: usize, role: &str, transcript: &Transcript) -> ChatMessage {
    let m = &transcript.messages[index];
    // An item list names its outputs by type (`reasoning`, `web_search_call`): the
    // dialect knows which are the model's.
    let mut kind = if transcript.format.dialect.rules().is_model_output(role) {
        Kind::Assistant
    } else {
        kind_of(role)
    };
    if !m.tool_results().is_empty() && m.tool_calls().is_empty() {
        kind = Kind::Tool;
    } else if !m.tool_calls().is_empty() {
        kind = Kind::Assistant;
    }
    ChatMessage {
        index,
        written_at: None,
        origin: Some(index),
        counted: 0,
        past_summary: false,
        cleared: false,
        edited: false,
        policy_cost: 0,
        kind,
        role: role.to_owned(),
        text: transcript.readable_text(index),
        content_parts: None,
        images: 0,
        calls: m
            .tool_calls()
            .iter()
            .map(|c| Call {
                id: c.id.clone(),
                name: c.name.clone(),
                arguments: String::new(),
                args: Value::Object(serde_json::Map::new()),
            })
            .collect(),
        call_id: m.tool_results().first().cloned(),
        name: None,
        attached_chars: 0,
        continues_response: false,
        json_bytes: 0,
        sealed_bytes: 0,
    }
}

fn text_at(value: &Value, key: &str) -> String {
    value.get(key).and_then(Value::as_str).unwrap_or_default().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An attachment a Claude Code log records after a message (a file it saw edited)
    /// goes with that message, its JSON's length as JavaScript measures it; a sub-agent's
    /// does not, and no other log has any.
    #[test]
    fn a_logs_attachments_go_with_the_message_before_them() {
        let attachment =
            serde_json::json!({"type": "edited_text_file", "filename": "src/é.rs", "snippet": "fn main() {}\n"});
        let user = serde_json::json!({"type": "user", "uuid": "u1", "parentUuid": null, "sessionId": "s",
            "message": {"role": "user", "content": "edit it"}});
        let record = |sidechain: bool| {
            serde_json::json!({"type": "attachment", "uuid": "t1", "parentUuid": "u1", "sessionId": "s",
                "isSidechain": sidechain, "attachment": attachment})
        };
        let assistant = serde_json::json!({"type": "assistant", "uuid": "a1", "parentUuid": "t1", "sessionId": "s",
            "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "Done."}]}});
        let text = format!("{user}\n{}\n{}\n{assistant}\n", record(false), record(true));
        let log = Transcript::parse("log.jsonl", text.into_bytes(), None).expect("a Claude Code log");
        let counts = Counts::compute(&log, crate::tokens::Tokenizer::Estimate);
        let view = chat_view_counted(&log, &counts);
        let length = attachment.to_string().encode_utf16().count() as u64;
        assert_eq!(
            view[0].attached_chars, length,
            "the main conversation's attachment, once"
        );
        assert!(view[1..].iter().all(|m| m.attached_chars == 0));
    }
}
