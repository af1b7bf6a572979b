//! `ctxlens status FILE|DIR`: one line for a status bar (tmux, an agent's status line):
//! how full the context is and how far the next compaction is. A folder means its most
//! recently written session. The figures are the core's context meter
//! ([`ctxlens::meter`]), which the TUI shows too while it follows a growing log.
//!
//! A status bar asks every few seconds: the answer for a file is kept in the user's cache
//! folder (`$XDG_CACHE_HOME/ctxlens/status/`, else `~/.cache/ctxlens/status/`) with the
//! file's size, modification time and identity, and given again while they are unchanged
//! (no read of the log at all). A Claude Code log that grew since is read on from where
//! the kept answer stopped (its new lines only, `Meter::read_on`); anything else that
//! changed is read again whole.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::{Deserialize, Serialize};

use ctxlens::meter::{Meter, MeterState};
use ctxlens::tokens::Counts;
use ctxlens::transcript::Transcript;

/// `ctxlens status`.
#[derive(Debug, clap::Args)]
pub struct StatusArgs {
    /// A session file, a folder (its most recently written session), or `-` for
    /// standard input.
    path: PathBuf,
    /// The line to print, with {pct} {tokens} {window} {threshold} {left} {calls} {model}
    /// {file} filled in [default: "{pct}% of {window} · compaction in {left} (≈{calls}
    /// calls)", its parts known only when known; "… · no automatic compaction" for an
    /// agent without one].
    #[arg(long, value_name = "TEMPLATE")]
    template: Option<String>,
    /// The old name of --template (kept for one release; it warns).
    #[arg(long = "format", value_name = "TEMPLATE", hide = true, conflicts_with = "template")]
    format_old: Option<String>,
    /// The model's context window (default: the window of the model the log names).
    #[arg(long, value_name = "N")]
    context_window: Option<u64>,
    /// Where the user's earlier sessions are, whose compactions show the agent's
    /// threshold when the log has none of its own yet: a folder, or `none` [default: the
    /// log's own folder, then ~/.claude/projects].
    #[arg(long, value_name = "DIR|none")]
    thresholds_from: Option<String>,
    /// Print JSON instead of the line.
    #[arg(long)]
    json: bool,
}

/// The placeholders a template may use.
const PLACEHOLDERS: [&str; 8] = ["pct", "tokens", "window", "threshold", "left", "calls", "model", "file"];

/// The template asked for (`--template`, or the old `--format` with a warning), checked:
/// an unknown placeholder is an error naming the ones there are.
fn template_of(args: &StatusArgs) -> anyhow::Result<Option<String>> {
    let template = match (&args.template, &args.format_old) {
        (Some(t), _) => Some(t.clone()),
        (None, Some(t)) => {
            eprintln!(
                "ctxlens: status --format is now --template (--format means an input format elsewhere); it will go"
            );
            Some(t.clone())
        }
        (None, None) => None,
    };
    if let Some(t) = &template {
        let mut rest = t.as_str();
        while let Some(open) = rest.find('{') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else { break };
            let name = &after[..close];
            if !PLACEHOLDERS.contains(&name) {
                let known: Vec<String> = PLACEHOLDERS.iter().map(|p| format!("{{{p}}}")).collect();
                anyhow::bail!(
                    "--template: unknown placeholder {{{name}}} (one of {})",
                    known.join(" ")
                );
            }
            rest = &after[close + 1..];
        }
    }
    Ok(template)
}

/// The default line: the parts that are known, and what this agent does.
fn default_line(s: &Status) -> String {
    let m = &s.meter;
    let short = ctxlens::text::short_count;
    let assumed = if m.window_from == ctxlens::meter::ASSUMED_WINDOW {
        " (window assumed)"
    } else {
        ""
    };
    let head = format!("{}% of {}{assumed}", m.pct, short(m.window));
    if !m.compacts {
        return format!("{head} · no automatic compaction");
    }
    if m.threshold_from == ctxlens::meter::UNPUBLISHED_THRESHOLD {
        return format!("{head} · compacts on its own at a threshold it does not publish");
    }
    match m.calls {
        Some(calls) => format!("{head} · compaction in {} (≈{calls} calls)", short(m.left)),
        None => format!("{head} · compaction in {}", short(m.left)),
    }
}

