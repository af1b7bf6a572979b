//! The transcript an agent's policy would send, written in the input's own format: the
//! kept messages exactly as read, cleared ones with their content replaced by the
//! policy's placeholder (in their dialect's shape), emptied call arguments where the plan
//! says so, a head the policy sends twice written twice, and the policy's summary in its
//! role and text shape at its position. Plain message lists only: a session log written in
//! another agent's shape is not something any client reads (`--plan` describes it).

use serde_json::{json, Value};

use super::{PolicyPlan, Section};
use crate::compact::Document;
use crate::transcript::{Dialect, Transcript};

/// The document `plan` leaves of `transcript`, its summary reading `summary`.
pub fn render(transcript: &Transcript, plan: &PolicyPlan, summary: &str) -> crate::Result<Document> {
    if transcript.format.container.is_log() {
        return Err(crate::Error::Invalid(format!(
            "{}: a session log is not rewritten in another agent's shape: use --plan (or replay/compare)",
            transcript.source
        )));
    }
    let dialect = transcript.format.dialect;
    let placeholder = plan.placeholder.unwrap_or("[cleared]");
    let mut items: Vec<Item> = Vec::new();
    let first_tail = plan.messages.iter().position(|r| r.section == Section::Tail);
    for row in &plan.messages {
        if Some(row.index) == first_tail {
            items.extend(
                plan.messages
                    .iter()
                    .filter(|r| r.duplicated)
                    .map(|r| Item::Input(r.index)),
            );
        }
        match row.section {
            Section::Head | Section::Tail if plan.rewritten.contains_key(&row.index) => {
                items.push(Item::New(plan.rewritten[&row.index].clone()));
            }
            Section::Head | Section::Tail if plan.rewritten_text.contains_key(&row.index) => {
                items.push(Item::New(with_text(
                    transcript,
                    row.index,
                    &plan.rewritten_text[&row.index],
                )));
            }
            Section::Head | Section::Tail if !row.inputs_cleared => items.push(Item::Input(row.index)),
            Section::Head | Section::Tail => items.push(Item::New(rewritten(transcript, row.index, None, true))),
            Section::Cleared => items.push(Item::New(rewritten(
                transcript,
                row.index,
                Some(placeholder),
                row.inputs_cleared,
            ))),
            Section::Summarized | Section::Dropped => {}
        }
    }
    for inserted in plan.inserted.iter().rev() {
        let text = inserted.text.replace("{summary}", summary);
        let position = inserted.position.min(items.len());
        items.insert(position, Item::New(message(dialect, inserted.role, &text)));
    }
    let (prefix, suffix) = transcript.surroundings();
    let separator = transcript.separator().to_owned();
    let mut doc = Document::new(transcript);
    doc.push_input(transcript, 0..prefix.len());
    for (k, item) in items.into_iter().enumerate() {
        if k > 0 {
            doc.push_str(&separator);
        }
        match item {
            Item::Input(index) => doc.push_input(transcript, transcript.messages[index].span.clone()),
            Item::New(text) => doc.push_new(text),
        }
    }
    let end = transcript.text.len();
    doc.push_input(transcript, end - suffix.len()..end);
    Ok(doc)
}

/// One message of the output: as read, or newly written.
enum Item {
    Input(usize),
    New(String),
}

/// Message `index` with its results' content replaced by `placeholder` (when given) and,
/// with `clear_inputs`, its calls' arguments emptied.
fn rewritten(transcript: &Transcript, index: usize, placeholder: Option<&str>, clear_inputs: bool) -> String {
    let raw = transcript.raw(index);
    let Ok(mut value) = serde_json::from_str::<Value>(raw) else {
        return raw.to_owned();
    };
    if let Some(text) = placeholder {
        clear_results(&mut value, text);
    }
    if clear_inputs {
        clear_arguments(&mut value);
    }
    value.to_string()
}

/// Message `index` with its text cut to `text` (a policy keeps only part of it): a string
/// content replaced, or the first text part of a list of parts with the others' text
/// dropped.
fn with_text(transcript: &Transcript, index: usize, text: &str) -> String {
    let raw = transcript.raw(index);
    let Ok(mut value) = serde_json::from_str::<Value>(raw) else {
        return raw.to_owned();
    };
    match value.get_mut("content") {
        Some(Value::String(s)) => text.clone_into(s),
        Some(Value::Array(parts)) => {
            let mut first = true;
            parts.retain_mut(|part| {
                let is_text = part
                    .get("type")
                    .and_then(Value::as_str)
                    .is_some_and(|t| t == "text" || t.ends_with("_text"));
                if !is_text {
                    return true;
                }
                if first {
                    part["text"] = Value::String(text.to_owned());
                    first = false;
                    return true;
                }
                false
            });
        }
        _ => {}
    }
    value.to_string()
}

/// Replaces what a message says as a tool result, in each dialect's place for it.
fn clear_results(value: &mut Value, text: &str) {
    let Some(object) = value.as_object_mut() else {
        return;
    };
    // Responses `function_call_output`, OpenHands observations.
    for key in ["output", "message"] {
        if object.get(key).is_some_and(Value::is_string) {
            object.insert(key.to_owned(), Value::String(text.to_owned()));
        }
    }
    match object.get_mut("content") {
        Some(Value::Array(parts)) => {
            for part in parts.iter_mut() {
                if part.get("type").and_then(Value::as_str) == Some("tool_result") {
                    part["content"] = Value::String(text.to_owned());
                }
            }
        }
        Some(content) => *content = Value::String(text.to_owned()),
        None => {}
    }
    // Gemini `functionResponse` parts.
    if let Some(Value::Array(parts)) = object.get_mut("parts") {
        for part in parts.iter_mut() {
            if let Some(response) = part.get_mut("functionResponse").and_then(Value::as_object_mut) {
                response.insert("response".to_owned(), json!({"content": text}));
            }
        }
    }
}

/// Empties the arguments of every call a message makes.
fn clear_arguments(value: &mut Value) {
    if let Some(Value::Array(calls)) = value.get_mut("tool_calls") {
        for call in calls.iter_mut() {
            if let Some(function) = call.get_mut("function") {
                function["arguments"] = Value::String("{}".to_owned());
            }
        }
    }
    if let Some(Value::Array(parts)) = value.get_mut("content") {
        for part in parts.iter_mut() {
            if part.get("type").and_then(Value::as_str) == Some("tool_use") {
                part["input"] = json!({});
            }
        }
    }
}

/// A new message with `role` and `text` in `dialect`'s shape.
fn message(dialect: Dialect, role: &str, text: &str) -> String {
    dialect.rules().text_message(role, text).to_string()
}
