//! Survival by meaning: whether a text (a summary, the messages after a compaction)
//! restates a human turn — with case, punctuation, typos, word order and paraphrase
//! tolerated — and the sentence that does, as evidence.
//!
//! Both sides are reduced to content words (lowercased, function words dropped, a light
//! stem: plural, `-ing`, `-ed`, `-ly`). A turn word is found in a sentence when a word
//! there is the same stem, or within one edit (two for long words: typos such as
//! `converation`), or shares its first six letters (`proposal`/`proposing`). A turn is
//! restated by a sentence that holds most of its words; a turn of several clauses must
//! have each clause of substance held somewhere in the text, or it is restated only in
//! part — which drops a constraint, and so counts as lost.

use std::collections::HashMap;

/// How much of a turn's words one sentence must hold.
const RESTATED: f64 = 0.5;
/// How much of a clause's words the text must hold for the clause to survive.
const CLAUSE_HELD: f64 = 0.34;
/// How far from the restating sentence a turn's other clauses may be restated.
const NEAR_LINES: usize = 2;
/// Candidate sentences compared word by word for one turn (the rest share fewer words).
const CANDIDATES: usize = 24;
/// The most sentence references read to pick one turn's candidates.
const POSTINGS_READ: usize = 2_000;

/// Function words and the filler of requests to an assistant: not what a turn is about.
const STOPWORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "but", "if", "then", "so", "of", "to", "in", "on", "at", "by", "for", "with",
    "from", "into", "onto", "about", "as", "is", "are", "was", "were", "be", "been", "being", "am", "it", "its",
    "it's", "this", "that", "these", "those", "there", "here", "i", "i'm", "i'd", "i've", "me", "my", "we", "we're",
    "our", "you", "you're", "your", "he", "she", "they", "them", "their", "what", "which", "who", "whom", "do", "does",
    "did", "doing", "have", "has", "had", "will", "would", "can", "could", "should", "shall", "may", "might", "must",
    "just", "also", "too", "very", "really", "quite", "please", "hey", "hi", "claude", "oh", "ok", "okay", "well",
    "like", "know", "think", "want", "let", "let's", "some", "any", "all", "each", "every", "more", "most", "much",
    "many", "such", "own", "same", "other", "than", "there's", "that's", "what's", "how", "when", "where", "why",
    "now", "again", "once", "only", "even", "still", "yet", "up", "out", "over", "under", "via", "per", "through",
    "across", "not", "no", "don't", "doesn't", "didn't", "won't", "can't", "isn't", "aren't", "user", "asked", "said",
    "says", "wants", "wanted", "need", "needs", "needed", "help", "look", "see",
];

/// [`STOPWORDS`] as a set (every word of every text is looked up, twice).
static STOP: std::sync::LazyLock<rustc_hash::FxHashSet<&'static str>> =
    std::sync::LazyLock::new(|| STOPWORDS.iter().copied().collect());

/// A turn's content words, or a sentence's.
pub fn content_words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '_'))
        .flat_map(split_digits)
        .map(|w| w.trim_matches('\'').to_lowercase())
        .filter(|w| !w.is_empty() && !STOP.contains(w.as_str()))
        .map(|w| stem(&w))
        .filter(|w| !w.is_empty() && !STOP.contains(w.as_str()))
        .collect()
}

/// A word cut where letters meet digits (`phase1` is `phase 1`); identifiers with an
/// underscore stay whole.
fn split_digits(word: &str) -> Vec<&str> {
    if word.contains('_') {
        return vec![word];
    }
    let mut out = Vec::new();
    let mut start = 0;
    let mut last: Option<bool> = None;
    for (i, c) in word.char_indices() {
        let digit = c.is_ascii_digit();
        if last.is_some_and(|d| d != digit) && c.is_alphanumeric() {
            out.push(&word[start..i]);
            start = i;
        }
        if c.is_alphanumeric() {
            last = Some(digit);
        }
    }
    out.push(&word[start..]);
    out
}

