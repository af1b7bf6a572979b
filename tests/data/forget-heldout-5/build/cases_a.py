"""u01-u06. Every label below is the labeller's judgement, written by hand. Every turn, tool call,
tool result and summary here was written for this set."""
from builder import (Case, lab, S, A, ide_opened, ide_selection, reminder_modified, reminder_todo_empty, text, image, numbered,
                     edited, created, TODO_OK, todos, command, summary_20, summary_21, summary_short)

PB = '/home/tomas/migrace/penze-batch'
TN = '/Users/minji/dev/tasknote.nvim'
FE = '/home/elif/veri/feribot-etl'
VD = '/home/amelie/ros2_ws/src/vigne_drone'
PF = '/Users/lucia/qgis/parcelas_forestales'
FA = '/home/marco/lavoro/ferie-app'


def chat(c, tid, t, quote=None, form='verbatim', tags=None):
    """A chatter turn: in_summary when the user-message list quotes or describes it, else lost."""
    tags = tags or ['chatter']
    if quote:
        c.user(tid, t, lab('chatter', 'chatter: ' + t, t, 'in_summary', form, tags, S(quote)))
    else:
        c.user(tid, t, lab('chatter', 'chatter: ' + t, t, 'lost', 'omitted', tags))


# --------------------------------------------------------------------------------------------
def u01():
    c = Case('u01-penze-cobol-batch', 'cobol', '2.0', seed=7501, pre_tokens=168220, start='2026-02-02T08:31:00')
    t1 = ("so we're porting the monthly contribution batch PENZ0410 from COBOL to Spring Batch. rule number one: for the same input "
          "the java job has to write an output file that is byte-identical to what the COBOL job writes, CI diffs the two")
    c.user('T1', t1, lab('instruction', 'port PENZ0410 to Spring Batch; output file byte-identical to the COBOL output for the same input (CI diffs)', t1,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'long-turn', 'paraphrase:vocab'],
                         S('given the same input, the Java job must produce exactly the same output file as the COBOL program, down to the last byte; a CI step compares the two files')))
    c.tools([('Glob', {'pattern': 'legacy/**/*.cbl'}, '%s/legacy/src/PENZ0410.cbl\n%s/legacy/src/PENZ0411.cbl\n%s/legacy/src/PZUTIL.cbl' % (PB, PB, PB)),
             ('Read', {'file_path': '%s/legacy/src/PENZ0410.cbl' % PB}, numbered(
                 '       IDENTIFICATION DIVISION.\n       PROGRAM-ID. PENZ0410.\n       ENVIRONMENT DIVISION.\n       INPUT-OUTPUT SECTION.\n'
                 '       FILE-CONTROL.\n           SELECT VSTUP ASSIGN TO PZIN.\n           SELECT VYSTUP ASSIGN TO PZOUT.\n       DATA DIVISION.\n'
                 '       FILE SECTION.\n       FD  VSTUP RECORDING MODE F.\n           COPY PZKONTR.'))],
           text="Looking at the COBOL program and what it includes.")
    c.say("`PENZ0410` reads `PZIN` with the `PZKONTR` copybook. Where does the copybook live? It isn't under `legacy/src`.")
    f2 = 'copybook najdeš v /srv/legacy/copy/PZKONTR.cpy'
    c.user('F2', f2, lab('user_fact', 'copybook path /srv/legacy/copy/PZKONTR.cpy', f2, 'in_summary', 'form:/srv/legacy/copy/PZKONTR.cpy',
                         ['fact', 'path', 'language:cs'], S('`/srv/legacy/copy/PZKONTR.cpy`'),
                         values=[{'value': '/srv/legacy/copy/PZKONTR.cpy', 'status': 'in_summary', 'found_as': '/srv/legacy/copy/PZKONTR.cpy'}]))
    c.tool('Read', {'file_path': '/srv/legacy/copy/PZKONTR.cpy'}, numbered(
        '       01  PZ-KONTRIBUCE.\n           05  PZ-CISLO-SMLOUVY     PIC X(10).\n           05  PZ-RODNE-CISLO       PIC X(10).\n'
        '           05  PZ-CASTKA            PIC S9(7)V99 COMP-3.\n           05  PZ-STATNI-PRISPEVEK  PIC S9(5)V99 COMP-3.\n'
        '           05  PZ-OBDOBI            PIC 9(6).\n           05  FILLER               PIC X(22).'))
    t3 = 'částky nikdy nepřeváděj na double, všechno přes BigDecimal se škálou 2 a zaokrouhlením HALF_UP, stejně jako ROUNDED v COBOLu'
    c.user('T3', t3, lab('instruction', 'amounts never as double; BigDecimal scale 2, HALF_UP like COBOL ROUNDED', t3, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:cs', 'translated', 'negation-moved'],
                         S('Money is held in `BigDecimal` with scale 2 and `RoundingMode.HALF_UP` (what COBOL `ROUNDED` does); floating-point types are to be avoided for amounts')))
    c.say("Understood, `BigDecimal` end to end.")
    chat(c, 'C4', 'díky!', 'Thanked the assistant (in Czech)', 'paraphrase', ['chatter', 'language:cs'])
    t5 = "packed decimal: decode it in one util class PackedDecimal, dont scatter nibble math across the readers"
    c.user('T5', [ide_selection('/srv/legacy/copy/PZKONTR.cpy', 4, 5, '           05  PZ-CASTKA            PIC S9(7)V99 COMP-3.\n'
                                '           05  PZ-STATNI-PRISPEVEK  PIC S9(5)V99 COMP-3.'), text(t5)],
           lab('instruction', 'COMP-3 decoding in a single PackedDecimal util class, not spread over the readers', t5, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_selection', 'negation-moved'],
               S('All COMP-3 (packed decimal) decoding lives in a single `PackedDecimal` utility; the item readers call it instead of doing their own nibble arithmetic'),
               wrapper='ide_selection'))
    c.tool('Write', {'file_path': '%s/src/main/java/cz/penze/batch/util/PackedDecimal.java' % PB, 'content':
                     'package cz.penze.batch.util;\n\nimport java.math.BigDecimal;\n\npublic final class PackedDecimal {\n'
                     '    public static BigDecimal decode(byte[] b, int off, int len, int scale) {\n        long v = 0;\n'
                     '        for (int i = 0; i < len; i++) {\n            int hi = (b[off + i] >> 4) & 0x0F, lo = b[off + i] & 0x0F;\n'
                     '            v = v * 10 + hi;\n            if (i < len - 1) v = v * 10 + lo;\n            else if (lo == 0x0D) v = -v;\n        }\n'
                     '        return BigDecimal.valueOf(v, scale);\n    }\n}\n'},
           created('%s/src/main/java/cz/penze/batch/util/PackedDecimal.java' % PB))
    t6 = ("input EBCDIC is cp1153, not cp037. and keep the trailing spaces of every fixed-width record exactly as they are, "
          "the diff flags any record that got shorter")
    c.user('T6', t6, lab('instruction', 'EBCDIC code page cp1153 (not cp037); keep trailing spaces of fixed-width records', t6, 'lost', 'partial',
                         ['form:partial', 'partial', 'after:assistant-topic'], partial=True,
                         lost_part='keep the trailing spaces of every fixed-width record (no record may get shorter)',
                         distinct=['trailing', 'spaces', 'shorter', 'whitespace', 'stripTrailing']))
    c.say("Noted, `Charset.forName(\"IBM1153\")` for decoding.")
    chat(c, 'C7', 'lgtm')
    t8 = 'logy: žádná rodná čísla ani čísla účtů v logu, maskuj je na poslední 4 znaky'
    c.user('T8', t8, lab('instruction', 'no birth numbers or account numbers in logs; mask to the last 4 characters', t8, 'lost', 'omitted',
                         ['form:omitted', 'summary:mentions-without-content', 'language:cs', 'after:assistant-topic'],
                         distinct=['rodná', 'rodne', 'birth', 'mask', 'last 4', 'last four', 'poslední', '****']))
    c.say("Rozumím.")
    f9 = 'testovací DB2 běží na db2-test.penze.local, port 50000'
    c.user('F9', f9, lab('user_fact', 'test DB2 host db2-test.penze.local port 50000', f9, 'repeated_later', 'omitted', ['fact', 'language:cs', 'repeat:in_tool_result'],
                         A('R1', 'db2-test.penze.local:50000'),
                         values=[{'value': 'db2-test.penze.local', 'status': 'repeated_later', 'found_as': 'db2-test.penze.local'},
                                 {'value': '50000', 'status': 'repeated_later', 'found_as': '50000'}]))
    t10 = "don't edit anything under legacy/, the cobol sources are read-only reference"
    c.user('T10', t10, lab('instruction', 'do not edit legacy/ (COBOL sources are read-only reference)', t10, 'repeated_later', 'omitted',
                           ['form:omitted', 'repeat:verbatim'], A('U1', "don't edit anything under legacy/"), repeated_after=['verbatim']))
    c.say("Ok.")
    t11 = 'chunk size 500 and the job has to be restartable from the last committed chunk'
    c.user('T11', t11, lab('instruction', 'chunk size 500; restartable from the last committed chunk', t11, 'in_summary', 'verbatim',
                           ['form:verbatim'], S('"chunk size 500 and the job has to be restartable from the last committed chunk"')))
    c.tool('Write', {'file_path': '%s/src/main/java/cz/penze/batch/Penz0410JobConfig.java' % PB, 'content':
                     'package cz.penze.batch;\n\n@Configuration\npublic class Penz0410JobConfig {\n    @Bean\n'
                     '    Step contributionStep(JobRepository repo, PlatformTransactionManager tx) {\n'
                     '        return new StepBuilder("contributionStep", repo).<Kontribuce, VystupniZaznam>chunk(500, tx)\n'
                     '            .reader(reader()).processor(processor()).writer(writer()).build();\n    }\n}\n'},
           created('%s/src/main/java/cz/penze/batch/Penz0410JobConfig.java' % PB))
    chat(c, 'C12', '🍺', 'Beer emoji', 'paraphrase', ['chatter', 'emoji'])
    f13 = 'go-live je 1. 3. 2026, podepisuje to Ing. Hana Dvořáková'
    c.user('F13', f13, lab('user_fact', 'go-live 1 March 2026, sign-off by Ing. Hana Dvořáková', f13, 'in_summary', 'form:1 March 2026',
                           ['fact', 'date', 'language:cs'], S('go-live on 1 March 2026, signed off by Ing. Hana Dvořáková'),
                           values=[{'value': '1. 3. 2026', 'status': 'in_summary', 'found_as': '1 March 2026'},
                                   {'value': 'Ing. Hana Dvořáková', 'status': 'in_summary', 'found_as': 'Ing. Hana Dvořáková'}]))
    c.compact(summary_20(
        """Chronological review:

1. The user asked to port the monthly contribution batch PENZ0410 from COBOL to Spring Batch with an identical output file.
2. I read the COBOL program; the user gave the copybook location (in Czech) and I read the copybook.
3. The user set the rules for money (in Czech). I agreed.
4. With the COMP-3 fields selected, the user asked for one decoding utility; I wrote `PackedDecimal`.
5. The user named the EBCDIC code page, gave a requirement about logging personal data, and a test database.
6. The user set the chunking and restart rules; I wrote the job configuration. The user gave the go-live date.""",
        {
            'Primary Request and Intent': [
                'Port the monthly contribution batch `PENZ0410` from COBOL to Spring Batch; given the same input, the Java job must produce exactly the same output file as the COBOL program, down to the last byte; a CI step compares the two files',
                'Money is held in `BigDecimal` with scale 2 and `RoundingMode.HALF_UP` (what COBOL `ROUNDED` does); floating-point types are to be avoided for amounts',
                'All COMP-3 (packed decimal) decoding lives in a single `PackedDecimal` utility; the item readers call it instead of doing their own nibble arithmetic',
                'The input is EBCDIC in code page 1153 (`IBM1153`), not 037',
                '"chunk size 500 and the job has to be restartable from the last committed chunk"',
            ],
            'Key Technical Concepts': ['Spring Batch 5 chunk-oriented step, `JobRepository` restart metadata',
                                       'Copybook `/srv/legacy/copy/PZKONTR.cpy`: `PZ-CASTKA PIC S9(7)V99 COMP-3`, `PZ-STATNI-PRISPEVEK PIC S9(5)V99 COMP-3`, 70-byte record',
                                       'Project milestone: go-live on 1 March 2026, signed off by Ing. Hana Dvořáková'],
            'Files and Code Sections': [
                '`%s/legacy/src/PENZ0410.cbl`: the COBOL program (reads `PZIN`, writes `PZOUT`)' % PB,
                '`%s/src/main/java/cz/penze/batch/util/PackedDecimal.java` (new): `decode(bytes, off, len, scale)` with sign nibble `0xD` negative' % PB,
                '`%s/src/main/java/cz/penze/batch/Penz0410JobConfig.java` (new): `contributionStep`, chunk 500' % PB,
            ],
            'Errors and fixes': ['None yet.'],
            'Problem Solving': 'The reader is a `FlatFileItemReader` over raw bytes; each 70-byte record is decoded field by field following the copybook.',
            'All user messages': [
                'Port PENZ0410 from COBOL to Spring Batch; the output file has to match the COBOL output byte for byte, CI diffs them',
                'Gave the copybook path `/srv/legacy/copy/PZKONTR.cpy` (in Czech)',
                'Amounts in `BigDecimal`, scale 2, HALF_UP like COBOL ROUNDED, never `double` (in Czech)',
                'Thanked the assistant (in Czech)',
                'With the COMP-3 fields selected: one `PackedDecimal` util class, no nibble math in the readers',
                'The input code page is cp1153, not cp037',
                'Gave a requirement about logging personal data (in Czech)',
                'Gave the test database connection (in Czech)',
                '"chunk size 500 and the job has to be restartable from the last committed chunk"',
                'Beer emoji',
                'Go-live is 1 March 2026, signed off by Ing. Hana Dvořáková',
            ],
            'Pending Tasks': ['Item reader for the 70-byte records', 'Processor computing the state contribution', 'Fixed-width writer', 'CI diff against the COBOL output'],
            'Current Work': 'The job configuration is written; the reader is next.',
            'Optional Next Step': 'Write `KontribuceReader` using `PackedDecimal` and `IBM1153`.',
        }))
    c.tool('Read', {'file_path': '%s/src/main/resources/application-test.yml' % PB}, numbered(
        'spring:\n  datasource:\n    url: jdbc:db2://db2-test.penze.local:50000/PENZT\n    username: ${DB2_USER}\n    password: ${DB2_PASSWORD}\n'
        '  batch:\n    jdbc:\n      initialize-schema: never'), text="Checking the test profile before wiring the reader.", anchor='R1')
    c.user('U1', "and remember: don't edit anything under legacy/, it's reference only", after=dict(repeat_of='T10', mode='verbatim'))
    c.tool('Write', {'file_path': '%s/src/main/java/cz/penze/batch/KontribuceReader.java' % PB, 'content':
                     'package cz.penze.batch;\n\npublic class KontribuceReader implements ItemReader<Kontribuce> {\n'
                     '    private static final Charset EBCDIC = Charset.forName("IBM1153");\n\n    public Kontribuce read() throws IOException {\n'
                     '        byte[] rec = in.readNBytes(70);\n        if (rec.length == 0) return null;\n'
                     '        String smlouva = new String(rec, 0, 10, EBCDIC).strip();\n        String rc = new String(rec, 10, 10, EBCDIC);\n'
                     '        log.info("reading contract {} for {}", smlouva, rc);\n'
                     '        return new Kontribuce(smlouva, rc, PackedDecimal.decode(rec, 20, 5, 2), PackedDecimal.decode(rec, 25, 4, 2));\n    }\n}\n'},
           created('%s/src/main/java/cz/penze/batch/KontribuceReader.java' % PB),
           text="Understood, nothing under `legacy/` changes. Writing the reader now.")
    c.say("The reader decodes each record with `IBM1153` and `PackedDecimal`. Next: the processor for the state contribution.")
    return c.write({'situations': ['long English request paraphrased (byte-identical -> down to the last byte)', 'path fact in Czech kept verbatim',
                                   'Czech money rule restated in English, negation moved (nikdy na double -> floating-point types are to be avoided)',
                                   'Czech thanks described', 'wrapper:ide_selection request paraphrased',
                                   'partial: cp1153 kept, trailing-spaces rule dropped; the assistant strips a field after the boundary',
                                   'lgtm not in the list (lost)', 'Czech logging rule lost: the list only says a requirement about logging personal data was given; the assistant logs the birth number after the boundary',
                                   'DB2 host fact omitted, printed in application-test.yml read after the boundary',
                                   'legacy/ rule omitted, repeated by the user after the boundary', 'instruction quoted verbatim',
                                   'emoji-only chatter described', 'date + person fact kept (1. 3. 2026 -> 1 March 2026)'],
                    'notes': 'Unsure: F9 (the list says the test database connection was given, without the host; the host comes back only in application-test.yml, so repeated_later). T6: the code page half is kept, the trailing-space half is not.'})


