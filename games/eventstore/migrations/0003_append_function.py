"""`eventstore_append`: the whole append in one call, with plans PostgreSQL caches per session.

Called only by games/eventstore/appending.py, which turns its rows into results and errors.
See docs/decisions/0003-event-store.md for why the append is a function and why it locks.
"""

from django.db import migrations

FORWARD = """
CREATE FUNCTION eventstore_append(
    p_stream_id uuid,
    p_stream_type text,
    p_expected_version integer,
    p_idempotency_key text,
    p_command_fingerprint text,
    p_events jsonb,
    p_metadata jsonb
) RETURNS TABLE (
    current_version integer,
    current_stream_type text,
    used_fingerprint text,
    used_first_version integer,
    appended_position bigint,
    appended_version integer,
    appended_at timestamptz
)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    head_version integer;
    head_stream_type text;
    key_fingerprint text;
    key_first_version integer;
BEGIN
    -- One append at a time, until the transaction ends: positions are handed out in commit
    -- order, so readers that follow the log by position never skip a late commit.
    PERFORM pg_advisory_xact_lock(7311146993723254631);

    -- Each statement of a VOLATILE function takes a new snapshot at READ COMMITTED, so the
    -- reads below see every append committed before the lock was granted.
    SELECT event.stream_version, event.stream_type
    INTO head_version, head_stream_type
    FROM eventstore_event AS event
    WHERE event.stream_id = p_stream_id
    ORDER BY event.stream_version DESC
    LIMIT 1;
    head_version := coalesce(head_version, 0);

    IF p_idempotency_key IS NOT NULL THEN
        SELECT used_key.command_fingerprint, used_key.first_version
        INTO key_fingerprint, key_first_version
        FROM eventstore_idempotency_key AS used_key
        WHERE used_key.stream_id = p_stream_id AND used_key.key = p_idempotency_key;
    END IF;

    -- A used key, another stream type or another version: append nothing, report the head.
    IF key_first_version IS NOT NULL
       OR head_stream_type <> p_stream_type
       OR head_version <> p_expected_version THEN
        RETURN QUERY SELECT head_version, head_stream_type, key_fingerprint, key_first_version,
                            NULL::bigint, NULL::integer, NULL::timestamptz;
        RETURN;
    END IF;

    RETURN QUERY
    WITH appended AS (
        INSERT INTO eventstore_event AS event (
            stream_id, stream_type, stream_version, event_type, schema_version, payload,
            metadata, recorded_at
        )
        SELECT p_stream_id, p_stream_type, head_version + new_event.ordinality,
               new_event.body ->> 'event_type', (new_event.body ->> 'schema_version')::integer,
               new_event.body -> 'payload', p_metadata, statement_timestamp()
        FROM jsonb_array_elements(p_events) WITH ORDINALITY AS new_event (body, ordinality)
        ORDER BY new_event.ordinality
        RETURNING event.global_position, event.stream_version, event.recorded_at
    ),
    recorded_key AS (
        INSERT INTO eventstore_idempotency_key (
            stream_id, key, command_fingerprint, first_version, last_version, first_position,
            recorded_at
        )
        SELECT p_stream_id, p_idempotency_key, p_command_fingerprint,
               min(appended.stream_version), max(appended.stream_version),
               min(appended.global_position), statement_timestamp()
        FROM appended
        WHERE p_idempotency_key IS NOT NULL
        HAVING count(*) > 0
    )
    SELECT head_version, head_stream_type, NULL::text, NULL::integer,
           appended.global_position, appended.stream_version, appended.recorded_at
    FROM appended
    ORDER BY appended.stream_version;
END;
$$;
"""

BACKWARD = """
DROP FUNCTION eventstore_append(uuid, text, integer, text, text, jsonb, jsonb);
"""


class Migration(migrations.Migration):
    dependencies = [
        ("eventstore", "0002_append_only_triggers"),
    ]

    operations = [
        migrations.RunSQL(sql=FORWARD, reverse_sql=BACKWARD),
    ]
