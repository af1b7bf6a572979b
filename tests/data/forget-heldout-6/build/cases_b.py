"""v07-v12. Every label below is the labeller's judgement, written by hand. Every turn, tool call,
tool result and summary here was written for this set."""
from builder import (Case, lab, S, A, ide_opened, ide_selection, reminder_modified, reminder_todo_empty, text, image, numbered,
                     edited, created, TODO_OK, todos, command, summary_20, summary_21, summary_short)
from cases_a import chat

BB = '/home/mads/proj/braetspil-booking'
FR = '/home/owen/models/floodroute'
AD = '/Users/tyler/it/district-ad-provision'
PS = '/home/arjun/dev/pedalshare-api'
WH = '/home/ruth/hacs/warmth-heatpump'
CP = '/Users/elin/obs/cepheid-photometry'


# --------------------------------------------------------------------------------------------
def v07():
    c = Case('v07-braetspil-elm-grid', 'elm', '2.1', seed=7607, pre_tokens=153140, start='2026-03-09T12:20:00')
    t1 = 'Vi skal have et bordoversigt-grid i Elm: borde som kolonner, halve timer som rækker, fra kl. 12 til 23'
    c.user('T1', t1, lab('instruction', 'Elm table grid: tables as columns, half-hour rows, 12-23', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:da', 'translated'],
                         S('A booking grid in Elm with one column per table and one row per half hour, covering 12:00 to 23:00')))
    c.tools([('Bash', {'command': 'wc -l src/*.elm', 'description': 'Count lines of the Elm sources'}, '  903 src/Main.elm\n   41 src/Api.elm\n  944 total'),
             ('Read', {'file_path': '%s/src/Api.elm' % BB}, numbered(
                 'port module Api exposing (..)\n\nport requestBookings : String -> Cmd msg\n\nport receiveBookings : (Json.Decode.Value -> msg) -> Sub msg'))],
            text="Jeg kigger på koden.")
    t2 = "no ports for the booking calls, plain elm/http with proper JSON decoders"
    c.user('T2', t2, lab('instruction', 'no ports for booking calls; elm/http with JSON decoders', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved'],
                         S('Booking requests go through `elm/http` with JSON decoders instead of ports')))
    chat(c, 'C3', 'tak!', 'Thanked the assistant (in Danish)', 'paraphrase', ['chatter', 'language:da'])
    t4 = 'Et bord kan højst bookes 3 timer ad gangen, og de store borde (8 pladser) kun for grupper på mindst 5'
    c.user('T4', t4, lab('instruction', 'max 3 hours per booking; large 8-seat tables only for groups of 5+', t4, 'lost', 'partial',
                         ['form:partial', 'partial', 'language:da'], partial=True,
                         lost_part='the large eight-seat tables only for groups of at least five',
                         distinct=['8 pladser', 'mindst 5', 'eight-seat', 'at least five', 'store borde', 'group size']))
    c.say("Forstået, max tre timer.")
    f5 = "API'en kører på https://api.braetspilcafe.dk/v2"
    c.user('F5', f5, lab('user_fact', 'API at https://api.braetspilcafe.dk/v2', f5, 'in_summary', 'form:https://api.braetspilcafe.dk/v2', ['fact', 'hostname', 'language:da'],
                         S('`https://api.braetspilcafe.dk/v2`'),
                         values=[{'value': 'https://api.braetspilcafe.dk/v2', 'status': 'in_summary', 'found_as': 'https://api.braetspilcafe.dk/v2'}]))
    sel = 'update : Msg -> Model -> ( Model, Cmd Msg )\nupdate msg model =\n    case msg of'
    t6 = "split this update into per-page modules pls, Main.elm is 900 lines"
    c.user('T6', [ide_selection('%s/src/Main.elm' % BB, 212, 214, sel), text(t6)],
           lab('instruction', 'split update into per-page modules (Main.elm is 900 lines)', t6, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_selection', 'paraphrase:passive', 'numbers-as-words'],
               S('`Main.elm` (some nine hundred lines) is to be broken up so that every page has its own module with its own `update`'),
               wrapper='ide_selection', values=[{'value': '900', 'status': 'in_summary', 'found_as': 'nine hundred'}]))
    chat(c, 'C7', 'haha the Elm compiler is nicer to me than my landlord', 'Joked that the Elm compiler is friendlier than their landlord', 'paraphrase',
         ['chatter', 'joke'])
    t8 = "every user-facing string goes through Translations.elm, we ship Danish and English"
    c.user('T8', t8, lab('instruction', 'all UI strings via Translations.elm (Danish + English)', t8, 'lost', 'omitted',
                         ['form:omitted', 'summary:mentions-without-content', 'after:assistant-topic'],
                         distinct=['translations.elm', 'translation', 'i18n', 'danish and english']))
    f9 = 'Åbningstider: lukket om mandagen, så ingen mandag-kolonne'
    c.user('F9', f9, lab('user_fact', 'closed on Mondays (no Monday column)', f9, 'in_summary', 'form:closed on Mondays', ['fact', 'language:da'],
                         S('the café is closed on Mondays, so Monday is not shown'),
                         values=[{'value': 'lukket om mandagen', 'status': 'in_summary', 'found_as': 'closed on Mondays'}]))
    t10 = "run elm-review with our config before you tell me it's done"
    c.user('T10', t10, lab('instruction', 'run elm-review before reporting done', t10, 'repeated_later', 'omitted',
                           ['form:omitted', 'repeat:paraphrase'],
                           A('U1', 'kør elm-review før du siger det er færdigt'), repeated_after=['paraphrase']))
    chat(c, 'C11', '👌', tags=['chatter', 'emoji'])
    t12 = "keep the colours: free = #2e7d32, held = #f9a825, booked = #c62828"
    c.user('T12', t12, lab('instruction', 'slot colours free #2e7d32, held #f9a825, booked #c62828', t12, 'in_summary', 'paraphrase',
                           ['form:paraphrase', 'paraphrase:reordered'],
                           S('Slot colours: `#c62828` booked, `#f9a825` held, `#2e7d32` free'),
                           values=[{'value': '#2e7d32', 'status': 'in_summary', 'found_as': '#2e7d32'},
                                   {'value': '#f9a825', 'status': 'in_summary', 'found_as': '#f9a825'},
                                   {'value': '#c62828', 'status': 'in_summary', 'found_as': '#c62828'}]))
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'A booking grid in Elm with one column per table and one row per half hour, covering 12:00 to 23:00; the café is closed on Mondays, so Monday is not shown',
            'Booking requests go through `elm/http` with JSON decoders instead of ports',
            'A single booking may last at most three hours',
            '`Main.elm` (some nine hundred lines) is to be broken up so that every page has its own module with its own `update`',
            'Slot colours: `#c62828` booked, `#f9a825` held, `#2e7d32` free',
        ],
        'Key Technical Concepts': ['Elm 0.19.1, `elm/http`, `Json.Decode.Pipeline`', 'Backend at `https://api.braetspilcafe.dk/v2`'],
        'Files and Code Sections': [
            '`%s/src/Main.elm`: 903 lines, `update` at line 212' % BB,
            '`%s/src/Api.elm`: port module, to be replaced' % BB,
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'A slot is keyed by (table id, half-hour index); a booking covers consecutive indices.',
        'All user messages': [
            'Asked (in Danish) for a table grid: tables as columns, half hours as rows, 12 to 23',
            'Use elm/http with decoders, not ports',
            'Thanked the assistant (in Danish)',
            'Gave booking limits (in Danish)',
            'Gave the API address (in Danish)',
            'With `update` selected: split Main.elm into page modules',
            'Joked that the Elm compiler is friendlier than their landlord',
            'Said something about the UI text',
            'Closed on Mondays (in Danish)',
            'Mentioned a review step',
            'Gave the slot colours',
        ],
        'Pending Tasks': ['`Api.elm` with elm/http', 'Page modules', 'Grid view'],
        'Current Work': 'About to rewrite `Api.elm`.',
        'Optional Next Step': 'Write the bookings decoder and `getBookings`.',
    }))
    c.tool('Write', {'file_path': '%s/src/Api.elm' % BB, 'content':
                     'module Api exposing (getBookings)\n\nimport Http\nimport Json.Decode as D\n\n\ngetBookings : (Result Http.Error (List Booking) -> msg) -> Cmd msg\n'
                     'getBookings toMsg =\n    Http.get\n        { url = "https://api.braetspilcafe.dk/v2/bookings"\n        , expect = Http.expectJson toMsg (D.list bookingDecoder)\n        }\n'},
           created('%s/src/Api.elm' % BB), text="Replacing the ports with `elm/http`.")
    c.tool('Write', {'file_path': '%s/src/Page/Grid.elm' % BB, 'content':
                     'module Page.Grid exposing (view)\n\nimport Html exposing (..)\n\n\nview : Model -> Html Msg\nview model =\n'
                     '    div [] [ h1 [] [ text "Book a table" ], grid model ]\n'},
           created('%s/src/Page/Grid.elm' % BB), text="First page module: the grid.")
    c.user('U1', 'kør elm-review før du siger det er færdigt', after=dict(repeat_of='T10', mode='paraphrase'))
    c.tool('Bash', {'command': 'npx elm-review', 'description': 'Run elm-review'}, 'I found no errors!')
    c.say("elm-review is clean. Next: moving the booking messages into `Page.Grid`.")
    return c.write({'situations': ['Danish request restated in English', 'negation moved (no ports -> instead of ports)', 'Danish thanks described',
                                   'Danish partial: 3-hour maximum kept, large-table group minimum dropped', 'URL fact kept',
                                   'wrapper:ide_selection request in passive voice (900 -> nine hundred)', 'joke described',
                                   'translation rule lost ("Said something about the UI text"); the assistant hard-codes an English heading',
                                   'Danish fact restated, merged into another bullet', 'review rule mentioned only, repeated by the user in Danish',
                                   'emoji chatter not listed (lost)', 'colour values reordered'],
                    'notes': 'Unsure: T10 was written in English and comes back in Danish; counted as a paraphrase. F9 is restated inside the grid bullet.'})


