//! What a session cost: every model call a log records, priced from its recorded usage
//! (uncached input, cache writes by lifetime, cache reads, output) with a price table
//! ([`prices`]), once per request as the provider billed it — a Claude Code response
//! written over several records counts once (by `message.id` and `requestId`, as
//! ccusage counts it), and every record of the file counts, off the active branch too
//! (an abandoned branch was billed); a trajectory that keeps each response beside its
//! message (mini-swe-agent, OpenHands) counts each response once. And where the cache was rewritten: each call that
//! wrote more than half of a prompt over 10,000 tokens, with its cause — an idle gap
//! longer than the cache's lifetime, a compaction just before it, the session's first
//! call, the provider's cache missing a prefix a later call shows was still there, or
//! none the log shows.

pub mod prices;
mod records;

use std::collections::BTreeSet;

use serde::Serialize;

pub use prices::{PriceTable, Prices, Rates};

use crate::transcript::{Container, Recorded, Transcript};

/// Dollars of one call, or of many, by what they paid for.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Dollars {
    /// Uncached input.
    pub input: f64,
    /// Cache writes.
    pub cache_write: f64,
    /// Cache reads.
    pub cache_read: f64,
    /// Output.
    pub output: f64,
}

impl Dollars {
    /// All of it.
    pub fn total(&self) -> f64 {
        self.input + self.cache_write + self.cache_read + self.output
    }

    /// `usage` at `prices` (the long-request rates when its prompt is over their limit).
    pub fn of(usage: &Recorded, prices: &Prices) -> Dollars {
        let r = prices.rates(usage.context_tokens());
        let n = |tokens: u64| tokens as f64;
        Dollars {
            input: n(usage.input_tokens) * r.input,
            cache_write: n(usage.cache_write_5m_tokens) * r.cache_write_5m
                + n(usage.cache_write_1h_tokens) * r.cache_write_1h,
            cache_read: n(usage.cache_read_tokens) * r.cache_read,
            output: n(usage.output_tokens) * r.output,
        }
    }

    /// Adds `other` to these, part by part.
    pub fn add(&mut self, other: &Dollars) {
        self.input += other.input;
        self.cache_write += other.cache_write;
        self.cache_read += other.cache_read;
        self.output += other.output;
    }
}

/// One model call the log records.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Call {
    /// 1-based line of the record that carries its usage (the first, for a response
    /// written over several).
    pub line: usize,
    /// When, as the log writes it.
    pub time: Option<String>,
    /// The model it names.
    pub model: Option<String>,
    /// Its usage.
    pub usage: Recorded,
    /// What it cost; `None` when the table has no price for its model.
    pub dollars: Option<Dollars>,
}

/// Why a call wrote most of its prompt to the cache again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RewriteCause {
    /// The first call of the session: nothing was cached yet.
    FirstCall,
    /// Longer since the last call than the cache's lifetime (5 minutes; an hour for a
    /// 1-hour write).
    IdleGap,
    /// A compaction just before it rewrote the prompt (for a replayed policy: a firing
    /// of any kind).
    Compaction,
    /// The provider's cache missed a prefix that was still there: a later call read
    /// more than this one did, from an entry written before it (so the prompt had not
    /// changed where this call stopped reading). The log shows it; no setting or policy
    /// causes or avoids it (Anthropic's cache lookups fail now and then mid-session,
    /// reading only the stable prefix or nothing: anthropics/claude-code#87966).
    CacheMiss,
    /// Nothing the log shows (an instruction, a tool list or a model changed early in
    /// the prompt; a cache evicted early).
    Unexplained,
}

impl RewriteCause {
    /// Every cause, in the order reports list them.
    pub const ALL: [RewriteCause; 5] = [
        RewriteCause::FirstCall,
        RewriteCause::IdleGap,
        RewriteCause::Compaction,
        RewriteCause::CacheMiss,
        RewriteCause::Unexplained,
    ];

    /// What a report says of the rewrites with this cause ("3 after a compaction").
    pub fn words(self) -> &'static str {
        match self {
            RewriteCause::FirstCall => "the first call",
            RewriteCause::IdleGap => "after an idle gap longer than the cache lives",
            RewriteCause::Compaction => "after a compaction",
            RewriteCause::CacheMiss => "where the provider's cache missed a prefix a later call read",
            RewriteCause::Unexplained => "with no cause the log shows",
        }
    }
}

