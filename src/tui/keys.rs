//! The one key table. It drives key handling, the footer hints and the help popup, so
//! the three can never disagree.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::Action;

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// The main screen (list and detail).
    Main,
    /// Help and preview overlays.
    Overlay,
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
    pub context: Context,
}

macro_rules! bind {
    ($context:ident, [$($key:expr),+], $label:literal, $action:expr, $hint:literal, $help:literal) => {
        Binding { keys: &[$($key),+], label: $label, action: $action, help: $help, hint: $hint, context: Context::$context }
    };
}

/// Every binding, in help order.
pub const BINDINGS: &[Binding] = &[
    bind!(
        Main,
        [ch('j'), code(KeyCode::Down)],
        "j/↓",
        Action::Down,
        "",
        "next message (scroll down in the detail pane)"
    ),
    bind!(
        Main,
        [ch('k'), code(KeyCode::Up)],
        "k/↑",
        Action::Up,
        "",
        "previous message (scroll up in the detail pane)"
    ),
    bind!(
        Main,
        [code(KeyCode::PageDown), ctrl('d')],
        "PgDn",
        Action::PageDown,
        "",
        "one page down"
    ),
    bind!(
        Main,
        [code(KeyCode::PageUp), ctrl('u')],
        "PgUp",
        Action::PageUp,
        "",
        "one page up"
    ),
    bind!(
        Main,
        [ch('g'), code(KeyCode::Home)],
        "g",
        Action::Top,
        "",
        "first message"
    ),
    bind!(
        Main,
        [ch('G'), code(KeyCode::End)],
        "G",
        Action::Bottom,
        "",
        "last message"
    ),
    bind!(
        Main,
        [code(KeyCode::Tab)],
        "Tab",
        Action::SwitchPane,
        "",
        "switch between the list and the detail pane"
    ),
    bind!(
        Main,
        [ch('+')],
        "+",
        Action::MaxUp,
        "max",
        "raise max_tokens by a small step (1% of the total)"
    ),
    bind!(
        Main,
        [ch('-')],
        "-",
        Action::MaxDown,
        "",
        "lower max_tokens by a small step"
    ),
    bind!(
        Main,
        [ch('>')],
        ">",
        Action::MaxUpBig,
        "",
        "raise max_tokens by a large step (10% of the total)"
    ),
    bind!(
        Main,
        [ch('<')],
        "<",
        Action::MaxDownBig,
        "",
        "lower max_tokens by a large step"
    ),
    bind!(
        Main,
        [ch(']')],
        "]",
        Action::KeepUp,
        "tail",
        "raise keep_tail by a small step"
    ),
    bind!(
        Main,
        [ch('[')],
        "[",
        Action::KeepDown,
        "",
        "lower keep_tail by a small step"
    ),
    bind!(
        Main,
        [ch('}')],
        "}",
        Action::KeepUpBig,
        "",
        "raise keep_tail by a large step"
    ),
    bind!(
        Main,
        [ch('{')],
        "{",
        Action::KeepDownBig,
        "",
        "lower keep_tail by a large step"
    ),
    bind!(
        Main,
        [ch('=')],
        "=",
        Action::EnterValue,
        "",
        "type an exact max_tokens (Tab: keep_tail)"
    ),
    bind!(
        Main,
        [ch('f')],
        "f",
        Action::ToggleFlush,
        "",
        "toggle flush_to_memory (the memory-tool reminder)"
    ),
    bind!(
        Main,
        [ch('t')],
        "t",
        Action::CycleTokenizer,
        "tokenizer",
        "next tokenizer (BPE counts run in the background)"
    ),
    bind!(
        Main,
        [ch('l')],
        "l",
        Action::ToggleLoss,
        "loss",
        "loss report: facts of the summarized messages, and which survive"
    ),
    bind!(
        Main,
        [ch('E')],
        "E",
        Action::EditSummary,
        "",
        "edit the summary in $EDITOR (it is then used by preview and export)"
    ),
    bind!(
        Main,
        [ch('s')],
        "s",
        Action::CycleStrategy,
        "strategy",
        "next strategy: tail, deterministic, deterministic+tail"
    ),
    bind!(
        Main,
        [ch('p')],
        "p",
        Action::TogglePreview,
        "preview",
        "preview the compacted transcript"
    ),
    bind!(
        Main,
        [ch('e')],
        "e",
        Action::Export,
        "export",
        "export the compacted transcript"
    ),
    bind!(Main, [ch('/')], "/", Action::Search, "search", "search message text"),
    bind!(Main, [ch('n')], "n", Action::NextMatch, "", "next match"),
    bind!(Main, [ch('N')], "N", Action::PrevMatch, "", "previous match"),
    bind!(Main, [ch('?')], "?", Action::ToggleHelp, "help", "this help"),
    bind!(
        Main,
        [ch('q'), code(KeyCode::Esc), ctrl('c')],
        "q/Esc",
        Action::Quit,
        "quit",
        "quit"
    ),
    bind!(
        Overlay,
        [ch('j'), code(KeyCode::Down)],
        "j/↓",
        Action::Down,
        "scroll",
        "scroll down"
    ),
    bind!(
        Overlay,
        [ch('k'), code(KeyCode::Up)],
        "k/↑",
        Action::Up,
        "",
        "scroll up"
    ),
    bind!(
        Overlay,
        [code(KeyCode::PageDown), ctrl('d'), ch(' ')],
        "PgDn",
        Action::PageDown,
        "",
        "one page down"
    ),
    bind!(
        Overlay,
        [code(KeyCode::PageUp), ctrl('u')],
        "PgUp",
        Action::PageUp,
        "",
        "one page up"
    ),
    bind!(Overlay, [ch('g'), code(KeyCode::Home)], "g", Action::Top, "", "top"),
    bind!(
        Overlay,
        [ch('G'), code(KeyCode::End)],
        "G",
        Action::Bottom,
        "",
        "bottom"
    ),
    bind!(
        Overlay,
        [ch('E')],
        "E",
        Action::EditSummary,
        "edit",
        "edit the summary in $EDITOR"
    ),
    bind!(
        Overlay,
        [ch('e')],
        "e",
        Action::Export,
        "export",
        "export (from the preview)"
    ),
    bind!(
        Overlay,
        [ch('q'), code(KeyCode::Esc), ch('?'), ch('p'), ch('l')],
        "q/Esc",
        Action::Back,
        "close",
        "close"
    ),
    bind!(Overlay, [ctrl('c')], "^C", Action::Quit, "", "quit"),
];

