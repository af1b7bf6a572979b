"""o13-o18: image, partial, omitted."""
from builder import (Case, real_text, origin, lab, S, A, ide_opened, ide_selection, reminder_modified, text, image,
                     summary_20, summary_21, summary_short, real_records, FAMILIES)

CCL = '/Users/dain/workspace/claude-code-log'
V = '/home/kenth56/vsla/docs/papers/src'


def o13():
    c = Case('o13-image', 'cclimg', 'short', seed=113, pre_tokens=158860, start='2025-11-05T17:40:00')
    t1 = 'the timeline gets way too tall with lots of groups, cap it at 600px and scroll inside'
    c.user('T1', t1, lab('instruction', 'cap the timeline height at 600px and scroll inside', t1, 'in_summary', 'paraphrase', ['form:paraphrase'],
                         S('Limit the timeline to a height of 600px and let it scroll internally when there are many groups'),
                         values=[{'value': '600px', 'status': 'in_summary', 'found_as': '600px'}]))
    c.seg(2, 8)
    t2 = real_text('cclimg', 46)
    c.user('T2', [image((120, 160, 220)), text(t2)],
           lab('instruction', 'the library sets the group style inline; there is no data-groupid (screenshot)', t2, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'image'],
               S("The user's screenshot showed that vis-timeline sets the group style inline and that the elements have no `data-groupid` attribute"),
               origin=origin('cclimg', 46)))
    c.seg(48, 50)
    t3 = "[Image #1] the sidechain items overlap the group labels now. fix that but dont change the colours again"
    c.user('T3', [image((230, 200, 120)), text(t3)],
           lab('instruction', "fix sidechain items overlapping the group labels; don't change the colours again", t3, 'lost', 'partial',
               ['form:partial', 'image', 'partial'], partial=True, lost_part="don't change the colours again",
               distinct=['colours again', 'change the colours', "don't change", 'dont change']))
    c.seg(23, 35)
    c.user('C4', 'thanks!', lab('chatter', 'chatter: thanks!', 'thanks!', 'lost', 'omitted', ['chatter']))
    c.say("You're welcome!")
    t5 = '[Image #1] thats firefox, the filter buttons wrap onto 2 lines there. needs to work in firefox too'
    c.user('T5', [image((90, 200, 120)), text(t5)],
           lab('instruction', 'filter buttons wrap onto two lines in Firefox; must work in Firefox too', t5, 'lost', 'omitted',
               ['form:omitted', 'image', 'omitted'], distinct=['firefox', 'wrap', '2 lines']))
    c.seg(39, 40)
    c.compact(summary_short({
        'Primary Request and Intent': [
            'Limit the timeline to a height of 600px and let it scroll internally when there are many groups',
            "The user's screenshot showed that vis-timeline sets the group style inline and that the elements have no `data-groupid` attribute, so the style has to be set through the group definitions rather than CSS selectors",
            'Fix the sidechain items overlapping the group labels (shown in a screenshot)',
        ],
        'Key Technical Concepts': [
            'vis-timeline options (`maxHeight`, `verticalScroll`) and group definitions with a `style` string',
            'Message filters toggle the `filtered-hidden` class; the timeline hides the matching groups',
        ],
        'Files and Code Sections': [
            "`claude_code_log/templates/components/timeline.html`\n  - Group definitions, e.g. `'sidechain': { id: 'sidechain', content: '🔗 Sub-assistant', style: 'background-color: #ffeee1;' }`\n  - `applyFilters()`",
            '`claude_code_log/templates/components/timeline_styles.css`\n  - Timeline container and label styles',
            '`claude_code_log/templates/transcript.html`\n  - Filter toolbar',
        ],
        'Problem Solving': ['Group style is applied inline by the library, so it is set in the group definitions.'],
        'Pending Tasks': ['Fix the overlap of sidechain items with the group labels'],
        'Current Work': 'Updated `applyFilters()` in timeline.html to hide whole groups.',
        'Optional Next Step': 'Adjust the item/label layout so sidechain items no longer overlap the labels.',
    }))
    c.seg(54, 57)
    return c.write({'class': 'image'})


