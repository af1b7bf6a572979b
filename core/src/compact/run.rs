//! [`Compaction`]: the one way to compact. The command line's `compact`, the TUI's
//! preview and export, and replay all call it, so they cannot disagree: it runs the
//! strategy (the deterministic pass when it has one, then the §7F tail plan), asks the
//! summarizer once for the older messages, writes the document, and reports.

use super::deterministic::{ArtifactStore, Compressed};
use super::document::Document;
use super::figures::warnings_for;
use super::plan::Plan;
use super::render::render;
use super::strategy::{derive, plan_strategy, Derived, Planned, Settings, Warning};
use crate::cancel::CancelToken;
use crate::loss::{loss_report_telling, LossReport};
use crate::progress::{Progress, SILENT};
use crate::summarize::{older_messages_telling, Summarizer};
use crate::tokens::Counts;
use crate::transcript::Transcript;

/// A compaction to run: the one way to compact. The command line's `compact`, the TUI's
/// preview, loss report and export, the Python package and the tests all build one, so
/// they cannot disagree. The crate's front page shows one.
#[must_use = "a compaction does nothing until `run`"]
pub struct Compaction<'a> {
    transcript: &'a Transcript,
    counts: &'a Counts,
    settings: Settings,
    summarizer: &'a dyn Summarizer,
    store: Option<&'a mut dyn ArtifactStore>,
    cancel: &'a CancelToken,
    loss_report: bool,
    derived: Option<&'a Derived>,
    progress: &'a Progress<'a>,
}

impl<'a> Compaction<'a> {
    /// `settings`' strategy on `transcript` (counted by `counts`, whose tokenizer counts
    /// everything), with placeholder summaries, nothing stored (externalized outputs are
    /// only named), never cancelled and no loss report until asked otherwise.
    pub fn new(transcript: &'a Transcript, counts: &'a Counts, settings: Settings) -> Compaction<'a> {
        Compaction {
            transcript,
            counts,
            settings,
            summarizer: &crate::summarize::Placeholder,
            store: None,
            cancel: crate::cancel::never(),
            loss_report: false,
            derived: None,
            progress: &SILENT,
        }
    }

    /// Makes the summary of the older messages with `summarizer` (called at most once).
    pub fn summarizer(mut self, summarizer: &'a dyn Summarizer) -> Compaction<'a> {
        self.summarizer = summarizer;
        self
    }

    /// Stores the deterministic pass's externalized tool output in `store`.
    pub fn store(mut self, store: &'a mut dyn ArtifactStore) -> Compaction<'a> {
        self.store = Some(store);
        self
    }

    /// Stops early when `cancel` is cancelled.
    pub fn cancel(mut self, cancel: &'a CancelToken) -> Compaction<'a> {
        self.cancel = cancel;
        self
    }

    /// Tells `progress` of the messages it reads for the summary and the loss report
    /// (what takes long on a large transcript).
    pub fn progress(mut self, progress: &'a Progress<'a>) -> Compaction<'a> {
        self.progress = progress;
        self
    }

    /// Also builds the loss report.
    pub fn with_loss_report(mut self) -> Compaction<'a> {
        self.loss_report = true;
        self
    }

    /// Reuses the deterministic pass already made for exactly these inputs (the TUI's
    /// preview reuses the one it shows) instead of running it again.
    pub fn reusing(mut self, derived: &'a Derived) -> Compaction<'a> {
        self.derived = Some(derived);
        self
    }

    /// Runs it.
    ///
    /// # Errors
    /// The summarizer's error, a store's write error, or [`crate::Error::Cancelled`].
    pub fn run(self) -> crate::Result<Outcome> {
        run(self)
    }
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

/// Runs the compaction's strategy on its transcript.
fn run(compaction: Compaction) -> crate::Result<Outcome> {
    let Compaction {
        transcript,
        counts,
        settings,
        summarizer,
        store,
        cancel,
        loss_report: with_loss,
        derived: made,
        progress,
    } = compaction;
    // Nothing stored unless a store was given: externalized outputs are only named.
    let mut dry_run = super::deterministic::DryRun;
    let store: &mut dyn ArtifactStore = store.unwrap_or(&mut dry_run);
    let settings = &settings;
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
                let older = older_messages_telling(&view, summarized.clone(), true, progress);
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
            let loss = with_loss.then(|| loss_report_telling(&view, summarized, &summary, texts, progress));
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
    let warnings = warnings_for(&planned, settings, tokens_after, transcript);
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
