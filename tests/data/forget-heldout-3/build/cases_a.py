"""r01-r06. Every label below is the labeller's judgement, written by hand. Every turn, tool call,
tool result and summary here was written for this set."""
from builder import (Case, lab, S, A, ide_opened, ide_selection, reminder_modified, reminder_todo_empty, text, image, numbered,
                     edited, created, TODO_OK, todos, command, summary_20, summary_21, summary_short)

CB = '/Users/noor/code/clinicbook'
FN = '/home/viktor/AndroidStudioProjects/FieldNotes'
TD = '/Users/aiko/Unity/TileDrift'
HL = '/home/bram/homelab-ansible'
HU = '/Users/efua/src/huddle'
RN = '/scratch/mkowalski/rnaseq-liver'


# --------------------------------------------------------------------------------------------
def r01():
    c = Case('r01-clinicbook-waitlist', 'clinic', '2.0', seed=5301, pre_tokens=149330, start='2025-11-20T10:05:00')
    t1 = ('we need a waitlist for fully booked slots. when someone cancels, offer the slot to the first person on the waitlist '
          'for that practitioner by sms and give them 15 min to accept before it moves on to the next one')
    c.user('T1', [ide_opened('%s/appointments/models.py' % CB), text(t1)],
           lab('instruction', 'waitlist for full slots: on cancel, SMS offer to first waiting patient of that practitioner, 15 min to accept, then next',
               t1, 'in_summary', 'paraphrase', ['form:paraphrase', 'paraphrase:vocab', 'numbers-as-words', 'wrapper:ide_opened_file'],
               S('when an appointment is cancelled, the freed slot is offered by text message to whoever has waited longest for that same clinician, and that patient has a quarter of an hour to confirm before the offer passes to the next person in the queue'),
               wrapper='ide_opened_file',
               values=[{'value': '15 min', 'status': 'in_summary', 'found_as': 'a quarter of an hour'}]))
    c.tools([('Read', {'file_path': '%s/appointments/models.py' % CB}, numbered(
        'from django.db import models\n\n\n'
        'class Practitioner(models.Model):\n    name = models.CharField(max_length=120)\n    clinic = models.ForeignKey("clinics.Clinic", on_delete=models.PROTECT)\n\n\n'
        'class Slot(models.Model):\n    practitioner = models.ForeignKey(Practitioner, on_delete=models.CASCADE, related_name="slots")\n'
        '    starts_at = models.DateTimeField()\n    duration = models.DurationField()\n\n\n'
        'class Appointment(models.Model):\n    slot = models.OneToOneField(Slot, on_delete=models.CASCADE)\n'
        '    patient = models.ForeignKey("patients.Patient", on_delete=models.CASCADE)\n'
        '    status = models.CharField(max_length=16, default="booked")')),
        ('Grep', {'pattern': 'sms|twilio', '-i': True, 'path': CB, 'output_mode': 'files_with_matches'}, 'notifications/sms.py\nrequirements.txt')],
        text="I'll look at the appointment models and check how SMS is sent today.")
    c.say("There's a `notifications/sms.py` already. Which provider and sender should offers go out from?")
    f2 = 'its twilio, our approved alphanumeric sender id is CLINICBK'
    c.user('F2', f2, lab('user_fact', 'SMS via Twilio, approved alphanumeric sender ID CLINICBK', f2, 'in_summary', 'form:CLINICBK', ['fact'],
                         S('Twilio with the approved alphanumeric sender ID `CLINICBK`'),
                         values=[{'value': 'CLINICBK', 'status': 'in_summary', 'found_as': 'CLINICBK'}]))
    c.tool('Write', {'file_path': '%s/appointments/waitlist.py' % CB, 'content':
                     'from django.db import models\n\n\nclass WaitlistEntry(models.Model):\n'
                     '    practitioner = models.ForeignKey("appointments.Practitioner", on_delete=models.CASCADE)\n'
                     '    patient = models.ForeignKey("patients.Patient", on_delete=models.CASCADE)\n'
                     '    created_at = models.DateTimeField(auto_now_add=True)\n    offered_slot = models.ForeignKey("appointments.Slot", null=True, on_delete=models.SET_NULL)\n'
                     '    offer_expires_at = models.DateTimeField(null=True)\n\n    class Meta:\n        ordering = ["created_at"]\n'},
           created('%s/appointments/waitlist.py' % CB), text="Adding the `WaitlistEntry` model, ordered by `created_at` so the head of the queue is the first row.")
    t3 = ("one thing, never text patients between 9pm and 8am their local time. queue it and send at 8. thats a legal requirement "
          "for us, not a nice to have")
    c.user('T3', t3, lab('instruction', 'no SMS to patients 21:00-08:00 local time; queue and send at 08:00 (legal)', t3, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved', 'numeric'],
                         S("Outbound SMS are permitted only between 08:00 and 21:00 in the patient's own timezone; anything triggered outside that window is held and dispatched at 08:00 (a legal obligation, not optional)"),
                         values=[{'value': '9pm', 'status': 'in_summary', 'found_as': '21:00'},
                                 {'value': '8am', 'status': 'in_summary', 'found_as': '08:00'}]))
    c.say("Got it. I'll add a `quiet_hours` check in the dispatcher using `Patient.timezone`; messages created outside the window get "
          "`send_after` set to the next 08:00 local.")
    c.user('C4', 'nice', lab('chatter', 'chatter: nice', 'nice', 'lost', 'omitted', ['chatter']))
    c.tool('Write', {'file_path': '%s/appointments/offers.py' % CB, 'content':
                     'from datetime import timedelta\n\nfrom django.utils import timezone\n\nOFFER_WINDOW = timedelta(minutes=15)\n\n\n'
                     'def offer_next(slot):\n    entry = WaitlistEntry.objects.filter(practitioner=slot.practitioner, offered_slot=None).first()\n'
                     '    if entry is None:\n        return None\n    entry.offered_slot = slot\n    entry.offer_expires_at = timezone.now() + OFFER_WINDOW\n'
                     '    entry.save()\n    send_offer_sms(entry)\n    return entry\n'},
           created('%s/appointments/offers.py' % CB),
           text="Now the offer flow: `offer_next(slot)` picks the head of the queue and starts the 15-minute window. The SMS needs a link the patient taps to accept.")
    t6 = ('the accept link has to be single use and signed. use django.core.signing with a max_age, not a random token column in '
          'the db')
    c.user('T6', t6, lab('instruction', 'accept link single-use and signed with django.core.signing + max_age; no random token column', t6, 'lost',
                         'partial', ['form:partial', 'partial', 'after:assistant-topic'], partial=True,
                         lost_part='signed with django.core.signing (max_age), not a random token column in the DB',
                         distinct=['django.core.signing', 'signing', 'signed', 'max_age', 'token column', 'random token']))
    c.say("Makes sense. I'll make the accept view mark the offer as consumed on first use so a second tap shows 'already used'.")
    t8 = 'and run tests w `pytest -p no:randomly` pls, the random order plugin makes the booking tests flaky'
    c.user('T8', t8, lab('instruction', 'run tests with pytest -p no:randomly (random order makes booking tests flaky)', t8, 'repeated_later',
                         'omitted', ['form:omitted', 'repeat:paraphrase'],
                         A('U1', 'pytest with -p no:randomly'), repeated_after=['paraphrase']))
    c.say("Will do. Plan for the rest: accept view + URL, expiry job that moves the offer to the next entry, dispatcher quiet-hours check, tests. OK to go ahead?")
    c.user('C9', 'ok go', lab('chatter', 'chatter: ok go', 'ok go', 'in_summary', 'verbatim', ['chatter'], S('"ok go"')))
    c.compact(summary_20(
        """Going through the conversation in order:

1. With `appointments/models.py` open, the user asked for a waiting list for fully booked slots, with offers by SMS and a short acceptance window before the offer moves on.
2. I read the models and found `notifications/sms.py`. I asked about the SMS provider; the user said Twilio with an approved alphanumeric sender ID.
3. I created `WaitlistEntry`. The user then set a rule about the hours in which patients may be texted.
4. I wrote `offer_next(slot)` in `appointments/offers.py`. The user asked that the acceptance link work only once.
5. I proposed the remaining plan and the user approved it.""",
        {
            'Primary Request and Intent': [
                'Add a waiting list for fully booked appointment slots: when an appointment is cancelled, the freed slot is offered by text message to whoever has waited longest for that same clinician, and that patient has a quarter of an hour to confirm before the offer passes to the next person in the queue',
                "Outbound SMS are permitted only between 08:00 and 21:00 in the patient's own timezone; anything triggered outside that window is held and dispatched at 08:00 (a legal obligation, not optional)",
                'The acceptance link in the SMS must be usable only once',
            ],
            'Key Technical Concepts': [
                'Django models: `Practitioner`, `Slot`, `Appointment`, new `WaitlistEntry` (FIFO by `created_at`)',
                'Twilio with the approved alphanumeric sender ID `CLINICBK`',
                '`Patient.timezone` for the quiet-hours check; `send_after` on queued messages',
            ],
            'Files and Code Sections': [
                '`%s/appointments/waitlist.py` (new): `WaitlistEntry` with `offered_slot`, `offer_expires_at`' % CB,
                '`%s/appointments/offers.py` (new): `OFFER_WINDOW = timedelta(minutes=15)`, `offer_next(slot)`' % CB,
                '`%s/notifications/sms.py`: existing sender, to be reused' % CB,
            ],
            'Errors and fixes': ['None yet.'],
            'Problem Solving': 'Offers are made one at a time; the expiry job advances the queue when `offer_expires_at` passes without acceptance.',
            'All user messages': [
                'Asked for a waitlist for fully booked slots: on cancellation, SMS the first waiting patient for that practitioner; they get a quarter of an hour to accept before it moves on',
                '"its twilio, our approved alphanumeric sender id is CLINICBK"',
                'Said patients may only be texted between 08:00 and 21:00 local time, otherwise the message waits until 08:00; this is a legal requirement',
                'Asked for the accept link to be single-use',
                '"ok go"',
            ],
            'Pending Tasks': ['Accept view and URL', 'Expiry job that advances the queue', 'Quiet-hours check in the dispatcher', 'Tests'],
            'Current Work': 'The user approved the plan; next is the accept view and the field that records the offer as consumed.',
            'Optional Next Step': 'Add the consumed-marker field and migration, then write the accept view.',
        }))
    c.tool('Edit', {'file_path': '%s/appointments/waitlist.py' % CB, 'old_string': '    offer_expires_at = models.DateTimeField(null=True)\n',
                    'new_string': '    offer_expires_at = models.DateTimeField(null=True)\n    accept_code = models.CharField(max_length=43, unique=True, null=True)\n'
                                  '    accepted_at = models.DateTimeField(null=True)\n'},
           edited('%s/appointments/waitlist.py' % CB, '    offered_slot = models.ForeignKey("appointments.Slot", null=True, on_delete=models.SET_NULL)\n'
                  '    offer_expires_at = models.DateTimeField(null=True)\n    accept_code = models.CharField(max_length=43, unique=True, null=True)\n'
                  '    accepted_at = models.DateTimeField(null=True)', 8),
           text="Adding an `accept_code` (generated with `secrets.token_urlsafe(32)`) and `accepted_at`; the view looks the code up and refuses it once `accepted_at` is set.")
    c.user('U1', 'reminder: pytest with -p no:randomly when u run the suite, otherwise the booking tests flake',
           after=dict(repeat_of='T8', mode='paraphrase'))
    c.tool('Bash', {'command': 'pytest -p no:randomly appointments -q', 'description': 'Run appointment tests in fixed order'},
           '..........................                                               [100%]\n26 passed in 4.81s',
           text="Running the appointment tests in fixed order.")
    c.say("All 26 pass. Next: the expiry job.")
    return c.write({'situations': ['wrapper:ide_opened_file request paraphrased (15 min -> a quarter of an hour)', 'fact kept',
                                   'negation moved (never text 9pm-8am -> permitted only 08:00-21:00)',
                                   'partial (single-use kept, django.core.signing / no token column dropped); the assistant adds a random code column after the boundary',
                                   'instruction omitted, then paraphrased by the user after the boundary', 'chatter quoted / omitted']})