def o14():
    c = Case('o14-image', 'sniffly', '2.0', seed=114, pre_tokens=155312, start='2025-11-20T09:00:00')
    t1 = 'make a small chart of the embedding variance per model so i can compare them'
    c.user('T1', t1, lab('instruction', 'chart of embedding variance per model', t1, 'in_summary', 'verbatim', ['form:verbatim'],
                         S('"make a small chart of the embedding variance per model so i can compare them"')))
    c.seg(20, 28)
    f3 = '[Image #1] thats the error i get. torch is 2.1.0'
    c.user('F3', [image((40, 40, 40)), text(f3)],
           lab('user_fact', 'torch version 2.1.0 (error screenshot)', f3, 'in_summary', 'form:torch 2.1.0', ['fact', 'image'],
               S('Environment: torch 2.1.0'), values=[{'value': '2.1.0', 'status': 'in_summary', 'found_as': 'torch 2.1.0'}]))
    c.seg(29, 34)
    t2 = '[Image #1] this is the spectrogram, everything is bunched up in the low end. spread the notes over more octaves'
    c.user('T2', [image((20, 60, 160)), text(t2)],
           lab('instruction', 'spectrogram: everything in the low end; spread notes over more octaves', t2, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'image'],
               S("Per the user's spectrogram screenshot, the notes sit almost entirely in the low register; they are to be distributed across a wider range of octaves")))
    c.seg(49, 59)
    t4 = '[Image #1] it clips at the end like this. normalize every track to -1 dBFS'
    c.user('T4', [image((200, 30, 30)), text(t4)],
           lab('instruction', 'audio clips at the end: normalize every track to -1 dBFS', t4, 'lost', 'omitted', ['form:omitted', 'image', 'omitted'],
               values=[{'value': '-1 dBFS', 'status': 'lost', 'found_as': None}], distinct=['dBFS', '-1 db', 'clips at the end']))
    c.seg(66, 70)
    c.user('C5', 'perfect', lab('chatter', 'chatter: perfect', 'perfect', 'in_summary', 'verbatim', ['chatter'], S('"perfect"')))
    c.say('Great! Next I can make the mapping use more of the embedding.')
    c.compact(summary_20(
        """Chronological review:

1. The user asked for a small chart comparing the embedding variance of the candidate models.
2. I wrote `model_comparison.py`; the first run failed because PyTorch could not be found. The user sent a screenshot of the error (torch 2.1.0 installed).
3. After installing the requirements the comparison ran.
4. The user sent a spectrogram screenshot: the notes are all in the low end and should be spread over more octaves. I wrote `musical_ai_music.py` with layered parts across registers.
5. I checked the scale/tempo mapping for a few prompts.
6. The user said "perfect".""",
        {
            'Primary Request and Intent': [
                'Chart the embedding variance per model so the models can be compared',
                "Per the user's spectrogram screenshot, the notes sit almost entirely in the low register; they are to be distributed across a wider range of octaves",
            ],
            'Key Technical Concepts': [
                'Environment: torch 2.1.0',
                'sentence-transformers models compared by embedding variance',
                'Layered synthesis (bass, chords, melody) spread over several octaves',
            ],
            'Files and Code Sections': [
                '`/Users/chip/dev/ai-music/model_comparison.py`\n  - Computes and plots embedding variance per model',
                '`/Users/chip/dev/ai-music/musical_ai_music.py`\n  - `MusicalEmbeddingToSound`: layered generator',
                '`/Users/chip/dev/ai-music/musical_notebook.ipynb`',
            ],
            'Errors and fixes': ['"None of PyTorch, TensorFlow >= 2.0, or Flax have been found" → installed the requirements'],
            'Problem Solving': 'Register spread fixed by assigning each layer its own octave range.',
            'All user messages': [
                '"make a small chart of the embedding variance per model so i can compare them"',
                'Sent a screenshot of the error; torch is 2.1.0',
                'Sent a spectrogram screenshot: everything is in the low end, spread the notes over more octaves',
                '"perfect"',
            ],
            'Pending Tasks': ['None explicitly pending'],
            'Current Work': 'Checked how prompts map to scale, root and tempo in `musical_ai_music.py`.',
            'Optional Next Step': 'Make the mapping depend on more embedding dimensions.',
        }))
    c.seg(71, 77)
    return c.write({'class': 'image'})


