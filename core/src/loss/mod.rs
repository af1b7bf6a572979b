//! The loss report: the facts that were in the summarized messages (paths, URLs,
//! identifiers, numbers with units, quoted strings, error codes, names in code style),
//! each with the message it came from and whether it survives in the summary, in the
//! kept messages, or nowhere; and the user instructions that were summarized away.
//! That is the answer to "why did my agent lose context".

mod acknowledgements;
pub mod document;
mod facts;
mod finder;
mod instructions;
mod languages;
mod listed;
pub mod meaning;
pub mod rank;
pub mod session;
mod synonyms;
mod text_masks;
pub mod turns;
mod windows;

use std::collections::{HashMap, HashSet};
use std::fmt;

use rayon::prelude::*;

use crate::progress::{Progress, SILENT};

pub use facts::{extract_facts, fact_spans, Fact, FactKind};
pub use finder::Finder;
pub use instructions::{first_line, instruction_words, is_noise};

use crate::text::thousands;
use crate::transcript::Transcript;
use instructions::collapse_spaces;

/// Where a fact ended up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Survival {
    /// The summary mentions it.
    Summary,
    /// A kept message (head or tail) mentions it.
    Kept,
    /// Gone.
    Lost,
}

/// What became of a human turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TurnStatus {
    /// Never summarized: it is still in the context.
    Kept,
    /// The summary restates it.
    InSummary,
    /// The summary does not, but a later message the agent has does (the user said it
    /// again, or a file it read records it).
    RepeatedLater,
    /// Neither: the agent no longer has it (or has it only in part).
    Lost,
}

impl TurnStatus {
    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            TurnStatus::Kept => "kept",
            TurnStatus::InSummary => "in_summary",
            TurnStatus::RepeatedLater => "repeated_later",
            TurnStatus::Lost => "lost",
        }
    }
}

/// A summarized human turn, read as a person reads it, and what became of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    /// The message.
    pub message: usize,
    /// Instruction, user fact or chatter.
    pub kind: turns::TurnKind,
    /// The user's own words (client wrappers taken away).
    pub text: String,
    /// Where it survives.
    pub status: TurnStatus,
    /// The sentence that restates it (or holds its value), when it survives.
    pub evidence: Option<meaning::Evidence>,
    /// The values it supplies (a user fact's).
    pub values: Vec<String>,
}

/// The loss report of one firing.
#[derive(Debug, Clone, PartialEq)]
pub struct LossReport {
    /// Messages summarized (first, one past the last).
    pub summarized: (usize, usize),
    /// Every fact of the summarized messages, once, with where it survives.
    pub facts: Vec<(Fact, Survival)>,
    /// Human turns summarized away: (message, first line).
    pub instructions: Vec<(usize, String)>,
    /// Those whose words neither the summary nor a kept message repeats.
    pub instructions_lost: Vec<(usize, String)>,
    /// Every summarized human turn with its kind, status and evidence.
    pub turns: Vec<Turn>,
    /// The lost facts ranked by what matters, the noise among them counted.
    pub ranked: rank::Ranked,
    /// Tokens of the summary text (estimate).
    pub summary_tokens: u64,
}

impl LossReport {
    /// Facts that survive (summary or kept), in percent of all facts (100 with none).
    pub fn survival_percent(&self) -> f64 {
        if self.facts.is_empty() {
            return 100.0;
        }
        let kept = self.facts.iter().filter(|(_, s)| *s != Survival::Lost).count();
        (kept as f64 * 1000.0 / self.facts.len() as f64).round() / 10.0
    }

    /// How many facts ended up in `where_`.
    pub fn count(&self, where_: Survival) -> usize {
        self.facts.iter().filter(|(_, s)| *s == where_).count()
    }
}

/// The report for summarizing the messages `summarized` of `transcript` into `summary`
/// (the messages before and after are kept).
pub fn loss_report(transcript: &Transcript, summarized: std::ops::Range<usize>, summary: &str) -> LossReport {
    let len = transcript.messages.len();
    let kept = [0..summarized.start, summarized.end..len];
    loss_report_kept(transcript, summarized, summary, &kept)
}

