//! Facts: what a summary must keep for the agent not to forget — URLs, paths,
//! identifiers (UUIDs whole), numbers with units, error codes, names in code style, and
//! quoted strings said by a person or the assistant.

use std::ops::Range;

use rustc_hash::FxHashSet as HashSet;
use std::sync::LazyLock;

use regex::Regex;

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

    /// Its heading in the loss report.
    pub fn plural(self) -> &'static str {
        match self {
            FactKind::Url => "URLs",
            FactKind::Path => "paths",
            FactKind::Identifier => "identifiers",
            FactKind::Number => "numbers",
            FactKind::ErrorCode => "error codes",
            FactKind::CodeName => "names in code",
            FactKind::Quoted => "quoted strings",
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

/// A fact pattern. Word boundaries are ASCII (`(?-u:\b)`): the patterns only match ASCII
/// words anyway, and a Unicode `\b` keeps the regex engine off its fast DFA on any text
/// with a non-ASCII character (ten times slower on real transcripts).
fn re(pattern: &str) -> Regex {
    Regex::new(&pattern.replace(r"\b", r"(?-u:\b)")).expect("the fact patterns are valid")
}

/// The fact patterns, compiled once.
#[derive(Clone)]
struct Patterns {
    url: Regex,
    path: Regex,
    ident: Regex,
    number: Regex,
    error_code: Regex,
    backticked: Regex,
    code_name: Regex,
    quoted: Regex,
}

static PATTERNS: LazyLock<Patterns> = LazyLock::new(|| Patterns {
    url: re(r#"https?://[^\s"'<>()\[\]{}`]+"#),
    path: re(r"(?:~|\.{1,2})?/?(?:[A-Za-z0-9_.-]+/)+[A-Za-z0-9_.-]+"),
    ident: re(
        r"\b(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[A-Z]{2,}[A-Z0-9]*-\d{2,}|[a-z][a-z0-9]*(?:-[a-z0-9]+)*-\d+|[0-9a-f]{12,40}|[0-9A-Z]*\d[0-9A-Z]*[A-Z][0-9A-Z]{6,}|#\d{2,})\b",
    ),
    number: re(
        r"(?:[$€£]\d+(?:[.,]\d+)?|\b\d+(?:[.,]\d+)?\s?(?:ms|s|sec|seconds|minutes|min|hours|h|days|KB|MB|GB|TB|KiB|MiB|GiB|bytes|tokens|%|px|USD|EUR)\b)",
    ),
    error_code: re(r"\b(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|E[A-Z]{3,}|E\d{4}|HTTP \d{3}|exit code -?\d+)\b"),
    backticked: re(r"`[^`\n]{2,60}`"),
    code_name: re(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z]+[A-Z][A-Za-z0-9]{2,}\b"),
    quoted: re(r#""[^"\n]{3,60}""#),
});

thread_local! {
    /// Each thread's own copy: a regex keeps its scratch space in a pool that is fast
    /// only for the thread that first used it, and the loss report searches every
    /// message on every worker thread.
    static LOCAL_PATTERNS: Patterns = PATTERNS.clone();
}

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
    fact_spans(text, prose)
        .into_iter()
        .map(|(range, kind)| Fact {
            text: text[range].to_owned(),
            kind,
            message: index,
        })
        .collect()
}

/// The facts of [`extract_facts`] as byte ranges of `text` with their kind: nothing is
/// copied, so a caller that keeps only facts it has not seen yet copies only those.
pub fn fact_spans(text: &str, prose: bool) -> Vec<(Range<usize>, FactKind)> {
    LOCAL_PATTERNS.with(|patterns| spans_with(patterns, text, prose))
}

fn spans_with(p: &Patterns, text: &str, prose: bool) -> Vec<(Range<usize>, FactKind)> {
    // `at` is where the fact starts in `text`; trimming only shortens its end.
    let mut found: Vec<(Range<usize>, FactKind)> = Vec::new();
    let mut push = |at: usize, s: &str, kind: FactKind| {
        let s = s.trim_end_matches(['.', ',', ';', ':', ')', '\'']);
        if s.len() >= 2 {
            found.push((at..at + s.len(), kind));
        }
    };
    let mut urls: Vec<(usize, usize)> = Vec::new();
    for m in p.url.find_iter(text) {
        urls.push((m.start(), m.end()));
        push(m.start(), m.as_str(), FactKind::Url);
    }
    let in_url = |at: usize| urls.iter().any(|&(a, b)| at >= a && at < b);
    for m in p.path.find_iter(text).filter(|m| !in_url(m.start())) {
        let (at, p) = (m.start(), m.as_str());
        let last = p.rsplit('/').next().unwrap_or_default();
        let looks_like_path = p.starts_with(['/', '~', '.']) || last.contains('.') || p.matches('/').count() >= 2;
        if looks_like_path && p.chars().any(char::is_alphabetic) {
            push(at, p, FactKind::Path);
        }
    }
    for (regex, kind) in [
        (&p.ident, FactKind::Identifier),
        (&p.number, FactKind::Number),
        (&p.error_code, FactKind::ErrorCode),
    ] {
        for m in regex
            .find_iter(text)
            .filter(|m| !in_url(m.start()) && !SHOUTED_WORDS.contains(&m.as_str()))
        {
            push(m.start(), m.as_str(), kind);
        }
    }
    let mut backticked: Vec<(usize, usize)> = Vec::new();
    for m in p.backticked.find_iter(text).filter(|m| !in_url(m.start())) {
        backticked.push((m.start(), m.end()));
        push(m.start() + 1, &m.as_str()[1..m.len() - 1], FactKind::CodeName);
    }
    let in_backticks = |at: usize| backticked.iter().any(|&(a, b)| at >= a && at < b);
    for m in p.code_name.find_iter(text) {
        // A bare name right before `":` is a JSON key, not something anyone said.
        let json_key = text[m.end()..].starts_with("\":");
        if !in_url(m.start()) && !in_backticks(m.start()) && !json_key {
            push(m.start(), m.as_str(), FactKind::CodeName);
        }
    }
    if prose {
        for m in p.quoted.find_iter(text) {
            push(m.start() + 1, &m.as_str()[1..m.len() - 1], FactKind::Quoted);
        }
    }
    // In order of appearance (stable: at one place, the order the kinds were searched).
    found.sort_by_key(|(range, _)| range.start);
    let mut seen = HashSet::default();
    found.retain(|(range, _)| seen.insert(&text[range.clone()]));
    found
}
