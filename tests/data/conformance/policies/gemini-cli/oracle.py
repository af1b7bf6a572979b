#!/usr/bin/env python3
"""Reference oracle for the `gemini-cli` compaction policy (stdlib only, Python >= 3.8).

A line-by-line Python port of Gemini CLI's chat-compression decision, written from
the TypeScript sources of google-gemini/gemini-cli at commit
02b2885cb824fecd2f9ed666aa6c7e397fc26384 (2026-03-03):

  packages/core/src/services/chatCompressionService.ts
      DEFAULT_COMPRESSION_TOKEN_THRESHOLD = 0.5
      COMPRESSION_PRESERVE_THRESHOLD      = 0.3
      findCompressSplitPoint(contents, fraction)
      ChatCompressionService.compress(...)   (decision part only)
  packages/core/src/utils/tokenCalculation.ts
      estimateTextTokens, estimateFunctionResponseTokens, estimateTokenCountSync
  packages/core/src/core/tokenLimits.ts
      DEFAULT_TOKEN_LIMIT = 1_048_576
  packages/core/src/core/geminiChat.ts
      getHistory(true) / extractCuratedHistory (see "Left out" below)

Usage:
  oracle.py FILE [KEY=VALUE ...] [--explain]

FILE is an OpenAI-chat JSON list. Settings (strings, as `ctxlens --set` passes them):
  threshold          default "0.5"      (config.getCompressionThreshold() ?? 0.5)
  token_limit        default "1048576"  (tokenLimit(model))
  preserve_fraction  default "0.3"      (COMPRESSION_PRESERVE_THRESHOLD; split fraction = 1 - it)
  force              default "false"    ("true"/"false")
Prints one JSON plan:
  {"policy": "gemini-cli", "compacted": bool, "tokens_before": N, "tokens_after": N,
   "messages": [{"index": i, "section": "head"|"summarized"|"tail"}, ...]}
--explain additionally prints the converted history (one line per content, with its
JSON.stringify length and token estimate) and the split to stderr.

The OpenAI-chat -> Gemini `Content[]` conversion is NOT Gemini CLI code (Gemini CLI
never sees OpenAI messages); it is the conformance contract written down in README.md.

Left out, on purpose:
  * truncateHistoryToBudget (COMPRESSION_FUNCTION_RESPONSE_TOKEN_BUDGET = 50,000 tokens of
    function responses, counted newest first): it only rewrites function responses once
    the running total exceeds 50,000 tokens. The largest input here holds a few thousand
    tokens of function responses in total, so it returns every part unchanged and the
    split is computed on the original history. make_cases.py asserts this (sum of the
    function-response estimates < 50,000 for every input).
  * hasFailedCompressionAttempt (truncation-only path), summary/verification LLM calls,
    COMPRESSION_FAILED* and COMPRESSION_FAILED_INFLATED_TOKEN_COUNT: they depend on a
    model's answer, not on the history.
  * originalTokenCount: the real trigger compares chat.getLastPromptTokenCount() (the
    provider's recorded prompt size). Here tokens_before is estimateTokenCountSync over
    all parts of the history (contract); cases are only generated where both counters
    agree on the side of the threshold.
  * newTokenCount: the real value is calculateRequestTokenCount over the *new* history
    (getInitialChatHistory + summary + "Got it. ..." + kept contents). Here tokens_after
    is estimateTokenCountSync over the kept contents only (contract).
  * extractCuratedHistory (getHistory(true)) drops a whole run of consecutive model
    contents when any of them is invalid (no parts, or a text part equal to "").
    The contract conversion never produces a text part "" but produces `parts: []` for
    an assistant message with no text and no tool calls. The oracle refuses such an
    input (exit 3) instead of guessing; none of the inputs has one.
"""
import json
import math
import re
import sys

