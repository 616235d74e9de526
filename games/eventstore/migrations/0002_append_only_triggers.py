"""Make the event log and the idempotency keys append-only inside PostgreSQL.

Statement-level triggers reject every UPDATE and DELETE (even one that matches no row) and every
TRUNCATE. The single exception is TRUNCATE in a session where `eventstore.allow_truncate` is
`on`: Django's transactional tests flush tables with TRUNCATE, and config/settings/test.py turns
the setting on for test connections only (docs/decisions/0003-event-store.md).
"""

from django.db import migrations

FORWARD = """
CREATE FUNCTION eventstore_reject_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE'
       AND coalesce(current_setting('eventstore.allow_truncate', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'restrict_violation',
              HINT = 'Events are never changed or removed; append a correcting event instead.';
END;
$$;

CREATE TRIGGER eventstore_event_reject_update_delete
    BEFORE UPDATE OR DELETE ON eventstore_event
    FOR EACH STATEMENT EXECUTE FUNCTION eventstore_reject_change();
CREATE TRIGGER eventstore_event_reject_truncate
    BEFORE TRUNCATE ON eventstore_event
    FOR EACH STATEMENT EXECUTE FUNCTION eventstore_reject_change();

CREATE TRIGGER eventstore_idempotency_key_reject_update_delete
    BEFORE UPDATE OR DELETE ON eventstore_idempotency_key
    FOR EACH STATEMENT EXECUTE FUNCTION eventstore_reject_change();
CREATE TRIGGER eventstore_idempotency_key_reject_truncate
    BEFORE TRUNCATE ON eventstore_idempotency_key
    FOR EACH STATEMENT EXECUTE FUNCTION eventstore_reject_change();
"""

BACKWARD = """
DROP TRIGGER eventstore_idempotency_key_reject_truncate ON eventstore_idempotency_key;
DROP TRIGGER eventstore_idempotency_key_reject_update_delete ON eventstore_idempotency_key;
DROP TRIGGER eventstore_event_reject_truncate ON eventstore_event;
DROP TRIGGER eventstore_event_reject_update_delete ON eventstore_event;
DROP FUNCTION eventstore_reject_change();
"""


class Migration(migrations.Migration):
    dependencies = [
        ("eventstore", "0001_initial"),
    ]

    operations = [
        migrations.RunSQL(sql=FORWARD, reverse_sql=BACKWARD),
    ]
