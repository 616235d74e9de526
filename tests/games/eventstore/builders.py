"""Small builders for event store tests: streams and events without fixtures."""

import threading
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from django.db import connection

from games.eventstore.api import (
    ANY_VERSION,
    AppendResult,
    EventMetadata,
    ExpectedVersion,
    NewEvent,
    append_to_stream,
)
from games.eventstore.upcasters import upcasters

T = TypeVar("T")


def new_stream_id() -> uuid.UUID:
    return uuid.uuid4()


def card_played(card: str = "3C", seat: int = 0) -> NewEvent:
    return NewEvent("CardPlayed", {"card": card, "seat": seat})


def cards_played(*codes: str) -> list[NewEvent]:
    """`cards_played("1D", "3C")`: one CardPlayed per card, seats in turn."""
    return [card_played(code, seat) for seat, code in enumerate(codes)]


def append(
    stream_id: uuid.UUID | None = None,
    events: Sequence[NewEvent] | None = None,
    *,
    stream_type: str = "match",
    expected_version: ExpectedVersion = ANY_VERSION,
    metadata: EventMetadata | None = None,
    idempotency_key: str | None = None,
    command_fingerprint: str | None = None,
) -> AppendResult:
    """Append with test defaults: a new match stream, one CardPlayed, no version check."""
    return append_to_stream(
        stream_id=stream_id or new_stream_id(),
        stream_type=stream_type,
        events=events if events is not None else [card_played()],
        expected_version=expected_version,
        metadata=metadata,
        idempotency_key=idempotency_key,
        command_fingerprint=command_fingerprint,
    )


def table_positions() -> list[int]:
    """Every global position in the event table, read directly."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT global_position FROM eventstore_event ORDER BY global_position")
        return [row[0] for row in cursor.fetchall()]


def in_threads(work: Callable[[int], T], count: int) -> list[T]:
    """Run `work(0)` ... `work(count - 1)` at once, each in a thread with its own connection.

    Returns their results in order and re-raises the first exception a thread raised.
    """

    def run(index: int) -> T:
        try:
            return work(index)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=count) as pool:
        futures = [pool.submit(run, index) for index in range(count)]
        return [future.result() for future in futures]


class TailingReader:
    """Follows the global log in its own thread, as a projection consumer would."""

    def __init__(self, read_batch: Callable[[int], Sequence[Any]]) -> None:
        self._read_batch = read_batch
        self.seen: list[int] = []
        self.batches = 0
        self._writers_done = threading.Event()
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._follow, name="tailing-reader")

    def __enter__(self) -> "TailingReader":
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._writers_done.set()
        self._thread.join(timeout=60)
        if self._failure is not None:
            raise self._failure

    def _follow(self) -> None:
        try:
            after = 0
            while True:
                # Read the flag before the batch: an empty batch read after the writers finished
                # proves the reader has caught up with everything they committed.
                writers_done = self._writers_done.is_set()
                batch = self._read_batch(after)
                if batch:
                    self.batches += 1
                    self.seen.extend(event.global_position for event in batch)
                    after = batch[-1].global_position
                elif writers_done:
                    return
                else:
                    time.sleep(0.001)
        except BaseException as failure:
            self._failure = failure
        finally:
            connection.close()


def event_rows() -> list[tuple[object, ...]]:
    """Every event row as stored, payload and metadata as their exact JSON text."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT global_position, stream_id, stream_type, stream_version, event_type, "
            "schema_version, payload::text, metadata::text, recorded_at "
            "FROM eventstore_event ORDER BY global_position"
        )
        return list(cursor.fetchall())


def version_upcast_to(stream_type: str, event_type: str) -> int:
    """The schema version the registered upcasters bring a version-1 `event_type` to."""
    version = 1
    while upcasters.applies_to(
        stream_type=stream_type, event_type=event_type, schema_version=version
    ):
        version += 1
    return version
