"""v01-v06. Every label below is the labeller's judgement, written by hand. Every turn, tool call,
tool result and summary here was written for this set."""
from builder import (Case, lab, S, A, ide_opened, ide_selection, reminder_modified, reminder_todo_empty, text, image, numbered,
                     edited, created, TODO_OK, todos, command, summary_20, summary_21, summary_short)

TW = '/home/gareth/src/tidewatch'
PC = '/Users/priya/code/podcut'
TS = '/home/dana/work/timesheet-macros'
KR = '/home/hugh/sites/kinroots'
HF = '/Users/nora/lab/hearing-fb'
FB = '/Users/keisha/sf/foodbank-crm'


def chat(c, tid, t, quote=None, form='verbatim', tags=None):
    """A chatter turn: in_summary when the user-message list quotes or describes it, else lost."""
    tags = tags or ['chatter']
    if quote:
        c.user(tid, t, lab('chatter', 'chatter: ' + t, t, 'in_summary', form, tags, S(quote)))
    else:
        c.user(tid, t, lab('chatter', 'chatter: ' + t, t, 'lost', 'omitted', tags))


# --------------------------------------------------------------------------------------------
def v01():
    c = Case('v01-tidewatch-gauge-ingest', 'dotnet', '2.0', seed=7601, pre_tokens=162310, start='2026-02-09T08:05:00')
    t1 = ("we need a .NET 8 worker service that polls the six tide gauges every minute over Modbus TCP and writes the "
          "readings into TimescaleDB")
    c.user('T1', t1, lab('instruction', '.NET 8 worker polling six tide gauges every minute over Modbus TCP, readings into TimescaleDB', t1,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'paraphrase:vocab', 'paraphrase:reordered', 'numbers-as-words'],
                         S('A .NET 8 background service that, once a minute, reads the harbour\'s half-dozen tide gauges via Modbus TCP and stores each reading in TimescaleDB'),
                         values=[{'value': 'six', 'status': 'in_summary', 'found_as': 'half-dozen'},
                                 {'value': 'every minute', 'status': 'in_summary', 'found_as': 'once a minute'}]))
    c.tools([('Glob', {'pattern': 'src/**/*.cs'}, '%s/src/Tidewatch.Worker/Program.cs\n%s/src/Tidewatch.Worker/Worker.cs' % (TW, TW)),
             ('Read', {'file_path': '%s/src/Tidewatch.Worker/Worker.cs' % TW}, numbered(
                 'public class Worker : BackgroundService\n{\n    protected override async Task ExecuteAsync(CancellationToken ct)\n    {\n'
                 '        while (!ct.IsCancellationRequested)\n        {\n            await Task.Delay(1000, ct);\n        }\n    }\n}'))],
            text="Looking at the worker template first.")
    c.say("It's the bare template. What addresses do the gauges have?")
    f2 = 'gauge ips are 10.40.2.11 through 10.40.2.16'
    c.user('F2', f2, lab('user_fact', 'gauge IPs 10.40.2.11-10.40.2.16', f2, 'in_summary', 'form:10.40.2.11–10.40.2.16', ['fact', 'numeric'],
                         S('10.40.2.11–10.40.2.16'),
                         values=[{'value': '10.40.2.11', 'status': 'in_summary', 'found_as': '10.40.2.11'},
                                 {'value': '10.40.2.16', 'status': 'in_summary', 'found_as': '10.40.2.16'}]))
    t3 = "don't log the raw modbus frames at Information level, they flood seq. Debug only"
    c.user('T3', t3, lab('instruction', 'raw Modbus frames logged at Debug only, not Information', t3, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved', 'paraphrase:passive'],
                         S('Raw Modbus frames are written to the log at Debug level only; at Information level they would flood Seq')))
    c.say("Ok, frames go through `LogDebug`.")
    chat(c, 'C4', 'cheers mate', '"cheers mate"', tags=['chatter', 'slang'])
    sel = '        var level = (double)regs[0] / 1000.0;'
    t5 = ("levels are in millimetres relative to chart datum, keep them as int. and flag any jump bigger than 300 mm between "
          "consecutive readings as suspect instead of dropping it")
    c.user('T5', [ide_selection('%s/src/Tidewatch.Worker/GaugeReader.cs' % TW, 42, 42, sel), text(t5)],
           lab('instruction', 'levels as int millimetres relative to chart datum; flag jumps > 300 mm as suspect, do not drop them', t5, 'lost', 'partial',
               ['form:partial', 'partial', 'wrapper:ide_selection', 'after:assistant-topic'], partial=True, wrapper='ide_selection',
               lost_part='flag a jump of more than 300 mm between consecutive readings as suspect instead of dropping it',
               distinct=['suspect', '300', 'jump', 'consecutive'],
               values=[{'value': '300 mm', 'status': 'lost', 'found_as': None}]))
    c.tool('Edit', {'file_path': '%s/src/Tidewatch.Worker/GaugeReader.cs' % TW, 'old_string': sel, 'new_string': '        int levelMm = regs[0];'},
           edited('%s/src/Tidewatch.Worker/GaugeReader.cs' % TW, '        int levelMm = regs[0];', 42))
    chat(c, 'C6', 'lol the gauge at pier 3 is covered in seagull poop again 🐦 someone has to go out with a brush', tags=['chatter', 'joke', 'emoji'])
    t7 = "retry policy: polly, 3 attempts with exponential backoff starting at 2s, then give up and mark the gauge offline"
    c.user('T7', t7, lab('instruction', 'Polly retry: 3 attempts, exponential backoff from 2 s, then mark gauge offline', t7, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:passive', 'numbers-as-words'],
                         S('a gauge that does not answer is retried three times by Polly with exponential back-off beginning at two seconds, after which it is marked offline'),
                         values=[{'value': '3 attempts', 'status': 'in_summary', 'found_as': 'three times'},
                                 {'value': '2s', 'status': 'in_summary', 'found_as': 'two seconds'}]))
    f8 = 'seq is at http://seq.harbour.local:5341'
    c.user('F8', f8, lab('user_fact', 'Seq URL http://seq.harbour.local:5341', f8, 'repeated_later', 'omitted', ['fact', 'hostname', 'repeat:in_tool_result'],
                         A('R1', 'http://seq.harbour.local:5341'),
                         values=[{'value': 'http://seq.harbour.local:5341', 'status': 'repeated_later', 'found_as': 'http://seq.harbour.local:5341'}]))
    t9 = "no EF Core please, Dapper with hand-written SQL. the timescale hypertables confuse EF migrations"
    c.user('T9', t9, lab('instruction', 'no EF Core; Dapper with hand-written SQL', t9, 'lost', 'omitted',
                         ['form:omitted', 'summary:mentions-without-content'],
                         distinct=['dapper', 'ef core', 'entity framework', 'hand-written sql', 'migrations']))
    c.say("Got it.")
    t10 = "every config value goes through IOptions<T> with validation on start, so a typo in appsettings fails fast"
    c.user('T10', t10, lab('instruction', 'config via IOptions<T>, validated on start (fail fast)', t10, 'in_summary', 'paraphrase',
                           ['form:paraphrase', 'paraphrase:nominalised'],
                           S('Configuration binding through `IOptions<T>` with validation at startup (`ValidateOnStart`), so that a misspelt setting stops the service immediately')))
    chat(c, 'C11', '👍', 'Thumbs-up', 'paraphrase', ['chatter', 'emoji'])
    t12 = "unit tests with xunit + FluentAssertions, no Moq, we hand-roll fakes"
    c.user('T12', t12, lab('instruction', 'tests: xunit + FluentAssertions; no Moq, hand-rolled fakes', t12, 'repeated_later', 'omitted',
                           ['form:omitted', 'repeat:paraphrase'],
                           A('U1', 'tests are xunit with FluentAssertions and hand-written fakes, we don\'t use Moq'), repeated_after=['paraphrase']))
    f13 = 'the harbour master who signs this off is Capt. Ifeoma Okafor, ifeoma.okafor@portnewhaven.example'
    c.user('F13', f13, lab('user_fact', 'sign-off by Capt. Ifeoma Okafor, ifeoma.okafor@portnewhaven.example', f13, 'lost', 'omitted',
                           ['fact', 'email', 'summary:mentions-without-content'], distinct=['ifeoma', 'okafor', 'portnewhaven'],
                           values=[{'value': 'Capt. Ifeoma Okafor', 'status': 'lost', 'found_as': None},
                                   {'value': 'ifeoma.okafor@portnewhaven.example', 'status': 'lost', 'found_as': None}]))
    t14 = "and keep the readings table append-only. corrections go in a separate gauge_corrections table, never UPDATE a reading"
    c.user('T14', t14, lab('instruction', 'readings append-only; corrections in gauge_corrections, never UPDATE', t14, 'in_summary', 'paraphrase',
                           ['form:paraphrase', 'negation-moved', 'paraphrase:passive'],
                           S('A reading, once stored, is not modified: the `readings` hypertable is insert-only and any correction is recorded as its own row in `gauge_corrections`')))
    c.say("Understood. I'll write the schema next.")
    c.compact(summary_20(
        """Chronological review:

1. The user asked for a .NET 8 worker that polls the harbour's tide gauges over Modbus TCP into TimescaleDB; I read the template.
2. The user gave the gauge addresses and a logging rule for Modbus frames.
3. With a conversion line selected, the user described the units of the levels; I changed the line to an int.
4. The user set the retry behaviour, stated a preference about the data-access library, set the configuration rule and gave the Seq address.
5. The user named who signs the project off and set the rule for the readings table.""",
        {
            'Primary Request and Intent': [
                'A .NET 8 background service that, once a minute, reads the harbour\'s half-dozen tide gauges via Modbus TCP and stores each reading in TimescaleDB',
                'Raw Modbus frames are written to the log at Debug level only; at Information level they would flood Seq',
                'Water levels are integers in millimetres above chart datum',
                'Retries: a gauge that does not answer is retried three times by Polly with exponential back-off beginning at two seconds, after which it is marked offline',
                'Configuration binding through `IOptions<T>` with validation at startup (`ValidateOnStart`), so that a misspelt setting stops the service immediately',
                'A reading, once stored, is not modified: the `readings` hypertable is insert-only and any correction is recorded as its own row in `gauge_corrections`',
            ],
            'Key Technical Concepts': ['`BackgroundService` with `PeriodicTimer`', 'NModbus TCP master, holding registers',
                                       'Gauges at 10.40.2.11–10.40.2.16', 'TimescaleDB hypertable keyed on (`gauge_id`, `observed_at`)'],
            'Files and Code Sections': [
                '`%s/src/Tidewatch.Worker/Worker.cs`: template loop, to be replaced' % TW,
                '`%s/src/Tidewatch.Worker/GaugeReader.cs`: line 42 now `int levelMm = regs[0];`' % TW,
            ],
            'Errors and fixes': ['None yet.'],
            'Problem Solving': 'One `PeriodicTimer` tick per minute; the six gauges are read in parallel with a per-gauge timeout.',
            'All user messages': [
                'Asked for a .NET 8 worker polling the six tide gauges every minute over Modbus TCP into TimescaleDB',
                'Gave the gauge IP range',
                'Raw Modbus frames only at Debug level, they flood Seq',
                '"cheers mate"',
                'With the level conversion selected: levels are int millimetres relative to chart datum',
                'Retry policy with Polly, three attempts, back-off from two seconds, then mark the gauge offline',
                'Gave the address of the log server',
                'Stated a preference about the data-access library',
                'Config through `IOptions<T>` validated on start',
                'Thumbs-up',
                'Gave testing preferences',
                'Named who signs the project off',
                'Readings table is append-only, corrections in a separate table',
            ],
            'Pending Tasks': ['Schema migration for `readings` and `gauge_corrections`', 'Gauge polling loop', 'Offline marking', 'Tests'],
            'Current Work': 'About to write the database schema.',
            'Optional Next Step': 'Write `db/001_readings.sql`, then the polling loop.',
        }))
    c.tool('Read', {'file_path': '%s/src/Tidewatch.Worker/appsettings.Development.json' % TW}, numbered(
        '{\n  "Serilog": {\n    "WriteTo": [ { "Name": "Seq", "Args": { "serverUrl": "http://seq.harbour.local:5341" } } ]\n  },\n'
        '  "Gauges": { "FirstAddress": "10.40.2.11", "Count": 6, "Port": 502 }\n}'),
        text="Checking the development settings first.", anchor='R1')
    c.user('U1', "btw tests are xunit with FluentAssertions and hand-written fakes, we don't use Moq", after=dict(repeat_of='T12', mode='paraphrase'))
    c.tool('Write', {'file_path': '%s/db/001_readings.sql' % TW, 'content':
                     'CREATE TABLE readings (\n    gauge_id    smallint    NOT NULL,\n    observed_at timestamptz NOT NULL,\n'
                     '    level_mm    integer     NOT NULL\n);\nSELECT create_hypertable(\'readings\', \'observed_at\');\n\n'
                     'CREATE TABLE gauge_corrections (\n    gauge_id    smallint    NOT NULL,\n    observed_at timestamptz NOT NULL,\n'
                     '    level_mm    integer     NOT NULL,\n    reason      text        NOT NULL\n);\n'},
           created('%s/db/001_readings.sql' % TW), text="Noted, no mocking library. Writing the schema.")
    c.say("Schema is in. Next: the polling loop in `Worker.cs`; readings outside the sensor range are skipped before insert.")
    return c.write({'situations': ['English request paraphrased, clauses reordered (six -> half-dozen, every minute -> once a minute)',
                                   'IP range fact kept', 'logging rule paraphrased, negation moved, passive voice',
                                   'slang chatter quoted', 'wrapper:ide_selection partial: int millimetres kept, flagging >300 mm jumps as suspect dropped',
                                   'complaint/joke chatter not listed (lost)', 'retry rule in passive voice, numbers as words',
                                   'Seq URL fact omitted ("Gave the address of the log server"), in appsettings.Development.json read after the boundary',
                                   'data-access rule lost (mentioned only)', 'config rule nominalised', 'emoji chatter described',
                                   'test rule omitted ("Gave testing preferences"), paraphrased by the user after the boundary',
                                   'person + e-mail fact lost (mentioned only)', 'append-only rule restated, negation moved'],
                    'notes': 'Unsure: F8 (the list says the log server address was given without the URL; the URL is read back from appsettings.Development.json, so repeated_later). T5: the int/chart-datum half is kept, the suspect-flag half is not.'})


