//! What a whole replay lost: the facts (paths, ids, numbers, errors…) and user
//! instructions that were in the session at some point but are in no summary and not in
//! the final context. Human turns are judged by meaning ([`SessionTurns`]): each with
//! its kind, status and the summary sentence that restates it.
//!
//! The facts are found once per session ([`FactIndex::build`]): each fact's first
//! message and the last message whose text contains it (one Aho-Corasick pass over the
//! session). A replay then only checks its summaries, so a sweep of many settings pays
//! for the session's text once.

use rayon::prelude::*;

use super::{Replay, View};
use crate::cancel::CancelToken;
use crate::loss::session::SessionTurns;
use crate::loss::{fact_spans, first_line, turns, Fact, FactKind, Finder, Turn, TurnStatus};

/// The facts and human turns of a session, indexed.
#[derive(Debug)]
pub struct FactIndex {
    /// Every distinct fact; `message` is the position it first appears at.
    facts: Vec<Fact>,
    /// The last position whose text contains each fact.
    last_seen: Vec<usize>,
    /// Whether position 0 contains each fact (it stays as the head when it is a system
    /// message).
    at_start: Vec<bool>,
    /// Finds the facts in a text.
    finder: Finder,
    /// Human turns (their user's own words), read once for every replay.
    turns: SessionTurns,
}

impl FactIndex {
    /// Indexes the session's facts and human turns.
    pub fn build(view: &View, cancel: &CancelToken) -> crate::Result<FactIndex> {
        let transcript = &view.transcript;
        let texts: Vec<String> = view
            .positions
            .par_iter()
            .map(|&i| {
                if cancel.is_cancelled() {
                    String::new()
                } else {
                    transcript.readable_text(i)
                }
            })
            .collect();
        cancel.check()?;
        let per_position: Vec<Vec<(std::ops::Range<usize>, FactKind)>> = texts
            .par_iter()
            .enumerate()
            .map(|(p, text)| {
                let m = &transcript.messages[view.positions[p]];
                let prose = m.tool_calls().is_empty()
                    && m.tool_results().is_empty()
                    && matches!(m.role.as_str(), "user" | "assistant");
                fact_spans(text, prose)
            })
            .collect();
        // Facts repeat across a session: only the first sighting of each is copied.
        let mut seen = rustc_hash::FxHashSet::default();
        let facts: Vec<Fact> = per_position
            .iter()
            .enumerate()
            .flat_map(|(p, spans)| {
                let text = texts[p].as_str();
                spans.iter().map(move |(range, kind)| (p, &text[range.clone()], *kind))
            })
            .filter(|&(_, text, _)| seen.insert(text))
            .map(|(p, text, kind)| Fact {
                text: text.to_owned(),
                kind,
                message: p,
            })
            .collect();
        let texts_of_facts: Vec<&str> = facts.iter().map(|f| f.text.as_str()).collect();
        let finder = Finder::new(&texts_of_facts);
        let mut last_seen: Vec<usize> = facts.iter().map(|f| f.message).collect();
        let mut at_start = vec![false; facts.len()];
        let found: Vec<Vec<usize>> = texts.par_iter().map(|text| finder.ids_in(text)).collect();
        for (p, ids) in found.iter().enumerate() {
            for &id in ids {
                last_seen[id] = last_seen[id].max(p);
                at_start[id] |= p == 0;
            }
        }
        let said: Vec<(usize, String)> = (0..view.len())
            .into_par_iter()
            .filter(|&p| view.is_boundary(p))
            .filter_map(|p| Some((p, turns::user_words(&texts[p])?)))
            .collect();
        Ok(FactIndex {
            facts,
            last_seen,
            at_start,
            finder,
            turns: SessionTurns::new(&said),
        })
    }

    /// Number of distinct facts.
    pub fn len(&self) -> usize {
        self.facts.len()
    }

    /// True when the session holds no fact.
    pub fn is_empty(&self) -> bool {
        self.facts.is_empty()
    }

    /// Number of human turns.
    pub fn instructions(&self) -> usize {
        self.turns.len()
    }

    /// Readies what every replay's judgement shares, before many replays run in parallel
    /// (see [`SessionTurns::prepare_for_many`]).
    pub fn prepare_for_many(&self) {
        self.turns.prepare_for_many();
    }
}

