"""Reading the event store: one stream in version order, or the whole log in position order.

Appends commit in global position order (see appending.py), so a reader that remembers the last
position it saw and asks for what comes after never skips an event that commits late.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any
from uuid import UUID

from django.db import connection

from common.db import server_bound_cursor
from games.eventstore.models import EVENT_TABLE
from games.eventstore.records import EventMetadata, EventToFold, RecordedEvent
from games.eventstore.upcasters import upcasters

EVENT_COLUMNS = (
    "global_position, stream_id, stream_type, stream_version, event_type, schema_version, "
    "payload, metadata, recorded_at"
)

FOLDED_COLUMNS = (
    "global_position, stream_id, stream_type, stream_version, event_type, schema_version, "
    "payload, recorded_at"
)
"""EVENT_COLUMNS without the metadata, for the rebuilds (`EventToFold`)."""

_READ_STREAM = f"""
    SELECT {EVENT_COLUMNS} FROM {EVENT_TABLE}
    WHERE stream_id = %(stream_id)s
      AND stream_version >= %(from_version)s
      AND (%(to_version)s::integer IS NULL OR stream_version <= %(to_version)s::integer)
    ORDER BY stream_version
"""

_READ_ALL = f"""
    SELECT {EVENT_COLUMNS} FROM {EVENT_TABLE}
    WHERE global_position > %(after)s
    ORDER BY global_position
    LIMIT %(limit)s
"""

_READ_ALL_OF_TYPES = f"""
    SELECT {EVENT_COLUMNS} FROM {EVENT_TABLE}
    WHERE global_position > %(after)s AND stream_type = ANY(%(stream_types)s)
    ORDER BY global_position
    LIMIT %(limit)s
"""

_READ_STREAM_TO_FOLD = f"""
    SELECT {FOLDED_COLUMNS} FROM {EVENT_TABLE}
    WHERE stream_id = %(stream_id)s
    ORDER BY stream_version
"""

_READ_ALL_OF_TYPES_TO_FOLD = f"""
    SELECT {FOLDED_COLUMNS} FROM {EVENT_TABLE}
    WHERE global_position > %(after)s AND stream_type = ANY(%(stream_types)s)
    ORDER BY global_position
    LIMIT %(limit)s
"""

_READ_STREAMS_AFTER = f"""
    SELECT {EVENT_COLUMNS} FROM {EVENT_TABLE}
    WHERE (stream_id = ANY(%(stream_ids)s) OR stream_id IN ({{more_streams}}))
      AND global_position > %(after)s
    ORDER BY global_position
    LIMIT %(limit)s
"""

_NO_MORE_STREAMS = "SELECT NULL::uuid WHERE false"

_STREAM_VERSION = f"""
    SELECT coalesce(max(stream_version), 0) FROM {EVENT_TABLE} WHERE stream_id = %(stream_id)s
"""

_LAST_POSITION = f"SELECT coalesce(max(global_position), 0) FROM {EVENT_TABLE}"

_LAST_POSITION_OF_STREAMS = f"""
    SELECT coalesce(max(last.global_position), 0)
    FROM unnest(%(stream_ids)s::uuid[]) AS streams(id),
    LATERAL (SELECT e.global_position FROM {EVENT_TABLE} e WHERE e.stream_id = streams.id
             ORDER BY e.stream_version DESC LIMIT 1) AS last
"""
"""Each stream's last event, by the (stream, version) index: a stream's positions grow with its
versions, so its last event holds its highest. One probe a stream, where reading every event
of a tournament's two hundred matches took milliseconds on every page poll."""


def read_stream(
    *, stream_id: UUID, from_version: int = 1, to_version: int | None = None
) -> list[RecordedEvent]:
    """The stream's events from `from_version` to `to_version` (both included), in order."""
    if from_version < 1:
        raise ValueError(f"Stream versions start at 1, got from_version={from_version}.")
    with connection.cursor() as cursor:
        cursor.execute(
            _READ_STREAM,
            {"stream_id": stream_id, "from_version": from_version, "to_version": to_version},
        )
        return [recorded_event_from_row(row) for row in cursor.fetchall()]


