//! How full a session's context is and how far its agent's next compaction is: the
//! context meter of `ctxlens status` and of the TUI while it follows a growing log.
//!
//! The context is the last size the provider recorded when the log records usage (else
//! ctxlens' count plus the fitted or assumed system prompt and tools); the compaction
//! fires where the agent's own rule says: a Claude Code log's logged auto-compact
//! threshold, else Claude Code's default for the window; for other agents the window
//! itself (no rule of theirs is known from the log alone). What is left until it fires is
//! measured in the agent's own count where ctxlens knows it: Claude Code compares its last
//! response's prompt and output and its estimate of what followed
//! ([`crate::policy::claude_code::LiveCounter`], the figure its `preTokens` record), not
//! the prompt alone.

use serde::{Deserialize, Serialize};

use crate::tokens::Counts;
use crate::transcript::{Container, Transcript};

/// The meter's figures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Meter {
    /// The model the log names.
    pub model: Option<String>,
    /// Tokens in the context now.
    pub tokens: u64,
    /// Where they come from: `recorded` (the provider's last count) or `counted`.
    pub tokens_from: String,
    /// The model's context window.
    pub window: u64,
    /// Where the window comes from: `--context-window`, the log's own record, the
    /// model's family or table entry, or [`ASSUMED_WINDOW`] when none says.
    #[serde(default)]
    pub window_from: String,
    /// Where the next compaction fires.
    pub threshold: u64,
    /// Which rule gave the threshold.
    pub threshold_from: String,
    /// What the agent itself compares with the threshold, where ctxlens knows its
    /// arithmetic: Claude Code's last response (its prompt and its output) and, from
    /// 2.1.2, its estimate of what followed ([`crate::policy::claude_code::LiveCounter`]).
    #[serde(default)]
    pub agent_tokens: Option<u64>,
    /// Tokens until it fires (0 when past it): the threshold less `agent_tokens`, else
    /// less `tokens`.
    pub left: u64,
    /// Model calls until it fires at the session's recent growth per call, when known.
    pub calls: Option<u64>,
    /// The context as a share of the window, in percent.
    pub pct: u64,
    /// The agent compacts on its own (Claude Code, Codex); else the threshold is only the
    /// window, where the provider refuses the request (a raw API request, an agent
    /// without automatic compaction).
    #[serde(default = "compacts_by_default")]
    pub compacts: bool,
}

/// `status`'s answer (`ctxlens status --json`, Python's `Transcript.status()`).
impl crate::document::Document for Meter {
    const NAME: &'static str = "status";
}

/// An answer kept by an older version compacted whenever it named a rule.
fn compacts_by_default() -> bool {
    true
}

/// The meter of `transcript` (its live conversation) counted by `counts`; `window`
/// overrides the model's.
pub fn meter(transcript: &Transcript, counts: &Counts, window: Option<u64>) -> Meter {
    let model = transcript.model().map(str::to_owned);
    let (window, window_from) = if let Some(w) = window {
        (w, "given (--context-window)".to_owned())
    } else if let Some(w) = transcript.recorded_window() {
        (w, "recorded in the log".to_owned())
    } else if transcript.format().container == Container::ClaudeCode {
        // Claude Code measures against its own window for the model, whichever model a
        // provider serves behind it (its threshold rule reads the same).
        let model = model.as_deref().unwrap_or_default();
        (
            crate::policy::claude_code::release_window(model),
            "Claude Code's for this model (200k; 1M for a [1m] model)".to_owned(),
        )
    } else if let Some(w) = model.as_deref().and_then(crate::models::window_of) {
        (w.tokens, format!("the model's ({})", w.family))
    } else {
        (crate::policy::claude_code::DEFAULT_WINDOW, ASSUMED_WINDOW.to_owned())
    };
    let threshold = threshold_of(transcript, window);
    measured(transcript, counts, (window, window_from), threshold)
}

/// What the meter says of a window no record, model or option gives: Claude Code's
/// default is assumed.
pub const ASSUMED_WINDOW: &str = "assumed: no window known for this model (--context-window N gives it)";

/// The meter of `transcript` read on from the read `earlier` measured: the window and
/// the threshold still hold (reading on adds no compaction and names no other model),
/// so only the context and its growth are measured again, from the last calls.
pub fn meter_read_on(transcript: &Transcript, counts: &Counts, earlier: &Meter) -> Meter {
    let threshold = (earlier.threshold, earlier.threshold_from.clone());
    measured(
        transcript,
        counts,
        (earlier.window, earlier.window_from.clone()),
        threshold,
    )
}

