//! The command line's `--json` output: each answer is a [`Document`] of the core, written
//! by [`ctxlens::document::write`] (so Python prints the same bytes), and each document's
//! JSON Schema, `docs/schemas/<name>.json`, is generated here from the same type
//! ([`schemas`]), made strict: an object lists every key it may have and no other, a
//! key with a fixed set of values lists them. A unit test holds the files equal to what
//! the types generate; the Python tests validate every command's output against them.

use std::io::Write;

use ctxlens::document::{self, Document};

pub use ctxlens::document::file_name;

/// Writes `doc` as the `--json` output for the input `file`, pretty-printed or on one line.
pub fn write<D: Document>(out: &mut impl Write, file: &str, doc: &D, pretty: bool) -> anyhow::Result<()> {
    document::write(out, file, doc, pretty)?;
    Ok(())
}

/// [`write`] for a document already serialized (`body`, a JSON object; the plan is
/// written by the core as a stream).
pub fn write_body<D: Document>(out: &mut impl Write, file: &str, body: &[u8], pretty: bool) -> anyhow::Result<()> {
    document::write_body::<D>(out, file, body, pretty)?;
    Ok(())
}

/// A document's name and how to make its JSON Schema.
type Described = (&'static str, fn() -> serde_json::Value);

/// Every document the command line prints.
pub const DOCUMENTS: &[Described] = &[
    document::<ctxlens::stats_doc::StatsDoc<'static>>(),
    document::<ctxlens::breakdown::BreakdownDoc>(),
    document::<ctxlens::compact::PlanDocument<'static>>(),
    document::<ctxlens::loss::document::ReportDoc<'static>>(),
    document::<ctxlens::policy::PolicyPlan>(),
    document::<ctxlens::check::Report>(),
    document::<ctxlens::history_doc::HistoryDoc<'static>>(),
    document::<ctxlens::replay::document::ReplayDoc<'static>>(),
    document::<ctxlens::policy::replay::ReplayDoc<'static>>(),
    document::<ctxlens::replay::sweep_doc::SweepDoc<'static>>(),
    document::<ctxlens::policy::sweep::SweepDoc<'static>>(),
    document::<ctxlens::policy::compare::CompareDoc>(),
    document::<ctxlens::meter::Meter>(),
    document::<ctxlens::scan::Row<'static>>(),
    document::<ctxlens::backtest::Backtest>(),
    document::<ctxlens::ledger_files::LedgerDoc<'static>>(),
];

const fn document<D: Document + schemars::JsonSchema>() -> Described {
    (D::NAME, schema_of::<D>)
}

/// `ctxlens schema [NAME]`: the JSON Schema of the document called `name`, or the list of
/// documents.
pub fn print_schema(name: Option<&str>) -> anyhow::Result<std::process::ExitCode> {
    let mut out = std::io::stdout().lock();
    match name {
        None => {
            for (name, _) in DOCUMENTS {
                writeln!(out, "{name}")?;
            }
        }
        Some(name) => {
            let (_, make) = DOCUMENTS
                .iter()
                .find(|(n, _)| *n == name)
                .ok_or_else(|| anyhow::anyhow!("no document is called {name:?} (`ctxlens schema` lists them)"))?;
            writeln!(out, "{}", serde_json::to_string_pretty(&make())?)?;
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// The schema of `D` as it is printed: the `schema` and `file` keys first, every object
/// closed to other keys.
fn schema_of<D: Document + schemars::JsonSchema>() -> serde_json::Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let mut schema = generator.into_root_schema_for::<D>().to_value();
    close_objects(&mut schema);
    let defs = schema.get("$defs").cloned().unwrap_or_default();
    let root = schema.as_object_mut().expect("a root schema is an object");
    let id = document::schema_id::<D>();
    // The two keys `document::write` puts in front of every document, in each shape the
    // document may take (a document of several shapes lists them in `anyOf`).
    match root.get_mut("anyOf") {
        Some(serde_json::Value::Array(shapes)) => {
            for shape in shapes {
                inline_reference(shape, &defs);
                add_leading_keys(shape, &id);
            }
        }
        _ => add_leading_keys(&mut schema, &id),
    }
    let root = schema.as_object_mut().expect("a root schema is an object");
    root.insert("$id".into(), id.clone().into());
    root.insert("title".into(), format!("ctxlens {} document", D::NAME).into());
    let ordered = ["$schema", "$id", "title", "description"]
        .into_iter()
        .filter_map(|k| root.remove(k).map(|v| (k.to_owned(), v)));
    let mut first: serde_json::Map<String, serde_json::Value> = ordered.collect();
    first.append(root);
    serde_json::Value::Object(first)
}

/// Every object schema that lists its keys is closed to other keys (`additionalProperties:
/// false`): a key printed and not documented fails validation. Descriptions (the types'
/// doc comments) are made one paragraph of plain text: no line breaks of the source, no
/// links to Rust items.
fn close_objects(schema: &mut serde_json::Value) {
    match schema {
        serde_json::Value::Object(map) => {
            if map.contains_key("properties") && !map.contains_key("additionalProperties") {
                map.insert("additionalProperties".into(), false.into());
            }
            if let Some(serde_json::Value::String(text)) = map.get_mut("description") {
                *text = plain_description(text);
            }
            map.values_mut().for_each(close_objects);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(close_objects),
        _ => {}
    }
}

/// A doc comment as a schema's description: `[`item`]` links become `item`, the source's
/// line breaks spaces.
fn plain_description(doc: &str) -> String {
    doc.replace("[`", "`")
        .replace("`]", "`")
        .replace("`None`", "`null`")
        .split('\n')
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A top-level shape given as a reference to a definition, replaced by a copy of the
/// definition (the keys added to it must not reach the same type nested elsewhere).
fn inline_reference(shape: &mut serde_json::Value, defs: &serde_json::Value) {
    let name = shape
        .get("$ref")
        .and_then(serde_json::Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"));
    if let Some(def) = name.and_then(|name| defs.get(name)) {
        *shape = def.clone();
    }
}

/// `schema` (this document's id) and `file`, first among the object's keys and required.
fn add_leading_keys(object: &mut serde_json::Value, id: &str) {
    let map = object.as_object_mut().expect("a document's schema is an object");
    let mut properties = serde_json::Map::new();
    properties.insert("schema".into(), serde_json::json!({ "const": id }));
    properties.insert(
        "file".into(),
        serde_json::json!({ "type": "string", "description": "The input as the user named it (`<stdin>` for `-`)." }),
    );
    if let Some(serde_json::Value::Object(rest)) = map.remove("properties") {
        properties.extend(rest);
    }
    map.insert("properties".into(), properties.into());
    let mut required = vec![serde_json::Value::from("schema"), "file".into()];
    if let Some(serde_json::Value::Array(rest)) = map.remove("required") {
        required.extend(rest);
    }
    map.insert("required".into(), required.into());
    map.insert("additionalProperties".into(), false.into());
    map.insert("type".into(), "object".into());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `docs/schemas/`, where the published schemas live.
    fn folder() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/schemas")
    }

    /// The published schemas are what the types generate, one file per document and no
    /// other. `CTXLENS_WRITE_SCHEMAS=1 cargo test --bin ctxlens schemas` rewrites them after a
    /// document's type changes (then read the diff: it is the contract users validate
    /// against).
    #[test]
    fn the_published_schemas_are_the_ones_the_document_types_generate() {
        let generated: Vec<(&str, serde_json::Value)> = DOCUMENTS.iter().map(|(n, make)| (*n, make())).collect();
        let rewrite = std::env::var_os("CTXLENS_WRITE_SCHEMAS").is_some();
        for (name, schema) in &generated {
            let path = folder().join(format!("{name}.json"));
            let text = serde_json::to_string_pretty(schema).expect("a schema serializes") + "\n";
            if rewrite {
                std::fs::write(&path, &text).expect("the schema is written");
            }
            let published = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                published == text,
                "{} is not what the {name} document's type generates: run \
                 CTXLENS_WRITE_SCHEMAS=1 cargo test --bin ctxlens schemas and review the diff",
                path.display()
            );
        }
        let mut names: Vec<&str> = generated.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), generated.len(), "two documents share a name");
        let mut files: Vec<String> = std::fs::read_dir(folder())
            .expect("docs/schemas is read")
            .filter_map(|e| {
                e.ok()?
                    .file_name()
                    .into_string()
                    .ok()?
                    .strip_suffix(".json")
                    .map(str::to_owned)
            })
            .collect();
        files.sort_unstable();
        assert_eq!(
            files, names,
            "a schema file with no document, or a document with no file"
        );
    }

    #[test]
    fn every_object_is_closed_and_opens_with_schema_and_file() {
        for (name, make) in DOCUMENTS {
            let schema = make();
            let shapes: Vec<&serde_json::Value> = match schema.get("anyOf") {
                Some(serde_json::Value::Array(shapes)) => shapes.iter().collect(),
                _ => vec![&schema],
            };
            for shape in shapes {
                let keys: Vec<&String> = shape["properties"].as_object().expect("properties").keys().collect();
                assert_eq!(keys[..2], ["schema", "file"], "{name}");
                assert_eq!(shape["properties"]["schema"]["const"], format!("ctxlens.{name}/1"));
                assert_eq!(shape["additionalProperties"], false, "{name}");
            }
            let text = schema.to_string();
            assert!(
                !text.contains("\"additionalProperties\":true"),
                "{name} leaves an object open"
            );
        }
    }
}
