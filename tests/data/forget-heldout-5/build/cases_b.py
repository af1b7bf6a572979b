"""u07-u12. Every label below is the labeller's judgement, written by hand. Every turn, tool call,
tool result and summary here was written for this set."""
from builder import (Case, lab, S, A, ide_opened, ide_selection, reminder_modified, reminder_todo_empty, text, image, numbered,
                     edited, created, TODO_OK, todos, command, summary_20, summary_21, summary_short)
from cases_a import chat

BS = '/home/lena/hw/bildskaler'
MT = '/home/pieter/code/moestuin'
FS = '/Users/joao/work/fraude-stream'
OC = '/Users/yui/shops/ocha-theme'
OP = '/home/ola/bots/opoznienia'
LL = '/Users/wei/mods/lantern-lights'


# --------------------------------------------------------------------------------------------
def u07():
    c = Case('u07-bildskaler-fpga', 'fpga', '2.1', seed=7507, pre_tokens=166480, start='2026-05-04T13:30:00')
    t1 = ('Wir brauchen einen bilinearen Skalierer von 1920x1080 auf 1280x720. Die Pixel kommen als AXI4-Stream, 24 Bit RGB')
    c.user('T1', t1, lab('instruction', 'bilinear scaler 1920x1080 -> 1280x720, AXI4-Stream input, 24-bit RGB', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:de', 'translated', 'numeric'],
                         S('A bilinear video scaler from 1920×1080 down to 1280×720 that takes 24-bit RGB pixels over AXI4-Stream'),
                         values=[{'value': '1920x1080', 'status': 'in_summary', 'found_as': '1920×1080'},
                                 {'value': '1280x720', 'status': 'in_summary', 'found_as': '1280×720'}]))
    c.tools([('Glob', {'pattern': 'rtl/**/*.sv'}, '%s/rtl/bs_top.sv\n%s/rtl/bs_axis_in.sv' % (BS, BS)),
             ('Read', {'file_path': '%s/rtl/bs_top.sv' % BS}, numbered(
                 'module bs_top (\n  input  logic        clk,\n  input  logic        rst,\n  input  logic [23:0] s_axis_tdata,\n'
                 '  input  logic        s_axis_tvalid,\n  output logic        s_axis_tready\n);\nendmodule'))],
            text="Ich schaue mir das Top-Level an.")
    c.say("The top level only has the input stream so far. Which board and tool version?")
    f2 = 'Board ist ein Arty A7-100T, Vivado 2023.2'
    c.user('F2', f2, lab('user_fact', 'board Arty A7-100T, Vivado 2023.2', f2, 'in_summary', 'form:Arty A7-100T / Vivado 2023.2', ['fact', 'language:de'],
                         S('Arty A7-100T with Vivado 2023.2'),
                         values=[{'value': 'Arty A7-100T', 'status': 'in_summary', 'found_as': 'Arty A7-100T'},
                                 {'value': 'Vivado 2023.2', 'status': 'in_summary', 'found_as': 'Vivado 2023.2'}]))
    t3 = "don't use any vendor IP for the line buffers. infer the BRAM from plain SV so it ports to lattice later"
    c.user('T3', t3, lab('instruction', 'no vendor IP for line buffers; infer BRAM from plain SV (portable to Lattice)', t3, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved'],
                         S('Line buffers are plain SystemVerilog arrays that synthesis infers as block RAM; vendor IP cores stay out so the design can move to Lattice parts later')))
    chat(c, 'C4', 'danke dir!', 'Thanked the assistant (in German)', 'paraphrase', ['chatter', 'language:de'])
    sel = 'always_ff @(posedge clk) begin\n  acc <= p00 * (16\'hFFFF - fx) + p01 * fx;\nend'
    t5 = 'Koeffizienten als Q1.15 Festkomma, und jede Multiplikation muss in einem DSP48 pro Kanal landen, nicht in LUTs'
    c.user('T5', [ide_selection('%s/rtl/bs_interp.sv' % BS, 31, 33, sel), text(t5)],
           lab('instruction', 'coefficients in Q1.15 fixed point; each multiply in one DSP48 per channel, not LUTs', t5, 'lost', 'partial',
               ['form:partial', 'partial', 'wrapper:ide_selection', 'language:de'], partial=True, wrapper='ide_selection',
               lost_part='each multiplication mapped to one DSP48 per channel, not LUTs',
               distinct=['DSP48', 'dsp', 'LUTs', 'use_dsp', 'pro Kanal']))
    c.say("Verstanden.")
    t6 = 'all resets synchronous and active-low, and call them rst_n'
    c.user('T6', t6, lab('instruction', 'resets synchronous, active-low, named rst_n', t6, 'lost', 'omitted',
                         ['form:omitted', 'summary:mentions-without-content', 'after:assistant-topic'],
                         distinct=['synchronous', 'active-low', 'active low', 'rst_n', 'synchron']))
    chat(c, 'C7', '😎', tags=['chatter', 'emoji'])
    f8 = 'Die Demo ist am 30. Juni fällig'
    c.user('F8', f8, lab('user_fact', 'demo due 30 June', f8, 'in_summary', 'form:30 June', ['fact', 'date', 'language:de'],
                         S('the demo is due on 30 June'), values=[{'value': '30. Juni', 'status': 'in_summary', 'found_as': '30 June'}]))
    t9 = 'Testbenches bitte mit cocotb, nicht in SystemVerilog'
    c.user('T9', t9, lab('instruction', 'testbenches with cocotb, not SystemVerilog', t9, 'repeated_later', 'omitted',
                         ['form:omitted', 'language:de', 'repeat:paraphrase'],
                         A('U1', 'testbenches go in cocotb (python)'), repeated_after=['paraphrase']))
    t10 = 'timing has to close at 148.5 MHz with positive slack, check the report before you commit'
    c.user('T10', t10, lab('instruction', 'timing closes at 148.5 MHz with positive slack; check the report before committing', t10, 'in_summary', 'verbatim',
                           ['form:verbatim'], S('"timing has to close at 148.5 MHz with positive slack, check the report before you commit"')))
    f11 = 'Fragen zur Pinbelegung an Jörg: joerg.hansen@bildtechnik.example'
    c.user('F11', f11, lab('user_fact', 'pinout questions to Jörg, joerg.hansen@bildtechnik.example', f11, 'lost', 'omitted', ['fact', 'email', 'language:de'],
                           distinct=['jörg', 'joerg', 'hansen', 'pinbelegung', 'pinout'],
                           values=[{'value': 'joerg.hansen@bildtechnik.example', 'status': 'lost', 'found_as': None}]))
    t12 = 'Signale in snake_case, Module mit Präfix bs_'
    c.user('T12', t12, lab('instruction', 'signals in snake_case; modules prefixed bs_', t12, 'repeated_later', 'omitted',
                           ['form:omitted', 'language:de', 'repeat:in_tool_result'],
                           A('R1', 'Module names carry the prefix `bs_`; signal names are snake_case'), repeated_after=['in_tool_result']))
    chat(c, 'C13', 'läuft 👍', '"läuft 👍"', tags=['chatter', 'language:de', 'emoji'])
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'A bilinear video scaler from 1920×1080 down to 1280×720 that takes 24-bit RGB pixels over AXI4-Stream',
            'Line buffers are plain SystemVerilog arrays that synthesis infers as block RAM; vendor IP cores stay out so the design can move to Lattice parts later',
            'Interpolation coefficients are Q1.15 fixed-point values',
            '"timing has to close at 148.5 MHz with positive slack, check the report before you commit"',
        ],
        'Key Technical Concepts': ['Arty A7-100T with Vivado 2023.2', 'Two line buffers, 2×2 neighbourhood, horizontal then vertical weights',
                                   'Project date: the demo is due on 30 June'],
        'Files and Code Sections': [
            '`%s/rtl/bs_top.sv`: top level, AXI4-Stream slave only' % BS,
            '`%s/rtl/bs_interp.sv`: interpolation datapath (lines 31–33 selected by the user)' % BS,
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'The 2:3 ratio means every third source column/row is skipped in the weight sequence.',
        'All user messages': [
            'Asked (in German) for a bilinear 1920×1080 → 1280×720 scaler on AXI4-Stream, 24-bit RGB',
            'Board Arty A7-100T, Vivado 2023.2',
            'No vendor IP for line buffers; infer BRAM so it ports to Lattice',
            'Thanked the assistant (in German)',
            'With the interpolation selected: Q1.15 coefficients (in German)',
            'Gave a reset convention',
            'The demo is due on 30 June',
            'Said how testbenches should be written (in German)',
            '"timing has to close at 148.5 MHz with positive slack, check the report before you commit"',
            'Named a contact for a hardware question (in German)',
            'Gave naming conventions (in German)',
            '"läuft 👍"',
        ],
        'Pending Tasks': ['Line buffer module', 'Interpolation datapath', 'Output AXI4-Stream master', 'Testbench', 'Timing closure'],
        'Current Work': 'About to write the line buffer.',
        'Optional Next Step': 'Write `rtl/bs_linebuf.sv`.',
    }))
    c.tool('Read', {'file_path': '%s/docs/STYLE.md' % BS}, numbered(
        '# RTL style\n\n- Module names carry the prefix `bs_`; signal names are snake_case.\n- One module per file, file named after the module.'),
        text="Reading the style guide first.", anchor='R1')
    c.user('U1', 'reminder: testbenches go in cocotb (python), not in SV', after=dict(repeat_of='T9', mode='paraphrase'))
    c.tool('Write', {'file_path': '%s/rtl/bs_linebuf.sv' % BS, 'content':
                     'module bs_linebuf #(parameter int W = 1920) (\n  input  logic        clk,\n  input  logic        rst,\n'
                     '  input  logic        wr_en,\n  input  logic [23:0] wr_data,\n  output logic [23:0] rd_data\n);\n'
                     '  logic [23:0] mem [W];\n  logic [$clog2(W)-1:0] wr_ptr;\n\n  always_ff @(posedge clk or posedge rst) begin\n'
                     '    if (rst) wr_ptr <= 0;\n    else if (wr_en) begin\n      mem[wr_ptr] <= wr_data;\n      wr_ptr <= wr_ptr + 1;\n    end\n  end\nendmodule\n'},
           created('%s/rtl/bs_linebuf.sv' % BS), text="Ok, cocotb for the testbench. Writing the line buffer.")
    c.say("`bs_linebuf` infers one BRAM per line. Next: `tb/test_linebuf.py` with cocotb.")
    return c.write({'situations': ['German request restated in English (1920x1080 -> 1920×1080)', 'board/tool fact kept',
                                   'English rule paraphrased, negation moved (don\'t use vendor IP -> vendor IP cores stay out)', 'German thanks described',
                                   'wrapper:ide_selection German partial: Q1.15 kept, one DSP48 per channel dropped',
                                   'reset rule lost ("Gave a reset convention"); the assistant writes an asynchronous active-high reset after the boundary',
                                   'emoji-only chatter not listed (lost)', 'date fact (30. Juni -> 30 June)',
                                   'German testbench rule omitted ("Said how testbenches should be written"), paraphrased in English by the user after the boundary',
                                   'instruction quoted verbatim', 'e-mail fact lost', 'German naming rule omitted, recorded in docs/STYLE.md read after the boundary',
                                   'German chatter with emoji quoted'],
                    'notes': 'Unsure: T5 sits behind an ide_selection and is partial; the summary names the selected lines but only the Q1.15 half of the rule.'})


