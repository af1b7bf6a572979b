//! Screen geometry, shared by drawing and by the app (paging, clicks): pure functions of
//! the terminal's size, with no state of their own.

use ratatui::layout::{Constraint, Layout, Rect};

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

/// Where the full-screen overlays (help, preview, loss report, breakdown) go.
pub fn overlay_area(area: Rect) -> Rect {
    // The whole screen but its last row (the status line stays in view): an overlay
    // inset by a cell left fragments of the frames beneath around it (`└│`).
    Rect {
        height: area.height.saturating_sub(1),
        ..area
    }
}

/// Lines of text an overlay shows at once on a terminal of `(columns, rows)`.
pub fn overlay_rows(size: (u16, u16)) -> usize {
    usize::from(overlay_area(Rect::new(0, 0, size.0, size.1)).height.saturating_sub(2)).max(1)
}

/// The layout of a terminal of `(columns, rows)`.
pub fn of_size(size: (u16, u16)) -> Areas {
    layout(Rect::new(0, 0, size.0, size.1))
}
