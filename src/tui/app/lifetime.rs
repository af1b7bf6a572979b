//! The session's whole life in the TUI: the timeline of epochs and real compactions (an
//! epoch opens read-only, its real summary readable, its loss report one key away), the
//! replay chart and the sweep chart (both follow the budget keys: every change starts a
//! new replay or sweep on a worker, the latest wins), and the settings to paste.
//!
//! All three need the session built whole ([`Session`]), made once per tokenizer and
//! strategy on a worker.

use std::sync::Arc;

use super::{App, Effect, Mode, Status};
use crate::agent_config::{self, Kind};
use crate::replay::sweep::Sweep;
use crate::replay::Replay;
use crate::tui::action::Action;
use crate::tui::jobs::{CompareKey, Job, ReplayKey, Session, SessionKey, SweepKey};

/// The timeline overlay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimelineView {
    /// The highlighted row of [`timeline_rows`].
    pub selected: usize,
    /// An epoch opened in a read-only message list.
    pub open: Option<EpochView>,
    /// A real compaction opened: its summary, what was done again after it, its loss.
    pub compaction: Option<CompactionView>,
}

/// One real compaction, opened from the timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompactionView {
    /// Which compaction.
    pub index: usize,
    /// The first line shown.
    pub scroll: usize,
    /// Its loss report is shown instead of its summary.
    pub loss: bool,
}

/// A row of the timeline: an epoch, or the real compaction that ended the one above.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimelineRow {
    /// An epoch (its index).
    Epoch(usize),
    /// A real compaction (its index).
    Compaction(usize),
}

/// The timeline's rows: each epoch, followed by the compactions that ended it.
pub fn timeline_rows(history: &crate::history::History) -> Vec<TimelineRow> {
    let mut rows = Vec::with_capacity(history.epochs.len() + history.compactions.len());
    for e in &history.epochs {
        rows.push(TimelineRow::Epoch(e.index));
        rows.extend(
            history
                .compactions
                .iter()
                .filter(|c| c.epoch == e.index)
                .map(|c| TimelineRow::Compaction(c.index)),
        );
    }
    rows
}

/// One epoch's messages, read-only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpochView {
    /// Which epoch.
    pub epoch: usize,
    /// The selected message (an index of the whole session).
    pub selected: usize,
    /// The first message shown.
    pub offset: usize,
    /// The loss report of the compaction that ended it, when shown (its scroll).
    pub loss: Option<usize>,
}

/// The settings-to-paste overlay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConfigView {
    /// Which agent's configuration ([`Kind::budget_kinds`]).
    pub kind: usize,
}

/// The sweep chart tries budgets from the session's total over this to all of it, in
/// the answer grid's steps ([`crate::replay::sweep::ANSWER_STEPS`]).
pub const SWEEP_FROM_DIVISOR: u64 = 20;

impl App {
    /// What names the session the lifetime views need now.
    pub(super) fn session_key(&self) -> SessionKey {
        SessionKey {
            tokenizer: self.tokenizer,
            deterministic: self.settings.strategy.uses_deterministic_pass(),
        }
    }

    /// The session, when built for the current tokenizer and strategy.
    pub fn session(&self) -> Option<&Session> {
        let key = self.session_key();
        self.session.get(&key).map(AsRef::as_ref)
    }

    /// What names the replay of the current settings.
    fn replay_key(&self) -> ReplayKey {
        ReplayKey {
            session: self.session_key(),
            options: self.settings.options,
            summary_role: self.settings.summary_role,
            cuts_a_tail: self.settings.strategy.cuts_a_tail(),
        }
    }

    /// The replay of the current settings, once made.
    pub fn replay(&self) -> Option<&Replay> {
        let key = self.replay_key();
        self.replay.get(&key).map(AsRef::as_ref)
    }

    /// The last replay made (shown while the next one runs, so the chart never blanks).
    pub fn latest_replay(&self) -> Option<&Replay> {
        let session = self.session_key();
        self.replay.latest(|k| k.session == session).map(AsRef::as_ref)
    }

    /// What names the sweep around the current settings.
    fn sweep_key(&self) -> Option<SweepKey> {
        use crate::replay::sweep::{Range, TailRule};
        let total = self.session()?.core.view().total().max(SWEEP_FROM_DIVISOR);
        let options = self.settings.options;
        let tail = options.keep_tail.map_or(TailRule::Default, |k| {
            TailRule::PerMille(k.saturating_mul(1000) / options.max_tokens.max(1))
        });
        Some(SweepKey {
            session: self.session_key(),
            range: Range {
                from: total / SWEEP_FROM_DIVISOR,
                to: total,
                tails: vec![tail],
                flush_to_memory: options.flush_to_memory,
            },
            fact_floor_per_mille: (self.fact_floor * 10.0).round() as u64,
            summary_role: self.settings.summary_role,
            cuts_a_tail: self.settings.strategy.cuts_a_tail(),
            flush_to_memory: options.flush_to_memory,
        })
    }

