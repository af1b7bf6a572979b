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
    /// Anthropic's Messages API `context_management` request field (JSON): the settings of
    /// a policy the API applies, never a §7F budget.
    Anthropic,
    /// Gemini CLI's `settings.json` (`model.compressionThreshold`).
    GeminiCli,
}

impl Kind {
    /// Every kind, in the order the TUI cycles through those a budget is written as
    /// ([`Kind::writes_a_budget`]).
    pub const ALL: [Kind; 8] = [
        Kind::Ctxlens,
        Kind::Toolnexus,
        Kind::Langchain,
        Kind::Codex,
        Kind::ClaudeCode,
        Kind::Opencode,
        Kind::GeminiCli,
        Kind::Anthropic,
    ];

    /// A §7F budget (`max_tokens`, `keep_tail`) can be written as this kind: not the
    /// request field of a policy the provider applies.
    pub fn writes_a_budget(self) -> bool {
        self != Kind::Anthropic
    }

    /// The kinds a §7F budget is written as, in [`Kind::ALL`]'s order (the TUI's `c`).
    pub fn budget_kinds() -> Vec<Kind> {
        Kind::ALL.into_iter().filter(|k| k.writes_a_budget()).collect()
    }

    /// The name `--emit-config` takes.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Toolnexus => "toolnexus",
            Kind::Langchain => "langchain",
            Kind::Codex => "codex",
            Kind::ClaudeCode => "claude-code",
            Kind::Opencode => "opencode",
            Kind::Ctxlens => "ctxlens",
            Kind::Anthropic => "anthropic",
            Kind::GeminiCli => "gemini-cli",
        }
    }

    /// The file `c`'s save writes it to.
    pub fn file_name(self) -> &'static str {
        match self {
            Kind::Toolnexus => "toolnexus-compaction.json",
            Kind::Langchain => "langchain_summarization.py",
            Kind::Codex => "codex-config.toml",
            Kind::ClaudeCode => "claude-code-autocompact.sh",
            Kind::Opencode => "opencode.json",
            Kind::Ctxlens => ".ctxlens.toml",
            Kind::Anthropic => "anthropic-context-management.json",
            Kind::GeminiCli => "gemini-settings.json",
        }
    }

    /// The format of its output.
    pub fn format(self) -> &'static str {
        match self {
            Kind::Toolnexus | Kind::Opencode | Kind::Anthropic | Kind::GeminiCli => "JSON",
            Kind::Langchain => "Python",
            Kind::Codex | Kind::Ctxlens => "TOML",
            Kind::ClaudeCode => "shell",
        }
    }
}

impl crate::names::Named for Kind {
    const KIND: &'static str = "config kind";
    const ALL: &'static [Self] = &Kind::ALL;

    fn name(self) -> &'static str {
        Kind::name(self)
    }
}

impl std::str::FromStr for Kind {
    type Err = crate::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::names::parse(s)
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
    /// The threshold the session's own log shows its agent compacted at, billed (Claude
    /// Code's `preTokens`): a setting above it is never reached on that setup.
    pub logged_threshold: Option<u64>,
    /// opencode's own estimate of the session's messages per token ctxlens counts
    /// ([`crate::policy::opencode::estimate_ratio`]): opencode measures the tail it keeps
    /// that way, not in billed tokens.
    pub opencode_estimate_ratio: Option<f64>,
}

/// A configuration to paste.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Emitted {
    /// The text, in the agent's format.
    pub text: String,
    /// For formats without comments (JSON): the counting note, to show beside it.
    pub note: Option<String>,
    /// What the agent will not do as asked (a threshold at or above the window, one it
    /// ignores or clamps): never silent, shown beside the text.
    pub warnings: Vec<String>,
    /// The threshold the text makes the agent compact at, in the agent's units.
    pub threshold: Option<u64>,
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
fn window(settings: &Settings, kind: Kind) -> crate::Result<u64> {
    settings.context_window.filter(|w| *w > 0).ok_or_else(|| {
        crate::Error::Invalid(format!(
            "{}'s setting is a share of the model's context window: pass --context-window N",
            kind.name()
        ))
    })
}