# --------------------------------------------------------------------------------------------
def v08():
    c = Case('v08-floodroute-muskingum-fortran', 'fortran', '2.0', seed=7608, pre_tokens=170015, start='2026-01-28T09:00:00')
    t1 = "add Muskingum-Cunge routing to the river model, it replaces the kinematic wave in route.f90"
    c.user('T1', t1, lab('instruction', 'Muskingum-Cunge routing replacing the kinematic wave in route.f90', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:passive'],
                         S('The kinematic-wave routing in `route.f90` is to be replaced by Muskingum-Cunge routing')))
    c.tools([('Read', {'file_path': '%s/src/route.f90' % FR}, numbered(
        'module route\n  implicit none\ncontains\n  subroutine route_reach(qin, qout, dx, dt, n)\n    integer, intent(in) :: n\n'
        '    real(8), intent(in) :: qin(n), dx, dt\n    real(8), intent(out) :: qout(n)\n    ! kinematic wave\n  end subroutine route_reach\nend module route')),
        ('Bash', {'command': 'grep -rn "COMMON" src/ | head', 'description': 'Look for COMMON blocks'}, 'src/legacy/params.f:12:      COMMON /PARAMS/ G, RHO')],
        text="Reading the routing module.")
    t2 = "modern fortran only: free form, modules, implicit none in every one, and no new COMMON blocks"
    c.user('T2', t2, lab('instruction', 'modern Fortran: free form, modules, implicit none everywhere, no new COMMON blocks', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:folded', 'negation-moved'],
                         S('written as free-form modules that each declare `implicit none`, with COMMON blocks kept out of any new code')))
    f3 = 'compiler is gfortran 13.2, debug builds use -O2 -fcheck=bounds'
    c.user('F3', f3, lab('user_fact', 'gfortran 13.2; debug flags -O2 -fcheck=bounds', f3, 'in_summary', 'form:gfortran 13.2 / -O2 -fcheck=bounds', ['fact'],
                         S('gfortran 13.2 (debug: `-O2 -fcheck=bounds`)'),
                         values=[{'value': 'gfortran 13.2', 'status': 'in_summary', 'found_as': 'gfortran 13.2'},
                                 {'value': '-O2 -fcheck=bounds', 'status': 'in_summary', 'found_as': '-O2 -fcheck=bounds'}]))
    t4 = "the Courant number has to stay between 0.5 and 1. if a reach breaks that, subdivide dt, not the reach length"
    c.user('T4', t4, lab('instruction', 'Courant number within 0.5-1; subdivide dt, not the reach length', t4, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:reordered', 'negation-moved'],
                         S('Reach lengths are left alone; when a reach falls outside 0.5 ≤ C ≤ 1 the time step is split into sub-steps instead')))
    chat(c, 'C5', "rain coming down sideways here in Aberystwyth, fitting for a flood model lol", 'Joked about the rain in Aberystwyth', 'paraphrase',
         ['chatter', 'joke'])
    t6 = "double precision via iso_fortran_env real64 kind, never 'double precision' or real*8"
    c.user('T6', t6, lab('instruction', 'double precision as real64 from iso_fortran_env; not double precision / real*8', t6, 'lost', 'partial',
                         ['form:partial', 'partial', 'after:assistant-topic'], partial=True,
                         lost_part="the kind comes from iso_fortran_env real64, never 'double precision' or real*8",
                         distinct=['iso_fortran_env', 'real64', 'real*8']))
    c.say("Ok.")
    t7 = "tests use test-drive through fpm, not pFUnit"
    c.user('T7', [ide_opened('%s/test/test_route.f90' % FR), text(t7)],
           lab('instruction', 'tests with test-drive via fpm, not pFUnit', t7, 'repeated_later', 'omitted',
               ['form:omitted', 'wrapper:ide_opened_file', 'repeat:in_tool_result'],
               A('R1', 'Unit tests use test-drive and run with `fpm test`; pFUnit is not used.'), repeated_after=['in_tool_result'],
               wrapper='ide_opened_file'))
    f8 = 'validation gauge is station 62001, Cefn Brwyn'
    c.user('F8', f8, lab('user_fact', 'validation gauge station 62001 Cefn Brwyn', f8, 'lost', 'omitted', ['fact', 'summary:mentions-without-content'],
                         distinct=['62001', 'cefn', 'brwyn'],
                         values=[{'value': '62001', 'status': 'lost', 'found_as': None},
                                 {'value': 'Cefn Brwyn', 'status': 'lost', 'found_as': None}]))
    t9 = "write the routed hydrographs as NetCDF following CF-1.8, not CSV"
    c.user('T9', t9, lab('instruction', 'routed hydrographs as CF-1.8 NetCDF, not CSV', t9, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:nominalised', 'negation-moved'],
                         S('Output of the routed hydrographs: CF-1.8-compliant NetCDF rather than CSV')))
    chat(c, 'C10', 'ta')
    t11 = "don't change the public interface of route_reach, the calibration scripts call it from python through f2py"
    c.user('T11', t11, lab('instruction', 'keep route_reach public interface unchanged (called from Python via f2py)', t11, 'in_summary', 'paraphrase',
                           ['form:paraphrase', 'negation-moved'],
                           S('`route_reach` keeps its current argument list, because the Python calibration scripts reach it through f2py')))
    t12 = "also a mass balance check: inflow minus outflow minus storage change under 0.1% per event, abort the run otherwise"
    c.user('T12', t12, lab('instruction', 'mass balance check per event (< 0.1%), abort otherwise', t12, 'lost', 'omitted', ['form:omitted', 'summary:mentions-without-content'],
                           distinct=['mass balance', 'storage change', '0.1%', 'abort']))
    chat(c, 'C13', 'legend, thanks', 'Thanked the assistant', 'paraphrase', ['chatter', 'slang'])
    c.compact(summary_20(
        """Chronological review:

1. The user asked for Muskingum-Cunge routing in place of the kinematic wave; I read `route.f90` and found a legacy COMMON block.
2. The user set the coding style, the compiler, and the Courant-number rule.
3. The user asked for double precision, and (with the test file open) said how tests are run.
4. The user gave a validation gauge, the output format, the interface constraint, and one more check.""",
        {
            'Primary Request and Intent': [
                'The kinematic-wave routing in `route.f90` is to be replaced by Muskingum-Cunge routing, written as free-form modules that each declare `implicit none`, with COMMON blocks kept out of any new code',
                'Reach lengths are left alone; when a reach falls outside 0.5 ≤ C ≤ 1 the time step is split into sub-steps instead',
                'All real variables use double precision',
                'Output of the routed hydrographs: CF-1.8-compliant NetCDF rather than CSV',
                '`route_reach` keeps its current argument list, because the Python calibration scripts reach it through f2py',
            ],
            'Key Technical Concepts': ['gfortran 13.2 (debug: `-O2 -fcheck=bounds`)', 'Muskingum-Cunge coefficients C0, C1, C2 from celerity and reach length',
                                       'netcdf-fortran'],
            'Files and Code Sections': [
                '`%s/src/route.f90`: module `route`, `route_reach(qin, qout, dx, dt, n)`' % FR,
                '`%s/src/legacy/params.f`: old COMMON block `/PARAMS/`, left as is' % FR,
                '`%s/test/test_route.f90`: opened by the user' % FR,
            ],
            'Errors and fixes': ['None.'],
            'Problem Solving': 'Celerity is taken from the reference discharge of each reach; the Courant number follows from it.',
            'All user messages': [
                'Add Muskingum-Cunge routing, replacing the kinematic wave in route.f90',
                'Modern Fortran: free form, modules, implicit none, no new COMMON blocks',
                'gfortran 13.2, debug flags',
                'Courant number between 0.5 and 1; subdivide the time step, not the reach',
                'Joked about the rain in Aberystwyth',
                'Asked for double precision',
                'With the test file open: said how the tests are run',
                'Gave a gauge for validation',
                'NetCDF CF-1.8 output, not CSV',
                'Keep the `route_reach` interface, f2py calls it',
                'Asked for one more check',
                'Thanked the assistant',
            ],
            'Pending Tasks': ['Muskingum-Cunge coefficients', 'Sub-stepping', 'NetCDF writer', 'Tests'],
            'Current Work': 'About to rewrite the body of `route_reach`.',
            'Optional Next Step': 'Compute C0–C2 per reach inside `route_reach`.',
        }))
    c.tool('Read', {'file_path': '%s/CONTRIBUTING.md' % FR}, numbered(
        '# Contributing\n\n- Build with `fpm build`.\n- Unit tests use test-drive and run with `fpm test`; pFUnit is not used.'),
        text="Checking how tests are run here.", anchor='R1')
    c.tool('Edit', {'file_path': '%s/src/route.f90' % FR, 'old_string': '    ! kinematic wave',
                    'new_string': '    double precision :: c0, c1, c2, k, x\n    ! Muskingum-Cunge coefficients per reach'},
           edited('%s/src/route.f90' % FR, '    double precision :: c0, c1, c2, k, x\n    ! Muskingum-Cunge coefficients per reach', 8))
    c.say("Coefficient variables are declared; next I compute K and X from celerity and fill `qout`.")
    return c.write({'situations': ['request in passive voice', 'style rule folded into a longer sentence, negation moved', 'compiler fact kept',
                                   'Courant rule reordered, negation moved', 'joke described',
                                   'partial: double precision kept, real64 kind from iso_fortran_env dropped; the assistant declares double precision after the boundary',
                                   'wrapper:ide_opened_file test rule mentioned only, recorded in CONTRIBUTING.md read after the boundary',
                                   'gauge fact lost (mentioned only)', 'output rule nominalised', '"ta" not listed (lost)',
                                   'interface rule, negation moved', 'mass-balance rule lost ("Asked for one more check")', 'thanks described'],
                    'notes': 'Unsure: T6 — "double precision" is kept in words, but the turn is about how it is declared; the declaration rule is dropped, so partial.'})


