"""o07-o12: selection, system-reminder, opened-file."""
from builder import (Case, real_text, origin, lab, S, A, ide_opened, ide_selection, reminder_modified, text, image,
                     summary_20, summary_21, summary_short)

CCL = '/Users/dain/workspace/claude-code-log'
REPO = '/Users/user/repo'
V = '/home/kenth56/vsla/docs/papers/src'
MUSIC = '/Users/chip/dev/ai-music'


def o07():
    c = Case('o07-selection', 'cclimg', '2.0', seed=107, pre_tokens=157003, start='2025-11-04T11:30:00')
    sel1 = ide_selection(CCL + '/claude_code_log/templates/components/timeline.html', 212, 221,
                         '        // TODO: always use tabs in this file, never spaces\n'
                         '        // Filter timeline items based on current message filters\n'
                         '        function applyFilters() {\n'
                         '            if (!timeline || !items) return;\n\n'
                         '            // TODO: hide vis-group instead\n\n'
                         '            // Update timeline with the modified items\n'
                         "            timeline.setItems(items.filter(item => !timelineIdToElement.get(item.id).classList.contains('filtered-hidden')));\n"
                         '        }')
    t1 = 'this filter loop is a mess, can u simplify it so it doesnt go over every single item'
    c.user('T1', [sel1, text(t1)], lab('instruction', 'simplify the timeline filter so it does not iterate over every item', t1, 'in_summary',
                                       'paraphrase', ['form:paraphrase', 'wrapper:ide_selection', 'selection', 'selection:imperative'],
                                       S('Simplify the timeline filtering code so it stops iterating over every individual item'),
                                       wrapper='ide_selection'))
    c.seg(2, 14)
    c.interrupt()
    f2 = 'vis-timeline is 7.7.3 from the cdn'
    c.user('F2', f2, lab('user_fact', 'vis-timeline version 7.7.3 (CDN)', f2, 'in_summary', 'form:7.7.3', ['fact'],
                         S('vis-timeline 7.7.3, loaded from the CDN'),
                         values=[{'value': '7.7.3', 'status': 'in_summary', 'found_as': '7.7.3'}]))
    c.say('Thanks. 7.7.3 supports `visible` on groups, so the groups can be hidden directly.')
    sel5 = ide_selection(CCL + '/test/test_timeline_filters.py', 12, 17,
                         '# NOTE: never commit the generated html fixtures, they are rebuilt in CI\n'
                         'def test_filter_hides_group(page, timeline_html):\n'
                         '    page.goto(timeline_html)\n'
                         '    page.click(\'.filter-toggle[data-filter="tool_use"]\')\n'
                         '    assert page.locator(\'.vis-label:has-text("tool_use")\').is_hidden()')
    t5 = 'why does this fail now'
    c.user('T5', [sel5, text(t5)], lab('instruction', 'why does test_filter_hides_group fail now', t5, 'in_summary', 'paraphrase',
                                       ['form:paraphrase', 'wrapper:ide_selection', 'selection', 'selection:imperative'],
                                       S('The user asked why `test_filter_hides_group` in `test/test_timeline_filters.py` started failing'),
                                       wrapper='ide_selection'))
    c.seg(23, 28)
    c.user('C4', 'thanks!', lab('chatter', 'chatter: thanks!', 'thanks!', 'lost', 'omitted', ['chatter']))
    c.say("You're welcome!")
    sel3 = ide_selection(CCL + '/claude_code_log/templates/components/timeline_styles.css', 58, 61,
                         '.vis-label.vis-group-level-0 {\n    background-color: #e9ecef;\n    font-weight: 600;\n}')
    t3 = 'make the header colour the same as the items, its darker atm'
    c.user('T3', [sel3, text(t3)], lab('instruction', 'make the group header colour match the items (it is darker)', t3, 'lost', 'omitted',
                                       ['form:omitted', 'wrapper:ide_selection', 'selection'], wrapper='ide_selection',
                                       distinct=['darker', 'header colour', 'same as the items', 'group-level-0']))
    c.seg(42, 44)
    c.compact(summary_20(
        """Going through the conversation:

1. The user selected `applyFilters()` in timeline.html and asked for the filtering to be simplified so it stops visiting every item.
2. My first MultiEdit of timeline.html was rejected by the user.
3. The user gave the library version: vis-timeline 7.7.3 from the CDN.
4. With `test_filter_hides_group` selected, the user asked why it fails now.
5. I searched the templates for the filter toggles (`.filter-toggle`, `filtered-hidden`).""",
        {
            'Primary Request and Intent': [
                'Simplify the timeline filtering code so it stops iterating over every individual item',
                'The user asked why `test_filter_hides_group` in `test/test_timeline_filters.py` started failing',
            ],
            'Key Technical Concepts': [
                'vis-timeline 7.7.3, loaded from the CDN; `DataSet` for items and groups; groups can be hidden with `visible: false`',
                'Message filters: `.filter-toggle[data-filter]` buttons toggle the `filtered-hidden` class',
            ],
            'Files and Code Sections': [
                '`claude_code_log/templates/components/timeline.html`\n  - `applyFilters()` rebuilds the visible items from `timelineIdToElement`',
                '`claude_code_log/templates/transcript.html`\n  - Filter toolbar markup',
                '`test/test_timeline_filters.py`\n  - Browser test `test_filter_hides_group`',
            ],
            'Errors and fixes': ['The first MultiEdit of timeline.html was rejected by the user.'],
            'Problem Solving': 'The filter currently walks every item; hiding the matching vis group instead avoids that.',
            'All user messages': [
                'Asked, with `applyFilters()` selected, for the filter loop to be simplified so it does not walk every item',
                '"vis-timeline is 7.7.3 from the cdn"',
                'Asked why the selected test fails now',
            ],
            'Pending Tasks': ['Rewrite `applyFilters()`', 'Explain the failing test'],
            'Current Work': 'Looking at how the filter toggles are wired in transcript.html.',
            'Optional Next Step': 'Rewrite `applyFilters()` to toggle group visibility.',
        }))
    c.seg(30, 35)
    return c.write({'class': 'selection', 'notes': 'The selected code of two turns carries imperative-looking comments ("TODO: always use tabs in this file, never spaces", "NOTE: never commit the generated html fixtures"), written for the benchmark: they are editor content, not requests; only the text after the <ide_selection> block is the turn.'})


