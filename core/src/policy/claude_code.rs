//! `claude-code`: Claude Code's auto-compaction (closed source: known from its logs and
//! documentation). It counts the whole request as the provider bills it — system prompt
//! and tool definitions included, which no log holds — so ctxlens counts
//! `overhead + ratio × counted`, fitted to the log's recorded usage (or the overhead
//! assumed and said). It fires at `threshold` and keeps nothing: the next request is the
//! system prompt, the tools and one user message with the summary.
//!
//! The threshold: `--set threshold=N`; else what this log's own `auto` compaction shows
//! (its `preTokens`); else the documented default, the effective window (window − up to
//! 20,000 reserved for output) − 13,000, lowered (never raised) by
//! `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` (`autocompact_pct`, a percentage of the effective
//! window, decimals allowed).

use super::chat::ChatMessage;
use super::running::Running;
use super::{Inserted, Policy, PolicyPlan, PolicySettings, Section, SettingError};
use crate::transcript::Transcript;

/// The window when neither the user nor the model says (Claude's standard window).
pub const DEFAULT_WINDOW: u64 = 200_000;
/// What Claude Code reserves for the reply at most.
pub const OUTPUT_RESERVE: u64 = 20_000;
/// The margin below the effective window where it compacts (reverse-engineered).
pub const AUTOCOMPACT_MARGIN: u64 = 13_000;
/// System prompt and tools when no recorded usage tells (Claude Code's own are 15–35k).
pub const ASSUMED_OVERHEAD: u64 = 20_000;

/// How the real summary starts (an `isCompactSummary` user message).
const SUMMARY_START: &str = "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n{summary}";

/// The window minus the reply's reserve.
pub fn effective_window(window: u64, max_output: u64) -> u64 {
    window.saturating_sub(max_output.min(OUTPUT_RESERVE))
}

/// Where Claude Code compacts by default, and with `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`.
pub fn default_threshold(window: u64, max_output: u64, pct: Option<f64>) -> u64 {
    let effective = effective_window(window, max_output);
    let default = effective.saturating_sub(AUTOCOMPACT_MARGIN);
    match pct {
        Some(p) => default.min((effective as f64 * p / 100.0).floor() as u64),
        None => default,
    }
}

/// How a policy that counts what the provider bills turns ctxlens' count into the
/// bill: `overhead + ratio × counted` (`--set overhead=N`, `--set ratio=R`; a replay sets
/// them from the recorded usage), the overhead assumed when nothing says.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Billing {
    pub(super) overhead: u64,
    pub(super) ratio: f64,
    pub(super) assumed: bool,
}

impl Billing {
    /// From the `overhead` and `ratio` settings.
    pub(super) fn of(settings: &PolicySettings) -> Result<Billing, SettingError> {
        let ratio = match settings.text("ratio") {
            Some(t) => t
                .parse::<f64>()
                .ok()
                .filter(|r| *r > 0.0 && r.is_finite())
                .ok_or_else(|| SettingError(format!("--set ratio={t}: expected a positive number")))?,
            None => 1.0,
        };
        let overhead = settings.number("overhead")?;
        Ok(Billing {
            overhead: overhead.unwrap_or(ASSUMED_OVERHEAD),
            ratio,
            assumed: overhead.is_none(),
        })
    }

    /// The bill for a context ctxlens counts as `counted`.
    pub(super) fn billed(self, counted: u64) -> u64 {
        (self.overhead as f64 + self.ratio * counted as f64).round() as u64
    }

    /// The plan's note when the overhead is assumed.
    pub(super) fn warn(self, plan: &mut PolicyPlan) {
        if self.assumed {
            plan.warnings.push(format!(
                "the system prompt and tools are assumed to be {} tokens (no recorded usage; --set overhead=N)",
                self.overhead
            ));
        }
    }
}

/// `claude-code`.
pub struct ClaudeCode;

/// The settings as numbers.
struct Resolved {
    threshold: u64,
    billing: Billing,
}

impl ClaudeCode {
    fn resolve(settings: &PolicySettings) -> Result<Resolved, SettingError> {
        let window = settings.number_or("context_window", DEFAULT_WINDOW)?;
        let max_output = settings.number_or("max_output", OUTPUT_RESERVE)?;
        let pct = match settings.text("autocompact_pct") {
            Some(t) => Some(
                t.parse::<f64>()
                    .ok()
                    .filter(|p| *p > 0.0 && *p <= 100.0)
                    .ok_or_else(|| {
                        SettingError(format!(
                            "--set autocompact_pct={t}: expected a percentage above 0, at most 100"
                        ))
                    })?,
            ),
            None => None,
        };
        let threshold = match settings.number("threshold")? {
            Some(t) => t,
            None => default_threshold(window, max_output, pct),
        };
        Ok(Resolved {
            threshold,
            billing: Billing::of(settings)?,
        })
    }
}

