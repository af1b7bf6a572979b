//! A summary's own list of the user's messages, read in order. Claude Code's compaction
//! prompt has the summary list every user message ("All user messages:"), and other
//! summaries often do the same; such an entry restates a turn in its own words — often
//! shorter, sometimes in another language than the user wrote ("Asked (in Spanish) for
//! …") — so a turn can be restated by its entry while sharing too few words with any one
//! sentence for [`super::meaning`] to see it.
//!
//! The list keeps the order the user spoke in, which is what makes it readable without
//! knowing the language: the turns and the entries are aligned in order (an entry may be
//! left out, a turn may have none), each pair scored by what survives translation and
//! paraphrase — numbers (`4,90€` is `€4.90`, `9pm` is `21:00`, `~40k` is `40,000`, `four` is `4`),
//! identifiers and acronyms (`CartDrawer`, `DEBUG_LOG`, `IVA`), and words that share their
//! first five letters (`Baleares`/`Balearic`). An aligned entry restates its turn only when
//! it holds **each** clause of substance of the turn: every number and identifier of the
//! clause, or a third of its words. An entry that keeps one clause of two ("node groups on
//! 1.29, staging first" of "… dont touch prod until i say so") leaves the turn lost, as a
//! summary that drops a constraint loses it.

use super::languages;
use super::meaning::{self, Evidence};

/// The longest line taken as the heading of the list.
const LONGEST_HEADING: usize = 60;
/// A turn word and an entry word are the same word (or a cognate, or a form of it) when
/// they share this many first letters.
const SHARED_PREFIX: usize = 5;
/// The least score (an anchor counts two, a word one) of a turn and its entry…
const LEAST_SCORE: usize = 2;
/// …and the least share of the turn's own score it may have.
const LEAST_SHARE: f64 = 0.15;
/// The most turn × entry pairs scored (a list this long is not a summary's).
const MOST_PAIRS: usize = 250_000;

/// For each of `turns` (the human turns the summaries cover, in the order they were
/// said), the entry of a summary's list of user messages that restates it, if any.
pub fn restated_by_lists(summaries: &[&str], turns: &[&str]) -> Vec<Option<Evidence>> {
    let mut found: Vec<Option<Evidence>> = vec![None; turns.len()];
    // Most summaries hold no such list: the turns are read only for one that does (a
    // sweep judges every setting's summaries).
    let lists: Vec<Vec<String>> = summaries
        .iter()
        .map(|s| entries_of(s))
        .filter(|entries| !entries.is_empty() && entries.len().saturating_mul(turns.len()) <= MOST_PAIRS)
        .collect();
    if turns.is_empty() {
        return found;
    }
    let turns: Vec<Said> = turns.iter().map(|t| Said::of(t)).collect();
    for list in lists {
        let entries: Vec<Said> = list.iter().map(|e| Said::of(e)).collect();
        for (t, e) in align(&turns, &entries) {
            if found[t].is_none() && holds_each_clause(&turns[t], &entries[e], true) {
                found[t] = Some(Evidence {
                    message: None,
                    quote: entries[e].text.clone(),
                    coverage: score(&turns[t], &entries[e]).1,
                });
            }
        }
    }
    restated_in_translation(summaries, &turns, &mut found);
    found
}

/// A turn in another language than the summaries, not found in a list, is sought among
/// the summaries' lines: one that holds each number and name of it and a cognate in each
/// of its other clauses, and scores as an aligned pair must, restates it.
fn restated_in_translation(summaries: &[&str], turns: &[Said], found: &mut [Option<Evidence>]) {
    let foreign: Vec<usize> = (0..turns.len())
        .filter(|&t| found[t].is_none() && turns[t].foreign)
        .collect();
    if foreign.is_empty() {
        return;
    }
    let lines: Vec<Said> = summaries
        .iter()
        .flat_map(|s| s.lines())
        .map(|line| line.trim().trim_start_matches(['-', '*', '•', '#']).trim())
        .filter(|line| line.len() > 1)
        .map(Said::of)
        .filter(|line| !line.foreign)
        .take(MOST_PAIRS / foreign.len().max(1))
        .collect();
    for t in foreign {
        let best = lines
            .iter()
            .filter_map(|line| Some((restates_unaligned(&turns[t], line)?, line)))
            .max_by(|((a, x), _), ((b, y), _)| a.cmp(b).then(x.total_cmp(y)));
        if let Some(((_, coverage), line)) = best {
            found[t] = Some(Evidence {
                message: None,
                quote: line.text.clone(),
                coverage,
            });
        }
    }
}

