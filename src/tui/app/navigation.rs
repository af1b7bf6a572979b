//! Moving around the message list: selection, paging, clicks, and the rows it shows
//! (messages, the boundary line, past-compaction markers). Under a filter the list
//! shows only some messages: positions ("slots") then count shown messages only.

use super::{App, Pane};
use crate::compact::SplitReason;
use crate::text::thousands;
use crate::tui::layout::{list_rows, of_size};

/// What one row of the message list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    /// A message.
    Message(usize),
    /// The line where the tail starts.
    Boundary,
    /// A compaction that already happened in the log (index into `transcript.notes`).
    PastCompaction(usize),
}

impl App {
    pub(super) fn resize(&mut self, w: u16, h: u16) {
        let first = self.size == (0, 0);
        self.size = (w, h);
        if first {
            self.focus_on_cut();
        }
        self.clamp_offset();
    }

    pub(super) fn click(&mut self, x: u16, y: u16) {
        let areas = of_size(self.size);
        let inside = |r: ratatui::layout::Rect| x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
        if let Some(detail) = areas.detail.filter(|d| inside(*d)) {
            let _ = detail;
            self.focus = Pane::Detail;
        } else if inside(areas.list) {
            self.focus = Pane::List;
            // The list's first row sits under its top border and column header.
            let row = usize::from(y.saturating_sub(areas.list.y + 2)) + self.list_offset;
            if y >= areas.list.y + 2 {
                if let Some(index) = self.message_of_row(row) {
                    self.select(index);
                }
            }
        }
    }

    /// The mouse wheel over (x, y): the detail pane scrolls when the pointer is over it,
    /// the list moves when it is over the list, whichever pane has the focus.
    pub(super) fn scroll_at(&mut self, x: u16, y: u16, delta: i64) {
        let areas = of_size(self.size);
        let inside = |r: ratatui::layout::Rect| x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
        if areas.detail.is_some_and(inside) {
            self.detail_scroll = self.detail_scroll.saturating_add_signed(delta as isize);
        } else if inside(areas.list) {
            let last = self.slot_count().saturating_sub(1) as i64;
            let slot = (self.slot_of(self.selected) as i64 + delta).clamp(0, last.max(0)) as usize;
            self.select(self.message_at_slot(slot));
        }
    }

    /// Selects the first tail message (`B`).
    pub(super) fn jump_to_boundary(&mut self) {
        match self.boundary_at() {
            Some(_) => self.focus_on_cut(),
            None => self.status = super::Status::info("no cut: the transcript is under budget"),
        }
    }

    /// Selects the next (or previous) human turn.
    pub(super) fn step_turn(&mut self, forward: bool) {
        let turns = &self.transcript.boundaries();
        let next = if forward {
            turns.get(turns.partition_point(|&b| b <= self.selected)).copied()
        } else {
            turns[..turns.partition_point(|&b| b < self.selected)].last().copied()
        };
        match next {
            Some(index) => {
                if self.filter.as_ref().is_some_and(|f| !f.shown.contains(&index)) {
                    self.clear_filter();
                }
                self.select(index);
            }
            None => {
                self.status = super::Status::info(if forward {
                    "no later human turn"
                } else {
                    "no earlier human turn"
                });
            }
        }
    }

    /// From a call to its first result (again: the next one, round), from a result to
    /// its call.
    pub(super) fn jump_to_partner(&mut self) {
        let groups = &self.transcript.groups();
        let Some(group) = groups.group_of(self.selected) else {
            self.status = super::Status::info("not part of a tool group");
            return;
        };
        let group = &groups.groups[group];
        let target = if self.selected == group.call {
            group.results.first().copied()
        } else {
            let k = group.results.iter().position(|&r| r == self.selected);
            match k.and_then(|k| group.results.get(k + 1)) {
                Some(&next) => Some(next),
                None => Some(group.call),
            }
        };
        if let Some(index) = target {
            if self.filter.as_ref().is_some_and(|f| !f.shown.contains(&index)) {
                self.clear_filter();
            }
            self.select(index);
        }
    }

    pub(super) fn move_or_scroll(&mut self, delta: i64) {
        if self.focus == Pane::Detail {
            self.detail_scroll = self.detail_scroll.saturating_add_signed(delta as isize);
        } else {
            let last = self.slot_count().saturating_sub(1) as i64;
            let slot = (self.slot_of(self.selected) as i64 + delta).clamp(0, last.max(0)) as usize;
            self.select(self.message_at_slot(slot));
        }
    }

    /// The first and the last message the list shows.
    pub(super) fn first_shown(&self) -> usize {
        self.message_at_slot(0)
    }

    /// The last message the list shows.
    pub(super) fn last_shown(&self) -> usize {
        self.message_at_slot(self.slot_count().saturating_sub(1))
    }