# --------------------------------------------------------------------------------------------
def r02():
    c = Case('r02-fieldnotes-sync', 'android', '2.1', seed=5302, pre_tokens=171220, start='2026-02-09T14:31:00')
    code = ('    override suspend fun doWork(): Result {\n        return try {\n            api.pushPending(dao.pending())\n'
            '            Result.success()\n        } catch (e: Exception) {\n            Result.retry()\n        }\n    }')
    t1 = 'this retries forever even on a 4xx. only retry on IOException and 5xx, exponential backoff capped at 6h'
    c.user('T1', [ide_selection('%s/app/src/main/java/dev/viktor/fieldnotes/sync/SyncWorker.kt' % FN, 38, 45, code), text(t1)],
           lab('instruction', 'SyncWorker: no retry on 4xx; retry only IOException and 5xx, exponential backoff capped at 6h', t1, 'in_summary',
               'paraphrase', ['form:paraphrase', 'paraphrase:vocab', 'numbers-as-words', 'wrapper:ide_selection'],
               S('must stop retrying client errors: only network I/O failures and HTTP 5xx responses are retried, with exponential backoff that never waits longer than six hours'),
               wrapper='ide_selection',
               values=[{'value': '6h', 'status': 'in_summary', 'found_as': 'six hours'}]))
    c.tools([('Read', {'file_path': '%s/app/src/main/java/dev/viktor/fieldnotes/sync/SyncWorker.kt' % FN}, numbered(
        'package dev.viktor.fieldnotes.sync\n\nimport android.content.Context\nimport androidx.work.CoroutineWorker\n'
        'import androidx.work.WorkerParameters\n\nclass SyncWorker(ctx: Context, params: WorkerParameters) : CoroutineWorker(ctx, params) {')),
        ('Read', {'file_path': '%s/app/build.gradle.kts' % FN}, numbered(
            'android {\n    namespace = "dev.viktor.fieldnotes"\n    compileSdk = 35\n    defaultConfig {\n        minSdk = 26\n        targetSdk = 35\n    }\n}'))],
        text="Reading the worker and the module config.")
    c.say("I'll classify failures: `IOException` and `HttpException` with code >= 500 return `Result.retry()`, everything else `Result.failure()`. "
          "Backoff via `setBackoffCriteria(EXPONENTIAL, ...)` on the request. Is minSdk really 26? I see 26 in the Gradle file.")
    f2 = 'yes minSdk is 26'
    c.user('F2', f2, lab('user_fact', 'minSdk 26', f2, 'in_summary', 'form:API level 26', ['fact'], S('minimum API level 26'),
                         values=[{'value': '26', 'status': 'in_summary', 'found_as': 'API level 26'}]))
    c.tool('Edit', {'file_path': '%s/app/src/main/java/dev/viktor/fieldnotes/sync/SyncWorker.kt' % FN,
                    'old_string': '        } catch (e: Exception) {\n            Result.retry()\n        }',
                    'new_string': '        } catch (e: IOException) {\n            Result.retry()\n        } catch (e: HttpException) {\n'
                                  '            if (e.code() >= 500) Result.retry() else Result.failure()\n        }'},
           edited('%s/app/src/main/java/dev/viktor/fieldnotes/sync/SyncWorker.kt' % FN,
                  '        } catch (e: IOException) {\n            Result.retry()\n        } catch (e: HttpException) {\n'
                  '            if (e.code() >= 500) Result.retry() else Result.failure()\n        }', 42))
    c.say("Retry classification is done. The other open question is conflicts: when the server rejects a push with 409, which copy wins?")
    t3 = 'for conflicts the server wins on the note body but local wins on the tags. dont try to merge text, too risky'
    c.user('T3', t3, lab('instruction', 'conflicts: server wins for note body, local wins for tags; never merge text', t3, 'lost', 'partial',
                         ['form:partial', 'partial', 'after:assistant-topic'], partial=True, lost_part='local copy wins for the tags',
                         distinct=['tags', 'local wins', 'labels']))
    c.say("OK. I'll add a `ConflictResolver` in the sync package.")
    c.user('C4', 'cool cool', lab('chatter', 'chatter: cool cool', 'cool cool', 'in_summary', 'verbatim', ['chatter'], S('"cool cool"')))
    t5 = ('Keep all of this out of the ViewModels btw. Repository layer only, a ViewModel should never be able to tell whether '
          'data came from the network or from Room.')
    c.user('T5', t5, lab('instruction', 'no sync code in ViewModels; repository layer only; ViewModels cannot tell network from Room', t5,
                         'lost', 'omitted', ['form:omitted', 'summary:mentions-without-content'],
                         distinct=['viewmodel', 'repository layer', 'came from the network', 'presentation']))
    c.say("Understood.")
    t6 = 'use enqueueUniqueWork with KEEP so two syncs can never run at the same time'
    c.user('T6', t6, lab('instruction', 'schedule with enqueueUniqueWork + KEEP; never two syncs at once', t6, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:ide_wrapped', 'repeat:paraphrase'],
                         A('U1', 'enqueueUniqueWork + ExistingWorkPolicy.KEEP'), repeated_after=['ide_wrapped', 'paraphrase']))
    c.say("Noted, I'll wire that into `SyncScheduler` after the resolver.")
    c.user('C7', 'thx', lab('chatter', 'chatter: thx', 'thx', 'in_summary', 'verbatim', ['chatter'], S('"thx"')))
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'The retry loop in `SyncWorker.doWork()` (the lines the user highlighted) must stop retrying client errors: only network I/O failures and HTTP 5xx responses are retried, with exponential backoff that never waits longer than six hours',
            "On a sync conflict the server's copy of the note takes precedence; no attempt is made to merge text",
            'The user also set a layering rule for where the new code goes.',
        ],
        'Key Technical Concepts': ['WorkManager `CoroutineWorker`, `Result.retry()` / `Result.failure()`, `setBackoffCriteria`',
                                   'Room DAO `pending()`; Retrofit `HttpException`', 'minimum API level 26'],
        'Files and Code Sections': [
            '`%s/app/src/main/java/dev/viktor/fieldnotes/sync/SyncWorker.kt`\n  - catch `IOException` → retry; `HttpException` → retry if code >= 500, else failure' % FN,
            '`%s/app/build.gradle.kts`: minSdk 26, targetSdk 35' % FN,
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'Separated transient from permanent failures so a bad request no longer loops forever.',
        'All user messages': [
            'Highlighted the retry loop: it retries forever even on a 4xx; only retry on IOException and 5xx, exponential backoff capped at six hours',
            'Confirmed minSdk is 26',
            'Server copy wins on conflict; do not merge text',
            '"cool cool"',
            'Gave the layering rule mentioned above',
            'Asked how the sync should be scheduled',
            '"thx"',
        ],
        'Pending Tasks': ['`ConflictResolver` for 409 responses', 'Backoff criteria on the work request', 'Scheduling in `SyncScheduler`'],
        'Current Work': 'About to write `ConflictResolver` in the sync package.',
        'Optional Next Step': 'Create `sync/ConflictResolver.kt` and call it from the worker on 409.',
    }))
    c.tool('Write', {'file_path': '%s/app/src/main/java/dev/viktor/fieldnotes/sync/ConflictResolver.kt' % FN, 'content':
                     'package dev.viktor.fieldnotes.sync\n\nimport dev.viktor.fieldnotes.data.NoteEntity\n\n'
                     'object ConflictResolver {\n    /** Server copy takes precedence on a 409. */\n'
                     '    fun resolve(local: NoteEntity, remote: NoteEntity): NoteEntity = remote.copy(localId = local.localId, dirty = false)\n}\n'},
           created('%s/app/src/main/java/dev/viktor/fieldnotes/sync/ConflictResolver.kt' % FN),
           text="Writing the resolver: on a 409 the remote entity replaces the local one wholesale, keeping only the local row id.")
    c.user('U1', [ide_opened('%s/app/src/main/java/dev/viktor/fieldnotes/sync/SyncScheduler.kt' % FN),
                  text('this should be enqueueUniqueWork + ExistingWorkPolicy.KEEP, two syncs must never overlap')],
           after=dict(repeat_of='T6', mode='ide_wrapped'))
    c.tool('Edit', {'file_path': '%s/app/src/main/java/dev/viktor/fieldnotes/sync/SyncScheduler.kt' % FN,
                    'old_string': '        wm.enqueue(request)', 'new_string': '        wm.enqueueUniqueWork("fieldnotes-sync", ExistingWorkPolicy.KEEP, request)'},
           edited('%s/app/src/main/java/dev/viktor/fieldnotes/sync/SyncScheduler.kt' % FN,
                  '        wm.enqueueUniqueWork("fieldnotes-sync", ExistingWorkPolicy.KEEP, request)', 21),
           text="Switching the scheduler to unique work with KEEP.")
    c.say("Done. I'll also expose the last sync status as a `StateFlow` so the notes screen can show a syncing indicator.")
    return c.write({'situations': ['wrapper:ide_selection request paraphrased (4xx -> client errors, 6h -> six hours)', 'fact as "API level 26"',
                                   'partial (server wins / no merge kept, local wins for tags dropped); the resolver written after the boundary overwrites everything',
                                   'summary mentions a layering rule without stating it',
                                   'instruction omitted (the list only says the user asked how to schedule), repeated by the user behind <ide_opened_file>', 'chatter quoted']})


