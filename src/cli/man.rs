//! `ctxlens man [SUBCOMMAND] [--dir DIR]`: the manual pages, one per subcommand
//! (`ctxlens-stats(1)`, …, which the top page's SUBCOMMANDS section names), each with the
//! sections a man page reader looks for beyond clap's: EXIT STATUS, ENVIRONMENT, FILES.
//! `--dir` writes every page there, for packagers.

use std::io::Write;
use std::path::Path;

/// The sections every page ends with, in roff. Plain text: no troff requests but `.SH`,
/// `.TP` and `.PP` (rendered without warnings by `man -l`).
const SECTIONS: &str = r".SH EXIT STATUS
.TP
0
Success.
.TP
1
\fBctxlens check\fR found a pairing problem.
.TP
2
An error: a file that cannot be read or is not a transcript (named with its line and
column), a setting out of range, an unknown name. Nothing is written.
.SH ENVIRONMENT
.TP
NO_COLOR
When set and not empty, the terminal UI uses no colour.
.TP
CTXLENS_API_KEY, OPENAI_API_KEY
The key sent to the \fBopenai\fR summarizer's endpoint (the first that is set); never
passed to a \fBcmd:\fR summarizer.
.TP
VISUAL, EDITOR
The editor the terminal UI opens a message in.
.TP
XDG_CACHE_HOME
Where \fBctxlens status\fR keeps what it read of each log (default ~/.cache).
.TP
HOME
Where the sessions of the user's agents are found (~/.claude/projects, ~/.codex/sessions,
~/.gemini/tmp, ~/.copilot/session-state).
.TP
RAYON_NUM_THREADS
How many threads replay, compare, sweep and scan use (default: one per core).
.SH FILES
.TP
\&.ctxlens.toml
Settings in the current folder (or \fB\-\-config FILE\fR); options on the command line
win over it.
.TP
\&.ctxlens\-ledger
Beside a project's sessions: the user's review of \fBctxlens ledger\fR
(\fBpin:\fR and \fBignore:\fR lines).
.TP
~/.claude/projects, ~/.codex/sessions, ~/.gemini/tmp/*/chats, ~/.copilot/session-state
The sessions the browser, \fBscan\fR and the thresholds of earlier sessions read.
";

/// The top page, or `subcommand`'s, or every page written to `dir`.
pub fn run(root: clap::Command, subcommand: Option<&str>, dir: Option<&Path>) -> anyhow::Result<()> {
    let mut root = root.disable_help_subcommand(true);
    root.build();
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir).map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
        for page in pages(&root) {
            let name = clap_mangen::Man::new(page.clone()).get_filename();
            let mut text = Vec::new();
            render(page, &mut text)?;
            ctxlens::export::write_atomic(&dir.join(&name), &text, None, true)?;
        }
        return Ok(());
    }
    let page = match subcommand {
        None => root,
        Some(name) => root
            .get_subcommands()
            .find(|c| c.get_name() == name && !c.is_hide_set())
            .cloned()
            .ok_or_else(|| {
                let known: Vec<&str> = root
                    .get_subcommands()
                    .filter(|c| !c.is_hide_set())
                    .map(clap::Command::get_name)
                    .collect();
                anyhow::anyhow!("no manual page `{name}` (one of: {})", known.join(", "))
            })?,
    };
    let mut out = Vec::new();
    render(page, &mut out)?;
    std::io::stdout().lock().write_all(&out)?;
    Ok(())
}

/// The top command and each visible subcommand.
fn pages(root: &clap::Command) -> Vec<clap::Command> {
    std::iter::once(root.clone())
        .chain(root.get_subcommands().filter(|s| !s.is_hide_set()).cloned())
        .collect()
}

/// One page: clap's sections (its after-help text as EXAMPLES), then [`SECTIONS`].
fn render(page: clap::Command, out: &mut Vec<u8>) -> anyhow::Result<()> {
    let mut page_text = Vec::new();
    clap_mangen::Man::new(page)
        .source(format!("ctxlens {}", env!("CARGO_PKG_VERSION")))
        .manual("User Commands")
        .render(&mut page_text)?;
    // clap's section for the text after the options is our examples.
    let page_text = String::from_utf8(page_text)?.replace(".SH EXTRA\n", ".SH EXAMPLES\n");
    out.extend_from_slice(page_text.as_bytes());
    out.extend_from_slice(SECTIONS.as_bytes());
    Ok(())
}
