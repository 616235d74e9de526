"""Tournaments for the page tests, made and played through the services."""

from __future__ import annotations

import uuid
from typing import Any

from games.matches import services as match_services
from tests.tournaments.builders import ORGANIZER, new_tournament
from tests.tournaments.tasks.builders import play
from tournaments import projections
from tournaments.models import Fixture, FixtureStatus
from tournaments.services import running

__all__ = [
    "ORGANIZER",
    "new_tournament",
    "play",
    "play_points",
    "play_ready",
    "ready_fixtures",
    "started",
    "started_at_three",
]


def started(format: str = "single_elimination", entrants: int = 4, **options: Any) -> uuid.UUID:
    """A started tournament of singles `Player 1`... (seeded in that order), projected."""
    tournament_id = new_tournament(format, entrants, **options)
    running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    projections.consume()
    return tournament_id


def ready_fixtures(tournament_id: uuid.UUID) -> list[Fixture]:
    return list(
        Fixture.objects.filter(tournament_id=tournament_id, status=FixtureStatus.READY).order_by(
            "id"
        )
    )


def play_ready(tournament_id: uuid.UUID) -> None:
    """Every ready match won by its home side, then projected."""
    for fixture in ready_fixtures(tournament_id):
        play(fixture.match_id, winner=0)
    projections.consume()


def started_at_three(format: str = "swiss", entrants: int = 5, **options: Any) -> uuid.UUID:
    """A started tournament at tables of three (one round of points per match), projected."""
    settings = {"table_size": 3, "scoring": "points", "rounds": 1} | options
    return started(format, entrants, **settings)


def play_points(fixture: Fixture, points: list[int]) -> None:
    """Play a one-round match by its card points per seat and let the tournament take it."""
    match_services.round_start(match_id=fixture.match_id, briscola=None, actor=ORGANIZER)
    match_services.round_points_enter(
        match_id=fixture.match_id, round_number=1, points=points, actor=ORGANIZER
    )
    running.fixture_result_sync(match_id=fixture.match_id, actor=ORGANIZER)
