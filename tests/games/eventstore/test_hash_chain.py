"""The hash chain per stream (migration 0004): filled on every insert, recomputed by
`verify_log`, folded into the signed digest of `log_digest` (decision 0035)."""

import importlib
import json
import uuid
from dataclasses import replace
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction

from games.eventstore.chain import link_hash
from games.eventstore.transfer import insert_stored, read_stored_events
from tests.games.eventstore.builders import append, cards_played, new_stream_id

pytestmark = pytest.mark.django_db


def stored_chain(stream_id: uuid.UUID) -> list[tuple[bytes, bytes]]:
    """Each event's stored hash and the hash recomputed in Python, in stream order."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT stream_version, event_type, schema_version, payload::text, metadata::text, "
            "chain_hash FROM eventstore_event WHERE stream_id = %s ORDER BY stream_version",
            [stream_id],
        )
        rows = cursor.fetchall()
    chain: list[tuple[bytes, bytes]] = []
    previous = None
    for version, event_type, schema_version, payload, metadata, stored in rows:
        previous = link_hash(
            previous,
            stream_id=stream_id,
            stream_version=version,
            event_type=event_type,
            schema_version=schema_version,
            payload_text=payload,
            metadata_text=metadata,
        )
        chain.append((bytes(stored), previous))
    return chain


def tamper(global_position: int) -> None:
    """Change a payload behind the append-only triggers' back, as a superuser could."""
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE eventstore_event DISABLE TRIGGER USER")
        cursor.execute(
            "UPDATE eventstore_event SET payload = jsonb_set(payload, '{card}', '\"1D\"') "
            "WHERE global_position = %s",
            [global_position],
        )
        cursor.execute("ALTER TABLE eventstore_event ENABLE TRIGGER USER")


def run(command: str, *args: str) -> str:
    out = StringIO()
    call_command(command, *args, "--quiet", stdout=out)
    return out.getvalue()


def test_appending_fills_the_chain_as_python_recomputes_it() -> None:
    stream_id = new_stream_id()
    append(stream_id, cards_played("3C", "1S", "7D"))  # one statement, three links
    append(stream_id, cards_played("2B"))

    chain = stored_chain(stream_id)

    assert len(chain) == 4
    assert all(stored == recomputed for stored, recomputed in chain)
    assert len({stored for stored, _ in chain}) == 4


def test_verify_log_names_the_changed_event() -> None:
    append(new_stream_id(), cards_played("3C", "1S"))
    stream_id = new_stream_id()
    changed = append(stream_id, cards_played("3C", "1S", "7D")).events[1]
    assert "Every hash chain holds" in run("verify_log")

    tamper(changed.global_position)

    with pytest.raises(CommandError, match="1 streams with a broken hash chain"):
        call_command("verify_log", "--quiet", stdout=(out := StringIO()))
    assert out.getvalue().strip() == (
        f"stream {stream_id}: broken at version 2 (global position {changed.global_position})"
    )


def test_digest_check_passes_on_the_unchanged_log_and_fails_after_tampering(
    tmp_path: Path,
) -> None:
    first = append(new_stream_id(), cards_played("3C", "1S")).events[0]
    saved = tmp_path / "digest.json"
    saved.write_text(run("log_digest"))
    record = json.loads(saved.read_text())
    assert set(record) == {"position", "digest", "signature"}
    append(new_stream_id(), cards_played("7D"))  # appends after the digest keep its prefix

    assert "matches the saved digest" in run("log_digest", "--check", str(saved))

    tamper(first.global_position)
    with pytest.raises(CommandError, match="has changed since the digest"):
        run("log_digest", "--check", str(saved))


def test_a_forged_digest_is_refused(tmp_path: Path) -> None:
    append(new_stream_id(), cards_played("3C"))
    record = json.loads(run("log_digest"))
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(record | {"digest": "0" * 64}))

    with pytest.raises(CommandError, match="signature does not match"):
        run("log_digest", "--check", str(forged))


def test_imported_streams_are_chained_again() -> None:
    source = new_stream_id()
    append(source, cards_played("3C", "1S", "7D"))
    copy = new_stream_id()

    insert_stored(
        events=[replace(e, stream_id=copy) for e in read_stored_events(stream_ids=[source])]
    )

    chain = stored_chain(copy)
    assert len(chain) == 3
    assert all(stored == recomputed for stored, recomputed in chain)
    assert "Every hash chain holds" in run("verify_log")


def test_the_migration_backfills_the_chains_of_existing_events() -> None:
    migration = importlib.import_module("games.eventstore.migrations.0004_event_chain_hash")
    stream_id = new_stream_id()
    append(stream_id, cards_played("3C", "1S", "7D"))
    append(new_stream_id(), cards_played("2B"))
    with connection.cursor() as cursor:  # rows from before the migration had no hash
        cursor.execute("ALTER TABLE eventstore_event DISABLE TRIGGER USER")
        cursor.execute("UPDATE eventstore_event SET chain_hash = ''::bytea")
        cursor.execute("ALTER TABLE eventstore_event ENABLE TRIGGER USER")
    with pytest.raises(CommandError, match="2 streams with a broken hash chain"):
        run("verify_log")

    with connection.cursor() as cursor:
        cursor.execute(migration.BACKFILL)

    assert all(stored == recomputed for stored, recomputed in stored_chain(stream_id))
    assert "Every hash chain holds" in run("verify_log")
    with (  # the append-only trigger is back
        pytest.raises(IntegrityError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("UPDATE eventstore_event SET chain_hash = chain_hash")