# --------------------------------------------------------------------------------------------
def v02():
    c = Case('v02-podcut-silence-trim', 'electron', '2.1', seed=7602, pre_tokens=158904, start='2026-03-16T20:10:00')
    t1 = "add a 'trim silences' command: find gaps quieter than -45 dBFS that last longer than 800 ms and shorten them to 250 ms"
    c.user('T1', t1, lab('instruction', "'trim silences': gaps below -45 dBFS longer than 800 ms shortened to 250 ms", t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:vocab', 'numbers-as-words'],
                         S('any stretch under -45 dBFS lasting more than 0.8 s is cut down to a quarter of a second'),
                         values=[{'value': '-45 dBFS', 'status': 'in_summary', 'found_as': '-45 dBFS'},
                                 {'value': '800 ms', 'status': 'in_summary', 'found_as': '0.8 s'},
                                 {'value': '250 ms', 'status': 'in_summary', 'found_as': 'a quarter of a second'}]))
    c.tools([('Glob', {'pattern': 'src/**/*.ts*'}, '%s/src/main/index.ts\n%s/src/preload/index.ts\n%s/src/renderer/Timeline.tsx\n%s/src/main/export/render.ts' % (PC, PC, PC, PC)),
             ('Read', {'file_path': '%s/src/preload/index.ts' % PC}, numbered(
                 "import { contextBridge, ipcRenderer } from 'electron'\n\ncontextBridge.exposeInMainWorld('podcut', {\n"
                 "  openProject: () => ipcRenderer.invoke('project:open'),\n})"))],
            text="Getting a picture of the app layout.")
    t2 = ("all the audio analysis runs in a worker thread, the renderer must never block. and ffmpeg only ever runs in the main process "
          "through child_process, never from the renderer")
    c.user('T2', t2, lab('instruction', 'analysis in a worker thread, renderer never blocks; ffmpeg only in the main process via child_process', t2,
                         'lost', 'partial', ['form:partial', 'partial', 'after:assistant-topic'], partial=True,
                         lost_part='ffmpeg is run only from the main process through child_process, never from the renderer',
                         distinct=['child_process', 'main process', 'ipcMain']))
    c.say("Ok, analysis goes into a `Worker`.")
    chat(c, 'C3', 'omg yes 🙌', '"omg yes 🙌"', tags=['chatter', 'emoji', 'slang'])
    f4 = "we're on electron 31.2 and node 20.14"
    c.user('F4', f4, lab('user_fact', 'Electron 31.2, Node 20.14', f4, 'in_summary', 'form:Electron 31.2 / Node 20.14', ['fact', 'numeric'],
                         S('Electron 31.2 (Node 20.14)'),
                         values=[{'value': 'electron 31.2', 'status': 'in_summary', 'found_as': 'Electron 31.2'},
                                 {'value': 'node 20.14', 'status': 'in_summary', 'found_as': 'Node 20.14'}]))
    t5 = "the waveform should show the proposed cuts as striped overlays before anything is applied, the user has to confirm"
    c.user('T5', [ide_opened('%s/src/renderer/Timeline.tsx' % PC), text(t5)],
           lab('instruction', 'show proposed cuts as striped overlays on the waveform; user confirms before applying', t5, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_opened_file', 'paraphrase:reordered', 'paraphrase:vocab'],
               S('Nothing is cut until the user confirms; until then the candidate cuts are drawn as hatched overlays on the waveform'),
               wrapper='ide_opened_file'))
    t6 = "contextIsolation stays on and nodeIntegration off. expose only what you need through the preload with contextBridge"
    c.user('T6', t6, lab('instruction', 'contextIsolation on, nodeIntegration off; expose only what is needed via contextBridge', t6, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved', 'paraphrase:reordered'],
                         S('the renderer receives only narrowly scoped functions exposed through `contextBridge` in the preload, with Node integration left disabled and context isolation enabled')))
    chat(c, 'C7', 'ugh my cat just walked across the keyboard and sent half a message, ignore that lol', tags=['chatter', 'joke'])
    t8 = "undo has to revert the whole trim as ONE step, not one undo per cut"
    c.user('T8', t8, lab('instruction', 'undo reverts the whole trim as one step', t8, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:merged', 'negation-moved'],
                         S('Applying a trim is a single undoable action (one Ctrl+Z brings back every cut)')))
    f9 = 'test episode is ~/Podcasts/raw/ep112_interview.wav'
    c.user('F9', f9, lab('user_fact', 'test episode ~/Podcasts/raw/ep112_interview.wav', f9, 'in_summary', 'form:/Users/priya/Podcasts/raw/ep112_interview.wav',
                         ['fact', 'path'], S('`/Users/priya/Podcasts/raw/ep112_interview.wav`'),
                         values=[{'value': '~/Podcasts/raw/ep112_interview.wav', 'status': 'in_summary', 'found_as': '/Users/priya/Podcasts/raw/ep112_interview.wav'}]))
    t10 = "dont touch the export pipeline in src/main/export/, Sam is rewriting it this week"
    c.user('T10', t10, lab('instruction', 'do not touch src/main/export/ (Sam is rewriting it)', t10, 'repeated_later', 'omitted',
                           ['form:omitted', 'repeat:ide_wrapped', 'repeat:paraphrase'],
                           A('U1', 'hands off src/main/export while Sam rewrites it'), repeated_after=['ide_wrapped', 'paraphrase']))
    c.say("Noted.")
    t11 = "make the threshold and both durations configurable in the prefs pane, with the numbers I gave as defaults"
    c.user('T11', t11, lab('instruction', 'threshold and durations configurable in the prefs pane, given values as defaults', t11, 'lost', 'omitted',
                           ['form:omitted', 'after:assistant-topic'],
                           distinct=['prefs', 'preferences', 'configurable', 'settings', 'defaults']))
    t12 = "[Image #1] this is what Hindenburg does, copy the little scissors marker on each cut"
    c.user('T12', [image((70, 110, 160)), text(t12)],
           lab('instruction', 'scissors marker on each cut, like the screenshot', t12, 'in_summary', 'paraphrase', ['form:paraphrase', 'image'],
               S('each cut gets a small scissors marker, as in the screenshot of another editor the user sent')))
    chat(c, 'C13', 'ty!!', 'Thanked the assistant', 'paraphrase')
    t14 = "oh and write the pending cut list next to the project file as <name>.podcut.json so it survives a crash"
    c.user('T14', t14, lab('instruction', 'pending cut list saved as <name>.podcut.json beside the project file (crash-safe)', t14, 'in_summary', 'paraphrase',
                           ['form:paraphrase', 'paraphrase:merged'],
                           S('the pending cut list is persisted beside the project file as `<project>.podcut.json`, so a crash does not lose it')))
    c.say("Will do, writing it on every change.")
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            "A 'trim silences' command: any stretch under -45 dBFS lasting more than 0.8 s is cut down to a quarter of a second",
            'Audio analysis runs in a worker thread so that the renderer is never blocked',
            'Nothing is cut until the user confirms; until then the candidate cuts are drawn as hatched overlays on the waveform',
            'Security: the renderer receives only narrowly scoped functions exposed through `contextBridge` in the preload, with Node integration left disabled and context isolation enabled',
            'Applying a trim is a single undoable action (one Ctrl+Z brings back every cut), and the pending cut list is persisted beside the project file as `<project>.podcut.json`, so a crash does not lose it',
            'UI: each cut gets a small scissors marker, as in the screenshot of another editor the user sent',
        ],
        'Key Technical Concepts': ['Electron 31.2 (Node 20.14), React renderer', 'Web Worker with `Float32Array` transfer', 'RMS per 10 ms window in dBFS'],
        'Files and Code Sections': [
            '`%s/src/preload/index.ts`: `contextBridge.exposeInMainWorld(\'podcut\', …)`' % PC,
            '`%s/src/renderer/Timeline.tsx`: waveform canvas' % PC,
            'Test file: `/Users/priya/Podcasts/raw/ep112_interview.wav`',
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'Gaps are found by merging consecutive quiet windows; each gap keeps its centre 0.25 s.',
        'All user messages': [
            'Asked for a trim-silences command (-45 dBFS, 800 ms, 250 ms)',
            'Analysis in a worker thread; the renderer must never block',
            '"omg yes 🙌"',
            'Gave the Electron and Node versions',
            'With `Timeline.tsx` open: show proposed cuts on the waveform and let the user confirm',
            'Keep context isolation on and node integration off, expose only what is needed via the preload',
            'One undo step for the whole trim',
            'Gave the path of a test episode',
            'Mentioned the export code',
            'Said something about the numbers',
            'Sent a screenshot with scissors markers on cuts',
            'Thanked the assistant',
            'Persist the cut list next to the project',
        ],
        'Pending Tasks': ['Silence detector in the worker', 'Overlay drawing', 'Apply + undo', 'Cut-list file'],
        'Current Work': 'About to write the silence detector.',
        'Optional Next Step': 'Write `src/renderer/workers/silence.worker.ts`.',
    }))
    c.user('U1', [ide_opened('%s/src/main/export/render.ts' % PC), text('reminder: hands off src/main/export while Sam rewrites it')],
           after=dict(repeat_of='T10', mode='ide_wrapped'))
    c.tool('Write', {'file_path': '%s/src/renderer/workers/silence.worker.ts' % PC, 'content':
                     "const THRESHOLD_DBFS = -45\nconst MIN_GAP_MS = 800\nconst KEEP_MS = 250\n\n"
                     "self.onmessage = (e: MessageEvent<{ samples: Float32Array; rate: number }>) => {\n"
                     "  const { samples, rate } = e.data\n  const win = Math.round(rate / 100)\n  const gaps: [number, number][] = []\n"
                     "  // merge consecutive quiet windows into gaps\n  self.postMessage(gaps)\n}\n"},
           created('%s/src/renderer/workers/silence.worker.ts' % PC), text="Understood, I'll stay out of the export code. Writing the detector.")
    c.say("The detector posts the gaps back to the renderer. Next: drawing the hatched overlays in `Timeline.tsx`.")
    return c.write({'situations': ['English request paraphrased (800 ms -> 0.8 s, 250 ms -> a quarter of a second)',
                                   'partial: worker thread kept, ffmpeg-only-in-main-process dropped', 'emoji chatter quoted', 'version fact kept',
                                   'wrapper:ide_opened_file request, clauses reordered (striped -> hatched)', 'security rule reordered, negation moved',
                                   'cat-on-keyboard chatter not listed (lost)', 'two turns (undo, cut-list file) merged into one summary bullet',
                                   'path fact kept as an absolute path (~ expanded)', 'export rule mentioned only, repeated by the user behind <ide_opened_file>',
                                   'prefs rule lost ("Said something about the numbers"); the assistant hard-codes the constants after the boundary',
                                   'image request paraphrased', 'thanks described'],
                    'notes': 'Unsure: T10 comes back behind an ide_opened_file wrapper and in other words, so two repeat modes. T8/T14 share one bullet; each is judged on its own half.'})


