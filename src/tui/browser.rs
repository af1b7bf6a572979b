//! The session browser (`ctxlens DIR`): one row per session under the folders — project,
//! start, format, messages, tokens, recorded peak, past compactions, orphans — newest
//! first (or sorted by another column), filled in by a background scan with its progress
//! shown, narrowed by a filter on project, path and format. Enter opens a session in the usual view; leaving it
//! comes back here. Like [`super::app::App`], a small machine: [`Browser::update`] is
//! the only mutator and returns what the loop must do.

use std::cmp::Ordering;
use std::path::PathBuf;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

use super::action::{Action, PromptEdit};
use super::keys::Context;
use super::theme::Theme;
use crate::scan::Session;
use crate::text::{fit, thousands, visible};

/// One scanned file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A session.
    Session(Box<Session>),
    /// A file that did not load: its path and why.
    Failed(String, String),
}

impl Entry {
    fn session(&self) -> Option<&Session> {
        match self {
            Entry::Session(s) => Some(s),
            Entry::Failed(..) => None,
        }
    }

    fn path(&self) -> &str {
        match self {
            Entry::Session(s) => &s.path,
            Entry::Failed(path, _) => path,
        }
    }

    /// Whether the filter `needle` (lowercase) matches its project, path or format.
    fn matches(&self, needle: &str) -> bool {
        let hay = match self {
            Entry::Session(s) => format!("{} {} {}", s.project, s.path, s.format),
            Entry::Failed(path, error) => format!("{path} {error}"),
        };
        hay.to_lowercase().contains(needle)
    }
}

/// The column the rows are sorted by, largest (newest) first; ties by path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortBy {
    /// When the session started.
    #[default]
    Started,
    /// Its tokens by the tokenizer.
    Tokens,
    /// The largest prompt the provider recorded.
    Recorded,
    /// Its messages.
    Messages,
    /// The compactions its log records.
    Compactions,
}

impl SortBy {
    /// The next column `s` switches to.
    fn next(self) -> SortBy {
        match self {
            SortBy::Started => SortBy::Tokens,
            SortBy::Tokens => SortBy::Recorded,
            SortBy::Recorded => SortBy::Messages,
            SortBy::Messages => SortBy::Compactions,
            SortBy::Compactions => SortBy::Started,
        }
    }

    /// The column's name, as the list's title shows it.
    pub fn name(self) -> &'static str {
        match self {
            SortBy::Started => "newest first",
            SortBy::Tokens => "most tokens first",
            SortBy::Recorded => "largest recorded prompt first",
            SortBy::Messages => "most messages first",
            SortBy::Compactions => "most compactions first",
        }
    }

    /// Whether `a` comes before `b`; files that failed to load come last.
    fn order(self, a: &Entry, b: &Entry) -> Ordering {
        let by_column = match (a.session(), b.session()) {
            (Some(x), Some(y)) => match self {
                SortBy::Started => y.started.cmp(&x.started),
                SortBy::Tokens => y.tokens.cmp(&x.tokens),
                SortBy::Recorded => y.recorded_peak.cmp(&x.recorded_peak),
                SortBy::Messages => y.messages.cmp(&x.messages),
                SortBy::Compactions => y.compactions.cmp(&x.compactions),
            },
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        };
        by_column.then_with(|| a.path().cmp(b.path()))
    }
}

/// What the loop must do after an update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Open this session in the usual view.
    Open(PathBuf),
    /// Leave ctxlens.
    Quit,
}

/// The browser's state.
#[derive(Debug)]
pub struct Browser {
    roots: Vec<PathBuf>,
    total: usize,
    entries: Vec<Entry>,
    filter: String,
    typing: bool,
    selected: usize,
    offset: usize,
    rows: usize,
    theme: Theme,
    status: Option<String>,
    sort: SortBy,
    /// The user moved the cursor: until then it stays on the first row (the newest
    /// session) while rows arrive.
    moved: bool,
}

impl Browser {
    /// A browser over `total` files under `roots` (the rows arrive with [`Browser::add`]).
    pub fn new(roots: Vec<PathBuf>, total: usize, theme: Theme) -> Browser {
        Browser {
            roots,
            total,
            entries: Vec::new(),
            filter: String::new(),
            typing: false,
            selected: 0,
            offset: 0,
            rows: 20,
            theme,
            status: None,
            sort: SortBy::default(),
            moved: false,
        }
    }

