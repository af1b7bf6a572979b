//! Many facts searched in one pass over a text (Aho-Corasick), instead of one scan of
//! the text per fact: what keeps a loss report over 100,000 messages a small multiple of
//! reading them once.

use aho_corasick::AhoCorasick;

/// Finds any of a fixed set of strings.
#[derive(Debug, Clone)]
pub struct Finder {
    automaton: Option<AhoCorasick>,
    /// The caller's index of each pattern in the automaton (empty ones are left out).
    ids: Vec<usize>,
    patterns: usize,
}

impl Finder {
    /// A finder of `patterns` (empty strings never match).
    pub fn new<S: AsRef<str>>(patterns: &[S]) -> Finder {
        // An empty pattern would match at every position: leave it out.
        let ids: Vec<usize> = (0..patterns.len())
            .filter(|&k| !patterns[k].as_ref().is_empty())
            .collect();
        let automaton = (!ids.is_empty())
            .then(|| AhoCorasick::new(ids.iter().map(|&k| patterns[k].as_ref())).ok())
            .flatten();
        Finder {
            automaton,
            ids,
            patterns: patterns.len(),
        }
    }

    /// Number of patterns.
    pub fn len(&self) -> usize {
        self.patterns
    }

    /// True without patterns.
    pub fn is_empty(&self) -> bool {
        self.patterns == 0
    }

    /// Marks in `found` (one flag per pattern) every pattern `text` contains; patterns
    /// inside others (a path inside a URL) count too.
    pub fn mark(&self, text: &str, found: &mut [bool]) {
        if let Some(a) = &self.automaton {
            for m in a.find_overlapping_iter(text) {
                found[self.ids[m.pattern().as_usize()]] = true;
            }
        }
    }

    /// The patterns `text` contains, ascending.
    pub fn ids_in(&self, text: &str) -> Vec<usize> {
        let Some(a) = &self.automaton else {
            return Vec::new();
        };
        let mut ids: Vec<usize> = a
            .find_overlapping_iter(text)
            .map(|m| self.ids[m.pattern().as_usize()])
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }
}

#[cfg(test)]
mod tests {
    use super::Finder;

    #[test]
    fn finds_overlapping_patterns_once_each() {
        let f = Finder::new(&["https://x.io/a/b.rs", "a/b.rs", "zzz", ""]);
        assert_eq!(f.ids_in("see https://x.io/a/b.rs and a/b.rs"), vec![0, 1]);
        let mut found = vec![false; 4];
        f.mark("nothing", &mut found);
        assert_eq!(found, vec![false; 4]);
        assert!(Finder::new::<&str>(&[]).ids_in("x").is_empty());
    }
}
