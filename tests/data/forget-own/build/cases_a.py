"""o01-o06: paraphrase and repeated."""
from builder import (Case, real_text, origin, lab, S, A, ide_opened, ide_selection, reminder_modified, text, image,
                     summary_20, summary_21, summary_short)

V = '/home/kenth56/vsla/docs/papers/src'


def o01():
    c = Case('o01-paraphrase', 'vsla', '2.0', seed=101, pre_tokens=158311, start='2025-07-21T08:10:00')
    t1 = real_text('vsla', 1)
    c.user('T1', t1, lab('instruction', 'verify the paper compiles after the re-architecture and looks ok', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase'],
                         S('Confirm that the VSLA paper still builds following the re-architecture and that the output looks right'),
                         origin=origin('vsla', 1)))
    c.seg(2, 18)
    t4 = 'fyi it was 24 pages last time it built'
    c.user('F4', t4, lab('user_fact', 'the last good build had 24 pages', t4, 'in_summary', 'form:24 pages', ['fact'],
                         S('Last known good build: 24 pages'),
                         values=[{'value': '24 pages', 'status': 'in_summary', 'found_as': '24 pages'}]))
    c.say("Thanks, I'll compare the page count once it builds.")
    c.seg(19, 63)
    t5 = 'ok but from now on leave the tikz pictures in stacking.tex alone, ill redo those figures myself'
    c.user('T5', t5, lab('instruction', 'leave the TikZ pictures in stacking.tex alone from now on (user redoes them)', t5, 'lost', 'omitted',
                         ['form:omitted', 'paraphrase', 'word-overlap'], distinct=['alone', 'redo', 'myself', 'from now on']))
    c.say("Understood, I won't touch the TikZ figures in stacking.tex from here on.")
    c.seg(65, 110)
    c.user('C6', 'nice', lab('chatter', 'chatter: nice', 'nice', 'lost', 'omitted', ['chatter']))
    c.seg(111, 118)
    t7 = 'keep it as vsla_paper_v0.4.pdf, dont make a new version number every time u compile'
    c.user('T7', t7, lab('instruction', 'keep the output name vsla_paper_v0.4.pdf; no new version number per compile', t7, 'lost', 'omitted',
                         ['form:omitted', 'paraphrase', 'word-overlap'], distinct=['new version number', 'every time']))
    c.say('Got it.')
    t3 = real_text('vsla', 119)
    c.user('T3', t3, lab('instruction', 'stray quote characters on page one; check the paper for similar odd formatting', t3, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase'],
                         S('Stray ”’ characters were reported on page one; the whole paper is to be scanned for similar formatting glitches and cleaned up'),
                         origin=origin('vsla', 119)))
    c.seg(120, 131)
    c.compact(summary_20(
        """Let me go through the conversation in order:

1. **Opening request**: the user wants confirmation that the VSLA paper still builds after the re-architecture and that the output looks right.
2. **Build setup**: there is no Makefile in docs/papers even though the README mentions one, so pdflatex is run directly on `src/vsla_paper.tex`.
3. **User information**: the last good build had 24 pages.
4. **Fixes during the build**: `preamble.tex` was wrapped in ''' quotes; `\\keywords` was undefined; the TikZ figures in `sections/stacking.tex` had a stray `\\$` after a node and a node definition broken over two lines; an enumerate in stacking.tex was closed with `\\end{itemize}`; `$\\odot$:` had a bad math delimiter; `\\qedhere` sat inside an align in `vsla_ops.tex`.
5. **Result**: the PDF builds (403K) and was copied to `docs/papers/vsla_paper_v0.4.pdf`.
6. **Latest request**: stray quote characters on page one; the paper is to be checked for similar formatting problems. A grep shows many section files begin and end with '''.""",
        {
            'Primary Request and Intent': [
                'Confirm that the VSLA paper still builds following the re-architecture and that the output looks right',
                'Stray ”’ characters were reported on page one; the whole paper is to be scanned for similar formatting glitches and cleaned up',
            ],
            'Key Technical Concepts': [
                'pdflatex run from `docs/papers/src`; `vsla_paper.tex` inputs `preamble.tex` and `sections/*.tex`',
                'TikZ figures, theorem environments, `\\qedhere`',
                "Python-style ''' quote wrappers left in the .tex sources by the re-architecture",
                'Last known good build: 24 pages',
            ],
            'Files and Code Sections': [
                '`%s/vsla_paper.tex`\n  - Main document' % V,
                "`%s/preamble.tex`\n  - Removed the ''' wrapper; added a `\\keywords` command" % V,
                '`%s/sections/stacking.tex`\n  - TikZ figure fixes (stray `\\$` removed, node definition joined onto one line); enumerate closed with `\\end{enumerate}`; `$\\odot$` delimiter fixed' % V,
                '`%s/sections/vsla_ops.tex`\n  - `\\qedhere` moved out of the align environment' % V,
                '`/home/kenth56/vsla/docs/papers/vsla_paper_v0.4.pdf`\n  - Compiled output (403K)',
            ],
            'Errors and fixes': [
                '`Undefined control sequence \\keywords` → defined in the preamble',
                'TikZ `No shape named result` → node definition repaired',
                '`Bad math environment delimiter` → fixed in stacking.tex',
            ],
            'Problem Solving': 'The paper compiles with warnings only; the Makefile the README mentions does not exist.',
            'All user messages': [
                'Asked to check that the paper compiles after the re-architecture and looks OK',
                'Said the last good build had 24 pages',
                'Reported ”’ on the first page and asked for the whole paper to be checked for similar formatting problems',
            ],
            'Pending Tasks': ["Remove the ''' wrappers from the remaining section files and rebuild"],
            'Current Work': "A grep over `src/` found ''' at the start and end of many files in `sections/`; a shell loop over `sections/*.tex` is stripping them.",
            'Optional Next Step': 'Recompile and look at page one again.',
        }))
    c.seg(132, 143)
    return c.write({'class': 'paraphrase'})


