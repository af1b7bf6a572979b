//! The command line: clap definitions, and the conversion of arguments into the core's
//! option types. Each subcommand lives in its own module and shows only its own options.

mod args;
mod backtest_cmd;
mod breakdown_cmd;
mod check_cmd;
mod compact_cmd;
mod config_file;
mod emit;
mod examples;
mod history_cmd;
mod json_out;
mod ledger_cmd;
mod man;
mod policy_cmd;
mod policy_sweep;
mod progress_line;
mod replay_cmd;
mod scan_cmd;
mod stats_cmd;
mod status_cmd;
mod summaries_compared;
mod sweep_cmd;
mod zsh_completion;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use args::{BudgetArgs, InputArgs, SummaryArgs};
use ctxlens::check::Provider;

/// ctxlens: see what your agent's compactor keeps, cuts and summarizes.
#[derive(Debug, Parser)]
#[command(name = "ctxlens", version, about, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    open: OpenArgs,
    /// Settings file (default: ./.ctxlens.toml when it exists); options given on the
    /// command line win over it.
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
}

/// `ctxlens [FILE]`: the TUI.
#[derive(Debug, clap::Args)]
struct OpenArgs {
    /// Transcript to open (`-` reads standard input; none opens the embedded demo).
    file: Option<PathBuf>,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    input: InputArgs,
    /// How the TUI makes summaries: placeholder, extractive, openai, or cmd:<command line>
    /// [default: extractive].
    #[arg(long, value_parser = args::parse_summarizer)]
    summarizer: Option<ctxlens::summarize::Spec>,
    #[command(flatten)]
    summary: SummaryArgs,
    /// The model's context window, for settings to paste that are a share of it (key c).
    #[arg(long, value_name = "N")]
    context_window: Option<u64>,
    /// The sweep chart's (key S) safe budget keeps at least this share of the facts, in
    /// percent.
    #[arg(long, value_name = "PCT", default_value_t = ctxlens::replay::sweep::DEFAULT_FACT_FLOOR, value_parser = args::parse_percent)]
    fact_floor: f64,
    /// With a folder: only the sessions being written now (changed in the last minutes).
    #[arg(long)]
    live: bool,
    /// Do not follow the file as it grows (by default a file being written is read again
    /// on every change, and its context meter updated).
    #[arg(long)]
    no_follow: bool,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Per-message token table.
    #[command(after_help = examples::STATS)]
    Stats(stats_cmd::StatsArgs),
    /// Compact a transcript (a no-op when under budget).
    #[command(after_help = examples::COMPACT)]
    Compact(Box<compact_cmd::CompactArgs>),
    /// Check tool-call pairing against a provider's rules (exit 1 when problems).
    #[command(after_help = examples::CHECK)]
    Check(check_cmd::CheckArgs),
    /// The compactions a session log records: epochs, real summaries, what each lost.
    #[command(after_help = examples::HISTORY)]
    History(history_cmd::HistoryArgs),
    /// Predict every automatic compaction a log records from what was known before it,
    /// against what happened: where it fired, the next request's size.
    #[command(after_help = examples::BACKTEST)]
    Backtest(backtest_cmd::BacktestArgs),
    /// The standing instructions a user gave across compactions and sessions, what each
    /// compaction did with them, and a hook that hands the lost ones back to the agent.
    #[command(after_help = examples::LEDGER)]
    Ledger(ledger_cmd::LedgerArgs),
    /// Run a compactor over the session's whole life: when it fires, what it costs and loses.
    #[command(after_help = examples::REPLAY)]
    Replay(Box<replay_cmd::ReplayArgs>),
    /// Replay many budgets: firings, loops, losses per setting, and which budget to pick.
    #[command(after_help = examples::SWEEP)]
    Sweep(Box<sweep_cmd::SweepArgs>),
    /// Summarize every session under folders, one row each, streamed (JSON Lines with --json).
    #[command(after_help = examples::SCAN)]
    Scan(scan_cmd::ScanArgs),
    /// Replay every agent's policy over the session side by side: firings, loops, peak,
    /// tokens sent, summaries read, user instructions lost.
    #[command(after_help = examples::COMPARE)]
    Compare(Box<policy_cmd::CompareArgs>),
    /// One line for a status bar: how full the context is and how far the next compaction.
    #[command(after_help = examples::STATUS)]
    Status(status_cmd::StatusArgs),
    /// Print the JSON Schema of a `--json` document (`stats`, `compact-plan`, …), or with
    /// no name the documents' names.
    #[command(after_help = examples::SCHEMA)]
    Schema {
        /// The document (its `schema` key without `ctxlens.` and the version).
        #[arg(value_parser = clap::builder::PossibleValuesParser::new(json_out::DOCUMENTS.iter().map(|(n, _)| *n)))]
        document: Option<String>,
    },
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    #[command(
        after_help = "Examples:\n  ctxlens completions bash > ~/.local/share/bash-completion/completions/ctxlens\n  ctxlens completions zsh > \"${fpath[1]}/_ctxlens\"\n  ctxlens completions fish > ~/.config/fish/completions/ctxlens.fish"
    )]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff), for `man`: the top one, or a subcommand's.
    #[command(
        after_help = "Examples:\n  ctxlens man > ~/.local/share/man/man1/ctxlens.1 && man ctxlens\n  ctxlens man stats > ctxlens-stats.1 && man -l ctxlens-stats.1\n  ctxlens man --dir ~/.local/share/man/man1    # every page, for packagers"
    )]
    Man {
        /// The subcommand whose page to print (`stats`, `compact`, …).
        subcommand: Option<String>,
        /// Write every page (ctxlens.1, ctxlens-stats.1, …) into this folder instead.
        #[arg(long, value_name = "DIR", conflicts_with = "subcommand")]
        dir: Option<PathBuf>,
    },
}