    /// A scanned file, kept in the current order. Without a filter the selection follows
    /// its row by arithmetic (a row inserted above it moves it down one): a scan of tens
    /// of thousands of files costs a binary search and a move per row, never a pass over
    /// every row (which made the browser quadratic and deaf to keys while it scanned).
    pub fn add(&mut self, entry: Entry) {
        let sort = self.sort;
        let at = self
            .entries
            .partition_point(|e| sort.order(e, &entry) == Ordering::Less);
        if !self.filter.is_empty() {
            let selected_path = self.current().map(|e| e.path().to_owned());
            self.entries.insert(at, entry);
            self.keep_selection(selected_path);
            return;
        }
        self.entries.insert(at, entry);
        if self.moved && at <= self.selected && self.entries.len() > 1 {
            self.selected += 1;
        }
        if self.selected < self.offset || self.selected >= self.offset + self.rows {
            self.offset = self.selected.saturating_sub(self.rows / 2);
        }
    }

    /// Moves the selection back onto the file it was on (rows moved under it).
    fn keep_selection(&mut self, path: Option<String>) {
        if let Some(path) = path {
            if let Some(k) = self.shown().iter().position(|&i| self.entries[i].path() == path) {
                self.selected = k;
            }
        }
    }

    /// The column the rows are sorted by.
    pub fn sort(&self) -> SortBy {
        self.sort
    }

    /// The key context: typing a filter, or browsing.
    pub fn key_context(&self) -> Context {
        if self.typing {
            Context::Prompt
        } else {
            Context::Browser
        }
    }

    /// The indices of the entries the filter shows.
    pub fn shown(&self) -> Vec<usize> {
        let needle = self.filter.to_lowercase();
        (0..self.entries.len())
            .filter(|&i| needle.is_empty() || self.entries[i].matches(&needle))
            .collect()
    }

    fn current(&self) -> Option<&Entry> {
        self.shown().get(self.selected).map(|&i| &self.entries[i])
    }

    /// The path of the highlighted file.
    pub fn current_path(&self) -> Option<String> {
        self.current().map(|e| e.path().to_owned())
    }

    /// The sessions shown, in order (files that failed to load left out).
    pub fn shown_sessions(&self) -> Vec<&Session> {
        self.shown()
            .into_iter()
            .filter_map(|i| self.entries[i].session())
            .collect()
    }

    /// Applies an action; returns what the loop must do.
    pub fn update(&mut self, action: &Action) -> Option<Effect> {
        if self.typing {
            match action {
                Action::PromptChar(c) => self.filter.push(*c),
                Action::PromptEdit(PromptEdit::DeletePrevChar) => {
                    self.filter.pop();
                }
                Action::PromptEdit(PromptEdit::DeleteLine) => self.filter.clear(),
                Action::PromptSubmit => self.typing = false,
                Action::Back => {
                    self.typing = false;
                    self.filter.clear();
                }
                _ => {}
            }
            self.selected = 0;
            self.offset = 0;
            return None;
        }
        if !matches!(action, Action::Resize(..)) {
            self.status = None; // a message stays until the next key
        }
        let count = self.shown().len();
        let last = count.saturating_sub(1);
        if matches!(
            action,
            Action::Up
                | Action::Down
                | Action::PageUp
                | Action::PageDown
                | Action::Top
                | Action::Bottom
                | Action::Scroll(_)
                | Action::ScrollAt(..)
        ) {
            self.moved = true;
        }
        match action {
            Action::Up => self.selected = self.selected.saturating_sub(1),
            Action::Down => self.selected = (self.selected + 1).min(last),
            Action::PageUp => self.selected = self.selected.saturating_sub(self.rows),
            Action::PageDown => self.selected = (self.selected + self.rows).min(last),
            Action::Top => self.selected = 0,
            Action::Bottom => self.selected = last,
            Action::Scroll(n) | Action::ScrollAt(_, _, n) => {
                self.selected = self.selected.saturating_add_signed(*n as isize).min(last);
            }
            Action::Search => self.typing = true,
            Action::CycleSort => {
                let selected_path = self.current().map(|e| e.path().to_owned());
                self.sort = self.sort.next();
                let sort = self.sort;
                self.entries.sort_by(|a, b| sort.order(a, b));
                self.keep_selection(selected_path);
            }
            Action::Activate => match self.current() {
                Some(Entry::Session(s)) => return Some(Effect::Open(PathBuf::from(&s.path))),
                Some(Entry::Failed(path, error)) => self.status = Some(format!("{path}: {error}")),
                None => {}
            },
            Action::Back if !self.filter.is_empty() => self.filter.clear(),
            Action::Back | Action::Quit => return Some(Effect::Quit),
            Action::Resize(_, h) => self.rows = usize::from(h.saturating_sub(8)).max(1),
            _ => {}
        }
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + self.rows {
            self.offset = self.selected + 1 - self.rows;
        }
        None
    }

