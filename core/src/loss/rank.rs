//! Lost facts in the order a person reads them: what the user said first, then errors,
//! files edited, commands run, the rest; noise collapsed into counts (UUIDs and hashes,
//! test-fixture ids, import-relative paths, constants' names), so the list a report shows
//! is short and the first lines matter.

use super::{Fact, FactKind};
use crate::transcript::Transcript;

/// Why a lost fact matters, most important first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Why {
    /// The user supplied it (it is in a human turn).
    UserSaid,
    /// An error code or an error's name.
    Error,
    /// A path the agent wrote to (named in a call of an editing tool).
    FileEdited,
    /// Named in a command the agent ran.
    CommandRun,
    /// Anything else that is not noise.
    Other,
}

impl Why {
    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Why::UserSaid => "user",
            Why::Error => "error",
            Why::FileEdited => "edited",
            Why::CommandRun => "command",
            Why::Other => "other",
        }
    }
}

/// A kind of noise: facts that are rarely what an agent forgot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Noise {
    /// UUIDs and long hex hashes.
    Hash,
    /// Ids of the `name-123` form test fixtures use.
    FixtureId,
    /// `./x` and `../x`: paths relative to a source file (imports).
    RelativeImport,
    /// `SOME_NAME` in capitals that names no error (environment variables, constants).
    Constant,
}

impl Noise {
    /// Its name in JSON reports.
    pub fn name(self) -> &'static str {
        match self {
            Noise::Hash => "noise:hash",
            Noise::FixtureId => "noise:fixture_id",
            Noise::RelativeImport => "noise:relative_import",
            Noise::Constant => "noise:constant",
        }
    }

    /// How a report names `n` of them.
    pub fn named(self, n: usize) -> &'static str {
        match (self, n == 1) {
            (Noise::Hash, false) => "UUIDs and hashes",
            (Noise::Hash, true) => "UUID or hash",
            (Noise::FixtureId, false) => "fixture-style ids",
            (Noise::FixtureId, true) => "fixture-style id",
            (Noise::RelativeImport, false) => "import-relative paths",
            (Noise::RelativeImport, true) => "import-relative path",
            (Noise::Constant, false) => "constants' names",
            (Noise::Constant, true) => "constant's name",
        }
    }
}

/// Lost facts ranked: the ones that matter with why, most important first (then in
/// session order), and the noise counted by kind.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ranked {
    /// Facts that matter, each with why, in reading order.
    pub matter: Vec<(Fact, Why)>,
    /// The facts taken as noise, by kind.
    pub noise: Vec<(Noise, Vec<Fact>)>,
}

/// How many lost facts a report lists before "… and N more".
pub const SHOWN: usize = 20;

/// How much of the ranked list a report writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// The first [`SHOWN`] facts that matter, the noise as counts (what a person reads).
    Short,
    /// Every fact that matters, the noise as counts (a view that scrolls).
    Matter,
    /// Every fact, the noise too (`--all`).
    Everything,
}

impl Ranked {
    /// How many facts are ranked (noise included).
    pub fn len(&self) -> usize {
        self.matter.len() + self.noise.iter().map(|(_, facts)| facts.len()).sum::<usize>()
    }