# --------------------------------------------------------------------------------------------
def u02():
    c = Case('u02-tasknote-nvim-due', 'nvim', 'short', seed=7502, pre_tokens=149870, start='2026-01-19T22:05:00')
    t1 = "add due dates to tasks, like `- [ ] buy milk @due(2026-03-14)`. overdue ones highlighted red, the ones due today yellow"
    c.user('T1', t1, lab('instruction', 'due dates via @due(YYYY-MM-DD); overdue red, due today yellow', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:vocab'],
                         S('Support a due-date tag on markdown tasks (`@due(YYYY-MM-DD)`); tasks past their date are highlighted in red, tasks due on the current day in yellow')))
    c.tools([('Read', {'file_path': '%s/lua/tasknote/init.lua' % TN}, numbered(
        "local M = {}\n\nM.config = vim.g.tasknote_config or { signs = true }\n\nfunction M.toggle()\n  local line = vim.api.nvim_get_current_line()\n"
        "  local new = line:gsub('%- %[ %]', '- [x]', 1)\n  vim.api.nvim_set_current_line(new)\nend\n\nreturn M")),
        ('Glob', {'pattern': 'lua/tasknote/*.lua'}, '%s/lua/tasknote/init.lua\n%s/lua/tasknote/highlight.lua\n%s/lua/tasknote/commands.lua' % (TN, TN, TN))],
        text="Reading the plugin entry point.")
    c.say("Config is read from `vim.g.tasknote_config` right now. Should I keep that?")
    t2 = '설정은 setup() 하나로만 받고, 전역 변수(vim.g)는 쓰지 마세요'
    c.user('T2', t2, lab('instruction', 'config only through setup(); no vim.g globals', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:ko', 'translated', 'negation-moved'],
                         S('Configuration enters only through `setup(opts)`; `vim.g` global variables are to be avoided')))
    c.tool('Edit', {'file_path': '%s/lua/tasknote/init.lua' % TN, 'old_string': 'M.config = vim.g.tasknote_config or { signs = true }',
                    'new_string': "M.config = { signs = true }\n\nfunction M.setup(opts)\n  M.config = vim.tbl_deep_extend('force', M.config, opts or {})\nend"},
           edited('%s/lua/tasknote/init.lua' % TN, "local M = {}\n\nM.config = { signs = true }\n\nfunction M.setup(opts)\n  M.config = vim.tbl_deep_extend('force', M.config, opts or {})\nend"))
    chat(c, 'C3', '고마워요 🙏', tags=['chatter', 'language:ko', 'emoji'])
    t4 = 'use extmarks in our own namespace for the highlights, not matchadd'
    c.user('T4', [ide_opened('%s/lua/tasknote/highlight.lua' % TN), text(t4)],
           lab('instruction', 'highlights via extmarks in a plugin namespace, not matchadd', t4, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_opened_file'],
               S('Highlights are placed as extmarks in a dedicated namespace (`nvim_create_namespace("tasknote")`) rather than with `matchadd()`'),
               wrapper='ide_opened_file'))
    c.say("Ok, one namespace, cleared and redrawn per buffer on `BufEnter`/`TextChanged`.")
    f5 = 'we support nvim 0.9.5 and up'
    c.user('F5', f5, lab('user_fact', 'minimum Neovim 0.9.5', f5, 'in_summary', 'form:Neovim >= 0.9.5', ['fact', 'numeric'],
                         S('Neovim >= 0.9.5'), values=[{'value': '0.9.5', 'status': 'in_summary', 'found_as': 'Neovim >= 0.9.5'}]))
    t6 = '날짜 파싱은 vim.fn.strptime 말고 Lua 패턴으로 직접 하고, 잘못된 날짜는 조용히 넘기지 말고 vim.notify로 경고해 주세요'
    c.user('T6', t6, lab('instruction', 'parse dates with a Lua pattern, not strptime; invalid dates: warn via vim.notify instead of skipping silently', t6,
                         'lost', 'partial', ['form:partial', 'partial', 'language:ko', 'after:assistant-topic'], partial=True,
                         lost_part='invalid dates are reported with vim.notify, not skipped silently',
                         distinct=['notify', '경고', 'warn', 'silently', '조용히', 'invalid date']))
    c.say("알겠습니다. A pattern `(%d%d%d%d)%-(%d%d)%-(%d%d)` then `os.time`.")
    t7 = '테스트는 plenary 말고 mini.test로 작성해 주세요'
    c.user('T7', t7, lab('instruction', 'tests with mini.test, not plenary', t7, 'lost', 'omitted', ['form:omitted', 'language:ko', 'after:assistant-topic'],
                         distinct=['mini.test', 'minitest', 'MiniTest', 'mini.nvim']))
    chat(c, 'C8', 'ㅋㅋㅋ nice', tags=['chatter', 'language:ko'])
    f9 = 'btw release notes go to tasknote-dev@googlegroups.com'
    c.user('F9', f9, lab('user_fact', 'release notes mailing list tasknote-dev@googlegroups.com', f9, 'lost', 'omitted', ['fact', 'email'],
                         distinct=['googlegroups', 'tasknote-dev', 'mailing list'],
                         values=[{'value': 'tasknote-dev@googlegroups.com', 'status': 'lost', 'found_as': None}]))
    t10 = 'every time you add an option, document it in doc/tasknote.txt (vimdoc)'
    c.user('T10', t10, lab('instruction', 'document every new option in doc/tasknote.txt', t10, 'repeated_later', 'omitted',
                           ['form:omitted', 'repeat:in_tool_result'],
                           A('R1', 'Every new option must be documented in `doc/tasknote.txt`'), repeated_after=['in_tool_result']))
    t11 = '[Image #1] this is how the sign column looks for me, our signs sit on top of the gitsigns ones. give ours priority 5 so gitsigns wins'
    c.user('T11', [image((90, 90, 140)), text(t11)],
           lab('instruction', 'task signs at priority 5 so gitsigns signs take precedence (screenshot)', t11, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'image', 'numbers-as-words'],
               S('Task signs are placed with priority five so that gitsigns markers take precedence (the user sent a screenshot of the two overlapping)'),
               values=[{'value': 'priority 5', 'status': 'in_summary', 'found_as': 'priority five'}]))
    c.say("Setting `priority = 5` on the sign extmarks.")
    chat(c, 'C12', 'brb ☕', tags=['chatter', 'emoji'])
    t13 = 'i renamed the command to :TaskDue. keep :TasknoteDue working as a deprecated alias for one release'
    c.user('T13', [text(reminder_modified('%s/lua/tasknote/commands.lua' % TN)), text(t13)],
           lab('instruction', 'command renamed :TaskDue; keep :TasknoteDue as deprecated alias for one release', t13, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:system-reminder', 'reminder:block-before'],
               S('The user command is now `:TaskDue`; the old `:TasknoteDue` stays for one more release as a deprecated alias'),
               wrapper='system-reminder'))
    c.compact(summary_short({
        'Primary Request and Intent': [
            'Support a due-date tag on markdown tasks (`@due(YYYY-MM-DD)`); tasks past their date are highlighted in red, tasks due on the current day in yellow',
            'Configuration enters only through `setup(opts)`; `vim.g` global variables are to be avoided',
            'Highlights are placed as extmarks in a dedicated namespace (`nvim_create_namespace("tasknote")`) rather than with `matchadd()`',
            'Dates are parsed with a Lua pattern instead of `vim.fn.strptime`',
            'Task signs are placed with priority five so that gitsigns markers take precedence (the user sent a screenshot of the two overlapping)',
            'The user command is now `:TaskDue`; the old `:TasknoteDue` stays for one more release as a deprecated alias',
        ],
        'Key Technical Concepts': ['Neovim >= 0.9.5 Lua API', 'extmarks with `hl_group` and `sign_text`', '`vim.tbl_deep_extend` for options'],
        'Files and Code Sections': [
            '`%s/lua/tasknote/init.lua`: `M.setup(opts)` merges into `M.config`' % TN,
            '`%s/lua/tasknote/highlight.lua`: to hold the namespace and the redraw function' % TN,
            '`%s/lua/tasknote/commands.lua`: user commands (modified by the user)' % TN,
        ],
        'Problem Solving': 'Redraw on `BufEnter` and `TextChanged` for markdown buffers only.',
        'Pending Tasks': ['Date parser module', 'Highlight redraw', 'Deprecated alias', 'Tests'],
        'Current Work': 'About to write `lua/tasknote/due.lua` with the parser.',
        'Optional Next Step': 'Write the parser, then the highlight redraw.',
    }))
    c.tool('Read', {'file_path': '%s/CONTRIBUTING.md' % TN}, numbered(
        '# Contributing\n\n- Run `make lint` (stylua + luacheck) before opening a PR.\n- Every new option must be documented in `doc/tasknote.txt` (vimdoc, `:h tasknote-config`).\n'
        '- Keep the plugin free of external Lua dependencies at runtime.'), text="Checking the contribution notes first.", anchor='R1')
    c.tool('Write', {'file_path': '%s/lua/tasknote/due.lua' % TN, 'content':
                     "local M = {}\n\nfunction M.parse(line)\n  local y, m, d = line:match('@due%((%d%d%d%d)%-(%d%d)%-(%d%d)%)')\n"
                     "  if not y then\n    return nil\n  end\n  local t = os.time({ year = tonumber(y), month = tonumber(m), day = tonumber(d), hour = 12 })\n"
                     "  if os.date('%Y-%m-%d', t) ~= y .. '-' .. m .. '-' .. d then\n    return nil\n  end\n  return t\nend\n\nreturn M\n"},
           created('%s/lua/tasknote/due.lua' % TN), text="Writing the parser; a date that doesn't round-trip through `os.time` is skipped.")
    c.tool('Write', {'file_path': '%s/tests/due_spec.lua' % TN, 'content':
                     "local due = require('tasknote.due')\n\ndescribe('due.parse', function()\n  it('reads a date', function()\n"
                     "    assert.is_not_nil(due.parse('- [ ] x @due(2026-03-14)'))\n  end)\n  it('skips 2026-02-30', function()\n"
                     "    assert.is_nil(due.parse('- [ ] x @due(2026-02-30)'))\n  end)\nend)\n"},
           created('%s/tests/due_spec.lua' % TN), text="Adding a busted-style spec run through plenary's test harness.")
    c.say("Parser and spec are in. Next: the highlight redraw using the namespace, and documenting the new `due_format` option.")
    return c.write({'situations': ['English request paraphrased', 'Korean config rule restated in English, negation moved (쓰지 마세요 -> to be avoided)',
                                   'wrapper:ide_opened_file request paraphrased', 'version fact kept (0.9.5 -> Neovim >= 0.9.5)',
                                   'Korean partial: Lua-pattern parsing kept, vim.notify on invalid dates dropped; the assistant skips bad dates silently after the boundary',
                                   'Korean test-framework rule silently dropped; the assistant writes a plenary/busted spec after the boundary',
                                   'e-mail fact lost', 'doc rule omitted, recorded in CONTRIBUTING.md read after the boundary (in_tool_result)',
                                   'image request paraphrased (priority 5 -> priority five)', 'system-reminder block before a request, paraphrased',
                                   'short style: every chatter turn lost (Korean thanks with emoji, ㅋㅋㅋ, brb)'],
                    'notes': 'Unsure: T11 mixes a screenshot with the rule; only the rule is labelled.'})


