//! Prompts (exact values, search, export path), confirmations, and search steps.
//!
//! A prompt edits its text with `tui-input` (cursor, word and line deletion, horizontal
//! scroll of long text); the first typed character replaces a pre-filled value; Tab
//! switches between `max_tokens` and `keep_tail`, each keeping what was typed.

use std::path::PathBuf;

use tui_input::{Input, InputRequest};

use super::{AfterSummary, App, Effect, Mode, Status};
use crate::tui::action::{Action, PromptEdit};
use crate::tui::jobs::Job;
use crate::tui::search::Search;

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
    /// The model's context window.
    ContextWindow,
}

/// One field of a prompt: its text, and whether it still holds the pre-filled value
/// (the first typed character then replaces it).
#[derive(Debug, Clone)]
struct Field {
    input: Input,
    prefilled: bool,
}

impl Field {
    fn new(value: String) -> Field {
        let prefilled = !value.is_empty();
        Field {
            input: Input::new(value),
            prefilled,
        }
    }
}

/// An open prompt.
#[derive(Debug, Clone)]
pub struct Prompt {
    /// What it edits.
    pub kind: PromptKind,
    field: Field,
    /// The other value of a `max_tokens`/`keep_tail` pair, as last left.
    other: Option<(PromptKind, Field)>,
    /// The view to open again once submitted (the one the prompt was opened from).
    reopen: Option<Action>,
}

impl PartialEq for Prompt {
    fn eq(&self, other: &Prompt) -> bool {
        self.kind == other.kind && self.value() == other.value()
    }
}

impl Eq for Prompt {}

impl Prompt {
    /// The text typed so far.
    pub fn value(&self) -> &str {
        self.field.input.value()
    }

    /// The cursor's position in display cells.
    pub fn cursor(&self) -> usize {
        self.field.input.visual_cursor()
    }

    /// The first cell shown in a field `width` cells wide (the cursor stays visible).
    pub fn scroll(&self, width: usize) -> usize {
        self.field.input.visual_scroll(width)
    }

    /// True while the pre-filled value is untouched (shown selected).
    pub fn prefilled(&self) -> bool {
        self.field.prefilled
    }

    fn edit(&mut self, edit: PromptEdit) {
        self.field.prefilled = false;
        let request = match edit {
            PromptEdit::DeletePrevChar => InputRequest::DeletePrevChar,
            PromptEdit::DeleteNextChar => InputRequest::DeleteNextChar,
            PromptEdit::DeletePrevWord => InputRequest::DeletePrevWord,
            PromptEdit::DeleteLine => InputRequest::DeleteLine,
            PromptEdit::Left => InputRequest::GoToPrevChar,
            PromptEdit::Right => InputRequest::GoToNextChar,
            PromptEdit::Start => InputRequest::GoToStart,
            PromptEdit::End => InputRequest::GoToEnd,
        };
        self.field.input.handle(request);
    }

    fn type_char(&mut self, c: char) {
        if self.field.prefilled {
            self.field.input.reset();
            self.field.prefilled = false;
        }
        self.field.input.handle(InputRequest::InsertChar(c));
    }
}

impl App {
    pub(super) fn open_prompt(&mut self, kind: PromptKind, value: String) {
        self.mode = Mode::Prompt(Prompt {
            kind,
            field: Field::new(value),
            other: None,
            reopen: None,
        });
    }

    /// Opens the context window prompt; `reopen` is the view to go back to.
    pub(super) fn open_window_prompt(&mut self, reopen: Option<Action>) {
        let value = self
            .context_window
            .unwrap_or(crate::policy::claude_code::DEFAULT_WINDOW)
            .to_string();
        self.open_prompt(PromptKind::ContextWindow, value);
        if let Mode::Prompt(prompt) = &mut self.mode {
            prompt.reopen = reopen;
        }
    }

    pub(super) fn prompt_input(&mut self, action: &Action) -> Vec<Effect> {
        let keep = self.settings.options.effective_keep_tail().to_string();
        let max = self.settings.options.max_tokens.to_string();
        let Mode::Prompt(prompt) = &mut self.mode else {
            return Vec::new();
        };
        match action {
            Action::PromptChar(c) => prompt.type_char(*c),
            Action::PromptEdit(edit) => prompt.edit(*edit),
            Action::PromptTab => {
                let next = match prompt.kind {
                    PromptKind::MaxTokens => PromptKind::KeepTail,
                    PromptKind::KeepTail => PromptKind::MaxTokens,
                    PromptKind::Search | PromptKind::Export | PromptKind::ContextWindow => return Vec::new(),
                };
                let field = match prompt.other.take() {
                    Some((kind, field)) if kind == next => field,
                    _ => Field::new(if next == PromptKind::KeepTail { keep } else { max }),
                };
                let left = std::mem::replace(&mut prompt.field, field);
                prompt.other = Some((prompt.kind, left));
                prompt.kind = next;
            }
            Action::PromptSubmit => {
                let prompt = prompt.clone();
                self.mode = Mode::Normal;
                return self.submit(&prompt);
            }
            _ => {}
        }
        Vec::new()
    }

