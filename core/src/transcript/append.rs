//! Reading on from where an earlier read of a growing log stopped: [`Transcript::read_on`]
//! parses only the records written since (and the response still being built, read
//! again), and [`Transcript::apply`] puts them after the messages already read, in place:
//! following a session costs what it wrote, not the whole file again. (In place when the
//! transcript's parts are not shared; shared ones are copied first, which costs the file:
//! [`Transcript::appended`] is that, for a caller that keeps the old read.)
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
use std::sync::{Arc, OnceLock};

use serde::Deserialize;

use super::logs::{claude_code, codex, off_branch_count, Conversation, LogRecord};
use super::{Container, SourceText, Transcript};

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

/// What reading on found: the records after the messages kept, read, to be put in place
/// by [`Transcript::apply`] on the transcript they were read on from.
#[derive(Debug)]
pub struct ReadOn {
    /// The transcript read on from: its text's length and its messages' count.
    base: (usize, usize),
    /// Where reading on started.
    from: Reread,
    /// The text read: the transcript's from `from` on, then the lines appended.
    reread: String,
    /// Where the lines appended start in `reread`.
    appended_at: usize,
    /// The records from `from` on, loaded as a log of their own (empty when nothing but
    /// blank lines was appended).
    loaded: Option<super::logs::Loaded>,
    /// Records off the active conversation: on sub-agent branches, on other branches.
    off_branch: (usize, usize),
    /// Lines of the text before `from`.
    lines_before: usize,
    /// The first place in the conversation of the records read again or appended.
    order_from: usize,
}

impl ReadOn {
    /// How many of the first messages are the transcript's own, unchanged (their counts
    /// still hold).
    pub fn kept(&self) -> usize {
        self.from.message
    }

    /// The messages read, as a transcript of their own (the records read again and
    /// appended, in the format, count mode and model of `base`, the transcript read on
    /// from): what counts them without the messages kept.
    pub fn messages_alone(&self, base: &Transcript) -> Transcript {
        let messages = self.loaded.as_ref().map_or_else(Vec::new, |l| l.messages.clone());
        let model = self
            .loaded
            .as_ref()
            .and_then(|l| l.model.clone())
            .or_else(|| base.model.clone());
        Transcript {
            source: base.source.clone(),
            text: Arc::new(SourceText::from_string(self.reread.clone())),
            format: base.format.clone(),
            groups: Arc::new(super::ToolGroups::compute(&messages)),
            boundaries: Arc::new(super::boundaries_of(&messages)),
            messages: Arc::new(messages),
            system: None,
            notes: Arc::default(),
            log_records: Arc::default(),
            compactions: Arc::default(),
            conversation: base.conversation,
            overrides: Arc::default(),
            count_mode: base.count_mode,
            model,
            media_resolution: base.media_resolution,
            extent: OnceLock::new(),
            earlier_sessions: base.earlier_sessions.clone(),
            codex_usage: None,
        }
    }
}

/// How far a read of a log goes, for reading on: made once, the first time it reads on
/// (it costs a pass over the file), then carried from read to read.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Extent {
    /// Lines of the text (newlines).
    lines: usize,
    /// One more than the last place in the conversation any record has (0 for none).
    ordered: usize,
}

impl Transcript {
    /// This transcript with `appended` (complete lines, each ending with a newline) read
    /// after it, and how many of its first messages are this transcript's own, unchanged
    /// (their counts still hold); `None` when only a whole read can say what the file now
    /// holds (see the module's docs). This one is kept as it was, so the new one copies
    /// its parts: [`Transcript::read_on`] and [`Transcript::apply`] grow one in place.
    pub fn appended(&self, appended: &str) -> Option<(Transcript, usize)> {
        let on = self.read_on(appended)?;
        let mut next = self.clone();
        let kept = next.apply(on)?;
        Some((next, kept))
    }

    /// The records `appended` (complete lines, each ending with a newline) adds after
    /// this transcript, read; `None` when only a whole read can say what the file now
    /// holds (see the module's docs). It costs the lines appended and the response read
    /// again, not the file (after a first pass over it, remembered).
    pub fn read_on(&self, appended: &str) -> Option<ReadOn> {
        let clean = self.format.container.is_log()
            && self.overrides.is_empty()
            && self.text.ends_with('\n')
            && appended.ends_with('\n')
            && !self.notes.iter().any(|n| n.kind == "incomplete");
        if !clean {
            return None;
        }
        if appended.trim().is_empty() {
            let extent = self.extent();
            return Some(ReadOn {
                base: (self.text.len(), self.messages.len()),
                from: Reread {
                    message: self.messages.len(),
                    byte: self.text.len(),
                },
                reread: appended.to_owned(),
                appended_at: 0,
                loaded: None,
                off_branch: (0, 0),
                lines_before: extent.lines,
                order_from: extent.ordered,
            });
        }
        match self.format.container {
            Container::ClaudeCode => self.claude_code_appended(appended),
            Container::Codex => self.codex_appended(appended),
            _ => None,
        }
    }

