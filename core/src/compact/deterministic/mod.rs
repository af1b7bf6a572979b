//! The deterministic compressor: llm4s' `DeterministicCompressor.compressToCap`, with its
//! constants and its promises kept (see `deterministic-compressor.md`).
//!
//! Phase 1 compacts every tool result (always). Phase 2, when enabled and still over the
//! cap, runs the subjective rules in order over the assistant messages, keeping a rule's
//! edits only if the total drops, and stops once at or under the cap. User and system
//! messages are never edited; untouched messages are written back byte for byte.

mod artifacts;
mod subjective;
mod tool_output;

use std::collections::BTreeMap;

use serde_json::Value;

pub use artifacts::{content_name, ArtifactStore, DirStore, DryRun, Refuse};
pub use subjective::{dedup_sentences, is_precise, remove_fillers, truncate_verbose};
pub use tool_output::{
    compact_error, compact_json, compact_log, compact_text, compact_tool_output, externalized_summary, is_stack_frame,
    ContentType, DEFAULT_EXTERNALIZE_OVER, KEEP_BYTES,
};

use crate::cancel::CancelToken;
use crate::tokens::Counts;
use crate::tokens::Incremental;
use crate::transcript::Transcript;

/// A subjective rule: the edited text, or `None` when it leaves the text alone.
type TextRule = fn(&str) -> Option<String>;

/// The rule behind an edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rule {
    /// JSON tool output pruned and written compact.
    ToolJson,
    /// Log tool output collapsed.
    ToolLog,
    /// Stack trace cut to ten frames.
    ToolError,
    /// Long text cut to its first and last words.
    ToolText,
    /// Stored in the artifact store, replaced by a pointer.
    Externalize,
    /// Filler words removed.
    FillerWords,
    /// Repeated sentences removed.
    DedupSentences,
    /// Verbose response capped.
    Truncate,
}

impl Rule {
    /// The name used in `--plan` and the TUI.
    pub fn name(self) -> &'static str {
        match self {
            Rule::ToolJson => "tool_json",
            Rule::ToolLog => "tool_log",
            Rule::ToolError => "tool_error",
            Rule::ToolText => "tool_text",
            Rule::Externalize => "externalize",
            Rule::FillerWords => "filler_words",
            Rule::DedupSentences => "dedup_sentences",
            Rule::Truncate => "truncate",
        }
    }
}

/// The compressor's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// The token cap.
    pub cap: u64,
    /// Run phase 2.
    pub subjective_edits: bool,
    /// Tool outputs larger than this many bytes are externalized.
    pub externalize_over: usize,
}

/// One edit of one message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edit {
    /// The message.
    pub index: usize,
    /// What was done.
    pub rule: Rule,
    /// The message's tokens before this edit.
    pub tokens_before: u64,
    /// And after.
    pub tokens_after: u64,
}

/// The result of a compression. The output document is the transcript with `changed`
/// applied ([`crate::transcript::Transcript::with_overrides`]).
#[derive(Debug, Clone)]
pub struct Compressed {
    /// Tokens before.
    pub tokens_before: u64,
    /// Tokens after.
    pub tokens_after: u64,
    /// `tokens_after <= cap`.
    pub cap_met: bool,
    /// Every edit, in the order applied.
    pub edits: Vec<Edit>,
    /// The new JSON of each edited message.
    pub changed: BTreeMap<usize, String>,
    /// Names of the stored artifacts, in order.
    pub artifacts: Vec<String>,
}

impl Compressed {
    /// The output document: `transcript` with the rewritten messages, everything else
    /// byte for byte.
    pub fn document(&self, transcript: &Transcript) -> super::Document {
        super::Document::unchanged(&transcript.with_overrides(self.changed.clone()))
    }
}

/// Compresses `transcript` toward `settings.cap`, counting with the counts' tokenizer.
pub fn compress(
    transcript: &Transcript,
    counts: &Counts,
    settings: &Settings,
    store: &mut dyn ArtifactStore,
    cancel: &CancelToken,
) -> crate::Result<Compressed> {
    let mut work = Work {
        transcript,
        tokenizer: counts.tokenizer,
        tokens: counts.iter().collect(),
        edited: BTreeMap::new(),
        edits: Vec::new(),
        artifacts: Vec::new(),
    };
    work.tool_outputs(settings.externalize_over, store, cancel)?;
    if settings.subjective_edits {
        let rules: [(Rule, TextRule); 3] = [
            (Rule::FillerWords, remove_fillers),
            (Rule::DedupSentences, dedup_sentences),
            (Rule::Truncate, truncate_verbose),
        ];
        for (rule, edit) in rules {
            if work.total() <= settings.cap {
                break;
            }
            cancel.check()?;
            work.subjective(rule, edit);
        }
    }
    let tokens_after = work.total();
    let changed: BTreeMap<usize, String> = work
        .edited
        .iter()
        .map(|(&i, v)| (i, serde_json::to_string(v).expect("a Value always serializes")))
        .collect();
    Ok(Compressed {
        tokens_before: counts.total(),
        tokens_after,
        cap_met: tokens_after <= settings.cap,
        edits: work.edits,
        changed,
        artifacts: work.artifacts,
    })
}

struct Work<'a> {
    transcript: &'a Transcript,
    tokenizer: crate::tokens::Tokenizer,
    tokens: Vec<u64>,
    edited: BTreeMap<usize, Value>,
    edits: Vec<Edit>,
    artifacts: Vec<String>,
}

