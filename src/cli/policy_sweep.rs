//! `ctxlens sweep FILE --policy NAME --vary KEY=VALUES`: the core's policy sweep
//! ([`ctxlens::policy::sweep`]) printed as a table, JSON or CSV, with the answers a user
//! wants to paste: the first value (in the order given) at which the policy never loops
//! and keeps every user instruction, and the safe value that costs least with prompt
//! caching (`--minimise cost` makes it the answer).

use std::io::Write;
use std::process::ExitCode;

use super::args::{InputArgs, MakeArgs};
use super::policy_cmd::table_line;
use ctxlens::policy::sweep::{sweep_policy, Row, SweepDoc, SweepInputs, Vary};
use ctxlens::policy::{self, PolicySettings};

/// What a policy sweep needs from the command line.
pub struct PolicySweep<'a> {
    /// The file.
    pub file: &'a std::path::Path,
    /// Loading.
    pub input: &'a InputArgs,
    /// The summarizer.
    pub make: &'a MakeArgs,
    /// The policy.
    pub name: &'a str,
    /// Its fixed settings.
    pub settings: PolicySettings,
    /// The key varied and its values.
    pub vary: Vary,
    /// Print JSON.
    pub json: bool,
    /// Print CSV.
    pub csv: bool,
    /// `--context-window`, when given.
    pub context_window: Option<u64>,
    /// `--minimise`, when given.
    pub minimise: Option<super::sweep_cmd::Minimise>,
    /// `--emit-config`, when given: the answer's settings as that configuration.
    pub emit: Option<ctxlens::agent_config::Kind>,
}

