"""Drafts docs/schemas/<name>.json from ctxlens' own outputs on every shipped transcript:
each document's top-level keys, their JSON types, and which are always there. Run once
when a document is added (`python3 docs/schemas/make_schemas.py target/debug/ctxlens scan`),
then read and edit the draft: the schema is the contract, python/tests/test_schemas.py
holds every output to it."""

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python" / "tests"))
import json_outputs  # noqa: E402

TYPES = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer", float: "number", type(None): "null"}


def shape(values, depth):
    """The schema of every value seen at one place: its types, and (two levels deep) an
    object's keys with theirs and an array's items'."""
    kinds = sorted({TYPES[type(v)] for v in values})
    if "integer" in kinds and "number" in kinds:
        kinds.remove("integer")
    out = {"type": kinds[0] if len(kinds) == 1 else kinds}
    objects = [v for v in values if isinstance(v, dict)]
    if objects and depth > 0:
        order = list(dict.fromkeys(k for o in objects for k in o))
        always = set.intersection(*(set(o) for o in objects))
        out["required"] = [k for k in order if k in always]
        out["properties"] = {k: shape([o[k] for o in objects if k in o], depth - 1) for k in order}
    items = [i for v in values if isinstance(v, list) for i in v]
    if items and depth > 0:
        out["items"] = shape(items, depth - 1)
    return out


def transcripts():
    yield from sorted((ROOT / "sample-transcripts").glob("*.json*"))
    yield from sorted(p for p in (ROOT / "tests" / "data" / "real-transcripts").glob("*/*") if p.suffix in (".json", ".jsonl"))


def main(bin_path, only=None):
    seen = {}
    for path in transcripts():
        for name, argv in json_outputs.commands(bin_path, path):
            if only is not None and name != only:
                continue
            doc = json_outputs.run(bin_path, argv)
            if doc is None:
                continue
            seen.setdefault(name, []).append(doc)
    for name, docs in seen.items():
        schema = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"ctxlens.{name}/1",
            "title": f"ctxlens {name} --json",
            **shape(docs, 3),
        }
        schema["properties"]["schema"] = {"const": f"ctxlens.{name}/1"}
        out = ROOT / "docs" / "schemas" / f"{name}.json"
        out.write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
        print(f"{out.relative_to(ROOT)}: {len(schema['properties'])} keys, {len(docs)} outputs")


if __name__ == "__main__":
    # `make_schemas.py BIN [NAME]`: NAME drafts that document's schema only (the others,
    # edited since, are left as they are).
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
