"""The tournament stream's upcasters: each turns a stored payload of one event type at one
schema version into its payload at the next (decision record 0063). Registered for the
tournament stream kind only, in `TournamentsConfig.ready`.

Version 2 of each event below carries every key its `from_payload` reads strictly. The payloads
stored at version 1 by older code may lack some: the upcaster fills those with what the older
readers assumed, and keeps every key present as it is (events written at version 1 by later
code carry them all already). A key whose version-2 value is never null (a reason, who acted)
is filled when it is null too, as the older readers did.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tournaments.stream.events import (
    APPLICATION_DECLINED,
    APPLICATION_PROMOTED,
    BYE_CANCELLED,
    BYE_REQUESTED,
    ENTRANT_CORRECTED,
    ENTRANT_PAUSED,
    ENTRANT_REGISTERED,
    ENTRANT_WITHDREW,
    ENTRANTS_RESEEDED,
    ENTRANTS_SEEDED,
    GROUP_PLACES_DECIDED,
    TABLES_CHANGED,
    TOURNAMENT_CREATED,
)
from tournaments.stream.fixture_events import (
    FIXTURE_RESET,
    LEVEL_MATCH_DECIDED,
    MATCH_CALLED,
    MATCH_SCHEDULED,
)

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


def filling(
    absent: Mapping[str, Any] | None = None, *, absent_or_null: Mapping[str, Any] | None = None
) -> Upcaster:
    """An upcaster that adds the keys of `absent` a payload lacks, and sets the keys of
    `absent_or_null` it lacks or holds null; every other key stays as it is."""

    def upcast(payload: dict[str, Any]) -> dict[str, Any]:
        filled = dict(payload)
        for key, default in (absent or {}).items():
            filled.setdefault(key, default)
        for key, default in (absent_or_null or {}).items():
            if filled.get(key) is None:
                filled[key] = default
        return filled

    return upcast


WITH_REASON = filling(absent_or_null={"reason": ""})
"""Before version 2 a reason could be missing (none given)."""
BY_ORGANIZER = filling(absent_or_null={"by": "organizer"})
"""Before version 2 only the organizer did it, and the payload did not say."""

UPCASTERS: dict[tuple[str, int], Upcaster] = {
    (TOURNAMENT_CREATED, 1): filling({"club": None, "public": True}),
    (ENTRANT_REGISTERED, 1): filling({"seed": None}),
    (ENTRANT_WITHDREW, 1): WITH_REASON,
    (ENTRANTS_SEEDED, 1): filling({"random_seed": None}),
    (ENTRANT_CORRECTED, 1): WITH_REASON,
    (ENTRANTS_RESEEDED, 1): WITH_REASON,
    (GROUP_PLACES_DECIDED, 1): WITH_REASON,
    (TABLES_CHANGED, 1): BY_ORGANIZER,
    (APPLICATION_DECLINED, 1): WITH_REASON,
    (APPLICATION_PROMOTED, 1): BY_ORGANIZER,
    (BYE_REQUESTED, 1): BY_ORGANIZER,
    (BYE_CANCELLED, 1): BY_ORGANIZER,
    (ENTRANT_PAUSED, 1): WITH_REASON,
    (MATCH_SCHEDULED, 1): filling({"deadline": None}),
    (MATCH_CALLED, 1): filling({"table": None, "by": ""}),
    (FIXTURE_RESET, 1): WITH_REASON,
    (LEVEL_MATCH_DECIDED, 1): WITH_REASON,
}
"""By (event type, from version)."""
