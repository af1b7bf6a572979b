//! The cost chart (`$`): what each model call the log records cost with prompt caching
//! (its recorded usage priced by the built-in table, `ctxlens stats`' figures), the
//! calls that wrote the cache again in full and why, and the real compactions.

use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Axis;
use ratatui::Frame;

use super::lifetime::{chart, chart_frame, legend, loading, Plot};
use crate::cost::SessionCost;
use crate::text::count_of;
use crate::tui::app::App;
use crate::tui::keys::Context;

const TITLE: &str = "cost: dollars per model call, as recorded";

/// What the cost chart plots: one point per priced call, numbered from 1 in file order.
struct CostSeries {
    /// Each call's dollars.
    total: Vec<(f64, f64)>,
    /// What each call paid for writing the cache.
    writes: Vec<(f64, f64)>,
    /// The calls that wrote most of their prompt again, at their dollars.
    rewrites: Vec<(f64, f64)>,
    /// Vertical segments before the first call after each real compaction.
    compactions: Vec<(f64, f64)>,
    x_max: f64,
    y_max: f64,
}

impl CostSeries {
    fn of(cost: &SessionCost, compaction_lines: &[usize]) -> CostSeries {
        let number = |i: usize| (i + 1) as f64;
        let priced = || {
            cost.calls
                .iter()
                .enumerate()
                .filter_map(|(i, c)| c.dollars.map(|d| (number(i), d)))
        };
        let total: Vec<(f64, f64)> = priced().map(|(x, d)| (x, d.total())).collect();
        let y_max = total.iter().map(|p| p.1).fold(0.0, f64::max).max(0.01) * 1.05;
        CostSeries {
            writes: priced().map(|(x, d)| (x, d.cache_write)).collect(),
            rewrites: cost
                .rewrites
                .iter()
                .filter_map(|r| Some((number(r.call), cost.calls.get(r.call)?.dollars?.total())))
                .collect(),
            compactions: compaction_lines
                .iter()
                .flat_map(|&line| {
                    // Between the last call before it and the first after.
                    let x = cost.calls.partition_point(|c| c.line < line) as f64 + 0.5;
                    [(x, 0.0), (x, y_max)]
                })
                .collect(),
            x_max: cost.calls.len().max(1) as f64 + 1.0,
            y_max,
            total,
        }
    }
}

/// The lines above the chart: the total and its parts, the rewrites, what is estimated
/// or left out.
fn summary(app: &App, cost: &SessionCost) -> Vec<Line<'static>> {
    let t = app.theme();
    let calls = if cost.unpriced_models.is_empty() || cost.total.is_none() {
        count_of(cost.calls.len() as u64, "recorded call", "recorded calls")
    } else {
        format!("{} of {} recorded calls", cost.priced_calls(), cost.calls.len())
    };
    let Some(total) = cost.total else {
        return vec![Line::styled(
            format!(
                "{calls}, none priced: {} not in the price table {}",
                cost.unpriced_models.join(", "),
                cost.prices
            ),
            t.warning,
        )];
    };
    let d = &cost.dollars;
    let share = |part: f64| if total > 0.0 { part / total * 100.0 } else { 0.0 };
    let mut lines = vec![Line::raw(format!(
        "${total:.2} over {calls} · cache writes ${:.2} ({:.0}%) · cache reads ${:.2} ({:.0}%) · uncached input ${:.2} · output ${:.2} · prices: {}",
        d.cache_write,
        share(d.cache_write),
        d.cache_read,
        share(d.cache_read),
        d.input,
        d.output,
        cost.prices
    ))];
    if !cost.rewrites.is_empty() {
        lines.push(Line::raw(format!(
            "cache written again in full {} (• in the chart): {}",
            count_of(cost.rewrites.len() as u64, "time", "times"),
            cost.rewrite_causes()
        )));
    }
    if let Some(extra) = cost.compaction_total {
        lines.push(Line::styled(
            format!(
                "+ about ${extra:.2} for {} (not in the log: estimated, not in the total)",
                cost.compaction_calls_words()
            ),
            t.dim,
        ));
    }
    if !cost.unpriced_models.is_empty() {
        lines.push(Line::styled(
            format!(
                "not priced (not in the table), their {} calls left out, so the session's total is unknown: {}",
                cost.calls.len() - cost.priced_calls(),
                cost.unpriced_models.join(", ")
            ),
            t.warning,
        ));
    }
    lines.push(Line::styled(
        "C: what each agent's policy would have cost on this session",
        t.dim,
    ));
    lines
}

/// Dollar labels for the y axis: 0, the middle and the top.
fn dollar_labels(max: f64) -> Vec<Line<'static>> {
    [0.0, max / 2.0, max]
        .iter()
        .map(|v| Line::raw(format!("${v:.2}")))
        .collect()
}

/// The cost chart.
pub fn render(frame: &mut Frame, area: Rect, app: &App) {
    let Some(session) = app.session() else {
        return loading(frame, area, app, "cost", Context::Cost);
    };
    let Some(cost) = session.core.cost().filter(|c| !c.calls.is_empty()) else {
        let text = vec![Line::raw(
            "this log records no usage per call, so there is nothing to price (Claude Code logs and Codex rollouts record it)",
        )];
        chart_frame(frame, area, app, TITLE, text, Context::Cost);
        return;
    };
    let t = app.theme();
    let lines: Vec<usize> = session.core.whole().compactions().iter().map(|c| c.line).collect();
    let s = CostSeries::of(cost, &lines);
    let mut plots = vec![
        Plot::line("per call", &s.total, t.tail),
        Plot::line("of it, cache writes", &s.writes, t.summarized),
        Plot::dots("cache written again", &s.rewrites, t.warning),
    ];
    plots.extend(s.compactions.chunks(2).enumerate().map(|(k, pair)| Plot {
        name: if k == 0 { "real compaction" } else { "" },
        data: pair,
        style: t.orphan,
        line: true,
    }));
    let mut text = summary(app, cost);
    text.push(legend(&plots));
    let chart_area = chart_frame(frame, area, app, TITLE, text, Context::Cost);
    let y = Axis::default()
        .title("dollars")
        .bounds([0.0, s.y_max])
        .labels(dollar_labels(s.y_max));
    frame.render_widget(
        chart(&plots, ("call", s.x_max), ("dollars".to_owned(), s.y_max)).y_axis(y),
        chart_area,
    );
}
