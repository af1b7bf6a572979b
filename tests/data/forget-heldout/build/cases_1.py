"""h01-h06. Every label below is the labeller's judgement, written by hand."""
from builder import (Case, real_text, origin, lab, S, A, ide_opened, ide_selection, reminder_modified, text, image,
                     summary_20, summary_21, summary_short)

SN = '/Users/chip/dev/ai-music'
CM = '/Users/user/repo'
CL = '/Users/dain/workspace/claude-code-log'
VS = '/home/kenth56/vsla/docs/papers'


# --------------------------------------------------------------------------------------------
def h01():
    c = Case('h01-sniffly-vocab', 'sniffly', '2.0', seed=9101, pre_tokens=152880, start='2025-07-02T10:05:00')
    t1 = 'find me embedding models w more spread in the values. and keep the candidate list in the repo config, not hardcoded in the script'
    c.user('T1', t1, lab('instruction', 'find embedding models with more spread; candidate list in the repo config, not hardcoded', t1,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'paraphrase:vocab'],
                         S("the list of candidate models is to live in the repository's configuration file instead of being hard-coded in the script")))
    c.seg(20, 36)
    f2 = 'fyi im on an m1 macbook w 16gb ram, no cuda'
    c.user('F2', f2, lab('user_fact', 'hardware: M1 MacBook, 16 GB RAM, no CUDA', f2, 'in_summary', 'form:16 GB', ['fact'],
                         S('Apple M1 MacBook with 16 GB of memory and no CUDA'),
                         values=[{'value': '16gb', 'status': 'in_summary', 'found_as': '16 GB'}]))
    c.say("Good to know — everything here runs on CPU/MPS, so no CUDA is needed.")
    t3 = 'cap the comparison at 5 models, it takes forever otherwise'
    c.user('T3', t3, lab('instruction', 'cap the model comparison at 5 models', t3, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'numeric'],
                         S('No more than five models are compared per run, because the full comparison took too long'),
                         values=[{'value': '5', 'status': 'in_summary', 'found_as': 'five'}]))
    c.seg(37, 47)
    c.user('C4', 'lol ok', lab('chatter', 'chatter: lol ok', 'lol ok', 'lost', 'omitted', ['chatter']))
    c.say('Want me to wire the most diverse model into the generator next?')
    t5 = 'the comparison plots should use the same colour for each model across all the charts, not the matplotlib defaults'
    c.user('T5', t5, lab('instruction', 'comparison plots: one fixed colour per model across all charts, not matplotlib defaults', t5,
                         'lost', 'omitted', ['form:omitted', 'word-overlap'],
                         distinct=['same colour', 'matplotlib default', 'across all the charts', 'fixed colour', 'color']))
    c.say('Sure.')
    c.seg(50, 64)
    t7 = 'render 4 bars max per prompt'
    c.user('T7', t7, lab('instruction', 'render at most 4 bars per prompt', t7, 'lost', 'omitted', ['form:omitted', 'numeric'],
                         distinct=['4 bars', 'four bars', 'bars max', 'per prompt'],
                         values=[{'value': '4 bars', 'status': 'lost', 'found_as': None}]))
    c.seg(67, 75)
    c.compact(summary_20(
        """Going through the conversation in order:

1. **Model search**: the user wants sentence-embedding models whose vectors have a wider spread of values, and the list of candidate models is to live in the repository's configuration file instead of being hard-coded in the script. I searched for sentence-transformer models, wrote `model_comparison.py` and ran it after installing PyTorch through `requirements.txt`.
2. **Hardware**: Apple M1 MacBook with 16 GB of memory and no CUDA.
3. **Scope**: No more than five models are compared per run, because the full comparison took too long. The top three by diversity score were `all-roberta-large-v1`, `all-mpnet-base-v2` and `msmarco-distilbert-base-v4`; `model_comparison.py` also draws comparison plots of the embedding statistics for each model, and the notebook cells were updated to offer the new models.
4. **Layering**: I wrote `musical_ai_music.py`, which layers bass, chords and melody so that several parts play at the same time, plus `musical_notebook.ipynb` to try it.
5. **Sameness**: a probe of the mapping showed nearly every text lands on the same scale and tempo, so I started `diverse_musical_ai.py` with much wider mappings from embedding dimensions to musical parameters.""",
        {
            'Primary Request and Intent': [
                "Identify sentence-embedding models whose embeddings are more varied; the list of candidate models is to live in the repository's configuration file instead of being hard-coded in the script",
                'No more than five models are compared per run, because the full comparison took too long',
                'Make the generated audio more musical (layered parts) and make different texts sound different',
            ],
            'Key Technical Concepts': [
                'sentence-transformers / Hugging Face models, embedding variance as a diversity score',
                'Apple M1 MacBook with 16 GB of memory and no CUDA (CPU / MPS only)',
                'Layered synthesis: bass, chord and melody layers mixed together',
                'Mapping embedding dimensions to scale, tempo, rhythm and timbre',
            ],
            'Files and Code Sections': [
                '`%s/model_comparison.py`\n  - Scores candidate models by embedding diversity and draws comparison plots of the embedding statistics for each model' % SN,
                '`%s/ai_music_notebook.ipynb`\n  - Cells 1, 3, 11 and 14 updated to use the more diverse models' % SN,
                '`%s/musical_ai_music.py`\n  - `MusicalEmbeddingToSound`: layered bass/chords/melody' % SN,
                '`%s/diverse_musical_ai.py`\n  - New generator with wider parameter mappings (just written)' % SN,
            ],
            'Errors and fixes': [
                '`None of PyTorch, TensorFlow >= 2.0, or Flax have been found` → installed the requirements, then reran the comparison',
            ],
            'Problem Solving': 'The most diverse model (all-roberta-large-v1, score 8.42) spreads values far more than MiniLM. The sameness comes from the mapping, not the model: nearly every embedding maps to the same scale and tempo.',
            'All user messages': [
                "Asked for embedding models with a larger spread of values, with the candidate list kept in the repository's configuration rather than hard-coded",
                'Mentioned the hardware: M1 MacBook, 16 GB, no CUDA',
                'Asked to limit the comparison to five models because it was too slow',
            ],
            'Pending Tasks': ['Run `diverse_musical_ai.py` and check that different texts produce audibly different music'],
            'Current Work': 'Just wrote `diverse_musical_ai.py` and updated the todo list; the next step is running it.',
            'Optional Next Step': 'Run `python diverse_musical_ai.py` and fix any errors.',
        }))
    c.seg(76, 81)
    return c.write({'situations': ['paraphrase:vocab', 'numeric', 'word-overlap', 'omitted']})