/// A call that wrote most of its prompt to the cache.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Rewrite {
    /// Which call ([`SessionCost::calls`]).
    pub call: usize,
    /// Its line.
    pub line: usize,
    /// Tokens it wrote.
    pub written: u64,
    /// Its whole prompt.
    pub prompt: u64,
    /// Why.
    pub cause: RewriteCause,
    /// Seconds since the call before, when the log's clock says.
    pub gap_seconds: Option<i64>,
}

/// A session's cost.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SessionCost {
    /// The table the figures come from.
    pub prices: String,
    /// Every call, in file order.
    pub calls: Vec<Call>,
    /// What the priced calls cost, by kind.
    pub dollars: Dollars,
    /// The priced calls' total; `None` when no call could be priced. With
    /// `unpriced_models` it is not the session's cost ([`SessionCost::complete_total`]).
    pub total: Option<f64>,
    /// Models the table has no price for (their calls are not in the figures).
    pub unpriced_models: Vec<String>,
    /// Calls that wrote more than half of a prompt over [`REWRITE_MIN_PROMPT`] tokens.
    pub rewrites: Vec<Rewrite>,
    /// Each compaction's own summarizing call, which the log does not record: estimated
    /// (the context before it read from the cache, its summary written out), never in
    /// `total`.
    pub compaction_calls: Vec<EstimatedCall>,
    /// What those estimated calls add; `None` when there are none or none could be priced.
    pub compaction_total: Option<f64>,
}

impl SessionCost {
    /// The share of the session's cache writes, in percent, made by rewrites whose cause
    /// the log does not show; `None` with no cache write. Over
    /// [`UNEXPLAINED_MODELLED_UP_TO`] a model of the cache is not held to the log (its
    /// figure without the log's misses is not modelled).
    pub fn unexplained_percent(&self) -> Option<f64> {
        let written: u64 = self.calls.iter().map(|c| c.usage.cache_write_tokens()).sum();
        let unexplained: u64 = self
            .rewrites
            .iter()
            .filter(|r| r.cause == RewriteCause::Unexplained)
            .map(|r| r.written)
            .sum();
        (written > 0).then(|| unexplained as f64 * 100.0 / written as f64)
    }

    /// What the estimated compaction calls are, for a report: "1 compaction's own
    /// summarizing call", or "2 compactions' own summarizing calls (4 requests)" where a
    /// compaction made more than one.
    pub fn compaction_calls_words(&self) -> String {
        let compactions = self.compaction_calls.len() as u64;
        let requests: usize = self.compaction_calls.iter().map(|c| c.requests).sum();
        let words = crate::text::count_of(
            compactions,
            "compaction's own summarizing call",
            "compactions' own summarizing calls",
        );
        if requests as u64 > compactions {
            format!("{words} ({requests} requests)")
        } else {
            words
        }
    }

    /// The rewrites counted by cause, in [`RewriteCause::ALL`]'s order, causes with
    /// none left out: "1 after an idle gap …, 12 with no cause the log shows".
    pub fn rewrite_causes(&self) -> String {
        RewriteCause::ALL
            .iter()
            .filter_map(
                |&cause| match self.rewrites.iter().filter(|r| r.cause == cause).count() {
                    0 => None,
                    n => Some(format!("{n} {}", cause.words())),
                },
            )
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The dollars of each epoch: the calls between one compaction's line and the next
    /// (`compaction_lines` ascending, one epoch more than lines); `None` for an epoch with
    /// no priced call.
    pub fn by_epoch(&self, compaction_lines: &[usize]) -> Vec<Option<f64>> {
        let mut epochs = vec![Some(0.0); compaction_lines.len() + 1];
        let mut called = vec![false; epochs.len()];
        for call in &self.calls {
            let epoch = compaction_lines.iter().take_while(|&&l| l < call.line).count();
            called[epoch] = true;
            // An epoch with a call the table cannot price has no known cost.
            epochs[epoch] = epochs[epoch].zip(call.dollars).map(|(sum, d)| sum + d.total());
        }
        epochs
            .into_iter()
            .zip(called)
            .map(|(cost, called)| cost.filter(|_| called))
            .collect()
    }

    /// What the whole session cost: `total` when every recorded call was priced, `None`
    /// when any model is not in the table (the figure of the priced calls alone is not
    /// the session's, so it is given only beside the models it leaves out).
    pub fn complete_total(&self) -> Option<f64> {
        self.total.filter(|_| self.unpriced_models.is_empty())
    }

    /// The calls the table could price.
    pub fn priced_calls(&self) -> usize {
        self.calls.iter().filter(|c| c.dollars.is_some()).count()
    }
}

/// A call the log does not record, estimated from what it does.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EstimatedCall {
    /// The line of the compaction it made.
    pub line: usize,
    /// The requests it stands for (Gemini CLI verifies its summary with a second one).
    pub requests: usize,
    /// Its estimated usage (of all its requests).
    pub usage: Recorded,
    /// What that cost; `None` without a price.
    pub dollars: Option<Dollars>,
}

