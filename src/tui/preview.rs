//! The preview's text cut into display segments (lines, long lines in pieces of at most
//! [`SEGMENT_BYTES`]), so even a one-line 100 MB JSON array scrolls a bounded step at a
//! time.

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