# --- packages/core/src/services/chatCompressionService.ts @ 02b2885 -------------------
DEFAULT_COMPRESSION_TOKEN_THRESHOLD = 0.5
COMPRESSION_PRESERVE_THRESHOLD = 0.3
COMPRESSION_FUNCTION_RESPONSE_TOKEN_BUDGET = 50_000  # only checked, see docstring
# --- packages/core/src/core/tokenLimits.ts @ 02b2885 ----------------------------------
DEFAULT_TOKEN_LIMIT = 1_048_576
# --- packages/core/src/utils/tokenCalculation.ts @ 02b2885 ----------------------------
ASCII_TOKENS_PER_CHAR = 0.25
NON_ASCII_TOKENS_PER_CHAR = 1.3
MAX_CHARS_FOR_FULL_HEURISTIC = 100_000

ACK_TEXT = "Got it. Thanks for the additional context!"  # compress(): extraHistory[1]


class OracleError(Exception):
    pass


# ======================================================================================
# JavaScript string / JSON.stringify model
# ======================================================================================
# A JS string is a sequence of UTF-16 code units; Python str holds code points. A code
# point above U+FFFF is two code units (a surrogate pair); a lone surrogate (possible
# through a "\udXXX" escape in the input JSON) is one.

def utf16_units(s):
    """The UTF-16 code units of s, as ints (what charCodeAt(i) returns for each i)."""
    out = []
    for ch in s:
        o = ord(ch)
        if o > 0xFFFF:
            o -= 0x10000
            out.append(0xD800 + (o >> 10))
            out.append(0xDC00 + (o & 0x3FF))
        else:
            out.append(o)
    return out


def js_length(s):
    """String.prototype.length."""
    return sum(2 if ord(ch) > 0xFFFF else 1 for ch in s)


_ESC = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def js_quote(s):
    """ECMA-262 QuoteJSONString (ES2019 well-formed JSON.stringify): the 7 short escapes,
    other code units < 0x20 and lone surrogates as \\uXXXX (lowercase hex), everything
    else (incl. U+2028/U+2029 and non-ASCII) verbatim. Python's json.dumps with
    ensure_ascii=False agrees except for lone surrogates (it writes them raw)."""
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch in _ESC:
            out.append(_ESC[ch])
        elif o < 0x20 or 0xD800 <= o <= 0xDFFF:
            out.append("\\u%04x" % o)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def js_number(x):
    """Number::toString for a finite double (JSON.stringify writes NaN/Infinity as null).
    Differs from Python's json.dumps: 120.0 -> "120", 1e21 -> "1e+21", 1e-7 -> "1e-7",
    and every JSON number is a double (12345678901234567890 -> "12345678901234567000")."""
    x = float(x)
    if x != x or x in (float("inf"), float("-inf")):
        return "null"
    if x == 0:
        return "0"  # also -0
    if x < 0:
        return "-" + js_number(-x)
    r = repr(x)  # shortest round-trip digits, as Number::toString uses
    mant, _, exp = r.partition("e")
    exp = int(exp) if exp else 0
    ip, _, fp = mant.partition(".")
    alld = (ip + fp).lstrip("0")
    digits = alld.rstrip("0")
    tz = len(alld) - len(digits)
    k = len(digits)
    n = exp - len(fp) + tz + k  # value = digits * 10^(n-k)
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    e = n - 1
    sign = "+" if e >= 0 else "-"
    if k == 1:
        return digits + "e" + sign + str(abs(e))
    return digits[0] + "." + digits[1:] + "e" + sign + str(abs(e))


_ARRAY_INDEX = re.compile(r"^(0|[1-9][0-9]*)$")


def _js_key_order(d):
    """OrdinaryOwnPropertyKeys: array-index keys ascending, then the others in creation
    order. (JSON.parse keeps the first position of a duplicated key, like a Python dict.)
    Order never changes a stringify *length*; it is kept for faithful --explain output."""
    idx = [k for k in d if _ARRAY_INDEX.match(k) and int(k) < 2 ** 32 - 1]
    idx.sort(key=int)
    rest = [k for k in d if k not in set(idx)]
    return idx + rest


