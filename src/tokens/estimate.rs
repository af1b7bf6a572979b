//! The §7F default estimator: `ceil(len(J) / 4)` per message, where `J` is the compact
//! JSON serialization of the message object as JavaScript's `JSON.stringify` writes it.
//!
//! Rather than re-serializing, [`compact_length`] walks the message's raw text once:
//! whitespace outside strings is dropped, numbers and literals are kept as written, and
//! each string character is measured as it would be re-escaped (`\"`, `\\`, `\b \f \n
//! \r \t`, other control characters as `\u00XX`, everything else verbatim). One walk
//! yields the length in all three units the ports use.

/// The length of a compact JSON serialization in the three units the ports measure.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CompactLength {
    /// UTF-16 code units (JS, Java, C#, Clojure).
    pub utf16: u64,
    /// Unicode code points (Python).
    pub codepoints: u64,
    /// UTF-8 bytes (Go, Elixir).
    pub utf8: u64,
}

impl CompactLength {
    fn add_ascii(&mut self, n: u64) {
        self.utf16 += n;
        self.codepoints += n;
        self.utf8 += n;
    }

    fn add_char(&mut self, c: char) {
        self.utf16 += c.len_utf16() as u64;
        self.codepoints += 1;
        self.utf8 += c.len_utf8() as u64;
    }
}

/// Which unit `len` counts in (one per family of ports).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// UTF-16 code units.
    Utf16,
    /// Unicode code points.
    Codepoints,
    /// UTF-8 bytes.
    Utf8,
}

/// Tokens of one message by the estimator: `ceil(len / 4)` in the given unit.
pub fn estimate_tokens(message_json: &str, unit: Unit) -> u64 {
    let len = compact_length(message_json);
    let units = match unit {
        Unit::Utf16 => len.utf16,
        Unit::Codepoints => len.codepoints,
        Unit::Utf8 => len.utf8,
    };
    units.div_ceil(4)
}

