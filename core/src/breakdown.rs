//! Where the context goes: every message's tokens split among what it holds — system
//! text, user text, assistant text, thinking, each tool's calls and results, images and
//! documents, past summaries — for the whole transcript and per section of a plan.
//!
//! A message's count (by any tokenizer) is shared among its parts in proportion to the
//! parts' sizes as compact JSON, so the kinds always add up to the message's own count.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::compact::{Planned, Section};
use crate::tokens::estimate::compact_length;
use crate::tokens::Counts;
use crate::transcript::{Dialect, Transcript};

/// What a part of a message is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A system (or developer) message.
    System,
    /// What the user wrote.
    UserText,
    /// What the assistant wrote.
    AssistantText,
    /// Thinking or reasoning.
    Thinking,
    /// A call of the named tool.
    ToolCall(String),
    /// A result of the named tool.
    ToolResult(String),
    /// Images and documents.
    Media,
    /// A summary an earlier compaction wrote.
    PastSummary,
    /// The system prompt and tool definitions the client sends but the log does not
    /// hold, fitted from the recorded usage.
    Overhead,
    /// Opaque strings sent back to the provider: thinking `signature`s, Gemini's
    /// `thoughtSignature`, encrypted reasoning. A text counter counts them as text; the
    /// provider bills them by its own rules (`--tokenizer provider` leaves them out).
    Opaque,
}

impl Kind {
    /// A short label: `system`, `tool call Bash`, `tool result Read`…
    pub fn label(&self) -> String {
        match self {
            Kind::System => "system".into(),
            Kind::UserText => "user text".into(),
            Kind::AssistantText => "assistant text".into(),
            Kind::Thinking => "thinking".into(),
            Kind::ToolCall(name) => format!("tool call {name}"),
            Kind::ToolResult(name) => format!("tool result {name}"),
            Kind::Media => "images and documents".into(),
            Kind::PastSummary => "past summaries".into(),
            Kind::Overhead => "system + tools (fitted)".into(),
            Kind::Opaque => "signatures and encrypted".into(),
        }
    }

    /// The kind's group for `--by kind`: every tool's calls are one row, every tool's
    /// results another.
    #[must_use]
    pub fn grouped(&self) -> Kind {
        match self {
            Kind::ToolCall(_) => Kind::ToolCall(String::new()),
            Kind::ToolResult(_) => Kind::ToolResult(String::new()),
            other => other.clone(),
        }
    }

    /// The tool's name, for calls and results.
    pub fn tool(&self) -> Option<&str> {
        match self {
            Kind::ToolCall(name) | Kind::ToolResult(name) => Some(name),
            _ => None,
        }
    }
}

/// The parts of one message with their share of its tokens.
pub fn message_parts(
    transcript: &Transcript,
    counts: &Counts,
    index: usize,
    tool_names: &BTreeMap<String, String>,
) -> Vec<(Kind, u64)> {
    let tokens = counts.message(index);
    if tokens == 0 {
        return Vec::new();
    }
    let message = &transcript.messages[index];
    let request = transcript.request(index);
    let value: Value = serde_json::from_str(&request).unwrap_or(Value::Null);
    let mut parts: Vec<(Kind, u64)> = if message.past_summary || is_summary(&value) {
        vec![(Kind::PastSummary, 1)]
    } else {
        let parts = raw_parts(transcript.format.dialect, &value, &message.role, tool_names);
        // A text counter counts opaque strings as text: their share is split out of the
        // part that holds them (the provider's counter leaves them out: none there).
        if counts.tokenizer == crate::tokens::Tokenizer::Provider {
            parts.into_iter().map(|(kind, size, _)| (kind, size)).collect()
        } else {
            parts
                .into_iter()
                .flat_map(|(kind, size, opaque)| {
                    let opaque = opaque.min(size.saturating_sub(1));
                    [(kind, size - opaque), (Kind::Opaque, opaque)]
                })
                .filter(|(_, size)| *size > 0)
                .collect()
        }
    };
    if parts.is_empty() {
        parts.push((text_kind(&message.role), 1));
    }
    share(tokens, parts)
}

/// Spreads `tokens` over the parts in proportion to their sizes (largest remainders, so
/// the shares add up exactly).
fn share(tokens: u64, parts: Vec<(Kind, u64)>) -> Vec<(Kind, u64)> {
    let total: u64 = parts.iter().map(|(_, size)| *size).sum::<u64>().max(1);
    let mut shares: Vec<(Kind, u64, u64)> = parts
        .into_iter()
        .map(|(kind, size)| {
            let exact = u128::from(tokens) * u128::from(size);
            let floor = (exact / u128::from(total)) as u64;
            (kind, floor, (exact % u128::from(total)) as u64)
        })
        .collect();
    let mut left = tokens - shares.iter().map(|(_, f, _)| *f).sum::<u64>();
    let mut order: Vec<usize> = (0..shares.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(shares[i].2));
    for i in order {
        if left == 0 {
            break;
        }
        shares[i].1 += 1;
        left -= 1;
    }
    shares.into_iter().map(|(k, t, _)| (k, t)).collect()
}

