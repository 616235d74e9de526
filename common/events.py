"""How a stream's typed events meet the event store: a type string and a JSON payload.

Each stream kind (matches, tournaments) keeps one frozen dataclass per event, with a class
attribute `type` (the stored type string), `to_payload()` and a classmethod `from_payload()`,
and, once its payload changed, a class attribute `schema_version` (the version it is written at
now; 1 when absent). An `EventCodec` reads and writes them at the store's boundary: it reads
payloads at their latest version only, the store's upcasters bringing older ones up to it.
Standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Generic, Protocol, TypeVar

Event = TypeVar("Event")


class Recorded(Protocol):
    """An event as the store gives it back (`games.eventstore` records), upcast to its
    latest schema version."""

    @property
    def event_type(self) -> str: ...

    @property
    def payload(self) -> Mapping[str, Any]: ...


class EventCodec(Generic[Event]):
    """The event classes of one stream kind, by their stored type strings."""

    def __init__(self, kind: str, classes: Iterable[Any]) -> None:
        self.kind = kind
        self.classes: dict[str, type[Event]] = {cls.type: cls for cls in classes}

    def encode(self, event: Event) -> tuple[str, dict[str, Any]]:
        """The event as the store keeps it: its type string and its JSON payload."""
        stored: Any = event
        return stored.type, stored.to_payload()

    def schema_version_of(self, event_type: str) -> int:
        """The schema version `event_type` events are written at now."""
        cls: Any = self.classes[event_type]
        version: int = getattr(cls, "schema_version", 1)
        return version

    def decode(self, event_type: str, payload: Mapping[str, Any]) -> Event:
        """The event stored as `event_type` with `payload` (at its latest schema version: the
        store's upcasters ran)."""
        cls: Any = self.classes.get(event_type)
        if cls is None:
            raise ValueError(f"unknown {self.kind} event {event_type!r}")
        event: Event = cls.from_payload(payload)
        return event

    def decode_recorded(self, recorded: Recorded) -> Event:
        """The typed event of a record the store gave back: what every reader of the log
        (consumers, feeds, webhooks, rebuilds) reads instead of its payload."""
        return self.decode(recorded.event_type, recorded.payload)
