//! The session's whole life on screen: the timeline of epochs and real compactions, an
//! epoch's messages, the replay chart (context per model call, recorded usage, the
//! budget, firings and real compactions) and the sweep chart (firings, loops and lost
//! instructions over budgets, the current setting marked), and the settings to paste.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Chart, Clear, Dataset, GraphType, Paragraph, Wrap};
use ratatui::Frame;

use super::overlay::{hint_line, scrolled};
use crate::replay::sweep::Sweep;
use crate::text::{fit, thousands};
use crate::tui::app::{App, CompactionView, ConfigView, EpochView, TimelineRow, TimelineView};
use crate::tui::jobs::Session;
use crate::tui::keys::Context;
use crate::tui::layout::overlay_area;

/// The box shown while the session is being built.
pub(super) fn loading(frame: &mut Frame, area: Rect, app: &App, title: &str, context: Context) {
    let popup = overlay_area(area);
    frame.render_widget(Clear, popup);
    let text = format!("{} loading the whole session…", app.spinner());
    frame.render_widget(
        Paragraph::new(Line::raw(text)).block(
            Block::bordered()
                .title(Line::styled(format!(" {title} "), app.theme().accent))
                .title_bottom(hint_line(context)),
        ),
        popup,
    );
}

/// The timeline, or the epoch opened from it.
pub fn timeline(frame: &mut Frame, area: Rect, app: &App, view: &TimelineView) {
    let Some(session) = app.session() else {
        return loading(frame, area, app, "epochs", Context::Timeline);
    };
    if let Some(open) = &view.compaction {
        return compaction(frame, area, app, session, *open);
    }
    if let Some(open) = &view.open {
        return epoch(frame, area, app, session, open);
    }
    let t = app.theme();
    let history = session.core.history();
    let widest = history.epochs.iter().map(|e| e.tokens).max().unwrap_or(1).max(1);
    let width = usize::from(crate::tui::layout::overlay_area(area).width.saturating_sub(2));
    let mut lines = vec![
        Line::styled(
            format!(
                "{} · {} messages in {} epoch{} · {} real compaction{} ({})",
                session.core.whole().source(),
                thousands(session.core.whole().messages().len() as u64),
                history.epochs.len(),
                if history.epochs.len() == 1 { "" } else { "s" },
                history.compactions.len(),
                if history.compactions.len() == 1 { "" } else { "s" },
                session.core.counts().tokenizer.name()
            ),
            t.accent,
        ),
        Line::raw(""),
    ];
    let last = history.epochs.len().saturating_sub(1);
    let rows = crate::tui::app::timeline_rows(history);
    let selected = rows.get(view.selected).copied();
    for e in &history.epochs {
        let is_selected = selected == Some(TimelineRow::Epoch(e.index));
        let recorded = e
            .recorded_peak
            .map(|r| format!(" · recorded peak {}", thousands(r)))
            .unwrap_or_default();
        let live = if e.index == last { " · live" } else { "" };
        let style = if is_selected { t.selected } else { Style::default() };
        let head = format!(
            "{} epoch {}  #{}–#{}  {}  {:>9} tok ",
            if is_selected { "▶" } else { " " },
            e.index,
            e.messages.start,
            e.messages.end.saturating_sub(1),
            crate::text::count_of(e.messages.len() as u64, "msg", "msgs"),
            thousands(e.tokens)
        );
        let tail = format!(
            " {}{recorded}{live}",
            crate::text::count_of(e.human_turns as u64, "human turn", "human turns")
        );
        // The bar takes what the words leave (at most 30 cells): at 80 columns the
        // figures stay on one row.
        let room = width.saturating_sub(crate::text::width(&head) + crate::text::width(&tail));
        let bar = "█".repeat(((e.tokens * room.min(30) as u64).div_ceil(widest)) as usize);
        lines.push(Line::from(vec![
            Span::styled(head, style),
            Span::styled(bar, t.tail),
            Span::styled(tail, t.dim),
        ]));
        for c in history.compactions.iter().filter(|c| c.epoch == e.index) {
            let pre = c.pre_tokens.map_or_else(
                || "size not recorded".to_owned(),
                |p| format!("{} recorded before", thousands(p)),
            );
            let is_selected = selected == Some(TimelineRow::Compaction(c.index));
            let again = session.done_again.get(c.index).map_or(0, Vec::len);
            lines.push(Line::styled(
                format!(
                    "{}   ▼ compacted ({}) · {pre} · summary {} tok · {} of {} facts lost · {} unrepeated · {} done again",
                    if is_selected { "▶" } else { " " },
                    c.trigger.as_deref().unwrap_or("?"),
                    thousands(c.summary_tokens),
                    thousands(c.loss.count(crate::loss::Survival::Lost) as u64),
                    thousands(c.loss.facts.len() as u64),
                    crate::text::count_of(c.loss.instructions_lost.len() as u64, "instruction", "instructions"),
                    crate::text::count_of(again as u64, "thing", "things"),
                ),
                if is_selected { t.selected } else { t.boundary },
            ));
            // The agent's own policy, predicting this compaction from what it knew before.
            if let Some(row) = session
                .backtest
                .as_ref()
                .and_then(|b| b.compactions.iter().find(|r| r.line == c.line))
            {
                lines.push(Line::styled(format!("       predicted: {}", row.describe()), t.dim));
            }
        }
    }
    if history.compactions.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            "  no compaction recorded: the whole session is one epoch",
            t.dim,
        ));
    }
    let title = Line::styled(" epochs and real compactions ", t.accent);
    scrolled(frame, area, title, hint_line(Context::Timeline), lines, 0);
}

