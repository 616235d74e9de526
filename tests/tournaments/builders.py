"""Tournaments made through the services, for the tests of the services, the admin and the
tasks."""

from __future__ import annotations

import uuid
from typing import Any

from common.actors import Actor
from tournaments.services import registration

ORGANIZER = Actor(device="test")


def new_tournament(
    format: str = "single_elimination", entrants: int = 4, **options: Any
) -> uuid.UUID:
    settings = {"table_size": 2, "best_of": 1} | options
    tournament = registration.tournament_create(
        name="Circolo", format=format, actor=ORGANIZER, **settings
    )
    for number in range(1, entrants + 1):
        registration.entrant_register(
            tournament_id=tournament.id,
            name=f"Player {number}",
            players=[f"Player {number}"],
            seed=number,
            actor=ORGANIZER,
        )
    return tournament.id
