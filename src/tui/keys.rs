//! The one key table. It drives key handling, the footer hints and the help popup for
//! every screen, overlay, prompt and waiting state, so the three never disagree and a
//! screen only offers keys that work there.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::{Action, PromptEdit};

/// Where a binding applies: one context per screen, overlay, prompt and waiting state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// The main screen (list and detail).
    Main,
    /// The help overlay.
    Help,
    /// The preview of the compacted transcript.
    Preview,
    /// The loss report.
    Loss,
    /// Where the context goes (the breakdown bars).
    Breakdown,
    /// A one-line prompt (typed text goes into it).
    Prompt,
    /// Waiting for background work.
    Waiting,
    /// A yes/no question.
    Confirm,
    /// The timeline of epochs.
    Timeline,
    /// An epoch opened from the timeline.
    Epoch,
    /// The replay chart.
    Replay,
    /// The sweep chart.
    Sweep,
    /// The settings to paste.
    Config,
    /// Every agent's policy compared.
    Compare,
    /// What the session's calls cost.
    Cost,
    /// The standing instructions and what each compaction did with them.
    Ledger,
    /// Choosing the tokenizer.
    Pick,
    /// The session browser (`ctxlens DIR`).
    Browser,
}

impl Context {
    /// Every context, in help order (a new one is listed here and headed in
    /// [`Context::heading`], whose match makes the heading required).
    pub const ALL: &'static [Context] = &[
        Context::Main,
        Context::Breakdown,
        Context::Timeline,
        Context::Epoch,
        Context::Replay,
        Context::Sweep,
        Context::Config,
        Context::Compare,
        Context::Cost,
        Context::Ledger,
        Context::Pick,
        Context::Browser,
        Context::Preview,
        Context::Loss,
        Context::Help,
        Context::Prompt,
        Context::Waiting,
        Context::Confirm,
    ];

    /// Its heading in the help.
    pub fn heading(self) -> &'static str {
        match self {
            Context::Main => "Main screen",
            Context::Breakdown => "Where the context goes (b)",
            Context::Timeline => "Epochs and real compactions (h)",
            Context::Epoch => "An epoch, opened from the timeline",
            Context::Replay => "Replay chart (R)",
            Context::Sweep => "Sweep chart (S)",
            Context::Config => "Settings to paste (c)",
            Context::Compare => "Every agent's policy (C)",
            Context::Cost => "What each call cost ($)",
            Context::Ledger => "Standing instructions (L)",
            Context::Pick => "Choosing the tokenizer (t)",
            Context::Browser => "The session browser (ctxlens DIR)",
            Context::Preview => "Preview (p)",
            Context::Loss => "Loss report (l)",
            Context::Help => "Help (?)",
            Context::Prompt => "Prompts (=, /, e)",
            Context::Waiting => "While waiting",
            Context::Confirm => "Questions",
        }
    }
}

/// One key, as crossterm reports it (Shift is ignored for characters: `+` is `+`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    code: KeyCode,
    ctrl: bool,
}

const fn ch(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: false,
    }
}

const fn code(code: KeyCode) -> Key {
    Key { code, ctrl: false }
}

const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: true,
    }
}

/// A row of the key table.
#[derive(Debug, Clone)]
pub struct Binding {
    /// The keys that trigger it.
    pub keys: &'static [Key],
    /// How the keys are shown (`j/↓`).
    pub label: &'static str,
    /// What it does.
    pub action: Action,
    /// Help text.
    pub help: &'static str,
    /// Short footer text, or empty when it is not in the footer.
    pub hint: &'static str,
    /// Where it applies.
    pub contexts: &'static [Context],
}

use Context::{
    Breakdown as B, Browser as BR, Compare as CM, Config as K, Confirm as C, Cost as D, Epoch as O, Help as H,
    Ledger as LE, Loss as L, Main as M, Pick as PK, Preview as P, Prompt as Q, Replay as RP, Sweep as SW,
    Timeline as T, Waiting as W,
};

