//! The TUI's state and its one mutator, [`App::update`]. Keys, mouse, resize and worker
//! messages arrive as [`Action`]s; `update` changes state and returns an [`Effect`] for
//! the event loop to carry out (I/O never happens here), so every behaviour is testable
//! without a terminal.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use ratatui::layout::Rect;

use super::action::{next_tokenizer, Action};
use super::preview::PreviewState;
use super::search::Search;
use super::theme::Theme;
use super::ui::{layout, list_rows};
use crate::cli::table::thousands;
use crate::compact::deterministic::{self, Compressed};
use crate::compact::{
    inserted_for, plan, reload, tokens_after, warnings, Options, Plan, SplitReason, Strategy, Warning,
};
use crate::summarize::{Placeholder, Settings, Spec};
use crate::tokens::{Counts, Tokenizer};
use crate::transcript::Transcript;

/// Which pane has the focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    /// The message list.
    List,
    /// The detail pane.
    Detail,
}

/// What one row of the message list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    /// A message.
    Message(usize),
    /// The line where the tail starts.
    Boundary,
    /// A compaction that already happened in the log (index into `transcript.notes`).
    PastCompaction(usize),
}

/// What a prompt edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKind {
    /// An exact `max_tokens`.
    MaxTokens,
    /// An exact `keep_tail`.
    KeepTail,
    /// A search query.
    Search,
    /// The export path.
    Export,
}

/// An open prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    /// What it edits.
    pub kind: PromptKind,
    /// The text typed so far.
    pub input: String,
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
    Preview(PreviewState),
    /// A one-line prompt.
    Prompt(Prompt),
    /// A summary is being made in the background.
    Waiting(String),
    /// The loss report.
    Loss {
        /// The report, as text.
        text: String,
        /// First line shown.
        scroll: usize,
    },
}

/// What to do once the summary exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AfterSummary {
    /// Open the preview.
    Preview,
    /// Open the loss report.
    Loss,
    /// Export to this path.
    Export(PathBuf),
    /// Open the summary in the editor.
    Edit,
}

/// The summary of the current cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// The cut it summarizes: (strategy, first summarized message, split).
    pub key: (Strategy, usize, usize),
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
    /// The request's number (the latest request wins).
    pub generation: u64,
    /// Messages counted so far.
    pub done: usize,
    /// Messages in all.
    pub total: usize,
}

/// The deterministic pass on the current counts, and the transcript it leaves (same
/// message indices), counted: what `deterministic,tail` plans on.
#[derive(Debug, Clone)]
pub struct Derived {
    /// The tokenizer the pass counted with.
    pub tokenizer: Tokenizer,
    /// The pass: edits, changed messages, totals.
    pub compressed: Compressed,
    /// Its output, loaded.
    pub transcript: Arc<Transcript>,
    /// Its output's counts.
    pub counts: Arc<Counts>,
}

/// A line for the status bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    /// The text.
    pub text: String,
    /// Shown as an error.
    pub error: bool,
}

/// What the event loop must do after an update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Nothing.
    None,
    /// Leave the TUI.
    Quit,
    /// Count with a BPE tokenizer on a worker.
    Count {
        /// The tokenizer.
        tokenizer: Tokenizer,
        /// The request's number.
        generation: u64,
    },
    /// Stop any running count (its generation is stale).
    CancelCount {
        /// The newest generation.
        generation: u64,
    },
    /// Write the compacted transcript to this path.
    Export(PathBuf),
    /// Make the summary of the current cut on a worker (request `generation`).
    Summarize {
        /// The request's number.
        generation: u64,
    },
    /// Open this summary text in the user's editor.
    EditSummary(String),
}

