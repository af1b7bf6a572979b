//! The documents ctxlens answers with (`--json` on the command line, the dicts of the
//! Python package): each is one type implementing [`Document`], which names it, and is
//! written by [`write()`] — so the command line and Python print the same bytes for the
//! same answer, and the published JSON Schema of a document (`docs/schemas/<name>.json`,
//! generated from the type with the `schema` feature) cannot drift from what is printed.
//!
//! Every document opens with the same two keys: `schema`, which names the document and its
//! version (`ctxlens.stats/1`; the number goes up when a field changes meaning or goes
//! away, never for a new field), and `file`, the input as the user named it. They are
//! written in front of the document as serialized, so no second copy of a large document
//! is built.

use std::io::Write;

use serde::Serialize;

/// One kind of answer.
pub trait Document: Serialize {
    /// Its name: `ctxlens.<NAME>/<VERSION>` is its `schema` key, `docs/schemas/<NAME>.json`
    /// its schema.
    const NAME: &'static str;
}

/// The version of every document's schema today.
pub const VERSION: u32 = 1;

/// The `schema` key of the document `D`.
pub fn schema_id<D: Document>() -> String {
    format!("ctxlens.{}/{VERSION}", D::NAME)
}

/// A path as a document's `file` names it: as the user typed it, `<stdin>` for `-` (the
/// name every error and every document gives standard input).
pub fn file_name(path: &std::path::Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_owned()
    } else {
        path.display().to_string()
    }
}

/// Writes `doc` (which serializes to an object) for the input `file`, pretty-printed or on
/// one line, without a newline after it.
pub fn write<D: Document>(out: &mut impl Write, file: &str, doc: &D, pretty: bool) -> std::io::Result<()> {
    let body = if pretty {
        serde_json::to_vec_pretty(doc)?
    } else {
        serde_json::to_vec(doc)?
    };
    write_body::<D>(out, file, &body, pretty)
}

/// [`write()`] for the document `D` already serialized as `body` (a JSON object; the
/// `compact --plan` document is written as a stream).
pub fn write_body<D: Document>(out: &mut impl Write, file: &str, body: &[u8], pretty: bool) -> std::io::Result<()> {
    let Some(rest) = body.strip_prefix(b"{") else {
        return Err(std::io::Error::other(format!(
            "the {} document is not a JSON object",
            D::NAME
        )));
    };
    let schema = serde_json::to_string(&schema_id::<D>())?;
    let file = serde_json::to_string(file)?;
    let empty = rest.iter().all(|b| b.is_ascii_whitespace() || *b == b'}');
    let (indent, separator) = if pretty { ("\n  ", ": ") } else { ("", ":") };
    write!(
        out,
        "{{{indent}\"schema\"{separator}{schema},{indent}\"file\"{separator}{file}"
    )?;
    if empty {
        write!(out, "{}}}", if pretty { "\n" } else { "" })?;
    } else {
        out.write_all(b",")?;
        out.write_all(rest)?;
    }
    Ok(())
}

/// [`write()`] into a string (what Python returns, parsed).
pub fn to_string<D: Document>(file: &str, doc: &D, pretty: bool) -> String {
    let mut out = Vec::new();
    write(&mut out, file, doc, pretty).expect("a document serializes to memory");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Stats {
        total: u64,
        rows: Vec<u64>,
    }
    impl Document for Stats {
        const NAME: &'static str = "stats";
    }

    #[derive(Serialize)]
    struct Empty {}
    impl Document for Empty {
        const NAME: &'static str = "check";
    }

    #[test]
    fn the_keys_open_the_document_in_both_layouts() {
        let doc = Stats {
            total: 3,
            rows: vec![1, 2],
        };
        for pretty in [false, true] {
            let read: serde_json::Value =
                serde_json::from_str(&to_string("a \"b\".json", &doc, pretty)).expect("valid JSON");
            let keys: Vec<&String> = read.as_object().expect("object").keys().collect();
            assert_eq!(keys, ["schema", "file", "total", "rows"], "pretty {pretty}");
            assert_eq!(read["schema"], "ctxlens.stats/1");
            assert_eq!(read["file"], "a \"b\".json");
        }
        for pretty in [false, true] {
            let read: serde_json::Value = serde_json::from_str(&to_string("f", &Empty {}, pretty)).expect("valid JSON");
            assert_eq!(read.as_object().expect("object").len(), 2, "pretty {pretty}");
            assert_eq!(read["file"], "f");
        }
    }

    #[test]
    fn a_body_that_is_not_an_object_is_an_error() {
        let mut out = Vec::new();
        assert!(write_body::<Empty>(&mut out, "f", b"[1]", false).is_err());
    }

    #[test]
    fn standard_input_is_named_as_every_error_names_it() {
        assert_eq!(file_name(std::path::Path::new("-")), "<stdin>");
        assert_eq!(file_name(std::path::Path::new("a/b.json")), "a/b.json");
    }
}
