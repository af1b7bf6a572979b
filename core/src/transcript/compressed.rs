//! Compressed inputs, read as `rg -z` reads them: a log archived as gzip (`.gz`) or
//! zstd (`.zst`) is known by its first bytes, whatever its name, and decompressed before
//! it is read as text. What it decompresses to is bounded, so a small file that expands
//! without end (a decompression bomb) is an error naming the file, not memory run out.

use std::io::Read;

use crate::error::LoadError;

/// The most a compressed input may decompress to.
pub const MAX_DECOMPRESSED: u64 = 8 << 30;

/// A compression ctxlens reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// gzip (RFC 1952), one member or several.
    Gzip,
    /// Zstandard frames.
    Zstd,
}

impl Compression {
    /// The compression `head` (a file's first bytes) announces, if any.
    pub fn of(head: &[u8]) -> Option<Compression> {
        if head.starts_with(&[0x1f, 0x8b]) {
            Some(Compression::Gzip)
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Some(Compression::Zstd)
        } else {
            None
        }
    }

    fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
        }
    }
}

/// Whether the file at `path` starts like a compressed input (a follower reads such a
/// file whole: what is appended to it is not text).
pub fn is_compressed_file(path: &std::path::Path) -> bool {
    let mut head = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .is_ok_and(|n| Compression::of(&head[..n]).is_some())
}

/// `bytes` decompressed when they are a compressed input, else as they are.
pub(super) fn decompressed(source: &str, bytes: Vec<u8>) -> Result<Vec<u8>, LoadError> {
    let Some(compression) = Compression::of(&bytes) else {
        return Ok(bytes);
    };
    let mut out = Vec::new();
    let read = match compression {
        Compression::Gzip => flate2::read::MultiGzDecoder::new(bytes.as_slice())
            .take(MAX_DECOMPRESSED + 1)
            .read_to_end(&mut out)
            .map_err(|e| e.to_string()),
        Compression::Zstd => zstd_frames(&bytes, &mut out),
    };
    read.map_err(|e| LoadError::whole(source, format!("not a valid {} stream: {e}", compression.name())))?;
    if out.len() as u64 > MAX_DECOMPRESSED {
        return Err(LoadError::whole(
            source,
            format!(
                "{} input decompresses to more than {} GiB: not read",
                compression.name(),
                MAX_DECOMPRESSED >> 30
            ),
        ));
    }
    Ok(out)
}

/// Every zstd frame of `bytes`, one after another, into `out` (bounded as above).
fn zstd_frames(bytes: &[u8], out: &mut Vec<u8>) -> Result<usize, String> {
    let mut rest = bytes;
    while !rest.is_empty() {
        let decoder = ruzstd::decoding::StreamingDecoder::new(&mut rest).map_err(|e| e.to_string())?;
        let room = (MAX_DECOMPRESSED + 1).saturating_sub(out.len() as u64);
        decoder.take(room).read_to_end(out).map_err(|e| e.to_string())?;
        if out.len() as u64 > MAX_DECOMPRESSED {
            break;
        }
    }
    Ok(out.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const TEXT: &str = "[{\"role\": \"user\", \"content\": \"hello\"}]";

    #[test]
    fn gzip_is_read_by_its_first_bytes_and_plain_text_passes_through() {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(TEXT.as_bytes()).expect("written");
        let gz = encoder.finish().expect("finished");
        assert_eq!(Compression::of(&gz), Some(Compression::Gzip));
        assert_eq!(decompressed("x", gz).expect("read"), TEXT.as_bytes());
        assert_eq!(
            decompressed("x", TEXT.as_bytes().to_vec()).expect("as is"),
            TEXT.as_bytes()
        );
    }

    #[test]
    fn a_cut_stream_is_an_error_naming_the_file() {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(TEXT.repeat(50).as_bytes()).expect("written");
        let mut gz = encoder.finish().expect("finished");
        gz.truncate(gz.len() / 2);
        let error = decompressed("log.jsonl.gz", gz).expect_err("cut").to_string();
        assert!(error.contains("log.jsonl.gz") && error.contains("gzip"), "{error}");
        let error = decompressed("log.zst", vec![0x28, 0xb5, 0x2f, 0xfd, 0, 0])
            .expect_err("cut")
            .to_string();
        assert!(error.contains("zstd"), "{error}");
    }
}
