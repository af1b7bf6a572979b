//! Where externalized tool output goes: content-addressed files `content_<sha256>`, so a
//! pointer always names exactly the text it replaced and storing twice is harmless.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use sha2::{Digest, Sha256};

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
    fn put(&mut self, text: &str) -> anyhow::Result<String>;
}

/// Writes each text to `DIR/content_<sha256>` (atomically; existing files are kept).
#[derive(Debug)]
pub struct DirStore {
    dir: PathBuf,
    /// Files written or found, in order.
    pub stored: Vec<PathBuf>,
}

impl DirStore {
    /// A store writing into `dir` (created on first use).
    pub fn new(dir: &Path) -> DirStore {
        DirStore {
            dir: dir.to_owned(),
            stored: Vec::new(),
        }
    }
}

impl ArtifactStore for DirStore {
    fn put(&mut self, text: &str) -> anyhow::Result<String> {
        let name = content_name(text);
        let path = self.dir.join(&name);
        if !path.exists() {
            std::fs::create_dir_all(&self.dir)
                .with_context(|| format!("{}: cannot create the artifact folder", self.dir.display()))?;
            crate::export::write_atomic(&path, text.as_bytes(), None, false)?;
        }
        self.stored.push(path);
        Ok(name)
    }
}

/// Names texts without writing them (for `--plan`, a dry run).
#[derive(Debug, Default)]
pub struct DryRun;

impl ArtifactStore for DryRun {
    fn put(&mut self, text: &str) -> anyhow::Result<String> {
        Ok(content_name(text))
    }
}

/// Refuses to externalize: output goes to standard output and no `--artifacts` was given.
#[derive(Debug, Default)]
pub struct Refuse;

impl ArtifactStore for Refuse {
    fn put(&mut self, text: &str) -> anyhow::Result<String> {
        bail!(
            "a tool output of {} bytes must be externalized, but there is nowhere to store it: pass --artifacts DIR, or -o OUT (artifacts then go beside it)",
            text.len()
        )
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