# --------------------------------------------------------------------------------------------
def u08():
    c = Case('u08-moestuin-wachtlijst', 'flask', '2.0', seed=7508, pre_tokens=150220, start='2026-01-26T19:40:00')
    t1 = 'We willen een wachtlijst voor tuinen: mensen schrijven zich in met naam, e-mail en voorkeur voor een halve of een hele tuin'
    c.user('T1', t1, lab('instruction', 'waiting list for plots: sign up with name, e-mail and preference for a half or full plot', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:nl', 'translated'],
                         S('a waiting list for allotment plots where people register with their name, e-mail address and whether they want a half or a full plot')))
    c.tools([('Read', {'file_path': '%s/moestuin/__init__.py' % MT}, numbered(
        'from flask import Flask\nfrom .extensions import db, migrate\n\n\ndef create_app():\n    app = Flask(__name__)\n'
        '    app.config.from_prefixed_env()\n    db.init_app(app)\n    migrate.init_app(app, db)\n    return app')),
        ('Read', {'file_path': '%s/moestuin/templates/base.html' % MT}, numbered(
            '<!doctype html>\n<html lang="nl">\n<head>\n  <script src="{{ url_for(\'static\', filename=\'htmx.min.js\') }}"></script>\n</head>'))],
        text="Even kijken hoe de app in elkaar zit.")
    t2 = 'htmx for anything interactive. no react or vue, and no build step'
    c.user('T2', t2, lab('instruction', 'htmx for interactivity; no React/Vue; no build step', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved'],
                         S('There is no JavaScript build step: interactive parts use htmx, and front-end frameworks such as React or Vue are left out')))
    chat(c, 'C3', 'top, dank je', '"top, dank je"', tags=['chatter', 'language:nl'])
    f4 = 'we draaien op Python 3.12 met Flask 3.0'
    c.user('F4', f4, lab('user_fact', 'Python 3.12, Flask 3.0', f4, 'in_summary', 'form:Python 3.12 / Flask 3.0', ['fact', 'language:nl'],
                         S('Python 3.12, Flask 3.0'),
                         values=[{'value': 'Python 3.12', 'status': 'in_summary', 'found_as': 'Python 3.12'},
                                 {'value': 'Flask 3.0', 'status': 'in_summary', 'found_as': 'Flask 3.0'}]))
    t5 = 'de positie op de wachtlijst niet opslaan, altijd uitrekenen uit de inschrijfdatum'
    c.user('T5', [ide_opened('%s/moestuin/models.py' % MT), text(t5)],
           lab('instruction', 'queue position not stored; always computed from the sign-up date', t5, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_opened_file', 'language:nl', 'translated', 'negation-moved'],
               S("A member's place in the queue is derived from the sign-up date whenever it is shown; it is never a stored column"),
               wrapper='ide_opened_file'))
    c.tool('Write', {'file_path': '%s/moestuin/wachtlijst/models.py' % MT, 'content':
                     'class Inschrijving(db.Model):\n    id = db.Column(db.Integer, primary_key=True)\n    naam = db.Column(db.String(120), nullable=False)\n'
                     '    email = db.Column(db.String(254), nullable=False)\n    voorkeur = db.Column(db.Enum("half", "heel", name="tuinmaat"), nullable=False)\n'
                     '    ingeschreven_op = db.Column(db.DateTime(timezone=True), nullable=False, default=utcnow)\n'},
           created('%s/moestuin/wachtlijst/models.py' % MT))
    t6 = "e-mailadressen uniek, ongeacht hoofdletters. and send the confirmation mail through the rq queue, never inline in the request"
    c.user('T6', t6, lab('instruction', 'e-mail addresses unique case-insensitively; confirmation mail via the rq queue, never inline', t6, 'lost', 'partial',
                         ['form:partial', 'partial', 'language:mixed', 'after:assistant-topic'], partial=True,
                         lost_part='confirmation mail sent through the rq queue, never inline in the request',
                         distinct=['rq', 'rq queue', 'inline', 'wachtrij', 'background', 'worker']))
    chat(c, 'C7', 'lekker bezig 💪', tags=['chatter', 'language:nl', 'emoji'])
    t8 = 'no personal data in URLs. the unsubscribe link uses an opaque random token'
    c.user('T8', t8, lab('instruction', 'no personal data in URLs; unsubscribe link with an opaque random token', t8, 'lost', 'omitted',
                         ['form:omitted', 'summary:mentions-without-content', 'after:assistant-topic'],
                         distinct=['opaque', 'personal data', 'random token', 'token_urlsafe']))
    f9 = 'de vereniging heeft 64 tuinen, 40 hele en 24 halve'
    c.user('F9', f9, lab('user_fact', '64 plots: 40 full, 24 half', f9, 'in_summary', 'form:sixty-four plots (forty full, twenty-four half)',
                         ['fact', 'language:nl', 'numbers-as-words'], S('sixty-four plots (forty full, twenty-four half)'),
                         values=[{'value': '64', 'status': 'in_summary', 'found_as': 'sixty-four'},
                                 {'value': '40', 'status': 'in_summary', 'found_as': 'forty'},
                                 {'value': '24', 'status': 'in_summary', 'found_as': 'twenty-four'}]))
    t10 = 'schemawijzigingen via Flask-Migrate, nooit db.create_all()'
    c.user('T10', t10, lab('instruction', 'schema changes via Flask-Migrate, never db.create_all()', t10, 'repeated_later', 'omitted',
                           ['form:omitted', 'language:nl', 'repeat:in_tool_result'],
                           A('R1', 'Schema changes go through Flask-Migrate'), repeated_after=['in_tool_result']))
    t11 = '[Image #1] zo ziet de huisstijl eruit: groen #2E7D32 als hoofdkleur en Source Sans als lettertype'
    c.user('T11', [image((46, 125, 50)), text(t11)],
           lab('instruction', 'house style per image: primary green #2E7D32, Source Sans font', t11, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'image', 'language:nl', 'translated'],
               S('Styling follows the association\'s house style from the user\'s screenshot: primary colour green `#2E7D32`, typeface Source Sans'),
               values=[{'value': '#2E7D32', 'status': 'in_summary', 'found_as': '#2E7D32'}]))
    chat(c, 'C12', 'haha tuinkabouters incoming 🍄', 'Joked about garden gnomes', 'paraphrase', ['chatter', 'language:nl', 'emoji', 'joke'])
    f13 = 'de secretaris is Anneke de Vries trouwens'
    c.user('F13', f13, lab('user_fact', 'secretary Anneke de Vries', f13, 'lost', 'omitted', ['fact', 'language:nl'],
                           distinct=['anneke', 'de vries', 'secretaris', 'secretary'],
                           values=[{'value': 'Anneke de Vries', 'status': 'lost', 'found_as': None}]))
    c.compact(summary_20(
        """Chronological review:

1. The user (in Dutch) asked for a waiting list for allotment plots.
2. I read the app factory and the base template; the user set the front-end approach.
3. The user gave the Python and Flask versions. With `models.py` open, they asked for the queue position to be derived (in Dutch). I wrote the model.
4. The user asked for unique e-mail addresses (in Dutch) and said something about URLs.
5. The user gave the number of plots, sent a screenshot of the house style, and joked about garden gnomes.""",
        {
            'Primary Request and Intent': [
                'Build a waiting list for allotment plots where people register with their name, e-mail address and whether they want a half or a full plot',
                'There is no JavaScript build step: interactive parts use htmx, and front-end frameworks such as React or Vue are left out',
                "A member's place in the queue is derived from the sign-up date whenever it is shown; it is never a stored column",
                'E-mail addresses are unique regardless of letter case',
                'Styling follows the association\'s house style from the user\'s screenshot: primary colour green `#2E7D32`, typeface Source Sans',
            ],
            'Key Technical Concepts': ['Python 3.12, Flask 3.0, Flask-SQLAlchemy', 'htmx partial swaps', 'The association has sixty-four plots (forty full, twenty-four half)'],
            'Files and Code Sections': [
                '`%s/moestuin/__init__.py`: `create_app()`' % MT,
                '`%s/moestuin/wachtlijst/models.py` (new): `Inschrijving` with `naam`, `email`, `voorkeur`, `ingeschreven_op`' % MT,
            ],
            'Errors and fixes': ['None.'],
            'Problem Solving': 'Case-insensitive uniqueness via a unique index on `lower(email)`.',
            'All user messages': [
                'Asked (in Dutch) for a waiting list: name, e-mail, half or full plot',
                'htmx, no React or Vue, no build step',
                '"top, dank je"',
                'Python 3.12 with Flask 3.0',
                'With `models.py` open: do not store the queue position, compute it from the sign-up date (in Dutch)',
                'E-mail addresses unique regardless of case (in Dutch, with an English addition)',
                'Said something about URLs',
                'The association has sixty-four plots',
                'Screenshot of the house style: green `#2E7D32`, Source Sans',
                'Joked about garden gnomes',
            ],
            'Pending Tasks': ['Migration for `Inschrijving`', 'Sign-up form with htmx', 'Queue view', 'Confirmation mail', 'Unsubscribe link'],
            'Current Work': 'Model written; migration and form next.',
            'Optional Next Step': 'Generate the migration and write the sign-up view.',
        }))
    c.tool('Read', {'file_path': '%s/README.md' % MT}, numbered(
        '# Moestuin\n\n## Database\nSchema changes go through Flask-Migrate (`flask db migrate -m ...`, then `flask db upgrade`).\n\n## Run\n`flask --app moestuin run --debug`'),
        text="Checking the README for the migration workflow.", anchor='R1')
    c.tool('Write', {'file_path': '%s/moestuin/wachtlijst/views.py' % MT, 'content':
                     '@bp.post("/inschrijven")\ndef inschrijven():\n    form = InschrijfForm()\n    if not form.validate_on_submit():\n'
                     '        return render_template("wachtlijst/_form.html", form=form), 422\n    ins = Inschrijving(naam=form.naam.data, email=form.email.data.lower(), voorkeur=form.voorkeur.data)\n'
                     '    db.session.add(ins)\n    db.session.commit()\n    stuur_bevestiging(ins)\n'
                     '    afmeld = url_for("wachtlijst.afmelden", email=ins.email, _external=True)\n'
                     '    return render_template("wachtlijst/_bedankt.html", ins=ins, afmeld=afmeld)\n'},
           created('%s/moestuin/wachtlijst/views.py' % MT), text="Writing the sign-up view; it sends the confirmation mail and renders the thank-you partial.")
    c.say("Sign-up view done. Next: `flask db migrate -m \"inschrijving\"` and the queue page.")
    return c.write({'situations': ['Dutch request restated in English', 'English rule paraphrased, negation moved (no react or vue -> left out)',
                                   'Dutch chatter quoted', 'version fact kept', 'wrapper:ide_opened_file Dutch rule restated, negation moved (niet opslaan -> never a stored column)',
                                   'mixed nl/en partial: unique e-mail kept, rq queue dropped; the assistant mails inside the request after the boundary',
                                   'emoji chatter not listed (lost)', 'URL/privacy rule lost ("Said something about URLs"); the assistant puts the e-mail in the unsubscribe URL',
                                   'number fact in words (64 -> sixty-four)', 'Dutch migration rule omitted, recorded in README.md read after the boundary',
                                   'image request in Dutch paraphrased', 'joke described', 'person fact lost'],
                    'notes': 'Unsure: T8 — the list has "Said something about URLs", a mention without content, so lost.'})


