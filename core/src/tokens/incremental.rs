//! Re-counting a message after one of its strings changed, without re-counting the
//! whole message: the estimates count a message's compact-JSON length (a string adds its
//! quoted, escaped length in the tokenizer's unit), the BPE counters sum the tokens of
//! its strings. The deterministic pass edits each tool output of a message in turn; with
//! this, a message of 2,000 results costs 2,000 string counts, not 2,000 message counts.

use super::estimate::{compact_length, Unit};
use super::{BpeCounter, Tokenizer};

/// A message's running count under edits of its strings.
#[derive(Debug, Clone, Copy)]
pub struct Incremental {
    tokenizer: Tokenizer,
    /// The estimates: the message's length in units.
    units: u64,
    /// The BPE counters: the message's tokens.
    tokens: u64,
}

impl Incremental {
    /// Starts from a message whose counted JSON is `counted_json` and whose count is
    /// `tokens`.
    pub fn new(tokenizer: Tokenizer, counted_json: &str, tokens: u64) -> Incremental {
        let units = unit(tokenizer).map_or(0, |u| length(counted_json, u));
        Incremental {
            tokenizer,
            units,
            tokens,
        }
    }

    /// The count after `old` (a string of the message) becomes `new`.
    pub fn replace(&mut self, old: &str, new: &str) -> u64 {
        if let Some(u) = unit(self.tokenizer) {
            let (before, after) = (string_length(old, u), string_length(new, u));
            self.units = (self.units + after).saturating_sub(before);
            self.tokens = self.units.div_ceil(4);
        } else {
            let counter = match self.tokenizer {
                Tokenizer::Cl100k => BpeCounter::cl100k(),
                _ => BpeCounter::o200k(),
            };
            let (before, after) = (counter.count_text(old), counter.count_text(new));
            self.tokens = (self.tokens + after).saturating_sub(before);
        }
        self.tokens
    }

    /// The count now.
    pub fn tokens(&self) -> u64 {
        self.tokens
    }
}

/// The unit of an estimate tokenizer; `None` for the BPE ones.
fn unit(tokenizer: Tokenizer) -> Option<Unit> {
    match tokenizer {
        Tokenizer::Estimate => Some(Unit::Utf16),
        Tokenizer::EstimateCodepoints => Some(Unit::Codepoints),
        Tokenizer::EstimateUtf8 => Some(Unit::Utf8),
        Tokenizer::Cl100k | Tokenizer::O200k | Tokenizer::Provider => None,
    }
}

fn length(json: &str, unit: Unit) -> u64 {
    let len = compact_length(json);
    match unit {
        Unit::Utf16 => len.utf16,
        Unit::Codepoints => len.codepoints,
        Unit::Utf8 => len.utf8,
    }
}

/// A string's length as it sits in compact JSON (quotes and escapes).
fn string_length(s: &str, unit: Unit) -> u64 {
    length(&serde_json::to_string(s).unwrap_or_default(), unit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Editing strings one by one gives the count of the whole edited message.
    #[test]
    fn incremental_counts_match_whole_counts() {
        for tokenizer in Tokenizer::ALL {
            let mut message = json!({"role": "tool", "tool_call_id": "c", "content": "a\\n\"é😀 long text here"});
            let count = |m: &serde_json::Value| tokenizer.counter().count_message(&m.to_string());
            let mut running = Incremental::new(tokenizer, &message.to_string(), count(&message));
            for new in [
                "short",
                "",
                "x\ty\u{1}z 日本語 and a much longer replacement text than before",
            ] {
                let old = message["content"].as_str().unwrap().to_owned();
                let after = running.replace(&old, new);
                message["content"] = json!(new);
                assert_eq!(after, count(&message), "{tokenizer} → {new:?}");
            }
        }
    }
}