# --------------------------------------------------------------------------------------------
def v09():
    c = Case('v09-district-ad-rollover', 'pwsh', '2.1', seed=7609, pre_tokens=159870, start='2026-07-27T15:05:00', version='2.1.101')
    t1 = ("script the fall rollover: read the SIS export CSV, create AD accounts for new students, move returning ones to their "
          "new grade OU, and disable the leavers")
    c.user('T1', t1, lab('instruction', 'fall rollover: SIS CSV -> create new students, move returning to grade OU, disable leavers', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:vocab'],
                         S('A PowerShell script for the start-of-year rollover that takes the SIS export CSV, provisions accounts for incoming students, moves continuing students into the OU of their new grade and disables accounts of students who left')))
    c.tools([('Glob', {'pattern': '*.ps*1'}, '%s/Invoke-Rollover.ps1\n%s/RolloverTools.psm1' % (AD, AD)),
             ('Read', {'file_path': '%s/RolloverTools.psm1' % AD}, numbered('function Get-GradeOU {\n    param([int]$Grade)\n    "OU=Grade$Grade,OU=Students,DC=ad,DC=riverbend-usd,DC=org"\n}'))],
            text="Looking at what's there.")
    t2 = "never delete accounts. disable them and move them to OU=Leavers, a separate job purges them after 90 days"
    c.user('T2', t2, lab('instruction', 'never delete; disable and move to OU=Leavers (separate 90-day purge)', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved', 'paraphrase:passive'],
                         S('A leaver\'s account is disabled and moved to `OU=Leavers`; removal is left to the separate purge job after ninety days')))
    f3 = 'domain is ad.riverbend-usd.org, the DC is rb-dc01'
    c.user('F3', f3, lab('user_fact', 'domain ad.riverbend-usd.org, DC rb-dc01', f3, 'in_summary', 'form:ad.riverbend-usd.org / rb-dc01', ['fact', 'hostname'],
                         S('`ad.riverbend-usd.org`, domain controller `rb-dc01`'),
                         values=[{'value': 'ad.riverbend-usd.org', 'status': 'in_summary', 'found_as': 'ad.riverbend-usd.org'},
                                 {'value': 'rb-dc01', 'status': 'in_summary', 'found_as': 'rb-dc01'}]))
    t4 = "-WhatIf on everything through SupportsShouldProcess, and by default it does a dry run unless -Apply is passed"
    c.user('T4', t4, lab('instruction', '-WhatIf via SupportsShouldProcess; dry run by default unless -Apply', t4, 'lost', 'partial',
                         ['form:partial', 'partial', 'after:assistant-topic'], partial=True,
                         lost_part='dry run by default unless -Apply is passed',
                         distinct=['-apply', 'dry run', 'dry-run', 'dryrun']))
    c.say("Ok, `[CmdletBinding(SupportsShouldProcess)]` on every function.")
    chat(c, 'C5', 'lol the SIS vendor changed the CSV headers AGAIN without telling anyone 🙃', 'Complained that the SIS vendor changed the CSV headers again',
         'paraphrase', ['chatter', 'emoji'])
    t6 = ("usernames: first initial + last name + 2-digit grad year, lowercase, strip diacritics. if it clashes, append a number")
    c.user('T6', t6, lab('instruction', 'username = initial + surname + 2-digit grad year, lowercase, no diacritics; number on clash', t6, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:vocab'],
                         S('A username is the first initial, the surname and the two-digit graduation year, all lower case with accents removed; a taken name gets a number appended')))
    sel = "$pwd = ConvertTo-SecureString 'Welcome2025!' -AsPlainText -Force"
    t7 = ("don't hardcode initial passwords. generate random ones and write them only to the encrypted handout export, "
          "never to the transcript log")
    c.user('T7', [ide_selection('%s/Invoke-Rollover.ps1' % AD, 48, 48, sel), text(t7)],
           lab('instruction', 'random initial passwords, written only to the encrypted handout export, never to the transcript log', t7, 'lost', 'partial',
               ['form:partial', 'partial', 'wrapper:ide_selection', 'after:assistant-topic'], partial=True, wrapper='ide_selection',
               lost_part='passwords go only to the encrypted handout export, never to the transcript log',
               distinct=['handout', 'encrypted', 'transcript log', 'never to the']))
    c.say("Generating them with `RandomNumberGenerator` instead.")
    f8 = r'the SIS export lands in \\rb-files\sis\exports\students_2026-08-01.csv'
    c.user('F8', f8, lab('user_fact', r'SIS export \\rb-files\sis\exports\students_2026-08-01.csv', f8, 'in_summary', r'form:\\rb-files\sis\exports\students_2026-08-01.csv',
                         ['fact', 'path'], S(r'`\\rb-files\sis\exports\students_2026-08-01.csv`'),
                         values=[{'value': r'\\rb-files\sis\exports\students_2026-08-01.csv', 'status': 'in_summary', 'found_as': r'\\rb-files\sis\exports\students_2026-08-01.csv'}]))
    chat(c, 'C9', 'k')
    t10 = "PowerShell 7 only, and use the ActiveDirectory module, no ADSI"
    c.user('T10', t10, lab('instruction', 'PowerShell 7 with the ActiveDirectory module; no ADSI', t10, 'repeated_later', 'omitted',
                           ['form:omitted', 'repeat:in_tool_result'],
                           A('R1', 'Requires PowerShell 7.4+ and the RSAT ActiveDirectory module. Do not use [ADSI].'), repeated_after=['in_tool_result']))
    f11 = 'staff notifications go to helpdesk@riverbend-usd.org'
    c.user('F11', f11, lab('user_fact', 'notifications to helpdesk@riverbend-usd.org', f11, 'lost', 'omitted', ['fact', 'email', 'summary:mentions-without-content'],
                           distinct=['helpdesk'],
                           values=[{'value': 'helpdesk@riverbend-usd.org', 'status': 'lost', 'found_as': None}]))
    t12 = "Pester tests for the username function, including the diacritics and clash cases"
    c.user('T12', t12 + '\n\n' + reminder_todo_empty(),
           lab('instruction', 'Pester tests for username function incl. diacritics and clashes', t12, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'paraphrase:passive', 'wrapper:system-reminder', 'reminder:after', 'reminder:todo'],
               S('The username function is covered by Pester tests, accented names and collisions included'), wrapper='system-reminder'))
    chat(c, 'C13', 'tysm 🙏', '"tysm 🙏"', tags=['chatter', 'emoji', 'slang'])
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'A PowerShell script for the start-of-year rollover that takes the SIS export CSV, provisions accounts for incoming students, moves continuing students into the OU of their new grade and disables accounts of students who left',
            'A leaver\'s account is disabled and moved to `OU=Leavers`; removal is left to the separate purge job after ninety days',
            'Every state-changing function supports `-WhatIf` through `SupportsShouldProcess`',
            'A username is the first initial, the surname and the two-digit graduation year, all lower case with accents removed; a taken name gets a number appended',
            'Initial passwords are random, not hard-coded',
            'The username function is covered by Pester tests, accented names and collisions included',
        ],
        'Key Technical Concepts': ['Domain `ad.riverbend-usd.org`, domain controller `rb-dc01`', r'Input: `\\rb-files\sis\exports\students_2026-08-01.csv`',
                                   'Grade OUs from `Get-GradeOU`'],
        'Files and Code Sections': [
            '`%s/Invoke-Rollover.ps1`: main script; line 48 held a hard-coded password' % AD,
            '`%s/RolloverTools.psm1`: `Get-GradeOU`' % AD,
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'Students are matched to existing accounts by `employeeID` (the SIS student number), not by name.',
        'All user messages': [
            'Asked for the fall rollover script (create, move, disable)',
            'Never delete accounts, disable and move them to Leavers',
            'Gave the domain and the domain controller',
            'Asked for -WhatIf support',
            'Complained that the SIS vendor changed the CSV headers again',
            'Gave the username format',
            'With the password line selected: no hard-coded passwords',
            'Gave the path of the SIS export',
            'Named the PowerShell requirements',
            'Gave an address for notifications',
            'Pester tests for the username function',
            '"tysm 🙏"',
        ],
        'Pending Tasks': ['CSV import and matching', 'Account creation', 'Moves and disables', 'Pester tests'],
        'Current Work': 'About to write `New-StudentUsername`.',
        'Optional Next Step': 'Write `New-StudentUsername` and its Pester tests.',
    }))
    c.tool('Read', {'file_path': '%s/README.md' % AD}, numbered(
        '# District AD provisioning\n\nRequires PowerShell 7.4+ and the RSAT ActiveDirectory module. Do not use [ADSI].\n\nRun from the IT admin jump host.'),
        text="Checking the requirements in the README.", anchor='R1')
    c.tool('Write', {'file_path': '%s/RolloverTools.psm1' % AD, 'content':
                     'function New-StudentUsername {\n    [CmdletBinding()]\n    param([string]$Given, [string]$Surname, [int]$GradYear, [string[]]$Taken)\n'
                     "    $base = ($Given.Substring(0,1) + $Surname).Normalize('FormD') -replace '\\p{Mn}', ''\n"
                     "    $base = ($base -replace '[^A-Za-z]', '').ToLower() + ($GradYear % 100).ToString('00')\n"
                     '    $name = $base; $i = 1\n    while ($Taken -contains $name) { $name = "$base$i"; $i++ }\n    $name\n}\n\n'
                     'function New-StudentAccount {\n    [CmdletBinding(SupportsShouldProcess)]\n    param($Student, [string]$Password)\n'
                     '    Write-Verbose "Creating $($Student.Username) with initial password $Password"\n}\n'},
           edited('%s/RolloverTools.psm1' % AD, 'function New-StudentUsername {\n    [CmdletBinding()]'),
           text="Writing the username function and the account stub.")
    c.say("`New-StudentUsername` is done. Next: Pester tests for accents and collisions.")
    return c.write({'situations': ['English request paraphrased (fall rollover -> start-of-year rollover)', 'never-delete rule, negation moved, passive voice',
                                   'hostname fact kept', 'partial: -WhatIf kept, dry-run-by-default dropped',
                                   'complaint chatter described', 'username rule paraphrased',
                                   'wrapper:ide_selection partial: random passwords kept, handout-only/never-in-transcript dropped; the assistant writes the password to verbose output',
                                   'UNC path fact kept', '"k" not listed (lost)',
                                   'PowerShell rule mentioned only ("Named the PowerShell requirements"), recorded in README.md read after the boundary',
                                   'e-mail fact lost (mentioned only)', 'test rule in passive voice, with an empty-todo system-reminder after it', 'slang chatter quoted'],
                    'notes': 'Unsure: T4 (the summary keeps -WhatIf but not the default). T7 is partial behind a selection.'})


