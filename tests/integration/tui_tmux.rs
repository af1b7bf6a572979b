//! End to end: the built binary in a real terminal (tmux). Opens the toolnexus fixture
//! with `--max-tokens 2000 --keep-tail 800`, reads the totals off the screen, tunes the
//! budget, opens help, quits, and checks the exit status and that the terminal was
//! restored (cooked mode again). `.ci/run` installs tmux when it is missing and sets
//! `CTXLENS_REQUIRE_TMUX=1`; elsewhere a machine without tmux skips these tests, saying so.

use crate::common;

use std::process::Command;
use std::time::{Duration, Instant};

struct Session {
    name: String,
}

impl Session {
    /// A tmux session running `command`; `None` (a skip, said on standard error) when
    /// tmux is not installed and `CTXLENS_REQUIRE_TMUX` is not `1`.
    fn start(test: &str, command: &str) -> Option<Session> {
        Session::start_sized(test, command, (120, 40))
    }

    /// [`Session::start`] on a terminal of `size` (columns, rows).
    fn start_sized(test: &str, command: &str, size: (u16, u16)) -> Option<Session> {
        let installed = Command::new("tmux")
            .arg("-V")
            .output()
            .is_ok_and(|o| o.status.success());
        if !installed {
            let required = std::env::var("CTXLENS_REQUIRE_TMUX").is_ok_and(|v| v == "1");
            assert!(
                !required,
                "tmux is not installed and CTXLENS_REQUIRE_TMUX=1 requires it"
            );
            eprintln!("skipped {test}: tmux is not installed (CTXLENS_REQUIRE_TMUX=1 makes this a failure)");
            return None;
        }
        let name = format!("ctxlens-{test}-{}", std::process::id());
        let status = Command::new("tmux")
            .args([
                "new-session",
                "-d",
                "-s",
                &name,
                "-x",
                &size.0.to_string(),
                "-y",
                &size.1.to_string(),
                command,
            ])
            .status()
            .expect("tmux runs");
        assert!(status.success(), "tmux started");
        Some(Session { name })
    }

    fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.name])
            .output()
            .expect("capture");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", &self.name];
        args.extend_from_slice(keys);
        assert!(Command::new("tmux").args(&args).status().expect("send-keys").success());
    }

    /// Polls the screen until `ready` holds (the app redraws asynchronously), or fails
    /// after a generous deadline showing the last screen.
    fn wait_for(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = Command::new("tmux").args(["kill-session", "-t", &self.name]).status();
    }
}

#[test]
fn open_tune_help_and_quit_in_a_real_terminal() {
    let fixture = common::fixture_path();
    // After ctxlens exits, the pane prints its status and whether the tty is back in
    // canonical (cooked) mode, then waits so the screen can be read.
    let command = format!(
        "{} {} --max-tokens 2000 --keep-tail 800; echo \"EXIT=$?\"; stty -a | grep -o -- '-\\?icanon' | sed 's/^/TTY=/'; cat",
        env!("CARGO_BIN_EXE_ctxlens"),
        fixture.display()
    );
    let Some(session) = Session::start("tune", &command) else {
        return;
    };

    let screen = session.wait_for("the totals", |s| {
        s.contains("total 4,752") && s.contains("after 824 tokens")
    });
    assert!(screen.contains("100 messages summarized"), "{screen}");
    assert!(
        screen.contains("tail starts here"),
        "the boundary line is on screen:\n{screen}"
    );

    session.keys(&["+"]);
    let screen = session.wait_for("max_tokens to change", |s| s.contains("max_tokens     2,050"));
    assert!(screen.contains("max_tokens 2,050: split at #101"), "{screen}");
    session.keys(&["}"]);
    session.wait_for("the cut to move", |s| {
        s.contains("keep_tail 1,300: split at #89, 88 messages summarized")
    });

    session.keys(&["?"]);
    session.wait_for("help", |s| s.contains("┌ help ") && s.contains("raise max_tokens"));
    session.keys(&["q"]);
    session.wait_for("help to close", |s| !s.contains("┌ help "));

    session.keys(&["q"]);
    let screen = session.wait_for("the exit", |s| s.contains("TTY="));
    assert!(screen.contains("EXIT=0"), "{screen}");
    assert!(
        screen.contains("TTY=icanon"),
        "the terminal is back in cooked mode:\n{screen}"
    );
    assert!(
        !screen.contains("total 4,752"),
        "the alternate screen was left:\n{screen}"
    );
}

