//! Search over the messages' raw JSON text, smart case (a lowercase query ignores case).
//! All matches are found once per query, so `n`/`N` are just steps through a list.

use crate::transcript::Transcript;

/// A query and the messages it matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Search {
    /// The query as typed.
    pub query: String,
    /// Indices of matching messages, ascending.
    pub matches: Vec<usize>,
}

impl Search {
    /// Finds every message whose raw JSON contains `query`.
    pub fn run(transcript: &Transcript, query: &str) -> Search {
        let ignore_case = !query.chars().any(char::is_uppercase);
        let needle = if ignore_case {
            query.to_lowercase()
        } else {
            query.to_owned()
        };
        let finder = memchr::memmem::Finder::new(needle.as_bytes());
        let matches = transcript
            .messages
            .iter()
            .enumerate()
            .filter(|(_, m)| {
                let raw = transcript.raw(m);
                if ignore_case {
                    contains_ignore_ascii_case(raw.as_bytes(), needle.as_bytes())
                } else {
                    finder.find(raw.as_bytes()).is_some()
                }
            })
            .map(|(i, _)| i)
            .collect();
        Search {
            query: query.to_owned(),
            matches,
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
fn contains_ignore_ascii_case(haystack: &[u8], needle: &[u8]) -> bool {
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
