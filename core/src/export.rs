//! Writing output files safely.
//!
//! - A temporary file in the destination's folder is renamed over the destination only
//!   once complete, so no half-written file is ever left; the temporary files being
//!   written are listed ([`remove_temporary_files`]) so a signal handler can remove them.
//! - Only a regular file or a new path is ever written: a device, a FIFO, a directory or
//!   a socket is refused; a symbolic link is followed and its target checked the same way.
//! - The input transcript is recognized by device and inode, whatever the path spelling
//!   (hard links included), and never overwritten unless forced.
//! - A new file gets the usual permissions (`0666` less the umask); a replaced file keeps
//!   its own.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::Error;

fn write_error(path: &Path, message: impl Into<String>) -> Error {
    Error::Write {
        path: path.to_owned(),
        message: message.into(),
        kind: None,
    }
}

/// A write that failed in the operating system: its message, and its kind to act on.
fn io_error(path: &Path, what: &str, error: &std::io::Error) -> Error {
    Error::Write {
        path: path.to_owned(),
        message: format!("{what}: {error}"),
        kind: Some(error.kind()),
    }
}

/// Temporary files being written right now (removed by a signal handler on exit).
static IN_PROGRESS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes every temporary file still being written; a termination signal handler calls
/// this before the process exits.
pub fn remove_temporary_files() {
    if let Ok(mut list) = IN_PROGRESS.lock() {
        for path in list.drain(..) {
            let _ = std::fs::remove_file(path);
        }
    }
}

fn track(path: &Path, on: bool) {
    if let Ok(mut list) = IN_PROGRESS.lock() {
        if on {
            list.push(path.to_owned());
        } else {
            list.retain(|p| p != path);
        }
    }
}

/// What a path names, in words, when it is not something ctxlens writes over.
fn not_writable_kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    let kind = meta.file_type();
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_char_device() {
            return Some("a character device");
        }
        if kind.is_block_device() {
            return Some("a block device");
        }
        if kind.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a regular file")
}

/// True when `a` and `b` are the same file (device and inode; both must exist).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        #[cfg(unix)]
        (Ok(a), Ok(b)) => {
            use std::os::unix::fs::MetadataExt;
            a.dev() == b.dev() && a.ino() == b.ino()
        }
        #[cfg(not(unix))]
        (Ok(_), Ok(_)) => match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        },
        _ => false,
    }
}

/// Checks that `out` may be written, before any work is done: it is a regular file or a
/// new path (a symbolic link is followed and its target must be one too), and it is not
/// the input unless `force`. Returns the path to write (the link's target, so the link
/// itself stays a link).
pub fn check_output(out: &Path, input: Option<&Path>, force: bool) -> crate::Result<PathBuf> {
    let is_link = std::fs::symlink_metadata(out).is_ok_and(|m| m.file_type().is_symlink());
    let target = if is_link { resolve_link(out)? } else { out.to_owned() };
    if let Ok(meta) = std::fs::metadata(&target) {
        if let Some(kind) = not_writable_kind(&meta) {
            return Err(write_error(
                out,
                format!(
                    "refusing to write: it is {kind}, not a regular file (use `-o -` or no -o for standard output)"
                ),
            ));
        }
    }
    if !force {
        if let Some(input) = input.filter(|i| i.as_os_str() != "-") {
            if same_file(&target, input) {
                return Err(write_error(
                    out,
                    "refusing to overwrite the input transcript (pass --force to replace it)",
                ));
            }
        }
    }
    Ok(target)
}

/// The file a symbolic link names (for a dangling link, the path it points at).
fn resolve_link(link: &Path) -> crate::Result<PathBuf> {
    if let Ok(target) = std::fs::canonicalize(link) {
        return Ok(target);
    }
    let to = std::fs::read_link(link).map_err(|e| io_error(link, "cannot read the link", &e))?;
    Ok(match link.parent() {
        Some(parent) if to.is_relative() => parent.join(to),
        _ => to,
    })
}

/// Writes `bytes` to `out` atomically (see [`write_with`]).
pub fn write_atomic(out: &Path, bytes: &[u8], input: Option<&Path>, force: bool) -> crate::Result<()> {
    write_with(out, input, force, &mut |w| w.write_all(bytes))
}

