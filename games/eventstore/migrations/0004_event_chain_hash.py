"""A hash chain per stream: each event's `chain_hash` covers the previous one and the event.

`eventstore_link_hash` defines the hashed bytes (games/eventstore/chain.py computes the same):

    sha256(previous chain_hash (empty for version 1) || uuid_send(stream_id)
           || int4send(stream_version) || event_type (UTF-8) || 0x00 || int4send(schema_version)
           || payload::text (UTF-8) || 0x00 || metadata::text (UTF-8))

A row trigger fills it on every insert (the append function, the log import, anything else),
reading the previous event's hash: rows inserted earlier by the same statement are visible to a
row-level BEFORE trigger. Existing rows are chained here, in stream order, with the append-only
trigger disabled for the backfill only. See docs/decisions/0035-hash-chained-log.md.
"""

from django.db import migrations, models

FORWARD = """
CREATE FUNCTION eventstore_link_hash(
    p_previous bytea, p_stream_id uuid, p_stream_version integer, p_event_type text,
    p_schema_version integer, p_payload jsonb, p_metadata jsonb
) RETURNS bytea
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT sha256(
        coalesce(p_previous, ''::bytea) || uuid_send(p_stream_id) || int4send(p_stream_version)
        || convert_to(p_event_type, 'UTF8') || decode('00', 'hex') || int4send(p_schema_version)
        || convert_to(p_payload::text, 'UTF8') || decode('00', 'hex')
        || convert_to(p_metadata::text, 'UTF8')
    )
$$;

CREATE FUNCTION eventstore_chain_event() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    previous bytea;
BEGIN
    IF NEW.stream_version > 1 THEN
        SELECT event.chain_hash INTO previous
        FROM eventstore_event AS event
        WHERE event.stream_id = NEW.stream_id AND event.stream_version = NEW.stream_version - 1;
    END IF;
    NEW.chain_hash := eventstore_link_hash(
        previous, NEW.stream_id, NEW.stream_version, NEW.event_type, NEW.schema_version,
        NEW.payload, NEW.metadata
    );
    RETURN NEW;
END;
$$;
"""

BACKFILL = """
ALTER TABLE eventstore_event DISABLE TRIGGER eventstore_event_reject_update_delete;
DO $$
DECLARE
    event record;
    chained_stream uuid;
    previous bytea;
BEGIN
    FOR event IN
        SELECT global_position, stream_id, stream_version, event_type, schema_version, payload,
               metadata
        FROM eventstore_event ORDER BY stream_id, stream_version
    LOOP
        IF chained_stream IS DISTINCT FROM event.stream_id THEN
            chained_stream := event.stream_id;
            previous := NULL;
        END IF;
        previous := eventstore_link_hash(
            previous, event.stream_id, event.stream_version, event.event_type,
            event.schema_version, event.payload, event.metadata
        );
        UPDATE eventstore_event SET chain_hash = previous
        WHERE global_position = event.global_position;
    END LOOP;
END;
$$;
ALTER TABLE eventstore_event ENABLE TRIGGER eventstore_event_reject_update_delete;
"""

CHAIN_ON_INSERT = """
CREATE TRIGGER eventstore_event_chain
    BEFORE INSERT ON eventstore_event
    FOR EACH ROW EXECUTE FUNCTION eventstore_chain_event();
"""

BACKWARD = """
DROP TRIGGER eventstore_event_chain ON eventstore_event;
DROP FUNCTION eventstore_chain_event();
DROP FUNCTION eventstore_link_hash(bytea, uuid, integer, text, integer, jsonb, jsonb);
"""


class Migration(migrations.Migration):
    dependencies = [
        ("eventstore", "0003_append_function"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="chain_hash",
            field=models.BinaryField(editable=False, null=True),
        ),
        migrations.RunSQL(sql=FORWARD + BACKFILL + CHAIN_ON_INSERT, reverse_sql=BACKWARD),
        migrations.AlterField(
            model_name="event",
            name="chain_hash",
            field=models.BinaryField(editable=False),
        ),
    ]