def read_stream_beside(
    statement: str, params: dict[str, Any], *, stream_id: UUID, from_version: int = 1
) -> tuple[tuple[Any, ...] | None, list[RecordedEvent]]:
    """The row of `statement` (a SELECT of at most one row, its named placeholders apart from
    `stream_id` and `from_version`) and the stream's events from `from_version` on: one
    statement, so one snapshot and one round trip, bound on the server and prepared once per
    connection (a card's permission check reads its match's place and newer events with it)."""
    if from_version < 1:
        raise ValueError(f"Stream versions start at 1, got from_version={from_version}.")
    with server_bound_cursor() as cursor:
        cursor.execute(
            _beside_stream(statement),
            {**params, "stream_id": stream_id, "from_version": from_version},
        )
        rows = cursor.fetchall()
    if not rows:
        return None, []
    width = len(rows[0]) - EVENT_WIDTH
    events = [recorded_event_from_row(row[width:]) for row in rows if row[width] is not None]
    return tuple(rows[0][:width]), events


EVENT_WIDTH = len(EVENT_COLUMNS.split(","))


@lru_cache(maxsize=8)
def _beside_stream(statement: str) -> str:
    """`statement`'s row, repeated beside each of the stream's events (once, with no event
    columns, when the stream has none from that version)."""
    event_columns = ", ".join(f"event.{name.strip()}" for name in EVENT_COLUMNS.split(","))
    return f"""
    WITH beside AS ({statement})
    SELECT beside.*, {event_columns}
    FROM beside LEFT JOIN LATERAL (
        SELECT {EVENT_COLUMNS} FROM {EVENT_TABLE}
        WHERE stream_id = %(stream_id)s AND stream_version >= %(from_version)s
    ) AS event ON true
    ORDER BY event.stream_version
    """


def stream_version(*, stream_id: UUID) -> int:
    """The version of the stream's last event; 0 for a stream with no events."""
    with connection.cursor() as cursor:
        cursor.execute(_STREAM_VERSION, {"stream_id": stream_id})
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def read_all(
    *, after: int = 0, limit: int = 1000, stream_types: Collection[str] | None = None
) -> list[RecordedEvent]:
    """Up to `limit` events with a global position above `after`, in global position order.

    Positions increase but may have gaps (an append that rolled back used them up): remember
    the last position you processed and pass it as `after`, never count events.
    """
    if after < 0:
        raise ValueError(f"Global positions start at 1, got after={after}.")
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}.")
    params: dict[str, Any] = {"after": after, "limit": limit}
    query = _READ_ALL
    if stream_types is not None:
        params["stream_types"] = list(stream_types)
        query = _READ_ALL_OF_TYPES
    with connection.cursor() as cursor:
        cursor.execute(query, params)
        return [recorded_event_from_row(row) for row in cursor.fetchall()]


def read_streams_after(
    *,
    stream_ids: Collection[UUID],
    after: int = 0,
    limit: int = 1000,
    more_streams: str | None = None,
    params: Mapping[str, Any] | None = None,
) -> list[RecordedEvent]:
    """Up to `limit` events of these streams with a global position above `after`, in global
    position order: a feed of a few streams that a reader follows by remembering the last
    position it saw (appends commit in position order, so it never skips one).

    `more_streams` is a constant SELECT of further stream ids (its values bound from `params`),
    run in the same statement: streams whose ids are recorded in rows written with their first
    event are seen in the same snapshot as that event, never after it."""
    if after < 0:
        raise ValueError(f"Global positions start at 1, got after={after}.")
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}.")
    statement = _READ_STREAMS_AFTER.format(more_streams=more_streams or _NO_MORE_STREAMS)
    bound = {**(params or {}), "stream_ids": list(stream_ids), "after": after, "limit": limit}
    with connection.cursor() as cursor:
        cursor.execute(statement, bound)
        return [recorded_event_from_row(row) for row in cursor.fetchall()]