    /// The sweep around the current settings, once made.
    pub fn sweep(&self) -> Option<&Sweep> {
        let key = self.sweep_key()?;
        self.sweep.get(&key).map(AsRef::as_ref)
    }

    /// How far the running sweep is, as words: `replayed 12 of 25 budgets · about 3 s
    /// left` (nothing until the first budget is replayed).
    pub fn sweep_progress(&self) -> Option<String> {
        let (done, of, elapsed) = self.sweep_progress?;
        Some(format!(
            "replayed {done} of {of} budgets · {}",
            super::time_left(done, of, elapsed)
        ))
    }

    /// The last sweep made on this session (shown while the next one runs).
    pub fn latest_sweep(&self) -> Option<&Sweep> {
        let session = self.session_key();
        self.sweep.latest(|k| k.session == session).map(AsRef::as_ref)
    }

    /// What names the comparison of policies: the session and the model's window (the
    /// window the user set, the model's, or 200,000).
    fn compare_key(&self) -> CompareKey {
        CompareKey {
            session: self.session_key(),
            window: self
                .context_window
                .unwrap_or(crate::policy::claude_code::DEFAULT_WINDOW),
        }
    }

    /// The comparison of policies on this session, once made.
    pub fn compared_policies(&self) -> Option<&[crate::policy::compare::Compared]> {
        let key = self.compare_key();
        self.compare.get(&key).map(|c| c.as_slice())
    }

    /// True while the session, a replay, a sweep or a comparison is being made.
    pub fn lifetime_busy(&self) -> bool {
        self.session.is_running() || self.replay.is_running() || self.sweep.is_running() || self.compare.is_running()
    }

    /// Opens one of the lifetime views (its data is made by [`App::needed_lifetime`]).
    pub(super) fn open_lifetime(&mut self, action: &Action) {
        self.mode = match action {
            Action::ToggleTimeline => Mode::Timeline(TimelineView {
                selected: 0,
                open: None,
                compaction: None,
            }),
            Action::ToggleReplay => Mode::Replay,
            Action::ToggleSweep => Mode::Sweep,
            Action::ToggleCompare => Mode::Compare { selected: 0 },
            Action::ToggleCost => Mode::Cost,
            _ => Mode::Config(ConfigView { kind: 0 }),
        };
    }

    /// The jobs the open lifetime view still needs.
    pub(super) fn needed_lifetime(&mut self) -> Vec<Effect> {
        if !matches!(
            self.mode,
            Mode::Timeline(_) | Mode::Replay | Mode::Sweep | Mode::Compare { .. } | Mode::Cost | Mode::Ledger { .. }
        ) {
            return Vec::new();
        }
        let key = self.session_key();
        let Some(session) = self.session.get(&key).map(Arc::clone) else {
            if !self.session.start(&key) {
                return Vec::new();
            }
            return vec![Effect::Start(Job::Session {
                key,
                transcript: Arc::clone(&self.transcript),
                counts: Arc::clone(&self.counts[&self.tokenizer]),
            })];
        };
        match self.mode {
            Mode::Replay => {
                let key = self.replay_key();
                if !self.replay.start(&key) {
                    return Vec::new();
                }
                vec![Effect::Start(Job::Replay { key, session })]
            }
            Mode::Sweep => {
                let Some(key) = self.sweep_key() else {
                    return Vec::new();
                };
                if !self.sweep.start(&key) {
                    return Vec::new();
                }
                vec![Effect::Start(Job::Sweep { key, session })]
            }
            Mode::Compare { .. } => {
                let key = self.compare_key();
                if !self.compare.start(&key) {
                    return Vec::new();
                }
                vec![Effect::Start(Job::Compare { key, session })]
            }
            _ => Vec::new(),
        }
    }

    pub(super) fn session_ready(&mut self, key: SessionKey, result: crate::Result<Arc<Session>>) {
        if let Err(e) = self.session.finish(key, result) {
            self.mode = Mode::Normal;
            self.status = Status::error(format!("cannot load the whole session: {e}"));
        }
    }

