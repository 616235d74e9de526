"""Helpers for the task tests: tournaments to drive, matches to play, a second database session."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import psycopg
from django.db import connections

from games.eventstore.api import read_stream
from games.matches import services as match_services
from tests.tournaments.builders import ORGANIZER, new_tournament
from tournaments.models import Entrant, Fixture
from tournaments.services import registration, running, scheduling

__all__ = ["ORGANIZER", "new_tournament"]


def started_tournament(format: str, entrants: int, **options: Any) -> uuid.UUID:
    tournament_id = new_tournament(format, entrants, **options)
    running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    return tournament_id


def play(match_id: uuid.UUID, *, winner: int) -> None:
    """Play a one-round match to its end through the match services (points entered)."""
    match_services.round_start(match_id=match_id, briscola=None, actor=ORGANIZER)
    points = [80, 40] if winner == 0 else [40, 80]
    match_services.round_points_enter(
        match_id=match_id, round_number=1, points=points, actor=ORGANIZER
    )


def event_types(stream_id: uuid.UUID) -> list[str]:
    return [event.event_type for event in read_stream(stream_id=stream_id)]


def events_of_type(stream_id: uuid.UUID, event_type: str) -> list[dict[str, Any]]:
    return [e.payload for e in read_stream(stream_id=stream_id) if e.event_type == event_type]


def fixtures(tournament_id: uuid.UUID, **filters: Any) -> list[Fixture]:
    return list(Fixture.objects.filter(tournament_id=tournament_id, **filters).order_by("key"))


@contextmanager
def other_session() -> Iterator[psycopg.Connection[Any]]:
    """A second connection to the test database, outside Django, with a transaction open;
    rolled back and closed on exit."""
    db = connections["default"].settings_dict
    connection = psycopg.connect(
        dbname=db["NAME"],
        user=db["USER"] or None,
        password=db["PASSWORD"] or None,
        host=db["HOST"] or None,
        port=db["PORT"] or None,
    )
    try:
        yield connection
    finally:
        connection.rollback()
        connection.close()


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
