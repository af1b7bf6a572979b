//! OpenAI Responses items (also the history of Codex rollouts): `message` items by role,
//! `*_call` items answered by `*_call_output` items with the same `call_id`, and other
//! items (`reasoning`…). One model answer is a run of output items.

use std::collections::BTreeMap;
use std::ops::Range;

use serde_json::value::RawValue;
use serde_json::{json, Value};

use super::{str_at, DialectRules, Provider};
use crate::transcript::message::{Message, RequestShape, TextBuilder, ToolCall};

/// OpenAI Responses items.
pub(super) struct Responses;

impl DialectRules for Responses {
    fn name(&self) -> &'static str {
        "responses"
    }

    fn announced_by_body(&self, list_key: &str, _body: &BTreeMap<String, &RawValue>) -> bool {
        list_key == "input"
    }

    fn provider(&self) -> Provider {
        Provider::Responses
    }

    fn announced_by(&self, keys: &BTreeMap<String, &RawValue>) -> bool {
        keys.get("type")
            .map(|t| t.get().trim_matches('"'))
            .is_some_and(|kind| kind.ends_with("_call") || kind.ends_with("_call_output") || kind == "reasoning")
    }

    fn view(
        &self,
        raw: &str,
        span: Range<usize>,
        _index: usize,
        limit: usize,
    ) -> Result<(Message, TextBuilder), serde_json::Error> {
        Ok(view(&serde_json::from_str(raw)?, span, limit))
    }

    /// Items are sent as stored.
    fn stored_is_sent(&self, _shape: RequestShape) -> bool {
        true
    }

    fn request_json(&self, _raw: &str) -> Option<String> {
        None
    }

    fn text_message(&self, role: &str, text: &str) -> Value {
        let kind = if role == "assistant" {
            "output_text"
        } else {
            "input_text"
        };
        json!({"type": "message", "role": role, "content": [{"type": kind, "text": text}]})
    }

    fn is_model_output(&self, role: &str) -> bool {
        role == "assistant" || role == "reasoning" || role.ends_with("_call")
    }

    fn is_item_list(&self) -> bool {
        true
    }
}

/// An OpenAI Responses item: `message` items by role; `*_call` items are calls and
/// `*_call_output` items results, paired by `call_id`; other items (`reasoning`…) show
/// their type as role.
fn view(item: &Value, span: Range<usize>, limit: usize) -> (Message, TextBuilder) {
    let kind = item.get("type").and_then(Value::as_str).unwrap_or("message");
    let mut text = TextBuilder::new(limit);
    let m = if kind == "message" {
        let mut m = Message::empty(span, str_at(item, "role"));
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
        let mut m = Message::empty(span, kind);
        m.extra_mut().tool_results.push(str_at(item, "call_id").to_owned());
        match item.get("output") {
            Some(Value::String(s)) => text.push_str(s),
            Some(other) => text.push_str(&other.to_string()),
            None => {}
        }
        m
    } else if kind.ends_with("_call") && item.get("call_id").is_some() {
        let mut m = Message::empty(span, kind);
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
        let m = Message::empty(span, kind);
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
