"""h07-h12. Every label below is the labeller's judgement, written by hand."""
from builder import (Case, real_text, origin, lab, S, A, ide_opened, ide_selection, reminder_modified, text, image,
                     summary_20, summary_21, summary_short)

SN = '/Users/chip/dev/ai-music'
CM = '/Users/user/repo'
CL = '/Users/dain/workspace/claude-code-log'
VS = '/home/kenth56/vsla/docs/papers'


# --------------------------------------------------------------------------------------------
def h07():
    c = Case('h07-codemie-omitted', 'codemie', 'short', seed=9107, pre_tokens=151963, start='2026-01-24T13:00:00')
    t3 = ('look at how the sso sync reads sessions and tell me whats missing for conversations. '
          'read sessions through the existing SessionStore, no new fs helpers for this')
    c.user('T3', [text(reminder_modified('%s/src/providers/plugins/sso/session/utils/session-store.ts' % CM)), text(t3)],
           lab('instruction', 'review how the SSO sync reads sessions, gaps for conversations; read via SessionStore, no new fs helpers', t3,
               'lost', 'partial', ['form:partial', 'partial', 'word-overlap', 'wrapper:system-reminder', 'reminder:block-before'],
               partial=True, lost_part='read sessions through the existing SessionStore, no new fs helpers',
               distinct=['fs helper', 'no new fs', 'read sessions through', 'filesystem helper'], wrapper='system-reminder'))
    c.seg(8, 27)
    f4 = 'api base on our side is /code-assistant-api/v1'
    c.user('F4', f4, lab('user_fact', 'API base path /code-assistant-api/v1', f4, 'lost', 'omitted', ['fact'],
                         distinct=['code-assistant-api'],
                         values=[{'value': '/code-assistant-api/v1', 'status': 'lost', 'found_as': None}]))
    c.say('Noted.')
    t5 = 'keep backward compat, sessions written by 0.0.28 and older must still load'
    c.user('T5', '<command-message>design-check is running…</command-message>\n<command-name>/design-check</command-name>\n'
                 '<command-args>%s</command-args>' % t5,
           lab('instruction', 'backward compatibility: sessions written by 0.0.28 and older must still load', t5, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'paraphrase:vocab', 'passive', 'wrapper:command-args'],
               S('Backward compatibility is required: session files produced by CLI version 0.0.28 or earlier have to keep loading'),
               wrapper='command-args',
               values=[{'value': '0.0.28', 'status': 'in_summary', 'found_as': '0.0.28'}]))
    c.seg(47, 60)
    t6 = 'on a 5xx retry 3 times max, then skip that session until the next startup'
    c.user('T6', t6, lab('instruction', 'on 5xx: at most 3 attempts, then skip the session until next startup', t6, 'lost', 'omitted',
                         ['form:omitted', 'numeric'],
                         distinct=['3 times', 'three times', 'retry', 'retries', '5xx', 'next startup', 'three attempts'],
                         values=[{'value': '3', 'status': 'lost', 'found_as': None}]))
    c.seg(72, 79)
    c.user('C7', 'k thx', lab('chatter', 'chatter: k thx', 'k thx', 'lost', 'omitted', ['chatter']))
    c.say("You're welcome.")
    t8 = real_text('codemie', 183)
    c.user('T8', t8, lab('instruction', 'update the Phase 4.1 document', t8, 'in_summary', 'paraphrase', ['form:paraphrase', 'real-turn'],
                         S('Bring the Phase 4.1 section of the architecture document up to date with the simplified design'),
                         origin=origin('codemie', 183)))
    c.seg(185, 190)
    c.compact(summary_short({
        'Primary Request and Intent': [
            'Review how the SSO sync plugins read session data and list what conversation sync is missing compared with metrics',
            'Backward compatibility is required: session files produced by CLI version 0.0.28 or earlier have to keep loading',
            'Bring the Phase 4.1 section of the architecture document up to date with the simplified design',
        ],
        'Key Technical Concepts': [
            'Unified SSO session sync plugin with metrics and conversation processors',
            '`SessionStore` (session-store.ts) and per-session JSON files',
            '`syncState` with `processedRecordIds`, `lastProcessedLine`, `lastProcessedTimestamp`',
        ],
        'Files and Code Sections': [
            '`src/providers/plugins/sso/session/sync/sso.session-sync.plugin.ts`\n  - Runs the processors for each pending session',
            '`src/providers/plugins/sso/session/utils/session-store.ts`\n  - Loads and saves session files; filters pending sessions',
            '`src/agents/core/metrics/types.ts`\n  - `SyncState` and metrics types',
            '`src/providers/plugins/sso/ARCHITECTURE-REFACTORING.md`\n  - Phase 4.1 section being edited',
        ],
        'Problem Solving': [
            'The conversation processor re-sends whole sessions; the metrics processor already tracks processed records, so conversations can follow the same incremental pattern',
            'Optional new fields keep older session files readable',
        ],
        'Pending Tasks': ['Finish the Phase 4.1 deliverables and technical requirements'],
        'Current Work': 'Two edits to the Phase 4.1 section of ARCHITECTURE-REFACTORING.md have been applied.',
        'Optional Next Step': 'Continue updating the Phase 4.1 deliverables list.',
    }))
    c.seg(210, 222)
    return c.write({'situations': ['omitted', 'partial', 'reminder:block-before', 'wrapper:command-args', 'fact-lost', 'numeric', 'real-turn']})


