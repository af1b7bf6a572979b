//! A fast structural scan of a JSON array: the byte range of each element, found by
//! skipping strings with SIMD searches and tracking brackets, several times faster than
//! building a list of `RawValue`s. Each element is then parsed (and so validated, with
//! its exact error position) on its own, in parallel. Anything the scan does not
//! recognise as a well-formed array makes it give up, and the caller parses the whole
//! text with `serde_json` for the precise error.

use std::ops::{ControlFlow, Range};

/// The deepest nesting the scan follows: an element deeper than the message parser's
/// own limit is left to the full path, which reports it; under it, the depth is checked.
const MAX_DEPTH: usize = 128;

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Below this the array is scanned on one thread.
const PARALLEL_FROM: usize = 4 << 20;

/// The ranges of the elements of the array opening at `text[at]` (`[`), when the whole
/// rest of `text` is that array and trailing whitespace; `None` otherwise. A large text
/// is scanned as two halves at once (see [`halves`]); what they cannot settle is
/// scanned in one pass.
/// The second member says whether the halves found them.
pub(crate) fn array_elements(text: &str, at: usize, scan: Scan) -> Option<(Vec<Range<usize>>, bool)> {
    if scan == Scan::Halves && text.len() - at >= PARALLEL_FROM {
        if let Some(elements) = halves(text, at) {
            return Some((elements, true));
        }
    }
    serial_elements(text, at).map(|elements| (elements, false))
}

/// How a large array is scanned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scan {
    /// Two halves at once when it is large (one pass when they cannot settle it).
    Halves,
    /// One pass: what names the first fault of a malformed file.
    OnePass,
}

/// [`array_elements`] in one pass.
fn serial_elements(text: &str, at: usize) -> Option<Vec<Range<usize>>> {
    let bytes = text.as_bytes();
    if bytes.get(at) != Some(&b'[') {
        return None;
    }
    let first = skip_space(bytes, at + 1);
    if bytes.get(first) == Some(&b']') {
        return only_space(bytes, first + 1).then_some(Vec::new());
    }
    let (elements, end) = leading_elements(bytes, at, usize::MAX)?;
    let close = skip_space(bytes, end);
    (bytes.get(close) == Some(&b']') && only_space(bytes, close + 1)).then_some(elements)
}

/// The elements of a large array, its two halves scanned at once. The second half
/// starts after a line break, which in JSON is never inside a string; its depth there is
/// unknown, but the array's closing bracket is the deepest fall of the whole half, so
/// the array's own commas are those one level above it. The first half is scanned by
/// [`leading_elements`] (the one-pass scan's own loop), up to the first element that
/// reaches the second half.
/// `None` when the halves do not meet cleanly (the one-pass scan then decides). Where
/// both succeed they agree: every element of a valid array is the text between two of
/// its commas, less whitespace.
fn halves(text: &str, at: usize) -> Option<Vec<Range<usize>>> {
    let bytes = text.as_bytes();
    let middle = at + (bytes.len() - at) / 2;
    let middle = middle + memchr::memchr(b'\n', &bytes[middle..])? + 1;
    let (first, second) = rayon::join(|| leading_elements(bytes, at, middle), || second_half(bytes, middle));
    let (mut elements, first_end) = first?;
    let second = second?;
    // After the first half's last element: whitespace, then the array's commas, each
    // followed by one element, then its closing bracket.
    let bounds: Vec<usize> = second.commas.iter().copied().chain([second.close]).collect();
    if bounds[0] < first_end || !bytes[first_end..bounds[0]].iter().all(|&b| is_space(b)) {
        return None;
    }
    for pair in bounds.windows(2) {
        let start = skip_space(bytes, pair[0] + 1);
        let end = bytes[..pair[1]].iter().rposition(|&b| !is_space(b))? + 1;
        if end <= start {
            return None;
        }
        elements.push(start..end);
    }
    Some(elements)
}

/// The elements of the array opening at `at` up to the first that ends at or after
/// `middle` (or the last), and where that one ends.
fn leading_elements(bytes: &[u8], at: usize, middle: usize) -> Option<(Vec<Range<usize>>, usize)> {
    if bytes.get(at) != Some(&b'[') {
        return None;
    }
    let mut elements = Vec::new();
    let mut i = skip_space(bytes, at + 1);
    loop {
        let end = value_end(bytes, i)?;
        elements.push(i..end);
        if end >= middle {
            return Some((elements, end));
        }
        i = skip_space(bytes, end);
        match bytes.get(i) {
            Some(b',') => i = skip_space(bytes, i + 1),
            // The array ends before the second half (which holds its bracket).
            Some(b']') => return Some((elements, end)),
            _ => return None,
        }
    }
}

/// What the second half holds of the array: its commas and its closing bracket.
struct SecondHalf {
    /// The array's own commas, ascending.
    commas: Vec<usize>,
    /// The array's closing bracket (the last byte that is not whitespace).
    close: usize,
}