/// [`loss_report`] when the readable text of every summarized message has been read
/// already (the summarizer read it): `texts[i]` is message `summarized.start + i`'s.
/// Each message is then parsed once for the summary and the report together.
pub fn loss_report_read(
    transcript: &Transcript,
    summarized: std::ops::Range<usize>,
    summary: &str,
    texts: Vec<String>,
) -> LossReport {
    assert_eq!(texts.len(), summarized.len(), "one text per summarized message");
    let len = transcript.messages.len();
    let kept = [0..summarized.start, summarized.end..len];
    report(transcript, summarized, summary, &kept, Some(texts), &SILENT)
}

/// [`loss_report`] (or [`loss_report_read`] with `texts`), telling `progress` of each
/// message it reads.
pub(crate) fn loss_report_telling(
    transcript: &Transcript,
    summarized: std::ops::Range<usize>,
    summary: &str,
    texts: Option<Vec<String>>,
    progress: &Progress,
) -> LossReport {
    let len = transcript.messages.len();
    let kept = [0..summarized.start, summarized.end..len];
    report(transcript, summarized, summary, &kept, texts, progress)
}

/// What one summarized message holds: its text, its facts (ranges of the text), and its
/// instruction when it is a human turn that carries one.
struct Held {
    index: usize,
    text: String,
    facts: Vec<(std::ops::Range<usize>, FactKind)>,
    instruction: Option<(usize, String)>,
}

/// The facts and instruction of message `index`, whose readable text is `text`.
fn held(transcript: &Transcript, index: usize, text: String) -> Held {
    let message = &transcript.messages[index];
    let prose = message.tool_results().is_empty()
        && message.tool_calls().is_empty()
        && matches!(message.role.as_str(), "user" | "assistant");
    // A human turn's own words, whatever the client wrapped around them.
    let instruction = message
        .boundary
        .then(|| turns::user_words(&text))
        .flatten()
        .map(|words| (index, words));
    Held {
        index,
        facts: facts::fact_spans(&text, prose),
        text,
        instruction,
    }
}

/// The facts of messages `summarized`, each once (where it first appears), and their
/// instructions. Each worker reads its stretches of messages and keeps the facts it has
/// not seen yet (a message's text is dropped once read); the stretches are then taken
/// in order, so a fact is credited to the first message that holds it.
fn facts_and_instructions(
    transcript: &Transcript,
    summarized: std::ops::Range<usize>,
    texts: Option<Vec<String>>,
    progress: &Progress,
) -> (Vec<Fact>, Vec<(usize, String)>) {
    let stretches: Vec<Taken> = match texts {
        Some(texts) => texts
            .into_par_iter()
            .zip(summarized)
            .fold(Taken::default, |mut taken, (text, index)| {
                taken.take(held(transcript, index, text));
                progress.step(1);
                taken
            })
            .collect(),
        None => summarized
            .into_par_iter()
            .fold(Taken::default, |mut taken, index| {
                taken.take(held(transcript, index, transcript.readable_text(index)));
                progress.step(1);
                taken
            })
            .collect(),
    };
    let mut all = Taken::default();
    for stretch in stretches {
        all.instructions.extend(stretch.instructions);
        for fact in stretch.facts {
            if !all.seen.contains(&fact.text) {
                all.seen.insert(fact.text.clone());
                all.facts.push(fact);
            }
        }
    }
    (all.facts, all.instructions)
}

/// Facts and instructions taken in message order, each fact once.
#[derive(Default)]
struct Taken {
    seen: rustc_hash::FxHashSet<String>,
    facts: Vec<Fact>,
    instructions: Vec<(usize, String)>,
}

