//! The message list: one row per message (index, role, preview, tokens, a proportional
//! bar, the running total), coloured by section, with the boundary line where the tail
//! starts. Virtualized: only the rows on screen are built.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

use super::thousands;
use crate::compact::Section;
use crate::policy::Section as PolicySection;
use crate::text::{fit, visible};
use crate::tui::app::MainPolicy;
use crate::tui::app::{App, Pane, Row};
use crate::tui::layout::list_rows;

const ROLE: usize = 9;
const TOKENS: usize = 7;
/// The tokens column under a deterministic strategy: `12,345→678`.
const TOKENS_EDITED: usize = 13;
const BAR: usize = 8;
const RUNNING: usize = 9;

/// Draws the list.
pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme();
    let groups = &app.transcript().groups();
    let title = match app.filter() {
        Some(filter) => format!(
            " {} of {} messages: {} (Esc shows all) ",
            thousands(filter.shown.len() as u64),
            thousands(app.transcript().messages().len() as u64),
            filter.label
        ),
        None => format!(
            " messages {} · {} · {} ",
            thousands(app.transcript().messages().len() as u64),
            crate::text::count_of(groups.groups.len() as u64, "tool group", "tool groups"),
            crate::text::count_of(groups.orphans.len() as u64, "orphan", "orphans")
        ),
    };
    let title = match app.main_policy() {
        Some(policy) => format!("{title}· plan: {} ", policy.name),
        None => title,
    };
    let border = if app.focus() == Pane::List {
        t.focus
    } else {
        Style::new()
    };
    let block = Block::bordered().title(title).border_style(border);
    let inner_width = usize::from(area.width.saturating_sub(2));
    let index_width = app.transcript().messages().len().max(1).to_string().len();
    let tokens_width = if app.deterministic().is_some() {
        TOKENS_EDITED
    } else {
        TOKENS
    };
    let preview_width =
        inner_width.saturating_sub(1 + index_width + 1 + ROLE + 1 + 1 + tokens_width + 1 + BAR + 1 + RUNNING);
    let widths = Widths {
        index: index_width,
        preview: preview_width,
        tokens: tokens_width,
        total: inner_width,
    };

    let mut lines = vec![header(app, &widths)];
    let biggest = app.view_counts().iter().max().unwrap_or(1).max(1);
    for row in app.list_offset()..(app.list_offset() + list_rows(area)).min(app.row_count()) {
        lines.push(match app.row_at(row) {
            Some(Row::Message(index)) => message_row(app, index, biggest, &widths),
            Some(Row::PastCompaction(note)) => marker_row(app, note, widths.total),
            Some(Row::Boundary) | None => boundary_row(app, widths.total),
        });
    }
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

struct Widths {
    index: usize,
    preview: usize,
    tokens: usize,
    total: usize,
}

fn header(app: &App, w: &Widths) -> Line<'static> {
    let text = format!(
        " {:>iw$} {:<ROLE$} {:<pw$} {:>tw$} {:<BAR$} {:>RUNNING$}",
        "#",
        "role",
        "preview",
        "tokens",
        "share",
        "running",
        iw = w.index,
        pw = w.preview,
        tw = w.tokens
    );
    Line::styled(text, app.theme().dim)
}

