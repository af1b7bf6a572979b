//! The loss report: the facts that were in the summarized messages (paths, URLs,
//! identifiers, numbers with units, quoted strings, error codes, names in code style),
//! each with the message it came from and whether it survives in the summary, in the
//! kept messages, or nowhere; and the user instructions that were summarized away.
//! That is the answer to "why did my agent lose context".

mod facts;
mod finder;
mod instructions;
mod text_masks;
mod windows;

use std::collections::HashSet;
use std::fmt;

use rayon::prelude::*;

pub use facts::{extract_facts, Fact, FactKind};
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

/// What one summarized message holds: its text, its facts (ranges of the text), and its
/// instruction when it is a human turn that carries one.
struct Held {
    index: usize,
    text: String,
    facts: Vec<(std::ops::Range<usize>, FactKind)>,
    instruction: Option<(usize, String)>,
}

/// The facts and instruction of message `index`.
fn held(transcript: &Transcript, index: usize) -> Held {
    let message = &transcript.messages[index];
    let text = transcript.readable_text(index);
    let prose = message.tool_results().is_empty()
        && message.tool_calls().is_empty()
        && matches!(message.role.as_str(), "user" | "assistant");
    let instruction = (message.boundary && !is_noise(&text)).then(|| (index, first_line(&text)));
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
) -> (Vec<Fact>, Vec<(usize, String)>) {
    let stretches: Vec<Taken> = summarized
        .into_par_iter()
        .fold(Taken::default, |mut taken, index| {
            taken.take(held(transcript, index));
            taken
        })
        .collect();
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
    let (head_end, split) = (summarized.start, summarized.end);
    let (facts, instructions) = facts_and_instructions(transcript, summarized);
    // The facts, searched in one pass over each text with its spaces collapsed.
    let patterns: Vec<String> = facts.iter().map(|f| collapse_spaces(&f.text)).collect();
    let finder = Finder::new(&patterns);
    let mut in_summary = vec![false; patterns.len()];
    let summary_words = collapse_spaces(summary);
    finder.mark(&summary_words, &mut in_summary);
    let kept_indices: Vec<usize> = kept.iter().flat_map(Clone::clone).collect();
    let (in_kept, repeated) = kept_indices
        .par_iter()
        .fold(
            || (vec![false; patterns.len()], HashSet::new()),
            |(mut found, mut repeated), &i| {
                let text = transcript.readable_text(i);
                finder.mark(&collapse_spaces(&text), &mut found);
                if transcript.messages[i].boundary {
                    repeated.insert(instruction_words(&first_line(&text)));
                }
                (found, repeated)
            },
        )
        .reduce(
            || (vec![false; patterns.len()], HashSet::new()),
            |(a, mut ra), (b, rb)| {
                ra.extend(rb);
                (a.iter().zip(b).map(|(x, y)| *x || y).collect(), ra)
            },
        );
    let facts: Vec<(Fact, Survival)> = facts
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
        .collect();
    // An instruction is kept when the summary repeats its words, or the user said it
    // again in a kept human turn.
    let instructions_lost = instructions
        .iter()
        .filter(|(_, first)| {
            let words = instruction_words(first);
            words.is_empty() || !(summary_words.contains(&words) || repeated.contains(&words))
        })
        .cloned()
        .collect();
    LossReport {
        summarized: (head_end, split),
        facts,
        instructions,
        instructions_lost,
        summary_tokens: (summary.chars().count() as u64).div_ceil(4),
    }
}

impl fmt::Display for LossReport {
    /// Instructions first (what a user needs), then the facts lost, grouped by kind with
    /// counts. Every row that names a message starts with `  #N` (the TUI jumps there).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = self.summarized;
        writeln!(
            f,
            "Loss report: {} messages summarized (#{a}–#{}), summary ≈ {} tokens",
            thousands((b - a) as u64),
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
        let mut kinds: Vec<FactKind> = self
            .facts
            .iter()
            .filter(|(_, s)| *s == Survival::Lost)
            .map(|(fact, _)| fact.kind)
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        if !kinds.is_empty() {
            writeln!(f, "\nLost (in no summary and no kept message), by kind:")?;
        }
        for kind in kinds {
            let lost: Vec<&Fact> = self
                .facts
                .iter()
                .filter(|(fact, s)| *s == Survival::Lost && fact.kind == kind)
                .map(|(fact, _)| fact)
                .collect();
            writeln!(f, "{} ({}):", kind.plural(), thousands(lost.len() as u64))?;
            for fact in lost {
                writeln!(f, "  #{:<6} {}", fact.message, crate::text::visible(&fact.text, false))?;
            }
        }
        Ok(())
    }
}
