//! What the user asks for: keys, the mouse and the terminal become `Action`s (plain
//! data). Results of background work arrive apart from these, as
//! [`super::jobs::Done`]; only `App::update` applies either.

use crate::tokens::Tokenizer;

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
    /// Close an overlay, or quit from the main screen.
    Back,
    /// Esc: close an overlay or prompt, clear the list's filter; on the main screen of a
    /// session opened directly, never quit (`q` does), back to the browser from one it
    /// opened.
    Dismiss,
    /// Quit.
    Quit,
    /// A character typed into the open prompt.
    PromptChar(char),
    /// An edit of the open prompt's text (delete, move the cursor).
    PromptEdit(PromptEdit),
    /// Tab in the prompt (switches the value being edited).
    PromptTab,
    /// Enter in the prompt.
    PromptSubmit,
    /// The terminal was resized to (columns, rows).
    Resize(u16, u16),
    /// Mouse wheel: positive scrolls down.
    Scroll(i32),
    /// Mouse wheel over (column, row): scrolls what is under the pointer.
    ScrollAt(u16, u16, i32),
    /// Select the first message of the tail (where the compactor cuts).
    JumpToBoundary,
    /// Select the next human turn.
    NextTurn,
    /// Select the previous human turn.
    PrevTurn,
    /// From a call to its result (again: the next result), from a result to its call.
    JumpToPartner,
    /// Narrow the list: human turns, each section, search matches, then everything.
    CycleFilter,
    /// Sort the session browser by its next column.
    CycleSort,
    /// Open the tokenizer picker.
    PickTokenizer,
    /// Show messages as readable text or as raw JSON (detail pane, preview).
    ToggleRaw,
    /// Left click at (column, row).
    Click(u16, u16),
    /// Select message `index` (a click, a jump from a report).
    Select(usize),
    /// Switch the summary's role between system (§7F) and user.
    ToggleSummaryRole,
    /// Open or close where the context goes (the breakdown).
    ToggleBreakdown,
    /// The session's epochs and real compactions.
    ToggleTimeline,
    /// The replay chart: the context at every model call under the current settings.
    ToggleReplay,
    /// The sweep chart: firings, loops and losses over a range of budgets.
    ToggleSweep,
    /// The current settings as an agent's configuration.
    ToggleConfig,
    /// Every agent's policy replayed over the session, side by side.
    ToggleCompare,
    /// What each model call the log records cost, and where the cache was rewritten.
    ToggleCost,
    /// The standing instructions and what each compaction did with them.
    ToggleLedger,
    /// Type the model's context window (the agents' defaults and thresholds follow it).
    SetContextWindow,
    /// Copy the shown text to the clipboard.
    Copy,
    /// Save the shown text to a file.
    Save,
    /// Choose the highlighted row of an overlay (Enter).
    Activate,
}

/// An edit of a prompt's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptEdit {
    /// Delete the character before the cursor.
    DeletePrevChar,
    /// Delete the character under the cursor.
    DeleteNextChar,
    /// Delete the word before the cursor.
    DeletePrevWord,
    /// Delete everything.
    DeleteLine,
    /// Cursor one character left.
    Left,
    /// Cursor one character right.
    Right,
    /// Cursor to the start.
    Start,
    /// Cursor to the end.
    End,
}

/// The tokenizer after `t` in the cycle.
pub fn next_tokenizer(t: Tokenizer) -> Tokenizer {
    let all = Tokenizer::ALL;
    let i = all.iter().position(|&x| x == t).unwrap_or(0);
    all[(i + 1) % all.len()]
}
