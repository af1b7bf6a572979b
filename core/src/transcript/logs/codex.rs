//! Codex rollouts: `response_item` payloads are the history, `compacted` records past
//! compactions (with the replacement history the agent continued from), `token_count`
//! events recorded usage; everything else is a note.

use serde_json::Value;

use super::{lines, note_incomplete, one_line, text_of, value, Conversation, Line, Loaded, Note, PastCompaction};
use crate::error::LoadError;
use crate::transcript::dialect::Dialect;
use crate::transcript::format::{json_error, span_of};
use crate::transcript::message::{self, Message, Recorded, PREVIEW_CHARS};

/// A Codex `compacted` record in the whole session: the summary the agent got becomes a
/// message marked as a past summary; the replacement history (kept user messages and the
/// summary again) is the next epoch's start, not new conversation. Returns the message.
fn whole_compaction(
    source: &str,
    text: &str,
    line: &Line,
    payload: &Value,
    pre_tokens: Option<u64>,
    loaded: &mut Loaded,
) -> Result<usize, LoadError> {
    let summary = payload.get("message").and_then(Value::as_str).unwrap_or_default();
    let history = payload.get("replacement_history").and_then(Value::as_array);
    let index = loaded.messages.len();
    // A remote compaction records no summary text: its summary is the encrypted
    // compaction item of the history, which stands as the summary message (sized as
    // Codex sizes it, from the sealed content's length).
    let sealed = history
        .into_iter()
        .flatten()
        .find(|item| item.get("type").and_then(Value::as_str) == Some("compaction"))
        .filter(|_| summary.trim().is_empty());
    let mut m = match sealed {
        Some(item) => super::synthetic_message(source, text, Dialect::Responses, item.to_string(), &line.range, index)?,
        None => user_text_message(source, text, line, summary, index)?,
    };
    m.past_summary = true;
    m.boundary = false;
    loaded.messages.push(m);
    // What it kept besides: the user's messages and the context Codex injects again
    // (developer instructions), not the summary itself.
    let kept = history
        .into_iter()
        .flatten()
        .filter(|item| matches!(item.get("role").and_then(Value::as_str), Some("user" | "developer")))
        .map(|item| message::readable_text(&item.to_string()))
        .filter(|t| t.trim() != summary.trim())
        .collect();
    loaded.compactions.push(PastCompaction {
        line: line.number,
        at: index,
        trigger: None,
        pre_tokens,
        summary_message: Some(index),
        kept,
        post_tokens: None,
        elsewhere: false,
    });
    loaded.notes.push(Note {
        before: index,
        line: line.number,
        kind: "past compaction".into(),
        text: "compacted here".to_owned(),
    });
    Ok(index)
}

/// A Codex `compacted` record in the live view: with a replacement history, the model's
/// history is now that history (what came before is an earlier epoch, no longer part of
/// the live conversation). Returns the record's last message, if it made any.
fn live_compaction(
    source: &str,
    text: &str,
    line: &Line,
    payload: &Value,
    pre_tokens: Option<u64>,
    loaded: &mut Loaded,
) -> Result<Option<usize>, LoadError> {
    let replacement = payload.get("replacement_history").and_then(Value::as_array);
    let at = if replacement.is_some() {
        0
    } else {
        loaded.messages.len()
    };
    loaded.compactions.clear();
    loaded.compactions.push(PastCompaction {
        line: line.number,
        at,
        trigger: None,
        pre_tokens,
        summary_message: None,
        kept: Vec::new(),
        post_tokens: None,
        elsewhere: false,
    });
    let mut owner = None;
    if let Some(items) = replacement {
        for record in &mut loaded.records {
            if record.message.is_some() {
                record.message = None;
                record.active = false;
            }
        }
        loaded.messages.clear();
        for item in items {
            let index = loaded.messages.len();
            let m = super::synthetic_message(source, text, Dialect::Responses, item.to_string(), &line.range, index)?;
            loaded.messages.push(m);
        }
        owner = loaded.messages.len().checked_sub(1);
    }
    let note = match replacement {
        Some(items) => format!("compacted here: history replaced by {} items", items.len()),
        None => "compacted here".to_owned(),
    };
    loaded.notes.push(Note {
        before: at,
        line: line.number,
        kind: "past compaction".into(),
        text: note,
    });
    Ok(owner)
}

