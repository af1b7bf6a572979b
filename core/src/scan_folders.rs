//! A scan's rows settled folder by folder. Where a session's agent compacts next is
//! predicted, as `status` predicts it for one log, from the log itself and else from the
//! earlier compactions of the user's other sessions in the same folder (the same Claude
//! Code project: [`crate::policy::claude_code::ThresholdQuery`]). A scan reads those other
//! sessions anyway, so each row keeps what its own log shows
//! ([`Session::compactions_seen`]) and [`ByFolder`] holds a folder's rows until its last
//! file is read, then answers each row from its siblings: every log is parsed once, and
//! rows still stream, a folder at a time.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::scan::Session;
use crate::transcript::earlier::EarlierCompaction;

/// The rows of a scan's folders, held until each folder is read whole.
#[derive(Debug)]
pub struct ByFolder<T> {
    folders: HashMap<PathBuf, Folder<T>>,
}

#[derive(Debug)]
struct Folder<T> {
    /// Files of the folder not finished yet.
    left: usize,
    /// Its finished items, in the order they finished.
    held: Vec<T>,
    /// The automatic compactions its finished sessions recorded.
    compactions: Vec<EarlierCompaction>,
}

impl<T> Folder<T> {
    /// Its items, each row answered from the compactions of the folder's other sessions.
    fn settled(mut self, row: &impl Fn(&mut T) -> Option<&mut Session>) -> Vec<T> {
        crate::transcript::earlier::once_each(&mut self.compactions);
        for item in &mut self.held {
            if let Some(session) = row(item) {
                answer_from_siblings(session, &self.compactions);
            }
        }
        self.held
    }
}

/// The folder a file belongs to (`.` for a bare file name).
fn folder_of(path: &Path) -> PathBuf {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf()
}

impl<T> ByFolder<T> {
    /// For a scan of `files` (each finished exactly once, a row or an error).
    pub fn new<'a>(files: impl IntoIterator<Item = &'a PathBuf>) -> ByFolder<T> {
        let mut folders: HashMap<PathBuf, Folder<T>> = HashMap::new();
        for file in files {
            folders
                .entry(folder_of(file))
                .or_insert_with(|| Folder {
                    left: 0,
                    held: Vec::new(),
                    compactions: Vec::new(),
                })
                .left += 1;
        }
        ByFolder { folders }
    }

    /// Takes the item of the finished file `path` (`row` finds its session row, if it
    /// is one); returns its folder's items, each row answered from the folder's other
    /// sessions, once the folder's last file is in, else nothing. A file the scan was not
    /// told of is returned at once, as read.
    pub fn finished(&mut self, path: &Path, mut item: T, row: impl Fn(&mut T) -> Option<&mut Session>) -> Vec<T> {
        let folder_path = folder_of(path);
        let Some(folder) = self.folders.get_mut(&folder_path) else {
            return vec![item];
        };
        if let Some(session) = row(&mut item) {
            folder.compactions.append(&mut session.compactions_seen);
        }
        folder.held.push(item);
        folder.left = folder.left.saturating_sub(1);
        if folder.left > 0 {
            return Vec::new();
        }
        self.folders
            .remove(&folder_path)
            .map_or_else(Vec::new, |folder| folder.settled(&row))
    }

    /// Every item still held (a folder some of whose files never finished), answered
    /// from what its finished sessions show; the folders are emptied.
    pub fn rest(&mut self, row: impl Fn(&mut T) -> Option<&mut Session>) -> Vec<T> {
        let mut paths: Vec<PathBuf> = self.folders.keys().cloned().collect();
        paths.sort();
        let mut rest = Vec::new();
        for path in paths {
            if let Some(folder) = self.folders.remove(&path) {
                rest.extend(folder.settled(&row));
            }
        }
        rest
    }
}

/// Answers `session`'s threshold again with its folder's compactions, its own session's
/// left out (a copy of it another tool wrote has its id).
fn answer_from_siblings(session: &mut Session, folder: &[EarlierCompaction]) {
    let Some(query) = &session.threshold_query else {
        return;
    };
    if query.answered_by_the_log() {
        return;
    }
    let own_name = Path::new(&session.path).file_name();
    let mut others = folder
        .iter()
        .filter(|c| Path::new(&c.file).file_name() != own_name)
        .filter(|c| session.session_id.is_none() || c.session != session.session_id)
        .peekable();
    if others.peek().is_none() {
        return;
    }
    if let Some((at, source)) = query.answer(others) {
        session.autocompact_at = Some(at);
        session.autocompact_source = Some(source);
    }
}
