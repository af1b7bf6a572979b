"""s01-s06. Every label below is the labeller's judgement, written by hand. Every turn, tool call,
tool result and summary here was written for this set."""
from builder import (Case, lab, S, A, ide_opened, ide_selection, reminder_modified, reminder_todo_empty, text, image, numbered,
                     edited, created, TODO_OK, todos, command, summary_20, summary_21, summary_short)

RI = '/Users/bia/dev/ritmo'
SB = '/home/jonas/code/stromblick'
EM = '/home/rafael/src/ember'
GI = '/home/giulia/ricerca/mediterraneo-sst'
BA = '/Users/sanne/sites/bieb/wp-content/plugins/bieb-agenda'
KE = '/home/mira/hs/kestrel'


# --------------------------------------------------------------------------------------------
def s01():
    c = Case('s01-ritmo-flutter-streaks', 'flutter', '2.1', seed=6401, pre_tokens=163904, start='2026-01-12T09:40:00')
    t1 = ('[Image #1] preciso da tela de streaks igual a esse mockup: sequência atual e maior sequência de cada hábito, e embaixo '
          'um heatmap das últimas 12 semanas tipo o do github')
    c.user('T1', [image((110, 190, 120)), text(t1)],
           lab('instruction', 'streaks screen per mockup: current + longest streak per habit, GitHub-style heatmap of the last 12 weeks', t1,
               'in_summary', 'paraphrase', ['form:paraphrase', 'image', 'language:pt', 'translated', 'numbers-as-words'],
               S('for every habit, its current run and its longest run, and underneath a GitHub-style contribution heatmap of the last twelve weeks'),
               values=[{'value': '12 semanas', 'status': 'in_summary', 'found_as': 'twelve weeks'}]))
    c.tools([('Read', {'file_path': '%s/lib/features/habits/habit.dart' % RI}, numbered(
        "import 'package:isar/isar.dart';\n\npart 'habit.g.dart';\n\n@collection\nclass Habit {\n  Id id = Isar.autoIncrement;\n"
        "  late String name;\n  int targetPerWeek = 7;\n  List<DateTime> checkIns = [];\n}")),
        ('Glob', {'pattern': 'lib/features/**/*.dart'}, '%s/lib/features/habits/habit.dart\n%s/lib/features/habits/habit_list_screen.dart\n'
                                                         '%s/lib/features/habits/habit_providers.dart' % (RI, RI, RI))],
        text="Vou olhar o modelo de hábito e as telas que já existem.")
    c.say("The `Habit` model stores `checkIns` as a list of dates and a `targetPerWeek`. Which local database version are we on? I see Isar annotations.")
    f2 = 'o banco local é o Isar, schema na versão 7'
    c.user('F2', f2, lab('user_fact', 'local DB is Isar, schema version 7', f2, 'in_summary', 'form:schema v7', ['fact', 'language:pt'],
                         S('Isar local database (schema v7)'),
                         values=[{'value': 'versão 7', 'status': 'in_summary', 'found_as': 'schema v7'}]))
    c.say("Thanks. I'll put the streak logic in a pure function so it can be tested without Isar.")
    t3 = 'se o hábito é tipo 3x por semana a sequência não pode quebrar num dia sem check-in, conta por semana nesses casos'
    c.user('T3', [ide_opened('%s/lib/features/streaks/streak_calculator.dart' % RI), text(t3)],
           lab('instruction', 'weekly-target habits (e.g. 3x/week): streak counted per week, a day without check-in does not break it', t3,
               'in_summary', 'paraphrase', ['form:paraphrase', 'wrapper:ide_opened_file', 'language:pt', 'translated', 'numbers-as-words'],
               S('Habits with a weekly target (e.g. three times a week) count their streak in weeks, so a day without a check-in does not break it'),
               wrapper='ide_opened_file',
               values=[{'value': '3x por semana', 'status': 'in_summary', 'found_as': 'three times a week'}]))
    c.tool('Write', {'file_path': '%s/lib/features/streaks/streak_calculator.dart' % RI, 'content':
                     "class StreakResult {\n  const StreakResult(this.current, this.longest, this.unit);\n  final int current;\n  final int longest;\n"
                     "  final StreakUnit unit;\n}\n\nenum StreakUnit { days, weeks }\n\n"
                     "StreakResult computeStreak(List<DateTime> checkIns, int targetPerWeek, DateTime today) {\n"
                     "  if (targetPerWeek < 7) {\n    return _weeklyStreak(checkIns, targetPerWeek, today);\n  }\n"
                     "  return _dailyStreak(checkIns, today);\n}\n"},
           created('%s/lib/features/streaks/streak_calculator.dart' % RI),
           text="Writing `computeStreak`: daily habits count consecutive days, habits with a target below 7 count consecutive weeks that reached the target.")
    c.user('C4', 'show de bola 👏', lab('chatter', 'chatter: show de bola 👏', 'show de bola 👏', 'in_summary', 'verbatim',
                                       ['chatter', 'language:pt'], S('"show de bola 👏"')))
    t5 = ('dark mode tem que funcionar direitinho. and all user-facing strings through l10n (the .arb files in lib/l10n), nada de '
          'string hardcoded no widget')
    c.user('T5', t5, lab('instruction', 'dark mode must work; all user-facing strings via l10n .arb files in lib/l10n, none hardcoded in widgets', t5,
                         'lost', 'partial', ['form:partial', 'partial', 'language:mixed', 'after:assistant-topic'], partial=True,
                         lost_part='all user-facing strings through the l10n .arb files (lib/l10n), no hardcoded strings in widgets',
                         distinct=['l10n', '.arb', 'hardcoded', 'AppLocalizations', 'localiz', 'user-facing strings']))
    c.say("Combinado. I'll take all colours from `Theme.of(context).colorScheme` so both themes work.")
    t6 = 'no heatmap a semana começa na segunda, não no domingo'
    c.user('T6', t6, lab('instruction', 'heatmap weeks start on Monday, not Sunday', t6, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:pt', 'translated', 'negation-moved'],
                         S('Heatmap columns run Monday to Sunday')))
    c.say("Ok, `DateTime.monday` as the first row of each column.")
    c.user('C7', 'valeu', lab('chatter', 'chatter: valeu', 'valeu', 'lost', 'omitted', ['chatter', 'language:pt']))
    t8 = 'não mexe no pubspec.yaml sem me perguntar antes, o CI trava as versões'
    c.user('T8', t8, lab('instruction', 'do not change pubspec.yaml without asking first (CI pins the versions)', t8, 'repeated_later', 'omitted',
                         ['form:omitted', 'language:pt', 'repeat:paraphrase'],
                         A('U1', 'nada de mudar o pubspec.yaml sem falar comigo'), repeated_after=['paraphrase']))
    c.say("Entendido.")
    f9 = 'pra testar na mão usa o hábito hb_0042 do seed, ele tem 40 dias seguidos'
    c.user('F9', f9, lab('user_fact', 'seed habit hb_0042 has a 40-day run (for manual testing)', f9, 'lost', 'omitted', ['fact', 'language:pt'],
                         distinct=['hb_0042', '0042', '40 dias', 'forty', '40 days', '40-day'],
                         values=[{'value': 'hb_0042', 'status': 'lost', 'found_as': None},
                                 {'value': '40 dias', 'status': 'lost', 'found_as': None}]))
    c.tool('Bash', {'command': 'flutter test test/features/streaks -r compact', 'description': 'Run the streak tests'},
           '00:02 +9: All tests passed!', text="Running the calculator tests first.")
    t10 = 'faz widget tests com golden files pra tela de streaks, mas só roda com --update-goldens quando eu pedir'
    c.user('T10', t10, lab('instruction', 'widget tests with golden files for the streaks screen; only run --update-goldens when asked', t10,
                           'lost', 'omitted', ['form:omitted', 'summary:mentions-without-content', 'language:pt'],
                           distinct=['golden', 'update-goldens', 'quando eu pedir', 'widget test']))
    c.say("Certo. Plan: `StreakHeatmap` widget, then the screen, then tests.")
    c.user('C11', 'perfeito, bora', lab('chatter', 'chatter: perfeito, bora', 'perfeito, bora', 'in_summary', 'verbatim',
                                        ['chatter', 'language:pt'], S('"perfeito, bora"')))
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Build a Streaks screen following the attached mock-up: for every habit, its current run and its longest run, and underneath a GitHub-style contribution heatmap of the last twelve weeks',
            'Habits with a weekly target (e.g. three times a week) count their streak in weeks, so a day without a check-in does not break it',
            'The screen must look right in dark mode',
            'Heatmap columns run Monday to Sunday',
        ],
        'Key Technical Concepts': ['Flutter with Riverpod providers (`habit_providers.dart`)', 'Isar local database (schema v7); `Habit.checkIns`, `Habit.targetPerWeek`',
                                   'Colours from `Theme.of(context).colorScheme`', 'Pure streak computation, testable without the database'],
        'Files and Code Sections': [
            '`%s/lib/features/streaks/streak_calculator.dart` (new): `computeStreak(checkIns, targetPerWeek, today)` returns `StreakResult(current, longest, unit)`; weekly mode when the target is below 7' % RI,
            '`%s/lib/features/habits/habit.dart`: Isar collection `Habit`' % RI,
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'Weekly-target habits are evaluated per ISO week; a week counts when the number of check-ins reaches the target.',
        'All user messages': [
            'Attached a mock-up and asked (in Portuguese) for a streaks screen: current and longest streak per habit plus a GitHub-style heatmap of the last twelve weeks',
            'Said the local database is Isar, schema v7',
            'With `streak_calculator.dart` open: weekly-target habits (three times a week) count streaks per week so a missed day does not break them',
            '"show de bola 👏"',
            'Dark mode has to work properly',
            'The heatmap week starts on Monday',
            'Gave instructions about tests for the screen',
            '"perfeito, bora"',
        ],
        'Pending Tasks': ['`StreakHeatmap` widget', 'Streaks screen layout', 'Provider wiring', 'Tests'],
        'Current Work': 'The calculator and its unit tests pass (9 tests); the heatmap widget is next.',
        'Optional Next Step': 'Create `lib/features/streaks/streak_heatmap.dart`.',
    }))
    c.say("For the heatmap grid I'll add the `flutter_heatmap_calendar` package to the dependencies and style it to match the mock-up.")
    c.user('U1', 'lembrando: nada de mudar o pubspec.yaml sem falar comigo, as versões são travadas no CI',
           after=dict(repeat_of='T8', mode='paraphrase'))
    c.tool('Write', {'file_path': '%s/lib/features/streaks/streaks_screen.dart' % RI, 'content':
                     "import 'package:flutter/material.dart';\n\nclass StreaksScreen extends StatelessWidget {\n  const StreaksScreen({super.key});\n\n"
                     "  @override\n  Widget build(BuildContext context) {\n    final scheme = Theme.of(context).colorScheme;\n    return Scaffold(\n"
                     "      appBar: AppBar(title: const Text('Sequências')),\n      body: ListView(children: [\n"
                     "        _StatRow(label: 'Sequência atual', color: scheme.primary),\n"
                     "        _StatRow(label: 'Maior sequência', color: scheme.secondary),\n"
                     "        const StreakHeatmap(weeks: 12),\n      ]),\n    );\n  }\n}\n"},
           created('%s/lib/features/streaks/streaks_screen.dart' % RI),
           text="Ok, no new dependency. I'll draw the grid myself with a `CustomPainter` and lay out the screen around it.")
    c.say("Screen is in; `StreakHeatmap` paints 12 columns × 7 rows from `colorScheme`. Next: hooking `streakProvider` up to the Isar queries.")
    return c.write({'situations': ['image request in Portuguese paraphrased in English (12 semanas -> twelve weeks)', 'fact (schema versão 7 -> schema v7)',
                                   'wrapper:ide_opened_file request in Portuguese paraphrased (3x -> three times a week)',
                                   'mixed Portuguese/English partial: dark mode kept, l10n/.arb strings dropped; the assistant hardcodes Portuguese strings after the boundary',
                                   'negation moved (não no domingo -> columns run Monday to Sunday)',
                                   'pubspec rule omitted, paraphrased in Portuguese by the user after the boundary',
                                   'fact (seed habit id, 40 days) lost', 'golden-test rule lost: the list only says instructions about tests were given',
                                   'Portuguese chatter quoted / omitted']})


