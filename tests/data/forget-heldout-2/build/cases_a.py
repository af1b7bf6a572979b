"""q01-q06. Every label below is the labeller's judgement, written by hand. Every turn, tool call,
tool result and summary here was written for this set."""
from builder import (Case, lab, S, A, ide_opened, ide_selection, reminder_modified, text, image, numbered, edited, created,
                     TODO_OK, todos, command, summary_20, summary_21, summary_short)

LG = '/Users/priya/src/ledger-api'
PL = '/home/tomasz/work/orders-pipeline'
HB = '/Users/jules/dev/Streaky'
IF = '/Users/okafor/repos/platform-infra'
GM = '/home/lin/games/cryptfall'
DC = '/Users/sam/code/lumen-docs'


# --------------------------------------------------------------------------------------------
def q01():
    c = Case('q01-ledger-idempotency', 'ledger', '2.0', seed=4401, pre_tokens=151204, start='2025-10-14T09:41:00')
    t1 = ('add idempotency keys to POST /transfers. read the Idempotency-Key header, store it w the response for 24h '
          'and replay the stored response if the same key comes back')
    c.user('T1', [ide_opened('%s/app/routers/transfers.py' % LG), text(t1)],
           lab('instruction', 'idempotency keys on POST /transfers: Idempotency-Key header, store with response 24h, replay on repeat', t1,
               'in_summary', 'verbatim', ['form:verbatim', 'wrapper:ide_opened_file'],
               S('"add idempotency keys to POST /transfers. read the Idempotency-Key header, store it w the response for 24h and replay the stored response if the same key comes back"'),
               wrapper='ide_opened_file',
               values=[{'value': '24h', 'status': 'in_summary', 'found_as': '24h'}]))
    c.tools([('Read', {'file_path': '%s/app/routers/transfers.py' % LG}, numbered(
        'from fastapi import APIRouter, Depends, HTTPException, status\n'
        'from sqlalchemy.ext.asyncio import AsyncSession\n\n'
        'from app.db import get_session\n'
        'from app.schemas import TransferIn, TransferOut\n'
        'from app.services.transfers import create_transfer\n\n'
        'router = APIRouter(prefix="/transfers", tags=["transfers"])\n\n\n'
        '@router.post("", response_model=TransferOut, status_code=status.HTTP_201_CREATED)\n'
        'async def post_transfer(body: TransferIn, session: AsyncSession = Depends(get_session)) -> TransferOut:\n'
        '    try:\n'
        '        transfer = await create_transfer(session, body)\n'
        '    except InsufficientFunds as exc:\n'
        '        raise HTTPException(status.HTTP_422_UNPROCESSABLE_ENTITY, str(exc)) from exc\n'
        '    return TransferOut.model_validate(transfer)')),
        ('Grep', {'pattern': 'idempot', '-i': True, 'path': LG, 'output_mode': 'files_with_matches'}, 'No files found')],
        text="Let me look at the transfers router and check whether anything idempotency-related exists already.")
    c.say("There's no existing idempotency handling. Before I pick a storage backend: which Postgres version runs in staging and "
          "production? If it's 15+, I can use `MERGE` / `INSERT ... ON CONFLICT` to claim a key atomically.")
    f2 = 'pg is 15.4 on staging + prod fyi, so MERGE is there'
    c.user('F2', f2, lab('user_fact', 'Postgres 15.4 in staging and prod', f2, 'in_summary', 'form:PostgreSQL 15.4', ['fact'],
                         S('PostgreSQL 15.4 in staging and production'),
                         values=[{'value': '15.4', 'status': 'in_summary', 'found_as': 'PostgreSQL 15.4'}]))
    c.say("Good, then the claim can be a single `INSERT ... ON CONFLICT DO NOTHING RETURNING`. I was also considering a Redis "
          "`SET NX` with a TTL for the in-flight lock, since it expires on its own.")
    t3 = 'dont use redis for this, we dont run it in prod. postgres table only'
    c.user('T3', t3, lab('instruction', 'no Redis (not in prod); a Postgres table only', t3, 'in_summary', 'verbatim', ['form:verbatim'],
                         S('"dont use redis for this, we dont run it in prod. postgres table only"')))
    c.tool('TodoWrite', todos(('Add idempotency_keys table model', 'Adding idempotency_keys table model', 'in_progress'),
                              ('Claim/replay logic in app/idempotency.py', 'Writing claim/replay logic', 'pending'),
                              ('Wire the dependency into POST /transfers', 'Wiring the dependency into POST /transfers', 'pending'),
                              ('Alembic migration', 'Writing the Alembic migration', 'pending'),
                              ('Tests', 'Writing tests', 'pending')), TODO_OK)
    c.tool('Write', {'file_path': '%s/app/idempotency.py' % LG, 'content':
                     '"""Idempotency-Key support for unsafe endpoints."""\n'
                     'from datetime import datetime, timedelta, timezone\n\n'
                     'from sqlalchemy import JSON, DateTime, Integer, String, func, select\n'
                     'from sqlalchemy.dialects.postgresql import insert\n'
                     'from sqlalchemy.orm import Mapped, mapped_column\n\n'
                     'from app.db import Base\n\n'
                     'KEY_TTL = timedelta(hours=24)\n\n\n'
                     'class IdempotencyKey(Base):\n'
                     '    __tablename__ = "idempotency_keys"\n\n'
                     '    key: Mapped[str] = mapped_column(String(255), primary_key=True)\n'
                     '    request_hash: Mapped[str] = mapped_column(String(64))\n'
                     '    status_code: Mapped[int | None] = mapped_column(Integer)\n'
                     '    response_body: Mapped[dict | None] = mapped_column(JSON)\n'
                     '    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())\n'},
           created('%s/app/idempotency.py' % LG))
    c.say("Table model is in place: `idempotency_keys` with the key, a hash of the request body (so a reused key with a different "
          "body can be rejected with 422), the stored status code and body, and `created_at` for the 24h expiry.")
    c.user('C4', 'sweet', lab('chatter', 'chatter: sweet', 'sweet', 'lost', 'omitted', ['chatter']))
    c.tool('Edit', {'file_path': '%s/app/idempotency.py' % LG, 'old_string': 'KEY_TTL = timedelta(hours=24)\n',
                    'new_string': 'KEY_TTL = timedelta(hours=24)\n\n\nasync def claim(session, key: str, request_hash: str):\n'
                                  '    stmt = insert(IdempotencyKey).values(key=key, request_hash=request_hash).on_conflict_do_nothing()\n'
                                  '    result = await session.execute(stmt.returning(IdempotencyKey.key))\n'
                                  '    return result.scalar_one_or_none() is not None\n'},
           edited('%s/app/idempotency.py' % LG, 'KEY_TTL = timedelta(hours=24)\n\n\nasync def claim(session, key: str, request_hash: str):\n'
                  '    stmt = insert(IdempotencyKey).values(key=key, request_hash=request_hash).on_conflict_do_nothing()\n'
                  '    result = await session.execute(stmt.returning(IdempotencyKey.key))\n'
                  '    return result.scalar_one_or_none() is not None', 10))
    t5 = 'money amounts are integer cents everywhere. no floats, no Decimal in the api models'
    c.user('T5', t5, lab('instruction', 'amounts are integer cents everywhere; no float or Decimal in the API models', t5, 'lost', 'omitted',
                         ['form:omitted', 'after:assistant-topic'],
                         distinct=['integer cents', 'cents', 'float', 'decimal']))
    c.say("Understood. `TransferIn` and `TransferOut` already declare the amount as `int`, so the stored response body round-trips "
          "unchanged; nothing to convert there.")
    c.tool('Bash', {'command': 'ls migrations/versions/', 'description': 'List existing Alembic migrations'},
           '2025_02_03_0900_initial_schema.py\n2025_02_19_1412_accounts_add_currency.py\n2025_03_11_1630_transfers_add_reference.py')
    c.say("Next is the Alembic migration for `idempotency_keys` (table plus an index on `created_at` for the cleanup job).")
    t6 = ('also the migration has to be reversible so write the downgrade() too, and name the file with the date prefix like '
          'the others (2025_03_14_...)')
    c.user('T6', t6, lab('instruction', 'migration reversible with downgrade(); file named with the date prefix like the others', t6,
                         'lost', 'partial', ['form:partial', 'partial'], partial=True,
                         lost_part='name the migration file with the date prefix like the others (2025_03_14_...)',
                         distinct=['date prefix', '2025_03_14', 'prefix', 'like the others', 'naming convention']))
    c.say("Sure. The plan for the migration: `upgrade()` creates `idempotency_keys` and `ix_idempotency_keys_created_at`; "
          "`downgrade()` drops the index and then the table. Shall I go ahead?")
    c.user('C7', 'yep ship it', lab('chatter', 'chatter: yep ship it', 'yep ship it', 'in_summary', 'verbatim', ['chatter'],
                                    S('"yep ship it"')))
    c.compact(summary_20(
        """Let me go through the conversation chronologically:

1. The user opened `app/routers/transfers.py` and asked for idempotency keys on `POST /transfers`: read the `Idempotency-Key` header, store it with the response for 24h, and replay the stored response when the same key comes back.
2. I read the router; nothing idempotency-related existed. I asked about the Postgres version; the user answered PostgreSQL 15.4 in staging and production, so `MERGE` / `ON CONFLICT` are available.
3. I suggested Redis `SET NX` for an in-flight lock; the user rejected it: Redis is not run in production, a Postgres table only.
4. I wrote `app/idempotency.py` with the `IdempotencyKey` model and a `claim()` helper using `INSERT ... ON CONFLICT DO NOTHING RETURNING`.
5. The user asked that the migration be reversible, with a `downgrade()`. I listed the existing migrations and described the upgrade/downgrade plan; the user approved it.""",
        {
            'Primary Request and Intent': [
                'Add idempotency keys to `POST /transfers`: read the `Idempotency-Key` header, store the key together with the response for 24 hours, and replay the stored response if the same key is sent again',
                'Storage must be a Postgres table (no Redis)',
                'The Alembic migration must be reversible: write `downgrade()` as well',
            ],
            'Key Technical Concepts': [
                'FastAPI router + async SQLAlchemy 2.0 session',
                'PostgreSQL 15.4 in staging and production; atomic claim via `INSERT ... ON CONFLICT DO NOTHING RETURNING`',
                'Request hash stored with the key: same key + different body → 422',
                'Alembic migrations in `migrations/versions/`',
            ],
            'Files and Code Sections': [
                '`%s/app/routers/transfers.py`\n  - `post_transfer()`; not yet wired to the idempotency helper' % LG,
                '`%s/app/idempotency.py` (new)\n  - `IdempotencyKey` model: `key` (PK), `request_hash`, `status_code`, `response_body` (JSON), `created_at`\n  - `KEY_TTL = timedelta(hours=24)`, `claim(session, key, request_hash)`' % LG,
            ],
            'Errors and fixes': ['None so far.'],
            'Problem Solving': 'Chose a single-statement claim so that two concurrent requests with the same key cannot both create a transfer; the loser gets the stored response once the winner has finished.',
            'All user messages': [
                '"add idempotency keys to POST /transfers. read the Idempotency-Key header, store it w the response for 24h and replay the stored response if the same key comes back"',
                '"pg is 15.4 on staging + prod fyi, so MERGE is there"',
                '"dont use redis for this, we dont run it in prod. postgres table only"',
                'Asked for the migration to be reversible, with `downgrade()` written too',
                '"yep ship it"',
            ],
            'Pending Tasks': ['Write the Alembic migration', 'Wire the dependency into `POST /transfers` (replay path)', 'Tests', 'Cleanup of keys older than 24h'],
            'Current Work': 'The user approved the migration plan: `upgrade()` creates `idempotency_keys` and an index on `created_at`; `downgrade()` drops both.',
            'Optional Next Step': 'Create the migration file in `migrations/versions/` and then wire `claim()` into the router.',
        }))
    c.tool('Write', {'file_path': '%s/migrations/versions/7f3c2a91d0e4_add_idempotency_keys.py' % LG, 'content':
                     '"""add idempotency_keys\n\nRevision ID: 7f3c2a91d0e4\nRevises: c81b0e5d2a77\n"""\n'
                     'import sqlalchemy as sa\nfrom alembic import op\n\nrevision = "7f3c2a91d0e4"\ndown_revision = "c81b0e5d2a77"\n\n\n'
                     'def upgrade() -> None:\n    op.create_table(\n        "idempotency_keys",\n'
                     '        sa.Column("key", sa.String(255), primary_key=True),\n'
                     '        sa.Column("request_hash", sa.String(64), nullable=False),\n'
                     '        sa.Column("status_code", sa.Integer()),\n        sa.Column("response_body", sa.JSON()),\n'
                     '        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),\n    )\n'
                     '    op.create_index("ix_idempotency_keys_created_at", "idempotency_keys", ["created_at"])\n\n\n'
                     'def downgrade() -> None:\n    op.drop_index("ix_idempotency_keys_created_at", table_name="idempotency_keys")\n'
                     '    op.drop_table("idempotency_keys")\n'},
           created('%s/migrations/versions/7f3c2a91d0e4_add_idempotency_keys.py' % LG),
           text="Writing the migration now.")
    c.tool('Edit', {'file_path': '%s/app/routers/transfers.py' % LG,
                    'old_string': 'async def post_transfer(body: TransferIn, session: AsyncSession = Depends(get_session)) -> TransferOut:',
                    'new_string': 'async def post_transfer(\n    body: TransferIn,\n    session: AsyncSession = Depends(get_session),\n'
                                  '    idem: IdempotencyContext = Depends(idempotency),\n) -> TransferOut:\n    if idem.replay is not None:\n'
                                  '        return idem.replay'},
           edited('%s/app/routers/transfers.py' % LG, '@router.post("", response_model=TransferOut, status_code=status.HTTP_201_CREATED)\n'
                  'async def post_transfer(\n    body: TransferIn,\n    session: AsyncSession = Depends(get_session),\n'
                  '    idem: IdempotencyContext = Depends(idempotency),\n) -> TransferOut:\n    if idem.replay is not None:\n'
                  '        return idem.replay', 11),
           text="Migration written. Now the router: a replayed request returns the stored body, including the amount field exactly as it was first returned.")
    return c.write({'situations': ['form:verbatim user-message list', 'wrapper:ide_opened_file', 'fact as "PostgreSQL 15.4"',
                                   'silent omission followed by assistant-topic', 'partial (date-prefix naming dropped)',
                                   'chatter quoted / chatter omitted']})