/// How long a cache write lives by default (Anthropic's 5 minutes; OpenAI keeps a prefix
/// at least as long).
pub const CACHE_SECONDS: i64 = 300;

/// How long a 1-hour write lives (Anthropic's `ttl: "1h"`, which Claude Code asks for on
/// some plans: its log then records `ephemeral_1h_input_tokens`).
pub const ONE_HOUR_CACHE_SECONDS: i64 = 3_600;

/// The most of a log's cache writes, in percent, that rewrites with no cause it shows may
/// make for a cache model to be held to the log.
pub const UNEXPLAINED_MODELLED_UP_TO: f64 = 25.0;

/// The smallest prompt whose rewrite is worth naming.
pub const REWRITE_MIN_PROMPT: u64 = 10_000;

/// The cost of the session `transcript` reads (a Claude Code log, a Codex rollout, or a
/// transcript that keeps each response's usage beside its message; `None` when it
/// records no usage per call).
pub fn session_cost(transcript: &Transcript, table: &PriceTable) -> Option<SessionCost> {
    let calls = match transcript.format().container {
        Container::ClaudeCode => claude_code_calls(transcript),
        Container::Codex => codex_calls(transcript),
        Container::GeminiCli => gemini_cli_calls(transcript),
        Container::CopilotCli => copilot_cli_calls(transcript),
        Container::Opencode => opencode_calls(transcript),
        _ => Some(embedded_calls(transcript)).filter(|calls| !calls.is_empty())?,
    };
    let mut unpriced = BTreeSet::new();
    let calls: Vec<Call> = calls
        .into_iter()
        .map(|(line, time, model, usage)| {
            let prices = model.as_deref().and_then(|m| table.prices(m));
            if prices.is_none() {
                unpriced.insert(model.clone().unwrap_or_else(|| "(no model named)".to_owned()));
            }
            Call {
                line,
                time,
                dollars: prices.map(|p| Dollars::of(&usage, p)),
                model,
                usage,
            }
        })
        .collect();
    let mut dollars = Dollars::default();
    for d in calls.iter().filter_map(|c| c.dollars.as_ref()) {
        dollars.add(d);
    }
    let priced = calls.iter().any(|c| c.dollars.is_some());
    // Every compaction of the session, not only the live view's last.
    let whole = transcript.whole_session().ok();
    let whole = whole.as_ref().unwrap_or(transcript);
    let compaction_calls = compaction_calls(whole, &calls, table);
    let compaction_total = compaction_calls
        .iter()
        .filter_map(|c| c.dollars.map(|d| d.total()))
        .reduce(|a, b| a + b);
    Some(SessionCost {
        prices: table.name.clone(),
        rewrites: rewrites(whole, &calls),
        total: priced.then(|| dollars.total()),
        dollars,
        calls,
        unpriced_models: unpriced.into_iter().collect(),
        compaction_calls,
        compaction_total,
    })
}