/// Where the agent's next compaction fires in `transcript` for `window`, and which rule
/// says so.
fn threshold_of(transcript: &Transcript, window: u64) -> (u64, String) {
    if transcript.format().container == Container::Codex {
        // Codex's default `auto_compact_token_limit`: 90% of the model's window (the
        // codex policy's default; a config that sets it lower is not in the rollout). The
        // window the rollout records is the usable share of the model's.
        let model = match transcript.recorded_window() {
            Some(recorded) if recorded == window => transcript.model_window().unwrap_or(window),
            _ => window,
        };
        return (
            crate::policy::codex::default_limit(model),
            "codex (90% of the model's window, its default)".to_owned(),
        );
    }
    if transcript.format().container == Container::GeminiCli {
        // gemini-cli compresses once the last prompt reaches half the model's token limit
        // (`DEFAULT_COMPRESSION_TOKEN_THRESHOLD = 0.5`, chatCompressionService.ts at
        // 02b2885c; settings' `model.compressionThreshold` changes it, and is not in
        // the recording).
        return (
            window / 2,
            "gemini-cli (half the window, its default compression threshold)".to_owned(),
        );
    }
    if transcript.format().container == Container::Opencode {
        return crate::policy::opencode::session_threshold(transcript, window);
    }
    if transcript.format().container == Container::CopilotCli {
        // Copilot CLI compacts in the background past a threshold it does not publish;
        // where its last automatic compaction began is the best known bound.
        let last_auto = transcript
            .compactions()
            .iter()
            .rev()
            .find(|c| c.trigger.as_deref() == Some("auto"))
            .and_then(|c| c.pre_tokens);
        if let Some(pre) = last_auto {
            return (
                pre,
                "copilot-cli (where its last automatic compaction began in this log)".to_owned(),
            );
        }
        return (window, UNPUBLISHED_THRESHOLD.to_owned());
    }
    if transcript.format().container == Container::ClaudeCode {
        // The live epoch holds the compaction that began it; only when that one was not
        // automatic can an earlier automatic one be further back (read the whole log then).
        let known =
            crate::policy::claude_code::known_threshold(transcript, transcript.messages().len(), None).or_else(|| {
                (!transcript.compactions().is_empty())
                    .then(|| transcript.whole_session().ok())
                    .flatten()
                    .and_then(|whole| crate::policy::claude_code::known_threshold(&whole, whole.messages().len(), None))
            });
        match known {
            Some((t, source)) => (t, format!("claude-code ({source})")),
            None => (
                crate::policy::claude_code::default_threshold(window, 64_000, None),
                "claude-code (its default for the window)".to_owned(),
            ),
        }
    } else {
        (window, NO_COMPACTION.to_owned())
    }
}

/// What the meter says of an agent that compacts on its own at a threshold it does not
/// publish, where its log shows no compaction (Copilot CLI): the window stands in, and
/// no distance to the compaction is told.
pub const UNPUBLISHED_THRESHOLD: &str =
    "copilot-cli compacts in the background at a threshold it does not publish, and this log shows no compaction: the window stands in";

/// What the meter says of an agent with no automatic compaction it knows of.
pub const NO_COMPACTION: &str = "the window (no automatic compaction known for this agent)";

/// The meter's figures with the window and threshold known.
fn measured(transcript: &Transcript, counts: &Counts, window: (u64, String), threshold: (u64, String)) -> Meter {
    let model = transcript.model().map(str::to_owned);
    let (window, window_from) = window;
    let (threshold, threshold_from) = threshold;
    // The last eleven recorded, read from the end: a followed log's meter costs what the
    // last calls wrote, not the whole session.
    let mut recorded: Vec<u64> = transcript
        .messages()
        .iter()
        .rev()
        .filter_map(|m| m.recorded().map(|r| r.context_tokens()))
        .filter(|&t| t > 0)
        .take(11)
        .collect();
    recorded.reverse();
    let (tokens, tokens_from) = if let Some(&last) = recorded.last() {
        (last, "recorded".to_owned())
    } else if let Some(last) = transcript.recorded_context() {
        (last, "recorded".to_owned())
    } else {
        let overhead = crate::calibrate::calibrate(transcript, counts)
            .map_or(crate::policy::claude_code::ASSUMED_OVERHEAD, |c| c.overhead);
        (counts.total() + overhead, "counted".to_owned())
    };
    let agent_tokens = live_counter(transcript).and_then(|c| c.count());
    let left = threshold.saturating_sub(agent_tokens.unwrap_or(tokens));
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
        window_from,
        threshold,
        agent_tokens,
        left,
        calls: growth.filter(|&g| g > 0).map(|g| left.div_ceil(g)),
        pct: (tokens * 100).checked_div(window).unwrap_or(0),
        compacts: threshold_from != NO_COMPACTION,
        threshold_from,
    }
}

