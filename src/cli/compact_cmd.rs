//! `ctxlens compact`: runs the one core ([`ctxlens::compact::Compaction`]) and writes the
//! compacted transcript (standard output or an atomic `-o`), the plan (`--plan`) or the
//! loss report (`--report`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;

use super::args::{BudgetArgs, EmitArgs, InputArgs, MakeArgs};
use ctxlens::compact::deterministic::{ArtifactStore, DirStore, DryRun, Refuse};
use ctxlens::compact::write_document;
use ctxlens::compact::{artifacts_dir_for, Compaction, DeterministicOptions, Outcome, Settings};
use ctxlens::export::check_output;
use ctxlens::policy::Engine;
use ctxlens::summarize::Spec;
use ctxlens::text::thousands;
use ctxlens::tokens::Counts;

/// `ctxlens compact FILE`.
#[derive(Debug, clap::Args)]
#[allow(clippy::struct_excessive_bools)] // flags of a command line
pub struct CompactArgs {
    /// Transcript file (`-` for standard input).
    file: PathBuf,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    make: MakeArgs,
    /// Deterministic: also run the subjective edits (fillers, repeated sentences, verbose replies).
    #[arg(long)]
    subjective_edits: bool,
    /// Deterministic: store externalized tool output here (default: `<OUT>.artifacts` beside -o OUT).
    #[arg(long, value_name = "DIR")]
    artifacts: Option<PathBuf>,
    /// Deterministic: externalize tool output larger than this many bytes.
    #[arg(long, value_name = "BYTES", default_value_t = ctxlens::compact::deterministic::DEFAULT_EXTERNALIZE_OVER)]
    externalize_over: usize,
    /// Print the loss report (what the summarized messages held that survives, and what
    /// is lost) instead of the transcript; with -o the transcript goes to the file.
    #[arg(long, conflicts_with = "plan")]
    report: bool,
    /// With --report: the report as JSON, in the contract `history --json` uses
    /// (`instructions: [{message, kind, text, status, evidence}]`, facts, lost facts).
    #[arg(long, requires = "report")]
    json: bool,
    /// With --report: list every lost fact, the noise too (without it: the 20 that matter
    /// most, the noise as counts).
    #[arg(long, requires = "report")]
    all: bool,
    /// Write here (atomically) instead of standard output (`-`: standard output).
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    /// Print the plan as JSON instead of the compacted transcript.
    #[arg(long)]
    plan: bool,
    /// Allow -o to overwrite the input file.
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    policy: super::policy_cmd::PolicyArgs,
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    emit: EmitArgs,
}

impl CompactArgs {
    /// `-o`, unless it names standard output.
    fn output_path(&self) -> Option<&Path> {
        self.output.as_deref().filter(|p| p.as_os_str() != "-")
    }

    /// Where externalized output goes: nothing is written for `--plan`; `--artifacts DIR`;
    /// a folder beside `-o OUT`; with standard output and no `--artifacts`, externalizing
    /// is refused with a clear error.
    fn store(&self) -> Box<dyn ArtifactStore> {
        if self.plan {
            return Box::new(DryRun);
        }
        match (&self.artifacts, self.output_path()) {
            (Some(dir), _) => Box::new(DirStore::new(dir)),
            (None, Some(out)) => Box::new(DirStore::new(&artifacts_dir_for(out))),
            (None, None) => Box::new(Refuse),
        }
    }
}

