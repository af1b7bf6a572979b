//! The command-line contract of `product.md`: formats in and out, `-o`, `check`, stdin,
//! closed pipes.

use crate::common;

use common::{assert_exit, ctxlens, ctxlens_stdin, data, json_stdout, repo, stderr, stdout};
use serde_json::Value;

fn sample(name: &str) -> String {
    repo()
        .join("sample-transcripts")
        .join(name)
        .to_str()
        .expect("UTF-8 path")
        .to_owned()
}

#[test]
fn stats_json_has_the_documented_shape() {
    let out = ctxlens(&["stats", &sample("support-agent.json"), "--json"]);
    assert_exit(&out, 0);
    let stats = json_stdout(&out);
    let keys: Vec<&String> = stats.as_object().expect("object").keys().collect();
    assert_eq!(keys, ["schema", "file", "format", "tokenizer", "total", "messages"]);
    assert_eq!(stats["schema"], "ctxlens.stats/1");
    assert_eq!(stats["file"], sample("support-agent.json"));
    let first = &stats["messages"][2];
    let keys: Vec<&String> = first.as_object().expect("object").keys().collect();
    assert_eq!(
        keys,
        ["index", "role", "tokens", "cumulative", "tool_calls", "tool_results"]
    );
    assert_eq!(first["tool_calls"], serde_json::json!(["call_1"]));
    assert_eq!(stats["messages"][3]["tool_results"], serde_json::json!(["call_1"]));
    let last = stats["messages"].as_array().expect("list").last().expect("one");
    assert_eq!(last["cumulative"], stats["total"]);
}

#[test]
fn plan_json_has_the_documented_keys_in_order() {
    let out = ctxlens(&[
        "compact",
        &sample("support-agent.json"),
        "--max-tokens",
        "1500",
        "--plan",
    ]);
    assert_exit(&out, 0);
    let plan = json_stdout(&out);
    let keys: Vec<&String> = plan.as_object().expect("object").keys().collect();
    assert_eq!(
        keys,
        [
            "schema",
            "file",
            "tokenizer",
            "tokens_before",
            "max_tokens",
            "keep_tail",
            "compacted",
            "head_end",
            "split",
            "summarized",
            "fallback",
            "tail_empty",
            "tokens_after",
            "messages"
        ]
    );
    let row = &plan["messages"][2];
    let keys: Vec<&String> = row.as_object().expect("object").keys().collect();
    assert_eq!(keys, ["index", "role", "tokens", "section", "group"]);
    assert_eq!(plan["messages"][0]["section"], "head");
    assert_eq!(plan["messages"][1]["section"], "summarized");
    assert_eq!(plan["messages"][2]["group"], 0);
}

