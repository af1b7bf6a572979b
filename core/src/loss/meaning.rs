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

use rustc_hash::FxHashMap as HashMap;

/// How much of a turn's words one sentence must hold.
const RESTATED: f64 = 0.5;
/// How much of a clause's words the text must hold for the clause to survive.
pub const CLAUSE_HELD: f64 = 0.34;
/// How far from the restating sentence a turn's other clauses may be restated.
const NEAR_LINES: usize = 2;
/// The most distinct words of a turn whose numbers are what it is about.
const SHORT_TURN: usize = 6;
/// Candidate sentences compared word by word for one turn (the rest share fewer words).
const CANDIDATES: usize = 24;
/// The most distinct words a sentence restating a turn may hold, whatever the turn…
const LONGEST_RESTATEMENT: usize = 60;
/// …or this many times the turn's own, for a long turn.
const RESTATEMENT_SPREAD: usize = 4;
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
    // Polarity, as "not" and "don't" above: a summary says a rule's direction its own way
    // (`never edit …` is `… are treated as immutable`, `without X` is `no X`, `always A`
    // is `A every time`); what must be restated is what the rule is about.
    "never", "always", "without", "instead", "rather",
    // Chat spellings of the words above, and fillers of quantity and light verbs.
    "u", "ur", "dont", "doesnt", "didnt", "cant", "wont", "isnt", "arent", "im", "ive", "pls", "plz", "lot", "lots",
    "bunch", "get", "gets", "got", "getting",
];

/// [`STOPWORDS`] as a set (every word of every text is looked up, twice).
static STOP: std::sync::LazyLock<rustc_hash::FxHashSet<&'static str>> =
    std::sync::LazyLock::new(|| STOPWORDS.iter().copied().collect());

/// Whether `word` (lowercased) is a function word or the filler of a request.
pub fn is_stopword(word: &str) -> bool {
    STOP.contains(word)
}

/// A turn's content words, or a sentence's.
pub fn content_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    each_content_word(text, |w| out.push(w.to_owned()));
    out
}

/// Gives each content word of `text` to `found`, made in one reused buffer (a turn's
/// words are copied once, where the caller keeps them).
fn each_content_word(text: &str, mut found: impl FnMut(&str)) {
    let mut word_buffer = String::new();
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '_')) {
        if word.is_empty() {
            continue;
        }
        split_digits(word, |part| {
            let part = part.trim_matches('\'');
            if part.is_empty() {
                return;
            }
            word_buffer.clear();
            if part.is_ascii() {
                word_buffer.extend(part.chars().map(|c| c.to_ascii_lowercase()));
            } else {
                word_buffer.push_str(&part.to_lowercase());
            }
            if STOP.contains(word_buffer.as_str()) {
                return;
            }
            stem(&mut word_buffer);
            if let Some(meaning) = super::synonyms::canonical(&word_buffer) {
                word_buffer.clear();
                word_buffer.push_str(meaning);
            }
            if !word_buffer.is_empty() && !STOP.contains(word_buffer.as_str()) {
                found(&word_buffer);
            }
        });
    }
}

/// A word cut where letters meet digits (`phase1` is `phase 1`), each part given to
/// `part`; identifiers with an underscore stay whole.
fn split_digits<'a>(word: &'a str, mut part: impl FnMut(&'a str)) {
    if word.contains('_') {
        return part(word);
    }
    let mut start = 0;
    let mut last: Option<bool> = None;
    for (i, c) in word.char_indices() {
        let digit = c.is_ascii_digit();
        if last.is_some_and(|d| d != digit) && c.is_alphanumeric() {
            part(&word[start..i]);
            start = i;
        }
        if c.is_alphanumeric() {
            last = Some(digit);
        }
    }
    part(&word[start..]);
}