# --------------------------------------------------------------------------------------------
def s02():
    c = Case('s02-stromblick-svelte-tiles', 'svelte', '2.0', seed=6402, pre_tokens=151377, start='2025-12-08T13:05:00')
    t1 = ('Wir brauchen auf der Startseite eine Kachel mit dem Tagesverbrauch in kWh und darunter einen Linienchart der letzten '
          '24 Stunden, Auflösung 15 Minuten.')
    c.user('T1', t1, lab('instruction', 'start page: tile with daily consumption in kWh, below it a line chart of the last 24 h at 15-min resolution', t1,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'language:de', 'translated', 'numbers-as-words'],
                         S("a tile with today's consumption in kWh and, below it, a line chart covering the past day at quarter-hour resolution"),
                         values=[{'value': '24 Stunden', 'status': 'in_summary', 'found_as': 'the past day'},
                                 {'value': '15 Minuten', 'status': 'in_summary', 'found_as': 'quarter-hour'}]))
    page = ("<script lang=\"ts\">\n  import { onMount } from 'svelte';\n  import { PUBLIC_API_KEY } from '$env/static/public';\n\n"
            "  let readings = [];\n  onMount(async () => {\n    const r = await fetch(`https://api.stromblick.internal/v3/readings?key=${PUBLIC_API_KEY}`);\n"
            "    readings = await r.json();\n  });\n</script>")
    c.tools([('Read', {'file_path': '%s/src/routes/+page.svelte' % SB}, numbered(page)),
             ('Read', {'file_path': '%s/src/lib/api.ts' % SB}, numbered(
                 "export type Reading = { ts: string; kwh: number };\n\nexport async function getReadings(fetchFn: typeof fetch, key: string, meter: string) {\n"
                 "  const r = await fetchFn(`https://api.stromblick.internal/v3/meters/${meter}/readings`, { headers: { 'x-api-key': key } });\n"
                 "  return (await r.json()) as Reading[];\n}"))],
            text="Ich schaue mir die Startseite und den API-Client an.")
    c.say("The start page currently fetches readings in `onMount` with a public key. `src/lib/api.ts` already has a `getReadings` helper.")
    t2 = 'kein client-side fetch hier. das gehört in die load-Funktion in +page.server.ts, der API-Key darf nie im Browser landen'
    c.user('T2', [ide_selection('%s/src/routes/+page.svelte' % SB, 6, 9, "  onMount(async () => {\n    const r = await fetch(`https://api.stromblick.internal/v3/readings?key=${PUBLIC_API_KEY}`);\n    readings = await r.json();\n  });"),
                  text(t2)],
           lab('instruction', 'no client-side fetch; load in +page.server.ts so the API key never reaches the browser', t2, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_selection', 'language:de', 'translated', 'negation-moved'],
               S('Data is loaded in the server-side `load` function of `+page.server.ts` instead of being fetched in the component, so the API key stays on the server'),
               wrapper='ide_selection'))
    c.tool('Write', {'file_path': '%s/src/routes/+page.server.ts' % SB, 'content':
                     "import { API_KEY } from '$env/static/private';\nimport { getReadings } from '$lib/api';\nimport type { PageServerLoad } from './$types';\n\n"
                     "export const load: PageServerLoad = async ({ fetch, locals }) => {\n  const readings = await getReadings(fetch, API_KEY, locals.meterId);\n"
                     "  return { readings };\n};\n"},
           created('%s/src/routes/+page.server.ts' % SB), text="Moving the request into a server `load` with the private key.")
    c.user('C3', 'passt', lab('chatter', 'chatter: passt', 'passt', 'in_summary', 'verbatim', ['chatter', 'language:de'], S('"passt"')))
    c.say("Which meter should I use for local testing?")
    f4 = 'Test-Zählpunkt ist DE00056201234000000000000004711'
    c.user('F4', f4, lab('user_fact', 'test metering point DE00056201234000000000000004711', f4, 'in_summary', 'form:DE00056201234000000000000004711',
                         ['fact', 'language:de'], S('`DE00056201234000000000000004711`'),
                         values=[{'value': 'DE00056201234000000000000004711', 'status': 'in_summary', 'found_as': 'DE00056201234000000000000004711'}]))
    t5 = 'Zahlen bitte im deutschen Format, also 1.234,5 kWh. Intl.NumberFormat mit de-DE, nicht selber basteln'
    c.user('T5', t5, lab('instruction', "German number format (1.234,5 kWh) via Intl.NumberFormat('de-DE'), no hand-rolled formatting", t5,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'language:de', 'translated', 'negation-moved'],
                         S("Numbers are shown in German notation (dot for thousands, comma for decimals, e.g. 1.234,5 kWh) using `Intl.NumberFormat('de-DE')` rather than hand-written formatting")))
    c.tool('Write', {'file_path': '%s/src/lib/format.ts' % SB, 'content':
                     "const kwh = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 1 });\n\nexport const formatKwh = (v: number) => `${kwh.format(v)} kWh`;\n"},
           created('%s/src/lib/format.ts' % SB))
    t6 = 'Chart-Library: bitte layerchart nehmen, kein Chart.js, unser Bundle ist eh schon zu groß'
    c.user('T6', t6, lab('instruction', 'use layerchart for charts, not Chart.js (bundle already too big)', t6, 'lost', 'omitted',
                         ['form:omitted', 'language:de', 'after:assistant-topic'],
                         distinct=['layerchart', 'bundle', 'zu groß']))
    c.say("Alles klar.")
    c.user('C7', 'sehr gut 👍', lab('chatter', 'chatter: sehr gut 👍', 'sehr gut 👍', 'lost', 'omitted', ['chatter', 'language:de']))
    t8 = 'Die Tabelle unten soll nach allen Spalten sortierbar sein und maximal 50 Zeilen pro Seite zeigen, der Rest paginiert'
    c.user('T8', t8, lab('instruction', 'table sortable by every column; at most 50 rows per page, rest paginated', t8, 'lost', 'partial',
                         ['form:partial', 'partial', 'language:de'], partial=True, lost_part='at most 50 rows per page, the rest paginated',
                         distinct=['paginat', 'pro seite', 'per page', '50 zeilen', 'fifty', '50 rows']))
    c.tool('Bash', {'command': 'git add -A && git commit -qm "start page: server load + kWh tile" && echo done', 'description': 'Commit the work so far'},
           'done', text="Committing the server load and the tile before starting the table.")
    c.rejected('Bash', {'command': 'git push origin main', 'description': 'Push to the remote'}, text="Pushing so the preview build picks it up.")
    t9 = 'Nein! Niemals direkt auf main pushen. Alles über einen PR, die Pipeline deployed main automatisch auf Produktion'
    c.user('T9', t9, lab('instruction', 'never push to main; everything via PR (main auto-deploys to production)', t9, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:de', 'translated', 'negation-moved', 'after-rejection'],
                         S('Changes reach `main` only through pull requests, because every commit on `main` is deployed to production automatically')))
    c.tool('Bash', {'command': 'git switch -c feat/start-tiles && git push -u origin feat/start-tiles 2>&1 | tail -1', 'description': 'Push a feature branch instead'},
           "branch 'feat/start-tiles' set up to track 'origin/feat/start-tiles'.", text="Entschuldigung. Moving the commit to a feature branch.")
    f10 = 'Deployment-Fenster ist dienstags 21 Uhr'
    c.user('F10', f10, lab('user_fact', 'deployment window Tuesdays 21:00', f10, 'in_summary', 'form:9 pm', ['fact', 'language:de', 'numeric'],
                           S('deployment window: Tuesdays at 9 pm'),
                           values=[{'value': '21 Uhr', 'status': 'in_summary', 'found_as': '9 pm'}]))
    t11 = 'und Barrierefreiheit: jede Kachel braucht ein aria-label und die Farben müssen WCAG AA schaffen'
    c.user('T11', t11, lab('instruction', 'accessibility: every tile has an aria-label; colours meet WCAG AA', t11, 'lost', 'omitted',
                           ['form:omitted', 'summary:mentions-without-content', 'language:de'],
                           distinct=['aria-label', 'aria', 'wcag', 'kontrast', 'contrast', 'barrierefrei']))
    c.say("Verstanden.")
    t12 = 'Commit-Messages auf Englisch und nach Conventional Commits'
    c.user('T12', t12, lab('instruction', 'commit messages in English, Conventional Commits', t12, 'repeated_later', 'omitted',
                           ['form:omitted', 'language:de', 'repeat:in_tool_result'],
                           A('R1', 'Commit messages are written in English and follow Conventional Commits'), repeated_after=['in_tool_result']))
    c.say("Next: the chart component, then the sortable table.")
    c.user('C13', 'jo, mach', lab('chatter', 'chatter: jo, mach', 'jo, mach', 'in_summary', 'verbatim', ['chatter', 'language:de'], S('"jo, mach"')))
    c.compact(summary_20(
        """Chronological review:

1. The user (writing in German) asked for a consumption tile and a chart of the last day on the start page.
2. I read `+page.svelte` and `src/lib/api.ts`. With the `onMount` fetch selected, the user asked for server-side loading so the key is never exposed; I wrote `+page.server.ts`.
3. The user approved ("passt") and gave the test metering point. They asked for German number formatting; I wrote `src/lib/format.ts`.
4. The user described the table under the chart.
5. I committed and tried `git push origin main`; the user rejected it and set the branching rule. I moved the commit to `feat/start-tiles`.
6. The user gave the deployment window and raised accessibility requirements for the tiles, then approved the plan ("jo, mach").""",
        {
            'Primary Request and Intent': [
                "Start page: a tile with today's consumption in kWh and, below it, a line chart covering the past day at quarter-hour resolution",
                'Data is loaded in the server-side `load` function of `+page.server.ts` instead of being fetched in the component, so the API key stays on the server',
                "Numbers are shown in German notation (dot for thousands, comma for decimals, e.g. 1.234,5 kWh) using `Intl.NumberFormat('de-DE')` rather than hand-written formatting",
                'The meter table below the chart is sortable by every column',
                'Changes reach `main` only through pull requests, because every commit on `main` is deployed to production automatically',
            ],
            'Key Technical Concepts': ['SvelteKit `+page.server.ts` load with `$env/static/private`', 'Stromblick API v3 (`getReadings` in `src/lib/api.ts`)',
                                       'Test metering point `DE00056201234000000000000004711`', 'deployment window: Tuesdays at 9 pm'],
            'Files and Code Sections': [
                '`%s/src/routes/+page.server.ts` (new): `load` calls `getReadings(fetch, API_KEY, locals.meterId)`' % SB,
                '`%s/src/lib/format.ts` (new): `formatKwh` with a de-DE `Intl.NumberFormat`, one decimal' % SB,
                '`%s/src/routes/+page.svelte`: still has the old `onMount` fetch, to be replaced by `data.readings`' % SB,
            ],
            'Errors and fixes': ['`git push origin main` was rejected by the user; the commit now lives on `feat/start-tiles`.'],
            'Problem Solving': 'The public key import is dropped; the private key is only read on the server.',
            'All user messages': [
                'Asked (in German) for a consumption tile in kWh and a line chart of the past day at quarter-hour resolution on the start page',
                'Selected the `onMount` fetch: no client-side fetching, move it into `+page.server.ts` so the key is never exposed in the browser',
                '"passt"',
                'Gave the test metering point `DE00056201234000000000000004711`',
                "German number formatting via `Intl.NumberFormat('de-DE')`",
                'The table should be sortable by every column',
                'After rejecting the push: no direct pushes to `main`, everything through a PR because `main` deploys to production',
                'Deployment window is Tuesdays at 9 pm',
                'Raised accessibility requirements for the tiles',
                '"jo, mach"',
            ],
            'Pending Tasks': ['Line chart component with the 96 quarter-hour points', 'Sortable meter table', 'Replace the `onMount` fetch in `+page.svelte`'],
            'Current Work': 'The server load and the kWh tile are committed on `feat/start-tiles`; the chart component is next.',
            'Optional Next Step': 'Create `src/lib/components/ConsumptionChart.svelte`.',
        }))
    c.tool('Read', {'file_path': '%s/CONTRIBUTING.md' % SB}, numbered(
        '# Contributing to Stromblick\n\n## Branches\n- Feature branches `feat/*`, fixes `fix/*`\n\n## Commits\n'
        '- Commit messages are written in English and follow Conventional Commits (`feat:`, `fix:`, `chore:` …)\n\n## Checks\n- `npm run check` and `npm run test` must pass'),
        text="Checking the contribution guide before the next commit.", anchor='R1')
    c.tool('Bash', {'command': 'npm install chart.js', 'description': 'Install the chart library'},
           'added 2 packages, and audited 412 packages in 3s\n\n98 packages are looking for funding\n  run `npm fund` for details\n\nfound 0 vulnerabilities',
           text="Installing Chart.js for the consumption line chart.")
    c.tool('Write', {'file_path': '%s/src/lib/components/ConsumptionChart.svelte' % SB, 'content':
                     "<script lang=\"ts\">\n  import { onMount } from 'svelte';\n  import Chart from 'chart.js/auto';\n  import type { Reading } from '$lib/api';\n\n"
                     "  export let readings: Reading[];\n  let canvas: HTMLCanvasElement;\n\n  onMount(() => {\n"
                     "    new Chart(canvas, { type: 'line', data: { labels: readings.map((r) => r.ts), datasets: [{ data: readings.map((r) => r.kwh) }] } });\n"
                     "  });\n</script>\n\n<canvas bind:this={canvas}></canvas>\n"},
           created('%s/src/lib/components/ConsumptionChart.svelte' % SB))
    c.say("The chart component renders the 96 points. Next I'll replace the old fetch in `+page.svelte` with `data.readings` and commit as `feat: consumption chart on start page`.")
    return c.write({'situations': ['German request restated in English (24 Stunden -> the past day, 15 Minuten -> quarter-hour)',
                                   'wrapper:ide_selection German request paraphrased, negation moved (darf nie im Browser landen -> stays on the server)',
                                   'German chatter quoted / omitted', 'fact (metering point) kept verbatim',
                                   'chart-library rule silently dropped from the summary and its user-message list; the assistant installs Chart.js after the boundary',
                                   'partial (sortable kept, 50 rows per page dropped)',
                                   'rejected git push + interrupt marker (skipped), then "niemals direkt auf main pushen" kept as "reach main only through pull requests"',
                                   'fact 21 Uhr -> 9 pm', 'accessibility rule lost: the summary only says accessibility requirements were raised',
                                   'commit-message rule omitted, recorded in CONTRIBUTING.md which the agent reads after the boundary (in_tool_result)']})


