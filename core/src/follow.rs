//! A file followed while it is written: what it is now (its identity and size) and how
//! it changed since it was read. A log that grew is read again; one that shrank or is
//! another file at the same path (a new session written there, log rotation) is reloaded
//! with a notice. The reading itself is [`crate::transcript::Transcript::read`], which
//! leaves a last line still being written for the next read.

use std::path::Path;

/// What a file is at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileState {
    /// Its size in bytes.
    pub len: u64,
    /// Device and inode (Unix): another file at the same path has another identity.
    pub identity: Option<(u64, u64)>,
    /// Its modification time, in nanoseconds since the epoch (0 when unknown).
    pub modified: u128,
}

/// How a file changed between two [`FileState`]s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Nothing to read.
    Same,
    /// It grew: the records after what was read are new.
    Grew,
    /// Another file at the path, or the same one made shorter: read from the start.
    Replaced,
}

impl FileState {
    /// The state of the file at `path` now.
    ///
    /// # Errors
    /// The file's metadata cannot be read (it was removed, say).
    pub fn of(path: &Path) -> std::io::Result<FileState> {
        if let Some(store) = crate::transcript::opencode_store::Store::of(path) {
            return Self::of_store(&store);
        }
        let meta = std::fs::metadata(path)?;
        #[cfg(unix)]
        let identity = {
            use std::os::unix::fs::MetadataExt;
            Some((meta.dev(), meta.ino()))
        };
        #[cfg(not(unix))]
        let identity = None;
        let modified = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        Ok(FileState {
            len: meta.len(),
            identity,
            modified,
        })
    }

    /// An opencode store never only grows as a log does (a database's pages change in
    /// place, a tree gains files): its state is its files' latest change, so any change
    /// reads it again whole.
    fn of_store(store: &crate::transcript::opencode_store::Store) -> std::io::Result<FileState> {
        let modified = store
            .watched()
            .iter()
            .filter_map(|p| std::fs::metadata(p).ok()?.modified().ok())
            .max()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        std::fs::metadata(store.file())?;
        Ok(FileState {
            len: 0,
            identity: None,
            modified,
        })
    }

    /// How the file changed from `self` (when it was read) to `now`.
    pub fn change_to(&self, now: &FileState) -> Change {
        if self.identity != now.identity || now.len < self.len {
            Change::Replaced
        } else if now.len > self.len {
            Change::Grew
        } else if now.modified != self.modified {
            // Rewritten in place at the same size: only a reload can tell what changed.
            Change::Replaced
        } else {
            Change::Same
        }
    }
}

/// The complete lines written to `path` after its first `from` bytes (a last line still
/// being written is left for the next read); `None` when the file cannot be read there,
/// is not UTF-8, or is compressed.
pub fn lines_after(path: &Path, from: u64) -> Option<String> {
    use std::io::{Read, Seek, SeekFrom};
    // What is appended to a compressed file is not text: it is read whole.
    if crate::transcript::compressed::is_compressed_file(path) {
        return None;
    }
    let mut file = std::fs::File::open(path).ok()?;
    file.seek(SeekFrom::Start(from)).ok()?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    bytes.truncate(complete);
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn growth_shrinking_and_replacement_are_told_apart() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("log.jsonl");
        std::fs::write(&path, "{}\n").expect("written");
        let first = FileState::of(&path).expect("state");
        assert_eq!(first.change_to(&FileState::of(&path).expect("state")), Change::Same);
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(b"{}\n"))
            .expect("appended");
        let grown = FileState::of(&path).expect("state");
        assert_eq!(first.change_to(&grown), Change::Grew);
        std::fs::write(&path, "{}\n").expect("truncated");
        assert_eq!(grown.change_to(&FileState::of(&path).expect("state")), Change::Replaced);
        // Another file renamed over the path (how many writers replace a file).
        let other = dir.path().join("new.jsonl");
        std::fs::write(&other, "{}\n{}\n{}\n{}\n").expect("written");
        let before = FileState::of(&path).expect("state");
        std::fs::rename(&other, &path).expect("renamed");
        let after = FileState::of(&path).expect("state");
        assert_eq!(before.change_to(&after), Change::Replaced);
    }

    #[test]
    fn only_complete_lines_after_the_offset_are_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("log.jsonl");
        std::fs::write(&path, "{\"a\":1}\n{\"b\":2}\n{\"c\":").expect("written");
        assert_eq!(lines_after(&path, 8).as_deref(), Some("{\"b\":2}\n"));
        assert_eq!(lines_after(&path, 16).as_deref(), Some(""));
    }
}
