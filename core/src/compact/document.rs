//! The output of a compaction as a list of pieces: stretches of the input file (shared,
//! never copied) and newly written text (the summary, rewritten messages). It is written
//! straight to a file or standard output, so an output as large as the input costs no
//! second copy in memory, and a no-op is the input itself, byte for byte.

use std::io::{self, Write};
use std::ops::Range;
use std::sync::Arc;

use super::deterministic::ArtifactStore;
use crate::transcript::{SourceText, Transcript};

#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    /// Bytes of the input.
    Source(Range<usize>),
    /// Text written by the compaction.
    New(String),
}

/// A compacted document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    source: Arc<SourceText>,
    pieces: Vec<Piece>,
    /// Why this document cannot be written (a format ctxlens reads but does not write):
    /// writing it fails with this reason, before a byte is written.
    refused: Option<String>,
}

impl Document {
    /// An empty document over `transcript`'s text.
    pub fn new(transcript: &Transcript) -> Document {
        Document {
            source: Arc::clone(&transcript.text),
            pieces: Vec::new(),
            refused: None,
        }
    }

    /// A document that cannot be written, and why.
    pub fn refused(transcript: &Transcript, reason: String) -> Document {
        Document {
            refused: Some(reason),
            ..Document::new(transcript)
        }
    }

    /// Why the document cannot be written, when it cannot.
    pub fn refusal(&self) -> Option<&str> {
        self.refused.as_deref()
    }

    /// The input itself, unchanged.
    pub fn unchanged(transcript: &Transcript) -> Document {
        let mut doc = Document::new(transcript);
        doc.push_input(transcript, 0..transcript.text.len());
        doc
    }

    /// Appends the input's bytes `range`, with any message the transcript rewrote
    /// (deterministic edits) replaced by its new JSON.
    pub fn push_input(&mut self, transcript: &Transcript, range: Range<usize>) {
        let mut inside: Vec<(Range<usize>, &str)> = transcript
            .overrides()
            .iter()
            // A merged Claude Code response has no single span to replace; the
            // deterministic pass never rewrites one.
            .filter(|(&i, _)| transcript.messages[i].synthetic().is_none())
            .map(|(&i, json)| (transcript.messages[i].span.clone(), json.as_str()))
            .filter(|(span, _)| span.start >= range.start && span.end <= range.end)
            .collect();
        // Log messages follow the conversation, not the file: order by position.
        inside.sort_by_key(|(span, _)| span.start);
        let mut at = range.start;
        for (span, json) in inside {
            if span.start < at {
                continue;
            }
            self.push_source(at..span.start);
            self.push_new(json.to_owned());
            at = span.end;
        }
        self.push_source(at..range.end);
    }

    fn push_source(&mut self, range: Range<usize>) {
        if range.is_empty() {
            return;
        }
        // Adjacent stretches merge, so an untouched file stays one piece.
        if let Some(Piece::Source(last)) = self.pieces.last_mut() {
            if last.end == range.start {
                last.end = range.end;
                return;
            }
        }
        self.pieces.push(Piece::Source(range));
    }

    /// Appends newly written text.
    pub fn push_new(&mut self, text: String) {
        if !text.is_empty() {
            self.pieces.push(Piece::New(text));
        }
    }

    /// Appends `text` (a separator, a newline) as new text.
    pub fn push_str(&mut self, text: &str) {
        self.push_new(text.to_owned());
    }

    /// True when the document is the input, byte for byte.
    pub fn is_input(&self) -> bool {
        match self.pieces.as_slice() {
            [] => self.source.is_empty(),
            [Piece::Source(r)] => r.start == 0 && r.end == self.source.len(),
            _ => false,
        }
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.pieces
            .iter()
            .map(|p| match p {
                Piece::Source(r) => r.len(),
                Piece::New(s) => s.len(),
            })
            .sum()
    }

    /// True when the document has no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The pieces as text, in order.
    pub fn pieces(&self) -> impl Iterator<Item = &str> {
        self.pieces.iter().map(|p| match p {
            Piece::Source(r) => &self.source[r.clone()],
            Piece::New(s) => s.as_str(),
        })
    }

    /// Writes the document.
    pub fn write_to(&self, out: &mut dyn Write) -> io::Result<()> {
        if let Some(reason) = &self.refused {
            return Err(io::Error::other(reason.clone()));
        }
        for piece in self.pieces() {
            out.write_all(piece.as_bytes())?;
        }
        Ok(())
    }

    /// The whole document as one string (a copy; prefer [`Document::write_to`]).
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(self.len());
        for piece in self.pieces() {
            out.push_str(piece);
        }
        out
    }
}

/// Writes `document` to `out` atomically ([`crate::export::write_with`]); when that fails,
/// removes what `store` wrote for it, so no artifact outlives an output that was not
/// written.
pub fn write_document(
    out: &std::path::Path,
    document: &Document,
    input: Option<&std::path::Path>,
    force: bool,
    store: &mut dyn ArtifactStore,
) -> crate::Result<()> {
    let written = crate::export::write_with(out, input, force, &mut |w| document.write_to(w));
    if written.is_err() {
        store.roll_back();
    }
    written
}
