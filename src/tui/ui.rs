//! Drawing: the order in which the widgets are drawn over the layout. Nothing here
//! changes state.

use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use super::app::{App, Mode};
use super::layout::{layout, MIN_SIZE};
use super::widgets::{budget, compare, cost, detail, footer, lifetime, list, overlay};

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        let text = format!(
            "terminal too small: {}×{} (ctxlens needs {}×{})",
            area.width, area.height, MIN_SIZE.0, MIN_SIZE.1
        );
        frame.render_widget(Paragraph::new(Line::from(text)).wrap(Wrap { trim: true }), area);
        return;
    }
    let areas = layout(area);
    budget::render(frame, areas.budget, app);
    list::render(frame, areas.list, app);
    if let Some(detail_area) = areas.detail {
        detail::render(frame, detail_area, app);
    }
    footer::render(frame, areas.footer, app);
    match app.mode() {
        Mode::Normal => {}
        Mode::Help { scroll } => overlay::help(frame, area, app, *scroll),
        Mode::Preview(preview) => overlay::preview(frame, area, app, preview),
        Mode::Prompt(prompt) => overlay::prompt(frame, area, app, prompt),
        Mode::Waiting(text) => overlay::waiting(frame, area, app, text),
        Mode::Loss { text, scroll, selected } => overlay::loss(frame, area, app, text, *scroll, *selected),
        Mode::Breakdown(view) => overlay::breakdown(frame, area, app, view),
        Mode::Confirm { question, .. } => overlay::confirm(frame, area, app, question),
        Mode::Timeline(view) => lifetime::timeline(frame, area, app, view),
        Mode::Replay => lifetime::replay(frame, area, app),
        Mode::Sweep => lifetime::sweep(frame, area, app),
        Mode::Cost => cost::render(frame, area, app),
        Mode::Ledger { scroll } => overlay::ledger(frame, area, app, *scroll),
        Mode::Compare { selected } => compare::render(frame, area, app, *selected),
        Mode::Config(view) => lifetime::config(frame, area, app, *view),
        Mode::PickTokenizer { selected } => overlay::pick_tokenizer(frame, area, app, *selected),
    }
}