def o02():
    c = Case('o02-paraphrase', 'codemie', '2.1', seed=102, pre_tokens=161877, start='2026-01-22T10:02:00')
    t4 = real_text('codemie', 179)
    c.user('T4', t4, lab('instruction', 'conversationId equals sessionId: set the same value', t4, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase'],
                         S("`conversationId` and `sessionId` are identical, so the conversation id is simply assigned the session id's value"),
                         origin=origin('codemie', 179)))
    c.seg(181, 181)
    c.seg(185, 190)
    f1 = 'session files are under ~/.codemie/sessions, one json per session'
    c.user('F1', f1, lab('user_fact', 'session files live in ~/.codemie/sessions (one JSON per session)', f1, 'in_summary',
                         'form:~/.codemie/sessions/{sessionId}.json', ['fact'],
                         S('`~/.codemie/sessions/{sessionId}.json`, one JSON document per session'),
                         values=[{'value': '~/.codemie/sessions', 'status': 'in_summary', 'found_as': '~/.codemie/sessions/{sessionId}.json'}]))
    c.seg(87, 94)
    t3 = 'never write the session file directly, go through the atomic writer like metrics does or we end up with half written json'
    c.user('T3', t3, lab('instruction', 'never write the session file directly; use the atomic writer like metrics', t3, 'lost', 'omitted',
                         ['form:omitted', 'paraphrase', 'word-overlap'], distinct=['atomic', 'half written', 'never write']))
    c.seg(95, 104)
    c.user('C5', 'k', lab('chatter', 'chatter: k', 'k', 'lost', 'omitted', ['chatter']))
    c.seg(193, 199)
    t6 = 'retry failed syncs max 3 times and keep the attempt count in the failure record'
    c.user('T6', t6, lab('instruction', 'retry failed syncs at most 3 times; attempt count on the failure record', t6, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase', 'passive'],
                         S('Failed syncs are to be retried no more than three times, with the number of attempts kept on the failure record'),
                         values=[{'value': '3', 'status': 'in_summary', 'found_as': 'three times'}]))
    c.seg(135, 146)
    t8 = 'and the failure record lives in syncState too, not in some separate failures.json'
    c.user('T8', t8, lab('instruction', 'the failure record lives in syncState, not a separate failures.json', t8, 'lost', 'omitted',
                         ['form:omitted', 'paraphrase', 'word-overlap'], distinct=['failures.json', 'lives in', 'separate']))
    c.seg(201, 208)
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Design incremental conversation sync (Phase 4.1) in `src/providers/plugins/sso/ARCHITECTURE-REFACTORING.md`, building on the session file and sync state the metrics processor already has',
            "`conversationId` and `sessionId` are identical, so the conversation id is simply assigned the session id's value",
            'Failed syncs are to be retried no more than three times, with the number of attempts kept on the failure record',
        ],
        'Key Technical Concepts': [
            'Session files: `~/.codemie/sessions/{sessionId}.json`, one JSON document per session',
            '`syncState` in the session file: `processedRecordIds`, `lastProcessedLine`, `lastProcessedTimestamp`, and now `conversationId`',
            'Failure record: status, last error, attempt count',
            'Metrics processor: `isSyncing` guard, `try/catch/finally`, returns `{ success, message }`',
        ],
        'Files and Code Sections': [
            '`src/providers/plugins/sso/ARCHITECTURE-REFACTORING.md`\n  - Phase 4.1 section: SyncState extension, conversation processor changes, failure handling',
            '`src/agents/core/metrics/types.ts`\n  - `SyncState` interface',
            '`src/providers/plugins/sso/session/processors/conversations/conversation-processor.ts`\n  - To be changed from session-level to message-level tracking',
        ],
        'Errors and fixes': ['None in this part of the conversation.'],
        'Problem Solving': ['Confirmed from a real session file that metrics and conversations can share one JSON file per session.'],
        'All user messages': [
            'Pointed out that conversationId equals sessionId and asked to use the same value',
            'Said the session files are kept under ~/.codemie/sessions, one JSON per session',
            'Asked for failed syncs to be retried at most three times with an attempt counter on the failure record',
        ],
        'Pending Tasks': ['Finish the failure-handling part of Phase 4.1'],
        'Current Work': 'Editing the Phase 4.1 "Deliverables" and "Technical Requirements" subsections of ARCHITECTURE-REFACTORING.md.',
        'Optional Next Step': 'Update the Phase 4.1 deliverables list to match the SyncState changes.',
    }))
    c.seg(210, 222)
    return c.write({'class': 'paraphrase'})