/// A light stem: the endings that change a word's form, not its meaning, cut in place.
fn stem(word: &mut String) {
    if word.ends_with("'s") {
        word.truncate(word.len() - 2);
    }
    let n = word.chars().count();
    let ends = |w: &str, suffix: &str, min: usize| n >= min && w.ends_with(suffix);
    if ends(word, "ies", 5) {
        word.truncate(word.len() - 3);
        word.push('y');
        return;
    }
    for (suffix, min) in [("ing", 6), ("ed", 5), ("ly", 5)] {
        if ends(word, suffix, min) {
            word.truncate(word.len() - suffix.len());
            // `setting` is `set`, `skipped` is `skip`: English doubles a final consonant
            // before these endings (but `install`, `pass`, `buzz` end doubled anyway).
            if suffix != "ly" {
                let bytes = word.as_bytes();
                let n = bytes.len();
                if n >= 3
                    && bytes[n - 1] == bytes[n - 2]
                    && matches!(bytes[n - 1], b'b' | b'd' | b'g' | b'm' | b'n' | b'p' | b'r' | b't')
                {
                    word.truncate(n - 1);
                }
            }
            return;
        }
    }
    // `-es` only where English adds it (`classes`, `boxes`, `matches`); `notes` is `note`.
    if ends(word, "es", 5) {
        let s = &word[..word.len() - 2];
        if s.ends_with("ss") || s.ends_with('x') || s.ends_with("zz") || s.ends_with("ch") || s.ends_with("sh") {
            word.truncate(word.len() - 2);
            return;
        }
    }
    if ends(word, "s", 4) && !word[..word.len() - 1].ends_with(['s', 'u', 'i']) {
        word.truncate(word.len() - 1);
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

/// How many of a turn's words each sentence shares, counted in place in a per-thread
/// array as long as the text has sentences (kept between searches and cleared after each
/// by the entries it touched: a search costs what it reads, not the text's size).
struct SharedCounts {
    counts: Vec<u32>,
    touched: Vec<usize>,
}

thread_local! {
    static SHARED_COUNTS: std::cell::RefCell<SharedCounts> = const {
        std::cell::RefCell::new(SharedCounts { counts: Vec::new(), touched: Vec::new() })
    };
}

impl SharedCounts {
    /// Runs `count` with this thread's counts, ready for a text of `units` sentences,
    /// and leaves them cleared.
    fn with<R>(units: usize, count: impl FnOnce(&mut SharedCounts) -> R) -> R {
        SHARED_COUNTS.with_borrow_mut(|shared| {
            if shared.counts.len() < units {
                shared.counts.resize(units, 0);
            }
            let out = count(shared);
            for &k in &shared.touched {
                shared.counts[k] = 0;
            }
            shared.touched.clear();
            out
        })
    }

    /// One more word shared by sentence `k`.
    fn add(&mut self, k: usize) {
        if self.counts[k] == 0 {
            self.touched.push(k);
        }
        self.counts[k] += 1;
    }

    /// Each sentence sharing a word, with how many.
    fn counts(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.touched.iter().map(|&k| (k, self.counts[k] as usize))
    }
}

/// A turn as it is sought: its content words, and those of each clause of substance (two
/// words or more).
pub struct TurnWords {
    /// The words, one after another.
    buffer: String,
    /// Where each word is in `buffer`.
    spans: Vec<std::ops::Range<usize>>,
    /// Each clause of substance a restatement must hold, as a range of the words (a
    /// context clause is not one: [`is_context_clause`]).
    clauses: Vec<std::ops::Range<usize>>,
    /// The turn has more than one clause of substance, context included: each of
    /// `clauses` is then sought on its own.
    several_clauses: bool,
    /// Each distinct word's slot in a [`WordBits`] set.
    bits: Vec<u16>,
    /// The words only an `@file` mention or a pasted block (in a code fence) holds,
    /// sorted: they
    /// count for a restatement that holds them, never against one that drops them, and
    /// never alone.
    mention_only: Vec<String>,
}

/// A set of words as 2^16 bits, each word one bit by its hash: a text's vocabulary, in
/// which a turn's words are looked for before any string is compared (no word of the
/// turn's bit in the set: no word in the text).
struct WordBits(Box<[u64]>);

impl WordBits {
    fn of<'a>(words: impl IntoIterator<Item = &'a str>) -> WordBits {
        let mut bits = vec![0u64; 1 << 10].into_boxed_slice();
        for word in words {
            let bit = word_bit(word);
            bits[usize::from(bit >> 6)] |= 1 << (bit & 63);
        }
        WordBits(bits)
    }

    fn may_hold(&self, bit: u16) -> bool {
        self.0[usize::from(bit >> 6)] & (1 << (bit & 63)) != 0
    }
}

/// A word's slot in a [`WordBits`] set (the hash's high bits, the best mixed).
fn word_bit(word: &str) -> u16 {
    use std::hash::Hasher;
    let mut hasher = rustc_hash::FxHasher::default();
    hasher.write(word.as_bytes());
    (hasher.finish() >> 48) as u16
}

impl TurnWords {
    /// Cuts `text` into clauses and words once. The clauses are cut where words end
    /// anyway, so the turn's words are its clauses' words together.
    pub fn of(text: &str) -> TurnWords {
        TurnWords::with_sentences(text).0
    }

    /// [`TurnWords::of`], and the text cut into sentences for a [`Sentences`] in the same
    /// pass: a session's turns are both sought and searched (a turn said again later),
    /// and cutting them into words twice was a tenth of a sweep. A sentence's words are
    /// its clauses' words (clauses are cut where words end anyway).
    pub(crate) fn with_sentences(text: &str) -> (TurnWords, CutText) {
        let mut buffer = String::with_capacity(text.len());
        let mut spans = Vec::with_capacity(text.len() / 6);
        let mut clauses = Vec::new();
        let mut clauses_of_substance = 0usize;
        let mut mention_spans: Vec<std::ops::Range<usize>> = Vec::new();
        // First the words (the clauses' and the sentences' spans of them), then each
        // sentence's distinct words numbered, keyed by the words kept in `buffer`.
        let mut cut_at: Vec<(usize, std::ops::Range<usize>, std::ops::Range<usize>)> = Vec::new();
        let base = text.as_ptr() as usize;
        let mut in_fence = false;
        for (number, line) in text.lines().enumerate() {
            // What the user pasted in a ``` fence (a log, a file, JSON) is material
            // for the request, not the request: like a mention, its words count only
            // where a restatement holds them.
            let fence = line.trim_start().starts_with("```");
            in_fence ^= fence;
            if in_fence || fence {
                let start = spans.len();
                push_words(line, &mut buffer, &mut spans);
                mention_spans.push(start..spans.len());
                let at = line.as_ptr() as usize - base;
                cut_at.push((number, at..at + line.len(), start..spans.len()));
                continue;
            }
            for sentence in split_sentences(line) {
                let first = spans.len();
                // A clause ends at a comma, and before a `but` (what follows it is the
                // constraint a summary most often drops: "fix it but don't change X").
                for clause in sentence
                    .split(", ")
                    .flat_map(|c| c.split(" but "))
                    .filter(|c| !c.trim().is_empty())
                {
                    // An `@file` mention is how the client attaches a file: its words
                    // count in the turn's, never as a clause a restatement must keep (a
                    // summary that drops the mention restates the turn all the same).
                    let start = spans.len();
                    let end = if clause.contains('@') {
                        let plain = without_mentions(clause);
                        push_words(&plain, &mut buffer, &mut spans);
                        let end = spans.len();
                        push_words(&mentions_of(clause, &plain), &mut buffer, &mut spans);
                        mention_spans.push(end..spans.len());
                        end
                    } else {
                        push_words(clause, &mut buffer, &mut spans);
                        spans.len()
                    };
                    if end - start >= 2 {
                        clauses_of_substance += 1;
                        if !is_context_clause(clause) {
                            clauses.push(start..end);
                        }
                    }
                }
                let start = sentence.as_ptr() as usize - base;
                cut_at.push((number, start..start + sentence.len(), first..spans.len()));
            }
        }
        let mut cut = CutText {
            sentences: Vec::with_capacity(cut_at.len()),
            words: DistinctWords::default(),
        };
        let mut local: HashMap<&str, u32> = HashMap::default();
        for (line, bytes, words_at) in cut_at {
            let mut words: Vec<u32> = spans[words_at]
                .iter()
                .map(|span| {
                    let word = &buffer[span.clone()];
                    *local.entry(word).or_insert_with(|| cut.words.push(word))
                })
                .collect();
            words.sort_unstable();
            words.dedup();
            cut.sentences.push(CutSentence { line, bytes, words });
        }
        let mut bits: Vec<u16> = spans.iter().map(|s| word_bit(&buffer[s.clone()])).collect();
        bits.sort_unstable();
        bits.dedup();
        let mention_only = if mention_spans.is_empty() {
            Vec::new()
        } else {
            let in_mention = |k: usize| mention_spans.iter().any(|r| r.contains(&k));
            let plain: rustc_hash::FxHashSet<&str> = (0..spans.len())
                .filter(|&k| !in_mention(k))
                .map(|k| &buffer[spans[k].clone()])
                .collect();
            let mut only: Vec<String> = (0..spans.len())
                .filter(|&k| in_mention(k))
                .map(|k| &buffer[spans[k].clone()])
                .filter(|w| !plain.contains(w))
                .map(str::to_owned)
                .collect();
            only.sort_unstable();
            only.dedup();
            only
        };
        let words = TurnWords {
            buffer,
            spans,
            clauses,
            several_clauses: clauses_of_substance > 1,
            bits,
            mention_only,
        };
        (words, cut)
    }

    /// The turn's content words.
    pub fn words(&self) -> Vec<&str> {
        self.spans.iter().map(|s| &self.buffer[s.clone()]).collect()
    }
}

/// `text` with each `@mention` (`@src/a/b.md`, `@README.md`) blanked to spaces of the
/// same length.
/// Words that open a statement about how things are rather than a request: a subject
/// pronoun or a reason's conjunction.
const STATEMENT_OPENERS: &[&str] = &[
    "it", "its", "it's", "we", "we're", "we've", "they", "they're", "she", "he", "her", "his", "their", "this", "that",
    "these", "those", "there", "there's", "which", "because", "since", "cause", "cuz", "as",
];

/// Words that make a clause bind what the agent does, whatever opens it: a modal, a
/// negation, an always/only.
const BINDING_WORDS: &[&str] = &[
    "should",
    "must",
    "need",
    "needs",
    "have",
    "has",
    "don't",
    "dont",
    "do",
    "never",
    "always",
    "not",
    "no",
    "only",
    "can't",
    "cant",
    "cannot",
    "shouldn't",
    "mustn't",
    "won't",
    "keep",
    "stay",
    "make",
    "use",
    "avoid",
];

/// A clause that tells the agent how things are — a reason, the state of the project, a
/// complaint (`its already in package.json`, `we ship de + fr too`, `this error msg is
/// useless`) — rather than what to do: context for the request, not a constraint of it.
/// A summary that keeps the request in other words often drops or rewords such a clause,
/// so a restatement need not hold it (the turn's words as a whole still must). A clause
/// that opens like one but binds (`it must stay pure`, `we don't use semicolons`) is a
/// constraint all the same.
fn is_context_clause(clause: &str) -> bool {
    let words: Vec<String> = clause
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let opener = words
        .iter()
        .find(|w| !matches!(w.as_str(), "and" | "so" | "also" | "plus" | "oh"))
        .map(String::as_str);
    opener.is_some_and(|w| STATEMENT_OPENERS.contains(&w)) && !words.iter().any(|w| BINDING_WORDS.contains(&w.as_str()))
}

fn without_mentions(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut previous_space = true;
    let mut blanking = false;
    for (i, c) in text.char_indices() {
        let ends_word = text[i + c.len_utf8()..].starts_with(char::is_whitespace) || i + c.len_utf8() == text.len();
        if c.is_whitespace() || (matches!(c, ',' | ';' | ')') && ends_word) {
            blanking = false;
        } else if previous_space && c == '@' {
            blanking = text[i + 1..].starts_with(|n: char| n.is_alphanumeric() || matches!(n, '/' | '.' | '~'));
        }
        previous_space = c.is_whitespace();
        if blanking {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

/// Appends `text`'s content words to `buffer`, each one's place in it to `spans`.
fn push_words(text: &str, buffer: &mut String, spans: &mut Vec<std::ops::Range<usize>>) {
    each_content_word(text, |w| {
        let at = buffer.len();
        buffer.push_str(w);
        spans.push(at..buffer.len());
    });
}

/// What [`without_mentions`] blanked out of `text` (`plain`), as one text.
fn mentions_of(text: &str, plain: &str) -> String {
    text.char_indices()
        .zip(plain.chars())
        .map(|((_, original), kept)| if original != kept && kept == ' ' { original } else { ' ' })
        .collect()
}

/// A text cut into sentences, with an index from word to sentences, to be searched for
/// many turns.
pub struct Sentences {
    /// The texts, as given.
    texts: Vec<String>,
    /// Each sentence (or run of sentences): where it came from and where it is.
    units: Vec<Unit>,
    /// Each sentence's words as numbers in `vocabulary`, sorted: a turn's exact words are
    /// looked up as numbers (comparing strings was most of a report's time).
    ids: Vec<Vec<u32>>,
    /// The line each sentence is on (counted over all the texts).
    lines: Vec<usize>,
    /// Each word's number, which is its index in `postings` and `words`.
    vocabulary: HashMap<String, u32>,
    /// Each word, by number.
    words: Vec<String>,
    /// The numbers of the words starting with each byte (a typo rarely changes a word's
    /// first letter: the words close to a turn's word are looked for among these).
    by_initial: HashMap<u8, Vec<u32>>,
    /// For each word number, the sentences holding the word, in order.
    postings: Vec<Vec<usize>>,
    /// For each word number, the numbers of the words close enough to it (sorted), found
    /// the first time the word is sought: a text searched for many turns (a session's
    /// own turns) is asked for the same words again and again.
    close: Vec<std::sync::OnceLock<Box<[u32]>>>,
    /// The vocabulary as bits, made the first time a turn is sought.
    word_bits: std::sync::OnceLock<WordBits>,
}

/// A turn's (or a clause's) distinct content words, sorted, each with the numbers of the
/// text's words it is found as (itself, a typo, another form), sorted.
struct Sought<'a> {
    /// The words, sorted, each with the range of `found_as` that holds its numbers.
    words: Vec<(&'a str, std::ops::Range<usize>)>,
    /// The numbers, word after word.
    found_as: Vec<u32>,
    /// Per word: it counts only where it is found (a mention's).
    optional: Vec<bool>,
}

impl Sought<'_> {
    /// Whether word `i` is found in a sentence whose (sorted) word numbers are `numbers`.
    fn found_in(&self, i: usize, numbers: &[u32]) -> bool {
        self.found_as[self.words[i].1.clone()]
            .iter()
            .any(|id| numbers.binary_search(id).is_ok())
    }

    /// The positions of `part`'s words (a clause of the turn) among the turn's words.
    fn positions(&self, part: &[&str]) -> Vec<usize> {
        let mut at: Vec<usize> = part
            .iter()
            .filter_map(|w| self.words.binary_search_by(|(t, _)| (*t).cmp(w)).ok())
            .collect();
        at.sort_unstable();
        at.dedup();
        at
    }
}

/// A sentence's count of a turn's words ([`Sentences::tally`]).
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    /// The turn's own words (not only a mention's).
    required: usize,
    /// Of those, the ones the sentence holds.
    found_required: usize,
    /// Mention words the sentence holds.
    found_optional: usize,
}

impl Tally {
    /// Words held.
    fn found(self) -> usize {
        self.found_required + self.found_optional
    }

    /// Words counted: the turn's own, and the mention words held.
    fn counted(self) -> usize {
        self.required + self.found_optional
    }
}

/// What a turn is compared with: a sentence, or a run of up to three sentences of one
/// line (a restatement quoted whole spans several sentences of a bullet).
struct Unit {
    /// The message it is in (`None`: the summary).
    message: Option<usize>,
    /// The text it is in.
    text: usize,
    /// Where it is in that text, without the spaces around it.
    quote: std::ops::Range<usize>,
}

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
        // Cut and numbered in parallel, each text with its own numbers for its words;
        // only giving those words their numbers across all texts is done in turn.
        let cuts: Vec<CutText> = texts
            .par_iter()
            .map(|(_, text)| cut_sentences(text, &keep_line))
            .collect();
        Sentences::of_cut(&texts, &cuts.iter().collect::<Vec<_>>())
    }

    /// The sentences of `texts`, already cut (`cuts[t]` is text `t` cut): only giving
    /// their words numbers across all texts, and the runs, are left to do.
    pub(crate) fn of_cut(texts: &[(Option<usize>, &str)], cuts: &[&CutText]) -> Sentences {
        use rayon::prelude::*;
        let mut sentences = Sentences {
            texts: texts.iter().map(|(_, text)| (*text).to_owned()).collect(),
            units: Vec::new(),
            ids: Vec::new(),
            lines: Vec::new(),
            vocabulary: HashMap::default(),
            words: Vec::new(),
            by_initial: HashMap::default(),
            postings: Vec::new(),
            close: Vec::new(),
            word_bits: std::sync::OnceLock::new(),
        };
        let numbers: Vec<Vec<u32>> = cuts
            .iter()
            .map(|cut| {
                let mut numbers = Vec::with_capacity(cut.words.len());
                numbers.extend(cut.words.iter().map(|w| sentences.number(w)));
                numbers
            })
            .collect();
        let runs: Vec<Vec<(Unit, Vec<u32>, usize)>> = cuts
            .par_iter()
            .zip(&numbers)
            .enumerate()
            .map(|(t, (cut, numbers))| runs_of(t, texts[t], cut, numbers))
            .collect();
        for (unit, numbers, line) in runs.into_iter().flatten() {
            sentences.push_unit(unit, numbers, line);
        }
        sentences.close = sentences.words.iter().map(|_| std::sync::OnceLock::new()).collect();
        sentences
    }

    /// The number of `word`, given it the first time it is met.
    fn number(&mut self, word: &str) -> u32 {
        if let Some(&id) = self.vocabulary.get(word) {
            return id;
        }
        let id = u32::try_from(self.postings.len()).expect("fewer than 2^32 distinct words");
        self.postings.push(Vec::new());
        self.words.push(word.to_owned());
        self.vocabulary.insert(word.to_owned(), id);
        self.by_initial.entry(word.as_bytes()[0]).or_default().push(id);
        id
    }

    /// Adds a unit with its (sorted, distinct) word numbers.
    fn push_unit(&mut self, unit: Unit, numbers: Vec<u32>, line: usize) {
        let k = self.units.len();
        for &id in &numbers {
            self.postings[id as usize].push(k);
        }
        self.units.push(unit);
        self.ids.push(numbers);
        self.lines.push(line);
    }

    /// The text of unit `k`.
    fn quote(&self, k: usize) -> &str {
        let unit = &self.units[k];
        &self.texts[unit.text][unit.quote.clone()]
    }

    /// `words`, once each, with their numbers in this text's vocabulary.
    fn sought<'a>(&self, words: &[&'a str]) -> Sought<'a> {
        let mut distinct: Vec<&str> = words.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        let mut found_as = Vec::new();
        let words: Vec<(&str, std::ops::Range<usize>)> = distinct
            .into_iter()
            .map(|w| {
                let start = found_as.len();
                self.push_found_as(w, &mut found_as);
                found_as[start..].sort_unstable();
                (w, start..found_as.len())
            })
            .collect();
        let optional = vec![false; words.len()];
        Sought {
            words,
            found_as,
            optional,
        }
    }

    /// Pushes the numbers of the words turn word `w` is found as: itself, and for a word
    /// of five letters or more the words [`close_enough`] to it.
    fn push_found_as(&self, w: &str, out: &mut Vec<u32>) {
        if w.len() >= 5 {
            let scan = || -> Box<[u32]> {
                let close = self.by_initial.get(&w.as_bytes()[0]).into_iter().flatten();
                let mut ids: Vec<u32> = close
                    .copied()
                    .filter(|&id| close_enough(w, &self.words[id as usize]))
                    .collect();
                ids.sort_unstable();
                ids.into()
            };
            match self.vocabulary.get(w) {
                Some(&id) => out.extend_from_slice(self.close[id as usize].get_or_init(scan)),
                None => out.extend_from_slice(&scan()),
            }
        } else {
            out.extend(self.vocabulary.get(w).copied());
        }
    }

    /// The word numbers of the turn's words, for picking candidate sentences: exact
    /// matches only.
    fn exact<'s>(&'s self, sought: &'s Sought<'_>) -> impl Iterator<Item = u32> + 's {
        sought
            .words
            .iter()
            .filter_map(|(w, _)| self.vocabulary.get(*w).copied())
    }

    /// How much of the turn's words sentence `k` holds: a word counts when the sentence
    /// has it exactly or has a word close enough to it (a typo, another form).
    fn coverage(&self, sought: &Sought<'_>, k: usize) -> f64 {
        let tally = self.tally(sought, k);
        if tally.required == 0 {
            return tally.found_optional as f64 / sought.words.len() as f64;
        }
        tally.found() as f64 / tally.counted() as f64
    }

    /// How many of the turn's words sentence `k` holds: its own words, and the words of
    /// its mentions, which count only where they are found.
    fn tally(&self, sought: &Sought<'_>, k: usize) -> Tally {
        let numbers = &self.ids[k];
        let mut tally = Tally::default();
        for i in 0..sought.words.len() {
            let found = usize::from(sought.found_in(i, numbers));
            if sought.optional[i] {
                tally.found_optional += found;
            } else {
                tally.required += 1;
                tally.found_required += found;
            }
        }
        tally
    }

    /// [`Sentences::coverage`] of the turn's words at `positions` (a clause).
    fn part_coverage(&self, sought: &Sought<'_>, positions: &[usize], k: usize) -> f64 {
        let numbers = &self.ids[k];
        let found = positions.iter().filter(|&&i| sought.found_in(i, numbers)).count();
        found as f64 / positions.len() as f64
    }

    /// The sentence that best restates `words` (a turn's content words), with how much of
    /// them it holds and its position: the best of the sentences `keep` accepts, which
    /// accepts none before `first`.
    fn best_where(&self, words: &Sought<'_>, first: usize, keep: impl Fn(usize) -> bool) -> Option<(usize, Evidence)> {
        // Candidates: the sentences sharing the most words exactly, read from the rarest
        // words' lists first; a word so common that reading its list would pass the
        // bound picks no candidates (it still counts in each candidate's coverage).
        let mut lists: Vec<&[usize]> = self
            .exact(words)
            .map(|id| self.postings[id as usize].as_slice())
            .collect();
        lists.sort_by_key(|l| l.len());
        let mut candidates: Vec<(usize, usize)> = SharedCounts::with(self.units.len(), |shared| {
            let mut read = 0;
            for list in lists {
                if read >= POSTINGS_READ {
                    break;
                }
                // Even the rarest word's list is read only up to the bound.
                let take = list.len().min(POSTINGS_READ - read);
                read += take;
                // Lists are in sentence order: the ones before `first` are only skipped.
                let read_part = &list[..take];
                for &k in &read_part[read_part.partition_point(|&k| k < first)..] {
                    shared.add(k);
                }
            }
            shared.counts().filter(|&(k, _)| keep(k)).collect()
        });
        let by_shared = |a: &(usize, usize), b: &(usize, usize)| b.1.cmp(&a.1).then(a.0.cmp(&b.0));
        if candidates.len() > CANDIDATES {
            candidates.select_nth_unstable_by(CANDIDATES, by_shared);
            candidates.truncate(CANDIDATES);
        }
        candidates.sort_by(by_shared);
        let (k, covered) = candidates
            .into_iter()
            .map(|(k, _)| (k, self.coverage(words, k)))
            // The best coverage; among equals the shortest quote (the sentence itself
            // rather than a run around it).
            .max_by(|a, b| {
                a.1.total_cmp(&b.1)
                    .then(self.units[b.0].quote.len().cmp(&self.units[a.0].quote.len()))
            })?;
        Some((
            k,
            Evidence {
                message: self.units[k].message,
                quote: self.quote(k).to_owned(),
                coverage: covered,
            },
        ))
    }

    /// Whether the lines around sentence `at` hold `words` (a clause of the turn that
    /// sentence restates: a restatement keeps a turn's clauses together).
    fn holds_near(&self, sought: &Sought<'_>, positions: &[usize], at: usize) -> bool {
        // Units are stored in text order: the ones near `at` sit next to it.
        let (line, message) = (self.lines[at], self.units[at].message);
        let near = |k: &usize| self.units[*k].message == message && self.lines[*k].abs_diff(line) <= NEAR_LINES;
        let before = (0..at).rev().take_while(near);
        let after = (at..self.units.len()).take_while(near);
        before
            .chain(after)
            .any(|k| self.part_coverage(sought, positions, k) >= CLAUSE_HELD)
    }

    /// The evidence that the text restates the turn `text` whole; `None` when it does not,
    /// or only in part (a clause of substance is nowhere in it).
    pub fn restates(&self, text: &str) -> Option<Evidence> {
        self.restates_turn(&TurnWords::of(text))
    }

    /// [`Sentences::restates`] for a turn already cut into words (a turn sought in several
    /// texts is cut once).
    pub fn restates_turn(&self, turn: &TurnWords) -> Option<Evidence> {
        self.restates_turn_where(turn, |_| true)
    }

    /// [`Sentences::restates_turn`] by the sentences whose message `from` accepts.
    pub fn restates_turn_where(&self, turn: &TurnWords, from: impl Fn(Option<usize>) -> bool) -> Option<Evidence> {
        self.restates_turn_from(turn, 0, from)
    }

    /// [`Sentences::restates_turn`] by the sentences of messages after `message` (a turn
    /// said again later), for texts given in message order: those sentences are the
    /// last ones, so the words' lists are read from the first of them (the same
    /// candidates, without counting the earlier sentences only to drop them).
    pub fn restates_turn_after(&self, turn: &TurnWords, message: usize) -> Option<Evidence> {
        debug_assert!(self.units.is_sorted_by_key(|u| u.message), "texts in message order");
        let first = self.units.partition_point(|u| u.message.is_none_or(|m| m <= message));
        self.restates_turn_from(turn, first, |m| m.is_some_and(|m| m > message))
    }

    /// [`Sentences::restates_turn_where`] where no sentence before `first` is accepted.
    fn restates_turn_from(
        &self,
        turn: &TurnWords,
        first: usize,
        from: impl Fn(Option<usize>) -> bool,
    ) -> Option<Evidence> {
        // Candidates are the sentences sharing a word exactly: with none, no sentence
        // can restate the turn, and the words need not be sorted and matched by form
        // (most turns against a short summary). The bits rule most turns out at once.
        let bits = self
            .word_bits
            .get_or_init(|| WordBits::of(self.words.iter().map(String::as_str)));
        if !turn.bits.iter().any(|&bit| bits.may_hold(bit)) {
            return None;
        }
        let words = turn.words();
        if !words.iter().any(|w| self.vocabulary.contains_key(*w)) {
            return None;
        }
        let mut sought = self.sought(&words);
        for (i, (word, _)) in sought.words.iter().enumerate() {
            sought.optional[i] = turn.mention_only.binary_search_by(|m| m.as_str().cmp(word)).is_ok();
        }
        // A restatement is a sentence, not a page: a unit holding many times the turn's
        // words (a file or a prompt on one line) holds most words of any turn by chance.
        let longest = LONGEST_RESTATEMENT.max(RESTATEMENT_SPREAD * sought.words.len());
        let (at, best) = self.best_where(&sought, first, |k| {
            self.ids[k].len() <= longest && from(self.units[k].message)
        })?;
        // A turn of one or two words must be held whole; a mention's words count only
        // where held, and never alone (a path restates no request).
        let tally = self.tally(&sought, at);
        let counted = if tally.required == 0 {
            words.len()
        } else {
            tally.counted()
        };
        let needed = if counted <= 2 { 1.0 } else { RESTATED };
        if best.coverage < needed || (tally.required > 0 && tally.found_required == 0) {
            return None;
        }
        // A short turn with numbers is about one of them (`question 0` is not `question
        // 9`): the restating sentence holds at least one. A long turn's numbers are often
        // incidental to it.
        let unit_numbers = &self.ids[at];
        let mut numbers = (0..sought.words.len())
            .filter(|&i| sought.words[i].0.bytes().all(|b| b.is_ascii_digit()))
            .peekable();
        if sought.words.len() <= SHORT_TURN
            && numbers.peek().is_some()
            && !numbers.any(|i| sought.found_in(i, unit_numbers))
        {
            return None;
        }
        if turn.several_clauses
            && !turn
                .clauses
                .iter()
                .all(|c| self.holds_near(&sought, &sought.positions(&words[c.clone()]), at))
        {
            return None;
        }
        Some(best)
    }
}

