//! LangChain's three context policies, as langchain-core 1.8 and langchain 1.5 run them:
//! `trim_messages` (`langchain-trim`), `SummarizationMiddleware`
//! (`langchain-summarization`) and `ClearToolUsesEdit` (`anthropic-clear-tool-uses`,
//! LangChain's client-side copy of Anthropic's server edit). All three count with
//! `count_tokens_approximately`: per message ⌈characters of content, role, name, the
//! `repr` of an AI message's tool calls and a tool message's call id ÷ 4⌉ + 3.

use serde_json::{json, Value};

use super::chat::{ChatMessage, Kind};
use super::python_repr::repr_len;
use super::running::{FastView, Running};
use super::{Inserted, Policy, PolicyPlan, PolicySettings, Section};

/// The unit of these policies' counts.
const COUNTER: &str = "langchain-approximate";

/// LangChain's price of one image block in the approximate counter.
const TOKENS_PER_IMAGE: u64 = 85;

/// `count_tokens_approximately` of one message (4 characters a token, 3 a message).
pub fn approximate_tokens(m: &ChatMessage) -> u64 {
    let mut chars = match &m.content_parts {
        None => m.text.chars().count(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter(|p| !is_image(p))
            .map(|p| match p.get("type").and_then(Value::as_str) {
                Some("text") => p.get("text").and_then(Value::as_str).map_or(0, |t| t.chars().count()),
                _ => repr_len(p),
            })
            .sum(),
        Some(other) => repr_len(other),
    };
    if m.kind == Kind::Assistant && m.content_parts.is_none() && m.has_calls() {
        chars += repr_len(&tool_calls_repr(m));
    }
    if m.kind == Kind::Tool {
        chars += m.call_id.as_deref().map_or(0, |id| id.chars().count());
    }
    chars += openai_role(m).len();
    if let Some(name) = m.name.as_deref().filter(|n| !n.is_empty()) {
        chars += name.chars().count();
    }
    (chars as u64).div_ceil(4) + 3 + TOKENS_PER_IMAGE * m.images as u64
}

fn is_image(part: &Value) -> bool {
    matches!(part.get("type").and_then(Value::as_str), Some("image" | "image_url"))
}

/// What LangChain keeps of an AI message's calls (the order of its `ToolCall` keys).
fn tool_calls_repr(m: &ChatMessage) -> Value {
    Value::Array(
        m.calls
            .iter()
            .map(|c| json!({"name": c.name, "args": c.args, "id": c.id, "type": "tool_call"}))
            .collect(),
    )
}

fn openai_role(m: &ChatMessage) -> &str {
    match m.kind {
        Kind::System if m.role == "developer" => "developer",
        Kind::System => "system",
        Kind::User => "user",
        Kind::Assistant => "assistant",
        Kind::Tool => "tool",
    }
}

fn count(messages: &[Kept]) -> u64 {
    messages.iter().map(|k| approximate_tokens(&k.message)).sum()
}

/// A message as a policy keeps it: possibly cut to part of its text.
#[derive(Debug, Clone)]
struct Kept {
    message: ChatMessage,
    truncated: bool,
}

fn kept(chat: Vec<ChatMessage>) -> Vec<Kept> {
    chat.into_iter()
        .map(|message| Kept {
            message,
            truncated: false,
        })
        .collect()
}

fn is_type(m: &ChatMessage, types: &[String]) -> bool {
    types.iter().any(|t| t == m.langchain_type())
}

/// `_default_text_splitter`: lines, each but the last keeping its newline.
fn split_lines(text: &str) -> Vec<String> {
    let parts: Vec<&str> = text.split('\n').collect();
    let last = parts.len() - 1;
    parts
        .iter()
        .enumerate()
        .map(|(k, p)| if k < last { format!("{p}\n") } else { (*p).to_owned() })
        .collect()
}

/// Which end of a message a partial keep takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Partial {
    First,
    Last,
}

