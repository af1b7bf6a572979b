#!/usr/bin/env python3
"""Regenerate gemini-cli/expected.json from oracle.py (stdlib only, Python >= 3.8).

  python3 tests/data/conformance/policies/gemini-cli/make_cases.py [--check]

Runs `oracle.py FILE KEY=VALUE ...` as a subprocess (its documented command line) for
every input x setting below and writes expected.json beside this file; --check compares
with the existing file instead of writing it (exit 1 on a difference).

Grid per input (12 cases):
  * force=true with preserve_fraction in 0.05 0.1 0.2 0.3 0.5 0.7 0.9 0.95;
  * force=false, threshold=0.2, token_limit=T (T = the input's tokens_before): fires,
    because T/4 > 0.2*T;
  * the same with preserve_fraction=0.5 (the non-forced path with another split);
  * force=false, threshold=0.9, token_limit=5*T: does not fire, because 4*T < 4.5*T;
  * no settings at all (threshold 0.5 of 1,048,576): does not fire on these inputs.
Non-forced cases are kept only where tokens_before*4 < threshold*token_limit or
tokens_before/4 > threshold*token_limit, so that the estimate and a provider's recorded
prompt size (within a factor of 4 of it) land on the same side of the threshold; the
script asserts this.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
POLICIES = os.path.dirname(HERE)  # tests/data/conformance/policies
ORACLE = os.path.join(HERE, "oracle.py")
OUT = os.path.join(HERE, "expected.json")

INPUTS = [
    "agent-loop.json",
    "anthropic-parallel-tools.json",
    "lc-orphan-38352.json",
    "support-agent.json",
    "toolnexus-fixture-transcript.json",
    "gemini-long-session.json",
    "gemini-ends-in-call.json",
]
PRESERVES = ["0.05", "0.1", "0.2", "0.3", "0.5", "0.7", "0.9", "0.95"]
SECTIONS = ("head", "tail", "summarized", "dropped", "cleared")

sys.path.insert(0, HERE)
import oracle  # noqa: E402  (for the input summary and the budget assertion only)


def run_oracle(path, settings):
    cmd = [sys.executable, ORACLE, path] + ["%s=%s" % kv for kv in settings.items()]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("oracle failed: %s\n%s" % (" ".join(cmd), p.stderr))
    return json.loads(p.stdout)


def grid(tokens_before):
    t = tokens_before
    g = [{"force": "true", "preserve_fraction": p} for p in PRESERVES]
    # Not forced, the trigger compares a size that includes the system prompt and tools
    # (ctxlens assumes some without recorded usage): overhead=0 makes it the messages'.
    g.append({"force": "false", "threshold": "0.2", "token_limit": str(t), "overhead": "0"})
    g.append({"force": "false", "threshold": "0.2", "token_limit": str(t), "preserve_fraction": "0.5", "overhead": "0"})
    g.append({"force": "false", "threshold": "0.9", "token_limit": str(5 * t), "overhead": "0"})
    g.append({})
    return g


def clear_side(tokens_before, s):
    """Both counters agree: far below or far above the threshold (or forced)."""
    if s.get("force") == "true":
        return True
    line = float(s.get("threshold", "0.5")) * float(s.get("token_limit", str(oracle.DEFAULT_TOKEN_LIMIT)))
    return tokens_before * 4 < line or tokens_before / 4 > line


def main():
    check = "--check" in sys.argv[1:]
    cases, summary = [], {}
    for name in INPUTS:
        path = os.path.join(POLICIES, "inputs", name)
        msgs = oracle.load(path)
        history, rows, head_rows = oracle.to_history(msgs)
        oracle.check_curated(history)
        fr = oracle.function_response_tokens(history)
        # truncateHistoryToBudget is the identity below this budget (see oracle.py).
        assert fr < oracle.COMPRESSION_FUNCTION_RESPONSE_TOKEN_BUDGET, (name, fr)
        base = run_oracle(path, {})
        t = base["tokens_before"]
        summary[name] = {
            "messages": len(msgs),
            "history_contents": len(history),
            "split_candidates": sum(1 for c in history if c["role"] == "user" and not any(
                p.get("functionResponse") for p in c["parts"])),
            "content_chars": sum(oracle.content_char_counts(history)),
            "tokens_before": t,
            "function_response_tokens": fr,
        }
        for s in grid(t):
            assert clear_side(t, s), (name, s, t)
            plan = run_oracle(path, s)
            assert plan["tokens_before"] == t
            assert sorted(r["index"] for r in plan["messages"]) == list(range(len(msgs)))
            expect = {"compacted": plan["compacted"]}
            for sec in SECTIONS:
                expect[sec] = [r["index"] for r in plan["messages"] if r["section"] == sec]
            expect["tokens_before"] = plan["tokens_before"]
            expect["tokens_after"] = plan["tokens_after"]
            cases.append({
                "id": "%s|gemini-cli|%s" % (name, ",".join("%s=%s" % kv for kv in s.items())),
                "file": "inputs/" + name,
                "policy": "gemini-cli",
                "set": s,
                "expect": expect,
            })
    doc = {
        "contract": "ctxlens compact FILE --policy gemini-cli [--set KEY=VALUE]... --plan  "
                    "(see ../MAPPING.md and README.md beside this file)",
        "source": "gemini-cli/oracle.py: a stdlib Python port of google-gemini/gemini-cli @ "
                  "02b2885cb824fecd2f9ed666aa6c7e397fc26384 (packages/core/src/services/"
                  "chatCompressionService.ts findCompressSplitPoint + ChatCompressionService.compress "
                  "decision; packages/core/src/utils/tokenCalculation.ts estimateTokenCountSync), with "
                  "the OpenAI-chat -> Content[] conversion of README.md; generated by make_cases.py",
        "inputs": summary,
        "cases": cases,
    }
    text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    if check:
        with open(OUT, encoding="utf-8") as f:
            same = f.read() == text
        print("expected.json is %s" % ("up to date" if same else "OUT OF DATE"))
        return 0 if same else 1
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    per = {}
    for c in cases:
        n = c["file"][len("inputs/"):]
        a = per.setdefault(n, [0, 0])
        a[0] += 1
        a[1] += c["expect"]["compacted"]
    for n in INPUTS:
        print("%-36s %2d cases, %2d compact (tokens_before %d)" % (n, per[n][0], per[n][1], summary[n]["tokens_before"]))
    print("wrote %s: %d cases" % (os.path.relpath(OUT), len(cases)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
