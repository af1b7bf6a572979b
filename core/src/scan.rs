//! Sessions at scale: find the session files under folders (Claude Code projects, Codex
//! rollouts, any transcript), and summarize each — format, messages, tokens, recorded
//! peak, real compactions, orphans, and under given settings the replay's firings and
//! loops — one file at a time, so memory is bounded by the largest session. The command
//! line's `scan` streams these rows; the TUI's session browser lists them.

use std::path::{Path, PathBuf};

use crate::compact::{Options, SummaryRole};
use crate::error::LoadError;
use crate::policy::claude_code::ThresholdQuery;
use crate::replay::{replay, Inputs, View};
use crate::summarize::Placeholder;
use crate::tokens::{Counts, Tokenizer};
use crate::transcript::earlier::EarlierCompaction;
use crate::transcript::Transcript;

/// One row of `scan --json` (each a document of its own, JSON Lines): a session read, or
/// a file that could not be, with why.
#[derive(Debug, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum Row<'a> {
    /// A session.
    Read(&'a Session),
    /// A file that could not be read as a session.
    Unreadable {
        /// The file.
        path: &'a str,
        /// Its name's bytes, base64-encoded, where they are not UTF-8 (see
        /// [`Session::path_base64`]).
        #[serde(skip_serializing_if = "Option::is_none")]
        path_base64: Option<String>,
        /// Why, as one line.
        error: &'a str,
    },
}

impl crate::document::Document for Row<'_> {
    const NAME: &'static str = "scan";
}

/// A file name's bytes, base64-encoded, when they are not UTF-8 (the name as text then
/// holds U+FFFD and cannot be opened again); `None` for a UTF-8 name. As ripgrep's JSON
/// output carries such a path.
pub fn path_base64(path: &Path) -> Option<String> {
    use base64::Engine as _;
    if path.to_str().is_some() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Some(base64::engine::general_purpose::STANDARD.encode(path.as_os_str().as_bytes()))
    }
    #[cfg(not(unix))]
    {
        Some(base64::engine::general_purpose::STANDARD.encode(path.as_os_str().as_encoded_bytes()))
    }
}