/// One real compaction: the summary the agent got, then what the epoch after it did again
/// (the evidence of forgetting); or, with `l`, what it lost.
fn compaction(frame: &mut Frame, area: Rect, app: &App, session: &Session, open: CompactionView) {
    let t = app.theme();
    let Some(c) = session.core.history().compactions.get(open.index) else {
        return;
    };
    let width = usize::from(overlay_area(area).width.saturating_sub(2)).max(20);
    let mut lines = vec![Line::styled(
        format!(
            "compaction {} at line {} ({}) · ended epoch {} (#{}–#{}) · {}",
            c.index,
            c.line,
            c.trigger.as_deref().unwrap_or("trigger not recorded"),
            c.epoch,
            c.ended.start,
            c.ended.end.saturating_sub(1),
            c.pre_tokens.map_or_else(
                || "size not recorded".to_owned(),
                |p| format!("{} tokens recorded before", thousands(p))
            )
        ),
        t.accent,
    )];
    if open.loss {
        lines.push(Line::raw(""));
        let text = format!(
            "What it lost: facts of epoch {} in neither the summary the agent got nor anything after it.\n\n{}",
            c.epoch, c.loss
        );
        lines.extend(text.lines().flat_map(|l| wrap_prefixed(l, "  ", width)).map(Line::raw));
        let title = Line::styled(format!(" compaction {}: what it lost ", c.index), t.accent);
        return scrolled(frame, area, title, hint_line(Context::Epoch), lines, open.scroll);
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        format!(
            "The summary the agent got ({} tokens{}):",
            thousands(c.summary_tokens),
            c.summary_message.map(|m| format!(", message #{m}")).unwrap_or_default()
        ),
        t.accent,
    ));
    for line in c.summary.lines() {
        lines.extend(wrap_prefixed(line, "", width).into_iter().map(Line::raw));
    }
    lines.push(Line::raw(""));
    let again = session.done_again.get(open.index).map_or(&[][..], Vec::as_slice);
    let cost: u64 = again.iter().map(|d| d.tokens).sum();
    lines.push(Line::styled(
        format!(
            "Done again after it ({}, {} tokens): what the agent had to find out again",
            crate::text::count_of(again.len() as u64, "thing", "things"),
            thousands(cost)
        ),
        t.accent,
    ));
    if again.is_empty() {
        lines.push(Line::styled(
            "  nothing: no file re-read, command re-run or request repeated",
            t.dim,
        ));
    }
    for d in again {
        let text = format!(
            "  #{} {} {} (first at #{}, {} tokens)",
            d.message,
            d.kind.name(),
            d.target,
            d.first,
            thousands(d.tokens)
        );
        lines.extend(wrap_prefixed(&text, "      ", width).into_iter().map(Line::raw));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "l: what it lost (facts and instructions in neither the summary nor after it)",
        t.dim,
    ));
    let title = Line::styled(format!(" compaction {}: the real summary ", c.index), t.accent);
    scrolled(frame, area, title, hint_line(Context::Epoch), lines, open.scroll);
}