# --------------------------------------------------------------------------------------------
def r03():
    c = Case('r03-tiledrift-levelselect', 'unity', 'short', seed=5303, pre_tokens=138950, start='2025-12-02T19:12:00')
    t1 = '[Image #1] level select like this mockup pls. 4 columns, locked levels greyed out w a padlock, stars under each tile'
    c.user('T1', [image((92, 140, 210)), text(t1)],
           lab('instruction', 'level select per mockup: 4 columns, locked levels greyed with padlock, stars under each tile', t1, 'in_summary',
               'paraphrase', ['form:paraphrase', 'image', 'numbers-as-words'],
               S("a grid four tiles wide, locked levels dimmed and marked with a lock icon, and each level's earned stars displayed beneath its tile"),
               values=[{'value': '4 columns', 'status': 'in_summary', 'found_as': 'four tiles wide'}]))
    c.tools([('Glob', {'pattern': 'Assets/Scripts/UI/**/*.cs'}, '%s/Assets/Scripts/UI/MainMenu.cs\n%s/Assets/Scripts/UI/HudController.cs' % (TD, TD)),
             ('Read', {'file_path': '%s/Assets/Scripts/Progress/LevelProgress.cs' % TD}, numbered(
                 'using UnityEngine;\n\npublic static class LevelProgress\n{\n    public static int StarsFor(int level) => PlayerPrefs.GetInt($"stars_{level}", 0);\n'
                 '    public static bool IsUnlocked(int level) => level == 1 || StarsFor(level - 1) > 0;\n}'))],
            text="Let me see the existing UI scripts and how progress is stored.")
    c.tool('Write', {'file_path': '%s/Assets/Scripts/UI/LevelSelect/LevelTile.cs' % TD, 'content':
                     'using TMPro;\nusing UnityEngine;\nusing UnityEngine.UI;\n\npublic class LevelTile : MonoBehaviour\n{\n'
                     '    [SerializeField] TMP_Text number;\n    [SerializeField] Image lockIcon;\n    [SerializeField] Image[] stars;\n'
                     '    [SerializeField] CanvasGroup group;\n\n    public void Bind(int level)\n    {\n        number.text = level.ToString();\n'
                     '        bool open = LevelProgress.IsUnlocked(level);\n        lockIcon.enabled = !open;\n        group.alpha = open ? 1f : 0.45f;\n'
                     '        int s = LevelProgress.StarsFor(level);\n        for (int i = 0; i < stars.Length; i++) stars[i].enabled = i < s;\n    }\n}\n'},
           created('%s/Assets/Scripts/UI/LevelSelect/LevelTile.cs' % TD),
           text="`LevelTile` binds a level number, the lock icon and up to three stars; the grid uses a `GridLayoutGroup` with a fixed column count of 4.")
    f3 = 'target is the iphone SE 2nd gen, thats our min spec device'
    c.user('F3', f3, lab('user_fact', 'minimum-spec target device: iPhone SE (2nd gen)', f3, 'lost', 'omitted', ['fact', 'form:omitted'],
                         distinct=['iphone se', '2nd gen', 'second-generation', 'min spec', 'minimum spec'],
                         values=[{'value': 'iPhone SE 2nd gen', 'status': 'lost', 'found_as': None}]))
    c.say("Thanks. I'll set the canvas scaler to match width at 750 px reference so the grid scales down cleanly.")
    t4 = ('[Image #2] on the SE the padlock covers the level number. number has to stay readable, move the lock to the top right '
          'corner of the tile')
    c.user('T4', [image((60, 60, 70)), text(t4)],
           lab('instruction', 'padlock covers the level number on small screens: keep number readable, lock to the top-right corner', t4, 'lost',
               'omitted', ['form:omitted', 'image', 'summary:mentions-without-content', 'after:assistant-topic'],
               distinct=['top right', 'top-right', 'corner', 'covers the level number', 'level number', 'readable']))
    c.say("I see it in the screenshot. I'll adjust the lock icon's anchors in the tile prefab.")
    c.user('C5', 'haha perfect', lab('chatter', 'chatter: haha perfect', 'haha perfect', 'lost', 'omitted', ['chatter']))
    t6 = 'rows should snap when you scroll, and kill the inertia, ppl in the playtest kept flinging right past their level'
    c.user('T6', t6, lab('instruction', 'scroll snaps to rows; no scroll inertia (playtesters flung past levels)', t6, 'lost', 'partial',
                         ['form:partial', 'partial'], partial=True, lost_part='turn off scroll inertia',
                         distinct=['inertia', 'fling', 'playtest', 'deceleration']))
    c.say("I'll add a `RowSnapper` component on the `ScrollRect` that eases the content to the nearest row when the drag ends.")
    t7 = 'progress stays in PlayerPrefs for now, dont pull in a save system asset'
    c.user('T7', t7, lab('instruction', 'keep progress in PlayerPrefs; no save-system asset', t7, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:in_tool_result'],
                         A('R1', 'store progress in PlayerPrefs only, no save-system asset'), repeated_after=['in_tool_result']))
    c.say("Okay. Committing the tile script before the snapper.")
    c.tool('Bash', {'command': 'git add Assets/Scripts/UI/LevelSelect && git commit -qm "level select: tile + grid" && git log -1 --format=%h',
                    'description': 'Commit the tile script'}, '9c41e07')
    c.compact(summary_short({
        'Primary Request and Intent': [
            "Build the level-select screen after a mock-up image the user attached: a grid four tiles wide, locked levels dimmed and marked with a lock icon, and each level's earned stars displayed beneath its tile",
            'The grid scroll should snap to rows when the user stops scrolling',
            'A second screenshot showing a problem with the padlock on a small device was shared.',
        ],
        'Key Technical Concepts': ['Unity UI: `GridLayoutGroup` (fixed column count), `ScrollRect`, `CanvasGroup` alpha for locked tiles',
                                   'TextMeshPro (`TMP_Text`) for the tile captions', '`LevelProgress` reads stars and unlock state'],
        'Files and Code Sections': [
            '`%s/Assets/Scripts/UI/LevelSelect/LevelTile.cs` (new, committed 9c41e07): `Bind(level)` sets number, lock icon, stars, alpha 0.45 when locked' % TD,
            '`%s/Assets/Scripts/Progress/LevelProgress.cs`: `StarsFor`, `IsUnlocked`' % TD,
        ],
        'Problem Solving': 'Canvas scaler set to match width against a 750 px reference so the grid shrinks on narrow phones.',
        'Pending Tasks': ['`RowSnapper` on the scroll view', 'Adjust the lock icon in the tile prefab', 'Wire the grid to the level count'],
        'Current Work': 'The tile script is committed; the row-snapping component is next.',
        'Optional Next Step': 'Write `RowSnapper.cs` and attach it to the level-select `ScrollRect`.',
    }))
    c.tool('Bash', {'command': 'git log -3 --format=%s', 'description': 'Recent commit messages'},
           'level select: tile + grid\nlevel select: store progress in PlayerPrefs only, no save-system asset (aiko)\nhud: pause button safe area',
           text="Checking recent history before adding the snapper.", anchor='R1')
    c.tool('Write', {'file_path': '%s/Assets/Scripts/UI/LevelSelect/RowSnapper.cs' % TD, 'content':
                     'using UnityEngine;\nusing UnityEngine.EventSystems;\nusing UnityEngine.UI;\n\n'
                     'public class RowSnapper : MonoBehaviour, IEndDragHandler\n{\n    [SerializeField] ScrollRect scroll;\n'
                     '    [SerializeField] float rowHeight = 220f;\n\n    public void OnEndDrag(PointerEventData e)\n    {\n'
                     '        var y = Mathf.Round(scroll.content.anchoredPosition.y / rowHeight) * rowHeight;\n'
                     '        StartCoroutine(EaseTo(y));\n    }\n}\n'},
           created('%s/Assets/Scripts/UI/LevelSelect/RowSnapper.cs' % TD))
    c.say("Snapper added. Next I'll centre the lock icon over the tile in the prefab so it reads clearly on every size.")
    return c.write({'situations': ['image request paraphrased (4 columns -> four tiles wide)', 'fact (min-spec device) lost',
                                   'second image turn lost: summary only says a screenshot about the padlock was shared; the assistant centres the icon after the boundary',
                                   'partial (row snap kept, no inertia dropped)',
                                   'instruction omitted, recorded in a commit message the agent reads after the boundary (in_tool_result)',
                                   'chatter omitted']})


