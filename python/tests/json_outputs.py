"""Every `--json` document ctxlens prints, on a transcript: (schema name, argv) for each
command, each option that changes a document's shape, and each policy.

The schemas themselves are generated from the document types (`ctxlens schema NAME`,
docs/schemas/); test_schemas.py holds every output here to them."""

import json
import re
import subprocess


def total(bin_path, path):
    out = subprocess.run([bin_path, "stats", str(path), "--json"], capture_output=True, check=True)
    return json.loads(out.stdout)["total"]


def policies(bin_path):
    """The policy names, as `compact --help` lists `--policy`'s values."""
    out = subprocess.run([bin_path, "compact", "--help"], capture_output=True, check=True, text=True).stdout
    line = next(line for line in out.splitlines() if line.strip().startswith("--policy"))
    values = re.search(r"\[possible values: ([^\]]+)\]", line).group(1)
    return [v.strip() for v in values.split(",")]


def commands(bin_path, path, every_policy=()):
    """The documents to check on `path`; each policy in `every_policy` is also planned
    and replayed on it."""
    budget = str(max(total(bin_path, path) // 3, 1))
    low, high = str(max(int(budget) // 2, 1)), str(max(int(budget), 2))
    p = str(path)
    sweep = ["sweep", p, "--max-tokens", f"{low}..{high}:{max((int(high) - int(low)) // 2, 1)}", "--json", "--summarizer", "placeholder"]
    listed = [
        ("stats", ["stats", p, "--json"]),
        ("stats-by", ["stats", p, "--by", "kind", "--json"]),
        ("compact-plan", ["compact", p, "--max-tokens", budget, "--plan"]),
        ("compact-plan", ["compact", p, "--max-tokens", budget, "--strategy", "deterministic", "--plan"]),
        ("compact-plan", ["compact", p, "--max-tokens", budget, "--strategy", "deterministic,tail", "--plan"]),
        ("compact-report", ["compact", p, "--max-tokens", budget, "--report", "--json", "--summarizer", "extractive"]),
        ("check", ["check", p, "--json"]),
        ("history", ["history", p, "--json"]),
        ("replay", ["replay", p, "--max-tokens", budget, "--json", "--summarizer", "placeholder"]),
        ("replay-policy", ["replay", p, "--policy", "claude-code", "--json", "--summarizer", "placeholder"]),
        ("sweep", sweep),
        ("sweep", [*sweep, "--keep", "0"]),
        ("sweep-policy", ["sweep", p, "--policy", "langchain-trim", "--vary", f"max_tokens={low},{high}", "--json", "--summarizer", "placeholder"]),
        ("compact-policy-plan", ["compact", p, "--policy", "langchain-trim", "--set", f"max_tokens={budget}", "--plan"]),
        ("compare", ["compare", p, "--json", "--summarizer", "placeholder"]),
        ("status", ["status", p, "--json"]),
        ("scan", ["scan", p, "--json"]),
        ("scan", ["scan", p, "--max-tokens", budget, "--json"]),
        ("backtest", ["backtest", p, "--json"]),
        ("ledger", ["ledger", p, "--json"]),
    ]
    for policy in every_policy:
        listed.append(("compact-policy-plan", ["compact", p, "--policy", policy, "--plan"]))
        listed.append(("replay-policy", ["replay", p, "--policy", policy, "--json", "--summarizer", "placeholder"]))
    return [(name, argv, budget) for name, argv in listed]


def run(bin_path, argv, budget=None):
    """The document, or None when the command refuses this input (exit 2) or has
    nothing to say of it (`backtest` on a file that is not a session log). A policy
    that needs a setting the agent has no default for (`needs --set KEY=N`) is run
    again with `budget` for it."""
    out = subprocess.run([bin_path, *argv], capture_output=True)
    # `needs --set KEY=N`, or `needs --max-tokens N` (the §7F policy's shorthand).
    needs = re.search(rb"needs --(?:set (\w+)=|(max-tokens) )N", out.stderr) if out.returncode == 2 else None
    if needs and budget is not None:
        key = (needs.group(1) or needs.group(2)).decode().replace("-", "_")
        out = subprocess.run([bin_path, *argv, "--set", f"{key}={budget}"], capture_output=True)
    if out.returncode not in (0, 1) or not out.stdout.strip():
        return None
    return json.loads(out.stdout)
