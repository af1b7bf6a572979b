//! A policy over a session's whole life: every assistant message answers one model call,
//! and the agent's policy runs on the working context right before it. A policy that
//! rewrites the history (a summary, a pruned store) changes the context for every later
//! call; one that makes a view per call (trimming, masking, server-side clearing)
//! changes only what that call sends.
//!
//! Sizes are given three ways: the policy's own counter (what decides when it fires),
//! ctxlens' count of the messages sent (`counted`, the §7F estimate), and — where the log
//! recorded usage — the billed size, `overhead + ratio × counted` fitted **per epoch**
//! ([`crate::calibrate::calibrate_epochs`]): a context is billed by the fit of the epoch
//! its oldest message belongs to, so a context that continues across a real compaction
//! keeps its own lineage's overhead, and a fresh one after a firing takes the current
//! epoch's. A real compaction's own summary is left out: the replay's firings stand for it.
//!
//! The policy is asked for a plan only when its cheap test ([`Policy::may_act`]) allows,
//! so a call that cannot fire costs O(1).

use std::collections::BTreeSet;

use super::chat::{written, ChatMessage, Kind};
use super::running::{FastView, Running};
use super::{agent_summary, InPlace, Policy, PolicyPlan, PolicySettings, Section};
use crate::calibrate::{epoch_of, EpochFit};
use crate::cancel::CancelToken;
use crate::loss::session::SessionTurns;
use crate::loss::turns::TurnKind;
use crate::loss::{first_line, Turn, TurnStatus};
use crate::summarize::{older_message, Summarizer};
use crate::tokens::{count_json, Counts, Tokenizer};
use crate::transcript::Transcript;

/// What a policy replay needs (the chat view: [`super::chat_view_counted`]).
pub struct Inputs<'a> {
    /// The session, every epoch (`Transcript::whole_session`).
    pub whole: &'a Transcript,
    /// Its counts (the §7F estimate).
    pub counts: &'a Counts,
    /// The policy.
    pub policy: &'a dyn Policy,
    /// Its settings.
    pub settings: &'a PolicySettings,
    /// Makes each firing's summary.
    pub summarizer: &'a dyn Summarizer,
    /// The per-epoch fits of recorded usage (empty: nothing is billed).
    pub fits: &'a [EpochFit],
    /// The same fits with images and documents counted as the provider bills them
    /// ([`text_counts`]): the ratio of text to billed tokens, which sizes what a summary
    /// and restored files add (`fits` itself where no message is mostly binary).
    pub text_fits: &'a [EpochFit],
    /// The session's chat view ([`super::chat_view_counted`] of `whole` with `counts`), built
    /// once for every policy replayed on it.
    pub chat: &'a [ChatMessage],
    /// The session's human turns ([`SessionTurns::of_session`] of `whole`), read once
    /// for every policy replayed on it.
    pub turns: &'a SessionTurns,
    /// Stops the replay early.
    pub cancel: &'a CancelToken,
    /// The model's context window: a request larger than it is one the provider refuses
    /// (counted in [`Replayed::refused`]); `None` when unknown.
    pub window: Option<u64>,
    /// What survives a change to the messages, before each message
    /// ([`SurvivingPrefixes::of`] of `whole`).
    pub prefixes: &'a SurvivingPrefixes,
    /// What every request of the session carries beyond its messages
    /// ([`SessionOverhead::of`] of `whole`).
    pub overhead: SessionOverhead,
    /// The agent's own summaries `whole` knows of, counted once when first asked for (by
    /// the agent's own policy on its own log).
    pub summaries: &'a std::sync::OnceLock<agent_summary::KnownSummaries>,
    /// What the replay may know of the log ([`Known::EVERYTHING`] but in `backtest`).
    pub known: Known,
}

impl Inputs<'_> {
    /// What is known at the call answered by message `at`: the log before it, and never
    /// past [`Known::until`].
    fn known_at(&self, at: usize) -> usize {
        at.min(self.known.until)
    }
}

/// What a replay may know of the log: `backtest`'s view of the moment before one
/// compaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Known {
    /// What the log records from this message on is never known, at any call
    /// (`usize::MAX`: everything before each call is): `backtest` predicts a compaction
    /// with what was known before it, even where the replay fires after it.
    pub until: usize,
    /// The real compactions whose summary comes before this message are history, not
    /// predictions: at each, the replay takes the context the agent really had after it
    /// (its summary, then what followed) in place of its own. `backtest` predicts a log's
    /// second compaction from where the first really left the session, as a user
    /// predicting their agent's next compaction stands after the last one; a replay of the
    /// whole session (0) lets its own firings stand for every real one.
    pub follow_before: usize,
}

impl Known {
    /// Everything the log records before each call; no real compaction followed.
    pub const EVERYTHING: Known = Known {
        until: usize::MAX,
        follow_before: 0,
    };
}

/// What every policy replay of one session reads, made once and shared: the per-epoch
/// fits of its recorded usage, its chat view and its human turns. `compare`, the policy
/// sweep, `backtest` and `replay --policy` replay through it.
pub struct SessionReplays<'a> {
    whole: &'a Transcript,
    counts: &'a Counts,
    fits: Vec<EpochFit>,
    text_fits: Option<Vec<EpochFit>>,
    chat: Vec<ChatMessage>,
    turns: SessionTurns,
    prefixes: SurvivingPrefixes,
    overhead: SessionOverhead,
    summaries: std::sync::OnceLock<agent_summary::KnownSummaries>,
}

impl<'a> SessionReplays<'a> {
    /// Prepares `whole` (every epoch) with its counts.
    pub fn of(whole: &'a Transcript, counts: &'a Counts) -> SessionReplays<'a> {
        let text = text_counts(whole, counts);
        SessionReplays {
            whole,
            counts,
            fits: crate::calibrate::calibrate_epochs(whole, counts),
            text_fits: text
                .as_ref()
                .map(|text| crate::calibrate::calibrate_epochs(whole, text)),
            chat: super::chat_view_counted(whole, counts),
            turns: SessionTurns::of_session(whole),
            prefixes: SurvivingPrefixes::of(whole),
            overhead: SessionOverhead::of(whole, text.as_ref().unwrap_or(counts)),
            summaries: std::sync::OnceLock::new(),
        }
    }

    /// Replays `policy` under `settings` (see [`Inputs`] for each).
    pub fn replay(
        &self,
        policy: &dyn Policy,
        settings: &PolicySettings,
        summarizer: &dyn Summarizer,
        window: Option<u64>,
        cancel: &CancelToken,
    ) -> crate::Result<Replayed> {
        self.replay_known_until(policy, settings, summarizer, window, Known::EVERYTHING, cancel)
    }

    /// [`SessionReplays::replay`] knowing of the log only what `known` says.
    pub fn replay_known_until(
        &self,
        policy: &dyn Policy,
        settings: &PolicySettings,
        summarizer: &dyn Summarizer,
        window: Option<u64>,
        known: Known,
        cancel: &CancelToken,
    ) -> crate::Result<Replayed> {
        replay(&Inputs {
            whole: self.whole,
            counts: self.counts,
            policy,
            settings,
            summarizer,
            fits: &self.fits,
            text_fits: self.text_fits.as_deref().unwrap_or(&self.fits),
            chat: &self.chat,
            turns: &self.turns,
            cancel,
            window,
            prefixes: &self.prefixes,
            overhead: self.overhead,
            summaries: &self.summaries,
            known,
        })
    }
}

/// `replay --policy`'s answer (`Transcript.replay(policy=…)` in Python): the replay, the
/// settings it ran with and every human turn in the loss report's contract.
#[derive(serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ReplayDoc<'a> {
    /// The settings it ran with (the policy's defaults, then the user's).
    pub settings: Vec<(String, String)>,
    /// The summarizer its firings used.
    pub summarizer: String,
    /// The replay.
    #[serde(flatten)]
    pub replayed: &'a Replayed,
    /// User instructions the replay lost.
    pub instructions_lost_count: usize,
    /// Every human turn in the report contract (`instructions` is already the count in
    /// a policy replay's rows, which `compare` shares).
    pub turns: Vec<crate::loss::document::TurnDoc<'a>>,
}