/// A light stem: the endings that change a word's form, not its meaning.
fn stem(word: &str) -> String {
    let w = word.trim_end_matches("'s");
    let n = w.chars().count();
    let strip = |suffix: &str, min: usize| (n >= min && w.ends_with(suffix)).then(|| &w[..w.len() - suffix.len()]);
    if let Some(s) = strip("ies", 5) {
        return format!("{s}y");
    }
    for (suffix, min) in [("ing", 6), ("ed", 5), ("ly", 5)] {
        if let Some(s) = strip(suffix, min) {
            return s.to_owned();
        }
    }
    // `-es` only where English adds it (`classes`, `boxes`, `matches`); `notes` is `note`.
    if let Some(s) = strip("es", 5) {
        if s.ends_with("ss") || s.ends_with('x') || s.ends_with("zz") || s.ends_with("ch") || s.ends_with("sh") {
            return s.to_owned();
        }
    }
    match strip("s", 4) {
        Some(s) if !s.ends_with(['s', 'u', 'i']) => s.to_owned(),
        _ => w.to_owned(),
    }
}

/// Whether turn word `a` is found as text word `b`.
fn same_word(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (la, lb) = (a.chars().count(), b.chars().count());
    if la >= 6 && lb >= 6 && a.chars().take(6).eq(b.chars().take(6)) {
        return true;
    }
    let allowed = match la.min(lb) {
        0..=4 => 0,
        5..=7 => 1,
        _ => 2,
    };
    allowed > 0 && la.abs_diff(lb) <= allowed && edit_distance(a, b) <= allowed
}

/// [`same_word`] for two words that are not equal, with the cheap refusals first: a typo
/// rarely changes a word's first letter, and only a shared beginning bridges lengths
/// more than two apart.
fn close_enough(w: &str, h: &str) -> bool {
    if h.len() < 5 || w.as_bytes()[0] != h.as_bytes()[0] {
        return false;
    }
    if h.len().abs_diff(w.len()) > 2 {
        return w.len() >= 6 && h.len() >= 6 && w.as_bytes()[..6] == h.as_bytes()[..6] && same_word(w, h);
    }
    same_word(w, h)
}

/// Levenshtein distance (short words only).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut diagonal = row[0];
        row[0] = i;
        for j in 1..=b.len() {
            let above = row[j];
            row[j] = (row[j] + 1)
                .min(row[j - 1] + 1)
                .min(diagonal + usize::from(a[i - 1] != b[j - 1]));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// A text cut into sentences, with an index from word to sentences, to be searched for
/// many turns.
pub struct Sentences {
    /// Each sentence: where it came from (a message, or `None` for the summary), its text
    /// and its content words.
    units: Vec<(Option<usize>, String, Vec<String>)>,
    /// The line each sentence is on (counted over all the texts).
    lines: Vec<usize>,
    by_word: HashMap<String, Vec<usize>>,
}

/// A unit as cut from its text: message, line, quote, content words.
type Unit = (Option<usize>, usize, String, Vec<String>);

/// A sentence that restates a turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    /// The message it is in (`None`: the summary).
    pub message: Option<usize>,
    /// The sentence.
    pub quote: String,
    /// How much of the turn's words it holds.
    pub coverage: f64,
}

