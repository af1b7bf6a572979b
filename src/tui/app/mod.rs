//! The TUI's state and its one mutator, [`App::update`]. User actions and finished jobs
//! arrive as a [`Msg`]; `update` changes state and returns the [`Effect`]s the event
//! loop must carry out (start or cancel a job, open the editor, quit). No I/O happens
//! here, so every behaviour is testable without a terminal. Fields are private; widgets
//! and tests read through the accessors below.

mod lifetime;
mod live;
mod main_policy;
mod navigation;
mod prompts;
mod slot;
mod tuning;
mod views;
mod work;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

pub use main_policy::MainPolicy;

use super::action::Action;
use super::jobs::{Done, Job, JobKind, SummaryKey};
use super::search::Search;
use super::theme::Theme;
use crate::compact::{Derived, Options, Planned, Settings, Strategy, Warning};
use crate::summarize::{self, Spec};
use crate::tokens::media::HeavySums;
use crate::tokens::{Counts, Tokenizer};
use crate::transcript::Transcript;

pub use lifetime::{
    timeline_rows, CompactionView, ConfigView, EpochView, TimelineRow, TimelineView, SWEEP_FROM_DIVISOR,
};
pub use live::Follow;
pub use navigation::Row;
pub use prompts::{expand_home, Prompt, PromptKind};
use slot::{InFlight, Slot};
pub use views::{BreakdownView, ListFilter};
pub use work::{message_on_line, AfterSummary};

/// What the TUI starts with (the command line's options).
#[derive(Debug, Clone)]
pub struct Config {
    /// The input path, when it is a file (export refuses to overwrite it unless confirmed).
    pub input_path: Option<PathBuf>,
    /// `--max-tokens` (default: 60% of the total, so the compactor visibly fires).
    pub max_tokens: Option<u64>,
    /// `--keep-tail`.
    pub keep_tail: Option<u64>,
    /// `--flush-to-memory`.
    pub flush_to_memory: bool,
    /// `--tokenizer`.
    pub tokenizer: Tokenizer,
    /// `--summarizer` (extractive by default).
    pub summarizer: Spec,
    /// The summarizers' settings.
    pub summary_settings: summarize::Settings,
    /// The model's context window (for settings that are a share of it).
    pub context_window: Option<u64>,
    /// The share of the facts (percent) a safe budget keeps in the sweep chart.
    pub fact_floor: f64,
    /// Follow the input file as it grows (`--no-follow` turns it off).
    pub follow: bool,
    /// A first line for the status bar (the demo says where the user's sessions are).
    pub hint: Option<String>,
    /// Colours.
    pub theme: Theme,
    /// Where `c`'s save writes an agent's configuration (the working folder).
    pub save_dir: PathBuf,
    /// Opened from the session browser: leaving goes back to it.
    pub from_browser: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            input_path: None,
            max_tokens: None,
            keep_tail: None,
            flush_to_memory: false,
            tokenizer: Tokenizer::Estimate,
            summarizer: Spec::Extractive,
            summary_settings: summarize::Settings::default(),
            context_window: None,
            fact_floor: crate::replay::sweep::DEFAULT_FACT_FLOOR,
            follow: true,
            hint: None,
            theme: Theme::from_env(),
            save_dir: PathBuf::from("."),
            from_browser: false,
        }
    }
}

/// Something for [`App::update`].
#[derive(Debug)]
pub enum Msg {
    /// The user asked for something.
    Action(Action),
    /// A background job finished or progressed.
    Job(Box<Done>),
    /// Time passed while work runs (animates the spinner).
    Tick,
    /// The followed file changed on disk.
    FileChanged,
}

/// What the event loop must do after an update.
#[derive(Debug)]
pub enum Effect {
    /// Run a job on a worker (the running job of its kind is cancelled).
    Start(Job),
    /// Cancel the running job of a kind.
    Cancel(JobKind),
    /// Open the summary of `key` in the user's editor; the result comes back as
    /// [`Done::Edited`].
    Edit {
        /// The summary being edited.
        key: SummaryKey,
        /// Its text.
        text: String,
    },
    /// Put `text` on the terminal's clipboard (an OSC 52 sequence: works over SSH and in
    /// tmux with `set-clipboard on`).
    Copy(String),
    /// Leave the TUI.
    Quit,
}

