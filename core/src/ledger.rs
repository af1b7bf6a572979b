//! The instruction ledger: across every compaction of a session, and across the sessions
//! of a project, the *standing* instructions the user gave (rules, constraints,
//! preferences the agent must keep acting on, not one-off tasks), each with where it was
//! given, what each later compaction did with it, and how often it was lost.
//!
//! A compaction's loss report judges the turns of the epoch it summarized
//! ([`crate::history`]); an instruction given earlier lives on only through the summaries
//! since, so each later compaction is judged on whether its summary restates it. The
//! same instruction given again (in a later epoch or another session) is one entry.

use crate::history::History;
use crate::loss::meaning::{Sentences, TurnWords};
use crate::loss::turns::TurnKind;
use crate::loss::TurnStatus;
use crate::transcript::Transcript;

/// Words that make an instruction a standing one: it constrains what the agent does from
/// then on ("don't add notes", "always run the tests", "use pnpm, not npm", "keep it
/// under 50 lines") rather than asking for one thing once ("fix the build").
const STANDING: &[&str] = &[
    "always",
    "never",
    "don't",
    "dont",
    "do not",
    "must",
    "mustn't",
    "should",
    "shouldn't",
    "make sure",
    "ensure",
    "avoid",
    "prefer",
    "only",
    "every time",
    "whenever",
    "from now on",
    "no more",
    "stop",
    "keep",
    "remember",
    "instead",
    "not",
    "no ",
    "without",
    "at most",
    "at least",
    "max",
    "limit",
    "use ",
];

/// Whether a turn's words (an instruction's) read as a standing instruction.
pub fn is_standing(words: &str) -> bool {
    let lower = format!(" {} ", words.to_lowercase());
    STANDING.iter().any(|marker| {
        let marker = marker.trim_end();
        lower.match_indices(marker).any(|(at, _)| {
            let before = lower[..at].chars().next_back();
            let after = lower[at + marker.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
    })
}

/// One place an instruction was given.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Given {
    /// The session (its file, as given).
    pub file: String,
    /// The message index in that session (every epoch joined).
    pub message: usize,
    /// The 1-based line of its record, in a log.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// When, where the log says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
}

/// What one compaction did with an instruction given before it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Fate {
    /// The session.
    pub file: String,
    /// The 1-based line of the compaction's record.
    pub line: usize,
    /// `in_summary`, `repeated_later` or `lost` (the loss report's words).
    pub status: crate::loss::TurnStatus,
}

/// One standing instruction.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Entry {
    /// The user's words, the first time they gave it.
    pub text: String,
    /// The project it was given in (the folder the agent worked in).
    pub project: String,
    /// Every place they gave it.
    pub given: Vec<Given>,
    /// What each compaction after it was first given did with it, in order.
    pub compactions: Vec<Fate>,
    /// How many of those lost it.
    pub lost: usize,
    /// The user pinned it (always handed back) — see [`Review`].
    pub pinned: bool,
}

impl Entry {
    /// Whether the last compaction that saw it lost it.
    pub fn lost_last(&self) -> bool {
        self.compactions.last().is_some_and(|f| f.status == TurnStatus::Lost)
    }

    /// Where it was first given (`line 6`, or `#3` in a transcript without lines) and,
    /// when it was given again, how often (`line 6, given 3 times`): what the ledger's
    /// text and the TUI say.
    pub fn given_at(&self) -> String {
        let Some(first) = self.given.first() else {
            return String::new();
        };
        let place = first
            .line
            .map_or_else(|| format!("#{}", first.message), |line| format!("line {line}"));
        match self.given.len() {
            1 => place,
            n => format!("{place}, given {n} times"),
        }
    }
}

/// The ledger of one or more sessions.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Ledger {
    /// Sessions read.
    pub sessions: usize,
    /// Compactions in them.
    pub compaction_count: usize,
    /// Standing instructions, in the order first given.
    pub entries: Vec<Entry>,
}

/// One session's part, to be merged: its file name, the loaded session and its history.
pub struct Session<'a> {
    /// The file, as the user named it.
    pub file: &'a str,
    /// Its project: an instruction given in one session of a project stands in the
    /// project's later sessions, not in another project's.
    pub project: &'a str,
    /// Every epoch of it.
    pub whole: &'a Transcript,
    /// Its compactions.
    pub history: &'a History,
}