/// The size of the opaque strings anywhere in a message: `signature` (Anthropic thinking),
/// `thoughtSignature` (Gemini), `encrypted_content` (OpenAI reasoning).
fn opaque_size(value: &Value) -> u64 {
    match value {
        Value::Object(map) => map
            .iter()
            .map(|(key, v)| match (key.as_str(), v) {
                ("signature" | "thoughtSignature" | "encrypted_content", Value::String(s)) => compact_length(s).utf16,
                _ => opaque_size(v),
            })
            .sum(),
        Value::Array(items) => items.iter().map(opaque_size).sum(),
        _ => 0,
    }
}

fn size_of(value: &Value) -> u64 {
    compact_length(&value.to_string()).utf16.max(1)
}

fn text_kind(role: &str) -> Kind {
    match role {
        "system" | "developer" => Kind::System,
        "assistant" | "model" => Kind::AssistantText,
        _ => Kind::UserText,
    }
}

fn is_summary(value: &Value) -> bool {
    let text = match value.get("content") {
        Some(Value::String(s)) => s.as_str(),
        Some(Value::Array(blocks)) => blocks
            .first()
            .and_then(|b| b.get("text"))
            .and_then(Value::as_str)
            .unwrap_or_default(),
        _ => "",
    };
    // A Claude Code log's opens with Claude Code's sentence first.
    let text = text.strip_prefix(crate::compact::CLAUDE_CODE_OPENING).unwrap_or(text);
    text.starts_with(crate::compact::SUMMARY_PREFIX)
}

/// The parts of a message's request JSON, each with its size and the size of the opaque
/// strings in it.
fn raw_parts(
    dialect: Dialect,
    value: &Value,
    role: &str,
    tool_names: &BTreeMap<String, String>,
) -> Vec<(Kind, u64, u64)> {
    let parts = raw_parts_of(dialect, value, role, tool_names);
    parts
        .into_iter()
        .map(|(kind, part)| (kind, size_of(part), opaque_size(part)))
        .collect()
}

/// The parts of a message's request JSON.
fn raw_parts_of<'v>(
    dialect: Dialect,
    value: &'v Value,
    role: &str,
    tool_names: &BTreeMap<String, String>,
) -> Vec<(Kind, &'v Value)> {
    let name_of = |id: &str| tool_names.get(id).cloned().unwrap_or_else(|| "?".to_owned());
    let mut parts = Vec::new();
    if dialect.rules().is_item_list() {
        responses_parts(value, &name_of, &mut parts);
        return parts;
    }
    // A tool message's content is its tool's result; otherwise the role's text.
    let role_kind = if role == "tool" || role == "function" {
        let id = value.get("tool_call_id").and_then(Value::as_str).unwrap_or_default();
        Kind::ToolResult(
            value
                .get("name")
                .and_then(Value::as_str)
                .map_or_else(|| name_of(id), str::to_owned),
        )
    } else {
        text_kind(role)
    };
    match value.get("content").or_else(|| value.get("parts")) {
        Some(Value::Array(blocks)) => {
            for block in blocks {
                parts.push((block_kind(block, &role_kind, &name_of), block));
            }
        }
        Some(Value::Null) | None => {}
        Some(other) => parts.push((role_kind.clone(), other)),
    }
    if let Some(reasoning) = value.get("reasoning_content").filter(|v| !v.is_null()) {
        parts.push((Kind::Thinking, reasoning));
    }
    for call in value.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
        let name = call
            .pointer("/function/name")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_owned();
        parts.push((Kind::ToolCall(name), call));
    }
    if let Some(call) = value.get("function_call").filter(|v| v.is_object()) {
        let name = call.get("name").and_then(Value::as_str).unwrap_or("?").to_owned();
        parts.push((Kind::ToolCall(name), call));
    }
    parts
}

fn block_kind(block: &Value, role_kind: &Kind, name_of: &dyn Fn(&str) -> String) -> Kind {
    let str_at = |k: &str| block.get(k).and_then(Value::as_str).unwrap_or_default();
    if let Some(map) = block.as_object() {
        if crate::tokens::media::media_part(map).is_some() {
            return Kind::Media;
        }
        if let Some(call) = map.get("functionCall") {
            return Kind::ToolCall(call.get("name").and_then(Value::as_str).unwrap_or("?").to_owned());
        }
        if let Some(response) = map.get("functionResponse") {
            return Kind::ToolResult(response.get("name").and_then(Value::as_str).unwrap_or("?").to_owned());
        }
        if map.get("thought").and_then(Value::as_bool) == Some(true) {
            return Kind::Thinking;
        }
    }
    match str_at("type") {
        "thinking" | "redacted_thinking" | "reasoning" => Kind::Thinking,
        "tool_use" | "server_tool_use" => Kind::ToolCall(str_at("name").to_owned()),
        "tool_result" => Kind::ToolResult(name_of(str_at("tool_use_id"))),
        kind if kind.ends_with("_tool_result") => Kind::ToolResult(kind.trim_end_matches("_tool_result").to_owned()),
        _ => role_kind.clone(),
    }
}

