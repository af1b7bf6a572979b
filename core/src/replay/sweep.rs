//! The budget sweep: one replay per setting (in parallel), and the answers a user tuning
//! a budget wants: where more budget stops paying (the knee), the smallest budget that
//! never loops and keeps every user instruction, and the smallest that keeps a given
//! message verbatim to the end.

use rayon::prelude::*;

use super::lost::{lifetime_loss, FactIndex};
use super::{replay, Inputs as ReplayInputs, View};
use crate::cancel::CancelToken;
use crate::compact::{Options, SummaryRole};
use crate::summarize::Summarizer;

/// What a sweep needs.
pub struct Inputs<'a> {
    /// The session.
    pub view: &'a View,
    /// Its facts and human turns.
    pub facts: &'a FactIndex,
    /// The settings to try, in the order to report them.
    pub settings: &'a [Options],
    /// The role of the summaries in a message list.
    pub summary_role: SummaryRole,
    /// `false` for a strategy that never cuts a tail.
    pub cuts_a_tail: bool,
    /// Makes the summaries.
    pub summarizer: &'a dyn Summarizer,
    /// A position the user wants kept verbatim to the end (`--keep N`).
    pub keep: Option<usize>,
    /// Stops the sweep early.
    pub cancel: &'a CancelToken,
    /// Told `(done, of)` each time a setting's replay finishes (a front end shows
    /// progress: a sweep with a summarizer that reads the messages takes seconds).
    pub progress: Option<&'a (dyn Fn(usize, usize) + Sync)>,
}

/// One setting's outcome.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Row {
    /// `max_tokens`.
    pub max_tokens: u64,
    /// The effective `keep_tail`.
    pub keep_tail: u64,
    /// Model calls.
    pub model_calls: usize,
    /// Firings.
    pub firings: usize,
    /// Firings still over budget afterwards.
    pub loops: usize,
    /// Calls sent over budget.
    pub calls_over_budget: usize,
    /// The position of the first firing.
    pub first_firing: Option<usize>,
    /// The context's tokens at the end.
    pub final_tokens: u64,
    /// Tokens all summaries read.
    pub summary_input_tokens: u64,
    /// Facts that survive, in percent.
    pub fact_survival_percent: f64,
    /// Facts lost.
    pub facts_lost: usize,
    /// User instructions lost.
    pub instructions_lost: usize,
    /// With `keep`: whether that message is in the final context verbatim.
    pub keeps: Option<bool>,
}

/// A sweep's outcome.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Sweep {
    /// One row per setting, in the order given.
    pub rows: Vec<Row>,
    /// The row where more budget stops buying many fewer firings.
    pub knee: Option<usize>,
    /// The smallest `max_tokens` (with its `keep_tail`) that never loops and keeps every
    /// user instruction.
    pub smallest_safe: Option<usize>,
    /// The smallest `max_tokens` that keeps the `keep` message verbatim to the end.
    pub smallest_keeping: Option<usize>,
}

/// Replays every setting and answers.
pub fn sweep(inputs: &Inputs) -> crate::Result<Sweep> {
    let done = std::sync::atomic::AtomicUsize::new(0);
    let rows: Vec<Row> = inputs
        .settings
        .par_iter()
        .map(|options| {
            let outcome = replay(&ReplayInputs {
                view: inputs.view,
                options: *options,
                summary_role: inputs.summary_role,
                cuts_a_tail: inputs.cuts_a_tail,
                summarizer: inputs.summarizer,
                cancel: inputs.cancel,
            })?;
            let loss = lifetime_loss(inputs.facts, &outcome);
            if let Some(progress) = inputs.progress {
                let finished = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                progress(finished, inputs.settings.len());
            }
            Ok(Row {
                max_tokens: options.max_tokens,
                keep_tail: options.effective_keep_tail(),
                model_calls: outcome.model_calls,
                firings: outcome.firings.len(),
                loops: outcome.loops,
                calls_over_budget: outcome.calls_over_budget,
                first_firing: outcome.first_firing().map(|f| f.at),
                final_tokens: outcome.final_tokens,
                summary_input_tokens: outcome.summary_input_tokens,
                fact_survival_percent: loss.survival_percent(),
                facts_lost: loss.lost.len(),
                instructions_lost: loss.instructions_lost.len(),
                keeps: inputs.keep.map(|p| outcome.keeps(p)),
            })
        })
        .collect::<crate::Result<_>>()?;
    let by_budget = sorted_by_budget(&rows);
    let smallest = |ok: &dyn Fn(&Row) -> bool| by_budget.iter().copied().find(|&i| ok(&rows[i]));
    Ok(Sweep {
        knee: knee(&rows, &by_budget),
        smallest_safe: smallest(&|r| r.loops == 0 && r.instructions_lost == 0),
        smallest_keeping: smallest(&|r| r.keeps == Some(true)),
        rows,
    })
}