# --------------------------------------------------------------------------------------------
def h08():
    c = Case('h08-ccl-overlap', 'ccl', '2.1', seed=9108, pre_tokens=157320, start='2025-07-13T09:40:00')
    t1 = 'the combined transcript link should open in the same tab, not a new one'
    c.user('T1', t1, lab('instruction', 'combined transcript link opens in the same tab', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:vocab'],
                         S('The link to the combined transcript must navigate within the current browser tab (no `target="_blank"`)')))
    c.seg(14, 41)
    t3 = 'type hints on every new fn pls, ci runs mypy --strict'
    c.user('T3', t3, lab('instruction', 'full type hints on every new function (CI runs mypy --strict)', t3, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:in_tool_result'],
                         A('R3', 'Every new function needs full type hints; CI runs `mypy --strict`.', how='in_tool_result'),
                         repeated_after=['in_tool_result']))
    c.seg(44, 63)
    c.user('C4', 'yeah go for it', lab('chatter', 'chatter: yeah go for it', 'yeah go for it', 'lost', 'omitted', ['chatter']))
    c.seg(64, 72)
    c.interrupt()
    t5 = 'rename _get_combined_transcript_link to combined_link_for, its shorter'
    c.user('T5', t5, lab('instruction', 'rename _get_combined_transcript_link to combined_link_for', t5, 'in_summary', 'verbatim',
                         ['form:verbatim'], S('"rename _get_combined_transcript_link to combined_link_for, its shorter"')))
    c.tool('Edit', {'file_path': '%s/claude_code_log/renderer.py' % CL, 'old_string': 'def _get_combined_transcript_link(',
                    'new_string': 'def combined_link_for('},
           "The file %s/claude_code_log/renderer.py has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n"
           '   660→def combined_link_for(cache_manager: "CacheManager") -> Optional[str]:' % CL,
           text="I'll rename the function and update its call site.")
    c.seg(151, 169)
    t6 = 'the tests for the combined transcript link should build on the real_projects fixtures, not tmp dirs w fake jsonl'
    c.user('T6', t6, lab('instruction', 'combined-transcript-link tests should use the real_projects fixtures, not temp dirs with fake JSONL', t6,
                         'lost', 'omitted', ['form:omitted', 'word-overlap', 'summary:mentions-without-content'],
                         distinct=['real_projects', 'tmp dir', 'temporary director', 'fake jsonl']))
    c.seg(228, 279)
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Replace the cross-session navigation on individual session pages with one link to the combined transcript',
            'The link to the combined transcript must navigate within the current browser tab (no `target="_blank"`)',
            'Rename `_get_combined_transcript_link` to `combined_link_for`',
        ],
        'Key Technical Concepts': [
            'Jinja2 template `transcript.html` with a `combined_transcript_link` variable',
            '`CacheManager` (needs `library_version`) and `get_cached_project_data()`',
            'pytest through `uv run`; ruff',
        ],
        'Files and Code Sections': [
            '`%s/claude_code_log/renderer.py`\n  - `combined_link_for()` (renamed); `generate_html` takes an optional `combined_transcript_link`' % CL,
            '`%s/claude_code_log/templates/transcript.html`\n  - The combined transcript link is rendered inside the navigation block' % CL,
            '`%s/test/test_combined_transcript_link.py`\n  - Tests for the combined transcript link; they construct a `CacheManager` and call `generate_session_html`' % CL,
        ],
        'Errors and fixes': [
            '`CacheManager()` missing `library_version` → passed it',
            'string path instead of `Path` → wrapped in `Path`',
            'Empty session list took an early return without the link → early return now passes the link',
        ],
        'Problem Solving': ['All tests in test_combined_transcript_link.py pass after the early-return fix.'],
        'All user messages': [
            'Asked for the combined transcript link to open in the same tab instead of a new one',
            '"rename _get_combined_transcript_link to combined_link_for, its shorter"',
            'Gave a requirement about the setup of the combined transcript link tests',
        ],
        'Pending Tasks': ['Run the other template tests and ruff'],
        'Current Work': 'The combined transcript link tests were just fixed and pass.',
        'Optional Next Step': 'Run `test/test_template_rendering.py` and `ruff check` on renderer.py.',
    }))
    c.tool('Read', {'file_path': '%s/CLAUDE.md' % CL},
           '     1→# claude-code-log\n     2→\n     3→## Development\n     4→\n'
           '     5→- Use `uv run` for every Python command (tests, scripts).\n'
           '     6→- Every new function needs full type hints; CI runs `mypy --strict`.\n'
           '     7→- Run `ruff format` and `ruff check` on files you touch.\n'
           '     8→- Templates live in `claude_code_log/templates/`.\n',
           text='Let me check the project conventions before the final checks.', anchor='R3')
    c.seg(280, 293)
    return c.write({'situations': ['word-overlap', 'repeat:in_tool_result', 'paraphrase:vocab', 'verbatim']})


