"""What the tests of the services, the admin, the tasks and the pages do to the tournaments the
factories make (tests/factories/tournaments.py): read their fixtures and events, play their
matches through the match services, check in and call."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from games.eventstore.api import RecordedEvent, read_stream
from games.matches import services as match_services
from tests.factories.tournaments import ORGANIZER
from tournaments.models import Entrant, Fixture
from tournaments.services import registration, running, scheduling


def open_fixtures(tournament_id: uuid.UUID) -> list[Fixture]:
    return list(Fixture.objects.filter(tournament_id=tournament_id, status="ready"))


def fixtures(tournament_id: uuid.UUID, **filters: Any) -> list[Fixture]:
    return list(Fixture.objects.filter(tournament_id=tournament_id, **filters).order_by("key"))


def ready_fixtures(tournament_id: uuid.UUID) -> list[Fixture]:
    return list(Fixture.objects.filter(tournament_id=tournament_id, status="ready").order_by("key"))


def play(match_id: uuid.UUID, *, winner: int) -> None:
    """Play a one-round match to its end through the match services (points entered)."""
    match_services.round_start(match_id=match_id, briscola=None, actor=ORGANIZER)
    points = [80, 40] if winner == 0 else [40, 80]
    match_services.round_points_enter(
        match_id=match_id, round_number=1, points=points, actor=ORGANIZER
    )


def win_by_points(match_id: uuid.UUID, points: Sequence[int] = (80, 40)) -> None:
    """Play a one-round match by its card points per seat and let the tournament take it."""
    match_services.round_start(match_id=match_id, briscola=None, actor=ORGANIZER)
    match_services.round_points_enter(
        match_id=match_id, round_number=1, points=points, actor=ORGANIZER
    )
    running.fixture_result_sync(match_id=match_id, actor=ORGANIZER)


def event_types(stream_id: uuid.UUID) -> list[str]:
    return [event.event_type for event in read_stream(stream_id=stream_id)]


def events_of_type(stream_id: uuid.UUID, event_type: str) -> list[dict[str, Any]]:
    return [e.payload for e in read_stream(stream_id=stream_id) if e.event_type == event_type]


def events_after(stream_id: uuid.UUID, count: int) -> list[Any]:
    return list(read_stream(stream_id=stream_id))[count:]


def check_in(tournament_id: uuid.UUID, *entrant_ids: int) -> None:
    """Record the entrants as present at the venue (what the no-show rule asks of a side)."""
    for entrant_id in entrant_ids:
        registration.entrant_check_in(
            tournament_id=tournament_id, entrant_id=entrant_id, actor=ORGANIZER
        )


def check_in_seeds(tournament_id: uuid.UUID, *seeds: int) -> None:
    """Check in the entrants registered with these seeds."""
    entrants = Entrant.objects.filter(tournament_id=tournament_id, seed__in=seeds)
    check_in(tournament_id, *entrants.values_list("id", flat=True))


def call(match_id: uuid.UUID, *, now: datetime | None = None) -> None:
    """The organizer calls the match to its table: with the no-show rule on, its deadline runs
    from `now` (the clock of the test; the real one when not given)."""
    scheduling.fixture_call(match_id=match_id, actor=ORGANIZER, now=now)


def stream_after(tournament_id: uuid.UUID, count: int) -> list[tuple[str, dict[str, Any]]]:
    return [(e.event_type, e.payload) for e in read_stream(stream_id=tournament_id)][count:]


def version_of(tournament_id: uuid.UUID) -> int:
    return len(event_types(tournament_id))


def entrant_named(tournament_id: uuid.UUID, name: str) -> Entrant:
    return Entrant.objects.get(tournament_id=tournament_id, name=name)


def last_event(tournament_id: uuid.UUID) -> RecordedEvent:
    return read_stream(stream_id=tournament_id)[-1]
