//! The session browser (`ctxlens DIR`): one row per session under the folders — last
//! activity, the first prompt as a title, model, the live context's tokens and the whole
//! log's, the recorded peak as a share of the model's window, past compactions — newest
//! first (or closest to compaction, or by another column), a sub-agent's log under the
//! session that started it, filled in by a background scan with its progress shown,
//! narrowed by a filter on title, project, path, model and format. Enter opens a session in the usual view; leaving it
//! comes back here. Like [`super::app::App`], a small machine: [`Browser::update`] is
//! the only mutator and returns what the loop must do.

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
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    /// A session.
    Session(Box<Session>),
    /// A file that did not load: its path and why.
    Failed(String, String),
}

impl Entry {
    /// Its session row, unless it is a file that did not load.
    pub fn session(&self) -> Option<&Session> {
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
            Entry::Session(s) => format!(
                "{} {} {} {} {}",
                s.title,
                s.project,
                s.path,
                s.format,
                s.model.as_deref().unwrap_or("")
            ),
            Entry::Failed(path, error) => format!("{path} {error}"),
        };
        hay.to_lowercase().contains(needle)
    }
}

/// The column the rows are sorted by, largest (newest) first; ties by path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortBy {
    /// The last thing the log records (a session written now comes first).
    #[default]
    Newest,
    /// The live context's tokens against the point where its agent compacts: the log's own
    /// recorded threshold, else its model's window.
    ClosestToCompaction,
    /// The tokens of the whole log.
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
            SortBy::Newest => SortBy::ClosestToCompaction,
            SortBy::ClosestToCompaction => SortBy::Tokens,
            SortBy::Tokens => SortBy::Recorded,
            SortBy::Recorded => SortBy::Messages,
            SortBy::Messages => SortBy::Compactions,
            SortBy::Compactions => SortBy::Newest,
        }
    }

    /// The column's name, as the list's title shows it.
    pub fn name(self) -> &'static str {
        match self {
            SortBy::Newest => "newest first",
            SortBy::ClosestToCompaction => "closest to compaction first",
            SortBy::Tokens => "most tokens first",
            SortBy::Recorded => "largest recorded prompt first",
            SortBy::Messages => "most messages first",
            SortBy::Compactions => "most compactions first",
        }
    }

    /// A session's value in this column (larger first).
    fn value(self, s: &Session) -> Value {
        match self {
            SortBy::Newest => Value::Text(if s.last_activity.is_empty() {
                s.started.clone()
            } else {
                s.last_activity.clone()
            }),
            SortBy::ClosestToCompaction => Value::Number(closeness_per_mille(s).map_or(0, |c| c.saturating_add(1))),
            SortBy::Tokens => Value::Number(s.tokens),
            SortBy::Recorded => Value::Number(s.recorded_peak.map_or(0, |p| p.saturating_add(1))),
            SortBy::Messages => Value::Number(s.messages as u64),
            SortBy::Compactions => Value::Number(s.compactions as u64),
        }
    }
}

/// The live context as thousandths of where its agent compacts (the log's recorded
/// threshold, else the model's window), when either is known.
fn closeness_per_mille(s: &Session) -> Option<u64> {
    let threshold = s
        .autocompact_at
        .or_else(|| s.model.as_deref().and_then(crate::models::window_of).map(|w| w.tokens))?;
    Some(s.live_tokens.saturating_mul(1000) / threshold.max(1))
}

/// A session scanned again alone (it is being written) keeps the threshold its folder's
/// other sessions gave it, while its own log still says nothing of its own: they
/// happened before it, and still do.
fn keep_siblings_answer(new: &mut Session, old: &Session) {
    let alone = |s: &Session| s.threshold_query.as_ref().and_then(|q| q.answer(&[]));
    let from_siblings = old.autocompact_at.zip(old.autocompact_source.clone());
    let log_says_nothing_new = new.threshold_query.as_ref().is_some_and(|q| !q.answered_by_the_log());
    if log_says_nothing_new && from_siblings.is_some() && from_siblings != alone(old) {
        new.autocompact_at = old.autocompact_at;
        new.autocompact_source.clone_from(&old.autocompact_source);
    }
}