impl Sentences {
    /// The sentences of `texts`, each with the message it came from.
    pub fn new<'a>(texts: impl IntoIterator<Item = (Option<usize>, &'a str)>) -> Sentences {
        Sentences::new_where(texts, |_| true)
    }

    /// The sentences of the lines of `texts` that `keep_line` accepts (a search for a few
    /// turns reads only the lines that may hold them). Texts are cut in parallel.
    pub fn new_where<'a>(
        texts: impl IntoIterator<Item = (Option<usize>, &'a str)>,
        keep_line: impl Fn(&str) -> bool + Sync,
    ) -> Sentences {
        use rayon::prelude::*;
        let texts: Vec<(Option<usize>, &str)> = texts.into_iter().collect();
        let cut: Vec<Vec<Unit>> = texts
            .par_iter()
            .enumerate()
            .map(|(t, &(message, text))| {
                // Lines of different texts are never near each other.
                let base = t * (1 << 20);
                units(text, &keep_line)
                    .into_iter()
                    .map(|(line, quote, words)| (message, base + line, quote, words))
                    .collect()
            })
            .collect();
        let mut found = Vec::new();
        let mut lines = Vec::new();
        let mut by_word: HashMap<String, Vec<usize>> = HashMap::new();
        for (message, line, quote, mut words) in cut.into_iter().flatten() {
            let k = found.len();
            words.sort_unstable();
            words.dedup();
            for w in &words {
                by_word.entry(w.clone()).or_default().push(k);
            }
            found.push((message, quote, words));
            lines.push(line);
        }
        Sentences {
            units: found,
            lines,
            by_word,
        }
    }

    /// The sentence that best restates `words` (a turn's content words), with how much of
    /// them it holds and its position: the best of the sentences `keep` accepts.
    fn best_where(&self, words: &[String], keep: impl Fn(usize) -> bool) -> Option<(usize, Evidence)> {
        // Candidates: the sentences sharing the most words exactly, read from the rarest
        // words' lists first; a word so common that reading its list would pass the
        // bound picks no candidates (it still counts in each candidate's coverage).
        let mut lists: Vec<&[usize]> = words
            .iter()
            .filter_map(|w| self.by_word.get(w).map(Vec::as_slice))
            .collect();
        lists.sort_by_key(|l| l.len());
        lists.dedup_by(|a, b| std::ptr::eq(*a, *b));
        let mut shared: rustc_hash::FxHashMap<usize, usize> = rustc_hash::FxHashMap::default();
        let mut read = 0;
        for list in lists {
            if read >= POSTINGS_READ {
                break;
            }
            // Even the rarest word's list is read only up to the bound.
            let take = list.len().min(POSTINGS_READ - read);
            read += take;
            for &k in &list[..take] {
                *shared.entry(k).or_default() += 1;
            }
        }
        let mut candidates: Vec<(usize, usize)> = shared.into_iter().filter(|&(k, _)| keep(k)).collect();
        let by_shared = |a: &(usize, usize), b: &(usize, usize)| b.1.cmp(&a.1).then(a.0.cmp(&b.0));
        if candidates.len() > CANDIDATES {
            candidates.select_nth_unstable_by(CANDIDATES, by_shared);
            candidates.truncate(CANDIDATES);
        }
        candidates.sort_by(by_shared);
        let (k, covered) = candidates
            .into_iter()
            .map(|(k, _)| (k, coverage(words, &self.units[k].2)))
            // The best coverage; among equals the shortest quote (the sentence itself
            // rather than a run around it).
            .max_by(|a, b| {
                a.1.total_cmp(&b.1)
                    .then(self.units[b.0].1.len().cmp(&self.units[a.0].1.len()))
            })?;
        let (message, quote, _) = &self.units[k];
        Some((
            k,
            Evidence {
                message: *message,
                quote: quote.clone(),
                coverage: covered,
            },
        ))
    }

    /// Whether the lines around sentence `at` hold `words` (a clause of the turn that
    /// sentence restates: a restatement keeps a turn's clauses together).
    fn holds_near(&self, words: &[String], at: usize) -> bool {
        // Units are stored in text order: the ones near `at` sit next to it.
        let (line, message) = (self.lines[at], self.units[at].0);
        let near = |k: &usize| self.units[*k].0 == message && self.lines[*k].abs_diff(line) <= NEAR_LINES;
        let before = (0..at).rev().take_while(near);
        let after = (at..self.units.len()).take_while(near);
        before
            .chain(after)
            .any(|k| coverage(words, &self.units[k].2) >= CLAUSE_HELD)
    }

    /// The evidence that the text restates the turn `text` whole; `None` when it does not,
    /// or only in part (a clause of substance is nowhere in it).
    pub fn restates(&self, text: &str) -> Option<Evidence> {
        let words = content_words(text);
        if words.is_empty() {
            return None;
        }
        let (at, best) = self.best_where(&words, |_| true)?;
        let needed = if words.len() <= 2 { 1.0 } else { RESTATED };
        if best.coverage < needed {
            return None;
        }
        let clauses: Vec<Vec<String>> = split_clauses(text)
            .into_iter()
            .map(content_words)
            .filter(|c| c.len() >= 2)
            .collect();
        if clauses.len() > 1 && !clauses.iter().all(|c| self.holds_near(c, at)) {
            return None;
        }
        Some(best)
    }
}