/// The action bound to `event` in `context`.
pub fn action_for(event: &KeyEvent, context: Context) -> Option<Action> {
    let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
    let key = Key { code: event.code, ctrl };
    BINDINGS
        .iter()
        .filter(|b| b.context == context)
        .find(|b| b.keys.contains(&key))
        .map(|b| b.action.clone())
}

/// The footer hints of `context`: (keys, hint) pairs.
pub fn hints(context: Context) -> impl Iterator<Item = (&'static str, &'static str)> {
    BINDINGS
        .iter()
        .filter(move |b| b.context == context && !b.hint.is_empty())
        .map(|b| (b.label, b.hint))
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
        assert_eq!(action_for(&press('q'), Context::Overlay), Some(Action::Back));
        assert_eq!(
            action_for(&KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL), Context::Main),
            Some(Action::Quit)
        );
        assert_eq!(action_for(&press('x'), Context::Main), None);
    }

    #[test]
    fn no_key_is_bound_twice_in_one_context() {
        for context in [Context::Main, Context::Overlay] {
            let keys: Vec<Key> = BINDINGS
                .iter()
                .filter(|b| b.context == context)
                .flat_map(|b| b.keys.iter().copied())
                .collect();
            for (i, k) in keys.iter().enumerate() {
                assert!(!keys[i + 1..].contains(k), "{k:?} bound twice in {context:?}");
            }
        }
    }
}