/// Each compaction's summarizing call: the prompt of the last recorded call before it,
/// read from the cache, and its summary (about a quarter of its characters) written out
/// (Claude Code's); Gemini CLI's, which makes two, as [`gemini_cli_compression`] says.
fn compaction_calls(whole: &Transcript, calls: &[Call], table: &PriceTable) -> Vec<EstimatedCall> {
    whole
        .compactions()
        .iter()
        .filter_map(|c| {
            let before = calls.iter().rev().find(|call| call.line < c.line)?;
            let requests = if whole.format().container == Container::GeminiCli {
                gemini_cli_compression(whole, c, before)
            } else {
                let summary = c
                    .summary_message
                    .map_or(0, |i| (whole.raw(i).chars().count() as u64).div_ceil(4));
                vec![Recorded {
                    cache_read_tokens: before.usage.context_tokens(),
                    output_tokens: summary,
                    ..Recorded::default()
                }]
            };
            let prices = before.model.as_deref().and_then(|m| table.prices(m));
            let mut usage = Recorded::default();
            let mut dollars = Dollars::default();
            for request in &requests {
                usage = usage.plus(request);
                if let Some(p) = prices {
                    // Priced one request at a time: a long-request rate is per request.
                    dollars.add(&Dollars::of(request, p));
                }
            }
            Some(EstimatedCall {
                line: c.line,
                requests: requests.len(),
                dollars: prices.map(|_| dollars),
                usage,
            })
        })
        .collect()
}

/// The share of the history Gemini CLI keeps when it compresses (the split point leaves
/// the last 30% of its characters: `COMPRESSION_PRESERVE_THRESHOLD`), in tenths.
const GEMINI_CLI_KEPT_TENTHS: u64 = 3;

/// Gemini CLI's compressing requests, which its recording does not show
/// (`chatCompressionService.ts`, google-gemini/gemini-cli 5411f113): the older part of
/// the history (all but the last 30%) sent with the compressor's own instruction, the
/// summary out; from v0.26 a second request (`-verify`) sends the same history and that
/// summary and gets the final one back — its history is the first request's prefix, which
/// Gemini caches by itself. The release shows where the recording holds the summary
/// (v0.44 on) or the v0.33 notice; otherwise one request is counted (a lower bound). The
/// summary's size is the recorded one, else the size the notice states after it less the
/// part kept, else unknown (0).
fn gemini_cli_compression(whole: &Transcript, c: &crate::transcript::PastCompaction, before: &Call) -> Vec<Recorded> {
    let prompt = c.pre_tokens.unwrap_or_else(|| before.usage.context_tokens());
    let kept = prompt * GEMINI_CLI_KEPT_TENTHS / 10;
    let compressed = prompt - kept;
    let summary = match c.summary_message {
        Some(i) => (whole.raw(i).chars().count() as u64).div_ceil(4),
        None => c.post_tokens.map_or(0, |after| after.saturating_sub(kept)),
    };
    let first = Recorded {
        input_tokens: compressed,
        output_tokens: summary,
        ..Recorded::default()
    };
    let verified = c.summary_message.is_some() || {
        // The notice's record, found by its line (one pass over the text).
        let mut lines = Lines::of(whole);
        whole
            .log_records()
            .iter()
            .map(|r| (lines.at(r.range.start), r))
            .find(|&(line, _)| line >= c.line)
            .is_some_and(|(line, r)| {
                line == c.line && crate::transcript::gemini_cli_notice_from_v0_33(&whole.text()[r.range.clone()])
            })
    };
    if !verified {
        return vec![first];
    }
    let verify = Recorded {
        cache_read_tokens: compressed,
        input_tokens: summary,
        output_tokens: summary,
        ..Recorded::default()
    };
    vec![first, verify]
}

type RawCall = (usize, Option<String>, Option<String>, Recorded);

/// Claude Code: every record with a response's usage, once per (`message.id`,
/// `requestId`) — the last record's usage, whose output count is final (the earlier
/// blocks of a streamed response carry a partial one) — at the place of the first.
fn claude_code_calls(transcript: &Transcript) -> Vec<RawCall> {
    let text: &str = transcript.text();
    let mut lines = Lines::of(transcript);
    let mut seen: std::collections::HashMap<(Option<String>, Option<String>), usize> = std::collections::HashMap::new();
    let mut calls: Vec<RawCall> = Vec::new();
    for record in transcript.log_records() {
        let line = &text[record.range.clone()];
        if !line.contains("\"usage\"") {
            continue;
        }
        let Some(call) = records::UsageRecord::of(line) else {
            continue;
        };
        if call.id != (None, None) {
            if let Some(&first) = seen.get(&call.id) {
                calls[first].3 = call.usage; // a later block of a response already counted
                continue;
            }
            seen.insert(call.id, calls.len());
        }
        calls.push((lines.at(record.range.start), call.time, call.model, call.usage));
    }
    calls
}