def iter_all(
    *, after: int = 0, batch_size: int = 5000, stream_types: Collection[str] | None = None
) -> Iterator[RecordedEvent]:
    """Every event above `after` in global position order, fetched `batch_size` at a time.

    Keyset pagination on the position keeps memory flat and holds no transaction or cursor
    open between batches; events committed while iterating are included.
    """
    while True:
        batch = read_all(after=after, limit=batch_size, stream_types=stream_types)
        yield from batch
        if len(batch) < batch_size:
            return
        after = batch[-1].global_position


def read_stream_to_fold(*, stream_id: UUID) -> list[EventToFold]:
    """The whole stream in order, as a rebuild folds it (without the metadata)."""
    with connection.cursor() as cursor:
        cursor.execute(_READ_STREAM_TO_FOLD, {"stream_id": stream_id})
        return [event_to_fold_from_row(row) for row in cursor.fetchall()]


def iter_all_to_fold(
    *, stream_types: Collection[str], after: int = 0, batch_size: int = 5000
) -> Iterator[EventToFold]:
    """`iter_all` of these stream types, as a rebuild folds them (without the metadata)."""
    params: dict[str, Any] = {"stream_types": list(stream_types), "limit": batch_size}
    while True:
        with connection.cursor() as cursor:
            cursor.execute(_READ_ALL_OF_TYPES_TO_FOLD, {**params, "after": after})
            batch = [event_to_fold_from_row(row) for row in cursor.fetchall()]
        yield from batch
        if len(batch) < batch_size:
            return
        after = batch[-1].global_position


def last_position() -> int:
    """The highest global position recorded so far; 0 for an empty log."""
    with connection.cursor() as cursor:
        cursor.execute(_LAST_POSITION)
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def last_position_of_streams(*, stream_ids: Collection[UUID]) -> int:
    """The highest global position among the events of these streams; 0 if they have none."""
    if not stream_ids:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(_LAST_POSITION_OF_STREAMS, {"stream_ids": list(stream_ids)})
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def recorded_event_from_row(row: Sequence[Any]) -> RecordedEvent:
    """A RecordedEvent from a row of EVENT_COLUMNS, upcast to its latest schema version."""
    (
        global_position,
        stream_id,
        stream_type,
        version,
        event_type,
        stored_schema_version,
        payload,
        metadata,
        recorded_at,
    ) = row
    schema_version, upcast_payload = upcasters.upcast(
        stream_type=stream_type,
        event_type=event_type,
        schema_version=stored_schema_version,
        payload=_from_json(payload),
    )
    return RecordedEvent(
        global_position=global_position,
        stream_id=stream_id,
        stream_type=stream_type,
        stream_version=version,
        event_type=event_type,
        schema_version=schema_version,
        payload=upcast_payload,
        metadata=EventMetadata.from_json(_from_json(metadata)),
        recorded_at=recorded_at,
    )


def event_to_fold_from_row(row: Sequence[Any]) -> EventToFold:
    """An EventToFold from a row of FOLDED_COLUMNS, upcast as `recorded_event_from_row` does."""
    (
        global_position,
        stream_id,
        stream_type,
        version,
        event_type,
        stored_schema_version,
        payload,
        recorded_at,
    ) = row
    schema_version, upcast_payload = upcasters.upcast(
        stream_type=stream_type,
        event_type=event_type,
        schema_version=stored_schema_version,
        payload=_from_json(payload),
    )
    return EventToFold(
        global_position=global_position,
        stream_id=stream_id,
        stream_type=stream_type,
        stream_version=version,
        event_type=event_type,
        schema_version=schema_version,
        payload=upcast_payload,
        recorded_at=recorded_at,
    )


def _from_json(value: Any) -> Any:
    # Django registers a text loader for jsonb on psycopg 3 connections; psycopg alone decodes.
    if isinstance(value, str | bytes):
        return json.loads(value)
    return value
