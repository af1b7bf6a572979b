"""The Python package agrees with the command line: the plan (the `--plan` document),
the compacted output, the counts and `check`, on every sample transcript and every
conformance case. Set CTXLENS_BIN to the built binary (.ci/run does)."""

import json
import os
import pathlib
import subprocess

import pytest

import ctxlens

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("CTXLENS_BIN", str(ROOT / "target" / "debug" / "ctxlens"))
SAMPLES = sorted((ROOT / "sample-transcripts").iterdir())
CASES = sorted((ROOT / "tests" / "data" / "conformance" / "cases").glob("*.json"))


def cli(*args):
    out = subprocess.run([BIN, *map(str, args)], capture_output=True, check=True)
    return out.stdout


def cli_doc(*args):
    """A command's --json document without its `file` key (the input's name, which
    differs where Python loads the same messages from a list)."""
    doc = json.loads(cli(*args))
    assert doc["schema"].startswith("ctxlens.")
    doc.pop("file")
    return doc


def without_file(doc):
    doc = dict(doc)
    assert doc.pop("file")
    return doc


def budgets(path):
    total = json.loads(cli("stats", path, "--json"))["total"]
    return [max(total // 3, 1), max(total // 2, 1), total + 1]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_plan_compact_and_counts_agree_with_the_cli(path):
    t = ctxlens.load(path)
    stats = json.loads(cli("stats", path, "--json"))
    assert len(t) == len(stats["messages"])
    for tokenizer in ["estimate", "estimate-codepoints", "estimate-utf8", "cl100k"]:
        stats = json.loads(cli("stats", path, "--json", "--tokenizer", tokenizer))
        assert t.counts(tokenizer) == [m["tokens"] for m in stats["messages"]]
        assert t.total(tokenizer) == stats["total"]
    for max_tokens in budgets(path):
        for keep in [None, 0, max_tokens // 4]:
            extra = [] if keep is None else ["--keep-tail", keep]
            plan = t.plan(max_tokens, keep_tail=keep)
            assert plan == json.loads(cli("compact", path, "--max-tokens", max_tokens, "--plan", *extra))
            assert t.compact(max_tokens, keep_tail=keep).encode() == cli(
                "compact", path, "--max-tokens", max_tokens, *extra
            )


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_every_conformance_case_plans_and_compacts_as_the_cli(case, tmp_path):
    spec = json.loads(case.read_text(encoding="utf-8"))
    options = spec.get("options", {})
    max_tokens = options.get("max_tokens") or options.get("maxTokens")
    keep = options.get("keep_tail", options.get("keepTail"))
    flush = bool(options.get("flush_to_memory", options.get("flushToMemory", False)))
    tokenizer = options.get("tokenizer", "estimate")
    t = ctxlens.load(spec["input"])  # from Python lists and dicts
    file = tmp_path / "input.json"
    file.write_text(json.dumps(spec["input"]), encoding="utf-8")
    args = ["--max-tokens", max_tokens, "--tokenizer", tokenizer]
    if keep is not None:
        args += ["--keep-tail", keep]
    if flush:
        args += ["--flush-to-memory"]
    plan = t.plan(max_tokens, keep_tail=keep, flush_to_memory=flush, tokenizer=tokenizer)
    assert without_file(plan) == cli_doc("compact", file, "--plan", *args)
    # From a list, the output is the compact JSON of the list; it must hold the same
    # messages as the CLI's output of the same list.
    ours = json.loads(t.compact(max_tokens, keep_tail=keep, flush_to_memory=flush, tokenizer=tokenizer))
    theirs = json.loads(cli("compact", file, *args))
    assert ours == theirs


SHIPPED = sorted((ROOT / "sample-transcripts").glob("*.json*")) + sorted(
    p for p in (ROOT / "tests" / "data" / "real-transcripts").glob("*/*") if p.suffix in (".json", ".jsonl")
)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_python_and_the_command_line_give_the_same_document(path):
    """plan, replay, stats (and by kind or tool), check and the budget sweep: the same document, key for key in the same order (each
    dict written back with json.dumps equals the command line's output written back the
    same way), on every shipped transcript."""
    t = ctxlens.load(str(path))
    budget = max(t.total() // 3, 1)
    same = lambda ours, theirs: json.dumps(ours, ensure_ascii=False) == json.dumps(json.loads(theirs), ensure_ascii=False)
    assert same(t.plan(budget), cli("compact", path, "--max-tokens", budget, "--plan"))
    assert same(t.plan(budget, strategy="deterministic,tail"), cli("compact", path, "--max-tokens", budget, "--strategy", "deterministic,tail", "--plan"))
    assert same(t.replay(budget), cli("replay", path, "--max-tokens", budget, "--summarizer", "placeholder", "--json"))
    assert same(t.stats(), cli("stats", path, "--json"))
    assert same(t.stats("cl100k"), cli("stats", path, "--tokenizer", "cl100k", "--json"))
    assert same(t.breakdown(), cli("stats", path, "--by", "kind", "--json"))
    assert same(t.breakdown("tool", max_tokens=budget), cli("stats", path, "--by", "tool", "--max-tokens", budget, "--json"))
    report = json.loads(subprocess.run([BIN, "check", str(path), "--json"], capture_output=True).stdout)
    assert json.dumps(t.check()) == json.dumps(report["problems"])
    budgets = f"{budget}..{budget * 2}:{max(budget // 2, 1)}"
    assert same(t.sweep(max_tokens=budgets), cli("sweep", path, "--max-tokens", budgets, "--summarizer", "placeholder", "--json"))
    assert same(t.sweep(max_tokens=budgets, keep_ratio=[0.25], keep=0, fact_floor=80),
                cli("sweep", path, "--max-tokens", budgets, "--keep-ratio", "0.25", "--keep", 0, "--fact-floor", 80,
                    "--summarizer", "placeholder", "--json"))


LOGS = sorted(
    p
    for p in (ROOT / "tests" / "data" / "real-transcripts").glob("*/*")
    if p.suffix == ".jsonl" and ("claude-code" in p.parent.name or "codex" in p.parent.name)
)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_compare_replay_policy_sweep_history_status_and_backtest_are_the_command_lines_documents(path):
    """compare (every policy, and two with a setting), replay and sweep with a policy, history, status and backtest: the
    core's documents, the same bytes through Python as through the command line, on every
    shipped log; a replay asked for both compactors, or a setting the policy lacks, refused."""
    t = ctxlens.load(str(path))
    same = lambda ours, theirs: json.dumps(ours, ensure_ascii=False) == json.dumps(json.loads(theirs), ensure_ascii=False)
    assert same(t.compare(), cli("compare", path, "--summarizer", "placeholder", "--json"))
    chosen = t.compare(policies=["codex", "langchain-trim"], context_window=100000, set=["langchain-trim.max_tokens=20000"])
    assert [p["policy"] for p in chosen["policies"]] == ["codex", "langchain-trim"]
    assert same(chosen, cli("compare", path, "--policies", "codex,langchain-trim", "--context-window", 100000,
                            "--set", "langchain-trim.max_tokens=20000", "--summarizer", "placeholder", "--json"))
    for name, settings in [("claude-code", []), ("codex", ["auto_compact_token_limit=30000"])]:
        theirs = cli("replay", path, "--policy", name, *[a for s in settings for a in ("--set", s)],
                     "--summarizer", "placeholder", "--json")
        assert same(t.replay(policy=name, set=settings), theirs)
    with pytest.raises(ValueError, match="not both"):
        t.replay(1000, policy="codex")
    with pytest.raises(ValueError, match="no such setting"):
        t.replay(policy="codex", set=["nonsense=1"])
    with pytest.raises(ValueError, match="max_tokens"):
        t.sweep()
    with pytest.raises(ValueError, match="max_tokens"):
        t.sweep("codex", "auto_compact_token_limit=1000", max_tokens="1000..2000")
    with pytest.raises(ValueError, match="not a token count"):
        t.sweep(max_tokens="a..b")
    swept = t.sweep("codex", "auto_compact_token_limit=20000,60000,120000", minimise="cost")
    assert [r["value"] for r in swept["rows"]] == ["20000", "60000", "120000"]
    assert same(swept, cli("sweep", path, "--policy", "codex", "--vary", "auto_compact_token_limit=20000,60000,120000",
                           "--minimise", "cost", "--summarizer", "placeholder", "--json"))
    assert same(t.history(), cli("history", path, "--json"))
    assert same(t.status(), cli("status", path, "--json"))
    assert same(t.status(context_window=1000000), cli("status", path, "--context-window", 1000000, "--json"))
    ours = t.backtest()
    theirs = cli("backtest", path, "--json").strip()
    assert (ours is None) == (theirs == b""), theirs
    if ours is not None:
        assert same(ours, theirs)


@pytest.mark.parametrize(
    "path",
    [ROOT / "tests" / "data" / "real-transcripts" / "claude-code-jsonl", *sorted((ROOT / "tests" / "data" / "ledger").glob("*.jsonl"))],
    ids=lambda p: p.name,
)
def test_the_ledger_is_the_command_lines_document(path):
    ours = ctxlens.ledger(path)
    theirs = cli("ledger", path, "--json")
    assert json.dumps(ours, ensure_ascii=False) == json.dumps(json.loads(theirs), ensure_ascii=False)
    assert ours["schema"] == "ctxlens.ledger/1" and ours["sessions"] >= 1


def test_the_ledger_passes_over_what_is_not_a_log_and_refuses_what_is_not_there(tmp_path):
    import shutil
    import warnings

    shutil.copy(ROOT / "tests" / "data" / "real-transcripts" / "claude-code-jsonl" / "worktrees-ef958aa1.jsonl", tmp_path)
    (tmp_path / "broken.jsonl").write_text("{", encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = ctxlens.ledger(str(tmp_path))
    assert found["sessions"] == 1
    assert any("broken.jsonl: skipped" in str(w.message) for w in caught), [str(w.message) for w in caught]
    with pytest.raises(FileNotFoundError):
        ctxlens.ledger(tmp_path / "nothing-here")
    (tmp_path / "review").write_text("nonsense line\n", encoding="utf-8")
    with pytest.raises(ValueError, match="review:1"):
        ctxlens.ledger(tmp_path, review=tmp_path / "review")


def test_replay_and_check_are_dicts():
    fixture = ROOT / "tests" / "data" / "conformance" / "toolnexus-fixture-transcript.json"
    t = ctxlens.load(str(fixture))
    ours = t.replay(2000, keep_tail=800)
    theirs = json.loads(cli("replay", fixture, "--max-tokens", 2000, "--keep-tail", 800, "--summarizer", "placeholder", "--json"))
    for key in ["model_calls", "final_tokens", "final_messages", "loops"]:
        assert ours[key] == theirs[key]
    assert [f["at"] for f in ours["firings"]] == [f["at"] for f in theirs["firings"]]
    assert t.check() == []
    broken = ctxlens.load([{"role": "user", "content": "x"}, {"role": "tool", "tool_call_id": "nope", "content": "y"}])
    problems = broken.check("openai")
    assert problems and problems[0]["index"] == 1


def test_bad_input_is_a_value_error_naming_the_position():
    with pytest.raises(ValueError, match="1:"):
        ctxlens.load([{"role": "user", "content": "x"}], format="gemini")
    assert "cl100k" in ctxlens.tokenizers()


def test_the_module_says_what_it_is():
    assert ctxlens.__doc__ and "compactor" in ctxlens.__doc__
    assert ctxlens.__version__ == "0.1.0"
    t = ctxlens.load(str(ROOT / "sample-transcripts" / "support-agent.json"))
    assert repr(t).startswith("<ctxlens.Transcript openai, ")
    assert "support-agent.json" in repr(t) and t.source.endswith("support-agent.json")


def test_errors_are_the_ones_python_users_expect():
    with pytest.raises(FileNotFoundError):
        ctxlens.load(str(ROOT / "no-such-file.json"))
    with pytest.raises(TypeError):
        ctxlens.load(42)
    t = ctxlens.load([{"role": "user", "content": "x"}])
    with pytest.raises(ValueError, match="max_tokens"):
        t.plan(-1)
    with pytest.raises(ValueError, match="keep_tail"):
        t.compact(10, keep_tail=-5)


def test_a_path_that_is_not_a_readable_file_raises_the_oserror_open_raises(tmp_path):
    # The OSError subclasses Python's own open() raises, with errno and the path.
    with pytest.raises(IsADirectoryError) as raised:
        ctxlens.load(str(tmp_path))
    assert raised.value.errno == 21 and raised.value.filename == str(tmp_path)
    with pytest.raises(FileNotFoundError) as raised:
        ctxlens.load(tmp_path / "missing.json")
    assert raised.value.errno == 2
    if os.geteuid() != 0:  # root reads any file
        locked = tmp_path / "locked.json"
        locked.write_text("[]")
        locked.chmod(0)
        with pytest.raises(PermissionError):
            ctxlens.load(locked)
    # Every one is an OSError, as callers that catch file errors expect.
    with pytest.raises(OSError):
        ctxlens.load(str(tmp_path))


def test_an_empty_summary_is_refused_as_the_command_line_refuses_one():
    t = ctxlens.load(str(ROOT / "sample-transcripts" / "support-agent.json"))
    total = t.total()
    with pytest.raises(ValueError, match="summary is empty"):
        t.compact(total // 3, summary="  ")
    assert "[Summary of earlier conversation]" in t.compact(total // 3)


def python_blocks(page):
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    return [block.split("```", 1)[0] for block in text.split("```python\n")[1:]]


def test_the_first_example_of_the_python_page_runs_as_written(monkeypatch):
    # The page's other example needs a Spark cluster.
    monkeypatch.chdir(ROOT)
    block = python_blocks("python.md")[0]
    namespace = {}
    exec(compile(block, "docs/python.md", "exec"), namespace)
    assert len(namespace["t"]) == 2


def test_the_stubs_type_check_a_caller(tmp_path):
    if os.environ.get("CTXLENS_REQUIRE_CLIENTS") == "1":
        import mypy.api as mypy  # CI installs it: the check must run there
    else:
        mypy = pytest.importorskip("mypy.api")
    script = tmp_path / "caller.py"
    script.write_text(
        "import ctxlens\n"
        "t = ctxlens.load('x.json')\n"
        "n: int = t.total('cl100k')\n"
        "plan: dict = t.plan(1000, keep_tail=200)\n"
        "bad: str = t.total()\n",
        encoding="utf-8",
    )
    out, _, status = mypy.run([str(script), "--no-incremental"])
    assert status == 1, out
    assert "caller.py:5" in out and "Incompatible types" in out, out
    assert out.count("error:") == 1, out


def test_an_opencode_database_python_writes_reads_as_its_storage_tree(tmp_path):
    """opencode keeps its sessions in SQLite from v1.2.0 (tests/data/other-agents/opencode/
    FORMAT.md): the database Python's own sqlite3 writes from the storage tree, a session
    as `opencode.db#ses_...`, plans as the tree's session file does."""
    import sqlite3

    storage = ROOT / "tests" / "data" / "other-agents" / "opencode" / "storage"
    db = tmp_path / "opencode.db"
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    con.executescript(
        "CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT, parent_id TEXT, slug TEXT, directory TEXT,"
        " title TEXT, version TEXT, time_created INTEGER, time_updated INTEGER);"
        "CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT);"
        "CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, session_id TEXT, time_created INTEGER,"
        " time_updated INTEGER, data TEXT);"
    )
    sessions = sorted(storage.glob("session/*/ses_*.json"))
    for file in sessions:
        s = json.loads(file.read_text())
        con.execute(
            "INSERT INTO session VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?)",
            (s["id"], s["projectID"], s["slug"], s["directory"], s["title"], s["version"], s["time"]["created"], s["time"]["updated"]),
        )
        for message_file in sorted((storage / "message" / s["id"]).glob("*.json")):
            m = json.loads(message_file.read_text())
            mid = m.pop("id")
            m.pop("sessionID")
            created = m["time"]["created"]
            con.execute("INSERT INTO message VALUES (?, ?, ?, ?, ?)", (mid, s["id"], created, created, json.dumps(m)))
            for part_file in sorted((storage / "part" / mid).glob("*.json")):
                p = json.loads(part_file.read_text())
                pid = p.pop("id")
                p.pop("messageID")
                p.pop("sessionID")
                con.execute("INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)", (pid, mid, s["id"], created, created, json.dumps(p)))
    con.commit()
    con.close()
    for file in sessions:
        tree = ctxlens.load(file)
        database = ctxlens.load(f"{db}#{file.stem}")
        assert database.total() == tree.total() > 0
        budget = max(tree.total() // 3, 1)
        assert without_file(database.plan(budget)) == without_file(tree.plan(budget))