    /// Rows scanned so far, and in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.entries.len(), self.total)
    }

    /// The filter being typed or applied.
    pub fn filter(&self) -> &str {
        &self.filter
    }

    /// A line for the status bar (why a file did not load).
    pub fn set_status(&mut self, text: String) {
        self.status = Some(text);
    }
}

/// Draws the browser.
pub fn draw(frame: &mut Frame, browser: &Browser) {
    let t = &browser.theme;
    let area = frame.area();
    let [header, list, footer] =
        Layout::vertical([Constraint::Length(3), Constraint::Min(3), Constraint::Length(2)]).areas(area);
    let (done, total) = browser.progress();
    let sessions = browser
        .entries
        .iter()
        .filter(|e| matches!(e, Entry::Session(_)))
        .count();
    let compacted = browser
        .entries
        .iter()
        .filter(|e| matches!(e, Entry::Session(s) if s.compactions > 0))
        .count();
    let roots: Vec<String> = browser.roots.iter().map(|r| r.display().to_string()).collect();
    let loading = if done < total {
        format!(" · loading {done}/{total}…")
    } else {
        String::new()
    };
    let summary = format!(
        "{} sessions · {} compacted in the log · {} failed to load{loading}",
        thousands(sessions as u64),
        thousands(compacted as u64),
        thousands((done - sessions) as u64)
    );
    frame.render_widget(
        Paragraph::new(Line::raw(summary)).block(Block::bordered().title(Line::styled(
            format!(" ctxlens · sessions in {} ", roots.join(", ")),
            t.accent,
        ))),
        header,
    );
    draw_list(frame, list, browser);
    let hint = if browser.typing {
        format!("filter: {}▏  (Enter keeps it · Esc clears it)", browser.filter)
    } else {
        let parts: Vec<String> = super::keys::hints(Context::Browser)
            .map(|(k, h)| format!("{k} {h}"))
            .collect();
        parts.join("  ")
    };
    // Why a file failed, else the highlighted file (the table shows its project only).
    let status = browser
        .status
        .clone()
        .or_else(|| browser.current().map(|e| e.path().to_owned()))
        .unwrap_or_default();
    frame.render_widget(
        Paragraph::new(vec![
            Line::styled(hint, t.dim),
            Line::raw(visible(&status, false).into_owned()),
        ]),
        footer,
    );
}

fn draw_list(frame: &mut Frame, area: Rect, browser: &Browser) {
    let t = &browser.theme;
    let width = usize::from(area.width.saturating_sub(2));
    let project_width = width.saturating_sub(24 + 12 + 9 + 11 + 11 + 5 + 5 + 8).clamp(10, 60);
    let header = format!(
        "{:<24}{} {:<11} {:>8} {:>10} {:>10} {:>4} {:>4}",
        "started",
        fit("project", project_width, false),
        "format",
        "messages",
        "tokens",
        "recorded",
        "cmp",
        "orph"
    );
    let shown = browser.shown();
    let rows = usize::from(area.height.saturating_sub(3));
    let mut lines = vec![Line::styled(header, t.dim)];
    for (k, &i) in shown.iter().enumerate().skip(browser.offset).take(rows) {
        let style = if k == browser.selected {
            t.selected
        } else {
            Style::new()
        };
        let text = match &browser.entries[i] {
            Entry::Session(s) => format!(
                "{:<24}{} {:<11} {:>8} {:>10} {:>10} {:>4} {:>4}",
                fit(&crate::scan::short_time(&s.started), 23, false),
                fit(&visible(&s.project, false), project_width, false),
                s.format,
                thousands(s.messages as u64),
                thousands(s.tokens),
                s.recorded_peak.map_or_else(|| "–".to_owned(), thousands),
                s.compactions,
                s.orphans
            ),
            Entry::Failed(path, _) => format!(
                "{:<24}{} failed to load",
                "",
                fit(&visible(path, false), project_width, false)
            ),
        };
        let style = if matches!(browser.entries[i], Entry::Failed(..)) {
            style.patch(t.warning)
        } else {
            style
        };
        lines.push(Line::from(Span::styled(text, style)));
    }
    if shown.is_empty() {
        lines.push(Line::styled(
            if browser.entries.is_empty() {
                "  scanning…"
            } else {
                "  no session matches the filter (Esc clears it)"
            },
            t.dim,
        ));
    }
    let filter = if browser.filter.is_empty() {
        String::new()
    } else {
        format!(" matching “{}”", browser.filter)
    };
    let title = format!(
        " {} of {}{filter} · {} ",
        shown.len(),
        browser.entries.len(),
        browser.sort.name()
    );
    frame.render_widget(Paragraph::new(lines).block(Block::bordered().title(title)), area);
}