/// A session whose file changed this recently (seconds) is being written now.
pub const LIVE_SECONDS: u64 = 300;
/// A session whose log's last record is older than this (seconds) is not being written,
/// whenever its file was touched.
pub const STALE_LOG_SECONDS: u64 = 3_600;

/// Seconds since the Unix epoch, now.
fn now_unix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A column's value: text (times, which sort as text) or a number.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Value {
    Number(u64),
    Text(String),
}

/// Where a row sorts: by its group's value (a sub-agent's group is its parent's), the
/// group (the parent's path), the parent before its sub-agents, then its own path.
/// Files that failed to load come last.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Place {
    failed: bool,
    value: std::cmp::Reverse<Value>,
    group: String,
    nested: bool,
    path: String,
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
    /// The rows, in [`Place`] order.
    entries: Vec<Entry>,
    /// Each row's place (parallel to `entries`).
    places: Vec<Place>,
    /// Sessions that may have sub-agents: session id → (their value, their path).
    parents: std::collections::HashMap<String, (Value, String)>,
    /// Sub-agents whose parent has not arrived yet: the parent's session id → their paths.
    waiting: std::collections::HashMap<String, Vec<String>>,
    /// The paths listed (a file scanned again replaces its row).
    listed: std::collections::HashSet<String>,
    /// Only sessions being written now (`ctxlens DIR --live`).
    live_only: bool,
    /// Now, in seconds since the epoch (what "being written now" is measured from).
    now: u64,
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
    /// The help overlay (`?`), scrolled this many lines, when shown.
    help: Option<usize>,
    /// The screen's size (columns, rows), for the help's last page.
    size: (u16, u16),
}

/// The heading of the browser's keys in the help (the key table's name for its context).
const BROWSER_HELP_HEADING: &str = "The session browser";

impl Browser {
    /// A browser over `total` files under `roots` (the rows arrive with [`Browser::add`]).
    pub fn new(roots: Vec<PathBuf>, total: usize, theme: Theme) -> Browser {
        Browser {
            roots,
            total,
            entries: Vec::new(),
            places: Vec::new(),
            parents: std::collections::HashMap::new(),
            waiting: std::collections::HashMap::new(),
            listed: std::collections::HashSet::new(),
            live_only: false,
            now: now_unix(),
            filter: String::new(),
            typing: false,
            selected: 0,
            offset: 0,
            rows: 20,
            theme,
            status: None,
            sort: SortBy::default(),
            moved: false,
            help: None,
            size: (80, 24),
        }
    }

    /// A scanned file, kept in the current order. Without a filter the selection follows
    /// its row by arithmetic (a row inserted above it moves it down one): a scan of tens
    /// of thousands of files costs a binary search and a move per row, never a pass over
    /// every row (which made the browser quadratic and deaf to keys while it scanned).
    pub fn add(&mut self, mut entry: Entry) {
        // A file scanned again (a session being written) replaces its row.
        if !self.listed.insert(entry.path().to_owned()) {
            if let Some(k) = self.entries.iter().position(|e| e.path() == entry.path()) {
                let selected_path = self.current().map(|e| e.path().to_owned());
                if let (Entry::Session(new), Entry::Session(old)) = (&mut entry, &self.entries[k]) {
                    keep_siblings_answer(new, old);
                }
                self.entries.remove(k);
                self.places.remove(k);
                self.keep_selection(selected_path);
            }
        }
        self.now = now_unix();
        // A session that may have sub-agents: remembered, and its sub-agents that came
        // first move under it (rare: a pass over the rows only then).
        let mut adopted = Vec::new();
        if let Entry::Session(s) = &entry {
            if let (None, Some(id)) = (&s.parent_session, &s.session_id) {
                if self.parents.get(id).is_some_and(|(_, path)| *path == s.path) {
                    // Scanned again: its sub-agents move with its new place.
                    self.parents.insert(id.clone(), (self.sort.value(s), s.path.clone()));
                    adopted = self
                        .entries
                        .iter()
                        .filter_map(Entry::session)
                        .filter(|c| c.parent_session.as_deref() == Some(id))
                        .map(|c| c.path.clone())
                        .collect();
                } else if !self.parents.contains_key(id) {
                    self.parents.insert(id.clone(), (self.sort.value(s), s.path.clone()));
                    adopted = self.waiting.remove(id).unwrap_or_default();
                }
            }
            if let Some(parent) = s.parent_session.as_ref().filter(|p| !self.parents.contains_key(*p)) {
                self.waiting.entry(parent.clone()).or_default().push(s.path.clone());
            }
        }
        self.insert(entry);
        for path in adopted {
            if let Some(k) = self.entries.iter().position(|e| e.path() == path) {
                let selected_path = self.current().map(|e| e.path().to_owned());
                self.places.remove(k);
                let child = self.entries.remove(k);
                self.insert(child);
                self.keep_selection(selected_path);
            }
        }
    }

