//! opencode sessions (`tests/data/other-agents/opencode/`, written from opencode's source,
//! see its FORMAT.md): the storage tree, `opencode export`'s document and the SQLite
//! database built from the same files read as one session; the chat opencode sends after
//! its compaction; the usage and cost opencode recorded; `scan` over its data folder; and
//! a database read while another process holds it open for writing. Expected figures come
//! from the fixture's own files, never typed.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::{self, assert_exit, ctxlens, stderr, stdout};
use ctxlens::transcript::{Container, Conversation, Transcript};
use serde_json::Value;

fn folder() -> PathBuf {
    common::data().join("other-agents/opencode")
}

fn storage() -> PathBuf {
    folder().join("storage")
}

/// The session files of the tree (`storage/session/<project>/ses_….json`), by ID.
fn session_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for project in std::fs::read_dir(storage().join("session"))
        .expect("sessions")
        .flatten()
    {
        for file in std::fs::read_dir(project.path()).expect("a project").flatten() {
            files.push(file.path());
        }
    }
    files.sort();
    files
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("JSON")
}

/// The export document of session A, as opencode printed it.
fn export() -> Value {
    read_json(&folder().join("export-session-a.json"))
}

/// `COMMAND PATH --json` with the file's own name and the document's line numbers
/// dropped: what two sources of the same session must agree on (a tree and a database
/// are assembled into documents whose lines differ where the session's own fields do).
fn answer(command: &str, path: &str) -> Value {
    let out = ctxlens(&[command, path, "--json"]);
    assert_exit(&out, 0);
    let mut value = common::json_stdout(&out);
    if let Some(object) = value.as_object_mut() {
        object.remove("file");
    }
    without_lines(&mut value);
    value
}

fn without_lines(value: &mut Value) {
    match value {
        Value::Object(object) => {
            object.remove("line");
            object.values_mut().for_each(without_lines);
        }
        Value::Array(items) => items.iter_mut().for_each(without_lines),
        _ => {}
    }
}

/// The index of the message holding the session's `compaction` part.
fn compaction_request(messages: &[Value]) -> usize {
    messages
        .iter()
        .position(|m| {
            m["parts"]
                .as_array()
                .expect("parts")
                .iter()
                .any(|p| p["type"] == "compaction")
        })
        .expect("a compaction request")
}

fn session_a() -> PathBuf {
    let id = export()["info"]["id"].as_str().expect("an id").to_owned();
    session_files()
        .into_iter()
        .find(|p| p.file_stem().is_some_and(|s| s == id.as_str()))
        .expect("session A's file")
}

#[test]
fn a_session_reads_the_same_from_its_tree_and_from_its_export() {
    let tree = session_a();
    let exported = folder().join("export-session-a.json");
    for command in ["stats", "history"] {
        assert_eq!(
            answer(command, tree.to_str().expect("utf-8")),
            answer(command, exported.to_str().expect("utf-8")),
            "{command}"
        );
    }
    let t = Transcript::read(&tree, None).expect("the tree loads");
    assert_eq!(t.format().container, Container::Opencode);
}

