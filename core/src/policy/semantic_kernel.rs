//! Semantic Kernel's chat history reducers (microsoft/semantic-kernel): truncation and
//! summarization by message counts. They fire when the history holds more than
//! `target_count + threshold_count` messages and cut near `target_count` from the end,
//! never inside a run of function calls and results, preferring a user message within
//! the threshold. A leading system message counts towards the target and is kept.
//! Python and .NET differ by one message at a function run: Python cuts at the run's
//! first message, .NET at the message before it (`--set variant=dotnet`). .NET also has
//! no early "at most target + threshold" exit: with a system message it reduces from
//! `target + threshold` messages on (its `LocateSafeReductionIndex` counts the system
//! message towards the target), returning a history that may hold every message again.

use super::chat::{ChatMessage, Kind};
use super::running::Running;
use super::{Inserted, Policy, PolicyPlan, PolicySettings, Section};

fn has_function_content(m: &ChatMessage) -> bool {
    m.has_calls() || m.kind == Kind::Tool
}

/// Where the reducer cuts (`locate_safe_reduction_index`), or `None` when it does not.
fn reduction_index(chat: &[ChatMessage], target: usize, threshold: usize, dotnet: bool) -> Option<usize> {
    let n = chat.len();
    // Python returns early at `target + threshold` messages or fewer; .NET does not.
    if !dotnet && n <= target + threshold {
        return None;
    }
    let system = usize::from(chat.first().is_some_and(|m| m.kind == Kind::System));
    let threshold_index = (n + system).checked_sub(threshold + target)?;
    if threshold_index <= if dotnet { 0 } else { system } {
        return None;
    }
    let start = n + system - target;
    if start >= n {
        // The target keeps nothing but the system message: nothing to cut at.
        return None;
    }
    // Back over the run of function calls and results the start is in.
    let mut i = start as isize;
    while i >= system as isize && has_function_content(&chat[i as usize]) {
        i -= 1;
    }
    let moved = i != start as isize;
    let target_index = if moved && !dotnet { i + 1 } else { i };
    if target_index < system as isize {
        return None;
    }
    // A user message within the threshold is a better cut.
    while i >= threshold_index as isize {
        if chat[i as usize].kind == Kind::User {
            return Some(i as usize);
        }
        i -= 1;
    }
    Some(target_index as usize)
}

/// Both reducers act only on more than `target + threshold` messages (.NET: from
/// `target + threshold` on, when the first is a system message; its plan decides).
fn over_target(settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
    let (target, threshold) = counts(settings)?;
    let dotnet = settings.text("variant") == Some("dotnet");
    Ok(running.messages() + usize::from(dotnet) > target + threshold)
}

fn counts(settings: &PolicySettings) -> Result<(usize, usize), crate::Error> {
    let target = settings
        .number("target_count")?
        .ok_or_else(|| crate::Error::Setting("semantic-kernel needs --set target_count=N".to_owned()))?;
    if target == 0 {
        return Err(crate::Error::Setting(
            "--set target_count=0: Semantic Kernel requires at least 1".to_owned(),
        ));
    }
    Ok((target as usize, settings.number_or("threshold_count", 0)? as usize))
}

/// `semantic-kernel-truncation` (`ChatHistoryTruncationReducer`).
pub struct Truncation;

