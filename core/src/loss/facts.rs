//! Facts: what a summary must keep for the agent not to forget — URLs, paths,
//! identifiers (UUIDs whole), numbers with units, error codes, names in code style, and
//! quoted strings said by a person or the assistant.

use std::ops::Range;

use rustc_hash::FxHashSet as HashSet;
use std::sync::LazyLock;

use regex_automata::meta::Regex;

use super::text_masks::TextMasks;
use super::windows;

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
/// with a non-ASCII character (ten times slower on real transcripts). Digits are ASCII
/// (`[0-9]`) for the same reason, and so that [`windows`] can find them byte by byte.
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
        r"\b(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[A-Z]{2,}[A-Z0-9]*-[0-9]{2,}|[a-z][a-z0-9]*(?:-[a-z0-9]+)*-[0-9]+|[0-9a-f]{12,40}|[0-9A-Z]*[0-9][0-9A-Z]*[A-Z][0-9A-Z]{6,}|#[0-9]{2,})\b",
    ),
    number: re(
        r"(?:[$€£][0-9]+(?:[.,][0-9]+)?|\b[0-9]+(?:[.,][0-9]+)?\s?(?:ms|s|sec|seconds|minutes|min|hours|h|days|KB|MB|GB|TB|KiB|MiB|GiB|bytes|tokens|%|px|USD|EUR)\b)",
    ),
    error_code: re(r"\b(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|E[A-Z]{3,}|E[0-9]{4}|HTTP [0-9]{3}|exit code -?[0-9]+)\b"),
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

/// How the patterns without a literal are searched.
#[derive(Clone, Copy)]
enum Search {
    /// Only inside the [`windows`] that can hold a match.
    Windows,
    /// Over the whole text (what `Windows` must equal; the tests compare the two).
    #[cfg(test)]
    Whole,
}

impl Search {
    /// The matches of `regex` in `text`, as (start, end); `windows` names where a match
    /// can be.
    fn find(self, regex: &Regex, text: &str, masks: &TextMasks, windows: windows::WindowsOf) -> Vec<(usize, usize)> {
        match self {
            Search::Windows => windows::find_in(regex, text, &windows(text, masks)),
            #[cfg(test)]
            Search::Whole => whole(regex, text),
        }
    }
}

/// Every match of `regex` in `text`, as (start, end).
fn whole(regex: &Regex, text: &str) -> Vec<(usize, usize)> {
    regex.find_iter(text).map(|m| (m.start(), m.end())).collect()
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
    LOCAL_PATTERNS.with(|patterns| spans_with(patterns, text, prose, Search::Windows))
}

