"""Tournaments made through the services, for the tests of the services, the admin and the
tasks."""

from __future__ import annotations

import uuid
from typing import Any

from games.services import Actor
from tournaments import services
from tournaments.models import Fixture

ORGANIZER = Actor(device="test")


def new_tournament(
    format: str = "single_elimination", entrants: int = 4, **options: Any
) -> uuid.UUID:
    settings = {"table_size": 2, "best_of": 1} | options
    tournament = services.tournament_create(
        name="Circolo", format=format, actor=ORGANIZER, **settings
    )
    for number in range(1, entrants + 1):
        services.entrant_register(
            tournament_id=tournament.id,
            name=f"Player {number}",
            players=[f"Player {number}"],
            seed=number,
            actor=ORGANIZER,
        )
    return tournament.id


def open_fixtures(tournament_id: uuid.UUID) -> list[Fixture]:
    return list(Fixture.objects.filter(tournament_id=tournament_id, status="ready"))