# --------------------------------------------------------------------------------------------
def v03():
    c = Case('v03-timesheet-overtime-vba', 'vba', 'short', seed=7603, pre_tokens=147220, start='2026-01-12T07:48:00')
    t1 = ("I need a macro that reads the weekly timesheet tabs and works out overtime. anything over 40 hrs in a week is 1.5x, "
          "sunday hours are always 2x")
    c.user('T1', t1, lab('instruction', 'overtime macro: over 40 h/week at 1.5x, Sundays always 2x', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'numbers-as-words', 'paraphrase:vocab'],
                         S('hours beyond forty in a week are paid at time and a half, and Sunday hours at double time regardless'),
                         values=[{'value': '40 hrs', 'status': 'in_summary', 'found_as': 'forty'},
                                 {'value': '1.5x', 'status': 'in_summary', 'found_as': 'time and a half'},
                                 {'value': '2x', 'status': 'in_summary', 'found_as': 'double time'}]))
    c.tool('Bash', {'command': 'ls src/ && head -30 src/modTimesheet.bas', 'description': 'List the exported modules'},
           'modTimesheet.bas\nmodUtil.bas\n\nAttribute VB_Name = "modTimesheet"\nSub ReadWeek()\n    Sheets("Week01").Select\n'
           '    Range("A2").Select\n    Do While ActiveCell.Value <> ""\n        ActiveCell.Offset(1, 0).Select\n    Loop\nEnd Sub')
    t2 = "don't use Select or Activate anywhere, work on the ranges directly. it's slow and it breaks when someone clicks around"
    c.user('T2', t2, lab('instruction', 'no Select/Activate; work on ranges directly', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved'],
                         S('Ranges are addressed directly through object references; `.Select` and `.Activate` are off the table (slow, and they break when the user clicks elsewhere)')))
    f3 = r'the workbook lives at \\fs01\payroll\2026\Timesheets_Master.xlsm'
    c.user('F3', f3, lab('user_fact', r'workbook \\fs01\payroll\2026\Timesheets_Master.xlsm', f3, 'in_summary', r'form:\\fs01\payroll\2026\Timesheets_Master.xlsm',
                         ['fact', 'path'], S(r'`\\fs01\payroll\2026\Timesheets_Master.xlsm`'),
                         values=[{'value': r'\\fs01\payroll\2026\Timesheets_Master.xlsm', 'status': 'in_summary', 'found_as': r'\\fs01\payroll\2026\Timesheets_Master.xlsm'}]))
    t4 = "round to the nearest quarter hour, but only after summing the week. rounding every day gives the wrong total"
    c.user('T4', t4, lab('instruction', 'round to nearest quarter hour, only after summing the week (not per day)', t4, 'lost', 'partial',
                         ['form:partial', 'partial', 'after:assistant-topic'], partial=True,
                         lost_part='rounding happens only after the week is summed, not on each day',
                         distinct=['summing', 'every day', 'each day', 'wrong total', 'weekly sum']))
    c.say("Ok, `Round(h * 4, 0) / 4`.")
    chat(c, 'C5', 'thx')
    t6 = "Option Explicit at the top of every module pls, and no Variants unless you really can't avoid it"
    c.user('T6', t6, lab('instruction', 'Option Explicit in every module; no Variants unless unavoidable', t6, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:nominalised', 'negation-moved'],
                         S('`Option Explicit` heads every module, and variables carry explicit types, with `Variant` reserved for the cases that need it')))
    sel = '    empId = ws.Cells(r, 1).Value'
    t7 = "this column is the employee id, they have leading zeros so treat it as text"
    c.user('T7', [ide_selection('%s/src/modTimesheet.bas' % TS, 14, 14, sel), text(t7)],
           lab('instruction', 'employee id column is text (leading zeros)', t7, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_selection'],
               S('Employee IDs in column A are read as strings so that their leading zeros survive'), wrapper='ide_selection'))
    c.tool('Edit', {'file_path': '%s/src/modTimesheet.bas' % TS, 'old_string': sel, 'new_string': '    empId = CStr(ws.Cells(r, 1).Text)'},
           edited('%s/src/modTimesheet.bas' % TS, '    empId = CStr(ws.Cells(r, 1).Text)', 14))
    t8 = "results go to a new sheet called OT_Summary. never overwrite the source tabs"
    c.user('T8', t8, lab('instruction', 'output to a new OT_Summary sheet; never overwrite the source tabs', t8, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:in_tool_result'],
                         A('R1', 'The macros never write to the weekly source tabs; all results go to the OT_Summary sheet.'), repeated_after=['in_tool_result']))
    chat(c, 'C9', 'coffee machine at the office died this morning, today is going to be long 😩', tags=['chatter', 'emoji'])
    f10 = "the union rate table is on the 'Rates' tab, effective 2026-01-05"
    c.user('F10', f10, lab('user_fact', "rate table on the 'Rates' tab, effective 2026-01-05", f10, 'lost', 'omitted',
                           ['fact', 'date', 'summary:mentions-without-content'], distinct=['2026-01-05', 'effective', "'rates'", 'union'],
                           values=[{'value': "'Rates' tab", 'status': 'lost', 'found_as': None},
                                   {'value': '2026-01-05', 'status': 'lost', 'found_as': None}]))
    t11 = "log every run to a hidden sheet _RunLog with username, timestamp and number of rows processed"
    c.user('T11', t11, lab('instruction', 'log each run to hidden sheet _RunLog (user, timestamp, rows)', t11, 'lost', 'omitted',
                           ['form:omitted'], distinct=['_runlog', 'runlog', 'hidden sheet', 'run log', 'xlSheetVeryHidden']))
    t12 = "when you're done export the modules to src/ as .bas files so git can diff them"
    c.user('T12', t12, lab('instruction', 'export modules to src/ as .bas files for git', t12, 'repeated_later', 'omitted',
                           ['form:omitted', 'repeat:paraphrase'],
                           A('U1', "don't forget to dump the modules into src/ as .bas"), repeated_after=['paraphrase']))
    chat(c, 'C13', "you're a legend", tags=['chatter', 'slang'])
    c.compact(summary_short({
        'Primary Request and Intent': [
            'An Excel VBA macro over the weekly timesheet tabs that computes overtime: hours beyond forty in a week are paid at time and a half, and Sunday hours at double time regardless',
            'Ranges are addressed directly through object references; `.Select` and `.Activate` are off the table (slow, and they break when the user clicks elsewhere)',
            'Hours are rounded to the nearest quarter hour',
            '`Option Explicit` heads every module, and variables carry explicit types, with `Variant` reserved for the cases that need it',
            'Employee IDs in column A are read as strings so that their leading zeros survive',
        ],
        'Key Technical Concepts': [r'Workbook `\\fs01\payroll\2026\Timesheets_Master.xlsm`', 'One tab per ISO week (`Week01`, `Week02`, …)',
                                   'The user pointed to where the pay rates are kept'],
        'Files and Code Sections': [
            '`%s/src/modTimesheet.bas`: `ReadWeek` (still uses `.Select`, to be rewritten); line 14 reads the ID with `.Text`' % TS,
            '`%s/src/modUtil.bas`: helpers' % TS,
        ],
        'Problem Solving': 'Sunday hours are taken out before the forty-hour threshold is applied, so they are never counted twice.',
        'Pending Tasks': ['Rewrite `ReadWeek` without `.Select`', 'Overtime calculation', 'Summary output'],
        'Current Work': 'Rewriting `ReadWeek`.',
        'Optional Next Step': 'Finish `ReadWeek`, then write `CalcOvertime`.',
    }))
    c.tool('Read', {'file_path': '%s/README.txt' % TS}, numbered(
        'Timesheet macros\n================\n\nThe macros never write to the weekly source tabs; all results go to the OT_Summary sheet.\n'
        'Modules are kept in src/ as exported .bas files.'), text="Reading the project notes before touching the output.", anchor='R1')
    c.user('U1', "and don't forget to dump the modules into src/ as .bas when you're finished", after=dict(repeat_of='T12', mode='paraphrase'))
    c.tool('Write', {'file_path': '%s/src/modOvertime.bas' % TS, 'content':
                     'Attribute VB_Name = "modOvertime"\nOption Explicit\n\nPublic Function DayHours(ByVal startT As Date, ByVal endT As Date) As Double\n'
                     '    DayHours = Round((endT - startT) * 24 * 4, 0) / 4\nEnd Function\n\n'
                     'Public Sub CalcOvertime(ByVal ws As Worksheet)\n    Dim r As Long, h As Double\n'
                     '    For r = 2 To ws.Cells(ws.Rows.Count, 1).End(xlUp).Row\n        h = h + DayHours(ws.Cells(r, 3).Value, ws.Cells(r, 4).Value)\n'
                     '    Next r\nEnd Sub\n'},
           created('%s/src/modOvertime.bas' % TS), text="Will do. Writing the overtime module.")
    c.say("`CalcOvertime` totals the quarter-hour-rounded day hours. Next: splitting Sunday hours out and writing to OT_Summary.")
    return c.write({'situations': ['English request paraphrased (1.5x -> time and a half, 40 -> forty)', 'negation moved (don\'t use Select -> off the table)',
                                   'UNC path fact kept', 'partial: quarter-hour rounding kept, round-after-summing dropped; the assistant rounds each day after the boundary',
                                   'rule nominalised (Option Explicit heads every module)', 'wrapper:ide_selection request paraphrased',
                                   'output rule omitted, recorded in README.txt read after the boundary', 'rate-table fact lost (mentioned only)',
                                   'run-log rule silently dropped', 'export rule omitted, paraphrased by the user after the boundary',
                                   'short style: every chatter turn lost (thx, coffee complaint, "you\'re a legend")'],
                    'notes': 'Unsure: F10 ("pointed to where the pay rates are kept" names neither the tab nor the date, so lost).'})