def o15():
    c = Case('o15-partial', 'worktrees', '2.1', seed=115, pre_tokens=160771, start='2026-04-20T13:15:00')
    t1 = 'spin up 3 teammates (alice, bob, carol), each in its own worktree, and have them commit with their own name as git author'
    c.user('T1', t1, lab('instruction', 'three teammates, each in its own worktree, committing with their own name as git author', t1, 'lost', 'partial',
                         ['form:partial', 'partial'], partial=True, lost_part='have them commit with their own name as the git author',
                         distinct=['git author', 'own name', 'as author']))
    c.seg(10, 36)
    f2 = 'the repo is /experiments/worktrees'
    c.user('F2', f2, lab('user_fact', 'repository at /experiments/worktrees', f2, 'in_summary', 'form:/experiments/worktrees', ['fact'],
                         S('its own git worktree of `/experiments/worktrees`'),
                         values=[{'value': '/experiments/worktrees', 'status': 'in_summary', 'found_as': '/experiments/worktrees'}]))
    c.say('Thanks, that is the current directory.')
    t6 = 'docs go in work/, markdown only, no html'
    c.user('T6', t6, lab('instruction', 'documents in work/, Markdown only, no HTML', t6, 'in_summary', 'paraphrase', ['form:paraphrase'],
                         S('Documents are written as Markdown under `work/` (no HTML)')))
    c.seg(41, 63)
    t3 = 'when all 3 are done merge into master, but squash each branch to a single commit first'
    c.user('T3', t3, lab('instruction', 'merge into master when all three are done, squashing each branch to one commit first', t3, 'lost', 'partial',
                         ['form:partial', 'partial'], partial=True, lost_part='squash each branch to a single commit first',
                         distinct=['squash', 'single commit', 'one commit']))
    c.seg(66, 90)
    c.user('C5', 'Ok.', lab('chatter', 'chatter: Ok.', 'Ok.', 'lost', 'omitted', ['chatter']))
    c.seg(92, 111)
    t4 = real_text('worktrees', 117)
    c.user('T4', t4, lab('instruction', 'check whether the subagents are stuck or done', t4, 'in_summary', 'verbatim', ['form:verbatim'],
                         S('"Well, the subagents seem to be either stuck or done... can you check?"'), origin=origin('worktrees', 117)))
    c.seg(120, 131)
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Run an experiment with three teammates (alice, bob, carol), each working in its own git worktree of `/experiments/worktrees` and researching one topic',
            'Documents are written as Markdown under `work/` (no HTML)',
            'Once all three are finished, merge their branches into master',
        ],
        'Key Technical Concepts': [
            '`Agent` tool with `isolation: "worktree"`: one teammate per worktree, branches `alice/research-plan-mode`, `bob/research-teammates`, `carol/research-beads`',
            'Task board: `TaskCreate` / `TaskUpdate` / `TaskList`',
            '`SendMessage` only queues into an inbox; it does not restart a finished agent',
        ],
        'Files and Code Sections': [
            '`work/research-plan-mode.md`, `work/research-teammates.md`, `work/research-beads.md`\n  - Round-1 research documents',
        ],
        'Errors and fixes': ['Round-2 messages went unanswered because the round-1 agents had already terminated.'],
        'Problem Solving': ['Round 1 is merged into master (1b6c52f); round 2 (comparison sections) has to be re-dispatched with fresh agents.'],
        'All user messages': [
            'Asked for three teammates, each in its own worktree',
            'Gave the repository path /experiments/worktrees',
            'Said documents go in work/ as Markdown only, no HTML',
            'Asked to merge into master once all three are done',
            '"Well, the subagents seem to be either stuck or done... can you check?"',
        ],
        'Pending Tasks': ['Round 2: comparison sections', 'Merge the round-2 branches into master'],
        'Current Work': 'Checked the worktrees: clean, still at their round-1 commits.',
        'Optional Next Step': 'Spawn three fresh agents pointed at the existing worktrees with self-contained round-2 prompts.',
    }))
    c.seg(134, 147)
    return c.write({'class': 'partial'})