# --------------------------------------------------------------------------------------------
def q02():
    c = Case('q02-pipeline-sensor', 'pipeline', '2.1', seed=4402, pre_tokens=163877, start='2025-09-18T08:02:00')
    t1 = ('the orders_daily dag keeps timing out on the s3 sensor, see below. bump the sensor timeout to 2h and put it in '
          'reschedule mode so it stops hogging a worker slot while it waits\n\n'
          '```\n'
          '[2025-09-18, 06:00:12 UTC] {s3.py:118} INFO - Poking for key : s3://acme-raw-landing/orders/dt=2025-09-18/_SUCCESS\n'
          '[2025-09-18, 06:55:12 UTC] {s3.py:118} INFO - Poking for key : s3://acme-raw-landing/orders/dt=2025-09-18/_SUCCESS\n'
          '[2025-09-18, 07:00:12 UTC] {taskinstance.py:1937} ERROR - Task failed with exception\n'
          'airflow.exceptions.AirflowSensorTimeout: Sensor has timed out; run duration of 3600.21 seconds exceeds the specified timeout of 3600.0.\n'
          '[2025-09-18, 07:00:12 UTC] {taskinstance.py:1400} INFO - Marking task as FAILED. dag_id=orders_daily, task_id=wait_for_orders_export\n'
          '```')
    c.user('T1', t1, lab('instruction', 'S3 sensor in orders_daily: timeout 2h, reschedule mode (pasted sensor-timeout log)', t1,
                         'in_summary', 'paraphrase', ['form:paraphrase', 'paraphrase:vocab', 'numeric', 'paste:log'],
                         S('the S3 key sensor of the `orders_daily` DAG should be given a two-hour timeout and run in reschedule mode, so that it no longer occupies a worker slot while waiting'),
                         values=[{'value': '2h', 'status': 'in_summary', 'found_as': 'two-hour'}]))
    c.tools([('Read', {'file_path': '%s/dags/orders_daily.py' % PL}, numbered(
        'from datetime import datetime, timedelta\n\n'
        'from airflow import DAG\n'
        'from airflow.providers.amazon.aws.sensors.s3 import S3KeySensor\n'
        'from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator\n'
        'from cosmos import DbtTaskGroup\n\n'
        'default_args = {"owner": "data-eng", "retries": 1, "retry_delay": timedelta(minutes=5)}\n\n'
        'with DAG("orders_daily", start_date=datetime(2024, 1, 1), schedule="0 6 * * *", catchup=False, default_args=default_args) as dag:\n'
        '    wait_for_orders_export = S3KeySensor(\n'
        '        task_id="wait_for_orders_export",\n'
        '        bucket_key="s3://acme-raw-landing/orders/dt={{ ds }}/_SUCCESS",\n'
        '        poke_interval=300,\n'
        '        timeout=3600,\n'
        '    )')),
        ('Bash', {'command': 'ls models/staging models/marts', 'description': 'List dbt model folders'},
         'models/marts:\nfct_orders.sql\nfct_orders.yml\ndim_customers.sql\n\nmodels/staging:\nstg_orders.sql\nstg_orders.yml\nstg_order_items.sql')],
        text="Let me look at the DAG and the dbt project layout.")
    c.tool('Edit', {'file_path': '%s/dags/orders_daily.py' % PL,
                    'old_string': '        poke_interval=300,\n        timeout=3600,\n    )',
                    'new_string': '        poke_interval=300,\n        timeout=2 * 60 * 60,\n        mode="reschedule",\n    )'},
           edited('%s/dags/orders_daily.py' % PL, '    wait_for_orders_export = S3KeySensor(\n        task_id="wait_for_orders_export",\n'
                  '        bucket_key="s3://acme-raw-landing/orders/dt={{ ds }}/_SUCCESS",\n        poke_interval=300,\n'
                  '        timeout=2 * 60 * 60,\n        mode="reschedule",\n    )', 11),
           text="The sensor has a one-hour timeout and runs in the default `poke` mode, which holds a worker slot for the whole wait. Changing both:")
    t2 = 'retries 3, exponential backoff, cap the wait between tries at 30 min'
    c.user('T2', t2, lab('instruction', 'retries=3, exponential backoff, max 30 min between attempts', t2, 'in_summary', 'paraphrase',
                         ['form:paraphrase', 'numeric'],
                         S('Three retries with exponential backoff are wanted, the delay between attempts being capped at thirty minutes'),
                         values=[{'value': '30 min', 'status': 'in_summary', 'found_as': 'thirty minutes'}]))
    c.tool('Edit', {'file_path': '%s/dags/orders_daily.py' % PL,
                    'old_string': 'default_args = {"owner": "data-eng", "retries": 1, "retry_delay": timedelta(minutes=5)}',
                    'new_string': 'default_args = {\n    "owner": "data-eng",\n    "retries": 3,\n    "retry_delay": timedelta(minutes=5),\n'
                                  '    "retry_exponential_backoff": True,\n    "max_retry_delay": timedelta(minutes=30),\n}'},
           edited('%s/dags/orders_daily.py' % PL, 'default_args = {\n    "owner": "data-eng",\n    "retries": 3,\n'
                  '    "retry_delay": timedelta(minutes=5),\n    "retry_exponential_backoff": True,\n'
                  '    "max_retry_delay": timedelta(minutes=30),\n}', 8))
    c.say("Done. Which Airflow version is this deployed on? `mode=\"reschedule\"` and `max_retry_delay` are fine on 2.x, but the "
          "deferrable sensor variant needs a triggerer.")
    f3 = 'airflow 2.7.3 on mwaa'
    c.user('F3', f3, lab('user_fact', 'Airflow 2.7.3 on MWAA', f3, 'in_summary', 'form:Airflow 2.7.3', ['fact'],
                         S('Airflow 2.7.3 on Amazon MWAA'),
                         values=[{'value': '2.7.3', 'status': 'in_summary', 'found_as': 'Airflow 2.7.3'}]))
    c.say("Then reschedule mode is the right choice: MWAA 2.7.3 has a triggerer, but reschedule is simpler and needs no extra capacity.")
    c.user('C4', 'cool cool', lab('chatter', 'chatter: cool cool', 'cool cool', 'lost', 'omitted', ['chatter']))
    c.tool('Read', {'file_path': '%s/models/staging/stg_orders.sql' % PL}, numbered(
        "with source as (\n    select * from {{ source('raw', 'orders') }}\n),\n\nrenamed as (\n    select\n"
        "        id as order_id,\n        customer_id,\n        cast(created_at as timestamp) as ordered_at,\n"
        "        status\n    from source\n)\n\nselect * from renamed"),
           text="The DAG's dbt task group builds both staging and marts. Let me check the staging model that reads the export.")
    t5 = "dont touch anything under models/marts/, analytics eng owns those. staging models only"
    c.user('T5', t5, lab('instruction', 'do not touch models/marts/ (owned by analytics engineering); staging models only', t5,
                         'repeated_later', 'omitted', ['form:omitted', 'repeat:paraphrase'],
                         A('U5', "the marts folder isnt ours, analytics engineering owns it. only change stuff in models/staging", how='paraphrase'),
                         repeated_after=['paraphrase']))
    c.say("OK. `stg_orders` casts `created_at` but drops the export's `_loaded_at`, which the freshness check would need; "
          "I'll add it there.")
    t6 = ('and make failures loud pls: on_failure_callback that posts to #data-alerts in slack, not email. '
          'nobody reads the email ones')
    c.user('T6', t6, lab('instruction', 'failures: on_failure_callback posting to #data-alerts on Slack, not email', t6, 'lost', 'omitted',
                         ['form:omitted', 'summary:mentions-without-content'],
                         distinct=['slack', 'data-alerts', 'on_failure_callback', 'email', 'loud']))
    c.tool('Edit', {'file_path': '%s/models/staging/stg_orders.sql' % PL, 'old_string': '        status\n    from source',
                    'new_string': '        status,\n        _loaded_at\n    from source'},
           edited('%s/models/staging/stg_orders.sql' % PL, 'renamed as (\n    select\n        id as order_id,\n        customer_id,\n'
                  '        cast(created_at as timestamp) as ordered_at,\n        status,\n        _loaded_at\n    from source\n)', 5))
    c.user('C7', 'ty!', lab('chatter', 'chatter: ty!', 'ty!', 'lost', 'omitted', ['chatter']))
    c.say("You're welcome. Next I'll add a source freshness check on `raw.orders` using `_loaded_at`.")
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            'It was requested that the S3 key sensor of the `orders_daily` DAG should be given a two-hour timeout and run in reschedule mode, so that it no longer occupies a worker slot while waiting (a log of `AirflowSensorTimeout` after 3600 s was pasted)',
            'Three retries with exponential backoff are wanted, the delay between attempts being capped at thirty minutes',
            'The user also stated how task failures are to be surfaced',
        ],
        'Key Technical Concepts': [
            'Airflow 2.7.3 on Amazon MWAA',
            '`S3KeySensor` in `mode="reschedule"` vs the default poke mode',
            '`retry_exponential_backoff` and `max_retry_delay` in `default_args`',
            'dbt (via Cosmos `DbtTaskGroup`): staging models read the raw export',
        ],
        'Files and Code Sections': [
            '`%s/dags/orders_daily.py`\n  - sensor `wait_for_orders_export`: `timeout=2 * 60 * 60`, `mode="reschedule"`\n  - `default_args`: `retries: 3`, `retry_exponential_backoff: True`, `max_retry_delay: timedelta(minutes=30)`' % PL,
            '`%s/models/staging/stg_orders.sql`\n  - `_loaded_at` is now passed through for a freshness check' % PL,
        ],
        'Errors and fixes': ['`AirflowSensorTimeout` (run duration 3600.21 s > timeout 3600.0) → longer timeout, reschedule mode.'],
        'Problem Solving': 'Reschedule mode was preferred over a deferrable sensor: the triggerer exists on MWAA, but reschedule needs no extra capacity.',
        'All user messages': [
            'Reported that `orders_daily` times out on the S3 sensor (with the log) and asked for a 2h timeout in reschedule mode',
            'Asked for three retries with exponential backoff and at most thirty minutes between tries',
            'Gave the Airflow version (2.7.3, MWAA)',
            'Gave a requirement about failure notifications',
        ],
        'Pending Tasks': ['Add a source freshness check on `raw.orders` using `_loaded_at`'],
        'Current Work': '`_loaded_at` was just added to `stg_orders.sql`.',
        'Optional Next Step': 'Add `freshness` with `loaded_at_field: _loaded_at` to the `raw` source definition.',
    }))
    c.tool('Grep', {'pattern': 'loaded_at_field', 'path': '%s/models' % PL, 'output_mode': 'content', '-n': True},
           '%s/models/marts/fct_orders.yml:4:    loaded_at_field: ordered_at' % PL,
           text="Checking where freshness is configured today.")
    c.say("The only freshness config is in `models/marts/fct_orders.yml`. I'll move the check to the `raw` source and update "
          "`fct_orders.yml` to drop the duplicate.")
    c.user('U5', "wait, the marts folder isnt ours, analytics engineering owns it. only change stuff in models/staging",
           after=dict(repeat_of='T5', mode='paraphrase'))
    c.say("Right, I'll leave `fct_orders.yml` as it is and put the source freshness block in `models/staging/_sources.yml` only.")
    c.tool('Edit', {'file_path': '%s/models/staging/_sources.yml' % PL, 'old_string': '  - name: raw\n    tables:\n      - name: orders',
                    'new_string': '  - name: raw\n    tables:\n      - name: orders\n        loaded_at_field: _loaded_at\n'
                                  '        freshness:\n          warn_after: {count: 26, period: hour}'},
           edited('%s/models/staging/_sources.yml' % PL, 'sources:\n  - name: raw\n    tables:\n      - name: orders\n'
                  '        loaded_at_field: _loaded_at\n        freshness:\n          warn_after: {count: 26, period: hour}', 1))
    return c.write({'situations': ['heavy paraphrase (passive, numbers as words)', 'paste:log', 'fact as "Airflow 2.7.3"',
                                   'repeat:paraphrase by the user', 'summary mentions a failure-notification requirement without its content',
                                   'chatter omitted']})


