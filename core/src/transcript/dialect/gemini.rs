//! Gemini `contents`: `parts` with `functionCall`/`functionResponse`; the model's role
//! is `model`. Calls and responses often carry no id and are paired by position.

use std::collections::BTreeMap;
use std::ops::Range;

use serde_json::value::RawValue;
use serde_json::{json, Value};

use super::request_entries::keep_keys;
use super::{str_at, DialectRules, Provider};
use crate::transcript::message::{Message, RequestShape, TextBuilder, ToolCall};

/// Gemini `generateContent` contents.
pub(super) struct Gemini;

impl DialectRules for Gemini {
    fn name(&self) -> &'static str {
        "gemini"
    }

    fn announced_by_body(&self, list_key: &str, _body: &BTreeMap<String, &RawValue>) -> bool {
        list_key == "contents"
    }

    fn provider(&self) -> Provider {
        Provider::Gemini
    }

    fn announced_by(&self, keys: &BTreeMap<String, &RawValue>) -> bool {
        keys.contains_key("parts")
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

    fn pair(&self, messages: &mut [Message], raws: &[&str]) {
        let names: Vec<Vec<String>> = raws.iter().map(|raw| response_names(raw)).collect();
        pair_by_position(messages, &names);
    }

    fn stored_is_sent(&self, shape: RequestShape) -> bool {
        !shape.beyond_role_content
    }

    fn request_json(&self, raw: &str) -> Option<String> {
        keep_keys(raw, &["role", "parts"])
    }

    fn text_message(&self, role: &str, text: &str) -> Value {
        let role = if role == "assistant" { "model" } else { "user" };
        json!({"role": role, "parts": [{"text": text}]})
    }
}

/// A Gemini content. `model` shows as `assistant`. Calls and responses keep their `id`
/// when present; id-less ones are paired by position and name afterwards
/// ([`pair_by_position`]). A `user` turn of only `functionResponse` parts is not a
/// human turn.
fn view(content: &Value, span: Range<usize>, limit: usize) -> (Message, TextBuilder) {
    let role = match str_at(content, "role") {
        "model" => "assistant",
        other => other,
    };
    let mut m = Message::empty(span, role);
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
fn pair_by_position(messages: &mut [Message], names: &[Vec<String>]) {
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
fn response_names(raw: &str) -> Vec<String> {
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
