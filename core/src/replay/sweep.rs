//! The budget sweep: one replay per setting (in parallel), and the answers a user tuning
//! a budget wants: where more budget stops paying (the knee), the smallest budget that is
//! safe (never loops, keeps every user instruction and at least a floor of the facts), and
//! the smallest that keeps a given message verbatim to the end.
//!
//! The answers depend neither on the rows shown nor on the range typed: they are searched
//! on the session's own grid, [`ANSWER_STEPS`] equal steps up to its peak context (where
//! no budget fires any more), with the range's tail rules (replays shared with the rows
//! where they coincide), and the smallest safe budget is then narrowed by bisection
//! between the grid's last unsafe budget and the first from which every larger one is
//! safe. A table of 5 budgets and one of 50, over `40000..200000` or `0..152518`, give the
//! same knee and the same smallest safe budget.

use std::collections::HashMap;

use rayon::prelude::*;

use super::lost::{lifetime_loss_counts, FactIndex};
use super::{replay, Inputs as ReplayInputs, View};
use crate::cancel::CancelToken;
use crate::compact::{Options, SummaryRole};
use crate::summarize::Summarizer;

/// Equal steps of the grid the answers are searched on, up to the session's peak (and of
/// a chart's rows over a range).
pub const ANSWER_STEPS: u64 = 24;

/// Rounds of the search that narrows the smallest safe budget between two grid points,
/// each replaying [`PROBES`] budgets at once (an interval of a 24th of the peak ends a
/// `(PROBES + 1)^ROUNDS`th of it: 1/1536 of the peak).
const ROUNDS: u32 = 3;
/// Budgets replayed in parallel in each round.
const PROBES: u64 = 3;

/// The share of the facts a safe budget keeps unless the user sets another, in percent.
pub const DEFAULT_FACT_FLOOR: f64 = 50.0;

/// How a budget's tail is chosen: one rule for every budget of a sweep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TailRule {
    /// The compactor's default (half the budget).
    Default,
    /// The same number of tokens at every budget.
    Tokens(u64),
    /// A share of each budget, in thousandths.
    PerMille(u64),
}

impl TailRule {
    /// The `keep_tail` option at `max_tokens`.
    pub fn at(self, max_tokens: u64) -> Option<u64> {
        match self {
            TailRule::Default => None,
            TailRule::Tokens(k) => Some(k),
            TailRule::PerMille(m) => Some(max_tokens.saturating_mul(m) / 1000),
        }
    }
}

/// The budgets a sweep answers over: `from..=to`, each with every tail rule.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Range {
    /// The smallest budget.
    pub from: u64,
    /// The largest budget.
    pub to: u64,
    /// The tail rules tried at each budget (at least one).
    pub tails: Vec<TailRule>,
    /// Add the memory-tool reminder before the kept tail.
    pub flush_to_memory: bool,
}

impl Range {
    /// `budgets`, each with every tail rule: the rows of a table.
    pub fn settings(&self, budgets: &[u64]) -> Vec<Options> {
        budgets
            .iter()
            .flat_map(|&max_tokens| {
                self.tails.iter().map(move |tail| Options {
                    max_tokens,
                    keep_tail: tail.at(max_tokens),
                    flush_to_memory: self.flush_to_memory,
                })
            })
            .collect()
    }

    /// `steps` equal steps over the range, both ends included (one budget when the range
    /// is a single one).
    pub fn budgets(&self, steps: u64) -> Vec<u64> {
        let steps = steps.max(1);
        let mut out: Vec<u64> = (0..=steps)
            .map(|k| {
                self.from
                    + u64::try_from(u128::from(self.to - self.from) * u128::from(k) / u128::from(steps))
                        .unwrap_or(self.to)
            })
            .collect();
        out.dedup();
        out
    }

    /// [`ANSWER_STEPS`] equal steps over the range, each with every tail rule: a chart's
    /// rows (the TUI's sweep).
    pub fn chart(&self) -> Vec<Options> {
        self.settings(&self.budgets(ANSWER_STEPS))
    }

