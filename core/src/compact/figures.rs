//! [`figures`]: what a plan leaves and warns about, without writing anything. The TUI's
//! budget bar redraws these on every key, so they come from here rather than from a copy of
//! [`super::Compaction`]'s arithmetic: both call [`warnings_for`] and the same
//! `tokens_after`.

use super::inserted::insertion;
use super::render::tokens_after;
use super::strategy::{plan_strategy, warnings, Planned, Settings, Warning};
use crate::summarize::Placeholder;
use crate::tokens::Counts;
use crate::transcript::Transcript;

/// A plan's figures.
#[derive(Debug, Clone)]
pub struct Figures {
    /// What the strategy plans on the view.
    pub planned: Planned,
    /// Tokens the result would hold (the input's total when nothing is cut).
    pub tokens_after: u64,
    /// What will bite.
    pub warnings: Vec<Warning>,
}

/// Plans `settings` on `view` (the transcript itself, or its deterministic pass) counted
/// by `counts`, and prices the result with `summary` as the summary text; `None` prices
/// the placeholder a summary will replace. `transcript` is the input the view comes from
/// (its format decides which warnings apply).
pub fn figures(
    transcript: &Transcript,
    view: &Transcript,
    counts: &Counts,
    settings: &Settings,
    summary: Option<&str>,
) -> Figures {
    let planned = plan_strategy(settings.strategy, view, counts, &settings.options);
    let after = planned.cut().map_or(counts.total(), |cut| {
        let summary = summary.map_or_else(|| Placeholder::text(cut.summarized()), str::to_owned);
        let inserted = insertion(
            view,
            cut,
            settings.options.flush_to_memory,
            settings.summary_role,
            &summary,
        );
        tokens_after(view, cut, counts, &inserted.messages)
    });
    let warnings = warnings_for(&planned, settings, after, transcript);
    Figures {
        planned,
        tokens_after: after,
        warnings,
    }
}

/// The warnings of `planned` (made with `settings` on `transcript`, or on its
/// deterministic view) when its result costs `tokens_after` tokens.
pub(crate) fn warnings_for(
    planned: &Planned,
    settings: &Settings,
    tokens_after: u64,
    transcript: &Transcript,
) -> Vec<Warning> {
    warnings(
        planned,
        settings.options.max_tokens,
        tokens_after,
        transcript.format.dialect,
        settings.summary_role,
        transcript.format.container.is_log(),
    )
}