    /// Where `entry` sorts now.
    fn place(&self, entry: &Entry) -> Place {
        match entry {
            Entry::Failed(path, _) => Place {
                failed: true,
                value: std::cmp::Reverse(Value::Number(0)),
                group: path.clone(),
                nested: false,
                path: path.clone(),
            },
            Entry::Session(s) => {
                let parent = s.parent_session.as_ref().and_then(|p| self.parents.get(p));
                let (value, group) = parent.cloned().unwrap_or_else(|| (self.sort.value(s), s.path.clone()));
                Place {
                    failed: false,
                    value: std::cmp::Reverse(value),
                    group,
                    nested: parent.is_some(),
                    path: s.path.clone(),
                }
            }
        }
    }

    /// Inserts a row at its place: a binary search and a move.
    fn insert(&mut self, entry: Entry) {
        let place = self.place(&entry);
        let at = self.places.partition_point(|p| *p < place);
        if !self.filter.is_empty() {
            let selected_path = self.current().map(|e| e.path().to_owned());
            self.entries.insert(at, entry);
            self.places.insert(at, place);
            self.keep_selection(selected_path);
            return;
        }
        self.entries.insert(at, entry);
        self.places.insert(at, place);
        if self.moved && at <= self.selected && self.entries.len() > 1 {
            self.selected += 1;
        }
        if self.selected < self.offset || self.selected >= self.offset + self.rows {
            self.offset = self.selected.saturating_sub(self.rows / 2);
        }
    }