/// `_first_max_tokens`: the longest prefix within `max_tokens`, then (with `partial`)
/// as many lines of the next message as fit, then back to the last message of type
/// `end_on`.
fn first_max_tokens(
    mut messages: Vec<Kept>,
    max_tokens: u64,
    partial: Option<Partial>,
    end_on: &[String],
) -> Vec<Kept> {
    if messages.is_empty() {
        return messages;
    }
    if count(&messages) <= max_tokens {
        if !end_on.is_empty() {
            while messages.last().is_some_and(|m| !is_type(&m.message, end_on)) {
                messages.pop();
            }
        }
        return messages;
    }
    // The longest prefix that fits (the counter is additive, so a scan finds what
    // LangChain's binary search finds).
    let mut idx = 0;
    let mut running = 0;
    for m in &messages {
        running += approximate_tokens(&m.message);
        if running > max_tokens {
            break;
        }
        idx += 1;
    }
    if let (Some(partial), true) = (partial, idx < messages.len()) {
        let mut excluded = messages[idx].clone();
        if excluded.message.content_parts.is_none() && !excluded.message.text.is_empty() {
            let mut splits = split_lines(&excluded.message.text);
            let base = count(&messages[..idx]);
            if partial == Partial::Last {
                splits.reverse();
            }
            let fits = |n: usize, excluded: &mut Kept| {
                let mut chosen: Vec<&String> = splits[..n].iter().collect();
                if partial == Partial::Last {
                    chosen.reverse();
                }
                excluded.message.text = chosen.into_iter().map(String::as_str).collect();
                base + approximate_tokens(&excluded.message) <= max_tokens
            };
            let (mut left, mut right) = (0usize, splits.len());
            while left < right {
                let mid = (left + right).div_ceil(2);
                if fits(mid, &mut excluded) {
                    left = mid;
                } else {
                    right = mid - 1;
                }
            }
            if left > 0 {
                fits(left, &mut excluded);
                excluded.truncated = true;
                messages.truncate(idx);
                messages.push(excluded);
                idx += 1;
            }
        }
    }
    if !end_on.is_empty() {
        while idx > 0 && !is_type(&messages[idx - 1].message, end_on) {
            idx -= 1;
        }
    }
    messages.truncate(idx);
    messages
}

/// `_last_max_tokens`: drop from the end back to `end_on`, keep the system message when
/// asked, then the longest suffix within what is left, starting at `start_on`.
fn last_max_tokens(
    mut messages: Vec<Kept>,
    max_tokens: u64,
    allow_partial: bool,
    include_system: bool,
    start_on: &[String],
    end_on: &[String],
) -> Vec<Kept> {
    if messages.is_empty() {
        return messages;
    }
    if !end_on.is_empty() {
        while messages.last().is_some_and(|m| !is_type(&m.message, end_on)) {
            messages.pop();
        }
    }
    let system = (include_system && messages.first().is_some_and(|m| m.message.kind == Kind::System))
        .then(|| messages.remove(0));
    let remaining = match &system {
        Some(s) => max_tokens.saturating_sub(approximate_tokens(&s.message)),
        None => max_tokens,
    };
    messages.reverse();
    let mut result = first_max_tokens(messages, remaining, allow_partial.then_some(Partial::Last), start_on);
    result.reverse();
    if let Some(system) = system {
        result.insert(0, system);
    }
    result
}

fn types(settings: &PolicySettings, key: &str) -> Result<Vec<String>, crate::Error> {
    let list = settings.list(key);
    for t in &list {
        if !["human", "ai", "system", "tool"].contains(&t.as_str()) {
            return Err(crate::Error::Setting(format!(
                "--set {key}={t}: expected message types human, ai, system or tool"
            )));
        }
    }
    Ok(list)
}

/// `langchain-trim`.
pub struct Trim;