/// The user's review of the ledger: instructions pinned (always handed back, even when
/// no compaction lost them) and ignored (never listed), each a piece of text matched in
/// an entry's words, case aside. Read from a file beside the sessions
/// (`.ctxlens-ledger`): `pin: TEXT` and `ignore: TEXT` lines, `#` comments.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Review {
    /// Texts whose entries are pinned.
    pub pins: Vec<String>,
    /// Texts whose entries are left out.
    pub ignores: Vec<String>,
}

impl Review {
    /// Reads a review file's text; `Err` names the 1-based line it cannot read.
    pub fn parse(text: &str) -> Result<Review, (usize, String)> {
        let mut review = Review::default();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (kind, rest) = line.split_once(':').ok_or_else(|| {
                (
                    number + 1,
                    format!("expected `pin: TEXT` or `ignore: TEXT`, found `{line}`"),
                )
            })?;
            let rest = rest.trim().to_lowercase();
            if rest.is_empty() {
                return Err((number + 1, format!("`{kind}:` with no text")));
            }
            match kind.trim() {
                "pin" => review.pins.push(rest),
                "ignore" => review.ignores.push(rest),
                other => return Err((number + 1, format!("`{other}` is neither `pin` nor `ignore`"))),
            }
        }
        Ok(review)
    }

    fn matches(list: &[String], text: &str) -> bool {
        let lower = text.to_lowercase();
        list.iter().any(|t| lower.contains(t.as_str()))
    }
}

/// The ledger of `sessions`, in the order given (oldest first for a project), reviewed.
pub fn ledger(sessions: &[Session<'_>], review: &Review) -> Ledger {
    let mut out = Ledger {
        sessions: sessions.len(),
        ..Ledger::default()
    };
    // Each entry's words, cut once, to find it given again and restated later.
    let mut words: Vec<TurnWords> = Vec::new();
    for session in sessions {
        out.compaction_count += session.history.compactions.len();
        add_session(&mut out, &mut words, session);
    }
    out.entries.retain(|e| !Review::matches(&review.ignores, &e.text));
    for entry in &mut out.entries {
        entry.pinned = Review::matches(&review.pins, &entry.text);
    }
    out
}

/// Adds one session's standing instructions and the fates of every entry alive in it.
fn add_session(out: &mut Ledger, words: &mut Vec<TurnWords>, session: &Session<'_>) {
    let whole = session.whole;
    let first_of_session = out.entries.len();
    // The standing instructions given in this session, in order, each as an entry
    // (merged with an earlier one that says the same).
    let mut in_session: Vec<(usize, usize)> = Vec::new(); // (message, entry)
    for i in (0..whole.messages.len()).filter(|&i| whole.messages[i].boundary && !whole.messages[i].past_summary) {
        let Some(text) = crate::loss::turns::user_words(&whole.readable_text(i)) else {
            continue;
        };
        if crate::loss::turns::classify(&text) != TurnKind::Instruction || !is_standing(&text) {
            continue;
        }
        let given = Given {
            file: session.file.to_owned(),
            message: i,
            line: message_line(whole, i),
            timestamp: message_line(whole, i).and_then(|l| whole.line_timestamp(l)),
        };
        let same = (0..words.len()).find(|&k| {
            out.entries[k].project == session.project && says_the_same(&out.entries[k].text, &words[k], &text)
        });
        let entry = same.unwrap_or_else(|| {
            words.push(TurnWords::of(&text));
            out.entries.push(Entry {
                text: text.clone(),
                project: session.project.to_owned(),
                given: Vec::new(),
                compactions: Vec::new(),
                lost: 0,
                pinned: false,
            });
            out.entries.len() - 1
        });
        out.entries[entry].given.push(given);
        in_session.push((i, entry));
    }
    // Each compaction: the entries given before it in this session, or earlier in the
    // project (a standing instruction of an earlier session is the user's rule still).
    for compaction in &session.history.compactions {
        let summary = Sentences::new([(None, compaction.summary.as_str())]);
        let alive: Vec<usize> = (0..out.entries.len())
            .filter(|&e| {
                (e < first_of_session && out.entries[e].project == session.project)
                    || in_session.iter().any(|&(m, k)| k == e && m < compaction.at)
            })
            .collect();
        for e in alive {
            let judged = compaction
                .loss
                .turns
                .iter()
                .filter(|t| in_session.iter().any(|&(m, k)| k == e && m == t.message))
                .map(|t| t.status)
                .max_by_key(|s| survival_rank(*s));
            let status = judged.unwrap_or_else(|| {
                if summary.restates_turn(&words[e]).is_some() {
                    TurnStatus::InSummary
                } else {
                    TurnStatus::Lost
                }
            });
            let entry = &mut out.entries[e];
            entry.lost += usize::from(status == TurnStatus::Lost);
            entry.compactions.push(Fate {
                file: session.file.to_owned(),
                line: compaction.line,
                status,
            });
        }
    }
}

/// How well a status keeps a turn (a turn given twice in one epoch keeps its best).
fn survival_rank(status: TurnStatus) -> u8 {
    match status {
        TurnStatus::Lost => 0,
        TurnStatus::RepeatedLater => 1,
        TurnStatus::InSummary | TurnStatus::Kept => 2,
    }
}

/// Whether `text` says what the entry `entry` (cut into `words`) says: each restates
/// the other.
fn says_the_same(entry: &str, words: &TurnWords, text: &str) -> bool {
    Sentences::new([(None, text)]).restates_turn(words).is_some()
        && Sentences::new([(None, entry)]).restates(text).is_some()
}

/// The 1-based line of message `index`'s first record, in a log.
fn message_line(whole: &Transcript, index: usize) -> Option<usize> {
    let record = whole.log_records().iter().find(|r| r.message == Some(index))?;
    let text: &str = whole.text();
    Some(1 + memchr::memchr_iter(b'\n', &text.as_bytes()[..record.range.start]).count())
}

/// Tokens of a text for a bound, at four characters a token (the hook's output is
/// plain text the agent reads; the bound need not be exact).
fn about_tokens(text: &str) -> u64 {
    (text.chars().count() as u64).div_ceil(4)
}

/// What the agent is handed after a compaction: the standing instructions the last
/// compaction lost, and the pinned ones, in the user's words, deduplicated, within
/// `max_tokens` (estimated); empty when there is none.
pub fn hand_back(ledger: &Ledger, max_tokens: u64) -> String {
    let chosen: Vec<&Entry> = ledger.entries.iter().filter(|e| e.pinned || e.lost_last()).collect();
    if chosen.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "Standing instructions the user gave earlier in this session, which the summary above may not carry (ctxlens ledger):\n",
    );
    let mut used = about_tokens(&out);
    let mut listed = 0;
    for entry in chosen {
        let line = format!("- {}\n", crate::text::one_line(&entry.text, 400));
        let cost = about_tokens(&line);
        if used + cost > max_tokens {
            break;
        }
        used += cost;
        out.push_str(&line);
        listed += 1;
    }
    if listed == 0 {
        return String::new();
    }
    out
}

