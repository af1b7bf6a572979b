//! The compactions that really happened. A session log records every compaction its
//! agent made (Claude Code `compact_boundary` + the `isCompactSummary` message; Codex
//! `compacted`); loaded whole ([`Transcript::whole_session`]), the conversation splits
//! into **epochs**: what the model saw between two compactions. Each compaction is judged
//! like a simulated one: the recorded size before it beside our count of its epoch, the
//! summary the agent got, what it kept, and the facts and user instructions of the epoch
//! that appear neither in that summary nor anywhere after it.

use std::ops::Range;

use crate::loss::{loss_report_kept, LossReport};
use crate::tokens::Counts;
use crate::transcript::Transcript;

/// The conversation between two compactions.
#[derive(Debug, Clone, PartialEq)]
pub struct Epoch {
    /// 0 for the first.
    pub index: usize,
    /// Its messages in the whole session (the first of a later epoch is the summary it
    /// started from).
    pub messages: Range<usize>,
    /// Their tokens by the counts' tokenizer.
    pub tokens: u64,
    /// The largest prompt the provider recorded in it, when the log records usage.
    pub recorded_peak: Option<u64>,
    /// Human turns in it.
    pub human_turns: usize,
}

/// One real compaction.
#[derive(Debug, Clone, PartialEq)]
pub struct Compaction {
    /// 0 for the first.
    pub index: usize,
    /// 1-based line of its record.
    pub line: usize,
    /// The epoch it ended.
    pub epoch: usize,
    /// The first message after it.
    pub at: usize,
    /// `auto`, `manual`, or `None` when the log does not say.
    pub trigger: Option<String>,
    /// The context's size before it, as recorded.
    pub pre_tokens: Option<u64>,
    /// The context's size right after it, as recorded (Claude Code's `postTokens`).
    pub post_tokens: Option<u64>,
    /// The last prompt the provider recorded before it (the request that did not set it
    /// off), when the log records usage: the lower end of where an automatic threshold
    /// lies, and the only figure a log without `preTokens` (Claude Code 1.0.x) gives.
    pub last_recorded_before: Option<u64>,
    /// For an `auto` compaction: the threshold the client used lies above the usage of
    /// the response before the one that set it off and at most that one's (its
    /// `preTokens` where recorded): [`crate::transcript::PastCompaction::threshold_bracket`].
    pub threshold_between: Option<(u64, u64)>,
    /// Our count of the epoch it ended.
    pub counted_before: u64,
    /// It compacted a conversation logged in another file
    /// ([`crate::transcript::PastCompaction::elsewhere`]).
    pub elsewhere: bool,
    /// The summary the agent got, as readable text.
    pub summary: String,
    /// The message holding it.
    pub summary_message: Option<usize>,
    /// Tokens of the summary message.
    pub summary_tokens: u64,
    /// What it kept besides the summary (readable texts).
    pub kept: Vec<String>,
    /// The messages of the epoch it ended.
    pub ended: Range<usize>,
    /// The messages of the epoch after it.
    pub after_epoch: Range<usize>,
    /// What the epoch held and what survives it.
    pub loss: LossReport,
}

impl Compaction {
    /// The loss report had the compaction written `summary` instead of its own, on the
    /// same cut (the same epoch replaced, the same messages kept, the same text after it):
    /// another summarizer judged against the real one.
    pub fn loss_with(&self, whole: &Transcript, summary: &str) -> LossReport {
        let after = self.summary_message.map_or(self.at, |i| i + 1)..whole.messages.len();
        let mut kept_text = self.kept.join("\n");
        kept_text.push('\n');
        let mut loss = loss_report_kept(whole, self.ended.clone(), &format!("{summary}\n{kept_text}"), &[after]);
        loss.summary_tokens = (summary.chars().count() as u64).div_ceil(4);
        loss
    }
}

/// A session's epochs and compactions.
#[derive(Debug, Clone, PartialEq)]
pub struct History {
    /// The epochs, in order; a log without compactions has one.
    pub epochs: Vec<Epoch>,
    /// The compactions, in order.
    pub compactions: Vec<Compaction>,
}

/// The message ranges of `whole`'s epochs: each real compaction starts one at its
/// summary; a session without compactions is one epoch.
pub fn epoch_ranges(whole: &Transcript) -> Vec<std::ops::Range<usize>> {
    let len = whole.messages.len();
    let mut starts: Vec<usize> = whole.compactions.iter().map(|c| c.at.min(len)).collect();
    starts.dedup();
    let mut bounds = vec![0];
    bounds.extend(starts.iter().copied().filter(|&s| s > 0));
    bounds.push(len);
    bounds.dedup();
    bounds.windows(2).map(|w| w[0]..w[1]).collect()
}

/// The history of `whole` (a transcript loaded with every epoch) with its counts.
pub fn history(whole: &Transcript, counts: &Counts) -> History {
    let len = whole.messages.len();
    let epochs: Vec<Epoch> = epoch_ranges(whole)
        .into_iter()
        .enumerate()
        .map(|(index, messages)| Epoch {
            index,

            tokens: counts.range(messages.start, messages.end),
            recorded_peak: messages
                .clone()
                .filter_map(|i| whole.messages[i].recorded().map(|r| r.context_tokens()))
                .max(),
            human_turns: messages.clone().filter(|&i| whole.messages[i].boundary).count(),
            messages,
        })
        .collect();
    let compactions = whole
        .compactions
        .iter()
        .enumerate()
        .map(|(index, past)| {
            let at = past.at.min(len);
            // The epoch it ended; none when the log starts with it (a compacted export:
            // what came before is not in the file).
            let ended_epoch = epochs.iter().rposition(|e| e.messages.end <= at);
            let epoch = ended_epoch.unwrap_or(0);
            let ended = ended_epoch.map_or(at..at, |k| epochs[k].messages.clone());
            let summary = past.summary_message.map(|i| whole.summary_text(i)).unwrap_or_default();
            let after = past.summary_message.map_or(at, |i| i + 1)..len;
            let mut kept_text = past.kept.join("\n");
            kept_text.push('\n');
            let mut loss = loss_report_kept(whole, ended.clone(), &format!("{summary}\n{kept_text}"), &[after]);
            loss.summary_tokens = past.summary_message.map_or(0, |i| counts.message(i));
            let last_recorded_before = ended
                .clone()
                .rev()
                .find_map(|i| whole.messages[i].recorded().map(|r| r.context_tokens()));
            let after_epoch = epochs
                .iter()
                .find(|e| e.messages.start >= at)
                .map_or(at..len, |e| e.messages.clone());
            Compaction {
                index,
                line: past.line,
                epoch,
                at,
                trigger: past.trigger.clone(),
                pre_tokens: past.pre_tokens,
                post_tokens: past.post_tokens,
                last_recorded_before,
                threshold_between: past.threshold_bracket(whole),
                counted_before: counts.range(ended.start, ended.end),
                elsewhere: past.elsewhere,
                summary_tokens: loss.summary_tokens,
                summary,
                summary_message: past.summary_message,
                kept: past.kept.clone(),
                ended: ended.clone(),
                after_epoch,
                loss,
            }
        })
        .collect();
    History { epochs, compactions }
}
