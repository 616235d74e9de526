"""Appending to a stream: expected-version check, idempotency and commit order in one round trip.

The work happens in the PostgreSQL function `eventstore_append` (migration 0003), so that one
short statement does it all and the server reuses its query plans:

1. it takes the append lock (`pg_advisory_xact_lock`), held until the transaction ends, so global
   positions are handed out in commit order and a reader following the log by position never
   skips an event that commits late;
2. it reads the stream's head and the idempotency key, seeing every append committed before the
   lock was granted;
3. when the checks pass, it inserts the events and the key in one statement, all or nothing,
   and returns the new positions; otherwise it returns the head, and this module raises.

Outside a transaction the call is a transaction of its own. Inside a caller's transaction
(`transaction.atomic()`) it runs in a savepoint, opened and released in the same SQL string
(Django's psycopg 3 backend sends it with the simple query protocol, in one round trip); a
database error rolls back to the savepoint, so the caller's transaction stays usable: the effect
of a nested `atomic()` without its two extra round trips. See docs/decisions/0003-event-store.md.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import json
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any, Final
from uuid import UUID

from django.db import DatabaseError, IntegrityError, connection

from common.db import server_bound_cursor
from games.eventstore.errors import IdempotencyKeyReused, StreamTypeMismatch, WrongExpectedVersion
from games.eventstore.metrics import EVENTS_APPENDED
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
    WrittenWithAppend,
)
from games.eventstore.upcasters import upcasters

STREAM_VERSION_CONSTRAINT: Final = "eventstore_event_stream_version_unique"

_APPEND = """
SELECT * FROM eventstore_append(
    %(stream_id)s::uuid, %(stream_type)s::text, %(expected_version)s::integer,
    %(idempotency_key)s::text, %(command_fingerprint)s::text, %(events)s::jsonb,
    %(metadata)s::jsonb
)
"""

_SAVEPOINT = "eventstore_append"

APPENDED_CHANNEL: Final = "eventstore_appended"
"""The channel every append notifies (`pg_notify`, in the append's own transaction, so it is
delivered at commit and never for an append rolled back): the payload is the last global
position appended and the stream's id, `"<position> <stream id>"`. Listeners only wake on it
(the live feeds, docs/decisions/0051-async-feeds.md): the log stays what they read."""

# Sent once, and only when events were appended (not for a duplicate or a refused append): a
# one-row count over the notification is joined to the appended rows, so it is always run.
_NOTIFY = f"""
notified AS MATERIALIZED (
    SELECT pg_notify('{APPENDED_CHANNEL}', batch.last_position || ' ' || %(stream_id)s::text)
    FROM (
        SELECT max(appended_position) AS last_position FROM appended
        HAVING max(appended_position) IS NOT NULL
    ) AS batch
), notified_once AS MATERIALIZED (SELECT count(*) FROM notified)
"""


def _inside_transaction(statement: str) -> str:
    return f"SAVEPOINT {_SAVEPOINT}; {statement}; RELEASE SAVEPOINT {_SAVEPOINT}"


@lru_cache(maxsize=64)
def _append_with(ctes: str | None) -> tuple[str, str]:
    """The append, with writes of its own statement (`WrittenWithAppend`) if any, and its
    notification: alone, and inside a transaction. The function runs once (a materialized
    CTE); the rows come back in order."""
    more = "" if ctes is None else f", {ctes}"
    statement = (
        f"WITH appended AS MATERIALIZED ({_APPEND}), {_NOTIFY}{more} "
        "SELECT appended.* FROM appended CROSS JOIN notified_once "
        "ORDER BY appended_version NULLS FIRST"
    )
    return statement, _inside_transaction(statement)


_UNDO_APPEND_INSIDE_TRANSACTION = (
    f"ROLLBACK TO SAVEPOINT {_SAVEPOINT}; RELEASE SAVEPOINT {_SAVEPOINT}"
)

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
    alongside: WrittenWithAppend | None = None,
) -> AppendResult:
    """Append `events` to the stream, after the version the caller last saw.

    `expected_version` is that version (0: the stream must still be empty), or ANY_VERSION to
    skip the check; a stream at another version raises WrongExpectedVersion. With an
    `idempotency_key` already used on this stream, nothing is appended: the first append's
    events come back with `duplicate=True` when `command_fingerprint` matches the first one's,
    and IdempotencyKeyReused is raised when it does not. Without a fingerprint, the events
    themselves are fingerprinted. The key check comes first, so a retry whose first attempt
    succeeded gets its result back rather than a version conflict. `alongside` are writes made
    by the same statement when it appends (the caller's inline projections).
    """
    _check_append(stream_type, events, expected_version, idempotency_key, command_fingerprint)
    metadata = _metadata_with_key(metadata, idempotency_key)

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

    if alongside is not None:
        params.update(alongside.params)
    rows = _append_rows(
        params,
        None if alongside is None else alongside.ctes,
        stream_type=stream_type,
        expected_version=expected_version,
    )

    current_version, current_stream_type, used_fingerprint, used_first_version = rows[0][:4]
    appended = rows[0][4] is not None
    if appended:
        EVENTS_APPENDED.labels(stream_type=stream_type).inc(len(events))
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
                for event, (*_, global_position, version, recorded_at) in zip(
                    events, rows, strict=True
                )
            )
        )
    # The database appended nothing; say why, in the order it checked.
    if used_first_version is not None:
        return _first_append_of_key(
            stream_id=stream_id,
            stream_type=stream_type,
            idempotency_key=str(idempotency_key),
            same_command=used_fingerprint == command_fingerprint,
        )
    if current_stream_type is not None and current_stream_type != stream_type:
        raise StreamTypeMismatch(
            stream_id=stream_id, stream_type=stream_type, existing_stream_type=current_stream_type
        )
    raise WrongExpectedVersion(
        stream_id=stream_id,
        stream_type=stream_type,
        expected_version=expected_version,
        current_version=current_version,
    )


def _check_append(
    stream_type: str,
    events: Sequence[NewEvent],
    expected_version: ExpectedVersion,
    idempotency_key: str | None,
    command_fingerprint: str | None,
) -> None:
    _check_stream_type(stream_type)
    _check_expected_version(expected_version)
    _check_idempotency(idempotency_key, command_fingerprint)
    if not events:
        raise ValueError("An append needs at least one event.")
    for event in events:
        _check_new_event(event)


def _metadata_with_key(
    metadata: EventMetadata | None, idempotency_key: str | None
) -> EventMetadata:
    metadata = metadata or EventMetadata()
    if metadata.idempotency_key is not None:
        raise ValueError("Pass the idempotency key as idempotency_key=, not in the metadata.")
    return metadata.with_idempotency_key(idempotency_key)


def _append_rows(
    params: dict[str, Any],
    ctes: str | None,
    *,
    stream_type: str,
    expected_version: ExpectedVersion,
) -> list[tuple[Any, ...]]:
    """The append's rows; a stream version taken meanwhile is a WrongExpectedVersion."""
    try:
        return _execute_append(params, ctes)
    except IntegrityError as error:
        # Only a caller's transaction at REPEATABLE READ or SERIALIZABLE, whose snapshot
        # predates the lock, or a writer that bypasses the lock gets here: the unique constraint
        # is the last line of defence for stream versions. Such a snapshot may not show the
        # version that conflicted, which is at least the one after the expected version.
        if _violated_constraint(error) != STREAM_VERSION_CONSTRAINT:
            raise
        stream_id: UUID = params["stream_id"]
        current_version = stream_version(stream_id=stream_id)
        if expected_version is not ANY_VERSION:
            current_version = max(current_version, expected_version + 1)
        raise WrongExpectedVersion(
            stream_id=stream_id,
            stream_type=stream_type,
            expected_version=expected_version,
            current_version=current_version,
        ) from error


def _first_append_of_key(
    *, stream_id: UUID, stream_type: str, idempotency_key: str, same_command: bool
) -> AppendResult:
    """The append already made with `idempotency_key`, for the same command; another command
    with a used key is refused."""
    if not same_command:
        raise IdempotencyKeyReused(
            stream_id=stream_id, stream_type=stream_type, idempotency_key=idempotency_key
        )
    previous = find_append_by_idempotency_key(stream_id=stream_id, idempotency_key=idempotency_key)
    if previous is None:
        raise RuntimeError("An idempotency key without its events: they are never removed.")
    return previous


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


def _execute_append(params: dict[str, Any], ctes: str | None) -> list[tuple[Any, ...]]:
    alone, inside = _append_with(ctes)
    if connection.get_autocommit():
        with server_bound_cursor() as cursor:  # one statement: prepared per connection
            cursor.execute(alone, params)
            return list(cursor.fetchall())
    with connection.cursor() as cursor:
        try:
            cursor.execute(inside, params)
        except DatabaseError:
            # If the savepoint itself failed (the caller's transaction was already aborted),
            # undoing fails too: the original error is the one worth raising.
            with contextlib.suppress(DatabaseError):
                cursor.execute(_UNDO_APPEND_INSIDE_TRANSACTION)
            raise
        cursor.nextset()  # from the savepoint's result to the append's
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
    if upcasters.applies_to(
        stream_type=stream_type, event_type=event.event_type, schema_version=schema_version
    ):
        schema_version, payload = upcasters.upcast(
            stream_type=stream_type,
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
