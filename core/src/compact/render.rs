//! Writing a cut: the compacted document, in the input's format.
//!
//! The kept head and the tail are the exact bytes read (the tail as one contiguous
//! stretch, its separators included); only the summary and reminder messages are newly
//! serialized, joined with the file's own separator. A session log keeps whole records.

use super::document::Document;
use super::inserted::{insertion, SummaryRole};
use super::plan::Cut;
use super::stale_usage::{kept_record, may_carry_usage, KeptRecord};
use crate::tokens::Counts;
use crate::transcript::Transcript;

/// Tokens of the compacted message list, without building the document: the kept head
/// and tail come from the counts, only the inserted messages are counted.
pub fn tokens_after(transcript: &Transcript, cut: &Cut, counts: &Counts, inserted: &[String]) -> u64 {
    let new: u64 = inserted
        .iter()
        .map(|m| crate::tokens::count_json(transcript, counts.tokenizer, m))
        .sum();
    cut.head_tokens + new + cut.tail_tokens
}

/// A cut written out: the document and what the newly written messages are.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The output document.
    pub document: Document,
    /// The model-visible JSON of each inserted message (summary, then reminder).
    pub inserted: Vec<String>,
    /// Tokens of the resulting message list, by the tokenizer of the counts.
    pub tokens_after: u64,
}

/// The compacted document for a cut at `cut` with the summary text `summary`.
pub fn render(
    transcript: &Transcript,
    counts: &Counts,
    cut: &Cut,
    flush_to_memory: bool,
    role: SummaryRole,
    summary: &str,
) -> Rendered {
    let insertion = insertion(transcript, cut, flush_to_memory, role, summary);
    let tokens_after = tokens_after(transcript, cut, counts, &insertion.messages);
    let unwritten = match transcript.format.container {
        crate::transcript::Container::GeminiCli => Some("Gemini CLI recordings"),
        crate::transcript::Container::CopilotCli => Some("Copilot CLI session logs"),
        crate::transcript::Container::Opencode => Some("opencode sessions"),
        _ => None,
    };
    let document = if let Some(what) = unwritten {
        Document::refused(
            transcript,
            format!(
                "{}: ctxlens reads {what} but does not write them yet: see what a compaction keeps with --plan or --report, or replay and compare",
                transcript.source
            ),
        )
    } else if transcript.format.container.is_log() {
        render_log(transcript, cut, insertion.records)
    } else {
        render_list(transcript, cut, insertion.records)
    };
    Rendered {
        document,
        inserted: insertion.messages,
        tokens_after,
    }
}

/// A message list: what surrounds the list, the head, the inserted messages, the tail,
/// joined by the file's own separator.
fn render_list(transcript: &Transcript, cut: &Cut, inserted: Vec<String>) -> Document {
    let (prefix, suffix) = transcript.surroundings();
    let separator = transcript.separator().to_owned();
    let len = transcript.messages.len();
    let mut doc = Document::new(transcript);
    doc.push_input(transcript, 0..prefix.len());
    let mut pieces: Vec<Option<std::ops::Range<usize>>> = Vec::new();
    if cut.head_end > 0 {
        pieces.push(Some(transcript.run_bytes(0..cut.head_end)));
    }
    let inserted_count = inserted.len();
    pieces.extend(std::iter::repeat_n(None, inserted_count));
    if cut.split < len {
        pieces.push(Some(transcript.run_bytes(cut.split..len)));
    }
    let mut inserted = inserted.into_iter();
    for (k, piece) in pieces.into_iter().enumerate() {
        if k > 0 {
            doc.push_str(&separator);
        }
        match piece {
            Some(range) => doc.push_input(transcript, range),
            None => doc.push_new(inserted.next().unwrap_or_default()),
        }
    }
    let end = transcript.text.len();
    doc.push_input(transcript, end - suffix.len()..end);
    doc
}

/// The place in the active conversation of the record at `range`.
fn order_of(transcript: &Transcript, range: &std::ops::Range<usize>) -> Option<usize> {
    transcript
        .log_records
        .iter()
        .find(|r| r.range == *range)
        .and_then(|r| r.order)
}

