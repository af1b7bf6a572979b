//! Overlays drawn over the main screen: help (generated from the key table, one section
//! per key context), the preview, the loss report, where the context goes, the prompt,
//! a yes/no question, and the box shown while work runs.

use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::gauge_cells;
use crate::text::{fit, thousands, width};
use crate::tui::app::{App, BreakdownView, PreviewView, Prompt, PromptKind};
use crate::tui::keys::{hints, Context};
use crate::tui::layout::overlay_area;
use crate::tui::wrap;

/// A box `height` rows high across the whole width, in the middle of `area`: a box
/// narrower than the screen would leave pieces of the rows beneath on both sides of it.
fn band(area: Rect, height: u16) -> Rect {
    let [row] = Layout::vertical([Constraint::Length(height.min(area.height))])
        .flex(Flex::Center)
        .areas(area);
    row
}

/// The footer line of an overlay: its context's hints.
pub(super) fn hint_line(context: Context) -> String {
    let parts: Vec<String> = hints(context).map(|(k, h)| format!("{k} {h}")).collect();
    format!(" {} ", parts.join(" · "))
}

/// A bordered, scrolled list of lines over the whole overlay area.
pub(super) fn scrolled(
    frame: &mut Frame,
    area: Rect,
    title: Line<'static>,
    bottom: String,
    lines: Vec<Line<'static>>,
    scroll: usize,
) {
    let popup = overlay_area(area);
    // Wrapped at word boundaries; `scroll` counts the caller's lines, and never goes past
    // the one that shows a full last page.
    let width = usize::from(popup.width.saturating_sub(2));
    let heights: Vec<usize> = lines.iter().map(|l| wrap::height(&l.to_string(), width)).collect();
    let scroll = scroll.min(wrap::last_scroll(&heights, usize::from(popup.height.saturating_sub(2))));
    let rest: Vec<Line<'static>> = lines.into_iter().skip(scroll).collect();
    let visible = wrap::wrap_all(&rest, width);
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(visible).block(Block::bordered().title(title).title_bottom(bottom)),
        popup,
    );
}

/// The help overlay.
pub fn help(frame: &mut Frame, area: Rect, app: &App, scroll: usize) {
    help_with(frame, area, app.theme(), scroll);
}

/// The help overlay in `theme` (the app's, or the session browser's: one help for both).
pub fn help_with(frame: &mut Frame, area: Rect, theme: &crate::tui::theme::Theme, scroll: usize) {
    scrolled(
        frame,
        area,
        Line::styled(" help ", theme.accent),
        hint_line(Context::Help),
        crate::tui::help::lines(theme),
        scroll,
    );
}

/// The standing instructions and what each compaction did with them (`L`).
pub fn ledger(frame: &mut Frame, area: Rect, app: &App, scroll: usize) {
    let Some(session) = app.session() else {
        return super::lifetime::loading(frame, area, app, "standing instructions", Context::Ledger);
    };
    scrolled(
        frame,
        area,
        Line::styled(" standing instructions ", app.theme().accent),
        hint_line(Context::Ledger),
        crate::tui::ledger_view::lines(&session.ledger, app.theme()),
        scroll,
    );
}

/// The preview of the compacted transcript.
pub fn preview(frame: &mut Frame, area: Rect, app: &App, state: &PreviewView) {
    let popup = overlay_area(area);
    let height = usize::from(popup.height.saturating_sub(2));
    let lines: Vec<Line> = state
        .visible(app.raw(), height)
        .map(|s| Line::raw(crate::text::visible(s, false).into_owned()))
        .collect();
    let block = Block::bordered()
        .title(Line::styled(state.title.clone(), app.theme().accent))
        .title_bottom(hint_line(Context::Preview));
    frame.render_widget(Clear, popup);
    frame.render_widget(Paragraph::new(lines).block(block).wrap(Wrap { trim: false }), popup);
}

