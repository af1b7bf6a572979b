//! The session as replay walks it, and the working context at one point of the walk.
//!
//! The **model view** is the session's messages in order with every epoch joined and the
//! summaries of real compactions left out (they are what the agent's own compactor
//! wrote, not what these settings would write). Its costs are prefix sums over the
//! transcript's counts, so nothing is re-counted while replaying.
//!
//! The **working context** right before a model call is always: a few leading items
//! (the kept head, summaries and reminders inserted by earlier firings) followed by one
//! contiguous stretch of the model view. That shape is a [`Shape`], so the §7F plan runs
//! on it directly, in O(log n) per call.

use std::ops::Range;
use std::sync::Arc;

use crate::compact::Shape;
use crate::tokens::Counts;
use crate::transcript::Transcript;

/// The model view of a transcript with its costs.
#[derive(Debug, Clone)]
pub struct View {
    /// The transcript it is a view of (loaded whole for session logs).
    pub transcript: Transcript,
    /// Its counts.
    pub counts: Counts,
    /// Transcript index of each position.
    pub positions: Vec<usize>,
    /// `prefix[p]`: tokens of positions `0..p`.
    prefix: Vec<u64>,
    /// Positions of human turns, ascending.
    boundaries: Vec<usize>,
    /// Positions that answer a model call, ascending.
    pub calls: Vec<usize>,
}

impl View {
    /// The model view of `transcript` (past summaries left out) with `counts`.
    pub fn new(transcript: Transcript, counts: Counts) -> View {
        let positions: Vec<usize> = (0..transcript.messages.len())
            .filter(|&i| !transcript.messages[i].past_summary)
            .collect();
        let mut prefix = Vec::with_capacity(positions.len() + 1);
        let mut sum = 0;
        prefix.push(0);
        for &i in &positions {
            sum += counts.message(i);
            prefix.push(sum);
        }
        let boundaries = positions
            .iter()
            .enumerate()
            .filter(|(_, &i)| transcript.messages[i].boundary)
            .map(|(p, _)| p)
            .collect();
        let rules = transcript.format.dialect.rules();
        let output: Vec<bool> = positions
            .iter()
            .map(|&i| rules.is_model_output(&transcript.messages[i].role))
            .collect();
        // A model call is answered by an assistant message; in the Responses item format
        // one answer is a run of items (reasoning, calls, message), so a run is one call.
        let calls = (1..positions.len())
            .filter(|&p| output[p] && !(rules.is_item_list() && output[p - 1]))
            .collect();
        View {
            transcript,
            counts,
            positions,
            prefix,
            boundaries,
            calls,
        }
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// True when the session has no messages.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Tokens of positions `range`.
    pub fn tokens(&self, range: Range<usize>) -> u64 {
        self.prefix[range.end] - self.prefix[range.start]
    }

    /// Tokens of all positions.
    pub fn total(&self) -> u64 {
        self.prefix[self.len()]
    }

    /// Whether position `p` is a human turn.
    pub fn is_boundary(&self, p: usize) -> bool {
        self.boundaries.binary_search(&p).is_ok()
    }

    /// The first human turn in `from..end`.
    fn boundary_in(&self, from: usize, end: usize) -> Option<usize> {
        let b = *self.boundaries.get(self.boundaries.partition_point(|&b| b < from))?;
        (b < end).then_some(b)
    }

    /// The last human turn in `start..end`.
    fn last_boundary_in(&self, start: usize, end: usize) -> Option<usize> {
        let k = self.boundaries.partition_point(|&b| b < end);
        let b = *self.boundaries.get(k.checked_sub(1)?)?;
        (b >= start).then_some(b)
    }

    /// The provider's recorded prompt size for the call answered at position `p`, when
    /// the log records it: in an item list, on any item of the answer's run (a rollout
    /// records it after the run's last item).
    pub fn recorded(&self, p: usize) -> Option<u64> {
        let rules = self.transcript.format.dialect.rules();
        let run = if rules.is_item_list() {
            self.positions[p..]
                .iter()
                .enumerate()
                .take_while(|&(k, &i)| k == 0 || rules.is_model_output(&self.transcript.messages[i].role))
                .count()
        } else {
            1
        };
        self.positions[p..p + run]
            .iter()
            .find_map(|&i| self.transcript.messages[i].recorded())
            .map(|r| r.context_tokens())
    }
}

/// A message of the working context that is not a stretch of the view: the kept head
/// (a position), or a summary or reminder an earlier firing inserted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// Position `p` of the view.
    Original(usize),
    /// A message a firing wrote.
    Inserted(Arc<Inserted>),
}

