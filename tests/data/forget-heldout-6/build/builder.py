"""(Copied from tests/data/forget-heldout-5/build/builder.py, itself copied from forget-heldout-4's and adapted from forget-heldout-3's and forget-heldout-2's.) Builds one labelled compaction case
(case.jsonl + labels.json) from a small spec.

Every record is written in the spec: human turns, assistant text, tool calls and their
results, the compaction summary and the records after it. Only the record envelope
(field names, `file-history-snapshot` records, one line per content block sharing a
`message.id`, one line per tool result, the compact_boundary / isCompactSummary pair, the
client wrappers) follows the shapes of the real Claude Code logs under
tests/data/real-transcripts/claude-code-jsonl/; no record content is copied from them.

The labels (kind, status, summary_form, evidence quotes, ...) are the labeller's
judgement, written by hand in the spec; this file only places the records, numbers the
lines and messages, and refuses a spec whose quotes are not found.
"""
import base64
import json
import os
import random
import re
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..'))
REAL_REL = 'tests/data/real-transcripts/claude-code-jsonl/'

# invented projects; `envelope` names the real log whose record envelope the case imitates
ENV20 = 'codemie-autocompact-624a4a58.jsonl'
ENV21 = 'worktrees-ef958aa1.jsonl'
FAMILIES = {
    'dotnet': dict(cwd='/home/gareth/src/tidewatch', gitBranch='gauge-ingest', model='claude-opus-4-7',
                   home='/home/gareth', proj='-home-gareth-src-tidewatch'),
    'electron': dict(cwd='/Users/priya/code/podcut', gitBranch='silence-trim', model='claude-sonnet-4-5-20250929',
                     home='/Users/priya', proj='-Users-priya-code-podcut'),
    'vba': dict(cwd='/home/dana/work/timesheet-macros', gitBranch='overtime', model='claude-sonnet-4-5-20250929',
                home='/home/dana', proj='-home-dana-work-timesheet-macros'),
    'perl': dict(cwd='/home/hugh/sites/kinroots', gitBranch='gedcom-import', model='claude-opus-4-7',
                 home='/home/hugh', proj='-home-hugh-sites-kinroots'),
    'matlab': dict(cwd='/Users/nora/lab/hearing-fb', gitBranch='gammatone', model='claude-opus-4-7',
                   home='/Users/nora', proj='-Users-nora-lab-hearing-fb'),
    'apex': dict(cwd='/Users/keisha/sf/foodbank-crm', gitBranch='donation-rollup', model='claude-sonnet-4-5-20250929',
                 home='/Users/keisha', proj='-Users-keisha-sf-foodbank-crm'),
    'elm': dict(cwd='/home/mads/proj/braetspil-booking', gitBranch='table-grid', model='claude-sonnet-4-5-20250929',
                home='/home/mads', proj='-home-mads-proj-braetspil-booking'),
    'fortran': dict(cwd='/home/owen/models/floodroute', gitBranch='muskingum-cunge', model='claude-opus-4-7',
                    home='/home/owen', proj='-home-owen-models-floodroute'),
    'pwsh': dict(cwd='/Users/tyler/it/district-ad-provision', gitBranch='fall-rollover', model='claude-opus-4-7',
                 home='/Users/tyler', proj='-Users-tyler-it-district-ad-provision'),
    'graphql': dict(cwd='/home/arjun/dev/pedalshare-api', gitBranch='dock-availability', model='claude-sonnet-4-5-20250929',
                    home='/home/arjun', proj='-home-arjun-dev-pedalshare-api'),
    'hass': dict(cwd='/home/ruth/hacs/warmth-heatpump', gitBranch='modbus-coordinator', model='claude-sonnet-4-5-20250929',
                 home='/home/ruth', proj='-home-ruth-hacs-warmth-heatpump'),
    'astropy': dict(cwd='/Users/elin/obs/cepheid-photometry', gitBranch='lightcurves', model='claude-opus-4-7',
                    home='/Users/elin', proj='-Users-elin-obs-cepheid-photometry'),
}
VERSIONS = {'2.0': '2.0.76', '2.1': '2.1.114', 'short': '2.0.42'}  # default per style; a case may name its own
SLUGS = ['amber-tiding-heron', 'calm-splicing-badger', 'velvet-routing-ibis', 'plucky-folding-marten',
         'gentle-tuning-osprey', 'rustic-sorting-gecko', 'nimble-ferrying-lynx', 'sunny-charting-newt']