# --------------------------------------------------------------------------------------------
def u03():
    c = Case('u03-feribot-sales-etl', 'ferry', '2.1', seed=7503, pre_tokens=158402, start='2026-03-02T10:20:00')
    t1 = ("Her gün bilet satışlarını hat ve sefer bazında toplayan bir ETL lazım. Kaynak booking API'den gelen JSON, "
          "hedef Postgres'teki sales_daily tablosu")
    c.user('T1', t1, lab('instruction', 'daily ETL: ticket sales aggregated per route and sailing; source booking API JSON, target Postgres sales_daily', t1,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'language:tr', 'translated'],
                         S('A daily ETL that aggregates ticket sales per route and per sailing, reading JSON from the booking API and loading the Postgres table `sales_daily`')))
    c.tools([('Read', {'file_path': '%s/etl/extract.py' % FE}, numbered(
        'import requests\n\nBASE = "https://booking.feribot.example/api/v1"\n\ndef fetch_sales(day, token):\n'
        '    r = requests.get(f"{BASE}/sales", params={"date": day}, headers={"Authorization": f"Bearer {token}"})\n    r.raise_for_status()\n    return r.json()["items"]')),
        ('Bash', {'command': 'ls etl tests', 'description': 'List the package'}, 'etl:\n__init__.py\nextract.py\n\ntests:\n__init__.py')],
        text="Mevcut kodu okuyorum.")
    c.say("There's an extractor already. Which API account should the job use?")
    f2 = 'API hesabı acct_TR_55810'
    c.user('F2', f2, lab('user_fact', 'booking API account acct_TR_55810', f2, 'in_summary', 'form:acct_TR_55810', ['fact', 'language:tr'],
                         S('`acct_TR_55810`'), values=[{'value': 'acct_TR_55810', 'status': 'in_summary', 'found_as': 'acct_TR_55810'}]))
    t3 = 'timestamps arrive as istanbul local time without an offset. convert all of it to UTC before writing, never store naive datetimes'
    c.user('T3', t3, lab('instruction', 'timestamps are Istanbul local without offset; convert to UTC; never store naive datetimes', t3, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved', 'paraphrase:vocab'],
                         S('Incoming timestamps are localised as `Europe/Istanbul` and converted to UTC; only timezone-aware values reach the database')))
    c.say("Ok: `tz_localize('Europe/Istanbul').tz_convert('UTC')`.")
    chat(c, 'C4', 'eyvallah', 'Thanked the assistant (in Turkish)', 'paraphrase', ['chatter', 'language:tr'])
    t5 = "upsert kullan, aynı gün iki kez çalışırsa duplicate olmasın. and log the row count of each route to stdout as one json line"
    c.user('T5', t5, lab('instruction', 'upsert so a second run on the same day makes no duplicates; log per-route row counts to stdout as JSON lines', t5,
                         'lost', 'partial', ['form:partial', 'partial', 'language:mixed', 'after:assistant-topic'], partial=True,
                         lost_part='log the row count of each route to stdout as one JSON line',
                         distinct=['stdout', 'json line', 'row count', 'each route']))
    sel = '    df["revenue"] = df.apply(lambda r: r["qty"] * r["unit_price"] - r["discount"], axis=1)'
    t6 = 'no row-wise apply here pls, vectorize it. this table is ~2M rows a day'
    c.user('T6', [ide_selection('%s/etl/transform.py' % FE, 14, 14, sel), text(t6)],
           lab('instruction', 'no row-wise apply; vectorise (about 2M rows a day)', t6, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_selection', 'negation-moved', 'numbers-as-words'],
               S('Row-wise `DataFrame.apply` is replaced by vectorised column arithmetic, since the table receives about two million rows a day'),
               wrapper='ide_selection', values=[{'value': '~2M', 'status': 'in_summary', 'found_as': 'about two million'}]))
    c.tool('Edit', {'file_path': '%s/etl/transform.py' % FE, 'old_string': sel, 'new_string': '    df["revenue"] = df["qty"] * df["unit_price"] - df["discount"]'},
           edited('%s/etl/transform.py' % FE, '    df["revenue"] = df["qty"] * df["unit_price"] - df["discount"]', 14))
    chat(c, 'C7', 'süper 👌', tags=['chatter', 'language:tr', 'emoji'])
    t8 = "Para birimi TRY; tutarları kuruş cinsinden tam sayı (int64) olarak sakla, float kullanma"
    c.user('T8', t8, lab('instruction', 'amounts in TRY stored as integer kuruş (int64), no float', t8, 'lost', 'omitted',
                         ['form:omitted', 'summary:mentions-without-content', 'language:tr', 'after:assistant-topic'],
                         distinct=['kuruş', 'kurus', 'int64', 'integer', 'minor unit', 'cents']))
    c.say("Tamam.")
    f9 = 'sefer verisi 2019-04-01\'den başlıyor, backfill oradan'
    c.user('F9', f9, lab('user_fact', 'sailing data starts 2019-04-01 (backfill from there)', f9, 'in_summary', 'form:1 April 2019', ['fact', 'date', 'language:tr'],
                         S('the backfill starts at 1 April 2019'), values=[{'value': '2019-04-01', 'status': 'in_summary', 'found_as': '1 April 2019'}]))
    t10 = "DB şifresini koda ya da .env dosyasına yazma, AWS Secrets Manager'dan oku"
    c.user('T10', t10, lab('instruction', 'DB password from AWS Secrets Manager, never in code or .env', t10, 'repeated_later', 'omitted',
                           ['form:omitted', 'language:tr', 'repeat:paraphrase'],
                           A('U1', 'the db password comes from Secrets Manager'), repeated_after=['paraphrase']))
    f11 = 'rapor sahibi Murat Aksoy, sorular için murat.aksoy@feribot.example'
    c.user('F11', f11, lab('user_fact', 'report owner Murat Aksoy, murat.aksoy@feribot.example', f11, 'lost', 'omitted', ['fact', 'email', 'language:tr'],
                           distinct=['murat', 'aksoy'],
                           values=[{'value': 'Murat Aksoy', 'status': 'lost', 'found_as': None},
                                   {'value': 'murat.aksoy@feribot.example', 'status': 'lost', 'found_as': None}]))
    t12 = "write it with to_sql in chunks of 10k, method='multi'"
    c.user('T12', t12 + '\n\n' + reminder_todo_empty(),
           lab('instruction', "load with to_sql, chunksize 10k, method='multi'", t12, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:system-reminder', 'reminder:after', 'reminder:todo', 'numeric'],
               S("Loading uses `to_sql` with `method='multi'` and chunks of 10,000 rows"), wrapper='system-reminder',
               values=[{'value': '10k', 'status': 'in_summary', 'found_as': '10,000'}]))
    c.say("Ok. I'll write the load step next.")
    chat(c, 'C13', 'tamamdır, devam', '"tamamdır, devam"', tags=['chatter', 'language:tr'])
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'A daily ETL that aggregates ticket sales per route and per sailing, reading JSON from the booking API and loading the Postgres table `sales_daily`',
            'Incoming timestamps are localised as `Europe/Istanbul` and converted to UTC; only timezone-aware values reach the database',
            'Re-running the job for a day it already loaded must not create duplicate rows (upsert on the natural key)',
            'Row-wise `DataFrame.apply` is replaced by vectorised column arithmetic, since the table receives about two million rows a day',
            "Loading uses `to_sql` with `method='multi'` and chunks of 10,000 rows",
        ],
        'Key Technical Concepts': ['pandas, SQLAlchemy, Postgres `INSERT ... ON CONFLICT`', 'Booking API v1 with account `acct_TR_55810`',
                                   'Historical data: the backfill starts at 1 April 2019'],
        'Files and Code Sections': [
            '`%s/etl/extract.py`: `fetch_sales(day, token)`' % FE,
            '`%s/etl/transform.py`: revenue computed column-wise (line 14)' % FE,
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'The natural key of `sales_daily` is (`sale_date`, `route_code`, `sailing_id`).',
        'All user messages': [
            'Asked (in Turkish) for a daily ETL aggregating ticket sales by route and sailing from the booking API into `sales_daily`',
            'Gave the API account `acct_TR_55810`',
            'Timestamps are Istanbul local time without offset; convert to UTC, no naive datetimes',
            'Thanked the assistant (in Turkish)',
            'Use an upsert so that running twice on one day creates no duplicates (in Turkish, with an English addition)',
            'With the `apply` line selected: vectorise it, about two million rows a day',
            'Said something about how amounts are stored (in Turkish)',
            'Backfill from 1 April 2019',
            'Gave credentials guidance and the report owner (in Turkish)',
            "Use `to_sql`, chunks of 10,000, `method='multi'`",
            '"tamamdır, devam"',
        ],
        'Pending Tasks': ['Load step with upsert', 'Backfill command', 'Tests'],
        'Current Work': 'Transform is vectorised; the load step is next.',
        'Optional Next Step': 'Write `etl/load.py`.',
    }))
    c.user('U1', 'reminder: the db password comes from Secrets Manager, not from the code and not from .env', after=dict(repeat_of='T10', mode='paraphrase'))
    c.tool('Write', {'file_path': '%s/etl/load.py' % FE, 'content':
                     'import boto3, json\nfrom sqlalchemy import create_engine\n\n\ndef engine():\n'
                     '    sec = json.loads(boto3.client("secretsmanager").get_secret_value(SecretId="feribot/etl/db")["SecretString"])\n'
                     '    return create_engine(f"postgresql+psycopg://{sec[\'user\']}:{sec[\'password\']}@{sec[\'host\']}/sales")\n\n\n'
                     'def load(df):\n    df["amount"] = df["amount"].astype(float)\n'
                     '    df.to_sql("sales_daily_stage", engine(), if_exists="replace", index=False, chunksize=10_000, method="multi")\n'
                     '    print(f"loaded {len(df)} rows")\n'},
           created('%s/etl/load.py' % FE), text="Reading the password from Secrets Manager. Writing the load step into a staging table first.")
    c.say("The stage table is loaded; next is the `INSERT ... ON CONFLICT` from stage into `sales_daily`.")
    return c.write({'situations': ['Turkish request restated in English', 'account fact kept verbatim',
                                   'English request paraphrased, negation moved (never store naive -> only timezone-aware values)',
                                   'Turkish thanks described', 'mixed tr/en partial: upsert kept, JSON row-count logging dropped; the assistant prints a plain line after the boundary',
                                   'wrapper:ide_selection request paraphrased (~2M -> about two million)', 'emoji chatter not listed (lost)',
                                   'Turkish money rule lost: the list says something was said about amounts; the assistant casts to float after the boundary',
                                   'date fact 2019-04-01 -> 1 April 2019', 'Turkish secrets rule omitted, paraphrased in English by the user after the boundary',
                                   'person + e-mail fact lost', 'empty-todo system-reminder after a request (10k -> 10,000)', 'Turkish chatter quoted'],
                    'notes': 'Unsure: F11 — the list says "the report owner" was given, but neither the name nor the e-mail is in the summary, so lost.'})


