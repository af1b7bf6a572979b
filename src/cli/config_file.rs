//! `.ctxlens.toml`: settings a user tuned (written by `--emit-config ctxlens` or the
//! TUI), read back with `--config FILE` or from the working directory. Command-line
//! options win over it; it wins over the built-in defaults.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::Context as _;

use ctxlens::compact::{Strategy, SummaryRole};
use ctxlens::error::Position;
use ctxlens::summarize::Spec;
use ctxlens::tokens::Tokenizer;

/// The file's name in the working directory.
pub const FILE_NAME: &str = ".ctxlens.toml";

/// The settings a file holds; every one optional.
#[derive(Debug, Default, Clone, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// `max_tokens`.
    pub max_tokens: Option<u64>,
    /// `keep_tail`.
    pub keep_tail: Option<u64>,
    /// `flush_to_memory`.
    pub flush_to_memory: Option<bool>,
    /// `tail`, `deterministic` or `deterministic,tail`.
    pub strategy: Option<String>,
    /// A tokenizer name.
    pub tokenizer: Option<String>,
    /// A summarizer (`extractive`, `cmd:…`).
    pub summarizer: Option<String>,
    /// `system` or `user`.
    pub summary_role: Option<String>,
    /// The model's context window.
    pub context_window: Option<u64>,
}

/// The file's settings, checked.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Config {
    /// Where they come from (`None`: no file).
    pub path: Option<PathBuf>,
    /// `max_tokens`.
    pub max_tokens: Option<u64>,
    /// `keep_tail`.
    pub keep_tail: Option<u64>,
    /// `flush_to_memory`.
    pub flush_to_memory: Option<bool>,
    /// The strategy.
    pub strategy: Option<Strategy>,
    /// The tokenizer.
    pub tokenizer: Option<Tokenizer>,
    /// The summarizer.
    pub summarizer: Option<Spec>,
    /// The summary's role.
    pub summary_role: Option<SummaryRole>,
    /// The model's context window.
    pub context_window: Option<u64>,
}

static CURRENT: OnceLock<Config> = OnceLock::new();

/// The settings in force (empty until [`load`] ran, and when there is no file).
pub fn current() -> &'static Config {
    CURRENT.get_or_init(Config::default)
}

/// Reads `explicit`, else `./.ctxlens.toml` when it exists, and makes it current. Says
/// on standard error which file it read. A file found implicitly never runs a program:
/// its `cmd:` summarizer is set aside with a warning (anyone who can write a file into
/// a folder must not get to run commands as whoever runs ctxlens there).
pub fn load(explicit: Option<&Path>) -> anyhow::Result<()> {
    let path = match explicit {
        Some(p) => Some(p.to_path_buf()),
        None => Some(PathBuf::from(FILE_NAME)).filter(|p| p.is_file()),
    };
    let config = match path {
        Some(path) => {
            let mut config = parse_file(&path)?;
            eprintln!("ctxlens: settings from {}", path.display());
            if explicit.is_none() {
                if let Some(Spec::Command(line)) = &config.summarizer {
                    eprintln!(
                        "ctxlens: warning: {} sets summarizer = \"cmd:{line}\", which runs a program; a settings file found in the working directory never does: pass --config {} or --summarizer to use it",
                        path.display(),
                        path.display()
                    );
                    config.summarizer = None;
                }
            }
            config
        }
        None => Config::default(),
    };
    let _ = CURRENT.set(config);
    Ok(())
}

/// The largest settings file read (a few hundred bytes is usual; a device such as
/// `/dev/urandom` named by mistake must not be read forever).
const MAX_FILE_BYTES: u64 = 1 << 20;

/// Reads and checks one file.
pub fn parse_file(path: &Path) -> anyhow::Result<Config> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).with_context(|| format!("{}: cannot read", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("{}: cannot read", path.display()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        anyhow::bail!(
            "{}: more than {} KiB: not a settings file",
            path.display(),
            MAX_FILE_BYTES / 1024
        );
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let position = Position::of_offset(&String::from_utf8_lossy(e.as_bytes()), e.utf8_error().valid_up_to());
        anyhow::anyhow!(
            "{}:{}:{}: not UTF-8 text",
            path.display(),
            position.line,
            position.column
        )
    })?;
    let mut config = parse(&path.display().to_string(), &text)?;
    config.path = Some(path.to_path_buf());
    Ok(config)
}

/// Parses a file's text; `source` names it in errors (`FILE:LINE:COL: …`).
pub fn parse(source: &str, text: &str) -> anyhow::Result<Config> {
    let file: ConfigFile = toml::from_str(text).map_err(|e| {
        let at = e.span().map_or(0, |s| s.start);
        let position = Position::of_offset(text, at);
        anyhow::anyhow!("{source}:{}:{}: {}", position.line, position.column, e.message())
    })?;
    let field = |name: &str, e: &dyn std::fmt::Display| anyhow::anyhow!("{source}: {name}: {e}");
    Ok(Config {
        path: None,
        max_tokens: file.max_tokens,
        keep_tail: file.keep_tail,
        flush_to_memory: file.flush_to_memory,
        strategy: file
            .strategy
            .map(|s| s.parse())
            .transpose()
            .map_err(|e| field("strategy", &e))?,
        tokenizer: file
            .tokenizer
            .map(|s| s.parse())
            .transpose()
            .map_err(|e| field("tokenizer", &e))?,
        summarizer: file
            .summarizer
            .map(|s| s.parse())
            .transpose()
            .map_err(|e| field("summarizer", &e))?,
        summary_role: file
            .summary_role
            .map(|s| s.parse())
            .transpose()
            .map_err(|e| field("summary_role", &e))?,
        context_window: file.context_window,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_reads_back_what_emit_config_writes() {
        let settings = ctxlens::agent_config::Settings {
            options: ctxlens::compact::Options {
                max_tokens: 1200,
                keep_tail: Some(300),
                flush_to_memory: true,
            },
            strategy: Strategy::DeterministicThenTail,
            tokenizer: Tokenizer::O200k,
            summarizer: "cmd:python3 \"s.py\"".to_owned(),
            summary_role: SummaryRole::User,
            context_window: Some(200_000),
            calibration: None,
            logged_threshold: None,
            opencode_estimate_ratio: None,
        };
        let text = ctxlens::agent_config::emit(ctxlens::agent_config::Kind::Ctxlens, &settings)
            .unwrap()
            .text;
        let back = parse("t.toml", &text).unwrap();
        assert_eq!(back.max_tokens, Some(1200));
        assert_eq!(back.keep_tail, Some(300));
        assert_eq!(back.flush_to_memory, Some(true));
        assert_eq!(back.strategy, Some(Strategy::DeterministicThenTail));
        assert_eq!(back.tokenizer, Some(Tokenizer::O200k));
        assert_eq!(back.summarizer, Some(Spec::Command("python3 \"s.py\"".to_owned())));
        assert_eq!(back.summary_role, Some(SummaryRole::User));
        assert_eq!(back.context_window, Some(200_000));
    }

    #[test]
    fn errors_name_the_file_and_position() {
        let e = parse("t.toml", "max_tokens = 10\nkeep_tail = \"x\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("t.toml:2:13:"), "{e}");
        let e = parse("t.toml", "max_tokenz = 10\n").unwrap_err().to_string();
        assert!(e.starts_with("t.toml:1:1:") && e.contains("max_tokenz"), "{e}");
        let e = parse("t.toml", "tokenizer = \"gpt2\"\n").unwrap_err().to_string();
        assert!(e.contains("tokenizer") && e.contains("gpt2"), "{e}");
    }
}
