//! `ctxlens replay FILE --max-tokens N`: the compactor run over the session's whole life
//! (every epoch joined, real compactions undone): when it fires, what each firing costs
//! and what the whole life lost, beside what the log says really happened.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

use super::args::{BudgetArgs, EmitArgs, InputArgs, MakeArgs};
use ctxlens::compact::{DeterministicOptions, Settings};
use ctxlens::replay::document::{real_compactions, ReplayDoc, Replayed};
use ctxlens::replay::lost::{lifetime_loss, LifetimeLoss};
use ctxlens::replay::{replay, Inputs, Replay};
use ctxlens::session::Session;
use ctxlens::summarize::Spec;
use ctxlens::text::thousands;
use ctxlens::tokens::Counts;

/// `ctxlens replay FILE`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// Transcript or session log (`-` for standard input).
    file: PathBuf,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    make: MakeArgs,
    /// Print JSON: `{model_calls, firings: [{at, tokens_before, tokens_after, summarized,
    /// fallback, tail_empty}], final_tokens, final_messages, loops, …}`.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    emit: EmitArgs,
    #[command(flatten)]
    policy: super::policy_cmd::PolicyArgs,
}

/// What replay and sweep share: the whole session, its counts and model view, the
/// summarizer, and the settings in force.
pub struct Prepared {
    /// The session, every epoch joined, its counts and the model view the strategy
    /// replays on.
    pub session: Session,
    /// The summarizer's name.
    pub spec: Spec,
    /// The summarizer.
    pub summarizer: Box<dyn ctxlens::summarize::Summarizer>,
}

/// Loads `file` whole and builds what a replay needs (extractive summaries by default).
pub fn prepare(file: &std::path::Path, input: &InputArgs, make: &MakeArgs) -> anyhow::Result<Prepared> {
    let whole = input.load(file)?.whole_session()?;
    let counts = Counts::compute(&whole, input.tokenizer());
    let deterministic_pass = make.strategy().uses_deterministic_pass();
    let session = Session::of(whole, counts, deterministic_pass, ctxlens::cancel::never())?;
    let spec = make.summarizer(Spec::Extractive);
    let summarizer = ctxlens::summarizers::build(&spec, &make.summary.settings())?;
    Ok(Prepared {
        session,
        spec,
        summarizer,
    })
}

/// Replays and prints.
pub fn run(args: &ReplayArgs) -> anyhow::Result<ExitCode> {
    if let Some(name) = args.policy.chosen() {
        let settings = args.policy.settings(name, &args.budget)?;
        if let Some(kind) = args.emit.emit_config {
            // The policy's own settings, as `compact --policy` writes them; never a replay
            // printed with the option left unused.
            let transcript = args.input.load(&args.file)?;
            return super::compact_cmd::emit_policy_config(name, kind, &settings, &transcript);
        }
        return super::policy_cmd::run_replay(
            &args.file,
            &args.input,
            &args.make,
            name,
            (&settings, args.emit.context_window()),
            args.json,
        );
    }
    let Some(max_tokens) = args.budget.max_tokens() else {
        bail!("replay needs --max-tokens N (the compactor fires when the context is over N tokens)");
    };
    let prepared = prepare(&args.file, &args.input, &args.make)?;
    let settings = Settings {
        strategy: args.make.strategy(),
        options: args.budget.options(max_tokens),
        deterministic: DeterministicOptions::default(),
        summary_role: args.make.summary_role(),
    };
    if let Some(kind) = args.emit.emit_config {
        let emit = super::emit::settings(
            prepared.session.whole(),
            prepared.session.counts(),
            &settings,
            &prepared.spec,
            &args.emit,
        );
        return super::emit::print(kind, &emit);
    }
    let line = super::progress_line::ProgressLine::on_terminal("replayed", "messages");
    let tell = |done: usize, of: usize| {
        if let Some(line) = &line {
            line.tell(done, of);
        }
    };
    let outcome = replay(&Inputs {
        view: prepared.session.view(),
        options: settings.options,
        summary_role: settings.summary_role,
        cuts_a_tail: settings.strategy.cuts_a_tail(),
        summarizer: prepared.summarizer.as_ref(),
        cancel: ctxlens::cancel::never(),
        progress: Some(&tell),
    })?;
    drop(line);
    let loss = lifetime_loss(prepared.session.facts(ctxlens::cancel::never())?, &outcome);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json {
        let doc = ReplayDoc::of(&Replayed {
            whole: prepared.session.whole(),
            counts: prepared.session.counts(),
            view: prepared.session.view(),
            summarizer: prepared.spec.to_string(),
            settings: &settings,
            outcome: &outcome,
            loss: &loss,
        });
        super::json_out::write(&mut out, prepared.session.whole().source(), &doc, true)?;
        writeln!(out)?;
    } else {
        print(&mut out, &prepared, &settings, &outcome, &loss)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// How many lost facts (and lost instructions) the plain output lists.
const SHOWN_LOST: usize = 20;

fn print(
    out: &mut impl Write,
    prepared: &Prepared,
    settings: &Settings,
    outcome: &Replay,
    loss: &LifetimeLoss,
) -> anyhow::Result<()> {
    let o = &settings.options;
    writeln!(
        out,
        "{}: replay over {} messages, {} model calls · max_tokens {} · keep_tail {} · strategy {} · tokenizer {} · summarizer {}",
        prepared.session.whole().source(),
        thousands(prepared.session.view().len() as u64),
        thousands(outcome.model_calls as u64),
        thousands(o.max_tokens),
        thousands(o.effective_keep_tail()),
        settings.strategy.name(),
        prepared.session.counts().tokenizer.name(),
        prepared.spec
    )?;
    print_firings(out, outcome)?;
    writeln!(out)?;
    writeln!(
        out,
        "{} firing{}, {} loop{}, {} call{} sent over max_tokens; summaries read {} tokens; final context {} tokens in {} messages",
        outcome.firings.len(),
        plural(outcome.firings.len()),
        outcome.loops,
        plural(outcome.loops),
        outcome.calls_over_budget,
        plural(outcome.calls_over_budget),
        thousands(outcome.summary_input_tokens),
        thousands(outcome.final_tokens),
        thousands(outcome.final_messages as u64)
    )?;
    print_what_really_happened(out, prepared, outcome)?;
    print_loss(out, loss)
}

/// The table of firings.
fn print_firings(out: &mut impl Write, outcome: &Replay) -> anyhow::Result<()> {
    if !outcome.firings.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "{:>4}  {:>8}  {:>10}    {:>10}  {:>10}  note",
            "#", "at", "before", "after", "summarized"
        )?;
        for (k, f) in outcome.firings.iter().enumerate() {
            let mut notes = Vec::new();
            if f.loops {
                notes.push("⟲ loop: still over max_tokens, fires again next call");
            }
            if f.fallback {
                notes.push("fallback: tail over keep_tail");
            }
            if f.tail_empty {
                notes.push("no human turn: everything summarized");
            }
            writeln!(
                out,
                "{:>4}  {:>8}  {:>10} →  {:>10}  {:>10}  {}",
                k + 1,
                format!("#{}", f.at),
                thousands(f.tokens_before),
                thousands(f.tokens_after),
                f.summarized,
                notes.join("; ")
            )?;
        }
    }
    Ok(())
}

