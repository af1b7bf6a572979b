//! A whole session's human turns, judged by meaning against any set of summaries: what a
//! replay (one compactor run over the session) lost of what the user said.
//!
//! The turns are read once per session ([`SessionTurns::new`]: the user's own words,
//! their kind, their content words); each replay then only cuts its summaries into
//! sentences, so a sweep of many settings pays for the turns once. A turn the compactor
//! never summarized is `kept`; a summarized one is `in_summary` when some summary
//! restates it, `repeated_later` when a later human turn says it again, else `lost`.

use std::sync::OnceLock;

use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;

use super::meaning::{CutText, Evidence, Sentences, TurnWords};
use super::{restated, turns, Turn, TurnStatus};

/// One distinct turn text, cut once.
struct Distinct {
    text: String,
    kind: turns::TurnKind,
    values: Vec<String>,
    words: TurnWords,
    /// Its sentences, cut with its words (for the turns' sentences).
    sentences: CutText,
}

/// The human turns of a session.
pub struct SessionTurns {
    /// Each turn: its position in the session and its distinct text.
    turns: Vec<(usize, usize)>,
    /// The distinct texts (agents repeat their prompts: each is judged once).
    distinct: Vec<Distinct>,
    /// Every turn's words as sentences, made the first time a lost turn is looked for
    /// later in the session.
    said: OnceLock<Sentences>,
    /// For each turn, the later turn that says it again, looked for once: it does not
    /// depend on the summaries, so every replay of a sweep shares it.
    said_again: Vec<OnceLock<Option<Evidence>>>,
}

impl std::fmt::Debug for SessionTurns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionTurns")
            .field("turns", &self.turns.len())
            .finish_non_exhaustive()
    }
}

impl SessionTurns {
    /// The turns `(position, the user's own words)`, in session order.
    pub fn new(said: &[(usize, String)]) -> SessionTurns {
        let mut ids: HashMap<&str, usize> = HashMap::default();
        let mut texts: Vec<&str> = Vec::new();
        let turns: Vec<(usize, usize)> = said
            .iter()
            .map(|(p, text)| {
                let id = *ids.entry(text.as_str()).or_insert_with(|| {
                    texts.push(text.as_str());
                    texts.len() - 1
                });
                (*p, id)
            })
            .collect();
        let distinct = texts
            .into_par_iter()
            .map(|text| {
                let kind = turns::classify(text);
                let (words, sentences) = TurnWords::with_sentences(text);
                Distinct {
                    text: text.to_owned(),
                    kind,
                    values: if kind == turns::TurnKind::UserFact {
                        turns::values(text)
                    } else {
                        Vec::new()
                    },
                    words,
                    sentences,
                }
            })
            .collect();
        SessionTurns {
            said_again: turns.iter().map(|_| OnceLock::new()).collect(),
            turns,
            distinct,
            said: OnceLock::new(),
        }
    }

    /// The human turns of `whole` (every epoch), each with the user's own words.
    pub fn of_session(whole: &crate::transcript::Transcript) -> SessionTurns {
        let said: Vec<(usize, String)> = (0..whole.messages.len())
            .into_par_iter()
            .filter(|&i| whole.messages[i].boundary)
            .filter_map(|i| Some((i, turns::user_words(&whole.readable_text(i))?)))
            .collect();
        SessionTurns::new(&said)
    }

    /// How many human turns.
    pub fn len(&self) -> usize {
        self.turns.len()
    }