impl Taken {
    /// Takes in what one message holds; a fact is copied out of its text only the first
    /// time it is seen.
    fn take(&mut self, held: Held) {
        self.instructions.extend(held.instruction);
        for (range, kind) in held.facts {
            let text = &held.text[range];
            if !self.seen.contains(text) {
                self.seen.insert(text.to_owned());
                self.facts.push(Fact {
                    text: text.to_owned(),
                    kind,
                    message: held.index,
                });
            }
        }
    }
}

/// The report for summarizing `summarized` into `summary` when only the messages
/// `kept` remain beside it (a real compaction: what came after it). Every message is
/// read once (in parallel); the facts are then searched in one pass over the summary and
/// the kept messages.
pub fn loss_report_kept(
    transcript: &Transcript,
    summarized: std::ops::Range<usize>,
    summary: &str,
    kept: &[std::ops::Range<usize>],
) -> LossReport {
    report(transcript, summarized, summary, kept, None, &SILENT)
}

/// [`loss_report_kept`], with the summarized messages' texts when they are read already.
fn report(
    transcript: &Transcript,
    summarized: std::ops::Range<usize>,
    summary: &str,
    kept: &[std::ops::Range<usize>],
    texts: Option<Vec<String>>,
    progress: &Progress,
) -> LossReport {
    let (head_end, split) = (summarized.start, summarized.end);
    let kept_indices: Vec<usize> = kept.iter().flat_map(Clone::clone).collect();
    // Each summarized message is read once, and the kept ones at most once.
    progress.expect(summarized.len() + kept_indices.len());
    let (facts, instructions) = facts_and_instructions(transcript, summarized, texts, progress);
    // The facts and the turns are judged side by side: each has stretches where one
    // thread works alone (merging, numbering words), which the other fills.
    let (facts, turns) = rayon::join(
        || facts_survival(transcript, facts, summary, &kept_indices, progress),
        || judge_turns(transcript, &instructions, summary, &kept_indices),
    );
    // A fact a user supplied that survives in another form (a path from another root,
    // `44.1` for `44100`) is not lost.
    let surviving_values: HashSet<String> = turns
        .iter()
        .filter(|t| t.status != TurnStatus::Lost)
        .flat_map(|t| t.values.iter().map(|v| v.to_lowercase()))
        .collect();
    let facts: Vec<(Fact, Survival)> = facts
        .into_iter()
        .map(|(fact, survival)| {
            let value = fact
                .text
                .trim_start_matches(['#', '@'])
                .trim_end_matches('/')
                .to_lowercase();
            if survival == Survival::Lost && surviving_values.contains(&value) {
                (fact, Survival::Summary)
            } else {
                (fact, survival)
            }
        })
        .collect();
    let instruction_turns = |lost: bool| -> Vec<(usize, String)> {
        turns
            .iter()
            .filter(|t| t.kind == turns::TurnKind::Instruction && (!lost || t.status == TurnStatus::Lost))
            .map(|t| (t.message, first_line(&t.text)))
            .collect()
    };
    let mut facts = paths_in_other_forms(facts, summary);
    facts.extend(values_of_lost_user_facts(&turns, &facts));
    let lost: Vec<Fact> = facts
        .iter()
        .filter(|(_, s)| *s == Survival::Lost)
        .map(|(f, _)| f.clone())
        .collect();
    LossReport {
        summarized: (head_end, split),
        ranked: rank::rank(transcript, lost),
        facts,
        instructions: instruction_turns(false),
        instructions_lost: instruction_turns(true),
        turns,
        summary_tokens: (summary.chars().count() as u64).div_ceil(4),
    }
}