/// One session, summarized.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Session {
    /// The file (a name that is not UTF-8 shows U+FFFD where its bytes are not: see
    /// `path_base64`).
    pub path: String,
    /// Where the file's name is not UTF-8: its bytes, base64-encoded (standard alphabet,
    /// padded), the name a consumer can open again. Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_base64: Option<String>,
    /// The project it belongs to: the working directory a log records, else its folder.
    pub project: String,
    /// When it started (the first timestamp a log records), else the file's modification
    /// time, as RFC 3339 (UTC); sorts newest first as text. Empty when neither is known
    /// (standard input): `null` in JSON.
    #[serde(serialize_with = "empty_as_null")]
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    pub started: String,
    /// Its detected format.
    pub format: String,
    /// Messages of the whole session (every epoch).
    pub messages: usize,
    /// Their tokens by the tokenizer (the whole log, every epoch).
    pub tokens: u64,
    /// Tokens of the live context: the epoch after the last compaction (all of them when
    /// it never compacted), what the session's next call carries.
    pub live_tokens: u64,
    /// The first thing the user asked (its first line, cut to 240 characters: a wide
    /// terminal's column is filled, a narrow one cuts it again): a title.
    pub title: String,
    /// The model the log names, when it does.
    pub model: Option<String>,
    /// The last timestamp the log records, else the file's modification time (RFC 3339).
    #[serde(serialize_with = "empty_as_null")]
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    pub last_activity: String,
    /// When the file was last written (RFC 3339; `null` for standard input).
    #[serde(serialize_with = "empty_as_null")]
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    pub modified: String,
    /// The same, in seconds since the Unix epoch (0 when unknown): a session written in the
    /// last minutes is one being written now.
    #[serde(skip)]
    pub modified_unix: u64,
    /// The session's id, when the log records one (Claude Code `sessionId`).
    pub session_id: Option<String>,
    /// For a sub-agent's log (Claude Code `isSidechain`): the id of the session that
    /// started it (its parent's `session_id`).
    pub parent_session: Option<String>,
    /// The largest prompt the provider recorded, when the log records usage.
    pub recorded_peak: Option<u64>,
    /// That peak as a share of the model's context window, in percent, when both are known.
    pub peak_percent_of_window: Option<f64>,
    /// Compactions the log records.
    pub compactions: usize,
    /// Where the session's agent (Claude Code) compacts next, in recorded tokens, as
    /// known at the session's end, when anything says: the same answer `status` gives.
    pub autocompact_at: Option<u64>,
    /// Where `autocompact_at` comes from, in words: this log's compactions, the earlier
    /// sessions of its folder, or the release's rule (`status` says the same).
    pub autocompact_source: Option<String>,
    /// What the log alone knows of where its agent compacts, kept to answer again with
    /// the other sessions of its folder (a scan settles its rows a folder at a time).
    #[serde(skip)]
    pub threshold_query: Option<ThresholdQuery>,
    /// This session's automatic compactions, as evidence for the others of its folder.
    #[serde(skip)]
    pub compactions_seen: Vec<EarlierCompaction>,
    /// Calls without results and results without calls.
    pub orphans: usize,
    /// With settings: how often the compactor would fire over the session's life.
    pub firings: Option<usize>,
    /// With settings: firings still over budget afterwards.
    pub loops: Option<usize>,
    /// What the recorded calls cost, in US dollars, with the shipped price table (the
    /// same figure `stats` gives, see [`crate::cost`]); `None` for a file with no
    /// recorded usage or a model the table does not price.
    pub cost_usd: Option<f64>,
}

/// The extensions of session files.
const EXTENSIONS: [&str; 3] = ["jsonl", "json", "traj"];

/// The session files a scan reads, and what it passed over with the reason.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    /// Session files, sorted, each file once (a file reached by two paths, through a
    /// symbolic link or a link loop, is listed once, under its first path).
    pub files: Vec<PathBuf>,
    /// Paths not read: not a regular file (a FIFO would block the scan forever), an
    /// unreadable or too-long path, a link to a folder (not followed, so no loop).
    pub skipped: Vec<Skipped>,
}

/// A path a scan did not read, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The path.
    pub path: PathBuf,
    /// Why it was not read.
    pub reason: String,
}

impl Found {
    fn skip(&mut self, path: &Path, reason: impl Into<String>) {
        self.skipped.push(Skipped {
            path: path.to_path_buf(),
            reason: reason.into(),
        });
    }
}