/// Row indices by `max_tokens`, then `keep_tail`.
fn sorted_by_budget(rows: &[Row]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by_key(|&i| (rows[i].max_tokens, rows[i].keep_tail));
    order
}

/// The knee of firings against `max_tokens`: for each budget its best row (fewest
/// firings), then the point farthest from the straight line between the smallest and
/// the largest budget, both axes scaled to 0..1 ("kneedle"). `None` when the curve is
/// flat or has fewer than three budgets.
fn knee(rows: &[Row], by_budget: &[usize]) -> Option<usize> {
    let mut best: Vec<usize> = Vec::new();
    for &i in by_budget {
        match best.last() {
            Some(&b) if rows[b].max_tokens == rows[i].max_tokens => {
                if rows[i].firings < rows[b].firings {
                    *best.last_mut().expect("not empty") = i;
                }
            }
            _ => best.push(i),
        }
    }
    if best.len() < 3 {
        return None;
    }
    let x = |i: usize| rows[i].max_tokens as f64;
    let y = |i: usize| rows[i].firings as f64;
    let (x0, x1) = (x(best[0]), x(best[best.len() - 1]));
    let (ymin, ymax) = best
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), &i| (lo.min(y(i)), hi.max(y(i))));
    if ymax <= ymin || x1 <= x0 {
        return None;
    }
    let nx = |i: usize| (x(i) - x0) / (x1 - x0);
    let ny = |i: usize| (y(i) - ymin) / (ymax - ymin);
    let (ya, yb) = (ny(best[0]), ny(best[best.len() - 1]));
    // Distance below the chord from (0, ya) to (1, yb): a decreasing, convex curve bends
    // most where it is farthest below it.
    best.iter()
        .copied()
        .map(|i| (i, (ya + (yb - ya) * nx(i)) - ny(i)))
        .filter(|&(_, d)| d > 1e-9)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(max_tokens: u64, firings: usize) -> Row {
        Row {
            max_tokens,
            keep_tail: max_tokens / 2,
            model_calls: 10,
            firings,
            loops: 0,
            calls_over_budget: 0,
            first_firing: None,
            final_tokens: 0,
            summary_input_tokens: 0,
            fact_survival_percent: 100.0,
            facts_lost: 0,
            instructions_lost: 0,
            keeps: None,
        }
    }

    #[test]
    fn progress_is_told_once_per_setting_up_to_all_of_them() {
        use crate::tokens::{Counts, Tokenizer};
        let text = crate::synth::openai_transcript(300);
        let transcript = crate::transcript::Transcript::parse("t.json", text.into_bytes(), None).expect("loads");
        let counts = Counts::compute(&transcript, Tokenizer::Estimate);
        let total = counts.total();
        let view = View::new(transcript, counts);
        let facts = FactIndex::build(&view, crate::cancel::never()).expect("facts");
        let settings: Vec<Options> = (1..=6)
            .map(|k| Options {
                max_tokens: total * k / 8,
                keep_tail: None,
                flush_to_memory: false,
            })
            .collect();
        let told = std::sync::Mutex::new(Vec::new());
        let progress = |done: usize, of: usize| told.lock().expect("lock").push((done, of));
        let swept = sweep(&Inputs {
            view: &view,
            facts: &facts,
            settings: &settings,
            summary_role: SummaryRole::System,
            cuts_a_tail: true,
            summarizer: &crate::summarize::Placeholder,
            keep: None,
            cancel: crate::cancel::never(),
            progress: Some(&progress),
        })
        .expect("sweeps");
        assert_eq!(swept.rows.len(), 6);
        let mut told = told.into_inner().expect("lock");
        told.sort_unstable();
        assert_eq!(told, (1..=6).map(|d| (d, 6)).collect::<Vec<_>>());
    }

    #[test]
    fn the_knee_is_where_the_curve_bends() {
        // Firings fall fast, then barely: the bend is at 3000.
        let rows: Vec<Row> = [(1000, 40), (2000, 20), (3000, 6), (4000, 5), (5000, 4), (6000, 4)]
            .iter()
            .map(|&(m, f)| row(m, f))
            .collect();
        let order = sorted_by_budget(&rows);
        assert_eq!(knee(&rows, &order).map(|i| rows[i].max_tokens), Some(3000));
    }

    #[test]
    fn a_flat_curve_has_no_knee() {
        let rows: Vec<Row> = [1000, 2000, 3000].iter().map(|&m| row(m, 2)).collect();
        assert_eq!(knee(&rows, &sorted_by_budget(&rows)), None);
    }
}
