//! Lines wrapped at word boundaries for the overlays, with a hanging indent: at 80
//! columns a help entry or a loss report line takes two rows instead of losing its end.
//! Where a line breaks depends on its text only ([`rows_of`]), so the drawing
//! ([`wrap_line`]) and the paging that must know how many rows a text takes ([`height`],
//! [`last_scroll`]) always agree.

use std::ops::Range;

use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

/// Where `text` breaks at `width` columns: each row's byte range of `text`, and the
/// indent (columns) it is drawn with. The first row has no indent; the next ones are
/// indented like the text's own body: past its leading spaces, and past a key label
/// when the text is `label   description` (two spaces or more between).
pub fn rows_of(text: &str, width: usize) -> Vec<(usize, Range<usize>)> {
    let width = width.max(1);
    if text.width() <= width {
        return vec![(0, 0..text.len())];
    }
    let indent = hanging_indent(text).min(width / 2);
    let mut rows = Vec::new();
    let (mut start, mut used, mut row_indent) = (0, 0, 0);
    let mut at = 0;
    for word in text.split_inclusive(' ') {
        let end = at + word.len();
        let visible = word.trim_end_matches(' ').width();
        if used + visible > width && at > start {
            rows.push((row_indent, start..at));
            start = at;
            row_indent = indent;
            used = indent;
        }
        // A word longer than a whole row is cut where the row ends.
        let mut from = at;
        while used + text[from..end].trim_end_matches(' ').width() > width {
            let room = width.saturating_sub(used).max(1);
            let cut = cut_at(&text[from..end], room);
            if cut == 0 {
                break;
            }
            rows.push((row_indent, start..from + cut));
            from += cut;
            start = from;
            row_indent = indent;
            used = indent;
        }
        used += text[from..end].width();
        at = end;
    }
    if start < text.len() || rows.is_empty() {
        rows.push((row_indent, start..text.len()));
    }
    rows
}

/// The byte length of the longest start of `text` at most `columns` wide (at least one
/// character, so a row always advances).
fn cut_at(text: &str, columns: usize) -> usize {
    let mut used = 0;
    for (i, c) in text.char_indices() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > columns {
            return if i == 0 { c.len_utf8() } else { i };
        }
        used += w;
    }
    text.len()
}

/// The indent of a text's continuation rows (see [`rows_of`]): where the text after its
/// first gap of two spaces or more starts (a label's description), else its leading
/// spaces.
fn hanging_indent(text: &str) -> usize {
    let lead = text.len() - text.trim_start_matches(' ').len();
    let body = &text[lead..];
    match body.find("  ") {
        Some(gap) => {
            let after = body[gap..].len() - body[gap..].trim_start_matches(' ').len();
            if lead + gap + after >= text.len() {
                return lead;
            }
            text[..lead + gap + after].width()
        }
        None => lead,
    }
}

/// Rows `text` takes at `width` columns.
pub fn height(text: &str, width: usize) -> usize {
    rows_of(text, width).len()
}

/// `line` wrapped at `width` columns, each piece keeping the style it had.
pub fn wrap_line(line: &Line<'static>, width: usize) -> Vec<Line<'static>> {
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    let rows = rows_of(&text, width);
    if rows.len() == 1 {
        return vec![line.clone()];
    }
    // Each span's byte range in `text`.
    let mut spans = Vec::with_capacity(line.spans.len());
    let mut at = 0;
    for span in &line.spans {
        spans.push((at..at + span.content.len(), span.style));
        at += span.content.len();
    }
    rows.into_iter()
        .map(|(indent, range)| {
            let mut pieces = vec![Span::raw(" ".repeat(indent))];
            for (span, style) in &spans {
                let (from, to) = (span.start.max(range.start), span.end.min(range.end));
                if from < to {
                    pieces.push(Span::styled(text[from..to].to_owned(), *style));
                }
            }
            Line::from(pieces).style(line.style)
        })
        .collect()
}

/// Every line wrapped at `width` columns.
pub fn wrap_all(lines: &[Line<'static>], width: usize) -> Vec<Line<'static>> {
    lines.iter().flat_map(|l| wrap_line(l, width)).collect()
}

/// The largest first line (of `heights`, each line's rows) that still fills a page of
/// `rows` rows: scrolling further would only show blank rows.
pub fn last_scroll(heights: &[usize], rows: usize) -> usize {
    let mut filled = 0;
    for (k, h) in heights.iter().enumerate().rev() {
        filled += h;
        if filled > rows {
            return k + 1;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str, width: usize) -> Vec<String> {
        rows_of(text, width)
            .into_iter()
            .map(|(indent, r)| format!("{}{}", " ".repeat(indent), &text[r]))
            .collect()
    }

    #[test]
    fn a_line_that_fits_is_one_row() {
        assert_eq!(rows("  g        first message", 40), vec!["  g        first message"]);
    }

    #[test]
    fn words_are_never_cut_and_the_body_keeps_its_column() {
        let text = "  r        summary role: system (as §7F writes it) or user (which Anthropic accepts)";
        let wrapped = rows(text, 40);
        assert!(wrapped.len() > 1);
        for row in &wrapped {
            assert!(row.trim_end().width() <= 40, "{row:?}");
        }
        assert!(wrapped[1].starts_with("           ") && !wrapped[1].starts_with("            "));
        let words: Vec<&str> = text.split_whitespace().collect();
        let again: Vec<String> = wrapped
            .iter()
            .flat_map(|r| r.split_whitespace().map(str::to_owned))
            .collect();
        assert_eq!(again, words, "no word cut, none lost");
    }

    #[test]
    fn a_word_longer_than_the_row_is_cut_at_the_row_end() {
        let text = format!("  {}", "x".repeat(30));
        let wrapped = rows(&text, 12);
        assert!(wrapped.iter().all(|r| r.width() <= 12), "{wrapped:?}");
        assert_eq!(wrapped.concat().matches('x').count(), 30);
    }

    #[test]
    fn styles_follow_their_text_across_rows() {
        use ratatui::style::Style;
        let accent = Style::new().bold();
        let line = Line::from(vec![
            Span::styled("  key      ", accent),
            Span::raw("one two three four five six seven"),
        ]);
        let wrapped = wrap_line(&line, 24);
        assert_eq!(wrapped.len(), height(&line.to_string(), 24));
        assert_eq!(wrapped[0].spans[1].style, accent);
        assert!(wrapped[1..].iter().all(|l| l.spans.iter().all(|s| s.style != accent)));
    }

    #[test]
    fn the_last_scroll_shows_a_full_last_page() {
        assert_eq!(last_scroll(&[1, 1, 1, 1], 2), 2);
        assert_eq!(last_scroll(&[1, 1, 3], 3), 2);
        assert_eq!(last_scroll(&[1, 1, 3], 4), 1);
        assert_eq!(last_scroll(&[1, 1], 5), 0);
    }
}
