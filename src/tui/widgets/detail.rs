//! The detail pane: the selected message's tokens by every tokenizer, its section, its
//! tool group and any orphan explained, then the message itself as pretty JSON.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;

use super::thousands;
use crate::compact::Section;
use crate::policy::Section as PolicySection;
use crate::tokens::Tokenizer;
use crate::tui::app::{App, Pane};

/// Draws the detail pane.
pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme();
    let border = if app.focus() == Pane::Detail {
        t.focus
    } else {
        Style::new()
    };
    let Some(message) = app.transcript().messages().get(app.selected()) else {
        frame.render_widget(Paragraph::new("no messages").block(Block::bordered()), area);
        return;
    };
    let title = format!(
        " #{} {} · {} tokens ",
        app.selected(),
        message.role(),
        thousands(app.counts().message(app.selected()))
    );
    let block = Block::bordered().title(title).border_style(border);
    let mut lines = facts(app);
    lines.extend(edit_lines(app));
    lines.push(Line::raw(""));
    let height = usize::from(area.height.saturating_sub(2));
    let shown = app
        .deterministic()
        .and_then(|d| d.compressed.changed.get(&app.selected()));
    let raw = shown.map_or_else(|| app.transcript().raw(app.selected()), String::as_str);
    // Readable text by default (real line breaks, control characters shown); J: JSON.
    let body = if app.raw() {
        pretty(raw)
    } else {
        crate::text::visible(&app.transcript().readable_text_of_json(raw), true).replace('\t', "    ")
    };
    let query = app
        .search()
        .filter(|s| s.matches.binary_search(&app.selected()).is_ok())
        .map(|s| s.query.clone());
    lines.extend(body.lines().map(|l| highlighted(l, query.as_deref(), t.selected)));
    // Build only what can be seen: wrapping a 100 KB tool result every frame would not be.
    let visible: Vec<Line> = lines.into_iter().skip(app.detail_scroll()).take(height).collect();
    frame.render_widget(Paragraph::new(visible).block(block).wrap(Wrap { trim: false }), area);
}

/// A line with every occurrence of `query` (smart case, as the search) styled.
fn highlighted(line: &str, query: Option<&str>, style: Style) -> Line<'static> {
    let Some(query) = query.filter(|q| !q.is_empty()) else {
        return Line::raw(line.to_owned());
    };
    let ignore_case = crate::tui::search::ignores_case(query);
    let (hay, needle) = if ignore_case {
        (line.to_lowercase(), query.to_lowercase())
    } else {
        (line.to_owned(), query.to_owned())
    };
    // Lowercasing can change byte lengths outside ASCII: highlight only when it did not.
    if hay.len() != line.len() {
        return Line::raw(line.to_owned());
    }
    let mut spans = Vec::new();
    let mut at = 0;
    while let Some(found) = hay[at..].find(&needle) {
        let start = at + found;
        let end = start + needle.len();
        spans.push(Span::raw(line[at..start].to_owned()));
        spans.push(Span::styled(line[start..end].to_owned(), style));
        at = end;
    }
    spans.push(Span::raw(line[at..].to_owned()));
    Line::from(spans)
}

/// The message as pretty JSON, key order as read.
fn pretty(raw: &str) -> String {
    serde_json::from_str::<serde_json::Value>(raw)
        .and_then(|v| serde_json::to_string_pretty(&v))
        .unwrap_or_else(|_| raw.to_owned())
}

