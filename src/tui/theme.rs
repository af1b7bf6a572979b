//! Named styles: every colour the TUI uses has a semantic name here. `NO_COLOR` (any
//! value) turns colours off and keeps the modifiers, so sections stay distinguishable.

use ratatui::style::{Color, Modifier, Style};

/// The styles of one colour scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// The kept leading system message.
    pub head: Style,
    /// Messages the compactor summarizes away.
    pub summarized: Style,
    /// The verbatim tail.
    pub tail: Style,
    /// The line where the tail starts.
    pub boundary: Style,
    /// Partners of the selected message's tool group.
    pub tool_pair: Style,
    /// A call without a result or a result without a call.
    pub orphan: Style,
    /// A message the deterministic compressor edited.
    pub edited: Style,
    /// Text removed, in a diff.
    pub removed: Style,
    /// Text added, in a diff.
    pub added: Style,
    /// The selected row.
    pub selected: Style,
    /// Borders and titles of the focused pane.
    pub focus: Style,
    /// Secondary text: hints, units, column headers.
    pub dim: Style,
    /// Warnings in the budget bar and status line.
    pub warning: Style,
    /// Errors in the status line.
    pub error: Style,
    /// A gauge's filled part when within budget.
    pub gauge_ok: Style,
    /// A gauge's filled part when over budget.
    pub gauge_over: Style,
    /// Search matches and keys in hints.
    pub accent: Style,
}

impl Theme {
    /// The scheme for this environment: plain when `NO_COLOR` is set.
    pub fn from_env() -> Theme {
        if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            Theme::plain()
        } else {
            Theme::colored()
        }
    }

    /// ANSI colours.
    pub fn colored() -> Theme {
        Theme {
            head: Style::new().fg(Color::Cyan),
            summarized: Style::new().fg(Color::DarkGray),
            tail: Style::new().fg(Color::Green),
            boundary: Style::new()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
            tool_pair: Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD),
            orphan: Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
            edited: Style::new().fg(Color::LightBlue).add_modifier(Modifier::BOLD),
            removed: Style::new().fg(Color::Red),
            added: Style::new().fg(Color::Green),
            selected: Style::new().add_modifier(Modifier::REVERSED),
            focus: Style::new().fg(Color::Yellow),
            dim: Style::new().fg(Color::DarkGray),
            warning: Style::new().fg(Color::Yellow),
            error: Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
            gauge_ok: Style::new().fg(Color::Green),
            gauge_over: Style::new().fg(Color::Red),
            accent: Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
        }
    }

    /// No colours, modifiers only (`NO_COLOR`).
    pub fn plain() -> Theme {
        let none = Style::new();
        Theme {
            head: Style::new().add_modifier(Modifier::BOLD),
            summarized: Style::new().add_modifier(Modifier::DIM),
            tail: none,
            boundary: Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            tool_pair: Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            orphan: Style::new().add_modifier(Modifier::BOLD),
            edited: Style::new().add_modifier(Modifier::BOLD),
            removed: Style::new().add_modifier(Modifier::CROSSED_OUT),
            added: Style::new().add_modifier(Modifier::UNDERLINED),
            selected: Style::new().add_modifier(Modifier::REVERSED),
            focus: Style::new().add_modifier(Modifier::BOLD),
            dim: Style::new().add_modifier(Modifier::DIM),
            warning: Style::new().add_modifier(Modifier::BOLD),
            error: Style::new().add_modifier(Modifier::BOLD),
            gauge_ok: none,
            gauge_over: Style::new().add_modifier(Modifier::BOLD),
            accent: Style::new().add_modifier(Modifier::BOLD),
        }
    }
}
