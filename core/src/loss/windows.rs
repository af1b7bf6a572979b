//! Where a fact can be. The fact patterns without a literal to look for (paths,
//! identifiers, numbers, error codes, names in code) cost a regex pass over every byte of
//! every summarized message; most of those bytes are prose or JSON syntax that no such
//! pattern can match. The text's class masks (`text_masks.rs`: which bytes are word,
//! path, identifier, number characters…, 64 at a time) find the stretches ("windows")
//! that could hold a match, and the regexes read only those.
//!
//! Exactness rests on one property per pattern: every match of the pattern, whatever the
//! alternative, is made only of characters of a class (a path of `[~./A-Za-z0-9_-]`, an
//! identifier of `[#A-Za-z0-9_-]`…), so it lies inside one maximal run of that class; a
//! run is kept when it holds what every alternative needs (a `/`, a digit, an `_`…). The
//! regex then searches each window with the whole text around it for its `\b` checks,
//! in order, resuming after the last match: the matches are those of one pass over the
//! whole text. `tests` checks that against the whole-text search.

use std::ops::Range;
use std::sync::LazyLock;

use memchr::memmem;

use super::text_masks::{Class, TextMasks};

/// Where a pattern can match in a text (whose class masks are given): the windows of one
/// pattern, ascending, apart.
pub type WindowsOf = fn(&str, &TextMasks) -> Vec<Range<usize>>;

fn is_digit(b: u8) -> bool {
    b.wrapping_sub(b'0') < 10
}

fn is_upper(b: u8) -> bool {
    b.wrapping_sub(b'A') < 26
}

/// The runs of `class` around each byte of class `trigger`, those `keep` accepts, in
/// order and each once.
fn runs_around(
    bytes: &[u8],
    masks: &TextMasks,
    class: Class,
    trigger: Class,
    keep: impl Fn(&[u8]) -> bool,
) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = masks.next(from, trigger) {
        let run = masks.run_around(at, class);
        from = run.end.max(at + 1);
        if keep(&bytes[run.clone()]) {
            found.push(run);
        }
    }
    found
}

/// Windows that may hold a path: runs of path characters with a name on both sides of one
/// of their slashes.
pub fn paths(text: &str, masks: &TextMasks) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut found: Vec<Range<usize>> = Vec::new();
    let mut seen_to = 0;
    for slash in memchr::memchr_iter(b'/', bytes) {
        if slash < seen_to {
            continue;
        }
        // A path has a name on both sides of one of its slashes.
        let named = |at: usize| masks.is(at, Class::Path) && !matches!(bytes[at], b'/' | b'~');
        let run = masks.run_around(slash, Class::Path);
        seen_to = run.end;
        if memchr::memchr_iter(b'/', &bytes[run.clone()])
            .any(|s| s > 0 && named(run.start + s - 1) && named(run.start + s + 1))
        {
            found.push(run);
        }
    }
    found
}

/// Windows that may hold an identifier: runs of identifier characters with a `-` or a
/// `#`, or with a word of 8 capitals and digits, or of 12 hex digits.
pub fn identifiers(text: &str, masks: &TextMasks) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    // A UUID, `NW-48213`, `build-42` have a `-`, `#12` a `#`.
    let mut marked: Vec<Range<usize>> = Vec::new();
    for at in memchr::memchr2_iter(b'-', b'#', bytes) {
        if marked.last().is_none_or(|run| at >= run.end) {
            marked.push(masks.run_around(at, Class::Ident));
        }
    }
    // `A1B2C3D4E5` is a word of at least 8 capitals and digits, `deadbeefcafe` one of at
    // least 12 hex digits.
    let mut long: Vec<Range<usize>> = Vec::new();
    long_words(masks, 8, Class::UpperOrDigit, &mut long);
    long_words(masks, 12, Class::Hex, &mut long);
    long.sort_unstable_by_key(|run| run.start);
    long.dedup();
    merged(marked, long)
}

/// Adds the identifier runs around each run of at least `least` bytes of `class`
/// (a class within the identifier characters), each once.
fn long_words(masks: &TextMasks, least: usize, class: Class, found: &mut Vec<Range<usize>>) {
    for word in masks.long_runs(class, least) {
        let run = masks.run_around(word.start, Class::Ident);
        if found.last() != Some(&run) {
            found.push(run);
        }
    }
}

/// A unit of a number fact (as in the pattern).
fn is_unit(word: &[u8]) -> bool {
    matches!(
        word,
        b"ms"
            | b"s"
            | b"sec"
            | b"seconds"
            | b"minutes"
            | b"min"
            | b"hours"
            | b"h"
            | b"days"
            | b"KB"
            | b"MB"
            | b"GB"
            | b"TB"
            | b"KiB"
            | b"MiB"
            | b"GiB"
            | b"bytes"
            | b"tokens"
            | b"px"
            | b"USD"
            | b"EUR"
    )
}

