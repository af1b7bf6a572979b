//! The budget bar: `max_tokens` and `keep_tail` with their gauges, what the compactor
//! would do, and the plan's warnings (or the progress of a background count).
//!
//! Each line is a list of parts with priorities: on a narrow terminal the least
//! important parts are left out first, so the key figures (the budget, the tokens after
//! compaction) always show.

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
    let title = format!(
        " ctxlens · {} · {} ",
        app.transcript().source(),
        app.transcript().format()
    );
    let width = usize::from(area.width.saturating_sub(2));
    let mut block = Block::bordered().title(Line::styled(title, t.accent));
    // A followed file's context meter sits on the frame's lower edge: always in view,
    // whatever the three lines say.
    if let Some(meter) = app.meter() {
        block = block.title_bottom(fit(meter_parts(app, meter), width.saturating_sub(2)));
    }
    let gauge_width = if width < 90 { GAUGE / 2 } else { GAUGE };
    let lines = vec![
        fit(max_line(app, gauge_width), width),
        fit(keep_line(app, gauge_width), width),
        fit(third_line(app, width), width),
    ];
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// How much a part of a line matters: 0 always shows; higher numbers go first.
type Part = (u8, Vec<Span<'static>>);

/// The parts that fit in `width` cells, in their order: the least important are left
/// out until the rest fits, then any left out that still fits is put back, most
/// important first.
fn fit(parts: Vec<Part>, width: usize) -> Line<'static> {
    let cells = |spans: &[Span]| -> usize { spans.iter().map(|s| crate::text::width(&s.content)).sum() };
    let sizes: Vec<usize> = parts.iter().map(|(_, spans)| cells(spans)).collect();
    let mut kept = vec![true; parts.len()];
    let used = |kept: &[bool]| -> usize { sizes.iter().zip(kept).filter(|(_, k)| **k).map(|(s, _)| s).sum() };
    let mut by_importance: Vec<usize> = (0..parts.len()).filter(|&k| parts[k].0 > 0).collect();
    by_importance.sort_by_key(|&k| (parts[k].0, k));
    for &k in by_importance.iter().rev() {
        if used(&kept) <= width {
            break;
        }
        kept[k] = false;
    }
    for &k in &by_importance {
        if !kept[k] && used(&kept) + sizes[k] <= width {
            kept[k] = true;
        }
    }
    Line::from(
        parts
            .into_iter()
            .zip(kept)
            .filter(|(_, k)| *k)
            .flat_map(|((_, spans), _)| spans)
            .collect::<Vec<_>>(),
    )
}

fn gauge<'a>(app: &App, value: u64, max: u64, width: usize) -> Vec<Span<'a>> {
    let style = if value > max {
        app.theme().gauge_over
    } else {
        app.theme().gauge_ok
    };
    let (filled, empty) = gauge_cells(value, max, width);
    vec![
        Span::styled(filled, style),
        Span::styled(empty, app.theme().dim),
        Span::raw(" "),
    ]
}

fn max_line(app: &App, gauge_width: usize) -> Vec<Part> {
    let t = &app.theme();
    // The transcript's own total; the deterministic strategies say what is left after.
    let total = app.counts().total();
    let max = app.options().max_tokens;
    let mut parts: Vec<Part> = vec![
        (0, vec![Span::raw(format!("max_tokens {:>9} ", thousands(max)))]),
        (3, gauge(app, total, max, gauge_width)),
        (1, vec![Span::raw(format!("total {} ", thousands(total)))]),
    ];
    if let Some(c) = app.calibration() {
        parts.push((
            2,
            vec![Span::styled(
                format!(
                    "(billed ≈ {}: +{} not in the log) ",
                    thousands(c.predict(total)),
                    thousands(c.overhead)
                ),
                t.dim,
            )],
        ));
    }
    if let (true, Some(d)) = (app.strategy().cuts_a_tail(), app.deterministic()) {
        parts.push((
            1,
            vec![Span::styled(
                format!("(→ {} after deterministic) ", thousands(d.compressed.tokens_after)),
                t.edited,
            )],
        ));
    }
    if app.default_max() {
        parts.push((5, vec![Span::styled("(default: 60%) ", t.dim)]));
    }
    parts.push((
        2,
        vec![
            Span::styled("· strategy ", t.dim),
            Span::styled(app.strategy().name(), t.accent),
            Span::raw(" "),
        ],
    ));
    parts.push((
        3,
        vec![
            Span::styled("· tokenizer ", t.dim),
            Span::styled(app.tokenizer().name(), t.accent),
            Span::raw(" "),
        ],
    ));
    parts.push((
        4,
        vec![
            Span::styled("· flush ", t.dim),
            Span::raw(if app.options().flush_to_memory { "on " } else { "off " }),
        ],
    ));
    if app.settings().summary_role != crate::compact::SummaryRole::System {
        parts.push((
            3,
            vec![
                Span::styled("· summary as ", t.dim),
                Span::raw(app.settings().summary_role.name()),
            ],
        ));
    }
    parts
}