# --------------------------------------------------------------------------------------------
def h02():
    c = Case('h02-codemie-repeats', 'codemie', '2.1', seed=9102, pre_tokens=160412, start='2026-01-23T09:30:00')
    t0 = real_text('codemie', 175)
    c.user('T0', t0, lab('instruction', 'metrics has no failure tracking: should conversation sync be combined with it (no separate failure tracking)?', t0,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'real-turn'],
                         S('Because the metrics processor keeps no failure tracking, the user questioned whether conversation sync should have its own, and suggested one combined approach'),
                         origin=origin('codemie', 175)))
    c.seg(177, 177)
    c.seg(109, 110)
    t2 = 'fyi for docs we have a house style: no emojis and no ✅ checkmarks in headings, we strip those in review anyway'
    c.user('T2', t2, lab('instruction', 'docs style: no emojis, no ✅ checkmarks in headings', t2, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:in_tool_result'],
                         A('R2', 'No emojis, and no ✅ checkmarks in headings.', how='in_tool_result'),
                         repeated_after=['in_tool_result']))
    c.say('Noted.')
    c.seg(116, 131)
    c.user('C3', 'ok sure', lab('chatter', 'chatter: ok sure', 'ok sure', 'lost', 'omitted', ['chatter']))
    c.seg(136, 146)
    t4 = 'keep the phase 4.1 section under 150 lines, its getting huge'
    c.user('T4', t4, lab('instruction', 'keep the Phase 4.1 section under 150 lines', t4, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:verbatim', 'numeric'],
                         A('U4', 'keep the phase 4.1 section under 150 lines, its getting huge', how='verbatim'),
                         repeated_after=['verbatim'],
                         values=[{'value': '150 lines', 'status': 'repeated_later', 'found_as': '150 lines'}]))
    c.seg(153, 157)
    t6 = ('handle this case pls. a 409 there means the msgs are already on the server -> treat it as success, no retry\n\n'
          '```\n'
          '[2026-01-23T08:14:02.118Z] [INFO] [conversation-sync] session 3dd0d670 → 14 new messages (lines 212-240)\n'
          '[2026-01-23T08:14:02.410Z] [DEBUG] [api] POST /v1/conversations/86f1c2e0/messages batch=1/1 size=14\n'
          '[2026-01-23T08:14:03.002Z] [WARN] [api] 409 Conflict: {"error":"messages_exist","ids":["msg_01J8",...]}\n'
          '[2026-01-23T08:14:03.003Z] [ERROR] [conversation-sync] sync failed for 3dd0d670: Request failed with status code 409\n'
          '[2026-01-23T08:14:03.004Z] [DEBUG] [session-store] syncState.conversations.status=failed lastError="409 Conflict"\n'
          '[2026-01-23T08:19:02.131Z] [INFO] [conversation-sync] session 3dd0d670 → 14 new messages (lines 212-240)\n'
          '[2026-01-23T08:19:02.398Z] [WARN] [api] 409 Conflict: {"error":"messages_exist","ids":["msg_01J8",...]}\n'
          '[2026-01-23T08:19:02.399Z] [ERROR] [conversation-sync] sync failed for 3dd0d670: Request failed with status code 409\n'
          '```')
    c.user('T6', t6, lab('instruction', 'a 409 from the messages endpoint means already synced: treat as success, do not retry (pasted log)', t6,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'paste:log'],
                         S('An HTTP 409 Conflict (`messages_exist`) from the messages endpoint means the messages are already stored server-side, so it is to be counted as a successful sync and never retried')))
    c.seg(161, 169)
    t7 = "syncState fields stay camelCase. dont introduce snake_case keys even if the api returns them that way"
    c.user('T7', t7, lab('instruction', 'syncState keys stay camelCase; no snake_case keys even if the API uses them', t7, 'lost', 'omitted',
                         ['form:omitted', 'after:assistant-topic'],
                         distinct=['camelcase', 'snake_case', 'snake case', 'camel case']))
    c.say('Got it.')
    c.seg(186, 190)
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Design Phase 4.1 (incremental conversation sync) in `src/providers/plugins/sso/ARCHITECTURE-REFACTORING.md`, reusing the session file and `syncState` that the metrics processor already maintains',
            'Because the metrics processor keeps no failure tracking, the user questioned whether conversation sync should have its own, and suggested one combined approach',
            'An HTTP 409 Conflict (`messages_exist`) from the messages endpoint means the messages are already stored server-side, so it is to be counted as a successful sync and never retried',
        ],
        'Key Technical Concepts': [
            'Session file `~/.codemie/sessions/{sessionId}.json` with a `syncState` object',
            '`processedRecordIds`, `lastProcessedLine`, `lastProcessedTimestamp`; the new `conversationId`',
            'Metrics processor pattern: `isSyncing` guard, `try/catch/finally`, `{ success, message }` result',
        ],
        'Files and Code Sections': [
            '`%s/src/providers/plugins/sso/ARCHITECTURE-REFACTORING.md`\n  - Phase 4.1 section: SyncState extension, conversation processor changes, edge cases' % CM,
            '`%s/src/providers/plugins/sso/session/processors/metrics/metrics-processor.ts`\n  - Read for its error handling, which the conversation processor should mirror' % CM,
        ],
        'Errors and fixes': ['None in this part of the conversation.'],
        'Problem Solving': [
            'Dropped the separate conversation failure counters so that both processors behave the same; only `conversationId` is added to `syncState`.',
            'The edge-case section was simplified to the pattern used by the metrics processor.',
        ],
        'All user messages': [
            'Pointed out that metrics has no failure tracking and asked whether it makes sense to have it combined',
            'Pasted a log of two failing syncs and asked for the 409 case to be handled as success without retrying',
        ],
        'Pending Tasks': ['Finish the Phase 4.1 edits (deliverables and technical requirements)'],
        'Current Work': 'Editing the Phase 4.1 section of ARCHITECTURE-REFACTORING.md to add the 409 handling to the conversation processor description.',
        'Optional Next Step': 'Update the Phase 4.1 deliverables list.',
    }))
    c.tool('Read', {'file_path': '%s/docs/WRITING-STYLE.md' % CM},
           '     1→# Writing style for design docs\n     2→\n     3→- Plain Markdown headings: `##` for phases, `###` for steps.\n'
           '     4→- No emojis, and no ✅ checkmarks in headings.\n     5→- Code blocks carry a language tag.\n'
           '     6→- Keep sections short; link to code instead of pasting it.\n',
           text='Before editing the document further, let me check the docs conventions.', anchor='R2')
    c.say("I'll continue with the Phase 4.1 deliverables.")
    c.user('U4', 'keep the phase 4.1 section under 150 lines, its getting huge', after=dict(repeat_of='T4', mode='verbatim'))
    c.say("Understood. I'll tighten it: the `syncState` part only needs the new `conversationId` field and a short note on how it is filled, "
          "and the processor section can point at the metrics processor instead of repeating it.")
    c.seg(198, 202)
    return c.write({'situations': ['repeat:in_tool_result', 'repeat:verbatim', 'after:assistant-topic', 'paste:log']})


