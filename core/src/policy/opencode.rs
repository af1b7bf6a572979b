//! `opencode-prune`: opencode's pruning of old tool outputs (`session/compaction.ts`).
//! From the newest message back, past the last two user turns, tool outputs beyond the
//! newest `protect` tokens are cleared to "[Old tool result content cleared]", but only
//! when they add up to more than `minimum`; the walk stops at a summary or at an output
//! already cleared. Tokens by opencode's own estimator ([`estimate`]).

use super::chat::{ChatMessage, Kind};
use super::claude_code::Billing;
use super::running::Running;
use super::{InPlace, Policy, PolicyPlan, PolicySettings, Section};

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

    fn defaults(&self, _window: u64) -> Vec<(&'static str, String)> {
        // Its own defaults hold whatever the window (see docs/policies.md).
        Vec::new()
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

    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
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

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let walk = PruneWalk::of(chat, settings)?;
        let mut plan = PolicyPlan::unchanged(self.name(), "opencode-estimate of the tool outputs read", chat.len());
        plan.placeholder = Some(PRUNED);
        if walk.prunes() {
            for &i in &walk.to_prune {
                plan.messages[i].section = Section::Cleared;
            }
            plan.compacted = true;
            plan.split_around_clearing();
        }
        // Its counts are of the tool outputs it read (the only thing it prunes).
        plan.tokens_before = Some(walk.read);
        plan.tokens_after = Some(walk.read - if walk.prunes() { walk.pruned } else { 0 });
        Ok(plan)
    }

    /// Pruning only clears, and its walk reads only the newest outputs: a replay applies
    /// it without a row per message.
    fn in_place(
        &self,
        context: &[ChatMessage],
        _running: &Running,
        _from: usize,
        settings: &PolicySettings,
    ) -> Result<Option<InPlace>, crate::Error> {
        let walk = PruneWalk::of(context, settings)?;
        let prunes = walk.prunes();
        let mut positions = if prunes { walk.to_prune } else { Vec::new() };
        positions.reverse();
        Ok(Some(InPlace::Clears {
            positions,
            placeholder: PRUNED,
            tokens_before: walk.read,
            tokens_after: walk.read - if prunes { walk.pruned } else { 0 },
        }))
    }
}

/// opencode's prune walk: from the newest message back, past the last two user turns,
/// through the tool outputs (protected tools skipped) to the first one already pruned or
/// a summary; outputs beyond the newest `protect` tokens are candidates, pruned when they
/// are worth more than `minimum`.
struct PruneWalk {
    minimum: u64,
    /// Tokens of the outputs read.
    read: u64,
    /// Of those, the candidates'.
    pruned: u64,
    /// The candidates, newest first.
    to_prune: Vec<usize>,
}

impl PruneWalk {
    fn of(chat: &[ChatMessage], settings: &PolicySettings) -> Result<PruneWalk, crate::Error> {
        let protect = settings.number_or("protect", 40_000)?;
        let minimum = settings.number_or("minimum", 20_000)?;
        // A result's tool: its own name, else its call's (found by walking back: the walk
        // below reads only the newest messages, so no index of every call is built).
        let call_name = |at: usize, id: &str| {
            chat[..at]
                .iter()
                .rev()
                .find_map(|m| m.calls.iter().find(|c| c.id == id).map(|c| c.name.as_str()))
        };
        let mut walk = PruneWalk {
            minimum,
            read: 0,
            pruned: 0,
            to_prune: Vec::new(),
        };
        let mut turns = 0usize;
        for (at, m) in chat.iter().enumerate().rev() {
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
                .or_else(|| m.call_id.as_deref().and_then(|id| call_name(at, id)))
                .unwrap_or_default();
            if PROTECTED_TOOLS.contains(&tool) {
                continue;
            }
            if m.cleared || m.text == PRUNED {
                break;
            }
            // A replay has costed each message once (its policy cost is this estimate).
            let tokens = if m.policy_cost > 0 {
                m.policy_cost
            } else {
                estimate(&m.text)
            };
            walk.read += tokens;
            if walk.read > protect {
                walk.pruned += tokens;
                walk.to_prune.push(at);
            }
        }
        Ok(walk)
    }

