//! Settings to paste: the budget a user tuned in ctxlens, written as the agent's own
//! configuration. Each agent has its own knob, its own unit and its own way of counting
//! tokens; every output says in a comment (or, for JSON, in [`Emitted::note`]) how that
//! counting differs from the tokenizer the numbers were tuned with. Where an agent counts
//! what the provider bills and the log allowed a calibration, the threshold is converted
//! to the billed scale. Sources for every knob: `docs/agent-config.md`.

use std::fmt::Write as _;

use crate::compact::{Options, Strategy, SummaryRole};
use crate::tokens::Tokenizer;

/// Which agent's configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// toolnexus `Compaction.Options` (JSON).
    Toolnexus,
    /// `LangChain`'s `SummarizationMiddleware` (Python).
    Langchain,
    /// Codex `config.toml`.
    Codex,
    /// Claude Code's auto-compact environment override (shell).
    ClaudeCode,
    /// opencode's `compaction` settings (`opencode.json`).
    Opencode,
    /// ctxlens' own `.ctxlens.toml`.
    Ctxlens,
}

impl Kind {
    /// Every kind, in the order the TUI cycles through them.
    pub const ALL: [Kind; 6] = [
        Kind::Ctxlens,
        Kind::Toolnexus,
        Kind::Langchain,
        Kind::Codex,
        Kind::ClaudeCode,
        Kind::Opencode,
    ];

    /// The name `--emit-config` takes.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Toolnexus => "toolnexus",
            Kind::Langchain => "langchain",
            Kind::Codex => "codex",
            Kind::ClaudeCode => "claude-code",
            Kind::Opencode => "opencode",
            Kind::Ctxlens => "ctxlens",
        }
    }

    /// The format of its output.
    pub fn format(self) -> &'static str {
        match self {
            Kind::Toolnexus | Kind::Opencode => "JSON",
            Kind::Langchain => "Python",
            Kind::Codex | Kind::Ctxlens => "TOML",
            Kind::ClaudeCode => "shell",
        }
    }
}

impl std::str::FromStr for Kind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Kind::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
            format!("unknown config kind `{s}` (expected {})", names.join(", "))
        })
    }
}

/// What is emitted: the settings and what is known about the session.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// The §7F options.
    pub options: Options,
    /// The strategy.
    pub strategy: Strategy,
    /// The tokenizer the numbers were tuned with.
    pub tokenizer: Tokenizer,
    /// The summarizer's name (`extractive`, `cmd:…`).
    pub summarizer: String,
    /// The summary's role.
    pub summary_role: SummaryRole,
    /// The model's context window, for knobs that are a share of it.
    pub context_window: Option<u64>,
    /// The log's calibration (overhead, ratio): how the provider's count relates to ours.
    pub calibration: Option<(u64, f64)>,
}

/// A configuration to paste.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Emitted {
    /// The text, in the agent's format.
    pub text: String,
    /// For formats without comments (JSON): the counting note, to show beside it.
    pub note: Option<String>,
}

/// The threshold in the agent's units when it counts what the provider bills.
fn billed(settings: &Settings, tokens: u64) -> u64 {
    match settings.calibration {
        Some((overhead, ratio)) => (overhead as f64 + ratio * tokens as f64).round() as u64,
        None => tokens,
    }
}

/// How an agent that counts the provider's reported usage differs from our count.
fn billed_note(settings: &Settings) -> String {
    match settings.calibration {
        Some((overhead, ratio)) => format!(
            "it counts the usage the provider reports (system prompt and tool definitions included); tuned with ctxlens' {} counts, converted with this log's calibration: ≈{overhead} tokens of overhead + {ratio:.3} × counted",
            settings.tokenizer.name()
        ),
        None => format!(
            "it counts the usage the provider reports (system prompt and tool definitions included, often 15–35k tokens more than the messages); tuned with ctxlens' {} counts and no recorded usage to convert them: add that overhead",
            settings.tokenizer.name()
        ),
    }
}

/// The window a share-of-window knob needs.
fn window(settings: &Settings, kind: Kind) -> Result<u64, String> {
    settings.context_window.filter(|w| *w > 0).ok_or_else(|| {
        format!(
            "{}'s setting is a share of the model's context window: pass --context-window N",
            kind.name()
        )
    })
}

/// The configuration of `kind` for `settings`.
pub fn emit(kind: Kind, settings: &Settings) -> Result<Emitted, String> {
    match kind {
        Kind::Toolnexus => Ok(toolnexus(settings)),
        Kind::Langchain => Ok(commented(langchain(settings))),
        Kind::Codex => Ok(commented(codex(settings))),
        Kind::ClaudeCode => claude_code(settings).map(commented),
        Kind::Opencode => opencode(settings),
        Kind::Ctxlens => Ok(commented(ctxlens(settings))),
    }
}

/// A text whose format holds its own comments.
fn commented(text: String) -> Emitted {
    Emitted { text, note: None }
}

