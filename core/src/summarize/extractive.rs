//! `extractive`: an offline, deterministic digest of the older messages, bounded by
//! `--summary-tokens`: the user's requests, the assistant's answers and decisions, the
//! tool calls made (name and key arguments), errors met, and the facts mentioned (paths,
//! URLs, ids, numbers, names in code). Sections are filled in priority order until the
//! budget (estimated as characters / 4) is spent.

use super::{Older, Summarizer};
use crate::cancel::CancelToken;
use crate::loss::extract_facts;
use crate::text::truncate;

/// The extractive summarizer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extractive {
    /// Token bound of the summary.
    pub summary_tokens: u64,
}

const LINE_CHARS: usize = 160;

fn first_line(text: &str, max: usize) -> String {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or_default();
    truncate(&line.split_whitespace().collect::<Vec<_>>().join(" "), max).into_owned()
}

fn is_error_line(line: &str) -> bool {
    let lower = line.to_lowercase();
    [
        "error",
        "failed",
        "exception",
        "traceback",
        "not_found",
        "denied",
        "panic",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

/// Lines of one section, collected up to a character budget.
struct Section {
    lines: Vec<String>,
    chars: usize,
    budget: usize,
}

impl Section {
    fn new(budget: usize) -> Section {
        Section {
            lines: Vec::new(),
            chars: 0,
            budget,
        }
    }

    fn full(&self) -> bool {
        self.chars > self.budget
    }

    fn push(&mut self, line: String) {
        if !self.full() {
            self.chars += line.chars().count() + 1;
            self.lines.push(line);
        }
    }
}

impl Summarizer for Extractive {
    fn summarize(&self, older: &[Older], cancel: &CancelToken) -> crate::Result<String> {
        let budget = (self.summary_tokens as usize).saturating_mul(4);
        // No section can use more than the whole budget, so each stops collecting once it
        // holds that much: a summary of 100,000 messages reads their facts and errors
        // only until it has enough of them.
        let mut requests = Section::new(budget);
        let mut answers = Section::new(budget);
        let mut calls = Section::new(budget);
        let mut errors = Section::new(budget);
        let mut facts: Vec<String> = Vec::new();
        let mut facts_chars = 0;
        let mut seen_facts = std::collections::HashSet::new();
        for (k, m) in older.iter().enumerate() {
            if k % 256 == 0 {
                cancel.check()?;
            }
            if m.human_turn {
                if !crate::loss::is_noise(&m.text) {
                    requests.push(format!("- #{} {}", m.index, first_line(&m.text, LINE_CHARS)));
                }
            } else if m.role == "assistant" && m.calls.is_empty() && !m.text.trim().is_empty() {
                answers.push(format!("- #{} {}", m.index, first_line(&m.text, LINE_CHARS)));
            }
            for (name, arguments) in &m.calls {
                calls.push(format!("- #{} {name}({})", m.index, truncate(arguments, 80)));
            }
            if !m.human_turn && !errors.full() {
                for line in m.text.lines().filter(|l| is_error_line(l)).take(2) {
                    let line = format!("- #{} {}", m.index, first_line(line, LINE_CHARS));
                    if !errors.lines.contains(&line) {
                        errors.push(line);
                    }
                }
            }
            if facts_chars <= budget {
                let prose = m.calls.is_empty() && matches!(m.role, "user" | "assistant");
                for fact in extract_facts(m.index, &m.text, prose) {
                    if seen_facts.insert(fact.text.clone()) {
                        facts_chars += fact.text.chars().count() + 2;
                        facts.push(fact.text);
                    }
                }
            }
        }
        let (requests, answers, calls, errors) = (requests.lines, answers.lines, calls.lines, errors.lines);
        // Priority order: what was asked, the exact facts, what was done, what broke,
        // what was answered.
        let mut sections: Vec<(&str, Vec<String>)> = vec![
            ("User requests", requests),
            (
                "Mentioned",
                facts.chunks(12).map(|c| format!("- {}", c.join(", "))).collect(),
            ),
            ("Tool calls", calls),
            ("Errors met", errors),
            ("Answers and decisions", answers),
        ];
        let mut used = 0;
        let mut kept: Vec<(&str, Vec<String>)> = Vec::new();
        for (title, lines) in &mut sections {
            let mut taken = Vec::new();
            for line in lines.drain(..) {
                let cost = line.chars().count() + 1 + if taken.is_empty() { title.len() + 2 } else { 0 };
                if used + cost > budget {
                    break;
                }
                used += cost;
                taken.push(line);
            }
            if !taken.is_empty() {
                kept.push((title, taken));
            }
        }
        let mut parts = vec![format!("{} earlier messages.", older.len())];
        for (title, lines) in kept {
            parts.push(format!("{title}:\n{}", lines.join("\n")));
        }
        Ok(parts.join("\n"))
    }
}
