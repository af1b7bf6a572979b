//! The user's other sessions as evidence of where their agent compacts. An automatic
//! compaction brackets the agent's threshold (see
//! [`PastCompaction::threshold_bracket`]); a session that has not compacted yet has no
//! bracket of its own, but the user's earlier sessions of the same agent, release and
//! window usually do — the same settings, the same environment variables. Gathered from
//! the log's own folder first (a Claude Code project), then from the sessions root
//! (`~/.claude/projects`) when the folder holds none of the log's release, or from the
//! folder `--thresholds-from DIR` names; never from the session itself (nor a copy of it
//! another tool wrote: the same session id) and only what happened before the moment
//! predicted ([`EarlierSessions::before`]: no look-ahead). Gathered once per loaded
//! transcript, on first use, and shared by its clones.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use rayon::prelude::*;

use super::{Container, PastCompaction, Transcript};

/// Where earlier sessions are looked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The log's own folder, then `root` (the agent's sessions root) when the folder has
    /// nothing of the log's release.
    Beside {
        /// The sessions root (`~/.claude/projects`), when there is one.
        root: Option<PathBuf>,
    },
    /// This folder and the folders under it (`--thresholds-from DIR`).
    Dir(PathBuf),
    /// Nowhere (`--thresholds-from none`): predictions use the log alone.
    Nowhere,
}

impl Source {
    /// The default for the log at `path`: its folder, then `$HOME/.claude/projects`;
    /// nowhere for standard input (`-`).
    pub fn beside(path: &Path) -> Source {
        if path == Path::new("-") {
            return Source::Nowhere;
        }
        Source::Beside {
            root: std::env::var_os("HOME").map(|home| Path::new(&home).join(".claude").join("projects")),
        }
    }

    /// `none` → [`Source::Nowhere`]; anything else is a folder.
    pub fn parse(text: &str) -> Source {
        if text == "none" {
            Source::Nowhere
        } else {
            Source::Dir(PathBuf::from(text))
        }
    }
}

/// One automatic compaction of another session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EarlierCompaction {
    /// The session's file, as found.
    pub file: String,
    /// The 1-based line of its compaction record.
    pub line: usize,
    /// When it happened (the record's `timestamp`, ISO 8601 as the agent writes it).
    pub time: String,
    /// The release that wrote it (`version`).
    pub version: Option<String>,
    /// The model that session ran with.
    pub model: Option<String>,
    /// The threshold lies in `(low, high]` (the largest request before it, the one that set
    /// it off).
    pub low: u64,
    /// See `low`.
    pub high: u64,
    /// Found in the log's own folder (the same project), not the sessions root.
    pub same_folder: bool,
    /// The summary the agent wrote there (its readable text), when the log holds it.
    pub summary: Option<String>,
    /// That session's id (`sessionId`): a copy of the session predicted is not evidence.
    pub session: Option<String>,
}

/// The earlier compactions gathered for one log, lazily.
#[derive(Debug, Clone, Default)]
pub struct EarlierSessions {
    request: Option<Arc<Request>>,
}

#[derive(Debug)]
struct Request {
    log: PathBuf,
    source: Source,
    gathered: OnceLock<Vec<EarlierCompaction>>,
}

impl EarlierSessions {
    /// Evidence for the log at `log`, from `source`, gathered when first asked for.
    pub fn from(log: &Path, source: Source) -> EarlierSessions {
        EarlierSessions {
            request: Some(Arc::new(Request {
                log: log.to_path_buf(),
                source,
                gathered: OnceLock::new(),
            })),
        }
    }

    /// Every compaction gathered for `target` (gathered now if not yet).
    pub fn all(&self, target: &Transcript) -> &[EarlierCompaction] {
        match &self.request {
            None => &[],
            Some(request) => request
                .gathered
                .get_or_init(|| gather(&request.log, &request.source, target)),
        }
    }

    /// The ones that happened before `time`, of `version`'s release ([`usable`]).
    pub fn before<'a>(&'a self, target: &Transcript, time: &str, version: Option<&str>) -> Vec<&'a EarlierCompaction> {
        usable(self.all(target), time, version)
    }

    /// The ones that happened before `time`, of any release: the same folder's when it
    /// has any, else the root's.
    pub fn before_any_release<'a>(&'a self, target: &Transcript, time: &str) -> Vec<&'a EarlierCompaction> {
        same_folder_first(self.all(target).iter().filter(|c| c.time.as_str() < time).collect())
    }
}