impl Sentences {
    /// The sentence that holds `value` in one of its forms (see [`value_forms`]); a short
    /// number must also sit beside one of the turn's `words` (`5` beside `min`), or any
    /// `5` would do.
    pub fn holds_value(&self, value: &str, words: &[String]) -> Option<Evidence> {
        let forms = value_forms(value);
        let short_number = value.len() < 4 && value.chars().all(|c| c.is_ascii_digit() || c == '.');
        self.units.iter().find_map(|(message, text, held)| {
            let lower = text.to_lowercase();
            let found = forms.iter().any(|f| contains_token(&lower, f));
            // `min` beside `minutes`, `prod` beside `production`: a unit or a word of
            // the turn, written out.
            let near = |w: &String, h: &String| same_word(w, h) || (w.len() >= 3 && h.starts_with(w.as_str()));
            let beside = !short_number
                || words
                    .iter()
                    .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
                    .any(|w| held.iter().any(|h| near(w, h)));
            (found && beside).then(|| Evidence {
                message: *message,
                quote: text.clone(),
                coverage: 1.0,
            })
        })
    }
}

/// The forms a value may take in a restatement: as written; a path from any of its
/// folders on (absolute and repository-relative alike, two parts at least); a UUID's
/// first eight characters (how session ids are quoted); a count of thousands in
/// thousands (`44100` as `44.1`).
pub fn value_forms(value: &str) -> Vec<String> {
    let v = value.to_lowercase();
    let v = v.trim_end_matches('/').to_owned();
    let mut forms = vec![v.clone()];
    if v.contains('/') {
        let parts: Vec<&str> = v.split('/').filter(|p| !p.is_empty()).collect();
        for k in 0..parts.len().saturating_sub(1) {
            forms.push(parts[k..].join("/"));
        }
    }
    let hex_id = v.len() >= 32 && v.chars().all(|c| c.is_ascii_hexdigit() || c == '-') && v.contains('-');
    if hex_id {
        forms.push(v[..8].to_owned());
    }
    if let Ok(n) = v.parse::<u64>() {
        if n >= 1000 && n % 100 == 0 {
            let k = n as f64 / 1000.0;
            forms.push(format!("{k}"));
        }
    }
    forms
}

/// Whether `text` holds `token` not as part of a longer word or number.
fn contains_token(text: &str, token: &str) -> bool {
    if token.is_empty() {
        return false;
    }
    let edge = |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
    let mut from = 0;
    while let Some(at) = text[from..].find(token) {
        let start = from + at;
        let end = start + token.len();
        let before = text[..start].chars().next_back();
        let after = text[end..].chars().next();
        // A number's decimal point continues it (`44.1` is not `44`).
        let continues = after == Some('.') && text[end + 1..].starts_with(|c: char| c.is_ascii_digit());
        if edge(before) && edge(after) && !continues {
            return true;
        }
        from = start + token.len().max(1);
        while !text.is_char_boundary(from) {
            from += 1;
        }
    }
    false
}

/// The share of the distinct `words` found among `held` (a word said three times is
/// one thing said).
/// `held` is sorted and distinct: an exact word is a binary search; only a word long
/// enough for a typo or a shared beginning is compared with the others.
fn coverage(words: &[String], held: &[String]) -> f64 {
    let mut distinct: Vec<&String> = words.iter().collect();
    distinct.sort_unstable();
    distinct.dedup();
    let found = distinct
        .iter()
        .filter(|w| held.binary_search(w).is_ok() || (w.len() >= 5 && held.iter().any(|h| close_enough(w, h))))
        .count();
    found as f64 / distinct.len() as f64
}

/// What a turn is compared with: each sentence, and runs of up to three sentences of one
/// line (a restatement quoted whole spans several sentences of a bullet).
fn units(text: &str, keep_line: &impl Fn(&str) -> bool) -> Vec<(usize, String, Vec<String>)> {
    let mut out = Vec::new();
    for (number, line) in text.lines().enumerate().filter(|(_, l)| keep_line(l)) {
        // Each sentence's words once; a run's words are its sentences' together.
        let sentences: Vec<(&str, Vec<String>)> = split_sentences(line)
            .into_iter()
            .map(|s| (s, content_words(s)))
            .collect();
        for start in 0..sentences.len() {
            for len in 1..=WINDOW.min(sentences.len() - start) {
                let run = &sentences[start..start + len];
                let words: Vec<String> = run.iter().flat_map(|(_, w)| w.iter().cloned()).collect();
                if words.is_empty() || (len > 1 && run.last().is_some_and(|(_, w)| w.is_empty())) {
                    continue;
                }
                let quote: String = run.iter().map(|(s, _)| *s).collect();
                out.push((number, quote.trim().to_owned(), words));
            }
        }
    }
    out
}

