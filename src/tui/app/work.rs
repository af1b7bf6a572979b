//! Work the user waits for: the summary of the current cut (made once per cut on a
//! worker, cancellable, editable), then the preview, the loss report or the export that
//! needed it. Every result is used only when the inputs it names are still the current
//! ones; anything else is stale and dropped, and a still-waiting request is re-made.

use std::path::PathBuf;
use std::sync::Arc;

use super::{App, Effect, Mode, PreviewView, Status, Summary};
use crate::loss::LossReport;
use crate::summarize::{Placeholder, Spec};
use crate::text::thousands;
use crate::tui::action::Action;
use crate::tui::jobs::{Job, JobKind, OutcomeKey, Preview, RunSnapshot, SummaryKey};

/// What to do once the summary of the current cut exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AfterSummary {
    /// Open the preview.
    Preview,
    /// Open the loss report.
    Loss,
    /// Export to this path (`true`: replacing the input was confirmed).
    Export(PathBuf, bool),
    /// Open the summary in the editor.
    Edit,
}

impl App {
    /// The summary the current cut needs, naming it exactly; `None` without a cut, or
    /// while the deterministic pass the cut is on is not made yet.
    pub(super) fn summary_key(&self) -> Option<SummaryKey> {
        let cut = self.planned.cut()?;
        let derive = self.derive_key();
        if derive.is_some() && self.deterministic().is_none() {
            return None;
        }
        Some(SummaryKey {
            strategy: self.settings.strategy,
            tokenizer: self.tokenizer,
            derive,
            head_end: cut.head_end,
            split: cut.split,
            summarizer: (self.summarizer.clone(), self.summary_settings.clone()),
        })
    }

    /// Runs `after` once the current cut has a summary, starting one if needed.
    pub(super) fn with_summary(&mut self, after: AfterSummary) -> Vec<Effect> {
        if self.planned.cut().is_none() {
            return self.run_after(after); // a no-op summarizes nothing
        }
        if let Some(key) = self.summary_key() {
            if self.summary().is_none() && self.summarizer == Spec::Placeholder {
                self.summary = Some(Summary {
                    text: Placeholder::text(key.range().len()),
                    key,
                    edited: false,
                });
            }
        }
        if self.summary().is_some() {
            return self.run_after(after);
        }
        self.pending = Some(after);
        Vec::new() // `needed_jobs` starts what is missing
    }

    /// The jobs the current state needs and that are not running: the deterministic
    /// pass of the strategy, and the summary a waiting request needs.
    pub(super) fn needed_jobs(&mut self) -> Vec<Effect> {
        let mut effects: Vec<Effect> = self.needed_derivation().into_iter().collect();
        let Some(after) = self.pending.clone() else {
            return effects;
        };
        if self.planned.cut().is_none() {
            self.pending = None;
            effects.extend(self.run_after(after));
            return effects;
        }
        let Some(key) = self.summary_key() else {
            self.mode = Mode::Waiting(" running the deterministic pass first… (Esc cancels) ".into());
            return effects;
        };
        if self.summary().is_some() {
            self.pending = None;
            effects.extend(self.run_after(after));
            return effects;
        }
        if self.summarizer == Spec::Placeholder {
            self.summary = Some(Summary {
                text: Placeholder::text(key.range().len()),
                key,
                edited: false,
            });
            self.pending = None;
            effects.extend(self.run_after(after));
            return effects;
        }
        if self.summarizing.as_ref() != Some(&key) {
            self.waiting_progress = None;
            self.mode = Mode::Waiting(format!(
                " summarizing {} messages with {}… (Esc cancels) ",
                thousands(key.range().len() as u64),
                self.summarizer
            ));
            let view = self
                .deterministic()
                .map_or_else(|| (*self.transcript).clone(), |d| d.view.clone());
            self.summarizing = Some(key.clone());
            effects.push(Effect::Start(Job::Summary { key, view }));
        }
        effects
    }