    /// The grid the answers are searched on: [`ANSWER_STEPS`] equal steps up to `peak`
    /// (the session's largest context), whatever the range, with its tail rules.
    fn answer_grid(&self, peak: u64) -> Vec<Options> {
        let peak = peak.max(1);
        let mut budgets: Vec<u64> = (1..=ANSWER_STEPS)
            .map(|k| u64::try_from(u128::from(peak) * u128::from(k) / u128::from(ANSWER_STEPS)).unwrap_or(peak))
            .filter(|&b| b > 0)
            .collect();
        budgets.dedup();
        self.settings(&budgets)
    }
}

/// What a sweep needs.
pub struct Inputs<'a> {
    /// The session.
    pub view: &'a View,
    /// Its facts and human turns.
    pub facts: &'a FactIndex,
    /// The settings to show, in the order to report them.
    pub settings: &'a [Options],
    /// The range the answers are searched over (see the module's docs).
    pub range: &'a Range,
    /// The share of the facts (percent) a safe budget keeps.
    pub fact_floor: f64,
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

impl Row {
    /// Never loops, keeps every user instruction and at least `fact_floor` percent of
    /// the facts.
    pub fn is_safe(&self, fact_floor: f64) -> bool {
        self.loops == 0 && self.instructions_lost == 0 && self.fact_survival_percent >= fact_floor
    }
}

/// A setting the sweep answers with (a point of the answer grid), with its replay.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Answer {
    /// `max_tokens`.
    pub max_tokens: u64,
    /// The effective `keep_tail`.
    pub keep_tail: u64,
    /// The shown row nearest to it (where a chart marks it).
    #[serde(skip)]
    pub nearest_row: usize,
    /// Its own replay's outcome.
    #[serde(skip)]
    pub row: Row,
    /// A shown row is this very setting.
    #[serde(skip)]
    pub shown: bool,
}

/// A sweep's outcome.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Sweep {
    /// One row per setting, in the order given.
    pub rows: Vec<Row>,
    /// Where more budget stops buying many fewer firings.
    pub knee: Option<Answer>,
    /// The smallest safe setting ([`Row::is_safe`] with the floor below).
    pub smallest_safe: Option<Answer>,
    /// The smallest `max_tokens` that keeps the `keep` message verbatim to the end.
    pub smallest_keeping: Option<Answer>,
    /// The fact floor "safe" used, in percent.
    pub fact_floor: f64,
}

/// The outcome of one setting's replay.
fn row(inputs: &Inputs, options: &Options) -> crate::Result<Row> {
    let outcome = replay(&ReplayInputs {
        view: inputs.view,
        options: *options,
        summary_role: inputs.summary_role,
        cuts_a_tail: inputs.cuts_a_tail,
        summarizer: inputs.summarizer,
        cancel: inputs.cancel,
        progress: None,
    })?;
    let loss = lifetime_loss_counts(inputs.facts, &outcome);
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
        fact_survival_percent: loss.survival_percent,
        facts_lost: loss.facts_lost,
        instructions_lost: loss.instructions_lost,
        keeps: inputs.keep.map(|p| outcome.keeps(p)),
    })
}

/// A setting's identity for sharing replays between the rows and the answer grid.
fn identity(o: &Options) -> (u64, u64, bool) {
    (o.max_tokens, o.effective_keep_tail(), o.flush_to_memory)
}