impl crate::document::Document for ReplayDoc<'_> {
    const NAME: &'static str = "replay-policy";
}

impl<'a> ReplayDoc<'a> {
    /// The answer for `replayed`, run with `settings` and `summarizer`.
    pub fn of(replayed: &'a Replayed, settings: &PolicySettings, summarizer: String) -> ReplayDoc<'a> {
        ReplayDoc {
            settings: settings.pairs(),
            summarizer,
            instructions_lost_count: replayed.instructions_lost.len(),
            turns: replayed.turns.iter().map(crate::loss::document::TurnDoc::of).collect(),
            replayed,
        }
    }
}

/// One time the policy changed the context.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Firing {
    /// The message whose call it ran before.
    pub at: usize,
    /// The context's size before, in the policy's counter.
    pub tokens_before: Option<u64>,
    /// After (its summary not included), in the policy's counter.
    pub tokens_after: Option<u64>,
    /// ctxlens' count of what was sent before and after (summary included).
    pub counted_before: u64,
    /// See `counted_before`.
    pub counted_after: u64,
    /// The billed size before and after, where the epoch's usage was fitted.
    pub billed_before: Option<u64>,
    /// See `billed_before`.
    pub billed_after: Option<u64>,
    /// The least and the most `billed_after` can be where what the agent restores after
    /// its summary is known only in part (files it re-reads from disk that the log showed
    /// in part): a prediction that cannot be a figure is said as a range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub billed_after_range: Option<[u64; 2]>,
    /// Messages it removed, summarized or cleared.
    pub removed: usize,
    /// Tokens the summarizer read (counted).
    pub summary_input_tokens: u64,
    /// It may act again at once (still over its trigger after firing).
    pub loops: bool,
    /// The summary it wrote, if any.
    #[serde(skip)]
    pub summary: String,
}

/// One model call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Call {
    /// The assistant message answering it.
    pub at: usize,
    /// Messages sent.
    pub messages: usize,
    /// ctxlens' count of what was sent.
    pub counted: u64,
    /// Its billed size, where the epoch's usage was fitted.
    pub billed: Option<u64>,
    /// What the provider recorded for the real call, when the log has it (the real
    /// agent's context, not this replay's).
    pub recorded: Option<u64>,
    /// Larger than the model's window (billed where known, else counted): the provider
    /// refuses this request.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub over_window: bool,
}

/// A policy's replay.
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Replayed {
    /// The policy.
    pub policy: &'static str,
    /// Its own counter's unit.
    pub counter: &'static str,
    /// Calls replayed.
    pub model_calls: usize,
    /// Every firing, in order.
    pub firings: Vec<Firing>,
    /// Firings after which it may act again at once.
    pub loops: usize,
    /// The largest context sent (counted).
    pub peak_counted: u64,
    /// The largest billed context, when every call could be billed.
    pub peak_billed: Option<u64>,
    /// Everything sent over the session (counted).
    pub counted_total: u64,
    /// Everything billed over the session, when every call could be billed.
    pub billed_total: Option<u64>,
    /// Tokens every summary read, together.
    pub summary_input_tokens: u64,
    /// Human turns removed and not restated by any summary: (message, first line).
    pub instructions_lost: Vec<(usize, String)>,
    /// Every human turn judged by meaning (`message`: its index in the session).
    #[serde(skip)]
    pub turns: Vec<Turn>,
    /// Human turns in the session.
    pub instructions: usize,
    /// The first message of the session it removed.
    pub first_lost: Option<usize>,
    /// Every call.
    pub calls: Vec<Call>,
    /// The policy's warnings, each once.
    pub warnings: Vec<String>,
    /// Calls larger than the model's window: requests the provider refuses.
    pub refused: usize,
}

impl Replayed {
    fn empty(policy: &'static str, instructions: usize) -> Replayed {
        Replayed {
            policy,
            counter: "",
            model_calls: 0,
            firings: Vec::new(),
            loops: 0,
            peak_counted: 0,
            peak_billed: Some(0),
            counted_total: 0,
            billed_total: Some(0),
            summary_input_tokens: 0,
            instructions_lost: Vec::new(),
            turns: Vec::new(),
            instructions,
            first_lost: None,
            calls: Vec::new(),
            warnings: Vec::new(),
            refused: 0,
        }
    }

    /// Settles what only the whole replay tells: no billed totals without a call, the
    /// counter's name when the policy never fired.
    fn finish(&mut self, inputs: &Inputs) {
        if self.model_calls == 0 {
            self.peak_billed = None;
            self.billed_total = None;
        }
        if self.counter.is_empty() {
            self.counter = inputs
                .policy
                .plan_chat(&[], &settings_for(inputs, &[], 0, None))
                .map_or("messages", |p| p.counter);
        }
    }

    /// Adds a firing to the totals: what it summarized, what it removed (when it rewrote
    /// the history, which also ends the real lineage). Returns what its call sends:
    /// messages, counted, billed.
    fn record_firing(
        &mut self,
        fired: Fired,
        removed: &mut BTreeSet<usize>,
        summaries: &mut Vec<String>,
        real_lineage: &mut bool,
    ) -> (usize, u64, Option<u64>) {
        if let Some(note) = fired.note {
            if !self.warnings.contains(&note) {
                self.warnings.push(note);
            }
        }
        self.loops += usize::from(fired.firing.loops);
        self.summary_input_tokens += fired.firing.summary_input_tokens;
        if !fired.firing.summary.is_empty() {
            summaries.push(fired.firing.summary.clone());
        }
        let sent = (fired.messages, fired.firing.counted_after, fired.firing.billed_after);
        self.firings.push(fired.firing);
        if fired.rewritten {
            *real_lineage = false;
            removed.extend(fired.gone);
        }
        sent
    }

    /// Adds a call to the totals (billed ones only while every call could be billed).
    fn record_call(&mut self, call: Call) {
        self.refused += usize::from(call.over_window);
        self.peak_counted = self.peak_counted.max(call.counted);
        self.counted_total = self.counted_total.saturating_add(call.counted);
        self.peak_billed = self.peak_billed.zip(call.billed).map(|(a, b)| a.max(b));
        self.billed_total = self.billed_total.zip(call.billed).map(|(a, b)| a.saturating_add(b));
        self.calls.push(call);
    }
}

/// The billed size of `sent` (counted `counted`) at call `at`: by the fit of the epoch of
/// its oldest message from the session, as known at that call ([`known_fit`]).
fn billed(inputs: &Inputs, sent: &[ChatMessage], counted: u64, at: usize) -> Option<u64> {
    let lineage = sent.iter().find_map(|m| m.origin).unwrap_or(at);
    known_fit(inputs.fits, lineage, inputs.known_at(at))?
        .calibration
        .as_ref()
        .map(|c| c.predict(counted))
}

/// The billed size of the request right after a firing that summarized the history
/// (`counted` by ctxlens): what every request of the session carries beyond its
/// messages, then the rest at the fit's ratio. That overhead is measured where the
/// session shows it: at its first call ([`SessionOverhead`]: the system prompt and
/// tools, and the instructions and environment the agent attaches to every request
/// without logging them, which a compaction keeps), never below the prefix the cache
/// showed surviving a change to the messages ([`SurvivingPrefixes`]). Where the first
/// call does not show it (a session that opens with a compaction's summary), the fit's
/// overhead is no guide — a later epoch's also carries what an earlier compaction
/// restored, and files attached once — so only the surviving prefix is counted, as the
/// smaller of the two.
fn billed_after_summary(inputs: &Inputs, sent: &[ChatMessage], counted: u64, at: usize) -> Option<u64> {
    let after = AfterSummary::of(inputs, sent, at)?;
    Some(after.billed(after.overhead, counted))
}