# --------------------------------------------------------------------------------------------
def u09():
    c = Case('u09-fraude-kafka-velocity', 'kafka', 'short', seed=7509, pre_tokens=162745, start='2026-04-20T11:00:00')
    t1 = 'Preciso de uma regra de velocidade: mais de 5 transações do mesmo cartão em 60 segundos gera um alerta no tópico fraud-alerts'
    c.user('T1', t1, lab('instruction', 'velocity rule: more than 5 transactions of one card in 60 s -> alert on fraud-alerts', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:pt', 'translated', 'numbers-as-words'],
                         S('A velocity rule: when one card makes more than five transactions within one minute, an alert is written to the `fraud-alerts` topic'),
                         values=[{'value': '5', 'status': 'in_summary', 'found_as': 'five'},
                                 {'value': '60 segundos', 'status': 'in_summary', 'found_as': 'one minute'}]))
    c.tools([('Read', {'file_path': '%s/src/main/scala/fraude/Topology.scala' % FS}, numbered(
        'object Topology {\n  def build(): Topology = {\n    val b = new StreamsBuilder\n    val tx = b.stream[String, Transacao]("transactions")\n'
        '    b.build()\n  }\n}')),
        ('Read', {'file_path': '%s/build.sbt' % FS}, numbered(
            'scalaVersion := "2.13.14"\nlibraryDependencies ++= Seq(\n  "org.apache.kafka" %% "kafka-streams-scala" % "3.7.0",\n'
            '  "io.circe" %% "circe-generic" % "0.14.9"\n)'))],
        text="Vou ler a topologia.")
    t2 = 'key everything by the card hash. the raw PAN must never leave the ingest service'
    c.user('T2', t2, lab('instruction', 'key by card hash; raw PAN never leaves the ingest service', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved'],
                         S('Records are keyed by the card hash; the raw card number stays inside the ingest service')))
    chat(c, 'C3', 'valeu!', tags=['chatter', 'language:pt'])
    f4 = 'cluster é Kafka 3.7, broker kafka-01.fraude.internal:9093'
    c.user('F4', f4, lab('user_fact', 'Kafka 3.7, broker kafka-01.fraude.internal:9093', f4, 'in_summary', 'form:kafka-01.fraude.internal:9093',
                         ['fact', 'hostname', 'language:pt'], S('`kafka-01.fraude.internal:9093`'),
                         values=[{'value': 'kafka-01.fraude.internal:9093', 'status': 'in_summary', 'found_as': 'kafka-01.fraude.internal:9093'}]))
    t5 = 'usa janelas hopping de 60s avançando de 10 em 10s, não tumbling'
    c.user('T5', t5 + '\n\n' + reminder_todo_empty(),
           lab('instruction', 'hopping windows of 60 s advancing every 10 s, not tumbling', t5, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'language:pt', 'translated', 'negation-moved', 'wrapper:system-reminder', 'reminder:after', 'reminder:todo'],
               S('Counting uses hopping windows of 60 seconds that advance every 10 seconds (tumbling windows were ruled out)'),
               wrapper='system-reminder'))
    t6 = 'o estado vai num store RocksDB com changelog, e o grace period da janela é no máximo 30 segundos'
    c.user('T6', t6, lab('instruction', 'state in a RocksDB store with changelog; window grace period at most 30 s', t6, 'lost', 'partial',
                         ['form:partial', 'partial', 'language:pt', 'after:assistant-topic'], partial=True, lost_part='window grace period at most 30 seconds',
                         distinct=['grace period', '30 segundos', '30 s', 'thirty seconds', 'ofSeconds(30)', 'atrasad']))
    sel = 'implicit val transacaoSerde: Serde[Transacao] = new Serde[Transacao] {\n  // TODO\n}'
    t7 = 'use the circe serdes from common/, dont write new ones'
    c.user('T7', [ide_selection('%s/src/main/scala/fraude/Serdes.scala' % FS, 3, 5, sel), text(t7)],
           lab('instruction', 'use the circe serdes in common/, do not write new serdes', t7, 'lost', 'omitted',
               ['form:omitted', 'wrapper:ide_selection', 'after:assistant-topic'], wrapper='ide_selection',
               distinct=['circe', 'common/', 'CirceSerde']))
    chat(c, 'C8', 'kkkkk', tags=['chatter', 'language:pt'])
    f9 = 'o time de risco quer o relatório toda segunda, contato ana.lima@fraude.example'
    c.user('F9', f9, lab('user_fact', 'risk team report every Monday, contact ana.lima@fraude.example', f9, 'lost', 'omitted', ['fact', 'email', 'language:pt'],
                         distinct=['ana.lima', 'lima', 'segunda', 'monday', 'risco', 'risk team'],
                         values=[{'value': 'ana.lima@fraude.example', 'status': 'lost', 'found_as': None}]))
    t10 = 'testes com TopologyTestDriver, sem subir Kafka de verdade'
    c.user('T10', t10, lab('instruction', 'tests with TopologyTestDriver, no real Kafka', t10, 'repeated_later', 'omitted',
                           ['form:omitted', 'language:pt', 'repeat:paraphrase'],
                           A('U1', 'testa com o TopologyTestDriver'), repeated_after=['paraphrase']))
    chat(c, 'C11', '🙌', tags=['chatter', 'emoji'])
    f12 = 'schema registry tá em http://schema-registry.fraude.internal:8081'
    c.user('F12', f12, lab('user_fact', 'schema registry http://schema-registry.fraude.internal:8081', f12, 'repeated_later', 'omitted',
                           ['fact', 'hostname', 'language:pt', 'repeat:in_tool_result'],
                           A('R1', 'http://schema-registry.fraude.internal:8081'),
                           values=[{'value': 'http://schema-registry.fraude.internal:8081', 'status': 'repeated_later',
                                    'found_as': 'http://schema-registry.fraude.internal:8081'}]))
    c.compact(summary_short({
        'Primary Request and Intent': [
            'A velocity rule: when one card makes more than five transactions within one minute, an alert is written to the `fraud-alerts` topic',
            'Records are keyed by the card hash; the raw card number stays inside the ingest service',
            'Counting uses hopping windows of 60 seconds that advance every 10 seconds (tumbling windows were ruled out)',
            'Window state lives in a persistent RocksDB store with a changelog topic',
        ],
        'Key Technical Concepts': ['Kafka Streams Scala DSL on Kafka 3.7, broker `kafka-01.fraude.internal:9093`', '`TimeWindows.ofSizeAndGrace`, `.advanceBy`', 'Scala 2.13'],
        'Files and Code Sections': [
            '`%s/src/main/scala/fraude/Topology.scala`: stream of `Transacao` from `transactions`' % FS,
            '`%s/src/main/scala/fraude/Serdes.scala`: an unfinished `Serde[Transacao]` (lines 3–5)' % FS,
        ],
        'Problem Solving': 'Hopping windows emit one count per window; suppress until the window closes to avoid duplicate alerts.',
        'Pending Tasks': ['Windowed count', 'Alert producer', 'Serdes', 'Tests'],
        'Current Work': 'About to implement the windowed count.',
        'Optional Next Step': 'Implement `VelocityRule.scala`.',
    }))
    c.tool('Read', {'file_path': '%s/src/main/resources/application.conf' % FS}, numbered(
        'fraude {\n  bootstrap-servers = "kafka-01.fraude.internal:9093"\n  schema-registry-url = "http://schema-registry.fraude.internal:8081"\n'
        '  application-id = "fraude-velocity"\n}'), text="Reading the config.", anchor='R1')
    c.tool('Write', {'file_path': '%s/src/main/scala/fraude/VelocityRule.scala' % FS, 'content':
                     'object VelocityRule {\n  implicit val transacaoSerde: Serde[Transacao] = Serdes.fromFn[Transacao](\n'
                     '    (t: Transacao) => Json.toBytes(Json.toJson(t)),\n    (b: Array[Byte]) => Json.parse(b).asOpt[Transacao])\n\n'
                     '  def apply(tx: KStream[String, Transacao]): KStream[String, Alerta] =\n    tx.groupByKey\n'
                     '      .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofSeconds(60), Duration.ofMinutes(5)).advanceBy(Duration.ofSeconds(10)))\n'
                     '      .count()(Materialized.as("velocity-store"))\n      .toStream\n      .filter((_, n) => n > 5)\n'
                     '      .map((w, n) => (w.key, Alerta(w.key, n)))\n}\n'},
           created('%s/src/main/scala/fraude/VelocityRule.scala' % FS), text="Writing the rule with a play-json serde inline.")
    c.user('U1', 'lembra: testa com o TopologyTestDriver, nada de Kafka real nos testes', after=dict(repeat_of='T10', mode='paraphrase'))
    c.say("Combinado. Next: `VelocityRuleSpec` on the `TopologyTestDriver` with six transactions inside a minute.")
    return c.write({'situations': ['Portuguese request restated in English (5 -> five, 60 segundos -> one minute)', 'English rule paraphrased, negation moved (must never leave -> stays inside)',
                                   'broker fact kept', 'Portuguese window rule with an empty-todo system-reminder after it, negation moved (não tumbling -> ruled out)',
                                   'Portuguese partial: RocksDB store kept, 30-second grace dropped; the assistant sets a five-minute grace after the boundary',
                                   'wrapper:ide_selection serde rule silently dropped; the assistant writes a new play-json serde after the boundary',
                                   'e-mail fact lost', 'Portuguese test rule omitted, paraphrased in Portuguese by the user after the boundary',
                                   'schema-registry fact omitted, in application.conf read after the boundary',
                                   'short style: every chatter turn lost (valeu!, kkkkk, 🙌)']})


