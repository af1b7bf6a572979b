//! The transcripts shipped under the repository's `tests/data` (real ones, conformance cases, format
//! samples), for unit tests that check a fast path against a plain one on real text.

use crate::transcript::Transcript;

/// Every file under `tests/data` that loads as a transcript.
pub(crate) fn shipped_transcripts() -> Vec<Transcript> {
    let mut paths = vec![std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data")];
    let mut transcripts = Vec::new();
    while let Some(path) = paths.pop() {
        if path.is_dir() {
            let entries = std::fs::read_dir(&path).expect("a readable folder");
            paths.extend(entries.map(|e| e.expect("a folder entry").path()));
            continue;
        }
        let bytes = std::fs::read(&path).expect("a readable file");
        if let Ok(transcript) = Transcript::parse(&path.display().to_string(), bytes, None) {
            transcripts.push(transcript);
        }
    }
    transcripts
}