/// A summary or reminder written by a firing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inserted {
    /// Its JSON.
    pub json: String,
    /// Its readable text.
    pub text: String,
    /// Its role.
    pub role: String,
    /// Its tokens.
    pub tokens: u64,
    /// Whether §7F takes it for a human turn (a summary written as a user message in a
    /// plain message list is one).
    pub boundary: bool,
    /// The position of the call whose firing wrote it.
    pub at: usize,
}

/// The working context: `items`, then the positions `stretch` of the view.
#[derive(Debug, Clone)]
pub struct Context<'v> {
    view: &'v View,
    /// Leading items.
    pub items: Vec<Item>,
    /// The stretch of the view after them.
    pub stretch: Range<usize>,
}

impl<'v> Context<'v> {
    /// The empty context at the start of a session.
    pub fn new(view: &'v View) -> Context<'v> {
        Context {
            view,
            items: Vec::new(),
            stretch: 0..0,
        }
    }

    /// Appends the next position of the view (which must be `stretch.end`).
    pub fn push_next(&mut self) {
        self.stretch.end += 1;
    }

    fn item_tokens(&self, item: &Item) -> u64 {
        match item {
            Item::Original(p) => self.view.tokens(*p..*p + 1),
            Item::Inserted(m) => m.tokens,
        }
    }

    fn item_boundary(&self, item: &Item) -> bool {
        match item {
            Item::Original(p) => self.view.is_boundary(*p),
            Item::Inserted(m) => m.boundary,
        }
    }

    fn item_is_system(&self, item: &Item) -> bool {
        match item {
            Item::Original(p) => self.view.transcript.messages[self.view.positions[*p]].role == "system",
            Item::Inserted(m) => m.role == "system",
        }
    }

    /// The context's message at `k`.
    pub fn at(&self, k: usize) -> Item {
        self.items
            .get(k)
            .cloned()
            .unwrap_or_else(|| Item::Original(self.stretch.start + (k - self.items.len())))
    }

    /// Replaces the context by `head`, `inserted`, then what follows `split`.
    pub fn replace(&mut self, head_end: usize, split: usize, inserted: Vec<Item>) {
        let mut items: Vec<Item> = self.items.iter().take(head_end).cloned().collect();
        if head_end > self.items.len() {
            // The head is the stretch's first position.
            items.push(Item::Original(self.stretch.start));
        }
        items.extend(inserted);
        if split < self.items.len() {
            items.extend(self.items[split..].iter().cloned());
        } else {
            self.stretch.start += split - self.items.len();
        }
        self.items = items;
    }
}

impl Shape for Context<'_> {
    fn len(&self) -> usize {
        self.items.len() + self.stretch.len()
    }

    fn starts_with_system(&self) -> bool {
        match self.items.first() {
            Some(item) => self.item_is_system(item),
            None if !self.stretch.is_empty() => self.item_is_system(&Item::Original(self.stretch.start)),
            None => false,
        }
    }

    fn suffix(&self, from: usize) -> u64 {
        let n = self.items.len();
        if from >= n {
            let start = (self.stretch.start + (from - n)).min(self.stretch.end);
            return self.view.tokens(start..self.stretch.end);
        }
        self.items[from..].iter().map(|i| self.item_tokens(i)).sum::<u64>() + self.view.tokens(self.stretch.clone())
    }

    fn boundary_from(&self, from: usize) -> Option<usize> {
        let n = self.items.len();
        if let Some(k) = (from..n).find(|&k| self.item_boundary(&self.items[k])) {
            return Some(k);
        }
        let start = self.stretch.start + from.saturating_sub(n);
        self.view
            .boundary_in(start, self.stretch.end)
            .map(|b| n + (b - self.stretch.start))
    }

    fn last_boundary(&self) -> Option<usize> {
        let n = self.items.len();
        if let Some(b) = self.view.last_boundary_in(self.stretch.start, self.stretch.end) {
            return Some(n + (b - self.stretch.start));
        }
        (0..n).rev().find(|&k| self.item_boundary(&self.items[k]))
    }
}