fn responses_parts<'v>(item: &'v Value, name_of: &dyn Fn(&str) -> String, parts: &mut Vec<(Kind, &'v Value)>) {
    let kind = item.get("type").and_then(Value::as_str).unwrap_or("message");
    let call_id = item.get("call_id").and_then(Value::as_str).unwrap_or_default();
    let part = if kind == "message" {
        text_kind(item.get("role").and_then(Value::as_str).unwrap_or_default())
    } else if kind == "reasoning" {
        Kind::Thinking
    } else if kind.ends_with("_call_output") {
        Kind::ToolResult(name_of(call_id))
    } else if kind.ends_with("_call") {
        Kind::ToolCall(item.get("name").and_then(Value::as_str).unwrap_or(kind).to_owned())
    } else {
        Kind::AssistantText
    };
    parts.push((part, item));
}

/// Call id → tool name, for every call in the transcript.
pub fn tool_names(transcript: &Transcript) -> BTreeMap<String, String> {
    transcript
        .messages
        .iter()
        .flat_map(|m| m.tool_calls().iter().map(|c| (c.id.clone(), c.name.clone())))
        .collect()
}

/// One row of a breakdown.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Row {
    /// What it is.
    pub label: String,
    /// The kind (the tool's name cleared for `--by kind` rows).
    #[serde(skip)]
    pub kind: Kind,
    /// Tokens in all.
    pub tokens: u64,
    /// Messages holding some of it.
    pub messages: usize,
    /// Tokens in the kept head, the summarized part and the kept tail (with a plan).
    pub head: u64,
    /// Tokens summarized away.
    pub summarized: u64,
    /// Tokens in the kept tail.
    pub tail: u64,
    /// The messages holding some of it, ascending.
    #[serde(skip)]
    pub message_indices: Vec<usize>,
    /// Fitted from recorded usage rather than counted (the overhead row).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fitted: bool,
}

/// [`breakdown`] plus, by kind, the [`overhead_row`] in its place by size: where the
/// tokens a request is billed for go.
pub fn breakdown_billed(transcript: &Transcript, counts: &Counts, planned: Option<&Planned>, by: By) -> Vec<Row> {
    let mut rows = breakdown(transcript, counts, planned, by);
    if let Some(row) = (by == By::Kind).then(|| overhead_row(transcript, counts)).flatten() {
        let at = rows.partition_point(|r| r.tokens > row.tokens);
        rows.insert(at, row);
    }
    rows
}

/// The row of what every request carries that the log does not: the system prompt and
/// tool definitions, as the calibration of the recorded usage fits it (`None` without
/// recorded usage, or when the fit finds none). It belongs to the kept head: a compactor
/// never summarizes it.
pub fn overhead_row(transcript: &Transcript, counts: &Counts) -> Option<Row> {
    let fit = crate::calibrate::calibrate(transcript, counts)?;
    (fit.overhead > 0).then(|| Row {
        label: Kind::Overhead.label(),
        kind: Kind::Overhead,
        tokens: fit.overhead,
        messages: 0,
        head: fit.overhead,
        summarized: 0,
        tail: 0,
        message_indices: Vec::new(),
        fitted: true,
    })
}

/// How a breakdown is grouped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum By {
    /// By kind, all tools together per calls and results.
    Kind,
    /// By tool: each tool's calls and results.
    Tool,
}

impl crate::names::Named for By {
    const KIND: &'static str = "breakdown";
    const ALL: &'static [By] = &[By::Kind, By::Tool];

    fn name(self) -> &'static str {
        match self {
            By::Kind => "kind",
            By::Tool => "tool",
        }
    }
}

/// `stats --by`'s answer (`Transcript.breakdown()` in Python): where the context goes.
#[derive(serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BreakdownDoc {
    /// How the rows are grouped: `kind` or `tool`.
    #[cfg_attr(feature = "schema", schemars(schema_with = "crate::names::schema::<By>"))]
    pub by: &'static str,
    /// The tokenizer of the counts.
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "crate::names::schema::<crate::tokens::Tokenizer>")
    )]
    pub tokenizer: &'static str,
    /// The transcript's tokens.
    pub total: u64,
    /// The fitted system prompt and tools (not in the log), when the log records usage:
    /// also the `fitted` row.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overhead: Option<u64>,
    /// The budget each row is split under (head, summarized, tail), when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    /// The rows, largest first.
    pub rows: Vec<Row>,
}