/// The records a compacted log keeps before what the compaction writes, in conversation
/// order: a Claude Code log's earlier epochs (Claude Code never drops them), the records
/// before the first message (session metadata, an earlier compaction's boundary), an
/// earlier compaction's summary even when it is summarized again (so `history` still
/// finds that compaction; unless the kept tail hangs from it: the inserted records take
/// its place in the chain), and the head messages' records.
pub(super) fn kept_before<'t>(transcript: &'t Transcript, cut: &Cut) -> Vec<&'t crate::transcript::LogRecord> {
    let records = &transcript.log_records;
    let first_message_order = transcript
        .messages
        .first()
        .and_then(|m| m.records().first())
        .and_then(|range| order_of(transcript, range))
        .unwrap_or(usize::MAX);
    let claude_code = transcript.format.container == crate::transcript::Container::ClaudeCode;
    let field = |range: &std::ops::Range<usize>, key: &str| {
        serde_json::from_str::<serde_json::Value>(&transcript.text[range.clone()])
            .ok()
            .and_then(|v| v.get(key)?.as_str().map(str::to_owned))
    };
    let tail_parent = transcript
        .messages
        .get(cut.split)
        .and_then(|m| m.records().first())
        .and_then(|range| field(range, "parentUuid"));
    let mut kept_ranges: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, m) in transcript.messages[..cut.split].iter().enumerate() {
        let resummarized = claude_code
            && m.past_summary
            && m.records()
                .iter()
                .all(|r| tail_parent.is_none() || field(r, "uuid") != tail_parent);
        if i < cut.head_end || resummarized {
            kept_ranges.extend(m.records().iter().cloned());
        }
    }
    let mut kept: Vec<&crate::transcript::LogRecord> = records
        .iter()
        .filter(|r| {
            (claude_code && r.earlier.is_some())
                || (r.message.is_none() && r.order.is_some_and(|o| o < first_message_order))
                || kept_ranges.contains(&r.range)
        })
        .collect();
    // Earlier epochs first, then the live conversation's order.
    kept.sort_by_key(|r| (r.earlier.is_none(), r.earlier.or(r.order)));
    kept
}

/// A compacted log: the records before the first message (session metadata), the head
/// messages' records, the inserted records, then every record of the active
/// conversation from the first kept tail message on, all byte for byte as read (each
/// record once, in file order). "Before" and "from … on" are in conversation order, not
/// file order: a Claude Code file need not be written in `parentUuid` order, and a kept
/// record must never be dropped because it sits earlier in the file. A Codex tail that
/// starts inside an earlier replacement history starts after that `compacted` record:
/// its kept items were written into the new one.
fn render_log(transcript: &Transcript, cut: &Cut, inserted: Vec<String>) -> Document {
    let records = &transcript.log_records;
    let tail_order = transcript
        .messages
        .get(cut.split)
        .and_then(|m| m.records().first())
        .and_then(|range| order_of(transcript, range))
        .map(|order| order + usize::from(super::inserted::from_replacement(transcript, cut.split)));
    let mut head: Vec<std::ops::Range<usize>> = kept_before(transcript, cut)
        .into_iter()
        .map(|r| r.range.clone())
        .collect();
    head.sort_by_key(|r| r.start);
    head.dedup();
    let mut doc = Document::new(transcript);
    for range in head {
        doc.push_input(transcript, range);
        doc.push_str("\n");
    }
    for record in inserted {
        doc.push_new(record);
        doc.push_str("\n");
    }
    if let Some(tail_order) = tail_order {
        for r in records.iter().filter(|r| r.order.is_some_and(|o| o >= tail_order)) {
            push_kept(&mut doc, transcript, r.range.clone());
        }
    }
    doc
}

/// Appends a kept tail record, without the usage measured before the compaction (see
/// [`super::stale_usage`]).
fn push_kept(doc: &mut Document, transcript: &Transcript, range: std::ops::Range<usize>) {
    if !may_carry_usage(&transcript.format.container, &transcript.text[range.clone()]) {
        doc.push_input(transcript, range);
        doc.push_str("\n");
        return;
    }
    // The record as the document would write it (a rewritten message inside included).
    let mut record = Document::new(transcript);
    record.push_input(transcript, range.clone());
    let text = record.to_text();
    match kept_record(&transcript.format.container, &text) {
        KeptRecord::Unchanged => {
            doc.push_input(transcript, range);
            doc.push_str("\n");
        }
        KeptRecord::Rewritten(json) => {
            doc.push_new(json);
            doc.push_str("\n");
        }
        KeptRecord::Dropped => {}
    }
}