/// The configuration of `kind` for `settings`.
pub fn emit(kind: Kind, settings: &Settings) -> crate::Result<Emitted> {
    let mut emitted = match kind {
        Kind::Toolnexus => toolnexus(settings),
        Kind::Langchain => langchain(settings),
        Kind::Codex => codex(settings),
        Kind::ClaudeCode => claude_code(settings)?,
        Kind::Opencode => opencode(settings)?,
        Kind::GeminiCli => {
            let window = window(settings, Kind::GeminiCli)?;
            let mut emitted = gemini_cli_threshold(billed(settings, settings.options.max_tokens), window);
            emitted.note = emitted.note.map(|n| format!("{n}; {}", billed_note(settings)));
            emitted
        }
        Kind::Ctxlens => commented(ctxlens(settings)),
        Kind::Anthropic => {
            return Err(crate::Error::Setting(
                "--emit-config anthropic: the Messages API's context_management clears old tool results and never summarizes, so a §7F budget is not written as it; give --policy with a policy the API applies (anthropic-context-management)".to_owned(),
            ))
        }
    };
    if let Some(warning) = emitted.threshold.and_then(|t| over_window(t, settings.context_window)) {
        emitted.warnings.insert(0, warning);
    }
    Ok(emitted)
}

/// A policy's request field (`request_config`) as `--emit-config anthropic` prints it:
/// the JSON to merge into the request, the beta header it needs beside it, and its
/// trigger as the threshold.
pub fn request_field(field: &crate::policy::RequestField) -> Emitted {
    let text = serde_json::to_string_pretty(&field.body).unwrap_or_default();
    let header = field
        .beta_header
        .map_or_else(String::new, |h| format!(", sent with the header `anthropic-beta: {h}`"));
    Emitted {
        text,
        note: Some(format!("merge into the Messages API request body{header}")),
        warnings: Vec::new(),
        threshold: field
            .body
            .pointer("/context_management/edits/0/trigger/value")
            .and_then(serde_json::Value::as_u64),
    }
}

/// A text whose format holds its own comments.
fn commented(text: String) -> Emitted {
    Emitted {
        text,
        note: None,
        warnings: Vec::new(),
        threshold: None,
    }
}

/// A warning when `threshold` cannot be reached in a `window`-token window.
fn over_window(threshold: u64, window: Option<u64>) -> Option<String> {
    let window = window?;
    (threshold >= window).then(|| {
        format!("the threshold {threshold} is at or above the {window}-token window: the agent never gets there (the provider refuses the request first)")
    })
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
    Emitted {
        text,
        note: Some(note),
        warnings: Vec::new(),
        threshold: Some(o.max_tokens),
    }
}

/// The `SummarizationMiddleware` of `LangChain`.
fn langchain(settings: &Settings) -> Emitted {
    let o = &settings.options;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# LangChain counts with count_tokens_approximately (about 4 characters per token of each message's text, plus 3 a message), not {}.",
        settings.tokenizer.name()
    );
    text.push_str("# It keeps the most recent messages worth `keep` tokens, cutting at any message that does not split a tool call from its result (not only at user turns).\n");
    text.push_str("# trim_tokens_to_summarize=None: with its default (4000) the summarizer reads only the last 4000 tokens, trimmed to start at a\n");
    text.push_str("# human message; an agent loop has none there, so the summary becomes \"Previous conversation was too long to summarize.\"\n");
    text.push_str("from langchain.agents.middleware import SummarizationMiddleware\n\n");
    let _ = writeln!(
        text,
        "summarization = SummarizationMiddleware(\n    model=\"openai:gpt-4o-mini\",  # the model that writes the summary\n    trigger=(\"tokens\", {}),\n    keep=(\"tokens\", {}),\n    trim_tokens_to_summarize=None,\n)",
        o.max_tokens,
        o.effective_keep_tail()
    );
    Emitted {
        threshold: Some(o.max_tokens),
        ..commented(text)
    }
}

/// Codex clamps its limit to this share of the window (current versions).
const CODEX_LIMIT_SHARE: (u64, u64) = (9, 10);