/// Whether the message just before holds `prompt` as a user message: Codex logs a
/// prompt's `event_msg` right after the response item that carries it, so that item is
/// the same prompt logged twice. Only the message just before, and only after the last
/// compaction (`since`): a look further back could reach an earlier turn's prompt, and a
/// compacted output — which keeps less of what came before — would then read the event
/// differently (the round-trip fuzz target found both).
fn history_holds_prompt(text: &str, messages: &[Message], since: usize, prompt: &str) -> bool {
    messages.len() > since
        && messages.last().is_some_and(|m| {
            let raw = m.synthetic().unwrap_or(&text[m.span.clone()]);
            m.role == "user" && message::readable_text(raw).trim() == prompt.trim()
        })
}

/// A user prompt recorded only as a Codex event, as the message Codex sent: a human
/// turn, marked as taken from an event. Returns its index.
fn prompt_message(
    source: &str,
    text: &str,
    line: &Line,
    prompt: &str,
    loaded: &mut Loaded,
) -> Result<usize, LoadError> {
    let index = loaded.messages.len();
    let mut m = user_text_message(source, text, line, prompt, index)?;
    m.from_event = true;
    loaded.messages.push(m);
    Ok(index)
}

/// A Responses user message holding `body` as its one text part, written for a record
/// that is not itself a message (an event, a compaction): the JSON is synthesized (so
/// it is what is counted and shown) and the record is what export writes back.
fn user_text_message(source: &str, text: &str, line: &Line, body: &str, index: usize) -> Result<Message, LoadError> {
    let json =
        serde_json::json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": body}]})
            .to_string();
    super::synthetic_message(source, text, Dialect::Responses, json, &line.range, index)
}

/// The share of the model's window a rollout records as `model_context_window`:
/// `effective_context_window_percent`, 95 unless the model catalog says otherwise
/// (`codex-rs/protocol/src/openai_models.rs`; 258,400 for a 272,000-token model).
const EFFECTIVE_WINDOW_PERCENT: u64 = 95;

/// The model's window behind the usable one a rollout records.
pub(crate) fn model_window_of(recorded: u64) -> u64 {
    recorded * 100 / EFFECTIVE_WINDOW_PERCENT
}

/// The most of a tool's output, in tokens, a turn keeps in the history it sends: its
/// `truncation_policy` (`{"mode": "tokens"|"bytes", "limit": N}`, four bytes a token),
/// which Codex applies with a fifth more for the output's serialisation
/// (`ContextManager::process_item`, `codex-rs/core/src/context_manager/history.rs`).
/// `None` where the turn records none: the output is then sized as the rollout holds it.
fn output_limit_of(turn_context: &Value) -> Option<u64> {
    let policy = turn_context.get("truncation_policy")?;
    let limit = policy.get("limit").and_then(Value::as_u64)?;
    let tokens = match policy.get("mode").and_then(Value::as_str)? {
        "tokens" => limit,
        "bytes" => limit.div_ceil(4),
        _ => return None,
    };
    Some(tokens + tokens / 5)
}

/// The usage a `token_count` event's payload records for its call.
pub(crate) fn usage_of(payload: &Value) -> Option<Recorded> {
    let u = payload.pointer("/info/last_token_usage")?;
    let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0);
    let cached = n("cached_input_tokens");
    Some(Recorded {
        input_tokens: n("input_tokens").saturating_sub(cached),
        cache_read_tokens: cached,
        output_tokens: n("output_tokens"),
        reasoning_tokens: n("reasoning_output_tokens"),
        ..Recorded::default()
    })
}

