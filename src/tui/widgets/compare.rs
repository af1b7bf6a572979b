//! The compare view (`C`): every agent's policy replayed over the session, one row each
//! — firings, loops, peak context, tokens sent over the session's life, instructions
//! lost, the first message lost (loops dropped first on a narrow screen) — in one unit, named on screen (billed where the log's
//! usage could be fitted, else counted), and the highlighted policy's settings and
//! warnings below.

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

/// The columns after the name: (heading, width), the loops column first to go when the
/// view is narrow (the highlighted policy's line below says its loops).
const FIGURES: [(&str, usize); 6] = [
    ("loops", 5),
    ("firings", 7),
    ("peak", 9),
    ("sent", 11),
    ("lost", 7),
    ("first", 6),
];

/// The figure columns that fit `width` beside the names (indices into [`FIGURES`]).
fn figure_columns(width: usize) -> Vec<usize> {
    let all: usize = NAME + FIGURES.iter().map(|(_, w)| w + 1).sum::<usize>();
    if all <= width {
        vec![1, 0, 2, 3, 4, 5]
    } else {
        vec![1, 2, 3, 4, 5]
    }
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
    let columns = figure_columns(width);
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
        lines.push(Line::raw(fit(
            &format!("{}: {settings} · {} loops", r.policy, thousands(r.loops as u64)),
            width,
            false,
        )));
        for warning in compared.replayed.warnings.iter().take(2) {
            lines.push(Line::styled(fit(&format!("⚠ {warning}"), width, false), t.warning));
        }
    }
    lines
}
