//! The ledger overlay's text (`L`): the standing instructions the user gave in this
//! session (rules, constraints, preferences), each with where it was given and what each
//! of the session's compactions did with it — `ctxlens ledger FILE`'s answer, as lines.
//! The overlay draws them and the App pages through them, so both read them here.

use ratatui::text::{Line, Span};

use super::theme::Theme;
use crate::ledger::Ledger;
use crate::loss::TurnStatus;
use crate::text::count_of;

/// The ledger as lines: a heading, then per instruction its fate and words, where it was
/// given, and one mark per compaction (✓ kept or restated, ✗ lost).
pub fn lines(ledger: &Ledger, t: &Theme) -> Vec<Line<'static>> {
    let lost_once = ledger.entries.iter().filter(|e| e.lost > 0).count();
    let mut out = vec![
        Line::raw(format!(
            "{} · {} ({lost_once} lost at least once) — as `ctxlens ledger FILE` lists them",
            count_of(ledger.compaction_count as u64, "compaction", "compactions"),
            count_of(
                ledger.entries.len() as u64,
                "standing instruction",
                "standing instructions"
            ),
        )),
        Line::styled(
            "`ctxlens ledger FILE --emit-hook claude-code` hands them back to the agent after each compaction",
            t.dim,
        ),
        Line::raw(""),
    ];
    if ledger.entries.is_empty() {
        out.push(Line::styled(
            "no standing instruction (a rule, a constraint, a preference) in the user's turns",
            t.dim,
        ));
    }
    for entry in &ledger.entries {
        let seen = entry.compactions.len();
        let (fate, style) = match (seen, entry.lost) {
            (0, _) => ("never compacted".to_owned(), t.dim),
            (_, 0) => (format!("kept {seen}/{seen}"), t.tail),
            (_, lost) => (format!("lost {lost}/{seen}"), t.warning),
        };
        let pin = if entry.pinned { " (pinned)" } else { "" };
        out.push(Line::from(vec![
            Span::styled(format!("{fate:<16}"), style),
            Span::raw(format!("{}{pin}", crate::text::one_line(&entry.text, 300))),
        ]));
        let mut detail = vec![Span::styled(format!("{:<16}given at {}", "", entry.given_at()), t.dim)];
        if seen > 0 {
            detail.push(Span::styled(" · compactions ", t.dim));
            for fate in &entry.compactions {
                let (mark, style) = match fate.status {
                    TurnStatus::Lost => ("✗", t.warning),
                    _ => ("✓", t.tail),
                };
                detail.push(Span::styled(mark, style));
            }
        }
        out.push(Line::from(detail));
    }
    out
}