CUT = 1000

def cut(s, n=CUT):
    if not isinstance(s, str) or len(s) <= n:
        return s
    i = s.rfind('\n', 0, n)
    return s[:i if i > n // 2 else n]


def cut_obj(o):
    if isinstance(o, str):
        return cut(o)
    if isinstance(o, list):
        return [cut_obj(x) for x in o]
    if isinstance(o, dict):
        return {k: cut_obj(v) for k, v in o.items()}
    return o


def tiny_png(rgb=(200, 60, 60), size=2):
    """A valid size x size PNG of one colour."""
    def chunk(kind, data):
        c = struct.pack('>I', len(data)) + kind + data
        return c + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
    raw = b''.join(b'\x00' + bytes(rgb) * size for _ in range(size))
    png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', size, size, 8, 2, 0, 0, 0)) \
        + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')
    return base64.b64encode(png).decode()


def record_text(rec):
    """The text of a record as the labels quote it: a string content, or its text blocks
    (and tool_result contents) joined with a newline."""
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


class Case:
    def __init__(self, name, family, style, seed, trigger='auto', pre_tokens=155000, start='2025-11-03T09:12:00', version=None):
        self.name, self.family, self.style = name, family, style
        self.fam = FAMILIES[family]
        self.rng = random.Random(seed)
        self.version = version or VERSIONS[style]
        self.slug = self.rng.choice(SLUGS)
        self.session = self.uuid()
        self.trigger, self.pre_tokens = trigger, pre_tokens
        y, mo, d = map(int, start[:10].split('-'))
        h, mi, s = map(int, start[11:].split(':'))
        self.t = ((d * 24 + h) * 60 + mi) * 60 + s
        self.ymo = '%04d-%02d' % (y, mo)
        self.lines = []          # records, in order
        self.last_uuid = None
        self.cache_read = 18000 + self.rng.randint(0, 6000)
        self.turns = {}          # id -> dict(line, record)
        self.after_turns = []
        self.skipped = []
        self.boundary_line = None
        self.summary_line = None
        self.summary = None
        self.after_lines = {}    # anchor id -> line
        self.idmap = {}

    # ---- ids and envelope
    def uuid(self):
        h = '%032x' % self.rng.getrandbits(128)
        return '%s-%s-4%s-%s%s-%s' % (h[:8], h[8:12], h[13:16], '89ab'[int(h[16], 16) % 4], h[17:20], h[20:32])

    def b62(self, n):
        a = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
        return ''.join(self.rng.choice(a) for _ in range(n))

    def msg_id(self):
        return 'msg_01' + self.b62(22)

    def tool_id(self):
        return 'toolu_01' + self.b62(22)

    def ts(self, lo=2, hi=25):
        self.t += self.rng.randint(lo, hi)
        s = self.t
        d, s = divmod(s, 86400)
        h, s = divmod(s, 3600)
        m, s = divmod(s, 60)
        return '%s-%02dT%02d:%02d:%02d.%03dZ' % (self.ymo, d, h, m, s, self.rng.randint(0, 999))

    def env(self):
        env = {'parentUuid': self.last_uuid, 'isSidechain': False, 'userType': 'external', 'cwd': self.fam['cwd'],
                'sessionId': self.session, 'version': self.version, 'gitBranch': self.fam['gitBranch'], 'slug': self.slug}
        if self.style == '2.1':
            env['entrypoint'] = 'cli'
        return env

    def push(self, rec):
        self.lines.append(rec)
        if 'uuid' in rec:
            self.last_uuid = rec['uuid']
        return len(self.lines)

    # ---- records
    def snapshot(self, mid):
        self.push({'type': 'file-history-snapshot', 'messageId': mid,
                   'snapshot': {'messageId': mid, 'trackedFileBackups': {}, 'timestamp': self.ts(1, 2)},
                   'isSnapshotUpdate': False})

    def user(self, tid, content, label=None, meta=False, after=None, wait=(40, 400)):
        """A human turn (or, with meta=True, an isMeta record)."""
        u = self.uuid()
        if not meta:
            self.snapshot(u)
        r = self.env()
        r['type'] = 'user'
        r['message'] = {'role': 'user', 'content': content}
        if meta:
            r['isMeta'] = True
        r['uuid'] = u
        r['timestamp'] = self.ts(*wait)
        line = self.push(r)
        if tid:
            if self.boundary_line is None:
                assert tid not in self.turns, tid
                self.turns[tid] = dict(line=line, label=label)
            else:
                self.after_lines[tid] = line
                if after is not None:
                    self.after_turns.append(dict(line=line, **after))
        return line

    def skip(self, content, why, snap=False):
        u = self.uuid()
        if snap:
            self.snapshot(u)
        r = self.env()
        r['type'] = 'user'
        r['message'] = {'role': 'user', 'content': content}
        r['uuid'] = u
        r['timestamp'] = self.ts(1, 5)
        line = self.push(r)
        self.skipped.append(dict(line=line, why=why))
        return line

    def local_command(self, name, stdout):
        """A local slash command as Claude Code writes it: the isMeta caveat, the command record and its
        output record (both skipped)."""
        self.user(None, '<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. '
                  'DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you '
                  'to.</local-command-caveat>', meta=True, wait=(5, 30))
        self.skip('<command-name>/%s</command-name>\n            <command-message>%s</command-message>\n            <command-args></command-args>'
                  % (name, name), 'command record (/%s)' % name, snap=True)
        return self.skip('<local-command-stdout>%s</local-command-stdout>' % stdout, 'command output record', snap=True)

    def interrupt(self):
        return self.skip([{'type': 'text', 'text': '[Request interrupted by user for tool use]'}],
                         'client marker ([Request interrupted by user for tool use])')

    def assistant(self, blocks, mid=None, anchor=None):
        """One assistant message, one line per content block (sharing message.id)."""
        mid = mid or self.msg_id()
        lines = []
        for b in blocks:
            r = self.env()
            self.cache_read += self.rng.randint(200, 2500)
            r['message'] = {'model': self.fam['model'], 'id': mid, 'type': 'message', 'role': 'assistant',
                            'content': [b], 'stop_reason': None, 'stop_sequence': None,
                            'usage': {'input_tokens': self.rng.randint(3, 12),
                                      'cache_creation_input_tokens': self.rng.randint(150, 3000),
                                      'cache_read_input_tokens': self.cache_read,
                                      'output_tokens': self.rng.randint(20, 900)}}
            r['requestId'] = 'req_' + self.b62(24)
            r['type'] = 'assistant'
            r['uuid'] = self.uuid()
            r['timestamp'] = self.ts(2, 20)
            lines.append(self.push(r))
        if anchor:
            self.after_lines[anchor] = lines[0]
        return lines

    def results(self, pairs, anchor=None):
        """Tool results, one line each: [(tool_use_id, content, is_error)]."""
        lines = []
        for tid, content, err in pairs:
            r = self.env()
            r['type'] = 'user'
            b = {'tool_use_id': tid, 'type': 'tool_result', 'content': content}
            if err:
                b['is_error'] = True
            r['message'] = {'role': 'user', 'content': [b]}
            r['uuid'] = self.uuid()
            r['timestamp'] = self.ts(1, 15)
            lines.append(self.push(r))
        if anchor:
            self.after_lines[anchor] = lines[0]
        return lines

    def say(self, text, anchor=None):
        return self.assistant([{'type': 'text', 'text': text}], anchor=anchor)

    def tool(self, name, inp, result, text=None, anchor=None, err=False):
        """A written tool call (optionally after a text block) and its result."""
        tid = self.tool_id()
        blocks = ([{'type': 'text', 'text': text}] if text else []) + [
            {'type': 'tool_use', 'id': tid, 'name': name, 'input': inp}]
        self.assistant(blocks)
        return self.results([(tid, result, err)], anchor=anchor)[0]

    def tools(self, calls, text=None, anchor=None):
        """Several tool calls in one assistant message (one line per block), then one result line each:
        calls = [(name, input, result[, is_error])]."""
        ids = [self.tool_id() for _ in calls]
        blocks = ([{'type': 'text', 'text': text}] if text else []) + [
            {'type': 'tool_use', 'id': i, 'name': c[0], 'input': c[1]} for i, c in zip(ids, calls)]
        self.assistant(blocks)
        return self.results([(i, c[2], c[3] if len(c) > 3 else False) for i, c in zip(ids, calls)], anchor=anchor)

    def rejected(self, name, inp, text=None):
        """A tool call the user rejects, then the client's interrupt marker (skipped)."""
        self.tool(name, inp, "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file "
                  "edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you "
                  "how to proceed.", text=text, err=True)
        return self.interrupt()

    # ---- compaction
    def compact(self, summary):
        b = {'parentUuid': None, 'logicalParentUuid': self.last_uuid, 'isSidechain': False, 'userType': 'external',
             'cwd': self.fam['cwd'], 'sessionId': self.session, 'version': self.version,
             'gitBranch': self.fam['gitBranch'], 'slug': self.slug, 'type': 'system', 'subtype': 'compact_boundary',
             'content': 'Conversation compacted', 'isMeta': False, 'timestamp': self.ts(30, 90), 'uuid': self.uuid(),
             'level': 'info', 'compactMetadata': {'trigger': self.trigger, 'preTokens': self.pre_tokens}}
        self.boundary_line = self.push(b)
        self.last_uuid = b['uuid']
        r = self.env()
        r['type'] = 'user'
        r['message'] = {'role': 'user', 'content': summary}
        r['isVisibleInTranscriptOnly'] = True
        r['isCompactSummary'] = True
        r['uuid'] = self.uuid()
        r['timestamp'] = self.ts(1, 3)
        self.summary_line = self.push(r)
        self.summary = summary
        self.cache_read = 16000 + self.rng.randint(0, 5000)

    def transcript_path(self):
        return '%s/.claude/projects/%s/%s.jsonl' % (self.fam['home'], self.fam['proj'], self.session)

    # ---- numbering (the model of `ctxlens history` numbering, checked against it by check_cases.py)
    def numbering(self):
        idx, n, prev = {}, -1, None
        for i, r in enumerate(self.lines, 1):
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
                c = r['message']['content']
                tr = isinstance(c, list) and c and all(b.get('type') == 'tool_result' for b in c)
                if tr and prev and prev[0] == 'tr':
                    idx[i] = n
                    continue
                n += 1
                idx[i] = n
                prev = ('tr', None) if tr else ('u', None)
        return idx, n + 1

    # ---- output
    def write(self, meta, check_lost_words=True):
        d = os.path.join(ROOT, self.name)
        os.makedirs(d, exist_ok=True)
        idx, total = self.numbering()
        after_text = '\n'.join(record_text(r) for r in self.lines[self.summary_line:] if r.get('type') in ('user', 'assistant'))
        turns = []
        self.lost_words = {}
        for tid, t in self.turns.items():
            lab = dict(t['label'])
            line = t['line']
            rec = self.lines[line - 1]
            full = record_text(rec)
            text = lab.pop('text')
            assert text in full, '%s %s: text not in record' % (self.name, tid)
            distinct = lab.pop('distinct', None)
            ev = lab.get('evidence')
            if ev:
                if ev['where'] == 'summary':
                    ev = dict(where='summary', line=self.summary_line, quote=ev['quote'], **({'how': ev['how']} if 'how' in ev else {}))
                else:
                    eline = self.after_lines[ev['at']]
                    ev = dict(where='after', line=eline, quote=ev['quote'], **({'how': ev['how']} if 'how' in ev else {}))
                target = record_text(self.lines[ev['line'] - 1])
                assert ev['quote'] in target, '%s %s: quote not found: %r' % (self.name, tid, ev['quote'])
            if lab['status'] == 'lost' and distinct:
                self.lost_words[str(line)] = distinct
            if lab['status'] == 'lost':
                assert ev is None
                if check_lost_words and lab['kind'] != 'chatter':
                    assert distinct, '%s %s: lost turn needs distinct words' % (self.name, tid)
                    hay = (self.summary + '\n' + after_text).lower()
                    for w in distinct + [text[:40]]:
                        assert w.lower() not in hay, '%s %s: lost turn word %r found after the boundary' % (self.name, tid, w)
            out = {'message': idx[line], 'line': line, 'kind': lab['kind'], 'key': lab['key'],
                   'text': text if len(text) <= 300 else text[:300], 'wrapper': lab.get('wrapper'),
                   'summary_form': lab['summary_form'], 'partial': lab.get('partial', False),
                   'lost_part': lab.get('lost_part'), 'status': lab['status'], 'evidence': ev,
                   'repeated_after': lab.get('repeated_after'), 'origin': lab.get('origin', 'written'),
                   'values': lab.get('values', []), 'tags': lab['tags']}
            if out['kind'] != 'instruction':
                # the shared examples give chatter and user_fact turns no repeated_after, in this key order
                order = ['message', 'line', 'kind', 'key', 'text', 'wrapper', 'partial', 'lost_part', 'origin', 'values',
                         'status', 'evidence', 'summary_form', 'tags']
                assert out['repeated_after'] is None
                out = {k: out[k] for k in order}
            turns.append(out)
        turns.sort(key=lambda x: x['line'])
        skipped = [dict(line=s['line'], message=idx[s['line']], why=s['why']) for s in self.skipped]
        after = []
        for a in self.after_turns:
            a = dict(a)
            a['message'] = idx[a['line']]
            if a.get('repeat_of') in self.turns:
                a['repeat_of'] = 'message %d' % idx[self.turns[a['repeat_of']]['line']]
            after.append({k: a[k] for k in ['line', 'message'] + [k for k in a if k not in ('line', 'message')]})
        labels = {
            'case': self.name, 'file': 'case.jsonl', 'origin': 'synthetic', 'split': 'heldout',
            'built_from': [REAL_REL + (ENV21 if self.style == '2.1' else ENV20)],
            'summary_style': {'2.0': 'Claude Code 2.0 style (Analysis + 9 sections incl. "All user messages")',
                              '2.1': 'Claude Code 2.1 style (9 sections incl. "All user messages", transcript path footer)',
                              'short': 'sections without an "All user messages" list'}[self.style],
            'summary_written_by': 'labeller (not a model)',
            'compaction': {'boundary_line': self.boundary_line, 'summary_line': self.summary_line,
                           'summary_message': idx[self.summary_line], 'epoch_messages': [0, idx[self.summary_line] - 1],
                           'trigger': self.trigger, 'pre_tokens': self.pre_tokens},
            'turns': turns, 'skipped': skipped, 'after_boundary_user_turns': after,
            'notes': ('situations: ' + ', '.join(meta['situations']) + ('. ' + meta['notes'] if meta.get('notes') else '')),
        }
        with open(os.path.join(d, 'case.jsonl'), 'w') as fh:
            for r in self.lines:
                fh.write(json.dumps(r, ensure_ascii=False, separators=(',', ':')) + '\n')
        lw_path = os.path.join(HERE, 'lost_words.json')
        lw = json.load(open(lw_path)) if os.path.exists(lw_path) else {}
        lw[self.name] = self.lost_words
        with open(lw_path, 'w') as fh:
            json.dump(lw, fh, indent=1, ensure_ascii=False, sort_keys=True)
            fh.write('\n')
        with open(os.path.join(d, 'labels.json'), 'w') as fh:
            json.dump(labels, fh, indent=1, ensure_ascii=False)
            fh.write('\n')
        return labels