# --------------------------------------------------------------------------------------------
def h09():
    c = Case('h09-sniffly-image-paste', 'sniffly', '2.1', seed=9109, pre_tokens=153406, start='2025-07-03T16:45:00')
    t1 = real_text('sniffly', 112)
    c.user('T1', t1, lab('instruction', 'run python diverse_musical_ai.py', t1, 'in_summary', 'paraphrase', ['form:paraphrase', 'real-turn'],
                         S('The user asked for `diverse_musical_ai.py` to be run directly with python'),
                         origin=origin('sniffly', 112)))
    c.seg(113, 128)
    t2 = ('this is my daw after importing the export, everything comes in as one stereo file. '
          'export each layer (bass, pads, melody) as its own wav\n\n[Image #1]')
    c.user('T2', [image((30, 34, 48)), text(t2)],
           lab('instruction', 'export each layer (bass, pads, melody) as a separate WAV (DAW screenshot)', t2, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'image'],
               S('each layer (bass, pads, melody) is to be written to its own WAV file rather than one mixed stereo file')))
    c.seg(129, 133)
    t4 = 'use 90 bpm as the default tempo and let a --bpm flag override it'
    c.user('T4', t4, lab('instruction', 'default tempo 90 BPM; a --bpm flag overrides it', t4, 'lost', 'partial',
                         ['form:partial', 'partial', 'numeric', 'word-overlap'], partial=True, lost_part='let a --bpm flag override it',
                         distinct=['--bpm', 'flag', 'command line', 'command-line', 'argparse'],
                         values=[{'value': '90 bpm', 'status': 'in_summary', 'found_as': '90 BPM'}]))
    c.seg(96, 101)
    t5 = ('swap the linear fade for this envelope:\n\n'
          '```python\n'
          'def adsr(n, sr, a=0.01, d=0.1, s=0.7, r=0.2):\n'
          '    a_n, d_n, r_n = int(a * sr), int(d * sr), int(r * sr)\n'
          '    s_n = max(n - a_n - d_n - r_n, 0)\n'
          '    env = np.concatenate([\n'
          '        np.linspace(0, 1, a_n, endpoint=False),\n'
          '        np.linspace(1, s, d_n, endpoint=False),\n'
          '        np.full(s_n, s),\n'
          '        np.linspace(s, 0, r_n),\n'
          '    ])\n'
          '    return env[:n] if len(env) >= n else np.pad(env, (0, n - len(env)))\n'
          '```')
    c.user('T5', t5, lab('instruction', 'replace the linear fade with the pasted ADSR envelope function', t5, 'lost', 'omitted',
                         ['form:omitted', 'paste:code'], distinct=['adsr', 'linear fade', 'envelope', 'attack', 'sustain']))
    c.seg(102, 108)
    c.user('C6', 'haha yes finally', lab('chatter', 'chatter: haha yes finally', 'haha yes finally', 'in_summary', 'paraphrase',
                                         ['chatter', 'form:paraphrase'], S('Reacted happily to the new results')))
    c.say('🎉 Finally sounds like different pieces.')
    f7 = 'the daw project i import into runs at 48000'
    c.user('F7', f7, lab('user_fact', 'DAW project sample rate 48000 Hz', f7, 'in_summary', 'form:48 kHz', ['fact'],
                         S('DAW project sample rate: 48 kHz'),
                         values=[{'value': '48000', 'status': 'in_summary', 'found_as': '48 kHz'}]))
    c.say("Thanks — I'll render at that rate so the files import without resampling.")
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'The user asked for `diverse_musical_ai.py` to be run directly with python',
            'each layer (bass, pads, melody) is to be written to its own WAV file rather than one mixed stereo file',
            'The default tempo is 90 BPM',
        ],
        'Key Technical Concepts': [
            'Embedding → musical parameter mapping (scale, rhythm, timbre, tempo)',
            'Token-specific overrides to avoid the "church organ" sound',
            'Layered synthesis (bass, pads, melody) and per-layer export',
            'DAW project sample rate: 48 kHz',
        ],
        'Files and Code Sections': [
            '`%s/diverse_musical_ai.py`\n  - Wider timbre / rhythm / scale selection, token-specific overrides, layer export' % SN,
            '`%s/test_diverse_simple.py`\n  - Compares very different phrases' % SN,
            '`%s/test_no_church.py`\n  - Checks the spread of musical styles' % SN,
        ],
        'Errors and fixes': ['`main()` waited for input; a simplified test script was written instead'],
        'Problem Solving': ['Almost everything had mapped to waltz rhythm and organ timbre; the selection ranges were widened and the variety check now shows different scales, timbres and rhythms per phrase.'],
        'All user messages': [
            '"python diverse_musical_ai.py"',
            'Sent a screenshot of the DAW import and asked for each layer to be exported as its own WAV',
            'Asked for 90 BPM as the default tempo',
            'Reacted happily to the new results',
            'Gave the DAW sample rate (48000)',
        ],
        'Pending Tasks': ['Render the test phrases as separate layer files at the DAW sample rate'],
        'Current Work': 'The variety test passes; per-layer export was just added.',
        'Optional Next Step': 'Run the generator on the test phrases and check the exported layer files.',
    }))
    c.tool('Bash', {'command': 'python diverse_musical_ai.py --text "peaceful water"', 'description': 'Render one phrase as layer files'},
           '🎼 DIVERSE Musical AI Generator\n🎯 Using most diverse model for maximum variety\n\n'
           '"peaceful water": scale=phrygian, timbre=flute, rhythm=syncopated, tempo=90 BPM\n'
           'Saved 3 layer files to renders/peaceful_water/: bass.wav, pads.wav, melody.wav (48000 Hz)',
           text="I'll render one phrase and check the layer files.")
    c.say('The three layers are written as separate WAV files at 48 kHz in `renders/peaceful_water/`.')
    return c.write({'situations': ['image', 'partial', 'paste:code', 'fact', 'real-turn']})