impl Policy for Trim {
    fn name(&self) -> &'static str {
        "langchain-trim"
    }

    fn defaults(&self, window: u64) -> Vec<(&'static str, String)> {
        vec![
            ("max_tokens", window.to_string()),
            ("start_on", "human".to_owned()),
            ("include_system", "true".to_owned()),
        ]
    }

    fn keys(&self) -> &'static [&'static str] {
        &[
            "max_tokens",
            "strategy",
            "start_on",
            "end_on",
            "include_system",
            "allow_partial",
        ]
    }

    fn rewrites_history(&self) -> bool {
        false // trim_messages makes each call's messages; the history keeps everything
    }

    fn cost(&self, message: &ChatMessage) -> u64 {
        approximate_tokens(message)
    }

    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
        let cost = running.total_cost();
        let max = settings.number("max_tokens")?.unwrap_or(0);
        Ok(cost > max || settings.text("start_on").is_some() || settings.text("end_on").is_some())
    }

    /// `strategy=last` with at most `start_on=human` and `include_system`: the longest
    /// suffix within the budget (a binary search on the running costs), moved on to a
    /// human message. Other settings take the plan.
    fn fast_view(
        &self,
        settings: &PolicySettings,
        running: &Running,
        _placeholder: &dyn Fn(&str) -> u64,
    ) -> Result<Option<FastView>, crate::Error> {
        let start_on = types(settings, "start_on")?;
        let plain = settings.choice("strategy", &["last", "first"], "last")? == "last"
            && settings.text("end_on").is_none()
            && !settings.flag("allow_partial", false)?
            && (start_on.is_empty() || start_on == ["human"]);
        let (Some(max_tokens), true) = (settings.number("max_tokens")?, plain) else {
            return Ok(None);
        };
        let n = running.messages();
        let system = settings.flag("include_system", false)? && running.first_is_system;
        let low = usize::from(system);
        let budget = if system {
            max_tokens.saturating_sub(running.cost[1])
        } else {
            max_tokens
        };
        // The first start whose suffix fits: suffix costs shrink as the start moves on.
        let (mut lo, mut hi) = (low, n);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if running.cost[n] - running.cost[mid] <= budget {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        let mut start = lo;
        if !start_on.is_empty() {
            start = running.user_from(start).unwrap_or(n);
        }
        let counted = running.counted[n] - running.counted[start] + if system { running.counted[1] } else { 0 };
        Ok(Some(FastView {
            changed: start > low,
            messages: n - start + low,
            counted,
            removed: start - low,
        }))
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let max_tokens = settings
            .number("max_tokens")?
            .ok_or_else(|| crate::Error::Setting("langchain-trim needs --set max_tokens=N".to_owned()))?;
        let strategy = settings.choice("strategy", &["last", "first"], "last")?;
        let start_on = types(settings, "start_on")?;
        let end_on = types(settings, "end_on")?;
        let include_system = settings.flag("include_system", false)?;
        let allow_partial = settings.flag("allow_partial", false)?;
        if strategy == "first" && (!start_on.is_empty() || include_system) {
            return Err(crate::Error::Setting(
                "langchain-trim: start_on and include_system go with strategy=last (trim_messages refuses them with first)"
                    .to_owned(),
            ));
        }
        let chat = kept(chat.to_vec());
        let n = chat.len();
        let before = count(&chat);
        let result = if strategy == "first" {
            first_max_tokens(chat, max_tokens, allow_partial.then_some(Partial::First), &end_on)
        } else {
            last_max_tokens(chat, max_tokens, allow_partial, include_system, &start_on, &end_on)
        };
        let after = count(&result);
        let mut plan = PolicyPlan::unchanged(self.name(), COUNTER, n);
        for row in &mut plan.messages {
            row.section = Section::Dropped;
        }
        for k in &result {
            let i = k.message.index;
            let head = strategy == "first" || (include_system && i == 0 && k.message.kind == Kind::System);
            plan.messages[i].section = if head { Section::Head } else { Section::Tail };
            plan.messages[i].truncated = k.truncated;
        }
        plan.compacted = result.len() != n || result.iter().any(|k| k.truncated);
        plan.tokens_before = Some(before);
        plan.tokens_after = Some(after);
        if let Some(first) = result.iter().find(|k| k.message.kind != Kind::System) {
            if first.message.kind == Kind::Tool {
                plan.warnings.push(format!(
                    "the kept messages start with tool result #{} whose call was trimmed: an orphan the provider may reject (langchain#33245; start_on=human avoids it)",
                    first.message.index
                ));
            }
        }
        Ok(plan)
    }
}

/// A trigger or retention size: `tokens:N`, `messages:N` or `fraction:F`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Size {
    Tokens(u64),
    Messages(u64),
    Fraction(f64),
}

fn size(key: &str, text: &str) -> Result<Size, crate::Error> {
    let bad = || {
        crate::Error::Setting(format!(
            "--set {key}={text}: expected tokens:N, messages:N or fraction:F"
        ))
    };
    let (kind, value) = text.split_once(':').ok_or_else(bad)?;
    match kind.trim() {
        "tokens" => value.trim().parse().map(Size::Tokens).map_err(|_| bad()),
        "messages" => value.trim().parse().map(Size::Messages).map_err(|_| bad()),
        "fraction" => match value.trim().parse::<f64>() {
            Ok(f) if f > 0.0 && f <= 1.0 => Ok(Size::Fraction(f)),
            _ => Err(bad()),
        },
        _ => Err(bad()),
    }
}