/// A Claude Code log's counter ([`crate::policy::claude_code::LiveCounter`]) read from
/// the first line of its live conversation's last response to the end of the file; `None`
/// for other logs.
fn live_counter(transcript: &Transcript) -> Option<crate::policy::claude_code::LiveCounter> {
    if transcript.format().container != Container::ClaudeCode {
        return None;
    }
    let mut counter = crate::policy::claude_code::LiveCounter::new(transcript.client_version());
    let last_response = transcript
        .messages()
        .iter()
        .rev()
        .find(|m| m.recorded().is_some() && m.role.as_str() == "assistant");
    // (no response yet in the live conversation: nothing to count from)
    let from = last_response
        .and_then(|m| m.records().iter().map(|r| r.start).min())
        .unwrap_or(usize::MAX);
    let text = transcript.text();
    for record in transcript.log_records().iter().filter(|r| r.range.start >= from) {
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(&text[record.range.clone()]) {
            counter.feed(&value);
        }
    }
    Some(counter)
}

/// What brings a Claude Code log's or a Codex rollout's [`Meter`] up to date with the
/// lines written after it was made, without reading the log again (`ctxlens status` keeps it with its answer, so
/// a status bar asking every few seconds of a session being written reads only what was
/// written since).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MeterState {
    /// Bytes of the file read: its complete lines.
    pub read_to: u64,
    /// The context sizes the provider recorded for the last calls (at most
    /// [`RECENT_CALLS`]), oldest first.
    pub recent: Vec<u64>,
    /// The `message.id` of the last call counted: a response written over several lines
    /// is one call, measured by its last line.
    pub last_id: Option<String>,
    /// A Claude Code log's counter, read to `read_to`.
    #[serde(default)]
    pub counter: Option<crate::policy::claude_code::LiveCounter>,
    /// The log is a Codex rollout (else a Claude Code log).
    #[serde(default)]
    pub codex: bool,
    /// A Codex rollout's reader of usage where the read ended: which item the next
    /// `token_count` measures, and a usage still waiting for its answer.
    #[serde(default)]
    pub codex_usage: Option<crate::transcript::UsageReader>,
}

/// How many recorded calls the recent growth per call is measured over.
pub const RECENT_CALLS: usize = 11;

impl Meter {
    /// The state to read on from: for a Claude Code log whose context size is recorded
    /// (the meter then depends only on its recorded calls and its compactions).
    pub fn state(&self, transcript: &Transcript) -> Option<MeterState> {
        let container = &transcript.format().container;
        if !matches!(container, Container::ClaudeCode | Container::Codex) || self.tokens_from != "recorded" {
            return None;
        }
        let calls: Vec<&crate::transcript::Message> = transcript
            .messages()
            .iter()
            .filter(|m| m.recorded().is_some_and(|r| r.context_tokens() > 0))
            .collect();
        let recent = calls[calls.len().saturating_sub(RECENT_CALLS)..]
            .iter()
            .filter_map(|m| m.recorded().map(|r| r.context_tokens()))
            .collect();
        let last_id = calls.last().and_then(|m| {
            let record = m.records().last()?;
            let value: serde_json::Value = serde_json::from_str(&transcript.text()[record.clone()]).ok()?;
            value.pointer("/message/id")?.as_str().map(str::to_owned)
        });
        Some(MeterState {
            read_to: transcript.text().rfind('\n').map_or(0, |i| i as u64 + 1),
            recent,
            last_id,
            counter: live_counter(transcript),
            codex: *container == Container::Codex,
            codex_usage: transcript.codex_usage.as_deref().cloned(),
        })
    }

    /// This meter with `appended` (complete lines written after `state.read_to`) read;
    /// `None` when only a whole read can tell: a compaction, a new conversation root, or
    /// another model among them.
    pub fn read_on(&self, state: &MeterState, appended: &str) -> Option<(Meter, MeterState)> {
        let mut next = state.clone();
        next.read_to += appended.len() as u64;
        if state.codex {
            codex_calls(&mut next, appended)?;
        } else {
            claude_code_calls(self, &mut next, appended)?;
        }
        Some((self.with_recent(&mut next), next))
    }