/// One epoch's messages (read-only) with the selected one's text.
fn epoch(frame: &mut Frame, area: Rect, app: &App, session: &Session, open: &EpochView) {
    let t = app.theme();
    let ended_by = session
        .core
        .history()
        .compactions
        .iter()
        .find(|c| c.epoch == open.epoch);
    if let (Some(scroll), Some(c)) = (open.loss, ended_by) {
        let text = format!(
            "What the compaction at line {} lost: facts of epoch {} in neither the summary the agent got nor anything after it.\n\n{}",
            c.line, open.epoch, c.loss
        );
        let lines = text.lines().map(|l| Line::raw(l.to_owned())).collect();
        let title = Line::styled(format!(" epoch {}: loss report ", open.epoch), t.accent);
        return scrolled(frame, area, title, hint_line(Context::Epoch), lines, scroll);
    }
    let popup = overlay_area(area);
    frame.render_widget(Clear, popup);
    let block = Block::bordered()
        .title(Line::styled(format!(" epoch {} (read-only) ", open.epoch), t.accent))
        .title_bottom(hint_line(Context::Epoch));
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    let [list_area, detail_area] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(inner);
    let range = &session.core.history().epochs[open.epoch].messages;
    let rows = usize::from(list_area.height);
    let preview_width = usize::from(list_area.width).saturating_sub(28);
    let lines: Vec<Line> = (open.offset..range.end)
        .take(rows)
        .map(|i| {
            let m = &session.core.whole().messages()[i];
            let marker = if m.past_summary() { "◆" } else { " " };
            let text = format!(
                "{marker}{:>6} {:<10} {} {:>8}",
                i,
                fit(
                    &crate::text::visible(session.core.whole().role_label(i), false),
                    10,
                    false
                ),
                fit(
                    &crate::text::visible(&session.core.whole().list_preview(i, preview_width), false),
                    preview_width,
                    false
                ),
                thousands(session.core.counts().message(i))
            );
            let style = if i == open.selected {
                t.selected
            } else if m.past_summary() {
                t.boundary
            } else {
                Style::default()
            };
            Line::styled(text, style)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), list_area);
    let selected = &session.core.whole().messages()[open.selected];
    let mut detail = Vec::new();
    if selected.past_summary() {
        detail.push(Line::styled(
            "◆ the summary the agent got at this compaction",
            t.boundary,
        ));
    }
    detail.push(Line::styled(
        format!(
            "#{} {} · {} tokens",
            open.selected,
            selected.role(),
            thousands(session.core.counts().message(open.selected))
        ),
        t.accent,
    ));
    detail.extend(
        session
            .core
            .whole()
            .readable_text(open.selected)
            .lines()
            .map(|l| Line::raw(crate::text::visible(l, false).into_owned())),
    );
    frame.render_widget(
        Paragraph::new(detail)
            .wrap(Wrap { trim: false })
            .block(Block::new().borders(ratatui::widgets::Borders::LEFT)),
        detail_area,
    );
}