/// The summary message LangChain writes in place of what it summarized.
const SUMMARY_SHAPE: &str = "Here is a summary of the conversation to date:\n\n{summary}";
/// What the summary is when the trimmed input is empty (no model call is made).
const TOO_LONG: &str = "Previous conversation was too long to summarize.";
/// Messages kept when a token retention cannot be computed.
const DEFAULT_MESSAGES_TO_KEEP: usize = 20;

/// `langchain-summarization`.
pub struct Summarization;

impl Summarization {
    /// `_find_safe_cutoff_point`: a cut on tool results moves back to the AI message whose
    /// calls they answer, else forward past them.
    fn safe_cutoff_point(chat: &[ChatMessage], cutoff: usize) -> usize {
        if cutoff >= chat.len() || chat[cutoff].kind != Kind::Tool {
            return cutoff;
        }
        let mut ids = std::collections::BTreeSet::new();
        let mut idx = cutoff;
        while idx < chat.len() && chat[idx].kind == Kind::Tool {
            if let Some(id) = chat[idx].call_id.as_deref().filter(|id| !id.is_empty()) {
                ids.insert(id);
            }
            idx += 1;
        }
        for i in (0..cutoff).rev() {
            let m = &chat[i];
            if m.kind == Kind::Assistant && m.has_calls() && m.calls.iter().any(|c| ids.contains(c.id.as_str())) {
                return i;
            }
        }
        idx
    }

    fn safe_cutoff(chat: &[ChatMessage], keep: usize) -> usize {
        if chat.len() <= keep {
            return 0;
        }
        Self::safe_cutoff_point(chat, chat.len() - keep)
    }

    fn token_cutoff(chat: &[ChatMessage], target: u64) -> usize {
        let target = target.max(1);
        let n = chat.len();
        if n == 0 {
            return 0;
        }
        let suffix: Vec<u64> = {
            let mut s = vec![0; n + 1];
            for i in (0..n).rev() {
                s[i] = s[i + 1] + approximate_tokens(&chat[i]);
            }
            s
        };
        if suffix[0] <= target {
            return 0;
        }
        // The first start whose suffix fits (suffixes shrink as the start moves on).
        let mut cutoff = (0..n).find(|&i| suffix[i] <= target).unwrap_or(n);
        if cutoff >= n {
            if n == 1 {
                return 0;
            }
            cutoff = n - 1;
        }
        Self::safe_cutoff_point(chat, cutoff)
    }
}

