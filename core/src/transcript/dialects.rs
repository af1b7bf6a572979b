//! Message views for the dialects beyond OpenAI and Anthropic: Gemini `contents` (parts
//! with `functionCall`/`functionResponse`), OpenAI Responses items (also the history of
//! Codex rollouts), and OpenHands events. Each builds the same [`Message`] so counting,
//! planning, checking and the TUI work unchanged.

use std::ops::Range;

use serde_json::Value;

use super::format::Dialect;
use super::message::{self, Message, TextBuilder, ToolCall};

/// The view and up to `limit` characters of readable text of one message.
pub(crate) fn view(
    dialect: Dialect,
    raw: &str,
    span: Range<usize>,
    index: usize,
    limit: usize,
) -> Result<(Message, TextBuilder), serde_json::Error> {
    match dialect {
        Dialect::OpenAi | Dialect::Anthropic => message::read(raw, span, index, limit),
        Dialect::Gemini => Ok(gemini(&serde_json::from_str(raw)?, span, limit)),
        Dialect::Responses => Ok(responses(&serde_json::from_str(raw)?, span, limit)),
        Dialect::OpenHands => Ok(openhands(&serde_json::from_str(raw)?, span, index, limit)),
    }
}

fn empty(span: Range<usize>, role: &str) -> Message {
    Message::empty(span, role)
}

fn str_at<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// A Gemini content. `model` shows as `assistant`. Calls and responses keep their `id`
/// when present; id-less ones are paired by position and name afterwards
/// ([`pair_gemini_by_position`]). A `user` turn of only `functionResponse` parts is not a
/// human turn.
fn gemini(content: &Value, span: Range<usize>, limit: usize) -> (Message, TextBuilder) {
    let role = match str_at(content, "role") {
        "model" => "assistant",
        other => other,
    };
    let mut m = empty(span, role);
    let mut text = TextBuilder::new(limit);
    let mut human = false;
    for part in content.get("parts").and_then(Value::as_array).into_iter().flatten() {
        if let Some(call) = part.get("functionCall") {
            let name = str_at(call, "name").to_owned();
            text.push_call(&name, || {
                call.get("args").map(Value::to_string).unwrap_or_default().into()
            });
            m.extra_mut().tool_calls.push(ToolCall {
                id: str_at(call, "id").to_owned(),
                name,
            });
        } else if let Some(response) = part.get("functionResponse") {
            m.extra_mut().tool_results.push(str_at(response, "id").to_owned());
            text.push_str(&format!(
                "← {}: {}",
                str_at(response, "name"),
                response.get("response").map(Value::to_string).unwrap_or_default()
            ));
        } else if let Some(t) = part.get("text").and_then(Value::as_str) {
            human = true;
            text.push_str(t);
        } else {
            human = true;
            let kind = part
                .as_object()
                .and_then(|o| o.keys().find(|k| *k != "thoughtSignature"))
                .cloned()
                .unwrap_or_default();
            text.push_str(&format!("[{kind}]"));
        }
    }
    m.boundary = m.role == "user" && (human || m.tool_results().is_empty());
    m.shape.beyond_role_content = content
        .as_object()
        .is_some_and(|o| o.keys().any(|k| k != "role" && k != "parts"));
    (m, text)
}

/// Gives id-less Gemini calls and responses matching ids: the k-th `functionResponse`
/// of a `user` turn answers the k-th `functionCall` of the `model` turn before it, when
/// the names agree.
pub(crate) fn pair_gemini_by_position(messages: &mut [Message], names: &[Vec<String>]) {
    for index in 1..messages.len() {
        if messages[index].tool_results().iter().all(|id| !id.is_empty()) {
            continue;
        }
        let calls = messages[index - 1].tool_calls().to_vec();
        for (k, id) in messages[index].extra_mut().tool_results.iter_mut().enumerate() {
            if !id.is_empty() {
                continue;
            }
            let name = names[index].get(k).map_or("", String::as_str);
            if let Some(call) = calls.get(k).filter(|c| c.name == name) {
                *id = if call.id.is_empty() {
                    format!("{name}#{k}@{}", index - 1)
                } else {
                    call.id.clone()
                };
            }
        }
        for (k, call) in messages[index - 1].extra_mut().tool_calls.iter_mut().enumerate() {
            if call.id.is_empty() {
                call.id = format!("{}#{k}@{}", call.name, index - 1);
            }
        }
    }
}

