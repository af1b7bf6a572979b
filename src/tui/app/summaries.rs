//! Summaries for preview, export and the loss report: made once per cut on a worker,
//! cancellable, editable; the spinner while it runs.

use std::sync::Arc;

use super::{AfterSummary, App, Effect, Mode, Status, Summary};
use crate::compact::Strategy;
use crate::summarize::{Placeholder, Spec};
use crate::transcript::Transcript;

impl App {
    /// True while a worker runs (a count or a summary): the loop then ticks.
    pub fn busy(&self) -> bool {
        self.counting.is_some() || self.summarizing.is_some() || self.deriving.is_some() || self.previewing.is_some()
    }

    /// The spinner frame for the current tick.
    pub fn spinner(&self) -> char {
        const FRAMES: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
        FRAMES[(self.tick % 10) as usize]
    }

    /// The cut a summary would be for: (strategy, first summarized, split).
    pub fn summary_key(&self) -> Option<(Strategy, usize, usize)> {
        self.plan.cut().map(|c| (self.strategy, c.head_end, c.split))
    }

    /// The summary text of the current cut, when made.
    pub fn summary_text(&self) -> Option<&str> {
        self.summary
            .as_ref()
            .filter(|s| Some(s.key) == self.summary_key())
            .map(|s| s.text.as_str())
    }

    /// The transcript the current cut is on (the deterministic output under
    /// `deterministic,tail`) and the messages it summarizes.
    pub fn summary_job(&self) -> Option<(Arc<Transcript>, std::ops::Range<usize>)> {
        let cut = self.plan.cut()?;
        let transcript = self
            .deterministic()
            .map_or_else(|| Arc::clone(&self.transcript), |d| Arc::clone(&d.transcript));
        Some((transcript, cut.head_end..cut.split))
    }

    /// Runs `after` once the current cut has a summary, starting one if needed.
    pub(super) fn with_summary(&mut self, after: AfterSummary) -> Effect {
        let Some(key) = self.summary_key() else {
            return self.run_after(after); // a no-op summarizes nothing
        };
        if self.summary_text().is_none() && self.summarizer == Spec::Placeholder {
            let text = Placeholder::text(key.2 - key.1);
            self.summary = Some(Summary {
                key,
                text,
                edited: false,
            });
        }
        if self.summary_text().is_some() {
            return self.run_after(after);
        }
        self.summary_generation += 1;
        self.summarizing = Some(self.summary_generation);
        self.after_summary = Some(after);
        self.mode = Mode::Waiting(format!(
            " summarizing {} messages with {}… (Esc cancels) ",
            key.2 - key.1,
            self.summarizer
        ));
        Effect::Summarize {
            generation: self.summary_generation,
        }
    }

    pub(super) fn run_after(&mut self, after: AfterSummary) -> Effect {
        self.mode = Mode::Normal;
        match after {
            AfterSummary::Preview => {
                self.preview_generation += 1;
                self.previewing = Some(self.preview_generation);
                self.mode = Mode::Waiting(" building the preview… (Esc cancels) ".to_owned());
                return Effect::BuildPreview {
                    generation: self.preview_generation,
                };
            }
            AfterSummary::Loss => {
                let text = match (self.summary_job(), self.plan.cut(), self.summary_text()) {
                    (Some((transcript, _)), Some(cut), Some(summary)) => {
                        crate::loss::loss_report(&transcript, cut, summary).to_string()
                    }
                    _ => "Loss report: no-op, nothing is summarized, nothing is lost.".to_owned(),
                };
                self.mode = Mode::Loss { text, scroll: 0 };
            }
            AfterSummary::Export(path) => return Effect::Export(path),
            AfterSummary::Edit => match self.summary_text() {
                Some(text) => return Effect::EditSummary(text.to_owned()),
                None => {
                    self.status = Some(Status {
                        text: "nothing to summarize: the plan is a no-op".into(),
                        error: false,
                    });
                }
            },
        }
        Effect::None
    }

    pub(super) fn summary_ready(&mut self, generation: u64, result: Result<String, String>) -> Effect {
        if self.summarizing != Some(generation) {
            return Effect::None; // cancelled, or superseded by a newer request
        }
        self.summarizing = None;
        let after = self.after_summary.take();
        match (result, self.summary_key()) {
            (Ok(text), Some(key)) => {
                self.summary = Some(Summary {
                    key,
                    text,
                    edited: false,
                });
                self.replan();
                after.map_or(Effect::None, |a| self.run_after(a))
            }
            (Err(error), _) => {
                self.mode = Mode::Normal;
                self.status = Some(Status {
                    text: format!("summary failed: {error}"),
                    error: true,
                });
                Effect::None
            }
            (Ok(_), None) => {
                self.mode = Mode::Normal;
                Effect::None
            }
        }
    }

    pub(super) fn summary_edited(&mut self, result: Result<String, String>) {
        match (result, self.summary_key()) {
            (Ok(text), Some(key)) if !text.trim().is_empty() => {
                let tokens = (text.chars().count() as u64).div_ceil(4);
                self.summary = Some(Summary {
                    key,
                    text: text.trim_end().to_owned(),
                    edited: true,
                });
                self.replan();
                self.status = Some(Status {
                    text: format!("summary edited (≈ {tokens} tokens): preview and export use it"),
                    error: false,
                });
            }
            (Ok(_), _) => {
                self.status = Some(Status {
                    text: "summary left unchanged (the edit was empty)".into(),
                    error: true,
                });
            }
            (Err(error), _) => {
                self.status = Some(Status {
                    text: format!("editor failed: {error}"),
                    error: true,
                });
            }
        }
    }
}
