//! The loss report's documents: what a compaction (or a whole replay) did with the facts
//! and the user's turns, as `history`, `compact --report`, `replay` and `replay --policy`
//! print them.

use serde::Serialize;

use crate::loss::{LossReport, Survival};

/// A loss report as JSON.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LossDoc<'a> {
    facts: usize,
    in_summary: usize,
    kept: usize,
    lost: usize,
    survival_percent: f64,
    lost_facts: Vec<FactDoc<'a>>,
    /// Every summarized human turn: `{message, kind, text, status, evidence}`.
    instructions: Vec<TurnDoc<'a>>,
    instructions_lost: Vec<InstructionDoc<'a>>,
}

/// A human turn as JSON (the loss report's contract).
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TurnDoc<'a> {
    /// The message.
    pub message: usize,
    /// `instruction`, `user_fact` or `chatter`.
    pub kind: crate::loss::turns::TurnKind,
    /// The user's own words.
    pub text: &'a str,
    /// `kept` (never summarized: replay only), `in_summary`, `repeated_later` or `lost`.
    pub status: crate::loss::TurnStatus,
    /// The sentence that restates it, when it survives.
    pub evidence: Option<EvidenceDoc<'a>>,
    /// The values a user fact supplies.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub values: &'a [String],
}

/// Where a turn is restated.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EvidenceDoc<'a> {
    /// In the summary, or in a message after the compaction.
    #[serde(rename = "where")]
    pub place: Restated,
    /// The message holding it (after the compaction).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<usize>,
    /// The sentence.
    pub quote: &'a str,
}

/// Where a turn is restated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Restated {
    /// In the compaction's summary.
    Summary,
    /// In a message after the compaction.
    After,
}

impl<'a> TurnDoc<'a> {
    /// The contract's form of `turn`.
    pub fn of(turn: &'a crate::loss::Turn) -> TurnDoc<'a> {
        TurnDoc {
            message: turn.message,
            kind: turn.kind,
            text: &turn.text,
            status: turn.status,
            evidence: turn.evidence.as_ref().map(|e| EvidenceDoc {
                place: if e.message.is_some() {
                    Restated::After
                } else {
                    Restated::Summary
                },
                message: e.message,
                quote: &e.quote,
            }),
            values: &turn.values,
        }
    }
}

/// A fact as JSON.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FactDoc<'a> {
    /// Where it was first seen.
    pub message: usize,
    /// Its kind.
    pub kind: &'a str,
    /// The fact.
    pub text: &'a str,
    /// Why a lost fact matters (`user`, `error`, `edited`, `command`, `other`) or the
    /// noise it is (`noise:hash`…); lost facts are listed what matters first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<&'static str>,
}

/// A user instruction as JSON.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct InstructionDoc<'a> {
    /// The human turn.
    pub message: usize,
    /// Its first line.
    pub text: &'a str,
}

impl<'a> LossDoc<'a> {
    /// The JSON of `report`.
    pub fn of(report: &'a LossReport) -> LossDoc<'a> {
        let instruction = |(message, text): &'a (usize, String)| InstructionDoc {
            message: *message,
            text: text.as_str(),
        };
        LossDoc {
            facts: report.facts.len(),
            in_summary: report.count(Survival::Summary),
            kept: report.count(Survival::Kept),
            lost: report.count(Survival::Lost),
            survival_percent: report.survival_percent(),
            lost_facts: report
                .ranked
                .matter
                .iter()
                .map(|(f, why)| (f, why.name()))
                .chain(
                    report
                        .ranked
                        .noise
                        .iter()
                        .flat_map(|(noise, facts)| facts.iter().map(|f| (f, noise.name()))),
                )
                .map(|(f, why)| FactDoc {
                    message: f.message,
                    kind: f.kind.name(),
                    text: &f.text,
                    why: Some(why),
                })
                .collect(),
            instructions: report.turns.iter().map(TurnDoc::of).collect(),
            instructions_lost: report.instructions_lost.iter().map(instruction).collect(),
        }
    }
}

/// The `compact --report --json` document: what one compaction's summary lost.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ReportDoc<'a> {
    /// What the summary lost (`null`: nothing was summarized).
    loss: Option<LossDoc<'a>>,
}

impl crate::document::Document for ReportDoc<'_> {
    const NAME: &'static str = "compact-report";
}

impl<'a> ReportDoc<'a> {
    /// The document of `report` (`None`: the compaction summarized nothing).
    pub fn of(report: Option<&'a LossReport>) -> ReportDoc<'a> {
        ReportDoc {
            loss: report.map(LossDoc::of),
        }
    }
}
