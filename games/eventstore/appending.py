"""Appending to a stream: expected-version check, idempotency and commit order in one round trip.

Every append sends one SQL string of two statements:

1. `SELECT pg_advisory_xact_lock(APPEND_LOCK_KEY)`: one append at a time, until its transaction
   ends. Global positions are therefore handed out in commit order, and a reader following the
   log by position never skips an event that commits late.
2. One statement that reads the stream's head and the idempotency key, and inserts the events and
   the key only when the checks pass. Being a new statement after the lock, it sees every append
   committed before ours (READ COMMITTED takes a snapshot per statement).

Outside a transaction the two statements run as one implicit transaction (PostgreSQL's simple
query protocol, which Django's psycopg 3 backend uses by default): one round trip in all. Inside a
caller's `transaction.atomic()` they run in a savepoint, so a conflict leaves the caller's
transaction usable. See docs/decisions/0003-event-store.md.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Final
from uuid import UUID

from django.db import IntegrityError, connection, transaction
from django.db.backends.utils import CursorWrapper

from games.eventstore.errors import IdempotencyKeyReused, StreamTypeMismatch, WrongExpectedVersion
from games.eventstore.models import (
    COMMAND_FINGERPRINT_MAX_LENGTH,
    EVENT_TABLE,
    EVENT_TYPE_MAX_LENGTH,
    IDEMPOTENCY_KEY_MAX_LENGTH,
    IDEMPOTENCY_KEY_TABLE,
    STREAM_TYPE_MAX_LENGTH,
)
from games.eventstore.reading import EVENT_COLUMNS, recorded_event_from_row, stream_version
from games.eventstore.records import (
    ANY_VERSION,
    AppendResult,
    EventMetadata,
    ExpectedVersion,
    NewEvent,
    RecordedEvent,
)
from games.eventstore.upcasters import upcasters

APPEND_LOCK_KEY: Final = int.from_bytes(b"eventlog", "big")
"""The advisory lock every append holds until its transaction ends; any fixed bigint would do."""

STREAM_VERSION_CONSTRAINT: Final = "eventstore_event_stream_version_unique"

_APPEND = f"""
SELECT pg_advisory_xact_lock({APPEND_LOCK_KEY});
WITH head AS MATERIALIZED (
    SELECT coalesce(last_event.stream_version, 0) AS current_version,
           last_event.stream_type AS current_stream_type,
           used_key.command_fingerprint AS used_fingerprint,
           used_key.first_version AS used_first_version
    FROM (VALUES (1)) AS one_row (one)
    LEFT JOIN LATERAL (
        SELECT stream_version, stream_type FROM {EVENT_TABLE}
        WHERE stream_id = %(stream_id)s
        ORDER BY stream_version DESC
        LIMIT 1
    ) AS last_event ON true
    LEFT JOIN {IDEMPOTENCY_KEY_TABLE} AS used_key
        ON used_key.stream_id = %(stream_id)s AND used_key.key = %(idempotency_key)s
),
accepted AS MATERIALIZED (
    SELECT current_version FROM head
    WHERE used_first_version IS NULL
      AND (current_stream_type IS NULL OR current_stream_type = %(stream_type)s)
      AND (%(expected_version)s::integer IS NULL
           OR current_version = %(expected_version)s::integer)
),
appended AS (
    INSERT INTO {EVENT_TABLE} (
        stream_id, stream_type, stream_version, event_type, schema_version,
        payload, metadata, recorded_at
    )
    SELECT %(stream_id)s, %(stream_type)s, accepted.current_version + new_event.ordinality,
           new_event.body ->> 'event_type', (new_event.body ->> 'schema_version')::integer,
           new_event.body -> 'payload', %(metadata)s::jsonb, statement_timestamp()
    FROM accepted
    CROSS JOIN jsonb_array_elements(%(events)s::jsonb) WITH ORDINALITY
        AS new_event (body, ordinality)
    ORDER BY new_event.ordinality
    RETURNING global_position, stream_version, recorded_at
),
recorded_key AS (
    INSERT INTO {IDEMPOTENCY_KEY_TABLE} (
        stream_id, key, command_fingerprint, first_version, last_version, first_position,
        recorded_at
    )
    SELECT %(stream_id)s, %(idempotency_key)s, %(command_fingerprint)s,
           min(stream_version), max(stream_version), min(global_position), statement_timestamp()
    FROM appended
    WHERE %(idempotency_key)s::text IS NOT NULL
    HAVING count(*) > 0
)
SELECT head.current_version, head.current_stream_type, head.used_fingerprint,
       head.used_first_version, appended.global_position, appended.stream_version,
       appended.recorded_at
