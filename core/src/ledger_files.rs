//! The ledger of the session logs at a path, as `ctxlens ledger PATH` and Python's
//! `ctxlens.ledger(path)` read it: the logs found (the file itself, or every `*.jsonl`
//! below a folder, in name order), each loaded whole, ordered oldest first, with the
//! user's review file beside them; and the `ledger` document ([`LedgerDoc`]).

use std::path::{Path, PathBuf};

use crate::error::LoadError;
use crate::ledger::{self, Ledger, Review};
use crate::tokens::{Counts, Tokenizer};
use crate::transcript::{FormatOverride, Transcript};

/// The file of the user's review of a ledger, beside the sessions.
pub const REVIEW_FILE: &str = ".ctxlens-ledger";

/// The session logs under `path` (itself when it is not a folder), in name order: what
/// `ledger` and `backtest` read.
pub fn session_logs(path: &Path) -> crate::Result<Vec<PathBuf>> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let unreadable = |at: &Path, e: std::io::Error| LoadError::whole(&at.display().to_string(), e.to_string());
    let mut found = Vec::new();
    let mut folders = vec![path.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).map_err(|e| unreadable(&folder, e))? {
            let entry = entry.map_err(|e| unreadable(&folder, e))?;
            let kind = entry.file_type().map_err(|e| unreadable(&entry.path(), e))?;
            if kind.is_dir() {
                folders.push(entry.path());
            } else if kind.is_file() && entry.path().extension().is_some_and(|e| e == "jsonl") {
                found.push(entry.path());
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The review at `given`, else [`REVIEW_FILE`] beside the sessions at `sessions` when
/// there is one, else none.
pub fn read_review(given: Option<&Path>, sessions: &Path) -> crate::Result<Review> {
    let beside = if sessions.is_dir() {
        sessions.join(REVIEW_FILE)
    } else {
        sessions.parent().unwrap_or(Path::new(".")).join(REVIEW_FILE)
    };
    let path = match given {
        Some(path) => path.to_path_buf(),
        None if beside.is_file() => beside,
        None => return Ok(Review::default()),
    };
    let name = path.display().to_string();
    let text = std::fs::read_to_string(&path).map_err(|e| LoadError::whole(&name, e.to_string()))?;
    Review::parse(&text).map_err(|(line, e)| {
        let position = crate::error::Position { line, column: 1 };
        LoadError::at(&name, position, e).into()
    })
}

/// The ledger of the session logs at `path` (see [`session_logs`]), oldest session first,
/// under `review`. In a folder, a file that is not a session log is passed over and
/// `skipped` told why; named alone, it is the error.
pub fn ledger_at(
    path: &Path,
    format: Option<FormatOverride>,
    review: &Review,
    skipped: &mut dyn FnMut(&Path, &crate::Error),
) -> crate::Result<Ledger> {
    let mut loaded = Vec::new();
    for file in session_logs(path)? {
        let whole = match Transcript::read(&file, format).and_then(|t| t.whole_session()) {
            Ok(whole) => whole,
            Err(e) if path.is_dir() => {
                skipped(&file, &e.into());
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let counts = Counts::compute(&whole, Tokenizer::Estimate);
        let history = crate::history::history(&whole, &counts);
        let started = whole.line_timestamp(1).unwrap_or_default();
        let project = project_of(&whole, &file);
        loaded.push((started, file.display().to_string(), project, whole, history));
    }
    loaded.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    let sessions: Vec<ledger::Session<'_>> = loaded
        .iter()
        .map(|(_, file, project, whole, history)| ledger::Session {
            file,
            project,
            whole,
            history,
        })
        .collect();
    Ok(ledger::ledger(&sessions, review))
}

/// The project a session belongs to: the folder the agent worked in, as the log records
/// it (Claude Code's `cwd`, Codex's `payload.cwd`), else the folder of the log (Claude
/// Code keeps one per working folder).
fn project_of(whole: &Transcript, file: &Path) -> String {
    whole
        .first_record_field("cwd")
        .or_else(|| file.parent().map(|p| p.display().to_string()))
        .unwrap_or_default()
}

/// The ledger of one session already loaded whole (`history` its epochs), as
/// [`ledger_at`] gives it for that file alone: under the review file beside it, when
/// there is one and it reads (the TUI's `L`).
pub fn session_ledger(whole: &Transcript, history: &crate::history::History) -> Ledger {
    let file = Path::new(whole.source());
    let review = read_review(None, file).unwrap_or_default();
    let project = project_of(whole, file);
    let session = ledger::Session {
        file: whole.source(),
        project: &project,
        whole,
        history,
    };
    ledger::ledger(&[session], &review)
}

/// The `ledger` document.
#[derive(Debug, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LedgerDoc<'a> {
    /// Sessions read.
    sessions: usize,
    /// Compactions in them.
    compactions: usize,
    /// Standing instructions, in the order first given.
    instructions: &'a [ledger::Entry],
}

impl crate::document::Document for LedgerDoc<'_> {
    const NAME: &'static str = "ledger";
}

impl<'a> LedgerDoc<'a> {
    /// The document of `ledger`.
    pub fn of(ledger: &'a Ledger) -> LedgerDoc<'a> {
        LedgerDoc {
            sessions: ledger.sessions,
            compactions: ledger.compaction_count,
            instructions: &ledger.entries,
        }
    }
}