/// Pretty JSON with a final newline.
fn json_text(value: &serde_json::Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// toolnexus `Compaction.Options`.
fn toolnexus(settings: &Settings) -> Emitted {
    let o = &settings.options;
    let text = json_text(&serde_json::json!({
        "maxTokens": o.max_tokens,
        "keepTail": o.effective_keep_tail(),
        "flushToMemory": o.flush_to_memory,
    }));
    let note = if settings.tokenizer.is_estimate() {
        format!(
            "toolnexus counts ceil(length of each message's JSON / 4), the length in UTF-16 units (JS, Java, C#), code points (Python) or bytes (Go, Elixir); tuned with {}, the same rule",
            settings.tokenizer.name()
        )
    } else {
        format!(
            "toolnexus counts ceil(length of each message's JSON / 4), not {}: re-tune with --tokenizer estimate for exact numbers",
            settings.tokenizer.name()
        )
    };
    Emitted { text, note: Some(note) }
}

/// The `SummarizationMiddleware` of `LangChain`.
fn langchain(settings: &Settings) -> String {
    let o = &settings.options;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# LangChain counts with count_tokens_approximately (about 4 characters per token of each message's text, plus a small per-message overhead), not {}.",
        settings.tokenizer.name()
    );
    text.push_str("# It keeps the most recent messages worth `keep` tokens, cutting at any message that does not split a tool call from its result (not only at user turns).\n");
    text.push_str("from langchain.agents.middleware import SummarizationMiddleware\n\n");
    let _ = writeln!(
        text,
        "summarization = SummarizationMiddleware(\n    model=\"openai:gpt-4o-mini\",  # the model that writes the summary\n    trigger=(\"tokens\", {}),\n    keep=(\"tokens\", {}),\n)",
        o.max_tokens,
        o.effective_keep_tail()
    );
    text
}

/// Codex's `config.toml`.
fn codex(settings: &Settings) -> String {
    let limit = billed(settings, settings.options.max_tokens);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# ~/.codex/config.toml: Codex compacts when the conversation passes this many tokens;"
    );
    let _ = writeln!(text, "# {}.", billed_note(settings));
    text.push_str("# Codex has no tail budget: after compacting it keeps recent user messages (up to a fixed budget) and the summary.\n");
    let _ = writeln!(text, "model_auto_compact_token_limit = {limit}");
    if let Some(w) = settings.context_window {
        let _ = writeln!(text, "model_context_window = {w}");
    }
    text
}

/// Claude Code's auto-compact override.
fn claude_code(settings: &Settings) -> Result<String, String> {
    let w = window(settings, Kind::ClaudeCode)?;
    let limit = billed(settings, settings.options.max_tokens);
    let percent = (limit * 100).div_ceil(w).clamp(1, 100);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# Claude Code auto-compacts at this percentage of the model's context window ({w} tokens): {limit} tokens."
    );
    let _ = writeln!(text, "# {}.", billed_note(settings));
    text.push_str("# The override only lowers the threshold: above the built-in one (about the window minus 13k) it has no effect.\n");
    text.push_str("# Set it in the shell that starts claude (or in the \"env\" block of ~/.claude/settings.json).\n");
    let _ = writeln!(text, "export CLAUDE_AUTOCOMPACT_PCT_OVERRIDE={percent}");
    Ok(text)
}

/// opencode's `compaction` settings.
fn opencode(settings: &Settings) -> Result<Emitted, String> {
    let w = window(settings, Kind::Opencode)?;
    let limit = billed(settings, settings.options.max_tokens);
    let text = json_text(&serde_json::json!({
        "$schema": "https://opencode.ai/config.json",
        "compaction": {"auto": true, "reserved": w.saturating_sub(limit)},
    }));
    let note = format!(
        "opencode compacts when the last response's reported tokens reach the model's context limit ({w}) minus `reserved`, i.e. at {limit}; {}",
        billed_note(settings)
    );
    Ok(Emitted { text, note: Some(note) })
}

/// ctxlens' own `.ctxlens.toml`.
fn ctxlens(settings: &Settings) -> String {
    let o = &settings.options;
    let mut text = String::new();
    text.push_str("# ctxlens settings: read by `ctxlens --config FILE`, and from ./.ctxlens.toml\n");
    text.push_str("# Command-line options override them.\n");
    let _ = writeln!(text, "max_tokens = {}", o.max_tokens);
    if let Some(k) = o.keep_tail {
        let _ = writeln!(text, "keep_tail = {k}");
    }
    let _ = writeln!(text, "flush_to_memory = {}", o.flush_to_memory);
    let _ = writeln!(text, "strategy = \"{}\"", settings.strategy.name());
    let _ = writeln!(text, "tokenizer = \"{}\"", settings.tokenizer.name());
    let _ = writeln!(text, "summarizer = {}", toml_string(&settings.summarizer));
    let _ = writeln!(text, "summary_role = \"{}\"", settings.summary_role.name());
    if let Some(w) = settings.context_window {
        let _ = writeln!(text, "context_window = {w}");
    }
    text
}

/// A TOML basic string.
fn toml_string(s: &str) -> String {
    // JSON string escapes are valid TOML basic-string escapes.
    serde_json::to_string(s).unwrap_or_default()
}