    /// A Codex rollout read on: the last message is read again (a `token_count` after it
    /// records its usage), with everything appended.
    fn codex_appended(&self, appended: &str) -> Option<ReadOn> {
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
        self.messages.last().filter(|m| !m.from_event)?;
        // From the last answer of the model on: a `token_count` after it records its
        // usage, or (written before the next answer, as Codex 0.58 does) waits for that.
        let message = self
            .messages
            .iter()
            .rposition(|m| super::logs::answers_a_call(&m.role) && !m.from_event)
            .filter(|&i| self.messages[i..].iter().all(|m| !m.from_event))
            .unwrap_or(self.messages.len() - 1);
        let from = Reread {
            message,
            byte: self.messages[message..]
                .iter()
                .flat_map(|m| m.records().iter().map(|r| r.start))
                .min()?,
        };
        let (reread, mut loaded) = self.read_again(&from, appended, codex)?;
        // A usage written before that answer (0.58) was given to it by the first read.
        if let Some(first) = loaded.messages.first_mut().filter(|m| m.recorded().is_none()) {
            first.set_recorded(self.messages[message].recorded());
        }
        Some(self.read_on_from(from, reread, loaded, (0, 0)))
    }

    /// A Claude Code log read on (see the module's docs).
    fn claude_code_appended(&self, appended: &str) -> Option<ReadOn> {
        let from = self.reread_from();
        let anchor = self.anchor_before(from.byte)?;
        let reread_records = self.records_from(from.byte);
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
        let (reread, loaded) = self.read_again(&from, appended, claude_code)?;
        // Records off the active conversation are counted in one note: the count read
        // before, less those read again, plus those off it in what was read again.
        let off = |active: bool, l: &Links| !active && l.uuid.is_some();
        let tail_off = reread_records
            .iter()
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
        Some(self.read_on_from(from, reread, loaded, (sidechain, other)))
    }

    /// The log records that start at `byte` or after (records are in file order).
    fn records_from(&self, byte: usize) -> &[LogRecord] {
        &self.log_records[self.log_records.partition_point(|r| r.range.start < byte)..]
    }

    /// How far this read goes (made on the first call: a pass over the text and the
    /// records).
    fn extent(&self) -> Extent {
        *self.extent.get_or_init(|| Extent {
            lines: memchr::memchr_iter(b'\n', self.text.as_bytes()).count(),
            ordered: self
                .log_records
                .iter()
                .filter_map(|r| r.order)
                .max()
                .map_or(0, |o| o + 1),
        })
    }

    /// The record with the last place in the conversation among those that start before
    /// `byte`, and that place. Places are unique and below [`Extent::ordered`], so the
    /// largest place no later record holds bounds the answer: the search from `byte`
    /// back stops when it reaches it, which is at once unless the file was written out of
    /// the conversation's order.
    fn last_ordered_before(&self, byte: usize) -> Option<(usize, &LogRecord)> {
        let split = self.log_records.partition_point(|r| r.range.start < byte);
        let later: HashSet<usize> = self.log_records[split..].iter().filter_map(|r| r.order).collect();
        let bound = (0..self.extent().ordered).rev().find(|o| !later.contains(o))?;
        let mut best: Option<(usize, &LogRecord)> = None;
        for record in self.log_records[..split].iter().rev() {
            if let Some(order) = record.order {
                if best.is_none_or(|(b, _)| order > b) {
                    best = Some((order, record));
                }
                if order == bound {
                    break;
                }
            }
        }
        best
    }

    /// What was read on, from `from`: the lines before it and the places the records
    /// read go on from.
    fn read_on_from(
        &self,
        from: Reread,
        reread: String,
        loaded: super::logs::Loaded,
        off_branch: (usize, usize),
    ) -> ReadOn {
        let appended_at = self.text.len() - from.byte;
        let reread_lines = memchr::memchr_iter(b'\n', &reread.as_bytes()[..appended_at]).count();
        let lines_before = self.extent().lines - reread_lines;
        let order_from = self.last_ordered_before(from.byte).map_or(0, |(o, _)| o + 1);
        ReadOn {
            base: (self.text.len(), self.messages.len()),
            from,
            reread,
            appended_at,
            loaded: Some(loaded),
            off_branch,
            lines_before,
            order_from,
        }
    }