/// What the request after a summary carries beyond what ctxlens counts of it, and the
/// ratio for the rest ([`billed_after_summary`]).
struct AfterSummary {
    /// The figure used.
    overhead: u64,
    /// The least and the most it can be: different where the session continues a
    /// compacted one, whose first call carried what every request carries and what that
    /// compaction restored together. The least is the surviving prefix alone (as if it
    /// restored nothing), the most that whole first call's overhead (as if it were all
    /// carried by every request); `overhead` is their middle, the figure farthest from
    /// neither.
    least: u64,
    most: u64,
    ratio: f64,
}

impl AfterSummary {
    fn of(inputs: &Inputs, sent: &[ChatMessage], at: usize) -> Option<AfterSummary> {
        let lineage = sent.iter().find_map(|m| m.origin).unwrap_or(at);
        // What follows the summary is text: sized by the fit that counts images as billed.
        let fit = known_fit(inputs.text_fits, lineage, inputs.known_at(at))?
            .calibration
            .as_ref()?;
        let surviving = inputs.prefixes.before(inputs.known_at(at));
        let overhead = match (inputs.overhead.fresh, surviving) {
            (Some(session), surviving) => session.max(surviving.unwrap_or(0)),
            (None, Some(prefix)) => prefix.min(fit.overhead),
            (None, None) => fit.overhead,
        };
        let (least, most) = match inputs.overhead.carried {
            Some(carried) if carried > overhead => (overhead, carried),
            _ => (overhead, overhead),
        };
        Some(AfterSummary {
            overhead: least.midpoint(most),
            least,
            most,
            ratio: fit.ratio,
        })
    }

    fn billed(&self, overhead: u64, counted: u64) -> u64 {
        (overhead as f64 + self.ratio * counted as f64).round().max(0.0) as u64
    }
}

/// The least and the most the request after a summary bills ([`billed_after_summary`])
/// when what the plan restores is known only in part (`PolicyPlan::restored_range`,
/// around the restored messages' own sizes), or what every request carries is
/// ([`AfterSummary`]).
fn billed_range(inputs: &Inputs, sent: &[ChatMessage], plan: &PolicyPlan, counted: u64, at: usize) -> Option<[u64; 2]> {
    let after = AfterSummary::of(inputs, sent, at)?;
    let (low, high) = match plan.restored_range {
        Some([least, most]) => {
            let point: u64 = plan
                .inserted
                .iter()
                .filter(|i| i.kind == "restored")
                .map(|i| i.tokens.unwrap_or_else(|| i.text.len().div_ceil(4) as u64))
                .sum();
            (
                counted.saturating_sub(point.saturating_sub(least)),
                counted.saturating_add(most.saturating_sub(point)),
            )
        }
        None if after.least == after.most => return None,
        None => (counted, counted),
    };
    Some([after.billed(after.least, low), after.billed(after.most, high)])
}

/// Whether `text` attaches a file the way Claude Code's prompt does: a word that opens
/// with `@` and names a path (`@src/main.rs`, `@README.md`). A scoped package with its
/// version (`@scope/app@3.4.0`, in pasted tool output) names no path.
fn mentions_a_file(text: &str) -> bool {
    text.split_whitespace().any(|word| {
        word.strip_prefix('@')
            .is_some_and(|path| path.len() > 1 && (path.contains('/') || path.contains('.')) && !path.contains('@'))
    })
}

/// Whether a log record is a file attached to the conversation (Claude Code 2.1's
/// `attachment` records of a file, a directory or a document).
fn attaches_a_file(record: &str) -> bool {
    if !record.contains("\"attachment\"") {
        return false;
    }
    serde_json::from_str::<serde_json::Value>(record).is_ok_and(|r| {
        r.get("type").and_then(serde_json::Value::as_str) == Some("attachment")
            && r.pointer("/attachment/type")
                .and_then(serde_json::Value::as_str)
                .is_some_and(|t| matches!(t, "file" | "new_file" | "directory" | "pdf" | "image"))
    })
}

/// `counts` with each message that is mostly binary data (a base64 image or document)
/// counted as the provider bills it, its media by the provider's rule: the estimate
/// counts the base64 text, tens of times over, which turns a fit of recorded usage into
/// a ratio no text has. `None` when no message is mostly binary.
pub fn text_counts(whole: &Transcript, counts: &Counts) -> Option<Counts> {
    use rayon::prelude::*;
    let heavy: Vec<(usize, u64)> = (0..whole.messages().len())
        .into_par_iter()
        .filter_map(|i| Some((i, crate::tokens::media::binary_heavy(whole, i)?.provider_tokens)))
        .collect();
    if heavy.is_empty() {
        return None;
    }
    let mut per_message: Vec<u64> = (0..whole.messages().len()).map(|i| counts.message(i)).collect();
    for (i, tokens) in heavy {
        per_message[i] = tokens;
    }
    Some(Counts::from_per_message(counts.tokenizer, per_message))
}

/// What every request of a session carries beyond the messages its log holds, as its
/// first call shows it: that call's recorded prompt less ctxlens' count of the messages
/// it sent. That is the system prompt and tools, and what the agent attaches to every
/// request without logging it (Claude Code's CLAUDE.md and environment, its skills and
/// deferred tools), which a compaction keeps. `None` where the session opens with a
/// compaction's summary (its first call also carries what that compaction restored), or
/// records no usage. Known before any firing: the first call precedes them all.
#[derive(Debug, Clone, Copy, Default)]
pub struct SessionOverhead {
    /// What every request carries beyond its messages, where the first call shows it.
    fresh: Option<u64>,
    /// Where the session continues a compacted one (it opens with that compaction's
    /// summary): what its first call carried beyond its messages — what every request
    /// carries **and** what that compaction restored, in a split the log does not show.
    carried: Option<u64>,
}

impl SessionOverhead {
    /// The overhead of `whole` (every epoch) counted with `counts`.
    pub fn of(whole: &Transcript, counts: &Counts) -> SessionOverhead {
        let messages = whole.messages();
        // The first call the provider measured: a message recording no prompt (an API
        // error Claude Code writes as a `<synthetic>` answer with zero usage) was none.
        let Some(first) = messages
            .iter()
            .position(|m| m.recorded().is_some_and(|r| r.context_tokens() > 0))
        else {
            return SessionOverhead::default();
        };
        // A session continuing another (a compaction's summary, or a conversation logged
        // in another file) carried more than every request does at its first call.
        let continued = messages[..first].iter().any(crate::transcript::Message::past_summary)
            || whole.compactions().iter().any(|c| c.at <= first)
            || whole.notes().iter().any(|n| n.kind == "continued" && n.before <= first);
        // A file the user attached to the first request (`@path`, or an attachment the
        // log records) is in that call too, once: a compaction drops it. `@path` attaches
        // a file in Claude Code; elsewhere (an AGENTS.md Codex injects, say) it is text.
        let claude_code = whole.format().container == crate::transcript::Container::ClaudeCode;
        let attached = (0..first).any(|i| claude_code && mentions_a_file(&whole.readable_text(i)))
            || whole
                .log_records()
                .iter()
                .take_while(|r| r.message.is_none_or(|m| m < first))
                .any(|r| attaches_a_file(&whole.text()[r.range.clone()]));
        let prompt = messages[first].recorded().map_or(0, |r| r.context_tokens());
        let beyond = prompt.checked_sub(counts.range(0, first)).filter(|&o| o > 0);
        match (continued, attached) {
            (false, false) => SessionOverhead {
                fresh: beyond,
                carried: None,
            },
            (true, false) => SessionOverhead {
                fresh: None,
                carried: beyond,
            },
            _ => SessionOverhead::default(),
        }
    }
}