/// Codex's `config.toml`.
fn codex(settings: &Settings) -> Emitted {
    let mut limit = billed(settings, settings.options.max_tokens);
    let mut warnings = Vec::new();
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# ~/.codex/config.toml: Codex compacts when the conversation passes this many tokens;"
    );
    let _ = writeln!(text, "# {}.", billed_note(settings));
    text.push_str("# Codex has no tail budget: after compacting it keeps the user's own messages (up to 20,000 tokens) and the summary;\n");
    text.push_str(
        "# with the OpenAI provider it compacts remotely: the server keeps the user messages and one encrypted item.\n",
    );
    match settings.context_window {
        Some(w) => {
            let clamp = w * CODEX_LIMIT_SHARE.0 / CODEX_LIMIT_SHARE.1;
            if limit > clamp {
                warnings.push(format!(
                    "Codex clamps model_auto_compact_token_limit to 90% of the {w}-token window: {limit} becomes {clamp}"
                ));
                let _ = writeln!(
                    text,
                    "# {limit} was asked for; Codex clamps the limit to 90% of the window, so it is {clamp}."
                );
                limit = clamp;
            }
        }
        None => {
            text.push_str("# Current Codex versions clamp the limit to 90% of the model's context window (pass --context-window to check it).\n");
        }
    }
    let _ = writeln!(text, "model_auto_compact_token_limit = {limit}");
    if let Some(w) = settings.context_window {
        let _ = writeln!(text, "model_context_window = {w}");
    }
    Emitted {
        warnings,
        threshold: Some(limit),
        ..commented(text)
    }
}

/// Claude Code's percentage of the effective window that makes it compact at `limit`
/// (it reads decimals): the fewest decimals, from two, that bring the threshold it
/// computes, `floor(effective × pct / 100)`, within 1% of `limit`; rounded to nearest.
pub fn claude_code_percent(limit: u64, effective: u64) -> f64 {
    let exact = limit as f64 * 100.0 / effective.max(1) as f64;
    let mut pct = exact;
    for decimals in 2..=6 {
        let scale = 10f64.powi(decimals);
        pct = (exact * scale).round() / scale;
        let back = (effective as f64 * pct / 100.0).floor();
        if (back - limit as f64).abs() <= limit as f64 * 0.01 {
            break;
        }
    }
    pct.min(100.0)
}

/// Claude Code's auto-compact override.
fn claude_code(settings: &Settings) -> crate::Result<Emitted> {
    let w = window(settings, Kind::ClaudeCode)?;
    let limit = billed(settings, settings.options.max_tokens);
    Ok(claude_code_at(
        limit,
        w,
        &billed_note(settings),
        settings.logged_threshold,
    ))
}

/// Claude Code's override for a threshold already in the tokens the provider bills (the
/// `claude-code` policy's own `threshold`), in a `window`-token window; `logged` is the
/// threshold the session's log shows it compacted at, when it shows one.
pub fn claude_code_threshold(threshold: u64, window: u64, logged: Option<u64>) -> Emitted {
    let note = "the threshold is the claude-code policy's own, in the tokens the provider bills (system prompt and tool definitions included)";
    let mut emitted = claude_code_at(threshold, window, note, logged);
    if let Some(warning) = over_window(threshold, Some(window)) {
        emitted.warnings.insert(0, warning);
    }
    emitted
}

/// The override that makes Claude Code compact at `limit` billed tokens, with the
/// warnings of a limit it cannot reach: above its built-in threshold (the override only
/// lowers it) or above the threshold its own log shows.
fn claude_code_at(limit: u64, w: u64, counting: &str, logged: Option<u64>) -> Emitted {
    use crate::policy::claude_code::{default_threshold, effective_window, AUTOCOMPACT_MARGIN, OUTPUT_RESERVE};
    let effective = effective_window(w, OUTPUT_RESERVE);
    let built_in = default_threshold(w, OUTPUT_RESERVE, None);
    let mut warnings = Vec::new();
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# Claude Code auto-compacts at a percentage of its effective window ({w} − {OUTPUT_RESERVE} reserved for the reply = {effective} tokens): here {limit} tokens."
    );
    let _ = writeln!(text, "# {counting}.");
    text.push_str("# Set it in the shell that starts claude: reports say the \"env\" block of ~/.claude/settings.json does not reach this setting.\n");
    if let Some(logged) = logged.filter(|&logged| limit > logged && logged < built_in) {
        warnings.push(format!(
            "this session's log shows Claude Code compacting at {logged} tokens (its preTokens): {limit} is above it and is not reached on that setup (the override only lowers the threshold)"
        ));
        let _ = writeln!(
            text,
            "# This session's log shows it compacting at {logged}: {limit} is above that and is never reached there."
        );
    }
    if limit >= built_in {
        warnings.push(format!(
            "Claude Code cannot compact later than its built-in threshold ({built_in} = effective window − {AUTOCOMPACT_MARGIN}): {limit} is ignored, it compacts at {built_in}"
        ));
        let _ = writeln!(
            text,
            "# {limit} is at or above the built-in threshold ({built_in}): the override only lowers it, so Claude Code keeps {built_in}."
        );
        return Emitted {
            warnings,
            threshold: Some(built_in),
            ..commented(text)
        };
    }
    let percent = claude_code_percent(limit, effective);
    let _ = writeln!(text, "export CLAUDE_AUTOCOMPACT_PCT_OVERRIDE={percent}");
    let window_knob = limit + OUTPUT_RESERVE + AUTOCOMPACT_MARGIN;
    if window_knob <= w {
        let _ = writeln!(
            text,
            "# Or, the same threshold through the window it measures against (it compacts at that − {OUTPUT_RESERVE} − {AUTOCOMPACT_MARGIN}):"
        );
        let _ = writeln!(text, "# export CLAUDE_CODE_AUTO_COMPACT_WINDOW={window_knob}");
    }
    Emitted {
        warnings,
        threshold: Some((effective as f64 * percent / 100.0).floor() as u64),
        ..commented(text)
    }
}

