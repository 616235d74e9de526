"""The page tests' ready matches (in the order of their rows), played through the services."""

from __future__ import annotations

import uuid

from tests.tournaments.builders import play
from tournaments.models import Fixture, FixtureStatus
from tournaments.projections import consumer


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
    consumer.consume()
