//! `codex`: Codex CLI's local compaction (openai/codex `codex-rs/core/src/compact.rs`).
//! It fires when the context reaches `auto_compact_token_limit`; the new history is only
//! the user's own messages, newest first while they fit in 20,000 tokens (the first that
//! does not fit is cut to what is left), in their original order, then the summary as a
//! user message. Assistant messages, tool calls and outputs, earlier summaries and
//! injected context (AGENTS.md, the environment) are all summarized away.
//!
//! Its counter is Codex's: the last response's recorded usage (system prompt and tools
//! included) plus an estimate of the items added since, four bytes a token
//! (`overhead` + `ratio` × estimate; a replay sets both from the rollout's `token_count`
//! events, and from the fit of an ended epoch after its own firing); without recorded
//! usage, the estimate of the items alone.

use super::chat::{ChatMessage, Kind};
use super::running::Running;
use super::{Inserted, Policy, PolicyPlan, PolicySettings, Section};

/// Codex's approximation: 4 bytes a token.
fn approx_tokens(bytes: usize) -> u64 {
    (bytes as u64).div_ceil(4)
}

/// A message's size for the trigger: its text and its calls' names and arguments, in
/// bytes, ÷ 4 (an approximation of Codex's own estimate, which adds the provider's
/// recorded usage of the last response).
fn message_tokens(m: &ChatMessage) -> u64 {
    approx_tokens(m.text.len() + m.calls.iter().map(|c| c.name.len() + c.arguments.len()).sum::<usize>())
}

/// User messages Codex injects itself, never kept as the user's own words.
const CONTEXTUAL_PREFIXES: [&str; 6] = [
    "<environment_context>",
    "<user_instructions>",
    "# AGENTS.md instructions",
    "<user_shell_command>",
    "<turn_aborted>",
    SUMMARY_PREFIX_START,
];

/// How Codex's summary message starts (`templates/compact/summary_prefix.md`).
const SUMMARY_PREFIX_START: &str = "Another language model started to solve this problem";

fn is_real_user_message(m: &ChatMessage) -> bool {
    m.kind == Kind::User && m.role == "user" && !CONTEXTUAL_PREFIXES.iter().any(|p| m.text.trim_start().starts_with(p))
}

/// `codex`.
pub struct Codex;

impl Policy for Codex {
    fn name(&self) -> &'static str {
        "codex"
    }

    fn agent_logs(&self) -> Option<crate::transcript::Container> {
        Some(crate::transcript::Container::Codex)
    }

    fn defaults(&self, window: u64) -> Vec<(&'static str, String)> {
        vec![("context_window", window.to_string())]
    }

    fn keys(&self) -> &'static [&'static str] {
        &[
            "auto_compact_token_limit",
            "context_window",
            "user_message_budget",
            "overhead",
            "ratio",
        ]
    }

    fn counts_billed(&self) -> bool {
        true
    }

    fn billed_base(&self, running: &Running) -> u64 {
        running.total_cost()
    }

    fn cost(&self, message: &ChatMessage) -> u64 {
        message_tokens(message)
    }

    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
        let cost = counter(settings, running.total_cost())?;
        let limit = settings
            .number("auto_compact_token_limit")?
            .or(settings.number("context_window")?.map(|w| w * 9 / 10))
            .unwrap_or(0);
        Ok(cost >= limit)
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let window = settings.number("context_window")?;
        let limit =
            match (settings.number("auto_compact_token_limit")?, window) {
                (Some(limit), _) => limit,
                (None, Some(window)) => window * 9 / 10,
                (None, None) => return Err(crate::Error::Setting(
                    "codex needs --set auto_compact_token_limit=N (model_auto_compact_token_limit) or context_window=N"
                        .to_owned(),
                )),
            };
        let budget = settings.number_or("user_message_budget", 20_000)?;
        let total = counter(settings, chat.iter().map(message_tokens).sum())?;
        let label = if settings.text("overhead").is_some() {
            "codex (last usage + bytes/4 since)"
        } else {
            "codex-bytes"
        };
        let mut plan = PolicyPlan::unchanged(self.name(), label, chat.len());
        plan.tokens_before = Some(total);
        plan.tokens_after = Some(total);
        let mut limit = limit;
        if let Some(window) = window {
            let clamp = window * 9 / 10;
            if limit > clamp {
                plan.warnings.push(format!(
                    "auto_compact_token_limit {limit} is above 90% of the {window}-token window: current Codex versions clamp it to {clamp}"
                ));
                limit = clamp;
            }
        }
        if total < limit {
            return Ok(plan);
        }
        for row in &mut plan.messages {
            row.section = Section::Summarized;
        }
        let mut remaining = budget;
        let mut kept_tokens = 0;
        for m in chat.iter().rev().filter(|m| is_real_user_message(m)) {
            if remaining == 0 {
                break;
            }
            let tokens = approx_tokens(m.text.len());
            let row = &mut plan.messages[m.index];
            row.section = Section::Head;
            if tokens <= remaining {
                remaining -= tokens;
                kept_tokens += tokens;
            } else {
                row.truncated = true;
                row.truncated_to_tokens = Some(remaining);
                plan.rewritten_text.insert(m.index, truncate_middle(&m.text, remaining));
                kept_tokens += remaining;
                break;
            }
        }
        let kept = plan.messages.iter().filter(|r| r.section == Section::Head).count();
        plan.compacted = true;
        plan.tokens_after = Some(kept_tokens);
        plan.inserted.push(Inserted {
            position: kept,
            role: "user",
            kind: "summary",
            text: format!("{SUMMARY_PREFIX_START} and produced a summary of its thinking process. …\n{{summary}}"),
            tokens: None,
        });
        Ok(plan)
    }
}