# --------------------------------------------------------------------------------------------
def u10():
    c = Case('u10-ocha-shopify-teiki', 'shopify', '2.1', seed=7510, pre_tokens=147760, start='2026-03-16T15:25:00', version='2.1.97')
    t1 = '商品ページに定期便の選択を追加してください。30日・60日・90日ごとから選べるように'
    c.user('T1', t1, lab('instruction', 'subscription option on the product page: every 30, 60 or 90 days', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:ja', 'translated', 'numbers-as-words'],
                         S('a subscription option on the product page, delivering every thirty, sixty or ninety days'),
                         values=[{'value': '30日・60日・90日', 'status': 'in_summary', 'found_as': 'every thirty, sixty or ninety days'}]))
    c.tools([('Read', {'file_path': '%s/sections/main-product.liquid' % OC}, numbered(
        '<section class="product">\n  {% form \'product\', product %}\n    <input type="hidden" name="id" value="{{ product.selected_or_first_available_variant.id }}">\n'
        '    <button type="submit">{{ \'products.product.add_to_cart\' | t }}</button>\n  {% endform %}\n</section>')),
        ('Glob', {'pattern': 'assets/*.js'}, '%s/assets/product-form.js\n%s/assets/global.js' % (OC, OC))],
        text="商品セクションを確認します。")
    f2 = 'ストアは ocha-yui.myshopify.com です'
    c.user('F2', f2, lab('user_fact', 'store ocha-yui.myshopify.com', f2, 'in_summary', 'form:ocha-yui.myshopify.com', ['fact', 'hostname', 'language:ja'],
                         S('`ocha-yui.myshopify.com`'), values=[{'value': 'ocha-yui.myshopify.com', 'status': 'in_summary', 'found_as': 'ocha-yui.myshopify.com'}]))
    t3 = 'no jQuery. the theme is vanilla JS with web components'
    c.user('T3', t3, lab('instruction', 'no jQuery; vanilla JS with web components', t3, 'in_summary', 'paraphrase', ['form:paraphrase', 'negation-moved'],
                         S('Theme scripts stay vanilla JavaScript built on custom elements; jQuery is not brought in')))
    chat(c, 'C4', 'ありがとう！', 'Thanked the assistant (in Japanese)', 'paraphrase', ['chatter', 'language:ja'])
    t5 = '間隔の選択肢はセクションの schema に入れて、マーチャントがテーマエディタで変えられるようにして'
    c.user('T5', [ide_opened('%s/sections/main-product.liquid' % OC), text(t5)],
           lab('instruction', 'interval options in the section schema so the merchant can edit them in the theme editor', t5, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_opened_file', 'language:ja', 'translated'],
               S('The interval choices are settings in the section schema, so the merchant can change them from the theme editor'),
               wrapper='ide_opened_file'))
    t6 = 'prices through the money filter, and under the subscription price show the price per cup (assume 3 g per cup)'
    c.user('T6', t6, lab('instruction', 'prices via the money filter; show per-cup price (3 g per cup) under the subscription price', t6, 'lost', 'partial',
                         ['form:partial', 'partial', 'after:assistant-topic'], partial=True, lost_part='price per cup (3 g per cup) under the subscription price',
                         distinct=['per cup', 'per-cup', '3 g', 'cup', '杯']))
    chat(c, 'C7', 'すごい✨', tags=['chatter', 'language:ja', 'emoji'])
    t8 = '画像は必ず image_url と image_tag で width を指定して、lazy loading もつけてください'
    c.user('T8', t8, lab('instruction', 'images via image_url + image_tag with width, lazy loading', t8, 'lost', 'omitted',
                         ['form:omitted', 'summary:mentions-without-content', 'language:ja', 'after:assistant-topic'],
                         distinct=['image_tag', 'image_url', 'lazy', 'width', 'srcset']))
    f9 = '新茶の発売は5月1日です'
    c.user('F9', f9, lab('user_fact', 'new-season tea launches 1 May', f9, 'in_summary', 'form:1 May', ['fact', 'date', 'language:ja'],
                         S('the new-season tea launches on 1 May'), values=[{'value': '5月1日', 'status': 'in_summary', 'found_as': '1 May'}]))
    t10 = 'テキストはすべて locales/ja.json に入れて、ハードコードしないで'
    c.user('T10', t10, lab('instruction', 'all text in locales/ja.json, nothing hardcoded', t10, 'repeated_later', 'omitted',
                           ['form:omitted', 'language:ja', 'repeat:in_tool_result'],
                           A('R1', 'All storefront text lives in `locales/ja.json`'), repeated_after=['in_tool_result']))
    f11 = 'アプリは Seal Subscriptions で、プランIDは 884120'
    c.user('F11', f11, lab('user_fact', 'subscription app Seal Subscriptions, plan id 884120', f11, 'lost', 'omitted', ['fact', 'language:ja'],
                           distinct=['seal', '884120'],
                           values=[{'value': 'Seal Subscriptions', 'status': 'lost', 'found_as': None},
                                   {'value': '884120', 'status': 'lost', 'found_as': None}]))
    t12 = 'run theme check and fix every error before you push anything'
    c.user('T12', t12, lab('instruction', 'run theme check and fix every error before pushing', t12, 'in_summary', 'verbatim', ['form:verbatim'],
                           S('"run theme check and fix every error before you push anything"')))
    chat(c, 'C13', 'よろしく🙏', '"よろしく🙏"', tags=['chatter', 'language:ja', 'emoji'])
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Add a subscription option on the product page, delivering every thirty, sixty or ninety days',
            'Theme scripts stay vanilla JavaScript built on custom elements; jQuery is not brought in',
            'The interval choices are settings in the section schema, so the merchant can change them from the theme editor',
            'Prices are rendered with the `money` filter',
            '"run theme check and fix every error before you push anything"',
        ],
        'Key Technical Concepts': ['Shopify Online Store 2.0 theme, store `ocha-yui.myshopify.com`', 'Selling plans (`product.selling_plan_groups`)',
                                   'Launch date: the new-season tea launches on 1 May'],
        'Files and Code Sections': [
            '`%s/sections/main-product.liquid`: product form' % OC,
            '`%s/assets/product-form.js`: custom element for the form' % OC,
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'The chosen selling plan is sent as `selling_plan` with the form.',
        'All user messages': [
            'Asked (in Japanese) for a subscription choice on the product page: every thirty, sixty or ninety days',
            'Gave the store domain `ocha-yui.myshopify.com`',
            'No jQuery, vanilla JS with web components',
            'Thanked the assistant (in Japanese)',
            'With `main-product.liquid` open: interval options in the section schema so the merchant can edit them (in Japanese)',
            'Prices with the money filter',
            'Gave instructions about product images (in Japanese)',
            'The new-season tea launches on 1 May',
            'Named the subscription app (in Japanese)',
            '"run theme check and fix every error before you push anything"',
            '"よろしく🙏"',
        ],
        'Pending Tasks': ['Interval selector block', 'Schema settings', 'JS to pass `selling_plan`', 'theme check'],
        'Current Work': 'About to add the selector to `main-product.liquid`.',
        'Optional Next Step': 'Write the snippet `snippets/teiki-selector.liquid`.',
    }))
    c.tool('Read', {'file_path': '%s/docs/theme-guidelines.md' % OC}, numbered(
        '# Theme guidelines\n\n- All storefront text lives in `locales/ja.json`; no hardcoded strings in Liquid.\n- Run `shopify theme check` before every push.'),
        text="テーマのガイドラインを確認します。", anchor='R1')
    c.tool('Write', {'file_path': '%s/snippets/teiki-selector.liquid' % OC, 'content':
                     '<teiki-selector>\n  <img src="{{ product.featured_image | img_url: \'master\' }}" alt="{{ product.title }}">\n'
                     '  {% for plan in product.selling_plan_groups.first.selling_plans %}\n'
                     '    <label><input type="radio" name="selling_plan" value="{{ plan.id }}"> {{ plan.name }}</label>\n  {% endfor %}\n'
                     '  <p class="price">{{ product.price | money }}</p>\n</teiki-selector>\n'},
           created('%s/snippets/teiki-selector.liquid' % OC))
    c.say("The selector snippet renders the plans and the price. Next: the schema settings and the `teiki-selector` custom element.")
    return c.write({'situations': ['Japanese request restated in English (30日・60日・90日 -> every thirty, sixty or ninety days)', 'store hostname fact kept',
                                   'English rule paraphrased, negation moved (no jQuery -> not brought in)', 'Japanese thanks described',
                                   'wrapper:ide_opened_file Japanese request restated',
                                   'partial: money filter kept, per-cup price dropped; the assistant shows only the price after the boundary',
                                   'Japanese emoji chatter not listed (lost)', 'Japanese image rule lost ("Gave instructions about product images"); the assistant uses img_url master without size after the boundary',
                                   'date fact (5月1日 -> 1 May)', 'Japanese text-location rule omitted, recorded in docs/theme-guidelines.md read after the boundary',
                                   'app/plan fact lost ("Named the subscription app")', 'instruction quoted verbatim', 'Japanese chatter quoted'],
                    'notes': 'Unsure: F11 — the list says the app was named, without its name or the plan id; labelled lost.'})