/// Where each fact survives: the summary, the `kept` messages, or nowhere. The facts are
/// searched in one pass over each text with its spaces collapsed; the kept messages are
/// read a stretch at a time, nearest first, until every fact the summary lacks is found
/// (a long kept tail is not read to its end for a few facts).
fn facts_survival(
    transcript: &Transcript,
    facts: Vec<Fact>,
    summary: &str,
    kept: &[usize],
    progress: &Progress,
) -> Vec<(Fact, Survival)> {
    let patterns: Vec<String> = facts.iter().map(|f| collapse_spaces(&f.text)).collect();
    let finder = Finder::new(&patterns);
    let mut in_summary = vec![false; patterns.len()];
    finder.mark(&collapse_spaces(summary), &mut in_summary);
    let mut in_kept = vec![false; patterns.len()];
    let mut missing = in_summary.iter().filter(|&&found| !found).count();
    let mut read = 0;
    for stretch in kept.chunks(KEPT_STRETCH) {
        if missing == 0 {
            break;
        }
        read += stretch.len();
        let found = stretch
            .par_iter()
            .fold(
                || vec![false; patterns.len()],
                |mut found, &i| {
                    finder.mark(&collapse_spaces(&transcript.readable_text(i)), &mut found);
                    progress.step(1);
                    found
                },
            )
            .reduce(
                || vec![false; patterns.len()],
                |a, b| a.iter().zip(b).map(|(x, y)| *x || y).collect(),
            );
        for (k, found) in found.into_iter().enumerate() {
            if found && !in_kept[k] {
                in_kept[k] = true;
                if !in_summary[k] {
                    missing -= 1;
                }
            }
        }
    }
    // The kept messages never read (every fact was found before them) are done too.
    progress.step(kept.len() - read);
    facts
        .into_iter()
        .enumerate()
        .map(|(k, fact)| {
            let survival = if in_summary[k] {
                Survival::Summary
            } else if in_kept[k] {
                Survival::Kept
            } else {
                Survival::Lost
            };
            (fact, survival)
        })
        .collect()
}

/// A lost path that survives in another form: an absolute path whose
/// repository-relative form the summary holds, or the same file named from another root
/// by a fact that survives (`/Users/u/repo/src/a.ts` and `src/a.ts`).
fn paths_in_other_forms(facts: Vec<(Fact, Survival)>, summary: &str) -> Vec<(Fact, Survival)> {
    let tails = |text: &str| -> Vec<String> {
        meaning::value_forms(text)
            .into_iter()
            .skip(1)
            .filter(|t| t.contains('/') && t.len() >= MIN_PATH_TAIL)
            .collect()
    };
    let mut surviving: HashMap<String, Survival> = HashMap::new();
    for (fact, survival) in facts
        .iter()
        .filter(|(f, s)| f.kind == FactKind::Path && *s != Survival::Lost)
    {
        for tail in tails(&fact.text) {
            let held = surviving.entry(tail).or_insert(*survival);
            if *survival == Survival::Summary {
                *held = Survival::Summary;
            }
        }
    }
    let summary = summary.to_lowercase();
    facts
        .into_iter()
        .map(|(fact, survival)| {
            if survival != Survival::Lost || fact.kind != FactKind::Path {
                return (fact, survival);
            }
            let tails = tails(&fact.text);
            let found = if tails.iter().any(|t| summary.contains(t.as_str())) {
                Survival::Summary
            } else {
                tails
                    .iter()
                    .find_map(|t| surviving.get(t).copied())
                    .unwrap_or(Survival::Lost)
            };
            (fact, found)
        })
        .collect()
}

/// The values of the user-fact turns nothing restates (an e-mail, a host, an account id
/// the user gave), as lost facts where the fact patterns did not already find them: the
/// user asks what was lost among the facts, not among the instructions.
fn values_of_lost_user_facts(turns: &[Turn], facts: &[(Fact, Survival)]) -> Vec<(Fact, Survival)> {
    let known: HashSet<String> = facts.iter().map(|(f, _)| f.text.to_lowercase()).collect();
    let mut added = HashSet::new();
    turns
        .iter()
        .filter(|t| t.kind == turns::TurnKind::UserFact && t.status == TurnStatus::Lost)
        .flat_map(|t| t.values.iter().map(move |v| (t.message, v)))
        .filter(|(_, v)| !known.contains(&v.to_lowercase()) && added.insert(v.to_lowercase()))
        .map(|(message, value)| {
            let kind = if value.contains("://") {
                FactKind::Url
            } else if value.contains('/') {
                FactKind::Path
            } else if value
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | ':' | '-'))
            {
                FactKind::Number
            } else {
                FactKind::Identifier
            };
            let fact = Fact {
                text: value.clone(),
                kind,
                message,
            };
            (fact, Survival::Lost)
        })
        .collect()
}