/// After its compaction opencode sends the request as `What did we do so far?`, the
/// summary, then everything newer (`filterCompacted`, `toModelMessages`); the whole
/// session keeps every message sent before, the summary marked as one.
#[test]
fn the_live_view_is_what_opencode_sends_after_its_compaction() {
    let document = export();
    let messages = document["messages"].as_array().expect("messages");
    let request = compaction_request(messages);
    let summary = messages
        .iter()
        .find(|m| m["info"]["summary"] == true)
        .expect("the summary");
    let summary_text: String = summary["parts"]
        .as_array()
        .expect("parts")
        .iter()
        .filter(|p| p["type"] == "text")
        .map(|p| p["text"].as_str().expect("text"))
        .collect();
    let path = folder().join("export-session-a.json");
    let live = Transcript::read(&path, None).expect("loads");
    let texts: Vec<String> = (0..live.messages().len()).map(|i| live.readable_text(i)).collect();
    assert_eq!(texts[0], "What did we do so far?");
    assert_eq!(texts[1].trim(), summary_text.trim());
    assert!(live.messages()[1].past_summary());
    // The continue prompt opencode wrote after the summary comes next.
    let after: Vec<&Value> = messages[request + 1..]
        .iter()
        .filter(|m| m["info"]["summary"] != true)
        .collect();
    let first_after = after[0]["parts"][0]["text"].as_str().expect("the continue prompt");
    assert_eq!(texts[2], first_after);
    // Every later call is one recorded usage, as opencode recorded it.
    let recorded: Vec<u64> = live
        .messages()
        .iter()
        .filter_map(ctxlens::transcript::Message::recorded)
        .map(|r| r.context_tokens())
        .collect();
    let expected: Vec<u64> = after
        .iter()
        .filter(|m| m["info"]["role"] == "assistant")
        .map(|m| {
            let t = &m["info"]["tokens"];
            let n = |v: &Value| v.as_u64().unwrap_or(0);
            n(&t["input"]) + n(&t["cache"]["read"]) + n(&t["cache"]["write"])
        })
        .collect();
    assert_eq!(recorded, expected);
    // The whole session: every message before the compaction, then the summary.
    let whole = Transcript::read_whole(&path).expect("loads whole");
    assert_eq!(whole.conversation(), Conversation::Whole);
    assert_eq!(whole.compactions().len(), 1);
    let past = &whole.compactions()[0];
    assert_eq!(past.trigger.as_deref(), Some("auto"));
    let at = past.summary_message.expect("its summary is a message");
    assert!(whole.messages()[at].past_summary());
    assert_eq!(whole.readable_text(at).trim(), summary_text.trim());
    let user_turns_before = messages[..request]
        .iter()
        .filter(|m| m["info"]["role"] == "user")
        .count();
    assert_eq!(
        (0..at).filter(|&i| whole.messages()[i].boundary()).count(),
        user_turns_before
    );
}

/// A tool output `prune` marked is sent as opencode's placeholder, and only in what is
/// sent: the whole session shows what the tool returned.
#[test]
fn a_pruned_tool_output_is_sent_as_its_placeholder() {
    let mut document = export();
    let messages = document["messages"].as_array_mut().expect("messages");
    let summary_at = messages
        .iter()
        .position(|m| m["info"]["summary"] == true)
        .expect("summary");
    let (k, p, output) = messages
        .iter()
        .enumerate()
        .skip(summary_at)
        .find_map(|(k, m)| {
            let parts = m["parts"].as_array()?;
            let p = parts.iter().position(|p| p["type"] == "tool")?;
            Some((k, p, parts[p]["state"]["output"].as_str()?.to_owned()))
        })
        .expect("a tool call after the compaction");
    messages[k]["parts"][p]["state"]["time"]["compacted"] = Value::from(1_770_974_400_000u64);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("pruned.json");
    std::fs::write(&path, serde_json::to_string_pretty(&document).expect("JSON")).expect("written");
    let live = Transcript::read(&path, None).expect("loads");
    let results = |t: &Transcript| -> Vec<String> {
        (0..t.messages().len())
            .filter(|&i| !t.messages()[i].tool_results().is_empty())
            .map(|i| t.readable_text(i))
            .collect()
    };
    assert!(results(&live)
        .iter()
        .any(|r| r.contains("[Old tool result content cleared]")));
    assert!(!results(&live).iter().any(|r| r.contains(output.trim())));
    let whole = Transcript::read_whole(&path).expect("loads whole");
    assert!(results(&whole).iter().any(|r| r.contains(output.trim())));
}

/// What ctxlens prices a session at is what opencode itself recorded it cost (each
/// message's `cost`, priced by opencode from the model's list), its summary call
/// included: on the fixture and on a real session opencode 1.2.10 exported (its model
/// named `claude-sonnet-4-6@default`), which is loaded, counted and scanned as well.
#[test]
fn a_session_costs_what_opencode_recorded() {
    for path in [
        folder().join("export-session-a.json"),
        folder().join("real-export-opencode-1.2.10.json"),
    ] {
        let document = read_json(&path);
        let messages = document["messages"].as_array().expect("messages");
        let recorded: f64 = messages.iter().filter_map(|m| m["info"]["cost"].as_f64()).sum();
        let calls = messages.iter().filter(|m| m["info"]["role"] == "assistant").count();
        let stats = answer("stats", path.to_str().expect("utf-8"));
        assert_eq!(stats["format"], "opencode");
        let cost = &stats["cost"];
        assert_eq!(
            cost["calls"].as_array().map(Vec::len),
            Some(calls),
            "{}",
            path.display()
        );
        let total = cost["total"].as_f64().expect("a priced total");
        assert!(
            (total - recorded).abs() <= recorded * 1e-4,
            "{}: ctxlens ${total:.8}, opencode recorded ${recorded:.8}",
            path.display()
        );
        let out = ctxlens(&["scan", path.to_str().expect("utf-8"), "--json"]);
        assert_exit(&out, 0);
        let row: Value = serde_json::from_str(stdout(&out).trim()).expect("one row");
        assert!(row["error"].is_null(), "{row}");
        assert_eq!(row["format"], "opencode");
    }
}