/// The most sentences of one line compared with a turn at once.
const WINDOW: usize = 3;

/// Sentences: lines, cut again at `.`, `?`, `!` and `;` followed by a space.
fn split_sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut start = 0;
        let bytes = line.as_bytes();
        for (i, &b) in bytes.iter().enumerate() {
            if matches!(b, b'.' | b'?' | b'!' | b';') && bytes.get(i + 1).is_none_or(|n| *n == b' ') {
                out.push(&line[start..=i]);
                start = i + 1;
            }
        }
        if start < line.len() {
            out.push(&line[start..]);
        }
    }
    out.into_iter().filter(|s| !s.trim().is_empty()).collect()
}

/// A turn's clauses: its sentences, cut again at commas before a new thought.
fn split_clauses(text: &str) -> Vec<&str> {
    split_sentences(text)
        .into_iter()
        .flat_map(|s| s.split(", "))
        .filter(|s| !s.trim().is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(text: &str) -> Sentences {
        Sentences::new([(None, text)])
    }

    #[test]
    fn typos_case_and_word_forms_are_tolerated() {
        let s = summary("User: \"it's not jsonl file. it's json file with structure and there is syncState there\"");
        assert!(s
            .restates("ir's not jsonl file. it's json file with strcuture and there is syncState there")
            .is_some());
        let s = summary("- Before proposing Phase 4.1, check how the metrics implementation already handles errors");
        let e = s
            .restates("before providing proposal for phase 4.1 check existing implementation for metrics")
            .expect("restated");
        assert!(e.quote.starts_with("- Before proposing"));
    }

    #[test]
    fn a_paraphrase_is_restated_and_an_unrelated_sentence_is_not() {
        let s = summary("Find embedding models whose embeddings have a wider spread of values.\nThe build passes.");
        assert!(s
            .restates("help me find models where the embeddings have more diverse values")
            .is_some());
        assert!(s.restates("all of texts now sound the same").is_none());
    }

    #[test]
    fn a_turn_whose_constraint_is_dropped_is_restated_only_in_part() {
        let s = summary("The user wants to track the CodeMie conversation_uid; the last sync stays the same.");
        assert!(s
            .restates("don't add notes, looks like there is a need to track codemie conversation_uid, last sync will be the same")
            .is_none());
        let s = summary("Do not add notes. Track the CodeMie conversation_uid; the last sync stays the same.");
        assert!(s
            .restates("don't add notes, looks like there is a need to track codemie conversation_uid, last sync will be the same")
            .is_some());
    }

    #[test]
    fn values_are_found_in_their_other_forms() {
        let s = summary("**Sample rate**: 44.1 kHz for the WAV output\nSee `src/agents/core/metrics/types.ts`.\n**Sync interval**: 5 minutes in production");
        let words = |t: &str| content_words(t);
        assert!(s.holds_value("44100", &words("44100")).is_some());
        assert!(s
            .holds_value("/Users/u/repo/src/agents/core/metrics/types.ts", &[])
            .is_some());
        assert!(s.holds_value("5", &words("it's 5 min in prod")).is_some());
        assert!(s.holds_value("5", &words("5 retries")).is_none());
        assert!(s.holds_value("4", &words("4 minutes")).is_none());
        let s = summary("Test session 624a4a58 was used.");
        assert!(s.holds_value("624a4a58-b34c-462d-a70d-13421c8125a8", &[]).is_some());
    }

    #[test]
    fn stems_and_distances() {
        assert_eq!(stem("phases"), "phase");
        assert_eq!(stem("tracking"), "track");
        assert_eq!(stem("class"), "class");
        assert!(same_word("converation", "conversation"));
        assert!(same_word("proposal", "propos"));
        assert!(!same_word("file", "fine"));
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