FROM head LEFT JOIN appended ON true
ORDER BY appended.stream_version
"""

_READ_APPEND_BY_KEY = f"""
SELECT used_key.command_fingerprint, {", ".join(f"event.{c}" for c in EVENT_COLUMNS.split(", "))}
FROM {IDEMPOTENCY_KEY_TABLE} AS used_key
JOIN {EVENT_TABLE} AS event
    ON event.stream_id = used_key.stream_id
   AND event.stream_version BETWEEN used_key.first_version AND used_key.last_version
WHERE used_key.stream_id = %(stream_id)s AND used_key.key = %(idempotency_key)s
ORDER BY event.stream_version
"""


def append_to_stream(
    *,
    stream_id: UUID,
    stream_type: str,
    events: Sequence[NewEvent],
    expected_version: ExpectedVersion,
    metadata: EventMetadata | None = None,
    idempotency_key: str | None = None,
    command_fingerprint: str | None = None,
) -> AppendResult:
    """Append `events` to the stream, after the version the caller last saw.

    `expected_version` is that version (0: the stream must still be empty), or ANY_VERSION to
    skip the check; a stream at another version raises WrongExpectedVersion. With an
    `idempotency_key` already used on this stream, nothing is appended: the first append's
    events come back with `duplicate=True` when `command_fingerprint` matches the first one's,
    and IdempotencyKeyReused is raised when it does not. Without a fingerprint, the events
    themselves are fingerprinted. The key check comes first, so a retry whose first attempt
    succeeded gets its result back rather than a version conflict.
    """
    _check_stream_type(stream_type)
    _check_expected_version(expected_version)
    _check_idempotency(idempotency_key, command_fingerprint)
    if not events:
        raise ValueError("An append needs at least one event.")
    for event in events:
        _check_new_event(event)
    metadata = metadata or EventMetadata()
    if metadata.idempotency_key is not None:
        raise ValueError("Pass the idempotency key as idempotency_key=, not in the metadata.")
    metadata = metadata.with_idempotency_key(idempotency_key)

    events_json = _to_json(
        [
            {"event_type": e.event_type, "schema_version": e.schema_version, "payload": e.payload}
            for e in events
        ],
        sort_keys=True,
    )
    if idempotency_key is not None and command_fingerprint is None:
        command_fingerprint = hashlib.sha256(events_json.encode()).hexdigest()
    params = {
        "stream_id": stream_id,
        "stream_type": stream_type,
        "expected_version": None if expected_version is ANY_VERSION else expected_version,
        "idempotency_key": idempotency_key,
        "command_fingerprint": command_fingerprint,
        "events": events_json,
        "metadata": _to_json(metadata.to_json()),
    }

    try:
        rows = _execute_append(params)
    except IntegrityError as error:
        # Only a caller's transaction at REPEATABLE READ or SERIALIZABLE, whose snapshot
        # predates the lock, or a writer that bypasses the lock gets here: the unique constraint
        # is the last line of defence for stream versions. Such a snapshot may not show the
        # version that conflicted, which is at least the one after the expected version.
        if _violated_constraint(error) != STREAM_VERSION_CONSTRAINT:
            raise
        current_version = stream_version(stream_id=stream_id)
        if expected_version is not ANY_VERSION:
            current_version = max(current_version, expected_version + 1)
        raise WrongExpectedVersion(
            stream_id=stream_id,
            stream_type=stream_type,
            expected_version=expected_version,
            current_version=current_version,
        ) from error

    current_version, current_stream_type, used_fingerprint, used_first_version = rows[0][:4]
    if used_first_version is not None:
        if used_fingerprint != command_fingerprint:
            raise IdempotencyKeyReused(
                stream_id=stream_id, stream_type=stream_type, idempotency_key=str(idempotency_key)
            )
        previous = find_append_by_idempotency_key(
            stream_id=stream_id, idempotency_key=str(idempotency_key)
        )
        if previous is None:
            raise RuntimeError("An idempotency key whose events are missing: never removed.")
        return previous
    if current_stream_type is not None and current_stream_type != stream_type:
        raise StreamTypeMismatch(
            stream_id=stream_id, stream_type=stream_type, existing_stream_type=current_stream_type
        )
    if expected_version is not ANY_VERSION and current_version != expected_version:
        raise WrongExpectedVersion(
            stream_id=stream_id,
            stream_type=stream_type,
            expected_version=expected_version,
            current_version=current_version,
        )
    return AppendResult(
        events=tuple(
            _recorded_event(
                event,
                stream_id=stream_id,
                stream_type=stream_type,
                metadata=metadata,
                global_position=global_position,
                version=version,
                recorded_at=recorded_at,
            )
            for event, (*_, global_position, version, recorded_at) in zip(events, rows, strict=True)
        )
    )


def find_append_by_idempotency_key(
    *, stream_id: UUID, idempotency_key: str, command_fingerprint: str | None = None
) -> AppendResult | None:
    """The append made with `idempotency_key` on the stream (`duplicate=True`), or None.

    Services call this before deciding a command, since a command that already succeeded is
    usually no longer legal against the new state. With a `command_fingerprint` that differs
    from the first append's, raises IdempotencyKeyReused.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            _READ_APPEND_BY_KEY, {"stream_id": stream_id, "idempotency_key": idempotency_key}
        )
        rows = cursor.fetchall()
    if not rows:
        return None
    events = tuple(recorded_event_from_row(row[1:]) for row in rows)
    if command_fingerprint is not None and rows[0][0] != command_fingerprint:
        raise IdempotencyKeyReused(
            stream_id=stream_id,
            stream_type=events[0].stream_type,
            idempotency_key=idempotency_key,
        )
    return AppendResult(events=events, duplicate=True)