# --------------------------------------------------------------------------------------------
def h10():
    c = Case('h10-vsla-partials', 'vsla', 'short', seed=9110, pre_tokens=149508, start='2025-07-19T20:30:00')
    t5 = 'take out the made up benchmark numbers in the eval section, we never ran those'
    c.user('T5', t5, lab('instruction', 'remove the made-up benchmark numbers from the evaluation section', t5, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:vocab', 'passive'],
                         S('Invented benchmark results in the evaluation section must be removed, because those experiments were never run')))
    c.seg(204, 229)
    t1 = "the abstract still says 'production ready', tone it down to 'research prototype' and add a short limitations paragraph at the end of sec 8"
    c.user('T1', t1, lab('instruction', "abstract: 'production ready' → 'research prototype'; add a limitations paragraph at the end of sec 8", t1,
                         'lost', 'partial', ['form:partial', 'partial'], partial=True,
                         lost_part='add a short limitations paragraph at the end of section 8',
                         distinct=['limitation', 'sec 8', 'section 8', 'end of sec']))
    c.tool('Edit', {'file_path': '%s/src/vsla_paper.tex' % VS, 'old_string': 'we present a production-ready library',
                    'new_string': 'we present a research prototype library'},
           "The file %s/src/vsla_paper.tex has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n"
           '    41→foundation. Building on this, we present a research prototype library that realises both models in C' % VS,
           text="I'll soften the wording in the abstract first.")
    t2 = "move related work in front of the evaluation, and drop the 'Future Directions' heading, fold that text into the conclusion"
    c.user('T2', t2, lab('instruction', "move Related Work before Evaluation; drop the 'Future Directions' heading and fold it into the conclusion", t2,
                         'lost', 'partial', ['form:partial', 'partial'], partial=True,
                         lost_part="drop the 'Future Directions' heading and fold its text into the conclusion",
                         distinct=['future directions', 'fold that', 'fold it', 'into the conclusion', 'merge it into']))
    c.tool('Edit', {'file_path': '%s/src/vsla_paper.tex' % VS,
                    'old_string': '\\input{sections/evaluation}\n\\input{sections/related_work}',
                    'new_string': '\\input{sections/related_work}\n\\input{sections/evaluation}'},
           "The file %s/src/vsla_paper.tex has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n"
           '    88→\\input{sections/related_work}\n    89→\\input{sections/evaluation}' % VS,
           text='Moving the related work section ahead of the evaluation.')
    c.user('C3', 'ok nice', lab('chatter', 'chatter: ok nice', 'ok nice', 'lost', 'omitted', ['chatter']))
    c.say('Next I will check the remaining sections for anything else that reads oddly.')
    t4 = 'set \\tolerance to 1000 in the preamble, the overfull hbox spam is driving me nuts'
    c.user('T4', t4, lab('instruction', 'set \\tolerance to 1000 in the preamble', t4, 'in_summary', 'paraphrase', ['form:paraphrase', 'numeric'],
                         S('`\\tolerance` is raised to 1000 in the preamble to cut down the overfull-hbox warnings'),
                         values=[{'value': '1000', 'status': 'in_summary', 'found_as': '1000'}]))
    c.tool('Edit', {'file_path': '%s/src/preamble.tex' % VS, 'old_string': '% QED symbol configuration',
                    'new_string': '\\tolerance=1000\n\n% QED symbol configuration'},
           "The file %s/src/preamble.tex has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n"
           '    43→\\tolerance=1000\n    44→\n    45→%% QED symbol configuration' % VS,
           text='Adding the tolerance setting to the preamble.')
    c.seg(246, 262)
    f6 = 'overleaf project is called VSLA-main btw'
    c.user('F6', f6, lab('user_fact', 'Overleaf project name VSLA-main', f6, 'in_summary', 'form:VSLA-main', ['fact'],
                         S('Overleaf project: `VSLA-main`'),
                         values=[{'value': 'VSLA-main', 'status': 'in_summary', 'found_as': 'VSLA-main'}]))
    c.say('Noted.')
    c.compact(summary_short({
        'Primary Request and Intent': [
            "The abstract's \"production ready\" wording is to be softened to \"research prototype\"",
            'Invented benchmark results in the evaluation section must be removed, because those experiments were never run',
            'Related Work is to be moved ahead of the Evaluation section',
            '`\\tolerance` is raised to 1000 in the preamble to cut down the overfull-hbox warnings',
        ],
        'Key Technical Concepts': [
            'LaTeX paper split into `src/sections/*.tex`, built with pdflatex',
            'Overleaf project: `VSLA-main`',
        ],
        'Files and Code Sections': [
            '`%s/src/sections/evaluation.tex`\n  - Fabricated "Real-World Applications" subsection and benchmark tables removed; the remaining table is labelled as illustrative' % VS,
            '`%s/src/vsla_paper.tex`\n  - Abstract wording; section order (related work before evaluation)' % VS,
            '`%s/src/preamble.tex`\n  - `\\tolerance=1000`' % VS,
            '`%s/src/sections/gradients.tex`\n  - Unclosed `\\textbf` fixed' % VS,
        ],
        'Problem Solving': [
            'The font change in the second half of the paper came from an unclosed `\\textbf` in gradients.tex',
            'The paper compiles; the PDF was copied to `vsla_paper_v0.6.pdf`',
        ],
        'Pending Tasks': ['Recompile and check that the overfull-hbox warnings are down'],
        'Current Work': 'Rebuilt the paper after removing the fabricated sections and fixing gradients.tex.',
        'Optional Next Step': 'Recompile and count the remaining warnings.',
    }))
    c.tool('Bash', {'command': 'cd /home/kenth56/vsla/docs/papers/src && pdflatex -interaction=nonstopmode vsla_paper.tex > build.log 2>&1; grep -c "Overfull" build.log',
                    'description': 'Rebuild and count overfull hbox warnings'}, '7',
           text='Rebuilding to check the effect of the tolerance change.')
    c.say('Down to 7 overfull-hbox warnings; the remaining ones are wide equations in foundations.tex and stacking.tex.')
    return c.write({'situations': ['partial', 'numeric', 'paraphrase:vocab', 'fact']})


