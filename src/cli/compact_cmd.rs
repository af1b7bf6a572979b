//! `ctxlens compact`: the compacted transcript (standard output or an atomic `-o`), or
//! with `--plan` the plan as JSON.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use serde::Serialize;

use super::table::thousands;
use crate::compact::{compact, deterministic, Compaction, Options, Strategy};
use crate::export::write_atomic;
use crate::summarize::Summarizer;
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
    /// Print the loss report (instead of the transcript, unless -o).
    pub report: bool,
}

/// The deterministic strategy's options.
pub struct DeterministicRun<'a> {
    /// Run phase 2.
    pub subjective_edits: bool,
    /// `--artifacts DIR`.
    pub artifacts: Option<&'a Path>,
    /// `--externalize-over BYTES`.
    pub externalize_over: usize,
}

/// Compacts with `strategy` and writes the result (or the plan).
pub fn run(
    transcript: &Transcript,
    tokenizer: Tokenizer,
    strategy: Strategy,
    options: &Options,
    deterministic: &DeterministicRun,
    summarizer: &dyn Summarizer,
    output: &Output,
) -> anyhow::Result<ExitCode> {
    let counts = Counts::compute(transcript, tokenizer);
    let mut report = None;
    let (bytes, summary) = match strategy {
        Strategy::Tail => tail_stage(transcript, &counts, options, output, summarizer, None, &mut report)?,
        Strategy::Deterministic => {
            let compressed = deterministic_stage(transcript, &counts, options, deterministic, output)?;
            let summary = format!(
                "{} edits, {} → {} tokens, cap {}",
                compressed.edits.len(),
                thousands(compressed.tokens_before),
                thousands(compressed.tokens_after),
                if compressed.cap_met { "met" } else { "not met" }
            );
            let bytes = if output.plan {
                json_line(&DeterministicPlan::new(&compressed))?
            } else {
                compressed.output.into_bytes()
            };
            (bytes, summary)
        }
        Strategy::DeterministicThenTail => {
            let compressed = deterministic_stage(transcript, &counts, options, deterministic, output)?;
            let first = DeterministicPlan::new(&compressed);
            let (stage_two, counts_two) = crate::compact::reload(transcript, &compressed, &counts)?;
            tail_stage(
                &stage_two,
                &counts_two,
                options,
                output,
                summarizer,
                Some(first),
                &mut report,
            )?
        }
    };
    if let Some(path) = output.path {
        write_atomic(path, &bytes, Some(output.input), output.force)?;
        eprintln!("ctxlens: wrote {}: {summary}", path.display());
    }
    let mut out = std::io::stdout().lock();
    if output.report {
        let text = report.unwrap_or_else(|| format!("Loss report: nothing summarized ({summary}), nothing lost\n"));
        out.write_all(text.as_bytes())?;
    } else if output.path.is_none() {
        out.write_all(&bytes)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The §7F stage: the output (or plan) and a one-line summary. With `first`, the plan
/// is the composed `{strategy, deterministic, tail}` document.
fn tail_stage(
    transcript: &Transcript,
    counts: &Counts,
    options: &Options,
    output: &Output,
    summarizer: &dyn Summarizer,
    first: Option<DeterministicPlan>,
    report: &mut Option<String>,
) -> anyhow::Result<(Vec<u8>, String)> {
    let plan = output.plan;
    let result = compact(transcript, counts, options, summarizer)?;
    if let (true, Some(cut), Some(text)) = (output.report, result.plan.cut(), result.summary.as_deref()) {
        *report = Some(crate::loss::loss_report(transcript, cut, text).to_string());
    }
    for warning in result.warnings(transcript) {
        eprintln!("warning: {warning}");
    }
    let summary = describe(&result);
    let bytes = match (plan, first) {
        (false, _) => result.output.as_bytes().to_vec(),
        (true, None) => json_line(&plan_doc(transcript, counts, &result))?,
        (true, Some(first)) => json_line(&ComposedPlan {
            strategy: Strategy::DeterministicThenTail.name(),
            deterministic: first,
            tail: plan_doc(transcript, counts, &result),
        })?,
    };
    Ok((bytes, summary))
}

/// Runs the deterministic compressor with the artifact store the output calls for:
/// nothing is written for `--plan`; `--artifacts DIR`; a folder beside `-o OUT`; and with
/// standard output and no `--artifacts`, externalizing is refused with a clear error.
fn deterministic_stage(
    transcript: &Transcript,
    counts: &Counts,
    options: &Options,
    run: &DeterministicRun,
    output: &Output,
) -> anyhow::Result<deterministic::Compressed> {
    let settings = deterministic::Settings {
        cap: options.max_tokens,
        subjective_edits: run.subjective_edits,
        externalize_over: run.externalize_over,
    };
    let folder = run.artifacts.map(Path::to_path_buf).or_else(|| {
        output.path.map(|out| {
            let name = out
                .file_name()
                .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
            out.with_file_name(format!("{name}.artifacts"))
        })
    });
    let compressed = match (&folder, output.plan) {
        (_, true) => deterministic::compress(transcript, counts, &settings, &mut deterministic::DryRun)?,
        (Some(dir), false) => {
            let mut store = deterministic::DirStore::new(dir);
            let compressed = deterministic::compress(transcript, counts, &settings, &mut store)?;
            if !store.stored.is_empty() {
                eprintln!(
                    "ctxlens: {} externalized outputs stored in {}",
                    store.stored.len(),
                    dir.display()
                );
            }
            compressed
        }
        (None, false) => deterministic::compress(transcript, counts, &settings, &mut deterministic::Refuse)?,
    };
    if !compressed.cap_met {
        eprintln!(
            "warning: the deterministic pass could not reach the cap ({} > {})",
            thousands(compressed.tokens_after),
            thousands(options.max_tokens)
        );
    }
    Ok(compressed)
}

fn json_line(value: &impl Serialize) -> anyhow::Result<Vec<u8>> {
    let mut doc = serde_json::to_vec(value)?;
    doc.push(b'\n');
    Ok(doc)
}

/// The deterministic strategy's `--plan` document.
#[derive(Serialize)]
pub struct DeterministicPlan {
    strategy: &'static str,
    tokens_before: u64,
    tokens_after: u64,
    cap_met: bool,
    edits: Vec<EditRow>,
}

#[derive(Serialize)]
struct EditRow {
    index: usize,
    rule: &'static str,
    tokens_before: u64,
    tokens_after: u64,
}

impl DeterministicPlan {
    fn new(c: &deterministic::Compressed) -> DeterministicPlan {
        DeterministicPlan {
            strategy: Strategy::Deterministic.name(),
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
struct ComposedPlan<'a> {
    strategy: &'static str,
    deterministic: DeterministicPlan,
    tail: PlanDoc<'a>,
}

fn describe(result: &Compaction) -> String {
    match result.plan.cut() {
        Some(cut) => format!(
            "summarized {} messages, {} → {} tokens",
            cut.summarized(),
            thousands(result.plan.tokens_before),
            thousands(result.tokens_after)
        ),
        None => format!(
            "no-op ({} ≤ max_tokens {}), unchanged",
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