# --------------------------------------------------------------------------------------------
def h03():
    c = Case('h03-ccl-selection', 'ccl', 'short', seed=9103, pre_tokens=148230, start='2025-07-12T14:20:00')
    code = ('def _get_combined_transcript_link(cache_manager: "CacheManager") -> Optional[str]:\n'
            '    """Return the link to the combined transcript, if the project has one."""\n'
            '    # TODO: always regenerate the cache on every run, never trust the stored index\n'
            '    project_cache = cache_manager.get_cached_project_data()\n'
            '    if project_cache is None or not project_cache.sessions:\n'
            '        return None')
    t1 = 'this is doing too much, pull the link building out into its own small helper'
    c.user('T1', [ide_selection('%s/claude_code_log/renderer.py' % CL, 660, 665, code), text(t1)],
           lab('instruction', 'extract the link building into its own small helper', t1, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_selection', 'selection:imperative'],
               S('The URL construction was to be factored out of `_get_combined_transcript_link` into a separate, small helper function'),
               wrapper='ide_selection'))
    c.seg(13, 41)
    t2 = 'run the tests with uv run pytest, not bare pytest. venv isnt activated in this shell'
    c.user('T2', t2 + '\n' + reminder_modified('%s/claude_code_log/renderer.py' % CL),
           lab('instruction', 'run tests via `uv run pytest`, not bare pytest (venv not active)', t2, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'paraphrase:vocab', 'wrapper:system-reminder', 'reminder:after'],
               S('Tests must always be invoked through `uv run pytest`, since the virtual environment is not activated in the shell'),
               wrapper='system-reminder'))
    c.seg(44, 63)
    t3 = 'put the new test in test/test_renderer_links.py and dont use snapshot files for it, just assert on the html'
    c.user('T3', t3, lab('instruction', 'new test in test/test_renderer_links.py; no snapshot files, assert on the HTML', t3, 'lost', 'partial',
                         ['form:partial', 'partial'], partial=True, lost_part="don't use snapshot files; assert on the HTML directly",
                         distinct=['snapshot', 'assert on the html'],
                         values=[{'value': 'test/test_renderer_links.py', 'status': 'in_summary', 'found_as': 'test/test_renderer_links.py'}]))
    c.seg(64, 72)
    c.interrupt()
    f4 = 'uv is 0.4.18 here if it matters'
    c.user('F4', f4, lab('user_fact', 'uv version 0.4.18', f4, 'lost', 'omitted', ['fact'], distinct=['0.4.18'],
                         values=[{'value': '0.4.18', 'status': 'lost', 'found_as': None}]))
    c.say('Thanks — that version supports everything used here.')
    code5 = ('    {% if combined_transcript_link %}\n'
             '    {# NOTE: keep this wrapper div, the print stylesheet depends on it #}\n'
             '    <div class="navigation combined-link">\n'
             '        <a href="{{ combined_transcript_link }}">View all sessions</a>\n'
             '    </div>\n'
             '    {% endif %}')
    t5 = 'drop the div here, a plain <a> is enough'
    c.user('T5', [ide_selection('%s/claude_code_log/templates/transcript.html' % CL, 52, 57, code5), text(t5)],
           lab('instruction', 'drop the wrapper div around the combined link; a plain <a> is enough', t5, 'lost', 'omitted',
               ['form:omitted', 'wrapper:ide_selection', 'selection:imperative'],
               distinct=['plain <a>', 'wrapper div', 'drop the div'], wrapper='ide_selection'))
    c.seg(228, 250)
    c.user('C6', 'ty', lab('chatter', 'chatter: ty', 'ty', 'lost', 'omitted', ['chatter']))
    c.seg(251, 279)
    c.compact(summary_short({
        'Primary Request and Intent': [
            'Replace the cross-session navigation with a single link to the combined transcript (carried over from earlier in the session)',
            'The URL construction was to be factored out of `_get_combined_transcript_link` into a separate, small helper function',
            'Tests must always be invoked through `uv run pytest`, since the virtual environment is not activated in the shell',
            'New tests belong in `test/test_renderer_links.py`',
        ],
        'Key Technical Concepts': [
            'Jinja2 templates (`transcript.html`, `components/session_nav.html`)',
            '`CacheManager(project_dir, library_version)` and `get_cached_project_data()`',
            '`generate_session_html` / `generate_html` in `renderer.py`',
        ],
        'Files and Code Sections': [
            '`claude_code_log/renderer.py`\n  - `_get_combined_transcript_link()` plus a helper that builds the URL; the cross-session navigation removed',
            '`claude_code_log/templates/transcript.html`\n  - Renders the combined transcript link when `combined_transcript_link` is set',
            '`claude_code_log/templates/components/session_nav_styles.css`\n  - Styles for the link, reusing `.navigation`',
            '`test/test_renderer_links.py`\n  - Tests for the link (with / without a cache manager, empty session list)',
        ],
        'Problem Solving': [
            '`generate_session_html` returned early for an empty session list without passing the link; fixed so the link is always passed',
            'The tests were checking for the literal variable name instead of the rendered link text; corrected',
        ],
        'Pending Tasks': ['Run the wider template rendering tests and ruff'],
        'Current Work': 'All tests in `test/test_renderer_links.py` pass after the last round of edits.',
        'Optional Next Step': 'Run `test/test_template_rendering.py` and `ruff check` on renderer.py.',
    }))
    c.seg(280, 293)
    return c.write({'situations': ['selection:imperative', 'reminder:after', 'partial', 'fact-lost']})


