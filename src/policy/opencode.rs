//! `opencode-prune`: opencode's pruning of old tool outputs (`session/compaction.ts`).
//! From the newest message back, past the last two user turns, tool outputs beyond the
//! newest `protect` tokens are cleared to "[Old tool result content cleared]", but only
//! when they add up to more than `minimum`; the walk stops at a summary or at an output
//! already cleared. Tokens by opencode's own estimator ([`estimate`]).

use super::chat::{ChatMessage, Kind};
use super::running::Running;
use super::{Policy, PolicyPlan, PolicySettings, Section, SettingError};

/// What opencode writes in place of a pruned output.
pub const PRUNED: &str = "[Old tool result content cleared]";

/// Tools whose output opencode never prunes.
const PROTECTED_TOOLS: [&str; 1] = ["skill"];

/// opencode's `Token.estimate`: a weight per character by class (digits 1/1.9,
/// punctuation and symbols 1/1.2, white space 1/2.5, the rest 1/3.5), truncated.
pub fn estimate(text: &str) -> u64 {
    use std::sync::LazyLock;
    static NUMBER: LazyLock<regex::Regex> = LazyLock::new(|| regex::Regex::new(r"^\p{N}$").expect("a valid class"));
    static SYMBOL: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"^[\p{P}\p{S}]$").expect("a valid class"));
    let mut count = 0.0f64;
    let mut buffer = [0u8; 4];
    for c in text.chars() {
        let one: &str = c.encode_utf8(&mut buffer);
        count += if c.is_ascii_digit() || (!c.is_ascii() && NUMBER.is_match(one)) {
            1.0 / 1.9
        } else if c.is_ascii_punctuation() || (!c.is_ascii() && SYMBOL.is_match(one)) {
            1.0 / 1.2
        } else if c.is_whitespace() || c == '\u{feff}' {
            1.0 / 2.5
        } else {
            1.0 / 3.5
        };
    }
    count.trunc() as u64
}

/// `opencode-prune`.
pub struct Prune;

impl Policy for Prune {
    fn name(&self) -> &'static str {
        "opencode-prune"
    }

    fn keys(&self) -> &'static [&'static str] {
        &["protect", "minimum"]
    }

    fn cost(&self, message: &ChatMessage) -> u64 {
        if message.kind == Kind::Tool {
            estimate(&message.text)
        } else {
            0
        }
    }

    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, SettingError> {
        // It reads the outputs before the second-to-last user message back to the last
        // one already cleared (or a summary), and prunes when more than `minimum` of them
        // lie beyond the newest `protect` tokens.
        let Some(&second_last) = running.users.iter().rev().nth(1) else {
            return Ok(false);
        };
        let from = running
            .stops
            .iter()
            .rev()
            .find(|&&s| s < second_last)
            .map_or(0, |&s| s + 1);
        let readable = running.cost[second_last] - running.cost[from];
        Ok(readable > settings.number_or("protect", 40_000)? + settings.number_or("minimum", 20_000)?)
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, SettingError> {
        let protect = settings.number_or("protect", 40_000)?;
        let minimum = settings.number_or("minimum", 20_000)?;
        let mut plan = PolicyPlan::unchanged(self.name(), "opencode-estimate of the tool outputs read", chat.len());
        // A result's tool: its own name, else its call's (found by walking back: the walk
        // below reads only the newest messages, so no index of every call is built).
        let call_name = |at: usize, id: &str| {
            chat[..at]
                .iter()
                .rev()
                .find_map(|m| m.calls.iter().find(|c| c.id == id).map(|c| c.name.as_str()))
        };
        let (mut total, mut pruned, mut turns) = (0u64, 0u64, 0usize);
        let mut to_prune = Vec::new();
        for m in chat.iter().rev() {
            if m.kind == Kind::User {
                turns += 1;
            }
            if turns < 2 {
                continue;
            }
            if m.past_summary {
                break;
            }
            if m.kind != Kind::Tool {
                continue;
            }
            let tool = m
                .name
                .as_deref()
                .or_else(|| m.call_id.as_deref().and_then(|id| call_name(m.index, id)))
                .unwrap_or_default();
            if PROTECTED_TOOLS.contains(&tool) {
                continue;
            }
            if m.cleared || m.text == PRUNED {
                break;
            }
            let tokens = estimate(&m.text);
            total += tokens;
            if total > protect {
                pruned += tokens;
                to_prune.push(m.index);
            }
        }
        plan.placeholder = Some(PRUNED);
        if pruned > minimum {
            for i in to_prune {
                plan.messages[i].section = Section::Cleared;
            }
            plan.compacted = true;
            plan.split_around_clearing();
        }
        // Its counts are of the tool outputs it read (the only thing it prunes).
        plan.tokens_before = Some(total);
        plan.tokens_after = Some(total - if plan.compacted { pruned } else { 0 });
        Ok(plan)
    }
}

#[cfg(test)]
mod tests {
    use super::estimate;

    #[test]
    fn the_estimate_weighs_each_class() {
        // 7 letters (2), 3 digits (1.58), 2 spaces (0.8), 2 symbols (1.67): 6.05.
        assert_eq!(estimate("abc 123 defg!?"), 6);
        assert_eq!(estimate(""), 0);
        // Non-ASCII digits and symbols by their Unicode class: ٣ is a number, € a symbol.
        assert_eq!(estimate(&"٣".repeat(19)), 10);
        assert_eq!(estimate(&"€".repeat(12)), 10);
    }
}