/// Of `all`, the compactions that happened before `time`, of `version`'s release: the
/// same folder's when it has any, else the root's.
pub fn usable<'a>(
    all: impl IntoIterator<Item = &'a EarlierCompaction>,
    time: &str,
    version: Option<&str>,
) -> Vec<&'a EarlierCompaction> {
    same_folder_first(
        all.into_iter()
            .filter(|c| c.time.as_str() < time && c.version.as_deref() == version)
            .collect(),
    )
}

/// The same folder's compactions when there are any (the same project), else all.
fn same_folder_first(usable: Vec<&EarlierCompaction>) -> Vec<&EarlierCompaction> {
    if usable.iter().any(|c| c.same_folder) {
        usable.into_iter().filter(|c| c.same_folder).collect()
    } else {
        usable
    }
}

/// The compactions of the sessions `source` points to, for the log at `log`.
fn gather(log: &Path, source: &Source, target: &Transcript) -> Vec<EarlierCompaction> {
    if target.format().container != Container::ClaudeCode {
        return Vec::new();
    }
    let own_session = target.first_record_field("sessionId");
    let own_version = target.client_version();
    let own_file = std::fs::canonicalize(log).ok();
    let from = |folder: &Path, depth: usize, same_folder: bool| {
        let mut files = Vec::new();
        list_logs(folder, depth, &mut files);
        files.retain(|f| std::fs::canonicalize(f).ok() != own_file);
        compactions_of(&files, own_session.as_deref(), same_folder)
    };
    let mut found =
        match source {
            Source::Nowhere => Vec::new(),
            Source::Dir(dir) => from(dir, 2, false),
            Source::Beside { root } => {
                let folder = log
                    .parent()
                    .filter(|p| !p.as_os_str().is_empty())
                    .unwrap_or(Path::new("."));
                let mut found = from(folder, 0, true);
                if !found.iter().any(|c| c.version == own_version) {
                    if let Some(root) = root {
                        let same = std::fs::canonicalize(folder).ok();
                        found.extend(from(root, 1, false).into_iter().filter(|c| {
                            Path::new(&c.file).parent().and_then(|p| std::fs::canonicalize(p).ok()) != same
                        }));
                    }
                }
                found
            }
        };
    once_each(&mut found);
    found
}

/// Sorts `found` by time, each compaction once: a session copied (a compacted copy, a
/// backup) counts once, under the first of its names (the same folder's first).
pub(crate) fn once_each(found: &mut Vec<EarlierCompaction>) {
    found.sort_by(|a, b| (&a.time, a.high, !a.same_folder, &a.file).cmp(&(&b.time, b.high, !b.same_folder, &b.file)));
    found.dedup_by(|a, b| a.time == b.time && a.high == b.high);
}

/// The `.jsonl` files of `folder`, and of the folders under it down to `depth` levels,
/// sorted (a folder that cannot be read has none).
fn list_logs(folder: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            if depth > 0 && !path.is_symlink() {
                list_logs(&path, depth - 1, out);
            }
        } else if path.extension().is_some_and(|e| e == "jsonl") {
            out.push(path);
        }
    }
}

/// The automatic compactions of `files` (in parallel), skipping the session `own`.
fn compactions_of(files: &[PathBuf], own: Option<&str>, same_folder: bool) -> Vec<EarlierCompaction> {
    files
        .par_iter()
        .flat_map_iter(|file| {
            // Most sessions never compacted: only a file that says it did is parsed.
            let holds_one = std::fs::read(file).is_ok_and(|bytes| {
                let text = String::from_utf8_lossy(&bytes);
                text.contains("\"compact_boundary\"") || text.contains("\"isCompactSummary\"")
            });
            let whole = holds_one
                .then(|| Transcript::read_whole(file).ok())
                .flatten()
                .filter(|t| t.format().container == Container::ClaudeCode)
                .filter(|t| own.is_none() || t.first_record_field("sessionId").as_deref() != own);
            whole.map_or_else(Vec::new, |t| of_session(&t, file, same_folder, true))
        })
        .collect()
}