def o08():
    c = Case('o08-selection', 'codemie', '2.1', seed=108, pre_tokens=166219, start='2026-01-24T13:10:00')
    sel1 = ide_selection(REPO + '/src/agents/core/metrics/types.ts', 258, 265,
                         'export interface SyncState {\n'
                         '  // IMPORTANT: always bump SCHEMA_VERSION when you add a field here\n'
                         '  processedRecordIds: string[];\n'
                         '  lastProcessedLine: number;\n'
                         '  lastProcessedTimestamp: number;\n'
                         '  lastSyncedRecordId?: string;\n'
                         '  totalDeltas: number;\n'
                         '}')
    t1 = 'can we drop lastSyncedRecordId? processedRecordIds already covers it'
    c.user('T1', [sel1, text(t1)], lab('instruction', 'drop lastSyncedRecordId; processedRecordIds covers it', t1, 'in_summary', 'paraphrase',
                                       ['form:paraphrase', 'wrapper:ide_selection', 'selection', 'selection:imperative'],
                                       S('Remove `lastSyncedRecordId` from `SyncState`, since `processedRecordIds` already provides the same information'),
                                       wrapper='ide_selection'))
    c.seg(83, 85)
    sel2 = ide_selection(REPO + '/src/providers/plugins/sso/session/processors/metrics/metrics-processor.ts', 118, 119,
                         '    /** Always log the full request payload before sending, for debugging. */\n'
                         "    logger.debug('[metrics] sending payload', JSON.stringify(payload));")
    t2 = 'dont log full payloads, theres user prompts in them. just log how many messages went out'
    c.user('T2', [sel2, text(t2)], lab('instruction', "don't log full payloads (user prompts); log only message counts", t2, 'lost', 'omitted',
                                       ['form:omitted', 'wrapper:ide_selection', 'selection', 'selection:imperative'], wrapper='ide_selection',
                                       distinct=['payload', 'user prompts', 'how many messages']))
    c.seg(152, 157)
    sel3 = ide_selection(REPO + '/src/providers/plugins/sso/session/sync/sso.session-sync.plugin.ts', 42, 42, '  syncInterval: 300000,')
    f3 = 'thats 5 min in prod, we use 30s locally'
    c.user('F3', [sel3, text(f3)], lab('user_fact', 'sync interval 5 min in production, 30 s locally', f3, 'in_summary', 'form:5 minutes / 30 seconds',
                                       ['fact', 'wrapper:ide_selection', 'selection'],
                                       S('Sync interval: 5 minutes in production (`syncInterval: 300000`), 30 seconds locally'),
                                       wrapper='ide_selection',
                                       values=[{'value': '5 min', 'status': 'in_summary', 'found_as': '5 minutes'},
                                               {'value': '30s', 'status': 'in_summary', 'found_as': '30 seconds'}]))
    c.say('Noted.')
    t4 = 'add a unit test for the failure path, mock the api client with vi.fn, no real http calls'
    c.user('T4', t4, lab('instruction', 'unit test for the failure path with the API client mocked via vi.fn (no real HTTP)', t4, 'lost', 'partial',
                         ['form:partial', 'partial'], partial=True, lost_part='mock the API client with vi.fn, no real HTTP calls',
                         distinct=['vi.fn', 'real http', 'mock']))
    c.seg(135, 137)
    c.user('C5', '👍', lab('chatter', 'chatter: 👍', '👍', 'lost', 'omitted', ['chatter']))
    c.seg(139, 143)
    sel6 = ide_selection(REPO + '/src/providers/plugins/sso/session/sync/sso.session-sync.plugin.ts', 160, 165,
                         '    for (let attempt = 1; attempt <= MAX_RETRIES; attempt++) {\n'
                         '      // FIXME: remove this retry loop before release\n'
                         '      const result = await this.syncOnce(session);\n'
                         '      if (result.success) return result;\n'
                         '      await sleep(backoff(attempt));\n'
                         '    }')
    t6 = 'what does this loop do exactly? is it per session or per batch'
    c.user('T6', [sel6, text(t6)], lab('instruction', 'what does the retry loop do; per session or per batch?', t6, 'in_summary', 'paraphrase',
                                       ['form:paraphrase', 'wrapper:ide_selection', 'selection', 'selection:imperative'],
                                       S('The user asked what the retry loop in the session sync plugin does and whether it runs per session or per batch'),
                                       wrapper='ide_selection'))
    c.say('It calls `syncOnce()` for a single session up to `MAX_RETRIES` times, sleeping with backoff between attempts, and returns on the first success. '
          'So it is per session: each session in a sync cycle gets its own retries.')
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Remove `lastSyncedRecordId` from `SyncState`, since `processedRecordIds` already provides the same information',
            'Add a unit test that covers the failure path',
            'The user asked what the retry loop in the session sync plugin does and whether it runs per session or per batch',
        ],
        'Key Technical Concepts': [
            'Sync interval: 5 minutes in production (`syncInterval: 300000`), 30 seconds locally',
            '`SyncState`: `processedRecordIds`, `lastProcessedLine`, `lastProcessedTimestamp`, `totalDeltas`',
            'Metrics processor: `isSyncing` guard, `try/catch/finally`, returns `{ success, message }`',
        ],
        'Files and Code Sections': [
            '`src/agents/core/metrics/types.ts`\n  - `SyncState` interface (field to drop: `lastSyncedRecordId`)',
            '`src/providers/plugins/sso/session/processors/metrics/metrics-processor.ts`\n  - `process()` and its error handling',
            '`src/providers/plugins/sso/session/sync/sso.session-sync.plugin.ts`\n  - Sync interval and the per-session retry loop around `syncOnce()`',
            '`src/providers/plugins/sso/ARCHITECTURE-REFACTORING.md`\n  - Phase 4.1 edge cases and error handling',
        ],
        'Errors and fixes': ['None in this part.'],
        'Problem Solving': ['The retry loop retries one session up to `MAX_RETRIES` times with backoff; it is per session, not per batch.'],
        'All user messages': [
            'Selected the `SyncState` interface and asked to drop `lastSyncedRecordId` because `processedRecordIds` covers it',
            'Selected the `syncInterval` setting and said it is 5 min in prod and 30 s locally',
            'Asked for a unit test of the failure path',
            'Selected the retry loop and asked what it does',
        ],
        'Pending Tasks': ['Drop `lastSyncedRecordId`', 'Write the failure-path unit test'],
        'Current Work': 'Answered the question about the retry loop.',
        'Optional Next Step': 'Update the Phase 4.1 section of ARCHITECTURE-REFACTORING.md to drop `lastSyncedRecordId`.',
    }))
    c.seg(161, 169)
    return c.write({'class': 'selection', 'notes': 'Selected code carries imperative-looking comments ("IMPORTANT: always bump SCHEMA_VERSION ...", "Always log the full request payload ...", "FIXME: remove this retry loop ..."), written for the benchmark; they are not requests. The lost turn at the payload selection asks for the opposite of its selected comment.'})


