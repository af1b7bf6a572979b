//! Search over the messages' raw JSON text, smart case (a lowercase query ignores case).
//! All matches are found once per query (on a worker: 100k messages take tens of ms), so
//! `n`/`N` are just steps through a list.

use crate::cancel::CancelToken;
use crate::transcript::Transcript;

/// A query and the messages it matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Search {
    /// The query as typed.
    pub query: String,
    /// Indices of matching messages, ascending.
    pub matches: Vec<usize>,
}

/// True when the query ignores case (it has no upper-case letter).
pub fn ignores_case(query: &str) -> bool {
    !query.chars().any(char::is_uppercase)
}

/// Indices of the messages whose raw JSON contains `query` (smart case), ascending; what
/// was found so far once `cancel` is set.
pub fn find(transcript: &Transcript, query: &str, cancel: &CancelToken) -> Vec<usize> {
    let ignore_case = ignores_case(query);
    let needle = if ignore_case {
        query.to_lowercase()
    } else {
        query.to_owned()
    };
    let finder = memchr::memmem::Finder::new(needle.as_bytes());
    let mut matches = Vec::new();
    for i in 0..transcript.messages().len() {
        if i % 4096 == 0 && cancel.is_cancelled() {
            break;
        }
        let raw = transcript.raw(i).as_bytes();
        let hit = if ignore_case {
            contains_ignore_ascii_case(raw, needle.as_bytes())
        } else {
            finder.find(raw).is_some()
        };
        if hit {
            matches.push(i);
        }
    }
    matches
}

impl Search {
    /// Finds every message whose raw JSON contains `query`.
    pub fn run(transcript: &Transcript, query: &str) -> Search {
        Search {
            query: query.to_owned(),
            matches: find(transcript, query, crate::cancel::never()),
        }
    }

    /// The match after (or before) message `from`, wrapping around: (position, index).
    pub fn step(&self, from: usize, forward: bool) -> Option<(usize, usize)> {
        if self.matches.is_empty() {
            return None;
        }
        let position = if forward {
            self.matches.iter().position(|&m| m > from).unwrap_or(0)
        } else {
            self.matches
                .iter()
                .rposition(|&m| m < from)
                .unwrap_or(self.matches.len() - 1)
        };
        Some((position, self.matches[position]))
    }
}

/// `needle` (already lowercase) occurs in `haystack`, ignoring ASCII case.
pub fn contains_ignore_ascii_case(haystack: &[u8], needle: &[u8]) -> bool {
    let Some(&first) = needle.first() else {
        return true;
    };
    let mut start = 0;
    while let Some(at) = memchr::memchr2(first, first.to_ascii_uppercase(), &haystack[start..]) {
        let i = start + at;
        if haystack.len() - i >= needle.len() && haystack[i..i + needle.len()].eq_ignore_ascii_case(needle) {
            return true;
        }
        start = i + 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smart_case_and_wrapping_steps() {
        let json = br#"[{"role":"user","content":"Refund please"},{"role":"assistant","content":"no"},{"role":"user","content":"REFUND now"}]"#;
        let t = Transcript::parse("s.json", json.to_vec(), None).expect("valid");
        assert_eq!(Search::run(&t, "refund").matches, [0, 2]);
        assert_eq!(Search::run(&t, "REFUND").matches, [2]);
        let s = Search::run(&t, "refund");
        assert_eq!(s.step(0, true), Some((1, 2)));
        assert_eq!(s.step(2, true), Some((0, 0)));
        assert_eq!(s.step(0, false), Some((1, 2)));
    }
}
