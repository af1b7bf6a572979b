//! The request as sent: each message as its provider's API request carries it, which is
//! what ctxlens counts. Trajectory metadata (mini-swe-agent's `extra`, SWE-agent's
//! `agent`/`thought`/`action`…) and log envelopes (a Claude Code response's `id`,
//! `model`, `usage`…) are kept in the file and written back on export, but never
//! counted; an OpenHands event is counted as the chat message the agent builds from it;
//! an event the agent never sends counts nothing.

use std::borrow::Cow;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;

use super::format::Dialect;
use super::message::OPENAI_MESSAGE_KEYS;

/// Roles the OpenAI chat API takes; a message with any other role (mini-swe-agent's
/// `exit`) is never part of a request.
const OPENAI_ROLES: &[&str] = &["system", "developer", "user", "assistant", "tool", "function"];

/// How ctxlens counts a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum CountMode {
    /// As the API request carries it (the default).
    #[default]
    Request,
    /// The message object exactly as stored in the file (`--count raw`).
    Raw,
}

impl std::str::FromStr for CountMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "request" => Ok(CountMode::Request),
            "raw" => Ok(CountMode::Raw),
            _ => Err(format!("unknown count mode `{s}` (expected request or raw)")),
        }
    }
}

/// The top-level entries of a JSON object, in order, values as written.
fn entries(raw: &str) -> Option<Vec<(Cow<'_, str>, &RawValue)>> {
    struct Entries;
    impl<'de> Visitor<'de> for Entries {
        type Value = Vec<(Cow<'de, str>, &'de RawValue)>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                out.push((key, map.next_value::<&RawValue>()?));
            }
            Ok(out)
        }
    }
    let mut deserializer = serde_json::Deserializer::from_str(raw);
    deserializer.deserialize_map(Entries).ok()
}

/// `{"key":value,…}` from entries (values as written).
fn object<'a>(entries: impl IntoIterator<Item = (Cow<'a, str>, Cow<'a, str>)>) -> String {
    let mut out = String::from("{");
    for (k, (key, value)) in entries.into_iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push_str(&serde_json::to_string(key.as_ref()).unwrap_or_default());
        out.push(':');
        out.push_str(&value);
    }
    out.push('}');
    out
}

/// The message as its API request carries it, when that differs from `raw`; `None`
/// when `raw` is already exactly that. An empty string is a message never sent.
pub fn request_json(dialect: Dialect, raw: &str) -> Option<String> {
    match dialect {
        Dialect::OpenAi => openai(raw),
        Dialect::Anthropic => keep_keys(raw, &["role", "content"]),
        Dialect::Gemini => keep_keys(raw, &["role", "parts"]),
        Dialect::Responses => None,
        Dialect::OpenHands => Some(openhands(raw)),
    }
}

fn keep_keys(raw: &str, keys: &[&str]) -> Option<String> {
    let all = entries(raw)?;
    if all.iter().all(|(k, _)| keys.contains(&k.as_ref())) {
        return None;
    }
    Some(object(
        all.into_iter()
            .filter(|(k, _)| keys.contains(&k.as_ref()))
            .map(|(k, v)| (k, Cow::Borrowed(v.get()))),
    ))
}

/// OpenAI chat: the keys the API accepts; SWE-agent's plural `tool_call_ids` becomes
/// the `tool_call_id` it sends (its first id); a role the API has no place for is not
/// sent at all.
fn openai(raw: &str) -> Option<String> {
    let all = entries(raw)?;
    let role = all
        .iter()
        .find(|(k, _)| k == "role")
        .and_then(|(_, v)| serde_json::from_str::<Cow<str>>(v.get()).ok());
    if role.as_deref().is_some_and(|r| !OPENAI_ROLES.contains(&r)) {
        return Some(String::new());
    }
    let has_singular = all.iter().any(|(k, _)| k == "tool_call_id");
    let mut kept: Vec<(Cow<str>, Cow<str>)> = Vec::with_capacity(all.len());
    let mut changed = false;
    for (key, value) in all {
        if key == "tool_call_ids" && !has_singular {
            let first = serde_json::from_str::<Vec<Cow<str>>>(value.get())
                .ok()
                .and_then(|ids| ids.into_iter().next());
            if let Some(id) = first {
                kept.push((
                    Cow::Borrowed("tool_call_id"),
                    Cow::Owned(serde_json::to_string(id.as_ref()).unwrap_or_default()),
                ));
            }
            changed = true;
        } else if OPENAI_MESSAGE_KEYS.contains(&key.as_ref()) {
            kept.push((key, Cow::Borrowed(value.get())));
        } else {
            changed = true;
        }
    }
    changed.then(|| object(kept))
}

/// An OpenHands event as the chat message the agent builds from it: a user or agent
/// `message` action, a tool call (the one call of the model response the action
/// carries), a tool observation, the system prompt; anything else is not sent.
fn openhands(raw: &str) -> String {
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
    fn trajectory_metadata_is_not_counted() {
        let mini = r#"{"role":"user","content":"fix it","extra":{"timestamp":1,"cost":0.1}}"#;
        assert_eq!(
            request_json(Dialect::OpenAi, mini).as_deref(),
            Some(r#"{"role":"user","content":"fix it"}"#)
        );
        let swe =
            r#"{"role":"tool","content":"ok","agent":"main","tool_call_ids":["call_1"],"message_type":"observation"}"#;
        assert_eq!(
            request_json(Dialect::OpenAi, swe).as_deref(),
            Some(r#"{"role":"tool","content":"ok","tool_call_id":"call_1"}"#)
        );
        assert_eq!(
            request_json(Dialect::OpenAi, r#"{"role":"exit","content":"patch"}"#).as_deref(),
            Some("")
        );
        let api = r#"{"role":"assistant","content":null,"tool_calls":[],"reasoning_content":"x"}"#;
        assert_eq!(request_json(Dialect::OpenAi, api), None, "already as sent");
    }

    #[test]
    fn log_envelopes_are_not_counted() {
        let response = r#"{"model":"claude-x","id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":3}}"#;
        assert_eq!(
            request_json(Dialect::Anthropic, response).as_deref(),
            Some(r#"{"role":"assistant","content":[{"type":"text","text":"hi"}]}"#)
        );
        assert_eq!(
            request_json(Dialect::Anthropic, r#"{"role":"user","content":"x"}"#),
            None
        );
    }

    #[test]
    fn openhands_events_become_chat_messages() {
        let user = r#"{"id":1,"source":"user","action":"message","message":"hello","args":{"content":"hello"}}"#;
        assert_eq!(openhands(user), r#"{"role":"user","content":"hello"}"#);
        let state = r#"{"id":2,"source":"environment","observation":"agent_state_changed","content":""}"#;
        assert_eq!(openhands(state), "", "never sent");
    }
}
