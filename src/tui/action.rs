//! Everything that can change the app's state. Keys, the mouse, the terminal and the
//! worker all become `Action`s; only `App::update` applies them.

use std::sync::Arc;

use crate::tokens::{Counts, Tokenizer};

/// A change to the app's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Move the selection (or scroll the focused pane / overlay) up one row.
    Up,
    /// Down one row.
    Down,
    /// Up one page.
    PageUp,
    /// Down one page.
    PageDown,
    /// To the first row.
    Top,
    /// To the last row.
    Bottom,
    /// Switch focus between the message list and the detail pane.
    SwitchPane,
    /// Raise `max_tokens` by a small step.
    MaxUp,
    /// Lower `max_tokens` by a small step.
    MaxDown,
    /// Raise `max_tokens` by a large step.
    MaxUpBig,
    /// Lower `max_tokens` by a large step.
    MaxDownBig,
    /// Raise `keep_tail` by a small step.
    KeepUp,
    /// Lower `keep_tail` by a small step.
    KeepDown,
    /// Raise `keep_tail` by a large step.
    KeepUpBig,
    /// Lower `keep_tail` by a large step.
    KeepDownBig,
    /// Prompt for an exact `max_tokens` (Tab in the prompt switches to `keep_tail`).
    EnterValue,
    /// Toggle `flush_to_memory`.
    ToggleFlush,
    /// Switch to the next tokenizer.
    CycleTokenizer,
    /// Switch to the next strategy (tail, deterministic, deterministic+tail).
    CycleStrategy,
    /// Open or close the preview of the compacted transcript.
    TogglePreview,
    /// Prompt for an export path.
    Export,
    /// Prompt for a search query.
    Search,
    /// Select the next search match.
    NextMatch,
    /// Select the previous search match.
    PrevMatch,
    /// Open or close help.
    ToggleHelp,
    /// Open the loss report (what the summarized messages held, and what survives).
    ToggleLoss,
    /// Edit the summary in `$VISUAL`/`$EDITOR` before exporting.
    EditSummary,
    /// A background summary finished (or failed).
    SummaryReady {
        /// Which request.
        generation: u64,
        /// The summary, or the error.
        result: Result<String, String>,
    },
    /// The deterministic pass finished (or failed).
    DerivedReady {
        /// Which request.
        generation: u64,
        /// The pass and the transcript it leaves, or the error.
        result: Result<super::app::DerivedHandle, String>,
    },
    /// The preview is built.
    PreviewReady {
        /// Which request.
        generation: u64,
        /// The preview.
        preview: Box<super::preview::PreviewState>,
    },
    /// The user edited the summary.
    SummaryEdited(Result<String, String>),
    /// Close an overlay, or quit from the main screen.
    Back,
    /// Quit.
    Quit,
    /// A character typed into the open prompt.
    PromptChar(char),
    /// Backspace in the prompt.
    PromptBackspace,
    /// Tab in the prompt (switches the value being edited).
    PromptTab,
    /// Enter in the prompt.
    PromptSubmit,
    /// Time passed while work runs in the background (animates the spinner).
    Tick,
    /// The terminal was resized to (columns, rows).
    Resize(u16, u16),
    /// Mouse wheel: positive scrolls down.
    Scroll(i32),
    /// Left click at (column, row).
    Click(u16, u16),
    /// The background counter made progress.
    CountProgress {
        /// Which request.
        generation: u64,
        /// Messages counted.
        done: usize,
        /// Messages in all.
        total: usize,
    },
    /// The background counter finished.
    CountDone {
        /// Which request.
        generation: u64,
        /// The counts.
        counts: Arc<Counts>,
    },
    /// An export finished: the status text, or the error.
    Exported(Result<String, String>),
}

/// The tokenizer after `t` in the cycle.
pub fn next_tokenizer(t: Tokenizer) -> Tokenizer {
    let all = Tokenizer::ALL;
    let i = all.iter().position(|&x| x == t).unwrap_or(0);
    all[(i + 1) % all.len()]
}