    /// True when nothing was lost.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes the ranked list, each line after `indent`, in as much `detail` as asked.
    /// Every row naming a message starts with `  #N` after the indent (the TUI jumps
    /// there).
    pub fn write(&self, out: &mut impl std::fmt::Write, indent: &str, detail: Detail) -> std::fmt::Result {
        if self.is_empty() {
            return Ok(());
        }
        let thousands = |n: usize| crate::text::thousands(n as u64);
        if self.matter.len() == self.len() {
            writeln!(
                out,
                "\n{indent}Lost facts, what matters first ({}):",
                thousands(self.len())
            )?;
        } else {
            writeln!(
                out,
                "\n{indent}Lost facts, what matters first ({} of {}; the rest is noise):",
                thousands(self.matter.len()),
                thousands(self.len())
            )?;
        }
        let shown = if detail == Detail::Short {
            SHOWN.min(self.matter.len())
        } else {
            self.matter.len()
        };
        for (fact, why) in &self.matter[..shown] {
            writeln!(
                out,
                "{indent}  #{:<6} {:<7} {:<6} {}",
                fact.message,
                why.name(),
                fact.kind.name(),
                crate::text::one_line(&fact.text, 160)
            )?;
        }
        if shown < self.matter.len() {
            writeln!(
                out,
                "{indent}  … and {} more (--all)",
                thousands(self.matter.len() - shown)
            )?;
        }
        for (noise, facts) in &self.noise {
            let examples: Vec<&str> = facts.iter().take(3).map(|f| f.text.as_str()).collect();
            writeln!(
                out,
                "{indent}  {} {} collapsed (e.g. {})",
                thousands(facts.len()),
                noise.named(facts.len()),
                crate::text::one_line(&examples.join(", "), 100)
            )?;
            if detail == Detail::Everything {
                for fact in facts {
                    writeln!(
                        out,
                        "{indent}  #{:<6} noise   {:<6} {}",
                        fact.message,
                        fact.kind.name(),
                        crate::text::one_line(&fact.text, 160)
                    )?;
                }
            }
        }
        Ok(())
    }
}

/// Ranks `lost` (facts of `transcript`, each with the message it was first seen in).
pub fn rank(transcript: &Transcript, lost: Vec<Fact>) -> Ranked {
    let mut matter = Vec::new();
    let mut noise: std::collections::BTreeMap<Noise, Vec<Fact>> = std::collections::BTreeMap::new();
    for fact in lost {
        let message = transcript.messages.get(fact.message);
        let said_by_user = message.is_some_and(|m| m.boundary);
        let tools = message.map(crate::transcript::Message::tool_calls).unwrap_or_default();
        let named = |test: fn(&str) -> bool| tools.iter().any(|c| test(&c.name.to_ascii_lowercase()));
        let command = named(is_command_tool);
        // What the user typed is never noise, whatever it looks like; nor is a relative
        // path in a command (`./deploy.sh`: a script, not an import).
        let script = |k: &Noise| *k == Noise::RelativeImport && command;
        if let Some(kind) = noise_kind(&fact).filter(|k| !said_by_user && !script(k)) {
            noise.entry(kind).or_default().push(fact);
            continue;
        }
        let why = if said_by_user {
            Why::UserSaid
        } else if is_error(&fact) {
            Why::Error
        } else if fact.kind == FactKind::Path && named(is_editing_tool) {
            Why::FileEdited
        } else if command {
            Why::CommandRun
        } else {
            Why::Other
        };
        matter.push((fact, why));
    }
    // Stable: within a rank, session order stays.
    matter.sort_by_key(|(_, why)| *why);
    Ranked {
        matter,
        noise: noise.into_iter().collect(),
    }
}

/// The noise `fact` is, if it is noise.
fn noise_kind(fact: &Fact) -> Option<Noise> {
    let text = fact.text.as_str();
    match fact.kind {
        FactKind::Identifier if is_hash(text) => Some(Noise::Hash),
        FactKind::Identifier if is_fixture_id(text) => Some(Noise::FixtureId),
        FactKind::Path if text.starts_with("./") || text.starts_with("../") => Some(Noise::RelativeImport),
        FactKind::ErrorCode if !is_error(fact) => Some(Noise::Constant),
        _ => None,
    }
}

/// A UUID, or twelve hex digits or more with at least one digit and one letter… or all
/// digits (a hash, a commit, a request id).
fn is_hash(text: &str) -> bool {
    let hex = text.chars().filter(char::is_ascii_hexdigit).count();
    let dashes = text.chars().filter(|&c| c == '-').count();
    hex >= 12 && hex + dashes == text.len() && (dashes == 0 || dashes == 4)
}

