//! Text for people: thousands separators, cutting and padding by display width (wide
//! characters and emoji take two cells), and making a log's control characters visible.
//! Both front ends (the command line's tables and the TUI) format through here, so a
//! number or a cut looks the same everywhere.

use std::borrow::Cow;
use std::fmt::Write;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// `4752` → `4,752`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A large count the short way a status line writes it: `950`, `38k`, `1.2M`.
pub fn short_count(n: u64) -> String {
    if n >= 1_000_000 {
        format!("{:.1}M", n as f64 / 1_000_000.0)
    } else if n >= 1_000 {
        format!("{}k", (n + 500) / 1_000)
    } else {
        n.to_string()
    }
}

/// A count with its noun, singular for one: `1 message`, `100,000 messages`.
pub fn count_of(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// A signed number with separators: `-1,234`, `+56`.
pub fn thousands_signed(n: i64) -> String {
    let sign = if n < 0 { "-" } else { "+" };
    format!("{sign}{}", thousands(n.unsigned_abs()))
}

/// The number of terminal cells `text` takes.
pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// `text` cut to at most `max` cells, ending in `…` when cut.
pub fn truncate(text: &str, max: usize) -> Cow<'_, str> {
    if width(text) <= max {
        return Cow::Borrowed(text);
    }
    if max == 0 {
        return Cow::Borrowed("");
    }
    let mut out = String::with_capacity(max + 3);
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > max - 1 {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    Cow::Owned(out)
}

/// `text` cut to at most `cells` cells at a word boundary, with an ellipsis when cut (a
/// single word longer than that is cut inside it).
pub fn cut_at_word(text: &str, cells: usize) -> String {
    if width(text) <= cells {
        return text.to_owned();
    }
    let cut = truncate(text, cells);
    let body = cut.trim_end_matches('…');
    match body.rfind(' ') {
        Some(space) if space > 0 => format!("{}…", body[..space].trim_end()),
        _ => cut.into_owned(),
    }
}

/// `text` cut to `cells` cells and padded with spaces to exactly that width, on the left
/// (`right_align`) or the right.
pub fn fit(text: &str, cells: usize, right_align: bool) -> String {
    let cut = truncate(text, cells);
    let pad = cells.saturating_sub(width(&cut));
    if right_align {
        format!("{}{cut}", " ".repeat(pad))
    } else {
        format!("{cut}{}", " ".repeat(pad))
    }
}

/// Ids joined with commas after `prefix`, cut to `max` cells with an ellipsis.
pub fn id_list(prefix: &str, ids: &[&str], max: usize) -> String {
    if ids.is_empty() {
        return String::new();
    }
    let full = format!("{prefix}{}", ids.join(","));
    truncate(&full, max).into_owned()
}

/// Text with every control character made visible, so nothing read from a log can move
/// the cursor, change colours or ring the bell: ESC becomes `␛`, other C0 controls their
/// Unicode control pictures (`␀`…`␟`), DEL `␡`, C1 controls `\u{80}`-style escapes.
/// Newlines and tabs are kept only when `keep_lines` (multi-line views); otherwise they
/// become `⏎` and a space.
pub fn visible(text: &str, keep_lines: bool) -> Cow<'_, str> {
    let needs = text
        .chars()
        .any(|c| c.is_control() && !(keep_lines && (c == '\n' || c == '\t')));
    if !needs {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' | '\t' if keep_lines => out.push(c),
            '\n' => out.push('⏎'),
            '\t' => out.push(' '),
            '\u{1b}' => out.push('␛'),
            '\u{7f}' => out.push('␡'),
            c if (c as u32) < 0x20 => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('�')),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// The text on one line: whitespace runs become one space, control characters visible,
/// cut to `max` cells.
pub fn one_line(text: &str, max: usize) -> String {
    let mut flat = String::with_capacity(text.len().min(max * 4 + 8));
    for word in text.split_whitespace() {
        if !flat.is_empty() {
            flat.push(' ');
        }
        flat.push_str(word);
        if flat.len() > max * 4 + 8 {
            break; // enough to fill `max` cells, whatever the characters
        }
    }
    truncate(&visible(&flat, false), max).into_owned()
}

/// A time as `YYYY-MM-DDTHH:MM:SSZ` (UTC).
pub fn rfc3339(time: std::time::SystemTime) -> String {
    let secs = time.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Civil from days (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn times_are_rfc3339() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(1_798_761_600 + 3_723)),
            "2027-01-01T01:02:03Z"
        );
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "2000-02-29T00:00:00Z"
        );
    }

    #[test]
    fn a_cut_ends_at_a_word() {
        assert_eq!(cut_at_word("one two three", 20), "one two three");
        assert_eq!(cut_at_word("one two three", 10), "one two…");
        assert!(width(&cut_at_word("abcdefghijkl", 5)) <= 5);
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(4752), "4,752");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands_signed(-1234), "-1,234");
        assert_eq!(thousands_signed(56), "+56");
    }

    #[test]
    fn cuts_and_pads_by_display_width() {
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
        // Each emoji and CJK character takes two cells.
        assert_eq!(width("😀日本"), 6);
        assert_eq!(truncate("😀😀😀", 4), "😀…");
        assert_eq!(width(&fit("😀x", 5, false)), 5);
        assert_eq!(fit("12", 5, true), "   12");
        assert_eq!(fit("日本語です", 5, false), "日本…");
    }

    #[test]
    fn lists_are_truncated() {
        assert_eq!(id_list("→", &["c1", "c2"], 20), "→c1,c2");
        assert_eq!(id_list("→", &["abcdef", "ghijkl"], 6), "→abcd…");
        assert_eq!(id_list("→", &[], 6), "");
    }

    #[test]
    fn control_characters_become_visible() {
        assert_eq!(visible("\u{1b}[1mPostToolUse", false), "␛[1mPostToolUse");
        assert_eq!(visible("a\nb\tc\u{7}", false), "a⏎b c␇");
        assert_eq!(visible("a\nb\tc", true), "a\nb\tc");
        assert_eq!(visible("\u{9b}x", true), "\\u{9b}x");
        assert_eq!(one_line("  a \n\n b\u{1b} ", 10), "a b␛");
    }
}