def o16():
    c = Case('o16-partial', 'vsla', 'short', seed=116, pre_tokens=161205, start='2025-07-22T22:30:00')
    t1 = 'fix the undefined refs but dont touch the bib entries themselves, they come straight from zotero'
    c.user('T1', t1, lab('instruction', "fix the undefined refs; don't edit the bib entries (from Zotero)", t1, 'lost', 'partial',
                         ['form:partial', 'partial'], partial=True, lost_part="don't touch the bibliography entries themselves (they come from Zotero)",
                         distinct=['zotero', 'bib entries', 'entries themselves']))
    c.seg(278, 306)
    t2 = real_text('vsla', 386, 1000)
    c.user('T2', t2, lab('instruction', "update the paper's operators to match the pasted symbol taxonomy", t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase'],
                         S("Update the paper's operators to follow the symbol taxonomy the user pasted"),
                         origin=origin('vsla', 386)))
    c.seg(387, 400)
    t3 = 'rename \\Sigma_k to \\Stack_k everywhere and add both to the notation table in section 2'
    c.user('T3', t3, lab('instruction', 'rename \\Sigma_k to \\Stack_k everywhere and add both to the notation table in Section 2', t3, 'lost', 'partial',
                         ['form:partial', 'partial'], partial=True, lost_part='add both to the notation table in Section 2',
                         distinct=['notation table', 'section 2', 'add both']))
    c.seg(401, 435)
    c.user('C4', '👍', lab('chatter', 'chatter: 👍', '👍', 'lost', 'omitted', ['chatter']))
    c.seg(436, 450)
    t5 = real_text('vsla', 601)
    c.user('T5', t5, lab('instruction', 'update paper-status.md (user going to bed)', t5, 'in_summary', 'paraphrase', ['form:paraphrase'],
                         S('Bring `/home/kenth56/vsla/docs/papers/src/paper-status.md` up to date so the user can stop for the night'),
                         origin=origin('vsla', 601),
                         values=[{'value': '/home/kenth56/vsla/docs/papers/src/paper-status.md', 'status': 'in_summary',
                                  'found_as': '/home/kenth56/vsla/docs/papers/src/paper-status.md'}]))
    c.seg(602, 603)
    c.compact(summary_short({
        'Primary Request and Intent': [
            'Fix the undefined references in the paper',
            "Update the paper's operators to follow the symbol taxonomy the user pasted (function-like notions as upright operators, script capitals for the rank-changing constructors, one canonical promotion operator)",
            'Rename `\\Sigma_k` to `\\Stack_k` throughout the paper',
            'Bring `/home/kenth56/vsla/docs/papers/src/paper-status.md` up to date so the user can stop for the night',
        ],
        'Key Technical Concepts': [
            'Operator macros in `preamble.tex`: `\\Stack`, `\\Wstack`, `\\shape`, `\\vdim`, `\\prom`, `\\minrep`, `\\rev`, `\\nnz`',
            'Undefined citations show as "?" until bibtex has run',
        ],
        'Files and Code Sections': [
            '`%s/preamble.tex`\n  - Operator macro definitions added' % V,
            '`%s/sections/stacking.tex`\n  - `\\Sigma_k` → `\\Stack_k`, window stacking → `\\Wstack`, TikZ labels updated' % V,
            '`%s/sections/foundations.tex`, `sections/gradients.tex`\n  - Formal operator definitions; VJP formulas use `\\unprom`/`\\rev`' % V,
            '`%s/bibliography.bib`\n  - Cheng2001, Cheng2011, Golan99, Lang02, …' % V,
        ],
        'Problem Solving': ['Grepping the section files for the old operator names until none are left.'],
        'Pending Tasks': ['Update paper-status.md', 'Recompile the paper'],
        'Current Work': 'Reading paper-status.md to add the progress of this session.',
        'Optional Next Step': 'Edit paper-status.md with the notation changes and the build state.',
    }))
    c.seg(604, 606)
    return c.write({'class': 'partial', 'notes': 'The turn copied from vsla line 386 (a pasted 7.7 KB symbol table) is cut to about 1 KB.'})


