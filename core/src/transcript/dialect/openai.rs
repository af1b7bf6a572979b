//! OpenAI chat completions: `role`/`content` messages, `tool_calls` answered by
//! `role:"tool"` messages. Read by the chat reader it shares with Anthropic (a plain
//! list is told apart only after parsing, by its content blocks).

use std::borrow::Cow;

use serde_json::{json, Value};

use super::request_entries::{entries, object};
use super::{DialectRules, Provider};
use crate::transcript::message::{RequestShape, OPENAI_MESSAGE_KEYS};

/// Roles the OpenAI chat API takes; a message with any other role (mini-swe-agent's
/// `exit`) is never part of a request.
const OPENAI_ROLES: &[&str] = &["system", "developer", "user", "assistant", "tool", "function"];

/// OpenAI chat completions.
pub(super) struct OpenAi;

impl DialectRules for OpenAi {
    fn name(&self) -> &'static str {
        "openai"
    }

    fn jsonl_name(&self) -> &'static str {
        "openai-jsonl"
    }

    fn provider(&self) -> Provider {
        Provider::OpenAi
    }

    fn stored_is_sent(&self, shape: RequestShape) -> bool {
        !shape.beyond_openai
    }

    fn request_json(&self, raw: &str) -> Option<String> {
        request(raw)
    }

    fn text_message(&self, role: &str, text: &str) -> Value {
        json!({"role": role, "content": text})
    }

    fn is_chat(&self) -> bool {
        true
    }
}

/// The keys the API accepts; SWE-agent's plural `tool_call_ids` becomes the
/// `tool_call_id` it sends (its first id); a role the API has no place for is not sent
/// at all.
fn request(raw: &str) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trajectory_metadata_is_not_counted() {
        let mini = r#"{"role":"user","content":"fix it","extra":{"timestamp":1,"cost":0.1}}"#;
        assert_eq!(request(mini).as_deref(), Some(r#"{"role":"user","content":"fix it"}"#));
        let swe =
            r#"{"role":"tool","content":"ok","agent":"main","tool_call_ids":["call_1"],"message_type":"observation"}"#;
        assert_eq!(
            request(swe).as_deref(),
            Some(r#"{"role":"tool","content":"ok","tool_call_id":"call_1"}"#)
        );
        assert_eq!(request(r#"{"role":"exit","content":"patch"}"#).as_deref(), Some(""));
        let api = r#"{"role":"assistant","content":null,"tool_calls":[],"reasoning_content":"x"}"#;
        assert_eq!(request(api), None, "already as sent");
    }
}