    /// This meter with the recorded calls of `state` (the last [`RECENT_CALLS`] kept).
    fn with_recent(&self, next: &mut MeterState) -> Meter {
        let excess = next.recent.len().saturating_sub(RECENT_CALLS);
        next.recent.drain(..excess);
        let tokens = next.recent.last().copied().unwrap_or(self.tokens);
        let agent_tokens = next
            .counter
            .as_ref()
            .and_then(crate::policy::claude_code::LiveCounter::count);
        let left = self.threshold.saturating_sub(agent_tokens.unwrap_or(tokens));
        let growth = match (next.recent.first(), next.recent.last()) {
            (Some(&a), Some(&b)) if next.recent.len() > 1 && b > a => Some((b - a) / (next.recent.len() as u64 - 1)),
            _ => None,
        };
        Meter {
            tokens,
            agent_tokens,
            left,
            calls: growth.filter(|&g| g > 0).map(|g| left.div_ceil(g)),
            pct: (tokens * 100).checked_div(self.window).unwrap_or(0),
            ..self.clone()
        }
    }
}

/// The calls a Claude Code log's `appended` lines record, added to `next`; `None` when
/// only a whole read can tell (a compaction, a new root, another model).
fn claude_code_calls(meter: &Meter, next: &mut MeterState, appended: &str) -> Option<()> {
    for line in appended.lines().filter(|l| !l.trim().is_empty()) {
        let record: serde_json::Value = serde_json::from_str(line).ok()?;
        let field = |key: &str| record.get(key).and_then(serde_json::Value::as_str);
        if record.get("isSidechain").and_then(serde_json::Value::as_bool) == Some(true) {
            continue;
        }
        if field("subtype") == Some("compact_boundary")
            || (field("uuid").is_some() && record.get("parentUuid").is_some_and(serde_json::Value::is_null))
        {
            return None;
        }
        if let Some(counter) = &mut next.counter {
            counter.feed(&record);
        }
        if field("type") != Some("assistant") || record.get("isMeta").and_then(serde_json::Value::as_bool) == Some(true)
        {
            continue;
        }
        let message = record.get("message")?;
        if let Some(model) = message.get("model").and_then(serde_json::Value::as_str) {
            if meter.model.as_deref().is_some_and(|m| m != model) {
                return None;
            }
        }
        let Some(usage) = message.get("usage") else {
            continue;
        };
        let n = |k: &str| usage.get(k).and_then(serde_json::Value::as_u64).unwrap_or(0);
        let context = n("input_tokens")
            .saturating_add(n("cache_creation_input_tokens"))
            .saturating_add(n("cache_read_input_tokens"));
        let id = message.get("id").and_then(serde_json::Value::as_str).map(str::to_owned);
        if id.is_some() && id == next.last_id {
            // A further line of the same response: its last usage stands.
            if context > 0 {
                if let Some(last) = next.recent.last_mut() {
                    *last = context;
                }
            }
            continue;
        }
        if context > 0 {
            next.recent.push(context);
            next.last_id = id;
        }
    }
    Some(())
}

/// A rollout `response_item`'s role as the reader names it: a message item's role,
/// another item's type.
fn item_role(record: &serde_json::Value) -> Option<&str> {
    match record.pointer("/payload/type")?.as_str()? {
        "message" => record.pointer("/payload/role")?.as_str(),
        other => Some(other),
    }
}

