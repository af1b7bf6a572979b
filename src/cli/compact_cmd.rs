//! `ctxlens compact`: the compacted transcript (standard output or an atomic `-o`), or
//! with `--plan` the plan as JSON.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use serde::Serialize;

use super::table::thousands;
use crate::compact::{compact, Compaction, Options};
use crate::export::write_atomic;
use crate::summarize::Placeholder;
use crate::tokens::{Counts, Tokenizer};
use crate::transcript::Transcript;

/// Where and how to write.
pub struct Output<'a> {
    /// `-o OUT`, or standard output.
    pub path: Option<&'a Path>,
    /// The input path, to refuse overwriting it.
    pub input: &'a Path,
    /// Allow overwriting the input.
    pub force: bool,
    /// Print the plan instead of the transcript.
    pub plan: bool,
}

/// Compacts and writes.
pub fn run(
    transcript: &Transcript,
    tokenizer: Tokenizer,
    options: &Options,
    output: &Output,
) -> anyhow::Result<ExitCode> {
    let counts = Counts::compute(transcript, tokenizer);
    let result = compact(transcript, &counts, options, &Placeholder)?;
    for warning in result.warnings(transcript) {
        eprintln!("warning: {warning}");
    }
    let bytes: Vec<u8> = if output.plan {
        let mut doc = serde_json::to_vec(&plan_doc(transcript, &counts, &result))?;
        doc.push(b'\n');
        doc
    } else {
        result.output.as_bytes().to_vec()
    };
    if let Some(path) = output.path {
        write_atomic(path, &bytes, Some(output.input), output.force)?;
        eprintln!("{}", describe(&result, path));
    } else {
        let mut out = std::io::stdout().lock();
        out.write_all(&bytes)?;
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn describe(result: &Compaction, path: &Path) -> String {
    match result.plan.cut() {
        Some(cut) => format!(
            "ctxlens: wrote {}: summarized {} messages, {} → {} tokens",
            path.display(),
            cut.summarized(),
            thousands(result.plan.tokens_before),
            thousands(result.tokens_after)
        ),
        None => format!(
            "ctxlens: wrote {}: no-op ({} ≤ max_tokens {}), unchanged",
            path.display(),
            thousands(result.plan.tokens_before),
            thousands(result.plan.max_tokens)
        ),
    }
}

/// The `--plan` document; field order is the documented key order.
#[derive(Serialize)]
pub struct PlanDoc<'a> {
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
struct CutDoc {
    head_end: usize,
    split: usize,
    summarized: usize,
    fallback: bool,
    tail_empty: bool,
}

/// The per-message rows, serialized straight from the transcript (no tree is built).
struct Rows<'a> {
    transcript: &'a Transcript,
    counts: &'a Counts,
    head_end: usize,
    split: usize,
}

#[derive(Serialize)]
struct Row<'a> {
    index: usize,
    role: &'a str,
    tokens: u64,
    section: &'static str,
    group: Option<usize>,
}

impl Serialize for Rows<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.transcript.messages.iter().enumerate().map(|(i, m)| Row {
            index: i,
            role: &m.role,
            tokens: self.counts.message(i),
            section: if i < self.head_end {
                "head"
            } else if i < self.split {
                "summarized"
            } else {
                "tail"
            },
            group: self.transcript.groups.group_of[i],
        }))
    }
}

/// The `--plan` document of a compaction.
pub fn plan_doc<'a>(transcript: &'a Transcript, counts: &'a Counts, result: &Compaction) -> PlanDoc<'a> {
    let plan = &result.plan;
    let first_is_system = transcript.messages.first().is_some_and(|m| m.role == "system");
    let head = usize::from(first_is_system);
    let cut = plan.cut();
    PlanDoc {
        tokenizer: counts.tokenizer.name(),
        tokens_before: plan.tokens_before,
        max_tokens: plan.max_tokens,
        keep_tail: plan.keep_tail,
        compacted: plan.compacts(),
        cut: cut.map(|c| CutDoc {
            head_end: c.head_end,
            split: c.split,
            summarized: c.summarized(),
            fallback: c.fallback(),
            tail_empty: c.tail_empty(),
        }),
        tokens_after: result.tokens_after,
        messages: Rows {
            transcript,
            counts,
            head_end: cut.map_or(head, |c| c.head_end),
            split: cut.map_or(head, |c| c.split),
        },
    }
}