/// Replays every setting shown and every point of the answer grid (each once), and
/// answers.
pub fn sweep(inputs: &Inputs) -> crate::Result<Sweep> {
    let grid = inputs.range.answer_grid(inputs.view.total());
    let mut unique: Vec<Options> = Vec::with_capacity(inputs.settings.len() + grid.len());
    let mut seen = std::collections::HashSet::new();
    for options in inputs.settings.iter().chain(&grid) {
        if seen.insert(identity(options)) {
            unique.push(*options);
        }
    }
    if unique.len() > 1 {
        inputs.facts.prepare_for_many();
    }
    let done = std::sync::atomic::AtomicUsize::new(0);
    let replayed: Vec<Row> = unique
        .par_iter()
        .map(|options| {
            let made = row(inputs, options)?;
            if let Some(progress) = inputs.progress {
                let finished = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                progress(finished, unique.len());
            }
            Ok(made)
        })
        .collect::<crate::Result<_>>()?;
    let by_identity: HashMap<(u64, u64, bool), &Row> = unique.iter().map(identity).zip(replayed.iter()).collect();
    let rows: Vec<Row> = inputs
        .settings
        .iter()
        .map(|o| by_identity[&identity(o)].clone())
        .collect();
    let grid_rows: Vec<Row> = grid.iter().map(|o| by_identity[&identity(o)].clone()).collect();
    let by_budget = sorted_by_budget(&grid_rows);
    let answer = |r: &Row| {
        let nearest_row = nearest(&rows, r);
        Answer {
            max_tokens: r.max_tokens,
            keep_tail: r.keep_tail,
            nearest_row,
            shown: rows
                .get(nearest_row)
                .is_some_and(|n| (n.max_tokens, n.keep_tail) == (r.max_tokens, r.keep_tail)),
            row: r.clone(),
        }
    };
    let floor = inputs.fact_floor;
    let smallest_safe = smallest_from_here_up(inputs, &grid_rows, &by_budget, &|r| r.is_safe(floor))?;
    let smallest_keeping = smallest_from_here_up(inputs, &grid_rows, &by_budget, &|r| r.keeps == Some(true))?;
    Ok(Sweep {
        knee: knee(&grid_rows, &by_budget).map(|i| answer(&grid_rows[i])),
        smallest_safe: smallest_safe.as_ref().map(answer),
        smallest_keeping: smallest_keeping.as_ref().map(answer),
        fact_floor: inputs.fact_floor,
        rows,
    })
}

/// The smallest budget from which every larger budget of the grid is `ok` (a budget is
/// `ok` when one of its tail rules is), narrowed by bisection between it and the grid's
/// budget below: the row of that budget with the tail rule that was `ok` there. `None`
/// when even the peak is not.
fn smallest_from_here_up(
    inputs: &Inputs,
    grid_rows: &[Row],
    by_budget: &[usize],
    ok: &(dyn Fn(&Row) -> bool + Sync),
) -> crate::Result<Option<Row>> {
    // Each budget's first `ok` row, budgets ascending.
    let mut budgets: Vec<(u64, Option<usize>)> = Vec::new();
    for &i in by_budget {
        let r = &grid_rows[i];
        match budgets.last_mut() {
            Some((b, first)) if *b == r.max_tokens => {
                if first.is_none() && ok(r) {
                    *first = Some(i);
                }
            }
            _ => budgets.push((r.max_tokens, ok(r).then_some(i))),
        }
    }
    let from = budgets
        .iter()
        .rposition(|(_, first)| first.is_none())
        .map_or(0, |k| k + 1);
    let Some(&(_, Some(found))) = budgets.get(from) else {
        return Ok(None);
    };
    let mut best = grid_rows[found].clone();
    let mut below = from.checked_sub(1).map_or(0, |k| budgets[k].0);
    let tail = inputs.range.tails.iter().copied().find(|t| {
        let keep = t.at(best.max_tokens);
        Options {
            max_tokens: best.max_tokens,
            keep_tail: keep,
            flush_to_memory: inputs.range.flush_to_memory,
        }
        .effective_keep_tail()
            == best.keep_tail
    });
    let Some(tail) = tail else {
        return Ok(Some(best));
    };
    for _ in 0..ROUNDS {
        let above = best.max_tokens;
        if above.saturating_sub(below) <= PROBES + 1 {
            break;
        }
        let probes: Vec<u64> = (1..=PROBES)
            .map(|k| below + (above - below) * k / (PROBES + 1))
            .collect();
        let replayed: Vec<Row> = probes
            .par_iter()
            .map(|&max_tokens| {
                row(
                    inputs,
                    &Options {
                        max_tokens,
                        keep_tail: tail.at(max_tokens),
                        flush_to_memory: inputs.range.flush_to_memory,
                    },
                )
            })
            .collect::<crate::Result<_>>()?;
        // The smallest probe from which every larger probe is `ok` too.
        let first_ok = replayed.iter().rposition(|r| !ok(r)).map_or(0, |k| k + 1);
        if first_ok > 0 {
            below = probes[first_ok - 1];
        }
        if let Some(r) = replayed.get(first_ok) {
            best = r.clone();
        }
    }
    Ok(Some(best))
}

