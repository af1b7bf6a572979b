//! Usage a provider's response recorded, where a transcript keeps the response beside
//! the message that answered it: mini-swe-agent's trajectories (`extra.response`),
//! OpenHands' events (`tool_call_metadata.model_response`), a message saved with its
//! response (`response`), or a response saved whole as the message (`usage`, Gemini's
//! `usageMetadata`). Read into the same [`Recorded`] split as the session logs', so
//! `stats`, the cost and the fits treat every log alike.
//!
//! The providers spell usage three ways, each read as it bills:
//! - a chat completion (OpenAI, and LiteLLM's copy of every provider): `prompt_tokens`
//!   holds the whole prompt, of which `prompt_tokens_details.cached_tokens` were read
//!   from the cache and — for Anthropic models through LiteLLM —
//!   `cache_creation_input_tokens` written to it; `completion_tokens` the output, of
//!   which `completion_tokens_details.reasoning_tokens` reasoning;
//! - a Responses API or Anthropic Messages response: `input_tokens` with
//!   `input_tokens_details.cached_tokens` inside it (OpenAI), or beside it
//!   `cache_creation_input_tokens` and `cache_read_input_tokens` (Anthropic);
//! - Gemini's `usageMetadata`: `promptTokenCount` holds `cachedContentTokenCount`;
//!   `candidatesTokenCount` and `thoughtsTokenCount` are both billed as output.
//!
//! A response counts once: an OpenHands response that made several tool calls is
//! several events carrying the same response (its `id`); only the first gets the usage.

use std::collections::HashSet;

use serde_json::Value;

use super::message::{Message, Recorded};

/// One response a message carries.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct EmbeddedCall {
    /// The response's id, when it has one.
    pub id: Option<String>,
    /// The model it names.
    pub model: Option<String>,
    /// What it billed.
    pub usage: Recorded,
}

/// The places a message keeps its response, most specific first.
const RESPONSE_AT: [&str; 3] = ["/extra/response", "/tool_call_metadata/model_response", "/response"];

/// The response `message` (a message's JSON) carries, with its usage.
pub(crate) fn embedded_call(message: &Value) -> Option<EmbeddedCall> {
    let response = RESPONSE_AT
        .iter()
        .find_map(|at| message.pointer(at).filter(|r| r.is_object()))
        .unwrap_or(message);
    let usage = response
        .get("usage")
        .and_then(usage_of)
        .or_else(|| response.get("usageMetadata").and_then(gemini_usage))?;
    let text = |key: &str| response.get(key).and_then(Value::as_str).map(str::to_owned);
    Some(EmbeddedCall {
        id: text("id").or_else(|| text("responseId")),
        model: text("model").or_else(|| text("modelVersion")),
        usage,
    })
}

/// A chat completion's, a Responses API's or an Anthropic response's `usage`.
fn usage_of(u: &Value) -> Option<Recorded> {
    let n = |at: &str| u.pointer(at).and_then(Value::as_u64).unwrap_or(0);
    if u.get("prompt_tokens").is_some() {
        let written = n("/cache_creation_input_tokens");
        let read = n("/prompt_tokens_details/cached_tokens").max(n("/cache_read_input_tokens"));
        return Some(Recorded {
            input_tokens: n("/prompt_tokens").saturating_sub(read).saturating_sub(written),
            cache_write_5m_tokens: written,
            cache_read_tokens: read,
            output_tokens: n("/completion_tokens"),
            reasoning_tokens: n("/completion_tokens_details/reasoning_tokens"),
            ..Recorded::default()
        });
    }
    u.get("input_tokens")?;
    if u.get("input_tokens_details").is_some() {
        let read = n("/input_tokens_details/cached_tokens");
        return Some(Recorded {
            input_tokens: n("/input_tokens").saturating_sub(read),
            cache_read_tokens: read,
            output_tokens: n("/output_tokens"),
            reasoning_tokens: n("/output_tokens_details/reasoning_tokens"),
            ..Recorded::default()
        });
    }
    super::anthropic_usage(&serde_json::json!({ "usage": u }))
}

/// Gemini's `usageMetadata`.
fn gemini_usage(u: &Value) -> Option<Recorded> {
    let n = |key: &str| u.get(key).and_then(Value::as_u64).unwrap_or(0);
    u.get("promptTokenCount")?;
    let read = n("cachedContentTokenCount");
    Some(Recorded {
        input_tokens: n("promptTokenCount").saturating_sub(read),
        cache_read_tokens: read,
        output_tokens: n("candidatesTokenCount") + n("thoughtsTokenCount"),
        reasoning_tokens: n("thoughtsTokenCount"),
        ..Recorded::default()
    })
}

