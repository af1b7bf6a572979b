//! The widgets of the screen, one module each: the budget bar, the message list, the
//! detail pane, the footer, and the overlays (help, preview, prompt, the lifetime charts).

pub mod budget;
pub mod compare;
pub mod cost;
pub mod detail;
pub mod footer;
pub mod lifetime;
pub mod list;
pub mod overlay;

/// `4752` → `4,752`.
pub use crate::text::thousands;

/// A text gauge of `width` cells: `value` out of `max`, full when over.
pub fn gauge_cells(value: u64, max: u64, width: usize) -> (String, String) {
    let filled = if max == 0 {
        if value == 0 {
            0
        } else {
            width
        }
    } else {
        ((u128::from(value) * width as u128 / u128::from(max)) as usize).min(width)
    };
    ("█".repeat(filled), "░".repeat(width - filled))
}
