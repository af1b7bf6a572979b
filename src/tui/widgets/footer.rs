//! The footer: key hints generated from the key table, then the status line. Hints that
//! do not fit are left out whole (never cut mid-word); how to get help and how to leave
//! always show, at the end.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use crate::tui::app::App;
use crate::tui::keys::hints;

/// Draws hints and status.
pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme();
    let context = app.key_context();
    let (essential, optional): (Vec<_>, Vec<_>) = hints(context).partition(|(keys, _)| is_essential(keys));
    let cells = |(keys, hint): &(&str, &str)| crate::text::width(keys) + 1 + crate::text::width(hint) + 2;
    let mut room = usize::from(area.width).saturating_sub(essential.iter().map(cells).sum());
    let mut spans = Vec::new();
    for pair in optional.iter().filter(|pair| {
        let fits = cells(pair) <= room;
        if fits {
            room -= cells(pair);
        }
        fits
    }) {
        spans.push(Span::styled(pair.0, t.accent));
        spans.push(Span::raw(format!(" {}  ", pair.1)));
    }
    for (keys, hint) in &essential {
        spans.push(Span::styled(*keys, t.accent));
        spans.push(Span::raw(format!(" {hint}  ")));
    }
    let status = match &app.status() {
        Some(s) => Line::styled(s.text.clone(), if s.error { t.error } else { t.dim }),
        None => Line::styled(
            format!(
                "{} of {} messages",
                crate::text::thousands(app.selected() as u64 + 1),
                crate::text::thousands(app.transcript().messages().len() as u64)
            ),
            t.dim,
        ),
    };
    frame.render_widget(Paragraph::new(vec![Line::from(spans), status]), area);
}

/// The hints that always show: help and the way out.
fn is_essential(keys: &str) -> bool {
    keys == "?" || keys.starts_with('q')
}
