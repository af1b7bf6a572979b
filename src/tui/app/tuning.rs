//! Tuning: `max_tokens`, `keep_tail`, `flush_to_memory`, the strategy and the
//! tokenizer; re-planning from cached counts on every change (prefix sums, no re-count);
//! the counts and the deterministic pass arriving from their workers.

use std::sync::Arc;

use super::{App, Counting, Effect, Status};
use crate::compact::{Derived, Strategy};
use crate::text::thousands;
use crate::tokens::media::HeavySums;
use crate::tokens::{Counts, Tokenizer};
use crate::tui::action::{next_tokenizer, Action};
use crate::tui::jobs::{DeriveKey, Job, JobKind};

impl App {
    pub(super) fn tune(&mut self, action: &Action) -> Vec<Effect> {
        let total = self.counts().total();
        let (small, big) = (super::round_step(total / 100), super::round_step(total / 10));
        let max = self.settings.options.max_tokens;
        let keep = self.keep_tail();
        match action {
            Action::MaxUp => self.set_max(max.saturating_add(small)),
            Action::MaxDown => self.set_max(max.saturating_sub(small)),
            Action::MaxUpBig => self.set_max(max.saturating_add(big)),
            Action::MaxDownBig => self.set_max(max.saturating_sub(big)),
            Action::KeepUp => self.set_keep(keep.saturating_add(small)),
            Action::KeepDown => self.set_keep(keep.saturating_sub(small)),
            Action::KeepUpBig => self.set_keep(keep.saturating_add(big)),
            Action::KeepDownBig => self.set_keep(keep.saturating_sub(big)),
            Action::ToggleFlush => {
                let options = &mut self.settings.options;
                options.flush_to_memory = !options.flush_to_memory;
                let state = if options.flush_to_memory { "on" } else { "off" };
                self.replan();
                self.status = Status::info(format!("flush_to_memory {state}: {}", self.plan_summary()));
            }
            Action::CycleStrategy => {
                self.settings.strategy = self.settings.strategy.next();
                self.replan();
                self.status = Status::info(format!(
                    "strategy {}: {}",
                    self.settings.strategy.name(),
                    self.plan_summary()
                ));
            }
            Action::ToggleSummaryRole => {
                use crate::compact::SummaryRole;
                let role = &mut self.settings.summary_role;
                *role = if *role == SummaryRole::System {
                    SummaryRole::User
                } else {
                    SummaryRole::System
                };
                let name = role.name();
                self.replan();
                self.status = Status::info(format!("summary role {name}: {}", self.plan_summary()));
            }
            Action::CycleTokenizer => {
                let from = self.counting.map_or(self.tokenizer, |c| c.tokenizer);
                return self.switch_tokenizer(next_tokenizer(from));
            }
            _ => {}
        }
        Vec::new()
    }

    /// A budget the user never set is the default share of the total: after a tokenizer
    /// switch changes the total, it follows (so "(default: 60%)" stays true).
    pub(super) fn follow_default_budget(&mut self) {
        if self.default_max {
            self.settings.options.max_tokens = super::default_max_tokens(self.counts().total());
        }
    }

    pub(super) fn set_max(&mut self, value: u64) {
        self.settings.options.max_tokens = value;
        self.default_max = false;
        self.replan();
        self.follow_boundary();
        self.status = Status::info(format!("max_tokens {}: {}", thousands(value), self.plan_summary()));
    }

    pub(super) fn set_keep(&mut self, value: u64) {
        self.settings.options.keep_tail = Some(value);
        self.replan();
        self.follow_boundary();
        self.status = Status::info(format!("keep_tail {}: {}", thousands(value), self.plan_summary()));
    }

    /// After a budget key: when the boundary line left the screen, bring it back (the
    /// selection moves to the first tail message), so the user sees where the cut went.
    fn follow_boundary(&mut self) {
        let Some(split) = self.boundary_at() else {
            return;
        };
        if !matches!(self.mode, super::Mode::Normal) || self.size == (0, 0) {
            return;
        }
        let row = self.row_of_message(split).saturating_sub(1);
        if row < self.list_offset || row >= self.list_offset + self.page() {
            self.focus_on_cut();
        }
    }

    /// Shows `tokenizer`'s counts, counting them on a worker first when not cached
    /// (even the estimators take ~60 ms at 100k messages).
    pub(super) fn switch_tokenizer(&mut self, tokenizer: Tokenizer) -> Vec<Effect> {
        if self.counts.contains_key(&tokenizer) {
            self.tokenizer = tokenizer;
            self.follow_default_budget();
            self.replan();
            return match self.counting.take() {
                Some(_) => vec![Effect::Cancel(JobKind::Count)],
                None => Vec::new(),
            };
        }
        self.counting = Some(Counting {
            tokenizer,
            done: 0,
            total: self.transcript.messages().len(),
        });
        vec![Effect::Start(Job::Count {
            tokenizer,
            transcript: Arc::clone(&self.transcript),
        })]
    }