/// Names of the `functionResponse` parts of a Gemini content, in order.
pub(crate) fn gemini_response_names(raw: &str) -> Vec<String> {
    let Ok(content) = serde_json::from_str::<Value>(raw) else {
        return Vec::new();
    };
    content
        .get("parts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| p.get("functionResponse"))
        .map(|r| str_at(r, "name").to_owned())
        .collect()
}

/// Links OpenHands observations that carry no `tool_call_metadata` to the action their
/// `cause` names, when that action is a tool call (`event-<id>`). Observations caused by
/// anything else (a user message, a state change) stay plain events.
pub(crate) fn link_openhands_causes(messages: &mut [Message], raws: &[&str]) {
    let call_ids: std::collections::HashSet<String> = messages
        .iter()
        .flat_map(|m| m.tool_calls().iter().map(|c| c.id.clone()))
        .collect();
    for (message, raw) in messages.iter_mut().zip(raws) {
        if !message.tool_results().is_empty() || !message.tool_calls().is_empty() {
            continue;
        }
        let Ok(event) = serde_json::from_str::<Value>(raw) else {
            continue;
        };
        if event.get("observation").is_none() {
            continue;
        }
        let Some(cause) = event.get("cause").filter(|c| !c.is_null()) else {
            continue;
        };
        let id = format!("event-{cause}");
        if call_ids.contains(&id) {
            message.extra_mut().tool_results.push(id);
            message.role = super::message::Role::Tool;
        }
    }
}

/// An OpenAI Responses item: `message` items by role; `*_call` items are calls and
/// `*_call_output` items results, paired by `call_id`; other items (`reasoning`…) show
/// their type as role.
fn responses(item: &Value, span: Range<usize>, limit: usize) -> (Message, TextBuilder) {
    let kind = item.get("type").and_then(Value::as_str).unwrap_or("message");
    let mut text = TextBuilder::new(limit);
    let m = if kind == "message" {
        let mut m = empty(span, str_at(item, "role"));
        match item.get("content") {
            Some(Value::String(s)) => text.push_str(s),
            Some(Value::Array(parts)) => {
                for part in parts {
                    text.push_str(part.get("text").and_then(Value::as_str).unwrap_or_default());
                }
            }
            _ => {}
        }
        m.boundary = m.role == "user";
        m
    } else if kind.ends_with("_call_output") {
        let mut m = empty(span, kind);
        m.extra_mut().tool_results.push(str_at(item, "call_id").to_owned());
        match item.get("output") {
            Some(Value::String(s)) => text.push_str(s),
            Some(other) => text.push_str(&other.to_string()),
            None => {}
        }
        m
    } else if kind.ends_with("_call") && item.get("call_id").is_some() {
        let mut m = empty(span, kind);
        let name = item.get("name").and_then(Value::as_str).unwrap_or(kind).to_owned();
        let arguments = item
            .get("arguments")
            .or_else(|| item.get("input"))
            .or_else(|| item.get("action"));
        text.push_call(&name, || match arguments {
            Some(Value::String(a)) => a.as_str().into(),
            Some(a) => a.to_string().into(),
            None => "".into(),
        });
        m.extra_mut().tool_calls.push(ToolCall {
            id: str_at(item, "call_id").to_owned(),
            name,
        });
        m
    } else {
        let m = empty(span, kind);
        for summary in item.get("summary").and_then(Value::as_array).into_iter().flatten() {
            text.push_str(str_at(summary, "text"));
        }
        if item.get("encrypted_content").is_some() {
            text.push_str("[encrypted reasoning]");
        }
        m
    };
    (m, text)
}

/// An OpenHands event: a user `message` action is a human turn; agent actions with
/// `tool_call_metadata` are calls and observations with it are their results;
/// everything else (state changes, "No observation") shows as `event`.
fn openhands(event: &Value, span: Range<usize>, index: usize, limit: usize) -> (Message, TextBuilder) {
    let source = str_at(event, "source");
    let action = event.get("action").and_then(Value::as_str);
    let observation = event.get("observation").and_then(Value::as_str);
    let call_id = event
        .get("tool_call_metadata")
        .map(|m| str_at(m, "tool_call_id").to_owned())
        .filter(|id| !id.is_empty());
    let mut text = TextBuilder::new(limit);
    text.push_str(str_at(event, "message"));
    let mut m = match (source, action, observation) {
        ("user", Some("message"), _) => {
            let mut m = empty(span, "user");
            m.boundary = true;
            m
        }
        ("agent", Some("message"), _) => empty(span, "assistant"),
        ("agent", Some(action), _) if call_id.is_some() || action != "system" => {
            let mut m = empty(span, "assistant");
            let name = event
                .get("tool_call_metadata")
                .map_or(action, |md| str_at(md, "function_name"))
                .to_owned();
            m.extra_mut().tool_calls.push(ToolCall {
                id: call_id.clone().unwrap_or_else(|| {
                    format!(
                        "event-{}",
                        event.get("id").map(Value::to_string).unwrap_or(index.to_string())
                    )
                }),
                name,
            });
            m
        }
        (_, Some("system"), _) => empty(span, "system"),
        (_, _, Some(_)) if call_id.is_some() => {
            let mut m = empty(span, "tool");
            m.extra_mut().tool_results.push(call_id.clone().unwrap_or_default());
            text.push_str(str_at(event, "content"));
            m
        }
        _ => empty(span, "event"),
    };
    m.extra_mut().tool_calls.retain(|c| !c.id.is_empty());
    // An event is never itself a request message: the agent builds one from it.
    m.shape.beyond_openai = true;
    m.shape.beyond_role_content = true;
    (m, text)
}
