//! OpenHands' condensers (V0 `openhands/memory/condenser/impl`), one event a message:
//! `openhands-recent` (first `keep_first` and the newest events), `openhands-mask`
//! (observations outside the attention window masked), `openhands-amortized` (forget the
//! middle when the view passes `max_size`) and `openhands-llm` (the same, with a summary
//! at `keep_first`: the server's default).

use super::chat::{ChatMessage, Kind};
use super::running::{FastView, Running};
use super::{Inserted, Policy, PolicyPlan, PolicySettings, Section};

const COUNTER: &str = "events";

/// What a masked observation reads.
const MASKED: &str = "<MASKED>";

/// `openhands-recent` (`RecentEventsCondenser`).
pub struct Recent;

impl Recent {
    /// The head's length and where the tail starts, for a view of `n` events.
    fn slices(settings: &PolicySettings, n: usize) -> Result<(usize, usize), crate::Error> {
        let keep_first = settings.number_or("keep_first", 1)? as usize;
        let max_events = settings.number_or("max_events", 100)? as usize;
        let head = keep_first.min(n);
        // `view[-tail_length:]`: with a length of 0, or one past the view's, Python's
        // slice is the whole view (the condenser has no guard: an upstream bug).
        let tail_length = max_events.saturating_sub(head);
        let tail_start = if tail_length == 0 || tail_length >= n {
            0
        } else {
            n - tail_length
        };
        Ok((head, tail_start))
    }
}

impl Policy for Recent {
    fn name(&self) -> &'static str {
        "openhands-recent"
    }

    fn defaults(&self, _window: u64) -> Vec<(&'static str, String)> {
        // Its own defaults hold whatever the window (see docs/policies.md).
        Vec::new()
    }

    fn keys(&self) -> &'static [&'static str] {
        &["keep_first", "max_events"]
    }

    fn rewrites_history(&self) -> bool {
        false // a view made for each step
    }

    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
        let messages = running.messages();
        Ok(settings.number_or("keep_first", 1)? > 0 || messages as u64 > settings.number_or("max_events", 100)?)
    }

    fn fast_view(
        &self,
        settings: &PolicySettings,
        running: &Running,
        _placeholder: &dyn Fn(&str) -> u64,
    ) -> Result<Option<FastView>, crate::Error> {
        let n = running.messages();
        let (head, tail_start) = Self::slices(settings, n)?;
        Ok(Some(FastView {
            changed: tail_start != head,
            messages: head + (n - tail_start),
            counted: running.counted[head] + running.total_counted() - running.counted[tail_start],
            removed: tail_start.saturating_sub(head),
        }))
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let n = chat.len();
        let mut plan = PolicyPlan::unchanged(self.name(), COUNTER, n);
        let (head, tail_start) = Self::slices(settings, n)?;
        for row in &mut plan.messages {
            row.section = if row.index < head {
                Section::Head
            } else if row.index >= tail_start {
                Section::Tail
            } else {
                Section::Dropped
            };
            row.duplicated = row.index < head && row.index >= tail_start;
        }
        let duplicated = plan.messages.iter().filter(|r| r.duplicated).count();
        plan.compacted = duplicated > 0 || plan.messages.iter().any(|r| r.section == Section::Dropped);
        if duplicated > 0 {
            plan.warnings.push(format!(
                "the first {duplicated} event(s) are sent twice: the tail slice has no guard for a view shorter than max_events or a tail of 0 (OpenHands RecentEventsCondenser)"
            ));
        }
        Ok(plan)
    }
}

/// `openhands-mask` (`ObservationMaskingCondenser`).
pub struct Mask;

impl Policy for Mask {
    fn name(&self) -> &'static str {
        "openhands-mask"
    }

    fn defaults(&self, _window: u64) -> Vec<(&'static str, String)> {
        // Its own defaults hold whatever the window (see docs/policies.md).
        Vec::new()
    }

    fn keys(&self) -> &'static [&'static str] {
        &["attention_window"]
    }

    fn rewrites_history(&self) -> bool {
        false // a view made for each step
    }

    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
        let messages = running.messages();
        Ok(messages as u64 > settings.number_or("attention_window", 100)?)
    }

    fn fast_view(
        &self,
        settings: &PolicySettings,
        running: &Running,
        placeholder: &dyn Fn(&str) -> u64,
    ) -> Result<Option<FastView>, crate::Error> {
        let window = settings.number_or("attention_window", 100)? as usize;
        let n = running.messages();
        let boundary = n.saturating_sub(window);
        let masked = running.tools[boundary];
        Ok(Some(FastView {
            changed: masked > 0,
            messages: n,
            counted: running.total_counted() - running.tool_counted[boundary] + masked * placeholder(MASKED),
            removed: masked as usize,
        }))
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let window = settings.number_or("attention_window", 100)? as usize;
        let n = chat.len();
        let mut plan = PolicyPlan::unchanged(self.name(), COUNTER, n);
        for m in chat {
            if m.index + window < n && m.kind == Kind::Tool {
                plan.messages[m.index].section = Section::Cleared;
            }
        }
        plan.compacted = plan.messages.iter().any(|r| r.section == Section::Cleared);
        plan.placeholder = Some(MASKED);
        plan.split_around_clearing();
        Ok(plan)
    }
}

