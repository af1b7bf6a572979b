#!/usr/bin/env python3
"""Writes a Claude Code projects tree for timing `ctxlens scan` against ccusage:
`N` sessions made from the real logs shipped in tests/data/real-transcripts/claude-code-jsonl,
each copy with its own ids (session, record uuids and their parents, message ids, request
ids: ccusage de-duplicates by message and request id, so copies with the same ids would
be counted once), written as compact JSON, spread over 40 project folders the way Claude
Code lays out `~/.claude/projects/<project>/<session>.jsonl`.

    python3 benches/scan_corpus.py OUT [N]       (default N = 2000; OUT/projects/…)

The same N gives the same files (ids from the copy's number)."""

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "tests" / "data" / "real-transcripts" / "claude-code-jsonl").glob("*.jsonl"))
ID_KEYS = ("uuid", "parentUuid", "logicalParentUuid", "sessionId", "requestId", "leafUuid")


def unique(value, copy):
    """`value` made unique to copy number `copy`, keeping its shape (a UUID stays one)."""
    if not isinstance(value, str) or not value:
        return value
    suffix = f"{copy:012x}"
    if len(value) == 36 and value.count("-") == 4:
        return value[:24] + suffix
    return f"{value}-{copy}"


def rewrite(line, copy):
    try:
        record = json.loads(line)
    except json.JSONDecodeError:
        return line.strip()
    if not isinstance(record, dict):
        return json.dumps(record, separators=(",", ":"), ensure_ascii=False)
    for key in ID_KEYS:
        if key in record:
            record[key] = unique(record[key], copy)
    message = record.get("message")
    if isinstance(message, dict) and "id" in message:
        message["id"] = unique(message["id"], copy)
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def main():
    out = pathlib.Path(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    texts = [p.read_text(encoding="utf-8").splitlines() for p in SOURCES]
    for copy in range(n):
        lines = texts[copy % len(texts)]
        project = out / "projects" / f"-home-dev-project-{copy % 40:02d}"
        project.mkdir(parents=True, exist_ok=True)
        session = unique("00000000-0000-4000-8000-000000000000", copy)
        (project / f"{session}.jsonl").write_text(
            "\n".join(rewrite(line, copy) for line in lines if line.strip()) + "\n", encoding="utf-8"
        )


if __name__ == "__main__":
    main()