def o03():
    c = Case('o03-paraphrase', 'ccl', 'short', seed=103, pre_tokens=149820, start='2025-10-14T16:40:00')
    t0 = real_text('ccl', 7)
    c.user('T0', t0, lab('instruction', 'explain _get_enhanced_session_navigation and _generate_html_with_navigation from the renderer.py diff', t0,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'paraphrase'],
                         S('The user first wanted an explanation, based on the git diff of `claude_code_log/renderer.py`, of what `_get_enhanced_session_navigation` and `_generate_html_with_navigation` do'),
                         origin=origin('ccl', 7)))
    c.seg(8, 11)
    t1 = real_text('ccl', 12)
    c.user('T1', t1, lab('instruction', 'replace the cross-session navigation links with a single link to the combined transcript', t1,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'paraphrase'],
                         S('The cross-session navigation links were not useful to the user; they are to be swapped for one link pointing to the combined transcript'),
                         origin=origin('ccl', 12)))
    c.seg(13, 41)
    t2 = 'run ruff format and ruff check before every commit, ci fails otherwise'
    c.user('T2', t2, lab('instruction', 'run ruff format + ruff check before every commit (CI fails otherwise)', t2, 'lost', 'omitted',
                         ['form:omitted', 'paraphrase', 'word-overlap'], distinct=['every commit', 'ci fails', 'before commit']))
    c.seg(44, 63)
    c.user('C3', 'cool', lab('chatter', 'chatter: cool', 'cool', 'lost', 'omitted', ['chatter']))
    c.seg(64, 72)
    c.interrupt()
    f5 = 'im on branch feat/combined-link btw'
    c.user('F5', f5, lab('user_fact', 'working branch feat/combined-link', f5, 'in_summary', 'form:feat/combined-link', ['fact'],
                         S('Work happens on the `feat/combined-link` branch'),
                         values=[{'value': 'feat/combined-link', 'status': 'in_summary', 'found_as': 'feat/combined-link'}]))
    c.say('Noted.')
    t7 = 'dont use -m unit when running pytest, that marker isnt on most tests. just run the file'
    c.user('T7', t7, lab('instruction', "don't run pytest with -m unit (marker missing on most tests); run the file", t7, 'lost', 'omitted',
                         ['form:omitted', 'paraphrase', 'word-overlap'], distinct=['-m unit', 'marker', 'just run the file']))
    c.seg(109, 111)
    c.seg(121, 123)
    c.compact(summary_short({
        'Primary Request and Intent': [
            'The user first wanted an explanation, based on the git diff of `claude_code_log/renderer.py`, of what `_get_enhanced_session_navigation` and `_generate_html_with_navigation` do',
            'The cross-session navigation links were not useful to the user; they are to be swapped for one link pointing to the combined transcript',
        ],
        'Key Technical Concepts': [
            'Jinja2 templates (`transcript.html`, `components/session_nav.html`)',
            '`CacheManager` (needs `library_version`) and cached project data',
            'ruff format / ruff check; pytest through uv',
        ],
        'Files and Code Sections': [
            '`claude_code_log/renderer.py`\n  - `_get_combined_transcript_link()` added; the cross-session navigation removed',
            '`claude_code_log/templates/transcript.html`\n  - Renders a single combined-transcript link',
            '`claude_code_log/templates/components/session_nav_styles.css`\n  - Style for the link, reusing `.navigation`',
            '`test/test_combined_transcript_link.py`\n  - New tests for the link',
        ],
        'Problem Solving': [
            '`ruff format` and `ruff check` were run on renderer.py and pass',
            'test_combined_transcript_link.py currently fails: the rendered HTML does not contain the link',
            'Work happens on the `feat/combined-link` branch',
        ],
        'Pending Tasks': ['Make test_combined_transcript_link.py pass'],
        'Current Work': 'Debugging why the `generate_session_html` output lacks the combined transcript link.',
        'Optional Next Step': 'Inspect `_get_combined_transcript_link` and how the test builds its cache manager.',
    }))
    c.seg(124, 147)
    return c.write({'class': 'paraphrase'})