    fn prunes(&self) -> bool {
        self.pruned > self.minimum
    }
}

/// `opencode`: opencode's overflow check and compaction (`session/overflow.ts`,
/// `session/compaction.ts`). It fires when the last response's reported tokens — the
/// billed size, system prompt and tools included — reach the usable context:
/// `limit_input − reserved` for a model that declares `limit.input`, else `context −
/// max_output − reserved` (2026 versions) or `context − max_output` (`version=legacy`).
/// Legacy versions summarize everything into an assistant message marked `summary`; 2026
/// versions keep a recent tail of whole user turns worth `preserve_recent_tokens` (or the
/// last `tail_turns`), counted with opencode's estimator.
pub struct Overflow;

/// The last release known to summarize everything (its source read at that tag: no
/// kept tail, the overflow at `context − max_output`); v1.18.3 keeps a tail.
const LAST_LEGACY_RELEASE: (u64, u64, u64) = (1, 1, 65);

/// Where opencode's overflow fires in a session it wrote, for a model with `window`
/// tokens: the usable context by the rule of the release that wrote the session
/// ([`Overflow`]'s `settings_from_log`), and what says so. What `status` and the meter
/// compare the context with.
pub fn session_threshold(transcript: &crate::transcript::Transcript, window: u64) -> (u64, String) {
    let given = PolicySettings::default().with("context", window);
    let mut settings = given.clone();
    for (key, value) in Overflow.settings_from_log(transcript, transcript.messages().len(), &given) {
        settings = settings.with(key, value);
    }
    let release = transcript
        .client_version()
        .unwrap_or_else(|| "an unnamed release".to_owned());
    match Overflow::resolve(&settings) {
        Ok(u) if u.legacy => (
            u.limit,
            format!("opencode ({release}, up to v1.1.65's rule: its overflow at the window less the reply's reserve)"),
        ),
        Ok(u) => (
            u.limit,
            format!(
                "opencode ({release}, its current rule: its overflow at the window less the reply's and the compaction's reserves)"
            ),
        ),
        Err(_) => (window, "opencode (its overflow, at the window)".to_owned()),
    }
}

/// The overflow's settings, resolved.
struct Usable {
    limit: u64,
    preserve: u64,
    tail_turns: Option<u64>,
    legacy: bool,
    billing: Billing,
}

impl Overflow {
    fn resolve(settings: &PolicySettings) -> Result<Usable, crate::Error> {
        let context = settings.number_or("context", super::claude_code::DEFAULT_WINDOW)?;
        let max_output = settings.number_or("max_output", 32_000)?.min(32_000);
        let reserved = settings.number_or("reserved", 20_000.min(max_output))?;
        let legacy = settings.choice("version", &["2026", "legacy"], "2026")? == "legacy";
        let usable = match settings.number("limit_input")? {
            Some(limit) => limit.saturating_sub(reserved),
            None if legacy => context.saturating_sub(max_output),
            None => context.saturating_sub(max_output).saturating_sub(reserved),
        };
        let preserve = settings.number_or("preserve_recent_tokens", 15_000.min(2_000.max(usable / 4)))?;
        Ok(Usable {
            limit: usable,
            preserve,
            tail_turns: settings.number("tail_turns")?,
            legacy,
            billing: Billing::of(settings)?,
        })
    }
}

/// opencode's estimate of `transcript`'s messages per token ctxlens counts (`counts`),
/// when there is something to measure: how a tail in ctxlens' tokens reads in the units
/// opencode keeps its tail by.
pub fn estimate_ratio(transcript: &crate::transcript::Transcript, counts: &crate::tokens::Counts) -> Option<f64> {
    let chat = super::chat::chat_view_counted(transcript, counts);
    let counted: u64 = chat.iter().map(|m| m.counted).sum();
    let estimated: u64 = chat.iter().map(estimated).sum();
    (counted > 0 && estimated > 0).then(|| estimated as f64 / counted as f64)
}