/// The real compactions and recorded usage of the log, beside the simulation.
fn print_what_really_happened(out: &mut impl Write, prepared: &Prepared, outcome: &Replay) -> anyhow::Result<()> {
    let real = real_compactions(prepared.session.whole(), prepared.session.view());
    let simulated = match outcome.first_firing() {
        Some(f) => format!(
            "these settings fire {} time{}, first at #{}",
            outcome.firings.len(),
            plural(outcome.firings.len()),
            f.at
        ),
        None => "these settings never fire".to_owned(),
    };
    if !real.is_empty() {
        let list: Vec<String> = real
            .iter()
            .map(|r| {
                format!(
                    "at #{}{}{}",
                    r.at,
                    r.trigger.map(|t| format!(" ({t})")).unwrap_or_default(),
                    r.pre_tokens
                        .map(|p| format!(", {} tokens recorded before", thousands(p)))
                        .unwrap_or_default()
                )
            })
            .collect();
        writeln!(
            out,
            "The session really compacted {}: {}; {simulated}.",
            times(real.len()),
            list.join("; ")
        )?;
    }
    if let Some((at, recorded)) = outcome
        .calls
        .iter()
        .filter_map(|c| c.recorded.map(|r| (c.at, r)))
        .max_by_key(|&(_, r)| r)
    {
        let simulated_peak = outcome.calls.iter().map(|c| c.after).max().unwrap_or(0);
        writeln!(
            out,
            "Recorded usage: the largest prompt the provider counted was {} tokens (at #{at}); under these settings the largest context sent is {} ({}).",
            thousands(recorded),
            thousands(simulated_peak),
            prepared.session.counts().tokenizer.name()
        )?;
    }
    Ok(())
}

/// What the whole life lost.
fn print_loss(out: &mut impl Write, loss: &LifetimeLoss) -> anyhow::Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        "Lost over the session (in no summary and not in the final context): {} of {} facts ({:.1}% survive), {} of {} user instructions",
        loss.lost.len(),
        loss.facts,
        loss.survival_percent(),
        loss.instructions_lost.len(),
        loss.instructions
    )?;
    for (index, text) in loss.instructions_lost.iter().take(SHOWN_LOST) {
        writeln!(out, "  instruction #{index:<6} {}", ctxlens::text::one_line(text, 120))?;
    }
    if loss.instructions_lost.len() > SHOWN_LOST {
        writeln!(
            out,
            "  … and {} more instructions (--json lists all)",
            thousands((loss.instructions_lost.len() - SHOWN_LOST) as u64)
        )?;
    }
    for fact in loss.lost.iter().take(SHOWN_LOST) {
        writeln!(
            out,
            "  #{:<6} {:<7} {}",
            fact.message,
            fact.kind.name(),
            ctxlens::text::one_line(&fact.text, 160)
        )?;
    }
    if loss.lost.len() > SHOWN_LOST {
        writeln!(out, "  … and {} more (--json lists all)", loss.lost.len() - SHOWN_LOST)?;
    }
    Ok(())
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn times(n: usize) -> String {
    match n {
        1 => "once".to_owned(),
        2 => "twice".to_owned(),
        n => format!("{n} times"),
    }
}