/// The loss report.
pub fn loss(frame: &mut Frame, area: Rect, app: &App, text: &str, scroll: usize, selected: usize) {
    let t = app.theme();
    let lines: Vec<Line<'static>> = text
        .lines()
        .enumerate()
        .map(|(k, l)| {
            let l = crate::text::visible(l, false).into_owned();
            let heading = !l.starts_with(' ') && (l.starts_with("Loss report") || l.contains(':'));
            if k == selected {
                Line::styled(l, t.selected)
            } else if heading {
                Line::styled(l, t.accent)
            } else {
                Line::raw(l)
            }
        })
        .collect();
    let edited = app.summary().is_some_and(|s| s.edited);
    let title = if edited {
        " loss report (edited summary) "
    } else {
        " loss report "
    };
    scrolled(
        frame,
        area,
        Line::styled(title, app.theme().accent),
        hint_line(Context::Loss),
        lines,
        scroll,
    );
}

/// Where the context goes: one bar per row, largest first.
pub fn breakdown(frame: &mut Frame, area: Rect, app: &App, view: &BreakdownView) {
    let t = app.theme();
    let popup = overlay_area(area);
    let inner_width = usize::from(popup.width.saturating_sub(2));
    let height = usize::from(popup.height.saturating_sub(3));
    let total: u64 = view.rows.iter().map(|r| r.tokens).sum::<u64>().max(1);
    let biggest = view.rows.first().map_or(1, |r| r.tokens.max(1));
    let label_width = 28.min(inner_width / 3);
    let bar = inner_width.saturating_sub(label_width + 48).clamp(4, 40);
    let header = format!(
        "{} {:>10} {:>6}  {:<bar$}  {:>6}  {}",
        fit("", label_width, false),
        "tokens",
        "share",
        "",
        "msgs",
        "summarized · tail"
    );
    let mut lines = vec![Line::styled(header, t.dim)];
    let first = view.selected.saturating_sub(height.saturating_sub(1));
    for (k, row) in view.rows.iter().enumerate().skip(first).take(height) {
        let (filled, _) = gauge_cells(row.tokens, biggest, bar);
        let text = format!(
            "{} {:>10} {:>5.1}%  {:<bar$}  {:>6}  {} · {}",
            fit(&row.label, label_width, false),
            thousands(row.tokens),
            row.tokens as f64 * 100.0 / total as f64,
            filled,
            if row.fitted {
                "all".to_owned()
            } else {
                thousands(row.messages as u64)
            },
            thousands(row.summarized),
            thousands(row.tail + row.head),
        );
        let style = if k == view.selected { t.selected } else { Style::new() };
        lines.push(Line::styled(text, style));
    }
    let by = match view.by {
        crate::breakdown::By::Kind => "by kind",
        crate::breakdown::By::Tool => "by tool",
    };
    let title = format!(
        " where the context goes, {by} · {} · {} tokens ",
        app.tokenizer(),
        thousands(total)
    );
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .title(Line::styled(title, t.accent))
                .title_bottom(hint_line(Context::Breakdown)),
        ),
        popup,
    );
}

/// The one-line prompt: the text scrolled so the cursor is always visible.
pub fn prompt(frame: &mut Frame, area: Rect, app: &App, prompt: &Prompt) {
    let t = app.theme();
    let title = match prompt.kind {
        PromptKind::MaxTokens => " max_tokens (Tab: keep_tail) ",
        PromptKind::KeepTail => " keep_tail (Tab: max_tokens) ",
        PromptKind::Search => " search message text (smart case) ",
        PromptKind::Export => " export the compacted transcript to ",
        PromptKind::ContextWindow => " the model's context window, in tokens ",
    };
    let popup = band(area, 4);
    let field = usize::from(popup.width.saturating_sub(3));
    let scroll = prompt.scroll(field);
    let shown: String = skip_cells(prompt.value(), scroll, field);
    let style = if prompt.prefilled() { t.selected } else { Style::new() };
    let lines = vec![
        Line::from(Span::styled(shown, style)),
        Line::styled(hint_line(Context::Prompt).trim().to_owned(), t.dim),
    ];
    frame.render_widget(Clear, popup);
    frame.render_widget(Paragraph::new(lines).block(Block::bordered().title(title)), popup);
    let cursor = (prompt.cursor() - scroll).min(field);
    frame.set_cursor_position((popup.x + 1 + cursor as u16, popup.y + 1));
}