#[test]
fn compaction_keeps_everything_outside_the_list_verbatim() {
    let path = sample("anthropic-parallel-tools.json");
    let input = std::fs::read_to_string(&path).expect("sample");
    let out = ctxlens(&["compact", &path, "--max-tokens", "300", "--keep-tail", "150"]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    let messages_at = input.find("\"messages\": [").expect("list") + "\"messages\": [".len();
    assert!(
        text.starts_with(&input[..messages_at]),
        "model, max_tokens and system are written back as read"
    );
    assert!(text.ends_with("\n  ]\n}\n"), "the closing of the document is kept");
    let doc: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(
        doc["messages"][0]["role"], "system",
        "§7F puts the summary inside messages"
    );
    assert!(
        stderr(&out).contains("Anthropic API rejects"),
        "and warns about it: {}",
        stderr(&out)
    );
    // `check` predicts the API's refusal of that output.
    let checked = ctxlens_stdin(&["check", "-", "--format", "anthropic"], text.as_bytes());
    assert_exit(&checked, 1);
    assert!(
        stdout(&checked).contains("Unexpected role \"system\""),
        "{}",
        stdout(&checked)
    );
}

#[test]
fn jsonl_round_trips_and_compacts_line_by_line() {
    let path = sample("agent-loop.jsonl");
    let input = std::fs::read_to_string(&path).expect("sample");
    let noop = ctxlens(&["compact", &path, "--max-tokens", "100000"]);
    assert_exit(&noop, 0);
    assert_eq!(stdout(&noop), input);
    let out = ctxlens(&["compact", &path, "--max-tokens", "50"]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    // The one-prompt loop has a single user turn at index 0: everything is summarized.
    assert_eq!(
        text,
        "{\"role\":\"system\",\"content\":\"[Summary of earlier conversation]\\nsummarized 12 messages\"}\n"
    );
    assert!(stderr(&out).contains("no user message left"), "{}", stderr(&out));
}

#[test]
fn standard_input_and_a_bom_are_accepted() {
    let mut input = "\u{feff}".as_bytes().to_vec();
    input.extend(std::fs::read(sample("support-agent.json")).expect("sample"));
    let out = ctxlens_stdin(&["compact", "-", "--max-tokens", "100000"], &input);
    assert_exit(&out, 0);
    assert_eq!(out.stdout, input, "the no-op writes the BOM back too");
    let stats = ctxlens_stdin(&["stats", "-", "--json"], &input);
    assert_exit(&stats, 0);
}

#[test]
fn output_file_is_atomic_and_never_the_input_unless_forced() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("t.json");
    std::fs::copy(sample("support-agent.json"), &input).expect("copy");
    let original = std::fs::read(&input).expect("read");
    let input_arg = input.to_str().expect("UTF-8 path");
    let refused = ctxlens(&["compact", input_arg, "--max-tokens", "1500", "-o", input_arg]);
    assert_exit(&refused, 2);
    assert!(
        stderr(&refused).contains("refusing to overwrite the input"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(std::fs::read(&input).expect("read"), original);

    let out_path = dir.path().join("out.json");
    let out_arg = out_path.to_str().expect("UTF-8 path");
    let written = ctxlens(&["compact", input_arg, "--max-tokens", "1500", "-o", out_arg]);
    assert_exit(&written, 0);
    assert!(stderr(&written).contains("summarized"), "{}", stderr(&written));
    let doc: Value = serde_json::from_slice(&std::fs::read(&out_path).expect("output")).expect("JSON");
    assert!(doc[1]["content"]
        .as_str()
        .expect("text")
        .starts_with("[Summary of earlier conversation]\n"));
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names.len(), 2, "no temporary file left behind: {names:?}");

    let forced = ctxlens(&["compact", input_arg, "--max-tokens", "1500", "-o", input_arg, "--force"]);
    assert_exit(&forced, 0);
    assert_ne!(std::fs::read(&input).expect("read"), original);
}

#[test]
fn check_reports_each_broken_pair_with_the_provider_text() {
    let broken = r#"[{"role":"user","content":"hi"},
{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"f","arguments":"{}"}}]},
{"role":"tool","tool_call_id":"a","content":"ok"},
{"role":"user","content":"next"},
{"role":"tool","tool_call_id":"zzz","content":"late"}]"#;
    let out = ctxlens_stdin(&["check", "-"], broken.as_bytes());
    assert_exit(&out, 1);
    let text = stdout(&out);
    assert!(
        text.contains("<stdin>: message 1: tool call(s) `b` not answered"),
        "{text}"
    );
    assert!(
        text.contains("The following tool_call_ids did not have response messages: b"),
        "{text}"
    );
    assert!(text.contains("<stdin>: message 4: tool result `zzz`"), "{text}");
    assert!(text.contains("messages with role 'tool' must be a response to a preceeding message with 'tool_calls'"));
    let json = json_stdout(&ctxlens_stdin(&["check", "-", "--json"], broken.as_bytes()));
    assert_eq!(json["ok"], false);
    assert_eq!(json["problems"].as_array().expect("list").len(), 2);

    let fine = ctxlens(&["check", &sample("anthropic-parallel-tools.json")]);
    assert_exit(&fine, 0);
    assert!(stdout(&fine).contains("ok for anthropic"));
}