impl Policy for Truncation {
    fn name(&self) -> &'static str {
        "semantic-kernel-truncation"
    }

    fn defaults(&self, _window: u64) -> Vec<(&'static str, String)> {
        vec![("target_count", "50".to_owned()), ("threshold_count", "10".to_owned())]
    }

    fn keys(&self) -> &'static [&'static str] {
        &["target_count", "threshold_count", "variant"]
    }

    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
        over_target(settings, running)
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let (target, threshold) = counts(settings)?;
        let dotnet = settings.choice("variant", &["python", "dotnet"], "python")? == "dotnet";
        let mut plan = PolicyPlan::unchanged(self.name(), "messages", chat.len());
        let Some(cut) = reduction_index(chat, target, threshold, dotnet).filter(|&c| c > 0) else {
            return Ok(plan);
        };
        let system = chat[0].kind == Kind::System;
        for row in &mut plan.messages {
            row.section = if row.index >= cut {
                Section::Tail
            } else if row.index == 0 && system {
                Section::Head
            } else {
                Section::Dropped
            };
        }
        // The reducer returns a new history whenever it finds a cut, even one that holds
        // every message again (.NET: the system message, then the rest from message 1).
        plan.compacted = true;
        Ok(plan)
    }
}

/// `semantic-kernel-summarization` (`ChatHistorySummarizationReducer`, Python).
pub struct Summarization;

impl Policy for Summarization {
    fn name(&self) -> &'static str {
        "semantic-kernel-summarization"
    }

    fn defaults(&self, _window: u64) -> Vec<(&'static str, String)> {
        vec![("target_count", "50".to_owned()), ("threshold_count", "10".to_owned())]
    }

    fn keys(&self) -> &'static [&'static str] {
        &["target_count", "threshold_count"]
    }

    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
        over_target(settings, running)
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let (target, threshold) = counts(settings)?;
        let mut plan = PolicyPlan::unchanged(self.name(), "messages", chat.len());
        let Some(cut) = reduction_index(chat, target, threshold, false).filter(|&c| c > 0) else {
            return Ok(plan);
        };
        let first_system = chat.iter().position(|m| m.kind == Kind::System).filter(|&i| i < cut);
        for m in chat {
            plan.messages[m.index].section = if m.index >= cut {
                Section::Tail
            } else if Some(m.index) == first_system {
                Section::Head
            } else if has_function_content(m) || m.kind == Kind::System {
                // Removed, but never sent to the summarizer.
                Section::Dropped
            } else {
                Section::Summarized
            };
        }
        plan.compacted = true;
        plan.inserted.push(Inserted {
            position: usize::from(first_system.is_some()),
            role: "assistant",
            kind: "summary",
            text: "{summary} (metadata __summary__: true)".to_owned(),
            tokens: None,
        });
        Ok(plan)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::chat::written;

    /// A system message, then user and assistant turns: `n` messages in all.
    fn history(n: usize) -> Vec<ChatMessage> {
        (0..n)
            .map(|k| match k {
                0 => written(Kind::System, "system", "be brief".to_owned(), 3),
                k if k % 2 == 1 => written(Kind::User, "user", format!("question {k}"), 3),
                k => written(Kind::Assistant, "assistant", format!("answer {k}"), 3),
            })
            .enumerate()
            .map(|(k, mut m)| {
                m.index = k;
                m
            })
            .collect()
    }

    fn settings(variant: &str) -> PolicySettings {
        PolicySettings::default()
            .with("target_count", 6)
            .with("threshold_count", 0)
            .with("variant", variant)
    }

    #[test]
    fn dotnet_reduces_a_history_of_exactly_the_target_with_a_system_message() {
        let chat = history(6);
        let python = Truncation.plan_chat(&chat, &settings("python")).expect("plans");
        assert!(!python.compacted, "Python returns early at target + threshold messages");
        let dotnet = Truncation.plan_chat(&chat, &settings("dotnet")).expect("plans");
        assert!(dotnet.compacted, ".NET returns a reduced history");
        let kept: Vec<Section> = dotnet.messages.iter().map(|r| r.section).collect();
        assert_eq!(kept[0], Section::Head, "the system message first");
        assert!(
            kept[1..].iter().all(|s| *s == Section::Tail),
            "then every other message: {kept:?}"
        );
        // One message fewer: neither reduces.
        let shorter = history(5);
        assert!(
            !Truncation
                .plan_chat(&shorter, &settings("dotnet"))
                .expect("plans")
                .compacted
        );
    }
}