def o09():
    c = Case('o09-system-reminder', 'codemie', '2.0', seed=109, pre_tokens=154776, start='2026-01-26T08:45:00')
    types = REPO + '/src/agents/core/metrics/types.ts'
    arch = REPO + '/src/providers/plugins/sso/ARCHITECTURE-REFACTORING.md'
    proc = REPO + '/src/providers/plugins/sso/session/processors/conversations/conversation-processor.ts'
    t1 = 'i edited SyncState by hand, use my field names from now on'
    c.user('T1', [text(reminder_modified(types)), text(t1)],
           lab('instruction', 'user hand-edited SyncState: use those field names from now on', t1, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:system-reminder', 'system-reminder'],
               S('The user edited `SyncState` by hand; the field names as the user wrote them are to be used from now on'),
               wrapper='system-reminder'))
    c.seg(46, 54)
    t2 = 'skip sessions that are still being written to. check the file mtime is older than 30s before processing'
    c.user('T2', reminder_modified(proc) + '\n' + t2,
           lab('instruction', 'skip sessions still being written: require file mtime older than 30s', t2, 'lost', 'omitted',
               ['form:omitted', 'wrapper:system-reminder', 'system-reminder', 'reminder:same-string'], wrapper='system-reminder',
               values=[{'value': '30s', 'status': 'lost', 'found_as': None}],
               distinct=['mtime', 'still being written', '30s', '30 s']))
    c.seg(88, 92)
    c.user('C3', 'ok', lab('chatter', 'chatter: ok', 'ok', 'lost', 'omitted', ['chatter']))
    c.seg(95, 104)
    t4 = 'keep conversationId optional in the type, old session files dont have it'
    c.user('T4', reminder_modified(types) + '\n' + reminder_modified(arch) + '\n' + t4,
           lab('instruction', 'keep conversationId optional in the type (old session files lack it)', t4, 'in_summary', 'verbatim',
               ['form:verbatim', 'wrapper:system-reminder', 'system-reminder', 'reminder:two-blocks'],
               S('"keep conversationId optional in the type, old session files dont have it"'), wrapper='system-reminder'))
    c.seg(115, 131)
    f6 = 'fyi the codemie endpoint is /v1/conversations/{id}/history'
    c.user('F6', [text(reminder_modified(arch)), text(f6)],
           lab('user_fact', 'CodeMie endpoint /v1/conversations/{id}/history', f6, 'in_summary', 'form:/v1/conversations/{id}/history',
               ['fact', 'wrapper:system-reminder', 'system-reminder'],
               S('CodeMie conversation history endpoint: `/v1/conversations/{id}/history`'), wrapper='system-reminder',
               values=[{'value': '/v1/conversations/{id}/history', 'status': 'in_summary', 'found_as': '/v1/conversations/{id}/history'}]))
    c.say('Noted.')
    c.compact(summary_20(
        """Chronological analysis:

1. Context: conversation sync state is to live in the same session file as the metrics, extending `SyncState`.
2. The user changed `SyncState` in types.ts manually and wants those field names kept.
3. I looked at a real session file under `~/.codemie/sessions/` to confirm its structure (a JSON object with `syncState`).
4. I updated the Phase 4.1 section of ARCHITECTURE-REFACTORING.md accordingly.
5. The user asked that `conversationId` stay optional in the type because old session files lack it.
6. The user gave the CodeMie endpoint for conversation history.""",
        {
            'Primary Request and Intent': [
                'The user edited `SyncState` by hand; the field names as the user wrote them are to be used from now on',
                '`conversationId` stays optional in the `SyncState` type because older session files do not have it',
                'Document the incremental conversation sync as Phase 4.1 in ARCHITECTURE-REFACTORING.md',
            ],
            'Key Technical Concepts': [
                'Session file `~/.codemie/sessions/{sessionId}.json` holding `syncState` for metrics and conversations',
                'CodeMie conversation history endpoint: `/v1/conversations/{id}/history`',
                'Message-level tracking via `processedRecordIds`',
            ],
            'Files and Code Sections': [
                '`src/agents/core/metrics/types.ts`\n  - `SyncState` (edited by the user)',
                '`src/providers/plugins/sso/ARCHITECTURE-REFACTORING.md`\n  - Phase 4.1: conversation sync via `syncState`',
                '`src/providers/plugins/sso/session/processors/conversations/conversation-processor.ts`\n  - To track processed messages instead of whole sessions',
            ],
            'Errors and fixes': ['None.'],
            'Problem Solving': 'Confirmed the session file is plain JSON with a `syncState` object, not JSONL.',
            'All user messages': [
                'Said they had edited SyncState by hand and asked to keep their field names',
                '"keep conversationId optional in the type, old session files dont have it"',
                '"fyi the codemie endpoint is /v1/conversations/{id}/history"',
            ],
            'Pending Tasks': ['Write the conversation processor changes for Phase 4.1'],
            'Current Work': 'Phase 4.1 in ARCHITECTURE-REFACTORING.md was updated to track `conversationId` in `syncState`.',
            'Optional Next Step': 'Re-read Phase 4.1 and simplify its edge-case section.',
        }))
    c.seg(161, 169)
    return c.write({'class': 'system-reminder', 'notes': 'Reminder shapes: a separate text block before the request; reminder and request in one string; two reminders then the request in one string.'})