    /// Whether row `i` is a sub-agent drawn under its parent.
    fn nested(&self, i: usize) -> bool {
        self.places.get(i).is_some_and(|p| p.nested)
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

    /// The key context: reading the help, typing a filter, or browsing.
    pub fn key_context(&self) -> Context {
        if self.help.is_some() {
            Context::Help
        } else if self.typing {
            Context::Prompt
        } else {
            Context::Browser
        }
    }

    /// The help's scroll, when it is shown.
    pub fn help_scroll(&self) -> Option<usize> {
        self.help
    }

    /// An action while the help is shown: it scrolls (never past its last page) or
    /// closes; `^C` still quits.
    fn update_help(&mut self, action: &Action) -> Option<Effect> {
        let rows = super::layout::overlay_rows(self.size);
        let width = usize::from(self.size.0.saturating_sub(2));
        let heights: Vec<usize> = super::help::lines(&self.theme)
            .iter()
            .map(|l| super::wrap::height(&l.to_string(), width))
            .collect();
        let last = super::wrap::last_scroll(&heights, rows);
        let scroll = self.help.get_or_insert(0);
        match action {
            Action::Up => *scroll = scroll.saturating_sub(1),
            Action::Down => *scroll += 1,
            Action::PageUp => *scroll = scroll.saturating_sub(rows),
            Action::PageDown => *scroll += rows,
            Action::Top => *scroll = 0,
            Action::Bottom => *scroll = last,
            Action::Scroll(n) | Action::ScrollAt(_, _, n) => *scroll = scroll.saturating_add_signed(*n as isize),
            Action::Resize(w, h) => {
                self.size = (*w, *h);
                self.rows = usize::from(h.saturating_sub(8)).max(1);
            }
            Action::Back | Action::ToggleHelp => self.help = None,
            Action::Quit => return Some(Effect::Quit),
            _ => {}
        }
        if let Some(scroll) = &mut self.help {
            *scroll = (*scroll).min(last);
        }
        None
    }

    /// The indices of the entries the filter shows.
    pub fn shown(&self) -> Vec<usize> {
        let needle = self.filter.to_lowercase();
        (0..self.entries.len())
            .filter(|&i| needle.is_empty() || self.entries[i].matches(&needle))
            .filter(|&i| !self.live_only || self.entries[i].session().is_some_and(|s| self.is_live(s)))
            .collect()
    }

    /// Shows only the sessions being written now (`ctxlens DIR --live`).
    #[must_use]
    pub fn live_only(mut self) -> Browser {
        self.live_only = true;
        self
    }

    /// Whether `s` is being written now: its file changed in the last [`LIVE_SECONDS`],
    /// and the last time its log records is recent too — a copy or a checkout touches a
    /// file nobody writes, whose log ends months ago ([`STALE_LOG_SECONDS`] allow for
    /// clocks that disagree).
    pub fn is_live(&self, s: &Session) -> bool {
        let logged_recently = crate::cost::seconds(&s.last_activity)
            .is_none_or(|t| self.now.saturating_sub(u64::try_from(t).unwrap_or(0)) < STALE_LOG_SECONDS);
        s.modified_unix > 0 && self.now.saturating_sub(s.modified_unix) < LIVE_SECONDS && logged_recently
    }

    /// The sessions being written now (their files, to scan again).
    pub fn live_paths(&self) -> Vec<PathBuf> {
        self.entries
            .iter()
            .filter_map(Entry::session)
            .filter(|s| self.is_live(s))
            .map(|s| PathBuf::from(&s.path))
            .collect()
    }

    /// Time passed: what counts as being written now moves with it.
    pub fn tick(&mut self) {
        self.now = now_unix();
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
        if self.help.is_some() {
            return self.update_help(action);
        }
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
                let by_path: std::collections::HashMap<&str, &Session> = self
                    .entries
                    .iter()
                    .filter_map(Entry::session)
                    .map(|s| (s.path.as_str(), s))
                    .collect();
                for (value, path) in self.parents.values_mut() {
                    if let Some(s) = by_path.get(path.as_str()) {
                        *value = self.sort.value(s);
                    }
                }
                let mut rows: Vec<(Place, Entry)> = std::mem::take(&mut self.entries)
                    .into_iter()
                    .map(|e| (self.place(&e), e))
                    .collect();
                rows.sort_by(|a, b| a.0.cmp(&b.0));
                (self.places, self.entries) = rows.into_iter().unzip();
                self.keep_selection(selected_path);
            }
            Action::Activate => match self.current() {
                Some(Entry::Session(s)) => return Some(Effect::Open(PathBuf::from(&s.path))),
                Some(Entry::Failed(path, error)) => self.status = Some(format!("{path}: {error}")),
                None => {}
            },
            Action::Back if !self.filter.is_empty() => self.filter.clear(),
            // Esc leaves a filter or an overlay, never the app: quitting is `q`.
            Action::Back => self.status = Some("q quits".to_owned()),
            Action::Quit => return Some(Effect::Quit),
            // The help opens at the browser's own keys (the rest is a scroll away).
            Action::ToggleHelp => {
                let section = super::help::lines(&self.theme)
                    .iter()
                    .position(|l| l.to_string().starts_with(BROWSER_HELP_HEADING))
                    .unwrap_or(0);
                self.help = Some(section);
                return self.update_help(&Action::Scroll(0));
            }
            Action::Resize(w, h) => {
                self.size = (*w, *h);
                self.rows = usize::from(h.saturating_sub(8)).max(1);
            }
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
    let live = browser
        .entries
        .iter()
        .filter(|e| e.session().is_some_and(|s| browser.is_live(s)))
        .count();
    let live = if live > 0 || browser.live_only {
        format!(" · ● {} being written now", thousands(live as u64))
    } else {
        String::new()
    };
    let summary = format!(
        "{} sessions{live} · {} compacted in the log · {} failed to load{loading}",
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
    // Why a file failed, else the highlighted session's project and file.
    let status = browser
        .status
        .clone()
        .or_else(|| {
            browser.current().map(|e| match e {
                Entry::Session(s) => format!("{} · {} · {}", s.project, s.format, s.path),
                Entry::Failed(path, _) => path.clone(),
            })
        })
        .unwrap_or_default();
    frame.render_widget(
        Paragraph::new(vec![
            Line::styled(hint, t.dim),
            Line::raw(visible(&status, false).into_owned()),
        ]),
        footer,
    );
    if let Some(scroll) = browser.help {
        super::widgets::overlay::help_with(frame, area, t, scroll);
    }
}

/// The list's columns at a width: the fixed ones, and the model's only when there is room
/// (the title takes the rest; at 80 columns it keeps about 30).
struct Columns {
    title: usize,
    model: usize,
    /// What the session cost (its recorded usage priced), from 100 columns.
    cost: usize,
}

impl Columns {
    /// last active (18: a live mark and the time) · live (9) · log (9) · peak (6) · cmp
    /// (3), with spaces.
    const FIXED: usize = 18 + 1 + 9 + 1 + 9 + 1 + 6 + 1 + 3 + 1;

    fn at(width: usize) -> Columns {
        let model = if width >= 110 { 18 } else { 0 };
        let cost = if width >= 100 { 9 } else { 0 };
        Columns {
            title: width.saturating_sub(Columns::FIXED + model + cost).max(10),
            model,
            cost,
        }
    }

    fn row(&self, cells: [&str; 8]) -> String {
        let [active, title, model, live, log, cost, peak, cmp] = cells;
        let model = if self.model > 0 {
            format!("{} ", fit(model, self.model - 1, false))
        } else {
            String::new()
        };
        let cost = if self.cost > 0 {
            format!("{} ", fit(cost, self.cost - 1, true))
        } else {
            String::new()
        };
        format!(
            "{} {} {model}{live:>9} {log:>9} {cost}{peak:>6} {cmp:>3}",
            fit(active, 18, false),
            fit(title, self.title, false),
        )
    }
}

/// A model id without its date suffix (`claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`):
/// the column is narrow and the family is what tells sessions apart.
fn short_model(model: &str) -> String {
    match model.rsplit_once('-') {
        Some((family, date)) if date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit()) => family.to_owned(),
        _ => model.to_owned(),
    }
}

fn draw_list(frame: &mut Frame, area: Rect, browser: &Browser) {
    let t = &browser.theme;
    let width = usize::from(area.width.saturating_sub(2));
    let columns = Columns::at(width);
    let header = columns.row([
        "last active",
        "first prompt",
        "model",
        "live tok",
        "log tok",
        "cost",
        "peak",
        "cmp",
    ]);
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
            Entry::Session(s) => {
                let nested = if browser.nested(i) { "└ sub-agent: " } else { "" };
                let title = if s.title.is_empty() {
                    "(no prompt)"
                } else {
                    s.title.as_str()
                };
                // The mark of a session being written now follows its time, so the
                // times stay aligned.
                let live = if browser.is_live(s) { " ●" } else { "" };
                columns.row([
                    &format!(
                        "{}{live}",
                        crate::scan::short_time(if s.last_activity.is_empty() {
                            &s.started
                        } else {
                            &s.last_activity
                        })
                    ),
                    &format!("{nested}{}", visible(title, false)),
                    &short_model(s.model.as_deref().unwrap_or("–")),
                    &thousands(s.live_tokens),
                    &thousands(s.tokens),
                    &s.cost_usd.map_or_else(|| "–".to_owned(), |d| format!("${d:.2}")),
                    &s.peak_percent_of_window
                        .map_or_else(|| "–".to_owned(), |p| format!("{p:.0}%")),
                    &s.compactions.to_string(),
                ])
            }
            Entry::Failed(path, _) => {
                columns.row(["", &visible(path, false), "", "", "", "", "", ""]) + " failed to load"
            }
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