    pub(super) fn counted(&mut self, tokenizer: Tokenizer, result: crate::Result<Arc<Counts>>) -> Vec<Effect> {
        let wanted = self.counting.is_some_and(|c| c.tokenizer == tokenizer);
        match result {
            Ok(counts) => {
                // Cached even when no longer wanted: switching back is then instant.
                let heavy = HeavySums::of(&self.transcript, &counts, 0..self.transcript.messages().len());
                self.heavy.insert(tokenizer, heavy);
                self.counts.insert(tokenizer, counts);
                if wanted {
                    self.counting = None;
                    self.tokenizer = tokenizer;
                    self.follow_default_budget();
                    self.replan();
                    self.status = Status::info(format!("{tokenizer} counts ready"));
                }
            }
            Err(crate::Error::Cancelled) => {}
            Err(error) if wanted => {
                self.counting = None;
                self.status = Status::error(format!("counting with {tokenizer} failed: {error}"));
            }
            Err(_) => {}
        }
        Vec::new()
    }

    /// The deterministic pass the current settings need, when the strategy has one.
    pub(super) fn derive_key(&self) -> Option<DeriveKey> {
        let det = self.settings.deterministic;
        self.settings.strategy.uses_deterministic_pass().then_some(DeriveKey {
            tokenizer: self.tokenizer,
            options: det,
            cap: det.subjective_edits.then_some(self.settings.options.max_tokens),
        })
    }

    /// Starts the deterministic pass the settings need, when it is neither made nor
    /// running (at 100k messages it takes most of a second: a worker's job).
    pub(super) fn needed_derivation(&mut self) -> Option<Effect> {
        let key = self.derive_key()?;
        if !self.derived.start(&key) {
            return None;
        }
        self.status = Status::info("running the deterministic pass…");
        Some(Effect::Start(Job::Derive {
            key,
            transcript: Arc::clone(&self.transcript),
            counts: Arc::clone(&self.counts[&key.tokenizer]),
        }))
    }

    pub(super) fn derived_ready(&mut self, key: DeriveKey, result: crate::Result<Arc<Derived>>) {
        // Kept even when no longer awaited: going back to these settings reuses it.
        self.derived.land(&key);
        match result {
            Ok(derived) => {
                if self.derive_key() == Some(key) {
                    let c = &derived.compressed;
                    self.status = Status::info(format!(
                        "deterministic pass: {} edits, {} → {} tokens",
                        thousands(c.edits.len() as u64),
                        thousands(c.tokens_before),
                        thousands(c.tokens_after)
                    ));
                }
                self.derived.put(key, derived);
                self.replan();
            }
            Err(crate::Error::Cancelled) => {}
            Err(error) if self.derive_key() == Some(key) => {
                self.settings.strategy = Strategy::Tail;
                self.status = Status::error(format!("deterministic pass failed: {error}"));
                self.replan();
            }
            Err(_) => {}
        }
    }

    /// Re-plans with the cached counts: O(log n), no re-count. Under a deterministic
    /// strategy whose pass is not made yet, the transcript's own counts stand in.
    pub(super) fn replan(&mut self) {
        if self.calibration.as_ref().map(|(t, _)| *t) != Some(self.tokenizer) {
            // Once per tokenizer: the fit reads every message with recorded usage.
            let fit = crate::calibrate::calibrate(&self.transcript, self.counts()).map(Arc::new);
            self.calibration = Some((self.tokenizer, fit));
        }
        let (view, counts) = match self.deterministic() {
            Some(d) => (d.view.clone(), d.counts.clone()),
            None => ((*self.transcript).clone(), self.counts().clone()),
        };
        // The real summary once made; until then the placeholder stands in.
        let figures = crate::compact::figures(&self.transcript, &view, &counts, &self.settings, self.summary_text());
        self.planned = figures.planned;
        self.tokens_after = figures.tokens_after;
        self.warnings = figures.warnings;
        self.clamp_offset();
    }

    /// One line on what the current plan does.
    pub fn plan_summary(&self) -> String {
        if let (false, Some(d)) = (self.settings.strategy.cuts_a_tail(), self.deterministic()) {
            return format!(
                "{} edits, {} → {} tokens",
                thousands(d.compressed.edits.len() as u64),
                thousands(d.compressed.tokens_before),
                thousands(d.compressed.tokens_after)
            );
        }
        match self.planned.cut() {
            Some(cut) => format!(
                "split at #{}, {} messages summarized, {} → {} tokens",
                cut.split,
                thousands(cut.summarized() as u64),
                thousands(self.planned.tokens),
                thousands(self.tokens_after)
            ),
            None => format!(
                "no-op ({} ≤ {})",
                thousands(self.planned.tokens),
                thousands(self.settings.options.max_tokens)
            ),
        }
    }
}