# --------------------------------------------------------------------------------------------
def h04():
    c = Case('h04-cclimg-images', 'cclimg', '2.0', seed=9104, pre_tokens=156044, start='2025-06-28T11:00:00')
    TL = '%s/claude_code_log/templates/components/timeline.html' % CL
    t1 = 'the rows jump around when i toggle filters. keep the row order fixed, groups sorted in the same order as the filter toolbar buttons'
    c.user('T1', [ide_opened(TL), text(t1)],
           lab('instruction', 'keep timeline row order fixed when filtering; groups in filter-toolbar order', t1, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_opened_file'],
               S('Timeline rows must stay in a stable order while filters are toggled, with the groups ordered like the buttons of the filter toolbar'),
               wrapper='ide_opened_file'))
    c.seg(2, 14)
    c.interrupt()
    t2 = 'see the gap on the left? the group label column should be 120px wide, not auto\n\n[Image #1]'
    c.user('T2', [image((240, 240, 235)), text(t2)],
           lab('instruction', 'group label column fixed at 120px instead of auto (screenshot)', t2, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'image', 'numeric'],
               S('the group label column gets a fixed width of 120 px instead of `auto`'),
               values=[{'value': '120px', 'status': 'in_summary', 'found_as': '120 px'}]))
    c.say('I see the gap. Let me look at how the groups are set up first.')
    c.seg(24, 35)
    t3 = "same page in safari [Image #1] dont use :has() in the css, safari 15 doesnt support it and thats what half our users are on"
    c.user('T3', [image((180, 190, 210)), text(t3)],
           lab('instruction', 'no :has() selectors in the CSS (Safari 15 lacks support)', t3, 'lost', 'omitted',
               ['form:omitted', 'image', 'summary:mentions-without-content'],
               distinct=[':has(', 'safari']))  # the summary says a screenshot "in another browser" was sent, nothing more
    c.seg(39, 44)
    c.interrupt()
    c.user('C4', 'perfect thx', lab('chatter', 'chatter: perfect thx', 'perfect thx', 'in_summary', 'verbatim', ['chatter', 'form:verbatim'],
                                    S('"perfect thx"')))
    c.say("You're welcome!")
    t5 = '[Image #1] the tooltips get cut off at the right edge. flip them to open leftwards near the edge and keep them max 300px wide'
    c.user('T5', [image((60, 60, 70)), text(t5)],
           lab('instruction', 'tooltips: open leftwards near the right edge; max 300px wide', t5, 'lost', 'partial',
               ['form:partial', 'partial', 'image', 'numeric'], partial=True, lost_part='keep them max 300px wide',
               distinct=['300px', '300 px', 'max width', 'max-width'],
               values=[{'value': '300px', 'status': 'lost', 'found_as': None}]))
    c.seg(49, 57)
    t6 = "dont commit any of this, ill go over the diff myself"
    c.user('T6', t6, lab('instruction', 'do not commit; the user reviews the diff first', t6, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:paraphrase'],
                         A('U6', 'reminder: no commits pls, i want to review the diff first', how='paraphrase'),
                         repeated_after=['paraphrase']))
    c.say('Understood.')
    c.compact(summary_20(
        """Chronologically:

1. The user had `timeline.html` open and reported that timeline rows jump around when filters are toggled. Timeline rows must stay in a stable order while filters are toggled, with the groups ordered like the buttons of the filter toolbar.
2. A screenshot showed a gap left of the timeline; the group label column gets a fixed width of 120 px instead of `auto`. My first MultiEdit was rejected; I then read the filter toolbar markup in `transcript.html`.
3. I updated `applyFilters()` so it sets `visible` on vis groups by matching group ids against the active filters; that edit was applied.
4. A CSS edit to `timeline_styles.css` was rejected by the user; the user then replied "perfect thx" to my follow-up.
5. With another screenshot the user pointed out tooltips being clipped at the right edge of the page; tooltips near the right edge should open towards the left. I edited `timeline.html` accordingly.""",
        {
            'Primary Request and Intent': [
                'Timeline rows must stay in a stable order while filters are toggled, with the groups ordered like the buttons of the filter toolbar',
                'the group label column gets a fixed width of 120 px instead of `auto`',
                'Tooltips close to the right edge of the page should open towards the left instead of being clipped',
            ],
            'Key Technical Concepts': [
                'vis-timeline groups (`visible`, `order`), `groupOrder` option',
                '`.filter-toggle` buttons with `data-filter` in `transcript.html`',
                'Tooltip positioning relative to the viewport',
            ],
            'Files and Code Sections': [
                '`%s`\n  - `applyFilters()` now toggles group visibility; groups get an explicit `order`' % TL,
                '`%s/claude_code_log/templates/components/timeline_styles.css`\n  - Label column width' % CL,
                '`%s/claude_code_log/templates/transcript.html`\n  - Filter toolbar markup (read only)' % CL,
            ],
            'Errors and fixes': ['Two MultiEdit calls and one CSS edit were rejected by the user; the approach was changed each time.'],
            'Problem Solving': 'Hiding groups instead of items keeps rows from collapsing; explicit group order keeps rows from jumping.',
            'All user messages': [
                'Reported that rows jump when toggling filters and asked for a fixed order matching the filter toolbar (with timeline.html open)',
                'Screenshot: asked for the group label column to be 120px wide instead of auto',
                'Sent a screenshot of the same page in another browser',
                '"perfect thx"',
                'Screenshot: tooltips cut off at the right edge; asked for them to open leftwards near the edge',
            ],
            'Pending Tasks': ['Check the tooltip change in the browser with the sample transcript'],
            'Current Work': 'Just applied the tooltip change in `timeline.html` and updated the todo list.',
            'Optional Next Step': 'Regenerate the sample transcript and check the tooltips near the right edge.',
        }))
    c.user('U6', 'reminder: no commits pls, i want to review the diff first', after=dict(repeat_of='T6', mode='paraphrase'))
    c.say("Got it — I'll leave everything uncommitted.")
    c.tool('Bash', {'command': 'git status --short', 'description': 'Show changed files'},
           ' M claude_code_log/templates/components/timeline.html\n M claude_code_log/templates/components/timeline_styles.css')
    c.say('Both changed files are left as working-tree changes for your review.')
    return c.write({'situations': ['image', 'partial', 'wrapper:ide_opened_file', 'repeat:paraphrase', 'chatter-in-summary']})


