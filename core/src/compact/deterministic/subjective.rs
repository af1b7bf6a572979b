//! Phase 2: subjective edits of assistant text (llm4s rules, without its bugs). None of
//! them ever touches precise content (code, JSON, quoted or key/value text, errors), and
//! each returns `None` unless it makes the text shorter.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use regex::Regex;

static FILLER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:um|uh|well|you know|like|actually|basically)\b,?[ \t]*").expect("valid regex")
});
static SPOKEN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\b(?:um|uh|well|you know|like)\b").expect("valid regex"));
static SENTENCE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[^.!?]*[.!?]+\s*|[^.!?]+$").expect("valid regex"));

/// Truncation fires at 600 estimated tokens, estimated as characters / 3.5.
const TRUNCATE_AT_CHARS: usize = 2100;
/// A single long sentence is cut near this many characters.
const SINGLE_SENTENCE_CAP: usize = 1600;

/// Text no subjective rule may edit: code fences, JSON (parses, or more than two `{`),
/// more than four `"`, error text, or `=` together with `:`.
pub fn is_precise(text: &str) -> bool {
    let t = text.trim();
    t.contains("```")
        || t.matches('{').count() > 2
        || ((t.starts_with('{') || t.starts_with('[')) && serde_json::from_str::<serde::de::IgnoredAny>(t).is_ok())
        || t.matches('"').count() > 4
        || t.contains("ERROR:")
        || t.contains("Exception")
        || t.contains("Traceback")
        || (t.contains('=') && t.contains(':'))
}

/// Speech-like text: two spoken fillers, or "let me think", "so basically", "i mean".
fn is_transcript_like(text: &str) -> bool {
    let lower = text.to_lowercase();
    SPOKEN.find_iter(text).count() >= 2
        || ["let me think", "so basically", "i mean"]
            .iter()
            .any(|p| lower.contains(p))
}

/// Removes filler words from transcript-like text.
pub fn remove_fillers(text: &str) -> Option<String> {
    if is_precise(text) || !is_transcript_like(text) {
        return None;
    }
    let removed = FILLER.replace_all(text, "");
    let tidied = tidy_spaces(&removed);
    (tidied.len() < text.len()).then_some(tidied)
}

fn tidy_spaces(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ' ' && out.ends_with(' ') {
            continue;
        }
        out.push(c);
    }
    out.replace(" ,", ",").replace(" .", ".")
}

/// Sentences with their punctuation and trailing whitespace; concatenated they are the text.
fn sentences(text: &str) -> Vec<&str> {
    SENTENCE
        .find_iter(text)
        .map(|m| m.as_str())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Removes later repeats of a sentence and marks its first occurrence ` [×N]`. Every
/// distinct sentence stays where it was (llm4s lost the one before a repeat).
pub fn dedup_sentences(text: &str) -> Option<String> {
    if is_precise(text) {
        return None;
    }
    let parts = sentences(text);
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for p in &parts {
        *counts.entry(p.trim()).or_default() += 1;
    }
    if counts.values().all(|&n| n < 2) {
        return None;
    }
    let mut seen: HashSet<&str> = HashSet::new();
    let mut out = String::with_capacity(text.len());
    for part in &parts {
        let key = part.trim();
        if !seen.insert(key) {
            continue;
        }
        let n = counts[key];
        if n > 1 {
            let trailing = &part[part.trim_end().len()..];
            out.push_str(part.trim_end());
            out.push_str(" [\u{d7}");
            out.push_str(&n.to_string());
            out.push(']');
            out.push_str(if trailing.is_empty() { " " } else { trailing });
        } else {
            out.push_str(part);
        }
    }
    let original_trailing = &text[text.trim_end().len()..];
    let result = format!("{}{original_trailing}", out.trim_end());
    (result.len() < text.len()).then_some(result)
}

/// Caps a verbose response (≥ 2100 characters): one sentence is cut near 1600
/// characters; four or more keep the first and last around a marker.
pub fn truncate_verbose(text: &str) -> Option<String> {
    if is_precise(text) || text.chars().count() < TRUNCATE_AT_CHARS {
        return None;
    }
    let parts = sentences(text);
    let result = match parts.len() {
        0 | 1 => {
            let head: String = text.chars().take(SINGLE_SENTENCE_CAP).collect();
            let cut = head.rfind(char::is_whitespace).unwrap_or(head.len());
            format!("{}...[content capped for length]", head[..cut].trim_end())
        }
        2 | 3 => return None,
        n => format!(
            "{} ...[summarized {} sentences]... {}",
            parts[0].trim(),
            n - 2,
            parts[n - 1].trim()
        ),
    };
    (result.len() < text.len()).then_some(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dedup_keeps_every_distinct_sentence() {
        let text = "The build failed on CI. I will check the logs. The build failed on CI.";
        assert_eq!(
            dedup_sentences(text).as_deref(),
            Some("The build failed on CI. [\u{d7}2] I will check the logs.")
        );
        let text = "It is done now! Really? It is done now! Yes. It is done now!";
        assert_eq!(
            dedup_sentences(text).as_deref(),
            Some("It is done now! [\u{d7}3] Really? Yes.")
        );
        assert_eq!(dedup_sentences("One. Two."), None);
        // The marker is longer than a tiny repeat: the text would grow, so it is left alone.
        assert_eq!(dedup_sentences("A. B. A."), None);
    }

    #[test]
    fn fillers_go_only_from_speech_like_text() {
        let spoken = "Um, well, I think the build, you know, basically works.";
        assert_eq!(remove_fillers(spoken).as_deref(), Some("I think the build, works."));
        assert_eq!(
            remove_fillers("I would like a refund."),
            None,
            "one filler is not speech"
        );
        assert_eq!(remove_fillers("um well ```let x = 1;```"), None, "code is precise");
    }

    #[test]
    fn precise_content_is_recognised() {
        assert!(is_precise("```rust\nfn main() {}\n```"));
        assert!(is_precise(r#"{"a": 1}"#));
        assert!(is_precise("a { b { c { d"));
        assert!(is_precise(r#"say "a" "b" "c""#));
        assert!(is_precise("ERROR: disk full"));
        assert!(is_precise("timeout = 30: seconds"));
        assert!(!is_precise("Plain prose, nothing more."));
    }
}
