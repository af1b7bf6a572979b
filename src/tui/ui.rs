//! Drawing: the screen layout (shared with `App` for paging and clicks) and the order
//! in which the widgets are drawn. Nothing here changes state.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::app::{App, Mode};
use super::widgets::{budget, detail, footer, list, overlay};

/// The smallest screen ctxlens draws on.
pub const MIN_SIZE: (u16, u16) = (40, 12);

/// Where each part of the main screen goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Areas {
    /// The budget bar.
    pub budget: Rect,
    /// The message list.
    pub list: Rect,
    /// The detail pane, when there is room for it.
    pub detail: Option<Rect>,
    /// Key hints and the status line.
    pub footer: Rect,
}

/// The layout of a screen of size `area`: list and detail side by side when wide,
/// stacked when tall, the list alone when small.
pub fn layout(area: Rect) -> Areas {
    let [budget, main, footer] =
        Layout::vertical([Constraint::Length(5), Constraint::Min(3), Constraint::Length(2)]).areas(area);
    let (list, detail) = if area.width >= 110 {
        let [list, detail] = Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(main);
        (list, Some(detail))
    } else if area.height >= 30 {
        let [list, detail] = Layout::vertical([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(main);
        (list, Some(detail))
    } else {
        (main, None)
    };
    Areas {
        budget,
        list,
        detail,
        footer,
    }
}

/// Message rows that fit in the list area (inside its border, under its header).
pub fn list_rows(list: Rect) -> usize {
    usize::from(list.height.saturating_sub(3))
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        let text = format!(
            "terminal too small: {}×{} (ctxlens needs {}×{})",
            area.width, area.height, MIN_SIZE.0, MIN_SIZE.1
        );
        frame.render_widget(
            Paragraph::new(Line::from(text)).wrap(ratatui::widgets::Wrap { trim: true }),
            area,
        );
        return;
    }
    let areas = layout(area);
    budget::render(frame, areas.budget, app);
    list::render(frame, areas.list, app);
    if let Some(detail_area) = areas.detail {
        detail::render(frame, detail_area, app);
    }
    footer::render(frame, areas.footer, app);
    match &app.mode {
        Mode::Normal => {}
        Mode::Help { scroll } => overlay::help(frame, area, app, *scroll),
        Mode::Preview(preview) => overlay::preview(frame, area, app, preview),
        Mode::Prompt(prompt) => overlay::prompt(frame, area, app, prompt),
        Mode::Waiting(text) => overlay::waiting(frame, area, app, text),
        Mode::Loss { text, scroll } => overlay::loss(frame, area, app, text, *scroll),
    }
}
