//! Where opencode keeps a session, made into the one document its reader reads (what
//! `opencode export` prints, `{info, messages: [{info, parts}]}`):
//! - the storage tree of releases up to v1.1.65 (`~/.local/share/opencode/storage/`):
//!   `session/<project>/<ses_id>.json`, then `message/<ses_id>/<msg_id>.json` and
//!   `part/<msg_id>/<prt_id>.json`, each read in ID order (anomalyco/opencode
//!   `storage/storage.ts` and `session/index.ts` at 34ebe814). The user names the session
//!   file; an error names the file of the tree it is in;
//! - the SQLite database of v1.2.0 on (`opencode.db`): the `session`, `message` and `part`
//!   tables, whose `data` column holds the same JSON less its IDs (`session/session.sql.ts`
//!   at ffc000de). `opencode.db` is its most recently updated session, `opencode.db#ses_…`
//!   another one. It is opened read-only, in one read transaction, while opencode may be
//!   writing it (WAL mode lets a reader see the last commit). Behind the `opencode-db`
//!   feature: the SQLite library is compiled in.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::format::json_error;
use super::source_text::SourceText;
use crate::error::LoadError;

/// The first bytes of every SQLite database file.
const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// The name of opencode's data folder (`$XDG_DATA_HOME/opencode`, by default
/// `~/.local/share/opencode`): its storage tree is `storage/` in it, its databases
/// `opencode.db` and `opencode-<channel>.db` (v1.2.0 `storage/db.ts`).
pub const DATA_FOLDER: &str = "opencode";

/// Whether `root` is opencode's data folder (named so, holding its storage tree or a
/// database) or the storage tree in it (holding `session/`): a project folder that only
/// happens to be called `opencode` is not.
pub fn is_data_folder(root: &Path) -> bool {
    if root.ends_with(Path::new(DATA_FOLDER).join("storage")) {
        return root.join("session").is_dir();
    }
    root.ends_with(DATA_FOLDER) && (root.join("storage").join("session").is_dir() || !databases_in(root).is_empty())
}

/// The databases right in opencode's data folder `root`, by name.
pub fn databases_in(root: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut databases: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(DATA_FOLDER))
                && p.extension().is_some_and(|x| x.eq_ignore_ascii_case("db"))
                && is_database(p)
        })
        .collect();
    databases.sort();
    databases
}

/// An opencode session store a path names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Store {
    /// A session file of the storage tree (`…/storage/session/<project>/<ses_id>.json`).
    Tree(PathBuf),
    /// A database, and the session asked for (`None`: the most recently updated).
    Database {
        /// The database file.
        file: PathBuf,
        /// The session, when the path names one after `#`.
        session: Option<String>,
    },
}

impl Store {
    /// The store `path` names, when it names one: a session file of a storage tree with
    /// its `message/` folder beside `session/`, or a SQLite file (optionally
    /// `file#ses_…`).
    pub fn of(path: &Path) -> Option<Store> {
        if let Some((file, session)) = database_address(path) {
            return Some(Store::Database { file, session });
        }
        let name = path.file_name()?.to_str()?;
        let id = name.strip_prefix("ses_").and_then(|_| name.strip_suffix(".json"))?;
        // `…/storage/session/<project>/ses_….json`, `…/storage/message/` beside `session/`.
        let sessions = path.parent()?.parent()?;
        (sessions.file_name()? == "session" && sessions.parent()?.join("message").is_dir() && !id.is_empty())
            .then(|| Store::Tree(path.to_path_buf()))
    }

    /// The file whose changes say the session changed.
    pub fn file(&self) -> &Path {
        match self {
            Store::Tree(file) | Store::Database { file, .. } => file,
        }
    }

    /// The files and folders whose change says the session changed: a database and its
    /// write-ahead log; a tree's session file and its message folder (a message added),
    /// and each message's part folder (a part added or rewritten).
    pub fn watched(&self) -> Vec<PathBuf> {
        match self {
            Store::Database { file, .. } => {
                let mut wal = file.clone().into_os_string();
                wal.push("-wal");
                vec![file.clone(), PathBuf::from(wal)]
            }
            Store::Tree(file) => {
                let mut watched = vec![file.clone()];
                if let (Some(id), Some(storage)) = (
                    file.file_stem(),
                    file.parent().and_then(Path::parent).and_then(Path::parent),
                ) {
                    let messages = storage.join("message").join(id);
                    for message in json_files(&messages).unwrap_or_default() {
                        if let Some(message_id) = message.file_stem() {
                            watched.push(storage.join("part").join(message_id));
                        }
                        watched.push(message);
                    }
                    watched.push(messages);
                }
                watched
            }
        }
    }

