//! `gemini-cli`: Gemini CLI's chat compression (google-gemini/gemini-cli at 02b2885c,
//! `packages/core/src/services/chatCompressionService.ts`; its estimator in
//! `packages/core/src/utils/tokenCalculation.ts`).
//!
//! - **When**: before a request, once the last response's prompt (`promptTokenCount`, the
//!   billed size: system instruction and tools included) reaches `threshold` (0.5 by
//!   default, `model.compressionThreshold` in its settings) of the model's token limit;
//!   `/compress` (`force`) skips the check.
//! - **What it keeps**: the history is split where the text kept after it is about
//!   `preserve_fraction` (0.3) of the whole, by the length of each content's JSON
//!   (`findCompressSplitPoint`): only at a user turn that is not function responses, the
//!   first one at or past 70% of the characters; when none is, everything if the history
//!   ends with a model answer that calls nothing, else the last such turn.
//! - **Where the summary goes**: the new history opens with the summary as a user turn and
//!   the model's "Got it. Thanks for the additional context!", then the kept contents.
//!
//! The history is Gemini contents: the system prompt is not part of it (its rows stay in
//! the head), an answer is its text then its `functionCall`s, and a run of tool results is
//! one user turn of `functionResponse` parts. Its counter is gemini-cli's
//! `estimateTokenCountSync` (a quarter token per ASCII UTF-16 unit, 1.3 per other, a
//! quarter per character of a call's or a response's JSON). Not modelled: the 50,000-token
//! budget that truncates old function responses before splitting (it changes the lengths
//! only for sessions with that much tool output, and what it keeps of each is written to a
//! file), and the failure paths (an empty summary, a new history larger than the old).

use serde_json::{json, Value};

use super::chat::{ChatMessage, Kind};
use super::claude_code::Billing;
use super::running::Running;
use super::{Inserted, Policy, PolicyPlan, PolicySettings, Section};

/// What the model answers after the summary in the new history.
pub const ACKNOWLEDGEMENT: &str = "Got it. Thanks for the additional context!";

/// The token limit gemini-cli assumes for a model it does not know (`tokenLimits.ts`).
const DEFAULT_TOKEN_LIMIT: u64 = 1_048_576;

/// Over this many UTF-16 units a text is estimated at a quarter token each.
const MAX_CHARS_FOR_FULL_HEURISTIC: usize = 100_000;

/// `gemini-cli`.
pub struct GeminiCli;

/// One content of the history, with the rows it comes from.
struct Content {
    /// The chat rows it stands for (a run of tool results is one content).
    rows: Vec<usize>,
    /// A user turn that is not function responses: where a split may fall.
    user_turn: bool,
    /// A run of tool results (one user turn of `functionResponse` parts).
    tool_run: bool,
    /// A model answer that calls no function.
    answer_without_call: bool,
    /// `user` or `model`.
    role: &'static str,
    /// Its parts, for the estimator.
    parts: Vec<Value>,
}

impl Content {
    fn of(row: usize, role: &'static str, parts: Vec<Value>) -> Content {
        Content {
            rows: vec![row],
            user_turn: false,
            tool_run: false,
            answer_without_call: false,
            role,
            parts,
        }
    }

    /// The length of its JSON, in UTF-16 units (`JSON.stringify(content).length`).
    fn chars(&self) -> usize {
        js_json_len(&json!({ "role": self.role, "parts": self.parts }))
    }
}

/// `s.length` in JavaScript.
fn utf16_len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// `JSON.stringify(value).length`: strings escaped as JavaScript escapes them, numbers
/// written as JavaScript writes a double (`120.0` is `120`, `1e21` is `1e+21`).
fn js_json_len(value: &Value) -> usize {
    match value {
        Value::Null => 4,
        Value::Bool(b) => {
            if *b {
                4
            } else {
                5
            }
        }
        Value::Number(n) => js_number(n.as_f64().unwrap_or(0.0)).len(),
        Value::String(s) => js_string_len(s),
        Value::Array(items) => 2 + items.len().saturating_sub(1) + items.iter().map(js_json_len).sum::<usize>(),
        Value::Object(map) => {
            2 + map.len().saturating_sub(1)
                + map
                    .iter()
                    .map(|(k, v)| js_string_len(k) + 1 + js_json_len(v))
                    .sum::<usize>()
        }
    }
}

