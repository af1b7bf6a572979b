//! How far to trust a prediction on your own sessions: every automatic compaction a log
//! records, predicted by replaying the agent's own policy with what was known before it
//! (the policy's threshold from earlier compactions and the release's rule, its billed
//! sizes from calls already made; docs/policies.md, "No look-ahead"), against what
//! happened: where it fired, and the size of the next request.
//!
//! A real compaction happened right before the first model call after its summary;
//! a replayed firing is placed before a model call too, so the error in messages is the
//! distance between those two calls. The size error compares the replay's predicted next
//! request (billed) with the usage the log recorded for that call.

use crate::cancel::CancelToken;
use crate::policy::replay::{Known, Replayed, SessionReplays};
use crate::policy::Policy;
use crate::summarize::Summarizer;
use crate::tokens::Counts;
use crate::transcript::Transcript;

/// One real compaction, predicted.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Backtested {
    /// 1-based line of its record in the log.
    pub line: usize,
    /// The first model call after it (the message answering it).
    pub real_at: usize,
    /// The call the replay fired before, when it fired near it.
    pub predicted_at: Option<usize>,
    /// `predicted_at − real_at`, in messages (negative: it fired early).
    pub error_messages: Option<i64>,
    /// The usage the log recorded for that first call after it.
    pub real_next: Option<u64>,
    /// The replay's billed size of the request after its firing.
    pub predicted_next: Option<u64>,
    /// The least and the most the next request could bill, where what the agent restores
    /// after compacting is known only in part (files it re-reads from disk).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub predicted_next_range: Option<[u64; 2]>,
    /// `(predicted − real) / real`, in percent, one decimal.
    pub size_error_percent: Option<f64>,
    /// The agent's own count when it compacted, as its log records it (Claude Code's
    /// `preTokens`, opencode's and Gemini CLI's last prompt).
    pub real_counter: Option<u64>,
    /// The replayed policy's count at its firing: the agent's arithmetic checked to the
    /// token where the firing is the real one.
    pub predicted_counter: Option<u64>,
}

impl Backtested {
    /// Where the replay fired and how far off its next request was, in words
    /// (`fired before #83 (+0 messages); next request 25,746 predicted, 36,541 recorded
    /// (-29.5%)`): the CLI's line and the TUI's timeline say the same.
    pub fn describe(&self) -> String {
        let fired = match (self.predicted_at, self.error_messages) {
            (Some(at), Some(e)) => format!("fired before #{at} ({e:+} messages)"),
            _ => "did not fire".to_owned(),
        };
        let size = match (self.predicted_next, self.real_next, self.size_error_percent) {
            (Some(p), Some(r), Some(e)) => format!(
                "next request {} predicted{}, {} recorded ({e:+.1}%{})",
                crate::text::thousands(p),
                self.predicted_next_range
                    .map_or_else(String::new, |[low, high]| format!(
                        " ({}–{} by what the log does not show)",
                        crate::text::thousands(low),
                        crate::text::thousands(high)
                    )),
                crate::text::thousands(r),
                match self.within_range() {
                    Some(true) => ", within the range",
                    Some(false) => ", outside the range",
                    None => "",
                }
            ),
            _ => "next request not compared".to_owned(),
        };
        let counter = match (self.predicted_counter, self.real_counter) {
            (Some(p), Some(r)) => format!(
                "; counter {} predicted, {} recorded",
                crate::text::thousands(p),
                crate::text::thousands(r)
            ),
            _ => String::new(),
        };
        format!("{fired}; {size}{counter}")
    }

    /// Whether the recorded next request fell within the predicted range, where there is
    /// one.
    pub fn within_range(&self) -> Option<bool> {
        let [low, high] = self.predicted_next_range?;
        self.real_next.map(|r| (low..=high).contains(&r))
    }
}

/// A log's backtest: the policy replayed, where its threshold came from, and each
/// automatic compaction predicted.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Backtest {
    /// The policy replayed (the agent's own).
    pub policy: &'static str,
    /// Where its thresholds came from, as the replay said.
    pub sources: Vec<String>,
    /// One row per automatic compaction, in order.
    pub compactions: Vec<Backtested>,
    /// Compactions not predicted: asked for by the user (`/compact`), or whose log does
    /// not say what set them off (a Codex rollout that records no turns).
    pub not_automatic: usize,
    /// The lines of automatic compactions of a conversation logged in another file
    /// ([`crate::transcript::PastCompaction::elsewhere`]): this file does not hold what
    /// they compacted, so nothing here predicts them.
    pub compacted_elsewhere: Vec<usize>,
}

impl crate::document::Document for Backtest {
    const NAME: &'static str = "backtest";
}

/// The agent's own policy for a session log: the policy whose agent writes logs of this
/// format ([`Policy::agent_logs`]); `None` for other formats.
pub fn own_policy(whole: &Transcript) -> Option<&'static dyn Policy> {
    let container = &whole.format().container;
    crate::policy::all()
        .into_iter()
        .find(|p| p.agent_logs().as_ref() == Some(container))
}

