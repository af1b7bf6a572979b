//! A policy over a session's whole life: every assistant message answers one model call,
//! and the agent's policy runs on the working context right before it. A policy that
//! rewrites the history (a summary, a pruned store) changes the context for every later
//! call; one that makes a view per call (trimming, masking, server-side clearing)
//! changes only what that call sends.
//!
//! Sizes are given three ways: the policy's own counter (what decides when it fires),
//! ctxlens' count of the messages sent (`counted`, the §7F estimate), and — where the log
//! recorded usage — the billed size, `overhead + ratio × counted` fitted **per epoch**
//! ([`crate::calibrate::calibrate_epochs`]): a context is billed by the fit of the epoch
//! its oldest message belongs to, so a context that continues across a real compaction
//! keeps its own lineage's overhead, and a fresh one after a firing takes the current
//! epoch's. A real compaction's own summary is left out: the replay's firings stand for it.
//!
//! The policy is asked for a plan only when its cheap test ([`Policy::may_act`]) allows,
//! so a call that cannot fire costs O(1).

use std::collections::BTreeSet;

use super::chat::{chat_view_counted, written, ChatMessage, Kind};
use super::{Policy, PolicyPlan, PolicySettings, Section, SettingError};
use crate::calibrate::{epoch_of, EpochFit};
use crate::cancel::CancelToken;
use crate::summarize::{older_message, Summarizer};
use crate::tokens::{count_json, Counts, Tokenizer};
use crate::transcript::Transcript;

/// What a policy replay needs.
pub struct Inputs<'a> {
    /// The session, every epoch (`Transcript::whole_session`).
    pub whole: &'a Transcript,
    /// Its counts (the §7F estimate).
    pub counts: &'a Counts,
    /// The policy.
    pub policy: &'a dyn Policy,
    /// Its settings.
    pub settings: &'a PolicySettings,
    /// Makes each firing's summary.
    pub summarizer: &'a dyn Summarizer,
    /// The per-epoch fits of recorded usage (empty: nothing is billed).
    pub fits: &'a [EpochFit],
    /// Stops the replay early.
    pub cancel: &'a CancelToken,
}

/// One time the policy changed the context.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Firing {
    /// The message whose call it ran before.
    pub at: usize,
    /// The context's size before, in the policy's counter.
    pub tokens_before: Option<u64>,
    /// After (its summary not included), in the policy's counter.
    pub tokens_after: Option<u64>,
    /// ctxlens' count of what was sent before and after (summary included).
    pub counted_before: u64,
    /// See `counted_before`.
    pub counted_after: u64,
    /// The billed size before and after, where the epoch's usage was fitted.
    pub billed_before: Option<u64>,
    /// See `billed_before`.
    pub billed_after: Option<u64>,
    /// Messages it removed, summarized or cleared.
    pub removed: usize,
    /// Tokens the summarizer read (counted).
    pub summary_input_tokens: u64,
    /// It may act again at once (still over its trigger after firing).
    pub loops: bool,
    /// The summary it wrote, if any.
    #[serde(skip)]
    pub summary: String,
}

/// One model call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Call {
    /// The assistant message answering it.
    pub at: usize,
    /// Messages sent.
    pub messages: usize,
    /// ctxlens' count of what was sent.
    pub counted: u64,
    /// Its billed size, where the epoch's usage was fitted.
    pub billed: Option<u64>,
    /// What the provider recorded for the real call, when the log has it (the real
    /// agent's context, not this replay's).
    pub recorded: Option<u64>,
}

/// A policy's replay.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Replayed {
    /// The policy.
    pub policy: &'static str,
    /// Its own counter's unit.
    pub counter: &'static str,
    /// Calls replayed.
    pub model_calls: usize,
    /// Every firing, in order.
    pub firings: Vec<Firing>,
    /// Firings after which it may act again at once.
    pub loops: usize,
    /// The largest context sent (counted).
    pub peak_counted: u64,
    /// The largest billed context, when every call could be billed.
    pub peak_billed: Option<u64>,
    /// Everything sent over the session (counted).
    pub counted_total: u64,
    /// Everything billed over the session, when every call could be billed.
    pub billed_total: Option<u64>,
    /// Tokens every summary read, together.
    pub summary_input_tokens: u64,
    /// Human turns removed and not restated by any summary: (message, first line).
    pub instructions_lost: Vec<(usize, String)>,
    /// Human turns in the session.
    pub instructions: usize,
    /// The first message of the session it removed.
    pub first_lost: Option<usize>,
    /// Every call.
    pub calls: Vec<Call>,
    /// The policy's warnings, each once.
    pub warnings: Vec<String>,
}