/// The shown row nearest to `to` (by budget, then tail; the first of equals).
fn nearest(rows: &[Row], to: &Row) -> usize {
    (0..rows.len())
        .min_by_key(|&i| {
            (
                rows[i].max_tokens.abs_diff(to.max_tokens),
                rows[i].keep_tail.abs_diff(to.keep_tail),
            )
        })
        .unwrap_or(0)
}

/// Row indices by `max_tokens`, then `keep_tail`.
fn sorted_by_budget(rows: &[Row]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by_key(|&i| (rows[i].max_tokens, rows[i].keep_tail));
    order
}

/// The knee of firings against `max_tokens`: for each budget its best row (fewest
/// firings), then the point farthest from the straight line between the smallest and
/// the largest budget, both axes scaled to 0..1 ("kneedle"). Only settings that never
/// loop are on the curve: a setting that fires at every call once over its budget is
/// no place to stop, however few firings it counts. `None` when the curve is flat or
/// has fewer than three budgets.
fn knee(rows: &[Row], by_budget: &[usize]) -> Option<usize> {
    let mut best: Vec<usize> = Vec::new();
    for &i in by_budget.iter().filter(|&&i| rows[i].loops == 0) {
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

    /// A generated session of `messages` messages: its view, facts and total tokens.
    fn session_of(messages: usize) -> (View, FactIndex, u64) {
        let text = crate::synth::openai_transcript(messages);
        let transcript = crate::transcript::Transcript::parse("t.json", text.into_bytes(), None).expect("loads");
        let counts = crate::tokens::Counts::compute(&transcript, crate::tokens::Tokenizer::Estimate);
        let total = counts.total();
        let view = View::new(transcript, counts);
        let facts = FactIndex::build(&view, crate::cancel::never()).expect("facts");
        (view, facts, total)
    }

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
        let (view, facts, total) = session_of(300);
        let range = Range {
            from: total / 8,
            to: total * 6 / 8,
            tails: vec![TailRule::Default],
            flush_to_memory: false,
        };
        let settings = range.settings(&(1..=6).map(|k| total * k / 8).collect::<Vec<_>>());
        let told = std::sync::Mutex::new(Vec::new());
        let progress = |done: usize, of: usize| told.lock().expect("lock").push((done, of));
        let swept = sweep(&Inputs {
            view: &view,
            facts: &facts,
            settings: &settings,
            range: &range,
            fact_floor: DEFAULT_FACT_FLOOR,
            summary_role: SummaryRole::System,
            cuts_a_tail: true,
            summarizer: &crate::summarize::Placeholder,
            keep: None,
            cancel: crate::cancel::never(),
            progress: Some(&progress),
        })
        .expect("sweeps");
        assert_eq!(swept.rows.len(), 6);
        // The rows and the answer grid share the replays they have in common.
        let replays = {
            let mut all: Vec<(u64, u64, bool)> = settings
                .iter()
                .chain(&range.answer_grid(view.total()))
                .map(identity)
                .collect();
            all.sort_unstable();
            all.dedup();
            all.len()
        };
        let mut told = told.into_inner().expect("lock");
        told.sort_unstable();
        assert_eq!(told, (1..=replays).map(|d| (d, replays)).collect::<Vec<_>>());
    }

    #[test]
    fn the_answers_do_not_depend_on_the_range_typed() {
        let (view, facts, total) = session_of(400);
        let answers = |from: u64, to: u64| {
            let range = Range {
                from,
                to,
                tails: vec![TailRule::Default],
                flush_to_memory: false,
            };
            let settings = range.settings(&range.budgets(4));
            let swept = sweep(&Inputs {
                view: &view,
                facts: &facts,
                settings: &settings,
                range: &range,
                fact_floor: 0.0,
                summary_role: SummaryRole::System,
                cuts_a_tail: true,
                summarizer: &crate::summarize::Placeholder,
                keep: Some(view.len() / 3),
                cancel: crate::cancel::never(),
                progress: None,
            })
            .expect("sweeps");
            let point = |a: &Option<Answer>| a.as_ref().map(|a| (a.max_tokens, a.keep_tail));
            (
                point(&swept.knee),
                point(&swept.smallest_safe),
                point(&swept.smallest_keeping),
            )
        };
        let whole = answers(total / 20, total);
        assert!(
            whole.1.is_some() && whole.2.is_some(),
            "a safe budget and one keeping the message: {whole:?}"
        );
        for (from, to) in [(total / 3, total * 2 / 3), (0, total * 2), (total / 2, total / 2 + 1)] {
            assert_eq!(answers(from, to), whole, "range {from}..{to}");
        }
        // Narrowed below the grid's step: every budget of the grid above it is safe, and
        // the next grid budget down is not.
        let step = view.total() / ANSWER_STEPS;
        let safe = whole.2.expect("keeping").0;
        assert!(
            safe % step != 0 || safe == step,
            "narrowed between grid points: {safe} (step {step})"
        );
    }

    #[test]
    fn the_answers_do_not_depend_on_the_rows_shown() {
        let (view, facts, total) = session_of(400);
        let range = Range {
            from: total / 20,
            to: total,
            tails: vec![TailRule::Default, TailRule::PerMille(300)],
            flush_to_memory: false,
        };
        let answers = |steps: u64| {
            let settings = range.settings(&range.budgets(steps));
            let swept = sweep(&Inputs {
                view: &view,
                facts: &facts,
                settings: &settings,
                range: &range,
                fact_floor: DEFAULT_FACT_FLOOR,
                summary_role: SummaryRole::System,
                cuts_a_tail: true,
                summarizer: &crate::summarize::Placeholder,
                keep: Some(5),
                cancel: crate::cancel::never(),
                progress: None,
            })
            .expect("sweeps");
            assert_eq!(swept.rows.len(), settings.len());
            let point = |a: Option<Answer>| a.map(|a| (a.max_tokens, a.keep_tail, a.row));
            (
                point(swept.knee),
                point(swept.smallest_safe),
                point(swept.smallest_keeping),
            )
        };
        let (coarse, middle, fine) = (answers(4), answers(7), answers(31));
        assert!(coarse.0.is_some(), "a session that compacts has a knee");
        assert_eq!(coarse, middle);
        assert_eq!(coarse, fine);
    }

    #[test]
    fn safe_means_no_loop_no_lost_instruction_and_the_fact_floor() {
        let mut r = row(1000, 3);
        r.fact_survival_percent = 49.0;
        assert!(!r.is_safe(50.0));
        assert!(r.is_safe(40.0));
        r.instructions_lost = 1;
        assert!(!r.is_safe(0.0));
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
    fn a_setting_that_loops_is_never_the_knee() {
        // The same curve, its bend at a budget that loops: the knee moves to the next
        // budget that does not.
        let mut rows: Vec<Row> = [(1000, 40), (2000, 20), (3000, 6), (4000, 5), (5000, 4), (6000, 4)]
            .iter()
            .map(|&(m, f)| row(m, f))
            .collect();
        rows[0].loops = 3;
        rows[2].loops = 1;
        let got = knee(&rows, &sorted_by_budget(&rows)).expect("a knee");
        assert_eq!(rows[got].loops, 0);
        assert_eq!(rows[got].max_tokens, 4000);
    }

    #[test]
    fn a_flat_curve_has_no_knee() {
        let rows: Vec<Row> = [1000, 2000, 3000].iter().map(|&m| row(m, 2)).collect();
        assert_eq!(knee(&rows, &sorted_by_budget(&rows)), None);
    }
}
