//! OpenHands events: actions and observations. An event is never itself a request
//! message; the agent builds a chat message from it (or sends nothing), and that is
//! what is counted. Observations without tool metadata are tied to their `cause`.

use std::collections::BTreeMap;
use std::ops::Range;

use serde_json::value::RawValue;
use serde_json::{json, Value};

use super::{str_at, DialectRules, Provider};
use crate::transcript::message::{Message, RequestShape, Role, TextBuilder, ToolCall};

/// OpenHands events.
pub(super) struct OpenHands;

impl DialectRules for OpenHands {
    fn name(&self) -> &'static str {
        "openhands"
    }

    /// The agent sends OpenAI-style chat messages built from its events.
    fn provider(&self) -> Provider {
        Provider::OpenAi
    }

    fn announced_by(&self, keys: &BTreeMap<String, &RawValue>) -> bool {
        keys.contains_key("source") && (keys.contains_key("action") || keys.contains_key("observation"))
    }

    fn view(
        &self,
        raw: &str,
        span: Range<usize>,
        index: usize,
        limit: usize,
    ) -> Result<(Message, TextBuilder), serde_json::Error> {
        Ok(view(&serde_json::from_str(raw)?, span, index, limit))
    }

    fn pair(&self, messages: &mut [Message], raws: &[&str]) {
        link_causes(messages, raws);
    }

    fn stored_is_sent(&self, _shape: RequestShape) -> bool {
        false
    }

    fn request_json(&self, raw: &str) -> Option<String> {
        Some(request(raw))
    }

    fn text_message(&self, role: &str, text: &str) -> Value {
        let source = if role == "assistant" { "agent" } else { "user" };
        json!({"source": source, "action": "message", "message": text, "args": {"content": text}})
    }
}

/// Links OpenHands observations that carry no `tool_call_metadata` to the action their
/// `cause` names, when that action is a tool call (`event-<id>`). Observations caused by
/// anything else (a user message, a state change) stay plain events.
fn link_causes(messages: &mut [Message], raws: &[&str]) {
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
            message.role = Role::Tool;
        }
    }
}

/// An OpenHands event: a user `message` action is a human turn; agent actions with
/// `tool_call_metadata` are calls and observations with it are their results;
/// everything else (state changes, "No observation") shows as `event`.
fn view(event: &Value, span: Range<usize>, index: usize, limit: usize) -> (Message, TextBuilder) {
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
            let mut m = Message::empty(span, "user");
            m.boundary = true;
            m
        }
        ("agent", Some("message"), _) => Message::empty(span, "assistant"),
        ("agent", Some(action), _) if call_id.is_some() || action != "system" => {
            let mut m = Message::empty(span, "assistant");
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
        (_, Some("system"), _) => Message::empty(span, "system"),
        (_, _, Some(_)) if call_id.is_some() => {
            let mut m = Message::empty(span, "tool");
            m.extra_mut().tool_results.push(call_id.clone().unwrap_or_default());
            text.push_str(str_at(event, "content"));
            m
        }
        _ => Message::empty(span, "event"),
    };
    m.extra_mut().tool_calls.retain(|c| !c.id.is_empty());
    // An event is never itself a request message: the agent builds one from it.
    m.shape.beyond_openai = true;
    m.shape.beyond_role_content = true;
    (m, text)
}

/// An OpenHands event as the chat message the agent builds from it: a user or agent
/// `message` action, a tool call (the one call of the model response the action
/// carries), a tool observation, the system prompt; anything else is not sent.
fn request(raw: &str) -> String {
    let Ok(event) = serde_json::from_str::<Value>(raw) else {
        return String::new();
    };
    let text = |key: &str| event.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
    let source = event.get("source").and_then(Value::as_str).unwrap_or_default();
    let action = event.get("action").and_then(Value::as_str);
    let metadata = event.get("tool_call_metadata").filter(|m| !m.is_null());
    let message = match (source, action, metadata) {
        ("user", Some("message"), _) => serde_json::json!({"role": "user", "content": text("message")}),
        ("agent", Some("message"), None) => serde_json::json!({"role": "assistant", "content": text("message")}),
        (_, Some("system"), _) => {
            let content = event
                .pointer("/args/content")
                .and_then(Value::as_str)
                .unwrap_or_default();
            serde_json::json!({"role": "system", "content": content})
        }
        (_, Some(_), Some(metadata)) => {
            let id = metadata.get("tool_call_id").and_then(Value::as_str).unwrap_or_default();
            let calls: Vec<Value> = metadata
                .pointer("/model_response/choices/0/message/tool_calls")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter(|c| c.get("id").and_then(Value::as_str) == Some(id))
                .cloned()
                .collect();
            let content = metadata
                .pointer("/model_response/choices/0/message/content")
                .cloned()
                .unwrap_or(Value::Null);
            serde_json::json!({"role": "assistant", "content": content, "tool_calls": calls})
        }
        (_, None, Some(metadata)) if event.get("observation").is_some() => serde_json::json!({
            "role": "tool",
            "tool_call_id": metadata.get("tool_call_id").cloned().unwrap_or(Value::Null),
            "name": metadata.get("function_name").cloned().unwrap_or(Value::Null),
            "content": text("content"),
        }),
        _ => return String::new(),
    };
    message.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_become_chat_messages() {
        let user = r#"{"id":1,"source":"user","action":"message","message":"hello","args":{"content":"hello"}}"#;
        assert_eq!(request(user), r#"{"role":"user","content":"hello"}"#);
        let state = r#"{"id":2,"source":"environment","observation":"agent_state_changed","content":""}"#;
        assert_eq!(request(state), "", "never sent");
    }
}
