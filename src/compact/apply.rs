//! Applying a plan: the compacted document, in the input's format.
//!
//! A no-op returns the input text itself (byte-identical). A compaction writes the kept
//! head and the tail as the exact bytes read (the tail as one contiguous slice, its
//! separators included); only the summary and reminder messages are newly serialized,
//! joined with the file's own separator.

use std::borrow::Cow;

use serde_json::json;

use super::plan::{plan, Cut, Decision, Options, Plan};
use crate::summarize::Summarizer;
use crate::tokens::Counts;
use crate::transcript::{Dialect, Transcript};

/// The prefix of the summary message's content (§7F 9.2).
pub const SUMMARY_PREFIX: &str = "[Summary of earlier conversation]\n";

/// The memory-tool reminder added with `flush_to_memory` (§7F 9.3; the dash is U+2014).
pub const FLUSH_REMINDER: &str = "Before continuing: if anything from earlier is worth keeping, save it with the memory tool now \u{2014} the earlier transcript is about to be summarized.";

/// The result of one firing.
#[derive(Debug, Clone)]
pub struct Compaction<'a> {
    /// The plan that was applied.
    pub plan: Plan,
    /// The whole output document (the input itself for a no-op).
    pub output: Cow<'a, str>,
    /// The summary text, when compacted.
    pub summary: Option<String>,
    /// JSON of the newly written messages (summary, then reminder), when compacted.
    pub inserted: Vec<String>,
    /// Tokens of the resulting message list, by the tokenizer of the counts.
    pub tokens_after: u64,
}

impl Compaction<'_> {
    /// Problems a user should know about this result.
    pub fn warnings(&self, transcript: &Transcript) -> Vec<Warning> {
        warnings(&self.plan, self.tokens_after, transcript.format.dialect)
    }
}

/// Problems a user should know about a plan whose result costs `tokens_after`.
pub fn warnings(plan: &Plan, tokens_after: u64, dialect: Dialect) -> Vec<Warning> {
    let Some(cut) = plan.cut() else {
        return Vec::new();
    };
    let mut warnings = Vec::new();
    if tokens_after > plan.max_tokens {
        warnings.push(Warning::StillOverBudget {
            tokens_after,
            max_tokens: plan.max_tokens,
        });
    }
    if cut.tail_empty() {
        warnings.push(Warning::NoUserMessageLeft);
    }
    if dialect == Dialect::Anthropic {
        warnings.push(Warning::SystemInsideAnthropicMessages);
    }
    warnings
}

/// Something about a compaction's result that will bite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Warning {
    /// The result is still over `max_tokens`: the compactor fires again every turn.
    StillOverBudget {
        /// Tokens after compaction.
        tokens_after: u64,
        /// The budget.
        max_tokens: u64,
    },
    /// The tail is empty, so the result holds no user message.
    NoUserMessageLeft,
    /// The summary is a `role:"system"` message inside an Anthropic `messages` list,
    /// which the Anthropic API rejects.
    SystemInsideAnthropicMessages,
    /// The deterministic pass ended over its cap (it is best effort).
    CapNotMet {
        /// Tokens after the pass.
        tokens_after: u64,
        /// The cap.
        cap: u64,
    },
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Warning::StillOverBudget { tokens_after, max_tokens } => write!(
                f,
                "result is still over max_tokens ({tokens_after} > {max_tokens}): the compactor will fire again on every turn"
            ),
            Warning::NoUserMessageLeft => f.write_str("no user message left: the tail is empty and the whole body is summarized"),
            Warning::CapNotMet { tokens_after, cap } => {
                write!(f, "the deterministic pass cannot reach the cap ({tokens_after} > {cap}): rules only cut what they safely can")
            }
            Warning::SystemInsideAnthropicMessages => f.write_str(
                "Anthropic dialect: the summary is a role:\"system\" message inside `messages`, which the Anthropic API rejects",
            ),
        }
    }
}

/// Plans and applies one firing, calling `summarizer` once when the plan compacts.
pub fn compact<'a>(
    transcript: &'a Transcript,
    counts: &Counts,
    options: &Options,
    summarizer: &dyn Summarizer,
) -> anyhow::Result<Compaction<'a>> {
    let plan = plan(transcript, counts, options);
    match plan.decision {
        Decision::Compact(cut) => {
            let older: Vec<&str> = transcript.messages[cut.head_end..cut.split]
                .iter()
                .map(|m| transcript.raw(m))
                .collect();
            let summary = summarizer.summarize(&older)?;
            Ok(render(transcript, counts, plan, &cut, summary))
        }
        Decision::UnderBudget | Decision::NothingToSummarize => Ok(Compaction {
            plan,
            output: Cow::Borrowed(&transcript.text),
            summary: None,
            inserted: Vec::new(),
            tokens_after: plan.tokens_before,
        }),
    }
}

/// The JSON of the messages a firing writes: the summary, then (with `flush_to_memory`)
/// the reminder.
pub fn inserted_messages(flush_to_memory: bool, summary: &str) -> Vec<String> {
    let mut inserted = vec![system_message(&format!("{SUMMARY_PREFIX}{summary}"))];
    if flush_to_memory {
        inserted.push(system_message(FLUSH_REMINDER));
    }
    inserted
}

/// Tokens of the compacted message list, without building the document: the kept head
/// and tail come from the counts, only the inserted messages are counted.
pub fn tokens_after(cut: &Cut, counts: &Counts, inserted: &[String]) -> u64 {
    let counter = counts.tokenizer.counter();
    cut.head_tokens + inserted.iter().map(|m| counter.count_message(m)).sum::<u64>() + cut.tail_tokens
}

/// The compacted document for a plan that cuts at `cut`, with a given summary text.
pub fn render<'a>(
    transcript: &'a Transcript,
    counts: &Counts,
    plan: Plan,
    cut: &Cut,
    summary: String,
) -> Compaction<'a> {
    let inserted = inserted_messages(plan.flush_to_memory, &summary);
    let tokens_after = tokens_after(cut, counts, &inserted);

    let (prefix, suffix) = transcript.surroundings();
    let separator = transcript.separator();
    let len = transcript.messages.len();
    let mut parts: Vec<&str> = Vec::with_capacity(4);
    if cut.head_end > 0 {
        parts.push(transcript.raw_run(0..cut.head_end));
    }
    parts.extend(inserted.iter().map(String::as_str));
    if cut.split < len {
        parts.push(transcript.raw_run(cut.split..len));
    }
    let body = parts.join(separator);
    let mut output = String::with_capacity(prefix.len() + body.len() + suffix.len());
    output.push_str(prefix);
    output.push_str(&body);
    output.push_str(suffix);

    Compaction {
        plan,
        output: Cow::Owned(output),
        summary: Some(summary),
        inserted,
        tokens_after,
    }
}

/// A newly written `{"role":"system","content":…}` message, compact, key order fixed.
fn system_message(content: &str) -> String {
    json!({"role": "system", "content": content}).to_string()
}