    pub(super) fn replayed(&mut self, key: ReplayKey, result: crate::Result<Arc<Replay>>) {
        if let Err(e) = self.replay.finish(key, result) {
            self.status = Status::error(format!("replay failed: {e}"));
        }
    }

    pub(super) fn swept(&mut self, key: SweepKey, result: crate::Result<Arc<Sweep>>) {
        self.sweep_progress = None;
        if let Err(e) = self.sweep.finish(key, result) {
            self.status = Status::error(format!("sweep failed: {e}"));
        }
    }

    pub(super) fn compared(
        &mut self,
        key: CompareKey,
        result: crate::Result<Arc<Vec<crate::policy::compare::Compared>>>,
    ) {
        if let Err(e) = self.compare.finish(key, result) {
            self.status = Status::error(format!("comparison failed: {e}"));
        }
    }

    /// Keys while a lifetime view is open.
    pub(super) fn lifetime_action(&mut self, action: &Action) -> Vec<Effect> {
        match &mut self.mode {
            Mode::Replay | Mode::Sweep => {
                if matches!(action, Action::ToggleReplay | Action::ToggleSweep) {
                    self.open_lifetime(action);
                } else {
                    return self.tune(action);
                }
            }
            Mode::Config(view) => {
                let kinds = Kind::budget_kinds();
                let kind = kinds[view.kind];
                match action {
                    Action::SwitchPane | Action::Down => view.kind = (view.kind + 1) % kinds.len(),
                    Action::Up => view.kind = (view.kind + kinds.len() - 1) % kinds.len(),
                    Action::Copy => return self.copy_config(kind),
                    Action::SetContextWindow => self.open_window_prompt(Some(Action::ToggleConfig)),
                    Action::Save => self.save_config(kind),
                    _ => {}
                }
            }
            Mode::Timeline(_) => self.timeline_action(action),
            Mode::Compare { selected } => {
                let rows = crate::policy::all().len();
                match action {
                    Action::Activate => {
                        let chosen = *selected;
                        self.use_policy(chosen);
                    }
                    Action::SetContextWindow => self.open_window_prompt(Some(Action::ToggleCompare)),
                    Action::Down => *selected = (*selected + 1).min(rows - 1),
                    Action::Up => *selected = selected.saturating_sub(1),
                    Action::Top => *selected = 0,
                    Action::Bottom => *selected = rows - 1,
                    _ => {}
                }
            }
            _ => {}
        }
        Vec::new()
    }

    fn timeline_action(&mut self, action: &Action) {
        let page = crate::tui::layout::overlay_rows(self.size).saturating_sub(3).max(1);
        let Some(session) = self.session.get(&self.session_key()).map(Arc::clone) else {
            return;
        };
        let Mode::Timeline(view) = &mut self.mode else {
            return;
        };
        let epochs = &session.core.history().epochs;
        if let Some(open) = &mut view.compaction {
            match action {
                Action::Up => open.scroll = open.scroll.saturating_sub(1),
                Action::Down => open.scroll += 1,
                Action::PageUp => open.scroll = open.scroll.saturating_sub(page),
                Action::PageDown => open.scroll += page,
                Action::Top => open.scroll = 0,
                Action::ToggleLoss => {
                    open.loss = !open.loss;
                    open.scroll = 0;
                }
                _ => {}
            }
            return;
        }
        let Some(open) = &mut view.open else {
            Self::timeline_list_action(view, &session, action, &mut self.status);
            return;
        };
        if let Some(scroll) = &mut open.loss {
            match action {
                Action::Up => *scroll = scroll.saturating_sub(1),
                Action::Down => *scroll += 1,
                Action::PageUp => *scroll = scroll.saturating_sub(page),
                Action::PageDown => *scroll += page,
                Action::Top => *scroll = 0,
                Action::ToggleLoss => open.loss = None,
                _ => {}
            }
            return;
        }
        let range = epochs[open.epoch].messages.clone();
        let last = range.end.saturating_sub(1).max(range.start);
        let step = |by: i64, at: usize| at.saturating_add_signed(by as isize).clamp(range.start, last);
        match action {
            Action::Up => open.selected = step(-1, open.selected),
            Action::Down => open.selected = step(1, open.selected),
            Action::PageUp => open.selected = step(-(page as i64), open.selected),
            Action::PageDown => open.selected = step(page as i64, open.selected),
            Action::Top => open.selected = range.start,
            Action::Bottom => open.selected = last,
            Action::ToggleLoss if session.core.history().compactions.iter().any(|c| c.epoch == open.epoch) => {
                open.loss = Some(0);
            }
            _ => {}
        }
        // Keep the selection on screen.
        if open.selected < open.offset {
            open.offset = open.selected;
        } else if open.selected >= open.offset + page {
            open.offset = open.selected + 1 - page;
        }
    }