/// Gives each response the usage a `token_count` event measured for it. Where the event
/// comes differs by release: right after the response's items (0.117, 0.118); after the
/// tool outputs those items asked for (0.14x); or before the items, right after the
/// reasoning event, with the same usage sent again after the outputs (0.58). So an event
/// measures the last item that answers a call written since the event before it (of any
/// kind), and where there is none, the response to come. Its state after a read is kept
/// with the transcript, so that a meter reading on goes on from it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct UsageReader {
    /// The session's cumulative usage as the last event gave it (its JSON).
    last_totals: Option<String>,
    /// A usage read before the response it measures.
    pending: Option<Recorded>,
    /// An item answering a call was written since the last event.
    answered: bool,
    /// The last such item took a waiting usage, with a prompt, when it was read.
    answer_measured: bool,
}

/// What a `token_count` event measured ([`UsageReader::event`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Measured {
    /// The last item answering a call (written since the event before); `true` when
    /// that item already took a waiting usage with a prompt, which this one replaces.
    LastAnswer(Recorded, bool),
    /// The response to come (kept until its first answering item).
    NextAnswer(Recorded),
    /// No response: a usage sent again, or an estimate.
    Nothing,
}

impl UsageReader {
    /// A response item is read (`answers`: it answers a call): the usage waiting for it,
    /// if one was.
    pub fn item(&mut self, answers: bool) -> Option<Recorded> {
        if !answers {
            return None;
        }
        self.answered = true;
        let waiting = self.pending.take();
        // (a usage with no prompt measures no call a meter counts)
        self.answer_measured = waiting.is_some_and(|u| u.context_tokens() > 0);
        waiting
    }

    /// The `token_count` event `payload` is read. Codex sends its last usage again when
    /// a turn starts and after a compaction (the session's totals unchanged), and after a
    /// compaction an estimate with no input or output: neither measures a response.
    pub fn event(&mut self, payload: &Value) -> Measured {
        let totals = payload.pointer("/info/total_token_usage").map(Value::to_string);
        let repeated = totals.is_some() && totals == self.last_totals;
        if totals.is_some() {
            self.last_totals = totals;
        }
        let answered = std::mem::take(&mut self.answered);
        let Some(usage) =
            usage_of(payload).filter(|u| !repeated && u.input_tokens + u.cache_read_tokens + u.output_tokens > 0)
        else {
            return Measured::Nothing;
        };
        if answered {
            Measured::LastAnswer(usage, std::mem::take(&mut self.answer_measured))
        } else {
            self.pending = Some(usage);
            Measured::NextAnswer(usage)
        }
    }

    /// A compaction replaced the history: nothing read before it is waiting.
    pub fn compacted(&mut self) {
        self.pending = None;
        self.answered = false;
        self.answer_measured = false;
    }
}

/// The loader's side of [`UsageReader`]: which message the last answer is.
#[derive(Default)]
struct Responses {
    reader: UsageReader,
    /// The last message answering a call.
    last_answer: Option<usize>,
}

impl Responses {
    /// Response item `m`, message `index`, is read: it takes a usage waiting for it.
    fn item(&mut self, index: usize, m: &mut Message) {
        let answers = answers_a_call(&m.role);
        if let Some(usage) = self.reader.item(answers) {
            m.set_recorded(Some(usage));
        }
        if answers {
            self.last_answer = Some(index);
        }
    }

    /// A `token_count` event is read: the usage it measured, given to the message it
    /// measures among `messages` when that one is read already.
    fn event(&mut self, payload: &Value, messages: &mut [Message]) -> Option<Recorded> {
        match self.reader.event(payload) {
            Measured::LastAnswer(usage, _) => {
                if let Some(m) = self.last_answer.and_then(|i| messages.get_mut(i)) {
                    m.set_recorded(Some(usage));
                }
                Some(usage)
            }
            Measured::NextAnswer(usage) => Some(usage),
            Measured::Nothing => None,
        }
    }
}

/// Whether an item of this role answers a model call (an assistant message, a
/// `*_call`): what a `token_count` measures. A reasoning item comes before the answer.
pub(crate) fn answers_a_call(role: &str) -> bool {
    Dialect::Responses.rules().is_model_output(role) && role != "reasoning"
}

