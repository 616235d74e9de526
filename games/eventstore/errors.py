"""The event store's errors, split by audience.

`EventStoreError` subclasses are caused by what a client sent (a stale version, a reused key):
each has a stable `code` and a human `message` that the API layer turns into a 409 or 422.
`EventStoreMisuse` subclasses are programming errors that must never happen in production.
"""

from __future__ import annotations

from typing import ClassVar
from uuid import UUID

from games.eventstore.records import ANY_VERSION, ExpectedVersion


class EventStoreError(Exception):
    """An error a client can cause and fix; `code` is stable, `message` is for people."""

    code: ClassVar[str]

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class WrongExpectedVersion(EventStoreError):
    """The stream is not at the version the caller last saw: someone else appended first."""

    code: ClassVar[str] = "version_conflict"

    def __init__(
        self,
        *,
        stream_id: UUID,
        stream_type: str,
        expected_version: ExpectedVersion,
        current_version: int,
    ) -> None:
        if expected_version is ANY_VERSION:
            message = (
                f"The {stream_type} changed while you were writing to it: it is at version "
                f"{current_version}. Try again."
            )
        else:
            message = (
                f"The {stream_type} changed since you last saw it: it is at version "
                f"{current_version}, you expected version {expected_version}. "
                "Reload it and try again."
            )
        super().__init__(message)
        self.stream_id = stream_id
        self.stream_type = stream_type
        self.expected_version = expected_version
        self.current_version = current_version


class IdempotencyKeyReused(EventStoreError):
    """The idempotency key was already used on this stream for a different command."""

    code: ClassVar[str] = "idempotency_key_reused"

    def __init__(self, *, stream_id: UUID, stream_type: str, idempotency_key: str) -> None:
        super().__init__(
            f"The idempotency key {idempotency_key!r} was already used for a different command "
            f"on this {stream_type}. Send a new key for a new command."
        )
        self.stream_id = stream_id
        self.stream_type = stream_type
        self.idempotency_key = idempotency_key


class EventStoreMisuse(Exception):
    """A programming error: the event store was used in a way it never allows."""


class StreamTypeMismatch(EventStoreMisuse):
    """An append named a different stream type than the stream's existing events."""

    def __init__(self, *, stream_id: UUID, stream_type: str, existing_stream_type: str) -> None:
        super().__init__(
            f"Stream {stream_id} holds {existing_stream_type!r} events; "
            f"cannot append {stream_type!r} events to it."
        )
        self.stream_id = stream_id
        self.stream_type = stream_type
        self.existing_stream_type = existing_stream_type
