//! The README's captured outputs are what the commands print today. A capture is a
//! comment naming the command (`<!-- capture: ARGS -->`, optionally `| lines N` for its
//! first N lines), then a fenced block of kind `text` with the command line and its
//! output. `CTXLENS_WRITE_README=1 cargo test --test integration readme` writes the current
//! outputs into the README (then read the diff before committing it).

use crate::common::{ctxlens, repo, stderr};

/// One capture: the arguments, how many lines are shown (all when `None`), and where its
/// block's text lies in the README.
struct Capture {
    args: Vec<String>,
    lines: Option<usize>,
    block: std::ops::Range<usize>,
}

const MARK: &str = "<!-- capture: ";

fn captures(readme: &str) -> Vec<Capture> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = readme[from..].find(MARK).map(|i| from + i) {
        let end = at + readme[at..].find("-->").expect("a capture comment ends with -->");
        let spec = readme[at + MARK.len()..end].trim();
        let (command, lines) = match spec.split_once('|') {
            Some((command, shown)) => {
                let n = shown.trim().strip_prefix("lines ").expect("`| lines N`");
                (command, Some(n.trim().parse().expect("a number of lines")))
            }
            None => (spec, None),
        };
        let open = end
            + readme[end..]
                .find("```text\n")
                .expect("a ```text block after the capture")
            + "```text\n".len();
        let close = open + readme[open..].find("```").expect("the block ends");
        found.push(Capture {
            args: command.split_whitespace().map(str::to_owned).collect(),
            lines,
            block: open..close,
        });
        from = close;
    }
    found
}

/// What the capture's command prints now, as the README shows it: the command line as
/// typed, then its standard output (the first lines, and a `…` line when some are left
/// out).
fn printed(capture: &Capture) -> String {
    let args: Vec<&str> = capture.args.iter().map(String::as_str).collect();
    let out = ctxlens(&args);
    assert!(out.status.success(), "ctxlens {}: {}", args.join(" "), stderr(&out));
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    let shown = match capture.lines {
        Some(n) if text.lines().count() > n => {
            let first: Vec<&str> = text.lines().take(n).collect();
            format!("{}\n…\n", first.join("\n"))
        }
        _ => text,
    };
    format!("$ ctxlens {}\n{shown}", args.join(" "))
}

#[test]
fn the_readmes_captures_are_what_the_commands_print() {
    let path = repo().join("README.md");
    let readme = std::fs::read_to_string(&path).expect("README.md");
    let found = captures(&readme);
    assert!(found.len() >= 2, "the README's first screen shows two captures");
    if std::env::var_os("CTXLENS_WRITE_README").is_some() {
        let mut text = readme.clone();
        for capture in found.iter().rev() {
            text.replace_range(capture.block.clone(), &printed(capture));
        }
        std::fs::write(&path, text).expect("README.md written");
        return;
    }
    for capture in &found {
        assert_eq!(
            readme[capture.block.clone()],
            printed(capture),
            "README capture of `ctxlens {}` is stale: CTXLENS_WRITE_README=1 cargo test --test integration readme",
            capture.args.join(" ")
        );
    }
}
