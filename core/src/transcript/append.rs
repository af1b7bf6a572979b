//! Reading on from where an earlier read of a growing log stopped: [`Transcript::appended`]
//! parses only the records written since and puts them after the messages already read,
//! so following a session costs what it wrote, not the whole file again.
//!
//! It only does so when the result is sure to be what reading the whole file would give
//! (a test checks exactly that, at every line of real logs): a Claude Code log whose new
//! records hang off the live conversation's last record (or off each other), with no new
//! conversation root, compaction or sub-agent branch among them, and no response split
//! across the two reads; a Codex rollout whose new records hold no compaction and no user
//! prompt taken from an event (whether the history already holds it depends on every
//! message since the last compaction). Anything else answers `None`, and the caller reads
//! the file whole.

use std::collections::HashSet;
use std::sync::Arc;

use serde::Deserialize;

use super::logs::{claude_code, codex, off_branch_count, off_branch_summary, Conversation, LogRecord};
use super::{Container, SourceText, ToolGroups, Transcript};

/// The links of one Claude Code record.
#[derive(Deserialize)]
struct Links {
    uuid: Option<String>,
    #[serde(rename = "parentUuid")]
    parent: Option<String>,
    #[serde(rename = "isSidechain", default)]
    sidechain: bool,
    #[serde(rename = "type")]
    kind: Option<String>,
}

impl Transcript {
    /// This transcript with `appended` (complete lines, each ending with a newline) read
    /// after it, and how many of its first messages are this transcript's own, unchanged
    /// (their counts still hold); `None` when only a whole read can say what the file now
    /// holds (see the module's docs).
    pub fn appended(&self, appended: &str) -> Option<(Transcript, usize)> {
        let clean = self.format.container.is_log()
            && self.overrides.is_empty()
            && self.text.ends_with('\n')
            && appended.ends_with('\n')
            && !self.notes.iter().any(|n| n.kind == "incomplete");
        if !clean {
            return None;
        }
        if appended.trim().is_empty() {
            return Some((self.clone(), self.messages.len()));
        }
        match self.format.container {
            Container::ClaudeCode => self.claude_code_appended(appended),
            Container::Codex => self.codex_appended(appended),
            _ => None,
        }
    }

    /// A Codex rollout read on: the last message is read again (a `token_count` after it
    /// records its usage), with everything appended.
    fn codex_appended(&self, appended: &str) -> Option<(Transcript, usize)> {
        /// The kinds of one rollout record.
        #[derive(Deserialize)]
        struct Kinds {
            #[serde(rename = "type")]
            kind: Option<String>,
            payload: Option<PayloadKind>,
        }
        #[derive(Deserialize)]
        struct PayloadKind {
            #[serde(rename = "type")]
            kind: Option<String>,
        }
        for line in appended.lines().filter(|l| !l.trim().is_empty()) {
            let record: Kinds = serde_json::from_str(line).ok()?;
            let payload = record.payload.and_then(|p| p.kind);
            match (record.kind.as_deref(), payload.as_deref()) {
                (Some("compacted"), _) | (Some("event_msg"), Some("user_message")) => return None,
                _ => {}
            }
        }
        // A prompt rebuilt from an event may yet be replaced by a response item repeating
        // it: only a whole read says.
        let last = self.messages.last().filter(|m| !m.from_event)?;
        let from = Reread {
            message: self.messages.len() - 1,
            byte: last.records().iter().map(|r| r.start).min()?,
        };
        let loaded = self.read_again(&from, appended, codex)?;
        Some((self.joined(&from, appended, loaded, (0, 0)), from.message))
    }

    /// A Claude Code log read on (see the module's docs).
    fn claude_code_appended(&self, appended: &str) -> Option<(Transcript, usize)> {
        let from = self.reread_from();
        let anchor = self.anchor_before(from.byte)?;
        // Every new record hangs off the conversation read so far or off another new
        // record: no new root (a cleared or compacted conversation), no branch back into
        // what was read, no sub-agent.
        let tail = &self.text[from.byte..];
        let links: Vec<Links> = tail
            .lines()
            .chain(appended.lines())
            .filter(|l| !l.trim().is_empty())
            .map(serde_json::from_str)
            .collect::<Result<_, _>>()
            .ok()?;
        let known: HashSet<&str> = links.iter().filter_map(|l| l.uuid.as_deref()).collect();
        let new_links = &links[tail.lines().filter(|l| !l.trim().is_empty()).count()..];
        let hangs_on = |l: &Links| match (&l.uuid, &l.parent) {
            (None, _) => true, // no place in the conversation (titles, snapshots)
            (Some(_), None) => false,
            (Some(_), Some(p)) => *p == anchor || known.contains(p.as_str()),
        };
        if new_links.iter().any(|l| !hangs_on(l))
            || links
                .iter()
                .any(|l| l.sidechain || l.kind.as_deref() == Some("summary"))
        {
            return None;
        }
        let loaded = self.read_again(&from, appended, claude_code)?;
        // Records off the active conversation are counted in one note: the count read
        // before, less those read again, plus those off it in what was read again.
        let off = |active: bool, l: &Links| !active && l.uuid.is_some();
        let tail_off = self
            .log_records
            .iter()
            .filter(|r| r.range.start >= from.byte)
            .zip(&links)
            .filter(|(r, l)| off(r.active, l))
            .count();
        let reread_off = loaded
            .records
            .iter()
            .zip(&links)
            .filter(|(r, l)| off(r.active, l))
            .count();
        let counted =
            |kind: &str| -> usize { self.notes.iter().filter(|n| n.kind == kind).map(off_branch_count).sum() };
        let other = (counted("other branches") + reread_off).checked_sub(tail_off)?;
        // Sub-agent lines: none among the records read again (that answers `None` above).
        let sidechain = counted("sidechain");
        Some((self.joined(&from, appended, loaded, (sidechain, other)), from.message))
    }