impl Sentences {
    /// The sentence that holds `value` in one of its forms (see [`value_forms`]); a short
    /// number must also sit beside one of the turn's `words` (`5` beside `min`), or any
    /// `5` would do.
    pub fn holds_value(&self, value: &str, words: &[impl AsRef<str>]) -> Option<Evidence> {
        let forms = value_forms(value);
        let short_number = value.len() < 4 && value.chars().all(|c| c.is_ascii_digit() || c == '.');
        self.units_that_may_hold(&forms).find_map(|k| {
            let text = self.quote(k);
            let lower = text.to_lowercase();
            let held = self.ids[k].iter().map(|&id| &self.words[id as usize]);
            let found = forms.iter().any(|f| contains_token(&lower, f));
            // `min` beside `minutes`, `prod` beside `production`: a unit or a word of
            // the turn, written out.
            let near = |w: &str, h: &String| same_word(w, h) || (w.len() >= 3 && h.starts_with(w));
            let beside = !short_number
                || words
                    .iter()
                    .map(AsRef::as_ref)
                    .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
                    .any(|w| held.clone().any(|h| near(w, h)));
            (found && beside).then(|| Evidence {
                message: self.units[k].message,
                quote: text.to_owned(),
                coverage: 1.0,
            })
        })
    }
}