/// The shortest folder-and-file tail of a path taken as naming the same file.
const MIN_PATH_TAIL: usize = 8;

/// Judges each human turn `(message, words)`: its kind, then whether `summary`
/// restates it (or, for a user fact, holds its values), else whether a message after
/// it (`kept`) does, else lost.
/// A summary's lines, each trimmed, to find a turn it holds whole (the messages a
/// compaction kept verbatim are joined to its summary, one per line run).
struct WholeLines(String);

impl WholeLines {
    fn of(summary: &str) -> WholeLines {
        let mut joined = String::with_capacity(summary.len() + 2);
        joined.push('\n');
        for line in summary.lines() {
            joined.push_str(line.trim());
            joined.push('\n');
        }
        WholeLines(joined)
    }

    /// The evidence that `turn` is held whole, as lines of their own: every word of it,
    /// however short (`UP`, which no sentence match would take for a request).
    fn quote(&self, turn: &str) -> Option<meaning::Evidence> {
        let lines: Vec<&str> = turn.lines().map(str::trim).collect();
        let whole = lines.join("\n");
        if whole.trim().is_empty() || !self.0.contains(&format!("\n{whole}\n")) {
            return None;
        }
        Some(meaning::Evidence {
            message: None,
            quote: lines
                .iter()
                .find(|l| !l.is_empty())
                .copied()
                .unwrap_or_default()
                .to_owned(),
            coverage: 1.0,
        })
    }
}

fn judge_turns(transcript: &Transcript, human: &[(usize, String)], summary: &str, kept: &[usize]) -> Vec<Turn> {
    let in_summary = meaning::Sentences::new([(None, summary)]);
    let lines = WholeLines::of(summary);
    // A turn said many times (agents repeat their prompts) is judged once.
    let mut distinct: Vec<&str> = human.iter().map(|(_, t)| t.as_str()).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let verdicts: HashMap<&str, Verdict> = distinct
        .into_par_iter()
        .map(|text| {
            let kind = turns::classify(text);
            let values = if kind == turns::TurnKind::UserFact {
                turns::values(text)
            } else {
                Vec::new()
            };
            let words = meaning::TurnWords::of(text);
            let evidence = lines.quote(text).or_else(|| restated(&in_summary, &words, &values));
            (
                text,
                Verdict {
                    kind,
                    values,
                    words,
                    evidence,
                },
            )
        })
        .collect();
    let mut judged: Vec<Turn> = human
        .iter()
        .map(|(message, text)| {
            let verdict = &verdicts[text.as_str()];
            let (kind, values, evidence) = (verdict.kind, verdict.values.clone(), verdict.evidence.clone());
            let (message, text) = (*message, text.clone());
            Turn {
                message,
                kind,
                status: if evidence.is_some() {
                    TurnStatus::InSummary
                } else {
                    TurnStatus::Lost
                },
                evidence,
                values,
                text,
            }
        })
        .collect();
    // A turn the summary's own list of user messages restates in other words (or another
    // language), found by its place in the list.
    let texts: Vec<&str> = human.iter().map(|(_, t)| t.as_str()).collect();
    for (turn, listed) in judged.iter_mut().zip(listed::restated_by_lists(&[summary], &texts)) {
        if let (TurnStatus::Lost, Some(evidence)) = (turn.status, listed) {
            turn.status = TurnStatus::InSummary;
            turn.evidence = Some(evidence);
        }
    }
    // What came after: read only while the summary leaves something out, and only the
    // nearest `AFTER_HORIZON` bytes of it (a long tail would otherwise be cut into
    // sentences whole; a repetition comes soon after the loss that causes it). It is read
    // in stretches, nearest first, each twice as long as the one before: a turn said again
    // soon is found in the first, and only the turns still lost are sought further (their
    // words pick fewer lines to cut).
    let mut read = 0;
    let horizon: Vec<usize> = kept
        .iter()
        .copied()
        .take_while(|&i| {
            let within = read < AFTER_HORIZON;
            read += transcript.messages[i].span.len();
            within
        })
        .collect();
    let mut from = 0;
    let mut stretch_bytes = FIRST_AFTER_STRETCH;
    while from < horizon.len()
        && judged
            .iter()
            .any(|t| t.status == TurnStatus::Lost && t.kind != turns::TurnKind::Chatter)
    {
        let mut bytes = 0;
        let len = horizon[from..]
            .iter()
            .take_while(|&&i| {
                let within = bytes < stretch_bytes;
                bytes += transcript.messages[i].span.len();
                within
            })
            .count();
        let stretch = &horizon[from..from + len];
        from += len;
        stretch_bytes *= 2;
        search_after(transcript, &mut judged, &verdicts, stretch);
    }
    judged
}

