#!/usr/bin/env python3
"""Mechanical checks of a folder of labelled compactions (tests/data/forget-own,
forget-heldout, forget-heldout-2; the shared tests/data/forget too).

    python3 tests/data/check_forget_cases.py [BIN] [CASES_DIR]

BIN defaults to target/debug/ctxlens (else target/release/ctxlens) of this repository.
The report's `loss` object is deleted as soon as the JSON is parsed: nothing here reads,
prints or compares a loss verdict. For every */labels.json:

  * `BIN history case.jsonl --json` exits 0 and reports exactly one compaction, at the
    labelled boundary line, with the labelled summary message index;
  * the boundary record is a compact_boundary whose logicalParentUuid is the record before
    it; the next record is the isCompactSummary record; the parentUuid chain is intact;
  * the message numbering re-derived here (one message per user record, except that
    consecutive tool-result records share one and consecutive lines of one assistant
    message.id share one; isMeta records are not messages) gives the report's message
    count, epoch bounds and summary index;
  * every labelled `line` is a human turn (user record, not a tool result, isMeta or the
    summary) numbered as its `message`, inside the compacted epoch, containing its `text`;
  * every human turn of the compacted epoch is either labelled or listed under `skipped`,
    and epoch 0's human-turn count in the report equals labelled + skipped; epoch 1's equals
    the after-boundary user turns listed;
  * each turn has the fields of the shared label format, with legal kind/status/wrapper;
    in_summary turns quote the summary, repeated_later turns quote a record after it, lost
    turns have no evidence; every quote is an exact substring of the record it names;
    partial turns name a lost_part; repeated instructions say how they came back (chatter and
    user_fact turns may leave repeated_after out, as the shared examples do);
  * for every lost turn, its distinctive words (build/lost_words.json) and its first 40
    characters occur neither in the summary nor in any record after the boundary
    (chatter excepted).
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, '..', '..'))
STATUSES = {'in_summary', 'repeated_later', 'lost'}
KINDS = {'instruction', 'user_fact', 'chatter'}
WRAPPERS = {None, 'ide_opened_file', 'ide_selection', 'system-reminder', 'command-args'}
REPEATS = {'verbatim', 'paraphrase', 'ide_wrapped', 'in_tool_result'}
TURN_KEYS = {'message', 'line', 'kind', 'key', 'text', 'wrapper', 'summary_form', 'partial', 'lost_part', 'status',
             'evidence', 'repeated_after', 'origin', 'values', 'tags'}
TOP_KEYS = {'case', 'file', 'origin', 'split', 'built_from', 'summary_style', 'summary_written_by', 'compaction',
            'turns', 'skipped', 'after_boundary_user_turns', 'notes'}


def record_text(rec):
    c = rec.get('message', {}).get('content') if 'message' in rec else rec.get('content')
    if isinstance(c, str):
        return c
    parts = []
    for b in c or []:
        if b.get('type') == 'text':
            parts.append(b['text'])
        elif b.get('type') == 'tool_result':
            cc = b.get('content')
            if isinstance(cc, list):
                cc = '\n'.join(x.get('text', '') for x in cc if isinstance(x, dict))
            parts.append(cc or '')
        elif b.get('type') == 'tool_use':
            parts.append(json.dumps(b.get('input'), ensure_ascii=False))
    return '\n'.join(parts)


def is_tool_result(rec):
    c = rec.get('message', {}).get('content')
    return isinstance(c, list) and bool(c) and all(b.get('type') == 'tool_result' for b in c)


def is_human(rec):
    return rec.get('type') == 'user' and not rec.get('isMeta') and not rec.get('isCompactSummary') and not is_tool_result(rec)


def numbering(recs):
    idx, n, prev = {}, -1, None
    for i, r in enumerate(recs, 1):
        t = r.get('type')
        if t == 'assistant':
            mid = r['message'].get('id')
            if prev and prev[0] == 'a' and prev[1] == mid:
                idx[i] = n
                continue
            n += 1
            idx[i] = n
            prev = ('a', mid)
        elif t == 'user':
            if r.get('isMeta'):
                continue
            tr = is_tool_result(r)
            if tr and prev and prev[0] == 'tr':
                idx[i] = n
                continue
            n += 1
            idx[i] = n
            prev = ('tr', None) if tr else ('u', None)
    return idx, n + 1


def run_report(binary, path):
    p = subprocess.run([binary, 'history', path, '--json'], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        return None, 'ctxlens exit %d: %s' % (p.returncode, p.stderr.strip()[:200])
    rep = json.loads(p.stdout)
    # the loss verdicts are not ours to see: drop them before anything else looks at the report
    for c in rep.get('compactions') or []:
        c.pop('loss', None)
    rep.pop('loss', None)
    return rep, None


def check_case(binary, d, lost_words):
    errs = []
    L = json.load(open(os.path.join(d, 'labels.json')))
    path = os.path.join(d, L.get('file', 'case.jsonl'))
    recs = [json.loads(l) for l in open(path)]
    missing = TOP_KEYS - set(L)
    if missing:
        errs.append('labels.json lacks %s' % sorted(missing))
    rep, err = run_report(binary, path)
    if err:
        return [err], L
    comp = L['compaction']
    cs = rep.get('compactions') or []
    if len(cs) != 1:
        errs.append('%d compactions reported' % len(cs))
    c = next((x for x in cs if x.get('line') == comp['boundary_line']), None)
    if c is None:
        errs.append('no compaction at line %d' % comp['boundary_line'])
        return errs, L
    if c.get('summary_message') != comp['summary_message'] or c.get('at') != comp['summary_message']:
        errs.append('summary message %s/%s, labelled %d' % (c.get('summary_message'), c.get('at'), comp['summary_message']))
    b = recs[comp['boundary_line'] - 1]
    if b.get('subtype') != 'compact_boundary' or not b.get('logicalParentUuid'):
        errs.append('boundary line is not a compact_boundary with logicalParentUuid')
    if b.get('logicalParentUuid') != recs[comp['boundary_line'] - 2].get('uuid'):
        errs.append('logicalParentUuid is not the record before the boundary')
    s = recs[comp['summary_line'] - 1]
    if comp['summary_line'] != comp['boundary_line'] + 1 or not s.get('isCompactSummary') or s.get('parentUuid') != b.get('uuid'):
        errs.append('summary line is not the isCompactSummary record right after the boundary')
    if sum(1 for r in recs if r.get('subtype') == 'compact_boundary') != 1 or sum(1 for r in recs if r.get('isCompactSummary')) != 1:
        errs.append('more than one boundary or summary record')
    seen = set()
    for i, r in enumerate(recs, 1):
        if 'uuid' not in r:
            continue
        pu = r.get('parentUuid')
        if pu is not None and pu not in seen:
            errs.append('line %d: parentUuid not an earlier record' % i)
        seen.add(r['uuid'])
    idx, total = numbering(recs)
    if total != rep.get('messages'):
        errs.append('message count %d, report %s' % (total, rep.get('messages')))
    if idx.get(comp['summary_line']) != comp['summary_message']:
        errs.append('summary line numbers as %s' % idx.get(comp['summary_line']))
    ep = rep.get('epochs') or []
    if len(ep) == 2:
        if (ep[0]['first'], ep[0]['last']) != tuple(comp['epoch_messages']):
            errs.append('epoch 0 is %s..%s, labelled %s' % (ep[0]['first'], ep[0]['last'], comp['epoch_messages']))
        if ep[0]['human_turns'] != len(L['turns']) + len(L['skipped']):
            errs.append('epoch 0 human turns %d != %d labelled + %d skipped' % (ep[0]['human_turns'], len(L['turns']), len(L['skipped'])))
        if ep[1]['human_turns'] != len(L['after_boundary_user_turns']):
            errs.append('epoch 1 human turns %d != %d listed after the boundary' % (ep[1]['human_turns'], len(L['after_boundary_user_turns'])))
    else:
        errs.append('%d epochs reported' % len(ep))
    # completeness by our own reading of the file
    listed = {t['line'] for t in L['turns']} | {sk['line'] for sk in L['skipped']}
    for i, r in enumerate(recs[:comp['boundary_line'] - 1], 1):
        if is_human(r) and i not in listed:
            errs.append('human turn at line %d is neither labelled nor skipped' % i)
    summary = record_text(s)
    after = '\n'.join(record_text(r) for r in recs[comp['summary_line']:] if r.get('type') in ('user', 'assistant'))
    hay = (summary + '\n' + after).lower()
    words = lost_words.get(L['case'], {})
    for t in L['turns']:
        tag = 'turn@%d' % t['line']
        want_keys = TURN_KEYS if t['kind'] == 'instruction' else TURN_KEYS - {'repeated_after'}
        if not (want_keys <= set(t) <= TURN_KEYS):
            errs.append('%s: fields %s' % (tag, sorted(set(t) ^ want_keys)))
        r = recs[t['line'] - 1]
        if not is_human(r):
            errs.append('%s: not a human turn' % tag)
        if idx.get(t['line']) != t['message']:
            errs.append('%s: numbers as %s, labelled %d' % (tag, idx.get(t['line']), t['message']))
        if not (comp['epoch_messages'][0] <= t['message'] <= comp['epoch_messages'][1]):
            errs.append('%s: outside the compacted epoch' % tag)
        if t['text'] not in record_text(r):
            errs.append('%s: text not in the record' % tag)
        if t['kind'] not in KINDS or t['status'] not in STATUSES or t['wrapper'] not in WRAPPERS:
            errs.append('%s: bad kind/status/wrapper' % tag)
        ev = t.get('evidence')
        if t['status'] == 'lost':
            if ev is not None:
                errs.append('%s: lost with evidence' % tag)
            if t['kind'] != 'chatter':
                for w in words.get(str(t['line']), []) + [t['text'][:40]]:
                    if w.lower() in hay:
                        errs.append('%s: lost, but %r occurs in the summary or after the boundary' % (tag, w))
                if t['kind'] == 'instruction' and L['case'] in lost_words and str(t['line']) not in words:
                    errs.append('%s: lost instruction without distinctive words' % tag)
        else:
            if not ev:
                errs.append('%s: %s without evidence' % (tag, t['status']))
            else:
                want = 'summary' if t['status'] == 'in_summary' else 'after'
                if ev['where'] != want:
                    errs.append('%s: %s with evidence from %s' % (tag, t['status'], ev['where']))
                if ev['where'] == 'summary' and ev['line'] != comp['summary_line']:
                    errs.append('%s: summary evidence on line %d' % (tag, ev['line']))
                if ev['where'] == 'after' and ev['line'] <= comp['summary_line']:
                    errs.append('%s: after evidence on line %d' % (tag, ev['line']))
                if ev['quote'] not in record_text(recs[ev['line'] - 1]):
                    errs.append('%s: quote not found on line %d: %r' % (tag, ev['line'], ev['quote'][:60]))
        if t.get('partial') and not t.get('lost_part'):
            errs.append('%s: partial without lost_part' % tag)
        if t['status'] == 'repeated_later' and t['kind'] == 'instruction':
            if not t.get('repeated_after') or not set(t['repeated_after']) <= REPEATS:
                errs.append('%s: repeated_later without a valid repeated_after' % tag)
        elif t.get('repeated_after'):
            errs.append('%s: repeated_after on a %s turn' % (tag, t['status']))
        for v in t.get('values', []):
            if v['status'] not in STATUSES:
                errs.append('%s: bad value status' % tag)
    for sk in L['skipped']:
        if idx.get(sk['line']) != sk['message'] or not is_human(recs[sk['line'] - 1]):
            errs.append('skipped line %d: not a human record numbered %d' % (sk['line'], sk['message']))
    for a in L['after_boundary_user_turns']:
        if idx.get(a['line']) != a['message'] or not is_human(recs[a['line'] - 1]) or a['line'] <= comp['summary_line']:
            errs.append('after-boundary turn line %d: not a human record numbered %d' % (a['line'], a['message']))
    return errs, L


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else None
    root = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, 'forget-heldout')
    if not binary:
        for b in ('debug', 'release'):
            cand = os.path.join(REPO, 'target', b, 'ctxlens')
            if os.path.exists(cand):
                binary = cand
                break
    lw_path = os.path.join(root, 'build', 'lost_words.json')
    lost_words = json.load(open(lw_path)) if os.path.exists(lw_path) else {}
    dirs = sorted(os.path.join(root, x) for x in os.listdir(root) if os.path.exists(os.path.join(root, x, 'labels.json')))
    bad = 0
    counts = {}
    for d in dirs:
        errs, L = check_case(binary, d, lost_words)
        for t in L['turns']:
            k = (t['kind'], t['status'])
            counts[k] = counts.get(k, 0) + 1
        print('%-26s %s' % (os.path.basename(d), 'ok' if not errs else 'FAIL'))
        for e in errs:
            print('    ' + e)
        bad += bool(errs)
    print()
    print('%d cases, %d failing' % (len(dirs), bad))
    print('labelled turns: ' + ', '.join('%s/%s %d' % (k[0], k[1], v) for k, v in sorted(counts.items())))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
