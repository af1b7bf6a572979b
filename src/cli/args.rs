//! Argument groups shared by several subcommands, and their conversion into the core's
//! option types.

use std::path::Path;
use std::time::Duration;

use clap::{Args, ValueEnum};

use ctxlens::check::Provider;
use ctxlens::compact::Options;
use ctxlens::summarize::{self, Spec};
use ctxlens::tokens::Tokenizer;
use ctxlens::transcript::{CountMode, FormatOverride, Transcript};

/// How to read the input and what to count with.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Tokenizer to count with (`provider`: what the transcript's provider charges, images
    /// by its rule).
    #[arg(long, value_enum, default_value_t = TokenizerArg::Estimate)]
    pub tokenizer: TokenizerArg,
    /// Count each message as its API request carries it (`request`), or as stored in the
    /// file, trajectory metadata and log envelopes included (`raw`).
    #[arg(long, value_enum, default_value_t = CountArg::Request)]
    pub count: CountArg,
    #[command(flatten)]
    pub format: FormatArgs,
}

/// `--count` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum CountArg {
    Request,
    Raw,
}

/// How to read the input.
#[derive(Debug, Args)]
pub struct FormatArgs {
    /// Force the input format instead of detecting it.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
}

impl FormatArgs {
    /// Loads `path` (`-`: standard input) in the detected or forced format.
    pub fn load(&self, path: &Path) -> anyhow::Result<Transcript> {
        Ok(Transcript::read(path, self.format.map(Into::into))?)
    }
}

impl InputArgs {
    /// Loads `path` (`-`: standard input) in the detected or forced format, counted as
    /// `--count` says.
    pub fn load(&self, path: &Path) -> anyhow::Result<Transcript> {
        let mode = match self.count {
            CountArg::Request => CountMode::Request,
            CountArg::Raw => CountMode::Raw,
        };
        Ok(self.format.load(path)?.with_count_mode(mode))
    }
}

/// The compactor's budget.
#[derive(Debug, Args)]
pub struct BudgetArgs {
    /// Compact when the transcript's tokens are strictly greater than this.
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<u64>,
    /// Token budget of the verbatim tail (default: max-tokens / 2; 0 is a real value).
    #[arg(long, value_name = "N")]
    pub keep_tail: Option<u64>,
    /// Add the memory-tool reminder before the kept tail.
    #[arg(long)]
    pub flush_to_memory: bool,
}

impl BudgetArgs {
    /// The §7F options, with `max_tokens` required.
    pub fn options(&self, max_tokens: u64) -> Options {
        Options {
            max_tokens,
            keep_tail: self.keep_tail,
            flush_to_memory: self.flush_to_memory,
        }
    }
}

/// Options of the summarizers.
#[derive(Debug, Args)]
pub struct SummaryArgs {
    /// Token bound of an extractive summary (and the `max_tokens` of an `openai` one);
    /// a summarizer writing more than 4× this is an error.
    #[arg(long, value_name = "N", default_value_t = 400)]
    pub summary_tokens: u64,
    /// Seconds a `cmd:` or `openai` summarizer may take (positive, at most a day).
    #[arg(long, value_name = "SECONDS", default_value = "120", value_parser = summarize::parse_timeout)]
    pub summary_timeout: Duration,
    /// Base URL of an OpenAI-compatible endpoint (key from `CTXLENS_API_KEY` or `OPENAI_API_KEY`).
    #[arg(long, value_name = "URL", default_value = "http://localhost:11434/v1")]
    pub summarizer_url: String,
    /// Model name sent to the endpoint.
    #[arg(long, value_name = "MODEL", default_value = "llama3.2")]
    pub summarizer_model: String,
}

impl SummaryArgs {
    /// The summarizers' settings.
    pub fn settings(&self) -> summarize::Settings {
        summarize::Settings {
            summary_tokens: self.summary_tokens,
            timeout: self.summary_timeout,
            url: self.summarizer_url.clone(),
            model: self.summarizer_model.clone(),
            ..summarize::Settings::default()
        }
    }
}

/// `--summarizer` values.
pub fn parse_summarizer(s: &str) -> Result<Spec, String> {
    s.parse()
}

/// `--strategy` values.
pub fn parse_strategy(s: &str) -> Result<ctxlens::compact::Strategy, String> {
    s.parse()
}

/// `--tokenizer` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum TokenizerArg {
    Estimate,
    EstimateCodepoints,
    EstimateUtf8,
    Cl100k,
    O200k,
    Provider,
}

impl From<TokenizerArg> for Tokenizer {
    fn from(arg: TokenizerArg) -> Tokenizer {
        match arg {
            TokenizerArg::Estimate => Tokenizer::Estimate,
            TokenizerArg::EstimateCodepoints => Tokenizer::EstimateCodepoints,
            TokenizerArg::EstimateUtf8 => Tokenizer::EstimateUtf8,
            TokenizerArg::Cl100k => Tokenizer::Cl100k,
            TokenizerArg::O200k => Tokenizer::O200k,
            TokenizerArg::Provider => Tokenizer::Provider,
        }
    }
}

/// `--format` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FormatArg {
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

/// `--provider` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ProviderArg {
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