def _execute_append(params: dict[str, Any]) -> list[tuple[Any, ...]]:
    if connection.in_atomic_block or not connection.get_autocommit():
        with transaction.atomic(), connection.cursor() as cursor:
            return _run_append(cursor, params)
    # In autocommit mode the two statements form one implicit transaction: BEGIN and COMMIT
    # would only add round trips.
    with connection.cursor() as cursor:
        return _run_append(cursor, params)


def _run_append(cursor: CursorWrapper, params: dict[str, Any]) -> list[tuple[Any, ...]]:
    cursor.execute(_APPEND, params)
    cursor.nextset()  # past the lock's result, to the append's
    return list(cursor.fetchall())


def _recorded_event(
    event: NewEvent,
    *,
    stream_id: UUID,
    stream_type: str,
    metadata: EventMetadata,
    global_position: int,
    version: int,
    recorded_at: datetime,
) -> RecordedEvent:
    schema_version, payload = event.schema_version, event.payload
    if upcasters.applies_to(event_type=event.event_type, schema_version=schema_version):
        schema_version, payload = upcasters.upcast(
            event_type=event.event_type,
            schema_version=schema_version,
            payload=copy.deepcopy(payload),
        )
    return RecordedEvent(
        global_position=global_position,
        stream_id=stream_id,
        stream_type=stream_type,
        stream_version=version,
        event_type=event.event_type,
        schema_version=schema_version,
        payload=payload,
        metadata=metadata,
        recorded_at=recorded_at,
    )


def _to_json(value: Any, *, sort_keys: bool = False) -> str:
    return json.dumps(
        value, sort_keys=sort_keys, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def _violated_constraint(error: IntegrityError) -> str | None:
    diagnostic = getattr(error.__cause__, "diag", None)
    return getattr(diagnostic, "constraint_name", None)


def _check_stream_type(stream_type: str) -> None:
    if not stream_type or len(stream_type) > STREAM_TYPE_MAX_LENGTH:
        raise ValueError(
            f"stream_type must have 1 to {STREAM_TYPE_MAX_LENGTH} characters, got {stream_type!r}."
        )


def _check_expected_version(expected_version: ExpectedVersion) -> None:
    if expected_version is ANY_VERSION:
        return
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise TypeError(f"expected_version must be an int or ANY_VERSION: {expected_version!r}.")
    if expected_version < 0:
        raise ValueError(f"expected_version must be 0 or more, got {expected_version}.")


def _check_idempotency(idempotency_key: str | None, command_fingerprint: str | None) -> None:
    if idempotency_key is None:
        if command_fingerprint is not None:
            raise ValueError("A command_fingerprint needs an idempotency_key.")
        return
    if not idempotency_key or len(idempotency_key) > IDEMPOTENCY_KEY_MAX_LENGTH:
        raise ValueError(f"idempotency_key must have 1 to {IDEMPOTENCY_KEY_MAX_LENGTH} characters.")
    if command_fingerprint is not None and not (
        0 < len(command_fingerprint) <= COMMAND_FINGERPRINT_MAX_LENGTH
    ):
        raise ValueError(
            f"command_fingerprint must have 1 to {COMMAND_FINGERPRINT_MAX_LENGTH} characters."
        )


def _check_new_event(event: NewEvent) -> None:
    if not event.event_type or len(event.event_type) > EVENT_TYPE_MAX_LENGTH:
        raise ValueError(
            f"event_type must have 1 to {EVENT_TYPE_MAX_LENGTH} characters, "
            f"got {event.event_type!r}."
        )
    if isinstance(event.schema_version, bool) or event.schema_version < 1:
        raise ValueError(f"schema_version must be 1 or more, got {event.schema_version!r}.")
    if not isinstance(event.payload, dict):
        raise TypeError(f"An event payload must be a dict, got {type(event.payload).__name__}.")