#[test]
fn files_of_the_tree_read_alone_are_refused_with_the_file_to_open() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A session file taken out of its tree has no messages beside it.
    let lone = dir.path().join(session_a().file_name().expect("a name"));
    std::fs::copy(session_a(), &lone).expect("copied");
    let first = |sub: &str| -> PathBuf {
        let mut files = walk(&storage().join(sub));
        files.sort();
        files.into_iter().next().expect("a file")
    };
    for path in [lone, first("message"), first("part")] {
        let path = path.to_str().expect("utf-8");
        let out = ctxlens(&["stats", path]);
        assert_ne!(out.status.code(), Some(0), "{path}");
        let said = stderr(&out);
        assert!(
            said.contains(&format!("{path}:1:1: a file of an opencode session's storage tree")),
            "{said}"
        );
        assert!(said.contains("storage/session/<project>/ses_"), "{said}");
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// `opencode.db` as v1.2.0 writes it (`session/session.sql.ts`; FORMAT.md section 7),
/// filled from the storage tree: each row's `data` is the file's JSON less its IDs.
fn build_database(path: &Path) {
    let db = rusqlite::Connection::open(path).expect("a database");
    db.pragma_update(None, "journal_mode", "WAL").expect("WAL");
    db.execute_batch(
        "CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL,
             directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, share_url TEXT,
             summary_additions INTEGER, summary_deletions INTEGER, summary_files INTEGER, summary_diffs TEXT,
             revert TEXT, permission TEXT, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL,
             time_compacting INTEGER, time_archived INTEGER);
         CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL,
             time_updated INTEGER NOT NULL, data TEXT NOT NULL);
         CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL,
             time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);",
    )
    .expect("tables");
    let without = |mut value: Value, keys: &[&str]| {
        for key in keys {
            value.as_object_mut().expect("an object").remove(*key);
        }
        value.to_string()
    };
    for file in session_files() {
        let s = read_json(&file);
        let id = s["id"].as_str().expect("id");
        db.execute(
            "INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            rusqlite::params![
                id,
                s["projectID"].as_str(),
                s["slug"].as_str(),
                s["directory"].as_str(),
                s["title"].as_str(),
                s["version"].as_str(),
                s["time"]["created"].as_i64(),
                s["time"]["updated"].as_i64()
            ],
        )
        .expect("a session row");
        for message_file in walk(&storage().join("message").join(id)) {
            let m = read_json(&message_file);
            let message_id = m["id"].as_str().expect("id").to_owned();
            let created = m["time"]["created"].as_i64();
            db.execute(
                "INSERT INTO message VALUES (?1, ?2, ?3, ?3, ?4)",
                rusqlite::params![message_id, id, created, without(m, &["id", "sessionID"])],
            )
            .expect("a message row");
            let parts = storage().join("part").join(&message_id);
            for part_file in if parts.is_dir() { walk(&parts) } else { Vec::new() } {
                let p = read_json(&part_file);
                db.execute(
                    "INSERT INTO part VALUES (?1, ?2, ?3, ?4, ?4, ?5)",
                    rusqlite::params![
                        p["id"].as_str(),
                        message_id,
                        id,
                        created,
                        without(p.clone(), &["id", "messageID", "sessionID"])
                    ],
                )
                .expect("a part row");
            }
        }
    }
}

fn address(db: &Path, session: &Path) -> String {
    format!(
        "{}#{}",
        db.display(),
        session.file_stem().and_then(|s| s.to_str()).expect("a session id")
    )
}

fn file_bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).expect("read")
}