/// What the line says: the file and its meter (`ctxlens::meter`, the document).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub(super) struct Status {
    /// Written in front by the JSON writer, with the schema.
    #[serde(skip)]
    file: String,
    #[serde(flatten)]
    meter: Meter,
}

pub fn run(args: &StatusArgs) -> anyhow::Result<ExitCode> {
    let template = template_of(args)?;
    let file = session_of(&args.path)?;
    let cache = Cache::for_file(&file, args.context_window);
    let kept = cache.as_ref().and_then(Cache::read);
    let status = match kept {
        // Unchanged since the last call: the kept answer (the file's name as given this
        // time; the cache is keyed by the file, not by how it was named).
        Some(kept) if kept.same => Status {
            file: file.display().to_string(),
            ..kept.status
        },
        // Grown since: its new lines only, when the kept state can read on.
        kept => {
            let read_on = kept.and_then(|kept| read_on(&file, &kept));
            let (status, state) = if let Some(done) = read_on {
                done
            } else {
                let transcript = Transcript::read(&file, None)?
                    .with_earlier_sessions(super::args::earlier_sessions(&file, args.thresholds_from.as_deref()));
                // Counted with the estimate (fast): the provider's own count is the
                // recorded one whenever the log has it.
                status_of(&transcript, ctxlens::tokens::Tokenizer::Estimate, args.context_window)
            };
            if let Some(cache) = &cache {
                cache.write(&status, state);
            }
            status
        }
    };
    if args.json {
        let mut out = std::io::stdout().lock();
        super::json_out::write(&mut out, &status.file, &status.meter, false)?;
        std::io::Write::write_all(&mut out, b"\n")?;
    } else {
        match &template {
            Some(t) => println!("{}", fill(t, &status)),
            None => println!("{}", default_line(&status)),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `path`, or for a folder its most recently modified session file.
fn session_of(path: &Path) -> anyhow::Result<PathBuf> {
    if !path.is_dir() {
        // A status bar calls this every few seconds: a pipe or a device would block it.
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            anyhow::bail!(
                "{}: not a session file (a pipe or a device): status reads a file or a folder",
                path.display()
            );
        }
        return Ok(path.to_owned());
    }
    let found = ctxlens::scan::session_files(&[path.to_owned()]);
    found
        .files
        .into_iter()
        .filter_map(|f| Some((std::fs::metadata(&f).ok()?.modified().ok()?, f)))
        .max()
        .map(|(_, f)| f)
        .ok_or_else(|| anyhow::anyhow!("no session files under {}", path.display()))
}

fn status_of(
    transcript: &Transcript,
    tokenizer: ctxlens::tokens::Tokenizer,
    window: Option<u64>,
) -> (Status, Option<MeterState>) {
    let counts = Counts::compute(transcript, tokenizer);
    let meter = ctxlens::meter::meter(transcript, &counts, window);
    let state = meter.state(transcript);
    let status = Status {
        file: transcript.source().to_owned(),
        meter,
    };
    (status, state)
}

/// The kept answer brought up to date with the lines written since (a log that only grew:
/// the same file, longer), or `None` when only a whole read will do: another file at the
/// path, one cut short or emptied in place, or rewritten at the same size
/// ([`ctxlens::follow::FileState::change_to`]).
fn read_on(file: &Path, kept: &Kept) -> Option<(Status, Option<MeterState>)> {
    let state = kept.state.as_ref()?;
    let now = ctxlens::follow::FileState::of(file).ok()?;
    if kept.file.change_to(&now) != ctxlens::follow::Change::Grew {
        return None;
    }
    let appended = ctxlens::follow::lines_after(file, state.read_to)?;
    let (meter, next) = kept.status.meter.read_on(state, &appended)?;
    let status = Status {
        file: file.display().to_string(),
        meter,
    };
    Some((status, Some(next)))
}

/// Where the answer for one file is kept, and what the file was when it was made.
struct Cache {
    /// The cache file.
    path: PathBuf,
    /// The session file's size, modification time and the `--context-window` asked.
    key: (u64, u128, Option<u64>),
    /// The session file's identity (another file at the same path is read whole).
    identity: Option<(u64, u64)>,
    /// The program that answers: its size and modification time.
    program: Option<(u64, u128)>,
}

/// What a cache file holds.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
struct Cached {
    key: (u64, u128, Option<u64>),
    identity: Option<(u64, u64)>,
    /// The program that made the answer (absent: an older one, whose answer is not used).
    #[serde(default)]
    program: Option<(u64, u128)>,
    status: Status,
    /// What reads on from the answer (a Claude Code log with recorded usage).
    state: Option<MeterState>,
}

/// A kept answer.
struct Kept {
    status: Status,
    state: Option<MeterState>,
    /// The file when the answer was made.
    file: ctxlens::follow::FileState,
    /// The file is as it was when the answer was made.
    same: bool,
}

impl Cache {
    /// The cache entry for `file` (`None` for standard input, or with no cache folder).
    fn for_file(file: &Path, window: Option<u64>) -> Option<Cache> {
        use std::hash::{Hash, Hasher};
        let meta = std::fs::metadata(file).ok().filter(std::fs::Metadata::is_file)?;
        let modified = meta
            .modified()
            .ok()?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?
            .as_nanos();
        let folder = std::env::var_os("XDG_CACHE_HOME")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?
            .join("ctxlens/status");
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        std::fs::canonicalize(file).ok()?.hash(&mut hasher);
        Some(Cache {
            path: folder.join(format!("{:016x}.json", hasher.finish())),
            key: (meta.len(), modified, window),
            identity: ctxlens::follow::FileState::of(file).ok().and_then(|s| s.identity),
            program: program(),
        })
    }

    /// The answer kept for this file and window, if any, and whether the file is unchanged.
    fn read(&self) -> Option<Kept> {
        let cached: Cached = serde_json::from_slice(&std::fs::read(&self.path).ok()?).ok()?;
        // Another build of ctxlens may read the same file otherwise (a new format read,
        // a rule fixed): its answer is not this one's, whatever the file.
        let same_program = self.program.is_some() && cached.program == self.program;
        (same_program && cached.key.2 == self.key.2).then(|| Kept {
            same: cached.key == self.key && cached.identity == self.identity,
            status: cached.status,
            state: cached.state,
            file: ctxlens::follow::FileState {
                len: cached.key.0,
                identity: cached.identity,
                modified: cached.key.1,
            },
        })
    }

    /// Keeps `status` (and what reads on from it) for the file as it is now; a cache that
    /// cannot be written is only a slower next call.
    fn write(&self, status: &Status, state: Option<MeterState>) {
        let cached = Cached {
            key: self.key,
            identity: self.identity,
            program: self.program,
            status: status.clone(),
            state,
        };
        if let (Some(folder), Ok(text)) = (self.path.parent(), serde_json::to_vec(&cached)) {
            let _ = std::fs::create_dir_all(folder);
            let _ = ctxlens::export::write_atomic(&self.path, &text, None, true);
        }
    }
}

/// The running program's size and modification time: what tells one build of ctxlens
/// from another (the version alone does not change between builds); `None` when the
/// program cannot be found, and then nothing is read from the cache.
fn program() -> Option<(u64, u128)> {
    let meta = std::fs::metadata(std::env::current_exe().ok()?).ok()?;
    let modified = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
    Some((meta.len(), modified.as_nanos()))
}

/// `template` with the status's fields filled in.
fn fill(template: &str, s: &Status) -> String {
    let m = &s.meter;
    let short = ctxlens::text::short_count;
    template
        .replace("{pct}", &m.pct.to_string())
        .replace("{tokens}", &short(m.tokens))
        .replace("{window}", &short(m.window))
        .replace("{threshold}", &short(m.threshold))
        .replace("{left}", &short(m.left))
        .replace("{calls}", &m.calls.map_or_else(|| "?".to_owned(), |c| c.to_string()))
        .replace("{model}", m.model.as_deref().unwrap_or("?"))
        .replace("{file}", &s.file)
}