    /// Keys on the timeline's list of epochs and compactions.
    fn timeline_list_action(view: &mut TimelineView, session: &Session, action: &Action, status: &mut Option<Status>) {
        let epochs = &session.core.history().epochs;
        let rows = timeline_rows(session.core.history());
        let last = rows.len().saturating_sub(1);
        // The compaction a row stands for: its own, or the one that ended its epoch.
        let compaction_of = |row: TimelineRow| match row {
            TimelineRow::Compaction(c) => Some(c),
            TimelineRow::Epoch(e) => session
                .core
                .history()
                .compactions
                .iter()
                .find(|c| c.epoch == e)
                .map(|c| c.index),
        };
        match (action, rows.get(view.selected).copied()) {
            (Action::Up, _) => view.selected = view.selected.saturating_sub(1),
            (Action::Down, _) => view.selected = (view.selected + 1).min(last),
            (Action::Top, _) => view.selected = 0,
            (Action::Bottom, _) => view.selected = last,
            (Action::Activate, Some(TimelineRow::Epoch(e))) => {
                view.open = Some(EpochView {
                    epoch: e,
                    selected: epochs[e].messages.start,
                    offset: epochs[e].messages.start,
                    loss: None,
                });
            }
            (Action::Activate, Some(TimelineRow::Compaction(c))) => {
                view.compaction = Some(CompactionView {
                    index: c,
                    scroll: 0,
                    loss: false,
                });
            }
            (Action::ToggleLoss, Some(row)) => match compaction_of(row) {
                Some(c) => {
                    view.compaction = Some(CompactionView {
                        index: c,
                        scroll: 0,
                        loss: true,
                    });
                }
                None => *status = Status::info("no compaction ended this epoch: nothing was lost here"),
            },
            _ => {}
        }
    }

    /// Esc in a lifetime view: close the innermost layer.
    pub(super) fn lifetime_back(&mut self) -> bool {
        if let Mode::Timeline(view) = &mut self.mode {
            if view.compaction.take().is_some() {
                return true;
            }
            if let Some(open) = &mut view.open {
                if open.loss.is_some() {
                    open.loss = None;
                } else {
                    view.open = None;
                }
                return true;
            }
        }
        false
    }

    /// Copies `kind`'s configuration to the clipboard.
    fn copy_config(&mut self, kind: Kind) -> Vec<Effect> {
        match self.emitted_config(kind) {
            Ok(emitted) => {
                self.status = Status::info(format!("copied the {} configuration to the clipboard", kind.name()));
                vec![Effect::Copy(emitted.text)]
            }
            Err(e) => {
                self.status = Status::error(e);
                Vec::new()
            }
        }
    }

    /// Writes `kind`'s configuration to its own file in the save folder (the working
    /// folder; atomically, never over an existing file) and says where.
    fn save_config(&mut self, kind: Kind) {
        let path = self.save_dir.join(kind.file_name());
        let written = self.emitted_config(kind).and_then(|emitted| {
            if path.exists() {
                return Err(format!("{} exists: not replaced", path.display()));
            }
            crate::export::write_with(&path, None, false, &mut |w| w.write_all(emitted.text.as_bytes()))
                .map_err(|e| e.to_string())
        });
        self.status = match written {
            Ok(()) => Status::info(format!("wrote {}", path.display())),
            Err(e) => Status::error(e),
        };
    }

    /// The settings as `kind`'s configuration (or why it cannot be written).
    pub fn emitted_config(&self, kind: Kind) -> Result<agent_config::Emitted, String> {
        let settings = agent_config::Settings {
            options: self.settings.options,
            strategy: self.settings.strategy,
            tokenizer: self.tokenizer,
            summarizer: self.summarizer.to_string(),
            summary_role: self.settings.summary_role,
            context_window: self.context_window,
            calibration: self.calibration().map(|c| (c.overhead, c.ratio)),
            logged_threshold: crate::policy::claude_code::logged_threshold(&self.transcript),
            opencode_estimate_ratio: crate::policy::opencode::estimate_ratio(&self.transcript, self.counts()),
        };
        // The screen sets the window with `W`, not a command-line option.
        agent_config::emit(kind, &settings)
            .map_err(|e| e.to_string().replace("pass --context-window N", "press W to set it"))
    }
}