# --------------------------------------------------------------------------------------------
def v10():
    c = Case('v10-pedalshare-dock-graphql', 'graphql', '2.1', seed=7610, pre_tokens=152660, start='2026-06-03T11:25:00')
    t1 = "dock availability ke liye ek GraphQL query chahiye: stationsNear(lat, lng, radius) jo bikes aur free docks return kare"
    c.user('T1', t1, lab('instruction', 'GraphQL query stationsNear(lat, lng, radius) returning bikes and free docks', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:hi', 'translated'],
                         S('A GraphQL query `stationsNear(lat, lng, radius)` that returns, per station, the available bikes and the empty docks')))
    c.tools([('Read', {'file_path': '%s/src/schema/station.graphql' % PS}, numbered('type Station {\n  id: ID!\n  name: String!\n  location: GeoPoint!\n}')),
             ('Glob', {'pattern': 'src/**/*.ts'}, '%s/src/index.ts\n%s/src/resolvers/station.ts\n%s/src/services/stationService.ts' % (PS, PS, PS))],
            text="Schema aur resolvers dekh raha hoon.")
    t2 = "radius max 2 km, usse zyada pe error do, silently clamp mat karna"
    c.user('T2', t2, lab('instruction', 'radius max 2 km; error above that, no silent clamping', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:hi', 'translated', 'negation-moved'],
                         S('A radius above 2 km is rejected with a validation error rather than quietly reduced')))
    f3 = 'postgres 16 + postgis 3.4, host pg-primary.pedalshare.internal'
    c.user('F3', f3, lab('user_fact', 'Postgres 16 + PostGIS 3.4 on pg-primary.pedalshare.internal', f3, 'in_summary', 'form:PostGIS 3.4 / pg-primary.pedalshare.internal',
                         ['fact', 'hostname'], S('PostgreSQL 16 with PostGIS 3.4 on `pg-primary.pedalshare.internal`'),
                         values=[{'value': 'postgis 3.4', 'status': 'in_summary', 'found_as': 'PostGIS 3.4'},
                                 {'value': 'pg-primary.pedalshare.internal', 'status': 'in_summary', 'found_as': 'pg-primary.pedalshare.internal'}]))
    t4 = "station → bikes lookup ke liye DataLoader use karo, N+1 nahi chahiye"
    c.user('T4', t4, lab('instruction', 'DataLoader for station -> bikes lookup (no N+1)', t4, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:hi', 'translated', 'paraphrase:nominalised'],
                         S('Batching of the per-station bike lookups through DataLoader, to avoid N+1 queries')))
    chat(c, 'C5', 'bhai mast 🔥', '"bhai mast 🔥"', tags=['chatter', 'language:hi', 'emoji', 'slang'])
    t6 = "schema-first rakho, SDL .graphql files mein, code-first (nexus/pothos) nahi"
    c.user('T6', [ide_opened('%s/src/schema/station.graphql' % PS), text(t6)],
           lab('instruction', 'schema-first, SDL in .graphql files; no code-first (nexus/pothos)', t6, 'repeated_later', 'omitted',
               ['form:omitted', 'wrapper:ide_opened_file', 'language:hi', 'repeat:paraphrase'],
               A('U1', 'keep it schema-first, SDL lives in the .graphql files'), repeated_after=['paraphrase'], wrapper='ide_opened_file'))
    t7 = "availability is cached in redis for 15 seconds, and the cache key has to use lat/lng rounded to 3 decimals"
    c.user('T7', t7, lab('instruction', 'Redis cache 15 s; cache key with lat/lng rounded to 3 decimals', t7, 'lost', 'partial',
                         ['form:partial', 'partial', 'after:assistant-topic'], partial=True,
                         lost_part='the cache key uses lat/lng rounded to 3 decimals',
                         distinct=['3 decimals', 'three decimal', 'rounded', 'tofixed(3)']))
    c.say("Theek hai, 15 s TTL.")
    f8 = 'apollo server 4.10 on node 22'
    c.user('F8', f8, lab('user_fact', 'Apollo Server 4.10, Node 22', f8, 'in_summary', 'form:Apollo Server 4.10 / Node 22', ['fact'],
                         S('Apollo Server 4.10 on Node 22'),
                         values=[{'value': 'apollo server 4.10', 'status': 'in_summary', 'found_as': 'Apollo Server 4.10'},
                                 {'value': 'node 22', 'status': 'in_summary', 'found_as': 'Node 22'}]))
    t9 = "e-bikes with battery below 20% must not be counted as available"
    c.user('T9', t9, lab('instruction', 'e-bikes below 20% battery not counted as available', t9, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved'],
                         S('only e-bikes charged to at least 20% count towards availability')))
    chat(c, 'C10', 'arre yaar, standup phir se 40 min chala 😭', tags=['chatter', 'language:hi', 'emoji'])
    t11 = "resolvers mein business logic mat daalo, sab services/ folder mein"
    c.user('T11', t11, lab('instruction', 'no business logic in resolvers; put it in services/', t11, 'lost', 'omitted',
                           ['form:omitted', 'summary:mentions-without-content', 'language:hi', 'after:assistant-topic'],
                           distinct=['services/', 'business logic', 'service layer', 'stationservice']))
    t12 = "[Image #1] yeh Figma frame hai, har station pe ek 'nextRefillEta' field chahiye jaise design mein hai"
    c.user('T12', [image((40, 160, 120)), text(t12)],
           lab('instruction', "field nextRefillEta per station, as in the Figma frame", t12, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'image', 'language:hi', 'translated'],
               S("each station also exposes a `nextRefillEta` field, as shown in the Figma frame the user attached")))
    chat(c, 'C13', 'thanks yaar', 'Thanked the assistant', 'paraphrase', ['chatter', 'language:hi'])
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'A GraphQL query `stationsNear(lat, lng, radius)` that returns, per station, the available bikes and the empty docks; each station also exposes a `nextRefillEta` field, as shown in the Figma frame the user attached',
            'A radius above 2 km is rejected with a validation error rather than quietly reduced',
            'Batching of the per-station bike lookups through DataLoader, to avoid N+1 queries',
            'Station availability lives in a Redis cache with a 15-second TTL',
            'Battery rule: only e-bikes charged to at least 20% count towards availability',
        ],
        'Key Technical Concepts': ['Apollo Server 4.10 on Node 22', 'PostgreSQL 16 with PostGIS 3.4 on `pg-primary.pedalshare.internal`', '`ST_DWithin` on geography'],
        'Files and Code Sections': [
            '`%s/src/schema/station.graphql`: `Station` type' % PS,
            '`%s/src/resolvers/station.ts`: resolvers' % PS,
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'The radius check happens before any query so an oversized radius never reaches PostGIS.',
        'All user messages': [
            'Asked (in Hindi/English) for a stationsNear query with bikes and free docks',
            'Radius at most 2 km, error above, no clamping',
            'Gave the database versions and host',
            'Use DataLoader for station → bikes, no N+1',
            '"bhai mast 🔥"',
            'With the schema file open: gave a schema convention',
            'Redis cache for 15 seconds',
            'Apollo Server 4.10, Node 22',
            'E-bikes under 20% battery are not available',
            'Gave a code-organisation rule',
            'Sent a Figma frame asking for `nextRefillEta`',
            'Thanked the assistant',
        ],
        'Pending Tasks': ['Schema for the query', 'Resolver', 'DataLoader', 'Cache'],
        'Current Work': 'About to extend the schema.',
        'Optional Next Step': 'Add `stationsNear` to the schema.',
    }))
    c.user('U1', 'btw keep it schema-first, SDL lives in the .graphql files, no nexus or pothos', after=dict(repeat_of='T6', mode='paraphrase'))
    c.tool('Edit', {'file_path': '%s/src/resolvers/station.ts' % PS, 'old_string': 'export const resolvers = {',
                    'new_string': "export const resolvers = {\n  Query: {\n    stationsNear: async (_: unknown, { lat, lng, radius }: Args, ctx: Ctx) => {\n"
                                  "      if (radius > 2000) throw new GraphQLError('radius too large', { extensions: { code: 'BAD_USER_INPUT' } })\n"
                                  "      const key = `avail:${lat}:${lng}:${radius}`\n"
                                  "      const rows = await ctx.db.query('SELECT id, name FROM station WHERE ST_DWithin(location, ST_MakePoint($1, $2)::geography, $3)', [lng, lat, radius])\n"
                                  "      return rows\n    },\n  },"},
           edited('%s/src/resolvers/station.ts' % PS, 'export const resolvers = {\n  Query: {\n    stationsNear: async (_: unknown, { lat, lng, radius }: Args, ctx: Ctx) => {'),
           text="Sure. Writing the resolver with the radius check and the cache key.")
    c.say("The query runs straight from the resolver for now. Next: the DataLoader for bikes and the 15 s Redis cache.")
    return c.write({'situations': ['Hinglish request restated in English', 'radius rule, negation moved (clamp mat karna -> rather than quietly reduced)',
                                   'hostname + version fact kept', 'DataLoader rule nominalised', 'Hinglish chatter quoted',
                                   'wrapper:ide_opened_file schema rule mentioned only, paraphrased in English by the user after the boundary',
                                   'partial: 15 s cache kept, rounded cache key dropped; the assistant keys on raw coordinates after the boundary',
                                   'version fact kept', 'battery rule, negation moved', 'standup complaint not listed (lost)',
                                   'code-organisation rule lost (mentioned only); the assistant queries the DB inside the resolver',
                                   'image request merged into the first bullet', 'thanks described'],
                    'notes': 'Unsure: T6 sits behind an ide_opened_file wrapper and the list says only that a schema convention was given; repeated_later by the user in English.'})


