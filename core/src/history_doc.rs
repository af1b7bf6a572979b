//! `history`'s answer as JSON (`ctxlens history --json`, Python's `Transcript.history()`):
//! the epochs a session log records and each real compaction — its sizes, its summary,
//! what the agent did again after it and what it lost — and, asked for, other summaries
//! of the same cut beside the real one ([`SummaryCompared`]).

use serde::Serialize;

use crate::forgetting::DoneAgain;
use crate::history::{Compaction, History};
use crate::loss::document::LossDoc;
use crate::loss::{turns::TurnKind, LossReport, Survival, TurnStatus};
use crate::tokens::Counts;
use crate::transcript::Transcript;

/// The history of a session log.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HistoryDoc<'a> {
    /// The log's format.
    pub format: &'a str,
    /// The tokenizer its counts are in.
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "crate::names::schema::<crate::tokens::Tokenizer>")
    )]
    pub tokenizer: &'a str,
    /// Messages of the whole session, every epoch.
    pub messages: usize,
    /// The session continues a conversation logged in another file (a session resumed
    /// into a new log): what the log says of it, with the session's id; `null` otherwise.
    /// Its first request carried that conversation, which this file does not hold.
    pub continues: Option<&'a str>,
    /// Its epochs, oldest first.
    pub epochs: Vec<EpochDoc>,
    /// Its compactions, oldest first.
    pub compactions: Vec<CompactionDoc<'a>>,
}

impl crate::document::Document for HistoryDoc<'_> {
    const NAME: &'static str = "history";
}

/// One epoch: the messages between two compactions.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EpochDoc {
    /// Its number, from 0.
    pub index: usize,
    /// Its first message.
    pub first: usize,
    /// Its last message (none for an empty epoch).
    pub last: Option<usize>,
    /// Its messages.
    pub messages: usize,
    /// Their tokens.
    pub tokens: u64,
    /// The largest prompt its calls recorded.
    pub recorded_peak: Option<u64>,
    /// What each of its requests carried beyond its messages (the system prompt, tools
    /// and whatever the agent sends without logging it), fitted from its usage: the fit's
    /// intercept, not a measured prompt.
    pub overhead: Option<u64>,
    /// Its human turns.
    pub human_turns: usize,
    /// What its recorded calls cost, in dollars (`stats` names the price table).
    pub cost: Option<f64>,
}

/// One compaction the log records.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CompactionDoc<'a> {
    /// Its number, from 0.
    pub index: usize,
    /// The 1-based line of its record.
    pub line: usize,
    /// The epoch it ended.
    pub epoch: usize,
    /// The message before which it happened.
    pub at: usize,
    /// `auto` or `manual`, when the log says.
    pub trigger: Option<&'a str>,
    /// The agent's own count when it compacted (Claude Code's `preTokens`).
    pub pre_tokens: Option<u64>,
    /// The context's size right after it, as recorded (Claude Code's `postTokens`).
    pub post_tokens: Option<u64>,
    /// The last prompt recorded before it (the request that did not set it off).
    pub last_recorded_before: Option<u64>,
    /// `[last request recorded before it, pre_tokens]` for an auto compaction.
    pub threshold_between: Option<(u64, u64)>,
    /// ctxlens' count of the context it replaced.
    pub counted_before: u64,
    /// It compacted a conversation logged in another file: its `pre_tokens` exceed all
    /// this file sent before it, so the epoch before it here is only part of what it
    /// compacted, and `threshold_between` is known only from above (`[0, pre_tokens]`).
    pub compacted_elsewhere: bool,
    /// The summary the agent got.
    pub summary: &'a str,
    /// The message that holds it.
    pub summary_message: Option<usize>,
    /// Its tokens.
    pub summary_tokens: u64,
    /// What it kept verbatim beside the summary.
    pub kept: &'a [String],
    /// What the agent did again after it, and what the user said again.
    pub done_again: Vec<DoneAgain>,
    /// The tokens all of that cost.
    pub done_again_tokens: u64,
    /// What it lost.
    pub loss: LossDoc<'a>,
    /// With --compare-summaries: the real summary and the others on the same cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summaries: Option<&'a [SummaryCompared]>,
}

/// One summary of one compaction and what it loses.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SummaryCompared {
    /// `real` (what the agent got), or the summarizer's name.
    pub by: String,
    /// The summary's tokens (estimate: four characters a token, the same for all).
    pub tokens: u64,
    /// Instructions of the replaced epoch it restates in no sentence and nothing after
    /// it repeats.
    pub instructions_lost: usize,
    /// The replaced epoch's instructions.
    pub instructions: usize,
    /// User facts (values the user supplied) lost.
    pub user_facts_lost: usize,
    /// Facts lost (noise included), and how many there were.
    pub facts_lost: usize,
    /// Facts found in the replaced epoch.
    pub facts: usize,
    /// Facts that survive, in percent.
    pub survival_percent: f64,
    /// The summary.
    pub text: String,
}