/// The database holds the tree's sessions: each reads as its tree does, the newest by
/// default, and reading it changes none of its bytes. `scan` lists each session of it, and
/// over opencode's data folder only sessions (never a message or part file).
#[test]
fn the_database_reads_as_its_tree_and_scan_lists_its_sessions() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("opencode");
    std::fs::create_dir(&data).expect("data folder");
    let db = data.join("opencode.db");
    build_database(&db);
    let before = file_bytes(&db);
    for session in session_files() {
        let via_db = answer("history", &address(&db, &session));
        assert_eq!(
            via_db,
            answer("history", session.to_str().expect("utf-8")),
            "{}",
            session.display()
        );
    }
    // The most recently updated session is the one `opencode.db` names alone.
    let newest = session_files()
        .into_iter()
        .max_by_key(|f| read_json(f)["time"]["updated"].as_i64())
        .expect("a session");
    assert_eq!(
        answer("stats", db.to_str().expect("utf-8"))["messages"],
        answer("stats", newest.to_str().expect("utf-8"))["messages"]
    );
    assert_eq!(file_bytes(&db), before, "reading changed the database");
    let listed = |root: &Path| -> Vec<String> {
        let out = ctxlens(&["scan", root.to_str().expect("utf-8"), "--json"]);
        assert_exit(&out, 0);
        let mut paths: Vec<String> = stdout(&out)
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).expect("a row"))
            .inspect(|row| assert!(row["error"].is_null(), "{row}"))
            .map(|row| row["path"].as_str().expect("a path").to_owned())
            .collect();
        paths.sort();
        paths
    };
    let mut expected: Vec<String> = session_files().iter().map(|s| address(&db, s)).collect();
    expected.sort();
    assert_eq!(listed(&db), expected);
    // The data folder: the database's sessions and the tree's session files.
    copy_tree(&storage(), &data.join("storage"));
    let mut both = expected.clone();
    for session in session_files() {
        let relative = session.strip_prefix(storage()).expect("under the tree");
        both.push(data.join("storage").join(relative).display().to_string());
    }
    both.sort();
    assert_eq!(listed(&data), both);
    // A project folder that only happens to be named `opencode` is scanned as any other.
    let project = dir.path().join("src").join("opencode");
    std::fs::create_dir_all(&project).expect("a project folder");
    let log = project.join("session.jsonl");
    std::fs::copy(
        common::data().join("real-transcripts/claude-code-jsonl/worktrees-ef958aa1-subagent-a52886dc.jsonl"),
        &log,
    )
    .expect("copied");
    assert_eq!(listed(&project), vec![log.display().to_string()]);
}

fn copy_tree(from: &Path, to: &Path) {
    for file in walk(from) {
        let target = to.join(file.strip_prefix(from).expect("under"));
        std::fs::create_dir_all(target.parent().expect("a folder")).expect("folders");
        std::fs::copy(&file, target).expect("copied");
    }
}

/// The environment variable that makes the test binary the writer of
/// [`a_database_another_process_is_writing_reads_its_last_commit`].
const WRITER: &str = "CTXLENS_TEST_OPENCODE_WRITER";

/// The writer process: opens the database the variable names, begins a write transaction
/// that adds an answer to `session`, says so (a `ready` file), and commits only once told
/// to (a `commit` file). Run only by the test below, as a child process.
#[test]
#[ignore = "the writer process of a_database_another_process_is_writing_reads_its_last_commit"]
fn opencode_database_writer() {
    let Some(db) = std::env::var_os(WRITER).map(PathBuf::from) else {
        return;
    };
    let session = std::env::var("CTXLENS_TEST_OPENCODE_SESSION").expect("a session");
    let folder = db.parent().expect("a folder").to_path_buf();
    let connection = rusqlite::Connection::open(&db).expect("opened for writing");
    connection
        .execute_batch("BEGIN IMMEDIATE")
        .expect("a write transaction");
    let info = serde_json::json!({
        "role": "assistant", "time": {"created": 1_770_974_400_000u64, "completed": 1_770_974_401_000u64},
        "parentID": "msg_c564c8fe8001N7FDC0jVIFo5yq", "modelID": "claude-sonnet-4-5", "providerID": "anthropic",
        "mode": "build", "agent": "build", "path": {"cwd": "/home/dev/src/tallyho", "root": "/home/dev/src/tallyho"},
        "cost": 0.006, "tokens": {"input": 4, "output": 20, "reasoning": 0, "cache": {"read": 16256, "write": 40}},
        "finish": "stop"
    });
    connection
        .execute(
            "INSERT INTO message VALUES ('msg_c564cffff001WrittenWhileRead', ?1, 1770974400000, 1770974400000, ?2)",
            rusqlite::params![session, info.to_string()],
        )
        .expect("a message row");
    connection
        .execute(
            "INSERT INTO part VALUES ('prt_c564cffff002WrittenWhileRead', 'msg_c564cffff001WrittenWhileRead', ?1,
             1770974400000, 1770974400000, ?2)",
            rusqlite::params![session, r#"{"type":"text","text":"Written while ctxlens read."}"#],
        )
        .expect("a part row");
    std::fs::write(folder.join("ready"), "").expect("ready");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !folder.join("commit").exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    connection.execute_batch("COMMIT").expect("committed");
}