# --------------------------------------------------------------------------------------------
def v11():
    c = Case('v11-warmth-heatpump-hass', 'hass', 'short', seed=7611, pre_tokens=148330, start='2026-11-17T21:10:00')
    t1 = ("write a Home Assistant custom integration for my Warmth HP-9 heat pump over Modbus TCP: flow temp, return temp, COP "
          "as sensors, and a climate entity for the setpoint")
    c.user('T1', t1, lab('instruction', 'HA integration for Warmth HP-9 over Modbus TCP: flow/return temp + COP sensors, climate entity for setpoint', t1,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'paraphrase:reordered'],
                         S('A custom Home Assistant integration that exposes, over Modbus TCP, a climate entity for the setpoint of a Warmth HP-9 heat pump plus sensors for flow temperature, return temperature and COP')))
    c.tools([('Bash', {'command': 'ls custom_components/warmth', 'description': 'List the integration'}, '__init__.py\nmanifest.json'),
             ('Read', {'file_path': '%s/custom_components/warmth/manifest.json' % WH}, numbered(
                 '{\n  "domain": "warmth",\n  "name": "Warmth Heat Pump",\n  "version": "0.1.0",\n  "requirements": []\n}'))],
            text="Looking at the skeleton.")
    t2 = "one DataUpdateCoordinator polling every 30 s, entities must not talk to modbus themselves"
    c.user('T2', t2, lab('instruction', 'one DataUpdateCoordinator polling every 30 s; entities never talk to Modbus directly', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved', 'numbers-as-words'],
                         S('All entities read from a single `DataUpdateCoordinator` that polls every thirty seconds; Modbus access is the coordinator\'s alone'),
                         values=[{'value': '30 s', 'status': 'in_summary', 'found_as': 'thirty seconds'}]))
    f3 = 'pump is at 192.168.1.47 port 502, unit id 3'
    c.user('F3', f3, lab('user_fact', 'pump 192.168.1.47:502, unit id 3', f3, 'in_summary', 'form:192.168.1.47:502 / unit 3', ['fact', 'numeric'],
                         S('`192.168.1.47:502`, Modbus unit 3'),
                         values=[{'value': '192.168.1.47', 'status': 'in_summary', 'found_as': '192.168.1.47:502'},
                                 {'value': 'unit id 3', 'status': 'in_summary', 'found_as': 'Modbus unit 3'}]))
    chat(c, 'C4', 'yesss')
    t5 = "setpoint writes: clamp to 25-55 °C and never write more than once per 10 s, the controller's EEPROM wears out"
    c.user('T5', t5, lab('instruction', 'setpoint clamped to 25-55 °C; at most one write per 10 s (EEPROM wear)', t5, 'lost', 'partial',
                         ['form:partial', 'partial', 'after:assistant-topic'], partial=True,
                         lost_part='never write the setpoint more than once per 10 s (EEPROM wear)',
                         distinct=['eeprom', 'once per', 'wears', 'rate limit', 'rate-limit', 'debounce']))
    t6 = "config flow only, no YAML config"
    c.user('T6', t6, lab('instruction', 'config flow only; no YAML configuration', t6, 'in_summary', 'paraphrase', ['form:paraphrase', 'negation-moved'],
                         S('Setup happens exclusively through a config flow (YAML configuration is not offered)')))
    sel = '| 0x0010 | flow_temp   | int16 | 0.1 °C |\n| 0x0011 | return_temp | int16 | 0.1 °C |'
    t7 = "registers are big-endian 16-bit, temperatures are signed tenths of a degree"
    c.user('T7', [ide_selection('%s/docs/registers.md' % WH, 8, 9, sel), text(t7)],
           lab('instruction', 'registers big-endian 16-bit; temps signed tenths of a degree', t7, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_selection'],
               S('Registers are 16-bit big-endian; a temperature register holds a signed value in units of 0.1 °C'), wrapper='ide_selection'))
    t8 = "pin pymodbus>=3.6 in the manifest requirements, older versions have the framer bug"
    c.user('T8', t8, lab('instruction', 'pin pymodbus>=3.6 in manifest requirements (framer bug)', t8, 'lost', 'omitted', ['form:omitted', 'after:assistant-topic'],
                         distinct=['>=3.6', '3.6', 'framer']))
    chat(c, 'C9', "my partner says the house is finally warm lol, you're famous here", tags=['chatter', 'joke'])
    f10 = "HA is on 2025.11"
    c.user('F10', f10, lab('user_fact', 'Home Assistant 2025.11', f10, 'in_summary', 'form:Home Assistant 2025.11', ['fact'],
                           S('Home Assistant 2025.11'), values=[{'value': '2025.11', 'status': 'in_summary', 'found_as': 'Home Assistant 2025.11'}]))
    t11 = "all UI text in strings.json + translations/en.json, nothing hardcoded"
    c.user('T11', t11, lab('instruction', 'UI text in strings.json + translations/en.json, nothing hard-coded', t11, 'repeated_later', 'omitted',
                           ['form:omitted', 'repeat:paraphrase'],
                           A('U1', 'labels come from strings.json and translations/en.json'), repeated_after=['paraphrase']))
    f12 = 'my github for the HACS repo is ruthk-dev'
    c.user('F12', f12, lab('user_fact', 'GitHub user ruthk-dev for the HACS repo', f12, 'lost', 'omitted', ['fact'],
                           distinct=['ruthk', 'github'],
                           values=[{'value': 'ruthk-dev', 'status': 'lost', 'found_as': None}]))
    t13 = "if the pump is unreachable mark the entities unavailable, don't keep showing stale values"
    c.user('T13', t13, lab('instruction', 'unreachable pump -> entities unavailable, no stale values', t13, 'in_summary', 'paraphrase',
                           ['form:paraphrase', 'negation-moved', 'paraphrase:passive'],
                           S('When the pump cannot be reached the entities become unavailable instead of displaying old readings')))
    c.say("Ok, `UpdateFailed` from the coordinator does that.")
    c.compact(summary_short({
        'Primary Request and Intent': [
            'A custom Home Assistant integration that exposes, over Modbus TCP, a climate entity for the setpoint of a Warmth HP-9 heat pump plus sensors for flow temperature, return temperature and COP',
            'All entities read from a single `DataUpdateCoordinator` that polls every thirty seconds; Modbus access is the coordinator\'s alone',
            'Setpoint values are clamped to the range 25–55 °C',
            'Setup happens exclusively through a config flow (YAML configuration is not offered)',
            'Registers are 16-bit big-endian; a temperature register holds a signed value in units of 0.1 °C',
            'When the pump cannot be reached the entities become unavailable instead of displaying old readings',
        ],
        'Key Technical Concepts': ['Home Assistant 2025.11', 'Pump at `192.168.1.47:502`, Modbus unit 3', '`AsyncModbusTcpClient`'],
        'Files and Code Sections': [
            '`%s/custom_components/warmth/manifest.json`: empty requirements' % WH,
            '`%s/docs/registers.md`: register map (lines 8–9 selected)' % WH,
        ],
        'Problem Solving': 'COP is read from register 0x0020 as an unsigned value in hundredths.',
        'Pending Tasks': ['Coordinator', 'Config flow', 'Sensors', 'Climate entity'],
        'Current Work': 'About to write `coordinator.py`.',
        'Optional Next Step': 'Write the coordinator, then the config flow.',
    }))
    c.user('U1', 'reminder: labels come from strings.json and translations/en.json, nothing hard-coded in the config flow',
           after=dict(repeat_of='T11', mode='paraphrase'))
    c.tools([('Write', {'file_path': '%s/custom_components/warmth/manifest.json' % WH, 'content':
                        '{\n  "domain": "warmth",\n  "name": "Warmth Heat Pump",\n  "version": "0.1.0",\n  "config_flow": true,\n  "iot_class": "local_polling",\n'
                        '  "requirements": ["pymodbus"]\n}\n'}, created('%s/custom_components/warmth/manifest.json' % WH)),
             ('Write', {'file_path': '%s/custom_components/warmth/climate.py' % WH, 'content':
                        'async def async_set_temperature(self, **kwargs):\n    t = max(25.0, min(55.0, kwargs["temperature"]))\n'
                        '    await self.coordinator.client.write_register(0x0030, int(t * 10), slave=3)\n    await self.coordinator.async_request_refresh()\n'},
              created('%s/custom_components/warmth/climate.py' % WH))],
            text="Understood. Updating the manifest and writing the setpoint handler.")
    c.say("Manifest and setpoint write are in. Next: `strings.json` and the config flow.")
    return c.write({'situations': ['English request reordered', 'coordinator rule, negation moved (30 s -> thirty seconds)', 'host/unit fact kept',
                                   'partial: 25–55 °C clamp kept, one-write-per-10-s limit dropped; the assistant writes on every call after the boundary',
                                   'config-flow rule, negation moved', 'wrapper:ide_selection rule paraphrased',
                                   'version pin silently dropped; the assistant writes an unpinned requirement', 'version fact kept',
                                   'UI-text rule omitted, paraphrased by the user after the boundary', 'GitHub handle lost',
                                   'unavailable rule, negation moved', 'short style: every chatter turn lost (yesss, "the house is finally warm")'],
                    'notes': 'Unsure: T8 — the summary names the pymodbus async client in passing but nothing of the version pin, so lost (not partial).'})