/// The session files under `roots`: files as given (`-` is standard input), folders
/// searched recursively for `.jsonl`, `.json` and `.traj`. Never blocks on a path and
/// never loops: only regular files are listed, links to folders are not followed, and
/// each file is listed once.
pub fn session_files(roots: &[PathBuf]) -> Found {
    let mut found = Found::default();
    for root in roots {
        if root.as_os_str() == "-" {
            found.files.push(root.clone());
            continue;
        }
        match std::fs::metadata(root) {
            Ok(meta) if meta.is_dir() => {
                let before = found.files.len();
                walk(root, &mut found);
                // Gemini CLI's and Copilot CLI's folders hold more than their sessions
                // (logs, checkpoints, tool outputs, workspace files): Gemini CLI's are
                // under `<project hash>/chats/`, Copilot CLI's are `<id>/events.jsonl`.
                let keep: Option<fn(&Path) -> bool> = if is_opencode_data(root) {
                    // opencode's data folder: a session is its session file (its messages
                    // and parts are read with it), and each session of its database.
                    found.files.extend(opencode_databases(root));
                    Some(|_| true)
                } else if root.ends_with(".gemini/tmp") {
                    Some(|rel| rel.components().any(|c| c.as_os_str() == "chats"))
                } else if root.ends_with(".copilot/session-state") {
                    Some(|rel| rel.file_name().is_some_and(|name| name == "events.jsonl"))
                } else {
                    None
                };
                if let Some(keep) = keep {
                    let mut under = found.files.split_off(before);
                    under.retain(|path| {
                        path.strip_prefix(root).is_ok_and(keep)
                            && (!is_opencode_data(root) || is_opencode_session(path))
                    });
                    found.files.extend(under);
                }
            }
            Ok(meta) if meta.is_file() && crate::transcript::opencode_store::is_database(root) => {
                found.files.extend(database_session_paths(root));
            }
            Ok(meta) if meta.is_file() => found.files.push(root.clone()),
            Ok(meta) => found.skip(root, not_regular(&meta)),
            Err(e) => found.skip(root, format!("cannot read: {e}")),
        }
    }
    found.files.sort();
    found.files.dedup();
    let mut seen = rustc_hash::FxHashSet::default();
    found.files.retain(|path| match file_identity(path) {
        Some(id) => seen.insert(id),
        None => true,
    });
    found.skipped.sort_by(|a, b| a.path.cmp(&b.path));
    found.skipped.dedup();
    found
}

/// opencode's data folder (`~/.local/share/opencode`) or its storage tree under it.
fn is_opencode_data(root: &Path) -> bool {
    crate::transcript::opencode_store::is_data_folder(root)
}

/// A session file of an opencode storage tree, or an address of a database's session:
/// what opencode's data folder holds that is a session.
fn is_opencode_session(path: &Path) -> bool {
    crate::transcript::opencode_store::Store::of(path).is_some()
}

/// The sessions of the databases right in opencode's data folder.
fn opencode_databases(root: &Path) -> Vec<PathBuf> {
    crate::transcript::opencode_store::databases_in(root)
        .iter()
        .flat_map(|db| database_session_paths(db))
        .collect()
}

/// Each session of an opencode database, as `file#ses_…` (the database itself when its
/// sessions cannot be listed: reading it then says why).
fn database_session_paths(db: &Path) -> Vec<PathBuf> {
    let sessions = crate::transcript::opencode_store::database_sessions(db);
    if sessions.is_empty() {
        return vec![db.to_path_buf()];
    }
    sessions
        .into_iter()
        .map(|id| {
            let mut address = db.as_os_str().to_owned();
            address.push("#");
            address.push(id);
            PathBuf::from(address)
        })
        .collect()
}

/// What a path that is neither a folder nor a regular file is.
fn not_regular(meta: &std::fs::Metadata) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = meta.file_type();
        let what = if kind.is_fifo() {
            "a FIFO"
        } else if kind.is_socket() {
            "a socket"
        } else if kind.is_char_device() || kind.is_block_device() {
            "a device"
        } else {
            "not a regular file"
        };
        format!("{what}, not a session file: not read")
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        "not a regular file: not read".to_owned()
    }
}

