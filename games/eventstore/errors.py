"""The event store's errors, split by audience.

`EventStoreError` subclasses are caused by what a client sent (a stale version, a reused key):
each has a stable `code` and a human `message` that the API layer turns into a 409 or 422, in
the request's language from `template % params` (decision record 0022).
`EventStoreMisuse` subclasses are programming errors that must never happen in production.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar
from uuid import UUID

from django.utils.translation import gettext_noop

from games.eventstore.records import ANY_VERSION, ExpectedVersion


class EventStoreError(Exception):
    """An error a client can cause and fix; `code` is stable, `message` is for people."""

    code: ClassVar[str]

    def __init__(
        self,
        message: str,
        *,
        template: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.template = template
        self.params: dict[str, object] = dict(params or {})


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
            template = gettext_noop(
                "The %(stream_type)s changed while you were writing to it: it is at version "
                "%(current_version)s. Try again."
            )
        else:
            template = gettext_noop(
                "The %(stream_type)s changed since you last saw it: it is at version "
                "%(current_version)s, you expected version %(expected_version)s. "
                "Reload it and try again."
            )
        params = {
            "stream_type": stream_type,
            "current_version": current_version,
            "expected_version": expected_version,
        }
        super().__init__(template % params, template=template, params=params)
        self.stream_id = stream_id
        self.stream_type = stream_type
        self.expected_version = expected_version
        self.current_version = current_version

    @property
    def extra(self) -> dict[str, object]:
        """What the API adds to the error's body: the version to reload at."""
        return {"current_version": self.current_version}


class IdempotencyKeyReused(EventStoreError):
    """The idempotency key was already used on this stream for a different command."""

    code: ClassVar[str] = "idempotency_key_reused"

    def __init__(self, *, stream_id: UUID, stream_type: str, idempotency_key: str) -> None:
        template = gettext_noop(
            "The idempotency key %(idempotency_key)r was already used for a different command "
            "on this %(stream_type)s. Send a new key for a new command."
        )
        params = {"idempotency_key": idempotency_key, "stream_type": stream_type}
        super().__init__(template % params, template=template, params=params)
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