# --------------------------------------------------------------------------------------------
def s03():
    c = Case('s03-ember-render-graph', 'engine', '2.0', seed=6403, pre_tokens=172650, start='2026-02-16T21:14:00')
    t1 = ("ok so context: right now every renderer feature hand-places its own barriers and we keep getting sync validation errors "
          "whenever someone reorders passes. I want a render graph: passes declare which resources they read and write, the graph "
          "compiles that into barriers + layout transitions, and culls passes whose outputs nobody reads")
    c.user('T1', t1, lab('instruction', 'render graph: passes declare reads/writes; graph derives barriers + layout transitions; cull passes with unread outputs', t1,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'long-turn', 'paraphrase:vocab'],
                         S('each pass declares the resources it reads and writes; compiling the graph derives the pipeline barriers and image layout transitions and drops any pass whose outputs are never consumed')))
    c.tools([('Glob', {'pattern': 'src/render/**/*.{h,cpp}'}, '\n'.join('%s/src/render/%s' % (EM, f) for f in
                                                                       ['device.cpp', 'device.h', 'forward_pass.cpp', 'shadow_pass.cpp', 'bloom_pass.cpp', 'frame_allocator.h'])),
             ('Read', {'file_path': '%s/src/render/shadow_pass.cpp' % EM}, numbered(
                 'void ShadowPass::record(VkCommandBuffer cmd) {\n    VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};\n'
                 '    b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;\n    b.newLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;\n'
                 '    // TODO: this breaks when bloom runs first\n    emitBarrier(cmd, b);'))],
            text="Let me look at how the passes place barriers today.")
    c.say("Each pass emits its own `VkImageMemoryBarrier2` with a hard-coded old layout, which is why reordering breaks. Any language/build constraints I should know about for the new code?")
    t2 = 'C++20, but we build with -fno-exceptions -fno-rtti. errors go through our Result<T, Error>, no throwing'
    c.user('T2', t2, lab('instruction', 'C++20 with -fno-exceptions and -fno-rtti; errors via Result<T, Error>, never throw', t2, 'lost', 'partial',
                         ['form:partial', 'partial', 'after:assistant-topic'], partial=True,
                         lost_part='no RTTI (-fno-rtti): no dynamic_cast / typeid',
                         distinct=['rtti', 'typeid']))
    c.say("Noted.")
    c.user('C3', 'nice', lab('chatter', 'chatter: nice', 'nice', 'lost', 'omitted', ['chatter']))
    f4 = 'min spec is a GTX 1060 6GB'
    c.user('F4', f4, lab('user_fact', 'minimum-spec GPU GTX 1060 6GB', f4, 'in_summary', 'form:GTX 1060 with 6 GB', ['fact', 'numeric'],
                         S('GeForce GTX 1060 with 6 GB'),
                         values=[{'value': 'GTX 1060', 'status': 'in_summary', 'found_as': 'GTX 1060'},
                                 {'value': '6GB', 'status': 'in_summary', 'found_as': '6 GB'}]))
    t5 = 'and vulkan 1.2 only. dynamic rendering is core in 1.3 so dont use it, stick with regular render passes'
    c.user('T5', t5, lab('instruction', 'Vulkan 1.2 only; no dynamic rendering, use classic render passes', t5, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved'],
                         S('The graph targets Vulkan 1.2, so passes are built on classic `VkRenderPass`/framebuffer objects (dynamic rendering only became core in 1.3)')))
    c.tool('Write', {'file_path': '%s/src/render/graph.h' % EM, 'content':
                     '#pragma once\n#include "core/result.h"\n#include "render/frame_allocator.h"\n\nnamespace ember::render {\n\n'
                     'struct ResourceHandle { uint32_t index; };\n\nclass RenderGraph {\npublic:\n'
                     '    ResourceHandle createTransientImage(const ImageDesc& desc);\n    void addPass(PassDesc desc);\n'
                     '    Result<CompiledGraph, Error> compile(FrameAllocator& arena);\n};\n\n}  // namespace ember::render\n'},
           created('%s/src/render/graph.h' % EM), text="Sketching the public API first.")
    sel = ('Result<CompiledGraph, Error> RenderGraph::compile(FrameAllocator& arena) {\n    std::vector<Barrier> barriers;\n'
           '    std::vector<uint32_t> order;\n    for (auto& p : passes_) {')
    t6 = 'this allocates every frame. per-frame stuff goes in the FrameAllocator arena, no new/delete or vector growth in the hot path'
    c.user('T6', [ide_selection('%s/src/render/graph.cpp' % EM, 41, 44, sel), text(t6)],
           lab('instruction', 'no per-frame heap allocation: use the FrameAllocator arena; no new/delete or vector growth in the hot path', t6,
               'in_summary', 'paraphrase', ['form:paraphrase', 'wrapper:ide_selection'],
               S('Per-frame data lives in the `FrameAllocator` arena; the per-frame path does no heap allocation (no `new`/`delete`, no growing `std::vector`s)'),
               wrapper='ide_selection'))
    c.tool('Edit', {'file_path': '%s/src/render/graph.cpp' % EM, 'old_string': '    std::vector<Barrier> barriers;\n    std::vector<uint32_t> order;\n',
                    'new_string': '    auto barriers = arena.allocSpan<Barrier>(maxBarriers());\n    auto order = arena.allocSpan<uint32_t>(passes_.size());\n'},
           edited('%s/src/render/graph.cpp' % EM, '    auto barriers = arena.allocSpan<Barrier>(maxBarriers());\n    auto order = arena.allocSpan<uint32_t>(passes_.size());', 42),
           text="Switching both scratch arrays to arena spans sized up front.")
    c.user('C7', 'lol yeah', lab('chatter', 'chatter: lol yeah', 'lol yeah', 'lost', 'omitted', ['chatter']))
    t8 = "transient attachments should alias memory when their lifetimes dont overlap, thats like half the point of doing this"
    c.user('T8', t8, lab('instruction', 'transient attachments share (alias) memory when lifetimes do not overlap', t8, 'lost', 'omitted',
                         ['form:omitted', 'summary:mentions-without-content', 'after:assistant-topic'],
                         distinct=['alias', 'lifetime', 'overlap', 'half the point']))
    c.say("Right, I'll keep that in mind for the allocation step.")
    t9 = "also dont touch anything in third_party/, its vendored and gets overwritten by scripts/sync_vendor.sh"
    c.user('T9', t9, lab('instruction', 'never modify third_party/ (vendored, overwritten by scripts/sync_vendor.sh)', t9, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:ide_wrapped', 'repeat:paraphrase'],
                         A('U1', 'hands off third_party/ pls, that stuff is vendored'), repeated_after=['ide_wrapped', 'paraphrase']))
    f10 = '/home/rafael/src/ember/captures/flicker_1103.rdc is the renderdoc capture with the flicker'
    c.user('F10', f10, lab('user_fact', 'RenderDoc capture of the flicker: captures/flicker_1103.rdc', f10, 'in_summary', 'form:captures/flicker_1103.rdc',
                           ['fact', 'path', 'form:repo-relative'], S('`captures/flicker_1103.rdc`'),
                           values=[{'value': '/home/rafael/src/ember/captures/flicker_1103.rdc', 'status': 'in_summary', 'found_as': 'captures/flicker_1103.rdc'}]))
    c.say("I'll open it in RenderDoc once the graph replaces the hand-placed barriers and check whether the flicker is gone.")
    t11 = 'run clang-format on every file you touch before committing, CI fails on any diff'
    c.user('T11', t11, lab('instruction', 'clang-format every touched file before committing (CI fails on any diff)', t11, 'in_summary', 'verbatim',
                           ['form:verbatim'], S('"run clang-format on every file you touch before committing, CI fails on any diff"')))
    c.tool('Bash', {'command': 'clang-format -i src/render/graph.h src/render/graph.cpp && git add src/render/graph.* && git commit -qm "render: graph skeleton" && echo ok',
                    'description': 'Format and commit the graph skeleton'}, 'ok')
    c.say("Skeleton committed. Next is the compile step: topological order, culling, then barriers.")
    c.user('C12', '🔥🔥', lab('chatter', 'chatter: 🔥🔥', '🔥🔥', 'in_summary', 'paraphrase', ['chatter', 'form:paraphrase', 'emoji'],
                             S('Fire emoji reaction')))
    c.compact(summary_20(
        """Going through the conversation:

1. The user explained that hand-placed barriers cause sync validation errors whenever passes are reordered, and asked for a render graph.
2. I looked at the existing passes (`shadow_pass.cpp` hard-codes old layouts) and asked about constraints. The user described the build flags and error handling.
3. The user gave the minimum-spec GPU and the Vulkan version constraint. I wrote `graph.h`.
4. With the scratch vectors in `RenderGraph::compile` selected, the user asked for no per-frame heap allocation; I switched to arena spans.
5. The user made a point about memory for transient attachments, gave the path of the RenderDoc capture that shows the flicker, and the formatting rule. I formatted and committed the skeleton.""",
        {
            'Primary Request and Intent': [
                'Replace hand-placed barriers with a render graph: each pass declares the resources it reads and writes; compiling the graph derives the pipeline barriers and image layout transitions and drops any pass whose outputs are never consumed',
                'The engine is C++20, compiled without exceptions (`-fno-exceptions`); fallible functions return `Result<T, Error>`',
                'The graph targets Vulkan 1.2, so passes are built on classic `VkRenderPass`/framebuffer objects (dynamic rendering only became core in 1.3)',
                'Per-frame data lives in the `FrameAllocator` arena; the per-frame path does no heap allocation (no `new`/`delete`, no growing `std::vector`s)',
            ],
            'Key Technical Concepts': ['Render graph: pass declarations, topological sort, dead-pass culling', '`VkImageMemoryBarrier2`, layout transitions',
                                       'Minimum spec: GeForce GTX 1060 with 6 GB', '`FrameAllocator::allocSpan<T>(n)`'],
            'Files and Code Sections': [
                '`%s/src/render/graph.h` (new): `RenderGraph::createTransientImage`, `addPass`, `compile(FrameAllocator&)`' % EM,
                '`%s/src/render/graph.cpp`: scratch arrays in `compile` are arena spans' % EM,
                '`%s/src/render/shadow_pass.cpp`: hard-coded `VK_IMAGE_LAYOUT_UNDEFINED` old layout (to be removed)' % EM,
                'RenderDoc capture showing the flicker: `captures/flicker_1103.rdc`',
            ],
            'Errors and fixes': ['None so far.'],
            'Problem Solving': 'The flicker is likely the shadow map being transitioned from UNDEFINED after bloom already wrote to it; the graph should fix this.',
            'All user messages': [
                'Explained that hand-placed barriers keep causing sync validation errors and asked for a render graph that derives barriers and culls unused passes',
                'Described the build setup: C++20, no exceptions, errors through `Result<T, Error>`',
                'Minimum spec is a GTX 1060 with 6 GB',
                'Vulkan 1.2 only, so classic render passes rather than dynamic rendering',
                'Selected the scratch vectors in `compile`: per-frame allocations must go through the `FrameAllocator` arena',
                'Made a point about memory for transient attachments',
                'Gave the path of the RenderDoc capture with the flicker',
                '"run clang-format on every file you touch before committing, CI fails on any diff"',
                'Fire emoji reaction',
            ],
            'Pending Tasks': ['Compile step: topological order, culling, barrier generation', 'Transient image allocation', 'Port the shadow, forward and bloom passes', 'Check the capture'],
            'Current Work': 'The graph skeleton is committed ("render: graph skeleton"); the compile step is next.',
            'Optional Next Step': 'Implement `RenderGraph::compile` in `src/render/graph_compile.cpp`.',
        }))
    c.tool('Write', {'file_path': '%s/src/render/graph_compile.cpp' % EM, 'content':
                     '#include "render/graph.h"\n\nnamespace ember::render {\n\n'
                     'Result<CompiledGraph, Error> RenderGraph::compile(FrameAllocator& arena) {\n'
                     '    auto order = arena.allocSpan<uint32_t>(passes_.size());\n    topoSort(order);\n    cullUnread(order);\n'
                     '    for (Resource* res : resources_) {\n        if (auto* img = dynamic_cast<ImageResource*>(res); img && img->transient) {\n'
                     '            // each transient image gets its own VkDeviceMemory block\n'
                     '            TRY(device_.allocateDedicated(img->desc, img->memory));\n        }\n    }\n'
                     '    return buildBarriers(order, arena);\n}\n\n}  // namespace ember::render\n'},
           created('%s/src/render/graph_compile.cpp' % EM),
           text="Writing the compile step. I'll tell image resources apart from buffers while walking the resource list and give every transient image its own dedicated allocation for now.")
    c.say("To name allocations per pass in captures, VMA needs a small patch in `third_party/vma/vk_mem_alloc.h`; I'll add a pass-name field to its allocation info.")
    c.user('U1', [ide_opened('%s/third_party/vma/vk_mem_alloc.h' % EM),
                  text('hands off third_party/ pls, that stuff is vendored, scripts/sync_vendor.sh would wipe the change anyway')],
           after=dict(repeat_of='T9', mode='ide_wrapped'))
    c.say("Understood, no vendor patch. I'll tag allocations through `VmaAllocationCreateInfo::pUserData` from our own code instead.")
    return c.write({'situations': ['long turn with background, paraphrased',
                                   'partial (no exceptions / Result kept, -fno-rtti dropped); the assistant uses dynamic_cast after the boundary',
                                   'fact 6GB -> 6 GB', 'negation moved (dont use dynamic rendering -> built on classic VkRenderPass)',
                                   'wrapper:ide_selection request paraphrased',
                                   'memory-sharing rule for transient attachments lost: the summary only says the user made a point about it; the assistant gives each transient image its own allocation',
                                   'third_party rule omitted, repeated by the user behind <ide_opened_file>',
                                   'absolute path fact kept as a repo-relative path', 'instruction quoted verbatim',
                                   'chatter omitted; emoji chatter described ("Fire emoji reaction")'],
                    'notes': 'Unsure: T8 is labelled lost because "Made a point about memory for transient attachments" names the topic but not the rule (share memory when lifetimes do not overlap); a reader could argue the topic alone is a weak carry. T2 is partial: C++20, no exceptions and Result are restated, the -fno-rtti half is not.'})