    /// Selects message `index` (under a filter, the nearest shown one) and scrolls it
    /// into view.
    pub(super) fn select(&mut self, index: usize) {
        let index = index.min(self.transcript.messages().len().saturating_sub(1));
        let index = match self.shown() {
            Some(shown) => {
                let slot = shown.partition_point(|&m| m < index).min(shown.len().saturating_sub(1));
                shown.get(slot).copied().unwrap_or(index)
            }
            None => index,
        };
        if index != self.selected {
            self.detail_scroll = 0;
        }
        self.selected = index;
        self.clamp_offset();
    }

    /// The messages the list shows, when a filter narrows it.
    fn shown(&self) -> Option<&[usize]> {
        self.filter.as_ref().map(|f| f.shown.as_slice())
    }

    /// How many messages the list shows.
    fn slot_count(&self) -> usize {
        self.shown().map_or(self.transcript.messages().len(), <[usize]>::len)
    }

    /// The message at list position `slot`.
    fn message_at_slot(&self, slot: usize) -> usize {
        self.shown()
            .map_or(slot, |shown| shown.get(slot).copied().unwrap_or(slot))
    }

    /// The list position of the first shown message at or after `index`.
    fn slot_of(&self, index: usize) -> usize {
        self.shown()
            .map_or(index, |shown| shown.partition_point(|&m| m < index))
    }

    /// Rows the list shows at once.
    pub fn page(&self) -> usize {
        list_rows(of_size(self.size).list).max(1)
    }

    /// Selects the first tail message (the last message when the tail is empty) and
    /// centres the list on the boundary line, so the cut is the first thing seen.
    pub fn focus_on_cut(&mut self) {
        let Some(split) = self.boundary_at() else {
            return;
        };
        self.select(split.min(self.transcript.messages().len().saturating_sub(1)));
        self.list_offset = split.saturating_sub(self.page() / 2);
        self.clamp_offset();
    }

    /// Keeps the selection on screen with a few rows of context above and below it.
    pub(super) fn clamp_offset(&mut self) {
        const CONTEXT: usize = 3;
        let rows = self.page();
        let context = CONTEXT.min(rows.saturating_sub(1) / 2);
        let row = self.row_of_message(self.selected);
        if row < self.list_offset + context {
            self.list_offset = row.saturating_sub(context);
        } else if row + context >= self.list_offset + rows {
            self.list_offset = row + context + 1 - rows;
        }
        self.list_offset = self.list_offset.min(self.row_count().saturating_sub(rows));
    }

    /// The message index before which the boundary line is drawn, when compacting.
    pub fn boundary_at(&self) -> Option<usize> {
        if let Some(policy) = &self.main_policy {
            return policy.cut_at();
        }
        self.planned.cut().map(|c| c.split)
    }

    /// Rows that are not messages, with the list position they precede: past compactions
    /// (from the log; not under a filter) and the boundary line, in order.
    pub(super) fn extra_rows(&self) -> Vec<(usize, Row)> {
        let mut extras: Vec<(usize, Row)> = Vec::new();
        if self.filter.is_none() {
            extras.extend(
                self.transcript
                    .notes()
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| n.is_past_compaction())
                    .map(|(k, n)| (n.before, Row::PastCompaction(k))),
            );
        }
        if let Some(b) = self.boundary_at() {
            extras.push((self.slot_of(b), Row::Boundary));
        }
        extras.sort_by_key(|(at, row)| (*at, matches!(row, Row::Boundary)));
        extras
    }

    /// Rows of the list: one per shown message, plus the boundary line and past
    /// compactions.
    pub fn row_count(&self) -> usize {
        self.slot_count() + self.extra_rows().len()
    }

    /// The row where message `index` is drawn.
    pub fn row_of_message(&self, index: usize) -> usize {
        let slot = self.slot_of(index);
        slot + self.extra_rows().iter().filter(|(at, _)| *at <= slot).count()
    }

    /// What row `row` shows (`None` past the end).
    pub fn row_at(&self, row: usize) -> Option<Row> {
        let mut before = 0;
        for (at, kind) in self.extra_rows() {
            let extra_row = at + before;
            if row == extra_row {
                return Some(kind);
            }
            if row < extra_row {
                break;
            }
            before += 1;
        }
        let slot = row - before;
        (slot < self.slot_count()).then(|| Row::Message(self.message_at_slot(slot)))
    }

    /// The message drawn on `row` (`None` for other rows or past the end).
    pub fn message_of_row(&self, row: usize) -> Option<usize> {
        match self.row_at(row) {
            Some(Row::Message(index)) => Some(index),
            _ => None,
        }
    }

    /// Why the tail starts where it does, for the boundary line.
    pub fn boundary_reason(&self) -> Option<String> {
        let cut = self.planned.cut()?;
        Some(match cut.reason {
            SplitReason::LargestFittingTail => "largest tail ≤ keep_tail at a user turn".to_owned(),
            SplitReason::Fallback => {
                format!(
                    "fallback: most recent user turn, {} over keep_tail",
                    thousands(cut.tail_tokens.saturating_sub(self.keep_tail()))
                )
            }
            SplitReason::NoBoundary => "no user turn: whole body summarized, empty tail".to_owned(),
        })
    }
}