def o17():
    c = Case('o17-omitted', 'codemie', '2.0', seed=117, pre_tokens=153006, start='2026-01-27T09:40:00')
    t1 = 'look at how metrics sync works and do the same incremental thing for conversations'
    c.user('T1', t1, lab('instruction', 'make conversation sync incremental the way metrics sync is', t1, 'in_summary', 'paraphrase', ['form:paraphrase'],
                         S('Make conversation sync incremental, following the approach the metrics sync already uses')))
    c.seg(8, 27)
    t2 = 'no new npm deps pls, anything new needs a security review here'
    c.user('T2', t2, lab('instruction', 'no new npm dependencies (security review needed)', t2, 'lost', 'omitted', ['form:omitted', 'omitted'],
                         distinct=['npm', 'security review', 'new deps']))
    c.say('Understood.')
    c.seg(32, 35)
    f3 = 'endpoint is POST /v1/conversations/{id}/messages'
    c.user('F3', f3, lab('user_fact', 'endpoint POST /v1/conversations/{id}/messages', f3, 'in_summary', 'form:POST /v1/conversations/{id}/messages', ['fact'],
                         S('`POST /v1/conversations/{id}/messages`'),
                         values=[{'value': '/v1/conversations/{id}/messages', 'status': 'in_summary', 'found_as': 'POST /v1/conversations/{id}/messages'}]))
    c.seg(37, 42)
    t4 = 'send the messages in batches, max 50 per request'
    c.user('T4', t4, lab('instruction', 'send messages in batches of at most 50 per request', t4, 'lost', 'omitted', ['form:omitted', 'omitted'],
                         values=[{'value': '50', 'status': 'lost', 'found_as': None}], distinct=['batches', '50 per', 'max 50']))
    c.say('OK.')
    c.user('C5', 'ok go', lab('chatter', 'chatter: ok go', 'ok go', 'lost', 'omitted', ['chatter']))
    c.seg(46, 60)
    t6 = 'put the design into ARCHITECTURE-REFACTORING.md, not a new file'
    c.user('T6', t6, lab('instruction', 'design goes into ARCHITECTURE-REFACTORING.md, not a new file', t6, 'in_summary', 'verbatim', ['form:verbatim'],
                         S('"put the design into ARCHITECTURE-REFACTORING.md, not a new file"')))
    c.seg(64, 66)
    c.seg(71, 79)
    c.compact(summary_20(
        """Let me chronologically analyze the conversation:

1. **Initial request**: make conversation sync incremental, the same way metrics sync is.
2. I read the metrics and conversation sync plugins, both processors, the session sync plugin and the session store. Finding: `SessionStore.filterPendingSessions()` drops a session once processed, so later messages are never sent.
3. The user gave the CodeMie endpoint for sending conversation messages.
4. I wrote two design documents (CONVERSATION-INCREMENTAL-TRACKING-DESIGN.md, UNIFIED-TRACKING-DESIGN.md).
5. The user asked for the design to go into ARCHITECTURE-REFACTORING.md instead; I deleted both files and added the design there as Phase 4.1.""",
        {
            'Primary Request and Intent': [
                'Make conversation sync incremental, following the approach the metrics sync already uses',
                'Keep the design in the existing ARCHITECTURE-REFACTORING.md rather than in separate documents',
            ],
            'Key Technical Concepts': [
                'CodeMie conversation API: `POST /v1/conversations/{id}/messages`',
                'Message-level tracking with `processedRecordIds` vs. session-level "processed" flags',
                'Unified session file shared by the metrics and conversation processors',
            ],
            'Files and Code Sections': [
                '`src/providers/plugins/sso/ARCHITECTURE-REFACTORING.md`\n  - New Phase 4.1: incremental conversation sync',
                '`src/providers/plugins/sso/session/utils/session-store.ts`\n  - `filterPendingSessions()` (cause of the bug)',
                '`src/providers/plugins/sso/session/processors/conversations/conversation-processor.ts`',
                '`src/agents/core/metrics/types.ts`\n  - `SyncState`',
            ],
            'Errors and fixes': ['Separate design documents were created, then removed at the user\'s request.'],
            'Problem Solving': 'Conversation sync is not incremental because whole sessions are marked processed after the first sync.',
            'All user messages': [
                'Asked to check how metrics sync works and make conversation sync incremental the same way',
                '"endpoint is POST /v1/conversations/{id}/messages"',
                '"put the design into ARCHITECTURE-REFACTORING.md, not a new file"',
            ],
            'Pending Tasks': ['Check the real session file structure before finalising Phase 4.1'],
            'Current Work': 'Phase 4.1 added to ARCHITECTURE-REFACTORING.md.',
            'Optional Next Step': 'Read `SyncState` in types.ts and a real session file to confirm the storage format.',
        }))
    c.seg(83, 92)
    return c.write({'class': 'omitted'})