impl Replayed {
    fn empty(policy: &'static str, instructions: usize) -> Replayed {
        Replayed {
            policy,
            counter: "",
            model_calls: 0,
            firings: Vec::new(),
            loops: 0,
            peak_counted: 0,
            peak_billed: Some(0),
            counted_total: 0,
            billed_total: Some(0),
            summary_input_tokens: 0,
            instructions_lost: Vec::new(),
            instructions,
            first_lost: None,
            calls: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Adds a call to the totals (billed ones only while every call could be billed).
    fn record_call(&mut self, call: Call) {
        self.peak_counted = self.peak_counted.max(call.counted);
        self.counted_total = self.counted_total.saturating_add(call.counted);
        self.peak_billed = self.peak_billed.zip(call.billed).map(|(a, b)| a.max(b));
        self.billed_total = self.billed_total.zip(call.billed).map(|(a, b)| a.saturating_add(b));
        self.calls.push(call);
    }
}

/// The billed size of `sent` (counted `counted`): by the fit of the epoch of its oldest
/// message from the session.
fn billed(fits: &[EpochFit], sent: &[ChatMessage], counted: u64, at: usize) -> Option<u64> {
    let lineage = sent.iter().find_map(|m| m.origin).unwrap_or(at);
    epoch_of(fits, lineage)?
        .calibration
        .as_ref()
        .map(|c| c.predict(counted))
}

/// The policy's settings for a context of that lineage: Claude Code counts billed
/// tokens, so its overhead and ratio come from the lineage's fit (unless the user set
/// them) — or, while the context is still the one the agent really sent, from the
/// provider's own figure for this call (`real`: recorded, counted) — and its threshold
/// from the log's own compaction (unless set).
fn settings_for(inputs: &Inputs, sent: &[ChatMessage], at: usize, real: Option<(u64, u64)>) -> PolicySettings {
    let mut settings = inputs.settings.clone();
    if inputs.policy.name() == "claude-code" {
        let lineage = sent.iter().find_map(|m| m.origin).unwrap_or(at);
        if settings.text("overhead").is_none() {
            if let Some((recorded, counted)) = real {
                settings = settings
                    .with("overhead", recorded.saturating_sub(counted))
                    .with("ratio", 1);
            } else if let Some(fit) = epoch_of(inputs.fits, lineage).and_then(|e| e.calibration.as_ref()) {
                settings = settings.with("overhead", fit.overhead).with("ratio", fit.ratio);
            }
        }
        if settings.text("threshold").is_none() {
            if let Some(pre) = super::claude_code::logged_threshold(inputs.whole) {
                settings = settings.with("threshold", pre);
            }
        }
    }
    settings
}

/// The context a plan leaves: kept and cleared messages in order (a duplicated head
/// again where the tail starts), the summary at its position.
fn rebuild(
    inputs: &Inputs,
    context: &[ChatMessage],
    plan: &PolicyPlan,
    summary: Option<ChatMessage>,
) -> Vec<ChatMessage> {
    let mut out = Vec::with_capacity(context.len());
    let first_tail = plan.messages.iter().position(|r| r.section == Section::Tail);
    for row in &plan.messages {
        if Some(row.index) == first_tail {
            out.extend(
                plan.messages
                    .iter()
                    .filter(|r| r.duplicated)
                    .map(|r| context[r.index].clone()),
            );
        }
        let mut m = context[row.index].clone();
        match row.section {
            Section::Head | Section::Tail => {
                if let Some(tokens) = row.truncated_to_tokens {
                    m.counted = m.counted.min(tokens);
                }
                out.push(m);
            }
            Section::Cleared => {
                let text = plan.placeholder.unwrap_or("[cleared]");
                m.counted = count_json(
                    inputs.whole,
                    Tokenizer::Estimate,
                    &serde_json::json!({"role": m.role, "content": text}).to_string(),
                );
                text.clone_into(&mut m.text);
                m.content_parts = None;
                m.images = 0;
                out.push(m);
            }
            Section::Summarized | Section::Dropped => {}
        }
    }
    if let (Some(summary), Some(inserted)) = (summary, plan.inserted.first()) {
        out.insert(inserted.position.min(out.len()), summary);
    }
    for (k, m) in out.iter_mut().enumerate() {
        m.index = k;
    }
    out
}

/// The summary a firing writes, made by the summarizer from the session messages it
/// summarized, in the policy's shape and role.
fn summary_for(
    inputs: &Inputs,
    context: &[ChatMessage],
    plan: &PolicyPlan,
) -> crate::Result<Option<(ChatMessage, u64)>> {
    let Some(inserted) = plan.inserted.first() else {
        return Ok(None);
    };
    let summarized: Vec<&ChatMessage> = plan
        .messages
        .iter()
        .filter(|r| r.section == Section::Summarized)
        .map(|r| &context[r.index])
        .collect();
    let older: Vec<_> = summarized
        .iter()
        .filter_map(|m| m.origin)
        .map(|origin| older_message(inputs.whole, origin, inputs.summarizer.needs_text()))
        .collect();
    let read: u64 = summarized.iter().map(|m| m.counted).sum();
    let text = if older.is_empty() {
        String::new()
    } else {
        inputs.summarizer.summarize(&older, inputs.cancel)?
    };
    let text = inserted.text.replace("{summary}", &text);
    let counted = count_json(
        inputs.whole,
        Tokenizer::Estimate,
        &serde_json::json!({"role": inserted.role, "content": text}).to_string(),
    );
    let kind = match inserted.role {
        "assistant" => Kind::Assistant,
        "system" => Kind::System,
        _ => Kind::User,
    };
    Ok(Some((written(kind, inserted.role, text, counted), read)))
}

/// What one firing leaves: the context it sends, the firing's record, its cost in the
/// policy's counter, and the session messages it removed.
struct Fired {
    view: Vec<ChatMessage>,
    firing: Firing,
    view_cost: u64,
    gone: Vec<usize>,
}

/// Applies `plan` to `context` at the call answered by message `at` (the context's size
/// before: counted, billed).
fn fire(
    inputs: &Inputs,
    context: &[ChatMessage],
    plan: &PolicyPlan,
    at: usize,
    (counted, billed_before): (u64, Option<u64>),
) -> crate::Result<Fired> {
    let setting = |e: SettingError| crate::Error::Summary(e.to_string());
    let policy = inputs.policy;
    let summary = summary_for(inputs, context, plan)?;
    let summary_read = summary.as_ref().map_or(0, |(_, r)| *r);
    let summary_text = summary.as_ref().map(|(s, _)| s.text.to_lowercase()).unwrap_or_default();
    let view = rebuild(inputs, context, plan, summary.map(|(s, _)| s));
    let view_counted: u64 = view.iter().map(|m| m.counted).sum();
    let billed_after = billed(inputs.fits, &view, view_counted, at);
    let gone: Vec<usize> = plan
        .messages
        .iter()
        .filter(|r| matches!(r.section, Section::Summarized | Section::Dropped | Section::Cleared))
        .filter_map(|r| context[r.index].origin)
        .collect();
    let view_cost: u64 = view.iter().map(|m| policy.cost(m)).sum();
    let after_settings = settings_for(inputs, &view, at, None);
    let loops = policy.rewrites_history()
        && policy
            .may_act(&after_settings, view.len(), view_cost)
            .map_err(setting)?;
    Ok(Fired {
        firing: Firing {
            at,
            tokens_before: plan.tokens_before,
            tokens_after: plan.tokens_after,
            counted_before: counted,
            counted_after: view_counted,
            billed_before,
            billed_after,
            removed: gone.len(),
            summary_input_tokens: summary_read,
            loops,
            summary: summary_text,
        },
        view,
        view_cost,
        gone,
    })
}

/// The first message removed, and the human turns removed whose first line no summary
/// restates (case folded).
fn record_losses(inputs: &Inputs, removed: &BTreeSet<usize>, summaries: &[String], out: &mut Replayed) {
    out.first_lost = removed.iter().next().copied();
    for &origin in removed {
        if !inputs.whole.messages[origin].boundary {
            continue;
        }
        let text = inputs.whole.readable_text(origin);
        let first_line = text
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or_default()
            .trim()
            .to_owned();
        let probe: String = first_line.to_lowercase().chars().take(60).collect();
        if probe.is_empty() || !summaries.iter().any(|s| s.contains(&probe)) {
            out.instructions_lost.push((origin, first_line));
        }
    }
}

/// Replays the policy over the session.
pub fn replay(inputs: &Inputs) -> crate::Result<Replayed> {
    let setting = |e: SettingError| crate::Error::Summary(e.to_string());
    let policy = inputs.policy;
    let chat = chat_view_counted(inputs.whole, inputs.counts);
    let mut context: Vec<ChatMessage> = Vec::new();
    let (mut cost, mut counted) = (0u64, 0u64);
    let mut out = Replayed::empty(
        policy.name(),
        inputs.whole.messages.iter().filter(|m| m.boundary).count(),
    );
    let mut removed: BTreeSet<usize> = BTreeSet::new();
    // The context is still the one the agent really sent (no firing of this replay, no
    // real compaction crossed): the provider's recorded figure is its billed size.
    let mut real_lineage = true;
    let mut summaries: Vec<String> = Vec::new();
    // A view policy: what the last call's view left out.
    let mut last_gone: Vec<usize> = Vec::new();
    for m in &chat {
        if inputs.cancel.is_cancelled() {
            return Err(crate::Error::Cancelled);
        }
        // A real compaction's summary: this replay's own firings stand for it.
        if m.past_summary {
            real_lineage = false;
            continue;
        }
        let at = m.origin.unwrap_or_default();
        if m.kind == Kind::Assistant && !context.is_empty() {
            out.model_calls += 1;
            let recorded = inputs.whole.messages[at]
                .recorded()
                .map(|r| r.context_tokens)
                .filter(|&r| r > 0);
            let real = recorded.filter(|_| real_lineage).map(|r| (r, counted));
            let settings = settings_for(inputs, &context, at, real);
            let plan = if policy.may_act(&settings, context.len(), cost).map_err(setting)? {
                Some(policy.plan_chat(&context, &settings).map_err(setting)?)
            } else {
                None
            };
            let mut sent_counted = counted;
            let mut sent_billed = match real {
                Some((recorded, _)) => Some(recorded),
                None => billed(inputs.fits, &context, counted, at),
            };
            if let Some(plan) = plan.filter(|p| p.compacted) {
                if out.counter.is_empty() {
                    out.counter = plan.counter;
                }
                for w in &plan.warnings {
                    if !out.warnings.contains(w) {
                        out.warnings.push(w.clone());
                    }
                }
                let fired = fire(inputs, &context, &plan, at, (counted, sent_billed))?;
                out.loops += usize::from(fired.firing.loops);
                out.summary_input_tokens += fired.firing.summary_input_tokens;
                if !fired.firing.summary.is_empty() {
                    summaries.push(fired.firing.summary.clone());
                }
                let (view, view_cost, gone) = (fired.view, fired.view_cost, fired.gone);
                let (view_counted, view_billed) = (fired.firing.counted_after, fired.firing.billed_after);
                out.firings.push(fired.firing);
                sent_counted = view_counted;
                sent_billed = view_billed;
                if policy.rewrites_history() {
                    real_lineage = false;
                    removed.extend(gone);
                    context = view;
                    cost = view_cost;
                    counted = view_counted;
                } else {
                    last_gone = gone;
                }
            } else if !policy.rewrites_history() {
                last_gone.clear();
            }
            out.record_call(Call {
                at,
                messages: context.len(),
                counted: sent_counted,
                billed: sent_billed,
                recorded,
            });
        }
        let mut next = m.clone();
        next.index = context.len();
        cost += policy.cost(&next);
        counted += next.counted;
        context.push(next);
    }
    if out.model_calls == 0 {
        out.peak_billed = None;
        out.billed_total = None;
    }
    if out.counter.is_empty() {
        out.counter = policy
            .plan_chat(&[], &settings_for(inputs, &[], 0, None))
            .map_or("messages", |p| p.counter);
    }
    removed.extend(last_gone);
    record_losses(inputs, &removed, &summaries, &mut out);
    Ok(out)
}
