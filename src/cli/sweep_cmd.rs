//! `ctxlens sweep FILE --max-tokens A..B[:STEP]`: one replay per setting, in parallel, as
//! a table (or JSON, CSV), with the answers: the knee, the smallest safe budget (never
//! loops, keeps every user instruction and `--fact-floor` of the facts), and with
//! `--keep N` the smallest that keeps message #N verbatim. The answers are searched on a
//! fixed grid over A..B, so they do not move with STEP.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

use super::args::{EmitArgs, InputArgs, MakeArgs};
use super::replay_cmd::{prepare, Prepared};
use ctxlens::compact::{DeterministicOptions, Options, Settings};
use ctxlens::policy::sweep::Vary;
use ctxlens::policy::Engine;
use ctxlens::replay::sweep::{sweep, Answer, Inputs, Range, Sweep, TailRule, ANSWER_STEPS, DEFAULT_FACT_FLOOR};
use ctxlens::replay::sweep_doc::{Asked, Budgets, SweepDoc};
use ctxlens::text::thousands;

/// `ctxlens sweep FILE`.
#[derive(Debug, clap::Args)]
#[allow(clippy::struct_excessive_bools)] // flags of a command line
pub struct SweepArgs {
    /// Transcript or session log (`-` for standard input).
    file: PathBuf,
    /// The budgets: `A..B` (11 steps) or `A..B:STEP`, or a list `N,N,…`.
    #[arg(long, value_name = "A..B[:STEP]", value_parser = parse_budgets, required_unless_present_any = ["vary", "policy"])]
    max_tokens: Option<Budgets>,
    #[command(flatten)]
    policy: super::policy_cmd::PolicyArgs,
    /// With --policy: the setting to vary, `KEY=A..B[:STEP]` (after the prefix its values
    /// carry, e.g. `trigger=tokens:100000..180000:20000`) or `KEY=a,b,c`.
    #[arg(long, value_name = "KEY=VALUES", value_parser = parse_vary, requires = "policy")]
    vary: Option<Vary>,
    /// Tail budgets to try with each (default: max-tokens / 2).
    #[arg(long, value_name = "K,…", value_delimiter = ',', conflicts_with = "keep_ratio")]
    keep_tail: Vec<u64>,
    /// Tail budgets as shares of each max-tokens (0 < R ≤ 1).
    #[arg(long, value_name = "R,…", value_delimiter = ',', value_parser = parse_ratio)]
    keep_ratio: Vec<f64>,
    /// Add the memory-tool reminder before the kept tail.
    #[arg(long)]
    flush_to_memory: bool,
    /// Also answer: the smallest budget that keeps message #N verbatim to the end.
    #[arg(long, value_name = "N")]
    keep: Option<usize>,
    /// A safe budget keeps at least this share of the facts, in percent (besides never
    /// looping and keeping every user instruction).
    #[arg(long, value_name = "PCT", default_value_t = DEFAULT_FACT_FLOOR, value_parser = super::args::parse_percent)]
    fact_floor: f64,
    #[command(flatten)]
    make: MakeArgs,
    /// With --policy: what the answer minimises — `cost`: the safe value that costs least
    /// with prompt caching (priced from the log's recorded usage), rather than the first
    /// safe value in the order given.
    #[arg(long, value_enum, value_name = "WHAT", requires = "policy")]
    minimise: Option<Minimise>,
    /// Print JSON.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print CSV.
    #[arg(long)]
    csv: bool,
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    emit: EmitArgs,
}

/// `sweep --minimise WHAT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Minimise {
    /// Dollars over the session's life, with prompt caching.
    Cost,
}

fn parse_ratio(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(r) if r > 0.0 && r <= 1.0 => Ok(r),
        _ => Err(format!("`{s}` is not a share between 0 and 1")),
    }
}

impl SweepArgs {
    /// The `--max-tokens` values (none when only `--vary` was given).
    fn budgets(&self) -> &[u64] {
        self.max_tokens.as_ref().map_or(&[], |b| b.values.as_slice())
    }

