"""Upcasters: old events come out of the store at the latest schema version. Standard library only.

An upcaster turns the payload of an `event_type` event at `from_version` into its payload at
`from_version + 1`. On read, upcasters are chained until none applies, so an event stored at
version 1 comes out at version 3 when upcasters from 1 and from 2 are registered. Stored rows are
never rewritten. Register upcasters at import time of the module that owns the event type (for
example in an AppConfig.ready()), before anything reads events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class UpcasterRegistry:
    def __init__(self) -> None:
        self._upcasters: dict[tuple[str, int], Upcaster] = {}

    def register(self, *, event_type: str, from_version: int, upcaster: Upcaster) -> None:
        if from_version < 1:
            raise ValueError(f"Schema versions start at 1, got from_version={from_version}.")
        if (event_type, from_version) in self._upcasters:
            raise ValueError(
                f"An upcaster for {event_type} from schema version {from_version} "
                "is already registered."
            )
        self._upcasters[(event_type, from_version)] = upcaster

    def unregister(self, *, event_type: str, from_version: int) -> None:
        del self._upcasters[(event_type, from_version)]

    def applies_to(self, *, event_type: str, schema_version: int) -> bool:
        return (event_type, schema_version) in self._upcasters

    def upcast(
        self, *, event_type: str, schema_version: int, payload: dict[str, Any]
    ) -> tuple[int, dict[str, Any]]:
        """The latest schema version and payload. The given payload may be modified."""
        while (upcaster := self._upcasters.get((event_type, schema_version))) is not None:
            payload = upcaster(payload)
            schema_version += 1
        return schema_version, payload


upcasters = UpcasterRegistry()
"""The registry that every read of the event store applies."""


def register_upcaster(*, event_type: str, from_version: int, upcaster: Upcaster) -> None:
    """Upcast `event_type` payloads from schema version `from_version` to `from_version + 1`."""
    upcasters.register(event_type=event_type, from_version=from_version, upcaster=upcaster)


def unregister_upcaster(*, event_type: str, from_version: int) -> None:
    upcasters.unregister(event_type=event_type, from_version=from_version)