/// The file a path names, whichever link led to it: device and inode on Unix.
fn file_identity(path: &Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

fn has_session_extension(path: &Path) -> bool {
    let extension = |p: &Path| p.extension().and_then(|e| e.to_str()).map(str::to_owned);
    match extension(path).as_deref() {
        // `session.jsonl.gz`, `rollout.jsonl.zst`: a compressed session, by its inner name.
        Some("gz" | "zst") => path
            .file_stem()
            .and_then(|stem| extension(Path::new(stem)))
            .is_some_and(|e| EXTENSIONS.contains(&e.as_str())),
        Some(e) => EXTENSIONS.contains(&e),
        None => false,
    }
}

fn walk(dir: &Path, found: &mut Found) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => return found.skip(dir, format!("folder not read: {e}")),
    };
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                found.skip(dir, format!("folder not read to its end: {e}"));
                continue;
            }
        };
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            found.skip(&path, "cannot tell what it is: not read");
            continue;
        };
        if kind.is_dir() {
            walk(&path, found);
        } else if kind.is_symlink() {
            // Links to files are followed (each file is listed once, by identity); links
            // to folders are not, so a link loop cannot loop the walk.
            let target = std::fs::metadata(&path);
            match target {
                Ok(meta) if meta.is_dir() => found.skip(&path, "link to a folder: not followed"),
                _ if !has_session_extension(&path) => {}
                Ok(meta) if meta.is_file() => found.files.push(path),
                Ok(meta) => found.skip(&path, not_regular(&meta)),
                Err(e) => found.skip(&path, format!("broken link: {e}")),
            }
        } else if has_session_extension(&path) {
            if kind.is_file() {
                found.files.push(path);
            } else if let Ok(meta) = entry.metadata() {
                found.skip(&path, not_regular(&meta));
            }
        }
    }
}

/// Where a user's sessions live, when they exist: `~/.claude/projects` (Claude Code),
/// `~/.codex/sessions` (Codex), `~/.gemini/tmp` (Gemini CLI, its `chats` folders),
/// `~/.copilot/session-state` (Copilot CLI) and opencode's data folder
/// (`$XDG_DATA_HOME/opencode`, by default `~/.local/share/opencode`: its storage tree's
/// session files and its database's sessions).
pub fn default_session_dirs() -> Vec<PathBuf> {
    let Some(home) = std::env::var_os("HOME").map(PathBuf::from) else {
        return Vec::new();
    };
    [
        home.join(".claude/projects"),
        home.join(".codex/sessions"),
        home.join(".gemini/tmp"),
        home.join(".copilot/session-state"),
        std::env::var_os("XDG_DATA_HOME")
            .map_or_else(|| home.join(".local/share"), PathBuf::from)
            .join(crate::transcript::opencode_store::DATA_FOLDER),
    ]
    .into_iter()
    .filter(|d| d.is_dir())
    .collect()
}

/// Summarizes the session in `path`; with `options`, replays it too (placeholder-sized
/// summaries: the firings and loops, not the summaries, are what a scan reports).
pub fn scan_file(path: &Path, tokenizer: Tokenizer, options: Option<Options>) -> Result<Session, LoadError> {
    scan_read(path, tokenizer, options).map(|read| read.session)
}

/// A session's row with what it was made from, so the next scan of the file, once it has
/// grown, reads only what was appended ([`rescan_grown`]).
#[derive(Debug, Clone)]
pub struct ScanRead {
    /// The row.
    pub session: Session,
    /// The whole session as read.
    pub whole: std::sync::Arc<Transcript>,
    /// Its counts.
    pub counts: std::sync::Arc<Counts>,
    /// The file's state when it was read.
    pub state: crate::follow::FileState,
}

/// [`scan_file`], keeping what the row was made from.
pub fn scan_read(path: &Path, tokenizer: Tokenizer, options: Option<Options>) -> Result<ScanRead, LoadError> {
    // The state first: a write that lands while this reads is seen by the next look.
    // Standard input has none (it is read once, and never grows under a scan).
    let state = if path.as_os_str() == "-" {
        crate::follow::FileState {
            len: 0,
            identity: None,
            modified: 0,
        }
    } else {
        crate::follow::FileState::of(path).map_err(|e| LoadError::whole(&path.display().to_string(), e.to_string()))?
    };
    let whole = Transcript::read_whole(path)?;
    let counts = Counts::compute(&whole, tokenizer);
    let session = session_of(path, &whole, &counts, options)?;
    Ok(ScanRead {
        session,
        whole: std::sync::Arc::new(whole),
        counts: std::sync::Arc::new(counts),
        state,
    })
}