impl SummaryCompared {
    /// The row of summary `text`, written `by` a summarizer, losing what `loss` says.
    pub fn of(by: String, text: String, loss: &LossReport) -> SummaryCompared {
        let lost_of = |kind: TurnKind| {
            loss.turns
                .iter()
                .filter(|t| t.kind == kind && t.status == TurnStatus::Lost)
                .count()
        };
        SummaryCompared {
            by,
            tokens: (text.chars().count() as u64).div_ceil(4),
            instructions_lost: lost_of(TurnKind::Instruction),
            instructions: loss.turns.iter().filter(|t| t.kind == TurnKind::Instruction).count(),
            user_facts_lost: lost_of(TurnKind::UserFact),
            facts_lost: loss.count(Survival::Lost),
            facts: loss.facts.len(),
            survival_percent: loss.survival_percent(),
            text,
        }
    }

    /// The real summary of `compaction` as a row.
    pub fn real(compaction: &Compaction) -> SummaryCompared {
        SummaryCompared::of("real".to_owned(), compaction.summary.clone(), &compaction.loss)
    }
}

/// What each compaction's next epoch did again (the chat view, with the calls'
/// arguments, read once).
pub fn done_again(whole: &Transcript, counts: &Counts, found: &History) -> Vec<Vec<DoneAgain>> {
    if found.compactions.is_empty() {
        return Vec::new();
    }
    let chat = crate::policy::chat_view_counted(whole, counts);
    found
        .compactions
        .iter()
        .map(|c| crate::forgetting::after_compaction(whole, counts, &chat, c))
        .collect()
}

/// What each request of epoch `messages` carried beyond its messages (not in the log),
/// fitted from its own recorded usage, when it recorded any.
pub fn epoch_overhead(fits: &[crate::calibrate::EpochFit], messages: &std::ops::Range<usize>) -> Option<u64> {
    fits.iter()
        .find(|f| f.messages == *messages)
        .and_then(|f| f.calibration.as_ref())
        .map(|c| c.overhead)
        .filter(|&o| o > 0)
}

/// Each epoch's recorded cost (empty when the log records no priced call).
pub fn epoch_costs(whole: &Transcript, found: &History) -> Vec<Option<f64>> {
    let lines: Vec<usize> = found.compactions.iter().map(|c| c.line).collect();
    crate::cost::session_cost(whole, crate::cost::PriceTable::builtin()).map_or_else(Vec::new, |c| c.by_epoch(&lines))
}

impl<'a> HistoryDoc<'a> {
    /// The document of `found` in `whole` counted by `counts`, with what each compaction's
    /// next epoch did again ([`done_again`]) and, where given, each compaction's summaries
    /// side by side.
    pub fn of(
        whole: &'a Transcript,
        counts: &'a Counts,
        found: &'a History,
        done_again: &[Vec<DoneAgain>],
        compared: &'a [Vec<SummaryCompared>],
    ) -> HistoryDoc<'a> {
        let fits = crate::calibrate::calibrate_epochs(whole, counts);
        let costs = epoch_costs(whole, found);
        HistoryDoc {
            format: whole.format().name(),
            tokenizer: counts.tokenizer.name(),
            messages: whole.messages().len(),
            continues: whole
                .notes()
                .iter()
                .find(|n| n.kind == "continued")
                .map(|n| n.text.as_str()),
            epochs: found
                .epochs
                .iter()
                .map(|e| EpochDoc {
                    index: e.index,
                    first: e.messages.start,
                    last: e.messages.end.checked_sub(1).filter(|_| !e.messages.is_empty()),
                    messages: e.messages.len(),
                    tokens: e.tokens,
                    recorded_peak: e.recorded_peak,
                    overhead: epoch_overhead(&fits, &e.messages),
                    human_turns: e.human_turns,
                    cost: costs.get(e.index).copied().flatten(),
                })
                .collect(),
            compactions: found
                .compactions
                .iter()
                .map(|c| CompactionDoc {
                    index: c.index,
                    line: c.line,
                    epoch: c.epoch,
                    at: c.at,
                    trigger: c.trigger.as_deref(),
                    pre_tokens: c.pre_tokens,
                    post_tokens: c.post_tokens,
                    last_recorded_before: c.last_recorded_before,
                    threshold_between: c.threshold_between,
                    counted_before: c.counted_before,
                    compacted_elsewhere: c.elsewhere,
                    summary: &c.summary,
                    summary_message: c.summary_message,
                    summary_tokens: c.summary_tokens,
                    kept: &c.kept,
                    done_again_tokens: done_again[c.index].iter().map(|d| d.tokens).sum(),
                    summaries: compared.get(c.index).map(Vec::as_slice),
                    done_again: done_again[c.index].clone(),
                    loss: LossDoc::of(&c.loss),
                })
                .collect(),
        }
    }
}