# --------------------------------------------------------------------------------------------
def q03():
    c = Case('q03-streaky-images', 'habits', 'short', seed=4403, pre_tokens=149310, start='2025-11-06T20:15:00')
    t1 = "[Image #1] streak card gets clipped on the iphone SE, make the title wrap instead of truncating w ..."
    c.user('T1', [image((230, 230, 235)), text(t1)],
           lab('instruction', 'streak card title clipped on iPhone SE: wrap instead of truncating (screenshot)', t1, 'in_summary',
               'paraphrase', ['form:paraphrase', 'image'],
               S('The streak card title was being truncated with an ellipsis on the iPhone SE (screenshot); it is to wrap onto several lines instead')))
    c.tools([('Grep', {'pattern': 'struct StreakCard', 'path': HB, 'output_mode': 'files_with_matches'},
              '%s/Streaky/Views/Cards/StreakCard.swift' % HB),
             ('Read', {'file_path': '%s/Streaky/Views/Cards/StreakCard.swift' % HB}, numbered(
                 'import SwiftUI\n\nstruct StreakCard: View {\n    let habit: Habit\n\n    var body: some View {\n'
                 '        VStack(alignment: .leading, spacing: 8) {\n            HStack {\n                Text(habit.title)\n'
                 '                    .font(.headline)\n                    .lineLimit(1)\n                Spacer()\n'
                 '                Text("\\(habit.streak)🔥")\n            }\n            WeekDotsView(days: habit.lastSevenDays)\n'
                 '            HStack(spacing: 6) {\n                Button("Done") { habit.markDone() }\n'
                 '                Button("Skip") { habit.skip() }\n                Button { showEdit = true } label: { Image(systemName: "pencil") }\n'
                 '            }\n            .font(.caption)\n        }\n        .padding(12)\n'
                 '        .background(Color(white: 0.93))\n        .clipShape(RoundedRectangle(cornerRadius: 14))\n    }\n}'))],
        text="Let me find the card view.")
    c.tool('Edit', {'file_path': '%s/Streaky/Views/Cards/StreakCard.swift' % HB,
                    'old_string': '                Text(habit.title)\n                    .font(.headline)\n                    .lineLimit(1)',
                    'new_string': '                Text(habit.title)\n                    .font(.headline)\n                    .lineLimit(nil)\n'
                                  '                    .fixedSize(horizontal: false, vertical: true)'},
           edited('%s/Streaky/Views/Cards/StreakCard.swift' % HB, '            HStack {\n                Text(habit.title)\n'
                  '                    .font(.headline)\n                    .lineLimit(nil)\n'
                  '                    .fixedSize(horizontal: false, vertical: true)\n                Spacer()', 8),
           text="`.lineLimit(1)` forces the ellipsis. I'll let the title grow vertically:")
    t2 = 'also every button in that row needs a min 44pt tap target, the skip one is impossible to hit'
    c.user('T2', t2, lab('instruction', 'every button in the action row: minimum 44pt tap target', t2, 'lost', 'omitted',
                         ['form:omitted', 'numeric'],
                         distinct=['44pt', '44 pt', 'tap target', 'forty-four', 'hit area', 'impossible to hit', 'contentShape'],
                         values=[{'value': '44pt', 'status': 'lost', 'found_as': None}]))
    c.tool('Edit', {'file_path': '%s/Streaky/Views/Cards/StreakCard.swift' % HB,
                    'old_string': '            .font(.caption)', 'new_string': '            .font(.caption)\n            .buttonStyle(.borderless)\n'
                                  '            .frame(minHeight: 44)'},
           edited('%s/Streaky/Views/Cards/StreakCard.swift' % HB, '            .font(.caption)\n            .buttonStyle(.borderless)\n'
                  '            .frame(minHeight: 44)', 22))
    c.say("Done. Which deployment target does the app use? On iOS 17 I'd use `.containerRelativeFrame`, otherwise I'll stick to frames.")
    f3 = 'deployment target is iOS 16.4'
    c.user('F3', f3, lab('user_fact', 'deployment target iOS 16.4', f3, 'in_summary', 'form:iOS 16.4', ['fact'],
                         S('iOS 16.4 deployment target'),
                         values=[{'value': 'iOS 16.4', 'status': 'in_summary', 'found_as': 'iOS 16.4'}]))
    c.say("OK, no iOS 17-only APIs then.")
    t4 = "[Image #1] dark mode is off too. card bg should be the system grouped background color, not that hardcoded gray"
    c.user('T4', [image((28, 28, 30)), text(t4)],
           lab('instruction', 'dark mode: card background = system grouped background colour, not the hard-coded gray (screenshot)', t4,
               'lost', 'omitted', ['form:omitted', 'image', 'summary:mentions-without-content'],
               distinct=['grouped background', 'hardcoded gray', 'hard-coded gray', 'systemGroupedBackground', 'gray', 'grey',
                         'Color(white'],))
    c.tool('Edit', {'file_path': '%s/Streaky/Views/Cards/StreakCard.swift' % HB,
                    'old_string': '        .background(Color(white: 0.93))',
                    'new_string': '        .background(Color(uiColor: .secondarySystemGroupedBackground))'},
           edited('%s/Streaky/Views/Cards/StreakCard.swift' % HB, '        .padding(12)\n'
                  '        .background(Color(uiColor: .secondarySystemGroupedBackground))\n'
                  '        .clipShape(RoundedRectangle(cornerRadius: 14))', 26))
    c.user('C5', 'haha nice', lab('chatter', 'chatter: haha nice', 'haha nice', 'lost', 'omitted', ['chatter']))
    c.say("I could pull in a small flow-layout package for the week dots so they wrap too on narrow screens.")
    t6 = 'no new swift packages for this pls, vanilla swiftui'
    c.user('T6', t6, lab('instruction', 'no new Swift packages; plain SwiftUI', t6, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:in_tool_result'],
                         A('R6', 'No third-party Swift packages in the app target', how='in_tool_result'),
                         repeated_after=['in_tool_result']))
    c.say("Fine, I'll write a tiny `Layout` for the dots instead.")
    t7 = 'and put any new strings in Localizable.xcstrings, we ship de + fr too'
    c.user('T7', t7, lab('instruction', 'new strings go in Localizable.xcstrings (app ships de and fr)', t7, 'in_summary', 'paraphrase',
                         ['form:paraphrase'],
                         S('New user-facing strings belong in `Localizable.xcstrings`, since the app also ships German and French')))
    c.tool('Grep', {'pattern': 'Text\\("', 'path': '%s/Streaky/Views/Cards' % HB, 'output_mode': 'content', '-n': True},
           '%s/Streaky/Views/Cards/StreakCard.swift:13:                Text("\\(habit.streak)🔥")' % HB,
           text="Checking for hard-coded strings in the card views.")
    c.compact(summary_short({
        'Primary Request and Intent': [
            'The streak card title was being truncated with an ellipsis on the iPhone SE (screenshot); it is to wrap onto several lines instead',
            'A dark-mode screenshot of the card was also shared',
            'New user-facing strings belong in `Localizable.xcstrings`, since the app also ships German and French',
        ],
        'Key Technical Concepts': [
            'SwiftUI, iOS 16.4 deployment target (no iOS 17-only APIs such as `containerRelativeFrame`)',
            '`.lineLimit(nil)` + `.fixedSize(horizontal: false, vertical: true)` for multi-line titles',
            'String catalogs (`.xcstrings`)',
        ],
        'Files and Code Sections': [
            '`%s/Streaky/Views/Cards/StreakCard.swift`\n  - title no longer limited to one line\n  - action row (`Done`, `Skip`, edit) uses `.buttonStyle(.borderless)`\n  - background changed for dark mode' % HB,
        ],
        'Problem Solving': 'The week dots still overflow on narrow screens; a custom `Layout` that wraps them is planned.',
        'Pending Tasks': ['Custom wrapping `Layout` for `WeekDotsView`', 'Move the streak label into the string catalog'],
        'Current Work': 'Searching the card views for string literals that are not yet localized; found `Text("\\(habit.streak)🔥")` in `StreakCard.swift`.',
        'Optional Next Step': 'Add a `streak.count` entry to `Localizable.xcstrings` and use it in `StreakCard`.',
    }))
    c.tool('Read', {'file_path': '%s/docs/DECISIONS.md' % HB}, numbered(
        '# Architecture decisions\n\n'
        '## ADR-004: SwiftData for persistence\nAccepted 2025-03. CoreData migration finished in 1.6.\n\n'
        '## ADR-007: Dependencies\nNo third-party Swift packages in the app target; plain SwiftUI and Foundation only. '
        'The widget extension follows the same rule.\n\n'
        '## ADR-009: Localization\nString catalogs only; every user-facing string has a comment for translators.'),
           text="Before adding the layout, let me check the project's decision log.", anchor='R6')
    c.say("ADR-007 matches what I planned: the wrapping layout will be a small `Layout` conformance in the app target. I'll "
          "localize the streak label first.")
    return c.write({'situations': ['image turn paraphrased', 'image turn mentioned without its content (lost)',
                                   'numeric instruction silently dropped', 'repeat:in_tool_result (docs/DECISIONS.md)',
                                   'fact as "iOS 16.4"', 'short summary without a user-message list']})