    /// The inputs of a compaction with the current settings and summary.
    fn run_snapshot(&self) -> RunSnapshot {
        let summary = self
            .summary()
            .filter(|_| self.planned.cut().is_some())
            .map(|s| (s.key.clone(), s.text.clone()));
        RunSnapshot {
            key: OutcomeKey {
                settings: self.settings,
                tokenizer: self.tokenizer,
                summary,
            },
            transcript: Arc::clone(&self.transcript),
            counts: Arc::clone(&self.counts[&self.tokenizer]),
            derived: self.derive_key().and_then(|key| self.derived.get(&key)).map(Arc::clone),
        }
    }

    /// The key a preview or report made now would carry.
    fn outcome_key(&self) -> OutcomeKey {
        self.run_snapshot().key
    }

    pub(super) fn run_after(&mut self, after: AfterSummary) -> Vec<Effect> {
        self.mode = Mode::Normal;
        match after {
            AfterSummary::Preview => {
                let snapshot = self.run_snapshot();
                self.previewing.restart(snapshot.key.clone());
                self.mode = Mode::Waiting(" building the preview… (Esc cancels) ".to_owned());
                vec![Effect::Start(Job::Preview(snapshot))]
            }
            AfterSummary::Loss => {
                let snapshot = self.run_snapshot();
                self.reporting.restart(snapshot.key.clone());
                self.waiting_progress = None;
                self.mode = Mode::Waiting(" making the loss report… (Esc cancels) ".to_owned());
                vec![Effect::Start(Job::Loss(snapshot))]
            }
            AfterSummary::Export(path, overwrite_input) => {
                self.exporting = Some(path.clone());
                self.status = Status::info(format!("writing {}…", path.display()));
                vec![Effect::Start(Job::Export {
                    snapshot: self.run_snapshot(),
                    path,
                    input: self.input_path.clone(),
                    overwrite_input,
                })]
            }
            AfterSummary::Edit => {
                if let Some(s) = self.summary() {
                    return vec![Effect::Edit {
                        key: s.key.clone(),
                        text: s.text.clone(),
                    }];
                }
                self.status = Status::info("nothing to summarize: the plan is a no-op");
                Vec::new()
            }
        }
    }

    /// Esc while waiting: the request is dropped and its jobs cancelled.
    pub(super) fn cancel_waiting(&mut self) -> Vec<Effect> {
        self.pending = None;
        self.summarizing = None;
        self.previewing.cancel();
        self.reporting.cancel();
        self.waiting_progress = None;
        self.mode = Mode::Normal;
        self.status = Status::info("cancelled");
        vec![
            Effect::Cancel(JobKind::Summary),
            Effect::Cancel(JobKind::Preview),
            Effect::Cancel(JobKind::Loss),
        ]
    }

    pub(super) fn summarized(&mut self, key: SummaryKey, result: crate::Result<String>) -> Vec<Effect> {
        if self.summarizing.as_ref() == Some(&key) {
            self.summarizing = None;
        }
        match result {
            Ok(text) => {
                // Kept only for the cut it was made for; a stale one is dropped and a
                // waiting request asks for the current cut's summary again.
                if Some(&key) == self.summary_key().as_ref() {
                    self.summary = Some(Summary {
                        key,
                        text,
                        edited: false,
                    });
                    self.replan();
                }
            }
            Err(crate::Error::Cancelled) => {}
            Err(error) => {
                if Some(&key) == self.summary_key().as_ref() {
                    self.pending = None;
                    self.mode = Mode::Normal;
                    self.status = Status::error(format!("summary failed: {error}"));
                }
            }
        }
        Vec::new()
    }

    pub(super) fn edited(&mut self, key: &SummaryKey, result: Result<String, String>) {
        match result {
            Ok(text) if text.trim().is_empty() => {
                self.status = Status::error("summary left unchanged (the edit was empty)");
            }
            Ok(_) if Some(key) != self.summary_key().as_ref() => {
                self.status = Status::error("the cut changed while editing: the edit was not kept");
            }
            Ok(text) => {
                let tokens = (text.chars().count() as u64).div_ceil(4);
                self.summary = Some(Summary {
                    key: key.clone(),
                    text: text.trim_end().to_owned(),
                    edited: true,
                });
                self.replan();
                self.status = Status::info(format!(
                    "summary edited (≈ {} tokens): preview and export use it",
                    thousands(tokens)
                ));
            }
            Err(error) => self.status = Status::error(format!("editor failed: {error}")),
        }
    }