# --------------------------------------------------------------------------------------------
def s04():
    c = Case('s04-mediterraneo-sst-pluto', 'julia', 'short', seed=6404, pre_tokens=139020, start='2025-11-24T15:02:00')
    t1 = ('ciao! devo calcolare le anomalie giornaliere di SST nel Mediterraneo rispetto alla climatologia 1991-2020, dai dati '
          'OISST. tutto dentro un notebook Pluto per favore')
    c.user('T1', t1, lab('instruction', 'daily Mediterranean SST anomalies vs 1991-2020 climatology from OISST, in a Pluto notebook', t1, 'in_summary',
                         'paraphrase', ['form:paraphrase', 'language:it', 'translated'],
                         S('daily sea-surface-temperature anomalies for the Mediterranean from NOAA OISST data, relative to a 1991–2020 climatology, all inside a Pluto notebook'),
                         values=[{'value': '1991-2020', 'status': 'in_summary', 'found_as': '1991–2020'}]))
    c.say("Volentieri. Where are the OISST files on this machine?")
    f2 = 'i file netcdf stanno in /data/oisst/v2.1/, uno al giorno, tipo oisst-avhrr-v02r01.20230815.nc'
    c.user('F2', f2, lab('user_fact', 'OISST NetCDF files in /data/oisst/v2.1/, one per day', f2, 'in_summary', 'form:/data/oisst/v2.1',
                         ['fact', 'path', 'language:it'], S('`/data/oisst/v2.1`'),
                         values=[{'value': '/data/oisst/v2.1/', 'status': 'in_summary', 'found_as': '/data/oisst/v2.1'}]))
    c.tool('Bash', {'command': 'ls /data/oisst/v2.1/ | head -3; ls /data/oisst/v2.1/ | wc -l', 'description': 'Inspect the OISST folder'},
           'oisst-avhrr-v02r01.19810901.nc\noisst-avhrr-v02r01.19810902.nc\noisst-avhrr-v02r01.19810903.nc\n15863',
           text="Checking the folder.")
    t3 = 'usa NCDatasets.jl, non NetCDF.jl, e DimensionalData per gli array con le coordinate'
    c.user('T3', t3, lab('instruction', 'read with NCDatasets.jl (not NetCDF.jl); DimensionalData for coordinate arrays', t3, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:it', 'translated'],
                         S('NetCDF files are read with NCDatasets.jl (not the older NetCDF.jl package) and gridded data is held in DimensionalData arrays')))
    c.tool('Write', {'file_path': '%s/notebooks/sst_anomalies.jl' % GI, 'content':
                     '### A Pluto.jl notebook ###\n# v0.19.46\n\nusing Markdown\nusing InteractiveUtils\n\n'
                     '# ╔═╡ 3f1c2a10-aa01-11ef-0b1e-2d5c6a7b8c90\nusing NCDatasets, DimensionalData, Dates, Statistics\n\n'
                     '# ╔═╡ 3f1c2a10-aa01-11ef-1c2f-3e6d7b8c9da1\nconst OISST_DIR = "/data/oisst/v2.1"\n\n'
                     '# ╔═╡ 3f1c2a10-aa01-11ef-2d30-4f7e8c9daeb2\nfunction read_day(d::Date)\n'
                     '    f = joinpath(OISST_DIR, "oisst-avhrr-v02r01.$(Dates.format(d, "yyyymmdd")).nc")\n'
                     '    NCDataset(f) do ds\n        DimArray(ds["sst"][:, :, 1, 1], (X(ds["lon"][:]), Y(ds["lat"][:])))\n    end\nend\n'},
           created('%s/notebooks/sst_anomalies.jl' % GI), text="Creating the notebook with a reader cell.")
    c.user('C4', 'grazie mille!!', lab('chatter', 'chatter: grazie mille!!', 'grazie mille!!', 'lost', 'omitted', ['chatter', 'language:it']))
    t5 = ('la media spaziale va pesata con cos(lat), altrimenti i pixel a nord pesano troppo. and please mask out the Black Sea, '
          'it is not part of our region')
    c.user('T5', t5, lab('instruction', 'area-weight the spatial mean by cos(lat); mask out the Black Sea', t5, 'lost', 'partial',
                         ['form:partial', 'partial', 'language:mixed', 'after:assistant-topic'], partial=True,
                         lost_part='mask out the Black Sea (not part of the region)',
                         distinct=['black sea', 'mar nero', 'mask out', 'not part of our region']))
    c.say("Ok: weights `cosd.(lat)` normalised over the valid ocean cells.")
    t6 = ('per le figure: colormap divergente centrata sullo zero (RdBu_r) e niente titoli dentro i plot, le didascalie le scrivo '
          'io in LaTeX')
    c.user('T6', t6, lab('instruction', 'figures: diverging colormap centred on zero (RdBu_r); no titles inside plots (captions in LaTeX)', t6,
                         'lost', 'omitted', ['form:omitted', 'summary:mentions-without-content', 'language:it', 'after:assistant-topic'],
                         distinct=['rdbu', 'divergent', 'diverging', 'didascal', 'caption', 'titoli', 'centrata', 'centred on zero', 'centered on zero']))
    c.say("Capito.")
    f7 = 'se serve girarlo in grande il cluster è leonardo al CINECA, account IscrC_MEDSST'
    c.user('F7', f7, lab('user_fact', 'HPC: Leonardo at CINECA, account IscrC_MEDSST', f7, 'lost', 'omitted', ['fact', 'language:it'],
                         distinct=['leonardo', 'cineca', 'iscrc', 'medsst'],
                         values=[{'value': 'leonardo', 'status': 'lost', 'found_as': None},
                                 {'value': 'IscrC_MEDSST', 'status': 'lost', 'found_as': None}]))
    t8 = 'non ricalcolare la climatologia ogni volta che si riapre il notebook, salvala in un JLD2 e ricaricala se esiste'
    c.user('T8', t8, lab('instruction', 'do not recompute the climatology on every open: cache it in JLD2 and reload if present', t8, 'in_summary',
                         'paraphrase', ['form:paraphrase', 'language:it', 'translated', 'negation-moved'],
                         S('The climatology is computed once, cached to a JLD2 file and reloaded whenever that file already exists')))
    c.tool('Edit', {'file_path': '%s/notebooks/sst_anomalies.jl' % GI, 'old_string': 'const OISST_DIR = "/data/oisst/v2.1"\n',
                    'new_string': 'const OISST_DIR = "/data/oisst/v2.1"\nconst CLIM_FILE = joinpath(@__DIR__, "..", "cache", "clim_1991_2020.jld2")\n'},
           edited('%s/notebooks/sst_anomalies.jl' % GI, 'const OISST_DIR = "/data/oisst/v2.1"\nconst CLIM_FILE = joinpath(@__DIR__, "..", "cache", "clim_1991_2020.jld2")', 10),
           text="Adding the cache path; the climatology cell loads it with `JLD2.load` when present.")
    t9 = 'celle corte per favore, al massimo un grafico per cella'
    c.user('T9', t9, lab('instruction', 'short cells, at most one plot per cell', t9, 'repeated_later', 'omitted',
                         ['form:omitted', 'language:it', 'repeat:paraphrase'],
                         A('U1', 'un solo grafico per cella'), repeated_after=['paraphrase']))
    c.user('C10', 'ok perfetto 😊', lab('chatter', 'chatter: ok perfetto 😊', 'ok perfetto 😊', 'lost', 'omitted', ['chatter', 'language:it']))
    f11 = 'periodo di analisi: dal 1982 al 2024 compreso'
    c.user('F11', f11, lab('user_fact', 'analysis period 1982-2024 inclusive', f11, 'in_summary', 'form:1982 through 2024', ['fact', 'language:it'],
                           S('the analysis period runs from 1982 through 2024'),
                           values=[{'value': '1982', 'status': 'in_summary', 'found_as': '1982'},
                                   {'value': '2024', 'status': 'in_summary', 'found_as': '2024'}]))
    c.tool('Edit', {'file_path': '%s/notebooks/sst_anomalies.jl' % GI, 'old_string': 'const CLIM_FILE',
                    'new_string': 'const PERIOD = Date(1982, 1, 1):Day(1):Date(2024, 12, 31)\nconst CLIM_FILE'},
           edited('%s/notebooks/sst_anomalies.jl' % GI, 'const PERIOD = Date(1982, 1, 1):Day(1):Date(2024, 12, 31)', 10))
    c.compact(summary_short({
        'Primary Request and Intent': [
            'Compute daily sea-surface-temperature anomalies for the Mediterranean from NOAA OISST data, relative to a 1991–2020 climatology, all inside a Pluto notebook; the analysis period runs from 1982 through 2024',
            'NetCDF files are read with NCDatasets.jl (not the older NetCDF.jl package) and gridded data is held in DimensionalData arrays',
            'Regional means are area-weighted by the cosine of latitude so that northern cells do not dominate',
            'The climatology is computed once, cached to a JLD2 file and reloaded whenever that file already exists',
            'Figure style preferences were given.',
        ],
        'Key Technical Concepts': ['OISST v2.1 daily files in `/data/oisst/v2.1` (`oisst-avhrr-v02r01.YYYYMMDD.nc`, 15863 files from 1981-09-01), 0.25° grid',
                                   'Day-of-year climatology (366 entries, 29 February handled separately)', 'Pluto reactive cells'],
        'Files and Code Sections': ['`%s/notebooks/sst_anomalies.jl` (new): `read_day(d)` returns a `DimArray` over `X`/`Y`; constants `OISST_DIR`, `PERIOD`, `CLIM_FILE` (`cache/clim_1991_2020.jld2`)' % GI],
        'Problem Solving': 'Reading 15k files one by one is slow; the climatology is accumulated in a single pass with running sums per day of year.',
        'Pending Tasks': ['Climatology cell with JLD2 caching', 'Mediterranean region selection and weighted mean', 'Anomaly maps and time series plots'],
        'Current Work': 'Reader and constants are in place; the climatology cell is next.',
        'Optional Next Step': 'Write the climatology cell, then the regional selection.',
    }))
    c.tool('Edit', {'file_path': '%s/notebooks/sst_anomalies.jl' % GI, 'old_string': '# ╔═╡ Cell order:\n',
                    'new_string': '# ╔═╡ 3f1c2a10-aa01-11ef-4f52-61a0aebfc0d4\nregion(a) = a[X(Between(-6.0, 42.0)), Y(Between(30.0, 47.0))]\n\n'
                                  '# ╔═╡ 3f1c2a10-aa01-11ef-5063-72b1bfc0d1e5\nlet\n'
                                  '    fig = Figure(size = (1100, 420))\n'
                                  '    heatmap!(Axis(fig[1, 1], title = "Mediterranean SST anomaly, 2023-07-24"), region(anom_day(Date(2023, 7, 24))), colormap = :viridis)\n'
                                  '    lines!(Axis(fig[1, 2], title = "Regional mean anomaly"), PERIOD, regional_mean.(PERIOD))\n    fig\nend\n\n# ╔═╡ Cell order:\n'},
           edited('%s/notebooks/sst_anomalies.jl' % GI, 'region(a) = a[X(Between(-6.0, 42.0)), Y(Between(30.0, 47.0))]', 58),
           text="Adding the regional box (6°W–42°E, 30°N–47°N) and a first look: the 24 July 2023 anomaly map next to the regional mean time series.")
    c.user('U1', 'ricordati: un solo grafico per cella, tienile corte', after=dict(repeat_of='T9', mode='paraphrase'))
    c.say("Giusto, splitting it: one cell for the map, one for the time series.")
    return c.write({'situations': ['Italian request restated in English (1991-2020 -> 1991–2020)', 'path fact kept without the trailing slash',
                                   'Italian chatter omitted (short summary, no user-message list)',
                                   'mixed Italian/English partial: cos(lat) weighting kept, Black Sea mask dropped; the regional box written after the boundary includes the Black Sea',
                                   'figure rules lost: the summary says only that figure style preferences were given; the assistant uses viridis and titles after the boundary',
                                   'HPC account fact lost', 'negation moved (non ricalcolare -> computed once, cached)',
                                   'one-plot-per-cell rule omitted, paraphrased in Italian by the user after the boundary',
                                   'period fact (dal 1982 al 2024 -> from 1982 through 2024)']})


