//! The command line: clap definitions, and the conversion of arguments into the core's
//! option types. Each subcommand lives in its own module; `main` only dispatches.

mod check_cmd;
mod compact_cmd;
mod stats_cmd;
pub mod table;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::check::Provider;
use crate::compact::{Options, Strategy};
use crate::tokens::Tokenizer;
use crate::transcript::{FormatOverride, Transcript};

/// ctxlens: see what your agent's compactor keeps, cuts and summarizes.
#[derive(Debug, Parser)]
#[command(name = "ctxlens", version, about, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Transcript to open (`-` reads standard input; none opens the embedded demo).
    file: Option<PathBuf>,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    input: InputArgs,
    /// How the TUI makes summaries (placeholder, extractive, openai, cmd:<command line>).
    #[arg(long, default_value = "extractive", value_parser = parse_summarizer)]
    summarizer: crate::summarize::Spec,
    #[command(flatten)]
    summary: SummaryArgs,
}

/// Options of the summarizers.
#[derive(Debug, Args)]
struct SummaryArgs {
    /// Token bound of an extractive summary (and the `max_tokens` of an `openai` one).
    #[arg(long, value_name = "N", default_value_t = 400, global = true)]
    summary_tokens: u64,
    /// Seconds a `cmd:` or `openai` summarizer may take.
    #[arg(long, value_name = "SECONDS", default_value_t = 120.0, global = true)]
    summary_timeout: f64,
    /// Base URL of an OpenAI-compatible endpoint (key from `CTXLENS_API_KEY` or `OPENAI_API_KEY`).
    #[arg(long, value_name = "URL", default_value = "http://localhost:11434/v1", global = true)]
    summarizer_url: String,
    /// Model name sent to the endpoint.
    #[arg(long, value_name = "MODEL", default_value = "llama3.2", global = true)]
    summarizer_model: String,
}

impl SummaryArgs {
    fn settings(&self) -> crate::summarize::Settings {
        crate::summarize::Settings {
            summary_tokens: self.summary_tokens,
            timeout: std::time::Duration::from_secs_f64(self.summary_timeout.max(0.001)),
            url: self.summarizer_url.clone(),
            model: self.summarizer_model.clone(),
            ..crate::summarize::Settings::default()
        }
    }
}

fn parse_summarizer(s: &str) -> Result<crate::summarize::Spec, String> {
    s.parse()
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Per-message token table.
    Stats(StatsArgs),
    /// Compact a transcript with the §7F tail compactor (a no-op when under budget).
    Compact(CompactArgs),
    /// Check tool-call pairing against a provider's rules (exit 1 when problems).
    Check(CheckArgs),
}

/// How to read the input.
#[derive(Debug, Args)]
struct InputArgs {
    /// Tokenizer to count with.
    #[arg(long, value_enum, default_value_t = TokenizerArg::Estimate, global = true)]
    tokenizer: TokenizerArg,
    /// Force the input format instead of detecting it.
    #[arg(long, value_enum, global = true)]
    format: Option<FormatArg>,
}

/// The compactor's budget.
#[derive(Debug, Args)]
struct BudgetArgs {
    /// Compact when the transcript's tokens are strictly greater than this.
    #[arg(long)]
    max_tokens: Option<u64>,
    /// Token budget of the verbatim tail (default: max-tokens / 2; 0 is a real value).
    #[arg(long)]
    keep_tail: Option<u64>,
    /// Add the memory-tool reminder before the kept tail.
    #[arg(long)]
    flush_to_memory: bool,
}

