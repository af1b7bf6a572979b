//! The `compact --plan` documents: the §7F plan with a row per message, the
//! deterministic pass's edits, and both for `deterministic,tail`. Field order is the
//! documented key order; rows are serialized straight from the transcript.

use serde::Serialize;

use super::{deterministic::Compressed, Outcome, Planned};
use crate::tokens::Counts;
use crate::transcript::Transcript;

/// Writes the document `--plan` prints for an outcome. The rows (one per message, the
/// bulk of the document) are rendered in parallel, a batch at a time, so a million rows
/// are never held in memory at once.
pub fn write_plan(out: &mut impl std::io::Write, outcome: &Outcome) -> std::io::Result<()> {
    let tail = || PlanDoc::new(&outcome.view, &outcome.view_counts, outcome);
    // The stages that ran decide the document: the deterministic pass, the tail plan, or both.
    let document = match (&outcome.compressed, outcome.planned.tail.is_some()) {
        (Some(c), false) => PlanDocument::Deterministic(DeterministicPlan::new(c)),
        (Some(c), true) => PlanDocument::Composed(ComposedPlan {
            strategy: outcome.settings.strategy.name(),
            deterministic: DeterministicPlan::new(c),
            tail: tail(),
        }),
        (None, _) => PlanDocument::Tail(tail()),
    };
    let head = serde_json::to_vec(&document)?;
    // The rows go where the document holds their empty list (the tail plan is always
    // last, and no other value of the document can contain this text).
    match find_last(&head, ROWS_MARKER) {
        Some(at) => {
            let inside = at + ROWS_MARKER.len() - 1;
            out.write_all(&head[..inside])?;
            let rows = Rows {
                transcript: &outcome.view,
                counts: &outcome.view_counts,
                planned: outcome.planned,
            };
            rows.write(out)?;
            out.write_all(&head[inside..])?;
        }
        None => out.write_all(&head)?,
    }
    out.write_all(b"\n")
}

/// How the row list first appears in the serialized document: empty.
const ROWS_MARKER: &[u8] = b"\"messages\":[]";

fn find_last(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|w| w == needle)
}

/// The `compact --plan` document (written by [`write_plan`]): the stages that ran decide
/// its shape.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum PlanDocument<'a> {
    /// The §7F tail plan (`--strategy tail`).
    Tail(PlanDoc<'a>),
    /// The deterministic pass alone.
    Deterministic(DeterministicPlan),
    /// `deterministic,tail`: both stages.
    Composed(ComposedPlan<'a>),
}

impl crate::document::Document for PlanDocument<'_> {
    const NAME: &'static str = "compact-plan";
}

/// The deterministic strategy's `--plan` document.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DeterministicPlan {
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "crate::names::schema::<crate::compact::Strategy>")
    )]
    strategy: &'static str,
    tokens_before: u64,
    tokens_after: u64,
    cap_met: bool,
    edits: Vec<EditRow>,
}

#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EditRow {
    index: usize,
    rule: &'static str,
    tokens_before: u64,
    tokens_after: u64,
}

impl DeterministicPlan {
    fn new(c: &Compressed) -> DeterministicPlan {
        DeterministicPlan {
            strategy: "deterministic",
            tokens_before: c.tokens_before,
            tokens_after: c.tokens_after,
            cap_met: c.cap_met,
            edits: c
                .edits
                .iter()
                .map(|e| EditRow {
                    index: e.index,
                    rule: e.rule.name(),
                    tokens_before: e.tokens_before,
                    tokens_after: e.tokens_after,
                })
                .collect(),
        }
    }
}

/// `deterministic,tail`: both stages' plans.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ComposedPlan<'a> {
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "crate::names::schema::<crate::compact::Strategy>")
    )]
    strategy: &'static str,
    deterministic: DeterministicPlan,
    tail: PlanDoc<'a>,
}

/// The §7F `--plan` document.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlanDoc<'a> {
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "crate::names::schema::<crate::tokens::Tokenizer>")
    )]
    tokenizer: &'static str,
    tokens_before: u64,
    max_tokens: u64,
    keep_tail: u64,
    compacted: bool,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    cut: Option<CutDoc>,
    tokens_after: u64,
    messages: Rows<'a>,
}

#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CutDoc {
    head_end: usize,
    split: usize,
    summarized: usize,
    fallback: bool,
    tail_empty: bool,
}

impl<'a> PlanDoc<'a> {
    fn new(transcript: &'a Transcript, counts: &'a Counts, outcome: &Outcome) -> PlanDoc<'a> {
        let planned = &outcome.planned;
        let plan = planned.tail.expect("a tail strategy has a §7F plan");
        PlanDoc {
            tokenizer: counts.tokenizer.name(),
            tokens_before: plan.tokens_before,
            max_tokens: plan.max_tokens,
            keep_tail: plan.keep_tail,
            compacted: plan.compacts(),
            cut: plan.cut().map(|c| CutDoc {
                head_end: c.head_end,
                split: c.split,
                summarized: c.summarized(),
                fallback: c.fallback(),
                tail_empty: c.tail_empty(),
            }),
            tokens_after: outcome.tokens_after,
            messages: Rows {
                transcript,
                counts,
                planned: *planned,
            },
        }
    }
}

/// The per-message rows.
pub struct Rows<'a> {
    transcript: &'a Transcript,
    counts: &'a Counts,
    planned: Planned,
}

#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Row<'a> {
    index: usize,
    role: &'a str,
    tokens: u64,
    section: super::Section,
    group: Option<usize>,
    /// What the provider's rules make of a message that is mostly binary data.
    #[serde(skip_serializing_if = "Option::is_none")]
    provider_tokens: Option<u64>,
}

/// The rows' schema: a list of [`Row`] (what [`Rows::write`] writes in the list's place).
#[cfg(feature = "schema")]
impl schemars::JsonSchema for Rows<'_> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PlanRows".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Vec<Row<'static>>>::json_schema(generator)
    }
}

/// Serialized as an empty list: [`write_plan`] writes the rows in its place.
impl Serialize for Rows<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(std::iter::empty::<Row>())
    }
}

impl Rows<'_> {
    /// Rows rendered per batch: big enough to keep both cores busy, small enough that
    /// the rendered text of one batch stays a few megabytes.
    const BATCH: usize = 32 * 1024;

    /// Writes the rows, comma-separated, rendering each batch's rows in parallel.
    fn write(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        use rayon::prelude::*;
        let len = self.transcript.messages.len();
        for start in (0..len).step_by(Self::BATCH) {
            let end = (start + Self::BATCH).min(len);
            let pieces: Vec<Vec<u8>> = (start..end)
                .into_par_iter()
                .chunks(1024)
                .map(|indices| {
                    let mut piece = Vec::with_capacity(indices.len() * 96);
                    for i in indices {
                        if i > 0 {
                            piece.push(b',');
                        }
                        serde_json::to_writer(&mut piece, &self.row(i)).expect("a row serializes");
                    }
                    piece
                })
                .collect();
            for piece in &pieces {
                out.write_all(piece)?;
            }
        }
        Ok(())
    }

    fn row(&self, i: usize) -> Row<'_> {
        Row {
            index: i,
            role: &self.transcript.messages[i].role,
            tokens: self.counts.message(i),
            section: self.planned.section(i),
            group: self.transcript.groups.group_of(i),
            provider_tokens: crate::tokens::media::binary_heavy(self.transcript, i).map(|h| h.provider_tokens),
        }
    }
}
