//! Anthropic Messages (also Claude Code's log messages): `tool_use`/`tool_result`
//! content blocks; the system prompt travels beside the messages, never among them.

use std::collections::BTreeMap;

use serde_json::value::RawValue;
use serde_json::{json, Value};

use super::request_entries::keep_keys;
use super::{DialectRules, Provider};
use crate::transcript::message::RequestShape;

/// Anthropic Messages.
pub(super) struct Anthropic;

impl DialectRules for Anthropic {
    fn name(&self) -> &'static str {
        "anthropic"
    }

    fn jsonl_name(&self) -> &'static str {
        "anthropic-jsonl"
    }

    fn announced_by_body(&self, _list_key: &str, body: &BTreeMap<String, &RawValue>) -> bool {
        body.contains_key("system")
    }

    fn provider(&self) -> Provider {
        Provider::Anthropic
    }

    fn stored_is_sent(&self, shape: RequestShape) -> bool {
        !shape.beyond_role_content
    }

    /// Only `role` and `content` are sent: a logged response's envelope (`id`, `model`,
    /// `usage`…) is not.
    fn request_json(&self, raw: &str) -> Option<String> {
        keep_keys(raw, &["role", "content"])
    }

    fn text_message(&self, role: &str, text: &str) -> Value {
        if role == "system" {
            json!({"role": "system", "content": text})
        } else {
            json!({"role": role, "content": [{"type": "text", "text": text}]})
        }
    }

    fn refuses_system_messages(&self) -> bool {
        true
    }

    fn is_chat(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_envelopes_are_not_counted() {
        let response = r#"{"model":"claude-x","id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":3}}"#;
        assert_eq!(
            Anthropic.request_json(response).as_deref(),
            Some(r#"{"role":"assistant","content":[{"type":"text","text":"hi"}]}"#)
        );
        assert_eq!(Anthropic.request_json(r#"{"role":"user","content":"x"}"#), None);
    }
}