/// Writes what `fill` writes to `out` atomically: checked first ([`check_output`]), then a
/// temporary file beside the target, renamed over it once complete and synced.
pub fn write_with(
    out: &Path,
    input: Option<&Path>,
    force: bool,
    fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> crate::Result<()> {
    let target = check_output(out, input, force)?;
    let folder = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    let mode = existing_mode(&target);
    let mut builder = tempfile::Builder::new();
    builder.prefix(".ctxlens-").suffix(".tmp");
    #[cfg(unix)]
    {
        // A new file gets 0666 less the umask, like any file a program creates; a
        // replaced file gets its own mode back below.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(mode.unwrap_or(0o666)));
    }
    let mut temp = builder.tempfile_in(&folder).map_err(|e| {
        io_error(
            out,
            &format!("cannot create a temporary file in {}", folder.display()),
            &e,
        )
    })?;
    track(temp.path(), true);
    let temp_path = temp.path().to_owned();
    let result = (|| {
        {
            let mut buffered = std::io::BufWriter::with_capacity(1 << 16, temp.as_file_mut());
            fill(&mut buffered)
                .and_then(|()| buffered.flush())
                .map_err(|e| io_error(out, "cannot write", &e))?;
        }
        apply_mode(temp.as_file(), mode);
        temp.as_file()
            .sync_all()
            .map_err(|e| io_error(out, "cannot write", &e))?;
        temp.persist(&target)
            .map_err(|e| io_error(out, "cannot replace", &e.error))?;
        Ok(())
    })();
    track(&temp_path, false);
    result
}

/// The permission bits of an existing file, to keep them when it is replaced.
fn existing_mode(path: &Path) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).ok().map(|m| m.permissions().mode() & 0o7777)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// A replaced file keeps its exact mode (the umask applied at creation may have cut it).
fn apply_mode(file: &std::fs::File, mode: Option<u32>) {
    #[cfg(unix)]
    if let Some(mode) = mode {
        use std::os::unix::fs::PermissionsExt;
        let _ = file.set_permissions(std::fs::Permissions::from_mode(mode));
    }
    #[cfg(not(unix))]
    let _ = (file, mode);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_says_what_the_system_said_and_its_kind() {
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join("missing-folder/out.json");
        match write_atomic(&out, b"x", None, false) {
            Err(Error::Write { kind, message, .. }) => {
                assert_eq!(kind, Some(std::io::ErrorKind::NotFound), "{message}");
                assert!(message.contains("cannot create a temporary file"), "{message}");
            }
            other => panic!("a write error, not {other:?}"),
        }
        // A refusal is ctxlens' own decision: no system error kind.
        let input = dir.path().join("t.json");
        std::fs::write(&input, b"[]").expect("write");
        match write_atomic(&input, b"x", Some(&input), false) {
            Err(Error::Write { kind, .. }) => assert_eq!(kind, None),
            other => panic!("a refusal, not {other:?}"),
        }
    }

    #[test]
    fn refuses_the_input_unless_forced_and_leaves_no_temp_files() {
        let dir = tempfile::tempdir().expect("temp dir");
        let input = dir.path().join("t.json");
        std::fs::write(&input, b"[]").expect("write");
        let err = write_atomic(&input, b"x", Some(&input), false).expect_err("must refuse");
        assert!(err.to_string().contains("refusing to overwrite"));
        assert_eq!(std::fs::read(&input).expect("read"), b"[]");
        write_atomic(&input, b"new", Some(&input), true).expect("forced write");
        assert_eq!(std::fs::read(&input).expect("read"), b"new");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names.len(), 1, "only the output remains: {names:?}");
    }

    #[cfg(unix)]
    #[test]
    fn hard_links_and_special_files_are_recognized() {
        let dir = tempfile::tempdir().expect("temp dir");
        let input = dir.path().join("t.json");
        std::fs::write(&input, b"[]").expect("write");
        let link = dir.path().join("hard.json");
        std::fs::hard_link(&input, &link).expect("hard link");
        assert!(
            write_atomic(&link, b"x", Some(&input), false).is_err(),
            "a hard link is the input"
        );
        let err = write_atomic(Path::new("/dev/null"), b"x", None, false).expect_err("a device");
        assert!(err.to_string().contains("character device"), "{err}");
        let err = write_atomic(dir.path(), b"x", None, false).expect_err("a directory");
        assert!(err.to_string().contains("a directory"), "{err}");
    }
}
