//! The budget bar: `max_tokens` and `keep_tail` with their gauges, what the compactor
//! would do, and the plan's warnings (or the progress of a background count).

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

use super::{gauge_cells, thousands};
use crate::tui::app::App;

const GAUGE: usize = 20;

/// Draws the budget bar.
pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme();
    let title = format!(" ctxlens · {} · {} ", app.transcript().source, app.transcript().format);
    let block = Block::bordered().title(Line::styled(title, t.accent));
    let lines = vec![max_line(app), keep_line(app), third_line(app)];
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

fn gauge<'a>(app: &App, value: u64, max: u64) -> Vec<Span<'a>> {
    let style = if value > max {
        app.theme().gauge_over
    } else {
        app.theme().gauge_ok
    };
    let (filled, empty) = gauge_cells(value, max, GAUGE);
    vec![Span::styled(filled, style), Span::styled(empty, app.theme().dim)]
}

fn max_line(app: &App) -> Line<'static> {
    let t = &app.theme();
    // The transcript's own total; the deterministic strategies say what is left after.
    let total = app.counts().total();
    let max = app.options().max_tokens;
    let mut spans = vec![Span::raw(format!("max_tokens {:>9} ", thousands(max)))];
    spans.extend(gauge(app, total, max));
    spans.push(Span::raw(format!(" total {} ", thousands(total))));
    if let Some(c) = app.calibration() {
        spans.push(Span::styled(
            format!(
                "(billed ≈ {}: +{} not in the log) ",
                thousands(c.predict(total)),
                thousands(c.overhead)
            ),
            t.dim,
        ));
    }
    if let (true, Some(d)) = (app.strategy().cuts_a_tail(), app.deterministic()) {
        spans.push(Span::styled(
            format!("(→ {} after deterministic) ", thousands(d.compressed.tokens_after)),
            t.edited,
        ));
    }
    if app.default_max() {
        spans.push(Span::styled("(default: 60%) ", t.dim));
    }
    spans.push(Span::styled("· strategy ", t.dim));
    spans.push(Span::styled(app.strategy().name(), t.accent));
    spans.push(Span::styled(" · tokenizer ", t.dim));
    spans.push(Span::styled(app.tokenizer().name(), t.accent));
    spans.push(Span::styled(" · flush ", t.dim));
    spans.push(Span::raw(if app.options().flush_to_memory { "on" } else { "off" }));
    if app.settings().summary_role != crate::compact::SummaryRole::System {
        spans.push(Span::styled(" · summary as ", t.dim));
        spans.push(Span::raw(app.settings().summary_role.name()));
    }
    Line::from(spans)
}

fn keep_line(app: &App) -> Line<'static> {
    let t = &app.theme();
    let keep = app.keep_tail();
    let default = if app.options().keep_tail.is_none() {
        " (½ max)"
    } else {
        ""
    };
    if let (false, Some(d)) = (app.strategy().cuts_a_tail(), app.deterministic()) {
        let c = &d.compressed;
        let mut spans = vec![Span::raw(format!(
            "cap        {:>9} ",
            thousands(app.options().max_tokens)
        ))];
        spans.extend(gauge(app, c.tokens_after, app.options().max_tokens));
        spans.push(Span::styled(" deterministic → ", t.dim));
        spans.push(Span::styled(thousands(c.tokens_after), t.accent));
        spans.push(Span::raw(format!(
            " tokens · {} edits · {} externalized · cap {}",
            c.edits.len(),
            c.artifacts.len(),
            if c.tokens_after <= app.options().max_tokens {
                "met"
            } else {
                "not met"
            }
        )));
        return Line::from(spans);
    }
    if !app.strategy().cuts_a_tail() {
        // The pass is still running (the branch above shows it once made).
        return Line::from(vec![
            Span::raw(format!("cap        {:>9} ", thousands(app.options().max_tokens))),
            Span::styled("waiting for the deterministic pass", t.dim),
        ]);
    }
    let mut spans = vec![Span::raw(format!("keep_tail  {:>9} ", thousands(keep)))];
    if let Some(d) = app.deterministic() {
        spans.push(Span::styled(
            format!("[after {} deterministic edits] ", d.compressed.edits.len()),
            t.edited,
        ));
    }
    if let Some(cut) = app.planned().cut() {
        spans.extend(gauge(app, cut.tail_tokens, keep));
        spans.push(Span::raw(format!(" tail {}{default} ", thousands(cut.tail_tokens))));
        spans.push(Span::styled("→ after ", t.dim));
        spans.push(Span::styled(thousands(app.tokens_after()), t.accent));
        spans.push(Span::raw(format!(
            " tokens · {} messages summarized ({} tokens)",
            cut.summarized(),
            thousands(cut.summarized_tokens)
        )));
    } else {
        spans.extend(gauge(app, 0, keep.max(1)));
        spans.push(Span::raw(format!("{default} ")));
        let why = if app.planned().tokens <= app.options().max_tokens {
            format!(
                "no-op: under budget ({} ≤ {})",
                thousands(app.planned().tokens),
                thousands(app.options().max_tokens)
            )
        } else {
            "no-op: nothing but the head to summarize".to_owned()
        };
        spans.push(Span::styled(why, t.tail));
    }
    Line::from(spans)
}

fn third_line(app: &App) -> Line<'static> {
    let t = &app.theme();
    if let Some(c) = app.counting() {
        let percent = (c.done * 100).checked_div(c.total).unwrap_or(100);
        let (filled, empty) = gauge_cells(c.done as u64, c.total as u64, GAUGE);
        return Line::from(vec![
            Span::styled(format!("{} counting {}… ", app.spinner(), c.tokenizer), t.warning),
            Span::styled(filled, t.gauge_ok),
            Span::styled(empty, t.dim),
            Span::raw(format!(" {percent}% · showing {} until it finishes", app.tokenizer())),
        ]);
    }
    if app.deriving() {
        return Line::styled(
            format!(
                "{} running the deterministic pass… (the transcript's own counts meanwhile)",
                app.spinner()
            ),
            t.warning,
        );
    }
    if app.warnings().is_empty() {
        let state = match (app.summary_text(), app.summary().as_ref()) {
            _ if app.summarizing() => format!("{} summarizing…", app.spinner()),
            (Some(text), Some(s)) => {
                let edited = if s.edited { ", edited" } else { "" };
                format!(
                    "summary ready (≈ {} tokens{edited})",
                    (text.chars().count() as u64).div_ceil(4)
                )
            }
            _ if app.planned().compacts() => {
                "summary made on p, e or l (after uses the placeholder until then)".to_owned()
            }
            _ => "nothing to summarize".to_owned(),
        };
        return Line::from(vec![
            Span::styled("no warnings · summarizer ", t.dim),
            Span::styled(app.summarizer().to_string(), t.accent),
            Span::styled(format!(" · {state}"), t.dim),
        ]);
    }
    let text = app
        .warnings()
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" · ");
    Line::from(vec![Span::styled("⚠ ", t.warning), Span::styled(text, t.warning)])
}