/// The first stretch of text after a cut searched for turns said again (raw bytes).
const FIRST_AFTER_STRETCH: usize = 512 << 10;

/// Marks the turns still lost that the messages `stretch` say again.
fn search_after(transcript: &Transcript, judged: &mut [Turn], verdicts: &HashMap<&str, Verdict>, stretch: &[usize]) {
    // Said again by the user, or in what the agent reads (a tool's output): the agent's
    // own words about a request ("fixed the colour mismatch") do not restate it.
    let rules = transcript.format.dialect.rules();
    let texts: Vec<(Option<usize>, String)> = stretch
        .par_iter()
        .filter(|&&i| !rules.is_model_output(&transcript.messages[i].role))
        .map(|&i| {
            let text = transcript.readable_text(i);
            let text = if transcript.messages[i].boundary {
                turns::user_words(&text).unwrap_or_default()
            } else {
                text
            };
            (Some(i), text)
        })
        .collect();
    let sought: Vec<&Turn> = judged
        .iter()
        .filter(|t| t.status == TurnStatus::Lost && t.kind != turns::TurnKind::Chatter)
        .collect();
    let may_hold = LineFilter::new(&sought);
    let after = meaning::Sentences::new_where(texts.iter().map(|(i, t)| (*i, t.as_str())), |line| may_hold.keeps(line));
    let found: Vec<Option<meaning::Evidence>> = judged
        .par_iter()
        .map(|t| {
            (t.status == TurnStatus::Lost)
                .then(|| restated(&after, &verdicts[t.text.as_str()].words, &t.values))
                .flatten()
        })
        .collect();
    for (turn, evidence) in judged.iter_mut().zip(found) {
        if let Some(evidence) = evidence {
            turn.status = TurnStatus::RepeatedLater;
            turn.evidence = Some(evidence);
        }
    }
    // A turn in another language, said again in the language of what came after (a
    // project's rules file read by the agent, the user writing in English later).
    let still_lost: Vec<usize> = (0..judged.len())
        .filter(|&k| judged[k].status == TurnStatus::Lost && judged[k].kind != turns::TurnKind::Chatter)
        .collect();
    let words: Vec<&str> = still_lost.iter().map(|&k| judged[k].text.as_str()).collect();
    for (k, evidence) in still_lost.iter().zip(listed::said_in_translation(&texts, &words)) {
        if let Some(evidence) = evidence {
            judged[*k].status = TurnStatus::RepeatedLater;
            judged[*k].evidence = Some(evidence);
        }
    }
}

/// How many kept messages are searched for facts between checks that some are still
/// missing.
const KEPT_STRETCH: usize = 4096;

/// What is decided about one distinct turn text before the text after the cut is read.
struct Verdict {
    kind: turns::TurnKind,
    values: Vec<String>,
    words: meaning::TurnWords,
    evidence: Option<meaning::Evidence>,
}