/// The most lines after a compaction read for turns in another language said again.
const MOST_LINES_AFTER: usize = 20_000;

/// For each of `turns` in another language than the texts, the first line of `texts`
/// (a message index and its text, in order) that says it again in the texts' language: it
/// holds each number and name of the turn and a cognate in each of its other clauses, as
/// a summary line must ([`restated_by_lists`]). `None` for a turn in English, or said
/// nowhere.
pub fn said_in_translation(texts: &[(Option<usize>, String)], turns: &[&str]) -> Vec<Option<Evidence>> {
    let foreign: Vec<(usize, Said)> = turns
        .iter()
        .enumerate()
        .map(|(k, t)| (k, Said::of(t)))
        .filter(|(_, t)| t.foreign)
        .collect();
    let mut found: Vec<Option<Evidence>> = vec![None; turns.len()];
    if foreign.is_empty() {
        return found;
    }
    let lines: Vec<(Option<usize>, Said)> = texts
        .iter()
        .flat_map(|(message, text)| text.lines().map(move |line| (*message, line)))
        .map(|(message, line)| (message, line.trim()))
        .filter(|(_, line)| line.len() > 1)
        .map(|(message, line)| (message, Said::of(line)))
        .filter(|(_, line)| !line.foreign)
        .take(MOST_LINES_AFTER)
        .collect();
    for (k, turn) in &foreign {
        found[*k] = lines.iter().find_map(|(message, line)| {
            let (_, coverage) = restates_unaligned(turn, line)?;
            Some(Evidence {
                message: *message,
                quote: line.text.clone(),
                coverage,
            })
        });
    }
    found
}

/// How much of `turn` `line` holds (the score and its share), when the line restates it
/// with no list's order to go by: it scores as an aligned pair must, and holds every
/// clause ([`holds_each_clause`]).
fn restates_unaligned(turn: &Said, line: &Said) -> Option<(usize, f64)> {
    let (score, share) = score(turn, line);
    (score >= LEAST_SCORE && share >= LEAST_SHARE && holds_each_clause(turn, line, false)).then_some((score, share))
}

/// The entries of `summary`'s list of the user's messages, in order (empty when it has
/// none): the list items under a heading that names the user's messages, up to the next
/// heading.
pub fn entries_of(summary: &str) -> Vec<String> {
    let mut lines = summary.lines();
    let heading_indent = loop {
        let Some(line) = lines.next() else {
            return Vec::new();
        };
        if is_heading(line) {
            break indent(line);
        }
    };
    let mut entries: Vec<String> = Vec::new();
    for line in lines {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(item) = list_item(trimmed) {
            if indent(line) > heading_indent || !starts_numbered(trimmed) {
                entries.push(unquoted(item).to_owned());
                continue;
            }
        }
        if trimmed.starts_with('#') || indent(line) <= heading_indent || entries.is_empty() {
            break;
        }
        // A wrapped item goes on under its marker.
        if let Some(last) = entries.last_mut() {
            last.push(' ');
            last.push_str(trimmed);
        }
    }
    entries
}