/// A JSON string's length as `JSON.stringify` writes it, quotes included.
fn js_string_len(s: &str) -> usize {
    2 + s
        .encode_utf16()
        .map(|unit| match unit {
            0x22 | 0x5c | 0x08 | 0x0c | 0x0a | 0x0d | 0x09 => 2,
            0..=0x1f => 6,
            _ => 1,
        })
        .sum::<usize>()
}

/// A double as JavaScript's `Number.prototype.toString` writes it: the shortest digits
/// that read back, plainly from 1e-7 to 1e21, in exponent form outside.
fn js_number(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        // -0 prints as 0; JSON has no NaN or Infinity (`JSON.stringify` writes null).
        return if x.is_finite() {
            "0".to_owned()
        } else {
            "null".to_owned()
        };
    }
    let sign = if x < 0.0 { "-" } else { "" };
    // `{:e}` gives the shortest digits: `d.ddde±n`.
    let exponent_form = format!("{:e}", x.abs());
    let (mantissa, exponent) = exponent_form.split_once('e').unwrap_or((&exponent_form, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = digits.len() as i64;
    let n = exponent.parse::<i64>().unwrap_or(0) + 1;
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let rest = if k > 1 {
            format!(".{}", &digits[1..])
        } else {
            String::new()
        };
        let e = n - 1;
        format!("{}{rest}e{}{}", &digits[..1], if e >= 0 { "+" } else { "-" }, e.abs())
    };
    format!("{sign}{body}")
}

/// A tool result as the `functionResponse` part gemini-cli sends (its name from the
/// message, else from the call it answers).
fn response_part(m: &ChatMessage, call_names: &std::collections::HashMap<&str, &str>) -> Value {
    let name = m
        .name
        .as_deref()
        .filter(|n| !n.is_empty())
        .or_else(|| m.call_id.as_deref().and_then(|id| call_names.get(id).copied()))
        .unwrap_or_default();
    let mut response = json!({ "name": name, "response": { "output": m.text } });
    if let Some(id) = &m.call_id {
        response["id"] = Value::String(id.clone());
    }
    json!({ "functionResponse": response })
}

/// An answer's parts: its text, then a `functionCall` per call.
fn answer_parts(m: &ChatMessage) -> Vec<Value> {
    let mut parts = Vec::new();
    if !m.text.is_empty() {
        parts.push(json!({ "text": m.text }));
    }
    for call in &m.calls {
        let args = if call.args.is_object() {
            call.args.clone()
        } else {
            json!({})
        };
        let mut function = json!({ "name": call.name, "args": args });
        if !call.id.is_empty() {
            function["id"] = Value::String(call.id.clone());
        }
        parts.push(json!({ "functionCall": function }));
    }
    parts
}

/// The history gemini-cli holds for `chat` (system messages are not part of it).
fn history(chat: &[ChatMessage]) -> Vec<Content> {
    let mut contents: Vec<Content> = Vec::new();
    let mut call_names = std::collections::HashMap::new();
    // A run of results is the messages in a row: any other row (a system one too) ends it.
    let mut in_run = false;
    for m in chat {
        let continues_run = std::mem::replace(&mut in_run, m.kind == Kind::Tool);
        match m.kind {
            Kind::System => {}
            Kind::Tool => {
                let part = response_part(m, &call_names);
                match contents.last_mut() {
                    Some(run) if run.tool_run && continues_run => {
                        run.rows.push(m.index);
                        run.parts.push(part);
                    }
                    _ => contents.push(Content {
                        tool_run: true,
                        ..Content::of(m.index, "user", vec![part])
                    }),
                }
            }
            Kind::Assistant => {
                for call in &m.calls {
                    call_names.insert(call.id.as_str(), call.name.as_str());
                }
                contents.push(Content {
                    answer_without_call: m.calls.is_empty(),
                    ..Content::of(m.index, "model", answer_parts(m))
                });
            }
            Kind::User => {
                let parts = if m.text.is_empty() {
                    Vec::new()
                } else {
                    vec![json!({ "text": m.text })]
                };
                contents.push(Content {
                    user_turn: true,
                    ..Content::of(m.index, "user", parts)
                });
            }
        }
    }
    contents
}

/// `findCompressSplitPoint`: the index of the first content kept.
fn split_point(contents: &[Content], fraction: f64) -> usize {
    let chars: Vec<usize> = contents.iter().map(Content::chars).collect();
    let total: usize = chars.iter().sum();
    let target = total as f64 * fraction;
    let mut last_split = 0;
    let mut cumulative = 0usize;
    for (i, content) in contents.iter().enumerate() {
        if content.user_turn {
            if cumulative as f64 >= target {
                return i;
            }
            last_split = i;
        }
        cumulative += chars[i];
    }
    match contents.last() {
        Some(last) if last.answer_without_call => contents.len(),
        _ => last_split,
    }
}