/// The row of a session log that only grew since `previous` was read: the appended
/// records read on (see [`Transcript::appended`]); `None` when the file did not only
/// grow or only a whole read can say what it holds now.
pub fn rescan_grown(path: &Path, previous: &ScanRead, options: Option<Options>) -> Option<ScanRead> {
    let state = crate::follow::FileState::of(path).ok()?;
    if previous.state.change_to(&state) != crate::follow::Change::Grew {
        return None;
    }
    let appended = crate::follow::lines_after(path, previous.whole.text().len() as u64)?;
    let (whole, kept) = previous.whole.appended(&appended)?;
    let counts = previous.counts.extended(&whole, kept);
    let session = session_of(path, &whole, &counts, options).ok()?;
    // What was read ends at the last complete line: a line still being written is
    // read, whole, by the next look.
    Some(ScanRead {
        session,
        whole: std::sync::Arc::new(whole),
        counts: std::sync::Arc::new(counts),
        state: crate::follow::FileState {
            len: previous.whole.text().len() as u64 + appended.len() as u64,
            ..state
        },
    })
}

/// The row of the session `whole` (read from `path`, counted by `counts`).
fn session_of(
    path: &Path,
    whole: &Transcript,
    counts: &Counts,
    options: Option<Options>,
) -> Result<Session, LoadError> {
    let (firings, loops) = match options {
        Some(options) => {
            let view = View::new(whole.clone(), counts.clone());
            let outcome = replay(&Inputs {
                view: &view,
                options,
                summary_role: SummaryRole::System,
                cuts_a_tail: true,
                summarizer: &Placeholder,
                cancel: crate::cancel::never(),
                progress: None,
            })
            .map_err(|e| LoadError::whole(&path.display().to_string(), e.to_string()))?;
            (Some(outcome.firings.len()), Some(outcome.loops))
        }
        None => (None, None),
    };
    let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let recorded_peak = whole
        .messages
        .iter()
        .filter_map(|m| m.recorded().map(|r| r.context_tokens()))
        .max();
    let model = whole.model.clone();
    let window = model.as_deref().and_then(crate::models::window_of);
    // The live epoch starts at the last compaction's summary (or the message after it).
    let live_from = whole
        .compactions
        .last()
        .map_or(0, |c| c.summary_message.map_or(c.at, |s| s.min(c.at)));
    // Where its agent compacts next, from the log alone here; the other sessions of its
    // folder are asked once they are read too (see the scan_folders module).
    let end = whole.messages().len();
    // The clock walks back through records: read only where other sessions may answer.
    let threshold_query = ThresholdQuery::of(whole, end, None).map(|q| {
        if q.answered_by_the_log() {
            q
        } else {
            q.at(whole.time_before(end))
        }
    });
    let threshold = threshold_query.as_ref().and_then(|q| q.answer(&[]));
    let compactions_seen = if whole.format().container == crate::transcript::Container::ClaudeCode {
        crate::transcript::earlier::of_session(whole, path, true, false)
    } else {
        Vec::new()
    };
    Ok(Session {
        path: if path.as_os_str() == "-" {
            "<stdin>".to_owned()
        } else {
            path.display().to_string()
        },
        path_base64: path_base64(path),
        project: project_of(whole, path),
        started: started_of(whole, path),
        format: whole.format.name().to_owned(),
        messages: whole.messages.len(),
        tokens: counts.total(),
        live_tokens: counts.suffix(live_from),
        title: title_of(whole),
        last_activity: last_activity_of(whole, path),
        modified: modified.map_or_else(String::new, crate::text::rfc3339),
        modified_unix: modified
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_secs()),
        session_id: whole.first_record_field("sessionId"),
        parent_session: parent_of(whole),
        model,
        peak_percent_of_window: recorded_peak
            .zip(window)
            .map(|(peak, w)| (peak as f64 * 1000.0 / w.tokens as f64).round() / 10.0),
        recorded_peak,
        compactions: whole.compactions.len(),
        autocompact_at: threshold.as_ref().map(|(at, _)| *at),
        autocompact_source: threshold.map(|(_, source)| source),
        threshold_query,
        compactions_seen,
        orphans: whole.groups.orphans.len(),
        firings,
        loops,
        cost_usd: crate::cost::session_cost(whole, crate::cost::PriceTable::builtin()).and_then(|c| c.complete_total()),
    })
}