/// A message's size by opencode's estimator (its text and its calls' arguments).
fn estimated(m: &ChatMessage) -> u64 {
    estimate(&m.text) + m.calls.iter().map(|c| estimate(&c.arguments)).sum::<u64>()
}

impl Policy for Overflow {
    fn name(&self) -> &'static str {
        "opencode"
    }

    fn defaults(&self, window: u64) -> Vec<(&'static str, String)> {
        vec![("context", window.to_string())]
    }

    fn keys(&self) -> &'static [&'static str] {
        &[
            "context",
            "limit_input",
            "max_output",
            "reserved",
            "preserve_recent_tokens",
            "tail_turns",
            "version",
            "overhead",
            "ratio",
        ]
    }

    fn counts_billed(&self) -> bool {
        true
    }

    fn agent_logs(&self) -> Option<crate::transcript::Container> {
        Some(crate::transcript::Container::Opencode)
    }

    /// The release that wrote the session (its `Session.Info.version`, known from its
    /// start): up to v1.1.65 opencode summarized everything and fired at `context −
    /// max_output` (`session/compaction.ts` at 34ebe814; its overflow at 168,000 of a
    /// 200,000 window, `tests/data/other-agents/opencode/FORMAT.md`), the `legacy` rule.
    fn settings_from_log(
        &self,
        whole: &crate::transcript::Transcript,
        before: usize,
        given: &PolicySettings,
    ) -> Vec<(&'static str, String)> {
        let _ = before;
        if !self.log_may_set(whole, given, "version") {
            return Vec::new();
        }
        let release = whole
            .client_version()
            .and_then(|v| super::claude_code::release_number(&v));
        match release {
            Some(number) if number <= LAST_LEGACY_RELEASE => vec![("version", "legacy".to_owned())],
            _ => Vec::new(),
        }
    }

    /// Its estimator's size of the message, which the tail is chosen by (a replay costs
    /// each message once); the trigger reads the billed size from ctxlens' count.
    fn cost(&self, message: &ChatMessage) -> u64 {
        estimated(message)
    }

    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
        let u = Self::resolve(settings)?;
        Ok(u.billing.billed(running.total_counted()) >= u.limit)
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let u = Self::resolve(settings)?;
        let counted: u64 = chat.iter().map(|m| m.counted).sum();
        let billed = u.billing.billed(counted);
        let mut plan = PolicyPlan::unchanged(self.name(), "billed (overhead + ratio × estimate)", chat.len());
        plan.tokens_before = Some(billed);
        plan.tokens_after = Some(billed);
        u.billing.warn(&mut plan);
        if billed < u.limit || chat.is_empty() {
            return Ok(plan);
        }
        // The tail: whole user turns from the newest back, while within the budget (or
        // the last `tail_turns` turns); none for the legacy versions.
        let users: Vec<usize> = (0..chat.len()).filter(|&i| chat[i].kind == Kind::User).collect();
        let mut start = chat.len();
        if !u.legacy {
            let (mut kept, mut turns) = (0u64, 0u64);
            for &turn_start in users.iter().rev() {
                let size: u64 = chat[turn_start..start]
                    .iter()
                    .map(|m| if m.policy_cost > 0 { m.policy_cost } else { estimated(m) })
                    .sum();
                let within = match u.tail_turns {
                    Some(n) => turns < n,
                    None => kept + size <= u.preserve,
                };
                if !within {
                    break;
                }
                kept += size;
                turns += 1;
                start = turn_start;
            }
        }
        for row in &mut plan.messages {
            row.section = if row.index >= start {
                Section::Tail
            } else {
                Section::Summarized
            };
        }
        plan.compacted = start > 0;
        plan.tokens_after = Some(u.billing.billed(chat[start..].iter().map(|m| m.counted).sum()));
        plan.inserted.push(super::Inserted {
            position: 0,
            role: "assistant",
            kind: "summary",
            text: "{summary}".to_owned(),
            tokens: None,
        });
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
