//! Prompts (exact values, search, export path) and search steps.

use std::path::PathBuf;

use super::{AfterSummary, App, Effect, Mode, Prompt, PromptKind, Status};
use crate::tui::action::Action;
use crate::tui::jobs::Job;
use crate::tui::search::Search;

impl App {
    pub(super) fn open_prompt(&mut self, kind: PromptKind, input: String) {
        self.mode = Mode::Prompt(Prompt { kind, input });
    }

    pub(super) fn prompt_input(&mut self, action: &Action) -> Vec<Effect> {
        let Mode::Prompt(prompt) = &mut self.mode else {
            return Vec::new();
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
                        input: self.settings.options.effective_keep_tail().to_string(),
                    }
                }
                PromptKind::KeepTail => {
                    *prompt = Prompt {
                        kind: PromptKind::MaxTokens,
                        input: self.settings.options.max_tokens.to_string(),
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
        Vec::new()
    }

    pub(super) fn submit(&mut self, prompt: &Prompt) -> Vec<Effect> {
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
            PromptKind::Search => return self.run_search(text),
            PromptKind::Export if text.is_empty() => {}
            PromptKind::Export => return self.with_summary(AfterSummary::Export(PathBuf::from(text), false)),
        }
        Vec::new()
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
}