/// opencode caps the room it keeps for a reply at this many tokens.
const OPENCODE_MAX_OUTPUT: u64 = 32_000;

/// opencode's `compaction` settings.
fn opencode(settings: &Settings) -> crate::Result<Emitted> {
    let w = window(settings, Kind::Opencode)?;
    let limit = billed(settings, settings.options.max_tokens);
    // Usable = context − min(output, 32,000) − reserved (for a model that declares
    // `limit.input`: that − reserved), so `reserved` is what lies between the limit and
    // the latest it can compact.
    let latest = w.saturating_sub(OPENCODE_MAX_OUTPUT);
    let mut warnings = Vec::new();
    if limit > latest {
        warnings.push(format!(
            "opencode compacts at the latest at the window − the reply's room ({w} − {OPENCODE_MAX_OUTPUT} = {latest}): {limit} cannot be reached, reserved is 0"
        ));
    }
    let reserved = latest.saturating_sub(limit);
    // The tail in opencode's own estimate of it (its `Token.estimate` of the turns kept).
    let tail = settings.options.effective_keep_tail();
    let preserve = settings
        .opencode_estimate_ratio
        .map_or(tail, |r| (tail as f64 * r).round() as u64)
        .min(limit);
    let text = json_text(&serde_json::json!({
        "$schema": "https://opencode.ai/config.json",
        "compaction": {"auto": true, "reserved": reserved, "preserve_recent_tokens": preserve},
    }));
    let note = format!(
        "opencode compacts when the last response's reported tokens reach the model's context ({w}) minus the reply's room (up to {OPENCODE_MAX_OUTPUT}) minus `reserved` (for a model that declares limit.input: that limit minus `reserved`), i.e. at {}; it keeps recent whole turns worth `preserve_recent_tokens` by its own estimate ({}); {}",
        latest - reserved,
        settings.opencode_estimate_ratio.map_or_else(
            || "taken as ctxlens' count: no session to measure its estimate on".to_owned(),
            |r| format!("{r:.3} of its tokens per token ctxlens counts on this session")
        ),
        billed_note(settings)
    );
    Ok(Emitted {
        text,
        note: Some(note),
        warnings,
        threshold: Some(latest - reserved),
    })
}