# ---- tool result shapes (as Claude Code writes them)
def numbered(body, start=1):
    return '\n'.join('%6d\u2192%s' % (i, l) for i, l in enumerate(body.split('\n'), start))


def edited(path, body, start=1):
    return "The file %s has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n%s" % (path, numbered(body, start))


def created(path):
    return 'File created successfully at: %s' % path


TODO_OK = ('Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. '
           'Please proceed with the current tasks if applicable')


def todos(*items):
    """items: (content, activeForm, status) triples."""
    return {'todos': [{'content': c, 'status': s, 'activeForm': a} for c, a, s in items]}


def command(name, args):
    return '<command-message>%s is running\u2026</command-message>\n<command-name>/%s</command-name>\n<command-args>%s</command-args>' % (name, name, args)


# ---- wrappers, in the shapes Claude Code writes them (as in the shared example cases)
def ide_opened(path):
    return {'type': 'text', 'text': '<ide_opened_file>The user opened the file %s in the IDE. This may or may not be related to the current task.</ide_opened_file>' % path}


def ide_selection(path, a, b, code):
    return {'type': 'text', 'text': '<ide_selection>The user selected the lines %d to %d from %s:\n%s\n\nThis may or may not be related to the current task.</ide_selection>' % (a, b, path, code)}


def reminder_modified(path):
    return ('<system-reminder>\nNote: %s was modified, either by the user or by a linter. Don\'t tell the user this, since they are already aware. '
            'This change was intentional, so make sure to take it into account as you proceed (ie. don\'t revert it unless the user asks you to).\n</system-reminder>' % path)