# --------------------------------------------------------------------------------------------
def v04():
    c = Case('v04-kinroots-gedcom-perl', 'perl', '2.1', seed=7604, pre_tokens=151780, start='2026-04-20T18:30:00')
    t1 = ("we need a GEDCOM 5.5.1 importer that loads members' family trees into the existing MySQL schema. "
          "go through the Kinroots::DB module we already have")
    c.user('T1', t1, lab('instruction', 'GEDCOM 5.5.1 importer into the existing MySQL schema via Kinroots::DB', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:reordered'],
                         S('Using the existing `Kinroots::DB` module, import members\' GEDCOM 5.5.1 family trees into the current MySQL schema')))
    c.tools([('Read', {'file_path': '%s/lib/Kinroots/DB.pm' % KR}, numbered(
        'package Kinroots::DB;\nuse strict;\nuse warnings;\nuse DBI;\n\nsub connect {\n    my ($class, %args) = @_;\n'
        '    return DBI->connect($args{dsn}, $args{user}, $args{pass}, { RaiseError => 1 });\n}\n\n1;')),
        ('Bash', {'command': 'perl -v | head -2', 'description': 'Perl version'}, '\nThis is perl 5, version 36, subversion 0 (v5.36.0) built for x86_64-linux-gnu-thread-multi')],
        text="Reading the DB module.")
    t2 = "careful, that's your local perl. the host has 5.16, so no signatures and no postfix deref"
    c.user('T2', t2, lab('instruction', 'host Perl 5.16: no signatures, no postfix deref', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved', 'paraphrase:passive'],
                         S('The production host runs Perl 5.16, so subroutine signatures and postfix dereferencing cannot be used'),
                         values=[{'value': '5.16', 'status': 'in_summary', 'found_as': 'Perl 5.16'}]))
    t3 = ("living people: anyone born in the last 100 years with no death record gets hidden on the public pages, "
          "their name shown as 'Living'")
    c.user('T3', t3, lab('instruction', "people born < 100 years ago without a death record hidden on public pages, shown as 'Living'", t3, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:passive', 'numbers-as-words'],
                         S("Anyone with a birth in the past century and no recorded death is treated as living; public pages show such a person only as 'Living'")))
    c.say("Understood.")
    chat(c, 'C4', 'brilliant, cheers', '"brilliant, cheers"', tags=['chatter', 'slang'])
    sel = "    my ($year) = $date =~ /(\\d{4})/;\n    $sth->execute($id, $year);"
    t5 = ("GEDCOM dates are messy (ABT 1850, BET 1840 AND 1845). keep the original string as-is AND a sortable year next to it, "
          "never only the year")
    c.user('T5', [ide_selection('%s/lib/Kinroots/Gedcom.pm' % KR, 58, 59, sel), text(t5)],
           lab('instruction', 'store the original GEDCOM date string unchanged plus a sortable year, never only the year', t5, 'lost', 'partial',
               ['form:partial', 'partial', 'wrapper:ide_selection', 'after:assistant-topic'], partial=True, wrapper='ide_selection',
               lost_part='keep the original date string unchanged next to the year (never only the year)',
               distinct=['as-is', 'original string', 'date_raw', 'raw date', 'unchanged']))
    c.say("Ok, a sortable year from each date.")
    f6 = 'our host is kinroots.org.uk, shared cPanel box, ssh user kinroot'
    c.user('F6', f6, lab('user_fact', 'host kinroots.org.uk (shared cPanel), ssh user kinroot', f6, 'in_summary', 'form:kinroots.org.uk / kinroot',
                         ['fact', 'hostname'], S('`kinroots.org.uk` (shared cPanel hosting, SSH user `kinroot`)'),
                         values=[{'value': 'kinroots.org.uk', 'status': 'in_summary', 'found_as': 'kinroots.org.uk'},
                                 {'value': 'kinroot', 'status': 'in_summary', 'found_as': 'kinroot'}]))
    t7 = "DBI placeholders everywhere. no string-built SQL, not even for the table-name stuff"
    c.user('T7', t7, lab('instruction', 'DBI placeholders everywhere; no string-built SQL, even for table names', t7, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved'],
                         S('Every query binds its values through DBI placeholders; building SQL by string interpolation is ruled out, table names included (those come from a fixed whitelist)')))
    chat(c, 'C8', "my uncle just found out we're descended from a sheep thief, transported 1790 😂", 'Joked about an ancestor transported for sheep theft',
         'paraphrase', ['chatter', 'joke', 'emoji'])
    t9 = "the import has to be resumable, the big files (the Hendersons' one is 40MB) time out on the cgi"
    c.user('T9', t9, lab('instruction', 'import resumable; large files (40MB) time out under CGI', t9, 'lost', 'omitted',
                         ['form:omitted', 'summary:mentions-without-content', 'after:assistant-topic'],
                         distinct=['resumable', 'time out', 'timeout', '40mb', 'henderson', 'checkpoint']))
    t10 = "utf-8 everywhere, the trees are full of Gaelic names with accents. tables in utf8mb4"
    c.user('T10', t10, lab('instruction', 'UTF-8 everywhere; utf8mb4 tables (Gaelic names)', t10, 'repeated_later', 'omitted',
                           ['form:omitted', 'repeat:in_tool_result'],
                           A('R1', 'every table is utf8mb4 (Gaelic names with accents)'), repeated_after=['in_tool_result']))
    f11 = "the society secretary Morag Baird will test it, morag@kinroots.org.uk"
    c.user('F11', f11, lab('user_fact', 'tester: secretary Morag Baird, morag@kinroots.org.uk', f11, 'lost', 'omitted', ['fact', 'email'],
                           distinct=['morag', 'baird', 'secretary'],
                           values=[{'value': 'Morag Baird', 'status': 'lost', 'found_as': None},
                                   {'value': 'morag@kinroots.org.uk', 'status': 'lost', 'found_as': None}]))
    t12 = "tests with Test::More under t/, run prove -l before every commit"
    c.user('T12', t12, lab('instruction', 'Test::More tests in t/, prove -l before each commit', t12, 'in_summary', 'verbatim',
                           ['form:verbatim'], S('"tests with Test::More under t/, run prove -l before every commit"')))
    chat(c, 'C13', 'nice')
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Using the existing `Kinroots::DB` module, import members\' GEDCOM 5.5.1 family trees into the current MySQL schema',
            'The production host runs Perl 5.16, so subroutine signatures and postfix dereferencing cannot be used',
            "Privacy: Anyone with a birth in the past century and no recorded death is treated as living; public pages show such a person only as 'Living'",
            'A sortable year is derived from each GEDCOM date (`ABT 1850`, `BET 1840 AND 1845`)',
            'Every query binds its values through DBI placeholders; building SQL by string interpolation is ruled out, table names included (those come from a fixed whitelist)',
        ],
        'Key Technical Concepts': ['GEDCOM 5.5.1 lines: level, optional xref, tag, value', 'Hosting: `kinroots.org.uk` (shared cPanel hosting, SSH user `kinroot`)',
                                   'DBI with `RaiseError`'],
        'Files and Code Sections': [
            '`%s/lib/Kinroots/DB.pm`: `connect(dsn, user, pass)`' % KR,
            '`%s/lib/Kinroots/Gedcom.pm`: parser, lines 58–59 extract the year' % KR,
        ],
        'Errors and fixes': ['The local perl is 5.36; the user pointed out the host is older.'],
        'Problem Solving': 'Individuals and families are loaded in two passes so that family links can point to already-inserted people.',
        'All user messages': [
            'Asked for a GEDCOM 5.5.1 importer into the MySQL schema via `Kinroots::DB`',
            'The host has Perl 5.16: no signatures, no postfix deref',
            "Living people are hidden on public pages as 'Living'",
            '"brilliant, cheers"',
            'With the date code selected: GEDCOM dates are messy, a sortable year is needed',
            'Gave the hosting details',
            'DBI placeholders everywhere, no string-built SQL',
            'Joked about an ancestor transported for sheep theft',
            'Mentioned a concern about large files',
            'Said something about character encoding',
            'Named a tester',
            '"tests with Test::More under t/, run prove -l before every commit"',
        ],
        'Pending Tasks': ['Parser for INDI/FAM records', 'Loader', 'Living-person filter on the public pages', 'Tests'],
        'Current Work': 'About to write the INDI record loader.',
        'Optional Next Step': 'Write `Kinroots::Gedcom::load_individuals`.',
    }))
    c.tool('Read', {'file_path': '%s/sql/schema.sql' % KR}, numbered(
        '-- kinroots schema\n-- every table is utf8mb4 (Gaelic names with accents)\nCREATE TABLE person (\n  id INT AUTO_INCREMENT PRIMARY KEY,\n'
        '  gedcom_xref VARCHAR(20),\n  given VARCHAR(120),\n  surname VARCHAR(120),\n  birth_year SMALLINT\n) DEFAULT CHARSET=utf8mb4;'),
        text="Checking the person table before writing the loader.", anchor='R1')
    c.tool('Write', {'file_path': '%s/lib/Kinroots/Gedcom/Load.pm' % KR, 'content':
                     'package Kinroots::Gedcom::Load;\nuse strict;\nuse warnings;\n\nsub load_individuals {\n    my ($dbh, $indis) = @_;\n'
                     '    my $sth = $dbh->prepare(q{INSERT INTO person (gedcom_xref, given, surname, birth_year) VALUES (?, ?, ?, ?)});\n'
                     '    for my $p (@$indis) {\n        $sth->execute($p->{xref}, $p->{given}, $p->{surname}, $p->{birth_year});\n    }\n}\n\n1;\n'},
           created('%s/lib/Kinroots/Gedcom/Load.pm' % KR), text="Writing the loader; it reads the whole file and inserts in one pass.")
    c.say("Individuals load with placeholders. Next: families, then the public-page filter.")
    return c.write({'situations': ['English request paraphrased, clauses reordered', 'version rule restated (no signatures -> cannot be used)',
                                   'privacy rule in passive voice (100 years -> past century)', 'slang chatter quoted',
                                   'wrapper:ide_selection partial: sortable year kept, keeping the original string dropped',
                                   'hostname fact kept', 'placeholder rule, negation moved', 'joke described',
                                   'resumable-import rule lost ("Mentioned a concern about large files")',
                                   'encoding rule mentioned only, recorded in sql/schema.sql read after the boundary',
                                   'person + e-mail fact lost ("Named a tester")', 'instruction quoted verbatim', '"nice" not listed (lost)'],
                    'notes': 'Unsure: T10 ("Said something about character encoding" carries no content; the rule comes back in a schema comment, so repeated_later). F11: the list says a tester was named, without the name.'})