macro_rules! bind {
    ([$($context:expr),+], [$($key:expr),+], $label:literal, $action:expr, $hint:literal, $help:literal) => {
        Binding { keys: &[$($key),+], label: $label, action: $action, help: $help, hint: $hint, contexts: &[$($context),+] }
    };
}

/// Every binding, in help order.
#[rustfmt::skip]
pub const BINDINGS: &[Binding] = &[
    // The main screen.
    bind!([M], [ch('j'), code(KeyCode::Down)], "j/↓", Action::Down, "", "next message (scroll down in the detail pane)"),
    bind!([M], [ch('k'), code(KeyCode::Up)], "k/↑", Action::Up, "", "previous message (scroll up in the detail pane)"),
    bind!([M], [code(KeyCode::PageDown), ctrl('d')], "PgDn", Action::PageDown, "", "one page down"),
    bind!([M], [code(KeyCode::PageUp), ctrl('u')], "PgUp", Action::PageUp, "", "one page up"),
    bind!([M], [ch('g'), code(KeyCode::Home)], "g", Action::Top, "", "first message"),
    bind!([M], [ch('G'), code(KeyCode::End)], "G", Action::Bottom, "", "last message"),
    bind!([M], [code(KeyCode::Tab)], "Tab", Action::SwitchPane, "", "switch between the list and the detail pane"),
    bind!([M, RP, SW], [ch('+')], "+", Action::MaxUp, "max", "raise max_tokens by a small step (1% of the total)"),
    bind!([M, RP, SW], [ch('-')], "-", Action::MaxDown, "", "lower max_tokens by a small step"),
    bind!([M, RP, SW], [ch('>')], ">", Action::MaxUpBig, "", "raise max_tokens by a large step (10% of the total)"),
    bind!([M, RP, SW], [ch('<')], "<", Action::MaxDownBig, "", "lower max_tokens by a large step"),
    bind!([M, RP, SW], [ch(']')], "]", Action::KeepUp, "tail", "raise keep_tail by a small step"),
    bind!([M, RP, SW], [ch('[')], "[", Action::KeepDown, "", "lower keep_tail by a small step"),
    bind!([M, RP, SW], [ch('}')], "}", Action::KeepUpBig, "", "raise keep_tail by a large step"),
    bind!([M, RP, SW], [ch('{')], "{", Action::KeepDownBig, "", "lower keep_tail by a large step"),
    bind!([M], [ch('=')], "=", Action::EnterValue, "", "type an exact max_tokens (Tab: keep_tail)"),
    bind!([M, RP, SW], [ch('f')], "f", Action::ToggleFlush, "", "toggle flush_to_memory (the memory-tool reminder)"),
    bind!([M, RP, SW], [ch('r')], "r", Action::ToggleSummaryRole, "", "summary role: system (as §7F writes it) or user (which Anthropic accepts)"),
    bind!([M], [ch('t')], "t", Action::PickTokenizer, "tokenizer", "choose the tokenizer (BPE counts run in the background)"),
    bind!([M], [ch('T')], "T", Action::CycleTokenizer, "", "next tokenizer, without the picker"),
    bind!([M], [ch('B')], "B", Action::JumpToBoundary, "", "jump to the boundary (the first kept tail message)"),
    bind!([M], [ch(')')], ")", Action::NextTurn, "", "next human turn"),
    bind!([M], [ch('(')], "(", Action::PrevTurn, "", "previous human turn"),
    bind!([M], [ch('%')], "%", Action::JumpToPartner, "", "from a call to its result(s) and back"),
    bind!([M], [ch('F')], "F", Action::CycleFilter, "filter", "show only: human turns, summarized, tail, head, search matches, all"),
    bind!([M, P], [ch('J')], "J", Action::ToggleRaw, "", "messages as readable text or raw JSON (detail pane, preview)"),
    bind!([M], [ch('s')], "s", Action::CycleStrategy, "strategy", "next strategy: tail, deterministic, deterministic+tail"),
    bind!([M], [ch('b')], "b", Action::ToggleBreakdown, "where", "where the context goes: by kind and by tool (Enter narrows the list)"),
    bind!([M], [ch('l')], "l", Action::ToggleLoss, "loss", "loss report: facts of the summarized messages, and which survive"),
    bind!([M], [ch('h')], "h", Action::ToggleTimeline, "history", "the session's epochs and real compactions (Enter opens one)"),
    bind!([M, SW], [ch('R')], "R", Action::ToggleReplay, "replay", "replay chart: the context at every model call under these settings"),
    bind!([M, RP], [ch('S')], "S", Action::ToggleSweep, "sweep", "sweep chart: firings, loops and losses over a range of budgets"),
    bind!([M], [ch('c')], "c", Action::ToggleConfig, "", "these settings as an agent's configuration, to paste"),
    bind!([M], [ch('$')], "$", Action::ToggleCost, "", "what each model call cost with prompt caching, as the log recorded it, and where the cache was written again"),
    bind!([M], [ch('L')], "L", Action::ToggleLedger, "", "the standing instructions you gave (rules, constraints, preferences) and what each compaction did with them"),
    bind!([M], [ch('C')], "C", Action::ToggleCompare, "compare", "every agent's policy over the session: firings, peak, tokens sent, what each loses"),
    bind!([M, P, L], [ch('E')], "E", Action::EditSummary, "", "edit the summary in $EDITOR (preview and export then use it)"),
    bind!([M], [ch('p')], "p", Action::TogglePreview, "preview", "preview the compacted transcript"),
    bind!([M, P], [ch('e')], "e", Action::Export, "export", "export the compacted transcript"),
    bind!([M], [ch('/')], "/", Action::Search, "search", "search message text"),
    bind!([M], [ch('n')], "n", Action::NextMatch, "", "next match"),
    bind!([M], [ch('N')], "N", Action::PrevMatch, "", "previous match"),
    bind!([M], [ch('?')], "?", Action::ToggleHelp, "help", "this help"),
    bind!([M], [ch('q')], "q", Action::Back, "quit", "clear the list's filter, else quit"),
    bind!([M], [code(KeyCode::Esc)], "Esc", Action::Dismiss, "", "clear the list's filter (back to the browser from a session it opened; q quits)"),
    // Overlays: scrolling, choosing, closing.
    bind!([H, P, L, B, T, O, K, CM, LE], [ch('j'), code(KeyCode::Down)], "j/↓", Action::Down, "", "down"),
    bind!([H, P, L, B, T, O, K, CM, LE], [ch('k'), code(KeyCode::Up)], "k/↑", Action::Up, "", "up"),
    bind!([H, P, L, B, O, LE], [code(KeyCode::PageDown), ctrl('d'), ch(' ')], "PgDn", Action::PageDown, "", "one page down"),
    bind!([H, P, L, B, O, LE], [code(KeyCode::PageUp), ctrl('u')], "PgUp", Action::PageUp, "", "one page up"),
    bind!([H, P, L, B, T, O, CM, LE], [ch('g'), code(KeyCode::Home)], "g", Action::Top, "", "top"),
    bind!([H, P, L, B, T, O, CM, LE], [ch('G'), code(KeyCode::End)], "G", Action::Bottom, "", "bottom"),
    bind!([T], [code(KeyCode::Enter)], "Enter", Action::Activate, "open", "open the epoch's messages (read-only), or the compaction's real summary"),
    bind!([T, O], [ch('l')], "l", Action::ToggleLoss, "loss", "what the compaction lost (on an epoch: the one that ended it; again: back)"),
    bind!([K], [code(KeyCode::Tab)], "Tab", Action::SwitchPane, "next agent", "the next agent's configuration"),
    bind!([K], [ch('y')], "y", Action::Copy, "copy", "copy the configuration to the clipboard (OSC 52)"),
    bind!([K], [ch('w')], "w", Action::Save, "save", "write the configuration to a file in the working folder (never over an existing one)"),
    bind!([BR], [ch('j'), code(KeyCode::Down)], "j/↓", Action::Down, "", "next session"),
    bind!([BR], [ch('k'), code(KeyCode::Up)], "k/↑", Action::Up, "", "previous session"),
    bind!([BR], [code(KeyCode::PageDown), ctrl('d')], "PgDn", Action::PageDown, "", "one page down"),
    bind!([BR], [code(KeyCode::PageUp), ctrl('u')], "PgUp", Action::PageUp, "", "one page up"),
    bind!([BR], [ch('g'), code(KeyCode::Home)], "g", Action::Top, "", "first session"),
    bind!([BR], [ch('G'), code(KeyCode::End)], "G", Action::Bottom, "", "last session"),
    bind!([BR], [ch('s')], "s", Action::CycleSort, "sort", "sort by start, tokens, recorded peak, messages, compactions"),
    bind!([BR], [code(KeyCode::Enter)], "Enter", Action::Activate, "open", "open the session (q or Esc there comes back)"),
    bind!([BR], [ch('/')], "/", Action::Search, "filter", "filter by project, path or format"),
    bind!([BR], [code(KeyCode::Esc)], "Esc", Action::Back, "", "clear the filter (q quits)"),
    bind!([BR], [ch('?')], "?", Action::ToggleHelp, "help", "this help"),
    bind!([BR], [ch('q')], "q", Action::Quit, "quit", "quit"),
    bind!([PK], [ch('j'), code(KeyCode::Down)], "j/↓", Action::Down, "", "down"),
    bind!([PK], [ch('k'), code(KeyCode::Up)], "k/↑", Action::Up, "", "up"),
    bind!([PK], [code(KeyCode::Enter)], "Enter", Action::Activate, "use it", "count with the highlighted tokenizer"),
    bind!([PK], [ch('q'), code(KeyCode::Esc)], "q/Esc", Action::Back, "cancel", "keep the current tokenizer"),
    bind!([T], [ch('h')], "h", Action::Back, "", "close"),
    bind!([RP], [ch('R')], "R", Action::Back, "", "close"),
    bind!([SW], [ch('S')], "S", Action::Back, "", "close"),
    bind!([K], [ch('c')], "c", Action::Back, "", "close"),
    bind!([CM], [ch('C')], "C", Action::Back, "", "close"),
    bind!([D], [ch('$')], "$", Action::Back, "", "close"),
    bind!([LE], [ch('L')], "L", Action::Back, "", "close"),
    bind!([M, CM, K], [ch('W')], "W", Action::SetContextWindow, "window", "type the model's context window: compare and the settings to paste follow it"),
    bind!([CM], [code(KeyCode::Enter)], "Enter", Action::Activate, "follow it", "the message list and detail follow the highlighted policy's plan (toolnexus: back to §7F)"),
    bind!([O], [ch('q'), code(KeyCode::Esc)], "q/Esc", Action::Back, "back", "back to the timeline"),
    bind!([T, RP, SW, K, CM, D, LE], [ch('q'), code(KeyCode::Esc)], "q/Esc", Action::Back, "close", "close"),
    bind!([B], [code(KeyCode::Enter)], "Enter", Action::Activate, "narrow the list", "narrow the message list to the chosen row"),
    bind!([B], [code(KeyCode::Tab)], "Tab", Action::SwitchPane, "by kind/tool", "switch between by kind and by tool"),
    bind!([H], [ch('?')], "?", Action::Back, "", "close"),
    bind!([P], [ch('p')], "p", Action::Back, "", "close"),
    bind!([L], [code(KeyCode::Enter)], "Enter", Action::Activate, "go to message", "go to the message the highlighted row names"),
    bind!([L], [ch('l')], "l", Action::Back, "", "close"),
    bind!([B], [ch('b')], "b", Action::Back, "", "close"),
    bind!([H, P, L, B], [ch('q'), code(KeyCode::Esc)], "q/Esc", Action::Back, "close", "close"),
    // Prompts: typed text goes into the prompt; these keys edit it.
    bind!([Q], [code(KeyCode::Enter)], "Enter", Action::PromptSubmit, "confirm", "confirm"),
    bind!([Q], [code(KeyCode::Esc), ctrl('c')], "Esc", Action::Back, "cancel", "cancel"),
    bind!([Q], [code(KeyCode::Tab)], "Tab", Action::PromptTab, "", "max_tokens ↔ keep_tail (each keeps what was typed)"),
    bind!([Q], [code(KeyCode::Backspace), ctrl('h')], "Bksp", Action::PromptEdit(PromptEdit::DeletePrevChar), "", "delete the character before the cursor"),
    bind!([Q], [code(KeyCode::Delete)], "Del", Action::PromptEdit(PromptEdit::DeleteNextChar), "", "delete the character under the cursor"),
    bind!([Q], [ctrl('u')], "^U", Action::PromptEdit(PromptEdit::DeleteLine), "", "delete everything"),
    bind!([Q], [ctrl('w')], "^W", Action::PromptEdit(PromptEdit::DeletePrevWord), "", "delete the word before the cursor"),
    bind!([Q], [code(KeyCode::Left)], "←", Action::PromptEdit(PromptEdit::Left), "", "cursor left"),
    bind!([Q], [code(KeyCode::Right)], "→", Action::PromptEdit(PromptEdit::Right), "", "cursor right"),
    bind!([Q], [code(KeyCode::Home), ctrl('a')], "Home", Action::PromptEdit(PromptEdit::Start), "", "cursor to the start"),
    bind!([Q], [code(KeyCode::End), ctrl('e')], "End", Action::PromptEdit(PromptEdit::End), "", "cursor to the end"),
    // Waiting for background work.
    bind!([W], [code(KeyCode::Esc), ch('q')], "Esc", Action::Back, "cancel", "cancel the work"),
    // Questions.
    bind!([C], [ch('y'), code(KeyCode::Enter)], "y", Action::Activate, "yes", "yes"),
    bind!([C], [ch('n'), code(KeyCode::Esc), ch('q')], "n/Esc", Action::Back, "no", "no"),
    // Everywhere.
    bind!([M, H, P, L, B, W, C, T, O, RP, SW, K, CM, D, LE, PK, BR], [ctrl('c')], "^C", Action::Quit, "", "quit"),
];