/// Any other transcript: each message that carries its response's usage (a
/// mini-swe-agent or OpenHands trajectory, a saved API response; once per response, as
/// the transcript read it), at the model the response names, else the transcript's.
fn embedded_calls(transcript: &Transcript) -> Vec<RawCall> {
    let mut lines = Lines::of(transcript);
    let mut calls = Vec::new();
    for (i, message) in transcript.messages().iter().enumerate() {
        let Some(usage) = message.recorded() else { continue };
        let value: Option<serde_json::Value> = serde_json::from_str(transcript.raw(i)).ok();
        let model = value
            .as_ref()
            .and_then(crate::transcript::embedded_call)
            .and_then(|call| call.model)
            .or_else(|| transcript.model().map(str::to_owned));
        let time = value
            .as_ref()
            .and_then(|v| v.get("timestamp"))
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned);
        calls.push((lines.at(message.span.start), time, model, usage));
    }
    calls
}

/// Gemini CLI: each `gemini` message's `tokens`, once per message id (gemini-cli writes a
/// message again each time it changes, tokens included), in the order first written;
/// messages a rewind or a compression later dropped were billed too.
fn gemini_cli_calls(transcript: &Transcript) -> Vec<RawCall> {
    let text: &str = transcript.text();
    let mut lines = Lines::of(transcript);
    let mut calls: Vec<RawCall> = Vec::new();
    let mut by_id: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for record in transcript.log_records() {
        let line = &text[record.range.clone()];
        if !line.contains("\"tokens\"") {
            continue;
        }
        let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let (Some(id), Some(usage)) = (
            value.get("id").and_then(serde_json::Value::as_str),
            crate::transcript::gemini_cli_usage(&value),
        ) else {
            continue;
        };
        let text_of = |key: &str| value.get(key).and_then(serde_json::Value::as_str).map(str::to_owned);
        let call = (
            lines.at(record.range.start),
            text_of("timestamp"),
            text_of("model"),
            usage,
        );
        if let Some(&at) = by_id.get(id) {
            calls[at] = call;
        } else {
            by_id.insert(id.to_owned(), calls.len());
            calls.push(call);
        }
    }
    calls
}

/// opencode: every assistant message's `tokens`, the usage of its one call, the
/// compaction's summary call included (`session/processor.ts` sets them at each step's
/// end); its time is when the message was created.
fn opencode_calls(transcript: &Transcript) -> Vec<RawCall> {
    let text: &str = transcript.text();
    let mut lines = Lines::of(transcript);
    transcript
        .log_records()
        .iter()
        .filter_map(|record| {
            let value = serde_json::from_str::<serde_json::Value>(&text[record.range.clone()]).ok()?;
            let info = value.get("info")?;
            let usage = crate::transcript::opencode_usage(info)?;
            let time = info
                .pointer("/time/created")
                .and_then(serde_json::Value::as_u64)
                .map(|ms| crate::text::rfc3339(std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms)));
            let model = info
                .get("modelID")
                .and_then(serde_json::Value::as_str)
                .map(str::to_owned);
            Some((lines.at(record.range.start), time, model, usage))
        })
        .collect()
}