# --------------------------------------------------------------------------------------------
def v12():
    c = Case('v12-cepheid-photometry-astropy', 'astropy', '2.0', seed=7612, pre_tokens=163910, start='2025-11-24T19:45:00')
    t1 = "we need aperture photometry of the cepheid in every frame and then a light curve phased on the known period"
    c.user('T1', t1, lab('instruction', 'aperture photometry of the Cepheid in every frame; light curve phased on the known period', t1, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:nominalised'],
                         S('Aperture photometry of the Cepheid on each frame, followed by a light curve folded on its known period')))
    c.tools([('Glob', {'pattern': '**/*.py'}, '%s/cephot/__init__.py\n%s/cephot/io.py' % (CP, CP)),
             ('Bash', {'command': 'ls /Users/elin/obs/raw/2025-10 | head -5', 'description': 'Peek at the frames'},
              'dcep_0001.fits\ndcep_0002.fits\ndcep_0003.fits\ndcep_0004.fits\ndcep_0005.fits')],
            text="Looking at the package and the frames.")
    t2 = 'Använd astropy och photutils, inte IRAF eller pyraf'
    c.user('T2', t2, lab('instruction', 'astropy + photutils, not IRAF/PyRAF', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'language:sv', 'translated', 'negation-moved'],
                         S('The work is done with astropy and photutils; IRAF and PyRAF are ruled out')))
    f3 = 'target is delta Cep, period 5.366249 d'
    c.user('F3', f3, lab('user_fact', 'target delta Cep, period 5.366249 d', f3, 'in_summary', 'form:δ Cep / 5.366249 days', ['fact', 'numeric'],
                         S('δ Cep, P = 5.366249 days'),
                         values=[{'value': 'delta Cep', 'status': 'in_summary', 'found_as': 'δ Cep'},
                                 {'value': '5.366249 d', 'status': 'in_summary', 'found_as': '5.366249 days'}]))
    t4 = "comparison stars: at least 3, and drop any comp whose own scatter is above 0.02 mag"
    c.user('T4', t4, lab('instruction', 'at least 3 comparison stars; drop comps with scatter > 0.02 mag', t4, 'lost', 'partial',
                         ['form:partial', 'partial', 'after:assistant-topic'], partial=True,
                         lost_part='drop any comparison star whose own scatter exceeds 0.02 mag',
                         distinct=['0.02', 'scatter']))
    chat(c, 'C5', 'tack så mycket!', '"tack så mycket!"', tags=['chatter', 'language:sv'])
    t6 = "keep the notebooks thin, all the logic goes in the cephot package so it's testable"
    c.user('T6', [ide_opened('%s/notebooks/01_reduce.ipynb' % CP), text(t6)],
           lab('instruction', 'thin notebooks; logic in the cephot package (testable)', t6, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:ide_opened_file', 'paraphrase:passive'],
               S('Notebook cells only call into the `cephot` package, where all logic lives so that it can be tested'), wrapper='ide_opened_file'))
    f7 = 'frames are in /Users/elin/obs/raw/2025-10/, from the 0.4 m at Saltsjöbaden'
    c.user('F7', f7, lab('user_fact', 'frames in /Users/elin/obs/raw/2025-10/ from the 0.4 m at Saltsjöbaden', f7, 'in_summary', 'form:/Users/elin/obs/raw/2025-10/',
                         ['fact', 'path'], S('`/Users/elin/obs/raw/2025-10/` (0.4 m telescope at Saltsjöbaden)'),
                         values=[{'value': '/Users/elin/obs/raw/2025-10/', 'status': 'in_summary', 'found_as': '/Users/elin/obs/raw/2025-10/'},
                                 {'value': 'Saltsjöbaden', 'status': 'in_summary', 'found_as': 'Saltsjöbaden'}]))
    t8 = 'Tider ska vara BJD_TDB, inte JD från headern'
    c.user('T8', t8, lab('instruction', 'times as BJD_TDB, not the header JD', t8, 'repeated_later', 'omitted',
                         ['form:omitted', 'language:sv', 'repeat:paraphrase'],
                         A('U1', 'times have to be BJD_TDB, not the JD in the header'), repeated_after=['paraphrase']))
    chat(c, 'C9', 'clouds all week again ☁️ classic swedish autumn', tags=['chatter', 'emoji'])
    t10 = "aperture radius 1.5×FWHM measured per frame, sky annulus 3 to 5×FWHM"
    c.user('T10', t10, lab('instruction', 'aperture 1.5×FWHM per frame; annulus 3-5×FWHM', t10, 'in_summary', 'paraphrase',
                           ['form:paraphrase', 'paraphrase:reordered'],
                           S('the sky annulus spans 3–5 FWHM and the aperture radius is 1.5 FWHM, with the FWHM measured on each frame')))
    t11 = "never overwrite the raw FITS files, reduced frames go to reduced/"
    c.user('T11', t11, lab('instruction', 'never overwrite raw FITS; reduced frames to reduced/', t11, 'lost', 'omitted',
                           ['form:omitted', 'summary:mentions-without-content'], distinct=['overwrite', 'reduced/']))
    chat(c, 'C12', 'haha the photutils docs are better written than my thesis', 'Joked that the photutils docs are better written than their thesis',
         'paraphrase', ['chatter', 'joke'])
    t13 = "the plot: magnitude axis inverted so brighter is up, phase from 0 to 2 so two cycles show"
    c.user('T13', t13, lab('instruction', 'plot: inverted magnitude axis, phase 0-2 (two cycles)', t13, 'in_summary', 'paraphrase',
                           ['form:paraphrase', 'paraphrase:vocab'],
                           S('The light-curve plot puts brighter magnitudes at the top and covers phase 0–2, showing two cycles')))
    c.say("Ok.")
    c.compact(summary_20(
        """Chronological review:

1. The user asked for aperture photometry of the Cepheid and a phased light curve; I looked at the package and the frames.
2. The user chose the tools (in Swedish), gave the target and period, and the comparison-star requirement.
3. With a notebook open, the user asked to keep logic in the package, and gave the frame location.
4. The user gave a time-system rule (in Swedish), the aperture sizes, a rule about raw frames, and the plot layout.""",
        {
            'Primary Request and Intent': [
                'Aperture photometry of the Cepheid on each frame, followed by a light curve folded on its known period',
                'The work is done with astropy and photutils; IRAF and PyRAF are ruled out',
                'Differential photometry against three or more comparison stars',
                'Notebook cells only call into the `cephot` package, where all logic lives so that it can be tested',
                'Apertures: the sky annulus spans 3–5 FWHM and the aperture radius is 1.5 FWHM, with the FWHM measured on each frame',
                'The light-curve plot puts brighter magnitudes at the top and covers phase 0–2, showing two cycles',
            ],
            'Key Technical Concepts': ['Target δ Cep, P = 5.366249 days', 'Frames in `/Users/elin/obs/raw/2025-10/` (0.4 m telescope at Saltsjöbaden)',
                                       '`photutils.aperture` (`CircularAperture`, `CircularAnnulus`), `astropy.time`'],
            'Files and Code Sections': [
                '`%s/cephot/io.py`: FITS loading' % CP,
                '`%s/notebooks/01_reduce.ipynb`: opened by the user' % CP,
            ],
            'Errors and fixes': ['None.'],
            'Problem Solving': 'FWHM per frame from a 2-D Gaussian fit to the target star.',
            'All user messages': [
                'Asked for aperture photometry of the Cepheid and a phased light curve',
                'Use astropy and photutils, not IRAF (in Swedish)',
                'Target δ Cep, period 5.366249 d',
                'At least three comparison stars',
                '"tack så mycket!"',
                'With the notebook open: keep notebooks thin, logic in `cephot`',
                'Gave the frame location',
                'Gave a rule about time stamps (in Swedish)',
                'Aperture 1.5×FWHM, annulus 3–5×FWHM',
                'Gave a rule about raw frames',
                'Joked that the photutils docs are better written than their thesis',
                'Plot with inverted magnitude axis, phase 0 to 2',
            ],
            'Pending Tasks': ['FWHM measurement', 'Photometry', 'Differential magnitudes', 'Phased plot'],
            'Current Work': 'About to write `cephot/phot.py`.',
            'Optional Next Step': 'Write `measure_fwhm` and `photometry`.',
        }))
    c.user('U1', 'remember the times have to be BJD_TDB, not the JD in the header', after=dict(repeat_of='T8', mode='paraphrase'))
    c.tool('Write', {'file_path': '%s/cephot/phot.py' % CP, 'content':
                     'from photutils.aperture import CircularAperture, CircularAnnulus, ApertureStats, aperture_photometry\n\n\n'
                     'def photometry(data, xy, fwhm):\n    ap = CircularAperture(xy, r=1.5 * fwhm)\n    an = CircularAnnulus(xy, r_in=3 * fwhm, r_out=5 * fwhm)\n'
                     '    sky = ApertureStats(data, an).median\n    t = aperture_photometry(data, ap)\n    return t["aperture_sum"] - sky * ap.area\n\n\n'
                     'def differential(target, comps):\n    return target - comps.mean(axis=0)\n'},
           created('%s/cephot/phot.py' % CP), text="Right, BJD_TDB via `astropy.time` with the observatory location. Writing the photometry module.")
    c.say("`photometry` and `differential` are in; every comparison star is averaged. Next: the barycentric time conversion.")
    return c.write({'situations': ['English request nominalised', 'Swedish tools rule restated in English, negation moved', 'target/period fact (delta -> δ)',
                                   'partial: three comparison stars kept, 0.02 mag cut dropped; the assistant averages every comparison star after the boundary',
                                   'Swedish chatter quoted', 'wrapper:ide_opened_file rule in passive voice',
                                   'path fact kept', 'Swedish time-system rule mentioned only, paraphrased in English by the user',
                                   'weather complaint not listed (lost)', 'aperture rule reordered', 'raw-frames rule lost (mentioned only)',
                                   'joke described', 'plot rule paraphrased'],
                    'notes': 'Unsure: T4 (three or more comparison stars kept, the 0.02 mag cut dropped, so partial). T8 comes back in English, translated from Swedish.'})


CASES = [v07, v08, v09, v10, v11, v12]
