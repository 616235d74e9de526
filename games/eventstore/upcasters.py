"""Upcasters: old events come out of the store at the latest schema version. Standard library only.

An upcaster turns the payload of an `event_type` event of one stream kind (`stream_type`) at
`from_version` into its payload at `from_version + 1`. On read, the upcasters of the record's
own stream kind are chained until none applies, so an event stored at version 1 comes out at
version 3 when upcasters from 1 and from 2 are registered. Two kinds may name an event alike:
an upcaster never applies to another kind's events. Stored rows are never rewritten. Each
stream kind registers its upcasters in one place, in its AppConfig.ready(), before anything
reads events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class UpcasterRegistry:
    def __init__(self) -> None:
        self._upcasters: dict[tuple[str, str, int], Upcaster] = {}

    def register(
        self, *, stream_type: str, event_type: str, from_version: int, upcaster: Upcaster
    ) -> None:
        if from_version < 1:
            raise ValueError(f"Schema versions start at 1, got from_version={from_version}.")
        if (stream_type, event_type, from_version) in self._upcasters:
            raise ValueError(
                f"An upcaster for {stream_type} {event_type} from schema version "
                f"{from_version} is already registered."
            )
        self._upcasters[(stream_type, event_type, from_version)] = upcaster

    def register_kind(
        self, *, stream_type: str, upcasters: Mapping[tuple[str, int], Upcaster]
    ) -> None:
        """Register a stream kind's upcasters, by (event type, from version). Registering the
        very same ones again does nothing (an app's ready() may run twice); another upcaster
        for a key already taken is refused."""
        for (event_type, from_version), upcaster in upcasters.items():
            if self._upcasters.get((stream_type, event_type, from_version)) is upcaster:
                continue
            self.register(
                stream_type=stream_type,
                event_type=event_type,
                from_version=from_version,
                upcaster=upcaster,
            )

    def unregister(self, *, stream_type: str, event_type: str, from_version: int) -> None:
        del self._upcasters[(stream_type, event_type, from_version)]

    def applies_to(self, *, stream_type: str, event_type: str, schema_version: int) -> bool:
        return (stream_type, event_type, schema_version) in self._upcasters

    def upcast(
        self, *, stream_type: str, event_type: str, schema_version: int, payload: dict[str, Any]
    ) -> tuple[int, dict[str, Any]]:
        """The latest schema version and payload. The given payload may be modified."""
        while (
            upcaster := self._upcasters.get((stream_type, event_type, schema_version))
        ) is not None:
            payload = upcaster(payload)
            schema_version += 1
        return schema_version, payload


upcasters = UpcasterRegistry()
"""The registry that every read of the event store applies."""


def register_upcaster(
    *, stream_type: str, event_type: str, from_version: int, upcaster: Upcaster
) -> None:
    """Upcast `event_type` payloads of `stream_type` streams from schema version `from_version`
    to `from_version + 1`."""
    upcasters.register(
        stream_type=stream_type, event_type=event_type, from_version=from_version, upcaster=upcaster
    )


def register_upcasters(*, stream_type: str, by_type: Mapping[tuple[str, int], Upcaster]) -> None:
    """Register one stream kind's upcasters, by (event type, from version)
    (`UpcasterRegistry.register_kind`)."""
    upcasters.register_kind(stream_type=stream_type, upcasters=by_type)


def unregister_upcaster(*, stream_type: str, event_type: str, from_version: int) -> None:
    upcasters.unregister(stream_type=stream_type, event_type=event_type, from_version=from_version)