# --------------------------------------------------------------------------------------------
def r04():
    c = Case('r04-homelab-nextcloud', 'homelab', '2.0', seed=5304, pre_tokens=158712, start='2026-01-17T20:44:00')
    t1 = ('new role for nextcloud on the LXC i just made on proxmox (ct 114). postgres and redis on the same container, caddy in front '
          'doing tls')
    c.user('T1', t1, lab('instruction', 'Ansible role: Nextcloud on Proxmox LXC 114, Postgres + Redis in the same container, Caddy for TLS', t1,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'paraphrase:vocab'],
                         S('an Ansible role that installs Nextcloud into the freshly created Proxmox container 114, with PostgreSQL and Redis co-located in that container and Caddy as the TLS-terminating reverse proxy'),
                         values=[{'value': 'ct 114', 'status': 'in_summary', 'found_as': 'container 114'}]))
    c.tools([('Bash', {'command': 'ls roles/ && cat inventory/hosts.yml | head -20', 'description': 'List roles and inventory'},
              'caddy\ncommon\njellyfin\npihole\n---\nall:\n  children:\n    lxc:\n      hosts:\n        jellyfin.lan: {ansible_host: 10.0.20.12}\n'
              '        pihole.lan: {ansible_host: 10.0.20.3}'),
             ('Read', {'file_path': '%s/roles/caddy/tasks/main.yml' % HL}, numbered(
                 '- name: Install caddy\n  ansible.builtin.apt:\n    name: caddy\n    state: present\n\n'
                 '- name: Site config\n  ansible.builtin.template:\n    src: Caddyfile.j2\n    dest: /etc/caddy/Caddyfile\n  notify: reload caddy'))],
            text="Looking at the existing roles and inventory first.")
    c.tool('Bash', {'command': 'ansible-galaxy role init roles/nextcloud --init-path . && git add roles/nextcloud && git commit -qm "nextcloud: role skeleton" && echo ok',
                    'description': 'Create and commit the role skeleton'}, '- Role roles/nextcloud was created successfully\nok',
           text="Creating the role skeleton and committing it.")
    c.rejected('Bash', {'command': 'git push origin main', 'description': 'Push the skeleton'}, text="Pushing the skeleton so CI lints it.")
    t2 = 'dont ever push to main. everything goes on a branch and i review the PR'
    c.user('T2', t2, lab('instruction', 'never push to main; work on a branch, user reviews the PR', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'negation-moved', 'after-rejection'],
                         S('Pushes to `main` are off limits; work happens on a feature branch and reaches `main` only through a pull request that the user reviews')))
    c.tool('Bash', {'command': 'git switch -c nextcloud-role && git push -u origin nextcloud-role 2>&1 | tail -1',
                    'description': 'Move the commit to a branch and push it'},
           "branch 'nextcloud-role' set up to track 'origin/nextcloud-role'.", text="Sorry about that. Moving the work to a branch.")
    c.say("The skeleton is on `nextcloud-role`. I'll fill in tasks for PHP-FPM, PostgreSQL, Redis and the Nextcloud tarball next.")
    c.user('C3', 'lgtm', lab('chatter', 'chatter: lgtm', 'lgtm', 'in_summary', 'verbatim', ['chatter'], S('"lgtm"')))
    c.say("Which Proxmox node is CT 114 on? I'd like the `community.general.proxmox` tasks to target it explicitly.")
    f4 = 'node name is pve-attic'
    c.user('F4', f4, lab('user_fact', 'Proxmox node name pve-attic', f4, 'in_summary', 'form:pve-attic', ['fact'], S('Proxmox node `pve-attic`'),
                         values=[{'value': 'pve-attic', 'status': 'in_summary', 'found_as': 'pve-attic'}]))
    t5 = ('db password and the nextcloud admin pw go into group_vars/nextcloud/vault.yml, encrypted w ansible-vault. never in plain text '
          'in defaults/')
    c.user('T5', t5, lab('instruction', 'DB and admin passwords in group_vars/nextcloud/vault.yml (ansible-vault); never plaintext in defaults/', t5,
                         'lost', 'omitted', ['form:omitted', 'summary:mentions-without-content', 'after:assistant-topic'],
                         distinct=['vault', 'plain text', 'plaintext', 'encrypted', 'group_vars/nextcloud']))
    c.say("Understood.")
    t6 = 'pin nextcloud to 29.0.7 and also turn off app auto updates, last time an app update broke calendar sync for a week'
    c.user('T6', t6, lab('instruction', 'pin Nextcloud 29.0.7; disable app auto-updates', t6, 'lost', 'partial', ['form:partial', 'partial'],
                         partial=True, lost_part='turn off app auto-updates',
                         distinct=['auto update', 'auto-update', 'autoupdate', 'app update', 'calendar'],
                         values=[{'value': '29.0.7', 'status': 'in_summary', 'found_as': '29.0.7'}]))
    c.say("Will pin it via `nextcloud_version`.")
    c.compact(summary_20(
        """Chronological review:

1. The user asked for an Ansible role deploying Nextcloud into Proxmox container 114 with PostgreSQL, Redis and Caddy.
2. I looked at the existing roles (`caddy`, `common`, `jellyfin`, `pihole`) and the inventory, created `roles/nextcloud` with `ansible-galaxy role init` and committed it.
3. I tried to push to `main`; the user rejected the push and stated the branching rule. I moved the commit to `nextcloud-role` and pushed that branch.
4. The user approved ("lgtm") and gave the Proxmox node name.
5. The user gave instructions about credentials and about the version; I said I would pin the version through a variable.""",
        {
            'Primary Request and Intent': [
                'Write an Ansible role that installs Nextcloud into the freshly created Proxmox container 114, with PostgreSQL and Redis co-located in that container and Caddy as the TLS-terminating reverse proxy',
                'Pushes to `main` are off limits; work happens on a feature branch and reaches `main` only through a pull request that the user reviews',
                'Nextcloud is pinned to 29.0.7',
            ],
            'Key Technical Concepts': ['Ansible roles, handlers, templates; `community.general.proxmox`', 'Proxmox node `pve-attic`, LXC 114',
                                       'PHP-FPM + PostgreSQL + Redis (file locking / memcache) behind Caddy'],
            'Files and Code Sections': ['`%s/roles/nextcloud/` (skeleton from `ansible-galaxy role init`, on branch `nextcloud-role`)' % HL,
                                        '`%s/roles/caddy/tasks/main.yml`: existing Caddy role, reused for the site block' % HL,
                                        '`%s/inventory/hosts.yml`: `lxc` group, new host to be added' % HL],
            'Errors and fixes': ['A `git push origin main` was rejected by the user; the commit was moved to branch `nextcloud-role` instead.'],
            'Problem Solving': 'Reuse the existing Caddy role rather than templating a second Caddyfile.',
            'All user messages': [
                'Asked for a new role for Nextcloud on CT 114 with Postgres and Redis on the same container and Caddy in front doing TLS',
                'After rejecting the push: pushes to main are off limits, branch + PR that they review',
                '"lgtm"',
                '"node name is pve-attic"',
                'Asked for credentials handling (see above) and for Nextcloud to be pinned to 29.0.7',
            ],
            'Pending Tasks': ['Tasks for PHP-FPM, PostgreSQL, Redis, Nextcloud tarball', '`defaults/main.yml` variables', 'Caddy site block', 'Inventory entry for CT 114'],
            'Current Work': 'Filling in `roles/nextcloud` on branch `nextcloud-role`.',
            'Optional Next Step': 'Write `roles/nextcloud/defaults/main.yml` with the version pin and database settings.',
        }))
    c.tool('Write', {'file_path': '%s/roles/nextcloud/defaults/main.yml' % HL, 'content':
                     '---\nnextcloud_version: "29.0.7"\nnextcloud_db_name: nextcloud\nnextcloud_db_user: nextcloud\n'
                     'nextcloud_db_password: "changeme"\nnextcloud_admin_user: admin\nnextcloud_admin_password: "changeme"\n'
                     'nextcloud_data_dir: /srv/nextcloud-data\nnextcloud_redis_socket: /run/redis/redis-server.sock\n'},
           created('%s/roles/nextcloud/defaults/main.yml' % HL),
           text="Writing the role defaults: version pin, database and admin credentials with placeholder values, data dir and Redis socket.")
    c.say("Defaults are in. Next: the PostgreSQL tasks (create role and database from these variables).")
    return c.write({'situations': ['request paraphrased with a value (ct 114 -> container 114)',
                                   'rejected git push + interrupt marker (skipped), then "dont ever push to main" kept as "pushes to main are off limits" (negation moved)',
                                   'chatter quoted', 'fact kept',
                                   'credentials rule lost: the summary says "credentials handling (see above)" without content; the assistant writes plaintext placeholders after the boundary',
                                   'partial (version pin kept, app auto-updates dropped)']})