/// A Codex rollout: `response_item` payloads are the history; `compacted` records are
/// past compactions; `token_count` events are recorded usage; the rest are notes.
pub(crate) fn codex(source: &str, text: &str, start: usize, conversation: Conversation) -> Result<Loaded, LoadError> {
    let (lines, incomplete) = lines(source, text, start)?;
    let mut loaded = Loaded::empty();
    let mut last_recorded = None;
    let mut responses = Responses::default();
    // The turn's limit on a tool output kept in the history (tokens).
    let mut output_limit: Option<u64> = None;
    // A user prompt taken from an event, while no model output has followed it: a
    // response item holding the same prompt replaces it.
    let mut prompt_from_event: Option<(usize, String)> = None;
    for line in &lines {
        let kind = text_of(line.fields.get("type"));
        let payload_raw = line.fields.get("payload");
        let payload = value(payload_raw);
        let mut owner = None;
        // Each turn names the model it runs on; the last one is the session's now.
        if kind == "turn_context" {
            if let Some(model) = payload.get("model").and_then(Value::as_str) {
                loaded.model = Some(model.to_owned());
            }
            output_limit = output_limit_of(&payload);
        }
        match (kind.as_str(), payload_raw) {
            ("response_item", Some(raw)) => {
                let span = span_of(text, raw.get());
                let (mut m, _) = Dialect::Responses
                    .rules()
                    .view(raw.get(), span, 0, PREVIEW_CHARS)
                    .map_err(|e| json_error(source, text, line.range.start, &e))?;
                if let Some((at, prompt)) = prompt_from_event.take() {
                    let same = m.role == "user" && message::readable_text(raw.get()).trim() == prompt.trim();
                    if same && at + 1 == loaded.messages.len() {
                        loaded.messages.pop();
                    } else if m.role == "user" {
                        prompt_from_event = Some((at, prompt));
                    }
                }
                let index = loaded.messages.len();
                m.extra_mut().records = vec![line.range.clone()];
                responses.item(index, &mut m);
                if m.role.ends_with("_call_output") && output_limit.is_some() {
                    m.extra_mut().kept_output_tokens = output_limit;
                }
                loaded.messages.push(m);
                owner = Some(index);
            }
            ("event_msg", _) if payload.get("type").and_then(Value::as_str) == Some("user_message") => {
                let prompt = payload.get("message").and_then(Value::as_str).unwrap_or_default();
                let since = loaded.compactions.last().map_or(0, |c| c.at);
                if !history_holds_prompt(text, &loaded.messages, since, prompt) {
                    let index = prompt_message(source, text, line, prompt, &mut loaded)?;
                    prompt_from_event = Some((index, prompt.to_owned()));
                    owner = Some(index);
                }
            }
            ("event_msg", _) if payload.get("type").and_then(Value::as_str) == Some("token_count") => {
                if let Some(usage) = responses.event(&payload, &mut loaded.messages) {
                    last_recorded = Some(usage.input_tokens + usage.cache_read_tokens);
                }
            }
            // A compaction rebuilds the history: an event prompt's index no longer names
            // it (replacing "it" would drop the last replacement item instead).
            ("compacted", _) if conversation == Conversation::Whole => {
                prompt_from_event = None;
                responses.reader.compacted();
                owner = Some(whole_compaction(
                    source,
                    text,
                    line,
                    &payload,
                    last_recorded,
                    &mut loaded,
                )?);
            }
            ("compacted", _) => {
                // A compaction ends the wait for a response item repeating the event
                // prompt: one after it is a new turn's (and a compacted output, which
                // leaves the compaction record out, must read the same).
                prompt_from_event = None;
                responses.reader.compacted();
                owner = live_compaction(source, text, line, &payload, last_recorded, &mut loaded)?;
            }
            _ => {
                let sub = payload.get("type").and_then(Value::as_str).unwrap_or_default();
                let what = one_line(&message::readable_text(payload_raw.map_or("", |r| r.get())), 80);
                loaded.notes.push(Note {
                    before: loaded.messages.len(),
                    line: line.number,
                    kind: format!("{kind} {sub}").trim().to_owned(),
                    text: what,
                });
            }
        }
        loaded.push_in_order(&line.range, owner);
    }
    for compaction in &mut loaded.compactions {
        compaction.trigger = trigger_of(&lines, compaction.line).map(str::to_owned);
    }
    loaded.codex_usage = Some(responses.reader);
    note_incomplete(&mut loaded, incomplete);
    Ok(loaded)
}