impl Sentences {
    /// The units, in order, that may hold one of `forms` as a token: a unit holding a
    /// form holds each of the form's content words, so a form's candidates are the units
    /// on its rarest word's list that hold its other words too. A value is then sought in
    /// a few sentences rather than every one: a session's summaries grow with its
    /// firings, and reading them all for each value a user gave made a long replay
    /// quadratic. A form with no content word (all function words) is sought everywhere.
    fn units_that_may_hold(&self, forms: &[String]) -> Box<dyn Iterator<Item = usize> + '_> {
        let mut per_form: Vec<(&[usize], Vec<u32>)> = Vec::with_capacity(forms.len());
        for form in forms {
            let mut ids = Vec::new();
            let mut absent = false;
            each_content_word(form, |word| match self.vocabulary.get(word) {
                Some(&id) => ids.push(id),
                None => absent = true,
            });
            if ids.is_empty() && !absent {
                return Box::new(0..self.units.len());
            }
            if absent {
                continue; // a word of the form is in no unit: neither is the form
            }
            ids.sort_unstable();
            ids.dedup();
            let rarest = ids
                .iter()
                .map(|&id| self.postings[id as usize].as_slice())
                .min_by_key(|list| list.len())
                .unwrap_or_default();
            per_form.push((rarest, ids));
        }
        // Each form's list is in unit order: merged lazily, so a value found early reads
        // no further.
        let mut heads = vec![0usize; per_form.len()];
        let mut last = None;
        Box::new(std::iter::from_fn(move || loop {
            let (f, &k) = per_form
                .iter()
                .zip(&heads)
                .enumerate()
                .filter_map(|(f, ((list, _), &at))| list.get(at).map(|k| (f, k)))
                .min_by_key(|&(_, k)| *k)?;
            heads[f] += 1;
            let holds_all = per_form[f].1.iter().all(|id| self.ids[k].binary_search(id).is_ok());
            if holds_all && last != Some(k) {
                last = Some(k);
                return Some(k);
            }
        }))
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
    // `14k` is `14000` and `14,000`; `v3.2.0` is `3.2.0`.
    if let Some(n) = v.strip_suffix('k').and_then(|k| k.parse::<u64>().ok()) {
        let n = n * 1000;
        forms.push(n.to_string());
        forms.push(crate::text::thousands(n));
    }
    if let Some(version) = v
        .strip_prefix('v')
        .filter(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
    {
        forms.push(version.to_owned());
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

/// The sentences of `text`'s lines that `keep_line` accepts, each with its content words
/// numbered within the text: the first parallel step of [`Sentences::new_where`]. The
/// units a turn is compared with (each sentence, and runs of up to three sentences of one
/// line: a restatement quoted whole spans several sentences of a bullet) are formed by
/// [`runs_of`] once the words have their numbers across all texts.
fn cut_sentences(text: &str, keep_line: &impl Fn(&str) -> bool) -> CutText {
    let mut cut = CutText {
        sentences: Vec::new(),
        words: DistinctWords::default(),
    };
    let mut local: HashMap<String, u32> = HashMap::default();
    let base = text.as_ptr() as usize;
    for (number, line) in text.lines().enumerate().filter(|(_, l)| keep_line(l)) {
        for sentence in split_sentences(line) {
            let start = sentence.as_ptr() as usize - base;
            let mut words = Vec::new();
            each_content_word(sentence, |w| {
                let id = if let Some(&id) = local.get(w) {
                    id
                } else {
                    let id = cut.words.push(w);
                    local.insert(w.to_owned(), id);
                    id
                };
                words.push(id);
            });
            words.sort_unstable();
            words.dedup();
            cut.sentences.push(CutSentence {
                line: number,
                bytes: start..start + sentence.len(),
                words,
            });
        }
    }
    cut
}

/// The units of text `t` (its sentences and their runs) with their word numbers (the
/// text's own word `i` is word `numbers[i]` of all the texts) and the line each is on.
fn runs_of(
    t: usize,
    (message, text): (Option<usize>, &str),
    cut: &CutText,
    numbers: &[u32],
) -> Vec<(Unit, Vec<u32>, usize)> {
    // Lines of different texts are never near each other.
    let base = t * (1 << 20);
    let mut out = Vec::new();
    for start in 0..cut.sentences.len() {
        let line = cut.sentences[start].line;
        // A run stays on one line and never ends on a sentence without words.
        let on_line = cut.sentences[start..].iter().take_while(|s| s.line == line).count();
        for len in 1..=WINDOW.min(on_line) {
            let run = &cut.sentences[start..start + len];
            let last = &run[len - 1];
            if last.words.is_empty() && (len > 1 || run[0].words.is_empty()) {
                continue;
            }
            let mut ids: Vec<u32> = run
                .iter()
                .flat_map(|s| s.words.iter().map(|&w| numbers[w as usize]))
                .collect();
            ids.sort_unstable();
            ids.dedup();
            let bytes = run[0].bytes.start..last.bytes.end;
            let quote = &text[bytes.clone()];
            let trimmed_start = bytes.start + (quote.len() - quote.trim_start().len());
            let trimmed_end = bytes.end - (quote.len() - quote.trim_end().len());
            let unit = Unit {
                message,
                text: t,
                quote: trimmed_start..trimmed_end.max(trimmed_start),
            };
            out.push((unit, ids, base + line));
        }
    }
    out
}

/// One text cut into sentences: their places and their content words.
pub(crate) struct CutText {
    sentences: Vec<CutSentence>,
    /// The text's distinct content words; a sentence names them by index.
    words: DistinctWords,
}

/// Distinct words, numbered in the order they came, kept one after another in one
/// buffer (a session's turns keep theirs: a `String` each was most of cutting them).
#[derive(Default)]
struct DistinctWords {
    buffer: String,
    /// Where each word ends in `buffer`.
    ends: Vec<usize>,
}

impl DistinctWords {
    /// Adds `word` (not yet among them); its number.
    fn push(&mut self, word: &str) -> u32 {
        self.buffer.push_str(word);
        self.ends.push(self.buffer.len());
        u32::try_from(self.ends.len() - 1).expect("fewer than 2^32 words in one text")
    }

    /// How many.
    fn len(&self) -> usize {
        self.ends.len()
    }

    /// The words, by number.
    fn iter(&self) -> impl Iterator<Item = &str> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(start, &end)| &self.buffer[start..end])
    }
}

/// One sentence of a [`CutText`].
struct CutSentence {
    /// The line of its text it is on.
    line: usize,
    /// Where it is in its text.
    bytes: std::ops::Range<usize>,
    /// Its distinct words, as indices of the text's words, sorted.
    words: Vec<u32>,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(text: &str) -> Sentences {
        Sentences::new([(None, text)])
    }