/// Which pane has the focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    /// The message list.
    List,
    /// The detail pane.
    Detail,
}

/// The preview overlay's content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviewView {
    /// What the preview is of.
    pub title: String,
    /// The document.
    pub text: String,
    /// Its display segments (byte ranges).
    pub segments: Vec<(usize, usize)>,
    /// Its messages as readable text.
    pub readable: String,
    /// Their display segments.
    pub readable_segments: Vec<(usize, usize)>,
    /// The first segment shown.
    pub scroll: usize,
}

impl PreviewView {
    /// The text shown (raw JSON, or readable) and its segments.
    pub fn shown(&self, raw: bool) -> (&str, &[(usize, usize)]) {
        if raw {
            (&self.text, &self.segments)
        } else {
            (&self.readable, &self.readable_segments)
        }
    }

    /// The segments from `scroll`, at most `count`.
    pub fn visible(&self, raw: bool, count: usize) -> impl Iterator<Item = &str> {
        let (text, segments) = self.shown(raw);
        let start = self.scroll.min(segments.len().saturating_sub(1));
        segments[start..].iter().take(count).map(move |&(a, b)| &text[a..b])
    }
}

/// What is on screen besides the main panes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Just the list, detail and budget bar.
    Normal,
    /// The help popup, scrolled by `scroll` lines.
    Help {
        /// First line shown.
        scroll: usize,
    },
    /// The compacted transcript.
    Preview(PreviewView),
    /// A one-line prompt.
    Prompt(Prompt),
    /// Background work the user waits for (Esc cancels).
    Waiting(String),
    /// The loss report.
    Loss {
        /// The report, as text.
        text: String,
        /// First line shown.
        scroll: usize,
        /// The highlighted line (Enter jumps to the message it names).
        selected: usize,
    },
    /// Where the context goes.
    Breakdown(BreakdownView),
    /// The session's epochs and real compactions.
    Timeline(TimelineView),
    /// The replay chart.
    Replay,
    /// The sweep chart.
    Sweep,
    /// Every agent's policy over the session (the highlighted row).
    Compare {
        /// The highlighted policy.
        selected: usize,
    },
    /// The settings as an agent's configuration.
    Config(ConfigView),
    /// What each recorded call cost.
    Cost,
    /// The standing instructions (the first line shown).
    Ledger {
        /// First line shown.
        scroll: usize,
    },
    /// Choosing the tokenizer (the highlighted one of [`Tokenizer::ALL`]).
    PickTokenizer {
        /// The highlighted row.
        selected: usize,
    },
    /// A yes/no question before something that cannot be undone.
    Confirm {
        /// The question.
        question: String,
        /// What happens on yes.
        then: AfterSummary,
    },
}

/// The summary of a cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// The cut it summarizes and how it was made.
    pub key: SummaryKey,
    /// The text.
    pub text: String,
    /// The user edited it.
    pub edited: bool,
}

/// A background count in progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counting {
    /// The tokenizer being counted.
    pub tokenizer: Tokenizer,
    /// Messages counted so far.
    pub done: usize,
    /// Messages in all.
    pub total: usize,
}

/// A line for the status bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    /// The text.
    pub text: String,
    /// Shown as an error.
    pub error: bool,
}

impl Status {
    // Both return `Option` because they are assigned to `App::status`, which is one.
    #[allow(clippy::unnecessary_wraps)]
    fn info(text: impl Into<String>) -> Option<Status> {
        Some(Status {
            text: text.into(),
            error: false,
        })
    }

    #[allow(clippy::unnecessary_wraps)]
    fn error(text: impl Into<String>) -> Option<Status> {
        Some(Status {
            text: text.into(),
            error: true,
        })
    }
}