/// The forgetting condensers' shared settings, checked as OpenHands' validators check them.
fn forgetting(
    settings: &PolicySettings,
    default_max: u64,
    default_first: u64,
    extra: usize,
) -> Result<(usize, usize), crate::Error> {
    let max_size = settings.number_or("max_size", default_max)? as usize;
    let keep_first = settings.number_or("keep_first", default_first)? as usize;
    if max_size / 2 <= keep_first + extra {
        return Err(crate::Error::Setting(format!(
            "max_size {max_size} with keep_first {keep_first}: OpenHands requires max_size / 2 > keep_first{}",
            if extra > 0 { " + 1" } else { "" }
        )));
    }
    Ok((max_size, keep_first))
}

/// The plan of a forgetting condenser: over `max_size` events it keeps the first
/// `keep_first` and the newest `max_size / 2 − keep_first − extra`; the middle is dropped
/// or, with a summary (`extra` = 1, its room), summarized into a user message after the
/// head.
fn forgetting_plan(
    name: &'static str,
    chat: &[ChatMessage],
    (max_size, keep_first): (usize, usize),
    summary: bool,
) -> PolicyPlan {
    let n = chat.len();
    let mut plan = PolicyPlan::unchanged(name, COUNTER, n);
    if n <= max_size {
        return plan;
    }
    let from_tail = max_size / 2 - keep_first - usize::from(summary);
    let forgotten = if summary { Section::Summarized } else { Section::Dropped };
    for row in &mut plan.messages {
        row.section = if row.index < keep_first {
            Section::Head
        } else if row.index >= n - from_tail {
            Section::Tail
        } else {
            forgotten
        };
    }
    plan.compacted = true;
    if summary {
        plan.inserted.push(Inserted {
            position: keep_first,
            role: "user",
            kind: "summary",
            text: "{summary}".to_owned(),
            tokens: None,
        });
    }
    plan
}

/// `openhands-amortized` (`AmortizedForgettingCondenser`).
pub struct Amortized;

impl Amortized {
    const DEFAULT_MAX_SIZE: u64 = 100;
}

impl Policy for Amortized {
    fn name(&self) -> &'static str {
        "openhands-amortized"
    }

    fn defaults(&self, _window: u64) -> Vec<(&'static str, String)> {
        // Its own defaults hold whatever the window (see docs/policies.md).
        Vec::new()
    }

    fn keys(&self) -> &'static [&'static str] {
        &["max_size", "keep_first"]
    }

    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
        Ok(running.messages() as u64 > settings.number_or("max_size", Self::DEFAULT_MAX_SIZE)?)
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let sizes = forgetting(settings, Self::DEFAULT_MAX_SIZE, 1, 0)?;
        Ok(forgetting_plan(self.name(), chat, sizes, false))
    }
}

/// `openhands-llm` (`LLMSummarizingCondenser`).
pub struct Llm;

impl Llm {
    const DEFAULT_MAX_SIZE: u64 = 120;
}

impl Policy for Llm {
    fn name(&self) -> &'static str {
        "openhands-llm"
    }

    fn defaults(&self, _window: u64) -> Vec<(&'static str, String)> {
        // Its own defaults hold whatever the window (see docs/policies.md).
        Vec::new()
    }

    fn keys(&self) -> &'static [&'static str] {
        &["max_size", "keep_first"]
    }

    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
        Ok(running.messages() as u64 > settings.number_or("max_size", Self::DEFAULT_MAX_SIZE)?)
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let sizes = forgetting(settings, Self::DEFAULT_MAX_SIZE, 4, 1)?;
        Ok(forgetting_plan(self.name(), chat, sizes, true))
    }
}