impl crate::document::Document for BreakdownDoc {
    const NAME: &'static str = "stats-by";
}

impl BreakdownDoc {
    /// The breakdown of `transcript` counted with `counts`, grouped `by`; with `max_tokens`
    /// (and `keep_tail`) each row split as §7F's plan would cut it.
    pub fn of(
        transcript: &Transcript,
        counts: &Counts,
        by: By,
        max_tokens: Option<u64>,
        keep_tail: Option<u64>,
    ) -> BreakdownDoc {
        let planned = max_tokens.map(|max_tokens| {
            let options = crate::compact::Options {
                max_tokens,
                keep_tail,
                flush_to_memory: false,
            };
            crate::compact::plan_strategy(crate::compact::Strategy::Tail, transcript, counts, &options)
        });
        let rows = breakdown_billed(transcript, counts, planned.as_ref(), by);
        BreakdownDoc {
            by: crate::names::Named::name(by),
            tokenizer: counts.tokenizer.name(),
            total: counts.total(),
            overhead: rows.iter().find(|r| r.fitted).map(|r| r.tokens),
            max_tokens,
            rows,
        }
    }
}

/// The breakdown of `transcript` counted with `counts`, sections from `planned`
/// (everything counts as tail without one), rows sorted by tokens, largest first.
pub fn breakdown(transcript: &Transcript, counts: &Counts, planned: Option<&Planned>, by: By) -> Vec<Row> {
    use rayon::prelude::*;
    let names = tool_names(transcript);
    // Each message is read on its own (in parallel); the rows are added up in order.
    let parts: Vec<Vec<(Kind, u64)>> = (0..transcript.messages.len())
        .into_par_iter()
        .map(|index| message_parts(transcript, counts, index, &names))
        .collect();
    let mut rows: BTreeMap<Kind, Row> = BTreeMap::new();
    for (index, parts) in parts.into_iter().enumerate() {
        let section = planned.map_or(Section::Tail, |p| p.section(index));
        let mut seen: Vec<Kind> = Vec::new();
        for (kind, tokens) in parts {
            let kind = match by {
                By::Kind => kind.grouped(),
                By::Tool if kind.tool().is_some() => kind,
                By::Tool => continue,
            };
            let row = rows.entry(kind.clone()).or_insert_with(|| Row {
                label: match &kind {
                    Kind::ToolCall(n) if n.is_empty() => "tool calls".to_owned(),
                    Kind::ToolResult(n) if n.is_empty() => "tool results".to_owned(),
                    k => k.label(),
                },
                kind: kind.clone(),
                tokens: 0,
                messages: 0,
                head: 0,
                summarized: 0,
                tail: 0,
                message_indices: Vec::new(),
                fitted: false,
            });
            row.tokens += tokens;
            match section {
                Section::Head => row.head += tokens,
                Section::Summarized => row.summarized += tokens,
                Section::Tail => row.tail += tokens,
            }
            if !seen.contains(&kind) {
                row.messages += 1;
                row.message_indices.push(index);
                seen.push(kind);
            }
        }
    }
    let mut rows: Vec<Row> = rows.into_values().collect();
    rows.sort_by(|a, b| b.tokens.cmp(&a.tokens).then_with(|| a.label.cmp(&b.label)));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::Tokenizer;

    #[test]
    fn kinds_add_up_to_each_message() {
        let json = br#"[{"role":"system","content":"be brief"},
            {"role":"user","content":"list files"},
            {"role":"assistant","content":"ok","tool_calls":[{"id":"a","type":"function","function":{"name":"ls","arguments":"{}"}}]},
            {"role":"tool","tool_call_id":"a","content":"a.txt b.txt c.txt d.txt e.txt"}]"#;
        let t = Transcript::parse("t.json", json.to_vec(), None).expect("valid");
        let counts = Counts::compute(&t, Tokenizer::Estimate);
        let rows = breakdown(&t, &counts, None, By::Kind);
        assert_eq!(rows.iter().map(|r| r.tokens).sum::<u64>(), counts.total());
        let labels: Vec<&str> = rows.iter().map(|r| r.label.as_str()).collect();
        for label in ["system", "user text", "assistant text", "tool calls", "tool results"] {
            assert!(labels.contains(&label), "{labels:?}");
        }
        let tools = breakdown(&t, &counts, None, By::Tool);
        let mut labels: Vec<&str> = tools.iter().map(|r| r.label.as_str()).collect();
        assert!(tools.windows(2).all(|w| w[0].tokens >= w[1].tokens), "largest first");
        labels.sort_unstable();
        assert_eq!(labels, ["tool call ls", "tool result ls"]);
    }
}