/// The action bound to `event` in `context`. In a prompt, an unbound character is typed.
pub fn action_for(event: &KeyEvent, context: Context) -> Option<Action> {
    let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
    let key = Key { code: event.code, ctrl };
    let bound = BINDINGS
        .iter()
        .filter(|b| b.contexts.contains(&context))
        .find(|b| b.keys.contains(&key))
        .map(|b| b.action.clone());
    match (bound, context, event.code) {
        (Some(action), ..) => Some(action),
        (None, Context::Prompt, KeyCode::Char(c)) if !ctrl => Some(Action::PromptChar(c)),
        _ => None,
    }
}

/// The footer hints of `context`: (keys, hint) pairs.
pub fn hints(context: Context) -> impl Iterator<Item = (&'static str, &'static str)> {
    BINDINGS
        .iter()
        .filter(move |b| b.contexts.contains(&context) && !b.hint.is_empty())
        .map(|b| (b.label, b.hint))
}

/// One line of the help overlay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HelpLine {
    /// A section's heading.
    Heading(&'static str),
    /// A key and what it does.
    Key(&'static str, &'static str),
    /// A line of text.
    Text(String),
    /// One of the colour legend's lines (0, 1, 2), drawn with the theme's styles.
    Legend(u8),
    /// An empty line.
    Blank,
}