/// Copilot CLI: it persists no usage per call, only each model's totals when a run ends
/// (`session.shutdown`'s `modelMetrics`, copilot-sdk `session-events.ts`), with the number
/// of requests. The totals are split evenly over those requests, so a price that depends
/// on a request's size (Anthropic's above 200,000 input tokens) is applied per request,
/// as the provider bills, not to the run's sum. Its `inputTokens` holds the cache reads
/// and writes (as ccusage reads it too), so the uncached input is what is left.
fn copilot_cli_calls(transcript: &Transcript) -> Vec<RawCall> {
    let text: &str = transcript.text();
    let mut lines = Lines::of(transcript);
    let mut calls = Vec::new();
    for record in transcript.log_records() {
        let line = &text[record.range.clone()];
        if !line.contains("\"session.shutdown\"") {
            continue;
        }
        let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let Some(metrics) = value
            .pointer("/data/modelMetrics")
            .and_then(serde_json::Value::as_object)
        else {
            continue;
        };
        let at = lines.at(record.range.start);
        let time = value
            .get("timestamp")
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned);
        for (model, metric) in metrics {
            let n = |k: &str| {
                metric
                    .pointer(&format!("/usage/{k}"))
                    .and_then(serde_json::Value::as_u64)
                    .unwrap_or(0)
            };
            let (read, write) = (n("cacheReadTokens"), n("cacheWriteTokens"));
            let total = Recorded {
                input_tokens: n("inputTokens").saturating_sub(read).saturating_sub(write),
                cache_write_5m_tokens: write,
                cache_read_tokens: read,
                output_tokens: n("outputTokens"),
                reasoning_tokens: n("reasoningTokens"),
                ..Recorded::default()
            };
            let requests = metric
                .pointer("/requests/count")
                .and_then(serde_json::Value::as_u64)
                .filter(|&c| c > 0)
                .unwrap_or(1)
                .min(10_000);
            for k in 0..requests {
                // Each request its share; the last one the remainder.
                let share = |x: u64| x / requests + if k + 1 == requests { x % requests } else { 0 };
                let usage = Recorded {
                    input_tokens: share(total.input_tokens),
                    cache_write_5m_tokens: share(total.cache_write_5m_tokens),
                    cache_read_tokens: share(total.cache_read_tokens),
                    output_tokens: share(total.output_tokens),
                    reasoning_tokens: share(total.reasoning_tokens),
                    ..Recorded::default()
                };
                calls.push((at, time.clone(), Some(model.clone()), usage));
            }
        }
    }
    calls
}

/// Codex: each `token_count` event with a new `total_token_usage` (an event repeated
/// without a call between repeats the total), its model the last `turn_context` names.
fn codex_calls(transcript: &Transcript) -> Vec<RawCall> {
    let text: &str = transcript.text();
    let mut lines = Lines::of(transcript);
    let mut model: Option<String> = transcript.model().map(str::to_owned);
    let mut last_total: Option<serde_json::Value> = None;
    let mut calls = Vec::new();
    for record in transcript.log_records() {
        let line = &text[record.range.clone()];
        if !line.contains("\"token_count\"") && !line.contains("\"turn_context\"") {
            continue;
        }
        let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let Some(payload) = value.get("payload") else { continue };
        if value.get("type").and_then(serde_json::Value::as_str) == Some("turn_context") {
            if let Some(m) = payload.get("model").and_then(serde_json::Value::as_str) {
                model = Some(m.to_owned());
            }
            continue;
        }
        let total = payload.pointer("/info/total_token_usage").cloned();
        if total.is_some() && total == last_total {
            continue;
        }
        last_total = total;
        let Some(usage) = crate::transcript::codex_usage(payload) else {
            continue;
        };
        calls.push((
            lines.at(record.range.start),
            value
                .get("timestamp")
                .and_then(serde_json::Value::as_str)
                .map(str::to_owned),
            model.clone(),
            usage,
        ));
    }
    calls
}

/// The 1-based lines of log records asked for in file order: each counted on from the
/// last (one pass over the text, however many calls).
pub(crate) struct Lines<'a> {
    text: &'a [u8],
    at: usize,
    line: usize,
}