/// What of a request survives a change to its messages, as the prompt cache showed it
/// before each message. A call that rewrote more of its prompt than it read from the
/// cache had its messages changed, yet read the prefix that stayed the same — the system
/// prompt and tools: the latest such call tells the prefix in force (a session's tools
/// and prompt change; the first calls may have had fewer). Without one, the smallest
/// non-zero cache read bounds it (a call that hits the cache reads at least that prefix;
/// calls that missed the cache read nothing and say nothing of it). Made in one pass over
/// the session and asked at each firing (a policy may fire at every call).
#[derive(Debug, Clone, Default)]
pub struct SurvivingPrefixes {
    /// `(i, prefix)`: from message `i + 1` on (message `i` known), the answer is `prefix`,
    /// until the next step. Sorted by `i`.
    steps: Vec<(usize, u64)>,
}

impl SurvivingPrefixes {
    /// The answers for every message of `whole`.
    pub fn of(whole: &Transcript) -> SurvivingPrefixes {
        let mut steps: Vec<(usize, u64)> = Vec::new();
        let (mut latest_rewrite, mut smallest): (Option<u64>, Option<u64>) = (None, None);
        for (i, r) in whole
            .messages()
            .iter()
            .enumerate()
            .filter_map(|(i, m)| Some((i, m.recorded()?)))
        {
            if r.cache_read_tokens == 0 {
                continue;
            }
            smallest = Some(smallest.map_or(r.cache_read_tokens, |s| s.min(r.cache_read_tokens)));
            if r.cache_write_tokens() > r.cache_read_tokens {
                latest_rewrite = Some(r.cache_read_tokens);
            }
            let answer = latest_rewrite.or(smallest).unwrap_or_default();
            if steps.last().is_none_or(|&(_, last)| last != answer) {
                steps.push((i, answer));
            }
        }
        SurvivingPrefixes { steps }
    }

    /// The prefix known before message `at` (from messages `..at`), if any call read one.
    pub fn before(&self, at: usize) -> Option<u64> {
        let known = self.steps.partition_point(|&(i, _)| i < at);
        known.checked_sub(1).map(|k| self.steps[k].1)
    }
}

/// The fit of `lineage`'s epoch as known at call `at`. An epoch still running at `at` was
/// fitted on calls made after it, so the latest epoch that had ended by then stands in
/// for it (its system prompt and tools carry over a compaction); only where none had
/// ended (the first epoch) is the running epoch's own fit used, as the docs say.
fn known_fit(fits: &[EpochFit], lineage: usize, at: usize) -> Option<&EpochFit> {
    let own = epoch_of(fits, lineage)?;
    if own.messages.end <= at {
        return Some(own);
    }
    fits.iter()
        .rev()
        .find(|e| e.messages.end <= at && e.calibration.is_some())
        .or(Some(own))
}

/// The policy's settings for a context of that lineage: Claude Code counts billed
/// tokens, so its overhead and ratio come from the lineage's fit (unless the user set
/// them) — or, while the context is still the one the agent really sent, from the
/// provider's figure for the last call before this one (`real`: recorded, and the
/// policy's cost of that context) — and
/// its threshold from what the log shows before message `at` (unless set).
fn settings_for(inputs: &Inputs, sent: &[ChatMessage], at: usize, real: Option<(u64, u64)>) -> PolicySettings {
    let mut settings = inputs.settings.clone();
    if inputs.policy.counts_billed() {
        let lineage = sent.iter().find_map(|m| m.origin).unwrap_or(at);
        if settings.text("overhead").is_none() {
            if let Some((recorded, cost)) = real {
                // The provider's figure is the context's cost plus what the log does not
                // hold (system prompt, tools); where ctxlens' count of the messages already
                // exceeds it (code and JSON the estimate overcounts), no overhead is left
                // to add and the count itself is scaled down to the figure — an overhead
                // held at zero with the count as is would put the context above what the
                // provider measured, and fire early.
                settings = if recorded >= cost || cost == 0 {
                    settings
                        .with("overhead", recorded.saturating_sub(cost))
                        .with("ratio", 1)
                } else {
                    settings
                        .with("overhead", 0)
                        .with("ratio", recorded as f64 / cost as f64)
                };
            } else if let Some(fit) =
                known_fit(inputs.fits, lineage, inputs.known_at(at)).and_then(|e| e.calibration.as_ref())
            {
                settings = settings.with("overhead", fit.overhead).with("ratio", fit.ratio);
            }
        }
        // The agent's own log may show a setting its version used (Claude Code's threshold).
        for (key, value) in inputs
            .policy
            .settings_from_log(inputs.whole, inputs.known_at(at), inputs.settings)
        {
            if settings.text(key).is_none() {
                settings = settings.with(key, value);
            }
        }
    }
    settings
}

/// The context a plan leaves: kept and cleared messages in order (a duplicated head
/// again where the tail starts), the summary at its position.
fn rebuild(
    inputs: &Inputs,
    context: &mut Vec<ChatMessage>,
    plan: &PolicyPlan,
    summary: Option<Vec<ChatMessage>>,
    take_over: bool,
) -> Vec<ChatMessage> {
    let mut out = Vec::with_capacity(context.len());
    // A rewritten history moves its kept messages over (the old context is replaced);
    // a view copies them (the context stays).
    let mut moved: Vec<Option<ChatMessage>> = if take_over {
        std::mem::take(context).into_iter().map(Some).collect()
    } else {
        Vec::new()
    };
    let duplicated: Vec<ChatMessage> = plan
        .messages
        .iter()
        .filter(|r| r.duplicated)
        .map(|r| {
            moved
                .get(r.index)
                .and_then(Option::as_ref)
                .unwrap_or_else(|| &context[r.index])
                .clone()
        })
        .collect();
    let mut message = |index: usize| match moved.get_mut(index).and_then(Option::take) {
        Some(m) => m,
        None => context[index].clone(),
    };
    let first_tail = plan.messages.iter().position(|r| r.section == Section::Tail);
    for row in &plan.messages {
        if Some(row.index) == first_tail {
            out.extend(duplicated.iter().cloned());
        }
        if matches!(row.section, Section::Summarized | Section::Dropped) {
            continue;
        }
        let mut m = message(row.index);
        match row.section {
            Section::Head | Section::Tail => {
                if let Some(tokens) = row.truncated_to_tokens {
                    m.counted = m.counted.min(tokens);
                }
                if let Some(text) = plan.rewritten_text.get(&row.index) {
                    text.clone_into(&mut m.text);
                    m.content_parts = None;
                    m.edited = true;
                }
                if row.truncated_to_tokens.is_some() || m.edited {
                    m.policy_cost = inputs.policy.cost(&m);
                }
                out.push(m);
            }
            Section::Cleared => {
                let text = plan.placeholder.unwrap_or("[cleared]");
                m.counted = placeholder_counted(inputs, text);
                m.cleared = true;
                text.clone_into(&mut m.text);
                m.content_parts = None;
                m.images = 0;
                m.policy_cost = inputs.policy.cost(&m);
                out.push(m);
            }
            Section::Summarized | Section::Dropped => {}
        }
    }
    if let (Some(summary), Some(inserted)) = (summary, plan.inserted.first()) {
        let at = inserted.position.min(out.len());
        out.splice(at..at, summary);
    }
    // What the agent puts back after its summary (Claude Code's restored files, todos).
    for restored in plan.inserted.iter().filter(|i| i.kind == "restored") {
        let json = serde_json::json!({"role": restored.role, "content": restored.text}).to_string();
        let counted = restored
            .tokens
            .unwrap_or_else(|| count_json(inputs.whole, inputs.counts.tokenizer, &json));
        let mut m = written(Kind::User, restored.role, restored.text.clone(), counted);
        m.past_summary = false;
        m.policy_cost = inputs.policy.cost(&m);
        out.insert(restored.position.min(out.len()), m);
    }
    for (k, m) in out.iter_mut().enumerate() {
        m.index = k;
    }
    out
}