/// A heading that names the user's messages ("6. All user messages:", "## User messages").
/// Not ctxlens' own extractive "User requests": its entries are the turns' own first
/// lines, found word for word, and a replay writes one at every firing.
fn is_heading(line: &str) -> bool {
    let text = line
        .trim()
        .trim_start_matches(|c: char| c == '#' || c == '*' || c.is_ascii_digit() || c == '.' || c == ' ')
        .trim_end_matches([':', '*', ' '])
        .to_lowercase();
    text.len() <= LONGEST_HEADING
        && (text.contains("user messages")
            || text.contains("user's messages")
            || text.contains("messages from the user"))
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

fn starts_numbered(trimmed: &str) -> bool {
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && matches!(trimmed.as_bytes().get(digits), Some(b'.' | b')'))
}

/// The text of a list item (`- x`, `* x`, `• x`, `3. x`), or `None`.
fn list_item(trimmed: &str) -> Option<&str> {
    for marker in ["- ", "* ", "• "] {
        if let Some(rest) = trimmed.strip_prefix(marker) {
            return Some(rest.trim());
        }
    }
    if starts_numbered(trimmed) {
        let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
        return Some(trimmed[digits + 1..].trim());
    }
    None
}

/// An entry quoting the user's words, without the quotes.
fn unquoted(item: &str) -> &str {
    let quoted = |open: char, close: char| item.chars().count() >= 2 && item.starts_with(open) && item.ends_with(close);
    if quoted('"', '"') || quoted('“', '”') {
        let first = item.chars().next().map_or(0, char::len_utf8);
        let last = item.chars().last().map_or(0, char::len_utf8);
        &item[first..item.len() - last]
    } else {
        item
    }
}

/// What of a text survives translation and paraphrase.
struct Said {
    text: String,
    /// Written in another language than English ([`languages::is_foreign`]).
    foreign: bool,
    lower: String,
    numbers: Vec<String>,
    names: Vec<String>,
    words: Vec<String>,
}

impl Said {
    fn of(text: &str) -> Said {
        // A summary quotes code in backticks (`` `esc_html`/`esc_attr` ``): the name is the
        // same without them.
        let lower = text.to_lowercase().replace('`', "");
        let mut numbers = numbers_of(&lower);
        numbers.sort_unstable();
        numbers.dedup();
        let mut names = names_of(text);
        names.sort_unstable();
        names.dedup();
        let mut words: Vec<String> = lower
            .split(|c: char| !(c.is_alphabetic() || c == '\''))
            .filter(|w| w.chars().count() >= 4 && !meaning::is_stopword(w))
            .map(languages::without_accents)
            .collect();
        words.sort_unstable();
        words.dedup();
        Said {
            text: text.to_owned(),
            foreign: languages::is_foreign(text),
            lower,
            numbers,
            names,
            words,
        }
    }

    /// Whether `anchor`, a number or name of another text, is here.
    fn has_number(&self, number: &str) -> bool {
        self.numbers.binary_search_by(|n| n.as_str().cmp(number)).is_ok()
    }

    fn has_name(&self, name: &str) -> bool {
        self.lower.contains(name)
    }

    /// Whether a word of this text is `word` or shares its first letters (both without
    /// accents).
    fn has_word(&self, word: &str) -> bool {
        let key = prefix(word);
        self.words.iter().any(|w| prefix(w) == key)
    }
}

fn prefix(word: &str) -> &str {
    match word.char_indices().nth(SHARED_PREFIX) {
        Some((end, _)) => &word[..end],
        None => word,
    }
}

/// The numbers of a lowercased text, each in one form (words first): a decimal comma as a point,
/// thousands without separators, `k` as thousands, times of day on 24 hours without a
/// leading zero (`9pm`, `21:00` and `21h` are `21:00`).
fn numbers_of(lower: &str) -> Vec<String> {
    let bytes = lower.as_bytes();
    // Numbers written out ("four A100s" for "4x A100"), as the summary's synonyms read them.
    let mut out: Vec<String> = lower
        .split(|c: char| !c.is_alphabetic())
        .filter_map(super::synonyms::canonical)
        .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        .map(str::to_owned)
        .collect();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        // Digits inside a word (`phase2`, `a100`) are no number; a version's `v` is.
        let word_start = lower[..i]
            .rfind(|c: char| !c.is_alphabetic())
            .map_or(0, |k| k + lower[k..].chars().next().map_or(1, char::len_utf8));
        if word_start < i && &lower[word_start..i] != "v" {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                i += 1;
            }
            continue;
        }
        let start = i;
        while i < bytes.len()
            && (bytes[i].is_ascii_digit()
                || (matches!(bytes[i], b'.' | b',' | b':') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)))
        {
            i += 1;
        }
        let digits = &lower[start..i];
        let rest = lower[i..].trim_start_matches(' ');
        let suffix_word = |s: &str| rest.starts_with(s) && !rest[s.len()..].starts_with(char::is_alphabetic);
        out.push(if suffix_word("pm") || suffix_word("am") || suffix_word("h") {
            time_of_day(digits, suffix_word("pm"))
        } else if suffix_word("k") {
            thousands(digits)
        } else {
            plain_number(digits)
        });
    }
    out
}

fn time_of_day(digits: &str, afternoon: bool) -> String {
    let (hour, minutes) = digits.split_once([':', '.']).unwrap_or((digits, "00"));
    let hour: u32 = hour.parse().unwrap_or(0);
    let hour = if afternoon && hour < 12 { hour + 12 } else { hour };
    format!("{hour}:{minutes}")
}

