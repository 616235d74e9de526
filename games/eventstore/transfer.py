"""Moving whole streams to another instance: their events as stored, and stored again there.

An archive must carry the log as it is, not as today's code reads it: payloads at the schema
version they were recorded with (upcasters run when the other instance reads them), metadata and
`recorded_at` untouched, and the idempotency keys, so a command retried on the other instance is
answered as it was here. Only global positions are the instance's own: inserted events take the
next positions, in the order given, under the append lock (so positions still follow commit
order). Events are only inserted, never changed: the append-only triggers stay in force.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final
from uuid import UUID

from django.db import connection, transaction

from games.eventstore.models import EVENT_TABLE, IDEMPOTENCY_KEY_TABLE

APPEND_LOCK: Final = 7311146993723254631
"""The advisory lock `eventstore_append` takes (migration 0003): one writer of the log at a time."""


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredEvent:
    """An event row as stored (no upcasting); `global_position` is the source instance's."""

    stream_id: UUID
    stream_type: str
    stream_version: int
    event_type: str
    schema_version: int
    payload: Any
    metadata: dict[str, Any]
    recorded_at: datetime
    global_position: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredKey:
    """An idempotency key row; its first position is found again from the events on import."""

    stream_id: UUID
    key: str
    command_fingerprint: str
    first_version: int
    last_version: int
    recorded_at: datetime


class StreamsExist(Exception):
    """Some of the streams to insert are in the log already: nothing was inserted."""

    def __init__(self, stream_ids: Collection[UUID]) -> None:
        super().__init__(", ".join(sorted(map(str, stream_ids))))
        self.stream_ids = set(stream_ids)


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def _stored_rows(statement: str, stream_ids: Collection[UUID]) -> list[dict[str, Any]]:
    """The rows `statement` selects for the streams `%(ids)s`, by column name."""
    with connection.cursor() as cursor:
        cursor.execute(statement, {"ids": list(stream_ids)})
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def read_stored_events(*, stream_ids: Collection[UUID]) -> list[StoredEvent]:
    """Every event of these streams as stored, in global order."""
    rows = _stored_rows(
        f"""
        SELECT global_position, stream_id, stream_type, stream_version, event_type,
               schema_version, payload, metadata, recorded_at
        FROM {EVENT_TABLE} WHERE stream_id = ANY(%(ids)s) ORDER BY global_position
        """,
        stream_ids,
    )
    return [
        StoredEvent(**row | {"payload": _json(row["payload"]), "metadata": _json(row["metadata"])})
        for row in rows
    ]


def read_stored_keys(*, stream_ids: Collection[UUID]) -> list[StoredKey]:
    """The idempotency keys used on these streams, in the order they were first used."""
    rows = _stored_rows(
        f"""
        SELECT stream_id, key, command_fingerprint, first_version, last_version, recorded_at
        FROM {IDEMPOTENCY_KEY_TABLE} WHERE stream_id = ANY(%(ids)s)
        ORDER BY first_position, stream_id, key
        """,
        stream_ids,
    )
    return [StoredKey(**row) for row in rows]


def existing_streams(*, stream_ids: Collection[UUID]) -> set[UUID]:
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT DISTINCT stream_id FROM {EVENT_TABLE} WHERE stream_id = ANY(%(ids)s)",
            {"ids": list(stream_ids)},
        )
        return {row[0] for row in cursor.fetchall()}


def check_stored_order(events: Sequence[StoredEvent]) -> None:
    """Each stream's versions must run 1, 2, 3, ... in the order given."""
    heads: dict[UUID, int] = {}
    for event in events:
        expected = heads.get(event.stream_id, 0) + 1
        if event.stream_version != expected:
            raise ValueError(
                f"stream {event.stream_id}: version {event.stream_version} where {expected} "
                "was expected"
            )
        heads[event.stream_id] = expected


def insert_stored(
    *,
    events: Sequence[StoredEvent],
    keys: Sequence[StoredKey] = (),
    on_event: Callable[[], None] | None = None,
) -> list[int]:
    """Insert the events in the order given (each stream must be new: StreamsExist otherwise),
    and their idempotency keys; returns the positions given to the events. `on_event` is called
    after each event (a progress bar)."""
    check_stored_order(events)
    stream_ids = {event.stream_id for event in events}
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [APPEND_LOCK])
        found = existing_streams(stream_ids=stream_ids)
        if found:
            raise StreamsExist(found)
        positions: dict[tuple[UUID, int], int] = {}
        for event in events:
            cursor.execute(
                f"""
                INSERT INTO {EVENT_TABLE} (stream_id, stream_type, stream_version, event_type,
                    schema_version, payload, metadata, recorded_at)
                VALUES (%s, %s, %s, %s, %s, %s::jsonb, %s::jsonb, %s)
                RETURNING global_position
                """,
                [
                    event.stream_id,
                    event.stream_type,
                    event.stream_version,
                    event.event_type,
                    event.schema_version,
                    json.dumps(event.payload),
                    json.dumps(event.metadata),
                    event.recorded_at,
                ],
            )
            row = cursor.fetchone()
            if row is None:
                raise RuntimeError("an insert returns its global position")
            positions[(event.stream_id, event.stream_version)] = row[0]
            if on_event is not None:
                on_event()
        for key in keys:
            cursor.execute(
                f"""
                INSERT INTO {IDEMPOTENCY_KEY_TABLE} (stream_id, key, command_fingerprint,
                    first_version, last_version, first_position, recorded_at)
                VALUES (%s, %s, %s, %s, %s, %s, %s)
                """,
                [
                    key.stream_id,
                    key.key,
                    key.command_fingerprint,
                    key.first_version,
                    key.last_version,
                    positions[(key.stream_id, key.first_version)],
                    key.recorded_at,
                ],
            )
    return [positions[(event.stream_id, event.stream_version)] for event in events]