#[test]
fn sigterm_restores_the_terminal() {
    // A uniquely named copy, so the signal reaches this test's ctxlens and no other.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(format!("sigterm-{}.json", std::process::id()));
    std::fs::copy(common::repo().join("sample-transcripts/support-agent.json"), &path).expect("copy");
    let command = format!(
        "{} {}; echo \"EXIT=$?\"; stty -a | grep -o -- '-\\?icanon' | sed 's/^/TTY=/'; cat",
        env!("CARGO_BIN_EXE_ctxlens"),
        path.display()
    );
    let Some(session) = Session::start("sigterm", &command) else {
        return;
    };
    session.wait_for("the app", |s| s.contains("total 2,050"));
    // Anchored on the binary: the pane's shell has the path in its command line too.
    let pattern = format!("^{} {}$", env!("CARGO_BIN_EXE_ctxlens"), path.display());
    let killed = Command::new("pkill")
        .args(["-TERM", "-f", &pattern])
        .status()
        .expect("pkill runs");
    assert!(killed.success(), "the process was found");
    let screen = session.wait_for("the exit", |s| s.contains("TTY="));
    assert!(screen.contains("TTY=icanon"), "cooked mode after SIGTERM:\n{screen}");
    assert!(
        !screen.contains("total 2,050"),
        "the alternate screen was left:\n{screen}"
    );
}

#[test]
fn piped_input_reads_keys_from_the_terminal() {
    let command = format!(
        "cat {} | {} -; echo \"EXIT=$?\"; cat",
        common::repo().join("sample-transcripts/agent-loop.jsonl").display(),
        env!("CARGO_BIN_EXE_ctxlens")
    );
    let Some(session) = Session::start("pipe", &command) else {
        return;
    };
    session.wait_for("the app", |s| {
        s.contains("<stdin> · openai-jsonl") && s.contains("no user message left")
    });
    session.keys(&["?"]);
    session.wait_for("help", |s| s.contains("┌ help "));
    session.keys(&["q"]);
    session.wait_for("help to close", |s| !s.contains("┌ help "));
    session.keys(&["q"]);
    session.wait_for("the exit", |s| s.contains("EXIT=0"));
}

#[test]
fn the_summary_is_edited_in_the_editor_and_exported() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("support.json");
    std::fs::copy(common::repo().join("sample-transcripts/support-agent.json"), &input).expect("copy");
    // An "editor" that rewrites every line of the summary file.
    let command = format!(
        "EDITOR='sed -i s/.*/EDITED/' {} {} --max-tokens 1500 --keep-tail 600; echo \"EXIT=$?\"; cat",
        env!("CARGO_BIN_EXE_ctxlens"),
        input.display()
    );
    let Some(session) = Session::start("edit", &command) else {
        return;
    };
    session.wait_for("the app", |s| s.contains("summarizer extractive"));
    session.keys(&["E"]);
    session.wait_for("the edit", |s| s.contains("summary edited"));
    session.keys(&["e"]);
    session.wait_for("the export prompt", |s| {
        s.contains("export the compacted transcript to")
    });
    session.keys(&["Enter"]);
    session.wait_for("the export", |s| {
        s.contains("wrote ") && s.contains("support.compacted.json")
    });
    session.keys(&["q"]);
    session.wait_for("the exit", |s| s.contains("EXIT=0"));
    let written: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("support.compacted.json")).expect("exported"))
            .expect("json");
    let summary = written[1]["content"].as_str().expect("summary");
    assert!(
        summary.starts_with("[Summary of earlier conversation]\nEDITED"),
        "{summary}"
    );
}

#[test]
fn keys_after_an_unfinished_escape_sequence_still_work() {
    // The reproducer: Alt+[ (ESC [), then ?, then q. The parser drops the half sequence
    // after a pause; `?` opens help, `q` closes it, `q` quits.
    let command = format!(
        "{} {} --max-tokens 2000 --keep-tail 800; echo \"EXIT=$?\"; cat",
        env!("CARGO_BIN_EXE_ctxlens"),
        common::fixture_path().display()
    );
    let Some(session) = Session::start("escape", &command) else {
        return;
    };
    session.wait_for("the app", |s| s.contains("total 4,752"));
    session.keys(&["M-["]);
    std::thread::sleep(Duration::from_millis(200));
    session.keys(&["?"]);
    session.wait_for("help after the escape", |s| s.contains("Main screen"));
    session.keys(&["q"]);
    session.wait_for("help closed", |s| !s.contains("Main screen"));
    // A terminal reply arriving as one piece (device attributes) is dropped whole.
    session.keys(&["-l", "\u{1b}[?1;2c"]);
    session.keys(&["q"]);
    let screen = session.wait_for("the exit", |s| s.contains("EXIT="));
    assert!(screen.contains("EXIT=0"), "{screen}");
}

