//! The help overlay's text: the key table's help ([`super::keys::help`]) as styled
//! lines. The overlay draws them and the App pages through them (how many rows they take
//! wrapped at the screen's width), so both read them here.

use ratatui::text::{Line, Span};

use super::keys::{self, HelpLine};
use super::theme::Theme;

/// The help text (the key table's [`keys::help`] lines, styled).
pub fn lines(t: &Theme) -> Vec<Line<'static>> {
    keys::help()
        .into_iter()
        .map(|line| match line {
            HelpLine::Heading(text) => Line::styled(text, t.accent),
            HelpLine::Key(label, text) => {
                Line::from(vec![Span::styled(format!("  {label:<8} "), t.accent), Span::raw(text)])
            }
            HelpLine::Text(text) => Line::raw(format!("  {text}")),
            HelpLine::Blank => Line::raw(""),
            HelpLine::Legend(0) => Line::from(vec![
                Span::raw("  "),
                Span::styled("head", t.head),
                Span::raw(" kept system prompt · "),
                Span::styled("summarized", t.summarized),
                Span::raw(" summarized away · "),
                Span::styled("tail", t.tail),
                Span::raw(" kept verbatim"),
            ]),
            HelpLine::Legend(1) => Line::from(vec![
                Span::raw("  "),
                Span::styled("┃", t.tool_pair),
                Span::raw(" the selected message's tool group · "),
                Span::styled("!", t.orphan),
                Span::raw(" orphaned call or result · "),
                Span::styled("✎", t.edited),
                Span::raw(" rewritten by the deterministic pass"),
            ]),
            HelpLine::Legend(_) => Line::from(vec![
                Span::raw("  "),
                Span::styled("━━ tail starts here", t.boundary),
                Span::raw(" where the compactor cuts, and why"),
            ]),
        })
        .collect()
}