# --------------------------------------------------------------------------------------------
def h05():
    c = Case('h05-vsla-paste', 'vsla', '2.1', seed=9105, pre_tokens=154770, start='2025-07-19T22:05:00')
    t1 = real_text('vsla', 336)
    c.user('T1', t1, lab('instruction', 'count every "?" in v0.43 with locations, then fix them all, recompiling until none remain', t1,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'real-turn'],
                         S('Every `?` placeholder in the v0.43 build was to be counted and located, then eliminated by recompiling and re-checking in a loop until none were left'),
                         origin=origin('vsla', 336)))
    c.seg(337, 385)
    t3 = ('ok now trim the sections to these page budgets:\n\n'
          'Section            | now | budget\n'
          '-------------------|-----|-------\n'
          'Introduction       | 2.5 | 2\n'
          'Foundations        | 4   | 3\n'
          'Model A / Model B  | 3   | 3\n'
          'Stacking           | 5   | 3\n'
          'Gradients          | 2   | 1.5\n'
          'Advanced ops       | 3   | 2\n'
          'Applications       | 2   | 1\n'
          'Evaluation         | 3   | 2\n'
          'Related work       | 1.5 | 1.5\n'
          'Conclusion         | 0.5 | 0.5\n'
          'total              | 26.5| 19.5')
    c.user('T3', t3, lab('instruction', 'trim each section to the pasted page budget (total 19.5 pages)', t3, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paste:table'],
                         S('Each section is to be shortened to the page budget in the table the user pasted (Introduction 2, Foundations 3, Model A/B 3, Stacking 3, Gradients 1.5, Advanced ops 2, Applications 1, Evaluation 2, Related work 1.5, Conclusion 0.5; 19.5 pages in total)'),
                         values=[{'value': '19.5', 'status': 'in_summary', 'found_as': '19.5 pages'}]))
    c.seg(387, 400)
    f4 = 'the old preprint is arXiv:2507.10123 if u need to cite it'
    c.user('F4', f4, lab('user_fact', 'earlier preprint arXiv:2507.10123', f4, 'in_summary', 'form:arXiv 2507.10123', ['fact'],
                         S('earlier preprint: arXiv 2507.10123'),
                         values=[{'value': 'arXiv:2507.10123', 'status': 'in_summary', 'found_as': 'arXiv 2507.10123'}]))
    c.say("Thanks, I'll cite it where the paper refers to the earlier version.")
    t5 = 'for the page budget dont shrink fonts or margins or squeeze the floats, cut text only'
    c.user('T5', t5, lab('instruction', 'meet the page budget by cutting text only; no smaller fonts, margins or squeezed floats', t5,
                         'lost', 'omitted', ['form:omitted', 'word-overlap', 'after:assistant-topic'],
                         distinct=['fonts', 'margins', 'squeeze', 'text only', 'floats']))
    c.seg(401, 426)
    c.user('C6', 'nice, that reads way better', lab('chatter', 'chatter: nice, that reads way better', 'nice, that reads way better', 'lost',
                                                    'omitted', ['chatter']))
    c.say('Glad it helps. Next I will go through the remaining sections.')
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Every `?` placeholder in the v0.43 build was to be counted and located, then eliminated by recompiling and re-checking in a loop until none were left',
            'Each section is to be shortened to the page budget in the table the user pasted (Introduction 2, Foundations 3, Model A/B 3, Stacking 3, Gradients 1.5, Advanced ops 2, Applications 1, Evaluation 2, Related work 1.5, Conclusion 0.5; 19.5 pages in total)',
        ],
        'Key Technical Concepts': [
            'pdflatex + bibtex cycle; undefined citations shown as `?`',
            'Operator macros in `preamble.tex` (`\\Stack`, `\\Wstack`, `\\vdim`, ...)',
            'Page budget per section',
            'earlier preprint: arXiv 2507.10123',
        ],
        'Files and Code Sections': [
            '`%s/src/bibliography.bib`\n  - Triple-quote wrapper removed earlier; all cited keys present' % VS,
            '`%s/src/preamble.tex`\n  - Operator macros added' % VS,
            '`%s/src/sections/stacking.tex`\n  - Sigma replaced by `\\Stack_k`, figure caption and TikZ labels updated, section shortened towards its 3-page budget' % VS,
            '`%s/vsla_paper_v0.44.pdf`\n  - Build with all citations resolved' % VS,
        ],
        'Errors and fixes': ['Citations showed as `?` until bibtex ran between two pdflatex passes; `grep -c undefined` now returns 0'],
        'Problem Solving': ['v0.44 has no undefined references left; the page-budget work started with the stacking section'],
        'All user messages': [
            'Asked to count the "?" symbols in v0.43 with their locations and fix all of them, recompiling and searching until none remain',
            'Pasted a table of per-section page budgets and asked to trim the sections to them',
            'Gave the arXiv id of the earlier preprint',
        ],
        'Pending Tasks': ['Bring Foundations, Gradients, Advanced ops, Applications and Evaluation down to their budgets', 'Rebuild and report the page count'],
        'Current Work': 'Shortening `sections/stacking.tex`; the Sigma → `\\Stack` notation changes there are done.',
        'Optional Next Step': 'Continue with the window-stacking subsection of stacking.tex, then Foundations.',
    }))
    c.seg(427, 438)
    c.say('Stacking is now close to its budget. I will make the window-stacking subsection more compact next and then move on to Foundations.')
    return c.write({'situations': ['paste:table', 'word-overlap', 'after:assistant-topic', 'real-turn']})