# --------------------------------------------------------------------------------------------
def s05():
    c = Case('s05-bieb-agenda-wp', 'wordpress', '2.1', seed=6405, pre_tokens=158231, start='2026-03-02T10:18:00')
    t1 = 'Ik wil een aanmeldformulier bij activiteiten: naam, e-mail en aantal personen (max 4). Als het vol zit komen mensen op een wachtlijst.'
    c.user('T1', t1, lab('instruction', 'event sign-up form: name, e-mail, party size max 4; waiting list when full', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:nl', 'translated', 'numbers-as-words'],
                         S('a sign-up form on each library event with name, e-mail address and party size (at most four people), and a waiting list once the event is full'),
                         values=[{'value': 'max 4', 'status': 'in_summary', 'found_as': 'at most four'}]))
    c.tools([('Read', {'file_path': '%s/bieb-agenda.php' % BA}, numbered(
        "<?php\n/**\n * Plugin Name: Bieb Agenda\n * Description: Activiteitenagenda voor Bibliotheek Zuidrand\n * Version: 1.4.2\n * Text Domain: bieb-agenda\n */\n\n"
        "defined( 'ABSPATH' ) || exit;\n\nrequire_once __DIR__ . '/includes/class-bieb-events.php';")),
        ('Glob', {'pattern': 'includes/*.php'}, '%s/includes/class-bieb-events.php\n%s/includes/class-bieb-admin.php' % (BA, BA))],
        text="Even kijken hoe de plugin nu in elkaar zit.")
    t2 = 'en netjes via de WordPress API: $wpdb->prepare voor elke query, een nonce op elk formulier, en escapen bij output (esc_html/esc_attr)'
    c.user('T2', t2, lab('instruction', 'WordPress APIs: $wpdb->prepare for every query, nonce on every form, escape output with esc_html/esc_attr', t2,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'language:nl', 'translated'],
                         S('Every database query goes through `$wpdb->prepare`, every form carries a nonce, and all output is escaped with `esc_html`/`esc_attr`')))
    c.tool('Write', {'file_path': '%s/includes/class-bieb-signups.php' % BA, 'content':
                     "<?php\ndefined( 'ABSPATH' ) || exit;\n\nclass Bieb_Signups {\n\tpublic static function table() {\n\t\tglobal $wpdb;\n"
                     "\t\treturn $wpdb->prefix . 'bieb_signups';\n\t}\n\n\tpublic static function count_for_event( $event_id ) {\n\t\tglobal $wpdb;\n"
                     "\t\treturn (int) $wpdb->get_var( $wpdb->prepare( 'SELECT COALESCE(SUM(party_size),0) FROM ' . self::table() . ' WHERE event_id = %d AND waitlist = 0', $event_id ) );\n\t}\n}\n"},
           created('%s/includes/class-bieb-signups.php' % BA), text="Eerst de opslag: een eigen tabel voor inschrijvingen.")
    c.user('C3', 'top!', lab('chatter', 'chatter: top!', 'top!', 'in_summary', 'verbatim', ['chatter', 'language:nl'], S('"top!"')))
    t4 = 'geen jQuery please, gewoon vanilla JS. ons thema laadt jQuery niet eens'
    c.user('T4', t4, lab('instruction', 'no jQuery; vanilla JS (theme does not load jQuery)', t4, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:mixed'],
                         S('The front-end script is plain JavaScript without jQuery, which the theme does not load')))
    c.say("Duidelijk. Welke PHP-versie draait de site?")
    f5 = 'de site draait nog op PHP 7.4, de hoster kan nog niet naar 8'
    c.user('F5', f5, lab('user_fact', 'site runs PHP 7.4 (host cannot move to 8 yet)', f5, 'in_summary', 'form:PHP 7.4', ['fact', 'language:nl'],
                         S('the site runs PHP 7.4'), values=[{'value': '7.4', 'status': 'in_summary', 'found_as': 'PHP 7.4'}]))
    c.say("Then no PHP 8 syntax (no named arguments, no `match`, no constructor promotion).")
    t6 = 'prefix alles met bieb_ (functies, options, tabelnamen), we hebben al eens een conflict gehad met een andere plugin'
    c.user('T6', t6, lab('instruction', 'prefix all functions, options and table names with bieb_ (past clash with another plugin)', t6, 'repeated_later',
                         'omitted', ['form:omitted', 'language:nl', 'repeat:in_tool_result'],
                         A('R1', 'All functions, options, hooks and custom tables use the `bieb_` prefix'), repeated_after=['in_tool_result']))
    c.say("Ok.")
    t7 = 'de bevestigingsmail pas na double opt-in versturen, anders zitten we fout met de AVG'
    c.user('T7', t7, lab('instruction', 'send the confirmation mail only after double opt-in (GDPR/AVG)', t7, 'lost', 'omitted',
                         ['form:omitted', 'summary:mentions-without-content', 'language:nl', 'after:assistant-topic'],
                         distinct=['double opt-in', 'opt-in', 'optin', 'avg', 'gdpr', 'bevestigingsmail']))
    c.say("Begrepen.")
    c.user('C8', 'haha ja precies', lab('chatter', 'chatter: haha ja precies', 'haha ja precies', 'lost', 'omitted', ['chatter', 'language:nl']))
    f9 = 'afzender van de mails is activiteiten@bieb-zuidrand.nl'
    c.user('F9', f9, lab('user_fact', 'mail sender activiteiten@bieb-zuidrand.nl', f9, 'in_summary', 'form:activiteiten@bieb-zuidrand.nl',
                         ['fact', 'email', 'language:nl'], S('activiteiten@bieb-zuidrand.nl'),
                         values=[{'value': 'activiteiten@bieb-zuidrand.nl', 'status': 'in_summary', 'found_as': 'activiteiten@bieb-zuidrand.nl'}]))
    t10 = 'inschrijvingen mogen max 30 dagen na de activiteit bewaard worden, daarna automatisch weg via een cron'
    c.user('T10', t10, lab('instruction', 'keep sign-ups at most 30 days after the event, then delete automatically via cron', t10, 'in_summary',
                           'paraphrase', ['form:paraphrase', 'language:nl', 'translated', 'numbers-as-words'],
                           S('sign-ups are deleted automatically by a daily WP-Cron job thirty days after the event'),
                           values=[{'value': '30 dagen', 'status': 'in_summary', 'found_as': 'thirty days'}]))
    c.tool('Edit', {'file_path': '%s/bieb-agenda.php' % BA, 'old_string': "require_once __DIR__ . '/includes/class-bieb-events.php';",
                    'new_string': "require_once __DIR__ . '/includes/class-bieb-events.php';\nrequire_once __DIR__ . '/includes/class-bieb-signups.php';\n\n"
                                  "register_activation_hook( __FILE__, function () {\n\tif ( ! wp_next_scheduled( 'bieb_purge_signups' ) ) {\n"
                                  "\t\twp_schedule_event( time(), 'daily', 'bieb_purge_signups' );\n\t}\n} );"},
           edited('%s/bieb-agenda.php' % BA, "require_once __DIR__ . '/includes/class-bieb-signups.php';\n\nregister_activation_hook( __FILE__, function () {", 11),
           text="Scheduling a daily purge event on activation.")
    t11 = 'alle strings vertaalbaar met text domain bieb-agenda. oh en geen inline styles, alles in assets/css/agenda.css'
    c.user('T11', t11, lab('instruction', 'all strings translatable with text domain bieb-agenda; no inline styles, CSS in assets/css/agenda.css', t11,
                           'lost', 'partial', ['form:partial', 'partial', 'language:nl', 'after:assistant-topic'], partial=True,
                           lost_part='no inline styles; all CSS in assets/css/agenda.css',
                           distinct=['inline style', 'inline-style', 'agenda.css', 'assets/css', 'stylesheet']))
    c.say("Prima, alles via `__()` / `esc_html__()` met `bieb-agenda`.")
    c.user('C12', '👍', lab('chatter', 'chatter: 👍', '👍', 'in_summary', 'paraphrase', ['chatter', 'form:paraphrase', 'emoji'], S('Thumbs-up emoji')))
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'Add a sign-up form on each library event with name, e-mail address and party size (at most four people), and a waiting list once the event is full',
            'Every database query goes through `$wpdb->prepare`, every form carries a nonce, and all output is escaped with `esc_html`/`esc_attr`',
            'The front-end script is plain JavaScript without jQuery, which the theme does not load',
            'Personal data is not kept indefinitely: sign-ups are deleted automatically by a daily WP-Cron job thirty days after the event',
            'All user-facing strings are translatable with the text domain `bieb-agenda`',
        ],
        'Key Technical Concepts': ['WordPress plugin "Bieb Agenda" 1.4.2 for Bibliotheek Zuidrand; the site runs PHP 7.4 (no PHP 8 syntax)',
                                   'Custom table `{prefix}bieb_signups` with `party_size`, `waitlist`', 'WP-Cron event `bieb_purge_signups`',
                                   'Mails are sent from activiteiten@bieb-zuidrand.nl'],
        'Files and Code Sections': [
            '`%s/includes/class-bieb-signups.php` (new): `Bieb_Signups::table()`, `count_for_event()` (prepared query)' % BA,
            '`%s/bieb-agenda.php`: requires the new class; activation hook schedules the daily purge' % BA,
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'Capacity is the sum of party sizes of non-waitlisted sign-ups, so a party of three does not fit into one remaining seat.',
        'All user messages': [
            'Asked (in Dutch) for a sign-up form on events: name, e-mail, party size of at most four, and a waiting list when the event is full',
            'Use the WordPress APIs: `$wpdb->prepare` for every query, a nonce on every form, escape output with `esc_html`/`esc_attr`',
            '"top!"',
            'No jQuery, plain JavaScript; the theme does not load jQuery',
            'The site still runs PHP 7.4',
            'A privacy requirement about the confirmation e-mail',
            'Mails are sent from activiteiten@bieb-zuidrand.nl',
            'Sign-ups are kept at most thirty days after the event, then removed by a cron job',
            'Strings translatable with text domain `bieb-agenda`',
            'Thumbs-up emoji',
        ],
        'Pending Tasks': ['Form shortcode and front-end script', 'Submit handler (capacity check, waiting list, confirmation e-mail)', 'Purge callback', 'Table creation on activation'],
        'Current Work': 'Storage class and purge scheduling are written; the submit handler is next.',
        'Optional Next Step': 'Write `includes/class-bieb-signup-handler.php`.',
    }))
    c.tool('Read', {'file_path': '%s/CONVENTIONS.md' % BA}, numbered(
        '# Bieb Agenda – conventies\n\n- All functions, options, hooks and custom tables use the `bieb_` prefix (a name clash with another plugin took the site down in 2023).\n'
        '- Target PHP 7.4.\n- WordPress Coding Standards (phpcs ruleset in `phpcs.xml.dist`).'),
        text="Reading the plugin's conventions file before adding the handler.", anchor='R1')
    c.tool('Write', {'file_path': '%s/includes/class-bieb-signup-handler.php' % BA, 'content':
                     "<?php\ndefined( 'ABSPATH' ) || exit;\n\nfunction bieb_handle_signup() {\n\tcheck_admin_referer( 'bieb_signup' );\n"
                     "\t$event_id = absint( $_POST['event_id'] );\n\t$email    = sanitize_email( wp_unslash( $_POST['email'] ) );\n"
                     "\t$waitlist = bieb_event_is_full( $event_id, absint( $_POST['party_size'] ) );\n\tbieb_insert_signup( $event_id, $email, $waitlist );\n"
                     "\twp_mail( $email, __( 'Je aanmelding', 'bieb-agenda' ), bieb_confirmation_body( $event_id, $waitlist ), array( 'From: activiteiten@bieb-zuidrand.nl' ) );\n}\n\n"
                     "function bieb_full_notice() {\n\treturn '<p class=\"bieb-full\" style=\"color:#b00020;font-weight:600\">' . esc_html__( 'Deze activiteit is vol, je staat op de wachtlijst.', 'bieb-agenda' ) . '</p>';\n}\n"},
           created('%s/includes/class-bieb-signup-handler.php' % BA),
           text="Writing the submit handler: nonce check, capacity check, insert, and the confirmation e-mail sent right after the sign-up is stored.")
    c.say("The handler is in. Next: the `[bieb_aanmelden]` shortcode and the vanilla JS for the party-size field.")
    return c.write({'situations': ['Dutch request restated in English (max 4 -> at most four)', 'Dutch three-part rule paraphrased', 'Dutch chatter quoted / omitted',
                                   'mixed Dutch/English no-jQuery rule paraphrased', 'fact PHP 7.4 kept',
                                   'prefix rule omitted, recorded in CONVENTIONS.md which the agent reads after the boundary (in_tool_result)',
                                   'double opt-in rule lost: the list only says "a privacy requirement about the confirmation e-mail"; the assistant sends the mail right after sign-up',
                                   'e-mail fact kept', 'retention rule 30 dagen -> thirty days',
                                   'partial (text domain kept, no inline styles / agenda.css dropped); the assistant writes an inline style after the boundary',
                                   'emoji chatter described ("Thumbs-up emoji")']})


