//! Where externalized tool output goes: content-addressed files `content_<sha256>`, so a
//! pointer always names exactly the text it replaced and storing twice is harmless.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::Error;

/// The name an externalized text is stored under: `content_<sha256 hex>`.
pub fn content_name(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let mut name = String::with_capacity(8 + 64);
    name.push_str("content_");
    for byte in digest {
        // Writing to a String cannot fail.
        let _ = write!(name, "{byte:02x}");
    }
    name
}

/// Stores externalized texts.
pub trait ArtifactStore {
    /// Stores `text` and returns its name.
    fn put(&mut self, text: &str) -> crate::Result<String>;

    /// Removes what this store wrote (the output it belongs to could not be written).
    fn roll_back(&mut self) {}

    /// How many texts are stored, and where (for a store that writes files).
    fn stored(&self) -> Option<(usize, &Path)> {
        None
    }
}

/// Writes each text to `DIR/content_<sha256>` (atomically). A file already there is
/// trusted only when its content hashes to its name; one with other content is
/// replaced, and anything else of that name (a folder) is an error.
#[derive(Debug)]
pub struct DirStore {
    dir: PathBuf,
    /// Files written or found, in order.
    pub stored: Vec<PathBuf>,
    /// Files this store created (not found), and whether it created the folder: what
    /// [`DirStore::roll_back`] removes.
    created: Vec<PathBuf>,
    created_dir: bool,
}

impl DirStore {
    /// A store writing into `dir` (created on first use).
    pub fn new(dir: &Path) -> DirStore {
        DirStore {
            dir: dir.to_owned(),
            stored: Vec::new(),
            created: Vec::new(),
            created_dir: false,
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn already_stored(path: &Path, name: &str) -> crate::Result<bool> {
        match std::fs::symlink_metadata(path) {
            Err(_) => Ok(false),
            Ok(meta) if meta.is_file() => {
                let held = std::fs::read(path).unwrap_or_default();
                Ok(std::str::from_utf8(&held).is_ok_and(|text| content_name(text) == name))
            }
            Ok(_) => Err(Error::Artifact(format!(
                "{}: exists and is not a file; cannot store the tool output there",
                path.display()
            ))),
        }
    }
}

impl ArtifactStore for DirStore {
    fn put(&mut self, text: &str) -> crate::Result<String> {
        let name = content_name(text);
        let path = self.dir.join(&name);
        if !Self::already_stored(&path, &name)? {
            if !self.dir.exists() {
                std::fs::create_dir_all(&self.dir).map_err(|e| {
                    Error::Artifact(format!(
                        "{}: cannot create the artifact folder: {e}",
                        self.dir.display()
                    ))
                })?;
                self.created_dir = true;
            }
            let existed = path.exists();
            crate::export::write_atomic(&path, text.as_bytes(), None, false)?;
            if !existed {
                self.created.push(path.clone());
            }
        }
        self.stored.push(path);
        Ok(name)
    }

    fn roll_back(&mut self) {
        for path in self.created.drain(..) {
            let _ = std::fs::remove_file(path);
        }
        if self.created_dir {
            let _ = std::fs::remove_dir(&self.dir);
        }
        self.stored.clear();
    }

    fn stored(&self) -> Option<(usize, &Path)> {
        Some((self.stored.len(), &self.dir))
    }
}

/// Names texts without writing them (for `--plan`, a dry run).
#[derive(Debug, Default)]
pub struct DryRun;

impl ArtifactStore for DryRun {
    fn put(&mut self, text: &str) -> crate::Result<String> {
        Ok(content_name(text))
    }
}

/// Refuses to externalize: output goes to standard output and no `--artifacts` was given.
#[derive(Debug, Default)]
pub struct Refuse;

impl ArtifactStore for Refuse {
    fn put(&mut self, text: &str) -> crate::Result<String> {
        Err(Error::Artifact(format!(
            "a tool output of {} bytes must be externalized, but there is nowhere to store it: pass --artifacts DIR, or -o OUT (artifacts then go beside it)",
            text.len()
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_sha256_and_files_hold_the_text() {
        assert_eq!(
            content_name("abc"),
            "content_ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = DirStore::new(&dir.path().join("artifacts"));
        let name = store.put("hello").expect("stored");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("artifacts").join(&name)).expect("file"),
            "hello"
        );
        assert_eq!(store.put("hello").expect("again"), name, "idempotent");
        assert!(Refuse.put("x").is_err());
    }
}
