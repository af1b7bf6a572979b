#!/usr/bin/env python3
"""The loss report's lost-instruction precision and recall per class of turn, over one or
more labelled sets (the labellers' tags: how the summary carries a turn, its language, its
wrapper, how it is said again…), with score.py's reading of the report.

    python3 by_class.py BIN SET_DIR [SET_DIR…] [--min N]

For each tag T: recall = labelled-lost instructions tagged T that the report lists, over
labelled-lost instructions tagged T; precision = listed turns tagged T that are
labelled-lost instructions, over listed turns tagged T. A turn counts in every class it is
tagged with. Tags seen fewer than --min times (default 3) are left out of the table.
"""
import argparse
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import score  # noqa: E402  (the benchmark's own reading of the report)


def tags_of(turn):
    tags = set(turn.get('tags', []))
    tags.add('kind:%s' % turn['kind'])
    return tags


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('binary')
    ap.add_argument('sets', nargs='+')
    ap.add_argument('--min', type=int, default=3)
    ap.add_argument('--timeout', type=float, default=120)
    args = ap.parse_args()
    gold = collections.Counter()      # labelled-lost instructions per tag
    found = collections.Counter()     # of those, listed
    listed = collections.Counter()    # listed turns per tag
    right = collections.Counter()     # of those, labelled-lost instructions
    seen = collections.Counter()
    cases = 0
    for root in args.sets:
        for case_dir in score.find_cases(root):
            labels = json.load(open(os.path.join(case_dir, 'labels.json')))
            path = os.path.join(case_dir, labels.get('file', 'case.jsonl'))
            report = score.run_report(args.binary, path, args.timeout)
            comp, _ = score.pick_compaction(report, labels)
            if comp is None:
                print('%s: no compaction reported' % case_dir, file=sys.stderr)
                continue
            cases += 1
            loss = comp.get(score.LOSS_FIELD) or {}
            turns = labels['turns']
            names = score.listed_turns(score.lost_instruction_entries(loss), turns)
            for t in turns:
                is_gold = t['kind'] == 'instruction' and t['status'] == 'lost'
                is_listed = t['message'] in names
                for tag in tags_of(t):
                    seen[tag] += 1
                    gold[tag] += is_gold
                    found[tag] += is_gold and is_listed
                    listed[tag] += is_listed
                    right[tag] += is_listed and is_gold
    print('%d cases from %s' % (cases, ', '.join(os.path.basename(s.rstrip('/')) for s in args.sets)))
    print('%-36s %6s %6s %9s %6s %6s %7s' % ('class (tag)', 'turns', 'lost', 'recall', 'listed', 'right', 'prec.'))
    for tag in sorted(seen, key=lambda t: (-seen[t], t)):
        if seen[tag] < args.min:
            continue
        recall = '%.2f' % (found[tag] / gold[tag]) if gold[tag] else '-'
        precision = '%.2f' % (right[tag] / listed[tag]) if listed[tag] else '-'
        print('%-36s %6d %6d %9s %6d %6d %7s' % (tag, seen[tag], gold[tag], recall, listed[tag], right[tag], precision))


if __name__ == '__main__':
    main()