# --------------------------------------------------------------------------------------------
def v05():
    c = Case('v05-hearing-gammatone-matlab', 'matlab', '2.0', seed=7605, pre_tokens=166402, start='2026-05-11T10:15:00')
    t1 = "implement a 32-channel gammatone filterbank, centre freqs ERB-spaced from 100 Hz to 8 kHz, fs = 16 kHz"
    c.user('T1', t1, lab('instruction', '32-channel gammatone filterbank, ERB-spaced 100 Hz-8 kHz, fs 16 kHz', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'numbers-as-words'],
                         S('a gammatone filterbank of thirty-two bands whose centre frequencies are spaced evenly on the ERB scale between 100 Hz and 8 kHz, at a sampling rate of 16,000 Hz'),
                         values=[{'value': '32', 'status': 'in_summary', 'found_as': 'thirty-two'},
                                 {'value': 'fs = 16 kHz', 'status': 'in_summary', 'found_as': '16,000 Hz'}]))
    c.tools([('Glob', {'pattern': '**/*.m'}, '%s/fb/gtfb_design.m\n%s/fb/gtfb_apply.m\n%s/+labstyle/colors.m' % (HF, HF, HF)),
             ('Read', {'file_path': '%s/fb/gtfb_design.m' % HF}, numbered('function fb = gtfb_design(fs, n)\n% TODO\nfb = struct();\nend'))],
            text="Looking at the stubs.")
    t2 = "no toolboxes beyond the Signal Processing Toolbox, the lab licence doesn't include Audio Toolbox"
    c.user('T2', t2, lab('instruction', 'only Signal Processing Toolbox (no Audio Toolbox)', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved'],
                         S('The Signal Processing Toolbox is the only toolbox the code may depend on, since the lab licence lacks the Audio Toolbox')))
    chat(c, 'C3', 'sweet')
    t4 = "vectorise across channels, no for-loop over samples. it has to run at least 10x real time on the lab mac"
    c.user('T4', t4, lab('instruction', 'vectorised over channels, no per-sample loop; at least 10x real time on the lab Mac', t4, 'lost', 'partial',
                         ['form:partial', 'partial'], partial=True, lost_part='must run at least 10x real time on the lab Mac',
                         distinct=['10x', 'real time', 'real-time', 'realtime', 'ten times', 'lab mac']))
    c.say("Ok, `filter` over a matrix, one column per channel.")
    f5 = "we're on R2023b"
    c.user('F5', f5, lab('user_fact', 'MATLAB R2023b', f5, 'in_summary', 'form:MATLAB R2023b', ['fact'],
                         S('MATLAB R2023b'), values=[{'value': 'R2023b', 'status': 'in_summary', 'found_as': 'MATLAB R2023b'}]))
    t6 = "filter coefficients get computed once in the design function and cached in a struct, not recomputed on every call"
    c.user('T6', [ide_opened('%s/fb/gtfb_design.m' % HF), text(t6)],
           lab('instruction', 'coefficients computed once in the design function, cached in a struct, not recomputed per call', t6, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_opened_file', 'paraphrase:nominalised', 'paraphrase:merged'],
               S('Coefficient computation happens once, in `gtfb_design`, and the returned struct is reused by every `gtfb_apply` call'),
               wrapper='ide_opened_file'))
    t7 = "and every function gets an arguments block that validates its inputs"
    c.user('T7', t7, lab('instruction', 'every function validates inputs with an arguments block', t7, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:merged', 'paraphrase:passive'],
                         S('inputs to both functions are validated in an `arguments` block')))
    c.say("Adding `arguments` blocks to both.")
    chat(c, 'C8', 'sorry, fire drill, back now', 'Apologised for a fire drill', 'paraphrase')
    t9 = "plots: none of the default MATLAB colours, use the lab palette from +labstyle/colors.m, and always label axes with units"
    c.user('T9', t9, lab('instruction', 'plots: lab palette from +labstyle/colors.m; axes labelled with units', t9, 'lost', 'omitted',
                         ['form:omitted', 'summary:mentions-without-content', 'after:assistant-topic'],
                         distinct=['+labstyle', 'palette', 'with units', 'colors.m', 'default matlab colours']))
    f10 = 'reference responses are in /Volumes/labnas/hearing/ref/ERB_ref_2019.mat'
    c.user('F10', f10, lab('user_fact', 'reference data /Volumes/labnas/hearing/ref/ERB_ref_2019.mat', f10, 'lost', 'omitted',
                           ['fact', 'path', 'summary:mentions-without-content'], distinct=['labnas', 'erb_ref_2019', '/volumes/'],
                           values=[{'value': '/Volumes/labnas/hearing/ref/ERB_ref_2019.mat', 'status': 'lost', 'found_as': None}]))
    t11 = "use single precision throughout, the port to the DSP board runs in single"
    c.user('T11', t11, lab('instruction', 'single precision throughout (DSP board port)', t11, 'repeated_later', 'omitted',
                           ['form:omitted', 'repeat:paraphrase'],
                           A('U1', "keep everything in single, not double"), repeated_after=['paraphrase']))
    chat(c, 'C12', "haha matlab's error messages are pure poetry", 'Joked about MATLAB error messages', 'paraphrase', ['chatter', 'joke'])
    t13 = "unit tests as class-based matlab.unittest tests in tests/, compare against the reference within 1e-4"
    c.user('T13', [text(reminder_modified('%s/tests/TestGtfb.m' % HF)), text(t13)],
           lab('instruction', 'class-based matlab.unittest tests in tests/, tolerance 1e-4 against the reference', t13, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'paraphrase:passive', 'wrapper:system-reminder', 'reminder:block-before'],
               S('Correctness is checked by class-based `matlab.unittest` tests under `tests/`, with a tolerance of 1e-4 against the reference data'),
               wrapper='system-reminder'))
    c.compact(summary_20(
        """Chronological review:

1. The user asked for a gammatone filterbank; I looked at the stubs in `fb/`.
2. The user limited the toolboxes, asked for vectorised code, and gave the MATLAB release.
3. With `gtfb_design.m` open, the user asked for coefficients computed once and input validation.
4. The user gave plotting conventions and the location of the reference data, and a numeric-type rule.
5. The user described the tests.""",
        {
            'Primary Request and Intent': [
                'Implement a gammatone filterbank of thirty-two bands whose centre frequencies are spaced evenly on the ERB scale between 100 Hz and 8 kHz, at a sampling rate of 16,000 Hz',
                'The Signal Processing Toolbox is the only toolbox the code may depend on, since the lab licence lacks the Audio Toolbox',
                'Processing is vectorised across channels, with no loop over samples',
                'Coefficient computation happens once, in `gtfb_design`, and the returned struct is reused by every `gtfb_apply` call; inputs to both functions are validated in an `arguments` block',
                'Correctness is checked by class-based `matlab.unittest` tests under `tests/`, with a tolerance of 1e-4 against the reference data',
            ],
            'Key Technical Concepts': ['MATLAB R2023b', '4th-order gammatone as a cascade of biquads (`filter` on a samples × channels matrix)',
                                       'ERB-rate scale (Glasberg & Moore)'],
            'Files and Code Sections': [
                '`%s/fb/gtfb_design.m`: stub returning an empty struct' % HF,
                '`%s/fb/gtfb_apply.m`: stub' % HF,
            ],
            'Errors and fixes': ['None.'],
            'Problem Solving': 'Each channel is four cascaded second-order sections; the gain is normalised to 0 dB at the centre frequency.',
            'All user messages': [
                'Asked for a 32-channel gammatone filterbank, ERB-spaced 100 Hz to 8 kHz, fs 16 kHz',
                'Only the Signal Processing Toolbox',
                'Vectorise across channels, no loop over samples',
                'MATLAB R2023b',
                'With `gtfb_design.m` open: compute the coefficients once and cache them',
                'Every function validates its inputs with an `arguments` block',
                'Apologised for a fire drill',
                'Gave plotting conventions',
                'Gave the location of the reference data',
                'Gave a rule about the numeric type',
                'Joked about MATLAB error messages',
                'Class-based `matlab.unittest` tests with a 1e-4 tolerance',
            ],
            'Pending Tasks': ['`gtfb_design`', '`gtfb_apply`', 'Tests', 'Response plot'],
            'Current Work': 'About to write `gtfb_design`.',
            'Optional Next Step': 'Write `gtfb_design` with ERB spacing and biquad coefficients.',
        }))
    c.user('U1', "oh and keep everything in single, not double - same as on the DSP", after=dict(repeat_of='T11', mode='paraphrase'))
    c.tool('Write', {'file_path': '%s/fb/gtfb_design.m' % HF, 'content':
                     'function fb = gtfb_design(fs, n, fmin, fmax)\narguments\n    fs (1,1) double {mustBePositive}\n    n (1,1) double {mustBeInteger, mustBePositive}\n'
                     '    fmin (1,1) double = 100\n    fmax (1,1) double = 8000\nend\nerb = @(f) 21.4 * log10(4.37e-3 * f + 1);\n'
                     'ierb = @(e) (10.^(e / 21.4) - 1) / 4.37e-3;\nfb.fc = single(ierb(linspace(erb(fmin), erb(fmax), n)));\nfb.fs = fs;\nend\n'},
           created('%s/fb/gtfb_design.m' % HF), text="Single precision it is. Writing the design function.")
    c.tool('Write', {'file_path': '%s/tests/plot_response.m' % HF, 'content':
                     "fb = gtfb_design(16000, 32);\nfigure; semilogx(fb.fc, 1:32, 'o-');\nxlabel('Centre frequency'); ylabel('Channel');\n"},
           created('%s/tests/plot_response.m' % HF), text="A quick plot of the centre frequencies to eyeball the spacing.")
    c.say("Centre frequencies look right on a log axis. Next: the biquad coefficients.")
    return c.write({'situations': ['English request paraphrased, numbers as words (32 -> thirty-two, 16 kHz -> 16,000 Hz)',
                                   'toolbox rule, negation moved', '"sweet" not listed (lost)',
                                   'partial: vectorisation kept, 10x real-time target dropped', 'version fact kept',
                                   'wrapper:ide_opened_file request nominalised; two turns merged into one bullet',
                                   'fire-drill chatter described', 'plotting rule lost ("Gave plotting conventions"); the assistant plots with default colours and no units',
                                   'path fact lost ("Gave the location of the reference data")',
                                   'numeric-type rule mentioned only, paraphrased by the user after the boundary', 'joke described', 'test rule in passive voice, after a system-reminder "was modified" block in the same record'],
                    'notes': 'Unsure: T6/T7 share one bullet; each is judged on its own half. F10 is mentioned without the path, so lost.'})


