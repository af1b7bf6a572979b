//! The loss report: the facts that were in the summarized messages (paths, URLs,
//! identifiers, numbers with units, quoted strings, error codes, names in code style),
//! each with the message it came from and whether it survives in the summary, in the
//! kept messages, or nowhere; and the user instructions that were summarized away.
//! That is the answer to "why did my agent lose context".

use std::collections::HashSet;
use std::fmt;
use std::sync::LazyLock;

use regex::Regex;

use crate::transcript::Transcript;

/// What kind of fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FactKind {
    /// `https://…`
    Url,
    /// `src/main.rs`, `/etc/hosts`
    Path,
    /// `NW-48213`, UUIDs, long hex or alphanumeric ids
    Identifier,
    /// `12ms`, `$24.95`, `3.5 GB`
    Number,
    /// `NOT_FOUND`, `ENOENT`, `E0382`, `HTTP 500`, `exit code 2`
    ErrorCode,
    /// `` `fetch_user` ``, `snake_case`, `camelCase`
    CodeName,
    /// `"a quoted string"` said by the user or the assistant
    Quoted,
}

impl FactKind {
    /// Short name for the report.
    pub fn name(self) -> &'static str {
        match self {
            FactKind::Url => "url",
            FactKind::Path => "path",
            FactKind::Identifier => "id",
            FactKind::Number => "number",
            FactKind::ErrorCode => "error",
            FactKind::CodeName => "code",
            FactKind::Quoted => "quote",
        }
    }
}

/// One fact found in a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    /// The fact as written.
    pub text: String,
    /// Its kind.
    pub kind: FactKind,
    /// The message it was first found in.
    pub message: usize,
}

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("the fact patterns are valid")
}

static URL: LazyLock<Regex> = LazyLock::new(|| re(r#"https?://[^\s"'<>()\[\]{}`]+"#));
static PATH: LazyLock<Regex> = LazyLock::new(|| re(r"(?:~|\.{1,2})?/?(?:[A-Za-z0-9_.-]+/)+[A-Za-z0-9_.-]+"));
static IDENT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:[A-Z]{2,}[A-Z0-9]*-\d{2,}|[a-z][a-z0-9]*(?:-[a-z0-9]+)*-\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{12,40}|[0-9A-Z]*\d[0-9A-Z]*[A-Z][0-9A-Z]{6,}|#\d{2,})\b",
    )
});
static NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:[$€£]\d+(?:[.,]\d+)?|\b\d+(?:[.,]\d+)?\s?(?:ms|s|sec|seconds|minutes|min|hours|h|days|KB|MB|GB|TB|KiB|MiB|GiB|bytes|tokens|%|px|USD|EUR)\b)",
    )
});
static ERROR_CODE: LazyLock<Regex> =
    LazyLock::new(|| re(r"\b(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|E[A-Z]{3,}|E\d{4}|HTTP \d{3}|exit code -?\d+)\b"));
static CODE: LazyLock<Regex> =
    LazyLock::new(|| re(r"`([^`\n]{2,60})`|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z]+[A-Z][A-Za-z0-9]{2,}\b"));