impl Policy for ClaudeCode {
    fn name(&self) -> &'static str {
        "claude-code"
    }

    fn defaults(&self, window: u64) -> Vec<(&'static str, String)> {
        vec![("context_window", window.to_string())]
    }

    fn billed_trigger(&self, settings: &PolicySettings) -> Result<Option<(u64, u64)>, SettingError> {
        let window = settings.number_or("context_window", DEFAULT_WINDOW)?;
        Ok(Some((Self::resolve(settings)?.threshold, window)))
    }

    fn settings_from_log(&self, whole: &Transcript) -> Vec<(&'static str, String)> {
        logged_threshold(whole)
            .map(|pre| ("threshold", pre.to_string()))
            .into_iter()
            .collect()
    }

    fn keys(&self) -> &'static [&'static str] {
        &[
            "threshold",
            "context_window",
            "max_output",
            "autocompact_pct",
            "overhead",
            "ratio",
        ]
    }

    fn counts_billed(&self) -> bool {
        true
    }

    fn cost(&self, message: &ChatMessage) -> u64 {
        message.counted
    }

    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, SettingError> {
        let cost = running.total_cost();
        let r = Self::resolve(settings)?;
        Ok(r.billing.billed(cost) >= r.threshold)
    }

    fn plan(&self, transcript: &Transcript, settings: &PolicySettings) -> Result<PolicyPlan, SettingError> {
        let counts = crate::tokens::Counts::compute(transcript, crate::tokens::Tokenizer::Estimate);
        let mut settings = settings.clone();
        let mut notes = Vec::new();
        if settings.text("overhead").is_none() {
            if let Some(fit) = crate::calibrate::calibrate(transcript, &counts) {
                settings = settings.with("overhead", fit.overhead).with("ratio", fit.ratio);
                notes.push(format!(
                    "billed ≈ {} + {:.3} × counted, fitted to this log's recorded usage",
                    fit.overhead, fit.ratio
                ));
            }
        }
        if settings.text("threshold").is_none() {
            if let Some(pre) = logged_threshold(transcript) {
                settings = settings.with("threshold", pre);
                notes.push(format!(
                    "threshold {pre} from this log's own auto compaction (its preTokens)"
                ));
            }
        }
        let mut plan = self.plan_chat(&super::chat_view_counted(transcript, &counts), &settings)?;
        plan.warnings.splice(0..0, notes);
        Ok(plan)
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, SettingError> {
        let r = Self::resolve(settings)?;
        let counted: u64 = chat.iter().map(|m| m.counted).sum();
        let billed = r.billing.billed(counted);
        let mut plan = PolicyPlan::unchanged(self.name(), "billed (overhead + ratio × estimate)", chat.len());
        plan.tokens_before = Some(billed);
        plan.tokens_after = Some(billed);
        r.billing.warn(&mut plan);
        if billed < r.threshold || chat.is_empty() {
            return Ok(plan);
        }
        for row in &mut plan.messages {
            row.section = Section::Summarized;
        }
        plan.compacted = true;
        plan.tokens_after = Some(r.billing.overhead);
        plan.inserted.push(Inserted {
            position: 0,
            role: "user",
            kind: "summary",
            text: SUMMARY_START.to_owned(),
        });
        Ok(plan)
    }
}

/// The threshold a Claude Code log's own `auto` compaction shows: its `preTokens` (the
/// last recorded request before it is the lower end of the bracket).
pub fn logged_threshold(transcript: &Transcript) -> Option<u64> {
    transcript
        .compactions
        .iter()
        .rev()
        .find(|c| c.trigger.as_deref() == Some("auto"))
        .and_then(|c| c.pre_tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_follow_the_effective_window() {
        // 200k window, 20k reserved: effective 180k, compacts at 167k.
        assert_eq!(default_threshold(200_000, 64_000, None), 167_000);
        // The percentage is of the effective window and only lowers it.
        assert_eq!(default_threshold(200_000, 64_000, Some(75.0)), 135_000);
        assert_eq!(default_threshold(200_000, 64_000, Some(99.5)), 167_000);
        assert_eq!(default_threshold(200_000, 64_000, Some(50.5)), 90_900);
        // A model with a small output limit reserves less.
        assert_eq!(default_threshold(200_000, 8_000, None), 179_000);
    }
}