fn thousands(digits: &str) -> String {
    let value: f64 = digits.replace(',', ".").parse().unwrap_or(0.0);
    format!("{}", (value * 1000.0).round() as u64)
}

fn plain_number(digits: &str) -> String {
    // 40,000 and 40.000 are forty thousand; 4,90 and 4.90 four point nine.
    let groups: Vec<&str> = digits.split([',', '.']).collect();
    let separators_are_thousands = groups.len() > 1
        && !digits.contains(':')
        && groups[1..].iter().all(|g| g.len() == 3)
        && (1..=3).contains(&groups[0].len());
    let number = if separators_are_thousands {
        groups.concat()
    } else {
        digits.replace(',', ".")
    };
    // 08:00 is 8:00.
    let trimmed = number.trim_start_matches('0');
    if trimmed.is_empty() || trimmed.starts_with(['.', ':']) {
        format!("0{trimmed}")
    } else {
        trimmed.to_owned()
    }
}

/// Identifiers and acronyms (lowercased): a word with an inner capital, an underscore, a
/// dot or a slash between letters (`CartDrawer`, `DEBUG_LOG`, `django.core.signing`,
/// `data/`), or two capitals or more (`IVA`, `CSV`).
fn names_of(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '"' | '`' | '\'' | '!' | '?'))
        .map(|w| w.trim_end_matches([':', '.']))
        .filter(|w| {
            let letters = w.chars().filter(|c| c.is_alphabetic()).count();
            let inner_capital = w.chars().skip(1).any(char::is_uppercase) && w.chars().any(char::is_lowercase);
            let joined = w.contains(['_', '/']) || (w.contains('.') && !w.ends_with('.'));
            let acronym = letters >= 2 && w.chars().filter(|c| c.is_alphabetic()).all(char::is_uppercase);
            letters >= 2 && (inner_capital || joined || acronym) && !w.starts_with("http")
        })
        .map(str::to_lowercase)
        .collect()
}

/// How much of `turn` `entry` holds: the score (a number or name two, a word one) and its
/// share of the turn's own.
fn score(turn: &Said, entry: &Said) -> (usize, f64) {
    let numbers = turn.numbers.iter().filter(|n| entry.has_number(n)).count();
    let names = turn.names.iter().filter(|n| entry.has_name(n)).count();
    let words = turn.words.iter().filter(|w| entry.has_word(w)).count();
    let score = 2 * (numbers + names) + words;
    let whole = 2 * (turn.numbers.len() + turn.names.len()) + turn.words.len();
    (score, score as f64 / whole.max(1) as f64)
}

/// The (turn, entry) pairs of the best alignment in order: each pair scores at least
/// [`LEAST_SCORE`] and [`LEAST_SHARE`], and the pairs' total score is the largest.
fn align(turns: &[Said], entries: &[Said]) -> Vec<(usize, usize)> {
    let (n, m) = (turns.len(), entries.len());
    let pair = |t: usize, e: usize| {
        let (score, share) = score(&turns[t], &entries[e]);
        (score >= LEAST_SCORE && share >= LEAST_SHARE).then_some(score as f64 + share)
    };
    // best[t][e]: the best total of turns t.. with entries e.. (a table of (n+1)(m+1)).
    let width = m + 1;
    let mut best = vec![0.0f64; (n + 1) * width];
    let mut matched = vec![false; (n + 1) * width];
    for t in (0..n).rev() {
        for e in (0..m).rev() {
            let skip = best[(t + 1) * width + e].max(best[t * width + e + 1]);
            let take = pair(t, e).map(|s| s + best[(t + 1) * width + e + 1]);
            match take {
                Some(take) if take > skip => {
                    best[t * width + e] = take;
                    matched[t * width + e] = true;
                }
                _ => best[t * width + e] = skip,
            }
        }
    }
    let (mut t, mut e) = (0, 0);
    let mut pairs = Vec::new();
    while t < n && e < m {
        if matched[t * width + e] {
            pairs.push((t, e));
            t += 1;
            e += 1;
        } else if best[(t + 1) * width + e] >= best[t * width + e + 1] {
            t += 1;
        } else {
            e += 1;
        }
    }
    pairs
}