# --------------------------------------------------------------------------------------------
def h11():
    c = Case('h11-codemie-json', 'codemie', '2.0', seed=9111, pre_tokens=158861, start='2026-01-25T10:15:00')
    t2 = ('base the field names on this, its a real session file from my machine\n\n'
          '```json\n'
          '{\n'
          '  "sessionId": "b81c04e2-5f3a-4d7e-9a51-0e6c2d7f4a19",\n'
          '  "agentSessionId": "7f2d9c31-0b6e-4c55-8d2a-31e7b9a0c6f4",\n'
          '  "agentName": "claude",\n'
          '  "provider": "ai-run-sso",\n'
          '  "startTime": 1737795301123,\n'
          '  "workingDirectory": "/Users/user/repo",\n'
          '  "gitBranch": "conversations",\n'
          '  "status": "completed",\n'
          '  "syncState": {\n'
          '    "lastProcessedLine": 240,\n'
          '    "lastProcessedTimestamp": 1737796102118,\n'
          '    "processedRecordIds": ["5b7f1e0a", "c2d94a11", "e80f3b72"],\n'
          '    "totalDeltas": 14,\n'
          '    "totalSynced": 14,\n'
          '    "totalFailed": 0\n'
          '  }\n'
          '}\n'
          '```')
    c.user('T2', [ide_opened('%s/src/agents/core/metrics/types.ts' % CM), text(t2)],
           lab('instruction', 'take the field names from the pasted real session file', t2, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'paste:json', 'wrapper:ide_opened_file'],
               S('Field names are to follow the real session file the user pasted'),
               wrapper='ide_opened_file'))
    c.seg(84, 104)
    t3 = 'use the logger from utils/logger.ts, no console.log anywhere'
    c.user('T3', t3, lab('instruction', 'log through utils/logger.ts; no console.log', t3, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:ide_wrapped'],
                         A('U3', 'use the logger from utils/logger.ts, no console.log anywhere', how='ide_wrapped'),
                         repeated_after=['ide_wrapped']))
    c.seg(109, 110)
    f4 = 'the api pages history at 200 messages'
    c.user('F4', f4, lab('user_fact', 'history API page size 200 messages', f4, 'in_summary', 'form:200 messages', ['fact'],
                         S('the API returns history in pages of 200 messages'),
                         values=[{'value': '200', 'status': 'in_summary', 'found_as': '200 messages'}]))
    c.seg(116, 131)
    t5 = 'set the timeout to 45s for the sync call'
    c.user('T5', t5, lab('instruction', 'sync call timeout 45s', t5, 'lost', 'omitted', ['form:omitted', 'numeric', 'after:assistant-topic'],
                         distinct=['45s', '45 s', 'timeout', 'forty-five', 'time out', 'time-out'],
                         values=[{'value': '45s', 'status': 'lost', 'found_as': None}]))
    c.seg(136, 146)
    c.user('C6', 'yep', lab('chatter', 'chatter: yep', 'yep', 'in_summary', 'verbatim', ['chatter', 'form:verbatim'], S('"yep"')))
    c.say('Great, continuing.')
    t7 = 'name the new interface ConversationSyncState, not ConvState or anything abbreviated'
    c.user('T7', t7, lab('instruction', 'name the new interface ConversationSyncState (no abbreviations)', t7, 'lost', 'omitted',
                         ['form:omitted'], distinct=['conversationsyncstate', 'convstate', 'abbreviat']))
    c.seg(153, 157)
    c.compact(summary_20(
        """Chronologically:

1. With `types.ts` open, the user pasted a real session file (sessionId, agentSessionId, agentName, provider, startTime, workingDirectory, gitBranch, status and a `syncState` with lastProcessedLine, lastProcessedTimestamp, processedRecordIds, totalDeltas, totalSynced, totalFailed). Field names are to follow the real session file the user pasted.
2. I updated the Phase 4.1 design in ARCHITECTURE-REFACTORING.md to use the session file at `~/.codemie/sessions/{sessionId}.json` and its `syncState`.
3. The user said the API returns history in pages of 200 messages; the design now pages through history.
4. I simplified the design to one new field, `conversationId`, and added edge cases (partial sync, deleted session, API errors).
5. The user answered "yep" when I asked whether to continue; I then read the metrics processor's error handling to mirror it.""",
        {
            'Primary Request and Intent': [
                'Design incremental conversation sync (Phase 4.1) on top of the session file the metrics processor already uses',
                'Field names are to follow the real session file the user pasted',
            ],
            'Key Technical Concepts': [
                '`syncState`: `lastProcessedLine`, `lastProcessedTimestamp`, `processedRecordIds`, `totalDeltas`, `totalSynced`, `totalFailed`',
                'the API returns history in pages of 200 messages',
                'Metrics processor: `isSyncing` guard, `try/catch/finally`, `{ success, message }`',
            ],
            'Files and Code Sections': [
                '`%s/src/agents/core/metrics/types.ts`\n  - `SyncState`; a new interface for the conversation part is planned here' % CM,
                '`%s/src/providers/plugins/sso/ARCHITECTURE-REFACTORING.md`\n  - Phase 4.1 section' % CM,
                '`%s/src/providers/plugins/sso/session/processors/metrics/metrics-processor.ts`\n  - Error handling to mirror' % CM,
            ],
            'Errors and fixes': ['None.'],
            'Problem Solving': 'Only `conversationId` is added to the sync state; the existing counters already cover the rest.',
            'All user messages': [
                'Pasted a real session file (with types.ts open) and asked for the field names to be based on it',
                'Said the API pages history at 200 messages',
                '"yep"',
            ],
            'Pending Tasks': ['Add the new interface to types.ts', 'Wire the conversation sync call into the processor'],
            'Current Work': "Reading metrics-processor.ts (lines 40-260) to copy its error handling into the conversation processor.",
            'Optional Next Step': 'Write the conversation processor changes following the metrics processor pattern.',
        }))
    c.say("Next I'll wire the conversation sync call into the processor: it sends the new messages for the session and returns "
          "`{ success, message }` like the metrics processor does.")
    c.user('U3', [ide_opened('%s/src/providers/plugins/sso/session/processors/conversations/conversation-processor.ts' % CM),
                  text('use the logger from utils/logger.ts, no console.log anywhere')],
           after=dict(repeat_of='T3', mode='ide_wrapped'))
    c.say('Will do — all output goes through the shared logger.')
    c.seg(161, 169)
    return c.write({'situations': ['paste:json', 'wrapper:ide_opened_file', 'repeat:ide_wrapped', 'numeric', 'after:assistant-topic', 'chatter-in-summary']})