/// A chart's frame: the overlay with a title, a summary line and the hints.
pub(super) fn chart_frame(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    title: &str,
    summary: Vec<Line<'static>>,
    context: Context,
) -> Rect {
    let popup = overlay_area(area);
    frame.render_widget(Clear, popup);
    let block = Block::bordered()
        .title(Line::styled(format!(" {title} "), app.theme().accent))
        .title_bottom(hint_line(context));
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    // Wrapped at word boundaries: at 80 columns a summary takes more lines, never a cut
    // word (ratatui's own count of the wrapped lines sizes the area).
    let summary = Paragraph::new(summary).wrap(Wrap { trim: true });
    let height = u16::try_from(summary.line_count(inner.width)).unwrap_or(u16::MAX);
    let [text, chart] = Layout::vertical([Constraint::Length(height), Constraint::Min(3)]).areas(inner);
    frame.render_widget(summary, text);
    chart
}

/// Axis labels: 0, the middle and the top.
fn labels(max: f64) -> Vec<Line<'static>> {
    [0.0, max / 2.0, max]
        .iter()
        .map(|v| Line::raw(thousands(*v as u64)))
        .collect()
}

/// A line or scatter series.
fn series<'a>(name: &'static str, data: &'a [(f64, f64)], style: Style, line: bool) -> Dataset<'a> {
    let (marker, kind) = if line {
        (Marker::Braille, GraphType::Line)
    } else {
        (Marker::Dot, GraphType::Scatter)
    };
    let set = Dataset::default()
        .marker(marker)
        .graph_type(kind)
        .style(style)
        .data(data);
    if name.is_empty() {
        set
    } else {
        set.name(name)
    }
}

/// One series of a chart: its name in the legend (empty: not listed), its points, and
/// whether they are joined.
pub(super) struct Plot<'a> {
    pub(super) name: &'static str,
    pub(super) data: &'a [(f64, f64)],
    pub(super) style: Style,
    pub(super) line: bool,
}

impl<'a> Plot<'a> {
    pub(super) fn line(name: &'static str, data: &'a [(f64, f64)], style: Style) -> Plot<'a> {
        Plot {
            name,
            data,
            style,
            line: true,
        }
    }

    pub(super) fn dots(name: &'static str, data: &'a [(f64, f64)], style: Style) -> Plot<'a> {
        Plot {
            name,
            data,
            style,
            line: false,
        }
    }
}

/// The legend, as a line of text above the chart: never drawn over by the plot, never
/// hidden when the chart is narrow (ratatui's own legend box is both).
pub(super) fn legend(plots: &[Plot]) -> Line<'static> {
    let mut spans = Vec::new();
    for plot in plots.iter().filter(|p| !p.name.is_empty()) {
        if !spans.is_empty() {
            spans.push(Span::raw("  "));
        }
        spans.push(Span::styled(if plot.line { "━━ " } else { "• " }, plot.style));
        spans.push(Span::raw(plot.name));
    }
    Line::from(spans)
}

/// The chart of `plots`, with labelled axes from 0 (its legend is [`legend`]'s line, not
/// drawn in the plot).
pub(super) fn chart<'a>(plots: &[Plot<'a>], x: (&str, f64), y: (String, f64)) -> Chart<'a> {
    let datasets: Vec<Dataset<'a>> = plots.iter().map(|p| series(p.name, p.data, p.style, p.line)).collect();
    Chart::new(datasets)
        .legend_position(None)
        .x_axis(
            Axis::default()
                .title(x.0.to_owned())
                .bounds([0.0, x.1])
                .labels(labels(x.1)),
        )
        .y_axis(Axis::default().title(y.0).bounds([0.0, y.1]).labels(labels(y.1)))
}

/// What the replay chart plots.
struct ReplaySeries {
    before: Vec<(f64, f64)>,
    sent: Vec<(f64, f64)>,
    recorded: Vec<(f64, f64)>,
    firings: Vec<(f64, f64)>,
    budget: Vec<(f64, f64)>,
    /// Vertical segments at the real compactions.
    real: Vec<(f64, f64)>,
    x_max: f64,
    y_max: f64,
}