    /// `--policy NAME` other than the §7F compactor's own sweep: the policy sweep's
    /// arguments, `--max-tokens` standing for `--vary max_tokens=…` for llm4s.
    fn policy_sweep(&self) -> anyhow::Result<Option<super::policy_sweep::PolicySweep<'_>>> {
        use super::policy_sweep::PolicySweep;
        let Some(name) = self.policy.policy.as_deref().map(|n| super::policy_cmd::pinned(n).0) else {
            return Ok(None);
        };
        let policy = ctxlens::policy::by_name(name)?;
        let vary = match (&self.vary, policy.engine()) {
            (Some(vary), _) => vary.clone(),
            (None, Engine::TailCompactor) if self.policy.set.is_empty() => return Ok(None),
            (None, engine) if engine.takes_budget_shorthand() => Vary {
                key: "max_tokens".to_owned(),
                values: self.budgets().iter().map(u64::to_string).collect(),
            },
            (None, _) => {
                let keys = policy.keys().join(", ");
                bail!("sweep --policy {name} needs --vary KEY=VALUES, KEY one of: {keys}");
            }
        };
        Ok(Some(PolicySweep {
            file: &self.file,
            input: &self.input,
            make: &self.make,
            name,
            settings: {
                let given = ctxlens::policy::PolicySettings::parse(self.policy.set.iter().map(String::as_str))?;
                match self.policy.pinned_version() {
                    Some(version) if given.text("version").is_none() => given.with("version", version),
                    _ => given,
                }
            },
            vary,
            json: self.json,
            csv: self.csv,
            context_window: self.emit.context_window(),
            minimise: self.minimise,
            emit: self.emit.emit_config,
        }))
    }

    /// `--minimise cost` where no policy sweep runs: the §7F sweep's replays are not priced.
    fn refuse_minimise(&self) -> anyhow::Result<()> {
        if self.minimise.is_some() {
            bail!("--minimise cost needs a policy sweep (--vary KEY=VALUES or --set): the §7F sweep's replays are not priced");
        }
        Ok(())
    }

    /// The range the answers are searched over, with the tail rules.
    fn range(&self) -> Range {
        let tails = if !self.keep_tail.is_empty() {
            self.keep_tail.iter().map(|&k| TailRule::Tokens(k)).collect()
        } else if !self.keep_ratio.is_empty() {
            self.keep_ratio
                .iter()
                .map(|&r| TailRule::PerMille((r * 1000.0).round() as u64))
                .collect()
        } else {
            vec![TailRule::Default]
        };
        let (from, to) = self.max_tokens.as_ref().map_or((0, 0), |b| (b.from, b.to));
        Range {
            from,
            to,
            tails,
            flush_to_memory: self.flush_to_memory,
        }
    }
}

/// Writes the setting to take back to the agent as its configuration of `kind`: the
/// smallest safe one, else the knee, else the one that loops least and loses fewest
/// instructions (said on stderr).
fn emit_answer(
    args: &SweepArgs,
    prepared: &Prepared,
    outcome: &Sweep,
    settings: &[Options],
    kind: ctxlens::agent_config::Kind,
) -> anyhow::Result<ExitCode> {
    let at = |a: &Answer| Options {
        max_tokens: a.max_tokens,
        keep_tail: Some(a.keep_tail),
        flush_to_memory: args.flush_to_memory,
    };
    let (options, why) = match (&outcome.smallest_safe, &outcome.knee) {
        (Some(a), _) => (at(a), "the smallest safe one"),
        (None, Some(a)) => (at(a), "the knee; no setting here is safe"),
        (None, None) => {
            let best = (0..outcome.rows.len())
                .min_by_key(|&i| {
                    let r = &outcome.rows[i];
                    (r.loops, r.instructions_lost, std::cmp::Reverse(r.max_tokens))
                })
                .expect("a sweep has at least one setting");
            (
                settings[best],
                "the fewest loops and lost instructions; no setting here is safe",
            )
        }
    };
    eprintln!(
        "ctxlens: emitting max_tokens {}, keep_tail {} ({why})",
        options.max_tokens,
        options.effective_keep_tail()
    );
    let chosen_settings = Settings {
        strategy: args.make.strategy(),
        options,
        deterministic: DeterministicOptions::default(),
        summary_role: args.make.summary_role(),
    };
    let emit = super::emit::settings(
        prepared.session.whole(),
        prepared.session.counts(),
        &chosen_settings,
        &prepared.spec,
        &args.emit,
    );
    super::emit::print(kind, &emit)
}

/// The sweep of `settings` over the prepared session; on a terminal, how far it is and
/// about how long it has left, on standard error.
fn swept(prepared: &Prepared, args: &SweepArgs, settings: &[Options], range: &Range) -> anyhow::Result<Sweep> {
    let facts = prepared.session.facts(ctxlens::cancel::never())?;
    let line = super::progress_line::ProgressLine::on_terminal("replayed", "settings");
    let show = |done: usize, of: usize| {
        if let Some(line) = &line {
            line.tell(done, of);
        }
    };
    let outcome = sweep(&Inputs {
        view: prepared.session.view(),
        facts,
        settings,
        range,
        fact_floor: args.fact_floor,
        summary_role: args.make.summary_role(),
        cuts_a_tail: args.make.strategy().cuts_a_tail(),
        summarizer: prepared.summarizer.as_ref(),
        keep: args.keep,
        cancel: ctxlens::cancel::never(),
        progress: line.is_some().then_some(&show as &(dyn Fn(usize, usize) + Sync)),
    })?;
    drop(line);
    Ok(outcome)
}