/// What set off the compaction recorded at `line`, read from the turn it happened in
/// (Codex writes no trigger). A `/compact` is a turn of its own (a compact task): it ends
/// (`task_complete`) with nothing of the model's and no prompt after the compaction:
/// `manual`. An automatic one happens inside a working turn, before its prompt is sent
/// (the user's prompt follows in the same turn) or between two of its requests (the
/// model's reasoning, calls or answer follow): `auto`. `None` where the rollout does not
/// record its turns (no `task_started` before it) or ends first.
fn trigger_of(lines: &[Line], line: usize) -> Option<&'static str> {
    let at = lines.iter().position(|l| l.number == line)?;
    let sub = |l: &Line| {
        value(l.fields.get("payload"))
            .get("type")
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let kind = |l: &Line| text_of(l.fields.get("type"));
    let turns_recorded = lines[..at]
        .iter()
        .any(|l| kind(l) == "event_msg" && sub(l).as_deref() == Some("task_started"));
    if !turns_recorded {
        return None;
    }
    for l in &lines[at + 1..] {
        let payload = value(l.fields.get("payload"));
        let what = payload.get("type").and_then(Value::as_str).unwrap_or_default();
        match (kind(l).as_str(), what) {
            ("event_msg", "task_complete") => return Some("manual"),
            ("event_msg", "task_started") | ("compacted", _) => return None,
            ("event_msg", "user_message") => return Some("auto"),
            ("response_item", "message") if payload.get("role").and_then(Value::as_str) == Some("assistant") => {
                return Some("auto")
            }
            ("response_item", item) if item.ends_with("_call") || item == "reasoning" => return Some("auto"),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::transcript::Transcript;

    /// A rollout of `records` (each a `type` and its payload), loaded whole.
    fn rollout(records: &[(&str, serde_json::Value)]) -> Transcript {
        let mut text = serde_json::json!({"timestamp": "2026-05-11T10:00:00.000Z", "type": "session_meta",
            "payload": {"id": "s", "cwd": "/p", "cli_version": "0.118.0"}})
        .to_string();
        text.push('\n');
        for (kind, payload) in records {
            let record = serde_json::json!({"timestamp": "2026-05-11T10:00:01.000Z", "type": kind, "payload": payload});
            text.push_str(&record.to_string());
            text.push('\n');
        }
        Transcript::parse("rollout.jsonl", text.into_bytes(), None)
            .expect("a rollout")
            .whole_session()
            .expect("whole")
    }

    fn event(what: &str) -> (&'static str, serde_json::Value) {
        ("event_msg", serde_json::json!({"type": what}))
    }

    fn prompt(text: &str) -> Vec<(&'static str, serde_json::Value)> {
        vec![
            (
                "response_item",
                serde_json::json!({"type": "message", "role": "user",
                "content": [{"type": "input_text", "text": text}]}),
            ),
            (
                "event_msg",
                serde_json::json!({"type": "user_message", "message": text}),
            ),
        ]
    }

    fn answer(text: &str) -> (&'static str, serde_json::Value) {
        (
            "response_item",
            serde_json::json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}),
        )
    }

    fn compacted() -> (&'static str, serde_json::Value) {
        (
            "compacted",
            serde_json::json!({"message": "Summary: the loader was renamed."}),
        )
    }

    fn triggers(records: &[(&str, serde_json::Value)]) -> Vec<Option<String>> {
        rollout(records)
            .compactions()
            .iter()
            .map(|c| c.trigger.clone())
            .collect()
    }

    /// Codex writes no trigger; the turn a compaction happened in tells it: a turn of its
    /// own that ends with nothing after it is a `/compact`, one inside a working turn
    /// (before its prompt, or between its requests) is automatic.
    #[test]
    fn a_compactions_trigger_is_read_from_its_turn() {
        let mut first = vec![event("task_started")];
        first.extend(prompt("Rename the config loader."));
        first.extend([answer("Renamed."), event("task_complete")]);
        // `/compact`: a turn with the compaction alone.
        let mut manual = first.clone();
        manual.extend([
            event("task_started"),
            compacted(),
            event("context_compacted"),
            event("task_complete"),
        ]);
        manual.extend(prompt("Now add a test."));
        assert_eq!(triggers(&manual), [Some("manual".to_owned())]);
        // Before a turn's prompt is sent.
        let mut before = first.clone();
        before.extend([event("task_started"), compacted(), event("context_compacted")]);
        before.extend(prompt("Now add a test."));
        assert_eq!(triggers(&before), [Some("auto".to_owned())]);
        // Between two requests of a turn: the model goes on.
        let mut within = first.clone();
        within.extend([
            event("task_started"),
            compacted(),
            ("response_item", serde_json::json!({"type": "reasoning", "summary": []})),
        ]);
        assert_eq!(triggers(&within), [Some("auto".to_owned())]);
        // A rollout that records no turns says nothing of it.
        let untold: Vec<_> = first
            .iter()
            .filter(|(k, _)| *k != "event_msg")
            .cloned()
            .chain([compacted(), answer("Done.")])
            .collect();
        assert_eq!(triggers(&untold), [None]);
    }

    fn token_count(input: u64, output: u64, session_input: u64) -> (&'static str, serde_json::Value) {
        let last = serde_json::json!({"input_tokens": input, "cached_input_tokens": 0, "output_tokens": output,
            "total_tokens": input + output});
        let total = serde_json::json!({"input_tokens": session_input, "cached_input_tokens": 0, "output_tokens": output,
            "total_tokens": session_input + output});
        (
            "event_msg",
            serde_json::json!({"type": "token_count", "info": {"last_token_usage": last, "total_token_usage": total,
                "model_context_window": 258_400}}),
        )
    }

    /// Each response gets the usage measured for it: a `token_count` Codex sends again
    /// when a turn starts (the session's totals unchanged) and the estimate it sends after
    /// compacting (no input, no output) measure no response, and are given to none.
    #[test]
    fn a_repeated_or_estimated_token_count_is_no_responses_usage() {
        let call = |id: &str| {
            (
                "response_item",
                serde_json::json!({"type": "function_call", "name": "shell", "arguments": "{}", "call_id": id}),
            )
        };
        let mut records = prompt("Rename the config loader.");
        records.extend([
            answer("Renamed."),
            token_count(30_000, 50, 30_000),
            event("task_complete"),
        ]);
        // The next turn starts: the last usage again, after its prompt, before a response
        // of three items (reasoning, a message, a call).
        records.push(event("task_started"));
        records.extend(prompt("Now add a test."));
        records.extend([
            token_count(30_000, 50, 30_000),
            ("response_item", serde_json::json!({"type": "reasoning", "summary": []})),
            answer("Adding it."),
            call("c1"),
            token_count(31_000, 40, 61_000),
        ]);
        // After compacting: an estimate of the new history, with no input or output.
        records.extend([
            compacted(),
            token_count(0, 0, 61_000),
            event("context_compacted"),
            answer("Running the tests."),
            call("c2"),
            token_count(9_000, 30, 70_000),
        ]);
        let whole = rollout(&records);
        let usage: Vec<(String, u64)> = whole
            .messages()
            .iter()
            .filter_map(|m| m.recorded().map(|r| (m.role.as_str().to_owned(), r.input_tokens)))
            .collect();
        assert_eq!(
            usage,
            [
                ("assistant".to_owned(), 30_000),
                ("function_call".to_owned(), 31_000),
                ("function_call".to_owned(), 9_000)
            ]
        );
    }
}