/// Gives each message that answers a call (`is_model_output` of its role) the usage of
/// the response it carries, once per response; returns the model the first response
/// names (a trajectory's model, where nothing else in it says). Only messages whose
/// text names a usage are parsed again.
pub(crate) fn attach(text: &str, messages: &mut [Message], is_model_output: impl Fn(&str) -> bool) -> Option<String> {
    let mut seen: HashSet<String> = HashSet::new();
    let mut model = None;
    for message in messages.iter_mut() {
        if !is_model_output(message.role()) {
            continue;
        }
        let raw = &text[message.span.clone()];
        if !raw.contains("\"usage") {
            continue;
        }
        let Some(call) = serde_json::from_str::<Value>(raw).ok().as_ref().and_then(embedded_call) else {
            continue;
        };
        if let Some(id) = call.id {
            if !seen.insert(id) {
                continue;
            }
        }
        if model.is_none() {
            model = call.model;
        }
        message.set_recorded(Some(call.usage));
    }
    model
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_litellm_anthropic_completion_splits_its_prompt_into_input_writes_and_reads() {
        // OpenHands' first call: 3,439 prompt tokens, 3,435 of them written to the cache.
        let event = json!({"tool_call_metadata": {"model_response": {"id": "r1", "model": "claude-3-5-sonnet-20241022",
            "usage": {"completion_tokens": 104, "prompt_tokens": 3439,
                "prompt_tokens_details": {"cached_tokens": 0},
                "cache_creation_input_tokens": 3435, "cache_read_input_tokens": 0}}}});
        let call = embedded_call(&event).expect("a response");
        assert_eq!(call.id.as_deref(), Some("r1"));
        assert_eq!(call.model.as_deref(), Some("claude-3-5-sonnet-20241022"));
        assert_eq!(
            (
                call.usage.input_tokens,
                call.usage.cache_write_5m_tokens,
                call.usage.cache_read_tokens
            ),
            (4, 3435, 0)
        );
        assert_eq!(call.usage.context_tokens(), 3439, "the whole prompt, as billed");
        assert_eq!(call.usage.output_tokens, 104);
    }

    #[test]
    fn an_openai_completion_reads_its_cached_part_and_reasoning() {
        let message = json!({"role": "assistant", "extra": {"response": {"id": "c", "model": "deepseek-chat",
            "usage": {"prompt_tokens": 1835, "completion_tokens": 141,
                "prompt_tokens_details": {"cached_tokens": 320},
                "completion_tokens_details": {"reasoning_tokens": 40}}}}});
        let u = embedded_call(&message).expect("a response").usage;
        assert_eq!(
            (u.input_tokens, u.cache_read_tokens, u.cache_write_tokens()),
            (1515, 320, 0)
        );
        assert_eq!((u.output_tokens, u.reasoning_tokens), (141, 40));
    }

    #[test]
    fn responses_anthropic_and_gemini_usages_are_read_as_each_bills() {
        let responses = json!({"usage": {"input_tokens": 1000, "input_tokens_details": {"cached_tokens": 600},
            "output_tokens": 50, "output_tokens_details": {"reasoning_tokens": 20}}});
        let u = embedded_call(&responses).expect("usage").usage;
        assert_eq!(
            (u.input_tokens, u.cache_read_tokens, u.output_tokens, u.reasoning_tokens),
            (400, 600, 50, 20)
        );
        let anthropic = json!({"usage": {"input_tokens": 10, "cache_creation_input_tokens": 200,
            "cache_read_input_tokens": 3000, "output_tokens": 7}});
        let u = embedded_call(&anthropic).expect("usage").usage;
        assert_eq!(
            (u.input_tokens, u.cache_write_5m_tokens, u.cache_read_tokens),
            (10, 200, 3000)
        );
        let gemini = json!({"modelVersion": "gemini-2.5-pro", "responseId": "g",
            "usageMetadata": {"promptTokenCount": 5000, "cachedContentTokenCount": 4000,
                "candidatesTokenCount": 30, "thoughtsTokenCount": 70}});
        let call = embedded_call(&gemini).expect("usage");
        assert_eq!(call.model.as_deref(), Some("gemini-2.5-pro"));
        let u = call.usage;
        assert_eq!(
            (u.input_tokens, u.cache_read_tokens, u.output_tokens, u.reasoning_tokens),
            (1000, 4000, 100, 70)
        );
        assert!(embedded_call(&json!({"role": "assistant", "content": "no usage"})).is_none());
    }
}