impl ReplaySeries {
    fn of(session: &Session, replay: &crate::replay::Replay, max_tokens: u64) -> ReplaySeries {
        let view = session.core.view();
        let point = |p: usize, v: u64| (p as f64, v as f64);
        let before: Vec<(f64, f64)> = replay.calls.iter().map(|c| point(c.at, c.before)).collect();
        // Recorded usage is the provider's figure (the system prompt and tools included):
        // drawn in the chart's unit, less its epoch's fitted overhead and over its ratio,
        // and not at all where the epoch has no fit to convert it by.
        let recorded: Vec<(f64, f64)> = replay
            .calls
            .iter()
            .filter_map(|c| {
                let r = c.recorded?;
                let origin = *view.positions.get(c.at)?;
                let fit = crate::calibrate::epoch_of(session.core.fits(), origin)?
                    .calibration
                    .as_ref()?;
                let counted = ((r as f64 - fit.overhead as f64) / fit.ratio).max(0.0);
                Some((c.at as f64, counted))
            })
            .collect();
        let x_max = view.len().max(1) as f64;
        let y_max = before
            .iter()
            .chain(&recorded)
            .map(|p| p.1)
            .fold(max_tokens as f64, f64::max)
            * 1.05;
        ReplaySeries {
            sent: replay.calls.iter().map(|c| point(c.at, c.after)).collect(),
            firings: replay.firings.iter().map(|f| point(f.at, f.tokens_before)).collect(),
            budget: vec![(0.0, max_tokens as f64), (x_max, max_tokens as f64)],
            real: session
                .core
                .whole()
                .compactions()
                .iter()
                .flat_map(|c| {
                    let p = view.positions.partition_point(|&i| i < c.at) as f64;
                    [(p, 0.0), (p, y_max)]
                })
                .collect(),
            before,
            recorded,
            x_max,
            y_max,
        }
    }
}

/// The replay chart's summary lines.
fn replay_summary(app: &App, session: &Session, replay: &crate::replay::Replay) -> Vec<Line<'static>> {
    let t = app.theme();
    let o = app.options();
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let mut lines = vec![Line::from(vec![
        Span::styled(
            format!(
                "max_tokens {} · keep_tail {} · {} calls · {} firing{} · {} loop{}{}",
                thousands(o.max_tokens),
                thousands(o.effective_keep_tail()),
                thousands(replay.model_calls as u64),
                replay.firings.len(),
                plural(replay.firings.len()),
                replay.loops,
                plural(replay.loops),
                replay
                    .first_firing()
                    .map(|f| format!(" · first at #{}", f.at))
                    .unwrap_or_default(),
            ),
            if replay.loops > 0 { t.warning } else { Style::default() },
        ),
        Span::styled(
            if app.replay().is_none() {
                format!(" {} updating…", app.spinner())
            } else {
                String::new()
            },
            t.dim,
        ),
    ])];
    let real = session.core.whole().compactions().len();
    if real > 0 {
        lines.push(Line::styled(
            format!(
                "the session really compacted {real} time{} (│ in the chart); summaries here are placeholder-sized, see `ctxlens replay` for real ones",
                plural(real)
            ),
            t.dim,
        ));
    }
    lines
}

