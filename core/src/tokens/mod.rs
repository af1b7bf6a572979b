//! Token counting: one [`TokenCounter`] trait, five tokenizers, and [`Counts`], the
//! per-message cache with prefix sums that makes every re-plan O(log n).
//!
//! A counter sees one message at a time, as its raw JSON text, so the counts are
//! additive: the cost of any run of messages is a difference of two prefix sums.

mod bpe;
pub mod estimate;
mod incremental;
mod json_blocks;
pub mod media;
pub mod provider;

use std::fmt;
use std::str::FromStr;

use rayon::prelude::*;

use crate::cancel::CancelToken;
use crate::transcript::{Dialect, Transcript};

pub use bpe::{openai_message_tokens, BpeCounter};
pub use estimate::{compact_length, estimate_tokens, CompactLength, Unit};
pub use incremental::Incremental;

/// The tokenizers ctxlens can count with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tokenizer {
    /// §7F estimator, `len` in UTF-16 code units (JS, Java, C#, Clojure ports). The default.
    Estimate,
    /// §7F estimator, `len` in code points (Python port).
    EstimateCodepoints,
    /// §7F estimator, `len` in UTF-8 bytes (Go, Elixir ports).
    EstimateUtf8,
    /// OpenAI `cl100k_base` (GPT-4, GPT-3.5), OpenAI's per-message formula.
    Cl100k,
    /// OpenAI `o200k_base` (GPT-4o and later), OpenAI's per-message formula.
    O200k,
    /// What the transcript's provider charges: its framing, its image rules, text by
    /// `o200k_base` (see [`provider`]).
    Provider,
}

impl Tokenizer {
    /// Every tokenizer, in the order the TUI cycles through them.
    pub const ALL: [Tokenizer; 6] = [
        Tokenizer::Estimate,
        Tokenizer::EstimateCodepoints,
        Tokenizer::EstimateUtf8,
        Tokenizer::Cl100k,
        Tokenizer::O200k,
        Tokenizer::Provider,
    ];

    /// The name used on the command line and in JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Tokenizer::Estimate => "estimate",
            Tokenizer::EstimateCodepoints => "estimate-codepoints",
            Tokenizer::EstimateUtf8 => "estimate-utf8",
            Tokenizer::Cl100k => "cl100k",
            Tokenizer::O200k => "o200k",
            Tokenizer::Provider => "provider",
        }
    }

    /// True for the BPE vocabularies, which are slow enough to need a background worker.
    pub fn is_bpe(self) -> bool {
        matches!(self, Tokenizer::Cl100k | Tokenizer::O200k | Tokenizer::Provider)
    }

    /// True for the three §7F estimators, which count every character of the message
    /// (images as text) exactly as the reference ports do.
    pub fn is_estimate(self) -> bool {
        matches!(
            self,
            Tokenizer::Estimate | Tokenizer::EstimateCodepoints | Tokenizer::EstimateUtf8
        )
    }

    /// The counter for messages of `dialect` (the provider tokenizer depends on it, and
    /// on the model for Anthropic's image resolution).
    pub fn counter_for(
        self,
        dialect: Dialect,
        model: Option<&str>,
        resolution: Option<media::MediaResolution>,
    ) -> &'static dyn TokenCounter {
        match self {
            Tokenizer::Provider => provider::for_dialect(dialect, model, resolution),
            other => other.counter(),
        }
    }

    /// The counter for this tokenizer (the provider tokenizer as for OpenAI; prefer
    /// [`Tokenizer::counter_for`]). BPE vocabularies load on first use (tens of ms).
    pub fn counter(self) -> &'static dyn TokenCounter {
        static ESTIMATE: EstimateCounter = EstimateCounter(Unit::Utf16);
        static CODEPOINTS: EstimateCounter = EstimateCounter(Unit::Codepoints);
        static UTF8: EstimateCounter = EstimateCounter(Unit::Utf8);
        match self {
            Tokenizer::Estimate => &ESTIMATE,
            Tokenizer::EstimateCodepoints => &CODEPOINTS,
            Tokenizer::EstimateUtf8 => &UTF8,
            Tokenizer::Cl100k => BpeCounter::cl100k(),
            Tokenizer::O200k => BpeCounter::o200k(),
            Tokenizer::Provider => provider::for_dialect(Dialect::OpenAi, None, None),
        }
    }
}

/// Tokens of one message of `transcript`, given the JSON it is counted as (see
/// [`Transcript::request`]); a message never sent costs nothing.
pub fn count_request(transcript: &Transcript, tokenizer: Tokenizer, request: &str) -> u64 {
    if request.is_empty() {
        return 0;
    }
    tokenizer
        .counter_for(
            transcript.format.dialect,
            transcript.model.as_deref(),
            transcript.media_resolution,
        )
        .count_message(request)
}