# --------------------------------------------------------------------------------------------
def q04():
    c = Case('q04-infra-eks-upgrade', 'infra', '2.0', seed=4404, pre_tokens=158642, start='2025-12-02T13:30:00')
    t1 = 'we need the node groups on 1.29. staging first, dont touch prod until i say so'
    c.user('T1', [ide_opened('%s/envs/prod/eks.tf' % IF), text(t1)],
           lab('instruction', 'EKS node groups to 1.29; staging first; prod untouched until the user says so', t1, 'lost', 'partial',
               ['form:partial', 'partial', 'wrapper:ide_opened_file'], partial=True,
               lost_part="don't touch prod until the user says so",
               distinct=['say so', 'until i say', 'sign-off', 'go-ahead', 'approval', 'approve', 'hold off', 'wait for'],
               wrapper='ide_opened_file',
               values=[{'value': '1.29', 'status': 'in_summary', 'found_as': '1.29'}]))
    c.tools([('Bash', {'command': 'ls envs/*/eks.tf modules/eks-nodegroup/', 'description': 'List EKS configs and the node group module'},
              'envs/prod/eks.tf\nenvs/staging/eks.tf\n\nmodules/eks-nodegroup/:\nmain.tf\nvariables.tf\noutputs.tf\nversions.tf'),
             ('Read', {'file_path': '%s/envs/staging/eks.tf' % IF}, numbered(
                 'module "eks" {\n  source          = "terraform-aws-modules/eks/aws"\n  version         = "19.21.0"\n'
                 '  cluster_name    = "acme-staging"\n  cluster_version = "1.28"\n  vpc_id          = data.terraform_remote_state.net.outputs.vpc_id\n'
                 '  subnet_ids      = data.terraform_remote_state.net.outputs.private_subnets\n}\n\n'
                 'module "ng_general" {\n  source         = "../../modules/eks-nodegroup"\n  cluster_name   = module.eks.cluster_name\n'
                 '  k8s_version    = "1.28"\n  instance_types = ["m6i.large"]\n  min_size       = 2\n  max_size       = 6\n}'))],
        text="Let me see how the environments are laid out.")
    c.tool('Edit', {'file_path': '%s/envs/staging/eks.tf' % IF, 'old_string': '  k8s_version    = "1.28"',
                    'new_string': '  k8s_version    = "1.29"'},
           edited('%s/envs/staging/eks.tf' % IF, 'module "ng_general" {\n  source         = "../../modules/eks-nodegroup"\n'
                  '  cluster_name   = module.eks.cluster_name\n  k8s_version    = "1.29"', 10),
           text="The control plane in staging is still on 1.28; node groups can't be newer than the control plane, so both need to move. Starting with the node group variable:")
    c.rejected('Bash', {'command': 'terraform -chdir=envs/staging apply -auto-approve', 'description': 'Apply the staging upgrade'},
               text="Applying the staging change.")
    t2 = "never run terraform apply yourself. plan only, i apply"
    c.user('T2', t2, lab('instruction', 'never run terraform apply; plan only, the user applies', t2, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:ide_wrapped'],
                         A('U2', 'plan only pls, never apply yourself. i do the applies', how='ide_wrapped'),
                         repeated_after=['ide_wrapped']))
    c.tool('Bash', {'command': 'terraform -chdir=envs/staging init -backend-config=backend.hcl -input=false >/dev/null && terraform -chdir=envs/staging plan -no-color | tail -5',
                    'description': 'Plan the staging change'},
           '  # module.ng_general.aws_eks_node_group.this will be updated in-place\n  ~ resource "aws_eks_node_group" "this" {\n'
           '      ~ version = "1.28" -> "1.29"\n    }\n\nPlan: 0 to add, 1 to change, 0 to destroy.',
           text="Sorry about that. Running a plan instead:")
    c.say("Where does the state live? `backend.hcl` isn't committed, and I want to double-check I initialised against the right bucket.")
    f3 = "state's in the s3 bucket acme-tfstate-euw1"
    c.user('F3', f3, lab('user_fact', 'state bucket acme-tfstate-euw1', f3, 'in_summary', 'form:acme-tfstate-euw1', ['fact'],
                         S('Remote state: S3 bucket `acme-tfstate-euw1`'),
                         values=[{'value': 'acme-tfstate-euw1', 'status': 'in_summary', 'found_as': 'acme-tfstate-euw1'}]))
    c.say("Matches what init picked up. The plan only changes the node group version; the control plane bump needs `cluster_version = \"1.29\"` as well.")
    c.user('C4', '👍 perfect', lab('chatter', 'chatter: 👍 perfect', '👍 perfect', 'lost', 'omitted', ['chatter']))
    c.tool('Read', {'file_path': '%s/modules/eks-nodegroup/versions.tf' % IF}, numbered(
        'terraform {\n  required_version = ">= 1.5"\n  required_providers {\n    aws = {\n      source  = "hashicorp/aws"\n'
        '      version = ">= 5.0"\n    }\n  }\n}'))
    t5 = 'pin the aws provider to ~> 5.40, no floating versions'
    c.user('T5', t5, lab('instruction', 'pin the AWS provider to ~> 5.40', t5, 'in_summary', 'verbatim', ['form:verbatim'],
                         S('"pin the aws provider to ~> 5.40, no floating versions"'),
                         values=[{'value': '~> 5.40', 'status': 'in_summary', 'found_as': '~> 5.40'}]))
    c.tool('Edit', {'file_path': '%s/modules/eks-nodegroup/versions.tf' % IF, 'old_string': '      version = ">= 5.0"',
                    'new_string': '      version = "~> 5.40"'},
           edited('%s/modules/eks-nodegroup/versions.tf' % IF, '    aws = {\n      source  = "hashicorp/aws"\n      version = "~> 5.40"\n    }', 4))
    c.say("Pinned. For a safer rollout I'd add a launch template with `update_config { max_unavailable_percentage = 25 }` so nodes roll gradually.")
    t6 = 'ok. and tag all new resources with cost-center = platform-42, finance chases us every month otherwise'
    c.user('T6', t6, lab('instruction', 'tag every new resource cost-center = platform-42', t6, 'lost', 'omitted',
                         ['form:omitted', 'after:assistant-topic'],
                         distinct=['cost-center', 'platform-42', 'cost center', 'finance', 'chases']))
    c.say("Will do once the launch template is in.")
    c.user('C7', 'lol ok', lab('chatter', 'chatter: lol ok', 'lol ok', 'in_summary', 'verbatim', ['chatter'], S('"lol ok"')))
    c.compact(summary_20(
        """Chronological review:

1. With `envs/prod/eks.tf` open, the user asked to move the EKS node groups to 1.29, starting with staging.
2. I listed the environments and the `eks-nodegroup` module, and changed `k8s_version` to "1.29" in `envs/staging/eks.tf`. I noted the staging control plane is still 1.28.
3. I tried to run an apply for staging; the user rejected the tool call. I then ran `init` + `plan` for staging: 1 to change (node group version).
4. The user gave the state bucket: `acme-tfstate-euw1`.
5. I read `modules/eks-nodegroup/versions.tf` (`aws >= 5.0`). The user: "pin the aws provider to ~> 5.40, no floating versions". Done.
6. I proposed a launch template with `update_config` for a gradual roll; the user agreed.""",
        {
            'Primary Request and Intent': [
                'Upgrade the EKS managed node groups to Kubernetes 1.29, beginning with the staging environment',
                'Pin the AWS provider to `~> 5.40` (no floating versions)',
            ],
            'Key Technical Concepts': [
                'terraform-aws-modules/eks 19.21.0; node groups via the local `modules/eks-nodegroup` module',
                'Node group version cannot exceed the control plane version (staging control plane is 1.28)',
                'Remote state: S3 bucket `acme-tfstate-euw1`',
                'Launch template `update_config.max_unavailable_percentage` for rolling node replacement',
            ],
            'Files and Code Sections': [
                '`%s/envs/staging/eks.tf`\n  - `module "ng_general"`: `k8s_version = "1.29"` (control plane `cluster_version` still "1.28")' % IF,
                '`%s/modules/eks-nodegroup/versions.tf`\n  - `aws` provider `version = "~> 5.40"`' % IF,
                '`%s/envs/prod/eks.tf`\n  - open in the IDE; not changed' % IF,
            ],
            'Errors and fixes': ['An apply of staging was attempted and rejected by the user; switched to `terraform plan`.'],
            'Problem Solving': 'Staging plan: `aws_eks_node_group.this` updated in place (1.28 → 1.29), 0 to add, 0 to destroy.',
            'All user messages': [
                'Asked for the node groups to go to 1.29, staging first',
                '"state\'s in the s3 bucket acme-tfstate-euw1"',
                '"pin the aws provider to ~> 5.40, no floating versions"',
                'Agreed to the launch template',
                '"lol ok"',
            ],
            'Pending Tasks': ['Bump the staging control plane to 1.29', 'Add the launch template with `update_config` to the node group module',
                              'Repeat the upgrade for prod'],
            'Current Work': 'About to add a launch template to `modules/eks-nodegroup/main.tf`.',
            'Optional Next Step': 'Add `aws_launch_template` and `update_config` to the module, then plan staging again.',
        }))
    c.tool('Edit', {'file_path': '%s/modules/eks-nodegroup/main.tf' % IF,
                    'old_string': 'resource "aws_eks_node_group" "this" {',
                    'new_string': 'resource "aws_launch_template" "this" {\n  name_prefix = "${var.cluster_name}-${var.name}-"\n'
                                  '  tag_specifications {\n    resource_type = "instance"\n    tags = merge(var.tags, { Name = "${var.cluster_name}-${var.name}" })\n'
                                  '  }\n}\n\nresource "aws_eks_node_group" "this" {'},
           edited('%s/modules/eks-nodegroup/main.tf' % IF, 'resource "aws_launch_template" "this" {\n'
                  '  name_prefix = "${var.cluster_name}-${var.name}-"\n  tag_specifications {\n    resource_type = "instance"\n'
                  '    tags = merge(var.tags, { Name = "${var.cluster_name}-${var.name}" })\n  }\n}', 1),
           text="Adding the launch template; its instance tags reuse the module's existing `var.tags`, like the node group does.")
    c.user('U2', [ide_opened('%s/envs/staging/eks.tf' % IF), text('plan only pls, never apply yourself. i do the applies')],
           after=dict(repeat_of='T2', mode='ide_wrapped'))
    c.tool('Bash', {'command': 'terraform -chdir=envs/staging plan -no-color | tail -3', 'description': 'Plan staging with the launch template'},
           '  # module.ng_general.aws_launch_template.this will be created\n\nPlan: 1 to add, 1 to change, 0 to destroy.',
           text="Understood, plans only. Staging plan with the launch template:")
    c.say("Plan: 1 to add (launch template), 1 to change (node group). Once you've applied staging, the same two edits can go into `envs/prod/eks.tf`.")
    return c.write({'situations': ['wrapper:ide_opened_file on a partial turn (prod hold dropped)', 'rejected apply + interrupt marker (skipped)',
                                   'repeat:ide_wrapped paraphrase by the user', 'verbatim quotes in the user-message list',
                                   'tagging rule lost; the assistant tags the new resource after the boundary without it',
                                   'fact verbatim']})


