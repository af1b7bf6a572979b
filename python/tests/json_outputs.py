"""Every `--json` document ctxlens prints, on a transcript: (schema name, argv).

Shared by the schema check (test_schemas.py) and by docs/schemas/make_schemas.py, which
drafted the schemas from these outputs once (the schemas are then edited as the contract,
and the check keeps every output to them)."""

import json
import subprocess


def total(bin_path, path):
    out = subprocess.run([bin_path, "stats", str(path), "--json"], capture_output=True, check=True)
    return json.loads(out.stdout)["total"]


def commands(bin_path, path):
    budget = str(max(total(bin_path, path) // 3, 1))
    low, high = str(max(int(budget) // 2, 1)), str(max(int(budget), 2))
    p = str(path)
    return [
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
        ("sweep", ["sweep", p, "--max-tokens", f"{low}..{high}:{max((int(high) - int(low)) // 2, 1)}", "--json", "--summarizer", "placeholder"]),
        ("sweep-policy", ["sweep", p, "--policy", "langchain-trim", "--vary", f"max_tokens={low},{high}", "--json", "--summarizer", "placeholder"]),
        ("compact-policy-plan", ["compact", p, "--policy", "langchain-trim", "--set", f"max_tokens={budget}", "--plan"]),
        ("compare", ["compare", p, "--json", "--summarizer", "placeholder"]),
        ("status", ["status", p, "--json"]),
        ("scan", ["scan", p, "--json"]),
        ("scan", ["scan", p, "--max-tokens", budget, "--json"]),
        ("backtest", ["backtest", p, "--json"]),
        ("ledger", ["ledger", p, "--json"]),
    ]


def run(bin_path, argv):
    """The document, or None when the command refuses this input (exit 2) or has
    nothing to say of it (`backtest` on a file that is not a session log)."""
    out = subprocess.run([bin_path, *argv], capture_output=True)
    if out.returncode not in (0, 1) or not out.stdout.strip():
        return None
    return json.loads(out.stdout)