/// Sweeps and prints.
pub fn run(args: &SweepArgs) -> anyhow::Result<ExitCode> {
    if let Some(policy_sweep) = args.policy_sweep()? {
        return super::policy_sweep::run(&policy_sweep);
    }
    args.refuse_minimise()?;
    let Some(budgets) = args.max_tokens.as_ref() else {
        bail!("sweep needs --max-tokens A..B (or --policy NAME --vary KEY=VALUES)");
    };
    let prepared = prepare(&args.file, &args.input, &args.make)?;
    if let Some(keep) = args.keep.filter(|&k| k >= prepared.session.view().len()) {
        bail!(
            "--keep {keep}: the session has {} messages (#0–#{})",
            prepared.session.view().len(),
            prepared.session.view().len().saturating_sub(1)
        );
    }
    let Asked {
        settings,
        range,
        set_aside,
    } = Asked::of(budgets, args.range(), prepared.session.view().total())?;
    if let Some((left_out, first_over)) = set_aside {
        eprintln!(
            "ctxlens: {left_out} setting{} above {} tokens left out: the session never reaches them (the whole of it is {} tokens)",
            if left_out == 1 { "" } else { "s" },
            thousands(first_over),
            thousands(prepared.session.view().total())
        );
    }
    let outcome = swept(&prepared, args, &settings, &range)?;

    if let Some(kind) = args.emit.emit_config {
        return emit_answer(args, &prepared, &outcome, &settings, kind);
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json {
        super::json_out::write(
            &mut out,
            prepared.session.whole().source(),
            &SweepDoc::of(
                prepared.session.view(),
                prepared.session.counts(),
                prepared.spec.to_string(),
                &outcome,
            ),
            true,
        )?;
        writeln!(out)?;
    } else if args.csv {
        write_csv(&mut out, &outcome, args.keep)?;
    } else {
        print(
            &mut out,
            &prepared,
            &outcome,
            &range,
            args.keep,
            prepared.session.facts(ctxlens::cancel::never())?.instructions(),
        )?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `; the smallest safe budget is outside the range shown` when it is.
fn outside_note(outcome: &Sweep, range: &Range) -> &'static str {
    match &outcome.smallest_safe {
        Some(a) if a.max_tokens < range.from || a.max_tokens > range.to => {
            "; the smallest safe budget is outside the range shown"
        }
        _ => "",
    }
}

const CSV_HEADER: &str = "max_tokens,keep_tail,model_calls,firings,loops,calls_over_budget,first_firing,final_tokens,summary_input_tokens,fact_survival_percent,facts_lost,instructions_lost,keeps";

fn write_csv(out: &mut impl Write, outcome: &Sweep, keep: Option<usize>) -> anyhow::Result<()> {
    writeln!(out, "{CSV_HEADER}")?;
    for r in &outcome.rows {
        writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{}",
            r.max_tokens,
            r.keep_tail,
            r.model_calls,
            r.firings,
            r.loops,
            r.calls_over_budget,
            r.first_firing.map(|f| f.to_string()).unwrap_or_default(),
            r.final_tokens,
            r.summary_input_tokens,
            r.fact_survival_percent,
            r.facts_lost,
            r.instructions_lost,
            match (keep, r.keeps) {
                (Some(_), Some(k)) => k.to_string(),
                _ => String::new(),
            }
        )?;
    }
    Ok(())
}

fn print(
    out: &mut impl Write,
    prepared: &super::replay_cmd::Prepared,
    outcome: &Sweep,
    range: &Range,
    keep: Option<usize>,
    instructions: usize,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "{}: {} settings over {} messages ({} tokens, {}) · summarizer {}",
        prepared.session.whole().source(),
        outcome.rows.len(),
        thousands(prepared.session.view().len() as u64),
        thousands(prepared.session.view().total()),
        prepared.session.counts().tokenizer.name(),
        prepared.spec
    )?;
    writeln!(out)?;
    let keep_header = keep.map(|k| format!("  keeps #{k}")).unwrap_or_default();
    writeln!(
        out,
        "{:>11}  {:>10}  {:>7}  {:>5}  {:>8}  {:>11}  {:>12}  {:>6}  {:>10}  {:>12}{keep_header}",
        "max_tokens",
        "keep_tail",
        "firings",
        "loops",
        "first at",
        "final",
        "summary read",
        "facts",
        "facts lost",
        "instr. lost"
    )?;
    for (i, r) in outcome.rows.iter().enumerate() {
        let mut marks = Vec::new();
        // A row is marked only when it is the answer itself (answers between rows are
        // printed below the table with their own figures).
        let is = |a: &Option<Answer>| a.as_ref().is_some_and(|a| a.shown && a.nearest_row == i);
        if is(&outcome.knee) {
            marks.push("◀ knee");
        }
        if is(&outcome.smallest_safe) {
            marks.push("◀ smallest safe");
        }
        if is(&outcome.smallest_keeping) {
            marks.push("◀ smallest keeping");
        }
        let keeps = match (keep, r.keeps) {
            (Some(_), Some(true)) => format!("  {:>8}", "yes"),
            (Some(_), Some(false)) => format!("  {:>8}", "no"),
            _ => String::new(),
        };
        let line = format!(
            "{:>11}  {:>10}  {:>7}  {:>5}  {:>8}  {:>11}  {:>12}  {:>5.1}%  {:>10}  {:>12}{keeps}  {}",
            thousands(r.max_tokens),
            thousands(r.keep_tail),
            r.firings,
            r.loops,
            r.first_firing.map_or_else(|| "–".to_owned(), |f| format!("#{f}")),
            thousands(r.final_tokens),
            thousands(r.summary_input_tokens),
            r.fact_survival_percent,
            r.facts_lost,
            format!("{}/{instructions}", r.instructions_lost),
            marks.join(" ")
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    writeln!(out)?;
    print_answers(
        out,
        outcome,
        (range, prepared.session.view().total()),
        keep,
        instructions,
    )
}

/// The answers under the table, each with its own replay's figures.
fn print_answers(
    out: &mut impl Write,
    outcome: &Sweep,
    (range, total): (&Range, u64),
    keep: Option<usize>,
    instructions: usize,
) -> anyhow::Result<()> {
    let describe = |a: &Answer| {
        let r = &a.row;
        format!(
            "max_tokens {} with keep_tail {} ({}, {}, {:.1}% of facts kept, {}/{instructions} instructions lost)",
            thousands(a.max_tokens),
            thousands(a.keep_tail),
            ctxlens::text::count_of(r.firings as u64, "firing", "firings"),
            ctxlens::text::count_of(r.loops as u64, "loop", "loops"),
            r.fact_survival_percent,
            r.instructions_lost
        )
    };
    writeln!(
        out,
        "Answers searched on {} equal steps up to the session's peak of {} tokens, the smallest safe budget narrowed between them (the same whatever the range or step typed{}):",
        ANSWER_STEPS,
        thousands(total),
        outside_note(outcome, range)
    )?;
    match &outcome.knee {
        Some(a) => writeln!(out, "Knee: {}: beyond it, more budget saves few firings.", describe(a))?,
        None => writeln!(out, "Knee: none (firings do not bend over this range).")?,
    }
    let safe = format!(
        "never loops, keeps every user instruction and at least {}% of the facts (--fact-floor)",
        outcome.fact_floor
    );
    match &outcome.smallest_safe {
        Some(a) => writeln!(out, "Smallest safe budget ({safe}): {}.", describe(a))?,
        None => writeln!(
            out,
            "No budget in this range is safe ({safe}): try larger budgets, a lower floor, or a summarizer that keeps requests."
        )?,
    }
    if let Some(k) = keep {
        match &outcome.smallest_keeping {
            Some(a) => writeln!(
                out,
                "Smallest budget that keeps #{k} verbatim to the end: {}.",
                describe(a)
            )?,
            None => writeln!(out, "No setting here keeps #{k} verbatim to the end.")?,
        }
    }
    Ok(())
}

/// `--max-tokens A..B[:STEP]` for clap.
fn parse_budgets(s: &str) -> Result<Budgets, String> {
    s.parse().map_err(|e: ctxlens::Error| e.to_string())
}

/// `--vary KEY=VALUES` for clap.
fn parse_vary(s: &str) -> Result<Vary, String> {
    s.parse().map_err(|e: ctxlens::Error| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_and_percentages_are_checked() {
        assert!(super::super::args::parse_percent("50%").is_ok() && super::super::args::parse_percent("101").is_err());
        assert!(parse_ratio("0").is_err() && parse_ratio("1.5").is_err() && parse_ratio("0.25").is_ok());
    }
}
