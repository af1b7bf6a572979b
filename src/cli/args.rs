//! Argument groups shared by several subcommands, and their conversion into the core's
//! option types.

use std::path::Path;
use std::time::Duration;

use std::ffi::OsStr;
use std::marker::PhantomData;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::Args;
use ctxlens::names::{self, Named};

use super::config_file;
use ctxlens::compact::{Options, Strategy, SummaryRole};
use ctxlens::summarize::{self, Spec};
use ctxlens::tokens::Tokenizer;
use ctxlens::transcript::earlier::{EarlierSessions, Source};
use ctxlens::transcript::{CountMode, FormatOverride, Transcript};

/// How to read the input and what to count with.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Tokenizer to count with (`provider`: what the transcript's provider charges, images
    /// by its rule) [default: estimate, or the config file's].
    #[arg(long, value_parser = named::<Tokenizer>())]
    pub tokenizer: Option<Tokenizer>,
    /// Count each message as its API request carries it (`request`), or as stored in the
    /// file, trajectory metadata and log envelopes included (`raw`).
    #[arg(long, value_parser = named::<CountMode>(), default_value = "request")]
    pub count: CountMode,
    /// The model whose rules count images and documents under `--tokenizer provider`
    /// (e.g. `gpt-4o-mini`, `gemini-3-pro-preview`, `claude-opus-4-7`), instead of the one
    /// the transcript names.
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// Where the user's earlier sessions are, whose compactions show the agent's
    /// threshold when the log has none of its own yet: a folder, or `none` [default: the
    /// log's own folder, then ~/.claude/projects].
    #[arg(long, value_name = "DIR|none")]
    pub thresholds_from: Option<String>,
    #[command(flatten)]
    pub format: FormatArgs,
}

/// How to read the input.
#[derive(Debug, Default, Args)]
pub struct FormatArgs {
    /// Force the input format instead of detecting it.
    #[arg(long, value_parser = named::<FormatOverride>())]
    pub format: Option<FormatOverride>,
}

impl FormatArgs {
    /// Loads `path` (`-`: standard input) in the detected or forced format.
    pub fn load(&self, path: &Path) -> anyhow::Result<Transcript> {
        Ok(Transcript::read(path, self.format)?)
    }
}

impl InputArgs {
    /// `--tokenizer`, else the config file's, else `estimate`.
    pub fn tokenizer(&self) -> Tokenizer {
        self.tokenizer
            .or(config_file::current().tokenizer)
            .unwrap_or(Tokenizer::Estimate)
    }

    /// Loads `path` (`-`: standard input) in the detected or forced format, counted as
    /// `--count` says.
    pub fn load(&self, path: &Path) -> anyhow::Result<Transcript> {
        let transcript = self
            .format
            .load(path)?
            .with_count_mode(self.count)
            .with_earlier_sessions(earlier_sessions(path, self.thresholds_from.as_deref()));
        Ok(match &self.model {
            Some(model) => transcript.with_model(model.clone()),
            None => transcript,
        })
    }
}

/// The user's earlier sessions for the log at `path`: `--thresholds-from`, else beside it.
pub fn earlier_sessions(path: &Path, from: Option<&str>) -> EarlierSessions {
    EarlierSessions::from(path, from.map_or_else(|| Source::beside(path), Source::parse))
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
    #[arg(long, overrides_with = "no_flush_to_memory")]
    pub flush_to_memory: bool,
    /// No memory-tool reminder, whatever the settings file says.
    #[arg(long, overrides_with = "flush_to_memory")]
    pub no_flush_to_memory: bool,
}

impl BudgetArgs {
    /// `--max-tokens`, else the config file's.
    pub fn max_tokens(&self) -> Option<u64> {
        self.max_tokens.or(config_file::current().max_tokens)
    }

    /// `--keep-tail`, else the config file's.
    pub fn keep_tail(&self) -> Option<u64> {
        self.keep_tail.or(config_file::current().keep_tail)
    }

    /// `--flush-to-memory` or `--no-flush-to-memory` (the last given wins), else the
    /// config file's.
    pub fn flush_to_memory(&self) -> bool {
        if self.no_flush_to_memory {
            return false;
        }
        self.flush_to_memory || config_file::current().flush_to_memory == Some(true)
    }