/// Whether `entry` holds each clause of substance of `turn`: all its numbers and names
/// where it has some, else a third of its words (the share [`meaning`] asks of a clause
/// near its restatement: one rule for both). A clause in another language than the entry
/// shares almost no words with a faithful restatement, so without numbers or names it
/// only counts for the turn when a word of it is held (a cognate: `hábito`, `habit`);
/// such a turn is restated by its aligned entry when no clause fails and at least half
/// its clauses are held — by a line found without the list's order to go by
/// (`aligned` false) only when every clause is.
fn holds_each_clause(turn: &Said, entry: &Said, aligned: bool) -> bool {
    let turn_foreign = turn.foreign && !entry.foreign;
    let clauses = clauses(&turn.text);
    let mut unjudged = 0;
    for clause in &clauses {
        let said = Said::of(clause);
        if !(said.numbers.is_empty() && said.names.is_empty()) {
            if !(said.numbers.iter().all(|n| entry.has_number(n)) && said.names.iter().all(|n| entry.has_name(n))) {
                return false;
            }
            continue;
        }
        let held = said.words.iter().filter(|w| entry.has_word(w)).count();
        if turn_foreign && said.foreign {
            unjudged += usize::from(held == 0 && said.words.len() >= 2);
        } else if said.words.len() >= 2 && (held as f64) < meaning::CLAUSE_HELD * said.words.len() as f64 {
            return false;
        }
    }
    if aligned {
        2 * unjudged <= clauses.len()
    } else {
        unjudged == 0
    }
}