def o10():
    c = Case('o10-system-reminder', 'vsla', '2.1', seed=110, pre_tokens=159930, start='2025-07-22T19:15:00')
    t1 = real_text('vsla', 263)
    c.user('T1', [text(reminder_modified(V + '/preamble.tex')), text(t1)],
           lab('instruction', 'C17 instead of C99; fix undefined refs from section 10; versions v0.41, v0.42 … until peer review (0.5); rename 0.4/0.5/0.6',
               t1, 'in_summary', 'paraphrase', ['form:paraphrase', 'wrapper:system-reminder', 'system-reminder'],
               S('State C17 (instead of C99) in the paper, resolve the references that still show as "?" from Section 10 onward, and switch the version numbering to v0.41, v0.42, … until a peer-reviewed version becomes 0.5, renaming the existing 0.4/0.5/0.6 PDFs accordingly'),
               wrapper='system-reminder', origin=origin('vsla', 263),
               values=[{'value': 'C17', 'status': 'in_summary', 'found_as': 'C17'}]))
    c.seg(264, 277)
    t2 = 'the macros in preamble.tex are mine, dont rename or delete any of them'
    c.user('T2', reminder_modified(V + '/preamble.tex') + '\n' + t2,
           lab('instruction', "the preamble.tex macros are the user's: don't rename or delete any", t2, 'lost', 'omitted',
               ['form:omitted', 'wrapper:system-reminder', 'system-reminder', 'reminder:same-string'], wrapper='system-reminder',
               distinct=['are mine', 'delete any', 'rename or delete']))
    c.say("Understood, I'll leave the preamble macros as they are.")
    c.seg(278, 287)
    f6 = 'bib file is docs/papers/src/bibliography.bib'
    c.user('F6', [text(reminder_modified(V + '/bibliography.bib')), text(f6)],
           lab('user_fact', 'bibliography file docs/papers/src/bibliography.bib', f6, 'in_summary',
               'form:/home/kenth56/vsla/docs/papers/src/bibliography.bib',
               ['fact', 'fact:summary_has_absolute_path', 'wrapper:system-reminder', 'system-reminder'],
               S('`/home/kenth56/vsla/docs/papers/src/bibliography.bib`'), wrapper='system-reminder',
               values=[{'value': 'docs/papers/src/bibliography.bib', 'status': 'in_summary',
                        'found_as': '/home/kenth56/vsla/docs/papers/src/bibliography.bib'}]))
    c.seg(308, 335)
    c.user('C4', 'great', lab('chatter', 'chatter: great', 'great', 'lost', 'omitted', ['chatter']))
    c.say('Thanks!')
    t5 = 'also bibtex has to run before the 2nd pdflatex pass, otherwise the refs stay as ?'
    c.user('T5', reminder_modified(V + '/sections/evaluation.tex') + '\n' + t5 + '\n' + reminder_modified(V + '/vsla_paper.tex'),
           lab('instruction', 'run bibtex before the second pdflatex pass', t5, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:system-reminder', 'system-reminder', 'reminder:inside'],
               S('BibTeX has to run before the second pdflatex pass, otherwise the references stay as "?"'), wrapper='system-reminder'))
    c.seg(337, 351)
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'State C17 (instead of C99) in the paper, resolve the references that still show as "?" from Section 10 onward, and switch the version numbering to v0.41, v0.42, … until a peer-reviewed version becomes 0.5, renaming the existing 0.4/0.5/0.6 PDFs accordingly',
            'BibTeX has to run before the second pdflatex pass, otherwise the references stay as "?"',
        ],
        'Key Technical Concepts': [
            'pdflatex → bibtex → pdflatex → pdflatex build sequence',
            'Undefined citations and references render as "?" in the PDF',
            'Version scheme: v0.40, v0.41, v0.42, v0.43 … (0.5 reserved for the peer-reviewed version)',
        ],
        'Files and Code Sections': [
            '`/home/kenth56/vsla/docs/papers/src/bibliography.bib`\n  - Removed the \'\'\' wrapper at the start and end of the file',
            '`/home/kenth56/vsla/docs/papers/src/sections/evaluation.tex`\n  - C99 → C17',
            '`/home/kenth56/vsla/docs/papers/src/preamble.tex`\n  - Modified by the user during the session',
            '`/home/kenth56/vsla/docs/papers/vsla_paper_v0.40.pdf` … `vsla_paper_v0.43.pdf`\n  - Renamed/new builds',
        ],
        'Errors and fixes': ['bibtex found no database until the ''\'\'\' wrapper was removed from bibliography.bib'],
        'Problem Solving': ['Missing citations came from the broken .bib file, not from missing entries.'],
        'All user messages': [
            'Asked to say C17, fix the undefined refs from Section 10 on, and use v0.41/v0.42/… numbering until peer review (0.5), renaming 0.4/0.5/0.6',
            'Gave the path of the bibliography file',
            'Said bibtex must run before the second pdflatex pass',
        ],
        'Pending Tasks': ['Confirm that no "?" remains in v0.43 and count them per location'],
        'Current Work': 'Recompiled with bibtex; citations now resolve.',
        'Optional Next Step': 'Check which citations are still reported as undefined and fix them.',
    }))
    c.seg(352, 363)
    return c.write({'class': 'system-reminder', 'notes': 'Reminder shapes: a separate text block before the request; reminder and request in one string; the request between two reminders in one string (reminder:inside).'})