# --------------------------------------------------------------------------------------------
def v06():
    c = Case('v06-foodbank-donation-apex', 'apex', 'short', seed=7606, pre_tokens=149980, start='2026-02-23T14:40:00')
    t1 = "write a trigger on Donation__c that rolls up the total donated amount and the last donation date onto the Account"
    c.user('T1', t1, lab('instruction', 'trigger on Donation__c rolling up total amount and last donation date to Account', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:nominalised'],
                         S('Roll-up of `Donation__c` onto its Account: the sum of amounts into `Total_Donated__c` and the latest date into `Last_Donation_Date__c`')))
    c.tools([('Glob', {'pattern': 'force-app/main/default/**/*.cls'}, '%s/force-app/main/default/classes/TestDataFactory.cls' % FB),
             ('Read', {'file_path': '%s/force-app/main/default/objects/Donation__c/fields/Amount__c.field-meta.xml' % FB}, numbered(
                 '<?xml version="1.0" encoding="UTF-8"?>\n<CustomField xmlns="http://soap.sforce.com/2006/04/metadata">\n    <fullName>Amount__c</fullName>\n'
                 '    <precision>12</precision>\n    <scale>2</scale>\n    <type>Currency</type>\n</CustomField>'))],
            text="Looking at the object and the test factory.")
    t2 = "one trigger per object, logic in a handler class. and bulkify it, the data loader pushes 200 records per batch"
    c.user('T2', t2, lab('instruction', 'one trigger per object, logic in a handler; bulkified for 200-record batches', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:reordered', 'numbers-as-words'],
                         S('It must cope with the two-hundred-record batches the Data Loader sends; the trigger itself stays thin and hands off to a handler class, one trigger per object'),
                         values=[{'value': '200', 'status': 'in_summary', 'found_as': 'two-hundred'}]))
    chat(c, 'C3', 'ok cool')
    t4 = "no SOQL or DML inside loops, obviously"
    c.user('T4', t4, lab('instruction', 'no SOQL or DML inside loops', t4, 'in_summary', 'paraphrase', ['form:paraphrase', 'negation-moved'],
                         S('queries and DML statements sit outside loops')))
    f5 = 'sandbox is foodbank--uat, org id 00D5g000004XyZq'
    c.user('F5', f5, lab('user_fact', 'sandbox foodbank--uat, org id 00D5g000004XyZq', f5, 'in_summary', 'form:foodbank--uat / 00D5g000004XyZq', ['fact'],
                         S('sandbox `foodbank--uat` (org `00D5g000004XyZq`)'),
                         values=[{'value': 'foodbank--uat', 'status': 'in_summary', 'found_as': 'foodbank--uat'},
                                 {'value': '00D5g000004XyZq', 'status': 'in_summary', 'found_as': '00D5g000004XyZq'}]))
    t6 = ("gift aid: only donations with Gift_Aid_Declared__c = true count towards the gift aid total, and the declaration has to be "
          "dated on or before the donation")
    c.user('T6', t6, lab('instruction', 'gift aid total: only declared donations, declaration dated on/before the donation', t6, 'lost', 'partial',
                         ['form:partial', 'partial', 'after:assistant-topic'], partial=True,
                         lost_part='the declaration must be dated on or before the donation',
                         distinct=['dated', 'declaration date', 'declaration_date', 'on or before']))
    sel = '    @isTest(SeeAllData=true)\n    static void rollsUp() {'
    t7 = "coverage 90%+, build the data with TestDataFactory, no SeeAllData=true"
    c.user('T7', [ide_selection('%s/force-app/main/default/classes/DonationRollupTest.cls' % FB, 3, 4, sel), text(t7)],
           lab('instruction', 'coverage >= 90%; data via TestDataFactory; no SeeAllData=true', t7, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_selection', 'negation-moved', 'numbers-as-words'],
               S('Tests reach at least ninety per cent coverage, create their records through `TestDataFactory` and never read org data (`SeeAllData` stays false)'),
               wrapper='ide_selection', values=[{'value': '90%', 'status': 'in_summary', 'found_as': 'ninety per cent'}]))
    c.say("Ok, I'll remove `SeeAllData=true` from that test.")
    chat(c, 'C8', "lmao salesforce's release notes are 600 pages again", tags=['chatter', 'slang'])
    t9 = "handler runs 'with sharing', volunteers must not see donor amounts on records they don't own"
    c.user('T9', t9, lab('instruction', "handler declared 'with sharing' (volunteers must not see others' donor amounts)", t9, 'lost', 'omitted',
                         ['form:omitted', 'after:assistant-topic'], distinct=['with sharing', 'volunteer', "don't own"]))
    f10 = 'finance contact for sign-off is Dev Patel, dev.patel@harvestshare.example'
    c.user('F10', f10, lab('user_fact', 'finance contact Dev Patel, dev.patel@harvestshare.example', f10, 'lost', 'omitted', ['fact', 'email'],
                           distinct=['patel', 'harvestshare', 'finance contact'],
                           values=[{'value': 'Dev Patel', 'status': 'lost', 'found_as': None},
                                   {'value': 'dev.patel@harvestshare.example', 'status': 'lost', 'found_as': None}]))
    t11 = "deploy only with sf project deploy start and the manifest/package.xml, never a change set"
    c.user('T11', t11, lab('instruction', 'deploy via sf project deploy start with manifest/package.xml, never change sets', t11, 'repeated_later', 'omitted',
                           ['form:omitted', 'repeat:in_tool_result'],
                           A('R1', 'Deploy with `sf project deploy start --manifest manifest/package.xml`. Change sets are not used in this org.'),
                           repeated_after=['in_tool_result']))
    chat(c, 'C12', '🙏', tags=['chatter', 'emoji'])
    t13 = "refunds come in as negative donations. they reduce the total but must not move the last donation date"
    c.user('T13', t13, lab('instruction', 'refunds (negative donations) reduce the total but do not change the last donation date', t13, 'in_summary', 'paraphrase',
                           ['form:paraphrase', 'negation-moved', 'paraphrase:vocab'],
                           S('A refund arrives as a `Donation__c` with a negative amount: it lowers the rolled-up total while leaving `Last_Donation_Date__c` untouched')))
    c.say("Got it, the date only considers positive amounts.")
    c.compact(summary_short({
        'Primary Request and Intent': [
            'Roll-up of `Donation__c` onto its Account: the sum of amounts into `Total_Donated__c` and the latest date into `Last_Donation_Date__c`',
            'It must cope with the two-hundred-record batches the Data Loader sends; the trigger itself stays thin and hands off to a handler class, one trigger per object; queries and DML statements sit outside loops',
            'A separate gift-aid total counts only donations where `Gift_Aid_Declared__c` is true',
            'Tests reach at least ninety per cent coverage, create their records through `TestDataFactory` and never read org data (`SeeAllData` stays false)',
            'A refund arrives as a `Donation__c` with a negative amount: it lowers the rolled-up total while leaving `Last_Donation_Date__c` untouched',
        ],
        'Key Technical Concepts': ['Apex trigger handler pattern', 'Aggregate SOQL (`SUM`, `MAX`) grouped by `Account__c`',
                                   'Work happens in the sandbox `foodbank--uat` (org `00D5g000004XyZq`)'],
        'Files and Code Sections': [
            '`%s/force-app/main/default/classes/TestDataFactory.cls`: existing factory' % FB,
            '`%s/force-app/main/default/classes/DonationRollupTest.cls`: `SeeAllData=true` to be removed' % FB,
        ],
        'Problem Solving': 'Account ids are collected from `Trigger.new` and `Trigger.old` so that deletes and re-parenting also recompute.',
        'Pending Tasks': ['`DonationTrigger`', '`DonationRollupHandler`', 'Gift-aid total', 'Tests'],
        'Current Work': 'About to write the handler.',
        'Optional Next Step': 'Write `DonationRollupHandler.recalculate(Set<Id>)`.',
    }))
    c.tool('Read', {'file_path': '%s/README.md' % FB}, numbered(
        '# Food bank CRM\n\n## Deploying\n\nDeploy with `sf project deploy start --manifest manifest/package.xml`. Change sets are not used in this org.'),
        text="Reading the deploy notes.", anchor='R1')
    c.tool('Write', {'file_path': '%s/force-app/main/default/classes/DonationRollupHandler.cls' % FB, 'content':
                     'public class DonationRollupHandler {\n    public static void recalculate(Set<Id> accountIds) {\n'
                     '        Map<Id, Account> updates = new Map<Id, Account>();\n'
                     '        for (AggregateResult ar : [SELECT Account__c acc, SUM(Amount__c) total FROM Donation__c WHERE Account__c IN :accountIds GROUP BY Account__c]) {\n'
                     '            updates.put((Id) ar.get(\'acc\'), new Account(Id = (Id) ar.get(\'acc\'), Total_Donated__c = (Decimal) ar.get(\'total\')));\n'
                     '        }\n        update updates.values();\n    }\n}\n'},
           created('%s/force-app/main/default/classes/DonationRollupHandler.cls' % FB), text="Writing the handler.")
    c.say("The total is done with one aggregate query. Next: the latest positive donation date and the gift-aid total.")
    return c.write({'situations': ['English request nominalised', 'two turns (handler/bulk, no SOQL in loops) folded into one summary bullet, clauses reordered',
                                   'org fact kept', 'partial: declared-only gift aid kept, declaration-dated-before dropped',
                                   'wrapper:ide_selection rule paraphrased, negation moved (90% -> ninety per cent)',
                                   "sharing rule silently dropped; the handler after the boundary is declared without 'with sharing'",
                                   'person + e-mail fact lost', 'deploy rule omitted, recorded in README.md read after the boundary',
                                   'refund rule paraphrased', 'short style: every chatter turn lost (ok cool, lmao …, 🙏)'],
                    'notes': 'Unsure: T6 — the gift-aid total is kept with its declared flag; the dating condition is dropped, so lost (partial).'})


CASES = [v01, v02, v03, v04, v05, v06]
