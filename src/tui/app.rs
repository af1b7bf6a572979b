//! The TUI's state and its one mutator, [`App::update`]. Keys, mouse, resize and worker
//! messages arrive as [`Action`]s; `update` changes state and returns an [`Effect`] for
//! the event loop to carry out (I/O never happens here), so every behaviour is testable
//! without a terminal.

mod navigation;
mod prompts;
mod summaries;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use super::action::{next_tokenizer, Action};
use super::preview::PreviewState;
use super::search::Search;
use super::theme::Theme;
use crate::cli::table::thousands;
use crate::compact::deterministic::{self, Compressed};
use crate::compact::{inserted_for, plan, tokens_after, warnings, Options, Plan, Strategy, Warning};
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

/// A finished deterministic pass, as a worker hands it over (compared by identity).
#[derive(Debug, Clone)]
pub struct DerivedHandle(pub Arc<Derived>);

impl PartialEq for DerivedHandle {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for DerivedHandle {}

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
    /// Build the preview on a worker (request `generation`).
    BuildPreview {
        /// The request's number.
        generation: u64,
    },
    /// Run the deterministic pass on a worker (request `generation`).
    Derive {
        /// The request's number.
        generation: u64,
    },
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
    pub derived: Option<Arc<Derived>>,
    /// The preview being built (its request number).
    pub previewing: Option<u64>,
    preview_generation: u64,
    /// The deterministic pass in flight (its request number).
    pub deriving: Option<u64>,
    derive_generation: u64,
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
            deriving: None,
            derive_generation: 0,
            previewing: None,
            preview_generation: 0,
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
        self.deterministic().map_or_else(|| self.counts(), |d| &d.counts)
    }

    /// The deterministic pass, when the strategy uses it and it is made with the
    /// tokenizer on screen.
    pub fn deterministic(&self) -> Option<&Derived> {
        self.derived
            .as_deref()
            .filter(|d| self.strategy != Strategy::Tail && d.tokenizer == self.tokenizer)
    }

    /// The deterministic pass to start, when the strategy needs one that is neither made
    /// nor running. The loop asks after every update and runs it on a worker: at 100k
    /// messages it takes most of a second, far more than a frame.
    pub fn take_derivation(&mut self) -> Option<Effect> {
        if self.strategy == Strategy::Tail || self.deterministic().is_some() || self.deriving.is_some() {
            return None;
        }
        self.derive_generation += 1;
        self.deriving = Some(self.derive_generation);
        self.status = Some(Status {
            text: "running the deterministic pass…".into(),
            error: false,
        });
        Some(Effect::Derive {
            generation: self.derive_generation,
        })
    }

    /// What the deterministic pass needs: the transcript, its counts, the settings.
    pub fn derive_inputs(&self) -> (Arc<Transcript>, Arc<Counts>, deterministic::Settings) {
        let settings = deterministic::Settings {
            cap: self.options.max_tokens,
            subjective_edits: false,
            externalize_over: deterministic::DEFAULT_EXTERNALIZE_OVER,
        };
        (
            Arc::clone(&self.transcript),
            Arc::clone(&self.counts[&self.tokenizer]),
            settings,
        )
    }

    fn derived_ready(&mut self, generation: u64, result: Result<DerivedHandle, String>) {
        if self.deriving != Some(generation) {
            return;
        }
        self.deriving = None;
        match result {
            Ok(DerivedHandle(derived)) => {
                self.status = Some(Status {
                    text: format!(
                        "deterministic pass: {} edits, {} → {} tokens",
                        derived.compressed.edits.len(),
                        thousands(derived.compressed.tokens_before),
                        thousands(derived.compressed.tokens_after)
                    ),
                    error: false,
                });
                self.derived = Some(derived);
                self.replan();
            }
            Err(error) => {
                self.strategy = Strategy::Tail;
                self.status = Some(Status {
                    text: format!("deterministic pass failed: {error}"),
                    error: true,
                });
                self.replan();
            }
        }
    }

    /// The shown counts, shareable with a worker.
    pub fn counts_arc(&self) -> Arc<Counts> {
        Arc::clone(&self.counts[&self.tokenizer])
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
            Action::DerivedReady { generation, result } => self.derived_ready(generation, result),
            Action::PreviewReady { generation, preview } => {
                if self.previewing == Some(generation) {
                    self.previewing = None;
                    self.mode = Mode::Preview(*preview);
                }
            }
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
            self.previewing = None;
            self.after_summary = None;
            self.status = Some(Status {
                text: "cancelled".into(),
                error: false,
            });
        }
        self.mode = Mode::Normal;
        Effect::None
    }

    /// Re-plans with the cached counts: O(log n), no re-count. Under a deterministic
    /// strategy whose pass is not made yet, the transcript's own counts stand in.
    pub fn replan(&mut self) {
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
        // Every count runs on the worker: even the estimators take ~60 ms at 100k messages.
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
}