/// The summary a firing writes, made by the summarizer from the messages it summarized
/// (earlier summaries among them, as the agent's summarizer is sent them), in the
/// policy's shape and role: the messages it inserts, what the summarizer read, and where
/// its size came from when not from its text.
fn summary_for(
    inputs: &Inputs,
    context: &[ChatMessage],
    plan: &PolicyPlan,
    at: usize,
) -> crate::Result<Option<WrittenSummary>> {
    let Some(inserted) = plan.inserted.first() else {
        return Ok(None);
    };
    let summarized: Vec<&ChatMessage> = plan
        .messages
        .iter()
        .filter(|r| r.section == Section::Summarized)
        .map(|r| &context[r.index])
        .collect();
    let with_text = inputs.summarizer.needs_text();
    // An earlier summary has no record in the log: its JSON is made for the summarizer.
    let written_json: Vec<String> = summarized
        .iter()
        .map(|m| match m.origin {
            Some(_) => String::new(),
            None => serde_json::json!({"role": m.role, "content": m.text}).to_string(),
        })
        .collect();
    let is_log = inputs.whole.format().container.is_log();
    let older: Vec<_> = summarized
        .iter()
        .zip(&written_json)
        .map(|(m, json)| match m.origin {
            Some(origin) => older_message(inputs.whole, origin, with_text),
            None => crate::summarize::Older {
                index: m.written_at.unwrap_or(at),
                role: &m.role,
                raw: json,
                text: if with_text { m.text.clone() } else { String::new() },
                // A user-role summary in a plain list reads as a human turn (§7F's rule).
                human_turn: !is_log && m.role == "user",
                calls: Vec::new(),
            },
        })
        .collect();
    let read: u64 = summarized.iter().map(|m| m.counted).sum();
    let summary = if older.is_empty() {
        String::new()
    } else {
        inputs.summarizer.summarize(&older, inputs.cancel)?
    };
    let tokenizer = inputs.counts.tokenizer;
    if inputs.policy.engine() == super::Engine::TailCompactor {
        // ctxlens' own compactor writes its summary (and reminder) as `compact` and the
        // §7F replay do, counted the same way.
        let flush = inputs.settings.flag("flush_to_memory", false)?;
        let messages =
            crate::compact::visible_messages(inputs.whole, flush, crate::compact::SummaryRole::System, &summary)
                .iter()
                .map(|json| {
                    let role = inputs
                        .whole
                        .message_of(json)
                        .map_or_else(|| "system".to_owned(), |m| m.role.to_string());
                    let counted = count_json(inputs.whole, tokenizer, json);
                    let mut m = written(
                        kind_of_role(&role),
                        &role,
                        inputs.whole.readable_text_of_json(json),
                        counted,
                    );
                    m.written_at = Some(at);
                    m
                })
                .collect();
        return Ok(Some((messages, read, None)));
    }
    let text = inserted.text.replace("{summary}", &summary);
    let mut counted = count_json(
        inputs.whole,
        tokenizer,
        &serde_json::json!({"role": inserted.role, "content": text}).to_string(),
    );
    // The agent's own policy on its own log: its summary weighs what the agent's earlier
    // summaries weighed (the replay's text stands in for words nobody can know).
    let mut note = None;
    if inputs.policy.agent_logs().as_ref() == Some(&inputs.whole.format().container) {
        let known = inputs
            .summaries
            .get_or_init(|| agent_summary::KnownSummaries::of(inputs.whole))
            .before(inputs.whole, inputs.known_at(at));
        if let Some(known) = known {
            counted = known.counted;
            note = Some(known.source);
        } else if let Some((prior, source)) = inputs.policy.summary_prior() {
            counted = prior;
            note = Some(format!(
                "summary size {prior}: {source} (none known before this moment)"
            ));
        }
    }
    let mut m = written(kind_of_role(inserted.role), inserted.role, text, counted);
    m.written_at = Some(at);
    Ok(Some((vec![m], read, note)))
}

/// What a firing's summary writes: the messages it inserts, the tokens the summarizer read,
/// and where its size came from when not from its text.
type WrittenSummary = (Vec<ChatMessage>, u64, Option<String>);

/// The kind of a message the replay writes with `role`.
fn kind_of_role(role: &str) -> Kind {
    match role {
        "assistant" => Kind::Assistant,
        "system" => Kind::System,
        _ => Kind::User,
    }
}

/// What one firing leaves: the context it sends, the firing's record, its cost in the
/// policy's counter, and the session messages it removed.
struct Fired {
    /// Messages sent.
    messages: usize,
    firing: Firing,
    gone: Vec<usize>,
    /// The history was rewritten (the context and its running figures changed).
    rewritten: bool,
    /// What the firing's figures rest on beyond the policy's plan (the agent's summary
    /// size), for the replay's warnings.
    note: Option<String>,
}

/// Applies `plan` at the call answered by message `at` (the context's size before:
/// counted, billed). A policy that rewrites the history changes `context` (in place when
/// the plan only clears); for a view policy the view is built beside it.
fn fire(
    inputs: &Inputs,
    context: &mut Vec<ChatMessage>,
    running: &mut Running,
    plan: &PolicyPlan,
    at: usize,
    (counted, billed_before): (u64, Option<u64>),
) -> crate::Result<Fired> {
    let policy = inputs.policy;
    let summary = summary_for(inputs, context, plan, at)?;
    let summary_read = summary.as_ref().map_or(0, |(_, r, _)| *r);
    let summarized = summary.is_some();
    let summary_text = summary
        .as_ref()
        .map(|(s, _, _)| s.iter().map(|m| m.text.to_lowercase()).collect::<Vec<_>>().join("\n"))
        .unwrap_or_default();
    let note = summary.as_ref().and_then(|(_, _, n)| n.clone());
    let gone: Vec<usize> = plan
        .messages
        .iter()
        .filter(|r| matches!(r.section, Section::Summarized | Section::Dropped | Section::Cleared))
        .filter_map(|r| context[r.index].origin)
        .collect();
    let rewritten = policy.rewrites_history();
    let view = if rewritten && only_clears(plan) {
        clear_in_place(inputs, context, running, plan);
        None
    } else {
        Some(rebuild(inputs, context, plan, summary.map(|(s, _, _)| s), rewritten))
    };
    let (messages, view_counted, billed_after, loops) = match view {
        // A view policy: the view is what this call sends; the context stays.
        Some(view) if !rewritten => {
            let view_counted: u64 = view.iter().map(|m| m.counted).sum();
            let billed_after = billed(inputs, &view, view_counted, at);
            (view.len(), view_counted, billed_after, false)
        }
        view => {
            if let Some(view) = view {
                *context = view;
                for m in context.iter_mut().filter(|m| m.origin.is_none()) {
                    m.policy_cost = policy.cost(m);
                }
                *running = Running::of(context, |m| m.policy_cost);
            }
            let view_counted = running.total_counted();
            // A summary replaces the history (what the agent attached unlogged goes with
            // it); a plan that only drops or clears keeps the rest as it was billed.
            let billed_after = if summarized {
                billed_after_summary(inputs, context, view_counted, at)
            } else {
                billed(inputs, context, view_counted, at)
            };
            let loops = policy.may_act(&settings_for(inputs, context, at, None), running)?;
            (context.len(), view_counted, billed_after, loops)
        }
    };
    let mut firing = firing_record(
        plan,
        at,
        (counted, billed_before),
        (view_counted, billed_after),
        gone.len(),
        summary_read,
        loops,
        summary_text,
    );
    if summarized {
        firing.billed_after_range = billed_range(inputs, context, plan, view_counted, at);
    }
    // A policy that counts billed tokens has one "after" in that unit: the replay's
    // (what the context it built bills), not the plan's own guess of it.
    if policy.counts_billed() && billed_after.is_some() {
        firing.tokens_after = billed_after;
    }
    Ok(Fired {
        messages,
        firing,
        gone,
        rewritten,
        note,
    })
}

/// The record of a firing.
#[allow(clippy::too_many_arguments)] // the figures of one firing, each named at the call
fn firing_record(
    plan: &PolicyPlan,
    at: usize,
    (counted_before, billed_before): (u64, Option<u64>),
    (counted_after, billed_after): (u64, Option<u64>),
    removed: usize,
    summary_input_tokens: u64,
    loops: bool,
    summary: String,
) -> Firing {
    Firing {
        at,
        tokens_before: plan.tokens_before,
        tokens_after: plan.tokens_after,
        counted_before,
        counted_after,
        billed_before,
        billed_after,
        billed_after_range: None,
        removed,
        summary_input_tokens,
        loops,
        summary,
    }
}