/// The replay chart.
pub fn replay(frame: &mut Frame, area: Rect, app: &App) {
    let Some(session) = app.session() else {
        return loading(frame, area, app, "replay", Context::Replay);
    };
    let title = "replay: context per model call";
    let Some(replay) = app.latest_replay() else {
        let waiting = vec![Line::raw(format!("{} replaying…", app.spinner()))];
        chart_frame(frame, area, app, title, waiting, Context::Replay);
        return;
    };
    let t = app.theme();
    let s = ReplaySeries::of(session, replay, app.options().max_tokens);
    let mut plots = vec![
        Plot::line("before compactor", &s.before, t.summarized),
        Plot::line("sent", &s.sent, t.tail),
        Plot::line("max_tokens", &s.budget, t.warning),
        Plot::dots("firing", &s.firings, t.boundary),
    ];
    if !s.recorded.is_empty() {
        plots.push(Plot::dots("recorded, less fitted overhead", &s.recorded, t.accent));
    }
    // One segment per real compaction, named once in the legend.
    plots.extend(s.real.chunks(2).enumerate().map(|(k, pair)| Plot {
        name: if k == 0 { "real compaction" } else { "" },
        data: pair,
        style: t.orphan,
        line: true,
    }));
    let mut summary = replay_summary(app, session, replay);
    summary.push(legend(&plots));
    let chart_area = chart_frame(frame, area, app, title, summary, Context::Replay);
    let y_title = format!("tokens ({})", session.core.counts().tokenizer.name());
    frame.render_widget(chart(&plots, ("message", s.x_max), (y_title, s.y_max)), chart_area);
}

/// The sweep chart's summary lines.
fn sweep_summary(app: &App, sweep: &Sweep) -> Vec<Line<'static>> {
    let describe = |a: &Option<crate::replay::sweep::Answer>| {
        a.as_ref().map_or_else(
            || "none here".to_owned(),
            |a| format!("max_tokens {}", thousands(a.max_tokens)),
        )
    };
    let updating = if app.sweep().is_none() {
        let progress = app.sweep_progress().unwrap_or_else(|| "updating…".to_owned());
        format!(" · {} {progress}", app.spinner())
    } else {
        String::new()
    };
    vec![
        Line::raw(format!(
            "{} budgets · current max_tokens {} (│) · knee • {} · smallest safe: {} (never loops, keeps every instruction and {}% of facts)",
            sweep.rows.len(),
            thousands(app.options().max_tokens),
            describe(&sweep.knee),
            describe(&sweep.smallest_safe),
            sweep.fact_floor,
        )),
        Line::styled(
            format!(
                "placeholder-sized summaries, as `ctxlens sweep --summarizer placeholder`; its default summarizer makes real ones{updating}"
            ),
            app.theme().dim,
        ),
    ]
}

/// The sweep chart.
pub fn sweep(frame: &mut Frame, area: Rect, app: &App) {
    if app.session().is_none() {
        return loading(frame, area, app, "sweep", Context::Sweep);
    }
    let title = "sweep: what each budget does over the session";
    let Some(sweep) = app.latest_sweep() else {
        let progress = app
            .sweep_progress()
            .unwrap_or_else(|| "replaying every budget…".to_owned());
        let waiting = vec![Line::raw(format!("{} {progress}", app.spinner()))];
        chart_frame(frame, area, app, title, waiting, Context::Sweep);
        return;
    };
    let t = app.theme();
    let points = |f: &dyn Fn(&crate::replay::sweep::Row) -> usize| -> Vec<(f64, f64)> {
        sweep.rows.iter().map(|r| (r.max_tokens as f64, f(r) as f64)).collect()
    };
    let firings = points(&|r| r.firings);
    let loops = points(&|r| r.loops);
    let instructions = points(&|r| r.instructions_lost);
    let x_max = sweep.rows.iter().map(|r| r.max_tokens).max().unwrap_or(1) as f64;
    let y_max = firings.iter().chain(&instructions).map(|p| p.1).fold(1.0, f64::max) * 1.1;
    let max_tokens = app.options().max_tokens as f64;
    let current = [(max_tokens, 0.0), (max_tokens, y_max)];
    let knee: Vec<(f64, f64)> = sweep
        .knee
        .as_ref()
        .map(|a| (a.max_tokens as f64, a.row.firings as f64))
        .into_iter()
        .collect();
    let plots = [
        Plot::line("firings", &firings, t.tail),
        Plot::line("loops", &loops, t.warning),
        Plot::line("instructions lost", &instructions, t.orphan),
        Plot::line("current", &current, t.accent),
        Plot::dots("knee", &knee, t.boundary),
    ];
    let mut summary = sweep_summary(app, sweep);
    summary.push(legend(&plots));
    let chart_area = chart_frame(frame, area, app, title, summary, Context::Sweep);
    frame.render_widget(
        chart(&plots, ("max_tokens", x_max), ("count".to_owned(), y_max)),
        chart_area,
    );
}