/// A turn cut into clauses: at the ends of sentences, commas, colons and the words that
/// join a second demand in the languages users write in.
fn clauses(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut clause = String::new();
    let words: Vec<&str> = text.split_whitespace().collect();
    for (k, word) in words.iter().enumerate() {
        let joins = matches!(
            word.to_lowercase().as_str(),
            "but" | "pero" | "mais" | "aber" | "ma" | "mas" | "sinon" | "otherwise"
        );
        if joins && !clause.is_empty() {
            out.push(std::mem::take(&mut clause));
        }
        if !clause.is_empty() {
            clause.push(' ');
        }
        clause.push_str(word);
        let ends = word.ends_with(['.', ';', '!', '?', ',', ':']) && k + 1 < words.len();
        if ends {
            out.push(std::mem::take(&mut clause));
        }
    }
    if !clause.is_empty() {
        out.push(clause);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUMMARY: &str = "Summary:\n1. Primary Request and Intent:\n   - Shipping from the postcode\n\n\
        6. All user messages:\n   - Asked (in Spanish) for shipping from the postcode: Madrid city 280xx free from \
        €25, rest of the mainland €4.90, no delivery to the Balearic or Canary Islands\n   - UI copy always in \
        Spanish; code, comments and commits in English\n   - Gave the pickup hours: 08:00–14:00, Monday to \
        Saturday\n   - Prices always including IVA\n   - \"genial, gracias!\"\n\n7. Pending Tasks:\n   - Pickup option\n";

    #[test]
    fn the_list_is_read_up_to_the_next_heading() {
        let entries = entries_of(SUMMARY);
        assert_eq!(entries.len(), 5, "{entries:?}");
        assert_eq!(entries[4], "genial, gracias!", "quotes taken away");
        assert!(entries_of("## User messages\n- fix the build\n- and the tests\n## Next\n- x").len() == 2);
        assert!(entries_of("No list here.\n- an item").is_empty());
    }

    #[test]
    fn numbers_are_read_in_one_form() {
        assert_eq!(numbers_of("4,90€ and €4.90"), ["4.90", "4.90"]);
        assert_eq!(numbers_of("9pm, 21:00 and 21h"), ["21:00", "21:00", "21:00"]);
        assert_eq!(numbers_of("~40k or 40,000 or 40.000"), ["40000", "40000", "40000"]);
        assert_eq!(numbers_of("08:00 and 8:00, v1.29, phase2"), ["8:00", "8:00", "1.29"]);
        assert_eq!(numbers_of("four gpus, 4x a100"), ["4", "4"]);
    }

    #[test]
    fn turns_in_another_language_are_found_by_their_place_in_the_list() {
        let turns = [
            "necesito que el checkout calcule el envío según el código postal: Madrid capital (280xx) gratis a \
             partir de 25€, resto de la península 4,90€, y a Baleares y Canarias de momento no enviamos",
            "los textos de la UI siempre en español, pero code, comments y commits in english please",
            "no toques el componente CartDrawer, lo está rehaciendo Paco en otra rama",
            "la recogida en tienda es de 8:00 a 14:00",
            "los precios siempre con IVA incluido, nunca le enseñes al cliente un precio sin IVA",
            "genial, gracias!",
        ];
        let found = restated_by_lists(&[SUMMARY], &turns);
        let restated: Vec<bool> = found.iter().map(Option::is_some).collect();
        // The first request's opening clause ("calcule el envío según el código postal")
        // holds no number or name and no word the entry keeps, but it is Spanish against
        // an English entry: it is not judged by its words, and the turn's other clauses
        // (each number, `Baleares` as `Balearic`) are all held.
        assert_eq!(restated, [true, true, false, true, true, true], "{found:?}");
        assert!(found[4]
            .as_ref()
            .is_some_and(|e| e.quote == "Prices always including IVA"));
    }

    #[test]
    fn an_entry_that_keeps_one_clause_of_two_does_not_restate_the_turn() {
        let summary = "All user messages:\n- Asked for the node groups to go to 1.29, staging first\n\
                       - Asked for UART logging at 115200 baud\n";
        let turns = [
            "we need the node groups on 1.29. staging first, dont touch prod until i say so",
            "uart logging at 115200 but only when DEBUG_LOG is defined, the release build has to be silent",
        ];
        assert_eq!(restated_by_lists(&[summary], &turns), [None, None]);
    }

    #[test]
    fn the_order_decides_between_entries_alike() {
        let summary = "User messages:\n- Run the tests on staging\n- Run the tests on prod\n";
        let turns = [
            "run the tests on staging",
            "something else entirely here",
            "run tests on prod",
        ];
        let found = restated_by_lists(&[summary], &turns);
        assert_eq!(
            found[0].as_ref().map(|e| e.quote.as_str()),
            Some("Run the tests on staging")
        );
        assert!(found[1].is_none());
        assert_eq!(
            found[2].as_ref().map(|e| e.quote.as_str()),
            Some("Run the tests on prod")
        );
    }

    #[test]
    fn a_turn_in_another_language_is_found_in_prose_only_when_each_clause_is() {
        let summary = "Summary:\n1. Primary Request and Intent:\n   - The climatology is computed once, \
            cached to a JLD2 file and reloaded whenever that file already exists\n   - Tests: the calculator's \
            unit tests pass (9 tests); the heatmap widget is next\n";
        let turns = [
            // Each clause has something that crosses the language: a cognate, a name.
            "non ricalcolare la climatologia ogni volta che si riapre il notebook, salvala in un JLD2 e ricaricala \
             se esiste",
            // The second clause (run --update-goldens only when asked) has nothing the
            // summary holds: two shared words in the first are not enough.
            "faz widget tests com golden files pra tela de streaks, mas só roda com --update-goldens quando eu pedir",
        ];
        let found = restated_by_lists(&[summary], &turns);
        assert!(
            found[0]
                .as_ref()
                .is_some_and(|e| e.quote.starts_with("The climatology")),
            "{found:?}"
        );
        assert!(found[1].is_none(), "{found:?}");
    }

    #[test]
    fn names_in_backticks_and_numbers_in_words_of_any_language_are_the_same() {
        let summary = "6. All user messages:\n   - Use the WordPress APIs: `$wpdb->prepare` for every query, a \
            nonce on every form, escape output with `esc_html`/`esc_attr`\n   - Never post the same delay twice \
            unless it grows by ten minutes or more\n";
        let turns = [
            "en netjes via de WordPress API: $wpdb->prepare voor elke query, een nonce op elk formulier, en escapen \
             bij output (esc_html/esc_attr)",
            "nie postuj tego samego opóźnienia dwa razy, chyba że wzrośnie o co najmniej 10 minut",
        ];
        let found = restated_by_lists(&[summary], &turns);
        assert!(found.iter().all(Option::is_some), "{found:?}");
    }

    #[test]
    fn a_turn_in_another_language_is_found_said_again_in_english_after() {
        let after = vec![(
            Some(40),
            "     1→# Contributing\n     2→- Schema changes go through Flask-Migrate; db.create_all() is never called\n"
                .to_owned(),
        )];
        let turns = [
            "schemawijzigingen altijd via Flask-Migrate, nooit db.create_all() gebruiken",
            "schema changes always via Flask-Migrate",
        ];
        let found = said_in_translation(&after, &turns);
        assert_eq!(found[0].as_ref().and_then(|e| e.message), Some(40), "{found:?}");
        assert!(found[1].is_none(), "a turn in English is the word judge's");
    }
}
