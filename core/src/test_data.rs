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

/// Three real Claude Code logs (a compacted one among them), by name and text: the
/// growing-log tests cut them at many lines.
pub(crate) fn real_claude_code_logs() -> Vec<(&'static str, String)> {
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/real-transcripts/claude-code-jsonl");
    [
        "codemie-autocompact-624a4a58.jsonl",
        "ccl-sample-37f83ec9.jsonl",
        "worktrees-ef958aa1.jsonl",
    ]
    .into_iter()
    .map(|name| (name, std::fs::read_to_string(root.join(name)).expect("a shipped log")))
    .collect()
}

/// Codex rollouts: the real one shipped, the Codex reproducers (compactions, prompts
/// from events), and the real one with a `token_count` event after each call's output
/// (Codex writes one after every model response; the shipped log has none).
pub(crate) fn real_codex_logs() -> Vec<(&'static str, String)> {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data");
    let real =
        std::fs::read_to_string(data.join("real-transcripts/codex-rollout/codemie-codex-desktop-019e1695.jsonl"))
            .expect("the shipped rollout");
    let counted = crate::synth::codex_with_usage(&real);
    let mut logs = vec![
        ("codemie-codex-desktop", real),
        ("codemie-codex-desktop with usage", counted),
    ];
    let reproducers = std::fs::read_dir(data.join("reproducers")).expect("the reproducers");
    let mut names: Vec<std::path::PathBuf> = reproducers
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("codex-")))
        .collect();
    names.sort();
    for path in names {
        let name: &'static str = Box::leak(
            path.file_name()
                .expect("a file")
                .to_string_lossy()
                .into_owned()
                .into_boxed_str(),
        );
        logs.push((name, std::fs::read_to_string(&path).expect("a reproducer")));
    }
    logs
}

/// Byte offsets just after each line of `text`: where a growing log may have been read to.
pub(crate) fn line_ends(text: &str) -> Vec<usize> {
    text.match_indices('\n').map(|(i, _)| i + 1).collect()
}