/// opencode holds its database open and writes it as a session runs: a read while
/// another process holds an uncommitted write sees the last commit (and waits for nobody),
/// and the next read sees what that process committed.
#[test]
fn a_database_another_process_is_writing_reads_its_last_commit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("opencode.db");
    build_database(&db);
    let session = session_a();
    let id = session.file_stem().and_then(|s| s.to_str()).expect("an id").to_owned();
    let mut writer = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            "--ignored",
            "--exact",
            "opencode::opencode_database_writer",
            "--test-threads=1",
        ])
        .env(WRITER, &db)
        .env("CTXLENS_TEST_OPENCODE_SESSION", &id)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("the writer starts");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !dir.path().join("ready").exists() {
        assert!(Instant::now() < deadline, "the writer never began its transaction");
        assert!(
            writer.try_wait().expect("the writer").is_none(),
            "the writer ended early"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let at = address(&db, &session);
    let committed = answer("stats", &at);
    assert_eq!(committed, answer("stats", session.to_str().expect("utf-8")));
    std::fs::write(dir.path().join("commit"), "").expect("told to commit");
    assert!(writer.wait().expect("the writer ends").success());
    let after = answer("stats", &at);
    assert_eq!(
        after["messages"].as_u64(),
        committed["messages"].as_u64().map(|n| n + 1),
        "the committed answer is read"
    );
    let t = Transcript::read(Path::new(&at), None).expect("loads");
    let last = t.messages().len() - 1;
    assert_eq!(t.readable_text(last), "Written while ctxlens read.");
}

/// opencode's own policy replays its sessions: the release that wrote one decides its
/// rule (up to v1.1.65 the summary alone, at `context − max_output`), and `backtest`
/// predicts the session's compaction where it happened.
#[test]
fn the_opencode_policy_replays_its_own_sessions_by_their_release() {
    let policy = ctxlens::policy::by_name("opencode").expect("the policy");
    assert_eq!(policy.agent_logs(), Some(Container::Opencode));
    let none = ctxlens::policy::PolicySettings::parse(std::iter::empty::<&str>()).expect("no settings");
    let path = folder().join("export-session-a.json");
    let whole = Transcript::read_whole(&path).expect("loads");
    let release = export()["info"]["version"].as_str().expect("a release").to_owned();
    let from_log = policy.settings_from_log(&whole, whole.messages().len(), &none);
    assert_eq!(from_log, vec![("version", "legacy".to_owned())], "release {release}");
    // A session a later release wrote takes the policy's own default.
    let mut later = export();
    later["info"]["version"] = Value::from("1.18.3");
    let dir = tempfile::tempdir().expect("temp dir");
    let later_path = dir.path().join("later.json");
    std::fs::write(&later_path, later.to_string()).expect("written");
    let later_whole = Transcript::read_whole(&later_path).expect("loads");
    assert!(policy
        .settings_from_log(&later_whole, later_whole.messages().len(), &none)
        .is_empty());
    let out = ctxlens(&["backtest", path.to_str().expect("utf-8"), "--json"]);
    assert_exit(&out, 0);
    let report = common::json_stdout(&out);
    assert_eq!(report["policy"], "opencode");
    let compactions = report["compactions"].as_array().expect("compactions");
    assert_eq!(compactions.len(), 1);
    assert_eq!(compactions[0]["error_messages"], 0, "{report}");
}

/// `status` reads an opencode session by opencode's own overflow: the fixture's release
/// (v1.1.65) overflowed between its last two calls' totals, so its threshold lies there.
#[test]
fn status_reads_an_opencode_session_by_its_overflow() {
    let document = export();
    let messages = document["messages"].as_array().expect("messages");
    let request = compaction_request(messages);
    let totals: Vec<u64> = messages[..request]
        .iter()
        .filter_map(|m| m["info"]["tokens"]["total"].as_u64())
        .collect();
    let (below, above) = (totals[totals.len() - 2], totals[totals.len() - 1]);
    let status = answer(
        "status",
        folder().join("export-session-a.json").to_str().expect("utf-8"),
    );
    assert_eq!(status["compacts"], true, "{status}");
    assert!(
        status["threshold_from"]
            .as_str()
            .is_some_and(|s| s.starts_with("opencode (1.1.65")),
        "{status}"
    );
    let threshold = status["threshold"].as_u64().expect("a threshold");
    assert!(
        below < threshold && threshold <= above,
        "{below} < {threshold} <= {above}"
    );
}