#[test]
fn a_directory_opens_the_browser_and_a_session_returns_to_it() {
    let command = format!(
        "{} {}; echo \"EXIT=$?\"; stty -a | grep -o -- '-\\?icanon' | sed 's/^/TTY=/'; cat",
        env!("CARGO_BIN_EXE_ctxlens"),
        common::data().join("real-transcripts").display()
    );
    let Some(session) = Session::start("browser", &command) else {
        return;
    };
    session.wait_for("every session scanned", |s| {
        s.contains("sessions in") && s.contains("14 of 14") && !s.contains("loading")
    });
    session.keys(&["/"]);
    session.keys(&["-l", "codemie"]);
    session.keys(&["Enter"]);
    session.wait_for("the filter", |s| s.contains("2 of "));
    session.keys(&["Enter"]);
    let screen = session.wait_for("the session", |s| s.contains("max_tokens") && s.contains("total "));
    assert!(screen.contains("codemie"), "the title names the file:\n{screen}");
    session.keys(&["Escape"]);
    session.wait_for("the browser again", |s| s.contains("sessions in"));
    session.keys(&["q"]);
    let screen = session.wait_for("the exit", |s| s.contains("TTY="));
    assert!(screen.contains("EXIT=0"), "{screen}");
    assert!(screen.contains("TTY=icanon"), "{screen}");
}

#[test]
fn the_demo_says_where_the_users_own_sessions_are() {
    let home = tempfile::tempdir().expect("temp home");
    let project = home.path().join(".claude/projects/-home-me-app");
    std::fs::create_dir_all(&project).expect("projects folder");
    let command = format!(
        "HOME={} {}; echo \"EXIT=$?\"; cat",
        home.path().display(),
        env!("CARGO_BIN_EXE_ctxlens")
    );
    let Some(session) = Session::start("hint", &command) else {
        return;
    };
    let screen = session.wait_for("the hint", |s| s.contains("this is a demo"));
    assert!(screen.contains(".claude/projects"), "{screen}");
    session.keys(&["q"]);
    session.wait_for("the exit", |s| s.contains("EXIT=0"));
}

/// Every overlay opened with its key in a real 80×24 terminal on a real compacted log: each
/// shows its title, no piece of the frame under it shows around it, the footer names how
/// to close it, and Esc comes back to the main screen.
#[test]
fn every_overlay_opens_and_closes_at_80x24() {
    let log = common::data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let command = format!(
        "{} {}; echo \"EXIT=$?\"; cat",
        env!("CARGO_BIN_EXE_ctxlens"),
        log.display()
    );
    let Some(tmux) = Session::start_sized("overlays-80x24", &command, (80, 24)) else {
        return;
    };
    let main = |s: &str| s.contains("? help") && s.contains("messages");
    tmux.wait_for("the main screen", main);
    // (keys, a title word the overlay shows, Esc presses back to the main screen)
    let overlays: &[(&[&str], &str, usize)] = &[
        (&["?"], "┌ help", 1),
        (&["p"], "┌ preview", 1),
        (&["l"], "┌ loss report", 1),
        (&["b"], "┌ where the context goes", 1),
        (&["h"], "┌ epochs and real compactions", 1),
        (&["h", "Enter"], "(read-only)", 2),
        (&["h", "j", "Enter"], "the real summary", 2),
        (&["R"], "┌ replay", 1),
        (&["S"], "┌ sweep", 1),
        (&["C"], "billed tokens", 1),
        (&["c"], "┌ settings to paste", 1),
        (&["t"], "┌ tokenizer", 1),
        (&["="], "┌ max_tokens", 1),
        (&["/"], "┌ search", 1),
    ];
    for (keys, title, backs) in overlays {
        for key in *keys {
            tmux.keys(&[key]);
            std::thread::sleep(Duration::from_millis(150));
        }
        let screen = tmux.wait_for(title, |s| {
            s.contains(title) && !s.contains("replaying") && !s.contains("building")
        });
        for fragment in ["└│", "┌│", "q└"] {
            assert!(
                !screen.contains(fragment),
                "{keys:?} left {fragment:?} on screen:\n{screen}"
            );
        }
        assert!(
            screen.contains("Esc"),
            "{keys:?}: the footer says how to close it:\n{screen}"
        );
        for _ in 0..*backs {
            tmux.keys(&["Escape"]);
            std::thread::sleep(Duration::from_millis(150));
        }
        tmux.wait_for("the main screen again", main);
    }
    tmux.keys(&["q"]);
    tmux.wait_for("the exit", |s| s.contains("EXIT=0"));
}
