//! Reading an input as UTF-8 text. A large file is read as two halves on two threads
//! into a page-aligned window of one buffer: reading a cached file is bound by the page
//! faults of the buffer it fills, which the two threads share, and by the kernel's copy,
//! which is a third faster when source and destination pages line up. Whatever goes wrong
//! there falls back to one plain read, so errors (and their positions) are always the
//! plain path's.

use std::io::Read;
use std::path::Path;

use super::source_text::SourceText;
use crate::error::{LoadError, Position};

/// Below this a file is read on one thread: splitting costs more than it saves.
const PARALLEL_FROM: u64 = 4 << 20;

/// The name errors give an input (`<stdin>` for `-`) and its bytes.
fn read_bytes(path: &Path) -> Result<(String, Vec<u8>), LoadError> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| LoadError::whole("<stdin>", format!("cannot read standard input: {e}")))?;
        return Ok(("<stdin>".to_owned(), bytes));
    }
    let source = path.display().to_string();
    if let Some(kind) = device_kind(path) {
        // /dev/zero would be read until memory runs out, a terminal until it closes.
        return Err(LoadError::whole(
            &source,
            format!("not a file but a {kind}: a transcript is a file (or - for standard input)"),
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| LoadError::whole(&source, format!("cannot read: {e}")))?;
    Ok((source, bytes))
}

/// What `path` is when it is a device rather than a file or a pipe.
#[cfg(unix)]
fn device_kind(path: &Path) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let kind = std::fs::metadata(path).ok()?.file_type();
    if kind.is_char_device() {
        Some("character device")
    } else if kind.is_block_device() {
        Some("block device")
    } else {
        None
    }
}

#[cfg(not(unix))]
fn device_kind(_path: &Path) -> Option<&'static str> {
    None
}

/// The name errors give an input and its text, checked to be UTF-8.
pub(super) fn read_text(path: &Path) -> Result<(String, SourceText), LoadError> {
    // An opencode session is a tree of files or a database's rows: assembled into one
    // document first.
    if let Some(store) = super::opencode_store::Store::of(path) {
        return store.read(path);
    }
    // A compressed file is read whole and decompressed (`text_from_bytes`).
    if path.as_os_str() != "-" && !super::compressed::is_compressed_file(path) {
        if let Some(text) = read_halves(path) {
            return Ok((path.display().to_string(), text));
        }
    }
    let (source, bytes) = read_bytes(path)?;
    let text = text_from_bytes(&source, bytes)?;
    Ok((source, text))
}

/// Bytes as text (decompressed first when they are gzip or zstd), or an error naming the
/// first byte that is not UTF-8 and its line.
pub(super) fn text_from_bytes(source: &str, bytes: Vec<u8>) -> Result<SourceText, LoadError> {
    let bytes = super::compressed::decompressed(source, bytes)?;
    SourceText::from_bytes(bytes).map_err(|bytes| {
        // std's check says where the first bad byte is (the two checks agree; were they
        // ever not to, the error would name no byte rather than panic).
        let valid = std::str::from_utf8(&bytes).map_or_else(|e| e.valid_up_to(), str::len);
        let prefix = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
        let byte = bytes.get(valid).copied().unwrap_or_default();
        LoadError::at(
            source,
            Position::of_offset(prefix, valid),
            format!("invalid UTF-8 (byte 0x{byte:02X}): transcripts must be UTF-8 text"),
        )
    })
}

/// The page size the read aligns its buffer to (4 KB on the machines that matter; on
/// others the read is as correct, only the copy is not sped up).
const PAGE: usize = 4096;

/// A large regular file read as two halves in parallel into one buffer, then checked
/// to be UTF-8; `None` when it is small, not a regular file, changes size while read, or
/// is not valid UTF-8 (the plain path then reads it again and says what is wrong).
#[cfg(unix)]
fn read_halves(path: &Path) -> Option<SourceText> {
    use std::os::unix::fs::FileExt;
    let file = std::fs::File::open(path).ok()?;
    let metadata = file.metadata().ok()?;
    if !metadata.is_file() || metadata.len() < PARALLEL_FROM {
        return None;
    }
    let len = usize::try_from(metadata.len()).ok()?;
    // Zeroed memory comes from the allocator untouched: each thread takes the page faults
    // of its own half, which is most of the cost of reading a cached file. The text
    // starts at the buffer's first page boundary.
    let mut bytes = vec![0u8; len + PAGE];
    let start = (PAGE - bytes.as_ptr() as usize % PAGE) % PAGE;
    let window = start..start + len;
    let (head, tail) = bytes[window.clone()].split_at_mut(len / 2);
    let (head_read, tail_read) = rayon::join(
        || file.read_exact_at(head, 0),
        || file.read_exact_at(tail, (len / 2) as u64),
    );
    head_read.ok()?;
    tail_read.ok()?;
    // A file that grew while read: the plain path reads all of it.
    let mut probe = [0u8; 1];
    if file.read_at(&mut probe, len as u64).ok()? != 0 {
        return None;
    }
    SourceText::from_window(bytes, window).ok()
}

#[cfg(not(unix))]
fn read_halves(_path: &Path) -> Option<SourceText> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file large enough for the parallel path whose middle falls inside characters
    /// of every width: the text read equals the file, wherever the halves meet.
    #[test]
    fn halves_join_to_the_file_wherever_the_middle_falls() {
        let dir = tempfile::tempdir().expect("temp dir");
        for pad in 0..4 {
            let mut text = "a".repeat(pad);
            while text.len() < PARALLEL_FROM as usize + 16 {
                text.push_str("é€😀x");
            }
            let path = dir.path().join(format!("t{pad}.json"));
            std::fs::write(&path, &text).expect("written");
            assert_eq!(read_halves(&path).as_deref(), Some(text.as_str()), "pad {pad}");
            assert_eq!(&*read_text(&path).expect("reads").1, text);
        }
    }

    /// Invalid UTF-8 in the second half is reported by the plain path, with its line.
    #[test]
    fn invalid_bytes_in_the_second_half_name_their_line() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut bytes = "x\n".repeat(PARALLEL_FROM as usize).into_bytes();
        let at = bytes.len() - 11;
        bytes[at] = 0xff;
        let path = dir.path().join("bad.json");
        std::fs::write(&path, &bytes).expect("written");
        assert_eq!(read_halves(&path), None);
        let error = read_text(&path).expect_err("not UTF-8").to_string();
        assert!(error.contains("invalid UTF-8 (byte 0xFF)"), "{error}");
        // Each line is `x\n`: the odd offset is the newline, column 2.
        assert!(error.contains(&format!("bad.json:{}:2: ", at / 2 + 1)), "{error}");
    }
}