def o04():
    c = Case('o04-repeated', 'vsla', '2.0', seed=104, pre_tokens=156402, start='2025-07-21T21:05:00')
    t1 = real_text('vsla', 202)
    c.user('T1', t1, lab('instruction', 'Section 9.4 is a hallucination (implementations never done)', t1, 'in_summary', 'typos_fixed',
                         ['form:typos_fixed'],
                         S('"Section 9.4 is a hallucination, we have not done those implementations as far as I know"'),
                         origin=origin('vsla', 202)))
    c.seg(203, 214)
    t2 = 'dont put benchmark numbers in the paper that we didnt actually measure. mark them as projected or take them out'
    c.user('T2', t2, lab('instruction', 'no unmeasured benchmark numbers: mark as projected or remove', t2, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:verbatim', 'repeated'], A('U1', t2, 'verbatim'), repeated_after=['verbatim']))
    c.seg(215, 229)
    t3 = 'keep paper-status.md updated after each fix so i can follow along'
    c.user('T3', t3, lab('instruction', 'keep paper-status.md updated after each fix', t3, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:in_tool_result', 'repeated'],
                         A('R1', '_Process: this file is updated after each fix so progress can be followed along._', 'in_tool_result'),
                         repeated_after=['in_tool_result']))
    c.say("Will do, I'll log each fix in paper-status.md.")
    c.seg(230, 247)
    c.user('C4', 'thx', lab('chatter', 'chatter: thx', 'thx', 'lost', 'omitted', ['chatter']))
    c.seg(248, 253)
    f6 = 'fyi this box has texlive 2023, debian'
    c.user('F6', f6, lab('user_fact', 'TeX Live 2023 (Debian) on this machine', f6, 'in_summary', 'form:TeX Live 2023 (Debian)', ['fact'],
                         S('Toolchain: TeX Live 2023 (Debian)'),
                         values=[{'value': 'texlive 2023', 'status': 'in_summary', 'found_as': 'TeX Live 2023'}]))
    c.seg(254, 261)
    t5 = 'use \\cite{} for every reference, no hardcoded [12] style numbers'
    c.user('T5', t5, lab('instruction', 'use \\cite for every reference, no hardcoded [12] numbers', t5, 'lost', 'omitted',
                         ['form:omitted'], distinct=['hardcoded', '[12]', 'every reference']))
    c.say('Understood.')
    c.compact(summary_20(
        """Chronological review:

1. The user said Section 9.4 describes implementations that were never done and should not be in the paper.
2. I read `sections/evaluation.tex`, found the real-world applications subsection (Section 9.4, lines 86-93) and replaced it with a short statement of planned work.
3. I fixed the font issue (an unclosed `\\texttt` at the end of `gradients.tex`) and looked for missing labels behind the "??" marks.
4. The user mentioned the toolchain: TeX Live 2023 on Debian.
5. The paper compiles and was copied to `docs/papers/vsla_paper_v0.6.pdf`.""",
        {
            'Primary Request and Intent': [
                'Remove Section 9.4, which describes implementations that were never carried out',
                'Fix the remaining formatting problems and undefined references and rebuild the paper',
            ],
            'Key Technical Concepts': [
                'Toolchain: TeX Live 2023 (Debian)',
                'pdflatex with `-interaction=nonstopmode`, bibtex',
                'Undefined references show up as "??" in the PDF',
            ],
            'Files and Code Sections': [
                '`%s/sections/evaluation.tex`\n  - Section 9.4 (real-world applications) replaced by a planned-work paragraph' % V,
                '`%s/sections/gradients.tex`\n  - Closed a stray `\\texttt{` at line 83' % V,
                '`/home/kenth56/vsla/docs/papers/vsla_paper_v0.6.pdf`\n  - Latest build',
            ],
            'Errors and fixes': ['Unclosed `\\texttt` switched the rest of the document to a monospace font → closed it'],
            'Problem Solving': 'The section 9.4 claims had no backing code; replaced rather than reworded.',
            'All user messages': [
                '"Section 9.4 is a hallucination, we have not done those implementations as far as I know"',
                '"fyi this box has TeX Live 2023, Debian"',
            ],
            'Pending Tasks': ['Track down the labels behind the remaining "??" references'],
            'Current Work': 'Grepped all `\\ref{}` targets and compared them with the defined `\\label{}`s.',
            'Optional Next Step': 'List the labels that are referenced but never defined and fix them.',
        }))
    c.say('Let me check the status file before continuing with the references.')
    c.tool('Read', {'file_path': '%s/paper-status.md' % V, 'limit': 14},
           '     1→# Paper Status\n     2→\n     3→This document tracks the status of the updates to the VSLA paper based on peer review feedback.\n'
           '     4→\n     5→_Process: this file is updated after each fix so progress can be followed along._\n     6→\n'
           '     7→## Fixes (July 19, 2025)\n     8→- Removed the stray \'\'\' wrappers from preamble.tex and every section file\n'
           '     9→- Escaped the % signs in evaluation.tex and advanced_ops.tex\n    10→- Removed the fabricated Section 9.4 (real-world applications)\n'
           '    11→- Closed the \\texttt at the end of gradients.tex\n    12→\n    13→## Open\n    14→- Undefined references (?? marks) from Section 10 onward',
           anchor='R1')
    c.seg(278, 287)
    c.user('U1', t2, after={'repeat_of': 'T2', 'mode': 'verbatim'})
    c.say('Understood, no unmeasured numbers go into the paper.')
    c.seg(288, 300)
    return c.write({'class': 'repeated'})


def o05():
    c = Case('o05-repeated', 'ccl', '2.1', seed=105, pre_tokens=163012, start='2025-10-15T09:20:00')
    t1 = real_text('ccl', 7)
    c.user('T1', t1, lab('instruction', 'explain _get_enhanced_session_navigation and _generate_html_with_navigation from the renderer.py diff', t1,
                         'in_summary', 'verbatim', ['form:verbatim'],
                         S('"Hey Claude, please have a look at the git diff of claude_code_log/renderer.py and explain what does _get_enhanced_session_navigation and _generate_html_with_navigation do"'),
                         origin=origin('ccl', 7)))
    c.seg(8, 11)
    t2 = real_text('ccl', 12)
    c.user('T2', t2, lab('instruction', 'replace the cross-session navigation links with a single link to the combined transcript', t2,
                         'repeated_later', 'omitted', ['form:omitted', 'repeat:paraphrase', 'repeated'],
                         A('U1', 'i want just the one link to the combined transcript, none of the per-session nav links', 'paraphrase'),
                         repeated_after=['paraphrase'], origin=origin('ccl', 12)))
    c.seg(13, 41)
    f4 = 'the combined one is combined_transcripts.html'
    c.user('F4', f4, lab('user_fact', 'combined transcript file is combined_transcripts.html', f4, 'in_summary', 'form:combined_transcripts.html', ['fact'],
                         S('the combined transcript is written to `combined_transcripts.html`'),
                         values=[{'value': 'combined_transcripts.html', 'status': 'in_summary', 'found_as': 'combined_transcripts.html'}]))
    c.say('Thanks, that matches what the cache returns.')
    t3 = "make the link text 'View all sessions' so its the same as on the index page"
    c.user('T3', t3, lab('instruction', "link text 'View all sessions' (same as the index page)", t3, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:ide_wrapped', 'repeated'], A('U2', t3, 'ide_wrapped'), repeated_after=['ide_wrapped']))
    c.say('Will do.')
    c.seg(44, 58)
    c.user('C6', 'Sounds good', lab('chatter', 'chatter: Sounds good', 'Sounds good', 'in_summary', 'verbatim', ['chatter'],
                                   S('"Sounds good"')))
    c.seg(59, 63)
    t5 = 'dont bump the version in pyproject.toml, i do the releases myself'
    c.user('T5', t5, lab('instruction', "don't bump the version in pyproject.toml (user releases)", t5, 'lost', 'omitted',
                         ['form:omitted'], distinct=['pyproject', 'releases', 'bump']))
    c.say('OK.')
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Explain, from the git diff of `claude_code_log/renderer.py`, what `_get_enhanced_session_navigation` and `_generate_html_with_navigation` do',
        ],
        'Key Technical Concepts': [
            'Jinja2 templates rendered by `claude_code_log/renderer.py`',
            '`CacheManager.get_cached_project_data()`; the combined transcript is written to `combined_transcripts.html`',
            'pytest via `uv run pytest`, ruff',
        ],
        'Files and Code Sections': [
            '`claude_code_log/renderer.py`\n  - `_get_enhanced_session_navigation()`: builds previous/next session data for the page\n  - `_generate_html_with_navigation()`: wraps `generate_html` with that data',
            '`claude_code_log/templates/transcript.html`\n  - Page template',
            '`claude_code_log/templates/components/session_nav_styles.css`\n  - Navigation styles',
        ],
        'Errors and fixes': ['`pytest -m unit` collected no tests (almost no test carries the marker); ran the template tests instead'],
        'Problem Solving': ['Template tests pass; `ruff format` and `ruff check` are clean on renderer.py'],
        'All user messages': [
            '"Hey Claude, please have a look at the git diff of claude_code_log/renderer.py and explain what does _get_enhanced_session_navigation and _generate_html_with_navigation do"',
            '"the combined one is combined_transcripts.html"',
            '"Sounds good"',
        ],
        'Pending Tasks': ['Verify the rendered page with real data'],
        'Current Work': 'Ran the template rendering tests and ruff on renderer.py; both pass.',
        'Optional Next Step': 'Render a session page from the test data and check it.',
    }))
    c.seg(145, 152)
    c.user('U1', 'to be clear, i want just the one link to the combined transcript, none of the per-session nav links',
           after={'repeat_of': 'T2', 'mode': 'para'})
    c.say('Understood: a single link to the combined transcript and no per-session links.')
    c.user('U2', [ide_opened('/Users/dain/workspace/claude-code-log/claude_code_log/templates/transcript.html'), text(t3)],
           after={'repeat_of': 'T3', 'mode': 'ide'})
    c.seg(153, 155)
    return c.write({'class': 'repeated'})