/// Gemini CLI's `settings.json` making it compress at `threshold` tokens of a
/// `window`-token model: `model.compressionThreshold`, the share of the model's token
/// limit the last prompt must reach (gemini-cli's settings schema, 0.5 by default). What
/// it keeps is not a setting: about the newest 30% of the history's characters.
pub fn gemini_cli_threshold(threshold: u64, window: u64) -> Emitted {
    // Three decimals: what it reads back is within a thousandth of the window.
    let share = (threshold as f64 / window.max(1) as f64 * 1000.0).round() / 1000.0;
    let text = json_text(&serde_json::json!({ "model": { "compressionThreshold": share } }));
    let at = (share * window as f64).round() as u64;
    let mut warnings = Vec::new();
    if share <= 0.0 {
        warnings.push(format!(
            "{threshold} tokens is under a thousandth of the {window}-token window: Gemini CLI would compress before every request"
        ));
    }
    Emitted {
        text,
        note: Some(format!(
            "merge into ~/.gemini/settings.json (or the project's .gemini/settings.json); Gemini CLI compresses when the last prompt's reported tokens reach compressionThreshold × the model's token limit ({window}), i.e. at {at}; the tail it keeps is not a setting (about the newest 30% of the history by characters, from a user turn)"
        )),
        warnings,
        threshold: Some(at),
    }
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

/// The command a post-compaction hook runs (`ctxlens ledger --hook`: the standing
/// instructions the last compaction lost, see `ledger`).
pub const HOOK_COMMAND: &str = "ctxlens ledger --hook";

/// Seconds the agent gives the hook (it ends within five of its own).
const HOOK_TIMEOUT_SECONDS: u64 = 10;

/// The settings that make `kind`'s agent run [`HOOK_COMMAND`] after every compaction and
/// give its output to the model: for Claude Code, a `SessionStart` hook with the matcher
/// `compact` (its settings files' `hooks` key; the hook's standard output is added to
/// the context). Other agents have no hook that runs after compacting in their released
/// configuration formats, and are refused with that reason.
pub fn post_compaction_hook(kind: Kind) -> crate::Result<serde_json::Value> {
    match kind {
        Kind::ClaudeCode => Ok(serde_json::json!({
            "hooks": {
                "SessionStart": [{
                    "matcher": "compact",
                    "hooks": [{"type": "command", "command": HOOK_COMMAND, "timeout": HOOK_TIMEOUT_SECONDS}]
                }]
            }
        })),
        other => Err(crate::Error::Setting(format!(
            "--emit-hook {}: that agent's configuration has no hook that runs after a compaction (ctxlens writes one for {} only)",
            crate::names::Named::name(other),
            crate::names::Named::name(Kind::ClaudeCode),
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(max_tokens: u64, window: Option<u64>, calibration: Option<(u64, f64)>) -> Settings {
        Settings {
            options: Options {
                max_tokens,
                keep_tail: None,
                flush_to_memory: false,
            },
            strategy: Strategy::Tail,
            tokenizer: Tokenizer::Estimate,
            summarizer: "extractive".to_owned(),
            summary_role: SummaryRole::System,
            context_window: window,
            calibration,
            logged_threshold: None,
            opencode_estimate_ratio: None,
        }
    }

    /// A Claude Code threshold above the one the session's own log compacted at is
    /// never reached there: said in the snippet and as a warning, from a budget and from
    /// the policy's own threshold alike.
    #[test]
    fn a_claude_code_threshold_above_the_logged_one_is_a_warning() {
        let logged = 155_979;
        let mut above = settings(161_584, Some(200_000), None);
        above.logged_threshold = Some(logged);
        let emitted = emit(Kind::ClaudeCode, &above).unwrap();
        assert!(
            emitted
                .warnings
                .iter()
                .any(|w| w.contains("155979") && w.contains("not reached")),
            "{emitted:?}"
        );
        assert!(emitted.text.contains("compacting at 155979"), "{}", emitted.text);
        let policy = claude_code_threshold(161_584, 200_000, Some(logged));
        assert_eq!(
            policy.warnings, emitted.warnings,
            "the policy's threshold is judged alike"
        );
        let below = claude_code_threshold(150_000, 200_000, Some(logged));
        assert!(below.warnings.is_empty(), "{below:?}");
        assert!(
            value_of(&below.text, "export CLAUDE_AUTOCOMPACT_PCT_OVERRIDE").is_some(),
            "{}",
            below.text
        );
        let mut no_log = settings(161_584, Some(200_000), None);
        no_log.logged_threshold = None;
        assert!(emit(Kind::ClaudeCode, &no_log).unwrap().warnings.is_empty());
    }

    /// The number after `NAME=` on a line of `text`.
    fn value_of(text: &str, name: &str) -> Option<f64> {
        text.lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .find_map(|l| l.split_once(&format!("{name}="))?.1.trim().parse().ok())
    }

    #[test]
    fn a_budget_is_never_written_as_a_providers_request_field() {
        let s = settings(30_000, Some(200_000), None);
        let refused = emit(Kind::Anthropic, &s).expect_err("no §7F budget as context_management");
        assert!(refused.to_string().contains("--emit-config anthropic"), "{refused}");
        assert!(!Kind::budget_kinds().contains(&Kind::Anthropic));
        assert_eq!(Kind::budget_kinds().len() + 1, Kind::ALL.len());
        assert_eq!(
            crate::names::parse::<Kind>("anthropic").expect("a name"),
            Kind::Anthropic
        );
    }

    #[test]
    fn every_kind_over_a_grid_warns_where_the_agent_cannot_follow() {
        let budgets = [1_000, 30_000, 100_000, 150_000, 175_000, 199_999, 260_000, 2_000_000];
        let windows = [None, Some(8_192), Some(128_000), Some(200_000), Some(1_000_000)];
        let calibrations = [None, Some((33_571, 1.096))];
        let mut checked = 0;
        for kind in Kind::budget_kinds() {
            for &budget in &budgets {
                for &window in &windows {
                    for &calibration in &calibrations {
                        let s = settings(budget, window, calibration);
                        let Ok(emitted) = emit(kind, &s) else {
                            // Only the kinds whose knob is a share of the window refuse,
                            // and only without one.
                            assert!(
                                window.is_none() && matches!(kind, Kind::ClaudeCode | Kind::Opencode | Kind::GeminiCli)
                            );
                            continue;
                        };
                        checked += 1;
                        if let (Some(threshold), Some(w)) = (emitted.threshold, window) {
                            assert!(
                                threshold < w || !emitted.warnings.is_empty(),
                                "{kind:?} budget {budget} window {w}: threshold {threshold} without a warning"
                            );
                        }
                        let asked = billed(&s, budget);
                        if kind == Kind::GeminiCli {
                            // The share, read back as Gemini CLI reads it, is the threshold
                            // asked for within a thousandth of the window.
                            let w = window.expect("a window");
                            let settings: serde_json::Value = serde_json::from_str(&emitted.text).expect("JSON");
                            let share = settings["model"]["compressionThreshold"].as_f64().expect("a share");
                            let back = share * w as f64;
                            assert!(
                                (back - asked as f64).abs() <= w as f64 / 2000.0 + 1.0,
                                "budget {budget} window {w}: {share} gives {back}, asked {asked}"
                            );
                        }
                        if kind == Kind::ClaudeCode && emitted.warnings.is_empty() {
                            // The percentage, read back the way Claude Code reads it, is
                            // the threshold asked for within 1%.
                            let w = window.expect("a window");
                            let effective = crate::policy::claude_code::effective_window(w, 20_000);
                            let pct = value_of(&emitted.text, "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE").expect("a percentage");
                            let back = (effective as f64 * pct / 100.0).floor();
                            assert!(
                                (back - asked as f64).abs() <= asked as f64 * 0.01,
                                "budget {budget} window {w}: {pct}% gives {back}, asked {asked}"
                            );
                        }
                        if kind == Kind::Codex {
                            let limit = value_of(&emitted.text.replace(" = ", "="), "model_auto_compact_token_limit")
                                .expect("a limit");
                            if let Some(w) = window {
                                assert!(limit <= w as f64 * 0.9, "{limit} in {w}");
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 300, "{checked}");
    }

    /// opencode keeps its tail by its own estimate of the turns: the emitted
    /// `preserve_recent_tokens` is the tail in those units (the session's measured ratio),
    /// never run through the billed calibration Claude Code's threshold needs.
    #[test]
    fn the_opencode_tail_is_in_its_own_estimate() {
        let preserve = |s: &Settings| {
            let text = emit(Kind::Opencode, s).expect("emits").text;
            let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
            v["compaction"]["preserve_recent_tokens"].as_u64().expect("a number")
        };
        let mut s = settings(120_000, Some(200_000), Some((20_000, 1.5)));
        s.options.keep_tail = Some(50_000);
        assert_eq!(preserve(&s), 50_000, "no session measured: ctxlens' count, not billed");
        s.opencode_estimate_ratio = Some(1.2);
        assert_eq!(preserve(&s), 60_000);
        assert!(emit(Kind::Opencode, &s)
            .expect("emits")
            .note
            .is_some_and(|n| n.contains("1.200 of its tokens")));
    }

    #[test]
    fn the_claude_code_percentage_keeps_its_decimals() {
        // 150,000 of an effective 180,000 is 83.33…%: two decimals, not a whole 84.
        let emitted = emit(Kind::ClaudeCode, &settings(150_000, Some(200_000), None)).expect("emits");
        assert_eq!(value_of(&emitted.text, "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"), Some(83.33));
        assert_eq!(emitted.threshold, Some(149_994));
        assert!(
            emitted.text.contains("CLAUDE_CODE_AUTO_COMPACT_WINDOW=183000"),
            "{}",
            emitted.text
        );
        // A small threshold in a large window takes more decimals.
        let emitted = emit(Kind::ClaudeCode, &settings(1_000, Some(1_000_000), None)).expect("emits");
        assert_eq!(value_of(&emitted.text, "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"), Some(0.102));
    }
}