/// `estimateTokenCountSync` over the parts of `contents`: summed in its order (a text's
/// own sum first, then added), floored once.
fn estimate(contents: &[Content]) -> u64 {
    let mut total = 0.0f64;
    for part in contents.iter().flat_map(|c| &c.parts) {
        if let Some(text) = part.get("text").and_then(Value::as_str) {
            let units = utf16_len(text);
            if units > MAX_CHARS_FOR_FULL_HEURISTIC {
                total += units as f64 / 4.0;
            } else {
                let mut tokens = 0.0f64;
                for unit in text.encode_utf16() {
                    tokens += if unit <= 127 { 0.25 } else { 1.3 };
                }
                total += tokens;
            }
        } else if let Some(response) = part.get("functionResponse") {
            let name = response.get("name").and_then(Value::as_str).unwrap_or_default();
            total += utf16_len(name) as f64 / 4.0;
            match response.get("response") {
                Some(Value::String(s)) => total += utf16_len(s) as f64 / 4.0,
                Some(Value::Null) | None => {}
                Some(other) => total += js_json_len(other) as f64 / 4.0,
            }
        } else {
            total += js_json_len(part) as f64 / 4.0;
        }
    }
    total.floor() as u64
}

/// Its settings, resolved.
struct Resolved {
    threshold: f64,
    token_limit: u64,
    preserve: f64,
    force: bool,
    billing: Billing,
}

impl Resolved {
    fn of(settings: &PolicySettings) -> Result<Resolved, crate::Error> {
        let fraction = |key: &str, default: f64, open: bool| -> Result<f64, crate::Error> {
            let Some(text) = settings.text(key) else {
                return Ok(default);
            };
            text.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v > 0.0 && (if open { *v < 1.0 } else { *v <= 1.0 }))
                .ok_or_else(|| {
                    crate::Error::Setting(format!(
                        "--set {key}={text}: expected a fraction {}",
                        if open { "between 0 and 1" } else { "above 0, at most 1" }
                    ))
                })
        };
        Ok(Resolved {
            threshold: fraction("threshold", 0.5, false)?,
            // Without a window: gemini-cli's own `DEFAULT_TOKEN_LIMIT` (tokenLimits.ts).
            token_limit: settings.number_or("token_limit", DEFAULT_TOKEN_LIMIT)?,
            preserve: fraction("preserve_fraction", 0.3, true)?,
            force: settings.choice("force", &["true", "false"], "false")? == "true",
            billing: Billing::of(settings)?,
        })
    }

    /// Whether a context billed `billed` tokens is compressed.
    fn fires(&self, billed: u64) -> bool {
        self.force || billed as f64 >= self.threshold * self.token_limit as f64
    }
}

