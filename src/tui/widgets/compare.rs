//! The compare view (`C`): every agent's policy replayed over the session, one row each
//! — firings, loops, peak context, tokens sent over the session's life, instructions
//! lost, the first message lost, and what the session would have cost under it with
//! prompt caching where the log records usage (loops, then the cost, dropped first on a
//! narrow screen: the highlighted policy's line below says both) — in one unit, named on
//! screen (billed where the log's usage could be fitted, else counted), and the
//! highlighted policy's settings and warnings below.

use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

use super::overlay::hint_line;
use crate::policy::compare::Compared;
use crate::text::{fit, thousands};
use crate::tui::app::App;
use crate::tui::keys::Context;
use crate::tui::layout::overlay_area;

/// The widest column of policy names (`semantic-kernel-summarization`).
const NAME: usize = 29;

/// The columns after the name: (heading, width). When the view is narrow the loops
/// column goes first, then the cost (the highlighted policy's line below says both).
const FIGURES: [(&str, usize); 7] = [
    ("loops", 5),
    ("firings", 7),
    ("peak", 9),
    ("sent", 11),
    ("lost", 7),
    ("first", 6),
    ("cost", 9),
];

/// The figure columns that fit `width` beside the names (indices into [`FIGURES`], in
/// the order shown); the cost only where some policy is priced.
fn figure_columns(width: usize, priced: bool) -> Vec<usize> {
    let wide = |columns: &[usize]| NAME + columns.iter().map(|&k| FIGURES[k].1 + 1).sum::<usize>() <= width;
    let candidates: [&[usize]; 3] = [&[1, 0, 2, 3, 4, 5, 6], &[1, 2, 3, 4, 5, 6], &[1, 2, 3, 4, 5]];
    candidates
        .into_iter()
        .map(|c| c.iter().copied().filter(|&k| priced || k != 6).collect::<Vec<usize>>())
        .find(|c| wide(c))
        .unwrap_or_else(|| vec![1, 2, 3, 4, 5])
}

/// Dollars as the view shows them (`$12.34`, `–` when not priced).
fn dollars(cost: Option<f64>) -> String {
    cost.map_or_else(|| "–".to_owned(), |d| format!("${d:.2}"))
}

/// One table line: the name left-aligned, the figures right-aligned.
fn row(name: &str, figures: &[String], columns: &[usize]) -> String {
    let mut line = fit(name, NAME, false);
    for (&k, cell) in columns.iter().zip(figures) {
        line.push(' ');
        line.push_str(&fit(cell, FIGURES[k].1, true));
    }
    line
}

/// Draws the view with row `selected` highlighted.
pub fn render(frame: &mut Frame, area: Rect, app: &App, selected: usize) {
    let t = app.theme();
    let popup = overlay_area(area);
    frame.render_widget(Clear, popup);
    let block = Block::bordered()
        .title(Line::styled(" every agent's policy over the session ", t.accent))
        .title_bottom(hint_line(Context::Compare));
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    let lines = match (app.session(), app.compared_policies()) {
        (None, _) => vec![Line::raw(format!("{} loading the whole session…", app.spinner()))],
        (Some(_), None) => vec![Line::raw(format!("{} replaying every policy…", app.spinner()))],
        (Some(_), Some(rows)) => table(app, rows, selected, usize::from(inner.width)),
    };
    frame.render_widget(Paragraph::new(lines), inner);
}

fn table<'a>(app: &App, rows: &'a [Compared], selected: usize, width: usize) -> Vec<Line<'a>> {
    let t = app.theme();
    let billed = rows.iter().any(|r| r.replayed.calls.iter().any(|c| c.billed.is_some()));
    let unit = if billed {
        "peak and sent in billed tokens (fitted per epoch to the log's usage)"
    } else {
        "peak and sent in counted tokens (the log records no usage)"
    };
    let priced = rows.iter().any(|r| r.cost_usd.is_some());
    let columns = figure_columns(width, priced);
    let headings: Vec<String> = columns.iter().map(|&k| FIGURES[k].0.to_owned()).collect();
    let mut lines = vec![
        Line::styled(fit(unit, width, false), t.dim),
        Line::styled(row("policy", &headings, &columns), t.accent),
    ];
    for (k, compared) in rows.iter().enumerate() {
        let r = &compared.replayed;
        let (peak, sent) = if billed {
            (
                r.peak_billed.unwrap_or(r.peak_counted),
                r.billed_total.unwrap_or(r.counted_total),
            )
        } else {
            (r.peak_counted, r.counted_total)
        };
        // In the order of FIGURES.
        let figures = [
            thousands(r.loops as u64),
            thousands(r.firings.len() as u64),
            thousands(peak),
            thousands(sent),
            format!("{}/{}", r.instructions_lost.len(), r.instructions),
            r.first_lost.map_or_else(|| "–".to_owned(), |i| format!("#{i}")),
            dollars(compared.cost_usd),
        ];
        let shown: Vec<String> = columns.iter().map(|&k| figures[k].clone()).collect();
        let text = row(r.policy, &shown, &columns);
        let style = if k == selected {
            t.selected
        } else {
            ratatui::style::Style::default()
        };
        lines.push(Line::styled(text, style));
    }
    if let Some(compared) = rows.get(selected) {
        lines.push(Line::raw(""));
        let settings: Vec<String> = compared.settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let settings = if settings.is_empty() {
            "its defaults".to_owned()
        } else {
            settings.join(", ")
        };
        let r = &compared.replayed;
        let cost = if priced {
            format!(" · {} with prompt caching", dollars(compared.cost_usd))
        } else {
            String::new()
        };
        lines.push(Line::raw(fit(
            &format!("{}: {settings} · {} loops{cost}", r.policy, thousands(r.loops as u64)),
            width,
            false,
        )));
        for warning in compared.replayed.warnings.iter().take(2) {
            lines.push(Line::styled(fit(&format!("⚠ {warning}"), width, false), t.warning));
        }
    }
    lines
}