/// The settings as an agent's configuration.
pub fn config(frame: &mut Frame, area: Rect, app: &App, view: ConfigView) {
    let t = app.theme();
    let kinds = crate::agent_config::Kind::budget_kinds();
    let kind = kinds[view.kind];
    let tabs: Vec<Span> = kinds
        .iter()
        .enumerate()
        .flat_map(|(k, other)| {
            let style = if k == view.kind { t.selected } else { t.dim };
            // Each name padded by a space: the padding is the gap between names (the
            // seven kinds fit an 80-column screen).
            [Span::styled(format!(" {} ", other.name()), style)]
        })
        .collect();
    let mut lines = vec![Line::from(tabs), Line::raw("")];
    let popup = overlay_area(area);
    // Wrapped here, so a comment's continuation lines are comments too (a pasted snippet
    // must not turn the end of a long comment into code).
    let width = usize::from(popup.width.saturating_sub(2)).max(20);
    match app.emitted_config(kind) {
        Ok(emitted) => {
            lines.push(Line::styled(format!("{} ({}):", kind.name(), kind.format()), t.accent));
            for warning in &emitted.warnings {
                lines.extend(
                    wrap_prefixed(&format!("⚠ {warning}"), "  ", width)
                        .into_iter()
                        .map(|l| Line::styled(l, t.warning)),
                );
            }
            for line in emitted.text.lines() {
                let (indent, rest) = line.split_at(line.len() - line.trim_start().len());
                let continuation = if rest.starts_with('#') {
                    format!("{indent}# ")
                } else {
                    indent.to_owned()
                };
                lines.extend(wrap_prefixed(line, &continuation, width).into_iter().map(Line::raw));
            }
            if let Some(note) = emitted.note {
                lines.push(Line::raw(""));
                lines.extend(
                    wrap_prefixed(&format!("note: {note}"), "  ", width)
                        .into_iter()
                        .map(|l| Line::styled(l, t.dim)),
                );
            }
        }
        Err(e) => lines.push(Line::styled(e, t.warning)),
    }
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .title(Line::styled(" settings to paste into the agent ", t.accent))
                .title_bottom(hint_line(Context::Config)),
        ),
        popup,
    );
}

/// `text` broken at spaces into lines of at most `width` columns, every line after the
/// first starting with `prefix` (a word longer than a line is cut).
fn wrap_prefixed(text: &str, prefix: &str, width: usize) -> Vec<String> {
    use unicode_width::UnicodeWidthStr;
    let mut out = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let lead = if out.is_empty() { "" } else { prefix };
        let candidate_width = if line.is_empty() {
            lead.width() + word.width()
        } else {
            line.width() + 1 + word.width()
        };
        if !line.is_empty() && candidate_width > width {
            out.push(std::mem::take(&mut line));
        }
        if line.is_empty() {
            line.push_str(if out.is_empty() { "" } else { prefix });
            line.push_str(word);
        } else {
            line.push(' ');
            line.push_str(word);
        }
    }
    out.push(line);
    out
}

#[cfg(test)]
mod wrap_tests {
    use super::wrap_prefixed;

    #[test]
    fn continuation_lines_carry_the_prefix() {
        let lines = wrap_prefixed("# one two three four five six", "# ", 12);
        assert_eq!(lines, ["# one two", "# three four", "# five six"]);
        assert!(lines.iter().all(|l| l.starts_with("# ")));
        assert_eq!(wrap_prefixed("short", "# ", 12), ["short"]);
    }
}