/// The compact-serialization length of a syntactically valid JSON text.
pub fn compact_length(json: &str) -> CompactLength {
    let bytes = json.as_bytes();
    let mut len = CompactLength::default();
    let mut i = 0;
    while i < bytes.len() {
        // Outside strings valid JSON is ASCII: punctuation, literals, numbers as written.
        let next_quote = memchr::memchr(b'"', &bytes[i..]).map_or(bytes.len(), |at| i + at);
        len.add_ascii(
            bytes[i..next_quote]
                .iter()
                .filter(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
                .count() as u64,
        );
        if next_quote == bytes.len() {
            break;
        }
        i = string_length(bytes, next_quote + 1, &mut len);
    }
    len
}

/// Measures the string whose body starts at `i` (just after the opening quote), quotes
/// included; returns the index just past the closing quote.
fn string_length(bytes: &[u8], mut i: usize, len: &mut CompactLength) -> usize {
    len.add_ascii(2);
    while i < bytes.len() {
        let Some(at) = memchr::memchr2(b'"', b'\\', &bytes[i..]) else {
            add_plain_run(&bytes[i..], len);
            return bytes.len();
        };
        add_plain_run(&bytes[i..i + at], len);
        i += at;
        if bytes[i] == b'"' {
            return i + 1;
        }
        i = escape_length(bytes, i, len);
    }
    i
}

/// Adds a run of string bytes holding no quote and no backslash. Counting by byte class
/// (continuation bytes are not code points; 4-byte leads are two UTF-16 units) needs no
/// decoding and vectorizes. Raw control characters cannot occur: the JSON was validated.
fn add_plain_run(run: &[u8], len: &mut CompactLength) {
    let mut continuation = 0u64;
    let mut four_byte_leads = 0u64;
    for &b in run {
        continuation += u64::from(b & 0xc0 == 0x80);
        four_byte_leads += u64::from(b >= 0xf0);
    }
    let codepoints = run.len() as u64 - continuation;
    len.utf8 += run.len() as u64;
    len.codepoints += codepoints;
    len.utf16 += codepoints + four_byte_leads;
}

/// Width of a control character once re-escaped: the short escapes take 2, the rest 6.
fn control_width(c: u32) -> u64 {
    match c {
        0x08 | 0x09 | 0x0a | 0x0c | 0x0d => 2,
        _ => 6,
    }
}

/// Measures the escape sequence at `i` (a backslash) as its decoded character would be
/// re-escaped; returns the index after the sequence.
fn escape_length(bytes: &[u8], i: usize, len: &mut CompactLength) -> usize {
    match bytes.get(i + 1) {
        Some(b'u') => {
            let Some(unit) = hex4(bytes, i + 2) else {
                len.add_ascii(2);
                return i + 2;
            };
            if (0xd800..0xdc00).contains(&unit) && bytes.get(i + 6) == Some(&b'\\') {
                if let Some(low @ 0xdc00..=0xdfff) = hex4(bytes, i + 8).filter(|_| bytes.get(i + 7) == Some(&b'u')) {
                    let c = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
                    len.add_char(char::from_u32(c).unwrap_or('\u{fffd}'));
                    return i + 12;
                }
            }
            match char::from_u32(unit) {
                // A lone surrogate: well-formed JSON.stringify writes it back as \udXXX.
                None => len.add_ascii(6),
                Some(c) if (c as u32) < 0x20 => len.add_ascii(control_width(c as u32)),
                Some('"' | '\\') => len.add_ascii(2),
                Some(c) => len.add_char(c),
            }
            i + 6
        }
        // `\/` decodes to `/`, which JSON.stringify does not escape.
        Some(b'/') => {
            len.add_ascii(1);
            i + 2
        }
        // `\" \\ \b \f \n \r \t` stay two characters.
        _ => {
            len.add_ascii(2);
            i + 2
        }
    }
}

fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
    let digits = bytes.get(at..at + 4)?;
    let text = std::str::from_utf8(digits).ok()?;
    u32::from_str_radix(text, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn js_stringify_len(value: &serde_json::Value) -> CompactLength {
        // serde_json's compact writer escapes exactly as JSON.stringify does for the
        // characters serde can hold (it writes control characters as \u00xx lowercase).
        let s = serde_json::to_string(value).expect("a Value always serializes");
        CompactLength {
            utf16: s.encode_utf16().count() as u64,
            codepoints: s.chars().count() as u64,
            utf8: s.len() as u64,
        }
    }

    #[test]
    fn the_documented_example_costs_nine() {
        let m = r#"{"role":"user","content":"hello"}"#;
        assert_eq!(compact_length(m).utf16, 33);
        assert_eq!(estimate_tokens(m, Unit::Utf16), 9);
    }

    #[test]
    fn units_differ_as_the_design_page_says() {
        let e = r#"{"role":"user","content":"éééééééé"}"#;
        assert_eq!(estimate_tokens(e, Unit::Utf16), 9);
        assert_eq!(estimate_tokens(e, Unit::Codepoints), 9);
        assert_eq!(estimate_tokens(e, Unit::Utf8), 11);
        let smile = r#"{"role":"user","content":"😀😀😀😀😀😀😀😀"}"#;
        assert_eq!(estimate_tokens(smile, Unit::Utf16), 11);
        assert_eq!(estimate_tokens(smile, Unit::Codepoints), 9);
        assert_eq!(estimate_tokens(smile, Unit::Utf8), 15);
    }

    #[test]
    fn whitespace_and_escapes_are_normalized_like_json_stringify() {
        let pretty = "{\n  \"role\" : \"user\",\n  \"content\": \"a\\/b \\u00e9 \\ud83d\\ude00 \\u0001 \\n \\\" \\u2028\",\n  \"n\": 1.50\n}";
        let value: serde_json::Value = serde_json::from_str(pretty).expect("valid");
        // serde_json (arbitrary_precision) writes `1.50` as read, as the estimator must.
        assert_eq!(compact_length(pretty), js_stringify_len(&value));
        // Exponents too stay as written (serde would write 1.50e+3).
        assert_eq!(compact_length("[1.50e3]").utf8, 8);
    }

    use crate::test_json::json_value;

    proptest::proptest! {
        #[test]
        fn matches_the_compact_writer_on_any_layout(value in json_value(), pretty in proptest::bool::ANY) {
            let text = if pretty { serde_json::to_string_pretty(&value) } else { serde_json::to_string(&value) };
            let text = text.expect("a Value always serializes");
            proptest::prop_assert_eq!(compact_length(&text), js_stringify_len(&value));
        }
    }

    #[test]
    fn lone_surrogates_count_as_their_escape() {
        assert_eq!(compact_length(r#""\ud800""#).utf16, 8);
    }
}