/// `--policy NAME`: what that agent's compactor would do, as the policy contract's JSON
/// (`--plan`). `--max-tokens`/`--keep-tail` are the toolnexus policy's shorthand.
fn run_policy(args: &CompactArgs, name: &str) -> anyhow::Result<ExitCode> {
    let settings = args.policy.settings(name, &args.budget)?;
    if let Some(out) = args.output_path() {
        check_output(out, Some(&args.file), args.force)?;
    }
    let transcript = args.input.load(&args.file)?;
    if let Some(kind) = args.emit.emit_config {
        return emit_policy_config(name, kind, &settings, &transcript);
    }
    let plan = ctxlens::policy::plan(name, &transcript, &settings)?;
    for warning in &plan.warnings {
        eprintln!("warning: {warning}");
    }
    if args.plan {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        super::json_out::write(&mut out, transcript.source(), &plan, false)?;
        writeln!(out)?;
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    let summary = policy_summary(args, &transcript, &plan)?;
    let document = ctxlens::policy::render::render(&transcript, &plan, &summary)?;
    if let Some(path) = args.output_path() {
        write_document(path, &document, Some(&args.file), args.force, &mut Refuse)?;
        let what = if plan.compacted {
            "the transcript"
        } else {
            "the transcript unchanged"
        };
        eprintln!("ctxlens: wrote {}: {what} as {name} would send it", path.display());
    } else {
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        document.write_to(&mut out)?;
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `--policy NAME --emit-config KIND` (on `compact` and `replay`): the policy's own settings as its agent's
/// configuration, where the policy fires at one billed threshold and KIND is Claude Code's
/// override; otherwise refused with the reason (never a transcript printed instead).
pub(super) fn emit_policy_config(
    name: &str,
    kind: ctxlens::agent_config::Kind,
    settings: &ctxlens::policy::PolicySettings,
    transcript: &ctxlens::transcript::Transcript,
) -> anyhow::Result<ExitCode> {
    let policy = ctxlens::policy::by_name(name)?;
    settings.check_keys(policy.name(), policy.keys())?;
    // What its replay would run with: its defaults for the model's window, then a setting
    // the log shows, where none was given.
    let window = ctxlens::policy::compare::window_for(None, transcript);
    let mut settings = ctxlens::policy::compare::with_defaults(policy, window, settings);
    for (key, value) in policy.settings_from_log(transcript, transcript.messages().len(), &settings) {
        if settings.text(key).is_none() {
            settings = settings.with(key, value);
        }
    }
    if kind == ctxlens::agent_config::Kind::Anthropic {
        let Some(field) = policy.request_config(&settings)? else {
            bail!("--emit-config anthropic with --policy {name}: {name} is not applied by the API; the request field is written for a policy the API applies (docs/policies.md)");
        };
        return super::emit::print_emitted(&ctxlens::agent_config::request_field(&field));
    }
    // An agent's own setting, from its own policy's threshold: the policy whose logs are
    // that agent's.
    let trigger = policy.billed_trigger(&settings)?;
    let agent = policy.agent_logs();
    let emitted = match (kind, trigger, agent) {
        (
            ctxlens::agent_config::Kind::ClaudeCode,
            Some((threshold, window)),
            Some(ctxlens::transcript::Container::ClaudeCode),
        ) => {
            let logged = ctxlens::policy::claude_code::logged_threshold(transcript);
            ctxlens::agent_config::claude_code_threshold(threshold, window, logged)
        }
        (
            ctxlens::agent_config::Kind::GeminiCli,
            Some((threshold, window)),
            Some(ctxlens::transcript::Container::GeminiCli),
        ) => ctxlens::agent_config::gemini_cli_threshold(threshold, window),
        _ => bail!(
            "--emit-config {} with --policy {name}: ctxlens writes {}'s configuration from a §7F budget (--max-tokens, --keep-tail, without --policy) or from that agent's own policy's threshold; {name}'s settings are not written as it",
            kind.name(),
            kind.name()
        ),
    };
    super::emit::print_emitted(&emitted)
}

/// The summary a policy's plan inserts, from the chosen summarizer (the placeholder by
/// default) over the messages its summarizer reads; LangChain's summarizer reading
/// nothing writes its fixed sentence, as LangChain does.
fn policy_summary(
    args: &CompactArgs,
    transcript: &ctxlens::transcript::Transcript,
    plan: &ctxlens::policy::PolicyPlan,
) -> anyhow::Result<String> {
    if plan.inserted.is_empty() {
        return Ok(String::new());
    }
    let read: Vec<usize> = match &plan.summarizer_input {
        Some(input) if input.is_empty() => {
            return Ok("Previous conversation was too long to summarize.".to_owned());
        }
        Some(input) => input.clone(),
        None => plan
            .messages
            .iter()
            .filter(|r| r.section == ctxlens::policy::Section::Summarized)
            .map(|r| r.index)
            .collect(),
    };
    let summarizer =
        ctxlens::summarizers::build(&args.make.summarizer(Spec::Placeholder), &args.make.summary.settings())?;
    let older: Vec<_> = read
        .iter()
        .map(|&i| ctxlens::summarize::older_message(transcript, i, summarizer.needs_text()))
        .collect();
    Ok(summarizer.summarize(&older, ctxlens::cancel::never())?)
}

/// Compacts and writes the result.
pub fn run(args: &CompactArgs) -> anyhow::Result<ExitCode> {
    // llm4s is the deterministic strategy: without --plan it writes what that strategy
    // writes (its artifacts stored beside -o), with the policy's --set values.
    let chosen = match args.policy.chosen() {
        Some(name) => Some((name, ctxlens::policy::by_name(name)?)),
        None => None,
    };
    let llm4s = match chosen {
        Some((name, policy)) if policy.engine() == Engine::DeterministicStrategy && !args.plan => Some(
            ctxlens::policy::llm4s::Llm4sSettings::parse(&args.policy.settings(name, &args.budget)?)?,
        ),
        Some((name, _)) => return run_policy(args, name),
        None => None,
    };
    let Some(max_tokens) = llm4s.map(|s| s.options.max_tokens).or(args.budget.max_tokens()) else {
        bail!("compact needs --max-tokens N (compact only when the transcript is over N tokens)");
    };
    // Refuse a bad -o before doing any work (and before any artifact is written).
    if let Some(out) = args.output_path() {
        check_output(out, Some(&args.file), args.force)?;
    }
    let transcript = args.input.load(&args.file)?;
    let counts = Counts::compute(&transcript, args.input.tokenizer());
    let spec = args.make.summarizer(Spec::Placeholder);
    let settings = match llm4s {
        Some(llm4s) => Settings {
            strategy: llm4s.strategy,
            options: llm4s.options,
            deterministic: llm4s.deterministic,
            summary_role: args.make.summary_role(),
        },
        None => Settings {
            strategy: args.make.strategy(),
            options: args.budget.options(max_tokens),
            deterministic: DeterministicOptions {
                subjective_edits: args.subjective_edits,
                externalize_over: args.externalize_over,
            },
            summary_role: args.make.summary_role(),
        },
    };
    if let Some(kind) = args.emit.emit_config {
        let emit = super::emit::settings(&transcript, &counts, &settings, &spec, &args.emit);
        return super::emit::print(kind, &emit);
    }
    let summarizer = ctxlens::summarizers::build(&spec, &args.make.summary.settings())?;
    let mut store = args.store();
    let mut compaction = Compaction::new(&transcript, &counts, settings)
        .summarizer(summarizer.as_ref())
        .store(store.as_mut());
    if args.report {
        compaction = compaction.with_loss_report();
    }
    let outcome = compaction.run()?;
    for warning in &outcome.warnings {
        eprintln!("warning: {warning}");
    }
    if counts.tokenizer.is_estimate() {
        // Every large message is searched for base64 payloads: in parallel, printed in order.
        use rayon::prelude::*;
        let heavy: Vec<_> = (0..transcript.messages().len())
            .into_par_iter()
            .filter_map(|index| ctxlens::tokens::media::binary_heavy(&transcript, index).map(|h| (index, h)))
            .collect();
        let rule = ctxlens::tokens::media::provider_rule(&transcript);
        for (index, heavy) in heavy {
            let warning = super::stats_cmd::binary_warning(&heavy, counts.message(index), counts.tokenizer, &rule);
            eprintln!("warning: message {index}: {}", warning.trim_start_matches("⚠ "));
        }
    }
    if let Some(path) = args.output_path() {
        write_document(path, &outcome.document, Some(&args.file), args.force, store.as_mut())?;
        eprintln!("ctxlens: wrote {}: {}", path.display(), describe(&outcome));
        if let Some((count, dir)) = store.stored().filter(|(n, _)| *n > 0) {
            eprintln!("ctxlens: {count} externalized outputs stored in {}", dir.display());
        }
    }
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    if args.report && args.json {
        let doc = ctxlens::loss::document::ReportDoc::of(outcome.loss.as_ref());
        super::json_out::write(&mut out, transcript.source(), &doc, true)?;
        writeln!(out)?;
    } else if args.report {
        match &outcome.loss {
            Some(report) if args.all => write!(out, "{report:#}")?,
            Some(report) => write!(out, "{report}")?,
            None => writeln!(
                out,
                "Loss report: nothing summarized ({}), nothing lost",
                describe(&outcome)
            )?,
        }
    } else if args.plan {
        let mut plan = Vec::new();
        ctxlens::compact::write_plan(&mut plan, &outcome)?;
        super::json_out::write_body::<ctxlens::compact::PlanDocument>(&mut out, transcript.source(), &plan, false)?;
    } else if args.output_path().is_none() {
        outcome.document.write_to(&mut out)?;
    }
    out.flush()?;
    super::leave_to_the_os((transcript, counts, outcome));
    Ok(ExitCode::SUCCESS)
}

/// One line on what was done.
fn describe(outcome: &Outcome) -> String {
    let mut parts = Vec::new();
    if let Some(c) = &outcome.compressed {
        parts.push(format!(
            "{} deterministic edits, cap {}",
            c.edits.len(),
            if c.cap_met { "met" } else { "not met" }
        ));
    }
    match (outcome.planned.cut(), outcome.plan()) {
        (Some(cut), _) => parts.push(format!(
            "summarized {}",
            ctxlens::text::count_of(cut.summarized() as u64, "message", "messages")
        )),
        (None, Some(plan)) => parts.push(format!(
            "no-op ({} ≤ max_tokens {})",
            thousands(plan.tokens_before),
            thousands(plan.max_tokens)
        )),
        (None, None) => {}
    }
    parts.push(format!(
        "{} → {} tokens",
        thousands(outcome.tokens_before),
        thousands(outcome.tokens_after)
    ));
    if outcome.document.is_input() {
        parts.push("unchanged".into());
    }
    parts.join(", ")
}