#[test]
fn anthropic_check_catches_a_result_without_its_call() {
    let broken = r#"{"messages":[{"role":"user","content":"hi"},
{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_9","content":"x"}]}]}"#;
    let out = ctxlens_stdin(&["check", "-", "--provider", "anthropic"], broken.as_bytes());
    assert_exit(&out, 1);
    assert!(
        stdout(&out).contains("unexpected `tool_use_id` found in `tool_result` blocks: toolu_9"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_closed_pipe_is_success() {
    // The reader closes after the first line; ctxlens must not fail or complain, whatever
    // the command writes (a table, JSON, a compacted transcript).
    let file = common::data().join("real-transcripts/openai-chat/mini-swe-agent-deepseek-chat-django-13265.traj.json");
    for command in [
        "stats",
        "history --json",
        "compact --max-tokens 2000",
        "replay --max-tokens 4000 --json",
        "compact --max-tokens 2000 --plan",
        "sweep --max-tokens 2000..8000:2000 --json",
    ] {
        let (name, options) = command.split_once(' ').unwrap_or((command, ""));
        let script = format!(
            "{} {name} {} {options} | head -c 20 >/dev/null; echo ${{PIPESTATUS[0]}}",
            env!("CARGO_BIN_EXE_ctxlens"),
            file.display()
        );
        let out = std::process::Command::new("bash")
            .args(["-c", &script])
            .output()
            .expect("bash runs");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            "0",
            "{command}: stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(!said.contains("error"), "{command}: {said}");
    }
}

#[test]
fn no_file_prints_the_demo_stats_when_not_a_terminal() {
    let out = ctxlens(&[]);
    assert_exit(&out, 0);
    assert!(
        stdout(&out).starts_with("demo:support-agent.json: openai"),
        "{}",
        stdout(&out)
    );
    assert!(stderr(&out).contains("not a terminal"), "{}", stderr(&out));
}

#[test]
fn every_example_in_the_help_runs() {
    // Each subcommand's examples run in a folder holding a real Claude Code log as
    // `session.jsonl` and a `sessions/` folder of logs.
    let dir = tempfile::tempdir().expect("temp dir");
    let logs = common::data().join("real-transcripts/claude-code-jsonl");
    std::fs::copy(
        logs.join("codemie-autocompact-624a4a58.jsonl"),
        dir.path().join("session.jsonl"),
    )
    .expect("copy");
    std::fs::create_dir(dir.path().join("sessions")).expect("mkdir");
    for entry in std::fs::read_dir(&logs).expect("logs").take(3) {
        let path = entry.expect("entry").path();
        std::fs::copy(&path, dir.path().join("sessions").join(path.file_name().expect("name"))).expect("copy");
    }
    let mut ran = 0;
    for sub in [
        "stats",
        "compact",
        "check",
        "history",
        "replay",
        "sweep",
        "scan",
        "compare",
        "status",
        "completions",
        "man",
    ] {
        let help = stdout(&ctxlens(&[sub, "--help"]));
        let examples: Vec<&str> = help.lines().filter_map(|l| l.strip_prefix("  ctxlens ")).collect();
        assert!(!examples.is_empty(), "`ctxlens {sub} --help` shows examples");
        for example in examples {
            // The completion and man examples redirect into a user's folders: run the
            // command itself (through the shell, which reads its quotes).
            let command = example.split(" > ").next().unwrap_or(example);
            let words: Vec<&str> = command.split_whitespace().collect();
            let out = std::process::Command::new("sh")
                .args(["-c", &format!("\"$0\" {command}"), env!("CARGO_BIN_EXE_ctxlens")])
                .env("XDG_CACHE_HOME", common::test_cache())
                // `~` in an example is this folder: nothing is written to the real home.
                .env("HOME", dir.path())
                .current_dir(dir.path())
                .output()
                .expect("runs");
            let ok = out.status.code() == Some(0) || (sub == "check" && out.status.code() == Some(1));
            assert!(ok, "`ctxlens {example}` failed: {}", stderr(&out));
            // An example that writes a file (`-o OUT`) or a folder (`--dir DIR`) writes
            // it; any other prints.
            let target = |flag: &str| words.iter().position(|w| *w == flag).map(|at| words[at + 1]);
            match (target("-o"), target("--dir")) {
                (Some(file), _) => assert!(dir.path().join(file).is_file(), "`ctxlens {example}` wrote nothing"),
                (None, Some(folder)) => {
                    let folder = folder.replacen('~', &dir.path().display().to_string(), 1);
                    let written = std::fs::read_dir(&folder).map_or(0, Iterator::count);
                    assert!(written > 0, "`ctxlens {example}` wrote nothing in {folder}");
                }
                (None, None) => assert!(!out.stdout.is_empty(), "`ctxlens {example}` printed nothing"),
            }
            ran += 1;
        }
    }
    assert!(ran >= 20, "{ran} examples ran");
}

/// The commands that read no settings refuse a settings file rather than ignore it, and
/// `status --help` names standard input.
#[test]
fn a_settings_file_is_refused_where_no_setting_is_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("ctxlens.toml");
    std::fs::write(&config, "max_tokens = 1000\n").expect("written");
    let config = config.to_str().expect("UTF-8");
    for args in [&["completions", "bash"][..], &["man"], &["schema"]] {
        let mut with = args.to_vec();
        with.extend(["--config", config]);
        let out = ctxlens(&with);
        assert_exit(&out, 2);
        assert!(
            common::stderr(&out).contains("reads no settings"),
            "{args:?}: {}",
            common::stderr(&out)
        );
        assert_exit(&ctxlens(args), 0);
    }
    let help = stdout(&ctxlens(&["status", "--help"]));
    assert!(help.contains("`-` for"), "{help}");
}

/// The shell `name` when installed; a machine without it skips, saying so, unless
/// `CTXLENS_REQUIRE_SHELLS=1` (CI installs bash, zsh and fish and sets it).
fn shell(name: &str) -> Option<&str> {
    let found = std::process::Command::new(name)
        .args(["-c", "exit 0"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            !std::env::var("CTXLENS_REQUIRE_SHELLS").is_ok_and(|v| v == "1"),
            "{name} is required here (CTXLENS_REQUIRE_SHELLS=1)"
        );
        eprintln!("{name} is not installed: its completion test is skipped");
    }
    found.then_some(name)
}

/// The completion scripts offer an option's fixed values in the shells themselves: bash's
/// completion function, fish's `complete -C` and zsh's line editor (driven in a
/// pseudo-terminal) list every policy for `--policy` and every kind for `--emit-config`.
#[test]
fn the_shells_complete_an_options_values() {
    let dir = tempfile::tempdir().expect("temp dir");
    let script = |shell: &str| {
        let path = dir.path().join(format!("ctxlens.{shell}"));
        std::fs::write(&path, stdout(&ctxlens(&["completions", shell]))).expect("written");
        path.to_str().expect("UTF-8").to_owned()
    };
    let policies: Vec<&str> = ctxlens::policy::all().iter().map(|p| p.name()).collect();
    let offered = |words: &str| -> Vec<String> { words.split_whitespace().map(str::to_owned).collect() };
    // What a shell offers after `--policy ` and after `--emit-config `.
    let offers_every_value = |shell: &str, run: &dyn Fn(&str) -> Vec<String>| {
        let got = run("ctxlens compact --policy ");
        for policy in &policies {
            assert!(got.iter().any(|w| w == policy), "{shell} offers {policy}: {got:?}");
        }
        let kinds = run("ctxlens compact --emit-config ");
        assert!(kinds.iter().any(|w| w == "claude-code"), "{shell}: {kinds:?}");
    };
    if let Some(bash) = shell("bash") {
        let path = script("bash");
        let run = |line: &str| {
            let words: Vec<&str> = line.split(' ').collect();
            let program = format!(
                "source {path}; COMP_WORDS=({}); COMP_CWORD={}; COMP_LINE='{line}'; COMP_POINT=${{#COMP_LINE}}; _ctxlens ctxlens '' {}; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
                words.iter().map(|w| format!("'{w}'")).collect::<Vec<_>>().join(" "),
                words.len() - 1,
                words[words.len() - 2],
            );
            let out = std::process::Command::new(bash)
                .args(["-c", &program])
                .output()
                .expect("bash runs");
            offered(&String::from_utf8_lossy(&out.stdout))
        };
        offers_every_value("bash", &run);
    }
    if let Some(fish) = shell("fish") {
        let path = script("fish");
        let run = |line: &str| {
            let out = std::process::Command::new(fish)
                .args(["-c", &format!("source {path}; complete -C '{line}'")])
                .output()
                .expect("fish runs");
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter_map(|l| l.split('\t').next())
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        offers_every_value("fish", &run);
    }
    if let Some(zsh) = shell("zsh") {
        // zsh completes only inside its line editor: one runs in a pseudo-terminal
        // (`zpty`), the script on its `fpath`, and a Tab is typed after each line.
        let functions = dir.path().join("zsh");
        std::fs::create_dir(&functions).expect("folder");
        std::fs::write(functions.join("_ctxlens"), stdout(&ctxlens(&["completions", "zsh"]))).expect("written");
        let run = |line: &str| {
            let driver = format!(
                r#"zmodload zsh/zpty
zpty z 'TERM=xterm COLUMNS=300 LINES=100 zsh -f -i'
zpty -w z "fpath=({} \$fpath); autoload -U compinit; compinit -u -D; zstyle ':completion:*' list-prompt ''; LISTMAX=0; PS1='%% '"
zpty -n -w z $'{line}\t'
out=""
for i in {{1..16}}; do
  sleep 0.25
  while zpty -r -t z chunk; do out+="$chunk"; done
done
print -r -- "$out"
zpty -d z
"#,
                functions.display()
            );
            let out = std::process::Command::new(zsh)
                .args(["-f", "-c", &driver])
                .output()
                .expect("zsh runs");
            // The screen's words, its terminal escapes taken out (the line typed holds no
            // value it is asked to offer).
            let mut screen = String::new();
            let mut escaped = false;
            for c in String::from_utf8_lossy(&out.stdout).chars() {
                match c {
                    '\u{1b}' => escaped = true,
                    c if escaped => escaped = !c.is_ascii_alphabetic(),
                    '\r' => screen.push(' '),
                    c => screen.push(c),
                }
            }
            offered(&screen)
        };
        offers_every_value("zsh", &run);
        // The first word is a subcommand or a file: subcommands are still offered.
        assert!(
            run("ctxlens comp").iter().any(|w| w == "compare"),
            "zsh offers subcommands"
        );
    }
}

#[test]
fn completions_and_the_manual_page_cover_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = ctxlens(&["completions", shell]);
        assert_exit(&out, 0);
        let script = stdout(&out);
        for sub in ["stats", "compact", "history", "replay", "sweep", "scan", "compare"] {
            assert!(script.contains(sub), "{shell} completes `{sub}`");
        }
        assert!(script.contains("max-tokens"), "{shell} completes options");
        // `--set` offers every policy's keys, and compare's one-policy form too; the help
        // does not list them.
        // (clap's PowerShell and Elvish scripts complete no option values.)
        for key in [
            "auto_compact_token_limit=",
            "clear_tool_inputs=",
            "codex.auto_compact_token_limit=",
        ] {
            assert!(
                script.contains(key) || ["powershell", "elvish"].contains(&shell),
                "{shell} completes `--set {key}`"
            );
        }
    }
    let help = stdout(&ctxlens(&["compact", "--help"]));
    assert!(!help.contains("clear_tool_inputs="), "{help}");
    let man = stdout(&ctxlens(&["man"]));
    assert!(man.starts_with(".ie") || man.contains(".TH ctxlens 1"), "roff");
    assert!(man.contains(".TH ctxlens 1") && man.contains("compact"));
    // A closed pipe is not an error, here either.
    let out = std::process::Command::new("sh")
        .args([
            "-c",
            &format!("{} completions bash | head -c 10", env!("CARGO_BIN_EXE_ctxlens")),
        ])
        .output()
        .expect("sh runs");
    assert!(out.status.success() && !String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn every_subcommand_has_a_manual_page_with_exit_status_environment_and_files() {
    let dir = tempfile::tempdir().expect("a folder");
    let out = ctxlens(&["man", "--dir", dir.path().to_str().expect("utf-8")]);
    assert_exit(&out, 0);
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("pages")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    // The pages the top page's SUBCOMMANDS section names, each produced.
    let top = std::fs::read_to_string(dir.path().join("ctxlens.1")).expect("the top page");
    for sub in [
        "stats", "compact", "history", "ledger", "replay", "sweep", "scan", "compare", "status",
    ] {
        let page = format!("ctxlens-{sub}.1");
        assert!(names.contains(&page), "{page} in {names:?}");
        assert!(
            top.contains(&format!("ctxlens\\-{sub}(1)")),
            "the top page names {page}"
        );
        let text = std::fs::read_to_string(dir.path().join(&page)).expect("a page");
        assert!(
            text.contains(&format!(".TH ctxlens-{sub} 1")),
            "{page} is titled after its command"
        );
        for section in [".SH EXAMPLES", ".SH EXIT STATUS", ".SH ENVIRONMENT", ".SH FILES"] {
            assert!(text.contains(section), "{page}: {section}");
        }
        assert_eq!(
            stdout(&ctxlens(&["man", sub])),
            text,
            "man {sub} prints the page --dir writes"
        );
    }
    let unknown = ctxlens(&["man", "nope"]);
    assert_exit(&unknown, 2);
    assert!(stderr(&unknown).contains("one of: stats"), "{}", stderr(&unknown));
    // Rendered as `man -l` renders it (preconv for UTF-8, -k), with every warning on: none.
    if std::process::Command::new("groff").arg("--version").output().is_ok() {
        for name in &names {
            let rendered = std::process::Command::new("groff")
                .args(["-k", "-man", "-Tutf8", "-ww", "-z"])
                .arg(dir.path().join(name))
                .output()
                .expect("groff runs");
            assert!(
                rendered.stderr.is_empty(),
                "{name}: {}",
                String::from_utf8_lossy(&rendered.stderr)
            );
        }
    }
}

#[test]
fn standard_input_is_read_and_named_the_same_in_every_command() {
    let sample = std::fs::read(sample("support-agent.json")).expect("a sample");
    let scanned = ctxlens_stdin(&["scan", "-", "--json"], &sample);
    assert_exit(&scanned, 0);
    let row: serde_json::Value = serde_json::from_slice(&scanned.stdout).expect("a row");
    assert_eq!(row["path"], "<stdin>", "{row}");
    assert!(row.get("error").is_none(), "{row}");
    assert!(row["started"].is_null(), "no file, no date: {row}");
    for argv in [
        &["compare", "-", "--json", "--summarizer", "placeholder"][..],
        &["history", "-", "--json"],
        &["stats", "-", "--json"],
    ] {
        let out = ctxlens_stdin(argv, &sample);
        assert_exit(&out, 0);
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(doc["file"], "<stdin>", "{argv:?}");
    }
}

#[test]
fn a_mistyped_subcommand_is_suggested_not_taken_for_a_file() {
    let out = ctxlens(&["stat", "f.json"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("did you mean the subcommand `stats`?"),
        "{}",
        stderr(&out)
    );
    let out = ctxlens(&["histroy"]);
    assert!(stderr(&out).contains("`history`"), "{}", stderr(&out));
    let out = ctxlens(&["frobnicate"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("neither a file nor a subcommand"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("did you mean"));
    // A file of that name is opened as a file.
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::copy(
        repo().join("sample-transcripts/support-agent.json"),
        dir.path().join("stat"),
    )
    .expect("copy");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ctxlens"))
        .arg("stat")
        .current_dir(dir.path())
        .output()
        .expect("runs");
    assert_exit(&out, 0);
}

#[test]
fn status_is_one_line_from_the_recorded_usage_and_the_agents_own_threshold() {
    let log = common::data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let log = log.to_str().expect("utf-8");
    let status = json_stdout(&ctxlens(&["status", log, "--json"]));
    let counted = json_stdout(&ctxlens(&["stats", log, "--json"]));
    let history = json_stdout(&ctxlens(&["history", log, "--json"]));
    assert_eq!(status["schema"], "ctxlens.status/1");
    // The context now: the last size the provider recorded.
    assert_eq!(status["tokens"], counted["recorded_last"]);
    assert_eq!(status["tokens_from"], "recorded");
    // Where Claude Code compacts: within what its own auto-compaction showed (above the
    // largest request before it, at most its preTokens), the release's rule in that range.
    let bracket = history["compactions"][0]["threshold_between"].clone();
    let (low, high) = (bracket[0].as_u64().expect("low"), bracket[1].as_u64().expect("high"));
    let at = status["threshold"].as_u64().expect("threshold");
    assert!(low < at && at <= high, "{at} outside ({low}, {high}]");
    let (tokens, threshold, window) = (
        status["tokens"].as_u64().expect("tokens"),
        status["threshold"].as_u64().expect("threshold"),
        status["window"].as_u64().expect("window"),
    );
    // What is left is counted as Claude Code counts (2.0.76: the last prompt and output).
    let agent = status["agent_tokens"].as_u64().expect("Claude Code's own count");
    assert!(agent > tokens, "{agent} ≤ {tokens}");
    assert_eq!(status["left"].as_u64(), Some(threshold.saturating_sub(agent)));
    assert_eq!(status["pct"].as_u64(), Some(tokens * 100 / window));
    let line = stdout(&ctxlens(&["status", log]));
    assert_eq!(line.lines().count(), 1);
    assert!(
        line.starts_with(&format!("{}% of {}k", tokens * 100 / window, window / 1000)),
        "{line}"
    );
    let custom = stdout(&ctxlens(&["status", log, "--template", "{pct}|{left}|{model}"]));
    assert_eq!(
        custom.trim(),
        format!(
            "{}|{}k|{}",
            tokens * 100 / window,
            (threshold.saturating_sub(agent) + 500) / 1000,
            status["model"].as_str().expect("model")
        )
    );
    // The old --format still works, with a warning; an unknown placeholder is refused.
    let old = ctxlens(&["status", log, "--format", "{pct}|{left}|{model}"]);
    assert_eq!(stdout(&old), custom);
    assert!(stderr(&old).contains("--template"), "{}", stderr(&old));
    let unknown = ctxlens(&["status", log, "--template", "{pct} {percent}"]);
    assert_exit(&unknown, 2);
    assert!(
        stderr(&unknown).contains("unknown placeholder {percent}"),
        "{}",
        stderr(&unknown)
    );
    // An agent without automatic compaction is said so; a Codex rollout compacts at 90%.
    let api = stdout(&ctxlens(&[
        "status",
        repo()
            .join("sample-transcripts/support-agent.json")
            .to_str()
            .expect("UTF-8"),
    ]));
    assert!(
        api.trim().ends_with("no automatic compaction") && !api.contains('?'),
        "{api}"
    );
    // Its model names no window: the one assumed is said, and where each comes from.
    let support = repo().join("sample-transcripts/support-agent.json");
    let support = support.to_str().expect("UTF-8");
    let assumed = json_stdout(&ctxlens(&["status", support, "--json"]));
    assert_eq!(assumed["window_from"], ctxlens::meter::ASSUMED_WINDOW, "{assumed}");
    assert!(api.contains("(window assumed)"), "{api}");
    let given = json_stdout(&ctxlens(&["status", support, "--json", "--context-window", "64000"]));
    assert_eq!(
        (given["window"].as_u64(), given["window_from"].as_str()),
        (Some(64_000), Some("given (--context-window)"))
    );
    assert!(!stdout(&ctxlens(&["status", support, "--context-window", "64000"])).contains("assumed"));
    assert!(
        status["window_from"]
            .as_str()
            .is_some_and(|from| from != ctxlens::meter::ASSUMED_WINDOW),
        "{status}"
    );
    let codex = data().join("real-transcripts/codex-rollout/codemie-codex-cli-019e1625.jsonl");
    let codex = json_stdout(&ctxlens(&["status", codex.to_str().expect("UTF-8"), "--json"]));
    // The rollout records the usable window, 95% of the model's; Codex compacts at 90%
    // of the model's.
    assert_eq!(
        codex["threshold"].as_u64(),
        codex["window"].as_u64().map(|w| w * 100 / 95 * 9 / 10),
        "{codex}"
    );
    // A folder: its most recently written session.
    let dir = tempfile::tempdir().expect("temp dir");
    let older = dir.path().join("older.json");
    std::fs::copy(repo().join("sample-transcripts/support-agent.json"), &older).expect("copy");
    let newer = dir.path().join("newer.jsonl");
    std::fs::copy(log, &newer).expect("copy");
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&older)
        .expect("open")
        .set_modified(past)
        .expect("mtime");
    let of_folder = json_stdout(&ctxlens(&["status", dir.path().to_str().expect("utf-8"), "--json"]));
    assert_eq!(of_folder["file"], newer.to_str().expect("utf-8"));
}

#[test]
fn status_answers_from_its_cache_while_the_log_is_unchanged() {
    let cache = tempfile::tempdir().expect("cache dir");
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("session.jsonl");
    std::fs::copy(
        common::data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl"),
        &log,
    )
    .expect("copy");
    let status = || -> serde_json::Value {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ctxlens"))
            .args(["status", log.to_str().expect("utf-8"), "--json"])
            .env("XDG_CACHE_HOME", cache.path())
            .output()
            .expect("runs");
        assert_exit(&out, 0);
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    let first = status();
    let kept: Vec<std::path::PathBuf> = std::fs::read_dir(cache.path().join("ctxlens/status"))
        .expect("the answer is kept")
        .map(|e| e.expect("entry").path())
        .collect();
    assert_eq!(kept.len(), 1);
    assert_eq!(status(), first, "the same answer from the cache");
    // The cache is what answers: an entry changed by hand is given back as long as the
    // log is unchanged...
    let mut entry: serde_json::Value = serde_json::from_slice(&std::fs::read(&kept[0]).expect("read")).expect("JSON");
    entry["status"]["tokens"] = serde_json::json!(12_345);
    std::fs::write(&kept[0], entry.to_string()).expect("write");
    assert_eq!(status()["tokens"], 12_345);
    assert_eq!(status()["file"], first["file"]);
    // ...but never an answer another build of ctxlens made (it may read the file
    // otherwise): an entry of another program, or of an older one that did not say
    // which, is answered afresh.
    for program in [Some(serde_json::json!([1, 2])), None] {
        let mut entry: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&kept[0]).expect("read")).expect("JSON");
        entry["status"]["tokens"] = serde_json::json!(12_345);
        match program {
            Some(other) => entry["program"] = other,
            None => {
                entry.as_object_mut().expect("an object").remove("program");
            }
        }
        std::fs::write(&kept[0], entry.to_string()).expect("write");
        assert_eq!(status(), first, "{entry}");
    }
    // ...and a log that grew is brought up to date.
    let mut text = std::fs::read_to_string(&log).expect("read");
    text.push('\n');
    std::fs::write(&log, text).expect("append");
    assert_eq!(status()["tokens"], first["tokens"]);
}

/// A status bar on a session being written: each call reads only the lines written since
/// the last one (the kept state says where it stopped) and answers exactly what reading
/// the whole log answers.
#[test]
fn status_reads_on_a_growing_log_and_agrees_with_a_whole_read() {
    let claude_code =
        std::fs::read_to_string(common::data().join("real-transcripts/claude-code-jsonl/ccl-sample-37f83ec9.jsonl"))
            .expect("log");
    status_reads_on(&claude_code, 60);
    let codex = std::fs::read_to_string(
        common::data().join("real-transcripts/codex-rollout/codemie-codex-desktop-019e1695.jsonl"),
    )
    .expect("rollout");
    status_reads_on(&ctxlens::synth::codex_with_usage(&codex), 40);
}

/// `source` written `first` lines at first, then in steps: each `status` reads on and
/// answers what a fresh cache's whole read answers.
fn status_reads_on(source: &str, first: usize) {
    let cache = tempfile::tempdir().expect("cache dir");
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("session.jsonl");
    let lines: Vec<&str> = source.lines().collect();
    let status = |cache: &std::path::Path| -> serde_json::Value {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ctxlens"))
            .args(["status", log.to_str().expect("utf-8"), "--json"])
            .env("XDG_CACHE_HOME", cache)
            .output()
            .expect("runs");
        assert_exit(&out, 0);
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    let kept_state = || -> serde_json::Value {
        let entry = std::fs::read_dir(cache.path().join("ctxlens/status"))
            .expect("kept")
            .next()
            .expect("an entry")
            .expect("entry")
            .path();
        serde_json::from_slice::<serde_json::Value>(&std::fs::read(entry).expect("read")).expect("JSON")["state"]
            .clone()
    };
    std::fs::write(&log, lines[..first].join("\n") + "\n").expect("written");
    status(cache.path());
    let mut written = first;
    for step in [7, 1, 25, 40, 3] {
        let to = (written + step).min(lines.len());
        let mut file = std::fs::OpenOptions::new().append(true).open(&log).expect("opens");
        std::io::Write::write_all(&mut file, (lines[written..to].join("\n") + "\n").as_bytes()).expect("appended");
        written = to;
        let on = status(cache.path());
        assert_eq!(
            kept_state()["read_to"].as_u64(),
            Some(std::fs::metadata(&log).expect("meta").len()),
            "read on to the end"
        );
        let fresh = tempfile::tempdir().expect("fresh cache");
        assert_eq!(on, status(fresh.path()), "after {written} lines");
    }
}

/// Whatever happens to a followed log between two calls — lines appended, the file cut
/// short in place, emptied, rewritten at the same size, replaced by another file — `status`
/// answers exactly what a whole read with an empty cache answers (exit code and output).
/// A seeded random walk of 40 steps over a Claude Code log and a Codex rollout.
#[test]
fn status_with_its_cache_answers_as_a_fresh_read_whatever_happens_to_the_file() {
    let claude_code =
        std::fs::read_to_string(common::data().join("real-transcripts/claude-code-jsonl/ccl-sample-37f83ec9.jsonl"))
            .expect("log");
    let codex = std::fs::read_to_string(
        common::data().join("real-transcripts/codex-rollout/codemie-codex-desktop-019e1695.jsonl"),
    )
    .expect("rollout");
    for (seed, source) in [(7_u64, claude_code), (11, ctxlens::synth::codex_with_usage(&codex))] {
        status_walk(seed, &source);
    }
}

/// One random walk (xorshift, seeded: the same steps at every run).
fn status_walk(mut seed: u64, source: &str) {
    let mut random = |below: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        usize::try_from(seed % below as u64).expect("small")
    };
    let lines: Vec<&str> = source.lines().collect();
    let cache = tempfile::tempdir().expect("cache dir");
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("session.jsonl");
    let status = |cache: &std::path::Path| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ctxlens"))
            .args(["status", log.to_str().expect("utf-8"), "--json"])
            .env("XDG_CACHE_HOME", cache)
            .output()
            .expect("runs");
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let text_of = |n: usize| lines[..n].join("\n") + "\n";
    let mut written = lines.len() / 3;
    std::fs::write(&log, text_of(written)).expect("written");
    let mut operations = Vec::new();
    for step in 0..40 {
        let before = std::fs::metadata(&log).expect("meta").modified().expect("mtime");
        let operation = match random(6) {
            // Appended, as an agent writes.
            0..=2 => {
                let to = (written + 1 + random(30)).min(lines.len());
                let mut file = std::fs::OpenOptions::new().append(true).open(&log).expect("opens");
                let added = text_of(to).into_bytes().split_off(text_of(written).len());
                std::io::Write::write_all(&mut file, &added).expect("appended");
                written = to;
                "append"
            }
            // Cut short in place (the same file, fewer lines).
            3 => {
                written = random(written.max(1));
                let file = std::fs::OpenOptions::new().write(true).open(&log).expect("opens");
                file.set_len(text_of(written).len() as u64).expect("cut");
                "cut"
            }
            // Rewritten at the same size: one digit of the last line changed.
            4 => {
                let mut text = std::fs::read_to_string(&log).expect("read");
                if let Some(at) = text.rfind(|c: char| c.is_ascii_digit() && c != '9') {
                    let digit = text.as_bytes()[at] + 1;
                    text.replace_range(at..=at, &char::from(digit).to_string());
                }
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(&log)
                    .and_then(|mut f| std::io::Write::write_all(&mut f, text.as_bytes()))
                    .expect("rewritten");
                "rewrite"
            }
            // Replaced by another file at the same path (a new inode).
            _ => {
                written = random(lines.len()).max(1);
                let other = dir.path().join("next.jsonl");
                std::fs::write(&other, text_of(written)).expect("written");
                std::fs::rename(&other, &log).expect("replaced");
                "replace"
            }
        };
        // Two writes within one tick of the file system's clock leave the same time: a
        // same-size rewrite in the same tick as the last look cannot be told without
        // reading the file, so the walk moves the clock on (what a real edit does).
        let file = std::fs::OpenOptions::new().write(true).open(&log).expect("opens");
        file.set_modified(before + std::time::Duration::from_millis(10))
            .expect("mtime");
        operations.push(operation);
        let fresh = tempfile::tempdir().expect("fresh cache");
        assert_eq!(
            status(cache.path()),
            status(fresh.path()),
            "step {step} after {operations:?}"
        );
    }
    assert!(
        ["append", "cut", "rewrite", "replace"]
            .iter()
            .all(|o| operations.contains(o)),
        "{operations:?}"
    );
}

/// An agent's log ctxlens does not read (Copilot CLI's older single-file session) is
/// refused by name, with the file and position, and a non-zero exit — never misread as a
/// Claude Code log (`tests/data/other-agents/SOURCES.md`). `scan` lists it as a row that
/// failed to load. (opencode's storage-tree files read alone: `opencode.rs`.)
#[test]
fn other_agents_logs_are_refused_by_name() {
    let folder = data().join("other-agents");
    let refused = [(
        folder.join("copilot-cli/session-older-form.json"),
        "a GitHub Copilot CLI session",
    )];
    for (path, agent) in &refused {
        let path = path.to_str().expect("utf-8 path");
        for command in ["stats", "history", "status"] {
            let out = ctxlens(&[command, path]);
            assert_ne!(out.status.code(), Some(0), "{command} {path}: {}", stdout(&out));
            let said = stderr(&out);
            assert!(
                said.contains(&format!("{path}:1:1: {agent}")),
                "{command} {path}: {said}"
            );
            assert!(said.contains("does not read this agent's logs yet"), "{said}");
        }
        let rows: Vec<Value> = String::from_utf8_lossy(&ctxlens(&["scan", path, "--json"]).stdout)
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON row"))
            .collect();
        assert_eq!(rows.len(), 1);
        assert!(
            rows[0]["error"].as_str().is_some_and(|e| e.contains("does not read")),
            "{rows:?}"
        );
    }
}

/// `ctxlens schema` lists every document whose schema is published, and prints each as
/// published; a name it does not know is refused with the list.
#[test]
fn the_schema_command_prints_the_published_schemas() {
    let listed = ctxlens(&["schema"]);
    assert_exit(&listed, 0);
    let names: Vec<String> = stdout(&listed).lines().map(str::to_owned).collect();
    // Each listed name has its file (below); no file is left unlisted.
    let files = std::fs::read_dir(repo().join("docs/schemas"))
        .expect("docs/schemas")
        .count();
    assert_eq!(names.len(), files, "{names:?}");
    for name in &names {
        let out = ctxlens(&["schema", name]);
        assert_exit(&out, 0);
        let published = std::fs::read_to_string(repo().join(format!("docs/schemas/{name}.json"))).expect("schema");
        assert_eq!(stdout(&out), published, "{name}");
    }
    let unknown = ctxlens(&["schema", "stat"]);
    assert_exit(&unknown, 2);
    assert!(stderr(&unknown).contains("stats"), "{}", stderr(&unknown));
}
