//! `ctxlens compact`: the compacted transcript (standard output or an atomic `-o`), or
//! with `--plan` the plan as JSON.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use serde_json::{json, Map, Value};

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
        let mut doc = serde_json::to_vec(&plan_json(transcript, &counts, &result))?;
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

/// The `--plan` document, keys in the documented order.
pub fn plan_json(transcript: &Transcript, counts: &Counts, result: &Compaction) -> Value {
    let plan = &result.plan;
    let mut doc = Map::new();
    doc.insert("tokenizer".into(), json!(counts.tokenizer.name()));
    doc.insert("tokens_before".into(), json!(plan.tokens_before));
    doc.insert("max_tokens".into(), json!(plan.max_tokens));
    doc.insert("keep_tail".into(), json!(plan.keep_tail));
    doc.insert("compacted".into(), json!(plan.compacts()));
    let cut = plan.cut();
    if let Some(cut) = cut {
        doc.insert("head_end".into(), json!(cut.head_end));
        doc.insert("split".into(), json!(cut.split));
        doc.insert("summarized".into(), json!(cut.summarized()));
        doc.insert("fallback".into(), json!(cut.fallback()));
        doc.insert("tail_empty".into(), json!(cut.tail_empty()));
    }
    doc.insert("tokens_after".into(), json!(result.tokens_after));
    let first_is_system = transcript.messages.first().is_some_and(|m| m.role == "system");
    let (head_end, split) = cut.map_or((usize::from(first_is_system), usize::from(first_is_system)), |c| {
        (c.head_end, c.split)
    });
    let messages: Vec<Value> = transcript
        .messages
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let section = if i < head_end {
                "head"
            } else if i < split {
                "summarized"
            } else {
                "tail"
            };
            json!({"index": i, "role": m.role, "tokens": counts.message(i), "section": section, "group": transcript.groups.group_of[i]})
        })
        .collect();
    doc.insert("messages".into(), Value::Array(messages));
    Value::Object(doc)
}