    /// The text from `from` on with `appended`, loaded by `load` as a log of its own;
    /// `None` when it holds a compaction or a line cut short (a whole read says then).
    fn read_again(&self, from: &Reread, appended: &str, load: LoadLog) -> Option<super::logs::Loaded> {
        let tail = &self.text[from.byte..];
        let mut reread = String::with_capacity(tail.len() + appended.len());
        reread.push_str(tail);
        reread.push_str(appended);
        let loaded = load(&self.source, &reread, 0, self.conversation).ok()?;
        let whole = loaded.compactions.is_empty() && !loaded.notes.iter().any(|n| n.kind == "incomplete");
        whole.then_some(loaded)
    }

    /// Where reading on starts: the response still being built (its lines, and its
    /// results', may go on in what was appended, and merge as a whole read merges them),
    /// else the end of the text.
    fn reread_from(&self) -> Reread {
        let open = self
            .messages
            .iter()
            .rposition(|m| m.role.as_str() == "assistant")
            .filter(|&a| {
                self.messages[a + 1..]
                    .iter()
                    .all(|m| m.role.as_str() == "user" && !m.tool_results().is_empty())
            });
        let Some(first) = open else {
            return Reread {
                message: self.messages.len(),
                byte: self.text.len(),
            };
        };
        let byte = self.messages[first..]
            .iter()
            .flat_map(|m| m.records().iter().map(|r| r.start))
            .min()
            .unwrap_or(self.text.len());
        Reread { message: first, byte }
    }

    /// The `uuid` of the last record of the live conversation that starts before `byte`:
    /// what the records read again and appended must hang off.
    fn anchor_before(&self, byte: usize) -> Option<String> {
        let last = self
            .log_records
            .iter()
            .filter(|r| r.active && r.range.start < byte)
            .max_by_key(|r| r.order)?;
        let links: Links = serde_json::from_str(&self.text[last.range.clone()]).ok()?;
        links.uuid
    }

    /// What was read before `from`, and the records from there on (read again, with
    /// `appended`) as one.
    fn joined(
        &self,
        from: &Reread,
        appended: &str,
        loaded: super::logs::Loaded,
        off_branch: (usize, usize),
    ) -> Transcript {
        let kept_messages = from.message;
        // Counted with SIMD: this one pass over what was read before is most of an
        // update's cost in a large log otherwise.
        let lines_before = memchr::memchr_iter(b'\n', &self.text.as_bytes()[..from.byte]).count();
        let kept_records: Vec<&LogRecord> = self.log_records.iter().filter(|r| r.range.start < from.byte).collect();
        let order_from = kept_records.iter().filter_map(|r| r.order).max().map_or(0, |o| o + 1);
        let end = kept_messages + loaded.messages.len();
        let mut messages: Vec<super::Message> = Vec::with_capacity(end);
        messages.extend(self.messages[..kept_messages].iter().cloned());
        messages.extend(loaded.messages.into_iter().map(|mut m| {
            m.shift(from.byte);
            m
        }));
        let mut notes: Vec<super::Note> = self
            .notes
            .iter()
            .filter(|n| n.line != 0 && n.line <= lines_before)
            .cloned()
            .collect();
        notes.extend(loaded.notes.into_iter().filter(|n| n.line != 0).map(|mut n| {
            n.before += kept_messages;
            n.line += lines_before;
            n
        }));
        notes.extend(off_branch_summary(off_branch.0, off_branch.1, end));
        let mut records: Vec<LogRecord> = kept_records.into_iter().cloned().collect();
        records.extend(loaded.records.into_iter().map(|r| LogRecord {
            range: r.range.start + from.byte..r.range.end + from.byte,
            message: r.message.map(|m| m + kept_messages),
            order: r.order.map(|o| o + order_from),
            ..r
        }));
        let mut text = String::with_capacity(self.text.len() + appended.len());
        text.push_str(&self.text);
        text.push_str(appended);
        let boundaries = super::boundaries_of(&messages);
        Transcript {
            source: self.source.clone(),
            text: Arc::new(SourceText::from_string(text)),
            format: self.format.clone(),
            groups: Arc::new(ToolGroups::compute(&messages)),
            messages: Arc::new(messages),
            system: self.system.clone(),
            boundaries: Arc::new(boundaries),
            notes: Arc::new(notes),
            log_records: Arc::new(records),
            compactions: Arc::clone(&self.compactions),
            conversation: self.conversation,
            overrides: Arc::clone(&self.overrides),
            count_mode: self.count_mode,
            model: loaded.model.or_else(|| self.model.clone()),
            media_resolution: self.media_resolution,
        }
    }
}

