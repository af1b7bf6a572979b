//! The preview's text cut into display segments (lines, long lines in pieces of at most
//! [`SEGMENT_BYTES`]), so even a one-line 100 MB JSON array scrolls a bounded step at a
//! time; and the readable form of a transcript: one block per message, its role and
//! tokens, then its content as text with real line breaks.

use crate::text::thousands;
use crate::tokens::{Counts, Tokenizer};
use crate::transcript::Transcript;

/// `transcript` as readable text: per message a header line, then its text (control
/// characters shown, line breaks kept).
pub fn readable(transcript: &Transcript, tokenizer: Tokenizer) -> String {
    let counts = Counts::compute(transcript, tokenizer);
    let mut out = String::new();
    for i in 0..transcript.messages().len() {
        let header = format!(
            "── #{i} {} · {} tokens ",
            transcript.role_label(i),
            thousands(counts.message(i))
        );
        out.push_str(&header);
        out.push_str(&"─".repeat(60usize.saturating_sub(header.chars().count())));
        out.push('\n');
        let text = transcript.readable_text(i);
        out.push_str(&crate::text::visible(text.trim_end(), true).replace('\t', "    "));
        out.push_str("\n\n");
    }
    out
}

/// Longest display segment, in bytes.
pub const SEGMENT_BYTES: usize = 512;

/// Byte ranges of the display segments of `text`, in order, on char boundaries.
pub fn segments(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut line_start = 0;
    for line in text.split('\n') {
        let mut start = line_start;
        let end = line_start + line.len();
        loop {
            let mut cut = (start + SEGMENT_BYTES).min(end);
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            out.push((start, cut));
            if cut >= end {
                break;
            }
            start = cut;
        }
        line_start = end + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::segments;

    #[test]
    fn long_lines_are_cut_on_char_boundaries() {
        let text = format!("a\n{}\nb", "é".repeat(600));
        let segs = segments(&text);
        assert_eq!(segs.len(), 5, "{segs:?}");
        assert!(segs
            .iter()
            .all(|&(a, b)| b - a <= 512 && text.is_char_boundary(a) && text.is_char_boundary(b)));
        let rebuilt: String = segs.iter().map(|&(a, b)| &text[a..b]).collect();
        assert_eq!(rebuilt, text.replace('\n', ""));
    }
}