# --------------------------------------------------------------------------------------------
def u04():
    c = Case('u04-vigne-ros2-rows', 'ros2', '2.0', seed=7504, pre_tokens=171033, start='2026-04-13T14:02:00')
    t1 = ("Il faut un nœud ROS 2 qui suit les rangs de vigne à partir du nuage de points du lidar et qui publie les consignes "
          "de vitesse sur /cmd_vel")
    c.user('T1', t1, lab('instruction', 'ROS 2 node following vine rows from the lidar point cloud, publishing velocity commands on /cmd_vel', t1,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'language:fr', 'translated'],
                         S('a ROS 2 node that keeps the drone centred between vine rows using the lidar point cloud and publishes velocity commands on `/cmd_vel`')))
    c.tools([('Read', {'file_path': '%s/package.xml' % VD}, numbered(
        '<?xml version="1.0"?>\n<package format="3">\n  <name>vigne_drone</name>\n  <version>0.2.0</version>\n  <depend>rclcpp</depend>\n'
        '  <depend>sensor_msgs</depend>\n  <depend>geometry_msgs</depend>\n</package>')),
        ('Glob', {'pattern': 'src/**/*.cpp'}, '%s/src/lidar_filter.cpp\n%s/src/main.cpp' % (VD, VD))],
        text="Je regarde le paquet.")
    c.say("The package has a lidar filter already. Which ROS distribution is this built against?")
    f2 = 'on est sur ROS 2 Humble, Ubuntu 22.04'
    c.user('F2', f2, lab('user_fact', 'ROS 2 Humble on Ubuntu 22.04', f2, 'in_summary', 'form:ROS 2 Humble / Ubuntu 22.04', ['fact', 'language:fr'],
                         S('ROS 2 Humble on Ubuntu 22.04'),
                         values=[{'value': 'Humble', 'status': 'in_summary', 'found_as': 'ROS 2 Humble'},
                                 {'value': 'Ubuntu 22.04', 'status': 'in_summary', 'found_as': 'Ubuntu 22.04'}]))
    t3 = 'all tunables via declare_parameter with defaults in config/row_follow.yaml, nothing hardcoded in the constructor'
    c.user('T3', t3, lab('instruction', 'tunables via declare_parameter, defaults in config/row_follow.yaml; nothing hardcoded in the constructor', t3,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'negation-moved'],
                         S('Every tunable value is a declared ROS parameter whose default sits in `config/row_follow.yaml`; the constructor holds no literal tuning values')))
    c.say("Ok.")
    chat(c, 'C4', 'parfait', '"parfait"', tags=['chatter', 'language:fr'])
    t5 = "ne publie jamais de vitesse si le dernier scan a plus de 200 ms — dans ce cas envoie un Twist nul"
    c.user('T5', t5, lab('instruction', 'never publish a velocity when the last scan is older than 200 ms; send a zero Twist instead', t5,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'language:fr', 'translated', 'negation-moved', 'numbers-as-words'],
                         S('When the newest scan is more than a fifth of a second old, the node sends an all-zero Twist instead of a motion command'),
                         values=[{'value': '200 ms', 'status': 'in_summary', 'found_as': 'a fifth of a second'}]))
    t6 = "pour l'abonnement au lidar utilise rclcpp::SensorDataQoS(), sinon on perd des messages avec le bridge"
    c.user('T6', [ide_opened('%s/include/vigne_drone/row_follower.hpp' % VD), text(t6)],
           lab('instruction', 'lidar subscription with rclcpp::SensorDataQoS() (messages lost otherwise)', t6, 'lost', 'omitted',
               ['form:omitted', 'summary:mentions-without-content', 'wrapper:ide_opened_file', 'language:fr', 'after:assistant-topic'],
               wrapper='ide_opened_file',
               distinct=['SensorDataQoS', 'sensor data qos', 'best effort', 'best_effort', 'perd des messages', 'bridge']))
    c.say("D'accord.")
    t7 = 'max speed 1.2 m/s between the rows and 0.4 m/s in the headland turns'
    c.user('T7', t7, lab('instruction', 'max 1.2 m/s between rows; 0.4 m/s in headland turns', t7, 'lost', 'partial',
                         ['form:partial', 'partial', 'numeric', 'after:assistant-topic'], partial=True,
                         lost_part='0.4 m/s in the headland turns',
                         distinct=['headland', '0.4', 'bout de rang', 'turn speed', 'in the turns']))
    chat(c, 'C8', '👍👍', tags=['chatter', 'emoji'])
    f9 = "the drone's computer is jetson-vigne-02.local, user amelie"
    c.user('F9', f9, lab('user_fact', 'onboard computer jetson-vigne-02.local, user amelie', f9, 'in_summary', 'form:amelie@jetson-vigne-02.local', ['fact', 'hostname'],
                         S('`amelie@jetson-vigne-02.local`'),
                         values=[{'value': 'jetson-vigne-02.local', 'status': 'in_summary', 'found_as': 'amelie@jetson-vigne-02.local'}]))
    t10 = 'fichiers de launch en Python, pas en XML'
    c.user('T10', t10, lab('instruction', 'launch files in Python, not XML', t10, 'repeated_later', 'omitted',
                           ['form:omitted', 'language:fr', 'repeat:in_tool_result'],
                           A('R1', 'Launch files are written in Python (`*.launch.py`), not XML'), repeated_after=['in_tool_result']))
    chat(c, 'C11', 'haha hier le drone a foncé dans un piquet 😅', 'Joked that the drone ran into a vine post yesterday', 'paraphrase',
         ['chatter', 'language:fr', 'emoji', 'joke'])
    t12 = "colcon test has to pass befor you say its done, incl. the lint tests"
    c.user('T12', t12, lab('instruction', 'colcon test (incl. lint tests) must pass before calling it done', t12, 'in_summary', 'typos_fixed',
                           ['form:typos_fixed'], S('"colcon test has to pass before you say it\'s done, incl. the lint tests"')))
    f13 = "le vignoble de test c'est la parcelle B7 du Domaine Rivière, rangs espacés de 2,2 m"
    c.user('F13', f13, lab('user_fact', 'test vineyard: plot B7 at Domaine Rivière, rows 2.2 m apart', f13, 'lost', 'omitted', ['fact', 'language:fr', 'numeric'],
                           distinct=['parcelle', 'Domaine Rivière', 'Rivière', '2,2 m', '2.2 m', 'row spacing', 'espacés'],
                           values=[{'value': 'parcelle B7', 'status': 'lost', 'found_as': None},
                                   {'value': '2,2 m', 'status': 'lost', 'found_as': None}]))
    c.compact(summary_20(
        """Chronological review:

1. The user (in French) asked for a row-following node for the vineyard drone.
2. I read `package.xml`; the user gave the ROS distribution and asked for parameters with YAML defaults.
3. The user set a safety rule about stale scans (in French).
4. With `row_follower.hpp` open, the user commented on the lidar subscription (in French).
5. The user gave the speed limit and the onboard computer, joked about the drone, and set the test rule.
6. The user described the test vineyard (in French).""",
        {
            'Primary Request and Intent': [
                'Write a ROS 2 node that keeps the drone centred between vine rows using the lidar point cloud and publishes velocity commands on `/cmd_vel`',
                'Every tunable value is a declared ROS parameter whose default sits in `config/row_follow.yaml`; the constructor holds no literal tuning values',
                'When the newest scan is more than a fifth of a second old, the node sends an all-zero Twist instead of a motion command',
                'Forward speed between rows is capped at 1.2 m/s',
                '"colcon test has to pass before you say it\'s done, incl. the lint tests"',
            ],
            'Key Technical Concepts': ['ROS 2 Humble on Ubuntu 22.04, `rclcpp`', 'Row centre from a RANSAC line fit on each side of the cloud',
                                       'Onboard computer `amelie@jetson-vigne-02.local`'],
            'Files and Code Sections': [
                '`%s/package.xml`: `vigne_drone` 0.2.0' % VD,
                '`%s/include/vigne_drone/row_follower.hpp`: the node class (opened by the user, who commented on the subscription)' % VD,
            ],
            'Errors and fixes': ['None.'],
            'Problem Solving': 'The staleness check runs in a 20 Hz timer, independent of the subscription callback.',
            'All user messages': [
                'Asked (in French) for a ROS 2 node following vine rows from the lidar cloud, publishing on `/cmd_vel`',
                'ROS 2 Humble, Ubuntu 22.04',
                'Tunables through `declare_parameter` with defaults in `config/row_follow.yaml`, none hardcoded',
                '"parfait"',
                'Stale scan older than a fifth of a second: publish a zero Twist (in French)',
                'With `row_follower.hpp` open, commented on the lidar subscription (in French)',
                'Maximum speed 1.2 m/s between rows',
                'Onboard computer is `jetson-vigne-02.local`, user `amelie`',
                'Joked that the drone ran into a vine post yesterday',
                '"colcon test has to pass before you say it\'s done, incl. the lint tests"',
                'Described the test vineyard (in French)',
            ],
            'Pending Tasks': ['Implement `RowFollower`', 'Parameter YAML', 'Launch file', 'Tests'],
            'Current Work': 'Starting the node implementation.',
            'Optional Next Step': 'Write `src/row_follower.cpp`.',
        }))
    c.tool('Read', {'file_path': '%s/docs/CONVENTIONS.md' % VD}, numbered(
        '# Conventions\n\n- C++17, `ament_clang_format` style.\n- Launch files are written in Python (`*.launch.py`), not XML.\n- One node per executable.'),
        text="Checking the package conventions first.", anchor='R1')
    c.tool('Write', {'file_path': '%s/src/row_follower.cpp' % VD, 'content':
                     '#include "vigne_drone/row_follower.hpp"\n\nRowFollower::RowFollower() : Node("row_follower") {\n'
                     '  max_speed_ = declare_parameter("max_speed", 1.2);\n  stale_after_ = declare_parameter("stale_after_s", 0.2);\n'
                     '  sub_ = create_subscription<sensor_msgs::msg::PointCloud2>("/lidar/points", 10,\n'
                     '      [this](sensor_msgs::msg::PointCloud2::ConstSharedPtr m) { onCloud(m); });\n'
                     '  pub_ = create_publisher<geometry_msgs::msg::Twist>("/cmd_vel", 10);\n}\n\n'
                     'void RowFollower::onCloud(sensor_msgs::msg::PointCloud2::ConstSharedPtr m) {\n  last_scan_ = now();\n'
                     '  auto cmd = steer(fitRows(*m));\n  cmd.linear.x = std::min(cmd.linear.x, max_speed_);\n  pub_->publish(cmd);\n}\n'},
           created('%s/src/row_follower.cpp' % VD), text="Writing the node; speed is clamped to `max_speed` everywhere, including at the row ends.")
    c.tool('Write', {'file_path': '%s/launch/row_follow.launch.py' % VD, 'content':
                     'from launch import LaunchDescription\nfrom launch_ros.actions import Node\n\n\ndef generate_launch_description():\n'
                     '    return LaunchDescription([Node(package="vigne_drone", executable="row_follower",\n'
                     '                                   parameters=["config/row_follow.yaml"])])\n'},
           created('%s/launch/row_follow.launch.py' % VD))
    c.say("Node and Python launch file are written. Next: the YAML defaults, then `colcon test`.")
    return c.write({'situations': ['French request restated in English', 'version fact kept (Humble, 22.04)', 'English request paraphrased, negation moved (nothing hardcoded -> holds no literal tuning values)',
                                   'French chatter quoted', 'French safety rule restated, negation moved (ne publie jamais -> sends an all-zero Twist), 200 ms -> a fifth of a second',
                                   'wrapper:ide_opened_file French QoS rule lost: the summary says the user commented on the subscription; the assistant subscribes with depth 10 after the boundary',
                                   'partial: 1.2 m/s kept, headland 0.4 m/s dropped; the assistant uses one speed cap everywhere',
                                   'emoji-only chatter not listed (lost)', 'hostname fact kept in another form (user@host)',
                                   'French launch-file rule omitted, recorded in docs/CONVENTIONS.md read after the boundary', 'joke described',
                                   'typos fixed in a quoted instruction', 'test-vineyard fact lost ("Described the test vineyard")'],
                    'notes': 'Unsure: T6 — the file and the topic (subscription) are named in the summary but not the QoS rule; labelled lost, mentions-without-content.'})


