//! The preview overlay's content: the compacted document exactly as `compact` writes it
//! (the same core function), cut into display segments so even a one-line 100 MB JSON
//! array scrolls.

use super::app::App;
use crate::compact::deterministic::DryRun;

/// Longest display segment, in bytes: long lines are cut so each scroll step is bounded.
const SEGMENT_BYTES: usize = 512;

/// The preview's text and where its display segments start and end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviewState {
    /// What the preview is of.
    pub title: String,
    /// The document.
    pub text: String,
    /// Byte ranges of the display segments, in order.
    pub segments: Vec<(usize, usize)>,
    /// The first segment shown.
    pub scroll: usize,
}

impl PreviewState {
    /// A job that builds the preview of the app's current strategy, plan and summary on a
    /// worker: the document `compact` would write (through the same `compact::apply`;
    /// externalized output is named, not stored). At 100k messages it takes ~70 ms.
    pub fn job(app: &App) -> impl FnOnce() -> PreviewState + Send + 'static {
        let inputs = super::ApplyInputs::of(app);
        move || {
            let applied = inputs.apply(&mut DryRun);
            let (title, text) = match applied {
                Ok(a) if a.output == inputs.input_text() => (
                    " preview: no change, the output is the input byte for byte ".to_owned(),
                    a.output,
                ),
                Ok(a) => (
                    format!(
                        " preview ({}): as `compact` writes it · {} tokens ",
                        inputs.strategy_name(),
                        a.tokens_after
                    ),
                    a.output,
                ),
                Err(e) => (" preview failed ".to_owned(), format!("{e:#}")),
            };
            let segments = segments(&text);
            PreviewState {
                title,
                text,
                segments,
                scroll: 0,
            }
        }
    }

    /// The segments from `scroll`, at most `count`.
    pub fn visible(&self, count: usize) -> impl Iterator<Item = &str> {
        let start = self.scroll.min(self.segments.len().saturating_sub(1));
        self.segments[start..]
            .iter()
            .take(count)
            .map(|&(a, b)| &self.text[a..b])
    }
}

/// Lines of `text`, each cut into pieces of at most [`SEGMENT_BYTES`] on char boundaries.
fn segments(text: &str) -> Vec<(usize, usize)> {
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
