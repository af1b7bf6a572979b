//! Overlays drawn over the main screen: help (generated from the key table), the
//! preview of the compacted transcript, and the one-line prompt.

use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use ratatui::Frame;

use crate::tui::app::PreviewView;
use crate::tui::app::{App, Prompt, PromptKind};
use crate::tui::keys::{Context, BINDINGS};

fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let [row] = Layout::vertical([Constraint::Length(height.min(area.height))])
        .flex(Flex::Center)
        .areas(area);
    let [cell] = Layout::horizontal([Constraint::Length(width.min(area.width))])
        .flex(Flex::Center)
        .areas(row);
    cell
}

/// The help popup.
pub fn help(frame: &mut Frame, area: Rect, app: &App, scroll: usize) {
    let t = &app.theme();
    let mut lines = Vec::new();
    for (context, heading) in [(Context::Main, "Main screen"), (Context::Overlay, "Help and preview")] {
        lines.push(Line::styled(heading, t.accent));
        for binding in BINDINGS.iter().filter(|b| b.context == context) {
            lines.push(Line::from(vec![
                Span::styled(format!("  {:<8}", binding.label), t.accent),
                Span::raw(binding.help),
            ]));
        }
        lines.push(Line::raw(""));
    }
    lines.push(Line::styled("Colours", t.accent));
    lines.push(Line::from(vec![
        Span::raw("  "),
        Span::styled("head", t.head),
        Span::raw(" kept system prompt · "),
        Span::styled("summarized", t.summarized),
        Span::raw(" summarized away · "),
        Span::styled("tail", t.tail),
        Span::raw(" kept verbatim"),
    ]));
    lines.push(Line::from(vec![
        Span::raw("  "),
        Span::styled("┃", t.tool_pair),
        Span::raw(" the selected message's tool group · "),
        Span::styled("!", t.orphan),
        Span::raw(" orphaned call or result"),
    ]));
    lines.push(Line::from(vec![
        Span::raw("  "),
        Span::styled("━━ tail starts here", t.boundary),
        Span::raw(" where the compactor cuts, and why"),
    ]));
    let popup = centered(area, 76, 40);
    let visible: Vec<Line> = lines.into_iter().skip(scroll).collect();
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(visible).block(Block::bordered().title(" help · q/Esc to close ")),
        popup,
    );
}

/// The preview of the compacted transcript.
pub fn preview(frame: &mut Frame, area: Rect, app: &App, state: &PreviewView) {
    let popup = area.inner(ratatui::layout::Margin::new(1, 1));
    let height = usize::from(popup.height.saturating_sub(2));
    let lines: Vec<Line> = state.visible(height).map(|s| Line::raw(s.to_owned())).collect();
    let block = Block::bordered()
        .title(Line::styled(state.title.clone(), app.theme().accent))
        .title_bottom(" e export · q/Esc close ");
    frame.render_widget(Clear, popup);
    frame.render_widget(Paragraph::new(lines).block(block).wrap(Wrap { trim: false }), popup);
}

/// The one-line prompt.
pub fn prompt(frame: &mut Frame, area: Rect, app: &App, prompt: &Prompt) {
    let title = match prompt.kind {
        PromptKind::MaxTokens => " max_tokens (Tab: keep_tail) ",
        PromptKind::KeepTail => " keep_tail (Tab: max_tokens) ",
        PromptKind::Search => " search message text (smart case) ",
        PromptKind::Export => " export the compacted transcript to ",
    };
    let popup = centered(area, 70, 4);
    let lines = vec![
        Line::from(vec![
            Span::raw(prompt.input.clone()),
            Span::styled("▏", app.theme().accent),
        ]),
        Line::styled("Enter confirm · Esc cancel", app.theme().dim),
    ];
    frame.render_widget(Clear, popup);
    frame.render_widget(Paragraph::new(lines).block(Block::bordered().title(title)), popup);
}

/// The box shown while a summary is made in the background.
pub fn waiting(frame: &mut Frame, area: Rect, app: &App, text: &str) {
    let popup = centered(area, 70, 3);
    frame.render_widget(Clear, popup);
    let block = Block::bordered().title(" summary ");
    frame.render_widget(
        Paragraph::new(Line::styled(format!("⠿{text}"), app.theme().warning)).block(block),
        popup,
    );
}

/// The loss report.
pub fn loss(frame: &mut Frame, area: Rect, app: &App, text: &str, scroll: usize) {
    let popup = area.inner(ratatui::layout::Margin::new(2, 1));
    let lines: Vec<Line> = text
        .lines()
        .skip(scroll)
        .map(|l| {
            if l.starts_with("Loss report") || l.starts_with("Facts") || l.ends_with(':') {
                Line::styled(l.to_owned(), app.theme().accent)
            } else {
                Line::raw(l.to_owned())
            }
        })
        .collect();
    let title = if app.summary().as_ref().is_some_and(|s| s.edited) {
        " loss report (edited summary) "
    } else {
        " loss report "
    };
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .title(title)
                .title_bottom(" E edit summary · q/Esc close "),
        ),
        popup,
    );
}