/// Runs the command line; the exit code is 0 (ok) or 1 (`check` found problems).
/// Errors (exit 2) are returned for `main` to print.
pub fn run(cli: &Cli) -> anyhow::Result<ExitCode> {
    // The commands that write what ctxlens is (its scripts, its manual, its schemas) read
    // no settings: a settings file given to them would be silently unused.
    let reads_no_settings = match &cli.command {
        Some(Command::Completions { .. }) => Some("completions"),
        Some(Command::Man { .. }) => Some("man"),
        Some(Command::Schema { .. }) => Some("schema"),
        _ => None,
    };
    if let (Some(command), Some(file)) = (reads_no_settings, &cli.config) {
        anyhow::bail!("--config {}: `ctxlens {command}` reads no settings", file.display());
    }
    config_file::load(cli.config.as_deref())?;
    match &cli.command {
        Some(Command::Stats(args)) => {
            remove_temporary_files_on_signals()?;
            stats_cmd::run(args)
        }
        Some(Command::Compact(args)) => {
            remove_temporary_files_on_signals()?;
            compact_cmd::run(args)
        }
        Some(Command::Check(args)) => check_cmd::run(args),
        Some(Command::History(args)) => {
            remove_temporary_files_on_signals()?;
            history_cmd::run(args)
        }
        Some(Command::Backtest(args)) => backtest_cmd::run(args),
        Some(Command::Ledger(args)) => ledger_cmd::run(args),
        Some(Command::Replay(args)) => {
            remove_temporary_files_on_signals()?;
            replay_cmd::run(args)
        }
        Some(Command::Sweep(args)) => {
            remove_temporary_files_on_signals()?;
            sweep_cmd::run(args)
        }
        Some(Command::Scan(args)) => scan_cmd::run(args),
        Some(Command::Compare(args)) => {
            remove_temporary_files_on_signals()?;
            policy_cmd::run_compare(args)
        }
        Some(Command::Status(args)) => status_cmd::run(args),
        Some(Command::Schema { document }) => json_out::print_schema(document.as_deref()),
        Some(Command::Completions { shell }) => {
            // Made in memory, then written: clap_complete panics on a write error (a
            // closed pipe), which `main` treats as success when it is returned.
            let mut command = <Cli as clap::CommandFactory>::command();
            let mut script = Vec::new();
            clap_complete::generate(*shell, &mut command, "ctxlens", &mut script);
            if *shell == clap_complete::Shell::Zsh {
                script = zsh_completion::first_word_is_file_or_command(&String::from_utf8_lossy(&script)).into_bytes();
            }
            std::io::Write::write_all(&mut std::io::stdout(), &script)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Man { subcommand, dir }) => {
            man::run(
                <Cli as clap::CommandFactory>::command(),
                subcommand.as_deref(),
                dir.as_deref(),
            )?;
            Ok(ExitCode::SUCCESS)
        }
        None => open(&cli.open),
    }
}

/// On SIGTERM, SIGINT or SIGHUP: kill every summarizer command's process group, remove
/// any temporary output file being written, then exit with 128 + the signal's number,
/// as a shell reports a signal.
/// Leaves `value`'s memory to the operating system, which takes a finished process's memory
/// back at once: dropping a large transcript (a hundred thousand messages, their boxed
/// extras, the counts and the output pieces) one allocation at a time costs a command
/// 10–15 ms for nothing. Only for values whose drop does nothing else.
pub(crate) fn leave_to_the_os<T>(value: T) {
    std::mem::forget(value);
}

fn remove_temporary_files_on_signals() -> anyhow::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGINT, SIGHUP])?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            ctxlens::summarize::kill_running_commands();
            ctxlens::export::remove_temporary_files();
            std::process::exit(128 + signal);
        }
    });
    Ok(())
}

