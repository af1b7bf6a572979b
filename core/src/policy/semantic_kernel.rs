//! Semantic Kernel's chat history reducers (microsoft/semantic-kernel): truncation and
//! summarization by message counts. They fire when the history holds more than
//! `target_count + threshold_count` messages and cut near `target_count` from the end,
//! never inside a run of function calls and results, preferring a user message within
//! the threshold. A leading system message counts towards the target and is kept.
//! Python and .NET differ by one message at a function run: Python cuts at the run's
//! first message, .NET at the message before it (`--set variant=dotnet`).

use super::chat::{ChatMessage, Kind};
use super::running::Running;
use super::{Inserted, Policy, PolicyPlan, PolicySettings, Section};

fn has_function_content(m: &ChatMessage) -> bool {
    m.has_calls() || m.kind == Kind::Tool
}

/// Where the reducer cuts (`locate_safe_reduction_index`), or `None` when it does not.
fn reduction_index(chat: &[ChatMessage], target: usize, threshold: usize, dotnet: bool) -> Option<usize> {
    let n = chat.len();
    if n <= target + threshold {
        return None;
    }
    let system = usize::from(chat.first().is_some_and(|m| m.kind == Kind::System));
    let threshold_index = (n + system).checked_sub(threshold + target)?;
    if threshold_index <= system {
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

/// Both reducers act only on more than `target + threshold` messages.
fn over_target(settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
    let (target, threshold) = counts(settings)?;
    Ok(running.messages() > target + threshold)
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
