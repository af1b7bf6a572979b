//! The `replay` document: a §7F compactor run over a session's whole life (`ctxlens replay
//! FILE --max-tokens N --json`, Python's `Transcript.replay`): every firing and call, what
//! the whole life lost, and the log's real compactions placed in the same model view.

use serde::Serialize;

use crate::compact::Settings;
use crate::loss::document::{FactDoc, InstructionDoc, TurnDoc};
use crate::replay::lost::LifetimeLoss;
use crate::replay::{Call, Firing, Replay, View};
use crate::tokens::Counts;
use crate::transcript::Transcript;

/// What the replay ran on: the session (every epoch joined), its counts and model view,
/// and the summarizer's name.
pub struct Replayed<'a> {
    /// The session, every epoch joined.
    pub whole: &'a Transcript,
    /// Its counts.
    pub counts: &'a Counts,
    /// The model view replayed.
    pub view: &'a View,
    /// The summarizer, as `--summarizer` names it.
    pub summarizer: String,
    /// The settings replayed.
    pub settings: &'a Settings,
    /// The replay.
    pub outcome: &'a Replay,
    /// What its whole life lost.
    pub loss: &'a LifetimeLoss,
}

/// The `replay` document.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ReplayDoc<'a> {
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "crate::names::schema::<crate::tokens::Tokenizer>")
    )]
    tokenizer: &'a str,
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "crate::names::schema::<crate::compact::Strategy>")
    )]
    strategy: &'a str,
    summarizer: String,
    max_tokens: u64,
    keep_tail: u64,
    flush_to_memory: bool,
    messages: usize,
    model_calls: usize,
    firings: &'a [Firing],
    final_tokens: u64,
    final_messages: usize,
    loops: usize,
    calls_over_budget: usize,
    summary_input_tokens: u64,
    lost: LostDoc<'a>,
    real_compactions: Vec<RealDoc<'a>>,
    calls: &'a [Call],
}

impl crate::document::Document for ReplayDoc<'_> {
    const NAME: &'static str = "replay";
}

/// What the whole life lost.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
struct LostDoc<'a> {
    facts: usize,
    facts_lost: usize,
    survival_percent: f64,
    human_turns: usize,
    lost_facts: Vec<FactDoc<'a>>,
    instructions_lost: Vec<InstructionDoc<'a>>,
    /// Every human turn in the report contract `history --json` uses (`message`: its
    /// position in the model view; `kept`: never summarized).
    instructions: Vec<TurnDoc<'a>>,
}

/// A compaction the log records.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RealDoc<'a> {
    /// The model-view position of the first message after it.
    pub at: usize,
    /// What set it off (`auto`, `manual`), when the log says.
    pub trigger: Option<&'a str>,
    /// The context's size before it, as recorded.
    pub pre_tokens: Option<u64>,
}

/// The real compactions of the log `whole`, placed in the model view `view`.
pub fn real_compactions<'a>(whole: &'a Transcript, view: &View) -> Vec<RealDoc<'a>> {
    whole
        .compactions()
        .iter()
        .map(|c| RealDoc {
            at: view.positions.partition_point(|&i| i < c.at),
            trigger: c.trigger.as_deref(),
            pre_tokens: c.pre_tokens,
        })
        .collect()
}

impl<'a> ReplayDoc<'a> {
    /// The document of a replay.
    pub fn of(r: &Replayed<'a>) -> ReplayDoc<'a> {
        let (settings, outcome, loss) = (r.settings, r.outcome, r.loss);
        ReplayDoc {
            tokenizer: r.counts.tokenizer.name(),
            strategy: settings.strategy.name(),
            summarizer: r.summarizer.clone(),
            max_tokens: settings.options.max_tokens,
            keep_tail: settings.options.effective_keep_tail(),
            flush_to_memory: settings.options.flush_to_memory,
            messages: r.view.len(),
            model_calls: outcome.model_calls,
            firings: &outcome.firings,
            final_tokens: outcome.final_tokens,
            final_messages: outcome.final_messages,
            loops: outcome.loops,
            calls_over_budget: outcome.calls_over_budget,
            summary_input_tokens: outcome.summary_input_tokens,
            lost: LostDoc {
                facts: loss.facts,
                facts_lost: loss.lost.len(),
                survival_percent: loss.survival_percent(),
                human_turns: loss.instructions,
                lost_facts: loss
                    .lost
                    .iter()
                    .map(|f| FactDoc {
                        message: f.message,
                        kind: f.kind.name(),
                        text: &f.text,
                        why: None,
                    })
                    .collect(),
                instructions_lost: loss
                    .instructions_lost
                    .iter()
                    .map(|(message, text)| InstructionDoc {
                        message: *message,
                        text,
                    })
                    .collect(),
                instructions: loss.turns.iter().map(TurnDoc::of).collect(),
            },
            real_compactions: real_compactions(r.whole, r.view),
            calls: &outcome.calls,
        }
    }
}