# --------------------------------------------------------------------------------------------
def r05():
    c = Case('r05-huddle-presence', 'phoenix', '2.1', seed=5305, pre_tokens=162480, start='2026-03-04T11:20:00')
    t1 = ('presence dots in the channel sidebar. green = online, grey = away after 5 min idle, nothing when offline. Phoenix.Presence, '
          'no polling')
    c.user('T1', command('spec', t1),
           lab('instruction', 'presence dots in channel sidebar: green online, grey after 5 min idle, none offline; Phoenix.Presence, no polling', t1,
               'in_summary', 'paraphrase', ['form:paraphrase', 'wrapper:command-args', 'numbers-as-words', 'negation-moved'],
               S("using Phoenix.Presence pushes rather than periodic requests: a green dot while the member is online, a grey dot once they have been idle for five minutes, and no dot at all when they are offline"),
               wrapper='command-args', values=[{'value': '5 min', 'status': 'in_summary', 'found_as': 'five minutes'}]))
    c.user(None, [text('Turn the request below into a short spec (behaviour, edge cases, files to change), show it, then implement it.\n\n'
                       'ARGUMENTS: ' + t1)], meta=True, wait=(1, 2))
    c.tools([('Read', {'file_path': '%s/lib/huddle_web/live/channel_live.ex' % HU}, numbered(
        'defmodule HuddleWeb.ChannelLive do\n  use HuddleWeb, :live_view\n\n  alias Huddle.Chat\n\n'
        '  def mount(%{"id" => id}, _session, socket) do\n    channel = Chat.get_channel!(id)\n'
        '    {:ok, assign(socket, channel: channel, users: Chat.list_members(channel))}\n  end')),
        ('Grep', {'pattern': 'Presence', 'path': '%s/lib' % HU, 'output_mode': 'files_with_matches'}, 'No files found')],
        text="Reading the channel LiveView; there's no Presence module yet.")
    c.say("Spec:\n- `HuddleWeb.Presence` tracks each member's LiveView process with meta `%{status: :online}`\n"
          "- a JS hook reports idleness; after five idle minutes the meta is updated to `:away`\n- offline = no presence entry\n"
          "- the sidebar renders from `presence_diff`\n\nFiles: `lib/huddle_web/presence.ex` (new), `channel_live.ex`, `assets/js/hooks/idle.js` (new).")
    t2 = "i renamed the assigns in channel_live, it's @members now not @users, use that"
    c.user('T2', [text(reminder_modified('%s/lib/huddle_web/live/channel_live.ex' % HU)), text(t2)],
           lab('instruction', 'channel_live assign renamed: use @members, not @users', t2, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'wrapper:system-reminder', 'reminder:block-before'],
               S('renamed the LiveView assign that holds the member list from `@users` to `@members`; new code must use `@members`'),
               wrapper='system-reminder'))
    c.tool('Write', {'file_path': '%s/lib/huddle_web/presence.ex' % HU, 'content':
                     'defmodule HuddleWeb.Presence do\n  use Phoenix.Presence,\n    otp_app: :huddle,\n    pubsub_server: Huddle.PubSub\nend\n'},
           created('%s/lib/huddle_web/presence.ex' % HU), text="Creating the Presence module.")
    c.user('C3', 'sounds good', lab('chatter', 'chatter: sounds good', 'sounds good', 'in_summary', 'verbatim', ['chatter'], S('"sounds good"')))
    t4 = 'idle detection client side in a JS hook. debounce the activity events, I dont want a push to the server on every mousemove'
    c.user('T4', t4, lab('instruction', 'idle detection in a client JS hook; debounce activity, no server push per mousemove', t4, 'in_summary',
                         'paraphrase', ['form:paraphrase', 'negation-moved', 'paraphrase:vocab'],
                         S('Idleness is detected in the browser by a LiveView JS hook, and activity events are debounced so that pointer movement does not cause a round trip to the server each time')))
    c.tool('Write', {'file_path': '%s/assets/js/hooks/idle.js' % HU, 'content':
                     'const IDLE_MS = 5 * 60 * 1000\n\nexport const Idle = {\n  mounted() {\n    this.away = false\n'
                     '    this.reset = debounce(() => this.active(), 1000)\n    ;["mousemove", "keydown", "touchstart"].forEach(e => window.addEventListener(e, this.reset))\n'
                     '    this.timer = setTimeout(() => this.idle(), IDLE_MS)\n  },\n'
                     '  idle() { this.away = true; this.pushEvent("presence:away", {}) },\n'
                     '  active() {\n    clearTimeout(this.timer)\n    this.timer = setTimeout(() => this.idle(), IDLE_MS)\n'
                     '    if (this.away) { this.away = false; this.pushEvent("presence:back", {}) }\n  }\n}\n'},
           created('%s/assets/js/hooks/idle.js' % HU), text="The hook only pushes on a state change (away/back); activity is debounced to one check per second.")
    t6 = 'presence must never leak between workspaces, topic is presence:<workspace_id>:<channel_id>'
    c.user('T6', t6 + '\n\n' + reminder_todo_empty(),
           lab('instruction', 'no presence leaks across workspaces; topic presence:<workspace_id>:<channel_id>', t6, 'repeated_later', 'omitted',
               ['form:omitted', 'summary:mentions-without-content', 'wrapper:system-reminder', 'reminder:after', 'reminder:todo', 'repeat:paraphrase'],
               A('U1', 'has to be presence:<workspace_id>:<channel_id>'), repeated_after=['paraphrase'], wrapper='system-reminder'))
    c.say("Got it.")
    c.user('C7', '\U0001f44c', lab('chatter', 'chatter: 👌', '\U0001f44c', 'in_summary', 'paraphrase', ['chatter', 'form:paraphrase'], S('Emoji acknowledgement')))
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            "Via the `/spec` command: show each member's status in the channel sidebar using Phoenix.Presence pushes rather than periodic requests: a green dot while the member is online, a grey dot once they have been idle for five minutes, and no dot at all when they are offline",
            'The user renamed the LiveView assign that holds the member list from `@users` to `@members`; new code must use `@members`',
            'Idleness is detected in the browser by a LiveView JS hook, and activity events are debounced so that pointer movement does not cause a round trip to the server each time',
        ],
        'Key Technical Concepts': ['Phoenix.Presence with PubSub `Huddle.PubSub`; `presence_diff` broadcasts', 'LiveView JS hooks, `pushEvent`',
                                   'Presence meta `status: :online | :away`'],
        'Files and Code Sections': [
            '`%s/lib/huddle_web/presence.ex` (new): `use Phoenix.Presence`' % HU,
            '`%s/assets/js/hooks/idle.js` (new): `Idle` hook, 5-minute timer, pushes `presence:away` / `presence:back` only on change' % HU,
            '`%s/lib/huddle_web/live/channel_live.ex`: mount assigns `channel` and the member list (assign now `@members`)' % HU,
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'Only state changes reach the server, so an active user produces no traffic at all.',
        'All user messages': [
            '/spec: presence dots in the channel sidebar (green online, grey after five idle minutes, nothing offline), Phoenix.Presence, no polling',
            "Renamed the assigns in channel_live: it's @members now, not @users",
            '"sounds good"',
            'Idle detection on the client in a JS hook, debounced, no server push per mouse movement',
            'A note about presence scoping',
            'Emoji acknowledgement',
        ],
        'Pending Tasks': ['Track presence in `ChannelLive.mount/3`', 'Handle `presence:away` / `presence:back` events', 'Render the dots in the sidebar'],
        'Current Work': 'Hook written; next is tracking in the LiveView.',
        'Optional Next Step': 'Call `HuddleWeb.Presence.track/4` in `mount/3` when the socket is connected.',
    }))
    c.user('U1', 'btw the topic has to be presence:<workspace_id>:<channel_id>, no cross-workspace leaking pls',
           after=dict(repeat_of='T6', mode='paraphrase'))
    c.tool('Edit', {'file_path': '%s/lib/huddle_web/live/channel_live.ex' % HU,
                    'old_string': '    channel = Chat.get_channel!(id)\n',
                    'new_string': '    channel = Chat.get_channel!(id)\n    topic = "presence:#{channel.workspace_id}:#{channel.id}"\n\n'
                                  '    if connected?(socket) do\n      HuddleWeb.Presence.track(self(), topic, socket.assigns.current_user.id, %{status: :online})\n'
                                  '      Phoenix.PubSub.subscribe(Huddle.PubSub, topic)\n    end\n'},
           edited('%s/lib/huddle_web/live/channel_live.ex' % HU, '    channel = Chat.get_channel!(id)\n    topic = "presence:#{channel.workspace_id}:#{channel.id}"', 7),
           text="Tracking under the workspace-scoped topic.")
    c.say("Presence is tracked per workspace and channel. Next: rendering the dots from `@members`.")
    return c.write({'situations': ['wrapper:command-args (/spec) with its isMeta expansion, paraphrased (no polling -> pushes rather than periodic requests)',
                                   'wrapper:system-reminder block before the request (the reminder text is not the user\'s)',
                                   'negation moved ("I dont want a push on every mousemove" -> "does not cause a round trip each time")',
                                   'system-reminder (empty todo list) after the request; the turn is omitted and paraphrased by the user after the boundary',
                                   'summary mentions "a note about presence scoping" without content',
                                   'chatter quoted / emoji chatter described ("Emoji acknowledgement")']})