/// `text` from display cell `skip`, at most `cells` cells.
fn skip_cells(text: &str, skip: usize, cells: usize) -> String {
    let mut at = 0;
    let mut out = String::new();
    for c in text.chars() {
        let w = width(c.encode_utf8(&mut [0; 4]));
        if at >= skip && width(&out) + w <= cells {
            out.push(c);
        }
        at += w;
    }
    crate::text::visible(&out, false).into_owned()
}

/// A yes/no question.
pub fn confirm(frame: &mut Frame, area: Rect, app: &App, question: &str) {
    let rows = wrap::height(question, usize::from(area.width.saturating_sub(2)));
    let popup = band(area, u16::try_from(rows).unwrap_or(u16::MAX).saturating_add(3));
    frame.render_widget(Clear, popup);
    let lines = vec![
        Line::raw(crate::text::visible(question, false).into_owned()),
        Line::styled(hint_line(Context::Confirm).trim().to_owned(), app.theme().dim),
    ];
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .block(Block::bordered().title(" confirm ").border_style(app.theme().warning)),
        popup,
    );
}

/// The box shown while work runs in the background.
pub fn waiting(frame: &mut Frame, area: Rect, app: &App, text: &str) {
    let mut lines = vec![Line::styled(format!("{}{text}", app.spinner()), app.theme().warning)];
    // How far it is, once the job has told (a summary or report of many messages).
    lines.extend(app.waiting_progress().map(|p| Line::raw(format!("  {p}"))));
    let popup = band(area, u16::try_from(lines.len()).unwrap_or(1).saturating_add(2));
    frame.render_widget(Clear, popup);
    let block = Block::bordered().title(" working ");
    frame.render_widget(Paragraph::new(lines).block(block), popup);
}

/// The tokenizer picker: every tokenizer, what it counts, and whether its counts are
/// already made.
pub fn pick_tokenizer(frame: &mut Frame, area: Rect, app: &App, selected: usize) {
    use crate::tokens::Tokenizer;
    let t = app.theme();
    let what = |tokenizer: Tokenizer| match tokenizer {
        Tokenizer::Estimate => "§7F: ceil(JSON length / 4), UTF-16 units (JS, Java, C# ports)",
        Tokenizer::EstimateCodepoints => "the same in code points (Python port)",
        Tokenizer::EstimateUtf8 => "the same in UTF-8 bytes (Go, Elixir ports)",
        Tokenizer::Cl100k => "OpenAI cl100k_base (GPT-4, GPT-3.5)",
        Tokenizer::O200k => "OpenAI o200k_base (GPT-4o and later)",
        Tokenizer::Provider => "what the transcript's provider bills, images by its rule",
    };
    let lines: Vec<Line> = Tokenizer::ALL
        .iter()
        .enumerate()
        .map(|(k, &tokenizer)| {
            let ready = if app.counts_by(tokenizer).is_some() {
                ""
            } else {
                " (counted on a worker)"
            };
            let current = if tokenizer == app.tokenizer() { "●" } else { " " };
            let text = format!(" {current} {:<20} {}{ready}", tokenizer.name(), what(tokenizer));
            if k == selected {
                Line::styled(text, t.selected)
            } else {
                Line::raw(text)
            }
        })
        .collect();
    // Each row wraps under its name when the screen is narrower than it.
    let lines = wrap::wrap_all(&lines, usize::from(area.width.saturating_sub(2)));
    let popup = band(area, u16::try_from(lines.len()).unwrap_or(u16::MAX) + 2);
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .title(Line::styled(" tokenizer ", t.accent))
                .title_bottom(hint_line(Context::Pick)),
        ),
        popup,
    );
}