/// Tokens of any message JSON of `transcript` (a rewritten or an inserted message),
/// counted in the transcript's count form.
pub fn count_json(transcript: &Transcript, tokenizer: Tokenizer, json: &str) -> u64 {
    count_request(transcript, tokenizer, &transcript.count_form(json))
}

impl fmt::Display for Tokenizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl crate::names::Named for Tokenizer {
    const KIND: &'static str = "tokenizer";
    const ALL: &'static [Self] = &Tokenizer::ALL;

    fn name(self) -> &'static str {
        Tokenizer::name(self)
    }
}

impl FromStr for Tokenizer {
    type Err = crate::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::names::parse(s)
    }
}

/// Counts the tokens of one message given its raw JSON text.
pub trait TokenCounter: Sync {
    /// Tokens of one message object.
    fn count_message(&self, message_json: &str) -> u64;
}

/// The §7F estimator in one of its three units.
#[derive(Debug, Clone, Copy)]
pub struct EstimateCounter(pub Unit);

impl TokenCounter for EstimateCounter {
    fn count_message(&self, message_json: &str) -> u64 {
        estimate_tokens(message_json, self.0)
    }
}

/// Per-message token counts of one transcript by one tokenizer, kept as prefix sums
/// (a message's count is a difference of two). Cloning is cheap: the sums are shared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counts {
    /// Which tokenizer produced these counts.
    pub tokenizer: Tokenizer,
    /// `prefix[i]` = tokens of messages `0..i`; one longer than the message list.
    prefix: std::sync::Arc<Vec<u64>>,
}

impl Counts {
    /// Counts every message of `transcript` (in parallel).
    pub fn compute(transcript: &Transcript, tokenizer: Tokenizer) -> Counts {
        let per_message = (0..transcript.messages.len())
            .into_par_iter()
            .map(|i| count_request(transcript, tokenizer, &transcript.request(i)))
            .collect();
        Counts::from_per_message(tokenizer, per_message)
    }

    /// Counts every message, reporting `(done, total)` after each chunk so a worker
    /// thread can show progress, and stopping with [`crate::Error::Cancelled`] once
    /// `cancel` is set. Chunks are counted in parallel.
    pub fn compute_cancellable(
        transcript: &Transcript,
        tokenizer: Tokenizer,
        cancel: &CancelToken,
        mut progress: impl FnMut(usize, usize),
    ) -> crate::Result<Counts> {
        const CHUNK: usize = 2048;
        let total = transcript.messages.len();
        let mut per_message = Vec::with_capacity(total);
        while per_message.len() < total {
            cancel.check()?;
            let start = per_message.len();
            let end = (start + CHUNK).min(total);
            let chunk_counts: Vec<u64> = (start..end)
                .into_par_iter()
                .map(|i| count_request(transcript, tokenizer, &transcript.request(i)))
                .collect();
            per_message.extend(chunk_counts);
            progress(per_message.len(), total);
        }
        Ok(Counts::from_per_message(tokenizer, per_message))
    }

    /// These counts with some messages re-counted (those a derived view rewrote).
    #[must_use]
    pub fn with_recounted(&self, transcript: &Transcript, indices: impl IntoIterator<Item = usize>) -> Counts {
        let mut per_message: Vec<u64> = self.iter().collect();
        for i in indices {
            per_message[i] = count_request(transcript, self.tokenizer, &transcript.request(i));
        }
        Counts::from_per_message(self.tokenizer, per_message)
    }

    /// The counts of `transcript`, whose first `kept` messages are the ones these counted
    /// (a log read on from where it was read): only the others are counted.
    #[must_use]
    pub fn extended(&self, transcript: &Transcript, kept: usize) -> Counts {
        let mut counts = self.clone();
        counts.extend(transcript, kept);
        counts
    }

    /// [`Counts::extended`] in place: the counts after the first `kept` messages are
    /// dropped and `transcript`'s messages from there on counted. When these counts are
    /// not shared that costs the messages counted, not all of them.
    pub fn extend(&mut self, transcript: &Transcript, kept: usize) {
        let kept = kept.min(self.len());
        let fresh: Vec<u64> = (kept..transcript.messages.len())
            .into_par_iter()
            .map(|i| count_request(transcript, self.tokenizer, &transcript.request(i)))
            .collect();
        self.extend_with(kept, &fresh);
    }

    /// The counts of the messages `on` read (those after its kept ones), counted apart
    /// from `base`, the transcript it was read on from (so a worker counts them while
    /// `base` is on screen): for [`Counts::extend_with`] once `on` is applied.
    pub fn of_read_on(on: &crate::transcript::ReadOn, base: &Transcript, tokenizer: Tokenizer) -> Vec<u64> {
        let alone = on.messages_alone(base);
        (0..alone.messages.len())
            .into_par_iter()
            .map(|i| count_request(&alone, tokenizer, &alone.request(i)))
            .collect()
    }