/// How much of the text after a cut (raw bytes, nearest first) is searched for turns said
/// again.
pub const AFTER_HORIZON: usize = 4 << 20;

/// Which lines after a compaction may restate one of the turns sought: a line holding
/// the beginnings of two of a turn's words, or one of a short turn's, or a value — the
/// rest are not cut into sentences at all (a long tail has millions of lines).
struct LineFilter {
    finder: Option<aho_corasick::AhoCorasick>,
    /// Per pattern: one hit is enough.
    alone: Vec<bool>,
}

impl LineFilter {
    fn new(sought: &[&Turn]) -> LineFilter {
        // Each pattern once (thousands of turns share their words: an automaton with a
        // pattern repeated that often takes quadratic time to build).
        let mut patterns: std::collections::BTreeMap<String, bool> = std::collections::BTreeMap::new();
        for turn in sought {
            let mut words = meaning::content_words(&turn.text);
            words.sort_unstable();
            words.dedup();
            let short = words.len() <= 2;
            // A word read as its synonyms' meaning (`doc` as `document`) is looked for
            // in each of its spellings: the line holds the one the writer chose.
            for spelling in words.iter().flat_map(|w| synonyms::spellings(w)) {
                if spelling.chars().count() >= 3 {
                    *patterns.entry(spelling.chars().take(4).collect()).or_default() |= short;
                }
            }
            for value in &turn.values {
                for form in meaning::value_forms(value) {
                    patterns.insert(form, true);
                }
            }
        }
        let alone: Vec<bool> = patterns.values().copied().collect();
        let finder = aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(patterns.keys())
            .ok();
        LineFilter { finder, alone }
    }

    fn keeps(&self, line: &str) -> bool {
        let Some(finder) = &self.finder else {
            return true;
        };
        let mut first: Option<usize> = None;
        for found in finder.find_overlapping_iter(line) {
            let p = found.pattern().as_usize();
            if self.alone[p] || first.is_some_and(|f| f != p) {
                return true;
            }
            first = Some(p);
        }
        false
    }
}

/// The evidence that `sentences` restate a turn: its values all held (a user fact), or
/// its words.
fn restated(sentences: &meaning::Sentences, turn: &meaning::TurnWords, values: &[String]) -> Option<meaning::Evidence> {
    if !values.is_empty() {
        let mut found = values.iter().map(|v| sentences.holds_value(v, &turn.words()));
        let first = found.next().flatten()?;
        return found.all(|e| e.is_some()).then_some(first);
    }
    sentences.restates_turn(turn)
}

impl LossReport {
    /// The report as text with the lost facts in as much `detail` as asked.
    pub fn text(&self, detail: rank::Detail) -> String {
        let mut out = String::new();
        self.write_text(&mut out, detail)
            .expect("writing to a String cannot fail");
        out
    }
}

impl LossReport {
    /// Instructions first (what a user needs), then the facts lost, what matters first.
    /// Every row that names a message starts with `  #N` (the TUI jumps there).
    fn write_text(&self, f: &mut impl fmt::Write, detail: rank::Detail) -> fmt::Result {
        let (a, b) = self.summarized;
        writeln!(
            f,
            "Loss report: {} summarized (#{a}–#{}), summary ≈ {} tokens",
            crate::text::count_of((b - a) as u64, "message", "messages"),
            b.saturating_sub(1),
            thousands(self.summary_tokens)
        )?;
        if self.instructions.is_empty() {
            writeln!(f, "User instructions summarized away: none")?;
        } else {
            writeln!(
                f,
                "User instructions summarized away: {} ({} repeated in no summary and no kept message, marked ✗)",
                thousands(self.instructions.len() as u64),
                thousands(self.instructions_lost.len() as u64)
            )?;
            let lost: HashSet<usize> = self.instructions_lost.iter().map(|(i, _)| *i).collect();
            for (index, first) in &self.instructions {
                let mark = if lost.contains(index) { "✗" } else { " " };
                writeln!(f, "  #{index:<6} {mark} {}", crate::text::visible(first, false))?;
            }
        }
        writeln!(
            f,
            "Facts: {} found, {} survive ({:.1}%): {} in the summary, {} in kept messages, {} lost",
            thousands(self.facts.len() as u64),
            thousands((self.facts.len() - self.count(Survival::Lost)) as u64),
            self.survival_percent(),
            thousands(self.count(Survival::Summary) as u64),
            thousands(self.count(Survival::Kept) as u64),
            thousands(self.count(Survival::Lost) as u64)
        )?;
        self.ranked.write(f, "", detail)
    }
}