impl Policy for Summarization {
    fn name(&self) -> &'static str {
        "langchain-summarization"
    }

    fn defaults(&self, window: u64) -> Vec<(&'static str, String)> {
        vec![
            ("trigger", "fraction:0.8".to_owned()),
            ("max_input_tokens", window.to_string()),
        ]
    }

    fn keys(&self) -> &'static [&'static str] {
        &["trigger", "keep", "trim_tokens_to_summarize", "max_input_tokens"]
    }

    fn cost(&self, message: &ChatMessage) -> u64 {
        approximate_tokens(message)
    }

    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
        let messages = running.messages();
        let cost = running.total_cost();
        let window = settings.number("max_input_tokens")?;
        let triggers = settings
            .list("trigger")
            .iter()
            .map(|t| size("trigger", t))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(triggers.iter().any(|t| match *t {
            Size::Messages(m) => messages as u64 >= m,
            Size::Tokens(t) => cost >= t,
            Size::Fraction(f) => window.is_some_and(|w| cost >= ((w as f64 * f) as u64).max(1)),
        }))
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let triggers = settings
            .list("trigger")
            .iter()
            .map(|t| size("trigger", t))
            .collect::<Result<Vec<_>, _>>()?;
        let keep = match settings.text("keep") {
            Some(t) => size("keep", t)?,
            None => Size::Messages(DEFAULT_MESSAGES_TO_KEEP as u64),
        };
        let trim_to = settings.optional_number("trim_tokens_to_summarize", Some(4000))?;
        let window = settings.number("max_input_tokens")?;
        let fraction_of = |f: f64| window.map(|w| ((w as f64 * f) as u64).max(1));
        let n = chat.len();
        let total: u64 = chat.iter().map(approximate_tokens).sum();
        let mut plan = PolicyPlan::unchanged(self.name(), COUNTER, n);
        plan.tokens_before = Some(total);
        plan.tokens_after = Some(total);
        if triggers.is_empty() {
            plan.warnings
                .push("no trigger set: SummarizationMiddleware never summarizes (--set trigger=tokens:N)".to_owned());
        }
        let fires = triggers.iter().any(|t| match *t {
            Size::Messages(m) => n as u64 >= m,
            Size::Tokens(t) => total >= t,
            Size::Fraction(f) => fraction_of(f).is_some_and(|threshold| total >= threshold),
        });
        if !fires {
            return Ok(plan);
        }
        let cutoff = match keep {
            Size::Messages(m) => Self::safe_cutoff(chat, m as usize),
            Size::Tokens(t) => Self::token_cutoff(chat, t),
            Size::Fraction(f) => match fraction_of(f) {
                Some(t) => Self::token_cutoff(chat, t),
                None => Self::safe_cutoff(chat, DEFAULT_MESSAGES_TO_KEEP),
            },
        };
        if cutoff == 0 {
            return Ok(plan);
        }
        for row in &mut plan.messages[..cutoff] {
            row.section = Section::Summarized;
        }
        plan.compacted = true;
        plan.tokens_after = Some(chat[cutoff..].iter().map(approximate_tokens).sum());
        plan.inserted.push(Inserted {
            position: 0,
            role: "user",
            kind: "summary",
            text: SUMMARY_SHAPE.to_owned(),
            tokens: None,
        });
        // What the summarizer is sent: the summarized messages, trimmed.
        let older = kept(chat[..cutoff].to_vec());
        let input = match trim_to {
            None => older,
            Some(limit) => last_max_tokens(older, limit, true, true, &["human".to_owned()], &[]),
        };
        if input.is_empty() {
            plan.warnings.push(format!(
                "the summary is the fixed text \"{TOO_LONG}\": no human message starts the last {} tokens it would read, so no model is called and everything summarized is lost (langchain#39261; --set trim_tokens_to_summarize=none avoids it)",
                trim_to.unwrap_or_default()
            ));
        }
        plan.summarizer_input = Some(input.iter().map(|k| k.message.index).collect());
        plan.summarizer_input_truncated = Some(input.iter().filter(|k| k.truncated).map(|k| k.message.index).collect());
        // A tool result left in the tail without its call (a partial id match).
        let calls_kept: std::collections::BTreeSet<&str> = chat[cutoff..]
            .iter()
            .flat_map(|m| m.calls.iter().map(|c| c.id.as_str()))
            .collect();
        if let Some(orphan) = chat[cutoff..]
            .iter()
            .find(|m| m.kind == Kind::Tool && m.call_id.as_deref().is_some_and(|id| !calls_kept.contains(id)))
        {
            plan.warnings.push(format!(
                "tool result #{} is kept while its call is summarized: an orphan the provider may reject (langchain#38352)",
                orphan.index
            ));
        }
        Ok(plan)
    }
}

/// `anthropic-clear-tool-uses` (LangChain's `ClearToolUsesEdit`).
pub struct ClearToolUses;

/// What a cleared tool result reads.
const PLACEHOLDER: &str = "[cleared]";

impl Policy for ClearToolUses {
    fn name(&self) -> &'static str {
        "anthropic-clear-tool-uses"
    }

    fn defaults(&self, _window: u64) -> Vec<(&'static str, String)> {
        // Its own defaults hold whatever the window (see docs/policies.md).
        Vec::new()
    }

    fn keys(&self) -> &'static [&'static str] {
        &[
            "trigger",
            "keep",
            "clear_at_least",
            "exclude_tools",
            "clear_tool_inputs",
        ]
    }

    fn rewrites_history(&self) -> bool {
        false // applied to each request; the client keeps the full history
    }

    fn cost(&self, message: &ChatMessage) -> u64 {
        approximate_tokens(message)
    }

    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
        let cost = running.total_cost();
        Ok(cost > settings.number_or("trigger", 100_000)?)
    }

    fn fast_view(
        &self,
        settings: &PolicySettings,
        running: &Running,
        placeholder: &dyn Fn(&str) -> u64,
    ) -> Result<Option<FastView>, crate::Error> {
        let over = running.total_cost() > settings.number_or("trigger", 100_000)?;
        clearing_fast_view(settings, running, placeholder, over)
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let tokens = |chat: &[ChatMessage]| chat.iter().map(approximate_tokens).sum::<u64>();
        clear_tool_uses(
            PolicyPlan::unchanged(self.name(), COUNTER, chat.len()),
            chat,
            settings,
            &tokens,
        )
    }
}

