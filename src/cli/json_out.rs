//! Every `--json` document ctxlens prints opens with the same two keys: `schema`, which
//! names the document and its version (`ctxlens.stats/1`; the number goes up when a
//! field changes meaning or goes away, never for a new field), and `file`, the input as
//! the user named it. Each document's JSON Schema is `docs/schemas/<name>.json`.
//!
//! The keys are written in front of the document as serialized (no second copy of a
//! large document is built).

use std::io::Write;

use serde::Serialize;

/// A path as a document's `file` names it: as the user typed it, `<stdin>` for `-` (the
/// name every error and every document gives standard input).
pub fn file_name(path: &std::path::Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_owned()
    } else {
        path.display().to_string()
    }
}

/// The version of every document's schema today.
const VERSION: u32 = 1;

/// Writes `doc` (which must serialize to an object) as the `--json` output of `command`
/// for the input `file`, pretty-printed or on one line.
pub fn write(
    out: &mut impl Write,
    command: &str,
    file: &str,
    doc: &impl Serialize,
    pretty: bool,
) -> anyhow::Result<()> {
    let body = if pretty {
        serde_json::to_vec_pretty(doc)?
    } else {
        serde_json::to_vec(doc)?
    };
    write_serialized(out, command, file, &body, pretty)
}

/// [`write`] for a document already serialized (`body`, a JSON object; the plan is
/// written by the core as a stream).
pub fn write_serialized(
    out: &mut impl Write,
    command: &str,
    file: &str,
    body: &[u8],
    pretty: bool,
) -> anyhow::Result<()> {
    let Some(rest) = body.strip_prefix(b"{") else {
        anyhow::bail!("the {command} document is not a JSON object");
    };
    let schema = serde_json::to_string(&format!("ctxlens.{command}/{VERSION}"))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keys_open_the_document_in_both_layouts() {
        let doc = serde_json::json!({"total": 3, "rows": [1, 2]});
        for pretty in [false, true] {
            let mut out = Vec::new();
            write(&mut out, "stats", "a \"b\".json", &doc, pretty).expect("written");
            let read: serde_json::Value = serde_json::from_slice(&out).expect("valid JSON");
            let keys: Vec<&String> = read.as_object().expect("object").keys().collect();
            assert_eq!(keys, ["schema", "file", "total", "rows"], "pretty {pretty}");
            assert_eq!(read["schema"], "ctxlens.stats/1");
            assert_eq!(read["file"], "a \"b\".json");
        }
        let mut out = Vec::new();
        write(&mut out, "check", "f", &serde_json::json!({}), true).expect("written");
        assert_eq!(
            serde_json::from_slice::<serde_json::Value>(&out).expect("valid")["file"],
            "f"
        );
    }
}