    fn submit(&mut self, prompt: &Prompt) -> Vec<Effect> {
        let text = prompt.value().trim();
        match prompt.kind {
            PromptKind::MaxTokens | PromptKind::KeepTail => {
                // Submitting one field applies the other too, as it was left.
                let mut values = Vec::new();
                if let Some((kind, field)) = &prompt.other {
                    values.push((*kind, field.input.value().trim().to_owned()));
                }
                values.push((prompt.kind, text.to_owned()));
                let mut wrong = Vec::new();
                for (kind, value) in values {
                    match value.replace([',', '_', ' '], "").parse::<u64>() {
                        Ok(n) if kind == PromptKind::MaxTokens => self.set_max(n),
                        Ok(n) => self.set_keep(n),
                        Err(_) => wrong.push(value),
                    }
                }
                if !wrong.is_empty() {
                    self.status = Status::error(format!("not a number: {}", wrong.join(", ")));
                }
            }
            PromptKind::Search => return self.run_search(text),
            PromptKind::Export if text.is_empty() => {}
            PromptKind::Export => return self.export_to(&expand_home(text)),
            PromptKind::ContextWindow => {
                match text.replace([',', '_', ' '], "").parse::<u64>() {
                    Ok(n) if n > 0 => {
                        self.context_window = Some(n);
                        self.given_window = Some(n);
                        self.status = Status::info(format!(
                            "context window {}: the comparison and the settings to paste follow it",
                            crate::text::thousands(n)
                        ));
                    }
                    _ => self.status = Status::error(format!("not a context window: {text:?}")),
                }
                if let Some(reopen) = &prompt.reopen {
                    self.open_lifetime(reopen);
                }
            }
        }
        Vec::new()
    }

    /// Export to `path`, asking first when it would replace a file (and when it is the
    /// input transcript, saying so).
    fn export_to(&mut self, path: &std::path::Path) -> Vec<Effect> {
        let is_input = self
            .input_path
            .as_deref()
            .is_some_and(|input| crate::export::same_file(path, input));
        if is_input || path.exists() {
            let question = if is_input {
                format!("{} is the input transcript: replace it?", path.display())
            } else {
                format!("{} exists: replace it?", path.display())
            };
            self.mode = Mode::Confirm {
                question,
                then: AfterSummary::Export(path.to_owned(), is_input),
            };
            return Vec::new();
        }
        self.with_summary(AfterSummary::Export(path.to_owned(), false))
    }

    /// Starts a search on a worker (100k messages take tens of milliseconds).
    pub(super) fn run_search(&mut self, query: &str) -> Vec<Effect> {
        if query.is_empty() {
            self.search = None;
            return Vec::new();
        }
        self.searching = Some(query.to_owned());
        self.status = Status::info(format!("searching for {query:?}…"));
        vec![Effect::Start(Job::Search {
            query: query.to_owned(),
            transcript: std::sync::Arc::clone(&self.transcript),
        })]
    }

    pub(super) fn searched(&mut self, query: String, matches: Vec<usize>) {
        if self.searching.as_deref() != Some(query.as_str()) {
            return; // a newer search owns the prompt
        }
        self.searching = None;
        if matches.is_empty() {
            self.status = Status::error(format!("no message matches {query:?}"));
        }
        self.search = Some(Search { query, matches });
        self.step_match(true);
    }

    pub(super) fn step_match(&mut self, forward: bool) {
        let Some(search) = &self.search else {
            self.status = Status::info("no search yet: press / to search");
            return;
        };
        let Some((position, index)) = search.step(self.selected, forward) else {
            return;
        };
        let text = format!(
            "match {}/{} for {:?}",
            crate::text::thousands(position as u64 + 1),
            crate::text::thousands(search.matches.len() as u64),
            search.query
        );
        self.select(index);
        self.status = Status::info(text);
    }

    /// The export path offered by default: `<input>.compacted.<ext>` beside the input.
    pub fn default_export_path(&self) -> String {
        let extension = if self.transcript.format().container == crate::transcript::Container::Jsonl
            || self.transcript.format().container.is_log()
        {
            "jsonl"
        } else {
            "json"
        };
        let Some(path) = &self.input_path else {
            let stem = self
                .transcript
                .source()
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
}

/// `~` and `~/…` expanded to the home folder.
pub fn expand_home(text: &str) -> PathBuf {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    match (text.strip_prefix('~'), home) {
        (Some(""), Some(home)) => home,
        (Some(rest), Some(home)) if rest.starts_with('/') => home.join(rest.trim_start_matches('/')),
        _ => PathBuf::from(text),
    }
}