/// One session's automatic compactions that bracket a threshold.
pub(crate) fn of_session(
    session: &Transcript,
    file: &Path,
    same_folder: bool,
    with_summaries: bool,
) -> Vec<EarlierCompaction> {
    let version = session.client_version();
    let model = session.model().map(str::to_owned);
    let id = session.first_record_field("sessionId");
    session
        .compactions()
        .iter()
        .filter_map(|c: &PastCompaction| {
            let (low, high) = c.threshold_bracket(session)?;
            Some(EarlierCompaction {
                file: file.display().to_string(),
                line: c.line,
                time: session.line_timestamp(c.line)?,
                version: version.clone(),
                model: model.clone(),
                low,
                high,
                same_folder,
                // Only the summary's size is asked of it, and only beside an opened log:
                // a scan row's threshold never reads it.
                summary: c
                    .summary_message
                    .filter(|_| with_summaries)
                    .map(|i| session.summary_text(i))
                    // An encrypted summary (Codex's remote compaction) shows no text.
                    .filter(|text| !text.trim().is_empty()),
                session: id.clone(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::claude_code::known_threshold;
    use serde_json::json;

    const VSLA: &str = "vsla-cc1053-autocompact-0a725fb5.jsonl";

    /// A short Claude Code 1.0.53 session (as that release writes one) that compacts
    /// automatically between a request of `low` tokens and one of `high`, at `day`.
    fn sibling(session: &str, day: &str, low: u64, high: u64) -> String {
        let record = |parent: Option<&str>, uuid: &str, kind: &str, message: serde_json::Value, minute: u32| {
            let mut r = json!({"parentUuid": parent, "isSidechain": false, "userType": "external",
                "cwd": "/home/u/vsla", "sessionId": session, "version": "1.0.53", "type": kind,
                "message": message, "uuid": uuid, "timestamp": format!("{day}T10:{minute:02}:00.000Z")});
            if kind == "user" && parent.is_none() && minute > 0 {
                r["isCompactSummary"] = json!(true);
            }
            r.to_string()
        };
        let answer = |total: u64| {
            json!({"id": format!("msg_{total}"), "type": "message", "role": "assistant",
                "model": "claude-opus-4-20250514", "content": [{"type": "text", "text": "done"}],
                "usage": {"input_tokens": 4, "cache_creation_input_tokens": 0,
                    "cache_read_input_tokens": total - 10, "output_tokens": 6}})
        };
        [
            record(None, "a", "user", json!({"role": "user", "content": "build the paper"}), 0),
            record(Some("a"), "b", "assistant", answer(low), 1),
            record(Some("b"), "c", "user", json!({"role": "user", "content": "and the figures"}), 2),
            record(Some("c"), "d", "assistant", answer(high), 3),
            record(None, "e", "user", json!({"role": "user", "content":
                "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nthe paper"}), 4),
            record(Some("e"), "f", "assistant", answer(20_000), 5),
        ]
        .join("\n")
            + "\n"
    }

    /// The vsla log in a project folder with `siblings` beside it, read whole, with the
    /// evidence `source` gives; and its compaction's first message.
    fn vsla_beside(dir: &Path, siblings: &[(&str, String)], source: Option<Source>) -> (Transcript, usize) {
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/data/real-transcripts/claude-code-jsonl")
            .join(VSLA);
        let project = dir.join("projects").join("-home-u-vsla");
        std::fs::create_dir_all(&project).expect("a project folder");
        let log = project.join(VSLA);
        std::fs::copy(&shipped, &log).expect("a copy");
        for (name, text) in siblings {
            std::fs::write(project.join(name), text).expect("a sibling");
        }
        let source = source.unwrap_or(Source::Beside {
            root: Some(dir.join("projects")),
        });
        let whole = Transcript::read_whole(&log)
            .expect("loads")
            .with_earlier_sessions(EarlierSessions::from(&log, source));
        let at = whole.compactions()[0].at;
        (whole, at)
    }

    /// The agent's summary size at the vsla compaction (predicted with what came before).
    fn summary_known(whole: &Transcript, at: usize) -> Option<crate::policy::agent_summary::KnownSummary> {
        crate::policy::agent_summary::known_before(whole, at)
    }

    #[test]
    fn an_earlier_sessions_summary_sizes_the_agents_next_one_and_is_named() {
        let dir = tempfile::tempdir().expect("temp dir");
        let long = "the paper's figures are regenerated from the raw data. ".repeat(200);
        let earlier = sibling("s1", "2025-07-19", 100_000, 120_000)
            .replace("summarized below:\\nthe paper", &format!("summarized below:\\n{long}"));
        let later = sibling("s2", "2025-07-21", 100_000, 120_000);
        let (whole, at) = vsla_beside(dir.path(), &[("earlier.jsonl", earlier), ("later.jsonl", later)], None);
        let known = summary_known(&whole, at).expect("the earlier session's summary");
        // About a quarter of its characters, as the estimate counts prose.
        assert!(
            (2_000..4_000).contains(&known.counted),
            "{} tokens: {}",
            known.counted,
            known.source
        );
        assert!(known.source.contains("earlier.jsonl line 5"), "{}", known.source);
        assert!(!known.source.contains("later.jsonl"), "no look-ahead: {}", known.source);
        // With no evidence, nothing is known and nothing is said.
        let (whole, at) = vsla_beside(
            tempfile::tempdir().expect("temp dir").path(),
            &[],
            Some(Source::Nowhere),
        );
        assert_eq!(summary_known(&whole, at), None);
    }

    #[test]
    fn this_logs_own_earlier_summary_sizes_its_next_compaction() {
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/data/real-transcripts/claude-code-jsonl")
            .join(VSLA);
        let whole = Transcript::read_whole(&shipped).expect("loads");
        let past = &whole.compactions()[0];
        let summary = past.summary_message.expect("its summary is in the log");
        // At the compaction itself its summary is the answer, not evidence.
        assert_eq!(summary_known(&whole, past.at), None);
        // Once the agent has answered after it, it sizes the next one.
        let later = whole.messages().len();
        let known = summary_known(&whole, later).expect("known after");
        assert_eq!(
            known.counted,
            crate::policy::agent_summary::summary_counted(&whole, &whole.readable_text(summary))
        );
        assert!(known.source.contains("earlier in this log"), "{}", known.source);
    }

    #[test]
    fn an_earlier_session_of_the_same_release_sets_the_threshold_and_is_named() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (whole, at) = vsla_beside(
            dir.path(),
            &[("earlier.jsonl", sibling("s1", "2025-07-19", 100_000, 120_000))],
            None,
        );
        let (threshold, source) = known_threshold(&whole, at, None).expect("a threshold");
        assert!(threshold > 100_000 && threshold <= 120_000, "{threshold}: {source}");
        assert!(source.contains("earlier.jsonl line 5"), "{source}");
        assert!(
            source.contains("1.0.53's rule says"),
            "the rule it departs from is said: {source}"
        );
    }

    #[test]
    fn without_an_earlier_session_the_releases_rule_is_named() {
        let dir = tempfile::tempdir().expect("temp dir");
        let sessions = [("earlier.jsonl", sibling("s1", "2025-07-19", 100_000, 120_000))];
        let (whole, at) = vsla_beside(dir.path(), &sessions, Some(Source::Nowhere));
        let (threshold, source) = known_threshold(&whole, at, None).expect("a threshold");
        assert_eq!(threshold, 154_560, "{source}");
        assert!(source.contains("Claude Code 1.0.53's rule"), "{source}");
        assert!(!source.contains("earlier"), "{source}");
    }

    #[test]
    fn a_session_that_compacted_later_or_under_another_release_is_not_evidence() {
        let dir = tempfile::tempdir().expect("temp dir");
        let later = sibling("s2", "2025-07-21", 100_000, 120_000);
        let other_release = sibling("s3", "2025-07-18", 90_000, 95_000).replace("\"1.0.53\"", "\"1.0.80\"");
        let (whole, at) = vsla_beside(
            dir.path(),
            &[("later.jsonl", later), ("newer.jsonl", other_release)],
            None,
        );
        let (threshold, source) = known_threshold(&whole, at, None).expect("a threshold");
        assert_eq!(threshold, 154_560, "no look-ahead, no other release: {source}");
    }

    #[test]
    fn the_same_folder_wins_over_the_root_and_the_session_itself_never_counts() {
        let dir = tempfile::tempdir().expect("temp dir");
        // Another project under the root, with another level.
        let other = dir.path().join("projects").join("-home-u-other");
        std::fs::create_dir_all(&other).expect("a folder");
        std::fs::write(other.join("o.jsonl"), sibling("s4", "2025-07-19", 60_000, 70_000)).expect("written");
        let (whole, at) = vsla_beside(dir.path(), &[], None);
        let (threshold, source) = known_threshold(&whole, at, None).expect("a threshold");
        assert!(
            threshold > 60_000 && threshold <= 70_000,
            "the root's, when the folder has none: {source}"
        );
        // A copy of the session itself (same id) beside it is no evidence of anything.
        let dir = tempfile::tempdir().expect("temp dir");
        let shipped = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../tests/data/real-transcripts/claude-code-jsonl")
                .join(VSLA),
        )
        .expect("the log");
        let earlier_copy = shipped.replace("2025-07-20T", "2025-07-10T");
        let (whole, at) = vsla_beside(dir.path(), &[("copy.jsonl", earlier_copy)], None);
        let (threshold, source) = known_threshold(&whole, at, None).expect("a threshold");
        assert_eq!(threshold, 154_560, "{source}");
        // Two sessions of the folder narrow the bracket together.
        let dir = tempfile::tempdir().expect("temp dir");
        let two = [
            ("a.jsonl", sibling("s5", "2025-07-18", 100_000, 130_000)),
            ("b.jsonl", sibling("s6", "2025-07-19", 110_000, 125_000)),
        ];
        let (whole, at) = vsla_beside(dir.path(), &two, None);
        let (threshold, source) = known_threshold(&whole, at, None).expect("a threshold");
        assert_eq!(threshold, 117_500, "the middle of (110000, 125000]: {source}");
        assert!(source.contains("2 earlier sessions"), "{source}");
    }

    #[test]
    fn a_scan_answers_each_row_from_its_folders_earlier_sessions_as_status_does() {
        let dir = tempfile::tempdir().expect("temp dir");
        let project = dir.path().join("-home-u-vsla");
        std::fs::create_dir_all(&project).expect("a project folder");
        // A session that compacted on the 19th, and two that never compacted: one before
        // it (nothing earlier to go by) and one after (the 19th's bracket is known); and
        // a copy of the compacted one under another name, its own id.
        let never = |id: &str, day: &str| {
            sibling(id, day, 50_000, 60_000)
                .lines()
                .take(4)
                .collect::<Vec<_>>()
                .join("\n")
                + "\n"
        };
        let compacted = sibling("s1", "2025-07-19", 100_000, 120_000);
        std::fs::write(project.join("compacted.jsonl"), &compacted).expect("writes");
        std::fs::write(project.join("copy-of-compacted.jsonl"), &compacted).expect("writes");
        std::fs::write(project.join("before.jsonl"), never("s2", "2025-07-18")).expect("writes");
        std::fs::write(project.join("after.jsonl"), never("s3", "2025-07-21")).expect("writes");
        let mut files: Vec<PathBuf> = ["after", "before", "compacted", "copy-of-compacted"]
            .iter()
            .map(|n| project.join(format!("{n}.jsonl")))
            .collect();
        files.sort();
        let mut by_folder = crate::scan_folders::ByFolder::new(&files);
        let mut rows = Vec::new();
        for file in &files {
            let row = crate::scan::scan_file(file, crate::tokens::Tokenizer::Estimate, None).expect("scans");
            let released = by_folder.finished(file, row, |s| Some(s));
            // Nothing comes out before the folder's last file is read.
            assert_eq!(released.is_empty(), file != files.last().expect("files"));
            rows.extend(released);
        }
        assert!(by_folder.rest(|s| Some(s)).is_empty());
        let row = |name: &str| rows.iter().find(|r| r.path.ends_with(name)).expect("a row");
        // What `status` says of each (its log read with the evidence beside it).
        let status = |name: &str| {
            let log = project.join(name);
            let whole = Transcript::read_whole(&log)
                .expect("loads")
                .with_earlier_sessions(EarlierSessions::from(&log, Source::Beside { root: None }));
            known_threshold(&whole, whole.messages().len(), None)
        };
        let answer = |name: &str| row(name).autocompact_at.zip(row(name).autocompact_source.clone());
        for name in [
            "after.jsonl",
            "before.jsonl",
            "compacted.jsonl",
            "copy-of-compacted.jsonl",
        ] {
            assert_eq!(answer(name), status(name), "{name}");
        }
        let (at, source) = answer("after.jsonl").expect("a threshold");
        assert!(at > 100_000 && at <= 120_000, "{at}: {source}");
        assert!(source.contains("compacted.jsonl line 5"), "{source}");
        // No look-ahead: the session before the compaction goes by its release's rule.
        let (_, source) = answer("before.jsonl").expect("the rule");
        assert!(
            source.contains("1.0.53's rule") && !source.contains("compacted.jsonl"),
            "{source}"
        );
        // A compacted session goes by its own compaction.
        assert!(answer("compacted.jsonl")
            .expect("its own")
            .1
            .contains("this log's compaction"));
    }
}