# --------------------------------------------------------------------------------------------
def u05():
    c = Case('u05-parcelas-qgis-muestreo', 'qgis', '2.1', seed=7505, pre_tokens=153990, start='2026-03-23T16:45:00')
    t1 = ('[Image #1] quiero un diálogo como este boceto: el usuario elige una capa de rodales y el plugin genera parcelas de muestreo '
          'circulares de 15 m de radio en una malla sistemática')
    c.user('T1', [image((60, 140, 70)), text(t1)],
           lab('instruction', 'dialog per sketch: pick a stand layer, generate circular sample plots (15 m radius) on a systematic grid', t1,
               'in_summary', 'paraphrase', ['form:paraphrase', 'image', 'language:es', 'translated'],
               S('a dialog (matching the sketch the user attached) where the user picks a forest-stand layer and the plugin lays out circular sample plots of 15-metre radius on a systematic grid'),
               values=[{'value': '15 m', 'status': 'in_summary', 'found_as': '15-metre'}]))
    c.tools([('Read', {'file_path': '%s/metadata.txt' % PF}, numbered(
        '[general]\nname=Parcelas Forestales\nqgisMinimumVersion=3.28\nversion=0.2.1\nauthor=Lucía Ortega\n\nchangelog=\n  0.2.1 fix layer list refresh')),
        ('Read', {'file_path': '%s/parcelas_forestales.py' % PF}, numbered(
            'from qgis.PyQt.QtWidgets import QAction\n\nclass ParcelasForestales:\n    def __init__(self, iface):\n        self.iface = iface\n\n'
            '    def initGui(self):\n        self.action = QAction("Parcelas", self.iface.mainWindow())\n        self.iface.addToolBarIcon(self.action)'))],
        text="Leo el plugin.")
    c.say("Which QGIS version do your field laptops run?")
    f2 = 'QGIS 3.34 LTR en todos'
    c.user('F2', f2, lab('user_fact', 'QGIS 3.34 LTR on every laptop', f2, 'in_summary', 'form:QGIS 3.34 LTR', ['fact', 'language:es'],
                         S('QGIS 3.34 LTR'), values=[{'value': '3.34 LTR', 'status': 'in_summary', 'found_as': 'QGIS 3.34 LTR'}]))
    t3 = 'nada de processing.run dentro del bucle, que es lentísimo; usa la API de geometrías directamente'
    c.user('T3', t3, lab('instruction', 'no processing.run inside the loop; use the geometry API directly', t3, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:es', 'translated', 'negation-moved'],
                         S('Plot geometry is built with the `QgsGeometry` API directly; `processing.run` is kept out of any loop because it is far too slow')))
    chat(c, 'C4', '¡genial, gracias!', '"¡genial, gracias!"', tags=['chatter', 'language:es'])
    t5 = 'i bumped metadata.txt to 0.3.0. keep its changelog in sync every time you add a feature'
    c.user('T5', [text(reminder_modified('%s/metadata.txt' % PF)), text(t5)],
           lab('instruction', 'metadata.txt now 0.3.0; update its changelog with every feature', t5, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:system-reminder', 'reminder:block-before'],
               S('`metadata.txt` is at 0.3.0 and its changelog gets an entry for each feature added'), wrapper='system-reminder'))
    t6 = ('el CRS de salida siempre EPSG:25830, y si la capa de entrada está en otro CRS, reproyecta en memoria sin tocar la capa original')
    c.user('T6', t6, lab('instruction', 'output CRS always EPSG:25830; reproject other inputs in memory without touching the original layer', t6,
                         'lost', 'partial', ['form:partial', 'partial', 'language:es', 'after:assistant-topic'], partial=True,
                         lost_part='reproject in memory without touching the original layer',
                         distinct=['en memoria', 'in memory', 'original layer', 'capa original', 'sin tocar', 'untouched']))
    c.say("Vale, EPSG:25830 para la salida.")
    chat(c, 'C7', 'ok')
    f8 = 'para el WMS de la Junta el usuario es jcyl_forestal_112'
    c.user('F8', f8, lab('user_fact', 'regional WMS user jcyl_forestal_112', f8, 'lost', 'omitted', ['fact', 'language:es'],
                         distinct=['jcyl', 'forestal_112', 'wms'],
                         values=[{'value': 'jcyl_forestal_112', 'status': 'lost', 'found_as': None}]))
    t9 = 'todas las cadenas de la interfaz con self.tr() para poder traducirlas luego'
    c.user('T9', t9, lab('instruction', 'all UI strings through self.tr() so they can be translated', t9, 'lost', 'omitted',
                         ['form:omitted', 'language:es', 'after:assistant-topic'],
                         distinct=['self.tr', '.tr(', 'traduc', 'translat', 'pylupdate', 'i18n']))
    t10 = 'no dependencies beyond what ships with QGIS. no geopandas, no shapely'
    c.user('T10', t10, lab('instruction', 'no dependencies beyond what ships with QGIS (no geopandas, no shapely)', t10, 'repeated_later', 'omitted',
                           ['form:omitted', 'repeat:ide_wrapped', 'repeat:paraphrase'],
                           A('U1', 'nada de geopandas ni shapely'), repeated_after=['ide_wrapped', 'paraphrase']))
    chat(c, 'C11', 'vale 👍', '"vale 👍"', tags=['chatter', 'language:es', 'emoji'])
    f12 = 'el inventario de campo empieza el 14 de abril'
    c.user('F12', f12, lab('user_fact', 'field inventory starts 14 April', f12, 'in_summary', 'form:14 April', ['fact', 'date', 'language:es'],
                           S('fieldwork begins on 14 April'), values=[{'value': '14 de abril', 'status': 'in_summary', 'found_as': '14 April'}]))
    t13 = 'add a random seed field to the dialog so a plot layout can be reproduced'
    c.user('T13', t13, lab('instruction', 'random seed field in the dialog for reproducible layouts', t13, 'in_summary', 'paraphrase',
                           ['form:paraphrase', 'paraphrase:vocab'],
                           S('The dialog has a seed input so that the same grid offset can be regenerated later')))
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Build a dialog (matching the sketch the user attached) where the user picks a forest-stand layer and the plugin lays out circular sample plots of 15-metre radius on a systematic grid',
            'Plot geometry is built with the `QgsGeometry` API directly; `processing.run` is kept out of any loop because it is far too slow',
            '`metadata.txt` is at 0.3.0 and its changelog gets an entry for each feature added',
            'Output layers are always in EPSG:25830',
            'The dialog has a seed input so that the same grid offset can be regenerated later',
        ],
        'Key Technical Concepts': ['QGIS 3.34 LTR Python plugin, PyQt5 via `qgis.PyQt`', '`QgsVectorLayer` memory provider for the output', 'fieldwork begins on 14 April'],
        'Files and Code Sections': [
            '`%s/parcelas_forestales.py`: plugin class with the toolbar action' % PF,
            '`%s/metadata.txt`: version 0.3.0 (edited by the user)' % PF,
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'Grid points are generated over the stand bounding box and kept when the full circle lies inside the stand polygon.',
        'All user messages': [
            'Attached a sketch and asked (in Spanish) for the sample-plot dialog: stand layer, 15-metre circular plots on a systematic grid',
            'All laptops run QGIS 3.34 LTR',
            'No `processing.run` in the loop, use the geometry API (in Spanish)',
            '"¡genial, gracias!"',
            'Bumped `metadata.txt` to 0.3.0; keep the changelog updated',
            'Output CRS EPSG:25830 (in Spanish)',
            'Gave account details for a map service (in Spanish)',
            '"vale 👍"',
            'Field inventory starts on 14 April',
            'Add a seed field to reproduce a layout',
        ],
        'Pending Tasks': ['Dialog UI', 'Grid generator', 'Output layer', 'Changelog entry'],
        'Current Work': 'About to write `dialog.py`.',
        'Optional Next Step': 'Create the dialog class.',
    }))
    c.user('U1', [ide_opened('%s/requirements-dev.txt' % PF), text('ojo: nada de geopandas ni shapely, solo lo que ya trae QGIS')],
           after=dict(repeat_of='T10', mode='ide_wrapped'))
    c.tool('Write', {'file_path': '%s/dialog.py' % PF, 'content':
                     'from qgis.PyQt.QtWidgets import QDialog, QPushButton, QSpinBox, QVBoxLayout\nfrom qgis.gui import QgsMapLayerComboBox\n'
                     'from qgis.core import QgsCoordinateReferenceSystem\n\n\nclass ParcelasDialog(QDialog):\n    def __init__(self, parent=None):\n'
                     '        super().__init__(parent)\n        self.setWindowTitle("Parcelas de muestreo")\n        self.capa = QgsMapLayerComboBox()\n'
                     '        self.semilla = QSpinBox()\n        self.boton = QPushButton("Generar parcelas")\n'
                     '        lay = QVBoxLayout(self)\n        for w in (self.capa, self.semilla, self.boton):\n            lay.addWidget(w)\n\n'
                     '    def capa_25830(self):\n        capa = self.capa.currentLayer()\n'
                     '        capa.setCrs(QgsCoordinateReferenceSystem("EPSG:25830"))\n        return capa\n'},
           created('%s/dialog.py' % PF), text="Entendido, solo PyQGIS. Writing the dialog.")
    c.say("The dialog is in; next the grid generator that reads the stand layer from `capa_25830()`.")
    return c.write({'situations': ['image request in Spanish restated in English (15 m -> 15-metre)', 'version fact kept',
                                   'Spanish rule restated, negation moved (nada de processing.run -> kept out of any loop)', 'Spanish chatter quoted (twice)',
                                   'system-reminder block before a request, paraphrased',
                                   'Spanish partial: EPSG:25830 kept, in-memory reprojection without touching the source dropped; the assistant calls setCrs on the input layer after the boundary',
                                   'ok not listed (lost)', 'WMS account fact lost ("Gave account details for a map service")',
                                   'Spanish self.tr() rule silently dropped; the assistant hardcodes button labels after the boundary',
                                   'dependency rule omitted, repeated by the user in Spanish behind <ide_opened_file>', 'date fact (14 de abril -> 14 April)', 'English request paraphrased'],
                    'notes': 'Unsure: T10 comes back in Spanish behind an ide_opened_file wrapper, so repeated_after lists both ide_wrapped and paraphrase.'})