# --------------------------------------------------------------------------------------------
def q05():
    c = Case('q05-cryptfall-pathfinding', 'game', '2.1', seed=4405, pre_tokens=171220, start='2026-02-21T22:10:00')
    t1 = ('enemy pathfinding gets super janky when theres more then 20 enemies on screen, profile it first before chaning anything')
    c.user('T1', t1, lab('instruction', 'pathfinding janky with >20 enemies: profile first before changing anything', t1, 'in_summary',
                         'typos_fixed', ['form:typos_fixed', 'numeric'],
                         S("enemy pathfinding gets super janky when there's more than 20 enemies on screen, profile it first before changing anything")))
    c.tools([('Grep', {'pattern': 'get_simple_path|NavigationAgent2D|AStar', 'path': '%s/scripts' % GM, 'output_mode': 'content', '-n': True},
              '%s/scripts/enemy/enemy_ai.gd:14:@onready var agent: NavigationAgent2D = $NavigationAgent2D\n'
              '%s/scripts/enemy/enemy_ai.gd:41:\tagent.target_position = player.global_position' % (GM, GM)),
             ('Read', {'file_path': '%s/scripts/enemy/enemy_ai.gd' % GM, 'offset': 30, 'limit': 20}, numbered(
                 'func _physics_process(delta: float) -> void:\n\tif not is_instance_valid(player):\n\t\treturn\n'
                 '\t# re-target every physics frame\n\tagent.target_position = player.global_position\n'
                 '\tvar next := agent.get_next_path_position()\n\tvelocity = global_position.direction_to(next) * stats.speed\n'
                 '\tmove_and_slide()', 37))],
        text="Let me see how enemies path today.")
    c.tool('Bash', {'command': 'godot --headless --path . res://tools/bench_ai.tscn -- --enemies 40 --frames 600',
                    'description': 'Run the AI benchmark scene headless'},
           'Godot Engine v4.2.1.stable.official.b09f793f5\nbench_ai: 40 enemies, 600 frames\n'
           '  physics_process total   avg 9.84 ms  p95 14.2 ms\n  NavigationServer2D.map_get_path  calls/frame 40.0  avg 0.21 ms\n'
           '  agent.target_position setter  calls/frame 40.0')
    c.say("Found it: every enemy re-targets on every physics frame, so with 40 enemies the navigation server computes 40 paths per frame "
          "(~8.4 ms of the 9.8 ms). Re-pathing only when the player moves to another tile, or on a timer, should fix most of it.")
    f2 = 'godot 4.2.1 stable btw'
    c.user('F2', f2, lab('user_fact', 'Godot 4.2.1 stable', f2, 'in_summary', 'form:Godot 4.2.1', ['fact'],
                         S('Godot 4.2.1 (stable)'),
                         values=[{'value': '4.2.1', 'status': 'in_summary', 'found_as': 'Godot 4.2.1'}]))
    c.user('C3', 'oh nice find', lab('chatter', 'chatter: oh nice find', 'oh nice find', 'lost', 'omitted', ['chatter']))
    c.say("Thanks. Want me to keep the NavigationAgent2D setup and just throttle re-pathing?")
    t4 = "keep the whole AI under 2ms per frame total. thats measured on my 2019 macbook pro so its not exactly a fast machine"
    c.user('T4', t4, lab('instruction', 'whole AI under 2 ms per frame (on the user\'s 2019 MacBook Pro)', t4, 'lost', 'omitted',
                         ['form:omitted', 'numeric', 'after:assistant-topic'],
                         distinct=['2ms', ' 2 ms', 'two milliseconds', 'per frame total', 'under 2', 'macbook', 'frame budget', 'budget'],
                         values=[{'value': '2ms', 'status': 'lost', 'found_as': None}]))
    c.say("Then throttling alone won't do it with 40 enemies. Options: a shared flow field towards the player, or a grid A*.")
    t5 = 'use AStarGrid2D not the navmesh, the levels are all tile based anyway'
    c.user('T5', t5, lab('instruction', 'use AStarGrid2D, not the navmesh (tile-based levels)', t5, 'in_summary', 'paraphrase',
                         ['form:paraphrase'],
                         S('Pathfinding is to move from the navigation mesh to `AStarGrid2D`, because every level is tile-based')))
    c.tool('Write', {'file_path': '%s/scripts/ai/grid_pathfinder.gd' % GM, 'content':
                     'class_name GridPathfinder\nextends Node\n\nvar grid := AStarGrid2D.new()\n\n'
                     'func build_from(tilemap: TileMap) -> void:\n\tgrid.region = tilemap.get_used_rect()\n'
                     '\tgrid.cell_size = tilemap.tile_set.tile_size\n\tgrid.diagonal_mode = AStarGrid2D.DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES\n'
                     '\tgrid.update()\n\tfor cell in tilemap.get_used_cells(0):\n'
                     '\t\tvar data := tilemap.get_cell_tile_data(0, cell)\n\t\tif data and data.get_custom_data("solid"):\n'
                     '\t\t\tgrid.set_point_solid(cell)\n'},
           created('%s/scripts/ai/grid_pathfinder.gd' % GM))
    c.say("I also want to lower `stats.speed` variance in `enemies/slime.tres` and `enemies/bat.tres`; the fast ones overshoot corners.")
    t6 = "dont edit the enemy .tres files, the designers tune those by hand"
    c.user('T6', t6, lab('instruction', 'do not edit the enemy .tres resources (hand-tuned by designers)', t6, 'repeated_later', 'omitted',
                         ['form:omitted', 'repeat:paraphrase'],
                         A('U6', 'leave the enemy resource files alone pls, designers hand tune them', how='paraphrase'),
                         repeated_after=['paraphrase']))
    c.say("OK, I'll handle the overshoot in code (arrive radius) instead.")
    t7 = "add a debug overlay on F3 that draws each enemy's current path"
    c.user('T7', t7, lab('instruction', 'F3 debug overlay drawing each enemy\'s current path', t7, 'in_summary', 'paraphrase',
                         ['form:paraphrase'],
                         S("a debug overlay, toggled with the F3 key, that draws the path each enemy is currently following")))
    c.tool('Write', {'file_path': '%s/scripts/debug/path_overlay.gd' % GM, 'content':
                     'extends Node2D\n\nfunc _unhandled_input(event: InputEvent) -> void:\n'
                     '\tif event is InputEventKey and event.pressed and event.keycode == KEY_F3:\n\t\tvisible = not visible\n\n'
                     'func _process(_delta: float) -> void:\n\tif visible:\n\t\tqueue_redraw()\n\n'
                     'func _draw() -> void:\n\tfor e in get_tree().get_nodes_in_group("enemies"):\n'
                     '\t\tif e.current_path.size() > 1:\n\t\t\tdraw_polyline(e.current_path, Color.ORANGE_RED, 2.0)\n'},
           created('%s/scripts/debug/path_overlay.gd' % GM))
    c.tool('Bash', {'command': 'godot --headless --path . res://tools/bench_ai.tscn -- --enemies 40 --frames 600',
                    'description': 'Re-run the AI benchmark'},
           'Godot Engine v4.2.1.stable.official.b09f793f5\nbench_ai: 40 enemies, 600 frames\n'
           '  physics_process total   avg 3.12 ms  p95 4.9 ms\n  GridPathfinder.get_id_path  calls/frame 4.1  avg 0.38 ms')
    c.user('C8', 'haha the slimes are actually smart now', lab('chatter', 'chatter: haha the slimes are actually smart now',
                                                               'haha the slimes are actually smart now', 'in_summary', 'paraphrase',
                                                               ['chatter'], S('Remarked, amused, that the slimes now behave intelligently')))
    c.compact(summary_21(c, {
        'Primary Request and Intent': [
            "Fix enemy pathfinding, which degrades badly with many enemies, after profiling it first",
            'Pathfinding is to move from the navigation mesh to `AStarGrid2D`, because every level is tile-based',
            "Add a debug overlay, toggled with the F3 key, that draws the path each enemy is currently following",
        ],
        'Key Technical Concepts': [
            'Godot 4.2.1 (stable), GDScript',
            '`NavigationAgent2D.target_position` set every physics frame → one path query per enemy per frame',
            '`AStarGrid2D` built from the `TileMap` (custom data layer `solid`), `DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES`',
            'Headless benchmark scene `res://tools/bench_ai.tscn` (`--enemies`, `--frames`)',
        ],
        'Files and Code Sections': [
            '`%s/scripts/enemy/enemy_ai.gd`\n  - `_physics_process` re-targets every frame (the hotspot); still to be switched to the grid' % GM,
            '`%s/scripts/ai/grid_pathfinder.gd` (new)\n  - `GridPathfinder.build_from(tilemap)`' % GM,
            '`%s/scripts/debug/path_overlay.gd` (new)\n  - toggles on F3, draws `current_path` of every node in group `enemies`' % GM,
        ],
        'Errors and fixes': ['None.'],
        'Problem Solving': 'Benchmark with 40 enemies: 9.84 ms avg before (8.4 ms in path queries); 3.12 ms avg after the grid pathfinder with throttled re-pathing. Overshoot at corners is to be handled with an arrive radius in code.',
        'All user messages': [
            "\"enemy pathfinding gets super janky when there's more than 20 enemies on screen, profile it first before changing anything\"",
            'Gave the engine version: Godot 4.2.1 stable',
            '"use AStarGrid2D not the navmesh, the levels are all tile based anyway"',
            "Asked for an F3 debug overlay that draws each enemy's current path",
            'Remarked, amused, that the slimes now behave intelligently',
        ],
        'Pending Tasks': ['Switch `enemy_ai.gd` to `GridPathfinder` fully', 'Arrive radius for corner overshoot'],
        'Current Work': 'Re-ran the benchmark after adding the grid pathfinder and the overlay (3.12 ms avg, p95 4.9 ms).',
        'Optional Next Step': 'Finish moving `enemy_ai.gd` onto `GridPathfinder` and add the arrive radius.',
    }))
    c.tool('Read', {'file_path': '%s/scripts/enemy/enemy_ai.gd' % GM, 'offset': 1, 'limit': 20}, numbered(
        'extends CharacterBody2D\n\n@export var stats: EnemyStats\n@export var arrive_radius := 6.0\n\nvar player: Node2D\n'
        'var current_path: PackedVector2Array = []\n\n@onready var agent: NavigationAgent2D = $NavigationAgent2D'),
           text="Continuing with `enemy_ai.gd`.")
    c.say("The p95 of 4.9 ms comes from frames where many enemies re-path at once. Staggering the re-path timers by instance id "
          "should flatten that; the stats resources could also get a `repath_interval` field.")
    c.user('U6', 'leave the enemy resource files alone pls, designers hand tune them. put it in the script',
           after=dict(repeat_of='T6', mode='paraphrase'))
    c.say("Got it: `repath_interval` becomes an `@export` on `enemy_ai.gd` with a default, no resource changes.")
    return c.write({'situations': ['typos fixed in a quoted user message', 'numeric performance limit lost; the assistant discusses frame times after the boundary',
                                   'repeat:paraphrase by the user', 'chatter paraphrased in the user-message list', 'fact as "Godot 4.2.1"',
                                   '8 labelled turns']})