/// The whole state of the TUI.
#[derive(Debug)]
pub struct App {
    transcript: Arc<Transcript>,
    input_path: Option<PathBuf>,
    theme: Theme,
    counts: BTreeMap<Tokenizer, Arc<Counts>>,
    /// For each counter counted with, what the messages mostly made of binary data add up
    /// to by it and by the provider's rules: how far it is from what the provider bills
    /// (worth a warning only when more than 20%).
    heavy: BTreeMap<Tokenizer, HeavySums>,
    tokenizer: Tokenizer,
    counting: Option<Counting>,
    settings: Settings,
    default_max: bool,
    derived: Slot<super::jobs::DeriveKey, Arc<Derived>>,
    planned: Planned,
    tokens_after: u64,
    warnings: Vec<Warning>,
    summarizer: Spec,
    summary_settings: summarize::Settings,
    summary: Option<Summary>,
    summarizing: Option<SummaryKey>,
    pending: Option<AfterSummary>,
    previewing: InFlight<super::jobs::OutcomeKey>,
    reporting: InFlight<super::jobs::OutcomeKey>,
    exporting: Option<PathBuf>,
    searching: Option<String>,
    breaking_down: InFlight<super::jobs::BreakdownKey>,
    filter: Option<ListFilter>,
    calibration: Option<(Tokenizer, Option<Arc<crate::calibrate::Calibration>>)>,
    context_window: Option<u64>,
    /// The window the user gave (`--context-window`, or typed with `W`), where
    /// `context_window` may be the model's: the meter says which.
    given_window: Option<u64>,
    fact_floor: f64,
    /// The input file, followed as its agent writes it.
    follow: Option<Follow>,
    /// Another agent's policy the list and the detail follow instead of §7F (chosen with
    /// Enter in the compare view).
    main_policy: Option<MainPolicy>,
    raw: bool,
    session: Slot<super::jobs::SessionKey, Arc<super::jobs::Session>>,
    replay: Slot<super::jobs::ReplayKey, Arc<crate::replay::Replay>>,
    sweep: Slot<super::jobs::SweepKey, Arc<crate::replay::sweep::Sweep>>,
    /// How far the running sweep is: settings replayed, in all, and the time it took.
    sweep_progress: Option<(usize, usize, std::time::Duration)>,
    /// How far the job the waiting box waits for is (a summary, a loss report): messages
    /// read, in all, and the time it took.
    waiting_progress: Option<(usize, usize, std::time::Duration)>,
    compare: Slot<super::jobs::CompareKey, Arc<Vec<crate::policy::compare::Compared>>>,
    save_dir: PathBuf,
    selected: usize,
    list_offset: usize,
    focus: Pane,
    detail_scroll: usize,
    mode: Mode,
    search: Option<Search>,
    status: Option<Status>,
    /// Opened from the session browser (Esc on the main screen goes back to it).
    from_browser: bool,
    size: (u16, u16),
    tick: u64,
}

/// A step rounded to one significant digit (47 → 50, 475 → 500), at least 1.
pub fn round_step(raw: u64) -> u64 {
    let mut magnitude = 1;
    while raw / magnitude >= 10 {
        magnitude *= 10;
    }
    ((raw + magnitude / 2) / magnitude * magnitude).max(1)
}

/// The default `max_tokens`: 60% of the total, so a transcript compacts visibly.
pub fn default_max_tokens(total: u64) -> u64 {
    total * 6 / 10
}