def reminder_todo_empty():
    return ('<system-reminder>\nThis is a reminder that your todo list is currently empty. DO NOT mention this to the user explicitly because '
            'they are already aware. If you are working on tasks that would benefit from a todo list please use the TodoWrite tool to create '
            'one. If not, please feel free to ignore. Again do not mention this message to the user.\n</system-reminder>')


def text(t):
    return {'type': 'text', 'text': t}


def image(rgb=(200, 60, 60)):
    return {'type': 'image', 'source': {'type': 'base64', 'media_type': 'image/png', 'data': tiny_png(rgb)}}


# ---- summaries
HEAD_20 = 'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n'
TAIL_20 = 'Please continue the conversation from where we left it off without asking the user any further questions. Continue with the last task that you were asked to work on.'
HEAD_21 = 'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n'
TAIL_21 = ('If you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: %s\n'
           'Continue the conversation from where it left off without asking the user any further questions. Resume directly — do not acknowledge the summary, '
           'do not recap what was happening, do not preface with "I\'ll continue" or similar. Pick up the last task as if the break never happened.')

SECTIONS_9 = ['Primary Request and Intent', 'Key Technical Concepts', 'Files and Code Sections', 'Errors and fixes',
              'Problem Solving', 'All user messages', 'Pending Tasks', 'Current Work', 'Optional Next Step']