def o18():
    c = Case('o18-omitted', 'ccl', '2.1', seed=118, pre_tokens=164410, start='2025-10-17T10:10:00')
    caveat = real_text('codemie', 2)
    c.user(None, caveat, meta=True, wait=(1, 3))
    c.skip('<command-name>/clear</command-name>\n            <command-message>clear</command-message>\n            <command-args></command-args>',
           'command record (/clear)')
    c.skip('<local-command-stdout></local-command-stdout>', 'command output record')
    t1 = real_text('ccl', 12)
    c.user('T1', t1, lab('instruction', 'replace the cross-session navigation links with a single link to the combined transcript', t1,
                         'in_summary', 'verbatim', ['form:verbatim'],
                         S('"oh, I didn\'t find those cross-session navigation links helpful, can you please replace them with a single link to the combined transcript instead?"'),
                         origin=origin('ccl', 12)))
    c.seg(13, 41)
    t2 = 'use pathlib for all the path handling, no os.path'
    c.user('T2', t2, lab('instruction', 'use pathlib for all path handling, no os.path', t2, 'lost', 'omitted', ['form:omitted', 'omitted'],
                         distinct=['pathlib', 'os.path']))
    c.seg(44, 58)
    f3 = "we're on python 3.12 + uv"
    c.user('F3', f3, lab('user_fact', 'Python 3.12 with uv', f3, 'lost', 'omitted', ['fact', 'omitted'],
                         values=[{'value': '3.12', 'status': 'lost', 'found_as': None}], distinct=['3.12', 'python 3']))
    c.say('Noted.')
    t5 = 'the link has to be relative, people open these html files straight from disk'
    c.user('T5', t5, lab('instruction', 'the combined-transcript link must be relative (files opened from disk)', t5, 'lost', 'omitted',
                         ['form:omitted', 'omitted'], distinct=['relative', 'from disk', 'straight from']))
    c.seg(170, 192)
    c.interrupt()
    t4 = real_text('ccl', 194)
    c.user('T4', t4, lab('instruction', 'do we even need _generate_html_with_combined_link?', t4, 'in_summary', 'verbatim', ['form:verbatim'],
                         S('"Do we even need _generate_html_with_combined_link then?"'), origin=origin('ccl', 194)))
    c.seg(195, 207)
    c.user('C6', 'thx', lab('chatter', 'chatter: thx', 'thx', 'lost', 'omitted', ['chatter']))
    c.say("You're welcome.")
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Replace the cross-session navigation links with a single link to the combined transcript',
            'Remove `_generate_html_with_combined_link` and pass the link straight to `generate_html`',
        ],
        'Key Technical Concepts': [
            'Jinja2 template variable `combined_transcript_link`',
            '`CacheManager.get_cached_project_data()`',
        ],
        'Files and Code Sections': [
            '`claude_code_log/renderer.py`\n  - `_get_combined_transcript_link()`; `generate_html(..., combined_transcript_link=None)`; `_generate_html_with_combined_link` removed',
            '`claude_code_log/templates/transcript.html`\n  - Renders the combined-transcript link',
            '`test/test_combined_transcript_link.py`',
        ],
        'Errors and fixes': ['An edit of `generate_html` was rejected; the user asked whether the wrapper function was needed at all.'],
        'Problem Solving': ['The wrapper was redundant: `generate_session_html` now calls `generate_html` directly.'],
        'All user messages': [
            '"oh, I didn\'t find those cross-session navigation links helpful, can you please replace them with a single link to the combined transcript instead?"',
            '"Do we even need _generate_html_with_combined_link then?"',
        ],
        'Pending Tasks': ['Pass `combined_transcript_link` through to `template.render`'],
        'Current Work': 'Changed the `generate_html` signature to accept `combined_transcript_link`.',
        'Optional Next Step': 'Find the `template.render` call in `generate_html` and pass the link.',
    }))
    c.seg(210, 220)
    return c.write({'class': 'omitted', 'extra_logs': ['tests/data/real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl']})


CASES = [o13, o14, o15, o16, o17, o18]