fn message_row(app: &App, index: usize, biggest: u64, w: &Widths) -> Line<'static> {
    let t = &app.theme();
    let counts = app.view_counts();
    let edited = app
        .deterministic()
        .is_some_and(|d| d.compressed.changed.contains_key(&index));
    let policy = app.main_policy();
    let style = match policy.map(|p| p.section(index)) {
        None => match app.planned().section(index) {
            Section::Head => t.head,
            Section::Summarized => t.summarized,
            Section::Tail => t.tail,
        },
        Some(PolicySection::Head) => t.head,
        Some(PolicySection::Tail) => t.tail,
        Some(PolicySection::Summarized | PolicySection::Dropped | PolicySection::Cleared) => t.summarized,
    };
    let style = if index == app.selected() {
        style.patch(t.selected)
    } else {
        style
    };
    let groups = &app.transcript().groups();
    let selected_group = groups.group_of(app.selected());
    let (marker, marker_style) = if groups.orphans_of(index).next().is_some() {
        ("!", t.orphan)
    } else if let Some(mark) = policy.and_then(|p| policy_marker(p, index)) {
        (mark, t.edited)
    } else if edited {
        ("✎", t.edited)
    } else if selected_group.is_some() && groups.group_of(index) == selected_group {
        ("┃", t.tool_pair)
    } else if app.search().is_some_and(|s| s.matches.binary_search(&index).is_ok()) {
        ("»", t.accent)
    } else {
        (" ", Style::new())
    };
    let tokens = counts.message(index);
    let tokens_text = if edited {
        format!("{}→{}", thousands(app.counts().message(index)), thousands(tokens))
    } else {
        thousands(tokens)
    };
    let bar_cells = ((u128::from(tokens) * BAR as u128).div_ceil(u128::from(biggest)) as usize).min(BAR);
    // Padded and cut by display width (wide characters, emoji) and with control
    // characters shown, so columns line up whatever the text holds.
    let transcript = app.transcript();
    let role = fit(&visible(transcript.role_label(index), false), ROLE, false);
    let preview = fit(
        &visible(&transcript.list_preview(index, w.preview), false),
        w.preview,
        false,
    );
    let text = format!(
        "{:>iw$} {role} {preview} {:>tw$} {:<BAR$} {:>RUNNING$}",
        index,
        tokens_text,
        "▇".repeat(bar_cells),
        thousands(counts.cumulative(index)),
        iw = w.index,
        tw = w.tokens
    );
    Line::from(vec![Span::styled(marker, marker_style), Span::styled(text, style)])
}

/// The mark of what another agent's policy does to a message beyond keeping or
/// summarizing it: dropped without a summary, cleared to a placeholder, cut short.
fn policy_marker(policy: &MainPolicy, index: usize) -> Option<&'static str> {
    match policy.section(index) {
        PolicySection::Dropped => Some("✗"),
        PolicySection::Cleared => Some("▫"),
        _ if policy.truncated(index) => Some("✂"),
        _ => None,
    }
}

fn marker_row(app: &App, note: usize, width: usize) -> Line<'static> {
    let text = &app.transcript().notes()[note].text;
    let label = format!("┄┄ past compaction: {text} ");
    let fill = width.saturating_sub(label.chars().count());
    Line::styled(format!("{label}{}", "┄".repeat(fill)), app.theme().warning)
}

fn boundary_row(app: &App, width: usize) -> Line<'static> {
    if let Some(policy) = app.main_policy() {
        let label = match policy.plan.tokens_after {
            Some(after) => format!(
                "━━ {} keeps from here ({} tokens after, its count) ",
                policy.name,
                thousands(after)
            ),
            None => format!("━━ {} keeps from here ", policy.name),
        };
        return Line::styled(rule_line(&label, width), app.theme().boundary);
    }
    let reason = app.boundary_reason().unwrap_or_default();
    let tail = app.planned().cut().map_or(0, |c| c.tail_tokens);
    let label = if app.planned().cut().is_some_and(crate::compact::Cut::tail_empty) {
        format!("━━ {reason} ")
    } else {
        format!("━━ tail starts here ({} tokens): {reason} ", thousands(tail))
    };
    Line::styled(rule_line(&label, width), app.theme().boundary)
}

/// A rule across the list with `label` at its start, cut with an ellipsis (never mid-word
/// without one) when the list is narrower than the label.
fn rule_line(label: &str, width: usize) -> String {
    let label = label.trim_end();
    if crate::text::width(label) >= width {
        return crate::text::truncate(label, width).into_owned();
    }
    let fill = width - crate::text::width(label) - 1;
    format!("{label} {}", "━".repeat(fill))
}