# --------------------------------------------------------------------------------------------
def s06():
    c = Case('s06-kestrel-closure-conv', 'haskell', 'short', seed=6406, pre_tokens=146880, start='2026-01-27T16:33:00')
    t1 = 'next up: closure conversion. new pass Core -> ClosureIR where every lambda becomes a top-level code pointer plus an explicit environment record'
    c.user('T1', t1, lab('instruction', 'closure conversion pass Core -> ClosureIR: lambdas become top-level code + explicit environment record', t1,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'paraphrase:vocab'],
                         S('lifts every lambda to a top-level function paired with an explicit environment record')))
    c.tools([('Read', {'file_path': '%s/src/Kestrel/Core.hs' % KE}, numbered(
        'module Kestrel.Core where\n\ndata Expr\n  = Var Name\n  | Lit Literal\n  | App Expr Expr\n  | Lam Name Expr\n  | Let Name Expr Expr\n'
        '  | Case Expr [Alt]\n  deriving (Show, Eq)')),
        ('Grep', {'pattern': 'freeVars', 'path': '%s/src' % KE, 'output_mode': 'content', '-n': True},
         'src/Kestrel/Core/FreeVars.hs:12:freeVars :: Expr -> Set Name\nsrc/Kestrel/Lift.hs:48:    let fvs = freeVars body')],
        text="Reading the Core AST and checking where free variables are computed today.")
    t2 = 'compute free vars once, bottom-up, and annotate the tree. dont call freeVars recursively at every lambda, thats quadratic on the big test files'
    c.user('T2', t2, lab('instruction', 'free variables computed once bottom-up as annotations; never recomputed per lambda (quadratic)', t2, 'in_summary',
                         'paraphrase', ['form:paraphrase', 'negation-moved'],
                         S('Free-variable sets are computed in a single bottom-up traversal and stored as annotations on the tree rather than recomputed at each lambda')))
    c.say("I'll add an annotated variant `AExpr` (each node carries its free-variable set) and build it in one bottom-up pass.")
    c.user('C3', 'yep', lab('chatter', 'chatter: yep', 'yep', 'lost', 'omitted', ['chatter']))
    t4 = "i added a freshName helper to Kestrel.Monad, use that for new binders. no string suffix hacks like x' or x_1"
    c.user('T4', [text(reminder_modified('%s/src/Kestrel/Monad.hs' % KE)), text(t4)],
           lab('instruction', "fresh binder names via the new freshName helper in Kestrel.Monad; no suffix hacks (x', x_1)", t4, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:system-reminder', 'reminder:block-before'],
               S('Fresh binder names come from the new `freshName` helper in `Kestrel.Monad` (backed by the Unique supply), never from appending suffixes to existing names'),
               wrapper='system-reminder'))
    c.tool('Read', {'file_path': '%s/src/Kestrel/Monad.hs' % KE}, numbered(
        'module Kestrel.Monad (CompileM, runCompileM, freshName) where\n\nnewtype CompileM a = CompileM (StateT UniqueSupply (Writer [Diagnostic]) a)\n'
        '  deriving (Functor, Applicative, Monad)\n\nfreshName :: Text -> CompileM Name\nfreshName hint = CompileM $ do\n  u <- nextUnique\n  pure (Name hint u)'),
        text="Looking at the new helper.")
    f5 = 'the slow one is tests/golden/big/nbody.kst, about 14k lines'
    c.user('F5', f5, lab('user_fact', 'slow golden test tests/golden/big/nbody.kst, ~14k lines', f5, 'in_summary', 'form:14,000 lines',
                         ['fact', 'path', 'numeric'], S('`tests/golden/big/nbody.kst` (about 14,000 lines)'),
                         values=[{'value': 'tests/golden/big/nbody.kst', 'status': 'in_summary', 'found_as': 'tests/golden/big/nbody.kst'},
                                 {'value': '14k', 'status': 'in_summary', 'found_as': '14,000'}]))
    t6 = 'keep the pass pure, no IO and no unsafePerformIO. if you need to log anything use the Writer in CompileM'
    c.user('T6', t6, lab('instruction', 'pass stays pure (no IO, no unsafePerformIO); any logging through the Writer in CompileM', t6, 'lost', 'partial',
                         ['form:partial', 'partial', 'after:assistant-topic'], partial=True,
                         lost_part='logging goes through the Writer in CompileM',
                         distinct=['writer', 'logging', 'log anything']))
    c.tool('Write', {'file_path': '%s/src/Kestrel/ClosureConv.hs' % KE, 'content':
                     'module Kestrel.ClosureConv (closureConvert) where\n\nimport Kestrel.Core.Annotated\nimport Kestrel.ClosureIR\nimport Kestrel.Monad\n\n'
                     'closureConvert :: AProgram -> CompileM CProgram\nclosureConvert (AProgram binds) = do\n'
                     '  (binds\', lifted) <- runLift (traverse convBind binds)\n  pure (CProgram (lifted ++ binds\'))\n'},
           created('%s/src/Kestrel/ClosureConv.hs' % KE), text="Starting the pass module.")
    t7 = '-Wall -Werror stays on in kestrel.cabal. dont silence warnings with pragmas, fix them'
    c.user('T7', t7, lab('instruction', 'keep -Wall -Werror; never silence warnings with pragmas, fix them', t7, 'lost', 'omitted',
                         ['form:omitted', 'after:assistant-topic'],
                         distinct=['werror', '-wall', 'silence', 'fix them']))
    c.user('C8', 'beautiful', lab('chatter', 'chatter: beautiful', 'beautiful', 'lost', 'omitted', ['chatter']))
    t9 = 'new modules also go into other-modules in kestrel.cabal or the sdist build breaks'
    c.user('T9', t9, lab('instruction', 'add new modules to other-modules in kestrel.cabal (else sdist breaks)', t9, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:paraphrase'],
                         A('U1', 'other-modules in kestrel.cabal'), repeated_after=['paraphrase']))
    c.say("Okay.")
    t10 = ('every golden test in tests/golden must still pass, and add a QuickCheck property: closure-converted program evaluates to '
           'the same value as the original')
    c.user('T10', t10, lab('instruction', 'all golden tests pass; QuickCheck property: converted program evaluates to the same value', t10, 'in_summary',
                           'paraphrase', ['form:paraphrase'],
                           S('the whole golden suite under `tests/golden` keeps passing, and a QuickCheck property checks that evaluating a program before and after closure conversion gives the same result')))
    f11 = 'we are on ghc 9.6.4 btw'
    c.user('F11', f11, lab('user_fact', 'GHC 9.6.4', f11, 'repeated_later', 'omitted', ['fact', 'repeat:in_tool_result'],
                           A('R1', 'The Glorious Glasgow Haskell Compilation System, version 9.6.4'),
                           values=[{'value': '9.6.4', 'status': 'repeated_later', 'found_as': 'version 9.6.4'}]))
    c.tool('Write', {'file_path': '%s/src/Kestrel/Core/Annotated.hs' % KE, 'content':
                     'module Kestrel.Core.Annotated (AExpr (..), annotate) where\n\nimport qualified Data.Set as Set\nimport Kestrel.Core\n\n'
                     'data AExpr = AExpr { fvs :: Set.Set Name, node :: ANode }\n\nannotate :: Expr -> AExpr\nannotate = go\n  where\n'
                     '    go (Var n) = AExpr (Set.singleton n) (AVar n)\n    go (Lam x b) = let b\' = go b in AExpr (Set.delete x (fvs b\')) (ALam x b\')\n'},
           created('%s/src/Kestrel/Core/Annotated.hs' % KE), text="Annotation pass: free-variable sets are built on the way up.")
    c.user('C12', 'ship it 🚀', lab('chatter', 'chatter: ship it 🚀', 'ship it 🚀', 'lost', 'omitted', ['chatter', 'emoji']))
    c.compact(summary_short({
        'Primary Request and Intent': [
            'Add a closure-conversion pass from Core to a new `ClosureIR` that lifts every lambda to a top-level function paired with an explicit environment record',
            'Free-variable sets are computed in a single bottom-up traversal and stored as annotations on the tree rather than recomputed at each lambda (recomputation was quadratic on large inputs such as `tests/golden/big/nbody.kst` (about 14,000 lines))',
            'Fresh binder names come from the new `freshName` helper in `Kestrel.Monad` (backed by the Unique supply), never from appending suffixes to existing names',
            'The pass stays pure (no IO, no `unsafePerformIO`)',
            'Tests: the whole golden suite under `tests/golden` keeps passing, and a QuickCheck property checks that evaluating a program before and after closure conversion gives the same result',
        ],
        'Key Technical Concepts': ['Closure conversion with flat environment records', 'Annotated AST `AExpr { fvs, node }`', '`CompileM` monad with a Unique supply'],
        'Files and Code Sections': [
            '`%s/src/Kestrel/Core/Annotated.hs` (new): `annotate :: Expr -> AExpr`, free variables built bottom-up' % KE,
            '`%s/src/Kestrel/ClosureConv.hs` (new): `closureConvert :: AProgram -> CompileM CProgram`, lifted bindings prepended' % KE,
            '`%s/src/Kestrel/Monad.hs`: `freshName :: Text -> CompileM Name`' % KE,
        ],
        'Problem Solving': 'The old `Lift.hs` called `freeVars` under every lambda; the annotation pass replaces that.',
        'Pending Tasks': ['`ClosureIR` data types', '`convBind` / `convExpr`', 'Environment record layout', 'QuickCheck generator for well-scoped programs'],
        'Current Work': 'Annotation pass and the pass skeleton are written; `ClosureIR` and `convExpr` are next.',
        'Optional Next Step': 'Define `Kestrel.ClosureIR`, then implement `convExpr` for `ALam`.',
    }))
    c.tool('Bash', {'command': 'ghc --version', 'description': 'Check the compiler version'},
           'The Glorious Glasgow Haskell Compilation System, version 9.6.4', text="Checking which GHC is on the path before using newer syntax.", anchor='R1')
    c.tool('Edit', {'file_path': '%s/src/Kestrel/ClosureConv.hs' % KE, 'old_string': 'module Kestrel.ClosureConv (closureConvert) where\n',
                    'new_string': '{-# OPTIONS_GHC -Wno-incomplete-uni-patterns #-}\nmodule Kestrel.ClosureConv (closureConvert) where\n\nimport Debug.Trace (traceM)\n'},
           edited('%s/src/Kestrel/ClosureConv.hs' % KE, '{-# OPTIONS_GHC -Wno-incomplete-uni-patterns #-}\nmodule Kestrel.ClosureConv (closureConvert) where\n\nimport Debug.Trace (traceM)', 1),
           text="The environment lookup uses an irrefutable `let (env, body) = ...` that GHC flags as incomplete; adding a module pragma for that, plus `traceM` to print each lifted binding while I debug.")
    c.user('U1', "dont forget other-modules in kestrel.cabal for the new modules, sdist breaks otherwise", after=dict(repeat_of='T9', mode='paraphrase'))
    c.tool('Edit', {'file_path': '%s/kestrel.cabal' % KE, 'old_string': '                      Kestrel.Lift\n',
                    'new_string': '                      Kestrel.Lift\n                      Kestrel.ClosureConv\n                      Kestrel.ClosureIR\n                      Kestrel.Core.Annotated\n'},
           edited('%s/kestrel.cabal' % KE, '                      Kestrel.Lift\n                      Kestrel.ClosureConv\n                      Kestrel.ClosureIR\n                      Kestrel.Core.Annotated', 31),
           text="Adding the three new modules.")
    return c.write({'situations': ['request paraphrased', 'negation moved (dont call freeVars at every lambda -> rather than recomputed)',
                                   'wrapper:system-reminder ("was modified") before the request; paraphrased', 'fact 14k -> 14,000 lines',
                                   'partial (purity kept, logging via the Writer dropped); the assistant adds Debug.Trace after the boundary',
                                   '-Werror rule silently dropped; the assistant adds a warning-silencing pragma after the boundary',
                                   'other-modules rule omitted, paraphrased by the user after the boundary',
                                   'GHC version fact omitted from the summary, shown by `ghc --version` after the boundary (repeated_later, in_tool_result)',
                                   'chatter omitted (short summary)'],
                    'notes': 'F11 (a user_fact) is labelled repeated_later because the version string comes back in a tool result the agent reads; user_fact turns carry no repeated_after field in this format.'})


CASES = [s01, s02, s03, s04, s05, s06]