SECTIONS_SHORT = ['Primary Request and Intent', 'Key Technical Concepts', 'Files and Code Sections', 'Problem Solving',
                  'Pending Tasks', 'Current Work', 'Optional Next Step']


def bullets(items, indent='   '):
    if isinstance(items, str):
        return indent + items.replace('\n', '\n' + indent)
    return '\n'.join(indent + '- ' + x.replace('\n', '\n' + indent + '  ') for x in items)


def summary_20(analysis, s):
    """s: dict section name -> list of bullets or a paragraph."""
    out = [HEAD_20 + 'Analysis:\n' + analysis.strip() + '\n\nSummary:']
    for i, name in enumerate(SECTIONS_9, 1):
        out.append('## %d. %s:\n%s' % (i, name, bullets(s[name])))
    return '\n'.join(x if j == 0 else x + '\n' for j, x in enumerate(out)).rstrip('\n') + '\n' + TAIL_20


def summary_21(case, s):
    out = [HEAD_21 + 'Summary:']
    for i, name in enumerate(SECTIONS_9, 1):
        out.append('%d. %s:\n%s\n' % (i, name, bullets(s[name])))
    return '\n'.join(out) + '\n' + TAIL_21 % case.transcript_path()


def summary_short(s):
    out = [HEAD_20 + 'Summary:']
    for i, name in enumerate(SECTIONS_SHORT, 1):
        out.append('%d. %s:\n%s\n' % (i, name, bullets(s[name])))
    return '\n'.join(out).rstrip('\n') + '\n' + TAIL_20


def lab(kind, key, text, status, form, tags, ev=None, **kw):
    d = dict(kind=kind, key=key, text=text, status=status, summary_form=form, tags=tags, evidence=ev)
    d.update(kw)
    return d


def S(quote):
    return {'where': 'summary', 'quote': quote}


def A(at, quote, how=None):
    d = {'where': 'after', 'at': at, 'quote': quote}
    if how:
        d['how'] = how
    return d