fn keep_line(app: &App, gauge_width: usize) -> Vec<Part> {
    let t = &app.theme();
    let keep = app.keep_tail();
    let default = if app.options().keep_tail.is_none() {
        " (½ max)"
    } else {
        ""
    };
    let cap = app.options().max_tokens;
    if let (false, Some(d)) = (app.strategy().cuts_a_tail(), app.deterministic()) {
        let c = &d.compressed;
        return vec![
            (0, vec![Span::raw(format!("cap        {:>9} ", thousands(cap)))]),
            (3, gauge(app, c.tokens_after, cap, gauge_width)),
            (
                0,
                vec![
                    Span::styled("deterministic → ", t.dim),
                    Span::styled(thousands(c.tokens_after), t.accent),
                    Span::raw(" tokens "),
                ],
            ),
            (
                1,
                vec![Span::raw(format!(
                    "· {} edits · {} externalized ",
                    c.edits.len(),
                    c.artifacts.len()
                ))],
            ),
            (
                0,
                vec![Span::raw(if c.tokens_after <= cap {
                    "· cap met"
                } else {
                    "· cap not met"
                })],
            ),
        ];
    }
    if !app.strategy().cuts_a_tail() {
        // The pass is still running (the branch above shows it once made).
        return vec![
            (0, vec![Span::raw(format!("cap        {:>9} ", thousands(cap)))]),
            (0, vec![Span::styled("waiting for the deterministic pass", t.dim)]),
        ];
    }
    let mut parts: Vec<Part> = vec![(0, vec![Span::raw(format!("keep_tail  {:>9} ", thousands(keep)))])];
    if let Some(d) = app.deterministic() {
        parts.push((
            4,
            vec![Span::styled(
                format!(
                    "[after {} deterministic edits] ",
                    thousands(d.compressed.edits.len() as u64)
                ),
                t.edited,
            )],
        ));
    }
    if let Some(cut) = app.planned().cut() {
        parts.push((3, gauge(app, cut.tail_tokens, keep, gauge_width)));
        parts.push((
            2,
            vec![Span::raw(format!("tail {}{default} ", thousands(cut.tail_tokens)))],
        ));
        parts.push((
            0,
            vec![
                Span::styled("→ after ", t.dim),
                Span::styled(thousands(app.tokens_after()), t.accent),
                Span::raw(" tokens "),
            ],
        ));
        parts.push((
            1,
            vec![Span::raw(format!(
                "· {} messages summarized ({} tokens)",
                thousands(cut.summarized() as u64),
                thousands(cut.summarized_tokens)
            ))],
        ));
    } else {
        parts.push((3, gauge(app, 0, keep.max(1), gauge_width)));
        parts.push((4, vec![Span::raw(format!("{default} "))]));
        let why = if app.planned().tokens <= cap {
            format!(
                "no-op: under budget ({} ≤ {})",
                thousands(app.planned().tokens),
                thousands(cap)
            )
        } else {
            "no-op: nothing but the head to summarize".to_owned()
        };
        parts.push((0, vec![Span::styled(why, t.tail)]));
    }
    parts
}

