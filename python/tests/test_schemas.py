"""Every --json document ctxlens prints, on every shipped transcript, against its JSON
Schema in docs/schemas/ (validated with the `jsonschema` package)."""

import json
import os
import pathlib

import jsonschema
import pytest

import json_outputs

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("CTXLENS_BIN", str(ROOT / "target" / "debug" / "ctxlens"))
TRANSCRIPTS = sorted((ROOT / "sample-transcripts").glob("*.json*")) + sorted(
    p for p in (ROOT / "tests" / "data" / "real-transcripts").glob("*/*") if p.suffix in (".json", ".jsonl")
)


def schema(name):
    return json.loads((ROOT / "docs" / "schemas" / f"{name}.json").read_text(encoding="utf-8"))


def test_every_document_has_a_schema():
    names = {name for name, _, _ in json_outputs.commands(BIN, TRANSCRIPTS[0])}
    files = {p.stem for p in (ROOT / "docs" / "schemas").glob("*.json")}
    assert names == files


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.name)
def test_every_json_output_matches_its_schema(path):
    """Every command and every policy (planned and replayed) on every shipped transcript,
    two processes at a time; the count of documents per schema is printed (`pytest -s`)."""
    from collections import Counter
    from concurrent.futures import ThreadPoolExecutor

    listed = json_outputs.commands(BIN, path, every_policy=json_outputs.policies(BIN))
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        docs = list(pool.map(lambda c: json_outputs.run(BIN, c[1], c[2]), listed))
    checked = Counter()
    for (name, argv, _), doc in zip(listed, docs):
        if doc is None:
            continue
        try:
            jsonschema.validate(doc, schema(name))
        except jsonschema.ValidationError as e:
            raise AssertionError(f"ctxlens {' '.join(argv)}: {e.message} at {list(e.absolute_path)}") from None
        assert doc["schema"] == f"ctxlens.{name}/1"
        assert doc["file"] == str(path)
        checked[name] += 1
    print(f"{path.name}: {sum(checked.values())} documents validated: {dict(sorted(checked.items()))}")
    # Every policy planned and replayed, besides the fixed commands' own.
    assert checked["compact-policy-plan"] >= len(json_outputs.policies(BIN)) + 1, checked
    assert checked["replay-policy"] >= len(json_outputs.policies(BIN)) + 1, checked
    assert sum(checked.values()) >= 30, checked


def test_a_document_that_breaks_its_schema_is_refused():
    doc = json_outputs.run(BIN, ["stats", str(TRANSCRIPTS[0]), "--json"])
    del doc["total"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema("stats"))


def test_scan_rows_of_both_kinds_match_the_scan_schema(tmp_path):
    """A scan streams one document per line: sessions, and files that did not load."""
    import shutil
    import subprocess

    shutil.copy(TRANSCRIPTS[0], tmp_path / TRANSCRIPTS[0].name)
    (tmp_path / "broken.json").write_text("[{", encoding="utf-8")
    out = subprocess.run([BIN, "scan", str(tmp_path), "--json"], capture_output=True, check=True, text=True)
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert {"error" in row for row in rows} == {True, False}
    for row in rows:
        jsonschema.validate(row, schema("scan"))


def test_the_emitted_hook_is_one_claude_codes_settings_schema_accepts():
    """`ledger --emit-hook claude-code` against Claude Code's settings schema as
    SchemaStore publishes it (tests/data/schemas/, see its ORIGIN.md)."""
    import subprocess

    settings_schema = json.loads((ROOT / "tests" / "data" / "schemas" / "claude-code-settings.json").read_text(encoding="utf-8"))
    out = subprocess.run([BIN, "ledger", "--emit-hook", "claude-code"], capture_output=True, check=True, text=True)
    settings = json.loads(out.stdout)
    jsonschema.validate(settings, settings_schema)
    hook = settings["hooks"]["SessionStart"][0]
    assert hook["matcher"] == "compact"
    broken = {"hooks": {"SessionStart": [{"matcher": "compact", "hooks": [{"type": "command"}]}]}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, settings_schema)


def conforms(value, hint):
    """`value` (parsed JSON) is of the SDK's type `hint`: TypedDicts closed to other keys,
    with their required keys; literals, unions, lists and scalars as annotated."""
    import collections.abc
    import typing

    import typing_extensions

    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing_extensions.Required, typing_extensions.NotRequired, typing.Annotated):
        return conforms(value, args[0])
    if origin is typing.Literal or origin is typing_extensions.Literal:
        return value in args
    if origin is typing.Union:
        return any(conforms(value, a) for a in args)
    if hint is type(None):
        return value is None
    if typing_extensions.is_typeddict(hint):
        hints = typing.get_type_hints(hint, include_extras=True)
        return (
            isinstance(value, dict)
            and set(value) <= set(hints)
            and hint.__required_keys__ <= set(value)
            and all(conforms(v, hints[k]) for k, v in value.items())
        )
    if hint is bool:
        return isinstance(value, bool)
    if hint in (int, float, str):
        return isinstance(value, hint) and not isinstance(value, bool)
    sequence = origin in (list, collections.abc.Iterable, collections.abc.Sequence) or "Sequence" in getattr(origin, "__name__", "")
    if sequence:
        return isinstance(value, list) and all(conforms(v, args[0]) for v in value)
    raise AssertionError(f"no rule for {hint!r}")


def test_the_emitted_context_management_is_what_anthropics_sdk_types_take():
    """`--emit-config anthropic` against the Messages API's own request types, as the
    official Python SDK declares them (anthropic.types.beta)."""
    import subprocess

    from anthropic.types.beta import BetaContextManagementConfigParam
    from anthropic.types.beta.message_create_params import MessageCreateParamsBase

    sample = str(ROOT / "sample-transcripts" / "support-agent.json")
    settings = ["trigger=60000", "keep=4", "clear_at_least=5000", "exclude_tools=web_search,memory", "clear_tool_inputs=true"]
    for given in ([], settings):
        argv = [BIN, "compact", sample, "--policy", "anthropic-context-management", "--emit-config", "anthropic"]
        for pair in given:
            argv += ["--set", pair]
        body = json.loads(subprocess.run(argv, capture_output=True, check=True, text=True).stdout)
        assert set(body) <= set(typing_keys(MessageCreateParamsBase)), body
        assert conforms(body["context_management"], BetaContextManagementConfigParam), body
    broken = {"edits": [{"type": "clear_tool_uses_20250919", "trigger": {"type": "input_token", "value": 1}}]}
    assert not conforms(broken, BetaContextManagementConfigParam)
    stray = {"edits": [{"type": "clear_tool_uses_20250919", "overhead": 3}]}
    assert not conforms(stray, BetaContextManagementConfigParam)


def typing_keys(typed_dict):
    import typing

    return typing.get_type_hints(typed_dict).keys()
