//! Other agents' policies on the command line: `--policy NAME --set KEY=VALUE` (shared
//! by `compact` and `replay`), a policy's replay over a session, and `ctxlens compare`,
//! every policy replayed side by side. Each figure names its unit: the policy's own
//! counter decides when it fires; `counted` is ctxlens' count of what was sent; `billed`
//! is the provider's figure where the log's usage could be fitted (per epoch).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::args::{BudgetArgs, InputArgs, MakeArgs};
use ctxlens::policy::compare::{window_for, with_defaults, CompareDoc, Compared, Costs};
use ctxlens::policy::replay::{ReplayDoc, Replayed, SessionReplays};
use ctxlens::policy::sweep::Figures;
use ctxlens::policy::{self, Engine, Policy, PolicySettings};
use ctxlens::text::thousands;

/// `--policy NAME` and `--set KEY=VALUE`.
#[derive(Debug, Clone, clap::Args)]
pub struct PolicyArgs {
    /// Another agent's compactor (docs/policies.md describes each; the default is
    /// §7F's). `NAME@VERSION` follows that release of the agent (`claude-code@1.0.53`)
    /// instead of the one its log names.
    #[arg(long, value_name = "NAME", value_parser = PolicyName)]
    pub policy: Option<String>,
    /// A setting of the policy as the agent spells it (repeatable), e.g.
    /// `--set trigger=tokens:4000 --set keep=messages:20`.
    #[arg(long = "set", value_name = "KEY=VALUE", requires = "policy", value_parser = SettingKey { prefixed: false }, hide_possible_values = true)]
    pub set: Vec<String>,
}

impl PolicyArgs {
    /// The policy asked for, unless it is the §7F compactor the other options already
    /// describe (`--policy toolnexus` with no `--set`).
    pub fn chosen(&self) -> Option<&str> {
        self.policy.as_deref().map(|n| pinned(n).0).filter(|&n| {
            !self.set.is_empty() || ctxlens::policy::by_name(n).map_or(true, |p| p.engine() != Engine::TailCompactor)
        })
    }

    /// The release `--policy NAME@VERSION` pins (`claude-code@1.0.53`), if any.
    pub fn pinned_version(&self) -> Option<&str> {
        self.policy.as_deref().and_then(|n| pinned(n).1)
    }

    /// The `--set` values, with `--max-tokens`/`--keep-tail` as the shorthand of the
    /// policies ctxlens itself runs ([`Engine::takes_budget_shorthand`]); a `--set` value wins.
    pub fn settings(&self, name: &str, budget: &BudgetArgs) -> anyhow::Result<PolicySettings> {
        let given = PolicySettings::parse(self.set.iter().map(String::as_str))?;
        let mut settings = PolicySettings::default();
        if ctxlens::policy::by_name(name).is_ok_and(|p| p.engine().takes_budget_shorthand()) {
            if let Some(max) = budget.max_tokens() {
                settings = settings.with("max_tokens", max);
            }
            if let Some(keep) = budget.keep_tail() {
                settings = settings.with("keep_tail", keep);
            }
        }
        if let Some(version) = self.pinned_version() {
            settings = settings.with("version", version);
        }
        for (key, value) in given.pairs() {
            settings = settings.with(&key, value);
        }
        Ok(settings)
    }
}

/// `NAME@VERSION` → (`NAME`, `VERSION`): a policy pinned to its agent's release, whose
/// rule it then follows instead of the one the log's own version names.
pub fn pinned(spec: &str) -> (&str, Option<&str>) {
    match spec.split_once('@') {
        Some((name, version)) => (name, Some(version)),
        None => (spec, None),
    }
}

/// The value parser of `--policy` and `compare --policies`: the registry's names in
/// `--help` and the completions; a known name, optionally pinned (`NAME@VERSION`), else
/// the core's message listing them.
#[derive(Clone)]
struct PolicyName;

impl clap::builder::TypedValueParser for PolicyName {
    type Value = String;

    fn parse_ref(
        &self,
        _: &clap::Command,
        _: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        let text = value.to_string_lossy();
        match ctxlens::policy::by_name(pinned(&text).0) {
            Ok(_) => Ok(text.into_owned()),
            Err(e) => Err(clap::Error::raw(clap::error::ErrorKind::InvalidValue, format!("{e}\n"))),
        }
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            ctxlens::policy::all()
                .into_iter()
                .map(|p| clap::builder::PossibleValue::new(p.name())),
        ))
    }
}

