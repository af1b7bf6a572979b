//! The §7F default estimator: `ceil(len(J) / 4)` per message, where `J` is the compact
//! JSON serialization of the message object as JavaScript's `JSON.stringify` writes it.
//!
//! Rather than re-serializing, [`compact_length`] reads the message's raw text once:
//! whitespace outside strings is dropped, numbers and literals are kept as written, and
//! each string character is measured as it would be re-escaped (`\"`, `\\`, `\b \f \n
//! \r \t`, other control characters as `\u00XX`, everything else verbatim). One read
//! yields the length in all three units the ports use.

use super::json_blocks::{Masks, Strings};

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
///
/// Read 64 bytes at a time as masks (see `src/tokens/json_blocks.rs`): every byte counts as
/// one unit in each measure, except layout outside strings (none), UTF-8 continuation
/// bytes (no code point, no UTF-16 unit), the lead of a four-byte character (two UTF-16
/// units), and the escapes that JSON.stringify writes differently: `\/` and `\uXXXX`.
/// Only those escapes are looked at one by one.
pub fn compact_length(json: &str) -> CompactLength {
    let bytes = json.as_bytes();
    let mut strings = Strings::default();
    let mut measure = Measure::default();
    let mut blocks = bytes.chunks_exact(64);
    let mut start = 0;
    for block in blocks.by_ref() {
        let block: &[u8; 64] = block.try_into().expect("a 64-byte block");
        measure.block(bytes, start, block, u64::MAX, &mut strings);
        start += 64;
    }
    let rest = blocks.remainder();
    if !rest.is_empty() {
        // Padded with spaces, which the valid-bytes mask leaves out.
        let mut block = [b' '; 64];
        block[..rest.len()].copy_from_slice(rest);
        measure.block(bytes, start, &block, (1u64 << rest.len()) - 1, &mut strings);
    }
    measure.finish(bytes.len() as u64)
}

/// What [`compact_length`] adds up over the blocks.
#[derive(Debug, Default)]
struct Measure {
    /// Layout bytes outside strings: written by no compact serializer.
    layout: u64,
    continuations: u64,
    four_byte_leads: u64,
    /// Raw bytes of `\/` and `\uXXXX` escapes (each counted as one unit so far)…
    rewritten: u64,
    /// …and what they are once re-escaped.
    rewritten_as: CompactLength,
    /// The end of the last `\u` escape measured (a surrogate pair's second half is
    /// measured with its first).
    escapes_done_to: usize,
}

impl Measure {
    /// Adds the block of `bytes` at `start` (`valid` marks its bytes that are text).
    fn block(&mut self, bytes: &[u8], start: usize, block: &[u8; 64], valid: u64, strings: &mut Strings) {
        let masks = Masks::of(block);
        let layout = strings.next(&masks);
        self.layout += u64::from((masks.spaces_and_controls & !layout.inside & valid).count_ones());
        self.continuations += u64::from(masks.continuations);
        self.four_byte_leads += u64::from(masks.four_byte_leads);
        // `\/` decodes to `/`, which JSON.stringify does not escape; `\" \\ \b \f \n \r
        // \t` stay two characters.
        let slashes = u64::from((layout.escaped & masks.slashes & valid).count_ones());
        self.rewritten += 2 * slashes;
        self.rewritten_as.add_ascii(slashes);
        let mut unicode = layout.escaped & masks.us & valid;
        while unicode != 0 {
            let at = start + unicode.trailing_zeros() as usize;
            unicode &= unicode - 1;
            if at > self.escapes_done_to {
                let (raw, written) = unicode_escape(bytes, at - 1);
                self.escapes_done_to = at - 1 + raw;
                self.rewritten += raw as u64;
                self.rewritten_as.utf16 += written.utf16;
                self.rewritten_as.codepoints += written.codepoints;
                self.rewritten_as.utf8 += written.utf8;
            }
        }
    }

    /// The length of a text of `len` bytes.
    fn finish(&self, len: u64) -> CompactLength {
        // Layout, rewritten and continuation bytes are disjoint sets of the text's bytes;
        // saturating keeps a text that is not JSON from ever wrapping around.
        let utf8 = len.saturating_sub(self.layout + self.rewritten);
        let codepoints = utf8.saturating_sub(self.continuations);
        let utf16 = codepoints + self.four_byte_leads;
        CompactLength {
            utf16: utf16 + self.rewritten_as.utf16,
            codepoints: codepoints + self.rewritten_as.codepoints,
            utf8: utf8 + self.rewritten_as.utf8,
        }
    }
}

/// Width of a control character once re-escaped: the short escapes take 2, the rest 6.
fn control_width(c: u32) -> u64 {
    match c {
        0x08 | 0x09 | 0x0a | 0x0c | 0x0d => 2,
        _ => 6,
    }
}

