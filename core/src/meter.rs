//! How full a session's context is and how far its agent's next compaction is: the
//! context meter of `ctxlens status` and of the TUI while it follows a growing log.
//!
//! The context is the last size the provider recorded when the log records usage (else
//! ctxlens' count plus the fitted or assumed system prompt and tools); the compaction
//! fires where the agent's own rule says: a Claude Code log's logged auto-compact
//! threshold, else Claude Code's default for the window; for other agents the window
//! itself (no rule of theirs is known from the log alone).

use serde::{Deserialize, Serialize};

use crate::tokens::Counts;
use crate::transcript::{Container, Transcript};

/// The meter's figures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meter {
    /// The model the log names.
    pub model: Option<String>,
    /// Tokens in the context now.
    pub tokens: u64,
    /// Where they come from: `recorded` (the provider's last count) or `counted`.
    pub tokens_from: String,
    /// The model's context window.
    pub window: u64,
    /// Where the next compaction fires.
    pub threshold: u64,
    /// Which rule gave the threshold.
    pub threshold_from: String,
    /// Tokens until it fires (0 when past it).
    pub left: u64,
    /// Model calls until it fires at the session's recent growth per call, when known.
    pub calls: Option<u64>,
    /// The context as a share of the window, in percent.
    pub pct: u64,
}

/// The meter of `transcript` (its live conversation) counted by `counts`; `window`
/// overrides the model's.
pub fn meter(transcript: &Transcript, counts: &Counts, window: Option<u64>) -> Meter {
    let model = transcript.model().map(str::to_owned);
    let window = window
        .or_else(|| model.as_deref().and_then(crate::models::window_of).map(|w| w.tokens))
        .unwrap_or(crate::policy::claude_code::DEFAULT_WINDOW);
    let recorded: Vec<u64> = transcript
        .messages()
        .iter()
        .filter_map(|m| m.recorded().map(|r| r.context_tokens))
        .filter(|&t| t > 0)
        .collect();
    let (tokens, tokens_from) = if let Some(&last) = recorded.last() {
        (last, "recorded".to_owned())
    } else {
        let overhead = crate::calibrate::calibrate(transcript, counts)
            .map_or(crate::policy::claude_code::ASSUMED_OVERHEAD, |c| c.overhead);
        (counts.total() + overhead, "counted".to_owned())
    };
    let (threshold, threshold_from) = if transcript.format().container == Container::ClaudeCode {
        // The live epoch holds the compaction that began it; only when that one was not
        // automatic can an earlier automatic one be further back (read the whole log then).
        let logged = crate::policy::claude_code::logged_threshold(transcript).or_else(|| {
            (!transcript.compactions().is_empty())
                .then(|| transcript.whole_session().ok())
                .flatten()
                .as_ref()
                .and_then(crate::policy::claude_code::logged_threshold)
        });
        match logged {
            Some(t) => (t, "claude-code (its logged auto-compaction)".to_owned()),
            None => (
                crate::policy::claude_code::default_threshold(window, 64_000, None),
                "claude-code (its default for the window)".to_owned(),
            ),
        }
    } else {
        (
            window,
            "the window (no compaction rule known for this agent)".to_owned(),
        )
    };
    let left = threshold.saturating_sub(tokens);
    // The recent growth per call: the last ten recorded calls, when they grew.
    let recent = &recorded[recorded.len().saturating_sub(11)..];
    let growth = match (recent.first(), recent.last()) {
        (Some(&a), Some(&b)) if recent.len() > 1 && b > a => Some((b - a) / (recent.len() as u64 - 1)),
        _ => None,
    };
    Meter {
        model,
        tokens,
        tokens_from,
        window,
        threshold,
        threshold_from,
        left,
        calls: growth.filter(|&g| g > 0).map(|g| left.div_ceil(g)),
        pct: (tokens * 100).checked_div(window).unwrap_or(0),
    }
}