/// `item-42`, `user-7`, `test-case-3`: lowercase words and a number, how fixtures are
/// named (an issue key is written in capitals: `NW-48213` stays).
fn is_fixture_id(text: &str) -> bool {
    let Some((stem, number)) = text.rsplit_once('-') else {
        return false;
    };
    !stem.is_empty()
        && stem
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && stem.starts_with(|c: char| c.is_ascii_lowercase())
        && !number.is_empty()
        && number.chars().all(|c| c.is_ascii_digit())
}

/// Words that make a capitalised name an error's.
const ERROR_WORDS: &[&str] = &[
    "ERR",
    "FAIL",
    "NOT_FOUND",
    "INVALID",
    "DENIED",
    "TIMEOUT",
    "TIMED_OUT",
    "EXCEPTION",
    "REFUSED",
    "UNAUTHORIZED",
    "FORBIDDEN",
    "MISSING",
    "UNAVAILABLE",
    "CONFLICT",
    "ABORT",
    "PANIC",
    "OVERFLOW",
    "EXCEEDED",
    "BAD_",
    "NO_SUCH",
];

/// Whether an error-code-shaped fact names an error: errno names, compiler codes, HTTP
/// statuses, exit codes, or a capitalised name with an error's word in it.
fn is_error(fact: &Fact) -> bool {
    if fact.kind != FactKind::ErrorCode {
        return false;
    }
    let text = fact.text.as_str();
    let errno = text.len() >= 4 && text.starts_with('E') && text[1..].chars().all(|c| c.is_ascii_uppercase());
    let compiler = text.len() == 5 && text.starts_with('E') && text[1..].chars().all(|c| c.is_ascii_digit());
    errno
        || compiler
        || text.starts_with("HTTP ")
        || text.starts_with("exit code")
        || ERROR_WORDS.iter().any(|w| text.contains(w))
}

/// Tools that write files (Claude Code's `Edit`/`Write`/`MultiEdit`, Codex's
/// `apply_patch`, OpenHands' `str_replace_editor`, generic `write_file`/`create_file`).
fn is_editing_tool(name: &str) -> bool {
    ["edit", "write", "patch", "str_replace", "create", "replace", "insert"]
        .iter()
        .any(|w| name.contains(w))
}

/// Tools that run commands (`Bash`, `shell`, `exec_command`, `run_terminal_cmd`…).
fn is_command_tool(name: &str) -> bool {
    ["bash", "shell", "exec", "command", "terminal", "run"]
        .iter()
        .any(|w| name.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(text: &str, kind: FactKind) -> Fact {
        Fact {
            text: text.to_owned(),
            kind,
            message: 0,
        }
    }

    #[test]
    fn noise_is_told_from_what_matters() {
        assert_eq!(
            noise_kind(&fact("624a4a58-b34c-462d-a70d-13421c8125a8", FactKind::Identifier)),
            Some(Noise::Hash)
        );
        assert_eq!(
            noise_kind(&fact("3f9c2ab41e07", FactKind::Identifier)),
            Some(Noise::Hash)
        );
        assert_eq!(
            noise_kind(&fact("item-42", FactKind::Identifier)),
            Some(Noise::FixtureId)
        );
        assert_eq!(noise_kind(&fact("NW-48213", FactKind::Identifier)), None);
        assert_eq!(
            noise_kind(&fact("../utils/format", FactKind::Path)),
            Some(Noise::RelativeImport)
        );
        assert_eq!(noise_kind(&fact("src/main.rs", FactKind::Path)), None);
        assert_eq!(
            noise_kind(&fact("OPENAI_API_KEY", FactKind::ErrorCode)),
            Some(Noise::Constant)
        );
        assert_eq!(noise_kind(&fact("NOT_FOUND", FactKind::ErrorCode)), None);
        assert_eq!(noise_kind(&fact("ENOENT", FactKind::ErrorCode)), None);
        assert_eq!(noise_kind(&fact("E0382", FactKind::ErrorCode)), None);
    }
}
