//! The §7F tail plan: a pure function of (transcript shape, per-message counts, options).
//!
//! With prefix sums every rule is a lookup: the suffix cost `s(i)` is monotone in `i`,
//! so pass 1's "walk down while it fits" is a binary search for the earliest index that
//! fits followed by a search for the first boundary at or after it. Re-planning after a
//! budget change costs O(log n); nothing is ever re-counted.

use crate::tokens::Counts;
use crate::transcript::Transcript;

/// The compactor's options (§7F "Options").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Options {
    /// Compact only when the total is strictly greater than this.
    pub max_tokens: u64,
    /// Token budget of the verbatim tail; `None` means `max_tokens / 2`. `Some(0)` is real.
    pub keep_tail: Option<u64>,
    /// Add the memory-tool reminder before the tail.
    pub flush_to_memory: bool,
}

impl Options {
    /// `keep_tail` as the compactor uses it.
    pub fn effective_keep_tail(&self) -> u64 {
        self.keep_tail.unwrap_or(self.max_tokens / 2)
    }
}

/// Why the tail starts where it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitReason {
    /// Pass 1: the earliest boundary whose suffix fits in `keep_tail`.
    LargestFittingTail,
    /// Pass 2: no boundary fits, so the most recent one; the tail exceeds `keep_tail`.
    Fallback,
    /// No boundary after the head: the tail is empty and the whole body is summarized.
    NoBoundary,
}

/// Where a compaction cuts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    /// 1 when message 0 is a system message kept verbatim, else 0.
    pub head_end: usize,
    /// First index of the verbatim tail (`len` when the tail is empty).
    pub split: usize,
    /// How `split` was chosen.
    pub reason: SplitReason,
    /// Tokens of the kept head.
    pub head_tokens: u64,
    /// Tokens of the messages summarized away.
    pub summarized_tokens: u64,
    /// Tokens of the verbatim tail.
    pub tail_tokens: u64,
}

impl Cut {
    /// Number of messages summarized.
    pub fn summarized(&self) -> usize {
        self.split - self.head_end
    }

    /// Pass 2 was used.
    pub fn fallback(&self) -> bool {
        self.reason == SplitReason::Fallback
    }

    /// The tail is empty (no boundary after the head).
    pub fn tail_empty(&self) -> bool {
        self.reason == SplitReason::NoBoundary
    }
}

/// What the compactor decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// `total <= max_tokens`: nothing happens, the transcript stays byte-identical.
    UnderBudget,
    /// Over budget but `split <= head_end` (nothing but the head): nothing happens.
    NothingToSummarize,
    /// The transcript is compacted.
    Compact(Cut),
}

/// Where a message ends up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Section {
    /// The leading system message, kept verbatim.
    Head,
    /// Summarized away.
    Summarized,
    /// Kept verbatim (the tail, or everything when nothing is cut).
    Tail,
}

impl Section {
    /// The name used in `--plan` and JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Section::Head => "head",
            Section::Summarized => "summarized",
            Section::Tail => "tail",
        }
    }
}

/// §7F rule 2, the one place it is written: 1 when message 0 is a system message (kept
/// verbatim as the head), else 0. Only index 0 is checked.
pub fn head_end(transcript: &Transcript) -> usize {
    usize::from(transcript.messages.first().is_some_and(|m| m.role == "system"))
}

/// The plan for one firing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// 1 when message 0 is a leading system message, else 0 (whether or not it compacts).
    pub head_end: usize,
    /// Tokens of the whole transcript.
    pub tokens_before: u64,
    /// The budget.
    pub max_tokens: u64,
    /// The effective `keep_tail`.
    pub keep_tail: u64,
    /// Whether the reminder is added.
    pub flush_to_memory: bool,
    /// What happens.
    pub decision: Decision,
}

impl Plan {
    /// The cut, when the plan compacts.
    pub fn cut(&self) -> Option<&Cut> {
        match &self.decision {
            Decision::Compact(cut) => Some(cut),
            _ => None,
        }
    }

    /// True when the plan compacts.
    pub fn compacts(&self) -> bool {
        self.cut().is_some()
    }