/// Windows that may hold a number with a unit or a currency: runs of `[0-9.,$]` with a
/// digit, followed by a unit (one space allowed between) or holding a currency sign (a
/// `€` or `£` right before them included).
pub fn numbers(text: &str, masks: &TextMasks) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut found: Vec<Range<usize>> = Vec::new();
    let mut from = 0;
    while let Some(digit) = masks.next(from, Class::Digit) {
        let run = masks.run_around(digit, Class::Numeric);
        from = run.end;
        let before = &text[..run.start];
        let currency = before.ends_with(['€', '£']);
        let start = if currency {
            before.len() - before.chars().next_back().map_or(0, char::len_utf8)
        } else {
            run.start
        };
        // A unit comes right after the number (one space allowed) and is a whole word,
        // or `%`.
        let mut unit = run.end;
        if let Some(space) = text[unit..].chars().next().filter(|c| c.is_whitespace()) {
            unit += space.len_utf8();
        }
        let letters = bytes[unit..].iter().take_while(|b| b.is_ascii_alphabetic()).count();
        let end = if is_unit(&bytes[unit..unit + letters]) {
            unit + letters
        } else if bytes[unit..].starts_with(b"%") {
            unit + 1
        } else if currency || bytes[run.clone()].contains(&b'$') {
            run.end
        } else {
            continue;
        };
        push_merged(&mut found, start..end);
    }
    found
}

/// The phrases of error codes, their searchers built once.
static HTTP: LazyLock<memmem::Finder<'static>> = LazyLock::new(|| memmem::Finder::new("HTTP "));
static EXIT_CODE: LazyLock<memmem::Finder<'static>> = LazyLock::new(|| memmem::Finder::new("exit code "));

/// Windows that may hold an error code: words in capitals with an `_`, `E` and capitals
/// or four digits, and `HTTP ` or `exit code ` with the number after it.
pub fn error_codes(text: &str, masks: &TextMasks) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let words = runs_around(bytes, masks, Class::Word, Class::UnderscoreOrE, |w| {
        let shouted = w.iter().all(|&b| is_upper(b) || is_digit(b) || b == b'_');
        // `NOT_FOUND`, `ENOENT`, `E0382`.
        (shouted && is_upper(w[0]) && w.contains(&b'_'))
            || (w[0] == b'E' && w.len() >= 4 && w[1..].iter().all(|&b| is_upper(b)))
            || (w[0] == b'E' && w.len() == 5 && w[1..].iter().all(|&b| is_digit(b)))
    });
    let digits_from = |at: usize| at + bytes[at..].iter().take_while(|&&b| is_digit(b)).count();
    let mut phrases: Vec<Range<usize>> = HTTP
        .find_iter(bytes)
        .map(|at| at..digits_from(at + "HTTP ".len()))
        .collect();
    for at in EXIT_CODE.find_iter(bytes) {
        let sign = at + "exit code ".len();
        let digits = if bytes[sign..].starts_with(b"-") {
            sign + 1
        } else {
            sign
        };
        phrases.push(at..digits_from(digits));
    }
    merged(words, phrases)
}

/// Windows that may hold a name in code style: words starting with a lowercase letter,
/// either `snake_case` or with a lowercase letter followed by an uppercase one.
pub fn code_names(text: &str, masks: &TextMasks) -> Vec<Range<usize>> {
    runs_around(text.as_bytes(), masks, Class::Word, Class::UnderscoreOrUpper, |w| {
        let snake = w.iter().all(|&b| b.is_ascii_lowercase() || is_digit(b) || b == b'_') && w.contains(&b'_');
        let camel = !w.contains(&b'_') && w.windows(2).any(|p| p[0].is_ascii_lowercase() && is_upper(p[1]));
        w[0].is_ascii_lowercase() && (snake || camel)
    })
}

/// Two ordered lists of windows as one, overlapping windows joined.
fn merged(a: Vec<Range<usize>>, b: Vec<Range<usize>>) -> Vec<Range<usize>> {
    if b.is_empty() {
        return a;
    }
    let mut all = a;
    all.extend(b);
    all.sort_unstable_by_key(|w| w.start);
    let mut found = Vec::with_capacity(all.len());
    for window in all {
        push_merged(&mut found, window);
    }
    found
}

/// Appends `window`, joined with the last one when they overlap (a match is searched
/// once, in order).
fn push_merged(found: &mut Vec<Range<usize>>, window: Range<usize>) {
    match found.last_mut() {
        Some(last) if window.start <= last.end => last.end = last.end.max(window.end),
        _ => found.push(window),
    }
}

/// The matches of `regex` inside `windows` of `text`, in order, as (start, end): those
/// of one search over the whole text when every match lies inside a window.
pub fn find_in(regex: &regex_automata::meta::Regex, text: &str, windows: &[Range<usize>]) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut resume = 0;
    for window in windows {
        let mut from = window.start.max(resume);
        while from < window.end {
            let input = regex_automata::Input::new(text).span(from..window.end);
            let Some(m) = regex.search(&input) else { break };
            found.push((m.start(), m.end()));
            // No fact pattern matches the empty string; step over one anyway.
            from = if m.is_empty() { m.end() + 1 } else { m.end() };
            resume = from;
        }
    }
    found
}