/// Codex's count of a context whose items estimate to `estimate`: with recorded usage
/// known (`overhead`, `ratio`), that usage plus what came since; else the estimate.
fn counter(settings: &PolicySettings, estimate: u64) -> Result<u64, crate::Error> {
    let Some(overhead) = settings.number("overhead")? else {
        return Ok(estimate);
    };
    let ratio = match settings.text("ratio") {
        None => 1.0,
        Some(text) => text
            .parse::<f64>()
            .ok()
            .filter(|r| *r > 0.0 && r.is_finite())
            .ok_or_else(|| crate::Error::Setting(format!("--set ratio={text}: expected a positive number")))?,
    };
    Ok((overhead as f64 + ratio * estimate as f64).round() as u64)
}

/// `text` cut in the middle to about `tokens` tokens (four bytes each), its first and
/// last halves kept around a marker naming the tokens removed — Codex's middle
/// truncation of the oldest user message that does not fit.
pub fn truncate_middle(text: &str, tokens: u64) -> String {
    let budget = usize::try_from(tokens.saturating_mul(4)).unwrap_or(usize::MAX);
    if text.len() <= budget {
        return text.to_owned();
    }
    let half = budget / 2;
    let mut head_end = half;
    while !text.is_char_boundary(head_end) {
        head_end -= 1;
    }
    let mut tail_start = text.len() - half;
    while !text.is_char_boundary(tail_start) {
        tail_start += 1;
    }
    let removed = approx_tokens(tail_start - head_end);
    format!(
        "{}…{removed} tokens truncated…{}",
        &text[..head_end],
        &text[tail_start..]
    )
}

#[cfg(test)]
mod tests {
    use super::{message_tokens, truncate_middle};
    use crate::policy::chat::chat_view;
    use crate::transcript::Transcript;

    /// Codex's counter before each call of a real rollout — the last recorded usage plus
    /// its estimate (four bytes a token) of the items since — against the usage the
    /// provider then recorded: the per-call errors, in percent.
    fn counter_errors(file: &str) -> Vec<f64> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/data/real-transcripts/codex-rollout")
            .join(file);
        let whole = Transcript::read_whole(&path).expect("loads");
        let chat = chat_view(&whole);
        let mut estimate = 0u64;
        let mut last: Option<(u64, u64)> = None; // (recorded, estimate then)
        let mut errors = Vec::new();
        for m in &chat {
            // The usage a response recorded rides on the item that answered the call.
            let recorded = m
                .origin
                .and_then(|i| whole.messages()[i].recorded())
                .map(|r| r.context_tokens());
            if let Some(recorded) = recorded.filter(|&r| r > 0) {
                if let Some((before, then)) = last {
                    let counter = before + (estimate - then);
                    errors.push((counter as f64 - recorded as f64) / recorded as f64 * 100.0);
                }
                last = Some((recorded, estimate));
            }
            estimate += message_tokens(m);
        }
        errors
    }

    fn median_abs(mut errors: Vec<f64>) -> f64 {
        for e in &mut errors {
            *e = e.abs();
        }
        errors.sort_by(f64::total_cmp);
        errors[errors.len() / 2]
    }

    #[test]
    fn the_counter_follows_recorded_usage_on_real_rollouts() {
        for (file, calls) in [
            ("codemie-codex-cli-019e1625.jsonl", 60),
            ("codex-session-view-019a93b9.jsonl", 30),
        ] {
            let errors = counter_errors(file);
            assert!(errors.len() >= calls, "{file}: {} calls compared", errors.len());
            let compared = errors.len();
            let median = median_abs(errors);
            // Printed for the record (`cargo test -p ctxlens-core the_counter -- --nocapture`).
            println!("{file}: {compared} calls, median |error| {median:.2}%");
            assert!(median <= 5.0, "{file}: median error {median:.1}%");
        }
    }

    #[test]
    fn the_middle_goes_and_says_how_much() {
        let text = "a".repeat(40) + &"é".repeat(40) + &"z".repeat(40);
        let cut = truncate_middle(&text, 10);
        assert!(cut.starts_with(&"a".repeat(20)), "{cut}");
        assert!(cut.ends_with(&"z".repeat(20)), "{cut}");
        assert!(cut.contains("tokens truncated"), "{cut}");
        assert!(cut.len() < text.len());
        assert_eq!(truncate_middle("short", 10), "short");
    }
}