/// The plan only clears messages (no summary, nothing dropped or sent twice): it can be
/// applied to the context in place, without copying it.
fn only_clears(plan: &PolicyPlan) -> bool {
    plan.inserted.is_empty()
        && plan.messages.iter().all(|r| {
            matches!(r.section, Section::Head | Section::Tail | Section::Cleared) && !r.duplicated && !r.truncated
        })
}

/// Applies what a policy does in place at the call answered by message `at` (the
/// context's size before: counted, billed); `None` when it changes nothing.
fn act_in_place(
    inputs: &Inputs,
    context: &mut [ChatMessage],
    running: &mut Running,
    action: InPlace,
    at: usize,
    (counted_before, billed_before): (u64, Option<u64>),
) -> crate::Result<Option<Fired>> {
    let cost_before = running.total_cost();
    let (tokens_before, tokens_after, gone) = match action {
        InPlace::Edits { edits, .. } if edits.is_empty() => return Ok(None),
        InPlace::Clears { positions, .. } if positions.is_empty() => return Ok(None),
        InPlace::Edits { edits, .. } => {
            let mut changed = Vec::with_capacity(edits.len());
            for edit in edits {
                let m = &mut context[edit.position];
                m.text = edit.text;
                m.counted = edit.counted;
                m.edited = true;
                m.content_parts = None;
                m.policy_cost = inputs.policy.cost(m);
                changed.push((edit.position, m.policy_cost, m.counted));
            }
            running.edited(&changed);
            (cost_before, running.total_cost(), Vec::new())
        }
        InPlace::Clears {
            positions,
            placeholder,
            tokens_before,
            tokens_after,
        } => {
            let gone = positions.iter().filter_map(|&p| context[p].origin).collect();
            clear_positions(inputs, context, running, &positions, placeholder);
            (tokens_before, tokens_after, gone)
        }
    };
    let counted_after = running.total_counted();
    let billed_after = billed(inputs, context, counted_after, at);
    let loops = inputs
        .policy
        .may_act(&settings_for(inputs, context, at, None), running)?;
    Ok(Some(Fired {
        messages: context.len(),
        firing: Firing {
            at,
            tokens_before: Some(tokens_before),
            tokens_after: Some(tokens_after),
            counted_before,
            counted_after,
            billed_before,
            billed_after,
            billed_after_range: None,
            removed: gone.len(),
            summary_input_tokens: 0,
            loops,
            summary: String::new(),
        },
        gone,
        rewritten: true,
        note: None,
    }))
}

/// Clears, in place, what `plan` clears, and moves the running figures with it.
fn clear_in_place(inputs: &Inputs, context: &mut [ChatMessage], running: &mut Running, plan: &PolicyPlan) {
    let positions: Vec<usize> = plan
        .messages
        .iter()
        .filter(|r| r.section == Section::Cleared)
        .map(|r| r.index)
        .collect();
    clear_positions(
        inputs,
        context,
        running,
        &positions,
        plan.placeholder.unwrap_or("[cleared]"),
    );
}

/// Clears the messages at `positions` (ascending) to `text`, and moves the running
/// figures with them.
fn clear_positions(
    inputs: &Inputs,
    context: &mut [ChatMessage],
    running: &mut Running,
    positions: &[usize],
    text: &str,
) {
    let counted = placeholder_counted(inputs, text);
    let mut changed = Vec::with_capacity(positions.len());
    for &position in positions {
        let m = &mut context[position];
        text.clone_into(&mut m.text);
        m.counted = counted;
        m.cleared = true;
        m.content_parts = None;
        m.images = 0;
        m.policy_cost = inputs.policy.cost(m);
        changed.push((position, m.policy_cost, m.counted));
    }
    running.cleared(&changed);
}

/// The first message removed, and every human turn judged by meaning: kept when the
/// policy never removed it, else restated by one of its summaries, said again by the user,
/// or lost.
fn record_losses(inputs: &Inputs, removed: &BTreeSet<usize>, summaries: &[String], out: &mut Replayed) {
    out.first_lost = removed.iter().next().copied();
    let summaries: Vec<&str> = summaries.iter().map(String::as_str).collect();
    out.turns = inputs.turns.judge(&summaries, |origin| removed.contains(&origin));
    out.instructions_lost = out
        .turns
        .iter()
        .filter(|t| t.kind == TurnKind::Instruction && t.status == TurnStatus::Lost)
        .map(|t| (t.message, first_line(&t.text)))
        .collect();
}

