//! Views over the list: where the context goes (the breakdown bars, made on a worker)
//! and the filter that narrows the message list to one of its rows.

use std::sync::Arc;

use super::{App, Effect, Mode, Status};
use crate::breakdown::{By, Row};
use crate::tui::action::Action;
use crate::tui::jobs::{BreakdownKey, Job};

/// The breakdown overlay: rows sorted by cost, one highlighted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BreakdownView {
    /// By kind or by tool.
    pub by: By,
    /// The rows, largest first.
    pub rows: Vec<Row>,
    /// The highlighted row.
    pub selected: usize,
}

/// The list shows only these messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListFilter {
    /// What they are (`tool result Bash`, `human turns`…).
    pub label: String,
    /// The messages shown, ascending.
    pub shown: Arc<Vec<usize>>,
    /// Its place in the `F` cycle, when `F` chose it.
    pub cycle: Option<usize>,
}

/// The filters `F` cycles through, in order (then back to everything).
const FILTER_CYCLE: [&str; 5] = [
    "human turns",
    "the summarized messages",
    "the kept tail",
    "the kept head",
    "search matches",
];

impl App {
    /// What names a breakdown: the counts and the plan its sections come from.
    fn breakdown_key(&self, by: By) -> BreakdownKey {
        BreakdownKey {
            tokenizer: self.tokenizer,
            settings: self.settings,
            by_tool: by == By::Tool,
            derived: self.deterministic().is_some(),
        }
    }

    /// Opens the breakdown, made on a worker (it reads every message).
    pub(super) fn open_breakdown(&mut self, by: By) -> Vec<Effect> {
        let key = self.breakdown_key(by);
        let (view, counts) = match self.deterministic() {
            Some(d) => (Arc::new(d.view.clone()), Arc::new(d.counts.clone())),
            None => (Arc::clone(&self.transcript), Arc::clone(&self.counts[&self.tokenizer])),
        };
        self.breaking_down.restart(key);
        self.mode = Mode::Waiting(" measuring where the context goes… (Esc cancels) ".into());
        vec![Effect::Start(Job::Breakdown {
            key,
            transcript: view,
            counts,
            planned: self.planned,
            by,
        })]
    }

    pub(super) fn broken_down(&mut self, key: &BreakdownKey, by: By, rows: Vec<Row>) {
        if !self.breaking_down.land(key) {
            return;
        }
        if *key != self.breakdown_key(by) {
            self.mode = Mode::Normal;
            return;
        }
        self.mode = Mode::Breakdown(BreakdownView { by, rows, selected: 0 });
    }

    pub(super) fn breakdown_action(&mut self, action: &Action, page: usize) -> Vec<Effect> {
        let Mode::Breakdown(view) = &mut self.mode else {
            return Vec::new();
        };
        let last = view.rows.len().saturating_sub(1);
        match action {
            Action::Up => view.selected = view.selected.saturating_sub(1),
            Action::Down => view.selected = (view.selected + 1).min(last),
            Action::PageUp => view.selected = view.selected.saturating_sub(page),
            Action::PageDown => view.selected = (view.selected + page).min(last),
            Action::Top => view.selected = 0,
            Action::Bottom => view.selected = last,
            Action::Scroll(n) => view.selected = view.selected.saturating_add_signed(*n as isize).min(last),
            Action::SwitchPane => {
                let by = if view.by == By::Kind { By::Tool } else { By::Kind };
                return self.open_breakdown(by);
            }
            Action::Activate => {
                if let Some(row) = view.rows.get(view.selected).cloned() {
                    if row.fitted {
                        // No message holds it: there is nothing to narrow the list to.
                        self.status = Status::info(
                            "the system prompt and tool definitions are not in the log: fitted from its recorded usage",
                        );
                        return Vec::new();
                    }
                    self.mode = Mode::Normal;
                    self.set_filter(row.label.clone(), row.message_indices, None);
                }
            }
            _ => {}
        }
        Vec::new()
    }

    /// Narrows the list to `shown` (ascending), keeping the selection when it is shown.
    pub(super) fn set_filter(&mut self, label: String, shown: Vec<usize>, cycle: Option<usize>) -> bool {
        if shown.is_empty() {
            self.status = Status::error(format!("no message holds {label}"));
            return false;
        }
        self.status = Status::info(format!(
            "showing {}: {label} (Esc shows all)",
            crate::text::count_of(shown.len() as u64, "message", "messages")
        ));
        self.filter = Some(ListFilter {
            label,
            shown: Arc::new(shown),
            cycle,
        });
        let selected = self.selected;
        self.select(selected);
        true
    }

    /// `F`: the next filter of the cycle that shows anything (after the last, everything).
    pub(super) fn cycle_filter(&mut self) {
        let start = self.filter.as_ref().and_then(|f| f.cycle).map_or(0, |k| k + 1);
        for (k, label) in FILTER_CYCLE.iter().enumerate().skip(start) {
            let shown = self.filter_members(k);
            if !shown.is_empty() && self.set_filter((*label).to_owned(), shown, Some(k)) {
                return;
            }
        }
        if self.filter.is_some() {
            self.clear_filter();
        }
    }

    /// The messages filter `k` of the cycle shows.
    fn filter_members(&self, k: usize) -> Vec<usize> {
        use crate::compact::Section;
        let section = |wanted: Section| -> Vec<usize> {
            (0..self.transcript.messages().len())
                .filter(|&i| self.planned.section(i) == wanted)
                .collect()
        };
        match k {
            0 => self.transcript.boundaries().to_vec(),
            1 => section(Section::Summarized),
            2 if self.planned.cut().is_some() => section(Section::Tail),
            3 => section(Section::Head),
            4 => self.search.as_ref().map(|s| s.matches.clone()).unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    pub(super) fn clear_filter(&mut self) {
        self.filter = None;
        self.status = Status::info("showing every message");
        let selected = self.selected;
        self.select(selected);
    }
}