/// The help overlay's lines: every context's keys, the mouse, the colours. The help
/// widget draws them and the app scrolls them, so both count the same lines.
pub fn help() -> Vec<HelpLine> {
    // How to leave comes first, on any screen size (from the table, so it cannot drift).
    let labels = |context: Context, action: Action| -> String {
        bindings(context)
            .filter(|b| b.action == action && !b.label.starts_with('^'))
            .map(|b| b.label)
            .collect::<Vec<_>>()
            .join(" or ")
    };
    let mut lines = vec![
        HelpLine::Text(format!(
            "{} quits from the main screen · {} closes this help · ^C quits from anywhere",
            labels(Context::Main, Action::Back),
            labels(Context::Help, Action::Back)
        )),
        HelpLine::Blank,
    ];
    for &context in Context::ALL {
        lines.push(HelpLine::Heading(context.heading()));
        lines.extend(bindings(context).map(|b| HelpLine::Key(b.label, b.help)));
        lines.push(HelpLine::Blank);
    }
    lines.extend([
        HelpLine::Heading("Mouse"),
        HelpLine::Key(
            "wheel",
            "scrolls what is under the pointer (the list, the detail pane, an overlay)",
        ),
        HelpLine::Key("click", "selects a message, or focuses the detail pane"),
        HelpLine::Blank,
        HelpLine::Heading("Colours"),
        HelpLine::Legend(0),
        HelpLine::Legend(1),
        HelpLine::Legend(2),
    ]);
    lines
}