# --------------------------------------------------------------------------------------------
def u11():
    c = Case('u11-opoznienia-deno-bot', 'deno', '2.0', seed=7511, pre_tokens=155318, start='2026-02-09T20:15:00')
    t1 = ('Bot ma co 5 minut pobierać opóźnienia pociągów z API przewoźnika i wrzucać na Mastodona posty o opóźnieniach '
          'powyżej 20 minut')
    c.user('T1', t1, lab('instruction', 'every 5 min fetch train delays from the carrier API; post delays over 20 min to Mastodon', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:pl', 'translated', 'numbers-as-words'],
                         S('every five minutes, fetches train delays from the carrier API and posts to Mastodon about any delay longer than twenty minutes'),
                         values=[{'value': '5 minut', 'status': 'in_summary', 'found_as': 'every five minutes'},
                                 {'value': '20 minut', 'status': 'in_summary', 'found_as': 'twenty minutes'}]))
    c.tools([('Read', {'file_path': '%s/main.ts' % OP}, numbered(
        'import { fetchDelays } from "./carrier.ts";\n\nDeno.cron("poll", "*/5 * * * *", async () => {\n  const delays = await fetchDelays();\n'
        '  console.log(delays.length);\n});')),
        ('Read', {'file_path': '%s/deno.json' % OP}, numbered('{\n  "tasks": { "dev": "deno run --watch main.ts" },\n  "imports": {}\n}'))],
        text="Czytam main.ts.")
    f2 = 'konto bota: @opoznienia@mastodon.social'
    c.user('F2', f2, lab('user_fact', 'bot account @opoznienia@mastodon.social', f2, 'in_summary', 'form:@opoznienia@mastodon.social', ['fact', 'language:pl'],
                         S('`@opoznienia@mastodon.social`'),
                         values=[{'value': '@opoznienia@mastodon.social', 'status': 'in_summary', 'found_as': '@opoznienia@mastodon.social'}]))
    t3 = 'deno only, no npm packages. std and jsr imports are fine'
    c.user('T3', t3, lab('instruction', 'Deno only: no npm packages; std and JSR imports allowed', t3, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved'],
                         S('Dependencies are limited to the Deno standard library and JSR modules; npm packages are excluded')))
    chat(c, 'C4', 'dzięki!', tags=['chatter', 'language:pl'])
    t5 = 'nie postuj tego samego opóźnienia dwa razy, chyba że wzrośnie o co najmniej 10 minut'
    c.user('T5', t5, lab('instruction', 'never post the same delay twice unless it grew by at least 10 min', t5, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:pl', 'translated', 'negation-moved', 'numbers-as-words'],
                         S('A train already posted is posted again only when its delay has grown by ten minutes or more'),
                         values=[{'value': '10 minut', 'status': 'in_summary', 'found_as': 'ten minutes'}]))
    c.local_command('model', 'Set model to sonnet (claude-sonnet-4-5-20250929)')
    t6 = 'token only via Deno.env, and run it with the narrowest --allow-net list, just the two hosts'
    c.user('T6', [ide_selection('%s/mastodon.ts' % OP, 4, 4, 'const TOKEN = "PASTE-TOKEN-HERE";'), text(t6)],
           lab('instruction', 'token via Deno.env; narrowest --allow-net (only the two hosts)', t6, 'lost', 'partial',
               ['form:partial', 'partial', 'wrapper:ide_selection', 'after:assistant-topic'], partial=True, wrapper='ide_selection',
               lost_part='run with the narrowest --allow-net list (only the two hosts)',
               distinct=['allow-net', 'narrow', 'two hosts', '--allow', 'permission']))
    c.tool('Edit', {'file_path': '%s/mastodon.ts' % OP, 'old_string': 'const TOKEN = "PASTE-TOKEN-HERE";', 'new_string': 'const TOKEN = Deno.env.get("MASTO_TOKEN")!;'},
           edited('%s/mastodon.ts' % OP, 'const TOKEN = Deno.env.get("MASTO_TOKEN")!;', 4))
    chat(c, 'C7', 'sztos 🔥', 'Fire emoji reaction (in Polish)', 'paraphrase', ['chatter', 'language:pl', 'emoji', 'slang'])
    t8 = 'posty po polsku, bez emoji, maks. 400 znaków'
    c.user('T8', t8, lab('instruction', 'posts in Polish, no emoji, at most 400 characters', t8, 'lost', 'omitted',
                         ['form:omitted', 'language:pl', 'after:assistant-topic'],
                         distinct=['400', 'znaków', 'characters', 'bez emoji', 'po polsku', 'no emoji']))
    f9 = 'API przewoźnika: https://api.kolej.example/v1/delays'
    c.user('F9', f9, lab('user_fact', 'carrier API https://api.kolej.example/v1/delays', f9, 'in_summary', 'form:https://api.kolej.example/v1/delays',
                         ['fact', 'language:pl'], S('`https://api.kolej.example/v1/delays`'),
                         values=[{'value': 'https://api.kolej.example/v1/delays', 'status': 'in_summary', 'found_as': 'https://api.kolej.example/v1/delays'}]))
    t10 = 'keep the posted-delays state in Deno KV, not in a json file'
    c.user('T10', t10, lab('instruction', 'posted-delays state in Deno KV, not a JSON file', t10, 'repeated_later', 'omitted', ['form:omitted', 'repeat:verbatim'],
                           A('U1', 'keep the posted-delays state in Deno KV, not in a json file'), repeated_after=['verbatim']))
    f11 = 'serwer to ola-vps.kolej.example, odpalam to jako usługę systemd'
    c.user('F11', f11, lab('user_fact', 'server ola-vps.kolej.example, runs as a systemd service', f11, 'lost', 'omitted', ['fact', 'hostname', 'language:pl'],
                           distinct=['ola-vps', 'systemd', 'serwer'],
                           values=[{'value': 'ola-vps.kolej.example', 'status': 'lost', 'found_as': None}]))
    chat(c, 'C12', 'spoko, lecimy', '"spoko, lecimy"', tags=['chatter', 'language:pl', 'slang'])
    c.compact(summary_20(
        """Chronological review:

1. The user (in Polish) asked for a bot that polls train delays and posts long ones to Mastodon.
2. I read `main.ts` and `deno.json`; the user gave the bot account and limited the dependencies.
3. The user set the rule against reposting (in Polish). The user switched the model with `/model`.
4. With the hardcoded token selected, the user asked for it to come from the environment; I edited `mastodon.ts`.
5. The user reacted ("sztos 🔥"), gave the carrier API URL and the hosting details, and said "spoko, lecimy".""",
        {
            'Primary Request and Intent': [
                'A bot that, every five minutes, fetches train delays from the carrier API and posts to Mastodon about any delay longer than twenty minutes',
                'Dependencies are limited to the Deno standard library and JSR modules; npm packages are excluded',
                'A train already posted is posted again only when its delay has grown by ten minutes or more',
                'The Mastodon token is read with `Deno.env.get`',
            ],
            'Key Technical Concepts': ['Deno 2, `Deno.cron`', 'Mastodon statuses API, bot account `@opoznienia@mastodon.social`',
                                       'Carrier API `https://api.kolej.example/v1/delays`'],
            'Files and Code Sections': [
                '`%s/main.ts`: cron every 5 minutes calling `fetchDelays()`' % OP,
                '`%s/mastodon.ts`: token now from `Deno.env.get("MASTO_TOKEN")` (line 4)' % OP,
            ],
            'Errors and fixes': ['None.'],
            'Problem Solving': 'A delay is identified by train number and scheduled departure date.',
            'All user messages': [
                'Asked (in Polish) for a bot polling delays every five minutes and posting those over twenty minutes',
                'Bot account `@opoznienia@mastodon.social`',
                'Deno only, no npm; std and JSR are fine',
                'Do not post the same delay twice unless it grows by ten minutes or more (in Polish)',
                'With the hardcoded token selected: token through `Deno.env`',
                'Fire emoji reaction (in Polish)',
                'Gave the carrier API URL',
                'Described where the bot is hosted (in Polish)',
                '"spoko, lecimy"',
            ],
            'Pending Tasks': ['Dedup logic', 'Post formatting', 'Deployment'],
            'Current Work': 'Token handling done; dedup next.',
            'Optional Next Step': 'Write `dedup.ts`.',
        }))
    c.tool('Write', {'file_path': '%s/dedup.ts' % OP, 'content':
                     'const STATE = "./posted.json";\n\nexport async function shouldPost(id: string, delay: number): Promise<boolean> {\n'
                     '  const seen = JSON.parse(await Deno.readTextFile(STATE).catch(() => "{}"));\n  const prev = seen[id];\n'
                     '  if (prev !== undefined && delay - prev < 10) return false;\n  seen[id] = delay;\n  await Deno.writeTextFile(STATE, JSON.stringify(seen));\n  return true;\n}\n'},
           created('%s/dedup.ts' % OP), text="Writing the dedup check, remembering the last posted delay per train.")
    c.user('U1', 'keep the posted-delays state in Deno KV, not in a json file', after=dict(repeat_of='T10', mode='verbatim'))
    c.tool('Write', {'file_path': '%s/format.ts' % OP, 'content':
                     'export function formatPost(d: Delay): string {\n  return `🚆 Train ${d.train} ${d.from} → ${d.to} is running ${d.minutes} min late (scheduled ${d.dep}).`;\n}\n'},
           created('%s/format.ts' % OP), text="Will switch dedup to `Deno.openKv()`. Meanwhile the post formatter.")
    c.tool('Bash', {'command': 'deno run -A --unstable-kv main.ts --once', 'description': 'Run one poll locally'},
           'polled 212 trains, 3 over threshold\nposted: IC 3510, TLK 18107, R 90422', text="One local poll to check the whole flow.")
    c.say("One poll posted three delays. Next: move the dedup state to Deno KV as asked.")
    return c.write({'situations': ['Polish request restated in English (5 minut -> every five minutes, 20 minut -> twenty minutes)', 'account fact kept verbatim',
                                   'English rule paraphrased, negation moved (no npm -> excluded)', 'Polish chatter not listed (lost)',
                                   'Polish rule restated, negation moved (nie postuj ... dwa razy -> posted again only when)',
                                   'local /model command (caveat isMeta, command and output records skipped)',
                                   'wrapper:ide_selection partial: Deno.env kept, narrow --allow-net dropped; the assistant runs with -A after the boundary',
                                   'Polish slang + emoji described', 'Polish post-format rule silently dropped; the assistant writes English posts with an emoji',
                                   'URL fact kept', 'Deno KV rule omitted, repeated verbatim by the user after the boundary', 'server fact lost ("Described where the bot is hosted")',
                                   'Polish slang chatter quoted']})