    #[test]
    fn a_clause_that_says_how_things_are_is_context_one_that_binds_is_a_constraint() {
        for context in [
            "its already in package.json",
            "we ship de + fr too",
            "this error msg is useless",
            "because the old one leaks",
            "and her excel chokes on the commas",
        ] {
            assert!(is_context_clause(context), "{context}");
        }
        for constraint in [
            "it must stay pure",
            "we don't use semicolons",
            "this should never touch the network",
            "dont invent new ones",
            "keep the old api",
            "the status pills use the colors from tokens.ts",
        ] {
            assert!(!is_context_clause(constraint), "{constraint}");
        }
        // A request whose reason the summary words its own way is restated; one whose
        // constraint it drops is not.
        let s = summary("TanStack Table is to be used (it is already a dependency).");
        assert!(s.restates("use tanstack table, its already in package.json").is_some());
        let s = summary("Wrap the copy error with the file path.");
        assert!(s
            .restates("wrap the copy error with the path, but dont log it twice")
            .is_none());
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
    fn a_short_turn_is_about_its_number() {
        let s = summary("question 9 pad pad pad pad");
        assert!(s.restates("question 0 pad pad pad").is_none());
        assert!(s.restates("question 9 pad pad").is_some());
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
    fn a_summary_in_other_words_of_the_same_meaning_restates_the_turn() {
        // Abbreviations and swapped verbs (loss::synonyms): each turn shares under half
        // its words with the sentence letter for letter, all of them by meaning.
        let s = summary("- Delete the temporary folders and keep the existing configuration untouched.");
        assert!(s.restates("rm the tmp dirs, preserve current config").is_some());
        let s = summary("The user asked to verify the repository documentation before release.");
        assert!(s.restates("check repo docs before release").is_some());
        // A sentence sharing the meaning of one word only does not.
        assert!(s.restates("check the build on windows").is_none());
    }

    #[test]
    fn a_dropped_file_mention_still_restates_the_turn() {
        let s = summary("User asked to review the old and current implementation for metrics.");
        assert!(s
            .restates("@src/providers/plugins/sso/ARCHITECTURE-REFACTORING.md review old and current implementation for metrics")
            .is_some());
        assert_eq!(without_mentions("see @a/b.md, me@x.io @ 1"), "see        , me@x.io @ 1");
        let s = summary("Reuse the existing session navigation component template for the combined transcript.");
        assert!(s
            .restates("could we reuse @claude_code_log/templates/components/session_nav.html for that? looks like it's very similar?")
            .is_some(), "a mention that is what the turn is about still counts where it is found");
        let s = summary("- `claude_code_log/templates/transcript.html`\nDo not recap, or similar.");
        assert!(s
            .restates("could we reuse @claude_code_log/templates/components/session_nav.html for that? looks like it's very similar?")
            .is_none(), "a path restates no request, nor one word of two");
    }

    #[test]
    fn what_the_user_pasted_in_a_fence_is_not_the_request() {
        let turn = "base the field names on this, it's a real session file from my machine\n\n```json\n{\"sessionId\": \"b81c\", \"agentName\": \"claude\", \"provider\": \"sso\", \"startTime\": 1737795301123}\n```";
        let s = summary("Field names are to follow the real session file the user pasted.");
        assert!(s.restates(turn).is_some());
        let s = summary("The session file holds sessionId, agentName, provider and startTime.");
        assert!(s.restates(turn).is_none(), "the pasted words alone restate no request");
    }

    #[test]
    fn a_page_on_one_line_restates_nothing() {
        // A prompt or a file read on one line holds most words of a turn by chance.
        let page = format!(
            "spin up three teammates in worktrees {} and each commits with their name",
            (0..80).map(|k| format!("word{k}x")).collect::<Vec<_>>().join(" ")
        );
        let s = summary(&page);
        assert!(s.restates("spin up 3 teammates, each in its own worktree").is_none());
        let s = summary("Spin up three teammates, each working in its own worktree.");
        assert!(s
            .restates("spin up three teammates, each in its own worktree")
            .is_some());
    }

    #[test]
    fn a_constraint_after_but_must_be_kept_too() {
        let s = summary("- Fix the sidechain items overlapping the group labels.");
        assert!(s
            .restates("the sidechain items overlap the group labels now. fix that but dont change the colours again")
            .is_none());
        let s = summary("- Fix the sidechain items overlapping the group labels without changing the colours again.");
        assert!(s
            .restates("the sidechain items overlap the group labels now. fix that but dont change the colours again")
            .is_some());
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
            .holds_value("/Users/u/repo/src/agents/core/metrics/types.ts", &[] as &[&str])
            .is_some());
        assert!(s.holds_value("5", &words("it's 5 min in prod")).is_some());
        assert!(s.holds_value("5", &words("5 retries")).is_none());
        assert!(s.holds_value("4", &words("4 minutes")).is_none());
        let s = summary("Test session 624a4a58 was used.");
        assert!(s
            .holds_value("624a4a58-b34c-462d-a70d-13421c8125a8", &[] as &[&str])
            .is_some());
    }

    #[test]
    fn a_value_is_found_through_the_word_lists_where_a_scan_finds_it() {
        // Every shipped transcript's text as the summary, every value any of its
        // messages holds as what is sought: the candidates of `units_that_may_hold` never
        // miss a unit a scan of all of them would take.
        let mut found = 0;
        for transcript in crate::test_data::shipped_transcripts().iter().take(40) {
            let texts: Vec<String> = (0..transcript.messages.len().min(300))
                .map(|i| transcript.readable_text(i))
                .collect();
            let sentences = Sentences::new(texts.iter().map(|t| (None, t.as_str())));
            let mut values: Vec<String> = texts.iter().flat_map(|t| crate::loss::turns::values(t)).collect();
            values.sort_unstable();
            values.dedup();
            for value in values.iter().take(200) {
                let forms = value_forms(value);
                let scanned = (0..sentences.units.len()).find(|&k| {
                    let lower = sentences.quote(k).to_lowercase();
                    forms.iter().any(|f| contains_token(&lower, f))
                });
                let indexed = sentences.units_that_may_hold(&forms).find(|&k| {
                    let lower = sentences.quote(k).to_lowercase();
                    forms.iter().any(|f| contains_token(&lower, f))
                });
                assert_eq!(indexed, scanned, "{value:?} in {}", transcript.source());
                found += usize::from(scanned.is_some());
            }
        }
        assert!(found > 100, "the values are found ({found})");
    }

    #[test]
    fn stems_and_distances() {
        let stemmed = |w: &str| {
            let mut w = w.to_owned();
            stem(&mut w);
            w
        };
        assert_eq!(stemmed("phases"), "phase");
        assert_eq!(stemmed("tracking"), "track");
        assert_eq!(stemmed("class"), "class");
        assert_eq!(stemmed("setting"), "set");
        assert_eq!(stemmed("skipped"), "skip");
        assert_eq!(stemmed("installing"), "install");
        assert_eq!(stemmed("passed"), "pass");
        assert!(same_word("converation", "conversation"));
        assert!(same_word("proposal", "propos"));
        assert!(!same_word("file", "fine"));
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