def o11():
    c = Case('o11-opened-file', 'ccl', '2.0', seed=111, pre_tokens=151488, start='2025-10-16T15:05:00')
    t1 = real_text('ccl', 294)
    c.user('T1', [ide_opened(CCL + '/claude_code_log/renderer.py'), text(t1)],
           lab('instruction', 'the session navigation section disappeared from the combined transcript', t1, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_opened_file', 'opened-file'],
               S('The session navigation section had disappeared from the combined transcript and needed to be restored'),
               wrapper='ide_opened_file', origin=origin('ccl', 294)))
    c.seg(295, 323)
    t2 = 'keep all the nav css in session_nav_styles.css, no inline styles in the templates'
    c.user('T2', [ide_opened(CCL + '/claude_code_log/templates/components/session_nav_styles.css'), text(t2)],
           lab('instruction', 'nav CSS only in session_nav_styles.css; no inline styles in templates', t2, 'lost', 'omitted',
               ['form:omitted', 'wrapper:ide_opened_file', 'opened-file'], wrapper='ide_opened_file',
               distinct=['inline', 'all the nav css']))
    c.say('OK.')
    f5 = 'both the combined page and the session pages render from templates/transcript.html'
    c.user('F5', [ide_opened(CCL + '/claude_code_log/templates/transcript.html'), text(f5)],
           lab('user_fact', 'combined and session pages both render from templates/transcript.html', f5, 'in_summary',
               'form:claude_code_log/templates/transcript.html', ['fact', 'wrapper:ide_opened_file', 'opened-file'],
               S('`claude_code_log/templates/transcript.html` renders both the combined transcript and the individual session pages'),
               wrapper='ide_opened_file',
               values=[{'value': 'templates/transcript.html', 'status': 'in_summary', 'found_as': 'claude_code_log/templates/transcript.html'}]))
    c.say('Right, so one template change covers both.')
    t3 = real_text('ccl', 324)
    c.user('T3', [ide_opened(CCL + '/claude_code_log/templates/components/session_nav.html'), text(t3)],
           lab('instruction', 'reuse templates/components/session_nav.html for the navigation', t3, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_opened_file', 'opened-file'],
               S('Reuse the existing `templates/components/session_nav.html` component instead of duplicating its markup, since the two are nearly identical'),
               wrapper='ide_opened_file', origin=origin('ccl', 324),
               values=[{'value': 'claude_code_log/templates/components/session_nav.html', 'status': 'in_summary',
                        'found_as': 'templates/components/session_nav.html'}]))
    c.seg(325, 346)
    c.user('C4', 'lgtm', lab('chatter', 'chatter: lgtm', 'lgtm', 'lost', 'omitted', ['chatter']))
    c.say('Great, thanks!')
    c.compact(summary_20(
        """Going through the conversation:

1. After `generate_html` started taking `combined_transcript_link`, the session list vanished from the combined transcript; the user reported it.
2. I restored it in transcript.html: individual session pages show the combined-transcript link, the combined page shows the session list.
3. The user noted that `claude_code_log/templates/transcript.html` is the template for both kinds of page.
4. The user suggested reusing `templates/components/session_nav.html`, which is nearly identical to the markup I had duplicated.
5. I replaced the duplicated markup with an include of the component; the combined-link and template rendering tests pass.""",
        {
            'Primary Request and Intent': [
                'The session navigation section had disappeared from the combined transcript and needed to be restored',
                'Reuse the existing `templates/components/session_nav.html` component instead of duplicating its markup, since the two are nearly identical',
            ],
            'Key Technical Concepts': [
                'Jinja2 `{% include %}` of components',
                '`combined_transcript_link` template variable: set on individual session pages, unset on the combined page',
            ],
            'Files and Code Sections': [
                '`claude_code_log/templates/transcript.html` renders both the combined transcript and the individual session pages\n  - Now includes `components/session_nav.html` for the session list',
                '`claude_code_log/templates/components/session_nav.html`\n  - Reused navigation component',
                '`claude_code_log/renderer.py`\n  - `generate_html(..., combined_transcript_link=None)`',
                '`test/test_combined_transcript_link.py`, `test/test_template_rendering.py`',
            ],
            'Errors and fixes': ['The combined page lost its session list when the link variable was added → template condition fixed'],
            'Problem Solving': 'Both scenarios (individual session page, combined page) verified with a small script.',
            'All user messages': [
                'Reported that the session navigation was gone from the combined transcript',
                'Pointed out that both pages are rendered from `claude_code_log/templates/transcript.html`',
                'Suggested reusing `session_nav.html` since it is very similar',
            ],
            'Pending Tasks': ['None'],
            'Current Work': 'Component reuse done; all related tests pass.',
            'Optional Next Step': 'Wait for the next request.',
        }))
    c.seg(248, 259)
    return c.write({'class': 'opened-file'})