# --------------------------------------------------------------------------------------------
def r06():
    c = Case('r06-rnaseq-liver', 'bio', 'short', seed=5306, pre_tokens=144018, start='2025-10-28T08:47:00')
    t1 = ("ok some context first. we have 48 liver biopsies, paired end 2x150, half NAFLD half controls. the old pipeline from the "
          "previous postdoc used tophat which is ancient and reviewer 2 flagged it, so the PI wants everything realigned before the "
          "revision goes back. i'd like a snakemake workflow: fastp for trimming, STAR against GRCh38 with the gencode v44 annotation, "
          "featureCounts for gene counts.")
    c.user('T1', t1, lab('instruction', 'Snakemake workflow for 48 PE 2x150 liver biopsies: fastp, STAR vs GRCh38 + GENCODE v44, featureCounts', t1,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'long-turn', 'paraphrase:vocab'],
                         S('read trimming with fastp, STAR alignment to GRCh38 using the GENCODE release 44 annotation, and gene-level counting with featureCounts'),
                         values=[{'value': 'GRCh38', 'status': 'in_summary', 'found_as': 'GRCh38'},
                                 {'value': 'gencode v44', 'status': 'in_summary', 'found_as': 'GENCODE release 44'}]))
    c.say("Happy to. Where do the FASTQs live, and is there a SLURM profile for Snakemake on this cluster already?")
    c.local_command('model', 'Set model to opus (claude-opus-4-7)')
    f2 = 'reads are in /project/hepato/raw/2024_biopsies/ , that dir is read only'
    c.user('F2', f2, lab('user_fact', 'raw reads in /project/hepato/raw/2024_biopsies/ (read-only)', f2, 'in_summary',
                         'form:/project/hepato/raw/2024_biopsies', ['fact', 'path'],
                         S('`/project/hepato/raw/2024_biopsies` (read-only)'),
                         values=[{'value': '/project/hepato/raw/2024_biopsies/', 'status': 'in_summary', 'found_as': '/project/hepato/raw/2024_biopsies'}]))
    c.tools([('Bash', {'command': 'ls /project/hepato/raw/2024_biopsies/ | head -4; ls /project/hepato/raw/2024_biopsies/ | wc -l',
                       'description': 'Inspect the raw FASTQ folder'},
              'LB001_R1.fastq.gz\nLB001_R2.fastq.gz\nLB002_R1.fastq.gz\nLB002_R2.fastq.gz\n96'),
             ('Bash', {'command': 'ls ~/.config/snakemake/', 'description': 'Look for Snakemake profiles'}, 'slurm')],
            text="Checking the input folder and the available profiles.")
    c.say("96 files = 48 pairs, named `LB###_R{1,2}.fastq.gz`. There's a `slurm` profile in `~/.config/snakemake/`.")
    t3 = ("important: the login node is shared by ~60 ppl and last month someone's account got suspended for building a STAR index on "
          "it. so every rule that does actual work goes through slurm via the profile, nothing heavier than a quick python one-liner "
          "runs on the login node. and each rule gets its own conda env yaml w pinned versions, no unpinned deps")
    c.user('T3', t3, lab('instruction', 'all real work via SLURM profile, nothing heavy on login node; per-rule conda env YAML with pinned versions', t3,
                         'lost', 'partial', ['form:partial', 'partial', 'long-turn'], partial=True,
                         lost_part='each rule gets its own conda env YAML with pinned versions',
                         distinct=['conda', 'pinned', 'env yaml', 'unpinned', 'envs/']))
    c.say("Understood. Only `localrules: all` will run on the login node; everything else is submitted through the profile.")
    c.user('C4', 'perfect thanks', lab('chatter', 'chatter: perfect thanks', 'perfect thanks', 'lost', 'omitted', ['chatter']))
    t5 = 'for the index set sjdbOverhang to 149 not the default 100, our reads are 150'
    c.user('T5', t5, lab('instruction', 'STAR index with sjdbOverhang 149 (reads 150), not default 100', t5, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'paraphrase:vocab', 'negation-moved'],
                         S("the splice-junction database overhang is set to read length minus one, i.e. 149, instead of STAR's default"),
                         values=[{'value': '149', 'status': 'in_summary', 'found_as': '149'}]))
    c.tool('Write', {'file_path': '%s/workflow/rules/align.smk' % RN, 'content':
                     'rule star_index:\n    input:\n        fa=config["genome_fa"],\n        gtf=config["gtf"],\n'
                     '    output:\n        directory("resources/star_index")\n    threads: 16\n    resources:\n        mem_mb=64000\n'
                     '    shell:\n        "STAR --runMode genomeGenerate --genomeDir {output} --genomeFastaFiles {input.fa} "\n'
                     '        "--sjdbGTFfile {input.gtf} --sjdbOverhang 149 --runThreadN {threads}"\n'},
           created('%s/workflow/rules/align.smk' % RN), text="Writing the index rule.")
    t6 = 'keep the sorted BAMs, only the unsorted intermediates get temp()'
    c.user('T6', t6, lab('instruction', 'keep sorted BAMs; only unsorted intermediates marked temp()', t6, 'lost', 'omitted',
                         ['form:omitted', 'after:assistant-topic'], distinct=['unsorted', 'intermediates', 'temp(', 'keep the sorted']))
    c.say("OK.")
    c.compact(summary_short({
        'Primary Request and Intent': [
            'Build a Snakemake workflow to reprocess 48 paired-end (2×150 bp) liver biopsy libraries (NAFLD vs control) for the paper revision, replacing the old TopHat pipeline: read trimming with fastp, STAR alignment to GRCh38 using the GENCODE release 44 annotation, and gene-level counting with featureCounts',
            'All compute-heavy rules must be submitted to SLURM through the workflow profile; nothing substantial may execute on the shared login node',
            "For the STAR index, the splice-junction database overhang is set to read length minus one, i.e. 149, instead of STAR's default",
        ],
        'Key Technical Concepts': ['Snakemake with the `slurm` profile in `~/.config/snakemake/`; `localrules: all`',
                                   'Raw FASTQs: `/project/hepato/raw/2024_biopsies` (read-only), 96 files = 48 pairs `LB###_R{1,2}.fastq.gz`',
                                   'fastp → STAR → featureCounts (gene level)'],
        'Files and Code Sections': ['`%s/workflow/rules/align.smk` (new): `star_index` rule, 16 threads, 64 GB, `--sjdbOverhang 149`' % RN],
        'Problem Solving': 'Sample names are derived from the FASTQ file names with a glob_wildcards call.',
        'Pending Tasks': ['fastp rule', 'STAR align + samtools sort rules', 'featureCounts rule', '`config.yaml` with genome and GTF paths'],
        'Current Work': 'The index rule is written; the alignment rule is next.',
        'Optional Next Step': 'Write `star_align` and `sort_bam` in `align.smk`.',
    }))
    c.tool('Edit', {'file_path': '%s/workflow/rules/align.smk' % RN, 'old_string': '        "--sjdbGTFfile {input.gtf} --sjdbOverhang 149 --runThreadN {threads}"\n',
                    'new_string': '        "--sjdbGTFfile {input.gtf} --sjdbOverhang 149 --runThreadN {threads}"\n\n\nrule star_align:\n'
                                  '    input:\n        r1="results/trimmed/{s}_R1.fq.gz",\n        r2="results/trimmed/{s}_R2.fq.gz",\n'
                                  '        idx="resources/star_index",\n    output:\n        "results/star/{s}/Aligned.sortedByCoord.out.bam"\n    threads: 12\n'
                                  '    shell:\n        "STAR --genomeDir {input.idx} --readFilesIn {input.r1} {input.r2} --readFilesCommand zcat "\n'
                                  '        "--outSAMtype BAM SortedByCoordinate --runThreadN {threads} --outFileNamePrefix results/star/{wildcards.s}/"\n'},
           edited('%s/workflow/rules/align.smk' % RN, 'rule star_align:\n    input:\n        r1="results/trimmed/{s}_R1.fq.gz",', 14),
           text="Adding the alignment rule.")
    c.say("Alignment rule is in. To keep scratch usage down I'll mark every BAM the workflow produces as temporary, so only the count "
          "tables and QC reports remain at the end of a run.")
    return c.write({'situations': ['long turn with context (48 samples, reviewer, PI) paraphrased with values (gencode v44 -> GENCODE release 44)',
                                   'local /model command: isMeta caveat, command record and output record (skipped)', 'path fact kept',
                                   'long turn mixing reasons with two rules: SLURM kept, per-rule pinned environments dropped (partial)',
                                   'heavy rewording (149 -> read length minus one, i.e. 149)',
                                   'BAM retention rule lost; after the boundary the assistant plans to delete every BAM', 'chatter omitted']})


CASES = [r01, r02, r03, r04, r05, r06]