def o06():
    c = Case('o06-repeated', 'sniffly', 'short', seed=106, pre_tokens=152240, start='2025-11-18T14:00:00')
    t1 = real_text('sniffly', 2)
    c.user('T1', t1, lab('instruction', 'create a jupyter notebook to test each step', t1, 'in_summary', 'verbatim', ['form:verbatim'],
                         S('User: "create a jupyter notebook file so that i can test each step of the way"'), origin=origin('sniffly', 2)))
    c.seg(3, 18)
    t2 = 'keep clips under 10 sec, longer ones take forever to render'
    c.user('T2', t2, lab('instruction', 'keep clips under 10 seconds', t2, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:in_tool_result', 'repeated'],
                         A('R1', 'MAX_CLIP_SECONDS = 10  # keep clips under 10 sec, longer ones take forever to render', 'in_tool_result'),
                         repeated_after=['in_tool_result'],
                         values=[{'value': '10 sec', 'status': 'repeated_later', 'found_as': 'MAX_CLIP_SECONDS = 10'}]))
    c.seg(20, 30)
    f3 = 'sample rate is 22050, mono'
    c.user('F3', f3, lab('user_fact', 'sample rate 22050 Hz, mono', f3, 'in_summary', 'form:22,050 Hz', ['fact'],
                         S('audio is rendered at 22,050 Hz, mono'),
                         values=[{'value': '22050', 'status': 'in_summary', 'found_as': '22,050 Hz'}]))
    c.say('Thanks, the waveform code already uses that.')
    c.seg(31, 36)
    t4 = 'dont pip install anything new without asking me first'
    c.user('T4', t4, lab('instruction', "don't pip install anything new without asking", t4, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:verbatim', 'repeated'], A('U1', t4, 'verbatim'), repeated_after=['verbatim']))
    c.say('Understood.')
    c.seg(37, 47)
    c.user('C6', 'ok cool', lab('chatter', 'chatter: ok cool', 'ok cool', 'lost', 'omitted', ['chatter']))
    c.say('Anything else to try?')
    t5 = 'save the wav files into outputs/ not the repo root'
    c.user('T5', t5, lab('instruction', 'save wav files into outputs/, not the repo root', t5, 'lost', 'omitted',
                         ['form:omitted'], distinct=['outputs/', 'repo root', 'wav files']))
    c.say('Sure.')
    c.compact(summary_short({
        'Primary Request and Intent': [
            'User: "create a jupyter notebook file so that i can test each step of the way"',
            'Compare sentence-embedding models and use the one whose embeddings vary most between texts',
        ],
        'Key Technical Concepts': [
            'Text → sentence-transformer embedding → waveform synthesis; audio is rendered at 22,050 Hz, mono',
            'Embedding diversity measured as variance across a set of test texts',
        ],
        'Files and Code Sections': [
            '`ai_music.py`\n  - `embedding_to_waveform()` maps an embedding to frequencies and amplitudes',
            '`ai_music_notebook.ipynb`\n  - Step-by-step notebook; cells 1, 3, 11 and 14 updated for the model comparison',
            '`model_comparison.py`\n  - Ranks models by embedding diversity',
            '`requirements.txt`\n  - Jupyter dependencies added',
        ],
        'Problem Solving': ['PyTorch was missing; after installing the requirements the comparison ran. Most diverse: sentence-transformers/all-roberta-large-v1'],
        'Pending Tasks': ['Let the notebook switch between the top models'],
        'Current Work': 'The notebook now has a model comparison section and experiment ideas.',
        'Optional Next Step': 'Render a few clips with the most diverse model.',
    }))
    c.say('Let me check the clip settings before rendering.')
    c.tool('Read', {'file_path': '/Users/chip/dev/ai-music/config.py'},
           '     1\t"""Settings shared by ai_music.py and the notebook."""\n     2\t\n     3\tSAMPLE_RATE = 22050\n'
           '     4\tMAX_CLIP_SECONDS = 10  # keep clips under 10 sec, longer ones take forever to render\n'
           '     5\tDEFAULT_MODEL = "sentence-transformers/all-roberta-large-v1"\n', anchor='R1')
    c.user('U1', t4, after={'repeat_of': 'T4', 'mode': 'verbatim'})
    c.say("Understood, I'll ask before installing anything.")
    c.seg(52, 53)
    return c.write({'class': 'repeated'})


CASES = [o01, o02, o03, o04, o05, o06]