impl App {
    /// A new app on `transcript`; the effects start a count when `config.tokenizer` is
    /// not the estimator (counted here, the list needs it at once).
    pub fn new(transcript: Transcript, config: Config) -> (App, Vec<Effect>) {
        let transcript = Arc::new(transcript);
        let model_window = transcript
            .model_window()
            .or_else(|| transcript.model().and_then(crate::models::window_of).map(|w| w.tokens));
        let estimate = Arc::new(Counts::compute(&transcript, Tokenizer::Estimate));
        let total = estimate.total();
        let options = Options {
            max_tokens: config.max_tokens.unwrap_or_else(|| default_max_tokens(total)),
            keep_tail: config.keep_tail,
            flush_to_memory: config.flush_to_memory,
        };
        let planned = crate::compact::plan_strategy(Strategy::Tail, &transcript, &estimate, &options);
        let estimate_heavy = HeavySums::of(&transcript, &estimate, 0..transcript.messages().len());
        // A file (not standard input, not the demo) is followed as it grows.
        let follow = config
            .input_path
            .as_ref()
            .filter(|_| config.follow)
            .and_then(|p| crate::follow::FileState::of(p).ok().map(|s| Follow::new(p.clone(), s)));
        let mut app = App {
            transcript,
            input_path: config.input_path,
            from_browser: config.from_browser,
            theme: config.theme,
            counts: BTreeMap::from([(Tokenizer::Estimate, estimate)]),
            heavy: BTreeMap::from([(Tokenizer::Estimate, estimate_heavy)]),
            tokenizer: Tokenizer::Estimate,
            counting: None,
            settings: Settings::tail(options),
            default_max: config.max_tokens.is_none(),
            derived: Slot::new(),
            planned,
            tokens_after: 0,
            warnings: Vec::new(),
            summarizer: config.summarizer,
            summary_settings: config.summary_settings,
            summary: None,
            summarizing: None,
            pending: None,
            previewing: InFlight::new(),
            reporting: InFlight::new(),
            exporting: None,
            searching: None,
            breaking_down: InFlight::new(),
            filter: None,
            calibration: None,
            // The window the user gave, else the one of the model the transcript names.
            context_window: config.context_window.or(model_window),
            given_window: config.context_window,
            fact_floor: config.fact_floor,
            follow,
            main_policy: None,
            raw: false,
            session: Slot::new(),
            replay: Slot::new(),
            sweep: Slot::new(),
            sweep_progress: None,
            waiting_progress: None,
            compare: Slot::new(),
            save_dir: config.save_dir.clone(),
            selected: 0,
            list_offset: 0,
            focus: Pane::List,
            detail_scroll: 0,
            mode: Mode::Normal,
            search: None,
            status: None,
            size: (0, 0),
            tick: 0,
        };
        app.replan();
        app.status = config.hint.and_then(Status::info);
        let mut effects = app.switch_tokenizer(config.tokenizer);
        // The first read on a worker gives the context meter (and catches what was
        // written since the file was opened).
        effects.extend(app.file_changed());
        app.focus_on_cut();
        (app, effects)
    }

