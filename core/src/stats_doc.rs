//! `stats`' answer as JSON (`ctxlens stats --json`, Python's `Transcript.stats()`): each
//! message's tokens and running total, its calls and results, what the provider recorded
//! beside the estimate, a binary-heavy message's media, the log's notes, the fit of its
//! recorded usage and what its calls cost.

use serde::Serialize;

use crate::cost::PriceTable;
use crate::tokens::{recorded_vs_estimate, Counts, RecordedRow};
use crate::transcript::Transcript;

/// The `stats --json` document; field order is the documented key order.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StatsDoc<'a> {
    format: &'static str,
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "crate::names::schema::<crate::tokens::Tokenizer>")
    )]
    tokenizer: &'static str,
    total: u64,
    messages: StatsRows<'a>,
    /// Records shown but not counted (log formats).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<NoteRow<'a>>,
    /// The last recorded prompt size, when the log records usage.
    #[serde(skip_serializing_if = "Option::is_none")]
    recorded_last: Option<u64>,
    /// The fit of the recorded usage, when the log records usage.
    #[serde(skip_serializing_if = "Option::is_none")]
    calibration: Option<CalibrationDoc>,
    /// What the recorded calls cost, when the log records them (Claude Code, Codex).
    #[serde(skip_serializing_if = "Option::is_none")]
    cost: Option<crate::cost::SessionCost>,
}

impl crate::document::Document for StatsDoc<'_> {
    const NAME: &'static str = "stats";
}

/// The calibration in `stats --json`.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
struct CalibrationDoc {
    overhead: u64,
    ratio: f64,
    calibrated_total: u64,
    median_error_percent: f64,
    worst_error_percent: f64,
    calls: Vec<crate::calibrate::CallFit>,
}

fn calibration_doc(transcript: &Transcript, counts: &Counts) -> Option<CalibrationDoc> {
    let c = crate::calibrate::calibrate(transcript, counts)?;
    Some(CalibrationDoc {
        overhead: c.overhead,
        ratio: c.ratio,
        calibrated_total: c.predict(counts.total()),
        median_error_percent: c.median_error_percent,
        worst_error_percent: c.worst_error_percent,
        calls: c.calls,
    })
}

#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
struct NoteRow<'a> {
    before: usize,
    line: usize,
    kind: &'a str,
    text: &'a str,
}

struct StatsRows<'a> {
    transcript: &'a Transcript,
    counts: &'a Counts,
}

#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
struct StatsRow<'a> {
    index: usize,
    role: &'a str,
    tokens: u64,
    cumulative: u64,
    tool_calls: Vec<&'a str>,
    tool_results: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    recorded: Option<RecordedRow>,
    /// Images and documents of a message that is mostly binary data.
    #[serde(skip_serializing_if = "Option::is_none")]
    media: Option<MediaDoc>,
}

/// A binary-heavy message's media in `stats --json`.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
struct MediaDoc {
    /// What the provider's rules make of the message.
    provider_tokens: u64,
    parts: Vec<MediaPart>,
}

#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
struct MediaPart {
    kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    width: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    height: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pages: Option<u32>,
    payload_chars: usize,
}

fn media_doc(transcript: &Transcript, index: usize) -> Option<MediaDoc> {
    let heavy = crate::tokens::media::binary_heavy(transcript, index)?;
    Some(MediaDoc {
        provider_tokens: heavy.provider_tokens,
        parts: heavy
            .media
            .iter()
            .map(|m| MediaPart {
                kind: m.describe(),
                width: m.size.map(|s| s.0),
                height: m.size.map(|s| s.1),
                pages: m.pages,
                payload_chars: m.payload_chars,
            })
            .collect(),
    })
}

/// The rows' schema: a list of [`StatsRow`], as they are serialized.
#[cfg(feature = "schema")]
impl schemars::JsonSchema for StatsRows<'_> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "StatsRows".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Vec<StatsRow<'static>>>::json_schema(generator)
    }
}

impl Serialize for StatsRows<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.transcript.messages().iter().enumerate().map(|(i, m)| StatsRow {
            index: i,
            role: m.role(),
            tokens: self.counts.message(i),
            cumulative: self.counts.cumulative(i),
            tool_calls: m.tool_calls().iter().map(|c| c.id.as_str()).collect(),
            tool_results: m.tool_results(),
            recorded: recorded_vs_estimate(self.transcript, self.counts, i),
            media: media_doc(self.transcript, i),
        }))
    }
}

/// The `stats --json` document of `transcript`.
pub fn stats_doc<'a>(transcript: &'a Transcript, counts: &'a Counts, prices: &PriceTable) -> StatsDoc<'a> {
    StatsDoc {
        format: transcript.format().name(),
        tokenizer: counts.tokenizer.name(),
        total: counts.total(),
        messages: StatsRows { transcript, counts },
        notes: transcript
            .notes()
            .iter()
            .map(|n| NoteRow {
                before: n.before,
                line: n.line,
                kind: &n.kind,
                text: &n.text,
            })
            .collect(),
        recorded_last: transcript
            .messages()
            .iter()
            .rev()
            .find_map(crate::transcript::Message::recorded)
            .map(|r| r.context_tokens()),
        calibration: calibration_doc(transcript, counts),
        cost: crate::cost::session_cost(transcript, prices),
    }
}