/// The calls a Codex rollout's `appended` lines record, added to `next`, as a whole read
/// gives each response its usage ([`crate::transcript::UsageReader`]); `None` when only a
/// whole read can tell (a compaction, a prompt rebuilt from an event).
fn codex_calls(next: &mut MeterState, appended: &str) -> Option<()> {
    // Without the reader's state (a state an older release kept) only a whole read says.
    let mut reader = next.codex_usage.clone()?;
    for line in appended.lines().filter(|l| !l.trim().is_empty()) {
        let record: serde_json::Value = serde_json::from_str(line).ok()?;
        let kind = record.get("type").and_then(serde_json::Value::as_str);
        let payload_kind = record.pointer("/payload/type").and_then(serde_json::Value::as_str);
        // A usage for a new call, or (`true`) again for the call measured last.
        let measured = match (kind, payload_kind) {
            (Some("compacted"), _) | (Some("event_msg"), Some("user_message")) => return None,
            (Some("response_item"), _) => reader
                .item(item_role(&record).is_some_and(crate::transcript::answers_a_call))
                .map(|usage| (usage, false)),
            (Some("event_msg"), Some("token_count")) => match record.get("payload").map(|p| reader.event(p)) {
                Some(crate::transcript::Measured::LastAnswer(usage, again)) => Some((usage, again)),
                _ => None,
            },
            _ => None,
        };
        if let Some((usage, again)) = measured {
            let context = usage.context_tokens();
            if again {
                next.recent.pop();
            }
            if context > 0 {
                next.recent.push(context);
            }
        }
    }
    next.codex_usage = Some(reader);
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Copilot CLI log records no usage per call; its `session.shutdown` records the
    /// context's size as the CLI counted it, which the meter reads while nothing of the
    /// conversation follows it.
    #[test]
    fn a_copilot_session_is_metered_by_the_size_its_shutdown_recorded() {
        let sample = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../tests/data/other-agents/copilot-cli/events.jsonl"),
        )
        .expect("the sample");
        let shutdown = serde_json::json!({"type": "session.shutdown", "data": {"shutdownType": "routine",
            "currentTokens": 35_322, "systemTokens": 9_891, "conversationTokens": 10_223, "toolDefinitionsTokens": 15_204},
            "id": "e99", "timestamp": "2026-04-23T17:18:20.178Z", "parentId": null});
        let meter_of = |text: String| {
            let log = Transcript::parse("events.jsonl", text.into_bytes(), None).expect("a Copilot CLI log");
            let counts = Counts::compute(&log, crate::tokens::Tokenizer::Estimate);
            meter(&log, &counts, None)
        };
        let ended = meter_of(format!("{sample}{shutdown}\n"));
        assert_eq!((ended.tokens, ended.tokens_from.as_str()), (35_322, "recorded"));
        let resumed = serde_json::json!({"type": "user.message", "data": {"content": "now the docs"},
            "id": "e100", "timestamp": "2026-04-24T09:00:00.000Z", "parentId": "e99"});
        let grown = meter_of(format!("{sample}{shutdown}\n{resumed}\n"));
        assert_eq!(
            grown.tokens_from, "counted",
            "a message after the shutdown: its figure is old"
        );
        let untold = meter_of(sample);
        assert_eq!(untold.tokens_from, "counted");
        // Copilot compacts on its own; with no compaction in the log its threshold is not
        // known, and the meter says so rather than "no automatic compaction".
        assert!(untold.compacts);
        assert_eq!(untold.threshold_from, UNPUBLISHED_THRESHOLD);
    }

    /// At many lines of real Claude Code logs: the meter of the first part brought up to
    /// date with the rest equals the meter of the whole, whenever it answers.
    #[test]
    fn reading_on_gives_the_meter_of_the_whole() {
        let (answered, tried) = read_on_at_many_lines(crate::test_data::real_claude_code_logs(), 9);
        assert!(answered * 10 > tried * 7, "read on at {answered} of {tried} cuts");
    }

    /// The same for Codex rollouts (with `token_count` events, as Codex writes them).
    #[test]
    fn reading_a_codex_rollout_on_gives_the_meter_of_the_whole() {
        let (answered, tried) = read_on_at_many_lines(crate::test_data::real_codex_logs(), 1);
        assert!(
            tried > 50 && answered * 10 > tried * 6,
            "read on at {answered} of {tried} cuts"
        );
    }

    /// Cuts each log at every `step`-th line and compares the meter read on with the
    /// meter of a whole read; how many cuts were read on, of how many tried.
    fn read_on_at_many_lines(logs: Vec<(&'static str, String)>, step: usize) -> (usize, usize) {
        let (mut answered, mut tried) = (0, 0);
        for (name, text) in logs {
            let ends = crate::test_data::line_ends(&text);
            let meter_of = |end: usize| {
                let t = Transcript::parse(name, text.as_bytes()[..end].to_vec(), None).expect("loads");
                let counts = Counts::compute(&t, crate::tokens::Tokenizer::Estimate);
                let m = meter(&t, &counts, None);
                let state = m.state(&t);
                (m, state)
            };
            for (k, &cut) in ends.iter().enumerate().step_by(step) {
                let Some(&end) = ends.get(k + 1 + k % 13) else {
                    continue;
                };
                let (first, Some(state)) = meter_of(cut) else {
                    continue;
                };
                tried += 1;
                let Some((on, next)) = first.read_on(&state, &text[cut..end]) else {
                    continue;
                };
                answered += 1;
                let (whole, whole_state) = meter_of(end);
                assert_eq!(on, whole, "{name} cut at {cut}, read to {end}");
                let whole_state = whole_state.expect("a whole read has a state where its part had one");
                assert_eq!(next.recent, whole_state.recent, "{name} cut at {cut}");
                assert_eq!(next.codex_usage, whole_state.codex_usage, "{name} cut at {cut}");
            }
        }
        eprintln!("meter read on at {answered} of {tried} cuts");
        (answered, tried)
    }
}