# --------------------------------------------------------------------------------------------
def h06():
    c = Case('h06-worktrees-numbers', 'worktrees', '2.0', seed=9106, pre_tokens=150117, start='2026-04-18T15:10:00')
    t1 = 'ok lets try it: split the 3 research topics from the README across teammates, one each, and run them in parallel not one after another'
    c.user('T1', t1, lab('instruction', 'one README research topic per teammate, run in parallel', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:vocab'],
                         S('The three research topics from the README are distributed one per teammate, and the teammates work concurrently rather than sequentially')))
    c.seg(10, 36)
    t2 = 'each doc needs at least 2 sources, links at the bottom'
    c.user('T2', t2, lab('instruction', 'each doc cites at least 2 sources, links at the bottom', t2, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:paraphrase', 'numeric'],
                         A('U2', "also every doc should have 2+ sources linked at the end, carol's has none", how='paraphrase'),
                         repeated_after=['paraphrase'],
                         values=[{'value': '2', 'status': 'repeated_later', 'found_as': '2+'}]))
    c.seg(41, 52)
    t3 = 'give them 20 min each, if one isnt done by then just check on it and tell me'
    c.user('T3', t3, lab('instruction', 'give each teammate 20 minutes; then check on stragglers and report', t3, 'lost', 'omitted',
                         ['form:omitted', 'numeric'], distinct=['20 min', 'twenty min', 'check on it', 'by then'],
                         values=[{'value': '20 min', 'status': 'lost', 'found_as': None}]))
    c.seg(54, 63)
    f5 = 'fyi default branch here is master, not main'
    c.user('F5', f5, lab('user_fact', 'default branch is master', f5, 'in_summary', 'form:master', ['fact'],
                         S('default branch: `master` (not `main`)'),
                         values=[{'value': 'master', 'status': 'in_summary', 'found_as': '`master`'}]))
    c.seg(66, 90)
    c.user('C6', 'sweet', lab('chatter', 'chatter: sweet', 'sweet', 'lost', 'omitted', ['chatter']))
    c.seg(92, 111)
    t7 = 'dont let them push anything to origin, local branches only'
    c.user('T7', t7, lab('instruction', 'no pushes to origin; local branches only', t7, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:ide_wrapped'],
                         A('U7', 'dont let them push anything to origin, local branches only', how='ide_wrapped'),
                         repeated_after=['ide_wrapped']))
    c.say('Understood.')
    c.compact(summary_20(
        """In order:

1. The user set up an experiment: the three research topics from the README are distributed one per teammate, and the teammates work concurrently rather than sequentially. I checked the repo state (default branch: `master` (not `main`), clean tree) and created six tasks: three research tasks (alice, bob, carol), a merge, a round-2 comparison step and a second merge.
2. I spawned alice, bob and carol as general-purpose agents, each in its own worktree. All three came back with one commit each on `alice/research-plan-mode`, `bob/research-teammates` and `carol/research-beads`.
3. I merged the three branches into `master` with an octopus `--no-ff` merge (commit 1b6c52f) and verified `work/` contains the three documents.
4. Round 2 was sent to the teammates with SendMessage: each pulls master, reads the other two docs and adds a "Comparison" section.""",
        {
            'Primary Request and Intent': [
                'The three research topics from the README are distributed one per teammate, and the teammates work concurrently rather than sequentially',
                'After round 1, each teammate reads the other two documents and adds a "Comparison" section to its own',
            ],
            'Key Technical Concepts': [
                'Agent tool with named general-purpose subagents in isolated worktrees',
                'TaskCreate / TaskUpdate for tracking, SendMessage for round 2',
                'Octopus merge with `--no-ff`; default branch: `master` (not `main`)',
            ],
            'Files and Code Sections': [
                '`work/plan-mode.md` (alice), `work/teammates.md` (bob), `work/beads.md` (carol): round-1 research documents',
            ],
            'Errors and fixes': ['None.'],
            'Problem Solving': 'All three teammates finished round 1 without conflicts; the merge was clean.',
            'All user messages': [
                'Asked to split the three README topics across teammates, one each, working in parallel',
                'Mentioned that the default branch is master',
            ],
            'Pending Tasks': ['Wait for the three round-2 replies', 'Merge the round-2 branches into master'],
            'Current Work': 'Round 2 was dispatched to alice, bob and carol; waiting for their replies.',
            'Optional Next Step': 'Check the task list and the worktrees for round-2 commits.',
        }))
    c.user('U7', [ide_opened('/experiments/worktrees/README.md'), text('dont let them push anything to origin, local branches only')],
           after=dict(repeat_of='T7', mode='ide_wrapped'))
    c.seg(120, 131)
    c.user('U2', "also every doc should have 2+ sources linked at the end, carol's has none", after=dict(repeat_of='T2', mode='paraphrase'))
    c.say("I'll include that in the follow-up to carol.")
    return c.write({'situations': ['numeric', 'repeat:paraphrase', 'repeat:ide_wrapped', 'fact']})


CASES = [h01, h02, h03, h04, h05, h06]