    /// The session as one document: the name errors give it and its text.
    pub fn read(&self, shown: &Path) -> Result<(String, SourceText), LoadError> {
        let source = shown.display().to_string();
        let document = match self {
            Store::Tree(file) => tree_document(file)?,
            Store::Database { file, session } => database::document(&source, file, session.as_deref())?,
        };
        let text = serde_json::to_string_pretty(&document).map_err(|e| LoadError::whole(&source, e.to_string()))?;
        Ok((source, SourceText::from_string(text)))
    }
}

/// A path naming a SQLite file, itself or as `file#session`: the file and the session.
/// Only a name a database goes by (`.db`, `.sqlite`, `.sqlite3`) is opened to look: every
/// file a scan reads asks this, and a session log is never opened twice for it.
fn database_address(path: &Path) -> Option<(PathBuf, Option<String>)> {
    if has_database_name(path) && is_database(path) {
        return Some((path.to_path_buf(), None));
    }
    let text = path.to_str()?;
    let (file, session) = text.rsplit_once('#')?;
    let file = PathBuf::from(file);
    (session.starts_with("ses_") && has_database_name(&file) && is_database(&file))
        .then(|| (file, Some(session.to_owned())))
}

/// Whether `path` has a name a database file goes by.
fn has_database_name(path: &Path) -> bool {
    path.extension()
        .and_then(|x| x.to_str())
        .is_some_and(|x| ["db", "sqlite", "sqlite3"].iter().any(|d| x.eq_ignore_ascii_case(d)))
}

/// Whether `path` is a SQLite database file (by its first bytes).
pub fn is_database(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 16];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok_and(|()| &magic == SQLITE_MAGIC)
}

/// One JSON file of the tree, its errors naming it.
fn read_json(path: &Path) -> Result<Value, LoadError> {
    let source = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| LoadError::whole(&source, format!("cannot read: {e}")))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| json_error(&source, &text, 0, &e))?;
    if !value.is_object() {
        return Err(LoadError::whole(
            &source,
            "an opencode storage file must hold a JSON object",
        ));
    }
    Ok(value)
}

/// The `.json` files of `folder`, in name (ID) order; none when it does not exist.
fn json_files(folder: &Path) -> Result<Vec<PathBuf>, LoadError> {
    let entries = match std::fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(LoadError::whole(
                &folder.display().to_string(),
                format!("cannot read: {e}"),
            ))
        }
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Ok(files)
}

/// The storage tree's session `session_file` as an export document.
fn tree_document(session_file: &Path) -> Result<Value, LoadError> {
    let info = read_json(session_file)?;
    let id = session_file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_owned();
    // `…/storage/session/<project>/<ses>.json`: the storage root is three folders up.
    let storage = session_file
        .parent()
        .and_then(Path::parent)
        .and_then(Path::parent)
        .unwrap_or(Path::new("."));
    let mut messages = Vec::new();
    for message_file in json_files(&storage.join("message").join(&id))? {
        let message = read_json(&message_file)?;
        let message_id = message_file.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        let parts = json_files(&storage.join("part").join(message_id))?
            .iter()
            .map(|p| read_json(p))
            .collect::<Result<Vec<_>, _>>()?;
        messages.push(json!({ "info": message, "parts": parts }));
    }
    Ok(json!({ "info": info, "messages": messages }))
}

/// The sessions a database holds, newest update first: what `scan` lists as
/// `file#ses_…` (empty without the `opencode-db` feature or when it cannot be read).
pub fn database_sessions(file: &Path) -> Vec<String> {
    database::sessions(file).unwrap_or_default()
}

#[cfg(feature = "opencode-db")]
mod database {
    //! The SQLite reads, with the `opencode-db` feature.

    use std::path::Path;

    use rusqlite::{Connection, OpenFlags, OptionalExtension};
    use serde_json::{json, Value};

    use crate::error::LoadError;

    /// How long a read waits for a writer's checkpoint to end.
    const BUSY: std::time::Duration = std::time::Duration::from_secs(5);