/// Replays the policy over the session.
// One loop over the session with the replay's running state in its locals: cut up, each
// piece would take most of them by `&mut`.
#[allow(clippy::too_many_lines)]
pub fn replay(inputs: &Inputs) -> crate::Result<Replayed> {
    let policy = inputs.policy;
    let mut context: Vec<ChatMessage> = Vec::new();
    let mut running = Running::new();
    let mut out = Replayed::empty(policy.name(), inputs.turns.len());
    let mut removed: BTreeSet<usize> = BTreeSet::new();
    // The context is still the one the agent really sent (no firing of this replay, no
    // real compaction crossed): the provider's recorded figure is its billed size.
    let mut real_lineage = true;
    let mut summaries: Vec<String> = Vec::new();
    // A view policy: whether the last call's view left anything out.
    let mut last_view_changed = false;
    let placeholder = |text: &str| placeholder_counted(inputs, text);
    // A policy acting in place has seen the context up to here.
    let mut acted_upto = 0;
    // The last call of the real context with recorded usage: (recorded, the policy's
    // cost of its context).
    let mut known_before: Option<(u64, u64)> = None;
    // This replay's firings when the context was last the agent's own.
    let mut lineage_firings = 0;
    // The response being added: the figure the agent reads from its recorded usage, the
    // prompt it answered, and the policy's count before it.
    let mut answered: Option<(u64, u64, u64)> = None;
    // A log whose responses may record only their stream's first usage (Claude Code's).
    let partial_usage = inputs.whole.format().container == crate::transcript::Container::ClaudeCode;
    for (k, m) in inputs.chat.iter().enumerate() {
        if inputs.cancel.is_cancelled() {
            return Err(crate::Error::Cancelled);
        }
        // A real compaction's summary: this replay's own firings stand for it, unless it
        // is already history (`Known::follow_before`): then the session goes on from
        // the context the agent really had, the summary first.
        if m.past_summary {
            real_lineage = m.origin.is_some_and(|o| o < inputs.known.follow_before);
            if real_lineage {
                (context, running) = the_agents_context_after(inputs, m);
                (acted_upto, known_before, lineage_firings) = (0, None, out.firings.len());
            }
            continue;
        }
        let at = m.origin.unwrap_or_default();
        if m.kind == Kind::Assistant && !m.continues_response && !context.is_empty() {
            out.model_calls += 1;
            let usage = response_usage(inputs, k);
            let recorded = usage.map(|r| r.context_tokens()).filter(|&r| r > 0);
            let counted = running.total_counted();
            let real = recorded.filter(|_| real_lineage).map(|r| (r, counted));
            // The agent decides before the call from what it knows then: the provider's
            // figure for the previous call, never this call's own (no look-ahead). It
            // still describes this context after a real compaction this replay did not
            // make (the replay keeps the context the agent compacted), not after a firing.
            let settings = settings_for(
                inputs,
                &context,
                at,
                known_before.filter(|_| out.firings.len() == lineage_firings),
            );
            if let (Some((recorded, _)), Some(usage)) = (real, usage) {
                // Measured as the policy's counter measures (Claude Code: ctxlens' count;
                // Codex: its four bytes a token), so the next decision reads "the last
                // usage + the estimate of what came since" in the agent's arithmetic; the
                // base is taken once this response is in the context (below), so what came
                // since is what followed the response.
                answered = Some((
                    policy.last_response_tokens(&usage),
                    recorded,
                    policy.billed_base(&running),
                ));
            }
            let billed_before = match real {
                Some((recorded, _)) => Some(recorded),
                None => billed(inputs, &context, counted, at),
            };
            let mut sent = (context.len(), counted, billed_before);
            let fast = if policy.rewrites_history() {
                None
            } else {
                policy.fast_view(&settings, &running, &placeholder)?
            };
            if let Some(view) = fast {
                last_view_changed = view.changed;
                if view.changed {
                    let billed_after = billed(inputs, &context, view.counted, at);
                    out.firings
                        .push(view_firing(policy, at, &running, view, (billed_before, billed_after)));
                    sent = (view.messages, view.counted, billed_after);
                }
            } else if !policy.may_act(&settings, &running)? {
                last_view_changed = false;
            } else if let Some(action) = policy.in_place(&context, &running, acted_upto, &settings)? {
                acted_upto = match &action {
                    InPlace::Edits { settled, .. } => *settled,
                    InPlace::Clears { .. } => context.len(),
                };
                let fired = act_in_place(inputs, &mut context, &mut running, action, at, (counted, billed_before))?;
                last_view_changed = fired.is_some();
                if let Some(fired) = fired {
                    sent = out.record_firing(fired, &mut removed, &mut summaries, &mut real_lineage);
                }
            } else {
                let plan = policy.plan_chat(&context, &settings)?;
                last_view_changed = plan.compacted;
                if plan.compacted {
                    if out.counter.is_empty() {
                        out.counter = plan.counter;
                    }
                    note_warnings(&mut out, &plan);
                    let fired = fire(inputs, &mut context, &mut running, &plan, at, (counted, billed_before))?;
                    sent = out.record_firing(fired, &mut removed, &mut summaries, &mut real_lineage);
                }
            }
            out.record_call(Call {
                at,
                messages: sent.0,
                counted: sent.1,
                billed: sent.2,
                recorded,
                over_window: inputs.window.is_some_and(|w| sent.2.unwrap_or(sent.1) > w),
            });
        }
        let mut next = m.clone();
        next.index = context.len();
        next.policy_cost = policy.cost(&next);
        running.push(&context, &next, next.policy_cost);
        context.push(next);
        // The response's usage is read once its last item is in the context.
        let response_ends = !inputs.chat.get(k + 1).is_some_and(|next| next.continues_response);
        if let Some((figure, prompt, base_before)) = answered.take_if(|_| response_ends) {
            // A log that kept only a streamed response's first usage records an output of a
            // token or two: the response is then what the policy counts of it. A recorded
            // output of at least half that count is the response's own (its thinking, which
            // the log holds empty, included) and stands.
            let base = policy.billed_base(&running);
            let counted = base.saturating_sub(base_before);
            let counted_response = prompt.saturating_add(counted);
            let output = figure.saturating_sub(prompt);
            let partial = output < counted / 2 && (output == 0 || partial_usage);
            let figure = if partial { counted_response } else { figure };
            known_before = Some((figure, base));
        }
    }
    out.finish(inputs);
    if !policy.rewrites_history() && last_view_changed {
        removed.extend(left_out_by_the_last_view(inputs, &context, &mut out)?);
    }
    record_losses(inputs, &removed, &summaries, &mut out);
    Ok(out)
}

/// The usage recorded for the model response whose first item is `inputs.chat[k]`: an
/// item list records it after the response's last item.
fn response_usage(inputs: &Inputs, k: usize) -> Option<crate::transcript::Recorded> {
    inputs.chat[k..]
        .iter()
        .enumerate()
        .take_while(|(j, item)| *j == 0 || item.continues_response)
        .find_map(|(_, item)| item.origin.and_then(|at| inputs.whole.messages[at].recorded()))
}

/// The context the agent had right after the real compaction whose summary is `summary`,
/// as a replay following it starts again from it: the messages the compaction kept beside
/// the summary (Codex's replacement history, Claude Code's preserved segment: their text,
/// as the log records it), then the summary.
fn the_agents_context_after(inputs: &Inputs, summary: &ChatMessage) -> (Vec<ChatMessage>, Running) {
    let policy = inputs.policy;
    let kept = inputs
        .whole
        .compactions()
        .iter()
        .find(|c| c.summary_message.is_some() && c.summary_message == summary.origin)
        .map_or(&[][..], |c| c.kept.as_slice());
    let mut context: Vec<ChatMessage> = kept
        .iter()
        .map(|text| {
            let mut m = written(Kind::User, "user", text.clone(), placeholder_counted(inputs, text));
            m.past_summary = false;
            m
        })
        .collect();
    let mut first = summary.clone();
    first.past_summary = false;
    context.push(first);
    let mut running = Running::new();
    for (index, m) in context.iter_mut().enumerate() {
        m.index = index;
        m.policy_cost = policy.cost(m);
    }
    for k in 0..context.len() {
        running.push(&context[..k], &context[k], context[k].policy_cost);
    }
    (context, running)
}

/// What a view policy's last view leaves out of `context` (one plan of the final
/// context says which messages those are), its warnings noted.
fn left_out_by_the_last_view(
    inputs: &Inputs,
    context: &[ChatMessage],
    out: &mut Replayed,
) -> crate::Result<Vec<usize>> {
    let settings = settings_for(inputs, context, context.len(), None);
    let plan = inputs
        .policy
        .plan_chat(context, &settings)
        .map_err(|e| crate::Error::Summary(e.to_string()))?;
    note_warnings(out, &plan);
    Ok(plan
        .messages
        .iter()
        .filter(|r| matches!(r.section, Section::Summarized | Section::Dropped | Section::Cleared))
        .filter_map(|r| context[r.index].origin)
        .collect())
}

/// The policy's warnings, each once.
fn note_warnings(out: &mut Replayed, plan: &PolicyPlan) {
    for w in &plan.warnings {
        if !out.warnings.contains(w) {
            out.warnings.push(w.clone());
        }
    }
}

/// ctxlens' count of a tool message cleared to `text`.
fn placeholder_counted(inputs: &Inputs, text: &str) -> u64 {
    count_json(
        inputs.whole,
        Tokenizer::Estimate,
        &serde_json::json!({"role": "tool", "content": text}).to_string(),
    )
}

