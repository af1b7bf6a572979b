//! `ctxlens sweep FILE --policy NAME --vary KEY=VALUES`: the core's policy sweep
//! ([`ctxlens::policy::sweep`]) printed as a table, JSON or CSV, with the answer a user
//! wants to paste: the first value (in the order given) at which the policy never loops
//! and keeps every user instruction.

use std::io::Write;
use std::process::ExitCode;

use serde::Serialize;

use super::args::{InputArgs, MakeArgs};
use super::policy_cmd::table_line;
use ctxlens::policy::sweep::{sweep_policy, Row, SweepInputs, Vary};
use ctxlens::policy::{self, PolicySettings};

#[derive(Serialize)]
struct SweepDoc<'a> {
    policy: &'a str,
    key: &'a str,
    settings: Vec<(String, String)>,
    summarizer: String,
    rows: &'a [Row],
    /// The first value at which the policy never loops and keeps every instruction.
    first_safe: Option<&'a str>,
}

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
}

/// Replays the policy once per value and prints the table.
pub fn run(args: &PolicySweep<'_>) -> anyhow::Result<ExitCode> {
    let chosen = policy::by_name(args.name)?;
    let prepared = super::replay_cmd::prepare(args.file, args.input, args.make)?;
    let window = super::policy_cmd::window_for(args.context_window, &prepared.whole);
    let settings = super::policy_cmd::with_defaults(chosen, window, &args.settings);
    let swept = sweep_policy(&SweepInputs {
        whole: &prepared.whole,
        counts: &prepared.counts,
        policy: chosen,
        settings: &settings,
        vary: &args.vary,
        summarizer: prepared.summarizer.as_ref(),
        cancel: ctxlens::cancel::never(),
        window: Some(window),
    })?;
    let rows = &swept.rows;
    let first_safe = swept.first_safe.map(|i| rows[i].value.as_str());
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json {
        let doc = SweepDoc {
            policy: chosen.name(),
            key: &args.vary.key,
            settings: args.settings.pairs(),
            summarizer: prepared.spec.to_string(),
            rows,
            first_safe,
        };
        super::json_out::write(
            &mut out,
            "sweep-policy",
            &super::json_out::file_name(args.file),
            &doc,
            true,
        )?;
        writeln!(out)?;
    } else if args.csv {
        print_csv(&mut out, &args.vary.key, rows)?;
    } else {
        print_table(&mut out, args, rows, first_safe, &prepared.spec.to_string())?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn print_csv(out: &mut impl Write, key: &str, rows: &[Row]) -> anyhow::Result<()> {
    writeln!(
        out,
        "{key},firings,loops,peak_counted,peak_billed,counted_total,billed_total,summary_input_tokens,instructions_lost,instructions,first_lost"
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
            "{value},{},{},{},{},{},{},{},{},{},{}",
            r.firings,
            r.loops,
            r.peak_counted,
            opt(r.peak_billed),
            r.counted_total,
            opt(r.billed_total),
            r.summary_input_tokens,
            r.instructions_lost,
            r.instructions,
            opt(r.first_lost.map(|i| i as u64))
        )?;
    }
    Ok(())
}

fn print_table(
    out: &mut impl Write,
    args: &PolicySweep<'_>,
    rows: &[Row],
    first_safe: Option<&str>,
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
    writeln!(out, "{}", table_line(&args.vary.key, width, None))?;
    for r in rows {
        writeln!(out, "{}", table_line(&r.value, width, Some((&r.figures, billed))))?;
    }
    writeln!(out)?;
    match first_safe {
        Some(v) => writeln!(
            out,
            "first value that never loops and keeps every user instruction: {}={v}",
            args.vary.key
        )?,
        None => writeln!(out, "no value here both never loops and keeps every user instruction")?,
    }
    let mut warnings: Vec<&String> = rows.iter().flat_map(|r| &r.warnings).collect();
    warnings.sort();
    warnings.dedup();
    for w in warnings {
        writeln!(out, "warning: {w}")?;
    }
    Ok(())
}