/// The whole state of the TUI.
#[derive(Debug)]
pub struct App {
    /// The transcript being inspected.
    pub transcript: Arc<Transcript>,
    /// The input path, when it is a file (export refuses to overwrite it).
    pub input_path: Option<PathBuf>,
    /// Colours.
    pub theme: Theme,
    counts: BTreeMap<Tokenizer, Arc<Counts>>,
    /// The tokenizer whose counts are shown.
    pub tokenizer: Tokenizer,
    /// A background count, while one runs.
    pub counting: Option<Counting>,
    generation: u64,
    summary_generation: u64,
    /// The compactor's options.
    pub options: Options,
    /// The strategy shown.
    pub strategy: Strategy,
    /// The deterministic pass and the transcript it leaves, for the non-tail strategies.
    pub derived: Option<Derived>,
    /// How summaries are made.
    pub summarizer: Spec,
    /// The summarizers' settings.
    pub summary_settings: Settings,
    /// The summary of the current cut, once made (or edited).
    pub summary: Option<Summary>,
    /// The summary request in flight.
    pub summarizing: Option<u64>,
    after_summary: Option<AfterSummary>,
    /// True while `max_tokens` is still the default (60% of the total).
    pub default_max: bool,
    /// The current plan.
    pub plan: Plan,
    /// Tokens after compaction (with the placeholder summary).
    pub tokens_after: u64,
    /// Warnings about the current plan.
    pub warnings: Vec<Warning>,
    /// The selected message.
    pub selected: usize,
    /// The first visible row of the list.
    pub list_offset: usize,
    /// The focused pane.
    pub focus: Pane,
    /// The first visible line of the detail pane.
    pub detail_scroll: usize,
    /// Overlays and prompts.
    pub mode: Mode,
    /// The last search and its matches.
    pub search: Option<Search>,
    /// The status line.
    pub status: Option<Status>,
    /// The terminal's size (columns, rows).
    pub size: (u16, u16),
    /// Ticks seen while background work runs (the spinner's frame).
    pub tick: u64,
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
    /// A new app on `transcript`; the effect starts a BPE count when one is asked for.
    pub fn new(
        transcript: Transcript,
        input_path: Option<PathBuf>,
        max_tokens: Option<u64>,
        keep_tail: Option<u64>,
        flush: bool,
        tokenizer: Tokenizer,
    ) -> (App, Effect) {
        let transcript = Arc::new(transcript);
        let estimate = Arc::new(Counts::compute(&transcript, Tokenizer::Estimate));
        let total = estimate.total();
        let options = Options {
            max_tokens: max_tokens.unwrap_or_else(|| default_max_tokens(total)),
            keep_tail,
            flush_to_memory: flush,
        };
        let mut app = App {
            transcript,
            input_path,
            theme: Theme::from_env(),
            counts: BTreeMap::from([(Tokenizer::Estimate, estimate)]),
            tokenizer: Tokenizer::Estimate,
            counting: None,
            generation: 0,
            summary_generation: 0,
            options,
            strategy: Strategy::Tail,
            derived: None,
            summarizer: Spec::Extractive,
            summary_settings: Settings::default(),
            summary: None,
            summarizing: None,
            after_summary: None,
            default_max: max_tokens.is_none(),
            plan: Plan {
                tokens_before: 0,
                max_tokens: 0,
                keep_tail: 0,
                flush_to_memory: false,
                decision: crate::compact::Decision::UnderBudget,
            },
            tokens_after: 0,
            warnings: Vec::new(),
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
        let effect = app.switch_tokenizer(tokenizer);
        app.focus_on_cut();
        (app, effect)
    }

    /// Counts of the shown tokenizer.
    pub fn counts(&self) -> &Counts {
        &self.counts[&self.tokenizer]
    }

    /// The counts the list and the plan use: the deterministic output's under the
    /// deterministic strategies, the transcript's own otherwise.
    pub fn view_counts(&self) -> &Counts {
        match (&self.derived, self.strategy) {
            (Some(d), Strategy::Deterministic | Strategy::DeterministicThenTail) => &d.counts,
            _ => self.counts(),
        }
    }

    /// The deterministic pass, when the strategy uses it.
    pub fn deterministic(&self) -> Option<&Derived> {
        self.derived.as_ref().filter(|_| self.strategy != Strategy::Tail)
    }

    /// Counts by `tokenizer`, when already computed.
    pub fn counts_by(&self, tokenizer: Tokenizer) -> Option<&Counts> {
        self.counts.get(&tokenizer).map(AsRef::as_ref)
    }

    /// Applies one action.
    pub fn update(&mut self, action: Action) -> Effect {
        match action {
            Action::Quit => return Effect::Quit,
            Action::Back => return self.back(),
            Action::Resize(w, h) => self.resize(w, h),
            Action::Tick => self.tick = self.tick.wrapping_add(1),
            Action::CountProgress {
                generation,
                done,
                total,
            } => self.count_progress(generation, done, total),
            Action::CountDone { generation, counts } => self.count_done(generation, counts),
            Action::Exported(result) => self.exported(result),
            Action::SummaryReady { generation, result } => return self.summary_ready(generation, result),
            Action::SummaryEdited(result) => self.summary_edited(result),
            Action::PromptChar(_) | Action::PromptBackspace | Action::PromptTab | Action::PromptSubmit => {
                return self.prompt_input(&action)
            }
            _ if !matches!(self.mode, Mode::Normal) => return self.overlay_action(&action),
            other => return self.main_action(&other),
        }
        Effect::None
    }

    fn main_action(&mut self, action: &Action) -> Effect {
        let small = round_step(self.counts().total() / 100);
        let big = round_step(self.counts().total() / 10);
        match action {
            Action::Up => self.move_or_scroll(-1),
            Action::Down => self.move_or_scroll(1),
            Action::PageUp => self.move_or_scroll(-(self.page() as i64)),
            Action::PageDown => self.move_or_scroll(self.page() as i64),
            Action::Top => self.select(0),
            Action::Bottom => self.select(self.transcript.messages.len().saturating_sub(1)),
            Action::Scroll(n) => self.move_or_scroll(i64::from(*n)),
            Action::Click(x, y) => self.click(*x, *y),
            Action::SwitchPane => {
                self.focus = if self.focus == Pane::List {
                    Pane::Detail
                } else {
                    Pane::List
                }
            }
            Action::MaxUp => self.set_max(self.options.max_tokens.saturating_add(small)),
            Action::MaxDown => self.set_max(self.options.max_tokens.saturating_sub(small)),
            Action::MaxUpBig => self.set_max(self.options.max_tokens.saturating_add(big)),
            Action::MaxDownBig => self.set_max(self.options.max_tokens.saturating_sub(big)),
            Action::KeepUp => self.set_keep(self.plan.keep_tail.saturating_add(small)),
            Action::KeepDown => self.set_keep(self.plan.keep_tail.saturating_sub(small)),
            Action::KeepUpBig => self.set_keep(self.plan.keep_tail.saturating_add(big)),
            Action::KeepDownBig => self.set_keep(self.plan.keep_tail.saturating_sub(big)),
            Action::ToggleFlush => {
                self.options.flush_to_memory = !self.options.flush_to_memory;
                self.replan();
                let state = if self.options.flush_to_memory { "on" } else { "off" };
                self.status = Some(Status {
                    text: format!("flush_to_memory {state}: {}", self.plan_summary()),
                    error: false,
                });
            }
            Action::CycleStrategy => {
                let i = Strategy::ALL.iter().position(|&x| x == self.strategy).unwrap_or(0);
                self.strategy = Strategy::ALL[(i + 1) % Strategy::ALL.len()];
                self.replan();
                self.status = Some(Status {
                    text: format!("strategy {}: {}", self.strategy.name(), self.plan_summary()),
                    error: false,
                });
            }
            Action::CycleTokenizer => {
                let from = self.counting.map_or(self.tokenizer, |c| c.tokenizer);
                return self.switch_tokenizer(next_tokenizer(from));
            }
            Action::EnterValue => self.open_prompt(PromptKind::MaxTokens, self.options.max_tokens.to_string()),
            Action::Search => self.open_prompt(PromptKind::Search, String::new()),
            Action::Export => self.open_prompt(PromptKind::Export, self.default_export_path()),
            Action::NextMatch => self.step_match(true),
            Action::PrevMatch => self.step_match(false),
            Action::TogglePreview => return self.with_summary(AfterSummary::Preview),
            Action::ToggleLoss => return self.with_summary(AfterSummary::Loss),
            Action::EditSummary => return self.with_summary(AfterSummary::Edit),
            Action::ToggleHelp => self.mode = Mode::Help { scroll: 0 },
            _ => {}
        }
        Effect::None
    }

    fn overlay_action(&mut self, action: &Action) -> Effect {
        let page = self.page();
        if matches!(action, Action::EditSummary) && matches!(self.mode, Mode::Preview(_)) {
            return self.with_summary(AfterSummary::Edit);
        }
        let scroll = match &mut self.mode {
            Mode::Help { scroll } | Mode::Loss { scroll, .. } => scroll,
            Mode::Preview(preview) => &mut preview.scroll,
            Mode::Normal | Mode::Prompt(_) | Mode::Waiting(_) => return Effect::None,
        };
        match action {
            Action::Up => *scroll = scroll.saturating_sub(1),
            Action::Down => *scroll += 1,
            Action::Scroll(n) => *scroll = scroll.saturating_add_signed(*n as isize),
            Action::PageUp => *scroll = scroll.saturating_sub(page),
            Action::PageDown => *scroll += page,
            Action::Top => *scroll = 0,
            Action::Bottom => *scroll = usize::MAX / 2,
            Action::ToggleHelp | Action::TogglePreview | Action::ToggleLoss => self.mode = Mode::Normal,
            Action::Export if matches!(self.mode, Mode::Preview(_)) => {
                self.open_prompt(PromptKind::Export, self.default_export_path());
            }
            _ => {}
        }
        Effect::None
    }

    fn back(&mut self) -> Effect {
        if matches!(self.mode, Mode::Normal) {
            return Effect::Quit;
        }
        if matches!(self.mode, Mode::Waiting(_)) {
            // The worker may still finish; its generation is then stale and ignored.
            self.summarizing = None;
            self.after_summary = None;
            self.status = Some(Status {
                text: "summary cancelled".into(),
                error: false,
            });
        }
        self.mode = Mode::Normal;
        Effect::None
    }

    /// True while a worker runs (a count or a summary): the loop then ticks.
    pub fn busy(&self) -> bool {
        self.counting.is_some() || self.summarizing.is_some()
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
    fn with_summary(&mut self, after: AfterSummary) -> Effect {
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

    fn run_after(&mut self, after: AfterSummary) -> Effect {
        self.mode = Mode::Normal;
        match after {
            AfterSummary::Preview => self.mode = Mode::Preview(PreviewState::build(self)),
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

    fn summary_ready(&mut self, generation: u64, result: Result<String, String>) -> Effect {
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

    fn summary_edited(&mut self, result: Result<String, String>) {
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

    /// Re-plans with the cached counts: O(log n), no re-count. The deterministic pass
    /// is computed once per tokenizer (the TUI runs phase 1 only, which ignores the cap).
    pub fn replan(&mut self) {
        self.ensure_derived();
        let (transcript, counts) = match self.deterministic() {
            Some(d) => (Arc::clone(&d.transcript), Arc::clone(&d.counts)),
            None => (Arc::clone(&self.transcript), Arc::clone(&self.counts[&self.tokenizer])),
        };
        self.plan = plan(&transcript, &counts, &self.options);
        if self.strategy == Strategy::Deterministic {
            // No tail cut: the deterministic output is the result.
            self.plan.decision = crate::compact::Decision::UnderBudget;
        }
        let made = self.summary_text().map(str::to_owned);
        self.tokens_after = self.plan.cut().map_or(self.plan.tokens_before, |cut| {
            // The real summary once made; until then the placeholder stands in.
            let summary = made.unwrap_or_else(|| Placeholder::text(cut.summarized()));
            let inserted = inserted_for(&transcript, cut, self.options.flush_to_memory, &summary);
            tokens_after(
                cut,
                &counts,
                &inserted.into_iter().map(|i| i.counted).collect::<Vec<_>>(),
            )
        });
        self.warnings = warnings(&self.plan, self.tokens_after, self.transcript.format.dialect);
        if self.strategy == Strategy::Deterministic && self.tokens_after > self.options.max_tokens {
            self.warnings.push(Warning::CapNotMet {
                tokens_after: self.tokens_after,
                cap: self.options.max_tokens,
            });
        }
        self.clamp_offset();
    }

    fn ensure_derived(&mut self) {
        if self.strategy == Strategy::Tail || self.derived.as_ref().is_some_and(|d| d.tokenizer == self.tokenizer) {
            return;
        }
        let counts = Arc::clone(&self.counts[&self.tokenizer]);
        let settings = deterministic::Settings {
            cap: self.options.max_tokens,
            subjective_edits: false,
            externalize_over: deterministic::DEFAULT_EXTERNALIZE_OVER,
        };
        let derived = deterministic::compress(&self.transcript, &counts, &settings, &mut deterministic::DryRun)
            .and_then(|compressed| {
                let (transcript, counts) = reload(&self.transcript, &compressed, &counts)?;
                Ok(Derived {
                    tokenizer: self.tokenizer,
                    compressed,
                    transcript: Arc::new(transcript),
                    counts: Arc::new(counts),
                })
            });
        match derived {
            Ok(d) => self.derived = Some(d),
            Err(e) => {
                self.strategy = Strategy::Tail;
                self.status = Some(Status {
                    text: format!("deterministic pass failed: {e:#}"),
                    error: true,
                });
            }
        }
    }

    fn set_max(&mut self, value: u64) {
        self.options.max_tokens = value;
        self.default_max = false;
        self.replan();
        self.status = Some(Status {
            text: format!("max_tokens {}: {}", thousands(value), self.plan_summary()),
            error: false,
        });
    }

    fn set_keep(&mut self, value: u64) {
        self.options.keep_tail = Some(value);
        self.replan();
        self.status = Some(Status {
            text: format!("keep_tail {}: {}", thousands(value), self.plan_summary()),
            error: false,
        });
    }

    /// One line on what the current plan does.
    pub fn plan_summary(&self) -> String {
        if let (Strategy::Deterministic, Some(d)) = (self.strategy, self.deterministic()) {
            return format!(
                "{} edits, {} → {} tokens",
                d.compressed.edits.len(),
                thousands(d.compressed.tokens_before),
                thousands(d.compressed.tokens_after)
            );
        }
        match self.plan.cut() {
            Some(cut) => format!(
                "split at #{}, {} messages summarized, {} → {} tokens",
                cut.split,
                cut.summarized(),
                thousands(self.plan.tokens_before),
                thousands(self.tokens_after)
            ),
            None => format!(
                "no-op ({} ≤ {})",
                thousands(self.plan.tokens_before),
                thousands(self.plan.max_tokens)
            ),
        }
    }

    fn switch_tokenizer(&mut self, tokenizer: Tokenizer) -> Effect {
        if let Some(counts) = self.counts.get(&tokenizer) {
            let _ = counts;
            self.tokenizer = tokenizer;
            self.replan();
            if self.counting.take().is_some() {
                self.generation += 1;
                return Effect::CancelCount {
                    generation: self.generation,
                };
            }
            return Effect::None;
        }
        if !tokenizer.is_bpe() {
            // The estimators take milliseconds even at 100k messages.
            self.counts
                .insert(tokenizer, Arc::new(Counts::compute(&self.transcript, tokenizer)));
            return self.switch_tokenizer(tokenizer);
        }
        self.generation += 1;
        self.counting = Some(Counting {
            tokenizer,
            generation: self.generation,
            done: 0,
            total: self.transcript.messages.len(),
        });
        Effect::Count {
            tokenizer,
            generation: self.generation,
        }
    }

    fn count_progress(&mut self, generation: u64, done: usize, total: usize) {
        if let Some(c) = self.counting.as_mut().filter(|c| c.generation == generation) {
            c.done = done;
            c.total = total;
        }
    }

    fn count_done(&mut self, generation: u64, counts: Arc<Counts>) {
        let tokenizer = counts.tokenizer;
        self.counts.insert(tokenizer, counts);
        if self.counting.is_some_and(|c| c.generation == generation) {
            self.counting = None;
            self.tokenizer = tokenizer;
            self.replan();
            self.status = Some(Status {
                text: format!("{tokenizer} counts ready"),
                error: false,
            });
        }
    }

    fn exported(&mut self, result: Result<String, String>) {
        self.status = Some(match result {
            Ok(text) => Status { text, error: false },
            Err(text) => Status { text, error: true },
        });
    }

    fn open_prompt(&mut self, kind: PromptKind, input: String) {
        self.mode = Mode::Prompt(Prompt { kind, input });
    }

    fn prompt_input(&mut self, action: &Action) -> Effect {
        let Mode::Prompt(prompt) = &mut self.mode else {
            return Effect::None;
        };
        match action {
            Action::PromptChar(c) => prompt.input.push(*c),
            Action::PromptBackspace => {
                prompt.input.pop();
            }
            Action::PromptTab => match prompt.kind {
                PromptKind::MaxTokens => {
                    *prompt = Prompt {
                        kind: PromptKind::KeepTail,
                        input: self.plan.keep_tail.to_string(),
                    }
                }
                PromptKind::KeepTail => {
                    *prompt = Prompt {
                        kind: PromptKind::MaxTokens,
                        input: self.options.max_tokens.to_string(),
                    }
                }
                PromptKind::Search | PromptKind::Export => {}
            },
            Action::PromptSubmit => {
                let prompt = prompt.clone();
                self.mode = Mode::Normal;
                return self.submit(&prompt);
            }
            _ => {}
        }
        Effect::None
    }

    fn submit(&mut self, prompt: &Prompt) -> Effect {
        let text = prompt.input.trim();
        match prompt.kind {
            PromptKind::MaxTokens | PromptKind::KeepTail => match text.replace([',', '_'], "").parse::<u64>() {
                Ok(n) if prompt.kind == PromptKind::MaxTokens => self.set_max(n),
                Ok(n) => self.set_keep(n),
                Err(_) => {
                    self.status = Some(Status {
                        text: format!("not a number: {text:?}"),
                        error: true,
                    });
                }
            },
            PromptKind::Search => self.run_search(text),
            PromptKind::Export if text.is_empty() => {}
            PromptKind::Export => return self.with_summary(AfterSummary::Export(PathBuf::from(text))),
        }
        Effect::None
    }

    fn run_search(&mut self, query: &str) {
        if query.is_empty() {
            self.search = None;
            return;
        }
        let search = Search::run(&self.transcript, query);
        if search.matches.is_empty() {
            self.status = Some(Status {
                text: format!("no message matches {query:?}"),
                error: true,
            });
        }
        self.search = Some(search);
        self.step_match(true);
    }

    fn step_match(&mut self, forward: bool) {
        let Some(search) = &self.search else {
            self.status = Some(Status {
                text: "no search yet: press / to search".into(),
                error: false,
            });
            return;
        };
        let Some((position, index)) = search.step(self.selected, forward) else {
            return;
        };
        let text = format!("match {}/{} for {:?}", position + 1, search.matches.len(), search.query);
        self.select(index);
        self.status = Some(Status { text, error: false });
    }

    /// The export path offered by default: `<input>.compacted.<ext>` beside the input.
    pub fn default_export_path(&self) -> String {
        let extension = if self.transcript.format.container == crate::transcript::Container::Jsonl {
            "jsonl"
        } else {
            "json"
        };
        let Some(path) = &self.input_path else {
            let stem = self
                .transcript
                .source
                .trim_start_matches("demo:")
                .trim_end_matches(".json")
                .trim_matches(['<', '>']);
            return format!("{stem}.compacted.{extension}");
        };
        let stem = path
            .file_stem()
            .map_or_else(|| "transcript".into(), |s| s.to_string_lossy().into_owned());
        let ext = path
            .extension()
            .map_or_else(|| extension.to_owned(), |e| e.to_string_lossy().into_owned());
        path.with_file_name(format!("{stem}.compacted.{ext}"))
            .display()
            .to_string()
    }

    fn resize(&mut self, w: u16, h: u16) {
        let first = self.size == (0, 0);
        self.size = (w, h);
        if first {
            self.focus_on_cut();
        }
        self.clamp_offset();
    }

    fn click(&mut self, x: u16, y: u16) {
        let areas = layout(Rect::new(0, 0, self.size.0, self.size.1));
        let inside = |r: Rect| x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
        if let Some(detail) = areas.detail.filter(|d| inside(*d)) {
            let _ = detail;
            self.focus = Pane::Detail;
        } else if inside(areas.list) {
            self.focus = Pane::List;
            // The list's first row sits under its top border and column header.
            let row = usize::from(y.saturating_sub(areas.list.y + 2)) + self.list_offset;
            if y >= areas.list.y + 2 {
                if let Some(index) = self.message_of_row(row) {
                    self.select(index);
                }
            }
        }
    }

    fn move_or_scroll(&mut self, delta: i64) {
        if self.focus == Pane::Detail {
            self.detail_scroll = self.detail_scroll.saturating_add_signed(delta as isize);
        } else {
            let last = self.transcript.messages.len().saturating_sub(1) as i64;
            self.select((self.selected as i64 + delta).clamp(0, last.max(0)) as usize);
        }
    }

    /// Selects message `index` and scrolls it into view.
    pub fn select(&mut self, index: usize) {
        if index != self.selected {
            self.detail_scroll = 0;
        }
        self.selected = index.min(self.transcript.messages.len().saturating_sub(1));
        self.clamp_offset();
    }

    /// Rows the list shows at once.
    pub fn page(&self) -> usize {
        list_rows(layout(Rect::new(0, 0, self.size.0, self.size.1)).list).max(1)
    }

    /// Selects the first tail message (the last message when the tail is empty) and
    /// centres the list on the boundary line, so the cut is the first thing seen.
    pub fn focus_on_cut(&mut self) {
        let Some(split) = self.boundary_at() else {
            return;
        };
        self.select(split.min(self.transcript.messages.len().saturating_sub(1)));
        self.list_offset = split.saturating_sub(self.page() / 2);
        self.clamp_offset();
    }

    /// Keeps the selection on screen with a few rows of context above and below it.
    fn clamp_offset(&mut self) {
        const CONTEXT: usize = 3;
        let rows = self.page();
        let context = CONTEXT.min(rows.saturating_sub(1) / 2);
        let row = self.row_of_message(self.selected);
        if row < self.list_offset + context {
            self.list_offset = row.saturating_sub(context);
        } else if row + context >= self.list_offset + rows {
            self.list_offset = row + context + 1 - rows;
        }
        self.list_offset = self.list_offset.min(self.row_count().saturating_sub(rows));
    }

    /// The message index before which the boundary line is drawn, when compacting.
    pub fn boundary_at(&self) -> Option<usize> {
        self.plan.cut().map(|c| c.split)
    }

    /// Rows that are not messages, with the message they precede: past compactions (from
    /// the log) and the boundary line, in order.
    fn extra_rows(&self) -> Vec<(usize, Row)> {
        let mut extras: Vec<(usize, Row)> = self
            .transcript
            .notes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.is_past_compaction())
            .map(|(k, n)| (n.before, Row::PastCompaction(k)))
            .collect();
        if let Some(b) = self.boundary_at() {
            extras.push((b, Row::Boundary));
        }
        extras.sort_by_key(|(at, row)| (*at, matches!(row, Row::Boundary)));
        extras
    }

    /// Rows of the list: one per message, plus the boundary line and past compactions.
    pub fn row_count(&self) -> usize {
        self.transcript.messages.len() + self.extra_rows().len()
    }

    /// The row where message `index` is drawn.
    pub fn row_of_message(&self, index: usize) -> usize {
        index + self.extra_rows().iter().filter(|(at, _)| *at <= index).count()
    }

    /// What row `row` shows (`None` past the end).
    pub fn row_at(&self, row: usize) -> Option<Row> {
        let mut before = 0;
        for (at, kind) in self.extra_rows() {
            let extra_row = at + before;
            if row == extra_row {
                return Some(kind);
            }
            if row < extra_row {
                break;
            }
            before += 1;
        }
        let index = row - before;
        (index < self.transcript.messages.len()).then_some(Row::Message(index))
    }

    /// The message drawn on `row` (`None` for other rows or past the end).
    pub fn message_of_row(&self, row: usize) -> Option<usize> {
        match self.row_at(row) {
            Some(Row::Message(index)) => Some(index),
            _ => None,
        }
    }

    /// Why the tail starts where it does, for the boundary line.
    pub fn boundary_reason(&self) -> Option<String> {
        let cut = self.plan.cut()?;
        Some(match cut.reason {
            SplitReason::LargestFittingTail => "largest tail ≤ keep_tail at a user turn".to_owned(),
            SplitReason::Fallback => {
                format!(
                    "fallback: most recent user turn, {} over keep_tail",
                    thousands(cut.tail_tokens - self.plan.keep_tail)
                )
            }
            SplitReason::NoBoundary => "no user turn: whole body summarized, empty tail".to_owned(),
        })
    }
}