    /// The text from `from` on with `appended`, and it loaded by `load` as a log of its
    /// own; `None` when it holds a compaction or a line cut short, or names another
    /// model (which may count every message otherwise): a whole read says then.
    fn read_again(&self, from: &Reread, appended: &str, load: LoadLog) -> Option<(String, super::logs::Loaded)> {
        let tail = &self.text[from.byte..];
        let mut reread = String::with_capacity(tail.len() + appended.len());
        reread.push_str(tail);
        reread.push_str(appended);
        let mut loaded = load(&self.source, &reread, 0, self.conversation).ok()?;
        if from.byte > 0 {
            // The piece's first record names a parent read before it: the conversation
            // goes on from there, it does not continue another file's.
            loaded.notes.retain(|n| n.kind != "continued");
        }
        let whole = loaded.compactions.is_empty()
            && !loaded.notes.iter().any(|n| n.kind == "incomplete")
            && (loaded.model.is_none() || loaded.model == self.model);
        whole.then_some((reread, loaded))
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
        let (_, last) = self.last_ordered_before(byte)?;
        let links: Links = serde_json::from_str(&self.text[last.range.clone()]).ok()?;
        links.uuid
    }

    /// Puts what was read on from this transcript in place: the messages from
    /// [`ReadOn::kept`] on are replaced by those read, the text gets the lines appended.
    /// The parts it does not share are changed where they are (a shared part is copied
    /// first), so an update costs what was read, not the file. How many first messages
    /// were kept; `None` (nothing changed) when `on` was read from another transcript.
    pub fn apply(&mut self, on: ReadOn) -> Option<usize> {
        if on.base != (self.text.len(), self.messages.len()) {
            return None;
        }
        let ReadOn {
            from,
            reread,
            appended_at,
            loaded,
            off_branch,
            lines_before,
            order_from,
            ..
        } = on;
        let kept = from.message;
        let appended = &reread[appended_at..];
        let lines_after = memchr::memchr_iter(b'\n', reread.as_bytes()).count();
        let Some(loaded) = loaded else {
            self.push_text(appended);
            self.extent = OnceLock::from(Extent {
                lines: lines_before + lines_after,
                ordered: order_from,
            });
            return Some(kept);
        };
        // The messages read again, taken back (with their groups and boundaries).
        let messages = Arc::make_mut(&mut self.messages);
        let removed: Vec<super::Message> = messages.drain(kept..).collect();
        let groups = Arc::make_mut(&mut self.groups);
        groups.take_back(messages, &removed);
        messages.extend(loaded.messages.into_iter().map(|mut m| {
            m.shift(from.byte);
            m
        }));
        groups.grow(messages);
        let boundaries = Arc::make_mut(&mut self.boundaries);
        boundaries.truncate(boundaries.partition_point(|&b| b < kept));
        boundaries.extend((kept..messages.len()).filter(|&i| messages[i].boundary));
        let end = messages.len();
        let notes = Arc::make_mut(&mut self.notes);
        // Notes are the log's titles, then its records' notes in file order, then the
        // off-branch counts (line 0): those read again and the counts are at the end.
        while notes.last().is_some_and(|n| n.line == 0 || n.line > lines_before) {
            notes.pop();
        }
        notes.extend(loaded.notes.into_iter().filter(|n| n.line != 0).map(|mut n| {
            n.before += kept;
            n.line += lines_before;
            n
        }));
        notes.extend(super::logs::off_branch_summary(off_branch.0, off_branch.1, end));
        let records = Arc::make_mut(&mut self.log_records);
        records.truncate(records.partition_point(|r| r.range.start < from.byte));
        let mut ordered = order_from;
        records.extend(loaded.records.into_iter().map(|r| {
            let order = r.order.map(|o| o + order_from);
            ordered = ordered.max(order.map_or(0, |o| o + 1));
            LogRecord {
                range: r.range.start + from.byte..r.range.end + from.byte,
                message: r.message.map(|m| m + kept),
                order,
                ..r
            }
        }));
        self.push_text(appended);
        self.extent = OnceLock::from(Extent {
            lines: lines_before + lines_after,
            ordered,
        });
        if loaded.model.is_some() {
            self.model = loaded.model;
        }
        if let Some(reader) = loaded.codex_usage {
            self.codex_usage = Some(Arc::new(reader));
        }
        Some(kept)
    }

    /// `more` after the text: in place when the text is not shared.
    fn push_text(&mut self, more: &str) {
        if let Some(text) = Arc::get_mut(&mut self.text) {
            text.push_str(more);
        } else {
            let mut text = String::with_capacity(self.text.len() + more.len());
            text.push_str(&self.text);
            text.push_str(more);
            self.text = Arc::new(SourceText::from_string(text));
        }
    }
}

/// A log's loader (`source`, text, where the records start, which conversation).
type LoadLog = fn(&str, &str, usize, Conversation) -> Result<super::logs::Loaded, crate::error::LoadError>;