    /// True when the session has no human turn.
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }

    /// Each turn judged: `summarized(position)` says whether the compactor summarized it
    /// away; `summaries` are every summary it wrote.
    pub fn judge(&self, summaries: &[&str], summarized: impl Fn(usize) -> bool + Sync) -> Vec<Turn> {
        self.judged(
            summaries,
            summarized,
            |_| true,
            |p, d, status, evidence| Turn {
                message: p,
                kind: d.kind,
                text: d.text.clone(),
                status,
                evidence: evidence.cloned(),
                values: d.values.clone(),
            },
        )
    }

    /// How many instructions [`SessionTurns::judge`] finds lost, without writing out
    /// every turn (a sweep needs only the count, for each of its replays).
    pub fn instructions_lost(&self, summaries: &[&str], summarized: impl Fn(usize) -> bool + Sync) -> usize {
        let instruction = |d: &Distinct| d.kind == turns::TurnKind::Instruction;
        self.judged(summaries, summarized, instruction, |_, d, status, _| {
            instruction(d) && status == TurnStatus::Lost
        })
        .into_iter()
        .filter(|&lost| lost)
        .count()
    }

    /// Each turn's status and evidence, given to `make` with the turn's position and text;
    /// a turn `wanted` refuses is given as kept, unjudged.
    fn judged<T: Send>(
        &self,
        summaries: &[&str],
        summarized: impl Fn(usize) -> bool + Sync,
        wanted: impl Fn(&Distinct) -> bool + Sync,
        make: impl Fn(usize, &Distinct, TurnStatus, Option<&Evidence>) -> T + Sync,
    ) -> Vec<T> {
        let sentences = Sentences::new(summaries.iter().map(|s| (None, *s)));
        let mut needed = vec![false; self.distinct.len()];
        for &(p, id) in &self.turns {
            needed[id] |= summarized(p) && wanted(&self.distinct[id]);
        }
        let in_summary: Vec<Option<Evidence>> = self
            .distinct
            .par_iter()
            .zip(needed)
            .map(|(d, needed)| needed.then(|| restated(&sentences, &d.words, &d.values)).flatten())
            .collect();
        // The summaries' own lists of user messages, aligned with the turns they cover in
        // the order they were said (`super::listed`).
        let covered: Vec<usize> = (0..self.turns.len())
            .filter(|&k| {
                let (p, id) = self.turns[k];
                summarized(p) && wanted(&self.distinct[id])
            })
            .collect();
        let texts: Vec<&str> = covered
            .iter()
            .map(|&k| self.distinct[self.turns[k].1].text.as_str())
            .collect();
        let mut listed: Vec<Option<Evidence>> = vec![None; self.turns.len()];
        for (k, found) in covered.iter().zip(super::listed::restated_by_lists(summaries, &texts)) {
            listed[*k] = found;
        }
        self.turns
            .par_iter()
            .zip(&self.said_again)
            .zip(&listed)
            .map(|((&(p, id), said_again), listed)| {
                let d = &self.distinct[id];
                if !summarized(p) || !wanted(d) {
                    make(p, d, TurnStatus::Kept, None)
                } else if let Some(e) = in_summary[id].as_ref().or(listed.as_ref()) {
                    make(p, d, TurnStatus::InSummary, Some(e))
                } else if let Some(e) = (d.kind != turns::TurnKind::Chatter)
                    .then(|| said_again.get_or_init(|| self.said_after(p, &d.words)).as_ref())
                    .flatten()
                {
                    make(p, d, TurnStatus::RepeatedLater, Some(e))
                } else {
                    make(p, d, TurnStatus::Lost, None)
                }
            })
            .collect()
    }

    /// Every turn's words as sentences, made the first time they are needed.
    fn said(&self) -> &Sentences {
        self.said.get_or_init(|| {
            let texts: Vec<(Option<usize>, &str)> = self
                .turns
                .iter()
                .map(|&(p, id)| (Some(p), self.distinct[id].text.as_str()))
                .collect();
            let cuts: Vec<&CutText> = self.turns.iter().map(|&(_, id)| &self.distinct[id].sentences).collect();
            Sentences::of_cut(&texts, &cuts)
        })
    }

    /// Makes the turns' sentences now, with every thread free to help: made inside
    /// parallel replays, the first replay to need them would make them while the other
    /// threads wait for it.
    pub fn prepare_for_many(&self) {
        self.said();
    }

    /// The evidence that a human turn after position `p` says `words` again.
    fn said_after(&self, p: usize, words: &TurnWords) -> Option<Evidence> {
        self.said().restates_turn_after(words, p)
    }
}