fn facts(app: &App) -> Vec<Line<'static>> {
    let t = &app.theme();
    let index = app.selected();
    let mut counts = vec![Span::styled("tokens ", t.dim)];
    for tokenizer in Tokenizer::ALL {
        let value = if tokenizer.is_bpe() {
            app.counts_by(tokenizer)
                .map_or_else(|| "–".to_owned(), |c| thousands(c.message(index)))
        } else {
            thousands(crate::tokens::count_request(
                app.transcript(),
                tokenizer,
                &app.transcript().request(index),
            ))
        };
        let style = if tokenizer == app.tokenizer() {
            t.accent
        } else {
            Style::new()
        };
        counts.push(Span::styled(format!("{tokenizer} {value}  "), style));
    }
    let (section, style) = match app.main_policy() {
        None => match app.planned().section(index) {
            Section::Head => ("kept head (the leading system message)".to_owned(), t.head),
            Section::Summarized => ("summarized away".to_owned(), t.summarized),
            Section::Tail => ("kept verbatim".to_owned(), t.tail),
        },
        Some(policy) => {
            let what = match policy.section(index) {
                PolicySection::Head | PolicySection::Tail if policy.truncated(index) => ("kept, cut short", t.edited),
                PolicySection::Head | PolicySection::Tail => ("kept", t.tail),
                PolicySection::Summarized => ("summarized away", t.summarized),
                PolicySection::Dropped => ("dropped, with no summary", t.summarized),
                PolicySection::Cleared => ("kept, its content cleared", t.summarized),
            };
            (format!("{}: {}", policy.name, what.0), what.1)
        }
    };
    let mut lines = vec![
        Line::from(counts),
        Line::from(vec![Span::styled("section ", t.dim), Span::styled(section, style)]),
    ];
    if let Some(r) = crate::tokens::recorded_vs_estimate(app.transcript(), app.counts(), index) {
        lines.push(Line::from(vec![
            Span::styled("recorded ", t.dim),
            Span::raw(format!(
                "prompt {} ({}) vs estimate {} of the messages before: {:+.1}% (logs hold no system prompt or tools)",
                thousands(r.context_tokens),
                crate::tokens::usage_split(&r.usage),
                thousands(r.estimate),
                r.error_percent
            )),
        ]));
    }
    if let Some(heavy) = crate::tokens::media::binary_heavy(app.transcript(), index) {
        let what: Vec<String> = heavy.media.iter().map(crate::tokens::media::Media::describe).collect();
        lines.push(Line::styled(
            format!(
                "⚠ {}: counted as {} tokens by {}; the model sees about {} ({})",
                what.join(", "),
                thousands(app.counts().message(index)),
                app.tokenizer(),
                thousands(heavy.provider_tokens),
                crate::tokens::media::provider_rule(app.transcript())
            ),
            t.warning,
        ));
    }
    if app.transcript().messages()[index].past_summary() {
        lines.push(Line::styled(
            "past summary: written by an earlier compaction",
            t.warning,
        ));
    }
    lines.extend(group_lines(app));
    lines
}

/// The deterministic edits of the selected message, and a diff of its text.
fn edit_lines(app: &App) -> Vec<Line<'static>> {
    let t = &app.theme();
    let Some(d) = app.deterministic() else {
        return Vec::new();
    };
    let index = app.selected();
    let Some(after) = d.compressed.changed.get(&index) else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    for edit in d.compressed.edits.iter().filter(|e| e.index == index) {
        lines.push(Line::from(vec![
            Span::styled("✎ edit ", t.edited),
            Span::styled(edit.rule.name(), t.edited),
            Span::raw(format!(
                " · {} → {} tokens",
                thousands(edit.tokens_before),
                thousands(edit.tokens_after)
            )),
        ]));
    }
    let before = app.transcript().readable_text(index);
    let after = crate::transcript::readable_text_of(after);
    lines.push(Line::styled("diff of the text (− before, + after):", t.dim));
    for (sign, line) in diff_lines(&before, &after) {
        let style = match sign {
            '-' => t.removed,
            '+' => t.added,
            _ => t.dim,
        };
        lines.push(Line::styled(format!("{sign} {line}"), style));
    }
    lines.push(Line::styled("message after the edit:", t.dim));
    lines
}

/// A line diff: common leading and trailing lines once (context), the changed middle as
/// removed and added lines. Enough to see what a rule cut, without an LCS.
pub fn diff_lines(before: &str, after: &str) -> Vec<(char, String)> {
    const CONTEXT: usize = 2;
    let a: Vec<&str> = before.lines().collect();
    let b: Vec<&str> = after.lines().collect();
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let mut out: Vec<(char, String)> = Vec::new();
    out.extend(
        a[prefix.saturating_sub(CONTEXT)..prefix]
            .iter()
            .map(|l| (' ', (*l).to_owned())),
    );
    out.extend(a[prefix..a.len() - suffix].iter().map(|l| ('-', (*l).to_owned())));
    out.extend(b[prefix..b.len() - suffix].iter().map(|l| ('+', (*l).to_owned())));
    out.extend(
        a[a.len() - suffix..]
            .iter()
            .take(CONTEXT)
            .map(|l| (' ', (*l).to_owned())),
    );
    out
}

fn group_lines(app: &App) -> Vec<Line<'static>> {
    let t = &app.theme();
    let index = app.selected();
    let groups = &app.transcript().groups();
    let mut lines = Vec::new();
    if let Some(group) = groups.group_of(index).map(|g| &groups.groups[g]) {
        let results: Vec<String> = group.results.iter().map(|r| format!("#{r}")).collect();
        lines.push(Line::from(vec![
            Span::styled("tool group ", t.dim),
            Span::styled(
                format!("call #{} → results {}", group.call, results.join(", ")),
                t.tool_pair,
            ),
        ]));
        let split_inside = app
            .planned()
            .cut()
            .is_some_and(|c| group.members().any(|m| m < c.split) && group.members().any(|m| m >= c.split));
        if split_inside {
            lines.push(Line::styled("⚠ the cut falls inside this group", t.warning));
        }
    }
    let len = app.transcript().messages().len();
    for orphan in groups.orphans_of(index) {
        lines.push(Line::styled(format!("⚠ orphan: {}", orphan.explain(len)), t.orphan));
    }
    lines
}