def js_stringify(v):
    """JSON.stringify(v) for values made of dict/list/str/number/bool/None."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return js_number(v)
    if isinstance(v, str):
        return js_quote(v)
    if isinstance(v, list):
        return "[" + ",".join(js_stringify(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(js_quote(k) + ":" + js_stringify(v[k]) for k in _js_key_order(v)) + "}"
    raise OracleError("cannot stringify %r" % type(v))


def _reject_constant(name):
    raise ValueError("JSON.parse rejects %s" % name)


def js_json_parse(s):
    """JSON.parse(s); raises ValueError where JSON.parse throws. Numbers become doubles."""
    return json.loads(s, parse_int=float, parse_float=float, parse_constant=_reject_constant)


# ======================================================================================
# Contract: OpenAI-chat messages -> Gemini history (Content[]) with row mapping
# ======================================================================================

def _text_of(content):
    """String content as is; a list: the "text" of its parts joined with ""; else ""."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p["text"] for p in content
                       if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def _args_of(fn):
    """ARGS: `arguments` parsed as JSON; {} if it is not a string, does not parse, or is
    not a JSON object."""
    a = fn.get("arguments")
    if not isinstance(a, str):
        return {}
    try:
        v = js_json_parse(a)
    except ValueError:
        return {}
    return v if isinstance(v, dict) else {}


def to_history(messages):
    """Returns (history, rows, head_rows): history[i] is a Content dict, rows[i] the input
    indices it came from, head_rows the system/developer indices."""
    history, rows, head_rows = [], [], []
    call_names = {}  # tool call id -> name of the latest earlier call with that id
    i, n = 0, len(messages)
    while i < n:
        m = messages[i]
        role = m.get("role")
        if role in ("system", "developer"):
            head_rows.append(i)
            i += 1
            continue
        if role == "tool":
            # A run of consecutive tool messages (consecutive in the input list) is one
            # user content holding all their functionResponse parts.
            parts, rr = [], []
            while i < n and messages[i].get("role") == "tool":
                t = messages[i]
                tcid = t.get("tool_call_id")
                name = t.get("name")
                if not (isinstance(name, str) and name != ""):
                    name = call_names.get(tcid, "") if tcid is not None else ""
                fr = {}
                if tcid is not None:
                    fr["id"] = tcid
                fr["name"] = name
                fr["response"] = {"output": _text_of(t.get("content"))}
                parts.append({"functionResponse": fr})
                rr.append(i)
                i += 1
            history.append({"role": "user", "parts": parts})
            rows.append(rr)
            continue
        if role == "assistant":
            parts = []
            text = _text_of(m.get("content"))
            if text != "":
                parts.append({"text": text})
            for tc in m.get("tool_calls") or []:
                fn = tc.get("function") or {}
                fname = fn.get("name")
                fname = fname if isinstance(fname, str) else ""
                fc = {}
                if tc.get("id") is not None:
                    fc["id"] = tc["id"]
                    call_names[tc["id"]] = fname
                fc["name"] = fname
                fc["args"] = _args_of(fn)
                parts.append({"functionCall": fc})
            history.append({"role": "model", "parts": parts})
            rows.append([i])
            i += 1
            continue
        # user, and any other role
        text = _text_of(m.get("content"))
        history.append({"role": "user", "parts": [{"text": text}] if text != "" else []})
        rows.append([i])
        i += 1
    return history, rows, head_rows


def check_curated(history):
    """geminiChat.ts extractCuratedHistory / isValidContent @ 02b2885: a model content
    with no parts or with a text part "" (non-thought) is invalid, and the whole run of
    consecutive model contents containing it would be left out of getHistory(true).
    The contract does not say what such rows become, so refuse them."""
    for k, c in enumerate(history):
        if c["role"] != "model":
            continue
        bad = len(c["parts"]) == 0 or any(
            len(p) == 0 or ("text" in p and p["text"] == "") for p in c["parts"])
        if bad:
            raise OracleError("history content %d is an invalid model content (Gemini CLI's "
                              "curated history would drop it); not covered by the contract" % k)


