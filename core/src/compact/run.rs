//! [`run`]: the one function that compacts. The command line's `compact`, the TUI's
//! preview and export, and replay all call it, so they cannot disagree: it runs the
//! strategy (the deterministic pass when it has one, then the §7F tail plan), asks the
//! summarizer once for the older messages, writes the document, and reports.

use super::deterministic::{ArtifactStore, Compressed};
use super::document::Document;
use super::plan::{Options, Plan};
use super::render::render;
use super::strategy::{derive, plan_strategy, warnings, Derived, Planned, Settings, Warning};
use crate::cancel::CancelToken;
use crate::loss::{loss_report, loss_report_read, LossReport};
use crate::summarize::{older_messages, Summarizer};
use crate::tokens::Counts;
use crate::transcript::Transcript;

/// What [`run`] needs.
pub struct Inputs<'a> {
    /// The transcript.
    pub transcript: &'a Transcript,
    /// Its counts (the tokenizer of these counts counts everything).
    pub counts: &'a Counts,
    /// Strategy and options.
    pub settings: &'a Settings,
    /// Makes the summary of the older messages (called at most once).
    pub summarizer: &'a dyn Summarizer,
    /// Where the deterministic pass stores externalized tool output.
    pub store: &'a mut dyn ArtifactStore,
    /// Stops the work early.
    pub cancel: &'a CancelToken,
    /// Also build the loss report.
    pub loss_report: bool,
    /// The deterministic pass already made for exactly these inputs (the TUI's preview
    /// reuses the one it shows); `None` runs it here.
    pub derived: Option<&'a Derived>,
}

/// What a compaction produced.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The settings it ran with.
    pub settings: Settings,
    /// Tokens of the input.
    pub tokens_before: u64,
    /// Tokens of the output's messages.
    pub tokens_after: u64,
    /// The deterministic pass, when the strategy has one.
    pub compressed: Option<Compressed>,
    /// What was planned (on the deterministic output when there is one).
    pub planned: Planned,
    /// The transcript the plan is on (the input, or the deterministic output).
    pub view: Transcript,
    /// Its counts.
    pub view_counts: Counts,
    /// The summary text, when a tail was cut.
    pub summary: Option<String>,
    /// JSON of the newly written messages (summary, then reminder), when cut.
    pub inserted: Vec<String>,
    /// The output document.
    pub document: Document,
    /// What the summarized messages held and what survives, when asked for and cut.
    pub loss: Option<LossReport>,
    /// What will bite.
    pub warnings: Vec<Warning>,
}

impl Outcome {
    /// The §7F plan, when the strategy cuts a tail.
    pub fn plan(&self) -> Option<&Plan> {
        self.planned.tail.as_ref()
    }
}

/// Runs `inputs.settings.strategy` on the transcript.
pub fn run(inputs: Inputs) -> crate::Result<Outcome> {
    let Inputs {
        transcript,
        counts,
        settings,
        summarizer,
        store,
        cancel,
        loss_report: with_loss,
        derived: made,
    } = inputs;
    let (compressed, view, view_counts) = if let Some(d) = made.filter(|_| settings.strategy.uses_deterministic_pass())
    {
        (Some(d.compressed.clone()), d.view.clone(), d.counts.clone())
    } else if settings.strategy.uses_deterministic_pass() {
        let derived = derive(
            transcript,
            counts,
            settings.options.max_tokens,
            settings.deterministic,
            store,
            cancel,
        )?;
        (Some(derived.compressed), derived.view, derived.counts)
    } else {
        (None, transcript.clone(), counts.clone())
    };
    cancel.check()?;
    let planned = plan_strategy(settings.strategy, &view, &view_counts, &settings.options);
    let (document, summary, inserted, tokens_after, loss) = match planned.cut() {
        Some(cut) => {
            let summarized = cut.head_end..cut.split;
            // With a report and a summarizer that reads the messages, each message is
            // read once for both.
            let (summary, texts) = if with_loss && summarizer.needs_text() {
                let older = older_messages(&view, summarized.clone(), true);
                let summary = summarizer.summarize(&older, cancel)?;
                (summary, Some(older.into_iter().map(|o| o.text).collect()))
            } else {
                (summarizer.summarize_range(&view, summarized.clone(), cancel)?, None)
            };
            cancel.check()?;
            let rendered = render(
                &view,
                &view_counts,
                cut,
                settings.options.flush_to_memory,
                settings.summary_role,
                &summary,
            );
            let loss = with_loss.then(|| match texts {
                Some(texts) => loss_report_read(&view, summarized, &summary, texts),
                None => loss_report(&view, summarized, &summary),
            });
            (
                rendered.document,
                Some(summary),
                rendered.inserted,
                rendered.tokens_after,
                loss,
            )
        }
        None => (Document::unchanged(&view), None, Vec::new(), view_counts.total(), None),
    };
    let warnings = warnings(
        &planned,
        settings.options.max_tokens,
        tokens_after,
        transcript.format.dialect,
        settings.summary_role,
        transcript.format.container.is_log(),
    );
    Ok(Outcome {
        settings: *settings,
        tokens_before: counts.total(),
        tokens_after,
        compressed,
        planned,
        view_counts,
        view,
        summary,
        inserted,
        document,
        loss,
        warnings,
    })
}

/// One §7F firing with `options` (the tail strategy, nothing stored): [`run`] for
/// library users who only want the tail compactor.
pub fn compact(
    transcript: &Transcript,
    counts: &Counts,
    options: &Options,
    summarizer: &dyn Summarizer,
) -> crate::Result<Outcome> {
    compact_with(transcript, counts, &Settings::tail(*options), summarizer)
}

/// Any strategy with `settings`, nothing stored (externalized outputs are only named),
/// never cancelled, no loss report: [`run`] for callers that only want the outcome.
pub fn compact_with(
    transcript: &Transcript,
    counts: &Counts,
    settings: &Settings,
    summarizer: &dyn Summarizer,
) -> crate::Result<Outcome> {
    run(Inputs {
        transcript,
        counts,
        settings,
        summarizer,
        store: &mut super::deterministic::DryRun,
        cancel: crate::cancel::never(),
        loss_report: false,
        derived: None,
    })
}