/// The bindings of `context`, in help order.
pub fn bindings(context: Context) -> impl Iterator<Item = &'static Binding> {
    BINDINGS.iter().filter(move |b| b.contexts.contains(&context))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_actions_per_context() {
        let press = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        assert_eq!(action_for(&press('+'), Context::Main), Some(Action::MaxUp));
        assert_eq!(
            action_for(&KeyEvent::new(KeyCode::Char('+'), KeyModifiers::SHIFT), Context::Main),
            Some(Action::MaxUp)
        );
        assert_eq!(action_for(&press('q'), Context::Help), Some(Action::Back));
        assert_eq!(
            action_for(&KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL), Context::Main),
            Some(Action::Quit)
        );
        assert_eq!(action_for(&press('x'), Context::Main), None);
        assert_eq!(action_for(&press('x'), Context::Prompt), Some(Action::PromptChar('x')));
        assert_eq!(
            action_for(
                &KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL),
                Context::Prompt
            ),
            Some(Action::PromptEdit(PromptEdit::DeleteLine)),
            "Ctrl-U clears, it does not type a u"
        );
        assert_eq!(
            action_for(&press('E'), Context::Help),
            None,
            "E works only where there is a summary"
        );
    }

    /// Every context a binding names is in the help's list, once: a context added to
    /// the table but not to `Context::ALL` would have keys the help never shows.
    #[test]
    fn every_context_a_key_works_in_is_listed_once() {
        for binding in BINDINGS {
            for context in binding.contexts {
                assert!(Context::ALL.contains(context), "{context:?} is not in Context::ALL");
            }
        }
        for (i, context) in Context::ALL.iter().enumerate() {
            assert!(!Context::ALL[i + 1..].contains(context), "{context:?} listed twice");
        }
    }

    #[test]
    fn no_key_is_bound_twice_in_one_context() {
        for &context in Context::ALL {
            let keys: Vec<Key> = bindings(context).flat_map(|b| b.keys.iter().copied()).collect();
            for (i, k) in keys.iter().enumerate() {
                assert!(!keys[i + 1..].contains(k), "{k:?} bound twice in {context:?}");
            }
        }
    }
}
