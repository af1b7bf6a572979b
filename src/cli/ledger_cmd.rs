//! `ctxlens ledger FILE|DIR`: the standing instructions the user gave across a session's
//! compactions (and a project's sessions), what each compaction did with them (see
//! [`ctxlens::ledger`]), and the ways to keep them alive: `--hook`, the command a
//! Claude Code `SessionStart` hook (matcher `compact`) runs to hand them back to the
//! agent; `--emit-hook claude-code`, that hook's settings; `--emit-config claude-md`,
//! the rules lost more than once, for CLAUDE.md.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use ctxlens::agent_config::Kind;
use ctxlens::ledger::{self, Ledger, Review};
use ctxlens::ledger_files::{ledger_at, LedgerDoc};

use super::args::{named, FormatArgs};

/// How long `--hook` may take: past it, it prints nothing (a hook must never hold the
/// agent up).
const HOOK_DEADLINE: std::time::Duration = std::time::Duration::from_secs(5);

#[derive(Debug, Args)]
pub struct LedgerArgs {
    /// A session log, or a folder searched for them (`*.jsonl`, recursively). With
    /// `--hook`, the log to read (default: the `transcript_path` of the hook's input on
    /// standard input).
    path: Option<PathBuf>,
    /// Print JSON: `{sessions, compactions, instructions: [{text, given, compactions,
    /// lost, pinned}]}`.
    #[arg(long)]
    json: bool,
    /// Print what the agent is handed after a compaction: the standing instructions the
    /// last compaction lost and the pinned ones, in the user's words. Always exits 0 and
    /// prints nothing when unsure (no session, no loss, past 5 seconds).
    #[arg(long, conflicts_with_all = ["json", "emit_hook", "emit_config"])]
    hook: bool,
    /// The most tokens `--hook` prints (about four characters a token).
    #[arg(long, value_name = "N", default_value_t = 1_000)]
    hook_tokens: u64,
    /// Print the hook configuration that runs `ctxlens ledger --hook` after each
    /// compaction, for the agent's settings file (claude-code: `.claude/settings.json`).
    #[arg(long, value_name = "AGENT", value_parser = named::<Kind>(), conflicts_with_all = ["json", "emit_config"])]
    emit_hook: Option<Kind>,
    /// Print the standing instructions lost more than once as lines for CLAUDE.md
    /// (`claude-md`), which the agent reads at every start and after every compaction.
    #[arg(long, value_name = "KIND", value_parser = ["claude-md"], conflicts_with = "json")]
    emit_config: Option<String>,
    /// The review file: `pin: TEXT` lines (always handed back) and `ignore: TEXT` lines
    /// (never listed) [default: `.ctxlens-ledger` beside the sessions, when there is one].
    #[arg(long, value_name = "FILE")]
    review: Option<PathBuf>,
    #[command(flatten)]
    format: FormatArgs,
}

pub fn run(args: &LedgerArgs) -> anyhow::Result<ExitCode> {
    if args.hook {
        return Ok(hook(args));
    }
    if let Some(kind) = args.emit_hook {
        let config = ctxlens::agent_config::post_compaction_hook(kind)?;
        println!("{}", serde_json::to_string_pretty(&config)?);
        return Ok(ExitCode::SUCCESS);
    }
    let Some(path) = &args.path else {
        anyhow::bail!("ledger needs a session log or a folder of them (or --hook, --emit-hook)");
    };
    let review = read_review(args.review.as_deref(), path)?;
    let found = ledger_of(path, &args.format, &review)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.emit_config.is_some() {
        let lines = ledger::claude_md(&found);
        if lines.is_empty() {
            eprintln!("ctxlens: no standing instruction was lost more than once, and none is pinned: nothing to add to CLAUDE.md");
        }
        write!(out, "{lines}")?;
    } else if args.json {
        super::json_out::write(
            &mut out,
            &super::json_out::file_name(path),
            &LedgerDoc::of(&found),
            true,
        )?;
        writeln!(out)?;
    } else {
        print(&mut out, &found)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The ledger of the session logs at `path`, oldest session first (a file in a folder that
/// is not a session log is passed over, said on stderr).
fn ledger_of(path: &Path, format: &FormatArgs, review: &Review) -> anyhow::Result<Ledger> {
    let mut skipped = |file: &Path, e: &ctxlens::Error| eprintln!("ctxlens: {}: skipped: {e}", file.display());
    Ok(ledger_at(path, format.format, review, &mut skipped)?)
}

/// The review at `given`, else `.ctxlens-ledger` beside the sessions when there is one.
fn read_review(given: Option<&Path>, sessions: &Path) -> anyhow::Result<Review> {
    Ok(ctxlens::ledger_files::read_review(given, sessions)?)
}

fn print(out: &mut impl Write, found: &Ledger) -> anyhow::Result<()> {
    let lost_once = found.entries.iter().filter(|e| e.lost > 0).count();
    writeln!(
        out,
        "{} session{} · {} compaction{} · {} standing instruction{} ({lost_once} lost at least once)",
        found.sessions,
        plural(found.sessions),
        found.compaction_count,
        plural(found.compaction_count),
        found.entries.len(),
        plural(found.entries.len()),
    )?;
    for entry in &found.entries {
        let seen = entry.compactions.len();
        let fate = if seen == 0 {
            "never compacted".to_owned()
        } else {
            format!("lost {}/{seen}", entry.lost)
        };
        let pin = if entry.pinned { " (pinned)" } else { "" };
        writeln!(
            out,
            "  {fate:<16} {}{pin}\n  {:<16} {}:{}",
            ctxlens::text::one_line(&entry.text, 100),
            "",
            entry.given[0].file,
            entry.given_at()
        )?;
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

/// `--hook`: what the agent is handed, or nothing; always exit 0.
fn hook(args: &LedgerArgs) -> ExitCode {
    let path = args.path.clone();
    let (review, tokens) = (args.review.clone(), args.hook_tokens);
    let (sender, receiver) = std::sync::mpsc::channel();
    // The work runs aside so that a slow read never holds the agent past the deadline.
    std::thread::spawn(move || {
        let handed = hand_back(path, review.as_deref(), tokens).unwrap_or_default();
        let _ = sender.send(handed);
    });
    if let Ok(text) = receiver.recv_timeout(HOOK_DEADLINE) {
        // A hook's output that opens with `{` is read as JSON by Claude Code: ours
        // never does (it opens with a sentence).
        print!("{text}");
    }
    ExitCode::SUCCESS
}

/// The text `--hook` prints for the log at `path`, else the hook input's
/// `transcript_path` on standard input.
fn hand_back(path: Option<PathBuf>, review: Option<&Path>, tokens: u64) -> Option<String> {
    let path = if let Some(path) = path {
        path
    } else {
        let mut input = String::new();
        std::io::stdin().read_to_string(&mut input).ok()?;
        let value: serde_json::Value = serde_json::from_str(&input).ok()?;
        PathBuf::from(value.get("transcript_path")?.as_str()?)
    };
    if !path.is_file() {
        return None;
    }
    let review = read_review(review, &path).ok()?;
    let format = FormatArgs::default();
    let found = ledger_of(&path, &format, &review).ok()?;
    Some(ledger::hand_back(&found, tokens))
}