    /// Applies one message; returns what the loop must do.
    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        let mut effects = match msg {
            Msg::Action(action) => self.action(action),
            Msg::Job(done) => self.job_done(*done),
            Msg::Tick => {
                self.tick = self.tick.wrapping_add(1);
                Vec::new()
            }
            Msg::FileChanged => self.file_changed(),
        };
        effects.extend(self.needed_jobs());
        effects.extend(self.needed_lifetime());
        effects
    }

    /// Shorthand for `update(Msg::Action(action))`.
    pub fn act(&mut self, action: Action) -> Vec<Effect> {
        self.update(Msg::Action(action))
    }

    fn action(&mut self, action: Action) -> Vec<Effect> {
        match action {
            Action::Quit => vec![Effect::Quit],
            Action::Back => self.back(),
            Action::Dismiss => self.dismiss(),
            Action::Resize(w, h) => {
                self.resize(w, h);
                Vec::new()
            }
            Action::PromptChar(_) | Action::PromptEdit(_) | Action::PromptTab | Action::PromptSubmit => {
                self.prompt_input(&action)
            }
            _ if !matches!(self.mode, Mode::Normal) => self.overlay_action(&action),
            other => self.main_action(&other),
        }
    }

    fn main_action(&mut self, action: &Action) -> Vec<Effect> {
        match action {
            Action::Up => self.move_or_scroll(-1),
            Action::Down => self.move_or_scroll(1),
            Action::PageUp => self.move_or_scroll(-(self.page() as i64)),
            Action::PageDown => self.move_or_scroll(self.page() as i64),
            Action::Top => self.select(self.first_shown()),
            Action::Bottom => self.select(self.last_shown()),
            Action::Scroll(n) => self.move_or_scroll(i64::from(*n)),
            Action::ScrollAt(x, y, n) => self.scroll_at(*x, *y, i64::from(*n)),
            Action::JumpToBoundary => self.jump_to_boundary(),
            Action::NextTurn => self.step_turn(true),
            Action::PrevTurn => self.step_turn(false),
            Action::JumpToPartner => self.jump_to_partner(),
            Action::CycleFilter => self.cycle_filter(),
            Action::PickTokenizer => {
                let selected = Tokenizer::ALL.iter().position(|t| *t == self.tokenizer).unwrap_or(0);
                self.mode = Mode::PickTokenizer { selected };
            }
            Action::ToggleRaw => {
                self.raw = !self.raw;
                self.status = Status::info(if self.raw {
                    "messages as raw JSON (J: as text)"
                } else {
                    "messages as text (J: raw JSON)"
                });
            }
            Action::Click(x, y) => self.click(*x, *y),
            Action::Select(index) => self.select(*index),
            Action::SwitchPane => {
                self.focus = if self.focus == Pane::List {
                    Pane::Detail
                } else {
                    Pane::List
                };
            }
            Action::SetContextWindow => self.open_window_prompt(None),
            Action::EnterValue => self.open_prompt(PromptKind::MaxTokens, self.settings.options.max_tokens.to_string()),
            Action::Search => self.open_prompt(PromptKind::Search, String::new()),
            Action::Export => self.open_prompt(PromptKind::Export, self.default_export_path()),
            Action::NextMatch => self.step_match(true),
            Action::PrevMatch => self.step_match(false),
            Action::TogglePreview => return self.with_summary(AfterSummary::Preview),
            Action::ToggleLoss => return self.with_summary(AfterSummary::Loss),
            Action::EditSummary => return self.with_summary(AfterSummary::Edit),
            Action::ToggleHelp => self.mode = Mode::Help { scroll: 0 },
            Action::ToggleLedger => self.mode = Mode::Ledger { scroll: 0 },
            Action::ToggleBreakdown => return self.open_breakdown(crate::breakdown::By::Kind),
            Action::ToggleTimeline
            | Action::ToggleReplay
            | Action::ToggleSweep
            | Action::ToggleConfig
            | Action::ToggleCompare
            | Action::ToggleCost => {
                self.open_lifetime(action);
            }
            tuning => return self.tune(tuning),
        }
        Vec::new()
    }

    fn overlay_action(&mut self, action: &Action) -> Vec<Effect> {
        let page = super::layout::overlay_rows(self.size).saturating_sub(1).max(1);
        if matches!(self.mode, Mode::Breakdown(_)) {
            return self.breakdown_action(action, page);
        }
        if let Mode::PickTokenizer { selected } = &mut self.mode {
            let last = Tokenizer::ALL.len() - 1;
            match action {
                Action::Up => *selected = selected.saturating_sub(1),
                Action::Down => *selected = (*selected + 1).min(last),
                Action::Activate => {
                    let tokenizer = Tokenizer::ALL[*selected];
                    self.mode = Mode::Normal;
                    return self.switch_tokenizer(tokenizer);
                }
                _ => {}
            }
            return Vec::new();
        }
        if let (Action::ToggleRaw, Mode::Preview(preview)) = (action, &mut self.mode) {
            self.raw = !self.raw;
            preview.scroll = 0;
            return Vec::new();
        }
        if let (Action::ScrollAt(_, _, n), false) = (action, matches!(self.mode, Mode::Normal)) {
            return self.overlay_action(&Action::Scroll(*n));
        }
        if matches!(action, Action::EditSummary) && matches!(self.mode, Mode::Preview(_) | Mode::Loss { .. }) {
            return self.with_summary(AfterSummary::Edit);
        }
        if matches!(self.mode, Mode::Loss { .. }) {
            self.loss_action(action, page);
            return Vec::new();
        }
        if matches!(
            self.mode,
            Mode::Timeline(_) | Mode::Replay | Mode::Sweep | Mode::Config(_) | Mode::Compare { .. } | Mode::Cost
        ) {
            return self.lifetime_action(action);
        }
        if let (Mode::Confirm { then, .. }, Action::Activate) = (&self.mode, action) {
            let then = then.clone();
            self.mode = Mode::Normal;
            return self.with_summary(then);
        }
        if matches!(action, Action::Export) && matches!(self.mode, Mode::Preview(_)) {
            self.open_prompt(PromptKind::Export, self.default_export_path());
            return Vec::new();
        }
        // Scrolling stops at the last page: never past the end to a blank screen.
        let rows = super::layout::overlay_rows(self.size);
        let width = usize::from(self.size.0.saturating_sub(2));
        let (scroll, last) = match &mut self.mode {
            Mode::Help { scroll } => {
                // Help wraps at the screen's width: its last page counts wrapped rows.
                let heights: Vec<usize> = super::help::lines(&self.theme)
                    .iter()
                    .map(|l| super::wrap::height(&l.to_string(), width))
                    .collect();
                (scroll, super::wrap::last_scroll(&heights, rows))
            }
            Mode::Preview(preview) => {
                let lines = preview.shown(self.raw).1.len();
                (&mut preview.scroll, lines.saturating_sub(rows))
            }
            Mode::Ledger { scroll } => {
                // Wrapped as the overlay draws it; nothing to page before the session.
                let key = super::jobs::SessionKey {
                    tokenizer: self.tokenizer,
                    deterministic: self.settings.strategy.uses_deterministic_pass(),
                };
                let heights: Vec<usize> = self.session.get(&key).map_or_else(Vec::new, |session| {
                    super::ledger_view::lines(&session.ledger, &self.theme)
                        .iter()
                        .map(|l| super::wrap::height(&l.to_string(), width))
                        .collect()
                });
                (scroll, super::wrap::last_scroll(&heights, rows))
            }
            _ => return Vec::new(),
        };
        match action {
            Action::Up => *scroll = scroll.saturating_sub(1),
            Action::Down => *scroll += 1,
            Action::Scroll(n) => *scroll = scroll.saturating_add_signed(*n as isize),
            Action::PageUp => *scroll = scroll.saturating_sub(page),
            Action::PageDown => *scroll += page,
            Action::Top => *scroll = 0,
            Action::Bottom => *scroll = last,
            _ => {}
        }
        *scroll = (*scroll).min(last);
        Vec::new()
    }

    /// Esc: as [`App::back`], except that the main screen of a session not opened from
    /// the browser stays (the tuned settings with it), and says how to quit.
    fn dismiss(&mut self) -> Vec<Effect> {
        if matches!(self.mode, Mode::Normal) && self.filter.is_none() && !self.from_browser {
            self.status = Status::info("Esc closes overlays and prompts; q quits");
            return Vec::new();
        }
        self.back()
    }

    fn back(&mut self) -> Vec<Effect> {
        if self.lifetime_back() {
            return Vec::new();
        }
        match self.mode {
            Mode::Normal if self.filter.is_some() => {
                self.clear_filter();
                Vec::new()
            }
            Mode::Normal => vec![Effect::Quit],
            Mode::Waiting(_) => self.cancel_waiting(),
            _ => {
                self.mode = Mode::Normal;
                Vec::new()
            }
        }
    }

    fn job_done(&mut self, done: Done) -> Vec<Effect> {
        match done {
            Done::CountProgress { tokenizer, done, total } => {
                if let Some(c) = self.counting.as_mut().filter(|c| c.tokenizer == tokenizer) {
                    c.done = done;
                    c.total = total;
                }
                Vec::new()
            }
            Done::Counted { tokenizer, result } => self.counted(tokenizer, result),
            Done::Derived { key, result } => {
                self.derived_ready(key, result);
                Vec::new()
            }
            Done::Summarized { key, result } => {
                self.waiting_progress = None;
                self.summarized(key, result)
            }
            Done::Edited { key, result } => {
                self.edited(&key, result);
                Vec::new()
            }
            Done::Previewed { key, result } => {
                self.previewed(&key, result);
                Vec::new()
            }
            Done::Lost { key, result } => {
                self.waiting_progress = None;
                self.reported(&key, result);
                Vec::new()
            }
            Done::Exported { path, result } => {
                self.exported(&path, result);
                Vec::new()
            }
            Done::Searched { query, matches } => {
                self.searched(query, matches);
                Vec::new()
            }
            Done::Session { key, result } => {
                self.session_ready(key, result);
                Vec::new()
            }
            Done::Replayed { key, result } => {
                self.replayed(key, result);
                Vec::new()
            }
            Done::Swept { key, result } => {
                self.swept(key, result);
                Vec::new()
            }
            Done::Compared { key, result } => {
                self.compared(key, result);
                Vec::new()
            }
            Done::Panicked { kind, message } => {
                self.status = Status::error(format!("a background job ({kind:?}) failed: {message}"));
                Vec::new()
            }
            Done::BrokenDown { key, by, rows } => {
                self.broken_down(&key, by, rows);
                Vec::new()
            }
            // The browser's rows: the browser takes them before a session sees them.
            Done::Reloaded { state, result } => self.reloaded(state, result),
            Done::Progressed {
                kind,
                done,
                of,
                elapsed,
            } => {
                match kind {
                    JobKind::Sweep => self.sweep_progress = Some((done, of, elapsed)),
                    JobKind::Summary | JobKind::Loss if matches!(self.mode, Mode::Waiting(_)) => {
                        self.waiting_progress = Some((done, of, elapsed));
                    }
                    _ => {}
                }
                Vec::new()
            }
            Done::Scanned(_) | Done::ScanEnded => Vec::new(),
        }
    }

    /// The key context of the current mode: which bindings apply, which hints show.
    pub fn key_context(&self) -> super::keys::Context {
        use super::keys::Context;
        match &self.mode {
            Mode::Normal => Context::Main,
            Mode::Help { .. } => Context::Help,
            Mode::Preview(_) => Context::Preview,
            Mode::Loss { .. } => Context::Loss,
            Mode::Breakdown(_) => Context::Breakdown,
            Mode::Prompt(_) => Context::Prompt,
            Mode::Waiting(_) => Context::Waiting,
            Mode::Confirm { .. } => Context::Confirm,
            Mode::PickTokenizer { .. } => Context::Pick,
            Mode::Timeline(TimelineView {
                open: None,
                compaction: None,
                ..
            }) => Context::Timeline,
            Mode::Timeline(_) => Context::Epoch,
            Mode::Replay => Context::Replay,
            Mode::Sweep => Context::Sweep,
            Mode::Compare { .. } => Context::Compare,
            Mode::Config(_) => Context::Config,
            Mode::Cost => Context::Cost,
            Mode::Ledger { .. } => Context::Ledger,
        }
    }

    // ---- what widgets and tests read ------------------------------------------------

    /// The transcript being inspected.
    pub fn transcript(&self) -> &Arc<Transcript> {
        &self.transcript
    }

    /// Colours.
    pub fn theme(&self) -> &Theme {
        &self.theme
    }

    /// Counts of the shown tokenizer.
    pub fn counts(&self) -> &Counts {
        &self.counts[&self.tokenizer]
    }

    /// How far the current counter is from what the provider bills, when far.
    pub fn provider_gap(&self) -> Option<crate::tokens::media::ProviderGap> {
        self.heavy.get(&self.tokenizer)?.gap(self.counts())
    }

    /// Counts by `tokenizer`, when already computed.
    pub fn counts_by(&self, tokenizer: Tokenizer) -> Option<&Counts> {
        self.counts.get(&tokenizer).map(AsRef::as_ref)
    }

    /// The counts the list and the plan use: the deterministic output's under the
    /// deterministic strategies, the transcript's own otherwise.
    pub fn view_counts(&self) -> &Counts {
        self.deterministic().map_or_else(|| self.counts(), |d| &d.counts)
    }

    /// The deterministic pass of the current settings, once made.
    pub fn deterministic(&self) -> Option<&Derived> {
        let current = self.derive_key()?;
        self.derived.get(&current).map(AsRef::as_ref)
    }

    /// The tokenizer whose counts are shown.
    pub fn tokenizer(&self) -> Tokenizer {
        self.tokenizer
    }

    /// A background count, while one runs.
    pub fn counting(&self) -> Option<Counting> {
        self.counting
    }

    /// Strategy and options.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The §7F options.
    pub fn options(&self) -> &Options {
        &self.settings.options
    }

    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.settings.strategy
    }

    /// The other agent's policy the list follows, when one was chosen.
    pub fn main_policy(&self) -> Option<&MainPolicy> {
        self.main_policy.as_ref()
    }

    /// What the strategy plans with the current counts.
    pub fn planned(&self) -> &Planned {
        &self.planned
    }

    /// The effective `keep_tail`.
    pub fn keep_tail(&self) -> u64 {
        self.settings.options.effective_keep_tail()
    }

    /// Tokens after compaction (with the summary once made, the placeholder until then).
    pub fn tokens_after(&self) -> u64 {
        self.tokens_after
    }

    /// Warnings about the current plan.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// True while `max_tokens` is still the default (60% of the total).
    pub fn default_max(&self) -> bool {
        self.default_max
    }

    /// How summaries are made.
    pub fn summarizer(&self) -> &Spec {
        &self.summarizer
    }

    /// The summary made for the current cut (or the user's edit of it).
    pub fn summary(&self) -> Option<&Summary> {
        let key = self.summary_key()?;
        self.summary.as_ref().filter(|s| s.key == key)
    }

    /// Its text.
    pub fn summary_text(&self) -> Option<&str> {
        self.summary().map(|s| s.text.as_str())
    }

    /// True while a summary is being made.
    pub fn summarizing(&self) -> bool {
        self.summarizing.is_some()
    }

    /// True while the deterministic pass runs.
    pub fn deriving(&self) -> bool {
        self.derived.is_running()
    }

    /// The selected message.
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// The first visible row of the list.
    pub fn list_offset(&self) -> usize {
        self.list_offset
    }

    /// The focused pane.
    pub fn focus(&self) -> Pane {
        self.focus
    }

    /// The first visible line of the detail pane.
    pub fn detail_scroll(&self) -> usize {
        self.detail_scroll
    }

    /// Overlays and prompts.
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// The last search and its matches.
    pub fn search(&self) -> Option<&Search> {
        self.search.as_ref()
    }

    /// The status line.
    pub fn status(&self) -> Option<&Status> {
        self.status.as_ref()
    }

    /// The terminal's size (columns, rows).
    pub fn size(&self) -> (u16, u16) {
        self.size
    }

    /// The list's filter, when it shows only some messages.
    pub fn filter(&self) -> Option<&ListFilter> {
        self.filter.as_ref()
    }

    /// The fit of the log's recorded usage with the shown counts, when it records usage.
    pub fn calibration(&self) -> Option<&crate::calibrate::Calibration> {
        self.calibration
            .as_ref()
            .filter(|(t, _)| *t == self.tokenizer)
            .and_then(|(_, c)| c.as_deref())
    }

    /// Messages are shown as raw JSON (else as readable text).
    pub fn raw(&self) -> bool {
        self.raw
    }

    /// True while a worker runs: the loop then ticks to animate the spinner.
    pub fn busy(&self) -> bool {
        self.breaking_down.is_running()
            || self.counting.is_some()
            || self.summarizing.is_some()
            || self.derived.is_running()
            || self.previewing.is_running()
            || self.reporting.is_running()
            || self.exporting.is_some()
            || self.searching.is_some()
            || self.lifetime_busy()
    }

    /// How far the job the waiting box waits for is, as words: `read 45,000 of 100,000
    /// messages · about 0.4 s left` (nothing until it has told).
    pub fn waiting_progress(&self) -> Option<String> {
        let (done, of, elapsed) = self.waiting_progress?;
        Some(format!(
            "read {} of {} · {}",
            crate::text::thousands(done as u64),
            crate::text::count_of(of as u64, "message", "messages"),
            time_left(done, of, elapsed)
        ))
    }

    /// The spinner frame for the current tick.
    pub fn spinner(&self) -> char {
        const FRAMES: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
        FRAMES[(self.tick % 10) as usize]
    }
}

/// The time `of - done` more steps take at the rate `done` took `elapsed`, in words:
/// `about 0.4 s left`, `about 12 s left`.
pub(crate) fn time_left(done: usize, of: usize, elapsed: std::time::Duration) -> String {
    let left = elapsed.as_secs_f64() / done.max(1) as f64 * of.saturating_sub(done) as f64;
    if left < 10.0 {
        format!("about {left:.1} s left")
    } else {
        format!("about {left:.0} s left")
    }
}