/// What the user first asked: the first line of a human turn that is the user's words
/// (not what a client wraps around them or injects as a user message: a system reminder,
/// Codex's AGENTS.md, `loss::turns::user_words`) and not markup (`<pr_description>`), cut
/// to 240 characters; else the first turn's first line.
fn title_of(transcript: &Transcript) -> String {
    const TITLE_CHARS: usize = 240;
    let is_markup = |line: &str| line.starts_with('<') && line.ends_with('>');
    let turns: Vec<String> = transcript
        .boundaries
        .iter()
        .take(20)
        .map(|&i| transcript.readable_text(i))
        .collect();
    let first_line = |text: &str| {
        text.lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !is_markup(l))
            .map(str::to_owned)
    };
    let words = turns
        .iter()
        .find_map(|text| crate::loss::turns::user_words(text).as_deref().and_then(first_line))
        .or_else(|| turns.iter().find_map(|text| first_line(text)));
    let line = words.or_else(|| {
        turns
            .iter()
            .flat_map(|t| t.lines().map(str::trim))
            .find(|l| !l.is_empty())
            .map(str::to_owned)
    });
    line.map(|l| crate::transcript::Message::cut_preview(&l, TITLE_CHARS).into_owned())
        .unwrap_or_default()
}

fn last_activity_of(transcript: &Transcript, path: &Path) -> String {
    transcript.last_record_field("timestamp").unwrap_or_else(|| {
        std::fs::metadata(path)
            .and_then(|m| m.modified())
            .map_or_else(|_| String::new(), crate::text::rfc3339)
    })
}

/// A Claude Code sub-agent's log (its records are `isSidechain`) names the session that
/// started it by `sessionId`.
fn parent_of(transcript: &Transcript) -> Option<String> {
    let record = transcript.log_records.first()?;
    let value: serde_json::Value = serde_json::from_str(&transcript.text[record.range.clone()]).ok()?;
    if value.get("isSidechain").and_then(serde_json::Value::as_bool) != Some(true) {
        return None;
    }
    value
        .get("sessionId")
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned)
}

fn project_of(transcript: &Transcript, path: &Path) -> String {
    let opencode_directory = transcript.session_info().and_then(|info| {
        info.get("directory")
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned)
    });
    opencode_directory
        .or_else(|| transcript.first_record_field("cwd"))
        .unwrap_or_else(|| {
            path.parent()
                .and_then(Path::file_name)
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        })
}

fn started_of(transcript: &Transcript, path: &Path) -> String {
    let opencode_created = transcript.session_info().and_then(|info| {
        let ms = info.pointer("/time/created")?.as_u64()?;
        Some(crate::text::rfc3339(
            std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms),
        ))
    });
    opencode_created
        .or_else(|| transcript.first_record_field("timestamp"))
        .unwrap_or_else(|| {
            std::fs::metadata(path)
                .and_then(|m| m.modified())
                .map_or_else(|_| String::new(), crate::text::rfc3339)
        })
}

/// An empty text as JSON `null` (a time nobody knows is not a time).
fn empty_as_null<S: serde::Serializer>(text: &str, serializer: S) -> Result<S::Ok, S::Error> {
    if text.is_empty() {
        serializer.serialize_none()
    } else {
        serializer.serialize_str(text)
    }
}

/// A start time for a table: `2026-05-11 10:29` (to the minute).
pub fn short_time(started: &str) -> String {
    started.get(..16).unwrap_or(started).replacen('T', " ", 1)
}
