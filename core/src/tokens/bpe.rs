//! Real tokenizer counts with the `cl100k_base` and `o200k_base` vocabularies, using
//! OpenAI's per-message formula: 3 tokens per message, plus the tokens of every string
//! value in the message (nested values included, object keys excluded), plus 1 when the
//! message has a `name`. The 3 tokens that prime the reply are per request, not per
//! message, so they are left out to keep counts additive. Images and documents are
//! counted by OpenAI's image rule ([`super::media`]), never as their base64 text.
//!
//! Counting uses the `tiktoken` crate (pinned; about 7× faster than tiktoken-rs with
//! identical ids); `tests/integration/tiktoken_differential.rs` checks it against tiktoken-rs.

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

    /// Tokens of a plain text (no special tokens recognised). A run of more than
    /// 25,000 characters without a change between white space and the rest (a
    /// pasted blob, a line of `=`) is counted in pieces of that length: byte-pair merging
    /// one such piece costs more than linear time (4 MB of `a` took 4.2 s whole, 8 MB
    /// 12.4 s), and a piece that long is cut where Meta's Llama 3 cuts it before
    /// tiktoken. Text without such a run, all real text, is counted whole, exactly.
    pub fn count_text(&self, text: &str) -> u64 {
        if text.len() <= LONGEST_RUN {
            return self.bpe.count(text) as u64;
        }
        pieces_without_long_runs(text)
            .map(|piece| self.bpe.count(piece) as u64)
            .sum()
    }
}

/// The longest run of white space or of other characters counted as one piece.
pub const LONGEST_RUN: usize = 25_000;

/// `text` cut so that no piece holds more than [`LONGEST_RUN`] characters in a row of
/// one class (white space, or not); a text with no such run is one piece.
fn pieces_without_long_runs(text: &str) -> impl Iterator<Item = &str> {
    let mut cuts = Vec::new();
    let mut run = 0usize;
    let mut space = None;
    for (at, c) in text.char_indices() {
        let is_space = c.is_whitespace();
        if space == Some(is_space) {
            run += 1;
            if run > LONGEST_RUN {
                cuts.push(at);
                run = 1;
            }
        } else {
            space = Some(is_space);
            run = 1;
        }
    }
    let starts = std::iter::once(0).chain(cuts.clone());
    let ends = cuts.into_iter().chain(std::iter::once(text.len()));
    starts.zip(ends).map(move |(start, end)| &text[start..end])
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
            media: Some(Rules::OpenAi(super::media::OpenAiImages::Gpt4o)),
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
        Some(Rules::OpenAi(_)) => key == "encrypted_content" || key == "signature",
        Some(Rules::Gemini { .. }) => key == "thoughtSignature" || key == "thought_signature",
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
    fn long_runs_are_cut_and_other_text_is_whole() {
        let pieces = |t: &str| pieces_without_long_runs(t).map(str::len).collect::<Vec<_>>();
        let short = "word ".repeat(20_000);
        assert_eq!(pieces(&short), vec![short.len()]);
        let long = "a".repeat(2 * LONGEST_RUN + 7);
        assert_eq!(pieces(&long), vec![LONGEST_RUN, LONGEST_RUN, 7]);
        // Characters, not bytes: a run of 3-byte characters is cut at LONGEST_RUN of them.
        let wide = format!("x {}", "€".repeat(LONGEST_RUN + 1));
        assert_eq!(pieces(&wide), vec![2 + 3 * LONGEST_RUN, 3]);
        // The pieces are the text, in order.
        let mixed = format!("{} {}", "b".repeat(LONGEST_RUN + 3), " ".repeat(LONGEST_RUN + 2));
        assert_eq!(pieces_without_long_runs(&mixed).collect::<String>(), mixed);
        // Counting stays exact where nothing is cut.
        let counter = BpeCounter::cl100k();
        assert_eq!(counter.count_text(&short), counter.bpe.count(&short) as u64);
    }

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
