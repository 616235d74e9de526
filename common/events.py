"""How a stream's typed events meet the event store: a type string and a JSON payload.

Each stream kind (matches, tournaments) keeps one frozen dataclass per event, with a class
attribute `type` (the stored type string), `to_payload()` and a classmethod `from_payload()`.
An `EventCodec` reads and writes them at the store's boundary. Standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Generic, TypeVar

Event = TypeVar("Event")


class EventCodec(Generic[Event]):
    """The event classes of one stream kind, by their stored type strings."""

    def __init__(self, kind: str, classes: Iterable[Any]) -> None:
        self.kind = kind
        self.classes: dict[str, type[Event]] = {cls.type: cls for cls in classes}

    def encode(self, event: Event) -> tuple[str, dict[str, Any]]:
        """The event as the store keeps it: its type string and its JSON payload."""
        stored: Any = event
        return stored.type, stored.to_payload()

    def decode(self, event_type: str, payload: Mapping[str, Any]) -> Event:
        """The event stored as `event_type` with `payload` (at its latest schema version: the
        store's upcasters ran)."""
        cls: Any = self.classes.get(event_type)
        if cls is None:
            raise ValueError(f"unknown {self.kind} event {event_type!r}")
        event: Event = cls.from_payload(payload)
        return event