def o12():
    c = Case('o12-opened-file', 'sniffly', '2.1', seed=112, pre_tokens=162540, start='2025-11-19T10:25:00')
    t1 = real_text('sniffly', 48)
    c.user('T1', [ide_opened(MUSIC + '/ai_music.py'), text(t1)],
           lab('instruction', 'it must sound like music: overlapping parts, several things at once', t1, 'in_summary', 'verbatim',
               ['form:verbatim', 'wrapper:ide_opened_file', 'opened-file'],
               S('"it doesn\'t sound quite like music. you know, music should have overlapping and multiple things playing at the same time"'),
               wrapper='ide_opened_file', origin=origin('sniffly', 48)))
    c.seg(49, 64)
    t2 = 'use 44100 sample rate everywhere, the notebook still has 22050'
    c.user('T2', [ide_opened(MUSIC + '/ai_music_notebook.ipynb'), text(reminder_modified(MUSIC + '/ai_music_notebook.ipynb')), text(t2)],
           lab('instruction', 'use a 44100 sample rate everywhere (notebook still at 22050)', t2, 'lost', 'omitted',
               ['form:omitted', 'wrapper:ide_opened_file', 'wrapper:system-reminder', 'opened-file'], wrapper='ide_opened_file',
               values=[{'value': '44100', 'status': 'lost', 'found_as': None}],
               distinct=['44100', '44.1', '44,100']))
    c.say("I'll make the sample rate consistent.")
    c.user('C3', 'nice thats better', lab('chatter', 'chatter: nice thats better', 'nice thats better', 'lost', 'omitted', ['chatter']))
    c.say('Glad it sounds better!')
    t4 = real_text('sniffly', 65)
    c.user('T4', [ide_opened(MUSIC + '/musical_ai_music.py'), text(t4)],
           lab('instruction', 'all texts now sound the same', t4, 'in_summary', 'paraphrase', ['form:paraphrase', 'wrapper:ide_opened_file', 'opened-file'],
               S('Different input texts were all producing the same-sounding output; the mapping has to make use of how different the embeddings are'),
               wrapper='ide_opened_file', origin=origin('sniffly', 65)))
    c.seg(66, 75)
    f6 = 'python is 3.11 from anaconda btw'
    c.user('F6', f6, lab('user_fact', 'Python 3.11 from Anaconda', f6, 'lost', 'omitted', ['fact'],
                         values=[{'value': '3.11', 'status': 'lost', 'found_as': None}], distinct=['3.11', 'anaconda']))
    c.say('Noted.')
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Make the generated audio sound like music: overlapping layers with several things playing at the same time',
            'Different input texts were all producing the same-sounding output; the mapping has to make use of how different the embeddings are',
        ],
        'Key Technical Concepts': [
            'Layered synthesis: bass, chords, melody and percussion mixed together',
            'Embedding features mapped to scale, root note, chord progression and tempo',
        ],
        'Files and Code Sections': [
            '`/Users/chip/dev/ai-music/musical_ai_music.py`\n  - Layered generator (`MusicalEmbeddingToSound`)',
            '`/Users/chip/dev/ai-music/musical_notebook.ipynb`\n  - Notebook for the layered generator',
            '`/Users/chip/dev/ai-music/diverse_musical_ai.py`\n  - New generator that spreads embeddings over more musical parameters',
        ],
        'Errors and fixes': ['None yet for diverse_musical_ai.py; first run pending.'],
        'Problem Solving': ['The old mapping collapsed most embeddings onto the same scale and tempo (e.g. "peaceful" → minor, root 3, tempo 0.5).'],
        'All user messages': [
            '"it doesn\'t sound quite like music. you know, music should have overlapping and multiple things playing at the same time"',
            'Said that all the texts now sound the same',
        ],
        'Pending Tasks': ['Run diverse_musical_ai.py and compare the outputs for very different texts'],
        'Current Work': 'Wrote `diverse_musical_ai.py`.',
        'Optional Next Step': 'Run it and fix any errors.',
    }))
    c.seg(76, 93)
    return c.write({'class': 'opened-file'})


CASES = [o07, o08, o09, o10, o11, o12]