/// The array's commas and closing bracket in `bytes[from..]`, which starts outside any
/// string at an unknown depth.
fn second_half(bytes: &[u8], from: usize) -> Option<SecondHalf> {
    // Depth relative to `from`, its lowest so far, and where it was reached.
    let (mut depth, mut lowest, mut deepest) = (0i64, 0i64, 0i64);
    let mut close = None;
    // Commas at the lowest depth so far (the array's are among them).
    let mut commas: Vec<(usize, i64)> = Vec::new();
    // The walk never breaks: it only fails on a string that never closes.
    let _: ControlFlow<()> = walk_outside_strings(bytes, from, |i, b| {
        match b {
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b']' => {
                depth -= 1;
                if depth < lowest {
                    lowest = depth;
                    close = Some(i);
                }
            }
            b',' if depth <= lowest => commas.push((i, depth)),
            _ => {}
        }
        ControlFlow::Continue(())
    })?;
    let close = close?;
    // The closing bracket ends the text (but for whitespace), and the depth at `from`
    // (`-lowest` brackets open) leaves the deepest element under the scan's limit.
    if bytes[close] != b']' || !only_space(bytes, close + 1) || deepest - lowest >= MAX_DEPTH as i64 - 1 {
        return None;
    }
    let commas = commas
        .into_iter()
        .filter(|&(at, level)| level == lowest + 1 && at < close)
        .map(|(at, _)| at)
        .collect();
    Some(SecondHalf { commas, close })
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

/// Shows `visit` each byte of `bytes[from..]` (which starts outside any string) that lies
/// outside strings, with its position, until `visit` breaks (its value is returned) or
/// the text ends (`Continue`); `None` when a string never closes.
fn walk_outside_strings<T>(
    bytes: &[u8],
    from: usize,
    mut visit: impl FnMut(usize, u8) -> ControlFlow<T>,
) -> Option<ControlFlow<T>> {
    let mut i = from;
    while let Some(&b) = bytes.get(i) {
        if b == b'"' {
            i = string_end(bytes, i)?;
            continue;
        }
        if let ControlFlow::Break(value) = visit(i, b) {
            return Some(ControlFlow::Break(value));
        }
        i += 1;
    }
    Some(ControlFlow::Continue(()))
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
            let walked = walk_outside_strings(bytes, i + 1, |at, b| match b {
                b'{' | b'[' if open.len() >= MAX_DEPTH - 1 => ControlFlow::Break(None),
                b'{' | b'[' => {
                    open.push(b);
                    ControlFlow::Continue(())
                }
                b'}' | b']' => match open.pop() {
                    Some(opener) if (opener == b'{') == (b == b'}') => {
                        if open.is_empty() {
                            ControlFlow::Break(Some(at + 1))
                        } else {
                            ControlFlow::Continue(())
                        }
                    }
                    _ => ControlFlow::Break(None),
                },
                _ => ControlFlow::Continue(()),
            })?;
            match walked {
                ControlFlow::Break(end) => end,
                // The text ended with brackets still open.
                ControlFlow::Continue(()) => None,
            }
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
    use super::*;
    use serde_json::value::RawValue;

    /// Where the scan succeeds, it finds exactly what `serde_json` finds.
    fn same_as_serde(text: &str) {
        let fast = serial_elements(text, text.find('[').unwrap_or(0));
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

    use crate::test_json::json_value;

    /// An array of `values` laid out as `layout` says: pretty, one element per line, or
    /// elements on lines of their own after the commas.
    fn laid_out(values: &[serde_json::Value], layout: u8) -> String {
        let compact: Vec<String> = values
            .iter()
            .map(|v| serde_json::to_string(v).expect("serializes"))
            .collect();
        match layout {
            0 => serde_json::to_string_pretty(values).expect("serializes"),
            1 => format!("[\n{}\n]", compact.join(",\n")),
            _ => format!("  [{}]\n", compact.join(" ,\n  ")),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// Where both scans settle an array they agree; what the halves settle with
        /// every element valid is a valid array; a valid array with its closing bracket
        /// on a line of its own the halves always settle.
        #[test]
        fn the_halves_agree_with_one_pass(
            values in proptest::collection::vec(json_value(), 1..24),
            layout in 0u8..3,
            fault in proptest::option::of((proptest::prelude::any::<proptest::sample::Index>(),
                proptest::sample::select(b"[]{},\"\\\n :x".to_vec()))),
        ) {
            let mut bytes = laid_out(&values, layout).into_bytes();
            if let Some((at, byte)) = fault {
                let at = at.index(bytes.len());
                bytes[at] = byte;
            }
            // A faulty byte inside a character leaves no text to scan.
            let Ok(text) = String::from_utf8(bytes) else { return Ok(()) };
            // The caller hands over the array after leading whitespace.
            let at = text.len() - text.trim_start().len();
            let halves = halves(&text, at);
            let one_pass = serial_elements(&text, at);
            if let (Some(h), Some(o)) = (&halves, &one_pass) {
                proptest::prop_assert_eq!(h, o);
            }
            if let Some(h) = &halves {
                if h.iter().all(|r| serde_json::from_str::<&RawValue>(&text[r.clone()]).is_ok()) {
                    let whole: Vec<&RawValue> = serde_json::from_str(&text).expect("a valid array");
                    let whole: Vec<&str> = whole.iter().map(|r| r.get()).collect();
                    let found: Vec<&str> = h.iter().map(|r| &text[r.clone()]).collect();
                    proptest::prop_assert_eq!(found, whole);
                }
            }
            // A line break before the closing bracket: the halves always meet.
            if fault.is_none() && layout < 2 {
                proptest::prop_assert!(halves.is_some(), "{}", text);
            }
        }
    }
}