impl Policy for GeminiCli {
    fn name(&self) -> &'static str {
        "gemini-cli"
    }

    fn defaults(&self, window: u64) -> Vec<(&'static str, String)> {
        vec![("token_limit", window.to_string())]
    }

    fn keys(&self) -> &'static [&'static str] {
        &[
            "threshold",
            "token_limit",
            "preserve_fraction",
            "force",
            "overhead",
            "ratio",
        ]
    }

    fn agent_logs(&self) -> Option<crate::transcript::Container> {
        Some(crate::transcript::Container::GeminiCli)
    }

    /// The share a Gemini CLI recording's earlier automatic compressions show, where the
    /// user set none: each brackets the prompt that set it off (see
    /// [`crate::transcript::PastCompaction::threshold_bracket`]); several narrow it; the
    /// middle of what they leave, over the token limit. Only compressions known before
    /// message `before` (a call answered since): never the one being predicted.
    fn settings_from_log(
        &self,
        whole: &crate::transcript::Transcript,
        before: usize,
        given: &PolicySettings,
    ) -> Vec<(&'static str, String)> {
        if !self.log_may_set(whole, given, "threshold") {
            return Vec::new();
        }
        let bracket = whole
            .compactions()
            .iter()
            .filter(|c| c.known_before(whole.messages(), before))
            .filter_map(|c| c.threshold_bracket(whole))
            .reduce(|(lo, hi), (low, high)| (lo.max(low), hi.min(high)));
        let limit = given
            .number("token_limit")
            .ok()
            .flatten()
            .or_else(|| whole.model().and_then(crate::models::window_of).map(|w| w.tokens))
            .unwrap_or(DEFAULT_TOKEN_LIMIT);
        match bracket {
            Some((lo, hi)) if limit > 0 => {
                let at = crate::transcript::PastCompaction::bracket_middle((lo, hi));
                vec![("threshold", (at as f64 / limit as f64).min(1.0).to_string())]
            }
            _ => Vec::new(),
        }
    }

    fn counts_billed(&self) -> bool {
        true
    }

    /// `threshold × token_limit` in the billed tokens it compares (what `--emit-config
    /// gemini-cli` writes back as the share).
    fn billed_trigger(&self, settings: &PolicySettings) -> Result<Option<(u64, u64)>, crate::Error> {
        let r = Resolved::of(settings)?;
        Ok(Some((
            (r.threshold * r.token_limit as f64).round() as u64,
            r.token_limit,
        )))
    }

    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
        let r = Resolved::of(settings)?;
        Ok(r.fires(r.billing.billed(running.total_counted())))
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let r = Resolved::of(settings)?;
        let contents = history(chat);
        let before = estimate(&contents);
        let mut plan = PolicyPlan::unchanged(self.name(), "gemini-cli-estimate", chat.len());
        for m in chat.iter().filter(|m| m.kind == Kind::System) {
            plan.messages[m.index].section = Section::Head;
        }
        plan.tokens_before = Some(before);
        plan.tokens_after = Some(before);
        r.billing.warn(&mut plan);
        let billed = r.billing.billed(chat.iter().map(|m| m.counted).sum());
        if !r.fires(billed) || contents.is_empty() {
            return Ok(plan);
        }
        let split = split_point(&contents, 1.0 - r.preserve);
        if split == 0 {
            return Ok(plan);
        }
        for content in &contents[..split] {
            for &row in &content.rows {
                plan.messages[row].section = Section::Summarized;
            }
        }
        plan.compacted = true;
        plan.tokens_after = Some(estimate(&contents[split..]));
        let head = plan.messages.iter().filter(|r| r.section == Section::Head).count();
        plan.inserted.push(Inserted {
            position: head,
            role: "user",
            kind: "summary",
            text: "{summary}".to_owned(),
            tokens: None,
        });
        plan.inserted.push(Inserted {
            position: head + 1,
            role: "assistant",
            kind: "marker",
            text: ACKNOWLEDGEMENT.to_owned(),
            tokens: None,
        });
        Ok(plan)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(index: usize, kind: Kind, text: &str) -> ChatMessage {
        let mut m = super::super::chat::written(kind, "user", text.to_owned(), 0);
        m.index = index;
        m.origin = Some(index);
        m.past_summary = false;
        m
    }

    #[test]
    fn the_split_falls_on_the_first_user_turn_past_the_kept_share() {
        // Four turns of equal length: 70% of the characters lie before the fourth.
        let chat: Vec<ChatMessage> = (0..4)
            .map(|i| message(i, if i % 2 == 0 { Kind::User } else { Kind::Assistant }, "aaaa"))
            .collect();
        let contents = history(&chat);
        // Past 70% no user turn remains and the history ends with an answer that calls
        // nothing: everything is compressed.
        assert_eq!(split_point(&contents, 0.7), 4);
        // At 30% the user turn at index 2 is the first at or past it.
        assert_eq!(split_point(&contents, 0.3), 2);
    }

    #[test]
    fn numbers_are_written_as_javascript_writes_a_double() {
        for (x, js) in [
            (120.0, "120"),
            (0.5, "0.5"),
            (-3.25, "-3.25"),
            (1e21, "1e+21"),
            (1.5e-6, "0.0000015"),
            (1e-7, "1e-7"),
            (12_345_678_901_234_567_890.0, "12345678901234567000"),
            (-0.0, "0"),
        ] {
            assert_eq!(js_number(x), js, "{x}");
        }
        assert_eq!(js_string_len("a\"\n\u{1}é"), 2 + 1 + 2 + 2 + 6 + 1);
    }

    #[test]
    fn the_estimate_weighs_ascii_and_other_units_as_gemini_cli_does() {
        let chat = vec![message(0, Kind::User, "abcd€")];
        // 4 × 0.25 + 1.3, floored.
        assert_eq!(estimate(&history(&chat)), 2);
    }
}