/// A log's loader (`source`, text, where the records start, which conversation).
type LoadLog = fn(&str, &str, usize, Conversation) -> Result<super::logs::Loaded, crate::error::LoadError>;

/// Where reading on starts: the first message read again, and its first byte.
struct Reread {
    message: usize,
    byte: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At every line of a real Claude Code log: the first part read whole, the rest read
    /// on with `appended`, equals the whole file read whole (when `appended` answers at
    /// all), and it answers for most lines.
    #[test]
    fn reading_on_equals_reading_whole_at_every_line() {
        for conversation in [Conversation::Live, Conversation::Whole] {
            let (answered, tried) = read_on_at_every_line(crate::test_data::real_claude_code_logs(), 4, conversation);
            assert!(
                answered * 10 > tried * 7,
                "{conversation:?}: read on at {answered} of {tried} cuts"
            );
        }
    }

    /// The same for Codex rollouts (the real one, the reproducers, and the real one with
    /// a `token_count` after each call's output, as Codex writes them): it answers at most
    /// lines, and reads whole where a prompt from an event or a compaction comes.
    #[test]
    fn a_codex_rollout_read_on_equals_reading_it_whole() {
        for conversation in [Conversation::Live, Conversation::Whole] {
            let (answered, tried) = read_on_at_every_line(crate::test_data::real_codex_logs(), 1, conversation);
            assert!(
                answered * 10 > tried * 6,
                "{conversation:?}: read on at {answered} of {tried} cuts"
            );
        }
    }

    /// Cuts each log at every `step`-th line, reads the rest on, and compares with a whole
    /// read; how many cuts were read on, of how many tried.
    fn read_on_at_every_line(
        logs: Vec<(&'static str, String)>,
        step: usize,
        conversation: Conversation,
    ) -> (usize, usize) {
        let mut answered = 0;
        let mut tried = 0;
        for (name, text) in logs {
            let ends = crate::test_data::line_ends(&text);
            for (k, &cut) in ends.iter().enumerate().step_by(step) {
                let Some(&end) = ends.get(k + 1 + k % 7) else {
                    continue;
                };
                tried += 1;
                let load = |end: usize| {
                    Transcript::parse_conversation(name, text.as_bytes()[..end].to_vec(), None, conversation)
                        .expect("a prefix loads")
                };
                let first = load(cut);
                let Some((on, kept)) = first.appended(&text[cut..end]) else {
                    continue;
                };
                assert_eq!(
                    on.messages[..kept],
                    first.messages[..kept],
                    "the messages kept are unchanged"
                );
                answered += 1;
                let whole = load(end);
                assert_eq!(on.text.as_str(), whole.text.as_str());
                if let Some(k) = (0..on.messages.len().max(whole.messages.len()))
                    .find(|&k| on.messages.get(k) != whole.messages.get(k))
                {
                    let brief = |m: Option<&super::super::Message>| {
                        m.map(|m| {
                            (
                                m.role.as_str().to_owned(),
                                m.span.clone(),
                                m.records().to_vec(),
                                m.tool_results().to_vec(),
                            )
                        })
                    };
                    panic!(
                        "{name} cut at {cut} (message {} of the first read), read to {end}: message {k} differs:\n{:?}\n{:?}",
                        first.messages.len(),
                        brief(on.messages.get(k)),
                        brief(whole.messages.get(k))
                    );
                }
                for (a, b) in on.notes.iter().zip(whole.notes.iter()) {
                    assert_eq!(a, b, "{name} cut at {cut}");
                }
                assert_eq!(on.notes.len(), whole.notes.len(), "{name} cut at {cut}");
                assert_eq!(on.log_records, whole.log_records, "{name} cut at {cut}");
                assert_eq!(on.groups, whole.groups);
                assert_eq!(on.boundaries, whole.boundaries);
                assert_eq!(on.compactions, whole.compactions);
                assert_eq!(on.model, whole.model);
            }
        }
        eprintln!("read on at {answered} of {tried} cuts");
        (answered, tried)
    }
}