/// The standing instructions lost more than once, as lines for CLAUDE.md (which Claude
/// Code reads at every start and after every compaction): empty when there is none.
pub fn claude_md(ledger: &Ledger) -> String {
    let lost: Vec<&Entry> = ledger.entries.iter().filter(|e| e.lost >= 2 && !e.pinned).collect();
    let pinned: Vec<&Entry> = ledger.entries.iter().filter(|e| e.pinned).collect();
    if lost.is_empty() && pinned.is_empty() {
        return String::new();
    }
    let mut out = String::from("## Standing instructions (kept across compactions)\n\n");
    for entry in pinned.into_iter().chain(lost) {
        out.push_str("- ");
        out.push_str(&crate::text::one_line(&entry.text, 400));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standing_instructions_are_told_from_one_off_tasks() {
        for standing in [
            "don't add notes, just track the conversation id",
            "always run the tests before committing",
            "use pnpm, not npm",
            "keep answers under 50 lines",
            "from now on write commit messages in English",
        ] {
            assert!(is_standing(standing), "{standing}");
        }
        for task in [
            "fix the build",
            "review the old implementation for metrics",
            "add a --json flag to stats",
        ] {
            assert!(!is_standing(task), "{task}");
        }
        assert!(
            !is_standing("the annotation is wrong"),
            "`not` inside a word is no marker"
        );
    }

    #[test]
    fn a_review_pins_and_ignores_by_text_and_names_a_bad_line() {
        let review = Review::parse("# mine\npin: Run the tests\nignore: notes\n").expect("reads");
        assert_eq!(review.pins, vec!["run the tests"]);
        assert!(Review::matches(&review.ignores, "don't add NOTES"));
        assert_eq!(Review::parse("pin: a\nkeep b\n").unwrap_err().0, 2);
        assert_eq!(Review::parse("wish: a\n").unwrap_err().0, 1);
    }
}