fn spans_with(p: &Patterns, text: &str, prose: bool, search: Search) -> Vec<(Range<usize>, FactKind)> {
    // `at` is where the fact starts in `text`; trimming only shortens its end.
    let mut found: Vec<(Range<usize>, FactKind)> = Vec::new();
    let mut push = |at: usize, s: &str, kind: FactKind| {
        let s = s.trim_end_matches(['.', ',', ';', ':', ')', '\'']);
        if s.len() >= 2 {
            found.push((at..at + s.len(), kind));
        }
    };
    let urls = whole(&p.url, text);
    for &(a, b) in &urls {
        push(a, &text[a..b], FactKind::Url);
    }
    let in_url = |at: usize| urls.iter().any(|&(a, b)| at >= a && at < b);
    let masks = TextMasks::of(text);
    for (at, end) in search.find(&p.path, text, &masks, windows::paths) {
        if in_url(at) {
            continue;
        }
        let p = &text[at..end];
        let last = p.rsplit('/').next().unwrap_or_default();
        let looks_like_path = p.starts_with(['/', '~', '.']) || last.contains('.') || p.matches('/').count() >= 2;
        if looks_like_path && p.chars().any(char::is_alphabetic) {
            push(at, p, FactKind::Path);
        }
    }
    let searched: [(&Regex, windows::WindowsOf, FactKind); 3] = [
        (&p.ident, windows::identifiers, FactKind::Identifier),
        (&p.number, windows::numbers, FactKind::Number),
        (&p.error_code, windows::error_codes, FactKind::ErrorCode),
    ];
    for (regex, windows, kind) in searched {
        for (at, end) in search.find(regex, text, &masks, windows) {
            let s = &text[at..end];
            if !in_url(at) && !SHOUTED_WORDS.contains(&s) {
                push(at, s, kind);
            }
        }
    }
    let backticked: Vec<(usize, usize)> = whole(&p.backticked, text)
        .into_iter()
        .filter(|&(at, _)| !in_url(at))
        .collect();
    for &(a, b) in &backticked {
        push(a + 1, &text[a + 1..b - 1], FactKind::CodeName);
    }
    let in_backticks = |at: usize| backticked.iter().any(|&(a, b)| at >= a && at < b);
    for (at, end) in search.find(&p.code_name, text, &masks, windows::code_names) {
        // A bare name right before `":` is a JSON key, not something anyone said.
        let json_key = text[end..].starts_with("\":");
        if !in_url(at) && !in_backticks(at) && !json_key {
            push(at, &text[at..end], FactKind::CodeName);
        }
    }
    if prose {
        for (a, b) in whole(&p.quoted, text) {
            push(a + 1, &text[a + 1..b - 1], FactKind::Quoted);
        }
    }
    // In order of appearance (stable: at one place, the order the kinds were searched).
    found.sort_by_key(|(range, _)| range.start);
    let mut seen = HashSet::default();
    found.retain(|(range, _)| seen.insert(&text[range.clone()]));
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Each windowed pattern with the windows it is searched in.
    fn windowed(p: &Patterns) -> [(&Regex, windows::WindowsOf); 5] {
        [
            (&p.path, windows::paths),
            (&p.ident, windows::identifiers),
            (&p.number, windows::numbers),
            (&p.error_code, windows::error_codes),
            (&p.code_name, windows::code_names),
        ]
    }

    /// Panics unless every pattern finds in its windows exactly what it finds in the
    /// whole text, and the facts are the same; returns how many facts there were.
    fn check_windows(text: &str) -> usize {
        let p = &*PATTERNS;
        for (regex, windows) in windowed(p) {
            assert_eq!(
                windows::find_in(regex, text, &windows(text, &TextMasks::of(text))),
                whole(regex, text),
                "{regex:?} in {text:?}"
            );
        }
        for prose in [false, true] {
            assert_eq!(
                spans_with(p, text, prose, Search::Windows),
                spans_with(p, text, prose, Search::Whole),
                "{text:?}"
            );
        }
        spans_with(p, text, true, Search::Whole).len()
    }

    /// Pieces that make every alternative of every pattern match, nearly match, or touch
    /// another fact (edges, boundaries, multi-byte characters).
    const PIECES: &[&str] = &[
        "a",
        "f",
        "Z",
        "E",
        "e",
        "x",
        "_",
        "-",
        "#",
        "/",
        ".",
        "..",
        "~",
        ",",
        "$",
        "€",
        "£",
        "%",
        " ",
        "\n",
        "\u{a0}",
        "\u{2009}",
        "5",
        "0",
        "12",
        "123",
        "4711",
        "ms",
        "s",
        "sec",
        "KB",
        "KiB",
        "tokens",
        "USD",
        "HTTP ",
        "exit code ",
        "deadbeefcafe",
        "0123456789abcdef",
        "ENOENT",
        "EXIT",
        "NOT_FOUND",
        "E0382",
        "fooBar",
        "getX",
        "snake_case",
        "src/",
        "~/",
        "./",
        "https://x.io/",
        "`",
        "\"",
        "\":",
        "日本",
        "é",
        "٣",
        ":",
        ")",
        "x1Y2Z3W4Q5",
        "NW-",
        "build-",
        "550e8400-e29b-41d4-a716-446655440000",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn windows_find_what_a_search_of_the_whole_text_finds(
            pieces in proptest::collection::vec(0..PIECES.len(), 0..40)
        ) {
            let text: String = pieces.iter().map(|&i| PIECES[i]).collect();
            check_windows(&text);
        }
    }

    proptest! {
        /// Any text at all (control characters, any script, bytes the windows class as
        /// nothing): the windowed search is the whole-text search.
        #[test]
        fn windows_equal_the_whole_search_on_any_text(text in any::<String>()) {
            check_windows(&text);
        }
    }

    /// Every file under `tests/data` that loads: every message's readable text.
    #[test]
    fn windows_find_what_a_search_of_the_whole_text_finds_in_every_shipped_transcript() {
        let (mut messages, mut facts) = (0, 0);
        for transcript in crate::test_data::shipped_transcripts() {
            for index in 0..transcript.messages.len() {
                facts += check_windows(&transcript.readable_text(index));
                messages += 1;
            }
        }
        assert!(messages > 1000 && facts > 1000, "{messages} messages, {facts} facts");
    }

    #[test]
    fn every_kind_is_found_through_its_windows() {
        let text = "see src/main.rs, NW-48213 and #42 after 12ms for $5; ENOENT, HTTP 404, exit code -2, \
                    fetch_user and getUserName failed";
        let kinds: Vec<FactKind> = fact_spans(text, true).into_iter().map(|(_, kind)| kind).collect();
        for kind in [
            FactKind::Path,
            FactKind::Identifier,
            FactKind::Number,
            FactKind::ErrorCode,
            FactKind::CodeName,
        ] {
            assert!(kinds.contains(&kind), "{kind:?} missing from {kinds:?}");
        }
        check_windows(text);
    }
}