# --------------------------------------------------------------------------------------------
def u12():
    c = Case('u12-lantern-fabric-channels', 'fabric', '2.1', seed=7512, pre_tokens=169904, start='2026-05-18T21:50:00')
    t1 = '加一个无线红石灯笼：用遥控器把多个灯笼绑定到同一个频道，同一频道的灯笼一起开关'
    c.user('T1', t1, lab('instruction', 'wireless redstone lantern: remote binds lanterns to a channel; lanterns on a channel switch together', t1,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'language:zh', 'translated'],
                         S('a wireless redstone lantern: a remote item links several lanterns to one channel, and every lantern on that channel turns on and off together')))
    c.tools([('Read', {'file_path': '%s/src/main/java/dev/wei/lantern/LanternMod.java' % LL}, numbered(
        'public class LanternMod implements ModInitializer {\n    public static final String MOD_ID = "lantern";\n\n'
        '    @Override\n    public void onInitialize() {\n        ModBlocks.register();\n    }\n}')),
        ('Read', {'file_path': '%s/gradle.properties' % LL}, numbered('minecraft_version=1.21.1\nloader_version=0.16.5\nmod_version=0.4.0'))],
        text="先看一下模组入口。")
    f2 = 'Minecraft 1.21.1，Fabric Loader 0.16.5'
    c.user('F2', f2, lab('user_fact', 'Minecraft 1.21.1, Fabric Loader 0.16.5', f2, 'in_summary', 'form:Minecraft 1.21.1 / Fabric Loader 0.16.5', ['fact', 'language:zh'],
                         S('Minecraft 1.21.1 with Fabric Loader 0.16.5'),
                         values=[{'value': '1.21.1', 'status': 'in_summary', 'found_as': 'Minecraft 1.21.1'},
                                 {'value': '0.16.5', 'status': 'in_summary', 'found_as': 'Fabric Loader 0.16.5'}]))
    t3 = 'channel state lives in a PersistentState per world, not in static fields'
    c.user('T3', t3, lab('instruction', 'channel state in a per-world PersistentState, not static fields', t3, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved'],
                         S('Channel state is saved per world in a `PersistentState`; static fields are to be avoided for it')))
    chat(c, 'C4', '谢谢！', 'Thanked the assistant (in Chinese)', 'paraphrase', ['chatter', 'language:zh'])
    t5 = '频道最多 64 个，而且不同维度之间不能联动'
    c.user('T5', t5, lab('instruction', 'at most 64 channels; no linking across dimensions', t5, 'lost', 'partial',
                         ['form:partial', 'partial', 'language:zh', 'after:assistant-topic'], partial=True, lost_part='no linking across dimensions',
                         distinct=['dimension', '维度', 'nether', 'cross-dim', 'registrykey<world>']))
    sel = '@Mixin(LanternBlock.class)\npublic abstract class LanternBlockMixin {\n    @Inject(method = "onUse", at = @At("HEAD"), cancellable = true)'
    t6 = 'no mixins for this, use the fabric api events (UseBlockCallback)'
    c.user('T6', [ide_selection('%s/src/main/java/dev/wei/lantern/mixin/LanternBlockMixin.java' % LL, 8, 10, sel), text(t6)],
           lab('instruction', 'no mixins; use Fabric API events (UseBlockCallback)', t6, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_selection', 'negation-moved'],
               S('Right-clicks are handled through the Fabric API `UseBlockCallback` event instead of a mixin'), wrapper='ide_selection'))
    c.tool('Bash', {'command': 'git rm -q src/main/java/dev/wei/lantern/mixin/LanternBlockMixin.java && echo removed', 'description': 'Drop the mixin'},
           'removed', text="Removing the mixin.")
    chat(c, 'C7', 'nice one 👌', tags=['chatter', 'emoji', 'slang'])
    t8 = '所有显示给玩家的文字都用翻译键，en_us.json 和 zh_cn.json 都要加'
    c.user('T8', t8, lab('instruction', 'all player-facing text via translation keys, in both en_us.json and zh_cn.json', t8, 'lost', 'omitted',
                         ['form:omitted', 'summary:mentions-without-content', 'language:zh', 'after:assistant-topic'],
                         distinct=['en_us', 'zh_cn', 'translation key', '翻译键', 'translatable']))
    f9 = 'CurseForge 项目 ID 是 1093377'
    c.user('F9', f9, lab('user_fact', 'CurseForge project id 1093377', f9, 'repeated_later', 'omitted', ['fact', 'language:zh', 'repeat:in_tool_result'],
                         A('R1', 'curseforge_project_id=1093377'),
                         values=[{'value': '1093377', 'status': 'repeated_later', 'found_as': '1093377'}]))
    t10 = '提交之前先跑 ./gradlew runGametest'
    c.user('T10', t10, lab('instruction', 'run ./gradlew runGametest before committing', t10, 'repeated_later', 'omitted',
                           ['form:omitted', 'language:zh', 'repeat:paraphrase'],
                           A('U1', 'before you commit, run ./gradlew runGametest'), repeated_after=['paraphrase']))
    t11 = '[Image #1] the remote texture is 16x16 like this one, put it at assets/lantern/textures/item/remote.png'
    c.user('T11', [image((200, 170, 60)), text(t11)],
           lab('instruction', 'remote texture 16x16 (image) at assets/lantern/textures/item/remote.png', t11, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'image', 'numeric'],
               S('The remote uses the 16×16 texture the user attached, stored as `assets/lantern/textures/item/remote.png`'),
               values=[{'value': '16x16', 'status': 'in_summary', 'found_as': '16×16'}]))
    chat(c, 'C12', 'lgtm 🚀', '"lgtm 🚀"', tags=['chatter', 'emoji', 'slang'])
    f13 = 'bug 报告发到 wei.lantern@proton.me'
    c.user('F13', f13, lab('user_fact', 'bug reports to wei.lantern@proton.me', f13, 'lost', 'omitted', ['fact', 'email', 'language:zh'],
                           distinct=['proton', 'wei.lantern'],
                           values=[{'value': 'wei.lantern@proton.me', 'status': 'lost', 'found_as': None}]))
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Add a wireless redstone lantern: a remote item links several lanterns to one channel, and every lantern on that channel turns on and off together',
            'Channel state is saved per world in a `PersistentState`; static fields are to be avoided for it',
            'There are at most sixty-four channels',
            'Right-clicks are handled through the Fabric API `UseBlockCallback` event instead of a mixin',
            'The remote uses the 16×16 texture the user attached, stored as `assets/lantern/textures/item/remote.png`',
        ],
        'Key Technical Concepts': ['Minecraft 1.21.1 with Fabric Loader 0.16.5', '`PersistentState` via `getPersistentStateManager().getOrCreate`', 'Data components on the remote item for the bound channel'],
        'Files and Code Sections': [
            '`%s/src/main/java/dev/wei/lantern/LanternMod.java`: mod initializer' % LL,
            '`src/main/java/dev/wei/lantern/mixin/LanternBlockMixin.java`: removed',
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'Lanterns register themselves in the channel state when placed and leave it when broken.',
        'All user messages': [
            'Asked (in Chinese) for a wireless redstone lantern with channels set by a remote',
            'Minecraft 1.21.1, Fabric Loader 0.16.5',
            'Channel state in a per-world `PersistentState`, not static fields',
            'Thanked the assistant (in Chinese)',
            'Limit of sixty-four channels (in Chinese)',
            'With the mixin selected: no mixins, use the Fabric API `UseBlockCallback`',
            'Asked about localisation of the texts (in Chinese)',
            'Attached the 16×16 remote texture and gave its path',
            '"lgtm 🚀"',
        ],
        'Pending Tasks': ['`ChannelState` persistent state', 'Remote item', 'Use-block handler', 'Texture and model'],
        'Current Work': 'Mixin removed; `ChannelState` next.',
        'Optional Next Step': 'Write `ChannelState.java`.',
    }))
    c.tool('Read', {'file_path': '%s/gradle.properties' % LL}, numbered(
        'minecraft_version=1.21.1\nloader_version=0.16.5\nmod_version=0.4.0\ncurseforge_project_id=1093377'),
        text="Checking the build properties before bumping the version.", anchor='R1')
    c.tool('Write', {'file_path': '%s/src/main/java/dev/wei/lantern/ChannelState.java' % LL, 'content':
                     'public class ChannelState extends PersistentState {\n    public static final int MAX_CHANNELS = 64;\n'
                     '    private final Map<Integer, Set<BlockPos>> channels = new HashMap<>();\n\n'
                     '    public void toggle(ServerWorld world, int channel, boolean on) {\n'
                     '        for (BlockPos p : channels.getOrDefault(channel, Set.of())) {\n'
                     '            world.getServer().getWorlds().forEach(w -> { if (w.getBlockState(p).isOf(ModBlocks.WIRELESS_LANTERN)) w.setBlockState(p, w.getBlockState(p).with(LIT, on)); });\n'
                     '        }\n        player.sendMessage(Text.literal("Channel " + channel + " switched"), true);\n        markDirty();\n    }\n}\n'},
           created('%s/src/main/java/dev/wei/lantern/ChannelState.java' % LL), text="Writing the channel state; toggling walks every loaded world so linked lanterns always react.")
    c.user('U1', 'before you commit, run ./gradlew runGametest pls', after=dict(repeat_of='T10', mode='paraphrase'))
    c.tool('Bash', {'command': './gradlew runGametest -q 2>&1 | tail -2', 'description': 'Run the game tests'},
           'All 6 required tests passed :)\nBUILD SUCCESSFUL in 48s', text="Running the game tests first.")
    c.say("Game tests pass. Next: the remote item that stores its channel in a data component.")
    return c.write({'situations': ['Chinese request restated in English', 'version fact kept', 'English rule paraphrased, negation moved (not in static fields -> to be avoided)',
                                   'Chinese thanks described', 'Chinese partial: 64-channel limit kept, no cross-dimension linking dropped; the assistant toggles across every world after the boundary',
                                   'wrapper:ide_selection request paraphrased, negation moved', 'slang chatter with emoji not listed (lost)',
                                   'Chinese localisation rule lost ("Asked about localisation of the texts"); the assistant uses Text.literal after the boundary',
                                   'CurseForge id fact omitted, printed in gradle.properties read after the boundary',
                                   'Chinese gametest rule omitted, paraphrased in English by the user after the boundary',
                                   'image request paraphrased (16x16 -> 16×16)', 'slang chatter quoted', 'e-mail fact lost'],
                    'notes': 'Unsure: T8 — "Asked about localisation of the texts" names the topic only, so lost; the summary list also misdescribes it as a question.'})


CASES = [u07, u08, u09, u10, u11, u12]