impl<'a> Lines<'a> {
    pub(crate) fn of(transcript: &'a Transcript) -> Lines<'a> {
        Lines {
            text: transcript.text().as_bytes(),
            at: 0,
            line: 1,
        }
    }

    /// The line the byte `start` is on (`start` never goes back).
    pub(crate) fn at(&mut self, start: usize) -> usize {
        let start = start.max(self.at);
        self.line += memchr::memchr_iter(b'\n', &self.text[self.at..start]).count();
        self.at = start;
        self.line
    }
}

/// The calls that wrote most of a large prompt, with their cause.
fn rewrites(transcript: &Transcript, calls: &[Call]) -> Vec<Rewrite> {
    let compaction_lines: Vec<usize> = transcript.compactions().iter().map(|c| c.line).collect();
    let compacted_between = |a: &Call, b: &Call| compaction_lines.iter().any(|&l| a.line < l && l < b.line);
    let gap = |a: &Call, b: &Call| Some(seconds(b.time.as_deref()?)? - seconds(a.time.as_deref()?)?);
    // The lifetime of what `call` left in the cache.
    let ttl = |call: &Call| {
        if call.usage.cache_write_1h_tokens > 0 {
            ONE_HOUR_CACHE_SECONDS
        } else {
            CACHE_SECONDS
        }
    };
    let idle = |a: &Call, b: &Call| gap(a, b).is_some_and(|g| g > ttl(a));
    let mut out = Vec::new();
    for (k, call) in calls.iter().enumerate() {
        let prompt = call.usage.context_tokens();
        let written = call.usage.cache_write_tokens();
        if prompt <= REWRITE_MIN_PROMPT || written <= prompt / 2 {
            continue;
        }
        let before = k.checked_sub(1).map(|j| &calls[j]);
        let cause = match before {
            None => RewriteCause::FirstCall,
            Some(b) if compacted_between(b, call) => RewriteCause::Compaction,
            Some(b) if idle(b, call) => RewriteCause::IdleGap,
            Some(_) if missed_a_cached_prefix(calls, k, &compacted_between, &idle) => RewriteCause::CacheMiss,
            Some(_) => RewriteCause::Unexplained,
        };
        out.push(Rewrite {
            call: k,
            line: call.line,
            written,
            prompt,
            cause,
            gap_seconds: before.and_then(|b| gap(b, call)),
        });
    }
    out
}

/// Whether the log shows that call `k` missed a prefix the cache still held: the first
/// later call that reads more than `k` did (before any compaction or idle gap) reads a
/// prefix no larger than an entry written before `k` in the same stretch and not the
/// size of one written since (by `k` or a call after it). The prompt's history only
/// grows between compactions, so that prefix was `k`'s too, and `k` read less of it.
fn missed_a_cached_prefix(
    calls: &[Call],
    k: usize,
    compacted_between: &dyn Fn(&Call, &Call) -> bool,
    idle: &dyn Fn(&Call, &Call) -> bool,
) -> bool {
    let entry = |c: &Call| c.usage.cache_read_tokens + c.usage.cache_write_tokens();
    let read = calls[k].usage.cache_read_tokens;
    // The largest entry written before `k` since the last compaction or idle gap.
    let mut largest_before = 0;
    for j in (0..k).rev() {
        if compacted_between(&calls[j], &calls[j + 1]) || idle(&calls[j], &calls[j + 1]) {
            break;
        }
        largest_before = largest_before.max(entry(&calls[j]));
    }
    for m in k + 1..calls.len() {
        if compacted_between(&calls[m - 1], &calls[m]) || idle(&calls[m - 1], &calls[m]) {
            return false;
        }
        let later = calls[m].usage.cache_read_tokens;
        if later > read {
            let written_since = calls[k..m].iter().any(|c| entry(c) == later);
            return later <= largest_before && !written_since;
        }
    }
    false
}

/// Seconds since 1970 of an ISO 8601 UTC time as agents write it
/// (`2026-01-07T20:23:23.679Z`); `None` for any other shape.
pub fn seconds(time: &str) -> Option<i64> {
    let b = time.as_bytes();
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let num = |range: std::ops::Range<usize>| time.get(range)?.parse::<i64>().ok();
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hh, mm, ss) = (num(11..13)?, num(14..16)?, num(17..19)?);
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + hh * 3_600 + mm * 60 + ss)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_times_become_seconds() {
        assert_eq!(seconds("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(seconds("2026-01-07T20:23:23.679Z"), Some(1_767_817_403));
        assert_eq!(
            seconds("2024-02-29T12:00:00Z")
                .zip(seconds("2024-03-01T12:00:00Z"))
                .map(|(a, b)| b - a),
            Some(86_400)
        );
        assert_eq!(seconds("yesterday"), None);
    }

    fn shipped(name: &str) -> Transcript {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/data/real-transcripts")
            .join(name);
        Transcript::read(&path, None).expect("loads")
    }

    #[test]
    fn a_claude_code_response_over_several_records_is_billed_once() {
        let log = shipped("claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
        let cost = session_cost(&log, PriceTable::builtin()).expect("a log");
        // 132 records carry usage, for 55 requests.
        assert_eq!(cost.calls.len(), 55);
        let written: u64 = cost.calls.iter().map(|c| c.usage.cache_write_tokens()).sum();
        let read: u64 = cost.calls.iter().map(|c| c.usage.cache_read_tokens).sum();
        assert_eq!(
            (written, read),
            (1_629_516, 4_277_174),
            "the issue's figures for this log"
        );
        assert!(cost.unpriced_models.is_empty(), "{:?}", cost.unpriced_models);
        assert!(cost.total.is_some_and(|t| t > 0.0));
        // One rewrite after an idle gap; the call after the compaction read the system
        // prompt and tools from the cache (under half its prompt written): no rewrite.
        let causes: Vec<RewriteCause> = cost.rewrites.iter().map(|r| r.cause).collect();
        assert_eq!(
            causes.iter().filter(|c| **c == RewriteCause::IdleGap).count(),
            1,
            "{causes:?}"
        );
        assert_eq!(
            causes.iter().filter(|c| **c == RewriteCause::Compaction).count(),
            0,
            "{causes:?}"
        );
        assert_eq!(causes.first(), Some(&RewriteCause::FirstCall));
        // 1.0.53 rewrote the whole prompt after its compaction (nothing cached survived).
        let vsla = shipped("claude-code-jsonl/vsla-cc1053-autocompact-0a725fb5.jsonl");
        let cost = session_cost(&vsla, PriceTable::builtin()).expect("a log");
        assert!(
            cost.rewrites.iter().any(|r| r.cause == RewriteCause::Compaction),
            "{:?}",
            cost.rewrites
        );
    }

    #[test]
    fn a_session_with_a_call_the_table_cannot_price_has_no_known_total() {
        // The codemie log with every call after its compaction (line 158) made by a model
        // the table does not hold.
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/data/real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
        let text = std::fs::read_to_string(path).expect("reads");
        let mixed: Vec<String> = text
            .lines()
            .enumerate()
            .map(|(i, line)| {
                if i >= 158 {
                    line.replace(
                        "\"model\":\"claude-sonnet-4-5-20250929\"",
                        "\"model\":\"no-such-model-1\"",
                    )
                } else {
                    line.to_owned()
                }
            })
            .collect();
        let log = Transcript::parse("mixed.jsonl", (mixed.join("\n") + "\n").into_bytes(), None).expect("loads");
        let cost = session_cost(&log, PriceTable::builtin()).expect("a log");
        assert_eq!(cost.unpriced_models, ["no-such-model-1"]);
        assert!(cost.priced_calls() > 0 && cost.priced_calls() < cost.calls.len());
        assert!(
            cost.total.is_some(),
            "the priced calls' figure, given beside the models left out"
        );
        assert_eq!(cost.complete_total(), None, "the session's cost is unknown");
        let epochs = cost.by_epoch(&[158]);
        assert!(epochs[0].is_some_and(|d| d > 0.0), "{epochs:?}");
        assert_eq!(epochs[1], None, "an epoch with an unpriced call");
        let whole = shipped("claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
        let priced = session_cost(&whole, PriceTable::builtin()).expect("a log");
        assert_eq!(priced.complete_total(), priced.total);
    }

    #[test]
    fn a_model_without_a_price_is_named_and_left_out() {
        let log = shipped("claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
        let table = PriceTable::from_json("empty", "{}").expect("parses");
        let cost = session_cost(&log, &table).expect("a log");
        assert_eq!(cost.total, None, "never priced at 0");
        assert!(cost.calls.iter().all(|c| c.dollars.is_none()));
        assert_eq!(cost.unpriced_models, ["claude-sonnet-4-5-20250929"]);
    }
}