/// The `\u` escape whose backslash is at `i`: how many raw bytes it spans (a surrogate
/// pair is one character over 12) and its length once re-escaped.
fn unicode_escape(bytes: &[u8], i: usize) -> (usize, CompactLength) {
    let mut len = CompactLength::default();
    let Some(unit) = hex4(bytes, i + 2) else {
        // Not valid JSON: counted as written.
        len.add_ascii(2);
        return (2, len);
    };
    if (0xd800..0xdc00).contains(&unit) && bytes.get(i + 6) == Some(&b'\\') {
        if let Some(low @ 0xdc00..=0xdfff) = hex4(bytes, i + 8).filter(|_| bytes.get(i + 7) == Some(&b'u')) {
            let c = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
            len.add_char(char::from_u32(c).unwrap_or('\u{fffd}'));
            return (12, len);
        }
    }
    match char::from_u32(unit) {
        // A lone surrogate: well-formed JSON.stringify writes it back as \udXXX.
        None => len.add_ascii(6),
        Some(c) if (c as u32) < 0x20 => len.add_ascii(control_width(c as u32)),
        Some('"' | '\\') => len.add_ascii(2),
        Some(c) => len.add_char(c),
    }
    (6, len)
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

    /// Pieces of a JSON string's raw text, each with what stands in for it where the
    /// oracle (serde's writer) cannot go: a lone surrogate re-escapes to six characters,
    /// as `\u0001` does.
    const PIECES: &[(&str, &str)] = &[
        ("a", "a"),
        (" ", " "),
        ("é", "é"),
        ("日", "日"),
        ("😀", "😀"),
        ("\\\"", "\\\""),
        ("\\\\", "\\\\"),
        ("\\/", "\\/"),
        ("\\n", "\\n"),
        ("\\u00e9", "\\u00e9"),
        ("\\u0022", "\\u0022"),
        ("\\u005C", "\\u005C"),
        ("\\u0001", "\\u0001"),
        ("\\u000a", "\\u000a"),
        ("\\u2028", "\\u2028"),
        ("\\ud83d\\ude00", "\\ud83d\\ude00"),
        // Lone surrogates, kept from pairing with a following low half.
        ("\\ud83dx", "\\u0001x"),
        ("\\ude00", "\\u0001"),
        ("\\ud83d\\\\", "\\u0001\\\\"),
    ];

    /// Raw JSON text of objects whose strings are made of [`PIECES`], laid out compact or
    /// pretty, so block edges fall inside every kind of escape; and its oracle twin.
    fn escaped_texts() -> impl proptest::strategy::Strategy<Value = (String, String)> {
        use proptest::prelude::*;
        use std::fmt::Write as _;
        let string = proptest::collection::vec(0..PIECES.len(), 0..40);
        (proptest::collection::vec(string, 1..6), proptest::bool::ANY, 0..70usize).prop_map(
            |(strings, pretty, lead)| {
                let (gap, colon) = if pretty { (",\n  ", ": ") } else { (",", ":") };
                let (mut text, mut twin) = (format!("{{\"{}\"{colon}0", "k".repeat(lead)), String::new());
                twin.push_str(&text);
                for (n, pieces) in strings.iter().enumerate() {
                    for (out, side) in [(&mut text, 0), (&mut twin, 1)] {
                        write!(out, "{gap}\"s{n}\"{colon}\"").expect("a String takes any text");
                        for &p in pieces {
                            out.push_str(if side == 0 { PIECES[p].0 } else { PIECES[p].1 });
                        }
                        out.push('"');
                    }
                }
                text.push('}');
                twin.push('}');
                (text, twin)
            },
        )
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// Every escape JSON has, at every distance from a block edge, measures as
        /// serde's compact writer (JSON.stringify's escaping) writes it.
        #[test]
        fn escapes_measure_as_they_are_rewritten((text, twin) in escaped_texts()) {
            let value: serde_json::Value = serde_json::from_str(&twin).expect("valid JSON");
            proptest::prop_assert_eq!(compact_length(&text), js_stringify_len(&value), "{}", text);
        }
    }

    /// Every message of every shipped transcript, as stored and as its request carries
    /// it, measures as serde's compact writer writes it (where serde can hold it: a lone
    /// surrogate it cannot).
    #[test]
    fn every_shipped_message_measures_as_it_is_rewritten() {
        let (mut measured, mut skipped) = (0, 0);
        for transcript in crate::test_data::shipped_transcripts() {
            for index in 0..transcript.messages.len() {
                for json in [transcript.raw(index).to_owned(), transcript.request(index).into_owned()] {
                    let Ok(value) = serde_json::from_str::<serde_json::Value>(&json) else {
                        skipped += 1;
                        continue;
                    };
                    assert_eq!(compact_length(&json), js_stringify_len(&value), "{json}");
                    measured += 1;
                }
            }
        }
        assert!(
            measured > 5000 && skipped < measured / 100,
            "{measured} measured, {skipped} skipped"
        );
    }

    /// The second half of a pair is measured with the first, not again on its own.
    #[test]
    fn a_surrogate_pair_is_one_character() {
        let pair = r#""\ud83d\ude00""#;
        let value: serde_json::Value = serde_json::from_str(pair).expect("valid");
        assert_eq!(compact_length(pair), js_stringify_len(&value));
    }

    #[test]
    fn lone_surrogates_count_as_their_escape() {
        assert_eq!(compact_length(r#""\ud800""#).utf16, 8);
    }
}