/// Where reading on starts: the first message read again, and its first byte.
#[derive(Debug)]
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

    /// A log grown in place step by step (a few lines at a time, as a followed log
    /// grows, reading whole where reading on cannot say), equals at each step the same
    /// lines read whole, with its counts, its meter and the fit of its recorded usage:
    /// what one read on carries to the next (its extent, the groups' index, the text
    /// grown in place, the meter's threshold, the fit's points) stays true.
    #[test]
    fn a_log_grown_in_place_step_by_step_equals_reading_it_whole() {
        let logs = crate::test_data::real_claude_code_logs()
            .into_iter()
            .chain(crate::test_data::real_codex_logs());
        let (mut steps, mut in_place) = (0, 0);
        for (name, text) in logs {
            for conversation in [Conversation::Live, Conversation::Whole] {
                let ends = crate::test_data::line_ends(&text);
                let load = |end: usize| {
                    Transcript::parse_conversation(name, text.as_bytes()[..end].to_vec(), None, conversation)
                        .expect("a prefix loads")
                };
                let mut at = ends.len() / 4;
                let mut grown = load(ends[at]);
                let tokenizer = crate::tokens::Tokenizer::Estimate;
                let mut counts = crate::tokens::Counts::compute(&grown, tokenizer);
                let mut meter = crate::meter::meter(&grown, &counts, None);
                let mut fit = crate::calibrate::calibrate(&grown, &counts);
                while at + 1 < ends.len() {
                    // 1 to 5 lines, varying.
                    let next = (at + 1 + steps % 5).min(ends.len() - 1);
                    let appended = &text[ends[at]..ends[next]];
                    let messages_before = Arc::as_ptr(&grown.messages);
                    if let Some(on) = grown.read_on(appended) {
                        let fresh = crate::tokens::Counts::of_read_on(&on, &grown, tokenizer);
                        fit = crate::calibrate::calibrate_read_on(fit.as_ref(), &grown, &counts, &on, &fresh);
                        let kept = grown.apply(on).expect("read from this transcript");
                        counts.extend_with(kept, &fresh);
                        meter = crate::meter::meter_read_on(&grown, &counts, &meter);
                        in_place += usize::from(Arc::as_ptr(&grown.messages) == messages_before);
                    } else {
                        grown = load(ends[next]);
                        counts = crate::tokens::Counts::compute(&grown, tokenizer);
                        meter = crate::meter::meter(&grown, &counts, None);
                        fit = crate::calibrate::calibrate(&grown, &counts);
                    }
                    let whole = load(ends[next]);
                    assert_eq!(grown.text.as_str(), whole.text.as_str(), "{name} at line {next}");
                    assert_eq!(grown.messages, whole.messages, "{name} at line {next}");
                    assert_eq!(grown.notes, whole.notes, "{name} at line {next}");
                    assert_eq!(grown.log_records, whole.log_records, "{name} at line {next}");
                    assert_eq!(grown.groups, whole.groups, "{name} at line {next}");
                    assert_eq!(grown.boundaries, whole.boundaries, "{name} at line {next}");
                    assert_eq!(grown.model, whole.model, "{name} at line {next}");
                    let counted = crate::tokens::Counts::compute(&whole, tokenizer);
                    assert!(counts.iter().eq(counted.iter()), "{name} at line {next}: counts");
                    assert_eq!(
                        meter,
                        crate::meter::meter(&whole, &counted, None),
                        "{name} at line {next}"
                    );
                    assert_eq!(
                        fit,
                        crate::calibrate::calibrate(&whole, &counted),
                        "{name} at line {next}"
                    );
                    at = next;
                    steps += 1;
                }
            }
        }
        assert!(in_place * 2 > steps, "grown in place at {in_place} of {steps} steps");
    }

    /// A transcript read on from one read cannot be put on another.
    #[test]
    fn what_was_read_on_goes_only_on_the_transcript_it_was_read_from() {
        let (name, text) = crate::test_data::real_claude_code_logs().remove(0);
        let ends = crate::test_data::line_ends(&text);
        let load = |end: usize| Transcript::parse(name, text.as_bytes()[..end].to_vec(), None).expect("loads");
        let (short, long) = (load(ends[ends.len() / 2]), load(ends[ends.len() / 2 + 3]));
        let on = (ends.len() / 2..ends.len() - 1)
            .find_map(|k| short.read_on(&text[ends[ends.len() / 2]..ends[k + 1]]))
            .expect("reads on somewhere");
        let mut other = long.clone();
        assert_eq!(other.apply(on), None);
        assert_eq!(other.text.as_str(), long.text.as_str(), "left as it was");
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