/// The record of a call whose view a view policy changed, sized without a plan.
fn view_firing(
    policy: &dyn Policy,
    at: usize,
    running: &Running,
    view: FastView,
    (billed_before, billed_after): (Option<u64>, Option<u64>),
) -> Firing {
    // A policy that counts what the provider bills has its figures in that unit.
    let (tokens_before, tokens_after) = if policy.counts_billed() {
        (billed_before.or(Some(running.total_cost())), billed_after)
    } else {
        (Some(running.total_cost()), None)
    };
    Firing {
        at,
        tokens_before,
        tokens_after,
        counted_before: running.total_counted(),
        counted_after: view.counted,
        billed_before,
        billed_after,
        billed_after_range: None,
        removed: view.removed,
        summary_input_tokens: 0,
        loops: false,
        summary: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule of [`SurvivingPrefixes`], asked directly of the messages before `at`.
    fn surviving_prefix_by_scan(whole: &Transcript, at: usize) -> Option<u64> {
        let before = &whole.messages()[..at.min(whole.messages().len())];
        let reads = || {
            before
                .iter()
                .filter_map(crate::transcript::Message::recorded)
                .filter(|r| r.cache_read_tokens > 0)
        };
        reads()
            .rev()
            .find(|r| r.cache_write_tokens() > r.cache_read_tokens)
            .map(|r| r.cache_read_tokens)
            .or_else(|| reads().map(|r| r.cache_read_tokens).min())
    }

    #[test]
    fn the_prefix_table_answers_as_a_scan_of_the_messages_before_at_every_message() {
        let mut asked = 0;
        for (name, text) in crate::test_data::real_claude_code_logs() {
            let whole = Transcript::parse(name, text.into_bytes(), None).expect("a shipped log");
            let table = SurvivingPrefixes::of(&whole);
            for at in 0..=whole.messages().len() + 1 {
                assert_eq!(table.before(at), surviving_prefix_by_scan(&whole, at), "{name} at {at}");
                asked += 1;
            }
        }
        assert!(asked > 200, "{asked}");
    }

    /// A Claude Code log whose first user message is `first` and whose first response
    /// records a prompt of `prompt` tokens, all written to the cache.
    fn log_opening_with(first: &serde_json::Value, prompt: u64) -> Transcript {
        let mut user = serde_json::json!({"type": "user", "uuid": "u1", "parentUuid": null, "sessionId": "s",
            "timestamp": "2026-01-01T00:00:00.000Z", "message": {"role": "user", "content": first}});
        if first
            .as_str()
            .is_some_and(|t| t.starts_with(crate::compact::CLAUDE_CODE_OPENING))
        {
            // How Claude Code 1.0.x writes a compaction's summary.
            user["isCompactSummary"] = serde_json::Value::Bool(true);
        }
        let assistant = serde_json::json!({"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": "s",
            "timestamp": "2026-01-01T00:00:05.000Z", "requestId": "r1",
            "message": {"id": "m1", "role": "assistant", "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": "Done."}],
                "usage": {"input_tokens": 3, "cache_creation_input_tokens": prompt - 3, "cache_read_input_tokens": 0, "output_tokens": 5}}});
        let text = format!("{user}\n{assistant}\n");
        Transcript::parse("log.jsonl", text.into_bytes(), None).expect("a Claude Code log")
    }

    fn first_call(t: &Transcript) -> usize {
        t.messages()
            .iter()
            .position(|m| m.recorded().is_some_and(|r| r.context_tokens() > 0))
            .expect("a call")
    }

    #[test]
    fn the_sessions_overhead_is_its_first_calls_prompt_beyond_its_messages() {
        let plain = log_opening_with(&serde_json::json!("fix the parser please"), 20_000);
        let counts = Counts::compute(&plain, crate::tokens::Tokenizer::Estimate);
        let first = plain
            .messages()
            .iter()
            .position(|m| m.recorded().is_some())
            .expect("a call");
        assert_eq!(
            SessionOverhead::of(&plain, &counts).fresh,
            Some(20_000 - counts.range(0, first)),
            "what the first call carried beyond its messages"
        );
        // An API error before it, written as an answer with zero usage (`<synthetic>`),
        // measured nothing: the first call is still the one that did.
        let error = serde_json::json!({"type": "assistant", "uuid": "e1", "parentUuid": "u0", "sessionId": "s",
            "timestamp": "2026-01-01T00:00:01.000Z",
            "message": {"id": "e", "role": "assistant", "model": "<synthetic>", "content": [{"type": "text", "text": "API Error"}],
                "usage": {"input_tokens": 0, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 0}}});
        let opening = serde_json::json!({"type": "user", "uuid": "u0", "parentUuid": null, "sessionId": "s",
            "timestamp": "2026-01-01T00:00:00.000Z", "message": {"role": "user", "content": "1"}});
        let plain_text = plain
            .text()
            .to_string()
            .replacen("\"parentUuid\":null", "\"parentUuid\":\"e1\"", 1);
        let after_an_error = Transcript::parse(
            "log.jsonl",
            format!("{opening}\n{error}\n{plain_text}").into_bytes(),
            None,
        )
        .expect("a Claude Code log");
        let counts_after = Counts::compute(&after_an_error, crate::tokens::Tokenizer::Estimate);
        assert_eq!(
            SessionOverhead::of(&after_an_error, &counts_after).fresh,
            Some(20_000 - counts_after.range(0, first_call(&after_an_error))),
            "the first call that measured a prompt"
        );
        // A file attached with `@` is in that call once: the first call does not show
        // what every request carries.
        let attached = log_opening_with(&serde_json::json!("@src/parser.rs fix this"), 20_000);
        let counts = Counts::compute(&attached, crate::tokens::Tokenizer::Estimate);
        assert_eq!(SessionOverhead::of(&attached, &counts).fresh, None);
        // Nor does a session that opens with a compaction's summary.
        let continued = log_opening_with(
            &serde_json::json!(format!("{}Summary: the parser.", crate::compact::CLAUDE_CODE_OPENING)),
            20_000,
        );
        let counts = Counts::compute(&continued, crate::tokens::Tokenizer::Estimate);
        assert!(
            continued.messages()[0].past_summary() || !continued.compactions().is_empty(),
            "read as a summary"
        );
        let overhead = SessionOverhead::of(&continued, &counts);
        assert_eq!(overhead.fresh, None);
        // What that first call carried beyond its messages is kept apart: every request's
        // share and what the earlier compaction restored, together.
        assert_eq!(overhead.carried, Some(20_000 - counts.range(0, first_call(&continued))));
        assert!(mentions_a_file("see @README.md") && !mentions_a_file("email me @ noon") && !mentions_a_file("@"));
        assert!(
            !mentions_a_file("@vivotek/app-vsaas-portal@3.4.0 lint failed"),
            "a package and its version"
        );
        // `@path` attaches a file in Claude Code only: in a Codex rollout (an AGENTS.md
        // naming `@docs/rules.md`) it is text, and the first call shows the overhead.
        let records = [
            serde_json::json!({"type": "session_meta", "payload": {"id": "s", "cwd": "/p", "cli_version": "0.118.0"}}),
            serde_json::json!({"type": "response_item", "payload": {"type": "message", "role": "user",
                "content": [{"type": "input_text", "text": "Follow @docs/rules.md and fix the parser."}]}}),
            serde_json::json!({"type": "response_item", "payload": {"type": "message", "role": "assistant",
                "content": [{"type": "output_text", "text": "Done."}]}}),
            serde_json::json!({"type": "event_msg", "payload": {"type": "token_count", "info": {"last_token_usage":
                {"input_tokens": 30_000, "cached_input_tokens": 0, "output_tokens": 5, "total_tokens": 30_005},
                "total_token_usage": {"input_tokens": 30_000, "cached_input_tokens": 0, "output_tokens": 5, "total_tokens": 30_005},
                "model_context_window": 258_400}}}),
        ];
        let mut text = String::new();
        for record in &records {
            let mut record = record.clone();
            record["timestamp"] = serde_json::json!("2026-05-11T10:00:00.000Z");
            text.push_str(&record.to_string());
            text.push('\n');
        }
        let codex = Transcript::parse("rollout.jsonl", text.into_bytes(), None).expect("a rollout");
        let counts = Counts::compute(&codex, crate::tokens::Tokenizer::Estimate);
        let first = first_call(&codex);
        assert_eq!(
            SessionOverhead::of(&codex, &counts).fresh,
            Some(30_000 - counts.range(0, first)),
            "a Codex rollout's first call shows what every request carries"
        );
    }

    #[test]
    fn an_image_is_counted_as_the_provider_bills_it_for_the_fit() {
        // A 1×1 PNG's header followed by 30,000 bytes of zeros: base64 makes most of the
        // message, and the image's size is in its header.
        let png = format!(
            "{}{}",
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
            "A".repeat(40_000)
        );
        let first = serde_json::json!([
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png}},
            {"type": "text", "text": "what is in this picture?"}
        ]);
        let log = log_opening_with(&first, 20_000);
        let counts = Counts::compute(&log, crate::tokens::Tokenizer::Estimate);
        let text = text_counts(&log, &counts).expect("a message mostly binary");
        assert!(
            text.message(0) * 4 < counts.message(0),
            "the image by its pixels ({}), not its base64 ({})",
            text.message(0),
            counts.message(0)
        );
        let plain = log_opening_with(&serde_json::json!("no picture"), 20_000);
        let counts = Counts::compute(&plain, crate::tokens::Tokenizer::Estimate);
        assert!(text_counts(&plain, &counts).is_none());
    }
}