/// `--set`'s values: any text (the policy checks its keys and values, and says what it
/// takes), with every policy's keys (`KEY=`; with `prefixed`, `NAME.KEY=` too) offered to
/// the shell completions.
#[derive(Clone)]
struct SettingKey {
    /// Also offer `NAME.KEY=` (compare's form for one policy).
    prefixed: bool,
}

impl clap::builder::TypedValueParser for SettingKey {
    type Value = String;

    fn parse_ref(
        &self,
        _: &clap::Command,
        _: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        value.to_str().map(str::to_owned).ok_or_else(|| {
            clap::Error::raw(
                clap::error::ErrorKind::InvalidUtf8,
                format!("--set {}: not UTF-8\n", value.to_string_lossy()),
            )
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        let mut keys: Vec<String> = ctxlens::policy::all()
            .into_iter()
            .flat_map(|p| p.keys().iter().map(|k| format!("{k}=")))
            .collect();
        keys.sort();
        keys.dedup();
        if self.prefixed {
            keys.extend(
                ctxlens::policy::all()
                    .into_iter()
                    .flat_map(|p| p.keys().iter().map(move |k| format!("{}.{k}=", p.name()))),
            );
        }
        Some(Box::new(keys.into_iter().map(clap::builder::PossibleValue::new)))
    }
}

/// `replay FILE --policy NAME`: the policy over the session's whole life.
pub fn run_replay(
    file: &std::path::Path,
    input: &InputArgs,
    make: &MakeArgs,
    name: &str,
    (given, context_window): (&PolicySettings, Option<u64>),
    json: bool,
) -> anyhow::Result<ExitCode> {
    let chosen = policy::by_name(name)?;
    given.check_keys(name, chosen.keys())?;
    let prepared = super::replay_cmd::prepare(file, input, make)?;
    let window = window_for(context_window, prepared.session.whole());
    let settings = &with_defaults(chosen, window, given);
    let replayed = SessionReplays::of(prepared.session.whole(), prepared.session.counts()).replay(
        chosen,
        settings,
        prepared.summarizer.as_ref(),
        Some(window),
        ctxlens::cancel::never(),
    )?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if json {
        let doc = ReplayDoc::of(&replayed, settings, prepared.spec.to_string());
        super::json_out::write(&mut out, &super::json_out::file_name(file), &doc, true)?;
        writeln!(out)?;
    } else {
        print_replay(&mut out, file, &replayed, settings, &prepared.spec.to_string())?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn print_replay(
    out: &mut impl Write,
    file: &std::path::Path,
    r: &Replayed,
    settings: &PolicySettings,
    summarizer: &str,
) -> anyhow::Result<()> {
    let set: Vec<String> = settings.pairs().into_iter().map(|(k, v)| format!("{k}={v}")).collect();
    writeln!(
        out,
        "{}: policy {}{} · {} model calls · summarizer {summarizer}",
        file.display(),
        r.policy,
        if set.is_empty() {
            String::new()
        } else {
            format!(" ({})", set.join(", "))
        },
        thousands(r.model_calls as u64)
    )?;
    writeln!(out, "sizes: counted = ctxlens' count of what is sent; billed = the provider's figure fitted per epoch; the policy decides in {}", r.counter)?;
    writeln!(out)?;
    if r.firings.is_empty() {
        writeln!(out, "never fires")?;
    }
    for f in &r.firings {
        let billed = match (f.billed_before, f.billed_after) {
            (Some(b), Some(a)) => format!(" · billed {} → {}", thousands(b), thousands(a)),
            _ => String::new(),
        };
        writeln!(
            out,
            "  fires before #{:<6} counted {} → {}{billed} · {} messages removed{}",
            f.at,
            thousands(f.counted_before),
            thousands(f.counted_after),
            f.removed,
            if f.loops {
                " · still over its trigger (loops)"
            } else {
                ""
            }
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "peak {} counted{} · {} counted sent in all{} · summaries read {} · {} of {} user instructions lost{}",
        thousands(r.peak_counted),
        r.peak_billed
            .map_or(String::new(), |b| format!(" ({} billed)", thousands(b))),
        thousands(r.counted_total),
        r.billed_total
            .map_or(String::new(), |b| format!(" ({} billed)", thousands(b))),
        thousands(r.summary_input_tokens),
        r.instructions_lost.len(),
        r.instructions,
        r.first_lost
            .map_or(String::new(), |i| format!(" · first message lost #{i}"))
    )?;
    for (i, line) in r.instructions_lost.iter().take(20) {
        writeln!(out, "  #{i:<6} {}", ctxlens::text::fit(line, 100, false))?;
    }
    if r.instructions_lost.len() > 20 {
        writeln!(
            out,
            "  … {} more (--json lists them all)",
            r.instructions_lost.len() - 20
        )?;
    }
    if let Some(line) = refusals(r) {
        writeln!(out, "{line}")?;
    }
    for w in &r.warnings {
        writeln!(out, "warning: {w}")?;
    }
    Ok(())
}

/// The sentence for calls the provider refuses (over the model's window), when any.
fn refusals(r: &Replayed) -> Option<String> {
    let first = r.calls.iter().find(|c| c.over_window)?;
    Some(format!(
        "refused: {} of {} requests are over the model's window (the first before #{}): the provider refuses them, the agent would have failed there",
        thousands(r.refused as u64),
        thousands(r.model_calls as u64),
        first.at
    ))
}

/// The table cells of `figures`, peak and total in billed tokens when `billed` (counted
/// where a call could not be billed).
fn cells(this: &Figures, billed: bool) -> [String; 7] {
    let (peak, total) = if billed {
        (
            this.peak_billed.unwrap_or(this.peak_counted),
            this.billed_total.unwrap_or(this.counted_total),
        )
    } else {
        (this.peak_counted, this.counted_total)
    };
    [
        thousands(this.firings as u64),
        thousands(this.loops as u64),
        thousands(peak),
        thousands(total),
        thousands(this.summary_input_tokens),
        format!("{}/{}", this.instructions_lost, this.instructions),
        this.first_lost.map_or_else(|| "–".to_owned(), |i| format!("#{i}")),
    ]
}

/// A table line of replays: `first` in a column `width` wide, then the figures (the
/// headings when `figures` is `None`).
pub fn table_line(first: &str, width: usize, figures: Option<(&Figures, bool)>) -> String {
    let cells = figures.map_or_else(
        || {
            [
                "firings",
                "loops",
                "peak",
                "sent in all",
                "summ. read",
                "instr. lost",
                "1st lost",
            ]
            .map(str::to_owned)
        },
        |(f, billed)| cells(f, billed),
    );
    format!(
        "{first:<width$} {:>7} {:>6} {:>12} {:>14} {:>12} {:>12} {:>10}",
        cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6]
    )
}

/// `ctxlens compare FILE`.
#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// Transcript or session log (`-` for standard input).
    file: PathBuf,
    /// The policies to compare (default: every one).
    #[arg(long, value_name = "NAME,…", value_delimiter = ',', value_parser = PolicyName)]
    policies: Vec<String>,
    /// A setting: `NAME.KEY=VALUE` for one policy, `KEY=VALUE` for every policy that has
    /// that key (repeatable).
    #[arg(long = "set", value_name = "[NAME.]KEY=VALUE", value_parser = SettingKey { prefixed: true }, hide_possible_values = true)]
    set: Vec<String>,
    /// The model's context window the defaults are taken from (default 200,000).
    #[arg(long, value_name = "N")]
    context_window: Option<u64>,
    #[command(flatten)]
    make: MakeArgs,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    input: InputArgs,
}

/// Compares and prints.
pub fn run_compare(args: &CompareArgs) -> anyhow::Result<ExitCode> {
    let names: Vec<&'static dyn Policy> = if args.policies.is_empty() {
        policy::all()
    } else {
        args.policies
            .iter()
            .map(|n| policy::by_name(n))
            .collect::<ctxlens::Result<_>>()?
    };
    let prepared = super::replay_cmd::prepare(&args.file, &args.input, &args.make)?;
    let window = window_for(args.context_window, prepared.session.whole());
    let line = super::progress_line::ProgressLine::on_terminal("replayed", "policies");
    let tell = |done: usize, of: usize| {
        if let Some(line) = &line {
            line.tell(done, of);
        }
    };
    let rows = ctxlens::policy::compare::compare(
        prepared.session.whole(),
        prepared.session.counts(),
        &names,
        window,
        &args.set,
        prepared.summarizer.as_ref(),
        ctxlens::cancel::never(),
        Some(&tell),
    )?;
    drop(line);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json {
        let doc = CompareDoc::of(prepared.session.whole(), window, prepared.spec.to_string(), rows);
        super::json_out::write(&mut out, &super::json_out::file_name(&args.file), &doc, true)?;
        writeln!(out)?;
    } else {
        print_compare(
            &mut out,
            args,
            window,
            &prepared.spec.to_string(),
            &rows,
            rows.iter().any(|r| r.replayed.calls.iter().any(|c| c.billed.is_some())),
        )?;
        if let Some(costs) = Costs::of(prepared.session.whole(), &rows) {
            print_costs(&mut out, &costs)?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Each policy's modelled cost beside what the log recorded.
fn print_costs(out: &mut impl Write, costs: &Costs) -> std::io::Result<()> {
    let dollars = |d: Option<f64>| d.map_or_else(|| "unknown".to_owned(), |d| format!("${d:.2}"));
    writeln!(out)?;
    writeln!(
        out,
        "with prompt caching (modelled: each call reads what it shares with the call before, a firing keeps only the system prompt and tools cached, an idle gap over 5 minutes none, and where the log's own cache missed it misses again; prices: {}):",
        costs.prices
    )?;
    writeln!(
        out,
        "  {:<30} {:>10}  (what the log recorded)",
        "recorded",
        dollars(costs.recorded)
    )?;
    if let Some(share) = costs
        .unexplained_rewrites_percent
        .filter(|&s| s > ctxlens::cost::UNEXPLAINED_MODELLED_UP_TO)
    {
        writeln!(
            out,
            "  the log rewrote {share:.0}% of its cache writes for reasons it does not show: the figures without its misses are not modelled"
        )?;
    }
    for p in &costs.policies {
        let misses = match p.misses_replayed {
            0 => String::new(),
            n => format!(
                " · the log's cache missed at {n} of its calls ({} if it had not)",
                dollars(p.total_without_misses)
            ),
        };
        writeln!(
            out,
            "  {:<30} {:>10}  cache write {} · cache read {} tokens{misses}",
            p.policy,
            dollars(p.total),
            thousands(p.cache_write_tokens),
            thousands(p.cache_read_tokens)
        )?;
    }
    Ok(())
}

fn print_compare(
    out: &mut impl Write,
    args: &CompareArgs,
    window: u64,
    summarizer: &str,
    rows: &[Compared],
    billed: bool,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "{}: {} policies over the session's life · window {} · summarizer {summarizer}",
        args.file.display(),
        rows.len(),
        thousands(window)
    )?;
    writeln!(
        out,
        "peak and sent: {} (counted = ctxlens' count of the messages sent{})",
        if billed {
            "billed tokens, fitted per epoch to the log's usage"
        } else {
            "counted tokens"
        },
        if billed {
            "; billed adds the fitted system prompt and tools"
        } else {
            "; the log records no usage to bill by"
        }
    )?;
    writeln!(out)?;
    writeln!(out, "{}", table_line("policy", 30, None))?;
    for row in rows {
        let figures = Figures::of(&row.replayed);
        writeln!(out, "{}", table_line(row.replayed.policy, 30, Some((&figures, billed))))?;
    }
    writeln!(out)?;
    for row in rows {
        let set: Vec<String> = row.settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if set.is_empty() && row.replayed.warnings.is_empty() && row.replayed.refused == 0 {
            continue;
        }
        let set = if set.is_empty() {
            "its defaults".to_owned()
        } else {
            set.join(", ")
        };
        writeln!(out, "  {}: {set}", row.replayed.policy)?;
        if let Some(line) = refusals(&row.replayed) {
            writeln!(out, "    {line}")?;
        }
        for w in &row.replayed.warnings {
            writeln!(out, "    warning: {w}")?;
        }
    }
    Ok(())
}
