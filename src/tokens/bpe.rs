//! Real tokenizer counts with the `cl100k_base` and `o200k_base` vocabularies, using
//! OpenAI's per-message formula: 3 tokens per message, plus the tokens of every string
//! value in the message (nested values included, object keys excluded), plus 1 when the
//! message has a `name`. The 3 tokens that prime the reply are per request, not per
//! message, so they are left out to keep counts additive. Images and documents are
//! counted by OpenAI's image rule ([`super::media`]), never as their base64 text.
//!
//! Counting uses the `tiktoken` crate (pinned; about 7× faster than tiktoken-rs with
//! identical ids); `tests/tiktoken_differential.rs` checks it against tiktoken-rs.

use std::sync::OnceLock;

use serde_json::Value;

use super::media::{media_part, Rules};
use super::TokenCounter;

/// A BPE vocabulary counting OpenAI-style per-message tokens.
pub struct BpeCounter {
    bpe: &'static tiktoken::CoreBpe,
}

impl BpeCounter {
    /// The `cl100k_base` counter (loaded once, on first use).
    pub fn cl100k() -> &'static BpeCounter {
        static CELL: OnceLock<BpeCounter> = OnceLock::new();
        CELL.get_or_init(|| BpeCounter {
            bpe: tiktoken::get_encoding("cl100k_base").expect("cl100k_base is compiled in"),
        })
    }

    /// The `o200k_base` counter (loaded once, on first use).
    pub fn o200k() -> &'static BpeCounter {
        static CELL: OnceLock<BpeCounter> = OnceLock::new();
        CELL.get_or_init(|| BpeCounter {
            bpe: tiktoken::get_encoding("o200k_base").expect("o200k_base is compiled in"),
        })
    }

    /// Tokens of a plain text (no special tokens recognised).
    pub fn count_text(&self, text: &str) -> u64 {
        self.bpe.count(text) as u64
    }
}

impl TokenCounter for BpeCounter {
    fn count_message(&self, message_json: &str) -> u64 {
        message_tokens(message_json, |s| self.count_text(s), Walk::openai())
    }
}

/// How a message's values are walked.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Walk {
    /// Whose rule prices images and documents (`None`: their base64 text is counted).
    pub media: Option<Rules>,
    /// Skip opaque strings no model reads as text (thinking signatures, encrypted
    /// reasoning, redacted thinking data).
    pub skip_opaque: bool,
}

impl Walk {
    /// cl100k/o200k: every string, images by OpenAI's rule.
    pub(crate) fn openai() -> Walk {
        Walk {
            media: Some(Rules::OpenAi),
            skip_opaque: false,
        }
    }
}

/// Keys whose string values are opaque to the model, by provider: a thinking block's
/// signature and redacted thinking (Anthropic), reasoning carried between turns
/// encrypted (OpenAI), a part's thought signature (Gemini). Anthropic's encrypted web
/// search results stand for text the model reads, so they stay counted.
fn is_opaque(rules: Option<Rules>, key: &str, redacted: bool) -> bool {
    match rules {
        Some(Rules::Anthropic { .. }) => key == "signature" || (redacted && key == "data"),
        Some(Rules::OpenAi) => key == "encrypted_content" || key == "signature",
        Some(Rules::Gemini) => key == "thoughtSignature" || key == "thought_signature",
        None => false,
    }
}

/// OpenAI's per-message formula with a walk policy: 3 + 1 for `name` + the strings.
pub(crate) fn message_tokens(message_json: &str, count_text: impl Fn(&str) -> u64, walk: Walk) -> u64 {
    const PER_MESSAGE: u64 = 3;
    let Ok(value) = serde_json::from_str::<Value>(message_json) else {
        return PER_MESSAGE + count_text(message_json);
    };
    let name_bonus = u64::from(value.get("name").is_some());
    PER_MESSAGE + name_bonus + walked_tokens(&value, &count_text, walk)
}

fn walked_tokens(value: &Value, count_text: &impl Fn(&str) -> u64, walk: Walk) -> u64 {
    match value {
        Value::String(s) => count_text(s),
        Value::Array(items) => items.iter().map(|v| walked_tokens(v, count_text, walk)).sum(),
        Value::Object(map) => {
            if let Some(rules) = walk.media {
                if let Some(media) = media_part(map) {
                    return media.tokens(rules);
                }
            }
            let redacted = map.get("type").and_then(Value::as_str) == Some("redacted_thinking");
            map.iter()
                .filter(|(k, _)| !(walk.skip_opaque && is_opaque(walk.media, k, redacted)))
                .map(|(_, v)| walked_tokens(v, count_text, walk))
                .sum()
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => 0,
    }
}

/// OpenAI's per-message formula over a message's JSON text, with any text counter and
/// every string counted as text (images too). Text that is not valid JSON (never the
/// case for a loaded transcript) counts as text.
pub fn openai_message_tokens(message_json: &str, count_text: impl Fn(&str) -> u64) -> u64 {
    let literal = Walk {
        media: None,
        skip_opaque: false,
    };
    message_tokens(message_json, count_text, literal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_message_formula_counts_strings_and_name() {
        let words = |s: &str| s.split_whitespace().count() as u64;
        let plain = r#"{"role":"user","content":"a b c"}"#;
        // 3 + "user" (1) + "a b c" (3)
        assert_eq!(openai_message_tokens(plain, words), 7);
        let named = r#"{"role":"user","name":"bob","content":"a"}"#;
        assert_eq!(openai_message_tokens(named, words), 3 + 1 + 1 + 1 + 1);
        let nested = r#"{"role":"assistant","content":null,"tool_calls":[{"id":"c1","function":{"name":"f","arguments":"{}"}}]}"#;
        assert_eq!(openai_message_tokens(nested, words), 3 + 1 + 1 + 1 + 1);
    }

    #[test]
    fn cl100k_counts_a_known_text() {
        // "hello world" is two tokens in cl100k_base.
        assert_eq!(BpeCounter::cl100k().count_text("hello world"), 2);
    }
}