/// Backtests `whole` (every epoch, with its counts): `None` when the log has no policy
/// of its own to replay ([`own_policy`]).
pub fn backtest(
    whole: &Transcript,
    counts: &Counts,
    summarizer: &dyn Summarizer,
    cancel: &CancelToken,
) -> crate::Result<Option<Backtest>> {
    let Some(policy) = own_policy(whole) else {
        return Ok(None);
    };
    // The agent's defaults for the model's window, as `compare` runs it.
    let window = crate::policy::compare::window_for(None, whole);
    let settings = crate::policy::compare::settings_for(policy, window, &[])?;
    let session = SessionReplays::of(whole, counts);
    let (elsewhere, auto): (Vec<_>, Vec<_>) = whole
        .compactions()
        .iter()
        .filter(|c| c.trigger.as_deref() == Some("auto"))
        .partition(|c| c.elsewhere);
    let not_automatic = whole.compactions().len() - auto.len() - elsewhere.len();
    // Where the real calls are: those of a replay that knows everything (its firings are
    // not used).
    let calls = session
        .replay(policy, &settings, summarizer, Some(window), cancel)?
        .calls;
    let first_call_after = |at: usize| calls.iter().map(|c| c.at).find(|&call| call > at);
    let real: Vec<(usize, usize, usize, Option<u64>)> = auto
        .iter()
        .filter_map(|c| Some((c.line, c.at, first_call_after(c.at)?, c.pre_tokens)))
        .collect();
    // Each compaction predicted by a replay that knows nothing the log records from the
    // call after it on (no look-ahead: a replay that fires late must not have learned
    // the threshold, the summary's size or the fit from the compaction it predicts).
    let mut sources: Vec<String> = Vec::new();
    let mut compactions = Vec::with_capacity(real.len());
    for (k, &(line, compacted_at, real_at, real_counter)) in real.iter().enumerate() {
        // The compactions before this one are history: the replay goes on from where
        // each really left the session (every compaction, automatic or not) — where that
        // is known: the summary alone, or a Codex rollout's replacement history, which
        // records the agent's whole new history item by item. From there the recorded
        // usage measures the context again, as it measured the agent's. A compaction that
        // kept messages known only in part (Claude Code 2.1's preserved segment, Gemini
        // CLI's recent turns) is not followed.
        let history_recorded = whole.format().container == crate::transcript::Container::Codex;
        let earlier_are_known = whole
            .compactions()
            .iter()
            .filter(|c| c.at < compacted_at)
            .all(|c| c.summary_message.is_some() && (c.kept.is_empty() || history_recorded));
        let follow_before = if earlier_are_known { compacted_at } else { 0 };
        let known = Known {
            until: real_at,
            follow_before,
        };
        let replayed = session.replay_known_until(policy, &settings, summarizer, Some(window), known, cancel)?;
        for warning in &replayed.warnings {
            if (warning.starts_with("threshold ") || warning.starts_with("summary size ")) && !sources.contains(warning)
            {
                sources.push(warning.clone());
            }
        }
        // The firing nearest this compaction, between the ones before and after it.
        let low = k.checked_sub(1).map_or(0, |p| real[p].2 + 1);
        let high = real.get(k + 1).map_or(usize::MAX, |n| n.2);
        let mut row = predicted(&replayed, line, real_at, low..high);
        row.real_counter = real_counter;
        compactions.push(row);
    }
    Ok(Some(Backtest {
        policy: policy.name(),
        sources,
        compactions,
        not_automatic,
        compacted_elsewhere: elsewhere.iter().map(|c| c.line).collect(),
    }))
}

/// The row of the real compaction at `line`, first call after it `real_at`, from the
/// replay's firing nearest it within `window`.
fn predicted(replayed: &Replayed, line: usize, real_at: usize, window: std::ops::Range<usize>) -> Backtested {
    let firing = replayed
        .firings
        .iter()
        .filter(|f| window.contains(&f.at))
        .min_by_key(|f| f.at.abs_diff(real_at));
    let real_next = replayed.calls.iter().find(|c| c.at == real_at).and_then(|c| c.recorded);
    let predicted_next = firing.and_then(|f| f.billed_after);
    let size_error_percent = match (predicted_next, real_next) {
        (Some(p), Some(r)) if r > 0 => Some(((p as f64 - r as f64) / r as f64 * 1000.0).round() / 10.0),
        _ => None,
    };
    Backtested {
        line,
        real_at,
        predicted_at: firing.map(|f| f.at),
        error_messages: firing.map(|f| f.at as i64 - real_at as i64),
        real_next,
        predicted_next,
        predicted_next_range: firing.and_then(|f| f.billed_after_range),
        size_error_percent,
        real_counter: None,
        predicted_counter: firing.and_then(|f| f.tokens_before),
    }
}

#[cfg(test)]
#[path = "backtest_codex_tests.rs"]
mod codex_tests;