/// The cheap view of a clearing edit, once `over` says the context passed its trigger:
/// without `clear_at_least`, `exclude_tools` or `clear_tool_inputs`, every clearable
/// result but the newest `keep` results is cleared; other settings take the plan
/// (`None`). Shared by LangChain's copy of the edit and the API's own
/// (`super::anthropic_api`), which differ in what they count.
pub(super) fn clearing_fast_view(
    settings: &PolicySettings,
    running: &Running,
    placeholder: &dyn Fn(&str) -> u64,
    over: bool,
) -> Result<Option<FastView>, crate::Error> {
    let plain = settings.number_or("clear_at_least", 0)? == 0
        && settings.list("exclude_tools").is_empty()
        && !settings.flag("clear_tool_inputs", false)?;
    if !plain {
        return Ok(None);
    }
    let n = running.messages();
    if !over {
        return Ok(Some(FastView {
            changed: false,
            messages: n,
            counted: running.total_counted(),
            removed: 0,
        }));
    }
    let keep = settings.number_or("keep", 3)?;
    let end = running.after_tool(running.tools[n].saturating_sub(keep));
    let cleared = running.clearable[end];
    Ok(Some(FastView {
        changed: cleared > 0,
        messages: n,
        counted: running.total_counted() - running.clearable_counted[end] + cleared * placeholder(PLACEHOLDER),
        removed: cleared as usize,
    }))
}

/// The clearing edit on `chat`, into `plan` (unchanged so far): above `trigger`, the
/// oldest tool results but the newest `keep` become the placeholder (their calls' inputs
/// too with `clear_tool_inputs`), skipping `exclude_tools`, until `clear_at_least` is
/// reclaimed when set — every size measured by `tokens`.
pub(super) fn clear_tool_uses(
    mut plan: PolicyPlan,
    chat: &[ChatMessage],
    settings: &PolicySettings,
    tokens: &dyn Fn(&[ChatMessage]) -> u64,
) -> Result<PolicyPlan, crate::Error> {
    let trigger = settings.number_or("trigger", 100_000)?;
    let keep = settings.number_or("keep", 3)? as usize;
    let clear_at_least = settings.number_or("clear_at_least", 0)?;
    let excluded = settings.list("exclude_tools");
    let clear_inputs = settings.flag("clear_tool_inputs", false)?;
    let mut chat = chat.to_vec();
    let n = chat.len();
    let before = tokens(&chat);
    plan.tokens_before = Some(before);
    plan.tokens_after = Some(before);
    if before <= trigger {
        return Ok(plan);
    }
    let results: Vec<usize> = (0..n).filter(|&i| chat[i].kind == Kind::Tool).collect();
    let candidates: &[usize] = if keep >= results.len() {
        &[]
    } else {
        &results[..results.len() - keep]
    };
    for &idx in candidates {
        let Some(ai) = (0..idx).rev().find(|&i| chat[i].kind == Kind::Assistant) else {
            continue;
        };
        let id = chat[idx].call_id.clone().unwrap_or_default();
        let Some(call) = chat[ai].calls.iter().position(|c| c.id == id) else {
            continue;
        };
        let tool = chat[idx]
            .name
            .clone()
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| chat[ai].calls[call].name.clone());
        if excluded.contains(&tool) {
            continue;
        }
        PLACEHOLDER.clone_into(&mut chat[idx].text);
        chat[idx].content_parts = None;
        chat[idx].images = 0;
        plan.messages[idx].section = Section::Cleared;
        // Arguments that were empty already are not a change to the message.
        let empty_already = chat[ai].calls[call]
            .args
            .as_object()
            .is_some_and(serde_json::Map::is_empty);
        if clear_inputs && !empty_already {
            chat[ai].calls[call].args = Value::Object(serde_json::Map::new());
            "{}".clone_into(&mut chat[ai].calls[call].arguments);
            plan.messages[ai].inputs_cleared = true;
        }
        if clear_at_least > 0 && before.saturating_sub(tokens(&chat)) >= clear_at_least {
            break;
        }
    }
    plan.tokens_after = Some(tokens(&chat));
    plan.placeholder = Some(PLACEHOLDER);
    plan.compacted = plan
        .messages
        .iter()
        .any(|r| r.section == Section::Cleared || r.inputs_cleared);
    plan.split_around_clearing();
    if plan.compacted {
        plan.warnings.push(
            "clearing rewrites history from the first cleared result on: the prompt cache is invalidated from there"
                .to_owned(),
        );
    }
    Ok(plan)
}