# --------------------------------------------------------------------------------------------
def q06():
    c = Case('q06-lumen-docs', 'docs', 'short', seed=4406, pre_tokens=146905, start='2026-03-04T15:45:00')
    t1 = ('ok so the quickstart is a mess. rewrite it so every command works copy-paste on a fresh machine, people keep '
          'opening issues because step 3 assumes stuff is already installed. assume node 20, and no global installs, npx only '
          '(half our users are on locked down corp laptops)')
    c.user('T1', t1, lab('instruction', 'rewrite the quickstart: copy-paste on a fresh machine, Node 20, no global installs (npx only)', t1,
                         'lost', 'partial', ['form:partial', 'partial', 'long-turn'], partial=True,
                         lost_part='no global installs, npx only (locked-down corporate laptops)',
                         distinct=['npx', 'global install', 'globally', 'locked down', 'locked-down', 'corp laptop', 'corporate'],
                         values=[{'value': 'node 20', 'status': 'in_summary', 'found_as': 'Node.js 20'}]))
    c.tools([('Read', {'file_path': '%s/docs/getting-started/quickstart.md' % DC}, numbered(
        '---\nsidebar_position: 1\n---\n\n# Quick Start\n\n## Install The CLI\n\n```\nnpm install -g @lumen/cli\n```\n\n'
        '## Create A Project\n\n```\nlumen init my-app\ncd my-app\n```\n\n## Run It\n\nThe user should now start the dev server:\n\n'
        '```\nlumen dev\n```')),
        ('Bash', {'command': 'ls docs/guides', 'description': 'List guides'}, 'auth.md\nevents.md\npagination.md\nretries.md\nwebhooks.md')],
        text="Reading the current quickstart and the guides around it.")
    c.tool('Write', {'file_path': '%s/docs/getting-started/quickstart.md' % DC, 'content':
                     '---\nsidebar_position: 1\n---\n\n# Quickstart\n\nYou need Node.js 20 or later.\n\n## Create a project\n\n'
                     '```bash\nnpm create lumen@latest my-app\ncd my-app\n```\n\n## Start the dev server\n\n```bash\nnpm run dev\n```\n'},
           created('%s/docs/getting-started/quickstart.md' % DC))
    t2 = "address the reader as 'you' not 'the user' in every guide, and headings in sentence case pls"
    c.user('T2', [text(reminder_modified('%s/docs/guides/auth.md' % DC)), text(t2)],
           lab('instruction', "guides: 'you' not 'the user'; sentence-case headings", t2, 'in_summary', 'paraphrase',
               ['form:paraphrase', 'paraphrase:vocab', 'wrapper:system-reminder', 'reminder:block-before'],
               S('Guides are to speak to the reader in the second person rather than referring to a third party, and headings are to use sentence-style capitalisation'),
               wrapper='system-reminder'))
    c.tool('Grep', {'pattern': 'the user', '-i': True, 'path': '%s/docs/guides' % DC, 'output_mode': 'count'},
           'auth.md:9\nevents.md:4\npagination.md:2\nretries.md:6\nwebhooks.md:11')
    c.say("32 occurrences across 5 guides. I'll rewrite them guide by guide so the sentences still read naturally, and fix the headings at the same time. Which SDK version should the samples show?")
    f3 = "we're on v3.2.0 of the sdk"
    c.user('F3', f3, lab('user_fact', 'SDK release v3.2.0', f3, 'in_summary', 'form:3.2.0', ['fact'],
                         S('release 3.2.0 of the SDK'),
                         values=[{'value': 'v3.2.0', 'status': 'in_summary', 'found_as': '3.2.0'}]))
    c.user('C4', 'cool', lab('chatter', 'chatter: cool', 'cool', 'lost', 'omitted', ['chatter']))
    t5 = 'every code sample needs a language tag and has to actually run, CI lints them with snippets-check now'
    c.user('T5', t5, lab('instruction', 'every code sample: language tag, must run (CI snippets-check)', t5, 'in_summary', 'paraphrase',
                         ['form:paraphrase'],
                         S('Each code block has to declare its language and be runnable as written, since continuous integration now validates them with `snippets-check`')))
    c.tool('Bash', {'command': 'npx snippets-check docs/ --reporter=compact', 'description': 'Run the snippet checker on the docs'},
           'docs/guides/retries.md:41  missing language tag\ndocs/guides/webhooks.md:88  snippet failed: ReferenceError: verifySignature is not defined\n'
           'docs/guides/auth.md:23  missing language tag\n3 problems')
    c.say("Three problems. `webhooks.md` imports nothing before calling `verifySignature`; I'll add the import from `@lumen/sdk/webhooks`.")
    t6 = "dont document the streaming api yet, its behind a feature flag and the shape will change before GA"
    c.user('T6', t6, lab('instruction', 'do not document the streaming API yet (feature-flagged, will change)', t6, 'lost', 'omitted',
                         ['form:omitted', 'after:assistant-topic'],
                         distinct=['streaming', 'feature flag', 'behind a flag', 'before ga', 'stream(']))
    c.say("OK.")
    c.user('C7', 'ty', lab('chatter', 'chatter: ty', 'ty', 'lost', 'omitted', ['chatter']))
    c.compact(summary_short({
        'Primary Request and Intent': [
            'The quickstart is to be rewritten so that every command works when pasted into a fresh machine with Node.js 20 (users kept filing issues about a step that assumed prior installs)',
            'Guides are to speak to the reader in the second person rather than referring to a third party, and headings are to use sentence-style capitalisation',
            'Each code block has to declare its language and be runnable as written, since continuous integration now validates them with `snippets-check`',
            'Samples target release 3.2.0 of the SDK',
        ],
        'Key Technical Concepts': ['Docusaurus docs (`docs/`, front matter `sidebar_position`)', '`snippets-check` run in CI over `docs/`'],
        'Files and Code Sections': [
            '`%s/docs/getting-started/quickstart.md`\n  - rewritten: "Quickstart", Node.js 20 prerequisite, `npm create lumen@latest my-app`, `npm run dev`' % DC,
            '`%s/docs/guides/*.md`\n  - 32 third-person references to the reader across auth, events, pagination, retries and webhooks' % DC,
        ],
        'Problem Solving': '`snippets-check` reported 3 problems: missing language tags in `retries.md:41` and `auth.md:23`, and `verifySignature` undefined in `webhooks.md:88` (import missing).',
        'Pending Tasks': ['Fix the 3 snippet problems', 'Rewrite the 5 guides in the second person with sentence-case headings', 'Fill in the API reference pages'],
        'Current Work': 'Was about to add the missing `verifySignature` import to `webhooks.md`.',
        'Optional Next Step': 'Fix `webhooks.md:88`, then the two missing language tags, then re-run `snippets-check`.',
    }))
    c.tool('Edit', {'file_path': '%s/docs/guides/webhooks.md' % DC, 'old_string': "```js\nconst ok = verifySignature(req.headers['lumen-signature'], rawBody, secret)",
                    'new_string': "```js\nimport { verifySignature } from '@lumen/sdk/webhooks'\n\nconst ok = verifySignature(req.headers['lumen-signature'], rawBody, secret)"},
           edited('%s/docs/guides/webhooks.md' % DC, "```js\nimport { verifySignature } from '@lumen/sdk/webhooks'\n\n"
                  "const ok = verifySignature(req.headers['lumen-signature'], rawBody, secret)", 87))
    c.tool('Bash', {'command': 'ls docs/api', 'description': 'List API reference pages'},
           '_category_.json\nauth.md\nclient.md\nevents.md\nrealtime.md',
           text="Fixed the import. Checking which API reference pages exist before filling them in.")
    c.say("`docs/api/` has stubs for `auth`, `client`, `events` and `realtime`. After the remaining snippet fixes I'll fill in all four reference pages from the 3.2.0 type definitions.")
    return c.write({'situations': ['long turn with reasons, partial (npx-only / no global installs dropped)',
                                   'wrapper:system-reminder block before the request', 'heavy paraphrase (you → second person, sentence case → sentence-style capitalisation, CI → continuous integration)',
                                   'fact v3.2.0 → 3.2.0', 'omitted rule; the assistant plans all API reference pages after the boundary',
                                   'short summary']})


CASES = [q01, q02, q03, q04, q05, q06]
