"""The values that go into and come out of the event store. Standard library only."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from typing import Any, Final, Literal
from uuid import UUID

from common.actors import Actor


class AnyVersion(enum.Enum):
    """The type of `ANY_VERSION`."""

    ANY_VERSION = "any"


ANY_VERSION: Final = AnyVersion.ANY_VERSION
"""Pass as `expected_version` to append whatever the stream's version is."""

ExpectedVersion = int | Literal[AnyVersion.ANY_VERSION]
"""The version the caller last saw (0: the stream must be empty), or `ANY_VERSION`."""


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append: a past-tense type (`CardPlayed`) and a JSON-compatible payload."""

    event_type: str
    payload: dict[str, Any]
    schema_version: int = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class EventMetadata:
    """Who caused an append and why. Every event of one append carries the same metadata.

    `idempotency_key` is filled in by `append_to_stream`; `extra` holds any other JSON values
    and must not reuse the names of the fields above.
    """

    actor_id: int | None = None
    entrant: int | None = None
    """A player who acted with their player key: the entrant (issue 26, decision 0055)."""
    device: str | None = None
    correlation_id: str | None = None
    causation_id: str | None = None
    reason: str | None = None
    idempotency_key: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, actor: Actor) -> EventMetadata:
        """The metadata of the events appended by `actor`'s command."""
        return cls(
            actor_id=actor.user_id,
            entrant=actor.entrant,
            device=actor.device,
            reason=actor.reason or None,
            correlation_id=actor.correlation_id,
            causation_id=actor.causation_id,
        )

    def actor(self) -> Actor:
        """Who caused the append, as a command they cause in turn names them (the reverse of
        `of`): a reaction to these events acts as the same actor."""
        return Actor(
            user_id=self.actor_id,
            entrant=self.entrant,
            device=self.device,
            reason=self.reason,
            correlation_id=self.correlation_id,
            causation_id=self.causation_id,
        )

    def __post_init__(self) -> None:
        clashes = sorted(set(self.extra) & set(_NAMED_METADATA_FIELDS))
        if clashes:
            raise ValueError(f"EventMetadata.extra must not use the reserved names {clashes}.")

    def to_json(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            name: getattr(self, name)
            for name in _NAMED_METADATA_FIELDS
            if getattr(self, name) is not None
        }
        document.update(self.extra)
        return document

    @classmethod
    def from_json(cls, document: Mapping[str, Any]) -> EventMetadata:
        named = {name: document[name] for name in _NAMED_METADATA_FIELDS if name in document}
        extra = {name: value for name, value in document.items() if name not in named}
        return cls(**named, extra=extra)

    def with_idempotency_key(self, idempotency_key: str | None) -> EventMetadata:
        return replace(self, idempotency_key=idempotency_key)


_NAMED_METADATA_FIELDS: Final = tuple(
    metadata_field.name
    for metadata_field in fields(EventMetadata)
    if metadata_field.name != "extra"
)


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordedEvent:
    """An event as stored, at the latest schema version its upcasters know."""

    global_position: int
    stream_id: UUID
    stream_type: str
    stream_version: int
    event_type: str
    schema_version: int
    payload: dict[str, Any]
    metadata: EventMetadata
    recorded_at: datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class EventToFold:
    """An event as the rebuilds fold it: a `RecordedEvent` without its metadata (who caused
    it, from which device), which no projection reads, and so not decoded for each of the
    thousands of events a rebuild reads."""

    global_position: int
    stream_id: UUID
    stream_type: str
    stream_version: int
    event_type: str
    schema_version: int
    payload: dict[str, Any]
    recorded_at: datetime


FoldedEvent = RecordedEvent | EventToFold
"""What a projection's fold takes: an event as read for a command, or for a rebuild."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AppendResult:
    """The events an append recorded, or, for a repeated idempotency key, the first append's."""

    events: tuple[RecordedEvent, ...]
    duplicate: bool = False

    @property
    def first_version(self) -> int:
        return self.events[0].stream_version

    @property
    def last_version(self) -> int:
        """The stream's version right after this append (the stream may have moved on since)."""
        return self.events[-1].stream_version

    @property
    def last_position(self) -> int:
        return self.events[-1].global_position


@dataclass(frozen=True, slots=True, kw_only=True)
class WrittenWithAppend:
    """Writes made by the append's own statement, in the same round trip (inline projections).

    `ctes` are data-modifying common table expressions (`name AS (INSERT ...)`, comma-separated)
    placed after `appended AS (SELECT * FROM eventstore_append(...))`. They may read `appended`
    (columns `appended_position`, `appended_version`, `appended_at`: one row per new event) and
    must write only when something was appended: guard each with `WRITTEN_IF_APPENDED`. Their
    placeholders are named (`%(name)s`), in `params`, apart from the append's own names."""

    ctes: str
    params: dict[str, object]


WRITTEN_IF_APPENDED = "EXISTS (SELECT 1 FROM appended WHERE appended_position IS NOT NULL)"
"""True when the append recorded events (not for a conflict or a repeated idempotency key)."""
APPENDED_LAST_POSITION = "(SELECT max(appended_position) FROM appended)"
APPENDED_FIRST_AT = "(SELECT min(appended_at) FROM appended)"
APPENDED_LAST_AT = "(SELECT max(appended_at) FROM appended)"