#[derive(Debug, Args)]
struct StatsArgs {
    /// Transcript file (`-` for standard input).
    file: PathBuf,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct CompactArgs {
    /// Transcript file (`-` for standard input).
    file: PathBuf,
    #[command(flatten)]
    budget: BudgetArgs,
    /// Compaction strategy: tail (§7F), deterministic (llm4s rules), or deterministic,tail.
    #[arg(long, default_value = "tail", value_parser = parse_strategy)]
    strategy: Strategy,
    #[command(flatten)]
    deterministic: DeterministicArgs,
    /// How the summary text is made: placeholder, extractive, openai, or cmd:<command line>.
    #[arg(long, default_value = "placeholder", value_parser = parse_summarizer)]
    summarizer: crate::summarize::Spec,
    /// Print the loss report (what the summarized messages held that survives, and what
    /// is lost) instead of the transcript; with -o the transcript goes to the file.
    #[arg(long, conflicts_with = "plan")]
    report: bool,
    /// Write here (atomically) instead of standard output.
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    /// Print the plan as JSON instead of the compacted transcript.
    #[arg(long)]
    plan: bool,
    /// Allow -o to overwrite the input file.
    #[arg(long)]
    force: bool,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// Transcript file (`-` for standard input).
    file: PathBuf,
    /// Provider whose rules to check (default: the transcript's dialect).
    #[arg(long, value_enum)]
    provider: Option<ProviderArg>,
    /// Print JSON instead of lines.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum TokenizerArg {
    Estimate,
    EstimateCodepoints,
    EstimateUtf8,
    Cl100k,
    O200k,
}

impl From<TokenizerArg> for Tokenizer {
    fn from(arg: TokenizerArg) -> Tokenizer {
        match arg {
            TokenizerArg::Estimate => Tokenizer::Estimate,
            TokenizerArg::EstimateCodepoints => Tokenizer::EstimateCodepoints,
            TokenizerArg::EstimateUtf8 => Tokenizer::EstimateUtf8,
            TokenizerArg::Cl100k => Tokenizer::Cl100k,
            TokenizerArg::O200k => Tokenizer::O200k,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum FormatArg {
    Openai,
    Anthropic,
    OpenaiJsonl,
    AnthropicJsonl,
    Gemini,
    Responses,
    Openhands,
    ClaudeCode,
    Codex,
}

impl From<FormatArg> for FormatOverride {
    fn from(arg: FormatArg) -> FormatOverride {
        match arg {
            FormatArg::Openai => FormatOverride::OpenAi,
            FormatArg::Anthropic => FormatOverride::Anthropic,
            FormatArg::OpenaiJsonl => FormatOverride::OpenAiJsonl,
            FormatArg::AnthropicJsonl => FormatOverride::AnthropicJsonl,
            FormatArg::Gemini => FormatOverride::Gemini,
            FormatArg::Responses => FormatOverride::Responses,
            FormatArg::Openhands => FormatOverride::OpenHands,
            FormatArg::ClaudeCode => FormatOverride::ClaudeCode,
            FormatArg::Codex => FormatOverride::Codex,
        }
    }
}

/// Options of the deterministic strategy.
#[derive(Debug, Args)]
struct DeterministicArgs {
    /// Deterministic: also run the subjective edits (fillers, repeated sentences, verbose replies).
    #[arg(long)]
    subjective_edits: bool,
    /// Deterministic: store externalized tool output here (default: `<OUT>.artifacts` beside -o OUT).
    #[arg(long, value_name = "DIR")]
    artifacts: Option<PathBuf>,
    /// Deterministic: externalize tool output larger than this many bytes.
    #[arg(long, value_name = "BYTES", default_value_t = crate::compact::deterministic::DEFAULT_EXTERNALIZE_OVER)]
    externalize_over: usize,
}

fn parse_strategy(s: &str) -> Result<Strategy, String> {
    s.parse()
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ProviderArg {
    Openai,
    Anthropic,
    Gemini,
    Responses,
}

impl From<ProviderArg> for Provider {
    fn from(arg: ProviderArg) -> Provider {
        match arg {
            ProviderArg::Openai => Provider::OpenAi,
            ProviderArg::Anthropic => Provider::Anthropic,
            ProviderArg::Gemini => Provider::Gemini,
            ProviderArg::Responses => Provider::Responses,
        }
    }
}

impl BudgetArgs {
    fn options(&self, default_max: impl FnOnce() -> u64) -> Options {
        Options {
            max_tokens: self.max_tokens.unwrap_or_else(default_max),
            keep_tail: self.keep_tail,
            flush_to_memory: self.flush_to_memory,
        }
    }
}

impl InputArgs {
    fn load(&self, path: &Path) -> anyhow::Result<Transcript> {
        Ok(Transcript::read(path, self.format.map(Into::into))?)
    }
}

/// Runs the command line; the exit code is 0 (ok) or 1 (`check` found problems).
/// Errors (exit 2) are returned for `main` to print.
pub fn run(cli: &Cli) -> anyhow::Result<ExitCode> {
    let tokenizer = Tokenizer::from(cli.input.tokenizer);
    match &cli.command {
        Some(Command::Stats(args)) => {
            let transcript = cli.input.load(&args.file)?;
            stats_cmd::run(&transcript, tokenizer, args.json)
        }
        Some(Command::Compact(args)) => {
            let Some(_) = args.budget.max_tokens else {
                anyhow::bail!("compact needs --max-tokens N (compact only when the transcript is over N tokens)");
            };
            let transcript = cli.input.load(&args.file)?;
            let summarizer = crate::summarize::build(&args.summarizer, &cli.summary.settings());
            let options = args.budget.options(|| 0);
            let output = compact_cmd::Output {
                path: args.output.as_deref(),
                input: &args.file,
                force: args.force,
                plan: args.plan,
                report: args.report,
            };
            let det = &args.deterministic;
            let deterministic = compact_cmd::DeterministicRun {
                subjective_edits: det.subjective_edits,
                artifacts: det.artifacts.as_deref(),
                externalize_over: det.externalize_over,
            };
            compact_cmd::run(
                &transcript,
                tokenizer,
                args.strategy,
                &options,
                &deterministic,
                summarizer.as_ref(),
                &output,
            )
        }
        Some(Command::Check(args)) => {
            let transcript = cli.input.load(&args.file)?;
            let provider = args
                .provider
                .map_or(Provider::for_dialect(transcript.format.dialect), Into::into);
            check_cmd::run(&transcript, provider, args.json)
        }
        None => open(cli, tokenizer),
    }
}

/// `ctxlens [FILE]` with no subcommand: the TUI, or the stats table when standard output
/// is not a terminal.
fn open(cli: &Cli, tokenizer: Tokenizer) -> anyhow::Result<ExitCode> {
    let (transcript, input_path) = match &cli.file {
        Some(path) => (
            cli.input.load(path)?,
            Some(path.clone()).filter(|p| p.as_os_str() != "-"),
        ),
        None => (crate::demo::load(), None),
    };
    if !std::io::stdout().is_terminal() {
        eprintln!(
            "ctxlens: standard output is not a terminal, so here is the stats table; run `ctxlens {}` in a terminal for the interactive view.",
            cli.file.as_ref().map_or(String::new(), |p| p.display().to_string())
        );
        return stats_cmd::run(&transcript, tokenizer, false);
    }
    let budget = &cli.budget;
    let (mut app, first) = crate::tui::app::App::new(
        transcript,
        input_path,
        budget.max_tokens,
        budget.keep_tail,
        budget.flush_to_memory,
        tokenizer,
    );
    app.summarizer = cli.summarizer.clone();
    app.summary_settings = cli.summary.settings();
    crate::tui::run(app, first)?;
    Ok(ExitCode::SUCCESS)
}