static QUOTED: LazyLock<Regex> = LazyLock::new(|| re(r#""([^"\n]{3,60})""#));

/// Capitalised words that look like errno names (`E…`) but are just words.
const SHOUTED_WORDS: &[&str] = &[
    "ERROR",
    "ERRORS",
    "EXCEPTION",
    "EXIT",
    "EXPECTED",
    "EMPTY",
    "EVENT",
    "ENTER",
    "ENABLED",
    "EXAMPLE",
];

/// The facts in `text` (message `index`), in order of appearance, each once. Quoted
/// strings are only taken from what a person or the assistant said (`prose`), where
/// quotes are not JSON syntax.
pub fn extract_facts(index: usize, text: &str, prose: bool) -> Vec<Fact> {
    let mut found: Vec<(usize, Fact)> = Vec::new();
    let mut push = |at: usize, s: &str, kind: FactKind| {
        let s = s.trim_end_matches(['.', ',', ';', ':', ')', '\'']);
        if s.len() >= 2 {
            found.push((
                at,
                Fact {
                    text: s.to_owned(),
                    kind,
                    message: index,
                },
            ));
        }
    };
    let mut urls: Vec<(usize, usize)> = Vec::new();
    for m in URL.find_iter(text) {
        urls.push((m.start(), m.end()));
        push(m.start(), m.as_str(), FactKind::Url);
    }
    let in_url = |at: usize| urls.iter().any(|&(a, b)| at >= a && at < b);
    for m in PATH.find_iter(text).filter(|m| !in_url(m.start())) {
        let p = m.as_str();
        let last = p.rsplit('/').next().unwrap_or_default();
        let looks_like_path = p.starts_with(['/', '~', '.']) || last.contains('.') || p.matches('/').count() >= 2;
        if looks_like_path && p.chars().any(char::is_alphabetic) {
            push(m.start(), p, FactKind::Path);
        }
    }
    for (regex, kind) in [
        (&*IDENT, FactKind::Identifier),
        (&*NUMBER, FactKind::Number),
        (&*ERROR_CODE, FactKind::ErrorCode),
    ] {
        for m in regex
            .find_iter(text)
            .filter(|m| !in_url(m.start()) && !SHOUTED_WORDS.contains(&m.as_str()))
        {
            push(m.start(), m.as_str(), kind);
        }
    }
    for c in CODE.captures_iter(text) {
        let backticked = c.get(1);
        let m = backticked.or_else(|| c.get(0)).expect("a match has group 0");
        // A bare name right before `":` is a JSON key, not something anyone said.
        let json_key = backticked.is_none() && text[m.end()..].starts_with("\":");
        if !in_url(m.start()) && !json_key {
            push(m.start(), m.as_str(), FactKind::CodeName);
        }
    }
    if prose {
        for c in QUOTED.captures_iter(text) {
            let m = c.get(1).expect("the quote pattern has one group");
            push(m.start(), m.as_str(), FactKind::Quoted);
        }
    }
    found.sort_by_key(|(at, _)| *at);
    let mut seen = HashSet::new();
    found
        .into_iter()
        .map(|(_, f)| f)
        .filter(|f| seen.insert(f.text.clone()))
        .collect()
}

/// Where a fact ended up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Survival {
    /// The summary mentions it.
    Summary,
    /// A kept message (head or tail) mentions it.
    Kept,
    /// Gone.
    Lost,
}

/// The loss report of one firing.
#[derive(Debug, Clone, PartialEq)]
pub struct LossReport {
    /// Messages summarized (first, one past the last).
    pub summarized: (usize, usize),
    /// Every fact of the summarized messages, once, with where it survives.
    pub facts: Vec<(Fact, Survival)>,
    /// Human turns summarized away: (message, first line).
    pub instructions: Vec<(usize, String)>,
    /// Those whose words neither the summary nor a kept message repeats.
    pub instructions_lost: Vec<(usize, String)>,
    /// Tokens of the summary text (estimate).
    pub summary_tokens: u64,
}

impl LossReport {
    /// Facts that survive (summary or kept), in percent of all facts (100 with none).
    pub fn survival_percent(&self) -> f64 {
        if self.facts.is_empty() {
            return 100.0;
        }
        let kept = self.facts.iter().filter(|(_, s)| *s != Survival::Lost).count();
        (kept as f64 * 1000.0 / self.facts.len() as f64).round() / 10.0
    }

    /// How many facts ended up in `where_`.
    pub fn count(&self, where_: Survival) -> usize {
        self.facts.iter().filter(|(_, s)| *s == where_).count()
    }
}

/// How many characters of an instruction's first line a summary (or a later message)
/// must repeat for the instruction to count as kept.
const INSTRUCTION_WORDS: usize = 40;

/// Text with every run of whitespace made one space (summaries write a request on one
/// line).
fn collapse_spaces(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The words of an instruction that a summary must repeat for it to count as kept: the
/// first characters of its first line, spaces collapsed.
pub fn instruction_words(first_line: &str) -> String {
    collapse_spaces(first_line).chars().take(INSTRUCTION_WORDS).collect()
}

/// The report for summarizing the messages `summarized` of `transcript` into `summary`
/// (the messages before and after are kept).
pub fn loss_report(transcript: &Transcript, summarized: std::ops::Range<usize>, summary: &str) -> LossReport {
    let len = transcript.messages.len();
    let kept = [0..summarized.start, summarized.end..len];
    loss_report_kept(transcript, summarized, summary, &kept)
}

/// The report for summarizing `summarized` into `summary` when only the messages
/// `kept` remain beside it (a real compaction: what came after it).
pub fn loss_report_kept(
    transcript: &Transcript,
    summarized: std::ops::Range<usize>,
    summary: &str,
    kept: &[std::ops::Range<usize>],
) -> LossReport {
    let (head_end, split) = (summarized.start, summarized.end);
    let kept: String = kept
        .iter()
        .flat_map(Clone::clone)
        .map(|i| transcript.readable_text(i))
        .collect::<Vec<_>>()
        .join("\n");
    let kept_words = collapse_spaces(&kept);
    let summary_words = collapse_spaces(summary);
    let mut seen = HashSet::new();
    let mut facts = Vec::new();
    let mut instructions = Vec::new();
    for index in head_end..split {
        let message = &transcript.messages[index];
        let text = transcript.readable_text(index);
        let prose = message.tool_results.is_empty()
            && message.tool_calls.is_empty()
            && matches!(message.role.as_str(), "user" | "assistant");
        if message.boundary {
            let first: String = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or_default()
                .chars()
                .take(160)
                .collect();
            instructions.push((index, first));
        }
        for fact in extract_facts(index, &text, prose) {
            if seen.insert(fact.text.clone()) {
                let survival = if summary.contains(&fact.text) {
                    Survival::Summary
                } else if kept.contains(&fact.text) {
                    Survival::Kept
                } else {
                    Survival::Lost
                };
                facts.push((fact, survival));
            }
        }
    }
    let instructions_lost = instructions
        .iter()
        .filter(|(_, first)| {
            let words = instruction_words(first);
            words.is_empty() || !(summary_words.contains(&words) || kept_words.contains(&words))
        })
        .cloned()
        .collect();
    LossReport {
        summarized: (head_end, split),
        facts,
        instructions,
        instructions_lost,
        summary_tokens: (summary.chars().count() as u64).div_ceil(4),
    }
}

impl fmt::Display for LossReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = self.summarized;
        writeln!(
            f,
            "Loss report: {} messages summarized (#{a}–#{}), summary ≈ {} tokens",
            b - a,
            b.saturating_sub(1),
            self.summary_tokens
        )?;
        writeln!(
            f,
            "Facts: {} found, {} survive ({}%): {} in the summary, {} in kept messages, {} lost",
            self.facts.len(),
            self.facts.len() - self.count(Survival::Lost),
            self.survival_percent(),
            self.count(Survival::Summary),
            self.count(Survival::Kept),
            self.count(Survival::Lost)
        )?;
        if self.count(Survival::Lost) > 0 {
            writeln!(f, "\nLost (in no summary and no kept message):")?;
            for (fact, _) in self.facts.iter().filter(|(_, s)| *s == Survival::Lost) {
                writeln!(f, "  #{:<6} {:<7} {}", fact.message, fact.kind.name(), fact.text)?;
            }
        }
        if !self.instructions.is_empty() {
            writeln!(f, "\nUser instructions summarized away:")?;
            for (index, first) in &self.instructions {
                writeln!(f, "  #{index:<6} {first}")?;
            }
        }
        Ok(())
    }
}