    /// The §7F options with `max_tokens`.
    pub fn options(&self, max_tokens: u64) -> Options {
        Options {
            max_tokens,
            keep_tail: self.keep_tail(),
            flush_to_memory: self.flush_to_memory(),
        }
    }
}

/// How a compaction is made: strategy, summarizer, the summary's role. Shared by
/// `compact`, `replay` and `sweep`; unset values come from the config file, then from
/// the command's own default.
#[derive(Debug, Args)]
pub struct MakeArgs {
    /// Compaction strategy: tail (§7F), deterministic (llm4s rules), or deterministic,tail
    /// [default: tail].
    #[arg(long, value_parser = named::<Strategy>())]
    pub strategy: Option<Strategy>,
    /// How the summary text is made: placeholder, extractive, openai, or cmd:<command line>.
    #[arg(long, value_parser = parse_summarizer)]
    pub summarizer: Option<Spec>,
    /// The summary's role in a message list: system (as §7F writes it) or user (which the
    /// Anthropic API accepts). Session logs always get their client's own shape.
    #[arg(long, value_name = "ROLE", value_parser = named::<SummaryRole>())]
    pub summary_role: Option<SummaryRole>,
    #[command(flatten)]
    pub summary: SummaryArgs,
}

impl MakeArgs {
    /// The strategy in force.
    pub fn strategy(&self) -> Strategy {
        self.strategy
            .or(config_file::current().strategy)
            .unwrap_or(Strategy::Tail)
    }

    /// The summarizer in force (`default` when neither the option nor the file names one).
    pub fn summarizer(&self, default: Spec) -> Spec {
        self.summarizer
            .clone()
            .or_else(|| config_file::current().summarizer.clone())
            .unwrap_or(default)
    }

    /// The summary's role in force.
    pub fn summary_role(&self) -> SummaryRole {
        self.summary_role
            .or(config_file::current().summary_role)
            .unwrap_or_default()
    }
}

/// `--emit-config`: the settings as an agent's configuration.
#[derive(Debug, Args)]
pub struct EmitArgs {
    /// Print the settings as this agent's configuration instead: toolnexus, langchain,
    /// codex, claude-code, opencode or ctxlens.
    #[arg(long, value_name = "KIND", value_parser = named::<ctxlens::agent_config::Kind>())]
    pub emit_config: Option<ctxlens::agent_config::Kind>,
    /// The model's context window, for agents whose knob is a share of it.
    #[arg(long, value_name = "N")]
    pub context_window: Option<u64>,
}

impl EmitArgs {
    /// The context window in force.
    pub fn context_window(&self) -> Option<u64> {
        self.context_window.or(config_file::current().context_window)
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

/// A percentage between 0 and 100 (`50` or `50%`).
pub fn parse_percent(s: &str) -> Result<f64, String> {
    match s.trim().trim_end_matches('%').parse::<f64>() {
        Ok(p) if (0.0..=100.0).contains(&p) => Ok(p),
        _ => Err(format!("`{s}` is not a percentage between 0 and 100")),
    }
}

/// The value parser of an option that takes one of a core enum's names: `--help` and the
/// shell completions list the names, the core parses them (its aliases included).
pub fn named<T: Named + Send + Sync>() -> NamedParser<T> {
    NamedParser(PhantomData)
}

/// See [`named`].
#[derive(Clone)]
pub struct NamedParser<T>(PhantomData<fn() -> T>);

impl<T: Named + Send + Sync> TypedValueParser for NamedParser<T> {
    type Value = T;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<T, clap::Error> {
        if let Some(parsed) = value.to_str().and_then(|text| names::parse::<T>(text).ok()) {
            return Ok(parsed);
        }
        // clap's own message for a value outside a list (the option, the value, the list).
        let refused = PossibleValuesParser::new(names::names::<T>()).parse_ref(cmd, arg, value);
        Err(refused
            .err()
            .unwrap_or_else(|| clap::Error::raw(clap::error::ErrorKind::InvalidValue, format!("unknown {}", T::KIND))))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(T::ALL.iter().map(|v| PossibleValue::new(v.name()))))
    }
}