    /// The counts of the first `kept` messages, then `fresh` (those of the messages after
    /// them): in place when these counts are not shared, at the cost of `fresh`.
    pub fn extend_with(&mut self, kept: usize, fresh: &[u64]) {
        let kept = kept.min(self.len());
        let prefix = std::sync::Arc::make_mut(&mut self.prefix);
        prefix.truncate(kept + 1);
        let mut running = prefix[kept];
        for &count in fresh {
            running = running.saturating_add(count);
            prefix.push(running);
        }
    }

    /// Builds the cache from already-known per-message counts.
    pub fn from_per_message(tokenizer: Tokenizer, per_message: Vec<u64>) -> Counts {
        let mut prefix = per_message;
        // In place: the vector of counts becomes the prefix sums (one longer).
        let mut running = 0u64;
        for c in &mut prefix {
            let count = *c;
            *c = running;
            // Saturating, so no input can wrap a total (each message's count is bounded by
            // its bytes and by the per-image and per-page caps, so this never bites).
            running = running.saturating_add(count);
        }
        prefix.push(running);
        Counts {
            tokenizer,
            prefix: std::sync::Arc::new(prefix),
        }
    }

    /// Number of messages counted.
    pub fn len(&self) -> usize {
        self.prefix.len() - 1
    }

    /// True when there are no messages.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Tokens of message `i`.
    pub fn message(&self, i: usize) -> u64 {
        self.prefix[i + 1] - self.prefix[i]
    }

    /// Every message's tokens, in order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.prefix.windows(2).map(|w| w[1] - w[0])
    }

    /// Tokens of the whole transcript.
    pub fn total(&self) -> u64 {
        self.prefix[self.len()]
    }

    /// Tokens of messages `0..=i` (the running total shown beside message `i`).
    pub fn cumulative(&self, i: usize) -> u64 {
        self.prefix[i + 1]
    }

    /// Tokens of messages `start..end`.
    pub fn range(&self, start: usize, end: usize) -> u64 {
        self.prefix[end] - self.prefix[start]
    }

    /// Tokens of messages `start..` (the suffix a tail starting at `start` costs).
    pub fn suffix(&self, start: usize) -> u64 {
        self.total() - self.prefix[start]
    }
}

/// Usage a log recorded for a response, beside ctxlens's estimate of the same prompt.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RecordedRow {
    /// Prompt tokens the provider recorded for this response (the split's sum).
    pub context_tokens: u64,
    /// The usage as the log recorded it: input, cache writes and reads, output.
    #[serde(flatten)]
    pub usage: crate::transcript::Recorded,
    /// The estimate of the messages before this one (what ctxlens can see of the prompt;
    /// a log never holds the system prompt or tool definitions).
    pub estimate: u64,
    /// `(estimate - recorded) / recorded`, in percent, one decimal.
    pub error_percent: f64,
}

/// The recorded usage of message `i`, when the log has it, beside the estimate of the
/// messages before it.
pub fn recorded_vs_estimate(transcript: &Transcript, counts: &Counts, i: usize) -> Option<RecordedRow> {
    let usage = transcript.messages[i].recorded()?;
    let context_tokens = usage.context_tokens();
    let estimate = if i == 0 { 0 } else { counts.cumulative(i - 1) };
    let error_percent = if context_tokens == 0 {
        0.0
    } else {
        ((estimate as f64 - context_tokens as f64) / context_tokens as f64 * 1000.0).round() / 10.0
    };
    Some(RecordedRow {
        context_tokens,
        usage,
        estimate,
        error_percent,
    })
}

/// A recorded prompt's split in words: `input 1,204 · cache write 3,100 · cache read
/// 40,122`, the parts that are zero left out (`input 0` when all are).
pub fn usage_split(usage: &crate::transcript::Recorded) -> String {
    let parts = [
        ("input", usage.input_tokens),
        ("cache write", usage.cache_write_5m_tokens),
        ("cache write 1h", usage.cache_write_1h_tokens),
        ("cache read", usage.cache_read_tokens),
    ];
    let said: Vec<String> = parts
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(what, n)| format!("{what} {}", crate::text::thousands(*n)))
        .collect();
    if said.is_empty() {
        "input 0".to_owned()
    } else {
        said.join(" · ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_sums_answer_ranges_and_suffixes() {
        let c = Counts::from_per_message(Tokenizer::Estimate, vec![12, 50, 32, 65, 11]);
        assert_eq!(c.total(), 170);
        assert_eq!(c.cumulative(1), 62);
        assert_eq!(c.range(1, 3), 82);
        assert_eq!(c.suffix(3), 76);
        assert_eq!(c.suffix(5), 0);
    }
}