# ======================================================================================
# packages/core/src/utils/tokenCalculation.ts @ 02b2885
# ======================================================================================
# Floating-point note: NON_ASCII_TOKENS_PER_CHAR = 1.3 is not exact in binary, so the
# additions are done in the same order as the TypeScript (per code unit into a per-text
# sum starting at 0, that sum into the running total, one Math.floor at the end).

def estimate_text_tokens(text):
    """estimateTextTokens"""
    units = utf16_units(text)
    if len(units) > MAX_CHARS_FOR_FULL_HEURISTIC:
        return len(units) / 4
    tokens = 0
    for u in units:  # text.charCodeAt(i)
        if u <= 127:
            tokens += ASCII_TOKENS_PER_CHAR
        else:
            tokens += NON_ASCII_TOKENS_PER_CHAR
    return tokens


def estimate_function_response_tokens(part, depth):
    """estimateFunctionResponseTokens"""
    fr = part.get("functionResponse")
    if not fr:
        return 0
    name = fr.get("name")
    total = (js_length(name) if name is not None else 0) / 4
    response = fr.get("response")
    if isinstance(response, str):
        total += js_length(response) / 4
    elif response is not None:
        total += js_length(js_stringify(response)) / 4
    nested = fr.get("parts")  # Gemini 3 multimodal parts; never produced by the contract
    if nested:
        total += estimate_token_count_sync(nested, depth + 1)
    return total


def estimate_token_count_sync(parts, depth=0):
    """estimateTokenCountSync (media parts cannot occur: the contract makes text,
    functionCall and functionResponse parts only)."""
    if depth > 3:  # MAX_RECURSION_DEPTH
        return 0
    total = 0
    for part in parts:
        if isinstance(part.get("text"), str):
            total += estimate_text_tokens(part["text"])
        elif part.get("functionResponse"):
            total += estimate_function_response_tokens(part, depth)
        else:
            # Fallback for other non-text parts (e.g. functionCall): JSON.stringify(part)
            total += js_length(js_stringify(part)) / 4
    return math.floor(total)


def function_response_tokens(history):
    """What truncateHistoryToBudget would count (estimateTokenCountSync([{text: output}])
    per function response); used to show the 50,000 budget is never reached."""
    s = 0
    for c in history:
        for p in c["parts"]:
            fr = p.get("functionResponse")
            if fr:
                resp = fr.get("response")
                if isinstance(resp, dict) and isinstance(resp.get("output"), str):
                    s += estimate_token_count_sync([{"text": resp["output"]}])
                else:
                    s += estimate_token_count_sync([{"text": js_stringify(resp)}])
    return s


# ======================================================================================
# packages/core/src/services/chatCompressionService.ts @ 02b2885
# ======================================================================================

def content_char_counts(contents):
    return [js_length(js_stringify(c)) for c in contents]


def find_compress_split_point(contents, fraction):
    """findCompressSplitPoint: index of the oldest content to keep; len(contents) means
    compress everything."""
    if fraction <= 0 or fraction >= 1:
        raise OracleError("Fraction must be between 0 and 1")
    char_counts = content_char_counts(contents)  # JSON.stringify(content).length
    total_char_count = sum(char_counts)
    target_char_count = total_char_count * fraction

    last_split_point = 0  # 0 is always valid (compress nothing)
    cumulative_char_count = 0
    for i, content in enumerate(contents):
        if content["role"] == "user" and not any(
                p.get("functionResponse") for p in content.get("parts") or []):
            if cumulative_char_count >= target_char_count:
                return i
            last_split_point = i
        cumulative_char_count += char_counts[i]

    # No split point after targetCharCount: is it safe to compress everything?
    last = contents[-1] if contents else None
    if last is not None and last["role"] == "model" and not any(
            p.get("functionCall") for p in last.get("parts") or []):
        return len(contents)
    # Can't compress everything, so compress at the last split point.
    return last_split_point


def _flat_parts(contents):
    return [p for c in contents for p in (c.get("parts") or [])]