    pub(super) fn previewed(&mut self, key: &OutcomeKey, result: crate::Result<Preview>) {
        if !self.previewing.land(key) {
            return;
        }
        if *key != self.outcome_key() {
            self.mode = Mode::Normal;
            return;
        }
        self.mode = match result {
            Ok(p) => Mode::Preview(PreviewView {
                title: if p.unchanged {
                    " preview: no change, the output is the input byte for byte ".to_owned()
                } else {
                    format!(
                        " preview ({}): as `compact` writes it · {} tokens ",
                        p.strategy,
                        thousands(p.tokens_after)
                    )
                },
                text: p.text,
                segments: p.segments,
                readable: p.readable,
                readable_segments: p.readable_segments,
                scroll: 0,
            }),
            Err(e) => {
                self.status = Status::error(format!("preview failed: {e}"));
                Mode::Normal
            }
        };
    }

    pub(super) fn reported(&mut self, key: &OutcomeKey, result: crate::Result<Option<LossReport>>) {
        if !self.reporting.land(key) {
            return;
        }
        self.mode = match result {
            Ok(report) if *key == self.outcome_key() => Mode::Loss {
                text: report.map_or_else(
                    || "Loss report: no-op, nothing is summarized, nothing is lost.".to_owned(),
                    |r| r.text(crate::loss::rank::Detail::Matter),
                ),
                scroll: 0,
                selected: 0,
            },
            Ok(_) => Mode::Normal,
            Err(e) => {
                self.status = Status::error(format!("loss report failed: {e}"));
                Mode::Normal
            }
        };
    }

    pub(super) fn exported(&mut self, path: &std::path::Path, result: crate::Result<String>) {
        if self.exporting.as_deref() == Some(path) {
            self.exporting = None;
        }
        self.status = match result {
            Ok(text) => Status::info(text),
            Err(e) => Status::error(format!("{e}")),
        };
    }
}

/// The message a loss report's line names (`  #123 …`), if any.
pub fn message_on_line(line: &str) -> Option<usize> {
    let rest = line.strip_prefix("  #")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

impl App {
    /// Keys in the loss report: move the highlight (the view follows it); Enter jumps to
    /// the message the highlighted line names.
    pub(super) fn loss_action(&mut self, action: &Action, page: usize) {
        let rows = crate::tui::layout::overlay_rows(self.size);
        let Mode::Loss { text, scroll, selected } = &mut self.mode else {
            return;
        };
        let last = text.lines().count().saturating_sub(1);
        match action {
            Action::Up => *selected = selected.saturating_sub(1),
            Action::Down => *selected += 1,
            Action::Scroll(n) => *selected = selected.saturating_add_signed(*n as isize),
            Action::PageUp => *selected = selected.saturating_sub(page),
            Action::PageDown => *selected += page,
            Action::Top => *selected = 0,
            Action::Bottom => *selected = last,
            Action::Activate => {
                let target = text.lines().nth(*selected).and_then(message_on_line);
                if let Some(index) = target.filter(|&i| i < self.transcript.messages().len()) {
                    self.mode = Mode::Normal;
                    if self.filter.as_ref().is_some_and(|f| !f.shown.contains(&index)) {
                        self.clear_filter();
                    }
                    self.select(index);
                    self.status = Status::info(format!("#{index}, from the loss report"));
                }
                return;
            }
            _ => {}
        }
        *selected = (*selected).min(last);
        // Keep the highlight on screen (lines wrap at the screen's width, so a line may
        // take several rows), and never scroll past the last page.
        let width = usize::from(self.size.0.saturating_sub(2));
        let heights: Vec<usize> = text.lines().map(|l| crate::tui::wrap::height(l, width)).collect();
        if *selected < *scroll {
            *scroll = *selected;
        }
        while *scroll < *selected && heights[*scroll..=*selected].iter().sum::<usize>() > rows {
            *scroll += 1;
        }
        *scroll = (*scroll).min(crate::tui::wrap::last_scroll(&heights, rows));
    }
}