    /// Where message `index` ends up.
    pub fn section(&self, index: usize) -> Section {
        match self.cut() {
            _ if index < self.head_end => Section::Head,
            Some(cut) if index < cut.split => Section::Summarized,
            _ => Section::Tail,
        }
    }
}

/// A message list the §7F plan can run on: its length, whether it starts with a system
/// message, what every suffix costs, and where its human turns are. A loaded transcript
/// with its counts is one; replay's working context (a head, inserted summaries and a
/// stretch of the session) is another, so both are planned by the same rules.
pub trait Shape {
    /// Number of messages.
    fn len(&self) -> usize;
    /// True when there are no messages.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Message 0 is a system message (§7F rule 2).
    fn starts_with_system(&self) -> bool;
    /// Tokens of the messages `from..len`.
    fn suffix(&self, from: usize) -> u64;
    /// The first boundary (human turn) at or after `from`.
    fn boundary_from(&self, from: usize) -> Option<usize>;
    /// The last boundary.
    fn last_boundary(&self) -> Option<usize>;
}

/// A loaded transcript with its counts, as a [`Shape`].
struct Loaded<'a> {
    transcript: &'a Transcript,
    counts: &'a Counts,
}

impl Shape for Loaded<'_> {
    fn len(&self) -> usize {
        self.counts.len()
    }

    fn starts_with_system(&self) -> bool {
        head_end(self.transcript) == 1
    }

    fn suffix(&self, from: usize) -> u64 {
        self.counts.suffix(from)
    }

    fn boundary_from(&self, from: usize) -> Option<usize> {
        let boundaries = &self.transcript.boundaries;
        boundaries.get(boundaries.partition_point(|&b| b < from)).copied()
    }

    fn last_boundary(&self) -> Option<usize> {
        self.transcript.boundaries.last().copied()
    }
}

/// Plans one §7F firing on a transcript.
pub fn plan(transcript: &Transcript, counts: &Counts, options: &Options) -> Plan {
    debug_assert_eq!(
        counts.len(),
        transcript.messages.len(),
        "counts belong to this transcript"
    );
    plan_shape(&Loaded { transcript, counts }, options)
}

/// Plans one §7F firing on any [`Shape`].
pub fn plan_shape(shape: &impl Shape, options: &Options) -> Plan {
    let total = shape.suffix(0);
    let keep_tail = options.effective_keep_tail();
    let head_end = usize::from(shape.starts_with_system());
    let decide = || {
        if total <= options.max_tokens {
            return Decision::UnderBudget;
        }
        let (split, reason) = choose_split(shape, head_end, keep_tail);
        if split <= head_end {
            return Decision::NothingToSummarize;
        }
        let tail_tokens = shape.suffix(split);
        let from_summarized = shape.suffix(head_end);
        Decision::Compact(Cut {
            head_end,
            split,
            reason,
            head_tokens: total - from_summarized,
            summarized_tokens: from_summarized - tail_tokens,
            tail_tokens,
        })
    };
    Plan {
        head_end,
        tokens_before: total,
        max_tokens: options.max_tokens,
        keep_tail,
        flush_to_memory: options.flush_to_memory,
        decision: decide(),
    }
}

/// Rules 4–6: pass 1, pass 2, or the empty tail.
fn choose_split(shape: &impl Shape, head_end: usize, keep_tail: u64) -> (usize, SplitReason) {
    // Index head_end itself is never a candidate (rule 4).
    let fits_from = earliest_fitting(shape, head_end + 1, keep_tail);
    if let Some(b) = shape.boundary_from(fits_from) {
        return (b, SplitReason::LargestFittingTail);
    }
    match shape.last_boundary() {
        Some(b) if b > head_end => (b, SplitReason::Fallback),
        _ => (shape.len(), SplitReason::NoBoundary),
    }
}

/// The smallest `i >= from` whose suffix fits in `keep_tail` (`len` when none does).
fn earliest_fitting(shape: &impl Shape, from: usize, keep_tail: u64) -> usize {
    let len = shape.len();
    if from >= len {
        return len;
    }
    let (mut lo, mut hi) = (from, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if shape.suffix(mid) <= keep_tail {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}