def parse_settings(pairs):
    # `overhead` and `ratio` are ctxlens' calibration of its count to the billed prompt
    # (what Gemini CLI's trigger compares); the oracle compares its own estimate, so it
    # takes and ignores them (the cases set overhead=0: no system prompt or tools).
    s = {"threshold": "0.5", "token_limit": str(DEFAULT_TOKEN_LIMIT),
         "preserve_fraction": str(COMPRESSION_PRESERVE_THRESHOLD), "force": "false",
         "overhead": "0", "ratio": "1"}
    for kv in pairs:
        if "=" not in kv:
            raise OracleError("setting %r is not KEY=VALUE" % kv)
        k, v = kv.split("=", 1)
        if k not in s:
            raise OracleError("unknown setting %r (known: %s)" % (k, ", ".join(sorted(s))))
        s[k] = v
    if s["force"] not in ("true", "false"):
        raise OracleError("force must be true or false, got %r" % s["force"])
    try:
        return {"threshold": float(s["threshold"]), "token_limit": float(s["token_limit"]),
                "preserve_fraction": float(s["preserve_fraction"]),
                "force": s["force"] == "true"}
    except ValueError as ex:
        raise OracleError(str(ex))


def compress(messages, settings, explain=None):
    """The decision of ChatCompressionService.compress; returns the plan dict."""
    history, rows, head_rows = to_history(messages)
    check_curated(history)
    n = len(messages)
    section = {i: "tail" for i in range(n)}
    for i in head_rows:
        section[i] = "head"

    tokens_before = estimate_token_count_sync(_flat_parts(history))
    tokens_after = tokens_before
    compacted = False
    split = None

    # "Regardless of `force`, don't do anything if the history is empty."
    if len(history) == 0:
        pass
    # "Don't compress if not forced and we are under the limit."
    elif not settings["force"] and tokens_before < settings["threshold"] * settings["token_limit"]:
        pass
    else:
        # truncateHistoryToBudget: identity for these inputs (see docstring).
        split = find_compress_split_point(history, 1 - settings["preserve_fraction"])
        if split > 0:  # historyToCompressTruncated.length === 0 -> NOOP
            compacted = True
            for k in range(split):
                for i in rows[k]:
                    section[i] = "summarized"
            # new history = [user summary, model ACK_TEXT, ...history[split:]];
            # tokens_after counts history[split:] only (contract).
            tokens_after = estimate_token_count_sync(_flat_parts(history[split:]))

    if explain is not None:
        cc = content_char_counts(history)
        cum = 0
        for k, c in enumerate(history):
            kind = "user-split-candidate" if (c["role"] == "user" and not any(
                p.get("functionResponse") for p in c["parts"])) else c["role"]
            explain.write("%3d rows=%-12s %-22s chars=%6d cum_before=%7d tokens=%d\n" % (
                k, ",".join(map(str, rows[k])), kind, cc[k], cum,
                estimate_token_count_sync(c["parts"])))
            cum += cc[k]
        explain.write("total_chars=%d target=%r split=%r tokens_before=%d fr_tokens=%d\n" % (
            cum, cum * (1 - settings["preserve_fraction"]), split, tokens_before,
            function_response_tokens(history)))

    return {
        "policy": "gemini-cli",
        "compacted": compacted,
        "tokens_before": tokens_before,
        "tokens_after": tokens_after,
        "messages": [{"index": i, "section": section[i]} for i in range(n)],
    }


def load(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if isinstance(data, dict) and "messages" in data:
        data = data["messages"]
    if not isinstance(data, list):
        raise OracleError("%s: not a JSON list of messages" % path)
    return data


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    explain = "--explain" in argv
    argv = [a for a in argv if a != "--explain"]
    if not argv or argv[0] in ("-h", "--help"):
        sys.stderr.write(__doc__)
        return 2
    try:
        messages = load(argv[0])
        settings = parse_settings(argv[1:])
        plan = compress(messages, settings, sys.stderr if explain else None)
    except OracleError as ex:
        sys.stderr.write("oracle: %s\n" % ex)
        return 3
    sys.stdout.write(json.dumps(plan) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