fn third_line(app: &App, width: usize) -> Vec<Part> {
    let t = &app.theme();
    if let Some(c) = app.counting() {
        let percent = (c.done * 100).checked_div(c.total).unwrap_or(100);
        let (filled, empty) = gauge_cells(c.done as u64, c.total as u64, GAUGE);
        return vec![
            (
                0,
                vec![Span::styled(
                    format!("{} counting {}… ", app.spinner(), c.tokenizer),
                    t.warning,
                )],
            ),
            (0, vec![Span::styled(filled, t.gauge_ok), Span::styled(empty, t.dim)]),
            (0, vec![Span::raw(format!(" {percent}%"))]),
            (
                1,
                vec![Span::raw(format!(" · showing {} until it finishes", app.tokenizer()))],
            ),
        ];
    }
    if app.deriving() {
        return vec![
            (
                0,
                vec![Span::styled(
                    format!("{} running the deterministic pass…", app.spinner()),
                    t.warning,
                )],
            ),
            (
                1,
                vec![Span::styled(" (the transcript's own counts meanwhile)", t.warning)],
            ),
        ];
    }
    let gap = app.provider_gap().map(|gap| {
        format!(
            "{} counts {}, the provider bills ≈{} ({:+.0}%, images): t picks its counts",
            app.tokenizer(),
            thousands(gap.counted),
            thousands(gap.provider),
            gap.percent()
        )
    });
    if app.warnings().is_empty() && gap.is_none() {
        let state = match (app.summary_text(), app.summary().as_ref()) {
            _ if app.summarizing() => (format!("{} summarizing…", app.spinner()), String::new()),
            (Some(text), Some(s)) => {
                let edited = if s.edited { ", edited" } else { "" };
                (
                    format!(
                        "summary ready (≈ {} tokens{edited})",
                        thousands((text.chars().count() as u64).div_ceil(4))
                    ),
                    String::new(),
                )
            }
            _ if app.planned().compacts() => (
                "summary made on p, e or l".to_owned(),
                " (after uses the placeholder until then)".to_owned(),
            ),
            _ => ("nothing to summarize".to_owned(), String::new()),
        };
        let (state, why) = state;
        return vec![
            (0, vec![Span::styled("no warnings", t.dim)]),
            (
                2,
                vec![
                    Span::styled(" · summarizer ", t.dim),
                    Span::styled(app.summarizer().to_string(), t.accent),
                ],
            ),
            (1, vec![Span::styled(format!(" · {state}"), t.dim)]),
            (3, vec![Span::styled(why, t.dim)]),
            (1, recorded_cost(app)),
        ];
    }
    let text = gap
        .into_iter()
        .chain(app.warnings().iter().map(|w| match w {
            // The screen names its key, not the command line's flag.
            crate::compact::Warning::SystemInsideAnthropicMessages => {
                "Anthropic: a role:\"system\" summary inside `messages` is rejected by the API (r makes it a user message)"
                    .to_owned()
            }
            other => other.to_string(),
        }))
        .collect::<Vec<_>>()
        .join(" · ");
    // Warnings are the line's point: cut at a word, with an ellipsis, when too long.
    let text = crate::text::cut_at_word(&text, width.saturating_sub(2));
    vec![(0, vec![Span::styled("⚠ ", t.warning), Span::styled(text, t.warning)])]
}

/// What the log's calls cost, once the whole session is known (any of the lifetime
/// views builds it; `$` draws it call by call).
fn recorded_cost(app: &App) -> Vec<Span<'static>> {
    let total = app
        .session()
        .and_then(|s| s.core.cost())
        .and_then(crate::cost::SessionCost::complete_total);
    total.map_or_else(Vec::new, |total| {
        vec![
            Span::styled(" · recorded ", app.theme().dim),
            Span::styled(format!("${total:.2}"), app.theme().accent),
            Span::styled(" ($)", app.theme().dim),
        ]
    })
}

/// The context meter of a followed file: how full its context is and how far its agent's
/// next compaction (the most important figures first when the line is narrow).
fn meter_parts(app: &App, meter: &crate::meter::Meter) -> Vec<Part> {
    let t = &app.theme();
    let calls = meter
        .calls
        .filter(|_| meter.compacts && meter.threshold_from != crate::meter::UNPUBLISHED_THRESHOLD)
        .map(|c| {
            format!(
                " · about {} at this session's recent rate",
                crate::text::count_of(c, "call", "calls")
            )
        })
        .unwrap_or_default();
    let state = if !meter.compacts {
        "no automatic compaction (the window is the limit)".to_owned()
    } else if meter.threshold_from == crate::meter::UNPUBLISHED_THRESHOLD {
        "compacts on its own at a threshold it does not publish".to_owned()
    } else if meter.left == 0 {
        format!("past its auto-compact point ({})", thousands(meter.threshold))
    } else {
        format!("auto-compact in ≈{} tokens", thousands(meter.left))
    };
    vec![
        (0, vec![Span::styled(" ● live ", t.accent)]),
        (
            0,
            vec![Span::raw(format!(
                "{}% of {}{} · ",
                meter.pct,
                crate::text::short_count(meter.window),
                if meter.window_from == crate::meter::ASSUMED_WINDOW {
                    " (window assumed)"
                } else {
                    ""
                }
            ))],
        ),
        (
            0,
            vec![Span::styled(state, if meter.left == 0 { t.warning } else { t.dim })],
        ),
        (1, vec![Span::styled(calls, t.dim)]),
        (2, vec![Span::styled(format!(" · {} ", meter.tokens_from), t.dim)]),
    ]
}