/// Why the first argument is a mistyped subcommand, when it is one: a word that is
/// neither a subcommand nor an existing file (`ctxlens stat f.json`, `ctxlens
/// frobnicate`), with the nearest subcommand suggested — rather than a missing file or
/// an unexpected second argument. Checked before the arguments are parsed.
pub fn mistyped_subcommand(first: Option<&std::ffi::OsStr>) -> Option<String> {
    let word = first?.to_str()?;
    let looks_like_a_word = !word.is_empty() && word.chars().all(|c| c.is_ascii_lowercase() || c == '-');
    if !looks_like_a_word || word.starts_with('-') || std::path::Path::new(word).exists() {
        return None;
    }
    let command = <Cli as clap::CommandFactory>::command();
    let names: Vec<&str> = command
        .get_subcommands()
        .map(clap::Command::get_name)
        .filter(|name| *name != "help")
        .collect();
    if names.contains(&word) || word == "help" {
        return None;
    }
    let nearest = names
        .iter()
        .map(|name| (strsim::damerau_levenshtein(word, name), *name))
        .filter(|(distance, name)| *distance <= 2.max(name.len() / 3))
        .min();
    let suggestion = match nearest {
        Some((_, name)) => format!("; did you mean the subcommand `{name}`?"),
        None => String::new(),
    };
    Some(format!(
        "`{word}` is neither a file nor a subcommand{suggestion} (subcommands: {}; `ctxlens --help` says more)",
        names.join(", ")
    ))
}

/// `ctxlens [FILE|DIR]` with no subcommand: the TUI (a folder opens the session
/// browser), or the stats table (a folder: the scan table) when standard output is not a
/// terminal.
fn open(args: &OpenArgs) -> anyhow::Result<ExitCode> {
    let folder = args.file.as_ref().filter(|p| p.is_dir());
    let interactive = std::io::stdout().is_terminal() && cfg!(feature = "tui");
    if let (Some(dir), false) = (folder, interactive) {
        eprintln!(
            "ctxlens: standard output is not a terminal, so here is the scan table; run `ctxlens {}` in a terminal to browse the sessions.",
            dir.display()
        );
        return scan_cmd::print_table(dir);
    }
    let (transcript, input_path) = match &args.file {
        Some(path) if folder.is_none() => (
            args.input.load(path)?,
            Some(path.clone()).filter(|p| p.as_os_str() != "-"),
        ),
        _ => (ctxlens::demo::load(), None),
    };
    let tokenizer = args.input.tokenizer();
    if !interactive {
        let how = match &args.file {
            Some(path) => format!("run `ctxlens {}` in a terminal", path.display()),
            None => "run `ctxlens FILE` in a terminal".to_owned(),
        };
        eprintln!(
            "ctxlens: standard output is not a terminal, so here is the stats table; {how} for the interactive view."
        );
        stats_cmd::print(&transcript, tokenizer, ctxlens::cost::PriceTable::builtin(), false)?;
        return Ok(ExitCode::SUCCESS);
    }
    #[cfg(feature = "tui")]
    {
        // No file: the demo, which says where the user's own sessions are.
        let hint = (args.file.is_none())
            .then(ctxlens::scan::default_session_dirs)
            .filter(|dirs| !dirs.is_empty())
            .map(|dirs| {
                let dirs: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
                format!(
                    "this is a demo; your sessions are in {}: run `ctxlens {}` to browse them",
                    dirs.join(" and "),
                    dirs[0]
                )
            });
        let config = ctxlens::tui::Config {
            input_path,
            max_tokens: args.budget.max_tokens(),
            keep_tail: args.budget.keep_tail(),
            flush_to_memory: args.budget.flush_to_memory(),
            tokenizer,
            summarizer: args
                .summarizer
                .clone()
                .or_else(|| config_file::current().summarizer.clone())
                .unwrap_or(ctxlens::summarize::Spec::Extractive),
            summary_settings: args.summary.settings(),
            context_window: args.context_window.or(config_file::current().context_window),
            fact_floor: args.fact_floor,
            follow: !args.no_follow,
            hint,
            ..ctxlens::tui::Config::default()
        };
        let exit = match folder {
            Some(dir) => ctxlens::tui::run_browser(vec![dir.clone()], &config, args.live)?,
            None => ctxlens::tui::run(transcript, config)?,
        };
        ctxlens::export::remove_temporary_files();
        Ok(match exit {
            ctxlens::tui::Exit::Quit => ExitCode::SUCCESS,
            ctxlens::tui::Exit::Signal(n) => ExitCode::from(u8::try_from(128 + n).unwrap_or(1)),
            ctxlens::tui::Exit::Crashed(message) => {
                eprintln!("error: a background job crashed: {message} (the terminal was restored; please report it)");
                ExitCode::from(70)
            }
        })
    }
    #[cfg(not(feature = "tui"))]
    {
        let _ = input_path;
        unreachable!("without the tui feature the stats table is printed above")
    }
}

/// The provider a `check` uses: the one asked for, else the transcript's own.
fn provider_for(asked: Option<Provider>, dialect: ctxlens::transcript::Dialect) -> Provider {
    asked.unwrap_or(Provider::for_dialect(dialect))
}
