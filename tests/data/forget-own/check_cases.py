#!/usr/bin/env python3
"""Mechanical checks of the labelled cases in this folder.

    python3 check_cases.py [BIN] [CASES_DIR]

BIN defaults to target/release/ctxlens (else target/debug/ctxlens) of this repository.
For every */labels.json:

  * `BIN history case.jsonl --json` exits 0 and reports exactly one compaction, at the
    labelled boundary line, with the labelled summary message index;
  * the message numbering (re-derived here: one message per user record, except that
    consecutive tool-result records share one, and consecutive lines of one assistant
    message.id share one; isMeta records are not messages) gives the same message count,
    epoch bounds and summary index as the report;
  * every labelled turn's `line` holds a human turn (a user record that is not a tool
    result, isMeta or the compact summary) whose index is the labelled `message`, inside
    the compacted epoch, and the labelled `text` is in that record;
  * epoch 0's human-turn count equals labelled turns + skipped records; epoch 1's equals the
    after-boundary user turns;
  * every human turn the report names in its loss `instructions` list is labelled at the
    same index (only the indices are read, not the verdicts);
  * every evidence quote is an exact substring of the record it points to (the summary, or a
    record after the boundary), lost turns have no evidence, partial turns name a lost_part.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, '..', '..', '..'))
STATUSES = {'in_summary', 'repeated_later', 'lost'}
KINDS = {'instruction', 'user_fact', 'chatter'}
WRAPPERS = {None, 'ide_opened_file', 'ide_selection', 'system-reminder', 'command-args'}


def record_text(rec):
    c = rec.get('message', {}).get('content')
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


def is_human(rec):
    return rec.get('type') == 'user' and not rec.get('isMeta') and not rec.get('isCompactSummary') and not is_tool_result(rec)


def check_case(binary, d):
    errs = []
    L = json.load(open(os.path.join(d, 'labels.json')))
    path = os.path.join(d, L.get('file', 'case.jsonl'))
    recs = [json.loads(l) for l in open(path)]
    p = subprocess.run([binary, 'history', path, '--json'], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        return ['ctxlens exit %d: %s' % (p.returncode, p.stderr.strip()[:200])], L
    rep = json.loads(p.stdout)
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
    if not s.get('isCompactSummary') or s.get('parentUuid') != b.get('uuid'):
        errs.append('summary line is not the isCompactSummary record after the boundary')
    # uuid chain
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
    labelled = {}
    for t in L['turns']:
        tag = 'turn@%d' % t['line']
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
        if t['status'] == 'repeated_later' and not t.get('repeated_after') and t['kind'] == 'instruction':
            errs.append('%s: repeated_later without repeated_after' % tag)
        for v in t.get('values', []):
            if v['status'] not in STATUSES:
                errs.append('%s: bad value status' % tag)
        labelled[t['message']] = t
    for sk in L['skipped']:
        if idx.get(sk['line']) != sk['message'] or not is_human(recs[sk['line'] - 1]):
            errs.append('skipped line %d: not a human record numbered %d' % (sk['line'], sk['message']))
    for a in L['after_boundary_user_turns']:
        if idx.get(a['line']) != a['message'] or not is_human(recs[a['line'] - 1]) or a['line'] <= comp['summary_line']:
            errs.append('after-boundary turn line %d: not a human record numbered %d' % (a['line'], a['message']))
    # the report's per-turn list: indices only
    loss = c.get('loss') or {}
    items = loss.get('instructions')
    if isinstance(items, list):
        skipped = {sk['message'] for sk in L['skipped']}
        for e in items:
            m = e.get('message') if isinstance(e, dict) else e
            if isinstance(m, int) and m not in labelled and m not in skipped:
                errs.append('report lists message %d, which is not labelled' % m)
    return errs, L


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else None
    root = sys.argv[2] if len(sys.argv) > 2 else HERE
    if not binary:
        for b in ('release', 'debug'):
            cand = os.path.join(REPO, 'target', b, 'ctxlens')
            if os.path.exists(cand):
                binary = cand
                break
    dirs = sorted(os.path.join(root, x) for x in os.listdir(root) if os.path.exists(os.path.join(root, x, 'labels.json')))
    bad = 0
    counts = {}
    for d in dirs:
        errs, L = check_case(binary, d)
        for t in L['turns']:
            k = (t['kind'], t['status'])
            counts[k] = counts.get(k, 0) + 1
        print('%-24s %s' % (os.path.basename(d), 'ok' if not errs else 'FAIL'))
        for e in errs:
            print('    ' + e)
        bad += bool(errs)
    print()
    print('%d cases, %d failing' % (len(dirs), bad))
    print('labelled turns: ' + ', '.join('%s/%s %d' % (k[0], k[1], v) for k, v in sorted(counts.items())))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