# --------------------------------------------------------------------------------------------
def u06():
    c = Case('u06-ferie-angular-richieste', 'angular', 'short', seed=7506, pre_tokens=146511, start='2026-02-23T09:10:00')
    t1 = 'Serve un form per la richiesta ferie: data inizio, data fine, tipo (ferie, permesso, malattia) e note facoltative'
    c.user('T1', t1, lab('instruction', 'leave request form: start date, end date, type (holiday/permit/sick), optional notes', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:it', 'translated'],
                         S('a leave-request form with a start date, an end date, a type (holiday, short leave or sick leave) and an optional notes field')))
    c.tools([('Read', {'file_path': '%s/src/app/app.routes.ts' % FA}, numbered(
        "import { Routes } from '@angular/router';\nimport { DashboardComponent } from './dashboard/dashboard.component';\n\n"
        "export const routes: Routes = [\n  { path: '', component: DashboardComponent },\n];")),
        ('Read', {'file_path': '%s/package.json' % FA}, numbered(
            '{\n  "name": "ferie-app",\n  "dependencies": {\n    "@angular/core": "^17.3.0",\n    "date-fns": "^3.6.0",\n    "rxjs": "~7.8.0"\n  }\n}'))],
        text="Guardo routing e dipendenze.")
    t2 = 'standalone components and signals. no NgModules in new code'
    c.user('T2', t2, lab('instruction', 'standalone components + signals; no NgModules in new code', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved'],
                         S('New code is written as standalone components using signals; NgModules are not introduced')))
    chat(c, 'C3', 'grazie mille', tags=['chatter', 'language:it'])
    t4 = "le date non devono mai cadere nel weekend né nei festivi; usa il calendario che c'è in src/app/core/holidays.ts"
    c.user('T4', t4, lab('instruction', 'dates never on weekends or public holidays; use src/app/core/holidays.ts', t4, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:it', 'translated', 'negation-moved'],
                         S('Only working days can be chosen: Saturdays, Sundays and the holidays listed in `src/app/core/holidays.ts` are rejected by the validator')))
    f5 = "l'API è https://hr-api.ferie.internal/v2"
    c.user('F5', f5, lab('user_fact', 'HR API base https://hr-api.ferie.internal/v2', f5, 'in_summary', 'form:https://hr-api.ferie.internal/v2', ['fact', 'language:it'],
                         S('`https://hr-api.ferie.internal/v2`'),
                         values=[{'value': 'https://hr-api.ferie.internal/v2', 'status': 'in_summary', 'found_as': 'https://hr-api.ferie.internal/v2'}]))
    c.tool('Write', {'file_path': '%s/src/app/leave/leave-form.component.ts' % FA, 'content':
                     "@Component({ selector: 'app-leave-form', standalone: true, imports: [ReactiveFormsModule], templateUrl: './leave-form.component.html' })\n"
                     "export class LeaveFormComponent {\n  form = inject(FormBuilder).nonNullable.group({ start: [''], end: [''], type: ['ferie'], note: [''] });\n}\n"},
           created('%s/src/app/leave/leave-form.component.ts' % FA))
    t6 = 'questo bottone deve restare disabilitato finché il form non è valido'
    c.user('T6', [ide_selection('%s/src/app/leave/leave-form.component.html' % FA, 18, 18, '<button type="submit" class="btn btn-primary">Invia</button>'), text(t6)],
           lab('instruction', 'submit button disabled until the form is valid', t6, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_selection', 'language:it', 'translated', 'negation-moved'],
               S('The submit button becomes active only once the form is valid'), wrapper='ide_selection'))
    t7 = 'show the remaining leave days in the header, and update that number right after a request is sent, without reloading the page'
    c.user('T7', t7, lab('instruction', 'remaining leave days in the header; update immediately after a request is sent, no page reload', t7, 'lost', 'partial',
                         ['form:partial', 'partial', 'after:assistant-topic'], partial=True,
                         lost_part='update the number right after a request is sent, without reloading the page',
                         distinct=['reload', 'right after', 'refresh', 'immediately', 'update that number']))
    chat(c, 'C8', 'top 🔥', tags=['chatter', 'emoji'])
    t9 = 'i test con Jest, non Karma; e ogni componente nuovo ha il suo .spec.ts'
    c.user('T9', t9, lab('instruction', 'tests with Jest, not Karma; every new component has its .spec.ts', t9, 'lost', 'omitted',
                         ['form:omitted', 'summary:mentions-without-content', 'language:it'],
                         distinct=['jest', 'karma', '.spec.ts', 'spec file']))
    f10 = 'le richieste le approva Giulia Ferraro delle risorse umane'
    c.user('F10', f10, lab('user_fact', 'approver Giulia Ferraro (HR)', f10, 'repeated_later', 'omitted', ['fact', 'language:it', 'repeat:in_tool_result'],
                           A('R1', '"Giulia Ferraro"'),
                           values=[{'value': 'Giulia Ferraro', 'status': 'repeated_later', 'found_as': 'Giulia Ferraro'}]))
    t11 = 'niente librerie di date nuove, abbiamo già date-fns'
    c.user('T11', t11, lab('instruction', 'no new date libraries; date-fns is already there', t11, 'repeated_later', 'omitted',
                           ['form:omitted', 'language:it', 'repeat:verbatim'],
                           A('U1', 'niente librerie di date nuove, abbiamo già date-fns'), repeated_after=['verbatim']))
    chat(c, 'C12', 'bravo!', tags=['chatter', 'language:it'])
    c.compact(summary_short({
        'Primary Request and Intent': [
            'Build a leave-request form with a start date, an end date, a type (holiday, short leave or sick leave) and an optional notes field',
            'New code is written as standalone components using signals; NgModules are not introduced',
            'Only working days can be chosen: Saturdays, Sundays and the holidays listed in `src/app/core/holidays.ts` are rejected by the validator',
            'The submit button becomes active only once the form is valid',
            'The header shows how many leave days the employee has left',
            'Testing preferences were stated for the new components',
        ],
        'Key Technical Concepts': ['Angular 17 standalone, signals, reactive forms', 'HR API at `https://hr-api.ferie.internal/v2`'],
        'Files and Code Sections': [
            '`%s/src/app/leave/leave-form.component.ts` (new): reactive form `start`, `end`, `type`, `note`' % FA,
            '`%s/src/app/leave/leave-form.component.html`: submit button on line 18' % FA,
        ],
        'Problem Solving': 'A custom validator checks both dates against the weekend and the holiday list.',
        'Pending Tasks': ['Working-day validator', 'Header counter', 'Submit to the API', 'Approver display'],
        'Current Work': 'Form component created; validator next.',
        'Optional Next Step': 'Write `working-day.validator.ts`.',
    }))
    c.tool('Read', {'file_path': '%s/src/assets/mock/approvers.json' % FA}, numbered(
        '[\n  { "id": "hr-01", "name": "Giulia Ferraro", "team": "Risorse umane" },\n  { "id": "hr-02", "name": "Paolo Conte", "team": "Risorse umane" }\n]'),
        text="Looking at the approver mock data.", anchor='R1')
    c.say("For the date maths between start and end I'll add `dayjs`, it handles business-day plugins nicely.")
    c.user('U1', 'no no, niente librerie di date nuove, abbiamo già date-fns', after=dict(repeat_of='T11', mode='verbatim'))
    c.tool('Write', {'file_path': '%s/src/app/leave/header-balance.component.ts' % FA, 'content':
                     "@Component({ selector: 'app-header-balance', standalone: true, template: `<span>Giorni residui: {{ balance() }}</span>` })\n"
                     "export class HeaderBalanceComponent {\n  private api = inject(LeaveApi);\n  balance = toSignal(this.api.balance(), { initialValue: 0 });\n}\n"},
           created('%s/src/app/leave/header-balance.component.ts' % FA), text="Giusto, uso `date-fns` (`isWeekend`, `eachDayOfInterval`). Header counter first.")
    c.say("The header counter reads the balance once at start-up. Next: the working-day validator with `date-fns`.")
    return c.write({'situations': ['Italian request restated in English', 'English rule paraphrased, negation moved (no NgModules -> are not introduced)',
                                   'Italian rule restated, negation moved (non devono mai cadere -> only working days)', 'URL fact kept verbatim',
                                   'wrapper:ide_selection Italian request restated', 'partial: header count kept, refresh-after-submit dropped; the assistant reads the balance once',
                                   'Italian test rule lost ("Testing preferences were stated")', 'approver fact omitted, in approvers.json read after the boundary',
                                   'Italian date-library rule omitted, repeated verbatim by the user after the boundary',
                                   'short style: every chatter turn lost (grazie mille, top 🔥, bravo!)']})
CASES = [u01, u02, u03, u04, u05, u06]