/// What a whole replay lost.
#[derive(Debug, Clone, PartialEq)]
pub struct LifetimeLoss {
    /// Distinct facts in the session.
    pub facts: usize,
    /// Facts in no summary and not in the final context (`message`: where first seen).
    pub lost: Vec<Fact>,
    /// Human turns in the session.
    pub instructions: usize,
    /// Instructions summarized away that no summary restates and the user did not say
    /// again: (position, first line).
    pub instructions_lost: Vec<(usize, String)>,
    /// Every human turn with its kind, status and evidence (`message`: its position).
    pub turns: Vec<Turn>,
}

impl LifetimeLoss {
    /// Facts that survive, in percent (100 with none).
    pub fn survival_percent(&self) -> f64 {
        survival_percent(self.facts, self.lost.len())
    }
}

/// How much a whole replay lost, counted: what a sweep's row needs of
/// [`lifetime_loss`] (the same judgement, without listing what was lost).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LossCounts {
    /// Facts that survive, in percent (100 with none).
    pub survival_percent: f64,
    /// Facts lost.
    pub facts_lost: usize,
    /// User instructions lost.
    pub instructions_lost: usize,
}

/// Where a replay's losses are judged: the facts its summaries hold, and which positions
/// it summarized away.
struct Judged {
    /// Whether each fact is in some summary.
    in_summaries: Vec<bool>,
    /// The first position of the final context's verbatim tail.
    final_start: usize,
    /// The head (position 0) is kept though it is not in that tail.
    head_kept: bool,
}

impl Judged {
    fn of(index: &FactIndex, replay: &Replay) -> Judged {
        let mut in_summaries = vec![false; index.facts.len()];
        for firing in &replay.firings {
            index.finder.mark(&firing.summary, &mut in_summaries);
        }
        Judged {
            in_summaries,
            final_start: replay.final_stretch.start,
            head_kept: replay.keeps(0) && !replay.final_stretch.contains(&0),
        }
    }

    /// Whether fact `id` was lost.
    fn fact_lost(&self, index: &FactIndex, id: usize) -> bool {
        index.last_seen[id] < self.final_start && !(self.head_kept && index.at_start[id]) && !self.in_summaries[id]
    }

    /// Whether the turn at `p` was summarized away.
    fn summarized(&self, p: usize) -> bool {
        p < self.final_start && !(self.head_kept && p == 0)
    }
}

/// [`lifetime_loss`]'s figures alone.
pub fn lifetime_loss_counts(index: &FactIndex, replay: &Replay) -> LossCounts {
    let judged = Judged::of(index, replay);
    let facts_lost = (0..index.facts.len()).filter(|&id| judged.fact_lost(index, id)).count();
    let summaries: Vec<&str> = replay.firings.iter().map(|f| f.summary.as_str()).collect();
    let facts = index.facts.len();
    LossCounts {
        survival_percent: survival_percent(facts, facts_lost),
        facts_lost,
        instructions_lost: index.turns.instructions_lost(&summaries, |p| judged.summarized(p)),
    }
}

/// The share of `facts` that survive when `lost` are lost, in percent to one decimal
/// (100 with none).
fn survival_percent(facts: usize, lost: usize) -> f64 {
    if facts == 0 {
        return 100.0;
    }
    ((facts - lost) as f64 * 1000.0 / facts as f64).round() / 10.0
}

/// What `replay` lost over the session indexed by `index`.
pub fn lifetime_loss(index: &FactIndex, replay: &Replay) -> LifetimeLoss {
    let judged = Judged::of(index, replay);
    let lost = index
        .facts
        .iter()
        .enumerate()
        .filter(|&(id, _)| judged.fact_lost(index, id))
        .map(|(_, f)| f.clone())
        .collect();
    let summaries: Vec<&str> = replay.firings.iter().map(|f| f.summary.as_str()).collect();
    let turns = index.turns.judge(&summaries, |p| judged.summarized(p));
    let instructions_lost = turns
        .iter()
        .filter(|t| t.kind == turns::TurnKind::Instruction && t.status == TurnStatus::Lost)
        .map(|t| (t.message, first_line(&t.text)))
        .collect();
    LifetimeLoss {
        facts: index.facts.len(),
        lost,
        instructions: index.turns.len(),
        instructions_lost,
        turns,
    }
}