impl fmt::Display for LossReport {
    /// [`LossReport::text`]: the short list of lost facts, or every fact with `{:#}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let detail = if f.alternate() {
            rank::Detail::Everything
        } else {
            rank::Detail::Short
        };
        self.write_text(f, detail)
    }
}

#[cfg(test)]
mod path_form_tests {
    use super::*;

    fn path(text: &str, survival: Survival) -> (Fact, Survival) {
        let fact = Fact {
            text: text.to_owned(),
            kind: FactKind::Path,
            message: 1,
        };
        (fact, survival)
    }

    #[test]
    fn an_absolute_path_survives_in_its_repository_relative_form() {
        let facts = vec![
            path("/Users/u/repo/src/agents/metrics/types.ts", Survival::Lost),
            path("/Users/u/repo/src/agents/sync/plugin.ts", Survival::Lost),
            path("/Users/u/repo/docs/design/notes.md", Survival::Lost),
            path("docs/design/notes.md", Survival::Kept),
        ];
        let judged = paths_in_other_forms(facts, "Edited `src/agents/metrics/types.ts` to add the field.");
        let survival: Vec<Survival> = judged.iter().map(|(_, s)| *s).collect();
        assert_eq!(
            survival,
            [Survival::Summary, Survival::Lost, Survival::Kept, Survival::Kept]
        );
    }
}

#[cfg(test)]
mod whole_lines_tests {
    use super::WholeLines;

    /// A turn held whole, on lines of its own (a message a compaction kept verbatim,
    /// joined to its summary), is in it however short; inside another word or line it is
    /// not.
    #[test]
    fn a_turn_kept_verbatim_is_found_on_its_own_lines() {
        let summary = "Encrypted.\nHello World!\n  UP  \nPING: from the admin node\n\nI do not know who that is.\nUPDATE the docs";
        let lines = WholeLines::of(summary);
        assert!(lines.quote("UP").is_some());
        assert!(lines
            .quote("PING: from the admin node\n\nI do not know who that is.")
            .is_some());
        assert_eq!(lines.quote("UP").map(|e| e.quote), Some("UP".to_owned()));
        assert!(lines.quote("UPDATE").is_none(), "part of a line");
        assert!(lines.quote("the docs").is_none(), "part of a line");
        assert!(lines.quote("  ").is_none());
    }
}

#[cfg(test)]
mod read_texts_tests {
    use super::*;

    /// The report made from texts the summarizer already read is the report made by
    /// reading them again, on every kind of generated session.
    #[test]
    fn a_report_from_read_texts_equals_one_that_reads_them() {
        for format in 0..3 {
            let (_, source) = crate::synth::session(format, 300, false, 7 + format as u64);
            let transcript = Transcript::parse("session", source.into_bytes(), None).expect("generated sessions load");
            let len = transcript.messages.len();
            let summarized = len / 5..len * 3 / 4;
            let texts: Vec<String> = summarized.clone().map(|i| transcript.readable_text(i)).collect();
            let summary = "The user asked to fix the build; src/main.rs was edited.";
            let read = loss_report_read(&transcript, summarized.clone(), summary, texts);
            let reading = loss_report(&transcript, summarized, summary);
            assert!(!reading.facts.is_empty(), "format {format}: the session holds facts");
            assert_eq!(read, reading, "format {format}");
        }
    }
}
