//! `ctxlens sweep FILE --policy NAME --vary KEY=VALUES`: one replay of another agent's
//! policy per value of one of its settings, in parallel, as a table (or JSON, CSV), with
//! the answer a user wants to paste: the first value (in the order given) at which the
//! policy never loops and keeps every user instruction.
//!
//! `VALUES` is a list (`a,b,c`) or a numeric range `A..B[:STEP]` after an optional prefix
//! the key's values carry (`trigger=tokens:100000..180000:20000`).

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Context};
use rayon::prelude::*;
use serde::Serialize;

use super::args::{InputArgs, MakeArgs};
use super::policy_cmd::{table_line, Figures};
use ctxlens::calibrate::calibrate_epochs;
use ctxlens::policy::replay::{replay, Inputs, Replayed};
use ctxlens::policy::{self, PolicySettings};

/// The most values one policy sweep replays.
const MAX_VALUES: usize = 200;

/// `--vary KEY=VALUES`, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vary {
    /// The policy's key.
    pub key: String,
    /// Its values, as `--set` would take them.
    pub values: Vec<String>,
}

/// Reads `KEY=VALUES`.
pub fn parse_vary(s: &str) -> Result<Vary, String> {
    let (key, values) = s
        .split_once('=')
        .ok_or_else(|| format!("--vary {s}: expected KEY=VALUES (a list a,b,c or a range A..B[:STEP])"))?;
    let key = key.trim();
    if key.is_empty() {
        return Err(format!("--vary {s}: no key"));
    }
    let values = match values.split_once("..") {
        Some((left, right)) => range(left, right).map_err(|e| format!("--vary {s}: {e}"))?,
        None => values
            .split(',')
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
            .collect(),
    };
    if values.is_empty() {
        return Err(format!("--vary {s}: no value"));
    }
    if values.len() > MAX_VALUES {
        return Err(format!(
            "--vary {s}: {} values; a policy sweep runs at most {MAX_VALUES} (use a larger step)",
            values.len()
        ));
    }
    Ok(Vary {
        key: key.to_owned(),
        values,
    })
}

/// `PREFIX A .. B[:STEP]`: the prefix is whatever precedes A's digits.
fn range(left: &str, right: &str) -> Result<Vec<String>, String> {
    // A's digits may be grouped with underscores (`1_000`); the prefix ends before them.
    let run = left.len() - left.trim_end_matches(|c: char| c.is_ascii_digit() || c == '_').len();
    let (prefix, a) = left.split_at(left.len() - run);
    let (prefix, a) = match a.find(|c: char| c.is_ascii_digit()) {
        Some(first) => (&left[..prefix.len() + first], &a[first..]),
        None => (prefix, a),
    };
    let number = |t: &str| {
        t.trim()
            .replace('_', "")
            .parse::<u64>()
            .map_err(|_| format!("`{t}` is not a whole number"))
    };
    let a = number(a)?;
    let (b, step) = match right.split_once(':') {
        Some((b, step)) => (number(b)?, Some(number(step)?)),
        None => (number(right)?, None),
    };
    if b < a {
        return Err(format!("the range is empty ({b} < {a})"));
    }
    let step = step.unwrap_or(((b - a) / 10).max(1));
    if step == 0 {
        return Err("the step must be positive".to_owned());
    }
    if (b - a) / step >= MAX_VALUES as u64 {
        return Err(format!("more than {MAX_VALUES} values: use a larger step"));
    }
    Ok((0..=(b - a) / step)
        .map(|k| format!("{prefix}{}", a + k * step))
        .collect())
}

/// One row: the value and the replay's figures.
#[derive(Serialize)]
struct Row {
    value: String,
    #[serde(flatten)]
    figures: Figures,
    warnings: Vec<String>,
}

impl Row {
    fn of(value: String, r: Replayed) -> Row {
        Row {
            value,
            figures: Figures::of(&r),
            warnings: r.warnings,
        }
    }

    fn safe(&self) -> bool {
        self.figures.loops == 0 && self.figures.instructions_lost == 0
    }
}

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
}

/// Replays the policy once per value and prints the table.
pub fn run(args: &PolicySweep<'_>) -> anyhow::Result<ExitCode> {
    let chosen = policy::by_name(args.name).map_err(anyhow::Error::msg)?;
    if !chosen.keys().contains(&args.vary.key.as_str()) {
        bail!(
            "--vary {}: {} has no such key (it takes {})",
            args.vary.key,
            args.name,
            chosen.keys().join(", ")
        );
    }
    args.settings.check_keys(args.name, chosen.keys())?;
    let prepared = super::replay_cmd::prepare(args.file, args.input, args.make)?;
    let fits = calibrate_epochs(&prepared.whole, &prepared.counts);
    let chat = policy::chat_view_counted(&prepared.whole, &prepared.counts);
    let turns = ctxlens::loss::session::SessionTurns::of_session(&prepared.whole);
    let rows: Vec<Row> = args
        .vary
        .values
        .par_iter()
        .map(|value| {
            let settings = args.settings.clone().with(&args.vary.key, value);
            let replayed = replay(&Inputs {
                whole: &prepared.whole,
                counts: &prepared.counts,
                policy: chosen,
                settings: &settings,
                summarizer: prepared.summarizer.as_ref(),
                fits: &fits,
                chat: &chat,
                turns: &turns,
                cancel: ctxlens::cancel::never(),
            })
            .with_context(|| format!("{}={value}", args.vary.key))?;
            Ok(Row::of(value.clone(), replayed))
        })
        .collect::<anyhow::Result<_>>()?;
    let first_safe = rows.iter().find(|r| r.safe()).map(|r| r.value.as_str());
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json {
        let doc = SweepDoc {
            policy: chosen.name(),
            key: &args.vary.key,
            settings: args.settings.pairs(),
            summarizer: prepared.spec.to_string(),
            rows: &rows,
            first_safe,
        };
        super::json_out::write(&mut out, "sweep-policy", &args.file.display().to_string(), &doc, true)?;
        writeln!(out)?;
    } else if args.csv {
        print_csv(&mut out, &args.vary.key, &rows)?;
    } else {
        print_table(&mut out, args, &rows, first_safe, &prepared.spec.to_string())?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_keeps_its_prefix_and_a_list_is_taken_as_written() {
        let v = parse_vary("trigger=tokens:100..300:100").unwrap();
        assert_eq!(v.key, "trigger");
        assert_eq!(v.values, ["tokens:100", "tokens:200", "tokens:300"]);
        let v = parse_vary("threshold=1_000..1_200:100").unwrap();
        assert_eq!(v.values, ["1000", "1100", "1200"]);
        let v = parse_vary("keep=messages:10,messages:20").unwrap();
        assert_eq!(v.values, ["messages:10", "messages:20"]);
    }

    #[test]
    fn bad_ranges_are_refused_with_the_reason() {
        assert!(parse_vary("threshold").unwrap_err().contains("KEY=VALUES"));
        assert!(parse_vary("threshold=5..1").unwrap_err().contains("empty"));
        assert!(parse_vary("threshold=1..100000:1").unwrap_err().contains("larger step"));
        assert!(parse_vary("threshold=a..b").unwrap_err().contains("whole number"));
        assert!(parse_vary("=1,2").unwrap_err().contains("no key"));
    }
}
