//! Python's `repr` of JSON-shaped values, character for character: LangChain's
//! approximate counter measures `repr(message.tool_calls)`, so the length of that text
//! is part of a count. Strings pick their quote as Python does and escape what Python
//! does not print; floats use Python's shortest round-trip form (`1e+16`, `1e-05`).

use std::fmt::Write as _;

use serde_json::Value;

/// `repr(value)` as Python prints the equivalent `dict`/`list`/`str`/number.
pub fn repr(value: &Value) -> String {
    let mut out = String::new();
    write(value, &mut out);
    out
}

/// The length in characters (Python's `len`) of `repr(value)`.
pub fn repr_len(value: &Value) -> usize {
    repr(value).chars().count()
}

fn write(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Number(n) => out.push_str(&number(n)),
        Value::String(s) => string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                write(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (k, (key, item)) in map.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                string(key, out);
                out.push_str(": ");
                write(item, out);
            }
            out.push('}');
        }
    }
}

/// An integer as written; a float as Python's `repr` writes it.
fn number(n: &serde_json::Number) -> String {
    let text = n.to_string();
    if !text.contains(['.', 'e', 'E']) {
        return text.trim_start_matches('+').to_owned();
    }
    n.as_f64().map_or(text, float)
}

/// Python's `repr(float)`: the shortest digits that read back, positional when the
/// decimal exponent is from -4 to 15, else `d.ddde±XX`.
pub fn float(f: f64) -> String {
    if f.is_nan() {
        return "nan".to_owned();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf" } else { "-inf" }.to_owned();
    }
    let sci = format!("{f:e}"); // shortest digits: "1.5e-5", "-2e16"
    let (mantissa, exponent) = sci.split_once('e').expect("exponent form");
    let exponent: i32 = exponent.parse().expect("an exponent");
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if negative { "-" } else { "" };
    if (-4..16).contains(&exponent) {
        let point = exponent + 1; // digits before the point
        let body = if point <= 0 {
            format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
        } else if point as usize >= digits.len() {
            format!("{digits}{}.0", "0".repeat(point as usize - digits.len()))
        } else {
            format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
        };
        format!("{sign}{body}")
    } else {
        let rest = if digits.len() > 1 {
            format!(".{}", &digits[1..])
        } else {
            String::new()
        };
        let exp_sign = if exponent < 0 { '-' } else { '+' };
        format!("{sign}{}{rest}e{exp_sign}{:02}", &digits[..1], exponent.abs())
    }
}

/// A `str` the way Python quotes it: single quotes unless the text holds a single quote
/// and no double quote.
fn string(s: &str, out: &mut String) {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if printable(c) => out.push(c),
            c if (c as u32) <= 0xff => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) <= 0xffff => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push(quote);
}

/// Python's `str.isprintable` for one character: not a control, format, separator
/// (other than the ASCII space), surrogate, private-use or unassigned character. The
/// categories outside ASCII are approximated by the ranges that hold them in practice.
fn printable(c: char) -> bool {
    let u = c as u32;
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    !matches!(u,
        0xad | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x180e | 0x200b..=0x200f | 0x202a..=0x202e
        | 0x2060..=0x2064 | 0x2066..=0x206f | 0xfeff | 0xfff9..=0xfffb | 0xe000..=0xf8ff
        | 0xf_0000..=0x10_ffff | 0xe_0001 | 0xe_0020..=0xe_007f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reprs_match_python() {
        // Each expected text is what CPython 3.12 prints for the same value.
        let call = json!([{"name": "grep", "args": {"pattern": "it's", "n": 3, "on": true, "x": null}, "id": "c1", "type": "tool_call"}]);
        assert_eq!(
            repr(&call),
            r#"[{'name': 'grep', 'args': {'pattern': "it's", 'n': 3, 'on': True, 'x': None}, 'id': 'c1', 'type': 'tool_call'}]"#
        );
        assert_eq!(repr(&json!("a\nb\\c\u{7}")), r"'a\nb\\c\x07'");
        assert_eq!(repr(&json!("both ' and \"")), r#"'both \' and "'"#);
        assert_eq!(repr(&json!("€ ok")), "'€ ok'");
        for (f, python) in [
            (1.0, "1.0"),
            (1e16, "1e+16"),
            (1.5e-5, "1.5e-05"),
            (0.0001, "0.0001"),
            (123.25, "123.25"),
            (-2.5e20, "-2.5e+20"),
            (1e15, "1000000000000000.0"),
        ] {
            assert_eq!(float(f), python, "{f}");
        }
    }
}
