"""Who sends a command: recorded on every event it appends (as the event store's metadata)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Actor:
    """Who sends a command, from which device, and why; recorded on every event."""

    user_id: int | None = None
    entrant: int | None = None
    """A player acting with their player key (no account): the tournament's entrant they are."""
    device: str | None = None
    reason: str | None = None
    correlation_id: str | None = None
    causation_id: str | None = None
    """The command the events come from, when one command appends several times."""