    fn open(source: &str, file: &Path) -> Result<Connection, LoadError> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI;
        let connection = Connection::open_with_flags(file, flags).map_err(|e| failed(source, &e))?;
        connection.busy_timeout(BUSY).map_err(|e| failed(source, &e))?;
        Ok(connection)
    }

    fn failed(source: &str, e: &rusqlite::Error) -> LoadError {
        LoadError::whole(source, format!("cannot read the opencode database: {e}"))
    }

    /// A row's `data` JSON with the IDs its columns hold put back.
    fn with_ids(source: &str, data: &str, ids: &[(&str, String)]) -> Result<Value, LoadError> {
        let mut value: Value = serde_json::from_str(data)
            .map_err(|e| LoadError::whole(source, format!("a row's `data` is not JSON: {e}")))?;
        let object = value
            .as_object_mut()
            .ok_or_else(|| LoadError::whole(source, "a row's `data` is not a JSON object"))?;
        for (key, id) in ids {
            object.insert((*key).to_owned(), Value::String(id.clone()));
        }
        Ok(value)
    }

    pub(super) fn sessions(file: &Path) -> Result<Vec<String>, LoadError> {
        let source = file.display().to_string();
        let connection = open(&source, file)?;
        let mut statement = connection
            .prepare("SELECT id FROM session ORDER BY time_updated DESC, id")
            .map_err(|e| failed(&source, &e))?;
        let ids = statement
            .query_map([], |row| row.get::<_, String>(0))
            .map_err(|e| failed(&source, &e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| failed(&source, &e))?;
        Ok(ids)
    }

    pub(super) fn document(source: &str, file: &Path, session: Option<&str>) -> Result<Value, LoadError> {
        let connection = open(source, file)?;
        // One snapshot for every read: a writer's later commits are not half seen.
        let snapshot = connection.unchecked_transaction().map_err(|e| failed(source, &e))?;
        let wanted = match session {
            Some(id) => id.to_owned(),
            None => snapshot
                .query_row(
                    "SELECT id FROM session ORDER BY time_updated DESC, id LIMIT 1",
                    [],
                    |row| row.get(0),
                )
                .optional()
                .map_err(|e| failed(source, &e))?
                .ok_or_else(|| LoadError::whole(source, "the opencode database holds no session"))?,
        };
        let info = snapshot
            .query_row(
                "SELECT id, project_id, parent_id, slug, directory, title, version, time_created, time_updated \
                 FROM session WHERE id = ?1",
                [&wanted],
                |row| {
                    Ok(json!({
                        "id": row.get::<_, String>(0)?,
                        "projectID": row.get::<_, Option<String>>(1)?,
                        "parentID": row.get::<_, Option<String>>(2)?,
                        "slug": row.get::<_, Option<String>>(3)?,
                        "directory": row.get::<_, Option<String>>(4)?,
                        "title": row.get::<_, Option<String>>(5)?,
                        "version": row.get::<_, Option<String>>(6)?,
                        "time": { "created": row.get::<_, Option<i64>>(7)?, "updated": row.get::<_, Option<i64>>(8)? },
                    }))
                },
            )
            .optional()
            .map_err(|e| failed(source, &e))?
            .ok_or_else(|| LoadError::whole(source, format!("the opencode database has no session {wanted}")))?;
        let mut messages = Vec::new();
        let mut index = std::collections::HashMap::new();
        {
            let mut statement = snapshot
                .prepare("SELECT id, data FROM message WHERE session_id = ?1 ORDER BY time_created, id")
                .map_err(|e| failed(source, &e))?;
            let rows = statement
                .query_map([&wanted], |row| {
                    Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
                })
                .map_err(|e| failed(source, &e))?;
            for row in rows {
                let (id, data) = row.map_err(|e| failed(source, &e))?;
                let info = with_ids(source, &data, &[("id", id.clone()), ("sessionID", wanted.clone())])?;
                index.insert(id, messages.len());
                messages.push(json!({ "info": info, "parts": [] }));
            }
        }
        let mut statement = snapshot
            .prepare("SELECT id, message_id, data FROM part WHERE session_id = ?1 ORDER BY id")
            .map_err(|e| failed(source, &e))?;
        let rows = statement
            .query_map([&wanted], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                ))
            })
            .map_err(|e| failed(source, &e))?;
        for row in rows {
            let (id, message, data) = row.map_err(|e| failed(source, &e))?;
            // A part whose message is not (yet) committed is left for the next read.
            let Some(&k) = index.get(&message) else { continue };
            let part = with_ids(
                source,
                &data,
                &[("id", id), ("messageID", message), ("sessionID", wanted.clone())],
            )?;
            if let Some(parts) = messages[k]["parts"].as_array_mut() {
                parts.push(part);
            }
        }
        Ok(json!({ "info": info, "messages": messages }))
    }
}

#[cfg(not(feature = "opencode-db"))]
mod database {
    //! Without the `opencode-db` feature: a database is named, not read.

    use std::path::Path;

    use serde_json::Value;

    use crate::error::LoadError;

    pub(super) fn sessions(_file: &Path) -> Result<Vec<String>, LoadError> {
        Ok(Vec::new())
    }

    pub(super) fn document(source: &str, _file: &Path, _session: Option<&str>) -> Result<Value, LoadError> {
        Err(LoadError::whole(
            source,
            "a SQLite database (opencode's opencode.db): this build of ctxlens reads it with the `opencode-db` feature; `opencode export <session>` prints a session ctxlens reads without it",
        ))
    }
}