impl Work<'_> {
    fn total(&self) -> u64 {
        self.tokens.iter().sum()
    }

    /// Tokens of an edited message, counted as the transcript counts its messages.
    fn count(&self, value: &Value) -> u64 {
        let json = serde_json::to_string(value).unwrap_or_default();
        crate::tokens::count_json(self.transcript, self.tokenizer, &json)
    }

    /// Notes an edit of message `index` by `rule`, which leaves it at `after` tokens.
    fn record(&mut self, index: usize, rule: Rule, after: u64) {
        self.edits.push(Edit {
            index,
            rule,
            tokens_before: self.tokens[index],
            tokens_after: after,
        });
        self.tokens[index] = after;
    }

    /// The message as currently edited; `None` when its JSON cannot be held as a value
    /// (a lone surrogate escape such as `"\ud800"`): such a message is left as read.
    fn value(&self, index: usize) -> Option<Value> {
        match self.edited.get(&index) {
            Some(v) => Some(v.clone()),
            None => serde_json::from_str(self.transcript.raw(index)).ok(),
        }
    }

    fn tool_outputs(
        &mut self,
        externalize_over: usize,
        store: &mut dyn ArtifactStore,
        cancel: &CancelToken,
    ) -> crate::Result<()> {
        for index in 0..self.transcript.messages.len() {
            if index % 256 == 0 {
                cancel.check()?;
            }
            let message = &self.transcript.messages[index];
            // A merged multi-line response has no single span to rewrite in place.
            if message.synthetic().is_some() || (message.role != "tool" && message.tool_results().is_empty()) {
                continue;
            }
            let Some(mut value) = self.value(index) else {
                continue;
            };
            // Each output is edited in turn and the message re-counted by the changed
            // string only: linear in the outputs of one message, not quadratic.
            let texts: Vec<String> = tool_texts(&mut value).into_iter().map(|s| s.clone()).collect();
            if texts.is_empty() {
                continue;
            }
            let counted = serde_json::to_string(&value).unwrap_or_default();
            let mut running = Incremental::new(
                self.tokenizer,
                &self.transcript.count_form(&counted),
                self.tokens[index],
            );
            let mut replaced: Vec<Option<String>> = vec![None; texts.len()];
            for (slot, text) in texts.iter().enumerate() {
                let Some((replacement, rule)) = compact_tool_output(text, externalize_over, store)? else {
                    continue;
                };
                let kept = running;
                let after = running.replace(text, &replacement);
                if after > self.tokens[index] {
                    running = kept; // never let an edit cost more
                    continue;
                }
                if rule == Rule::Externalize {
                    self.artifacts.push(content_name(text));
                }
                self.record(index, rule, after);
                replaced[slot] = Some(replacement);
            }
            if replaced.iter().any(Option::is_some) {
                for (slot, text) in tool_texts(&mut value).into_iter().enumerate() {
                    if let Some(new) = replaced[slot].take() {
                        *text = new;
                    }
                }
                // One whole count at the end keeps the figures exact whatever happens.
                let exact = self.count(&value);
                if exact != self.tokens[index] {
                    if let Some(last) = self.edits.last_mut() {
                        last.tokens_after = exact;
                    }
                    self.tokens[index] = exact;
                }
                self.edited.insert(index, value);
            }
        }
        Ok(())
    }

    /// Applies `edit` to every assistant text; keeps the lot only if the total drops.
    fn subjective(&mut self, rule: Rule, edit: TextRule) {
        let mut candidates = Vec::new();
        for (index, message) in self.transcript.messages.iter().enumerate() {
            if message.role != "assistant" || message.synthetic().is_some() {
                continue;
            }
            let Some(mut value) = self.value(index) else {
                continue;
            };
            let mut changed = false;
            for slot in assistant_texts(&mut value) {
                if let Some(new) = edit(slot) {
                    *slot = new;
                    changed = true;
                }
            }
            if changed {
                let after = self.count(&value);
                if after < self.tokens[index] {
                    candidates.push((index, value, after));
                }
            }
        }
        if candidates.is_empty() {
            return;
        }
        for (index, value, after) in candidates {
            self.record(index, rule, after);
            self.edited.insert(index, value);
        }
    }
}

/// The tool-result texts of a message: an OpenAI `role:"tool"` content (string or text
/// parts), or the contents of Anthropic `tool_result` blocks.
fn tool_texts(message: &mut Value) -> Vec<&mut String> {
    let is_tool = message.get("role").and_then(Value::as_str) == Some("tool");
    let is_output = message
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| t.ends_with("_call_output"));
    let is_observation = message.get("observation").is_some() && message.get("tool_call_metadata").is_some();
    if is_output {
        // Responses / Codex `function_call_output`: the output string.
        return message.get_mut("output").map(text_slots).unwrap_or_default();
    }
    let Some(content) = message.get_mut("content") else {
        return Vec::new();
    };
    if is_tool || is_observation {
        return text_slots(content);
    }
    match content {
        Value::Array(blocks) => blocks
            .iter_mut()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
            .filter_map(|b| b.get_mut("content"))
            .flat_map(text_slots)
            .collect(),
        _ => Vec::new(),
    }
}

/// The text of an assistant message: its content string or its `text` blocks.
fn assistant_texts(message: &mut Value) -> Vec<&mut String> {
    match message.get_mut("content") {
        Some(content) => text_slots(content),
        None => Vec::new(),
    }
}

fn text_slots(content: &mut Value) -> Vec<&mut String> {
    match content {
        Value::String(s) => vec![s],
        Value::Array(items) => items
            .iter_mut()
            .filter(|item| item.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|item| match item.get_mut("text") {
                Some(Value::String(s)) => Some(s),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}
