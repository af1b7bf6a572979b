"""Writes every case: python3 build_all.py [name-prefix ...]"""
import sys
import cases_a
mods = [cases_a]
try:
    import cases_b
    mods.append(cases_b)
except ImportError:
    pass
want = sys.argv[1:]
for m in mods:
    for f in m.CASES:
        if want and not any(f.__name__.startswith(w) for w in want):
            continue
        try:
            labels = f()
            t = labels['turns']
            print('%-30s turns=%d boundary=%d summary_msg=%d' % (labels['case'], len(t), labels['compaction']['boundary_line'],
                  labels['compaction']['summary_message']))
        except AssertionError as e:
            print('FAIL', f.__name__, e)