# --------------------------------------------------------------------------------------------
def h12():
    c = Case('h12-ccl-reminders', 'ccl', '2.1', seed=9112, pre_tokens=155270, start='2025-07-14T18:05:00')
    t2 = 'make the session nav collapsible, use a <details> element, no js for it'
    c.user('T2', reminder_modified('%s/claude_code_log/templates/transcript.html' % CL) + '\n' + t2 + '\n'
           + reminder_modified('%s/claude_code_log/templates/components/session_nav.html' % CL),
           lab('instruction', 'session nav collapsible via <details>, no JavaScript', t2, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:system-reminder', 'reminder:both-sides'],
               S('the session navigation becomes collapsible through a native `<details>`/`<summary>` element, without any JavaScript'),
               wrapper='system-reminder'))
    c.seg(296, 305)
    t3 = 'max 2 levels of nesting in the nav'
    c.user('T3', t3, lab('instruction', 'at most 2 levels of nesting in the nav', t3, 'lost', 'omitted',
                         ['form:omitted', 'numeric', 'summary:mentions-without-content'],
                         distinct=['2 levels', 'two levels', 'nesting', 'nested', 'levels deep'],
                         values=[{'value': '2', 'status': 'lost', 'found_as': None}]))
    c.seg(306, 311)
    c.user('C4', '👌', lab('chatter', 'chatter: 👌', '👌', 'lost', 'omitted', ['chatter']))
    c.seg(312, 323)
    t5 = 'dont change the public signature of generate_html, cli.py calls it positionally'
    c.user('T5', t5, lab('instruction', "don't change generate_html's public signature (cli.py calls it positionally)", t5, 'repeated_later',
                         'omitted', ['form:omitted', 'repeat:verbatim'],
                         A('U5', 'dont change the public signature of generate_html, cli.py calls it positionally', how='verbatim'),
                         repeated_after=['verbatim']))
    c.seg(326, 339)
    t7 = 'session_nav.html should take the sessions list as an explicit param, not pull it from the global template context'
    c.user('T7', t7, lab('instruction', 'session_nav.html takes the sessions list as an explicit parameter, not from the global context', t7,
                         'lost', 'omitted', ['form:omitted', 'word-overlap', 'summary:mentions-without-content'],
                         distinct=['explicit param', 'global template context', 'pull it from', 'global context']))
    c.seg(340, 345)
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Restore the session navigation on the combined transcript page, which had been lost when the combined-transcript link was added',
            'the session navigation becomes collapsible through a native `<details>`/`<summary>` element, without any JavaScript',
            'Reuse the existing `session_nav.html` component instead of duplicated markup',
        ],
        'Key Technical Concepts': [
            '`combined_transcript_link` set → individual session page shows the link; unset → combined page shows the session list',
            'Jinja2 `{% include %}` of `components/session_nav.html`',
        ],
        'Files and Code Sections': [
            '`%s/claude_code_log/templates/transcript.html`\n  - `session_nav.html` is now included from `transcript.html` and renders the sessions list for the combined transcript' % CL,
            '`%s/claude_code_log/templates/components/session_nav.html`\n  - Wrapped in `<details open>` with a `<summary>` title' % CL,
            '`%s/claude_code_log/renderer.py`\n  - `generate_html` passes `sessions` and `combined_transcript_link` to the template' % CL,
        ],
        'Errors and fixes': ['A quick test script used a wrong import; replaced by a simulated multi-session check'],
        'Problem Solving': ['Both page types verified: the individual page shows only the link, the combined page shows the session list'],
        'All user messages': [
            'Asked for a collapsible session nav using <details>, without JS',
            'Gave a rule about the session navigation markup',
            'Gave a rule about session_nav.html and its inputs',
        ],
        'Pending Tasks': ['Run the full template rendering tests'],
        'Current Work': 'Both navigation scenarios pass with the reused component.',
        'Optional Next Step': 'Run `test/test_template_rendering.py` in full.',
    }))
    c.user('U5', 'dont change the public signature of generate_html, cli.py calls it positionally', after=dict(repeat_of='T5', mode='verbatim'))
    c.tool('Grep', {'pattern': 'generate_html\\(', 'path': 'claude_code_log/cli.py', 'output_mode': 'content', '-n': True},
           '212:        html = generate_html(messages, title)\n248:            html = generate_html(project_messages, project_title)',
           text='Let me check the call sites.')
    c.say('The call sites in cli.py pass `messages` and `title` positionally; the new argument stays a trailing keyword with a default, so they keep working.')
    return c.write({'situations': ['reminder:both-sides', 'numeric', 'repeat:verbatim', 'word-overlap']})


CASES = [h07, h08, h09, h10, h11, h12]
