//! A fast structural scan of a JSON array: the byte range of each element, found by
//! skipping strings with SIMD searches and tracking brackets, several times faster than
//! building a list of `RawValue`s. Each element is then parsed (and so validated, with
//! its exact error position) on its own, in parallel. Anything the scan does not
//! recognise as a well-formed array makes it give up, and the caller parses the whole
//! text with `serde_json` for the precise error.

use std::ops::Range;

/// The deepest nesting the scan follows: an element deeper than the message parser's
/// own limit is left to the full path, which reports it; under it, the depth is checked.
const MAX_DEPTH: usize = 128;

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The ranges of the elements of the array opening at `text[at]` (`[`), when the whole
/// rest of `text` is that array and trailing whitespace; `None` otherwise.
pub(crate) fn array_elements(text: &str, at: usize) -> Option<Vec<Range<usize>>> {
    let bytes = text.as_bytes();
    if bytes.get(at) != Some(&b'[') {
        return None;
    }
    let mut elements = Vec::new();
    let mut i = skip_space(bytes, at + 1);
    if bytes.get(i) == Some(&b']') {
        return only_space(bytes, i + 1).then_some(elements);
    }
    loop {
        let start = i;
        let end = value_end(bytes, i)?;
        elements.push(start..end);
        i = skip_space(bytes, end);
        match bytes.get(i) {
            Some(b',') => i = skip_space(bytes, i + 1),
            Some(b']') => return only_space(bytes, i + 1).then_some(elements),
            _ => return None,
        }
    }
}

fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && is_space(bytes[i]) {
        i += 1;
    }
    i
}

fn only_space(bytes: &[u8], i: usize) -> bool {
    bytes[i..].iter().all(|&b| is_space(b))
}

/// The end (exclusive) of the string whose opening quote is at `i`.
fn string_end(bytes: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    loop {
        // `get`: an escape as the very last byte leaves `i` past the end.
        let at = i + memchr::memchr2(b'"', b'\\', bytes.get(i..)?)?;
        if bytes[at] == b'"' {
            return Some(at + 1);
        }
        i = at + 2; // an escape: skip the escaped byte
    }
}

/// The end (exclusive) of the JSON value starting at `i`: an object or array (brackets
/// balanced and matched), a string, or a scalar (up to the next delimiter).
fn value_end(bytes: &[u8], mut i: usize) -> Option<usize> {
    match *bytes.get(i)? {
        b'"' => string_end(bytes, i),
        b'{' | b'[' => {
            let mut open: Vec<u8> = vec![bytes[i]];
            i += 1;
            while let Some(&b) = bytes.get(i) {
                match b {
                    b'"' => {
                        i = string_end(bytes, i)?;
                        continue;
                    }
                    b'{' | b'[' => {
                        if open.len() >= MAX_DEPTH - 1 {
                            return None;
                        }
                        open.push(b);
                    }
                    b'}' | b']' => {
                        let opener = open.pop()?;
                        if (opener == b'{') != (b == b'}') {
                            return None;
                        }
                        if open.is_empty() {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        b',' | b']' | b'}' | b':' => None,
        _ => {
            let start = i;
            while i < bytes.len()
                && !matches!(bytes[i], b',' | b']' | b'}' | b'"' | b'[' | b'{' | b':')
                && !is_space(bytes[i])
            {
                i += 1;
            }
            (i > start).then_some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::array_elements;
    use serde_json::value::RawValue;

    /// Where the scan succeeds, it finds exactly what `serde_json` finds.
    fn same_as_serde(text: &str) {
        let fast = array_elements(text, text.find('[').unwrap_or(0));
        let slow: Result<Vec<&RawValue>, _> = serde_json::from_str(text);
        if let (Some(fast), Ok(slow)) = (&fast, &slow) {
            let slow: Vec<&str> = slow.iter().map(|r| r.get()).collect();
            let fast: Vec<&str> = fast.iter().map(|r| &text[r.clone()]).collect();
            assert_eq!(fast, slow, "{text}");
        }
        if slow.is_err() {
            // Malformed at the top level: the scan must not claim a clean split, unless
            // the fault is inside an element (which the element's own parse reports).
            if let Some(fast) = fast {
                assert!(
                    fast.iter()
                        .any(|r| serde_json::from_str::<&RawValue>(&text[r.clone()]).is_err()),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn the_scan_agrees_with_serde() {
        for text in [
            "[]",
            "  [ ]  ",
            r#"[{"a":"b"}]"#,
            r#"[ {"a":"x\"]}"} , {"b":[1,{"c":"]"}]} ]"#,
            r#"[1, "s", true, null, -2.5e3, {"k": "\\\\"}]"#,
            r#"[{"a":1},]"#,
            r#"[{"a":1} {"b":2}]"#,
            r#"[{"a":1}] x"#,
            r#"[{"a":[1,2}]"#,
            r#"[{"a":"unterminated}]"#,
            r#"[{"a":tru}]"#,
            "[",
            "",
            // Cut off just after a backslash (found by the `load` fuzz target).
            "[{\"a\":\"x\\",
            "[\"\\",
        ] {
            same_as_serde(text);
        }
    }
}
