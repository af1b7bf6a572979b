"""Writes core/data/prices.json, the price table ctxlens prices recorded usage with: the
chat models of the providers ctxlens reads (anthropic, openai, gemini, and deepseek,
which the shipped mini-swe-agent trajectory runs) from LiteLLM's
model_prices_and_context_window.json (MIT, BerriAI/litellm), the table ccusage uses.

Usage: python3 core/data/make_prices.py NEW.json OLD.json > core/data/prices.json
NEW and OLD are `litellm/model_prices_and_context_window_backup.json` from two `litellm`
wheels on PyPI (here 1.110.2 and 1.75.0): the newer one's prices win; the older one
keeps the models the newer has dropped (a log of 2025 still names claude-opus-4-20250514).
"""

import json
import sys

PROVIDERS = {"anthropic", "openai", "gemini", "deepseek"}
FIELDS = (
    "input_cost_per_token",
    "output_cost_per_token",
    "cache_creation_input_token_cost",
    "cache_creation_input_token_cost_above_1hr",
    "cache_read_input_token_cost",
    "input_cost_per_token_above_200k_tokens",
    "output_cost_per_token_above_200k_tokens",
    "cache_creation_input_token_cost_above_200k_tokens",
    "cache_creation_input_token_cost_above_1hr_above_200k_tokens",
    "cache_read_input_token_cost_above_200k_tokens",
    "input_cost_per_token_above_272k_tokens",
    "output_cost_per_token_above_272k_tokens",
    "cache_read_input_token_cost_above_272k_tokens",
    "max_input_tokens",
    "litellm_provider",
)


def chat_models(table, version):
    out = {}
    for name, entry in table.items():
        if not isinstance(entry, dict) or entry.get("litellm_provider") not in PROVIDERS:
            continue
        if entry.get("mode") not in (None, "chat", "responses"):
            continue
        if "input_cost_per_token" not in entry or "output_cost_per_token" not in entry:
            continue
        kept = {k: entry[k] for k in FIELDS if k in entry}
        kept["litellm_version"] = version
        out[name] = kept
    return out


def main():
    new_path, old_path = sys.argv[1], sys.argv[2]
    new = chat_models(json.load(open(new_path)), sys.argv[3] if len(sys.argv) > 3 else "1.110.2")
    old = chat_models(json.load(open(old_path)), sys.argv[4] if len(sys.argv) > 4 else "1.75.0")
    merged = dict(old)
    merged.update(new)
    json.dump(dict(sorted(merged.items())), sys.stdout, indent=0, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