/// Replays the policy once per value and prints the table.
pub fn run(args: &PolicySweep<'_>) -> anyhow::Result<ExitCode> {
    let chosen = policy::by_name(args.name)?;
    let prepared = super::replay_cmd::prepare(args.file, args.input, args.make)?;
    let window = ctxlens::policy::compare::window_for(args.context_window, prepared.session.whole());
    let settings = ctxlens::policy::compare::with_defaults(chosen, window, &args.settings);
    let prices = ctxlens::cost::PriceTable::builtin();
    let swept = sweep_policy(&SweepInputs {
        whole: prepared.session.whole(),
        counts: prepared.session.counts(),
        policy: chosen,
        settings: &settings,
        vary: &args.vary,
        summarizer: prepared.summarizer.as_ref(),
        cancel: ctxlens::cancel::never(),
        window: Some(window),
        prices: Some(prices),
    })?;
    let rows = &swept.rows;
    let doc = SweepDoc::of(
        &swept,
        (chosen.name(), &args.vary.key),
        &args.settings,
        prepared.spec.to_string(),
        &prices.name,
        args.minimise.is_some(),
    );
    let (first_safe, answer) = (doc.first_safe, doc.answer);
    if let Some(kind) = args.emit {
        // The answer's settings, as `compact --policy … --emit-config` writes them.
        let Some(value) = answer else {
            anyhow::bail!(
                "--emit-config {}: no value of {} is safe (never loops, keeps every user instruction): nothing to emit",
                kind.name(),
                args.vary.key
            );
        };
        let which = if args.minimise.is_some() {
            "the cheapest safe one"
        } else {
            "the first safe one"
        };
        eprintln!("ctxlens: emitting {}={value} ({which})", args.vary.key);
        let settings = args.settings.clone().with(&args.vary.key, value);
        return super::compact_cmd::emit_policy_config(args.name, kind, &settings, prepared.session.whole());
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json {
        super::json_out::write(&mut out, &super::json_out::file_name(args.file), &doc, true)?;
        writeln!(out)?;
    } else if args.csv {
        print_csv(&mut out, &args.vary.key, rows)?;
    } else {
        let answers = Answers {
            first_safe,
            cheapest: swept.cheapest_safe.map(|i| &rows[i]),
            prices: &prices.name,
        };
        print_table(&mut out, args, rows, &answers, &prepared.spec.to_string())?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn print_csv(out: &mut impl Write, key: &str, rows: &[Row]) -> anyhow::Result<()> {
    writeln!(
        out,
        "{key},firings,loops,peak_counted,peak_billed,counted_total,billed_total,summary_input_tokens,instructions_lost,instructions,first_lost,cost_usd"
    )?;
    let opt = |v: Option<u64>| v.map_or(String::new(), |v| v.to_string());
    for row in rows {
        // A value with a comma or quote is quoted, as CSV readers expect.
        let value = if row.value.contains([',', '"']) {
            format!("\"{}\"", row.value.replace('"', "\"\""))
        } else {
            row.value.clone()
        };
        let r = &row.figures;
        writeln!(
            out,
            "{value},{},{},{},{},{},{},{},{},{},{},{}",
            r.firings,
            r.loops,
            r.peak_counted,
            opt(r.peak_billed),
            r.counted_total,
            opt(r.billed_total),
            r.summary_input_tokens,
            r.instructions_lost,
            r.instructions,
            opt(r.first_lost.map(|i| i as u64)),
            row.cost_usd.map_or(String::new(), |c| c.to_string())
        )?;
    }
    Ok(())
}

/// What the table's last lines answer.
struct Answers<'a> {
    first_safe: Option<&'a str>,
    cheapest: Option<&'a Row>,
    prices: &'a str,
}

fn print_table(
    out: &mut impl Write,
    args: &PolicySweep<'_>,
    rows: &[Row],
    answers: &Answers<'_>,
    summarizer: &str,
) -> anyhow::Result<()> {
    let billed = rows.iter().any(|r| r.figures.billed_total.is_some());
    let set: Vec<String> = args
        .settings
        .pairs()
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    writeln!(
        out,
        "{}: policy {} by {}{} · summarizer {summarizer}",
        args.file.display(),
        args.name,
        args.vary.key,
        if set.is_empty() {
            String::new()
        } else {
            format!(" ({})", set.join(", "))
        }
    )?;
    writeln!(
        out,
        "peak and sent: {}",
        if billed {
            "billed tokens, fitted per epoch to the log's usage"
        } else {
            "counted tokens (the log records no usage to bill by)"
        }
    )?;
    writeln!(out)?;
    let width = rows
        .iter()
        .map(|r| r.value.chars().count())
        .max()
        .unwrap_or(0)
        .max(args.vary.key.len());
    let priced = rows.iter().any(|r| r.cost_usd.is_some());
    let cost = |r: Option<&Row>| match r.and_then(|r| r.cost_usd) {
        Some(dollars) => format!(" {:>9}", format!("${dollars:.2}")),
        None if r.is_none() => format!(" {:>9}", "cost"),
        None => format!(" {:>9}", "unknown"),
    };
    let with_cost = |line: String, r: Option<&Row>| if priced { line + &cost(r) } else { line };
    writeln!(out, "{}", with_cost(table_line(&args.vary.key, width, None), None))?;
    for r in rows {
        writeln!(
            out,
            "{}",
            with_cost(table_line(&r.value, width, Some((&r.figures, billed))), Some(r))
        )?;
    }
    writeln!(out)?;
    let key = &args.vary.key;
    match answers.first_safe {
        Some(v) => writeln!(
            out,
            "first value that never loops and keeps every user instruction: {key}={v}"
        )?,
        None => writeln!(out, "no value here both never loops and keeps every user instruction")?,
    }
    if priced {
        match answers.cheapest {
            Some(r) => writeln!(
                out,
                "cheapest of those with prompt caching: {key}={} (${:.2}; prices: {})",
                r.value,
                r.cost_usd.unwrap_or_default(),
                answers.prices
            )?,
            None => writeln!(out, "no safe value here is priced (prices: {})", answers.prices)?,
        }
    } else if args.minimise.is_some() {
        writeln!(
            out,
            "no cost to minimise: the log records no usage to price its calls by"
        )?;
    }
    let mut warnings: Vec<&String> = rows.iter().flat_map(|r| &r.warnings).collect();
    warnings.sort();
    warnings.dedup();
    for w in warnings {
        writeln!(out, "warning: {w}")?;
    }
    Ok(())
}
