//! The footer: key hints generated from the key table, then the status line.

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
    let mut spans = Vec::new();
    for (keys, hint) in hints(context) {
        spans.push(Span::styled(keys, t.accent));
        spans.push(Span::raw(format!(" {hint}  ")));
    }
    let status = match &app.status() {
        Some(s) => Line::styled(s.text.clone(), if s.error { t.error } else { t.dim }),
        None => Line::styled(
            format!(
                "{} of {} messages",
                crate::text::thousands(app.selected() as u64 + 1),
                crate::text::thousands(app.transcript().messages.len() as u64)
            ),
            t.dim,
        ),
    };
    frame.render_widget(Paragraph::new(vec![Line::from(spans), status]), area);
}
